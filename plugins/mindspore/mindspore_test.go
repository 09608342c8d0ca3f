package mindspore

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/internal/fixtures"
	"github.com/probe-dev/probe/plugins/internal/lower"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func tn(path string, d tensor.DType, shape ...int) framework.Arg {
	return framework.Arg{Kind: framework.ArgTensor, Path: path, DType: d, DTypeName: d.MindSporeName(), Shape: shape}
}
func f32(path string, shape ...int) framework.Arg { return tn(path, tensor.Float32, shape...) }
func iv(v int64) framework.Arg                    { return framework.Arg{Kind: framework.ArgInt, Int: v} }
func bv(v bool) framework.Arg                     { return framework.Arg{Kind: framework.ArgBool, Bool: v} }
func kw(name string, a framework.Arg) framework.NamedArg {
	return framework.NamedArg{Name: name, Arg: a}
}

func plan(t *testing.T, req *framework.PlanRequest) *framework.PlanResponse {
	t.Helper()
	resp, err := New().Plan(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: Plan returned an error: %v", req.API, err)
	}
	if (resp.Plan == nil) == (resp.Skip == "") {
		t.Fatalf("%s: want exactly one of plan and skip, got %+v", req.API, resp)
	}
	if resp.Plan != nil {
		if err := lower.CheckPlan(resp.Plan); err != nil {
			t.Fatalf("%s: plan fails the schema: %v", req.API, err)
		}
		if resp.Plan.Precision.HF32 {
			t.Fatalf("%s: MindSpore plans never ask for HF32", req.API)
		}
	}
	return resp
}

func TestDescribe(t *testing.T) {
	info, err := New().Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "mindspore" || info.Version != "0.1.0" {
		t.Fatalf("info %+v", info)
	}
	for _, api := range []string{"Mint.add", "Mint.chunk", "MintFunctional.relu", "MintFunctional.softmax", "Tensor.view", "Tensor.add_", "Tensor.transpose",
		"Functional.flash_attention_score", "Functional.rms_norm", "Functional.swiglu", "Functional.rotary_position_embedding"} {
		if !slices.Contains(info.APIs, api) {
			t.Errorf("APIs lacks %s", api)
		}
	}
	for _, api := range info.APIs {
		if name, ok := strings.CutPrefix(api, "Tensor."); ok && !checkerTensorAPIs[name] {
			t.Errorf("APIs lists %s, which msprobe does not check in MindSpore mode", api)
		}
	}
	for _, op := range info.Ops {
		npuOK := map[string]bool{"npu.fusion_attention": true, "npu.rms_norm": true, "npu.swiglu": true, "npu.rotary_mul": true}
		if _, ok := ops.Lookup(op); !ok || (strings.HasPrefix(op, "npu.") && !npuOK[op]) {
			t.Errorf("op %s", op)
		}
	}
	if !slices.Contains(info.Ops, "npu.fusion_attention") {
		t.Error("ops lack npu.fusion_attention")
	}
	if len(checkerTensorAPIs) != 59 {
		t.Errorf("checker_support_api.yaml has 59 names, got %d", len(checkerTensorAPIs))
	}
}

type mcase struct {
	req     framework.PlanRequest
	op      string
	attrs   ops.Attrs
	in      []string
	compare []int
	msg     string
	grads   []int  // GradOutputs
	skip    string // expected skip substring
}

func TestPlans(t *testing.T) {
	x := f32("args.0", 2, 3)
	for _, c := range []mcase{
		{req: framework.PlanRequest{API: "Mint.add.0", Args: []framework.Arg{x, f32("args.1", 2, 3)}, Kwargs: []framework.NamedArg{kw("alpha", iv(2))}},
			op: "add", attrs: ops.Attrs{"alpha": ops.FloatAttr(2)}, in: []string{"args.0", "args.1"}},
		{req: framework.PlanRequest{API: "Mint.sum.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("dim", iv(1)), kw("dtype", framework.Arg{Kind: framework.ArgDType, Str: "Float64"})}},
			op: "sum", attrs: ops.Attrs{"dim": ops.IntsAttr(1), "dtype": ops.StringAttr("float64")}},
		{req: framework.PlanRequest{API: "Mint.cumsum.0", Args: []framework.Arg{x, iv(0)}, Kwargs: []framework.NamedArg{kw("dtype", framework.Arg{Kind: framework.ArgDType, Str: "BFloat16"})}},
			op: "cumsum", attrs: ops.Attrs{"dtype": ops.StringAttr("bfloat16")}},
		{req: framework.PlanRequest{API: "Tensor.mean.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("axis", iv(-1)), kw("keep_dims", bv(true))}},
			op: "mean", attrs: ops.Attrs{"dim": ops.IntsAttr(-1), "keepdim": ops.BoolAttr(true)}},
		{req: framework.PlanRequest{API: "Tensor.mean.1", Args: []framework.Arg{x, iv(1), bv(true)}},
			op: "mean", attrs: ops.Attrs{"dim": ops.IntsAttr(1), "keepdim": ops.BoolAttr(true)}},
		// MindSpore's Tensor.max(axis) returns values only: compare output 0.
		{req: framework.PlanRequest{API: "Tensor.max.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("axis", iv(1)), kw("keepdims", bv(false))},
			Outputs: []framework.Arg{f32("output.0", 2)}},
			op: "max_dim", attrs: ops.Attrs{"dim": ops.IntAttr(1)}, compare: []int{0}},
		{req: framework.PlanRequest{API: "Tensor.max.1", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("axis", iv(0)), kw("return_indices", bv(true))},
			Outputs: []framework.Arg{f32("output.0", 3), tn("output.1", tensor.Int64, 3)}},
			op: "max_dim", grads: []int{0, 1}},
		{req: framework.PlanRequest{API: "Tensor.min.0", Args: []framework.Arg{x}, Outputs: []framework.Arg{f32("output.0")}}, op: "min"},
		{req: framework.PlanRequest{API: "Tensor.max.2", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("initial", iv(0))}}, skip: `argument "initial" is not supported`},
		// Tensor.transpose: (dim0, dim1) as PyTorch, (*axes) as a permutation.
		{req: framework.PlanRequest{API: "Tensor.transpose.0", Args: []framework.Arg{x, iv(0), iv(1)}}, op: "transpose"},
		{req: framework.PlanRequest{API: "Tensor.transpose.1", Args: []framework.Arg{f32("args.0", 2, 3, 4), framework.Arg{Kind: framework.ArgList, Elems: []framework.Arg{iv(0), iv(2), iv(1)}}}},
			op: "permute", attrs: ops.Attrs{"dims": ops.IntsAttr(0, 2, 1)}},
		{req: framework.PlanRequest{API: "Tensor.transpose.2", Args: []framework.Arg{f32("args.0", 2, 3, 4)}}, op: "permute", attrs: ops.Attrs{"dims": ops.IntsAttr(2, 1, 0)}},
		{req: framework.PlanRequest{API: "Tensor.transpose.3", Args: []framework.Arg{f32("args.0", 2, 3, 4), iv(1), iv(2), iv(0)}}, op: "permute", attrs: ops.Attrs{"dims": ops.IntsAttr(1, 2, 0)}},
		{req: framework.PlanRequest{API: "Tensor.flatten.0", Args: []framework.Arg{f32("args.0", 2, 3, 4)}, Kwargs: []framework.NamedArg{kw("start_dim", iv(1))}}, op: "reshape", attrs: ops.Attrs{"shape": ops.IntsAttr(2, 12)}},
		{req: framework.PlanRequest{API: "Tensor.flatten.1", Args: []framework.Arg{f32("args.0", 2, 3, 4), {Kind: framework.ArgString, Str: "C"}}}, op: "reshape", attrs: ops.Attrs{"shape": ops.IntsAttr(24)}},
		{req: framework.PlanRequest{API: "Tensor.flatten.2", Args: []framework.Arg{f32("args.0", 2, 3, 4), {Kind: framework.ArgString, Str: "F"}}}, skip: "only row-major order 'C'"},
		{req: framework.PlanRequest{API: "Tensor.split.0", Args: []framework.Arg{f32("args.0", 5, 2)}, Kwargs: []framework.NamedArg{kw("split_size_or_sections", iv(2)), kw("axis", iv(0))},
			Outputs: []framework.Arg{f32("output.0", 2, 2), f32("output.1", 2, 2), f32("output.2", 1, 2)}},
			op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": ops.IntsAttr(2, 2, 1), "dim": ops.IntAttr(0)}, grads: []int{0, 1, 2}},
		{req: framework.PlanRequest{API: "Mint.chunk.0", Args: []framework.Arg{f32("args.0", 5), iv(4)}}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": ops.IntsAttr(2, 2, 1)}, grads: []int{0, 1, 2}},
		// dim omitted: PyTorch's implicit dim (MindSpore's docs leave it
		// undefined beyond 1-D, apis.go)
		{req: framework.PlanRequest{API: "MintFunctional.softmax.0", Args: []framework.Arg{f32("args.0", 2, 3, 5)}}, op: "softmax", attrs: ops.Attrs{"dim": ops.IntAttr(0)}},
		{req: framework.PlanRequest{API: "MintFunctional.relu_.0", Args: []framework.Arg{x}}, op: "relu", attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}},
		{req: framework.PlanRequest{API: "MintFunctional.dropout.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("p", framework.Arg{Kind: framework.ArgFloat, Float: 0.1})}}, op: "dropout", attrs: ops.Attrs{"p": ops.FloatAttr(0.1), "train": ops.BoolAttr(true)}},
		{req: framework.PlanRequest{API: "MintFunctional.embedding.0", Args: []framework.Arg{tn("args.0", tensor.Int32, 4), f32("args.1", 10, 3)}}, op: "embedding", in: []string{"args.1", "args.0"}},
		{req: framework.PlanRequest{API: "Tensor.add_.0", Args: []framework.Arg{x, iv(1)}}, op: "add", attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}, in: []string{"args.0", "int:1"}},
		{req: framework.PlanRequest{API: "Tensor.square.0", Args: []framework.Arg{x}}, op: "pow", in: []string{"args.0", "int:2"}},
		// skips
		{req: framework.PlanRequest{API: "Tensor.__add__.0", Args: []framework.Arg{x, iv(1)}}, skip: "Tensor.__add__ is not in checker_support_api.yaml"},
		{req: framework.PlanRequest{API: "Tensor.tolist.0", Args: []framework.Arg{x}}, skip: "Tensor.tolist returns a Python list, not a tensor"},
		{req: framework.PlanRequest{API: "Functional.flash_attention_score.0", Args: []framework.Arg{x}}, skip: `Functional.flash_attention_score.0: missing required argument "key"`},
		// MindSpore's equivalents of the fused torch_npu operators (issue 13)
		{req: framework.PlanRequest{API: "Functional.rms_norm.0", Args: []framework.Arg{x, f32("args.1", 3)}},
			op: "npu.rms_norm", attrs: ops.Attrs{"epsilon": ops.FloatAttr(1e-6)}, in: []string{"args.0", "args.1"}, grads: []int{0, 1}},
		{req: framework.PlanRequest{API: "Functional.swiglu.0", Args: []framework.Arg{f32("args.0", 2, 4)}, Kwargs: []framework.NamedArg{kw("dim", iv(0))}},
			op: "npu.swiglu", attrs: ops.Attrs{"dim": ops.IntAttr(0)}, in: []string{"args.0"}},
		{req: framework.PlanRequest{API: "Functional.rotary_position_embedding.0", Args: []framework.Arg{f32("args.0", 1, 2, 3, 4), f32("args.1", 1, 1, 3, 4), f32("args.2", 1, 1, 3, 4), iv(1)}},
			op: "npu.rotary_mul", attrs: ops.Attrs{"rotary_mode": ops.StringAttr("interleave")}, in: []string{"args.0", "args.1", "args.2"}},
		{req: framework.PlanRequest{API: "Functional.rotary_position_embedding.1", Args: []framework.Arg{f32("args.0", 1, 2, 3, 4), f32("args.1", 1, 1, 3, 4), f32("args.2", 1, 1, 3, 4), iv(2)}},
			skip: `argument "mode": must be 0 (rotate_half) or 1 (rotate_interleaved), got 2`},
		{req: framework.PlanRequest{API: "Functional.swiglu.1", Args: []framework.Arg{f32("args.0", 2, 4)}, Compat: "msprobe"},
			skip: "only Functional.flash_attention_score is"},
		{req: framework.PlanRequest{API: "Functional.flash_attention_score.1", Args: []framework.Arg{f32("args.0", 6, 2, 4), f32("args.1", 6, 2, 4), f32("args.2", 6, 2, 4), iv(2)},
			Kwargs: []framework.NamedArg{kw("input_layout", framework.Arg{Kind: framework.ArgString, Str: "TND"})}}, skip: "layout TND needs actual_seq_qlen and actual_seq_kvlen"},
		{req: framework.PlanRequest{API: "Functional.flash_attention_score.2", Args: []framework.Arg{f32("args.0", 2, 3, 8), f32("args.1", 2, 3, 8), f32("args.2", 2, 3, 8), iv(2)},
			Kwargs: []framework.NamedArg{kw("keep_prob", framework.Arg{Kind: framework.ArgFloat, Float: 0.9})}}, skip: "cannot be reproduced off the device"},
		// MindSpore's defaults: input_layout BSH, scalar_value 1.0.
		{req: framework.PlanRequest{API: "Functional.flash_attention_score.3", Args: []framework.Arg{f32("args.0", 2, 3, 8), f32("args.1", 2, 3, 8), f32("args.2", 2, 3, 8), iv(2)},
			Outputs: []framework.Arg{f32("output.0", 2, 3, 8)}},
			op: "npu.fusion_attention", attrs: ops.Attrs{"input_layout": ops.StringAttr("BSH"), "scale": ops.FloatAttr(1), "head_num": ops.IntAttr(2)},
			in: []string{"args.0", "args.1", "args.2", "none", "none"}, compare: []int{0}},
		{req: framework.PlanRequest{API: "Functional.relu.0", Args: []framework.Arg{x}}, skip: "only Functional.flash_attention_score is"},
		{req: framework.PlanRequest{API: "Primitive.norm.RmsNorm.0", Args: []framework.Arg{x}}, skip: "is not of the form <type>.<api>.<count>"},
		{req: framework.PlanRequest{API: "Distributed.all_reduce.0", Args: []framework.Arg{x}}, skip: "not checked in MindSpore mode"},
		{req: framework.PlanRequest{API: "Mint.abs.0", Args: []framework.Arg{{Kind: framework.ArgTensor, Path: "args.0", DTypeName: "Complex64", Shape: []int{2}}}},
			skip: "Mint.abs.0: argument args.0 is a complex tensor (Complex64), which probe's tensors do not represent"},
		{req: framework.PlanRequest{API: "Mint.batch_norm.0", Args: []framework.Arg{x, f32("args.1", 3), f32("args.2", 3)}}, skip: `missing required argument "running_mean"`},
	} {
		checkMCase(t, c, true)
	}
}

// checkMCase plans c and checks the skip or the plan: op, GradOutputs,
// attributes, inputs, and when strict the backward message, Compare and
// GradOutput too.
func checkMCase(t *testing.T, c mcase, strict bool) {
	t.Helper()
	resp := plan(t, &c.req)
	if c.skip != "" {
		if !strings.Contains(resp.Skip, c.skip) {
			t.Errorf("%s: skip %q, want it to contain %q", c.req.API, resp.Skip, c.skip)
		}
		return
	}
	if resp.Plan == nil {
		t.Errorf("%s: skipped: %s", c.req.API, resp.Skip)
		return
	}
	p := resp.Plan
	if p.Op != c.op || !slices.Equal(p.GradOutputs, c.grads) ||
		strict && (p.BackwardMessage != c.msg || !slices.Equal(p.Compare, c.compare) || p.GradOutput != 0) {
		t.Errorf("%s: op %s msg %q compare %v grads %v, want %s %q %v %v", c.req.API, p.Op, p.BackwardMessage, p.Compare, p.GradOutputs, c.op, c.msg, c.compare, c.grads)
	}
	for k, v := range c.attrs {
		got := p.Attrs[k]
		if got.Kind != v.Kind || got.Int != v.Int || got.Float != v.Float || got.Bool != v.Bool || got.String != v.String || !slices.Equal(got.Ints, v.Ints) {
			t.Errorf("%s: attr %s = %+v, want %+v", c.req.API, k, got, v)
		}
	}
	if c.in != nil {
		var got []string
		for _, b := range p.Inputs {
			switch b.Kind {
			case framework.BindTensor:
				got = append(got, b.Path)
			case framework.BindScalar:
				got = append(got, fmt.Sprintf("int:%d", b.Scalar.I))
			default:
				got = append(got, "none")
			}
		}
		if !slices.Equal(got, c.in) {
			t.Errorf("%s: inputs %v, want %v", c.req.API, got, c.in)
		}
	}
}

// TestFixtureDumps plans every forward entry of the real dumps (all
// formats): a valid plan or a non-empty skip, never an error. The
// MindSpore-format calls msprobe checks with a plain torch bench are planned.
func TestFixtureDumps(t *testing.T) {
	planned := map[string]bool{}
	for _, f := range fixtures.Glob(t, "msprobe-unit-tests/*.json") {
		if strings.Contains(filepath.Base(f), "pytorch") {
			continue
		}
		for _, req := range fixtureRequests(t, f) {
			if resp := plan(t, req); resp.Plan != nil {
				planned[req.API] = true
			}
		}
	}
	for _, api := range []string{"Mint.cos.0", "MintFunctional.relu.0", "Functional.flash_attention_score.0"} {
		if !planned[api] {
			t.Errorf("%s was not planned", api)
		}
	}
}

// fixtureRequests is the plan request of every forward entry of a
// MindSpore dump.
func fixtureRequests(t *testing.T, path string) []*framework.PlanRequest {
	t.Helper()
	d, err := dump.Load(path, dump.MindSpore)
	if err != nil {
		t.Fatal(err)
	}
	return d.PlanRequests("")
}

// TestFlashAttentionFixture plans the dumped flash_attention_score call
// (SBH, 12 heads, uint8 attn_mask, MindSpore keyword names).
func TestFlashAttentionFixture(t *testing.T) {
	for _, req := range fixtureRequests(t, fixtures.Path(t, "msprobe-unit-tests/mindspore_ut_compare_dump_file_mindspore_data_dump.json")) {
		if req.API != "Functional.flash_attention_score.0" {
			continue
		}
		resp := plan(t, req)
		if resp.Plan == nil {
			t.Fatalf("skipped: %s", resp.Skip)
		}
		p := resp.Plan
		if p.Op != "npu.fusion_attention" || !slices.Equal(p.Compare, []int{0}) || p.GradOutput != 0 || p.BackwardMessage != "" {
			t.Errorf("plan op %s compare %v grad %d msg %q", p.Op, p.Compare, p.GradOutput, p.BackwardMessage)
		}
		if p.Attrs.Str("input_layout", "") != "SBH" || p.Attrs.Int("head_num", 0) != 12 || p.Attrs.Float("scale", 0) != 0.08838834764831843 ||
			p.Attrs.Int("pre_tockens", 0) != 65536 || p.Attrs.Int("next_tockens", -1) != 0 {
			t.Errorf("attrs %v", p.Attrs)
		}
		if len(p.Inputs) != 5 || p.Inputs[4].Path != "kwargs.attn_mask" {
			t.Errorf("inputs %+v", p.Inputs)
		}
		return
	}
	t.Fatal("Functional.flash_attention_score.0 not found in the dump")
}

// The checker's rules travel in the plan: every top-level positional
// tensor takes a gradient, each top-level positional float tensor is a
// gradient row; --compat msprobe benches at the dumped dtype with msprobe's
// generator.
func TestCheckerRules(t *testing.T) {
	req := &framework.PlanRequest{API: "Mint.where.0", Args: []framework.Arg{tn("args.0", tensor.Bool, 3), f32("args.1", 3), f32("args.2", 3)}}
	p := plan(t, req).Plan
	if !slices.Equal(p.GradRows, []string{"args.1", "args.2"}) {
		t.Errorf("grad rows %v", p.GradRows)
	}
	for _, b := range p.Inputs {
		if b.Kind == framework.BindTensor && !b.RequiresGrad {
			t.Errorf("input %s takes no gradient", b.Path)
		}
	}
	if p.Bench != nil || p.Generator != framework.GenProbe {
		t.Errorf("default: bench %+v generator %v", p.Bench, p.Generator)
	}
	req.Compat = "msprobe"
	p = plan(t, req).Plan
	if p.Bench == nil || len(p.Bench.Inputs) != 0 || len(p.Bench.Grads) != 0 || p.Generator != framework.GenMsprobeMindSpore {
		t.Errorf("compat: bench %+v generator %v", p.Bench, p.Generator)
	}
	// A keyword tensor takes no gradient.
	p = plan(t, &framework.PlanRequest{API: "Mint.add.0", Args: []framework.Arg{f32("args.0", 3)}, Kwargs: []framework.NamedArg{kw("other", f32("kwargs.other", 3))}}).Plan
	for _, b := range p.Inputs {
		if b.Path == "kwargs.other" && b.RequiresGrad {
			t.Error("kwargs.other takes a gradient")
		}
	}
	// run_ut's fixed black list is PyTorch's: MindSpore's checker lists
	// Tensor.to (a cast) in checker_support_api.yaml and checks it.
	if p := plan(t, &framework.PlanRequest{API: "Tensor.to.0", Args: []framework.Arg{f32("args.0", 3), {Kind: framework.ArgDType, Str: "Float16"}}}).Plan; p == nil || p.Op != "cast" {
		t.Errorf("Tensor.to: %+v", p)
	}
	if p := plan(t, &framework.PlanRequest{API: "MintFunctional.dropout.0", Args: []framework.Arg{f32("args.0", 3)}}).Plan; p != nil && p.CompareMode != framework.CompareZeroShare {
		t.Errorf("dropout compare mode %v", p.CompareMode)
	}
}
