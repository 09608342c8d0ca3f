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
	usedOps = append(usedOps, "conv_transpose")
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
