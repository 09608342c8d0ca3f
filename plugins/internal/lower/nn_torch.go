package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The nn ops of msprobe's torch list, with their torch.nn.functional
// spellings: celu, selu, threshold, prelu, hardshrink, torch._add_relu and
// rrelu (evaluation only).

func init() {
	def(nnScalarAct("celu", "alpha"), "input, alpha=1.0", "Torch.celu", "Torch.celu_", "Functional.celu_")
	def(nnScalarAct("celu", "alpha"), "input, alpha=1.0, inplace=False", "Functional.celu")
	def(nnScalarAct("selu"), "input", "Torch.selu", "Torch.selu_", "Functional.selu_")
	def(nnScalarAct("selu"), "input, inplace=False", "Functional.selu")
	def(nnScalarAct("threshold", "threshold", "value"), "input, threshold, value, *, out=None", "Torch.threshold", "Torch.threshold_")
	def(nnScalarAct("threshold", "threshold", "value"), "input, threshold, value", "Functional.threshold_")
	def(nnScalarAct("threshold", "threshold", "value"), "input, threshold, value, inplace=False", "Functional.threshold")
	def(nnScalarAct("hardshrink", "lambd"), "input, lambd=0.5, *, out=None", "Torch.hardshrink", "Tensor.hardshrink")
	def(nnScalarAct("hardshrink", "lambd"), "input, lambd=0.5", "Functional.hardshrink")
	def(nnPrelu, "input, weight", "Torch.prelu", "Tensor.prelu", "Functional.prelu")
	def(nnAddRelu, "input, other, alpha=1, *, out=None", "Torch._add_relu", "Torch._add_relu_")
	const rreluSig = "input, lower=0.125, upper=0.3333333333333333, training=False"
	def(nnRrelu, rreluSig+", generator=None", "Torch.rrelu", "Torch.rrelu_")
	def(nnRrelu, rreluSig, "Functional.rrelu_")
	def(nnRrelu, rreluSig+", inplace=False", "Functional.rrelu")
	usedOps = append(usedOps, "celu", "selu", "threshold", "hardshrink", "prelu", "add_relu", "rrelu")

	def(nnIntParam("pixel_shuffle", "upscale_factor"), "input, upscale_factor", "Torch.pixel_shuffle", "Functional.pixel_shuffle")
	def(nnIntParam("pixel_unshuffle", "downscale_factor"), "input, downscale_factor", "Torch.pixel_unshuffle", "Functional.pixel_unshuffle")
	def(nnIntParam("channel_shuffle", "groups"), "input, groups", "Torch.channel_shuffle", "Functional.channel_shuffle")
	def(nnConstantPad, "input, pad, value=0", "Torch.constant_pad_nd")
	usedOps = append(usedOps, "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "constant_pad_nd")

	def(nnCosineSimilarity, "x1, x2, dim=1, eps=1e-08", "Torch.cosine_similarity", "Functional.cosine_similarity")
	def(nnPairwiseDistance, "x1, x2, p=2.0, eps=1e-06, keepdim=False", "Torch.pairwise_distance", "Functional.pairwise_distance")
	usedOps = append(usedOps, "cosine_similarity", "pairwise_distance")

	def(nnAdaptiveAvgPool1d, "input, output_size", "Torch.adaptive_avg_pool1d", "Functional.adaptive_avg_pool1d")
	const mp1Sig = "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False"
	def(maxPoolN("max_pool1d", 1, false), mp1Sig, "Torch.max_pool1d")
	defMulti(maxPoolN("max_pool1d", 1, true), mp1Sig, "Torch.max_pool1d_with_indices")
	def(maxPoolN("max_pool1d", 1, false), mp1Sig+", return_indices=False", "Functional.max_pool1d")
	defMulti(maxPoolN("max_pool1d", 1, true), mp1Sig+", return_indices=False", "Functional.max_pool1d_with_indices")
	usedOps = append(usedOps, "adaptive_avg_pool1d", "max_pool1d")
	// ATen's _adaptive_avg_pool2d is adaptive_avg_pool2d without the
	// Python wrapper (its output_size has no None entries).
	def(adaptiveAvgPool2d, "input, output_size", "Torch._adaptive_avg_pool2d")
	declareOps([]string{"adaptive_avg_pool2d"}, "Torch._adaptive_avg_pool2d")
	def(nnAvgPool1d, "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True",
		"Torch.avg_pool1d", "Functional.avg_pool1d")
	usedOps = append(usedOps, "avg_pool1d")
	defMulti(nnAdaptiveMaxPool1d(true), "input, output_size", "Torch.adaptive_max_pool1d")
	def(nnAdaptiveMaxPool1d(false), "input, output_size, return_indices=False", "Functional.adaptive_max_pool1d")
	defMulti(nnAdaptiveMaxPool1d(true), "input, output_size, return_indices=False", "Functional.adaptive_max_pool1d_with_indices")
	usedOps = append(usedOps, "adaptive_max_pool1d")
	def(nnGroupNorm, "input, num_groups, weight=None, bias=None, eps=1e-05", "Functional.group_norm")
	def(nnGroupNorm, "input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True", "Torch.group_norm")
	usedOps = append(usedOps, "group_norm")
	// instance_norm is group_norm with one group per channel (with the
	// input's statistics) or batch_norm in evaluation (with the running
	// ones); the update of the running statistics is not an output.
	def(nnInstanceNorm, "input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1, eps=1e-05",
		"Functional.instance_norm")
	def(nnInstanceNorm, "input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled", "Torch.instance_norm")
	declareOps([]string{"batch_norm", "group_norm"}, "Functional.instance_norm", "Torch.instance_norm")
}

func nnInstanceNorm(b *bound) (*framework.Plan, error) {
	n, err := b.normArgs("use_input_stats")
	if err != nil {
		return nil, err
	}
	x, opt, have, useInput, momentum, eps := n.x, n.opt, n.have, n.flag, n.momentum, n.eps
	if b.ns == Functional && useInput {
		spatial := 1
		for _, d := range x.Shape[min(2, len(x.Shape)):] {
			spatial *= d
		}
		if spatial == 1 {
			return nil, b.argErr("input", "Expected more than 1 spatial element when training, got input size torch.Size(%s)", ops.ShapeList(x.Shape))
		}
	}
	if len(x.Shape) < 2 {
		return nil, b.argErr("input", "expected an input of at least 2 dimensions (N, C, ...), got size %v", x.Shape)
	}
	if !useInput {
		if !have[0] || !have[1] {
			return nil, b.argErr("use_input_stats", "Expected running_mean and running_var to be defined when use_input_stats is false")
		}
		attrs := ops.Attrs{"training": ops.BoolAttr(false), "momentum": ops.FloatAttr(momentum), "eps": ops.FloatAttr(eps)}
		return newPlan("batch_norm", attrs, tensorBinding(x), opt[0], opt[1], opt[2], opt[3]), nil
	}
	attrs := ops.Attrs{"num_groups": ops.IntAttr(int64(x.Shape[1])), "eps": ops.FloatAttr(eps)}
	return newPlan("group_norm", attrs, tensorBinding(x), opt[2], opt[3]), nil
}

func nnGroupNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	g, err := b.integer("num_groups")
	if err != nil {
		return nil, err
	}
	w, wok, err := b.optTensor("weight")
	if err != nil {
		return nil, err
	}
	bias, bok, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	if b.ns == Torch {
		if _, err := b.boolean("cudnn_enabled"); err != nil {
			return nil, err
		}
	}
	attrs := ops.Attrs{"num_groups": ops.IntAttr(g), "eps": ops.FloatAttr(eps)}
	return newPlan("group_norm", attrs, tensorBinding(x), optBinding(w, wok), optBinding(bias, bok)), nil
}

// nnAdaptiveMaxPool1d lowers torch.adaptive_max_pool1d (values and
// indices), F.adaptive_max_pool1d (indices when return_indices) and its
// _with_indices form.
func nnAdaptiveMaxPool1d(withIndices bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		size, err := b.intList("output_size", 0, true)
		if err != nil {
			return nil, err
		}
		indices := withIndices
		if _, ok := b.vals["return_indices"]; ok && !withIndices {
			if indices, err = b.boolean("return_indices"); err != nil {
				return nil, err
			}
		}
		b.multi = indices
		attrs := ops.Attrs{"output_size": ops.IntsAttr(size...), "return_indices": ops.BoolAttr(indices)}
		return newPlan("adaptive_max_pool1d", attrs, tensorBinding(x)), nil
	}
}

// nnAvgPool1d lowers avg_pool1d (stride None or [] is kernel_size).
func nnAvgPool1d(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	kernel, err := b.intList("kernel_size", 1, true)
	if err != nil {
		return nil, err
	}
	stride := kernel
	if s := b.arg("stride"); s.Kind != framework.ArgNone {
		if v, ok := asInts(s); !ok || len(v) > 0 {
			if stride, err = b.intList("stride", 1, true); err != nil {
				return nil, err
			}
		}
	}
	padding, err := b.intList("padding", 1, true)
	if err != nil {
		return nil, err
	}
	ceil, err := b.boolean("ceil_mode")
	if err != nil {
		return nil, err
	}
	countPad, err := b.boolean("count_include_pad")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"kernel_size": ops.IntsAttr(kernel...), "stride": ops.IntsAttr(stride...), "padding": ops.IntsAttr(padding...),
		"ceil_mode": ops.BoolAttr(ceil), "count_include_pad": ops.BoolAttr(countPad)}
	return newPlan("avg_pool1d", attrs, tensorBinding(x)), nil
}

// maxPoolN lowers the n-d max pools whose stride None or [] means
// kernel_size: torch.max_poolNd, F.max_poolNd (indices when
// return_indices) and their _with_indices forms; op is max_pool1d or
// max_pool3d, whose kernels make PyTorch's checks.
func maxPoolN(op string, n int, withIndices bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		kernel, err := b.intList("kernel_size", n, true)
		if err != nil {
			return nil, err
		}
		stride := kernel
		if s := b.arg("stride"); s.Kind != framework.ArgNone {
			if v, ok := asInts(s); !ok || len(v) > 0 {
				if stride, err = b.intList("stride", n, true); err != nil {
					return nil, err
				}
			}
		}
		padding, err := b.intList("padding", n, true)
		if err != nil {
			return nil, err
		}
		dilation, err := b.intList("dilation", n, true)
		if err != nil {
			return nil, err
		}
		return b.maxPoolPlan(op, x, kernel, stride, padding, dilation, withIndices)
	}
}

func nnAdaptiveAvgPool1d(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	size, err := b.intList("output_size", 0, true)
	if err != nil {
		return nil, err
	}
	return newPlan("adaptive_avg_pool1d", ops.Attrs{"output_size": ops.IntsAttr(size...)}, tensorBinding(x)), nil
}

func nnCosineSimilarity(b *bound) (*framework.Plan, error) {
	x1, err := b.tensor("x1")
	if err != nil {
		return nil, err
	}
	x2, err := b.tensor("x2")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	return newPlan("cosine_similarity", ops.Attrs{"dim": ops.IntAttr(dim), "eps": ops.FloatAttr(eps)}, tensorBinding(x1), tensorBinding(x2)), nil
}

func nnPairwiseDistance(b *bound) (*framework.Plan, error) {
	x1, err := b.tensor("x1")
	if err != nil {
		return nil, err
	}
	x2, err := b.tensor("x2")
	if err != nil {
		return nil, err
	}
	p, err := b.float("p")
	if err != nil {
		return nil, err
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"p": ops.FloatAttr(p), "eps": ops.FloatAttr(eps), "keepdim": ops.BoolAttr(keep)}
	return newPlan("pairwise_distance", attrs, tensorBinding(x1), tensorBinding(x2)), nil
}

// nnIntParam lowers an op of one tensor and one int parameter, an
// attribute of the same name.
func nnIntParam(op, param string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		v, err := b.integer(param)
		if err != nil {
			return nil, err
		}
		return newPlan(op, ops.Attrs{param: ops.IntAttr(v)}, tensorBinding(x)), nil
	}
}

func nnConstantPad(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	pad, err := b.intList("pad", 0, false)
	if err != nil {
		return nil, err
	}
	v, err := b.float("value")
	if err != nil {
		return nil, err
	}
	return newPlan("constant_pad_nd", ops.Attrs{"pad": ops.IntsAttr(pad...), "value": ops.FloatAttr(v)}, tensorBinding(x)), nil
}

// nnInplace sets the inplace attribute from the API name, or from the
// inplace= argument of a torch.nn.functional spelling that has one.
func (b *bound) nnInplace(attrs ops.Attrs) (ops.Attrs, error) {
	attrs = b.inplaceAttr(attrs)
	if _, ok := b.vals["inplace"]; ok {
		in, err := b.boolean("inplace")
		if err != nil {
			return nil, err
		}
		attrs["inplace"] = ops.BoolAttr(in)
	}
	return attrs, nil
}

// nnScalarAct lowers an activation of one tensor and number parameters,
// each a float attribute of the op of the same name.
func nnScalarAct(op string, params ...string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{}
		for _, p := range params {
			v, err := b.float(p)
			if err != nil {
				return nil, err
			}
			attrs[p] = ops.FloatAttr(v)
		}
		if s, _ := ops.Lookup(op); s.HasAttr("inplace") {
			if attrs, err = b.nnInplace(attrs); err != nil {
				return nil, err
			}
		}
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}

func nnPrelu(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	return newPlan("prelu", nil, tensorBinding(x), tensorBinding(w)), nil
}

// nnAddRelu lowers torch._add_relu(input, other, *, alpha=1) and its
// Scalar overload (other a number, alpha then positional too).
func nnAddRelu(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	y, yi, err := b.operand("other")
	if err != nil {
		return nil, err
	}
	if b.positional["alpha"] && yi.isTensor {
		return nil, b.errf("takes 2 positional arguments but 3 were given (alpha is keyword-only when other is a tensor)")
	}
	alpha, err := b.float("alpha")
	if err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"alpha": ops.FloatAttr(alpha)})
	return newPlan("add_relu", attrs, tensorBinding(x), y), nil
}

// nnRrelu lowers rrelu in evaluation; in training its negative slopes are
// drawn at random.
func nnRrelu(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	lo, err := b.float("lower")
	if err != nil {
		return nil, err
	}
	hi, err := b.float("upper")
	if err != nil {
		return nil, err
	}
	training, err := b.boolean("training")
	if err != nil {
		return nil, err
	}
	if training {
		return nil, b.argErr("training", "rrelu with training=True draws each negative slope at random from U(lower, upper): its values cannot be compared with a reference (only training=False is checked)")
	}
	attrs, err := b.nnInplace(ops.Attrs{"lower": ops.FloatAttr(lo), "upper": ops.FloatAttr(hi)})
	if err != nil {
		return nil, err
	}
	return newPlan("rrelu", attrs, tensorBinding(x)), nil
}
