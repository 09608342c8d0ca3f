package cpu

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/probe-dev/probe/internal/parallel"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Reductions: sum, mean, max/min (full and along a dim) and cumsum; the
// reduce family (schema_reduce.go): prod, nansum/nanmean, amax/amin,
// logsumexp, all/any, count_nonzero, cumprod, logcumsumexp, var/std,
// norm, aminmax, and selection (argmax/argmin, sort, topk, kthvalue,
// medians, mode, cummax/cummin, quantile, histc, bincount, searchsorted,
// unique).

// reducePlan maps every input element to the output element it reduces
// into.
type reducePlan struct {
	outShape []int // result shape (reduced dims dropped unless keepdim)
	idx      []int // per input element: flat index into the output
	count    int   // input elements per output element
}

// newReducePlan plans a reduction of shape over the dims marked in red.
func newReducePlan(shape []int, red []bool, keepdim bool) *reducePlan {
	keep := make([]int, len(shape))
	var out []int
	count := 1
	for i, s := range shape {
		if red[i] {
			keep[i] = 1
			count *= s
			if keepdim {
				out = append(out, 1)
			}
		} else {
			keep[i] = s
			out = append(out, s)
		}
	}
	if out == nil {
		out = []int{}
	}
	// The keepdim shape and the result shape share a flat layout.
	st := contiguousStrides(keep)
	eff := make([]int, len(shape))
	for i := range shape {
		if !red[i] {
			eff[i] = st[i]
		}
	}
	n := tensor.NumElements(shape)
	idx := make([]int, n)
	pos := make([]int, len(shape))
	cur := 0
	for k := 0; k < n; k++ {
		idx[k] = cur
		for d := len(shape) - 1; d >= 0; d-- {
			pos[d]++
			cur += eff[d]
			if pos[d] < shape[d] {
				break
			}
			cur -= eff[d] * pos[d]
			pos[d] = 0
		}
	}
	return &reducePlan{outShape: out, idx: idx, count: count}
}

// reduceDims reads the dim attribute (a list, a single int, or None/empty
// for all dims) into a mask over the dims of a tensor of the given rank.
func reduceDims(c *call, rank int) ([]bool, error) {
	red := make([]bool, rank)
	dims := c.attrs.Ints("dim", nil)
	if len(dims) == 0 {
		for i := range red {
			red[i] = true
		}
		return red, nil
	}
	seen := make([]bool, max(rank, 1))
	for _, d := range dims {
		n, err := normDim(d, rank)
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("dim %d appears multiple times in the list of dims", n)
		}
		seen[n] = true
		if rank > 0 {
			red[n] = true
		}
	}
	return red, nil
}

// expandGrad spreads an output-shaped gradient back over the input, scaled.
func expandGrad(p *reducePlan, g []float64, scale float64) []float64 {
	res := make([]float64, len(p.idx))
	for k, j := range p.idx {
		res[k] = g[j] * scale
	}
	return res
}

func sumMeanKernel(mean bool) *kernel {
	plan := func(c *call) (*reducePlan, error) {
		x := c.in[0]
		red, err := reduceDims(c, x.rank())
		if err != nil {
			return nil, err
		}
		return newReducePlan(x.shape, red, c.attrs.Bool("keepdim", false)), nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt, given, err := dtypeAttr(c, "dtype")
			if err != nil {
				return nil, err
			}
			switch {
			case mean && given && !dt.IsFloat():
				return nil, fmt.Errorf("mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: %s", ops.TypeName(dt))
			case mean && !given && !x.dtype.IsFloat():
				return nil, fmt.Errorf("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", ops.TypeName(x.dtype))
			case !given && x.dtype.IsFloat():
				dt = x.dtype
			case !given:
				dt = tensor.Int64
			}
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			xv := castValues(x, dt)
			out := newArray(dt, p.outShape)
			for k, j := range p.idx {
				out.data[j] += xv[k]
			}
			if mean {
				for j := range out.data {
					out.data[j] /= float64(p.count)
				}
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			scale := 1.0
			if mean {
				scale = 1 / float64(p.count)
			}
			g := gradData(gos[0], len(outs[0].data))
			x := c.in[0]
			return []*array{gradFor(c, 0, expandGrad(p, g, scale), x.shape)}, nil
		},
	}
}

// better reports whether v replaces the current best in a max (or min)
// scan: PyTorch keeps the first of equal values and stops at the first NaN.
func better(v, best float64, max bool) bool {
	if max {
		return !(v <= best)
	}
	return !(v >= best)
}

func fullMaxMinKernel(max bool) *kernel {
	name := "min"
	if max {
		name = "max"
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if len(x.data) == 0 {
				return nil, fmt.Errorf("%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
			}
			best := x.data[0]
			for _, v := range x.data[1:] {
				if best != best {
					break
				}
				if better(v, best, max) {
					best = v
				}
			}
			out := newArray(x.dtype, nil)
			out.data[0] = best
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// evenly_distribute_backward: the gradient is shared by every
			// element equal to the result (every NaN when it is NaN).
			x := c.in[0]
			r := outs[0].data[0]
			g := gradData(gos[0], 1)[0]
			match := func(v float64) bool {
				if r != r {
					return v != v
				}
				return v == r
			}
			n := 0
			for _, v := range x.data {
				if match(v) {
					n++
				}
			}
			res := make([]float64, len(x.data))
			for i, v := range x.data {
				if match(v) {
					res[i] = g / float64(n)
				}
			}
			return []*array{gradFor(c, 0, res, x.shape)}, nil
		},
	}
}

// dimPlan describes a reduction along one dim: outer × size × inner.
type dimPlan struct {
	dim, outer, size, inner int
}

func newDimPlan(shape []int, dim int) dimPlan {
	p := dimPlan{dim: dim, outer: 1, size: 1, inner: 1}
	if len(shape) == 0 {
		return p
	}
	for i, s := range shape {
		switch {
		case i < dim:
			p.outer *= s
		case i == dim:
			p.size = s
		default:
			p.inner *= s
		}
	}
	return p
}

// reducedShape drops (or keeps as 1) dim of shape.
func reducedShape(shape []int, dim int, keepdim bool) []int {
	out := []int{}
	for i, s := range shape {
		switch {
		case i != dim:
			out = append(out, s)
		case keepdim:
			out = append(out, 1)
		}
	}
	return out
}

func dimMaxMinKernel(max bool) *kernel {
	name := "min"
	if max {
		name = "max"
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
			if err != nil {
				return nil, err
			}
			p := newDimPlan(x.shape, dim)
			if p.size == 0 {
				return nil, fmt.Errorf("%s(): Expected reduction dim %d to have non-zero size.", name, dim)
			}
			shape := reducedShape(x.shape, dim, c.attrs.Bool("keepdim", false))
			if x.rank() == 0 {
				shape = []int{}
			}
			vals := newArray(x.dtype, shape)
			idx := newArray(tensor.Int64, shape)
			for o := 0; o < p.outer; o++ {
				for in := 0; in < p.inner; in++ {
					base := o*p.size*p.inner + in
					best, bi := x.data[base], 0
					for i := 1; i < p.size && best == best; i++ {
						if v := x.data[base+i*p.inner]; better(v, best, max) {
							best, bi = v, i
						}
					}
					vals.data[o*p.inner+in] = best
					idx.data[o*p.inner+in] = float64(bi)
				}
			}
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
			if err != nil {
				return nil, err
			}
			p := newDimPlan(x.shape, dim)
			g := gradData(gos[0], len(outs[0].data))
			idx := outs[1].data
			res := make([]float64, len(x.data))
			for o := 0; o < p.outer; o++ {
				for in := 0; in < p.inner; in++ {
					j := o*p.inner + in
					res[o*p.size*p.inner+int(idx[j])*p.inner+in] += g[j]
				}
			}
			return []*array{gradFor(c, 0, res, x.shape)}, nil
		},
	}
}

func cumsumKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
			if err != nil {
				return nil, err
			}
			dt, given, err := dtypeAttr(c, "dtype")
			if err != nil {
				return nil, err
			}
			if !given {
				dt = x.dtype
				if !dt.IsFloat() {
					dt = tensor.Int64
				}
			}
			xv := castValues(x, dt)
			p := newDimPlan(x.shape, dim)
			out := newArray(dt, x.shape)
			for o := 0; o < p.outer; o++ {
				for in := 0; in < p.inner; in++ {
					base := o*p.size*p.inner + in
					s := 0.0
					for i := 0; i < p.size; i++ {
						// PyTorch's CPU kernel accumulates in a wider
						// type (float for half, double for float).
						s += xv[base+i*p.inner]
						out.data[base+i*p.inner] = s
					}
				}
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
			if err != nil {
				return nil, err
			}
			p := newDimPlan(x.shape, dim)
			g := gradData(gos[0], len(outs[0].data))
			res := make([]float64, len(x.data))
			for o := 0; o < p.outer; o++ {
				for in := 0; in < p.inner; in++ {
					base := o*p.size*p.inner + in
					s := 0.0
					for i := p.size - 1; i >= 0; i-- {
						s += g[base+i*p.inner]
						res[base+i*p.inner] = s
					}
				}
			}
			return []*array{gradFor(c, 0, res, x.shape)}, nil
		},
	}
}

func init() {
	register("sum", sumMeanKernel(false))
	register("mean", sumMeanKernel(true))
	register("max", fullMaxMinKernel(true))
	register("min", fullMaxMinKernel(false))
	register("max_dim", dimMaxMinKernel(true))
	register("min_dim", dimMaxMinKernel(false))
	register("cumsum", cumsumKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"sum", "max", "min", "max_dim", "min_dim", "cumsum"} {
		supportDTypes(n, all...)
	}
}

// ---- the reduce family: prod, nansum, nanmean, amax/amin, logsumexp,
// all/any, count_nonzero, cumprod, logcumsumexp ----

// groupPlan lays out a reduction: output j reduces the input elements
// base[j]+offs[k] for every k, offs in row-major order of the reduced dims.
type groupPlan struct {
	outShape   []int
	base, offs []int
}

// subOffsets lists, in row-major order, the flat offsets of every position
// of a sub-grid with the given sizes and strides ([0] for no dims).
func subOffsets(sizes, strides []int) []int {
	n, contiguous := 1, true
	for d := len(sizes) - 1; d >= 0; d-- {
		contiguous = contiguous && (sizes[d] == 1 || strides[d] == n)
		n *= sizes[d]
	}
	out := make([]int, n)
	if contiguous {
		// a trailing block of dims (a full reduction, the last dims)
		for k := range out {
			out[k] = k
		}
		return out
	}
	pos := make([]int, len(sizes))
	cur := 0
	for k := 0; k < n; k++ {
		out[k] = cur
		for d := len(sizes) - 1; d >= 0; d-- {
			pos[d]++
			cur += strides[d]
			if pos[d] < sizes[d] {
				break
			}
			cur -= strides[d] * pos[d]
			pos[d] = 0
		}
	}
	return out
}

// newGroupPlan plans a reduction of a contiguous tensor of the given shape
// over the dims marked in red.
func newGroupPlan(shape []int, red []bool, keepdim bool) *groupPlan {
	st := contiguousStrides(shape)
	var ks, kst, rs, rst []int
	out := []int{}
	for i, s := range shape {
		if red[i] {
			rs, rst = append(rs, s), append(rst, st[i])
			if keepdim {
				out = append(out, 1)
			}
		} else {
			ks, kst = append(ks, s), append(kst, st[i])
			out = append(out, s)
		}
	}
	return &groupPlan{outShape: out, base: subOffsets(ks, kst), offs: subOffsets(rs, rst)}
}

// groupsOf plans the reduction of c's input 0 over its dim attribute.
func groupsOf(c *call, keepdim bool) (*groupPlan, error) {
	x := c.in[0]
	red, err := reduceDims(c, x.rank())
	if err != nil {
		return nil, err
	}
	return newGroupPlan(x.shape, red, keepdim), nil
}

// each calls fn on ranges of outputs, spread over the cores in fixed
// chunks (every output is computed alone, so results never depend on the
// core count).
func (p *groupPlan) each(fn func(from, to int)) {
	per := max(1, chunkElems/max(1, len(p.offs)))
	parallel.Chunks(len(p.base), per, func(from, to int) error {
		fn(from, to)
		return nil
	})
}

// sumDType is the result dtype of sum-like reductions: the dtype
// attribute, else a float input's own, else int64.
func sumDType(c *call) (tensor.DType, error) {
	dt, given, err := dtypeAttr(c, "dtype")
	if err != nil {
		return tensor.Invalid, err
	}
	x := c.in[0]
	switch {
	case given:
		return dt, nil
	case x.dtype.IsFloat():
		return x.dtype, nil
	}
	return tensor.Int64, nil
}

func prodKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, err := sumDType(c)
			if err != nil {
				return nil, err
			}
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			xv := castValues(c.in[0], dt)
			out := newArray(dt, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, r := p.base[j], 1.0
					for _, o := range p.offs {
						r *= xv[b+o]
					}
					out.data[j] = r
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// The product of the other elements of the group (exact with
			// zeros, as PyTorch's prod_safe_zeros_backward).
			p, err := groupsOf(c, false)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			xv := castValues(x, outs[0].dtype)
			g := gradData(gos[0], len(outs[0].data))
			res := zeros(len(x.data))
			p.each(func(from, to int) {
				pre := make([]float64, len(p.offs))
				for j := from; j < to; j++ {
					b, r := p.base[j], 1.0
					for k, o := range p.offs {
						pre[k] = r
						r *= xv[b+o]
					}
					s := 1.0
					for k := len(p.offs) - 1; k >= 0; k-- {
						res[b+p.offs[k]] = g[j] * pre[k] * s
						s *= xv[b+p.offs[k]]
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func nanSumMeanKernel(mean bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if mean && !x.dtype.IsFloat() {
				return nil, fmt.Errorf("nanmean(): expected input to have floating point dtype but got %s", ops.TypeName(x.dtype))
			}
			dt, err := sumDType(c)
			if err != nil {
				return nil, err
			}
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			xv := castValues(x, dt)
			out := newArray(dt, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, s, n := p.base[j], 0.0, 0
					for _, o := range p.offs {
						if v := xv[b+o]; v == v {
							s += v
							n++
						}
					}
					if mean {
						s /= float64(n)
					}
					out.data[j] = s
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := groupsOf(c, false)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			g := gradData(gos[0], len(outs[0].data))
			res := zeros(len(x.data))
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, n := p.base[j], 0
					for _, o := range p.offs {
						if v := x.data[b+o]; v == v {
							n++
						}
					}
					// grad * !isnan(x) (over the count for nanmean: an
					// all-NaN group gets NaN, as in PyTorch)
					s := g[j]
					if mean {
						s /= float64(n)
					}
					for _, o := range p.offs {
						m := 0.0
						if v := x.data[b+o]; v == v {
							m = 1
						}
						res[b+o] = s * m
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// checkNonEmptyReduction is PyTorch's zero_numel_check_dims for reductions
// without an identity (amax, amin).
func checkNonEmptyReduction(c *call, name string) error {
	x := c.in[0]
	if len(x.data) != 0 {
		return nil
	}
	dims := c.attrs.Ints("dim", nil)
	if len(dims) == 0 {
		return fmt.Errorf("%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
	}
	for _, d := range dims {
		n, err := normDim(d, x.rank())
		if err != nil {
			return err
		}
		if x.rank() > 0 && x.shape[n] == 0 {
			return fmt.Errorf("%s(): Expected reduction dim %d to have non-zero size.", name, n)
		}
	}
	return nil
}

func aMaxMinKernel(isMax bool) *kernel {
	name := "amin"
	if isMax {
		name = "amax"
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			if err := checkNonEmptyReduction(c, name); err != nil {
				return nil, err
			}
			out := newArray(x.dtype, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b := p.base[j]
					best := x.data[b]
					for _, o := range p.offs[1:] {
						v := x.data[b+o]
						if v != v {
							best = v
							break
						}
						if isMax && v > best || !isMax && v < best {
							best = v
						}
					}
					out.data[j] = best
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// (grad / count) * mask with mask = (x == result): a NaN result
			// matches nothing and gives NaN everywhere, as in PyTorch.
			p, err := groupsOf(c, false)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			r := outs[0].data
			g := gradData(gos[0], len(r))
			res := zeros(len(x.data))
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, n := p.base[j], 0
					for _, o := range p.offs {
						if x.data[b+o] == r[j] {
							n++
						}
					}
					s := g[j] / float64(n)
					for _, o := range p.offs {
						m := 0.0
						if x.data[b+o] == r[j] {
							m = 1
						}
						res[b+o] = s * m
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// logsumexpDType: float inputs keep their dtype, integer and bool ones
// compute in float32 (PyTorch's default dtype).
func logsumexpDType(x *array) tensor.DType {
	if x.dtype.IsFloat() {
		return x.dtype
	}
	return tensor.Float32
}

func logsumexpKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if len(c.attrs.Ints("dim", nil)) == 0 {
				return nil, fmt.Errorf("logsumexp(): dim must name at least one dimension")
			}
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			dt := logsumexpDType(x)
			xv := castValues(x, dt)
			out := newArray(dt, p.outShape)
			rd := bf16Rounder(dt)
			rowLen := 0
			if rd != nil {
				red, _ := reduceDims(c, x.rank())
				rowLen = sumRowLen(x.shape, red)
			}
			p.each(func(from, to int) {
				buf := make([]float64, len(p.offs))
				for j := from; j < to; j++ {
					b := p.base[j]
					// The maximum (NaN propagates), replaced by 0 when
					// infinite, as PyTorch does.
					m := math.Inf(-1)
					for _, o := range p.offs {
						v := xv[b+o]
						if v != v {
							m = v
							break
						}
						m = math.Max(m, v)
					}
					if math.IsInf(m, 0) {
						m = 0
					}
					if rd != nil {
						out.data[j] = logsumexpNarrow(xv, b, p.offs, m, rowLen, buf, rd)
						continue
					}
					// Σ exp(x − m) in order, the exps vectorised
					// (expInto gives math.Exp's bits).
					e := buf[:len(p.offs)]
					for k, o := range p.offs {
						e[k] = xv[b+o] - m
					}
					expInto(e, e)
					s := 0.0
					for _, v := range e {
						s += v
					}
					out.data[j] = math.Log(s) + m
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := groupsOf(c, false)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			r := outs[0].data
			g := gradData(gos[0], len(r))
			res := zeros(len(x.data))
			rd := bf16Rounder(x.dtype)
			p.each(func(from, to int) {
				var e []float64
				if rd == nil {
					e = make([]float64, len(p.offs))
				}
				for j := from; j < to; j++ {
					b := p.base[j]
					if rd != nil {
						// grad * (self - result).exp()
						for _, o := range p.offs {
							res[b+o] = rd(g[j] * rd(math.Exp(rd(x.data[b+o]-r[j]))))
						}
						continue
					}
					for k, o := range p.offs {
						e[k] = x.data[b+o] - r[j]
					}
					expInto(e, e)
					for k, o := range p.offs {
						res[b+o] = g[j] * e[k]
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func allAnyKernel(all bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			dt := tensor.Bool
			if x.dtype == tensor.Uint8 {
				dt = tensor.Uint8
			}
			out := newArray(dt, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, r := p.base[j], all
					for _, o := range p.offs {
						if nz := x.data[b+o] != 0; nz != all {
							r = !all
							break
						}
					}
					if r {
						out.data[j] = 1
					}
				}
			})
			return []*array{out}, nil
		},
	}
}

func countNonzeroKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := groupsOf(c, false)
			if err != nil {
				return nil, err
			}
			out := newArray(tensor.Int64, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, n := p.base[j], 0
					for _, o := range p.offs {
						if x.data[b+o] != 0 {
							n++
						}
					}
					out.data[j] = float64(n)
				}
			})
			return []*array{out}, nil
		},
	}
}

// lines calls fn for every line of a dimPlan (line number l = outer
// index × inner + inner index, base offset, stride), in parallel over fixed
// chunks of lines.
func (p dimPlan) lines(fn func(l, base, stride int)) {
	per := max(1, chunkElems/max(1, p.size))
	parallel.Chunks(p.outer*p.inner, per, func(from, to int) error {
		for l := from; l < to; l++ {
			o, in := l/p.inner, l%p.inner
			fn(l, o*p.size*p.inner+in, p.inner)
		}
		return nil
	})
}

func cumprodKernel() *kernel {
	plan := func(c *call) (dimPlan, error) {
		x := c.in[0]
		dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
		if err != nil {
			return dimPlan{}, err
		}
		return newDimPlan(x.shape, dim), nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			dt, err := sumDType(c)
			if err != nil {
				return nil, err
			}
			xv := castValues(x, dt)
			out := newArray(dt, x.shape)
			if bf16Rounder(dt) != nil {
				cumprodNarrow(p, xv, out.data)
				return []*array{out}, nil
			}
			p.lines(func(_, b, st int) {
				r := 1.0
				for i := 0; i < p.size; i++ {
					r *= xv[b+i*st]
					out.data[b+i*st] = r
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// grad_i = prod(x_<i) * T_i with T_i = g_i + x_{i+1} T_{i+1}:
			// exact with zeros.
			x := c.in[0]
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			xv := castValues(x, outs[0].dtype)
			g := gradData(gos[0], len(outs[0].data))
			res := zeros(len(x.data))
			if rd := bf16Rounder(x.dtype); rd != nil && outs[0].dtype == x.dtype {
				cumprodGradNarrow(p, x.data, outs[0].data, g, res, rd)
				return []*array{gradForOwned(c, 0, res, x.shape)}, nil
			}
			p.lines(func(_, b, st int) {
				t := 0.0
				for i := p.size - 1; i >= 0; i-- {
					if i+1 < p.size {
						t *= xv[b+(i+1)*st]
					}
					t += g[b+i*st]
					res[b+i*st] = t
				}
				pre := 1.0
				for i := 0; i < p.size; i++ {
					res[b+i*st] *= pre
					pre *= xv[b+i*st]
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// logAddExp is PyTorch's log_add_exp_helper of logcumsumexp.
func logAddExp(a, b float64) float64 {
	lo, hi := a, b
	if b < a {
		lo, hi = b, a
	}
	if lo != hi || !math.IsInf(lo, 0) {
		return hi + math.Log1p(math.Exp(lo-hi))
	}
	return a
}

func logcumsumexpKernel() *kernel {
	plan := func(c *call) (dimPlan, error) {
		x := c.in[0]
		dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
		if err != nil {
			return dimPlan{}, err
		}
		return newDimPlan(x.shape, dim), nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if !x.dtype.IsFloat() {
				return nil, notImplemented("logcumsumexp_out_cpu", x.dtype)
			}
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			out := newArray(x.dtype, x.shape)
			if rd := bf16Rounder(x.dtype); rd != nil {
				p.lines(func(_, b, st int) { logcumsumexpLineNarrow(p.size, b, st, x.data, out.data, false, rd) })
				return []*array{out}, nil
			}
			p.lines(func(_, b, st int) {
				r := math.Inf(-1)
				for i := 0; i < p.size; i++ {
					r = logAddExp(r, x.data[b+i*st])
					out.data[b+i*st] = r
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// grad_i = sum_{j>=i} g_j exp(x_i - out_j)
			//        = exp(x_i - out_i) R_i, R_i = g_i + exp(out_i - out_{i+1}) R_{i+1}.
			x := c.in[0]
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			r := outs[0].data
			g := gradData(gos[0], len(r))
			res := zeros(len(x.data))
			if rd := bf16Rounder(x.dtype); rd != nil {
				if x.rank() == 0 {
					copy(res, g)
				} else {
					logcumsumexpGradNarrow(p, x.dtype, x.data, r, g, res, rd)
				}
				return []*array{gradForOwned(c, 0, res, x.shape)}, nil
			}
			p.lines(func(_, b, st int) {
				acc := 0.0
				for i := p.size - 1; i >= 0; i-- {
					k := b + i*st
					if i+1 < p.size {
						if next := r[k+st]; math.IsInf(r[k], -1) && math.IsInf(next, -1) {
							acc = 0
						} else {
							acc *= math.Exp(r[k] - next)
						}
					}
					acc += g[k]
					// PyTorch's log-domain formula gives NaN where the
					// result is -inf and 0 where only the input is.
					switch {
					case math.IsInf(r[k], -1):
						res[k] = math.NaN()
					case math.IsInf(x.data[k], -1):
						res[k] = 0
					default:
						res[k] = math.Exp(x.data[k]-r[k]) * acc
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func init() {
	register("prod", prodKernel())
	register("nansum", nanSumMeanKernel(false))
	register("nanmean", nanSumMeanKernel(true))
	register("amax", aMaxMinKernel(true))
	register("amin", aMaxMinKernel(false))
	register("logsumexp", logsumexpKernel())
	register("all", allAnyKernel(true))
	register("any", allAnyKernel(false))
	register("count_nonzero", countNonzeroKernel())
	register("cumprod", cumprodKernel())
	register("logcumsumexp", logcumsumexpKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, n := range []string{"prod", "nansum", "amax", "amin", "logsumexp", "all", "any", "count_nonzero", "cumprod"} {
		supportDTypes(n, all...)
	}
}

// varDTypeError is PyTorch's refusal of an integer or bool input.
func varDTypeError(op string) error {
	if op == "var" || op == "std" {
		op = "std and var"
	}
	return fmt.Errorf("%s only support floating point and complex dtypes", op)
}

// varKernel computes var or std (sqrt) and, withMean, the mean as a second
// output: two passes in float64 over each group.
func varKernel(std, withMean bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if !x.dtype.IsFloat() {
				return nil, varDTypeError(c.op)
			}
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			corr := c.attrs.Float("correction", 1)
			n := float64(len(p.offs))
			div := math.Max(n-corr, 0)
			v, m := newArray(x.dtype, p.outShape), newArray(x.dtype, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, s := p.base[j], 0.0
					for _, o := range p.offs {
						s += x.data[b+o]
					}
					mean := s / n
					if withMean && math.IsInf(s, 0) {
						// PyTorch's Welford pass: an infinity before the
						// group's last element makes the mean NaN.
						mean = 0
						for k, o := range p.offs {
							mean += (x.data[b+o] - mean) / float64(k+1)
						}
					}
					m2 := 0.0
					for _, o := range p.offs {
						d := x.data[b+o] - mean
						m2 += d * d
					}
					r := m2 / div
					if std {
						r = math.Sqrt(r)
					}
					v.data[j], m.data[j] = r, mean
				}
			})
			if withMean {
				return []*array{v, m}, nil
			}
			return []*array{v}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// var: 2/(N-correction) * g * (x - mean); std: g/(2 std) (0
			// where std is 0) through var; mean: g/N.
			p, err := groupsOf(c, false)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			r := outs[0].data
			gv := gradData(gos[0], len(r))
			var gm []float64
			if withMean {
				gm = gradData(gos[1], len(r))
			}
			n := float64(len(p.offs))
			scale := 2 / (n - c.attrs.Float("correction", 1))
			res := zeros(len(x.data))
			if rd := narrowRounder(x.dtype); rd != nil {
				if withMean && gos[1] == nil {
					gm = nil
				}
				sc, nr := scalarAt(x.dtype, scale), scalarAt(x.dtype, n)
				red, _ := reduceDims(c, x.rank())
				rowLen := sumRowLen(x.shape, red)
				p.each(func(from, to int) { varGradNarrow(p, rowLen, from, to, x.data, r, gv, gm, res, std, sc, nr, rd) })
				return []*array{gradForOwned(c, 0, res, x.shape)}, nil
			}
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, s := p.base[j], 0.0
					for _, o := range p.offs {
						s += x.data[b+o]
					}
					mean := s / n
					g := gv[j]
					if std {
						if r[j] == 0 {
							g = 0
						} else {
							g /= 2 * r[j]
						}
					}
					for _, o := range p.offs {
						d := scale * g * (x.data[b+o] - mean)
						if withMean {
							d += gm[j] / n
						}
						res[b+o] = d
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// formatOrder prints a norm order as PyTorch's messages do.
func formatOrder(p float64) string {
	switch {
	case math.IsInf(p, 1):
		return "inf"
	case math.IsInf(p, -1):
		return "-inf"
	}
	return strconv.FormatFloat(p, 'g', -1, 64)
}

// fullNorm is the ord-norm of every value of v, computed in fixed chunks
// over the cores whose partial results are combined in chunk order.
func fullNorm(v []float64, ord float64) float64 {
	parts := make([]float64, (len(v)+chunkElems-1)/chunkElems)
	forChunks(len(v), func(from, to int) error {
		r := 0.0
		switch {
		case ord == 0:
			for _, x := range v[from:to] {
				if x != 0 {
					r++
				}
			}
		case math.IsInf(ord, 0):
			r = math.Abs(v[from])
			for _, x := range v[from:to] {
				a := math.Abs(x)
				if a != a {
					r = a
					break
				}
				if ord > 0 && a > r || ord < 0 && a < r {
					r = a
				}
			}
		case ord == 1:
			for _, x := range v[from:to] {
				r += math.Abs(x)
			}
		case ord == 2:
			for _, x := range v[from:to] {
				r += x * x
			}
		default:
			for _, x := range v[from:to] {
				r += math.Pow(math.Abs(x), ord)
			}
		}
		parts[from/chunkElems] = r
		return nil
	})
	if math.IsInf(ord, 0) {
		r := parts[0]
		for _, x := range parts {
			if x != x {
				return x
			}
			if ord > 0 && x > r || ord < 0 && x < r {
				r = x
			}
		}
		return r
	}
	r := 0.0
	for _, x := range parts {
		r += x
	}
	switch ord {
	case 0, 1:
		return r
	case 2:
		return math.Sqrt(r)
	}
	return math.Pow(r, 1/ord)
}

// fullNormGrad is norm_backward for the norm nrm of every value of v with
// output gradient g, into res; chunks over the cores (each element alone,
// the inf norm's count of maxima summed from integer chunk counts).
func fullNormGrad(v []float64, ord, nrm, g float64, res []float64) {
	switch {
	case ord == 0:
		return
	case math.IsInf(ord, 0):
		counts := make([]int, (len(v)+chunkElems-1)/chunkElems)
		forChunks(len(v), func(from, to int) error {
			n := 0
			for _, x := range v[from:to] {
				if a := math.Abs(x); a == nrm || a != a {
					n++
				}
			}
			counts[from/chunkElems] = n
			return nil
		})
		cnt := 0
		for _, n := range counts {
			cnt += n
		}
		s := g / float64(cnt)
		forChunks(len(v), func(from, to int) error {
			for k := from; k < to; k++ {
				m := 0.0
				if a := math.Abs(v[k]); a == nrm || a != a {
					m = 1
				}
				res[k] = sgn(v[k]) * (s * m)
			}
			return nil
		})
		return
	}
	forChunks(len(v), func(from, to int) error {
		switch {
		case ord == 1:
			for k := from; k < to; k++ {
				res[k] = sgn(v[k]) * g
			}
		case ord == 2:
			for k := from; k < to; k++ {
				q := v[k] / nrm
				if nrm == 0 {
					q = 0
				}
				res[k] = g * q
			}
		default:
			s := g / math.Pow(nrm, ord-1)
			if nrm == 0 {
				s = 0
			}
			for k := from; k < to; k++ {
				if ord < 2 {
					res[k] = sgn(v[k]) * math.Pow(math.Abs(v[k]), ord-1) * s
				} else {
					res[k] = v[k] * math.Pow(math.Abs(v[k]), ord-2) * s
				}
			}
		}
		return nil
	})
}

func normKernel() *kernel {
	prep := func(c *call, keepdim bool) (*groupPlan, tensor.DType, []float64, float64, error) {
		x := c.in[0]
		if !x.dtype.IsFloat() {
			return nil, 0, nil, 0, fmt.Errorf("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.dtype))
		}
		dt, given, err := dtypeAttr(c, "dtype")
		if err != nil {
			return nil, 0, nil, 0, err
		}
		if !given {
			dt = x.dtype
		}
		red, err := reduceDims(c, x.rank())
		if err != nil {
			return nil, 0, nil, 0, err
		}
		var p *groupPlan
		if !slices.Contains(red, false) {
			// every element: no offsets (fullNorm, fullNormGrad)
			p = &groupPlan{outShape: []int{}, base: []int{0}}
			if keepdim {
				for range x.shape {
					p.outShape = append(p.outShape, 1)
				}
			}
		} else {
			p = newGroupPlan(x.shape, red, keepdim)
		}
		return p, dt, castValues(x, dt), c.attrs.Float("p", 2), nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, dt, xv, ord, err := prep(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			if (ord < 0 || math.IsInf(ord, 1)) && len(x.data) == 0 {
				dims := c.attrs.Ints("dim", nil)
				if len(dims) == 0 {
					return nil, fmt.Errorf("linalg.vector_norm cannot compute the %s norm on an empty tensor because the operation does not have an identity", formatOrder(ord))
				}
				for _, d := range dims {
					n, _ := normDim(d, x.rank())
					if x.rank() > 0 && x.shape[n] == 0 {
						return nil, fmt.Errorf("linalg.vector_norm cannot compute the %s norm on the dimension %dbecause this dimension is empty and the operation does not have an identity", formatOrder(ord), n)
					}
				}
			}
			out := newArray(dt, p.outShape)
			rd := narrowRounder(dt)
			if p.offs == nil {
				if v, ok := normNarrow(xv, 0, nil, ord, dt, rd); ok {
					out.data[0] = v
					return []*array{out}, nil
				}
				// every element (the gradient-clipping norm): fixed
				// chunks over the cores, combined in chunk order
				out.data[0] = fullNorm(xv, ord)
				return []*array{out}, nil
			}
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, r := p.base[j], 0.0
					if v, ok := normNarrow(xv, b, p.offs, ord, dt, rd); ok {
						out.data[j] = v
						continue
					}
					switch {
					case ord == 0:
						for _, o := range p.offs {
							if xv[b+o] != 0 {
								r++
							}
						}
					case math.IsInf(ord, 0):
						r = math.Abs(xv[b+p.offs[0]])
						for _, o := range p.offs {
							a := math.Abs(xv[b+o])
							if a != a {
								r = a
								break
							}
							if ord > 0 && a > r || ord < 0 && a < r {
								r = a
							}
						}
					case ord == 1:
						for _, o := range p.offs {
							r += math.Abs(xv[b+o])
						}
					case ord == 2:
						for _, o := range p.offs {
							r += xv[b+o] * xv[b+o]
						}
						r = math.Sqrt(r)
					default:
						for _, o := range p.offs {
							r += math.Pow(math.Abs(xv[b+o]), ord)
						}
						r = math.Pow(r, 1/ord)
					}
					out.data[j] = r
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// PyTorch's norm_backward, formula by formula.
			x := c.in[0]
			p, _, xv, ord, err := prep(c, false)
			if err != nil {
				return nil, err
			}
			r := outs[0].data
			g := gradData(gos[0], len(r))
			res := zeros(len(x.data))
			if narrowRounder(x.dtype) != nil && !math.IsInf(ord, 0) {
				// norm_backward with each tensor rounded
				dt := outs[0].dtype
				if p.offs == nil {
					for k, v := range xv {
						res[k] = normGradNarrow(v, g[0], r[0], ord, x.dtype, dt)
					}
				} else {
					p.each(func(from, to int) {
						for j := from; j < to; j++ {
							for _, o := range p.offs {
								k := p.base[j] + o
								res[k] = normGradNarrow(xv[k], g[j], r[j], ord, x.dtype, dt)
							}
						}
					})
				}
				return []*array{gradForOwned(c, 0, res, x.shape)}, nil
			}
			if p.offs == nil {
				fullNormGrad(xv, ord, r[0], g[0], res)
				return []*array{gradForOwned(c, 0, res, x.shape)}, nil
			}
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b, nrm := p.base[j], r[j]
					switch {
					case ord == 0:
					case ord == 1:
						for _, o := range p.offs {
							res[b+o] = sgn(xv[b+o]) * g[j]
						}
					case ord == 2:
						for _, o := range p.offs {
							q := xv[b+o] / nrm
							if nrm == 0 {
								q = 0
							}
							res[b+o] = g[j] * q
						}
					case math.IsInf(ord, 0):
						cnt := 0
						for _, o := range p.offs {
							if a := math.Abs(xv[b+o]); a == nrm || a != a {
								cnt++
							}
						}
						s := g[j] / float64(cnt)
						for _, o := range p.offs {
							m := 0.0
							if a := math.Abs(xv[b+o]); a == nrm || a != a {
								m = 1
							}
							res[b+o] = sgn(xv[b+o]) * (s * m)
						}
					default:
						s := g[j] / math.Pow(nrm, ord-1)
						if nrm == 0 {
							s = 0
						}
						for _, o := range p.offs {
							v := xv[b+o]
							var scaled float64
							if ord < 2 {
								scaled = sgn(v) * math.Pow(math.Abs(v), ord-1)
							} else {
								scaled = v * math.Pow(math.Abs(v), ord-2)
							}
							res[b+o] = scaled * s
						}
					}
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func aminmaxKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			if len(x.data) == 0 && c.attrs.IsNone("dim") {
				return nil, fmt.Errorf("aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
			}
			if len(p.offs) == 0 {
				d, _ := normDim(c.attrs.Int("dim", 0), x.rank())
				return nil, fmt.Errorf("Expected reduction dim %d to have non-zero size.", d)
			}
			lo, hi := newArray(x.dtype, p.outShape), newArray(x.dtype, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b := p.base[j]
					mn, mx := x.data[b], x.data[b]
					for _, o := range p.offs {
						v := x.data[b+o]
						if v != v {
							mn, mx = v, v
							break
						}
						if v < mn {
							mn = v
						}
						if v > mx {
							mx = v
						}
					}
					lo.data[j], hi.data[j] = mn, mx
				}
			})
			return []*array{lo, hi}, nil
		},
	}
}

func init() {
	register("var", varKernel(false, false))
	register("std", varKernel(true, false))
	register("var_mean", varKernel(false, true))
	register("std_mean", varKernel(true, true))
	register("norm", normKernel())
	register("aminmax", aminmaxKernel())
	// PyTorch 1.13's aminmax_cpu has no float16 kernel and no bfloat16 one
	// along a dim (only the full reduction runs at bfloat16); the torch
	// device, which probes the op along a dim, declares neither, and so
	// does this one.
	supportDTypes("aminmax", append([]tensor.DType{tensor.Float64, tensor.Float32}, intDTypes...)...)
}

// ---- selection: argmax/argmin, sort, topk, kthvalue ----

func argMaxMinKernel(isMax bool) *kernel {
	name := "argmin"
	if isMax {
		name = "argmax"
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if x.dtype == tensor.Bool {
				return nil, notImplemented(name+"_cpu", x.dtype)
			}
			p, err := groupsOf(c, c.attrs.Bool("keepdim", false))
			if err != nil {
				return nil, err
			}
			if err := checkNonEmptyReduction(c, name); err != nil {
				return nil, err
			}
			out := newArray(tensor.Int64, p.outShape)
			p.each(func(from, to int) {
				for j := from; j < to; j++ {
					b := p.base[j]
					best, bi := x.data[b], 0
					for k, o := range p.offs {
						v := x.data[b+o]
						if best != best {
							break
						}
						if v != v || isMax && v > best || !isMax && v < best {
							best, bi = v, k
						}
					}
					out.data[j] = float64(bi)
				}
			})
			return []*array{out}, nil
		},
	}
}

// sortLine returns the positions 0..n-1 of a line ordered stably by value,
// ascending or descending, NaN above every number.
func sortLine(v []float64, b, st, n int, descending bool) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	at := func(i int) float64 { return v[b+i*st] }
	if descending {
		slices.SortStableFunc(idx, func(i, j int) int {
			a, c := at(i), at(j)
			switch {
			case a > c || a != a && c == c:
				return -1
			case c > a || c != c && a == a:
				return 1
			}
			return 0
		})
	} else {
		slices.SortStableFunc(idx, func(i, j int) int {
			a, c := at(i), at(j)
			switch {
			case a < c || c != c && a == a:
				return -1
			case c < a || a != a && c == c:
				return 1
			}
			return 0
		})
	}
	return idx
}

// selectBackward scatters the values' gradient g (laid out outer × m ×
// inner) to the input positions its indices name.
func selectBackward(c *call, p dimPlan, m int, idx, g []float64) *array {
	x := c.in[0]
	res := zeros(len(x.data))
	for l := 0; l < p.outer*p.inner; l++ {
		o, in := l/p.inner, l%p.inner
		for i := 0; i < m; i++ {
			k := o*m*p.inner + i*p.inner + in
			res[o*p.size*p.inner+int(idx[k])*p.inner+in] += g[k]
		}
	}
	return gradForOwned(c, 0, res, x.shape)
}

// selectPlan reads the dim attribute of a selection op.
func selectPlan(c *call) (dimPlan, error) {
	x := c.in[0]
	dim, err := normDim(c.attrs.Int("dim", -1), x.rank())
	if err != nil {
		return dimPlan{}, err
	}
	return newDimPlan(x.shape, dim), nil
}

func sortKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			desc := c.attrs.Bool("descending", false)
			vals, idx := newArray(x.dtype, x.shape), newArray(tensor.Int64, x.shape)
			p.lines(func(_, b, st int) {
				for i, k := range sortLine(x.data, b, st, p.size, desc) {
					vals.data[b+i*st] = x.data[b+k*st]
					idx.data[b+i*st] = float64(k)
				}
			})
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			return []*array{selectBackward(c, p, p.size, outs[1].data, gradData(gos[0], len(outs[0].data)))}, nil
		},
	}
}

// keptShape is shape with dim's size replaced by m (a 0-d shape stays 0-d).
func keptShape(shape []int, dim, m int) []int {
	out := append([]int{}, shape...)
	if len(out) > 0 {
		out[dim] = m
	}
	return out
}

func topkKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			k := c.attrs.Int("k", 0)
			if k < 0 || k > int64(p.size) {
				return nil, fmt.Errorf("selected index k out of range")
			}
			m := int(k)
			shape := keptShape(x.shape, p.dim, m)
			vals, idx := newArray(x.dtype, shape), newArray(tensor.Int64, shape)
			largest := c.attrs.Bool("largest", true)
			p.lines(func(l, b, st int) {
				o, in := l/p.inner, l%p.inner
				for i, pos := range sortLine(x.data, b, st, p.size, largest)[:m] {
					j := o*m*p.inner + i*p.inner + in
					vals.data[j] = x.data[b+pos*st]
					idx.data[j] = float64(pos)
				}
			})
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			m := int(c.attrs.Int("k", 0))
			return []*array{selectBackward(c, p, m, outs[1].data, gradData(gos[0], len(outs[0].data)))}, nil
		},
	}
}

func kthvalueKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			k := c.attrs.Int("k", 0)
			if k < 1 || k > int64(p.size) {
				return nil, fmt.Errorf("kthvalue(): selected number k out of range for dimension %d", p.dim)
			}
			shape := reducedShape(x.shape, p.dim, c.attrs.Bool("keepdim", false))
			vals, idx := newArray(x.dtype, shape), newArray(tensor.Int64, shape)
			p.lines(func(l, b, st int) {
				pos := sortLine(x.data, b, st, p.size, false)[k-1]
				vals.data[l], idx.data[l] = x.data[b+pos*st], float64(pos)
			})
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			return []*array{selectBackward(c, p, 1, outs[1].data, gradData(gos[0], len(outs[0].data)))}, nil
		},
	}
}

func init() {
	register("argmax", argMaxMinKernel(true))
	register("argmin", argMaxMinKernel(false))
	register("sort", sortKernel())
	register("topk", topkKernel())
	register("kthvalue", kthvalueKernel())
	noBool := append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:len(intDTypes)-1]...)
	for _, n := range []string{"argmax", "argmin", "topk", "kthvalue"} {
		supportDTypes(n, noBool...)
	}
	supportDTypes("sort", append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)...)
}

// ---- medians, mode, cummax/cummin ----

// medianOf returns the lower median of the n values v[b+i*st] and its
// position: with a NaN (and not ignoreNaN) the first NaN; with ignoreNaN
// the lower median of the non-NaN values, the middle position when all are
// NaN.
func medianOf(v []float64, b, st, n int, ignoreNaN bool) (float64, int) {
	m, firstNaN := 0, -1
	for i := 0; i < n; i++ {
		if x := v[b+i*st]; x != x {
			if firstNaN < 0 {
				firstNaN = i
			}
		} else {
			m++
		}
	}
	switch {
	case firstNaN >= 0 && !ignoreNaN:
		return math.NaN(), firstNaN
	case m == 0:
		// all NaN: PyTorch's nanmedian picks the middle position
		return math.NaN(), (n - 1) / 2
	}
	pos := sortLine(v, b, st, n, false)[(m-1)/2]
	return v[b+pos*st], pos
}

func medianKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if x.dtype == tensor.Bool {
				return nil, notImplemented("median_cpu", x.dtype)
			}
			out := newArray(x.dtype, nil)
			out.data[0] = math.NaN()
			if n := len(x.data); n > 0 {
				out.data[0], _ = medianOf(x.data, 0, 1, n, c.attrs.Bool("ignore_nan", false))
			}
			return []*array{out}, nil
		},
		// evenly_distribute_backward, as the full max/min.
		backward: fullMaxMinKernel(true).backward,
	}
}

func medianDimKernel() *kernel {
	plan := func(c *call) (dimPlan, error) {
		x := c.in[0]
		dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
		if err != nil {
			return dimPlan{}, err
		}
		return newDimPlan(x.shape, dim), nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			ignore := c.attrs.Bool("ignore_nan", false)
			name := "median"
			if ignore {
				name = "nanmedian"
			}
			if x.dtype == tensor.Bool {
				return nil, notImplemented(name+"_out", x.dtype)
			}
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			if p.size == 0 {
				return nil, fmt.Errorf("%s(): Expected reduction dim %d to have non-zero size.", name, p.dim)
			}
			shape := reducedShape(x.shape, p.dim, c.attrs.Bool("keepdim", false))
			vals, idx := newArray(x.dtype, shape), newArray(tensor.Int64, shape)
			p.lines(func(l, b, st int) {
				v, pos := medianOf(x.data, b, st, p.size, ignore)
				vals.data[l], idx.data[l] = v, float64(pos)
			})
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			return []*array{selectBackward(c, p, 1, outs[1].data, gradData(gos[0], len(outs[0].data)))}, nil
		},
	}
}

func modeKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			if p.size == 0 {
				return nil, fmt.Errorf("mode(): Expected reduction dim %d to have non-zero size.", p.dim)
			}
			shape := reducedShape(x.shape, p.dim, c.attrs.Bool("keepdim", false))
			vals, idx := newArray(x.dtype, shape), newArray(tensor.Int64, shape)
			p.lines(func(l, b, st int) {
				order := sortLine(x.data, b, st, p.size, false)
				best, bestPos, run := 0, 0, 0
				for i, pos := range order {
					run++
					if i == len(order)-1 || x.data[b+pos*st] != x.data[b+order[i+1]*st] {
						if run > best {
							best, bestPos = run, pos
						}
						run = 0
					}
				}
				vals.data[l], idx.data[l] = x.data[b+bestPos*st], float64(bestPos)
			})
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := selectPlan(c)
			if err != nil {
				return nil, err
			}
			return []*array{selectBackward(c, p, 1, outs[1].data, gradData(gos[0], len(outs[0].data)))}, nil
		},
	}
}

func cumMaxMinKernel(isMax bool) *kernel {
	plan := func(c *call) (dimPlan, error) {
		x := c.in[0]
		dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
		if err != nil {
			return dimPlan{}, err
		}
		return newDimPlan(x.shape, dim), nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			vals, idx := newArray(x.dtype, x.shape), newArray(tensor.Int64, x.shape)
			p.lines(func(_, b, st int) {
				best, bi := 0.0, 0
				for i := 0; i < p.size; i++ {
					v := x.data[b+i*st]
					// an equal value or a NaN takes over (PyTorch's >= / <=)
					if i == 0 || v != v || best == best && (isMax && v >= best || !isMax && v <= best) {
						best, bi = v, i
					}
					vals.data[b+i*st], idx.data[b+i*st] = best, float64(bi)
				}
			})
			return []*array{vals, idx}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			p, err := plan(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(outs[0].data))
			ix := outs[1].data
			res := zeros(len(x.data))
			if rd := bf16Rounder(x.dtype); rd != nil {
				cumMaxMinGradNarrow(p, ix, g, res, rd)
				return []*array{gradForOwned(c, 0, res, x.shape)}, nil
			}
			p.lines(func(_, b, st int) {
				for i := 0; i < p.size; i++ {
					res[b+int(ix[b+i*st])*st] += g[b+i*st]
				}
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func init() {
	register("median", medianKernel())
	register("median_dim", medianDimKernel())
	register("mode", modeKernel())
	register("cummax", cumMaxMinKernel(true))
	register("cummin", cumMaxMinKernel(false))
	noBool := append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:len(intDTypes)-1]...)
	for _, n := range []string{"median", "median_dim", "mode", "cummax", "cummin"} {
		supportDTypes(n, noBool...)
	}
}

// ---- quantile / nanquantile ----

// lerp is PyTorch's lerp: exact at both ends.
func lerp(a, b, w float64) float64 {
	if math.Abs(w) < 0.5 {
		return a + w*(b-a)
	}
	return b - (b-a)*(1-w)
}

// quantileSetup checks a quantile call the way PyTorch 1.13 does, in its
// order, and returns the q values and the reduction layout.
func quantileSetup(c *call) (qs []float64, p dimPlan, outShape []int, err error) {
	x, q := c.in[0], c.in[1]
	if len(x.data) == 0 {
		return nil, p, nil, fmt.Errorf("quantile() input tensor must be non-empty")
	}
	if !q.scalar && q.rank() > 1 {
		return nil, p, nil, fmt.Errorf("quantile() q must be a scalar or 1D tensor")
	}
	if x.dtype != tensor.Float32 && x.dtype != tensor.Float64 {
		return nil, p, nil, fmt.Errorf("quantile() input tensor must be either float or double dtype")
	}
	if !q.scalar && q.dtype != x.dtype {
		return nil, p, nil, fmt.Errorf("quantile() q tensor must be same dtype as the input tensor")
	}
	for _, v := range q.data {
		if !(v >= 0 && v <= 1) {
			if q.scalar {
				return nil, p, nil, fmt.Errorf("quantile() q must be in the range [0, 1] but got %s", strconv.FormatFloat(v, 'g', -1, 64))
			}
			return nil, p, nil, fmt.Errorf("quantile() q values must be in the range [0, 1]")
		}
	}
	switch m := c.attrs.Str("interpolation", "linear"); m {
	case "linear", "lower", "higher", "midpoint", "nearest":
	default:
		return nil, p, nil, fmt.Errorf("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got %s", m)
	}
	keep := c.attrs.Bool("keepdim", false)
	if c.attrs.IsNone("dim") {
		p = dimPlan{outer: 1, size: len(x.data), inner: 1}
		outShape = []int{}
		if keep {
			for range x.shape {
				outShape = append(outShape, 1)
			}
		}
	} else {
		dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
		if err != nil {
			return nil, p, nil, err
		}
		p = newDimPlan(x.shape, dim)
		outShape = reducedShape(x.shape, dim, keep)
		if x.rank() == 0 {
			outShape = []int{}
		}
	}
	if !q.scalar && q.rank() == 1 {
		outShape = append([]int{len(q.data)}, outShape...)
	}
	return q.data, p, outShape, nil
}

// quantilePick is one quantile of a sorted line: the sorted positions
// below and above it and the weight of above; fixed reports that q has no
// gradient (a NaN result forced, or a rank clamped at 0).
func quantilePick(sv []float64, qv float64, ignoreNaN bool, mode string) (below, above int, w float64, scale float64, fixed bool) {
	n := len(sv)
	var rank float64
	if ignoreNaN {
		k := 0
		for _, v := range sv {
			if v == v {
				k++
			}
		}
		scale = float64(k - 1)
		rank = qv * scale
		if rank < 0 {
			rank, fixed = 0, true
		}
	} else {
		scale = float64(n - 1)
		rank = qv * scale
		if sv[n-1] != sv[n-1] {
			rank, fixed = float64(n-1), true
		}
	}
	switch mode {
	case "lower":
		i := int(math.Floor(rank))
		return i, i, 0, scale, true
	case "higher":
		i := int(math.Ceil(rank))
		return i, i, 0, scale, true
	case "nearest":
		i := int(math.RoundToEven(rank))
		return i, i, 0, scale, true
	}
	below, above = int(rank), int(math.Ceil(rank))
	w = rank - float64(below)
	if mode == "midpoint" {
		fixed = true
		if w > 0 {
			w = 0.5
		}
	}
	return below, above, w, scale, fixed
}

func quantileKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			qs, p, shape, err := quantileSetup(c)
			if err != nil {
				return nil, err
			}
			ignore, mode := c.attrs.Bool("ignore_nan", false), c.attrs.Str("interpolation", "linear")
			out := newArray(x.dtype, shape)
			lines := p.outer * p.inner
			p.lines(func(l, b, st int) {
				sv := make([]float64, p.size)
				for i, pos := range sortLine(x.data, b, st, p.size, false) {
					sv[i] = x.data[b+pos*st]
				}
				for qi, qv := range qs {
					lo, hi, w, _, _ := quantilePick(sv, qv, ignore, mode)
					out.data[qi*lines+l] = lerp(sv[lo], sv[hi], w)
				}
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, q := c.in[0], c.in[1]
			qs, p, _, err := quantileSetup(c)
			if err != nil {
				return nil, err
			}
			ignore, mode := c.attrs.Bool("ignore_nan", false), c.attrs.Str("interpolation", "linear")
			g := gradData(gos[0], len(outs[0].data))
			lines := p.outer * p.inner
			res := zeros(len(x.data))
			// q's gradient sums over every line: kept per line, added in
			// line order so that it never depends on the core count.
			dq := make([]float64, lines*len(qs))
			p.lines(func(l, b, st int) {
				order := sortLine(x.data, b, st, p.size, false)
				sv := make([]float64, p.size)
				for i, pos := range order {
					sv[i] = x.data[b+pos*st]
				}
				for qi, qv := range qs {
					gv := g[qi*lines+l]
					lo, hi, w, scale, fixed := quantilePick(sv, qv, ignore, mode)
					res[b+order[lo]*st] += gv * (1 - w)
					res[b+order[hi]*st] += gv * w
					if !fixed {
						dq[l*len(qs)+qi] = gv * (sv[hi] - sv[lo]) * scale
					}
				}
			})
			grads := []*array{gradForOwned(c, 0, res, x.shape), nil}
			if !q.scalar {
				gq := make([]float64, len(qs))
				for l := 0; l < lines; l++ {
					for qi := range qs {
						gq[qi] += dq[l*len(qs)+qi]
					}
				}
				grads[1] = gradFor(c, 1, gq, q.shape)
			}
			return grads, nil
		},
	}
}

func init() {
	register("quantile", quantileKernel())
	supportDTypes("quantile", tensor.Float64, tensor.Float32)
}

// ---- histc, bincount, searchsorted ----

// roundFunc returns rounding to dtype d of one value (the identity for
// float64), for kernels that emulate arithmetic at the input's dtype.
func roundFunc(d tensor.DType) func(float64) float64 {
	switch d {
	case tensor.Float32:
		return func(v float64) float64 { return float64(float32(v)) }
	case tensor.Float16, tensor.BFloat16:
		return func(v float64) float64 {
			s := []float64{v}
			roundSlice(d, s)
			return s[0]
		}
	}
	return func(v float64) float64 { return v }
}

// formatEdge prints a histogram edge as C++'s ostream does.
func formatEdge(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 0):
		return formatOrder(v)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

func histcKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			lo, hi := c.attrs.Float("min", 0), c.attrs.Float("max", 0)
			if !x.dtype.IsFloat() {
				return nil, notImplemented("histogram_cpu", x.dtype)
			}
			if x.dtype == tensor.Float16 {
				if lo == hi {
					return nil, notImplemented("aminmax_cpu", x.dtype)
				}
				return nil, notImplemented("histogram_cpu", x.dtype)
			}
			bins := c.attrs.Int("bins", 100)
			if bins <= 0 {
				return nil, fmt.Errorf("torch.histogram(): bins must be > 0, but got %d for dimension 0", bins)
			}
			if lo == hi && len(x.data) > 0 {
				lo, hi = x.data[0], x.data[0]
				for _, v := range x.data {
					if v != v {
						lo, hi = v, v
						break
					}
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
			if lo == hi {
				lo, hi = lo-1, hi+1
			}
			if lo > hi {
				return nil, fmt.Errorf("torch.histc: max must be larger than min")
			}
			if !finite(lo) || !finite(hi) {
				return nil, fmt.Errorf("torch.histc: range of [%s, %s] is not finite", formatEdge(lo), formatEdge(hi))
			}
			// PyTorch bins at the input's dtype, rounding every step.
			rnd := roundFunc(x.dtype)
			lo, hi = rnd(lo), rnd(hi)
			width, nb := rnd(hi-lo), rnd(float64(bins))
			out := newArray(x.dtype, []int{int(bins)})
			// Counts per fixed chunk, added up in chunk order: integers,
			// so exact whatever the core count.
			nChunks := (len(x.data) + chunkElems - 1) / chunkElems
			local := make([][]int64, nChunks)
			forChunks(len(x.data), func(from, to int) error {
				h := make([]int64, bins)
				for _, v := range x.data[from:to] {
					if v < lo || v > hi {
						continue
					}
					// PyTorch 1.13's range test lets NaN through, and its
					// bin position lands in bin 0.
					pos := int64(0)
					if v == v {
						pos = int64(rnd(rnd(rnd(v-lo)*nb) / width))
					}
					if pos == bins {
						pos--
					}
					h[pos]++
				}
				local[from/chunkElems] = h
				return nil
			})
			for _, h := range local {
				for i, k := range h {
					out.data[i] += float64(k)
				}
			}
			return []*array{out}, nil
		},
	}
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

func bincountKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, w := c.in[0], c.in[1]
			if x.dtype.IsFloat() || x.dtype == tensor.Bool {
				return nil, notImplemented("bincount_cpu", x.dtype)
			}
			minlength := c.attrs.Int("minlength", 0)
			if minlength < 0 {
				return nil, fmt.Errorf("minlength should be >= 0")
			}
			if x.rank() == 1 && len(x.data) == 0 {
				return []*array{newArray(tensor.Int64, []int{int(minlength)})}, nil
			}
			n := minlength
			for _, v := range x.data {
				if v < 0 || x.rank() != 1 {
					return nil, fmt.Errorf("bincount only supports 1-d non-negative integral inputs.")
				}
				n = max(n, int64(v)+1)
			}
			dt := tensor.Int64
			if w != nil {
				if w.rank() != 1 || len(w.data) != len(x.data) {
					return nil, fmt.Errorf("weights should be 1-d and have the same length as input")
				}
				dt = tensor.Float64
				if w.dtype == tensor.Float32 {
					dt = tensor.Float32
				}
			}
			out := newArray(dt, []int{int(n)})
			for i, v := range x.data {
				if w == nil {
					out.data[int(v)]++
				} else {
					out.data[int(v)] += w.data[i]
				}
			}
			return []*array{out}, nil
		},
	}
}

func searchsortedKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			seq, v, sorter := c.in[0], c.in[1], c.in[2]
			if seq.dtype == tensor.Bool && ((v.scalar && v.scalarKind == ops.ScalarBool) || (!v.scalar && v.dtype == tensor.Bool)) {
				// the common dtype is bool, which has no CPU kernel
				return nil, errors.New("\"searchsorted_out_cpu\" not implemented for 'Bool'")
			}
			if seq.rank() > 1 {
				vs := v.shape
				if v.scalar {
					vs = nil
				}
				if len(vs) == 0 { // ATen's searchsorted_pre_check tests this first
					return nil, fmt.Errorf("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(%d) and input value's dim(0) numel(1)", seq.rank())
				}
				if len(vs) != seq.rank() || !slices.Equal(vs[:len(vs)-1], seq.shape[:seq.rank()-1]) {
					return nil, fmt.Errorf("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s",
						ops.ShapeList(seq.shape), ops.ShapeList(vs))
				}
			}
			if sorter != nil && !slices.Equal(sorter.shape, seq.shape) {
				return nil, fmt.Errorf("torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor %s and got sorter tensor %s",
					ops.ShapeList(seq.shape), ops.ShapeList(sorter.shape))
			}
			L := 1
			if seq.rank() > 0 {
				L = seq.shape[seq.rank()-1]
			}
			if seq.rank() == 0 {
				return nil, fmt.Errorf("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
			}
			dt := tensor.Int64
			if c.attrs.Bool("out_int32", false) {
				dt = tensor.Int32
			}
			shape := v.shape
			if v.scalar {
				shape = []int{}
			}
			right := c.attrs.Bool("right", false)
			out := newArray(dt, shape)
			lastV := 1
			if len(shape) > 0 {
				lastV = shape[len(shape)-1]
			}
			forChunks(len(v.data), func(from, to int) error {
				for k := from; k < to; k++ {
					val, base := v.data[k], 0
					if seq.rank() > 1 {
						base = (k / lastV) * L
					}
					lo, hi := 0, L
					for lo < hi {
						mid := (lo + hi) / 2
						var s float64
						if sorter != nil {
							s = seq.data[base+int(sorter.data[base+mid])]
						} else {
							s = seq.data[base+mid]
						}
						if right && !(s > val) || !right && !(s >= val) {
							lo = mid + 1
						} else {
							hi = mid
						}
					}
					out.data[k] = float64(lo)
				}
				return nil
			})
			return []*array{out}, nil
		},
	}
}

func init() {
	register("histc", histcKernel())
	register("bincount", bincountKernel())
	register("searchsorted", searchsortedKernel())
	supportDTypes("histc", tensor.Float64, tensor.Float32, tensor.BFloat16)
	noBool := append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:len(intDTypes)-1]...)
	supportDTypes("bincount", noBool...)
	supportDTypes("searchsorted", noBool...)
}

// ---- unique, unique_consecutive ----

func uniqueKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if x.dtype == tensor.Float16 {
				return nil, notImplemented("unique", x.dtype)
			}
			consecutive := c.attrs.Bool("consecutive", false)
			// slices: n slices of m elements, slice s element e at
			// base(s) + e-th offset.
			var p dimPlan
			byDim := !c.attrs.IsNone("dim")
			if byDim {
				dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
				if err != nil {
					return nil, err
				}
				for i, s := range x.shape {
					if s == 0 && i != dim {
						return nil, fmt.Errorf("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
					}
				}
				p = newDimPlan(x.shape, dim)
			} else {
				p = dimPlan{outer: 1, size: len(x.data), inner: 1}
			}
			n, m := p.size, p.outer*p.inner
			at := func(s, e int) float64 { return x.data[(e/p.inner)*p.size*p.inner+s*p.inner+e%p.inner] }
			cmp := func(a, b int) int {
				for e := 0; e < m; e++ {
					u, v := at(a, e), at(b, e)
					switch {
					case u < v || v != v && u == u:
						return -1
					case u > v || u != u && v == v:
						return 1
					}
				}
				return 0
			}
			same := func(a, b int) bool {
				for e := 0; e < m; e++ {
					if at(a, e) != at(b, e) {
						return false
					}
				}
				return true
			}
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			if !consecutive {
				slices.SortStableFunc(order, cmp)
			}
			inverse := newArray(tensor.Int64, []int{n})
			var firsts, counts []int
			for i, s := range order {
				if i == 0 || !same(order[i-1], s) {
					firsts = append(firsts, s)
					counts = append(counts, 0)
				}
				counts[len(counts)-1]++
				inverse.data[s] = float64(len(firsts) - 1)
			}
			u := len(firsts)
			var vals *array
			if byDim {
				vals = newArray(x.dtype, keptShape(x.shape, p.dim, u))
				for j, s := range firsts {
					for e := 0; e < m; e++ {
						vals.data[(e/p.inner)*u*p.inner+j*p.inner+e%p.inner] = at(s, e)
					}
				}
			} else {
				vals = newArray(x.dtype, []int{u})
				inverse.shape = append([]int{}, x.shape...)
				for j, s := range firsts {
					vals.data[j] = x.data[s]
				}
			}
			outs := []*array{vals}
			if c.attrs.Bool("return_inverse", false) {
				outs = append(outs, inverse)
			}
			if c.attrs.Bool("return_counts", false) {
				cnt := newArray(tensor.Int64, []int{u})
				for j, k := range counts {
					cnt.data[j] = float64(k)
				}
				outs = append(outs, cnt)
			}
			return outs, nil
		},
	}
}

func init() {
	register("unique", uniqueKernel())
	supportDTypes("unique", append(append([]tensor.DType(nil), tensor.Float64, tensor.Float32, tensor.BFloat16), intDTypes...)...)
}
