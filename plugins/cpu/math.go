package cpu

import (
	"errors"
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Elementwise math: the unary functions of torch's math family. The
// smooth ones are unaryOps entries (elementwise.go's machinery); the
// rounding family (floor, ceil, trunc, round, sign, angle), whose gradient
// is zero whatever the incoming one, logit, nan_to_num, deg2rad and
// rad2deg have kernels of their own here. Special functions follow
// PyTorch's own algorithms (ATen/native/Math.h, from Cephes), so that the
// float64 results agree with PyTorch's to the last bits.

var mathUnaryOps = map[string]unaryOp{
	"log1p": {rule: floatDType, f: math.Log1p, df: func(x, y float64) float64 { return 1 / (x + 1) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return 1 / atDT(dt, x+1) }}, // grad / (self + 1)
	"expm1": {rule: floatDType, f: math.Expm1, df: func(x, y float64) float64 { return y + 1 },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return atDT(dt, y+1) }}, // grad * (result + 1)
	"log2": {rule: floatDType, f: math.Log2, df: func(x, y float64) float64 { return 1 / (x * math.Ln2) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return 1 / atDT(dt, x*scalarAt(dt, math.Ln2)) }}, // grad / (self * ln2)
	"log10": {rule: floatDType, f: math.Log10, df: func(x, y float64) float64 { return 1 / (x * math.Ln10) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return 1 / atDT(dt, x*scalarAt(dt, math.Ln10)) }}, // grad / (self * ln10)
	"exp2": {rule: floatDType, f: math.Exp2, df: func(x, y float64) float64 { return y * math.Ln2 }},
	"sinh": {rule: floatDType, f: math.Sinh, df: func(x, y float64) float64 { return math.Cosh(x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return atDT(dt, math.Cosh(x)) }}, // grad * self.cosh()
	"cosh": {rule: floatDType, f: math.Cosh, df: func(x, y float64) float64 { return math.Sinh(x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return atDT(dt, math.Sinh(x)) }}, // grad * self.sinh()
	"tan": {rule: floatDType, f: math.Tan, df: func(x, y float64) float64 { return 1 + y*y },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return atDT(dt, 1+atDT(dt, y*y)) }}, // grad * (1 + result.pow(2))
	"asin": {rule: floatDType, f: math.Asin, df: func(x, y float64) float64 { return 1 / math.Sqrt(1-x*x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return asinDerivAt(x, dt) }},
	"acos": {rule: floatDType, f: math.Acos, df: func(x, y float64) float64 { return -1 / math.Sqrt(1-x*x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return -asinDerivAt(x, dt) }}, // grad * -((-self * self + 1).rsqrt())
	"atan": {rule: floatDType, f: math.Atan, df: func(x, y float64) float64 { return 1 / (x*x + 1) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return 1 / atDT(dt, atDT(dt, x*x)+1) }}, // grad / (self * self + 1)
	"asinh": {rule: floatDType, f: math.Asinh, df: func(x, y float64) float64 { return 1 / math.Sqrt(x*x+1) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return rsqrtAt(dt, atDT(dt, atDT(dt, x*x)+1)) }}, // grad * (self.pow(2) + 1).rsqrt()
	"acosh": {rule: floatDType, f: math.Acosh, df: func(x, y float64) float64 { return 1 / math.Sqrt(x*x-1) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return rsqrtAt(dt, atDT(dt, atDT(dt, x*x)-1)) }}, // grad * (self.pow(2) - 1).rsqrt()
	"atanh": {rule: floatDType, f: math.Atanh, df: func(x, y float64) float64 { return 1 / (1 - x*x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return 1 / atDT(dt, 1-atDT(dt, x*x)) }}, // grad * 1 / (1 - self.pow(2))
	"erf": {rule: floatDType, f: math.Erf,
		df:   func(x, y float64) float64 { return 2 / math.SqrtPi * math.Exp(-x*x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return erfDerivAt(x, 2/math.SqrtPi, dt) }},
	"erfc": {rule: floatDType, f: math.Erfc,
		df:   func(x, y float64) float64 { return -2 / math.SqrtPi * math.Exp(-x*x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return erfDerivAt(x, -2/math.SqrtPi, dt) }},
	"erfinv": {rule: floatDType, f: erfinv,
		df: func(x, y float64) float64 { return 0.5 * math.Sqrt(math.Pi) * math.Exp(y*y) },
		// 0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad
		dfAt: func(x, y float64, dt tensor.DType) float64 {
			return atDT(dt, scalarAt(dt, 0.5*math.Sqrt(math.Pi))*atDT(dt, math.Exp(atDT(dt, y*y))))
		}},
	"sinc": {rule: floatDType, f: sinc, df: func(x, y float64) float64 { return sincGrad(x) },
		fAt: sincAt, dfAt: sincGradAt},
	"lgamma": {rule: floatDType, f: lgamma, df: func(x, y float64) float64 { return digamma(x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return atDT(dt, digamma(x)) }}, // grad * digamma(self)
	"digamma": {rule: floatDType, f: digamma, df: func(x, y float64) float64 { return trigamma(x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return polygamma1At(x, dt) }}, // grad * polygamma(1, self)
	"i0": {rule: floatDType, f: besselI0, df: func(x, y float64) float64 { return besselI1(x) }},
	"frac": {rule: floatOnly, intErr: "frac_cpu",
		f: func(x float64) float64 { return x - math.Trunc(x) }, df: func(x, y float64) float64 { return 1 }},
}

// ---- special functions (ATen/native/Math.h) ----

// lgamma is log|gamma(x)|, +inf at -inf as std::lgamma (Go's gives -inf).
func lgamma(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.Inf(1)
	}
	v, _ := math.Lgamma(x)
	return v
}

// sinc is PyTorch's: 1 at 0, sin(pi*x)/(pi*x) elsewhere.
func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	p := math.Pi * x
	return math.Sin(p) / p
}

// sincGrad is sinc_backward's factor: (pi·x·cos(pi·x) − sin(pi·x)) / (pi·x²),
// 0 where pi·x² is 0.
func sincGrad(x float64) float64 {
	p := x * math.Pi
	sq := x * x * math.Pi
	if sq == 0 {
		return 0
	}
	return (p*math.Cos(p) - math.Sin(p)) / sq
}

// sincAt is sinc's CPU kernel at a narrow scalar type (r rounds to it):
// product = pi * a, sin(product) / product, each value a scalar_t (pi
// itself c10::pi<scalar_t>).
func sincAt(x float64, r func(float64) float64) float64 {
	if x == 0 {
		return 1
	}
	p := r(r(math.Pi) * x)
	return r(math.Sin(p)) / p
}

// sincGradAt is sinc's derivative as PyTorch 1.13's autograd evaluates it
// at dtype dt, each tensor op rounded: ((self * pi) * cos(self * pi) -
// sin(self * pi)) / (self * self * pi), 0 where the denominator is 0.
//
// float32 keeps the float64 derivative: there the formula's tensor sin and
// cos are Sleef's vectorized float kernels (within 1 ULP, not correctly
// rounded), and near 0 the numerator cancels (x·π·cos(x·π) − sin(x·π) ≈
// −(x·π)³/3), so their last bit moves the gradient by hundreds of ULPs
// (at x = −0.0161: torch −0.05755126, correctly rounded sin and cos give
// −0.05754630, the float64 derivative −0.05755142). Without Sleef's bits
// the rounded steps are no nearer torch, only further from the truth; at
// bfloat16 a float32 ULP seldom crosses a bfloat16 rounding boundary.
func sincGradAt(x, y float64, dt tensor.DType) float64 {
	if dt == tensor.Float64 || dt == tensor.Float32 || !dt.IsFloat() {
		return sincGrad(x)
	}
	pi := scalarAt(dt, math.Pi)
	p := atDT(dt, x*pi)
	sq := atDT(dt, atDT(dt, x*x)*pi)
	if sq == 0 {
		return 0
	}
	num := atDT(dt, atDT(dt, p*atDT(dt, math.Cos(p)))-atDT(dt, math.Sin(p)))
	return atDT(dt, num/sq)
}

// erfinv is calc_erfinv: a rational first guess refined by two Newton
// steps.
func erfinv(y float64) float64 {
	a := [4]float64{0.886226899, -1.645349621, 0.914624893, -0.140543331}
	b := [4]float64{-2.118377725, 1.442710462, -0.329097515, 0.012229801}
	c := [4]float64{-1.970840454, -1.624906493, 3.429567803, 1.641345311}
	d := [2]float64{3.543889200, 1.637067800}
	ya := math.Abs(y)
	if ya > 1 {
		return math.NaN()
	}
	if ya == 1 {
		return math.Copysign(math.Inf(1), y)
	}
	if y != y {
		return y
	}
	var x float64
	if ya <= 0.7 {
		z := y * y
		num := ((a[3]*z+a[2])*z+a[1])*z + a[0]
		dem := (((b[3]*z+b[2])*z+b[1])*z+b[0])*z + 1
		x = y * num / dem
	} else {
		z := math.Sqrt(-math.Log((1 - ya) / 2))
		num := ((c[3]*z+c[2])*z+c[1])*z + c[0]
		dem := (d[1]*z+d[0])*z + 1
		x = math.Copysign(num, y) / dem
	}
	k := 2 / math.Sqrt(math.Pi)
	x -= (math.Erf(x) - y) / (k * math.Exp(-x*x))
	x -= (math.Erf(x) - y) / (k * math.Exp(-x*x))
	return x
}

// digamma is calc_digamma (double).
func digamma(x float64) float64 {
	const psi10 = 2.25175258906672110764
	if x == 0 {
		return math.Copysign(math.Inf(1), -x)
	}
	if x < 0 {
		if x == math.Trunc(x) {
			return math.NaN()
		}
		_, r := math.Modf(x)
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*r)
	}
	result := 0.0
	for x < 10 {
		result -= 1 / x
		x++
	}
	if x == 10 {
		return result + psi10
	}
	y := 0.0
	if x < 1e17 {
		z := 1 / (x * x)
		y = z * polevl(z, digammaA[:])
	}
	return result + math.Log(x) - 0.5/x - y
}

var digammaA = [...]float64{
	8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
	-4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
	8.33333333333333333333e-2,
}

// polevl evaluates the polynomial with coefficients c, highest order first.
func polevl(x float64, c []float64) float64 {
	r := 0.0
	for _, v := range c {
		r = r*x + v
	}
	return r
}

// trigamma is ATen's trigamma (double): polygamma(1, x).
func trigamma(x float64) float64 {
	sign, result := 1.0, 0.0
	if x < 0.5 {
		sign = -1
		s := math.Sin(math.Pi * x)
		result -= (math.Pi * math.Pi) / (s * s)
		x = 1 - x
	}
	for i := 0; i < 6; i++ {
		result += 1 / (x * x)
		x++
	}
	ixx := 1 / (x * x)
	result += (1 + 1/(2*x) + ixx*(1./6-ixx*(1./30-ixx*(1./42)))) / x
	return sign * result
}

// polygamma1At is polygamma(1, x) as a tensor of dtype dt: the float
// kernel (trigammaF32) at the narrow dtypes, rounded.
func polygamma1At(x float64, dt tensor.DType) float64 {
	if !narrowFloat(dt) {
		return trigamma(x)
	}
	return atDT(dt, trigammaF32(x))
}

// trigammaF32 is calc_trigamma's float overload, which PyTorch's float32,
// bfloat16 (and float16) kernels call: float arithmetic, sinf, and a tail
// whose double constants make it a double expression. At the poles
// (non-positive integers) sinf(pi·x) is not 0, so the result is finite
// (1.29e15 at x = -1) where the double formula gives about 1e32.
func trigammaF32(xd float64) float64 {
	x := float32(xd)
	sign, result := float32(1), float32(0)
	if x < 0.5 {
		sign = -1
		pi := float32(math.Pi)
		s := float32(math.Sin(float64(float32(pi * x))))
		result -= float32(pi*pi) / float32(s*s)
		x = 1 - x
	}
	for i := 0; i < 6; i++ {
		result += 1 / float32(x*x)
		x++
	}
	ixx := float64(1 / float32(x*x))
	head := float64(1 + 1/float32(2*x))
	tail := (head + ixx*(1./6-ixx*(1./30-ixx*(1./42)))) / float64(x)
	result = float32(float64(result) + tail)
	return float64(sign * result)
}

// chbevl evaluates a Chebyshev series (Cephes).
func chbevl(x float64, c []float64) float64 {
	b0, b1, b2 := c[0], 0.0, 0.0
	for _, v := range c[1:] {
		b2 = b1
		b1 = b0
		b0 = x*b1 - b2 + v
	}
	return 0.5 * (b0 - b2)
}

// besselI0 is calc_i0.
func besselI0(v float64) float64 {
	x := math.Abs(v)
	if x <= 8 {
		return math.Exp(x) * chbevl(x/2-2, i0eA[:])
	}
	return math.Exp(x) * chbevl(32/x-2, i0eB[:]) / math.Sqrt(x)
}

// besselI1 is calc_i1 (i0's derivative).
func besselI1(v float64) float64 {
	x := math.Abs(v)
	var out float64
	if x <= 8 {
		out = math.Exp(x) * x * chbevl(x/2-2, i1eA[:])
	} else {
		out = math.Exp(x) * chbevl(32/x-2, i1eB[:]) / math.Sqrt(x)
	}
	if v < 0 {
		return -out
	}
	return out
}

var i0eA = [...]float64{
	-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16, 1.71539128555513303061e-15,
	-1.16853328779934516808e-14, 7.67618549860493561688e-14, -4.85644678311192946090e-13, 2.95505266312963983461e-12,
	-1.72682629144155570723e-11, 9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
	-1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7, 1.11738753912010371815e-6,
	-4.41673835845875056359e-6, 1.64484480707288970893e-5, -5.75419501008210370398e-5, 1.88502885095841655729e-4,
	-5.76375574538582365885e-4, 1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
	-2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2, 1.71620901522208775349e-1,
	-3.04682672343198398683e-1, 6.76795274409476084995e-1,
}

var i0eB = [...]float64{
	-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17, 3.46122286769746109310e-17,
	-2.82762398051658348494e-16, -3.42548561967721913462e-16, 1.77256013305652638360e-15, 3.81168066935262242075e-15,
	-9.55484669882830764870e-15, -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
	7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11, -3.14991652796324136454e-11,
	1.18891471078464383424e-11, 4.94060238822496958910e-10, 3.39623202570838634515e-9, 2.26666899049817806459e-8,
	2.04891858946906374183e-7, 2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
	8.04490411014108831608e-1,
}

var i1eA = [...]float64{
	2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16, -1.10559694773538630805e-15,
	7.60068429473540693410e-15, -5.04218550472791168711e-14, 3.22379336594557470981e-13, -1.98397439776494371520e-12,
	1.17361862988909016308e-11, -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
	9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7, -8.56872026469545474066e-7,
	3.47025130813767847674e-6, -1.32731636560394358279e-5, 4.78156510755005422638e-5, -1.61760815825896745588e-4,
	5.12285956168575772895e-4, -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
	2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1, -1.76416518357834055153e-1,
	2.52587186443633654823e-1,
}

var i1eB = [...]float64{
	7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17, -3.20952592199342395980e-17,
	2.96262899764595013876e-16, 3.30820231092092828324e-16, -1.88035477551078244854e-15, -3.81440307243700780478e-15,
	1.04202769841288027642e-14, 4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
	-7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11, 3.25260358301548823856e-11,
	-1.89749581235054123450e-11, -5.58974346219658380687e-10, -3.83538038596423702205e-9, -2.63146884688951950684e-8,
	-2.51223623787020892529e-7, -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
	7.78576235018280120474e-1,
}

// ---- shared loops ----

// mapInto sets dst[i] = f(src[i]) over the cores.
func mapInto(dst, src []float64, f func(float64) float64) {
	forChunks(len(dst), func(from, to int) error {
		d, s := dst[from:to], src[from:to]
		for i, v := range s {
			d[i] = f(v)
		}
		return nil
	})
}

// unaryResult checks the input dtype against rule and returns the result
// dtype and the input's values at it.
func unaryResult(x *array, rule unaryDTypeRule, boolErr, intErr string) (tensor.DType, []float64, error) {
	dt := x.dtype
	switch {
	case dt == tensor.Bool && boolErr != "":
		return 0, nil, errors.New(boolErr)
	case !dt.IsFloat() && rule == floatOnly:
		return 0, nil, notImplemented(intErr, dt)
	case !dt.IsFloat() && rule == floatDType:
		dt = ops.DefaultFloat
	}
	return dt, castValues(x, dt), nil
}

// zeroGradBackward is the backward of the ops whose gradient PyTorch
// defines as zeros_like(grad) (floor, ceil, trunc, round, sign, angle of a
// real tensor): zero whatever the incoming gradient holds.
func zeroGradBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	return []*array{gradForOwned(c, 0, zeros(len(x.data)), x.shape)}, nil
}

// ---- the rounding family, sign and angle ----

// roundingOp is an op of the rounding family: f of the value, with the
// dtype rule and errors of PyTorch's kernel.
type roundingOp struct {
	rule    unaryDTypeRule
	boolErr string
	f       func(x float64) float64
}

var roundingOps = map[string]roundingOp{
	"floor": {rule: keepDType, boolErr: `"floor_vml_cpu" not implemented for 'Bool'`, f: math.Floor},
	"ceil":  {rule: keepDType, boolErr: `"ceil_vml_cpu" not implemented for 'Bool'`, f: math.Ceil},
	"trunc": {rule: keepDType, boolErr: `"trunc_vml_cpu" not implemented for 'Bool'`, f: math.Trunc},
	"sign":  {rule: keepDType, f: sgn},
	"angle": {rule: floatDType, f: func(x float64) float64 {
		switch {
		case x != x:
			return x
		case x < 0:
			return math.Pi
		}
		return 0
	}},
}

func roundingKernel(u roundingOp) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, xv, err := unaryResult(c.in[0], u.rule, u.boolErr, "")
			if err != nil {
				return nil, err
			}
			out := newArray(dt, c.in[0].shape)
			mapInto(out.data, xv, u.f)
			return []*array{out}, nil
		},
		backward: zeroGradBackward,
	}
}

// roundKernel is round with decimals (round_decimals_kernel): the value is
// scaled by 10^|decimals|, rounded half to even and scaled back, each step
// at the input's dtype (float16, which PyTorch's CPU lacks, via float32).
func roundKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dec := c.attrs.Int("decimals", 0)
			if x.dtype == tensor.Bool {
				name := "round_vml_cpu"
				if dec != 0 {
					name = "round_cpu"
				}
				return nil, notImplemented(name, x.dtype)
			}
			out := newArray(x.dtype, x.shape)
			if dec == 0 {
				mapInto(out.data, x.data, math.RoundToEven)
				return []*array{out}, nil
			}
			if !x.dtype.IsFloat() {
				return nil, notImplemented("round_cpu", x.dtype)
			}
			at := x.dtype
			if at == tensor.Float16 {
				at = tensor.Float32
			}
			neg := dec < 0
			if neg {
				dec = -dec
			}
			p := roundTo(at, math.Pow(10, float64(dec)))
			r := func(v float64) float64 { return roundTo(at, v) }
			if at == tensor.Float64 {
				r = func(v float64) float64 { return v }
			}
			if neg {
				mapInto(out.data, x.data, func(v float64) float64 { return r(math.RoundToEven(r(v/p)) * p) })
			} else {
				mapInto(out.data, x.data, func(v float64) float64 { return r(math.RoundToEven(r(v*p)) / p) })
			}
			return []*array{out}, nil
		},
		backward: zeroGradBackward,
	}
}

// ---- deg2rad, rad2deg ----

// scaleKernel multiplies by a constant the way at::mul with a wrapped
// number does, forward (deg2rad, rad2deg) and backward (grad * constant):
// the constant cast to the tensor's dtype (scalarAt: float16 and bfloat16
// take it at their own precision), the product formed in float32 and
// rounded.
func scaleKernel(k float64) *kernel {
	factor := func(dt tensor.DType) float64 { return scalarAt(dt, k) }
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, xv, err := unaryResult(c.in[0], floatDType, "", "")
			if err != nil {
				return nil, err
			}
			f := factor(dt)
			out := newArray(dt, c.in[0].shape)
			mapInto(out.data, xv, func(v float64) float64 { return v * f })
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			g := gradData(gos[0], len(x.data))
			f := factor(x.dtype)
			res := float64sFor(len(g))
			mapInto(res, g, func(v float64) float64 { return v * f })
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// ---- logit ----

// logitBounds returns eps and 1-eps at the input's dtype, as PyTorch's
// kernel forms them; ok is false without eps.
func logitBounds(c *call, dt tensor.DType) (lo, hi float64, ok bool) {
	if c.attrs.IsNone("eps") {
		return 0, 0, false
	}
	lo = roundTo(dt, c.attrs.Float("eps", 0))
	return lo, roundTo(dt, 1-lo), true
}

func logitKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, xv, err := unaryResult(c.in[0], floatDType, "", "")
			if err != nil {
				return nil, err
			}
			out := newArray(dt, c.in[0].shape)
			logit := func(v float64) float64 { return math.Log(v / (1 - v)) }
			if narrowFloat(dt) {
				// log(x / (1 - x)), each op of the kernel at scalar_t
				r := kernelRounder(dt)
				logit = func(v float64) float64 { return r(math.Log(r(v / r(1-v)))) }
			}
			if lo, hi, ok := logitBounds(c, dt); ok {
				mapInto(out.data, xv, func(v float64) float64 {
					switch {
					case v < lo:
						v = lo
					case v > hi:
						v = hi
					}
					return logit(v)
				})
			} else {
				mapInto(out.data, xv, logit)
			}
			return []*array{out}, nil
		},
		// The gradient outside [eps, 1-eps] is 0, outside [0, 1] without
		// eps NaN (PyTorch's logit backward, NaN inputs included).
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			g := gradData(gos[0], len(x.data))
			lo, hi, ok := logitBounds(c, x.dtype)
			outside := math.NaN()
			if !ok {
				lo, hi = 0, 1
			} else {
				outside = 0
			}
			// dy / (x * (1 - x)), each op at scalar_t for the narrow dtypes
			r := kernelRounder(x.dtype)
			res := float64sFor(len(g))
			forChunks(len(res), func(from, to int) error {
				for i := from; i < to; i++ {
					v := x.data[i]
					if v >= lo && v <= hi {
						res[i] = g[i] / r(v*r(1-v))
					} else {
						res[i] = outside
					}
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// ---- nan_to_num ----

// floatMax is the largest finite value of a floating dtype.
func floatMax(d tensor.DType) float64 {
	switch d {
	case tensor.Float32:
		return math.MaxFloat32
	case tensor.Float16:
		return 65504
	case tensor.BFloat16:
		return 0x1.fep127
	}
	return math.MaxFloat64
}

func nanToNumKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			out := newArray(x.dtype, x.shape)
			if !x.dtype.IsFloat() {
				copy(out.data, x.data)
				return []*array{out}, nil
			}
			nan := c.attrs.Float("nan", 0)
			pos, neg := floatMax(x.dtype), -floatMax(x.dtype)
			if !c.attrs.IsNone("posinf") {
				pos = c.attrs.Float("posinf", 0)
			}
			if !c.attrs.IsNone("neginf") {
				neg = c.attrs.Float("neginf", 0)
			}
			mapInto(out.data, x.data, func(v float64) float64 {
				switch {
				case v != v:
					return nan
				case v > math.MaxFloat64:
					return pos
				case v < -math.MaxFloat64:
					return neg
				}
				return v
			})
			return []*array{out}, nil
		},
		// grad * isfinite(self): a product, so a NaN gradient stays NaN.
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			g := gradData(gos[0], len(x.data))
			res := float64sFor(len(g))
			forChunks(len(res), func(from, to int) error {
				for i := from; i < to; i++ {
					f := 0.0
					if v := x.data[i]; v-v == 0 {
						f = 1
					}
					res[i] = g[i] * f
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func init() {
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	ints := append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)
	for name, u := range mathUnaryOps {
		if _, dup := unaryOps[name]; dup {
			panic(fmt.Sprintf("cpu: unary op %s in two tables", name))
		}
		register(name, unaryKernel(u))
		if u.rule != floatOnly {
			supportDTypes(name, all...)
		}
	}
	for name, u := range roundingOps {
		register(name, roundingKernel(u))
		if u.boolErr != "" {
			supportDTypes(name, ints...)
		} else {
			supportDTypes(name, all...)
		}
	}
	register("round", roundKernel())
	supportDTypes("round", ints...)
	register("deg2rad", scaleKernel(0.017453292519943295769236907684886127134428718885417))
	register("rad2deg", scaleKernel(57.295779513082320876798154814105170332405472466564))
	register("logit", logitKernel())
	register("nan_to_num", nanToNumKernel())
	for _, n := range []string{"deg2rad", "rad2deg", "logit", "nan_to_num"} {
		supportDTypes(n, all...)
	}
}

// ---- polygamma, mvlgamma ----

// zeta is ATen's Hurwitz zeta function (Cephes).
func zeta(x, q float64) float64 {
	const machep = 1.11022302462515654042e-16
	A := [...]float64{12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
		-2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
		-7.1661652561756670113e18}
	if x == 1 {
		return math.Inf(1)
	}
	if x < 1 {
		return math.NaN()
	}
	if q <= 0 {
		if q == math.Floor(q) {
			return math.Inf(1)
		}
		if x != math.Floor(x) {
			return math.NaN()
		}
	}
	s := math.Pow(q, -x)
	a := q
	i := 0
	b := 0.0
	for i < 9 || a <= 9 {
		i++
		a++
		b = math.Pow(a, -x)
		s += b
		if -machep*s < b && b < machep*s {
			return s
		}
	}
	w := a
	s += b * w / (x - 1)
	s -= 0.5 * b
	a = 1
	k := 0.0
	for j := 0; j < 12; j++ {
		a *= x + k
		b /= w
		t := a * b / A[j]
		s += t
		if math.Abs(t/s) < machep {
			return s
		}
		k++
		a *= x + k
		b /= w
		k++
	}
	return s
}

// polygammaN is torch.polygamma(n, x): digamma, trigamma, and for n ≥ 2
// (-1)^(n+1)·n!·zeta(n+1, x).
func polygammaN(n int64, x float64) float64 {
	switch n {
	case 0:
		return digamma(x)
	case 1:
		return trigamma(x)
	}
	sign := -1.0
	if n%2 != 0 {
		sign = 1
	}
	return sign * math.Exp(lgamma(float64(n)+1)) * zeta(float64(n+1), x)
}

func polygammaKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			n := c.attrs.Int("n", 0)
			if n < 0 {
				return nil, errors.New("polygamma(n, x) does not support negative n.")
			}
			dt, xv, err := unaryResult(c.in[0], floatDType, "", "")
			if err != nil {
				return nil, err
			}
			out := newArray(dt, c.in[0].shape)
			mapInto(out.data, xv, func(v float64) float64 { return polygammaN(n, v) })
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			n := c.attrs.Int("n", 0)
			x := c.in[0]
			g := gradData(gos[0], len(x.data))
			// grad * polygamma(n + 1, self): the polygamma a tensor of
			// the input's dtype
			r := opRounder(x.dtype)
			res := float64sFor(len(g))
			forChunks(len(res), func(from, to int) error {
				for i := from; i < to; i++ {
					if n == 0 {
						res[i] = g[i] * polygamma1At(x.data[i], x.dtype)
					} else {
						res[i] = g[i] * r(polygammaN(n+1, x.data[i]))
					}
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// mvlgammaKernel: the sum over i < p of lgamma(x − (p−1)/2 + i/2), in that
// order, plus p(p−1)/4·log(pi), as ATen's composite does. At the narrow
// dtypes each of the composite's tensors is rounded (x + arange, its
// lgamma or, backward, digamma, the sum over i, the added constant cast to
// the dtype); float16, which lacks lgamma and digamma kernels in 1.13,
// computes in float32.
func mvlgammaKernel() *kernel {
	exact := func(v float64) float64 { return v }
	sum := func(p int64, x float64, f, r func(float64) float64) float64 {
		s := 0.0
		for i := int64(0); i < p; i++ {
			s += r(f(r(x + (-float64(p)/2 + 0.5 + 0.5*float64(i)))))
		}
		return r(s)
	}
	rounder := func(dt tensor.DType) func(float64) float64 {
		if narrowFloat(dt) {
			return kernelRounder(dt)
		}
		return exact
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			p := c.attrs.Int("p", 1)
			if p < 1 {
				return nil, errors.New("p has to be greater than or equal to 1")
			}
			dt, xv, err := unaryResult(c.in[0], floatDType, "", "")
			if err != nil {
				return nil, err
			}
			k := float64(p) * float64(p-1) * math.Log(math.Pi) / 4
			r := rounder(dt)
			if narrowFloat(dt) {
				k = r(k)
			}
			out := newArray(dt, c.in[0].shape)
			mapInto(out.data, xv, func(v float64) float64 { return sum(p, v, lgamma, r) + k })
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p := c.attrs.Int("p", 1)
			x := c.in[0]
			g := gradData(gos[0], len(x.data))
			r := rounder(x.dtype)
			res := float64sFor(len(g))
			forChunks(len(res), func(from, to int) error {
				for i := from; i < to; i++ {
					res[i] = g[i] * sum(p, x.data[i], digamma, r)
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

// ---- binary ----

// binaryMathOp describes a binary math function: the result dtype rule
// (keepDType: the promoted dtype; floatDType: integers and bool give the
// default float dtype; floatOnly: floating dtypes only), f on floating
// values, fi on integers (nil: f), and grad the two input gradients for
// the incoming gradient g (nil: no backward).
type binaryMathOp struct {
	rule    unaryDTypeRule
	name    string // kernel name of PyTorch's "not implemented" errors
	noBool  bool   // a bool result is refused
	intOnly bool   // integer dtypes only (gcd, lcm)
	f       func(a, b float64) float64
	fi      func(a, b int64) (int64, error)
	grad    func(a, b, y, g float64) (ga, gb float64)
	// fAt and gradAt, when set, are f and grad at a float32, float16 or
	// bfloat16 result: r rounds each intermediate tensor of an autograd
	// formula (opRounder), k each value a kernel stores at its scalar type
	// (kernelRounder), as PyTorch does at that dtype.
	fAt    func(a, b float64, k func(float64) float64) float64
	gradAt func(a, b, y, g float64, r, k func(float64) float64) (ga, gb float64)
}

func (u binaryMathOp) resultType(a, b *array) (tensor.DType, error) {
	if a.scalar && b.scalar {
		return 0, errors.New("at least one operand must be a tensor")
	}
	dt := resultType(a, b)
	switch {
	case u.intOnly && (dt.IsFloat() || dt == tensor.Bool),
		u.noBool && dt == tensor.Bool,
		u.rule == floatOnly && !dt.IsFloat():
		return 0, notImplemented(u.name, dt)
	case u.rule == floatDType && !dt.IsFloat():
		dt = ops.DefaultFloat
	}
	return dt, nil
}

func binaryMathKernel(u binaryMathOp) *kernel {
	k := &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, err := u.resultType(c.in[0], c.in[1])
			if err != nil {
				return nil, err
			}
			f := func(x, y float64) (float64, error) { return u.f(x, y), nil }
			if u.fAt != nil && narrowFloat(dt) {
				r := kernelRounder(dt)
				f = func(x, y float64) (float64, error) { return u.fAt(x, y, r), nil }
			}
			if u.fi != nil && !dt.IsFloat() {
				f = func(x, y float64) (float64, error) {
					r, err := u.fi(int64(x), int64(y))
					return float64(r), err
				}
			}
			out, err := binaryMap(c, dt, dt, f)
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
	}
	if u.grad != nil {
		k.backward = func(c *call, outs, gos []*array) ([]*array, error) {
			if dt := outs[0].dtype; u.gradAt != nil && narrowFloat(dt) {
				return binaryGradsAt(c, outs[0], gos[0], dt, u.gradAt)
			}
			return binaryGrads(c, outs[0], gos[0], u.grad)
		}
	}
	return k
}

// binaryGrads evaluates grad at every output position and reduces the two
// gradients to the inputs' shapes.
func binaryGrads(c *call, out, gout *array, grad func(a, b, y, g float64) (float64, float64)) ([]*array, error) {
	o, err := broadcastOperands(tensor.Float64, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	g := gradData(gout, len(out.data))
	ga, gb := float64sFor(len(g)), float64sFor(len(g))
	forChunks(len(g), func(from, to int) error {
		for k := from; k < to; k++ {
			ga[k], gb[k] = grad(o.get(0, k), o.get(1, k), out.data[k], g[k])
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, ga, out.shape), gradForOwned(c, 1, gb, out.shape)}, nil
}

// binaryGradsAt is binaryGrads at a float32, float16 or bfloat16 result
// dt: the operands (numbers included) at dt, as TensorIterator casts
// them, and grad given dt's rounding.
func binaryGradsAt(c *call, out, gout *array, dt tensor.DType, grad func(a, b, y, g float64, r, k func(float64) float64) (float64, float64)) ([]*array, error) {
	o, err := broadcastOperands(dt, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	r, kr := opRounder(dt), kernelRounder(dt)
	g := gradData(gout, len(out.data))
	ga, gb := float64sFor(len(g)), float64sFor(len(g))
	forChunks(len(g), func(from, to int) error {
		for k := from; k < to; k++ {
			ga[k], gb[k] = grad(o.get(0, k), o.get(1, k), out.data[k], g[k], r, kr)
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, ga, out.shape), gradForOwned(c, 1, gb, out.shape)}, nil
}

// truncMod is C's % on integers; division by zero is PyTorch's error.
func truncMod(a, b int64) (int64, error) {
	if b == 0 {
		return 0, errZeroDivision
	}
	return a % b, nil
}

// pyMod is Python's %: the remainder takes the divisor's sign.
func pyMod(a, b float64) float64 {
	m := math.Mod(a, b)
	if m != 0 && (b < 0) != (m < 0) {
		m += b
	}
	return m
}

func gcdInt(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for a != 0 {
		a, b = b%a, a
	}
	return b
}

// fmaxMin is C's fmax (max) or fmin: NaN only when both are NaN.
func fmaxMin(a, b float64, max bool) float64 {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case max == (a < b):
		return b
	}
	return a
}

// xlogyAt is xlogy's CPU kernel at a narrow dtype, before the result's
// rounding: the logarithm rounded by k (std::log of the scalar type).
func xlogyAt(x, y float64, k func(float64) float64) float64 {
	if y != y || x == 0 {
		return xlogy(x, y)
	}
	return x * k(math.Log(y))
}

// xlogy is PyTorch's x·log(y): NaN where y is NaN, else 0 where x is 0.
func xlogy(x, y float64) float64 {
	switch {
	case y != y:
		return y
	case x == 0:
		return 0
	}
	return x * math.Log(y)
}

func logaddexp(a, b float64) float64 {
	if math.IsInf(a, 0) && a == b {
		return a
	}
	m := a
	if a < b {
		m = b
	}
	return m + math.Log1p(math.Exp(-math.Abs(a-b)))
}

func logaddexp2(a, b float64) float64 {
	if math.IsInf(a, 0) && a == b {
		return a
	}
	m := a
	if a < b {
		m = b
	}
	return m + math.Log1p(math.Exp2(-math.Abs(a-b)))/math.Ln2
}

var binaryMathOps = map[string]binaryMathOp{
	"atan2": {rule: floatDType, f: math.Atan2, grad: func(a, b, y, g float64) (float64, float64) {
		r := 1 / (a*a + b*b)
		return g * b * r, g * -a * r
	},
		// recip = (self * self + other * other).reciprocal();
		// grad * other * recip, grad * -self * recip
		gradAt: func(a, b, y, g float64, r, k func(float64) float64) (float64, float64) {
			rec := r(1 / r(r(a*a)+r(b*b)))
			return r(r(g*b) * rec), r(r(g*-a) * rec)
		}},
	"fmod": {rule: keepDType, name: "fmod_cpu", noBool: true, f: math.Mod, fi: truncMod,
		grad: func(a, b, y, g float64) (float64, float64) { return g, -g * math.Trunc(a/b) }},
	"remainder": {rule: keepDType, name: "remainder_cpu", noBool: true, f: pyMod,
		fi: func(a, b int64) (int64, error) {
			r, err := truncMod(a, b)
			if r != 0 && (r < 0) != (b < 0) {
				r += b
			}
			return r, err
		},
		grad: func(a, b, y, g float64) (float64, float64) { return g, -g * floorDivFloat(a, b) }},
	"copysign": {rule: floatDType, f: math.Copysign, grad: func(a, b, y, g float64) (float64, float64) {
		if a == 0 {
			return 0, 0
		}
		return g * (y / a), 0
	}},
	"hypot": {rule: floatOnly, name: "hypot_cpu", f: math.Hypot,
		grad: func(a, b, y, g float64) (float64, float64) { return g * a / y, g * b / y }},
	// d/dx: xlogy(g, y), 0 where x = 0 and y ≤ 0; d/dy: g·x/y.
	"xlogy": {rule: floatDType, f: xlogy, grad: func(a, b, y, g float64) (float64, float64) {
		ga := xlogy(g, b)
		if a == 0 && b <= 0 {
			ga = 0
		}
		return ga, g * a / b
	},
		// the kernel's x * std::log(y) at scalar_t: the logarithm is
		// stored at the narrow dtype before the product
		fAt: xlogyAt,
		// xlogy(grad, other).masked_fill(...), grad * self / other
		gradAt: func(a, b, y, g float64, r, k func(float64) float64) (float64, float64) {
			ga := 0.0
			if !(a == 0 && b <= 0) {
				ga = r(xlogyAt(g, b, k))
			}
			return ga, r(r(g*a) / b)
		}},
	"logaddexp": {rule: floatOnly, name: "logaddexp_cpu", f: logaddexp, grad: func(a, b, y, g float64) (float64, float64) {
		return g / (1 + math.Exp(b-a)), g / (1 + math.Exp(a-b))
	},
		// grad / (1 + exp(other - self)), grad / (1 + exp(self - other))
		gradAt: func(a, b, y, g float64, r, k func(float64) float64) (float64, float64) {
			return r(g / r(1+r(math.Exp(r(b-a))))), r(g / r(1+r(math.Exp(r(a-b)))))
		}},
	"logaddexp2": {rule: floatOnly, name: "logaddexp2_cpu", f: logaddexp2, grad: func(a, b, y, g float64) (float64, float64) {
		return g / (1 + math.Pow(2, b-a)), g / (1 + math.Pow(2, a-b))
	},
		// grad / (1 + pow(2, other - self)), grad / (1 + pow(2, self - other))
		gradAt: func(a, b, y, g float64, r, k func(float64) float64) (float64, float64) {
			return r(g / r(1+r(math.Pow(2, r(b-a))))), r(g / r(1+r(math.Pow(2, r(a-b)))))
		}},
	// The gradient goes to self where self ≥ other (fmin: ≤) or other is
	// NaN, to other elsewhere.
	"fmax": {rule: keepDType, f: func(a, b float64) float64 { return fmaxMin(a, b, true) },
		grad: func(a, b, y, g float64) (float64, float64) {
			if a >= b || b != b {
				return g, 0
			}
			return 0, g
		}},
	"fmin": {rule: keepDType, f: func(a, b float64) float64 { return fmaxMin(a, b, false) },
		grad: func(a, b, y, g float64) (float64, float64) {
			if a <= b || b != b {
				return g, 0
			}
			return 0, g
		}},
	"gcd": {intOnly: true, name: "gcd_cpu", f: func(a, b float64) float64 { return float64(gcdInt(int64(a), int64(b))) },
		fi: func(a, b int64) (int64, error) { return gcdInt(a, b), nil }},
	"lcm": {intOnly: true, name: "lcm_cpu", f: func(a, b float64) float64 { return 0 },
		fi: func(a, b int64) (int64, error) {
			g := gcdInt(a, b)
			if g == 0 {
				return 0, nil
			}
			r := a / g * b
			if r < 0 {
				r = -r
			}
			return r, nil
		}},
}

// ---- float_power, ldexp, nextafter, heaviside ----

// powGrads are pow's gradients: none for self where the exponent is 0,
// none for the exponent where self is 0 and the exponent ≥ 0.
func powGrads(a, b, y, g float64) (ga, gb float64) {
	if b != 0 {
		ga = g * (b * math.Pow(a, b-1))
	}
	if !(a == 0 && b >= 0) {
		gb = g * (y * math.Log(a))
	}
	return ga, gb
}

// floatPowerKernel is pow on both operands converted to float64; the
// in-place form needs a float64 self.
func floatPowerKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			if a.scalar && b.scalar {
				return nil, errors.New("at least one operand must be a tensor")
			}
			if c.attrs.Bool("inplace", false) && a.dtype != tensor.Float64 {
				return nil, fmt.Errorf("the base given to float_power_ has dtype %s but the operation's result requires dtype Double", ops.TypeName(a.dtype))
			}
			out, err := binaryMap(c, tensor.Float64, tensor.Float64, func(x, y float64) (float64, error) { return math.Pow(x, y), nil })
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			return binaryGrads(c, outs[0], gos[0], powGrads)
		},
	}
}

// ldexpKernel is self · pow(2.0, other), as ATen composes it: the power
// at other's float dtype, the product at the promoted dtype.
func ldexpKernel() *kernel {
	powDType := func(b *array) (tensor.DType, ops.Operand) {
		if b.scalar {
			return ops.DefaultFloat, ops.NumberOperand(ops.ScalarFloat)
		}
		d := ops.ToFloat(b.dtype)
		return d, ops.TensorOperand(d, len(b.shape))
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			if a.scalar {
				return nil, errors.New("ldexp: self must be a tensor")
			}
			pd, pop := powDType(b)
			dt := ops.ResultType(ops.TensorOperand(a.dtype, len(a.shape)), pop)
			out, err := binaryMap(c, dt, tensor.Float64, func(x, y float64) (float64, error) {
				return x * roundTo(pd, math.Exp2(y)), nil
			})
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			pd, _ := powDType(c.in[1])
			return binaryGrads(c, outs[0], gos[0], func(a, b, y, g float64) (float64, float64) {
				p := roundTo(pd, math.Exp2(b))
				return g * p, g * a * p * math.Ln2
			})
		},
	}
}

// nextafter16 is c10's nextafter on the 16-bit pattern of a value (musl's
// algorithm); bits and value convert between the two.
func nextafter16(from, to float64, bits func(float64) uint16, value func(uint16) float64) float64 {
	if from != from || to != to {
		return math.NaN()
	}
	fi, ti := bits(from), bits(to)
	if fi == ti {
		return from
	}
	const sign = uint16(1) << 15
	af, at := fi&^sign, ti&^sign
	if af == 0 {
		if at == 0 {
			return to
		}
		return value(ti&sign | 1)
	}
	if af > at || (fi^ti)&sign != 0 {
		fi--
	} else {
		fi++
	}
	return value(fi)
}

// nextafterKernel steps to the next value of the operands' dtype.
func nextafterKernel() *kernel {
	u := binaryMathOp{rule: floatOnly, name: "nextafter_cpu"}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, err := u.resultType(c.in[0], c.in[1])
			if err != nil {
				return nil, err
			}
			var f func(x, y float64) float64
			switch dt {
			case tensor.Float32:
				f = func(x, y float64) float64 { return float64(math.Nextafter32(float32(x), float32(y))) }
			case tensor.Float16:
				f = func(x, y float64) float64 {
					return nextafter16(x, y, tensor.Float16Bits, tensor.Float16Value)
				}
			case tensor.BFloat16:
				f = func(x, y float64) float64 {
					return nextafter16(x, y, tensor.BFloat16Bits, tensor.BFloat16Value)
				}
			default:
				f = math.Nextafter
			}
			out, err := binaryMap(c, dt, dt, func(x, y float64) (float64, error) { return f(x, y), nil })
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
	}
}

// heavisideKernel: values where self is 0, else 1 above 0 and 0 below (and
// for NaN); both operands must have one dtype.
func heavisideKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			if operandDType(a) != operandDType(b) {
				return nil, errors.New("heaviside is not yet implemented for tensors with different dtypes.")
			}
			dt := resultType(a, b)
			out, err := binaryMap(c, dt, dt, func(x, y float64) (float64, error) {
				switch {
				case x == 0:
					return y, nil
				case x > 0:
					return 1, nil
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
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	ints := append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)
	register("polygamma", polygammaKernel())
	register("mvlgamma", mvlgammaKernel())
	for name, u := range binaryMathOps {
		register(name, binaryMathKernel(u))
		switch {
		case u.intOnly:
			supportDTypes(name, intDTypes[:5]...)
		case u.rule == floatOnly:
		case u.noBool:
			supportDTypes(name, ints...)
		default:
			supportDTypes(name, all...)
		}
	}
	register("float_power", floatPowerKernel())
	register("ldexp", ldexpKernel())
	register("nextafter", nextafterKernel())
	register("heaviside", heavisideKernel())
	for _, n := range []string{"polygamma", "mvlgamma", "float_power", "ldexp", "heaviside"} {
		supportDTypes(n, all...)
	}
}

// atDT is a tensor op's result at dtype dt as PyTorch's CPU kernels store
// it: computed in float32 for the narrow float dtypes (their opmath type)
// and rounded; float64 (and the integer dtypes, which take no gradient) as
// it is. dfAt formulas use it to round each intermediate tensor of an
// autograd formula the way PyTorch does.
func atDT(dt tensor.DType, v float64) float64 {
	switch dt {
	case tensor.Float32:
		return roundTo(tensor.Float32, v)
	case tensor.Float16, tensor.BFloat16:
		return roundTo(dt, roundTo(tensor.Float32, v))
	}
	return v
}

// scalarAt is a Python float as a tensor op of dtype dt uses it: PyTorch
// 1.13's TensorIterator casts the wrapped number to the op's dtype (a
// float16 or bfloat16 through float32, as c10 converts a double), so
// grad * 0.1 at bfloat16 multiplies by bfloat16(0.1).
func scalarAt(dt tensor.DType, c float64) float64 {
	if dt == tensor.Float64 || !dt.IsFloat() {
		return c
	}
	return atDT(dt, c)
}

// asinDerivAt is asin's derivative as PyTorch's autograd evaluates it at
// dtype dt: (-self * self + 1).rsqrt(), each op rounded; rsqrt's CPU
// kernel divides 1 by the float32 square root (two roundings).
func asinDerivAt(x float64, dt tensor.DType) float64 {
	if dt == tensor.Float64 || !dt.IsFloat() {
		return 1 / math.Sqrt(1-x*x)
	}
	return rsqrtAt(dt, atDT(dt, atDT(dt, -x*x)+1))
}

// rsqrtAt is rsqrt's CPU kernel at dtype dt: 1 divided by the float32
// square root, rounded to dt (float64: 1 / sqrt).
func rsqrtAt(dt tensor.DType, q float64) float64 {
	if dt == tensor.Float64 || !dt.IsFloat() {
		return 1 / math.Sqrt(q)
	}
	return atDT(dt, 1/roundTo(tensor.Float32, math.Sqrt(q)))
}

// erfDerivAt is erf's (c = 2/√π) or erfc's (c = −2/√π) derivative as
// PyTorch's autograd evaluates it at dtype dt: c * exp(-(self.pow(2))),
// each op rounded (the number c cast to dt, scalarAt).
func erfDerivAt(x, c float64, dt tensor.DType) float64 {
	if dt == tensor.Float64 || !dt.IsFloat() {
		return c * math.Exp(-x*x)
	}
	e := atDT(dt, math.Exp(-atDT(dt, x*x)))
	return atDT(dt, scalarAt(dt, c)*e)
}

// narrowFloat reports whether autograd formulas at dt round their
// intermediate tensors (float32, float16, bfloat16); float64 and the
// integer dtypes keep the float64 formulas.
func narrowFloat(dt tensor.DType) bool {
	return dt == tensor.Float32 || dt == tensor.Float16 || dt == tensor.BFloat16
}

// kernelRounder is the rounding of values a CPU kernel stores at its
// scalar type: opRounder's, except at float16, where PyTorch 1.13's CPU
// kernels of these functions either compute in float (xlogy: std::log of a
// Half is a float) or are missing (sinc, logit; the emulation then
// computes in float32, as the golden cases do).
func kernelRounder(dt tensor.DType) func(float64) float64 {
	if dt == tensor.Float16 {
		return opRounder(tensor.Float32)
	}
	return opRounder(dt)
}

// opRounder is atDT for one dtype, chosen outside a loop: a tensor op's
// result as PyTorch's CPU kernel stores it (through float32 for the
// narrow dtypes).
func opRounder(dt tensor.DType) func(float64) float64 {
	switch dt {
	case tensor.Float32:
		return func(v float64) float64 { return float64(float32(v)) }
	case tensor.Float16:
		return func(v float64) float64 { return tensor.Float16Value(tensor.Float16Bits(float64(float32(v)))) }
	case tensor.BFloat16:
		return func(v float64) float64 { return tensor.BFloat16Value(tensor.BFloat16Bits(float64(float32(v)))) }
	}
	return func(v float64) float64 { return v }
}
