package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

type nn2Args = []framework.Arg
type nn2Kws = []framework.NamedArg

func TestNN2ConvTranspose(t *testing.T) { runCases(t, nn2ConvTransposeCases(), nil) }

func nn2ConvTransposeCases() []lcase {
	x3, w3 := f32("args.0", 2, 4, 5), f32("args.1", 4, 3, 2)
	x4, w4 := f32("args.0", 1, 4, 5, 5), f32("args.1", 4, 2, 3, 3)
	b := f32("args.2", 6)
	return []lcase{
		{name: "Torch.conv_transpose1d", args: nn2Args{x3, w3}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(1), "padding": la(0), "output_padding": la(0), "dilation": la(1), "groups": ia(1)}, in: []string{"args.0", "args.1", "none"}},
		{name: "Functional.conv_transpose2d", args: nn2Args{x4, w4, b, iv(2), ints(1, 0), iv(1), iv(2), ints(1, 2)}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(2, 2), "padding": la(1, 0), "output_padding": la(1, 1), "dilation": la(1, 2), "groups": ia(2)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.conv_transpose2d", args: nn2Args{f32("args.0", 4, 5, 5), w4}, kwargs: nn2Kws{kw("stride", ints(2)), kw("dilation", iv(3))}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(2, 2), "dilation": la(3, 3)}},
		{name: "Functional.conv_transpose3d", args: nn2Args{f32("args.0", 1, 2, 3, 3, 3), f32("args.1", 2, 2, 1, 1, 1)}, op: "conv_transpose", attrs: ops.Attrs{"padding": la(0, 0, 0)}},
		{name: "Torch.conv_transpose1d", args: nn2Args{x4, w3}, err: "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d"},
		{name: "Torch.conv_transpose2d", args: nn2Args{x4, w3}, err: `argument "weight": expected a 4-D weight`},
		{name: "Torch.conv_transpose2d", args: nn2Args{x4, w4}, kwargs: nn2Kws{kw("groups", iv(0))}, err: "non-positive groups"},
		{name: "Torch.conv_transpose2d", args: nn2Args{x4, w4}, kwargs: nn2Kws{kw("stride", ints(1, 2, 3))}, err: "a single int or a list of 2 ints"},
		{name: "Functional.conv_transpose2d", args: nn2Args{x4, w4}, kwargs: nn2Kws{kw("padding", sv("same"))}, err: `argument "padding": expected int or list of ints, got str`},

		{name: "Torch._convolution", args: nn2Args{x3, w3, nv(), ints(2), ints(0), ints(1), bv(true), ints(1), iv(1), bv(false), bv(false), bv(true), bv(true)}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(2), "output_padding": la(1)}},
		{name: "Torch._convolution", args: nn2Args{x4, w4, nv(), ints(1), ints(1), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), bv(true)}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(1, 1), "padding": la(1, 1)}},
		{name: "Torch._convolution", args: nn2Args{x4, f32("args.1", 2, 4, 3, 3), nv(), ints(1), ints(0), ints(1), bv(false), ints(0), iv(1), bv(false), bv(false), bv(true), bv(true)}, op: "convolution",
			attrs: ops.Attrs{"stride": la(1, 1)}},
		{name: "Torch._convolution", args: nn2Args{f32("args.0", 4, 5), w3, nv(), ints(1), ints(0), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), bv(true), bv(true)},
			err: "Expected 3-dimensional input for 3-dimensional weight"},
		{name: "Torch._convolution", args: nn2Args{x3, w3, nv(), iv(1), ints(0), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), bv(true), bv(true)},
			err: `argument "stride": expected list of ints, got int`},
		{name: "Torch._convolution", args: nn2Args{x3, w3, nv(), ints(1), ints(0), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), iv(1), bv(true)},
			err: `argument "cudnn_enabled": expected bool`},
	}
}

func TestNN2ConvTBC(t *testing.T) { runCases(t, nn2ConvTBCCases(), nil) }

func nn2ConvTBCCases() []lcase {
	x, w, b := f32("args.0", 5, 2, 3), f32("args.1", 2, 3, 4), f32("args.2", 4)
	return []lcase{
		{name: "Torch.conv_tbc", args: nn2Args{x, w, b}, op: "conv_tbc", attrs: ops.Attrs{"pad": ia(0)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.conv_tbc", args: nn2Args{x, w, b, iv(2)}, op: "conv_tbc", attrs: ops.Attrs{"pad": ia(2)}},
		{name: "Functional.conv_tbc", args: nn2Args{x, w, b}, kwargs: []framework.NamedArg{kw("pad", iv(1))}, op: "conv_tbc", attrs: ops.Attrs{"pad": ia(1)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.conv_tbc", args: nn2Args{x, w}, kwargs: nn2Kws{kw("bias", b), kw("pad", iv(-1))}, op: "conv_tbc", attrs: ops.Attrs{"pad": ia(-1)}},
		{name: "Torch.conv_tbc", args: nn2Args{x, w, nv()}, err: `argument "bias": expected tensor, got None`},
		{name: "Torch.conv_tbc", args: nn2Args{x, w, b, fv(1)}, err: `argument "pad": expected int, got float`},
	}
}

func TestNN2MaxPool3d(t *testing.T) { runCases(t, nn2MaxPool3dCases(), nil) }

func nn2MaxPool3dCases() []lcase {
	x := f32("args.0", 1, 2, 4, 4, 4)
	mp := func(k, s, p, d []int64, ceil, idx bool) ops.Attrs {
		return ops.Attrs{"kernel_size": la(k...), "stride": la(s...), "padding": la(p...), "dilation": la(d...), "ceil_mode": ba(ceil), "return_indices": ba(idx)}
	}
	return []lcase{
		{name: "Torch.max_pool3d", args: nn2Args{x, iv(2)}, op: "max_pool3d", attrs: mp([]int64{2, 2, 2}, []int64{2, 2, 2}, []int64{0, 0, 0}, []int64{1, 1, 1}, false, false)},
		{name: "Torch.max_pool3d", args: nn2Args{x, ints(2, 3, 2), ints(), iv(1), ints(1, 2, 1), bv(true)}, op: "max_pool3d",
			attrs: mp([]int64{2, 3, 2}, []int64{2, 3, 2}, []int64{1, 1, 1}, []int64{1, 2, 1}, true, false)},
		{name: "Functional.max_pool3d", args: nn2Args{x, iv(3)}, kwargs: nn2Kws{kw("stride", iv(1)), kw("return_indices", bv(true))}, op: "max_pool3d", multi: true,
			attrs: mp([]int64{3, 3, 3}, []int64{1, 1, 1}, []int64{0, 0, 0}, []int64{1, 1, 1}, false, true)},
		{name: "Functional.max_pool3d", args: nn2Args{f32("args.0", 2, 4, 4, 4), iv(2)}, op: "max_pool3d"},
		{name: "Functional.max_pool3d_with_indices", args: nn2Args{x, iv(2), nv(), iv(1)}, op: "max_pool3d", multi: true, attrs: ops.Attrs{"return_indices": ba(true), "padding": la(1, 1, 1)}},
		{name: "Torch.max_pool3d", args: nn2Args{x, ints(2, 2)}, err: `argument "kernel_size": expected a single int or a list of 3 ints`},
		{name: "Functional.max_pool3d", args: nn2Args{x, iv(2)}, kwargs: nn2Kws{kw("ceil_mode", iv(1))}, err: `argument "ceil_mode": expected bool`},
	}
}

func TestNN2Norms(t *testing.T) { runCases(t, nn2NormCases(), nil) }

func nn2NormCases() []lcase {
	x, w, b := f32("args.0", 2, 3, 4), f32("args.1", 4), f32("args.2", 4)
	c3 := f32("args.1", 3)
	return []lcase{
		{name: "Torch.native_layer_norm", args: nn2Args{x, ints(4), w, b, fv(1e-5)}, op: "native_layer_norm", multi: true,
			attrs: ops.Attrs{"normalized_shape": la(4), "eps": fa(1e-5)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.native_layer_norm", args: nn2Args{x, szv(3, 4), nv(), nv(), iv(0)}, op: "native_layer_norm", multi: true,
			attrs: ops.Attrs{"normalized_shape": la(3, 4), "eps": fa(0)}, in: []string{"args.0", "none", "none"}},
		{name: "Torch.native_layer_norm", args: nn2Args{x, ints(4), w, b}, err: `missing required argument "eps"`},
		{name: "Torch.native_group_norm", args: nn2Args{x, c3, nv(), iv(2), iv(3), iv(4), iv(3), fv(1e-5)}, op: "native_group_norm", multi: true,
			attrs: ops.Attrs{"N": ia(2), "C": ia(3), "HxW": ia(4), "group": ia(3), "eps": fa(1e-5)}, in: []string{"args.0", "args.1", "none"}},
		{name: "Torch.native_group_norm", args: nn2Args{x, nv(), nv(), iv(2), iv(3), fv(4), iv(3), fv(1e-5)}, err: `argument "HxW": expected int, got float`},
		{name: "Torch.native_batch_norm", args: nn2Args{x, c3, c3, nv(), nv(), bv(true), fv(0.1), fv(1e-5)}, op: "native_batch_norm", multi: true,
			attrs: ops.Attrs{"training": ba(true), "momentum": fa(0.1), "eps": fa(1e-5)}, in: []string{"args.0", "args.1", "args.1", "none", "none"}},
		{name: "Torch.native_batch_norm", args: nn2Args{x, nv(), nv(), f32("args.3", 3), f32("args.4", 3), bv(false), fv(0.1), fv(1e-3)}, op: "native_batch_norm", multi: true,
			attrs: ops.Attrs{"training": ba(false), "eps": fa(1e-3)}, in: []string{"args.0", "none", "none", "args.3", "args.4"}},
		{name: "Torch.native_batch_norm", args: nn2Args{x, nv(), nv(), nv(), nv(), iv(1), fv(0.1), fv(1e-3)}, err: `argument "training": expected bool`},
		{name: "Torch._batch_norm_impl_index", args: nn2Args{x, c3, c3, f32("args.3", 3), f32("args.4", 3), bv(true), fv(0.1), fv(1e-5), bv(true)}, op: "native_batch_norm", multi: true,
			in: []string{"args.0", "args.1", "args.1", "args.3", "args.4"}},
		{name: "Torch._batch_norm_impl_index", args: nn2Args{x, c3, c3, nv(), nv(), bv(true), fv(0.1), fv(1e-5)}, err: `missing required argument "cudnn_enabled"`},
		{name: "Torch.batch_norm_update_stats", args: nn2Args{x, nv(), nv(), fv(0.1)}, op: "batch_norm_update_stats", multi: true,
			attrs: ops.Attrs{"momentum": fa(0.1)}, in: []string{"args.0", "none", "none"}},
		{name: "Torch.batch_norm_update_stats", args: nn2Args{x, f32("args.1", 3), f32("args.2", 3), iv(1)}, op: "batch_norm_update_stats", multi: true,
			in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.batch_norm_update_stats", args: nn2Args{x, nv(), nv()}, err: `missing required argument "momentum"`},
	}
}

func TestNN2Grid(t *testing.T) { runCases(t, nn2GridCases(), nil) }

func nn2GridCases() []lcase {
	x, g := f32("args.0", 1, 2, 3, 4), f32("args.1", 1, 5, 6, 2)
	x5, g5 := f32("args.0", 1, 2, 3, 4, 4), f32("args.1", 1, 2, 5, 6, 3)
	gs := func(m, p int64, a bool) ops.Attrs {
		return ops.Attrs{"interpolation_mode": ia(m), "padding_mode": ia(p), "align_corners": ba(a)}
	}
	th := f32("args.0", 2, 2, 3)
	return []lcase{
		{name: "Torch.grid_sampler", args: nn2Args{x, g, iv(0), iv(1), bv(true)}, op: "grid_sampler", attrs: gs(0, 1, true), in: []string{"args.0", "args.1"}},
		{name: "Torch.grid_sampler", args: nn2Args{x5, g5, iv(1), iv(2), bv(false)}, op: "grid_sampler", attrs: gs(1, 2, false)},
		{name: "Torch.grid_sampler_2d", args: nn2Args{x, g, iv(2), iv(0), bv(false)}, op: "grid_sampler", attrs: gs(2, 0, false)},
		{name: "Torch.grid_sampler_3d", args: nn2Args{x5, g5, iv(0), iv(0), bv(false)}, op: "grid_sampler"},
		{name: "Torch.grid_sampler_3d", args: nn2Args{x, g, iv(0), iv(0), bv(false)}, err: "expected 5D input and grid"},
		{name: "Torch.grid_sampler_2d", args: nn2Args{x5, g5, iv(0), iv(0), bv(false)}, err: "expected 4D input and grid"},
		{name: "Torch.grid_sampler", args: nn2Args{x, g, sv("bilinear"), iv(0), bv(false)}, err: `argument "interpolation_mode": expected int`},
		{name: "Functional.grid_sample", args: nn2Args{x, g}, op: "grid_sampler", attrs: gs(0, 0, false)},
		{name: "Functional.grid_sample", args: nn2Args{x, g, sv("bicubic"), sv("reflection"), bv(true)}, op: "grid_sampler", attrs: gs(2, 2, true)},
		{name: "Functional.grid_sample", args: nn2Args{x5, g5}, kwargs: nn2Kws{kw("mode", sv("nearest")), kw("padding_mode", sv("border"))}, op: "grid_sampler", attrs: gs(1, 1, false)},
		{name: "Functional.grid_sample", args: nn2Args{x, g, sv("area")}, err: "expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'area'"},
		{name: "Functional.grid_sample", args: nn2Args{x, g}, kwargs: nn2Kws{kw("padding_mode", sv("circular"))}, err: "expected padding_mode to be"},

		{name: "Torch.affine_grid_generator", args: nn2Args{th, ints(2, 1, 3, 4), bv(false)}, op: "affine_grid",
			attrs: ops.Attrs{"size": la(2, 1, 3, 4), "align_corners": ba(false)}, in: []string{"args.0"}},
		{name: "Torch.affine_grid_generator", args: nn2Args{i64("args.0", 2, 2, 3), szv(2, 1, 3, 4), bv(true)}, op: "affine_grid", attrs: ops.Attrs{"align_corners": ba(true)}},
		{name: "Functional.affine_grid", args: nn2Args{th, szv(2, 1, 3, 4)}, op: "affine_grid", attrs: ops.Attrs{"align_corners": ba(false)}},
		{name: "Functional.affine_grid", args: nn2Args{f32("args.0", 1, 3, 4), ints(1, 2, 3, 4, 5)}, kwargs: nn2Kws{kw("align_corners", bv(true))}, op: "affine_grid"},
		{name: "Functional.affine_grid", args: nn2Args{i64("args.0", 2, 2, 3), ints(2, 1, 3, 4)}, err: "Expected theta to have floating point type, but got torch.int64"},
		{name: "Functional.affine_grid", args: nn2Args{f32("args.0", 2, 3, 3), ints(2, 1, 3, 4)}, err: "Expected a batch of 2D affine matrices of shape Nx2x3"},
		{name: "Functional.affine_grid", args: nn2Args{th, ints(2, 1, 0, 4)}, err: "Expected non-zero, positive output size"},
		{name: "Functional.affine_grid", args: nn2Args{th, ints(2, 1, 4)}, err: "affine_grid only supports 4D and 5D sizes"},
		{name: "Torch.affine_grid_generator", args: nn2Args{th, iv(3), bv(false)}, err: `argument "size": expected list of ints`},
	}
}

func TestNN2Dropout(t *testing.T) { runCases(t, nn2DropoutCases(), nil) }

func nn2DropoutCases() []lcase {
	x := f32("args.0", 2, 3, 4)
	d := func(p float64, train, inplace, alpha, feature, unbatched bool) ops.Attrs {
		return ops.Attrs{"p": fa(p), "train": ba(train), "inplace": ba(inplace), "alpha": ba(alpha), "feature": ba(feature), "unbatched": ba(unbatched)}
	}
	return []lcase{
		{name: "Torch.alpha_dropout", args: nn2Args{x, fv(0.3), bv(true)}, op: "feature_dropout", attrs: d(0.3, true, false, true, false, false)},
		{name: "Torch.alpha_dropout_", args: nn2Args{x, fv(0.3), bv(false)}, op: "feature_dropout", attrs: d(0.3, false, true, true, false, false)},
		{name: "Torch.feature_alpha_dropout", args: nn2Args{x, iv(1), bv(true)}, op: "feature_dropout", attrs: d(1, true, false, true, true, false)},
		{name: "Torch.feature_alpha_dropout_", args: nn2Args{x, fv(0.5), bv(true)}, op: "feature_dropout", attrs: d(0.5, true, true, true, true, false)},
		{name: "Torch.feature_dropout", args: nn2Args{x, fv(0.5), bv(true)}, op: "feature_dropout", attrs: d(0.5, true, false, false, true, false)},
		{name: "Torch.feature_dropout_", args: nn2Args{x, fv(0.5), bv(true)}, op: "feature_dropout", attrs: d(0.5, true, true, false, true, false)},
		{name: "Torch.feature_dropout", args: nn2Args{x, fv(1.5), bv(true)}, err: "dropout probability has to be between 0 and 1, but got 1.5"},
		{name: "Torch.feature_dropout", args: nn2Args{x, fv(0.5)}, err: `missing required argument "train"`},
		{name: "Functional.alpha_dropout", args: nn2Args{x}, op: "feature_dropout", attrs: d(0.5, false, false, true, false, false)},
		{name: "Functional.alpha_dropout", args: nn2Args{x, fv(0.2), bv(true), bv(true)}, op: "feature_dropout", attrs: d(0.2, true, true, true, false, false)},
		{name: "Functional.feature_alpha_dropout", args: nn2Args{x}, kwargs: nn2Kws{kw("training", bv(true))}, op: "feature_dropout", attrs: d(0.5, true, false, true, true, false)},
		{name: "Functional.dropout1d", args: nn2Args{f32("args.0", 3, 4)}, op: "feature_dropout", attrs: d(0.5, true, false, false, true, true)},
		{name: "Functional.dropout1d", args: nn2Args{x, fv(0.1)}, kwargs: nn2Kws{kw("inplace", bv(true))}, op: "feature_dropout", attrs: d(0.1, true, true, false, true, false)},
		{name: "Functional.dropout1d", args: nn2Args{f32("args.0", 1, 2, 3, 4)}, err: "dropout1d: Expected 2D or 3D input, but received a 4D input"},
		{name: "Functional.dropout2d", args: nn2Args{x}, op: "feature_dropout", attrs: d(0.5, true, false, false, true, false)},
		{name: "Functional.dropout2d", args: nn2Args{f32("args.0", 1, 2, 3, 4), fv(0.5), bv(false)}, op: "feature_dropout", attrs: d(0.5, false, false, false, true, false)},
		{name: "Functional.dropout3d", args: nn2Args{f32("args.0", 1, 2, 3, 4, 5)}, op: "feature_dropout", attrs: d(0.5, true, false, false, true, false)},
		{name: "Functional.dropout3d", args: nn2Args{f32("args.0", 2, 3, 4, 5)}, op: "feature_dropout", attrs: d(0.5, true, false, false, true, true)},
		{name: "Functional.dropout3d", args: nn2Args{x, fv(-0.1)}, err: "dropout probability has to be between 0 and 1"},
		{name: "Functional.dropout2d", args: nn2Args{x}, kwargs: nn2Kws{kw("inplace", iv(1))}, err: `argument "inplace": expected bool`},
	}
}

func TestNN2Rest(t *testing.T) { runCases(t, nn2RestCases(), nil) }

func nn2RestCases() []lcase {
	g, y := f32("args.0", 2, 3), f32("args.1", 2, 3)
	w, idx := f32("args.0", 5, 3), i64("args.1", 4)
	x1, x2, wb := f32("args.0", 2, 3), f32("args.1", 2, 4), f32("args.2", 5, 3, 4)
	return []lcase{
		{name: "Torch._softmax_backward_data", args: nn2Args{g, y, iv(-1), dtv("torch.float32")}, op: "softmax_backward_data",
			attrs: ops.Attrs{"dim": ia(-1), "input_dtype": sa("float32")}, in: []string{"args.0", "args.1"}},
		{name: "Torch._softmax_backward_data", args: nn2Args{g, y, iv(0)}, kwargs: nn2Kws{kw("input_dtype", dtv("torch.bfloat16"))}, op: "softmax_backward_data",
			attrs: ops.Attrs{"dim": ia(0), "input_dtype": sa("bfloat16")}},
		{name: "Torch._softmax_backward_data", args: nn2Args{g, y, iv(2), dtv("torch.float32")}, err: "dimension out of range"},
		{name: "Torch._softmax_backward_data", args: nn2Args{g, y, iv(1), nv()}, err: `argument "input_dtype": expected dtype, got None`},
		{name: "Torch._softmax_backward_data", args: nn2Args{g, y, iv(1), {Kind: framework.ArgUnknown}}, op: "softmax_backward_data",
			attrs: ops.Attrs{"dim": ia(1), "input_dtype": sa("float32")}},
		{name: "Torch._softmax_backward_data", args: nn2Args{g, y, iv(1), {Kind: framework.ArgUnknown, TypeName: "str"}}, err: `argument "input_dtype": expected dtype, got str`},
		{name: "Torch.embedding_renorm_", args: nn2Args{w, idx, fv(1), iv(2)}, op: "embedding_renorm",
			attrs: ops.Attrs{"max_norm": fa(1), "norm_type": fa(2)}, in: []string{"args.0", "args.1"}},
		{name: "Torch.embedding_renorm_", args: nn2Args{w, idx, fv(1)}, err: `missing required argument "norm_type"`},
		{name: "Torch.bilinear", args: nn2Args{x1, x2, wb}, op: "bilinear", in: []string{"args.0", "args.1", "args.2", "none"}},
		{name: "Functional.bilinear", args: nn2Args{x1, x2, wb, f32("args.3", 5)}, op: "bilinear", in: []string{"args.0", "args.1", "args.2", "args.3"}},
		{name: "Functional.bilinear", args: nn2Args{x1, iv(2), wb}, err: `argument "input2": expected tensor, got int`},
	}
}

// nn2Cases are every lowering case of the nn2 family (TestOpsListed).
func nn2Cases() []lcase {
	var cs []lcase
	for _, f := range []func() []lcase{nn2ConvTransposeCases, nn2ConvTBCCases, nn2MaxPool3dCases, nn2NormCases, nn2GridCases, nn2DropoutCases, nn2RestCases} {
		cs = append(cs, f()...)
	}
	return cs
}
