package cpu

// The reduce family at the narrow float dtypes (float16, bfloat16) as
// PyTorch 1.13's CPU kernels and autograd formulas compute it: every
// intermediate tensor of a formula is stored at the input's dtype, sums and
// cumulative kernels accumulate in float (at::acc_type), the norm kernel of
// orders other than 0, 2 and inf accumulates at the dtype itself. Each
// function below names the PyTorch code it follows; the experiments behind
// them compare torch's bits with the candidate roundings (golden cases
// .../bfloat16_rounded_steps of gen_golden_reduce.py hold them). float32
// and float64 keep the float64 formulas of reduce.go.

import (
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

// narrowRounder is opRounder for float16 and bfloat16 and nil for every
// other dtype (the kernels then keep their float64 formulas).
func narrowRounder(dt tensor.DType) func(float64) float64 {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return opRounder(dt)
	}
	return nil
}

// bf16Rounder is narrowRounder for the kernels PyTorch 1.13 lacks at
// float16 (cummax, cummin, cumprod, cumsum, logsumexp's exp,
// logcumsumexp): their float16 calls compute in float32 and round, as
// everywhere a dtype has no kernel, so only bfloat16 rounds the steps.
func bf16Rounder(dt tensor.DType) func(float64) float64 {
	if dt == tensor.BFloat16 {
		return opRounder(dt)
	}
	return nil
}

// powAt is Tensor.pow(e) (a Python number) at dtype dt as 1.13's
// pow_tensor_scalar_kernel computes it. bfloat16 (and float32) take the
// sqrt, rsqrt and reciprocal kernels for 0.5, -0.5 and -1 and the
// optimized kernel's products for 2, 3 and -2, each product a tensor of dt
// (bfloat16's Vectorized operators round every step); float16 calls
// std::pow with the exponent cast to float16; other exponents pow the float
// value by the exponent cast to dt. float64 is math.Pow.
func powAt(dt tensor.DType, b, e float64) float64 {
	switch dt {
	case tensor.Float16:
		return atDT(dt, math.Pow(b, roundTo(dt, e)))
	case tensor.Float32, tensor.BFloat16:
	default:
		return math.Pow(b, e)
	}
	switch e {
	case 0.5:
		return atDT(dt, math.Sqrt(b))
	case -0.5:
		return rsqrtAt(dt, b)
	case -1:
		return atDT(dt, 1/b)
	case 2:
		return atDT(dt, b*b)
	case 3:
		return atDT(dt, atDT(dt, b*b)*b)
	case -2:
		return atDT(dt, 1/atDT(dt, b*b))
	}
	if dt == tensor.Float32 {
		// std::pow(float, double)
		return roundTo(dt, math.Pow(b, e))
	}
	return atDT(dt, math.Pow(b, roundTo(dt, e)))
}

// sumF32 is at::sum of narrow values into a tensor of their dtype: float
// accumulation in order, the total rounded by rd.
func sumF32(v []float64, rd func(float64) float64) float64 {
	var s float32
	for _, x := range v {
		s += float32(x)
	}
	return rd(float64(s))
}

// sumRowLen is the length of the rows at::sum adds up in float when it
// reduces a contiguous tensor of this shape over the dims marked in red:
// the innermost block of reduced dims (TensorIterator coalesces adjacent
// reduced dims and drops those of size 1). cascade_sum sums a row in
// float and adds it, rounded, to the output of the dtype, row after row.
func sumRowLen(shape []int, red []bool) int {
	n, started := 1, false
	for d := len(shape) - 1; d >= 0; d-- {
		switch {
		case shape[d] == 1:
		case red[d]:
			n *= shape[d]
			started = true
		case started:
			return n
		}
	}
	return n
}

// sumRows is at::sum of narrow values (in row-major order of the reduced
// dims) into a tensor of their dtype: each row of rowLen values summed in
// float and rounded, the rows added to the output in order, each sum
// rounded by rd.
func sumRows(v []float64, rowLen int, rd func(float64) float64) float64 {
	if rowLen >= len(v) || rowLen <= 0 {
		return sumF32(v, rd)
	}
	out := 0.0
	for s := 0; s < len(v); s += rowLen {
		out = rd(out + sumF32(v[s:s+rowLen], rd))
	}
	return out
}

// ---- cummax / cummin: cummaxmin_backward ----

// cumMaxMinGradNarrow is zeros(input).scatter_add_(dim, indices, grad) at
// the narrow dtype: each position collects its gradients in index order,
// every addition rounded.
func cumMaxMinGradNarrow(p dimPlan, ix, g, res []float64, rd func(float64) float64) {
	p.lines(func(_, b, st int) {
		for i := 0; i < p.size; i++ {
			t := b + int(ix[b+i*st])*st
			res[t] = rd(res[t] + g[b+i*st])
		}
	})
}

// ---- cumprod ----

// cumprodNarrow is cumprod's CPU kernel at a narrow dtype: the running
// product in float, each prefix stored at the dtype (by the caller).
func cumprodNarrow(p dimPlan, xv, out []float64) {
	p.lines(func(_, b, st int) {
		r := float32(1)
		for i := 0; i < p.size; i++ {
			r *= float32(xv[b+i*st])
			out[b+i*st] = float64(r)
		}
	})
}

// cumprodGradNarrow is 1.13's cumprod_backward at a narrow dtype (input,
// output and gradient of one dtype, first-order): w = output * grad, then
// per line without zeros reversed_cumsum(w).div(input) (flip, cumsum in
// float, flip); in a line with zeros the same sum of w before the first
// zero z1, at z1 sum(cumprod(input masked to 1 outside (z1, z2)) * grad on
// [z1, z2)) * output[z1-1] (1 at z1 = 0), 0 after it. A tensor of one
// element, or a dim of size 1, gives grad back.
func cumprodGradNarrow(p dimPlan, x, y, g, res []float64, rd func(float64) float64) {
	if len(x) <= 1 || p.size == 1 {
		copy(res, g)
		return
	}
	p.lines(func(_, b, st int) {
		z1, z2 := p.size, p.size
		for i := 0; i < p.size; i++ {
			if x[b+i*st] == 0 {
				if z1 == p.size {
					z1 = i
				} else {
					z2 = i
					break
				}
			}
		}
		var acc float32
		for i := p.size - 1; i >= 0; i-- {
			k := b + i*st
			if i < z1 {
				acc += float32(rd(y[k] * g[k]))
				res[k] = rd(rd(float64(acc)) / x[k])
			} else {
				res[k] = 0
			}
		}
		if z1 == p.size {
			return
		}
		pr, s := float32(1), float32(0)
		for i := z1; i < z2; i++ {
			if i > z1 {
				pr *= float32(x[b+i*st])
			}
			s += float32(rd(rd(float64(pr)) * g[b+i*st]))
		}
		r := rd(float64(s))
		if z1 > 0 {
			r = rd(r * y[b+(z1-1)*st])
		}
		res[b+z1*st] = r
	})
}

// ---- logsumexp ----

// logsumexpNarrow is 1.13's logsumexp_out_impl at a narrow dtype for one
// group: maxes (0 where infinite), (self - maxes).exp_() summed into the
// dtype (sumRows), log_(), add_(maxes); each op rounded by rd. buf holds
// len(offs) values.
func logsumexpNarrow(xv []float64, b int, offs []int, m float64, rowLen int, buf []float64, rd func(float64) float64) float64 {
	for k, o := range offs {
		buf[k] = rd(math.Exp(rd(xv[b+o] - m)))
	}
	return rd(rd(math.Log(sumRows(buf, rowLen, rd))) + m)
}

// ---- logcumsumexp ----

// logAddExp32 is _log_add_exp_helper(x, acc) at float, logcumsumexp's
// accumulation type for the narrow dtypes.
func logAddExp32(x, acc float32) float32 {
	lo, hi := acc, acc
	if acc == acc {
		lo, hi = x, x
		if acc < x {
			lo = acc
		} else {
			hi = acc
		}
	}
	if lo != hi || !math.IsInf(float64(lo), 0) {
		e := float32(math.Exp(float64(lo - hi)))
		return float32(math.Log1p(float64(e))) + hi
	}
	return x
}

// logcumsumexpLineNarrow runs logcumsumexp's CPU kernel along one line
// (from the end when rev): the accumulation in float, each prefix stored
// rounded by rd.
func logcumsumexpLineNarrow(n, b, st int, v, out []float64, rev bool, rd func(float64) float64) {
	acc := float32(math.Inf(-1))
	for j := 0; j < n; j++ {
		i := j
		if rev {
			i = n - 1 - j
		}
		acc = logAddExp32(float32(v[b+i*st]), acc)
		out[b+i*st] = rd(float64(acc))
	}
}

// logcumsumexpGradNarrow is 1.13's logcumsumexp_backward at a narrow
// dtype: log|grad| split by sign (the dtype's lowest value elsewhere),
// minus the result, reversed logcumsumexp, plus self, exp; the positive
// part minus the negative one. Every op a tensor of the dtype.
func logcumsumexpGradNarrow(p dimPlan, dt tensor.DType, x, r, g, res []float64, rd func(float64) float64) {
	lowest := -floatMax(dt)
	n := len(x)
	pos, neg := make([]float64, n), make([]float64, n)
	for k, gv := range g {
		lg := rd(math.Log(math.Abs(gv)))
		lp, ln := lowest, lowest
		if gv > 0 {
			lp = lg
		}
		if gv < 0 {
			ln = lg
		}
		pos[k], neg[k] = rd(lp-r[k]), rd(ln-r[k])
	}
	p.lines(func(_, b, st int) {
		logcumsumexpLineNarrow(p.size, b, st, pos, pos, true, rd)
		logcumsumexpLineNarrow(p.size, b, st, neg, neg, true, rd)
		for i := 0; i < p.size; i++ {
			k := b + i*st
			op := rd(math.Exp(rd(pos[k] + x[k])))
			on := rd(math.Exp(rd(neg[k] + x[k])))
			res[k] = rd(op - on)
		}
	})
}

// ---- var / std (and with the mean) ----

// varGradNarrow is 1.13's var_backward / std_backward / var_mean_backward
// / std_mean_backward at a narrow dtype for the group of outputs
// [from, to): self.mean(dim) as sum (sumRows) divided by the count, (2.0 / dof) * grad * (self - mean) with the Python number
// cast to the dtype; std first takes grad / (result * 2) (0 where the
// result is 0); the mean's gradient adds grad / count. scale and n are
// the numbers 2 / dof and count cast to the dtype.
func varGradNarrow(pl *groupPlan, rowLen, from, to int, x, r, gv, gm, res []float64, std bool, scale, n float64, rd func(float64) float64) {
	vals := make([]float64, len(pl.offs))
	for j := from; j < to; j++ {
		b := pl.base[j]
		for k, o := range pl.offs {
			vals[k] = x[b+o]
		}
		mean := rd(sumRows(vals, rowLen, rd) / n)
		g := gv[j]
		if std {
			if r[j] == 0 {
				g = 0
			} else {
				g = rd(g / rd(r[j]*2))
			}
		}
		t := rd(scale * g)
		for _, o := range pl.offs {
			d := rd(t * rd(x[b+o]-mean))
			if gm != nil {
				d = rd(d + rd(gm[j]/n))
			}
			res[b+o] = d
		}
	}
}

// ---- norm (linalg.vector_norm) ----

// normNarrow is 1.13's norm kernel at a narrow dtype dt for the orders it
// reduces at the dtype itself (NormOps, NormOneOps, and at float16
// NormTwoOps: acc_t is the dtype): the running sum rounded at every step,
// then projected, with the order and 1/p rounded to dt. The addends differ:
// |x| (order 1); x*x rounded (order 2, float16 only: bfloat16's order 2
// accumulates in float, like the orders 0 and ±inf, which are exact
// anyway); |x|^p rounded at bfloat16 (c10's pow of two BFloat16 returns
// one) but kept in float at float16. ok is false where the float64 kernel
// applies, and for a nil rd. offs nil reduces every element of xv.
func normNarrow(xv []float64, b int, offs []int, ord float64, dt tensor.DType, rd func(float64) float64) (float64, bool) {
	if rd == nil || ord == 0 || math.IsInf(ord, 0) || ord == 2 && dt != tensor.Float16 {
		return 0, false
	}
	n := len(offs)
	if offs == nil {
		n = len(xv)
	}
	at := func(k int) float64 {
		if offs == nil {
			return xv[k]
		}
		return xv[b+offs[k]]
	}
	acc := 0.0
	switch ord {
	case 1:
		for k := 0; k < n; k++ {
			acc = rd(acc + math.Abs(at(k)))
		}
		return acc, true
	case 2:
		for k := 0; k < n; k++ {
			v := at(k)
			acc = rd(acc + rd(v*v))
		}
		return rd(math.Sqrt(acc)), true
	}
	po := rd(ord)
	pw := rd
	if dt == tensor.Float16 {
		pw = opRounder(tensor.Float32)
	}
	for k := 0; k < n; k++ {
		acc = rd(acc + pw(math.Pow(math.Abs(at(k)), po)))
	}
	return rd(math.Pow(acc, rd(1/po))), true
}

// normGradNarrow is 1.13's norm_backward for one element v of self with
// output gradient g and norm nrm: rs rounds the tensors made of self
// alone, rg those mixing in grad or the norm (the dtype of the result;
// renorm hands a float norm and gradient). inf orders are handled by the
// caller (their formula rounds only grad / count).
func normGradNarrow(v, g, nrm, ord float64, dts, dtg tensor.DType) float64 {
	rs, rg := opRounder(dts), opRounder(dtg)
	switch {
	case ord == 0:
		return 0
	case ord == 1:
		return rg(sgn(v) * g)
	case ord == 2:
		// grad * (self / norm).masked_fill_(norm == 0, 0)
		q := 0.0
		if nrm != 0 {
			q = rg(v / nrm)
		}
		return rg(g * q)
	case ord < 1:
		// self.sgn() * self.abs().pow(p - 1).masked_fill_(self == 0, 0),
		// times grad, times norm.pow(1 - p)
		s := 0.0
		if v != 0 {
			s = rs(sgn(v) * powAt(dts, math.Abs(v), ord-1))
		}
		return rg(rg(s*g) * powAt(dtg, nrm, 1-ord))
	}
	// self_scaled * (grad / norm.pow(p - 1)).masked_fill_(norm == 0, 0)
	var s float64
	if ord < 2 {
		s = rs(sgn(v) * powAt(dts, math.Abs(v), ord-1))
	} else {
		s = rs(v * powAt(dts, math.Abs(v), ord-2))
	}
	sc := 0.0
	if nrm != 0 {
		sc = rg(g / powAt(dtg, nrm, ord-1))
	}
	return rg(s * sc)
}
