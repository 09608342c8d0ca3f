package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
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

// maxPool1dCall checks a max_pool1d call and returns the max_pool2d call
// it is, or nil when the output is empty (max_pool1d without indices
// allows an output length of 0).
func maxPool1dCall(c *call) (*call, []int, error) {
	x := c.in[0]
	withIdx := c.attrs.Bool("return_indices", false)
	r := x.rank()
	one := func(name string) int64 {
		v := c.attrs.Ints(name, nil)
		if len(v) == 0 {
			return 0
		}
		return v[0]
	}
	for _, name := range []string{"kernel_size", "stride", "padding", "dilation"} {
		if v := c.attrs.Ints(name, nil); len(v) != 1 {
			return nil, nil, fmt.Errorf("max_pool1d() %s must be an int, list of ints or tuple of ints of size 1 but got size %d", name, len(v))
		}
	}
	k, s, p, d := one("kernel_size"), one("stride"), one("padding"), one("dilation")
	ceil := c.attrs.Bool("ceil_mode", false)
	if withIdx {
		// max_pool1d_with_indices: max_pool2d_with_indices of the unsqueezed input
		if r < 2 || r > 3 {
			return nil, nil, fmt.Errorf("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for max_pool1d)", r)
		}
	} else {
		if !(r == 2 && x.shape[1] != 0) && !(r == 3 && x.shape[1] != 0 && x.shape[2] != 0) {
			return nil, nil, fmt.Errorf("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", ops.ShapeList(x.shape))
		}
		switch {
		case k <= 0:
			return nil, nil, fmt.Errorf("max_pool1d() kernel_size must be greater than zero, but got %d", k)
		case s <= 0:
			return nil, nil, fmt.Errorf("max_pool1d() stride must be greater than zero, but got %d", s)
		case p < 0:
			return nil, nil, fmt.Errorf("max_pool1d() padding must be non-negative, but got %d", p)
		case p > k/2:
			return nil, nil, fmt.Errorf("max_pool1d() padding should be at most half of kernel size, but got padding=%d and kernel_size=%d", p, k)
		case d <= 0:
			return nil, nil, fmt.Errorf("max_pool1d() dilation must be greater than zero, but got %d", d)
		}
		ow := nnPoolOutSize(x.shape[r-1], int(k), int(p), int(s), int(d), ceil)
		if ow < 0 {
			return nil, nil, fmt.Errorf("max_pool1d() Invalid computed output size: %d", ow)
		}
		if !x.dtype.IsFloat() {
			return nil, nil, nnNotImpl("max_pool1d_impl", x.dtype)
		}
		if ow == 0 {
			return nil, append(append([]int{}, x.shape[:r-1]...), 0), nil
		}
	}
	attrs := ops.Attrs{"kernel_size": ops.IntsAttr(1, k), "stride": ops.IntsAttr(1, s), "padding": ops.IntsAttr(0, p),
		"dilation": ops.IntsAttr(1, d), "ceil_mode": ops.BoolAttr(ceil), "return_indices": ops.BoolAttr(withIdx)}
	return &call{op: "max_pool2d", attrs: attrs, in: []*array{nnUnsqueezed(x)}, requiresGrad: c.requiresGrad, seed: c.seed}, nil, nil
}

func maxPool1dKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			c2, empty, err := maxPool1dCall(c)
			if err != nil {
				return nil, err
			}
			if c2 == nil {
				return []*array{nnNew(empty, c.in[0].dtype)}, nil
			}
			outs, err := maxPoolForward(c2)
			if err != nil {
				return nil, err
			}
			for _, o := range outs {
				nnSqueezed(o)
			}
			return outs, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			c2, _, err := maxPool1dCall(c)
			if err != nil {
				return nil, err
			}
			if c2 == nil {
				// autograd runs max_pool1d_with_indices, which refuses an
				// empty output
				c3 := *c
				c3.attrs = ops.Attrs{}
				for k, v := range c.attrs {
					c3.attrs[k] = v
				}
				c3.attrs["return_indices"] = ops.BoolAttr(true)
				if c2, _, err = maxPool1dCall(&c3); err != nil {
					return nil, err
				}
			}
			var g []*array
			for _, a := range gos {
				if a != nil {
					a = nnUnsqueezed(a)
				}
				g = append(g, a)
			}
			grads, err := maxPoolBackward(c2, nil, g)
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

// avgPool1d is one avg_pool1d call: planes of length l pooled to ol.
type avgPool1d struct {
	planes, l, ol int
	k, s, p       int
	countPad      bool
	outShape      []int
	integral      bool
	x             *array
}

// newAvgPool1d checks the call as avg_pool1d and then avg_pool2d (of the
// input with a unit dimension before the last) do in PyTorch 1.13.
func newAvgPool1d(c *call) (*avgPool1d, error) {
	x := c.in[0]
	r := x.rank()
	if r < 2 || r > 3 {
		return nil, fmt.Errorf("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)", r)
	}
	var v [3]int64
	for i, name := range []string{"kernel_size", "stride", "padding"} {
		a := c.attrs.Ints(name, nil)
		if len(a) != 1 {
			return nil, fmt.Errorf("avg_pool1d() argument '%s' should contain one int (got %d)", name, len(a))
		}
		v[i] = a[0]
	}
	k, s, p := int(v[0]), int(v[1]), int(v[2])
	switch {
	case s == 0:
		return nil, fmt.Errorf("stride should not be zero")
	case p < 0:
		return nil, fmt.Errorf("pad must be non-negative, but got pad: %d", p)
	case p > k/2:
		return nil, fmt.Errorf("pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", p, k)
	}
	l := x.shape[r-1]
	ol := nnPoolOutSize(l, k, p, s, 1, c.attrs.Bool("ceil_mode", false))
	switch {
	case k <= 0:
		return nil, fmt.Errorf("kernel size should be greater than zero, but got kH: 1 kW: %d", k)
	case s < 0:
		return nil, fmt.Errorf("stride should be greater than zero, but got dH: 1 dW: %d", s)
	}
	u := nnUnsqueezed(x).shape
	if (r == 2 && (u[0] == 0 || u[2] == 0)) || (r == 3 && (u[1] == 0 || u[3] == 0)) {
		return nil, fmt.Errorf("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", ops.ShapeList(u))
	}
	if ol < 1 {
		return nil, fmt.Errorf("Given input size: (%dx1x%d). Calculated output size: (%dx1x%d). Output size is too small", x.shape[r-2], l, x.shape[r-2], ol)
	}
	if !x.dtype.IsFloat() && x.dtype != tensor.Int64 {
		return nil, nnNotImpl("avg_pool2d", x.dtype)
	}
	out := append(append([]int{}, x.shape[:r-1]...), ol)
	return &avgPool1d{planes: x.len() / max(l, 1), l: l, ol: ol, k: k, s: s, p: p, countPad: c.attrs.Bool("count_include_pad", true),
		outShape: out, integral: !x.dtype.IsFloat(), x: x}, nil
}

// window returns output position o's input range and divisor (0: an
// empty window, whose output is 0).
func (a *avgPool1d) window(o int) (w0, w1 int, div float64) {
	w0 = o*a.s - a.p
	w1 = min(w0+a.k, a.l+a.p)
	pool := w1 - w0
	w0, w1 = max(w0, 0), min(w1, a.l)
	if w0 >= w1 {
		return 0, 0, 0
	}
	if a.countPad {
		return w0, w1, float64(pool)
	}
	return w0, w1, float64(w1 - w0)
}

func avgPool1dKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, err := newAvgPool1d(c)
			if err != nil {
				return nil, err
			}
			out := &array{shape: a.outShape, data: float64sFor(a.planes * a.ol), dtype: a.x.dtype}
			forChunks(len(out.data), func(from, to int) error {
				for q := from; q < to; q++ {
					pl, o := q/a.ol, q%a.ol
					w0, w1, div := a.window(o)
					if div == 0 {
						out.data[q] = 0
						continue
					}
					src := a.x.data[pl*a.l:]
					sum := 0.0
					for i := w0; i < w1; i++ {
						sum += src[i]
					}
					if a.integral {
						out.data[q] = math.Trunc(sum / div)
					} else {
						out.data[q] = sum / div
					}
				}
				return nil
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			a, err := newAvgPool1d(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], a.planes*a.ol)
			gx := zeros(len(a.x.data))
			// at bfloat16 (PyTorch 1.13's avg_pool2d backward kernel) the
			// quotient and every add into the input gradient are rounded
			bf := a.x.dtype == tensor.BFloat16
			// one plane per task: the windows of a plane overlap
			parallelPlanes(a.planes, func(pl int) {
				dst := gx[pl*a.l:]
				for o := 0; o < a.ol; o++ {
					w0, w1, div := a.window(o)
					if div == 0 {
						continue
					}
					v := g[pl*a.ol+o] / div
					if bf {
						v = bf16Op(v)
						for i := w0; i < w1; i++ {
							dst[i] = bf16Op(dst[i] + v)
						}
						continue
					}
					for i := w0; i < w1; i++ {
						dst[i] += v
					}
				}
			})
			return []*array{gradForOwned(c, 0, gx, a.x.shape)}, nil
		},
	}
}

// parallelPlanes runs f on every plane, planes spread over the cores in
// fixed chunks.
func parallelPlanes(planes int, f func(pl int)) {
	chunk := max(1, chunkElems/64)
	parallel.Chunks(planes, chunk, func(from, to int) error {
		for pl := from; pl < to; pl++ {
			f(pl)
		}
		return nil
	})
}

// adaptiveMax1d is one adaptive_max_pool1d call: planes of length l
// pooled to ol.
type adaptiveMax1d struct {
	planes, l, ol int
	outShape      []int
	x             *array
}

func newAdaptiveMax1d(c *call) (*adaptiveMax1d, error) {
	x := c.in[0]
	r := x.rank()
	if r < 2 || r > 3 {
		return nil, fmt.Errorf("Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_max_pool1d)", r)
	}
	os := c.attrs.Ints("output_size", nil)
	if len(os) != 1 {
		return nil, fmt.Errorf("adaptive_max_pool1d() argument 'output_size' should contain one int (got %d)", len(os))
	}
	u := nnUnsqueezed(x).shape
	for i := 1; i < len(u); i++ {
		if u[i] == 0 {
			return nil, fmt.Errorf("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", ops.ShapeList(u), i)
		}
	}
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl("adaptive_max_pool2d", x.dtype)
	}
	if os[0] < 0 {
		return nil, fmt.Errorf("Trying to create tensor with negative dimension %d: %s", os[0], ops.ShapeList(append(u[:len(u)-1:len(u)-1], int(os[0]))))
	}
	l := x.shape[r-1]
	ol := int(os[0])
	return &adaptiveMax1d{planes: x.len() / l, l: l, ol: ol, outShape: append(append([]int{}, x.shape[:r-1]...), ol), x: x}, nil
}

// argmax is the index within the plane of output q's maximum, as
// PyTorch's CPU kernel finds it: from -inf at the window's first element,
// a larger value or any NaN (so the last NaN) replaces it.
func (a *adaptiveMax1d) argmax(q int) int {
	pl, o := q/a.ol, q%a.ol
	w0, w1 := nnAdaptRange(o, a.l, a.ol)
	src := a.x.data[pl*a.l:]
	best, m := w0, math.Inf(-1)
	for i := w0; i < w1; i++ {
		if v := src[i]; v > m || v != v {
			best, m = i, v
		}
	}
	return best
}

func adaptiveMaxPool1dKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, err := newAdaptiveMax1d(c)
			if err != nil {
				return nil, err
			}
			n := a.planes * a.ol
			val := &array{shape: a.outShape, data: float64sFor(n), dtype: a.x.dtype}
			idx := &array{shape: append([]int{}, a.outShape...), data: float64sFor(n), dtype: tensor.Int64}
			forChunks(n, func(from, to int) error {
				for q := from; q < to; q++ {
					k := a.argmax(q)
					val.data[q], idx.data[q] = a.x.data[(q/a.ol)*a.l+k], float64(k)
				}
				return nil
			})
			if c.attrs.Bool("return_indices", false) {
				return []*array{val, idx}, nil
			}
			return []*array{val}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			a, err := newAdaptiveMax1d(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], a.planes*a.ol)
			gx := zeros(len(a.x.data))
			parallelPlanes(a.planes, func(pl int) {
				for o := 0; o < a.ol; o++ {
					q := pl*a.ol + o
					gx[pl*a.l+a.argmax(q)] += g[q]
				}
			})
			return []*array{gradForOwned(c, 0, gx, a.x.shape)}, nil
		},
	}
}

func init() {
	register("adaptive_max_pool1d", adaptiveMaxPool1dKernel())
	register("avg_pool1d", avgPool1dKernel())
	supportDTypes("avg_pool1d", append(append([]tensor.DType(nil), floatDTypes...), tensor.Int64)...)
	register("adaptive_avg_pool1d", adaptiveAvgPool1dKernel())
	register("max_pool1d", maxPool1dKernel())
}
