package lower

import (
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The misc2 family: _aminmax, frexp, igamma/igammac, renorm, the
// scatter-into-a-view ops (diagonal_scatter, slice_scatter,
// fill_diagonal_), sum_to_size, _foreach_norm, norm_except_dim,
// histogram/histogramdd and resize_/resize_as_.

func init() {
	defMulti(misc2Aminmax, "input, dim=None, keepdim=False", "Torch._aminmax")
	defMulti(misc2Frexp, "input, *, out=None", "Torch.frexp", "Tensor.frexp")
	def(misc2Igamma("igamma"), "input, other, *, out=None", "Torch.igamma", "Tensor.igamma", "Tensor.igamma_")
	def(misc2Igamma("igammac"), "input, other, *, out=None", "Torch.igammac", "Tensor.igammac", "Tensor.igammac_")
	def(misc2Renorm, "input, p, dim, maxnorm, *, out=None", "Torch.renorm", "Tensor.renorm", "Tensor.renorm_")
	def(misc2DiagonalScatter, "input, src, offset=0, dim1=0, dim2=1", "Torch.diagonal_scatter", "Tensor.diagonal_scatter")
	def(misc2SliceScatter, "input, src, dim=0, start=None, end=None, step=1", "Torch.slice_scatter", "Tensor.slice_scatter")
	def(misc2FillDiagonal, "input, fill_value, wrap=False", "Tensor.fill_diagonal_")
	def(misc2SumToSize, "input, size, *sizes", "Tensor.sum_to_size")
	defMulti(misc2ForeachNorm, "tensors, ord=2", "Torch._foreach_norm")
	def(misc2NormExceptDim, "v, pow=2, dim=0", "Torch.norm_except_dim")
	defMulti(misc2Histogram, "input, bins=100, *, range=None, weight=None, density=False, out=None", "Torch.histogram", "Tensor.histogram")
	defMulti(misc2Histogramdd, "input, bins=10, *, range=None, weight=None, density=False", "Torch.histogramdd")
	def(misc2Resize, "input, size, *sizes, memory_format=None", "Tensor.resize_")
	def(misc2ResizeAs, "input, the_template, *, memory_format=None", "Torch.resize_as_", "Tensor.resize_as_")
	defMulti(misc2ChooseQparams, "input, numel, n_bins, ratio, bit_width", "Torch.choose_qparams_optimized")
	usedOps = append(usedOps, "choose_qparams_optimized")
	def(misc2STFT, "input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect', normalized=False, onesided=None, return_complex=None",
		"Torch.stft", "Tensor.stft")
	def(misc2ISTFT, "input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None, length=None, return_complex=False",
		"Torch.istft", "Tensor.istft")
	usedOps = append(usedOps, "stft", "istft")
	usedOps = append(usedOps, "frexp", "igamma", "igammac", "renorm", "diagonal_scatter", "slice_scatter", "fill_diagonal",
		"sum_to_size", "foreach_norm", "histogram", "histogram_edges", "resize")
	cannot("works on sparse tensors, which a dump does not record (PyTorch 1.13 has no dense CPU kernel of it)", "Torch.native_norm")
}

// misc2Aminmax lowers the deprecated torch._aminmax(input) and
// _aminmax(input, dim, keepdim=False) onto aminmax.
func misc2Aminmax(b *bound) (*framework.Plan, error) {
	if b.given["dim"] && b.isNone("dim") {
		return nil, b.argErr("dim", "_aminmax(): argument 'dim' must be int, not NoneType")
	}
	if b.isNone("dim") && b.given["keepdim"] {
		return nil, b.argErr("keepdim", "_aminmax() takes keepdim only with dim")
	}
	return aminmax(b)
}

func misc2Frexp(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	return newPlan("frexp", nil, tensorBinding(x)), nil
}

// misc2Igamma lowers igamma/igammac(input, other): both tensors (torch
// takes no Python number here).
func misc2Igamma(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		y, err := b.tensor("other")
		if err != nil {
			return nil, err
		}
		return newPlan(op, b.inplaceAttr(ops.Attrs{}), tensorBinding(x), tensorBinding(y)), nil
	}
}

func misc2Renorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	p, err := b.float("p")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	maxnorm, err := b.float("maxnorm")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) < 2 {
		return nil, b.argErr("input", "renorm: input needs at least 2 dimensions, got %d dimensions", len(x.Shape))
	}
	if _, err := b.wrapDim("dim", dim, len(x.Shape)); err != nil {
		return nil, err
	}
	return newPlan("renorm", b.inplaceAttr(ops.Attrs{"p": ops.FloatAttr(p), "dim": ops.IntAttr(dim), "maxnorm": ops.FloatAttr(maxnorm)}), tensorBinding(x)), nil
}

func misc2DiagonalScatter(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	src, err := b.tensor("src")
	if err != nil {
		return nil, err
	}
	off, err := b.integer("offset")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"offset": ops.IntAttr(off)}
	for _, n := range []string{"dim1", "dim2"} {
		d, err := b.dimOf(n, x)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.IntAttr(d)
	}
	return newPlan("diagonal_scatter", attrs, tensorBinding(x), tensorBinding(src)), nil
}

func misc2SliceScatter(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	src, err := b.tensor("src")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("input", "slice() cannot be applied to a 0-dim tensor.")
	}
	dim, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"dim": ops.IntAttr(dim)}
	for _, n := range []string{"start", "end"} {
		v, set, err := b.optInteger(n)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.NoneAttr()
		if set {
			attrs[n] = ops.IntAttr(v)
		}
	}
	step, err := b.integer("step")
	if err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, b.argErr("step", "slice step must be positive")
	}
	attrs["step"] = ops.IntAttr(step)
	return newPlan("slice_scatter", attrs, tensorBinding(x), tensorBinding(src)), nil
}

func misc2FillDiagonal(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	v, _, err := b.operand("fill_value")
	if err != nil {
		return nil, err
	}
	if v.Kind != framework.BindScalar {
		return nil, b.argErr("fill_value", "expected a number, got tensor")
	}
	wrap, err := b.boolean("wrap")
	if err != nil {
		return nil, err
	}
	return newPlan("fill_diagonal", ops.Attrs{"wrap": ops.BoolAttr(wrap)}, tensorBinding(x), v), nil
}

func misc2SumToSize(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	size, err := b.sizeArgs("size")
	if err != nil {
		return nil, err
	}
	if !misc2Expandable(size, x.Shape) {
		return nil, b.argErr("size", "size {%s} is not expandable to size {%s}.", shapeList(size), shapeList(int64s(x.Shape)))
	}
	return newPlan("sum_to_size", ops.Attrs{"size": ops.IntsAttr(size...)}, tensorBinding(x)), nil
}

// misc2Expandable is PyTorch's is_expandable_to(size, shape).
func misc2Expandable(size []int64, shape []int) bool {
	if len(size) > len(shape) {
		return false
	}
	for i := 1; i <= len(size); i++ {
		s, t := size[len(size)-i], int64(shape[len(shape)-i])
		if s != t && s != 1 {
			return false
		}
	}
	return true
}

func misc2ForeachNorm(b *bound) (*framework.Plan, error) {
	list := b.arg("tensors")
	if list.Kind != framework.ArgList {
		return nil, b.argErr("tensors", "expected a list of tensors, got %s", kindName(list))
	}
	if len(list.Elems) == 0 {
		return nil, b.argErr("tensors", "_foreach_norm of no tensors has no kernel (an empty list)")
	}
	in := make([]framework.Binding, len(list.Elems))
	for i, e := range list.Elems {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr("tensors", "element %d: expected tensor, got %s", i, kindName(e))
		}
		if !e.DType.IsFloat() {
			return nil, b.argErr("tensors", "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(e.DType))
		}
		in[i] = tensorBinding(e)
	}
	ord, err := b.normOrder("ord")
	if err != nil {
		return nil, err
	}
	return newPlan("foreach_norm", ops.Attrs{"ord": ops.FloatAttr(ord)}, in...), nil
}

// misc2NormExceptDim lowers torch.norm_except_dim(v, pow, dim): the norm
// of v (0-d) for dim -1, else the norm over every other dim with keepdim.
func misc2NormExceptDim(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("v")
	if err != nil {
		return nil, err
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("norm(): input dtype should be either floating point or complex. Got %s instead.", ops.TypeName(x.DType))
	}
	p, err := b.normOrder("pow")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"p": ops.FloatAttr(p), "dim": ops.NoneAttr(), "keepdim": ops.BoolAttr(false), "dtype": ops.NoneAttr()}
	if dim != -1 {
		d, err := b.wrapDim("dim", dim, len(x.Shape))
		if err != nil {
			return nil, err
		}
		var dims []int64
		for i := range x.Shape {
			if i != d {
				dims = append(dims, int64(i))
			}
		}
		if len(dims) > 0 {
			attrs["dim"] = ops.IntsAttr(dims...)
			attrs["keepdim"] = ops.BoolAttr(true)
		}
	}
	return newPlan("norm", attrs, tensorBinding(x)), nil
}

// misc2HistArgs reads weight and density, shared by histogram and
// histogramdd.
func (b *bound) misc2HistArgs() (framework.Binding, bool, error) {
	w, ok, err := b.optTensor("weight")
	if err != nil {
		return framework.Binding{}, false, err
	}
	density, err := b.boolean("density")
	if err != nil {
		return framework.Binding{}, false, err
	}
	return optBinding(w, ok), density, nil
}

// misc2Range reads range=None or a list of 2*d numbers.
func (b *bound) misc2Range(d int) (ops.Attr, error) {
	if b.isNone("range") {
		return ops.NoneAttr(), nil
	}
	a := b.arg("range")
	if a.Kind != framework.ArgList || len(a.Elems) != 2*d {
		return ops.Attr{}, b.argErr("range", "expected %d numbers (min and max per dimension), got %s", 2*d, describeList(a))
	}
	vals := make([]float64, len(a.Elems))
	for i, e := range a.Elems {
		switch e.Kind {
		case framework.ArgFloat:
			vals[i] = e.Float
		case framework.ArgInt:
			vals[i] = float64(e.Int)
		default:
			return ops.Attr{}, b.argErr("range", "element %d: expected a number, got %s", i, kindName(e))
		}
	}
	return ops.FloatsAttr(vals...), nil
}

// misc2Histogram lowers torch.histogram(input, bins, *, range, weight,
// density): bins an int (op histogram) or a tensor of edges (op
// histogram_edges).
func misc2Histogram(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	w, density, err := b.misc2HistArgs()
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"density": ops.BoolAttr(density), "flat": ops.BoolAttr(true)}
	if a := b.arg("bins"); a.Kind == framework.ArgTensor {
		if !b.isNone("range") {
			return nil, b.argErr("range", "histogram() with a bins tensor takes no range")
		}
		bins, err := b.tensor("bins")
		if err != nil {
			return nil, err
		}
		return newPlan("histogram_edges", attrs, tensorBinding(x), w, tensorBinding(bins)), nil
	}
	n, err := b.integer("bins")
	if err != nil {
		return nil, err
	}
	rng, err := b.misc2Range(1)
	if err != nil {
		return nil, err
	}
	attrs["bins"], attrs["range"] = ops.IntsAttr(n), rng
	return newPlan("histogram", attrs, tensorBinding(x), w), nil
}

// misc2Histogramdd lowers torch.histogramdd(input, bins, *, range, weight,
// density): bins an int, a list of ints, or a list of edge tensors.
func misc2Histogramdd(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) < 2 {
		return nil, b.argErr("input", "torch.histogramdd: input tensor should have at least 2 dimensions")
	}
	d := x.Shape[len(x.Shape)-1]
	w, density, err := b.misc2HistArgs()
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"density": ops.BoolAttr(density), "flat": ops.BoolAttr(false)}
	a := b.arg("bins")
	if a.Kind == framework.ArgList && len(a.Elems) > 0 && a.Elems[0].Kind == framework.ArgTensor {
		if !b.isNone("range") {
			return nil, b.argErr("range", "histogramdd() with bins tensors takes no range")
		}
		in := []framework.Binding{tensorBinding(x), w}
		for i, e := range a.Elems {
			if e.Kind != framework.ArgTensor || e.Path == "" {
				return nil, b.argErr("bins", "element %d: expected tensor, got %s", i, kindName(e))
			}
			in = append(in, tensorBinding(e))
		}
		return newPlan("histogram_edges", attrs, in...), nil
	}
	var bins []int64
	if a.Kind == framework.ArgInt {
		bins = make([]int64, d)
		for i := range bins {
			bins[i] = a.Int
		}
	} else if bins, err = b.intList("bins", 0, false); err != nil {
		return nil, err
	}
	if len(bins) < d {
		return nil, b.argErr("bins", "torch.histogramdd: expected %d sequences of bin edges for a %d-dimensional histogram but got %d", d, d, len(bins))
	}
	bins = bins[:d] // PyTorch reads the first d counts
	rng, err := b.misc2Range(d)
	if err != nil {
		return nil, err
	}
	attrs["bins"], attrs["range"] = ops.IntsAttr(bins...), rng
	return newPlan("histogram", attrs, tensorBinding(x), w), nil
}

// misc2ResizeTo plans resize_ to size: the elements beyond x's are
// uninitialised memory in PyTorch, so a growing resize is not checked.
func (b *bound) misc2ResizeTo(name string, x framework.Arg, size []int64) (*framework.Plan, error) {
	n := int64(1)
	for _, s := range size {
		if s < 0 {
			return nil, b.argErr(name, "Trying to create tensor with negative dimension %d: %s", s, shapeList(size))
		}
		n *= s
	}
	if n > int64(tensor.NumElements(x.Shape)) {
		return nil, b.argErr(name, "resize_ to %s grows the tensor of %d elements: PyTorch leaves the new elements uninitialised, so they cannot be compared",
			shapeList(size), tensor.NumElements(x.Shape))
	}
	if !b.isNone("memory_format") {
		if a := b.arg("memory_format"); !strings.HasSuffix(a.Str, "contiguous_format") {
			return nil, b.argErr("memory_format", "only torch.contiguous_format (or None) is supported: another layout changes which elements the resized tensor keeps")
		}
	}
	return newPlan("resize", ops.Attrs{"size": ops.IntsAttr(size...)}, tensorBinding(x)), nil
}

func misc2Resize(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	size, err := b.sizeArgs("size")
	if err != nil {
		return nil, err
	}
	return b.misc2ResizeTo("size", x, size)
}

func misc2ResizeAs(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	t := b.arg("the_template")
	if t.Kind != framework.ArgTensor {
		return nil, b.argErr("the_template", "expected tensor, got %s", kindName(t))
	}
	return b.misc2ResizeTo("the_template", x, int64s(t.Shape))
}

// misc2ChooseQparams lowers torch.choose_qparams_optimized: numel must lie
// in 1..input.numel() (0 reads past the data in PyTorch, a negative numel
// crashes it).
func misc2ChooseQparams(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{}
	for _, n := range []string{"numel", "n_bins", "bit_width"} {
		v, err := b.integer(n)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.IntAttr(v)
	}
	ratio, err := b.float("ratio")
	if err != nil {
		return nil, err
	}
	attrs["ratio"] = ops.FloatAttr(ratio)
	n := attrs["numel"].Int
	if total := int64(tensor.NumElements(x.Shape)); n > total {
		return nil, b.argErr("numel", "numel %d greater than input_tensor.numel() %d", n, total)
	}
	if n <= 0 {
		return nil, b.argErr("numel", "numel %d leaves no element to search (PyTorch reads outside the tensor)", n)
	}
	if bw := attrs["bit_width"].Int; bw < 1 || bw > 30 {
		return nil, b.argErr("bit_width", "bit_width %d is out of 1..30", bw)
	}
	if nb := attrs["n_bins"].Int; nb <= 0 {
		return nil, b.argErr("n_bins", "n_bins must be positive, got %d", nb)
	}
	return newPlan("choose_qparams_optimized", attrs, tensorBinding(x)), nil
}

// misc2FFTCommon reads n_fft, hop_length, win_length, window, center,
// normalized and onesided, shared by stft and istft; return_complex=True
// gives a complex tensor, which is not compared.
func (b *bound) misc2FFTCommon() (ops.Attrs, framework.Binding, error) {
	attrs := ops.Attrs{}
	n, err := b.integer("n_fft")
	if err != nil {
		return nil, framework.Binding{}, err
	}
	attrs["n_fft"] = ops.IntAttr(n)
	for _, name := range []string{"hop_length", "win_length"} {
		v, set, err := b.optInteger(name)
		if err != nil {
			return nil, framework.Binding{}, err
		}
		attrs[name] = ops.NoneAttr()
		if set {
			attrs[name] = ops.IntAttr(v)
		}
	}
	for _, name := range []string{"center", "normalized"} {
		v, err := b.boolean(name)
		if err != nil {
			return nil, framework.Binding{}, err
		}
		attrs[name] = ops.BoolAttr(v)
	}
	one, set, err := b.optBool("onesided")
	if err != nil {
		return nil, framework.Binding{}, err
	}
	attrs["onesided"] = ops.NoneAttr()
	if set {
		attrs["onesided"] = ops.BoolAttr(one)
	}
	if rc, set, err := b.optBool("return_complex"); err != nil {
		return nil, framework.Binding{}, err
	} else if set && rc {
		return nil, framework.Binding{}, b.argErr("return_complex", "return_complex=True returns a complex tensor, which the precision standard does not compare")
	}
	w, ok, err := b.optTensor("window")
	if err != nil {
		return nil, framework.Binding{}, err
	}
	return attrs, optBinding(w, ok), nil
}

// misc2STFT lowers torch.stft / Tensor.stft of a real signal with
// return_complex False or None (PyTorch 1.13 then returns the real form
// [..., bins, frames, 2]).
func misc2STFT(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	attrs, w, err := b.misc2FFTCommon()
	if err != nil {
		return nil, err
	}
	mode, err := b.str("pad_mode")
	if err != nil {
		return nil, err
	}
	switch mode {
	case "reflect", "constant", "replicate", "circular":
	default:
		return nil, b.argErr("pad_mode", "unknown padding mode %q", mode)
	}
	attrs["pad_mode"] = ops.StringAttr(mode)
	return newPlan("stft", attrs, tensorBinding(x), w), nil
}

// misc2ISTFT lowers torch.istft of the real form [..., bins, frames, 2]
// with return_complex=False.
func misc2ISTFT(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	attrs, w, err := b.misc2FFTCommon()
	if err != nil {
		return nil, err
	}
	n, set, err := b.optInteger("length")
	if err != nil {
		return nil, err
	}
	attrs["length"] = ops.NoneAttr()
	if set {
		attrs["length"] = ops.IntAttr(n)
	}
	return newPlan("istft", attrs, tensorBinding(x), w), nil
}
