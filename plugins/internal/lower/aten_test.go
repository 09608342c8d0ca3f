package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestAten(t *testing.T) { runCases(t, atenCases(), nil) }

func bools(v ...bool) framework.Arg {
	a := framework.Arg{Kind: framework.ArgList}
	for _, x := range v {
		a.Elems = append(a.Elems, framework.Arg{Kind: framework.ArgBool, Bool: x})
	}
	return a
}

func atenCases() []lcase {
	g, x, y := f32("args.0", 2, 3, 5), f32("args.1", 2, 3, 4), f32("args.2", 4, 5)
	bq := []framework.Arg{f32("args.0", 1, 2, 3, 4), f32("args.1", 1, 2, 5, 4), f32("args.2", 1, 2, 5, 4), f32("args.3", 1, 2, 3, 4), iv(2), sv("BNSD")}
	return []lcase{
		{name: "Aten.matmul_backward", args: []framework.Arg{g, x, y, bools(true, true)}, op: "matmul_backward", multi: true,
			attrs: ops.Attrs{"output_mask": ops.IntsAttr(1, 1)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Aten.matmul_backward", args: []framework.Arg{g, x, y, bools(false, true)}, op: "matmul_backward", multi: true,
			attrs: ops.Attrs{"output_mask": ops.IntsAttr(0, 1)}},
		{name: "Aten.matmul_backward", args: []framework.Arg{g, x, y, bools(false, false)}, err: "both gradients are masked off"},
		{name: "Aten.matmul_backward", args: []framework.Arg{g, x, y, iv(1)}, err: `argument "mask": expected a list of two bools`},
		{name: "Aten.matmul_backward", args: []framework.Arg{g, tn("args.1", tensor.Int64, 2, 3, 4), y, bools(true, true)}, err: "expected a floating tensor"},
		{name: "Aten.npu_fusion_attention_grad", args: bq, kwargs: []framework.NamedArg{kw("scale_value", fv(0.5)), kw("sparse_mode", iv(3))},
			op: "npu.fusion_attention_grad", multi: true,
			attrs: ops.Attrs{"scale": fa(0.5), "sparse_mode": ia(3), "semantics": sa("official")},
			in:    []string{"args.0", "args.1", "args.2", "args.3", "none", "none"}},
		{name: "Aten.npu_fusion_attention_grad", args: bq, kwargs: []framework.NamedArg{kw("pse", f32("kwargs.pse", 1, 2, 3, 5))},
			op: "npu.fusion_attention_grad", multi: true, attrs: ops.Attrs{"scale": fa(1)},
			in: []string{"args.0", "args.1", "args.2", "args.3", "kwargs.pse", "none"}},
		{name: "Aten.npu_fusion_attention_grad", args: bq, compat: "msprobe", op: "npu.fusion_attention_grad", multi: true,
			attrs: ops.Attrs{"scale": fa(0.5), "semantics": sa("msprobe")}},
		{name: "Aten.npu_fusion_attention_grad", args: bq[:4], err: `missing required argument "head_num"`},
		{name: "Aten.npu_fast_gelu_backward", args: []framework.Arg{f32("args.0", 2, 3), f32("args.1", 2, 3)}, op: "npu.fast_gelu_backward",
			in: []string{"args.0", "args.1"}},
		{name: "Aten.npu_fast_gelu_backward", args: []framework.Arg{i64("args.0", 2, 3), f32("args.1", 2, 3)}, err: `argument "grad": expected a floating tensor`},
		{name: "Aten.npu_swiglu_backward", args: []framework.Arg{f32("args.0", 2, 3), f32("args.1", 2, 6)}, op: "npu.swiglu_backward",
			attrs: ops.Attrs{"dim": ia(-1)}, in: []string{"args.0", "args.1"}},
		{name: "Aten.npu_swiglu_backward", args: []framework.Arg{f32("args.0", 2, 3), f32("args.1", 2, 5)}, err: "must be even"},
		{name: "Aten.npu_rotary_mul_backward", args: []framework.Arg{f32("args.0", 2, 3, 2, 4), f32("args.1", 2, 3, 2, 4), f32("args.2", 1, 3, 1, 4), f32("args.3", 1, 3, 1, 4)},
			op: "npu.rotary_mul_backward", multi: true, attrs: ops.Attrs{"rotary_mode": sa("half")}, in: []string{"args.0", "args.1", "args.2", "args.3"}},
		{name: "Aten.npu_linear_backward", args: []framework.Arg{f32("args.0", 3, 4), f32("args.1", 3, 5), f32("args.2", 4, 5)},
			op: "npu.linear_backward", multi: true, in: []string{"args.0", "args.1", "args.2"}},
		// msprobe's npu_linear_backward(grad, input, weight) takes no bias: the
		// forward's --compat msprobe quirk (a missing bias) does not apply
		{name: "Aten.npu_linear_backward", args: []framework.Arg{f32("args.0", 3, 4), f32("args.1", 3, 5), f32("args.2", 4, 5)}, compat: "msprobe",
			op: "npu.linear_backward", multi: true},
		{name: "Aten.npu_scaled_masked_softmax_backward", args: []framework.Arg{f32("args.0", 2, 3, 5), f32("args.1", 2, 3, 5), tn("args.2", tensor.Bool, 2, 3, 5), fv(0.5), bv(false)},
			op: "npu.scaled_masked_softmax_backward", attrs: ops.Attrs{"scale": fa(0.5), "fixed_triu_mask": ba(false)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Aten.npu_rms_norm_backward", args: []framework.Arg{f32("args.0", 3, 4), f32("args.1", 3, 4), f32("args.2", 4), f32("args.3", 3, 1)},
			op: "npu.rms_norm_backward", multi: true, attrs: ops.Attrs{"reduce_dgamma": ba(true)}, in: []string{"args.0", "args.1", "args.2", "args.3"}},
		{name: "Aten.npu_rms_norm_backward", args: []framework.Arg{f32("args.0", 3, 4), f32("args.1", 3, 4), f32("args.2", 4), f32("args.3", 3, 1)}, compat: "msprobe",
			op: "npu.rms_norm_backward", multi: true, attrs: ops.Attrs{"reduce_dgamma": ba(false)}},
		{name: "Aten.npu_rms_norm_backward", args: []framework.Arg{f32("args.0", 3, 4), f32("args.1", 3, 4), f32("args.2", 3), f32("args.3", 3, 1)}, err: "trailing dimensions"},
		// fused-ops.md §3: the backward of reshape-then-permute... of x (2,3,2), perm (0,2,1), shape (2,6)
		{name: "Aten.npu_confusion_transpose_backward", args: []framework.Arg{f32("args.0", 2, 6), ints(0, 2, 1), ints(2, 3, 2), bv(false)},
			op: "npu.confusion_transpose", attrs: ops.Attrs{"perm": ops.IntsAttr(0, 2, 1), "shape": ops.IntsAttr(2, 2, 3), "transpose_first": ba(false)}},
		{name: "Aten.npu_confusion_transpose_backward", args: []framework.Arg{f32("args.0", 3, 2), ints(1, 0), ints(2, 3), bv(true)},
			op: "npu.confusion_transpose", attrs: ops.Attrs{"perm": ops.IntsAttr(1, 0), "shape": ops.IntsAttr(2, 3), "transpose_first": ba(true)}},
		{name: "Aten.npu_confusion_transpose_backward", args: []framework.Arg{f32("args.0", 2, 6), ints(0, 0, 1), ints(2, 3, 2), bv(false)}, err: "is not a permutation"},
		{name: "Aten.npu_confusion_transpose_backward", args: []framework.Arg{f32("args.0", 2, 6), ints(0, 2, 1), ints(2, 3, 3), bv(false)}, err: "has 18 elements"},
		{name: "Aten.npu_fusion_attention_grad", args: append(append([]framework.Arg{}, bq[:3]...), i64("args.3", 1, 2, 3, 4), iv(2), sv("BNSD")),
			err: `argument "dy": expected a floating tensor`},
	}
}
