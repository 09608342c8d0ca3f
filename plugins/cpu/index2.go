package cpu

import (
	"errors"
	"fmt"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The rest of the indexing kernels: masked_select, masked_scatter, take,
// take_along_dim. Values are moved, never computed, so every mode and
// dtype is exact (backwards sum gradients in float64).

// maskedOperands broadcasts self and mask together (op names the error)
// and returns the broadcast shape with both operands' values at it (no
// copy where an operand already has that shape).
func maskedOperands(op string, x, mask *array, inplace bool) ([]int, []float64, []float64, error) {
	if mask.dtype != tensor.Bool && mask.dtype != tensor.Uint8 {
		if op == "masked_select" {
			return nil, nil, nil, errors.New("masked_select: expected BoolTensor or ByteTensor for mask")
		}
		return nil, nil, nil, fmt.Errorf("%s only supports boolean masks, but got mask with dtype %s", op, ops.TypeName(mask.dtype))
	}
	if inplace {
		if err := expandMaskTo(mask, x.shape); err != nil {
			return nil, nil, nil, err
		}
	}
	shape, err := ops.BroadcastShapes(mask.shape, x.shape)
	if err != nil {
		return nil, nil, nil, err
	}
	xv, mv := x.data, mask.data
	if !slices.Equal(x.shape, shape) {
		xv = expandTo(x, shape)
	}
	if !slices.Equal(mask.shape, shape) {
		mv = expandTo(mask, shape)
	}
	return shape, xv, mv, nil
}

// expandMaskTo is masked_scatter_'s mask.expand(self.sizes()) check, with
// its message (the internal expand names the mask's type as CPUBoolType).
func expandMaskTo(mask *array, target []int) error {
	r, m := mask.rank(), len(target)
	if m < r {
		name := "CPUBoolType"
		if mask.dtype == tensor.Uint8 {
			name = "CPUByteType"
		}
		return fmt.Errorf("expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)",
			name, ops.ShapeList(mask.shape), ops.ShapeList(target), m, r)
	}
	for i, s := range target {
		if j := i - (m - r); j >= 0 && mask.shape[j] != 1 && mask.shape[j] != s {
			return fmt.Errorf("The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
				s, mask.shape[j], i, ops.ShapeList(target), ops.ShapeList(mask.shape))
		}
	}
	return nil
}

// maskPrefix counts the true elements of mask per fixed chunk, in
// parallel; starts[c] is the number of true elements before chunk c.
func maskPrefix(mask []float64) (starts []int, total int) {
	n := len(mask)
	counts := make([]int, (n+chunkElems-1)/chunkElems)
	_ = forChunks(n, func(from, to int) error {
		k := 0
		for _, v := range mask[from:to] {
			if v != 0 {
				k++
			}
		}
		counts[from/chunkElems] = k
		return nil
	})
	starts = make([]int, len(counts))
	for c, k := range counts {
		starts[c] = total
		total += k
	}
	return starts, total
}

// gatherMasked writes the elements of v where mask is true, in order, to
// dst (len dst = the number of true elements).
func gatherMasked(dst, v, mask []float64, starts []int) {
	_ = forChunks(len(mask), func(from, to int) error {
		k := starts[from/chunkElems]
		for i, m := range mask[from:to] {
			if m != 0 {
				dst[k] = v[from+i]
				k++
			}
		}
		return nil
	})
}

// scatterMasked writes src's first elements, in order, to the positions of
// dst where mask is true.
func scatterMasked(dst, src, mask []float64, starts []int) {
	_ = forChunks(len(mask), func(from, to int) error {
		k := starts[from/chunkElems]
		for i, m := range mask[from:to] {
			if m != 0 {
				dst[from+i] = src[k]
				k++
			}
		}
		return nil
	})
}

func maskedSelectKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			_, xv, mv, err := maskedOperands("masked_select", x, c.in[1], false)
			if err != nil {
				return nil, err
			}
			starts, n := maskPrefix(mv)
			out := float64sFor(n)
			gatherMasked(out, xv, mv, starts)
			return []*array{{shape: []int{n}, data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			shape, _, mv, err := maskedOperands("masked_select", c.in[0], c.in[1], false)
			if err != nil {
				return nil, err
			}
			if !c.requiresGrad[0] {
				return make([]*array, 2), nil
			}
			starts, n := maskPrefix(mv)
			g := zeros(len(mv))
			scatterMasked(g, gradData(gos[0], n), mv, starts)
			return []*array{gradForOwned(c, 0, g, shape), nil}, nil
		},
	}
}

func maskedScatterKernel() *kernel {
	layout := func(c *call) ([]int, []float64, []float64, []int, error) {
		x, src := c.in[0], c.in[2]
		if src.dtype != x.dtype {
			return nil, nil, nil, nil, fmt.Errorf("masked_scatter: expected self and source to have same dtypes but got%s and %s", ops.TypeName(x.dtype), ops.TypeName(src.dtype))
		}
		shape, xv, mv, err := maskedOperands("masked_scatter_", x, c.in[1], c.attrs.Bool("inplace", false))
		if err != nil {
			return nil, nil, nil, nil, err
		}
		starts, n := maskPrefix(mv)
		if n > len(src.data) {
			return nil, nil, nil, nil, errors.New("Number of elements of source < number of ones in mask")
		}
		return shape, xv, mv, starts, nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			shape, xv, mv, starts, err := layout(c)
			if err != nil {
				return nil, err
			}
			out := float64sFor(len(mv))
			copy(out, xv)
			scatterMasked(out, c.in[2].data, mv, starts)
			return []*array{{shape: shape, data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			src := c.in[2]
			shape, _, mv, starts, err := layout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(mv))
			res := make([]*array, 3)
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				_ = forChunks(len(g), func(from, to int) error {
					for i, m := range mv[from:to] {
						if m != 0 {
							gs[from+i] = 0
						} else {
							gs[from+i] = g[from+i]
						}
					}
					return nil
				})
				res[0] = gradForOwned(c, 0, gs, shape)
			}
			if c.requiresGrad[2] {
				gsrc := zeros(len(src.data))
				gatherMasked(gsrc, g, mv, starts)
				res[2] = &array{shape: append([]int{}, src.shape...), data: gsrc, dtype: src.dtype}
			}
			return res, nil
		},
	}
}

// ---- take, take_along_dim ----

// takeLayout gives, for every output element, the offset of self it reads
// (checked against self's bounds with PyTorch's messages), and the output
// shape.
func takeLayout(c *call) ([]int, []int, error) {
	x, ind := c.in[0], c.in[1]
	if c.op == "take" {
		if ind.dtype != tensor.Int64 {
			return nil, nil, fmt.Errorf("take(): Expected a long tensor for index, but got %s", ops.TypeName(ind.dtype))
		}
		n := len(x.data)
		if n == 0 && len(ind.data) > 0 {
			return nil, nil, errors.New("take(): tried to take from an empty tensor")
		}
		off := make([]int, len(ind.data))
		err := forChunks(len(off), func(from, to int) error {
			for k, v := range ind.data[from:to] {
				if v < -float64(n) || v >= float64(n) {
					return fmt.Errorf("out of range: tried to access index %d on a tensor of %d elements.", int64(v), n)
				}
				if v < 0 {
					v += float64(n)
				}
				off[from+k] = int(v)
			}
			return nil
		})
		return off, append([]int{}, ind.shape...), err
	}
	if c.attrs.IsNone("dim") {
		if ind.dtype != tensor.Int64 {
			return nil, nil, errors.New("gather(): Expected dtype int64 for index")
		}
		n := len(x.data)
		off := make([]int, len(ind.data))
		err := forChunks(len(off), func(from, to int) error {
			for k, v := range ind.data[from:to] {
				if v < 0 || v >= float64(n) {
					return fmt.Errorf("index %d is out of bounds for dimension 0 with size %d", int64(v), n)
				}
				off[from+k] = int(v)
			}
			return nil
		})
		return off, []int{len(ind.data)}, err
	}
	d := c.attrs.Int("dim", 0)
	if x.rank() != ind.rank() {
		return nil, nil, fmt.Errorf("torch.take_along_dim(): input and indices should have the same number of dimensions, but got %d dimensions for input, and %d dimensions for indices",
			x.rank(), ind.rank())
	}
	if ind.dtype != tensor.Int64 {
		return nil, nil, fmt.Errorf("torch.take_along_dim(): dtype of indices should be Long but got %s", ops.TypeName(ind.dtype))
	}
	if x.rank() == 0 {
		return nil, nil, fmt.Errorf("Dimension specified as %d but tensor has no dimensions", d)
	}
	dim, err := normDim(d, x.rank())
	if err != nil {
		return nil, nil, err
	}
	sizes := append([]int{}, x.shape...)
	sizes[dim] = ind.shape[dim]
	shape, err := ops.BroadcastShapes(sizes, ind.shape)
	if err != nil {
		return nil, nil, err
	}
	// self with dim reduced to 1 broadcasts to the output; its flat
	// position j is self's offset (j/inner)*n*inner + j%inner
	reduced := append([]int{}, x.shape...)
	reduced[dim] = 1
	ms, mi := ops.BroadcastIndex(reduced, shape), ops.BroadcastIndex(ind.shape, shape)
	n, inner := x.shape[dim], 1
	for _, s := range x.shape[dim+1:] {
		inner *= s
	}
	off := make([]int, tensor.NumElements(shape))
	err = forChunks(len(off), func(from, to int) error {
		for k := from; k < to; k++ {
			j, i := k, k
			if ms != nil {
				j = ms[k]
			}
			if mi != nil {
				i = mi[k]
			}
			v := ind.data[i]
			if v < 0 || v >= float64(n) {
				return fmt.Errorf("index %d is out of bounds for dimension %d with size %d", int64(v), dim, n)
			}
			off[k] = (j/inner)*n*inner + j%inner + int(v)*inner
		}
		return nil
	})
	return off, shape, err
}

func takeKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			off, shape, err := takeLayout(c)
			if err != nil {
				return nil, err
			}
			out := float64sFor(len(off))
			xv := x.data
			_ = forChunks(len(off), func(from, to int) error {
				for k, o := range off[from:to] {
					out[from+k] = xv[o]
				}
				return nil
			})
			return []*array{{shape: shape, data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			off, _, err := takeLayout(c)
			if err != nil {
				return nil, err
			}
			if !c.requiresGrad[0] {
				return make([]*array, 2), nil
			}
			// repeated offsets accumulate in output order (put_ with accumulate)
			g := gradData(gos[0], len(off))
			gx := zeros(len(x.data))
			for k, o := range off {
				gx[o] += g[k]
			}
			return []*array{{shape: append([]int{}, x.shape...), data: gx, dtype: x.dtype}, nil}, nil
		},
	}
}

func init() {
	register("masked_select", maskedSelectKernel())
	register("masked_scatter", maskedScatterKernel())
	register("take", takeKernel())
	register("take_along_dim", takeKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"masked_select", "masked_scatter", "take", "take_along_dim"} {
		supportDTypes(n, all...)
	}
}
