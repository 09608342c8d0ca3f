package lower

import (
	"math"
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
	return append(append(append(linalg2EinsumCases(), linalg2SolverCases()...), linalg2NormCases()...), linalg2MiscCases()...)
}

func linalg2MiscCases() []lcase {
	a := tn("args.0", tensor.Float64, 4, 3)
	tau := tn("args.1", tensor.Float64, 3)
	c := tn("args.2", tensor.Float64, 4, 2)
	x := tn("args.0", tensor.Float32, 3, 5)
	fw := tn("kwargs.fweights", tensor.Int64, 5)
	aw := tn("kwargs.aweights", tensor.Float32, 5)
	y := tn("args.0", tensor.Float32, 3, 4)
	xs := tn("args.1", tensor.Float32, 4)
	v := tn("args.0", tensor.Float32, 3)
	w := tn("args.1", tensor.Float32, 2)
	trap := func(dx float64, dim int64) ops.Attrs {
		return ops.Attrs{"dx": ops.FloatAttr(dx), "dim": ops.IntAttr(dim)}
	}
	comb := func(r int64, repl bool) ops.Attrs {
		return ops.Attrs{"r": ops.IntAttr(r), "with_replacement": ops.BoolAttr(repl)}
	}
	var cs []lcase
	for _, n := range []string{"Torch.trapz", "Torch.trapezoid", "Torch.cumulative_trapezoid"} {
		op := "trapezoid"
		if n == "Torch.cumulative_trapezoid" {
			op = "cumulative_trapezoid"
		}
		cs = append(cs,
			lcase{name: n, args: linalg2Args(y), op: op, attrs: trap(1, -1), in: []string{"args.0", "none"}},
			lcase{name: n, args: linalg2Args(y), kwargs: linalg2Kws(kw("dx", fv(0.5)), kw("dim", iv(0))), op: op, attrs: trap(0.5, 0)},
			lcase{name: n, args: linalg2Args(y, xs), op: op, attrs: trap(1, -1), in: []string{"args.0", "args.1"}},
			lcase{name: n, args: linalg2Args(y, xs), kwargs: linalg2Kws(kw("dx", fv(2))), err: "cannot pass both x and dx"},
			lcase{name: n, args: linalg2Args(y, fv(2)), err: `argument "x": expected tensor, got float`},
		)
	}
	return append(cs,
		lcase{name: "Torch.linalg.householder_product", args: linalg2Args(a, tau), op: "householder_product", in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.orgqr", args: linalg2Args(a, tau), op: "householder_product"},
		lcase{name: "Tensor.orgqr", args: linalg2Args(a), kwargs: linalg2Kws(kw("input2", tau)), op: "householder_product"},
		lcase{name: "Torch.ormqr", args: linalg2Args(a, tau, c), op: "ormqr", attrs: ops.Attrs{"left": ops.BoolAttr(true), "transpose": ops.BoolAttr(false)}},
		lcase{name: "Tensor.ormqr", args: linalg2Args(a, tau, c, bv(false), bv(true)), op: "ormqr", attrs: ops.Attrs{"left": ops.BoolAttr(false), "transpose": ops.BoolAttr(true)}},
		lcase{name: "Torch.cov", args: linalg2Args(x), op: "cov", attrs: ops.Attrs{"correction": ops.IntAttr(1)}, in: []string{"args.0", "none", "none"}},
		lcase{name: "Tensor.cov", args: linalg2Args(x), kwargs: linalg2Kws(kw("correction", iv(0)), kw("fweights", fw), kw("aweights", aw)), op: "cov",
			attrs: ops.Attrs{"correction": ops.IntAttr(0)}, in: []string{"args.0", "kwargs.fweights", "kwargs.aweights"}},
		lcase{name: "Torch.cov", args: linalg2Args(x, iv(0)), err: "positional"},
		lcase{name: "Torch.corrcoef", args: linalg2Args(x), op: "corrcoef", in: []string{"args.0"}},
		lcase{name: "Tensor.corrcoef", args: linalg2Args(x), op: "corrcoef"},
		lcase{name: "Torch.cartesian_prod", args: linalg2Args(v, w), op: "cartesian_prod", in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.cartesian_prod", args: linalg2Args(v, iv(2)), err: "element 1: expected tensor, got int"},
		lcase{name: "Torch.cartesian_prod", err: "meshgrid expects a non-empty TensorList"},
		lcase{name: "Torch.combinations", args: linalg2Args(v), op: "combinations", attrs: comb(2, false), in: []string{"args.0"}},
		lcase{name: "Torch.combinations", args: linalg2Args(v, iv(3), bv(true)), op: "combinations", attrs: comb(3, true)},
		lcase{name: "Torch.combinations", args: linalg2Args(v, fv(3)), err: `argument "r": expected int, got float`},
	)
}

func linalg2NormCases() []lcase {
	a := tn("args.0", tensor.Float64, 3, 4)
	a32 := tn("args.0", tensor.Float32, 3, 4)
	a3 := tn("args.0", tensor.Float64, 2, 3, 4)
	v := tn("args.0", tensor.Float64, 4)
	h := tn("args.0", tensor.Float16, 3, 4)
	sq := tn("args.0", tensor.Float64, 3, 3)
	b := tn("args.1", tensor.Float64, 3, 2)
	mn := func(ord string, d0, d1 int64, keep bool) ops.Attrs {
		return ops.Attrs{"ord": ops.StringAttr(ord), "dim": ops.IntsAttr(d0, d1), "keepdim": ops.BoolAttr(keep), "dtype": ops.NoneAttr()}
	}
	vn := func(p float64, dim ops.Attr) ops.Attrs {
		return ops.Attrs{"p": ops.FloatAttr(p), "dim": dim, "keepdim": ops.BoolAttr(false), "dtype": ops.NoneAttr()}
	}
	tol := func(atol, rtol float64, herm bool) ops.Attrs {
		return ops.Attrs{"atol": ops.FloatAttr(atol), "rtol": ops.FloatAttr(rtol), "hermitian": ops.BoolAttr(herm)}
	}
	inf := math.Inf(1)
	return []lcase{
		{name: "Torch.linalg.svdvals", args: linalg2Args(a), op: "svdvals", in: []string{"args.0"}},
		{name: "Torch.linalg.svdvals", args: linalg2Args(h), err: "linalg.svd: Low precision dtypes not supported. Got Half"},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(a), op: "matrix_norm", attrs: mn("fro", -2, -1, false)},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(a3, fv(inf), lv(iv(0), iv(2)), bv(true)), op: "matrix_norm", attrs: mn("inf", 0, 2, true)},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(a, iv(-2)), op: "matrix_norm", attrs: mn("-2", -2, -1, false)},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(a, sv("nuc")), kwargs: linalg2Kws(kw("dtype", dtv("torch.float64"))), op: "matrix_norm",
			attrs: ops.Attrs{"ord": ops.StringAttr("nuc"), "dim": ops.IntsAttr(-2, -1), "keepdim": ops.BoolAttr(false), "dtype": ops.StringAttr("float64")}},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(a, iv(3)), err: "Order 3 not supported"},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(h, sv("nuc")), err: "linalg.svd: Low precision dtypes not supported. Got Half"},
		{name: "Torch.linalg.matrix_norm", args: linalg2Args(v), err: "The input tensor A must have at least 2 dimensions"},
		{name: "Torch.linalg.norm", args: linalg2Args(a3), op: "norm", attrs: vn(2, ops.NoneAttr())},
		{name: "Torch.linalg.norm", args: linalg2Args(a3), kwargs: linalg2Kws(kw("dim", lv(iv(0), iv(1)))), op: "norm", attrs: vn(2, ops.IntsAttr(0, 1))},
		{name: "Torch.linalg.norm", args: linalg2Args(v, fv(inf)), op: "norm", attrs: vn(inf, ops.NoneAttr())},
		{name: "Torch.linalg.norm", args: linalg2Args(a, sv("nuc")), op: "matrix_norm", attrs: mn("nuc", -2, -1, false)},
		{name: "Torch.linalg.norm", args: linalg2Args(a3, iv(1), lv(iv(1), iv(2))), op: "matrix_norm", attrs: mn("1", 1, 2, false)},
		{name: "Torch.linalg.norm", args: linalg2Args(a3, iv(3), iv(1)), op: "norm", attrs: vn(3, ops.IntsAttr(1))},
		{name: "Torch.linalg.norm", args: linalg2Args(a3, iv(2)), err: "If dim is not specified but ord is, the input must be 1D or 2D. Got 3D."},
		{name: "Torch.linalg.norm", args: linalg2Args(v, sv("fro"), iv(0)), err: "ord must be a number for a vector norm"},
		{name: "Torch.nuclear_norm", args: linalg2Args(a), op: "matrix_norm", attrs: mn("nuc", -2, -1, false)},
		{name: "Torch.nuclear_norm", args: linalg2Args(a, bv(true)), op: "matrix_norm", attrs: mn("nuc", -2, -1, true)},
		{name: "Torch.nuclear_norm", args: linalg2Args(a3, lv(iv(0), iv(2))), op: "matrix_norm", attrs: mn("nuc", 0, 2, false)},
		{name: "Torch.nuclear_norm", args: linalg2Args(a3), err: "Expected a tensor with 2 dimensions, but got a tensor with 3 dimensions instead."},
		{name: "Torch.frobenius_norm", args: linalg2Args(a), op: "norm", attrs: vn(2, ops.NoneAttr())},
		{name: "Torch.frobenius_norm", args: linalg2Args(a3, lv(iv(0), iv(1)), bv(true)), op: "norm",
			attrs: ops.Attrs{"p": ops.FloatAttr(2), "dim": ops.IntsAttr(0, 1), "keepdim": ops.BoolAttr(true), "dtype": ops.NoneAttr()}},
		{name: "Torch.frobenius_norm", args: linalg2Args(a3, lv(iv(0), iv(1), iv(2))), err: "Expected at most 2 dimensions, but got 3 dimensions instead."},
		{name: "Torch.linalg.cond", args: linalg2Args(a), op: "cond", attrs: ops.Attrs{"p": ops.StringAttr("2")}, in: []string{"args.0"}},
		{name: "Torch.linalg.cond", args: linalg2Args(sq, sv("fro")), op: "cond", attrs: ops.Attrs{"p": ops.StringAttr("fro")}},
		{name: "Torch.linalg.pinv", args: linalg2Args(a), op: "pinv", attrs: tol(0, 0x1p-52*4, false), in: []string{"args.0"}},
		{name: "Torch.linalg.pinv", args: linalg2Args(a32), op: "pinv", attrs: tol(0, 0x1p-23*4, false)},
		{name: "Torch.linalg.pinv", args: linalg2Args(a, fv(0.1)), op: "pinv", attrs: tol(0, 0.1, false)},
		{name: "Torch.linalg.pinv", args: linalg2Args(sq), kwargs: linalg2Kws(kw("atol", fv(0.5)), kw("hermitian", bv(true))), op: "pinv", attrs: tol(0.5, 0, true)},
		{name: "Torch.linalg.pinv", args: linalg2Args(a), kwargs: linalg2Kws(kw("atol", fv(0.5)), kw("rtol", fv(0.25))), op: "pinv", attrs: tol(0.5, 0.25, false)},
		{name: "Torch.linalg.pinv", args: linalg2Args(a, fv(0.1)), kwargs: linalg2Kws(kw("atol", fv(0.5))), err: "rcond cannot be combined with atol or rtol"},
		{name: "Torch.linalg.pinv", args: linalg2Args(a), kwargs: linalg2Kws(kw("hermitian", bv(true))), err: "A must be batches of square matrices"},
		{name: "Torch.pinverse", args: linalg2Args(a), op: "pinv", attrs: tol(0, 1e-15, false)},
		{name: "Tensor.pinverse", args: linalg2Args(a, fv(0.01)), op: "pinv", attrs: tol(0, 0.01, false)},
		{name: "Torch.linalg.matrix_rank", args: linalg2Args(a), op: "matrix_rank", attrs: tol(0, 0x1p-52*4, false)},
		{name: "Torch.matrix_rank", args: linalg2Args(a, fv(0.5)), op: "matrix_rank", attrs: tol(0.5, 0, false)},
		{name: "Torch.linalg.matrix_rank", args: linalg2Args(h), err: "expected a tensor with 2 or more dimensions of float or double type"},
		{name: "Torch.symeig", args: linalg2Args(sq), op: "symeig", attrs: ops.Attrs{"eigenvectors": ops.BoolAttr(false), "upper": ops.BoolAttr(true)}, multi: true},
		{name: "Tensor.symeig", args: linalg2Args(sq, bv(true), bv(false)), op: "symeig", attrs: ops.Attrs{"eigenvectors": ops.BoolAttr(true), "upper": ops.BoolAttr(false)}, multi: true},
		{name: "Torch.matrix_exp", args: linalg2Args(sq), op: "matrix_exp", in: []string{"args.0"}},
		{name: "Tensor.matrix_exp", args: linalg2Args(sq), op: "matrix_exp"},
		{name: "Torch.linalg.matrix_exp", args: linalg2Args(sq), op: "matrix_exp"},
		{name: "Torch.linalg.lstsq", args: linalg2Args(sq, b), op: "lstsq", multi: true, attrs: ops.Attrs{"rcond": ops.FloatAttr(0x1p-52 * 3), "driver": ops.StringAttr("gelsy")}},
		{name: "Torch.lstsq", args: linalg2Args(sq, b, fv(0.01)), kwargs: linalg2Kws(kw("driver", sv("gelsd"))), op: "lstsq", multi: true,
			attrs: ops.Attrs{"rcond": ops.FloatAttr(0.01), "driver": ops.StringAttr("gelsd")}},
		{name: "Torch.linalg.lstsq", args: linalg2Args(sq, b), kwargs: linalg2Kws(kw("driver", sv("qr"))), err: "parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"},
		{name: "Torch.linalg.tensorsolve", args: linalg2Args(sq, tn("args.1", tensor.Float64, 3)), op: "tensorsolve", attrs: ops.Attrs{"dims": ops.IntsAttr()}},
		{name: "Torch.linalg.tensorsolve", args: linalg2Args(sq, tn("args.1", tensor.Float64, 3), lv(iv(0))), op: "tensorsolve", attrs: ops.Attrs{"dims": ops.IntsAttr(0)}},
		{name: "Torch.linalg.diagonal", args: linalg2Args(a3), op: "diagonal", attrs: ops.Attrs{"offset": ops.IntAttr(0), "dim1": ops.IntAttr(-2), "dim2": ops.IntAttr(-1)}},
		{name: "Torch.linalg.diagonal", args: linalg2Args(a3), kwargs: linalg2Kws(kw("offset", iv(1)), kw("dim1", iv(0))), op: "diagonal",
			attrs: ops.Attrs{"offset": ops.IntAttr(1), "dim1": ops.IntAttr(0), "dim2": ops.IntAttr(-1)}},
		{name: "Torch.linalg.diagonal", args: linalg2Args(a3, iv(1)), err: "positional"},
	}
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
		{name: "Functional.pdist", args: linalg2Args(x), kwargs: []framework.NamedArg{kw("p", fv(1.5))}, op: "pdist", attrs: ops.Attrs{"p": ops.FloatAttr(1.5)}, in: []string{"args.0"}},
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

// TestLinalg2DumpedLinalgNames: msprobe's dumper records torch.linalg.X as
// Torch.X; the names torch lacks lower as the torch.linalg calls.
func TestLinalg2DumpedLinalgNames(t *testing.T) {
	a := tn("args.0", tensor.Float64, 3, 3)
	b := tn("args.1", tensor.Float64, 3, 2)
	tau := tn("args.1", tensor.Float64, 2)
	runCases(t, []lcase{
		{name: "Torch.svdvals", args: linalg2Args(a), op: "svdvals"},
		{name: "Torch.matrix_norm", args: linalg2Args(a, sv("nuc")), op: "matrix_norm",
			attrs: ops.Attrs{"ord": ops.StringAttr("nuc"), "dim": ops.IntsAttr(-2, -1), "keepdim": ops.BoolAttr(false), "dtype": ops.NoneAttr()}},
		{name: "Torch.cond", args: linalg2Args(a), op: "cond", attrs: ops.Attrs{"p": ops.StringAttr("2")}},
		{name: "Torch.pinv", args: linalg2Args(a), op: "pinv", attrs: ops.Attrs{"atol": ops.FloatAttr(0), "rtol": ops.FloatAttr(0x1p-52 * 3), "hermitian": ops.BoolAttr(false)}},
		{name: "Torch.cholesky_ex", args: linalg2Args(a), op: "cholesky", multi: true,
			attrs: ops.Attrs{"upper": ops.BoolAttr(false), "check_errors": ops.BoolAttr(false), "fn": ops.StringAttr("linalg.cholesky_ex")}},
		{name: "Torch.solve_ex", args: linalg2Args(a, b), op: "linalg_solve", multi: true, attrs: ops.Attrs{"left": ops.BoolAttr(true), "check_errors": ops.BoolAttr(false)}},
		{name: "Torch.inv_ex", args: linalg2Args(a), op: "matrix_power", multi: true, attrs: ops.Attrs{"n": ops.IntAttr(-1)}},
		{name: "Torch.tensorsolve", args: linalg2Args(a, tn("args.1", tensor.Float64, 3)), op: "tensorsolve", attrs: ops.Attrs{"dims": ops.IntsAttr()}},
		{name: "Torch.householder_product", args: linalg2Args(a, tau), op: "householder_product"},
	}, nil)
}
