package cpu

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Indexing kernels that write into a copy of self: scatter (src tensor or
// number, reduce add/multiply) and scatter_add. Elements of the index are
// applied in row-major order of the index, as ATen's CPU kernel does: two
// index elements can only meet at one destination when they differ along
// dim alone, and those come in ascending order, so the last one wins and
// sums accumulate in that order (rounded to self's dtype at each step, as
// PyTorch computes in scalar_t).

// scatterPlan is one scatter's layout: for index element k (row-major),
// the destination is self offset dst[k] + index[k]*sd, and the source
// element src offset srcOff[k].
type scatterPlan struct {
	dim    int
	sd     int
	dst    []int
	srcOff []int // nil for a number
}

// scatterValue is c10::Scalar::to<scalar_t> for a number written into a
// tensor of dtype d: checked_convert's overflow error, then the C++
// conversion.
func scatterValue(s *array, d tensor.DType) (float64, error) {
	v := s.data[0]
	name := cTypeName(d)
	limit := 0.0
	switch d {
	case tensor.Float64, tensor.Bool:
		return roundTo(d, v), nil
	case tensor.Float32:
		limit = math.MaxFloat32
	case tensor.Float16:
		name, limit = "at::Half", 65504
	case tensor.BFloat16:
		name, limit = "at::BFloat16", 0x1.fep127
	}
	overflow := fmt.Errorf("value cannot be converted to type %s without overflow", name)
	if s.scalarKind == ops.ScalarBool {
		return v, nil
	}
	if limit != 0 {
		if !math.IsInf(v, 0) && math.Abs(v) > limit {
			return 0, overflow
		}
		return roundTo(d, v), nil
	}
	lo, hi := intRange(d)
	if s.scalarKind == ops.ScalarInt && d == tensor.Uint8 {
		if v > hi || -v > hi {
			return 0, overflow
		}
		return wrapInt(d, v), nil
	}
	if v != v || v < lo || v > hi {
		return 0, overflow
	}
	return math.Trunc(v), nil
}

// scatterLayout checks a scatter/scatter_add call as ATen does and lays it
// out; src is nil for a number. srcRank: scatter checks src's rank,
// scatter_add reads src's sizes without the check.
func scatterLayout(c *call, src *array, srcRank bool) (*scatterPlan, error) {
	x, index := c.in[0], c.in[1]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, err
	}
	if index.dtype != tensor.Int64 {
		return nil, errors.New("scatter(): Expected dtype int64 for index")
	}
	if src != nil && src.dtype != x.dtype {
		return nil, errors.New("scatter(): Expected self.dtype to be equal to src.dtype")
	}
	p := &scatterPlan{dim: dim}
	n := len(index.data)
	if n == 0 {
		return p, nil
	}
	xs, is := nonEmpty(x.shape), nonEmpty(index.shape)
	if len(is) != len(xs) {
		return nil, errors.New("Index tensor must have the same number of dimensions as self tensor")
	}
	var ss []int
	if src != nil {
		ss = nonEmpty(src.shape)
		if srcRank && len(ss) != len(is) {
			return nil, errors.New("Index tensor must have the same number of dimensions as src tensor")
		}
		if len(ss) < len(is) {
			r := len(ss)
			return nil, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, r)
		}
	}
	for d := range is {
		if (d != dim && is[d] > xs[d]) || (src != nil && is[d] > ss[d]) {
			if src == nil {
				return nil, fmt.Errorf("Expected index %s to be smaller than self %s apart from dimension %d",
					ops.ShapeList(index.shape), ops.ShapeList(x.shape), dim)
			}
			return nil, fmt.Errorf("Expected index %s to be smaller than self %s apart from dimension %d and to be smaller size than src %s",
				ops.ShapeList(index.shape), ops.ShapeList(x.shape), dim, ops.ShapeList(src.shape))
		}
	}
	size := float64(xs[dim])
	if err := forChunks(n, func(from, to int) error {
		for _, v := range index.data[from:to] {
			if v < 0 || v >= size {
				return fmt.Errorf("index %d is out of bounds for dimension %d with size %d", int64(v), dim, xs[dim])
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	xst := contiguousStrides(xs)
	p.sd = xst[dim]
	p.dst = make([]int, n)
	var sst []int
	if src != nil {
		sst = contiguousStrides(ss)
		p.srcOff = make([]int, n)
	}
	// odometer over the index's shape
	pos := make([]int, len(is))
	o, so := 0, 0
	for k := 0; k < n; k++ {
		p.dst[k] = o
		if src != nil {
			p.srcOff[k] = so
		}
		for d := len(is) - 1; d >= 0; d-- {
			pos[d]++
			if d != dim {
				o += xst[d]
			}
			if src != nil {
				so += sst[d]
			}
			if pos[d] < is[d] {
				break
			}
			if d != dim {
				o -= xst[d] * is[d]
			}
			if src != nil {
				so -= sst[d] * is[d]
			}
			pos[d] = 0
		}
	}
	return p, nil
}

// apply writes (reduce "") or combines the source values into out.
func (p *scatterPlan) apply(out, idx []float64, src []float64, value float64, reduce string, dt tensor.DType) {
	exact := dt == tensor.Float64
	for k, o := range p.dst {
		t := o + int(idx[k])*p.sd
		v := value
		if p.srcOff != nil {
			v = src[p.srcOff[k]]
		}
		switch reduce {
		case "":
			out[t] = v
		case "add":
			if exact {
				out[t] += v
			} else {
				out[t] = roundTo(dt, out[t]+v)
			}
		default:
			if exact {
				out[t] *= v
			} else {
				out[t] = roundTo(dt, out[t]*v)
			}
		}
	}
}

// srcGradCheck is autograd's check of the gradient of src, which the
// formula grad.gather(dim, index) gives index's shape.
func srcGradCheck(fn string, index, src *array) error {
	if slices.Equal(index.shape, src.shape) || (src.rank() == 0 && len(index.data) == 1 && index.rank() <= 1) {
		return nil
	}
	return fmt.Errorf("Function %s returned an invalid gradient at index 1 - got %s but expected shape compatible with %s",
		fn, ops.ShapeList(index.shape), ops.ShapeList(src.shape))
}

// scatterKernel is scatter (add false: src tensor or number, reduce) or
// scatter_add (add true).
func scatterKernel(add bool) *kernel {
	fn := "ScatterBackward0"
	if add {
		fn = "ScatterAddBackward0"
	}
	layout := func(c *call) (*scatterPlan, *array, string, error) {
		src := c.in[2]
		if src.scalar {
			src = nil
		}
		reduce := ""
		if add {
			reduce = "add"
		} else if !c.attrs.IsNone("reduce") {
			reduce = c.attrs.Str("reduce", "")
			if reduce != "add" && reduce != "multiply" {
				return nil, nil, "", errors.New("reduce argument must be either add or multiply.")
			}
		}
		p, err := scatterLayout(c, src, !add)
		return p, src, reduce, err
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, index := c.in[0], c.in[1]
			p, src, reduce, err := layout(c)
			if err != nil {
				return nil, err
			}
			var value float64
			var sv []float64
			if src == nil {
				if value, err = scatterValue(c.in[2], x.dtype); err != nil {
					return nil, err
				}
			} else {
				sv = src.data
			}
			out := float64sFor(len(x.data))
			copy(out, x.data)
			p.apply(out, index.data, sv, value, reduce, x.dtype)
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, index := c.in[0], c.in[1]
			p, src, reduce, err := layout(c)
			if err != nil {
				return nil, err
			}
			if !add && reduce != "" {
				return nil, errors.New("derivative for aten::scatter is not implemented")
			}
			if src != nil && c.requiresGrad[2] {
				if err := srcGradCheck(fn, index, src); err != nil {
					return nil, err
				}
			}
			g := gradData(gos[0], len(x.data))
			res := make([]*array, 3)
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				copy(gs, g)
				if !add {
					for k, o := range p.dst {
						gs[o+int(index.data[k])*p.sd] = 0
					}
				}
				res[0] = &array{shape: append([]int{}, x.shape...), data: gs, dtype: x.dtype}
			}
			if src != nil && c.requiresGrad[2] {
				gsrc := zeros(len(src.data))
				for k, o := range p.dst {
					gsrc[p.srcOff[k]] = g[o+int(index.data[k])*p.sd]
				}
				res[2] = &array{shape: append([]int{}, src.shape...), data: gsrc, dtype: src.dtype}
			}
			return res, nil
		},
	}
}

func init() {
	register("scatter", scatterKernel(false))
	register("scatter_add", scatterKernel(true))
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"scatter", "scatter_add"} {
		supportDTypes(n, all...)
	}
}

// ---- index_add, index_copy, index_fill ----
//
// Self is seen as [outer, n, inner] around dim, source as [outer, m,
// inner] with m the number of indices; index k addresses self's slice
// index[k]. Slices are applied in index order (the last copy wins, sums
// accumulate in that order), as ATen's CPU kernels do.

type sliceLayout struct {
	outer, n, inner, m int
	idx                []int
}

// sliceLayoutOf lays out self and index along dim; wrap allows negative
// indices (index_fill); outOfRange makes the error for a bad index.
func sliceLayoutOf(c *call, wrap bool, outOfRange func(v int64, dim, n int) error) (*sliceLayout, error) {
	x, index := c.in[0], c.in[1]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, err
	}
	xs := nonEmpty(x.shape)
	l := &sliceLayout{outer: 1, inner: 1, n: xs[dim], m: len(index.data)}
	for d, s := range xs {
		switch {
		case d < dim:
			l.outer *= s
		case d > dim:
			l.inner *= s
		}
	}
	l.idx = make([]int, l.m)
	for k, v := range index.data {
		if v < 0 && wrap && v >= -float64(l.n) {
			v += float64(l.n)
		}
		if v < 0 || v >= float64(l.n) {
			return nil, outOfRange(int64(index.data[k]), dim, l.n)
		}
		l.idx[k] = int(v)
	}
	return l, nil
}

// checkSource checks source against self as the lowering does (probe
// takes sources of self's shape apart from dim).
func checkSource(api string, x, source *array, dim, m int) error {
	xs, ss := nonEmpty(x.shape), nonEmpty(source.shape)
	if len(ss) <= dim || ss[dim] != m {
		got := 1
		if len(ss) > dim {
			got = ss[dim]
		}
		if api == "index_add_" {
			return fmt.Errorf("index_add_(): Number of indices (%d) should be equal to source.size(dim): (%d), for dim: %d", m, got, dim)
		}
		return fmt.Errorf("%s(): Number of indices (%d) should be equal to source.size(dim) (%d)", api, m, got)
	}
	if len(ss) != len(xs) {
		return fmt.Errorf("%s(): source of rank %d for a self of rank %d is not supported", api, source.rank(), x.rank())
	}
	for d := range xs {
		if d != dim && xs[d] != ss[d] {
			return fmt.Errorf("%s(): source shape %s does not match self %s apart from dimension %d", api, ops.ShapeList(source.shape), ops.ShapeList(x.shape), dim)
		}
	}
	return nil
}

func indexAddLayout(c *call) (*sliceLayout, error) {
	x, index, source := c.in[0], c.in[1], c.in[2]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, err
	}
	if index.rank() > 1 {
		return nil, fmt.Errorf("index_add_(): Index is supposed to be a vector, but got dim: %d with type: %s and size: %s",
			index.rank(), ops.TypeName(index.dtype), ops.ShapeList(index.shape))
	}
	if index.dtype != tensor.Int64 && index.dtype != tensor.Int32 {
		return nil, fmt.Errorf("index_add_(): Expected dtype int32/int64 for index but got: %s", ops.TypeName(index.dtype))
	}
	if source.dtype != x.dtype {
		return nil, fmt.Errorf("index_add_(): self (%s) and source (%s) must have the same scalar type", ops.TypeName(x.dtype), ops.TypeName(source.dtype))
	}
	if err := checkSource("index_add_", x, source, dim, len(index.data)); err != nil {
		return nil, err
	}
	return sliceLayoutOf(c, false, func(int64, int, int) error { return errors.New("index out of range in self") })
}

func indexCopyLayout(c *call) (*sliceLayout, error) {
	x, index, source := c.in[0], c.in[1], c.in[2]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, err
	}
	if index.rank() > 1 {
		return nil, fmt.Errorf("index_copy_(): Index should have dimension 1 or 0 (got %d)", index.rank())
	}
	if index.dtype != tensor.Int64 {
		return nil, fmt.Errorf("index_copy_(): Expected a long tensor for index, but got %s", ops.TypeName(index.dtype))
	}
	if source.dtype != x.dtype {
		return nil, fmt.Errorf("index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
			ops.TypeName(x.dtype), ops.TypeName(source.dtype))
	}
	if x.rank() > 0 && source.rank() > 0 && x.rank() != source.rank() {
		return nil, fmt.Errorf("index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (%d), destination dimensionality (%d)",
			source.rank(), x.rank())
	}
	if err := checkSource("index_copy_", x, source, dim, len(index.data)); err != nil {
		return nil, err
	}
	return sliceLayoutOf(c, false, func(v int64, dim, n int) error {
		return fmt.Errorf("index_copy_(): index %d is out of bounds for dimension %d with size %d", v, dim, n)
	})
}

func indexFillLayout(c *call) (*sliceLayout, error) {
	x, index, value := c.in[0], c.in[1], c.in[2]
	if _, err := normDim(c.attrs.Int("dim", 0), x.rank()); err != nil {
		return nil, err
	}
	if index.dtype != tensor.Int64 {
		return nil, errors.New("index_fill_(): Expected dtype int64 for index.")
	}
	if index.rank() > 1 {
		return nil, errors.New("Index has to be a vector/scalar")
	}
	if !value.scalar && value.rank() > 0 {
		return nil, fmt.Errorf("index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value.rank())
	}
	return sliceLayoutOf(c, true, func(v int64, dim, n int) error {
		return fmt.Errorf("index %d is out of bounds for dimension %d with size %d", v, dim, n)
	})
}

// slices calls fn(dst, src) with the offsets of each (outer, k) pair's
// slices of self and source, in index order.
func (l *sliceLayout) each(fn func(dst, src int)) {
	for o := 0; o < l.outer; o++ {
		for k, t := range l.idx {
			fn((o*l.n+t)*l.inner, (o*l.m+k)*l.inner)
		}
	}
}

// zeroSlices zeroes self's slices that the index addresses.
func (l *sliceLayout) zeroSlices(g []float64) {
	l.each(func(dst, _ int) { clear(g[dst : dst+l.inner]) })
}

// selectSlices is g.index_select(dim, index) times alpha, source-shaped.
func (l *sliceLayout) selectSlices(g []float64, alpha float64) []float64 {
	out := float64sFor(l.outer * l.m * l.inner)
	l.each(func(dst, src int) {
		o, in := out[src:src+l.inner], g[dst:dst+l.inner]
		for j, v := range in {
			o[j] = alpha * v
		}
	})
	return out
}

func indexAddKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, source := c.in[0], c.in[2]
			l, err := indexAddLayout(c)
			if err != nil {
				return nil, err
			}
			dt := x.dtype
			alpha := c.attrs.Float("alpha", 1)
			out := float64sFor(len(x.data))
			copy(out, x.data)
			s := source.data
			switch {
			case dt == tensor.Float64:
				l.each(func(dst, src int) {
					d, sv := out[dst:dst+l.inner], s[src:src+l.inner]
					for j, v := range sv {
						d[j] += alpha * v
					}
				})
			case dt == tensor.Bool:
				if alpha != 0 {
					l.each(func(dst, src int) {
						d, sv := out[dst:dst+l.inner], s[src:src+l.inner]
						for j, v := range sv {
							if v != 0 {
								d[j] = 1
							}
						}
					})
				}
			case !dt.IsFloat():
				a := math.Trunc(alpha)
				l.each(func(dst, src int) {
					d, sv := out[dst:dst+l.inner], s[src:src+l.inner]
					for j, v := range sv {
						d[j] = wrapInt(dt, d[j]+a*v)
					}
				})
			case x.rank() <= 1 && dt != tensor.Float32:
				// ATen's 1-d loop computes in scalar_t: alpha, the
				// product and the sum are each rounded to dt
				a := roundTo(dt, alpha)
				l.each(func(dst, src int) {
					d, sv := out[dst:dst+l.inner], s[src:src+l.inner]
					for j, v := range sv {
						d[j] = roundTo(dt, d[j]+roundTo(dt, a*v))
					}
				})
			default:
				// add_ with alpha in float opmath, then rounded to dt
				a := float64(float32(alpha))
				l.each(func(dst, src int) {
					d, sv := out[dst:dst+l.inner], s[src:src+l.inner]
					for j, v := range sv {
						d[j] = roundTo(dt, float64(float32(d[j]+float64(float32(a*v)))))
					}
				})
			}
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: dt}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, source := c.in[0], c.in[2]
			l, err := indexAddLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			res := make([]*array, 3)
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				copy(gs, g)
				res[0] = &array{shape: append([]int{}, x.shape...), data: gs, dtype: x.dtype}
			}
			if c.requiresGrad[2] {
				res[2] = &array{shape: append([]int{}, source.shape...), data: l.selectSlices(g, c.attrs.Float("alpha", 1)), dtype: source.dtype}
			}
			return res, nil
		},
	}
}

func indexCopyKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, source := c.in[0], c.in[2]
			l, err := indexCopyLayout(c)
			if err != nil {
				return nil, err
			}
			out := float64sFor(len(x.data))
			copy(out, x.data)
			l.each(func(dst, src int) { copy(out[dst:dst+l.inner], source.data[src:src+l.inner]) })
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, source := c.in[0], c.in[2]
			l, err := indexCopyLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			res := make([]*array, 3)
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				copy(gs, g)
				l.zeroSlices(gs)
				res[0] = &array{shape: append([]int{}, x.shape...), data: gs, dtype: x.dtype}
			}
			if c.requiresGrad[2] {
				res[2] = &array{shape: append([]int{}, source.shape...), data: l.selectSlices(g, 1), dtype: source.dtype}
			}
			return res, nil
		},
	}
}

// indexFillValue is index_fill's value as a number: a 0-d tensor's item().
func indexFillValue(v *array) *array {
	if v.scalar {
		return v
	}
	kind := ops.ScalarFloat
	switch {
	case v.dtype == tensor.Bool:
		kind = ops.ScalarBool
	case !v.dtype.IsFloat():
		kind = ops.ScalarInt
	}
	return &array{data: v.data, scalar: true, scalarKind: kind, dtype: v.dtype}
}

func indexFillKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			l, err := indexFillLayout(c)
			if err != nil {
				return nil, err
			}
			v, err := scatterValue(indexFillValue(c.in[2]), x.dtype)
			if err != nil {
				return nil, err
			}
			out := float64sFor(len(x.data))
			copy(out, x.data)
			l.each(func(dst, _ int) {
				d := out[dst : dst+l.inner]
				for j := range d {
					d[j] = v
				}
			})
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, index, value := c.in[0], c.in[1], c.in[2]
			l, err := indexFillLayout(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			res := make([]*array, 3)
			if c.requiresGrad[0] {
				gs := float64sFor(len(g))
				copy(gs, g)
				l.zeroSlices(gs)
				res[0] = &array{shape: append([]int{}, x.shape...), data: gs, dtype: x.dtype}
			}
			if !value.scalar && c.requiresGrad[2] {
				// grad.index_select(dim, unique(index)).sum(): a negative
				// index fails there
				for _, v := range index.data {
					if v < 0 {
						return nil, errors.New("index out of range in self")
					}
				}
				seen := make([]bool, l.n)
				sum := 0.0
				for o := 0; o < l.outer; o++ {
					clear(seen)
					for _, t := range l.idx {
						if seen[t] {
							continue
						}
						seen[t] = true
						for _, v := range g[(o*l.n+t)*l.inner : (o*l.n+t+1)*l.inner] {
							sum += v
						}
					}
				}
				res[2] = &array{shape: []int{}, data: []float64{sum}, dtype: value.dtype}
			}
			return res, nil
		},
	}
}

func init() {
	register("index_add", indexAddKernel())
	register("index_copy", indexCopyKernel())
	register("index_fill", indexFillKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"index_add", "index_copy", "index_fill"} {
		supportDTypes(n, all...)
	}
}
