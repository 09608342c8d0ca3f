package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestRealIdentities(t *testing.T) { runCases(t, realCases(), nil) }

func realCases() []lcase {
	m := f32("args.0", 2, 3, 4)
	i := tn("args.0", tensor.Int64, 3)
	return []lcase{
		{name: "Torch.real", args: []framework.Arg{m}, op: "clone", in: []string{"args.0"}},
		{name: "Tensor.conj_physical", args: []framework.Arg{i}, op: "clone", in: []string{"args.0"}},
		{name: "Tensor.resolve_neg", args: []framework.Arg{m}, op: "clone"},
		{name: "Torch.resolve_neg", args: []framework.Arg{m}, op: "clone"},
		{name: "Tensor.adjoint", args: []framework.Arg{m}, op: "transpose", attrs: ops.Attrs{"dim0": ia(-2), "dim1": ia(-1)}},
		{name: "Tensor.adjoint", args: []framework.Arg{f32("args.0")}, op: "permute", attrs: ops.Attrs{"dims": la()}},
		{name: "Tensor.adjoint", args: []framework.Arg{f32("args.0", 3)}, err: "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor."},
		{name: "Torch.real", args: []framework.Arg{m, m}, err: "takes at most 1 positional arguments"},
	}
}
