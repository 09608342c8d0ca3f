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
	return append(linalg2EinsumCases(), linalg2SolverCases()...)
}

func linalg2EinsumCases() []lcase {
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

func linalg2SolverCases() []lcase {
	a := tn("args.0", tensor.Float64, 3, 3)
	b := tn("args.1", tensor.Float64, 3, 2)
	ai := tn("args.0", tensor.Int64, 3, 3)
	ah := tn("args.0", tensor.Float16, 3, 3)
	piv := tn("args.2", tensor.Int32, 3)
	chol := func(upper, check bool, fn string) ops.Attrs {
		return ops.Attrs{"upper": ops.BoolAttr(upper), "check_errors": ops.BoolAttr(check), "fn": ops.StringAttr(fn)}
	}
	up := func(v bool) ops.Attrs { return ops.Attrs{"upper": ops.BoolAttr(v)} }
	solve := func(left, check bool) ops.Attrs {
		return ops.Attrs{"left": ops.BoolAttr(left), "check_errors": ops.BoolAttr(check)}
	}
	return []lcase{
		{name: "Torch.cholesky", args: linalg2Args(a), op: "cholesky", attrs: chol(false, true, "cholesky"), in: []string{"args.0"}},
		{name: "Tensor.cholesky", args: linalg2Args(a, bv(true)), op: "cholesky", attrs: chol(true, true, "cholesky")},
		{name: "Torch.linalg.cholesky", args: linalg2Args(a), kwargs: linalg2Kws(kw("upper", bv(true))), op: "cholesky", attrs: chol(true, true, "linalg.cholesky")},
		{name: "Torch.linalg.cholesky_ex", args: linalg2Args(a), op: "cholesky", attrs: chol(false, false, "linalg.cholesky_ex"), multi: true},
		{name: "Torch.linalg.cholesky_ex", args: linalg2Args(a), kwargs: linalg2Kws(kw("check_errors", bv(true))), op: "cholesky", attrs: chol(false, true, "linalg.cholesky_ex"), multi: true},
		{name: "Torch.cholesky", args: linalg2Args(ai), err: "cholesky: Expected a floating point or complex tensor as input. Got Long"},
		{name: "Torch.cholesky", args: linalg2Args(ah), err: "cholesky: Low precision dtypes not supported. Got Half"},
		{name: "Torch.linalg.cholesky", args: linalg2Args(a, bv(true)), err: "positional"},
		{name: "Torch.cholesky_inverse", args: linalg2Args(a), op: "cholesky_inverse", attrs: up(false), in: []string{"args.0"}},
		{name: "Tensor.cholesky_inverse", args: linalg2Args(a, bv(true)), op: "cholesky_inverse", attrs: up(true)},
		{name: "Torch.cholesky_solve", args: linalg2Args(b, a), op: "cholesky_solve", attrs: up(false), in: []string{"args.1", "args.0"}},
		{name: "Tensor.cholesky_solve", args: linalg2Args(b, a), kwargs: linalg2Kws(kw("upper", bv(true))), op: "cholesky_solve", attrs: up(true)},
		{name: "Torch.cholesky_solve", args: linalg2Args(b, iv(1)), err: `argument "input2": expected tensor, got int`},
		{name: "Torch.triangular_solve", args: linalg2Args(b, a), op: "triangular_solve", multi: true,
			attrs: ops.Attrs{"upper": ops.BoolAttr(true), "transpose": ops.BoolAttr(false), "unitriangular": ops.BoolAttr(false)}},
		{name: "Tensor.triangular_solve", args: linalg2Args(b, a, bv(false), bv(true), bv(true)), op: "triangular_solve", multi: true,
			attrs: ops.Attrs{"upper": ops.BoolAttr(false), "transpose": ops.BoolAttr(true), "unitriangular": ops.BoolAttr(true)}},
		{name: "Torch.linalg.solve", args: linalg2Args(a, b), op: "linalg_solve", attrs: solve(true, true), in: []string{"args.0", "args.1"}},
		{name: "Torch.solve", args: linalg2Args(a, b), kwargs: linalg2Kws(kw("left", bv(false))), op: "linalg_solve", attrs: solve(false, true)},
		{name: "Torch.linalg.solve_ex", args: linalg2Args(a, b), op: "linalg_solve", attrs: solve(true, false), multi: true},
		{name: "Torch.linalg.solve", args: linalg2Args(ai, b), err: "linalg.solve: Expected a floating point or complex tensor as input. Got Long"},
		{name: "Torch.lu_solve", args: linalg2Args(b, a, piv), op: "lu_solve", in: []string{"args.1", "args.0", "args.2"}},
		{name: "Tensor.lu_solve", args: linalg2Args(b, a, piv), op: "lu_solve"},
		{name: "Torch.lu_unpack", args: linalg2Args(a, piv), op: "lu_unpack", multi: true,
			attrs: ops.Attrs{"unpack_data": ops.BoolAttr(true), "unpack_pivots": ops.BoolAttr(true)}},
		{name: "Torch.lu_unpack", args: linalg2Args(a, piv, bv(false)), kwargs: linalg2Kws(kw("unpack_pivots", bv(false))), op: "lu_unpack", multi: true,
			attrs: ops.Attrs{"unpack_data": ops.BoolAttr(false), "unpack_pivots": ops.BoolAttr(false)}},
		{name: "Torch.linalg.inv_ex", args: linalg2Args(a), op: "matrix_power", attrs: ops.Attrs{"n": ops.IntAttr(-1)}, multi: true},
		{name: "Torch.linalg.inv_ex", args: linalg2Args(tn("args.0", tensor.Float64, 2, 3)), err: "A must be batches of square matrices, but they are 2 by 3 matrices"},
	}
}
