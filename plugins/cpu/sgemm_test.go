package cpu

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// sgemmReference is the float32 product as sgemmAt forms it: each element
// sums its products in float32, fused (a float64 FMA rounded to float32:
// the float32 product is exact in float64), one k block at a time from
// zero, each block's sum added to C in float32.
func sgemmReference(transA, transB bool, m, n, k int, a, b []float64) []float64 {
	out := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var c float32
			for pc := 0; pc < k; pc += gemmKC {
				var acc float32
				for l := pc; l < min(pc+gemmKC, k); l++ {
					av, bv := a[i*k+l], b[l*n+j]
					if transA {
						av = a[l*m+i]
					}
					if transB {
						bv = b[j*k+l]
					}
					acc = float32(math.FMA(av, bv, float64(acc)))
				}
				c += acc
			}
			out[i*n+j] = float64(c)
		}
	}
	return out
}

// TestSgemmAt: the float32 path gives sgemmReference's bits for every
// transpose, on shapes with partial tiles, several k blocks and column
// blocks, at one and at two goroutines; below the packing size, and at
// other dtypes, it is nnGemm.
func TestSgemmAt(t *testing.T) {
	if !gemmHasFMA {
		t.Skip("no AVX2/FMA: nnGemmAt takes nnGemm's path")
	}
	r := rand.New(rand.NewPCG(5, 6))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	shapes := [][3]int{{32, 32, 32}, {37, 45, 300}, {6, 16, 600}, {200, 19, 513}, {13, gemmNC + 21, 40}}
	for _, s := range shapes {
		m, n, k := s[0], s[1], s[2]
		for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			a, b := make([]float64, m*k), make([]float64, k*n)
			for i := range a {
				a[i] = float64(float32(r.NormFloat64()))
			}
			for i := range b {
				b[i] = float64(float32(r.NormFloat64() * 3))
			}
			want := sgemmReference(tr[0], tr[1], m, n, k, a, b)
			for _, procs := range []int{1, 2} {
				runtime.GOMAXPROCS(procs)
				c := make([]float64, m*n)
				for i := range c {
					c[i] = 7 // overwritten
				}
				nnGemmAt(tensor.Float32, tr[0], tr[1], m, n, k, a, b, c)
				for i := range c {
					if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
						t.Fatalf("%v trans=%v procs=%d: c[%d] = %v, want %v", s, tr, procs, i, c[i], want[i])
					}
				}
			}
		}
	}
	// small products and other dtypes: the float64 product
	// (2^24 + 1 − 2^24 is 1 in float64, 0 in float32)
	a, b := []float64{1 << 24, 1, -(1 << 24)}, []float64{1, 1, 1}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		c := make([]float64, 1)
		nnGemmAt(dt, false, false, 1, 1, 3, a, b, c)
		if c[0] != 1 {
			t.Errorf("%s 1×3·3×1: %v, want the float64 product 1", dt, c[0])
		}
	}
	m, n, k := 32, 32, 32
	a, b = make([]float64, m*k), make([]float64, k*n)
	for i := 0; i < m; i++ {
		a[i*k], a[i*k+1], a[i*k+2] = 1<<24, 1, -(1 << 24)
	}
	for j := 0; j < n; j++ {
		b[j], b[n+j], b[2*n+j] = 1, 1, 1
	}
	for dt, want := range map[tensor.DType]float64{tensor.Float32: 0, tensor.Float64: 1} {
		c := make([]float64, m*n)
		nnGemmAt(dt, false, false, m, n, k, a, b, c)
		if c[0] != want || c[m*n-1] != want {
			t.Errorf("%s 32³: %v, %v, want %v", dt, c[0], c[m*n-1], want)
		}
	}
}

func BenchmarkSgemm1024(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1024
	x, y, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range x {
		x[i], y[i] = float64(float32(r.NormFloat64())), float64(float32(r.NormFloat64()))
	}
	b.SetBytes(0)
	for b.Loop() {
		nnGemmAt(tensor.Float32, false, true, n, n, n, x, y, c)
	}
	b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
