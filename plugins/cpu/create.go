package cpu

// The create family: casts and tensor creation.

import (
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("cast", castKernel())
	supportDTypes("cast", append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)...)
}

// ---- cast ----

// castKernel converts self to the dtype attribute. The device wrapper
// rounds the values to the result dtype (floats to nearest, integers
// truncated and wrapped, bool as != 0); the kernel adds what a C++
// static_cast does on the way: float16 and bfloat16 are built from a
// float, so a float64 or integer value is rounded to float32 first.
func castKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt, _, err := dtypeAttr(c, "dtype")
			if err != nil {
				return nil, err
			}
			out := &array{shape: append([]int{}, x.shape...), data: float64sFor(len(x.data)), dtype: dt}
			copy(out.data, x.data)
			if (dt == tensor.Float16 || dt == tensor.BFloat16) && x.dtype != tensor.Float32 && x.dtype != dt {
				roundSlice(tensor.Float32, out.data)
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			if !c.requiresGrad[0] || !outs[0].dtype.IsFloat() {
				return []*array{nil}, nil
			}
			// autograd casts the output's gradient back to self's dtype
			// (runBackward rounds it)
			g := float64sFor(len(x.data))
			copy(g, gradData(gos[0], len(x.data)))
			return []*array{{shape: append([]int{}, x.shape...), data: g, dtype: x.dtype}}, nil
		},
	}
}
