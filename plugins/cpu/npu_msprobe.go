package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// msprobe's references of the fused operators (semantics "msprobe",
// fused-ops.md §17 #13, #16, #17, #18): what msprobe's bench computes, which
// --compat msprobe gives the bench (never the device, the NPU under test).
// Where the reference drops to float32 the steps below round to float32
// one by one, in the reference's order: float32 arithmetic is correctly
// rounded here, so a result can differ from PyTorch's float32 kernels
// (whose exp, sigmoid and sums are not) by an ulp or two of float32.

// npuMsprobe reports whether the call asks for msprobe's reference (the
// semantics attribute, "official" or "msprobe").
func npuMsprobe(c *call, fn string) (bool, error) {
	switch s := c.attrs.Str("semantics", "official"); s {
	case "official":
		return false, nil
	case "msprobe":
		return true, nil
	default:
		return false, fmt.Errorf("%s: semantics must be \"official\" or \"msprobe\", got %q", fn, s)
	}
}

// f32 rounds to float32.
func f32(v float64) float64 { return float64(float32(v)) }

// sigmoid32 is a float32 sigmoid: σ of a float32 value, rounded.
func sigmoid32(a float64) float64 { return f32(npuSigmoid(a)) }

// ---- npu.swiglu (§17 #17) ----

// swigluMsprobe computes y for output element k (A = a, B = b) as msprobe's
// reference does at dtype dt: for float32 (a float16/bfloat16 original
// raised by run_ut) σ(A)·A·B in float32; otherwise silu(A) in float32,
// rounded to dt and back, times B in float32 (the result is then stored at
// dt).
func swigluMsprobe(dt tensor.DType, a, b float64) float64 {
	if dt == tensor.Float32 {
		return f32(f32(sigmoid32(a)*a) * b)
	}
	a32, b32 := f32(a), f32(b)
	s := f32(roundTo(dt, f32(a32*npuSigmoid(a32))))
	return f32(s * b32)
}

// swigluMsprobeGrad is autograd of swigluMsprobe for the output gradient g:
// (dA, dB), every step of the float32 part rounded to float32.
func swigluMsprobeGrad(dt tensor.DType, a, b, g float64) (float64, float64) {
	if dt == tensor.Float32 {
		sg := sigmoid32(a)
		t := f32(sg * a)
		gt := f32(g * b) // d(t·B)/dt
		gb := f32(g * t)
		gsg := f32(gt * a)
		ga := f32(gt * sg)
		// sigmoid's backward: g·(1 − σ)·σ
		ga = f32(ga + f32(f32(gsg*f32(1-sg))*sg))
		return ga, gb
	}
	a32, b32 := f32(a), f32(b)
	sg := sigmoid32(a32)
	s := f32(roundTo(dt, f32(a32*npuSigmoid(a32))))
	gp := f32(g) // the cast of the product back to dt
	gs := roundTo(dt, f32(gp*b32))
	gb := f32(gp * s)
	// silu's backward in float32: g·σ·(1 + x·(1 − σ))
	ga := f32(f32(gs*sg) * f32(1+f32(a32*f32(1-sg))))
	return ga, gb
}

// ---- npu.scaled_masked_softmax (§17 #18) ----

// msprobeRow computes row r as msprobe's reference does at x's dtype dt:
// m[j] whether element j is masked, z = x·scale (−10000 where masked) at
// dt, e = exp(float32(z − max(z))) in float32 (z − max at dt); it returns
// the float32 sum of e and the index of the first maximum of z (the
// element the max's gradient goes to).
func (s *npuSMS) msprobeRow(r int, it *bcastIter, m []bool, e []float64) (float64, int) {
	dt := s.x.dtype
	s.masked(r, it, m)
	mx, at := math.Inf(-1), 0
	for j, v := range s.x.data[r*s.w : (r+1)*s.w] {
		z := scaledMaskFill
		if !m[j] {
			z = roundTo(dt, v*s.scale)
		}
		e[j] = z
		if z > mx || (math.IsNaN(z) && !math.IsNaN(mx)) {
			mx, at = z, j
		}
	}
	sum := 0.0
	for j, z := range e {
		e[j] = f32(math.Exp(f32(roundTo(dt, z-mx))))
		sum += e[j]
	}
	return f32(sum), at
}

// softmaxMsprobe returns y as msprobe's reference computes it: e / sum in
// float32 (msprobeRow).
func (s *npuSMS) softmaxMsprobe() []float64 {
	y := float64sFor(len(s.x.data))
	if s.w == 0 || s.rows == 0 {
		return y
	}
	s.eachRow(func(r int, it *bcastIter, m []bool, _ []float64) {
		yr := y[r*s.w : (r+1)*s.w]
		sum, _ := s.msprobeRow(r, it, m, yr)
		for j := range yr {
			yr[j] = f32(yr[j] / sum)
		}
	})
	return y
}

// gradMsprobe writes into dx autograd of softmaxMsprobe for the output
// gradient g: the quotient, sum and exp in float32 steps, then at dt the
// max subtracted (its gradient, minus the sum of the row's, goes to the
// first maximum), the masked positions (0) and the scale.
func (s *npuSMS) gradMsprobe(g, dx []float64) {
	dt := s.x.dtype
	s.eachRow(func(r int, it *bcastIter, m []bool, e []float64) {
		o := r * s.w
		sum, at := s.msprobeRow(r, it, m, e)
		// div's backward: ∂/∂e_j = g_j/sum, ∂/∂sum = Σ −g_j·((e_j/sum)/sum)
		gs := 0.0
		for j := range e {
			gs += f32(-f32(g[o+j]) * f32(f32(e[j]/sum)/sum))
		}
		gs = f32(gs)
		tot := 0.0
		for j := range e {
			ge := f32(f32(f32(g[o+j])/sum) + gs)
			dx[o+j] = roundTo(dt, f32(ge*e[j])) // exp's backward, cast back to dt
			tot += dx[o+j]
		}
		dx[o+at] = roundTo(dt, dx[o+at]-roundTo(dt, tot))
		for j := range e {
			if m[j] {
				dx[o+j] = 0
			} else {
				dx[o+j] = roundTo(dt, dx[o+j]*s.scale)
			}
		}
	})
}

// gradAtenMsprobe writes into dx msprobe's reference of the aten record
// npu_scaled_masked_softmax_backward(y_grad, y, mask, scale,
// fixed_triu_mask) (§10): g and y raised to float32, t = g·y, d = g − Σ t,
// d·y, d·scale (scale a float32 scalar, as torch multiplies a float32
// tensor by a number), each step rounded to float32, 0 where masked, the
// result cast to g's dtype dt.
func (s *npuSMS) gradAtenMsprobe(g, y, dx []float64, dt tensor.DType) {
	sc := f32(s.scale)
	s.eachRow(func(r int, it *bcastIter, m []bool, _ []float64) {
		s.masked(r, it, m)
		o := r * s.w
		sum := 0.0
		for j := range s.w {
			sum += f32(f32(g[o+j]) * f32(y[o+j]))
		}
		sum = f32(sum)
		for j := range s.w {
			if m[j] {
				dx[o+j] = 0
				continue
			}
			d := f32(f32(f32(g[o+j])-sum) * f32(y[o+j]))
			dx[o+j] = roundTo(dt, f32(d*sc))
		}
	})
}

// ---- npu.moe_gating_top_k_softmax (§14, §17 #16, #18) ----

// softmaxRow32 is the float32 softmax of msprobe's reference of row s in
// place (the values rounded to float32 first): max, exp(x − max), the
// float32 sum and the quotient. It reports false where the sum is 0, on
// which the reference fails.
func softmaxRow32(s []float64) bool {
	mx := math.Inf(-1)
	for j, v := range s {
		s[j] = f32(v)
		if s[j] > mx || math.IsNaN(s[j]) {
			mx = s[j]
		}
	}
	sum := 0.0
	for j, v := range s {
		s[j] = f32(math.Exp(f32(v - mx)))
		sum += s[j]
	}
	sum = f32(sum)
	if sum == 0 {
		return false
	}
	for j := range s {
		s[j] = f32(s[j] / sum)
	}
	return true
}

// moeGatingMsprobe is msprobe's reference of npu_moe_gating_top_k_softmax
// for x of 2 or 3 dims and finished (nil when absent) of x.shape[:-1]:
//
//   - s: the float32 softmax of each row of the last axis (softmaxRow32),
//     cast to x's dtype;
//   - order: each row's indices in a stable ascending sort of −s (the
//     largest first, ties to the lower index, NaN last), of x's shape;
//   - idx = order[:, :k]: the first k along axis 1, the experts of a 2-D x
//     [T, E] but the first min(k, T) rows of each batch of a 3-D x [B, T, E]
//     with all E experts (§17 #16);
//   - y = gather(s, −1, idx), of idx's shape;
//   - finished is viewed as [n, 1] with n = finished.shape[0] (so it must
//     hold n elements: 1-D, or a 2-D one of one column), expanded to
//     [n, k], and where it is True expert_idx is E: broadcast against idx's
//     shape, which may widen expert_idx or fail as torch.where does;
//   - row_idx = arange(y.shape[0]·y.shape[1]) laid out [y.shape[1],
//     y.shape[0]] and transposed: row_idx[a, b] = b·y.shape[0] + a.
//
// The indices come back as int32 like the device's (msprobe's are int64;
// both compare as integers).
func moeGatingMsprobe(x, fin *array, k int) ([]*array, error) {
	const fn = "npu_moe_gating_top_k_softmax"
	e := x.shape[x.rank()-1]
	rows := len(x.data) / max(e, 1)
	s := float64sFor(len(x.data))
	order := make([]int, len(x.data))
	bad := make([]bool, rows)
	parallel.Chunks(rows, npuRowChunk(e), func(from, to int) error {
		neg := make([]float64, e)
		for r := from; r < to; r++ {
			row := s[r*e : (r+1)*e]
			copy(row, x.data[r*e:(r+1)*e])
			bad[r] = !softmaxRow32(row)
			for j, v := range row {
				row[j] = roundTo(x.dtype, v)
				neg[j] = -row[j]
			}
			copy(order[r*e:(r+1)*e], sortLine(neg, 0, 1, e, false))
		}
		return nil
	})
	for _, b := range bad {
		if b {
			return nil, fmt.Errorf("%s: msprobe's reference fails on a softmax row whose sum is 0", fn)
		}
	}
	// idx and y: x's shape with axis 1 cut to k
	shape := slices.Clone(x.shape)
	shape[1] = min(k, shape[1])
	last := shape[len(shape)-1]
	outer := tensor.NumElements(shape[:len(shape)-1])
	idx := make([]int, outer*last)
	y := &array{shape: shape, data: float64sFor(outer * last), dtype: x.dtype}
	for o := range outer {
		src := o // the row of x (and of order) that position o of idx reads
		if x.rank() == 3 {
			src = o/shape[1]*x.shape[1] + o%shape[1]
		}
		for j := range last {
			p := order[src*e+j]
			idx[o*last+j] = p
			y.data[o*last+j] = s[src*e+p]
		}
	}
	ex := &array{shape: slices.Clone(shape), data: float64sFor(len(idx)), dtype: tensor.Int32}
	for i, p := range idx {
		ex.data[i] = float64(p)
	}
	if fin != nil {
		n := 0
		if fin.rank() > 0 {
			n = fin.shape[0]
		}
		if len(fin.data) != n {
			return nil, fmt.Errorf("shape '[%d, 1]' is invalid for input of size %d (msprobe's reference of %s views finished as "+
				"[finished.shape[0], 1]: a 1-D finished only, fused-ops.md §17 #16)", n, len(fin.data), fn)
		}
		fshape := []int{n, k}
		out, err := ops.BroadcastShapes(fshape, shape)
		if err != nil {
			return nil, fmt.Errorf("%v (msprobe's reference of %s: finished [%d, k=%d] against expert_idx %s)", err, fn, n, k, ops.ShapeList(shape))
		}
		fi, xi := newBcastIter(fshape, out), newBcastIter(shape, out)
		w := &array{shape: out, data: float64sFor(tensor.NumElements(out)), dtype: tensor.Int32}
		for i := range w.data {
			if fi.seek(i); fin.data[fi.pos/k] != 0 {
				w.data[i] = float64(e)
			} else {
				xi.seek(i)
				w.data[i] = ex.data[xi.pos]
			}
		}
		ex = w
	}
	y0, y1 := shape[0], shape[1]
	ri := &array{shape: []int{y0, y1}, data: float64sFor(y0 * y1), dtype: tensor.Int32}
	for a := range y0 {
		for b := range y1 {
			ri.data[a*y1+b] = float64(b*y0 + a)
		}
	}
	return []*array{y, ex, ri}, nil
}
