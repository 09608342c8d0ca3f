package cpu

import (
	"fmt"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// setitem: self[key] = value for a basic key (ints, slices, None,
// Ellipsis), which the lowering resolves to a strided view of self
// (offset, sizes, strides in elements of the contiguous self). value (a
// number or a tensor) is cast to self's dtype and broadcast to the view.
// Backward: grad with the view zeroed for self; the view's gradient summed
// to value's shape for value.

func setitemView(c *call) (*view, []int, error) {
	x := c.in[0]
	sizes := c.attrs.Ints("sizes", nil)
	strides := c.attrs.Ints("strides", nil)
	off := int(c.attrs.Int("offset", 0))
	if len(sizes) != len(strides) {
		return nil, nil, fmt.Errorf("setitem: %d sizes but %d strides", len(sizes), len(strides))
	}
	shape := make([]int, len(sizes))
	st := make([]int, len(sizes))
	last := off
	for d := range sizes {
		shape[d], st[d] = int(sizes[d]), int(strides[d])
		if shape[d] < 0 || st[d] < 0 {
			return nil, nil, fmt.Errorf("setitem: negative size or stride")
		}
		if shape[d] > 0 {
			last += (shape[d] - 1) * st[d]
		}
	}
	if n := len(x.data); tensor.NumElements(shape) > 0 && (off < 0 || last >= n) {
		return nil, nil, fmt.Errorf("setitem: the view reaches element %d of a tensor of %d", last, n)
	}
	return stridedView(shape, st, off), shape, nil
}

func setitemKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, value := c.in[0], c.in[1]
			v, shape, err := setitemView(c)
			if err != nil {
				return nil, err
			}
			out := float64sFor(len(x.data))
			copy(out, x.data)
			n := tensor.NumElements(shape)
			if n == 0 {
				return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: x.dtype}}, nil
			}
			var vals []float64
			if value.scalar {
				s, err := scatterValue(value, x.dtype)
				if err != nil {
					return nil, err
				}
				vals = make([]float64, n)
				for i := range vals {
					vals[i] = s
				}
			} else {
				if bs, err := ops.BroadcastShapes(value.shape, shape); err != nil || !slices.Equal(bs, shape) {
					return nil, fmt.Errorf("shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
						ops.ShapeList(value.shape), ops.ShapeList(shape))
				}
				vals = expandTo(&array{shape: value.shape, data: castValues(value, x.dtype), dtype: x.dtype}, shape)
			}
			v.scatter(out, vals)
			return []*array{{shape: append([]int{}, x.shape...), data: out, dtype: x.dtype}}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, value := c.in[0], c.in[1]
			v, shape, err := setitemView(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(x.data))
			n := tensor.NumElements(shape)
			res := make([]*array, len(c.in))
			if c.requiresGrad[0] {
				gx := float64sFor(len(g))
				copy(gx, g)
				if n > 0 {
					v.scatter(gx, zeros(n))
				}
				res[0] = &array{shape: append([]int{}, x.shape...), data: gx, dtype: x.dtype}
			}
			if c.requiresGrad[1] && !value.scalar {
				gv := zeros(n)
				if n > 0 {
					gv = v.gather(g)
				}
				res[1] = gradForOwned(c, 1, sumToShape(gv, shape, value.shape), value.shape)
			}
			return res, nil
		},
	}
}

func init() {
	register("setitem", setitemKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	supportDTypes("setitem", all...)
}
