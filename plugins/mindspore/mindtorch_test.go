package mindspore

import (
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/plugins/internal/lower"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// mindTorch marks the requests of cs as coming from an MsAdapter dump.
func mindTorch(cs []mcase) []mcase {
	for i := range cs {
		cs[i].req.Dialect = DialectMindTorch
	}
	return cs
}

// TestMindTorchPlans: the Torch., Functional. and Tensor. calls of an
// MsAdapter dump (dialect "mindtorch") are lowered as the PyTorch plugin
// lowers them, whatever msprobe's MindSpore lists say, with MindSpore dtype
// objects read as dtypes and the MindSpore checker's backward (one sens
// per output).
func TestMindTorchPlans(t *testing.T) {
	x := f32("args.0", 2, 3)
	msF16 := framework.Arg{Kind: framework.ArgDType, Str: "mindspore.float16"}
	for _, c := range mindTorch([]mcase{
		{req: framework.PlanRequest{API: "Torch.matmul.0", Args: []framework.Arg{x, f32("args.1", 3, 4)}}, op: "matmul", in: []string{"args.0", "args.1"}},
		{req: framework.PlanRequest{API: "Functional.gelu.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("approximate", framework.Arg{Kind: framework.ArgString, Str: "tanh"})}},
			op: "gelu", attrs: ops.Attrs{"approximate": ops.StringAttr("tanh")}},
		{req: framework.PlanRequest{API: "Tensor.add.0", Args: []framework.Arg{x, f32("args.1", 2, 3)}, Kwargs: []framework.NamedArg{kw("alpha", iv(2))}},
			op: "add", attrs: ops.Attrs{"alpha": ops.FloatAttr(2)}, in: []string{"args.0", "args.1"}},
		// Not in checker_support_api.yaml: checked all the same in mindtorch.
		{req: framework.PlanRequest{API: "Tensor.__add__.0", Args: []framework.Arg{x, iv(1)}}, op: "add", in: []string{"args.0", "int:1"}},
		// MsAdapter's dtype objects are MindSpore's.
		{req: framework.PlanRequest{API: "Torch.sum.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("dim", iv(1)), kw("dtype", msF16)}},
			op: "sum", attrs: ops.Attrs{"dim": ops.IntsAttr(1), "dtype": ops.StringAttr("float16")}},
		// Sub-module names: checked; msprobe resolves <type>.<api>.<index> only.
		{req: framework.PlanRequest{API: "Torch.linalg.det.0", Args: []framework.Arg{f32("args.0", 3, 3)}}, op: "det"},
		{req: framework.PlanRequest{API: "Torch.linalg.det.1", Args: []framework.Arg{f32("args.0", 3, 3)}, Compat: "msprobe"}, skip: "must have exactly three segments"},
		{req: framework.PlanRequest{API: "Torch.chunk.0", Args: []framework.Arg{f32("args.0", 5), iv(4)}}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": ops.IntsAttr(2, 2, 1)}, grads: []int{0, 1, 2}},
		// PyTorch's signatures, not MindSpore's spellings: Tensor.transpose
		// takes exactly two dims, no axis= alias, no positional dtype.
		{req: framework.PlanRequest{API: "Tensor.transpose.0", Args: []framework.Arg{f32("args.0", 2, 3, 4), iv(1), iv(2), iv(0)}}, skip: "takes at most"},
		{req: framework.PlanRequest{API: "Torch.mean.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("axis", iv(0))}}, skip: `unexpected keyword argument "axis"`},
		// run_ut's fixed black list is PyTorch's checker's: Tensor.to is a
		// cast, the empty factories have no values to compare.
		{req: framework.PlanRequest{API: "Tensor.to.0", Args: []framework.Arg{x, {Kind: framework.ArgDType, Str: "Float16"}}}, op: "cast", attrs: ops.Attrs{"dtype": ops.StringAttr("float16")}},
		{req: framework.PlanRequest{API: "Tensor.to.1", Args: []framework.Arg{x, {Kind: framework.ArgDevice, Str: "cpu"}}}, skip: "expected dtype"},
		{req: framework.PlanRequest{API: "Torch.empty_like.0", Args: []framework.Arg{x}}, skip: "returns uninitialized memory"},
		// flash_attention_score keeps msprobe's own reference.
		{req: framework.PlanRequest{API: "Functional.flash_attention_score.0", Args: []framework.Arg{x}}, skip: `missing required argument "key"`},
		// Not checked in an MsAdapter dump, or not planned by probe.
		{req: framework.PlanRequest{API: "NPU.npu_rms_norm.0", Args: []framework.Arg{x}}, skip: "only Torch, Functional and Tensor APIs are"},
		{req: framework.PlanRequest{API: "Mint.cos.0", Args: []framework.Arg{x}}, skip: "only Torch, Functional and Tensor APIs are"},
		{req: framework.PlanRequest{API: "Torch.no_such_api.0", Args: []framework.Arg{x}}, skip: "is not supported by the mindspore framework plugin yet"},
	}) {
		checkMCase(t, c, true)
	}
}

// TestMindTorchDialectOnly: without the dialect (a "framework": "mindspore"
// dump) the same names keep msprobe's MindSpore rules: Torch.* is not
// checked, Functional.* only flash_attention_score, Tensor.* only the
// checker's list.
func TestMindTorchDialectOnly(t *testing.T) {
	x := f32("args.0", 2, 3)
	for _, c := range []mcase{
		{req: framework.PlanRequest{API: "Torch.matmul.0", Args: []framework.Arg{x, f32("args.1", 3, 4)}}, skip: "not checked in MindSpore mode (API type Torch)"},
		{req: framework.PlanRequest{API: "Functional.gelu.0", Args: []framework.Arg{x}}, skip: "only Functional.flash_attention_score is"},
		{req: framework.PlanRequest{API: "Tensor.__add__.0", Args: []framework.Arg{x, iv(1)}}, skip: "not in checker_support_api.yaml"},
	} {
		checkMCase(t, c, true)
	}
}

// TestMindTorchCoversPyTorch: every Torch., Functional. and Tensor. name
// the PyTorch plugin plans (probe's lowering), and nothing else, is
// planned in an MsAdapter dump; a made-up call of each either plans or
// fails on its arguments, never as unsupported.
func TestMindTorchCoversPyTorch(t *testing.T) {
	n := 0
	for typ, ns := range mindTorchNamespaces {
		for _, name := range lower.Names(ns) {
			if typ == "Functional" && fusionAPIs[name] {
				continue
			}
			n++
			resp := plan(t, &framework.PlanRequest{API: typ + "." + name + ".0", Args: []framework.Arg{tn("args.0", tensor.Float32, 2, 3)}, Dialect: DialectMindTorch})
			for _, bad := range []string{"not supported by the mindspore framework plugin", "not checked", "not of the form", "three segments", "has no lowering"} {
				if strings.Contains(resp.Skip, bad) {
					t.Errorf("%s.%s: %s", typ, name, resp.Skip)
				}
			}
		}
	}
	if n < 500 {
		t.Errorf("only %d PyTorch names", n)
	}
	if !slices.Contains(lower.Names(lower.Torch), "matmul") {
		t.Error("lower has no Torch.matmul")
	}
}
