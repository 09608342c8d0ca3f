package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// F.interpolate's kernels (op "upsample") as PyTorch 1.13's CPU computes
// them (UpSample.h, UpSampleKernel.cpp), measured against Debian's torch
// 1.13:
//
//   - nearest: source floor(o·scale) with scale a float32 (in/out or
//     1/scale_factor), out == in and out == 2·in taken exactly; the
//     bfloat16 forward rounds the scale to bfloat16 and has no exact
//     cases, except on one channel of 4-d and 5-d inputs;
//     nearest-exact: floor((o+0.5)·scale). Copies.
//   - linear (1 to 3 spatial dimensions): per dimension the source
//     scale·(o+0.5)−0.5 (clamped at 0; align_corners: o·(in−1)/(out−1)),
//     its floor i0, i1 = i0+1 inside the input, weights λ1 = src − i0 and
//     1 − λ1. float32: the scale at float32, the source at float64, the
//     weights at float32, every dimension t0·w0 + t1·w1 as one fused
//     multiply-add of t0·w0 onto the rounded t1·w1 (bit for bit).
//     bfloat16: the scale at bfloat16, the source at float32, the weights
//     rounded to bfloat16, every product and sum rounded (bit for bit);
//     on one channel of a 4-d or 5-d input PyTorch's channels-last kernel
//     instead sums the terms at float32 (see valueChannelsLast).
//   - bicubic (2 spatial dimensions): the source unclamped, four taps
//     floor(src)−1 … +2 clamped to the input, the cubic convolution
//     weights with A = −0.75. bfloat16: the scale at bfloat16, the source
//     at float32, the weights with every operation rounded to bfloat16,
//     the sum as linear's; float32 and float64: computed in float64 and
//     rounded once (float32 is not reproduced bit for bit).
//
// Backwards add g·weights at each output's sources, output after output,
// with the forward's weights: bfloat16 rounds every product and sum,
// float32 rounds the weight products and fuses the last product with the
// addition (both bit for bit for linear), float64 exactly.

func init() {
	register("upsample", &kernel{forward: upsampleForward, backward: upsampleBackward})
	supportDTypes("upsample", tensor.Float64, tensor.Float32, tensor.BFloat16, tensor.Uint8)
}

type upsamplePlan struct {
	poolGeom
	mode string
	// channelsLast: linear at bfloat16 on one channel of a 4-d or 5-d
	// input, which PyTorch runs in its channels-last kernel
	channelsLast bool
	// per spatial dimension (of three, leading units): the taps of output
	// index o: idx[j][o*taps+t], weights w[j][o*taps+t]
	taps int
	idx  [3][]int
	w    [3][]float64
}

// newUpsamplePlan checks the call and computes the taps; exact (and
// bicubic) computes them in float64 whatever the dtype; backward: the
// backward's.
func newUpsamplePlan(c *call, exact, backward bool) (*upsamplePlan, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	mode := c.attrs.Str("mode", "")
	os := c.attrs.Ints("output_size", nil)
	scales := c.attrs.Floats("scales", nil)
	align := c.attrs.Bool("align_corners", false)
	r := x.rank()
	nd := r - 2
	if nd < 1 || nd > 3 {
		return nil, fmt.Errorf("Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)", r, mode)
	}
	if len(os) != nd {
		return nil, fmt.Errorf("It is expected output_size equals to %d, but got size %d", nd, len(os))
	}
	out := make([]int, nd)
	for i, v := range os {
		out[i] = int(v)
	}
	in := x.shape[2:]
	pos := true
	for i := 0; i < nd; i++ {
		pos = pos && in[i] > 0 && out[i] > 0
	}
	if !pos {
		switch nd {
		case 1:
			return nil, fmt.Errorf("Input and output sizes should be greater than 0, but got input (W: %d) and output (W: %d)", in[0], out[0])
		case 2:
			return nil, fmt.Errorf("Input and output sizes should be greater than 0, but got input (H: %d, W: %d) output (H: %d, W: %d)", in[0], in[1], out[0], out[1])
		default:
			return nil, fmt.Errorf("Input and output sizes should be greater than 0, but got input (D: %d, H: %d, W: %d) output (D: %d, H: %d, W: %d)",
				in[0], in[1], in[2], out[0], out[1], out[2])
		}
	}
	if x.len() == 0 && x.shape[1] == 0 {
		return nil, fmt.Errorf("Non-empty %dD data tensor expected but got a tensor with sizes %s", r, ops.ShapeList(x.shape))
	}
	dt := x.dtype
	switch mode {
	case "nearest":
		if dt != tensor.Float64 && dt != tensor.Float32 && dt != tensor.BFloat16 && dt != tensor.Uint8 {
			return nil, nnNotImpl("compute_indices_weights_nearest", dt)
		}
	case "nearest-exact":
		if dt != tensor.Float64 && dt != tensor.Float32 && dt != tensor.Uint8 {
			return nil, nnNotImpl("compute_indices_weights_nearest", dt)
		}
	case "linear":
		if dt != tensor.Float64 && dt != tensor.Float32 && dt != tensor.BFloat16 {
			return nil, nnNotImpl("compute_indices_weights_linear", dt)
		}
	case "bicubic":
		if nd != 2 {
			return nil, fmt.Errorf("bicubic interpolation needs 4D input")
		}
		if dt != tensor.Float64 && dt != tensor.Float32 && dt != tensor.BFloat16 {
			return nil, nnNotImpl("compute_indices_weights_cubic", dt)
		}
	default:
		return nil, fmt.Errorf("upsample: unknown mode %s", mode)
	}
	p := &upsamplePlan{mode: mode}
	p.setGeom(x, nd, out)
	if exact || (mode == "bicubic" && dt != tensor.BFloat16) {
		dt, p.arith = tensor.Float64, arithF64
	}
	p.taps = map[string]int{"nearest": 1, "nearest-exact": 1, "linear": 2, "bicubic": 4}[mode]
	p.channelsLast = !backward && mode == "linear" && dt == tensor.BFloat16 && nd >= 2 && x.shape[1] == 1
	for j := 0; j < 3; j++ {
		k := j - (3 - nd)
		if k < 0 {
			p.idx[j] = make([]int, p.taps)
			p.w[j] = make([]float64, p.taps)
			p.w[j][0] = 1
			continue
		}
		scale := -1.0
		if k < len(scales) {
			scale = scales[k]
		}
		n := nd
		if backward || (nd >= 2 && x.shape[1] == 1) {
			n = -1
		}
		p.idx[j], p.w[j] = upsampleTaps(mode, dt, n, in[k], out[k], scale, align)
	}
	return p, nil
}

// upsampleTaps computes one dimension's source indices and weights.
func upsampleTaps(mode string, dt tensor.DType, nd, in, out int, scale float64, align bool) ([]int, []float64) {
	hasScale := scale > 0
	switch mode {
	case "nearest", "nearest-exact":
		idx := make([]int, out)
		w := make([]float64, out)
		var s float32
		// the forward at bfloat16 takes its scale at bfloat16 and no
		// shortcut, but for 4-d and 5-d inputs of one channel (contiguous
		// also as channels-last: PyTorch's channels-last kernel) (measured);
		// nd < 0 is the backward, which never does
		bf1d := mode == "nearest" && dt == tensor.BFloat16 && nd > 0
		switch {
		case bf1d && hasScale:
			s = bf16Round(float32(1.0 / scale))
		case bf1d:
			s = bf16Round(bf16Round(float32(in)) / bf16Round(float32(out)))
		case hasScale:
			s = float32(1.0 / scale)
		default:
			s = float32(in) / float32(out)
		}
		for o := range idx {
			w[o] = 1
			switch {
			case bf1d:
				idx[o] = min(int(math.Floor(float64(float32(o)*s))), in-1)
			case mode == "nearest" && out == in:
				idx[o] = o
			case mode == "nearest" && out == 2*in:
				idx[o] = o >> 1
			case mode == "nearest":
				idx[o] = min(int(math.Floor(float64(float32(o)*s))), in-1)
			default:
				idx[o] = min(int(math.Floor(float64(float32(float64(o)+0.5)*s))), in-1)
			}
		}
		return idx, w
	case "linear":
		idx := make([]int, 2*out)
		w := make([]float64, 2*out)
		for o := 0; o < out; o++ {
			var i0 int
			var l0, l1 float64
			if out == in {
				i0, l0, l1 = o, 1, 0
			} else {
				switch dt {
				case tensor.Float32:
					var s float32
					switch {
					case align && out > 1:
						s = float32(in-1) / float32(out-1)
					case align:
						s = 0
					case hasScale:
						s = float32(1.0 / scale)
					default:
						s = float32(in) / float32(out)
					}
					src := upsampleSource(float64(s), o, align, false)
					i0 = int(src)
					f1 := float32(src - float64(i0))
					l1, l0 = float64(f1), float64(1-f1)
				case tensor.BFloat16:
					s := upsampleScaleBF16(in, out, scale, align, hasScale)
					var src float32
					if align {
						src = s * float32(o)
					} else {
						src = s*(float32(o)+0.5) - 0.5
						if src < 0 {
							src = 0
						}
					}
					i0 = int(src)
					f1 := bf16Round(src - float32(i0))
					l1, l0 = float64(f1), float64(bf16Round(1-f1))
				default:
					s := upsampleScale64(in, out, scale, align)
					src := upsampleSource(s, o, align, false)
					i0 = int(src)
					l1 = src - float64(i0)
					l0 = 1 - l1
				}
			}
			i1 := i0
			if i0 < in-1 {
				i1 = i0 + 1
			}
			idx[2*o], idx[2*o+1] = i0, i1
			w[2*o], w[2*o+1] = l0, l1
		}
		return idx, w
	}
	// bicubic
	idx := make([]int, 4*out)
	w := make([]float64, 4*out)
	for o := 0; o < out; o++ {
		var t float64
		var i0 int
		if dt == tensor.Float64 {
			src := upsampleSource(upsampleScale64(in, out, scale, align), o, align, true)
			fl := math.Floor(src)
			i0, t = int(fl), src-fl
			c := cubicCoeffs64(t)
			copy(w[4*o:], c[:])
		} else {
			// bfloat16: the scale at bfloat16 as linear's
			s := upsampleScaleBF16(in, out, scale, align, hasScale)
			var src float32
			if align {
				src = s * float32(o)
			} else {
				src = s*(float32(o)+0.5) - 0.5
			}
			fl := float32(math.Floor(float64(src)))
			i0 = int(fl)
			c := cubicCoeffsBF16(bf16Round(src - fl))
			for k := range c {
				w[4*o+k] = float64(c[k])
			}
		}
		for k := 0; k < 4; k++ {
			idx[4*o+k] = min(max(i0-1+k, 0), in-1)
		}
	}
	return idx, w
}

// upsampleScale64 is area_pixel_compute_scale<double>.
func upsampleScale64(in, out int, scale float64, align bool) float64 {
	switch {
	case align && out > 1:
		return float64(in-1) / float64(out-1)
	case align:
		return 0
	case scale > 0:
		return 1.0 / scale
	}
	return float64(in) / float64(out)
}

// upsampleSource is area_pixel_compute_source_index in float64.
func upsampleSource(s float64, o int, align, cubic bool) float64 {
	if align {
		return s * float64(o)
	}
	src := s*(float64(o)+0.5) - 0.5
	if !cubic && src < 0 {
		return 0
	}
	return src
}

func cubicCoeffs64(t float64) [4]float64 {
	const a = -0.75
	c1 := func(x float64) float64 { return ((a+2)*x-(a+3))*x*x + 1 }
	c2 := func(x float64) float64 { return ((a*x-5*a)*x+8*a)*x - 4*a }
	return [4]float64{c2(t + 1), c1(t), c1(1 - t), c2(2 - t)}
}

// cubicCoeffsBF16 is get_cubic_upsample_coefficients at bfloat16: every
// operation rounded.
func cubicCoeffsBF16(t float32) [4]float32 {
	r := bf16Round
	const a = float32(-0.75)
	c1 := func(x float32) float32 { return r(r(r(r(r((a+2)*x)-(a+3))*x)*x) + 1) }
	c2 := func(x float32) float32 { return r(r(r(r(r(r(a*x)-r(5*a))*x)+r(8*a))*x) - r(4*a)) }
	x2 := r(1 - t)
	return [4]float32{c2(r(t + 1)), c1(t), c1(x2), c2(r(x2 + 1))}
}

// value interpolates output (od, oh, ow) of plane src: the width taps
// combined first, then the height's, then the depth's.
func (p *upsamplePlan) value(src []float64, od, oh, ow int) float64 {
	if p.channelsLast {
		return p.valueChannelsLast(src, od, oh, ow)
	}
	t := p.taps
	ta, tb := t, t
	if p.nd < 3 {
		ta = 1
	}
	if p.nd < 2 {
		tb = 1
	}
	var dv [4]float64
	for a := 0; a < ta; a++ {
		ia := p.idx[0][od*t+a] * p.in[1]
		var hv [4]float64
		for b := 0; b < tb; b++ {
			base := (ia + p.idx[1][oh*t+b]) * p.in[2]
			var xv [4]float64
			for e := 0; e < t; e++ {
				xv[e] = src[base+p.idx[2][ow*t+e]]
			}
			hv[b] = p.combine(xv[:t], p.w[2][ow*t:ow*t+t])
		}
		if tb == 1 {
			dv[a] = hv[0]
		} else {
			dv[a] = p.combine(hv[:tb], p.w[1][oh*t:oh*t+t])
		}
	}
	if ta == 1 {
		return dv[0]
	}
	return p.combine(dv[:ta], p.w[0][od*t:od*t+t])
}

// valueChannelsLast is PyTorch 1.13's channels-last linear kernel at
// bfloat16 (one channel): the corners' weight products rounded to
// bfloat16, each term w·x rounded to float32 and summed at float32,
// corner after corner, the sum rounded once (measured bit for bit).
func (p *upsamplePlan) valueChannelsLast(src []float64, od, oh, ow int) float64 {
	ta := 2
	if p.nd < 3 {
		ta = 1
	}
	var acc float32
	for a := 0; a < ta; a++ {
		ia := p.idx[0][od*2+a] * p.in[1]
		for b := 0; b < 2; b++ {
			base := (ia + p.idx[1][oh*2+b]) * p.in[2]
			wab := float32(p.w[1][oh*2+b])
			if p.nd == 3 {
				wab = bf16Round(float32(p.w[0][od*2+a]) * wab)
			}
			for e := 0; e < 2; e++ {
				w := bf16Round(wab * float32(p.w[2][ow*2+e]))
				acc += w * float32(src[base+p.idx[2][ow*2+e]])
			}
		}
	}
	return float64(acc)
}

// combine is Σ v_k·w_k in the dtype's arithmetic (see the top of the
// file).
func (p *upsamplePlan) combine(v, w []float64) float64 {
	n := len(v)
	if n == 1 {
		return v[0]
	}
	switch p.arith {
	case arithF32:
		if n == 2 {
			b := float32(v[1]) * float32(w[1])
			return float64(float32(math.FMA(v[0], w[0], float64(b))))
		}
		acc := float32(v[0]) * float32(w[0])
		for k := 1; k < n; k++ {
			acc = float32(math.FMA(v[k], w[k], float64(acc)))
		}
		return float64(acc)
	case arithBF16:
		acc := bf16Round(float32(v[0]) * float32(w[0]))
		for k := 1; k < n; k++ {
			acc = bf16Round(acc + bf16Round(float32(v[k])*float32(w[k])))
		}
		return float64(acc)
	}
	s := 0.0
	for k := 0; k < n; k++ {
		s += v[k] * w[k]
	}
	return s
}

func upsampleForward(c *call) ([]*array, error) {
	p, err := newUpsamplePlan(c, false, false)
	if err != nil {
		return nil, err
	}
	out := &array{shape: p.outShape, data: float64sFor(p.planes * p.outPlane), dtype: p.x.dtype}
	forChunks(len(out.data), func(from, to int) error {
		for q := from; q < to; q++ {
			pl, o := q/p.outPlane, q%p.outPlane
			od, oh, ow := p.pos(o)
			out.data[q] = p.value(p.x.data[pl*p.inPlane:(pl+1)*p.inPlane], od, oh, ow)
		}
		return nil
	})
	return []*array{out}, nil
}

func upsampleBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	p, err := newUpsamplePlan(c, false, true)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], p.planes*p.outPlane)
	gx := zeros(len(p.x.data))
	t := p.taps
	// the leading unit dimensions have one tap of weight 1
	ta, tb := t, t
	if p.nd < 3 {
		ta = 1
	}
	if p.nd < 2 {
		tb = 1
	}
	lead := 3 - p.nd
	parallelPlanes(p.planes, func(pl int) {
		dst := gx[pl*p.inPlane : (pl+1)*p.inPlane]
		for o := 0; o < p.outPlane; o++ {
			gv := g[pl*p.outPlane+o]
			od, oh, ow := p.pos(o)
			for a := 0; a < ta; a++ {
				ia := p.idx[0][od*t+a] * p.in[1]
				for b := 0; b < tb; b++ {
					ib := (ia + p.idx[1][oh*t+b]) * p.in[2]
					for e := 0; e < t; e++ {
						k := ib + p.idx[2][ow*t+e]
						ws := [3]float64{p.w[0][od*t+a], p.w[1][oh*t+b], p.w[2][ow*t+e]}
						switch p.arith {
						case arithBF16:
							// (w_d·w_h)·w_w·g, each product rounded, then
							// the sum
							w := float32(ws[lead])
							for j := lead + 1; j < 3; j++ {
								w = bf16Round(w * float32(ws[j]))
							}
							dst[k] = float64(bf16Round(float32(dst[k]) + bf16Round(w*float32(gv))))
						case arithF32:
							w := float32(ws[lead])
							for j := lead + 1; j < 3; j++ {
								w *= float32(ws[j])
							}
							// the last product fused with the addition
							dst[k] = float64(float32(math.FMA(float64(w), float64(float32(gv)), float64(float32(dst[k])))))
						default:
							dst[k] += ws[0] * ws[1] * ws[2] * gv
						}
					}
				}
			}
		}
	})
	return []*array{gradForOwned(c, 0, gx, p.x.shape)}, nil
}

// upsampleScaleBF16 is the source-per-output scale of a linear or bicubic
// upsample at bfloat16 as torch 1.13 forms it: (in−1)/(out−1) with
// align_corners (0 for one output), else 1/scale where a scale factor is
// given, else in/out, each operand and quotient rounded to bfloat16.
func upsampleScaleBF16(in, out int, scale float64, align, hasScale bool) float32 {
	switch {
	case align && out > 1:
		return bf16Round(bf16Round(float32(in-1)) / bf16Round(float32(out-1)))
	case align:
		return 0
	case hasScale:
		return bf16Round(float32(1.0 / scale))
	default:
		return bf16Round(bf16Round(float32(in)) / bf16Round(float32(out)))
	}
}
