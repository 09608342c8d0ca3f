package cpu

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
)

// Finite-difference checks of the loss2 family's backwards on
// configurations beyond the golden cases (deeper and wider recurrent
// stacks, projections with two layers in both directions, losses over
// broadcast operands), and a check that the chunked kernels give the same
// bits at any core count.

func loss2Params(r *rand.Rand, gates, I, H, layers, dirs int, bias bool, proj int) []*array {
	var ps []*array
	P := H
	if proj > 0 {
		P = proj
	}
	for l := 0; l < layers; l++ {
		for d := 0; d < dirs; d++ {
			in := I
			if l > 0 {
				in = dirs * P
			}
			ps = append(ps, nnRandArray(r, gates*H, in), nnRandArray(r, gates*H, P))
			if bias {
				ps = append(ps, nnRandArray(r, gates*H), nnRandArray(r, gates*H))
			}
			if proj > 0 {
				ps = append(ps, nnRandArray(r, P, H))
			}
		}
	}
	for _, p := range ps {
		for i := range p.data {
			p.data[i] *= 0.4
		}
	}
	return ps
}

func loss2RNNAttrs(bias bool, layers int, bidir, batchFirst bool) ops.Attrs {
	return ops.Attrs{"has_biases": ops.BoolAttr(bias), "num_layers": ops.IntAttr(int64(layers)), "bidirectional": ops.BoolAttr(bidir),
		"batch_first": ops.BoolAttr(batchFirst)}
}

func TestLoss2GradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	lstmIn := func(T, N, I, H, L, D, proj int, bias bool) []*array {
		P := H
		if proj > 0 {
			P = proj
		}
		return append([]*array{nnRandArray(r, T, N, I), nnRandArray(r, L*D, N, P), nnRandArray(r, L*D, N, H)}, loss2Params(r, 4, I, H, L, D, bias, proj)...)
	}
	gruIn := func(T, N, I, H, L, D int, bias bool) []*array {
		return append([]*array{nnRandArray(r, T, N, I), nnRandArray(r, L*D, N, H)}, loss2Params(r, 3, I, H, L, D, bias, 0)...)
	}
	cases := []nnGradCase{
		{name: "lstm/3layers_bidir_proj", op: "lstm", attrs: loss2RNNAttrs(true, 3, true, false), in: lstmIn(4, 3, 3, 4, 3, 2, 2, true)},
		{name: "lstm/nobias_batch_first", op: "lstm", attrs: loss2RNNAttrs(false, 2, false, true), in: func() []*array {
			in := lstmIn(4, 3, 2, 3, 2, 1, 0, false)
			in[0] = nnRandArray(r, 3, 4, 2)
			return in
		}()},
		{name: "gru/3layers_bidir", op: "gru", attrs: loss2RNNAttrs(true, 3, true, false), in: gruIn(5, 2, 3, 4, 3, 2, true)},
		{name: "lstm_cell", op: "lstm_cell", in: append([]*array{nnRandArray(r, 3, 5), nnRandArray(r, 3, 4), nnRandArray(r, 3, 4)}, loss2Params(r, 4, 5, 4, 1, 1, true, 0)...)},
		{name: "gru_cell/nobias", op: "gru_cell", in: append([]*array{nnRandArray(r, 3, 5), nnRandArray(r, 3, 4)}, append(loss2Params(r, 3, 5, 4, 1, 1, false, 0), nil, nil)...)},
		{name: "kl_div/broadcast_log_target", op: "kl_div", attrs: ops.Attrs{"log_target": ops.BoolAttr(true), "reduction": ops.StringAttr("batchmean")},
			in: []*array{nnRandArray(r, 4, 1, 5), nnRandArray(r, 3, 5)}},
		{name: "margin_ranking_loss/broadcast", op: "margin_ranking_loss", attrs: ops.Attrs{"margin": ops.FloatAttr(0.3), "reduction": ops.StringAttr("sum")},
			in: []*array{nnRandArray(r, 2, 3, 4), nnRandArray(r, 4), nnRandArray(r, 3, 1)}},
		{name: "multilabel_soft_margin_loss/3d", op: "multilabel_soft_margin_loss", attrs: ops.Attrs{"reduction": ops.StringAttr("mean")},
			in: []*array{nnRandArray(r, 2, 3, 5), nnRandArray(r, 3, 5), nnRandArray(r, 5)}},
		{name: "gaussian_nll_loss/homoscedastic", op: "gaussian_nll_loss", attrs: ops.Attrs{"full": ops.BoolAttr(true), "reduction": ops.StringAttr("sum")},
			in: func() []*array {
				v := nnRandArray(r, 4, 3)
				for i := range v.data {
					v.data[i] = 0.5 + v.data[i]*v.data[i]
				}
				return []*array{nnRandArray(r, 4, 3, 2), nnRandArray(r, 4, 3, 2), v}
			}()},
		{name: "triplet_margin_loss/p3_swap", op: "triplet_margin_loss", attrs: ops.Attrs{"p": ops.FloatAttr(3), "swap": ops.BoolAttr(true), "margin": ops.FloatAttr(2)},
			in: []*array{nnRandArray(r, 5, 4), nnRandArray(r, 5, 4), nnRandArray(r, 1, 4)}},
		{name: "cosine_embedding_loss", op: "cosine_embedding_loss", attrs: ops.Attrs{"margin": ops.FloatAttr(-0.5), "reduction": ops.StringAttr("none")},
			in: []*array{nnRandArray(r, 6, 4), nnRandArray(r, 1, 4), nnIdxArray([]int64{1, -1, -1, 1, -1, 1}, 6)}, frozen: []int{2}},
		{name: "embedding_bag/sum_psw_padding", op: "embedding_bag", attrs: ops.Attrs{"mode": ops.StringAttr("sum"), "padding_idx": ops.IntAttr(3)},
			in: []*array{nnRandArray(r, 6, 3), nnIdxArray([]int64{0, 3, 5, 5, 1, 2, 3}, 7), nnIdxArray([]int64{0, 2, 2, 5}, 4), nnRandArray(r, 7)}},
	}
	for i := range cases {
		if cases[i].op == "cosine_embedding_loss" {
			cases[i].in[2].dtype = cases[i].in[0].dtype // ±1 targets as floats
		}
	}
	for _, gc := range cases {
		t.Run(gc.name, func(t *testing.T) { loss2GradCheck(t, gc) })
	}
}

// loss2GradCheck is runNNGradCheck for ops with a variadic input (the
// recurrent weights): every input past the schema's last takes its spec.
func loss2GradCheck(t *testing.T, gc nnGradCase) {
	t.Helper()
	sch, _ := ops.Lookup(gc.op)
	if len(gc.in) <= len(sch.Inputs) {
		runNNGradCheck(t, gc)
		return
	}
	k := kernels[gc.op]
	mk := func() *call {
		c := &call{op: gc.op, attrs: ops.Attrs{}, in: gc.in, requiresGrad: make([]bool, len(gc.in))}
		for _, a := range sch.Attrs {
			c.attrs[a.Name] = a.Default
		}
		for n, v := range gc.attrs {
			c.attrs[n] = v
		}
		for i, a := range gc.in {
			spec := sch.Inputs[min(i, len(sch.Inputs)-1)]
			c.requiresGrad[i] = a != nil && a.dtype.IsFloat() && spec.Differentiable
		}
		return c
	}
	c := mk()
	outs, err := k.forward(c)
	if err != nil {
		t.Fatalf("forward: %v", err)
	}
	r := rand.New(rand.NewPCG(7, 9))
	gys := make([]*array, len(outs))
	for i, o := range outs {
		gys[i] = nnRandArray(r, o.shape...)
	}
	grads, err := k.backward(c, outs, gys)
	if err != nil {
		t.Fatalf("backward: %v", err)
	}
	loss := func() float64 {
		o2, err := k.forward(mk())
		if err != nil {
			t.Fatalf("forward: %v", err)
		}
		s := 0.0
		for i, g := range gys {
			for j, v := range g.data {
				s += v * o2[i].data[j]
			}
		}
		return s
	}
	for i, x := range gc.in {
		if !c.requiresGrad[i] {
			continue
		}
		if grads[i] == nil || !slices.Equal(grads[i].shape, x.shape) {
			t.Fatalf("input %d: no gradient of its shape", i)
		}
		for j := range x.data {
			const h = 1e-6
			orig := x.data[j]
			x.data[j] = orig + h
			lp := loss()
			x.data[j] = orig - h
			lm := loss()
			x.data[j] = orig
			num := (lp - lm) / (2 * h)
			if got := grads[i].data[j]; math.Abs(num-got) > 1e-6*(1+math.Abs(num)) {
				t.Errorf("input %d element %d: backward %v, finite differences %v", i, j, got, num)
				return
			}
		}
	}
}

// The elementwise losses, embedding_bag and the recurrent input
// projections split their work over fixed chunks: the bits do not depend
// on the number of goroutines.
func TestLoss2ParallelDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 3*chunkElems + 17
	calls := []*call{
		{op: "binary_cross_entropy_with_logits", attrs: ops.Attrs{"reduction": ops.StringAttr("none")},
			in: []*array{nnRandArray(r, n), nnRandArray(r, n), nil, nnRandArray(r, n)}, requiresGrad: []bool{true, true, false, false}},
		{op: "poisson_nll_loss", attrs: ops.Attrs{"reduction": ops.StringAttr("mean"), "log_input": ops.BoolAttr(true), "full": ops.BoolAttr(true), "eps": ops.FloatAttr(1e-8)},
			in: []*array{nnRandArray(r, n), nnRandArray(r, n)}, requiresGrad: []bool{true, true}},
		{op: "embedding_bag", attrs: ops.Attrs{"mode": ops.StringAttr("mean"), "padding_idx": ops.IntAttr(-1)},
			in: []*array{nnRandArray(r, 50, 8), nnIdxArray(make([]int64, n), n), nil, nil}, requiresGrad: []bool{true, false, false, false}},
	}
	calls[2].in[1].shape = []int{n / 7, 7}
	calls[2].in[1].data = calls[2].in[1].data[:n/7*7]
	for i := range calls[2].in[1].data {
		calls[2].in[1].data[i] = float64(i % 50)
	}
	for _, c := range calls {
		k := kernels[c.op]
		run := func() ([]*array, []*array) {
			outs, err := k.forward(c)
			if err != nil {
				t.Fatal(err)
			}
			gys := make([]*array, len(outs))
			for i, o := range outs {
				gys[i] = nnRandArray(rand.New(rand.NewPCG(1, 2)), o.shape...)
			}
			grads, err := k.backward(c, outs, gys)
			if err != nil {
				t.Fatal(err)
			}
			return outs, grads
		}
		o2, g2 := run()
		prev := runtime.GOMAXPROCS(1)
		o1, g1 := run()
		runtime.GOMAXPROCS(prev)
		same := func(a, b []float64) bool {
			return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
		}
		for i := range o1 {
			if !same(o1[i].data, o2[i].data) {
				t.Errorf("%s: output %d differs between 1 and %d goroutines", c.op, i, prev)
			}
		}
		for i := range g1 {
			if (g1[i] == nil) != (g2[i] == nil) || g1[i] != nil && !same(g1[i].data, g2[i].data) {
				t.Errorf("%s: gradient %d differs between 1 and %d goroutines", c.op, i, prev)
			}
		}
	}
}
