package cpu

import (
	"math"
	"math/bits"

	"github.com/probe-dev/probe/sdk/tensor"
)

// PyTorch 1.13's bfloat16 CPU normalisation kernels (layer_norm_kernel.cpp,
// group_norm_kernel.cpp, moments_utils.h), measured bit for bit against
// Debian's torch 1.13 (CPU capability AVX2):
//
//   - utils::RowwiseMoments<BFloat16> (layer_norm and group_norm
//     statistics) runs Welford's algorithm entirely at bfloat16: 16-lane
//     vectors over chunks of 16 vectors, the chunks cascaded, then the
//     scalar tail and the lanes folded in; every operation, the reciprocal
//     counts and the final division by bfloat16(N) included, rounds to
//     bfloat16. rstd = 1/sqrt(var + eps) rounds after the addition, the
//     square root and the division (eps itself at bfloat16).
//   - layer_norm's output is (x·rstd + bias)·γ + β in float32 with
//     bias = bfloat16(−rstd·mean); its backward keeps per-row bfloat16
//     collectors for dγ and dβ, rounds the row sums ds = Σ dy·x·γ and
//     db = Σ dy·γ to bfloat16 and forms dx in float32.
//   - group_norm computes at bfloat16 throughout, one rounding per
//     operation (forward, its backward's 16-lane sums, coefficients and
//     per-sample accumulation of dγ, dβ).
//
// Float32 and float64 keep the exact float64 formulas.

// bf16Lanes is Vectorized<BFloat16>::size() under AVX2; momentsChunk is
// moments_utils.h's kChunkSize.
const (
	bf16Lanes    = 16
	momentsChunk = 16
)

// bfloat16 arithmetic as c10::BFloat16's operators and Vectorized<BFloat16>
// do it: the float32 operation, rounded to bfloat16.
func bfAdd(a, b float32) float32 { return bf16Round(a + b) }
func bfSub(a, b float32) float32 { return bf16Round(a - b) }
func bfMul(a, b float32) float32 { return bf16Round(a * b) }
func bfDiv(a, b float32) float32 { return bf16Round(a / b) }
func bfInt(n int) float32        { return bf16Round(float32(n)) }

// momentsCeilLog2 is utils::CeilLog2 (1 for x ≤ 2).
func momentsCeilLog2(x int) int {
	if x <= 2 {
		return 1
	}
	return bits.Len64(uint64(x - 1))
}

type bf16Vec [bf16Lanes]float32

// bfAddMoments merges (m0Add, a1, a2) into (m0, m1, m2) as
// utils::AddMoments at bfloat16.
func bfAddMoments(m0Add int, a1, a2 float32, m0 *int, m1, m2 *float32) {
	n := *m0 + m0Add
	var c float32
	if n != 0 {
		c = bfDiv(bfInt(m0Add), bfInt(n))
	}
	delta := bfSub(a1, *m1)
	*m1 = bfAdd(*m1, bfMul(c, delta))
	*m2 = bfAdd(*m2, bfAdd(a2, bfMul(bfMul(bfMul(delta, delta), c), bfInt(*m0))))
	*m0 = n
}

// bfAddMomentsVec is utils::AddMomentsVec at bfloat16, lane by lane.
func bfAddMomentsVec(m0Add int, a1, a2 *bf16Vec, m0 *int, m1, m2 *bf16Vec) {
	n := *m0 + m0Add
	var c float32
	if n != 0 {
		c = bfDiv(bfInt(m0Add), bfInt(n))
	}
	f0 := bfInt(*m0)
	for l := range a1 {
		delta := bfSub(a1[l], m1[l])
		m1[l] = bfAdd(m1[l], bfMul(c, delta))
		m2[l] = bfAdd(m2[l], bfAdd(a2[l], bfMul(bfMul(bfMul(delta, delta), c), f0)))
	}
	*m0 = n
}

// bfMoments is utils::RowwiseMoments<BFloat16>: the mean and the biased
// variance of x (bfloat16 values), every step at bfloat16.
func bfMoments(x []float64) (mean, variance float32) {
	nAll := len(x)
	n := nAll / bf16Lanes
	m := (n + momentsChunk - 1) / momentsChunk
	depth := momentsCeilLog2(m)
	m0 := make([]int, depth)
	m1 := make([]bf16Vec, depth)
	m2 := make([]bf16Vec, depth)
	var c [momentsChunk]float32
	for j := range c {
		c[j] = bfDiv(1, bfInt(j+1))
	}
	for i := 0; i < m; i++ {
		base := i * momentsChunk * bf16Lanes
		cnt := min(momentsChunk, n-i*momentsChunk)
		var v1, v2 bf16Vec
		for j := 0; j < cnt; j++ {
			row := x[base+j*bf16Lanes : base+(j+1)*bf16Lanes]
			for l, xv := range row {
				xf := float32(xv)
				d := bfSub(xf, v1[l])
				v1[l] = bfAdd(v1[l], bfMul(d, c[j]))
				v2[l] = bfAdd(v2[l], bfMul(d, bfSub(xf, v1[l])))
			}
		}
		bfAddMomentsVec(cnt, &v1, &v2, &m0[0], &m1[0], &m2[0])
		mask := i + 1
		for j := 1; j < depth && mask&1 == 0; j++ {
			bfAddMomentsVec(m0[j-1], &m1[j-1], &m2[j-1], &m0[j], &m1[j], &m2[j])
			m0[j-1], m1[j-1], m2[j-1] = 0, bf16Vec{}, bf16Vec{}
			mask >>= 1
		}
	}
	for i := 1; i < depth; i++ {
		bfAddMomentsVec(m0[i], &m1[i], &m2[i], &m0[0], &m1[0], &m2[0])
	}
	cnt := 0
	var s1, s2 float32
	for _, xv := range x[n*bf16Lanes:] {
		xf := float32(xv)
		d := bfSub(xf, s1)
		cnt++
		s1 = bfAdd(s1, bfDiv(d, bfInt(cnt)))
		s2 = bfAdd(s2, bfMul(d, bfSub(xf, s1)))
	}
	for l := 0; l < bf16Lanes; l++ {
		bfAddMoments(n, m1[0][l], m2[0][l], &cnt, &s1, &s2)
	}
	return s1, bfDiv(s2, bfInt(nAll))
}

// bfRstd is T(1) / std::sqrt(var + eps) at bfloat16.
func bfRstd(variance float32, eps float64) float32 {
	v := bfAdd(variance, bf16Round(float32(eps)))
	return bfDiv(1, bf16Round(float32(math.Sqrt(float64(v)))))
}

// bfSum16 is the bfloat16 sum of a[i]·b[i] (b nil: of a[i]) as
// group_norm's backward forms it: 16 lane accumulators over the whole
// vectors, folded left to right from zero, then the tail; each product
// and each addition rounded.
func bfSum16(a, b []float32) float32 {
	inner := len(a) / bf16Lanes * bf16Lanes
	var acc bf16Vec
	for j := 0; j < inner; j += bf16Lanes {
		if b == nil {
			for l, v := range a[j : j+bf16Lanes] {
				acc[l] = bfAdd(acc[l], v)
			}
			continue
		}
		bj := b[j : j+bf16Lanes]
		for l, v := range a[j : j+bf16Lanes] {
			acc[l] = bfAdd(acc[l], bfMul(v, bj[l]))
		}
	}
	var s float32
	for _, v := range acc {
		s = bfAdd(s, v)
	}
	for j := inner; j < len(a); j++ {
		if b == nil {
			s = bfAdd(s, a[j])
		} else {
			s = bfAdd(s, bfMul(a[j], b[j]))
		}
	}
	return s
}

// ---- layer_norm at bfloat16 ----

// bf16 reports whether ln runs PyTorch's bfloat16 kernel (PyTorch refuses
// parameters of another dtype there).
func (ln *nnLayerNorm) bf16() bool { return ln.x.dtype == tensor.BFloat16 && ln.cols > 0 }

// bf16Stats are the mean and rstd of every row as LayerNormKernelImpl
// computes them at bfloat16.
func (ln *nnLayerNorm) bf16Stats() (mean, rstd []float64) {
	mean = make([]float64, ln.rows)
	rstd = make([]float64, ln.rows)
	parallelPlanes(ln.rows, func(r int) {
		m, v := bfMoments(ln.x.data[r*ln.cols : (r+1)*ln.cols])
		mean[r], rstd[r] = float64(m), float64(bfRstd(v, ln.eps))
	})
	return
}

// bf16Forward writes y = (x·rstd + bias)·γ + β, in float32 with
// bias = bfloat16(−rstd·mean), rounded to bfloat16.
func (ln *nnLayerNorm) bf16Forward(out, mean, rstd []float64) {
	parallelPlanes(ln.rows, func(r int) {
		sc := float32(rstd[r])
		bias := bf16Round(-sc * float32(mean[r]))
		for j := 0; j < ln.cols; j++ {
			k := r*ln.cols + j
			gv, bv := float32(1), float32(0)
			if ln.w != nil {
				gv = float32(ln.w.data[j])
			}
			if ln.b != nil {
				bv = float32(ln.b.data[j])
			}
			y := float32(float32(ln.x.data[k])*sc) + bias
			y = float32(float32(y*gv) + bv)
			out[k] = float64(bf16Round(y))
		}
	})
}

// bf16Backward is LayerNormBackwardKernelImpl at bfloat16 (one thread):
// dγ and dβ collect row by row in bfloat16 buffers; per row
// ds = bf16(Σ dy·x·γ), db = bf16(Σ dy·γ), then in float32
// b = (db·mean − ds)·a³/N, c = −b·mean − db·a/N and dx = a·dy·γ + b·x + c
// with a = rstd.
func (ln *nnLayerNorm) bf16Backward(g []float64, gx, gw, gb *array, mean, rstd []float64) {
	n := ln.cols
	scale := float32(1) / float32(n)
	var dgBuf, dbBuf []float32
	if gw != nil {
		dgBuf = make([]float32, n)
	}
	if gb != nil {
		dbBuf = make([]float32, n)
	}
	var gamma []float32
	if ln.w != nil {
		gamma = make([]float32, n)
		for j := range gamma {
			gamma[j] = float32(ln.w.data[j])
		}
	}
	for r := 0; r < ln.rows; r++ {
		a, mf := float32(rstd[r]), float32(mean[r])
		xs, dys := ln.x.data[r*n:(r+1)*n], g[r*n:(r+1)*n]
		if dgBuf != nil {
			b := -a * mf
			for j, dy := range dys {
				t := float32(float32(a*float32(xs[j])) + b)
				dgBuf[j] = bf16Round(dgBuf[j] + float32(float32(dy)*t))
			}
		}
		if dbBuf != nil {
			for j, dy := range dys {
				dbBuf[j] = bf16Round(dbBuf[j] + float32(dy))
			}
		}
		if gx == nil {
			continue
		}
		var ds, db float64
		for j, dy := range dys {
			p, q := float32(float32(dy)*float32(xs[j])), float32(dy)
			if gamma != nil {
				p, q = float32(p*gamma[j]), float32(q*gamma[j])
			}
			ds += float64(p)
			db += float64(q)
		}
		ds32, db32 := bf16Round(float32(ds)), bf16Round(float32(db))
		t := float32(float32(db32*mf) - ds32)
		t = float32(float32(float32(t*a)*a) * a)
		bc := float32(t * scale)
		c := float32(float32(-bc*mf) - float32(float32(db32*a)*scale))
		for j, dy := range dys {
			v := float32(a * float32(dy))
			if gamma != nil {
				v = float32(v * gamma[j])
			}
			v = float32(v + float32(bc*float32(xs[j])))
			gx.data[r*n+j] = float64(bf16Round(float32(v + c)))
		}
	}
	for j := range dgBuf {
		gw.data[j] = float64(dgBuf[j])
	}
	for j := range dbBuf {
		gb.data[j] = float64(dbBuf[j])
	}
}

// ---- group_norm at bfloat16 ----

// bf16 reports whether gn runs PyTorch's bfloat16 kernel (parameters of
// another dtype are refused).
func (gn *groupNorm) bf16() bool { return gn.x.dtype == tensor.BFloat16 && gn.block() > 0 }

// bf16Stats are block q's mean and rstd as GroupNormKernelImpl computes
// them at bfloat16 (the variance clamped at zero).
func (gn *groupNorm) bf16Stats(q int) (mean, rstd float32) {
	m := gn.block()
	mu, v := bfMoments(gn.x.data[q*m : (q+1)*m])
	return mu, bfRstd(max(v, 0), gn.eps)
}

// bf16Forward writes block q of the output at bfloat16: (x − mean)·rstd
// without γ and β, else scale·x + bias per channel with scale = rstd·γ and
// bias = −scale·mean + β.
func (gn *groupNorm) bf16Forward(out []float64, q int) {
	mean, rstd := gn.bf16Stats(q)
	m, per := gn.block(), gn.c/gn.g
	x := gn.x.data[q*m : (q+1)*m]
	y := out[q*m : (q+1)*m]
	if gn.w == nil && gn.b == nil {
		for k, v := range x {
			y[k] = float64(bfMul(bfSub(float32(v), mean), rstd))
		}
		return
	}
	for j := 0; j < per; j++ {
		ch := (q%gn.g)*per + j
		gv, bv := float32(1), float32(0)
		if gn.w != nil {
			gv = float32(gn.w.data[ch])
		}
		if gn.b != nil {
			bv = float32(gn.b.data[ch])
		}
		scale := bfMul(rstd, gv)
		bias := bfAdd(bfMul(-scale, mean), bv)
		for k := j * gn.hw; k < (j+1)*gn.hw; k++ {
			y[k] = float64(bfAdd(bfMul(scale, float32(x[k])), bias))
		}
	}
}

// bf16Backward is GroupNormBackwardKernelImpl at bfloat16 (one thread):
// ds = Σ dy·x and db = Σ dy per (sample, channel) in 16-lane sums; per
// block the γ-weighted sums of those, c2 = (db·mean − ds)·rstd³·s,
// c3 = −c2·mean − db·rstd·s (s = bfloat16(1/(D·HxW))) and
// dx = rstd·γ·dy + c2·x + c3; dγ and dβ accumulate (ds − db·mean)·rstd
// and db over the samples. Each operation rounds to bfloat16. It returns
// dx (nil unless wanted) and the per-channel dγ, dβ.
func (gn *groupNorm) bf16Backward(g []float64, wantX bool) (gx []float64, dw, db []float64) {
	hw, per := gn.hw, gn.c/gn.g
	nc := gn.n * gn.c
	ds32, db32 := make([]float32, nc), make([]float32, nc)
	parallelPlanes(nc, func(i int) {
		xs, dys := make([]float32, hw), make([]float32, hw)
		for k := range xs {
			xs[k], dys[k] = float32(gn.x.data[i*hw+k]), float32(g[i*hw+k])
		}
		ds32[i], db32[i] = bfSum16(dys, xs), bfSum16(dys, nil)
	})
	var gamma []float32
	if gn.w != nil {
		gamma = make([]float32, gn.c)
		for ch := range gamma {
			gamma[ch] = float32(gn.w.data[ch])
		}
	}
	q := gn.n * gn.g
	means, rstds := make([]float32, q), make([]float32, q)
	parallelPlanes(q, func(i int) { means[i], rstds[i] = gn.bf16Stats(i) })
	if wantX {
		gx = float64sFor(len(g))
		s := bfDiv(1, bfInt(per*hw))
		parallelPlanes(q, func(i int) {
			grp := i % gn.g
			var gam []float32
			if gamma != nil {
				gam = gamma[grp*per : (grp+1)*per]
			}
			dsv, dbv := bfSum16(ds32[i*per:(i+1)*per], gam), bfSum16(db32[i*per:(i+1)*per], gam)
			mean, rstd := means[i], rstds[i]
			c2 := bfMul(bfMul(bfMul(bfMul(bfSub(bfMul(dbv, mean), dsv), rstd), rstd), rstd), s)
			c3 := bfSub(bfMul(-c2, mean), bfMul(bfMul(dbv, rstd), s))
			for j := 0; j < per; j++ {
				c1 := rstd
				if gamma != nil {
					c1 = bfMul(rstd, gam[j])
				}
				for k := (i*per + j) * hw; k < (i*per+j+1)*hw; k++ {
					gx[k] = float64(bfAdd(bfAdd(bfMul(c1, float32(g[k])), bfMul(c2, float32(gn.x.data[k]))), c3))
				}
			}
		})
	}
	dw, db = make([]float64, gn.c), make([]float64, gn.c)
	for ch := 0; ch < gn.c; ch++ {
		grp := ch / per
		var sw, sb float32
		for s := 0; s < gn.n; s++ {
			i, ng := s*gn.c+ch, s*gn.g+grp
			sw = bfAdd(sw, bfMul(bfSub(ds32[i], bfMul(db32[i], means[ng])), rstds[ng]))
			sb = bfAdd(sb, db32[i])
		}
		dw[ch], db[ch] = float64(sw), float64(sb)
	}
	return gx, dw, db
}

// bfRound64 rounds a float64 sum of bfloat16 values to bfloat16, as a
// bfloat16 sum reduction (float32 accumulator) does.
func bfRound64(s float64) float32 { return bf16Round(float32(s)) }

// bf16CompositeBackward is native_group_norm's backward at bfloat16 when
// mean or rstd carries a gradient: PyTorch 1.13 then differentiates
// through infinitely_differentiable_native_group_norm_backward, a chain
// of bfloat16 tensor operations (each rounded; its sums accumulate in
// float32 and round once):
//
//	ds = Σ_HxW dy·x, db = Σ_HxW dy (per sample and channel)
//	b = Σ_D ds·γ, c = Σ_D db·γ (per block); rc = rstd·rstd·rstd
//	b = (c·mean − b)·rc·s, c = −b·mean − c·rstd·s, s = 1/(D·HxW)
//	dx = (rstd·γ)·dy + b·x + c
//	   + (2/n)·dvar·(x − x̄) + dmean/n, dvar = −0.5·rc·drstd,
//	     the last line only when both mean and rstd carry a gradient
//	dγ = Σ_N (ds − db·mean)·rstd, dβ = Σ_N db
//
// g, gm, gr are the gradients of the output, mean and rstd (nil: none).
func (gn *groupNorm) bf16CompositeBackward(g, gm, gr []float64, wantX bool) (gx, dw, db []float64) {
	per, hw := gn.c/gn.g, gn.hw
	m, q, nc := per*hw, gn.n*gn.g, gn.n*gn.c
	var gamma []float32
	if gn.w != nil {
		gamma = make([]float32, gn.c)
		for ch := range gamma {
			gamma[ch] = float32(gn.w.data[ch])
		}
	}
	means, rstds := make([]float32, q), make([]float32, q)
	parallelPlanes(q, func(i int) { means[i], rstds[i] = gn.bf16Stats(i) })
	var ds, dbs []float32
	if g != nil {
		ds, dbs = make([]float32, nc), make([]float32, nc)
		parallelPlanes(nc, func(i int) {
			var a, b float64
			for k := i * hw; k < (i+1)*hw; k++ {
				a += float64(bfMul(float32(g[k]), float32(gn.x.data[k])))
				b += g[k]
			}
			ds[i], dbs[i] = bfRound64(a), bfRound64(b)
		})
	}
	if wantX {
		gx = make([]float64, len(gn.x.data))
		s := bf16Round(float32(1 / float64(m)))
		two := bf16Round(float32(2 / float64(m)))
		parallelPlanes(q, func(i int) {
			grp := i % gn.g
			mean, r := means[i], rstds[i]
			rc := bfMul(bfMul(r, r), r)
			if g != nil {
				var bs, cs float64
				for d := 0; d < per; d++ {
					j := i*per + d
					if gamma != nil {
						bs += float64(bfMul(ds[j], gamma[grp*per+d]))
						cs += float64(bfMul(dbs[j], gamma[grp*per+d]))
					} else {
						bs += float64(ds[j])
						cs += float64(dbs[j])
					}
				}
				b, c := bfRound64(bs), bfRound64(cs)
				b = bfMul(bfMul(bfSub(bfMul(c, mean), b), rc), s)
				c = bfSub(bfMul(-b, mean), bfMul(bfMul(c, r), s))
				for d := 0; d < per; d++ {
					a := r
					if gamma != nil {
						a = bfMul(r, gamma[grp*per+d])
					}
					for k := (i*per + d) * hw; k < (i*per+d+1)*hw; k++ {
						gx[k] = float64(bfAdd(bfAdd(bfMul(a, float32(g[k])), bfMul(b, float32(gn.x.data[k]))), c))
					}
				}
			}
			if gm == nil || gr == nil {
				return
			}
			block := gn.x.data[i*m : (i+1)*m]
			var sx float64
			for _, v := range block {
				sx += v
			}
			xmean := bfDiv(bfRound64(sx), bfInt(m))
			f := bfMul(two, bfMul(bfMul(-0.5, rc), float32(gr[i])))
			aux := bfDiv(float32(gm[i]), bfInt(m))
			for k, v := range block {
				t := bfAdd(bfMul(f, bfSub(float32(v), xmean)), aux)
				if g != nil {
					t = bfAdd(float32(gx[i*m+k]), t)
				}
				gx[i*m+k] = float64(t)
			}
		})
	}
	if g == nil {
		return gx, nil, nil
	}
	dw, db = make([]float64, gn.c), make([]float64, gn.c)
	for ch := 0; ch < gn.c; ch++ {
		grp := ch / per
		var sw, sb float64
		for s := 0; s < gn.n; s++ {
			i, ng := s*gn.c+ch, s*gn.g+grp
			sw += float64(bfMul(bfSub(ds[i], bfMul(dbs[i], means[ng])), rstds[ng]))
			sb += float64(dbs[i])
		}
		dw[ch], db[ch] = float64(bfRound64(sw)), float64(bfRound64(sb))
	}
	return gx, dw, db
}

// ---- batch_norm at bfloat16 ----

// bf16 reports whether bn runs PyTorch's bfloat16 kernels with bfloat16
// statistics: a bfloat16 input whose parameters are bfloat16 too (float32
// parameters keep float32 statistics).
func (bn *nnBatchNorm) bf16() bool {
	if bn.x.dtype != tensor.BFloat16 {
		return false
	}
	for _, p := range []*array{bn.rm, bn.rv, bn.w, bn.b} {
		if p != nil && p.dtype != tensor.BFloat16 {
			return false
		}
	}
	return true
}

// bf16Stats are channel ch's batch mean and invstd as PyTorch 1.13's
// bfloat16 batch_norm computes them from the float mean m: the mean and
// the float32 sum of squared deviations each stored at bfloat16, the
// variance var_sum/n a bfloat16 division, invstd = 1/sqrt(var + eps) in
// float, stored at bfloat16. A channel of one element per sample (image
// size 1, the channels-last kernel) takes its deviations from the
// bfloat16 mean. Everything else of batch_norm computes in float from
// these two, as the float64 formulas do.
func (bn *nnBatchNorm) bf16Stats(ch int, m float64) (mean, invstd float64) {
	mb := float64(bf16Round(float32(m)))
	ref := m
	if bn.inner == 1 {
		ref = mb
	}
	v := 0.0
	bn.each(ch, func(k int) { d := bn.x.data[k] - ref; v += d * d })
	variance := bfDiv(bfRound64(v), bfInt(bn.n*bn.inner))
	return mb, float64(bf16Round(float32(1 / math.Sqrt(float64(variance)+bn.eps))))
}

// bf16GradGiven returns g, or nil when g is nil or all zeros: the device
// hands a kernel zeros for an output without gradient, which PyTorch's
// autograd leaves undefined (and so picks another formula).
func bf16GradGiven(g *array) *array {
	if g == nil {
		return nil
	}
	for _, v := range g.data {
		if v != 0 {
			return g
		}
	}
	return nil
}
