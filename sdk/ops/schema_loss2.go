package ops

// The loss2 family: the remaining losses of torch.nn.functional (binary
// cross entropy with logits, KL divergence, the margin and embedding
// losses, Poisson/Gaussian NLL, CTC), the recurrent cells and layers
// (lstm, gru and their cells) and embedding_bag, as PyTorch 1.13's CPU
// computes them.

// loss2Reduction is the reduction attribute every loss of the family has.
var loss2Reduction = attr("reduction", AttrString, StringAttr("mean"), "none, mean or sum")

func init() {
	addSchemas(
		Schema{Name: "binary_cross_entropy_with_logits", Doc: "(1 − t)·x + log_weight·(log(exp(−m) + exp(−x − m)) + m), m = max(−x, 0), " +
			"log_weight = (pos_weight − 1)·t + 1 (1 without pos_weight), times weight; the loss has target's shape (input, weight and pos_weight broadcast to it); floating",
			Inputs: []InputSpec{in("self"), in("target"), {Name: "weight", Optional: true}, {Name: "pos_weight", Optional: true}},
			Attrs:  []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "kl_div", Doc: "xlogy(t, t) − t·x, or exp(t)·(t − x) with log_target; input and target broadcast; " +
			"batchmean is F.kl_div's sum divided by input.size(0); floating",
			Inputs: []InputSpec{in("self"), in("target")},
			Attrs: []AttrSpec{attr("reduction", AttrString, StringAttr("mean"), "none, mean, sum or batchmean"),
				attr("log_target", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "margin_ranking_loss", Doc: "max(0, −target·(input1 − input2) + margin), broadcast; floating",
			Inputs: []InputSpec{in("input1"), in("input2"), in("target")},
			Attrs:  []AttrSpec{attr("margin", AttrFloat, FloatAttr(0), ""), loss2Reduction}, Outputs: 1},
		Schema{Name: "hinge_embedding_loss", Doc: "where(t ≠ 1, max(0, margin − x), 0) + where(t ≠ −1, x, 0), broadcast; floating",
			Inputs: []InputSpec{in("self"), in("target")},
			Attrs:  []AttrSpec{attr("margin", AttrFloat, FloatAttr(1), ""), loss2Reduction}, Outputs: 1},
		Schema{Name: "cosine_embedding_loss", Doc: "cos = Σx1·x2 / sqrt((Σx1² + 1e-12)(Σx2² + 1e-12)) over the last dim (1-D inputs with a 0-d target, 2-D with a 1-D target); " +
			"1 − cos where target is 1, max(0, cos − margin) where −1, else 0; floating",
			Inputs: []InputSpec{in("input1"), in("input2"), in("target")},
			Attrs:  []AttrSpec{attr("margin", AttrFloat, FloatAttr(0), ""), loss2Reduction}, Outputs: 1},
		Schema{Name: "poisson_nll_loss", Doc: "exp(x) − t·x (log_input) or x − t·log(x + eps), plus Stirling's t·log t − t + ½log(2πt) where t > 1 when full; broadcast; floating",
			Inputs: []InputSpec{in("input"), in("target")},
			Attrs: []AttrSpec{attr("log_input", AttrBool, BoolAttr(true), ""), attr("full", AttrBool, BoolAttr(false), ""),
				attr("eps", AttrFloat, FloatAttr(1e-8), ""), loss2Reduction}, Outputs: 1},
		Schema{Name: "gaussian_nll_loss", Doc: "F.gaussian_nll_loss: ½(log v + (x − t)²/v) (+ ½log 2π when full), v = var clamped to eps outside autograd; " +
			"var has input's shape, or lacks or has size 1 in the last dim; negative var is an error; floating",
			Inputs: []InputSpec{in("input"), in("target"), in("var")},
			Attrs: []AttrSpec{attr("full", AttrBool, BoolAttr(false), ""), attr("eps", AttrFloat, FloatAttr(1e-6), ""),
				loss2Reduction}, Outputs: 1},
		Schema{Name: "triplet_margin_loss", Doc: "max(0, margin + d(a, p) − d(a, n)), d the pairwise_distance (p, eps) along the last dim, d(a, n) = min(d(a, n), d(p, n)) with swap; " +
			"python_order adds as F.triplet_margin_with_distance_loss does ((d(a, p) − d(a, n)) + margin, no rank check); floating",
			Inputs: []InputSpec{in("anchor"), in("positive"), in("negative")},
			Attrs: []AttrSpec{attr("margin", AttrFloat, FloatAttr(1), ""), attr("p", AttrFloat, FloatAttr(2), ""),
				attr("eps", AttrFloat, FloatAttr(1e-6), ""), attr("swap", AttrBool, BoolAttr(false), ""),
				attr("python_order", AttrBool, BoolAttr(false), ""), loss2Reduction}, Outputs: 1},
		Schema{Name: "soft_margin_loss", Doc: "log1p(exp(−x·t)), target broadcast to input's shape; floating; no gradient for target in PyTorch",
			Inputs: []InputSpec{in("self"), {Name: "target"}},
			Attrs:  []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "multilabel_margin_loss", Doc: "per sample Σ_{j target} Σ_{i not target} max(0, 1 − (x[y_j] − x[i])) / C, targets read up to the first −1; " +
			"input (C) or (N, C), int64 target of input's shape; float32 or float64",
			Inputs: []InputSpec{in("self"), idx("target")},
			Attrs:  []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "multilabel_soft_margin_loss", Doc: "F.multilabel_soft_margin_loss: −(t·logsigmoid(x) + (1 − t)·logsigmoid(−x)), times weight, summed over the last dim and divided by its size; floating",
			Inputs: []InputSpec{in("input"), in("target"), opt("weight")},
			Attrs:  []AttrSpec{loss2Reduction}, Outputs: 1},
		Schema{Name: "multi_margin_loss", Doc: "per sample Σ_{i≠y} w[y]·max(0, margin − x[y] + x[i])^p / C; input (C) or (N, C), int64 target; float32 or float64",
			Inputs: []InputSpec{in("self"), idx("target"), {Name: "weight", Optional: true}},
			Attrs: []AttrSpec{attr("p", AttrInt, IntAttr(1), "1 or 2"), attr("margin", AttrFloat, FloatAttr(1), ""),
				loss2Reduction}, Outputs: 1},
		Schema{Name: "lstm_cell", Doc: "gates = (hx·w_hhᵀ + b_hh) + (input·w_ihᵀ + b_ih) split in i, f, g, o; cy = σ(f)·cx + σ(i)·tanh(g), hy = σ(o)·tanh(cy); outputs (hy, cy)",
			Inputs: []InputSpec{in("input"), in("hx"), in("cx"), in("w_ih"), in("w_hh"), opt("b_ih"), opt("b_hh")}, Outputs: 2},
		Schema{Name: "gru_cell", Doc: "r = σ(h_r + i_r), z = σ(h_z + i_z), n = tanh(i_n + h_n·r), hy = (hx − n)·z + n, with i = input·w_ihᵀ + b_ih, h = hx·w_hhᵀ + b_hh",
			Inputs: []InputSpec{in("input"), in("hx"), in("w_ih"), in("w_hh"), opt("b_ih"), opt("b_hh")}, Outputs: 1},
		Schema{Name: "lstm", Doc: "torch.lstm(input, (h0, c0), params, ...): the layers of lstm_cell over time (both directions when bidirectional, projections when params hold w_hr); " +
			"outputs (output, h_n, c_n); dropout between layers only with train and dropout > 0 (refused: random)",
			Inputs: []InputSpec{in("input"), in("hx"), in("cx"), variadic("params")},
			Attrs: []AttrSpec{req("has_biases", AttrBool, ""), req("num_layers", AttrInt, ""), attr("dropout", AttrFloat, FloatAttr(0), ""),
				attr("train", AttrBool, BoolAttr(false), ""), attr("bidirectional", AttrBool, BoolAttr(false), ""),
				attr("batch_first", AttrBool, BoolAttr(false), "")}, Outputs: 3},
		Schema{Name: "gru", Doc: "torch.gru(input, h0, params, ...): the layers of gru_cell over time; outputs (output, h_n)",
			Inputs: []InputSpec{in("input"), in("hx"), variadic("params")},
			Attrs: []AttrSpec{req("has_biases", AttrBool, ""), req("num_layers", AttrInt, ""), attr("dropout", AttrFloat, FloatAttr(0), ""),
				attr("train", AttrBool, BoolAttr(false), ""), attr("bidirectional", AttrBool, BoolAttr(false), ""),
				attr("batch_first", AttrBool, BoolAttr(false), "")}, Outputs: 2},
		Schema{Name: "embedding_bag", Doc: "sums, means or maxima of weight rows over bags: 1-D indices cut by offsets (include_last_offset: the last offset ends the last bag), " +
			"or 2-D indices one bag a row (offsets None); per_sample_weights scale rows (sum only); rows of padding_idx are left out; the bag values only",
			Inputs: []InputSpec{in("weight"), idx("indices"), {Name: "offsets", Optional: true}, opt("per_sample_weights")},
			Attrs: []AttrSpec{attr("mode", AttrString, StringAttr("mean"), "sum, mean or max"), attr("scale_grad_by_freq", AttrBool, BoolAttr(false), ""),
				attr("include_last_offset", AttrBool, BoolAttr(false), ""), attr("padding_idx", AttrInt, IntAttr(-1), "−1 for none, else in [0, rows)")}, Outputs: 1},
		Schema{Name: "ctc_loss", Doc: "connectionist temporal classification as PyTorch 1.13's CPU kernel: log_probs (T, N, C) or (T, C), targets padded (N, S) or concatenated; " +
			"lengths as tensors or, when those are None, the int attributes; mean divides each loss by its clamped target length, then averages; zero_infinity zeroes infinite losses and their gradients",
			Inputs: []InputSpec{in("log_probs"), idx("targets"), {Name: "input_lengths", Optional: true}, {Name: "target_lengths", Optional: true}},
			Attrs: []AttrSpec{attr("input_lengths", AttrInts, IntsAttr(), "used when the input_lengths input is None"),
				attr("target_lengths", AttrInts, IntsAttr(), "used when the target_lengths input is None"),
				attr("blank", AttrInt, IntAttr(0), ""), loss2Reduction, attr("zero_infinity", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	)
}
