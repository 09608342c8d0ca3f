package inputgen

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// TestPCGMatchesNewRand holds the generator of a tensor to math/rand/v2's
// PCG seeded with (seed, mix(seed ^ 0x6a09e667f3bcc909)): the same draws.
func TestPCGMatchesNewRand(t *testing.T) {
	for _, seed := range []uint64{0, 1, 11, 0xdeadbeefcafef00d} {
		r := rand.New(rand.NewPCG(seed, mix(seed^0x6a09e667f3bcc909)))
		p := newPCG(seed)
		for i := 0; i < 1000; i++ {
			if a, b := r.Uint64(), p.Uint64(); a != b {
				t.Fatalf("seed %d draw %d: newRand %#x, newPCG %#x", seed, i, a, b)
			}
		}
	}
}

// TestFillUniformMatchesSequential compares the parallel fill with the
// sequential loop it replaced (one rand.Rand stream, one writer closure per
// element, kept below as the reference) byte for byte, at every float
// dtype, for sizes around the chunk, with 1, 2 and 3 goroutines.
func TestFillUniformMatchesSequential(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	type bounds struct{ low, high float64 }
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32, tensor.Float16, tensor.BFloat16} {
		for _, bd := range []bounds{{-1, 1}, {0.5, 0.5000001}, {0.7, 0.7000002}, {-0.7000002, -0.7}, {-1e308, 1.7e308}, {-7e4, 7e4}, {3, 3}, {math.Copysign(0, -1), math.Copysign(0, -1)}, {math.Copysign(0, -1), 0}} {
			lowS, highS := finite(dt, bd.low), finite(dt, bd.high)
			lo, hi := roundUp(dt, lowS), roundDown(dt, highS)
			for _, n := range []int{1, 5, uniformChunk - 1, uniformChunk, 2*uniformChunk + 3, 5*uniformChunk + 1} {
				want := make([]byte, n*dt.Size())
				put := floatWriter(dt, lo, hi, lo <= hi)
				r := newRand(42)
				for i := 0; i < n; i++ {
					v := lerp(lowS, highS, r.Float64())
					put(want[i*dt.Size():], math.Max(lowS, math.Min(highS, v)))
				}
				for _, procs := range []int{1, 2, 3} {
					runtime.GOMAXPROCS(procs)
					got := make([]byte, n*dt.Size())
					fillUniform(dt, got, n, 42, lowS, highS, lo, hi, lo <= hi, nil)
					if string(got) != string(want) {
						t.Fatalf("%s [%v, %v] n=%d GOMAXPROCS=%d: bytes differ from the sequential stream", dt, bd.low, bd.high, n, procs)
					}
				}
			}
		}
	}
}

func BenchmarkFillUniform(b *testing.B) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.BFloat16} {
		b.Run(dt.String(), func(b *testing.B) {
			const n = 1 << 22
			data := make([]byte, n*dt.Size())
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				fillUniform(dt, data, n, 7, -3, 3, roundUp(dt, -3), roundDown(dt, 3), true, nil)
			}
		})
	}
}

// floatWriter returns a function storing a float64 (already inside the
// bounds) as one element of dt, rounded to the nearest value of dt and, when
// clamp is set, kept inside the representable bounds [lo, hi]. float16 and
// bfloat16 round through float32: a double rounding that can differ from
// direct rounding only on exact ties, which is irrelevant for random draws
// (the result is still a value of the dtype inside [lo, hi]), and is
// several times faster than exact rounding.
func floatWriter(dt tensor.DType, lo, hi float64, clamp bool) func([]byte, float64) {
	if !clamp {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	switch dt {
	case tensor.Float64:
		return func(b []byte, v float64) {
			if v < lo {
				v = lo
			} else if v > hi {
				v = hi
			}
			binary.LittleEndian.PutUint64(b, math.Float64bits(v))
		}
	case tensor.Float32:
		return func(b []byte, v float64) {
			f := float32(v)
			if float64(f) < lo {
				f = float32(lo)
			} else if float64(f) > hi {
				f = float32(hi)
			}
			binary.LittleEndian.PutUint32(b, math.Float32bits(f))
		}
	case tensor.Float16:
		loBits, hiBits := tensor.Float16Bits(lo), tensor.Float16Bits(hi)
		return func(b []byte, v float64) {
			h := float32ToFloat16(float32(v))
			if math.IsNaN(v) {
				h = 0x7e00
			} else if val := float16Value(h); val < lo {
				h = loBits
			} else if val > hi {
				h = hiBits
			}
			binary.LittleEndian.PutUint16(b, h)
		}
	default: // BFloat16
		loBits, hiBits := tensor.BFloat16Bits(lo), tensor.BFloat16Bits(hi)
		return func(b []byte, v float64) {
			h := float32ToBFloat16(float32(v))
			if math.IsNaN(v) {
				h = 0x7fc0
			} else if val := float64(math.Float32frombits(uint32(h) << 16)); val < lo {
				h = loBits
			} else if val > hi {
				h = hiBits
			}
			binary.LittleEndian.PutUint16(b, h)
		}
	}
}

// lerp returns lo + u*(hi-lo) without overflow when hi-lo exceeds the
// float64 range.
func lerp(lo, hi, u float64) float64 {
	if d := hi - lo; !math.IsInf(d, 0) {
		return lo + u*d
	}
	return lo*(1-u) + hi*u
}
