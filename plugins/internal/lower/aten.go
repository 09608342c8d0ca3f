package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Aten records: msprobe checks the aten-level backward references of the
// fused operators as ordinary APIs whose outputs are gradients
// (fused-ops.md §0.1). npu_fusion_attention_grad is in attention.go.

func init() {
	defMulti(atenMatmulBackward, "grad, self, other, mask", "Aten.matmul_backward")
	def(atenVJP("npu.fast_gelu_backward", npuUnary("npu.fast_gelu"), 1, "self", "input"), "grad, self", "Aten.npu_fast_gelu_backward")
	def(atenVJP("npu.swiglu_backward", npuSwiglu, 1, "x", "input"), "grad, x, dim=-1", "Aten.npu_swiglu_backward")
	defMulti(atenVJP("npu.rotary_mul_backward", npuRotaryMul, 3, "self", "input"), "grad, self, r1, r2, rotary_mode='half'",
		"Aten.npu_rotary_mul_backward")
	defMulti(atenVJP("npu.linear_backward", npuLinear, 2, "input", "input"), "grad, input, weight", "Aten.npu_linear_backward")
	def(atenVJP("npu.scaled_masked_softmax_backward", npuScaledMaskedSoftmax, 2, "y", "x"), "y_grad, y, mask, scale=1.0, fixed_triu_mask=False",
		"Aten.npu_scaled_masked_softmax_backward")
	defMulti(atenRMSNormBackward, "dy, self, gamma, rstd", "Aten.npu_rms_norm_backward")
	def(atenConfusionTransposeBackward, "grad, perm, shape, transpose_first", "Aten.npu_confusion_transpose_backward")
	// their arguments must fit each other: no made-up call of OpsOf does
	declareOps([]string{"matmul_backward"}, "Aten.matmul_backward")
	declareOps([]string{"npu.confusion_transpose"}, "Aten.npu_confusion_transpose_backward")
	declareOps([]string{"npu.fusion_attention_grad"}, "Aten.npu_fusion_attention_grad")
	declareOps([]string{"npu.rotary_mul_backward"}, "Aten.npu_rotary_mul_backward")
	declareOps([]string{"npu.swiglu_backward"}, "Aten.npu_swiglu_backward")
	usedOps = append(usedOps, "matmul_backward", "npu.fusion_attention_grad", "npu.fast_gelu_backward", "npu.swiglu_backward",
		"npu.rotary_mul_backward", "npu.linear_backward", "npu.scaled_masked_softmax_backward", "npu.rms_norm_backward")
}

// atenVJP lowers an aten backward reference whose first argument is the
// gradient (named grad or y_grad) and whose others are the forward's
// (with the forward's checks, through its lowering fwd): op gets the
// gradient and the first n bindings of the forward's plan, and its
// outputs are all compared. from names the aten parameter the forward
// calls to.
func atenVJP(op string, fwd lowerFunc, n int, from, to string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		gname := "grad"
		if _, ok := b.vals["y_grad"]; ok {
			gname = "y_grad"
		}
		g, err := b.tensor(gname)
		if err != nil {
			return nil, err
		}
		if !g.DType.IsFloat() {
			return nil, b.argErr(gname, "expected a floating tensor, got %s", g.DType)
		}
		if from != to {
			b.alias(from, to)
		}
		// the forward's checks without its msprobe quirks: msprobe's
		// backward references have signatures of their own
		compat := b.compat
		b.compat = ""
		p, err := fwd(b)
		b.compat = compat
		if err != nil {
			return nil, err
		}
		if len(p.Inputs) < n {
			return nil, b.errf("internal error: the forward plan has %d inputs, want %d", len(p.Inputs), n)
		}
		p.Op = op
		p.Inputs = append([]framework.Binding{tensorBinding(g)}, p.Inputs[:n]...)
		return p, nil
	}
}

// atenRMSNormBackward lowers npu_rms_norm_backward(dy, self, gamma, rstd)
// → (dx, dgamma) with the given rstd; msprobe's reference leaves dgamma
// unreduced, of x's shape (fused-ops.md §17 #10, --compat msprobe).
func atenRMSNormBackward(b *bound) (*framework.Plan, error) {
	in, err := b.floatTensors("dy", "self", "gamma", "rstd")
	if err != nil {
		return nil, err
	}
	tail := make([]int64, len(in[2].Shape))
	for i, v := range in[2].Shape {
		tail[i] = int64(v)
	}
	if !trailingMatch(in[1].Shape, tail) {
		return nil, b.argErr("gamma", "shape %v does not match the trailing dimensions of the input's %v", in[2].Shape, in[1].Shape)
	}
	return newPlan("npu.rms_norm_backward", ops.Attrs{"reduce_dgamma": ops.BoolAttr(b.compat != "msprobe")},
		tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2]), tensorBinding(in[3])), nil
}

// atenConfusionTransposeBackward lowers
// npu_confusion_transpose_backward(grad, perm, shape, transpose_first):
// shape is the forward input's shape and transpose_first the negation of
// the forward's flag (fused-ops.md §3), so with inv the inverse of perm the
// gradient is npu.confusion_transpose(grad, inv, shape, true) when
// transpose_first, else npu.confusion_transpose(grad, inv,
// [shape[perm[0]], ...], false).
func atenConfusionTransposeBackward(b *bound) (*framework.Plan, error) {
	g, err := b.tensor("grad")
	if err != nil {
		return nil, err
	}
	perm, shape, first, err := confusionArgs(b)
	if err != nil {
		return nil, err
	}
	inv := make([]int64, len(perm))
	seen := make([]bool, len(perm))
	for i, p := range perm {
		if p < 0 || int(p) >= len(perm) || seen[p] {
			return nil, b.argErr("perm", "%v is not a permutation of 0..%d", perm, len(perm)-1)
		}
		seen[p] = true
		inv[p] = int64(i)
	}
	target := shape
	if !first {
		if len(shape) != len(perm) {
			return nil, b.argErr("shape", "needs %d dimensions (perm's), got %v", len(perm), shape)
		}
		target = make([]int64, len(perm))
		for k, p := range perm {
			target[k] = shape[p]
		}
	}
	n := int64(1)
	for _, v := range shape {
		n *= v
	}
	if n != int64(tensor.NumElements(g.Shape)) {
		return nil, b.argErr("shape", "%v has %d elements, grad %v has %d", shape, n, g.Shape, tensor.NumElements(g.Shape))
	}
	attrs := ops.Attrs{"perm": ops.IntsAttr(inv...), "shape": ops.IntsAttr(target...), "transpose_first": ops.BoolAttr(first)}
	return newPlan("npu.confusion_transpose", attrs, tensorBinding(g)), nil
}

// floatTensors binds each named argument as a floating tensor.
func (b *bound) floatTensors(names ...string) ([]framework.Arg, error) {
	in := make([]framework.Arg, len(names))
	for i, name := range names {
		a, err := b.tensor(name)
		if err != nil {
			return nil, err
		}
		if !a.DType.IsFloat() {
			return nil, b.argErr(name, "expected a floating tensor, got %s", a.DType)
		}
		in[i] = a
	}
	return in, nil
}

// atenMatmulBackward lowers matmul_backward(grad, self, other, mask) →
// (grad_self, grad_other), the backward of torch.matmul(self, other)
// (fused-ops.md §16), with autograd's reduction of broadcast batch
// dimensions. A gradient whose mask entry is False is not computed and not
// compared (msprobe's reference crashes on it).
func atenMatmulBackward(b *bound) (*framework.Plan, error) {
	in, err := b.floatTensors("grad", "self", "other")
	if err != nil {
		return nil, err
	}
	m := b.arg("mask")
	if m.Kind != framework.ArgList || len(m.Elems) < 2 || m.Elems[0].Kind != framework.ArgBool || m.Elems[1].Kind != framework.ArgBool {
		return nil, b.argErr("mask", "expected a list of two bools, got %s", describeList(m))
	}
	mask := []int64{b2i64(m.Elems[0].Bool), b2i64(m.Elems[1].Bool)}
	p := newPlan("matmul_backward", ops.Attrs{"output_mask": ops.IntsAttr(mask...)}, tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2]))
	for i, on := range mask {
		if on == 1 {
			p.Compare = append(p.Compare, i)
		}
	}
	if len(p.Compare) == 0 {
		return nil, b.argErr("mask", "both gradients are masked off: nothing to compare")
	}
	return p, nil
}

func b2i64(v bool) int64 {
	if v {
		return 1
	}
	return 0
}
