package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Reductions: sum, mean, max/min (full and along a dim) and cumsum.

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
