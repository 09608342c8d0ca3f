package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

func TestPool(t *testing.T) { runCases(t, poolCases(), nil) }

func poolCases() []lcase {
	a := func(args ...framework.Arg) []framework.Arg { return args }
	x4, x5 := f32("args.0", 2, 3, 8, 8), f32("args.0", 1, 2, 6, 6, 6)
	is := ops.IntsAttr
	cs := []lcase{
		{name: "Functional.avg_pool2d", args: a(x4, iv(3)), op: "avg_pool2d",
			attrs: ops.Attrs{"kernel_size": is(3), "stride": is(3), "padding": is(0), "ceil_mode": ops.BoolAttr(false),
				"count_include_pad": ops.BoolAttr(true), "divisor_override": ops.NoneAttr()}, in: []string{"args.0"}},
		{name: "Functional.avg_pool2d", args: a(x4, ints(3, 2), ints(2, 1), iv(1), bv(true), bv(false), iv(5)), op: "avg_pool2d",
			attrs: ops.Attrs{"kernel_size": is(3, 2), "stride": is(2, 1), "padding": is(1), "ceil_mode": ops.BoolAttr(true),
				"count_include_pad": ops.BoolAttr(false), "divisor_override": ops.IntAttr(5)}},
		{name: "Functional.avg_pool2d", args: a(x4, iv(2), ints()), op: "avg_pool2d", attrs: ops.Attrs{"stride": is(2)}},
		{name: "Functional.avg_pool2d", args: a(x4, iv(2)), kwargs: []framework.NamedArg{kw("divisor_override", nv())}, op: "avg_pool2d",
			attrs: ops.Attrs{"divisor_override": ops.NoneAttr()}},
		{name: "Functional.avg_pool2d", args: a(x4, fv(2)), err: `argument "kernel_size"`},
		{name: "Functional.avg_pool3d", args: a(x5, iv(2)), kwargs: []framework.NamedArg{kw("stride", iv(1)), kw("padding", ints(1, 0, 1))},
			op: "avg_pool3d", attrs: ops.Attrs{"kernel_size": is(2), "stride": is(1), "padding": is(1, 0, 1)}},
		{name: "Functional.adaptive_avg_pool3d", args: a(x5, iv(2)), op: "adaptive_avg_pool3d", attrs: ops.Attrs{"output_size": is(2)}},
		{name: "Functional.adaptive_avg_pool3d", args: a(x5, lv(iv(2), nv(), iv(3))), op: "adaptive_avg_pool3d", attrs: ops.Attrs{"output_size": is(2, 6, 3)}},
		{name: "Functional.adaptive_avg_pool3d", args: a(f32("x", 4, 5, 6), lv(iv(1), iv(1), iv(1))), err: "Input dimension should be at least 4"},
		{name: "Functional.adaptive_max_pool2d", args: a(x4, ints(3, 2)), op: "adaptive_max_pool2d",
			attrs: ops.Attrs{"output_size": is(3, 2), "return_indices": ops.BoolAttr(false)}},
		{name: "Functional.adaptive_max_pool2d", args: a(x4, lv(nv(), iv(2)), bv(true)), op: "adaptive_max_pool2d",
			attrs: ops.Attrs{"output_size": is(8, 2), "return_indices": ops.BoolAttr(true)}, multi: true},
		{name: "Functional.adaptive_max_pool2d_with_indices", args: a(x4, iv(4)), op: "adaptive_max_pool2d",
			attrs: ops.Attrs{"output_size": is(4), "return_indices": ops.BoolAttr(true)}, multi: true},
		{name: "Functional.adaptive_max_pool3d", args: a(x5, szv(2, 3, 4)), op: "adaptive_max_pool3d", attrs: ops.Attrs{"output_size": is(2, 3, 4)}},
		{name: "Functional.adaptive_max_pool3d_with_indices", args: a(x5, iv(2)), op: "adaptive_max_pool3d", multi: true},
		{name: "Functional.adaptive_max_pool3d", args: a(x5, sv("a")), err: `argument "output_size"`},
		{name: "Functional.pad", args: a(x4, ints(1, 2)), op: "constant_pad_nd", attrs: ops.Attrs{"pad": is(1, 2), "value": ops.FloatAttr(0)}},
		{name: "Functional.pad", args: a(x4, ints(1, 2), sv("constant"), fv(2.5)), op: "constant_pad_nd", attrs: ops.Attrs{"value": ops.FloatAttr(2.5)}},
		{name: "Functional.pad", args: a(x4, ints(1, 2, -1, 0), sv("reflect")), op: "pad", attrs: ops.Attrs{"pad": is(1, 2, -1, 0), "mode": ops.StringAttr("reflect")}},
		{name: "Functional.pad", args: a(x4, ints(1, 2)), kwargs: []framework.NamedArg{kw("mode", sv("circular")), kw("value", fv(0))}, op: "pad",
			attrs: ops.Attrs{"mode": ops.StringAttr("circular")}},
		{name: "Functional.pad", args: a(x4, ints(1, 2), sv("replicate"), fv(1)), err: `Padding mode "replicate" doesn't take in value argument`},
		{name: "Functional.pad", args: a(x4, ints(1, 2), sv("symmetric")), err: "Unrecognised padding mode symmetric"},
		{name: "Functional.pad", args: a(x4, ints(1, 2, 3)), err: "Padding length must be divisible by 2"},
		{name: "Functional.pad", args: a(f32("x", 3), ints(1, 2, 3, 4)), err: "Padding length too large"},
		{name: "Functional.unfold", args: a(x4, iv(3)), kwargs: []framework.NamedArg{kw("stride", ints(2, 1))}, op: "im2col",
			attrs: ops.Attrs{"kernel_size": is(3, 3), "dilation": is(1, 1), "padding": is(0, 0), "stride": is(2, 1)}},
		{name: "Functional.unfold", args: a(x4, ints(2, 2, 2)), op: "im2col", attrs: ops.Attrs{"kernel_size": is(2, 2, 2)}},
		{name: "Functional.fold", args: a(f32("c", 2, 12, 20), ints(5, 6), iv(2), iv(1), iv(0), iv(1)), op: "col2im",
			attrs: ops.Attrs{"output_size": is(5, 6), "kernel_size": is(2, 2), "dilation": is(1, 1), "padding": is(0, 0), "stride": is(1, 1)}},
		{name: "Functional.fold", args: a(f32("c", 2, 12, 20), fv(5), iv(2)), err: `argument "output_size"`},
		{name: "Functional.interpolate", args: a(x4), kwargs: []framework.NamedArg{kw("scale_factor", fv(1.5))}, op: "upsample",
			attrs: ops.Attrs{"mode": ops.StringAttr("nearest"), "output_size": is(12, 12), "scales": ops.FloatsAttr(1.5, 1.5), "align_corners": ops.BoolAttr(false)}},
		{name: "Functional.interpolate", args: a(x4, ints(5, 7), nv(), sv("bilinear")), op: "upsample",
			attrs: ops.Attrs{"mode": ops.StringAttr("linear"), "output_size": is(5, 7), "scales": ops.FloatsAttr()}},
		{name: "Functional.interpolate", args: a(x4, nv(), lv(fv(1.3), iv(2)), sv("bicubic"), bv(true), bv(true)), op: "upsample",
			attrs: ops.Attrs{"mode": ops.StringAttr("bicubic"), "output_size": is(10, 16), "scales": ops.FloatsAttr(), "align_corners": ops.BoolAttr(true)}},
		{name: "Functional.interpolate", args: a(x5, nv(), fv(0.5), sv("area")), op: "adaptive_avg_pool3d", attrs: ops.Attrs{"output_size": is(3, 3, 3)}},
		{name: "Functional.interpolate", args: a(f32("x", 2, 3, 9), iv(4), nv(), sv("area")), op: "adaptive_avg_pool1d", attrs: ops.Attrs{"output_size": is(4)}},
		{name: "Functional.interpolate", args: a(x4, iv(4), nv(), sv("nearest"), bv(false)), err: "align_corners option can only be set"},
		{name: "Functional.interpolate", args: a(x4, iv(4), fv(2)), err: "only one of size or scale_factor should be defined"},
		{name: "Functional.interpolate", args: a(x4), err: "either size or scale_factor should be defined"},
		{name: "Functional.interpolate", args: a(x4, ints(4, 4, 4)), err: "Input and output must have the same number of spatial dimensions"},
		{name: "Functional.interpolate", args: a(x4, iv(4), nv(), sv("linear")), err: "Got 4D input, but linear mode needs 3D input"},
		{name: "Functional.interpolate", args: a(x5, iv(4), nv(), sv("bicubic")), err: "Input Error: Only 3D, 4D and 5D input Tensors supported (got 5D)"},
		{name: "Functional.interpolate", args: a(x4, iv(4)), kwargs: []framework.NamedArg{kw("mode", sv("bilinear")), kw("antialias", bv(true))}, err: "antialias=True"},
		{name: "Functional.interpolate", args: a(x4, iv(4)), kwargs: []framework.NamedArg{kw("recompute_scale_factor", bv(true))}, err: "not meaningful with an explicit size"},
		{name: "Functional.upsample", args: a(f32("x", 2, 3, 9), nv(), fv(2), sv("linear"), bv(true)), op: "upsample",
			attrs: ops.Attrs{"mode": ops.StringAttr("linear"), "output_size": is(18), "scales": ops.FloatsAttr(2), "align_corners": ops.BoolAttr(true)}},
		{name: "Functional.upsample_nearest", args: a(x4, nv(), iv(2)), op: "upsample", attrs: ops.Attrs{"mode": ops.StringAttr("nearest"), "output_size": is(16, 16)}},
		{name: "Functional.upsample_bilinear", args: a(x4, ints(3, 5)), op: "upsample",
			attrs: ops.Attrs{"mode": ops.StringAttr("linear"), "output_size": is(3, 5), "align_corners": ops.BoolAttr(true)}},
		{name: "Functional.max_unpool2d", args: a(f32("x", 2, 3, 4, 4), i64("i", 2, 3, 4, 4), iv(2)), op: "max_unpool",
			attrs: ops.Attrs{"output_size": is(8, 8)}, in: []string{"x", "i"}},
		{name: "Functional.max_unpool1d", args: a(f32("x", 2, 3, 4), i64("i", 2, 3, 4), iv(3)), kwargs: []framework.NamedArg{kw("stride", iv(2)), kw("padding", iv(1))},
			op: "max_unpool", attrs: ops.Attrs{"output_size": is(7)}},
		{name: "Functional.max_unpool3d", args: a(f32("x", 1, 2, 2, 2, 2), i64("i", 1, 2, 2, 2, 2), iv(2)), kwargs: []framework.NamedArg{kw("output_size", ints(1, 2, 5, 4, 4))},
			op: "max_unpool", attrs: ops.Attrs{"output_size": is(5, 4, 4), "stride": is(2, 2, 2), "padding": is(0, 0, 0)}},
		{name: "Functional.max_unpool2d", args: a(f32("x", 2, 3, 4, 4), i64("i", 2, 3, 4, 4), iv(2)), kwargs: []framework.NamedArg{kw("output_size", ints(12, 8))},
			err: "invalid output_size (dim 0 must be between 6 and 10)"},
		{name: "Functional.max_unpool2d", args: a(f32("x", 2, 3, 4, 4), i64("i", 2, 3, 4, 4), iv(2)), kwargs: []framework.NamedArg{kw("output_size", ints(8))},
			err: "output_size should be a sequence containing 2 or 4 elements"},
		{name: "Functional.lp_pool2d", args: a(x4, fv(2), iv(3)), op: "lp_pool",
			attrs: ops.Attrs{"norm_type": ops.FloatAttr(2), "kernel_size": is(3, 3), "stride": is(3, 3), "ceil_mode": ops.BoolAttr(false)}},
		{name: "Functional.lp_pool1d", args: a(f32("x", 2, 3, 9), iv(3), iv(2), iv(1), bv(true)), op: "lp_pool",
			attrs: ops.Attrs{"norm_type": ops.FloatAttr(3), "kernel_size": is(2), "stride": is(1), "ceil_mode": ops.BoolAttr(true)}},
	}
	return cs
}
