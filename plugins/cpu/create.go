package cpu

// The create family: casts and tensor creation.

import (
	"errors"
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	register("cast", castKernel())
	register("fill", fillKernel())
	register("full", &kernel{forward: fullForward})
	register("tril", triangleKernel(false))
	register("triu", triangleKernel(true))
	register("eye", &kernel{forward: eyeForward})
	for _, op := range []string{"cast", "fill", "full", "tril", "triu", "eye"} {
		supportDTypes(op, all...)
	}
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

// ---- fill / full ----

// fillValue is c10::Scalar::to<T> for the dtype d a fill writes: bool
// takes value != 0 unchecked; the other dtypes check that the value fits
// (infinities and NaN fit the float types, NaN no integer type; an int
// value wraps into uint8), then convert it as C++ does (float16 and
// bfloat16 are built from a float). The device wrapper rounds the result
// to d.
func fillValue(s *array, d tensor.DType) (float64, error) {
	v := s.data[0]
	switch {
	case d == tensor.Bool || s.scalarKind == ops.ScalarBool:
		if v != 0 {
			return 1, nil
		}
		return 0, nil
	case d == tensor.Float64:
		return v, nil
	case d.IsFloat():
		max, name := math.MaxFloat32, "float"
		switch d {
		case tensor.Float16:
			max, name = 65504, "at::Half"
		case tensor.BFloat16:
			max, name = 0x1.fep127, "at::BFloat16"
		}
		if !math.IsInf(v, 0) && (v < -max || v > max) {
			return 0, fmt.Errorf("value cannot be converted to type %s without overflow", name)
		}
		return float64(float32(v)), nil
	}
	return scalarTo(s, d)
}

// scalarOf is the Python number a value input holds: a wrapped number, or
// the item of a 0-d tensor (a float tensor's as a float, an integer's as
// an int, a bool's as a bool).
func scalarOf(v *array, op string) (*array, error) {
	if v.scalar {
		return v, nil
	}
	if len(v.shape) != 0 {
		return nil, fmt.Errorf("%s only supports 0-dimension value tensor but got tensor with %d dimensions.", op, len(v.shape))
	}
	k := ops.ScalarInt
	switch {
	case v.dtype.IsFloat():
		k = ops.ScalarFloat
	case v.dtype == tensor.Bool:
		k = ops.ScalarBool
	}
	return &array{data: v.data[:1], dtype: v.dtype, scalar: true, scalarKind: k}, nil
}

// filled is a new array of dtype d and shape filled with v.
func filled(d tensor.DType, shape []int, v float64) *array {
	out := &array{shape: append([]int{}, shape...), data: float64sFor(tensor.NumElements(shape)), dtype: d}
	forChunks(len(out.data), func(from, to int) error {
		part := out.data[from:to]
		for i := range part {
			part[i] = v
		}
		return nil
	})
	return out
}

func fillKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt, given, err := dtypeAttr(c, "dtype")
			if err != nil {
				return nil, err
			}
			if !given {
				dt = x.dtype
			}
			s, err := scalarOf(c.in[1], "fill_")
			if err != nil {
				return nil, err
			}
			v, err := fillValue(s, dt)
			if err != nil {
				return nil, err
			}
			return []*array{filled(dt, x.shape, v)}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			// self's values are overwritten: a zero gradient; a tensor
			// value's is the sum of the output's gradient
			grads := make([]*array, 2)
			if x := c.in[0]; c.requiresGrad[0] {
				grads[0] = newArray(x.dtype, x.shape)
			}
			if v := c.in[1]; c.requiresGrad[1] && !v.scalar {
				sum := 0.0
				if gos[0] != nil {
					for _, g := range gos[0].data {
						sum += g
					}
				}
				grads[1] = &array{shape: append([]int{}, v.shape...), data: []float64{sum}, dtype: v.dtype}
			}
			return grads, nil
		},
	}
}

// fullForward is torch.full and torch.scalar_tensor.
func fullForward(c *call) ([]*array, error) {
	s := c.in[0]
	if s == nil || !s.scalar {
		return nil, errors.New("full: fill_value must be a number")
	}
	dt, ok, err := dtypeAttr(c, "dtype")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("full: dtype is required")
	}
	size := c.attrs.Ints("size", nil)
	shape := make([]int, len(size))
	for i, n := range size {
		shape[i] = int(n)
	}
	for _, n := range size {
		if n < 0 {
			return nil, fmt.Errorf("Trying to create tensor with negative dimension %d: %s", n, ops.ShapeList(shape))
		}
	}
	v, err := fillValue(s, dt)
	if err != nil {
		return nil, err
	}
	return []*array{filled(dt, shape, v)}, nil
}

// ---- tril / triu ----

// triangle returns v (a stack of rows × cols matrices) with the elements
// outside the triangle set to 0: below diagonal (col - row < diagonal) for
// upper, above it for lower.
func triangle(v []float64, rows, cols int, diagonal int64, upper bool) []float64 {
	out := float64sFor(len(v))
	forChunks(len(v), func(from, to int) error {
		for k := from; k < to; k++ {
			d := int64(k%cols) - int64((k/cols)%rows)
			if upper && d >= diagonal || !upper && d <= diagonal {
				out[k] = v[k]
			} else {
				out[k] = 0
			}
		}
		return nil
	})
	return out
}

// triangleDims checks that x has at least two dimensions, with PyTorch's
// message, and returns its matrix size.
func triangleDims(x *array) (rows, cols int, err error) {
	if x.rank() == 0 {
		return 0, 0, errors.New("Dimension specified as -2 but tensor has no dimensions")
	}
	if x.rank() < 2 {
		_, err := normDim(-2, x.rank())
		return 0, 0, err
	}
	return x.shape[x.rank()-2], x.shape[x.rank()-1], nil
}

func triangleKernel(upper bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			rows, cols, err := triangleDims(x)
			if err != nil {
				return nil, err
			}
			out := triangle(x.data, rows, cols, c.attrs.Int("diagonal", 0), upper)
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x := c.in[0]
			if !c.requiresGrad[0] {
				return []*array{nil}, nil
			}
			rows, cols, err := triangleDims(x)
			if err != nil {
				return nil, err
			}
			g := triangle(gradData(gos[0], len(x.data)), rows, cols, c.attrs.Int("diagonal", 0), upper)
			return []*array{{shape: append([]int{}, x.shape...), data: g, dtype: x.dtype}}, nil
		},
	}
}

// ---- eye ----

// eyeForward is torch.eye(n, m).
func eyeForward(c *call) ([]*array, error) {
	dt, ok, err := dtypeAttr(c, "dtype")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("eye: dtype is required")
	}
	var nm [2]int64
	for i, a := range c.in {
		if a == nil || !a.scalar || a.scalarKind != ops.ScalarInt {
			return nil, fmt.Errorf("eye: input %d must be an int", i)
		}
		nm[i] = int64(a.data[0])
	}
	n, m := nm[0], nm[1]
	if n < 0 {
		return nil, fmt.Errorf("n must be greater or equal to 0, got %d", n)
	}
	if m < 0 {
		return nil, fmt.Errorf("m must be greater or equal to 0, got %d", m)
	}
	out := &array{shape: []int{int(n), int(m)}, data: zeros(int(n * m)), dtype: dt}
	for i := 0; i < int(min(n, m)); i++ {
		out.data[i*int(m)+i] = 1
	}
	return []*array{out}, nil
}
