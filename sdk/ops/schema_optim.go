package ops

// The optim family: optimizer arithmetic (addcmul, addcdiv, lerp), tensor
// creation and casts.

// valueIn is the Python number of addcmul/addcdiv: a wrapped scalar input,
// so that it keeps its kind (an int value is exact for integer tensors, a
// float one is truncated, and the overflow checks differ).
var valueIn = InputSpec{Name: "value", ScalarOK: true}

func init() {
	addSchemas(
		Schema{Name: "addcmul", Doc: "self + value*tensor1*tensor2; the three tensors broadcast and promote together, value (a Python number) is converted to their common dtype, float32 for float16 and bfloat16 (PyTorch's opmath, a fused multiply-add)",
			Inputs: []InputSpec{in("self"), in("tensor1"), in("tensor2"), valueIn}, Attrs: []AttrSpec{inplace}, Outputs: 1},
		Schema{Name: "addcdiv", Doc: "self + value*tensor1/tensor2; as addcmul, and an error when tensor1 and tensor2 are both integer or bool tensors",
			Inputs: []InputSpec{in("self"), in("tensor1"), in("tensor2"), valueIn}, Attrs: []AttrSpec{inplace}, Outputs: 1},
		Schema{Name: "lerp", Doc: "self + weight*(end-self) where |weight| < 0.5, else end - (end-self)*(1-weight) (PyTorch's two branches); self, end and a tensor weight share one floating dtype and broadcast",
			Inputs: []InputSpec{in("self"), in("end"), sc("weight")}, Attrs: []AttrSpec{inplace}, Outputs: 1},
		Schema{Name: "arange", Doc: "torch.arange (or torch.range when inclusive) from Python numbers start, end, step: start + step*i at the dtype's accumulate type (int64 for integer dtypes, float64 for float32/float64, float32 for float16/bfloat16), with PyTorch's length rules",
			Inputs: []InputSpec{{Name: "start", ScalarOK: true}, {Name: "end", ScalarOK: true}, {Name: "step", ScalarOK: true}},
			Attrs: []AttrSpec{attr("dtype", AttrString, NoneAttr(), "output dtype; None infers torch.arange's (int64 when every number is an int, else float32) and torch.range's (float32)"),
				attr("inclusive", AttrBool, BoolAttr(false), "torch.range: end included, floor((end-start)/step)+1 values")}, Outputs: 1},
	)
}
