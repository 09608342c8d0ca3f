package standard

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// reference computes every metric in the spec's own multi-pass, array-based
// formulation (pytorch-precheck §6.3-§6.11), with NumPy's dtype rounding
// written out element by element, from the pure functions of metrics.go
// where they apply. Measure must agree with it.
func reference(bench, dev *tensor.Tensor, compat bool) Stats {
	b, d := bench.Float64s(), dev.Float64s()
	n := len(b)
	devA, benchA := arrayDType(dev.DType, dev.DType), arrayDType(bench.DType, dev.DType)
	f32 := benchA != tensor.Float64 && devA != tensor.Float64
	rp := func(x float64) float64 { // the promoted dtype
		if f32 {
			return float64(float32(x))
		}
		return x
	}
	eps := tensor.Eps(benchA)
	if dev.DType == tensor.BFloat16 {
		eps = BF16Eps
	}
	ds := dev.DType.TorchName()
	absErr, rel, bid := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range b {
		absErr[i] = rp(math.Abs(d[i] - b[i]))
		den := math.Abs(b[i]) + eps
		if benchA != tensor.Float64 {
			den = float64(float32(den))
		}
		rel[i] = rp(absErr[i] / den)
		bid[i] = tensor.Round(devA, b[i]) // the slow, exact rounding of the tensor package
	}
	var s Stats
	s.N = n
	cm, ok, msg := Cosine(b, d)
	s.Cosine, s.CosineSet, s.CosineOK, s.CosineMsg = cm.V, cm.Set(), ok, msg
	s.MaxAbsErr, _ = MaxAbsErr(absErr)
	s.Hundred, _ = RelErrRatio(rel, HundredThreshold)
	s.Thousand, _ = RelErrRatio(rel, ThousandThreshold)
	s.TenThousand, _ = RelErrRatio(rel, TenThousandThreshold)
	s.BinaryErrRate = BinaryErrorRate(b, d)
	fin := BothFinite(bid, d)
	sv := SmallValue(ds)
	atolB, atolA := DocumentedAtol(ds), DocumentedAtol(ds)
	if compat {
		atolB, atolA = BenchmarkAtol(ds), AbsThreshAtol(ds)
	}
	small := SmallMask(b, sv, fin)
	mask := make([]bool, n)
	normal := make([]bool, n)
	greaterB := make([]bool, n)
	for i := range mask {
		mask[i] = small[i] || !fin[i]
		normal[i] = fin[i] && !small[i]
		greaterB[i] = absErr[i] > atolB
	}
	s.SmallValueErrRatio, s.HasSmall = SmallValueErrRatio(small, greaterB)
	// RMSE with float32 squares and mean where NumPy has them
	var sq float64
	k := 0
	for i, e := range absErr {
		if mask[i] {
			k++
			continue
		}
		sq += rp(e * e)
	}
	fn := float64(n)
	mse := rp(sq / fn)
	mse *= fn/(fn-float64(k)+0.0001) + 0.0001
	s.RMSE = math.Sqrt(mse)
	s.EB = EB(bid, d)
	s.MaxRelErr, s.HasRelErr = MaxRelErr(rel, mask)
	s.MeanRelErr, _ = MeanRelErr(rel, mask)
	s.MeanRelErr = rp(s.MeanRelErr)
	lo, hi := -math.MaxFloat64, math.MaxFloat64
	switch dev.DType {
	case tensor.Float16:
		lo, hi = -65504, 65504
	case tensor.BFloat16:
		lo, hi = -BF16Max, BF16Max
	case tensor.Float32:
		lo, hi = -math.MaxFloat32, math.MaxFloat32
	}
	inf := InfNan{Lo: lo, Hi: hi, Eps: eps, RTol: RTol(ds), Compat: compat, DType: devA}
	s.InfNanErrRate, s.HasInfNan = InfNanErrRate(b, bid, d, inf)
	s.RelErrRate, s.HasNormal = RelErrRate(rel, normal, RTol(ds))
	s.AbsErrRate, s.HasSmallAbs = AbsErrRate(absErr, small, atolA)
	// accumulative
	inf.RTol = AccumulativeBound(ds)
	s.AccInfNanErrRate, s.AccHasInfNan = InfNanErrRate(b, bid, d, inf)
	smallAcc := SmallMask(b, AccumulativeSmallValue, fin)
	normalAcc := make([]bool, n)
	for i := range normalAcc {
		normalAcc[i] = fin[i] && !smallAcc[i]
	}
	s.AccRelErrRate, s.AccHasNormal = RelErrRate(rel, normalAcc, inf.RTol)
	s.AccAbsErrRate, s.AccHasSmall = AbsErrRate(absErr, smallAcc, inf.RTol)
	// ULP: in float64 (ULPErrors) unless msprobe computes in float32
	ulpF32 := (dev.DType == tensor.Float16 || dev.DType == tensor.BFloat16) && benchA != tensor.Float64
	var ulp []float64
	if ulpF32 {
		mant, minEB := ULPParams(dev.DType)
		ulp = make([]float64, n)
		for i := range ulp {
			bv := float64(float32(b[i]))
			eb := minEB
			if bv != 0 {
				eb = max(int(math.Floor(float64(float32(math.Log2(math.Abs(bv)))))), minEB)
			} else if compat {
				eb = 0
			}
			ulp[i] = math.Abs(float64(float32(float64(float32(d[i]-bv)) * math.Pow(2, float64(mant-eb)))))
			if !finite(bv) {
				ulp[i] = math.NaN()
			}
		}
	} else {
		ulp = ULPErrors(b, d, dev.DType, compat)
	}
	s.ULPMax = ULPMax(ulp)
	s.ULPMean = ULPMean(ulp)
	if ulpF32 {
		s.ULPMean = float64(float32(s.ULPMean))
	}
	s.ULPRatio = ULPProportion(ulp, ULPErrThreshold(ds))
	s.Float32Err, s.Float32ULP = f32, ulpF32
	return s
}

// randomPair draws n bench values (with small values, exact zeros, values
// near powers of two, and optionally inf/NaN) and a device side perturbed by
// a few ULPs of the device dtype.
func randomPair(r *rand.Rand, n int, benchDT, devDT tensor.DType, specials bool) (*tensor.Tensor, *tensor.Tensor) {
	b, d := make([]float64, n), make([]float64, n)
	for i := range b {
		var v float64
		switch r.IntN(10) {
		case 0:
			v = 0
		case 1:
			v = (r.Float64() - 0.5) * 1e-6 // small values
		case 2:
			v = math.Ldexp(1-r.Float64()*1e-7, r.IntN(20)-10) // just below a power of two
		default:
			v = r.NormFloat64() * math.Pow(10, float64(r.IntN(6)-3))
		}
		b[i] = v
		dv := tensor.Round(devDT, v)
		switch r.IntN(4) {
		case 0:
			dv = tensor.Round(devDT, v*(1+r.NormFloat64()*tensor.Eps(devDT)*4))
		case 1:
			dv = tensor.Round(devDT, v+r.NormFloat64()*1e-7)
		}
		d[i] = dv
		if specials && r.IntN(50) == 0 {
			sp := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e30}
			if r.IntN(2) == 0 {
				b[i] = sp[r.IntN(4)]
			} else {
				d[i] = sp[r.IntN(4)]
			}
		}
	}
	return tensor.FromFloat64s(benchDT, []int{n}, b), tensor.FromFloat64s(devDT, []int{n}, d)
}

// The streaming one-pass Measure agrees with the spec's formulation on
// random data for every dtype pairing probe or msprobe produces: counts and
// ratios exactly, sums to within rounding (the float32 means of NumPy are
// summed exactly here, so they may differ by a float32 rounding).
func TestMeasureMatchesSpecFormulation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	f16, bf16, f32, f64 := tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64
	pairs := [][2]tensor.DType{{f64, f32}, {f32, f32}, {f32, f16}, {f32, bf16}, {f64, f16}, {f64, bf16}, {f64, f64}}
	for _, pr := range pairs {
		for _, n := range []int{2, 7, 1000, 3000} {
			for _, specials := range []bool{false, true} {
				bench, dev := randomPair(r, n, pr[0], pr[1], specials)
				for _, compat := range []bool{false, true} {
					got := Measure(bench, dev, GroupAll, Options{Compat: compat})
					want := reference(bench, dev, compat)
					compareStats(t, pr, n, specials, compat, got, want)
				}
			}
		}
	}
}

func compareStats(t *testing.T, pr [2]tensor.DType, n int, specials, compat bool, got, want Stats) {
	t.Helper()
	name := func(m string) string {
		return pr[0].String() + "→" + pr[1].String() + " n=" + itoa(n) + map[bool]string{true: " specials", false: ""}[specials] + map[bool]string{true: " compat", false: ""}[compat] + ": " + m
	}
	exact := []struct {
		m    string
		g, w float64
	}{
		{"max abs err", got.MaxAbsErr, want.MaxAbsErr}, {"hundred", got.Hundred, want.Hundred},
		{"thousand", got.Thousand, want.Thousand}, {"ten-thousand", got.TenThousand, want.TenThousand},
		{"binary", got.BinaryErrRate, want.BinaryErrRate}, {"EB", got.EB, want.EB},
		{"small value", got.SmallValueErrRatio, want.SmallValueErrRatio}, {"max rel", got.MaxRelErr, want.MaxRelErr},
		{"inf/nan", got.InfNanErrRate, want.InfNanErrRate}, {"rel rate", got.RelErrRate, want.RelErrRate},
		{"abs rate", got.AbsErrRate, want.AbsErrRate}, {"ULP max", got.ULPMax, want.ULPMax},
		{"ULP ratio", got.ULPRatio, want.ULPRatio}, {"acc inf/nan", got.AccInfNanErrRate, want.AccInfNanErrRate},
		{"acc rel", got.AccRelErrRate, want.AccRelErrRate}, {"acc abs", got.AccAbsErrRate, want.AccAbsErrRate},
	}
	for _, c := range exact {
		if !(c.g == c.w || math.IsNaN(c.g) && math.IsNaN(c.w)) {
			t.Errorf("%s = %v, spec formulation %v", name(c.m), c.g, c.w)
		}
	}
	tol := 1e-12
	if got.Float32Err {
		tol = 1e-6 // NumPy's float32 mean vs an exact sum rounded once
	}
	approx := []struct {
		m    string
		g, w float64
		tol  float64
	}{
		{"cosine", got.Cosine, want.Cosine, 1e-14},
		{"RMSE", got.RMSE, want.RMSE, tol},
		{"mean rel", got.MeanRelErr, want.MeanRelErr, tol},
		{"ULP mean", got.ULPMean, want.ULPMean, tol},
	}
	for _, c := range approx {
		if !near(c.g, c.w, c.tol) {
			t.Errorf("%s = %v, spec formulation %v", name(c.m), c.g, c.w)
		}
	}
	if got.CosineSet != want.CosineSet || got.CosineOK != want.CosineOK || got.CosineMsg != want.CosineMsg ||
		got.HasSmall != want.HasSmall || got.HasRelErr != want.HasRelErr || got.HasInfNan != want.HasInfNan ||
		got.HasNormal != want.HasNormal || got.HasSmallAbs != want.HasSmallAbs || got.AccHasInfNan != want.AccHasInfNan ||
		got.AccHasNormal != want.AccHasNormal || got.AccHasSmall != want.AccHasSmall || got.Float32ULP != want.Float32ULP {
		t.Errorf("%s flags differ:\n got %+v\nwant %+v", name(""), got, want)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// The cosine without the max-abs normalisation (dot/(|a||b|), scale
// invariant) equals the spec's normalised formulation within rounding, and
// the overflow fallback takes over for extreme magnitudes.
func TestOnePassCosineEqualsNormalised(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, scale := range []float64{1, 1e-30, 1e30, 1e-200, 1e200, 1e300} {
		for range 20 {
			n := 2 + r.IntN(500)
			b, d := make([]float64, n), make([]float64, n)
			for i := range b {
				b[i] = r.NormFloat64() * scale
				d[i] = (b[i] + r.NormFloat64()*0.3*scale) / 7
			}
			want, wok, _ := Cosine(b, d)
			st := Measure(tensorOf(tensor.Float64, b...), tensorOf(tensor.Float64, d...), GroupLegacy, Options{})
			if !near(st.Cosine, want.V, 1e-14) || st.CosineOK != wok {
				t.Errorf("scale %g n=%d: one pass %v, normalised %v", scale, n, st.Cosine, want.V)
			}
		}
	}
}

// A pair longer than a chunk is split over goroutines; the result must not
// depend on it, and must agree with a plain sequential pass.
func TestMeasureChunksDeterministic(t *testing.T) {
	n := 2*chunkLen + 12345
	r := rand.New(rand.NewPCG(5, 6))
	bench, dev := randomPair(r, n, tensor.Float64, tensor.Float32, true)
	p := newPlan(bench.DType, dev.DType, false)
	var seq accum
	for c := 0; c*chunkLen < n; c++ { // chunk by chunk, merged in order
		var part accum
		p.chunk(bench, dev, c*chunkLen, min(n, (c+1)*chunkLen), GroupAll, &part)
		if c == 0 {
			seq = part
		} else {
			seq.merge(&part)
		}
	}
	par := p.run(bench, dev, GroupAll)
	if fmt.Sprintf("%+v", seq) != fmt.Sprintf("%+v", par) { // NaN-safe
		t.Errorf("parallel pass differs from the sequential merge")
	}
	again := Measure(bench, dev, GroupAll, Options{})
	if first := Measure(bench, dev, GroupAll, Options{}); fmt.Sprintf("%+v", first) != fmt.Sprintf("%+v", again) {
		t.Errorf("not deterministic")
	}
}

// The metrics of an output larger than one chunk do not depend on the
// number of goroutines (GOMAXPROCS follows the CPU limit of a container):
// one goroutine sums the same chunks in the same order.
func TestMeasureSameAtAnyGOMAXPROCS(t *testing.T) {
	n := 2*chunkLen + 12345
	bv, dv := make([]float64, n), make([]float64, n)
	for i := range bv {
		bv[i] = math.Sin(float64(i)*0.001) * 3
		dv[i] = bv[i] * (1 + 1e-6*math.Cos(float64(i)))
	}
	b := tensor.FromFloat64s(tensor.Float64, []int{n}, bv)
	d := tensor.FromFloat64s(tensor.Float32, []int{n}, dv)
	old := runtime.GOMAXPROCS(1)
	one := Measure(b, d, GroupLegacy|GroupBenchmark|GroupULP, Options{})
	runtime.GOMAXPROCS(2)
	two := Measure(b, d, GroupLegacy|GroupBenchmark|GroupULP, Options{})
	runtime.GOMAXPROCS(old)
	if fmt.Sprintf("%#v", one) != fmt.Sprintf("%#v", two) {
		t.Errorf("1 goroutine: %+v\n2 goroutines: %+v", one, two)
	}
}
