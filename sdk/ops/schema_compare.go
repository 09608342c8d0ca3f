package ops

// The compare family: comparisons, logical and bitwise ops, predicates.
// None of them has a gradient (PyTorch defines none), so no input is
// Differentiable; their in-place forms write the result into input 0 at
// its dtype.

// cmpBinary is an op of a tensor and a tensor or Python number computed at
// the promoted dtype of both (bool result for comparisons).
func cmpBinary(name, doc string) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{{Name: "self"}, {Name: "other", ScalarOK: true}},
		Attrs: []AttrSpec{inplace}, Outputs: 1}
}

// logicalBinary is a logical op of two tensors: each element tested
// against zero at the promoted dtype, bool result.
func logicalBinary(name, doc string) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{{Name: "self"}, {Name: "other"}},
		Attrs: []AttrSpec{inplace}, Outputs: 1}
}

// boolUnary is an op of one tensor with a bool result (in-place: self's
// dtype).
func boolUnary(name, doc string) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{{Name: "self"}}, Attrs: []AttrSpec{inplace}, Outputs: 1}
}

// predicate is an elementwise test of one tensor: bool result, no in-place
// form.
func predicate(name, doc string) Schema {
	return Schema{Name: name, Doc: doc, Inputs: []InputSpec{{Name: "self"}}, Outputs: 1}
}

func init() {
	addSchemas(
		cmpBinary("eq", "self == other elementwise, bool result (in-place: self's dtype, 0/1); compared at the promoted dtype"),
		cmpBinary("ne", "self != other, as eq"),
		cmpBinary("gt", "self > other, as eq"),
		cmpBinary("ge", "self >= other, as eq"),
		cmpBinary("lt", "self < other, as eq"),
		cmpBinary("le", "self <= other, as eq"),
		logicalBinary("logical_and", "(self != 0) and (other != 0), at the promoted dtype; bool result (in-place: self's dtype)"),
		logicalBinary("logical_or", "(self != 0) or (other != 0), as logical_and"),
		logicalBinary("logical_xor", "(self != 0) xor (other != 0), as logical_and"),
		boolUnary("logical_not", "self == 0; bool result (in-place: self's dtype)"),
		cmpBinary("bitwise_and", "self & other at the promoted integer or bool dtype (floating: refused)"),
		cmpBinary("bitwise_or", "self | other, as bitwise_and"),
		cmpBinary("bitwise_xor", "self ^ other, as bitwise_and"),
		cmpBinary("bitwise_left_shift", "self << other at the promoted integer dtype as PyTorch 1.13's CPU kernel: "+
			"the count is taken modulo 64 (int64) or 32 (narrower types, computed as int), the result wrapped to the dtype"),
		cmpBinary("bitwise_right_shift", "self >> other (arithmetic), counts as bitwise_left_shift"),
		boolUnary("bitwise_not", "~self at self's integer or bool dtype (floating: refused)"),
		predicate("isnan", "self != self"),
		predicate("isinf", "self is +inf or -inf (integers and bool: false)"),
		predicate("isfinite", "self is neither NaN nor infinite (integers and bool: true)"),
		predicate("isneginf", "self is -inf"),
		predicate("isposinf", "self is +inf"),
		predicate("isreal", "the imaginary part is zero: true for every real dtype"),
		Schema{Name: "isclose", Doc: "|self - other| <= atol + rtol*|other| (or self == other, or both NaN with equal_nan) as ATen's composite computes it at self's dtype " +
			"(other must have it): each step rounded to the dtype, integers through float32, bool as float32",
			Inputs: []InputSpec{{Name: "self"}, {Name: "other"}},
			Attrs: []AttrSpec{attr("rtol", AttrFloat, FloatAttr(1e-5), ">= 0"), attr("atol", AttrFloat, FloatAttr(1e-8), ">= 0"),
				attr("equal_nan", AttrBool, BoolAttr(false), "NaNs compare equal")}, Outputs: 1},
		Schema{Name: "isin", Doc: "whether each element of elements is among test_elements, compared at the promoted dtype; bool result of elements' shape. " +
			"With assume_unique and as many test elements as PyTorch 1.13's sorting path takes, an element also counts as found where an equal element follows it (PyTorch's result for repeated elements)",
			Inputs: []InputSpec{{Name: "elements", ScalarOK: true}, {Name: "test_elements", ScalarOK: true}},
			Attrs:  []AttrSpec{attr("assume_unique", AttrBool, BoolAttr(false), ""), attr("invert", AttrBool, BoolAttr(false), "not in, instead of in")}, Outputs: 1},
		Schema{Name: "equal", Doc: "torch.equal as a 0-d bool tensor (PyTorch returns a Python bool): same shape and every element equal at the promoted dtype",
			Inputs: []InputSpec{{Name: "self"}, {Name: "other"}}, Outputs: 1},
		Schema{Name: "allclose", Doc: "isclose(...).all() as a 0-d bool tensor (PyTorch returns a Python bool); attributes and errors as isclose",
			Inputs: []InputSpec{{Name: "self"}, {Name: "other"}},
			Attrs: []AttrSpec{attr("rtol", AttrFloat, FloatAttr(1e-5), ">= 0"), attr("atol", AttrFloat, FloatAttr(1e-8), ">= 0"),
				attr("equal_nan", AttrBool, BoolAttr(false), "NaNs compare equal")}, Outputs: 1},
		predicate("signbit", "the sign bit of self is set (-0.0 and NaNs with the sign bit included; integers: self < 0)"),
	)
}
