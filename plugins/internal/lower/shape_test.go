package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

type args = []framework.Arg
type kws = []framework.NamedArg

func TestShapeViews(t *testing.T) { runCases(t, shapeViewCases(), nil) }

func shapeViewCases() []lcase {
	x := f32("args.0", 2, 1)
	y := f32("args.0", 2, 3, 4)
	m := f32("args.0", 3, 4)
	v := f32("args.0", 3)
	z := f32("args.0")
	o := f32("args.1", 3, 2, 4)
	return []lcase{
		// expand, expand_as, broadcast_to
		{name: "Tensor.expand", args: args{x, iv(3), iv(2), iv(4)}, op: "expand", attrs: ops.Attrs{"size": la(3, 2, 4)}, in: []string{"args.0"}},
		{name: "Tensor.expand", args: args{x, ints(3, 2, -1)}, op: "expand", attrs: ops.Attrs{"size": la(3, 2, -1)}},
		{name: "Tensor.expand", args: args{x, szv(2, 5)}, op: "expand", attrs: ops.Attrs{"size": la(2, 5)}},
		{name: "Tensor.expand", args: args{x}, kwargs: kws{kw("size", ints(2, 2))}, op: "expand", attrs: ops.Attrs{"size": la(2, 2)}},
		{name: "Tensor.expand", args: args{z, iv(3)}, op: "expand", attrs: ops.Attrs{"size": la(3)}},
		{name: "Tensor.expand", args: args{x}, err: `missing required argument "size"`},
		{name: "Tensor.expand", args: args{x, iv(2), fv(2)}, err: `argument "size": expected ints, got float`},
		{name: "Tensor.expand", args: args{x, iv(3)}, err: "the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"},
		{name: "Tensor.expand", args: args{x, ints(3, 3)}, err: "The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [3, 3].  Tensor sizes: [2, 1]"},
		{name: "Tensor.expand", args: args{x, ints(-1, 2, 1)}, err: "isn't allowed in a leading, non-existing dimension 0"},
		{name: "Tensor.expand_as", args: args{x, o}, op: "expand", attrs: ops.Attrs{"size": la(3, 2, 4)}, in: []string{"args.0"}},
		{name: "Tensor.expand_as", args: args{x, iv(1)}, err: `argument "other": expected tensor, got int`},
		{name: "Torch.broadcast_to", args: args{x, ints(2, 3)}, op: "expand", attrs: ops.Attrs{"size": la(2, 3)}},
		{name: "Tensor.broadcast_to", args: args{x}, kwargs: kws{kw("size", szv(4, 2, 2))}, op: "expand", attrs: ops.Attrs{"size": la(4, 2, 2)}},
		{name: "Torch.broadcast_to", args: args{x, ints(3, 3)}, err: "must match the existing size (2)"},
		{name: "Torch.broadcast_to", args: args{x, sv("a")}, err: `argument "size": expected int or list of ints, got str`},
		// repeat, tile
		{name: "Tensor.repeat", args: args{x, iv(2), iv(3)}, op: "repeat", attrs: ops.Attrs{"repeats": la(2, 3)}},
		{name: "Tensor.repeat", args: args{x, ints(1, 2, 3)}, op: "repeat", attrs: ops.Attrs{"repeats": la(1, 2, 3)}},
		{name: "Tensor.repeat", args: args{x}, kwargs: kws{kw("repeats", ints(2, 2))}, op: "repeat", attrs: ops.Attrs{"repeats": la(2, 2)}},
		{name: "Tensor.repeat", args: args{x, iv(2)}, err: "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"},
		{name: "Tensor.repeat", args: args{x, ints(-1, 2)}, err: "negative dimension"},
		{name: "Torch.tile", args: args{y, ints(2)}, op: "repeat", attrs: ops.Attrs{"repeats": la(1, 1, 2)}},
		{name: "Torch.tile", args: args{x, ints()}, op: "repeat", attrs: ops.Attrs{"repeats": la(1, 1)}},
		{name: "Torch.tile", args: args{x, ints(2, 1, 1)}, op: "repeat", attrs: ops.Attrs{"repeats": la(2, 1, 1)}},
		{name: "Tensor.tile", args: args{x, iv(2), iv(2)}, op: "repeat", attrs: ops.Attrs{"repeats": la(2, 2)}},
		{name: "Tensor.tile", args: args{x}, kwargs: kws{kw("dims", ints(3))}, op: "repeat", attrs: ops.Attrs{"repeats": la(1, 3)}},
		{name: "Tensor.tile", args: args{x, iv(-1)}, err: "negative dimension"},
		// flip, fliplr, flipud
		{name: "Torch.flip", args: args{y, ints(0, -1)}, op: "flip", attrs: ops.Attrs{"dims": la(0, -1)}},
		{name: "Tensor.flip", args: args{y, iv(1), iv(2)}, op: "flip", attrs: ops.Attrs{"dims": la(1, 2)}},
		{name: "Tensor.flip", args: args{y}, kwargs: kws{kw("dims", ints(0))}, op: "flip", attrs: ops.Attrs{"dims": la(0)}},
		{name: "Torch.flip", args: args{y, ints(3)}, err: `argument "dims": dimension out of range`},
		{name: "Torch.flip", args: args{y, ints(0, -3)}, err: "dim 0 appears multiple times in the list of dims"},
		{name: "Torch.fliplr", args: args{m}, op: "flip", attrs: ops.Attrs{"dims": la(1)}},
		{name: "Tensor.fliplr", args: args{v}, err: "Input must be >= 2-d."},
		{name: "Torch.flipud", args: args{v}, op: "flip", attrs: ops.Attrs{"dims": la(0)}},
		{name: "Tensor.flipud", args: args{z}, err: "Input must be >= 1-d."},
		// roll
		{name: "Torch.roll", args: args{y, iv(1), iv(2)}, op: "roll", attrs: ops.Attrs{"shifts": la(1), "dims": la(2)}},
		{name: "Tensor.roll", args: args{y, iv(3)}, op: "roll", attrs: ops.Attrs{"shifts": la(3), "dims": la()}},
		{name: "Torch.roll", args: args{y, ints(1, 2), ints(0, 1)}, op: "roll", attrs: ops.Attrs{"shifts": la(1, 2), "dims": la(0, 1)}},
		{name: "Torch.roll", args: args{y}, kwargs: kws{kw("shifts", iv(1)), kw("dims", nv())}, op: "roll", attrs: ops.Attrs{"dims": la()}},
		{name: "Torch.roll", args: args{y, ints(1, 2), ints(0)}, err: "shifts and dimensions must align. shifts: 2, dims:1"},
		{name: "Torch.roll", args: args{y, ints(1, 2)}, err: "shifts and dimensions must align. shifts: 2, dims:0"},
		{name: "Torch.roll", args: args{y, ints()}, err: "`shifts` required"},
		{name: "Torch.roll", args: args{y, iv(1), iv(3)}, err: `argument "dims": dimension out of range`},
		{name: "Torch.roll", args: args{z, iv(1), iv(0)}, err: "Dimension specified as 0 but tensor has no dimensions"},
		{name: "Torch.roll", args: args{y, fv(1.5)}, err: `argument "shifts": expected int or list of ints, got float`},
		// rot90
		{name: "Torch.rot90", args: args{m}, op: "rot90", attrs: ops.Attrs{"k": ia(1), "dims": la(0, 1)}},
		{name: "Tensor.rot90", args: args{y, iv(-1), ints(2, 0)}, op: "rot90", attrs: ops.Attrs{"k": ia(-1), "dims": la(2, 0)}},
		{name: "Torch.rot90", args: args{m}, kwargs: kws{kw("dims", ints(1, 0)), kw("k", iv(3))}, op: "rot90", attrs: ops.Attrs{"k": ia(3), "dims": la(1, 0)}},
		{name: "Torch.rot90", args: args{m, iv(1), ints(0)}, err: "expected total rotation dims == 2, but got dims = 1"},
		{name: "Torch.rot90", args: args{v}, err: "expected total dims >= 2, but got total dims = 1"},
		{name: "Torch.rot90", args: args{m, iv(1), ints(0, -2)}, err: "expected rotation dims to be different, but got dim0 = 0 and dim1 = -2"},
		{name: "Torch.rot90", args: args{y, iv(1), ints(-4, 1)}, err: "Rotation dim0 out of range, dim0 = -4"},
		{name: "Torch.rot90", args: args{m, iv(1), ints(0, 3)}, err: "Rotation dim1 out of range, dim1 = 3"},
		{name: "Torch.rot90", args: args{m, bv(true)}, err: `argument "k": expected int, got bool`},
		// narrow, narrow_copy, select
		{name: "Torch.narrow", args: args{m, iv(1), iv(1), iv(2)}, op: "slice", attrs: ops.Attrs{"dim": ia(1), "start": ia(1), "end": ia(3), "step": ia(1)}},
		{name: "Tensor.narrow", args: args{m, iv(-1), iv(-2), iv(2)}, op: "slice", attrs: ops.Attrs{"dim": ia(-1), "start": ia(2), "end": ia(4)}},
		{name: "Tensor.narrow", args: args{m, iv(0), iv(3), iv(0)}, op: "slice", attrs: ops.Attrs{"start": ia(3), "end": ia(3)}},
		{name: "Torch.narrow_copy", args: args{m}, kwargs: kws{kw("dim", iv(0)), kw("start", iv(1)), kw("length", iv(1)), kw("out", f32("kwargs.out", 1, 4))}, op: "slice", attrs: ops.Attrs{"start": ia(1), "end": ia(2)}},
		{name: "Tensor.narrow_copy", args: args{m, iv(0), iv(0), iv(3)}, op: "slice", attrs: ops.Attrs{"end": ia(3)}},
		{name: "Tensor.narrow", args: args{z, iv(0), iv(0), iv(1)}, err: "narrow() cannot be applied to a 0-dim tensor."},
		{name: "Tensor.narrow", args: args{m, iv(2), iv(0), iv(1)}, err: `argument "dim": dimension out of range`},
		{name: "Tensor.narrow", args: args{m, iv(0), iv(4), iv(0)}, err: `argument "start": Dimension out of range (expected to be in range of [-3, 2], but got 4)`},
		{name: "Tensor.narrow", args: args{m, iv(0), iv(1), iv(3)}, err: `argument "length": start (1) + length (3) exceeds dimension size (3).`},
		{name: "Tensor.narrow", args: args{m, iv(0), iv(0), iv(-1)}, err: "start (0) + length (-1) exceeds dimension size (3)."},
		{name: "Tensor.narrow", args: args{m, iv(0), i64("args.2"), iv(1)}, err: `argument "start": a tensor start is not supported`},
		{name: "Torch.select", args: args{y, iv(1), iv(-1)}, op: "select", attrs: ops.Attrs{"dim": ia(1), "index": ia(-1)}},
		{name: "Tensor.select", args: args{y}, kwargs: kws{kw("dim", iv(-1)), kw("index", iv(3))}, op: "select", attrs: ops.Attrs{"dim": ia(-1), "index": ia(3)}},
		{name: "Tensor.select", args: args{y, iv(0), iv(2)}, err: "select(): index 2 out of range for tensor of size [2, 3, 4] at dimension 0"},
		{name: "Tensor.select", args: args{z, iv(0), iv(0)}, err: "select() cannot be applied to a 0-dim tensor."},
		{name: "Tensor.select", args: args{y, iv(3), iv(0)}, err: `argument "dim": dimension out of range`},
		{name: "Tensor.select", args: args{y, sv("N"), iv(0)}, err: `argument "dim": expected int, got str`},
		// movedim, moveaxis
		{name: "Torch.movedim", args: args{y, iv(0), iv(2)}, op: "permute", attrs: ops.Attrs{"dims": la(1, 2, 0)}},
		{name: "Tensor.movedim", args: args{y, ints(0, 1), ints(2, 0)}, op: "permute", attrs: ops.Attrs{"dims": la(1, 2, 0)}},
		{name: "Torch.moveaxis", args: args{y, iv(-1), iv(0)}, op: "permute", attrs: ops.Attrs{"dims": la(2, 0, 1)}},
		{name: "Tensor.moveaxis", args: args{y}, kwargs: kws{kw("source", ints(1)), kw("destination", ints(1))}, op: "permute", attrs: ops.Attrs{"dims": la(0, 1, 2)}},
		{name: "Torch.movedim", args: args{z, iv(0), iv(-1)}, op: "permute", attrs: ops.Attrs{"dims": la()}},
		{name: "Torch.movedim", args: args{y, ints(0, 1), ints(1)}, err: "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of dims as destination ([1] dims)"},
		{name: "Torch.movedim", args: args{y, ints(0, -3), ints(1, 0)}, err: "movedim: repeated dim in `source` ([0, 0])"},
		{name: "Torch.movedim", args: args{y, ints(0, 1), ints(1, 1)}, err: "movedim: repeated dim in `destination` ([1, 1])"},
		{name: "Torch.movedim", args: args{y, iv(3), iv(0)}, err: `argument "source": dimension out of range`},
		// unfold
		{name: "Tensor.unfold", args: args{m, iv(1), iv(2), iv(1)}, op: "unfold", attrs: ops.Attrs{"dimension": ia(1), "size": ia(2), "step": ia(1)}},
		{name: "Tensor.unfold", args: args{z}, kwargs: kws{kw("dimension", iv(0)), kw("size", iv(1)), kw("step", iv(1))}, op: "unfold", attrs: ops.Attrs{"size": ia(1)}},
		{name: "Tensor.unfold", args: args{m, iv(1), iv(5), iv(1)}, err: "maximum size for tensor at dimension 1 is 4 but size is 5"},
		{name: "Tensor.unfold", args: args{m, iv(1), iv(2), iv(0)}, err: "step is 0 but must be > 0"},
		{name: "Tensor.unfold", args: args{m, iv(1), iv(-1), iv(1)}, err: `argument "size": size is -1`},
		{name: "Tensor.unfold", args: args{m, iv(2), iv(1), iv(1)}, err: `argument "dimension": dimension out of range`},
		// diag, diagonal, diag_embed, diagflat
		{name: "Torch.diag", args: args{v}, op: "diag_embed", attrs: ops.Attrs{"offset": ia(0), "dim1": ia(0), "dim2": ia(1)}},
		{name: "Tensor.diag", args: args{m, iv(-1)}, op: "diagonal", attrs: ops.Attrs{"offset": ia(-1), "dim1": ia(0), "dim2": ia(1)}},
		{name: "Torch.diag", args: args{v}, kwargs: kws{kw("diagonal", iv(2))}, op: "diag_embed", attrs: ops.Attrs{"offset": ia(2)}},
		{name: "Torch.diag", args: args{y}, err: "matrix or a vector expected"},
		{name: "Torch.diag", args: args{z}, err: "matrix or a vector expected"},
		{name: "Torch.diagonal", args: args{y}, op: "diagonal", attrs: ops.Attrs{"offset": ia(0), "dim1": ia(0), "dim2": ia(1)}},
		// torch.linalg.diagonal dumped as Torch.diagonal: told by the output's shape
		{name: "Torch.diagonal", args: args{y}, outs: []framework.Arg{f32("output.0", 2, 3)}, op: "diagonal", attrs: ops.Attrs{"dim1": ia(-2), "dim2": ia(-1)}},
		{name: "Torch.diagonal", args: args{y}, outs: []framework.Arg{f32("output.0", 4, 2)}, op: "diagonal", attrs: ops.Attrs{"dim1": ia(0), "dim2": ia(1)}},
		{name: "Tensor.diagonal", args: args{y}, outs: []framework.Arg{f32("output.0", 2, 3)}, op: "diagonal", attrs: ops.Attrs{"dim1": ia(0), "dim2": ia(1)}},
		{name: "Tensor.diagonal", args: args{y, iv(1), iv(-1), iv(0)}, op: "diagonal", attrs: ops.Attrs{"offset": ia(1), "dim1": ia(-1), "dim2": ia(0)}},
		{name: "Torch.diagonal", args: args{y}, kwargs: kws{kw("dim2", iv(2))}, op: "diagonal", attrs: ops.Attrs{"dim2": ia(2)}},
		{name: "Torch.diagonal", args: args{m, iv(0), iv(0), iv(-2)}, err: "diagonal dimensions cannot be identical 0, -2"},
		{name: "Torch.diagonal", args: args{v}, err: `argument "dim2": dimension out of range`},
		{name: "Torch.diag_embed", args: args{m}, op: "diag_embed", attrs: ops.Attrs{"offset": ia(0), "dim1": ia(-2), "dim2": ia(-1)}},
		{name: "Tensor.diag_embed", args: args{m, iv(1), iv(0), iv(2)}, op: "diag_embed", attrs: ops.Attrs{"offset": ia(1), "dim1": ia(0), "dim2": ia(2)}},
		{name: "Torch.diag_embed", args: args{m, iv(0), iv(0), iv(-3)}, err: "diagonal dimensions cannot be identical 0, -3"},
		{name: "Torch.diag_embed", args: args{m, iv(0), iv(0), iv(3)}, err: `argument "dim2": dimension out of range`},
		{name: "Torch.diag_embed", args: args{z}, err: `argument "dim1": dimension out of range`},
		{name: "Torch.diag_embed", args: args{z, iv(0), iv(0), iv(-1)}, err: "diagonal dimensions cannot be identical 0, -1"},
		{name: "Torch.diagflat", args: args{m}, op: "diagflat", attrs: ops.Attrs{"offset": ia(0)}},
		{name: "Tensor.diagflat", args: args{z, iv(-2)}, op: "diagflat", attrs: ops.Attrs{"offset": ia(-2)}},
		{name: "Tensor.diagflat", args: args{m, fv(1)}, err: `argument "offset": expected int, got float`},
		// unbind
		{name: "Torch.unbind", args: args{y}, op: "unbind", attrs: ops.Attrs{"dim": ia(0)}, multi: true},
		{name: "Tensor.unbind", args: args{y, iv(-1)}, op: "unbind", attrs: ops.Attrs{"dim": ia(-1)}, multi: true},
		{name: "Tensor.unbind", args: args{y}, kwargs: kws{kw("dim", iv(1))}, op: "unbind", attrs: ops.Attrs{"dim": ia(1)}, multi: true},
		{name: "Torch.unbind", args: args{z}, err: "Dimension specified as 0 but tensor has no dimensions"},
		{name: "Torch.unbind", args: args{y, iv(3)}, err: `argument "dim": dimension out of range`},
		{name: "Torch.unbind", args: args{tn("args.0", tensor.Bool, 2), sv("x")}, err: `argument "dim": expected int, got str`},
	}
}

func TestShapeSplitsStacks(t *testing.T) { runCases(t, shapeSplitStackCases(), nil) }

func shapeSplitStackCases() []lcase {
	y := f32("args.0", 2, 6, 4)
	v := f32("args.0", 4)
	z := f32("args.0")
	a, b := f32("args.0.0", 2, 3), f32("args.0.1", 2, 3)
	split := func(sizes []int64, dim int64) ops.Attrs {
		return ops.Attrs{"split_sizes": la(sizes...), "dim": ia(dim)}
	}
	return []lcase{
		// hsplit, vsplit, dsplit
		{name: "Torch.hsplit", args: args{y, iv(3)}, op: "split_with_sizes", attrs: split([]int64{2, 2, 2}, 1), multi: true},
		{name: "Tensor.hsplit", args: args{v, iv(2)}, op: "split_with_sizes", attrs: split([]int64{2, 2}, 0), multi: true},
		{name: "Torch.hsplit", args: args{y, ints(1, 4)}, op: "split_with_sizes", attrs: split([]int64{1, 3, 2}, 1), multi: true},
		{name: "Tensor.hsplit", args: args{y, iv(1), iv(-1)}, op: "split_with_sizes", attrs: split([]int64{1, 4, 1}, 1), multi: true},
		{name: "Torch.hsplit", args: args{y, ints(5, 2, 9)}, op: "split_with_sizes", attrs: split([]int64{5, 0, 1, 0}, 1), multi: true},
		{name: "Torch.vsplit", args: args{y, iv(2)}, op: "split_with_sizes", attrs: split([]int64{1, 1}, 0), multi: true},
		{name: "Tensor.vsplit", args: args{y}, kwargs: kws{kw("indices_or_sections", ints(1))}, op: "split_with_sizes", attrs: split([]int64{1, 1}, 0), multi: true},
		{name: "Torch.dsplit", args: args{y, iv(4)}, op: "split_with_sizes", attrs: split([]int64{1, 1, 1, 1}, 2), multi: true},
		{name: "Torch.hsplit", args: args{z, iv(1)}, err: "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!"},
		{name: "Torch.vsplit", args: args{v, iv(1)}, err: "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!"},
		{name: "Torch.dsplit", args: args{f32("args.0", 2, 2), iv(1)}, err: "torch.dsplit requires a tensor with at least 3 dimension"},
		{name: "Torch.hsplit", args: args{y, iv(4)}, err: "torch.hsplit attempted to split along dimension 1, but the size of the dimension 6 is not divisible by the split_size 4!"},
		{name: "Torch.hsplit", args: args{y, iv(0)}, err: "not divisible by the split_size 0!"},
		{name: "Torch.hsplit", args: args{y, iv(-2)}, err: "number of sections must be larger than 0, got -2"},
		{name: "Torch.hsplit", args: args{y, fv(2)}, err: `argument "indices_or_sections": expected int or list of ints, got float`},
		{name: "Torch.hsplit", args: args{y}, err: `missing required argument "indices_or_sections"`},
		// atleast_Nd
		{name: "Torch.atleast_1d", args: args{z}, op: "reshape", attrs: ops.Attrs{"shape": la(1)}},
		{name: "Torch.atleast_1d", args: args{y}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 6, 4)}},
		{name: "Torch.atleast_2d", args: args{v}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 4)}},
		{name: "Torch.atleast_2d", args: args{z}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 1)}},
		{name: "Torch.atleast_3d", args: args{v}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 4, 1)}},
		{name: "Torch.atleast_3d", args: args{f32("args.0", 2, 5)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 5, 1)}},
		{name: "Torch.atleast_3d", args: args{z}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 1, 1)}},
		{name: "Torch.atleast_2d", args: args{a, b}, err: "only a single tensor is supported"},
		{name: "Torch.atleast_2d", args: args{lv(a)}, err: "only a single tensor is supported"},
		{name: "Torch.atleast_1d", args: args{iv(1)}, err: `argument "tensors": element 0: expected tensor, got int`},
		// broadcast_tensors
		{name: "Torch.broadcast_tensors", args: args{a, b}, op: "broadcast_tensors", in: []string{"args.0.0", "args.0.1"}, multi: true},
		{name: "Torch.broadcast_tensors", args: args{lv(a, b, z)}, op: "broadcast_tensors", in: []string{"args.0.0", "args.0.1", "args.0"}, multi: true},
		{name: "Torch.broadcast_tensors", args: args{}, err: "broadcast_tensors of no tensors"},
		{name: "Torch.broadcast_tensors", args: args{a, fv(1)}, err: "element 1: expected tensor, got float"},
		// hstack, vstack, row_stack, dstack, column_stack
		{name: "Torch.hstack", args: args{lv(a, b)}, op: "hstack", in: []string{"args.0.0", "args.0.1"}},
		{name: "Torch.vstack", args: args{lv(a)}, kwargs: kws{kw("out", f32("kwargs.out", 2, 3))}, op: "vstack", in: []string{"args.0.0"}},
		{name: "Torch.row_stack", args: args{lv(a, b)}, op: "vstack"},
		{name: "Torch.dstack", args: args{}, kwargs: kws{kw("tensors", lv(a, b))}, op: "dstack"},
		{name: "Torch.column_stack", args: args{lv(v, a)}, op: "column_stack"},
		{name: "Torch.hstack", args: args{lv()}, err: "hstack expects a non-empty TensorList"},
		{name: "Torch.row_stack", args: args{lv()}, err: "row_stack expects a non-empty TensorList"},
		{name: "Torch.vstack", args: args{a}, err: `argument "tensors": expected a list of tensors, got tensor`},
		{name: "Torch.column_stack", args: args{lv(a, iv(2))}, err: "element 1: expected tensor, got int"},
	}
}

func TestShapeIndexing(t *testing.T) { runCases(t, shapeIndexCases(), nil) }

func shapeIndexCases() []lcase {
	x := f32("args.0", 3, 4)
	z := f32("args.0")
	return []lcase{
		{name: "Torch.gather", args: args{x, iv(1), i64("args.2", 3, 2)}, op: "gather", attrs: ops.Attrs{"dim": ia(1)}, in: []string{"args.0", "args.2"}},
		{name: "Tensor.gather", args: args{x, iv(-2), i64("args.2", 5, 4)}, op: "gather", attrs: ops.Attrs{"dim": ia(-2)}},
		{name: "Torch.gather", args: args{x}, kwargs: kws{kw("dim", iv(0)), kw("index", i64("kwargs.index", 1, 1)), kw("sparse_grad", bv(true))}, op: "gather", in: []string{"args.0", "kwargs.index"}},
		{name: "Torch.gather", args: args{z, iv(0), i64("args.2", 2)}, op: "gather"},
		{name: "Torch.gather", args: args{x, iv(0), tn("args.2", tensor.Int32, 1, 1)}, err: "gather(): Expected dtype int64 for index"},
		{name: "Torch.gather", args: args{x, iv(0), i64("args.2", 2)}, err: "Index tensor must have the same number of dimensions as input tensor"},
		{name: "Torch.gather", args: args{x, iv(1), i64("args.2", 4, 1)}, err: "Size does not match at dimension 0 expected index [4, 1] to be smaller than self [3, 4] apart from dimension 1"},
		{name: "Torch.gather", args: args{x, iv(2), i64("args.2", 1, 1)}, err: `argument "dim": dimension out of range`},
		{name: "Torch.gather", args: args{x, iv(0), iv(1)}, err: `argument "index": expected tensor, got int`},
		{name: "Torch.gather", args: args{x, iv(0), i64("args.2", 1, 1)}, kwargs: kws{kw("sparse_grad", iv(1))}, err: `argument "sparse_grad": expected bool, got int`},
		{name: "Torch.index_select", args: args{x, iv(0), i64("args.2", 5)}, op: "index_select", attrs: ops.Attrs{"dim": ia(0)}, in: []string{"args.0", "args.2"}},
		{name: "Tensor.index_select", args: args{x, iv(-1), tn("args.2", tensor.Int32)}, op: "index_select", attrs: ops.Attrs{"dim": ia(-1)}},
		{name: "Torch.index_select", args: args{x, iv(0), i64("args.2", 1, 1)}, err: "index_select(): Index is supposed to be a vector"},
		{name: "Torch.index_select", args: args{x, iv(0), f32("args.2", 2)}, err: "index_select(): Expected dtype int32 or int64 for index"},
		{name: "Torch.index_select", args: args{x, iv(2), i64("args.2", 2)}, err: `argument "dim": dimension out of range`},
	}
}
