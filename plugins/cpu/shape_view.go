package cpu

import (
	"errors"
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// View kernels: expand, repeat, flip, roll, rot90, slice, select, unfold,
// diagonal, diag_embed, diagflat, unbind. Each output element is one
// element of the input (or, for diag_embed and diagflat, each input element
// one of the output), found through a separable index map: a table per
// dimension of the offset each index contributes. Forward gathers through
// the map; backward scatters the gradient back, adding where the map is not
// injective (expand, repeat, overlapping unfold windows) in one fixed
// order.

// view maps each element of shape (row-major) to the offset
// base + Σ_d tab[d][i_d] of a flat buffer. Its rank is at least 1: a 0-d
// view is the one-element shape [1].
type view struct {
	shape []int
	tab   [][]int
	base  int
}

// newView builds a view from per-dimension tables.
func newView(shape []int, tab [][]int, base int) *view {
	if len(shape) == 0 {
		return &view{shape: []int{1}, tab: [][]int{{0}}, base: base}
	}
	return &view{shape: shape, tab: tab, base: base}
}

// stridedView is the view of shape whose dimension d advances strides[d]
// elements (negative strides walk backwards from base).
func stridedView(shape, strides []int, base int) *view {
	tab := make([][]int, len(shape))
	for d, n := range shape {
		t := make([]int, n)
		for i := range t {
			t[i] = i * strides[d]
		}
		tab[d] = t
	}
	return newView(shape, tab, base)
}

func (v *view) len() int { return tensor.NumElements(v.shape) }

// rows calls fn once per run of consecutive elements along the last
// dimension within elements [from, to): elements k0, k0+1, ... are at
// offsets outer+last[0], outer+last[1], ...
func (v *view) rows(from, to int, fn func(k0, outer int, last []int)) {
	if from >= to {
		return
	}
	r := len(v.shape)
	idx := make([]int, r)
	k := from
	for d := r - 1; d >= 0; d-- {
		idx[d] = k % v.shape[d]
		k /= v.shape[d]
	}
	outer := v.base
	for d := 0; d < r-1; d++ {
		outer += v.tab[d][idx[d]]
	}
	last := v.tab[r-1]
	for k = from; k < to; {
		j0 := idx[r-1]
		n := min(len(last)-j0, to-k)
		fn(k, outer, last[j0:j0+n])
		k += n
		idx[r-1] = 0
		for d := r - 2; d >= 0; d-- {
			outer -= v.tab[d][idx[d]]
			idx[d]++
			if idx[d] < v.shape[d] {
				outer += v.tab[d][idx[d]]
				break
			}
			idx[d] = 0
			outer += v.tab[d][0]
		}
	}
}

// gather returns src read through the view, in the view's order.
func (v *view) gather(src []float64) []float64 {
	n := v.len()
	out := float64sFor(n)
	forChunks(n, func(from, to int) error {
		v.rows(from, to, func(k0, outer int, last []int) {
			o := out[k0 : k0+len(last)]
			for j, t := range last {
				o[j] = src[outer+t]
			}
		})
		return nil
	})
	return out
}

// scatter writes vals (in the view's order) to dst through the view, which
// must be injective.
func (v *view) scatter(dst, vals []float64) {
	forChunks(v.len(), func(from, to int) error {
		v.rows(from, to, func(k0, outer int, last []int) {
			in := vals[k0 : k0+len(last)]
			for j, t := range last {
				dst[outer+t] = in[j]
			}
		})
		return nil
	})
}

// scatterAdd adds vals (in the view's order) to dst through the view, in
// the view's order: the gradient of a gather that reads elements several
// times.
func (v *view) scatterAdd(dst, vals []float64) {
	v.rows(0, v.len(), func(k0, outer int, last []int) {
		in := vals[k0 : k0+len(last)]
		for j, t := range last {
			dst[outer+t] += in[j]
		}
	})
}

// gatherKernel builds an op whose output is its input read through a view
// (the view's shape is the output's); injective says whether no input
// element is read twice (backward then scatters without adding).
func gatherKernel(viewOf func(c *call) (*view, []int, error), injective bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			v, shape, err := viewOf(c)
			if err != nil {
				return nil, err
			}
			return []*array{{shape: shape, data: v.gather(x.data), dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			v, _, err := viewOf(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(outs[0].data))
			gin := zeros(len(x.data))
			if injective {
				v.scatter(gin, g)
			} else {
				v.scatterAdd(gin, g)
			}
			res := make([]*array, len(c.in)) // index inputs take no gradient
			res[0] = gradForOwned(c, 0, gin, x.shape)
			return res, nil
		},
	}
}

// ---- expand, repeat ----

func expandView(c *call) (*view, []int, error) {
	x := c.in[0]
	size := c.attrs.Ints("size", nil)
	r, m := x.rank(), len(size)
	if m < r {
		return nil, nil, fmt.Errorf("expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)",
			torchTensorType(x.dtype), ops.ShapeList(x.shape), intsString(size), m, r)
	}
	st := contiguousStrides(x.shape)
	shape := make([]int, m)
	strides := make([]int, m)
	for i, s := range size {
		j := i - (m - r)
		switch {
		case j < 0 && s < 0:
			if s == -1 {
				return nil, nil, fmt.Errorf("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i)
			}
			return nil, nil, errors.New("numel: integer multiplication overflow")
		case j < 0:
			shape[i] = int(s)
		case s == -1:
			shape[i], strides[i] = x.shape[j], st[j]
		case x.shape[j] == 1 && s >= 0:
			shape[i] = int(s)
		case int64(x.shape[j]) == s:
			shape[i], strides[i] = x.shape[j], st[j]
		default:
			return nil, nil, fmt.Errorf("The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
				s, x.shape[j], i, intsString(size), ops.ShapeList(x.shape))
		}
	}
	return stridedView(shape, strides, 0), shape, nil
}

// torchTensorType is the legacy type name PyTorch prints in expand's
// message: torch.DoubleTensor.
func torchTensorType(d tensor.DType) string {
	return "torch." + ops.TypeName(d) + "Tensor"
}

func repeatView(c *call) (*view, []int, error) {
	x := c.in[0]
	reps := c.attrs.Ints("repeats", nil)
	r, m := x.rank(), len(reps)
	if m < r {
		return nil, nil, errors.New("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	padded := make([]int, m)
	for i := range padded {
		padded[i] = 1
	}
	copy(padded[m-r:], x.shape)
	st := contiguousStrides(padded)
	want := make([]int64, m)
	neg := false
	for i, n := range reps {
		want[i] = int64(padded[i]) * n
		neg = neg || want[i] < 0
	}
	if neg {
		for _, w := range want {
			if w < 0 {
				return nil, nil, fmt.Errorf("Trying to create tensor with negative dimension %d: %s", w, intsString(want))
			}
		}
	}
	shape := make([]int, m)
	tab := make([][]int, m)
	for d := range shape {
		shape[d] = int(want[d])
		t := make([]int, shape[d])
		for i := range t {
			t[i] = (i % padded[d]) * st[d]
		}
		tab[d] = t
	}
	return newView(shape, tab, 0), shape, nil
}

// ---- flip, roll, rot90 ----

// normDims normalises a list of dims against rank r, refusing repeats with
// the message of op's checker.
func normDims(dims []int64, r int) ([]int, error) {
	out := make([]int, len(dims))
	seen := map[int]bool{}
	for i, d := range dims {
		n, err := normDim(d, r)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("dim %d appears multiple times in the list of dims", n)
		}
		seen[n] = true
		out[i] = n
	}
	return out, nil
}

func flipView(c *call) (*view, []int, error) {
	x := c.in[0]
	dims, err := normDims(c.attrs.Ints("dims", nil), x.rank())
	if err != nil {
		return nil, nil, err
	}
	st := contiguousStrides(x.shape)
	base := 0
	for _, d := range dims {
		if d >= x.rank() { // a 0-d tensor's dim 0
			continue
		}
		if x.shape[d] > 0 {
			base += (x.shape[d] - 1) * st[d]
		}
		st[d] = -st[d]
	}
	return stridedView(x.shape, st, base), x.shape, nil
}

func rollView(c *call) (*view, []int, error) {
	x := c.in[0]
	shifts := c.attrs.Ints("shifts", nil)
	dims := c.attrs.Ints("dims", nil)
	if len(dims) == 0 && len(shifts) == 1 {
		// roll the flattened tensor
		n := len(x.data)
		t := make([]int, n)
		for i := range t {
			t[i] = rollIndex(i, shifts[0], n)
		}
		v := newView([]int{n}, [][]int{t}, 0)
		return v, x.shape, nil
	}
	if len(shifts) == 0 {
		return nil, nil, errors.New("`shifts` required")
	}
	if len(shifts) != len(dims) {
		return nil, nil, fmt.Errorf("shifts and dimensions must align. shifts: %d, dims:%d", len(shifts), len(dims))
	}
	if x.rank() == 0 {
		return nil, nil, fmt.Errorf("Dimension specified as %d but tensor has no dimensions", dims[0])
	}
	shift := make([]int64, x.rank())
	for i, d := range dims {
		n, err := normDim(d, x.rank())
		if err != nil {
			return nil, nil, err
		}
		shift[n] += shifts[i]
	}
	st := contiguousStrides(x.shape)
	tab := make([][]int, x.rank())
	for d, n := range x.shape {
		t := make([]int, n)
		for i := range t {
			t[i] = rollIndex(i, shift[d], n) * st[d]
		}
		tab[d] = t
	}
	return newView(x.shape, tab, 0), x.shape, nil
}

// rollIndex is the source index of output index i of a length-n axis
// rolled by shift.
func rollIndex(i int, shift int64, n int) int {
	s := int((shift%int64(n) + int64(n)) % int64(n))
	j := i - s
	if j < 0 {
		j += n
	}
	return j
}

func rot90View(c *call) (*view, []int, error) {
	x := c.in[0]
	k := c.attrs.Int("k", 1)
	dims := c.attrs.Ints("dims", nil)
	r := int64(x.rank())
	if len(dims) != 2 {
		return nil, nil, fmt.Errorf("expected total rotation dims == 2, but got dims = %d", len(dims))
	}
	if r < 2 {
		return nil, nil, fmt.Errorf("expected total dims >= 2, but got total dims = %d", r)
	}
	if dims[0] == dims[1] || abs64(dims[0]-dims[1]) == r {
		return nil, nil, fmt.Errorf("expected rotation dims to be different, but got dim0 = %d and dim1 = %d", dims[0], dims[1])
	}
	if dims[0] >= r || dims[0] < -r {
		return nil, nil, fmt.Errorf("Rotation dim0 out of range, dim0 = %d", dims[0])
	}
	if dims[1] >= r || dims[1] < -r {
		return nil, nil, fmt.Errorf("Rotation dim1 out of range, dim1 = %d", dims[1])
	}
	d0, _ := normDim(dims[0], x.rank())
	d1, _ := normDim(dims[1], x.rank())
	shape := append([]int{}, x.shape...)
	st := contiguousStrides(x.shape)
	base := 0
	flip := func(d int) {
		if shape[d] > 0 {
			base += (shape[d] - 1) * st[d]
		}
		st[d] = -st[d]
	}
	switch (4 + k%4) % 4 {
	case 1: // flip(dim1) then transpose
		flip(d1)
		shape[d0], shape[d1] = shape[d1], shape[d0]
		st[d0], st[d1] = st[d1], st[d0]
	case 2:
		flip(d0)
		flip(d1)
	case 3: // flip(dim0) then transpose
		flip(d0)
		shape[d0], shape[d1] = shape[d1], shape[d0]
		st[d0], st[d1] = st[d1], st[d0]
	}
	return stridedView(shape, st, base), shape, nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// ---- slice, select, unfold ----

func sliceView(c *call) (*view, []int, error) {
	x := c.in[0]
	if x.rank() == 0 {
		return nil, nil, errors.New("slice() cannot be applied to a 0-dim tensor.")
	}
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, nil, err
	}
	step := c.attrs.Int("step", 1)
	if step <= 0 {
		return nil, nil, errors.New("slice step must be positive")
	}
	n := int64(x.shape[dim])
	start, end := c.attrs.Int("start", 0), c.attrs.Int("end", 1<<63-1)
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start = max(0, min(start, n))
	end = max(start, min(end, n))
	shape := append([]int{}, x.shape...)
	shape[dim] = int((end - start + step - 1) / step)
	st := contiguousStrides(x.shape)
	base := int(start) * st[dim]
	st[dim] *= int(step)
	return stridedView(shape, st, base), shape, nil
}

func selectView(c *call) (*view, []int, error) {
	x := c.in[0]
	if x.rank() == 0 {
		return nil, nil, errors.New("select() cannot be applied to a 0-dim tensor.")
	}
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, nil, err
	}
	idx := c.attrs.Int("index", 0)
	n := int64(x.shape[dim])
	if idx < -n || idx >= n {
		return nil, nil, fmt.Errorf("select(): index %d out of range for tensor of size %s at dimension %d", idx, ops.ShapeList(x.shape), dim)
	}
	if idx < 0 {
		idx += n
	}
	return selectAlong(x.shape, dim, int(idx))
}

// selectAlong is the view of index idx along dim of a contiguous tensor of
// the given shape, dim removed.
func selectAlong(in []int, dim, idx int) (*view, []int, error) {
	st := contiguousStrides(in)
	shape := append(append([]int{}, in[:dim]...), in[dim+1:]...)
	strides := append(append([]int{}, st[:dim]...), st[dim+1:]...)
	return stridedView(shape, strides, idx*st[dim]), shape, nil
}

func unfoldView(c *call) (*view, []int, error) {
	x := c.in[0]
	dim, err := normDim(c.attrs.Int("dimension", 0), x.rank())
	if err != nil {
		return nil, nil, err
	}
	size, step := c.attrs.Int("size", 0), c.attrs.Int("step", 0)
	maxSize := int64(1)
	if x.rank() > 0 {
		maxSize = int64(x.shape[dim])
	}
	if size > maxSize {
		return nil, nil, fmt.Errorf("maximum size for tensor at dimension %d is %d but size is %d", dim, maxSize, size)
	}
	if step <= 0 {
		return nil, nil, fmt.Errorf("step is %d but must be > 0", step)
	}
	st := contiguousStrides(x.shape)
	shape := append([]int{}, x.shape...)
	strides := append([]int{}, st...)
	if x.rank() > 0 {
		shape[dim] = int((maxSize-size)/step + 1)
		strides[dim] = st[dim] * int(step)
	}
	last := 1
	if x.rank() > 0 {
		last = st[dim]
	}
	shape = append(shape, int(size))
	strides = append(strides, last)
	if size < 0 {
		return nil, nil, fmt.Errorf("Storage size calculation overflowed with sizes=%s and strides=%s", ops.ShapeList(shape), ops.ShapeList(strides))
	}
	return stridedView(shape, strides, 0), shape, nil
}

// ---- diagonal, diag_embed, diagflat ----

// diagonalOf is the view of the diagonal at offset of the planes
// dim1 × dim2 (already normalised) of a contiguous tensor of shape in: the
// other dims in order, then the diagonal.
func diagonalOf(in []int, offset int64, dim1, dim2 int) (*view, []int) {
	st := contiguousStrides(in)
	n1, n2 := int64(in[dim1]), int64(in[dim2])
	var size int64
	base := 0
	if offset >= 0 {
		size = max(min(n1, n2-offset), 0)
		if size > 0 {
			base = int(offset) * st[dim2]
		}
	} else {
		size = max(min(n1+offset, n2), 0)
		if size > 0 {
			base = int(-offset) * st[dim1]
		}
	}
	var shape, strides []int
	for d := range in {
		if d != dim1 && d != dim2 {
			shape = append(shape, in[d])
			strides = append(strides, st[d])
		}
	}
	shape = append(shape, int(size))
	strides = append(strides, st[dim1]+st[dim2])
	return stridedView(shape, strides, base), shape
}

// diagDims normalises dim1 and dim2 against rank r with PyTorch's checks.
func diagDims(c *call, r int) (int, int, error) {
	a, b := c.attrs.Int("dim1", 0), c.attrs.Int("dim2", 1)
	d1, err := normDim(a, r)
	if err != nil {
		return 0, 0, err
	}
	d2, err := normDim(b, r)
	if err != nil {
		return 0, 0, err
	}
	if d1 == d2 {
		return 0, 0, fmt.Errorf("diagonal dimensions cannot be identical %d, %d", a, b)
	}
	return d1, d2, nil
}

func diagonalView(c *call) (*view, []int, error) {
	x := c.in[0]
	d1, d2, err := diagDims(c, x.rank())
	if err != nil {
		return nil, nil, err
	}
	v, shape := diagonalOf(x.shape, c.attrs.Int("offset", 0), d1, d2)
	return v, shape, nil
}

// embedLayout is the result shape of diag_embed of an input of shape in
// (its last dim goes on the diagonal) and the view of that diagonal.
func embedLayout(in []int, offset int64, d1, d2 int) ([]int, *view) {
	n := in[len(in)-1] + int(abs64(offset))
	shape := append([]int{}, in[:len(in)-1]...)
	lo, hi := min(d1, d2), max(d1, d2)
	shape = append(shape[:lo], append([]int{n}, shape[lo:]...)...)
	shape = append(shape[:hi], append([]int{n}, shape[hi:]...)...)
	v, _ := diagonalOf(shape, offset, d1, d2)
	return shape, v
}

// embedKernel builds diag_embed and diagflat: a zero tensor whose diagonal
// view holds the input.
func embedKernel(layout func(c *call) ([]int, *view, error)) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			shape, v, err := layout(c)
			if err != nil {
				return nil, err
			}
			out := zeros(tensor.NumElements(shape))
			v.scatter(out, x.data)
			return []*array{{shape: shape, data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			_, v, err := layout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(outs[0].data))
			return []*array{gradForOwned(c, 0, v.gather(g), x.shape)}, nil
		},
	}
}

func diagEmbedLayout(c *call) ([]int, *view, error) {
	x := c.in[0]
	if x.rank() == 0 {
		// dims wrap against rank 1, where they are out of range or equal
		_, _, err := diagDims(c, 1)
		return nil, nil, err
	}
	d1, d2, err := diagDims(c, x.rank()+1)
	if err != nil {
		return nil, nil, err
	}
	shape, v := embedLayout(x.shape, c.attrs.Int("offset", 0), d1, d2)
	return shape, v, nil
}

func diagflatLayout(c *call) ([]int, *view, error) {
	shape, v := embedLayout([]int{len(c.in[0].data)}, c.attrs.Int("offset", 0), 0, 1)
	return shape, v, nil
}

// ---- unbind ----

func unbindDim(x *array, c *call) (int, error) {
	d := c.attrs.Int("dim", 0)
	if x.rank() == 0 {
		return 0, fmt.Errorf("Dimension specified as %d but tensor has no dimensions", d)
	}
	return normDim(d, x.rank())
}

func unbindKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dim, err := unbindDim(x, c)
			if err != nil {
				return nil, err
			}
			outs := make([]*array, x.shape[dim])
			for i := range outs {
				v, shape, _ := selectAlong(x.shape, dim, i)
				outs[i] = &array{shape: shape, data: v.gather(x.data), dtype: x.dtype}
			}
			return outs, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			dim, err := unbindDim(x, c)
			if err != nil {
				return nil, err
			}
			gin := zeros(len(x.data))
			for i, g := range gos {
				if g == nil {
					continue
				}
				v, _, _ := selectAlong(x.shape, dim, i)
				v.scatter(gin, g.data)
			}
			return []*array{gradForOwned(c, 0, gin, x.shape)}, nil
		},
	}
}

// ---- broadcast_tensors ----

func broadcastViews(c *call) ([]int, []*view, error) {
	shapes := make([][]int, len(c.in))
	for i, a := range c.in {
		shapes[i] = a.shape
	}
	out, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil, nil, err
	}
	views := make([]*view, len(c.in))
	for i, a := range c.in {
		st := contiguousStrides(a.shape)
		strides := make([]int, len(out))
		for d := range a.shape {
			if a.shape[d] != 1 {
				strides[len(out)-len(a.shape)+d] = st[d]
			}
		}
		views[i] = stridedView(out, strides, 0)
	}
	return out, views, nil
}

func broadcastTensorsKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			shape, views, err := broadcastViews(c)
			if err != nil {
				return nil, err
			}
			outs := make([]*array, len(c.in))
			for i, a := range c.in {
				outs[i] = &array{shape: append([]int{}, shape...), data: views[i].gather(a.data), dtype: a.dtype}
			}
			return outs, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			_, views, err := broadcastViews(c)
			if err != nil {
				return nil, err
			}
			res := make([]*array, len(c.in))
			for i, a := range c.in {
				if !c.requiresGrad[i] || gos[i] == nil {
					continue
				}
				gin := zeros(len(a.data))
				views[i].scatterAdd(gin, gos[i].data)
				res[i] = gradForOwned(c, i, gin, a.shape)
			}
			return res, nil
		},
	}
}

// ---- hstack, vstack, dstack, column_stack ----

// atLeast is the shape of torch.atleast_{1,2,3}d of a tensor of shape s.
func atLeast(s []int, n int) []int {
	if len(s) >= n {
		return s
	}
	switch {
	case len(s) == 0:
		out := make([]int, n)
		for i := range out {
			out[i] = 1
		}
		return out
	case len(s) == 1 && n == 2:
		return []int{1, s[0]}
	case len(s) == 1: // n == 3
		return []int{1, s[0], 1}
	}
	return []int{s[0], s[1], 1} // 2-d, n == 3
}

// stackFamilyKernel builds hstack, vstack, dstack and column_stack: cat
// along the dim that dimOf chooses of the inputs reshaped by shapeOf
// (their values and order unchanged).
func stackFamilyKernel(shapeOf func(s []int) []int, dimOf func(first []int) int) *kernel {
	cat := catKernel()
	prep := func(c *call) *call {
		nc := *c
		nc.in = make([]*array, len(c.in))
		for i, a := range c.in {
			b := *a
			b.shape = shapeOf(a.shape)
			nc.in[i] = &b
		}
		nc.attrs = ops.Attrs{"dim": ops.IntAttr(int64(dimOf(nc.in[0].shape)))}
		return &nc
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) { return cat.forward(prep(c)) },
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			gs, err := cat.backward(prep(c), outs, gos)
			for i, g := range gs {
				if g != nil {
					g.shape = append([]int{}, c.in[i].shape...)
				}
			}
			return gs, err
		},
	}
}

func init() {
	register("broadcast_tensors", broadcastTensorsKernel())
	register("hstack", stackFamilyKernel(func(s []int) []int { return atLeast(s, 1) }, func(f []int) int {
		if len(f) == 1 {
			return 0
		}
		return 1
	}))
	register("vstack", stackFamilyKernel(func(s []int) []int { return atLeast(s, 2) }, func([]int) int { return 0 }))
	register("dstack", stackFamilyKernel(func(s []int) []int { return atLeast(s, 3) }, func([]int) int { return 2 }))
	register("column_stack", stackFamilyKernel(func(s []int) []int {
		if len(s) <= 1 {
			return []int{tensor.NumElements(s), 1}
		}
		return s
	}, func([]int) int { return 1 }))
	for _, n := range []string{"broadcast_tensors", "hstack", "vstack", "dstack", "column_stack"} {
		supportDTypes(n, append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)...)
	}
}

func init() {
	register("expand", gatherKernel(expandView, false))
	register("repeat", gatherKernel(repeatView, false))
	register("flip", gatherKernel(flipView, true))
	register("roll", gatherKernel(rollView, true))
	register("rot90", gatherKernel(rot90View, true))
	register("slice", gatherKernel(sliceView, true))
	register("select", gatherKernel(selectView, true))
	register("unfold", gatherKernel(unfoldView, false))
	register("diagonal", gatherKernel(diagonalView, true))
	register("diag_embed", embedKernel(diagEmbedLayout))
	register("diagflat", embedKernel(diagflatLayout))
	register("unbind", unbindKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"expand", "repeat", "flip", "roll", "rot90", "slice", "select", "unfold", "diagonal", "diag_embed", "diagflat", "unbind"} {
		supportDTypes(n, all...)
	}
}

// ---- gather, index_select ----

// nonEmpty is a shape with a 0-d tensor seen as [1], as ATen's
// ensure_nonempty_dim does for gather.
func nonEmpty(s []int) []int {
	if len(s) == 0 {
		return []int{1}
	}
	return s
}

// gatherLayout checks gather's inputs and returns the normalised dim, the
// view over the index's shape of every element's offset in self apart
// from the gathered dim, and self's stride along dim.
func gatherLayout(c *call) (int, *view, int, error) {
	x, index := c.in[0], c.in[1]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return 0, nil, 0, err
	}
	if index.dtype != tensor.Int64 {
		return 0, nil, 0, errors.New("gather(): Expected dtype int64 for index")
	}
	xs, is := nonEmpty(x.shape), nonEmpty(index.shape)
	if len(xs) != len(is) {
		return 0, nil, 0, errors.New("Index tensor must have the same number of dimensions as input tensor")
	}
	for d := range is {
		if d != dim && is[d] > xs[d] {
			return 0, nil, 0, fmt.Errorf("Size does not match at dimension %d expected index %s to be smaller than self %s apart from dimension %d",
				d, ops.ShapeList(index.shape), ops.ShapeList(x.shape), dim)
		}
	}
	st := contiguousStrides(xs)
	strides := append([]int{}, st...)
	strides[dim] = 0
	if len(index.data) > 0 {
		n := float64(xs[dim])
		if err := forChunks(len(index.data), func(from, to int) error {
			for _, v := range index.data[from:to] {
				if v < 0 || v >= n {
					return fmt.Errorf("index %d is out of bounds for dimension %d with size %d", int64(v), dim, xs[dim])
				}
			}
			return nil
		}); err != nil {
			return 0, nil, 0, err
		}
	}
	return dim, stridedView(is, strides, 0), st[dim], nil
}

func gatherKernel2() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, index := c.in[0], c.in[1]
			_, v, sd, err := gatherLayout(c)
			if err != nil {
				return nil, err
			}
			out := float64sFor(len(index.data))
			idx := index.data
			forChunks(len(out), func(from, to int) error {
				v.rows(from, to, func(k0, outer int, last []int) {
					o, ix := out[k0:k0+len(last)], idx[k0:k0+len(last)]
					for j, t := range last {
						o[j] = x.data[outer+t+int(ix[j])*sd]
					}
				})
				return nil
			})
			return []*array{{shape: append([]int{}, index.shape...), data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, index := c.in[0], c.in[1]
			_, v, sd, err := gatherLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(outs[0].data))
			gin := zeros(len(x.data))
			idx := index.data
			v.rows(0, len(idx), func(k0, outer int, last []int) {
				gv, ix := g[k0:k0+len(last)], idx[k0:k0+len(last)]
				for j, t := range last {
					gin[outer+t+int(ix[j])*sd] += gv[j]
				}
			})
			return []*array{gradForOwned(c, 0, gin, x.shape), nil}, nil
		},
	}
}

// indexSelectView is the view of self's entries index along dim.
func indexSelectView(c *call) (*view, []int, error) {
	x, index := c.in[0], c.in[1]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, nil, err
	}
	if index.rank() > 1 {
		return nil, nil, errors.New("index_select(): Index is supposed to be a vector")
	}
	if index.dtype != tensor.Int64 && index.dtype != tensor.Int32 {
		return nil, nil, errors.New("index_select(): Expected dtype int32 or int64 for index")
	}
	xs := nonEmpty(x.shape)
	st := contiguousStrides(xs)
	for _, v := range index.data {
		if v < 0 || v >= float64(xs[dim]) {
			return nil, nil, errors.New("index out of range in self")
		}
	}
	if x.rank() == 0 {
		// a 0-d self gives a 0-d result: its one element
		return newView(nil, nil, 0), nil, nil
	}
	shape := append([]int{}, x.shape...)
	shape[dim] = len(index.data)
	tab := make([][]int, len(shape))
	for d, n := range shape {
		t := make([]int, n)
		for i := range t {
			if d == dim {
				t[i] = int(index.data[i]) * st[d]
			} else {
				t[i] = i * st[d]
			}
		}
		tab[d] = t
	}
	return newView(shape, tab, 0), shape, nil
}

func init() {
	register("gather", gatherKernel2())
	register("index_select", gatherKernel(indexSelectView, false))
	for _, n := range []string{"gather", "index_select"} {
		supportDTypes(n, append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)...)
	}
}
