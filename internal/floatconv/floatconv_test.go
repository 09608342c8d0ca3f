package floatconv

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specials32 are float32 values whose widening must keep every bit:
// signed zeros, subnormals, infinities and NaN payloads.
var specials32 = []uint32{0, 1 << 31, 1, 0x807fffff, 0x7f800000, 0xff800000, 0x7fc00001, 0xffa00005, 0x7f7fffff, 0x3f800000}

func TestFromFloat32s(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 70 {
		src := make([]float32, n)
		for i := range src {
			if r.IntN(4) == 0 {
				src[i] = math.Float32frombits(specials32[r.IntN(len(specials32))])
			} else {
				src[i] = math.Float32frombits(r.Uint32())
			}
		}
		dst := make([]float64, n+1)
		dst[n] = 7 // past the end: untouched
		FromFloat32s(dst, src)
		for i, v := range src {
			if want := float64(v); math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("n %d element %d (%#x): got %#x, want %#x", n, i, math.Float32bits(v), math.Float64bits(dst[i]), math.Float64bits(want))
			}
		}
		if dst[n] != 7 {
			t.Fatalf("n %d: wrote past the end", n)
		}
	}
}

func TestFromBFloat16s(t *testing.T) {
	// every bit pattern, at lengths that leave a scalar tail
	src := make([]uint16, 1<<16+5)
	for i := range src {
		src[i] = uint16(i * 40503)
	}
	for _, n := range []int{0, 3, 8, 13, len(src)} {
		dst := make([]float64, n)
		FromBFloat16s(dst, src[:n])
		for i, v := range src[:n] {
			if want := float64(math.Float32frombits(uint32(v) << 16)); math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("n %d element %d (%#x): got %#x, want %#x", n, i, v, math.Float64bits(dst[i]), math.Float64bits(want))
			}
		}
	}
}

func TestFromHF32s(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	// near the rounding boundary, at the float32 maximum (rounds to
	// infinity) and NaN payloads that round into infinity or stay NaN
	edges := []uint32{0x3f8007ff, 0x3f800800, 0xbf800800, 0x3f800fff, 0x7f7fffff, 0xff7ff800, 0x7f800001, 0x7f8007ff, 0x7fbff800}
	for n := range 70 {
		src := make([]uint32, n)
		for i := range src {
			switch r.IntN(4) {
			case 0:
				src[i] = specials32[r.IntN(len(specials32))]
			case 1:
				src[i] = edges[r.IntN(len(edges))]
			default:
				src[i] = r.Uint32()
			}
		}
		dst := make([]float64, n+1)
		dst[n] = 7
		FromHF32s(dst, src)
		for i, v := range src {
			want := float64(math.Float32frombits((v + 0x800) & 0xFFFFF000))
			if math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("n %d element %d (%#x): got %#x, want %#x", n, i, v, math.Float64bits(dst[i]), math.Float64bits(want))
			}
		}
		if dst[n] != 7 {
			t.Fatalf("n %d: wrote past the end", n)
		}
	}
}

func benchFloat32s(b *testing.B, n int, f func(dst []float64, src []float32)) {
	src, dst := make([]float32, n), make([]float64, n)
	for i := range src {
		src[i] = float32(i)
	}
	b.SetBytes(int64(12 * n))
	for range b.N {
		f(dst, src)
	}
}

func goFloat32s(dst []float64, src []float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float64(v)
	}
}

func BenchmarkFromFloat32s(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"L1", 512}, {"L2", 32 << 10}, {"memory", 16 << 20}} {
		b.Run(c.name, func(b *testing.B) { benchFloat32s(b, c.n, FromFloat32s) })
		b.Run(c.name+"-go", func(b *testing.B) { benchFloat32s(b, c.n, goFloat32s) })
	}
}

func TestToFloat32s(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	specials := []float64{0, math.Copysign(0, -1), 5e-324, 1e-40, -1e-45, 7e-46, 3.4028235677973366e38, 3.4028236e38, 1e39,
		math.Inf(1), math.Inf(-1), math.Float64frombits(0x7ff8000000000123), math.Float64frombits(0xfff4000000000001),
		1 + 0x1p-24, 1 + 0x1p-23 + 0x1p-24, 1 + 0x1p-24 + 0x1p-50} // ties to even, and just past a tie
	for n := range 70 {
		src := make([]float64, n)
		for i := range src {
			switch r.IntN(3) {
			case 0:
				src[i] = specials[r.IntN(len(specials))]
			case 1:
				src[i] = math.Float64frombits(r.Uint64())
			default:
				src[i] = r.NormFloat64()
			}
		}
		dst := make([]float32, n+1)
		dst[n] = 7
		ToFloat32s(dst, src)
		for i, v := range src {
			if want := float32(v); math.Float32bits(dst[i]) != math.Float32bits(want) {
				t.Fatalf("n %d element %d (%#x): got %#x, want %#x", n, i, math.Float64bits(v), math.Float32bits(dst[i]), math.Float32bits(want))
			}
		}
		if dst[n] != 7 {
			t.Fatalf("n %d: wrote past the end", n)
		}
	}
}

// TestToBFloat16s holds the four-lane rounding to BFloat16, value for value:
// random bit patterns, normal values, ties (to even, both ways), values
// that round up to the next binade or to infinity, the edge of the normal
// range, subnormal and tiny results, zeros, infinities and NaNs, at every
// length up to 70 (the quads the assembly stops at run in Go).
func TestToBFloat16s(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		1 + 0x1p-8, 1 + 3*0x1p-8, 1 + 0x1p-8 + 0x1p-40, -(1 + 0x1p-8), 2 - 0x1p-9, 0x1p127 * (2 - 0x1p-9),
		0x1p127 * (2 - 0x1p-8), 0x1p128, math.MaxFloat64, 0x1p-126, 0x1p-126 * (1 - 0x1p-9), 0x1p-127, 0x1p-133, 0x1p-134,
		5e-324, 1e-300, 3.3895313892515355e38, 3.4e38}
	for n := range 71 {
		src := make([]float64, n)
		for i := range src {
			switch r.IntN(4) {
			case 0:
				src[i] = specials[r.IntN(len(specials))]
			case 1:
				src[i] = math.Float64frombits(r.Uint64())
			default:
				src[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(60)-30))
			}
		}
		dst := make([]uint16, n+1)
		dst[n] = 7
		ToBFloat16s(dst, src)
		for i, v := range src {
			if want := BFloat16(v); dst[i] != want {
				t.Fatalf("n %d element %d (%v, %#x): %#x, want %#x", n, i, v, math.Float64bits(v), dst[i], want)
			}
		}
		if dst[n] != 7 {
			t.Fatalf("n %d: wrote past the end", n)
		}
	}
	// quads of zeros and normal values only, which the assembly takes whole
	nz := math.Copysign(0, -1)
	src := []float64{0, nz, 1.5, -3, nz, 0, 0, nz, 1 + 0x1p-8, 0, 2, nz}
	dst := make([]uint16, len(src))
	ToBFloat16s(dst, src)
	for i, v := range src {
		if want := BFloat16(v); dst[i] != want {
			t.Fatalf("zeros: element %d (%v): %#x, want %#x", i, v, dst[i], want)
		}
	}
}
