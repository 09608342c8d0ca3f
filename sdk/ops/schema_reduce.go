package ops

// The reduce family: reductions beyond sum/mean/max/min (prod, logsumexp,
// var/std, norms, all/any, ...) and the cumulative ops cumprod and
// logcumsumexp.

var correction = attr("correction", AttrFloat, FloatAttr(1), "degrees of freedom subtracted from the element count (unbiased=True is 1, False 0)")

func reduceOp(name, doc string, extra ...AttrSpec) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{in("self")}, Attrs: extra, Outputs: 1}
}

func init() {
	addSchemas(
		reduceOp("prod", "product over dim (None: every element); integer and bool inputs give int64 unless dtype says otherwise", dimNone, keepdim, dtypeOpt),
		reduceOp("nansum", "sum treating NaN as zero", dimNone, keepdim, dtypeOpt),
		reduceOp("nanmean", "mean of the non-NaN elements (float inputs only)", dimNone, keepdim, dtypeOpt),
		reduceOp("amax", "maximum over dims (None or []: every dim); NaN propagates; the gradient is shared evenly by the elements equal to the result", dimNone, keepdim),
		reduceOp("amin", "minimum over dims (None or []: every dim); NaN propagates; the gradient is shared evenly by the elements equal to the result", dimNone, keepdim),
		reduceOp("logsumexp", "log(sum(exp(self))) over dims, stabilised by the maximum; integer inputs give float32",
			req("dim", AttrInts, "dimensions to reduce (at least one)"), keepdim),
		reduceOp("all", "every element non-zero (NaN counts as non-zero); bool output, uint8 for uint8 inputs", dimNone, keepdim),
		reduceOp("any", "some element non-zero (NaN counts as non-zero); bool output, uint8 for uint8 inputs", dimNone, keepdim),
		reduceOp("count_nonzero", "number of non-zero elements over dims (None: every dim), int64", dimNone),
		Schema{Name: "cumprod", Doc: "cumulative product along dim", Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("dim", AttrInt, ""), dtypeOpt, inplace}, Outputs: 1},
		Schema{Name: "logcumsumexp", Doc: "log of the cumulative sum of exp along dim (float inputs only)", Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{req("dim", AttrInt, "")}, Outputs: 1},
		reduceOp("var", "variance over dims (None or []: every dim): sum((x-mean)^2)/max(N-correction, 0); float inputs only", dimNone, correction, keepdim),
		reduceOp("std", "standard deviation: sqrt of var", dimNone, correction, keepdim),
		Schema{Name: "var_mean", Doc: "(var, mean) over the same dims", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{dimNone, correction, keepdim}, Outputs: 2},
		Schema{Name: "std_mean", Doc: "(std, mean) over the same dims", Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{dimNone, correction, keepdim}, Outputs: 2},
		reduceOp("norm", "vector p-norm over dims (None or []: every dim), as torch.linalg.vector_norm: p 0 counts non-zeros, inf/-inf take max/min |x|; "+
			"the input is cast to dtype first when given; float inputs only",
			attr("p", AttrFloat, FloatAttr(2), "the order: any float, inf and -inf included"), dimNone, keepdim, dtypeOpt),
		Schema{Name: "aminmax", Doc: "(min, max) over dim (None: every element); NaN propagates", Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{attr("dim", AttrInt, NoneAttr(), "dimension to reduce; None reduces all"), keepdim}, Outputs: 2},
	)
}

// Selection: argmax/argmin, sort, topk, kthvalue.
func init() {
	dimLast := attr("dim", AttrInt, IntAttr(-1), "")
	addSchemas(
		reduceOp("argmax", "index of the first maximum (the first NaN when there is one) along dim, or in the flattened input when dim is None; int64",
			attr("dim", AttrInt, NoneAttr(), ""), keepdim),
		reduceOp("argmin", "index of the first minimum (the first NaN when there is one); int64", attr("dim", AttrInt, NoneAttr(), ""), keepdim),
		Schema{Name: "sort", Doc: "(values, indices) sorted along dim, stably (equal values keep their order), NaN greater than every number; argsort and msort use one of the outputs",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{dimLast, attr("descending", AttrBool, BoolAttr(false), ""),
				attr("stable", AttrBool, BoolAttr(false), "recorded; the result is always the stable order")}, Outputs: 2},
		Schema{Name: "topk", Doc: "(values, indices) of the k largest (or smallest) along dim, always sorted (PyTorch leaves the order of sorted=False unspecified); NaN is the largest",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("k", AttrInt, ""), dimLast, attr("largest", AttrBool, BoolAttr(true), "")}, Outputs: 2},
		Schema{Name: "kthvalue", Doc: "(values, indices) of the k-th smallest (1-based) along dim",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("k", AttrInt, ""), dimLast, keepdim}, Outputs: 2},
	)
}

// Selection: medians, mode, cumulative max/min.
func init() {
	ignoreNaN := attr("ignore_nan", AttrBool, BoolAttr(false), "nanmedian: the median of the non-NaN values (NaN only when all are); otherwise NaN wins")
	addSchemas(
		reduceOp("median", "lower median of every element ((n-1)/2-th smallest); NaN when an element is NaN (unless ignore_nan); NaN when empty; "+
			"the gradient is shared evenly by the elements equal to the result", ignoreNaN),
		Schema{Name: "median_dim", Doc: "(values, indices): the lower median along dim; the index of the first NaN when a NaN wins",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, ""), keepdim, ignoreNaN}, Outputs: 2},
		Schema{Name: "mode", Doc: "(values, indices): the most frequent value along dim (the smallest of equally frequent ones) and the last index holding it",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(-1), ""), keepdim}, Outputs: 2},
		Schema{Name: "cummax", Doc: "(values, indices): running maximum along dim; an equal value or a NaN takes over the index",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, "")}, Outputs: 2},
		Schema{Name: "cummin", Doc: "(values, indices): running minimum along dim; an equal value or a NaN takes over the index",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("dim", AttrInt, "")}, Outputs: 2},
	)
}

// Quantiles.
func init() {
	addSchemas(Schema{Name: "quantile",
		Doc: "torch.quantile / nanquantile: q a number or a 0-d/1-D tensor of the input's dtype (a 1-D q adds a leading dim of its length); " +
			"sorts along dim (None: every element) and interpolates between the ranks below and above q·(n−1), n counting the non-NaN values with ignore_nan",
		Inputs: []InputSpec{in("self"), {Name: "q", ScalarOK: true, Differentiable: true}},
		Attrs: []AttrSpec{attr("dim", AttrInt, NoneAttr(), ""), keepdim,
			attr("interpolation", AttrString, StringAttr("linear"), "linear, lower, higher, midpoint or nearest"),
			attr("ignore_nan", AttrBool, BoolAttr(false), "nanquantile: NaN values are left out (a NaN result only when all are NaN)")},
		Outputs: 1})
}

// Counting and searching: histc, bincount, searchsorted (bucketize).
func init() {
	addSchemas(
		reduceOp("histc", "histogram of bins equal-width bins over [min, max] (min = max: the data's range, widened by 1 each side when flat); "+
			"elements outside are not counted, NaN counts in bin 0 (PyTorch 1.13); the result has the input's dtype; no gradient",
			attr("bins", AttrInt, IntAttr(100), ""), attr("min", AttrFloat, FloatAttr(0), ""), attr("max", AttrFloat, FloatAttr(0), "")),
		Schema{Name: "bincount", Doc: "occurrences (or summed weights) of every value of a 1-D non-negative integer tensor; int64, or float32 for float32 weights, float64 for other weights",
			Inputs: []InputSpec{idx("self"), {Name: "weights", Optional: true}}, Attrs: []AttrSpec{attr("minlength", AttrInt, IntAttr(0), "")}, Outputs: 1},
		Schema{Name: "searchsorted", Doc: "for every value, the insertion index into the innermost dim of sorted_sequence (1-D, or with the values' leading dims): " +
			"the first element >= the value (> with right); sorter reorders the sequence; bucketize(input, boundaries) is searchsorted(boundaries, input)",
			Inputs: []InputSpec{idx("sorted_sequence"), {Name: "self", ScalarOK: true}, {Name: "sorter", Optional: true}},
			Attrs:  []AttrSpec{attr("out_int32", AttrBool, BoolAttr(false), "int32 result instead of int64"), attr("right", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	)
}

// unique, unique_consecutive.
func init() {
	addSchemas(Schema{Name: "unique",
		Doc: "Tensor.unique / unique_consecutive: outputs (values, inverse if return_inverse, counts if return_counts); values of the flattened input " +
			"(dim None) or slices along dim, sorted ascending (always: PyTorch leaves sorted=False's order unspecified) or, with consecutive, runs in order; " +
			"NaN never equals NaN; no gradient",
		Inputs: []InputSpec{in("self")},
		Attrs: []AttrSpec{attr("dim", AttrInt, NoneAttr(), ""), attr("consecutive", AttrBool, BoolAttr(false), "unique_consecutive: collapse runs only"),
			attr("return_inverse", AttrBool, BoolAttr(false), ""), attr("return_counts", AttrBool, BoolAttr(false), "")},
		Outputs: -1})
}
