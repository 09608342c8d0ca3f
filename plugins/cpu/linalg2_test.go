package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func linalg2Rand(r *rand.Rand, shape ...int) *array {
	a := nnNew(shape, tensor.Float64)
	for i := range a.data {
		a.data[i] = r.NormFloat64()
	}
	return a
}

func linalg2Einsum(t *testing.T, eq string, xs ...*array) *array {
	t.Helper()
	rg := make([]bool, len(xs))
	for i := range rg {
		rg[i] = true
	}
	out, err := linalg2EinsumForward(&call{op: "einsum", attrs: ops.Attrs{"equation": ops.StringAttr(eq)}, in: xs, requiresGrad: rg})
	if err != nil {
		t.Fatal(err)
	}
	return out[0]
}

// TestLinalg2EinsumLarge checks einsum on operands larger than the
// gather's chunk (several chunks, gathered in parallel) against plain
// loops: an attention-like batched product and a transpose.
func TestLinalg2EinsumLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const b, q, k, d = 3, 70, 90, 40
	x, y := linalg2Rand(r, b, q, d), linalg2Rand(r, b, k, d)
	got := linalg2Einsum(t, "bqd,bkd->bqk", x, y)
	for bi := 0; bi < b; bi++ {
		for i := 0; i < q; i++ {
			for j := 0; j < k; j++ {
				s := 0.0
				for l := 0; l < d; l++ {
					s += x.data[(bi*q+i)*d+l] * y.data[(bi*k+j)*d+l]
				}
				if v := got.data[(bi*q+i)*k+j]; math.Abs(v-s) > 1e-12*(1+math.Abs(s)) {
					t.Fatalf("[%d,%d,%d] = %v, want %v", bi, i, j, v, s)
				}
			}
		}
	}
	m := linalg2Rand(r, 300, 200)
	tr := linalg2Einsum(t, "ij->ji", m)
	for i := 0; i < 300; i++ {
		for j := 0; j < 200; j++ {
			if tr.data[j*300+i] != m.data[i*200+j] {
				t.Fatalf("transpose [%d,%d]", j, i)
			}
		}
	}
}

// TestLinalg2EinsumBackwardDiagonal: the gradient of a trace lands on the
// diagonal only, and the gradient of a broadcast size-1 operand is summed.
func TestLinalg2EinsumBackwardDiagonal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := linalg2Rand(r, 3, 3)
	c := &call{op: "einsum", attrs: ops.Attrs{"equation": ops.StringAttr("ii")}, in: []*array{x}, requiresGrad: []bool{true}}
	outs, err := linalg2EinsumForward(c)
	if err != nil {
		t.Fatal(err)
	}
	g := &array{shape: []int{}, data: []float64{2}, dtype: tensor.Float64}
	gs, err := linalg2EinsumBackward(c, outs, []*array{g})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			want := 0.0
			if i == j {
				want = 2
			}
			if gs[0].data[i*3+j] != want {
				t.Fatalf("grad[%d,%d] = %v, want %v", i, j, gs[0].data[i*3+j], want)
			}
		}
	}
	a, b := linalg2Rand(r, 1, 3), linalg2Rand(r, 2, 3)
	c = &call{op: "einsum", attrs: ops.Attrs{"equation": ops.StringAttr("ij,ij->ij")}, in: []*array{a, b}, requiresGrad: []bool{true, true}}
	outs, _ = linalg2EinsumForward(c)
	ones := nnNew([]int{2, 3}, tensor.Float64)
	for i := range ones.data {
		ones.data[i] = 1
	}
	gs, err = linalg2EinsumBackward(c, outs, []*array{ones})
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 3; j++ {
		if want := b.data[j] + b.data[3+j]; math.Abs(gs[0].data[j]-want) > 1e-15 {
			t.Fatalf("broadcast grad[%d] = %v, want %v", j, gs[0].data[j], want)
		}
	}
}

// TestLinalg2Expm: exp of a diagonal matrix is the exponentials, also past
// the scaling threshold; exp of a nilpotent matrix is I + N.
func TestLinalg2Expm(t *testing.T) {
	e := linalg2Expm([]float64{0.5, 0, 0, 9}, 2)
	for i, want := range []float64{math.Exp(0.5), 0, 0, math.Exp(9)} {
		if math.Abs(e[i]-want) > 1e-13*math.Max(1, want) {
			t.Fatalf("exp(diag)[%d] = %v, want %v", i, e[i], want)
		}
	}
	e = linalg2Expm([]float64{0, 3, 0, 0}, 2)
	for i, want := range []float64{1, 3, 0, 1} {
		if math.Abs(e[i]-want) > 1e-14 {
			t.Fatalf("exp(nilpotent)[%d] = %v, want %v", i, e[i], want)
		}
	}
}

// TestLinalg2Solvers: cholesky_solve, triangular solves and the LU solve
// reproduce the right-hand side.
func TestLinalg2Solvers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, k = 5, 3
	a := linalg2Rand(r, n, n)
	spd := linalg2MM(a.data, a.data, n, n, n, false, true)
	for i := 0; i < n; i++ {
		spd[i*n+i] += n
	}
	b := linalg2Rand(r, n, k)
	l, info := linalg2Chol(spd, n)
	if info != 0 {
		t.Fatalf("cholesky info %d", info)
	}
	x := append([]float64(nil), b.data...)
	linalg2CholSolve(l, n, x, k, false)
	linalg2Close(t, "cholesky_solve", linalg2MM(spd, x, n, n, k, false, false), b.data)
	lu, piv, inf, _ := laLU(a.data, n)
	if inf != 0 {
		t.Fatalf("lu info %d", inf)
	}
	x = append([]float64(nil), b.data...)
	linalg2LUSolve(lu, piv, n, x, k)
	linalg2Close(t, "lu solve", linalg2MM(a.data, x, n, n, k, false, false), b.data)
	for _, trans := range []bool{false, true} {
		x = append([]float64(nil), b.data...)
		linalg2TriSolve(l, n, x, k, true, trans, false)
		linalg2Close(t, "triangular", linalg2MM(l, x, n, n, k, trans, false), b.data)
	}
}

func linalg2Close(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, got[i], want[i])
		}
	}
}
