package lower

import (
	"fmt"
	"slices"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The loss2 family: the losses of torch.nn.functional beyond cross_entropy
// and nll_loss (binary_cross_entropy_with_logits, kl_div, the margin and
// embedding losses, Poisson/Gaussian NLL, CTC), the recurrent cells and
// layers and embedding_bag. torch.<loss> takes the reduction as ATen's
// enum (0 none, 1 mean, 2 sum); F.<loss> as a string, with the legacy
// size_average/reduce.

const loss2Legacy = "size_average=None, reduce=None, reduction='mean'"

func init() {
	def(loss2Plain("binary_cross_entropy_with_logits", "input", "target", "weight?", "pos_weight?"),
		"input, target, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None",
		"Functional.binary_cross_entropy_with_logits")
	def(loss2Plain("binary_cross_entropy_with_logits", "input", "target", "weight?", "pos_weight?"),
		"input, target, weight=None, pos_weight=None, reduction=1", "Torch.binary_cross_entropy_with_logits")
	def(loss2Plain("kl_div", "input", "target", "+log_target"),
		"input, target, size_average=None, reduce=None, reduction='mean', log_target=False", "Functional.kl_div")
	def(loss2Plain("kl_div", "input", "target", "+log_target"), "input, target, reduction=1, *, log_target=False", "Torch.kl_div")
	def(loss2Plain("margin_ranking_loss", "input1", "input2", "target", "margin"),
		"input1, input2, target, margin=0, "+loss2Legacy, "Functional.margin_ranking_loss")
	def(loss2Plain("margin_ranking_loss", "input1", "input2", "target", "margin"),
		"input1, input2, target, margin=0.0, reduction=1", "Torch.margin_ranking_loss")
	def(loss2Plain("hinge_embedding_loss", "input", "target", "margin"),
		"input, target, margin=1.0, "+loss2Legacy, "Functional.hinge_embedding_loss")
	def(loss2Plain("hinge_embedding_loss", "input", "target", "margin"),
		"input, target, margin=1.0, reduction=1", "Torch.hinge_embedding_loss")
	def(loss2Plain("cosine_embedding_loss", "input1", "input2", "target", "margin"),
		"input1, input2, target, margin=0, "+loss2Legacy, "Functional.cosine_embedding_loss")
	def(loss2Plain("cosine_embedding_loss", "input1", "input2", "target", "margin"),
		"input1, input2, target, margin=0.0, reduction=1", "Torch.cosine_embedding_loss")
	def(loss2Plain("poisson_nll_loss", "input", "target", "+log_input", "+full", "eps"),
		"input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None, reduction='mean'",
		"Functional.poisson_nll_loss")
	def(loss2Plain("poisson_nll_loss", "input", "target", "+log_input", "+full", "eps"),
		"input, target, log_input, full, eps, reduction", "Torch.poisson_nll_loss")
	def(loss2Plain("gaussian_nll_loss", "input", "target", "var", "+full", "eps"),
		"input, target, var, full=False, eps=1e-06, reduction='mean'", "Functional.gaussian_nll_loss")
	def(loss2Plain("triplet_margin_loss", "anchor", "positive", "negative", "margin", "p", "eps", "+swap"),
		"anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, "+loss2Legacy, "Functional.triplet_margin_loss")
	def(loss2Plain("triplet_margin_loss", "anchor", "positive", "negative", "margin", "p", "eps", "+swap"),
		"anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=1", "Torch.triplet_margin_loss")
	def(loss2TripletDistance, "anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction='mean'",
		"Functional.triplet_margin_with_distance_loss")
	def(loss2Plain("soft_margin_loss", "input", "target"), "input, target, "+loss2Legacy, "Functional.soft_margin_loss")
	def(loss2Plain("multilabel_margin_loss", "input", "target"), "input, target, "+loss2Legacy, "Functional.multilabel_margin_loss")
	def(loss2Plain("multilabel_soft_margin_loss", "input", "target", "weight?"), "input, target, weight=None, "+loss2Legacy,
		"Functional.multilabel_soft_margin_loss")
	def(loss2Plain("multi_margin_loss", "input", "target", "#p", "margin", "weight?"),
		"input, target, p=1, margin=1.0, weight=None, "+loss2Legacy, "Functional.multi_margin_loss")
	usedOps = append(usedOps, "binary_cross_entropy_with_logits", "kl_div", "margin_ranking_loss", "hinge_embedding_loss",
		"cosine_embedding_loss", "poisson_nll_loss", "gaussian_nll_loss", "triplet_margin_loss", "soft_margin_loss",
		"multilabel_margin_loss", "multilabel_soft_margin_loss", "multi_margin_loss")
}

// loss2Reduction reads the reduction: ATen's enum for torch.<loss>, the
// string (with the legacy size_average/reduce) for F.<loss>; F.kl_div also
// takes batchmean.
func (b *bound) loss2Reduction(op string) (string, error) {
	if b.ns == Torch {
		r, err := b.integer("reduction")
		if err != nil {
			return "", err
		}
		switch r {
		case 0:
			return "none", nil
		case 1:
			return "mean", nil
		case 2:
			return "sum", nil
		}
		return "", b.argErr("reduction", "%d is not a valid reduction (0 none, 1 mean, 2 sum)", r)
	}
	if !b.isNone("size_average") || !b.isNone("reduce") {
		// legacy_get_enum / legacy_get_string (absent names read as None)
		return b.reduction()
	}
	r, err := b.str("reduction")
	if err != nil {
		return "", err
	}
	switch r {
	case "none", "mean", "sum":
		return r, nil
	case "batchmean":
		if op == "kl_div" {
			return r, nil
		}
	}
	if op == "gaussian_nll_loss" || op == "poisson_nll_loss" || op == "multilabel_soft_margin_loss" {
		return "", b.argErr("reduction", "%s is not valid", r)
	}
	return "", b.argErr("reduction", "%s is not a valid value for reduction", r)
}

// loss2Plain lowers a loss whose op inputs are the named tensors (a name
// ending in ? may be None) and whose attributes are the other names: a
// plain name is a float, +name a bool, #name an int; the reduction comes
// last.
func loss2Plain(op string, params ...string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		attrs := ops.Attrs{}
		var in []framework.Binding
		var ts []framework.Arg
		for _, p := range params {
			switch {
			case p[0] == '+':
				v, err := b.boolean(p[1:])
				if err != nil {
					return nil, err
				}
				attrs[p[1:]] = ops.BoolAttr(v)
			case p[0] == '#':
				v, err := b.integer(p[1:])
				if err != nil {
					return nil, err
				}
				attrs[p[1:]] = ops.IntAttr(v)
			case p[len(p)-1] == '?':
				a, ok, err := b.optTensor(p[:len(p)-1])
				if err != nil {
					return nil, err
				}
				in = append(in, optBinding(a, ok))
				if ok {
					ts = append(ts, a)
				}
			case slices.Contains([]string{"margin", "eps", "p"}, p):
				v, err := b.float(p)
				if err != nil {
					return nil, err
				}
				attrs[p] = ops.FloatAttr(v)
			default:
				a, err := b.tensor(p)
				if err != nil {
					return nil, err
				}
				in = append(in, tensorBinding(a))
				ts = append(ts, a)
			}
		}
		red, err := b.loss2Reduction(op)
		if err != nil {
			return nil, err
		}
		attrs["reduction"] = ops.StringAttr(red)
		if !slices.ContainsFunc(ts, func(a framework.Arg) bool { return a.DType.IsFloat() }) {
			// PyTorch computes some of these losses on integer tensors
			// with its own promotion quirks (hinge_embedding_loss stays
			// int64); the kernels take floating inputs
			return nil, b.errf("%s of integer tensors only is not supported: the kernels take floating inputs", op)
		}
		if err := b.loss2Checks(op, attrs, ts); err != nil {
			return nil, err
		}
		return newPlan(op, attrs, in...), nil
	}
}

// loss2Checks are the checks F.<loss> makes in Python before calling
// torch (the ATen checks are the kernels').
func (b *bound) loss2Checks(op string, attrs ops.Attrs, ts []framework.Arg) error {
	if b.ns != Functional {
		return nil
	}
	switch op {
	case "binary_cross_entropy_with_logits":
		if !slices.Equal(ts[0].Shape, ts[1].Shape) {
			return b.argErr("target", "Target size (%s) must be the same as input size (%s)", loss2Size(ts[1].Shape), loss2Size(ts[0].Shape))
		}
	case "margin_ranking_loss":
		if len(ts[0].Shape) != len(ts[1].Shape) || len(ts[0].Shape) != len(ts[2].Shape) {
			return b.argErr("target", "margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: %s, input2: %s, target: %s ",
				loss2Size(ts[0].Shape), loss2Size(ts[1].Shape), loss2Size(ts[2].Shape))
		}
	case "multi_margin_loss":
		if p := attrs["p"].Int; p != 1 && p != 2 {
			return b.argErr("p", "only p == 1 and p == 2 supported")
		}
		if len(ts) > 2 && len(ts[2].Shape) != 1 {
			return b.argErr("weight", "weight must be one-dimensional")
		}
	}
	return nil
}

// loss2Size prints a shape as torch.Size does.
func loss2Size(s []int) string {
	out := "torch.Size(["
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(v)
	}
	return out + "])"
}

// loss2TripletDistance lowers F.triplet_margin_with_distance_loss with the
// default distance (pairwise_distance, p 2, eps 1e-6), which adds the
// margin last and checks no ranks.
func loss2TripletDistance(b *bound) (*framework.Plan, error) {
	if !b.isNone("distance_function") {
		return nil, b.argErr("distance_function", "a distance_function callable cannot be replayed from a dump")
	}
	var in []framework.Binding
	for _, n := range []string{"anchor", "positive", "negative"} {
		a, err := b.tensor(n)
		if err != nil {
			return nil, err
		}
		in = append(in, tensorBinding(a))
	}
	m, err := b.float("margin")
	if err != nil {
		return nil, err
	}
	swap, err := b.boolean("swap")
	if err != nil {
		return nil, err
	}
	red, err := b.str("reduction")
	if err != nil {
		return nil, err
	}
	if red != "none" && red != "mean" && red != "sum" {
		return nil, b.argErr("reduction", "%s is not a valid value for reduction", red)
	}
	return newPlan("triplet_margin_loss", ops.Attrs{"margin": ops.FloatAttr(m), "p": ops.FloatAttr(2), "eps": ops.FloatAttr(1e-6),
		"swap": ops.BoolAttr(swap), "python_order": ops.BoolAttr(true), "reduction": ops.StringAttr(red)}, in...), nil
}

func init() {
	defMulti(loss2Cell(false), "input, hx, w_ih, w_hh, b_ih=None, b_hh=None", "Torch.lstm_cell")
	def(loss2Cell(true), "input, hx, w_ih, w_hh, b_ih=None, b_hh=None", "Torch.gru_cell")
	defMulti(loss2RNN(false), "input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first=None", "Torch.lstm")
	defMulti(loss2RNN(true), "input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first=None", "Torch.gru")
	usedOps = append(usedOps, "lstm_cell", "gru_cell", "lstm", "gru")
	// a made-up call cannot tell the input form from the packed one
	declareOps([]string{"lstm"}, "Torch.lstm")
	declareOps([]string{"gru"}, "Torch.gru")
}

// loss2Tensors reads a list of tensors (a tuple or list argument).
func (b *bound) loss2Tensors(name string) ([]framework.Arg, error) {
	l := b.arg(name)
	if l.Kind != framework.ArgList {
		return nil, b.argErr(name, "expected a list of tensors, got %s", kindName(l))
	}
	for i, e := range l.Elems {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr(name, "element %d: expected tensor, got %s", i, kindName(e))
		}
	}
	return l.Elems, nil
}

// loss2Cell lowers torch.lstm_cell(input, (hx, cx), w_ih, w_hh, b_ih,
// b_hh) and torch.gru_cell(input, hx, ...).
func loss2Cell(gru bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		in := []framework.Binding{tensorBinding(x)}
		if gru {
			h, err := b.tensor("hx")
			if err != nil {
				return nil, err
			}
			in = append(in, tensorBinding(h))
		} else {
			hs, err := b.loss2Tensors("hx")
			if err != nil {
				return nil, err
			}
			if len(hs) != 2 {
				return nil, b.argErr("hx", "lstm_cell expects two hidden states")
			}
			in = append(in, tensorBinding(hs[0]), tensorBinding(hs[1]))
		}
		for _, n := range []string{"w_ih", "w_hh"} {
			w, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			in = append(in, tensorBinding(w))
		}
		for _, n := range []string{"b_ih", "b_hh"} {
			w, ok, err := b.optTensor(n)
			if err != nil {
				return nil, err
			}
			in = append(in, optBinding(w, ok))
		}
		op := "lstm_cell"
		if gru {
			op = "gru_cell"
		}
		return newPlan(op, nil, in...), nil
	}
}

// loss2RNN lowers torch.lstm(input, (h0, c0), params, has_biases,
// num_layers, dropout, train, bidirectional, batch_first) and torch.gru
// (h0 alone); the packed-sequence form (data, batch_sizes, ...) is refused.
func loss2RNN(gru bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		packed := b.arg("hx").Kind == framework.ArgTensor && !gru || b.arg("params").Kind == framework.ArgTensor
		if packed || b.isNone("batch_first") {
			return nil, b.errf("the packed-sequence form (data, batch_sizes, ...) cannot be replayed: a PackedSequence's batch sizes are not in the dump")
		}
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		in := []framework.Binding{tensorBinding(x)}
		if gru {
			h, err := b.tensor("hx")
			if err != nil {
				return nil, err
			}
			in = append(in, tensorBinding(h))
		} else {
			hs, err := b.loss2Tensors("hx")
			if err != nil {
				return nil, err
			}
			if len(hs) != 2 {
				return nil, b.argErr("hx", "lstm expects two hidden states")
			}
			in = append(in, tensorBinding(hs[0]), tensorBinding(hs[1]))
		}
		ps, err := b.loss2Tensors("params")
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			in = append(in, tensorBinding(p))
		}
		attrs := ops.Attrs{}
		for _, n := range []string{"has_biases", "train", "bidirectional", "batch_first"} {
			v, err := b.boolean(n)
			if err != nil {
				return nil, err
			}
			attrs[n] = ops.BoolAttr(v)
		}
		layers, err := b.integer("num_layers")
		if err != nil {
			return nil, err
		}
		dropout, err := b.float("dropout")
		if err != nil {
			return nil, err
		}
		if layers < 1 {
			return nil, b.argErr("num_layers", "num_layers must be at least 1, got %d", layers)
		}
		if dropout > 0 && attrs["train"].Bool && layers > 1 {
			return nil, b.argErr("dropout", "dropout %v between layers in training mode is random", dropout)
		}
		attrs["num_layers"], attrs["dropout"] = ops.IntAttr(layers), ops.FloatAttr(dropout)
		op := "lstm"
		if gru {
			op = "gru"
		}
		return newPlan(op, attrs, in...), nil
	}
}

func init() {
	defMulti(loss2EmbeddingBag, "weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None",
		"Torch.embedding_bag")
	def(loss2EmbeddingBag, "input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None",
		"Functional.embedding_bag")
	usedOps = append(usedOps, "embedding_bag")
}

// loss2EmbeddingBag lowers torch.embedding_bag (mode as ATen's 0 sum, 1
// mean, 2 max; four outputs of which the bags are compared) and
// F.embedding_bag (2-D input: one bag a row; mode a string; max_norm,
// which renormalises weight in place first, is refused).
func loss2EmbeddingBag(b *bound) (*framework.Plan, error) {
	idxName := "indices"
	if b.ns == Functional {
		idxName = "input"
	}
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	ix, err := b.tensor(idxName)
	if err != nil {
		return nil, err
	}
	off, offOK, err := b.optTensor("offsets")
	if err != nil {
		return nil, err
	}
	psw, pswOK, err := b.optTensor("per_sample_weights")
	if err != nil {
		return nil, err
	}
	var mode string
	if b.ns == Torch {
		m, err := b.integer("mode")
		if err != nil {
			return nil, err
		}
		switch m {
		case 0:
			mode = "sum"
		case 1:
			mode = "mean"
		case 2:
			mode = "max"
		default:
			return nil, b.argErr("mode", "Unknown mode for embedding_bag_backward with mode %d", m)
		}
		if !offOK {
			return nil, b.argErr("offsets", "expected tensor, got None")
		}
	} else {
		if mode, err = b.str("mode"); err != nil {
			return nil, err
		}
		if !b.isNone("max_norm") {
			return nil, b.argErr("max_norm", "max_norm renormalises weight in place before the bags: not replayable from the dump")
		}
		if pswOK && !slices.Equal(psw.Shape, ix.Shape) {
			return nil, b.argErr("per_sample_weights", "embedding_bag: If per_sample_weights (%s) is not None, then it must have the same shape as the input (%s)",
				loss2Size(psw.Shape), loss2Size(ix.Shape))
		}
		switch len(ix.Shape) {
		case 2:
			if offOK {
				return nil, b.argErr("offsets", "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences.")
			}
		case 1:
			if !offOK {
				return nil, b.argErr("offsets", "offsets has to be a 1D Tensor but got None")
			}
		default:
			return nil, b.argErr("input", "input has to be 1D or 2D Tensor, but got Tensor of dimension %d", len(ix.Shape))
		}
		switch mode {
		case "sum", "mean":
		case "max":
			if sg, _ := b.boolean("scale_grad_by_freq"); sg {
				return nil, b.argErr("scale_grad_by_freq", "max mode does not support scaling the gradient by the frequency")
			}
		default:
			return nil, b.argErr("mode", "mode has to be one of sum, mean or max")
		}
		if pswOK && mode != "sum" {
			return nil, b.argErr("per_sample_weights", "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='%s'). Please open a feature request on GitHub.", mode)
		}
	}
	if offOK && len(ix.Shape) != 1 {
		return nil, b.argErr(idxName, "input has to be a 1D or 2D Tensor, but got Tensor of dimension %d", len(ix.Shape))
	}
	attrs := ops.Attrs{"mode": ops.StringAttr(mode)}
	for _, n := range []string{"scale_grad_by_freq", "include_last_offset"} {
		v, err := b.boolean(n)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.BoolAttr(v)
	}
	if _, err := b.boolean("sparse"); err != nil {
		return nil, err
	}
	pad := int64(-1)
	if !b.isNone("padding_idx") {
		p, err := b.integer("padding_idx")
		if err != nil {
			return nil, err
		}
		rows := int64(0)
		if len(w.Shape) > 0 {
			rows = int64(w.Shape[0])
		}
		if p < -rows || p >= rows {
			return nil, b.argErr("padding_idx", "padding_idx must be within the number of embeddings, -%d through %d, but got %d", rows, rows-1, p)
		}
		if p < 0 {
			p += rows
		}
		pad = p
	}
	attrs["padding_idx"] = ops.IntAttr(pad)
	return newPlan("embedding_bag", attrs, tensorBinding(w), tensorBinding(ix), optBinding(off, offOK), optBinding(psw, pswOK)), nil
}

func init() {
	def(loss2CTCLoss, "log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False", "Torch.ctc_loss")
	def(loss2CTCLoss, "log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False", "Functional.ctc_loss")
	usedOps = append(usedOps, "ctc_loss")
}

// loss2CTCLoss lowers torch.ctc_loss and F.ctc_loss: the lengths are
// tensors (op inputs) or lists of ints (attributes).
func loss2CTCLoss(b *bound) (*framework.Plan, error) {
	lp, err := b.tensor("log_probs")
	if err != nil {
		return nil, err
	}
	tg, err := b.tensor("targets")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{}
	in := []framework.Binding{tensorBinding(lp), tensorBinding(tg)}
	for _, n := range []string{"input_lengths", "target_lengths"} {
		if a := b.arg(n); a.Kind == framework.ArgTensor {
			t, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			in = append(in, tensorBinding(t))
			attrs[n] = ops.IntsAttr()
			continue
		}
		v, err := b.intList(n, 0, true)
		if err != nil {
			return nil, err
		}
		in = append(in, framework.Binding{Kind: framework.BindNone})
		attrs[n] = ops.IntsAttr(v...)
	}
	blank, err := b.integer("blank")
	if err != nil {
		return nil, err
	}
	zi, err := b.boolean("zero_infinity")
	if err != nil {
		return nil, err
	}
	red, err := b.loss2Reduction("ctc_loss")
	if err != nil {
		return nil, err
	}
	attrs["blank"], attrs["zero_infinity"], attrs["reduction"] = ops.IntAttr(blank), ops.BoolAttr(zi), ops.StringAttr(red)
	return newPlan("ctc_loss", attrs, in...), nil
}
