package cpu

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/probe-dev/probe/sdk/tensor"
)

// The act family (sdk/ops/schema_act.go): elu, leaky_relu, hardtanh,
// hardsigmoid, hardswish, mish, softplus, softshrink, log_sigmoid, glu
// (ATen kernels, PyTorch 1.13's CPU formulas and backward formulas),
// softsign and tanhshrink (F's compositions of tensor ops: their
// intermediate tensors round at the dtype) and softmin (softmax of the
// negated input).

// actScalar is a scalar parameter as a bfloat16 kernel reads it when it
// computes in bfloat16 (Scalar.to<scalar_t>(): softshrink's backward);
// float16 (no CPU kernel; emulated in float32) reads it at float32. The
// forward kernels read their parameters at float32 for the half types
// (nnScalarAt).
func actScalar(dt tensor.DType, v float64) float64 {
	if dt == tensor.Float16 {
		return roundTo(tensor.Float32, v)
	}
	return roundTo(dt, v)
}

// actFloat refuses a non-floating input with PyTorch's dispatch error.
func actFloat(c *call, kernelName string) (*array, error) {
	x := c.in[0]
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl(kernelName, x.dtype)
	}
	return x, nil
}

// actPointwise is a kernel of a floating-only pointwise activation: f
// computes the output from the input, df the input gradient from the
// output gradient g and the input; both get the kernel's dtype to read
// their parameters at.
func actPointwise(kernelName string, f func(dt tensor.DType, c *call) (func(x float64) float64, error),
	df func(dt tensor.DType, c *call) (func(g, x float64) float64, error)) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, err := actFloat(c, kernelName)
			if err != nil {
				return nil, err
			}
			fn, err := f(x.dtype, c)
			if err != nil {
				return nil, err
			}
			return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
				for i, v := range src {
					dst[i] = fn(v)
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			dfn, err := df(c.in[0].dtype, c)
			if err != nil {
				return nil, err
			}
			return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
				for i, v := range x {
					dst[i] = dfn(g[i], v)
				}
			}), nil
		},
	}
}

func eluKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, err := actFloat(c, "elu_cpu")
			if err != nil {
				return nil, err
			}
			a := nnScalarAt(x.dtype, c.attrs.Float("alpha", 1))
			return []*array{eluForward(x, eluParams{negcoef: a, scale: 1, inScale: 1})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			a := c.attrs.Float("alpha", 1)
			neg := a
			inplace := c.attrs.Bool("inplace", false)
			if inplace && narrowFloat(c.in[0].dtype) {
				// the backward from the result reads alpha at float
				// (measured at bfloat16)
				neg = float64(float32(a))
			}
			return eluBackward(c, outs, gos, eluParams{negcoef: neg, scale: 1, inScale: 1}, inplace, a < 0)
		},
	}
}

func leakyReluKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, err := actFloat(c, "leaky_relu_cpu")
			if err != nil {
				return nil, err
			}
			s := nnScalarAt(x.dtype, c.attrs.Float("negative_slope", 0.01))
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
			s := nnScalarAt(c.in[0].dtype, c.attrs.Float("negative_slope", 0.01))
			v := c.in[0].data
			if c.attrs.Bool("inplace", false) {
				// leaky_relu_ saves its result (leaky_relu_backward self_is_result).
				if s < 0 {
					return nil, errors.New("In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. " +
						"This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead. " +
						"File an issue at https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward calculation with negative slope")
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

// hardtanhLimits are hardtanh's limits as ATen reads them at dtype dt:
// integer inputs truncate them (Scalar.toLong) and uint8 refuses negative
// ones; floating inputs read them at float32 for the half types (the
// bfloat16 forward gives the same result either way; PyTorch 1.13 has no
// bfloat16 backward, emulated in float32).
func hardtanhLimits(c *call, dt tensor.DType) (lo, hi float64, err error) {
	lo, hi = c.attrs.Float("min_val", -1), c.attrs.Float("max_val", 1)
	switch {
	case dt == tensor.Bool:
		return 0, 0, errors.New("Bool inputs not supported for hardtanh")
	case dt.IsInt():
		lo, hi = math.Trunc(lo), math.Trunc(hi)
		if dt == tensor.Uint8 && (lo < 0 || hi < 0) {
			return 0, 0, errors.New("cannot do hardtanh on an unsigned type with negative limits")
		}
		return lo, hi, nil
	}
	return nnScalarAt(dt, lo), nnScalarAt(dt, hi), nil
}

func hardtanhKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			lo, hi, err := hardtanhLimits(c, x.dtype)
			if err != nil {
				return nil, err
			}
			return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
				for i, v := range src {
					switch {
					case v != v:
						dst[i] = v
					case v < lo:
						dst[i] = min(lo, hi)
					case v > hi:
						dst[i] = hi
					default:
						dst[i] = v
					}
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// hardtanh_backward: 0 where x ≤ min_val or x ≥ max_val (the
			// in-place form reads the result, with the same outcome).
			lo, hi, err := hardtanhLimits(c, c.in[0].dtype)
			if err != nil {
				return nil, err
			}
			return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
				for i, v := range x {
					if v <= lo || v >= hi {
						dst[i] = 0
					} else {
						dst[i] = g[i]
					}
				}
			}), nil
		},
	}
}

// actOneSixth is ATen's one_sixth constant: the float 1.0f/6.0f.
var actOneSixth = float64(float32(1.0 / 6))

// actFloat32Steps rounds the intermediate values of a kernel that
// computes at its scalar type: float32 (and float16, emulated in float32)
// round every step; float64 and bfloat16 (whose kernels compute in float
// and round once) keep them.
func actFloat32Steps(dt tensor.DType) func(float64) float64 {
	if dt == tensor.Float32 || dt == tensor.Float16 {
		return opRounder(tensor.Float32)
	}
	return opRounder(tensor.Float64)
}

func hardsigmoidKernel() *kernel {
	return actPointwise("hardsigmoid_cpu",
		func(dt tensor.DType, c *call) (func(float64) float64, error) {
			r := actFloat32Steps(dt)
			return func(x float64) float64 { return min(max(r(x+3), 0), 6) / 6 }, nil
		},
		func(dt tensor.DType, c *call) (func(g, x float64) float64, error) {
			return func(g, x float64) float64 {
				if x > -3 && x < 3 {
					return g * actOneSixth
				}
				return 0
			}, nil
		})
}

// hardswishVecWidth is the number of elements one step of PyTorch 1.13's
// vectorised CPU loop takes at dt (two AVX2 vectors): the loop runs over
// the first n − n mod width elements of a contiguous tensor, the scalar
// lambda over the rest. The two differ at x = 3 exactly in the backward.
func hardswishVecWidth(dt tensor.DType) int {
	switch dt {
	case tensor.Float64:
		return 8
	case tensor.BFloat16:
		return 32
	}
	return 16 // float32, and float16 emulated in float32
}

func hardswishKernel() *kernel {
	k := actPointwise("hardswish_cpu",
		func(dt tensor.DType, c *call) (func(float64) float64, error) {
			r := actFloat32Steps(dt)
			return func(x float64) float64 { return r(x*r(min(max(r(x+3), 0), 6))) / 6 }, nil
		}, nil)
	k.backward = func(c *call, outs, gos []*array) ([]*array, error) {
		x := c.in[0]
		n := len(x.data)
		vecEnd := n - n%hardswishVecWidth(x.dtype)
		r := actFloat32Steps(x.dtype)
		g := gradData(gos[0], n)
		res := float64sFor(n)
		forChunks(n, func(from, to int) error {
			for i := from; i < to; i++ {
				switch v := x.data[i]; {
				case v < -3:
					res[i] = 0
				case v < 3 || v == 3 && i >= vecEnd:
					// the scalar lambda takes x ≤ 3, the vectorised one x < 3
					res[i] = g[i] * r(r(v/3)+0.5)
				default:
					res[i] = g[i]
				}
			}
			return nil
		})
		return []*array{gradForOwned(c, 0, res, x.shape)}, nil
	}
	return k
}

func mishKernel() *kernel {
	return actPointwise("mish_cpu",
		func(dt tensor.DType, c *call) (func(float64) float64, error) {
			return func(x float64) float64 { return x * math.Tanh(math.Log1p(math.Exp(x))) }, nil
		},
		func(dt tensor.DType, c *call) (func(g, x float64) float64, error) {
			return func(g, x float64) float64 {
				s := 1 / (1 + math.Exp(-x))
				t := math.Tanh(math.Log1p(math.Exp(x)))
				return g * (t + x*s*(1-t*t))
			}, nil
		})
}

func softplusKernel() *kernel {
	params := func(dt tensor.DType, c *call) (beta, th float64) {
		return nnScalarAt(dt, c.attrs.Float("beta", 1)), nnScalarAt(dt, c.attrs.Float("threshold", 20))
	}
	return actPointwise("softplus_cpu",
		func(dt tensor.DType, c *call) (func(float64) float64, error) {
			beta, th := params(dt, c)
			return func(x float64) float64 {
				if x*beta > th {
					return x
				}
				return math.Log1p(math.Exp(x*beta)) / beta
			}, nil
		},
		func(dt tensor.DType, c *call) (func(g, x float64) float64, error) {
			beta, th := params(dt, c)
			return func(g, x float64) float64 {
				if x*beta > th {
					return g
				}
				z := math.Exp(x * beta)
				return g * z / (z + 1)
			}, nil
		})
}

// actLambd is softshrink's lambd, refused when negative with ATen's
// message (the number as C++ streams print a double): the forward reads
// it at float32 for the half types, the backward (hardshrink_backward's
// kernel) at bfloat16 for bfloat16.
func actLambd(dt tensor.DType, c *call, backward bool) (float64, error) {
	l := c.attrs.Float("lambd", 0.5)
	if l < 0 {
		return 0, fmt.Errorf("lambda must be greater or equal to 0, but found to be %s.", strconv.FormatFloat(l, 'g', 6, 64))
	}
	if backward {
		return actScalar(dt, l), nil
	}
	return nnScalarAt(dt, l), nil
}

func softshrinkKernel() *kernel {
	return actPointwise("softshrink_cpu",
		func(dt tensor.DType, c *call) (func(float64) float64, error) {
			l, err := actLambd(dt, c, false)
			if err != nil {
				return nil, err
			}
			return func(x float64) float64 {
				switch {
				case x > l:
					return x - l
				case x < -l:
					return x + l
				}
				return 0
			}, nil
		},
		func(dt tensor.DType, c *call) (func(g, x float64) float64, error) {
			l, err := actLambd(dt, c, true)
			if err != nil {
				return nil, err
			}
			return func(g, x float64) float64 {
				if x >= -l && x <= l {
					return 0
				}
				return g
			}, nil
		})
}

func logSigmoidKernel() *kernel {
	return actPointwise("log_sigmoid_cpu",
		func(dt tensor.DType, c *call) (func(float64) float64, error) {
			return func(x float64) float64 { return min(x, 0) - math.Log1p(math.Exp(-math.Abs(x))) }, nil
		},
		func(dt tensor.DType, c *call) (func(g, x float64) float64, error) {
			// the backward reads the forward's buffer exp(−|x|), a tensor
			// of the dtype, and computes op by op at the kernel's scalar
			// type: float32 for float32 (and float16, emulated in float32),
			// float at bfloat16 (one rounding)
			rb := kernelRounder(dt)
			r := actFloat32Steps(dt)
			return func(g, x float64) float64 {
				z := rb(math.Exp(-math.Abs(x)))
				t := r(z / r(1+z))
				if x < 0 {
					return g * r(1-t)
				}
				return g * t
			}, nil
		})
}

// actComposite checks the input of F's softsign and tanhshrink and
// returns their result dtype: integers promote to float32 (true division,
// or the difference with tanh's float32 result); bool is refused by the
// first tensor op.
func actComposite(x *array, boolErr string) (tensor.DType, error) {
	switch {
	case x.dtype == tensor.Bool:
		return tensor.Invalid, errors.New(boolErr)
	case x.dtype.IsFloat():
		return x.dtype, nil
	}
	return tensor.Float32, nil
}

// softsignKernel is F.softsign, x / (x.abs() + 1): the denominator is a
// tensor of the dtype; the backward is autograd's through div, add and
// abs, each product a tensor of the dtype.
func softsignKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt, err := actComposite(x, "\"abs_cpu\" not implemented for 'Bool'")
			if err != nil {
				return nil, err
			}
			r := opRounder(x.dtype) // integer sums are exact
			return []*array{nnMap(x, dt, func(dst, src []float64) {
				for i, v := range src {
					dst[i] = v / r(math.Abs(v)+1)
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			r := opRounder(x.dtype)
			return nnGradMap(c, gos, x.data, func(dst, g, xs []float64) {
				for i, v := range xs {
					d := r(math.Abs(v) + 1)
					// div: grad/other for self, −grad·((self/other)/other)
					// for other, which abs's backward multiplies by sgn(x)
					direct := r(g[i] / d)
					other := r(-g[i] * r(r(v/d)/d))
					var sgn float64
					switch {
					case v > 0:
						sgn = 1
					case v < 0:
						sgn = -1
					}
					dst[i] = direct + other*sgn
				}
			}), nil
		},
	}
}

// tanhshrinkKernel is F.tanhshrink, x − x.tanh(): tanh's result is a
// tensor of the dtype; the backward adds the output gradient and
// tanh_backward(−grad, tanh(x)).
func tanhshrinkKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt, err := actComposite(x, "Subtraction, the `-` operator, with a bool tensor is not supported. "+
				"If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
			if err != nil {
				return nil, err
			}
			r := kernelRounder(dt)
			return []*array{nnMap(x, dt, func(dst, src []float64) {
				for i, v := range src {
					dst[i] = v - r(math.Tanh(v))
				}
			})}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			r := kernelRounder(x.dtype)
			return nnGradMap(c, gos, x.data, func(dst, g, xs []float64) {
				for i, v := range xs {
					t := r(math.Tanh(v))
					dst[i] = g[i] + r(-g[i]*(1-t*t))
				}
			}), nil
		},
	}
}

// gluSplit returns glu's (outer, half, inner) split of x along dim, with
// ATen's check that the halved dimension is even.
func gluSplit(c *call, x *array) (outer, half, inner int, err error) {
	if x.rank() == 0 {
		return 0, 0, 0, errors.New("glu does not support scalars because halving size must be even")
	}
	dim, err := normDim(c.attrs.Int("dim", -1), x.rank())
	if err != nil {
		return 0, 0, 0, err
	}
	outer, size, inner := nnDimSplit(x.shape, dim)
	if size%2 != 0 {
		return 0, 0, 0, fmt.Errorf("Halving dimension must be even, but dimension %d is size %d", dim, size)
	}
	return outer, size / 2, inner, nil
}

func gluKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			// ATen checks the halved dimension before the dtype
			outer, half, inner, err := gluSplit(c, c.in[0])
			if err != nil {
				return nil, err
			}
			x, err := actFloat(c, "glu_cpu")
			if err != nil {
				return nil, err
			}
			dim, _ := normDim(c.attrs.Int("dim", -1), x.rank())
			shape := append([]int{}, x.shape...)
			shape[dim] = half
			out := nnNew(shape, x.dtype)
			forChunks(outer, func(from, to int) error {
				for o := from; o < to; o++ {
					src, dst := x.data[o*2*half*inner:], out.data[o*half*inner:]
					for k := 0; k < half*inner; k++ {
						a, b := src[k], src[half*inner+k]
						dst[k] = a / (1 + math.Exp(-b))
					}
				}
				return nil
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			outer, half, inner, err := gluSplit(c, x)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], outs[0].len())
			gx := float64sFor(len(x.data))
			// ATen's glu_backward: sigmoid(b) is a tensor of the dtype;
			// the first half's gradient is its product with grad, the
			// second's (1 − s)·s·a·grad, op by op at float32 (float32, and
			// float16 emulated in float32), in float at bfloat16.
			rs := kernelRounder(x.dtype)
			r32 := actFloat32Steps(x.dtype)
			forChunks(outer, func(from, to int) error {
				for o := from; o < to; o++ {
					src, gs, dst := x.data[o*2*half*inner:], g[o*half*inner:], gx[o*2*half*inner:]
					for k := 0; k < half*inner; k++ {
						a, b := src[k], src[half*inner+k]
						s := rs(1 / (1 + math.Exp(-b)))
						dst[k] = gs[k] * s
						dst[half*inner+k] = r32(r32(r32(1-s)*s)*a) * gs[k]
					}
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, gx, x.shape)}, nil
		},
	}
}

// softminCall is c with its input negated (exact at every dtype): softmin
// is softmax of it.
func softminCall(c *call) (*call, error) {
	x := c.in[0]
	if x.dtype == tensor.Bool {
		return nil, errors.New("Negation, the `-` operator, on a bool tensor is not supported. " +
			"If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	n := &array{shape: x.shape, data: float64sFor(len(x.data)), dtype: x.dtype}
	for i, v := range x.data {
		n.data[i] = -v
	}
	nc := *c
	nc.in = []*array{n}
	return &nc, nil
}

func softminKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			nc, err := softminCall(c)
			if err != nil {
				return nil, err
			}
			return softmaxForward(nc, false)
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			nc, err := softminCall(c)
			if err != nil {
				return nil, err
			}
			if c.in[0].dtype == tensor.Float16 {
				// no float16 softmax on PyTorch 1.13's CPU: emulated in
				// float32, whose backward reads the float32 result
				y, err := softmaxForward(nc, false)
				if err != nil {
					return nil, err
				}
				roundSlice(tensor.Float32, y[0].data)
				outs = y
			}
			if c.in[0].dtype == tensor.BFloat16 && c.attrs.IsNone("dtype") {
				return softminBF16Backward(nc, outs, gos)
			}
			gs, err := softmaxBackward(nc, outs, gos, false)
			if err != nil || gs[0] == nil {
				return gs, err
			}
			for i, v := range gs[0].data {
				gs[0].data[i] = -v
			}
			return gs, nil
		},
	}
}

// softminBF16Backward is −_softmax_backward_data(grad, output) at
// bfloat16, as softmax's autograd forms it.
func softminBF16Backward(nc *call, outs, gos []*array) ([]*array, error) {
	gs, err := softmaxBF16Backward(nc, outs, gos)
	if err != nil || gs[0] == nil {
		return gs, err
	}
	for i, v := range gs[0].data {
		gs[0].data[i] = -v
	}
	return gs, nil
}

// softmaxBF16Backward is softmax's backward at bfloat16:
// _softmax_backward_data(grad, output) with nn2.go's bfloat16 lines.
func softmaxBF16Backward(c *call, outs, gos []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gos, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	x := c.in[0]
	dim, err := normDim(c.attrs.Int("dim", 0), x.rank())
	if err != nil {
		return nil, err
	}
	s := &nn2SoftmaxBwd{g: g, y: outs[0], dt: tensor.BFloat16, lastDim: dim == max(x.rank(), 1)-1}
	s.outer, s.size, s.inner = nnDimSplit(x.shape, dim)
	s.each(func(base, st int) { s.bf16Line(gx.data, g.data, base, st) })
	return []*array{gx}, nil
}

func init() {
	register("elu", eluKernel())
	register("leaky_relu", leakyReluKernel())
	register("hardtanh", hardtanhKernel())
	register("hardsigmoid", hardsigmoidKernel())
	register("hardswish", hardswishKernel())
	register("mish", mishKernel())
	register("softplus", softplusKernel())
	register("softshrink", softshrinkKernel())
	register("log_sigmoid", logSigmoidKernel())
	register("softsign", softsignKernel())
	register("tanhshrink", tanhshrinkKernel())
	register("glu", gluKernel())
	register("softmin", softminKernel())
	ints := intDTypes[:5]
	supportDTypes("hardtanh", append(append([]tensor.DType(nil), floatDTypes...), ints...)...)
	supportDTypes("softsign", append(append([]tensor.DType(nil), floatDTypes...), ints...)...)
	supportDTypes("tanhshrink", append(append([]tensor.DType(nil), floatDTypes...), ints...)...)
}
