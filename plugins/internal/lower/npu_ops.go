package lower

import (
	"slices"
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
	// The optimizer steps update out=(var, m, v) in place and return
	// them; the dump holds out='s tensors as they were before the call.
	defMulti(npuApplyAdam, "beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=None, use_nesterov=None, *, out=None",
		"NPU.npu_apply_adam")
	defMulti(npuApplyAdamW, "beta1_power, beta2_power, lr, weight_decay, beta1, beta2, epsilon, grad, max_grad_norm=None, amsgrad=None, maximize=None, *, out=None",
		"NPU.npu_apply_adam_w")
	defMulti(npuGroupNormSilu, "input, weight, bias, group, eps=1e-05", "NPU.npu_group_norm_silu")
	defMulti(npuMoeGating, "x, finished=None, k=1", "NPU.npu_moe_gating_top_k_softmax")
	def(npuSortV2, "self, dim=-1, descending=False, *, out=None", "NPU.npu_sort_v2")
	usedOps = append(usedOps, "npu.apply_adam", "npu.apply_adam_w", "npu.group_norm_silu", "npu.moe_gating_top_k_softmax", "npu.sort_v2")
	// OpsOf's made-up calls give no out= tuple and no group that divides C
	declareOps([]string{"npu.apply_adam"}, "NPU.npu_apply_adam")
	declareOps([]string{"npu.apply_adam_w"}, "NPU.npu_apply_adam_w")
	declareOps([]string{"npu.group_norm_silu"}, "NPU.npu_group_norm_silu")
}

// npuRefParams is the SKIP of a call that names a keyword msprobe's
// reference function spells differently or lacks (--compat msprobe):
// Python's TypeError. ref maps torch_npu's parameter names to the
// reference's; a name mapped to "" is not a parameter of the reference.
func (b *bound) npuRefParams(ref map[string]string) error {
	for _, off := range sortedKeys(ref) {
		if b.given[off] && !b.positional[off] && ref[off] != off {
			return b.errf("%s() got an unexpected keyword argument '%s' (--compat msprobe: msprobe's reference names it differently or lacks it)", b.name, off)
		}
	}
	return nil
}

// npuScalarBindings binds the Scalar arguments of the optimizer steps: a
// Python number, or a one-element float tensor (PyTorch's Scalar accepts a
// 0-d tensor; its value is read from the dump).
func (b *bound) npuScalarBindings(names ...string) ([]framework.Binding, error) {
	out := make([]framework.Binding, len(names))
	for i, n := range names {
		a := b.arg(n)
		if a.Kind == framework.ArgTensor {
			t, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			if err := b.npuFloat(n, t); err != nil {
				return nil, err
			}
			if tensor.NumElements(t.Shape) != 1 {
				return nil, b.argErr(n, "%s: a Scalar tensor must have one element, got shape %v", b.name, t.Shape)
			}
			out[i] = tensorBinding(t)
			continue
		}
		bind, _, err := b.number(n)
		if err != nil {
			return nil, err
		}
		out[i] = bind
	}
	return out, nil
}

// npuOptBool reads a bool? argument (None is False).
func (b *bound) npuOptBool(name string) (bool, error) {
	v, _, err := b.optBool(name)
	return v, err
}

// npuAdamState reads out=(var, m, v) and grad: float tensors of one shape.
func (b *bound) npuAdamState() ([]framework.Arg, error) {
	out := b.arg("out")
	if out.Kind == framework.ArgNone {
		return nil, b.argErr("out", "%s updates out=(var, m, v) in place; a call without out= has no state to replay", b.name)
	}
	if out.Kind != framework.ArgList || len(out.Elems) != 3 {
		return nil, b.argErr("out", "expected a tuple of 3 tensors (var, m, v), got %s", kindName(out))
	}
	ts, err := b.linalg2Tensors("out", out.Elems)
	if err != nil {
		return nil, err
	}
	g, err := b.tensor("grad")
	if err != nil {
		return nil, err
	}
	ts = append(slices.Clone(ts), g)
	for i, t := range ts {
		n := []string{"var", "m", "v", "grad"}[i]
		if err := b.npuFloat(n, t); err != nil {
			return nil, err
		}
		if !slices.Equal(t.Shape, ts[0].Shape) {
			return nil, b.argErr(n, "%s: %s of shape %v does not match var's shape %v", b.name, n, t.Shape, ts[0].Shape)
		}
	}
	return ts, nil
}

// npuApplyAdam lowers npu_apply_adam(beta1_power, beta2_power, lr, beta1,
// beta2, epsilon, grad, use_locking, use_nesterov, out=(var, m, v));
// use_locking changes nothing computed.
func npuApplyAdam(b *bound) (*framework.Plan, error) {
	ts, err := b.npuAdamState()
	if err != nil {
		return nil, err
	}
	sc, err := b.npuScalarBindings("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")
	if err != nil {
		return nil, err
	}
	if _, err := b.npuOptBool("use_locking"); err != nil {
		return nil, err
	}
	nest, err := b.npuOptBool("use_nesterov")
	if err != nil {
		return nil, err
	}
	in := append([]framework.Binding{tensorBinding(ts[0]), tensorBinding(ts[1]), tensorBinding(ts[2]), tensorBinding(ts[3])}, sc...)
	return newPlan("npu.apply_adam", ops.Attrs{"use_nesterov": ops.BoolAttr(nest)}, in...), nil
}

// npuApplyAdamW lowers npu_apply_adam_w(beta1_power, beta2_power, lr,
// weight_decay, beta1, beta2, epsilon, grad, max_grad_norm, amsgrad,
// maximize, out=(var, m, v)). amsgrad uses the given max_grad_norm
// (fused-ops.md §17 #14; msprobe's reference draws random values, not
// reproduced). Under --compat msprobe the keyword epsilon= is the
// reference's TypeError (it names the parameter eps).
func npuApplyAdamW(b *bound) (*framework.Plan, error) {
	if b.msprobe() {
		if err := b.npuRefParams(map[string]string{"epsilon": "eps"}); err != nil {
			return nil, err
		}
	}
	ts, err := b.npuAdamState()
	if err != nil {
		return nil, err
	}
	sc, err := b.npuScalarBindings("beta1_power", "beta2_power", "lr", "weight_decay", "beta1", "beta2", "epsilon")
	if err != nil {
		return nil, err
	}
	ams, err := b.npuOptBool("amsgrad")
	if err != nil {
		return nil, err
	}
	maxim, err := b.npuOptBool("maximize")
	if err != nil {
		return nil, err
	}
	mg, mok, err := b.optTensor("max_grad_norm")
	if err != nil {
		return nil, err
	}
	if mok {
		if err := b.npuFloat("max_grad_norm", mg); err != nil {
			return nil, err
		}
		if !slices.Equal(mg.Shape, ts[0].Shape) {
			return nil, b.argErr("max_grad_norm", "npu_apply_adam_w: max_grad_norm of shape %v does not match var's shape %v", mg.Shape, ts[0].Shape)
		}
	}
	if ams && !mok {
		return nil, b.argErr("max_grad_norm", "npu_apply_adam_w: amsgrad=True needs max_grad_norm, got None")
	}
	in := append([]framework.Binding{tensorBinding(ts[0]), tensorBinding(ts[1]), tensorBinding(ts[2]), tensorBinding(ts[3]), optBinding(mg, mok)}, sc...)
	return newPlan("npu.apply_adam_w", ops.Attrs{"amsgrad": ops.BoolAttr(ams), "maximize": ops.BoolAttr(maxim)}, in...), nil
}

// npuGroupNormSilu lowers npu_group_norm_silu(input, weight, bias, group,
// eps=1e-05): input [N, C, *] of 2 to 8 dims (∏ shape[2:] is the spatial
// size, §17 #15), weight and bias [C] or None. Under --compat msprobe the
// reference's limits are SKIPs: its parameters (x, gama, beta, group, eps)
// have no default and other keyword names, and x must be 4-D.
func npuGroupNormSilu(b *bound) (*framework.Plan, error) {
	if b.msprobe() {
		if err := b.npuRefParams(map[string]string{"input": "x", "weight": "gama", "bias": "beta"}); err != nil {
			return nil, err
		}
		if err := b.npuRefMissing("eps"); err != nil {
			return nil, err
		}
	}
	x, err := b.npuTensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) < 2 || len(x.Shape) > 8 {
		return nil, b.argErr("input", "npu_group_norm_silu: input must have 2 to 8 dimensions [N, C, *], got %v", x.Shape)
	}
	if b.msprobe() && len(x.Shape) != 4 {
		return nil, b.errf("msprobe's reference raises ValueError for a %d-D input (--compat msprobe: it takes 4-D [N, C, H, W] only, §17 #15)", len(x.Shape))
	}
	group, err := b.integer("group")
	if err != nil {
		return nil, err
	}
	if group <= 0 || int64(x.Shape[1])%group != 0 {
		return nil, b.argErr("group", "npu_group_norm_silu: the number of channels %d must be divisible by group %d", x.Shape[1], group)
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
			if len(a.Shape) != 1 || a.Shape[0] != x.Shape[1] {
				return nil, b.argErr(n, "npu_group_norm_silu: %s of shape %v must have shape [%d]", n, a.Shape, x.Shape[1])
			}
		}
		bind[i] = optBinding(a, ok)
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"group": ops.IntAttr(group), "eps": ops.FloatAttr(eps)}
	return newPlan("npu.group_norm_silu", attrs, tensorBinding(x), bind[0], bind[1]), nil
}

// npuMoeGating lowers npu_moe_gating_top_k_softmax(x, finished=None, k=1):
// x 2-D [T, E] or 3-D (its leading dims flattened to rows, §17 #16),
// finished bool of x.shape[:-1], 0 < k ≤ min(E, 1024). Under --compat
// msprobe the reference's (x, finished_optional, k) has no defaults and
// refuses the keyword finished=.
func npuMoeGating(b *bound) (*framework.Plan, error) {
	if b.msprobe() {
		if err := b.npuRefParams(map[string]string{"finished": "finished_optional"}); err != nil {
			return nil, err
		}
		var miss []string
		for _, n := range []string{"finished", "k"} {
			if !b.given[n] {
				miss = append(miss, n)
			}
		}
		if len(miss) > 0 {
			names := map[string]string{"finished": "finished_optional", "k": "k"}
			q := make([]string, len(miss))
			for i, n := range miss {
				q[i] = "'" + names[n] + "'"
			}
			if len(q) == 1 {
				return nil, b.errf("%s() missing 1 required positional argument: %s (--compat msprobe: msprobe's reference has no default)", b.name, q[0])
			}
			return nil, b.errf("%s() missing 2 required positional arguments: %s and %s (--compat msprobe: msprobe's reference has no default)", b.name, q[0], q[1])
		}
	}
	x, err := b.npuTensor("x")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) < 2 || len(x.Shape) > 3 {
		return nil, b.argErr("x", "npu_moe_gating_top_k_softmax: x must be 2-D or 3-D, got %v", x.Shape)
	}
	lead := x.Shape[:len(x.Shape)-1]
	fin, fok, err := b.optTensor("finished")
	if err != nil {
		return nil, err
	}
	if fok && (fin.DType != tensor.Bool || !slices.Equal(fin.Shape, lead)) {
		return nil, b.argErr("finished", "npu_moe_gating_top_k_softmax: finished must be a bool tensor of shape %v, got %s of shape %v", lead, fin.DType, fin.Shape)
	}
	k, err := b.integer("k")
	if err != nil {
		return nil, err
	}
	e := int64(x.Shape[len(x.Shape)-1])
	if k <= 0 || k > e || k > 1024 {
		return nil, b.argErr("k", "npu_moe_gating_top_k_softmax: k must be in [1, min(%d, 1024)], got %d", e, k)
	}
	return newPlan("npu.moe_gating_top_k_softmax", ops.Attrs{"k": ops.IntAttr(k)}, tensorBinding(x), optBinding(fin, fok)), nil
}

// npuSortV2 lowers npu_sort_v2(self, dim=-1, descending=False, out=None):
// the sorted values only.
func npuSortV2(b *bound) (*framework.Plan, error) {
	x, err := b.npuTensor("self")
	if err != nil {
		return nil, err
	}
	dim, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	desc, err := b.boolean("descending")
	if err != nil {
		return nil, err
	}
	return newPlan("npu.sort_v2", ops.Attrs{"dim": ops.IntAttr(dim), "descending": ops.BoolAttr(desc)}, tensorBinding(x)), nil
}

// npuFloat checks that a fused op's tensor is float16, bfloat16, float32
// or float64 (the last for probe's own float64 runs).
// npuTensor is the floating tensor argument name of a fused operator.
func (b *bound) npuTensor(name string) (framework.Arg, error) {
	a, err := b.tensor(name)
	if err != nil {
		return a, err
	}
	return a, b.npuFloat(name, a)
}

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
	x, err := b.npuTensor("input")
	if err != nil {
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
	x, err := b.npuTensor("x")
	if err != nil {
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
	perm, shape, first, err := confusionArgs(b)
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"perm": ops.IntsAttr(perm...), "shape": ops.IntsAttr(shape...), "transpose_first": ops.BoolAttr(first)}
	return newPlan("npu.confusion_transpose", attrs, tensorBinding(x)), nil
}

// confusionArgs reads the perm, shape and transpose_first arguments of
// npu_confusion_transpose and its aten backward.
func confusionArgs(b *bound) (perm, shape []int64, first bool, err error) {
	if perm, err = b.intList("perm", 0, false); err != nil {
		return nil, nil, false, err
	}
	if shape, err = b.intList("shape", 0, false); err != nil {
		return nil, nil, false, err
	}
	first, err = b.boolean("transpose_first")
	return perm, shape, first, err
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
// bias and eps used; msprobe's reference ignores them, fused-ops.md §17 #13,
// which --compat msprobe gives the bench: MsprobeBenchAttrs).
func npuLayerNormEval(b *bound) (*framework.Plan, error) {
	x, err := b.npuTensor("input")
	if err != nil {
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
