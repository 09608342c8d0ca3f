package pytorch

import (
	"context"
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
	return framework.Arg{Kind: framework.ArgTensor, Path: path, DType: d, DTypeName: d.TorchName(), Shape: shape}
}
func iv(v int64) framework.Arg { return framework.Arg{Kind: framework.ArgInt, Int: v} }
func bv(v bool) framework.Arg  { return framework.Arg{Kind: framework.ArgBool, Bool: v} }
func sv(s string) framework.Arg {
	return framework.Arg{Kind: framework.ArgString, Str: s}
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
	}
	return resp
}

func TestDescribe(t *testing.T) {
	info, err := New().Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "pytorch" || info.Version != "0.1.0" {
		t.Fatalf("info %+v", info)
	}
	for _, api := range []string{"Functional.conv2d", "Functional.softmax", "Tensor.__radd__", "Tensor.add_", "Torch.chunk",
		"Torch.true_divide", "Torch.clip", "Torch.concat", "NPU.npu_rms_norm", "NPU.npu_fusion_attention", "Tensor.view"} {
		if !slices.Contains(info.APIs, api) {
			t.Errorf("APIs lacks %s", api)
		}
	}
	if slices.Contains(info.APIs, "Tensor.__getitem__") {
		t.Error("APIs lists an API it skips")
	}
	for _, op := range info.Ops {
		if _, ok := ops.Lookup(op); !ok {
			t.Errorf("unknown op %s", op)
		}
	}
	if !slices.Contains(info.Ops, "npu.rms_norm") || !slices.Contains(info.Ops, "npu.fusion_attention") || !slices.Contains(info.Ops, "convolution") {
		t.Errorf("ops %v", info.Ops)
	}
}

func TestSkips(t *testing.T) {
	x := tn("args.0", tensor.Float32, 2, 3)
	for _, c := range []struct {
		req  framework.PlanRequest
		want string
	}{
		{framework.PlanRequest{API: "Tensor.__getitem__.3", Args: []framework.Arg{x, iv(0)}},
			"API Tensor.__getitem__ is not supported by the pytorch framework plugin yet"},
		{framework.PlanRequest{API: "Functional.not_an_api.0", Args: []framework.Arg{x}},
			"API Functional.not_an_api is not supported by the pytorch framework plugin yet"},
		{framework.PlanRequest{API: "Functional.fold.0", Args: []framework.Arg{x}},
			`Functional.fold.0: missing required argument "output_size"`},
		{framework.PlanRequest{API: "NPU.npu_fusion_attention.0", Args: []framework.Arg{x}},
			`NPU.npu_fusion_attention.0: missing required argument "key"`},
		{framework.PlanRequest{API: "NPU.npu_fusion_attention.1", Args: []framework.Arg{tn("args.0", tensor.Float16, 6, 2, 4), tn("args.1", tensor.Float16, 6, 2, 4),
			tn("args.2", tensor.Float16, 6, 2, 4), iv(2), sv("TND")}},
			`NPU.npu_fusion_attention.1: argument "input_layout": layout TND needs actual_seq_qlen and actual_seq_kvlen`},
		{framework.PlanRequest{API: "Distributed.all_reduce.0", Args: []framework.Arg{x}},
			"API Distributed.all_reduce.0 not support for run ut. SKIP."},
		{framework.PlanRequest{API: "Aten.add.Tensor.0", Args: []framework.Arg{x, x}},
			"API Aten.add.Tensor is not supported by the pytorch framework plugin yet"},
		{framework.PlanRequest{API: "relu", Args: []framework.Arg{x}}, `API name "relu" is not of the form <Type>.<api>.<index>`},
		{framework.PlanRequest{API: "Torch.add.0", Args: []framework.Arg{x, {Kind: framework.ArgTensor, Path: "args.1", DTypeName: "torch.float8_e5m2", Shape: []int{2, 3}}}},
			"Torch.add.0: dtype torch.float8_e5m2 of argument args.1 is not supported"},
		{framework.PlanRequest{API: "Functional.conv2d.0", Args: []framework.Arg{tn("args.0", tensor.Float32, 1, 3, 8, 8), tn("args.1", tensor.Float32, 4, 3, 3, 3)},
			Kwargs: []framework.NamedArg{{Name: "stride", Arg: sv("2")}}},
			`Functional.conv2d.0: argument "stride": expected int or list of ints, got str`},
		{framework.PlanRequest{API: "Torch.where.0", Args: []framework.Arg{tn("args.0", tensor.Bool, 3)}},
			"Torch.where.0: torch.where(condition) with one argument (nonzero) is not supported"},
	} {
		resp := plan(t, &c.req)
		if resp.Skip != c.want {
			t.Errorf("%s: skip %q, want %q", c.req.API, resp.Skip, c.want)
		}
	}
}

func TestBackwardAndHF32(t *testing.T) {
	f16 := func(p string, s ...int) framework.Arg { return tn(p, tensor.Float16, s...) }
	f32 := func(p string, s ...int) framework.Arg { return tn(p, tensor.Float32, s...) }
	for _, c := range []struct {
		req   framework.PlanRequest
		op    string
		msg   string // and with --compat msprobe, when compat is set
		hf32  bool
		grads []int // GradOutputs
		// compat is the backward message with --compat msprobe, where
		// msprobe skips the backward of a tuple output (grads then nil).
		compat string
	}{
		{framework.PlanRequest{API: "Tensor.__mul__.7", Args: []framework.Arg{f16("args.0", 4, 2), f16("args.1", 4, 1)}, Outputs: []framework.Arg{f16("output.0", 4, 2)}},
			"mul", "", false, nil, ""},
		{framework.PlanRequest{API: "Torch.chunk.4", Args: []framework.Arg{f16("args.0", 4, 256), iv(2)}, Kwargs: []framework.NamedArg{{Name: "dim", Arg: iv(-1)}},
			Outputs: []framework.Arg{f16("output.0", 4, 128), f16("output.1", 4, 128)}}, "split_with_sizes", "", false, []int{0, 1}, MsgMultipleBackward},
		// a one-chunk split still returns a tuple: msprobe skips its backward.
		{framework.PlanRequest{API: "Torch.split.0", Args: []framework.Arg{f16("args.0", 4), iv(4)}, Outputs: []framework.Arg{f16("output.0", 4)}},
			"split_with_sizes", "", false, []int{0}, MsgMultipleBackward},
		{framework.PlanRequest{API: "Torch.add.1", Args: []framework.Arg{f16("args.0", 4), f16("args.1", 4)}, Kwargs: []framework.NamedArg{{Name: "out", Arg: f16("kwargs.out", 4)}}},
			"add", MsgOutKwarg, false, nil, ""},
		{framework.PlanRequest{API: "Torch.max.0", Args: []framework.Arg{f16("args.0", 4, 3), iv(1)}, Kwargs: []framework.NamedArg{{Name: "out", Arg: framework.Arg{Kind: framework.ArgNone}}}},
			"max_dim", MsgOutKwarg, false, []int{0, 1}, MsgOutKwarg + MsgMultipleBackward},
		{framework.PlanRequest{API: "Functional.max_pool2d.0", Args: []framework.Arg{f32("args.0", 1, 1, 4, 4), iv(2)}, Kwargs: []framework.NamedArg{{Name: "return_indices", Arg: bv(true)}}},
			"max_pool2d", "", false, []int{0, 1}, MsgMultipleBackward},
		{framework.PlanRequest{API: "NPU.npu_rms_norm.0", Args: []framework.Arg{tn("args.0", tensor.BFloat16, 8, 16), tn("args.1", tensor.BFloat16, 16)}},
			"npu.rms_norm", "", false, []int{0, 1}, MsgMultipleBackward},
		// topk has msprobe's grad_index 0: output 0 only, in both modes.
		{framework.PlanRequest{API: "Torch.topk.0", Args: []framework.Arg{f32("args.0", 4, 3), iv(2)}},
			"topk", "", false, nil, ""},
		{framework.PlanRequest{API: "Functional.conv2d.0", Args: []framework.Arg{f32("args.0", 1, 3, 8, 8), f32("args.1", 4, 3, 3, 3)}},
			"convolution", "", true, nil, ""},
		{framework.PlanRequest{API: "Torch.conv1d.0", Args: []framework.Arg{f32("args.0", 1, 3, 8), f32("args.1", 4, 3, 3)}},
			"convolution", "", true, nil, ""},
		{framework.PlanRequest{API: "Functional.conv3d.0", Args: []framework.Arg{f32("args.0", 1, 3, 4, 4, 4), f32("args.1", 4, 3, 3, 3, 3)}},
			"convolution", "", false, nil, ""},
	} {
		for _, compat := range []string{"", "msprobe"} {
			req := c.req
			req.Compat = compat
			resp := plan(t, &req)
			if resp.Plan == nil {
				t.Errorf("%s: skipped: %s", c.req.API, resp.Skip)
				continue
			}
			msg, grads := c.msg, c.grads
			if compat != "" && c.compat != "" {
				msg, grads = c.compat, nil
			}
			p := resp.Plan
			if p.Op != c.op || p.BackwardMessage != msg || p.Precision.HF32 != c.hf32 || p.Compare != nil || p.GradOutput != 0 || !slices.Equal(p.GradOutputs, grads) {
				t.Errorf("%s (compat %q): op %s msg %q hf32 %v compare %v grad %d grads %v; want %s %q %v nil 0 %v", c.req.API, compat, p.Op, p.BackwardMessage, p.Precision.HF32,
					p.Compare, p.GradOutput, p.GradOutputs, c.op, msg, c.hf32, grads)
			}
		}
	}
}

// fixtureRequests is the plan request of every forward entry of the
// PyTorch dumps among msprobe's fixtures.
func fixtureRequests(t *testing.T, rel string) []*framework.PlanRequest {
	t.Helper()
	d, err := dump.Load(fixtures.Path(t, rel), dump.PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	return d.PlanRequests("")
}

func fixtureDumps(t *testing.T) []string {
	var files []string
	for _, f := range fixtures.Glob(t, "msprobe-unit-tests/*.json") {
		if strings.Contains(filepath.Base(f), "pytorch") {
			files = append(files, f)
		}
	}
	files = append(files, fixtures.Glob(t, "msprobe-cpu-convnet/dumps/*/step0/rank/dump.json")...)
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	return files
}

// TestFixtureDumps plans every forward entry of the real dumps: a plan that
// passes the schema or a non-empty skip, never an error; every call of the
// convnet dumps (PyTorch 1.13, real msprobe) gets a plan.
func TestFixtureDumps(t *testing.T) {
	planned := map[string]bool{}
	root, _ := fixtures.Dir()
	for _, f := range fixtureDumps(t) {
		rel, _ := filepath.Rel(root, f)
		convnet := strings.Contains(f, "convnet")
		for _, req := range fixtureRequests(t, filepath.ToSlash(rel)) {
			resp := plan(t, req)
			if resp.Plan != nil {
				planned[req.API] = true
			}
			if convnet && resp.Plan == nil {
				t.Errorf("%s: %s skipped: %s", filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f)))), req.API, resp.Skip)
			}
		}
	}
	for _, api := range []string{"Functional.conv2d.0", "Tensor.add_.0", "Functional.batch_norm.0", "Functional.max_pool2d.0",
		"Functional.adaptive_avg_pool2d.0", "Tensor.flatten.0", "Functional.linear.0", "Functional.log_softmax.0",
		"Functional.nll_loss.0", "Torch.ones_like.0", "Torch.clone.0", "Torch.chunk.4", "Torch.cat.8", "Tensor.__mul__.7",
		"NPU.npu_rms_norm.0", "NPU.npu_fusion_attention.0", "Torch.cos.0", "Tensor.__add__.0"} {
		if !planned[api] {
			t.Errorf("%s was not planned", api)
		}
	}
}

// TestFixtureDetails checks a few real calls in detail.
func TestFixtureDetails(t *testing.T) {
	byAPI := map[string]*framework.PlanRequest{}
	for _, r := range fixtureRequests(t, "msprobe-cpu-convnet/dumps/convnet_statistics/step0/rank/dump.json") {
		byAPI[r.API] = r
	}
	p := plan(t, byAPI["Functional.conv2d.0"]).Plan
	if !slices.Equal(p.Attrs.Ints("padding", nil), []int64{1, 1}) || !p.Precision.HF32 || len(p.Inputs) != 3 || p.Inputs[2].Path != "args.2" {
		t.Errorf("conv2d plan %+v", p)
	}
	p = plan(t, byAPI["Functional.max_pool2d.0"]).Plan
	if !slices.Equal(p.Attrs.Ints("stride", nil), []int64{2, 2}) {
		t.Errorf("max_pool2d stride %v, want the kernel size", p.Attrs.Ints("stride", nil))
	}
	p = plan(t, byAPI["Tensor.flatten.0"]).Plan
	if p.Op != "reshape" || !slices.Equal(p.Attrs.Ints("shape", nil), []int64{2, 8}) {
		t.Errorf("flatten plan %+v", p)
	}
	p = plan(t, byAPI["Tensor.add_.2"]).Plan
	if p.Op != "add" || p.Attrs.Float("alpha", 0) != -0.01 || !p.Attrs.Bool("inplace", false) {
		t.Errorf("add_ plan %+v", p)
	}
	p = plan(t, byAPI["Functional.batch_norm.0"]).Plan
	if !p.Attrs.Bool("training", false) || p.Attrs.Float("momentum", 0) != 0.1 {
		t.Errorf("batch_norm plan %+v", p)
	}
}

// TestFusionAttentionFixture plans the dumped npu_fusion_attention call:
// attention_out, softmax_max and softmax_sum are compared (attention_out
// alone under --compat msprobe) and attention_out receives the gradient
// (grad_index 0), so its backward runs.
func TestFusionAttentionFixture(t *testing.T) {
	for _, req := range fixtureRequests(t, "msprobe-unit-tests/mindspore_ut_compare_dump_file_pytorch_data_dump.json") {
		if req.API != "NPU.npu_fusion_attention.0" {
			continue
		}
		resp := plan(t, req)
		if resp.Plan == nil {
			t.Fatalf("skipped: %s", resp.Skip)
		}
		p := resp.Plan
		if p.Op != "npu.fusion_attention" || !slices.Equal(p.Compare, []int{0, 1, 2}) || p.GradOutput != 0 || p.BackwardMessage != "" {
			t.Errorf("plan op %s compare %v grad %d msg %q", p.Op, p.Compare, p.GradOutput, p.BackwardMessage)
		}
		compat := *req
		compat.Compat = "msprobe"
		if p := plan(t, &compat).Plan; p == nil || !slices.Equal(p.Compare, []int{0}) || p.Attrs.Str("semantics", "") != "msprobe" {
			t.Errorf("--compat msprobe plan %+v", p)
		}
		if p.Attrs.Str("input_layout", "") != "SBH" || p.Attrs.Int("head_num", 0) != 12 || p.Attrs.Float("scale", 0) != 0.08838834764831843 ||
			p.Attrs.Int("pre_tockens", 0) != 65536 || p.Attrs.Int("next_tockens", -1) != 0 || p.Attrs.Int("sparse_mode", -1) != 0 {
			t.Errorf("attrs %v", p.Attrs)
		}
		if len(p.Inputs) != 5 || p.Inputs[3].Kind != framework.BindNone || p.Inputs[4].Path != "kwargs.atten_mask" {
			t.Errorf("inputs %+v", p.Inputs)
		}
		return
	}
	t.Fatal("NPU.npu_fusion_attention.0 not found in the dump")
}
