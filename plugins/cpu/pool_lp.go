package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// F.lp_pool1d/lp_pool2d (op lp_pool): PyTorch 1.13's Python composite
//
//	a = avg_pool(x.pow(p), kernel_size, stride, 0, ceil_mode)
//	(sign(a)·relu(|a|)).mul(K).pow(1/p)
//
// with K the window size, every step rounded to the input's dtype and
// the Python numbers (p, 1/p, the exponents of the backward) converted to
// it first, as PyTorch 1.13 does also at bfloat16 (the
// average pool as avg_pool2d computes it, avg_pool1d being avg_pool2d of
// the input with a unit dimension), and its backward the chain of the
// steps' autograd formulas, also rounded step by step: pow's
// g·(e·y^(e−1)), mul's g·K, sign·relu(|a|)'s g where a ≠ 0, avg_pool's
// and pow's again.

func init() {
	register("lp_pool", &kernel{forward: lpPoolForward, backward: lpPoolBackward})
	supportDTypes("lp_pool", tensor.Float64, tensor.Float32, tensor.BFloat16)
}

type lpPool struct {
	p     float64
	ap    *avgPoolN
	k     float64 // the window size K
	dt    tensor.DType
	x     *array
	oneD  bool
	y1    *array // x^p, rounded
	shape []int  // the output's shape
}

// rd rounds to the pool's dtype.
func (l *lpPool) rd(v float64) float64 { return roundTo(l.dt, v) }

// pow is x^e at the dtype: PyTorch 1.13 converts the Python exponent
// to the tensor's dtype first (bfloat16 too).
func (l *lpPool) pow(x, e float64) float64 {
	e = l.rd(e)
	if l.dt == tensor.Float64 {
		return math.Pow(x, e)
	}
	// pow's special exponents, at float32 with x·x rounded to the dtype
	// (measured)
	f := float32(x)
	var r float32
	switch e {
	case 0.5:
		r = float32(math.Sqrt(float64(f)))
	case -0.5:
		r = 1 / float32(math.Sqrt(float64(f)))
	case 2:
		r = f * f
	case 3:
		r = float32(l.rd(float64(f*f))) * f
	case -1:
		r = 1 / f
	case -2:
		r = 1 / float32(l.rd(float64(f*f)))
	default:
		return l.rd(math.Pow(x, e))
	}
	return l.rd(float64(r))
}

func newLpPool(c *call) (*lpPool, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	if !x.dtype.IsFloat() {
		return nil, fmt.Errorf("lp_pool: integer input (%s) is not supported", ops.TypeName(x.dtype))
	}
	k := c.attrs.Ints("kernel_size", nil)
	l := &lpPool{p: c.attrs.Float("norm_type", 2), dt: x.dtype, x: x, oneD: len(k) == 1}
	l.y1 = &array{shape: x.shape, data: float64sFor(len(x.data)), dtype: x.dtype}
	for i, v := range x.data {
		l.y1.data[i] = l.pow(v, l.p)
	}
	attrs := ops.Attrs{"kernel_size": c.attrs["kernel_size"], "stride": c.attrs["stride"], "padding": ops.IntsAttr(0),
		"ceil_mode": ops.BoolAttr(c.attrs.Bool("ceil_mode", false)), "count_include_pad": ops.BoolAttr(true), "divisor_override": ops.NoneAttr()}
	in := l.y1
	if l.oneD {
		// avg_pool1d's checks, then avg_pool2d of the unsqueezed input
		if _, err := newAvgPool1d(&call{op: "avg_pool1d", attrs: attrs, in: []*array{in}}); err != nil {
			return nil, err
		}
		in = nnUnsqueezed(in)
		attrs["kernel_size"] = ops.IntsAttr(1, k[0])
		attrs["stride"] = ops.IntsAttr(1, c.attrs.Ints("stride", k)[0])
		attrs["padding"] = ops.IntsAttr(0, 0)
	}
	if l.ap, err = newAvgPoolN(&call{op: "avg_pool2d", attrs: attrs, in: []*array{in}, requiresGrad: []bool{true}}, 2); err != nil {
		return nil, err
	}
	l.k = 1
	for _, v := range k {
		l.k *= float64(v)
	}
	l.shape = l.ap.outShape
	if l.oneD {
		l.shape = append(append([]int{}, l.ap.outShape[:len(l.ap.outShape)-2]...), l.ap.outShape[len(l.ap.outShape)-1])
	}
	return l, nil
}

func (l *lpPool) avgIn() *array {
	if l.oneD {
		return nnUnsqueezed(l.y1)
	}
	return l.y1
}

func (l *lpPool) avgAttrs() ops.Attrs {
	a := l.ap
	return ops.Attrs{"kernel_size": ops.IntsAttr(int64(a.k[1]), int64(a.k[2])), "stride": ops.IntsAttr(int64(a.s[1]), int64(a.s[2])),
		"padding": ops.IntsAttr(0, 0), "ceil_mode": ops.BoolAttr(false), "count_include_pad": ops.BoolAttr(true), "divisor_override": ops.NoneAttr()}
}

func lpPoolForward(c *call) ([]*array, error) {
	l, err := newLpPool(c)
	if err != nil {
		return nil, err
	}
	_, y4, err := l.pooledWithCeil(c)
	if err != nil {
		return nil, err
	}
	out := &array{shape: l.shape, data: float64sFor(len(y4)), dtype: l.dt}
	for i, v := range y4 {
		out.data[i] = math.Pow(v, l.exp())
	}
	return []*array{out}, nil
}

// exp is 1/p as the dtype's pow reads it.
func (l *lpPool) exp() float64 { return l.rd(1.0 / l.p) }

// pooledWithCeil runs pooled with the call's ceil_mode.
func (l *lpPool) pooledWithCeil(c *call) (a, y4 []float64, err error) {
	attrs := l.avgAttrs()
	attrs["ceil_mode"] = ops.BoolAttr(c.attrs.Bool("ceil_mode", false))
	outs, err := avgPoolNForward(2)(&call{op: "avg_pool2d", attrs: attrs, in: []*array{l.avgIn()}})
	if err != nil {
		return nil, nil, err
	}
	a = outs[0].data
	y4 = make([]float64, len(a))
	for i := range a {
		a[i] = l.rd(a[i])
		y4[i] = l.rd(a[i] * l.k)
	}
	return a, y4, nil
}

func lpPoolBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	l, err := newLpPool(c)
	if err != nil {
		return nil, err
	}
	a, y4, err := l.pooledWithCeil(c)
	if err != nil {
		return nil, err
	}
	g := gradData(gos[0], len(a))
	e := 1.0 / l.p
	g2 := make([]float64, len(a))
	for i := range a {
		// pow: g·(e·y4^(e−1)); mul: ·K; sign·relu(|a|): where a ≠ 0
		var g4 float64
		if e != 0 {
			g4 = l.rd(g[i] * l.rd(l.scalar(e)*l.pow(y4[i], e-1)))
		}
		g3 := l.rd(g4 * l.k)
		if a[i] != 0 {
			g2[i] = g3
		}
	}
	attrs := l.avgAttrs()
	attrs["ceil_mode"] = ops.BoolAttr(c.attrs.Bool("ceil_mode", false))
	in := l.avgIn()
	gap := &array{shape: append([]int{}, l.ap.outShape...), data: g2, dtype: l.dt}
	grads, err := avgPoolNBackward(2)(&call{op: "avg_pool2d", attrs: attrs, in: []*array{in}, requiresGrad: []bool{true}}, nil, []*array{gap})
	if err != nil {
		return nil, err
	}
	g1 := grads[0].data
	gx := float64sFor(len(l.x.data))
	for i, v := range l.x.data {
		var d float64
		if l.p != 0 {
			d = l.rd(l.scalar(l.p) * l.pow(v, l.p-1))
		}
		gx[i] = l.rd(l.rd(g1[i]) * d)
	}
	return []*array{gradForOwned(c, 0, gx, l.x.shape)}, nil
}

// scalar is a Python number as the dtype's kernels read it: converted to
// the dtype (bfloat16 too).
func (l *lpPool) scalar(v float64) float64 { return l.rd(v) }
