package ops

// Shape and view ops beyond cat/stack/split/transpose/permute/reshape:
// each is a data movement whose outputs keep the input's dtype (the stack
// family promotes as cat does), so one float64 kernel serves every dtype.

func variadic(name string) InputSpec {
	return InputSpec{Name: name, Variadic: true, Differentiable: true}
}

func init() {
	addSchemas(
		Schema{Name: "expand", Doc: "Tensor.expand/expand_as, torch.broadcast_to: broadcast self to size (-1 keeps a dimension)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("size", AttrInts, "target sizes; -1 keeps the existing size")}, Outputs: 1},
		Schema{Name: "repeat", Doc: "Tensor.repeat (and tile, whose repeats the framework pads with leading 1s)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("repeats", AttrInts, "one per output dimension, at least self's rank")}, Outputs: 1},
		Schema{Name: "flip", Doc: "reverse the order of elements along dims",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dims", AttrInts, "")}, Outputs: 1},
		Schema{Name: "roll", Doc: "torch.roll: shift elements circularly; empty dims rolls the flattened tensor",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("shifts", AttrInts, ""), attr("dims", AttrInts, IntsAttr(), "one per shift; empty: flatten, roll, restore the shape")}, Outputs: 1},
		Schema{Name: "rot90", Doc: "rotate by 90 degrees k times in the plane of dims, from dims[0] towards dims[1]",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("k", AttrInt, IntAttr(1), ""), attr("dims", AttrInts, IntsAttr(0, 1), "")}, Outputs: 1},
		Schema{Name: "slice", Doc: "aten::slice: self[..., start:end:step, ...] along dim (narrow, narrow_copy); start and end are clamped as Python slices",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(0), ""), attr("start", AttrInt, IntAttr(0), ""),
				attr("end", AttrInt, IntAttr(1<<63-1), ""), attr("step", AttrInt, IntAttr(1), "positive")}, Outputs: 1},
		Schema{Name: "select", Doc: "self indexed by index along dim, which is removed",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), req("index", AttrInt, "may be negative")}, Outputs: 1},
		Schema{Name: "unfold", Doc: "Tensor.unfold: every slice of size elements along dimension, step apart, in a new last dimension",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dimension", AttrInt, ""), req("size", AttrInt, ""), req("step", AttrInt, "")}, Outputs: 1},
		Schema{Name: "diagonal", Doc: "the diagonal at offset of the planes dim1 × dim2, as a new last dimension (diag of a matrix)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("offset", AttrInt, IntAttr(0), ""), attr("dim1", AttrInt, IntAttr(0), ""), attr("dim2", AttrInt, IntAttr(1), "")}, Outputs: 1},
		Schema{Name: "diag_embed", Doc: "zero tensor whose diagonals (offset, planes dim1 × dim2 of the result) hold self's last dimension (diag of a vector)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("offset", AttrInt, IntAttr(0), ""), attr("dim1", AttrInt, IntAttr(-2), ""), attr("dim2", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "diagflat", Doc: "square matrix with the flattened self on diagonal offset",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("offset", AttrInt, IntAttr(0), "")}, Outputs: 1},
		Schema{Name: "broadcast_tensors", Doc: "every tensor expanded to the common broadcast shape: one output per input",
			Inputs: []InputSpec{variadic("tensors")}, Outputs: -1},
		Schema{Name: "hstack", Doc: "cat of atleast_1d of each tensor, along dim 0 when the first is 1-d, else 1",
			Inputs: []InputSpec{variadic("tensors")}, Outputs: 1},
		Schema{Name: "vstack", Doc: "cat of atleast_2d of each tensor along dim 0 (row_stack)",
			Inputs: []InputSpec{variadic("tensors")}, Outputs: 1},
		Schema{Name: "dstack", Doc: "cat of atleast_3d of each tensor along dim 2",
			Inputs: []InputSpec{variadic("tensors")}, Outputs: 1},
		Schema{Name: "column_stack", Doc: "hstack of the tensors, 0-d and 1-d ones made columns (n, 1)",
			Inputs: []InputSpec{variadic("tensors")}, Outputs: 1},
		Schema{Name: "gather", Doc: "out[i][j] = self[index[i][j]][j] along dim (torch.gather); index int64 of self's rank",
			Inputs: []InputSpec{in("self"), idx("index")}, Attrs: []AttrSpec{req("dim", AttrInt, "")}, Outputs: 1},
		Schema{Name: "index_select", Doc: "the entries index (a vector of int32/int64) of self along dim",
			Inputs: []InputSpec{in("self"), idx("index")}, Attrs: []AttrSpec{req("dim", AttrInt, "")}, Outputs: 1},
		Schema{Name: "unbind", Doc: "the slices of self along dim, dim removed: one output per index",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(0), "")}, Outputs: -1},
	)
}
