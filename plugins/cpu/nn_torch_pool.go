package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
)

// 1-d pooling of msprobe's torch list (sdk/ops/schema_nn.go): as PyTorch
// 1.13 does, adaptive_avg_pool1d is adaptive_avg_pool2d of the input with
// a unit dimension inserted before the last, with that kernel's checks
// after its own.

// nnUnsqueezed returns a view of x with a dimension of size 1 inserted at
// -2.
func nnUnsqueezed(x *array) *array {
	r := x.rank()
	shape := append(append(append([]int{}, x.shape[:r-1]...), 1), x.shape[r-1])
	return &array{shape: shape, data: x.data, dtype: x.dtype}
}

// nnSqueezed returns a with dimension -2 (of size 1) removed.
func nnSqueezed(a *array) *array {
	if a == nil {
		return nil
	}
	r := a.rank()
	a.shape = append(append([]int{}, a.shape[:r-2]...), a.shape[r-1])
	return a
}

// adaptiveAvg1dCall checks an adaptive_avg_pool1d call and returns the
// adaptive_avg_pool2d call it is.
func adaptiveAvg1dCall(c *call) (*call, error) {
	x := c.in[0]
	if r := x.rank(); r < 2 || r > 3 {
		return nil, fmt.Errorf("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_avg_pool1d)", r)
	}
	os := c.attrs.Ints("output_size", nil)
	if len(os) != 1 {
		return nil, fmt.Errorf("adaptive_avg_pool1d() argument 'output_size' should contain one int (got %d)", len(os))
	}
	return &call{op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": ops.IntsAttr(1, os[0])},
		in: []*array{nnUnsqueezed(x)}, requiresGrad: c.requiresGrad, seed: c.seed}, nil
}

func adaptiveAvgPool1dKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			c2, err := adaptiveAvg1dCall(c)
			if err != nil {
				return nil, err
			}
			outs, err := adaptiveAvgForward(c2)
			if err != nil {
				return nil, err
			}
			return []*array{nnSqueezed(outs[0])}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			c2, err := adaptiveAvg1dCall(c)
			if err != nil {
				return nil, err
			}
			var g []*array
			for _, a := range gos {
				if a != nil {
					a = nnUnsqueezed(a)
				}
				g = append(g, a)
			}
			var o []*array
			for _, a := range outs {
				o = append(o, nnUnsqueezed(a))
			}
			grads, err := adaptiveAvgBackward(c2, o, g)
			if err != nil {
				return nil, err
			}
			if grads[0] != nil {
				grads[0].shape = append([]int{}, c.in[0].shape...)
			}
			return grads, nil
		},
	}
}

func init() {
	register("adaptive_avg_pool1d", adaptiveAvgPool1dKernel())
}
