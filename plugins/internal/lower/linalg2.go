package lower

import (
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
	def(linalg2Pdist, "input, p=2", "Torch.pdist")
	def(linalg2Cholesky("cholesky"), "input, upper=False, *, out=None", "Torch.cholesky", "Tensor.cholesky")
	def(linalg2Cholesky("linalg.cholesky"), "A, *, upper=False, out=None", "Torch.linalg.cholesky")
	defMulti(linalg2Cholesky("linalg.cholesky_ex"), "A, *, upper=False, check_errors=False, out=None", "Torch.linalg.cholesky_ex")
	def(linalg2Factor("cholesky_inverse", "input"), "input, upper=False, *, out=None", "Torch.cholesky_inverse", "Tensor.cholesky_inverse")
	def(linalg2Factor("cholesky_solve", "input", "input2"), "input, input2, upper=False, *, out=None", "Torch.cholesky_solve", "Tensor.cholesky_solve")
	defMulti(linalg2Triangular, "input, A, upper=True, transpose=False, unitriangular=False, *, out=None", "Torch.triangular_solve", "Tensor.triangular_solve")
	// torch.solve raises in PyTorch 1.13: a dumped Torch.solve is
	// torch.linalg.solve recorded under its last name (§12 #11).
	def(linalg2Solve(false), "A, B, *, left=True, out=None", "Torch.linalg.solve", "Torch.solve")
	defMulti(linalg2Solve(true), "A, B, *, left=True, check_errors=False, out=None", "Torch.linalg.solve_ex")
	def(linalg2Factor("lu_solve", "input", "LU_data", "LU_pivots"), "input, LU_data, LU_pivots, *, out=None", "Torch.lu_solve", "Tensor.lu_solve")
	defMulti(linalg2LUUnpack, "LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None", "Torch.lu_unpack")
	defMulti(linalg2InvEx, "A, *, check_errors=False, out=None", "Torch.linalg.inv_ex")
	usedOps = append(usedOps, "einsum", "cdist", "pdist", "cholesky", "cholesky_inverse", "cholesky_solve", "triangular_solve", "linalg_solve", "lu_solve", "lu_unpack")
	declareOps([]string{"lu_solve"}, "Torch.lu_solve", "Tensor.lu_solve")
	declareOps([]string{"lu_unpack"}, "Torch.lu_unpack")
	declareOps([]string{"matrix_power"}, "Torch.linalg.inv_ex")
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
		arg := "A"
		if fn == "cholesky" {
			arg = "input"
		}
		x, err := b.tensor(arg)
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
	return newPlan("lu_unpack", ops.Attrs{"unpack_data": ops.BoolAttr(data), "unpack_pivots": ops.BoolAttr(pivots)}, tensorBinding(lu), tensorBinding(piv)), nil
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
