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
