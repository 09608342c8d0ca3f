package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

func TestLoss2(t *testing.T) { runCases(t, loss2Cases(), nil) }

func loss2Cases() []lcase {
	red := func(r string) ops.Attrs { return ops.Attrs{"reduction": sa(r)} }
	x, y := f32("args.0", 4, 8), f32("args.1", 4, 8)
	a := func(args ...framework.Arg) []framework.Arg { return args }
	cs := []lcase{
		// binary_cross_entropy_with_logits
		{name: "Torch.binary_cross_entropy_with_logits", args: a(x, y, nv(), nv(), iv(1)), op: "binary_cross_entropy_with_logits",
			attrs: red("mean"), in: []string{"args.0", "args.1", "none", "none"}},
		{name: "Torch.binary_cross_entropy_with_logits", args: a(x, y, f32("w", 8), f32("pw", 8), iv(0)), op: "binary_cross_entropy_with_logits",
			attrs: red("none"), in: []string{"args.0", "args.1", "w", "pw"}},
		{name: "Torch.binary_cross_entropy_with_logits", args: a(x, y), kwargs: []framework.NamedArg{kw("reduction", iv(2))}, op: "binary_cross_entropy_with_logits", attrs: red("sum")},
		{name: "Torch.binary_cross_entropy_with_logits", args: a(x, y, nv(), nv(), iv(3)), err: "not a valid reduction"},
		{name: "Functional.binary_cross_entropy_with_logits", args: a(x, y), kwargs: []framework.NamedArg{kw("pos_weight", f32("pw", 8))},
			op: "binary_cross_entropy_with_logits", attrs: red("mean"), in: []string{"args.0", "args.1", "none", "pw"}},
		{name: "Functional.binary_cross_entropy_with_logits", args: a(x, y, nv(), bv(false)), op: "binary_cross_entropy_with_logits", attrs: red("sum")},
		{name: "Functional.binary_cross_entropy_with_logits", args: a(x, y, nv(), nv(), bv(false)), op: "binary_cross_entropy_with_logits", attrs: red("none")},
		{name: "Functional.binary_cross_entropy_with_logits", args: a(x, f32("t", 4)), err: "Target size (torch.Size([4])) must be the same as input size (torch.Size([4, 8]))"},
		{name: "Functional.binary_cross_entropy_with_logits", args: a(x, y), kwargs: []framework.NamedArg{kw("reduction", sv("avg"))}, err: "avg is not a valid value for reduction"},
		// kl_div
		{name: "Torch.kl_div", args: a(x, y, iv(1)), kwargs: []framework.NamedArg{kw("log_target", bv(false))}, op: "kl_div",
			attrs: ops.Attrs{"reduction": sa("mean"), "log_target": ops.BoolAttr(false)}},
		{name: "Torch.kl_div", args: a(x, y), kwargs: []framework.NamedArg{kw("log_target", bv(true))}, op: "kl_div",
			attrs: ops.Attrs{"reduction": sa("mean"), "log_target": ops.BoolAttr(true)}},
		{name: "Functional.kl_div", args: a(x, y), kwargs: []framework.NamedArg{kw("reduction", sv("batchmean"))}, op: "kl_div", attrs: red("batchmean")},
		{name: "Functional.kl_div", args: a(x, y, nv(), bv(false)), op: "kl_div", attrs: red("none")},
		{name: "Torch.kl_div", args: a(x, y, sv("mean")), err: `argument "reduction": expected int`},
		// margin and embedding losses
		{name: "Torch.margin_ranking_loss", args: a(f32("a", 8), f32("b", 8), f32("t", 8), fv(0.5), iv(1)), op: "margin_ranking_loss",
			attrs: ops.Attrs{"margin": ops.FloatAttr(0.5), "reduction": sa("mean")}, in: []string{"a", "b", "t"}},
		{name: "Functional.margin_ranking_loss", args: a(f32("a", 8), f32("b", 8), f32("t", 8)), kwargs: []framework.NamedArg{kw("margin", iv(1)), kw("reduction", sv("sum"))},
			op: "margin_ranking_loss", attrs: ops.Attrs{"margin": ops.FloatAttr(1), "reduction": sa("sum")}},
		{name: "Functional.margin_ranking_loss", args: a(f32("a", 8), f32("b", 1, 8), f32("t", 8)), err: "All input tensors should have same dimension"},
		{name: "Torch.hinge_embedding_loss", args: a(x, y, fv(1), iv(0)), op: "hinge_embedding_loss", attrs: ops.Attrs{"margin": ops.FloatAttr(1), "reduction": sa("none")}},
		{name: "Functional.hinge_embedding_loss", args: a(x, y), op: "hinge_embedding_loss", attrs: ops.Attrs{"margin": ops.FloatAttr(1), "reduction": sa("mean")}},
		{name: "Torch.cosine_embedding_loss", args: a(x, y, f32("t", 4), fv(0), iv(1)), op: "cosine_embedding_loss", in: []string{"args.0", "args.1", "t"}},
		{name: "Functional.cosine_embedding_loss", args: a(x, y, f32("t", 4)), kwargs: []framework.NamedArg{kw("margin", fv(0.2))}, op: "cosine_embedding_loss",
			attrs: ops.Attrs{"margin": ops.FloatAttr(0.2), "reduction": sa("mean")}},
		{name: "Torch.poisson_nll_loss", args: a(x, y, bv(true), bv(false), fv(1e-8), iv(1)), op: "poisson_nll_loss",
			attrs: ops.Attrs{"log_input": ops.BoolAttr(true), "full": ops.BoolAttr(false), "eps": ops.FloatAttr(1e-8), "reduction": sa("mean")}},
		{name: "Torch.poisson_nll_loss", args: a(x, y, bv(true), bv(false), fv(1e-8)), err: `missing required argument "reduction"`},
		{name: "Functional.poisson_nll_loss", args: a(x, y, bv(false), bv(true)), kwargs: []framework.NamedArg{kw("reduction", sv("sum"))}, op: "poisson_nll_loss",
			attrs: ops.Attrs{"log_input": ops.BoolAttr(false), "full": ops.BoolAttr(true), "eps": ops.FloatAttr(1e-8), "reduction": sa("sum")}},
		{name: "Functional.poisson_nll_loss", args: a(x, y), kwargs: []framework.NamedArg{kw("reduction", sv("x"))}, err: "x is not valid"},
		{name: "Functional.gaussian_nll_loss", args: a(x, y, f32("v", 4)), kwargs: []framework.NamedArg{kw("full", bv(true))}, op: "gaussian_nll_loss",
			attrs: ops.Attrs{"full": ops.BoolAttr(true), "eps": ops.FloatAttr(1e-6), "reduction": sa("mean")}, in: []string{"args.0", "args.1", "v"}},
		{name: "Torch.triplet_margin_loss", args: a(x, y, f32("n", 4, 8), fv(1), fv(2), fv(1e-6), bv(true), iv(2)), op: "triplet_margin_loss",
			attrs: ops.Attrs{"margin": ops.FloatAttr(1), "p": ops.FloatAttr(2), "swap": ops.BoolAttr(true), "python_order": ops.BoolAttr(false), "reduction": sa("sum")}},
		{name: "Functional.triplet_margin_loss", args: a(x, y, f32("n", 4, 8)), kwargs: []framework.NamedArg{kw("p", iv(1))}, op: "triplet_margin_loss",
			attrs: ops.Attrs{"p": ops.FloatAttr(1), "reduction": sa("mean")}},
		{name: "Functional.triplet_margin_with_distance_loss", args: a(x, y, f32("n", 4, 8)), kwargs: []framework.NamedArg{kw("margin", fv(0.5)), kw("swap", bv(true))},
			op: "triplet_margin_loss", attrs: ops.Attrs{"margin": ops.FloatAttr(0.5), "p": ops.FloatAttr(2), "eps": ops.FloatAttr(1e-6), "python_order": ops.BoolAttr(true), "swap": ops.BoolAttr(true)}},
		{name: "Functional.triplet_margin_with_distance_loss", args: a(x, y, f32("n", 4, 8)), kwargs: []framework.NamedArg{kw("distance_function", framework.Arg{Kind: framework.ArgString, Str: "<function>"})},
			err: "distance_function"},
		{name: "Functional.soft_margin_loss", args: a(x, y), op: "soft_margin_loss", attrs: red("mean")},
		{name: "Functional.multilabel_margin_loss", args: a(x, i64("t", 4, 8)), kwargs: []framework.NamedArg{kw("reduction", sv("none"))}, op: "multilabel_margin_loss", attrs: red("none")},
		{name: "Functional.multilabel_soft_margin_loss", args: a(x, y, f32("w", 8)), op: "multilabel_soft_margin_loss", in: []string{"args.0", "args.1", "w"}},
		{name: "Functional.multi_margin_loss", args: a(x, i64("t", 4)), kwargs: []framework.NamedArg{kw("p", iv(2)), kw("weight", f32("w", 8))}, op: "multi_margin_loss",
			attrs: ops.Attrs{"p": ops.IntAttr(2), "margin": ops.FloatAttr(1), "reduction": sa("mean")}, in: []string{"args.0", "t", "w"}},
		{name: "Functional.multi_margin_loss", args: a(x, i64("t", 4), iv(3)), err: "only p == 1 and p == 2 supported"},
		{name: "Functional.multi_margin_loss", args: a(x, i64("t", 4)), kwargs: []framework.NamedArg{kw("weight", f32("w", 2, 4))}, err: "weight must be one-dimensional"},
	}
	w := func(n string, s ...int) framework.Arg { return f32(n, s...) }
	rnnAttrs := func(layers int64, bidir, bf bool) ops.Attrs {
		return ops.Attrs{"has_biases": ops.BoolAttr(true), "num_layers": ops.IntAttr(layers), "dropout": ops.FloatAttr(0),
			"train": ops.BoolAttr(true), "bidirectional": ops.BoolAttr(bidir), "batch_first": ops.BoolAttr(bf)}
	}
	lstmParams := lv(w("p0", 24, 4), w("p1", 24, 6), w("p2", 24), w("p3", 24))
	gruParams := lv(w("p0", 18, 4), w("p1", 18, 6), w("p2", 18), w("p3", 18))
	cs = append(cs,
		lcase{name: "Torch.lstm_cell", args: a(w("x", 2, 4), lv(w("h", 2, 6), w("c", 2, 6)), w("wi", 24, 4), w("wh", 24, 6), w("bi", 24), w("bh", 24)),
			op: "lstm_cell", in: []string{"x", "h", "c", "wi", "wh", "bi", "bh"}, multi: true},
		lcase{name: "Torch.lstm_cell", args: a(w("x", 2, 4), lv(w("h", 2, 6), w("c", 2, 6)), w("wi", 24, 4), w("wh", 24, 6)),
			op: "lstm_cell", in: []string{"x", "h", "c", "wi", "wh", "none", "none"}, multi: true},
		lcase{name: "Torch.lstm_cell", args: a(w("x", 2, 4), lv(w("h", 2, 6)), w("wi", 24, 4), w("wh", 24, 6)), err: "lstm_cell expects two hidden states"},
		lcase{name: "Torch.gru_cell", args: a(w("x", 2, 4), w("h", 2, 6), w("wi", 18, 4), w("wh", 18, 6)), kwargs: []framework.NamedArg{kw("b_hh", w("bh", 18))},
			op: "gru_cell", in: []string{"x", "h", "wi", "wh", "none", "bh"}},
		lcase{name: "Torch.lstm", args: a(w("x", 5, 2, 4), lv(w("h", 1, 2, 6), w("c", 1, 2, 6)), lstmParams, bv(true), iv(1), fv(0), bv(true), bv(false), bv(false)),
			op: "lstm", attrs: rnnAttrs(1, false, false), in: []string{"x", "h", "c", "p0", "p1", "p2", "p3"}, multi: true},
		lcase{name: "Torch.lstm", args: a(w("x", 5, 2, 4), lv(w("h", 1, 2, 6), w("c", 1, 2, 6)), lstmParams, bv(true), iv(1), fv(0.5), bv(true), bv(false), bv(true)),
			op: "lstm", multi: true},
		lcase{name: "Torch.lstm", args: a(w("x", 5, 2, 4), lv(w("h", 2, 2, 6), w("c", 2, 2, 6)), lstmParams, bv(true), iv(2), fv(0.5), bv(true), bv(false), bv(false)),
			err: "between layers in training mode is random"},
		lcase{name: "Torch.lstm", args: a(w("x", 5, 4), i64("bs", 5), lv(w("h", 1, 2, 6), w("c", 1, 2, 6)), lstmParams, bv(true), iv(1), fv(0), bv(false), bv(false)),
			err: "packed-sequence form"},
		lcase{name: "Torch.gru", args: a(w("x", 5, 2, 4), w("h", 2, 2, 6), gruParams, bv(true), iv(1), fv(0), bv(true), bv(true), bv(false)),
			op: "gru", attrs: rnnAttrs(1, true, false), in: []string{"x", "h", "p0", "p1", "p2", "p3"}, multi: true},
		lcase{name: "Torch.gru", args: a(w("x", 5, 4), i64("bs", 5), w("h", 1, 2, 6), gruParams, bv(true), iv(1), fv(0), bv(false), bv(false)),
			err: "packed-sequence form"},
	)
	bag := func(mode string, pad int64) ops.Attrs {
		return ops.Attrs{"mode": sa(mode), "padding_idx": ops.IntAttr(pad), "scale_grad_by_freq": ops.BoolAttr(false), "include_last_offset": ops.BoolAttr(false)}
	}
	cs = append(cs,
		lcase{name: "Torch.embedding_bag", args: a(w("w", 10, 8), i64("i", 12), i64("o", 3), bv(false), iv(0), bv(false), nv(), bv(false), nv()),
			op: "embedding_bag", attrs: bag("sum", -1), in: []string{"w", "i", "o", "none"}, multi: true},
		lcase{name: "Torch.embedding_bag", args: a(w("w", 10, 8), i64("i", 12), i64("o", 3)), kwargs: []framework.NamedArg{kw("mode", iv(2)), kw("padding_idx", iv(-1))},
			op: "embedding_bag", attrs: bag("max", 9), multi: true},
		lcase{name: "Torch.embedding_bag", args: a(w("w", 10, 8), i64("i", 12), i64("o", 3), bv(false), iv(1), bv(false), nv(), bv(false), iv(10)),
			err: "padding_idx must be within the number of embeddings, -10 through 9, but got 10"},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 12), w("w", 10, 8), i64("o", 3)), op: "embedding_bag", attrs: bag("mean", -1), in: []string{"w", "i", "o", "none"}},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 3, 4), w("w", 10, 8)), kwargs: []framework.NamedArg{kw("mode", sv("sum")), kw("per_sample_weights", w("p", 3, 4))},
			op: "embedding_bag", attrs: bag("sum", -1), in: []string{"w", "i", "none", "p"}},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 3, 4), w("w", 10, 8), i64("o", 3)), err: "if input is 2D, then offsets has to be None"},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 12), w("w", 10, 8)), err: "offsets has to be a 1D Tensor but got None"},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 12), w("w", 10, 8), i64("o", 3)), kwargs: []framework.NamedArg{kw("max_norm", fv(1))}, err: "max_norm"},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 12), w("w", 10, 8), i64("o", 3)), kwargs: []framework.NamedArg{kw("per_sample_weights", w("p", 12))},
			err: "per_sample_weights is only supported for mode='sum'"},
		lcase{name: "Functional.embedding_bag", args: a(i64("i", 12), w("w", 10, 8), i64("o", 3)), kwargs: []framework.NamedArg{kw("mode", sv("prod"))},
			err: "mode has to be one of sum, mean or max"},
	)
	ctc := func(red string, il, tl []int64) ops.Attrs {
		return ops.Attrs{"reduction": sa(red), "input_lengths": ops.IntsAttr(il...), "target_lengths": ops.IntsAttr(tl...), "blank": ops.IntAttr(0), "zero_infinity": ops.BoolAttr(false)}
	}
	cs = append(cs,
		lcase{name: "Torch.ctc_loss", args: a(w("lp", 8, 2, 5), i64("t", 2, 3), ints(8, 8), ints(3, 3), iv(0), iv(1), bv(false)),
			op: "ctc_loss", attrs: ctc("mean", []int64{8, 8}, []int64{3, 3}), in: []string{"lp", "t", "none", "none"}},
		lcase{name: "Torch.ctc_loss", args: a(w("lp", 8, 2, 5), i64("t", 2, 3), i64("il", 2), i64("tl", 2)),
			op: "ctc_loss", attrs: ctc("mean", nil, nil), in: []string{"lp", "t", "il", "tl"}},
		lcase{name: "Functional.ctc_loss", args: a(w("lp", 8, 2, 5), i64("t", 6), i64("il", 2), i64("tl", 2)), kwargs: []framework.NamedArg{kw("reduction", sv("sum")), kw("zero_infinity", bv(true))},
			op: "ctc_loss", attrs: ops.Attrs{"reduction": sa("sum"), "zero_infinity": ops.BoolAttr(true)}},
		lcase{name: "Functional.ctc_loss", args: a(w("lp", 8, 5), i64("t", 3), iv(8), iv(3)), op: "ctc_loss", attrs: ctc("mean", []int64{8}, []int64{3})},
		lcase{name: "Functional.ctc_loss", args: a(w("lp", 8, 2, 5), i64("t", 6), i64("il", 2), i64("tl", 2)), kwargs: []framework.NamedArg{kw("reduction", sv("avg"))},
			err: "avg is not a valid value for reduction"},
		lcase{name: "Torch.ctc_loss", args: a(w("lp", 8, 2, 5), i64("t", 2, 3), sv("x"), ints(3, 3)), err: `argument "input_lengths"`},
	)
	return cs
}

func TestLoss2IntegerInputs(t *testing.T) {
	runCases(t, []lcase{
		{name: "Torch.hinge_embedding_loss", args: []framework.Arg{i64("x", 3), i64("t", 3)}, err: "integer tensors only"},
		{name: "Torch.margin_ranking_loss", args: []framework.Arg{i64("a", 3), i64("b", 3), f32("t", 3)}, op: "margin_ranking_loss"},
	}, nil)
}
