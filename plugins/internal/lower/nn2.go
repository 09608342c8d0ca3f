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
	def(nn2ConvTBC, "input, weight, bias, pad=0", "Torch.conv_tbc")
	usedOps = append(usedOps, "conv_transpose", "conv_tbc")

	const mp3Sig = "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False"
	def(nn2MaxPool3d(false), "input, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False", "Torch.max_pool3d")
	def(nn2MaxPool3d(false), mp3Sig+", return_indices=False", "Functional.max_pool3d")
	defMulti(nn2MaxPool3d(true), mp3Sig+", return_indices=False", "Functional.max_pool3d_with_indices")
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

// nn2MaxPool3d lowers torch.max_pool3d (stride [] is kernel_size),
// F.max_pool3d (stride None is kernel_size; indices when return_indices)
// and F.max_pool3d_with_indices; the kernel makes PyTorch's checks.
func nn2MaxPool3d(withIndices bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		kernel, err := b.intList("kernel_size", 3, true)
		if err != nil {
			return nil, err
		}
		stride := kernel
		if s := b.arg("stride"); s.Kind != framework.ArgNone {
			if v, ok := asInts(s); !ok || len(v) > 0 {
				if stride, err = b.intList("stride", 3, true); err != nil {
					return nil, err
				}
			}
		}
		padding, err := b.intList("padding", 3, true)
		if err != nil {
			return nil, err
		}
		dilation, err := b.intList("dilation", 3, true)
		if err != nil {
			return nil, err
		}
		return b.maxPoolPlan("max_pool3d", x, kernel, stride, padding, dilation, withIndices)
	}
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
