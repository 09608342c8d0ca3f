package cpu

import (
	"fmt"
	"strings"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// F.pad's non-constant modes (op "pad"): every output element is one
// input element, chosen per spatial dimension (reflect: −v and 2(n−1)−v
// beyond the ends, replicate: the nearest end, circular: modulo the input
// that negative pads leave), so the forward is exact; the backward adds
// each output gradient at its source, output after output, at the dtype
// for reflect and replicate (float32, and reflect 3-d's half types) and
// exactly for circular (a composite of copies). PyTorch 1.13's CPU has
// reflect and replicate for float32 and float64 only (reflect 3-d also
// for the half types); circular runs on every dtype.

func init() {
	register("pad", &kernel{forward: padForward, backward: padBackward})
	supportDTypes("pad", append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)...)
}

type poolPadPlan struct {
	poolGeom
	mode string
	// src[j][o] is the input index along spatial dimension j of output
	// index o
	src [3][]int
}

// torchTensorName is PyTorch's legacy tensor type name (torch.FloatTensor)
// that some messages print.
func torchTensorName(dt tensor.DType) string {
	return "torch." + ops.TypeName(dt) + "Tensor"
}

// torchTensorString is how PyTorch 1.13's messages print a tensor
// argument: [ torch.FloatTensor{2,0,5} ].
func torchTensorString(x *array) string {
	s := make([]string, len(x.shape))
	for i, v := range x.shape {
		s[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("[ %s{%s} ]", torchTensorName(x.dtype), strings.Join(s, ","))
}

func newPadPlan(c *call) (*poolPadPlan, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	pad := c.attrs.Ints("pad", nil)
	mode := c.attrs.Str("mode", "")
	r := x.rank()
	if len(pad)%2 != 0 {
		return nil, fmt.Errorf("Padding length must be divisible by 2")
	}
	if len(pad) > 2*r {
		return nil, fmt.Errorf("Padding length too large")
	}
	nd := len(pad) / 2
	if nd < 1 || nd > 3 || (r != nd+1 && r != nd+2) {
		return nil, fmt.Errorf("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
	}
	// pl[j], pr[j]: the pads of spatial dimension j (of nd, in order)
	pl, pr := make([]int, nd), make([]int, nd)
	for j := 0; j < nd; j++ {
		pl[j], pr[j] = int(pad[2*(nd-1-j)]), int(pad[2*(nd-1-j)+1])
	}
	in := x.shape[r-nd:]
	out := make([]int, nd)
	for j := range out {
		out[j] = in[j] + pl[j] + pr[j]
	}
	switch mode {
	case "circular":
		if r != nd+2 {
			return nil, fmt.Errorf("Invalid padding size, expected %d but got %d", 2*(r-2), len(pad))
		}
		for j := 0; j < nd; j++ {
			if pl[j] > in[j] || pr[j] > in[j] {
				return nil, fmt.Errorf("Padding value causes wrapping around more than once.")
			}
			if out[j] < 0 {
				return nil, fmt.Errorf("Negative padding value is resulting in an empty dimension")
			}
		}
	case "reflect":
		if err := reflectChecks(x, nd, pl, pr, out); err != nil {
			return nil, err
		}
	case "replicate":
		if err := replicateChecks(x, nd, out); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("Unrecognised padding mode %s", mode)
	}
	p := &poolPadPlan{mode: mode}
	p.setGeom(x, nd, out)
	for j := 0; j < nd; j++ {
		k := 3 - nd + j
		n := in[j]
		m := make([]int, out[j])
		for o := range m {
			v := o - pl[j]
			switch mode {
			case "reflect":
				if v < 0 {
					v = -v
				} else if v >= n {
					v = 2*(n-1) - v
				}
			case "replicate":
				v = min(max(v, 0), n-1)
			default:
				// the input that negative pads leave, wrapped
				lo := max(-pl[j], 0)
				cs := n - lo - max(-pr[j], 0)
				v = o - max(pl[j], 0)
				if cs > 0 {
					v = ((v%cs)+cs)%cs + lo
				} else {
					v = 0
				}
			}
			m[o] = v
		}
		p.src[k] = m
	}
	for k := 0; k < 3-nd; k++ {
		p.src[k] = []int{0}
	}
	return p, nil
}

func reflectChecks(x *array, nd int, pl, pr, out []int) error {
	r := x.rank()
	sh := x.shape
	in := sh[r-nd:]
	nonEmpty := true
	for i := 1; i < r; i++ {
		nonEmpty = nonEmpty && sh[i] != 0
	}
	switch nd {
	case 1:
		if !nonEmpty {
			return fmt.Errorf("2D or 3D (batch mode) tensor expected for input, but got: %s", torchTensorString(x))
		}
		if pl[0] >= in[0] || pr[0] >= in[0] {
			return fmt.Errorf("Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %s",
				pl[0], pr[0], r-1, ops.ShapeList(sh))
		}
		if out[0] < 1 {
			return fmt.Errorf("2input (W: %d)is too small. Calculated output W: %d", in[0], out[0])
		}
	case 2:
		if !nonEmpty {
			return fmt.Errorf("3D or 4D (batch mode) tensor expected for input, but got: %s", torchTensorString(x))
		}
		if pl[1] >= in[1] || pr[1] >= in[1] {
			return fmt.Errorf("Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %d",
				pl[1], pr[1], r-1, r)
		}
		if pl[0] >= in[0] || pr[0] >= in[0] {
			return fmt.Errorf("Argument #6: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %d",
				pl[0], pr[0], r-2, r)
		}
		if out[0] < 1 && out[1] < 1 {
			return fmt.Errorf("input (H: %d, W: %d)is too small. Calculated output H: %d W: %d", in[0], in[1], out[0], out[1])
		}
	case 3:
		if !nonEmpty {
			return fmt.Errorf("Expected 4D or 5D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %s", ops.ShapeList(sh))
		}
		for _, j := range []int{2, 1, 0} {
			if pl[j] >= in[j] || pr[j] >= in[j] {
				return fmt.Errorf("Argument #%d: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %s",
					8-2*j, pl[j], pr[j], r-3+j, ops.ShapeList(sh))
			}
		}
		if out[0] < 1 && out[1] < 1 && out[2] < 1 {
			return fmt.Errorf("input (D: %d H: %d, W: %d) is too small. Calculated output D: %d H: %d W: %d", in[0], in[1], in[2], out[0], out[1], out[2])
		}
	}
	switch {
	case x.dtype == tensor.Float32 || x.dtype == tensor.Float64:
	case nd == 3 && (x.dtype == tensor.Float16 || x.dtype == tensor.BFloat16):
	case nd == 3:
		return nnNotImpl("reflection_pad3d_cpu", x.dtype)
	default:
		return nnNotImpl(fmt.Sprintf("reflection_pad%dd", nd), x.dtype)
	}
	return nil
}

func replicateChecks(x *array, nd int, out []int) error {
	r := x.rank()
	sh := x.shape
	in := sh[r-nd:]
	for i := 1; i < r; i++ {
		if sh[i] == 0 {
			return fmt.Errorf("Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %s",
				nd+1, nd+2, ops.ShapeList(sh))
		}
	}
	switch nd {
	case 1:
		if out[0] < 1 {
			return fmt.Errorf("input (W: %d) is too small. Calculated output W: %d", in[0], out[0])
		}
	case 2:
		if out[0] < 1 && out[1] < 1 {
			return fmt.Errorf("input (H: %d, W: %d ) is too small. Calculated output H: %d W: %d", in[0], in[1], out[0], out[1])
		}
	case 3:
		if out[0] < 1 && out[1] < 1 && out[2] < 1 {
			return fmt.Errorf("input (D: %d H: %d, W: %d) is too small. Calculated output D: %d H: %d W: %d", in[0], in[1], in[2], out[0], out[1], out[2])
		}
	}
	if x.dtype != tensor.Float32 && x.dtype != tensor.Float64 {
		return nnNotImpl(fmt.Sprintf("replication_pad%dd_cpu", nd), x.dtype)
	}
	return nil
}

// source is output o's input index within its plane.
func (p *poolPadPlan) source(o int) int {
	od, oh, ow := p.pos(o)
	return (p.src[0][od]*p.in[1]+p.src[1][oh])*p.in[2] + p.src[2][ow]
}

func padForward(c *call) ([]*array, error) {
	p, err := newPadPlan(c)
	if err != nil {
		return nil, err
	}
	out := &array{shape: p.outShape, data: float64sFor(p.planes * p.outPlane), dtype: p.x.dtype}
	forChunks(len(out.data), func(from, to int) error {
		for q := from; q < to; q++ {
			pl, o := q/p.outPlane, q%p.outPlane
			out.data[q] = p.x.data[pl*p.inPlane+p.source(o)]
		}
		return nil
	})
	return []*array{out}, nil
}

func padBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	p, err := newPadPlan(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], p.planes*p.outPlane)
	gx := zeros(len(p.x.data))
	// reflect and replicate add at the dtype (reflection_pad3d's half
	// types too); circular is a composite of copies (exact sums, rounded
	// once)
	ar := arithF64
	if p.mode != "circular" {
		ar = p.arith
	}
	parallelPlanes(p.planes, func(pl int) {
		dst := gx[pl*p.inPlane : (pl+1)*p.inPlane]
		src := g[pl*p.outPlane : (pl+1)*p.outPlane]
		for o, v := range src {
			k := p.source(o)
			switch ar {
			case arithF16:
				dst[k] = float64(f16Round(float32(dst[k]) + float32(v)))
			case arithBF16:
				dst[k] = float64(bf16Round(float32(dst[k]) + float32(v)))
			case arithF32:
				dst[k] = float64(float32(dst[k]) + float32(v))
			default:
				dst[k] += v
			}
		}
	})
	return []*array{gradForOwned(c, 0, gx, p.x.shape)}, nil
}
