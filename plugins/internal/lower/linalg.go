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

	usedOps = append(usedOps, "addmv", "addr", "baddbmm", "addbmm", "outer")
	declareOps([]string{"matmul"}, "Torch.dot", "Tensor.dot", "Torch.vdot", "Tensor.vdot", "Torch.mv", "Tensor.mv")
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
