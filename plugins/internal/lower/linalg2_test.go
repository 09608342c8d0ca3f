package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestLinalg2(t *testing.T) { runCases(t, linalg2Cases(), nil) }

func linalg2Args(a ...framework.Arg) []framework.Arg { return a }

func linalg2Kws(a ...framework.NamedArg) []framework.NamedArg { return a }

// linalg2Cases are every lowering case of the linalg2 family (TestOpsListed).
func linalg2Cases() []lcase {
	a23, b34 := tn("args.1", tensor.Float32, 2, 3), tn("args.2", tensor.Float32, 3, 4)
	b34d := tn("args.2", tensor.Float64, 3, 4)
	eq := func(s string) ops.Attrs { return ops.Attrs{"equation": ops.StringAttr(s)} }
	x, y := tn("args.0", tensor.Float32, 3, 4), tn("args.1", tensor.Float32, 5, 4)
	return []lcase{
		{name: "Torch.einsum", args: linalg2Args(sv("ij,jk->ik"), a23, b34), op: "einsum", attrs: eq("ij,jk->ik"), in: []string{"args.1", "args.2"}},
		{name: "Torch.einsum", args: linalg2Args(sv("ij,jk"), lv(a23, b34)), op: "einsum", attrs: eq("ij,jk"), in: []string{"args.1", "args.2"}},
		{name: "Torch.einsum", args: linalg2Args(sv("...j,jk"), a23, b34), op: "einsum", attrs: eq("...j,jk")},
		{name: "Torch.einsum", args: linalg2Args(sv("ij,jk->ii"), a23, b34), err: "output subscript i appears more than once in the output"},
		{name: "Torch.einsum", args: linalg2Args(sv("ij"), a23, b34), err: "more operands were provided than specified in the equation"},
		{name: "Torch.einsum", args: linalg2Args(sv("ij,jk"), a23, b34d), err: "expected scalar type Float but found Double"},
		{name: "Torch.einsum", args: linalg2Args(sv("ij,jk")), err: "must provide at least one operand"},
		{name: "Torch.einsum", args: linalg2Args(iv(1), a23), err: `argument "equation": expected str, got int`},

		{name: "Torch.cdist", args: linalg2Args(x, y), op: "cdist", attrs: ops.Attrs{"p": ops.FloatAttr(2), "compute_mode": ops.IntAttr(0)}, in: []string{"args.0", "args.1"}},
		{name: "Torch.cdist", args: linalg2Args(x, y, fv(1)), kwargs: linalg2Kws(kw("compute_mode", sv("donot_use_mm_for_euclid_dist"))), op: "cdist",
			attrs: ops.Attrs{"p": ops.FloatAttr(1), "compute_mode": ops.IntAttr(2)}},
		{name: "Torch.cdist", args: linalg2Args(x, y), kwargs: linalg2Kws(kw("compute_mode", sv("fast"))), err: "fast is not a valid value for compute_mode"},
		{name: "Torch.pdist", args: linalg2Args(x), op: "pdist", attrs: ops.Attrs{"p": ops.FloatAttr(2)}, in: []string{"args.0"}},
		{name: "Torch.pdist", args: linalg2Args(x, iv(3)), op: "pdist", attrs: ops.Attrs{"p": ops.FloatAttr(3)}},
		{name: "Torch.pdist", args: linalg2Args(x, sv("a")), err: `argument "p": expected float, got str`},
	}
}
