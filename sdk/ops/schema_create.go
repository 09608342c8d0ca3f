package ops

// The create family: casts (Tensor.float, half, type_as, type...) and
// tensor creation.

func init() {
	addSchemas(
		Schema{Name: "cast", Doc: "self converted to dtype as PyTorch's copy does: floats rounded to nearest (float64 and integers reach float16/bfloat16 through float32, as c10::Half and c10::BFloat16 do), " +
			"integers truncated toward zero and wrapped, bool as value != 0; the gradient of a float-to-float cast is the output's gradient cast back to self's dtype",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dtype", AttrString, "target dtype (short name)")}, Outputs: 1},
		Schema{Name: "fill", Doc: "torch.full_like / Tensor.fill_: a tensor of self's shape (self's dtype, or dtype) filled with value, a Python number or a 0-d tensor converted as c10::Scalar::to does (an overflow check against the dtype's range, float16 and bfloat16 through float); " +
			"the gradient of a tensor value is the sum of the output's gradient, self's is zero",
			Inputs: []InputSpec{in("self"), sc("value")}, Attrs: []AttrSpec{dtypeOpt}, Outputs: 1},
		Schema{Name: "full", Doc: "torch.full / torch.scalar_tensor: a tensor of shape size and dtype filled with value (a Python number), converted as fill does",
			Inputs: []InputSpec{{Name: "value", ScalarOK: true}}, Attrs: []AttrSpec{req("size", AttrInts, "non-negative sizes; empty for a 0-d tensor"),
				req("dtype", AttrString, "output dtype, already inferred (bool value: bool, int: int64, float: the default float dtype)")}, Outputs: 1},
		Schema{Name: "tril", Doc: "the lower triangle of every matrix of self (last two dims): elements with col - row <= diagonal kept, the others 0; the gradient is the output's, masked the same way",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("diagonal", AttrInt, IntAttr(0), ""), inplace}, Outputs: 1},
		Schema{Name: "triu", Doc: "the upper triangle of every matrix of self (last two dims): elements with col - row >= diagonal kept, the others 0; the gradient is the output's, masked the same way",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("diagonal", AttrInt, IntAttr(0), ""), inplace}, Outputs: 1},
		Schema{Name: "eye", Doc: "torch.eye: an n × m matrix of dtype with ones on the diagonal, zeros elsewhere; n and m are Python ints (torch.eye's m=None already replaced by n)",
			Inputs: []InputSpec{{Name: "n", ScalarOK: true}, {Name: "m", ScalarOK: true}},
			Attrs:  []AttrSpec{req("dtype", AttrString, "output dtype, already inferred (the default float dtype)")}, Outputs: 1},
	)
}
