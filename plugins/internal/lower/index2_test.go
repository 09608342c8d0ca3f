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
	return append(append(append(ix2MaskedCases(), ix2TakeCases()...), ix2IndexPutCases()...), append(append(ix2PutCases(), ix2NonzeroCases()...), ix2RepeatInterleaveCases()...)...)
}

var ell = framework.Arg{Kind: framework.ArgEllipsis}

// sl is a slice descriptor start:end:step.
func sl(start, end, step framework.Arg) framework.Arg {
	return framework.Arg{Kind: framework.ArgSlice, Elems: []framework.Arg{start, end, step}}
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

func TestIndex2Take(t *testing.T) { runCases(t, ix2TakeCases(), nil) }

func ix2TakeCases() []lcase {
	x := f32("args.0", 3, 4)
	i := i64("args.1", 2, 2)
	return []lcase{
		{name: "Torch.take", args: ix2Args{x, i}, op: "take", in: []string{"args.0", "args.1"}},
		{name: "Tensor.take", args: ix2Args{x}, kwargs: ix2Kws{kw("index", i64("kwargs.index"))}, op: "take", in: []string{"args.0", "kwargs.index"}},
		{name: "Torch.take", args: ix2Args{f32("args.0", 0), i64("args.1", 0)}, kwargs: ix2Kws{kw("out", f32("kwargs.out", 0))}, op: "take"},
		{name: "Torch.take", args: ix2Args{x, tn("args.1", tensor.Int32, 2)}, err: `argument "index": take(): Expected a long tensor for index, but got Int`},
		{name: "Torch.take", args: ix2Args{f32("args.0", 0, 3), i64("args.1", 1)}, err: `argument "input": take(): tried to take from an empty tensor`},
		{name: "Torch.take", args: ix2Args{x, iv(1)}, err: `argument "index": expected tensor, got int`},
		{name: "Tensor.take", args: ix2Args{x, i}, kwargs: ix2Kws{kw("out", x)}, err: `unexpected keyword argument "out"`},

		{name: "Torch.take_along_dim", args: ix2Args{x, i}, op: "take_along_dim", attrs: ops.Attrs{"dim": na()}, in: []string{"args.0", "args.1"}},
		{name: "Tensor.take_along_dim", args: ix2Args{x, i64("args.1", 3, 1), iv(-1)}, op: "take_along_dim", attrs: ops.Attrs{"dim": ia(-1)}},
		{name: "Torch.take_along_dim", args: ix2Args{x, i64("args.1", 1, 4)}, kwargs: ix2Kws{kw("dim", iv(0)), kw("out", f32("kwargs.out", 1, 4))}, op: "take_along_dim", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Torch.take_along_dim", args: ix2Args{x, i64("args.1", 1, 2), nv()}, op: "take_along_dim", attrs: ops.Attrs{"dim": na()}},
		{name: "Torch.take_along_dim", args: ix2Args{f32("args.0", 3, 1, 4), i64("args.1", 3, 2, 5), iv(2)}, op: "take_along_dim"},
		{name: "Torch.take_along_dim", args: ix2Args{x, tn("args.1", tensor.Int32, 2)}, err: `argument "indices": gather(): Expected dtype int64 for index`},
		{name: "Torch.take_along_dim", args: ix2Args{x, i64("args.1", 2), iv(1)}, err: `argument "indices": torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1 dimensions for indices`},
		{name: "Torch.take_along_dim", args: ix2Args{x, tn("args.1", tensor.Int32, 1, 2), iv(1)}, err: `argument "indices": torch.take_along_dim(): dtype of indices should be Long but got Int`},
		{name: "Torch.take_along_dim", args: ix2Args{f32("args.0"), i64("args.1"), iv(0)}, err: `argument "dim": Dimension specified as 0 but tensor has no dimensions`},
		{name: "Torch.take_along_dim", args: ix2Args{x, i, iv(2)}, err: `argument "dim": dimension out of range (expected to be in range of [-2, 1], but got 2)`},
		{name: "Torch.take_along_dim", args: ix2Args{x, i64("args.1", 2, 2), iv(1)}, err: `argument "indices": The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0`},
		{name: "Torch.take_along_dim", args: ix2Args{x, i, fv(1)}, err: `argument "dim": expected int, got float`},
	}
}

func TestIndex2IndexPut(t *testing.T) { runCases(t, ix2IndexPutCases(), nil) }

func ix2IndexPutCases() []lcase {
	x := f32("args.0", 3, 4)
	i := i64("args.1.0", 2)
	v := f32("args.2", 2, 4)
	return []lcase{
		{name: "Torch.index_put", args: ix2Args{x, lv(i), v}, op: "index_put", attrs: ops.Attrs{"accumulate": ba(false), "inplace": ba(false)},
			in: []string{"args.0", "args.2", "args.1.0"}},
		{name: "Tensor.index_put_", args: ix2Args{x, lv(i, i64("args.1.1", 2)), f32("args.2")}, kwargs: ix2Kws{kw("accumulate", bv(true))}, op: "index_put",
			attrs: ops.Attrs{"accumulate": ba(true), "inplace": ba(true)}, in: []string{"args.0", "args.2", "args.1.0", "args.1.1"}},
		{name: "Tensor.index_put", args: ix2Args{x}, kwargs: ix2Kws{kw("indices", lv(tn("kwargs.indices.0", tensor.Bool, 3))), kw("values", f32("kwargs.values", 4))}, op: "index_put",
			attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "kwargs.values", "kwargs.indices.0"}},
		{name: "Torch.index_put", args: ix2Args{x, lv(tn("args.1.0", tensor.Uint8, 3), i64("args.1.1", 5)), f32("args.2", 7)}, op: "index_put"},
		{name: "Torch.index_put", args: ix2Args{x, lv(i64("args.1.0", 2, 1), i64("args.1.1", 3)), f32("args.2", 1, 3)}, op: "index_put"},
		{name: "Torch.index_put", args: ix2Args{x, lv(i), v, bv(false)}, op: "index_put", attrs: ops.Attrs{"accumulate": ba(false)}},
		{name: "Torch.index_put_", args: ix2Args{x, lv(i), v, bv(true)}, op: "index_put", attrs: ops.Attrs{"accumulate": ba(true), "inplace": ba(true)}},
		{name: "Torch.index_put", args: ix2Args{x, lv(), v}, err: `argument "indices": strides() called on an undefined Tensor`},
		{name: "Torch.index_put", args: ix2Args{x, i, v}, err: `argument "indices": expected a tuple of tensors, got tensor`},
		{name: "Torch.index_put", args: ix2Args{x, lv(nv(), i), v}, err: `argument "indices": expected Tensor as element 0 in argument 1, but got None`},
		{name: "Torch.index_put", args: ix2Args{x, lv(tn("args.1.0", tensor.Int32, 2)), v}, err: `argument "indices": tensors used as indices must be long, byte or bool tensors`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i), tn("args.2", tensor.Float64, 2, 4)}, err: `argument "values": Index put requires the source and destination dtypes match, got Float for the destination and Double for the source.`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i), f32("args.2", 3)}, err: `argument "values": shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i, i, i), v}, err: `argument "indices": too many indices for tensor of dimension 2 (got 3)`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i, i64("args.1.1", 3)), v}, err: `argument "indices": shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]`},
		{name: "Torch.index_put", args: ix2Args{x, lv(tn("args.1.0", tensor.Bool, 2)), v}, err: `argument "indices": The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i), fv(1)}, err: `argument "values": expected tensor, got float`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i), v, iv(1)}, err: `argument "accumulate": expected bool, got int`},
		{name: "Torch.index_put", args: ix2Args{x, lv(i), v}, kwargs: ix2Kws{kw("out", x)}, err: `unexpected keyword argument "out"`},

		{name: "Tensor.__setitem__", args: ix2Args{x, i, v}, op: "index_put", attrs: ops.Attrs{"accumulate": ba(false), "inplace": ba(true)}, in: []string{"args.0", "args.2", "args.1.0"}},
		{name: "Tensor.__setitem__", args: ix2Args{x, tn("args.1", tensor.Bool, 3, 4), fv(-1e9)}, op: "index_put", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "float:-1e+09", "args.1"}},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(i64("args.1.0", 2), i64("args.1.1", 2)), iv(3)}, op: "index_put", in: []string{"args.0", "int:3", "args.1.0", "args.1.1"}},
		{name: "Tensor.__setitem__", args: ix2Args{x, iv(0), f32("args.2", 4)}, op: "setitem",
			attrs: ops.Attrs{"offset": ops.IntAttr(0), "sizes": ops.IntsAttr(4), "strides": ops.IntsAttr(1)}, in: []string{"args.0", "args.2"}},
		{name: "Tensor.__setitem__", args: ix2Args{x, sl(iv(1), iv(3), nv()), v}, op: "setitem",
			attrs: ops.Attrs{"offset": ops.IntAttr(4), "sizes": ops.IntsAttr(2, 4), "strides": ops.IntsAttr(4, 1)}},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(sl(nv(), nv(), iv(2)), sl(iv(-3), iv(10), iv(2))), fv(1)}, op: "setitem",
			attrs: ops.Attrs{"offset": ops.IntAttr(1), "sizes": ops.IntsAttr(2, 2), "strides": ops.IntsAttr(8, 2)}, in: []string{"args.0", "float:1"}},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(nv(), ell, iv(-1)), f32("args.2", 3)}, op: "setitem",
			attrs: ops.Attrs{"offset": ops.IntAttr(3), "sizes": ops.IntsAttr(1, 3), "strides": ops.IntsAttr(0, 4)}},
		{name: "Tensor.__setitem__", args: ix2Args{x, ell, v}, err: `argument "value": shape mismatch: value tensor of shape [2, 4] cannot be broadcast to indexing result of shape [3, 4]`},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(i, sl(nv(), nv(), nv())), v},
			err: `argument "key": a key mixing index tensors with a slice is not supported (only all-tensor or all-basic keys)`},
		{name: "Tensor.__setitem__", args: ix2Args{x, sl(nv(), nv(), iv(0)), v}, err: `argument "key": step must be greater than zero`},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(iv(1), iv(-5)), fv(1)}, err: `argument "key": index -5 is out of bounds for dimension 1 with size 4`},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(ell, ell), fv(1)}, err: `argument "key": an index can only have a single ellipsis ('...')`},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(iv(0), iv(0), iv(0)), fv(1)}, err: `argument "key": too many indices for tensor of dimension 2`},
		{name: "Tensor.__setitem__", args: ix2Args{x, bv(true), fv(1)}, err: `argument "key": an index of kind bool is not supported`},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(), v}, err: `argument "key": an empty index tuple is not supported`},
		{name: "Tensor.__setitem__", args: ix2Args{x, tn("args.1", tensor.Float32, 2), v}, err: `argument "key": tensors used as indices must be long, byte or bool tensors`},
		{name: "Tensor.__setitem__", args: ix2Args{x, i, tn("args.2", tensor.Float16, 4)}, err: `argument "value": a value of dtype Half for a tensor of dtype Float (cast by __setitem__) is not supported`},
		{name: "Tensor.__setitem__", args: ix2Args{x, i, f32("args.2", 3)}, err: `argument "value": shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]`},
		{name: "Tensor.__setitem__", args: ix2Args{x, lv(i, i, i), fv(1)}, err: `argument "key": too many indices for tensor of dimension 2 (got 3)`},
		{name: "Tensor.__setitem__", args: ix2Args{x, i, sv("a")}, err: `argument "value": expected tensor or number, got str`},
	}
}

func TestIndex2Put(t *testing.T) { runCases(t, ix2PutCases(), nil) }

func ix2PutCases() []lcase {
	x := f32("args.0", 3, 4)
	i := i64("args.1", 2, 2)
	s := f32("args.2", 4)
	return []lcase{
		{name: "Tensor.put_", args: ix2Args{x, i, s}, op: "put", attrs: ops.Attrs{"accumulate": ba(false), "inplace": ba(true)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Tensor.put", args: ix2Args{x, i, s, bv(true)}, op: "put", attrs: ops.Attrs{"accumulate": ba(true), "inplace": ba(false)}},
		{name: "Torch.put", args: ix2Args{x}, kwargs: ix2Kws{kw("index", i64("kwargs.index", 3)), kw("source", f32("kwargs.source", 3, 1)), kw("accumulate", bv(true))}, op: "put",
			attrs: ops.Attrs{"accumulate": ba(true)}, in: []string{"args.0", "kwargs.index", "kwargs.source"}},
		{name: "Tensor.put_", args: ix2Args{f32("args.0", 0), i64("args.1", 0), f32("args.2", 0, 2)}, op: "put"},
		{name: "Tensor.put_", args: ix2Args{x, tn("args.1", tensor.Int32, 2, 2), s}, err: `argument "index": put_(): Expected a long tensor for index, but got Int`},
		{name: "Tensor.put_", args: ix2Args{x, i, tn("args.2", tensor.Float16, 4)}, err: `argument "source": put_(): self and source expected to have the same dtype, but got self.dtype = Float and source.dtype = Half`},
		{name: "Tensor.put_", args: ix2Args{x, i, f32("args.2", 3)}, err: `argument "source": put_(): Expected source and index to have the same number of elements, but got source.numel() = 3, index.numel() = 4`},
		{name: "Tensor.put_", args: ix2Args{f32("args.0", 0), i, s}, err: `argument "input": put_(): Tried to put elements into an empty tensor`},
		{name: "Tensor.put_", args: ix2Args{x, i, fv(1)}, err: `argument "source": expected tensor, got float`},
		{name: "Tensor.put_", args: ix2Args{x, i, s, sv("yes")}, err: `argument "accumulate": expected bool, got str`},
		{name: "Tensor.put_", args: ix2Args{x, i}, err: `missing required argument "source"`},
	}
}

func TestIndex2Nonzero(t *testing.T) { runCases(t, ix2NonzeroCases(), nil) }

func ix2NonzeroCases() []lcase {
	x := f32("args.0", 3, 4)
	return []lcase{
		{name: "Torch.nonzero", args: ix2Args{x}, op: "nonzero", in: []string{"args.0"}},
		{name: "Tensor.nonzero", args: ix2Args{tn("args.0", tensor.Bool)}, kwargs: ix2Kws{kw("as_tuple", bv(false))}, op: "nonzero"},
		{name: "Torch.nonzero", args: ix2Args{x}, kwargs: ix2Kws{kw("out", i64("kwargs.out", 2, 2))}, op: "nonzero"},
		{name: "Torch.argwhere", args: ix2Args{tn("args.0", tensor.Int32, 5)}, op: "nonzero", in: []string{"args.0"}},
		{name: "Tensor.argwhere", args: ix2Args{x}, op: "nonzero"},
		{name: "Torch.nonzero", args: ix2Args{x}, kwargs: ix2Kws{kw("as_tuple", bv(true))}, err: `argument "as_tuple": nonzero(as_tuple=True) (a tuple of index vectors) is not supported`},
		{name: "Torch.nonzero", args: ix2Args{x}, kwargs: ix2Kws{kw("as_tuple", iv(1))}, err: `argument "as_tuple": expected bool, got int`},
		{name: "Torch.nonzero", args: ix2Args{x, bv(true)}, err: "takes at most 1 positional argument"},
		{name: "Torch.argwhere", args: ix2Args{x}, kwargs: ix2Kws{kw("as_tuple", bv(false))}, err: `unexpected keyword argument "as_tuple"`},
		{name: "Tensor.argwhere", args: ix2Args{fv(1)}, err: `argument "input": expected tensor, got float`},
	}
}

func TestIndex2RepeatInterleave(t *testing.T) { runCases(t, ix2RepeatInterleaveCases(), nil) }

func ix2RepeatInterleaveCases() []lcase {
	x := f32("args.0", 3, 4)
	return []lcase{
		{name: "Torch.repeat_interleave", args: ix2Args{x, iv(2)}, op: "repeat_interleave", attrs: ops.Attrs{"dim": na()}, in: []string{"args.0", "int:2"}},
		{name: "Tensor.repeat_interleave", args: ix2Args{x, i64("args.1", 3), iv(-2)}, op: "repeat_interleave", attrs: ops.Attrs{"dim": ia(-2)}, in: []string{"args.0", "args.1"}},
		{name: "Tensor.repeat_interleave", args: ix2Args{x}, kwargs: ix2Kws{kw("repeats", tn("kwargs.repeats", tensor.Int32)), kw("dim", iv(1))}, op: "repeat_interleave", attrs: ops.Attrs{"dim": ia(1)}},
		{name: "Torch.repeat_interleave", args: ix2Args{x, i64("args.1", 12)}, op: "repeat_interleave", attrs: ops.Attrs{"dim": na()}},
		{name: "Torch.repeat_interleave", args: ix2Args{f32("args.0"), iv(3)}, op: "repeat_interleave"},
		{name: "Torch.repeat_interleave", args: ix2Args{i64("args.0", 3)}, err: `argument "repeats": torch.repeat_interleave(repeats) with one argument is not supported`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, iv(2), iv(0)}, kwargs: ix2Kws{kw("output_size", iv(6))}, err: `argument "output_size": output_size is not supported`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, iv(-1)}, err: `argument "repeats": repeats can not be negative`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, fv(2)}, err: `argument "repeats": expected int or tensor, got float`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, i64("args.1", 1, 3), iv(0)}, err: `argument "repeats": repeats must be 0-dim or 1-dim tensor`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, f32("args.1", 3), iv(0)}, err: `argument "repeats": "repeat_interleave_cpu" not implemented for 'Float'`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, i64("args.1", 2), iv(0)}, err: `argument "repeats": repeats must have the same size as input along dim`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, i64("args.1", 3)}, err: `argument "repeats": repeats must have the same size as input along dim`},
		{name: "Torch.repeat_interleave", args: ix2Args{f32("args.0"), iv(2), iv(0)}, err: `argument "dim": Dimension specified as 0 but tensor has no dimensions`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, iv(2), iv(2)}, err: `argument "dim": dimension out of range`},
		{name: "Torch.repeat_interleave", args: ix2Args{x, iv(2), fv(0)}, err: `argument "dim": expected int, got float`},
	}
}
