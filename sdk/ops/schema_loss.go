package ops

// The loss family: the pointwise regression losses and binary cross
// entropy of torch.nn.functional, normalize, one_hot and
// local_response_norm, as PyTorch 1.13 computes them on the CPU, and
// PyTorch 2's scaled_dot_product_attention as its documentation composes
// it from 1.13's ops. Where PyTorch 1.13's CPU lacks a kernel at a narrow
// dtype the op is emulated in float32 and rounded (each schema names
// those dtypes).

func init() {
	addSchemas(
		Schema{Name: "mse_loss", Doc: "(x − t)², input and target broadcast (F.mse_loss expands both), at their promoted floating dtype; " +
			"bfloat16, and float16's backward, emulated in float32 (no CPU kernel in PyTorch 1.13)",
			Inputs: []InputSpec{in("self"), in("target")}, Attrs: []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "l1_loss", Doc: "|x − t| as PyTorch 1.13 composes it (sub, abs, then the reduction: tensor ops at the promoted dtype); " +
			"input and target broadcast; floating (a bool operand is refused by the subtraction)",
			Inputs: []InputSpec{in("self"), in("target")}, Attrs: []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "smooth_l1_loss", Doc: "½(x − t)²/beta where |x − t| < beta, else |x − t| − ½beta (beta 0: l1_loss), broadcast; beta ≥ 0; " +
			"float16's backward emulated in float32 (no CPU kernel in PyTorch 1.13)",
			Inputs: []InputSpec{in("self"), in("target")},
			Attrs:  []AttrSpec{loss2Reduction, attr("beta", AttrFloat, FloatAttr(1), "")}, Outputs: 1},
		Schema{Name: "huber_loss", Doc: "½(x − t)² where |x − t| < delta, else delta·(|x − t| − ½delta), broadcast, computed at the promoted dtype; " +
			"delta > 0; the result has input's dtype",
			Inputs: []InputSpec{in("self"), in("target")},
			Attrs:  []AttrSpec{loss2Reduction, attr("delta", AttrFloat, FloatAttr(1), "")}, Outputs: 1},
		Schema{Name: "binary_cross_entropy", Doc: "−w·(t·max(log x, −100) + (1 − t)·max(log(1 − x), −100)), input in [0, 1], target of input's shape and dtype, " +
			"weight (of input's dtype) broadcast to it, no gradient; float32 or float64, float16 and bfloat16 emulated in float32 " +
			"(no CPU kernel in PyTorch 1.13)",
			Inputs: []InputSpec{in("self"), in("target"), {Name: "weight", Optional: true}},
			Attrs:  []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "normalize", Doc: "F.normalize: x / max(‖x‖_p over dim (keepdim), eps) as tensor ops (norm, clamp_min, div); " +
			"p 0 counts non-zeros, inf/−inf take max/min |x|; floating, float16 emulated in float32 (no clamp_min CPU kernel in PyTorch 1.13)",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(2), ""), attr("dim", AttrInts, IntsAttr(1), "dimension(s) of the norm"),
				attr("eps", AttrFloat, FloatAttr(1e-12), "")}, Outputs: 1},
		Schema{Name: "one_hot", Doc: "F.one_hot: int64 (..., num_classes) with 1 at each index; num_classes −1 is max + 1; int64 input only; no gradient",
			Inputs: []InputSpec{idx("self")},
			Attrs:  []AttrSpec{attr("num_classes", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "local_response_norm", Doc: "F.local_response_norm over dim 1 of a (N, C, *) input: x / (k + alpha·mean of x² over a window of size channels, " +
			"zero padded size//2 before and (size−1)//2 after)^beta, as tensor ops (mul, pad, avg_pool, mul, add, pow, div); floating, " +
			"float16 emulated in float32 (no avg_pool CPU kernel in PyTorch 1.13)",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("size", AttrInt, ""), attr("alpha", AttrFloat, FloatAttr(1e-4), ""), attr("beta", AttrFloat, FloatAttr(0.75), ""),
				attr("k", AttrFloat, FloatAttr(1), "")}, Outputs: 1},
		Schema{Name: "scaled_dot_product_attention", Doc: "PyTorch 2's F.scaled_dot_product_attention as its documentation composes it: " +
			"softmax(q·kᵀ·scale + bias)·v, each step a tensor of q's dtype, scale 1/sqrt(E) when None; bias −inf where a bool attn_mask is False " +
			"or above the diagonal with is_causal, else the float attn_mask (no gradient); q (..., L, E), k (..., S, E), v (..., S, Ev), " +
			"batch dims and mask broadcast; enable_gqa repeats k and v heads (dim −3); dropout_p > 0 refused (random)",
			Inputs: []InputSpec{in("query"), in("key"), in("value"), {Name: "attn_mask", Optional: true}},
			Attrs: []AttrSpec{attr("dropout_p", AttrFloat, FloatAttr(0), ""), attr("is_causal", AttrBool, BoolAttr(false), ""),
				attr("scale", AttrFloat, NoneAttr(), "None: 1/sqrt(q.size(-1))"), attr("enable_gqa", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	)
}
