package ops

// The windows family: torch's signal windows (hann, hamming, blackman,
// bartlett, kaiser), creation ops without tensor inputs.

func init() {
	addSchemas(
		Schema{Name: "window", Doc: "torch.<kind>_window(window_length, periodic): the window as PyTorch 1.13's CPU computes it step by step at the dtype " +
			"(arange, then the in-place arithmetic of TensorFactories.cpp; periodic computes window_length+1 points and drops the last); " +
			"kind is hann, hamming (alpha, beta), blackman, bartlett or kaiser (beta); empty for length 0, [1] for length 1",
			Inputs: []InputSpec{{Name: "window_length", ScalarOK: true}},
			Attrs: []AttrSpec{
				req("kind", AttrString, "hann, hamming, blackman, bartlett or kaiser"),
				attr("periodic", AttrBool, BoolAttr(true), ""),
				attr("alpha", AttrFloat, FloatAttr(0.54), "hamming only"),
				attr("beta", AttrFloat, FloatAttr(0.46), "hamming's beta, or kaiser's (12.0)"),
				req("dtype", AttrString, "output dtype, already inferred (the default float dtype when the call has none)"),
			}, Outputs: 1},
	)
}
