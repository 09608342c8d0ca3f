package lower

import (
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// torch_npu's fused operators (issue 13, fused-ops.md), lowered with the
// signatures torch_npu documents (OFFICIAL semantics: defaults that msprobe's
// reference lacks, such as npu_linear's bias=None or
// npu_scaled_masked_softmax's scale=1.0, are torch_npu's). Under --compat
// msprobe a call that msprobe's reference function cannot take is a SKIP
// with the reference's Python error (fused-ops.md §17 #12, #20, #21;
// docs/compat.md).

func init() {
	def(npuSwiglu, "input, dim=-1", "NPU.npu_swiglu")
	def(npuRotaryMul, "input, r1, r2, rotary_mode='half'", "NPU.npu_rotary_mul")
	// fused-ops.md §17 #21: msprobe registers only npu_fast_gelu; both
	// names are the same torch_npu kernel.
	def(npuUnary("npu.fast_gelu"), "input", "NPU.npu_fast_gelu", "NPU.fast_gelu")
	def(npuUnary("npu.mish"), "self", "NPU.npu_mish")
	def(npuScaledMaskedSoftmax, "x, mask, scale=1.0, fixed_triu_mask=False", "NPU.npu_scaled_masked_softmax")
	def(npuConfusionTranspose, "self, perm, shape, transpose_first", "NPU.npu_confusion_transpose")
	def(npuLinear, "input, weight, bias=None", "NPU.npu_linear")
	def(npuLayerNormEval, "input, normalized_shape, weight=None, bias=None, eps=1e-05", "NPU.npu_layer_norm_eval")
	usedOps = append(usedOps, "npu.swiglu", "npu.rotary_mul", "npu.fast_gelu", "npu.mish", "npu.scaled_masked_softmax",
		"npu.confusion_transpose", "npu.linear", "npu.layer_norm_eval")
}

// npuFloat checks that a fused op's tensor is float16, bfloat16, float32
// or float64 (the last for probe's own float64 runs).
func (b *bound) npuFloat(name string, a framework.Arg) error {
	if !a.DType.IsFloat() {
		return b.argErr(name, "%s supports float16, bfloat16 and float32 tensors, got %s", b.name, a.DType)
	}
	return nil
}

// msprobe reports whether the run reproduces msprobe (--compat msprobe).
func (b *bound) msprobe() bool { return b.compat == "msprobe" }

// npuRefMissing is the SKIP of a call that omits arguments msprobe's
// reference function has no default for (--compat msprobe): Python's
// TypeError.
func (b *bound) npuRefMissing(names ...string) error {
	var miss []string
	for _, n := range names {
		if !b.given[n] {
			miss = append(miss, "'"+n+"'")
		}
	}
	switch len(miss) {
	case 0:
		return nil
	case 1:
		return b.errf("%s() missing 1 required positional argument: %s (--compat msprobe: msprobe's reference has no default)", b.name, miss[0])
	}
	return b.errf("%s() missing %d required positional arguments: %s and %s (--compat msprobe: msprobe's reference has no default)",
		b.name, len(miss), strings.Join(miss[:len(miss)-1], ", "), miss[len(miss)-1])
}

func npuUnary(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		if b.msprobe() && b.name == "fast_gelu" {
			return nil, b.errf("There is not bench function fast_gelu (--compat msprobe: msprobe's reference is registered as npu_fast_gelu only)")
		}
		param := "input"
		if op == "npu.mish" {
			param = "self"
		}
		x, err := b.tensor(param)
		if err != nil {
			return nil, err
		}
		if err := b.npuFloat(param, x); err != nil {
			return nil, err
		}
		return newPlan(op, nil, tensorBinding(x)), nil
	}
}

// npuSwiglu lowers npu_swiglu(input, dim=-1): the size along dim must be
// even.
func npuSwiglu(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if err := b.npuFloat("input", x); err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("input", "npu_swiglu needs a tensor of 1 to 8 dimensions, got a 0-d tensor")
	}
	dim, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	d, _ := b.wrapDim("dim", dim, len(x.Shape))
	if x.Shape[d]%2 != 0 {
		return nil, b.argErr("input", "npu_swiglu: the size of dimension %d (%d) must be even", dim, x.Shape[d])
	}
	return newPlan("npu.swiglu", ops.Attrs{"dim": ops.IntAttr(dim)}, tensorBinding(x)), nil
}

// npuRotaryMul lowers npu_rotary_mul(input, r1, r2, rotary_mode='half'):
// r1 and r2 broadcast to input's shape, whose last dim is even.
func npuRotaryMul(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	var rs [2]framework.Arg
	for i, n := range []string{"r1", "r2"} {
		if rs[i], err = b.tensor(n); err != nil {
			return nil, err
		}
	}
	for i, a := range []framework.Arg{x, rs[0], rs[1]} {
		if err := b.npuFloat([]string{"input", "r1", "r2"}[i], a); err != nil {
			return nil, err
		}
	}
	if len(x.Shape) == 0 || x.Shape[len(x.Shape)-1]%2 != 0 {
		return nil, b.argErr("input", "npu_rotary_mul: the last dimension of input %v must be even", x.Shape)
	}
	for i, n := range []string{"r1", "r2"} {
		if !npuBroadcastsTo(rs[i].Shape, x.Shape) {
			return nil, b.argErr(n, "npu_rotary_mul: %s of shape %v does not broadcast to input's shape %v", n, rs[i].Shape, x.Shape)
		}
	}
	if b.msprobe() && b.given["rotary_mode"] {
		if b.positional["rotary_mode"] {
			return nil, b.errf("npu_rotary_mul() takes 3 positional arguments but 4 were given (--compat msprobe: msprobe's reference has no rotary_mode)")
		}
		return nil, b.errf("npu_rotary_mul() got an unexpected keyword argument 'rotary_mode' (--compat msprobe: msprobe's reference has no rotary_mode)")
	}
	mode, err := b.str("rotary_mode")
	if err != nil {
		return nil, err
	}
	if mode != "half" && mode != "interleave" {
		return nil, b.argErr("rotary_mode", "npu_rotary_mul: rotary_mode must be 'half' or 'interleave', got %q", mode)
	}
	return newPlan("npu.rotary_mul", ops.Attrs{"rotary_mode": ops.StringAttr(mode)}, tensorBinding(x), tensorBinding(rs[0]), tensorBinding(rs[1])), nil
}

// npuBroadcastsTo reports whether shape in broadcasts to shape out without
// changing it.
func npuBroadcastsTo(in, out []int) bool {
	if len(in) > len(out) {
		return false
	}
	for i := range in {
		v, w := in[len(in)-1-i], out[len(out)-1-i]
		if v != w && v != 1 {
			return false
		}
	}
	return true
}

// npuScaledMaskedSoftmax lowers npu_scaled_masked_softmax(x, mask,
// scale=1.0, fixed_triu_mask=False); mask is bool and broadcasts to x.
func npuScaledMaskedSoftmax(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("x")
	if err != nil {
		return nil, err
	}
	if err := b.npuFloat("x", x); err != nil {
		return nil, err
	}
	mask, err := b.tensor("mask")
	if err != nil {
		return nil, err
	}
	if mask.DType != tensor.Bool {
		return nil, b.argErr("mask", "npu_scaled_masked_softmax: mask must be a bool tensor, got %s", mask.DType)
	}
	if !npuBroadcastsTo(mask.Shape, x.Shape) {
		return nil, b.argErr("mask", "npu_scaled_masked_softmax: mask of shape %v does not broadcast to x's shape %v", mask.Shape, x.Shape)
	}
	if b.msprobe() {
		if err := b.npuRefMissing("scale", "fixed_triu_mask"); err != nil {
			return nil, err
		}
	}
	scale, err := b.float("scale")
	if err != nil {
		return nil, err
	}
	triu, err := b.boolean("fixed_triu_mask")
	if err != nil {
		return nil, err
	}
	if triu && len(x.Shape) < 2 {
		return nil, b.argErr("x", "npu_scaled_masked_softmax: fixed_triu_mask needs x of at least 2 dimensions, got %v", x.Shape)
	}
	attrs := ops.Attrs{"scale": ops.FloatAttr(scale), "fixed_triu_mask": ops.BoolAttr(triu)}
	return newPlan("npu.scaled_masked_softmax", attrs, tensorBinding(x), tensorBinding(mask)), nil
}

// npuConfusionTranspose lowers npu_confusion_transpose(self, perm, shape,
// transpose_first); the kernel checks perm and the element count.
func npuConfusionTranspose(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("self")
	if err != nil {
		return nil, err
	}
	perm, err := b.intList("perm", 0, false)
	if err != nil {
		return nil, err
	}
	shape, err := b.intList("shape", 0, false)
	if err != nil {
		return nil, err
	}
	first, err := b.boolean("transpose_first")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"perm": ops.IntsAttr(perm...), "shape": ops.IntsAttr(shape...), "transpose_first": ops.BoolAttr(first)}
	return newPlan("npu.confusion_transpose", attrs, tensorBinding(x)), nil
}

// npuLinear lowers npu_linear(input, weight, bias=None): input [.., K],
// weight [N, K], bias [N].
func npuLinear(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	bias, bok, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	if b.msprobe() {
		if err := b.npuRefMissing("bias"); err != nil {
			return nil, err
		}
	}
	for i, a := range []framework.Arg{x, w} {
		if err := b.npuFloat([]string{"input", "weight"}[i], a); err != nil {
			return nil, err
		}
	}
	if len(x.Shape) < 1 || len(w.Shape) != 2 || x.Shape[len(x.Shape)-1] != w.Shape[1] {
		return nil, b.argErr("weight", "npu_linear: input %v and weight %v do not match (want input [.., K], weight [N, K])", x.Shape, w.Shape)
	}
	if bok {
		if err := b.npuFloat("bias", bias); err != nil {
			return nil, err
		}
		if len(bias.Shape) != 1 || bias.Shape[0] != w.Shape[0] {
			return nil, b.argErr("bias", "npu_linear: bias of shape %v does not match weight's %d output features", bias.Shape, w.Shape[0])
		}
	}
	return newPlan("npu.linear", nil, tensorBinding(x), tensorBinding(w), optBinding(bias, bok)), nil
}

// npuLayerNormEval lowers npu_layer_norm_eval(input, normalized_shape,
// weight=None, bias=None, eps=1e-05) with torch_npu's semantics (weight,
// bias and eps used; msprobe's reference ignores them, fused-ops.md §17 #13).
func npuLayerNormEval(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if err := b.npuFloat("input", x); err != nil {
		return nil, err
	}
	shape, err := b.intList("normalized_shape", 0, true)
	if err != nil {
		return nil, err
	}
	if !trailingMatch(x.Shape, shape) {
		return nil, b.argErr("normalized_shape", "Given normalized_shape=%v, expected input with shape [*, %s], but got input of size%v",
			shape, joinInts(shape), x.Shape)
	}
	var bind [2]framework.Binding
	for i, n := range []string{"weight", "bias"} {
		a, ok, err := b.optTensor(n)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := b.npuFloat(n, a); err != nil {
				return nil, err
			}
			if !trailingMatch(a.Shape, shape) || len(a.Shape) != len(shape) {
				return nil, b.argErr(n, "npu_layer_norm_eval: %s of shape %v must have normalized_shape %v", n, a.Shape, shape)
			}
		}
		bind[i] = optBinding(a, ok)
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"normalized_shape": ops.IntsAttr(shape...), "eps": ops.FloatAttr(eps)}
	return newPlan("npu.layer_norm_eval", attrs, tensorBinding(x), bind[0], bind[1]), nil
}
