package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// expCheck runs expInto over xs (whole, and at every offset and length of
// a short window, and in place) and reports every lane whose bits differ
// from math.Exp's.
func expCheck(t *testing.T, what string, xs []float64) {
	t.Helper()
	got := make([]float64, len(xs))
	expInto(got, xs)
	bad := 0
	for i, x := range xs {
		want := math.Exp(x)
		if math.Float64bits(got[i]) != math.Float64bits(want) {
			if bad < 10 {
				t.Errorf("%s: expInto(%v [%#016x]) = %v [%#016x], math.Exp = %v [%#016x]",
					what, x, math.Float64bits(x), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d results differ from math.Exp", what, bad, len(xs))
	}
	// In place, on the same inputs.
	in := append([]float64(nil), xs...)
	expInto(in, in)
	for i := range in {
		if math.Float64bits(in[i]) != math.Float64bits(got[i]) {
			t.Fatalf("%s: in place, element %d = %v, out of place %v", what, i, in[i], got[i])
		}
	}
}

func expNear(x float64, ulps int) []float64 {
	out := []float64{x}
	up, down := x, x
	for i := 0; i < ulps; i++ {
		up = math.Nextafter(up, math.Inf(1))
		down = math.Nextafter(down, math.Inf(-1))
		out = append(out, up, down)
	}
	return out
}

func TestExpIntoSpecial(t *testing.T) {
	if !vexpOK {
		t.Log("no AVX2/FMA here: expInto runs math.Exp per element")
	}
	var xs []float64
	for _, x := range []float64{
		0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000000),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff4000000000123), // signalling NaNs
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		0x1p-1022, -0x1p-1022, 1e-300, -1e-300, 1e-17, -1e-17, 0x1p-53, -0x1p-53, 0x1p-54, -0x1p-54,
		1, -1, 0.5, -0.5, 2, 10, -10, 100, -100, 700, -700,
		7.09782712893384e+02, // math.Exp's overflow threshold
		709.782712893384, 709.78, 709.79, 710, 1e10, 1e300, -1e10, -1e300,
		math.Log(math.MaxFloat64),
		-708.3964185322641, -708.39, -708.4, // ln of the smallest normal
		-745.1332191019411, -745.1332191019412, -745.13321910194122, -745.2, -746, -744.44, -744.5,
		-708, -709, -720, -730, -740, -745,
		float64(math.MaxInt32), float64(math.MinInt32), 2147483648 * math.Ln2, -2147483649 * math.Ln2,
	} {
		xs = append(xs, expNear(x, 8)...)
	}
	// Around every multiple of ln2/2 the results reach (k's rounding
	// boundary at odd multiples, the scaling's exponent at even ones).
	for h := -2 * 1080; h <= 2*1030; h++ {
		xs = append(xs, expNear(float64(h)*math.Ln2/2, 3)...)
		xs = append(xs, expNear(float64(h)/2/math.Log2E, 2)...)
	}
	expCheck(t, "special", xs)

	// Every length up to 17 at every start offset up to 3, over a mix.
	for off := 0; off < 4; off++ {
		for n := 0; n <= 17; n++ {
			w := xs[1000+off : 1000+off+n]
			got := make([]float64, n+2)
			got[n], got[n+1] = 42, 43
			expInto(got[:n], w)
			for i, x := range w {
				if math.Float64bits(got[i]) != math.Float64bits(math.Exp(x)) {
					t.Fatalf("len %d offset %d: element %d = %v, math.Exp(%v) = %v", n, off, i, got[i], x, math.Exp(x))
				}
			}
			if got[n] != 42 || got[n+1] != 43 {
				t.Fatalf("len %d offset %d: wrote past dst", n, off)
			}
		}
	}
}

func TestExpIntoRandom(t *testing.T) {
	n := 4 << 20
	if testing.Short() {
		n = 1 << 18
	}
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, n)

	// Uniform over the range with finite, non-zero results and past it.
	for i := range xs {
		xs[i] = -745.5 + r.Float64()*(710.5+745.5)
	}
	expCheck(t, "uniform [-745.5, 710]", xs)

	// Softmax's range, x - max <= 0.
	for i := range xs {
		xs[i] = -r.Float64() * 40
	}
	expCheck(t, "uniform [-40, 0]", xs)

	// Log-uniform magnitudes 2^-1074 … 2^10, both signs.
	for i := range xs {
		m := math.Ldexp(1+r.Float64(), -1075+r.IntN(1086))
		if r.IntN(2) == 0 {
			m = -m
		}
		xs[i] = m
	}
	expCheck(t, "log-uniform", xs)

	// Subnormal and near-underflow results.
	for i := range xs {
		xs[i] = -745.2 + r.Float64()*(745.2-707)
	}
	expCheck(t, "subnormal results", xs)

	// Near overflow.
	for i := range xs {
		xs[i] = 700 + r.Float64()*10
	}
	expCheck(t, "near overflow", xs)

	// Random bit patterns: NaN payloads, huge and tiny values of both signs.
	for i := range xs {
		xs[i] = math.Float64frombits(r.Uint64())
	}
	expCheck(t, "random bits", xs)
}

// TestExpIntoScalarPath checks the per-element path taken without AVX2/FMA.
func TestExpIntoScalarPath(t *testing.T) {
	saved := vexpOK
	defer func() { vexpOK = saved }()
	vexpOK = false
	xs := []float64{0, 1, -1, 710, -746, math.NaN(), 3.5}
	got := make([]float64, len(xs))
	expInto(got, xs)
	for i, x := range xs {
		if math.Float64bits(got[i]) != math.Float64bits(math.Exp(x)) {
			t.Errorf("scalar path: exp(%v) = %v, want %v", x, got[i], math.Exp(x))
		}
	}
}

func benchExpInputs() []float64 {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 1<<14)
	for i := range xs {
		xs[i] = -r.Float64() * 30
	}
	return xs
}

func BenchmarkExpInto(b *testing.B) {
	xs := benchExpInputs()
	dst := make([]float64, len(xs))
	b.SetBytes(int64(8 * len(xs)))
	for b.Loop() {
		expInto(dst, xs)
	}
}

func BenchmarkExpScalar(b *testing.B) {
	xs := benchExpInputs()
	dst := make([]float64, len(xs))
	b.SetBytes(int64(8 * len(xs)))
	for b.Loop() {
		for i, x := range xs {
			dst[i] = math.Exp(x)
		}
	}
}
