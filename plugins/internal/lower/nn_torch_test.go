package lower

import (
	"math"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// nnTorchArgs is a shorthand for positional arguments.
func nnTorchArgs(a ...framework.Arg) []framework.Arg { return a }

// nnTorchKws is a shorthand for keyword arguments.
func nnTorchKws(a ...framework.NamedArg) []framework.NamedArg { return a }

func TestNNTorchActivations(t *testing.T) { runCases(t, nnTorchActivationCases(), nil) }

// nnTorchCases are every case of this file (TestOpsListed runs them too).
func nnTorchCases() []lcase {
	return append(append(append(nnTorchActivationCases(), nnTorchShapeCases()...), nnTorchDistanceCases()...), nnTorchPoolCases()...)
}

func TestNNTorchPool(t *testing.T) { runCases(t, nnTorchPoolCases(), nil) }

func nnTorchPoolCases() []lcase {
	x := f32("args.0", 2, 3, 7)
	A, K := nnTorchArgs, nnTorchKws
	var cases []lcase
	for _, n := range []string{"Torch.adaptive_avg_pool1d", "Functional.adaptive_avg_pool1d"} {
		cases = append(cases,
			lcase{name: n, args: A(x, iv(3)), op: "adaptive_avg_pool1d", attrs: ops.Attrs{"output_size": la(3)}, in: []string{"args.0"}},
			lcase{name: n, args: A(x), kwargs: K(kw("output_size", ints(4))), op: "adaptive_avg_pool1d", attrs: ops.Attrs{"output_size": la(4)}},
			lcase{name: n, args: A(x, ints(3, 2)), op: "adaptive_avg_pool1d", attrs: ops.Attrs{"output_size": la(3, 2)}},
			lcase{name: n, args: A(x, nv()), err: `argument "output_size": expected int or list of ints, got None`},
			lcase{name: n, args: A(x), err: `missing required argument "output_size"`},
		)
	}
	for _, n := range []string{"Torch.max_pool1d", "Functional.max_pool1d", "Torch.max_pool1d_with_indices", "Functional.max_pool1d_with_indices"} {
		multi := n != "Torch.max_pool1d" && n != "Functional.max_pool1d"
		cases = append(cases,
			lcase{name: n, args: A(x, iv(3)), op: "max_pool1d", multi: multi, in: []string{"args.0"},
				attrs: ops.Attrs{"kernel_size": la(3), "stride": la(3), "padding": la(0), "dilation": la(1), "ceil_mode": ba(false), "return_indices": ba(multi)}},
			lcase{name: n, args: A(x, ints(3), ints(2), iv(1), ints(2), bv(true)), op: "max_pool1d", multi: multi,
				attrs: ops.Attrs{"kernel_size": la(3), "stride": la(2), "padding": la(1), "dilation": la(2), "ceil_mode": ba(true)}},
			lcase{name: n, args: A(x, iv(3), ints()), op: "max_pool1d", multi: multi, attrs: ops.Attrs{"stride": la(3)}},
			lcase{name: n, args: A(x, ints(3, 2)), err: `argument "kernel_size": expected a single int or a list of 1 ints, got 2 values`},
			lcase{name: n, args: A(x, fv(3)), err: `argument "kernel_size": expected int or list of ints, got float`},
			lcase{name: n, args: A(x, iv(3)), kwargs: K(kw("ceil_mode", iv(1))), err: `argument "ceil_mode": expected bool, got int`},
		)
	}
	return append(cases,
		lcase{name: "Functional.max_pool1d", args: A(x, iv(3)), kwargs: K(kw("return_indices", bv(true))), op: "max_pool1d", multi: true,
			attrs: ops.Attrs{"return_indices": ba(true)}},
		lcase{name: "Torch.max_pool1d", args: A(x, iv(3)), kwargs: K(kw("return_indices", bv(true))), err: `unexpected keyword argument "return_indices"`},
		lcase{name: "Torch._adaptive_avg_pool2d", args: A(f32("args.0", 1, 2, 5, 5), ints(2, 3)), op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": la(2, 3)}},
		lcase{name: "Torch._adaptive_avg_pool2d", args: A(f32("args.0", 2, 5, 5), iv(2)), op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": la(2, 2)}},
		lcase{name: "Torch._adaptive_avg_pool2d", args: A(f32("args.0", 5, 5), iv(2)), err: "Expected 3D or 4D tensor"},
		lcase{name: "Torch.avg_pool1d", args: A(x, iv(3)), op: "avg_pool1d", in: []string{"args.0"},
			attrs: ops.Attrs{"kernel_size": la(3), "stride": la(3), "padding": la(0), "ceil_mode": ba(false), "count_include_pad": ba(true)}},
		lcase{name: "Functional.avg_pool1d", args: A(x, ints(3), iv(2), ints(1), bv(true), bv(false)), op: "avg_pool1d",
			attrs: ops.Attrs{"kernel_size": la(3), "stride": la(2), "padding": la(1), "ceil_mode": ba(true), "count_include_pad": ba(false)}},
		lcase{name: "Functional.avg_pool1d", args: A(x, iv(3)), kwargs: K(kw("stride", ints())), op: "avg_pool1d", attrs: ops.Attrs{"stride": la(3)}},
		lcase{name: "Torch.avg_pool1d", args: A(x, ints(3, 3)), err: `argument "kernel_size": expected a single int or a list of 1 ints, got 2 values`},
		lcase{name: "Torch.avg_pool1d", args: A(x, iv(3)), kwargs: K(kw("count_include_pad", nv())), err: `argument "count_include_pad": expected bool, got None`},
		lcase{name: "Torch.avg_pool1d", args: A(x, iv(3)), kwargs: K(kw("divisor_override", iv(2))), err: `unexpected keyword argument "divisor_override"`},
		lcase{name: "Torch.adaptive_max_pool1d", args: A(x, iv(3)), op: "adaptive_max_pool1d", multi: true,
			attrs: ops.Attrs{"output_size": la(3), "return_indices": ba(true)}, in: []string{"args.0"}},
		lcase{name: "Torch.adaptive_max_pool1d", args: A(x, ints(3)), kwargs: K(kw("return_indices", bv(true))), err: `unexpected keyword argument "return_indices"`},
		lcase{name: "Functional.adaptive_max_pool1d", args: A(x, iv(3)), op: "adaptive_max_pool1d", attrs: ops.Attrs{"return_indices": ba(false)}},
		lcase{name: "Functional.adaptive_max_pool1d", args: A(x, iv(3), bv(true)), op: "adaptive_max_pool1d", multi: true, attrs: ops.Attrs{"return_indices": ba(true)}},
		lcase{name: "Functional.adaptive_max_pool1d_with_indices", args: A(x, ints(2)), op: "adaptive_max_pool1d", multi: true,
			attrs: ops.Attrs{"output_size": la(2), "return_indices": ba(true)}},
		lcase{name: "Functional.adaptive_max_pool1d", args: A(x, nv()), err: `argument "output_size": expected int or list of ints, got None`},
		lcase{name: "Functional.group_norm", args: A(x, iv(3)), op: "group_norm", attrs: ops.Attrs{"num_groups": ia(3), "eps": fa(1e-5)}, in: []string{"args.0", "none", "none"}},
		lcase{name: "Functional.group_norm", args: A(x, iv(1), f32("args.2", 3), f32("args.3", 3), fv(1e-3)), op: "group_norm",
			attrs: ops.Attrs{"num_groups": ia(1), "eps": fa(1e-3)}, in: []string{"args.0", "args.2", "args.3"}},
		lcase{name: "Torch.group_norm", args: A(x, iv(3), nv(), f32("args.3", 3), fv(1e-5), bv(false)), op: "group_norm", in: []string{"args.0", "none", "args.3"}},
		lcase{name: "Torch.group_norm", args: A(x, iv(3)), kwargs: K(kw("cudnn_enabled", nv())), err: `argument "cudnn_enabled": expected bool, got None`},
		lcase{name: "Functional.group_norm", args: A(x, fv(3)), err: `argument "num_groups": expected int, got float`},
		lcase{name: "Functional.group_norm", args: A(x, iv(3), fv(1)), err: `argument "weight": expected tensor, got float`},
		lcase{name: "Functional.group_norm", args: A(x, iv(3)), kwargs: K(kw("cudnn_enabled", bv(true))), err: `unexpected keyword argument "cudnn_enabled"`},
		// instance_norm: group_norm per channel, or batch_norm with the running statistics.
		lcase{name: "Functional.instance_norm", args: A(x), op: "group_norm", attrs: ops.Attrs{"num_groups": ia(3), "eps": fa(1e-5)}, in: []string{"args.0", "none", "none"}},
		lcase{name: "Functional.instance_norm", args: A(x, f32("args.1", 3), f32("args.2", 3), f32("args.3", 3), f32("args.4", 3)), kwargs: K(kw("eps", fv(1e-3))),
			op: "group_norm", attrs: ops.Attrs{"num_groups": ia(3), "eps": fa(1e-3)}, in: []string{"args.0", "args.3", "args.4"}},
		lcase{name: "Functional.instance_norm", args: A(x, f32("args.1", 3), f32("args.2", 3)), kwargs: K(kw("use_input_stats", bv(false))),
			op: "batch_norm", attrs: ops.Attrs{"training": ba(false)}, in: []string{"args.0", "args.1", "args.2", "none", "none"}},
		lcase{name: "Functional.instance_norm", args: A(x), kwargs: K(kw("use_input_stats", bv(false))), err: `argument "use_input_stats": Expected running_mean and running_var to be defined`},
		lcase{name: "Functional.instance_norm", args: A(f32("args.0", 2, 3, 1)), err: `argument "input": Expected more than 1 spatial element when training, got input size torch.Size([2, 3, 1])`},
		lcase{name: "Torch.instance_norm", args: A(f32("args.0", 2, 3, 1), nv(), nv(), nv(), nv(), bv(true), fv(0.1), fv(1e-5), bv(false)),
			op: "group_norm", attrs: ops.Attrs{"num_groups": ia(3)}},
		lcase{name: "Torch.instance_norm", args: A(x, f32("args.1", 3), nv(), f32("args.3", 3), f32("args.4", 3), bv(false), fv(0.1), fv(1e-5), bv(true)),
			op: "batch_norm", in: []string{"args.0", "args.3", "args.4", "args.1", "none"}},
		lcase{name: "Torch.instance_norm", args: A(x, nv(), nv(), nv(), nv(), bv(true)), err: `missing required argument "momentum"`},
		lcase{name: "Functional.instance_norm", args: A(f32("args.0", 4)), err: `argument "input": Expected more than 1 spatial element`},
	)
}

func TestNNTorchDistance(t *testing.T) { runCases(t, nnTorchDistanceCases(), nil) }

func nnTorchDistanceCases() []lcase {
	x1, x2 := f32("args.0", 2, 3), f32("args.1", 3)
	A, K := nnTorchArgs, nnTorchKws
	var cases []lcase
	for _, ns := range []string{"Torch.", "Functional."} {
		cases = append(cases,
			lcase{name: ns + "cosine_similarity", args: A(x1, x2), op: "cosine_similarity", attrs: ops.Attrs{"dim": ia(1), "eps": fa(1e-8)}, in: []string{"args.0", "args.1"}},
			lcase{name: ns + "cosine_similarity", args: A(x1, x2, iv(-1)), kwargs: K(kw("eps", fv(0.5))), op: "cosine_similarity", attrs: ops.Attrs{"dim": ia(-1), "eps": fa(0.5)}},
			lcase{name: ns + "cosine_similarity", args: A(x1, fv(1)), err: `argument "x2": expected tensor, got float`},
			lcase{name: ns + "cosine_similarity", args: A(x1, x2), kwargs: K(kw("dim", nv())), err: `argument "dim": expected int, got None`},
			lcase{name: ns + "cosine_similarity", args: A(x1, x2), kwargs: K(kw("eps", sv("a"))), err: `argument "eps": expected float, got str`},
			lcase{name: ns + "pairwise_distance", args: A(x1, x2), op: "pairwise_distance", attrs: ops.Attrs{"p": fa(2), "eps": fa(1e-6), "keepdim": ba(false)}},
			lcase{name: ns + "pairwise_distance", args: A(x1, x2, iv(1), fv(0), bv(true)), op: "pairwise_distance", attrs: ops.Attrs{"p": fa(1), "eps": fa(0), "keepdim": ba(true)}},
			lcase{name: ns + "pairwise_distance", args: A(x1, x2), kwargs: K(kw("p", fv(math.Inf(1)))), op: "pairwise_distance", attrs: ops.Attrs{"p": fa(math.Inf(1))}},
			lcase{name: ns + "pairwise_distance", args: A(iv(1), x2), err: `argument "x1": expected tensor, got int`},
			lcase{name: ns + "pairwise_distance", args: A(x1, x2), kwargs: K(kw("keepdim", iv(1))), err: `argument "keepdim": expected bool, got int`},
			lcase{name: ns + "pairwise_distance", args: A(x1, x2), kwargs: K(kw("p", nv())), err: `argument "p": expected float, got None`},
		)
	}
	return cases
}

func TestNNTorchShape(t *testing.T) { runCases(t, nnTorchShapeCases(), nil) }

func nnTorchShapeCases() []lcase {
	x := f32("args.0", 1, 8, 2, 2)
	A, K := nnTorchArgs, nnTorchKws
	var cases []lcase
	for _, u := range []struct{ op, param string }{
		{"pixel_shuffle", "upscale_factor"}, {"pixel_unshuffle", "downscale_factor"}, {"channel_shuffle", "groups"},
	} {
		for _, ns := range []string{"Torch.", "Functional."} {
			cases = append(cases,
				lcase{name: ns + u.op, args: A(x, iv(2)), op: u.op, attrs: ops.Attrs{u.param: ia(2)}, in: []string{"args.0"}},
				lcase{name: ns + u.op, args: A(x), kwargs: K(kw(u.param, iv(-1))), op: u.op, attrs: ops.Attrs{u.param: ia(-1)}},
				lcase{name: ns + u.op, args: A(x, fv(2)), err: `argument "` + u.param + `": expected int, got float`},
				lcase{name: ns + u.op, args: A(x), err: `missing required argument "` + u.param + `"`},
				lcase{name: ns + u.op, args: A(iv(1), iv(2)), err: `argument "input": expected tensor, got int`},
			)
		}
	}
	return append(cases,
		lcase{name: "Torch.constant_pad_nd", args: A(x, ints(1, 2)), op: "constant_pad_nd", attrs: ops.Attrs{"pad": la(1, 2), "value": fa(0)}},
		lcase{name: "Torch.constant_pad_nd", args: A(x, szv(-1, 2, 0, 1), fv(2.5)), op: "constant_pad_nd", attrs: ops.Attrs{"pad": la(-1, 2, 0, 1), "value": fa(2.5)}},
		lcase{name: "Torch.constant_pad_nd", args: A(x, ints()), kwargs: K(kw("value", iv(-3))), op: "constant_pad_nd", attrs: ops.Attrs{"pad": la(), "value": fa(-3)}},
		lcase{name: "Torch.constant_pad_nd", args: A(x, iv(1)), err: `argument "pad": expected list of ints, got int`},
		lcase{name: "Torch.constant_pad_nd", args: A(x, lv(iv(1), fv(2))), err: `argument "pad": expected list of ints, got list containing float`},
		lcase{name: "Torch.constant_pad_nd", args: A(x, ints(1, 1), nv()), err: `argument "value": expected float, got None`},
		lcase{name: "Functional.constant_pad_nd", args: A(x, ints(1, 1)), err: "has no lowering"},
	)
}

func nnTorchActivationCases() []lcase {
	x, w := f32("args.0", 2, 3), f32("args.1", 3)
	out := kw("out", f32("kwargs.out", 2, 3))
	A, K := nnTorchArgs, nnTorchKws
	return []lcase{
		// celu: defaults, keyword and positional alpha, in place by name or inplace=.
		{name: "Torch.celu", args: A(x), op: "celu", attrs: ops.Attrs{"alpha": fa(1), "inplace": ba(false)}, in: []string{"args.0"}},
		{name: "Torch.celu_", args: A(x, fv(2)), op: "celu", attrs: ops.Attrs{"alpha": fa(2), "inplace": ba(true)}},
		{name: "Functional.celu", args: A(x), kwargs: K(kw("alpha", iv(3)), kw("inplace", bv(true))), op: "celu", attrs: ops.Attrs{"alpha": fa(3), "inplace": ba(true)}},
		{name: "Functional.celu_", args: A(x, fv(0.5)), op: "celu", attrs: ops.Attrs{"alpha": fa(0.5), "inplace": ba(true)}},
		{name: "Torch.celu", args: A(x, sv("a")), err: `argument "alpha": expected float, got str`},
		{name: "Torch.celu", args: A(iv(1)), err: `argument "input": expected tensor, got int`},
		{name: "Functional.celu", args: A(x), kwargs: K(kw("inplace", iv(1))), err: `argument "inplace": expected bool, got int`},
		{name: "Tensor.celu", args: A(x), err: "has no lowering"},
		// selu
		{name: "Torch.selu", args: A(x), op: "selu", attrs: ops.Attrs{"inplace": ba(false)}},
		{name: "Torch.selu_", args: A(x), op: "selu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.selu", args: A(x, bv(true)), op: "selu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.selu_", args: A(x), op: "selu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.selu", args: A(x, fv(1)), err: "takes at most 1 positional arguments"},
		// threshold: both numbers required; out= accepted on torch's.
		{name: "Torch.threshold", args: A(x, fv(0.5), iv(2)), op: "threshold", attrs: ops.Attrs{"threshold": fa(0.5), "value": fa(2), "inplace": ba(false)}},
		{name: "Torch.threshold", args: A(x, fv(0.5), iv(2)), kwargs: K(out), op: "threshold"},
		{name: "Torch.threshold_", args: A(x), kwargs: K(kw("threshold", iv(0)), kw("value", fv(-1))), op: "threshold", attrs: ops.Attrs{"threshold": fa(0), "value": fa(-1), "inplace": ba(true)}},
		{name: "Functional.threshold", args: A(x, fv(0.5), iv(2), bv(true)), op: "threshold", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.threshold_", args: A(x, fv(0.5), iv(2)), op: "threshold", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.threshold", args: A(x, fv(0.5)), err: `missing required argument "value"`},
		{name: "Torch.threshold", args: A(x, w, fv(0.5)), err: `argument "threshold": expected float, got tensor`},
		{name: "Functional.threshold", args: A(x, fv(0.5), iv(2)), kwargs: K(out), err: `unexpected keyword argument "out"`},
		// hardshrink
		{name: "Torch.hardshrink", args: A(x), op: "hardshrink", attrs: ops.Attrs{"lambd": fa(0.5)}},
		{name: "Tensor.hardshrink", args: A(x, fv(1.5)), op: "hardshrink", attrs: ops.Attrs{"lambd": fa(1.5)}},
		{name: "Functional.hardshrink", args: A(x), kwargs: K(kw("lambd", iv(2))), op: "hardshrink", attrs: ops.Attrs{"lambd": fa(2)}},
		{name: "Tensor.hardshrink", args: A(x), kwargs: K(out), err: `unexpected keyword argument "out"`},
		{name: "Torch.hardshrink", args: A(x, nv()), err: `argument "lambd": expected float, got None`},
		// prelu
		{name: "Torch.prelu", args: A(x, w), op: "prelu", in: []string{"args.0", "args.1"}},
		{name: "Tensor.prelu", args: A(x), kwargs: K(kw("weight", f32("kwargs.weight", 1))), op: "prelu", in: []string{"args.0", "kwargs.weight"}},
		{name: "Functional.prelu", args: A(x, w), op: "prelu"},
		{name: "Functional.prelu", args: A(x, fv(0.25)), err: `argument "weight": expected tensor, got float`},
		{name: "Torch.prelu", args: A(x), err: `missing required argument "weight"`},
		// _add_relu: the Tensor and Scalar overloads.
		{name: "Torch._add_relu", args: A(x, w), op: "add_relu", attrs: ops.Attrs{"alpha": fa(1), "inplace": ba(false)}, in: []string{"args.0", "args.1"}},
		{name: "Torch._add_relu", args: A(x, w), kwargs: K(kw("alpha", fv(0.5)), out), op: "add_relu", attrs: ops.Attrs{"alpha": fa(0.5)}},
		{name: "Torch._add_relu_", args: A(x, iv(2)), op: "add_relu", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "int:2"}},
		{name: "Torch._add_relu", args: A(x, fv(1.5), iv(3)), op: "add_relu", attrs: ops.Attrs{"alpha": fa(3)}, in: []string{"args.0", "float:1.5"}},
		{name: "Torch._add_relu", args: A(x, w, iv(3)), err: "alpha is keyword-only when other is a tensor"},
		{name: "Torch._add_relu", args: A(iv(2), w), err: `argument "input": expected tensor, got int`},
		{name: "Torch._add_relu", args: A(x, sv("a")), err: `argument "other": expected tensor or number, got str`},
		{name: "Torch._add_relu", args: A(x, w), kwargs: K(kw("alpha", nv())), err: `argument "alpha": expected float, got None`},
		// rrelu: evaluation only.
		{name: "Torch.rrelu", args: A(x), op: "rrelu", attrs: ops.Attrs{"lower": fa(0.125), "upper": fa(0.3333333333333333), "inplace": ba(false)}},
		{name: "Torch.rrelu_", args: A(x, fv(0.1), fv(0.3), bv(false), nv()), op: "rrelu", attrs: ops.Attrs{"lower": fa(0.1), "upper": fa(0.3), "inplace": ba(true)}},
		{name: "Functional.rrelu", args: A(x), kwargs: K(kw("inplace", bv(true)), kw("upper", fv(0.5))), op: "rrelu", attrs: ops.Attrs{"upper": fa(0.5), "inplace": ba(true)}},
		{name: "Functional.rrelu_", args: A(x, fv(0.2)), op: "rrelu", attrs: ops.Attrs{"lower": fa(0.2), "inplace": ba(true)}},
		{name: "Torch.rrelu", args: A(x), kwargs: K(kw("training", bv(true))), err: `argument "training": rrelu with training=True draws each negative slope at random`},
		{name: "Functional.rrelu", args: A(x, fv(0.1), fv(0.3), bv(true)), err: `argument "training": rrelu with training=True`},
		{name: "Functional.rrelu_", args: A(x), kwargs: K(kw("training", bv(true))), err: `argument "training"`},
		{name: "Torch.rrelu", args: A(x), kwargs: K(kw("training", iv(1))), err: `argument "training": expected bool, got int`},
		{name: "Functional.rrelu", args: A(x), kwargs: K(kw("generator", nv())), err: `unexpected keyword argument "generator"`},
	}
}
