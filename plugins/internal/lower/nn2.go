package lower

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The nn2 family: transposed and time-batch-channel convolutions
// (conv_transpose1d/2d/3d, conv_tbc, _convolution), 3-d max pooling, the
// native_* normalisations, grid sampling and affine grids, the feature and
// alpha dropouts, _softmax_backward_data, embedding_renorm_ and bilinear.

func init() {
	for n := 1; n <= 3; n++ {
		name := fmt.Sprintf("conv_transpose%dd", n)
		def(nn2ConvTranspose(n), "input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1",
			"Torch."+name, "Functional."+name)
		declareOps([]string{"conv_transpose"}, "Torch."+name, "Functional."+name)
	}
	def(nn2Convolution, "input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, benchmark, deterministic, cudnn_enabled, allow_tf32=True",
		"Torch._convolution")
	declareOps([]string{"convolution", "conv_transpose"}, "Torch._convolution")
	def(nn2ConvTBC, "input, weight, bias, pad=0", "Torch.conv_tbc", "Functional.conv_tbc")
	usedOps = append(usedOps, "conv_transpose", "conv_tbc")

	const mp3Sig = "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False"
	def(maxPoolN("max_pool3d", 3, false), "input, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False", "Torch.max_pool3d")
	def(maxPoolN("max_pool3d", 3, false), mp3Sig+", return_indices=False", "Functional.max_pool3d")
	defMulti(maxPoolN("max_pool3d", 3, true), mp3Sig+", return_indices=False", "Functional.max_pool3d_with_indices")
	usedOps = append(usedOps, "max_pool3d")

	defMulti(nn2NativeLayerNorm, "input, normalized_shape, weight, bias, eps", "Torch.native_layer_norm")
	defMulti(nn2NativeGroupNorm, "input, weight, bias, N, C, HxW, group, eps", "Torch.native_group_norm")
	defMulti(nn2NativeBatchNorm, "input, weight, bias, running_mean, running_var, training, momentum, eps, *, out=None, save_mean=None, save_invstd=None",
		"Torch.native_batch_norm")
	// _batch_norm_impl_index returns native_batch_norm's three tensors, an
	// empty reserve tensor and the index of the implementation (0, the
	// native one, on the CPU): the three tensors are compared.
	defMulti(nn2NativeBatchNorm, "input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled",
		"Torch._batch_norm_impl_index")
	defMulti(nn2UpdateStats, "input, running_mean, running_var, momentum", "Torch.batch_norm_update_stats")
	usedOps = append(usedOps, "native_layer_norm", "native_group_norm", "native_batch_norm", "batch_norm_update_stats")

	const gsSig = "input, grid, interpolation_mode, padding_mode, align_corners"
	def(nn2GridSampler(0), gsSig, "Torch.grid_sampler")
	def(nn2GridSampler(2), gsSig, "Torch.grid_sampler_2d")
	def(nn2GridSampler(3), gsSig, "Torch.grid_sampler_3d")
	def(nn2GridSample, "input, grid, mode='bilinear', padding_mode='zeros', align_corners=None", "Functional.grid_sample")
	def(nn2AffineGrid, "theta, size, align_corners", "Torch.affine_grid_generator")
	def(nn2AffineGrid, "theta, size, align_corners=None", "Functional.affine_grid")
	declareOps([]string{"grid_sampler"}, "Torch.grid_sampler_2d", "Torch.grid_sampler_3d")
	declareOps([]string{"affine_grid"}, "Functional.affine_grid")
	usedOps = append(usedOps, "grid_sampler", "affine_grid")

	def(nn2Dropout(true, false, 0), "input, p, train", "Torch.alpha_dropout", "Torch.alpha_dropout_")
	def(nn2Dropout(true, true, 0), "input, p, train", "Torch.feature_alpha_dropout", "Torch.feature_alpha_dropout_")
	def(nn2Dropout(false, true, 0), "input, p, train", "Torch.feature_dropout", "Torch.feature_dropout_")
	const fdSig = "input, p=0.5, training=False, inplace=False"
	def(nn2Dropout(true, false, 0), fdSig, "Functional.alpha_dropout")
	def(nn2Dropout(true, true, 0), fdSig, "Functional.feature_alpha_dropout")
	for n := 1; n <= 3; n++ {
		def(nn2Dropout(false, true, n), "input, p=0.5, training=True, inplace=False", fmt.Sprintf("Functional.dropout%dd", n))
	}
	usedOps = append(usedOps, "feature_dropout")

	def(nn2SoftmaxBackwardData, "grad_output, output, dim, input_dtype, *, out=None", "Torch._softmax_backward_data")
	def(nn2EmbeddingRenorm, "input, indices, max_norm, norm_type", "Torch.embedding_renorm_")
	def(nn2Bilinear, "input1, input2, weight, bias=None", "Torch.bilinear", "Functional.bilinear")
	usedOps = append(usedOps, "softmax_backward_data", "embedding_renorm", "bilinear")
}

// nn2ConvTranspose lowers torch.conv_transposeNd and F.conv_transposeNd
// (an unbatched input is the kernel's to handle, as PyTorch's).
func nn2ConvTranspose(n int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if len(x.Shape) != n+1 && len(x.Shape) != n+2 {
			return nil, b.argErr("input", "Expected %dD (unbatched) or %dD (batched) input to conv_transpose%dd, but got input of size: %v", n+1, n+2, n, x.Shape)
		}
		return b.nn2ConvTPlan(n, true)
	}
}

// nn2ConvTPlan reads the weight, bias and parameters of a transposed
// convolution with n spatial dims; scalarOK accepts a plain int for the
// int[n] parameters.
func (b *bound) nn2ConvTPlan(n int, scalarOK bool) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	if len(w.Shape) != n+2 {
		return nil, b.argErr("weight", "expected a %d-D weight for a %d-d transposed convolution, got size %v", n+2, n, w.Shape)
	}
	bias, hasBias, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{}
	for _, name := range []string{"stride", "padding", "output_padding", "dilation"} {
		v, err := b.intList(name, n, scalarOK)
		if err != nil {
			return nil, err
		}
		attrs[name] = ops.IntsAttr(v...)
	}
	groups, err := b.integer("groups")
	if err != nil {
		return nil, err
	}
	if groups < 1 {
		return nil, b.argErr("groups", "non-positive groups is not supported")
	}
	attrs["groups"] = ops.IntAttr(groups)
	return newPlan("conv_transpose", attrs, tensorBinding(x), tensorBinding(w), optBinding(bias, hasBias)), nil
}

// nn2Convolution lowers ATen's torch._convolution: the convolution op, or
// conv_transpose when transposed; benchmark, deterministic, cudnn_enabled
// and allow_tf32 choose CUDA algorithms only.
func nn2Convolution(b *bound) (*framework.Plan, error) {
	transposed, err := b.boolean("transposed")
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"benchmark", "deterministic", "cudnn_enabled", "allow_tf32"} {
		if _, err := b.boolean(name); err != nil {
			return nil, err
		}
	}
	if !transposed {
		return convolution(b)
	}
	return nn2ConvTransposed(b)
}

// nn2ConvTransposed lowers a transposed torch.convolution or
// torch._convolution onto conv_transpose.
func nn2ConvTransposed(b *bound) (*framework.Plan, error) {
	w, err := b.tensor("weight")
	if err != nil {
		return nil, err
	}
	n := len(w.Shape) - 2
	if n < 1 {
		return nil, b.argErr("weight", "expected a weight of at least 3 dimensions, got size %v", w.Shape)
	}
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != n+2 {
		return nil, b.argErr("input", "Expected %d-dimensional input for %d-dimensional weight %v, but got %d-dimensional input of size %v instead",
			n+2, n+2, w.Shape, len(x.Shape), x.Shape)
	}
	return b.nn2ConvTPlan(n, false)
}

func nn2ConvTBC(b *bound) (*framework.Plan, error) {
	var in [3]framework.Arg
	for i, name := range []string{"input", "weight", "bias"} {
		a, err := b.tensor(name)
		if err != nil {
			return nil, err
		}
		in[i] = a
	}
	pad, err := b.integer("pad")
	if err != nil {
		return nil, err
	}
	return newPlan("conv_tbc", ops.Attrs{"pad": ops.IntAttr(pad)}, tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2])), nil
}

func nn2NativeLayerNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	shape, err := b.intList("normalized_shape", 0, false)
	if err != nil {
		return nil, err
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
	attrs := ops.Attrs{"normalized_shape": ops.IntsAttr(shape...), "eps": ops.FloatAttr(eps)}
	return newPlan("native_layer_norm", attrs, tensorBinding(x), optBinding(w, wok), optBinding(bias, bok)), nil
}

func nn2NativeGroupNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	w, wok, err := b.optTensor("weight")
	if err != nil {
		return nil, err
	}
	bias, bok, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{}
	for _, name := range []string{"N", "C", "HxW", "group"} {
		v, err := b.integer(name)
		if err != nil {
			return nil, err
		}
		attrs[name] = ops.IntAttr(v)
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	attrs["eps"] = ops.FloatAttr(eps)
	return newPlan("native_group_norm", attrs, tensorBinding(x), optBinding(w, wok), optBinding(bias, bok)), nil
}

// nn2NativeBatchNorm lowers torch.native_batch_norm and
// torch._batch_norm_impl_index (whose cudnn_enabled chooses CUDA's kernel).
func nn2NativeBatchNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	var in [4]framework.Binding
	for i, name := range []string{"weight", "bias", "running_mean", "running_var"} {
		a, ok, err := b.optTensor(name)
		if err != nil {
			return nil, err
		}
		in[i] = optBinding(a, ok)
	}
	training, err := b.boolean("training")
	if err != nil {
		return nil, err
	}
	momentum, err := b.float("momentum")
	if err != nil {
		return nil, err
	}
	eps, err := b.float("eps")
	if err != nil {
		return nil, err
	}
	if _, ok := b.vals["cudnn_enabled"]; ok {
		if _, err := b.boolean("cudnn_enabled"); err != nil {
			return nil, err
		}
	}
	attrs := ops.Attrs{"training": ops.BoolAttr(training), "momentum": ops.FloatAttr(momentum), "eps": ops.FloatAttr(eps)}
	return newPlan("native_batch_norm", attrs, tensorBinding(x), in[0], in[1], in[2], in[3]), nil
}

func nn2UpdateStats(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	rm, rmok, err := b.optTensor("running_mean")
	if err != nil {
		return nil, err
	}
	rv, rvok, err := b.optTensor("running_var")
	if err != nil {
		return nil, err
	}
	momentum, err := b.float("momentum")
	if err != nil {
		return nil, err
	}
	return newPlan("batch_norm_update_stats", ops.Attrs{"momentum": ops.FloatAttr(momentum)}, tensorBinding(x), optBinding(rm, rmok), optBinding(rv, rvok)), nil
}

// nn2GridSampler lowers torch.grid_sampler (any rank) and its _2d (4-d
// input) and _3d (5-d input) forms.
func nn2GridSampler(n int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		grid, err := b.tensor("grid")
		if err != nil {
			return nil, err
		}
		if n > 0 && (len(x.Shape) != n+2 || len(grid.Shape) != n+2) {
			return nil, b.argErr("input", "grid_sampler(): expected %dD input and grid with same number of dimensions, but got input with sizes %v and grid with sizes %v",
				n+2, x.Shape, grid.Shape)
		}
		attrs := ops.Attrs{}
		for _, name := range []string{"interpolation_mode", "padding_mode"} {
			v, err := b.integer(name)
			if err != nil {
				return nil, err
			}
			attrs[name] = ops.IntAttr(v)
		}
		align, err := b.boolean("align_corners")
		if err != nil {
			return nil, err
		}
		attrs["align_corners"] = ops.BoolAttr(align)
		return newPlan("grid_sampler", attrs, tensorBinding(x), tensorBinding(grid)), nil
	}
}

// nn2GridSample lowers F.grid_sample: mode and padding_mode by name,
// align_corners None is False.
func nn2GridSample(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	grid, err := b.tensor("grid")
	if err != nil {
		return nil, err
	}
	mode, err := b.str("mode")
	if err != nil {
		return nil, err
	}
	modes := map[string]int64{"bilinear": 0, "nearest": 1, "bicubic": 2}
	m, ok := modes[mode]
	if !ok {
		return nil, b.argErr("mode", "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '%s'", mode)
	}
	pad, err := b.str("padding_mode")
	if err != nil {
		return nil, err
	}
	pads := map[string]int64{"zeros": 0, "border": 1, "reflection": 2}
	p, ok := pads[pad]
	if !ok {
		return nil, b.argErr("padding_mode", "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '%s'", pad)
	}
	align, _, err := b.optBool("align_corners")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"interpolation_mode": ops.IntAttr(m), "padding_mode": ops.IntAttr(p), "align_corners": ops.BoolAttr(align)}
	return newPlan("grid_sampler", attrs, tensorBinding(x), tensorBinding(grid)), nil
}

// nn2AffineGrid lowers torch.affine_grid_generator and F.affine_grid
// (align_corners None is False; the Python wrapper's checks).
func nn2AffineGrid(b *bound) (*framework.Plan, error) {
	th, err := b.tensor("theta")
	if err != nil {
		return nil, err
	}
	size, err := b.intList("size", 0, false)
	if err != nil {
		return nil, err
	}
	align, _, err := b.optBool("align_corners")
	if err != nil {
		return nil, err
	}
	if b.ns == Functional {
		if !th.DType.IsFloat() {
			return nil, b.argErr("theta", "Expected theta to have floating point type, but got %s", th.DType.TorchName())
		}
		switch len(size) {
		case 4, 5:
			k := len(size) - 2
			if len(th.Shape) != 3 || th.Shape[1] != k || th.Shape[2] != k+1 {
				return nil, b.argErr("theta", "Expected a batch of %dD affine matrices of shape Nx%dx%d for size %v. Got torch.Size(%s).", k, k, k+1, size, ops.ShapeList(th.Shape))
			}
		default:
			return nil, b.argErr("size", "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size %v.", size)
		}
		for _, v := range size {
			if v <= 0 {
				return nil, b.argErr("size", "Expected non-zero, positive output size. Got %v", size)
			}
		}
	}
	return newPlan("affine_grid", ops.Attrs{"size": ops.IntsAttr(size...), "align_corners": ops.BoolAttr(align)}, tensorBinding(th)), nil
}

// nn2Dropout lowers the alpha and feature dropouts: torch's (input, p,
// train) and their in-place forms, torch.nn.functional's (input, p,
// training, inplace) including dropout1d/2d/3d (spatial > 0), whose
// unbatched inputs (2-d for dropout1d, not 5-d for dropout3d) PyTorch
// unsqueezes.
func nn2Dropout(alpha, feature bool, spatial int) lowerFunc {
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
		trainName := "train"
		if b.ns == Functional {
			trainName = "training"
		}
		train, err := b.boolean(trainName)
		if err != nil {
			return nil, err
		}
		attrs, err := b.nnInplace(ops.Attrs{"p": ops.FloatAttr(p), "train": ops.BoolAttr(train),
			"alpha": ops.BoolAttr(alpha), "feature": ops.BoolAttr(feature)})
		if err != nil {
			return nil, err
		}
		r := len(x.Shape)
		switch spatial {
		case 1:
			if r != 2 && r != 3 {
				return nil, b.argErr("input", "dropout1d: Expected 2D or 3D input, but received a %dD input. Note that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).", r)
			}
			attrs["unbatched"] = ops.BoolAttr(r == 2)
		case 3:
			attrs["unbatched"] = ops.BoolAttr(r != 5)
		}
		return newPlan("feature_dropout", attrs, tensorBinding(x)), nil
	}
}

func nn2SoftmaxBackwardData(b *bound) (*framework.Plan, error) {
	g, err := b.tensor("grad_output")
	if err != nil {
		return nil, err
	}
	y, err := b.tensor("output")
	if err != nil {
		return nil, err
	}
	dim, err := b.dimOf("dim", g)
	if err != nil {
		return nil, err
	}
	if b.isNone("input_dtype") {
		return nil, b.argErr("input_dtype", "expected dtype, got None")
	}
	var dt ops.Attr
	if a := b.arg("input_dtype"); a.Kind == framework.ArgUnknown && a.TypeName == "" {
		// msprobe's dumper writes a positional torch.dtype as {}
		// (pytorch-precheck §12 #22); the forward input's dtype is then
		// taken to be grad_output's, its usual value: the result does not
		// depend on it (only float32 tensors with float16 are refused).
		dt = ops.StringAttr(g.DType.String())
	} else if dt, err = b.dtypeAttr("input_dtype"); err != nil {
		return nil, err
	}
	return newPlan("softmax_backward_data", ops.Attrs{"dim": ops.IntAttr(dim), "input_dtype": dt}, tensorBinding(g), tensorBinding(y)), nil
}

// nn2EmbeddingRenorm lowers torch.embedding_renorm_: the op's result is
// the renormalised weight (the API writes it into its input).
func nn2EmbeddingRenorm(b *bound) (*framework.Plan, error) {
	w, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	idx, err := b.tensor("indices")
	if err != nil {
		return nil, err
	}
	maxNorm, err := b.float("max_norm")
	if err != nil {
		return nil, err
	}
	p, err := b.float("norm_type")
	if err != nil {
		return nil, err
	}
	return newPlan("embedding_renorm", ops.Attrs{"max_norm": ops.FloatAttr(maxNorm), "norm_type": ops.FloatAttr(p)}, tensorBinding(w), tensorBinding(idx)), nil
}

func nn2Bilinear(b *bound) (*framework.Plan, error) {
	var in [3]framework.Arg
	for i, name := range []string{"input1", "input2", "weight"} {
		a, err := b.tensor(name)
		if err != nil {
			return nil, err
		}
		in[i] = a
	}
	bias, ok, err := b.optTensor("bias")
	if err != nil {
		return nil, err
	}
	return newPlan("bilinear", nil, tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2]), optBinding(bias, ok)), nil
}
