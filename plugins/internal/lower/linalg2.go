package lower

import (
	"math"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The linalg2 family (sdk/ops/schema_linalg2.go): einsum, distances,
// factorisation-based solvers and norms, statistics, integration and
// combinatorics.

func init() {
	def(linalg2Einsum, "equation, *operands", "Torch.einsum")
	def(linalg2Cdist, "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'", "Torch.cdist")
	def(linalg2Pdist, "input, p=2", "Torch.pdist")
	usedOps = append(usedOps, "einsum", "cdist", "pdist")
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
