package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

// softmax and log_softmax along one dim, with the optional dtype the input
// is cast to first.

func init() {
	register("softmax", &kernel{
		forward:  func(c *call) ([]*array, error) { return softmaxForward(c, false) },
		backward: func(c *call, outs, g []*array) ([]*array, error) { return softmaxBackward(c, outs, g, false) },
	})
	register("log_softmax", &kernel{
		forward:  func(c *call) ([]*array, error) { return softmaxForward(c, true) },
		backward: func(c *call, outs, g []*array) ([]*array, error) { return softmaxBackward(c, outs, g, true) },
	})
}

// nnDimSplit splits shape around dim into (outer, size, inner).
func nnDimSplit(shape []int, dim int) (outer, size, inner int) {
	if len(shape) == 0 {
		return 1, 1, 1
	}
	outer = tensor.NumElements(shape[:dim])
	size = shape[dim]
	inner = tensor.NumElements(shape[dim+1:])
	return
}

func softmaxSetup(c *call, log bool) (*array, int, tensor.DType, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, 0, err
	}
	name := "softmax_lastdim_kernel_impl"
	if log {
		name = "log_softmax_lastdim_kernel_impl"
	}
	dt := x.dtype
	if s := c.attrs.Str("dtype", ""); s != "" {
		d, err := tensor.Parse(s)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %v", c.op, err)
		}
		dt = d
	}
	if !dt.IsFloat() {
		return nil, 0, 0, nnNotImpl(name, dt)
	}
	if !c.attrs.Has("dim") || c.attrs.IsNone("dim") {
		return nil, 0, 0, fmt.Errorf("%s() missing required argument 'dim'", c.op)
	}
	dim, err := normDim(c.attrs.Int("dim", 0), len(x.shape))
	if err != nil {
		return nil, 0, 0, err
	}
	if dt != x.dtype {
		// PyTorch casts the input to dtype first.
		cast := &array{shape: x.shape, data: append([]float64(nil), x.data...), dtype: x.dtype}
		castTo(cast, dt)
		x = cast
	}
	return x, dim, dt, nil
}

func softmaxForward(c *call, log bool) ([]*array, error) {
	x, dim, dt, err := softmaxSetup(c, log)
	if err != nil {
		return nil, err
	}
	out := nnNew(x.shape, dt)
	outer, size, inner := nnDimSplit(x.shape, dim)
	bf16Last := dt == tensor.BFloat16 && (len(x.shape) == 0 || dim == len(x.shape)-1)
	var buf []float64
	if inner > 1 {
		buf = make([]float64, size)
	}
	for o := 0; o < outer; o++ {
		for in := 0; in < inner; in++ {
			base := o*size*inner + in
			m := math.Inf(-1)
			for j := 0; j < size; j++ {
				v := x.data[base+j*inner]
				if v > m || math.IsNaN(v) {
					m = v
				}
			}
			// e[j] = exp(x[j] − m), vectorised (expInto gives math.Exp's
			// bits); a contiguous row uses its output row as the buffer,
			// which the passes below then overwrite element by element.
			e := buf
			if inner == 1 {
				e = out.data[base : base+size]
			}
			for j := range e {
				e[j] = x.data[base+j*inner] - m
			}
			expInto(e, e)
			sum := 0.0
			for _, v := range e {
				sum += v
			}
			if log && bf16Last {
				// log_softmax_lastdim_kernel at bfloat16 (PyTorch 1.13):
				// float32 vectors, but the row's sum and its log are kept
				// in bfloat16 arrays; the output x - max - log(sum) is
				// computed in float32 and rounded once.
				ls := float32(bf16Op(math.Log(bf16Op(sum))))
				mf := float32(m)
				for j := 0; j < size; j++ {
					k := base + j*inner
					out.data[k] = float64(float32(x.data[k]) - mf - ls)
				}
			} else if log {
				ls := math.Log(sum)
				for j := 0; j < size; j++ {
					out.data[base+j*inner] = x.data[base+j*inner] - m - ls
				}
			} else {
				for j := 0; j < size; j++ {
					out.data[base+j*inner] = e[j] / sum
				}
			}
		}
	}
	return []*array{out}, nil
}

func softmaxBackward(c *call, outs, gradOuts []*array, log bool) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	x, dim, dt, err := softmaxSetup(c, log)
	if err != nil {
		return nil, err
	}
	y := outs[0]
	if dt != gx.dtype {
		// With a dtype, PyTorch's backward runs at that dtype: the output
		// gradient is cast to it and the result rounded to it.
		g = &array{shape: g.shape, data: append([]float64(nil), g.data...), dtype: g.dtype}
		castTo(g, dt)
	}
	outer, size, inner := nnDimSplit(x.shape, dim)
	for o := 0; o < outer; o++ {
		for in := 0; in < inner; in++ {
			base := o*size*inner + in
			s := 0.0
			for j := 0; j < size; j++ {
				k := base + j*inner
				if log {
					s += g.data[k]
				} else {
					s += g.data[k] * y.data[k]
				}
			}
			if log && inner == 1 {
				// exp(y) of the row into its gradient row, vectorised
				// (math.Exp's bits), then g − exp(y)·s in place.
				row := gx.data[base : base+size]
				expInto(row, y.data[base:base+size])
				for j, v := range row {
					row[j] = g.data[base+j] - v*s
				}
				continue
			}
			for j := 0; j < size; j++ {
				k := base + j*inner
				if log {
					gx.data[k] = g.data[k] - math.Exp(y.data[k])*s
				} else {
					gx.data[k] = y.data[k] * (g.data[k] - s)
				}
			}
		}
	}
	if dt != gx.dtype {
		roundSlice(dt, gx.data)
	}
	return []*array{gx}, nil
}
