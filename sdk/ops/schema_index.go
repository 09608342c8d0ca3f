package ops

// Indexing ops that write into a copy of self: scatter, scatter_add. The
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
	)
}
