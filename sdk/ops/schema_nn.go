package ops

// The nn ops of msprobe's torch list (torch.celu, torch._add_relu,
// torch.rrelu, ...): activations with PyTorch 1.13's CPU semantics.

func init() {
	addSchemas(
		Schema{Name: "celu", Doc: "max(0, x) + min(0, alpha·(exp(x/alpha) − 1)), as ATen's elu(x, alpha, 1, 1/alpha); floating inputs only",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{inplace, attr("alpha", AttrFloat, FloatAttr(1), "not 0")}, Outputs: 1},
		unary("selu", "scale·(max(0, x) + min(0, alpha·(exp(x) − 1))), alpha 1.6732632423543772, scale 1.0507009873554805; floating inputs only"),
		Schema{Name: "threshold", Doc: "x where x > threshold, else value; threshold and value are cast to x's dtype (integers truncate); bool refused",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{inplace, req("threshold", AttrFloat, ""), req("value", AttrFloat, "")}, Outputs: 1},
		Schema{Name: "prelu", Doc: "x where x > 0, else weight·x; weight has 1 element or one per channel (dim 1); floating, weight of x's dtype",
			Inputs: []InputSpec{in("self"), in("weight")}, Outputs: 1},
		Schema{Name: "hardshrink", Doc: "0 where -lambd ≤ x ≤ lambd, else x; floating inputs only",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("lambd", AttrFloat, FloatAttr(0.5), "")}, Outputs: 1},
		Schema{Name: "add_relu", Doc: "torch._add_relu: relu(self + alpha·other) with add's promotion, clamped above at the largest value of self's dtype " +
			"(an infinity becomes that value); self int8, int16, int32, int64, float32 or float64; no derivative in PyTorch",
			Inputs: []InputSpec{in("self"), sc("other")},
			Attrs:  []AttrSpec{inplace, attr("alpha", AttrFloat, FloatAttr(1), "cast to the result dtype (an integer result truncates it)")}, Outputs: 1},
		Schema{Name: "rrelu", Doc: "rrelu in evaluation: leaky_relu with slope (lower + upper)/2; floating inputs only",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{inplace, attr("lower", AttrFloat, FloatAttr(0.125), ""),
				attr("upper", AttrFloat, FloatAttr(1.0/3), "at least lower")}, Outputs: 1},

		// data movement: any dtype, bool included
		Schema{Name: "pixel_shuffle", Doc: "(*, C·r², H, W) → (*, C, H·r, W·r)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("upscale_factor", AttrInt, "r, positive")}, Outputs: 1},
		Schema{Name: "pixel_unshuffle", Doc: "(*, C, H·r, W·r) → (*, C·r², H, W)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("downscale_factor", AttrInt, "r, positive")}, Outputs: 1},
		Schema{Name: "channel_shuffle", Doc: "(N, C, *): channels regrouped as reshape (N, g, C/g, *), transpose 1 and 2; no derivative in PyTorch",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("groups", AttrInt, "g, positive, dividing C")}, Outputs: 1},
		Schema{Name: "constant_pad_nd", Doc: "pads (before, after) pairs from the last dimension backwards with value; negative pads crop",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("pad", AttrInts, "even length, at most twice the rank"),
				attr("value", AttrFloat, FloatAttr(0), "cast to self's dtype (an error where it overflows)")}, Outputs: 1},

		// distances of two broadcast tensors
		Schema{Name: "cosine_similarity", Doc: "Σ (x1/max(‖x1‖, eps))·(x2/max(‖x2‖, eps)) along dim (PyTorch 1.13's formula); floating common dtype",
			Inputs: []InputSpec{in("x1"), in("x2")},
			Attrs:  []AttrSpec{attr("dim", AttrInt, IntAttr(1), ""), attr("eps", AttrFloat, FloatAttr(1e-8), "")}, Outputs: 1},
		Schema{Name: "pairwise_distance", Doc: "p-norm of x1 − x2 + eps along the last dimension of the broadcast shape (p = 0 counts non-zeros, ±inf max/min); integer inputs give the default float dtype",
			Inputs: []InputSpec{in("x1"), in("x2")},
			Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(2), ""), attr("eps", AttrFloat, FloatAttr(1e-6), ""),
				attr("keepdim", AttrBool, BoolAttr(false), "")}, Outputs: 1},

		// pooling
		Schema{Name: "adaptive_avg_pool1d", Doc: "(C, L) or (N, C, L): adaptive_avg_pool2d with a unit dimension before the last; floating (not float16 on PyTorch 1.13's CPU)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("output_size", AttrInts, "one size")}, Outputs: 1},
		Schema{Name: "max_pool1d", Doc: "(C, L) or (N, C, L); outputs (values) or (values, int64 indices within L) when return_indices, " +
			"with the checks of PyTorch 1.13's max_pool1d or max_pool1d_with_indices",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("kernel_size", AttrInts, "one size"), req("stride", AttrInts, "one size, already defaulted to kernel_size"),
				attr("padding", AttrInts, IntsAttr(0), ""), attr("dilation", AttrInts, IntsAttr(1), ""),
				attr("ceil_mode", AttrBool, BoolAttr(false), ""), attr("return_indices", AttrBool, BoolAttr(false), "")}, Outputs: -1},
		Schema{Name: "avg_pool1d", Doc: "(C, L) or (N, C, L): window means as avg_pool2d computes them (int64 inputs divide with truncation)",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("kernel_size", AttrInts, "one size"), req("stride", AttrInts, "one size, already defaulted to kernel_size"),
				attr("padding", AttrInts, IntsAttr(0), ""), attr("ceil_mode", AttrBool, BoolAttr(false), ""),
				attr("count_include_pad", AttrBool, BoolAttr(true), "")}, Outputs: 1},
		Schema{Name: "adaptive_max_pool1d", Doc: "(C, L) or (N, C, L): maxima of PyTorch's adaptive windows; outputs (values) or (values, int64 indices within L) when return_indices",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("output_size", AttrInts, "one size"),
				attr("return_indices", AttrBool, BoolAttr(false), "")}, Outputs: -1},

		// normalisation
		Schema{Name: "group_norm", Doc: "(N, C, *): each of num_groups channel groups of a sample normalised by its mean and biased variance, then weight[c]·x + bias[c]; " +
			"weight and bias of input's dtype",
			Inputs: []InputSpec{in("input"), opt("weight"), opt("bias")},
			Attrs:  []AttrSpec{req("num_groups", AttrInt, "dividing C"), attr("eps", AttrFloat, FloatAttr(1e-5), "")}, Outputs: 1},
	)
}
