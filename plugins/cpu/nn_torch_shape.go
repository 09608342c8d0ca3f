package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Data movement of msprobe's torch list (sdk/ops/schema_nn.go):
// pixel_shuffle, pixel_unshuffle, channel_shuffle and constant_pad_nd.
// Each output element is one input element (or the pad value): the
// kernels build the source index of every output position and gather; the
// backward scatters the gradient back through the same (injective) map.

// nnGatherMap returns an array of dtype dt and the given shape whose
// element k is x.data[src[k]], or fill where src[k] < 0.
func nnGatherMap(x *array, dt tensor.DType, shape []int, src []int, fill float64) *array {
	out := &array{shape: append([]int{}, shape...), data: float64sFor(len(src)), dtype: dt}
	forChunks(len(src), func(from, to int) error {
		for k := from; k < to; k++ {
			if s := src[k]; s >= 0 {
				out.data[k] = x.data[s]
			} else {
				out.data[k] = fill
			}
		}
		return nil
	})
	return out
}

// nnScatterGrad is the gradient of nnGatherMap for input 0: the output
// gradient sent back to the source positions (zero where none reads).
func nnScatterGrad(c *call, gos []*array, src []int) []*array {
	x := c.in[0]
	g := gradData(gos[0], len(src))
	res := zeros(len(x.data))
	forChunks(len(src), func(from, to int) error {
		for k := from; k < to; k++ {
			if s := src[k]; s >= 0 {
				res[s] = g[k]
			}
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, res, x.shape)}
}

// nnIndexMap fills an int map of n positions in parallel.
func nnIndexMap(n int, f func(k int) int) []int {
	src := make([]int, n)
	forChunks(n, func(from, to int) error {
		for k := from; k < to; k++ {
			src[k] = f(k)
		}
		return nil
	})
	return src
}

// pixelShufflePlan checks a pixel_shuffle (shuffle) or pixel_unshuffle
// call and returns the output shape and the source of every output
// element.
func pixelShufflePlan(c *call, shuffle bool) ([]int, []int, error) {
	x := c.in[0]
	name, factor, what := "pixel_unshuffle", "downscale_factor", c.attrs.Int("downscale_factor", 0)
	if shuffle {
		name, factor, what = "pixel_shuffle", "upscale_factor", c.attrs.Int("upscale_factor", 0)
	}
	n := x.rank()
	if n < 3 {
		return nil, nil, fmt.Errorf("%s expects input to have at least 3 dimensions, but got input with %d dimension(s)", name, n)
	}
	if what <= 0 {
		return nil, nil, fmt.Errorf("%s expects a positive %s, but got %d", name, factor, what)
	}
	r := int(what)
	ch, h, w := x.shape[n-3], x.shape[n-2], x.shape[n-1]
	outer := tensor.NumElements(x.shape[:n-3])
	shape := append([]int{}, x.shape...)
	if shuffle {
		if ch%(r*r) != 0 {
			return nil, nil, fmt.Errorf("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=%d is not divisible by %d", ch, r*r)
		}
		oc, oh, ow := ch/(r*r), h*r, w*r
		shape[n-3], shape[n-2], shape[n-1] = oc, oh, ow
		// out (b, c, h·r+i, w·r+j) ← in (b, c·r²+i·r+j, h, w)
		src := nnIndexMap(outer*oc*oh*ow, func(k int) int {
			ox := k % ow
			k /= ow
			oy := k % oh
			k /= oh
			cc := k % oc
			b := k / oc
			return ((b*ch+cc*r*r+(oy%r)*r+ox%r)*h+oy/r)*w + ox/r
		})
		return shape, src, nil
	}
	if h%r != 0 {
		return nil, nil, fmt.Errorf("pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=%d is not divisible by %d", h, r)
	}
	if w%r != 0 {
		return nil, nil, fmt.Errorf("pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=%d is not divisible by %d", w, r)
	}
	if len(x.data) == 0 {
		// PyTorch 1.13 returns an empty input unchanged, shape included.
		return shape, []int{}, nil
	}
	oc, oh, ow := ch*r*r, h/r, w/r
	shape[n-3], shape[n-2], shape[n-1] = oc, oh, ow
	// out (b, c·r²+i·r+j, h, w) ← in (b, c, h·r+i, w·r+j)
	src := nnIndexMap(outer*oc*oh*ow, func(k int) int {
		ox := k % ow
		k /= ow
		oy := k % oh
		k /= oh
		cc := k % oc
		b := k / oc
		return ((b*ch+cc/(r*r))*h+oy*r+(cc/r)%r)*w + ox*r + cc%r
	})
	return shape, src, nil
}

func pixelShuffleKernel(shuffle bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			shape, src, err := pixelShufflePlan(c, shuffle)
			if err != nil {
				return nil, err
			}
			return []*array{nnGatherMap(c.in[0], c.in[0].dtype, shape, src, 0)}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			_, src, err := pixelShufflePlan(c, shuffle)
			if err != nil {
				return nil, err
			}
			return nnScatterGrad(c, gos, src), nil
		},
	}
}

// channelShuffleKernel has no backward: PyTorch 1.13 has no derivative
// for channel_shuffle.
func channelShuffleKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			if x.rank() <= 2 {
				return nil, fmt.Errorf("channel_shuffle expects input with > 2 dims, but got input with sizes %s", ops.ShapeList(x.shape))
			}
			g := c.attrs.Int("groups", 0)
			ch := x.shape[1]
			if g <= 0 {
				return nil, fmt.Errorf("Number of groups to divide channels in must be positive. Value of groups:%d", g)
			}
			if int64(ch)%g != 0 {
				return nil, fmt.Errorf("Number of channels must be divisible by groups. Got %d channels and %d groups.", ch, g)
			}
			gi := int(g)
			per := ch / gi
			inner := tensor.NumElements(x.shape[2:])
			// out channel a·g+b ← in channel b·(C/g)+a
			src := nnIndexMap(len(x.data), func(k int) int {
				s := k % inner
				k /= inner
				o := k % ch
				n := k / ch
				return (n*ch+(o%gi)*per+o/gi)*inner + s
			})
			return []*array{nnGatherMap(x, x.dtype, x.shape, src, 0)}, nil
		},
	}
}

// padValueType is the C++ type PyTorch names when the pad value does not
// fit the dtype.
var padValueType = map[tensor.DType]string{
	tensor.Int8: "int8_t", tensor.Int16: "int16_t", tensor.Int32: "int", tensor.Int64: "int64_t", tensor.Uint8: "uint8_t",
	tensor.Float16: "at::Half", tensor.BFloat16: "at::BFloat16", tensor.Float32: "float", tensor.Float64: "double",
}

// padValue converts the pad value to dt as fill_ does (c10::checked_convert).
func padValue(dt tensor.DType, v float64) (float64, error) {
	var lo, hi float64
	switch dt {
	case tensor.Bool:
		if v != 0 {
			return 1, nil
		}
		return 0, nil
	case tensor.Float64:
		return v, nil
	case tensor.Float32:
		hi = math.MaxFloat32
	case tensor.Float16:
		hi = 65504
	case tensor.BFloat16:
		hi = 3.3895313892515355e38
	case tensor.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case tensor.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case tensor.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case tensor.Int64:
		lo, hi = -0x1p63, 0x1p63
	case tensor.Uint8:
		lo, hi = 0, math.MaxUint8
	}
	overflow := false
	if dt.IsFloat() {
		overflow = !math.IsInf(v, 0) && v == v && math.Abs(v) > hi
	} else {
		overflow = v != v || v < lo || v > hi
	}
	if overflow {
		return 0, fmt.Errorf("value cannot be converted to type %s without overflow", padValueType[dt])
	}
	return roundTo(dt, v), nil
}

// padPlan checks a constant_pad_nd call the way PyTorch 1.13 does
// (negative pads narrow the input first, then the padded sizes must be
// positive) and returns the output shape and the source of every output
// element (-1 for the pad value).
func padPlan(c *call) (shape []int, src []int, padded bool, err error) {
	x := c.in[0]
	pad := c.attrs.Ints("pad", nil)
	n := x.rank()
	if len(pad)%2 != 0 {
		return nil, nil, false, fmt.Errorf("Length of pad must be even but instead it equals %d", len(pad))
	}
	lpad := len(pad) / 2
	if lpad > n {
		return nil, nil, false, fmt.Errorf("Length of pad should be no more than twice the number of dimensions of the input. Pad length is %dwhile the input has %ddimensions.", len(pad), n)
	}
	before := make([]int, n)
	shape = append([]int{}, x.shape...)
	allNonPositive := true
	for d := n - lpad; d < n; d++ {
		pb, pa := pad[2*(n-d-1)], pad[2*(n-d-1)+1]
		allNonPositive = allNonPositive && pb <= 0 && pa <= 0
		cur := int64(shape[d])
		if pb < 0 {
			if err := padNarrowCheck(-pb, cur+pb, cur); err != nil {
				return nil, nil, false, err
			}
			cur += pb
		}
		if pa < 0 {
			if err := padNarrowCheck(0, cur+pa, cur); err != nil {
				return nil, nil, false, err
			}
			cur += pa
		}
		before[d] = int(pb)
		shape[d] = x.shape[d] + int(pb) + int(pa)
	}
	if !allNonPositive {
		for d := n - lpad; d < n; d++ {
			pb, pa := pad[2*(n-d-1)], pad[2*(n-d-1)+1]
			if shape[d] <= 0 {
				return nil, nil, false, fmt.Errorf("The input size %d, plus negative padding %d and %d resulted in a negative output size, which is invalid. Check dimension %d of your input.", x.shape[d], pb, pa, d)
			}
		}
	}
	inStrides := contiguousStrides(x.shape)
	outStrides := contiguousStrides(shape)
	src = nnIndexMap(tensor.NumElements(shape), func(k int) int {
		s := 0
		for d := 0; d < n; d++ {
			i := k/outStrides[d] - before[d]
			k %= outStrides[d]
			if i < 0 || i >= x.shape[d] {
				return -1
			}
			s += i * inStrides[d]
		}
		return s
	})
	return shape, src, !allNonPositive, nil
}

// padNarrowCheck is Tensor.narrow's check of a negative pad's crop.
func padNarrowCheck(start, length, cur int64) error {
	if start != cur && (start >= cur || start < -cur) {
		return fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -cur, cur-1, start)
	}
	if length < 0 || start > cur-length {
		return fmt.Errorf("start (%d) + length (%d) exceeds dimension size (%d).", start, length, cur)
	}
	return nil
}

func constantPadKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			shape, src, padded, err := padPlan(c)
			if err != nil {
				return nil, err
			}
			fill := 0.0
			if padded {
				if fill, err = padValue(x.dtype, c.attrs.Float("value", 0)); err != nil {
					return nil, err
				}
			}
			return []*array{nnGatherMap(x, x.dtype, shape, src, fill)}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			_, src, _, err := padPlan(c)
			if err != nil {
				return nil, err
			}
			return nnScatterGrad(c, gos, src), nil
		},
	}
}

func init() {
	register("pixel_shuffle", pixelShuffleKernel(true))
	register("pixel_unshuffle", pixelShuffleKernel(false))
	register("channel_shuffle", channelShuffleKernel())
	register("constant_pad_nd", constantPadKernel())
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, op := range []string{"pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "constant_pad_nd"} {
		supportDTypes(op, all...)
	}
}
