package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// Conjugation and its relatives on the real tensors a dump holds (complex
// dtypes are not dumped): real, conj_physical and resolve_neg return the
// values unchanged, and adjoint is the transpose of the last two dims.
func init() {
	def(clone, "input", "Torch.real", "Tensor.conj_physical", "Tensor.resolve_neg", "Torch.resolve_neg")
	def(adjoint, "input", "Tensor.adjoint")
	declareOps([]string{"permute", "transpose"}, "Tensor.adjoint")
}

// adjoint lowers Tensor.adjoint(): transpose(-2, -1), the identity for a
// 0-d tensor (PyTorch 1.13 returns it), refused for a vector.
func adjoint(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	switch len(x.Shape) {
	case 0:
		return newPlan("permute", ops.Attrs{"dims": ops.IntsAttr()}, tensorBinding(x)), nil
	case 1:
		return nil, b.errf("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
	}
	return newPlan("transpose", ops.Attrs{"dim0": ops.IntAttr(-2), "dim1": ops.IntAttr(-1)}, tensorBinding(x)), nil
}
