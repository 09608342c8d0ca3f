package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The compare family: comparisons (eq, ne, gt, ge, lt, le and their
// aliases and dunders), logical and bitwise ops, predicates. Their results
// are exact functions of the inputs at the dtype PyTorch computes them in,
// so the bench gets the inputs at their dumped dtypes (exactBench).

func init() {
	for _, c := range []struct {
		op      string
		names   []string // Tensor and Torch spellings (+ "_" in-place for Tensor)
		dunders []string
	}{
		{"eq", []string{"eq"}, []string{"__eq__"}},
		{"ne", []string{"ne", "not_equal"}, []string{"__ne__"}},
		{"gt", []string{"gt", "greater"}, []string{"__gt__"}},
		{"ge", []string{"ge", "greater_equal"}, []string{"__ge__"}},
		{"lt", []string{"lt", "less"}, []string{"__lt__"}},
		{"le", []string{"le", "less_equal"}, []string{"__le__"}},
	} {
		var entries []string
		for _, n := range c.names {
			entries = append(entries, "Torch."+n, "Tensor."+n, "Tensor."+n+"_")
		}
		def(compareOp(c.op), "input, other, *, out=None", entries...)
		for _, d := range c.dunders {
			def(compareOp(c.op), "input, other", "Tensor."+d)
		}
	}
	usedOps = append(usedOps, "eq", "ne", "gt", "ge", "lt", "le")

	for _, op := range []string{"logical_and", "logical_or", "logical_xor"} {
		def(logicalOp(op), "input, other, *, out=None", "Torch."+op, "Tensor."+op, "Tensor."+op+"_")
	}
	def(boolUnaryOp("logical_not"), "input, *, out=None", "Torch.logical_not", "Tensor.logical_not", "Tensor.logical_not_")
	usedOps = append(usedOps, "logical_and", "logical_or", "logical_xor", "logical_not")
}

// exactBench is the bench policy of ops whose result is exact at the
// dtype PyTorch computes them in (comparisons, predicates): the bench gets
// the inputs at their dumped dtypes, so that a Python number or a 0-d
// tensor is rounded to the promoted dtype as on the device (x > 0.1 with x
// float16 compares with float16(0.1)). Raised to float64 they would
// compare with 0.1 itself and disagree wherever x equals float16(0.1).
func exactBench() *framework.BenchPolicy { return &framework.BenchPolicy{} }

// compareInplace sets the inplace attribute: the "_" methods and the
// in-place dunders of the family (__iand__, __ilshift__, ...).
func (b *bound) compareInplace(attrs ops.Attrs) ops.Attrs {
	switch b.name {
	case "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__":
		attrs["inplace"] = ops.BoolAttr(true)
		return attrs
	}
	return b.inplaceAttr(attrs)
}

// compareOp lowers a comparison of a tensor with a tensor or a number.
func compareOp(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, y, _, _, err := b.operands("input", "other", false)
		if err != nil {
			return nil, err
		}
		p := newPlan(op, b.compareInplace(ops.Attrs{}), x, y)
		p.Bench = exactBench()
		return p, nil
	}
}

// logicalOp lowers logical_and/or/xor: two tensors (PyTorch takes no
// number for other).
func logicalOp(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		y, err := b.tensor("other")
		if err != nil {
			return nil, err
		}
		p := newPlan(op, b.compareInplace(ops.Attrs{}), tensorBinding(x), tensorBinding(y))
		p.Bench = exactBench()
		return p, nil
	}
}

// boolUnaryOp lowers an op of one tensor whose result is exact (bool, or
// the input's integers).
func boolUnaryOp(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		p := newPlan(op, b.compareInplace(ops.Attrs{}), tensorBinding(x))
		p.Bench = exactBench()
		return p, nil
	}
}
