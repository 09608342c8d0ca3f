package lower

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The linalg2 family (sdk/ops/schema_linalg2.go): einsum, distances,
// factorisation-based solvers and norms, statistics, integration and
// combinatorics.

func init() {
	def(linalg2Einsum, "equation, *operands", "Torch.einsum")
	def(linalg2Cdist, "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'", "Torch.cdist")
	def(linalg2Pdist, "input, p=2", "Torch.pdist", "Functional.pdist")
	def(linalg2Cholesky("cholesky"), "input, upper=False, *, out=None", "Torch.cholesky", "Tensor.cholesky")
	def(linalg2Cholesky("linalg.cholesky"), "input, *, upper=False, out=None", "Torch.linalg.cholesky")
	defMulti(linalg2Cholesky("linalg.cholesky_ex"), "input, *, upper=False, check_errors=False, out=None", "Torch.linalg.cholesky_ex", "Torch.cholesky_ex")
	def(linalg2Factor("cholesky_inverse", "input"), "input, upper=False, *, out=None", "Torch.cholesky_inverse", "Tensor.cholesky_inverse")
	def(linalg2Factor("cholesky_solve", "input", "input2"), "input, input2, upper=False, *, out=None", "Torch.cholesky_solve", "Tensor.cholesky_solve")
	defMulti(linalg2Triangular, "input, A, upper=True, transpose=False, unitriangular=False, *, out=None", "Torch.triangular_solve", "Tensor.triangular_solve")
	// torch.solve raises in PyTorch 1.13: a dumped Torch.solve is
	// torch.linalg.solve recorded under its last name (§12 #11).
	def(linalg2Solve(false), "A, B, *, left=True, out=None", "Torch.linalg.solve", "Torch.solve")
	defMulti(linalg2Solve(true), "A, B, *, left=True, check_errors=False, out=None", "Torch.linalg.solve_ex", "Torch.solve_ex")
	def(linalg2Factor("lu_solve", "input", "LU_data", "LU_pivots"), "input, LU_data, LU_pivots, *, out=None", "Torch.lu_solve", "Tensor.lu_solve")
	defMulti(linalg2LUUnpack, "LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None", "Torch.lu_unpack")
	defMulti(linalg2InvEx, "A, *, check_errors=False, out=None", "Torch.linalg.inv_ex", "Torch.inv_ex")
	usedOps = append(usedOps, "einsum", "cdist", "pdist", "cholesky", "cholesky_inverse", "cholesky_solve", "triangular_solve", "linalg_solve", "lu_solve", "lu_unpack")
	declareOps([]string{"lu_solve"}, "Torch.lu_solve", "Tensor.lu_solve")
	declareOps([]string{"lu_unpack"}, "Torch.lu_unpack")
	declareOps([]string{"matrix_power"}, "Torch.linalg.inv_ex", "Torch.inv_ex")

	def(linalg2Svdvals, "A, *, driver=None, out=None", "Torch.linalg.svdvals", "Torch.svdvals")
	def(linalg2MatrixNorm, "input, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None, out=None", "Torch.linalg.matrix_norm", "Torch.matrix_norm")
	def(linalg2Norm, "input, ord=None, dim=None, keepdim=False, *, out=None, dtype=None", "Torch.linalg.norm")
	def(linalg2Nuclear, "input, dim=None, keepdim=False, *, out=None", "Torch.nuclear_norm")
	def(linalg2Frobenius, "input, dim=None, keepdim=False, *, out=None", "Torch.frobenius_norm")
	def(linalg2Cond, "input, p=None, *, out=None", "Torch.linalg.cond", "Torch.cond")
	def(linalg2Pinv("linalg.pinv"), "input, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None", "Torch.linalg.pinv", "Torch.pinv")
	def(linalg2Pinv("pinverse"), "input, rcond=1e-15", "Torch.pinverse", "Tensor.pinverse")
	// torch.matrix_rank and torch.lstsq raise in PyTorch 1.13: a dumped
	// Torch.matrix_rank or Torch.lstsq is the torch.linalg function (§12 #11).
	def(linalg2Pinv("linalg.matrix_rank"), "input, tol=None, hermitian=False, *, atol=None, rtol=None, out=None", "Torch.linalg.matrix_rank", "Torch.matrix_rank")
	defMulti(linalg2Symeig, "input, eigenvectors=False, upper=True, *, out=None", "Torch.symeig", "Tensor.symeig")
	def(linalg2MatrixExp, "input", "Torch.matrix_exp", "Tensor.matrix_exp", "Torch.linalg.matrix_exp")
	defMulti(linalg2Lstsq, "input, b, rcond=None, *, driver=None", "Torch.linalg.lstsq", "Torch.lstsq")
	def(linalg2Tensorsolve, "input, other, dims=None, *, out=None", "Torch.linalg.tensorsolve", "Torch.tensorsolve")
	def(linalg2Diagonal, "A, *, offset=0, dim1=-2, dim2=-1", "Torch.linalg.diagonal")
	// msprobe's dumper records torch.linalg.X as Torch.X (§12 #11); the
	// names above that torch 1.13 lacks (cholesky_ex, solve_ex, inv_ex,
	// svdvals, matrix_norm, cond, pinv, tensorsolve, householder_product)
	// are therefore the torch.linalg calls. Torch.norm and Torch.diagonal
	// exist in torch too, with other defaults: they stay torch's.
	usedOps = append(usedOps, "svdvals", "matrix_norm", "cond", "pinv", "matrix_rank", "symeig", "matrix_exp", "lstsq", "tensorsolve")
	declareOps([]string{"matrix_norm", "norm"}, "Torch.linalg.norm")
	declareOps([]string{"norm"}, "Torch.frobenius_norm")
	declareOps([]string{"matrix_norm"}, "Torch.nuclear_norm", "Torch.linalg.matrix_norm", "Torch.matrix_norm")
	declareOps([]string{"tensorsolve"}, "Torch.linalg.tensorsolve", "Torch.tensorsolve")
	declareOps([]string{"lstsq"}, "Torch.linalg.lstsq", "Torch.lstsq")

	def(linalg2Tensors2("householder_product", "input", "tau"), "input, tau, *, out=None", "Torch.linalg.householder_product", "Torch.householder_product")
	def(linalg2Tensors2("householder_product", "input", "input2"), "input, input2, *, out=None", "Torch.orgqr", "Tensor.orgqr")
	def(linalg2Ormqr, "input, input2, input3, left=True, transpose=False, *, out=None", "Torch.ormqr", "Tensor.ormqr")
	def(linalg2Cov, "input, *, correction=1, fweights=None, aweights=None", "Torch.cov", "Tensor.cov")
	def(linalg2Tensors2("corrcoef", "input"), "input", "Torch.corrcoef", "Tensor.corrcoef")
	def(linalg2Trapezoid("trapezoid"), "y, x=None, *, dx=None, dim=-1", "Torch.trapz", "Torch.trapezoid")
	def(linalg2Trapezoid("cumulative_trapezoid"), "y, x=None, *, dx=None, dim=-1", "Torch.cumulative_trapezoid")
	def(linalg2Cartesian, "*tensors", "Torch.cartesian_prod")
	def(linalg2Combinations, "input, r=2, with_replacement=False", "Torch.combinations")
	usedOps = append(usedOps, "householder_product", "ormqr", "cov", "corrcoef", "trapezoid", "cumulative_trapezoid", "cartesian_prod", "combinations")
	declareOps([]string{"householder_product"}, "Torch.linalg.householder_product", "Torch.householder_product", "Torch.orgqr", "Tensor.orgqr")
	declareOps([]string{"ormqr"}, "Torch.ormqr", "Tensor.ormqr")
	declareOps([]string{"cartesian_prod"}, "Torch.cartesian_prod")
	declareOps([]string{"combinations"}, "Torch.combinations")
	declareOps([]string{"einsum"}, "Torch.einsum")
	declareOps([]string{"cdist"}, "Torch.cdist")
}

// linalg2Tensors reads a list of tensor arguments.
func (b *bound) linalg2Tensors(name string, list []framework.Arg) ([]framework.Arg, error) {
	for i, e := range list {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr(name, "element %d: expected tensor, got %s", i, kindName(e))
		}
	}
	return list, nil
}

// linalg2Einsum lowers torch.einsum(equation, *operands) and its
// einsum(equation, [operands]) form.
func linalg2Einsum(b *bound) (*framework.Plan, error) {
	eq, err := b.str("equation")
	if err != nil {
		return nil, err
	}
	list := b.variadic
	if len(list) == 1 && list[0].Kind == framework.ArgList {
		list = list[0].Elems
	}
	xs, err := b.linalg2Tensors("operands", list)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, b.errf("einsum(): must provide at least one operand")
	}
	ranks := make([]int, len(xs))
	in := make([]framework.Binding, len(xs))
	for i, x := range xs {
		ranks[i] = rankOf(x)
		in[i] = tensorBinding(x)
		if x.DType != xs[0].DType {
			return nil, b.errf("expected scalar type %s but found %s (probe checks einsum over operands of one dtype)", ops.TypeName(xs[0].DType), ops.TypeName(x.DType))
		}
	}
	if _, err := ops.Linalg2ParseEinsum(eq, ranks); err != nil {
		return nil, b.errf("%v", err)
	}
	return newPlan("einsum", ops.Attrs{"equation": ops.StringAttr(eq)}, in...), nil
}

var linalg2CdistModes = map[string]int64{"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}

// linalg2Cdist lowers torch.cdist.
func linalg2Cdist(b *bound) (*framework.Plan, error) {
	x1, err := b.tensor("x1")
	if err != nil {
		return nil, err
	}
	x2, err := b.tensor("x2")
	if err != nil {
		return nil, err
	}
	p, err := b.float("p")
	if err != nil {
		return nil, err
	}
	mode := int64(0)
	if !b.isNone("compute_mode") {
		s, err := b.str("compute_mode")
		if err != nil {
			return nil, err
		}
		m, ok := linalg2CdistModes[s]
		if !ok {
			return nil, b.argErr("compute_mode", "%s is not a valid value for compute_mode", s)
		}
		mode = m
	}
	return newPlan("cdist", ops.Attrs{"p": ops.FloatAttr(p), "compute_mode": ops.IntAttr(mode)}, tensorBinding(x1), tensorBinding(x2)), nil
}

// linalg2Pdist lowers torch.pdist.
func linalg2Pdist(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	p, err := b.float("p")
	if err != nil {
		return nil, err
	}
	if math.IsNaN(p) {
		return nil, b.argErr("p", "pdist only supports non-negative p values")
	}
	return newPlan("pdist", ops.Attrs{"p": ops.FloatAttr(p)}, tensorBinding(x)), nil
}

// linalg2Float2 refuses what PyTorch's LAPACK kernels refuse: dtypes
// other than float32 and float64.
func (b *bound) linalg2Float2(fn string, x framework.Arg) error {
	if !x.DType.IsFloat() {
		return b.errf("%s: Expected a floating point or complex tensor as input. Got %s", fn, ops.TypeName(x.DType))
	}
	if x.DType != tensor.Float64 && x.DType != tensor.Float32 {
		return b.errf("%s: Low precision dtypes not supported. Got %s", fn, ops.TypeName(x.DType))
	}
	return nil
}

// linalg2Cholesky lowers torch.cholesky (upper positional), its
// torch.linalg forms and linalg.cholesky_ex (the info output compared too).
func linalg2Cholesky(fn string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if err := b.linalg2Float2(fn, x); err != nil {
			return nil, err
		}
		upper, err := b.boolean("upper")
		if err != nil {
			return nil, err
		}
		check := true
		if fn == "linalg.cholesky_ex" {
			if check, err = b.boolean("check_errors"); err != nil {
				return nil, err
			}
		}
		p := newPlan("cholesky", ops.Attrs{"upper": ops.BoolAttr(upper), "check_errors": ops.BoolAttr(check), "fn": ops.StringAttr(fn)}, tensorBinding(x))
		if fn != "linalg.cholesky_ex" {
			p.Compare = []int{0}
		}
		return p, nil
	}
}

// linalg2Factor lowers cholesky_inverse, cholesky_solve and lu_solve: the
// tensors named, in order, and upper where the API has it.
func linalg2Factor(op string, names ...string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		in := make([]framework.Binding, len(names))
		for i, n := range names {
			x, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			in[i] = tensorBinding(x)
		}
		attrs := ops.Attrs{}
		if op != "lu_solve" {
			upper, err := b.boolean("upper")
			if err != nil {
				return nil, err
			}
			attrs["upper"] = ops.BoolAttr(upper)
		}
		return newPlan(op, attrs, in...), nil
	}
}

// linalg2Triangular lowers torch.triangular_solve(b, A, ...).
func linalg2Triangular(b *bound) (*framework.Plan, error) {
	rhs, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	a, err := b.tensor("A")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{}
	for _, n := range []string{"upper", "transpose", "unitriangular"} {
		v, err := b.boolean(n)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.BoolAttr(v)
	}
	return newPlan("triangular_solve", attrs, tensorBinding(rhs), tensorBinding(a)), nil
}

// linalg2Solve lowers torch.linalg.solve (ex: solve_ex, whose info output
// is compared too).
func linalg2Solve(ex bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		a, err := b.tensor("A")
		if err != nil {
			return nil, err
		}
		rhs, err := b.tensor("B")
		if err != nil {
			return nil, err
		}
		if err := b.linalg2Float2("linalg.solve", a); err != nil {
			return nil, err
		}
		left, err := b.boolean("left")
		if err != nil {
			return nil, err
		}
		check := true
		if ex {
			if check, err = b.boolean("check_errors"); err != nil {
				return nil, err
			}
		}
		p := newPlan("linalg_solve", ops.Attrs{"left": ops.BoolAttr(left), "check_errors": ops.BoolAttr(check)}, tensorBinding(a), tensorBinding(rhs))
		if !ex {
			p.Compare = []int{0}
		}
		return p, nil
	}
}

// linalg2LUUnpack lowers torch.lu_unpack.
func linalg2LUUnpack(b *bound) (*framework.Plan, error) {
	lu, err := b.tensor("LU_data")
	if err != nil {
		return nil, err
	}
	piv, err := b.tensor("LU_pivots")
	if err != nil {
		return nil, err
	}
	data, err := b.boolean("unpack_data")
	if err != nil {
		return nil, err
	}
	pivots, err := b.boolean("unpack_pivots")
	if err != nil {
		return nil, err
	}
	p := newPlan("lu_unpack", ops.Attrs{"unpack_data": ops.BoolAttr(data), "unpack_pivots": ops.BoolAttr(pivots)}, tensorBinding(lu), tensorBinding(piv))
	if !data || !pivots {
		p.Compare = []int{} // the outputs not unpacked are empty tensors
		if pivots {
			p.Compare = append(p.Compare, 0)
		}
		if data {
			p.Compare = append(p.Compare, 1, 2)
		}
	}
	return p, nil
}

// linalg2InvEx lowers torch.linalg.inv_ex onto matrix_power with n = -1:
// the inverse is compared; info (0 for the invertible matrices a dumped
// call succeeds on without NaN) is not, and a singular matrix is refused
// by the op where inv_ex returns non-finite values.
func linalg2InvEx(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("A")
	if err != nil {
		return nil, err
	}
	if r := rankOf(x); r < 2 {
		return nil, b.errf("linalg.inv: The input tensor A must have at least 2 dimensions.")
	} else if x.Shape[r-1] != x.Shape[r-2] {
		return nil, b.errf("linalg.inv: A must be batches of square matrices, but they are %d by %d matrices", x.Shape[r-2], x.Shape[r-1])
	}
	if err := b.linalg2Float2("linalg.inv", x); err != nil {
		return nil, err
	}
	if _, err := b.boolean("check_errors"); err != nil {
		return nil, err
	}
	p := newPlan("matrix_power", ops.Attrs{"n": ops.IntAttr(-1)}, tensorBinding(x))
	p.Compare = []int{0}
	return p, nil
}

// linalg2Svdvals lowers torch.linalg.svdvals (driver is a CUDA option).
func linalg2Svdvals(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("A")
	if err != nil {
		return nil, err
	}
	if err := b.linalg2Float2("linalg.svd", x); err != nil {
		return nil, err
	}
	return newPlan("svdvals", nil, tensorBinding(x)), nil
}

// linalg2Ord reads a matrix norm order: 'fro', 'nuc' or ±1, ±2, ±inf.
func (b *bound) linalg2Ord(name string) (string, error) {
	a := b.arg(name)
	switch a.Kind {
	case framework.ArgString:
		if a.Str == "fro" || a.Str == "nuc" {
			return a.Str, nil
		}
		return "", b.argErr(name, "linalg.matrix_norm: Order %s not supported.", a.Str)
	case framework.ArgInt, framework.ArgFloat:
		v, _ := b.float(name)
		switch {
		case math.IsInf(v, 1):
			return "inf", nil
		case math.IsInf(v, -1):
			return "-inf", nil
		case v == 1 || v == -1 || v == 2 || v == -2:
			return fmt.Sprint(v), nil
		}
		return "", b.argErr(name, "linalg.matrix_norm: Order %v not supported.", v)
	}
	return "", b.argErr(name, "expected a number or str, got %s", kindName(a))
}

// linalg2MatrixNormPlan checks x and builds the matrix_norm plan.
func (b *bound) linalg2MatrixNormPlan(x framework.Arg, ord string, d0, d1 int64, keep bool, dt ops.Attr) (*framework.Plan, error) {
	if rankOf(x) < 2 {
		return nil, b.errf("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.DType))
	}
	w0, err := b.wrapDim("dim", d0, rankOf(x))
	if err != nil {
		return nil, err
	}
	w1, err := b.wrapDim("dim", d1, rankOf(x))
	if err != nil {
		return nil, err
	}
	if w0 == w1 {
		return nil, b.argErr("dim", "linalg.matrix_norm: dims must be different. Got (%d, %d)", d0, d1)
	}
	if ord == "nuc" || ord == "2" || ord == "-2" {
		d := x.DType
		if dt.Kind == ops.AttrString {
			d, _ = tensor.Parse(dt.String)
		}
		if err := b.linalg2Float2("linalg.svd", framework.Arg{DType: d}); err != nil {
			return nil, err
		}
	}
	return newPlan("matrix_norm", ops.Attrs{"ord": ops.StringAttr(ord), "dim": ops.IntsAttr(d0, d1), "keepdim": ops.BoolAttr(keep), "dtype": dt}, tensorBinding(x)), nil
}

// linalg2MatrixNorm lowers torch.linalg.matrix_norm.
func linalg2MatrixNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	ord, err := b.linalg2Ord("ord")
	if err != nil {
		return nil, err
	}
	dims, err := b.intList("dim", 2, false)
	if err != nil {
		return nil, err
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	return b.linalg2MatrixNormPlan(x, ord, dims[0], dims[1], keep, dt)
}

// linalg2VectorPlan is the vector p-norm over dims (nil: every dim).
func (b *bound) linalg2VectorPlan(x framework.Arg, p float64, dims []int64, keep bool, dt ops.Attr) *framework.Plan {
	dim := ops.NoneAttr()
	if dims != nil {
		dim = ops.IntsAttr(dims...)
	}
	return newPlan("norm", ops.Attrs{"p": ops.FloatAttr(p), "dim": dim, "keepdim": ops.BoolAttr(keep), "dtype": dt}, tensorBinding(x))
}

// linalg2Norm lowers torch.linalg.norm: without ord the 2-norm of the
// flattened input or over dim (a 2-tuple: the Frobenius norm, the same
// values); with ord a vector norm (1-d input or one dim) or a matrix norm
// (2-d input or two dims).
func linalg2Norm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.DType))
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	var dims []int64
	if !b.isNone("dim") {
		if dims, err = b.intList("dim", 0, true); err != nil {
			return nil, err
		}
		if len(dims) != 1 && len(dims) != 2 {
			return nil, b.argErr("dim", "linalg.norm: If dim is specified, it must be of length 1 or 2. Got %v", dims)
		}
		for _, d := range dims {
			if _, err := b.wrapDim("dim", d, rankOf(x)); err != nil {
				return nil, err
			}
		}
	}
	if b.isNone("ord") {
		return b.linalg2VectorPlan(x, 2, dims, keep, dt), nil
	}
	matrix := len(dims) == 2
	if dims == nil {
		switch rankOf(x) {
		case 1:
		case 2:
			matrix, dims = true, []int64{-2, -1}
		default:
			return nil, b.errf("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD.", rankOf(x))
		}
	}
	if matrix {
		ord, err := b.linalg2Ord("ord")
		if err != nil {
			return nil, err
		}
		return b.linalg2MatrixNormPlan(x, ord, dims[0], dims[1], keep, dt)
	}
	if b.arg("ord").Kind == framework.ArgString {
		return nil, b.argErr("ord", "linalg.vector_norm: ord must be a number for a vector norm, got %q", b.arg("ord").Str)
	}
	p, err := b.normOrder("ord")
	if err != nil {
		return nil, err
	}
	return b.linalg2VectorPlan(x, p, dims, keep, dt), nil
}

// linalg2Nuclear lowers torch.nuclear_norm(input, keepdim=False) and
// torch.nuclear_norm(input, dim, keepdim=False).
func linalg2Nuclear(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	keep := false
	dims := []int64{-2, -1}
	if a := b.arg("dim"); a.Kind == framework.ArgBool {
		if b.given["keepdim"] {
			return nil, b.argErr("keepdim", "given twice (the (input, keepdim) overload)")
		}
		keep = a.Bool
	} else {
		if keep, err = b.boolean("keepdim"); err != nil {
			return nil, err
		}
		if b.isNone("dim") {
			if rankOf(x) != 2 {
				return nil, b.errf("Expected a tensor with 2 dimensions, but got a tensor with %d dimensions instead.", rankOf(x))
			}
		} else if dims, err = b.intList("dim", 2, false); err != nil {
			return nil, err
		}
	}
	if rankOf(x) < 2 {
		return nil, b.errf("Expected a tensor with 2 dimensions, but got a tensor with %d dimensions instead.", rankOf(x))
	}
	return b.linalg2MatrixNormPlan(x, "nuc", dims[0], dims[1], keep, ops.NoneAttr())
}

// linalg2Frobenius lowers torch.frobenius_norm: the 2-norm over at most
// two dims (every dim without dim).
func linalg2Frobenius(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("norm(): input dtype should be either floating point or complex. Got %s instead.", ops.TypeName(x.DType))
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	var dims []int64
	if !b.isNone("dim") {
		if dims, err = b.intList("dim", 0, true); err != nil {
			return nil, err
		}
		if len(dims) > 2 {
			return nil, b.errf("Expected at most 2 dimensions, but got %d dimensions instead.", len(dims))
		}
		for _, d := range dims {
			if _, err := b.wrapDim("dim", d, rankOf(x)); err != nil {
				return nil, err
			}
		}
	}
	return b.linalg2VectorPlan(x, 2, dims, keep, ops.NoneAttr()), nil
}

// linalg2Cond lowers torch.linalg.cond; PyTorch 1.13 has no working
// backward for the orders other than None, 2 and -2.
func linalg2Cond(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	p := "2"
	if !b.isNone("p") {
		if p, err = b.linalg2Ord("p"); err != nil {
			return nil, err
		}
	}
	if err := b.linalg2Float2("linalg.cond", x); err != nil {
		return nil, err
	}
	if rankOf(x) < 2 {
		return nil, b.errf("linalg.cond: The input tensor A must have at least 2 dimensions.")
	}
	plan := newPlan("cond", ops.Attrs{"p": ops.StringAttr(p)}, tensorBinding(x))
	if p != "2" && p != "-2" {
		plan.BackwardMessage = "linalg.cond(p=" + p + ") has no working backward in PyTorch 1.13 (an in-place inverse is read again)"
	}
	return plan, nil
}

// linalg2Eps is the machine epsilon of the dumped dtype, which PyTorch's
// default tolerances use (the bench computes in float64 with the
// device's tolerances).
func linalg2Eps(d tensor.DType) float64 {
	if d == tensor.Float32 {
		return 0x1p-23
	}
	return 0x1p-52
}

// linalg2Tol reads the tolerances of pinv and matrix_rank: a positional
// rcond/tol (the deprecated overloads: an absolute tol for matrix_rank, a
// relative rcond for pinv), else atol and rtol with PyTorch's defaults
// (rtol = eps·max(m, n) unless atol > 0).
func (b *bound) linalg2Tol(fn string, x framework.Arg) (atol, rtol float64, err error) {
	m, n := x.Shape[rankOf(x)-2], x.Shape[rankOf(x)-1]
	def := linalg2Eps(x.DType) * float64(max(m, n))
	old := "rcond"
	if fn == "linalg.matrix_rank" {
		old = "tol"
	}
	if fn == "pinverse" {
		r, err := b.float("rcond")
		return 0, r, err
	}
	if !b.isNone(old) {
		if !b.isNone("atol") || !b.isNone("rtol") {
			return 0, 0, b.argErr(old, "%s: %s cannot be combined with atol or rtol", fn, old)
		}
		v, err := b.float(old)
		if err != nil {
			return 0, 0, err
		}
		if old == "tol" {
			return v, 0, nil
		}
		return 0, v, nil
	}
	if !b.isNone("atol") {
		if atol, err = b.float("atol"); err != nil {
			return 0, 0, err
		}
	}
	if !b.isNone("rtol") {
		rtol, err = b.float("rtol")
		return atol, rtol, err
	}
	if atol > 0 {
		return atol, 0, nil
	}
	return atol, def, nil
}

// linalg2Pinv lowers torch.linalg.pinv, torch.pinverse and
// torch.linalg.matrix_rank (the same tolerances).
func linalg2Pinv(fn string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if rankOf(x) < 2 || (x.DType != tensor.Float64 && x.DType != tensor.Float32) {
			return nil, b.errf("%s: expected a tensor with 2 or more dimensions of float or double type, got %s of rank %d", fn, ops.TypeName(x.DType), rankOf(x))
		}
		atol, rtol, err := b.linalg2Tol(fn, x)
		if err != nil {
			return nil, err
		}
		herm := false
		if fn != "pinverse" {
			if herm, err = b.boolean("hermitian"); err != nil {
				return nil, err
			}
			if r := rankOf(x); herm && x.Shape[r-1] != x.Shape[r-2] {
				return nil, b.errf("%s: A must be batches of square matrices, but they are %d by %d matrices", fn, x.Shape[r-2], x.Shape[r-1])
			}
		}
		op := "pinv"
		if fn == "linalg.matrix_rank" {
			op = "matrix_rank"
		}
		return newPlan(op, ops.Attrs{"atol": ops.FloatAttr(atol), "rtol": ops.FloatAttr(rtol), "hermitian": ops.BoolAttr(herm)}, tensorBinding(x)), nil
	}
}

// linalg2Symeig lowers torch.symeig (deprecated in 1.13, not removed).
func linalg2Symeig(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	vec, err := b.boolean("eigenvectors")
	if err != nil {
		return nil, err
	}
	upper, err := b.boolean("upper")
	if err != nil {
		return nil, err
	}
	p := newPlan("symeig", ops.Attrs{"eigenvectors": ops.BoolAttr(vec), "upper": ops.BoolAttr(upper)}, tensorBinding(x))
	if !vec {
		p.Compare = []int{0} // the eigenvectors are an empty tensor
		p.BackwardMessage = "torch.symeig(A, eigenvectors=False) is not differentiable in PyTorch 1.13"
	}
	return p, nil
}

// linalg2MatrixExp lowers torch.matrix_exp and torch.linalg.matrix_exp.
func linalg2MatrixExp(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	return newPlan("matrix_exp", nil, tensorBinding(x)), nil
}

// linalg2Lstsq lowers torch.linalg.lstsq: rcond defaults to
// eps·max(m, n) of the dumped dtype, driver to gelsy (the CPU's).
func linalg2Lstsq(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	rhs, err := b.tensor("b")
	if err != nil {
		return nil, err
	}
	if rankOf(x) < 2 {
		return nil, b.errf("torch.linalg.lstsq: input must have at least 2 dimensions.")
	}
	rcond := linalg2Eps(x.DType) * float64(max(x.Shape[rankOf(x)-2], x.Shape[rankOf(x)-1]))
	if !b.isNone("rcond") {
		if rcond, err = b.float("rcond"); err != nil {
			return nil, err
		}
	}
	driver := "gelsy"
	if !b.isNone("driver") {
		if driver, err = b.str("driver"); err != nil {
			return nil, err
		}
		switch driver {
		case "gels", "gelsy", "gelsd", "gelss":
		default:
			return nil, b.argErr("driver", "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
		}
	}
	p := newPlan("lstsq", ops.Attrs{"rcond": ops.FloatAttr(rcond), "driver": ops.StringAttr(driver)}, tensorBinding(x), tensorBinding(rhs))
	// outputs the driver leaves empty are not compared: residuals exist
	// for m > n (and full rank) except with gelsy, rank except with gels,
	// singular values with gelsd and gelss
	p.Compare = []int{0}
	if x.Shape[rankOf(x)-2] > x.Shape[rankOf(x)-1] && driver != "gelsy" {
		p.Compare = append(p.Compare, 1)
	}
	if driver != "gels" {
		p.Compare = append(p.Compare, 2)
	}
	if driver == "gelsd" || driver == "gelss" {
		p.Compare = append(p.Compare, 3)
	}
	return p, nil
}

// linalg2Tensorsolve lowers torch.linalg.tensorsolve.
func linalg2Tensorsolve(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	rhs, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	dims := []int64{}
	if !b.isNone("dims") {
		if dims, err = b.intList("dims", 0, true); err != nil {
			return nil, err
		}
	}
	return newPlan("tensorsolve", ops.Attrs{"dims": ops.IntsAttr(dims...)}, tensorBinding(x), tensorBinding(rhs)), nil
}

// linalg2Diagonal lowers torch.linalg.diagonal: torch.diagonal with the
// last two dims by default.
func linalg2Diagonal(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("A")
	if err != nil {
		return nil, err
	}
	off, err := b.integer("offset")
	if err != nil {
		return nil, err
	}
	d1, d2, err := b.diagPair("dim1", "dim2", rankOf(x))
	if err != nil {
		return nil, err
	}
	return newPlan("diagonal", ops.Attrs{"offset": ops.IntAttr(off), "dim1": ops.IntAttr(d1), "dim2": ops.IntAttr(d2)}, tensorBinding(x)), nil
}

// linalg2Tensors2 lowers an API whose arguments are the named tensors.
func linalg2Tensors2(op string, names ...string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		in := make([]framework.Binding, len(names))
		for i, n := range names {
			x, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			in[i] = tensorBinding(x)
		}
		return newPlan(op, nil, in...), nil
	}
}

// linalg2Ormqr lowers torch.ormqr(input, input2=tau, input3=other).
func linalg2Ormqr(b *bound) (*framework.Plan, error) {
	p, err := linalg2Tensors2("ormqr", "input", "input2", "input3")(b)
	if err != nil {
		return nil, err
	}
	for _, n := range []string{"left", "transpose"} {
		v, err := b.boolean(n)
		if err != nil {
			return nil, err
		}
		p.Attrs[n] = ops.BoolAttr(v)
	}
	p.BackwardMessage = "the derivative for 'ormqr' is not implemented in PyTorch 1.13"
	return p, nil
}

// linalg2Cov lowers torch.cov: the weights take no gradient.
func linalg2Cov(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	corr := int64(1)
	switch a := b.arg("correction"); a.Kind {
	case framework.ArgBool:
		if a.Bool {
			corr = 1
		} else {
			corr = 0
		}
	default:
		if corr, err = b.integer("correction"); err != nil {
			return nil, err
		}
	}
	fw, okf, err := b.optTensor("fweights")
	if err != nil {
		return nil, err
	}
	aw, oka, err := b.optTensor("aweights")
	if err != nil {
		return nil, err
	}
	return newPlan("cov", ops.Attrs{"correction": ops.IntAttr(corr)}, tensorBinding(x), optBinding(fw, okf), optBinding(aw, oka)), nil
}

// linalg2Trapezoid lowers torch.trapezoid/trapz and
// cumulative_trapezoid: the (y, x) overload or the (y, *, dx) one.
func linalg2Trapezoid(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		y, err := b.tensor("y")
		if err != nil {
			return nil, err
		}
		dim, err := b.integer("dim")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"dim": ops.IntAttr(dim), "dx": ops.FloatAttr(1)}
		if !b.isNone("x") {
			if !b.isNone("dx") {
				return nil, b.argErr("dx", "%s: cannot pass both x and dx", op)
			}
			x, err := b.tensor("x")
			if err != nil {
				return nil, err
			}
			return newPlan(op, attrs, tensorBinding(y), tensorBinding(x)), nil
		}
		if !b.isNone("dx") {
			dx, err := b.float("dx")
			if err != nil {
				return nil, err
			}
			attrs["dx"] = ops.FloatAttr(dx)
		}
		return newPlan(op, attrs, tensorBinding(y), noneBinding), nil
	}
}

// linalg2Cartesian lowers torch.cartesian_prod.
func linalg2Cartesian(b *bound) (*framework.Plan, error) {
	list := b.variadic
	if len(list) == 1 && list[0].Kind == framework.ArgList {
		list = list[0].Elems
	}
	xs, err := b.linalg2Tensors("tensors", list)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, b.errf("meshgrid expects a non-empty TensorList")
	}
	in := make([]framework.Binding, len(xs))
	for i, x := range xs {
		in[i] = tensorBinding(x)
	}
	return newPlan("cartesian_prod", nil, in...), nil
}

// linalg2Combinations lowers torch.combinations.
func linalg2Combinations(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	r, err := b.integer("r")
	if err != nil {
		return nil, err
	}
	repl, err := b.boolean("with_replacement")
	if err != nil {
		return nil, err
	}
	return newPlan("combinations", ops.Attrs{"r": ops.IntAttr(r), "with_replacement": ops.BoolAttr(repl)}, tensorBinding(x)), nil
}
