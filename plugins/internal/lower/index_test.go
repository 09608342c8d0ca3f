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
	return indexScatterCases()
}
