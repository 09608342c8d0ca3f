package inputgen

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The AVX2 float32 stores give storeF32Go's bits: signed zero bounds,
// bounds that round, clamps inside the range and none, every length.
func TestStoreF32AVX2MatchesGo(t *testing.T) {
	if !uniformAVX2 {
		t.Skip("no AVX2 on this machine")
	}
	r := rand.New(rand.NewPCG(3, 4))
	u := make([]float64, 517)
	for i := range u {
		u[i] = r.Float64()
	}
	u[0], u[1], u[2] = 0, math.Nextafter(1, 0), 0.5
	inf := math.Inf(1)
	type bounds struct{ lowS, highS, lo, hi float64 }
	cases := []bounds{
		{-3, 3, -3, 3}, {-3, 3, math.Inf(-1), inf}, {-3, 3, -1, 1}, {0, 0, -inf, inf},
		{math.Copysign(0, -1), 0, -inf, inf}, {math.Copysign(0, -1), math.Copysign(0, -1), -inf, inf},
		{math.Copysign(0, -1), 1, 0, 1}, {-1, math.Copysign(0, -1), -1, 0}, {-1, 0, -1, math.Copysign(0, -1)},
		{1e-40, 3e-39, -inf, inf}, {-1e300, 1e300, -math.MaxFloat32, math.MaxFloat32},
		{0.1, 0.30000000000000004, 0.1, 0.3}, {5, 5, 5, 5}, {2, 1, 1, 2}, {-3, 3, 2, -2},
	}
	for range 50 {
		a, b := r.NormFloat64()*10, r.NormFloat64()*10
		cases = append(cases, bounds{min(a, b), max(a, b), min(a, b) + r.Float64(), max(a, b) - r.Float64()})
	}
	for _, c := range cases {
		d := c.highS - c.lowS
		for _, n := range []int{0, 1, 3, 4, 5, 8, 511, 512, 517} {
			got, want := make([]float32, n), make([]float32, n)
			storeF32(got, u[:n], c.lowS, c.highS, d, c.lo, c.hi)
			storeF32Go(want, u[:n], c.lowS, c.highS, d, c.lo, c.hi)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%+v n=%d: element %d (u=%v) is %v (%#x), Go stores %v (%#x)", c, n, i, u[i], got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
				}
			}
		}
	}
}

// The AVX2 lerp gives lerpGo's bits on the same bounds.
func TestLerpAVX2MatchesGo(t *testing.T) {
	if !uniformAVX2 {
		t.Skip("no AVX2 on this machine")
	}
	r := rand.New(rand.NewPCG(5, 6))
	u := make([]float64, 517)
	for i := range u {
		u[i] = r.Float64()
	}
	u[0], u[1] = 0, math.Nextafter(1, 0)
	nz := math.Copysign(0, -1)
	cases := [][2]float64{{-3, 3}, {0, 0}, {nz, 0}, {nz, nz}, {nz, 1}, {-1, nz}, {-1, 0}, {1e-300, 1e-299}, {-1e300, 1e300}, {5, 5}, {2, 1}}
	for range 50 {
		a, b := r.NormFloat64()*10, r.NormFloat64()*10
		cases = append(cases, [2]float64{min(a, b), max(a, b)})
	}
	for _, c := range cases {
		for _, n := range []int{0, 1, 3, 4, 5, 511, 512, 517} {
			got, want := append([]float64(nil), u[:n]...), append([]float64(nil), u[:n]...)
			lerpClamped(got, c[0], c[1], c[1]-c[0])
			lerpGo(want, c[0], c[1], c[1]-c[0])
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("[%v, %v] n=%d: element %d (u=%v) is %v, Go gives %v", c[0], c[1], n, i, u[i], got[i], want[i])
				}
			}
		}
	}
}
