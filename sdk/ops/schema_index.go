package ops

// Indexing ops that write into a copy of self: scatter, scatter_add,
// index_add, index_copy, index_fill. The
// output keeps self's dtype; with inplace (scatter_, scatter_add_) it is
// what PyTorch writes into self.

func init() {
	addSchemas(
		Schema{Name: "scatter", Doc: "torch.scatter: a copy of self with src (a tensor of self's dtype, or a number cast to it) written at index along dim; " +
			"reduce None, \"add\" or \"multiply\" combines instead of overwriting (no backward then)",
			Inputs: []InputSpec{in("self"), idx("index"), sc("src")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), attr("reduce", AttrString, NoneAttr(), "None, \"add\" or \"multiply\""), inplace}, Outputs: 1},
		Schema{Name: "scatter_add", Doc: "torch.scatter_add: a copy of self with src added at index along dim (duplicates accumulate in index order)",
			Inputs: []InputSpec{in("self"), idx("index"), in("src")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), inplace}, Outputs: 1},
		Schema{Name: "index_add", Doc: "torch.index_add: a copy of self with alpha*source[k] added to the slice index[k] along dim (int32/int64 index, duplicates accumulate in order)",
			Inputs: []InputSpec{in("self"), idx("index"), in("source")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), attr("alpha", AttrFloat, FloatAttr(1), "multiplier of source (truncated for integer tensors)"), inplace}, Outputs: 1},
		Schema{Name: "index_copy", Doc: "torch.index_copy: a copy of self with source's slice k copied to the slice index[k] along dim (int64 index)",
			Inputs: []InputSpec{in("self"), idx("index"), in("source")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), inplace}, Outputs: 1},
		Schema{Name: "index_fill", Doc: "torch.index_fill: a copy of self with the slices index (int64, may be negative) along dim set to value (a number or 0-d tensor cast to self's dtype)",
			Inputs: []InputSpec{in("self"), idx("index"), sc("value")},
			Attrs:  []AttrSpec{req("dim", AttrInt, ""), inplace}, Outputs: 1},
	)
}
