package lower

import (
	"math"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

func TestLoss(t *testing.T) { runCases(t, lossCases(), nil) }

func lossCases() []lcase {
	x, y := f32("args.0", 4, 8), f32("args.1", 4, 8)
	A := func(a ...framework.Arg) []framework.Arg { return a }
	K := func(a ...framework.NamedArg) []framework.NamedArg { return a }
	red := func(r string) ops.Attrs { return ops.Attrs{"reduction": sa(r)} }
	in2 := []string{"args.0", "args.1"}
	q, k, v := f32("q", 2, 3, 4, 8), f32("k", 2, 3, 6, 8), f32("v", 2, 3, 6, 8)
	var cs []lcase
	for _, op := range []string{"mse_loss", "l1_loss", "smooth_l1_loss"} {
		n := "Functional." + op
		cs = append(cs,
			lcase{name: n, args: A(x, y), op: op, attrs: red("mean"), in: in2},
			lcase{name: n, args: A(x, y), kwargs: K(kw("reduction", sv("sum"))), op: op, attrs: red("sum")},
			lcase{name: n, args: A(x, y, nv(), bv(false)), op: op, attrs: red("none")},
			lcase{name: n, args: A(x, y, bv(false)), op: op, attrs: red("sum")},
			lcase{name: n, args: A(x, f32("args.1", 8)), op: op, attrs: red("mean")},
			lcase{name: n, args: A(x, f32("args.1", 3)), err: "The size of tensor a (8) must match the size of tensor b (3)"},
			lcase{name: n, args: A(x, y), kwargs: K(kw("reduction", sv("avg"))), err: "avg is not a valid value for reduction"},
			lcase{name: n, args: A(i64("args.0", 3), i64("args.1", 3)), err: "of integer tensors only is not supported"},
			lcase{name: n, args: A(x, fv(1)), err: `argument "target": expected tensor`},
		)
	}
	return append(cs,
		lcase{name: "Functional.smooth_l1_loss", args: A(x, y), kwargs: K(kw("beta", fv(0.5))), op: "smooth_l1_loss",
			attrs: ops.Attrs{"beta": fa(0.5), "reduction": sa("mean")}},
		lcase{name: "Functional.smooth_l1_loss", args: A(x, y, nv(), nv(), sv("none"), iv(2)), op: "smooth_l1_loss",
			attrs: ops.Attrs{"beta": fa(2), "reduction": sa("none")}},
		lcase{name: "Functional.huber_loss", args: A(x, y), op: "huber_loss", attrs: ops.Attrs{"delta": fa(1), "reduction": sa("mean")}, in: in2},
		lcase{name: "Functional.huber_loss", args: A(x, y, sv("sum"), fv(0.3)), op: "huber_loss", attrs: ops.Attrs{"delta": fa(0.3), "reduction": sa("sum")}},
		lcase{name: "Functional.huber_loss", args: A(x, y), kwargs: K(kw("reduce", bv(false))), err: `unexpected keyword argument "reduce"`},
		lcase{name: "Functional.binary_cross_entropy", args: A(x, y), op: "binary_cross_entropy", attrs: red("mean"), in: []string{"args.0", "args.1", "none"}},
		lcase{name: "Functional.binary_cross_entropy", args: A(x, y, f32("w", 8)), kwargs: K(kw("reduction", sv("none"))), op: "binary_cross_entropy",
			attrs: red("none"), in: []string{"args.0", "args.1", "w"}},
		lcase{name: "Functional.binary_cross_entropy", args: A(x, y, nv(), nv(), bv(false)), op: "binary_cross_entropy", attrs: red("none")},
		lcase{name: "Functional.binary_cross_entropy", args: A(x, f32("t", 8)),
			err: "Using a target size (torch.Size([8])) that is different to the input size (torch.Size([4, 8])) is deprecated"},
		lcase{name: "Functional.binary_cross_entropy", args: A(x, y, f32("w", 4)), err: "The size of tensor a (8) must match the size of tensor b (4)"},
		lcase{name: "Functional.binary_cross_entropy", args: A(x, y, f32("w", 2, 4, 8)), err: "expands beyond the target's"},
		lcase{name: "Functional.normalize", args: A(x), op: "normalize", attrs: ops.Attrs{"p": fa(2), "dim": la(1), "eps": fa(1e-12)}, in: []string{"args.0"}},
		lcase{name: "Functional.normalize", args: A(x, fv(1), iv(0), fv(1e-6)), op: "normalize", attrs: ops.Attrs{"p": fa(1), "dim": la(0), "eps": fa(1e-6)}},
		lcase{name: "Functional.normalize", args: A(x), kwargs: K(kw("dim", ints(0, 1)), kw("p", fv(math.Inf(1)))), op: "normalize",
			attrs: ops.Attrs{"p": fa(math.Inf(1)), "dim": la(0, 1)}},
		lcase{name: "Functional.normalize", args: A(x), kwargs: K(kw("dim", iv(2))), err: "dimension out of range"},
		lcase{name: "Functional.normalize", args: A(x), kwargs: K(kw("out", f32("o", 4, 8))), err: "out="},
		lcase{name: "Functional.one_hot", args: A(i64("args.0", 5)), op: "one_hot", attrs: ops.Attrs{"num_classes": ia(-1)}, in: []string{"args.0"}},
		lcase{name: "Functional.one_hot", args: A(i64("args.0", 5), iv(7)), op: "one_hot", attrs: ops.Attrs{"num_classes": ia(7)}},
		lcase{name: "Functional.one_hot", args: A(i64("args.0", 5)), kwargs: K(kw("num_classes", fv(3))), err: `argument "num_classes": expected int`},
		lcase{name: "Functional.local_response_norm", args: A(f32("args.0", 2, 3, 4), iv(2)), op: "local_response_norm",
			attrs: ops.Attrs{"size": ia(2), "alpha": fa(1e-4), "beta": fa(0.75), "k": fa(1)}, in: []string{"args.0"}},
		lcase{name: "Functional.local_response_norm", args: A(f32("args.0", 2, 3, 4, 5), iv(3), fv(0.1), fv(0.5), iv(2)), op: "local_response_norm",
			attrs: ops.Attrs{"size": ia(3), "alpha": fa(0.1), "beta": fa(0.5), "k": fa(2)}},
		lcase{name: "Functional.local_response_norm", args: A(x, iv(2)), err: "Expected 3D or higher dimensionality input (got 2 dimensions)"},
		lcase{name: "Functional.local_response_norm", args: A(f32("args.0", 2, 3, 4)), err: `missing required argument "size"`},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, k, v), op: "scaled_dot_product_attention",
			attrs: ops.Attrs{"dropout_p": fa(0), "is_causal": ba(false), "scale": ops.NoneAttr(), "enable_gqa": ba(false)}, in: []string{"q", "k", "v", "none"}},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, k, v, f32("m", 4, 6)), kwargs: K(kw("scale", fv(0.5))),
			op: "scaled_dot_product_attention", attrs: ops.Attrs{"scale": fa(0.5)}, in: []string{"q", "k", "v", "m"}},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, k, v), kwargs: K(kw("is_causal", bv(true)), kw("enable_gqa", bv(true))),
			op: "scaled_dot_product_attention", attrs: ops.Attrs{"is_causal": ba(true), "enable_gqa": ba(true)}},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, k, v, nv(), fv(0.1)), err: "dropout_p 0.1 drops attention weights at random"},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, k, v, f32("m", 4, 6)), kwargs: K(kw("is_causal", bv(true))),
			err: "Explicit attn_mask should not be set when is_causal=True"},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, f32("k", 2, 3, 6, 5), v), err: "the last dimension of query (8) and key (5) differ"},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(q, k, f32("v", 2, 3, 5, 8)), err: "key has 6 positions and value 5"},
		lcase{name: "Functional.scaled_dot_product_attention", args: A(f32("q", 8), k, v), err: "at least 2 dimensions"},
	)
}
