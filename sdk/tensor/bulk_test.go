package tensor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

var allDTypes = []DType{Float64, Float32, Float16, BFloat16, Int64, Int32, Int16, Int8, Uint8, Bool}

// The bulk conversions (ReadFloat64s, WriteFloat64s, FromFloat64s, Cast)
// give exactly what At and Set give element by element, for every dtype,
// on random bit patterns (NaNs, infinities and subnormals included) and on
// values chosen to round.
func TestBulkConversionsMatchElementwise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 5000
	for _, d := range allDTypes {
		src := New(d, []int{n})
		for i := range src.Data {
			src.Data[i] = byte(r.Uint32())
		}
		if d == Bool {
			for i := range src.Data {
				src.Data[i] &= 1
			}
		}
		got := src.Float64s()
		for i := range got {
			if want := src.At(i); math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("%v: element %d read as %v, At gives %v", d, i, got[i], want)
			}
		}
		// Data not aligned for its elements, and a length with a tail
		odd := &Tensor{DType: d, Shape: []int{n - 3}, Data: append(make([]byte, 1, 1+len(src.Data)), src.Data[:(n-3)*d.Size()]...)[1:]}
		got = make([]float64, n-3)
		odd.ReadFloat64s(got)
		for i := range got {
			if want := src.At(i); math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("%v, unaligned: element %d read as %v, At gives %v", d, i, got[i], want)
			}
		}
	}
	vals := make([]float64, n)
	for i := range vals {
		switch i % 5 {
		case 0:
			vals[i] = math.Float64frombits(r.Uint64())
		case 1:
			vals[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(80)-40)
		case 2:
			vals[i] = float64(r.IntN(1<<20)-1<<19) + 0.5
		case 3:
			vals[i] = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 65504, 65520, 0x1p-24, 0x1p-25, 3.4e38, 1e300}[r.IntN(11)]
		default:
			vals[i] = r.Float64()*2 - 1
		}
	}
	for _, d := range allDTypes {
		bulk := FromFloat64s(d, []int{n}, vals)
		one := New(d, []int{n})
		for i, v := range vals {
			one.Set(i, v)
		}
		if string(bulk.Data) != string(one.Data) {
			t.Fatalf("%v: FromFloat64s differs from Set", d)
		}
		odd := &Tensor{DType: d, Shape: []int{n - 3}, Data: make([]byte, 1+(n-3)*d.Size())[1:]}
		odd.WriteFloat64s(vals[:n-3])
		if string(odd.Data) != string(one.Data[:(n-3)*d.Size()]) {
			t.Fatalf("%v, unaligned: WriteFloat64s differs from Set", d)
		}
		for _, to := range allDTypes {
			c := bulk.Cast(to)
			want := New(to, []int{n})
			if d == Int64 && to.IsInt() {
				for i := 0; i < n; i++ {
					want.SetInt64(i, bulk.Int64(i))
				}
			} else {
				for i := 0; i < n; i++ {
					want.Set(i, bulk.At(i))
				}
			}
			if to == d {
				want = bulk
			}
			if string(c.Data) != string(want.Data) {
				t.Fatalf("Cast %v -> %v differs from Set(At)", d, to)
			}
		}
	}
}

func BenchmarkFloat64s(b *testing.B) {
	for _, d := range []DType{Float32, Float16, BFloat16} {
		x := New(d, []int{1 << 20})
		b.Run(d.String(), func(b *testing.B) {
			b.SetBytes(int64(len(x.Data)))
			for i := 0; i < b.N; i++ {
				x.Float64s()
			}
		})
	}
}

func BenchmarkFromFloat64s(b *testing.B) {
	vals := make([]float64, 1<<20)
	for i := range vals {
		vals[i] = float64(i) * 1e-3
	}
	for _, d := range []DType{Float32, Float16, BFloat16} {
		b.Run(d.String(), func(b *testing.B) {
			b.SetBytes(int64(len(vals) * 8))
			for i := 0; i < b.N; i++ {
				FromFloat64s(d, []int{len(vals)}, vals)
			}
		})
	}
}

// TestParallelCastMatchesSerial: a Cast large enough to be split over the
// cores gives the bytes of the one-goroutine Cast.
func TestParallelCastMatchesSerial(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(3, 4))
	n := 3*castParallelMin + 7
	for _, d := range []DType{Float32, BFloat16, Float16} {
		src := New(d, []int{n})
		for i := range src.Data {
			src.Data[i] = byte(r.Uint32())
		}
		runtime.GOMAXPROCS(1)
		want := src.Cast(Float64)
		for _, procs := range []int{2, 3} {
			runtime.GOMAXPROCS(procs)
			if got := src.Cast(Float64); string(got.Data) != string(want.Data) {
				t.Fatalf("%v -> float64 at GOMAXPROCS=%d differs from the serial cast", d, procs)
			}
		}
	}
}
