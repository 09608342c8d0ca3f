package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

type idxArgs = []framework.Arg
type idxKws = []framework.NamedArg

func TestIndexScatter(t *testing.T) { runCases(t, indexScatterCases(), nil) }

func indexScatterCases() []lcase {
	x := f32("args.0", 4, 3)
	i := i64("args.2", 2, 3)
	s := f32("args.3", 2, 3)
	big := f32("args.3", 3, 4)
	return []lcase{
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i, s}, op: "scatter", attrs: ops.Attrs{"dim": ia(0), "reduce": na(), "inplace": ba(false)},
			in: []string{"args.0", "args.2", "args.3"}},
		{name: "Tensor.scatter", args: idxArgs{x, iv(-2), i, big}, op: "scatter", attrs: ops.Attrs{"dim": ia(-2)}},
		{name: "Tensor.scatter_", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("reduce", sv("add"))}, op: "scatter",
			attrs: ops.Attrs{"reduce": sa("add"), "inplace": ba(true)}},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i, fv(2.5)}, op: "scatter", in: []string{"args.0", "args.2", "float:2.5"}},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i}, kwargs: idxKws{kw("value", iv(3)), kw("reduce", sv("multiply"))}, op: "scatter",
			attrs: ops.Attrs{"reduce": sa("multiply")}, in: []string{"args.0", "args.2", "int:3"}},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i}, kwargs: idxKws{kw("src", s), kw("out", f32("kwargs.out", 4, 3))}, op: "scatter", in: []string{"args.0", "args.2", "args.3"}},
		{name: "Tensor.scatter_", args: idxArgs{x, iv(1), i, bv(true)}, op: "scatter", in: []string{"args.0", "args.2", "bool:1"}},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i64("args.2", 0), fv(1)}, op: "scatter"},
		{name: "Torch.scatter", args: idxArgs{f32("args.0"), iv(0), i64("args.2"), f32("args.3")}, op: "scatter"},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i}, err: `missing required argument "src"`},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("value", fv(1))}, err: `argument "value": scatter() takes either src or value, not both`},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i}, kwargs: idxKws{kw("value", s)}, err: `argument "value": expected a number, got tensor`},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i}, kwargs: idxKws{kw("src", fv(1))}, err: `argument "src": expected tensor, got float`},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i, sv("a")}, err: `argument "src": expected tensor or number, got str`},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("reduce", sv("mean"))}, err: `argument "reduce": reduce argument must be either add or multiply.`},
		{name: "Torch.scatter", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("reduce", iv(1))}, err: `argument "reduce": expected str, got int`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(2), i, s}, err: `argument "dim": dimension out of range (expected to be in range of [-2, 1], but got 2)`},
		{name: "Tensor.scatter", args: idxArgs{x, fv(0), i, s}, err: `argument "dim": expected int, got float`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), iv(1), s}, err: `argument "index": expected tensor, got int`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), tn("args.2", tensor.Int32, 2, 3), s}, err: `argument "index": scatter(): Expected dtype int64 for index`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), i, tn("args.3", tensor.Float64, 2, 3)}, err: `argument "src": scatter(): Expected self.dtype to be equal to src.dtype`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), i64("args.2", 3), fv(1)}, err: `argument "index": Index tensor must have the same number of dimensions as self tensor`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), i, f32("args.3")}, err: `argument "src": Index tensor must have the same number of dimensions as src tensor`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), i64("args.2", 1, 4), fv(1)}, err: `argument "index": Expected index [1, 4] to be smaller than self [4, 3] apart from dimension 0`},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), i64("args.2", 3, 3), s}, err: "Expected index [3, 3] to be smaller than self [4, 3] apart from dimension 0 and to be smaller size than src [2, 3]"},
		{name: "Tensor.scatter", args: idxArgs{x, iv(0), i, s, fv(1)}, err: "takes at most 4 positional arguments but 5 were given"},

		{name: "Torch.scatter_add", args: idxArgs{x, iv(0), i, s}, op: "scatter_add", attrs: ops.Attrs{"dim": ia(0), "inplace": ba(false)}, in: []string{"args.0", "args.2", "args.3"}},
		{name: "Tensor.scatter_add", args: idxArgs{x}, kwargs: idxKws{kw("dim", iv(-1)), kw("index", i), kw("src", big)}, op: "scatter_add", attrs: ops.Attrs{"dim": ia(-1)}},
		{name: "Tensor.scatter_add_", args: idxArgs{x, iv(0), i, s}, op: "scatter_add", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.scatter_add", args: idxArgs{x, iv(0), i, fv(1)}, err: `argument "src": expected tensor, got float`},
		{name: "Torch.scatter_add", args: idxArgs{x, iv(0), i, f32("args.3", 2)}, err: `argument "src": Dimension out of range (expected to be in range of [-1, 0], but got 1)`},
		{name: "Torch.scatter_add", args: idxArgs{x, iv(0), tn("args.2", tensor.Int32, 2, 3), s}, err: "scatter(): Expected dtype int64 for index"},
		{name: "Torch.scatter_add", args: idxArgs{x, iv(0), i, tn("args.3", tensor.Float16, 2, 3)}, err: "scatter(): Expected self.dtype to be equal to src.dtype"},
		{name: "Torch.scatter_add", args: idxArgs{x, iv(0), i64("args.2", 3, 3), s}, err: "and to be smaller size than src [2, 3]"},
		{name: "Tensor.scatter_add", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("out", s)}, err: `unexpected keyword argument "out"`},
	}
}

// indexFamilyCases are every table of this file, for TestOpsListed.
func indexFamilyCases() []lcase {
	return append(indexScatterCases(), indexSliceCases()...)
}

func TestIndexSlices(t *testing.T) { runCases(t, indexSliceCases(), nil) }

func indexSliceCases() []lcase {
	x := f32("args.0", 4, 3)
	i := i64("args.2", 2)
	s := f32("args.3", 2, 3)
	return []lcase{
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, s}, op: "index_add", attrs: ops.Attrs{"dim": ia(0), "alpha": fa(1), "inplace": ba(false)},
			in: []string{"args.0", "args.2", "args.3"}},
		{name: "Tensor.index_add_", args: idxArgs{x, iv(-2), tn("args.2", tensor.Int32, 2), s}, kwargs: idxKws{kw("alpha", fv(2.5))}, op: "index_add",
			attrs: ops.Attrs{"dim": ia(-2), "alpha": fa(2.5), "inplace": ba(true)}},
		{name: "Tensor.index_add", args: idxArgs{x, iv(1), i64("args.2"), f32("args.3", 4, 1)}, kwargs: idxKws{kw("alpha", iv(3))}, op: "index_add", attrs: ops.Attrs{"alpha": fa(3)}},
		{name: "Torch.index_add", args: idxArgs{f32("args.0"), iv(0), i64("args.2"), f32("args.3")}, op: "index_add"},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("out", f32("kwargs.out", 4, 3))}, op: "index_add"},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, s, iv(2)}, err: "takes at most 4 positional arguments but 5 were given"},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("alpha", sv("a"))}, err: `argument "alpha": expected float, got str`},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), tn("args.2", tensor.Float32, 2), s}, err: `argument "index": index_add_(): Expected dtype int32/int64 for index but got: Float`},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i64("args.2", 1, 2), s}, err: `argument "index": index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 2]`},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, tn("args.3", tensor.Float64, 2, 3)}, err: `argument "source": index_add_(): self (Float) and source (Double) must have the same scalar type`},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i64("args.2", 3), s}, err: `argument "source": index_add_(): Number of indices (3) should be equal to source.size(dim): (2), for dim: 0`},
		{name: "Torch.index_add", args: idxArgs{x, iv(1), i, f32("args.3", 2)}, err: `argument "source": index_add_(): Number of indices (2) should be equal to source.size(dim): (1), for dim: 1`},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, f32("args.3", 2)}, err: `argument "source": index_add_(): source of rank 1 for a self of rank 2 is not supported`},
		{name: "Torch.index_add", args: idxArgs{x, iv(0), i, f32("args.3", 2, 1)}, err: `index_add_(): source shape [2, 1] does not match self [4, 3] apart from dimension 0`},
		{name: "Torch.index_add", args: idxArgs{x, iv(2), i, s}, err: `argument "dim": dimension out of range`},

		{name: "Torch.index_copy", args: idxArgs{x, iv(0), i, s}, op: "index_copy", attrs: ops.Attrs{"dim": ia(0), "inplace": ba(false)}, in: []string{"args.0", "args.2", "args.3"}},
		{name: "Tensor.index_copy_", args: idxArgs{x}, kwargs: idxKws{kw("dim", iv(-1)), kw("index", i), kw("source", f32("args.3", 4, 2))}, op: "index_copy", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Tensor.index_copy", args: idxArgs{f32("args.0"), iv(0), i64("args.2", 1), f32("args.3")}, op: "index_copy"},
		{name: "Torch.index_copy", args: idxArgs{x, iv(0), tn("args.2", tensor.Int32, 2), s}, err: `argument "index": index_copy_(): Expected a long tensor for index, but got Int`},
		{name: "Torch.index_copy", args: idxArgs{x, iv(0), i64("args.2", 2, 1), s}, err: `argument "index": index_copy_(): Index should have dimension 1 or 0 (got 2)`},
		{name: "Torch.index_copy", args: idxArgs{x, iv(0), i, tn("args.3", tensor.Float16, 2, 3)}, err: "index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Half"},
		{name: "Torch.index_copy", args: idxArgs{x, iv(0), i, f32("args.3", 2)}, err: "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (1), destination dimensionality (2)"},
		{name: "Torch.index_copy", args: idxArgs{x, iv(0), i64("args.2", 3), s}, err: "index_copy_(): Number of indices (3) should be equal to source.size(dim) (2)"},
		{name: "Torch.index_copy", args: idxArgs{x, iv(0), i, f32("args.3", 2, 2)}, err: "index_copy_(): source shape [2, 2] does not match self [4, 3] apart from dimension 0"},
		{name: "Tensor.index_copy", args: idxArgs{x, iv(0), i, s}, kwargs: idxKws{kw("out", s)}, err: `unexpected keyword argument "out"`},

		{name: "Torch.index_fill", args: idxArgs{x, iv(0), i, fv(2.5)}, op: "index_fill", attrs: ops.Attrs{"dim": ia(0), "inplace": ba(false)}, in: []string{"args.0", "args.2", "float:2.5"}},
		{name: "Tensor.index_fill_", args: idxArgs{x, iv(1), i64("args.2"), f32("args.3")}, op: "index_fill", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "args.2", "args.3"}},
		{name: "Tensor.index_fill", args: idxArgs{x}, kwargs: idxKws{kw("dim", iv(0)), kw("index", i), kw("value", bv(true))}, op: "index_fill", in: []string{"args.0", "args.2", "bool:1"}},
		{name: "Torch.index_fill", args: idxArgs{x, iv(0), tn("args.2", tensor.Int32, 2), fv(1)}, err: `argument "index": index_fill_(): Expected dtype int64 for index.`},
		{name: "Torch.index_fill", args: idxArgs{x, iv(0), i64("args.2", 1, 1), fv(1)}, err: `argument "index": Index has to be a vector/scalar`},
		{name: "Torch.index_fill", args: idxArgs{x, iv(0), i, f32("args.3", 1)}, err: `argument "value": index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).`},
		{name: "Torch.index_fill", args: idxArgs{x, iv(0), i, sv("a")}, err: `argument "value": expected tensor or number, got str`},
		{name: "Torch.index_fill", args: idxArgs{x, iv(0), i}, err: `missing required argument "value"`},
	}
}
