package ops

// The aten backward references of the fused torch_npu operators, which a
// dump records as their own calls (fused-ops.md §0.1): each is the
// backward of its forward op for the gradient in input 0, and its outputs
// are the gradients. matmul_backward and npu.fusion_attention_grad are in
// schema.go.

func init() {
	addSchemas(
		Schema{Name: "npu.fast_gelu_backward", Doc: "aten npu_fast_gelu_backward(grad, self): the gradient of npu.fast_gelu (fused-ops.md §4)",
			Inputs: []InputSpec{idx("grad"), idx("self")}, Outputs: 1},
		Schema{Name: "npu.swiglu_backward", Doc: "aten npu_swiglu_backward(grad, x, dim): the gradient of npu.swiglu (fused-ops.md §11)",
			Inputs: []InputSpec{idx("grad"), idx("x")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "npu.rotary_mul_backward", Doc: "aten npu_rotary_mul_backward(grad, self, r1, r2): (dx, dr1, dr2) of npu.rotary_mul, " +
			"dr1 and dr2 summed over the axes r1 and r2 were broadcast along (fused-ops.md §9)",
			Inputs: []InputSpec{idx("grad"), idx("self"), idx("r1"), idx("r2")},
			Attrs:  []AttrSpec{attr("rotary_mode", AttrString, StringAttr("half"), "half or interleave")}, Outputs: 3},
		Schema{Name: "npu.linear_backward", Doc: "aten npu_linear_backward(grad, input, weight): (dx, dweight) of npu.linear, dx = grad·weight, dweight = gradᵀ·x (fused-ops.md §6)",
			Inputs: []InputSpec{idx("grad"), idx("input"), idx("weight")}, Outputs: 2},
		Schema{Name: "npu.rms_norm_backward", Doc: "aten npu_rms_norm_backward(dy, self, gamma, rstd): (dx, dgamma) of npu.rms_norm with the given rstd: " +
			"c = mean(dy·x·gamma·rstd) over gamma's dims, dx = (dy·gamma − x·rstd·c)·rstd, dgamma = Σ dy·x·rstd over the leading dims (fused-ops.md §8)",
			Inputs: []InputSpec{idx("dy"), idx("self"), idx("gamma"), idx("rstd")},
			Attrs:  []AttrSpec{attr("reduce_dgamma", AttrBool, BoolAttr(true), "false keeps dgamma unreduced, of x's shape (msprobe's reference)")}, Outputs: 2},
		Schema{Name: "npu.scaled_masked_softmax_backward", Doc: "aten npu_scaled_masked_softmax_backward(y_grad, y, mask, scale, fixed_triu_mask): " +
			"scale·y·(dy − Σ dy·y) over the last dim, 0 where masked (fused-ops.md §10)",
			Inputs: []InputSpec{idx("y_grad"), idx("y"), idx("mask")},
			Attrs: []AttrSpec{attr("scale", AttrFloat, FloatAttr(1), ""),
				attr("fixed_triu_mask", AttrBool, BoolAttr(false), "mask the strict upper triangle of the last two dims, ignoring mask's values"),
				npuSemantics("y_grad and y raised to float32, y_grad·y, its sum, the difference, ·y and ·scale in float32, 0 where masked, cast to y_grad's dtype (§10)")}, Outputs: 1},
	)
}
