package inputgen

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
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

// The AVX2 bfloat16 store gives storeClamped's Go loop's bits: NaN,
// infinities, values that round up to infinity, signed zeros, ties, and
// bounds that clamp, do not, cross or are not float32 values (the Go loop
// then stores everything), at lengths around the eight-value step.
func TestStoreBF16AVX2MatchesGo(t *testing.T) {
	if !uniformAVX2 {
		t.Skip("no AVX2 on this machine")
	}
	r := rand.New(rand.NewPCG(7, 8))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 3.4e38, -3.395e38, 3.3961776e38,
		1 + 0x1p-8, 1 + 0x1p-8 + 0x1p-30, 1 + 3*0x1p-8, 1e-40, -1e-45, 5e-324}
	u := make([]float64, 523)
	for i := range u {
		switch r.IntN(4) {
		case 0:
			u[i] = specials[r.IntN(len(specials))]
		case 1:
			u[i] = r.NormFloat64() * 1e30
		default:
			u[i] = r.NormFloat64()
		}
	}
	inf := math.Inf(1)
	bf := func(x float64) float64 { return float64(math.Float32frombits(uint32(tensor.BFloat16Bits(x)) << 16)) }
	type bounds struct{ lo, hi float64 }
	cases := []bounds{{-inf, inf}, {bf(-1), bf(1)}, {bf(-3.3e38), bf(3.3e38)}, {0, 0}, {math.Copysign(0, -1), 0},
		{bf(2), bf(-2)}, {bf(0.5), inf}, {-inf, bf(-0.25)}, {0.1, 0.3}, {-1e300, 1e300}}
	for _, c := range cases {
		for _, n := range []int{0, 1, 7, 8, 9, 16, 517, 523} {
			got, want := make([]byte, 2*n), make([]byte, 2*n)
			storeClamped(tensor.BFloat16, got, u[:n], c.lo, c.hi)
			uniformAVX2 = false
			storeClamped(tensor.BFloat16, want, u[:n], c.lo, c.hi)
			uniformAVX2 = true
			for i := 0; i < n; i++ {
				if got[2*i] != want[2*i] || got[2*i+1] != want[2*i+1] {
					t.Fatalf("%+v n=%d: element %d (u=%v) is %#x, Go stores %#x", c, n, i, u[i],
						uint16(got[2*i])|uint16(got[2*i+1])<<8, uint16(want[2*i])|uint16(want[2*i+1])<<8)
				}
			}
		}
	}
}
