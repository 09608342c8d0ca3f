package lower

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Neural-network functions: softmax, linear, addmm, normalisation,
// embedding, convolution, pooling, dropout, losses and torch_npu's
// npu_rms_norm.

func init() {
	def(softmax("softmax", true), "input, dim=None, _stacklevel=3, dtype=None", "Functional.softmax")
	def(softmax("log_softmax", true), "input, dim=None, _stacklevel=3, dtype=None", "Functional.log_softmax")
	def(softmax("softmax", false), "input, dim, dtype=None, *, out=None", "Torch.softmax", "Tensor.softmax")
	def(softmax("log_softmax", false), "input, dim, dtype=None, *, out=None", "Torch.log_softmax", "Tensor.log_softmax")

	def(linear, "input, weight, bias=None", "Functional.linear")
	def(addmm, "input, mat1, mat2, *, beta=1, alpha=1, out=None", "Torch.addmm", "Tensor.addmm", "Tensor.addmm_")
	def(layerNorm, "input, normalized_shape, weight=None, bias=None, eps=1e-05", "Functional.layer_norm")
	def(layerNorm, "input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True", "Torch.layer_norm")
	def(embedding(false), "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False",
		"Functional.embedding")
	def(embedding(true), "weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False", "Torch.embedding")

	for n := 1; n <= 3; n++ {
		name := fmt.Sprintf("conv%dd", n)
		def(conv(n), "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1", "Functional."+name, "Torch."+name)
	}
	def(convolution, "input, weight, bias, stride, padding, dilation, transposed, output_padding, groups", "Torch.convolution")

	def(maxPool2d(false), "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False",
		"Functional.max_pool2d")
	defMulti(maxPool2d(true), "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False",
		"Functional.max_pool2d_with_indices")
	def(maxPool2d(false), "input, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False", "Torch.max_pool2d")
	def(adaptiveAvgPool2d, "input, output_size", "Functional.adaptive_avg_pool2d")

	def(dropout("training"), "input, p=0.5, training=True, inplace=False", "Functional.dropout")
	def(dropout("train"), "input, p, train", "Torch.dropout", "Torch.dropout_")

	def(nllLike("cross_entropy"),
		"input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0",
		"Functional.cross_entropy")
	def(nllLike("nll_loss"), "input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'",
		"Functional.nll_loss")
	def(batchNorm, "input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05",
		"Functional.batch_norm")
	def(batchNorm, "input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled", "Torch.batch_norm")

	defMulti(rmsNorm, "self, gamma, epsilon=1e-06", "NPU.npu_rms_norm")
}

// softmaxDim is PyTorch's _get_softmax_dim: the implicit dim of
// F.softmax(dim=None).
func softmaxDim(ndim int) int64 {
	if ndim == 0 || ndim == 1 || ndim == 3 {
		return 0
	}
	return 1
}

func softmax(op string, implicitDim bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		var dim int64
		if implicitDim && b.isNone("dim") {
			dim = softmaxDim(len(x.Shape))
		} else {
			if dim, err = b.integer("dim"); err != nil {
				return nil, err
			}
			if _, err := b.wrapDim("dim", dim, len(x.Shape)); err != nil {
				return nil, err
			}
		}
		if implicitDim {
			if _, err := b.integer("_stacklevel"); err != nil {
				return nil, err
			}
		}
		dt, err := b.dtypeAttr("dtype")
		if err != nil {
			return nil, err
		}
		return newPlan(op, ops.Attrs{"dim": ops.IntAttr(dim), "dtype": dt}, tensorBinding(x)), nil
	}
}

func linear(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	bias, ok, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	return newPlan("linear", nil, tensorBinding(x), tensorBinding(w), optBinding(bias, ok)), nil
}

func addmm(b *bound) (*framework.Plan, error) {
	var in [3]framework.Arg
	for i, n := range []string{"input", "mat1", "mat2"} {
		a, err := b.tensor(n)
		if err != nil {
			return nil, err
		}
		in[i] = a
	}
	beta, err := b.float("beta")
	if err != nil {
		return nil, err
	}
	alpha, err := b.float("alpha")
	if err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"beta": ops.FloatAttr(beta), "alpha": ops.FloatAttr(alpha)})
	return newPlan("addmm", attrs, tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2])), nil
}

func layerNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	shape, err := b.intList("normalized_shape", 0, false)
	if err != nil {
		return nil, err
	}
	if !trailingMatch(x.Shape, shape) {
		return nil, b.argErr("normalized_shape", "Given normalized_shape=%v, expected input with shape [*, %s], but got input of size%v",
			shape, joinInts(shape), x.Shape)
	}
	w, wok, err := b.optTensor("weight")
	if err != nil {
		return nil, err
	}
	bias, bok, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	if b.ns == Torch {
		if _, err := b.boolean("cudnn_enable"); err != nil {
			return nil, err
		}
	}
	attrs := ops.Attrs{"normalized_shape": ops.IntsAttr(shape...), "eps": ops.FloatAttr(eps)}
	return newPlan("layer_norm", attrs, tensorBinding(x), optBinding(w, wok), optBinding(bias, bok)), nil
}

// trailingMatch reports whether shape ends with tail (and tail is not empty).
func trailingMatch(shape []int, tail []int64) bool {
	if len(tail) == 0 || len(tail) > len(shape) {
		return false
	}
	off := len(shape) - len(tail)
	for i, v := range tail {
		if int64(shape[off+i]) != v {
			return false
		}
	}
	return true
}

func joinInts(v []int64) string {
	s := ""
	for i, x := range v {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x)
	}
	return s
}

// embedding lowers F.embedding(input, weight, ...) and the ATen-ordered
// torch.embedding(weight, indices, ...) to the op's (weight, indices).
func embedding(aten bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		idxName := "input"
		if aten {
			idxName = "indices"
		}
		w, err := b.tensor("weight")
		if err != nil {
			return nil, err
		}
		idx, err := b.tensor(idxName)
		if err != nil {
			return nil, err
		}
		if idx.DType != tensor.Int64 && idx.DType != tensor.Int32 {
			return nil, b.argErr(idxName, "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead", idx.DType)
		}
		if len(w.Shape) != 2 {
			return nil, b.argErr("weight", "'weight' must be 2-D, got a %d-D tensor", len(w.Shape))
		}
		num := int64(w.Shape[0])
		pad := int64(-1)
		if aten {
			p, err := b.integer("padding_idx")
			if err != nil {
				return nil, err
			}
			if p >= 0 {
				pad = p
			}
		} else {
			p, set, err := b.optInteger("padding_idx")
			if err != nil {
				return nil, err
			}
			if set {
				switch {
				case p >= num:
					return nil, b.argErr("padding_idx", "Padding_idx must be within num_embeddings")
				case p < -num:
					return nil, b.argErr("padding_idx", "Padding_idx must be within num_embeddings")
				case p < 0:
					pad = num + p
				default:
					pad = p
				}
			}
			if !b.isNone("max_norm") {
				return nil, b.argErr("max_norm", "max_norm renormalises the weight rows in place before the lookup, which the embedding op does not do")
			}
			if _, err := b.float("norm_type"); err != nil {
				return nil, err
			}
		}
		freq, err := b.boolean("scale_grad_by_freq")
		if err != nil {
			return nil, err
		}
		if _, err := b.boolean("sparse"); err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"padding_idx": ops.IntAttr(pad), "scale_grad_by_freq": ops.BoolAttr(freq)}
		return newPlan("embedding", attrs, tensorBinding(w), tensorBinding(idx)), nil
	}
}

// convInputs validates the tensors of an n-d convolution.
func (b *bound) convInputs(n int) (x, w, bias framework.Arg, hasBias bool, err error) {
	if x, err = b.tensor("input"); err != nil {
		return
	}
	if w, err = b.tensor("weight"); err != nil {
		return
	}
	if bias, hasBias, err = b.optTensor("bias"); err != nil {
		return
	}
	switch {
	case len(x.Shape) == n+1:
		err = b.argErr("input", "unbatched %d-D input is not supported: the convolution op takes a batched %d-D input", n+1, n+2)
	case len(x.Shape) != n+2:
		err = b.argErr("input", "Expected %dD (unbatched) or %dD (batched) input to conv%dd, but got input of size: %v", n+1, n+2, n, x.Shape)
	case len(w.Shape) != n+2:
		err = b.argErr("weight", "expected a %d-D weight for conv%dd, got size %v", n+2, n, w.Shape)
	}
	return
}

func (b *bound) positive(name string, v []int64, minimum int64) error {
	for _, x := range v {
		if x < minimum {
			if minimum == 0 {
				return b.argErr(name, "must be non-negative, got %v", v)
			}
			return b.argErr(name, "must be greater than zero, got %v", v)
		}
	}
	return nil
}

// conv lowers F.convNd / torch.convNd, with padding ints or 'same'/'valid'.
func conv(n int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, w, bias, hasBias, err := b.convInputs(n)
		if err != nil {
			return nil, err
		}
		stride, err := b.intList("stride", n, true)
		if err != nil {
			return nil, err
		}
		dilation, err := b.intList("dilation", n, true)
		if err != nil {
			return nil, err
		}
		if err := b.positive("stride", stride, 1); err != nil {
			return nil, err
		}
		if err := b.positive("dilation", dilation, 1); err != nil {
			return nil, err
		}
		var padding []int64
		if b.arg("padding").Kind == framework.ArgString {
			mode := b.arg("padding").Str
			switch mode {
			case "valid":
				padding = make([]int64, n)
			case "same":
				for _, s := range stride {
					if s != 1 {
						return nil, b.argErr("padding", "padding='same' is not supported for strided convolutions")
					}
				}
				padding = make([]int64, n)
				for i := range padding {
					total := dilation[i] * int64(w.Shape[2+i]-1)
					if total%2 != 0 {
						return nil, b.argErr("padding", "padding='same' with kernel size %d and dilation %d pads dimension %d asymmetrically (%d before, %d after), which the convolution op's symmetric padding cannot express",
							w.Shape[2+i], dilation[i], i, total/2, total-total/2)
					}
					padding[i] = total / 2
				}
			default:
				return nil, b.argErr("padding", "Invalid padding string: '%s'", mode)
			}
		} else {
			if padding, err = b.intList("padding", n, true); err != nil {
				return nil, err
			}
			if err := b.positive("padding", padding, 0); err != nil {
				return nil, err
			}
		}
		groups, err := b.integer("groups")
		if err != nil {
			return nil, err
		}
		if groups < 1 {
			return nil, b.argErr("groups", "non-positive groups is not supported")
		}
		attrs := ops.Attrs{"stride": ops.IntsAttr(stride...), "padding": ops.IntsAttr(padding...),
			"dilation": ops.IntsAttr(dilation...), "groups": ops.IntAttr(groups)}
		return newPlan("convolution", attrs, tensorBinding(x), tensorBinding(w), optBinding(bias, hasBias)), nil
	}
}

// convolution lowers the ATen-level torch.convolution: the convolution op,
// or conv_transpose when transposed.
func convolution(b *bound) (*framework.Plan, error) {
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	n := len(w.Shape) - 2
	if n < 1 {
		return nil, b.argErr("weight", "expected a weight of at least 3 dimensions, got size %v", w.Shape)
	}
	x, w, bias, hasBias, err := b.convInputs(n)
	if err != nil {
		return nil, err
	}
	transposed, err := b.boolean("transposed")
	if err != nil {
		return nil, err
	}
	if transposed {
		return nn2ConvTransposed(b)
	}
	lists := map[string][]int64{}
	for _, name := range []string{"stride", "padding", "dilation"} {
		v, err := b.intList(name, n, false)
		if err != nil {
			return nil, err
		}
		lists[name] = v
	}
	if _, err := b.intList("output_padding", 0, false); err != nil {
		return nil, err
	}
	if err := b.positive("stride", lists["stride"], 1); err != nil {
		return nil, err
	}
	if err := b.positive("dilation", lists["dilation"], 1); err != nil {
		return nil, err
	}
	if err := b.positive("padding", lists["padding"], 0); err != nil {
		return nil, err
	}
	groups, err := b.integer("groups")
	if err != nil {
		return nil, err
	}
	if groups < 1 {
		return nil, b.argErr("groups", "non-positive groups is not supported")
	}
	attrs := ops.Attrs{"stride": ops.IntsAttr(lists["stride"]...), "padding": ops.IntsAttr(lists["padding"]...),
		"dilation": ops.IntsAttr(lists["dilation"]...), "groups": ops.IntAttr(groups)}
	return newPlan("convolution", attrs, tensorBinding(x), tensorBinding(w), optBinding(bias, hasBias)), nil
}

// maxPool2d lowers F.max_pool2d (stride None → kernel_size), its
// _with_indices form and the ATen torch.max_pool2d (stride [] → kernel_size).
func maxPool2d(withIndices bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if len(x.Shape) != 3 && len(x.Shape) != 4 {
			return nil, b.argErr("input", "non-empty 3D or 4D (batch mode) tensor expected for input, got size %v", x.Shape)
		}
		kernel, err := b.intList("kernel_size", 2, true)
		if err != nil {
			return nil, err
		}
		if err := b.positive("kernel_size", kernel, 1); err != nil {
			return nil, err
		}
		stride := kernel
		if s := b.arg("stride"); s.Kind != framework.ArgNone {
			if v, ok := asInts(s); !ok || len(v) > 0 {
				if stride, err = b.intList("stride", 2, true); err != nil {
					return nil, err
				}
			}
		}
		if err := b.positive("stride", stride, 1); err != nil {
			return nil, err
		}
		padding, err := b.intList("padding", 2, true)
		if err != nil {
			return nil, err
		}
		if err := b.positive("padding", padding, 0); err != nil {
			return nil, err
		}
		for i := range padding {
			if padding[i] > kernel[i]/2 {
				return nil, b.argErr("padding", "pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", padding[i], kernel[i])
			}
		}
		dilation, err := b.intList("dilation", 2, true)
		if err != nil {
			return nil, err
		}
		if err := b.positive("dilation", dilation, 1); err != nil {
			return nil, err
		}
		return b.maxPoolPlan("max_pool2d", x, kernel, stride, padding, dilation, withIndices)
	}
}

func adaptiveAvgPool2d(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	r := len(x.Shape)
	if r != 3 && r != 4 {
		return nil, b.argErr("input", "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %v", x.Shape)
	}
	a := b.arg("output_size")
	var size []int64
	switch a.Kind {
	case framework.ArgInt:
		size = []int64{a.Int, a.Int}
	case framework.ArgList, framework.ArgSize:
		elems := a.Elems
		if a.Kind == framework.ArgSize {
			elems = nil
			for _, v := range a.Ints {
				elems = append(elems, framework.Arg{Kind: framework.ArgInt, Int: v})
			}
		}
		if len(elems) != 2 {
			return nil, b.argErr("output_size", "adaptive_avg_pool2d: output_size must be 2, got %d values", len(elems))
		}
		for i, e := range elems {
			switch e.Kind {
			case framework.ArgInt:
				size = append(size, e.Int)
			case framework.ArgNone:
				size = append(size, int64(x.Shape[r-2+i]))
			default:
				return nil, b.argErr("output_size", "expected int or None elements, got %s", kindName(e))
			}
		}
	default:
		return nil, b.argErr("output_size", "expected int or a pair of ints/None, got %s", kindName(a))
	}
	if err := b.positive("output_size", size, 0); err != nil {
		return nil, err
	}
	return newPlan("adaptive_avg_pool2d", ops.Attrs{"output_size": ops.IntsAttr(size...)}, tensorBinding(x)), nil
}

// dropout lowers F.dropout(input, p, training, inplace) and the ATen
// torch.dropout(input, p, train) / dropout_.
func dropout(trainName string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		p, err := b.float("p")
		if err != nil {
			return nil, err
		}
		if p < 0 || p > 1 || !finite(p) {
			return nil, b.argErr("p", "dropout probability has to be between 0 and 1, but got %v", p)
		}
		train, err := b.boolean(trainName)
		if err != nil {
			return nil, err
		}
		attrs := b.inplaceAttr(ops.Attrs{"p": ops.FloatAttr(p), "train": ops.BoolAttr(train)})
		if _, ok := b.vals["inplace"]; ok {
			in, err := b.boolean("inplace")
			if err != nil {
				return nil, err
			}
			attrs["inplace"] = ops.BoolAttr(in)
		}
		return newPlan("dropout", attrs, tensorBinding(x)), nil
	}
}

// reduction resolves reduction= with the legacy size_average/reduce
// arguments (torch.nn._reduction.legacy_get_string).
func (b *bound) reduction() (string, error) {
	sa, saSet, err := b.optBool("size_average")
	if err != nil {
		return "", err
	}
	rd, rdSet, err := b.optBool("reduce")
	if err != nil {
		return "", err
	}
	if saSet || rdSet {
		if !saSet {
			sa = true
		}
		if !rdSet {
			rd = true
		}
		switch {
		case sa && rd:
			return "mean", nil
		case rd:
			return "sum", nil
		}
		return "none", nil
	}
	r, err := b.str("reduction")
	if err != nil {
		return "", err
	}
	if r != "none" && r != "mean" && r != "sum" {
		return "", b.argErr("reduction", "%s is not a valid value for reduction", r)
	}
	return r, nil
}

// nllLike lowers F.cross_entropy and F.nll_loss with class-index targets.
func nllLike(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		t, err := b.tensor("target")
		if err != nil {
			return nil, err
		}
		switch {
		case t.DType == tensor.Int64:
		case op == "cross_entropy" && t.DType == tensor.Int32:
			// msprobe's run_ut turns int32 cross_entropy targets into int64.
		case op == "cross_entropy" && t.DType.IsFloat():
			return nil, b.argErr("target", "class-probability (floating-point) targets are not supported by the cross_entropy op")
		default:
			return nil, b.argErr("target", "expected scalar type Long but found %s", t.DType)
		}
		w, wok, err := b.optTensor("weight")
		if err != nil {
			return nil, err
		}
		ignore, err := b.integer("ignore_index")
		if err != nil {
			return nil, err
		}
		red, err := b.reduction()
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"reduction": ops.StringAttr(red), "ignore_index": ops.IntAttr(ignore)}
		if op == "cross_entropy" {
			ls, err := b.float("label_smoothing")
			if err != nil {
				return nil, err
			}
			if ls < 0 || ls > 1 || !finite(ls) {
				return nil, b.argErr("label_smoothing", "label_smoothing must be between 0.0 and 1.0. Got: %v", ls)
			}
			attrs["label_smoothing"] = ops.FloatAttr(ls)
		}
		return newPlan(op, attrs, tensorBinding(x), tensorBinding(t), optBinding(w, wok)), nil
	}
}

// normArgs are the arguments batch_norm and instance_norm share: input,
// the four optional tensors (running_mean, running_var, weight, bias:
// bindings and whether each is given), the mode flag named flag
// ("training", "use_input_stats"), momentum and eps; torch's form also
// takes cudnn_enabled.
type normArgs struct {
	x             framework.Arg
	opt           [4]framework.Binding
	have          [4]bool
	flag          bool
	momentum, eps float64
}

func (b *bound) normArgs(flag string) (*normArgs, error) {
	n := &normArgs{}
	var err error
	if n.x, err = b.tensor("input"); err != nil {
		return nil, err
	}
	for i, name := range []string{"running_mean", "running_var", "weight", "bias"} {
		a, ok, err := b.optTensor(name)
		if err != nil {
			return nil, err
		}
		n.opt[i], n.have[i] = optBinding(a, ok), ok
	}
	if n.flag, err = b.boolean(flag); err != nil {
		return nil, err
	}
	if n.momentum, err = b.float("momentum"); err != nil {
		return nil, err
	}
	if n.eps, err = b.float("eps"); err != nil {
		return nil, err
	}
	if b.ns == Torch {
		if _, err := b.boolean("cudnn_enabled"); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// batchNorm lowers F.batch_norm and the ATen-ordered torch.batch_norm.
func batchNorm(b *bound) (*framework.Plan, error) {
	n, err := b.normArgs("training")
	if err != nil {
		return nil, err
	}
	x, opt, have, training, momentum, eps := n.x, n.opt, n.have, n.flag, n.momentum, n.eps
	if len(x.Shape) < 2 {
		return nil, b.argErr("input", "expected an input of at least 2 dimensions (N, C, ...), got size %v", x.Shape)
	}
	if !training && (!have[0] || !have[1]) {
		name := "running_mean"
		if have[0] {
			name = "running_var"
		}
		return nil, b.argErr(name, "%s must be defined in evaluation mode", name)
	}
	if training && tensor.NumElements(x.Shape)/max(x.Shape[1], 1) == 1 {
		return nil, b.argErr("input", "Expected more than 1 value per channel when training, got input size %v", x.Shape)
	}
	attrs := ops.Attrs{"training": ops.BoolAttr(training), "momentum": ops.FloatAttr(momentum), "eps": ops.FloatAttr(eps)}
	return newPlan("batch_norm", attrs, tensorBinding(x), opt[0], opt[1], opt[2], opt[3]), nil
}

// rmsNorm lowers torch_npu.npu_rms_norm(self, gamma, epsilon=1e-06) →
// (y, rstd). The recorded epsilon is used; absent, torch_npu's 1e-6.
func rmsNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("self")
	if err != nil {
		return nil, err
	}
	g, err := b.tensor("gamma")
	if err != nil {
		return nil, err
	}
	tail := make([]int64, len(g.Shape))
	for i, v := range g.Shape {
		tail[i] = int64(v)
	}
	if !trailingMatch(x.Shape, tail) {
		return nil, b.argErr("gamma", "shape %v does not match the trailing dimensions of the input's %v", g.Shape, x.Shape)
	}
	eps, err := b.float("epsilon")
	if err != nil {
		return nil, err
	}
	return newPlan("npu.rms_norm", ops.Attrs{"epsilon": ops.FloatAttr(eps)}, tensorBinding(x), tensorBinding(g)), nil
}

// maxPoolPlan finishes a max_pool1d/max_pool2d lowering: ceil_mode,
// return_indices (always set for the *_with_indices spellings; a tuple
// output when set) and the plan.
func (b *bound) maxPoolPlan(op string, x framework.Arg, kernel, stride, padding, dilation []int64, withIndices bool) (*framework.Plan, error) {
	ceil, err := b.boolean("ceil_mode")
	if err != nil {
		return nil, err
	}
	indices := withIndices
	if _, ok := b.vals["return_indices"]; ok && !withIndices {
		if indices, err = b.boolean("return_indices"); err != nil {
			return nil, err
		}
	}
	b.multi = indices
	attrs := ops.Attrs{"kernel_size": ops.IntsAttr(kernel...), "stride": ops.IntsAttr(stride...),
		"padding": ops.IntsAttr(padding...), "dilation": ops.IntsAttr(dilation...),
		"ceil_mode": ops.BoolAttr(ceil), "return_indices": ops.BoolAttr(indices)}
	return newPlan(op, attrs, tensorBinding(x)), nil
}
