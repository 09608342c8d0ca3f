package lower

import (
	"slices"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The loss family (sdk/ops/schema_loss.go): torch.nn.functional's
// mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy
// (with the legacy size_average/reduce), normalize, one_hot and
// local_response_norm, and PyTorch 2's scaled_dot_product_attention.

func init() {
	def(lossPair("mse_loss"), "input, target, "+loss2Legacy, "Functional.mse_loss")
	def(lossPair("l1_loss"), "input, target, "+loss2Legacy, "Functional.l1_loss")
	def(lossPair("smooth_l1_loss", "beta"), "input, target, "+loss2Legacy+", beta=1.0", "Functional.smooth_l1_loss")
	def(lossPair("huber_loss", "delta"), "input, target, reduction='mean', delta=1.0", "Functional.huber_loss")
	def(lossBCE, "input, target, weight=None, "+loss2Legacy, "Functional.binary_cross_entropy")
	def(lossNormalize, "input, p=2.0, dim=1, eps=1e-12, out=None", "Functional.normalize")
	def(lossOneHot, "tensor, num_classes=-1", "Functional.one_hot")
	def(lossLRN, "input, size, alpha=0.0001, beta=0.75, k=1.0", "Functional.local_response_norm")
	def(lossSDPA, "query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False",
		"Functional.scaled_dot_product_attention")
	usedOps = append(usedOps, "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "normalize", "one_hot",
		"local_response_norm", "scaled_dot_product_attention")
}

// lossPair lowers a loss of input and target (broadcast by F's
// broadcast_tensors) with float parameters.
func lossPair(op string, params ...string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		t, err := b.tensor("target")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{}
		for _, p := range params {
			v, err := b.float(p)
			if err != nil {
				return nil, err
			}
			attrs[p] = ops.FloatAttr(v)
		}
		red, err := b.loss2Reduction(op)
		if err != nil {
			return nil, err
		}
		attrs["reduction"] = ops.StringAttr(red)
		if _, err := ops.BroadcastShapes(x.Shape, t.Shape); err != nil {
			return nil, b.argErr("target", "%v", err)
		}
		if !x.DType.IsFloat() && !t.DType.IsFloat() {
			return nil, b.errf("%s of integer tensors only is not supported: the kernels take floating inputs", op)
		}
		return newPlan(op, attrs, tensorBinding(x), tensorBinding(t)), nil
	}
}

// lossBCE lowers F.binary_cross_entropy, whose Python wrapper refuses a
// target of another size and expands the weight to the target's.
func lossBCE(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	t, err := b.tensor("target")
	if err != nil {
		return nil, err
	}
	w, wok, err := b.optTensor("weight")
	if err != nil {
		return nil, err
	}
	red, err := b.loss2Reduction("binary_cross_entropy")
	if err != nil {
		return nil, err
	}
	if !slices.Equal(x.Shape, t.Shape) {
		return nil, b.argErr("target", "Using a target size (%s) that is different to the input size (%s) is deprecated. Please ensure they have the same size.",
			loss2Size(t.Shape), loss2Size(x.Shape))
	}
	if wok {
		s, err := ops.BroadcastShapes(t.Shape, w.Shape)
		if err != nil {
			return nil, b.argErr("weight", "%v", err)
		}
		if !slices.Equal(s, t.Shape) {
			return nil, b.argErr("weight", "a weight of size %s expands beyond the target's %s", loss2Size(w.Shape), loss2Size(t.Shape))
		}
	}
	return newPlan("binary_cross_entropy", ops.Attrs{"reduction": ops.StringAttr(red)}, tensorBinding(x), tensorBinding(t), optBinding(w, wok)), nil
}

func lossNormalize(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	p, err := b.float("p")
	if err != nil {
		return nil, err
	}
	dims, err := b.intList("dim", 0, true)
	if err != nil {
		return nil, err
	}
	for _, d := range dims {
		if _, err := b.wrapDim("dim", d, len(x.Shape)); err != nil {
			return nil, err
		}
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	if !b.isNone("out") {
		return nil, b.argErr("out", "an out= tensor is not replayed (only out=None is checked)")
	}
	return newPlan("normalize", ops.Attrs{"p": ops.FloatAttr(p), "dim": ops.IntsAttr(dims...), "eps": ops.FloatAttr(eps)}, tensorBinding(x)), nil
}

func lossOneHot(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("tensor")
	if err != nil {
		return nil, err
	}
	n, err := b.integer("num_classes")
	if err != nil {
		return nil, err
	}
	return newPlan("one_hot", ops.Attrs{"num_classes": ops.IntAttr(n)}, tensorBinding(x)), nil
}

// lossLRN lowers F.local_response_norm; its Python wrapper refuses fewer
// than 3 dimensions.
func lossLRN(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	size, err := b.integer("size")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"size": ops.IntAttr(size)}
	for _, p := range []string{"alpha", "beta", "k"} {
		v, err := b.float(p)
		if err != nil {
			return nil, err
		}
		attrs[p] = ops.FloatAttr(v)
	}
	if len(x.Shape) < 3 {
		return nil, b.argErr("input", "Expected 3D or higher dimensionality input (got %d dimensions)", len(x.Shape))
	}
	return newPlan("local_response_norm", attrs, tensorBinding(x)), nil
}

// lossSDPA lowers PyTorch 2's F.scaled_dot_product_attention (absent from
// PyTorch 1.13: its documentation's composition is checked); dropout in
// it is random.
func lossSDPA(b *bound) (*framework.Plan, error) {
	var ts [3]framework.Arg
	for i, n := range []string{"query", "key", "value"} {
		a, err := b.tensor(n)
		if err != nil {
			return nil, err
		}
		if len(a.Shape) < 2 {
			return nil, b.argErr(n, "expected a tensor of at least 2 dimensions (..., L, E), got %d", len(a.Shape))
		}
		ts[i] = a
	}
	q, k, v := ts[0], ts[1], ts[2]
	mask, mok, err := b.optTensor("attn_mask")
	if err != nil {
		return nil, err
	}
	p, err := b.float("dropout_p")
	if err != nil {
		return nil, err
	}
	if p != 0 {
		return nil, b.argErr("dropout_p", "dropout_p %v drops attention weights at random: its values cannot be compared with a reference (only dropout_p=0 is checked)", p)
	}
	causal, err := b.boolean("is_causal")
	if err != nil {
		return nil, err
	}
	gqa, err := b.boolean("enable_gqa")
	if err != nil {
		return nil, err
	}
	scale := ops.NoneAttr()
	if !b.isNone("scale") {
		s, err := b.float("scale")
		if err != nil {
			return nil, err
		}
		scale = ops.FloatAttr(s)
	}
	if causal && mok {
		return nil, b.argErr("is_causal", "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
	}
	nq, nk, nv := len(q.Shape), len(k.Shape), len(v.Shape)
	if q.Shape[nq-1] != k.Shape[nk-1] {
		return nil, b.argErr("key", "the last dimension of query (%d) and key (%d) differ", q.Shape[nq-1], k.Shape[nk-1])
	}
	if k.Shape[nk-2] != v.Shape[nv-2] {
		return nil, b.argErr("value", "key has %d positions and value %d", k.Shape[nk-2], v.Shape[nv-2])
	}
	attrs := ops.Attrs{"dropout_p": ops.FloatAttr(0), "is_causal": ops.BoolAttr(causal), "scale": scale, "enable_gqa": ops.BoolAttr(gqa)}
	return newPlan("scaled_dot_product_attention", attrs, tensorBinding(q), tensorBinding(k), tensorBinding(v), optBinding(mask, mok)), nil
}
