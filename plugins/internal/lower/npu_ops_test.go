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
		// npu_apply_adam: var, m, v from out=
		{name: "NPU.npu_apply_adam", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), f32("args.6", 3), nv(), bv(true)),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), op: "npu.apply_adam", multi: true,
			attrs: ops.Attrs{"use_nesterov": ba(true)},
			in:    []string{"kwargs.out.0", "kwargs.out.1", "kwargs.out.2", "args.6", "float:0.9", "float:0.999", "float:0.001", "float:0.9", "float:0.999", "float:1e-08"}},
		{name: "NPU.npu_apply_adam", args: a(tn("args.0", tensor.Float32), fv(0.999), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), f32("args.6", 3), nv(), nv()),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), op: "npu.apply_adam", multi: true,
			in: []string{"kwargs.out.0", "kwargs.out.1", "kwargs.out.2", "args.6", "args.0", "float:0.999", "float:0.001", "float:0.9", "float:0.999", "float:1e-08"}},
		{name: "NPU.npu_apply_adam", args: a(f32("args.0", 2), fv(0.999), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), f32("args.6", 3), nv(), nv()),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), err: "a Scalar tensor must have one element"},
		{name: "NPU.npu_apply_adam", args: a(fv(0.9), sv("x"), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), f32("args.6", 3), nv(), nv()),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), err: "expected a number, got str"},
		{name: "NPU.npu_apply_adam", args: a(fv(0.9), fv(0.999), iv(1), fv(0.9), fv(0.999), fv(1e-8)),
			kwargs: k(kw("grad", f32("g", 3)), kw("use_locking", bv(false)), kw("use_nesterov", bv(false)),
				kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))),
			op: "npu.apply_adam", multi: true, attrs: ops.Attrs{"use_nesterov": ba(false)},
			in: []string{"kwargs.out.0", "kwargs.out.1", "kwargs.out.2", "g", "float:0.9", "float:0.999", "int:1", "float:0.9", "float:0.999", "float:1e-08"}},
		{name: "NPU.npu_apply_adam", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), f32("args.6", 3), nv(), nv()),
			err: "a call without out= has no state to replay"},
		{name: "NPU.npu_apply_adam", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), f32("args.6", 3), nv(), nv()),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 4), f32("kwargs.out.2", 3)))), err: "does not match var's shape"},
		{name: "NPU.npu_apply_adam", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.9), fv(0.999), fv(1e-8), i64("args.6", 3), nv(), nv()),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), err: "supports float16"},
		// npu_apply_adam_w
		{name: "NPU.npu_apply_adam_w", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.01), fv(0.9), fv(0.999), fv(1e-8), f32("args.7", 3), f32("args.8", 3), bv(true), bv(false)),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), op: "npu.apply_adam_w", multi: true,
			attrs: ops.Attrs{"amsgrad": ba(true), "maximize": ba(false)},
			in: []string{"kwargs.out.0", "kwargs.out.1", "kwargs.out.2", "args.7", "args.8",
				"float:0.9", "float:0.999", "float:0.001", "float:0.01", "float:0.9", "float:0.999", "float:1e-08"}},
		{name: "NPU.npu_apply_adam_w", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.01), fv(0.9), fv(0.999)),
			kwargs: k(kw("epsilon", fv(1e-8)), kw("grad", f32("g", 3)), kw("maximize", bv(true)),
				kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))),
			op: "npu.apply_adam_w", multi: true, attrs: ops.Attrs{"amsgrad": ba(false), "maximize": ba(true)},
			in: []string{"kwargs.out.0", "kwargs.out.1", "kwargs.out.2", "g", "none",
				"float:0.9", "float:0.999", "float:0.001", "float:0.01", "float:0.9", "float:0.999", "float:1e-08"}},
		{name: "NPU.npu_apply_adam_w", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.01), fv(0.9), fv(0.999), fv(1e-8), f32("args.7", 3), nv(), bv(true), bv(false)),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), err: "amsgrad=True needs max_grad_norm"},
		{name: "NPU.npu_apply_adam_w", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.01), fv(0.9), fv(0.999)), compat: "msprobe",
			kwargs: k(kw("epsilon", fv(1e-8)), kw("grad", f32("g", 3)), kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))),
			err:    "npu_apply_adam_w() got an unexpected keyword argument 'epsilon'"},
		{name: "NPU.npu_apply_adam_w", args: a(fv(0.9), fv(0.999), fv(1e-3), fv(0.01), fv(0.9), fv(0.999), fv(1e-8), f32("args.7", 3), nv(), bv(false), bv(false)),
			kwargs: k(kw("out", lv(f32("kwargs.out.0", 3), f32("kwargs.out.1", 3), f32("kwargs.out.2", 3)))), compat: "msprobe", op: "npu.apply_adam_w", multi: true},
		// npu_group_norm_silu
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 3, 3), f32("args.1", 4), f32("args.2", 4), iv(2), fv(1e-5)), op: "npu.group_norm_silu", multi: true,
			attrs: ops.Attrs{"group": ia(2), "eps": fa(1e-5)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5), nv(), nv(), iv(4)), op: "npu.group_norm_silu", multi: true, attrs: ops.Attrs{"eps": fa(1e-5)},
			in: []string{"args.0", "none", "none"}},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5)), kwargs: k(kw("weight", nv()), kw("bias", f32("b", 4)), kw("group", iv(1)), kw("eps", fv(1e-6))),
			op: "npu.group_norm_silu", multi: true, attrs: ops.Attrs{"group": ia(1), "eps": fa(1e-6)}, in: []string{"args.0", "none", "b"}},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5), nv(), nv(), iv(3)), err: "must be divisible by group 3"},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5), f32("args.1", 5), nv(), iv(2)), err: "must have shape [4]"},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 4), nv(), nv(), iv(2)), err: "2 to 8 dimensions"},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5), nv(), nv(), iv(2), fv(1e-5)), compat: "msprobe", err: "for a 3-D input"},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5, 5), nv(), nv(), iv(2)), compat: "msprobe",
			err: "npu_group_norm_silu() missing 1 required positional argument: 'eps'"},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5, 5)), kwargs: k(kw("weight", nv()), kw("bias", nv()), kw("group", iv(2)), kw("eps", fv(1e-5))),
			compat: "msprobe", err: "got an unexpected keyword argument 'bias'"},
		{name: "NPU.npu_group_norm_silu", args: a(f32("args.0", 2, 4, 5, 5), nv(), nv(), iv(2), fv(1e-5)), compat: "msprobe", op: "npu.group_norm_silu", multi: true},
		// npu_moe_gating_top_k_softmax
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 6, 8), tn("args.1", tensor.Bool, 6), iv(2)), op: "npu.moe_gating_top_k_softmax", multi: true,
			attrs: ops.Attrs{"k": ia(2)}, in: []string{"args.0", "args.1"}},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 2, 3, 8)), op: "npu.moe_gating_top_k_softmax", multi: true, attrs: ops.Attrs{"k": ia(1)}, in: []string{"args.0", "none"}},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 2, 3, 8)), kwargs: k(kw("finished", tn("f", tensor.Bool, 2, 3)), kw("k", iv(8))),
			op: "npu.moe_gating_top_k_softmax", multi: true, attrs: ops.Attrs{"k": ia(8)}, in: []string{"args.0", "f"}},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 6, 8), nv(), iv(9)), err: "k must be in [1, min(8, 1024)]"},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 6, 8), tn("args.1", tensor.Bool, 6, 1), iv(2)), err: "finished must be a bool tensor of shape [6]"},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 8)), err: "x must be 2-D or 3-D"},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 6, 8)), kwargs: k(kw("k", iv(2))), compat: "msprobe",
			err: "npu_moe_gating_top_k_softmax() missing 1 required positional argument: 'finished_optional'"},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 6, 8)), kwargs: k(kw("finished", nv()), kw("k", iv(2))), compat: "msprobe",
			err: "got an unexpected keyword argument 'finished'"},
		{name: "NPU.npu_moe_gating_top_k_softmax", args: a(f32("args.0", 6, 8), nv(), iv(2)), compat: "msprobe", op: "npu.moe_gating_top_k_softmax", multi: true},
		// npu_sort_v2
		{name: "NPU.npu_sort_v2", args: a(x), op: "npu.sort_v2", attrs: ops.Attrs{"dim": ia(-1), "descending": ba(false)}, in: []string{"args.0"}},
		{name: "NPU.npu_sort_v2", args: a(x, iv(1), bv(true)), op: "npu.sort_v2", attrs: ops.Attrs{"dim": ia(1), "descending": ba(true)}},
		{name: "NPU.npu_sort_v2", args: a(x), kwargs: k(kw("descending", bv(true))), op: "npu.sort_v2", attrs: ops.Attrs{"descending": ba(true)}},
		{name: "NPU.npu_sort_v2", args: a(x, iv(4)), err: "dimension out of range"},
		{name: "NPU.npu_sort_v2", args: a(i64("args.0", 4)), err: "supports float16"},
	}
}
