package cpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Finite-difference checks of every nn kernel's backward: for a random
// output gradient gy, the backward of input x must equal the central
// difference of L(x) = Σ gy·forward(x). They cover configurations beyond
// the PyTorch golden cases (3-d convolution with mixed stride/padding/
// dilation/groups, multi-dim rms_norm gamma, random dropout masks...).

func nnRandArray(r *rand.Rand, shape ...int) *array {
	a := nnNew(shape, tensor.Float64)
	for i := range a.data {
		a.data[i] = r.NormFloat64()
	}
	return a
}

func nnIdxArray(vals []int64, shape ...int) *array {
	a := nnNew(shape, tensor.Int64)
	for i, v := range vals {
		a.data[i] = float64(v)
	}
	return a
}

type nnGradCase struct {
	name  string
	op    string
	attrs ops.Attrs
	in    []*array
	// outs lists the outputs whose gradient the backward honours (nil:
	// every float output).
	outs []int
	// frozen lists float inputs that take no gradient (running stats, loss
	// class weights, whose derivative PyTorch does not implement).
	frozen []int
}

func (gc *nnGradCase) call(seed uint64) *call {
	c := &call{op: gc.op, attrs: ops.Attrs{}, in: gc.in, requiresGrad: make([]bool, len(gc.in)), seed: seed}
	sch, _ := ops.Lookup(gc.op)
	for _, a := range sch.Attrs {
		c.attrs[a.Name] = a.Default
	}
	for k, v := range gc.attrs {
		c.attrs[k] = v
	}
	for i, a := range gc.in {
		c.requiresGrad[i] = a != nil && a.dtype.IsFloat() && sch.Inputs[i].Differentiable
	}
	for _, i := range gc.frozen {
		c.requiresGrad[i] = false
	}
	return c
}

func runNNGradCheck(t *testing.T, gc nnGradCase) {
	t.Helper()
	k := kernels[gc.op]
	if k == nil || k.backward == nil {
		t.Fatalf("%s: no kernel with backward", gc.op)
	}
	const seed = 12345
	c := gc.call(seed)
	outs, err := k.forward(c)
	if err != nil {
		t.Fatalf("forward: %v", err)
	}
	r := rand.New(rand.NewPCG(7, 9))
	use := map[int]bool{}
	if gc.outs == nil {
		for i, o := range outs {
			use[i] = o.dtype.IsFloat()
		}
	} else {
		for _, i := range gc.outs {
			use[i] = true
		}
	}
	gys := make([]*array, len(outs))
	for i, o := range outs {
		if use[i] {
			gys[i] = nnRandArray(r, o.shape...)
		}
	}
	grads, err := k.backward(c, outs, gys)
	if err != nil {
		t.Fatalf("backward: %v", err)
	}
	loss := func() float64 {
		o2, err := k.forward(gc.call(seed))
		if err != nil {
			t.Fatalf("forward: %v", err)
		}
		s := 0.0
		for i, g := range gys {
			if g != nil {
				for j, v := range g.data {
					s += v * o2[i].data[j]
				}
			}
		}
		return s
	}
	checked := 0
	for i, x := range gc.in {
		if !c.requiresGrad[i] {
			if i < len(grads) && grads[i] != nil {
				t.Errorf("input %d: gradient for an input that takes none", i)
			}
			continue
		}
		if grads[i] == nil {
			t.Errorf("input %d: no gradient", i)
			continue
		}
		if !slices.Equal(grads[i].shape, x.shape) {
			t.Errorf("input %d: gradient shape %v, want %v", i, grads[i].shape, x.shape)
			continue
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
			got := grads[i].data[j]
			if math.Abs(num-got) > 1e-6*(1+math.Abs(num)) {
				t.Errorf("input %d element %d: backward %.10g, finite difference %.10g", i, j, got, num)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

func TestNNGradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ints := func(v ...int64) ops.Attr { return ops.IntsAttr(v...) }
	cases := []nnGradCase{
		{name: "softmax_mid", op: "softmax", attrs: ops.Attrs{"dim": ops.IntAttr(1)}, in: []*array{nnRandArray(r, 2, 4, 3)}},
		{name: "log_softmax_first", op: "log_softmax", attrs: ops.Attrs{"dim": ops.IntAttr(-3)}, in: []*array{nnRandArray(r, 3, 2, 2)}},
		{name: "matmul_bcast", op: "matmul", in: []*array{nnRandArray(r, 2, 1, 3, 4), nnRandArray(r, 3, 4, 2)}},
		{name: "matmul_1d_batched", op: "matmul", in: []*array{nnRandArray(r, 4), nnRandArray(r, 2, 4, 3)}},
		{name: "linear_3d_bias_bcast", op: "linear", in: []*array{nnRandArray(r, 2, 3, 4), nnRandArray(r, 5, 4), nnRandArray(r, 1)}},
		{name: "addmm_scaled", op: "addmm", attrs: ops.Attrs{"beta": ops.FloatAttr(-0.5), "alpha": ops.FloatAttr(1.5)},
			in: []*array{nnRandArray(r, 3), nnRandArray(r, 2, 4), nnRandArray(r, 4, 3)}},
		{name: "conv3d_mixed", op: "convolution",
			attrs: ops.Attrs{"stride": ints(1, 2, 1), "padding": ints(1, 0, 1), "dilation": ints(1, 1, 2), "groups": ops.IntAttr(2)},
			in:    []*array{nnRandArray(r, 2, 2, 3, 4, 4), nnRandArray(r, 4, 1, 2, 2, 2), nnRandArray(r, 4)}},
		{name: "conv1d_unbatched", op: "convolution",
			attrs: ops.Attrs{"stride": ints(2), "padding": ints(1), "dilation": ints(1)},
			in:    []*array{nnRandArray(r, 3, 7), nnRandArray(r, 2, 3, 3), nil}},
		{name: "layer_norm_2dims", op: "layer_norm", attrs: ops.Attrs{"normalized_shape": ints(2, 3)},
			in: []*array{nnRandArray(r, 3, 2, 3), nnRandArray(r, 2, 3), nnRandArray(r, 2, 3)}},
		{name: "batch_norm_train", op: "batch_norm", attrs: ops.Attrs{"training": ops.BoolAttr(true)},
			in: []*array{nnRandArray(r, 3, 2, 4), nil, nil, nnRandArray(r, 2), nnRandArray(r, 2)}},
		{name: "batch_norm_eval", op: "batch_norm",
			in: []*array{nnRandArray(r, 3, 2, 2), nnRandArray(r, 2), nnConst(1.5, 2), nnRandArray(r, 2), nil}, frozen: []int{1, 2}},
		{name: "rms_norm_2d_gamma", op: "npu.rms_norm", attrs: ops.Attrs{"epsilon": ops.FloatAttr(1e-3)},
			in: []*array{nnRandArray(r, 2, 3, 4), nnRandArray(r, 3, 4)}, outs: []int{0}},
		{name: "max_pool_dil_pad_ceil", op: "max_pool2d",
			attrs: ops.Attrs{"kernel_size": ints(3, 2), "stride": ints(2, 1), "padding": ints(1, 1), "dilation": ints(1, 2),
				"ceil_mode": ops.BoolAttr(true), "return_indices": ops.BoolAttr(true)},
			in: []*array{nnRandArray(r, 2, 6, 5)}},
		{name: "adaptive_avg", op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": ints(3, 4)}, in: []*array{nnRandArray(r, 1, 2, 5, 6)}},
		{name: "cross_entropy_3d_ls_weight", op: "cross_entropy",
			attrs: ops.Attrs{"label_smoothing": ops.FloatAttr(0.2), "ignore_index": ops.IntAttr(1)},
			in:    []*array{nnRandArray(r, 2, 3, 2), nnIdxArray([]int64{0, 1, 2, 2}, 2, 2), nnConst(0.7, 3)}, frozen: []int{2}},
		{name: "cross_entropy_probs", op: "cross_entropy", attrs: ops.Attrs{"reduction": ops.StringAttr("sum")},
			in: []*array{nnRandArray(r, 3, 4), nnRandArray(r, 3, 4), nil}},
		{name: "nll_weighted", op: "nll_loss",
			in: []*array{nnRandArray(r, 4, 3), nnIdxArray([]int64{0, 2, 2, 1}, 4), nnRandArray(r, 3)}, frozen: []int{2}},
		// padding_idx and scale_grad_by_freq change the gradient on purpose
		// (golden cases cover them); the plain gradient is a derivative.
		{name: "embedding_repeated", op: "embedding", in: []*array{nnRandArray(r, 4, 2), nnIdxArray([]int64{0, 1, 3, 0, 0}, 5)}},
		{name: "dropout_random_mask", op: "dropout", attrs: ops.Attrs{"p": ops.FloatAttr(0.4)}, in: []*array{nnRandArray(r, 4, 5)}},
	}
	for _, gc := range cases {
		t.Run(gc.name, func(t *testing.T) { runNNGradCheck(t, gc) })
	}
}

func nnConst(v float64, shape ...int) *array {
	a := nnNew(shape, tensor.Float64)
	for i := range a.data {
		a.data[i] = v
	}
	return a
}
