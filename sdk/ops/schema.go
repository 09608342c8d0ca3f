package ops

import "sort"

// InputSpec describes one positional input of an op.
type InputSpec struct {
	Name string
	// Optional inputs may be None (KindNone).
	Optional bool
	// Variadic marks the last input as a list of tensors (cat, stack).
	Variadic bool
	// Differentiable inputs receive a gradient in backward when they are
	// float tensors that require grad.
	Differentiable bool
	// ScalarOK inputs may be a Scalar instead of a tensor.
	ScalarOK bool
}

// AttrSpec describes one attribute of an op.
type AttrSpec struct {
	Name     string
	Kind     AttrKind
	Default  Attr
	Required bool
	Doc      string
}

// Schema is the contract of one canonical op. Outputs is the number of
// outputs, or -1 when it depends on the attributes (split_with_sizes).
type Schema struct {
	Name    string
	Doc     string
	Inputs  []InputSpec
	Attrs   []AttrSpec
	Outputs int
}

func in(name string) InputSpec  { return InputSpec{Name: name, Differentiable: true} }
func opt(name string) InputSpec { return InputSpec{Name: name, Optional: true, Differentiable: true} }
func sc(name string) InputSpec  { return InputSpec{Name: name, Differentiable: true, ScalarOK: true} }
func idx(name string) InputSpec { return InputSpec{Name: name} } // integer/bool data input, no gradient
func attr(name string, k AttrKind, def Attr, doc string) AttrSpec {
	return AttrSpec{Name: name, Kind: k, Default: def, Doc: doc}
}
func req(name string, k AttrKind, doc string) AttrSpec {
	return AttrSpec{Name: name, Kind: k, Required: true, Doc: doc}
}

var (
	dimNone  = attr("dim", AttrInts, NoneAttr(), "dimensions to reduce; None reduces all")
	keepdim  = attr("keepdim", AttrBool, BoolAttr(false), "keep reduced dimensions with size 1")
	dtypeOpt = attr("dtype", AttrString, NoneAttr(), "output dtype (short name, e.g. float32); None keeps the input's")
	inplace  = attr("inplace", AttrBool, BoolAttr(false), "result is written into input 0: cast to its dtype, error if PyTorch would refuse the cast")
)

func unary(name, doc string) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{inplace}, Outputs: 1}
}

func binary(name, doc string, extra ...AttrSpec) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{sc("self"), sc("other")}, Attrs: append([]AttrSpec{inplace}, extra...), Outputs: 1}
}

var schemas = []Schema{
	binary("add", "self + alpha*other, PyTorch type promotion", attr("alpha", AttrFloat, FloatAttr(1), "multiplier of other (int or float)")),
	binary("sub", "self - alpha*other", attr("alpha", AttrFloat, FloatAttr(1), "multiplier of other")),
	binary("mul", "self * other"),
	binary("div", "self / other; rounding_mode None (true division), \"trunc\" or \"floor\"", attr("rounding_mode", AttrString, NoneAttr(), "")),
	binary("pow", "self ** other (self may be a scalar)"),
	binary("maximum", "elementwise maximum (NaN propagates)"),
	binary("minimum", "elementwise minimum (NaN propagates)"),
	unary("neg", "-self"),
	unary("abs", "|self|"),
	unary("exp", "e**self"),
	unary("log", "natural logarithm"),
	unary("sqrt", "square root"),
	unary("rsqrt", "1/sqrt(self)"),
	unary("reciprocal", "1/self"),
	unary("tanh", "hyperbolic tangent"),
	unary("sigmoid", "logistic function"),
	unary("relu", "max(self, 0)"),
	unary("silu", "self*sigmoid(self)"),
	unary("sin", "sine"),
	unary("cos", "cosine"),
	{Name: "gelu", Doc: "Gaussian error linear unit", Inputs: []InputSpec{in("self")},
		Attrs: []AttrSpec{inplace, attr("approximate", AttrString, StringAttr("none"), "\"none\" (erf) or \"tanh\"")}, Outputs: 1},
	{Name: "clamp", Doc: "min(max(self, min), max); min/max scalar, tensor or None", Inputs: []InputSpec{in("self"),
		{Name: "min", Optional: true, ScalarOK: true, Differentiable: true}, {Name: "max", Optional: true, ScalarOK: true, Differentiable: true}},
		Attrs: []AttrSpec{inplace}, Outputs: 1},
	{Name: "softmax", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), dtypeOpt}, Outputs: 1},
	{Name: "log_softmax", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), dtypeOpt}, Outputs: 1},
	{Name: "matmul", Doc: "torch.matmul with its 1-d/batched broadcasting rules", Inputs: []InputSpec{in("self"), in("other")}, Outputs: 1},
	{Name: "mm", Doc: "2-d matrix product", Inputs: []InputSpec{in("self"), in("mat2")}, Outputs: 1},
	{Name: "bmm", Doc: "batched 3-d matrix product", Inputs: []InputSpec{in("self"), in("mat2")}, Outputs: 1},
	{Name: "linear", Doc: "input @ weight^T + bias", Inputs: []InputSpec{in("input"), in("weight"), opt("bias")}, Outputs: 1},
	{Name: "addmm", Doc: "beta*self + alpha*(mat1 @ mat2)", Inputs: []InputSpec{in("self"), in("mat1"), in("mat2")},
		Attrs: []AttrSpec{attr("beta", AttrFloat, FloatAttr(1), ""), attr("alpha", AttrFloat, FloatAttr(1), ""), inplace}, Outputs: 1},
	{Name: "layer_norm", Inputs: []InputSpec{in("input"), opt("weight"), opt("bias")},
		Attrs: []AttrSpec{req("normalized_shape", AttrInts, ""), attr("eps", AttrFloat, FloatAttr(1e-5), "")}, Outputs: 1},
	{Name: "embedding", Doc: "weight[indices]; canonical (ATen) argument order", Inputs: []InputSpec{in("weight"), idx("indices")},
		Attrs: []AttrSpec{attr("padding_idx", AttrInt, IntAttr(-1), "row whose gradient is zero; -1 for none (already normalised to a non-negative index when set)"),
			attr("scale_grad_by_freq", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	{Name: "convolution", Doc: "N-d convolution (N = input rank - 2), cross-correlation as PyTorch",
		Inputs: []InputSpec{in("input"), in("weight"), opt("bias")},
		Attrs: []AttrSpec{req("stride", AttrInts, ""), req("padding", AttrInts, "explicit, symmetric, one per spatial dim"),
			req("dilation", AttrInts, ""), attr("groups", AttrInt, IntAttr(1), "")}, Outputs: 1},
	{Name: "max_pool2d", Doc: "outputs (values) or (values, indices) when return_indices", Inputs: []InputSpec{in("self")},
		Attrs: []AttrSpec{req("kernel_size", AttrInts, ""), req("stride", AttrInts, "already defaulted to kernel_size"),
			attr("padding", AttrInts, IntsAttr(0, 0), ""), attr("dilation", AttrInts, IntsAttr(1, 1), ""),
			attr("ceil_mode", AttrBool, BoolAttr(false), ""), attr("return_indices", AttrBool, BoolAttr(false), "")}, Outputs: -1},
	{Name: "adaptive_avg_pool2d", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("output_size", AttrInts, "two sizes, None entries already replaced by the input size")}, Outputs: 1},
	{Name: "sum", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{dimNone, keepdim, dtypeOpt}, Outputs: 1},
	{Name: "mean", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{dimNone, keepdim, dtypeOpt}, Outputs: 1},
	{Name: "max", Doc: "full reduction to a 0-d tensor", Inputs: []InputSpec{in("self")}, Outputs: 1},
	{Name: "min", Doc: "full reduction to a 0-d tensor", Inputs: []InputSpec{in("self")}, Outputs: 1},
	{Name: "max_dim", Doc: "(values, indices) along dim", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), keepdim}, Outputs: 2},
	{Name: "min_dim", Doc: "(values, indices) along dim", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), keepdim}, Outputs: 2},
	{Name: "cumsum", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), dtypeOpt, inplace}, Outputs: 1},
	{Name: "cat", Inputs: []InputSpec{{Name: "tensors", Variadic: true, Differentiable: true}}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(0), "")}, Outputs: 1},
	{Name: "stack", Inputs: []InputSpec{{Name: "tensors", Variadic: true, Differentiable: true}}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(0), "")}, Outputs: 1},
	{Name: "split_with_sizes", Doc: "chunk/split lowered to explicit sizes", Inputs: []InputSpec{in("self")},
		Attrs: []AttrSpec{req("split_sizes", AttrInts, ""), attr("dim", AttrInt, IntAttr(0), "")}, Outputs: -1},
	{Name: "transpose", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim0", AttrInt, ""), req("dim1", AttrInt, ""), inplace}, Outputs: 1},
	{Name: "permute", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dims", AttrInts, "")}, Outputs: 1},
	{Name: "reshape", Doc: "reshape/view/flatten; shape may contain one -1", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("shape", AttrInts, "")}, Outputs: 1},
	{Name: "masked_fill", Inputs: []InputSpec{in("self"), idx("mask"), {Name: "value", ScalarOK: true, Differentiable: true}}, Attrs: []AttrSpec{inplace}, Outputs: 1},
	{Name: "where", Inputs: []InputSpec{idx("condition"), sc("self"), sc("other")}, Outputs: 1},
	{Name: "dropout", Doc: "inverted dropout; the mask comes from the plugin's RNG seeded by ExecRequest.Seed", Inputs: []InputSpec{in("input")},
		Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(0.5), ""), attr("train", AttrBool, BoolAttr(true), ""), inplace}, Outputs: 1},
	{Name: "cross_entropy", Inputs: []InputSpec{in("input"), idx("target"), opt("weight")},
		Attrs: []AttrSpec{attr("reduction", AttrString, StringAttr("mean"), "none|mean|sum"), attr("ignore_index", AttrInt, IntAttr(-100), ""),
			attr("label_smoothing", AttrFloat, FloatAttr(0), "")}, Outputs: 1},
	{Name: "nll_loss", Inputs: []InputSpec{in("input"), idx("target"), opt("weight")},
		Attrs: []AttrSpec{attr("reduction", AttrString, StringAttr("mean"), ""), attr("ignore_index", AttrInt, IntAttr(-100), "")}, Outputs: 1},
	{Name: "batch_norm", Doc: "F.batch_norm; running stats are inputs only (their update is not an output)",
		Inputs: []InputSpec{in("input"), opt("running_mean"), opt("running_var"), opt("weight"), opt("bias")},
		Attrs:  []AttrSpec{attr("training", AttrBool, BoolAttr(false), ""), attr("momentum", AttrFloat, FloatAttr(0.1), ""), attr("eps", AttrFloat, FloatAttr(1e-5), "")}, Outputs: 1},
	{Name: "clone", Inputs: []InputSpec{in("self")}, Outputs: 1},
	{Name: "ones_like", Inputs: []InputSpec{idx("self")}, Attrs: []AttrSpec{dtypeOpt}, Outputs: 1},
	{Name: "npu.rms_norm", Doc: "torch_npu.npu_rms_norm: (x*rstd*gamma, rstd), rstd = 1/sqrt(mean(x^2 over gamma's dims)+epsilon), fp32 rstd",
		Inputs: []InputSpec{in("x"), in("gamma")}, Attrs: []AttrSpec{attr("epsilon", AttrFloat, FloatAttr(1e-6), "")}, Outputs: 2},
	{Name: "npu.fusion_attention", Doc: "torch_npu.npu_fusion_attention / MindSpore flash_attention_score, float64 reference (fused-ops.md §7): " +
		"softmax((Q·Kᵀ + pse)·scale − 40000·mask)·V per head, GQA kv heads shared by consecutive query heads, fully masked query rows zero where torch_npu zeroes them (inner_precise); " +
		"outputs (attention_out in the query's layout, softmax_max and softmax_sum of shape [B, N1, S1, 8] ([T1, N1, 8] for TND), float32 unless the query is float64)",
		Inputs: []InputSpec{in("query"), in("key"), in("value"), opt("pse"), {Name: "atten_mask", Optional: true}},
		Attrs:  fusionAttentionAttrs, Outputs: 3},
	{Name: "npu.fusion_attention_grad", Doc: "torch_npu's aten npu_fusion_attention_grad: (dq, dk, dv, dpse) of npu.fusion_attention for the gradient dy of attention_out, " +
		"the probabilities recomputed from q, k, pse and the mask (fused-ops.md §7.7); dpse is zero-size without a pse",
		Inputs: []InputSpec{idx("query"), idx("key"), idx("value"), idx("dy"), {Name: "pse", Optional: true}, {Name: "atten_mask", Optional: true}},
		Attrs:  fusionAttentionAttrs, Outputs: 4},
	{Name: "matmul_backward", Doc: "aten matmul_backward(grad, self, other, mask) → (grad_self, grad_other): the gradients of torch.matmul(self, other), " +
		"broadcast batch dimensions summed back to the inputs' shapes; a gradient whose output_mask entry is 0 is zero-size",
		Inputs: []InputSpec{idx("grad"), idx("self"), idx("other")},
		Attrs:  []AttrSpec{attr("output_mask", AttrInts, IntsAttr(1, 1), "which of grad_self, grad_other to compute (1) or not (0)")}, Outputs: 2},
	{Name: "echo", Doc: "returns its input unchanged; used to measure tensor transport", Inputs: []InputSpec{idx("self")}, Outputs: 1},
}

var byName = func() map[string]Schema {
	m := make(map[string]Schema, len(schemas))
	for _, s := range schemas {
		m[s.Name] = s
	}
	return m
}()

// addSchemas registers a family of ops whose schemas live in another file
// of this package; that file calls it from its init. A name given twice
// panics, so the mistake fails every test at start-up.
func addSchemas(ss ...Schema) {
	for _, s := range ss {
		if _, dup := byName[s.Name]; dup {
			panic("ops: schema " + s.Name + " defined twice")
		}
		byName[s.Name] = s
	}
}

// Lookup returns the schema of a canonical op.
func Lookup(name string) (Schema, bool) {
	s, ok := byName[name]
	return s, ok
}

// Names lists every canonical op, sorted.
func Names() []string {
	out := make([]string, 0, len(byName))
	for n := range byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// fusionAttentionAttrs are the attributes of npu.fusion_attention and its
// aten backward.
var fusionAttentionAttrs = []AttrSpec{
	req("head_num", AttrInt, "query heads N1 (BSH/SBH); BSND/BNSD/TND read the heads from the shapes"),
	req("input_layout", AttrString, "BSH, SBH, BSND, BNSD or TND (variable-length batches given by actual_seq_qlen/kvlen)"),
	attr("scale", AttrFloat, FloatAttr(1), "multiplier of Q·Kᵀ + pse"),
	attr("keep_prob", AttrFloat, FloatAttr(1), "dropout keep ratio; only 1 (no dropout) is supported"),
	attr("pre_tockens", AttrInt, IntAttr(2147483647), "band width before the diagonal (sparse_mode 0, 4, 7, 8)"),
	attr("next_tockens", AttrInt, IntAttr(2147483647), "band width after the diagonal (sparse_mode 0, 4, 7, 8)"),
	attr("inner_precise", AttrInt, IntAttr(0), "torch_npu's invalid-row computation: 2 gives a query row whose every key is masked a zero output "+
		"(zero probabilities: no gradient through it; softmax_max/sum keep the masked scores' statistics), which torch_npu also does by itself "+
		"for sparse_mode 3 with S1 > S2; 0 and 1 are reserved (no effect); with semantics \"msprobe\" ignored (the reference keeps such a row's unmasked attention)"),
	attr("sparse_mode", AttrInt, IntAttr(0), "0 default, 1 all, 2 left-up causal, 3 right-down causal, 4 band, 5 prefix, 6 compressed prefix, "+
		"7/8 split variable-length right-down/left-up causal (TND)"),
	attr("actual_seq_qlen", AttrInts, NoneAttr(), "TND: cumulative end row of each batch's queries"),
	attr("actual_seq_kvlen", AttrInts, NoneAttr(), "TND: cumulative end row of each batch's keys and values"),
	attr("prefix", AttrInts, NoneAttr(), "sparse_mode 5/6: each batch's prefix length N (columns j < N stay visible)"),
	attr("semantics", AttrString, StringAttr("official"), "\"official\": torch_npu's documented masks (mode 0 without a mask masks nothing, "+
		"with a mask adds the pre/next band; modes 2-4 and 6-8 build the mask from the mode, the given one being its compressed form); "+
		"\"msprobe\": msprobe's reference (mode 0 without a mask builds the pre/next band; a given mask is used as is unless it is the compressed causal one)"),
	attr("band_anchor", AttrString, StringAttr("top_left"), "sparse_mode 4 band: \"top_left\" (msprobe's reference) or \"bottom_right\" (torch_npu's documentation); equal when S1 = S2"),
	attr("zero_masked_rows", AttrBool, BoolAttr(false), "give every fully masked query row a zero output (invalid-row computation) whatever the semantics and inner_precise"),
	attr("pse_layout", AttrString, StringAttr("full"), "\"full\": pse broadcasts to [B, N1, S1, S2]; \"alibi_compressed\": pse is [B or 1, N1, 1024, S2], the last 1024 rows "+
		"of an alibi pse (constant along each diagonal), the rows above read along their diagonal (torch_npu's alibi compression; takes no gradient)"),
}
