package ops

// The create family: casts (Tensor.float, half, type_as, type...) and
// tensor creation.

func init() {
	addSchemas(
		Schema{Name: "cast", Doc: "self converted to dtype as PyTorch's copy does: floats rounded to nearest (float64 and integers reach float16/bfloat16 through float32, as c10::Half and c10::BFloat16 do), " +
			"integers truncated toward zero and wrapped, bool as value != 0; the gradient of a float-to-float cast is the output's gradient cast back to self's dtype",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dtype", AttrString, "target dtype (short name)")}, Outputs: 1},
	)
}
