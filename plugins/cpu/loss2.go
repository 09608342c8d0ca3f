package cpu

// The loss2 family (sdk/ops/schema_loss2.go): binary cross entropy with
// logits, KL divergence, the margin and embedding losses, Poisson and
// Gaussian NLL, soft margin losses, as PyTorch 1.13's CPU computes them.
// Elementwise steps round at the result dtype the way PyTorch's chain of
// tensor operations does (loss2Rounder; the identity at float64, so the
// bench is exact); reductions sum in float64.

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// loss2NoHalf are the dtypes of the ops whose PyTorch 1.13 CPU kernels
// refuse float16 (clamp_min, exp, sqrt have no Half kernel).
var loss2NoHalf = []tensor.DType{tensor.Float64, tensor.Float32, tensor.BFloat16}

func init() {
	register("binary_cross_entropy_with_logits", &kernel{forward: loss2BCEForward, backward: loss2BCEBackward})
	supportDTypes("binary_cross_entropy_with_logits", loss2NoHalf...)
	register("kl_div", &kernel{forward: loss2KLForward, backward: loss2KLBackward})
	register("margin_ranking_loss", &kernel{forward: loss2MarginRankingForward, backward: loss2MarginRankingBackward})
	supportDTypes("margin_ranking_loss", loss2NoHalf...)
	register("hinge_embedding_loss", &kernel{forward: loss2HingeForward, backward: loss2HingeBackward})
	supportDTypes("hinge_embedding_loss", loss2NoHalf...)
	register("soft_margin_loss", &kernel{forward: loss2SoftMarginForward, backward: loss2SoftMarginBackward})
	supportDTypes("soft_margin_loss", loss2NoHalf...)
	register("poisson_nll_loss", &kernel{forward: loss2PoissonForward, backward: loss2PoissonBackward})
	supportDTypes("poisson_nll_loss", loss2NoHalf...)
	register("gaussian_nll_loss", &kernel{forward: loss2GaussianForward, backward: loss2GaussianBackward})
	supportDTypes("gaussian_nll_loss", loss2NoHalf...)
	register("multilabel_soft_margin_loss", &kernel{forward: loss2MLSoftForward, backward: loss2MLSoftBackward})
	supportDTypes("multilabel_soft_margin_loss", loss2NoHalf...)
}

// loss2Rounder returns rounding of one value to dtype d the way a PyTorch
// CPU tensor operation stores its result: float32 directly, the half types
// through float32 (their opmath type); the identity otherwise.
func loss2Rounder(d tensor.DType) func(float64) float64 {
	switch d {
	case tensor.Float32:
		return func(v float64) float64 { return float64(float32(v)) }
	case tensor.BFloat16:
		return loss2BF16
	case tensor.Float16:
		return func(v float64) float64 { return tensor.Float16Value(tensor.Float16Bits(float64(float32(v)))) }
	}
	return func(v float64) float64 { return v }
}

// loss2BF16 rounds v to float32, then to bfloat16 (to nearest, ties to
// even), as a PyTorch bfloat16 operation stores its float result.
func loss2BF16(v float64) float64 {
	f := float32(v)
	if f != f {
		return v
	}
	b := math.Float32bits(f)
	b += 0x7FFF + (b>>16)&1
	return float64(math.Float32frombits(b &^ 0xFFFF))
}

// loss2Red reads and checks the reduction attribute; batchmean is accepted
// where batch is true (kl_div).
func loss2Red(c *call, batch bool) (string, error) {
	r := c.attrs.Str("reduction", "mean")
	switch r {
	case "none", "mean", "sum":
		return r, nil
	case "batchmean":
		if batch {
			return r, nil
		}
	}
	return "", fmt.Errorf("%s is not a valid value for reduction", r)
}

// loss2Reduce turns per-element losses (already at dtype dt) of the given
// shape into the output: the losses themselves, their sum, or their mean
// (NaN when empty). batchmean divides the sum by batch.
func loss2Reduce(per []float64, shape []int, dt tensor.DType, red string, batch int) *array {
	if red == "none" {
		return &array{shape: append([]int{}, shape...), data: per, dtype: dt}
	}
	s := 0.0
	for _, v := range per {
		s += v
	}
	r := loss2Rounder(dt)
	switch red {
	case "mean":
		s = r(s) / float64(len(per))
	case "batchmean":
		s = r(s) / float64(batch)
	}
	return &array{shape: []int{}, data: []float64{r(s)}, dtype: dt}
}

// loss2GradScale spreads the output gradient over n per-element losses:
// the gradient of each element's loss.
func loss2GradScale(g *array, n int, red string, batch int) []float64 {
	out := float64sFor(n)
	if red == "none" {
		copy(out, gradData(g, n))
		return out
	}
	v := 0.0
	if g != nil {
		v = g.data[0]
	}
	switch red {
	case "mean":
		v /= float64(n)
	case "batchmean":
		v /= float64(batch)
	}
	for i := range out {
		out[i] = v
	}
	return out
}

// loss2Floats returns the promoted dtype of the non-nil inputs, which
// must be floating (an integer or bool target promotes with a floating
// input); kernelName names PyTorch's kernel in the error otherwise.
func loss2Floats(kernelName string, arrs ...*array) (tensor.DType, error) {
	dt := nnPromote(arrs...)
	if !dt.IsFloat() {
		if kernelName == "" {
			kernelName = "loss"
		}
		return tensor.Invalid, nnNotImpl(kernelName, dt)
	}
	return dt, nil
}

// loss2Elem is an elementwise loss: inputs broadcast, at the result dtype.
type loss2Elem struct {
	o     *operands
	v     [][]float64 // per operand, its values at every element (nil: absent)
	n     int
	dt    tensor.DType
	r     func(float64) float64
	red   string
	batch int
}

func loss2NewElem(c *call, kernelName string, batch bool, in ...*array) (*loss2Elem, error) {
	dt, err := loss2Floats(kernelName, in...)
	if err != nil {
		return nil, err
	}
	red, err := loss2Red(c, batch)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Float16 && kernelName != "" {
		return nil, notImplemented(kernelName, dt)
	}
	o, err := broadcastOperands(dt, in...)
	if err != nil {
		return nil, err
	}
	e := &loss2Elem{o: o, n: tensor.NumElements(o.shape), dt: dt, r: loss2Rounder(dt), red: red, batch: 1}
	// every operand as a full-length slice (its own values when it needs
	// no broadcast): direct indexing in the element loops
	e.v = make([][]float64, len(in))
	for i, a := range in {
		if a != nil {
			e.v[i] = nnExpand(&array{shape: a.shape, data: o.vals[i], dtype: dt}, o.shape)
		}
	}
	if red == "batchmean" {
		// F.kl_div divides the sum by input.size(0) (0/0 is NaN); a 0-d
		// input keeps the sum
		if len(in[0].shape) == 0 {
			e.red = "sum"
		} else {
			e.batch = in[0].shape[0]
		}
	}
	return e, nil
}

// each computes per[k] = f(k) over the broadcast elements and reduces.
func (e *loss2Elem) each(f func(k int) float64) *array {
	per := float64sFor(e.n)
	forChunks(e.n, func(from, to int) error {
		for k := from; k < to; k++ {
			per[k] = f(k)
		}
		return nil
	})
	return loss2Reduce(per, e.o.shape, e.dt, e.red, e.batch)
}

// grads computes, for each element k with element gradient gk, the
// gradient of every input (f writes them into d, one per input) and
// reduces them to the inputs' shapes; inputs without a gradient get nil.
func (e *loss2Elem) grads(c *call, g *array, nin int, f func(k int, gk float64, d []float64)) []*array {
	gk := loss2GradScale(g, e.n, e.red, e.batch)
	bufs := make([][]float64, nin)
	for i := range bufs {
		if i < len(c.in) && c.in[i] != nil && c.requiresGrad[i] {
			bufs[i] = float64sFor(e.n)
		}
	}
	forChunks(e.n, func(from, to int) error {
		d := make([]float64, nin)
		for k := from; k < to; k++ {
			for i := range d {
				d[i] = 0
			}
			f(k, gk[k], d)
			for i, b := range bufs {
				if b != nil {
					b[k] = d[i]
				}
			}
		}
		return nil
	})
	out := make([]*array, len(c.in))
	for i, b := range bufs {
		if b != nil {
			out[i] = gradForOwned(c, i, b, e.o.shape)
		}
	}
	return out
}

// ---- binary_cross_entropy_with_logits ----

// loss2BCE holds the operands: x, t, weight, pos_weight (the last two may
// be nil); the loss takes target's shape and dtype.
func loss2BCE(c *call) (*loss2Elem, error) {
	x, t, w, pw := c.in[0], c.in[1], nnInput(c, 2), nnInput(c, 3)
	e, err := loss2NewElem(c, "", false, x, t, w, pw)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(e.o.shape, t.shape) {
		return nil, fmt.Errorf("output with shape %s doesn't match the broadcast shape %s", ops.ShapeList(t.shape), ops.ShapeList(e.o.shape))
	}
	if !t.dtype.IsFloat() {
		return nil, fmt.Errorf("result type %s can't be cast to the desired output type %s", ops.TypeName(e.dt), ops.TypeName(t.dtype))
	}
	if t.dtype == tensor.Float16 || e.dt == tensor.Float16 {
		return nil, notImplemented("clamp_min_cpu", tensor.Float16)
	}
	e.dt = t.dtype
	e.r = loss2Rounder(t.dtype)
	return e, nil
}

func loss2BCEForward(c *call) ([]*array, error) {
	e, err := loss2BCE(c)
	if err != nil {
		return nil, err
	}
	r, o := e.r, e.v
	hasW, hasPW := c.in[2] != nil, len(c.in) > 3 && c.in[3] != nil
	return []*array{e.each(func(k int) float64 {
		x, t := o[0][k], o[1][k]
		mv := r(math.Max(-x, 0))
		if math.IsNaN(x) {
			mv = x
		}
		inner := r(math.Log(r(r(math.Exp(-mv)) + r(math.Exp(r(-x-mv))))))
		var l float64
		if hasPW {
			lw := r(r(r(o[3][k]-1)*t) + 1)
			l = r(r(r(1-t)*x) + r(lw*r(inner+mv)))
		} else {
			l = r(r(r(r(1-t)*x)+mv) + inner)
		}
		if hasW {
			l = r(l * o[2][k])
		}
		return l
	})}, nil
}

func loss2BCEBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, err := loss2BCE(c)
	if err != nil {
		return nil, err
	}
	o := e.v
	hasW, hasPW := c.in[2] != nil, len(c.in) > 3 && c.in[3] != nil
	return e.grads(c, gos[0], len(c.in), func(k int, g float64, d []float64) {
		x, t := o[0][k], o[1][k]
		w := 1.0
		if hasW {
			w = o[2][k]
		}
		if hasPW {
			pw := o[3][k]
			pt := pw * t
			d[0] = ((pt+1-t)*sigmoid(x) - pt) * w * g
			d[1] = (loss2LogSigmoid(-x) - loss2LogSigmoid(x)*pw) * w * g
		} else {
			d[0] = (sigmoid(x) - t) * w * g
			d[1] = -x * w * g
		}
	}), nil
}

// loss2LogSigmoid is log(σ(x)) = −softplus(−x), stable for large |x|.
func loss2LogSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// ---- kl_div ----

func loss2KL(c *call) (*loss2Elem, error) {
	x, t := c.in[0], c.in[1]
	for _, a := range []*array{x, t} {
		if !a.dtype.IsFloat() {
			return nil, fmt.Errorf("kl_div: Integral inputs not supported.")
		}
	}
	if err := loss2TargetFirst(t, x); err != nil {
		return nil, err
	}
	if c.attrs.Bool("log_target", false) && nnPromote(x, t) == tensor.Float16 {
		return nil, notImplemented("exp_vml_cpu", tensor.Float16)
	}
	return loss2NewElem(c, "", true, x, t)
}

// loss2TargetFirst is the broadcasting error PyTorch reports where its
// first operation combines target with input, in that order.
func loss2TargetFirst(t, x *array) error {
	_, err := ops.BroadcastShapes(t.shape, x.shape)
	return err
}

// loss2Xlogy is xlogy(t, t): 0 where t is 0, NaN where t is NaN.
func loss2Xlogy(t float64) float64 {
	if t == 0 {
		return 0
	}
	return t * math.Log(t)
}

func loss2KLForward(c *call) ([]*array, error) {
	e, err := loss2KL(c)
	if err != nil {
		return nil, err
	}
	r, o := e.r, e.v
	if c.attrs.Bool("log_target", false) {
		return []*array{e.each(func(k int) float64 {
			x, t := o[0][k], o[1][k]
			return r(r(math.Exp(t)) * r(t-x))
		})}, nil
	}
	xlogy := loss2Xlogy
	if e.dt == tensor.BFloat16 {
		// xlogy's scalar kernel at bfloat16 (PyTorch 1.13): std::log of a
		// BFloat16 returns a BFloat16, so log(t) is rounded before the product
		xlogy = func(t float64) float64 {
			if t == 0 {
				return 0
			}
			return t * r(math.Log(t))
		}
	}
	return []*array{e.each(func(k int) float64 {
		x, t := o[0][k], o[1][k]
		return r(r(xlogy(t)) - r(t*x))
	})}, nil
}

func loss2KLBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, err := loss2KL(c)
	if err != nil {
		return nil, err
	}
	o := e.v
	logT := c.attrs.Bool("log_target", false)
	return e.grads(c, gos[0], 2, func(k int, g float64, d []float64) {
		x, t := o[0][k], o[1][k]
		if logT {
			et := math.Exp(t)
			d[0] = -et * g
			d[1] = et * (t - x + 1) * g
			return
		}
		d[0] = -t * g
		// xlogy's derivative: xlogy(t ≠ 0, t) + t/t (NaN at t = 0)
		lt := 0.0
		if t != 0 {
			lt = math.Log(t)
		}
		d[1] = (lt + t/t - x) * g
	}), nil
}

// ---- margin_ranking_loss ----

func loss2MarginRanking(c *call) (*loss2Elem, error) {
	return loss2NewElem(c, "clamp_min_cpu", false, c.in[0], c.in[1], c.in[2])
}

func loss2MarginRankingForward(c *call) ([]*array, error) {
	e, err := loss2MarginRanking(c)
	if err != nil {
		return nil, err
	}
	r, o, m := e.r, e.v, c.attrs.Float("margin", 0)
	return []*array{e.each(func(k int) float64 {
		v := r(r(-o[2][k]*r(o[0][k]-o[1][k])) + m)
		return loss2ClampMin(v)
	})}, nil
}

// loss2ClampMin is clamp_min(v, 0) (NaN propagates).
func loss2ClampMin(v float64) float64 {
	if v < 0 {
		return 0
	}
	return v
}

func loss2MarginRankingBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, err := loss2MarginRanking(c)
	if err != nil {
		return nil, err
	}
	r, o, m := e.r, e.v, c.attrs.Float("margin", 0)
	return e.grads(c, gos[0], 3, func(k int, g float64, d []float64) {
		t, diff := o[2][k], r(o[0][k]-o[1][k])
		v := r(r(-t*diff) + m)
		if !(v >= 0) {
			return // clamp_min passes the gradient where v ≥ min
		}
		d[0] = -t * g
		d[1] = t * g
		d[2] = -diff * g
	}), nil
}

// ---- hinge_embedding_loss ----

func loss2Hinge(c *call) (*loss2Elem, error) {
	if err := loss2TargetFirst(c.in[1], c.in[0]); err != nil {
		return nil, err
	}
	return loss2NewElem(c, "clamp_min_cpu", false, c.in[0], c.in[1])
}

func loss2HingeForward(c *call) ([]*array, error) {
	e, err := loss2Hinge(c)
	if err != nil {
		return nil, err
	}
	r, o, m := e.r, e.v, c.attrs.Float("margin", 1)
	return []*array{e.each(func(k int) float64 {
		x, t := o[0][k], o[1][k]
		a, b := 0.0, 0.0
		if t != 1 {
			a = loss2ClampMin(r(m - x))
		}
		if t != -1 {
			b = x
		}
		return r(a + b)
	})}, nil
}

func loss2HingeBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, err := loss2Hinge(c)
	if err != nil {
		return nil, err
	}
	r, o, m := e.r, e.v, c.attrs.Float("margin", 1)
	gs := e.grads(c, gos[0], 2, func(k int, g float64, d []float64) {
		x, t := o[0][k], o[1][k]
		if t != 1 && r(m-x) >= 0 {
			d[0] -= g
		}
		if t != -1 {
			d[0] += g
		}
	})
	gs[1] = nil // target only selects (where's condition)
	return gs, nil
}

// ---- soft_margin_loss ----

func loss2SoftMargin(c *call) (*loss2Elem, error) {
	e, err := loss2NewElem(c, "exp_vml_cpu", false, c.in[0], c.in[1])
	if err == nil && !slices.Equal(e.o.shape, c.in[0].shape) {
		// PyTorch writes the loss into a tensor of input's shape
		return nil, fmt.Errorf("output with shape %s doesn't match the broadcast shape %s", ops.ShapeList(c.in[0].shape), ops.ShapeList(e.o.shape))
	}
	return e, err
}

func loss2SoftMarginForward(c *call) ([]*array, error) {
	e, err := loss2SoftMargin(c)
	if err != nil {
		return nil, err
	}
	r, o := e.r, e.v
	return []*array{e.each(func(k int) float64 {
		return r(math.Log1p(r(math.Exp(r(-o[0][k] * o[1][k])))))
	})}, nil
}

func loss2SoftMarginBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, err := loss2SoftMargin(c)
	if err != nil {
		return nil, err
	}
	o := e.v
	return e.grads(c, gos[0], 2, func(k int, g float64, d []float64) {
		x, t := o[0][k], o[1][k]
		z := math.Exp(-x * t)
		s := z / (1 + z)
		if math.IsInf(z, 1) {
			s = 1
		}
		d[0] = -t * s * g
		d[1] = -x * s * g
	}), nil
}

// ---- poisson_nll_loss ----

func loss2Poisson(c *call) (*loss2Elem, error) {
	name := "exp_vml_cpu"
	if !c.attrs.Bool("log_input", true) {
		name = "log_vml_cpu"
	}
	if err := loss2TargetFirst(c.in[1], c.in[0]); err != nil {
		return nil, err
	}
	return loss2NewElem(c, name, false, c.in[0], c.in[1])
}

func loss2PoissonForward(c *call) ([]*array, error) {
	e, err := loss2Poisson(c)
	if err != nil {
		return nil, err
	}
	r, o := e.r, e.v
	logIn, full, eps := c.attrs.Bool("log_input", true), c.attrs.Bool("full", false), c.attrs.Float("eps", 1e-8)
	return []*array{e.each(func(k int) float64 {
		x, t := o[0][k], o[1][k]
		var l float64
		if logIn {
			l = r(r(math.Exp(x)) - r(t*x))
		} else {
			l = r(x - r(t*r(math.Log(r(x+eps)))))
		}
		if full {
			st := 0.0
			if !(t <= 1) {
				st = r(r(r(t*r(math.Log(t)))-t) + r(0.5*r(math.Log(r(2*math.Pi*t)))))
			}
			l = r(l + st)
		}
		return l
	})}, nil
}

func loss2PoissonBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, err := loss2Poisson(c)
	if err != nil {
		return nil, err
	}
	o := e.v
	logIn, full, eps := c.attrs.Bool("log_input", true), c.attrs.Bool("full", false), c.attrs.Float("eps", 1e-8)
	return e.grads(c, gos[0], 2, func(k int, g float64, d []float64) {
		x, t := o[0][k], o[1][k]
		if logIn {
			d[0] = (math.Exp(x) - t) * g
			d[1] = -x * g
		} else {
			d[0] = (1 - t/(x+eps)) * g
			d[1] = -math.Log(x+eps) * g
		}
		if full {
			switch {
			case t > 1:
				d[1] += (math.Log(t) + 0.5/t) * g
			case !(t > 0):
				// masked_fill's zero gradient times log(t) and 1/t
				d[1] = math.NaN()
			}
		}
	}), nil
}

// ---- gaussian_nll_loss ----

// loss2Gaussian checks var's shape (input's, or input's without or with 1
// as its last size) and returns the operands with var viewed so that it
// broadcasts.
func loss2Gaussian(c *call) (*loss2Elem, *array, error) {
	x, t, v := c.in[0], c.in[1], c.in[2]
	vv := v
	if !slices.Equal(v.shape, x.shape) {
		switch {
		case len(x.shape) > 0 && slices.Equal(x.shape[:len(x.shape)-1], v.shape):
			vv = &array{shape: append(append([]int{}, v.shape...), 1), data: v.data, dtype: v.dtype}
		case len(x.shape) > 0 && len(v.shape) > 0 && slices.Equal(x.shape[:len(x.shape)-1], v.shape[:len(v.shape)-1]) && v.shape[len(v.shape)-1] == 1:
		default:
			return nil, nil, fmt.Errorf("var is of incorrect size")
		}
	}
	if _, err := loss2Red(c, false); err != nil {
		return nil, nil, fmt.Errorf("%s is not valid", c.attrs.Str("reduction", "mean"))
	}
	for _, a := range v.data {
		if a < 0 {
			return nil, nil, fmt.Errorf("var has negative entry/entries")
		}
	}
	e, err := loss2NewElem(c, "clamp_min_cpu", false, x, t, vv)
	return e, vv, err
}

func loss2GaussianForward(c *call) ([]*array, error) {
	e, _, err := loss2Gaussian(c)
	if err != nil {
		return nil, err
	}
	r, o := e.r, e.v
	full, eps := c.attrs.Bool("full", false), c.attrs.Float("eps", 1e-6)
	half := r(0.5 * math.Log(2*math.Pi))
	return []*array{e.each(func(k int) float64 {
		x, t, v := o[0][k], o[1][k], o[2][k]
		if v < eps {
			v = r(eps)
		}
		d := r(x - t)
		l := r(0.5 * r(r(math.Log(v))+r(r(d*d)/v)))
		if full {
			l = r(l + half)
		}
		return l
	})}, nil
}

func loss2GaussianBackward(c *call, outs, gos []*array) ([]*array, error) {
	e, vv, err := loss2Gaussian(c)
	if err != nil {
		return nil, err
	}
	o, r := e.v, e.r
	eps := c.attrs.Float("eps", 1e-6)
	// var's gradient goes to the viewed var (its values are var's own),
	// then takes var's shape
	orig := c.in[2]
	c.in[2] = vv
	defer func() { c.in[2] = orig }()
	gs := e.grads(c, gos[0], 3, func(k int, g float64, d []float64) {
		x, t, v := o[0][k], o[1][k], o[2][k]
		if v < eps {
			v = r(eps)
		}
		df := x - t
		d[0] = df / v * g
		d[1] = -df / v * g
		d[2] = 0.5 * (1/v - df*df/(v*v)) * g
	})
	if gs[2] != nil {
		gs[2].shape = append([]int{}, orig.shape...)
	}
	return gs, nil
}

// ---- multilabel_soft_margin_loss ----

// loss2MLSoft is F.multilabel_soft_margin_loss: elementwise losses over the
// broadcast of input, target and weight, summed over input's last dim.
type loss2MLSoft struct {
	*loss2Elem
	lines nnLines
	c     int // the class count the sum divides by
	out   []int
}

func loss2NewMLSoft(c *call) (*loss2MLSoft, error) {
	x := c.in[0]
	if len(x.shape) == 0 {
		return nil, fmt.Errorf("Dimension out of range (expected to be in range of [-1, 0], but got -1)")
	}
	if err := loss2TargetFirst(c.in[1], x); err != nil {
		return nil, err
	}
	e, err := loss2NewElem(c, "", false, x, c.in[1], nnInput(c, 2))
	if err != nil {
		return nil, err
	}
	if e.dt == tensor.Float16 {
		return nil, notImplemented("log_sigmoid_cpu", e.dt)
	}
	// F.multilabel_soft_margin_loss sums the broadcast loss over dim
	// input.dim() − 1, counted from the front
	dim := len(x.shape) - 1
	return &loss2MLSoft{loss2Elem: e, lines: newNNLines(e.o.shape, dim), c: x.shape[len(x.shape)-1],
		out: nnReducedShape(e.o.shape, dim, false)}, nil
}

func loss2MLSoftForward(c *call) ([]*array, error) {
	m, err := loss2NewMLSoft(c)
	if err != nil {
		return nil, err
	}
	r, o := m.r, m.v
	hasW := nnInput(c, 2) != nil
	el := float64sFor(m.n)
	forChunks(m.n, func(from, to int) error {
		for k := from; k < to; k++ {
			x, t := o[0][k], o[1][k]
			a := r(t * r(loss2LogSigmoid(x)))
			b := r(r(1-t) * r(loss2LogSigmoid(-x)))
			l := -r(a + b)
			if hasW {
				l = r(l * o[2][k])
			}
			el[k] = l
		}
		return nil
	})
	per := float64sFor(m.lines.count())
	cf := float64(m.c)
	for q := range per {
		base, st := m.lines.line(q)
		s := 0.0
		for i, k := 0, base; i < m.lines.n; i, k = i+1, k+st {
			s += el[k]
		}
		per[q] = r(r(s) / cf)
	}
	return []*array{loss2Reduce(per, m.out, m.dt, m.red, 1)}, nil
}

func loss2MLSoftBackward(c *call, outs, gos []*array) ([]*array, error) {
	m, err := loss2NewMLSoft(c)
	if err != nil {
		return nil, err
	}
	o := m.v
	hasW := nnInput(c, 2) != nil
	gq := loss2GradScale(gos[0], m.lines.count(), m.red, 1)
	// the element gradient: gq of its line over C
	ge := &array{shape: append([]int{}, m.o.shape...), data: float64sFor(m.n), dtype: tensor.Float64}
	cf := float64(m.c)
	for q := range gq {
		base, st := m.lines.line(q)
		for i, k := 0, base; i < m.lines.n; i, k = i+1, k+st {
			ge.data[k] = gq[q] / cf
		}
	}
	m.red = "none"
	return m.grads(c, ge, 3, func(k int, g float64, d []float64) {
		x, t := o[0][k], o[1][k]
		w := 1.0
		if hasW {
			w = o[2][k]
		}
		d[0] = (sigmoid(x) - t) * w * g
		d[1] = -x * w * g
		d[2] = -(t*loss2LogSigmoid(x) + (1-t)*loss2LogSigmoid(-x)) * g
	}), nil
}

// ---- cosine_embedding_loss ----

// loss2CosEps is ATen's EPSILON of cosine_embedding_loss, a float 1e-12.
var loss2CosEps = float64(float32(1e-12))

// loss2Cos holds cosine_embedding_loss's cosines: x1 and x2 broadcast,
// reduced along their last dim (1-D inputs with a 0-d target, 2-D with a
// 1-D one).
type loss2Cos struct {
	shape                []int // broadcast shape of x1 and x2
	lines                nnLines
	x1, x2               []float64
	ps, m1, m2, den, cos []float64
	cosShape             []int
	r                    func(float64) float64
	dt                   tensor.DType
}

func loss2NewCos(c *call) (*loss2Cos, error) {
	x1, x2, t := c.in[0], c.in[1], c.in[2]
	td := len(t.shape)
	switch td {
	case 1:
		if len(x1.shape) != 2 || len(x2.shape) != 2 {
			return nil, fmt.Errorf("1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s.", ops.ShapeList(x1.shape), ops.ShapeList(x2.shape))
		}
	case 0:
		if len(x1.shape) != 1 || len(x2.shape) != 1 {
			return nil, fmt.Errorf("0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.", ops.ShapeList(x1.shape), ops.ShapeList(x2.shape))
		}
	default:
		return nil, fmt.Errorf("0D or 1D target tensor expected, multi-target not supported")
	}
	dt, err := loss2Floats("", x1, x2, t)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Float16 {
		return nil, notImplemented("sqrt_vml_cpu", dt)
	}
	shape, err := ops.BroadcastShapes(x1.shape, x2.shape)
	if err != nil {
		return nil, err
	}
	p := &loss2Cos{shape: shape, lines: newNNLines(shape, td), x1: castValues(&array{shape: x1.shape, data: nnExpand(x1, shape), dtype: x1.dtype}, dt),
		x2: castValues(&array{shape: x2.shape, data: nnExpand(x2, shape), dtype: x2.dtype}, dt), r: loss2Rounder(dt), dt: dt,
		cosShape: nnReducedShape(shape, td, false)}
	n := p.lines.count()
	p.ps, p.m1, p.m2, p.den, p.cos = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	r := p.r
	forChunks(n, func(from, to int) error {
		for q := from; q < to; q++ {
			base, st := p.lines.line(q)
			var s, a, b float64
			for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
				s += r(p.x1[k] * p.x2[k])
				a += r(p.x1[k] * p.x1[k])
				b += r(p.x2[k] * p.x2[k])
			}
			p.ps[q], p.m1[q], p.m2[q] = r(s), r(r(a)+loss2CosEps), r(r(b)+loss2CosEps)
			p.den[q] = r(math.Sqrt(r(p.m1[q] * p.m2[q])))
			p.cos[q] = r(p.ps[q] / p.den[q])
		}
		return nil
	})
	return p, nil
}

func loss2CosineEmbeddingForward(c *call) ([]*array, error) {
	p, err := loss2NewCos(c)
	if err != nil {
		return nil, err
	}
	ca := &array{shape: p.cosShape, data: p.cos, dtype: p.dt}
	e, err := loss2NewElem(c, "", false, ca, c.in[2])
	if err != nil {
		return nil, err
	}
	r, o, m := e.r, e.v, c.attrs.Float("margin", 0)
	return []*array{e.each(func(k int) float64 {
		cs, t := o[0][k], o[1][k]
		a, b := 0.0, 0.0
		if t == 1 {
			a = r(1 - cs)
		}
		if t == -1 {
			b = loss2ClampMin(r(cs - m))
		}
		return r(a + b)
	})}, nil
}

func loss2CosineEmbeddingBackward(c *call, outs, gos []*array) ([]*array, error) {
	p, err := loss2NewCos(c)
	if err != nil {
		return nil, err
	}
	ca := &array{shape: p.cosShape, data: p.cos, dtype: p.dt}
	e, err := loss2NewElem(c, "", false, ca, c.in[2])
	if err != nil {
		return nil, err
	}
	r, o, m := e.r, e.v, c.attrs.Float("margin", 0)
	// dL/dcos over the broadcast output, summed to the cosines' shape
	gk := loss2GradScale(gos[0], e.n, e.red, 1)
	dc := make([]float64, e.n)
	for k := range dc {
		cs, t := o[0][k], o[1][k]
		switch {
		case t == 1:
			dc[k] = -gk[k]
		case t == -1 && r(cs-m) >= 0:
			dc[k] = gk[k]
		}
	}
	gcos := sumToShape(dc, e.o.shape, p.cosShape)
	g1, g2 := float64sFor(len(p.x1)), float64sFor(len(p.x2))
	forChunks(p.lines.count(), func(from, to int) error {
		for q := from; q < to; q++ {
			base, st := p.lines.line(q)
			gq, den := gcos[q], p.den[q]
			// autograd's chain: cos = ps/den, den = sqrt(m1·m2)
			gps := gq / den
			gprod := -gq * p.ps[q] / (den * den) / (2 * den)
			gm1, gm2 := gprod*p.m2[q], gprod*p.m1[q]
			for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
				g1[k] = gps*p.x2[k] + 2*gm1*p.x1[k]
				g2[k] = gps*p.x1[k] + 2*gm2*p.x2[k]
			}
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, g1, p.shape), gradForOwned(c, 1, g2, p.shape), nil}, nil
}

// ---- triplet_margin_loss ----

// loss2Dist runs pairwise_distance(a, b, p, eps) forward.
func loss2Dist(c *call, a, b *array) (*call, *array, error) {
	sub := &call{op: "pairwise_distance", attrs: ops.Attrs{"p": ops.FloatAttr(c.attrs.Float("p", 2)), "eps": ops.FloatAttr(c.attrs.Float("eps", 1e-6)),
		"keepdim": ops.BoolAttr(false)}, in: []*array{a, b}, requiresGrad: []bool{true, true}}
	out, err := kernels["pairwise_distance"].forward(sub)
	if err != nil {
		return nil, nil, err
	}
	roundSlice(out[0].dtype, out[0].data)
	return sub, out[0], nil
}

type loss2Trip struct {
	subs       [3]*call
	dists      [3]*array // d(a, p), d(a, n), d(p, n) (swap only)
	dn         []float64 // the negative distance used
	e          *loss2Elem
	pre        []float64 // the value clamped
	swap, pyth bool
}

func loss2NewTrip(c *call) (*loss2Trip, error) {
	a, p, n := c.in[0], c.in[1], c.in[2]
	py := c.attrs.Bool("python_order", false)
	if !py && (len(a.shape) != len(p.shape) || len(p.shape) != len(n.shape)) {
		return nil, fmt.Errorf("All inputs should have same dimension but got %dD, %dD and %dD inputs.", len(a.shape), len(p.shape), len(n.shape))
	}
	dt, err := loss2Floats("", a, p, n)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Float16 {
		return nil, notImplemented("clamp_min_cpu", dt)
	}
	t := &loss2Trip{swap: c.attrs.Bool("swap", false), pyth: py}
	pairs := [][2]*array{{a, p}, {a, n}, {p, n}}
	for i := 0; i < 3; i++ {
		if i == 2 && !t.swap {
			break
		}
		if t.subs[i], t.dists[i], err = loss2Dist(c, pairs[i][0], pairs[i][1]); err != nil {
			return nil, err
		}
	}
	dn := t.dists[1]
	if t.swap {
		o, err := broadcastOperands(dn.dtype, dn, t.dists[2])
		if err != nil {
			return nil, err
		}
		v := make([]float64, tensor.NumElements(o.shape))
		for k := range v {
			x, y := o.get(0, k), o.get(1, k)
			v[k] = math.Min(x, y)
			if math.IsNaN(x) || math.IsNaN(y) {
				v[k] = math.NaN()
			}
		}
		dn = &array{shape: o.shape, data: v, dtype: dn.dtype}
	}
	t.dn = dn.data
	if t.e, err = loss2NewElem(c, "", false, t.dists[0], dn); err != nil {
		return nil, err
	}
	r, o, m := t.e.r, t.e.v, c.attrs.Float("margin", 1)
	t.pre = make([]float64, t.e.n)
	for k := range t.pre {
		if py {
			t.pre[k] = r(r(o[0][k]-o[1][k]) + m)
		} else {
			t.pre[k] = r(r(m+o[0][k]) - o[1][k])
		}
	}
	return t, nil
}

func loss2TripletForward(c *call) ([]*array, error) {
	t, err := loss2NewTrip(c)
	if err != nil {
		return nil, err
	}
	return []*array{t.e.each(func(k int) float64 { return loss2ClampMin(t.pre[k]) })}, nil
}

func loss2TripletBackward(c *call, outs, gos []*array) ([]*array, error) {
	t, err := loss2NewTrip(c)
	if err != nil {
		return nil, err
	}
	// autograd at the dtype: the mean's gradient, each distance's
	// gradient and their sum per input round there
	r := t.e.r
	gk := loss2GradScale(gos[0], t.e.n, t.e.red, 1)
	for k := range gk {
		gk[k] = r(gk[k])
	}
	gp, gn := make([]float64, t.e.n), make([]float64, t.e.n)
	for k := range gk {
		if t.pre[k] >= 0 {
			gp[k], gn[k] = gk[k], -gk[k]
		}
	}
	gdp := sumToShape(gp, t.e.o.shape, t.dists[0].shape)
	dnShape := t.e.o.shape
	if t.swap {
		// torch.min's gradient: to the smaller, halved on ties
		dnShape = nil
	}
	var gdn, gds []float64
	if t.swap {
		o, _ := broadcastOperands(tensor.Float64, t.dists[1], t.dists[2])
		gsum := sumToShape(gn, t.e.o.shape, o.shape)
		a, b := make([]float64, len(gsum)), make([]float64, len(gsum))
		for k := range gsum {
			x, y := o.get(0, k), o.get(1, k)
			switch {
			case x == y:
				a[k], b[k] = gsum[k]/2, gsum[k]/2
			case x < y:
				a[k] = gsum[k]
			case y < x:
				b[k] = gsum[k]
			}
		}
		gdn, gds = sumToShape(a, o.shape, t.dists[1].shape), sumToShape(b, o.shape, t.dists[2].shape)
	} else {
		gdn = sumToShape(gn, dnShape, t.dists[1].shape)
	}
	grads := make([][]float64, 3)
	add := func(i int, g []float64) {
		if g == nil {
			return
		}
		for k := range g {
			g[k] = r(g[k])
		}
		if grads[i] == nil {
			grads[i] = g
			return
		}
		for k := range g {
			grads[i][k] = r(grads[i][k] + g[k])
		}
	}
	pairs := [3][2]int{{0, 1}, {0, 2}, {1, 2}}
	gd := [3][]float64{gdp, gdn, gds}
	for i := 0; i < 3; i++ {
		if t.subs[i] == nil {
			continue
		}
		d := t.dists[i]
		gs, err := kernels["pairwise_distance"].backward(t.subs[i], []*array{d}, []*array{{shape: d.shape, data: gd[i], dtype: tensor.Float64}})
		if err != nil {
			return nil, err
		}
		for j := 0; j < 2; j++ {
			if gs[j] != nil {
				add(pairs[i][j], append([]float64(nil), gs[j].data...))
			}
		}
	}
	out := make([]*array, 3)
	for i := range out {
		if grads[i] != nil && c.requiresGrad[i] {
			out[i] = &array{shape: append([]int{}, c.in[i].shape...), data: grads[i], dtype: c.in[i].dtype}
		}
	}
	return out, nil
}

// ---- multilabel_margin_loss and multi_margin_loss ----

// loss2Margin views (C) or (N, C) input (a 0-d input as one class) with
// its int64 target.
type loss2Margin struct {
	x, t     *array
	n, dim   int
	r        func(float64) float64
	red      string
	outShape []int
}

func loss2NewMargin(c *call, kernelName string, multilabel bool) (*loss2Margin, error) {
	x, t := c.in[0], c.in[1]
	red, err := loss2Red(c, false)
	if err != nil {
		return nil, err
	}
	if x.dtype != tensor.Float32 && x.dtype != tensor.Float64 {
		return nil, notImplemented(kernelName, x.dtype)
	}
	m := &loss2Margin{x: x, t: t, r: loss2Rounder(x.dtype), red: red}
	switch len(x.shape) {
	case 0:
		m.n, m.dim = 1, 1
	case 1:
		m.n, m.dim = 1, x.shape[0]
	case 2:
		m.n, m.dim = x.shape[0], x.shape[1]
		m.outShape = []int{m.n}
	}
	if t.dtype != tensor.Int64 {
		return nil, fmt.Errorf("expected scalar type Long but found %s", ops.TypeName(t.dtype))
	}
	if multilabel {
		if len(x.shape) > 2 || (len(x.shape) == 2 && x.shape[0] == 0) {
			if len(x.shape) > 2 || m.dim == 0 {
				return nil, fmt.Errorf("Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s", ops.ShapeList(x.shape))
			}
		}
		want := x.shape
		if len(x.shape) == 0 {
			want = []int{}
		}
		if !slices.Equal(t.shape, want) {
			return nil, fmt.Errorf("inconsistent size %s for argument #2 'target'", ops.ShapeList(t.shape))
		}
		for _, v := range t.data {
			if v < -1 || int(v) >= m.dim {
				return nil, fmt.Errorf("argument #2 'target' is out of range")
			}
		}
	} else {
		if len(x.shape) > 2 || (len(x.shape) == 2 && x.shape[1] == 0) || (len(x.shape) == 1 && x.shape[0] == 0) {
			return nil, fmt.Errorf("Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s", ops.ShapeList(x.shape))
		}
		if len(t.shape) > 1 || t.len() != m.n {
			return nil, fmt.Errorf("inconsistent target size, got: %s", ops.ShapeList(t.shape))
		}
		for _, v := range t.data {
			if v < 0 || int(v) >= m.dim {
				return nil, fmt.Errorf("target out of range")
			}
		}
		if p := c.attrs.Int("p", 1); p != 1 && p != 2 {
			return nil, fmt.Errorf("only p == 1 and p == 2 supported")
		}
	}
	return m, nil
}

// multilabel: the classes of sample i's targets, read up to the first −1.
func (m *loss2Margin) labels(i int, is []bool) []int {
	for j := range is {
		is[j] = false
	}
	var ys []int
	for j := 0; j < m.dim; j++ {
		y := int(m.t.data[i*m.dim+j])
		if y < 0 {
			break
		}
		ys = append(ys, y)
		is[y] = true
	}
	return ys
}

func loss2MultilabelMarginForward(c *call) ([]*array, error) {
	m, err := loss2NewMargin(c, "multilabel_margin_loss_forward_out_frame", true)
	if err != nil {
		return nil, err
	}
	r := m.r
	per := make([]float64, m.n)
	is := make([]bool, m.dim)
	for i := range per {
		x := m.x.data[i*m.dim : (i+1)*m.dim]
		s := 0.0
		for _, y := range m.labels(i, is) {
			for j := 0; j < m.dim; j++ {
				if is[j] {
					continue
				}
				if z := r(r(1-x[y]) + x[j]); z > 0 {
					s = r(s + z)
				}
			}
		}
		per[i] = r(s / float64(m.dim))
	}
	return []*array{loss2Reduce(per, m.outShape, m.x.dtype, m.red, 1)}, nil
}

func loss2MultilabelMarginBackward(c *call, outs, gos []*array) ([]*array, error) {
	m, err := loss2NewMargin(c, "multilabel_margin_loss_forward_out_frame", true)
	if err != nil {
		return nil, err
	}
	gx := nnGradFor(c, 0)
	if gx == nil {
		return []*array{nil, nil}, nil
	}
	r := m.r
	gi := loss2GradScale(gos[0], m.n, m.red, 1)
	is := make([]bool, m.dim)
	for i := 0; i < m.n; i++ {
		x := m.x.data[i*m.dim : (i+1)*m.dim]
		g := gx.data[i*m.dim : (i+1)*m.dim]
		v := gi[i] / float64(m.dim)
		for _, y := range m.labels(i, is) {
			for j := 0; j < m.dim; j++ {
				if is[j] {
					continue
				}
				if z := r(r(1-x[y]) + x[j]); z > 0 {
					g[y] -= v
					g[j] += v
				}
			}
		}
	}
	return []*array{gx, nil}, nil
}

func loss2MultiMarginForward(c *call) ([]*array, error) {
	m, err := loss2NewMargin(c, "multi_margin_loss_cpu_kernel", false)
	if err != nil {
		return nil, err
	}
	r, w := m.r, nnInput(c, 2)
	p, margin := c.attrs.Int("p", 1), c.attrs.Float("margin", 1)
	mg := r(margin)
	per := make([]float64, m.n)
	for i := range per {
		x := m.x.data[i*m.dim : (i+1)*m.dim]
		y := int(m.t.data[i])
		s := 0.0
		for d := 0; d < m.dim; d++ {
			if d == y {
				continue
			}
			z := r(r(mg-x[y]) + x[d])
			if z > 0 {
				h := z
				if p == 2 {
					h = r(z * z)
				}
				if w != nil {
					h = r(h * loss2At(w, y))
				}
				s = r(s + h)
			}
		}
		per[i] = r(s / float64(m.dim))
	}
	return []*array{loss2Reduce(per, m.outShape, m.x.dtype, m.red, 1)}, nil
}

// loss2At reads w[i], NaN beyond its end (PyTorch reads past a short
// weight).
func loss2At(w *array, i int) float64 {
	if i < len(w.data) {
		return w.data[i]
	}
	return math.NaN()
}

func loss2MultiMarginBackward(c *call, outs, gos []*array) ([]*array, error) {
	m, err := loss2NewMargin(c, "multi_margin_loss_cpu_kernel", false)
	if err != nil {
		return nil, err
	}
	gx := nnGradFor(c, 0)
	if gx == nil {
		return []*array{nil, nil, nil}, nil
	}
	r, w := m.r, nnInput(c, 2)
	p, mg := c.attrs.Int("p", 1), r(c.attrs.Float("margin", 1))
	gi := loss2GradScale(gos[0], m.n, m.red, 1)
	for i := 0; i < m.n; i++ {
		x := m.x.data[i*m.dim : (i+1)*m.dim]
		g := gx.data[i*m.dim : (i+1)*m.dim]
		y := int(m.t.data[i])
		v := gi[i] / float64(m.dim)
		for d := 0; d < m.dim; d++ {
			if d == y {
				continue
			}
			z := r(r(mg-x[y]) + x[d])
			if z > 0 {
				h := v
				if p == 2 {
					h = 2 * z * v
				}
				if w != nil {
					h *= loss2At(w, y)
				}
				g[d] += h
				g[y] -= h
			}
		}
	}
	return []*array{gx, nil, nil}, nil
}

func init() {
	register("cosine_embedding_loss", &kernel{forward: loss2CosineEmbeddingForward, backward: loss2CosineEmbeddingBackward})
	supportDTypes("cosine_embedding_loss", loss2NoHalf...)
	register("triplet_margin_loss", &kernel{forward: loss2TripletForward, backward: loss2TripletBackward})
	supportDTypes("triplet_margin_loss", loss2NoHalf...)
	register("multilabel_margin_loss", &kernel{forward: loss2MultilabelMarginForward, backward: loss2MultilabelMarginBackward})
	supportDTypes("multilabel_margin_loss", tensor.Float64, tensor.Float32)
	register("multi_margin_loss", &kernel{forward: loss2MultiMarginForward, backward: loss2MultiMarginBackward})
	supportDTypes("multi_margin_loss", tensor.Float64, tensor.Float32)
}
