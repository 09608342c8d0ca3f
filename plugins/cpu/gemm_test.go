package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// The packed dgemm with either micro-kernel equals the definition (to
// float64 rounding) for every transpose, for shapes that exercise partial
// tiles, several k and m blocks and the parallel path, and C is accumulated.
func TestGemmPacked(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	kernels := map[string]func(int, []float64, []float64, []float64, int){"go": gemmKernelGo}
	if gemmHasFMA {
		kernels["fma"] = gemmKernelFMA
	}
	shapes := [][3]int{{1, 1, 1}, {6, 8, 1}, {5, 7, 3}, {7, 9, 300}, {13, 17, 257}, {97, 31, 64}, {200, 9, 513}, {6, 8, 0}, {192, 40, 10}, {7, gemmNC + 5, 3}}
	for name, kern := range kernels {
		for _, s := range shapes {
			m, n, k := s[0], s[1], s[2]
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				a, b := make([]float64, m*k), make([]float64, k*n)
				for i := range a {
					a[i] = r.NormFloat64()
				}
				for i := range b {
					b[i] = r.NormFloat64()
				}
				c, want := make([]float64, m*n), make([]float64, m*n)
				for i := range c {
					c[i] = float64(i % 5)
					want[i] = c[i]
				}
				gemmPacked(tr[0], tr[1], m, n, k, a, b, c, kern)
				for i, v := range nnNaiveGemm(tr[0], tr[1], m, n, k, a, b) {
					want[i] += v
				}
				for i := range c {
					if math.Abs(c[i]-want[i]) > 1e-12*(1+math.Abs(want[i]))*float64(k+1) {
						t.Fatalf("%s %v trans=%v: c[%d] = %v, want %v", name, s, tr, i, c[i], want[i])
					}
				}
			}
		}
	}
}

// Every product is formed: 0·Inf is NaN, as in PyTorch's BLAS.
func TestGemmPackedNonFinite(t *testing.T) {
	m, n, k := 7, 9, 5
	a, b := make([]float64, m*k), make([]float64, k*n)
	b[2*n+3] = math.Inf(1) // row 2, column 3 of B; A is all zero
	c := make([]float64, m*n)
	kern := gemmKernelGo
	if gemmHasFMA {
		kern = gemmKernelFMA
	}
	gemmPacked(false, false, m, n, k, a, b, c, kern)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if got := c[i*n+j]; (j == 3) != math.IsNaN(got) || (j != 3 && got != 0) {
				t.Fatalf("c[%d][%d] = %v", i, j, got)
			}
		}
	}
}

func BenchmarkGemm1024(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1024
	x, y, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range x {
		x[i], y[i] = r.NormFloat64(), r.NormFloat64()
	}
	for _, bc := range []struct {
		name string
		run  func()
	}{
		{"nnGemm", func() { nnGemm(false, true, n, n, n, x, y, c, false) }},
		{"packedGo", func() { gemmPacked(false, true, n, n, n, x, y, c, gemmKernelGo) }},
		{"packedFMA", func() { gemmPacked(false, true, n, n, n, x, y, c, gemmKernelFMA) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bc.run()
			}
			b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// TestGemmPackedSameAtAnyCoreCount: the tiles of C are split over row
// blocks and, with few row blocks, over columns too; every C element is
// the same sum whatever the split.
func TestGemmPackedSameAtAnyCoreCount(t *testing.T) {
	if !gemmHasFMA {
		t.Skip("no FMA micro-kernel on this CPU")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range [][3]int{{64, 3136, 147}, {7, 1000, 33}, {100, 50, 300}, {300, 20, 20}, {5, gemmNC + 77, 9}} {
		m, n, k := s[0], s[1], s[2]
		a, b := make([]float64, m*k), make([]float64, k*n)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		for i := range b {
			b[i] = r.NormFloat64()
		}
		var want []float64
		for _, procs := range []int{1, 2, 3, 5} {
			runtime.GOMAXPROCS(procs)
			c := make([]float64, m*n)
			for i := range c {
				c[i] = float64(i % 3)
			}
			gemmPacked(false, true, m, n, k, a, b, c, gemmKernelFMA)
			if want == nil {
				want = c
				continue
			}
			for i := range c {
				if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%v at GOMAXPROCS=%d: c[%d] = %v, at 1: %v", s, procs, i, c[i], want[i])
				}
			}
		}
	}
}

// BenchmarkGemmPackA packs a 96×256 block of A, stored as it is and
// transposed, as one row-block task of gemmPacked does.
func BenchmarkGemmPackA(b *testing.B) {
	const m, k = 960, 1024
	a := make([]float64, m*k)
	ap := make([]float64, gemmMC*gemmKC)
	for _, trans := range []bool{false, true} {
		b.Run(fmt.Sprintf("transA=%v", trans), func(b *testing.B) {
			for b.Loop() {
				gemmPackA(ap, a, trans, 96, 256, gemmMC, gemmKC, m, k)
			}
		})
	}
}

// BenchmarkGemmPackB packs a 256×4096 block of B, stored as it is and
// transposed.
func BenchmarkGemmPackB(b *testing.B) {
	const n, k = 4096, 1024
	x := make([]float64, n*k)
	bp := make([]float64, gemmKC*gemmNC)
	for _, trans := range []bool{false, true} {
		b.Run(fmt.Sprintf("transB=%v", trans), func(b *testing.B) {
			for b.Loop() {
				gemmPackB(bp, x, trans, 256, 0, gemmKC, gemmNC, n, k, 0, gemmNC/gemmNR)
			}
		})
	}
}
