package cpu

// The loss family (sdk/ops/schema_loss.go): mse_loss, l1_loss,
// smooth_l1_loss, huber_loss and binary_cross_entropy as PyTorch 1.13's
// CPU computes them, on loss2.go's elementwise machinery: every step
// rounds at the compute dtype the way PyTorch's kernel (or, for l1_loss,
// its chain of tensor operations) stores it. Where PyTorch 1.13's CPU has
// no kernel at a narrow dtype (mse_loss at bfloat16, binary_cross_entropy
// at float16 and bfloat16, the float16 backward of mse_loss and
// smooth_l1_loss) the op is emulated in float32 and rounded once, as a
// float32 run cast back would give.

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// lossPoint is one pointwise loss: the elementwise state, the dtype the
// steps round at (cdt), and the raw output gradient's reading.
type lossPoint struct {
	*loss2Elem
	out tensor.DType // the result dtype
	cdt tensor.DType // the dtype of the steps (float32 where emulated)
}

// lossNew prepares a pointwise loss of input and target (plus an optional
// weight): kernelName is PyTorch's kernel for the dtype error; emulated
// lists the dtypes PyTorch lacks a kernel at, computed in float32;
// backward says whether the backward is being computed (a few dtypes lack
// only a backward kernel).
func lossNew(c *call, kernelName string, emulated func(dt tensor.DType, backward bool) bool, backward bool, in ...*array) (*lossPoint, error) {
	dt := nnPromote(in...)
	if !dt.IsFloat() {
		return nil, nnNotImpl(kernelName, dt)
	}
	e, err := loss2NewElem(c, "", false, in...)
	if err != nil {
		return nil, err
	}
	p := &lossPoint{loss2Elem: e, out: dt, cdt: dt}
	if emulated != nil && emulated(dt, backward) {
		p.cdt = tensor.Float32
		p.r = loss2Rounder(tensor.Float32)
		p.dt = tensor.Float32
	}
	return p, nil
}

// forward computes the per-element losses f(k) and reduces them at the
// step dtype; the result has the op's dtype.
func (p *lossPoint) forward(f func(k int) float64) []*array {
	out := p.each(f)
	out.dtype = p.out
	return []*array{out}
}

// gradAt returns the factor PyTorch's backward kernels apply for the
// reduction (1/numel for mean, as a scalar of the step dtype) and the
// output gradient at element k.
func (p *lossPoint) gradAt(g *array) (norm float64, at func(k int) float64) {
	norm = 1
	if p.red == "mean" {
		norm = p.r(1 / float64(p.n))
	}
	if g == nil {
		return norm, func(int) float64 { return 0 }
	}
	if p.red == "none" {
		return norm, func(k int) float64 { return g.data[k] }
	}
	v := g.data[0]
	return norm, func(int) float64 { return v }
}

// lossHalfBackward: PyTorch 1.13's CPU has the float16 forward of mse_loss
// and smooth_l1_loss but not their backward.
func lossHalfBackward(dt tensor.DType, backward bool) bool { return dt == tensor.Float16 && backward }

// ---- mse_loss ----

func mseEmulated(dt tensor.DType, backward bool) bool {
	return dt == tensor.BFloat16 || lossHalfBackward(dt, backward)
}

func mseForward(c *call) ([]*array, error) {
	p, err := lossNew(c, "mse_cpu", mseEmulated, false, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	r, x, t := p.r, p.v[0], p.v[1]
	return p.forward(func(k int) float64 {
		d := r(x[k] - t[k])
		return r(d * d)
	}), nil
}

func mseBackward(c *call, outs, gos []*array) ([]*array, error) {
	p, err := lossNew(c, "mse_cpu", mseEmulated, true, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	// mse_loss_backward: norm·(a − b)·grad, norm 2/numel for mean
	norm := 2.0
	if p.red == "mean" {
		norm = p.r(2 / float64(p.n))
	}
	_, gat := p.gradAt(gos[0])
	r, x, t := p.r, p.v[0], p.v[1]
	return p.grads(c, gos[0], 2, func(k int, _ float64, d []float64) {
		g := gat(k)
		d[0] = r(r(norm*r(x[k]-t[k])) * g)
		d[1] = r(r(norm*r(t[k]-x[k])) * g)
	}), nil
}

// ---- l1_loss ----

// l1Check refuses a bool operand as the subtraction does.
func l1Check(c *call) error {
	if c.in[0].dtype == tensor.Bool || c.in[1].dtype == tensor.Bool {
		if c.in[0].dtype == tensor.Bool && c.in[1].dtype == tensor.Bool {
			return errors.New("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
		}
		return errors.New("Subtraction, the `-` operator, with a bool tensor is not supported. " +
			"If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	return nil
}

// l1Forward is 1.13's composite l1_loss: (input − target).abs(), then the
// reduction, each a tensor of the promoted dtype.
func l1Forward(c *call) ([]*array, error) {
	if err := l1Check(c); err != nil {
		return nil, err
	}
	if dt := nnPromote(c.in[0], c.in[1]); !dt.IsFloat() {
		if c.attrs.Str("reduction", "mean") == "mean" {
			return nil, fmt.Errorf("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", ops.TypeName(dt))
		}
		return nil, fmt.Errorf("l1_loss of integer tensors (an integer result) is not supported: the kernel takes floating inputs")
	}
	p, err := lossNew(c, "abs_cpu", nil, false, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	r, x, t := p.r, p.v[0], p.v[1]
	return p.forward(func(k int) float64 { return math.Abs(r(x[k] - t[k])) }), nil
}

// l1Backward is autograd through the composite: mean's grad/numel (a
// tensor of the dtype), abs's sgn, sub's ±.
func l1Backward(c *call, outs, gos []*array) ([]*array, error) {
	p, err := lossNew(c, "abs_cpu", nil, true, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	_, gat := p.gradAt(gos[0])
	n := float64(p.n)
	r, x, t := p.r, p.v[0], p.v[1]
	return p.grads(c, gos[0], 2, func(k int, _ float64, d []float64) {
		g := gat(k)
		if p.red == "mean" {
			g = r(g / n)
		}
		var s float64
		switch v := r(x[k] - t[k]); {
		case v > 0:
			s = 1
		case v < 0:
			s = -1
		case v != v:
			s = v
		}
		d[0] = g * s
		d[1] = -g * s
	}), nil
}

// ---- smooth_l1_loss ----

func smoothL1Beta(c *call) (float64, error) {
	b := c.attrs.Float("beta", 1)
	if b < 0 {
		return 0, errors.New("smooth_l1_loss does not support negative values for beta.")
	}
	return b, nil
}

func smoothL1Forward(c *call) ([]*array, error) {
	beta, err := smoothL1Beta(c)
	if err != nil {
		return nil, err
	}
	if beta == 0 {
		// ATen's smooth_l1_loss is l1_loss for beta 0
		return l1Forward(c)
	}
	p, err := lossNew(c, "smooth_l1_cpu", lossHalfBackward, false, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	r, x, t := p.r, p.v[0], p.v[1]
	if p.cdt == tensor.BFloat16 {
		// the bfloat16 kernel computes in float (beta a float) and
		// rounds once (measured against torch 1.13)
		b := float64(float32(beta))
		return p.forward(func(k int) float64 {
			z := math.Abs(x[k] - t[k])
			if z < b {
				return r(0.5 * z * z / b)
			}
			return r(z - 0.5*b)
		}), nil
	}
	// float32 and float16: every step at the dtype
	b := r(beta)
	return p.forward(func(k int) float64 {
		z := math.Abs(r(x[k] - t[k]))
		if z < b {
			return r(r(r(0.5*z)*z) / b)
		}
		return r(z - r(0.5*b))
	}), nil
}

func smoothL1Backward(c *call, outs, gos []*array) ([]*array, error) {
	beta, err := smoothL1Beta(c)
	if err != nil {
		return nil, err
	}
	if beta == 0 {
		return l1Backward(c, outs, gos)
	}
	p, err := lossNew(c, "smooth_l1_cpu", lossHalfBackward, true, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	norm, gat := p.gradAt(gos[0])
	r, x, t := p.r, p.v[0], p.v[1]
	b, rv := r(beta), r
	if p.cdt == tensor.BFloat16 {
		// in float, as the forward (measured against torch 1.13)
		norm = float64(float32(norm))
		b, rv = float64(float32(beta)), opRounder(tensor.Float64)
	}
	return p.grads(c, gos[0], 2, func(k int, _ float64, d []float64) {
		g := gat(k)
		v := rv(x[k] - t[k])
		var gi float64
		switch {
		case v <= -b:
			gi = -norm * g
		case v >= b:
			gi = norm * g
		default:
			gi = norm * v * g / b
		}
		d[0] = r(gi)
		d[1] = r(-gi)
	}), nil
}

// ---- huber_loss ----

func huberDelta(c *call) (float64, error) {
	d := c.attrs.Float("delta", 1)
	if !(d > 0) {
		return 0, errors.New("huber_loss does not support non-positive values for delta.")
	}
	return d, nil
}

// huberNew: the steps run at the promoted dtype, the loss (and its mean or
// sum) is a tensor of input's dtype.
func huberNew(c *call, backward bool) (*lossPoint, float64, error) {
	delta, err := huberDelta(c)
	if err != nil {
		return nil, 0, err
	}
	p, err := lossNew(c, "huber_cpu", nil, backward, c.in[0], c.in[1])
	if err != nil {
		return nil, 0, err
	}
	if c.in[0].dtype.IsFloat() {
		p.out = c.in[0].dtype
	}
	return p, p.r(delta), nil
}

func huberForward(c *call) ([]*array, error) {
	p, delta, err := huberNew(c, false)
	if err != nil {
		return nil, err
	}
	r, x, t := p.r, p.v[0], p.v[1]
	ro := loss2Rounder(p.out)
	per := float64sFor(p.n)
	forChunks(p.n, func(from, to int) error {
		for k := from; k < to; k++ {
			// every step at the compute dtype (measured against torch
			// 1.13 at bfloat16 and float16)
			z := math.Abs(r(x[k] - t[k]))
			if z < delta {
				per[k] = ro(r(r(0.5*z) * z))
			} else {
				per[k] = ro(r(delta * r(z-r(0.5*delta))))
			}
		}
		return nil
	})
	return []*array{loss2Reduce(per, p.o.shape, p.out, p.red, 1)}, nil
}

func huberBackward(c *call, outs, gos []*array) ([]*array, error) {
	p, delta, err := huberNew(c, true)
	if err != nil {
		return nil, err
	}
	norm, gat := p.gradAt(gos[0])
	r, x, t := p.r, p.v[0], p.v[1]
	return p.grads(c, gos[0], 2, func(k int, _ float64, d []float64) {
		g := gat(k)
		v := r(x[k] - t[k])
		var gi float64
		switch {
		case v <= -delta:
			gi = -norm * g * delta
		case v >= delta:
			gi = norm * g * delta
		default:
			gi = norm * v * g
		}
		d[0] = r(gi)
		d[1] = r(-gi)
	}), nil
}

// ---- binary_cross_entropy ----

// bceEps is the floor of x·(1 − x) in binary_cross_entropy's backward.
const bceEps = 1e-12

func bceEmulated(dt tensor.DType, _ bool) bool { return dt == tensor.Float16 || dt == tensor.BFloat16 }

// bceNew checks binary_cross_entropy's operands: target of input's shape
// and dtype, weight (no gradient) broadcast to them.
func bceNew(c *call, backward bool) (*lossPoint, error) {
	x, t, w := c.in[0], c.in[1], nnInput(c, 2)
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl("binary_cross_entropy", x.dtype)
	}
	if t.dtype != x.dtype {
		return nil, fmt.Errorf("Found dtype %s but expected %s", ops.TypeName(t.dtype), ops.TypeName(x.dtype))
	}
	if !slices.Equal(x.shape, t.shape) {
		return nil, fmt.Errorf("Using a target size (%s) that is different to the input size (%s) is deprecated. Please ensure they have the same size.",
			lossSize(t.shape), lossSize(x.shape))
	}
	if w != nil && w.dtype != x.dtype {
		return nil, fmt.Errorf("Found dtype %s but expected %s", ops.TypeName(w.dtype), ops.TypeName(x.dtype))
	}
	p, err := lossNew(c, "binary_cross_entropy", bceEmulated, backward, x, t, w)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(p.o.shape, x.shape) {
		return nil, fmt.Errorf("The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d",
			x.shape[len(x.shape)-1], p.o.shape[len(p.o.shape)-1], len(p.o.shape)-1)
	}
	for _, v := range p.v[0] {
		if !(v >= 0 && v <= 1) {
			return nil, errors.New("all elements of input should be between 0 and 1")
		}
	}
	return p, nil
}

// lossSize prints a shape as torch.Size does.
func lossSize(s []int) string {
	out := "torch.Size(["
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(v)
	}
	return out + "])"
}

func bceForward(c *call) ([]*array, error) {
	p, err := bceNew(c, false)
	if err != nil {
		return nil, err
	}
	r, x, t, w := p.r, p.v[0], p.v[1], p.v[2]
	return p.forward(func(k int) float64 {
		// (t − 1)·max(log1p(−x), −100) − t·max(log(x), −100), then ·weight
		l := r(r(r(t[k]-1)*math.Max(r(math.Log1p(-x[k])), -100)) - r(t[k]*math.Max(r(math.Log(x[k])), -100)))
		if w != nil {
			l = r(l * w[k])
		}
		return l
	}), nil
}

func bceBackward(c *call, outs, gos []*array) ([]*array, error) {
	p, err := bceNew(c, true)
	if err != nil {
		return nil, err
	}
	_, gat := p.gradAt(gos[0])
	n := float64(p.n)
	r, x, t, w := p.r, p.v[0], p.v[1], p.v[2]
	return p.grads(c, gos[0], 3, func(k int, _ float64, d []float64) {
		g := gat(k)
		// binary_cross_entropy_backward: g·(x − t)/max((1 − x)·x, ε),
		// ·weight, /numel for mean
		gi := r(r(g*r(x[k]-t[k])) / r(math.Max(r(r(1-x[k])*x[k]), bceEps)))
		// binary_cross_entropy_target_backward: −logit(x)·g·weight/numel
		gt := r(-math.Log(x[k]/(1-x[k])) * g)
		if w != nil {
			gi, gt = r(gi*w[k]), r(gt*w[k])
		}
		if p.red == "mean" {
			gi, gt = r(gi/n), r(gt/n)
		}
		d[0], d[1] = gi, gt
	}), nil
}

func init() {
	register("mse_loss", &kernel{forward: mseForward, backward: mseBackward})
	register("l1_loss", &kernel{forward: l1Forward, backward: l1Backward})
	register("smooth_l1_loss", &kernel{forward: smoothL1Forward, backward: smoothL1Backward})
	register("huber_loss", &kernel{forward: huberForward, backward: huberBackward})
	register("binary_cross_entropy", &kernel{forward: bceForward, backward: bceBackward})
}

// ---- normalize ----

// normalizeSetup is F.normalize's working dtype (float32 for float16,
// which has no clamp_min CPU kernel) and the norm's call.
func normalizeSetup(c *call) (*array, *call, error) {
	x := c.in[0]
	if !x.dtype.IsFloat() {
		return nil, nil, fmt.Errorf("norm(): input dtype should be either floating point or complex. Got %s instead.", ops.TypeName(x.dtype))
	}
	if x.dtype == tensor.Float16 {
		x = &array{shape: x.shape, data: x.data, dtype: tensor.Float32}
	}
	nc := &call{op: "norm", attrs: ops.Attrs{"p": ops.FloatAttr(c.attrs.Float("p", 2)), "dim": ops.IntsAttr(c.attrs.Ints("dim", []int64{1})...),
		"keepdim": ops.BoolAttr(true), "dtype": ops.NoneAttr()}, in: []*array{x}, requiresGrad: []bool{true}, seed: c.seed}
	return x, nc, nil
}

// normalizeDenom is max(norm, eps) as tensors of the dtype, with the norm
// (rounded) and the map from every element to its norm.
func normalizeDenom(c *call, x *array, nc *call) (nrm *array, den []float64, at []int, err error) {
	outs, err := kernels["norm"].forward(nc)
	if err != nil {
		return nil, nil, nil, err
	}
	nrm = outs[0]
	at = ops.BroadcastIndex(nrm.shape, x.shape)
	r := opRounder(x.dtype)
	if x.dtype == tensor.Float32 && c.attrs.Float("p", 2) == 2 {
		// PyTorch's float32 2-norm: the squares summed in float, in
		// element order (measured against torch 1.13), then sqrt
		acc := make([]float32, len(nrm.data))
		for k, v := range x.data {
			j := k
			if at != nil {
				j = at[k]
			}
			acc[j] += float32(v) * float32(v)
		}
		for j, s := range acc {
			nrm.data[j] = float64(float32(math.Sqrt(float64(s))))
		}
	}
	if x.dtype == tensor.BFloat16 && c.attrs.Float("p", 2) == 2 && x.rank() > 1 && x.shape[x.rank()-1] > 1 && nrm.shape[x.rank()-1] != 1 {
		// PyTorch's bfloat16 2-norm over outer dims (not the contiguous
		// last one): each square a bfloat16, accumulated in element order
		// rounding every addition to bfloat16, then sqrt (measured
		// against torch 1.13)
		acc := make([]float64, len(nrm.data))
		for k, v := range x.data {
			j := k
			if at != nil {
				j = at[k]
			}
			acc[j] = r(acc[j] + r(v*v))
		}
		for j, s := range acc {
			nrm.data[j] = math.Sqrt(s)
		}
	}
	for i, v := range nrm.data {
		nrm.data[i] = r(v)
	}
	eps := roundTo(x.dtype, c.attrs.Float("eps", 1e-12))
	den = make([]float64, len(nrm.data))
	for i, v := range nrm.data {
		den[i] = v
		if v < eps {
			den[i] = eps
		}
	}
	return nrm, den, at, nil
}

func normalizeForward(c *call) ([]*array, error) {
	x, nc, err := normalizeSetup(c)
	if err != nil {
		return nil, err
	}
	_, den, at, err := normalizeDenom(c, x, nc)
	if err != nil {
		return nil, err
	}
	out := nnNew(x.shape, c.in[0].dtype)
	forChunks(len(x.data), func(from, to int) error {
		for k := from; k < to; k++ {
			j := k
			if at != nil {
				j = at[k]
			}
			out.data[k] = x.data[k] / den[j]
		}
		return nil
	})
	return []*array{out}, nil
}

// normalizeBackward is autograd through x / clamp_min(norm, eps).expand_as(x):
// div's two gradients (the denominator's summed back over the norm's
// dims), clamp_min's mask, norm's backward, the sum of both paths.
func normalizeBackward(c *call, outs, gos []*array) ([]*array, error) {
	x, nc, err := normalizeSetup(c)
	if err != nil {
		return nil, err
	}
	nrm, den, at, err := normalizeDenom(c, x, nc)
	if err != nil {
		return nil, err
	}
	r := opRounder(x.dtype)
	n := len(x.data)
	g := gradData(gos[0], n)
	gx := float64sFor(n)
	gden := make([]float64, len(den))
	// the expanded denominator's gradient summed back over the norm's
	// dims: float accumulation in element order at the narrow dtypes
	acc := func(s, v float64) float64 { return s + v }
	if x.dtype != tensor.Float64 {
		acc = func(s, v float64) float64 { return float64(float32(s) + float32(v)) }
	}
	for k := 0; k < n; k++ {
		j := k
		if at != nil {
			j = at[k]
		}
		gx[k] = r(g[k] / den[j])
		gden[j] = acc(gden[j], r(-g[k]*r(r(x.data[k]/den[j])/den[j])))
	}
	eps := roundTo(x.dtype, c.attrs.Float("eps", 1e-12))
	gn := &array{shape: nrm.shape, data: make([]float64, len(den)), dtype: x.dtype}
	for j, v := range gden {
		if nrm.data[j] >= eps {
			gn.data[j] = r(v)
		}
	}
	gs, err := kernels["norm"].backward(nc, []*array{nrm}, []*array{gn})
	if err != nil {
		return nil, err
	}
	if gs[0] != nil {
		for k, v := range gs[0].data {
			gx[k] += r(v)
		}
	}
	return []*array{gradForOwned(c, 0, gx, c.in[0].shape)}, nil
}

// ---- one_hot ----

func oneHotForward(c *call) ([]*array, error) {
	x := c.in[0]
	if x.dtype != tensor.Int64 {
		return nil, errors.New("one_hot is only applicable to index tensor.")
	}
	n := c.attrs.Int("num_classes", -1)
	if n == -1 {
		if len(x.data) == 0 {
			return nil, errors.New("Can not infer total number of classes from empty tensor.")
		}
		n = int64(slices.Max(x.data)) + 1
	}
	for _, v := range x.data {
		if v < 0 {
			return nil, errors.New("Class values must be non-negative.")
		}
	}
	for _, v := range x.data {
		if int64(v) >= n {
			return nil, errors.New("Class values must be smaller than num_classes.")
		}
	}
	if n < 0 {
		return nil, errors.New("Class values must be smaller than num_classes.")
	}
	out := newArray(tensor.Int64, append(append([]int{}, x.shape...), int(n)))
	for i, v := range x.data {
		out.data[i*int(n)+int(v)] = 1
	}
	return []*array{out}, nil
}

// ---- local_response_norm ----

// lrn is F.local_response_norm's composition over channels (dim 1) of a
// (N, C, *) input: S = x·x, P = the window mean of S (zero padded
// size//2 before, (size − 1)//2 after, count including the padding),
// D = (P·alpha + k)^beta, out = x/D; every step a tensor of the dtype
// (float32 where PyTorch 1.13's CPU lacks the avg_pool kernel).
type lrn struct {
	x                   *array
	dt                  tensor.DType
	n, ch, inner, size  int
	alpha, beta, kConst float64
	s, p, b, d          []float64 // x², window means, P·alpha + k, B^beta
}

func newLRN(c *call) (*lrn, error) {
	x := c.in[0]
	if !x.dtype.IsFloat() {
		return nil, fmt.Errorf("local_response_norm of %s tensors is not supported: the kernel takes floating inputs", ops.TypeName(x.dtype))
	}
	if x.rank() < 3 {
		return nil, fmt.Errorf("Expected 3D or higher dimensionality input (got %d dimensions)", x.rank())
	}
	size := int(c.attrs.Int("size", 0))
	if size <= 0 {
		return nil, fmt.Errorf("kernel size should be greater than zero, but got kH: %d kW: 1", size)
	}
	dt := x.dtype
	if dt == tensor.Float16 || dt == tensor.BFloat16 && x.rank() > 3 {
		// no avg_pool2d at float16, no avg_pool3d (4-d and larger
		// inputs) at float16 or bfloat16
		dt = tensor.Float32
	}
	l := &lrn{x: x, dt: dt, n: x.shape[0], ch: x.shape[1], size: size}
	l.inner = len(x.data) / max(1, l.n*l.ch)
	if l.n*l.ch == 0 {
		l.inner = 0
	}
	// the kernels read the scalars at the dtype (measured at bfloat16)
	l.alpha, l.beta, l.kConst = roundTo(dt, c.attrs.Float("alpha", 1e-4)), roundTo(dt, c.attrs.Float("beta", 0.75)), roundTo(dt, c.attrs.Float("k", 1))
	r := opRounder(dt)
	tot := len(x.data)
	l.s, l.p, l.b, l.d = make([]float64, tot), make([]float64, tot), make([]float64, tot), make([]float64, tot)
	for i, v := range x.data {
		l.s[i] = r(v * v)
	}
	before := size / 2
	// one line per (sample, position), independent: fixed chunks
	forChunks(l.n*l.inner, func(from, to int) error {
		for line := from; line < to; line++ {
			b, q := line/l.inner, line%l.inner
			for ch := 0; ch < l.ch; ch++ {
				// avg_pool's window over the padded channels, summed in order
				var sum float64
				for w := ch - before; w < ch-before+size; w++ {
					if w >= 0 && w < l.ch {
						sum = l.acc(sum + l.s[(b*l.ch+w)*l.inner+q])
					}
				}
				i := (b*l.ch+ch)*l.inner + q
				l.p[i] = r(sum / float64(size))
				l.b[i] = r(r(l.p[i]*l.alpha) + l.kConst)
				l.d[i] = r(math.Pow(l.b[i], l.beta))
			}
		}
		return nil
	})
	return l, nil
}

// acc is avg_pool's accumulator: float32 for the narrow dtypes, float64
// for float64.
func (l *lrn) acc(v float64) float64 {
	if l.dt == tensor.Float64 {
		return v
	}
	return float64(float32(v))
}

func lrnForward(c *call) ([]*array, error) {
	l, err := newLRN(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(l.x.shape, l.x.dtype)
	for i, v := range l.x.data {
		out.data[i] = v / l.d[i]
	}
	return []*array{out}, nil
}

// lrnBackward is autograd through the composition: div, pow, add, mul,
// avg_pool (each window's gradient spread evenly), the pad's slice and
// x·x (twice x's value), accumulated into x's gradient in the engine's
// order.
func lrnBackward(c *call, outs, gos []*array) ([]*array, error) {
	l, err := newLRN(c)
	if err != nil {
		return nil, err
	}
	r := opRounder(l.dt)
	tot := len(l.x.data)
	g := gradData(gos[0], tot)
	gx := float64sFor(tot)
	gp := make([]float64, tot)
	forChunks(tot, func(from, to int) error {
		for i := from; i < to; i++ {
			v, d := l.x.data[i], l.d[i]
			gx[i] = r(g[i] / d)
			gd := r(-g[i] * r(r(v/d)/d))
			gb := r(gd * r(l.beta*r(math.Pow(l.b[i], l.beta-1))))
			gp[i] = r(gb * l.alpha)
		}
		return nil
	})
	before := l.size / 2
	forChunks(l.n*l.inner, func(from, to int) error {
		for line := from; line < to; line++ {
			b, q := line/l.inner, line%l.inner
			for w := 0; w < l.ch; w++ {
				// S at channel w feeds the windows of channels
				// w − (size − 1 − before) … w + before; avg_pool's backward
				// adds each window's share into a tensor of the dtype,
				// rounding every addition (measured at bfloat16)
				var gs float64
				for ch := w - (l.size - 1 - before); ch <= w+before; ch++ {
					if ch >= 0 && ch < l.ch {
						gs = r(gs + r(gp[(b*l.ch+ch)*l.inner+q]/float64(l.size)))
					}
				}
				i := (b*l.ch+w)*l.inner + q
				m := r(gs * l.x.data[i])
				gx[i] = r(r(gx[i]+m) + m)
			}
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, gx, l.x.shape)}, nil
}

func init() {
	register("normalize", &kernel{forward: normalizeForward, backward: normalizeBackward})
	register("one_hot", &kernel{forward: oneHotForward})
	supportDTypes("one_hot", tensor.Int64)
	register("local_response_norm", &kernel{forward: lrnForward, backward: lrnBackward})
}

// ---- scaled_dot_product_attention ----

// sdpa is PyTorch 2's documented composition of
// F.scaled_dot_product_attention on PyTorch 1.13's kernels: k and v
// repeated per query head (enable_gqa), S = round(round(q·kᵀ)·scale),
// S = round(S + bias), W = softmax(S, −1), out = W·v; every step a
// tensor of q's dtype.
type sdpa struct {
	q, k, v, kT *array
	mask        *array
	dt          tensor.DType
	r           func(float64) float64
	scale       float64
	rep         int // query heads per key head (enable_gqa)
	s, w        *array
}

// sdpaTranspose swaps the last two dimensions of a.
func sdpaTranspose(a *array) *array {
	n := a.rank()
	rows, cols := a.shape[n-2], a.shape[n-1]
	shape := append(append([]int{}, a.shape[:n-2]...), cols, rows)
	out := &array{shape: shape, data: make([]float64, len(a.data)), dtype: a.dtype}
	m := rows * cols
	for b := 0; b*m < len(a.data); b++ {
		src, dst := a.data[b*m:(b+1)*m], out.data[b*m:(b+1)*m]
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				dst[j*rows+i] = src[i*cols+j]
			}
		}
	}
	return out
}

// sdpaRepeat is a.repeat_interleave(rep, dim=−3).
func sdpaRepeat(a *array, rep int) *array {
	if rep == 1 {
		return a
	}
	n := a.rank()
	heads, m := a.shape[n-3], a.shape[n-2]*a.shape[n-1]
	shape := append([]int{}, a.shape...)
	shape[n-3] = heads * rep
	out := &array{shape: shape, data: make([]float64, len(a.data)*rep), dtype: a.dtype}
	for b := 0; b*heads*m < len(a.data); b++ {
		for h := 0; h < heads; h++ {
			src := a.data[(b*heads+h)*m : (b*heads+h+1)*m]
			for t := 0; t < rep; t++ {
				copy(out.data[((b*heads+h)*rep+t)*m:], src)
			}
		}
	}
	return out
}

// sdpaUnrepeat sums the gradient of a repeated tensor back per head,
// rounded by r.
func sdpaUnrepeat(g *array, rep int, shape []int, r func(float64) float64) *array {
	if rep == 1 {
		return g
	}
	n := len(shape)
	heads, m := shape[n-3], shape[n-2]*shape[n-1]
	out := &array{shape: append([]int{}, shape...), data: make([]float64, len(g.data)/rep), dtype: g.dtype}
	for b := 0; b*heads*m < len(out.data); b++ {
		for h := 0; h < heads; h++ {
			dst := out.data[(b*heads+h)*m : (b*heads+h+1)*m]
			for t := 0; t < rep; t++ {
				src := g.data[((b*heads+h)*rep+t)*m:]
				for i := range dst {
					dst[i] += src[i]
				}
			}
			for i := range dst {
				dst[i] = r(dst[i])
			}
		}
	}
	return out
}

func (s *sdpa) round(a *array) *array {
	for i, v := range a.data {
		a.data[i] = s.r(v)
	}
	return a
}

func newSDPA(c *call) (*sdpa, error) {
	q, k, v, mask := c.in[0], c.in[1], c.in[2], nnInput(c, 3)
	for _, a := range []*array{q, k, v} {
		if !a.dtype.IsFloat() {
			return nil, fmt.Errorf("Expected query, key, and value to be floating point tensors, got %s", ops.TypeName(a.dtype))
		}
		if a.rank() < 2 {
			return nil, fmt.Errorf("scaled_dot_product_attention: expected tensors of at least 2 dimensions, got %d", a.rank())
		}
	}
	if k.dtype != q.dtype || v.dtype != q.dtype {
		return nil, fmt.Errorf("Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s and value.dtype: %s instead.",
			ops.TypeName(q.dtype), ops.TypeName(k.dtype), ops.TypeName(v.dtype))
	}
	// mismatched sizes: the matrix products give PyTorch's messages
	causal := c.attrs.Bool("is_causal", false)
	if causal && mask != nil {
		return nil, errors.New("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
	}
	if p := c.attrs.Float("dropout_p", 0); p != 0 {
		return nil, fmt.Errorf("scaled_dot_product_attention: dropout_p %v is random: only dropout_p=0 is checked", p)
	}
	if q.dtype == tensor.Float16 {
		// no float16 softmax on PyTorch 1.13's CPU: the composition is
		// emulated in float32
		f32 := func(a *array) *array { return &array{shape: a.shape, data: a.data, dtype: tensor.Float32} }
		q, k, v = f32(q), f32(k), f32(v)
		if mask != nil && mask.dtype == tensor.Float16 {
			mask = f32(mask)
		}
	}
	s := &sdpa{q: q, mask: mask, dt: q.dtype, r: opRounder(q.dtype), rep: 1}
	if c.attrs.Bool("enable_gqa", false) && q.rank() >= 3 && k.rank() >= 3 {
		hq, hk, hv := q.shape[q.rank()-3], k.shape[k.rank()-3], v.shape[v.rank()-3]
		if hk == 0 || hq%hk != 0 || hk != hv {
			return nil, fmt.Errorf("scaled_dot_product_attention: enable_gqa needs query heads (%d) a multiple of key heads (%d), key and value heads equal (%d)", hq, hk, hv)
		}
		s.rep = hq / hk
	}
	s.k, s.v = sdpaRepeat(k, s.rep), sdpaRepeat(v, s.rep)
	s.kT = sdpaTranspose(s.k)
	e := q.shape[q.rank()-1]
	s.scale = 1 / math.Sqrt(float64(e))
	if !c.attrs.IsNone("scale") && c.attrs.Has("scale") {
		s.scale = c.attrs.Float("scale", s.scale)
	}
	if s.dt != tensor.Float64 {
		// a Python float times a tensor: the scalar at float (opmath)
		s.scale = float64(float32(s.scale))
	}
	// S = q·kᵀ·scale + bias
	qk, err := kernels["matmul"].forward(&call{op: "matmul", in: []*array{q, s.kT}, requiresGrad: []bool{false, false}})
	if err != nil {
		return nil, err
	}
	sc := s.round(qk[0])
	for i, v := range sc.data {
		sc.data[i] = s.r(v * s.scale)
	}
	n := sc.rank()
	L, S := sc.shape[n-2], sc.shape[n-1]
	switch {
	case causal:
		for b := 0; b*L*S < len(sc.data); b++ {
			for i := 0; i < L; i++ {
				for j := i + 1; j < S; j++ {
					sc.data[(b*L+i)*S+j] = math.Inf(-1)
				}
			}
		}
	case mask != nil:
		shape, err := ops.BroadcastShapes(sc.shape, mask.shape)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(shape, sc.shape) {
			return nil, fmt.Errorf("output with shape %s doesn't match the broadcast shape %s", ops.ShapeList(sc.shape), ops.ShapeList(shape))
		}
		at := ops.BroadcastIndex(mask.shape, sc.shape)
		bias := opRounder(nnPromote(mask, q))
		for i := range sc.data {
			j := i
			if at != nil {
				j = at[i]
			}
			m := mask.data[j]
			switch {
			case mask.dtype == tensor.Bool && m == 0:
				sc.data[i] = math.Inf(-1)
			case mask.dtype != tensor.Bool:
				sc.data[i] = s.r(sc.data[i] + bias(m))
			}
		}
	}
	s.s = sc
	w, err := kernels["softmax"].forward(&call{op: "softmax", attrs: ops.Attrs{"dim": ops.IntAttr(-1), "dtype": ops.NoneAttr()}, in: []*array{sc},
		requiresGrad: []bool{true}})
	if err != nil {
		return nil, err
	}
	s.w = s.round(w[0])
	return s, nil
}

func sdpaForward(c *call) ([]*array, error) {
	s, err := newSDPA(c)
	if err != nil {
		return nil, err
	}
	out, err := kernels["matmul"].forward(&call{op: "matmul", in: []*array{s.w, s.v}, requiresGrad: []bool{false, false}})
	if err != nil {
		return nil, err
	}
	out[0].dtype = c.in[0].dtype
	return out, nil
}

// sdpaBackward is autograd through the composition: W·v, softmax, the
// scaling, q·kᵀ (the mask takes no gradient), the head repeats summed.
func sdpaBackward(c *call, outs, gos []*array) ([]*array, error) {
	s, err := newSDPA(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gos, 0)
	if g == nil {
		return make([]*array, len(c.in)), nil
	}
	mc := &call{op: "matmul", in: []*array{s.w, s.v}, requiresGrad: []bool{true, c.requiresGrad[2]}}
	gwv, err := kernels["matmul"].backward(mc, outs, []*array{g})
	if err != nil {
		return nil, err
	}
	gw := s.round(gwv[0])
	sc := &call{op: "softmax", attrs: ops.Attrs{"dim": ops.IntAttr(-1), "dtype": ops.NoneAttr()}, in: []*array{s.s}, requiresGrad: []bool{true}}
	softmaxBack := kernels["softmax"].backward
	if s.dt == tensor.BFloat16 {
		softmaxBack = softmaxBF16Backward
	}
	gs, err := softmaxBack(sc, []*array{s.w}, []*array{gw})
	if err != nil {
		return nil, err
	}
	gS := s.round(gs[0])
	for i, v := range gS.data {
		gS.data[i] = s.r(v * s.scale)
	}
	qc := &call{op: "matmul", in: []*array{s.q, s.kT}, requiresGrad: []bool{c.requiresGrad[0], c.requiresGrad[1]}}
	gqk, err := kernels["matmul"].backward(qc, nil, []*array{gS})
	if err != nil {
		return nil, err
	}
	res := make([]*array, len(c.in))
	if gqk[0] != nil {
		res[0] = s.round(gqk[0])
	}
	if gqk[1] != nil {
		res[1] = sdpaUnrepeat(sdpaTranspose(s.round(gqk[1])), s.rep, c.in[1].shape, s.r)
	}
	if gwv[1] != nil {
		res[2] = sdpaUnrepeat(s.round(gwv[1]), s.rep, c.in[2].shape, s.r)
	}
	for i := 0; i < 3; i++ {
		if res[i] != nil {
			res[i].dtype = c.in[i].dtype
		}
	}
	return res, nil
}

func init() {
	register("scaled_dot_product_attention", &kernel{forward: sdpaForward, backward: sdpaBackward})
}
