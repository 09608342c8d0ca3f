package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// nnNaiveGemm is the textbook triple loop.
func nnNaiveGemm(transA, transB bool, m, n, k int, a, b []float64) []float64 {
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for l := 0; l < k; l++ {
				av, bv := a[i*k+l], b[l*n+j]
				if transA {
					av = a[l*m+i]
				}
				if transB {
					bv = b[j*k+l]
				}
				s += av * bv
			}
			c[i*n+j] = s
		}
	}
	return c
}

// TestNNGemm compares nnGemm's paths (the packed FMA dgemm for large
// products where AVX2/FMA exist, gonum for other finite data, the plain
// loop otherwise) with the triple loop, for every transpose combination,
// sizes large enough for the blocked parallel code, and accumulation.
func TestNNGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][3]int{{3, 4, 5}, {1, 1, 1}, {70, 65, 130}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			a := make([]float64, m*k)
			b := make([]float64, k*n)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			for i := range b {
				b[i] = r.NormFloat64()
			}
			want := nnNaiveGemm(tr[0], tr[1], m, n, k, a, b)
			c := make([]float64, m*n)
			for i := range c {
				c[i] = 1
			}
			nnGemm(tr[0], tr[1], m, n, k, a, b, c, true)
			for i := range c {
				if math.Abs(c[i]-(want[i]+1)) > 1e-12*(1+math.Abs(want[i])) {
					t.Fatalf("%v %v acc: c[%d] = %v, want %v", sz, tr, i, c[i], want[i]+1)
				}
			}
			// A non-finite operand takes the plain loop.
			b[0] = math.Inf(1)
			want = nnNaiveGemm(tr[0], tr[1], m, n, k, a, b)
			nnGemm(tr[0], tr[1], m, n, k, a, b, c, false)
			for i := range c {
				if !nnSameFloat(c[i], want[i]) {
					t.Fatalf("%v %v inf: c[%d] = %v, want %v", sz, tr, i, c[i], want[i])
				}
			}
		}
	}
}

// nnSameFloat: both NaN, equal, or within 1e-12 relative.
func nnSameFloat(got, want float64) bool {
	switch {
	case math.IsNaN(want) || math.IsNaN(got):
		return math.IsNaN(want) && math.IsNaN(got)
	case got == want:
		return true
	case math.IsInf(want, 0) || math.IsInf(got, 0):
		return false
	}
	return math.Abs(got-want) <= 1e-12*(1+math.Abs(want))
}

// TestMatmulZeroTimesInf: 0·Inf is NaN in PyTorch's BLAS; gonum's dgemm
// would skip the zero.
func TestMatmulZeroTimesInf(t *testing.T) {
	a := &array{shape: []int{1, 2}, data: []float64{0, 1}, dtype: tensor.Float64}
	b := &array{shape: []int{2, 1}, data: []float64{math.Inf(1), 2}, dtype: tensor.Float64}
	out, err := matmulForward(&call{op: "matmul", in: []*array{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(out[0].data[0]) {
		t.Errorf("0*Inf + 1*2 = %v, want NaN", out[0].data[0])
	}
}
