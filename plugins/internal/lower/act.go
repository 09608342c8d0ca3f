package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The act family (sdk/ops/schema_act.go): torch.nn.functional's elu,
// leaky_relu, hardsigmoid, hardswish, hardtanh, relu6 (hardtanh(0, 6)),
// mish, softplus, softshrink, softsign, tanhshrink, logsigmoid, glu and
// softmin, with their in-place spellings (the "_" names and inplace=True).

func init() {
	def(nnScalarAct("elu", "alpha"), "input, alpha=1.0, inplace=False", "Functional.elu")
	def(nnScalarAct("elu", "alpha"), "input, alpha=1.0", "Functional.elu_")
	def(nnScalarAct("leaky_relu", "negative_slope"), "input, negative_slope=0.01, inplace=False", "Functional.leaky_relu")
	def(nnScalarAct("leaky_relu", "negative_slope"), "input, negative_slope=0.01", "Functional.leaky_relu_")
	def(nnScalarAct("hardtanh", "min_val", "max_val"), "input, min_val=-1.0, max_val=1.0, inplace=False", "Functional.hardtanh")
	def(nnScalarAct("hardtanh", "min_val", "max_val"), "input, min_val=-1.0, max_val=1.0", "Functional.hardtanh_")
	def(actRelu6, "input, inplace=False", "Functional.relu6")
	def(nnScalarAct("hardsigmoid"), "input, inplace=False", "Functional.hardsigmoid")
	def(nnScalarAct("hardswish"), "input, inplace=False", "Functional.hardswish")
	def(nnScalarAct("mish"), "input, inplace=False", "Functional.mish")
	def(nnScalarAct("softplus", "beta", "threshold"), "input, beta=1, threshold=20", "Functional.softplus")
	def(nnScalarAct("softshrink", "lambd"), "input, lambd=0.5", "Functional.softshrink")
	def(nnScalarAct("softsign"), "input", "Functional.softsign")
	def(nnScalarAct("tanhshrink"), "input", "Functional.tanhshrink")
	def(nnScalarAct("log_sigmoid"), "input", "Functional.logsigmoid")
	def(actGlu, "input, dim=-1", "Functional.glu")
	def(softmax("softmin", true), "input, dim=None, _stacklevel=3, dtype=None", "Functional.softmin")
	usedOps = append(usedOps, "elu", "leaky_relu", "hardtanh", "hardsigmoid", "hardswish", "mish", "softplus", "softshrink",
		"softsign", "tanhshrink", "log_sigmoid", "glu", "softmin")

	cannot("is random by nature (Gumbel noise drawn inside the call): its values cannot be compared with a reference",
		"Functional.gumbel_softmax")
}

// actRelu6 lowers F.relu6: ATen's relu6 is hardtanh(x, 0, 6).
func actRelu6(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	attrs, err := b.nnInplace(ops.Attrs{"min_val": ops.FloatAttr(0), "max_val": ops.FloatAttr(6)})
	if err != nil {
		return nil, err
	}
	return newPlan("hardtanh", attrs, tensorBinding(x)), nil
}

// actGlu lowers F.glu; its Python wrapper refuses a 0-d input before ATen
// sees it.
func actGlu(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("input", "glu does not support scalars because halving size must be even")
	}
	dim, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	return newPlan("glu", ops.Attrs{"dim": ops.IntAttr(dim)}, tensorBinding(x)), nil
}
