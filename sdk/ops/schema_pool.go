package ops

// The pool family, with PyTorch 1.13's CPU semantics: 2-d and 3-d average
// pooling, 3-d adaptive average pooling, 2-d and 3-d adaptive max pooling,
// F.pad's non-constant modes, unfold (im2col) and fold (col2im),
// F.interpolate's kernels (upsample), max unpooling and power-average
// pooling. Spatial dimensions are the last n; an input of rank n+1 is
// unbatched (C, *).

func init() {
	avgAttrs := func(n string) []AttrSpec {
		return []AttrSpec{req("kernel_size", AttrInts, "one or "+n+" sizes"), req("stride", AttrInts, "one or "+n+" sizes, None and [] already replaced by kernel_size"),
			req("padding", AttrInts, "one or "+n+" sizes"), attr("ceil_mode", AttrBool, BoolAttr(false), ""),
			attr("count_include_pad", AttrBool, BoolAttr(true), ""),
			attr("divisor_override", AttrInt, NoneAttr(), "the divisor of every window in place of its size; not 0, may be negative")}
	}
	addSchemas(
		Schema{Name: "avg_pool2d", Doc: "(C, H, W) or (N, C, H, W): window means (window clipped to the padded input; divisor the clipped size with padding " +
			"when count_include_pad, else the part inside the input, or divisor_override); float32 and bfloat16 sum at float32; int64 inputs divide with truncation",
			Inputs: []InputSpec{in("self")}, Attrs: avgAttrs("two"), Outputs: 1},
		Schema{Name: "avg_pool3d", Doc: "(C, D, H, W) or (N, C, D, H, W): avg_pool2d's windows in three dimensions (the input at least the kernel size, " +
			"padding not counted); int64 inputs divide with truncation",
			Inputs: []InputSpec{in("self")}, Attrs: avgAttrs("three"), Outputs: 1},
		Schema{Name: "adaptive_avg_pool3d", Doc: "(C, D, H, W) or (N, C, D, H, W): means of PyTorch's adaptive windows [floor(i·in/out), ceil((i+1)·in/out)), " +
			"summed at the input's dtype and divided by the window's depth, height and width in turn; output size (1, 1, 1) is mean over the last three dimensions (any rank ≥ 3, any float dtype)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("output_size", AttrInts, "one or three sizes, None entries already replaced by the input size")}, Outputs: 1},
		Schema{Name: "adaptive_max_pool2d", Doc: "(C, H, W) or (N, C, H, W): maxima of PyTorch's adaptive windows (a NaN wins); outputs (values) or " +
			"(values, int64 indices within H·W) when return_indices",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("output_size", AttrInts, "one or two sizes, None entries already replaced by the input size"),
				attr("return_indices", AttrBool, BoolAttr(false), "")}, Outputs: -1},
		Schema{Name: "adaptive_max_pool3d", Doc: "(C, D, H, W) or (N, C, D, H, W): adaptive_max_pool2d in three dimensions, indices within D·H·W",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("output_size", AttrInts, "one or three sizes, None entries already replaced by the input size"),
				attr("return_indices", AttrBool, BoolAttr(false), "")}, Outputs: -1},
		Schema{Name: "pad", Doc: "F.pad's non-constant modes: reflect (reflection_pad1d/2d/3d), replicate (replication_pad1d/2d/3d) or circular, " +
			"pad (before, after) pairs from the last dimension backwards; 2, 4 or 6 pads on an input of one or two more dimensions (circular: two); negative pads crop",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{req("pad", AttrInts, ""), req("mode", AttrString, "reflect, replicate or circular")}, Outputs: 1},
		Schema{Name: "im2col", Doc: "F.unfold: (C, H, W) or (N, C, H, W) → (C·kh·kw, L) or (N, C·kh·kw, L) of the sliding blocks, zero outside the input",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("kernel_size", AttrInts, "two sizes (other counts: PyTorch's error)"), req("dilation", AttrInts, "two sizes"),
				req("padding", AttrInts, "two sizes"), req("stride", AttrInts, "two sizes")}, Outputs: 1},
		Schema{Name: "col2im", Doc: "F.fold: (C·kh·kw, L) or (N, C·kh·kw, L) → (C, H, W) or (N, C, H, W): the sum of the blocks at their places (the adjoint of im2col), " +
			"added block column after block column at the input's dtype",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("output_size", AttrInts, "two sizes"), req("kernel_size", AttrInts, "two sizes"), req("dilation", AttrInts, "two sizes"),
				req("padding", AttrInts, "two sizes"), req("stride", AttrInts, "two sizes")}, Outputs: 1},
		Schema{Name: "upsample", Doc: "F.interpolate's kernels on (N, C, *) with 1 to 3 spatial dimensions: mode nearest, nearest-exact, linear (linear, bilinear, " +
			"trilinear by the spatial rank) or bicubic (2 spatial dimensions); the source coordinate of output i is scale·(i+0.5)−0.5 " +
			"(nearest: i·scale, nearest-exact: (i+0.5)·scale; align_corners: i·(in−1)/(out−1)), scale 1/scales[d] where given and positive, else in/out; " +
			"float32 and bfloat16 compute scales, sources and weights at their own precisions as PyTorch's kernels do",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("mode", AttrString, ""), req("output_size", AttrInts, "one size per spatial dimension"),
				attr("scales", AttrFloats, FloatsAttr(), "the scale factors passed to the kernel, one per spatial dimension (≤ 0: none), or empty"),
				attr("align_corners", AttrBool, BoolAttr(false), "linear and bicubic only")}, Outputs: 1},
		Schema{Name: "max_unpool", Doc: "F.max_unpool1d/2d/3d: zeros of (N, C) + output_size with input values written at their flat indices within each plane " +
			"(later writes win); 1-d runs as max_unpool2d with a unit last dimension",
			Inputs: []InputSpec{in("self"), idx("indices")},
			Attrs: []AttrSpec{req("output_size", AttrInts, "one to three sizes"),
				attr("stride", AttrInts, IntsAttr(), "max_unpool3d's, for its checks"), attr("padding", AttrInts, IntsAttr(), "max_unpool3d's, for its checks")}, Outputs: 1},
		Schema{Name: "lp_pool", Doc: "F.lp_pool1d/lp_pool2d (one or two kernel sizes): (sign(a)·relu(|a|)·K)^(1/norm_type) with a = avg_pool(x^norm_type) " +
			"without padding and K the window size, each step rounded to the input's dtype as PyTorch's composite does",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("norm_type", AttrFloat, ""), req("kernel_size", AttrInts, "one size (lp_pool1d) or two (lp_pool2d, an int already paired)"),
				req("stride", AttrInts, "as many sizes, None already replaced by kernel_size"), attr("ceil_mode", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	)
}
