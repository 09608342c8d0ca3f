package ops

// The fused torch_npu operators (issue 13, ../shared/spec/fused-ops.md) with
// torch_npu's documented (OFFICIAL) semantics: a float64 reference of the
// defining formula; a device at a narrow dtype computes the fused kernel in
// float32 or wider and rounds each output once.

func init() {
	addSchemas(
		Schema{Name: "npu.swiglu", Doc: "torch_npu.npu_swiglu (fused-ops.md §11): x split in halves A, B along dim (size even), silu(A)·B = A·σ(A)·B; " +
			"the output has dim halved; floating",
			Inputs: []InputSpec{in("x")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
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
				attr("fixed_triu_mask", AttrBool, BoolAttr(false), "mask the strict upper triangle of the last two dims, ignoring mask's values")}, Outputs: 1},
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
			Attrs:  []AttrSpec{req("normalized_shape", AttrInts, ""), attr("eps", AttrFloat, FloatAttr(1e-5), "")}, Outputs: 1},
	)
}
