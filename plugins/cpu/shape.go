package cpu

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Shape kernels: cat, stack, split_with_sizes, transpose, permute, reshape,
// clone, ones_like and echo.

// outerInner returns the products of the dims before and after dim.
func outerInner(shape []int, dim int) (outer, inner int) {
	outer, inner = 1, 1
	for i, s := range shape {
		if i < dim {
			outer *= s
		} else if i > dim {
			inner *= s
		}
	}
	return outer, inner
}

// concatAlong concatenates blocks (each of outer × sizes[i] × inner values)
// along the middle axis.
func concatAlong(parts [][]float64, sizes []int, outer, inner int) []float64 {
	total := 0
	for _, s := range sizes {
		total += s
	}
	out := float64sFor(outer * total * inner) // every element is written
	for o := 0; o < outer; o++ {
		off := o * total * inner
		for i, p := range parts {
			n := sizes[i] * inner
			copy(out[off:off+n], p[o*n:(o+1)*n])
			off += n
		}
	}
	return out
}

// sliceAlong returns the block [start, start+size) of the middle axis of
// data laid out as outer × total × inner.
func sliceAlong(data []float64, outer, total, inner, start, size int) []float64 {
	out := float64sFor(outer * size * inner) // every element is written
	for o := 0; o < outer; o++ {
		copy(out[o*size*inner:(o+1)*size*inner], data[(o*total+start)*inner:(o*total+start+size)*inner])
	}
	return out
}

func intsString(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// catSkip reports whether cat ignores a tensor: PyTorch's legacy rule skips
// 1-d empty tensors whatever the other shapes.
func catSkip(a *array) bool { return len(a.shape) == 1 && a.shape[0] == 0 }

// catLayout validates cat's inputs and returns the normalised dim, the
// result shape and dtype.
func catLayout(c *call) (int, []int, tensor.DType, error) {
	var ref *array
	for i, a := range c.in {
		if a.rank() == 0 {
			return 0, nil, 0, fmt.Errorf("zero-dimensional tensor (at position %d) cannot be concatenated", i)
		}
		if ref == nil && !catSkip(a) {
			ref = a
		}
	}
	dt := resultType(c.in...)
	if ref == nil {
		return 0, []int{0}, dt, nil
	}
	dim, err := normDim(c.attrs.Int("dim", 0), ref.rank())
	if err != nil {
		return 0, nil, 0, err
	}
	shape := append([]int{}, ref.shape...)
	shape[dim] = 0
	for i, a := range c.in {
		if catSkip(a) {
			continue
		}
		if a.rank() != ref.rank() {
			return 0, nil, 0, fmt.Errorf("Tensors must have same number of dimensions: got %d and %d", ref.rank(), a.rank())
		}
		for d := range a.shape {
			if d != dim && a.shape[d] != ref.shape[d] {
				return 0, nil, 0, fmt.Errorf("Sizes of tensors must match except in dimension %d. Expected size %d but got size %d for tensor number %d in the list.", dim, ref.shape[d], a.shape[d], i)
			}
		}
		shape[dim] += a.shape[dim]
	}
	return dim, shape, dt, nil
}

func catKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dim, shape, dt, err := catLayout(c)
			if err != nil {
				return nil, err
			}
			out := newArray(dt, shape)
			if len(shape) == 1 && shape[0] == 0 {
				return []*array{out}, nil
			}
			outer, inner := outerInner(shape, dim)
			var parts [][]float64
			var sizes []int
			for _, a := range c.in {
				if catSkip(a) {
					continue
				}
				parts = append(parts, castValues(a, dt))
				sizes = append(sizes, a.shape[dim])
			}
			out.data = concatAlong(parts, sizes, outer, inner)
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			dim, shape, _, err := catLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(outs[0].data))
			res := make([]*array, len(c.in))
			outer, inner := outerInner(shape, dim)
			start := 0
			for i, a := range c.in {
				if catSkip(a) {
					res[i] = gradFor(c, i, nil, a.shape)
					continue
				}
				if len(shape) == 1 && shape[0] == 0 {
					break
				}
				part := sliceAlong(g, outer, shape[dim], inner, start, a.shape[dim])
				start += a.shape[dim]
				res[i] = gradFor(c, i, part, a.shape)
			}
			return res, nil
		},
	}
}

func stackLayout(c *call) (int, []int, tensor.DType, error) {
	ref := c.in[0]
	for i, a := range c.in[1:] {
		if !slices.Equal(a.shape, ref.shape) {
			return 0, nil, 0, fmt.Errorf("stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", ops.ShapeList(ref.shape), ops.ShapeList(a.shape), i+1)
		}
	}
	dim, err := normDim(c.attrs.Int("dim", 0), ref.rank()+1)
	if err != nil {
		return 0, nil, 0, err
	}
	shape := append(append(append([]int{}, ref.shape[:dim]...), len(c.in)), ref.shape[dim:]...)
	return dim, shape, resultType(c.in...), nil
}

func stackKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dim, shape, dt, err := stackLayout(c)
			if err != nil {
				return nil, err
			}
			outer, inner := outerInner(shape, dim)
			parts := make([][]float64, len(c.in))
			sizes := make([]int, len(c.in))
			for i, a := range c.in {
				parts[i] = castValues(a, dt)
				sizes[i] = 1
			}
			out := newArray(dt, shape)
			out.data = concatAlong(parts, sizes, outer, inner)
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			dim, shape, _, err := stackLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(outs[0].data))
			outer, inner := outerInner(shape, dim)
			res := make([]*array, len(c.in))
			for i, a := range c.in {
				res[i] = gradFor(c, i, sliceAlong(g, outer, len(c.in), inner, i, 1), a.shape)
			}
			return res, nil
		},
	}
}

func splitLayout(c *call) (int, []int64, error) {
	x := c.in[0]
	if x.rank() == 0 {
		return 0, nil, errors.New("split expects at least a 1-dimensional tensor")
	}
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return 0, nil, err
	}
	sizes := c.attrs.Ints("split_sizes", nil)
	sum := int64(0)
	for _, s := range sizes {
		if s < 0 {
			return 0, nil, fmt.Errorf("split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", intsString(sizes))
		}
		sum += s
	}
	if sum != int64(x.shape[dim]) {
		return 0, nil, fmt.Errorf("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", x.shape[dim], dim, intsString(sizes))
	}
	return dim, sizes, nil
}

func splitKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dim, sizes, err := splitLayout(c)
			if err != nil {
				return nil, err
			}
			outer, inner := outerInner(x.shape, dim)
			outs := make([]*array, len(sizes))
			start := 0
			for i, s := range sizes {
				shape := append([]int{}, x.shape...)
				shape[dim] = int(s)
				outs[i] = &array{shape: shape, dtype: x.dtype, data: sliceAlong(x.data, outer, x.shape[dim], inner, start, int(s))}
				start += int(s)
			}
			return outs, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			dim, sizes, err := splitLayout(c)
			if err != nil {
				return nil, err
			}
			outer, inner := outerInner(x.shape, dim)
			parts := make([][]float64, len(sizes))
			ss := make([]int, len(sizes))
			for i, s := range sizes {
				parts[i] = gradData(gos[i], len(outs[i].data))
				ss[i] = int(s)
			}
			return []*array{gradFor(c, 0, concatAlong(parts, ss, outer, inner), x.shape)}, nil
		},
	}
}

// permuteData reorders data of the given shape so that result dim i is
// input dim perm[i].
func permuteData(data []float64, shape []int, perm []int) ([]float64, []int) {
	outShape := make([]int, len(perm))
	inSt := contiguousStrides(shape)
	st := make([]int, len(perm))
	for i, p := range perm {
		outShape[i] = shape[p]
		st[i] = inSt[p]
	}
	n := len(data)
	out := float64sFor(n) // every element is written
	if n == 0 {
		return out, outShape
	}
	pos := make([]int, len(perm))
	cur := 0
	for k := 0; k < n; k++ {
		out[k] = data[cur]
		for d := len(perm) - 1; d >= 0; d-- {
			pos[d]++
			cur += st[d]
			if pos[d] < outShape[d] {
				break
			}
			cur -= st[d] * pos[d]
			pos[d] = 0
		}
	}
	return out, outShape
}

func invertPerm(perm []int) []int {
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return inv
}

// permKernel builds transpose and permute from a function giving the
// permutation of the input's dims.
func permKernel(permOf func(c *call) ([]int, error)) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			perm, err := permOf(c)
			if err != nil {
				return nil, err
			}
			data, shape := permuteData(x.data, x.shape, perm)
			return []*array{{shape: shape, data: data, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			perm, err := permOf(c)
			if err != nil {
				return nil, err
			}
			out := outs[0]
			g, _ := permuteData(gradData(gos[0], len(out.data)), out.shape, invertPerm(perm))
			return []*array{gradFor(c, 0, g, c.in[0].shape)}, nil
		},
	}
}

func transposePerm(c *call) ([]int, error) {
	r := c.in[0].rank()
	d0, err := normDim(c.attrs.Int("dim0", 0), r)
	if err != nil {
		return nil, err
	}
	d1, err := normDim(c.attrs.Int("dim1", 0), r)
	if err != nil {
		return nil, err
	}
	perm := make([]int, r)
	for i := range perm {
		perm[i] = i
	}
	if r > 0 {
		perm[d0], perm[d1] = perm[d1], perm[d0]
	}
	return perm, nil
}

func permutePerm(c *call) ([]int, error) {
	r := c.in[0].rank()
	dims := c.attrs.Ints("dims", nil)
	if len(dims) != r {
		return nil, fmt.Errorf("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", r, len(dims))
	}
	perm := make([]int, r)
	seen := make([]bool, r)
	for i, d := range dims {
		n, err := normDim(d, r)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, errors.New("permute(): duplicate dims are not allowed.")
		}
		seen[n] = true
		perm[i] = n
	}
	return perm, nil
}

// inferShape resolves reshape's target shape (one -1 allowed) for numel
// elements, with PyTorch's messages.
func inferShape(want []int64, numel int) ([]int, error) {
	out := make([]int, len(want))
	infer := -1
	prod := 1
	for i, s := range want {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, errors.New("only one dimension can be inferred")
			}
			infer = i
		case s < 0:
			return nil, fmt.Errorf("invalid shape dimension %d", s)
		default:
			out[i] = int(s)
			prod *= int(s)
		}
	}
	if infer >= 0 {
		if prod == 0 {
			return nil, fmt.Errorf("cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous", intsString(want))
		}
		if numel%prod == 0 {
			out[infer] = numel / prod
			return out, nil
		}
	} else if prod == numel {
		return out, nil
	}
	return nil, fmt.Errorf("shape '%s' is invalid for input of size %d", intsString(want), numel)
}

func reshapeKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			shape, err := inferShape(c.attrs.Ints("shape", nil), len(x.data))
			if err != nil {
				return nil, err
			}
			return []*array{{shape: shape, data: append([]float64(nil), x.data...), dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			g := append([]float64(nil), gradData(gos[0], len(x.data))...)
			return []*array{gradFor(c, 0, g, x.shape)}, nil
		},
	}
}

// identityKernel copies its input (clone, echo); with grad it passes the
// gradient through.
func identityKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0].clone()
			x.scalar = false
			return []*array{x}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			g := append([]float64(nil), gradData(gos[0], len(x.data))...)
			return []*array{gradFor(c, 0, g, x.shape)}, nil
		},
	}
}

func onesLikeKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt, given, err := dtypeAttr(c, "dtype")
			if err != nil {
				return nil, err
			}
			if !given {
				dt = x.dtype
			}
			out := newArray(dt, x.shape)
			for i := range out.data {
				out.data[i] = 1
			}
			return []*array{out}, nil
		},
	}
}

func init() {
	register("cat", catKernel())
	register("stack", stackKernel())
	register("split_with_sizes", splitKernel())
	register("transpose", permKernel(transposePerm))
	register("permute", permKernel(permutePerm))
	register("reshape", reshapeKernel())
	register("clone", identityKernel())
	register("echo", &kernel{forward: identityKernel().forward})
	register("ones_like", onesLikeKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"cat", "stack", "split_with_sizes", "transpose", "permute", "reshape", "clone", "echo", "ones_like"} {
		supportDTypes(n, all...)
	}
}
