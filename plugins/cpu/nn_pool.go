package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// max_pool2d and adaptive_avg_pool2d on 3-d (C, H, W) or 4-d (N, C, H, W)
// inputs.

func init() {
	register("max_pool2d", &kernel{forward: maxPoolForward, backward: maxPoolBackward})
	register("adaptive_avg_pool2d", &kernel{forward: adaptiveAvgForward, backward: adaptiveAvgBackward})
}

// nnPool2dInput checks a 3-d or 4-d input with non-empty non-batch dims and
// returns (planes, H, W).
func nnPool2dInput(x *array) (planes, h, w int, err error) {
	r := len(x.shape)
	if r != 3 && r != 4 {
		return 0, 0, 0, fmt.Errorf("non-empty 3D or 4D (batch mode) tensor expected for input")
	}
	ok := (r == 3 && x.shape[0] != 0 && x.shape[1] != 0 && x.shape[2] != 0) ||
		(r == 4 && x.shape[1] != 0 && x.shape[2] != 0 && x.shape[3] != 0)
	if !ok {
		return 0, 0, 0, fmt.Errorf("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", ops.ShapeList(x.shape))
	}
	h, w = x.shape[r-2], x.shape[r-1]
	return x.len() / (h * w), h, w, nil
}

// nnPair reads an attribute of one or two ints; empty gives def.
func nnPair(c *call, name string, def []int64) ([2]int, error) {
	v := c.attrs.Ints(name, def)
	if len(v) == 0 {
		v = def
	}
	switch len(v) {
	case 1:
		return [2]int{int(v[0]), int(v[0])}, nil
	case 2:
		return [2]int{int(v[0]), int(v[1])}, nil
	}
	return [2]int{}, fmt.Errorf("max_pool2d: %s must either be a single int, or a tuple of two ints", name)
}

// nnPoolOutSize is PyTorch's pooling_output_shape.
func nnPoolOutSize(in, k, pad, stride, dil int, ceil bool) int {
	num := in + 2*pad - dil*(k-1) - 1
	if ceil {
		num += stride - 1
	}
	out := nnFloorDiv(num, stride) + 1
	if ceil && (out-1)*stride >= in+pad {
		out--
	}
	return out
}

func nnFloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

type nnMaxPool struct {
	x            *array
	planes, h, w int
	oh, ow       int
	k, s, p, d   [2]int
	retIdx       bool
	outShape     []int
}

func maxPoolSetup(c *call) (*nnMaxPool, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl("max_pool2d", x.dtype)
	}
	mp := &nnMaxPool{x: x, retIdx: c.attrs.Bool("return_indices", false)}
	if !c.attrs.Has("kernel_size") {
		return nil, fmt.Errorf("max_pool2d() missing required argument 'kernel_size'")
	}
	if mp.k, err = nnPair(c, "kernel_size", nil); err != nil {
		return nil, err
	}
	if mp.s, err = nnPair(c, "stride", []int64{int64(mp.k[0]), int64(mp.k[1])}); err != nil {
		return nil, err
	}
	if mp.p, err = nnPair(c, "padding", []int64{0}); err != nil {
		return nil, err
	}
	if mp.d, err = nnPair(c, "dilation", []int64{1}); err != nil {
		return nil, err
	}
	if mp.k[0] <= 0 || mp.k[1] <= 0 {
		return nil, fmt.Errorf("kernel size should be greater than zero, but got kH: %d kW: %d", mp.k[0], mp.k[1])
	}
	if mp.s[0] <= 0 || mp.s[1] <= 0 {
		return nil, fmt.Errorf("stride should be greater than zero, but got dH: %d dW: %d", mp.s[0], mp.s[1])
	}
	if mp.d[0] <= 0 || mp.d[1] <= 0 {
		return nil, fmt.Errorf("dilation should be greater than zero, but got dilationH: %d dilationW: %d", mp.d[0], mp.d[1])
	}
	for i := 0; i < 2; i++ {
		if mp.p[i] < 0 || mp.p[i] > mp.k[i]/2 {
			return nil, fmt.Errorf("pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", mp.p[i], mp.k[i])
		}
	}
	if mp.planes, mp.h, mp.w, err = nnPool2dInput(x); err != nil {
		return nil, err
	}
	ceil := c.attrs.Bool("ceil_mode", false)
	mp.oh = nnPoolOutSize(mp.h, mp.k[0], mp.p[0], mp.s[0], mp.d[0], ceil)
	mp.ow = nnPoolOutSize(mp.w, mp.k[1], mp.p[1], mp.s[1], mp.d[1], ceil)
	if mp.oh < 1 || mp.ow < 1 {
		r := len(x.shape)
		return nil, fmt.Errorf("Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small",
			x.shape[r-3], mp.h, mp.w, x.shape[r-3], mp.oh, mp.ow)
	}
	mp.outShape = append(append([]int{}, x.shape[:len(x.shape)-2]...), mp.oh, mp.ow)
	return mp, nil
}

// argmax returns, per output element, the flat H·W index of its maximum
// within the plane, and the maximum. It follows PyTorch's CPU kernel: the
// first valid position is the default, a larger value or a NaN replaces it.
func (mp *nnMaxPool) argmax() (idx []int, val []float64) {
	n := mp.planes * mp.oh * mp.ow
	idx = make([]int, n)
	val = make([]float64, n)
	for pl := 0; pl < mp.planes; pl++ {
		src := mp.x.data[pl*mp.h*mp.w:]
		for oh := 0; oh < mp.oh; oh++ {
			h0 := oh*mp.s[0] - mp.p[0]
			h1 := min(h0+(mp.k[0]-1)*mp.d[0]+1, mp.h)
			for h0 < 0 {
				h0 += mp.d[0]
			}
			for ow := 0; ow < mp.ow; ow++ {
				w0 := ow*mp.s[1] - mp.p[1]
				w1 := min(w0+(mp.k[1]-1)*mp.d[1]+1, mp.w)
				for w0 < 0 {
					w0 += mp.d[1]
				}
				best := h0*mp.w + w0
				m := math.Inf(-1)
				for ih := h0; ih < h1; ih += mp.d[0] {
					for iw := w0; iw < w1; iw += mp.d[1] {
						k := ih*mp.w + iw
						if v := src[k]; v > m || math.IsNaN(v) {
							m, best = v, k
						}
					}
				}
				o := (pl*mp.oh+oh)*mp.ow + ow
				idx[o], val[o] = best, m
			}
		}
	}
	return idx, val
}

func maxPoolForward(c *call) ([]*array, error) {
	mp, err := maxPoolSetup(c)
	if err != nil {
		return nil, err
	}
	idx, val := mp.argmax()
	return maxPoolOutputs(mp.outShape, mp.x.dtype, mp.retIdx, idx, val), nil
}

// maxPoolOutputs are a max pool's results: the maxima and, when asked for,
// their int64 indices.
func maxPoolOutputs(shape []int, dt tensor.DType, retIdx bool, idx []int, val []float64) []*array {
	outs := []*array{{shape: shape, data: val, dtype: dt}}
	if retIdx {
		ind := nnNew(shape, tensor.Int64)
		for i, v := range idx {
			ind.data[i] = float64(v)
		}
		outs = append(outs, ind)
	}
	return outs
}

// maxPoolBackward routes each output gradient to its argmax; a gradient of
// the indices output is ignored.
func maxPoolBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	mp, err := maxPoolSetup(c)
	if err != nil {
		return nil, err
	}
	idx, _ := mp.argmax()
	per := mp.oh * mp.ow
	// at bfloat16 PyTorch 1.13's cpu_max_pool_backward adds at bfloat16,
	// output positions in order
	bf := gx.dtype == tensor.BFloat16
	for o, k := range idx {
		if k >= 0 && k < mp.h*mp.w {
			i := (o/per)*mp.h*mp.w + k
			if bf {
				gx.data[i] = bf16Op(gx.data[i] + g.data[o])
			} else {
				gx.data[i] += g.data[o]
			}
		}
	}
	return []*array{gx}, nil
}

// ---- adaptive_avg_pool2d ----

type nnAdaptive struct {
	x            *array
	planes, h, w int
	oh, ow       int
	outShape     []int
}

func adaptiveSetup(c *call) (*nnAdaptive, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl("adaptive_avg_pool2d", x.dtype)
	}
	r := len(x.shape)
	if r != 3 && r != 4 {
		return nil, fmt.Errorf("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", ops.ShapeList(x.shape))
	}
	for i := r - 2; i < r; i++ {
		if x.shape[i] == 0 {
			return nil, fmt.Errorf("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", ops.ShapeList(x.shape), i)
		}
	}
	os := c.attrs.Ints("output_size", nil)
	if len(os) == 1 {
		os = []int64{os[0], os[0]}
	}
	if len(os) != 2 {
		return nil, fmt.Errorf("adaptive_avg_pool2d: output_size must be 2")
	}
	if os[0] < 0 || os[1] < 0 {
		return nil, fmt.Errorf("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {%d, %d}", os[0], os[1])
	}
	ap := &nnAdaptive{x: x, h: x.shape[r-2], w: x.shape[r-1], oh: int(os[0]), ow: int(os[1])}
	ap.planes = x.len() / (ap.h * ap.w)
	ap.outShape = append(append([]int{}, x.shape[:r-2]...), ap.oh, ap.ow)
	return ap, nil
}

// nnAdaptRange is PyTorch's window [floor(i*in/out), ceil((i+1)*in/out)).
func nnAdaptRange(i, in, out int) (int, int) {
	return (i * in) / out, ((i+1)*in + out - 1) / out
}

// each calls f(output index, flat input index, 1/window size) for every
// window element.
func (ap *nnAdaptive) each(f func(o, k int, inv float64)) {
	for pl := 0; pl < ap.planes; pl++ {
		for oh := 0; oh < ap.oh; oh++ {
			h0, h1 := nnAdaptRange(oh, ap.h, ap.oh)
			for ow := 0; ow < ap.ow; ow++ {
				w0, w1 := nnAdaptRange(ow, ap.w, ap.ow)
				inv := 1 / float64((h1-h0)*(w1-w0))
				o := (pl*ap.oh+oh)*ap.ow + ow
				for ih := h0; ih < h1; ih++ {
					for iw := w0; iw < w1; iw++ {
						f(o, (pl*ap.h+ih)*ap.w+iw, inv)
					}
				}
			}
		}
	}
}

func adaptiveAvgForward(c *call) ([]*array, error) {
	ap, err := adaptiveSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(ap.outShape, ap.x.dtype)
	cnt := make([]int, len(out.data))
	ap.each(func(o, k int, _ float64) {
		out.data[o] += ap.x.data[k]
		cnt[o]++
	})
	for i := range out.data {
		out.data[i] /= float64(cnt[i])
	}
	return []*array{out}, nil
}

func adaptiveAvgBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	ap, err := adaptiveSetup(c)
	if err != nil {
		return nil, err
	}
	if ap.x.dtype == tensor.BFloat16 {
		ap.backwardBF16(g.data, gx.data)
		return []*array{gx}, nil
	}
	ap.each(func(o, k int, inv float64) { gx.data[k] += g.data[o] * inv })
	return []*array{gx}, nil
}

// backwardBF16 is cpu_adaptive_avg_pool_backward at bfloat16 (PyTorch
// 1.13): each output gradient divided by the window height, then by its
// width, each quotient rounded to bfloat16, and added into every input of
// the window at bfloat16, output positions in order.
func (ap *nnAdaptive) backwardBF16(g, gx []float64) {
	for pl := 0; pl < ap.planes; pl++ {
		for oh := 0; oh < ap.oh; oh++ {
			h0, h1 := nnAdaptRange(oh, ap.h, ap.oh)
			for ow := 0; ow < ap.ow; ow++ {
				w0, w1 := nnAdaptRange(ow, ap.w, ap.ow)
				o := (pl*ap.oh+oh)*ap.ow + ow
				d := bf16Op(bf16Op(g[o]/float64(h1-h0)) / float64(w1-w0))
				for ih := h0; ih < h1; ih++ {
					for iw := w0; iw < w1; iw++ {
						k := (pl*ap.h+ih)*ap.w + iw
						gx[k] = bf16Op(gx[k] + d)
					}
				}
			}
		}
	}
}
