package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

type ix2Args = []framework.Arg
type ix2Kws = []framework.NamedArg

// index2FamilyCases are every table of this file, for TestOpsListed.
func index2FamilyCases() []lcase {
	return ix2MaskedCases()
}

func TestIndex2Masked(t *testing.T) { runCases(t, ix2MaskedCases(), nil) }

func ix2MaskedCases() []lcase {
	x := f32("args.0", 3, 4)
	m := tn("args.1", tensor.Bool, 3, 4)
	row := tn("args.1", tensor.Bool, 4)
	s := f32("args.2", 12)
	return []lcase{
		{name: "Torch.masked_select", args: ix2Args{x, m}, op: "masked_select", in: []string{"args.0", "args.1"}},
		{name: "Tensor.masked_select", args: ix2Args{x, row}, op: "masked_select", in: []string{"args.0", "args.1"}},
		{name: "Tensor.masked_select", args: ix2Args{f32("args.0", 4)}, kwargs: ix2Kws{kw("mask", tn("kwargs.mask", tensor.Bool, 2, 3, 4))}, op: "masked_select",
			in: []string{"args.0", "kwargs.mask"}},
		{name: "Torch.masked_select", args: ix2Args{x, tn("args.1", tensor.Uint8, 3, 4)}, kwargs: ix2Kws{kw("out", f32("kwargs.out", 5))}, op: "masked_select"},
		{name: "Torch.masked_select", args: ix2Args{f32("args.0"), tn("args.1", tensor.Bool)}, op: "masked_select"},
		{name: "Torch.masked_select", args: ix2Args{x, i64("args.1", 3, 4)}, err: `argument "mask": masked_select: expected BoolTensor or ByteTensor for mask`},
		{name: "Torch.masked_select", args: ix2Args{x, f32("args.1", 3, 4)}, err: `argument "mask": masked_select: expected BoolTensor or ByteTensor for mask`},
		{name: "Torch.masked_select", args: ix2Args{x, tn("args.1", tensor.Bool, 3)}, err: `argument "mask": The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1`},
		{name: "Torch.masked_select", args: ix2Args{x, bv(true)}, err: `argument "mask": expected tensor, got bool`},
		{name: "Torch.masked_select", args: ix2Args{x}, err: `missing required argument "mask"`},
		{name: "Tensor.masked_select", args: ix2Args{x, m}, kwargs: ix2Kws{kw("out", x)}, err: `unexpected keyword argument "out"`},

		{name: "Tensor.masked_scatter", args: ix2Args{x, m, s}, op: "masked_scatter", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.masked_scatter", args: ix2Args{f32("args.0", 4), tn("args.1", tensor.Bool, 2, 1), f32("args.2", 2, 4)}, op: "masked_scatter", attrs: ops.Attrs{"inplace": ba(false)}},
		{name: "Tensor.masked_scatter_", args: ix2Args{x}, kwargs: ix2Kws{kw("mask", tn("kwargs.mask", tensor.Bool, 4)), kw("source", f32("kwargs.source", 12))}, op: "masked_scatter", attrs: ops.Attrs{"inplace": ba(true)},
			in: []string{"args.0", "kwargs.mask", "kwargs.source"}},
		{name: "Tensor.masked_scatter_", args: ix2Args{x, tn("args.1", tensor.Uint8, 3, 1), s}, op: "masked_scatter"},
		{name: "Tensor.masked_scatter_", args: ix2Args{x, tn("args.1", tensor.Bool, 2, 3, 4), s}, err: `argument "mask": the number of sizes provided (2) must be greater or equal to the number of dimensions in the tensor (3)`},
		{name: "Tensor.masked_scatter_", args: ix2Args{x, tn("args.1", tensor.Bool, 2, 4), s}, err: `argument "mask": The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0`},
		{name: "Tensor.masked_scatter", args: ix2Args{x, tn("args.1", tensor.Bool, 3), s}, err: `argument "mask": The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1`},
		{name: "Tensor.masked_scatter", args: ix2Args{x, m, tn("args.2", tensor.Float64, 12)}, err: `argument "source": masked_scatter: expected self and source to have same dtypes but gotFloat and Double`},
		{name: "Tensor.masked_scatter", args: ix2Args{x, f32("args.1", 3, 4), s}, err: `argument "mask": masked_scatter_ only supports boolean masks, but got mask with dtype Float`},
		{name: "Tensor.masked_scatter", args: ix2Args{x, i64("args.1", 3, 4), s}, err: `argument "mask": masked_scatter_ with a mask of dtype Long (deprecated; only 0 and 1 values) is not supported`},
		{name: "Tensor.masked_scatter", args: ix2Args{x, m, fv(1)}, err: `argument "source": expected tensor, got float`},
		{name: "Torch.masked_scatter", args: ix2Args{x, m, s}, kwargs: ix2Kws{kw("out", x)}, err: `unexpected keyword argument "out"`},
	}
}
