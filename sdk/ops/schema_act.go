package ops

// The act family: torch.nn.functional's activations beyond relu, gelu,
// silu, celu and selu (elu, leaky_relu, the hard* family, mish, softplus,
// softshrink, softsign, tanhshrink, logsigmoid, glu and softmin), with
// PyTorch 1.13's CPU semantics. Where PyTorch 1.13's CPU lacks a kernel at
// a narrow dtype (float16 for all but softsign, bfloat16 for mish,
// hardtanh's bfloat16 backward) the op is emulated in float32 and rounded,
// as PyTorch's own half kernels compute.

func init() {
	addSchemas(
		Schema{Name: "elu", Doc: "x where x > 0, else alpha·(exp(x) − 1) (ATen's elu(x, alpha, 1, 1)); floating inputs only; " +
			"in place the backward reads the result and refuses a negative alpha",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{inplace, attr("alpha", AttrFloat, FloatAttr(1), "")}, Outputs: 1},
		Schema{Name: "leaky_relu", Doc: "x where x > 0, else negative_slope·x; floating inputs only; " +
			"in place the backward reads the result and refuses a negative slope",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{inplace, attr("negative_slope", AttrFloat, FloatAttr(0.01), "")}, Outputs: 1},
		Schema{Name: "hardtanh", Doc: "x clamped to [min_val, max_val] (max_val where min_val > max_val); floating or integer " +
			"(integer inputs truncate the limits; uint8 refuses negative ones); bool refused; gradient 0 outside (min_val, max_val)",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{inplace, attr("min_val", AttrFloat, FloatAttr(-1), ""), attr("max_val", AttrFloat, FloatAttr(1), "")}, Outputs: 1},
		unary("hardsigmoid", "min(max(x + 3, 0), 6)/6; floating inputs only; gradient float32(1/6) on (−3, 3)"),
		unary("hardswish", "x·min(max(x + 3, 0), 6)/6; floating inputs only"),
		unary("mish", "x·tanh(softplus(x)); floating inputs only"),
		Schema{Name: "softplus", Doc: "log(1 + exp(beta·x))/beta, x where beta·x > threshold; floating inputs only",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("beta", AttrFloat, FloatAttr(1), ""), attr("threshold", AttrFloat, FloatAttr(20), "")}, Outputs: 1},
		Schema{Name: "softshrink", Doc: "x − lambd where x > lambd, x + lambd where x < −lambd, else 0; lambd ≥ 0; floating inputs only",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("lambd", AttrFloat, FloatAttr(0.5), "")}, Outputs: 1},
		Schema{Name: "softsign", Doc: "F.softsign: x / (|x| + 1) as three tensor ops (integers promote to float32 at the division; bool refused)",
			Inputs: []InputSpec{in("self")}, Outputs: 1},
		Schema{Name: "tanhshrink", Doc: "F.tanhshrink: x − tanh(x) as two tensor ops (integers promote to float32; bool refused)",
			Inputs: []InputSpec{in("self")}, Outputs: 1},
		Schema{Name: "log_sigmoid", Doc: "log(1/(1 + exp(−x))) as min(x, 0) − log1p(exp(−|x|)); floating inputs only",
			Inputs: []InputSpec{in("self")}, Outputs: 1},
		Schema{Name: "glu", Doc: "a·sigmoid(b) where a and b are the halves of self along dim (of even size); floating inputs only",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "softmin", Doc: "F.softmin: softmax(−x) along dim, input cast to dtype first when given; bool refused (negation)",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), dtypeOpt}, Outputs: 1},
	)
}
