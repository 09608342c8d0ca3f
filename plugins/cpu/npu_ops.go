package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// torch_npu's fused operators (sdk/ops/schema_npu.go, fused-ops.md) with
// torch_npu's documented semantics.
//
// Precision model (an assumption: the CANN kernels are not available to
// measure): a fused kernel reads its inputs at their dtype, computes in
// float32 or wider without rounding its intermediates to the input dtype,
// and rounds each output once. The kernels here compute in float64 and
// leave the single rounding to the device wrapper (float16 and bfloat16
// through float32, as a float32 computation rounded to the half type
// would). Gradients are the autograd of the defining formula (what run_ut
// compares), computed the same way.

func init() {
	register("npu.swiglu", &kernel{forward: swigluForward, backward: swigluBackward})
	register("npu.rotary_mul", &kernel{forward: rotaryMulForward, backward: rotaryMulBackward})
	register("npu.fast_gelu", &kernel{forward: fastGeluForward, backward: fastGeluBackward})
	register("npu.mish", &kernel{forward: npuMishForward, backward: npuMishBackward})
	register("npu.scaled_masked_softmax", &kernel{forward: scaledMaskedSoftmaxForward, backward: scaledMaskedSoftmaxBackward})
	register("npu.confusion_transpose", &kernel{forward: confusionTransposeForward, backward: confusionTransposeBackward})
	register("npu.linear", &kernel{forward: npuLinearForward, backward: npuLinearBackward})
	register("npu.layer_norm_eval", &kernel{forward: layerNormEvalForward, backward: layerNormEvalBackward})
	supportDTypes("npu.confusion_transpose", append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	register("npu.apply_adam", &kernel{forward: applyAdamForward})
	register("npu.apply_adam_w", &kernel{forward: applyAdamWForward})
	register("npu.group_norm_silu", &kernel{forward: groupNormSiluForward})
	register("npu.moe_gating_top_k_softmax", &kernel{forward: moeGatingForward})
	register("npu.sort_v2", &kernel{forward: sortV2Forward, backward: sortV2Backward})
}

// npuSigmoid is σ(z) in its stable float64 form (fused-ops.md §0.5).
func npuSigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// npuRowChunk is the fixed number of rows of length n a parallel chunk
// takes (rows are independent, so any split gives the same bytes).
func npuRowChunk(n int) int { return max(1, chunkElems/max(n, 1)) }

// ---- npu.swiglu ----

type npuSwiglu struct {
	x               *array
	outer, half, in int
	outShape        []int
}

func swigluSetup(c *call) (*npuSwiglu, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	if _, err := nnFloatOnly("npu_swiglu", x); err != nil {
		return nil, err
	}
	if x.rank() == 0 {
		return nil, fmt.Errorf("npu_swiglu: input must have 1 to 8 dimensions, got a 0-d tensor")
	}
	d, err := normDim(c.attrs.Int("dim", -1), x.rank())
	if err != nil {
		return nil, err
	}
	if x.shape[d]%2 != 0 {
		return nil, fmt.Errorf("npu_swiglu: the size of dimension %d (%d) must be even", d, x.shape[d])
	}
	s := &npuSwiglu{x: x, outer: tensor.NumElements(x.shape[:d]), half: x.shape[d] / 2, in: tensor.NumElements(x.shape[d+1:])}
	s.outShape = slices.Clone(x.shape)
	s.outShape[d] = s.half
	return s, nil
}

// pos returns the positions in x of A and B for output element k.
func (s *npuSwiglu) pos(k int) (int, int) {
	hi := s.half * s.in
	a := (k/hi)*2*hi + k%hi
	return a, a + hi
}

func swigluForward(c *call) ([]*array, error) {
	s, err := swigluSetup(c)
	if err != nil {
		return nil, err
	}
	ref, err := npuMsprobe(c, "npu_swiglu")
	if err != nil {
		return nil, err
	}
	y := &array{shape: s.outShape, data: float64sFor(tensor.NumElements(s.outShape)), dtype: s.x.dtype}
	xd := s.x.data
	forChunks(len(y.data), func(from, to int) error {
		for k := from; k < to; k++ {
			ia, ib := s.pos(k)
			a := xd[ia]
			if ref {
				y.data[k] = swigluMsprobe(s.x.dtype, a, xd[ib])
				continue
			}
			y.data[k] = a * npuSigmoid(a) * xd[ib]
		}
		return nil
	})
	return []*array{y}, nil
}

// swigluBackward: dA = g·B·swish'(A), dB = g·silu(A) (fused-ops.md §11).
func swigluBackward(c *call, outs, gos []*array) ([]*array, error) {
	s, err := swigluSetup(c)
	if err != nil {
		return nil, err
	}
	ref, err := npuMsprobe(c, "npu_swiglu")
	if err != nil {
		return nil, err
	}
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	n := tensor.NumElements(s.outShape)
	g := gradData(nnGradOut(gos, 0), n)
	dx := float64sFor(len(s.x.data))
	xd := s.x.data
	forChunks(n, func(from, to int) error {
		for k := from; k < to; k++ {
			ia, ib := s.pos(k)
			a, b := xd[ia], xd[ib]
			if ref {
				dx[ia], dx[ib] = swigluMsprobeGrad(s.x.dtype, a, b, g[k])
				continue
			}
			sg := npuSigmoid(a)
			dx[ia] = g[k] * b * (sg + a*sg*(1-sg))
			dx[ib] = g[k] * a * sg
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, dx, s.x.shape)}, nil
}

// ---- npu.rotary_mul ----

type npuRotary struct {
	x, r1, r2  *array
	dt         tensor.DType
	d          int
	interleave bool
}

func rotarySetup(c *call) (*npuRotary, error) {
	var in [3]*array
	for i, n := range []string{"input", "r1", "r2"} {
		a, err := nnNeed(c, i, n)
		if err != nil {
			return nil, err
		}
		in[i] = a
	}
	dt, err := nnFloatOnly("npu_rotary_mul", in[0], in[1], in[2])
	if err != nil {
		return nil, err
	}
	x := in[0]
	if x.rank() == 0 || x.shape[x.rank()-1]%2 != 0 {
		return nil, fmt.Errorf("npu_rotary_mul: the last dimension of input %s must be even", ops.ShapeList(x.shape))
	}
	for i, n := range []string{"r1", "r2"} {
		r := in[i+1]
		if b, err := ops.BroadcastShapes(r.shape, x.shape); err != nil || !slices.Equal(b, x.shape) {
			return nil, fmt.Errorf("npu_rotary_mul: %s of shape %s does not broadcast to input's shape %s", n, ops.ShapeList(r.shape), ops.ShapeList(x.shape))
		}
	}
	mode := c.attrs.Str("rotary_mode", "half")
	if mode != "half" && mode != "interleave" {
		return nil, fmt.Errorf("npu_rotary_mul: rotary_mode must be 'half' or 'interleave', got %q", mode)
	}
	return &npuRotary{x: x, r1: in[1], r2: in[2], dt: dt, d: x.shape[x.rank()-1], interleave: mode == "interleave"}, nil
}

// rot is rot(v)[k]: half mode concat(−v2, v1) of the last dim's halves,
// interleave mode (−v[2i+1], v[2i]).
func (r *npuRotary) rot(v []float64, k int) float64 {
	j := k % r.d
	if r.interleave {
		if j%2 == 0 {
			return -v[k+1]
		}
		return v[k-1]
	}
	if h := r.d / 2; j < h {
		return -v[k+h]
	}
	return v[k-r.d/2]
}

// rotT is the transpose of rot applied to v: half mode concat(v2, −v1),
// interleave mode (v[2i+1], −v[2i]).
func (r *npuRotary) rotT(v []float64, k int) float64 {
	return -r.rot(v, k)
}

func rotaryMulForward(c *call) ([]*array, error) {
	r, err := rotarySetup(c)
	if err != nil {
		return nil, err
	}
	xs := r.x.shape
	y := &array{shape: slices.Clone(xs), data: float64sFor(len(r.x.data)), dtype: r.dt}
	forChunks(len(y.data), func(from, to int) error {
		i1, i2 := newBcastIter(r.r1.shape, xs), newBcastIter(r.r2.shape, xs)
		i1.seek(from)
		i2.seek(from)
		for k := from; k < to; k++ {
			y.data[k] = r.r1.data[i1.pos]*r.x.data[k] + r.r2.data[i2.pos]*r.rot(r.x.data, k)
			i1.step()
			i2.step()
		}
		return nil
	})
	return []*array{y}, nil
}

// rotaryMulBackward: dx = r1·dy + rotᵀ(r2·dy), dr1 = Σ dy·x and
// dr2 = Σ dy·rot(x) over the broadcast dims (fused-ops.md §9).
func rotaryMulBackward(c *call, outs, gos []*array) ([]*array, error) {
	r, err := rotarySetup(c)
	if err != nil {
		return nil, err
	}
	xs := r.x.shape
	n := len(r.x.data)
	g := gradData(nnGradOut(gos, 0), n)
	res := make([]*array, 3)
	if nnWantsGrad(c, 0) {
		u := float64sFor(n)
		forChunks(n, func(from, to int) error {
			it := newBcastIter(r.r2.shape, xs)
			it.seek(from)
			for k := from; k < to; k++ {
				u[k] = r.r2.data[it.pos] * g[k]
				it.step()
			}
			return nil
		})
		dx := float64sFor(n)
		forChunks(n, func(from, to int) error {
			// rotᵀ reads u within the row of k, which a chunk may not
			// hold: u is complete before this pass.
			it := newBcastIter(r.r1.shape, xs)
			it.seek(from)
			for k := from; k < to; k++ {
				dx[k] = r.r1.data[it.pos]*g[k] + r.rotT(u, k)
				it.step()
			}
			return nil
		})
		res[0] = gradForOwned(c, 0, dx, xs)
	}
	for i := 1; i <= 2; i++ {
		if !nnWantsGrad(c, i) {
			continue
		}
		p := float64sFor(n)
		forChunks(n, func(from, to int) error {
			for k := from; k < to; k++ {
				if i == 1 {
					p[k] = g[k] * r.x.data[k]
				} else {
					p[k] = g[k] * r.rot(r.x.data, k)
				}
			}
			return nil
		})
		res[i] = gradForOwned(c, i, p, xs)
	}
	return res, nil
}

// ---- npu.fast_gelu and npu.mish ----

// fastGeluA is fast_gelu's 1.702.
const fastGeluA = 1.702

func fastGeluForward(c *call) ([]*array, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	if _, err := nnFloatOnly("npu_fast_gelu", x); err != nil {
		return nil, err
	}
	return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
		for i, v := range src {
			dst[i] = v * npuSigmoid(fastGeluA*v)
		}
	})}, nil
}

// fastGeluBackward: dx = g·(σ(ax) + a·x·σ(ax)·(1 − σ(ax))) (fused-ops.md §4).
func fastGeluBackward(c *call, outs, gos []*array) ([]*array, error) {
	return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
		for i, v := range x {
			s := npuSigmoid(fastGeluA * v)
			dst[i] = g[i] * (s + fastGeluA*v*s*(1-s))
		}
	}), nil
}

func npuMishForward(c *call) ([]*array, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	if _, err := nnFloatOnly("npu_mish", x); err != nil {
		return nil, err
	}
	return []*array{nnMap(x, x.dtype, func(dst, src []float64) {
		for i, v := range src {
			dst[i] = v * math.Tanh(math.Log1p(math.Exp(v)))
		}
	})}, nil
}

// npuMishBackward: dx = g·(t + x·σ(x)·(1 − t²)), t = tanh(softplus(x))
// (fused-ops.md §13).
func npuMishBackward(c *call, outs, gos []*array) ([]*array, error) {
	return nnGradMap(c, gos, c.in[0].data, func(dst, g, x []float64) {
		for i, v := range x {
			t := math.Tanh(math.Log1p(math.Exp(v)))
			dst[i] = g[i] * (t + v*npuSigmoid(v)*(1-t*t))
		}
	}), nil
}

// ---- npu.scaled_masked_softmax ----

// scaledMaskFill is the value masked positions take (fused-ops.md §10).
const scaledMaskFill = -10000.0

type npuSMS struct {
	x, mask    *array
	rows, w    int
	rowsPerMat int // the size of the second-to-last dim (fixed_triu_mask)
	scale      float64
	triu       bool
}

func scaledMaskedSoftmaxSetup(c *call) (*npuSMS, error) {
	x, err := nnNeed(c, 0, "x")
	if err != nil {
		return nil, err
	}
	mask, err := nnNeed(c, 1, "mask")
	if err != nil {
		return nil, err
	}
	if _, err := nnFloatOnly("npu_scaled_masked_softmax", x); err != nil {
		return nil, err
	}
	if mask.dtype != tensor.Bool {
		return nil, fmt.Errorf("npu_scaled_masked_softmax: mask must be a bool tensor, got %s", mask.dtype)
	}
	if b, err := ops.BroadcastShapes(mask.shape, x.shape); err != nil || !slices.Equal(b, x.shape) {
		return nil, fmt.Errorf("npu_scaled_masked_softmax: mask of shape %s does not broadcast to x's shape %s", ops.ShapeList(mask.shape), ops.ShapeList(x.shape))
	}
	s := &npuSMS{x: x, mask: mask, scale: c.attrs.Float("scale", 1), triu: c.attrs.Bool("fixed_triu_mask", false), rows: 1, w: 1, rowsPerMat: 1}
	if x.rank() > 0 {
		s.w = x.shape[x.rank()-1]
		s.rows = tensor.NumElements(x.shape[:x.rank()-1])
	}
	if s.triu {
		if x.rank() < 2 {
			return nil, fmt.Errorf("npu_scaled_masked_softmax: fixed_triu_mask needs x of at least 2 dimensions, got %s", ops.ShapeList(x.shape))
		}
		s.rowsPerMat = x.shape[x.rank()-2]
	}
	return s, nil
}

// masked fills m[j] with whether element j of row r is masked.
func (s *npuSMS) masked(r int, it *bcastIter, m []bool) {
	if s.triu {
		i := r % s.rowsPerMat
		for j := range m {
			m[j] = j > i
		}
		return
	}
	it.seek(r * s.w)
	for j := range m {
		m[j] = s.mask.data[it.pos] != 0
		it.step()
	}
}

func scaledMaskedSoftmaxForward(c *call) ([]*array, error) {
	s, err := scaledMaskedSoftmaxSetup(c)
	if err != nil {
		return nil, err
	}
	ref, err := npuMsprobe(c, "npu_scaled_masked_softmax")
	if err != nil {
		return nil, err
	}
	y := s.softmax
	if ref {
		y = s.softmaxMsprobe
	}
	return []*array{{shape: slices.Clone(s.x.shape), data: y(), dtype: s.x.dtype}}, nil
}

// softmax returns y in float64.
func (s *npuSMS) softmax() []float64 {
	y := float64sFor(len(s.x.data))
	if s.w == 0 || s.rows == 0 {
		return y
	}
	s.eachRow(func(r int, it *bcastIter, m []bool, _ []float64) {
		s.masked(r, it, m)
		xr, yr := s.x.data[r*s.w:(r+1)*s.w], y[r*s.w:(r+1)*s.w]
		mx := math.Inf(-1)
		for j, v := range xr {
			z := scaledMaskFill
			if !m[j] {
				z = v * s.scale
			}
			yr[j] = z
			if z > mx || math.IsNaN(z) {
				mx = z
			}
		}
		sum := 0.0
		for j, z := range yr {
			yr[j] = math.Exp(z - mx)
			sum += yr[j]
		}
		for j := range yr {
			yr[j] /= sum
		}
	})
	return y
}

// eachRow runs row for every row r of x, the rows split over the cores in
// fixed chunks; each goroutine passes its own mask iterator, row mask and
// scratch row (w values) to every call it makes.
func (s *npuSMS) eachRow(row func(r int, it *bcastIter, m []bool, scratch []float64)) {
	parallel.Chunks(s.rows, npuRowChunk(s.w), func(from, to int) error {
		it := newBcastIter(s.mask.shape, s.x.shape)
		m, scratch := make([]bool, s.w), make([]float64, s.w)
		for r := from; r < to; r++ {
			row(r, it, m, scratch)
		}
		return nil
	})
}

// scaledMaskedSoftmaxBackward: dx = scale·y·(dy − Σ dy·y), zero where
// masked (fused-ops.md §10), from y recomputed in float64 (the autograd of
// the formula, not torch_npu's backward from the rounded y).
func scaledMaskedSoftmaxBackward(c *call, outs, gos []*array) ([]*array, error) {
	s, err := scaledMaskedSoftmaxSetup(c)
	if err != nil {
		return nil, err
	}
	ref, err := npuMsprobe(c, "npu_scaled_masked_softmax")
	if err != nil {
		return nil, err
	}
	if !nnWantsGrad(c, 0) {
		return []*array{nil, nil}, nil
	}
	n := len(s.x.data)
	g := gradData(nnGradOut(gos, 0), n)
	dx := float64sFor(n)
	if ref {
		s.gradMsprobe(g, dx)
	} else {
		s.grad(g, s.softmax(), dx)
	}
	return []*array{gradForOwned(c, 0, dx, s.x.shape), nil}, nil
}

// grad writes into dx the gradient of the softmax y for the output
// gradient g: scale·y·(g − Σ g·y) per row, 0 where masked.
func (s *npuSMS) grad(g, y, dx []float64) {
	s.eachRow(func(r int, it *bcastIter, m []bool, _ []float64) {
		s.masked(r, it, m)
		o := r * s.w
		dot := 0.0
		for j := 0; j < s.w; j++ {
			dot += g[o+j] * y[o+j]
		}
		for j := 0; j < s.w; j++ {
			if m[j] {
				dx[o+j] = 0
			} else {
				dx[o+j] = s.scale * y[o+j] * (g[o+j] - dot)
			}
		}
	})
}

// ---- npu.confusion_transpose ----

// confusionSrc returns the output shape and, for each output element, the
// position of its value in x.
func confusionSrc(c *call) (*array, []int, []int, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	perm := c.attrs.Ints("perm", nil)
	shape := c.attrs.Ints("shape", nil)
	first := c.attrs.Bool("transpose_first", false)
	n := x.len()
	resolved, err := npuViewShape(shape, n)
	if err != nil {
		return nil, nil, nil, err
	}
	permuted := x.shape // the tensor that is permuted
	if !first {
		permuted = resolved
	}
	r := len(permuted)
	if len(perm) != r {
		return nil, nil, nil, fmt.Errorf("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", r, len(perm))
	}
	p := make([]int, r)
	seen := make([]bool, r)
	for k, v := range perm {
		d, err := normDim(v, r)
		if err != nil {
			return nil, nil, nil, err
		}
		if seen[d] {
			return nil, nil, nil, fmt.Errorf("permute(): duplicate dims are not allowed.")
		}
		seen[d], p[k] = true, d
	}
	pshape := make([]int, r)
	st := contiguousStrides(permuted)
	pst := make([]int, r)
	for k, d := range p {
		pshape[k], pst[k] = permuted[d], st[d]
	}
	out := pshape
	if first {
		out = resolved
	}
	src := make([]int, n)
	forChunks(n, func(from, to int) error {
		for k := from; k < to; k++ {
			rem, pos := k, 0
			for d := r - 1; d >= 0; d-- {
				pos += (rem % pshape[d]) * pst[d]
				rem /= pshape[d]
			}
			src[k] = pos
		}
		return nil
	})
	return x, out, src, nil
}

// npuViewShape resolves a view's shape (one -1 allowed) for n elements,
// with PyTorch's messages.
func npuViewShape(shape []int64, n int) ([]int, error) {
	out := make([]int, len(shape))
	infer, known := -1, 1
	for i, v := range shape {
		switch {
		case v == -1 && infer < 0:
			infer = i
		case v == -1:
			return nil, fmt.Errorf("only one dimension can be inferred")
		case v < 0:
			return nil, fmt.Errorf("invalid shape dimension %d", v)
		default:
			out[i] = int(v)
			known *= int(v)
		}
	}
	bad := func() error {
		return fmt.Errorf("shape '%s' is invalid for input of size %d", ops.ShapeList(npuInts(shape)), n)
	}
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return nil, bad()
		}
		out[infer] = n / known
	} else if known != n {
		return nil, bad()
	}
	return out, nil
}

func confusionTransposeForward(c *call) ([]*array, error) {
	x, out, src, err := confusionSrc(c)
	if err != nil {
		return nil, err
	}
	y := &array{shape: slices.Clone(out), data: float64sFor(len(src)), dtype: x.dtype}
	forChunks(len(src), func(from, to int) error {
		for k := from; k < to; k++ {
			y.data[k] = x.data[src[k]]
		}
		return nil
	})
	return []*array{y}, nil
}

// confusionTransposeBackward moves the gradient back: the inverse data
// movement (fused-ops.md §3).
func confusionTransposeBackward(c *call, outs, gos []*array) ([]*array, error) {
	x, _, src, err := confusionSrc(c)
	if err != nil {
		return nil, err
	}
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	g := gradData(nnGradOut(gos, 0), len(src))
	dx := float64sFor(len(src))
	forChunks(len(src), func(from, to int) error {
		for k := from; k < to; k++ {
			dx[src[k]] = g[k]
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, dx, x.shape)}, nil
}

// ---- npu.linear ----

type npuLin struct {
	x, w, b *array
	m, n, k int
	dt      tensor.DType
}

func npuLinearSetup(c *call) (*npuLin, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	w, err := nnNeed(c, 1, "weight")
	if err != nil {
		return nil, err
	}
	b := nnInput(c, 2)
	dt, err := nnFloatOnly("npu_linear", x, w, b)
	if err != nil {
		return nil, err
	}
	if x.rank() < 1 || w.rank() != 2 || x.shape[x.rank()-1] != w.shape[1] {
		return nil, fmt.Errorf("npu_linear: input %s and weight %s do not match (want input [.., K], weight [N, K])", ops.ShapeList(x.shape), ops.ShapeList(w.shape))
	}
	if b != nil && (b.rank() != 1 || b.shape[0] != w.shape[0]) {
		return nil, fmt.Errorf("npu_linear: bias of shape %s does not match weight's %d output features", ops.ShapeList(b.shape), w.shape[0])
	}
	k := w.shape[1]
	return &npuLin{x: x, w: w, b: b, m: tensor.NumElements(x.shape[:x.rank()-1]), n: w.shape[0], k: k, dt: dt}, nil
}

func npuLinearForward(c *call) ([]*array, error) {
	l, err := npuLinearSetup(c)
	if err != nil {
		return nil, err
	}
	shape := append(slices.Clone(l.x.shape[:l.x.rank()-1]), l.n)
	y := &array{shape: shape, data: float64sFor(l.m * l.n), dtype: l.dt}
	nnGemm(false, true, l.m, l.n, l.k, l.x.data, l.w.data, y.data, false)
	if l.b != nil {
		for i := 0; i < l.m; i++ {
			row := y.data[i*l.n : (i+1)*l.n]
			for j := range row {
				row[j] += l.b.data[j]
			}
		}
	}
	return []*array{y}, nil
}

// npuLinearBackward: dx = g·W, dW = gᵀ·x, db = Σ_rows g (fused-ops.md §6).
func npuLinearBackward(c *call, outs, gos []*array) ([]*array, error) {
	l, err := npuLinearSetup(c)
	if err != nil {
		return nil, err
	}
	g := gradData(nnGradOut(gos, 0), l.m*l.n)
	res := make([]*array, 3)
	if nnWantsGrad(c, 0) {
		dx := float64sFor(l.m * l.k)
		nnGemm(false, false, l.m, l.k, l.n, g, l.w.data, dx, false)
		res[0] = gradForOwned(c, 0, dx, l.x.shape)
	}
	if nnWantsGrad(c, 1) {
		dw := float64sFor(l.n * l.k)
		nnGemm(true, false, l.n, l.k, l.m, g, l.x.data, dw, false)
		res[1] = gradForOwned(c, 1, dw, l.w.shape)
	}
	if nnWantsGrad(c, 2) {
		db := zeros(l.n)
		for i := 0; i < l.m; i++ {
			for j, v := range g[i*l.n : (i+1)*l.n] {
				db[j] += v
			}
		}
		res[2] = gradForOwned(c, 2, db, l.b.shape)
	}
	return res, nil
}

// ---- npu.layer_norm_eval ----

type npuLN struct {
	x, w, b    *array
	rows, cols int
	eps        float64
	// ref: msprobe's reference, whose weight and bias take no gradient
	ref bool
}

func layerNormEvalSetup(c *call) (*npuLN, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	w, b := nnInput(c, 1), nnInput(c, 2)
	if _, err := nnFloatOnly("npu_layer_norm_eval", x, w, b); err != nil {
		return nil, err
	}
	ns := c.attrs.Ints("normalized_shape", nil)
	k := len(ns)
	r := x.rank()
	want := make([]int, k)
	for i, v := range ns {
		want[i] = int(v)
	}
	if k == 0 || k > r || !slices.Equal(x.shape[r-k:], want) {
		return nil, fmt.Errorf("Given normalized_shape=%s, expected input with shape [*, %s], but got input of size%s",
			ops.ShapeList(want), joinShape(want), ops.ShapeList(x.shape))
	}
	for i, a := range []*array{w, b} {
		if a != nil && !slices.Equal(a.shape, want) {
			return nil, fmt.Errorf("npu_layer_norm_eval: %s of shape %s must have normalized_shape %s", []string{"weight", "bias"}[i],
				ops.ShapeList(a.shape), ops.ShapeList(want))
		}
	}
	cols := tensor.NumElements(want)
	rows := 0
	if cols > 0 {
		rows = x.len() / cols
	}
	l := &npuLN{x: x, w: w, b: b, rows: rows, cols: cols, eps: c.attrs.Float("eps", 1e-5)}
	ref, err := npuMsprobe(c, "npu_layer_norm_eval")
	if err != nil {
		return nil, err
	}
	if ref {
		// msprobe's reference is layer_norm(x, normalized_shape): weight,
		// bias and eps ignored, PyTorch's default eps (§17 #13)
		l.w, l.b, l.eps, l.ref = nil, nil, 1e-5, true
	}
	return l, nil
}

// npuInts converts attribute ints for messages.
func npuInts(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// joinShape spells dims as "4, 8".
func joinShape(s []int) string {
	l := ops.ShapeList(s)
	return l[1 : len(l)-1]
}

// norm returns x̂ of every row and each row's 1/sqrt(var + eps).
func (l *npuLN) norm() ([]float64, []float64) {
	xh := float64sFor(l.rows * l.cols)
	rs := make([]float64, l.rows)
	parallel.Chunks(l.rows, npuRowChunk(l.cols), func(from, to int) error {
		for r := from; r < to; r++ {
			xr := l.x.data[r*l.cols : (r+1)*l.cols]
			mu := 0.0
			for _, v := range xr {
				mu += v
			}
			mu /= float64(l.cols)
			v2 := 0.0
			for _, v := range xr {
				v2 += (v - mu) * (v - mu)
			}
			rs[r] = 1 / math.Sqrt(v2/float64(l.cols)+l.eps)
			for j, v := range xr {
				xh[r*l.cols+j] = (v - mu) * rs[r]
			}
		}
		return nil
	})
	return xh, rs
}

func layerNormEvalForward(c *call) ([]*array, error) {
	l, err := layerNormEvalSetup(c)
	if err != nil {
		return nil, err
	}
	xh, _ := l.norm()
	y := &array{shape: slices.Clone(l.x.shape), data: xh, dtype: l.x.dtype}
	forChunks(len(xh), func(from, to int) error {
		for k := from; k < to; k++ {
			j := k % l.cols
			if l.w != nil {
				xh[k] *= l.w.data[j]
			}
			if l.b != nil {
				xh[k] += l.b.data[j]
			}
		}
		return nil
	})
	return []*array{y}, nil
}

// layerNormEvalBackward: with gw = dy·w, dx = r·(gw − mean(gw) − x̂·mean(gw·x̂)),
// dw = Σ_rows dy·x̂, db = Σ_rows dy (fused-ops.md §5).
func layerNormEvalBackward(c *call, outs, gos []*array) ([]*array, error) {
	l, err := layerNormEvalSetup(c)
	if err != nil {
		return nil, err
	}
	n := l.rows * l.cols
	g := gradData(nnGradOut(gos, 0), n)
	xh, rs := l.norm()
	res := make([]*array, 3)
	if nnWantsGrad(c, 0) {
		dx := float64sFor(n)
		parallel.Chunks(l.rows, npuRowChunk(l.cols), func(from, to int) error {
			for r := from; r < to; r++ {
				o := r * l.cols
				s1, s2 := 0.0, 0.0
				for j := 0; j < l.cols; j++ {
					gw := g[o+j]
					if l.w != nil {
						gw *= l.w.data[j]
					}
					dx[o+j] = gw
					s1 += gw
					s2 += gw * xh[o+j]
				}
				m1, m2 := s1/float64(l.cols), s2/float64(l.cols)
				for j := 0; j < l.cols; j++ {
					dx[o+j] = rs[r] * (dx[o+j] - m1 - xh[o+j]*m2)
				}
			}
			return nil
		})
		res[0] = gradForOwned(c, 0, dx, l.x.shape)
	}
	for i := 1; i <= 2; i++ {
		if !nnWantsGrad(c, i) || l.ref {
			continue
		}
		d := zeros(l.cols)
		parallel.Chunks(l.cols, npuRowChunk(l.rows), func(from, to int) error {
			for j := from; j < to; j++ {
				s := 0.0
				for r := 0; r < l.rows; r++ {
					if i == 1 {
						s += g[r*l.cols+j] * xh[r*l.cols+j]
					} else {
						s += g[r*l.cols+j]
					}
				}
				d[j] = s
			}
			return nil
		})
		res[i] = gradForOwned(c, i, d, c.in[i].shape)
	}
	return res, nil
}

// ---- npu.apply_adam and npu.apply_adam_w ----

// adamInputs returns var, m, v, grad and, for n = 5, max_grad_norm (nil
// when None): float tensors of var's shape. The outputs take var's dtype.
func adamInputs(c *call, fn string, n int) ([]*array, error) {
	names := []string{"var", "m", "v", "grad", "max_grad_norm"}[:n]
	in := make([]*array, n)
	for i, name := range names {
		a := nnInput(c, i)
		if a == nil {
			if name == "max_grad_norm" {
				continue
			}
			return nil, fmt.Errorf("%s: %s must be a tensor, not None (var, m and v are given by out=)", fn, name)
		}
		if _, err := nnFloatOnly(fn, a); err != nil {
			return nil, err
		}
		if i > 0 && !slices.Equal(a.shape, in[0].shape) {
			return nil, fmt.Errorf("%s: %s of shape %s does not match var's shape %s", fn, name, ops.ShapeList(a.shape), ops.ShapeList(in[0].shape))
		}
		in[i] = a
	}
	return in, nil
}

// adamScalars reads the Scalar inputs from input from on (a number or a
// one-element tensor).
func adamScalars(c *call, fn string, from int, names ...string) ([]float64, error) {
	out := make([]float64, len(names))
	for i, n := range names {
		a := nnInput(c, from+i)
		if a == nil || len(a.data) != 1 {
			return nil, fmt.Errorf("%s: %s must be a number or a one-element tensor", fn, n)
		}
		out[i] = a.data[0]
	}
	return out, nil
}

// adamOutputs allocates (var', m', v') shaped and typed like var.
func adamOutputs(v *array) []*array {
	outs := make([]*array, 3)
	for i := range outs {
		outs[i] = &array{shape: slices.Clone(v.shape), data: float64sFor(len(v.data)), dtype: v.dtype}
	}
	return outs
}

// applyAdamForward: TF ApplyAdam (fused-ops.md §1), beta1_power and
// beta2_power used as given, in REF's evaluation order.
func applyAdamForward(c *call) ([]*array, error) {
	in, err := adamInputs(c, "npu_apply_adam", 4)
	if err != nil {
		return nil, err
	}
	sc, err := adamScalars(c, "npu_apply_adam", 4, "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")
	if err != nil {
		return nil, err
	}
	b1p, b2p, lr, b1, b2, eps := sc[0], sc[1], sc[2], sc[3], sc[4], sc[5]
	nesterov := c.attrs.Bool("use_nesterov", false)
	lrt := lr * math.Sqrt(1-b2p) / (1 - b1p)
	outs := adamOutputs(in[0])
	vr, m, v, g := in[0].data, in[1].data, in[2].data, in[3].data
	ov, om, ovv := outs[0].data, outs[1].data, outs[2].data
	forChunks(len(vr), func(from, to int) error {
		for i := from; i < to; i++ {
			mt := m[i] + (b1-1)*(m[i]-g[i])
			vt := v[i] + (b2-1)*(v[i]-g[i]*g[i])
			num := mt
			if nesterov {
				num = b1*mt + (1-b1)*g[i]
			}
			ov[i] = vr[i] - lrt*num/(eps+math.Sqrt(vt))
			om[i], ovv[i] = mt, vt
		}
		return nil
	})
	return outs, nil
}

// applyAdamWForward: fused-ops.md §2 with the given max_grad_norm under
// amsgrad (§17 #14: msprobe's reference draws random values instead).
func applyAdamWForward(c *call) ([]*array, error) {
	in, err := adamInputs(c, "npu_apply_adam_w", 5)
	if err != nil {
		return nil, err
	}
	sc, err := adamScalars(c, "npu_apply_adam_w", 5, "beta1_power", "beta2_power", "lr", "weight_decay", "beta1", "beta2", "epsilon")
	if err != nil {
		return nil, err
	}
	lr, wd, b1, b2, eps := sc[2], sc[3], sc[4], sc[5], sc[6]
	b1p, b2p := sc[0]*b1, sc[1]*b2
	ams, maximize := c.attrs.Bool("amsgrad", false), c.attrs.Bool("maximize", false)
	if ams && in[4] == nil {
		return nil, fmt.Errorf("npu_apply_adam_w: amsgrad=True needs max_grad_norm, got None")
	}
	if ams && 1-b2p == 0 {
		b2p -= eps
	}
	if 1-b1p == 0 {
		b1p -= eps
	}
	outs := adamOutputs(in[0])
	vr, m, v, g := in[0].data, in[1].data, in[2].data, in[3].data
	ov, om, ovv := outs[0].data, outs[1].data, outs[2].data
	forChunks(len(vr), func(from, to int) error {
		for i := from; i < to; i++ {
			gi := g[i]
			if maximize {
				gi = -gi
			}
			mt := b1*m[i] - (b1-1)*gi
			vt := b2*v[i] - (b2-1)*gi*gi
			vh := vt
			if ams {
				if mg := in[4].data[i]; mg > vh || math.IsNaN(mg) {
					vh = mg
				}
			}
			denom := math.Sqrt(vh/(1-b2p)) + eps
			ov[i] = vr[i]*(1-lr*wd) + (-lr*mt/(1-b1p))/denom
			om[i], ovv[i] = mt, vt
		}
		return nil
	})
	return outs, nil
}

// ---- npu.group_norm_silu ----

func groupNormSiluForward(c *call) ([]*array, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	w, b := nnInput(c, 1), nnInput(c, 2)
	if _, err := nnFloatOnly("npu_group_norm_silu", x, w, b); err != nil {
		return nil, err
	}
	if x.rank() < 2 {
		return nil, fmt.Errorf("npu_group_norm_silu: input must have 2 to 8 dimensions [N, C, *], got %s", ops.ShapeList(x.shape))
	}
	n, ch := x.shape[0], x.shape[1]
	group := int(c.attrs.Int("group", 0))
	if group <= 0 || ch%group != 0 {
		return nil, fmt.Errorf("npu_group_norm_silu: the number of channels %d must be divisible by group %d", ch, group)
	}
	for i, p := range []*array{w, b} {
		if p != nil && (p.rank() != 1 || p.shape[0] != ch) {
			return nil, fmt.Errorf("npu_group_norm_silu: %s of shape %s must have shape [%d]", []string{"weight", "bias"}[i], ops.ShapeList(p.shape), ch)
		}
	}
	eps := c.attrs.Float("eps", 1e-5)
	hw := tensor.NumElements(x.shape[2:])
	cpg := ch / group
	size := cpg * hw // the elements of one (n, g) group
	y := &array{shape: slices.Clone(x.shape), data: float64sFor(len(x.data)), dtype: x.dtype}
	mean := &array{shape: []int{n, group}, data: float64sFor(n * group), dtype: x.dtype}
	rstd := &array{shape: []int{n, group}, data: float64sFor(n * group), dtype: x.dtype}
	parallel.Chunks(n*group, npuRowChunk(size), func(from, to int) error {
		for r := from; r < to; r++ {
			o := r * size
			mu, v := nnMoments(x.data[o : o+size])
			rs := 1 / math.Sqrt(v+eps)
			mean.data[r], rstd.data[r] = mu, rs
			for j := 0; j < size; j++ {
				ci := (r%group)*cpg + j/max(hw, 1)
				t := (x.data[o+j] - mu) * rs
				if w != nil {
					t *= w.data[ci]
				}
				if b != nil {
					t += b.data[ci]
				}
				y.data[o+j] = t * npuSigmoid(t)
			}
		}
		return nil
	})
	return []*array{y, mean, rstd}, nil
}

// ---- npu.moe_gating_top_k_softmax ----

func moeGatingForward(c *call) ([]*array, error) {
	x, err := nnNeed(c, 0, "x")
	if err != nil {
		return nil, err
	}
	fin := nnInput(c, 1)
	if _, err := nnFloatOnly("npu_moe_gating_top_k_softmax", x); err != nil {
		return nil, err
	}
	if x.rank() < 2 || x.rank() > 3 {
		return nil, fmt.Errorf("npu_moe_gating_top_k_softmax: x must be 2-D or 3-D, got %s", ops.ShapeList(x.shape))
	}
	lead := x.shape[:x.rank()-1]
	e := x.shape[x.rank()-1]
	k := int(c.attrs.Int("k", 1))
	if k <= 0 || k > e || k > 1024 {
		return nil, fmt.Errorf("npu_moe_gating_top_k_softmax: k must be in [1, min(%d, 1024)], got %d", e, k)
	}
	if fin != nil && (fin.dtype != tensor.Bool || !slices.Equal(fin.shape, lead)) {
		return nil, fmt.Errorf("npu_moe_gating_top_k_softmax: finished must be a bool tensor of shape %s, got %s of shape %s",
			ops.ShapeList(lead), fin.dtype, ops.ShapeList(fin.shape))
	}
	ref, err := npuMsprobe(c, "npu_moe_gating_top_k_softmax")
	if err != nil {
		return nil, err
	}
	if ref {
		return moeGatingMsprobe(x, fin, k)
	}
	rows := tensor.NumElements(lead)
	shape := append(slices.Clone(lead), k)
	y := &array{shape: shape, data: float64sFor(rows * k), dtype: x.dtype}
	ex := &array{shape: slices.Clone(shape), data: float64sFor(rows * k), dtype: tensor.Int32}
	ri := &array{shape: slices.Clone(shape), data: float64sFor(rows * k), dtype: tensor.Int32}
	parallel.Chunks(rows, npuRowChunk(e), func(from, to int) error {
		s := make([]float64, e)
		var mx, sum [1]float64
		for r := from; r < to; r++ {
			copy(s, x.data[r*e:(r+1)*e])
			attnSoftmaxRows(s, e, mx[:], sum[:])
			done := fin != nil && fin.data[r] != 0
			for j, p := range sortLine(s, 0, 1, e, true)[:k] {
				o := r*k + j
				y.data[o] = s[p]
				ex.data[o] = float64(p)
				if done {
					ex.data[o] = float64(e)
				}
				ri.data[o] = float64(j*rows + r)
			}
		}
		return nil
	})
	return []*array{y, ex, ri}, nil
}

// ---- npu.sort_v2 ----

// sortV2Sort is the sort kernel npu.sort_v2 keeps the values of (the same
// dim and descending attributes).
var sortV2Sort = sortKernel()

func sortV2Forward(c *call) ([]*array, error) {
	if _, err := nnFloatOnly("npu_sort_v2", c.in[0]); err != nil {
		return nil, err
	}
	outs, err := sortV2Sort.forward(c)
	if err != nil {
		return nil, err
	}
	return outs[:1], nil
}

// sortV2Backward scatters the gradient back through the stable sort's
// permutation: dx[perm[j]] = dy[j] (fused-ops.md §15).
func sortV2Backward(c *call, outs, gos []*array) ([]*array, error) {
	full, err := sortV2Sort.forward(c)
	if err != nil {
		return nil, err
	}
	return sortV2Sort.backward(c, full, gos)
}
