package ops

// The nn2 family: transposed and time-batch-channel convolutions, 3-d max
// pooling, the native_* normalisations with their statistics outputs,
// grid sampling and affine grids, the feature and alpha dropouts,
// _softmax_backward_data, embedding_renorm_ and bilinear, with PyTorch
// 1.13's CPU semantics.

func init() {
	nn2Eps := attr("eps", AttrFloat, FloatAttr(1e-5), "")
	addSchemas(
		Schema{Name: "conv_transpose", Doc: "N-d transposed convolution (N = weight rank − 2; (C, *) unbatched or (N, C, *) input, weight (C_in, C_out/groups, k...)): " +
			"the gradient of convolution with respect to its input, output size (in−1)·stride − 2·padding + dilation·(k−1) + output_padding + 1; " +
			"integer tensors compute exactly, float16 and bfloat16 are refused as on PyTorch 1.13's CPU",
			Inputs: []InputSpec{in("input"), in("weight"), opt("bias")},
			Attrs: []AttrSpec{req("stride", AttrInts, "one per spatial dim (or one for all)"), req("padding", AttrInts, ""),
				req("output_padding", AttrInts, "smaller than stride or dilation"), req("dilation", AttrInts, ""),
				attr("groups", AttrInt, IntAttr(1), "")}, Outputs: 1},
		Schema{Name: "conv_tbc", Doc: "torch.conv_tbc: input (time, batch, C_in), weight (k, C_in, C_out), bias (C_out); " +
			"out[t, b] = bias + Σ_k input[t+k−pad, b] · weight[k] (zero outside), time size T + 2·pad − k + 1",
			Inputs: []InputSpec{in("input"), in("weight"), in("bias")},
			Attrs:  []AttrSpec{attr("pad", AttrInt, IntAttr(0), "")}, Outputs: 1},
		Schema{Name: "max_pool3d", Doc: "(C, D, H, W) or (N, C, D, H, W); outputs (values) or (values, int64 indices within D·H·W) when return_indices; " +
			"float32 and float64 only, as PyTorch 1.13's CPU kernel",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("kernel_size", AttrInts, "three sizes"), req("stride", AttrInts, "three sizes, already defaulted to kernel_size"),
				attr("padding", AttrInts, IntsAttr(0, 0, 0), ""), attr("dilation", AttrInts, IntsAttr(1, 1, 1), ""),
				attr("ceil_mode", AttrBool, BoolAttr(false), ""), attr("return_indices", AttrBool, BoolAttr(false), "")}, Outputs: -1},
		Schema{Name: "native_layer_norm", Doc: "torch.native_layer_norm: (layer_norm output, mean, rstd), mean and rstd = 1/sqrt(biased var + eps) " +
			"of shape input.shape[:-len(normalized_shape)] + [1]·len(normalized_shape); the statistics take no gradient",
			Inputs: []InputSpec{in("input"), opt("weight"), opt("bias")},
			Attrs:  []AttrSpec{req("normalized_shape", AttrInts, ""), nn2Eps}, Outputs: 3},
		Schema{Name: "native_group_norm", Doc: "torch.native_group_norm(input, weight, bias, N, C, HxW, group, eps): (group_norm output, mean, rstd), " +
			"the statistics of shape (N, group); gradients of all three outputs flow back to the input",
			Inputs: []InputSpec{in("input"), opt("weight"), opt("bias")},
			Attrs: []AttrSpec{req("N", AttrInt, ""), req("C", AttrInt, ""), req("HxW", AttrInt, "input has N·C·HxW elements"),
				req("group", AttrInt, "dividing C"), nn2Eps}, Outputs: 3},
		Schema{Name: "native_batch_norm", Doc: "torch.native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps): " +
			"(output, save_mean, save_invstd): the batch mean and 1/sqrt(biased var + eps) per channel in training, empty tensors in evaluation; " +
			"the update of the running statistics is not an output; only the output takes a gradient",
			Inputs: []InputSpec{in("input"), opt("weight"), opt("bias"), opt("running_mean"), opt("running_var")},
			Attrs:  []AttrSpec{attr("training", AttrBool, BoolAttr(false), ""), attr("momentum", AttrFloat, FloatAttr(0.1), ""), nn2Eps}, Outputs: 3},
		Schema{Name: "batch_norm_update_stats", Doc: "torch.batch_norm_update_stats(input, running_mean, running_var, momentum): " +
			"(mean, biased variance) per channel (dim 1); the update of the running statistics is not an output; no derivative in PyTorch",
			Inputs: []InputSpec{in("input"), opt("running_mean"), opt("running_var")},
			Attrs:  []AttrSpec{req("momentum", AttrFloat, "")}, Outputs: 2},
		Schema{Name: "grid_sampler", Doc: "torch.grid_sampler: 4-d input (N, C, H, W) with grid (N, H', W', 2) or 5-d input with grid (N, D', H', W', 3); " +
			"interpolation 0 bilinear, 1 nearest, 2 bicubic (4-d only); padding 0 zeros, 1 border, 2 reflection; float32 and float64 only",
			Inputs: []InputSpec{in("input"), in("grid")},
			Attrs: []AttrSpec{req("interpolation_mode", AttrInt, "0, 1 or 2"), req("padding_mode", AttrInt, "0, 1 or 2"),
				req("align_corners", AttrBool, "")}, Outputs: 1},
		Schema{Name: "affine_grid", Doc: "torch.affine_grid_generator(theta, size, align_corners): the (N, H, W, 2) or (N, D, H, W, 3) grid theta · [x, y, (z,) 1] " +
			"over the base coordinates linspace(−1, 1) (scaled by (n−1)/n without align_corners)",
			Inputs: []InputSpec{in("theta")},
			Attrs:  []AttrSpec{req("size", AttrInts, "(N, C, H, W) or (N, C, D, H, W)"), req("align_corners", AttrBool, "")}, Outputs: 1},
		Schema{Name: "feature_dropout", Doc: "torch.feature_dropout: inverted dropout of whole channels (one draw per (N, C) plane, input of at least 2 dimensions); " +
			"with alpha, alpha dropout (torch.alpha_dropout, or torch.feature_alpha_dropout with feature): dropped values become −SELU's negative saturation, " +
			"then an affine map keeps mean and variance; the mask comes from the plugin's RNG seeded by ExecRequest.Seed",
			Inputs: []InputSpec{in("input")},
			Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(0.5), ""), attr("train", AttrBool, BoolAttr(true), ""), inplace,
				attr("feature", AttrBool, BoolAttr(true), "one draw per (N, C) plane instead of per element"),
				attr("alpha", AttrBool, BoolAttr(false), "alpha dropout"),
				attr("unbatched", AttrBool, BoolAttr(false), "the input lacks the batch dimension (F.dropout1d on (C, L), F.dropout3d on (C, D, H, W)): one draw per dim-0 slice")}, Outputs: 1},
		Schema{Name: "softmax_backward_data", Doc: "torch._softmax_backward_data(grad_output, output, dim, input_dtype): output·(grad_output − Σ_dim grad_output·output) " +
			"at grad_output's dtype, which output must share; input_dtype (the forward input's) only refuses float32 tensors with a float16 input_dtype, as PyTorch's CPU kernel",
			Inputs: []InputSpec{in("grad_output"), in("output")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), req("input_dtype", AttrString, "")}, Outputs: 1},
		Schema{Name: "embedding_renorm", Doc: "torch.embedding_renorm_(self, indices, max_norm, norm_type): every row of the 2-d self named in indices whose norm_type-norm " +
			"exceeds max_norm is scaled by max_norm/(norm + 1e-7); the result is the renormalised self; no derivative in PyTorch",
			Inputs: []InputSpec{in("self"), idx("indices")},
			Attrs:  []AttrSpec{req("max_norm", AttrFloat, ""), req("norm_type", AttrFloat, "")}, Outputs: 1},
		Schema{Name: "bilinear", Doc: "torch.bilinear(input1, input2, weight, bias): y[..., o] = Σ_ij input1[..., i]·weight[o, i, j]·input2[..., j] + bias[o]; " +
			"input1 and input2 share their leading dimensions",
			Inputs: []InputSpec{in("input1"), in("input2"), in("weight"), opt("bias")}, Outputs: 1},
	)
}
