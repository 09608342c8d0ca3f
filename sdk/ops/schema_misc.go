package ops

// The misc family: the remaining creation ops (linspace, logspace, the
// triangle indices, the signal windows) and small ops.

func init() {
	steps := req("steps", AttrInt, "number of points, non-negative")
	factoryDType := req("dtype", AttrString, "output dtype, already inferred (the default float dtype when the call has none)")
	addSchemas(
		Schema{Name: "linspace", Doc: "torch.linspace(start, end, steps): steps points from start to end, as PyTorch 1.13's CPU kernel computes them at the dtype: " +
			"start and end converted to the dtype, step = (end-start)/(steps-1) (in double for integer dtypes), the first half start + step*i, the second end - step*(steps-1-i), " +
			"vectorised blocks adding k*step to their first element; start alone when steps is 1",
			Inputs: []InputSpec{{Name: "start", ScalarOK: true}, {Name: "end", ScalarOK: true}},
			Attrs:  []AttrSpec{steps, factoryDType}, Outputs: 1},
		Schema{Name: "logspace", Doc: "torch.logspace(start, end, steps, base): base ** e for the exponents of linspace computed in double (from start and end converted to the dtype), " +
			"pow in double (base rounded to float for integer dtypes), the result converted to the dtype; base ** start when steps is 1",
			Inputs: []InputSpec{{Name: "start", ScalarOK: true}, {Name: "end", ScalarOK: true}},
			Attrs:  []AttrSpec{steps, attr("base", AttrFloat, FloatAttr(10), ""), factoryDType}, Outputs: 1},
		Schema{Name: "tril_indices", Doc: "torch.tril_indices(row, col, offset): the [2, N] coordinates (row-major order) of the elements of a row × col matrix with col - row <= offset; row and col are Python ints",
			Inputs: []InputSpec{{Name: "row", ScalarOK: true}, {Name: "col", ScalarOK: true}},
			Attrs:  []AttrSpec{attr("offset", AttrInt, IntAttr(0), ""), req("dtype", AttrString, "output dtype, already inferred (int64 when the call has none)")}, Outputs: 1},
		Schema{Name: "triu_indices", Doc: "torch.triu_indices(row, col, offset): the [2, N] coordinates (row-major order) of the elements of a row × col matrix with col - row >= offset; row and col are Python ints",
			Inputs: []InputSpec{{Name: "row", ScalarOK: true}, {Name: "col", ScalarOK: true}},
			Attrs:  []AttrSpec{attr("offset", AttrInt, IntAttr(0), ""), req("dtype", AttrString, "output dtype, already inferred (int64 when the call has none)")}, Outputs: 1},
	)
}
