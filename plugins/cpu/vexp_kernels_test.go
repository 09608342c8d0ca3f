package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
)

// The kernels that take their exps through expInto (softmax, log_softmax,
// cross_entropy, logsumexp) must give the bytes they gave with math.Exp
// called one element at a time: the references below are those per-element
// loops, and every output is compared bit for bit.

func vexpTestInput(r *rand.Rand, shape ...int) *array {
	a := nnRandArray(r, shape...)
	for i := range a.data {
		a.data[i] *= 8
		switch r.IntN(50) {
		case 0:
			a.data[i] = math.Inf(-1) // masked
		case 1:
			a.data[i] = -800 + r.Float64()*100 // subnormal and zero exps
		}
	}
	return a
}

func vexpSame(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	bad := 0
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			if bad < 5 {
				t.Errorf("%s: element %d = %v, per-element math.Exp gives %v", what, i, got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d elements differ", what, bad, len(got))
	}
}

func vexpSplit(shape []int, dim int) (outer, size, inner int) {
	outer, size, inner = 1, shape[dim], 1
	for _, s := range shape[:dim] {
		outer *= s
	}
	for _, s := range shape[dim+1:] {
		inner *= s
	}
	return
}

func TestExpKernelsSoftmax(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		shape []int
		dim   int
	}{{[]int{7, 1100}, 1}, {[]int{3, 5, 9}, 1}, {[]int{4, 6, 3}, 0}, {[]int{2, 3}, 1}, {[]int{1, 1}, 1}} {
		x := vexpTestInput(r, tc.shape...)
		outer, size, inner := vexpSplit(tc.shape, tc.dim)
		for _, log := range []bool{false, true} {
			op := "softmax"
			if log {
				op = "log_softmax"
			}
			c := &call{op: op, attrs: ops.Attrs{"dim": ops.IntAttr(int64(tc.dim))}, in: []*array{x}, requiresGrad: []bool{true}}
			outs, err := kernels[op].forward(c)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, len(x.data))
			for o := 0; o < outer; o++ {
				for in := 0; in < inner; in++ {
					base := o*size*inner + in
					m := math.Inf(-1)
					for j := 0; j < size; j++ {
						if v := x.data[base+j*inner]; v > m || math.IsNaN(v) {
							m = v
						}
					}
					sum := 0.0
					for j := 0; j < size; j++ {
						sum += math.Exp(x.data[base+j*inner] - m)
					}
					ls := math.Log(sum)
					for j := 0; j < size; j++ {
						k := base + j*inner
						if log {
							want[k] = x.data[k] - m - ls
						} else {
							want[k] = math.Exp(x.data[k]-m) / sum
						}
					}
				}
			}
			vexpSame(t, op+" forward", outs[0].data, want)

			// The backward from an output without infinities.
			y := nnRandArray(r, tc.shape...)
			g := nnRandArray(r, tc.shape...)
			gx, err := kernels[op].backward(c, []*array{y}, []*array{g})
			if err != nil {
				t.Fatal(err)
			}
			for o := 0; o < outer; o++ {
				for in := 0; in < inner; in++ {
					base := o*size*inner + in
					s := 0.0
					for j := 0; j < size; j++ {
						k := base + j*inner
						if log {
							s += g.data[k]
						} else {
							s += g.data[k] * y.data[k]
						}
					}
					for j := 0; j < size; j++ {
						k := base + j*inner
						if log {
							want[k] = g.data[k] - math.Exp(y.data[k])*s
						} else {
							want[k] = y.data[k] * (g.data[k] - s)
						}
					}
				}
			}
			vexpSame(t, op+" backward", gx[0].data, want)
		}
	}
}

func TestExpKernelsCrossEntropy(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ n, classes, d int }{{6, 1100, 1}, {3, 700, 2}, {4, 3, 5}} {
		shape := []int{tc.n, tc.classes}
		tshape := []int{tc.n}
		if tc.d > 1 {
			shape = append(shape, tc.d)
			tshape = append(tshape, tc.d)
		}
		x := nnRandArray(r, shape...)
		for i := range x.data {
			x.data[i] *= 8
		}
		tg := make([]int64, tc.n*tc.d)
		for i := range tg {
			tg[i] = int64(r.IntN(tc.classes))
		}
		tg[0] = -100 // ignored
		at := func(i, c, j int) int { return (i*tc.classes+c)*tc.d + j }
		stats := func(i, j int) (m, ls float64) {
			m = math.Inf(-1)
			for c := 0; c < tc.classes; c++ {
				if v := x.data[at(i, c, j)]; v > m || v != v {
					m = v
				}
			}
			s := 0.0
			for c := 0; c < tc.classes; c++ {
				s += math.Exp(x.data[at(i, c, j)] - m)
			}
			return m, math.Log(s)
		}
		for _, probs := range []bool{false, true} {
			tgt := nnIdxArray(tg, tshape...)
			if probs {
				tgt = nnRandArray(r, shape...)
			}
			c := &call{op: "cross_entropy", attrs: ops.Attrs{"reduction": ops.StringAttr("none")},
				in: []*array{x, tgt, nil}, requiresGrad: []bool{true, false, false}}
			outs, err := kernels["cross_entropy"].forward(c)
			if err != nil {
				t.Fatal(err)
			}
			g := nnRandArray(r, tshape...)
			gx, err := kernels["cross_entropy"].backward(c, outs, []*array{g})
			if err != nil {
				t.Fatal(err)
			}
			per := make([]float64, tc.n*tc.d)
			want := make([]float64, len(x.data))
			for e := range per {
				i, j := e/tc.d, e%tc.d
				m, ls := stats(i, j)
				if probs {
					s := 0.0
					for c := 0; c < tc.classes; c++ {
						k := at(i, c, j)
						s += (x.data[k] - m - ls) * (tgt.data[k] * 1) * 1
					}
					per[e] = -s
					coefSum := 0.0
					for c := 0; c < tc.classes; c++ {
						coefSum += -1 * (tgt.data[at(i, c, j)] * 1) * g.data[e]
					}
					for c := 0; c < tc.classes; c++ {
						k := at(i, c, j)
						want[k] = -1*(tgt.data[k]*1)*g.data[e] - math.Exp(x.data[k]-m-ls)*coefSum
					}
					continue
				}
				t := int(tg[e])
				ok := t != -100
				if ok {
					per[e] = -1 * (x.data[at(i, t, j)] - m - ls)
				}
				v, s := 0.0, 0.0
				if ok {
					v = -1 * g.data[e]
					s += v
				}
				for cl := 0; cl < tc.classes; cl++ {
					cv := 0.0
					if ok && cl == t {
						cv = v
					}
					k := at(i, cl, j)
					want[k] = cv - math.Exp(x.data[k]-m-ls)*s
				}
			}
			what := "cross_entropy (class targets)"
			if probs {
				what = "cross_entropy (probabilities)"
			}
			vexpSame(t, what+" forward", outs[0].data, per)
			vexpSame(t, what+" backward", gx[0].data, want)
		}
	}
}

func TestExpKernelsLogsumexp(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		shape []int
		dim   int
	}{{[]int{5, 1030}, 1}, {[]int{9, 4, 3}, 0}, {[]int{3, 7}, 1}} {
		x := vexpTestInput(r, tc.shape...)
		c := &call{op: "logsumexp", attrs: ops.Attrs{"dim": ops.IntsAttr(int64(tc.dim))}, in: []*array{x}, requiresGrad: []bool{true}}
		outs, err := kernels["logsumexp"].forward(c)
		if err != nil {
			t.Fatal(err)
		}
		outer, size, inner := vexpSplit(tc.shape, tc.dim)
		want := make([]float64, outer*inner)
		for o := 0; o < outer; o++ {
			for in := 0; in < inner; in++ {
				base := o*size*inner + in
				m := math.Inf(-1)
				for j := 0; j < size; j++ {
					v := x.data[base+j*inner]
					if v != v {
						m = v
						break
					}
					m = math.Max(m, v)
				}
				if math.IsInf(m, 0) {
					m = 0
				}
				s := 0.0
				for j := 0; j < size; j++ {
					s += math.Exp(x.data[base+j*inner] - m)
				}
				want[o*inner+in] = math.Log(s) + m
			}
		}
		vexpSame(t, "logsumexp forward", outs[0].data, want)

		g := nnRandArray(r, outs[0].shape...)
		gx, err := kernels["logsumexp"].backward(c, outs, []*array{g})
		if err != nil {
			t.Fatal(err)
		}
		wantGx := make([]float64, len(x.data))
		for o := 0; o < outer; o++ {
			for in := 0; in < inner; in++ {
				base := o*size*inner + in
				for j := 0; j < size; j++ {
					k := base + j*inner
					wantGx[k] = g.data[o*inner+in] * math.Exp(x.data[k]-outs[0].data[o*inner+in])
				}
			}
		}
		vexpSame(t, "logsumexp backward", gx[0].data, wantGx)
	}
}

// BenchmarkNNSoftmax is softmax forward and backward over attention-score
// rows (go test -bench NNSoftmax ./plugins/cpu).
func BenchmarkNNSoftmax(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 11))
	c := &call{op: "softmax", attrs: ops.Attrs{"dim": ops.IntAttr(-1)}, in: []*array{nnRandArray(r, 64, 512)}, requiresGrad: make([]bool, 1)}
	nnBenchKernel(b, c, true)
}

// BenchmarkNNLogSoftmax is log_softmax forward and backward over
// vocabulary-sized rows.
func BenchmarkNNLogSoftmax(b *testing.B) {
	r := rand.New(rand.NewPCG(12, 12))
	c := &call{op: "log_softmax", attrs: ops.Attrs{"dim": ops.IntAttr(-1)}, in: []*array{nnRandArray(r, 8, 8192)}, requiresGrad: make([]bool, 1)}
	nnBenchKernel(b, c, true)
}

// BenchmarkNNCrossEntropy is cross_entropy forward and backward with class
// targets over vocabulary-sized rows.
func BenchmarkNNCrossEntropy(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 13))
	tg := make([]int64, 8)
	for i := range tg {
		tg[i] = int64(r.IntN(8192))
	}
	c := &call{op: "cross_entropy", attrs: ops.Attrs{}, in: []*array{nnRandArray(r, 8, 8192), nnIdxArray(tg, 8), nil}, requiresGrad: make([]bool, 3)}
	nnBenchKernel(b, c, true)
}
