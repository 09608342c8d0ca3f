package cpu

// The misc2 family: frexp, igamma/igammac (PyTorch's cephes-derived
// calc_igamma at the compute dtype), renorm, diagonal_scatter,
// slice_scatter, fill_diagonal_, sum_to_size, _foreach_norm, histograms
// and resize_.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("frexp", &kernel{forward: misc2FrexpForward, backward: misc2FrexpBackward})
	register("igamma", misc2IgammaKernel(false))
	register("igammac", misc2IgammaKernel(true))
	register("renorm", &kernel{forward: misc2RenormForward, backward: misc2RenormBackward})
	register("diagonal_scatter", misc2ScatterKernel(misc2DiagonalView))
	register("slice_scatter", misc2ScatterKernel(misc2SliceView))
	register("fill_diagonal", &kernel{forward: misc2FillDiagonalForward, backward: misc2FillDiagonalBackward})
	register("sum_to_size", &kernel{forward: misc2SumToSizeForward, backward: misc2SumToSizeBackward})
	register("foreach_norm", &kernel{forward: misc2ForeachNormForward})
	register("histogram", &kernel{forward: misc2HistogramForward})
	register("histogram_edges", &kernel{forward: misc2HistogramForward})
	register("resize", &kernel{forward: misc2ResizeForward})
	register("choose_qparams_optimized", &kernel{forward: misc2ChooseQparamsForward})
	register("stft", &kernel{forward: misc2STFTForward, backward: misc2STFTBackward})
	register("istft", &kernel{forward: misc2ISTFTForward, backward: misc2ISTFTBackward})
	supportDTypes("stft", tensor.Float64, tensor.Float32)
	supportDTypes("istft", tensor.Float64, tensor.Float32)
	supportDTypes("choose_qparams_optimized", tensor.Float64, tensor.Float32)
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, op := range []string{"diagonal_scatter", "slice_scatter", "fill_diagonal", "sum_to_size", "resize"} {
		supportDTypes(op, all...)
	}
	supportDTypes("histogram", tensor.Float64, tensor.Float32)
	supportDTypes("histogram_edges", tensor.Float64, tensor.Float32, tensor.BFloat16)
}

// ---- frexp ----

func misc2FrexpForward(c *call) ([]*array, error) {
	x := c.in[0]
	if !x.dtype.IsFloat() {
		return nil, errors.New("torch.frexp() only supports floating-point dtypes")
	}
	m, e := newArray(x.dtype, x.shape), newArray(tensor.Int32, x.shape)
	forChunks(len(x.data), func(from, to int) error {
		for i := from; i < to; i++ {
			f, ex := math.Frexp(x.data[i])
			m.data[i], e.data[i] = f, float64(ex)
		}
		return nil
	})
	return []*array{m, e}, nil
}

// misc2FrexpBackward: grad / 2**exponent, exact.
func misc2FrexpBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	g := gradData(gos[0], len(x.data))
	res := float64sFor(len(g))
	e := outs[1].data
	forChunks(len(g), func(from, to int) error {
		for i := from; i < to; i++ {
			res[i] = math.Ldexp(g[i], -int(e[i]))
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, res, x.shape)}, nil
}

// ---- igamma, igammac ----

// misc2Float is the compute type of calc_igamma: float64 for double
// inputs, float32 for every narrower float dtype (PyTorch's Half and
// BFloat16 specialisations call the float version).
type misc2Float interface{ ~float32 | ~float64 }

func misc2IsF64[T misc2Float]() bool { var z T; return unsafe.Sizeof(z) == 8 }

func misc2Machep[T misc2Float]() T {
	if misc2IsF64[T]() {
		return T(1.11022302462515654042e-16)
	}
	return T(5.9604644775390625e-8)
}

// misc2F applies a float64 math function at T (the float version of the
// C library function, correctly rounded in the cases that matter).
func misc2F[T misc2Float](f func(float64) float64, x T) T { return T(f(float64(x))) }

func misc2Lgamma(x float64) float64 { v, _ := math.Lgamma(x); return v }

var misc2LanczosNum = [13]float64{
	0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
	19.51992788247617482847860966235652136208, 449.9445569063168119446858607650988409623,
	6955.999602515376140356310115515198987526, 75999.29304014542649875303443598909137092,
	601859.6171681098786670226533699352302507, 3481712.15498064590882071018964774556468,
	14605578.08768506808414169982791359218571, 43338889.32467613834773723740590533316085,
	86363131.28813859145546927288977868422342, 103794043.1163445451906271053616070238554,
	56906521.91347156388090791033559122686859,
}

var misc2LanczosDenom = [13]float64{1., 66., 1925., 32670., 357423., 2637558., 13339535., 45995730., 105258076., 150917976., 120543840., 39916800., 0.}

// misc2Ratevl is ratevl for the Lanczos sum (M = N = 12, so pow(x, N-M) is 1).
func misc2Ratevl[T misc2Float](x T) T {
	absx := x
	if absx < 0 {
		absx = -absx
	}
	var num, den T
	if absx > 1 {
		y := 1 / x
		num, den = T(misc2LanczosNum[12]), T(misc2LanczosDenom[12])
		for i := 11; i >= 0; i-- {
			num = num*y + T(misc2LanczosNum[i])
			den = den*y + T(misc2LanczosDenom[i])
		}
		// pow(x, 0) * num / den, in double for float (C++ promotes pow(float, long))
		return T(1 * float64(num) / float64(den))
	}
	num, den = T(misc2LanczosNum[0]), T(misc2LanczosDenom[0])
	for i := 1; i <= 12; i++ {
		num = num*x + T(misc2LanczosNum[i])
		den = den*x + T(misc2LanczosDenom[i])
	}
	return num / den
}

// misc2IgamFac is _igam_helper_fac: x^a e^-x / Γ(a).
func misc2IgamFac[T misc2Float](a, x T) T {
	maxlog := T(88.72283905206835)
	if misc2IsF64[T]() {
		maxlog = T(7.09782712893383996843e2)
	}
	const exp1, lanczosG = 2.718281828459045, 6.024680040776729583740234375
	if math.Abs(float64(a-x)) > 0.4*math.Abs(float64(a)) {
		ax := a*misc2F(math.Log, x) - x - misc2F(misc2Lgamma, a)
		if ax < -maxlog {
			return 0
		}
		return misc2F(math.Exp, ax)
	}
	fac := T(float64(a+T(lanczosG)) - 0.5)
	res := misc2F(math.Sqrt, fac/T(exp1)) / misc2Ratevl(a)
	if a < 200 && x < 200 {
		res *= misc2F(math.Exp, a-x) * T(math.Pow(float64(x/fac), float64(a)))
	} else {
		num := T(float64(x-a-T(lanczosG)) + 0.5)
		numfac := num / fac
		res *= T(math.Exp(float64(a*(misc2F(math.Log1p, numfac)-numfac)) + float64(x)*(0.5-float64(T(lanczosG)))/float64(fac)))
	}
	return res
}

func misc2IgamSeries[T misc2Float](a, x T) T {
	ax := misc2IgamFac(a, x)
	if ax == 0 {
		return 0
	}
	eps := misc2Machep[T]()
	r, c, ans := a, T(1), T(1)
	for i := 0; i < 2000; i++ {
		r++
		c *= x / r
		ans += c
		if c <= eps*ans {
			break
		}
	}
	return ans * ax / a
}

func misc2IgamcSeries[T misc2Float](a, x T) T {
	eps := misc2Machep[T]()
	fac, sum := T(1), T(0)
	for n := 1; n < 2000; n++ {
		fac *= -x / T(n)
		term := fac / (a + T(n))
		sum += term
		if misc2Abs(term) <= eps*misc2Abs(sum) {
			break
		}
	}
	logx := misc2F(math.Log, x)
	term := -misc2F(math.Expm1, a*logx-misc2F(misc2Lgamma, 1+a))
	return term - misc2F(math.Exp, a*logx-misc2F(misc2Lgamma, a))*sum
}

func misc2Abs[T misc2Float](v T) T {
	if v < 0 {
		return -v
	}
	return v
}

func misc2IgamAsymptotic[T misc2Float](a, x T, igam bool) T {
	eps := misc2Machep[T]()
	lambda, sigma := x/a, (x-a)/a
	sgn := T(1)
	if igam {
		sgn = -1
	}
	var eta T
	switch {
	case lambda > 1:
		eta = misc2F(math.Sqrt, -2*(misc2F(math.Log1p, sigma)-sigma))
	case lambda < 1:
		eta = -misc2F(math.Sqrt, -2*(misc2F(math.Log1p, sigma)-sigma))
	}
	res := T(0.5 * float64(misc2F(math.Erfc, sgn*eta*misc2F(math.Sqrt, a/2))))
	var etapow [25]T
	etapow[0] = 1
	maxpow := 0
	absold := T(math.Inf(1))
	sum, afac := T(0), T(1)
	for k := 0; k < 25; k++ {
		ck := T(misc2IgamD[k][0])
		for n := 1; n < 25; n++ {
			if n > maxpow {
				etapow[n] = eta * etapow[n-1]
				maxpow++
			}
			ckterm := T(misc2IgamD[k][n]) * etapow[n]
			ck += ckterm
			if misc2Abs(ckterm) < eps*misc2Abs(ck) {
				break
			}
		}
		term := ck * afac
		absterm := misc2Abs(term)
		if absterm > absold {
			break
		}
		sum += term
		if absterm < eps*misc2Abs(sum) {
			break
		}
		absold = absterm
		afac /= a
	}
	// -0.5 * a * eta * eta and the rest in double (C++ promotion); pi is
	// c10::pi<float>
	d := float64(sgn) * math.Exp(-0.5*float64(a)*float64(eta)*float64(eta)) * float64(sum) /
		float64(misc2F(math.Sqrt, 2*T(float32(math.Pi))*a))
	return T(float64(res) + d)
}

func misc2IgamcFraction[T misc2Float](a, x T) T {
	ax := misc2IgamFac(a, x)
	if ax == 0 {
		return 0
	}
	eps := misc2Machep[T]()
	big, biginv := T(16777216.), T(5.9604644775390625e-8)
	if misc2IsF64[T]() {
		big, biginv = T(4.503599627370496e15), T(2.22044604925031308085e-16)
	}
	y := 1 - a
	z := x + y + 1
	c := T(0)
	pkm2, qkm2 := T(1), x
	pkm1, qkm1 := x+1, z*x
	ans := pkm1 / qkm1
	for i := 0; i < 2000; i++ {
		c++
		y++
		z += 2
		yc := y * c
		pk := pkm1*z - pkm2*yc
		qk := qkm1*z - qkm2*yc
		t := T(1)
		if qk != 0 {
			r := pk / qk
			t = misc2Abs((ans - r) / r)
			ans = r
		}
		pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
		if misc2Abs(pk) > big {
			pkm2 *= biginv
			pkm1 *= biginv
			qkm2 *= biginv
			qkm1 *= biginv
		}
		if t <= eps {
			break
		}
	}
	return ans * ax
}

// misc2Boundary is calc_igamma's (upper false) or calc_igammac's handling
// of the edges of the domain; ok false when none applies.
func misc2Boundary[T misc2Float](a, x T, upper bool) (T, bool) {
	nan := T(math.NaN())
	one, zero := T(1), T(0)
	if upper {
		one, zero = zero, one
	}
	switch {
	case x < 0 || a < 0:
		return nan, true
	case a == 0:
		if x > 0 {
			return one, true
		}
		return nan, true
	case x == 0:
		return zero, true
	case math.IsInf(float64(a), 0):
		if math.IsInf(float64(x), 0) {
			return nan, true
		}
		return zero, true
	case math.IsInf(float64(x), 0):
		return one, true
	}
	return 0, false
}

// misc2Asymptotic reports whether a ~ x calls for the asymptotic series.
func misc2Asymptotic[T misc2Float](a, x T) bool {
	r := misc2Abs(x-a) / a
	return a > 20 && a < 200 && r < T(0.3) || a > 200 && r < T(4.5)/misc2F(math.Sqrt, a)
}

func misc2Igammac[T misc2Float](a, x T) T {
	if v, ok := misc2Boundary(a, x, true); ok {
		return v
	}
	if misc2Asymptotic(a, x) {
		return misc2IgamAsymptotic(a, x, false)
	}
	xd, ad := float64(x), float64(a)
	switch {
	case xd > 1.1:
		if x < a {
			return 1 - misc2IgamSeries(a, x)
		}
		return misc2IgamcFraction(a, x)
	case xd <= 0.5:
		if -0.4/float64(misc2F(math.Log, x)) < ad {
			return 1 - misc2IgamSeries(a, x)
		}
		return misc2IgamcSeries(a, x)
	}
	if xd*1.1 < ad {
		return 1 - misc2IgamSeries(a, x)
	}
	return misc2IgamcSeries(a, x)
}

func misc2Igamma[T misc2Float](a, x T) T {
	if v, ok := misc2Boundary(a, x, false); ok {
		return v
	}
	if misc2Asymptotic(a, x) {
		return misc2IgamAsymptotic(a, x, true)
	}
	if float64(x) > 1.0 && x > a {
		return 1 - misc2Igammac(a, x)
	}
	return misc2IgamSeries(a, x)
}

// misc2IgammaKernel: floating dtypes only (PyTorch's igamma_cpu), tensors
// broadcast and promoted; d/dx P(a, x) = exp((a-1) log x - x - lgamma(a)),
// Q's the negation; no gradient for a.
func misc2IgammaKernel(upper bool) *kernel {
	name := "igamma_cpu"
	if upper {
		name = "igammac_cpu"
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt := resultType(c.in[0], c.in[1])
			if !dt.IsFloat() {
				return nil, notImplemented(name, dt)
			}
			f := func(a, x float64) (float64, error) {
				if upper {
					return float64(misc2Igammac(float32(a), float32(x))), nil
				}
				return float64(misc2Igamma(float32(a), float32(x))), nil
			}
			if dt == tensor.Float64 {
				f = func(a, x float64) (float64, error) {
					if upper {
						return misc2Igammac(a, x), nil
					}
					return misc2Igamma(a, x), nil
				}
			}
			out, err := binaryMap(c, dt, dt, f)
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			r := misc2IgammaGradRounding(c.in[0], c.in[1], gos[0])
			if c.requiresGrad[1] && outs[0].dtype == tensor.Float16 {
				return nil, notImplemented("lgamma_vml_cpu", tensor.Float16)
			}
			return binaryGrads(c, outs[0], gos[0], func(a, x, y, g float64) (float64, float64) {
				t := r.t1(r.sm1(a-1) * r.log(math.Log(x)))
				t = r.t3(r.t2(t-x) - r.lg(misc2Lgamma(a)))
				d := r.out(g * r.t3(math.Exp(t)))
				if upper {
					d = r.out(-d)
				}
				return 0, d
			})
		},
	}
}

// misc2IgammaRound rounds each step of PyTorch's igamma gradient,
// grad * exp((self - 1) * log(other) - other - lgamma(self)), to the dtype
// that tensor expression has (lgamma of an integer self is float32).
type misc2IgammaRound struct {
	sm1, log, t1, t2, lg, t3, out func(float64) float64
}

func misc2IgammaGradRounding(a, x, g *array) misc2IgammaRound {
	to := func(d tensor.DType) func(float64) float64 { return func(v float64) float64 { return roundTo(d, v) } }
	ra, rx := len(a.shape), len(x.shape)
	rt := max(ra, rx)
	op := ops.TensorOperand
	dLog := ops.ToFloat(x.dtype)
	dT1 := ops.ResultType(op(a.dtype, ra), op(dLog, rx))
	dT2 := ops.ResultType(op(dT1, rt), op(x.dtype, rx))
	dLg := ops.ToFloat(a.dtype)
	dT3 := ops.ResultType(op(dT2, rt), op(dLg, ra))
	dOut := dT3
	if g != nil {
		dOut = ops.ResultType(op(g.dtype, len(g.shape)), op(dT3, rt))
	}
	return misc2IgammaRound{sm1: to(a.dtype), log: to(dLog), t1: to(dT1), t2: to(dT2), lg: to(dLg), t3: to(dT3), out: to(dOut)}
}

// ---- renorm ----

// misc2RenormPlan checks renorm's arguments and returns the slices along
// dim: outer × n × inner elements, slice i the (o, i, j) ones.
func misc2RenormPlan(c *call) (dim, outer, n, inner int, p, maxnorm float64, err error) {
	x := c.in[0]
	p, maxnorm = c.attrs.Float("p", 2), c.attrs.Float("maxnorm", 0)
	switch {
	case x.rank() < 2:
		err = fmt.Errorf("renorm: input needs at least 2 dimensions, got %d dimensions", x.rank())
	case !x.dtype.IsFloat():
		err = fmt.Errorf("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.dtype))
	case !(p > 0):
		err = errors.New("renorm: non-positive-norm not supported")
	case maxnorm < 0:
		err = fmt.Errorf("renorm: expected maxnorm to be >= 0 but got %s", formatEdge(maxnorm))
	}
	if err != nil {
		return
	}
	if dim, err = normDim(c.attrs.Int("dim", 0), x.rank()); err != nil {
		return
	}
	outer, n, inner = 1, x.shape[dim], 1
	for _, s := range x.shape[:dim] {
		outer *= s
	}
	for _, s := range x.shape[dim+1:] {
		inner *= s
	}
	return
}

// misc2Slice gathers slice i (see misc2RenormPlan) of v.
func misc2Slice(v []float64, i, outer, n, inner int) []float64 {
	out := make([]float64, 0, outer*inner)
	for o := 0; o < outer; o++ {
		b := (o*n + i) * inner
		out = append(out, v[b:b+inner]...)
	}
	return out
}

// misc2RenormNorms is the norm of every slice, rounded to the dtype the
// norm is computed at (float for float16 and bfloat16, whose orders other
// than 1, 2 and inf accumulate in float step by step).
func misc2RenormNorms(x *array, outer, n, inner int, p float64) []float64 {
	acc := x.dtype
	if acc == tensor.Float16 || acc == tensor.BFloat16 {
		acc = tensor.Float32
	}
	norms := make([]float64, n)
	for i := range norms {
		v := misc2Slice(x.data, i, outer, n, inner)
		if acc == tensor.Float32 && x.dtype != acc && p != 2 && p != 1 && !math.IsInf(p, 0) {
			// NormOps<float, float>: acc + powf(|x|, p) at float, then
			// powf(acc, 1/p) with 1/p computed at float
			f32 := opRounder(tensor.Float32)
			pf, s := f32(p), 0.0
			for _, e := range v {
				s = f32(s + f32(math.Pow(math.Abs(e), pf)))
			}
			norms[i] = f32(math.Pow(s, f32(1/pf)))
			continue
		}
		norms[i] = roundTo(acc, fullNorm(v, p))
	}
	return norms
}

// misc2RenormForward: self times maxnorm / (norm + 1e-7) where the slice's
// norm exceeds maxnorm, the factor rounded to self's dtype (PyTorch's
// renorm_scale_factor).
func misc2RenormForward(c *call) ([]*array, error) {
	x := c.in[0]
	_, outer, n, inner, p, maxnorm, err := misc2RenormPlan(c)
	if err != nil {
		return nil, err
	}
	norms := misc2RenormNorms(x, outer, n, inner, p)
	acc := tensor.Float64
	if x.dtype != tensor.Float64 {
		acc = tensor.Float32
	}
	mx := roundTo(acc, maxnorm)
	factor := make([]float64, n)
	for i, nr := range norms {
		factor[i] = 1
		if nr > mx {
			factor[i] = roundTo(x.dtype, roundTo(acc, mx/(nr+1e-7)))
		}
	}
	out := newArray(x.dtype, x.shape)
	forChunks(len(x.data), func(from, to int) error {
		for k := from; k < to; k++ {
			out.data[k] = x.data[k] * factor[(k/inner)%n]
		}
		return nil
	})
	return []*array{out}, nil
}

// misc2RenormBackward is PyTorch's renorm_backward: where the norm exceeds
// maxnorm, factor*grad - invnorm*factor*norm_backward(sum(self*grad)),
// grad elsewhere.
func misc2RenormBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	_, outer, n, inner, p, maxnorm, err := misc2RenormPlan(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], len(x.data))
	res := float64sFor(len(g))
	copy(res, g)
	if rd := narrowRounder(x.dtype); rd != nil {
		misc2RenormGradNarrow(x, g, res, outer, n, inner, p, maxnorm, rd)
		return []*array{gradForOwned(c, 0, res, x.shape)}, nil
	}
	for i := 0; i < n; i++ {
		v := misc2Slice(x.data, i, outer, n, inner)
		nr := fullNorm(v, p)
		if !(nr > maxnorm) {
			continue
		}
		gs := misc2Slice(g, i, outer, n, inner)
		dot := 0.0
		for k, xv := range v {
			dot += xv * gs[k]
		}
		nb := make([]float64, len(v))
		fullNormGrad(v, p, nr, dot, nb)
		inv := 1 / (nr + 1e-7)
		f := inv * maxnorm
		k := 0
		for o := 0; o < outer; o++ {
			b := (o*n + i) * inner
			for j := 0; j < inner; j++ {
				res[b+j] = f*gs[k] - inv*f*nb[k]
				k++
			}
		}
	}
	return []*array{gradForOwned(c, 0, res, x.shape)}, nil
}

// misc2RenormGradNarrow is renorm_backward at a narrow dtype: the norm at
// float (toAccumulateType), sum(self * grad) with the products at the
// dtype summed in float, norm_backward mixing self's dtype and float, then
// maxnorm * invnorm * (grad - invnorm * nb) in float, rounded to the dtype
// where the norm exceeds maxnorm.
func misc2RenormGradNarrow(x *array, g, res []float64, outer, n, inner int, p, maxnorm float64, rd func(float64) float64) {
	f32 := opRounder(tensor.Float32)
	norms := misc2RenormNorms(x, outer, n, inner, p)
	mx := f32(maxnorm)
	for i, nr := range norms {
		if !(nr > mx) {
			continue
		}
		v := misc2Slice(x.data, i, outer, n, inner)
		gs := misc2Slice(g, i, outer, n, inner)
		var dot float32
		for k, xv := range v {
			dot += float32(rd(xv * gs[k]))
		}
		inv := f32(1 / f32(nr+f32(1e-7)))
		f := f32(mx * inv)
		cnt := 0
		if math.IsInf(p, 0) {
			for _, xv := range v {
				if a := math.Abs(xv); a == nr || a != a {
					cnt++
				}
			}
		}
		k := 0
		for o := 0; o < outer; o++ {
			b := (o*n + i) * inner
			for j := 0; j < inner; j++ {
				var nb float64
				if cnt > 0 {
					// self.sgn() * ((grad / count) * mask)
					if a := math.Abs(v[k]); a == nr || a != a {
						nb = sgn(v[k]) * f32(float64(dot)/float64(cnt))
					}
				} else {
					nb = normGradNarrow(v[k], float64(dot), nr, p, x.dtype, tensor.Float32)
				}
				res[b+j] = f32(f * f32(gs[k]-f32(inv*nb)))
				k++
			}
		}
	}
}

// ---- diagonal_scatter, slice_scatter ----

func misc2DiagonalView(c *call) (*view, []int, error) {
	x := c.in[0]
	d1, d2, err := diagDims(c, x.rank())
	if err != nil {
		return nil, nil, err
	}
	v, shape := diagonalOf(x.shape, c.attrs.Int("offset", 0), d1, d2)
	return v, shape, nil
}

func misc2SliceView(c *call) (*view, []int, error) { return sliceView(c) }

// misc2ScatterKernel: self with the view's elements replaced by src cast
// to self's dtype; backward: grad with the view zeroed for self, the
// view's gradient for src.
func misc2ScatterKernel(viewOf func(c *call) (*view, []int, error)) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, src := c.in[0], c.in[1]
			v, shape, err := viewOf(c)
			if err != nil {
				return nil, err
			}
			if !slices.Equal(src.shape, shape) {
				return nil, fmt.Errorf("expected src to have a size equal to the slice of self. src size = %s, slice size = %s", ops.ShapeList(src.shape), ops.ShapeList(shape))
			}
			out := newArray(x.dtype, x.shape)
			copy(out.data, x.data)
			if len(src.data) > 0 {
				v.scatter(out.data, castValues(src, x.dtype))
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, src := c.in[0], c.in[1]
			v, _, err := viewOf(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			gs := zeros(len(src.data))
			gx := float64sFor(len(g))
			copy(gx, g)
			if len(src.data) > 0 {
				gs = v.gather(g)
				v.scatter(gx, zeros(len(src.data)))
			}
			return []*array{gradForOwned(c, 0, gx, x.shape), gradForOwned(c, 1, gs, src.shape)}, nil
		},
	}
}

// ---- fill_diagonal_ ----

// misc2DiagonalPositions lists the flat positions fill_diagonal_ writes
// (PyTorch's as_strided main diagonal, and the wrapped one of a tall
// matrix).
func misc2DiagonalPositions(c *call) ([]int, error) {
	x := c.in[0]
	r := x.rank()
	if r < 2 {
		return nil, errors.New("dimensions must larger than 1")
	}
	h, w := x.shape[0], x.shape[1]
	if r > 2 {
		for _, s := range x.shape[1:] {
			if s != h {
				return nil, errors.New("all dimensions of input must be of equal length")
			}
		}
	}
	st := contiguousStrides(x.shape)
	stride := 0
	for _, s := range st {
		stride += s
	}
	size := min(h, w)
	var pos []int
	for k := 0; k < size; k++ {
		pos = append(pos, k*stride)
	}
	if c.attrs.Bool("wrap", false) && r == 2 && h > w+1 {
		step := w + 1
		n := (len(x.data)+step-1)/step - size
		off := st[0] * (w + 1)
		for k := 0; k < n; k++ {
			pos = append(pos, off+k*stride)
		}
	}
	return pos, nil
}

func misc2FillDiagonalForward(c *call) ([]*array, error) {
	x, val := c.in[0], c.in[1]
	pos, err := misc2DiagonalPositions(c)
	if err != nil {
		return nil, err
	}
	if val == nil || !val.scalar {
		return nil, errors.New("fill_diagonal_: fill_value must be a number")
	}
	v := roundTo(x.dtype, val.data[0])
	out := newArray(x.dtype, x.shape)
	copy(out.data, x.data)
	for _, p := range pos {
		out.data[p] = v
	}
	return []*array{out}, nil
}

func misc2FillDiagonalBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	pos, err := misc2DiagonalPositions(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], len(x.data))
	res := float64sFor(len(g))
	copy(res, g)
	for _, p := range pos {
		res[p] = 0
	}
	return []*array{gradForOwned(c, 0, res, x.shape), nil}, nil
}

// ---- sum_to_size ----

// misc2SumToDims are the dims of shape that sum_to_size(size) sums
// (PyTorch's sum_to): the leading ones, and those where size has 1.
func misc2SumToDims(shape []int, size []int64) ([]int64, error) {
	lead := len(shape) - len(size)
	ok := lead >= 0
	var dims []int64
	for i := range shape {
		if i < lead {
			dims = append(dims, int64(i))
			continue
		}
		if !ok {
			break
		}
		s := size[i-lead]
		switch {
		case s == int64(shape[i]):
		case s == 1:
			dims = append(dims, int64(i))
		default:
			ok = false
		}
	}
	if !ok {
		return nil, fmt.Errorf("size {%s} is not expandable to size {%s}.", misc2Ints(size), ops.ShapeList(shape))
	}
	return dims, nil
}

func misc2Ints(v []int64) string {
	s := make([]int, len(v))
	for i, x := range v {
		s[i] = int(x)
	}
	return ops.ShapeList(s)
}

// misc2SumToSizeForward is sum over misc2SumToDims with keepdim, viewed
// as size; with nothing to sum it is self itself (dtype kept).
func misc2SumToSizeForward(c *call) ([]*array, error) {
	x := c.in[0]
	size := c.attrs.Ints("size", nil)
	dims, err := misc2SumToDims(x.shape, size)
	if err != nil {
		return nil, err
	}
	shape := make([]int, len(size))
	for i, s := range size {
		shape[i] = int(s)
	}
	if len(dims) == 0 {
		out := newArray(x.dtype, shape)
		copy(out.data, x.data)
		return []*array{out}, nil
	}
	sc := &call{op: "sum", attrs: ops.Attrs{"dim": ops.IntsAttr(dims...), "keepdim": ops.BoolAttr(true), "dtype": ops.NoneAttr()},
		in: []*array{x}, requiresGrad: []bool{false}}
	outs, err := kernels["sum"].forward(sc)
	if err != nil {
		return nil, err
	}
	out := outs[0]
	out.shape = shape
	return []*array{out}, nil
}

func misc2SumToSizeBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	g := gos[0]
	if g == nil {
		return []*array{nil}, nil
	}
	return []*array{gradForOwned(c, 0, expandTo(g, x.shape), x.shape)}, nil
}

// ---- _foreach_norm ----

// misc2ForeachNormForward is the norm op's kernel on each tensor.
func misc2ForeachNormForward(c *call) ([]*array, error) {
	outs := make([]*array, 0, len(c.in))
	for _, t := range c.in {
		nc := &call{op: "norm", attrs: ops.Attrs{"p": ops.FloatAttr(c.attrs.Float("ord", 2)), "dim": ops.NoneAttr(), "keepdim": ops.BoolAttr(false), "dtype": ops.NoneAttr()},
			in: []*array{t}, requiresGrad: []bool{false}}
		o, err := kernels["norm"].forward(nc)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o[0])
	}
	return outs, nil
}

// ---- resize_ ----

func misc2ResizeForward(c *call) ([]*array, error) {
	x := c.in[0]
	size := c.attrs.Ints("size", nil)
	shape := make([]int, len(size))
	n := 1
	for i, s := range size {
		if s < 0 {
			return nil, fmt.Errorf("Trying to create tensor with negative dimension %d: %s", s, misc2Ints(size))
		}
		shape[i] = int(s)
		n *= int(s)
	}
	if n > len(x.data) {
		return nil, fmt.Errorf("resize_ to %s grows the tensor of %d elements: the new elements are uninitialised memory", misc2Ints(size), len(x.data))
	}
	out := newArray(x.dtype, shape)
	copy(out.data, x.data[:n])
	return []*array{out}, nil
}

// ---- histogram, histogram_edges ----

// misc2CName is c10's name of a float dtype in histogramdd's messages.
func misc2CName(d tensor.DType) string {
	switch d {
	case tensor.Float32:
		return "float"
	case tensor.Float64:
		return "double"
	}
	return d.String()
}

// misc2UpperBound is libstdc++'s std::upper_bound over e[lo:hi] (a binary
// search whatever the order of e).
func misc2UpperBound(e []float64, lo, hi int, v float64) int {
	first, n := lo, hi-lo
	for n > 0 {
		half := n >> 1
		mid := first + half
		if v < e[mid] {
			n = half
		} else {
			first = mid + 1
			n -= half + 1
		}
	}
	return first
}

// misc2Edges computes the bin edges of op histogram (linspace over the
// range at the dtype) or reads those of histogram_edges.
func misc2Edges(c *call, x *array, d, npts int) ([][]float64, error) {
	edges := make([][]float64, d)
	if c.op == "histogram_edges" {
		bins := c.in[2:]
		if len(bins) != d {
			return nil, fmt.Errorf("torch.histogramdd: expected %d sequences of bin edges for a %d-dimensional histogram but got %d", d, d, len(bins))
		}
		for i, b := range bins {
			switch {
			case b.dtype != x.dtype:
				return nil, fmt.Errorf("torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype %s and bins for dimension %d with dtype %s",
					misc2CName(x.dtype), i, misc2CName(b.dtype))
			case b.rank() != 1:
				return nil, fmt.Errorf("torch.histogramdd: bins tensor should have one dimension, but got %d dimensions in the bins tensor for dimension %d", b.rank(), i)
			case len(b.data) < 2:
				return nil, fmt.Errorf("torch.histogram(): bins must be > 0, but got %d for dimension %d", max(len(b.data)-1, 0), i)
			}
			edges[i] = append([]float64(nil), b.data...)
		}
		return edges, nil
	}
	bins := c.attrs.Ints("bins", nil)
	if len(bins) < d {
		return nil, fmt.Errorf("torch.histogramdd: expected %d sequences of bin edges for a %d-dimensional histogram but got %d", d, d, len(bins))
	}
	bins = bins[:d]
	rng := c.attrs.Floats("range", nil)
	if rng != nil && len(rng) != 2*d {
		return nil, fmt.Errorf("torch.histogramdd: for a %d-dimensional histogram range should have %d elements, but got %d", d, 2*d, len(rng))
	}
	for i, n := range bins {
		if n <= 0 {
			return nil, fmt.Errorf("torch.histogram(): bins must be > 0, but got %d for dimension %d", n, i)
		}
		lo, hi := 0.0, 1.0
		switch {
		case rng != nil:
			lo, hi = rng[2*i], rng[2*i+1]
		case npts > 0:
			lo, hi = x.data[i], x.data[i]
			for k := 0; k < npts; k++ {
				v := x.data[k*d+i]
				if v != v {
					lo, hi = v, v
					break
				}
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if !finite(lo) || !finite(hi) {
			return nil, fmt.Errorf("torch.histogramdd: dimension %d's range [%s, %s] is not finite", i, formatEdge(lo), formatEdge(hi))
		}
		if lo > hi {
			return nil, fmt.Errorf("torch.histogramdd: min should not exceed max, but got min %s max %s for dimension %d", formatEdge(lo), formatEdge(hi), i)
		}
		if lo == hi {
			lo, hi = lo-0.5, hi+0.5
		}
		lc := &call{op: "linspace", attrs: ops.Attrs{"steps": ops.IntAttr(n + 1), "dtype": ops.StringAttr(x.dtype.String())},
			in: []*array{scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: lo}), scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: hi})}}
		out, err := miscLinspaceForward(lc)
		if err != nil {
			return nil, err
		}
		edges[i] = out[0].data
	}
	return edges, nil
}

// misc2HistogramForward is PyTorch's histogramdd_cpu_contiguous at the
// input's dtype: points outside [first edge, last edge] are dropped (NaN
// is not: it lands in bin 1 with linspace edges, in the last bin with edge
// tensors, as PyTorch 1.13 places it on x86); linspace edges place a
// point by division corrected by a local search of the edges, edge tensors
// by binary search; the last bin includes its right edge; weights add up
// in point order at the dtype. density divides by the total and by each
// bin's widths.
func misc2HistogramForward(c *call) ([]*array, error) {
	x, w := c.in[0], c.in[1]
	switch {
	case c.op == "histogram_edges" && (x.dtype == tensor.BFloat16 || x.dtype == tensor.Float32 || x.dtype == tensor.Float64):
	case c.op == "histogram_edges":
		return nil, notImplemented("histogram_cpu", x.dtype)
	case x.dtype != tensor.Float32 && x.dtype != tensor.Float64:
		// the range's aminmax and the linspace of the edges refuse first
		return nil, notImplemented("histogramdd", x.dtype)
	}
	d, npts := 1, len(x.data)
	ptShape := []int{npts, 1}
	if !c.attrs.Bool("flat", false) {
		if x.rank() < 2 {
			return nil, errors.New("torch.histogramdd: input tensor should have at least 2 dimensions")
		}
		d = x.shape[x.rank()-1]
		npts = 0
		if d > 0 {
			npts = len(x.data) / d
		}
		ptShape = x.shape
	}
	if w != nil {
		want := ptShape[:len(ptShape)-1]
		if !slices.Equal(w.shape, want) {
			return nil, fmt.Errorf("torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape %s and weight with shape %s",
				ops.ShapeList(ptShape), ops.ShapeList(w.shape))
		}
		if w.dtype != x.dtype {
			return nil, fmt.Errorf("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, but got input(%s), and weight(%s)",
				misc2CName(x.dtype), misc2CName(w.dtype))
		}
	}
	edges, err := misc2Edges(c, x, d, npts)
	if err != nil {
		return nil, err
	}
	shape := make([]int, d)
	for i, e := range edges {
		shape[i] = len(e) - 1
	}
	hist := newArray(x.dtype, shape)
	st := contiguousStrides(shape)
	rnd := roundFunc(x.dtype)
	search := c.op == "histogram_edges"
	for k := 0; k < npts; k++ {
		idx := 0
		skip := false
		for i, e := range edges {
			v := x.data[k*d+i]
			nb := len(e)
			left, right := e[0], e[nb-1]
			if v < left || v > right {
				skip = true
				break
			}
			var pos int
			switch {
			case search:
				pos = misc2UpperBound(e, 0, nb, v) - 1
			case v != v:
				// PyTorch 1.13's range test lets NaN through; on x86 its
				// position int64(NaN) is INT64_MIN, and the local search
				// over the wrapped window [pos-1, pos+2) ends at bin 1
				pos = 1
			default:
				p := int(rnd(rnd(rnd(v-left)*float64(nb-1)) / rnd(right-left)))
				lo, hi := max(0, p-1), min(p+2, nb)
				pos = misc2UpperBound(e, lo, hi, v) - 1
			}
			if pos == nb-1 {
				pos--
			}
			idx += st[i] * pos
		}
		if skip {
			continue
		}
		wt := 1.0
		if w != nil {
			wt = w.data[k]
		}
		hist.data[idx] = rnd(hist.data[idx] + wt)
	}
	if c.attrs.Bool("density", false) {
		total := 0.0
		for _, v := range hist.data {
			total += v
		}
		total = rnd(total)
		for j := range hist.data {
			hist.data[j] = rnd(hist.data[j] / total)
		}
		for i, e := range edges {
			for j := range hist.data {
				b := (j / st[i]) % shape[i]
				hist.data[j] = rnd(hist.data[j] / rnd(e[b+1]-e[b]))
			}
		}
	}
	outs := []*array{hist}
	for _, e := range edges {
		outs = append(outs, &array{shape: []int{len(e)}, data: e, dtype: x.dtype})
	}
	return outs, nil
}

// ---- choose_qparams_optimized ----

// misc2QuantLoss is PyTorch's calculate_quant_loss in float: xmin and the
// scale rounded through Half, each element fake-quantized and its squared
// error summed in order.
func misc2QuantLoss(in []float32, xmin, xmax float32, bitWidth int64) float32 {
	xmin = float32(tensor.Round(tensor.Float16, float64(xmin)))
	rng := xmax - xmin
	qmax := float32(int64(1)<<bitWidth - 1)
	scale := float32(1)
	if rng != 0 {
		scale = float32(tensor.Round(tensor.Float16, float64(rng/qmax)))
	}
	inv := float32(1)
	if scale != 0 {
		inv = 1 / scale
	}
	norm := float32(0)
	for _, x := range in {
		q := float32(math.RoundToEven(float64(float32((x - xmin) * inv))))
		q = max(0, min(q, qmax))
		q = float32(q*scale) + xmin
		d := x - q
		norm += float32(d * d)
	}
	return float32(math.Sqrt(float64(norm)))
}

// misc2ChooseQparamsForward is PyTorch's greedy search (QTensor.cpp) in
// float32; a float64 (bench) input is rounded to float32 first.
func misc2ChooseQparamsForward(c *call) ([]*array, error) {
	x := c.in[0]
	if x.dtype != tensor.Float32 && x.dtype != tensor.Float64 {
		return nil, fmt.Errorf("expected scalar type Float but found %s", ops.TypeName(x.dtype))
	}
	numel, nBins, bw := c.attrs.Int("numel", 0), c.attrs.Int("n_bins", 200), c.attrs.Int("bit_width", 8)
	ratio := c.attrs.Float("ratio", 0.16)
	switch {
	case numel > int64(len(x.data)):
		return nil, fmt.Errorf("numel %d greater than input_tensor.numel() %d", numel, len(x.data))
	case numel <= 0:
		return nil, fmt.Errorf("numel %d leaves no element to search", numel)
	case nBins <= 0 || bw < 1 || bw > 30:
		return nil, fmt.Errorf("n_bins %d or bit_width %d out of range", nBins, bw)
	}
	in := make([]float32, numel)
	for i := range in {
		in[i] = float32(x.data[i])
	}
	xmin, xmax := in[0], in[0]
	for _, v := range in[1:] {
		if v < xmin {
			xmin = v
		}
		if xmax < v {
			xmax = v
		}
	}
	step := (xmax - xmin) / float32(nBins)
	minBins := int64(float64(nBins) * (1.0 - float64(float32(ratio))))
	loss := misc2QuantLoss(in, xmin, xmax, bw)
	best, curMin, curMax, cur := loss, xmin, xmax, loss
	thr := float32(minBins) * step
	for it := 0; curMin+thr < curMax; it++ {
		if it > 4*int(nBins)+16 {
			return nil, errors.New("choose_qparams_optimized: the search does not end (the step is below the values' resolution)")
		}
		l1 := misc2QuantLoss(in, curMin+step, curMax, bw)
		l2 := misc2QuantLoss(in, curMin, curMax-step, bw)
		if cur < l1 && cur < l2 && cur < best {
			best, xmin, xmax = cur, curMin, curMax
		}
		if l1 < l2 {
			curMin, cur = curMin+step, l1
		} else {
			curMax, cur = curMax-step, l2
		}
	}
	hi, lo := newArray(tensor.Float32, []int{1}), newArray(tensor.Float32, []int{1})
	hi.data[0], lo.data[0] = float64(xmax), float64(xmin)
	return []*array{hi, lo}, nil
}

// misc2IgamD is the table d of PyTorch's _igam_helper_asymptotic_series
// (ATen/native/Math.h, from cephes/SciPy): DLMF 8.12 coefficients.
var misc2IgamD = [25][25]float64{{-3.3333333333333333e-1, 8.3333333333333333e-2, -1.4814814814814815e-2,
	1.1574074074074074e-3, 3.527336860670194e-4, -1.7875514403292181e-4,
	3.9192631785224378e-5, -2.1854485106799922e-6, -1.85406221071516e-6,
	8.296711340953086e-7, -1.7665952736826079e-7, 6.7078535434014986e-9,
	1.0261809784240308e-8, -4.3820360184533532e-9, 9.1476995822367902e-10,
	-2.551419399494625e-11, -5.8307721325504251e-11, 2.4361948020667416e-11,
	-5.0276692801141756e-12, 1.1004392031956135e-13, 3.3717632624009854e-13,
	-1.3923887224181621e-13, 2.8534893807047443e-14, -5.1391118342425726e-16,
	-1.9752288294349443e-15},
	{-1.8518518518518519e-3, -3.4722222222222222e-3, 2.6455026455026455e-3,
		-9.9022633744855967e-4, 2.0576131687242798e-4, -4.0187757201646091e-7,
		-1.8098550334489978e-5, 7.6491609160811101e-6, -1.6120900894563446e-6,
		4.6471278028074343e-9, 1.378633446915721e-7, -5.752545603517705e-8,
		1.1951628599778147e-8, -1.7543241719747648e-11, -1.0091543710600413e-9,
		4.1627929918425826e-10, -8.5639070264929806e-11, 6.0672151016047586e-14,
		7.1624989648114854e-12, -2.9331866437714371e-12, 5.9966963656836887e-13,
		-2.1671786527323314e-16, -4.9783399723692616e-14, 2.0291628823713425e-14,
		-4.13125571381061e-15},
	{4.1335978835978836e-3, -2.6813271604938272e-3, 7.7160493827160494e-4,
		2.0093878600823045e-6, -1.0736653226365161e-4, 5.2923448829120125e-5,
		-1.2760635188618728e-5, 3.4235787340961381e-8, 1.3721957309062933e-6,
		-6.298992138380055e-7, 1.4280614206064242e-7, -2.0477098421990866e-10,
		-1.4092529910867521e-8, 6.228974084922022e-9, -1.3670488396617113e-9,
		9.4283561590146782e-13, 1.2872252400089318e-10, -5.5645956134363321e-11,
		1.1975935546366981e-11, -4.1689782251838635e-15, -1.0940640427884594e-12,
		4.6622399463901357e-13, -9.905105763906906e-14, 1.8931876768373515e-17,
		8.8592218725911273e-15},
	{6.4943415637860082e-4, 2.2947209362139918e-4, -4.6918949439525571e-4,
		2.6772063206283885e-4, -7.5618016718839764e-5, -2.3965051138672967e-7,
		1.1082654115347302e-5, -5.6749528269915966e-6, 1.4230900732435884e-6,
		-2.7861080291528142e-11, -1.6958404091930277e-7, 8.0994649053880824e-8,
		-1.9111168485973654e-8, 2.3928620439808118e-12, 2.0620131815488798e-9,
		-9.4604966618551322e-10, 2.1541049775774908e-10, -1.388823336813903e-14,
		-2.1894761681963939e-11, 9.7909989511716851e-12, -2.1782191880180962e-12,
		6.2088195734079014e-17, 2.126978363279737e-13, -9.3446887915174333e-14,
		2.0453671226782849e-14},
	{-8.618882909167117e-4, 7.8403922172006663e-4, -2.9907248030319018e-4,
		-1.4638452578843418e-6, 6.6414982154651222e-5, -3.9683650471794347e-5,
		1.1375726970678419e-5, 2.5074972262375328e-10, -1.6954149536558306e-6,
		8.9075075322053097e-7, -2.2929348340008049e-7, 2.956794137544049e-11,
		2.8865829742708784e-8, -1.4189739437803219e-8, 3.4463580499464897e-9,
		-2.3024517174528067e-13, -3.9409233028046405e-10, 1.8602338968504502e-10,
		-4.356323005056618e-11, 1.2786001016296231e-15, 4.6792750266579195e-12,
		-2.1492464706134829e-12, 4.9088156148096522e-13, -6.3385914848915603e-18,
		-5.0453320690800944e-14},
	{-3.3679855336635815e-4, -6.9728137583658578e-5, 2.7727532449593921e-4,
		-1.9932570516188848e-4, 6.7977804779372078e-5, 1.419062920643967e-7,
		-1.3594048189768693e-5, 8.0184702563342015e-6, -2.2914811765080952e-6,
		-3.252473551298454e-10, 3.4652846491085265e-7, -1.8447187191171343e-7,
		4.8240967037894181e-8, -1.7989466721743515e-14, -6.3061945000135234e-9,
		3.1624176287745679e-9, -7.8409242536974293e-10, 5.1926791652540407e-15,
		9.3589442423067836e-11, -4.5134262161632782e-11, 1.0799129993116827e-11,
		-3.661886712685252e-17, -1.210902069055155e-12, 5.6807435849905643e-13,
		-1.3249659916340829e-13},
	{5.3130793646399222e-4, -5.9216643735369388e-4, 2.7087820967180448e-4,
		7.9023532326603279e-7, -8.1539693675619688e-5, 5.6116827531062497e-5,
		-1.8329116582843376e-5, -3.0796134506033048e-9, 3.4651553688036091e-6,
		-2.0291327396058604e-6, 5.7887928631490037e-7, 2.338630673826657e-13,
		-8.8286007463304835e-8, 4.7435958880408128e-8, -1.2545415020710382e-8,
		8.6496488580102925e-14, 1.6846058979264063e-9, -8.5754928235775947e-10,
		2.1598224929232125e-10, -7.6132305204761539e-16, -2.6639822008536144e-11,
		1.3065700536611057e-11, -3.1799163902367977e-12, 4.7109761213674315e-18,
		3.6902800842763467e-13},
	{3.4436760689237767e-4, 5.1717909082605922e-5, -3.3493161081142236e-4,
		2.812695154763237e-4, -1.0976582244684731e-4, -1.2741009095484485e-7,
		2.7744451511563644e-5, -1.8263488805711333e-5, 5.7876949497350524e-6,
		4.9387589339362704e-10, -1.0595367014026043e-6, 6.1667143761104075e-7,
		-1.7562973359060462e-7, -1.2974473287015439e-12, 2.695423606288966e-8,
		-1.4578352908731271e-8, 3.887645959386175e-9, -3.8810022510194121e-17,
		-5.3279941738772867e-10, 2.7437977643314845e-10, -6.9957960920705679e-11,
		2.5899863874868481e-17, 8.8566890996696381e-12, -4.403168815871311e-12,
		1.0865561947091654e-12},
	{-6.5262391859530942e-4, 8.3949872067208728e-4, -4.3829709854172101e-4,
		-6.969091458420552e-7, 1.6644846642067548e-4, -1.2783517679769219e-4,
		4.6299532636913043e-5, 4.5579098679227077e-9, -1.0595271125805195e-5,
		6.7833429048651666e-6, -2.1075476666258804e-6, -1.7213731432817145e-11,
		3.7735877416110979e-7, -2.1867506700122867e-7, 6.2202288040189269e-8,
		6.5977038267330006e-16, -9.5903864974256858e-9, 5.2132144922808078e-9,
		-1.3991589583935709e-9, 5.382058999060575e-16, 1.9484714275467745e-10,
		-1.0127287556389682e-10, 2.6077347197254926e-11, -5.0904186999932993e-18,
		-3.3721464474854592e-12},
	{-5.9676129019274625e-4, -7.2048954160200106e-5, 6.7823088376673284e-4,
		-6.4014752602627585e-4, 2.7750107634328704e-4, 1.8197008380465151e-7,
		-8.4795071170685032e-5, 6.105192082501531e-5, -2.1073920183404862e-5,
		-8.8585890141255994e-10, 4.5284535953805377e-6, -2.8427815022504408e-6,
		8.7082341778646412e-7, 3.6886101871706965e-12, -1.5344695190702061e-7,
		8.862466778790695e-8, -2.5184812301826817e-8, -1.0225912098215092e-14,
		3.8969470758154777e-9, -2.1267304792235635e-9, 5.7370135528051385e-10,
		-1.887749850169741e-19, -8.0931538694657866e-11, 4.2382723283449199e-11,
		-1.1002224534207726e-11},
	{1.3324454494800656e-3, -1.9144384985654775e-3, 1.1089369134596637e-3,
		9.932404122642299e-7, -5.0874501293093199e-4, 4.2735056665392884e-4,
		-1.6858853767910799e-4, -8.1301893922784998e-9, 4.5284402370562147e-5,
		-3.127053674781734e-5, 1.044986828530338e-5, 4.8435226265680926e-11,
		-2.1482565873456258e-6, 1.329369701097492e-6, -4.0295693092101029e-7,
		-1.7567877666323291e-13, 7.0145043163668257e-8, -4.040787734999483e-8,
		1.1474026743371963e-8, 3.9642746853563325e-18, -1.7804938269892714e-9,
		9.7480262548731646e-10, -2.6405338676507616e-10, 5.794875163403742e-18,
		3.7647749553543836e-11},
	{1.579727660730835e-3, 1.6251626278391582e-4, -2.0633421035543276e-3,
		2.1389686185689098e-3, -1.0108559391263003e-3, -3.9912705529919201e-7,
		3.6235025084764691e-4, -2.8143901463712154e-4, 1.0449513336495887e-4,
		2.1211418491830297e-9, -2.5779417251947842e-5, 1.7281818956040463e-5,
		-5.6413773872904282e-6, -1.1024320105776174e-11, 1.1223224418895175e-6,
		-6.8693396379526735e-7, 2.0653236975414887e-7, 4.6714772409838506e-14,
		-3.5609886164949055e-8, 2.0470855345905963e-8, -5.8091738633283358e-9,
		-1.332821287582869e-16, 9.0354604391335133e-10, -4.9598782517330834e-10,
		1.3481607129399749e-10},
	{-4.0725121195140166e-3, 6.4033628338080698e-3, -4.0410161081676618e-3,
		-2.183732802866233e-6, 2.1740441801254639e-3, -1.9700440518418892e-3,
		8.3595469747962458e-4, 1.9445447567109655e-8, -2.5779387120421696e-4,
		1.9009987368139304e-4, -6.7696499937438965e-5, -1.4440629666426572e-10,
		1.5712512518742269e-5, -1.0304008744776893e-5, 3.304517767401387e-6,
		7.9829760242325709e-13, -6.4097794149313004e-7, 3.8894624761300056e-7,
		-1.1618347644948869e-7, -2.816808630596451e-15, 1.9878012911297093e-8,
		-1.1407719956357511e-8, 3.2355857064185555e-9, 4.1759468293455945e-20,
		-5.0423112718105824e-10},
	{-5.9475779383993003e-3, -5.4016476789260452e-4, 8.7910413550767898e-3,
		-9.8576315587856125e-3, 5.0134695031021538e-3, 1.2807521786221875e-6,
		-2.0626019342754683e-3, 1.7109128573523058e-3, -6.7695312714133799e-4,
		-6.9011545676562133e-9, 1.8855128143995902e-4, -1.3395215663491969e-4,
		4.6263183033528039e-5, 4.0034230613321351e-11, -1.0255652921494033e-5,
		6.612086372797651e-6, -2.0913022027253008e-6, -2.0951775649603837e-13,
		3.9756029041993247e-7, -2.3956211978815887e-7, 7.1182883382145864e-8,
		8.925574873053455e-16, -1.2101547235064676e-8, 6.9350618248334386e-9,
		-1.9661464453856102e-9},
	{1.7402027787522711e-2, -2.9527880945699121e-2, 2.0045875571402799e-2,
		7.0289515966903407e-6, -1.2375421071343148e-2, 1.1976293444235254e-2,
		-5.4156038466518525e-3, -6.3290893396418616e-8, 1.8855118129005065e-3,
		-1.473473274825001e-3, 5.5515810097708387e-4, 5.2406834412550662e-10,
		-1.4357913535784836e-4, 9.9181293224943297e-5, -3.3460834749478311e-5,
		-3.5755837291098993e-12, 7.1560851960630076e-6, -4.5516802628155526e-6,
		1.4236576649271475e-6, 1.8803149082089664e-14, -2.6623403898929211e-7,
		1.5950642189595716e-7, -4.7187514673841102e-8, -6.5107872958755177e-17,
		7.9795091026746235e-9},
	{3.0249124160905891e-2, 2.4817436002649977e-3, -4.9939134373457022e-2,
		5.9915643009307869e-2, -3.2483207601623391e-2, -5.7212968652103441e-6,
		1.5085251778569354e-2, -1.3261324005088445e-2, 5.5515262632426148e-3,
		3.0263182257030016e-8, -1.7229548406756723e-3, 1.2893570099929637e-3,
		-4.6845138348319876e-4, -1.830259937893045e-10, 1.1449739014822654e-4,
		-7.7378565221244477e-5, 2.5625836246985201e-5, 1.0766165333192814e-12,
		-5.3246809282422621e-6, 3.349634863064464e-6, -1.0381253128684018e-6,
		-5.608909920621128e-15, 1.9150821930676591e-7, -1.1418365800203486e-7,
		3.3654425209171788e-8},
	{-9.9051020880159045e-2, 1.7954011706123486e-1, -1.2989606383463778e-1,
		-3.1478872752284357e-5, 9.0510635276848131e-2, -9.2828824411184397e-2,
		4.4412112839877808e-2, 2.7779236316835888e-7, -1.7229543805449697e-2,
		1.4182925050891573e-2, -5.6214161633747336e-3, -2.39598509186381e-9,
		1.6029634366079908e-3, -1.1606784674435773e-3, 4.1001337768153873e-4,
		1.8365800754090661e-11, -9.5844256563655903e-5, 6.3643062337764708e-5,
		-2.076250624489065e-5, -1.1806020912804483e-13, 4.2131808239120649e-6,
		-2.6262241337012467e-6, 8.0770620494930662e-7, 6.0125912123632725e-16,
		-1.4729737374018841e-7},
	{-1.9994542198219728e-1, -1.5056113040026424e-2, 3.6470239469348489e-1,
		-4.6435192311733545e-1, 2.6640934719197893e-1, 3.4038266027147191e-5,
		-1.3784338709329624e-1, 1.276467178337056e-1, -5.6213828755200985e-2,
		-1.753150885483011e-7, 1.9235592956768113e-2, -1.5088821281095315e-2,
		5.7401854451350123e-3, 1.0622382710310225e-9, -1.5335082692563998e-3,
		1.0819320643228214e-3, -3.7372510193945659e-4, -6.6170909729031985e-12,
		8.4263617380909628e-5, -5.5150706827483479e-5, 1.7769536448348069e-5,
		3.8827923210205533e-14, -3.53513697488768e-6, 2.1865832130045269e-6,
		-6.6812849447625594e-7},
	{7.2438608504029431e-1, -1.3918010932653375, 1.0654143352413968,
		1.876173868950258e-4, -8.2705501176152696e-1, 8.9352433347828414e-1,
		-4.4971003995291339e-1, -1.6107401567546652e-6, 1.9235590165271091e-1,
		-1.6597702160042609e-1, 6.8882222681814333e-2, 1.3910091724608687e-8,
		-2.146911561508663e-2, 1.6228980898865892e-2, -5.9796016172584256e-3,
		-1.1287469112826745e-10, 1.5167451119784857e-3, -1.0478634293553899e-3,
		3.5539072889126421e-4, 8.1704322111801517e-13, -7.7773013442452395e-5,
		5.0291413897007722e-5, -1.6035083867000518e-5, 1.2469354315487605e-14,
		3.1369106244517615e-6},
	{1.6668949727276811, 1.165462765994632e-1, -3.3288393225018906,
		4.4692325482864037, -2.6977693045875807, -2.600667859891061e-4,
		1.5389017615694539, -1.4937962361134612, 6.8881964633233148e-1,
		1.3077482004552385e-6, -2.5762963325596288e-1, 2.1097676102125449e-1,
		-8.3714408359219882e-2, -7.7920428881354753e-9, 2.4267923064833599e-2,
		-1.7813678334552311e-2, 6.3970330388900056e-3, 4.9430807090480523e-11,
		-1.5554602758465635e-3, 1.0561196919903214e-3, -3.5277184460472902e-4,
		9.3002334645022459e-14, 7.5285855026557172e-5, -4.8186515569156351e-5,
		1.5227271505597605e-5},
	{-6.6188298861372935, 1.3397985455142589e+1, -1.0789350606845146e+1,
		-1.4352254537875018e-3, 9.2333694596189809, -1.0456552819547769e+1,
		5.5105526029033471, 1.2024439690716742e-5, -2.5762961164755816,
		2.3207442745387179, -1.0045728797216284, -1.0207833290021914e-7,
		3.3975092171169466e-1, -2.6720517450757468e-1, 1.0235252851562706e-1,
		8.4329730484871625e-10, -2.7998284958442595e-2, 2.0066274144976813e-2,
		-7.0554368915086242e-3, 1.9402238183698188e-12, 1.6562888105449611e-3,
		-1.1082898580743683e-3, 3.654545161310169e-4, -5.1290032026971794e-11,
		-7.6340103696869031e-5},
	{-1.7112706061976095e+1, -1.1208044642899116, 3.7131966511885444e+1,
		-5.2298271025348962e+1, 3.3058589696624618e+1, 2.4791298976200222e-3,
		-2.061089403411526e+1, 2.088672775145582e+1, -1.0045703956517752e+1,
		-1.2238783449063012e-5, 4.0770134274221141, -3.473667358470195,
		1.4329352617312006, 7.1359914411879712e-8, -4.4797257159115612e-1,
		3.4112666080644461e-1, -1.2699786326594923e-1, -2.8953677269081528e-10,
		3.3125776278259863e-2, -2.3274087021036101e-2, 8.0399993503648882e-3,
		-1.177805216235265e-9, -1.8321624891071668e-3, 1.2108282933588665e-3,
		-3.9479941246822517e-4},
	{7.389033153567425e+1, -1.5680141270402273e+2, 1.322177542759164e+2,
		1.3692876877324546e-2, -1.2366496885920151e+2, 1.4620689391062729e+2,
		-8.0365587724865346e+1, -1.1259851148881298e-4, 4.0770132196179938e+1,
		-3.8210340013273034e+1, 1.719522294277362e+1, 9.3519707955168356e-7,
		-6.2716159907747034, 5.1168999071852637, -2.0319658112299095,
		-4.9507215582761543e-9, 5.9626397294332597e-1, -4.4220765337238094e-1,
		1.6079998700166273e-1, -2.4733786203223402e-8, -4.0307574759979762e-2,
		2.7849050747097869e-2, -9.4751858992054221e-3, 6.419922235909132e-6,
		2.1250180774699461e-3},
	{2.1216837098382522e+2, 1.3107863022633868e+1, -4.9698285932871748e+2,
		7.3121595266969204e+2, -4.8213821720890847e+2, -2.8817248692894889e-2,
		3.2616720302947102e+2, -3.4389340280087117e+2, 1.7195193870816232e+2,
		1.4038077378096158e-4, -7.52594195897599e+1, 6.651969984520934e+1,
		-2.8447519748152462e+1, -7.613702615875391e-7, 9.5402237105304373,
		-7.5175301113311376, 2.8943997568871961, -4.6612194999538201e-7,
		-8.0615149598794088e-1, 5.8483006570631029e-1, -2.0845408972964956e-1,
		1.4765818959305817e-4, 5.1000433863753019e-2, -3.3066252141883665e-2,
		1.5109265210467774e-2},
	{-9.8959643098322368e+2, 2.1925555360905233e+3, -1.9283586782723356e+3,
		-1.5925738122215253e-1, 1.9569985945919857e+3, -2.4072514765081556e+3,
		1.3756149959336496e+3, 1.2920735237496668e-3, -7.525941715948055e+2,
		7.3171668742208716e+2, -3.4137023466220065e+2, -9.9857390260608043e-6,
		1.3356313181291573e+2, -1.1276295161252794e+2, 4.6310396098204458e+1,
		-7.9237387133614756e-6, -1.4510726927018646e+1, 1.1111771248100563e+1,
		-4.1690817945270892, 3.1008219800117808e-3, 1.1220095449981468,
		-7.6052379926149916e-1, 3.6262236505085254e-1, 2.216867741940747e-1,
		4.8683443692930507e-1},
}

// ---- stft, istft (real form) ----

// misc2Trig holds cos and sin of 2πj/n, exact at the quarter turns.
type misc2Trig struct {
	n        int
	cos, sin []float64
}

func misc2NewTrig(n int) *misc2Trig {
	t := &misc2Trig{n: n, cos: make([]float64, n), sin: make([]float64, n)}
	for j := range t.cos {
		t.sin[j], t.cos[j] = math.Sincos(2 * math.Pi * float64(j) / float64(n))
		switch {
		case 4*j == n:
			t.cos[j], t.sin[j] = 0, 1
		case 2*j == n:
			t.cos[j], t.sin[j] = -1, 0
		case 4*j == 3*n:
			t.cos[j], t.sin[j] = 0, -1
		}
	}
	return t
}

// misc2DFT is the length-n DFT of in, Σ_j in[j]·e^{∓2πi·jk/n} (forward:
// the minus sign), by mixed-radix decimation in time: the smallest prime
// factor p splits it into p interleaved DFTs of n/p points; a prime length
// is summed directly.
func (t *misc2Trig) misc2DFT(in []complex128, forward bool) []complex128 {
	out := make([]complex128, len(in))
	tmp := make([]complex128, len(in))
	t.dft(in, 1, len(in), out, tmp, forward)
	return out
}

// dft writes the DFT of the n points in[0], in[stride], ... into out,
// using tmp (n values) as scratch.
func (t *misc2Trig) dft(in []complex128, stride, n int, out, tmp []complex128, forward bool) {
	if n == 1 {
		out[0] = in[0]
		return
	}
	tw := func(j int) complex128 { // e^{∓2πi·j/n}
		k := j % n * (t.n / n)
		if forward {
			return complex(t.cos[k], -t.sin[k])
		}
		return complex(t.cos[k], t.sin[k])
	}
	p := 2
	for p*p <= n && n%p != 0 {
		p++
	}
	if n%p != 0 {
		p = n
	}
	if p == n {
		for k := 0; k < n; k++ {
			var s complex128
			for j := 0; j < n; j++ {
				s += in[j*stride] * tw(j*k)
			}
			out[k] = s
		}
		return
	}
	m := n / p
	for r := 0; r < p; r++ {
		t.dft(in[r*stride:], stride*p, m, tmp[r*m:(r+1)*m], out[r*m:(r+1)*m], forward)
	}
	for q := 0; q < p; q++ {
		for k := 0; k < m; k++ {
			var s complex128
			for r := 0; r < p; r++ {
				s += tmp[r*m+k] * tw(r*(k+m*q))
			}
			out[k+m*q] = s
		}
	}
}

// misc2FFTDType checks the dtypes PyTorch's CPU FFT takes (float32 and
// float64) and returns the promoted dtype of the signal and the window.
func misc2FFTDType(name string, x, w *array) (tensor.DType, error) {
	dt := x.dtype
	if w != nil {
		dt = resultType(x, w)
	}
	if !x.dtype.IsFloat() {
		return 0, fmt.Errorf("%s: expected a tensor of floating point or complex values", name)
	}
	if dt != tensor.Float32 && dt != tensor.Float64 {
		// PyTorch 1.13's messages for float16 and bfloat16 (its CPU FFT
		// has float32 and float64 kernels only)
		if name == "stft" {
			return 0, fmt.Errorf("expected scalar type ComplexDouble but found %s", map[bool]string{true: "ComplexHalf", false: "ComplexFloat"}[dt == tensor.Float16])
		}
		if dt == tensor.BFloat16 {
			return 0, errors.New("view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: BFloat16")
		}
		return 0, fmt.Errorf("expected scalar type Double but found %s", ops.TypeName(dt))
	}
	return dt, nil
}

// misc2Window is the window of n_fft points: the given window (or ones) of
// win_length points centred with zeros; used false when the frames are
// not multiplied (stft without window and win_length = n_fft).
func misc2Window(name string, w *array, nfft, winLen int, dt tensor.DType) (win []float64, used bool, err error) {
	if w != nil && (w.rank() != 1 || w.shape[0] != winLen) {
		return nil, false, fmt.Errorf("%s: expected a 1D window tensor of size equal to win_length=%d, but got window with size %s", name, winLen, ops.ShapeList(w.shape))
	}
	win = make([]float64, nfft)
	left := (nfft - winLen) / 2
	for i := 0; i < winLen; i++ {
		win[left+i] = 1
		if w != nil {
			win[left+i] = roundTo(dt, w.data[i])
		}
	}
	return win, w != nil || winLen < nfft, nil
}

// misc2STFTPlan is a checked stft call: the padded signal rows and the
// frame layout.
type misc2STFTPlan struct {
	batch, length, padded, pad int
	nfft, hop, frames, bins    int
	src                        []int // padded position -> signal position (-1: zero)
	win                        []float64
	useWin                     bool
	norm                       float64
	dt                         tensor.DType
	trig                       *misc2Trig
}

func misc2STFTPrepare(c *call) (*misc2STFTPlan, error) {
	x, w := c.in[0], c.in[1]
	dt, err := misc2FFTDType("stft", x, w)
	if err != nil {
		return nil, err
	}
	if x.rank() < 1 || x.rank() > 2 {
		return nil, errors.New("stft: expected a 1D or 2D tensor")
	}
	p := &misc2STFTPlan{batch: 1, dt: dt}
	p.length = x.shape[x.rank()-1]
	if x.rank() == 2 {
		p.batch = x.shape[0]
	}
	p.nfft = int(c.attrs.Int("n_fft", 0))
	p.hop = int(c.attrs.Int("hop_length", int64(p.nfft/4)))
	winLen := int(c.attrs.Int("win_length", int64(p.nfft)))
	p.padded = p.length
	if c.attrs.Bool("center", true) && p.nfft > 0 {
		p.pad = p.nfft / 2
		p.padded += 2 * p.pad
	}
	mode := c.attrs.Str("pad_mode", "reflect")
	p.src = make([]int, p.padded)
	for j := range p.src {
		i := j - p.pad
		switch {
		case i >= 0 && i < p.length:
		case mode == "constant":
			i = -1
		case mode == "reflect":
			if p.pad >= p.length {
				return nil, fmt.Errorf("Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension 2 of input [1, %d, %d]",
					p.pad, p.pad, p.batch, p.length)
			}
			if i < 0 {
				i = -i
			} else {
				i = 2*(p.length-1) - i
			}
		case mode == "replicate":
			i = max(0, min(i, p.length-1))
		case mode == "circular":
			if p.pad > p.length {
				return nil, errors.New("Padding value causes wrapping around more than once.")
			}
			i = (i%p.length + p.length) % p.length
		default:
			return nil, fmt.Errorf("stft: unknown pad_mode %q", mode)
		}
		p.src[j] = i
	}
	switch {
	case p.nfft <= 0 || p.nfft > p.padded:
		return nil, fmt.Errorf("stft: expected 0 < n_fft < %d, but got n_fft=%d", p.padded, p.nfft)
	case p.hop <= 0:
		return nil, fmt.Errorf("stft: expected hop_length > 0, but got hop_length=%d", p.hop)
	case winLen <= 0 || winLen > p.nfft:
		return nil, fmt.Errorf("stft: expected 0 < win_length <= n_fft, but got win_length=%d", winLen)
	}
	if p.win, p.useWin, err = misc2Window("stft", w, p.nfft, winLen, dt); err != nil {
		return nil, err
	}
	p.frames = 1 + (p.padded-p.nfft)/p.hop
	p.bins = p.nfft
	if c.attrs.Bool("onesided", true) {
		p.bins = p.nfft/2 + 1
	}
	p.norm = 1
	if c.attrs.Bool("normalized", false) {
		p.norm = 1 / math.Sqrt(float64(p.nfft))
	}
	p.trig = misc2NewTrig(p.nfft)
	return p, nil
}

func (p *misc2STFTPlan) outShape(rank int) []int {
	s := []int{p.bins, p.frames, 2}
	if rank == 2 {
		s = append([]int{p.batch}, s...)
	}
	return s
}

// misc2STFTForward is PyTorch's stft with return_complex=False: the
// centred signal padded by pad_mode, frames of n_fft every hop_length
// multiplied by the window at the dtype, their DFT (onesided: the first
// n_fft/2+1 bins; normalized: times 1/sqrt(n_fft)) as [..., bins, frames,
// (re, im)].
func misc2STFTForward(c *call) ([]*array, error) {
	x := c.in[0]
	p, err := misc2STFTPrepare(c)
	if err != nil {
		return nil, err
	}
	out := newArray(p.dt, p.outShape(x.rank()))
	rnd := roundFunc(p.dt)
	n := p.nfft
	forChunks(p.batch*p.frames, func(from, to int) error {
		y := make([]complex128, n)
		for bf := from; bf < to; bf++ {
			b, f := bf/p.frames, bf%p.frames
			row := x.data[b*p.length : (b+1)*p.length]
			for i := range y {
				v := 0.0
				if s := p.src[f*p.hop+i]; s >= 0 {
					v = row[s]
				}
				if p.useWin {
					v = rnd(v * p.win[i])
				}
				y[i] = complex(v, 0)
			}
			fy := p.trig.misc2DFT(y, true)
			for k := 0; k < p.bins; k++ {
				o := ((b*p.bins+k)*p.frames + f) * 2
				out.data[o], out.data[o+1] = real(fy[k])*p.norm, imag(fy[k])*p.norm
			}
		}
		return nil
	})
	return []*array{out}, nil
}

// misc2STFTBackward: the adjoint of each frame's DFT, times the window,
// added up over the frames in order, then through the padding.
func misc2STFTBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	p, err := misc2STFTPrepare(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], len(outs[0].data))
	n := p.nfft
	dy := make([]float64, p.batch*p.frames*n)
	forChunks(p.batch*p.frames, func(from, to int) error {
		for bf := from; bf < to; bf++ {
			b, f := bf/p.frames, bf%p.frames
			// dy_i = Σ_k gRe_k cos θ - gIm_k sin θ = Re Σ_k G_k e^{+iθ}
			G := make([]complex128, n)
			for k := 0; k < p.bins; k++ {
				o := ((b*p.bins+k)*p.frames + f) * 2
				G[k] = complex(g[o], g[o+1])
			}
			gy := p.trig.misc2DFT(G, false)
			d := dy[bf*n : (bf+1)*n]
			for i := range d {
				s := real(gy[i]) * p.norm
				if p.useWin {
					s *= p.win[i]
				}
				d[i] = s
			}
		}
		return nil
	})
	// the frames' gradients reach the padded signal at its dtype (the
	// window's product may have promoted them)
	rnd := roundFunc(x.dtype)
	gx := zeros(len(x.data))
	for b := 0; b < p.batch; b++ {
		gpad := make([]float64, p.padded)
		for f := 0; f < p.frames; f++ {
			d := dy[(b*p.frames+f)*n : (b*p.frames+f+1)*n]
			for i, v := range d {
				gpad[f*p.hop+i] = rnd(gpad[f*p.hop+i] + rnd(v))
			}
		}
		row := gx[b*p.length : (b+1)*p.length]
		for j, v := range gpad {
			if s := p.src[j]; s >= 0 {
				row[s] = rnd(row[s] + v)
			}
		}
	}
	return []*array{gradForOwned(c, 0, gx, x.shape), nil}, nil
}

// misc2ISTFTPlan is a checked istft call.
type misc2ISTFTPlan struct {
	batch, bins, frames, nfft, hop int
	expected, start, end, outLen   int
	win, env                       []float64
	norm                           float64
	dt, xdt                        tensor.DType
	trig                           *misc2Trig
}

func misc2ISTFTPrepare(c *call) (*misc2ISTFTPlan, error) {
	x, w := c.in[0], c.in[1]
	dt, err := misc2FFTDType("istft", x, w)
	if err != nil {
		return nil, err
	}
	r := x.rank()
	switch {
	case len(x.data) == 0:
		return nil, errors.New("istft: input tensor cannot be empty.")
	case r != 3 && r != 4:
		return nil, fmt.Errorf("istft: expected a tensor with 3 or 4 dimensions of complex dtype, but got %d", r)
	case x.shape[r-1] != 2:
		return nil, fmt.Errorf("istft: expected the last dimension to be 2 (corresponding to real and imaginary parts), but got %d", x.shape[r-1])
	}
	p := &misc2ISTFTPlan{batch: 1, dt: dt, xdt: x.dtype, bins: x.shape[r-3], frames: x.shape[r-2]}
	if r == 4 {
		p.batch = x.shape[0]
	}
	p.nfft = int(c.attrs.Int("n_fft", 0))
	p.hop = int(c.attrs.Int("hop_length", int64(p.nfft>>2)))
	winLen := int(c.attrs.Int("win_length", int64(p.nfft)))
	p.expected = p.nfft + p.hop*(p.frames-1)
	onesided := c.attrs.Bool("onesided", p.bins != p.nfft)
	switch {
	case onesided && p.nfft/2+1 != p.bins:
		return nil, fmt.Errorf("istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 when onesided=True, but got %d", p.bins)
	case !onesided && p.nfft != p.bins:
		return nil, fmt.Errorf("istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when onesided=False, but got %d", p.bins)
	case !(0 < p.hop && p.hop <= winLen):
		return nil, errors.New("istft(...) expected 0 < hop_length <= win_length")
	case !(0 < winLen && winLen <= p.nfft):
		return nil, errors.New("istft(...) expected 0 < win_length <= n_fft")
	}
	if p.win, _, err = misc2Window("istft", w, p.nfft, winLen, dt); err != nil {
		return nil, err
	}
	p.norm = 1 / float64(p.nfft)
	if c.attrs.Bool("normalized", false) {
		p.norm = 1 / math.Sqrt(float64(p.nfft))
	}
	center := c.attrs.Bool("center", true)
	if center {
		p.start = p.nfft / 2
	}
	switch {
	case !c.attrs.IsNone("length"):
		p.end = p.start + int(c.attrs.Int("length", 0))
	case center:
		p.end = p.expected - p.nfft/2
	default:
		p.end = p.expected
	}
	if p.end < p.start {
		return nil, fmt.Errorf("istft: the output length %d is negative", p.end-p.start)
	}
	p.outLen = p.end - p.start
	rnd := roundFunc(dt)
	p.env = make([]float64, p.expected)
	for f := 0; f < p.frames; f++ {
		for i, v := range p.win {
			p.env[f*p.hop+i] = rnd(p.env[f*p.hop+i] + rnd(v*v))
		}
	}
	for j := p.start; j < min(p.end, p.expected); j++ {
		if math.Abs(p.env[j]) < 1e-11 {
			return nil, errors.New("istft: window overlap add min: 1")
		}
	}
	p.trig = misc2NewTrig(p.nfft)
	return p, nil
}

// misc2C2RWeight is c_k of the inverse real DFT: bins other than 0 and
// n/2 stand for themselves and their conjugate.
func misc2C2RWeight(k, n int) float64 {
	if k == 0 || 2*k == n {
		return 1
	}
	return 2
}

// misc2ISTFTForward is PyTorch's istft of the real form [..., bins,
// frames, 2] with return_complex=False: each frame's inverse real DFT of
// the first n_fft/2+1 bins (norm 1/n_fft, or 1/sqrt(n_fft) normalized) at
// the dtype, times the window, overlap-added; divided by the overlap-added
// squared window and trimmed (center: n_fft/2 each side; length: padded
// with zeros beyond the frames).
func misc2ISTFTForward(c *call) ([]*array, error) {
	x := c.in[0]
	p, err := misc2ISTFTPrepare(c)
	if err != nil {
		return nil, err
	}
	shape := []int{p.outLen}
	if x.rank() == 4 {
		shape = []int{p.batch, p.outLen}
	}
	out := newArray(p.dt, shape)
	rnd, rndX := roundFunc(p.dt), roundFunc(p.xdt)
	n, kuse := p.nfft, p.nfft/2+1
	frames := make([]float64, p.batch*p.frames*n)
	forChunks(p.batch*p.frames, func(from, to int) error {
		for bf := from; bf < to; bf++ {
			b, f := bf/p.frames, bf%p.frames
			// x_i = Σ_k c_k (Re X_k cos θ - Im X_k sin θ) = Re Σ_k c_k X_k e^{+iθ}
			X := make([]complex128, n)
			for k := 0; k < kuse; k++ {
				o := ((b*p.bins+k)*p.frames + f) * 2
				X[k] = complex(misc2C2RWeight(k, n)*x.data[o], misc2C2RWeight(k, n)*x.data[o+1])
			}
			fx := p.trig.misc2DFT(X, false)
			fr := frames[bf*n : (bf+1)*n]
			for i := range fr {
				fr[i] = rnd(rndX(real(fx[i])*p.norm) * p.win[i])
			}
		}
		return nil
	})
	for b := 0; b < p.batch; b++ {
		y := make([]float64, p.expected)
		for f := 0; f < p.frames; f++ {
			for i, v := range frames[(b*p.frames+f)*n : (b*p.frames+f+1)*n] {
				y[f*p.hop+i] = rnd(y[f*p.hop+i] + v)
			}
		}
		row := out.data[b*p.outLen : (b+1)*p.outLen]
		for j := p.start; j < min(p.end, p.expected); j++ {
			row[j-p.start] = y[j] / p.env[j]
		}
	}
	return []*array{out}, nil
}

// misc2ISTFTBackward: the output gradient divided by the envelope, read
// back into each frame, times the window, through the adjoint of the
// inverse real DFT (PyTorch's c2r backward: an r2c with the bins other
// than 0 and n/2 doubled; bins past n/2 of a full input get none).
func misc2ISTFTBackward(c *call, outs, gos []*array) ([]*array, error) {
	x := c.in[0]
	p, err := misc2ISTFTPrepare(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], len(outs[0].data))
	n, kuse := p.nfft, p.nfft/2+1
	gx := zeros(len(x.data))
	gfull := make([]float64, p.batch*p.expected)
	for b := 0; b < p.batch; b++ {
		for j := p.start; j < min(p.end, p.expected); j++ {
			gfull[b*p.expected+j] = g[b*p.outLen+j-p.start] / p.env[j]
		}
	}
	forChunks(p.batch*p.frames, func(from, to int) error {
		gf := make([]complex128, n)
		for bf := from; bf < to; bf++ {
			b, f := bf/p.frames, bf%p.frames
			for i := range gf {
				gf[i] = complex(gfull[b*p.expected+f*p.hop+i]*p.win[i], 0)
			}
			fg := p.trig.misc2DFT(gf, true)
			for k := 0; k < kuse; k++ {
				s := p.norm * misc2C2RWeight(k, n)
				o := ((b*p.bins+k)*p.frames + f) * 2
				gx[o], gx[o+1] = real(fg[k])*s, imag(fg[k])*s
			}
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, gx, x.shape), nil}, nil
}
