package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The linalg family: matrix products. dot, vdot, mv and linalg.matmul are
// matmul with the checks PyTorch makes before it (the dump has the shapes
// and dtypes); the others have ops of their own (sdk/ops/schema_linalg.go).
//
// msprobe's dumper records torch.linalg.X under its last name, Torch.X
// (pytorch-precheck §2.3, §12 #11): torch.linalg.matmul and
// torch.linalg.matrix_power are torch.matmul and torch.matrix_power, and
// torch.multi_dot and torch.vecdot do not exist in PyTorch 1.13, so a
// dumped Torch.multi_dot or Torch.vecdot is the linalg call.

func init() {
	def(dotLike, "input, tensor, *, out=None", "Torch.dot", "Tensor.dot")
	def(dotLike, "input, other, *, out=None", "Torch.vdot", "Tensor.vdot")
	def(mvLower, "input, vec, *, out=None", "Torch.mv", "Tensor.mv")
	def(tensorPair("matmul", "input", "other", false), "input, other, *, out=None", "Torch.linalg.matmul")

	def(addProduct("addmv", "mat", "vec"), "input, mat, vec, *, beta=1, alpha=1, out=None",
		"Torch.addmv", "Torch.addmv_", "Tensor.addmv", "Tensor.addmv_")
	def(addProduct("addr", "vec1", "vec2"), "input, vec1, vec2, *, beta=1, alpha=1, out=None",
		"Torch.addr", "Tensor.addr", "Tensor.addr_")
	def(addProduct("baddbmm", "batch1", "batch2"), "input, batch1, batch2, *, beta=1, alpha=1, out=None",
		"Torch.baddbmm", "Tensor.baddbmm", "Tensor.baddbmm_")
	def(addProduct("addbmm", "batch1", "batch2"), "input, batch1, batch2, *, beta=1, alpha=1, out=None",
		"Torch.addbmm", "Tensor.addbmm", "Tensor.addbmm_")
	def(outerLower, "input, vec2, *, out=None", "Torch.outer", "Tensor.outer", "Torch.ger", "Tensor.ger")

	def(kronLower, "input, other, *, out=None", "Torch.kron", "Tensor.kron")
	def(tensordotLower, "a, b, dims=2, out=None", "Torch.tensordot")
	def(innerLower, "input, other, *, out=None", "Torch.inner", "Tensor.inner")
	def(multiDot, "tensors, *, out=None", "Torch.linalg.multi_dot", "Torch.multi_dot")
	def(chainMatmul, "*matrices, out=None", "Torch.chain_matmul")
	def(vecdotLower, "x, y, *, dim=-1, out=None", "Torch.linalg.vecdot", "Torch.vecdot")
	def(matrixPower, "input, n, *, out=None", "Torch.matrix_power", "Tensor.matrix_power", "Torch.linalg.matrix_power")

	def(inverse("input"), "input, *, out=None", "Torch.inverse", "Tensor.inverse")
	def(inverse("A"), "A, *, out=None", "Torch.linalg.inv", "Torch.inv")
	def(detLike("det", "linalg.det"), "input, *, out=None", "Torch.det", "Tensor.det")
	def(detLike("det", "linalg.det"), "A, *, out=None", "Torch.linalg.det")
	def(detLike("logdet", "logdet"), "input", "Torch.logdet", "Tensor.logdet")
	defMulti(detLike("slogdet", "linalg.slogdet"), "input, *, out=None", "Torch.slogdet", "Tensor.slogdet")
	defMulti(detLike("slogdet", "linalg.slogdet"), "A, *, out=None", "Torch.linalg.slogdet")
	def(crossLower, "input, other, dim=None, *, out=None", "Torch.cross", "Tensor.cross")
	def(crossLower, "input, other, *, dim=-1, out=None", "Torch.linalg.cross")
	def(distLower, "input, other, p=2", "Torch.dist", "Tensor.dist")
	def(vanderLower(false), "x, N=None, increasing=False", "Torch.vander")
	def(vanderLower(true), "x, *, N=None", "Torch.linalg.vander")
	def(blockDiag, "*tensors", "Torch.block_diag")
	def(diffLower, "input, n=1, dim=-1, prepend=None, append=None", "Torch.diff", "Tensor.diff")
	// torch.vector_norm does not exist: a dumped Torch.vector_norm is
	// torch.linalg.vector_norm (the reduce family's lowering).
	def(vectorNorm, "x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None", "Torch.vector_norm")

	// Factorisations whose outputs are not unique: a reference and a device
	// may both be right and differ element by element. (msprobe's dumper
	// records torch.linalg.X as Torch.X.)
	cannot("returns U and V (torch.svd) or Vh (torch.linalg.svd, also dumped as Torch.svd): singular vectors are unique only up to sign "+
		"(and up to a rotation for repeated singular values), so they cannot be compared element by element with a reference",
		"Tensor.svd", "Torch.svd", "Torch.linalg.svd")
	cannot("returns Q and R, unique only up to the signs of R's diagonal, which each LAPACK chooses, so they cannot be compared element by element with a reference",
		"Tensor.qr", "Torch.qr", "Torch.linalg.qr")
	cannot("returns Householder reflectors and tau, unique only up to the signs LAPACK's geqrf chooses, so they cannot be compared element by element with a reference",
		"Tensor.geqrf", "Torch.geqrf")
	cannot("returns the row pivots of partial pivoting (compared exactly) and factors that follow them: where two candidate pivots are close, "+
		"a device's rounding picks the other row, so the outputs cannot be compared element by element with a reference",
		"Tensor.lu", "Torch.lu", "Torch.linalg.lu", "Torch.linalg.lu_factor", "Torch.lu_factor", "Torch.linalg.lu_factor_ex", "Torch.lu_factor_ex")
	cannot("returns the Bunch-Kaufman pivots (compared exactly) and factors that follow them: where candidate pivots are close, "+
		"a device's rounding picks another, so the outputs cannot be compared element by element with a reference",
		"Torch.linalg.ldl_factor", "Torch.ldl_factor", "Torch.linalg.ldl_factor_ex", "Torch.ldl_factor_ex")

	usedOps = append(usedOps, "det", "logdet", "slogdet", "cross", "dist", "diff", "vander", "block_diag")
	declareOps([]string{"det"}, "Torch.det", "Tensor.det", "Torch.linalg.det")
	declareOps([]string{"logdet"}, "Torch.logdet", "Tensor.logdet")
	declareOps([]string{"slogdet"}, "Torch.slogdet", "Tensor.slogdet", "Torch.linalg.slogdet")
	usedOps = append(usedOps, "addmv", "addr", "baddbmm", "addbmm", "outer", "kron", "tensordot", "multi_dot", "vecdot", "matrix_power")
	declareOps([]string{"matmul"}, "Torch.dot", "Tensor.dot", "Torch.vdot", "Tensor.vdot", "Torch.mv", "Tensor.mv")
	declareOps([]string{"mul", "tensordot"}, "Torch.inner", "Tensor.inner")
	declareOps([]string{"clone", "multi_dot"}, "Torch.chain_matmul")
	declareOps([]string{"multi_dot"}, "Torch.linalg.multi_dot", "Torch.multi_dot")
	declareOps([]string{"block_diag"}, "Torch.block_diag")
	declareOps([]string{"matrix_power"}, "Torch.matrix_power", "Tensor.matrix_power", "Torch.linalg.matrix_power",
		"Torch.inverse", "Tensor.inverse", "Torch.linalg.inv", "Torch.inv")
}

// rankOf is the number of dimensions of a tensor argument.
func rankOf(a framework.Arg) int { return len(a.Shape) }

// dotLike lowers torch.dot and torch.vdot (real tensors: the same
// product): two 1-d tensors of one dtype.
func dotLike(b *bound) (*framework.Plan, error) {
	other := "tensor"
	if b.name == "vdot" {
		other = "other"
	}
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor(other)
	if err != nil {
		return nil, err
	}
	if rankOf(x) != 1 || rankOf(y) != 1 {
		return nil, b.errf("1D tensors expected, but got %dD and %dD tensors", rankOf(x), rankOf(y))
	}
	if x.DType != y.DType {
		return nil, b.errf("dot : expected both vectors to have same dtype, but found %s and %s", ops.TypeName(x.DType), ops.TypeName(y.DType))
	}
	if x.Shape[0] != y.Shape[0] {
		return nil, b.errf("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively",
			x.Shape[0], y.Shape[0], x.Shape[0], y.Shape[0])
	}
	return newPlan("matmul", nil, tensorBinding(x), tensorBinding(y)), nil
}

// mvLower lowers torch.mv: a 2-d matrix times a 1-d vector of its dtype.
func mvLower(b *bound) (*framework.Plan, error) {
	m, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	v, err := b.tensor("vec")
	if err != nil {
		return nil, err
	}
	if rankOf(m) != 2 || rankOf(v) != 1 {
		return nil, b.errf("vector + matrix @ vector expected, got 1, %d, %d", rankOf(m), rankOf(v))
	}
	if m.DType != v.DType {
		return nil, b.errf("expected scalar type %s but found %s", ops.TypeName(m.DType), ops.TypeName(v.DType))
	}
	if m.Shape[1] != v.Shape[0] {
		return nil, b.errf("size mismatch, got %d, %dx%d,%d", m.Shape[0], m.Shape[0], m.Shape[1], v.Shape[0])
	}
	return newPlan("matmul", nil, tensorBinding(m), tensorBinding(v)), nil
}

// outerLower lowers torch.outer and torch.ger.
func outerLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("vec2")
	if err != nil {
		return nil, err
	}
	return newPlan("outer", nil, tensorBinding(x), tensorBinding(y)), nil
}

// scaleArg reads beta or alpha: a Python number (a bool is 0 or 1).
func (b *bound) scaleArg(name string) (float64, framework.ArgKind, error) {
	a := b.arg(name)
	switch a.Kind {
	case framework.ArgBool:
		if a.Bool {
			return 1, a.Kind, nil
		}
		return 0, a.Kind, nil
	case framework.ArgInt, framework.ArgFloat:
		v, err := b.float(name)
		return v, a.Kind, err
	}
	return 0, a.Kind, b.argErr(name, "must be Number, not %s", kindName(a))
}

// addProduct lowers addmv, addr, baddbmm and addbmm: beta*input +
// alpha*(m1 · m2).
func addProduct(op, m1, m2 string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		var in [3]framework.Arg
		for i, n := range []string{"input", m1, m2} {
			a, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			in[i] = a
		}
		attrs := ops.Attrs{}
		var res tensor.DType
		if op == "addr" {
			res = ops.PromoteTypes(ops.PromoteTypes(in[0].DType, in[1].DType), in[2].DType)
		}
		for _, n := range []string{"beta", "alpha"} {
			v, kind, err := b.scaleArg(n)
			if err != nil {
				return nil, err
			}
			if op == "addr" {
				// addr is a TensorIterator kernel: PyTorch checks the
				// kind of the Python numbers against the result dtype.
				if kind == framework.ArgBool && res != tensor.Bool {
					return nil, b.errf("Boolean %s only supported for Boolean results.", n)
				}
				if kind == framework.ArgFloat && !res.IsFloat() {
					return nil, b.errf("For integral input tensors, argument %s must not be a floating point number.", n)
				}
			}
			attrs[n] = ops.FloatAttr(v)
		}
		return newPlan(op, b.inplaceAttr(attrs), tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2])), nil
	}
}

// kronLower lowers torch.kron.
func kronLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	return newPlan("kron", nil, tensorBinding(x), tensorBinding(y)), nil
}

// dimsList reads one half of tensordot's dims: a list of ints or one int.
func dimsList(a framework.Arg) ([]int64, bool) {
	if a.Kind == framework.ArgInt {
		return []int64{a.Int}, true
	}
	return asInts(a)
}

// tensordotLower lowers torch.tensordot: dims is an int n (the last n
// dims of a with the first n of b) or two lists of dims.
func tensordotLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("a")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("b")
	if err != nil {
		return nil, err
	}
	d := b.arg("dims")
	var da, db []int64
	switch d.Kind {
	case framework.ArgInt:
		if d.Int < 0 {
			return nil, b.argErr("dims", "tensordot expects dims >= 0, but got dims=%d", d.Int)
		}
		for i := int64(0); i < d.Int; i++ {
			da = append(da, i-d.Int)
			db = append(db, i)
		}
	case framework.ArgList:
		if len(d.Elems) != 2 {
			return nil, b.argErr("dims", "expected two lists of dims, got %d values", len(d.Elems))
		}
		var ok1, ok2 bool
		da, ok1 = dimsList(d.Elems[0])
		db, ok2 = dimsList(d.Elems[1])
		if !ok1 || !ok2 {
			return nil, b.argErr("dims", "expected two lists of ints, got %s and %s", describeList(d.Elems[0]), describeList(d.Elems[1]))
		}
		if len(da) != len(db) {
			return nil, b.argErr("dims", "both dimension lists should have same length")
		}
	case framework.ArgTensor:
		return nil, b.argErr("dims", "a tensor dims is not supported (probe needs its values, which a dump does not record)")
	default:
		return nil, b.argErr("dims", "tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] containing two lists, but got dims=%s", kindName(d))
	}
	if da == nil {
		da, db = []int64{}, []int64{}
	}
	return newPlan("tensordot", ops.Attrs{"dims_self": ops.IntsAttr(da...), "dims_other": ops.IntsAttr(db...)}, tensorBinding(x), tensorBinding(y)), nil
}

// innerLower lowers torch.inner: a product with a 0-d tensor is mul, else
// a contraction of the last dims.
func innerLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	if rankOf(x) == 0 || rankOf(y) == 0 {
		return newPlan("mul", ops.Attrs{"inplace": ops.BoolAttr(false)}, tensorBinding(x), tensorBinding(y)), nil
	}
	if x.Shape[rankOf(x)-1] != y.Shape[rankOf(y)-1] {
		return nil, b.errf("inner() the last dimension must match on both input tensors but got shapes %s and %s", ops.ShapeList(x.Shape), ops.ShapeList(y.Shape))
	}
	return newPlan("tensordot", ops.Attrs{"dims_self": ops.IntsAttr(-1), "dims_other": ops.IntsAttr(-1)}, tensorBinding(x), tensorBinding(y)), nil
}

// multiDot lowers torch.linalg.multi_dot (a dumped Torch.multi_dot: no
// torch.multi_dot exists).
func multiDot(b *bound) (*framework.Plan, error) {
	list := b.arg("tensors")
	if list.Kind != framework.ArgList {
		return nil, b.argErr("tensors", "expected a list of tensors, got %s", kindName(list))
	}
	if len(list.Elems) < 2 {
		return nil, b.argErr("tensors", "multi_dot(): expected at least 2 tensors but got %d", len(list.Elems))
	}
	in := make([]framework.Binding, len(list.Elems))
	for i, e := range list.Elems {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr("tensors", "element %d: expected tensor, got %s", i, kindName(e))
		}
		in[i] = tensorBinding(e)
	}
	return newPlan("multi_dot", nil, in...), nil
}

// chainMatmul lowers torch.chain_matmul: 2-d matrices only; one matrix is
// returned as a copy.
func chainMatmul(b *bound) (*framework.Plan, error) {
	if len(b.variadic) == 0 {
		return nil, b.argErr("matrices", "chain_matmul(): Expected one or more matrices")
	}
	in := make([]framework.Binding, len(b.variadic))
	for i, e := range b.variadic {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr("matrices", "element %d: expected tensor, got %s", i, kindName(e))
		}
		if rankOf(e) != 2 {
			return nil, b.errf("Tensor dimension is %d, expected 2 instead.", rankOf(e))
		}
		in[i] = tensorBinding(e)
	}
	if len(in) == 1 {
		return newPlan("clone", nil, in[0]), nil
	}
	return newPlan("multi_dot", nil, in...), nil
}

// vecdotLower lowers torch.linalg.vecdot (a dumped Torch.vecdot: no
// torch.vecdot exists in PyTorch 1.13).
func vecdotLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("x")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("y")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	if x.DType != y.DType {
		return nil, b.errf("linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of type %s instead", ops.TypeName(x.DType), ops.TypeName(y.DType))
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("linalg.vecdot: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.DType))
	}
	return newPlan("vecdot", ops.Attrs{"dim": ops.IntAttr(dim)}, tensorBinding(x), tensorBinding(y)), nil
}

// matrixPower lowers torch.matrix_power and torch.linalg.matrix_power.
func matrixPower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	n, err := b.integer("n")
	if err != nil {
		return nil, err
	}
	if r := rankOf(x); r < 2 {
		return nil, b.errf("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
	} else if x.Shape[r-1] != x.Shape[r-2] {
		return nil, b.errf("linalg.matrix_power: A must be batches of square matrices, but they are %d by %d matrices", x.Shape[r-2], x.Shape[r-1])
	}
	if n < 0 && !x.DType.IsFloat() {
		return nil, b.errf("linalg.inv: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.DType))
	}
	if n < 0 && (x.DType == tensor.Float16 || x.DType == tensor.BFloat16) {
		return nil, b.errf("linalg.inv: Low precision dtypes not supported. Got %s", ops.TypeName(x.DType))
	}
	return newPlan("matrix_power", ops.Attrs{"n": ops.IntAttr(n)}, tensorBinding(x)), nil
}

// inverse lowers torch.inverse and torch.linalg.inv (a dumped Torch.inv:
// no torch.inv exists) onto matrix_power with n = -1, after linalg.inv's
// own checks.
func inverse(arg string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor(arg)
		if err != nil {
			return nil, err
		}
		r := rankOf(x)
		switch {
		case r < 2:
			return nil, b.errf("linalg.inv: The input tensor A must have at least 2 dimensions.")
		case x.Shape[r-1] != x.Shape[r-2]:
			return nil, b.errf("linalg.inv: A must be batches of square matrices, but they are %d by %d matrices", x.Shape[r-2], x.Shape[r-1])
		case !x.DType.IsFloat():
			return nil, b.errf("linalg.inv: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.DType))
		case x.DType == tensor.Float16 || x.DType == tensor.BFloat16:
			return nil, b.errf("linalg.inv: Low precision dtypes not supported. Got %s", ops.TypeName(x.DType))
		}
		return newPlan("matrix_power", ops.Attrs{"n": ops.IntAttr(-1)}, tensorBinding(x)), nil
	}
}

// detLike lowers det, logdet and slogdet (torch.linalg.det and slogdet are
// the same functions) after PyTorch's checks, which name the function
// (fn); logdet and slogdet refuse float16 and bfloat16 on every device.
func detLike(op, fn string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		arg := "input"
		if b.ns == Torch && (b.name == "linalg.det" || b.name == "linalg.slogdet") {
			arg = "A"
		}
		x, err := b.tensor(arg)
		if err != nil {
			return nil, err
		}
		r := rankOf(x)
		switch {
		case r < 2:
			return nil, b.errf("%s: The input tensor A must have at least 2 dimensions.", fn)
		case x.Shape[r-1] != x.Shape[r-2]:
			return nil, b.errf("%s: A must be batches of square matrices, but they are %d by %d matrices", fn, x.Shape[r-2], x.Shape[r-1])
		case !x.DType.IsFloat():
			return nil, b.errf("%s: Expected a floating point or complex tensor as input. Got %s", fn, ops.TypeName(x.DType))
		case op != "det" && (x.DType == tensor.Float16 || x.DType == tensor.BFloat16):
			return nil, b.errf("%s: Low precision dtypes not supported. Got %s", fn, ops.TypeName(x.DType))
		}
		return newPlan(op, nil, tensorBinding(x)), nil
	}
}

// crossLower lowers torch.cross, Tensor.cross and torch.linalg.cross.
// torch.cross without dim takes the first dimension of length 3 of input,
// torch.linalg.cross dim -1; msprobe's dumper records both as Torch.cross,
// so a dumped Torch.cross without dim is refused where the two differ.
func crossLower(b *bound) (*framework.Plan, error) {
	{
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		y, err := b.tensor("other")
		if err != nil {
			return nil, err
		}
		var dim int64
		if b.isNone("dim") {
			first := -1
			for i, s := range x.Shape {
				if s == 3 {
					first = i
					break
				}
			}
			if first < 0 {
				return nil, b.errf("no dimension of size 3 in input")
			}
			dim = int64(first)
			if b.ns == Torch && b.name == "cross" && first != rankOf(x)-1 {
				return nil, b.argErr("dim", "not given: torch.cross would take dim %d (the first of length 3) and torch.linalg.cross dim -1, "+
					"which msprobe's dumper records under the same name Torch.cross; probe cannot tell which was called", first)
			}
		} else if dim, err = b.integer("dim"); err != nil {
			return nil, err
		}
		return newPlan("cross", ops.Attrs{"dim": ops.IntAttr(dim)}, tensorBinding(x), tensorBinding(y)), nil
	}
}

// distLower lowers torch.dist.
func distLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	p, err := b.float("p")
	if err != nil {
		return nil, err
	}
	return newPlan("dist", ops.Attrs{"p": ops.FloatAttr(p)}, tensorBinding(x), tensorBinding(y)), nil
}

// diffLower lowers torch.diff.
func diffLower(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	n, err := b.integer("n")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	pre, okp, err := b.optTensor("prepend")
	if err != nil {
		return nil, err
	}
	app, oka, err := b.optTensor("append")
	if err != nil {
		return nil, err
	}
	return newPlan("diff", ops.Attrs{"n": ops.IntAttr(n), "dim": ops.IntAttr(dim)}, tensorBinding(x), optBinding(pre, okp), optBinding(app, oka)), nil
}

// vanderLower lowers torch.vander (decreasing powers unless increasing)
// and torch.linalg.vander (increasing, batched). msprobe's dumper records
// both as Torch.vander: a dumped call that only torch.vander accepts (N
// given by position, increasing given) is torch.vander, one that only
// linalg.vander accepts (x of rank > 1) is linalg.vander; where both
// accept it and their results differ it is refused.
func vanderLower(linalg bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("x")
		if err != nil {
			return nil, err
		}
		isLinalg := linalg
		if !linalg && !b.given["increasing"] && !b.positional["N"] && rankOf(x) != 1 {
			isLinalg = true // torch.vander takes 1-d tensors only
		}
		n := int64(0)
		if r := rankOf(x); r > 0 {
			n = int64(x.Shape[r-1])
		}
		if !b.isNone("N") {
			if n, err = b.integer("N"); err != nil {
				return nil, err
			}
		}
		increasing := isLinalg
		if isLinalg {
			if x.DType == tensor.Bool {
				return nil, b.errf("linalg.vander supports floating point, complex, and integer tensors, but got Bool")
			}
			if n <= 1 || rankOf(x) == 0 {
				return nil, b.argErr("N", "N must be greater than 1.")
			}
		} else {
			if rankOf(x) != 1 {
				return nil, b.errf("x must be a one-dimensional tensor.")
			}
			if n < 0 {
				return nil, b.argErr("N", "N must be non-negative.")
			}
			if increasing, err = b.boolean("increasing"); err != nil {
				return nil, err
			}
			if !linalg && !b.given["increasing"] && !b.positional["N"] && n > 1 && x.DType != tensor.Bool {
				return nil, b.errf("is torch.vander (decreasing powers) or torch.linalg.vander (increasing), which msprobe's dumper records under the same name Torch.vander; " +
					"without increasing or a positional N probe cannot tell which was called")
			}
		}
		return newPlan("vander", ops.Attrs{"N": ops.IntAttr(n), "increasing": ops.BoolAttr(increasing)}, tensorBinding(x)), nil
	}
}

// blockDiag lowers torch.block_diag.
func blockDiag(b *bound) (*framework.Plan, error) {
	if len(b.variadic) == 0 {
		return nil, b.argErr("tensors", "block_diag of no tensors is not supported (it returns an empty 1×0 matrix of the default dtype, no computation)")
	}
	in := make([]framework.Binding, len(b.variadic))
	for i, e := range b.variadic {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr("tensors", "element %d: expected tensor, got %s", i, kindName(e))
		}
		if rankOf(e) > 2 {
			return nil, b.errf("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions", i, rankOf(e))
		}
		in[i] = tensorBinding(e)
	}
	return newPlan("block_diag", nil, in...), nil
}
