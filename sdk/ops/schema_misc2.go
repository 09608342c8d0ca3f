package ops

// The misc2 family: frexp, the regularized incomplete gamma functions,
// renorm, the scatter-into-a-view ops (diagonal_scatter, slice_scatter,
// fill_diagonal_), sum_to_size, _foreach_norm, histograms and resize_.

func init() {
	misc2Self := InputSpec{Name: "self"} // an input that takes no gradient
	addSchemas(
		Schema{Name: "frexp", Doc: "torch.frexp(self): (mantissa, exponent) with self = mantissa * 2**exponent, |mantissa| in [0.5, 1) (0, inf and NaN kept, exponent 0); " +
			"mantissa at self's floating dtype, exponent int32; the gradient of the mantissa is grad / 2**exponent",
			Inputs: []InputSpec{in("self")}, Outputs: 2},
		Schema{Name: "igamma", Doc: "torch.igamma(self, other): the regularized lower incomplete gamma function P(self, other) (cephes' igam as PyTorch's calc_igamma), " +
			"tensors broadcast and promoted, floating dtypes only; the gradient goes to other only (PyTorch has none for self)",
			Inputs: []InputSpec{misc2Self, in("other")}, Attrs: []AttrSpec{inplace}, Outputs: 1},
		Schema{Name: "igammac", Doc: "torch.igammac(self, other): the regularized upper incomplete gamma function Q(self, other) = 1 - P(self, other), as igamma",
			Inputs: []InputSpec{misc2Self, in("other")}, Attrs: []AttrSpec{inplace}, Outputs: 1},
		Schema{Name: "renorm", Doc: "torch.renorm(self, p, dim, maxnorm): each slice along dim whose p-norm exceeds maxnorm scaled by maxnorm / (norm + 1e-7); self has at least 2 dims, p > 0, maxnorm >= 0",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("p", AttrFloat, "norm order, > 0"), req("dim", AttrInt, ""), req("maxnorm", AttrFloat, ">= 0"), inplace}, Outputs: 1},
		Schema{Name: "diagonal_scatter", Doc: "torch.diagonal_scatter(self, src, offset, dim1, dim2): self with the diagonal view (as diagonal) replaced by src (cast to self's dtype); src has the view's shape",
			Inputs: []InputSpec{in("self"), in("src")}, Attrs: []AttrSpec{attr("offset", AttrInt, IntAttr(0), ""), attr("dim1", AttrInt, IntAttr(0), ""), attr("dim2", AttrInt, IntAttr(1), "")}, Outputs: 1},
		Schema{Name: "slice_scatter", Doc: "torch.slice_scatter(self, src, dim, start, end, step): self with the slice view self[start:end:step] along dim replaced by src (cast to self's dtype); src has the slice's shape",
			Inputs: []InputSpec{in("self"), in("src")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(0), ""), attr("start", AttrInt, NoneAttr(), "None: 0"),
				attr("end", AttrInt, NoneAttr(), "None: the dim's size"), attr("step", AttrInt, IntAttr(1), "> 0")}, Outputs: 1},
		Schema{Name: "fill_diagonal", Doc: "Tensor.fill_diagonal_(fill_value, wrap): self (at least 2-d, all dims equal unless 2-d) with its main diagonal set to fill_value cast to self's dtype; " +
			"wrap: a tall matrix restarts the diagonal every ncols+1 rows; the gradient of self is zero on the diagonal",
			Inputs: []InputSpec{in("self"), {Name: "fill_value", ScalarOK: true}}, Attrs: []AttrSpec{attr("wrap", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "sum_to_size", Doc: "Tensor.sum_to_size(size): self summed to size, which must be expandable to self's shape (leading dims summed away, dims of size 1 summed with keepdim); " +
			"integers and bool sum to int64 as sum does",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("size", AttrInts, "target shape")}, Outputs: 1},
		Schema{Name: "foreach_norm", Doc: "torch._foreach_norm(tensors, ord): linalg.vector_norm(t, ord) of each tensor, one 0-d output per input (no backward in PyTorch 1.13)",
			Inputs: []InputSpec{{Name: "tensors", Variadic: true}}, Attrs: []AttrSpec{attr("ord", AttrFloat, FloatAttr(2), "")}, Outputs: -1},
		Schema{Name: "histogram", Doc: "torch.histogramdd(self, bins, range, weight, density) with bin counts: self's last dim has one entry per bins element (flat: torch.histogram, every element of self in one dim); " +
			"edges linspace(min, max, bins+1) at self's dtype from range or self's min and max (equal ones widened by 0.5); outputs hist, then the edges of each dim; float32 and float64 only",
			Inputs: []InputSpec{misc2Self, {Name: "weight", Optional: true}}, Attrs: []AttrSpec{req("bins", AttrInts, "bin count per dim"), attr("range", AttrFloats, NoneAttr(), "min, max per dim"),
				attr("density", AttrBool, BoolAttr(false), ""), attr("flat", AttrBool, BoolAttr(false), "torch.histogram: self flattened is one dim")}, Outputs: -1},
		Schema{Name: "histogram_edges", Doc: "torch.histogramdd(self, bins, weight, density) with bin edge tensors (one per dim, increasing, self's dtype): as histogram; outputs hist, then the edges",
			Inputs: []InputSpec{misc2Self, {Name: "weight", Optional: true}, {Name: "bins", Variadic: true}}, Attrs: []AttrSpec{attr("density", AttrBool, BoolAttr(false), ""),
				attr("flat", AttrBool, BoolAttr(false), "torch.histogram: self flattened is one dim")}, Outputs: -1},
		Schema{Name: "resize", Doc: "Tensor.resize_(size): the first prod(size) elements of self (row-major) in shape size; a size with more elements than self is refused " +
			"(PyTorch leaves the new elements uninitialised)",
			Inputs: []InputSpec{misc2Self}, Attrs: []AttrSpec{req("size", AttrInts, "new shape")}, Outputs: 1},
		Schema{Name: "choose_qparams_optimized", Doc: "torch.choose_qparams_optimized(input, numel, n_bins, ratio, bit_width): (xmax, xmin), each a float32 tensor [1], " +
			"from PyTorch's greedy search that narrows [min, max] of the first numel elements by (max-min)/n_bins steps while the quantization L2 loss falls; " +
			"computed in float32 as PyTorch does (float64 bench inputs are rounded to float32: the op exists for float32 only)",
			Inputs: []InputSpec{misc2Self}, Attrs: []AttrSpec{req("numel", AttrInt, "elements searched, 1..numel(input)"), req("n_bins", AttrInt, ""),
				req("ratio", AttrFloat, ""), req("bit_width", AttrInt, "")}, Outputs: 2},
		Schema{Name: "stft", Doc: "torch.stft(self, n_fft, ..., return_complex=False): the real form [..., bins, frames, 2] of the short-time Fourier transform of a 1-D or 2-D (batch) signal: " +
			"center pads n_fft/2 each side by pad_mode, frames of n_fft every hop_length (None: n_fft/4) times the window (win_length points centred, ones when None), " +
			"their DFT (onesided, the default: n_fft/2+1 bins; normalized: times 1/sqrt(n_fft)); float32 and float64 only",
			Inputs: []InputSpec{in("self"), {Name: "window", Optional: true}}, Attrs: []AttrSpec{req("n_fft", AttrInt, ""), attr("hop_length", AttrInt, NoneAttr(), "None: n_fft/4"),
				attr("win_length", AttrInt, NoneAttr(), "None: n_fft"), attr("center", AttrBool, BoolAttr(true), ""), attr("pad_mode", AttrString, StringAttr("reflect"), "reflect, constant, replicate or circular"),
				attr("normalized", AttrBool, BoolAttr(false), ""), attr("onesided", AttrBool, NoneAttr(), "None: True")}, Outputs: 1},
		Schema{Name: "istft", Doc: "torch.istft(self, n_fft, ..., return_complex=False) of the real form [..., bins, frames, 2]: each frame's inverse real DFT (norm 1/n_fft, normalized 1/sqrt(n_fft)) " +
			"times the window, overlap-added and divided by the overlap-added squared window; center trims n_fft/2 each side, length sets the output length (zeros past the frames)",
			Inputs: []InputSpec{in("self"), {Name: "window", Optional: true}}, Attrs: []AttrSpec{req("n_fft", AttrInt, ""), attr("hop_length", AttrInt, NoneAttr(), "None: n_fft/4"),
				attr("win_length", AttrInt, NoneAttr(), "None: n_fft"), attr("center", AttrBool, BoolAttr(true), ""), attr("normalized", AttrBool, BoolAttr(false), ""),
				attr("onesided", AttrBool, NoneAttr(), "None: bins != n_fft"), attr("length", AttrInt, NoneAttr(), "")}, Outputs: 1},
	)
}
