package mindspore

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/apilist"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func dtArg(s string) framework.Arg { return framework.Arg{Kind: framework.ArgDType, Str: s} }
func ints(v ...int64) framework.Arg {
	a := framework.Arg{Kind: framework.ArgList}
	for _, x := range v {
		a.Elems = append(a.Elems, iv(x))
	}
	return a
}

// TestMindSporeAPIs: the names of msprobe's MindSpore lists without a
// same-named PyTorch lowering (mint's functional names, *_ex aliases,
// mint.ones/zeros/trace, Tensor.to/copy_/zero_), positional and keyword
// forms, defaults and errors.
func TestMindSporeAPIs(t *testing.T) {
	x := f32("args.0", 2, 3)
	sq := f32("args.0", 3, 3)
	for _, c := range []mcase{
		// mint's functional names are mint.nn.functional's.
		{req: framework.PlanRequest{API: "Mint.gelu.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("approximate", framework.Arg{Kind: framework.ArgString, Str: "tanh"})}},
			op: "gelu", attrs: ops.Attrs{"approximate": ops.StringAttr("tanh")}},
		{req: framework.PlanRequest{API: "Mint.leaky_relu.0", Args: []framework.Arg{x}}, op: "leaky_relu"},
		{req: framework.PlanRequest{API: "Mint.silu.0", Args: []framework.Arg{x}}, op: "silu"},
		{req: framework.PlanRequest{API: "Mint.softplus.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("beta", iv(2))}}, op: "softplus"},
		{req: framework.PlanRequest{API: "Mint.linear.0", Args: []framework.Arg{x, f32("args.1", 4, 3)}}, op: "linear", in: []string{"args.0", "args.1", "none"}},
		{req: framework.PlanRequest{API: "Mint.pad.0", Args: []framework.Arg{x, ints(1, 1)}}, op: "constant_pad_nd"},
		{req: framework.PlanRequest{API: "Mint.one_hot.0", Args: []framework.Arg{tn("args.0", tensor.Int64, 4)}, Kwargs: []framework.NamedArg{kw("num_classes", iv(5))}}, op: "one_hot"},
		{req: framework.PlanRequest{API: "Mint.unique.0", Args: []framework.Arg{x, bv(true), bv(false), bv(true)}}, op: "unique", attrs: ops.Attrs{"return_counts": ops.BoolAttr(true)}, grads: []int{0}},
		// the *_ex entries
		{req: framework.PlanRequest{API: "Mint.add_ex.0", Args: []framework.Arg{x, f32("args.1", 2, 3)}, Kwargs: []framework.NamedArg{kw("alpha", iv(3))}},
			op: "add", attrs: ops.Attrs{"alpha": ops.FloatAttr(3)}},
		{req: framework.PlanRequest{API: "Mint.mean_ex.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("dim", iv(1)), kw("keepdim", bv(true))}},
			op: "mean", attrs: ops.Attrs{"dim": ops.IntsAttr(1), "keepdim": ops.BoolAttr(true)}},
		{req: framework.PlanRequest{API: "Mint.permute_ex.0", Args: []framework.Arg{x, ints(1, 0)}}, op: "permute"},
		{req: framework.PlanRequest{API: "MintFunctional.dense.0", Args: []framework.Arg{x, f32("args.1", 4, 3), f32("args.2", 4)}}, op: "linear", in: []string{"args.0", "args.1", "args.2"}},
		{req: framework.PlanRequest{API: "MintFunctional.softmax_ex.0", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("dim", iv(-1))}}, op: "softmax", attrs: ops.Attrs{"dim": ops.IntAttr(-1)}},
		{req: framework.PlanRequest{API: "MintFunctional.bce_with_logits.0", Args: []framework.Arg{x, f32("args.1", 2, 3)}}, op: "binary_cross_entropy_with_logits"},
		// mint.ones / zeros: size an int or a tuple, dtype default float32,
		// MindSpore's dtype spellings.
		{req: framework.PlanRequest{API: "Mint.ones.0", Args: []framework.Arg{ints(2, 3)}},
			op: "full", attrs: ops.Attrs{"size": ops.IntsAttr(2, 3), "dtype": ops.StringAttr("float32")}, in: []string{"int:1"}},
		{req: framework.PlanRequest{API: "Mint.zeros.0", Args: []framework.Arg{iv(4)}, Kwargs: []framework.NamedArg{kw("dtype", dtArg("Int32"))}},
			op: "full", attrs: ops.Attrs{"size": ops.IntsAttr(4), "dtype": ops.StringAttr("int32")}, in: []string{"int:0"}},
		{req: framework.PlanRequest{API: "Mint.ones_ex.0", Args: []framework.Arg{ints(3), dtArg("mindspore.float16")}},
			op: "full", attrs: ops.Attrs{"size": ops.IntsAttr(3), "dtype": ops.StringAttr("float16")}},
		{req: framework.PlanRequest{API: "Mint.zeros_ex.0", Kwargs: []framework.NamedArg{kw("size", ints()), kw("dtype", dtArg("mindspore.bool_"))}},
			op: "full", attrs: ops.Attrs{"size": ops.IntsAttr(), "dtype": ops.StringAttr("bool")}},
		{req: framework.PlanRequest{API: "Mint.ones.1", Args: []framework.Arg{ints(2, -1)}}, skip: `argument "size": each dimension of size must be non-negative, got [2, -1]`},
		// mint.trace
		{req: framework.PlanRequest{API: "Mint.trace.0", Args: []framework.Arg{sq}}, op: "einsum", attrs: ops.Attrs{"equation": ops.StringAttr("ii->")}, in: []string{"args.0"}},
		{req: framework.PlanRequest{API: "Mint.trace.1", Args: []framework.Arg{f32("args.0", 3)}}, skip: "trace: expected a matrix, but got tensor with dim 1"},
		{req: framework.PlanRequest{API: "Mint.trace.2", Args: []framework.Arg{tn("args.0", tensor.Float16, 3, 3)}}, skip: `"trace" not implemented for 'Half'`},
		{req: framework.PlanRequest{API: "Mint.trace.3", Args: []framework.Arg{x}}, skip: "square matrices"},
		// Tensor.to(dtype): a cast, positional or keyword
		{req: framework.PlanRequest{API: "Tensor.to.1", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("dtype", dtArg("mindspore.int64"))}},
			op: "cast", attrs: ops.Attrs{"dtype": ops.StringAttr("int64")}},
		{req: framework.PlanRequest{API: "Tensor.to.2", Args: []framework.Arg{x, dtArg("BFloat16")}}, op: "cast", attrs: ops.Attrs{"dtype": ops.StringAttr("bfloat16")}},
		{req: framework.PlanRequest{API: "Tensor.to.3", Args: []framework.Arg{x, iv(0)}}, skip: `argument "dtype": expected dtype, got int`},
		// Tensor.copy_(src)
		{req: framework.PlanRequest{API: "Tensor.copy_.0", Args: []framework.Arg{x, tn("args.1", tensor.Float16, 2, 3)}},
			op: "cast", attrs: ops.Attrs{"dtype": ops.StringAttr("float32")}, in: []string{"args.1"}},
		{req: framework.PlanRequest{API: "Tensor.copy_.1", Args: []framework.Arg{x, f32("args.1", 3)}},
			op: "expand", attrs: ops.Attrs{"size": ops.IntsAttr(2, 3)}, in: []string{"args.1"}},
		{req: framework.PlanRequest{API: "Tensor.copy_.2", Args: []framework.Arg{x, f32("args.1", 4)}}, skip: "output with shape [2, 3] doesn't match the broadcast shape [4]"},
		// Tensor.zero_
		{req: framework.PlanRequest{API: "Tensor.zero_.0", Args: []framework.Arg{x}}, op: "fill", in: []string{"args.0", "int:0"}},
		// MindSpore's Tensor signatures: all/any over a tuple of axes or
		// every axis with keep_dims; max/min with axis None and keepdims
		// or a tuple of axes as amax/amin; topk's dim None; select(condition, y).
		{req: framework.PlanRequest{API: "Tensor.all.0", Args: []framework.Arg{tn("args.0", tensor.Bool, 2, 3)}, Kwargs: []framework.NamedArg{kw("axis", ints()), kw("keep_dims", bv(true))}},
			op: "all", attrs: ops.Attrs{"dim": ops.NoneAttr(), "keepdim": ops.BoolAttr(true)}},
		{req: framework.PlanRequest{API: "Tensor.any.0", Args: []framework.Arg{tn("args.0", tensor.Bool, 2, 3, 4), ints(0, -1)}},
			op: "any", attrs: ops.Attrs{"dim": ops.IntsAttr(0, -1), "keepdim": ops.BoolAttr(false)}},
		{req: framework.PlanRequest{API: "Tensor.all.1", Args: []framework.Arg{tn("args.0", tensor.Bool, 2, 3), iv(1)}},
			op: "all", attrs: ops.Attrs{"dim": ops.IntsAttr(1)}},
		{req: framework.PlanRequest{API: "Tensor.any.1", Args: []framework.Arg{tn("args.0", tensor.Bool, 2, 3), iv(2)}}, skip: "dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{req: framework.PlanRequest{API: "Tensor.max.5", Args: []framework.Arg{x}, Kwargs: []framework.NamedArg{kw("axis", framework.Arg{Kind: framework.ArgNone}), kw("keepdims", bv(true))}},
			op: "amax", attrs: ops.Attrs{"keepdim": ops.BoolAttr(true)}},
		{req: framework.PlanRequest{API: "Tensor.min.5", Args: []framework.Arg{f32("args.0", 2, 3, 4), ints(0, 2)}},
			op: "amin", attrs: ops.Attrs{"dim": ops.IntsAttr(0, 2)}},
		{req: framework.PlanRequest{API: "Tensor.topk.0", Args: []framework.Arg{x, iv(2)}, Kwargs: []framework.NamedArg{kw("dim", framework.Arg{Kind: framework.ArgNone})}},
			op: "topk", attrs: ops.Attrs{"k": ops.IntAttr(2), "dim": ops.IntAttr(-1)}, grads: []int{0, 1}},
		{req: framework.PlanRequest{API: "Tensor.select.0", Args: []framework.Arg{x, tn("args.1", tensor.Bool, 2, 3), f32("args.2", 2, 3)}},
			op: "where", in: []string{"args.1", "args.0", "args.2"}},
		{req: framework.PlanRequest{API: "Tensor.select.1", Args: []framework.Arg{x, iv(0), iv(1)}}, op: "select"},
		// mint takes dtype by position where PyTorch makes it keyword-only
		{req: framework.PlanRequest{API: "Mint.cumsum.1", Args: []framework.Arg{x, iv(1), dtArg("mindspore.float64")}},
			op: "cumsum", attrs: ops.Attrs{"dim": ops.IntAttr(1), "dtype": ops.StringAttr("float64")}},
		{req: framework.PlanRequest{API: "Mint.eye.0", Args: []framework.Arg{iv(3), iv(2), dtArg("Float16")}}, op: "eye", attrs: ops.Attrs{"dtype": ops.StringAttr("float16")}},
		// reasons instead of "not supported"
		{req: framework.PlanRequest{API: "Mint.rand.0", Args: []framework.Arg{ints(2)}}, skip: "Mint.rand is random by nature"},
		{req: framework.PlanRequest{API: "Tensor.item.0", Args: []framework.Arg{f32("args.0")}}, skip: "Tensor.item returns a Python number"},
		{req: framework.PlanRequest{API: "Mint.nn.0"}, skip: "not a function"},
		// msprobe has no torch.gelu to bench mint.gelu with.
		{req: framework.PlanRequest{API: "Mint.gelu.1", Args: []framework.Arg{x}, Compat: "msprobe"}, skip: "torch.gelu, which PyTorch does not have"},
	} {
		checkMCase(t, c, false)
	}
}

// TestDescribeLists: Support has exactly one entry per name of the three
// lists and per Functional API, each with ops or a reason; APIs are the
// entries with ops.
func TestDescribeLists(t *testing.T) {
	info, err := New().Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, l := range []struct {
		prefix string
		names  []string
	}{{"Mint", apilist.MindSporeMint}, {"MintFunctional", apilist.MindSporeMintFunctional}, {"Tensor", apilist.MindSporeTensorList}} {
		for _, n := range l.names {
			want[l.prefix+"."+n] = true
		}
	}
	seen := map[string]bool{}
	checkable := 0
	for _, s := range info.Support {
		if seen[s.API] {
			t.Errorf("%s twice", s.API)
		}
		seen[s.API] = true
		if !want[s.API] && !strings.HasPrefix(s.API, "Functional.") {
			t.Errorf("%s is in none of the lists", s.API)
		}
		if (len(s.Ops) == 0) == (s.Reason == "") || strings.Contains(s.Reason, "not supported") || strings.Contains(s.Reason, "no lowering") {
			t.Errorf("%s: ops %v reason %q", s.API, s.Ops, s.Reason)
		}
		if len(s.Ops) > 0 {
			if !slices.Contains(info.APIs, s.API) {
				t.Errorf("%s has ops but is not in APIs", s.API)
			}
			if want[s.API] {
				checkable++
			}
		}
	}
	for api := range want {
		if !seen[api] {
			t.Errorf("%s missing from Support", api)
		}
	}
	if total := len(want); checkable*10 < total*9 {
		t.Errorf("%d of %d names checkable, under 90%%", checkable, total)
	}
}
