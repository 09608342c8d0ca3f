package cpu

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Tests of npu.fusion_attention: the vectors of mindspore-precheck.md
// §11.7 and the worked examples of fused-ops.md §7.9, finite-difference
// checks of the backward, and the device-level behaviour (dtypes, errors).
// testdata/golden/nn_attention.json.gz adds cases computed by PyTorch from
// a plain softmax(Q·Kᵀ·scale + mask)·V (testdata/gen_golden_attention.py).

func attnArr(shape []int, vals ...float64) *array {
	a := nnNew(shape, tensor.Float64)
	copy(a.data, vals)
	return a
}

// attnCall builds a call with the schema defaults and the given attributes.
func attnCall(q, k, v, pse, mask *array, attrs ops.Attrs) *call {
	c := &call{op: "npu.fusion_attention", attrs: ops.Attrs{}, in: []*array{q, k, v, pse, mask}, requiresGrad: []bool{true, true, true, pse != nil, false}}
	sch, _ := ops.Lookup("npu.fusion_attention")
	for _, a := range sch.Attrs {
		c.attrs[a.Name] = a.Default
	}
	for n, a := range attrs {
		c.attrs[n] = a
	}
	return c
}

func bnsd(extra ops.Attrs) ops.Attrs {
	a := ops.Attrs{"head_num": ops.IntAttr(1), "input_layout": ops.StringAttr("BNSD")}
	for n, v := range extra {
		a[n] = v
	}
	return a
}

func attnClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Errorf("%s[%d] = %.12g, want %.12g", what, i, got[i], want[i])
		}
	}
}

// every8 takes every 8th value of a softmax_max/softmax_sum output, after
// checking that the 8 repeats are equal.
func every8(t *testing.T, a *array) []float64 {
	t.Helper()
	var out []float64
	for i := 0; i < len(a.data); i += 8 {
		for r := 1; r < 8; r++ {
			if a.data[i+r] != a.data[i] {
				t.Fatalf("row %d: repeat %d = %v, want %v", i/8, r, a.data[i+r], a.data[i])
			}
		}
		out = append(out, a.data[i])
	}
	return out
}

func TestAttnParseBSND(t *testing.T) {
	d, err := attnParseBSND([]int{2, 3, 4}, []int{2, 5, 4}, 2, "BSH")
	if err != nil {
		t.Fatal(err)
	}
	got := []int{d.B, d.S1, d.S2, d.N1, d.N2, d.D, d.H1, d.H2}
	if !reflect.DeepEqual(got, []int{2, 3, 5, 2, 2, 2, 4, 4}) {
		t.Errorf("(B,S1,S2,N1,N2,D,H1,H2) = %v, want (2,3,5,2,2,2,4,4)", got)
	}
	for _, c := range []struct {
		layout string
		q, k   []int
		heads  int
		want   []int
	}{
		{"SBH", []int{3, 2, 8}, []int{5, 2, 4}, 4, []int{2, 3, 5, 4, 2, 2, 8, 4}},
		{"BSND", []int{2, 3, 4, 6}, []int{2, 5, 2, 6}, 99, []int{2, 3, 5, 4, 2, 6, 24, 12}},
		{"BNSD", []int{2, 4, 3, 6}, []int{2, 1, 5, 6}, 1, []int{2, 3, 5, 4, 1, 6, 24, 6}},
	} {
		d, err := attnParseBSND(c.q, c.k, c.heads, c.layout)
		if err != nil {
			t.Fatalf("%s: %v", c.layout, err)
		}
		if got := []int{d.B, d.S1, d.S2, d.N1, d.N2, d.D, d.H1, d.H2}; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.layout, got, c.want)
		}
	}
	for _, c := range []struct {
		name   string
		q, k   []int
		heads  int
		layout string
		want   string
	}{
		{"D=0", []int{2, 3, 0}, []int{2, 3, 0}, 2, "BSH", "head dim"},
		{"D=0 BNSD", []int{2, 1, 3, 0}, []int{2, 1, 3, 0}, 1, "BNSD", "head dim"},
		{"TND", []int{6, 2, 4}, []int{6, 2, 4}, 2, "TND", "TND is not supported"},
		{"head_num 0", []int{2, 3, 4}, []int{2, 3, 4}, 0, "BSH", "head_num must be positive"},
		{"H=8 head_num 3", []int{2, 3, 8}, []int{2, 3, 8}, 3, "BSH", "do not match"},
		{"unknown layout", []int{2, 3, 4}, []int{2, 3, 4}, 2, "BHS", "not one of"},
		{"rank", []int{2, 3, 4}, []int{2, 3, 4}, 2, "BSND", "needs 4-d"},
		{"batch", []int{2, 3, 4}, []int{3, 3, 4}, 2, "BSH", "batch"},
		{"N2 > N1", []int{1, 1, 3, 4}, []int{1, 2, 3, 4}, 1, "BNSD", "do not match"},
		{"H1 % N1", []int{1, 3, 5}, []int{1, 3, 4}, 2, "BSH", "multiples of the head dim"},
	} {
		if _, err := attnParseBSND(c.q, c.k, c.heads, c.layout); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestAttnBroadcastKV(t *testing.T) {
	kv := nnNew([]int{1, 2, 3, 4}, tensor.Float64)
	for i := range kv.data {
		kv.data[i] = float64(i)
	}
	out, err := attnBroadcastKV(4, 2, kv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.shape, []int{1, 4, 3, 4}) {
		t.Fatalf("shape %v", out.shape)
	}
	for h, src := range []int{0, 0, 1, 1} {
		if !reflect.DeepEqual(out.data[h*12:(h+1)*12], kv.data[src*12:(src+1)*12]) {
			t.Errorf("head %d is not a copy of kv head %d", h, src)
		}
	}
	for _, c := range []struct {
		name         string
		heads, kvHds int
		kv           *array
	}{
		{"3-d", 4, 2, nnNew([]int{2, 3, 4}, tensor.Float64)},
		{"num_kv_heads 0", 4, 0, kv},
		{"4 from 3", 4, 3, nnNew([]int{1, 3, 3, 4}, tensor.Float64)},
		{"3 from 2", 3, 2, kv},
	} {
		if _, err := attnBroadcastKV(c.heads, c.kvHds, c.kv); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

func TestAttnLayoutRoundTrip(t *testing.T) {
	const B, N, S, D = 2, 3, 4, 5
	x := make([]float64, B*N*S*D)
	for i := range x {
		x[i] = float64(i) + 0.25
	}
	for _, layout := range []string{"BSH", "SBH", "BSND", "BNSD"} {
		l := attnFromBNSD(x, layout, B, N, S, D)
		if back := attnToBNSD(l, layout, B, N, S, D); !reflect.DeepEqual(back, x) {
			t.Errorf("%s: BNSD→layout→BNSD changed the data", layout)
		}
		if layout != "BNSD" && reflect.DeepEqual(l, x) {
			t.Errorf("%s: conversion is the identity", layout)
		}
		if n := tensor.NumElements(attnLayoutShape(layout, B, N, S, D)); n != len(x) {
			t.Errorf("%s: layout shape has %d elements", layout, n)
		}
	}
	// fused-ops.md §7.3 BSH example: query[0, s, :] = [Q[0,0,s,0], Q[0,0,s,1], Q[0,1,s,0], Q[0,1,s,1]].
	q := []float64{1, 2, 3, 4, 5, 6, 7, 8} // BNSD [1, 2, 2, 2]
	if got := attnFromBNSD(q, "BSH", 1, 2, 2, 2); !reflect.DeepEqual(got, []float64{1, 2, 5, 6, 3, 4, 7, 8}) {
		t.Errorf("BSH = %v", got)
	}
}

func TestAttnSoftmaxRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := make([]float64, 4*7)
	for i := range s {
		s[i] = 10 * r.NormFloat64()
	}
	mx, sm := make([]float64, 4), make([]float64, 4)
	attnSoftmaxRows(s, 7, mx, sm)
	for i := 0; i < 4; i++ {
		sum := 0.0
		for _, p := range s[i*7 : (i+1)*7] {
			sum += p
		}
		if math.Abs(sum-1) > 1e-14 {
			t.Errorf("row %d sums to %v", i, sum)
		}
		if sm[i] < 1 {
			t.Errorf("row %d: exp-sum %v < 1", i, sm[i])
		}
	}
	// The softmax gradient rows sum to 0: with a full BNSS pse, dpse = scale·dS.
	q, k, v := nnRandArray(r, 1, 2, 3, 4), nnRandArray(r, 1, 2, 5, 4), nnRandArray(r, 1, 2, 5, 4)
	pse := nnRandArray(r, 1, 2, 3, 5)
	c := attnCall(q, k, v, pse, nil, bnsd(ops.Attrs{"scale": ops.FloatAttr(0.5)}))
	outs, err := attnForward(c)
	if err != nil {
		t.Fatal(err)
	}
	g, err := attnBackward(c, outs, []*array{nnRandArray(r, 1, 2, 3, 4), nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		sum := 0.0
		for _, x := range g[3].data[i*5 : (i+1)*5] {
			sum += x
		}
		if math.Abs(sum) > 1e-14 {
			t.Errorf("dpse row %d sums to %v", i, sum)
		}
	}
}

// TestAttnScoresWithPse: with pse (ones) and an all-zero mask the scores
// are (Q·Kᵀ + pse)·scale.
func TestAttnScoresWithPse(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	q, k, v := nnRandArray(r, 1, 1, 3, 2), nnRandArray(r, 1, 1, 4, 2), nnRandArray(r, 1, 1, 4, 2)
	pse := nnConst(1, 1, 1, 3, 4)
	mask := nnNew([]int{3, 4}, tensor.Bool)
	a, err := attnSetup(attnCall(q, k, v, pse, mask, bnsd(ops.Attrs{"scale": ops.FloatAttr(0.3), "sparse_mode": ops.IntAttr(1)})))
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float64, 12)
	a.headScores(0, 0, s, make([]bool, 3))
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			want := (q.data[2*i]*k.data[2*j] + q.data[2*i+1]*k.data[2*j+1] + 1) * 0.3
			if math.Abs(s[4*i+j]-want) > 1e-15 {
				t.Errorf("score[%d][%d] = %v, want %v", i, j, s[4*i+j], want)
			}
		}
	}
}

func maskRows(m *array) [][]int {
	s2 := m.shape[len(m.shape)-1]
	var rows [][]int
	for i := 0; i < len(m.data)/s2; i++ {
		row := make([]int, s2)
		for j := range row {
			if m.data[i*s2+j] != 0 {
				row[j] = 1
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func TestAttnMasks(t *testing.T) {
	band := [][]int{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}
	causal := [][]int{{0, 1, 1}, {0, 0, 1}, {0, 0, 0}}
	zeros := [][]int{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
	compressed := nnNew([]int{attnCompressed, attnCompressed}, tensor.Bool)
	for i := 0; i < attnCompressed; i++ {
		for j := i + 1; j < attnCompressed; j++ {
			compressed.data[i*attnCompressed+j] = 1
		}
	}
	four := nnNew([]int{1, 1, 3, 3}, tensor.Bool)
	four.data[1], four.data[5] = 1, 1
	for _, c := range []struct {
		name      string
		given     *array
		mode      int
		s1, s2    int
		pre, next int64
		br        bool
		want      [][]int
	}{
		{"mode 0", nil, 0, 3, 3, 0, 0, false, band},
		{"mode 1", nil, 1, 3, 3, 0, 0, false, zeros},
		{"mode 2", nil, 2, 3, 3, 0, 0, false, causal},
		{"mode 3", nil, 3, 3, 3, 0, 0, false, causal},
		{"mode 4", nil, 4, 3, 3, 0, 0, false, band},
		{"mode 0 defaults", nil, 0, 3, 3, math.MaxInt32, math.MaxInt32, false, zeros},
		{"mode 4 pre 1", nil, 4, 3, 3, 1, 0, false, [][]int{{0, 1, 1}, {0, 0, 1}, {1, 0, 0}}},
		{"mode 2 S1=2 S2=4", nil, 2, 2, 4, 0, 0, false, [][]int{{0, 1, 1, 1}, {0, 0, 1, 1}}},
		{"mode 3 S1=2 S2=4", nil, 3, 2, 4, 0, 0, false, [][]int{{0, 0, 0, 1}, {0, 0, 0, 0}}},
		{"mode 3 S1=2 S2=3", nil, 3, 2, 3, 0, 0, false, [][]int{{0, 0, 1}, {0, 0, 0}}},
		{"compressed mode 2", compressed, 2, 3, 3, 0, 0, false, causal},
		{"compressed mode 3", compressed, 3, 3, 3, 0, 0, false, causal},
		{"compressed mode 4", compressed, 4, 3, 3, 0, 0, false, band},
		{"compressed mode 3 S1=2 S2=4", compressed, 3, 2, 4, 0, 0, false, [][]int{{0, 0, 0, 1}, {0, 0, 0, 0}}},
		// mode 4 with S1 ≠ S2: the reference anchors the band top-left,
		// torch_npu's documentation bottom-right.
		{"mode 4 top-left", nil, 4, 2, 4, 0, 0, false, [][]int{{0, 1, 1, 1}, {1, 0, 1, 1}}},
		{"mode 4 bottom-right", nil, 4, 2, 4, 0, 0, true, [][]int{{1, 1, 0, 1}, {1, 1, 1, 0}}},
	} {
		m, err := attnMask(c.given, c.mode, c.s1, c.s2, c.pre, c.next, c.br)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(m.shape, []int{c.s1, c.s2}) {
			t.Errorf("%s: shape %v", c.name, m.shape)
		}
		if got := maskRows(m); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A 4-d mask passed with mode 1 is returned unchanged; the compressed
	// mask with mode 0 or 1 is used as given.
	if m, err := attnMask(four, 1, 3, 3, 0, 0, false); err != nil || m != four {
		t.Errorf("4-d mask with mode 1: %v, %v", m, err)
	}
	if m, err := attnMask(compressed, 1, 3, 3, 0, 0, false); err != nil || m != compressed {
		t.Errorf("compressed mask with mode 1 was rebuilt: %v", err)
	}
	for _, mode := range []int{5, 6, 7, 8} {
		if _, err := attnMask(nil, mode, 3, 3, 0, 0, false); err == nil || !strings.Contains(err.Error(), "needs an atten_mask") {
			t.Errorf("mode %d without mask: %v", mode, err)
		}
		if m, err := attnMask(four, mode, 3, 3, 0, 0, false); err != nil || m != four {
			t.Errorf("mode %d with mask: %v", mode, err)
		}
	}
	if _, err := attnMask(nil, 9, 3, 3, 0, 0, false); err == nil {
		t.Error("sparse_mode 9 accepted")
	}
}

// TestAttnDerivedExample is mindspore-precheck.md §11.7's derived forward
// example: BNSD, Q = K = I₂, V = [[1,2],[3,4]], scale 1/√2, sparse_mode 2.
func TestAttnDerivedExample(t *testing.T) {
	q := attnArr([]int{1, 1, 2, 2}, 1, 0, 0, 1)
	k := attnArr([]int{1, 1, 2, 2}, 1, 0, 0, 1)
	v := attnArr([]int{1, 1, 2, 2}, 1, 2, 3, 4)
	c := attnCall(q, k, v, nil, nil, bnsd(ops.Attrs{"scale": ops.FloatAttr(1 / math.Sqrt(2)), "sparse_mode": ops.IntAttr(2)}))
	a, err := attnSetup(c)
	if err != nil {
		t.Fatal(err)
	}
	s := make([]float64, 4)
	a.headScores(0, 0, s, make([]bool, 2))
	if want := []float64{0.7071067811865475, -40000.0, 0.0, 0.7071067811865475}; !reflect.DeepEqual(s, want) {
		t.Errorf("scores %v, want %v", s, want)
	}
	outs, err := attnForward(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := every8(t, outs[1]), []float64{0.7071067811865475, 0.7071067811865475}; !reflect.DeepEqual(got, want) {
		t.Errorf("softmax_max %v, want %v", got, want)
	}
	attnClose(t, "softmax_sum", every8(t, outs[2]), []float64{1.0, 1.4930686913952398}, 1e-16)
	attnClose(t, "attention_out", outs[0].data, []float64{1.0, 2.0, 2.3395230986533138, 3.3395230986533138}, 1e-16)
	if !slices.Equal(outs[0].shape, []int{1, 1, 2, 2}) || !slices.Equal(outs[1].shape, []int{1, 1, 2, 8}) {
		t.Errorf("shapes %v %v", outs[0].shape, outs[1].shape)
	}
}

// TestAttnWorkedExamples are fused-ops.md §7.9's examples A, B and C,
// forward and backward (values given to 6 decimals).
func TestAttnWorkedExamples(t *testing.T) {
	const tol = 6e-7
	run := func(name string, c *call, dO *array) ([]*array, []*array) {
		outs, err := attnForward(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, err := attnBackward(c, outs, []*array{dO, nil, nil})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return outs, g
	}
	// A: BNSD, S1 = S2 = 2, D = 1, scale 1, no mask.
	qa, ka, va := attnArr([]int{1, 1, 2, 1}, 1, 2), attnArr([]int{1, 1, 2, 1}, 1, 0), attnArr([]int{1, 1, 2, 1}, 1, 3)
	outs, g := run("A", attnCall(qa, ka, va, nil, nil, bnsd(nil)), nnConst(1, 1, 1, 2, 1))
	attnClose(t, "A O", outs[0].data, []float64{1.537883, 1.238406}, tol)
	attnClose(t, "A max", every8(t, outs[1]), []float64{1, 2}, tol)
	attnClose(t, "A sum", every8(t, outs[2]), []float64{1.367879, 1.135335}, tol)
	attnClose(t, "A dQ", g[0].data, []float64{-0.393224, -0.209987}, tol)
	attnClose(t, "A dK", g[1].data, []float64{-0.813198, 0.813198}, tol)
	attnClose(t, "A dV", g[2].data, []float64{1.611856, 0.388144}, tol)

	// B: GQA N1 = 2, N2 = 1, S1 = 2, S2 = 3, D = 2, scale 0.5, sparse_mode 3.
	qb := attnArr([]int{1, 2, 2, 2}, 1, 0, 0, 1, 1, 1, 0, -1)
	kb := attnArr([]int{1, 1, 3, 2}, 1, 0, 0, 1, 1, 1)
	vb := attnArr([]int{1, 1, 3, 2}, 1, 2, 3, 4, 5, 6)
	dO := attnArr([]int{1, 2, 2, 2}, 1, 0, 0, 1, 1, 1, 1, 1)
	outs, g = run("B", attnCall(qb, kb, vb, nil, nil, bnsd(ops.Attrs{"scale": ops.FloatAttr(0.5), "sparse_mode": ops.IntAttr(3)})), dO)
	attnClose(t, "B O", outs[0].data, []float64{1.755081, 2.755081, 3.301910, 4.301910, 2, 3, 2.644412, 3.644412}, tol)
	attnClose(t, "B max", every8(t, outs[1]), []float64{0.5, 0.5, 0.5, 0}, tol)
	attnClose(t, "B sum", every8(t, outs[2]), []float64{1.606531, 2.606531, 2, 2.213061}, tol)
	attnClose(t, "B dQ", g[0].data, []float64{-0.235004, 0.235004, 0.057914, 0.267823, -0.5, 0.5, -0.097456, 0.743048}, tol)
	attnClose(t, "B dK", g[1].data, []float64{-0.735004, -0.024775, 0.735004, 0.344630, 0, -0.319855}, tol)
	attnClose(t, "B dV", g[2].data, []float64{1.574322, 1.184559, 1.151609, 1.157720, 0.274069, 0.657720}, tol)
	outs, _ = run("B2", attnCall(qb, kb, vb, nil, nil, bnsd(ops.Attrs{"scale": ops.FloatAttr(0.5), "sparse_mode": ops.IntAttr(2)})), dO)
	attnClose(t, "B mode 2 O", outs[0].data, []float64{1, 2, 2.244919, 3.244919, 1, 2, 1.755081, 2.755081}, tol)

	// C: example A with scale 0.5 and pse [[0,1],[0,0]].
	pse := attnArr([]int{1, 1, 2, 2}, 0, 1, 0, 0)
	outs, g = run("C", attnCall(qa, ka, va, pse, nil, bnsd(ops.Attrs{"scale": ops.FloatAttr(0.5)})), nnConst(1, 1, 1, 2, 1))
	attnClose(t, "C O", outs[0].data, []float64{2, 1.537883}, tol)
	attnClose(t, "C max", every8(t, outs[1]), []float64{0.5, 1}, tol)
	attnClose(t, "C sum", every8(t, outs[2]), []float64{2, 1.367879}, tol)
	attnClose(t, "C dQ", g[0].data, []float64{-0.25, -0.196612}, tol)
	attnClose(t, "C dK", g[1].data, []float64{-0.643224, 0.643224}, tol)
	attnClose(t, "C dV", g[2].data, []float64{1.231059, 0.768941}, tol)
	attnClose(t, "C dpse", g[3].data, []float64{-0.25, 0.25, -0.196612, 0.196612}, tol)
}

// TestAttnFullyMaskedRows: the reference keeps the unmasked attention of a
// fully masked row (uniform −40000 shift); zero_masked_rows zeroes it.
func TestAttnFullyMaskedRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	q, k, v := nnRandArray(r, 1, 1, 2, 3), nnRandArray(r, 1, 1, 4, 3), nnRandArray(r, 1, 1, 4, 3)
	mask := attnArr([]int{2, 4}, 1, 1, 1, 1, 0, 0, 1, 1)
	plain, err := attnForward(attnCall(q, k, v, nil, nil, bnsd(nil)))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := attnForward(attnCall(q, k, v, nil, mask, bnsd(nil)))
	if err != nil {
		t.Fatal(err)
	}
	attnClose(t, "masked row 0", ref[0].data[:3], plain[0].data[:3], 1e-9)
	c := attnCall(q, k, v, nil, mask, bnsd(ops.Attrs{"zero_masked_rows": ops.BoolAttr(true)}))
	zero, err := attnForward(c)
	if err != nil {
		t.Fatal(err)
	}
	attnClose(t, "zeroed row 0", zero[0].data[:3], []float64{0, 0, 0}, 0)
	attnClose(t, "row 1", zero[0].data[3:], ref[0].data[3:], 0)
	runNNGradCheck(t, nnGradCase{name: "zeroed", op: "npu.fusion_attention", in: []*array{q, k, v, nil, mask},
		attrs: bnsd(ops.Attrs{"zero_masked_rows": ops.BoolAttr(true)}), outs: []int{0}})
}

func TestAttnGradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	li := func(layout string, heads int64, extra ops.Attrs) ops.Attrs {
		a := ops.Attrs{"input_layout": ops.StringAttr(layout), "head_num": ops.IntAttr(heads), "scale": ops.FloatAttr(0.7)}
		for n, v := range extra {
			a[n] = v
		}
		return a
	}
	bmask := nnNew([]int{2, 1, 3, 4}, tensor.Bool)
	for i := range bmask.data {
		if r.Float64() < 0.3 {
			bmask.data[i] = 1
		}
	}
	cases := []nnGradCase{
		{name: "BSH_GQA_mode3", op: "npu.fusion_attention", attrs: li("BSH", 4, ops.Attrs{"sparse_mode": ops.IntAttr(3)}),
			in: []*array{nnRandArray(r, 2, 3, 8), nnRandArray(r, 2, 4, 4), nnRandArray(r, 2, 4, 4), nil, nil}},
		{name: "SBH_pse_bn1s_mask", op: "npu.fusion_attention", attrs: li("SBH", 2, nil),
			in: []*array{nnRandArray(r, 3, 2, 4), nnRandArray(r, 4, 2, 4), nnRandArray(r, 4, 2, 4), nnRandArray(r, 2, 2, 1, 4), bmask}},
		{name: "BSND_MQA_band", op: "npu.fusion_attention", attrs: li("BSND", 1, ops.Attrs{"sparse_mode": ops.IntAttr(4), "pre_tockens": ops.IntAttr(1), "next_tockens": ops.IntAttr(1)}),
			in: []*array{nnRandArray(r, 1, 4, 3, 2), nnRandArray(r, 1, 4, 1, 2), nnRandArray(r, 1, 4, 1, 2), nnRandArray(r, 1, 3, 4, 4), nil}},
		{name: "BNSD_pse_1nss", op: "npu.fusion_attention", attrs: li("BNSD", 2, nil),
			in: []*array{nnRandArray(r, 2, 2, 3, 2), nnRandArray(r, 2, 2, 5, 2), nnRandArray(r, 2, 2, 5, 2), nnRandArray(r, 1, 2, 3, 5), nil}},
		{name: "BSH_prefix_mode6", op: "npu.fusion_attention", attrs: li("BSH", 2, ops.Attrs{"sparse_mode": ops.IntAttr(6), "prefix": ops.IntsAttr(2, 0)}),
			in: []*array{nnRandArray(r, 2, 3, 4), nnRandArray(r, 2, 4, 4), nnRandArray(r, 2, 4, 4), nil, nil}},
		{name: "TND_GQA_mode7", op: "npu.fusion_attention", attrs: li("TND", 4, ops.Attrs{"sparse_mode": ops.IntAttr(7),
			"pre_tockens": ops.IntAttr(4), "next_tockens": ops.IntAttr(-1), "actual_seq_qlen": ops.IntsAttr(2, 2, 5), "actual_seq_kvlen": ops.IntsAttr(3, 4, 8)}),
			in: []*array{nnRandArray(r, 5, 4, 2), nnRandArray(r, 8, 2, 2), nnRandArray(r, 8, 2, 2), nil, nil}},
	}
	for _, gc := range cases {
		gc.outs = []int{0} // softmax_max/softmax_sum take no gradient
		t.Run(gc.name, func(t *testing.T) { runNNGradCheck(t, gc) })
	}
}

// TestAttnExecute runs the op through the device: output dtypes and
// shapes, and the errors.
func TestAttnExecute(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	ft := func(dt tensor.DType, shape ...int) *tensor.Tensor {
		v := make([]float64, tensor.NumElements(shape))
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return tensor.FromFloat64s(dt, shape, v)
	}
	attrs := ops.Attrs{"head_num": ops.IntAttr(2), "input_layout": ops.StringAttr("SBH")}
	dev := New(Options{Mode: Bench})
	for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32, tensor.BFloat16} {
		q, k := ft(dt, 3, 1, 8), ft(dt, 5, 1, 4)
		mask := tensor.FromInt64s(tensor.Uint8, []int{1, 1, 3, 5}, []int64{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0})
		req := &device.ExecRequest{Op: "npu.fusion_attention", Attrs: attrs, Inputs: []ops.Value{ops.T(q), ops.T(k), ops.T(ft(dt, 5, 1, 4)), ops.None, ops.T(mask)},
			RequiresGrad: []bool{true, true, true, false, false}, Backward: true, GradOutputs: []*tensor.Tensor{ft(dt, 3, 1, 8)}}
		res, err := dev.Execute(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", dt, err)
		}
		stat := tensor.Float32
		if dt == tensor.Float64 {
			stat = tensor.Float64
		}
		if o := res.Outputs[0]; o.DType != dt || !slices.Equal(o.Shape, []int{3, 1, 8}) {
			t.Errorf("%s: attention_out %s%v", dt, o.DType, o.Shape)
		}
		for _, o := range res.Outputs[1:] {
			if o.DType != stat || !slices.Equal(o.Shape, []int{1, 2, 3, 8}) {
				t.Errorf("%s: softmax stat %s%v", dt, o.DType, o.Shape)
			}
		}
		if g := res.InputGrads; g[0] == nil || g[1] == nil || g[2] == nil || g[3] != nil || g[4] != nil ||
			!slices.Equal(g[1].Shape, []int{5, 1, 4}) || g[1].DType != dt {
			t.Errorf("%s: input grads %v", dt, g)
		}
	}
	q := ft(tensor.Float32, 1, 2, 4)
	base := func(extra ops.Attrs, in ...ops.Value) *device.ExecRequest {
		a := ops.Attrs{"head_num": ops.IntAttr(1), "input_layout": ops.StringAttr("BSH")}
		for n, v := range extra {
			a[n] = v
		}
		if in == nil {
			in = []ops.Value{ops.T(q), ops.T(q), ops.T(q)}
		}
		return &device.ExecRequest{Op: "npu.fusion_attention", Attrs: a, Inputs: in}
	}
	for _, c := range []struct {
		name string
		req  *device.ExecRequest
		want string
	}{
		{"dropout", base(ops.Attrs{"keep_prob": ops.FloatAttr(0.9)}), "keep_prob < 1 is not supported"},
		{"keep_prob 0", base(ops.Attrs{"keep_prob": ops.FloatAttr(0)}), "keep_prob must be in (0, 1]"},
		{"TND", base(ops.Attrs{"input_layout": ops.StringAttr("TND")}), "TND needs actual_seq_qlen and actual_seq_kvlen"},
		{"TND ends", base(ops.Attrs{"input_layout": ops.StringAttr("TND"), "actual_seq_qlen": ops.IntsAttr(1, 3), "actual_seq_kvlen": ops.IntsAttr(1, 1)},
			ops.T(ft(tensor.Float32, 1, 2, 4)), ops.T(ft(tensor.Float32, 1, 2, 4)), ops.T(ft(tensor.Float32, 1, 2, 4))), "actual_seq_qlen [1 3] must end at T = 1"},
		{"mode 5 no mask", base(ops.Attrs{"sparse_mode": ops.IntAttr(5)}), "needs one prefix length per batch"},
		{"mode 7 not TND", base(ops.Attrs{"sparse_mode": ops.IntAttr(7)}), "sparse_mode 7 needs input_layout TND"},
		{"msprobe mode 5", base(ops.Attrs{"sparse_mode": ops.IntAttr(5), "semantics": ops.StringAttr("msprobe")}), "needs an atten_mask"},
		{"semantics", base(ops.Attrs{"semantics": ops.StringAttr("other")}), "semantics must be"},
		{"mask shape", base(nil, ops.T(q), ops.T(q), ops.T(q), ops.None, ops.T(ft(tensor.Float32, 3, 2))), "does not broadcast"},
		{"pse shape", base(nil, ops.T(q), ops.T(q), ops.T(q), ops.T(ft(tensor.Float32, 2, 1, 2, 2))), "does not broadcast"},
		{"kv shapes", base(nil, ops.T(q), ops.T(q), ops.T(ft(tensor.Float32, 1, 3, 4))), "same shape"},
		{"int query", base(nil, ops.T(tensor.FromInt64s(tensor.Int64, []int{1, 2, 4}, make([]int64, 8))), ops.T(q), ops.T(q)), "not implemented"},
		{"anchor", base(ops.Attrs{"band_anchor": ops.StringAttr("middle")}), "band_anchor"},
	} {
		if _, err := dev.Execute(context.Background(), c.req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestAttnGoldenCases makes sure the PyTorch golden file covers the op,
// forward and backward (nn_golden_test.go's list predates it).
func TestAttnGoldenCases(t *testing.T) {
	fwd, bwd := 0, 0
	for _, gf := range loadGolden(t) {
		for _, gc := range gf.Cases {
			if gc.Op == "npu.fusion_attention" && gc.Error == nil {
				fwd++
				if gc.GradOutputs != nil {
					bwd++
				}
			}
		}
	}
	if fwd < 2 || bwd == 0 {
		t.Errorf("npu.fusion_attention has %d forward and %d backward golden cases", fwd, bwd)
	}
}

// BenchmarkAttnForwardBackward times one head-group of the fixture's
// shape class (SBH, S = 1024, 4 heads of 128).
func BenchmarkAttnForwardBackward(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	q, k, v := nnRandArray(r, 1024, 1, 512), nnRandArray(r, 1024, 1, 512), nnRandArray(r, 1024, 1, 512)
	c := attnCall(q, k, v, nil, nil, ops.Attrs{"head_num": ops.IntAttr(4), "input_layout": ops.StringAttr("SBH"),
		"scale": ops.FloatAttr(0.088), "sparse_mode": ops.IntAttr(2)})
	dy := nnRandArray(r, 1024, 1, 512)
	for i := 0; i < b.N; i++ {
		outs, err := attnForward(c)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := attnBackward(c, outs, []*array{dy, nil, nil}); err != nil {
			b.Fatal(err)
		}
	}
}

// Heads run in parallel and the gemm splits rows over goroutines: the
// results are bit-identical with one goroutine.
func TestAttnParallelDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	q, k, v := nnRandArray(r, 2, 100, 4*40), nnRandArray(r, 2, 100, 4*40), nnRandArray(r, 2, 100, 4*40)
	c := attnCall(q, k, v, nil, nil, ops.Attrs{"head_num": ops.IntAttr(4), "input_layout": ops.StringAttr("BSH"),
		"scale": ops.FloatAttr(0.15), "sparse_mode": ops.IntAttr(2)})
	dy := nnRandArray(r, 2, 100, 4*40)
	run := func() ([]*array, []*array) {
		outs, err := attnForward(c)
		if err != nil {
			t.Fatal(err)
		}
		grads, err := attnBackward(c, outs, []*array{dy, nil, nil})
		if err != nil {
			t.Fatal(err)
		}
		return outs, grads
	}
	o2, g2 := run()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	o1, g1 := run()
	for i, pair := range [][2]*array{{o1[0], o2[0]}, {g1[0], g2[0]}, {g1[1], g2[1]}, {g1[2], g2[2]}} {
		if !slices.Equal(pair[0].data, pair[1].data) {
			t.Errorf("result %d differs between 1 and %d goroutines", i, runtime.NumCPU())
		}
	}
}

// TestAttnGradExecute runs npu.fusion_attention_grad through the device:
// its outputs are npu.fusion_attention's input gradients for the same dy
// (dpse zero-size without a pse), and its errors.
func TestAttnGradExecute(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	ft := func(dt tensor.DType, shape ...int) *tensor.Tensor {
		v := make([]float64, tensor.NumElements(shape))
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return tensor.FromFloat64s(dt, shape, v)
	}
	attrs := ops.Attrs{"head_num": ops.IntAttr(4), "input_layout": ops.StringAttr("BSH"), "scale": ops.FloatAttr(0.5), "sparse_mode": ops.IntAttr(3)}
	dev := New(Options{Mode: Emulated})
	for _, withPse := range []bool{false, true} {
		q, k, v, dy := ft(tensor.BFloat16, 2, 3, 8), ft(tensor.BFloat16, 2, 5, 4), ft(tensor.BFloat16, 2, 5, 4), ft(tensor.BFloat16, 2, 3, 8)
		pse := ops.None
		if withPse {
			pse = ops.T(ft(tensor.BFloat16, 1, 4, 3, 5))
		}
		bwd, err := dev.Execute(context.Background(), &device.ExecRequest{Op: "npu.fusion_attention", Attrs: attrs,
			Inputs: []ops.Value{ops.T(q), ops.T(k), ops.T(v), pse, ops.None}, RequiresGrad: []bool{true, true, true, withPse, false},
			Backward: true, GradOutputs: []*tensor.Tensor{dy}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := dev.Execute(context.Background(), &device.ExecRequest{Op: "npu.fusion_attention_grad", Attrs: attrs,
			Inputs: []ops.Value{ops.T(q), ops.T(k), ops.T(v), ops.T(dy), pse, ops.None}})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if !reflect.DeepEqual(res.Outputs[i], bwd.InputGrads[i]) {
				t.Errorf("pse %v: output %d differs from the forward op's gradient", withPse, i)
			}
		}
		if d := res.Outputs[3]; withPse && !reflect.DeepEqual(d, bwd.InputGrads[3]) || !withPse && d.Len() != 0 {
			t.Errorf("pse %v: dpse %v", withPse, d.Shape)
		}
	}
	q := ft(tensor.Float32, 1, 2, 4)
	for _, c := range []struct {
		name string
		in   []ops.Value
		want string
	}{
		{"no dy", []ops.Value{ops.T(q), ops.T(q), ops.T(q), ops.None}, "input dy must be a tensor, not None"},
		{"int dy", []ops.Value{ops.T(q), ops.T(q), ops.T(q), ops.T(tensor.FromInt64s(tensor.Int64, []int{1, 2, 4}, make([]int64, 8)))}, "must be floating tensors"},
		{"dy shape", []ops.Value{ops.T(q), ops.T(q), ops.T(q), ops.T(ft(tensor.Float32, 1, 3, 4))}, "gradient of attention_out has shape"},
	} {
		_, err := dev.Execute(context.Background(), &device.ExecRequest{Op: "npu.fusion_attention_grad",
			Attrs: ops.Attrs{"head_num": ops.IntAttr(1), "input_layout": ops.StringAttr("BSH")}, Inputs: c.in})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestAttnAlibiCompressed: a compressed alibi pse (the last 1024 rows of a
// pse constant along its diagonals, S1 > 1024) gives the outputs and the
// q, k, v gradients of the full pse, in the lower-triangle sparse modes.
func TestAttnAlibiCompressed(t *testing.T) {
	const s, d, heads = 1100, 4, 2
	r := rand.New(rand.NewPCG(41, 42))
	q, k, v := nnRandArray(r, 1, heads, s, d), nnRandArray(r, 1, heads, s, d), nnRandArray(r, 1, heads, s, d)
	slopes := []float64{-0.5, -0.125}
	full := nnNew([]int{1, heads, s, s}, tensor.Float64)
	for h := 0; h < heads; h++ {
		for i := 0; i < s; i++ {
			for j := 0; j < s; j++ {
				full.data[(h*s+i)*s+j] = slopes[h] * float64(i-j)
			}
		}
	}
	comp := nnNew([]int{1, heads, 1024, s}, tensor.Float64)
	for h := 0; h < heads; h++ {
		copy(comp.data[h*1024*s:(h+1)*1024*s], full.data[(h*s+s-1024)*s:(h+1)*s*s])
	}
	lower := nnNew([]int{s, s}, tensor.Bool)
	for i := 0; i < s; i++ {
		for j := i + 1; j < s; j++ {
			lower.data[i*s+j] = 1
		}
	}
	dy := nnRandArray(r, 1, heads, s, d)
	for _, c := range []struct {
		mode int64
		mask *array
	}{{3, nil}, {2, nil}, {0, lower}} {
		run := func(pse *array, layout string) ([]*array, []*array) {
			attrs := ops.Attrs{"head_num": ops.IntAttr(heads), "input_layout": ops.StringAttr("BNSD"), "scale": ops.FloatAttr(0.5),
				"sparse_mode": ops.IntAttr(c.mode), "pse_layout": ops.StringAttr(layout)}
			call := &call{op: "npu.fusion_attention", attrs: attrs, in: []*array{q, k, v, pse, c.mask}, requiresGrad: []bool{true, true, true, false, false}}
			out, err := attnForward(call)
			if err != nil {
				t.Fatal(err)
			}
			g, err := attnBackward(call, out, []*array{dy})
			if err != nil {
				t.Fatal(err)
			}
			return out, g
		}
		fo, fg := run(full, "full")
		co, cg := run(comp, "alibi_compressed")
		for i := range fo {
			if !slices.Equal(fo[i].data, co[i].data) {
				t.Errorf("mode %d: output %d differs", c.mode, i)
			}
		}
		for i := 0; i < 3; i++ {
			if !slices.Equal(fg[i].data, cg[i].data) {
				t.Errorf("mode %d: gradient %d differs", c.mode, i)
			}
		}
	}
	if _, err := attnAlibiExpand(comp, 1000, s); err == nil {
		t.Error("S1 <= 1024 accepted")
	}
}
