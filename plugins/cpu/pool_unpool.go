package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// F.max_unpool1d/2d/3d (op max_unpool) as PyTorch 1.13's CPU kernels:
// zeros of (N, C) + output_size with every input value written at its
// flat index within its plane, input order (a later write wins);
// max_unpool1d is max_unpool2d of the input with a trailing unit
// dimension. The backward gathers the gradient at the indices. float32
// and float64 only, as PyTorch.

func init() {
	register("max_unpool", &kernel{forward: maxUnpoolForward, backward: maxUnpoolBackward})
	supportDTypes("max_unpool", tensor.Float64, tensor.Float32)
}

type maxUnpoolPlan struct {
	planes, inPlane, outPlane int
	outShape                  []int
	idx                       []int
}

func newMaxUnpool(c *call) (*maxUnpoolPlan, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	ind, err := nnNeed(c, 1, "indices")
	if err != nil {
		return nil, err
	}
	os := c.attrs.Ints("output_size", nil)
	xs, is := x.shape, ind.shape
	unit := len(os) == 1
	if unit {
		// max_unpool1d: max_unpool2d of x.unsqueeze(-1)
		os = append(append([]int64{}, os...), 1)
		xs = append(append([]int{}, xs...), 1)
		is = append(append([]int{}, is...), 1)
	}
	nd := len(os)
	op := fmt.Sprintf("max_unpooling%dd", nd)
	if ind.dtype != tensor.Int64 {
		if nd == 3 {
			return nil, fmt.Errorf("elements in indices should be type int64")
		}
		return nil, fmt.Errorf("elements in indices should be type int64 but got: %s", ops.TypeName(ind.dtype))
	}
	r := len(xs)
	if nd == 2 {
		if r != 3 && r != 4 {
			return nil, fmt.Errorf("Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with %d dimensions.", r)
		}
	} else {
		if r != 4 && r != 5 {
			return nil, fmt.Errorf("Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with %d dimensions.", r)
		}
		st, pd := c.attrs.Ints("stride", nil), c.attrs.Ints("padding", nil)
		if len(st) != 3 {
			return nil, fmt.Errorf("There should be exactly three elements (depth, height, width) in stride, but got: %d elements.", len(st))
		}
		if len(pd) != 3 {
			return nil, fmt.Errorf("There should be exactly three elements (depth, height, width) in padding, but got: %d elements.", len(pd))
		}
	}
	if !equalInts(xs, is) {
		return nil, fmt.Errorf("Expected shape of indices to be same as that of the input tensor (%s) but got indices tensor with shape: %s", ops.ShapeList(xs), ops.ShapeList(is))
	}
	for i := 1; i < r; i++ {
		if xs[i] <= 0 {
			return nil, fmt.Errorf("%s_forward_out_cpu(): Expected input to have non-zero size for non-batch dimensions, but got %s with dimension %d being empty.",
				op, ops.ShapeList(xs), i)
		}
	}
	if nd == 3 {
		if os[0] <= 0 || os[1] <= 0 || os[2] <= 0 {
			return nil, fmt.Errorf("oT, oH, oW must be greater than 0, but got oT = %d oH = %d oW = %d", os[0], os[1], os[2])
		}
		if st := c.attrs.Ints("stride", nil); st[0] <= 0 || st[1] <= 0 || st[2] <= 0 {
			return nil, fmt.Errorf("strides should be greater than zero, but got stride: %s", ops.ShapeList([]int{int(st[0]), int(st[1]), int(st[2])}))
		}
	}
	if x.dtype != tensor.Float32 && x.dtype != tensor.Float64 {
		return nil, nnNotImpl(fmt.Sprintf("max_unpool%dd", nd), x.dtype)
	}
	p := &maxUnpoolPlan{inPlane: 1, outPlane: 1}
	for i := r - nd; i < r; i++ {
		p.inPlane *= xs[i]
	}
	for _, v := range os {
		p.outPlane *= int(v)
	}
	p.planes = x.len() / p.inPlane
	p.outShape = append([]int{}, x.shape[:x.rank()-nd+btoi(unit)]...)
	for i, v := range os {
		if !unit || i == 0 {
			p.outShape = append(p.outShape, int(v))
		}
	}
	p.idx = make([]int, len(ind.data))
	for i, v := range ind.data {
		k := int(v)
		if k < 0 || k >= p.outPlane {
			sizes := fmt.Sprint(os[0])
			for _, s := range os[1:] {
				sizes += fmt.Sprintf("x%d", s)
			}
			return nil, fmt.Errorf("Found an invalid max index: %d (output volumes are of size %s", k, sizes)
		}
		p.idx[i] = k
	}
	return p, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func maxUnpoolForward(c *call) ([]*array, error) {
	p, err := newMaxUnpool(c)
	if err != nil {
		return nil, err
	}
	x := c.in[0]
	out := &array{shape: p.outShape, data: zeros(p.planes * p.outPlane), dtype: x.dtype}
	parallelPlanes(p.planes, func(pl int) {
		dst := out.data[pl*p.outPlane : (pl+1)*p.outPlane]
		for i := pl * p.inPlane; i < (pl+1)*p.inPlane; i++ {
			dst[p.idx[i]] = x.data[i]
		}
	})
	return []*array{out}, nil
}

func maxUnpoolBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil, nil}, nil
	}
	p, err := newMaxUnpool(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], p.planes*p.outPlane)
	gx := float64sFor(len(c.in[0].data))
	for i := range gx {
		gx[i] = g[(i/p.inPlane)*p.outPlane+p.idx[i]]
	}
	return []*array{gradForOwned(c, 0, gx, c.in[0].shape), nil}, nil
}
