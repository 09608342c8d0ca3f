package ops

// The fused torch_npu operators (issue 13, ../shared/spec/fused-ops.md) with
// torch_npu's documented (OFFICIAL) semantics: a float64 reference of the
// defining formula; a device at a narrow dtype computes the fused kernel in
// float32 or wider and rounds each output once.

func init() {
	addSchemas(
		Schema{Name: "npu.swiglu", Doc: "torch_npu.npu_swiglu (fused-ops.md §11): x split in halves A, B along dim (size even), silu(A)·B = A·σ(A)·B; " +
			"the output has dim halved; floating",
			Inputs: []InputSpec{in("x")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(-1), ""),
				npuSemantics("float32 x: σ(A)·A·B in float32; wider x: silu(A) in float32 times B in float32 (§17 #17); the gradient is autograd of that")}, Outputs: 1},
		Schema{Name: "npu.rotary_mul", Doc: "torch_npu.npu_rotary_mul (fused-ops.md §9): r1·x + r2·rot(x), r1 and r2 broadcast to x's shape; " +
			"rot(x) = concat(−x2, x1) of the halves of the last dim (half) or (−x[2i+1], x[2i]) pairs (interleave); the last dim even; floating",
			Inputs: []InputSpec{in("x"), in("r1"), in("r2")},
			Attrs:  []AttrSpec{attr("rotary_mode", AttrString, StringAttr("half"), "half or interleave")}, Outputs: 1},
		Schema{Name: "npu.fast_gelu", Doc: "torch_npu.npu_fast_gelu (fused-ops.md §4): x·σ(1.702·x); floating",
			Inputs: []InputSpec{in("x")}, Outputs: 1},
		Schema{Name: "npu.mish", Doc: "torch_npu.npu_mish (fused-ops.md §13): x·tanh(log1p(exp(x))); floating",
			Inputs: []InputSpec{in("x")}, Outputs: 1},
		Schema{Name: "npu.scaled_masked_softmax", Doc: "torch_npu.npu_scaled_masked_softmax (fused-ops.md §10): softmax over the last dim of x·scale " +
			"with masked positions (mask true, broadcast to x; with fixed_triu_mask the strict upper triangle of the last two dims instead) set to −10000; " +
			"a fully masked row is uniform; the mask takes no gradient; floating x",
			Inputs: []InputSpec{in("x"), idx("mask")},
			Attrs: []AttrSpec{attr("scale", AttrFloat, FloatAttr(1), ""),
				attr("fixed_triu_mask", AttrBool, BoolAttr(false), "mask the strict upper triangle of the last two dims, ignoring mask's values"),
				npuSemantics("x·scale and z − max(z) at x's dtype, then exp, sum and quotient in float32 (§17 #18); the gradient is autograd of that")}, Outputs: 1},
		Schema{Name: "npu.confusion_transpose", Doc: "torch_npu.npu_confusion_transpose (fused-ops.md §3): reshape(permute(x, perm), shape) with transpose_first, " +
			"else permute(reshape(x, shape), perm); a data movement, any dtype",
			Inputs: []InputSpec{in("x")},
			Attrs: []AttrSpec{req("perm", AttrInts, "a permutation of the permuted tensor's dims"), req("shape", AttrInts, "the reshape target (one -1 allowed)"),
				attr("transpose_first", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "npu.linear", Doc: "torch_npu.npu_linear (fused-ops.md §6): x·weightᵀ + bias, x [.., K], weight [N, K], bias [N] or None; floating",
			Inputs: []InputSpec{in("x"), in("weight"), opt("bias")}, Outputs: 1},
		Schema{Name: "npu.layer_norm_eval", Doc: "torch_npu.npu_layer_norm_eval (fused-ops.md §5): layer_norm over the trailing normalized_shape dims, " +
			"(x − μ)/sqrt(var + eps)·weight + bias with the biased variance; weight and bias of normalized_shape or None; floating",
			Inputs: []InputSpec{in("input"), opt("weight"), opt("bias")},
			Attrs: []AttrSpec{req("normalized_shape", AttrInts, ""), attr("eps", AttrFloat, FloatAttr(1e-5), ""),
				npuSemantics("layer_norm(x, normalized_shape): weight, bias and eps ignored, eps 1e-5 (§17 #13); weight and bias take no gradient")}, Outputs: 1},
		Schema{Name: "npu.apply_adam", Doc: "torch_npu.npu_apply_adam (fused-ops.md §1), TF ApplyAdam: m' = m + (β1−1)(m−g), v' = v + (β2−1)(v−g²), " +
			"lr_t = lr·sqrt(1−beta2_power)/(1−beta1_power), var' = var − lr_t·m'/(ε+sqrt(v')) (with use_nesterov (β1·m' + (1−β1)·g) for m'); " +
			"outputs (var', m', v'); var, m, v, grad of one shape and float dtype; the six Scalars a number or a one-element tensor; no gradient",
			Inputs: append([]InputSpec{{Name: "var"}, {Name: "m"}, {Name: "v"}, {Name: "grad"}},
				npuScalars("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")...),
			Attrs: []AttrSpec{attr("use_nesterov", AttrBool, BoolAttr(false), "")}, Outputs: 3},
		Schema{Name: "npu.apply_adam_w", Doc: "torch_npu.npu_apply_adam_w (fused-ops.md §2): powers advanced by one step inside (b1p = beta1_power·β1, b2p = beta2_power·β2), " +
			"var decayed by (1 − lr·weight_decay), g negated with maximize, m' = β1·m + (1−β1)·g, v' = β2·v + (1−β2)·g², " +
			"var' = var_d − lr·m'/(1−b1p) / (sqrt(v̂/(1−b2p)) + ε) with v̂ = max(max_grad_norm, v') under amsgrad (the given max_grad_norm, §17 #14) else v'; " +
			"outputs (var', m', v'); the seven Scalars a number or a one-element tensor; no gradient",
			Inputs: append([]InputSpec{{Name: "var"}, {Name: "m"}, {Name: "v"}, {Name: "grad"}, {Name: "max_grad_norm", Optional: true}},
				npuScalars("beta1_power", "beta2_power", "lr", "weight_decay", "beta1", "beta2", "epsilon")...),
			Attrs: []AttrSpec{attr("amsgrad", AttrBool, BoolAttr(false), ""), attr("maximize", AttrBool, BoolAttr(false), "")}, Outputs: 3},
		Schema{Name: "npu.group_norm_silu", Doc: "torch_npu.npu_group_norm_silu (fused-ops.md §12): group norm of input [N, C, *] (groups of C/group channels × ∏ shape[2:], " +
			"biased variance, §17 #15), ·weight[c] + bias[c], then silu; outputs (y, mean [N, group], rstd [N, group]) in the input's dtype; no gradient",
			Inputs: []InputSpec{{Name: "input"}, {Name: "weight", Optional: true}, {Name: "bias", Optional: true}},
			Attrs:  []AttrSpec{req("group", AttrInt, ""), attr("eps", AttrFloat, FloatAttr(1e-5), "")}, Outputs: 3},
		Schema{Name: "npu.moe_gating_top_k_softmax", Doc: "torch_npu.npu_moe_gating_top_k_softmax (fused-ops.md §14): softmax over the last dim of x (leading dims flattened to T rows, §17 #16), " +
			"the k largest per row in descending order, ties to the lower index; outputs (y, expert_idx, row_idx) of shape x.shape[:-1]+[k], " +
			"expert_idx E for a finished row, row_idx[i, j] = j·T + i, both int32; no gradient",
			Inputs: []InputSpec{{Name: "x"}, {Name: "finished", Optional: true}},
			Attrs: []AttrSpec{attr("k", AttrInt, IntAttr(1), ""),
				npuSemantics("the softmax in float32 (§17 #18), so ties are decided at float32 resolution; the top-k taken along axis 1, so a 3-D x [B, T, E] " +
					"gives y and expert_idx [B, min(k, T), E] and row_idx [B, min(k, T)], and finished viewed as [finished.shape[0], 1] (§17 #16)")}, Outputs: 3},
		Schema{Name: "npu.sort_v2", Doc: "torch_npu.npu_sort_v2 (fused-ops.md §15): the values of a stable sort along dim (NaN last ascending, first descending); " +
			"the gradient scattered back through the permutation",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("dim", AttrInt, IntAttr(-1), ""), attr("descending", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	)
}

// npuScalars are the Scalar inputs of the optimizer steps: a Python number
// or a one-element tensor, never differentiated.
func npuScalars(names ...string) []InputSpec {
	out := make([]InputSpec, len(names))
	for i, n := range names {
		out[i] = InputSpec{Name: n, ScalarOK: true}
	}
	return out
}

// npuSemantics is the semantics attribute of an op whose bench under
// --compat msprobe computes msprobe's reference (ref says how it differs).
func npuSemantics(ref string) AttrSpec {
	return attr("semantics", AttrString, StringAttr("official"),
		"\"official\": torch_npu's documented formula in float64; \"msprobe\": msprobe's reference, the bench of --compat msprobe: "+ref)
}
