package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The pool family (sdk/ops/schema_pool.go): avg_pool2d/3d,
// adaptive_avg_pool3d and adaptive_max_pool2d/3d on PyTorch 1.13's CPU
// kernels, measured bit for bit against Debian's torch 1.13:
//
//   - avg_pool2d (cpu_avg_pool) sums each window at float32 for float32
//     and bfloat16 inputs and divides once; its backward adds
//     g/divisor, formed and accumulated at the input's dtype (bfloat16:
//     every addition rounds), window after window.
//   - avg_pool3d and adaptive_avg_pool3d sum at the input's dtype (float16:
//     every addition rounds); adaptive_avg_pool3d divides by the window's
//     depth, height and width one after the other, each division rounded,
//     and its backward adds g/kd/kh/kw the same way. An output size of
//     (1, 1, 1) is a mean over the last three dimensions (mean's sum, then
//     its division, each rounded), which bfloat16 also takes.
//   - adaptive_max_pool2d/3d pick the first maximum from −inf (a NaN wins,
//     the last NaN); the backward adds each output gradient at its index,
//     rounding at the input's dtype.
//
// Every kernel works on (planes, D, H, W) with unit leading spatial
// dimensions for the 2-d ops.

func init() {
	register("avg_pool2d", &kernel{forward: avgPoolNForward(2), backward: avgPoolNBackward(2)})
	supportDTypes("avg_pool2d", tensor.Float64, tensor.Float32, tensor.BFloat16, tensor.Int64)
	register("avg_pool3d", &kernel{forward: avgPoolNForward(3), backward: avgPoolNBackward(3)})
	supportDTypes("avg_pool3d", tensor.Float64, tensor.Float32, tensor.Int64)
	register("adaptive_avg_pool3d", &kernel{forward: adaptiveAvg3dForward, backward: adaptiveAvg3dBackward})
	register("adaptive_max_pool2d", &kernel{forward: adaptiveMaxNForward(2), backward: adaptiveMaxNBackward(2)})
	supportDTypes("adaptive_max_pool2d", tensor.Float64, tensor.Float32, tensor.BFloat16)
	register("adaptive_max_pool3d", &kernel{forward: adaptiveMaxNForward(3), backward: adaptiveMaxNBackward(3)})
	supportDTypes("adaptive_max_pool3d", tensor.Float64, tensor.Float32)
}

// poolArith is how a kernel computes at a dtype: in float64, float32,
// float16 or bfloat16 arithmetic (the float32 operation rounded), or in
// int64.
type poolArith int

const (
	arithF64 poolArith = iota
	arithF32
	arithF16
	arithBF16
	arithInt
)

func poolArithOf(dt tensor.DType) poolArith {
	switch dt {
	case tensor.Float32:
		return arithF32
	case tensor.Float16:
		return arithF16
	case tensor.BFloat16:
		return arithBF16
	case tensor.Float64:
		return arithF64
	}
	return arithInt
}

// f16Round rounds a float32 to float16.
func f16Round(x float32) float32 { return float32(tensor.Float16Value(tensor.Float16Bits(float64(x)))) }

// round32 rounds a float32 result to the narrow arithmetic a (float32
// itself for arithF32).
func (a poolArith) round32(x float32) float32 {
	switch a {
	case arithF16:
		return f16Round(x)
	case arithBF16:
		return bf16Round(x)
	}
	return x
}

// poolGeom is the (planes, D, H, W) view of a pooling call: nd spatial
// dimensions padded to three with leading units.
type poolGeom struct {
	nd                int
	planes            int
	in, out           [3]int
	inPlane, outPlane int
	outShape          []int
	x                 *array
	arith             poolArith
}

// setGeom fills the geometry from x and the nd output sizes.
func (g *poolGeom) setGeom(x *array, nd int, out []int) {
	g.nd, g.x, g.arith = nd, x, poolArithOf(x.dtype)
	r := x.rank()
	g.in, g.out = [3]int{1, 1, 1}, [3]int{1, 1, 1}
	for i := 0; i < nd; i++ {
		g.in[3-nd+i] = x.shape[r-nd+i]
		g.out[3-nd+i] = out[i]
	}
	g.inPlane = g.in[0] * g.in[1] * g.in[2]
	g.outPlane = g.out[0] * g.out[1] * g.out[2]
	g.planes = 0
	if g.inPlane > 0 {
		g.planes = x.len() / g.inPlane
	} else {
		g.planes = tensor.NumElements(x.shape[:r-nd])
	}
	g.outShape = append(append([]int{}, x.shape[:r-nd]...), out...)
}

// pos splits an index within an output plane into (d, h, w).
func (g *poolGeom) pos(o int) (int, int, int) {
	return o / (g.out[1] * g.out[2]), (o / g.out[2]) % g.out[1], o % g.out[2]
}

// ---- avg_pool2d / avg_pool3d ----

type avgPoolN struct {
	poolGeom
	k, s, p  [3]int
	countPad bool
	div      int64 // divisor_override; 0 when None
}

// poolSizes reads an ints attribute of one or nd values (none: def) as
// three, leading units for 2-d.
func poolSizes(c *call, name string, nd int, def []int64, fill int, msg string) ([3]int, error) {
	v := c.attrs.Ints(name, nil)
	if len(v) == 0 {
		v = def
	}
	if len(v) != 1 && len(v) != nd {
		return [3]int{}, fmt.Errorf("%s", msg)
	}
	out := [3]int{fill, fill, fill}
	for i := 0; i < nd; i++ {
		x := v[0]
		if len(v) == nd {
			x = v[i]
		}
		out[3-nd+i] = int(x)
	}
	return out, nil
}

func newAvgPoolN(c *call, nd int) (*avgPoolN, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	op := fmt.Sprintf("avg_pool%dd", nd)
	msgs := [3]string{"avg_pool2d: kernel_size must either be a single int, or a tuple of two ints",
		"avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints",
		"avg_pool2d: padding must either be a single int, or a tuple of two ints"}
	if nd == 3 {
		msgs = [3]string{"avg_pool3d: kernel_size must be a single int, or a tuple of three ints",
			"avg_pool3d: stride must be omitted, a single int, or a tuple of three ints",
			"avg_pool3d: padding must be a single int, or a tuple of three ints"}
	}
	a := &avgPoolN{countPad: c.attrs.Bool("count_include_pad", true)}
	kv := c.attrs.Ints("kernel_size", nil)
	if len(kv) != 1 && len(kv) != nd {
		return nil, fmt.Errorf("%s", msgs[0])
	}
	if a.k, err = poolSizes(c, "kernel_size", nd, nil, 1, msgs[0]); err != nil {
		return nil, err
	}
	if sv := c.attrs.Ints("stride", nil); len(sv) != 0 && len(sv) != 1 && len(sv) != nd {
		return nil, fmt.Errorf("%s", msgs[1])
	}
	if a.s, err = poolSizes(c, "stride", nd, kv, 1, msgs[1]); err != nil {
		return nil, err
	}
	if a.p, err = poolSizes(c, "padding", nd, nil, 0, msgs[2]); err != nil {
		return nil, err
	}
	r := x.rank()
	if nd == 3 && r != 4 && r != 5 {
		return nil, fmt.Errorf("non-empty 4D or 5D (batch mode) tensor expected for input")
	}
	if !c.attrs.IsNone("divisor_override") && c.attrs.Has("divisor_override") {
		if a.div = c.attrs.Int("divisor_override", 0); a.div == 0 {
			return nil, fmt.Errorf("divisor must be not zero")
		}
	}
	if nd == 2 && r < 3 {
		m := max(r, 1)
		return nil, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got -3)", -m, m-1)
	}
	ceil := c.attrs.Bool("ceil_mode", false)
	out := make([]int, nd)
	for i := 0; i < nd; i++ {
		j := 3 - nd + i
		k, s, p := a.k[j], a.s[j], a.p[j]
		switch {
		case s == 0:
			return nil, fmt.Errorf("stride should not be zero")
		case p < 0:
			return nil, fmt.Errorf("pad must be non-negative, but got pad: %d", p)
		case p > k/2:
			return nil, fmt.Errorf("pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", p, k)
		}
		out[i] = nnPoolOutSize(x.shape[r-nd+i], k, p, s, 1, ceil)
	}
	if nd == 2 {
		if a.k[1] <= 0 || a.k[2] <= 0 {
			return nil, fmt.Errorf("kernel size should be greater than zero, but got kH: %d kW: %d", a.k[1], a.k[2])
		}
		if a.s[1] <= 0 || a.s[2] <= 0 {
			return nil, fmt.Errorf("stride should be greater than zero, but got dH: %d dW: %d", a.s[1], a.s[2])
		}
		sh := x.shape
		if !(r == 3 && sh[1] != 0 && sh[2] != 0) && !(r == 4 && sh[1] != 0 && sh[2] != 0 && sh[3] != 0) {
			return nil, fmt.Errorf("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:%s", ops.ShapeList(sh))
		}
		if out[0] < 1 || out[1] < 1 {
			return nil, fmt.Errorf("Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small",
				sh[r-3], sh[r-2], sh[r-1], sh[r-3], out[0], out[1])
		}
	} else {
		for i := 0; i < r; i++ {
			if r == 5 && i == 0 {
				continue
			}
			if x.shape[i] <= 0 {
				return nil, fmt.Errorf("%s(): Expected input's non-batch dimensions to have positive length, but input has a shape of %s and non-batch dimension %d has length zero!",
					op, ops.ShapeList(x.shape), x.shape[i])
			}
		}
		if a.k[0] <= 0 || a.k[1] <= 0 || a.k[2] <= 0 {
			return nil, fmt.Errorf("kernel size should be greater than zero, but got kT: %d kH: %d kW: %d", a.k[0], a.k[1], a.k[2])
		}
		if a.s[0] <= 0 || a.s[1] <= 0 || a.s[2] <= 0 {
			return nil, fmt.Errorf("stride should be greater than zero, but got dT: %d dH: %d dW: %d", a.s[0], a.s[1], a.s[2])
		}
		sh := x.shape[r-3:]
		if sh[0] < a.k[0] || sh[1] < a.k[1] || sh[2] < a.k[2] {
			return nil, fmt.Errorf("input image (T: %d H: %d W: %d) smaller than kernel size (kT: %d kH: %d kW: %d)", sh[0], sh[1], sh[2], a.k[0], a.k[1], a.k[2])
		}
		if out[0] < 1 || out[1] < 1 || out[2] < 1 {
			return nil, fmt.Errorf("Given input size: (%dx%dx%dx%d). Calculated output size: (%dx%dx%dx%d). Output size is too small",
				x.shape[r-4], sh[0], sh[1], sh[2], x.shape[r-4], out[0], out[1], out[2])
		}
	}
	switch x.dtype {
	case tensor.Float64, tensor.Float32, tensor.Int64:
	case tensor.BFloat16:
		if nd == 3 {
			return nil, nnNotImpl("avg_pool3d_out_frame", x.dtype)
		}
	default:
		if nd == 3 {
			return nil, nnNotImpl("avg_pool3d_out_frame", x.dtype)
		}
		return nil, nnNotImpl("avg_pool2d", x.dtype)
	}
	a.setGeom(x, nd, out)
	return a, nil
}

// window returns output position o's input range along spatial
// dimension j and the size of its padded window.
func (a *avgPoolN) window(j, o int) (w0, w1, pool int) {
	w0 = o*a.s[j] - a.p[j]
	w1 = min(w0+a.k[j], a.in[j]+a.p[j])
	pool = w1 - w0
	return max(w0, 0), min(w1, a.in[j]), pool
}

// windows returns output q's (plane offset, ranges, divisor).
func (a *avgPoolN) windows(o int) (r [3][2]int, div int64) {
	od, oh, ow := a.pos(o)
	pool := 1
	n := 1
	for j, v := range [3]int{od, oh, ow} {
		w0, w1, p := a.window(j, v)
		r[j] = [2]int{w0, w1}
		pool *= p
		n *= max(w1-w0, 0)
	}
	switch {
	case a.div != 0:
		div = a.div
	case a.countPad:
		div = int64(pool)
	default:
		div = int64(n)
	}
	return r, div
}

func avgPoolNForward(nd int) func(c *call) ([]*array, error) {
	return func(c *call) ([]*array, error) {
		a, err := newAvgPoolN(c, nd)
		if err != nil {
			return nil, err
		}
		out := &array{shape: a.outShape, data: float64sFor(a.planes * a.outPlane), dtype: a.x.dtype}
		h, w := a.in[1], a.in[2]
		forChunks(len(out.data), func(from, to int) error {
			for q := from; q < to; q++ {
				pl, o := q/a.outPlane, q%a.outPlane
				rg, div := a.windows(o)
				src := a.x.data[pl*a.inPlane:]
				switch a.arith {
				case arithF32, arithBF16:
					var sum float32
					for d := rg[0][0]; d < rg[0][1]; d++ {
						for i := rg[1][0]; i < rg[1][1]; i++ {
							row := src[(d*h+i)*w:]
							for j := rg[2][0]; j < rg[2][1]; j++ {
								sum += float32(row[j])
							}
						}
					}
					out.data[q] = float64(sum / float32(div))
				default:
					sum := 0.0
					for d := rg[0][0]; d < rg[0][1]; d++ {
						for i := rg[1][0]; i < rg[1][1]; i++ {
							row := src[(d*h+i)*w:]
							for j := rg[2][0]; j < rg[2][1]; j++ {
								sum += row[j]
							}
						}
					}
					if a.arith == arithInt {
						out.data[q] = math.Trunc(sum / float64(div))
					} else {
						out.data[q] = sum / float64(div)
					}
				}
			}
			return nil
		})
		return []*array{out}, nil
	}
}

func avgPoolNBackward(nd int) func(c *call, outs, gos []*array) ([]*array, error) {
	return func(c *call, outs, gos []*array) ([]*array, error) {
		if !nnWantsGrad(c, 0) {
			return []*array{nil}, nil
		}
		a, err := newAvgPoolN(c, nd)
		if err != nil {
			return nil, err
		}
		g := gradData(gos[0], a.planes*a.outPlane)
		gx := zeros(len(a.x.data))
		h, w := a.in[1], a.in[2]
		parallelPlanes(a.planes, func(pl int) {
			dst := gx[pl*a.inPlane : (pl+1)*a.inPlane]
			for o := 0; o < a.outPlane; o++ {
				rg, div := a.windows(o)
				gv := g[pl*a.outPlane+o]
				if a.arith == arithF64 {
					delta := gv / float64(div)
					poolAddF64(dst, rg, h, w, delta)
					continue
				}
				var delta float32
				if a.arith == arithBF16 {
					delta = bf16Round(float32(gv) / bf16Round(float32(div)))
				} else {
					delta = float32(gv) / float32(div)
				}
				poolAddNarrow(dst, rg, h, w, delta, a.arith)
			}
		})
		return []*array{gradForOwned(c, 0, gx, a.x.shape)}, nil
	}
}

// poolAddF64 adds delta to every element of the window rg.
func poolAddF64(dst []float64, rg [3][2]int, h, w int, delta float64) {
	for d := rg[0][0]; d < rg[0][1]; d++ {
		for i := rg[1][0]; i < rg[1][1]; i++ {
			row := dst[(d*h+i)*w:]
			for j := rg[2][0]; j < rg[2][1]; j++ {
				row[j] += delta
			}
		}
	}
}

// poolAddNarrow adds delta to every element of the window rg, each sum
// rounded to the arithmetic's dtype.
func poolAddNarrow(dst []float64, rg [3][2]int, h, w int, delta float32, ar poolArith) {
	for d := rg[0][0]; d < rg[0][1]; d++ {
		for i := rg[1][0]; i < rg[1][1]; i++ {
			row := dst[(d*h+i)*w:]
			switch ar {
			case arithBF16:
				for j := rg[2][0]; j < rg[2][1]; j++ {
					row[j] = float64(bf16Round(float32(row[j]) + delta))
				}
			case arithF16:
				for j := rg[2][0]; j < rg[2][1]; j++ {
					row[j] = float64(f16Round(float32(row[j]) + delta))
				}
			default:
				for j := rg[2][0]; j < rg[2][1]; j++ {
					row[j] = float64(float32(row[j]) + delta)
				}
			}
		}
	}
}

// ---- adaptive_avg_pool3d ----

type adaptivePoolN struct {
	poolGeom
}

// adaptiveRanges returns output o's adaptive windows.
func (g *poolGeom) adaptiveRanges(o int) (r [3][2]int) {
	od, oh, ow := g.pos(o)
	for j, v := range [3]int{od, oh, ow} {
		r[j][0], r[j][1] = nnAdaptRange(v, g.in[j], g.out[j])
	}
	return r
}

// adaptiveOutSize reads output_size (nd sizes).
func adaptiveOutSize(c *call, nd int, msg string) ([]int, error) {
	os := c.attrs.Ints("output_size", nil)
	if len(os) == 1 && nd > 1 {
		os = []int64{os[0], os[0], os[0]}[:nd]
	}
	if len(os) != nd {
		return nil, fmt.Errorf("%s", msg)
	}
	out := make([]int, nd)
	for i, v := range os {
		out[i] = int(v)
	}
	return out, nil
}

func newAdaptiveAvg3d(c *call) (*adaptivePoolN, bool, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, false, err
	}
	out, err := adaptiveOutSize(c, 3, "adaptive_avg_pool3d: output_size must be 3")
	if err != nil {
		return nil, false, err
	}
	if out[0] < 0 || out[1] < 0 || out[2] < 0 {
		return nil, false, fmt.Errorf("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {%d, %d,%d}", out[0], out[1], out[2])
	}
	mean := out[0] == 1 && out[1] == 1 && out[2] == 1
	r := x.rank()
	if mean {
		// input.mean({-1, -2, -3}, keepdim=True)
		if r < 3 {
			m := max(r, 1)
			return nil, false, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got -3)", -m, m-1)
		}
		if !x.dtype.IsFloat() {
			return nil, false, fmt.Errorf("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", ops.TypeName(x.dtype))
		}
		a := &adaptivePoolN{}
		a.setGeom(x, 3, out)
		return a, true, nil
	}
	if r != 4 && r != 5 {
		return nil, false, fmt.Errorf("adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got %s", ops.ShapeList(x.shape))
	}
	for i := 1; i < r; i++ {
		if x.shape[i] == 0 {
			return nil, false, fmt.Errorf("adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty",
				ops.ShapeList(x.shape), i)
		}
	}
	if x.dtype != tensor.Float64 && x.dtype != tensor.Float32 && x.dtype != tensor.Float16 {
		return nil, false, nnNotImpl("adaptive_avg_pool3d_cpu", x.dtype)
	}
	a := &adaptivePoolN{}
	a.setGeom(x, 3, out)
	return a, false, nil
}

func adaptiveAvg3dForward(c *call) ([]*array, error) {
	a, mean, err := newAdaptiveAvg3d(c)
	if err != nil {
		return nil, err
	}
	out := &array{shape: a.outShape, data: float64sFor(a.planes * a.outPlane), dtype: a.x.dtype}
	h, w := a.in[1], a.in[2]
	forChunks(len(out.data), func(from, to int) error {
		for q := from; q < to; q++ {
			pl, o := q/a.outPlane, q%a.outPlane
			src := a.x.data[pl*a.inPlane:]
			if mean {
				sum := 0.0
				for _, v := range src[:a.inPlane] {
					sum += v
				}
				// sum, rounded to the dtype, then the division
				out.data[q] = roundTo(a.x.dtype, sum) / float64(a.inPlane)
				continue
			}
			rg := a.adaptiveRanges(o)
			kd, kh, kw := rg[0][1]-rg[0][0], rg[1][1]-rg[1][0], rg[2][1]-rg[2][0]
			if a.arith == arithF64 {
				sum := 0.0
				for d := rg[0][0]; d < rg[0][1]; d++ {
					for i := rg[1][0]; i < rg[1][1]; i++ {
						for _, v := range src[(d*h+i)*w+rg[2][0] : (d*h+i)*w+rg[2][1]] {
							sum += v
						}
					}
				}
				out.data[q] = sum / float64(kd) / float64(kh) / float64(kw)
				continue
			}
			var sum float32
			for d := rg[0][0]; d < rg[0][1]; d++ {
				for i := rg[1][0]; i < rg[1][1]; i++ {
					row := src[(d*h+i)*w+rg[2][0] : (d*h+i)*w+rg[2][1]]
					if a.arith == arithF16 {
						for _, v := range row {
							sum = f16Round(sum + float32(v))
						}
					} else {
						for _, v := range row {
							sum += float32(v)
						}
					}
				}
			}
			ar := a.arith
			out.data[q] = float64(ar.round32(ar.round32(sum/float32(kd))/float32(kh)) / float32(kw))
		}
		return nil
	})
	return []*array{out}, nil
}

func adaptiveAvg3dBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	a, mean, err := newAdaptiveAvg3d(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], a.planes*a.outPlane)
	gx := float64sFor(len(a.x.data))
	if mean {
		// mean's backward: g/N at every element (rounded once, as the
		// result)
		forChunks(len(gx), func(from, to int) error {
			for i := from; i < to; i++ {
				gx[i] = g[i/a.inPlane] / float64(a.inPlane)
			}
			return nil
		})
		return []*array{gradForOwned(c, 0, gx, a.x.shape)}, nil
	}
	clear(gx)
	h, w := a.in[1], a.in[2]
	parallelPlanes(a.planes, func(pl int) {
		dst := gx[pl*a.inPlane : (pl+1)*a.inPlane]
		for o := 0; o < a.outPlane; o++ {
			rg := a.adaptiveRanges(o)
			kd, kh, kw := rg[0][1]-rg[0][0], rg[1][1]-rg[1][0], rg[2][1]-rg[2][0]
			gv := g[pl*a.outPlane+o]
			if a.arith == arithF64 {
				poolAddF64(dst, rg, h, w, gv/float64(kd)/float64(kh)/float64(kw))
				continue
			}
			ar := a.arith
			delta := ar.round32(ar.round32(ar.round32(float32(gv)/float32(kd))/float32(kh)) / float32(kw))
			poolAddNarrow(dst, rg, h, w, delta, ar)
		}
	})
	return []*array{gradForOwned(c, 0, gx, a.x.shape)}, nil
}

// ---- adaptive_max_pool2d / adaptive_max_pool3d ----

func newAdaptiveMaxN(c *call, nd int) (*adaptivePoolN, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	op := fmt.Sprintf("adaptive_max_pool%dd", nd)
	r := x.rank()
	if r != nd+1 && r != nd+2 {
		return nil, fmt.Errorf("%s(): Expected %dD or %dD tensor, but got: %s", op, nd+1, nd+2, ops.ShapeList(x.shape))
	}
	for i := 1; i < r; i++ {
		if x.shape[i] == 0 {
			return nil, fmt.Errorf("%s(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty",
				op, ops.ShapeList(x.shape), i)
		}
	}
	out, err := adaptiveOutSize(c, nd, fmt.Sprintf("%s(): internal error: output_size.size() must be %d", op, nd))
	if err != nil {
		return nil, err
	}
	for _, v := range out {
		if v < 0 {
			shape := append(append([]int{}, x.shape[:r-nd]...), out...)
			return nil, fmt.Errorf("Trying to create tensor with negative dimension %d: %s", v, ops.ShapeList(shape))
		}
	}
	switch {
	case x.dtype == tensor.Float64 || x.dtype == tensor.Float32:
	case nd == 2 && x.dtype == tensor.BFloat16:
	case nd == 2:
		return nil, nnNotImpl("adaptive_max_pool2d", x.dtype)
	default:
		return nil, nnNotImpl("adaptive_max_pool3d_cpu", x.dtype)
	}
	a := &adaptivePoolN{}
	a.setGeom(x, nd, out)
	return a, nil
}

// argmax is the index within plane pl of output o's maximum: from −inf at
// the window's first element, a larger value or a NaN replaces it.
func (a *adaptivePoolN) argmax(pl, o int) int {
	rg := a.adaptiveRanges(o)
	h, w := a.in[1], a.in[2]
	src := a.x.data[pl*a.inPlane:]
	best, m := (rg[0][0]*h+rg[1][0])*w+rg[2][0], math.Inf(-1)
	for d := rg[0][0]; d < rg[0][1]; d++ {
		for i := rg[1][0]; i < rg[1][1]; i++ {
			base := (d*h + i) * w
			for j := rg[2][0]; j < rg[2][1]; j++ {
				if v := src[base+j]; v > m || v != v {
					best, m = base+j, v
				}
			}
		}
	}
	return best
}

func adaptiveMaxNForward(nd int) func(c *call) ([]*array, error) {
	return func(c *call) ([]*array, error) {
		a, err := newAdaptiveMaxN(c, nd)
		if err != nil {
			return nil, err
		}
		n := a.planes * a.outPlane
		val := &array{shape: a.outShape, data: float64sFor(n), dtype: a.x.dtype}
		idx := &array{shape: append([]int{}, a.outShape...), data: float64sFor(n), dtype: tensor.Int64}
		forChunks(n, func(from, to int) error {
			for q := from; q < to; q++ {
				pl := q / a.outPlane
				k := a.argmax(pl, q%a.outPlane)
				val.data[q], idx.data[q] = a.x.data[pl*a.inPlane+k], float64(k)
			}
			return nil
		})
		if c.attrs.Bool("return_indices", false) {
			return []*array{val, idx}, nil
		}
		return []*array{val}, nil
	}
}

func adaptiveMaxNBackward(nd int) func(c *call, outs, gos []*array) ([]*array, error) {
	return func(c *call, outs, gos []*array) ([]*array, error) {
		if !nnWantsGrad(c, 0) {
			return []*array{nil}, nil
		}
		a, err := newAdaptiveMaxN(c, nd)
		if err != nil {
			return nil, err
		}
		g := gradData(gos[0], a.planes*a.outPlane)
		gx := zeros(len(a.x.data))
		parallelPlanes(a.planes, func(pl int) {
			dst := gx[pl*a.inPlane:]
			for o := 0; o < a.outPlane; o++ {
				k := a.argmax(pl, o)
				gv := g[pl*a.outPlane+o]
				switch a.arith {
				case arithF64:
					dst[k] += gv
				case arithBF16:
					dst[k] = float64(bf16Round(float32(dst[k]) + float32(gv)))
				default:
					dst[k] = float64(float32(dst[k]) + float32(gv))
				}
			}
		})
		return []*array{gradForOwned(c, 0, gx, a.x.shape)}, nil
	}
}
