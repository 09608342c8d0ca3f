package lower

import (
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

func TestAct(t *testing.T) {
	runCases(t, actCases(), nil)
	if r, ok := Reason(Functional, "gumbel_softmax"); !ok || !strings.Contains(r, "is random by nature") {
		t.Errorf("gumbel_softmax's reason: %q, %v", r, ok)
	}
}

func actCases() []lcase {
	x := f32("args.0", 2, 3, 4)
	A := func(a ...framework.Arg) []framework.Arg { return a }
	K := func(a ...framework.NamedArg) []framework.NamedArg { return a }
	in := []string{"args.0"}
	cs := []lcase{
		{name: "Functional.elu", args: A(x), op: "elu", attrs: ops.Attrs{"alpha": fa(1), "inplace": ba(false)}, in: in},
		{name: "Functional.elu", args: A(x, fv(0.5), bv(true)), op: "elu", attrs: ops.Attrs{"alpha": fa(0.5), "inplace": ba(true)}},
		{name: "Functional.elu", args: A(x), kwargs: K(kw("alpha", iv(2)), kw("inplace", bv(true))), op: "elu", attrs: ops.Attrs{"alpha": fa(2), "inplace": ba(true)}},
		{name: "Functional.elu_", args: A(x, fv(1.5)), op: "elu", attrs: ops.Attrs{"alpha": fa(1.5), "inplace": ba(true)}},
		{name: "Functional.elu_", args: A(x), kwargs: K(kw("inplace", bv(true))), err: `unexpected keyword argument "inplace"`},
		{name: "Functional.elu", args: A(x, sv("a")), err: `argument "alpha": expected`},
		{name: "Functional.elu", args: A(x), kwargs: K(kw("inplace", iv(1))), err: `argument "inplace": expected bool`},
		{name: "Functional.leaky_relu", args: A(x), op: "leaky_relu", attrs: ops.Attrs{"negative_slope": fa(0.01), "inplace": ba(false)}, in: in},
		{name: "Functional.leaky_relu", args: A(x, fv(0.2), bv(true)), op: "leaky_relu", attrs: ops.Attrs{"negative_slope": fa(0.2), "inplace": ba(true)}},
		{name: "Functional.leaky_relu_", args: A(x), op: "leaky_relu", attrs: ops.Attrs{"negative_slope": fa(0.01), "inplace": ba(true)}},
		{name: "Functional.leaky_relu", args: A(fv(1)), err: `argument "input": expected tensor`},
		{name: "Functional.hardtanh", args: A(x), op: "hardtanh", attrs: ops.Attrs{"min_val": fa(-1), "max_val": fa(1), "inplace": ba(false)}, in: in},
		{name: "Functional.hardtanh", args: A(x, fv(-0.5), iv(2), bv(true)), op: "hardtanh", attrs: ops.Attrs{"min_val": fa(-0.5), "max_val": fa(2), "inplace": ba(true)}},
		{name: "Functional.hardtanh_", args: A(x), kwargs: K(kw("max_val", fv(3))), op: "hardtanh", attrs: ops.Attrs{"min_val": fa(-1), "max_val": fa(3), "inplace": ba(true)}},
		{name: "Functional.relu6", args: A(x), op: "hardtanh", attrs: ops.Attrs{"min_val": fa(0), "max_val": fa(6), "inplace": ba(false)}, in: in},
		{name: "Functional.relu6", args: A(x, bv(true)), op: "hardtanh", attrs: ops.Attrs{"min_val": fa(0), "max_val": fa(6), "inplace": ba(true)}},
		{name: "Functional.relu6", args: A(x, fv(1)), err: `argument "inplace": expected bool`},
		{name: "Functional.hardsigmoid", args: A(x), op: "hardsigmoid", attrs: ops.Attrs{"inplace": ba(false)}, in: in},
		{name: "Functional.hardsigmoid", args: A(x, bv(true)), op: "hardsigmoid", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.hardswish", args: A(x), kwargs: K(kw("inplace", bv(true))), op: "hardswish", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.mish", args: A(x), op: "mish", attrs: ops.Attrs{"inplace": ba(false)}, in: in},
		{name: "Functional.mish", args: A(x, bv(true)), op: "mish", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.softplus", args: A(x), op: "softplus", attrs: ops.Attrs{"beta": fa(1), "threshold": fa(20)}, in: in},
		{name: "Functional.softplus", args: A(x, fv(2), iv(5)), op: "softplus", attrs: ops.Attrs{"beta": fa(2), "threshold": fa(5)}},
		{name: "Functional.softplus", args: A(x), kwargs: K(kw("inplace", bv(true))), err: `unexpected keyword argument "inplace"`},
		{name: "Functional.softshrink", args: A(x), op: "softshrink", attrs: ops.Attrs{"lambd": fa(0.5)}, in: in},
		{name: "Functional.softshrink", args: A(x, fv(1.5)), op: "softshrink", attrs: ops.Attrs{"lambd": fa(1.5)}},
		{name: "Functional.softsign", args: A(x), op: "softsign", in: in},
		{name: "Functional.softsign", args: A(x, fv(1)), err: "positional argument"},
		{name: "Functional.tanhshrink", args: A(i64("args.0", 3)), op: "tanhshrink", in: in},
		{name: "Functional.logsigmoid", args: A(x), op: "log_sigmoid", in: in},
		{name: "Functional.glu", args: A(x), op: "glu", attrs: ops.Attrs{"dim": ia(-1)}, in: in},
		{name: "Functional.glu", args: A(x, iv(1)), op: "glu", attrs: ops.Attrs{"dim": ia(1)}},
		{name: "Functional.glu", args: A(x), kwargs: K(kw("dim", iv(-3))), op: "glu", attrs: ops.Attrs{"dim": ia(-3)}},
		{name: "Functional.glu", args: A(x, iv(3)), err: "dimension out of range"},
		{name: "Functional.glu", args: A(f32("args.0")), err: "glu does not support scalars because halving size must be even"},
		{name: "Functional.softmin", args: A(x, iv(1)), op: "softmin", attrs: ops.Attrs{"dim": ia(1), "dtype": ops.NoneAttr()}, in: in},
		{name: "Functional.softmin", args: A(x), op: "softmin", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Functional.softmin", args: A(f32("args.0", 2, 3)), op: "softmin", attrs: ops.Attrs{"dim": ia(1)}},
		{name: "Functional.softmin", args: A(x, iv(-1)), kwargs: K(kw("dtype", dtv("torch.float64"))), op: "softmin",
			attrs: ops.Attrs{"dim": ia(-1), "dtype": sa("float64")}},
		{name: "Functional.softmin", args: A(x, iv(3)), err: "dimension out of range"},
	}
	return cs
}
