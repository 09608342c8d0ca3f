package cpu

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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

var flatName = map[string]string{"take": "take", "put": "put_"}

// takeLayout gives, for every output element, the offset of self it reads
// (checked against self's bounds with PyTorch's messages), and the output
// shape.
func takeLayout(c *call) ([]int, []int, error) {
	x, ind := c.in[0], c.in[1]
	if c.op == "take" || c.op == "put" {
		if ind.dtype != tensor.Int64 {
			return nil, nil, fmt.Errorf("%s(): Expected a long tensor for index, but got %s", flatName[c.op], ops.TypeName(ind.dtype))
		}
		n := len(x.data)
		if c.op == "put" {
			src := c.in[2]
			if src.dtype != x.dtype {
				return nil, nil, fmt.Errorf("put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s",
					ops.TypeName(x.dtype), ops.TypeName(src.dtype))
			}
			if len(src.data) != len(ind.data) {
				return nil, nil, fmt.Errorf("put_(): Expected source and index to have the same number of elements, but got source.numel() = %d, index.numel() = %d",
					len(src.data), len(ind.data))
			}
			if n == 0 && len(ind.data) > 0 {
				return nil, nil, errors.New("put_(): Tried to put elements into an empty tensor")
			}
		}
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

// ---- index_put ----

// indexPutLayout is one index_put's layout: the indexing result has shape
// bshape + self's trailing dims (inner elements per index); index
// position b writes self offsets off[b] .. off[b]+inner, read from values
// broadcast to the result (vmap nil: values has the result's shape).
type indexPutLayout struct {
	off    []int
	inner  int
	result []int
	vmap   []int
}

func indexPutPlan(c *call) (*indexPutLayout, error) {
	x, values := c.in[0], c.in[1]
	indices := c.in[2:]
	if !values.scalar && values.dtype != x.dtype {
		return nil, fmt.Errorf("Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.",
			ops.TypeName(x.dtype), ops.TypeName(values.dtype))
	}
	if len(indices) == 0 {
		return nil, errors.New("strides() called on an undefined Tensor")
	}
	// bool/uint8 masks become their nonzero() columns
	var idx []*array
	for _, ix := range indices {
		switch ix.dtype {
		case tensor.Int64:
			idx = append(idx, ix)
		case tensor.Bool, tensor.Uint8:
			d0 := len(idx)
			for j, s := range ix.shape {
				if d0+j >= x.rank() {
					return nil, fmt.Errorf("too many indices for tensor of dimension %d (got %d)", x.rank(), d0+ix.rank())
				}
				if x.shape[d0+j] != s {
					return nil, fmt.Errorf("The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d",
						ops.ShapeList(ix.shape), j, ops.ShapeList(x.shape), d0+j)
				}
			}
			n := 0
			for _, v := range ix.data {
				if v != 0 {
					n++
				}
			}
			cols := make([]*array, ix.rank())
			for j := range cols {
				cols[j] = &array{shape: []int{n}, data: make([]float64, n), dtype: tensor.Int64}
			}
			st := contiguousStrides(ix.shape)
			k := 0
			for p, v := range ix.data {
				if v == 0 {
					continue
				}
				for j := range cols {
					cols[j].data[k] = float64(p / st[j] % ix.shape[j])
				}
				k++
			}
			idx = append(idx, cols...)
		default:
			return nil, errors.New("tensors used as indices must be long, byte or bool tensors")
		}
	}
	k := len(idx)
	if k > x.rank() {
		return nil, fmt.Errorf("too many indices for tensor of dimension %d (got %d)", x.rank(), k)
	}
	shapes := make([][]int, k)
	for i, ix := range idx {
		shapes[i] = ix.shape
	}
	bshape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		parts := make([]string, k)
		for i, s := range shapes {
			parts[i] = ops.ShapeList(s)
		}
		return nil, fmt.Errorf("shape mismatch: indexing tensors could not be broadcast together with shapes %s", strings.Join(parts, ", "))
	}
	l := &indexPutLayout{inner: 1, result: append(append([]int{}, bshape...), x.shape[k:]...)}
	for _, s := range x.shape[k:] {
		l.inner *= s
	}
	if sh, err := ops.BroadcastShapes(values.shape, l.result); err != nil || !slices.Equal(sh, l.result) {
		return nil, fmt.Errorf("shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
			ops.ShapeList(values.shape), ops.ShapeList(l.result))
	}
	l.vmap = ops.BroadcastIndex(values.shape, l.result)
	nb := tensor.NumElements(bshape)
	l.off = make([]int, nb)
	xst := contiguousStrides(x.shape)
	for d, ix := range idx {
		m := ops.BroadcastIndex(ix.shape, bshape)
		size, st := x.shape[d], xst[d]
		if err := forChunks(nb, func(from, to int) error {
			for b := from; b < to; b++ {
				j := b
				if m != nil {
					j = m[b]
				}
				v := ix.data[j]
				if v < -float64(size) || v >= float64(size) {
					return fmt.Errorf("index %d is out of bounds for dimension %d with size %d", int64(v), d, size)
				}
				if v < 0 {
					v += float64(size)
				}
				l.off[b] += int(v) * st
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// value returns values' element for result position r.
func (l *indexPutLayout) value(v []float64, r int) float64 {
	if l.vmap != nil {
		return v[l.vmap[r]]
	}
	return v[r]
}

func indexPutKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, values := c.in[0], c.in[1]
			l, err := indexPutPlan(c)
			if err != nil {
				return nil, err
			}
			dt := x.dtype
			out := float64sFor(len(x.data))
			copy(out, x.data)
			vv := values.data
			if values.scalar {
				// a number (__setitem__) is cast to self's dtype
				v, err := scatterValue(values, dt)
				if err != nil {
					return nil, err
				}
				vv = []float64{v}
			}
			if !c.attrs.Bool("accumulate", false) {
				for b, o := range l.off {
					for t := 0; t < l.inner; t++ {
						out[o+t] = l.value(vv, b*l.inner+t)
					}
				}
			} else {
				// ATen's CPU kernel adds serially in result order, in
				// scalar_t (each sum rounded to self's dtype)
				exact := dt == tensor.Float64
				for b, o := range l.off {
					for t := 0; t < l.inner; t++ {
						if s := out[o+t] + l.value(vv, b*l.inner+t); exact {
							out[o+t] = s
						} else {
							out[o+t] = roundTo(dt, s)
						}
					}
				}
			}
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: dt}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			l, err := indexPutPlan(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			res := make([]*array, len(c.in))
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				copy(gs, g)
				if !c.attrs.Bool("accumulate", false) {
					for _, o := range l.off {
						clear(gs[o : o+l.inner])
					}
				}
				res[0] = &array{shape: append([]int{}, x.shape...), data: gs, dtype: x.dtype}
			}
			if c.requiresGrad[1] && !c.in[1].scalar {
				// grad[indices], summed to values' shape
				gv := float64sFor(len(l.off) * l.inner)
				for b, o := range l.off {
					copy(gv[b*l.inner:(b+1)*l.inner], g[o:o+l.inner])
				}
				res[1] = gradForOwned(c, 1, gv, l.result)
			}
			return res, nil
		},
	}
}

func init() {
	register("index_put", indexPutKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	supportDTypes("index_put", all...)
}

// putKernel: put writes (or with accumulate adds, serially in index order
// and in self's dtype, as ATen's CPU kernel) source's elements at the flat
// positions of index.
func putKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, src := c.in[0], c.in[2]
			off, _, err := takeLayout(c)
			if err != nil {
				return nil, err
			}
			dt := x.dtype
			out := float64sFor(len(x.data))
			copy(out, x.data)
			sv := src.data
			switch {
			case !c.attrs.Bool("accumulate", false):
				for k, o := range off {
					out[o] = sv[k]
				}
			case dt == tensor.Float64:
				for k, o := range off {
					out[o] += sv[k]
				}
			default:
				for k, o := range off {
					out[o] = roundTo(dt, out[o]+sv[k])
				}
			}
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: dt}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, src := c.in[0], c.in[2]
			off, _, err := takeLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			res := make([]*array, 3)
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				copy(gs, g)
				if !c.attrs.Bool("accumulate", false) {
					for _, o := range off {
						gs[o] = 0
					}
				}
				res[0] = &array{shape: append([]int{}, x.shape...), data: gs, dtype: x.dtype}
			}
			if c.requiresGrad[2] {
				// grad.take(index), in source's shape
				gsrc := float64sFor(len(off))
				for k, o := range off {
					gsrc[k] = g[o]
				}
				res[2] = &array{shape: append([]int{}, src.shape...), data: gsrc, dtype: src.dtype}
			}
			return res, nil
		},
	}
}

func init() {
	register("put", putKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	supportDTypes("put", all...)
}

// ---- nonzero ----

func nonzeroKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			starts, n := maskPrefix(x.data) // NaN != 0 counts
			r := x.rank()
			out := float64sFor(n * r)
			if r > 0 {
				shape := x.shape
				_ = forChunks(len(x.data), func(from, to int) error {
					k := starts[from/chunkElems]
					pos := make([]int, r)
					for d, q := r-1, from; d >= 0; d-- {
						pos[d] = q % shape[d]
						q /= shape[d]
					}
					for _, v := range x.data[from:to] {
						if v != 0 {
							row := out[k*r : (k+1)*r]
							for d, p := range pos {
								row[d] = float64(p)
							}
							k++
						}
						for d := r - 1; d >= 0; d-- {
							if pos[d]++; pos[d] < shape[d] {
								break
							}
							pos[d] = 0
						}
					}
					return nil
				})
			}
			return []*array{{shape: []int{n, r}, data: out, dtype: tensor.Int64}}, nil
		},
	}
}

func init() {
	register("nonzero", nonzeroKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	supportDTypes("nonzero", all...)
}

// ---- repeat_interleave ----

// repeatLayout: self seen as [outer, n, inner] around dim (dim None: [1,
// numel, 1]); slice j is repeated reps[j] times; the output's dim has
// total entries.
type repeatLayout struct {
	outer, n, inner, total int
	reps                   []int
	shape                  []int
}

func repeatInterleaveLayout(c *call) (*repeatLayout, error) {
	x, r := c.in[0], c.in[1]
	l := &repeatLayout{outer: 1, inner: 1, n: len(x.data)}
	dim := -1
	if !c.attrs.IsNone("dim") {
		d := c.attrs.Int("dim", 0)
		if x.rank() == 0 {
			return nil, fmt.Errorf("Dimension specified as %d but tensor has no dimensions", d)
		}
		var err error
		if dim, err = normDim(d, x.rank()); err != nil {
			return nil, err
		}
		l.n = x.shape[dim]
		for i, s := range x.shape {
			switch {
			case i < dim:
				l.outer *= s
			case i > dim:
				l.inner *= s
			}
		}
	}
	l.reps = make([]int, l.n)
	if r.scalar {
		if r.data[0] < 0 {
			return nil, errors.New("repeats can not be negative")
		}
		for j := range l.reps {
			l.reps[j] = int(r.data[0])
		}
	} else {
		if r.rank() > 1 {
			return nil, errors.New("repeats must be 0-dim or 1-dim tensor")
		}
		if r.dtype != tensor.Int64 && r.dtype != tensor.Int32 {
			return nil, fmt.Errorf("\"repeat_interleave_cpu\" not implemented for '%s'", ops.TypeName(r.dtype))
		}
		if len(r.data) != 1 && len(r.data) != l.n {
			return nil, errors.New("repeats must have the same size as input along dim")
		}
		for j := range l.reps {
			v := r.data[0]
			if len(r.data) > 1 {
				v = r.data[j]
			}
			if v < 0 {
				return nil, errors.New("repeats can not be negative")
			}
			l.reps[j] = int(v)
		}
	}
	for _, k := range l.reps {
		l.total += k
	}
	if dim < 0 {
		l.shape = []int{l.total}
	} else {
		l.shape = append([]int{}, x.shape...)
		l.shape[dim] = l.total
	}
	return l, nil
}

func repeatInterleaveKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			l, err := repeatInterleaveLayout(c)
			if err != nil {
				return nil, err
			}
			out := float64sFor(l.outer * l.total * l.inner)
			_ = forChunks(l.outer, func(from, to int) error {
				for o := from; o < to; o++ {
					dst := out[o*l.total*l.inner:]
					for j, k := range l.reps {
						src := x.data[(o*l.n+j)*l.inner : (o*l.n+j+1)*l.inner]
						for ; k > 0; k-- {
							dst = dst[copy(dst, src):]
						}
					}
				}
				return nil
			})
			return []*array{{shape: l.shape, data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			l, err := repeatInterleaveLayout(c)
			if err != nil {
				return nil, err
			}
			if !c.requiresGrad[0] {
				return make([]*array, 2), nil
			}
			g := gradData(gos[0], l.outer*l.total*l.inner)
			gx := zeros(len(x.data))
			_ = forChunks(l.outer, func(from, to int) error {
				for o := from; o < to; o++ {
					src := g[o*l.total*l.inner:]
					for j, k := range l.reps {
						d := gx[(o*l.n+j)*l.inner : (o*l.n+j+1)*l.inner]
						for ; k > 0; k-- {
							for t, v := range src[:l.inner] {
								d[t] += v
							}
							src = src[l.inner:]
						}
					}
				}
				return nil
			})
			return []*array{{shape: append([]int{}, x.shape...), data: gx, dtype: x.dtype}, nil}, nil
		},
	}
}

func init() {
	register("repeat_interleave", repeatInterleaveKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	supportDTypes("repeat_interleave", all...)
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
