package pytorch

import (
	"reflect"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// run_ut's fixed black list (pytorch-precheck §3.5) is the plugin's: those
// APIs are SKIP with msprobe's message whatever the user's lists say.
func TestAlwaysBlackListed(t *testing.T) {
	x := tn("args.0", tensor.Float32, 2)
	for _, api := range []string{"Tensor.to.0", "Torch.empty_like.3", "Tensor.new_empty_strided.1", "NPU.empty_with_format.0"} {
		resp := plan(t, &framework.PlanRequest{API: api, Args: []framework.Arg{x}})
		_, short, _ := splitName(api)
		if want := "API " + short + " in black list or not in white list. SKIP."; resp.Skip != want {
			t.Errorf("%s: skip %q, want %q", api, resp.Skip, want)
		}
	}
}

// The rules msprobe applies beyond the lowering travel in the plan: the
// tensors dumped with requires_grad take gradients, every tensor of the
// positional arguments (lists included) is a gradient row, dropout is
// judged by its zero share.
func TestGradientRules(t *testing.T) {
	a := tn("args.0", tensor.Float32, 2, 3)
	a.RequiresGrad = true
	p := plan(t, &framework.PlanRequest{API: "Torch.cat.0", Args: []framework.Arg{{Kind: framework.ArgList, Path: "args.0", Elems: []framework.Arg{
		{Kind: framework.ArgTensor, Path: "args.0.0", DType: tensor.Float32, DTypeName: "torch.float32", Shape: []int{2}, RequiresGrad: true},
		{Kind: framework.ArgTensor, Path: "args.0.1", DType: tensor.Float32, DTypeName: "torch.float32", Shape: []int{2}}}}}}).Plan
	if !slices.Equal(p.GradRows, []string{"args.0.0", "args.0.1"}) {
		t.Errorf("cat grad rows %v", p.GradRows)
	}
	if !p.Inputs[0].RequiresGrad || p.Inputs[1].RequiresGrad {
		t.Errorf("cat requires_grad %+v", p.Inputs)
	}
	p = plan(t, &framework.PlanRequest{API: "Tensor.__mul__.0", Args: []framework.Arg{a, tn("args.1", tensor.Float32, 2, 3)}}).Plan
	if !slices.Equal(p.GradRows, []string{"args.0", "args.1"}) || !p.Inputs[0].RequiresGrad || p.Inputs[1].RequiresGrad {
		t.Errorf("mul: rows %v inputs %+v", p.GradRows, p.Inputs)
	}
	if p.CompareMode != framework.CompareStandard || p.Bench != nil || p.Generator != framework.GenProbe {
		t.Errorf("mul: compare %v bench %+v generator %v", p.CompareMode, p.Bench, p.Generator)
	}
	p = plan(t, &framework.PlanRequest{API: "Functional.dropout.0", Args: []framework.Arg{a}}).Plan
	if p.CompareMode != framework.CompareZeroShare {
		t.Errorf("dropout compare mode %v", p.CompareMode)
	}
}

// run_ut's type conversions (§4.1): the cross_entropy target's Min is
// raised to 0 and int32 inputs become int64; histc turns int64 inputs and
// an integer first argument into float32; the request is never modified.
func TestConversions(t *testing.T) {
	x := tn("args.0", tensor.Float32, 4, 3)
	target := tn("args.1", tensor.Int32, 4)
	req := &framework.PlanRequest{API: "Functional.cross_entropy.0", Args: []framework.Arg{x, target}}
	p := plan(t, req).Plan
	want := []framework.TensorRewrite{{Path: "args.1", DType: tensor.Int64, HasMin: true, MinAtLeast: 0}}
	if !reflect.DeepEqual(p.Rewrites, want) {
		t.Errorf("cross_entropy rewrites %+v, want %+v", p.Rewrites, want)
	}
	if req.Args[1].DType != tensor.Int32 {
		t.Error("the request was modified")
	}
	p = plan(t, &framework.PlanRequest{API: "Functional.cross_entropy.1", Args: []framework.Arg{x, tn("args.1", tensor.Int64, 4)}}).Plan
	if want := []framework.TensorRewrite{{Path: "args.1", HasMin: true}}; !reflect.DeepEqual(p.Rewrites, want) {
		t.Errorf("int64 target rewrites %+v", p.Rewrites)
	}
	if p := plan(t, &framework.PlanRequest{API: "Functional.linear.0", Args: []framework.Arg{x, tn("args.1", tensor.Float32, 2, 3)}}).Plan; p.Rewrites != nil {
		t.Errorf("linear rewrites %+v", p.Rewrites)
	}

	for _, dt := range []tensor.DType{tensor.Int8, tensor.Int32, tensor.Int64} {
		in := &framework.PlanRequest{API: "Torch.histc.0", Args: []framework.Arg{tn("args.0", dt, 5)}}
		got, rw := convert("histc", in)
		if got.Args[0].DType != tensor.Float32 || got.Args[0].DTypeName != "torch.float32" || len(rw) != 1 || rw[0] != (framework.TensorRewrite{Path: "args.0", DType: tensor.Float32}) {
			t.Errorf("histc %v: %+v %+v", dt, got.Args[0], rw)
		}
		if in.Args[0].DType != dt {
			t.Error("the request was modified")
		}
	}
	// A second int64 input (here in a kwarg list) is converted too; int32
	// elsewhere is not.
	in := &framework.PlanRequest{API: "Torch.histc.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{{Name: "l", Arg: framework.Arg{Kind: framework.ArgList, Path: "kwargs.l",
		Elems: []framework.Arg{tn("kwargs.l.0", tensor.Int64, 2), tn("kwargs.l.1", tensor.Int32, 2)}}}}}
	got, rw := convert("histc", in)
	if got.Kwargs[0].Arg.Elems[0].DType != tensor.Float32 || got.Kwargs[0].Arg.Elems[1].DType != tensor.Int32 ||
		!reflect.DeepEqual(rw, []framework.TensorRewrite{{Path: "kwargs.l.0", DType: tensor.Float32}}) {
		t.Errorf("kwargs: %+v %+v", got.Kwargs, rw)
	}
	if in.Kwargs[0].Arg.Elems[0].DType != tensor.Int64 {
		t.Error("the request's kwargs were modified")
	}
	if same, rw := convert("gelu", in); same != in || rw != nil {
		t.Error("gelu converted")
	}
}

// §4.6: with sparse_mode 2-4 a bool atten_mask keyword is the causal mask
// when the dump has no data for it; other modes use the normal rule.
func TestCausalMaskRule(t *testing.T) {
	q := tn("args.0", tensor.Float16, 2, 4, 64)
	mk := func(mode int64) *framework.Plan {
		return plan(t, &framework.PlanRequest{API: "NPU.npu_fusion_attention.0", Args: []framework.Arg{q, tn("args.1", tensor.Float16, 2, 4, 64), tn("args.2", tensor.Float16, 2, 4, 64), iv(1), sv("BSH")},
			Kwargs: []framework.NamedArg{{Name: "atten_mask", Arg: tn("kwargs.atten_mask", tensor.Bool, 2048, 2048)}, {Name: "sparse_mode", Arg: iv(mode)}}}).Plan
	}
	for mode, want := range map[int64]framework.Synthetic{0: framework.SynthNone, 2: framework.SynthCausalMask, 3: framework.SynthCausalMask, 4: framework.SynthCausalMask, 5: framework.SynthNone} {
		p := mk(mode)
		if p == nil {
			t.Fatalf("sparse_mode %d skipped", mode)
		}
		got := framework.SynthNone
		for _, b := range p.Inputs {
			if b.Path == "kwargs.atten_mask" {
				got = b.Synthetic
			}
		}
		if got != want {
			t.Errorf("sparse_mode %d: synthetic %v, want %v", mode, got, want)
		}
	}
}

// --compat msprobe plans msprobe's bench precisions (§4.7); by default the
// plan leaves the bench to probe's float64 policy.
func TestCompatBench(t *testing.T) {
	f16, f32, f64 := tensor.Float16, tensor.Float32, tensor.Float64
	req := &framework.PlanRequest{API: "Functional.conv2d.0", Args: []framework.Arg{tn("args.0", f32, 1, 3, 8, 8), tn("args.1", f32, 4, 3, 3, 3)}, Compat: "msprobe"}
	p := plan(t, req).Plan
	if _, raised := p.Bench.Inputs[f32]; raised || p.Bench.Grads[f16] != f32 {
		t.Errorf("conv2d compat bench %+v", p.Bench)
	}
	req.Compat = ""
	if p := plan(t, req).Plan; p.Bench != nil {
		t.Errorf("default bench %+v", p.Bench)
	}
	req = &framework.PlanRequest{API: "Torch.add.0", Args: []framework.Arg{tn("args.0", f32, 2), tn("args.1", f16, 2)}, Compat: "msprobe"}
	if p := plan(t, req).Plan; p.Bench.Inputs[f16] != f32 || p.Bench.Inputs[f32] != f32 || p.Bench.Grads[f32] != f64 {
		t.Errorf("mixed compat bench %+v", p.Bench)
	}
}

// --compat msprobe gives the bench of the fused ops whose msprobe reference
// differs from torch_npu's formula semantics "msprobe" (fused-ops.md §17
// #13, #16, #17, #18, and the aten record of §10); the device keeps the official semantics, and so does the
// bench of every other op and of a default run.
func TestCompatBenchSemantics(t *testing.T) {
	f32 := tensor.Float32
	x := tn("args.0", f32, 4, 8)
	mask := tn("args.1", tensor.Bool, 4, 8)
	ia := func(v []int64) framework.Arg {
		return framework.Arg{Kind: framework.ArgList, Elems: []framework.Arg{{Kind: framework.ArgInt, Int: v[0]}}}
	}
	fa := func(v float64) framework.Arg { return framework.Arg{Kind: framework.ArgFloat, Float: v} }
	ba := func(v bool) framework.Arg { return framework.Arg{Kind: framework.ArgBool, Bool: v} }
	calls := []struct {
		req  *framework.PlanRequest
		want string // "" for no bench attribute
	}{
		{&framework.PlanRequest{API: "NPU.npu_swiglu.0", Args: []framework.Arg{x}}, "msprobe"},
		{&framework.PlanRequest{API: "NPU.npu_layer_norm_eval.0", Args: []framework.Arg{x, ia([]int64{8})}}, "msprobe"},
		{&framework.PlanRequest{API: "NPU.npu_scaled_masked_softmax.0", Args: []framework.Arg{x, mask, fa(0.5), ba(false)}}, "msprobe"},
		{&framework.PlanRequest{API: "NPU.npu_moe_gating_top_k_softmax.0", Args: []framework.Arg{x, {Kind: framework.ArgNone}, {Kind: framework.ArgInt, Int: 2}}}, "msprobe"},
		{&framework.PlanRequest{API: "Aten.npu_scaled_masked_softmax_backward.0", Args: []framework.Arg{x, x, mask, fa(0.5), ba(false)}}, "msprobe"},
		{&framework.PlanRequest{API: "NPU.npu_fast_gelu.0", Args: []framework.Arg{x}}, ""},
		{&framework.PlanRequest{API: "Functional.silu.0", Args: []framework.Arg{x}}, ""},
	}
	for _, c := range calls {
		c.req.Compat = "msprobe"
		resp := plan(t, c.req)
		if resp.Plan == nil {
			t.Fatalf("%s: skipped: %s", c.req.API, resp.Skip)
		}
		p := resp.Plan
		if got := p.Bench.Attrs["semantics"].String; got != c.want {
			t.Errorf("%s: compat bench semantics %q, want %q", c.req.API, got, c.want)
		}
		if s, ok := p.Attrs["semantics"]; ok && s.String != "official" {
			t.Errorf("%s: the device's semantics %q, want official", c.req.API, s.String)
		}
		c.req.Compat = ""
		if p := plan(t, c.req).Plan; p.Bench != nil {
			t.Errorf("%s: default bench %+v", c.req.API, p.Bench)
		}
	}
}
