package cpu

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Normalisations: layer_norm, batch_norm, npu.rms_norm. Their outputs take
// the dtype of the normalised input (PyTorch's mixed-precision rule for
// parameters of another float dtype).

func init() {
	register("layer_norm", &kernel{forward: layerNormForward, backward: layerNormBackward})
	register("batch_norm", &kernel{forward: batchNormForward, backward: batchNormBackward})
	register("npu.rms_norm", &kernel{forward: rmsNormForward, backward: rmsNormBackward})
}

// ---- layer_norm ----

type nnLayerNorm struct {
	x, w, b    *array
	rows, cols int
	eps        float64
}

func layerNormSetup(c *call) (*nnLayerNorm, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	w, b := nnInput(c, 1), nnInput(c, 2)
	if _, err := nnFloatOnly("LayerNormKernelImpl", x, w, b); err != nil {
		return nil, err
	}
	if !c.attrs.Has("normalized_shape") {
		return nil, fmt.Errorf("layer_norm() missing required argument 'normalized_shape'")
	}
	ns64 := c.attrs.Ints("normalized_shape", nil)
	ns := make([]int, len(ns64))
	for i, v := range ns64 {
		ns[i] = int(v)
	}
	if len(ns) < 1 {
		return nil, fmt.Errorf("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = %s", ops.ShapeList(ns))
	}
	for _, p := range []struct {
		a    *array
		name string
	}{{w, "weight"}, {b, "bias"}} {
		if p.a != nil && !slices.Equal(p.a.shape, ns) {
			return nil, fmt.Errorf("Expected %s to be of same shape as normalized_shape, but got %s of shape %s and normalized_shape = %s", p.name, p.name, ops.ShapeList(p.a.shape), ops.ShapeList(ns))
		}
	}
	r := len(x.shape)
	if r < len(ns) || !slices.Equal(x.shape[r-len(ns):], ns) {
		star := "[*"
		for _, s := range ns {
			star += fmt.Sprintf(", %d", s)
		}
		return nil, fmt.Errorf("Given normalized_shape=%s, expected input with shape %s], but got input of size%s", ops.ShapeList(ns), star, ops.ShapeList(x.shape))
	}
	return &nnLayerNorm{x: x, w: w, b: b,
		rows: tensor.NumElements(x.shape[:r-len(ns)]), cols: tensor.NumElements(ns),
		eps: c.attrs.Float("eps", 1e-5)}, nil
}

// nnMoments returns the mean and the biased variance of v (two-pass).
func nnMoments(v []float64) (mean, variance float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		d := x - mean
		variance += d * d
	}
	return mean, variance / float64(len(v))
}

// stats returns the mean and 1/sqrt(var+eps) of each row (at bfloat16
// as PyTorch's bfloat16 kernel rounds them, nn_norm_narrow.go).
func (ln *nnLayerNorm) stats() (mean, rstd []float64) {
	if ln.bf16() {
		return ln.bf16Stats()
	}
	mean = make([]float64, ln.rows)
	rstd = make([]float64, ln.rows)
	for r := 0; r < ln.rows; r++ {
		m, v := nnMoments(ln.x.data[r*ln.cols : (r+1)*ln.cols])
		mean[r] = m
		rstd[r] = 1 / math.Sqrt(math.Max(v, 0)+ln.eps)
	}
	return
}

func layerNormForward(c *call) ([]*array, error) {
	ln, err := layerNormSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(ln.x.shape, ln.x.dtype)
	mean, rstd := ln.stats()
	if ln.bf16() {
		ln.bf16Forward(out.data, mean, rstd)
		return []*array{out}, nil
	}
	for r := 0; r < ln.rows; r++ {
		for j := 0; j < ln.cols; j++ {
			k := r*ln.cols + j
			v := (ln.x.data[k] - mean[r]) * rstd[r]
			if ln.w != nil {
				v *= ln.w.data[j]
			}
			if ln.b != nil {
				v += ln.b.data[j]
			}
			out.data[k] = v
		}
	}
	return []*array{out}, nil
}

func layerNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	ln, err := layerNormSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gw, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return []*array{gx, gw, gb}, nil
	}
	mean, rstd := ln.stats()
	if ln.bf16() {
		ln.bf16Backward(g.data, gx, gw, gb, mean, rstd)
		return []*array{gx, gw, gb}, nil
	}
	n := float64(ln.cols)
	gh := make([]float64, ln.cols)
	for r := 0; r < ln.rows; r++ {
		var s1, s2 float64
		for j := 0; j < ln.cols; j++ {
			k := r*ln.cols + j
			xh := (ln.x.data[k] - mean[r]) * rstd[r]
			gv := g.data[k]
			if gw != nil {
				gw.data[j] += gv * xh
			}
			if gb != nil {
				gb.data[j] += gv
			}
			if ln.w != nil {
				gv *= ln.w.data[j]
			}
			gh[j] = gv
			s1 += gv
			s2 += gv * xh
		}
		if gx == nil {
			continue
		}
		for j := 0; j < ln.cols; j++ {
			k := r*ln.cols + j
			xh := (ln.x.data[k] - mean[r]) * rstd[r]
			gx.data[k] = rstd[r] * (gh[j] - s1/n - xh*s2/n)
		}
	}
	return []*array{gx, gw, gb}, nil
}

// ---- batch_norm ----

type nnBatchNorm struct {
	x, rm, rv, w, b *array
	n, ch, inner    int // x viewed as (n, ch, inner)
	train           bool
	eps             float64
}

func batchNormSetup(c *call) (*nnBatchNorm, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	bn := &nnBatchNorm{x: x, rm: nnInput(c, 1), rv: nnInput(c, 2), w: nnInput(c, 3), b: nnInput(c, 4),
		train: c.attrs.Bool("training", false), eps: c.attrs.Float("eps", 1e-5)}
	if _, err := nnFloatOnly("batch_norm", x, bn.rm, bn.rv, bn.w, bn.b); err != nil {
		return nil, err
	}
	if len(x.shape) < 2 {
		return nil, fmt.Errorf("Dimension out of range (expected to be in range of [-%d, %d], but got 1)", max(len(x.shape), 1), max(len(x.shape), 1)-1)
	}
	bn.n, bn.ch, bn.inner = x.shape[0], x.shape[1], tensor.NumElements(x.shape[2:])
	if bn.train && bn.n*bn.inner == 1 {
		return nil, fmt.Errorf("Expected more than 1 value per channel when training, got input size torch.Size(%s)", ops.ShapeList(x.shape))
	}
	if !bn.train {
		if bn.rm == nil {
			return nil, fmt.Errorf("running_mean must be defined in evaluation mode")
		}
		if bn.rv == nil {
			return nil, fmt.Errorf("running_var must be defined in evaluation mode")
		}
	}
	for _, p := range []struct {
		a    *array
		name string
	}{{bn.w, "weight"}, {bn.b, "bias"}, {bn.rm, "running_mean"}, {bn.rv, "running_var"}} {
		if p.a != nil && p.a.len() != bn.ch {
			return nil, fmt.Errorf("%s should contain %d elements not %d", p.name, bn.ch, p.a.len())
		}
	}
	return bn, nil
}

// stats returns the per-channel mean and 1/sqrt(var+eps) used to normalise:
// batch statistics (biased variance) in training, running ones otherwise;
// at bfloat16 the batch statistics as PyTorch rounds them
// (nn_norm_narrow.go).
func (bn *nnBatchNorm) stats() (mean, invstd []float64) {
	mean = make([]float64, bn.ch)
	invstd = make([]float64, bn.ch)
	cnt := bn.n * bn.inner
	// channels are independent: one goroutine each, the same sums
	parallelFor(runtime.GOMAXPROCS(0), bn.ch, func(_, ch int) {
		if !bn.train {
			mean[ch] = bn.rm.data[ch]
			invstd[ch] = 1 / math.Sqrt(bn.rv.data[ch]+bn.eps)
			return
		}
		if cnt == 0 {
			mean[ch], invstd[ch] = math.NaN(), math.NaN()
			return
		}
		s := 0.0
		bn.each(ch, func(k int) { s += bn.x.data[k] })
		m := s / float64(cnt)
		if bn.bf16() {
			mean[ch], invstd[ch] = bn.bf16Stats(ch, m)
			return
		}
		v := 0.0
		bn.each(ch, func(k int) { d := bn.x.data[k] - m; v += d * d })
		mean[ch] = m
		invstd[ch] = 1 / math.Sqrt(v/float64(cnt)+bn.eps)
	})
	return
}

// each calls f with the flat index of every element of channel ch.
func (bn *nnBatchNorm) each(ch int, f func(k int)) {
	for i := 0; i < bn.n; i++ {
		base := (i*bn.ch + ch) * bn.inner
		for j := 0; j < bn.inner; j++ {
			f(base + j)
		}
	}
}

func batchNormForward(c *call) ([]*array, error) {
	bn, err := batchNormSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(bn.x.shape, bn.x.dtype)
	mean, invstd := bn.stats()
	parallelFor(runtime.GOMAXPROCS(0), bn.ch, func(_, ch int) {
		w, b := 1.0, 0.0
		if bn.w != nil {
			w = bn.w.data[ch]
		}
		if bn.b != nil {
			b = bn.b.data[ch]
		}
		bn.each(ch, func(k int) { out.data[k] = (bn.x.data[k]-mean[ch])*invstd[ch]*w + b })
	})
	return []*array{out}, nil
}

func batchNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	bn, err := batchNormSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gw, gb := nnGradFor(c, 0), nnGradFor(c, 3), nnGradFor(c, 4)
	res := []*array{gx, nil, nil, gw, gb}
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return res, nil
	}
	mean, invstd := bn.stats()
	cnt := float64(bn.n * bn.inner)
	parallelFor(runtime.GOMAXPROCS(0), bn.ch, func(_, ch int) {
		var sg, sgx float64 // Σg and Σg·x̂
		bn.each(ch, func(k int) {
			sg += g.data[k]
			sgx += g.data[k] * (bn.x.data[k] - mean[ch]) * invstd[ch]
		})
		if gw != nil {
			gw.data[ch] = sgx
		}
		if gb != nil {
			gb.data[ch] = sg
		}
		if gx == nil {
			return
		}
		w := 1.0
		if bn.w != nil {
			w = bn.w.data[ch]
		}
		if bn.train {
			bn.each(ch, func(k int) {
				xh := (bn.x.data[k] - mean[ch]) * invstd[ch]
				gx.data[k] = w * invstd[ch] * (g.data[k] - sg/cnt - xh*sgx/cnt)
			})
		} else {
			bn.each(ch, func(k int) { gx.data[k] = g.data[k] * w * invstd[ch] })
		}
	})
	return res, nil
}

// ---- npu.rms_norm ----

type nnRMSNorm struct {
	x, gamma   *array
	rows, cols int
	eps        float64
	rstdShape  []int
	rstdDType  tensor.DType
}

func rmsNormSetup(c *call) (*nnRMSNorm, error) {
	x, err := nnNeed(c, 0, "x")
	if err != nil {
		return nil, err
	}
	gm, err := nnNeed(c, 1, "gamma")
	if err != nil {
		return nil, err
	}
	if _, err := nnFloatOnly("npu_rms_norm", x, gm); err != nil {
		return nil, err
	}
	k := len(gm.shape)
	r := len(x.shape)
	if k == 0 || k > r || !slices.Equal(x.shape[r-k:], gm.shape) {
		return nil, fmt.Errorf("npu_rms_norm: gamma of shape %s must match the trailing dimensions of x of shape %s", ops.ShapeList(gm.shape), ops.ShapeList(x.shape))
	}
	rn := &nnRMSNorm{x: x, gamma: gm, rows: tensor.NumElements(x.shape[:r-k]), cols: gm.len(),
		eps: c.attrs.Float("epsilon", 1e-6)}
	rn.rstdShape = append([]int{}, x.shape[:r-k]...)
	for i := 0; i < k; i++ {
		rn.rstdShape = append(rn.rstdShape, 1)
	}
	// rstd is float32 on the NPU (float16/bfloat16/float32 inputs); a
	// float64 input keeps float64 so that the bench loses nothing.
	rn.rstdDType = tensor.Float32
	if x.dtype == tensor.Float64 {
		rn.rstdDType = tensor.Float64
	}
	return rn, nil
}

func (rn *nnRMSNorm) rstd() []float64 {
	out := make([]float64, rn.rows)
	for r := range out {
		s := 0.0
		for _, v := range rn.x.data[r*rn.cols : (r+1)*rn.cols] {
			s += v * v
		}
		out[r] = 1 / math.Sqrt(s/float64(rn.cols)+rn.eps)
	}
	return out
}

func rmsNormForward(c *call) ([]*array, error) {
	rn, err := rmsNormSetup(c)
	if err != nil {
		return nil, err
	}
	y := nnNew(rn.x.shape, rn.x.dtype)
	rs := rn.rstd()
	for r := 0; r < rn.rows; r++ {
		for j := 0; j < rn.cols; j++ {
			k := r*rn.cols + j
			y.data[k] = rn.x.data[k] * rs[r] * rn.gamma.data[j]
		}
	}
	return []*array{y, {shape: rn.rstdShape, data: rs, dtype: rn.rstdDType}}, nil
}

// rmsNormBackward is torch_npu's autograd: npu_rms_norm_backward(dy, x,
// gamma, rstd) from the gradient of y; a gradient given for rstd is
// ignored, as the NPU op's autograd function ignores it.
func rmsNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	rn, err := rmsNormSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gg := nnGradFor(c, 0), nnGradFor(c, 1)
	dy := nnGradOut(gradOuts, 0)
	if dy == nil {
		return []*array{gx, gg}, nil
	}
	rs := rn.rstd()
	d := float64(rn.cols)
	for r := 0; r < rn.rows; r++ {
		s := 0.0
		for j := 0; j < rn.cols; j++ {
			k := r*rn.cols + j
			s += dy.data[k] * rn.gamma.data[j] * rn.x.data[k]
			if gg != nil {
				gg.data[j] += dy.data[k] * rn.x.data[k] * rs[r]
			}
		}
		if gx == nil {
			continue
		}
		r3 := rs[r] * rs[r] * rs[r]
		for j := 0; j < rn.cols; j++ {
			k := r*rn.cols + j
			gx.data[k] = rs[r]*rn.gamma.data[j]*dy.data[k] - rn.x.data[k]*r3*s/d
		}
	}
	return []*array{gx, gg}, nil
}
