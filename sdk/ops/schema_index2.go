package ops

// The rest of the indexing ops: masked_select, masked_scatter, take,
// take_along_dim, index_put, put. Masks are bool (or uint8) tensors
// broadcast against self; indices are int64 and may be negative where
// PyTorch wraps them.

func init() {
	addSchemas(
		Schema{Name: "masked_select", Doc: "torch.masked_select: the 1-d tensor of self's elements where mask (bool or uint8) is true, self and mask broadcast together, in row-major order",
			Inputs: []InputSpec{in("self"), idx("mask")}, Outputs: 1},
		Schema{Name: "masked_scatter", Doc: "torch.masked_scatter: a copy of self (broadcast with mask) whose elements where mask is true are source's first elements in row-major order; source has self's dtype",
			Inputs: []InputSpec{in("self"), idx("mask"), in("source")}, Attrs: []AttrSpec{inplace}, Outputs: 1},
		Schema{Name: "take", Doc: "torch.take: self read as a 1-d tensor at index (int64, any shape, negative entries count from the end); the output has index's shape",
			Inputs: []InputSpec{in("self"), idx("index")}, Outputs: 1},
		Schema{Name: "take_along_dim", Doc: "torch.take_along_dim: with dim, gather along dim after broadcasting self and indices (int64, self's rank) in the other dimensions; " +
			"dim None takes from the flattened self at the flattened indices (a 1-d result)",
			Inputs: []InputSpec{in("self"), idx("indices")}, Attrs: []AttrSpec{attr("dim", AttrInt, NoneAttr(), "None: flatten self and indices")}, Outputs: 1},
		Schema{Name: "index_put", Doc: "torch.index_put: a copy of self with values (self's dtype, broadcast to the indexing result) written at self[indices] (advanced indexing: " +
			"int64 index tensors broadcast together over self's leading dims, negative entries wrap; a bool/uint8 tensor stands for its nonzero() columns); accumulate adds instead (repeats accumulate in order); " +
			"values may be a number, cast to self's dtype (Tensor.__setitem__)",
			Inputs: []InputSpec{in("self"), sc("values"), {Name: "indices", Variadic: true}},
			Attrs:  []AttrSpec{attr("accumulate", AttrBool, BoolAttr(false), ""), inplace}, Outputs: 1},
		Schema{Name: "setitem", Doc: "Tensor.__setitem__ with a basic key (ints, slices, None, Ellipsis): a copy of self whose strided view (offset, sizes, strides, in elements of the contiguous self, as the key selects) is set to value " +
			"(a number or a tensor, cast to self's dtype and broadcast to sizes); the gradient of self is zero on the view, value's is the view's gradient summed to value's shape",
			Inputs: []InputSpec{in("self"), sc("value")},
			Attrs: []AttrSpec{req("offset", AttrInt, "first element of the view"), req("sizes", AttrInts, "the view's shape (the indexing result)"),
				req("strides", AttrInts, "the view's strides, >= 0")}, Outputs: 1},
		Schema{Name: "put", Doc: "torch.Tensor.put: a copy of self with source's elements (self's dtype, as many as index has) written at the flat positions index (int64, negative entries count from the end); " +
			"accumulate adds instead (repeats accumulate in order)",
			Inputs: []InputSpec{in("self"), idx("index"), in("source")},
			Attrs:  []AttrSpec{attr("accumulate", AttrBool, BoolAttr(false), ""), inplace}, Outputs: 1},
		Schema{Name: "nonzero", Doc: "torch.nonzero / torch.argwhere: the int64 [n, rank] tensor of the positions of self's nonzero elements (NaN counts), in row-major order; a 0-d self gives [n, 0]",
			Inputs: []InputSpec{idx("self")}, Outputs: 1},
		Schema{Name: "repeat_interleave", Doc: "torch.repeat_interleave: each slice of self along dim repeated repeats times (an int, or an int32/int64 tensor of one count or one per slice); " +
			"dim None works on the flattened self",
			Inputs: []InputSpec{in("self"), {Name: "repeats", ScalarOK: true}}, Attrs: []AttrSpec{attr("dim", AttrInt, NoneAttr(), "None: flatten self")}, Outputs: 1},
	)
}
