package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestNPUOps(t *testing.T) { runCases(t, npuOpsCases(), nil) }

func npuOpsCases() []lcase {
	a := func(args ...framework.Arg) []framework.Arg { return args }
	k := func(kws ...framework.NamedArg) []framework.NamedArg { return kws }
	x := f32("args.0", 2, 3, 4, 8)
	mask := tn("args.1", tensor.Bool, 2, 1, 4, 8)
	return []lcase{
		// npu_swiglu
		{name: "NPU.npu_swiglu", args: a(x), op: "npu.swiglu", attrs: ops.Attrs{"dim": ia(-1)}, in: []string{"args.0"}},
		{name: "NPU.npu_swiglu", args: a(x, iv(2)), op: "npu.swiglu", attrs: ops.Attrs{"dim": ia(2)}},
		{name: "NPU.npu_swiglu", args: a(x), kwargs: k(kw("dim", iv(0))), op: "npu.swiglu", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "NPU.npu_swiglu", args: a(x, iv(1)), err: "must be even"},
		{name: "NPU.npu_swiglu", args: a(x, iv(4)), err: "dimension out of range"},
		{name: "NPU.npu_swiglu", args: a(i64("args.0", 4)), err: "supports float16, bfloat16 and float32"},
		// npu_rotary_mul
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 1, 4, 8), f32("args.2", 1, 1, 4, 8)), op: "npu.rotary_mul",
			attrs: ops.Attrs{"rotary_mode": sa("half")}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 2, 1, 1, 8), f32("args.2", 2, 1, 1, 8)), kwargs: k(kw("rotary_mode", sv("interleave"))),
			op: "npu.rotary_mul", attrs: ops.Attrs{"rotary_mode": sa("interleave")}},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 1, 4, 8)), kwargs: k(kw("r2", f32("r2", 1, 1, 4, 8))), op: "npu.rotary_mul",
			in: []string{"args.0", "args.1", "r2"}},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 1, 4, 8), f32("args.2", 1, 1, 4, 8), sv("spiral")), err: "rotary_mode must be"},
		{name: "NPU.npu_rotary_mul", args: a(f32("args.0", 2, 3), f32("args.1", 3), f32("args.2", 3)), err: "must be even"},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 2, 4, 8), f32("args.2", 1, 1, 4, 8)), err: "does not broadcast"},
		// npu_fast_gelu, fast_gelu, npu_mish
		{name: "NPU.npu_fast_gelu", args: a(x), op: "npu.fast_gelu", in: []string{"args.0"}},
		{name: "NPU.fast_gelu", args: a(x), op: "npu.fast_gelu"},
		{name: "NPU.npu_fast_gelu", args: a(i64("args.0", 3)), err: "supports float16"},
		{name: "NPU.npu_mish", args: a(x), op: "npu.mish"},
		{name: "NPU.npu_mish", kwargs: k(kw("self", x)), op: "npu.mish"},
		// npu_scaled_masked_softmax
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, mask), op: "npu.scaled_masked_softmax",
			attrs: ops.Attrs{"scale": fa(1), "fixed_triu_mask": ba(false)}, in: []string{"args.0", "args.1"}},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, mask, fv(0.125), bv(true)), op: "npu.scaled_masked_softmax",
			attrs: ops.Attrs{"scale": fa(0.125), "fixed_triu_mask": ba(true)}},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, mask), kwargs: k(kw("scale", iv(2))), op: "npu.scaled_masked_softmax", attrs: ops.Attrs{"scale": fa(2)}},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, f32("args.1", 2, 1, 4, 8)), err: "mask must be a bool tensor"},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, tn("args.1", tensor.Bool, 2, 4, 8)), err: "does not broadcast"},
		// npu_confusion_transpose
		{name: "NPU.npu_confusion_transpose", args: a(f32("args.0", 2, 3, 4), ints(0, 2, 1), ints(2, 12), bv(true)), op: "npu.confusion_transpose",
			attrs: ops.Attrs{"perm": ops.IntsAttr(0, 2, 1), "shape": ops.IntsAttr(2, 12), "transpose_first": ba(true)}},
		{name: "NPU.npu_confusion_transpose", args: a(f32("args.0", 2, 12)), kwargs: k(kw("perm", ints(0, 2, 1)), kw("shape", szv(2, 3, 4)), kw("transpose_first", bv(false))),
			op: "npu.confusion_transpose", attrs: ops.Attrs{"perm": ops.IntsAttr(0, 2, 1), "shape": ops.IntsAttr(2, 3, 4), "transpose_first": ba(false)}},
		{name: "NPU.npu_confusion_transpose", args: a(f32("args.0", 2, 12), ints(0, 2, 1), ints(2, 3, 4)), err: `missing required argument "transpose_first"`},
		// npu_linear
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 8)), op: "npu.linear", in: []string{"args.0", "args.1", "none"}},
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 8), f32("args.2", 5)), op: "npu.linear", in: []string{"args.0", "args.1", "args.2"}},
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 8)), kwargs: k(kw("bias", f32("b", 5))), op: "npu.linear", in: []string{"args.0", "args.1", "b"}},
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 7)), err: "do not match"},
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 8), f32("args.2", 4)), err: "does not match weight's 5"},
		// --compat msprobe: calls msprobe's reference functions cannot take
		{name: "NPU.fast_gelu", args: a(x), compat: "msprobe", err: "There is not bench function fast_gelu"},
		{name: "NPU.npu_fast_gelu", args: a(x), compat: "msprobe", op: "npu.fast_gelu"},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 1, 4, 8), f32("args.2", 1, 1, 4, 8), sv("half")), compat: "msprobe",
			err: "npu_rotary_mul() takes 3 positional arguments but 4 were given"},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 1, 4, 8), f32("args.2", 1, 1, 4, 8)), kwargs: k(kw("rotary_mode", sv("half"))), compat: "msprobe",
			err: "npu_rotary_mul() got an unexpected keyword argument 'rotary_mode'"},
		{name: "NPU.npu_rotary_mul", args: a(x, f32("args.1", 1, 1, 4, 8), f32("args.2", 1, 1, 4, 8)), compat: "msprobe", op: "npu.rotary_mul"},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, mask), compat: "msprobe",
			err: "npu_scaled_masked_softmax() missing 2 required positional arguments: 'scale' and 'fixed_triu_mask'"},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, mask, fv(0.5)), compat: "msprobe",
			err: "npu_scaled_masked_softmax() missing 1 required positional argument: 'fixed_triu_mask'"},
		{name: "NPU.npu_scaled_masked_softmax", args: a(x, mask), kwargs: k(kw("fixed_triu_mask", bv(false)), kw("scale", fv(0.5))), compat: "msprobe",
			op: "npu.scaled_masked_softmax"},
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 8)), compat: "msprobe", err: "npu_linear() missing 1 required positional argument: 'bias'"},
		{name: "NPU.npu_linear", args: a(f32("args.0", 4, 8), f32("args.1", 5, 8), nv()), compat: "msprobe", op: "npu.linear"},
		// npu_layer_norm_eval
		{name: "NPU.npu_layer_norm_eval", args: a(x, ints(8)), op: "npu.layer_norm_eval",
			attrs: ops.Attrs{"normalized_shape": ops.IntsAttr(8), "eps": fa(1e-5)}, in: []string{"args.0", "none", "none"}},
		{name: "NPU.npu_layer_norm_eval", args: a(x, ints(4, 8), f32("w", 4, 8), f32("b", 4, 8), fv(1e-6)), op: "npu.layer_norm_eval",
			attrs: ops.Attrs{"normalized_shape": ops.IntsAttr(4, 8), "eps": fa(1e-6)}, in: []string{"args.0", "w", "b"}},
		{name: "NPU.npu_layer_norm_eval", args: a(x, iv(8)), kwargs: k(kw("bias", f32("b", 8))), op: "npu.layer_norm_eval", in: []string{"args.0", "none", "b"}},
		{name: "NPU.npu_layer_norm_eval", args: a(x, ints(4)), err: "expected input with shape [*, 4]"},
		{name: "NPU.npu_layer_norm_eval", args: a(x, ints(8), f32("w", 4)), err: "must have normalized_shape"},
	}
}
