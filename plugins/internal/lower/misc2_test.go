package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestMisc2(t *testing.T) { runCases(t, misc2Cases(), nil) }

func TestMisc2Reasons(t *testing.T) {
	if why, ok := Reason(Torch, "native_norm"); !ok || why == "" {
		t.Fatalf("Torch.native_norm has no reason")
	}
}

// misc2Cases are every lowering case of the misc2 family (TestOpsListed).
func misc2Cases() []lcase {
	x := f32("args.0", 3, 4)
	y := f32("args.1", 3, 4)
	f64 := tn("args.1", tensor.Float64, 4)
	none := na()
	return []lcase{
		{name: "Torch._aminmax", args: []framework.Arg{x}, op: "aminmax", attrs: ops.Attrs{"dim": none, "keepdim": ba(false)}, multi: true},
		{name: "Torch._aminmax", args: []framework.Arg{x, iv(-1)}, kwargs: []framework.NamedArg{kw("keepdim", bv(true))}, op: "aminmax", attrs: ops.Attrs{"dim": ia(-1), "keepdim": ba(true)}, multi: true},
		{name: "Torch._aminmax", args: []framework.Arg{x, nv()}, err: "must be int, not NoneType"},
		{name: "Torch._aminmax", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("keepdim", bv(true))}, err: "keepdim only with dim"},
		{name: "Torch._aminmax", args: []framework.Arg{x, iv(2)}, err: "dimension out of range"},

		{name: "Torch.frexp", args: []framework.Arg{x}, op: "frexp", in: []string{"args.0"}, multi: true},
		{name: "Tensor.frexp", args: []framework.Arg{x}, op: "frexp", multi: true},
		{name: "Torch.frexp", args: []framework.Arg{fv(1)}, err: "expected tensor, got float"},

		{name: "Torch.igamma", args: []framework.Arg{x, y}, op: "igamma", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1"}},
		{name: "Tensor.igamma_", args: []framework.Arg{x, y}, op: "igamma", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Tensor.igammac", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("other", y)}, op: "igammac", attrs: ops.Attrs{"inplace": ba(false)}},
		{name: "Tensor.igammac_", args: []framework.Arg{x, y}, op: "igammac", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.igammac", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("out", nv())}, op: "igammac"},
		{name: "Torch.igamma", args: []framework.Arg{x, iv(2)}, err: `argument "other": expected tensor, got int`},

		{name: "Torch.renorm", args: []framework.Arg{x, iv(2), iv(0), fv(5)}, op: "renorm",
			attrs: ops.Attrs{"p": fa(2), "dim": ia(0), "maxnorm": fa(5), "inplace": ba(false)}},
		{name: "Tensor.renorm_", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("p", fv(1.5)), kw("dim", iv(-1)), kw("maxnorm", iv(3))}, op: "renorm",
			attrs: ops.Attrs{"p": fa(1.5), "dim": ia(-1), "maxnorm": fa(3), "inplace": ba(true)}},
		{name: "Tensor.renorm", args: []framework.Arg{f32("args.0", 4), iv(2), iv(0), fv(5)}, err: "input needs at least 2 dimensions, got 1 dimensions"},
		{name: "Tensor.renorm", args: []framework.Arg{x, iv(2), iv(3), fv(5)}, err: "dimension out of range"},

		{name: "Torch.diagonal_scatter", args: []framework.Arg{x, f32("args.1", 3)}, op: "diagonal_scatter",
			attrs: ops.Attrs{"offset": ia(0), "dim1": ia(0), "dim2": ia(1)}, in: []string{"args.0", "args.1"}},
		{name: "Tensor.diagonal_scatter", args: []framework.Arg{x, f32("args.1", 2), iv(1), iv(-1), iv(-2)}, op: "diagonal_scatter",
			attrs: ops.Attrs{"offset": ia(1), "dim1": ia(-1), "dim2": ia(-2)}},
		{name: "Torch.diagonal_scatter", args: []framework.Arg{x, f32("args.1", 3), iv(0), iv(0), iv(2)}, err: "dimension out of range"},

		{name: "Tensor.slice_scatter", args: []framework.Arg{x, f32("args.1", 3, 2)}, kwargs: []framework.NamedArg{kw("dim", iv(1)), kw("start", iv(1)), kw("step", iv(2))},
			op: "slice_scatter", attrs: ops.Attrs{"dim": ia(1), "start": ia(1), "end": none, "step": ia(2)}},
		{name: "Torch.slice_scatter", args: []framework.Arg{x, y}, op: "slice_scatter", attrs: ops.Attrs{"dim": ia(0), "start": none, "end": none, "step": ia(1)}},
		{name: "Tensor.slice_scatter", args: []framework.Arg{x, y, iv(0), nv(), nv(), iv(0)}, err: "slice step must be positive"},
		{name: "Tensor.slice_scatter", args: []framework.Arg{f32("args.0"), f32("args.1")}, err: "0-dim"},

		{name: "Tensor.fill_diagonal_", args: []framework.Arg{x, fv(2.5)}, op: "fill_diagonal", attrs: ops.Attrs{"wrap": ba(false)}, in: []string{"args.0", "float:2.5"}},
		{name: "Tensor.fill_diagonal_", args: []framework.Arg{x, iv(1), bv(true)}, op: "fill_diagonal", attrs: ops.Attrs{"wrap": ba(true)}, in: []string{"args.0", "int:1"}},
		{name: "Tensor.fill_diagonal_", args: []framework.Arg{x, y}, err: "expected a number, got tensor"},

		{name: "Tensor.sum_to_size", args: []framework.Arg{x, iv(1), iv(4)}, op: "sum_to_size", attrs: ops.Attrs{"size": la(1, 4)}},
		{name: "Tensor.sum_to_size", args: []framework.Arg{x, szv(4)}, op: "sum_to_size", attrs: ops.Attrs{"size": la(4)}},
		{name: "Tensor.sum_to_size", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("size", ints(3, 1))}, op: "sum_to_size", attrs: ops.Attrs{"size": la(3, 1)}},
		{name: "Tensor.sum_to_size", args: []framework.Arg{x, iv(3)}, err: "size {[3]} is not expandable to size {[3, 4]}."},

		{name: "Torch._foreach_norm", args: []framework.Arg{lv(x, f64)}, op: "foreach_norm", attrs: ops.Attrs{"ord": fa(2)}, in: []string{"args.0", "args.1"}, multi: true},
		{name: "Torch._foreach_norm", args: []framework.Arg{lv(x), fv(3.5)}, op: "foreach_norm", attrs: ops.Attrs{"ord": fa(3.5)}, multi: true},
		{name: "Torch._foreach_norm", args: []framework.Arg{lv()}, err: "empty list"},
		{name: "Torch._foreach_norm", args: []framework.Arg{lv(i64("args.0", 2))}, err: "Expected a floating point"},

		{name: "Torch.norm_except_dim", args: []framework.Arg{x}, op: "norm", attrs: ops.Attrs{"p": fa(2), "dim": la(1), "keepdim": ba(true)}},
		{name: "Torch.norm_except_dim", args: []framework.Arg{f32("args.0", 2, 3, 4), iv(3), iv(1)}, op: "norm", attrs: ops.Attrs{"p": fa(3), "dim": la(0, 2), "keepdim": ba(true)}},
		{name: "Torch.norm_except_dim", args: []framework.Arg{x, iv(2), iv(-1)}, op: "norm", attrs: ops.Attrs{"p": fa(2), "dim": none, "keepdim": ba(false)}},
		{name: "Torch.norm_except_dim", args: []framework.Arg{x, iv(2), iv(-2)}, op: "norm", attrs: ops.Attrs{"dim": la(1), "keepdim": ba(true)}},
		{name: "Torch.norm_except_dim", args: []framework.Arg{i64("args.0", 2, 2)}, err: "Got Long instead"},
		{name: "Torch.norm_except_dim", args: []framework.Arg{x, iv(2), iv(5)}, err: "dimension out of range"},
		{name: "Torch.native_norm", args: []framework.Arg{x}, err: "has no lowering"},

		{name: "Torch.histogram", args: []framework.Arg{x, iv(4)}, op: "histogram",
			attrs: ops.Attrs{"bins": la(4), "range": none, "density": ba(false), "flat": ba(true)}, in: []string{"args.0", "none"}, multi: true},
		{name: "Tensor.histogram", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("range", lv(iv(0), fv(2.5))), kw("weight", y), kw("density", bv(true))}, op: "histogram",
			attrs: ops.Attrs{"bins": la(100), "range": ops.FloatsAttr(0, 2.5), "density": ba(true)}, in: []string{"args.0", "args.1"}, multi: true},
		{name: "Torch.histogram", args: []framework.Arg{x, f32("args.1", 5)}, op: "histogram_edges", attrs: ops.Attrs{"density": ba(false), "flat": ba(true)},
			in: []string{"args.0", "none", "args.1"}, multi: true},
		{name: "Torch.histogram", args: []framework.Arg{x, iv(3)}, kwargs: []framework.NamedArg{kw("range", lv(fv(1)))}, err: "expected 2 numbers"},
		{name: "Torch.histogramdd", args: []framework.Arg{x, iv(3)}, op: "histogram", attrs: ops.Attrs{"bins": la(3, 3, 3, 3), "flat": ba(false)}, multi: true},
		{name: "Torch.histogramdd", args: []framework.Arg{f32("args.0", 5, 2), ints(2, 3)}, kwargs: []framework.NamedArg{kw("range", lv(fv(0), fv(1), fv(0), fv(2)))}, op: "histogram",
			attrs: ops.Attrs{"bins": la(2, 3), "range": ops.FloatsAttr(0, 1, 0, 2)}, multi: true},
		{name: "Torch.histogramdd", args: []framework.Arg{f32("args.0", 5, 2), lv(f32("args.1.0", 3), f32("args.1.1", 4))}, op: "histogram_edges",
			in: []string{"args.0", "none", "args.1.0", "args.1.1"}, multi: true},
		{name: "Torch.histogramdd", args: []framework.Arg{f32("args.0", 5)}, err: "at least 2 dimensions"},
		{name: "Torch.histogramdd", args: []framework.Arg{f32("args.0", 5, 2), ints(2)}, err: "expected 2 sequences"},

		{name: "Tensor.resize_", args: []framework.Arg{x, iv(2), iv(3)}, op: "resize", attrs: ops.Attrs{"size": la(2, 3)}},
		{name: "Tensor.resize_", args: []framework.Arg{x, szv(12)}, kwargs: []framework.NamedArg{kw("memory_format", sv("torch.contiguous_format"))}, op: "resize", attrs: ops.Attrs{"size": la(12)}},
		{name: "Tensor.resize_", args: []framework.Arg{x, iv(3), iv(5)}, err: "uninitialised"},
		{name: "Tensor.resize_", args: []framework.Arg{x, iv(2)}, kwargs: []framework.NamedArg{kw("memory_format", sv("torch.channels_last"))}, err: "contiguous_format"},
		{name: "Torch.resize_as_", args: []framework.Arg{x, f32("args.1", 2, 2)}, op: "resize", attrs: ops.Attrs{"size": la(2, 2)}},
		{name: "Tensor.resize_as_", args: []framework.Arg{x, tn("args.1", tensor.Int64, 6)}, op: "resize", attrs: ops.Attrs{"size": la(6)}},
		{name: "Tensor.resize_as_", args: []framework.Arg{x, f32("args.1", 4, 4)}, err: "uninitialised"},

		{name: "Torch.choose_qparams_optimized", args: []framework.Arg{x, iv(12), iv(200), fv(0.16), iv(8)}, op: "choose_qparams_optimized",
			attrs: ops.Attrs{"numel": ia(12), "n_bins": ia(200), "ratio": fa(0.16), "bit_width": ia(8)}, multi: true},
		{name: "Torch.choose_qparams_optimized", kwargs: []framework.NamedArg{kw("input", x), kw("numel", iv(5)), kw("n_bins", iv(10)), kw("ratio", iv(0)), kw("bit_width", iv(4))},
			op: "choose_qparams_optimized", attrs: ops.Attrs{"ratio": fa(0)}, multi: true},
		{name: "Torch.choose_qparams_optimized", args: []framework.Arg{x, iv(13), iv(200), fv(0.16), iv(8)}, err: "numel 13 greater than input_tensor.numel() 12"},
		{name: "Torch.choose_qparams_optimized", args: []framework.Arg{x, iv(0), iv(200), fv(0.16), iv(8)}, err: "no element"},
		{name: "Torch.choose_qparams_optimized", args: []framework.Arg{x, iv(12), iv(200), fv(0.16)}, err: `missing required argument "bit_width"`},

		{name: "Torch.stft", args: []framework.Arg{f32("args.0", 64), iv(16)}, op: "stft", in: []string{"args.0", "none"},
			attrs: ops.Attrs{"n_fft": ia(16), "hop_length": none, "win_length": none, "center": ba(true), "pad_mode": sa("reflect"), "normalized": ba(false), "onesided": none}},
		{name: "Tensor.stft", args: []framework.Arg{f32("args.0", 2, 64), iv(16), iv(4)}, kwargs: []framework.NamedArg{kw("window", f32("kwargs.window", 16)), kw("center", bv(false)),
			kw("pad_mode", sv("constant")), kw("normalized", bv(true)), kw("onesided", bv(false)), kw("return_complex", bv(false))}, op: "stft", in: []string{"args.0", "kwargs.window"},
			attrs: ops.Attrs{"hop_length": ia(4), "center": ba(false), "pad_mode": sa("constant"), "normalized": ba(true), "onesided": ba(false)}},
		{name: "Torch.stft", args: []framework.Arg{f32("args.0", 64), iv(16)}, kwargs: []framework.NamedArg{kw("return_complex", bv(true))}, err: "complex tensor"},
		{name: "Torch.stft", args: []framework.Arg{f32("args.0", 64), iv(16)}, kwargs: []framework.NamedArg{kw("pad_mode", sv("wrap"))}, err: "unknown padding mode"},
		{name: "Torch.istft", args: []framework.Arg{f32("args.0", 9, 17, 2), iv(16)}, kwargs: []framework.NamedArg{kw("window", f32("kwargs.window", 16)), kw("length", iv(60))},
			op: "istft", in: []string{"args.0", "kwargs.window"}, attrs: ops.Attrs{"n_fft": ia(16), "length": ia(60), "onesided": none, "center": ba(true)}},
		{name: "Torch.istft", args: []framework.Arg{f32("args.0", 9, 17, 2), iv(16)}, kwargs: []framework.NamedArg{kw("return_complex", bv(true))}, err: "complex tensor"},
	}
}
