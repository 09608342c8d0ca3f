package cpu

import (
	"errors"
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Activations of msprobe's torch list (sdk/ops/schema_nn.go): celu and
// selu (ATen's elu kernel), threshold, prelu, hardshrink, torch._add_relu
// and rrelu in evaluation (leaky_relu), with PyTorch 1.13's CPU semantics:
// the scalar parameters are cast to the input's dtype (float32 for the
// half types, which PyTorch computes in float32), comparisons are made on
// the input, and the backward formulas are ATen's (elu_backward,
// threshold_backward, prelu_backward, hardshrink_backward,
// leaky_relu_backward).

// selu's constants (torch.nn.SELU).
const (
	seluAlpha = 1.6732632423543772848170429916717
	seluScale = 1.0507009873554804934193349852946
)

// nnScalarAt is a scalar parameter as a kernel of dtype dt reads it: float32
// for the half types (their kernels compute in float32), truncated for
// integers.
func nnScalarAt(dt tensor.DType, v float64) float64 {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return roundTo(tensor.Float32, v)
	}
	return roundTo(dt, v)
}

// nnMap applies f to every value of x into a new array of dtype dt and x's
// shape, in parallel fixed chunks.
func nnMap(x *array, dt tensor.DType, f func(dst, src []float64)) *array {
	out := &array{shape: append([]int{}, x.shape...), data: float64sFor(len(x.data)), dtype: dt}
	forChunks(len(x.data), func(from, to int) error {
		f(out.data[from:to], x.data[from:to])
		return nil
	})
	return out
}

// nnGradMap forms input 0's gradient g·d from the output gradient and the
// input (or output) values v, in parallel fixed chunks.
func nnGradMap(c *call, gos []*array, v []float64, f func(dst, g, v []float64)) []*array {
	x := c.in[0]
	g := gradData(gos[0], len(x.data))
	res := float64sFor(len(g))
	forChunks(len(res), func(from, to int) error {
		f(res[from:to], g[from:to], v[from:to])
		return nil
	})
	return []*array{gradForOwned(c, 0, res, x.shape)}
}

// eluParams are ATen elu's coefficients: y = x ≤ 0 ? (exp(x·inScale) − 1)·negcoef : x·scale.
type eluParams struct{ negcoef, scale, inScale float64 }

func eluForward(x *array, p eluParams) *array {
	return nnMap(x, x.dtype, func(dst, src []float64) {
		for i, v := range src {
			if v <= 0 {
				dst[i] = (math.Exp(v*p.inScale) - 1) * p.negcoef
			} else {
				dst[i] = v * p.scale
			}
		}
	})
}

// eluBackward is ATen's elu_backward: from the input, or (in place, as
// autograd saves it) from the result.
func eluBackward(c *call, outs, gos []*array, p eluParams, isResult bool, negSlope bool) ([]*array, error) {
	if isResult {
		if negSlope {
			return nil, errors.New("In-place elu backward calculation is triggered with a negative slope which is not supported. " +
				"This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.")
		}
		return nnGradMap(c, gos, outs[0].data, func(dst, g, y []float64) {
			for i, v := range y {
				if v <= 0 {
					dst[i] = g[i] * p.inScale * (v + p.negcoef)
				} else {
					dst[i] = g[i] * p.scale
				}
			}
		}), nil
	}
	return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
		for i, v := range x {
			if v <= 0 {
				dst[i] = g[i] * p.inScale * p.negcoef * math.Exp(v*p.inScale)
			} else {
				dst[i] = g[i] * p.scale
			}
		}
	}), nil
}

func celuKernel() *kernel {
	alphaOf := func(c *call) (float64, error) {
		a := c.attrs.Float("alpha", 1)
		if a == 0 {
			return 0, errors.New("ZeroDivisionError: alpha cannot be 0 for CELU")
		}
		return a, nil
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if !x.dtype.IsFloat() {
				return nil, nnNotImpl("elu_cpu", x.dtype)
			}
			a, err := alphaOf(c)
			if err != nil {
				return nil, err
			}
			dt := x.dtype
			return []*array{eluForward(x, eluParams{negcoef: nnScalarAt(dt, a), scale: 1, inScale: nnScalarAt(dt, 1/a)})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			a, err := alphaOf(c)
			if err != nil {
				return nil, err
			}
			// derivatives.yaml: elu_backward(grad, alpha, 1, 1.0/alpha.toFloat(), ...)
			p := eluParams{negcoef: a, scale: 1, inScale: 1 / float64(float32(a))}
			return eluBackward(c, outs, gos, p, c.attrs.Bool("inplace", false), a < 0)
		},
	}
}

func seluKernel() *kernel {
	params := func(dt tensor.DType) eluParams {
		return eluParams{negcoef: nnScalarAt(dt, nnScalarAt(dt, seluAlpha)*nnScalarAt(dt, seluScale)), scale: nnScalarAt(dt, seluScale), inScale: 1}
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if !x.dtype.IsFloat() {
				return nil, nnNotImpl("elu_cpu", x.dtype)
			}
			return []*array{eluForward(x, params(x.dtype))}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			return eluBackward(c, outs, gos, params(tensor.Float64), c.attrs.Bool("inplace", false), false)
		},
	}
}

func thresholdKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if x.dtype == tensor.Bool {
				return nil, nnNotImpl("threshold_cpu", x.dtype)
			}
			th, val := nnScalarAt(x.dtype, c.attrs.Float("threshold", 0)), nnScalarAt(x.dtype, c.attrs.Float("value", 0))
			return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
				for i, v := range src {
					if v <= th {
						dst[i] = val
					} else {
						dst[i] = v
					}
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// threshold_backward on the input, for threshold_ too.
			th := nnScalarAt(c.in[0].dtype, c.attrs.Float("threshold", 0))
			return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
				for i, v := range x {
					if v <= th {
						dst[i] = 0
					} else {
						dst[i] = g[i]
					}
				}
			}), nil
		},
	}
}

func hardshrinkKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if !x.dtype.IsFloat() {
				return nil, nnNotImpl("hardshrink_cpu", x.dtype)
			}
			l := nnScalarAt(x.dtype, c.attrs.Float("lambd", 0.5))
			return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
				for i, v := range src {
					if v >= -l && v <= l {
						dst[i] = 0
					} else {
						dst[i] = v
					}
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			l := nnScalarAt(c.in[0].dtype, c.attrs.Float("lambd", 0.5))
			return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
				for i, v := range x {
					if v >= -l && v <= l {
						dst[i] = 0
					} else {
						dst[i] = g[i]
					}
				}
			}), nil
		},
	}
}

// rreluSlope is rrelu's evaluation slope (lower + upper)/2 as leaky_relu
// reads it at dtype dt.
func rreluSlope(c *call, dt tensor.DType) (float64, error) {
	lo, hi := c.attrs.Float("lower", 0.125), c.attrs.Float("upper", 1.0/3)
	if lo > hi {
		return 0, errors.New("Lower bound should be less than or equal to the upper bound")
	}
	return nnScalarAt(dt, (lo+hi)/2), nil
}

func rreluKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			s, err := rreluSlope(c, x.dtype)
			if err != nil {
				return nil, err
			}
			if !x.dtype.IsFloat() {
				return nil, nnNotImpl("leaky_relu_cpu", x.dtype)
			}
			return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
				for i, v := range src {
					if v > 0 {
						dst[i] = v
					} else {
						dst[i] = v * s
					}
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			s, err := rreluSlope(c, c.in[0].dtype)
			if err != nil {
				return nil, err
			}
			v := c.in[0].data
			if c.attrs.Bool("inplace", false) {
				// rrelu_ saves its result (leaky_relu_backward self_is_result).
				if s < 0 {
					return nil, errors.New("In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. " +
						"This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.")
				}
				v = outs[0].data
			}
			return nnGradMap(c, gos, v, func(dst, g, x []float64) {
				for i, v := range x {
					if v > 0 {
						dst[i] = g[i]
					} else {
						dst[i] = g[i] * s
					}
				}
			}), nil
		},
	}
}

// preluChannels returns the number of weights per position and the size of
// one channel's run of elements: weight has one element, or one per
// channel (dim 1 of an input of at least 2 dimensions).
func preluChannels(x, w *array) (nw, inner int, err error) {
	if w.rank() > 1 {
		return 0, 0, fmt.Errorf("prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d", w.rank())
	}
	channels := 1
	if x.rank() >= 2 {
		channels = x.shape[1]
	}
	nw = w.len()
	if nw != 1 && nw != channels {
		return 0, 0, fmt.Errorf("Mismatch of parameter numbers and input channel size. Found parameter numbers = %d and channel size = %d.", nw, channels)
	}
	inner = 1
	for _, d := range x.shape[min(2, x.rank()):] {
		inner *= d
	}
	return nw, inner, nil
}

// preluWeightGradAt sums prelu's collector x·g into the weight gradient
// gw as PyTorch 1.13 does at a narrow dtype dt: the collector is a tensor
// of dt, its sum over all but the channel dimension a dt reduction that
// rounds each sample's per-channel (inner) sum to dt and accumulates the
// samples in order at dt; a single weight takes the whole sum rounded once.
func preluWeightGradAt(gw, col []float64, nw, inner int, dt tensor.DType) {
	r := opRounder(dt)
	if nw == 1 {
		s := 0.0
		for _, v := range col {
			s += r(v)
		}
		gw[0] = s
		return
	}
	for base := 0; base < len(col); base += nw * inner {
		for ch := 0; ch < nw; ch++ {
			s := 0.0
			for _, v := range col[base+ch*inner : base+(ch+1)*inner] {
				s += r(v)
			}
			gw[ch] = r(gw[ch] + r(s))
		}
	}
}

func preluKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, w := c.in[0], c.in[1]
			if _, err := nnFloatOnly("prelu_cpu", x, w); err != nil {
				return nil, err
			}
			nw, inner, err := preluChannels(x, w)
			if err != nil {
				return nil, err
			}
			if w.dtype != x.dtype {
				return nil, fmt.Errorf("Found dtype %s but expected %s", ops.TypeName(w.dtype), ops.TypeName(x.dtype))
			}
			wv := w.data
			out := &array{shape: append([]int{}, x.shape...), data: float64sFor(len(x.data)), dtype: x.dtype}
			forChunks(len(x.data), func(from, to int) error {
				for k := from; k < to; k++ {
					if v := x.data[k]; v > 0 {
						out.data[k] = v
					} else {
						out.data[k] = wv[(k/inner)%nw] * v
					}
				}
				return nil
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, w := c.in[0], c.in[1]
			nw, inner, err := preluChannels(x, w)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			gx := float64sFor(len(g))
			// collector: x·g where x ≤ 0 (prelu_backward), summed per weight
			col := float64sFor(len(g))
			forChunks(len(g), func(from, to int) error {
				for k := from; k < to; k++ {
					if v := x.data[k]; v > 0 {
						gx[k], col[k] = g[k], 0
					} else {
						gx[k], col[k] = w.data[(k/inner)%nw]*g[k], v*g[k]
					}
				}
				return nil
			})
			var gw *array
			if c.requiresGrad[1] {
				gw = &array{shape: append([]int{}, w.shape...), data: make([]float64, nw), dtype: w.dtype}
				if narrowFloat(x.dtype) {
					preluWeightGradAt(gw.data, col, nw, inner, x.dtype)
				} else {
					for k, v := range col {
						gw.data[(k/inner)%nw] += v
					}
				}
			}
			scratchDone(col)
			return []*array{gradForOwned(c, 0, gx, x.shape), gw}, nil
		},
	}
}

// addReluMax is the upper clamp of torch._add_relu: the largest value of
// self's dtype; other dtypes hit PyTorch's internal assert.
func addReluMax(self tensor.DType) (float64, error) {
	switch self {
	case tensor.Int8:
		return math.MaxInt8, nil
	case tensor.Int16:
		return math.MaxInt16, nil
	case tensor.Int32:
		return math.MaxInt32, nil
	case tensor.Int64:
		return math.MaxInt64, nil
	case tensor.Float32:
		return math.MaxFloat32, nil
	case tensor.Float64:
		return math.MaxFloat64, nil
	}
	return 0, fmt.Errorf("false INTERNAL ASSERT FAILED at \"./aten/src/ATen/native/BinaryOps.cpp\":701, please report a bug to PyTorch. Unsupported datatype for add_relu:%s", self.CppName())
}

// addReluKernel is torch._add_relu: self + alpha·other in the promoted
// dtype (integers wrap; alpha is cast to the result dtype, truncated for
// integers, where add would refuse a float alpha), then clamped to
// [0, the largest value of self's dtype]. A NaN sum stays NaN (PyTorch's
// vectorised path; its scalar tail gives 0). No backward: PyTorch 1.13
// has no derivative for _add_relu.
func addReluKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			hi, err := addReluMax(a.dtype)
			if err != nil {
				return nil, err
			}
			dt := resultType(a, b)
			alpha := nnScalarAt(dt, c.attrs.Float("alpha", 1))
			integral := dt.IsInt()
			out, err := binaryMap(c, dt, dt, func(x, y float64) (float64, error) {
				s := x + alpha*y
				if integral {
					s = wrapInt(dt, s)
				}
				switch {
				case s > hi:
					return hi, nil
				case s > 0 || s != s:
					return s, nil
				}
				return 0, nil
			})
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
	}
}

func init() {
	register("celu", celuKernel())
	register("selu", seluKernel())
	register("threshold", thresholdKernel())
	register("hardshrink", hardshrinkKernel())
	register("rrelu", rreluKernel())
	register("prelu", preluKernel())
	register("add_relu", addReluKernel())
	supportDTypes("threshold", append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)...)
	supportDTypes("add_relu", tensor.Float64, tensor.Float32, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64)
}
