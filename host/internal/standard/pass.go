package standard

import (
	"math"
	"runtime"
	"sync"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Group selects which metric families the streaming pass computes.
type Group uint

// Metric families. The legacy family (cosine, max abs error, the
// double-hundred/thousand/ten-thousand ratios and so the thousandth
// standard) is what run_ut's decision tree always needs.
const (
	GroupLegacy       Group = 1 << iota // cosine, max abs error, ratios (§6.4-§6.6, §6.12)
	GroupBinary                         // binary consistency (§6.7)
	GroupBenchmark                      // EB, RMSE, small value, max/mean relative error (§6.8)
	GroupAbsolute                       // inf/nan, relative and absolute error rates (§6.9)
	GroupULP                            // ULP max, mean, proportion (§6.10)
	GroupAccumulative                   // accumulative error standard (§6.11)
	GroupAll          = GroupLegacy | GroupBinary | GroupBenchmark | GroupAbsolute | GroupULP | GroupAccumulative
)

// groupsOf is the family step A of §5.5 needs for a standard (§6.13), plus
// the legacy family.
func groupsOf(a Algorithm) Group {
	switch a {
	case AlgBenchmark:
		return GroupLegacy | GroupBenchmark
	case AlgAbsoluteThreshold:
		return GroupLegacy | GroupAbsolute
	case AlgULP:
		return GroupLegacy | GroupULP
	case AlgBinary:
		return GroupLegacy | GroupBinary
	case AlgAccumulative:
		return GroupLegacy | GroupAccumulative
	}
	return GroupLegacy
}

// Options tune Measure.
type Options struct {
	// Compat reproduces msprobe's formulas exactly, quirks included
	// (pytorch-precheck §12 #6, #7, #8); see PyTorch.Compat.
	Compat bool
}

// plan holds everything about a pair that does not change per element.
type plan struct {
	dev, bench  tensor.DType // tensor dtypes
	devA        tensor.DType // NumPy array dtype of the device side
	f32         bool         // abs_err / rel_err computed in float32 (promoted dtype)
	benchF32    bool         // |b|+eps rounded to float32 (bench array dtype)
	eps         float64
	sv          float64 // small-value threshold (benchmark, absolute)
	atolBench   float64
	atolAbs     float64
	rtol        float64
	bound       float64 // accumulative bound
	lo, hi      float64 // finite range of the device array dtype
	ulpF32      bool
	ulpMant     int
	ulpMinEB    int
	ulpThr      float64
	compat      bool
	dtypeString string
	castBench   bool // bench_in_dev differs from the bench array
}

func newPlan(bench, dev tensor.DType, compat bool) *plan {
	p := &plan{dev: dev, bench: bench, compat: compat, dtypeString: dev.TorchName()}
	p.devA = arrayDType(dev, dev)
	benchA := arrayDType(bench, dev)
	// NumPy promotion of the two arrays: float32 unless either is float64
	// (float16 with float16 would stay float16: computed in float32 here).
	p.f32 = benchA != tensor.Float64 && p.devA != tensor.Float64
	p.benchF32 = benchA != tensor.Float64
	p.eps = tensor.Eps(benchA)
	if dev == tensor.BFloat16 {
		p.eps = BF16Eps
	}
	ds := p.dtypeString
	p.sv = SmallValue(ds)
	if compat {
		p.atolBench, p.atolAbs = BenchmarkAtol(ds), AbsThreshAtol(ds)
	} else {
		p.atolBench, p.atolAbs = DocumentedAtol(ds), DocumentedAtol(ds)
	}
	p.rtol = RTol(ds)
	p.bound = AccumulativeBound(ds)
	switch dev {
	case tensor.Float16:
		p.lo, p.hi = -65504, 65504
	case tensor.BFloat16:
		p.lo, p.hi = -BF16Max, BF16Max
	case tensor.Float32:
		p.lo, p.hi = -math.MaxFloat32, math.MaxFloat32
	default:
		p.lo, p.hi = -math.MaxFloat64, math.MaxFloat64
	}
	switch dev {
	case tensor.Float16, tensor.BFloat16:
		p.ulpMant, p.ulpMinEB, _ = ulpShape(dev)
		p.ulpF32 = benchA != tensor.Float64
	default: // §6.10: float32's parameters for every other dtype
		p.ulpMant, p.ulpMinEB, _ = ulpShape(tensor.Float32)
	}
	p.ulpThr = ULPErrThreshold(ds)
	p.castBench = p.devA != benchA && p.devA != tensor.Float64 && !(p.f32 && p.devA == tensor.Float32)
	return p
}

// accum holds the partial sums and counts of one chunk of the pass.
type accum struct {
	n int
	// cosine and legacy
	dot, nn, gg   float64
	mae           float64
	maeNaN        bool
	lt2, lt3, lt4 int
	lt3bf         int // rel_err_orig < BF16ThousandThreshold
	// binary
	neq int
	// benchmark
	small, smallErr int
	masked          int
	sq              float64
	reMax, reSum    float64
	reCnt           int
	pos, neg        int
	// the first values of the float32 sums, to reproduce NumPy's
	// sequential float32 summation of fewer than 8 elements (see seqMean)
	reFirst, sqFirst, ulpFirst [seqMax]float64
	ulpCnt                     int
	// absolute threshold
	absInfNan, absInfNanFail int
	absNormal, absNormalFail int
	absSmall, absSmallErr    int
	// ULP
	ulpMax        float64
	ulpNaN        bool
	ulpSum        float64
	ulpOver       int
	accInfNan     int
	accInfNanFail int
	accNormal     int
	accNormalFail int
	accSmall      int
	accSmallErr   int
}

func (a *accum) merge(b *accum) {
	a.n += b.n
	a.dot += b.dot
	a.nn += b.nn
	a.gg += b.gg
	a.mae = max(a.mae, b.mae)
	a.maeNaN = a.maeNaN || b.maeNaN
	a.lt2 += b.lt2
	a.lt3 += b.lt3
	a.lt4 += b.lt4
	a.lt3bf += b.lt3bf
	a.neq += b.neq
	a.small += b.small
	a.smallErr += b.smallErr
	a.masked += b.masked
	a.sq += b.sq
	if b.reMax > a.reMax {
		a.reMax = b.reMax
	}
	a.reSum += b.reSum
	for i := 0; i < min(b.reCnt, seqMax) && a.reCnt+i < seqMax; i++ {
		a.reFirst[a.reCnt+i] = b.reFirst[i]
		a.sqFirst[a.reCnt+i] = b.sqFirst[i]
	}
	a.reCnt += b.reCnt
	for i := 0; i < min(b.ulpCnt, seqMax) && a.ulpCnt+i < seqMax; i++ {
		a.ulpFirst[a.ulpCnt+i] = b.ulpFirst[i]
	}
	a.ulpCnt += b.ulpCnt
	a.pos += b.pos
	a.neg += b.neg
	a.absInfNan += b.absInfNan
	a.absInfNanFail += b.absInfNanFail
	a.absNormal += b.absNormal
	a.absNormalFail += b.absNormalFail
	a.absSmall += b.absSmall
	a.absSmallErr += b.absSmallErr
	if b.ulpMax > a.ulpMax {
		a.ulpMax = b.ulpMax
	}
	a.ulpNaN = a.ulpNaN || b.ulpNaN
	a.ulpSum += b.ulpSum
	a.ulpOver += b.ulpOver
	a.accInfNan += b.accInfNan
	a.accInfNanFail += b.accInfNanFail
	a.accNormal += b.accNormal
	a.accNormalFail += b.accNormalFail
	a.accSmall += b.accSmall
	a.accSmallErr += b.accSmallErr
}

// float is the element type of a pass: float32 when NumPy's promoted dtype
// of the two arrays is float32 (then Go's float32 arithmetic rounds exactly
// like NumPy's), float64 otherwise. Sums are always float64.
type float interface{ ~float32 | ~float64 }

// abs is |x| for either float type (NaN stays NaN): the conversions are
// exact, and cheaper than the NaN-aware sequence of the builtin max.
func abs[T float](x T) T { return T(math.Abs(float64(x))) }

// blockOf is the per-goroutine scratch space: a few KiB that stay in L1.
type blockOf[T float] struct {
	b, bd, d, e, r [blockLen]T
}

type block struct {
	f32 blockOf[float32]
	f64 blockOf[float64]
}

var blockPool = sync.Pool{New: func() any { return new(block) }}

// chunkLen is the unit of parallel work. The split depends only on the
// element count, and partial results are merged in chunk order, so the
// result is the same whatever the number of goroutines.
const chunkLen = 1 << 20

// maxWorkers caps the goroutines of one pass.
const maxWorkers = 2

// run streams over the pair once and returns the merged accumulator.
func (p *plan) run(bench, dev *tensor.Tensor, g Group) accum {
	n := bench.Len()
	chunks := (n + chunkLen - 1) / chunkLen
	workers := min(runtime.GOMAXPROCS(0), maxWorkers, chunks)
	if chunks <= 1 {
		var a accum
		p.chunk(bench, dev, 0, n, g, &a)
		return a
	}
	parts := make([]accum, chunks)
	if workers <= 1 {
		// the same chunks, merged in the same order, as with goroutines
		for c := range chunks {
			lo := c * chunkLen
			p.chunk(bench, dev, lo, min(n, lo+chunkLen), g, &parts[c])
		}
		return mergeParts(parts)
	}
	var wg sync.WaitGroup
	next := make(chan int, chunks)
	for c := range chunks {
		next <- c
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				lo := c * chunkLen
				p.chunk(bench, dev, lo, min(n, lo+chunkLen), g, &parts[c])
			}
		}()
	}
	wg.Wait()
	return mergeParts(parts)
}

// mergeParts merges the chunks' accumulators in chunk order.
func mergeParts(parts []accum) accum {
	out := parts[0]
	for i := 1; i < len(parts); i++ {
		out.merge(&parts[i])
	}
	return out
}

// chunk processes elements [lo, hi) into a.
func (p *plan) chunk(bench, dev *tensor.Tensor, lo, hi int, g Group, a *accum) {
	a.reMax = -1
	blk := blockPool.Get().(*block)
	defer blockPool.Put(blk)
	if p.f32 {
		chunkOf(p, bench, dev, lo, hi, g, a, &blk.f32)
	} else {
		chunkOf(p, bench, dev, lo, hi, g, a, &blk.f64)
	}
}

func chunkOf[T float](p *plan, bench, dev *tensor.Tensor, lo, hi int, g Group, a *accum, blk *blockOf[T]) {
	bView, dView := view[T](bench), view[T](dev)
	eps := T(p.eps)
	for off := lo; off < hi; off += blockLen {
		m := min(blockLen, hi-off)
		var bb, dd []T
		if bView != nil {
			bb = bView[off : off+m]
		} else {
			bb = blk.b[:m]
			decodeInto(bench, off, bb)
		}
		if dView != nil {
			dd = dView[off : off+m]
		} else {
			dd = blk.d[:m]
			decodeInto(dev, off, dd)
		}
		bd := bb // bench_in_dev: the bench cast to the device array dtype
		if p.castBench {
			bd = blk.bd[:m]
		}
		a.n += m
		ee, rr := blk.e[:m], blk.r[:m]
		// the legacy loop ran the benchmark or the ULP loop too
		benchDone, ulpDone := false, false
		if b32, ok := any(bb).([]float32); ok {
			if p.castBench {
				p.benchInDev(bb, bd)
			}
			store := g&(GroupBenchmark|GroupAbsolute|GroupAccumulative) != 0
			legacy32(b32, any(dd).([]float32), any(ee).([]float32), any(rr).([]float32), float32(eps), store, a)
		} else if b64, ok := any(bb).([]float64); ok && (!p.castBench || p.devA == tensor.Float32) {
			// bench_in_dev is the bench rounded to float32 (benchInDev)
			if g&GroupBenchmark != 0 {
				benchDone = legacyBench64(p, b64, any(dd).([]float64), any(bd).([]float64), any(ee).([]float64), any(rr).([]float64), float64(eps), p.castBench, a)
			}
			if g&(GroupBenchmark|GroupULP) == GroupULP {
				ulpDone = legacyULP64(p, b64, any(dd).([]float64), any(bd).([]float64), any(ee).([]float64), any(rr).([]float64), float64(eps), p.castBench, a)
			}
			if !benchDone && !ulpDone {
				legacy64(b64, any(dd).([]float64), any(bd).([]float64), any(ee).([]float64), any(rr).([]float64), float64(eps), p.castBench, a)
			}
		} else {
			if p.castBench {
				p.benchInDev(bb, bd)
			}
			legacyLoop(bb, dd, ee, rr, eps, a)
		}
		if g&GroupBinary != 0 {
			binaryLoop(bb, dd, a)
		}
		if g&GroupBenchmark != 0 && !benchDone {
			if b64, ok := any(bb).([]float64); ok {
				benchmarkLoop64(p, b64, any(bd).([]float64), any(dd).([]float64), any(ee).([]float64), any(rr).([]float64), a)
			} else {
				benchmarkLoop(p, bb, bd, dd, ee, rr, a)
			}
		}
		if g&GroupAbsolute != 0 {
			if b64, ok := any(bb).([]float64); ok {
				absoluteLoop64(p, b64, any(bd).([]float64), any(dd).([]float64), any(ee).([]float64), any(rr).([]float64), a)
			} else {
				absoluteLoop(p, bb, bd, dd, ee, rr, a)
			}
		}
		if g&GroupAccumulative != 0 {
			if g&GroupBenchmark == 0 {
				ebLoop(bd, dd, a)
			}
			accumulativeLoop(p, bb, bd, dd, ee, rr, a)
		}
		if g&GroupULP != 0 && !ulpDone {
			if b64, ok := any(bb).([]float64); ok {
				ulpLoop64(p, b64, any(dd).([]float64), a)
			} else {
				ulpLoop(p, bb, dd, a)
			}
		}
	}
}

// benchInDev fills bd with the bench cast to the device array dtype
// (bench_in_dev of §6.3) where that is not the bench's own.
func (p *plan) benchInDev(b, bd any) {
	switch b := b.(type) {
	case []float32: // float32 bench, float16 device
		bd := bd.([]float32)[:len(b)]
		for i, v := range b {
			bd[i] = float32(roundF16(float64(v)))
		}
	case []float64:
		bd := bd.([]float64)[:len(b)]
		if p.devA == tensor.Float16 {
			for i, v := range b {
				bd[i] = roundF16(v)
			}
			return
		}
		for i, v := range b {
			bd[i] = float64(float32(v))
		}
	}
}

// legacyLoop accumulates the cosine sums, the max absolute error and the
// ratio counts, and leaves abs_err and rel_err_orig of every element in e
// and r for the other loops, computed in T like NumPy (T is float32 only
// when both arrays are float32, and then the bench array dtype is float32
// too). max |x| of each side is not tracked here: finishLegacy derives what
// the cosine needs from the sums of squares and only rescans the tensors in
// rare cases (maxPass).
func legacyLoop[T float](b, d, e, r []T, eps T, a *accum) {
	d, e, r = d[:len(b)], e[:len(b)], r[:len(b)]
	var dot0, nn0, gg0, dot1, nn1, gg1 float64
	i := 0
	for ; i+1 < len(b); i += 2 { // two independent chains for the sums
		b0, d0, b1, d1 := float64(b[i]), float64(d[i]), float64(b[i+1]), float64(d[i+1])
		dot0 += b0 * d0
		nn0 += d0 * d0
		gg0 += b0 * b0
		dot1 += b1 * d1
		nn1 += d1 * d1
		gg1 += b1 * b1
	}
	if i < len(b) {
		b0, d0 := float64(b[i]), float64(d[i])
		dot0 += b0 * d0
		nn0 += d0 * d0
		gg0 += b0 * b0
	}
	a.dot += dot0 + dot1
	a.nn += nn0 + nn1
	a.gg += gg0 + gg1
	mae := T(a.mae)
	// buckets: < 1e-4, [1e-4, 1e-3), [1e-3, 1e-2); one compare in the
	// common case
	c4, c3, c2, c3bf := 0, 0, 0, 0
	for i, bv := range b {
		ev := abs(d[i] - bv)
		rv := ev / (abs(bv) + eps)
		if !(ev <= mae) {
			if ev > mae {
				mae = ev
			} else {
				a.maeNaN = true
			}
		}
		if rv < TenThousandThreshold {
			c4++
		} else if rv < ThousandThreshold {
			c3++
		} else if rv < HundredThreshold {
			c2++
			if rv < BF16ThousandThreshold {
				c3bf++
			}
		}
		e[i], r[i] = ev, rv
	}
	a.mae = float64(mae)
	a.lt4 += c4
	a.lt3 += c4 + c3
	a.lt2 += c4 + c3 + c2
	a.lt3bf += c4 + c3 + c3bf
}

// maxPass scans both tensors for max |x| (NaN when a side holds a NaN) and
// for non-finite values: the second pass the cosine needs only when its
// sums of squares are not finite or too small to decide the all-zero
// tests (see finishLegacy).
func maxPass(bench, device *tensor.Tensor) (mn, mg float64, nonFinite bool) {
	var bb, dd [blockLen]float64
	n := bench.Len()
	nanN, nanG := false, false
	for off := 0; off < n; off += blockLen {
		m := min(blockLen, n-off)
		decodeFloats(bench, off, bb[:m])
		decodeFloats(device, off, dd[:m])
		for i := 0; i < m; i++ {
			ad, ab := math.Abs(dd[i]), math.Abs(bb[i])
			if !(ad <= math.MaxFloat64 && ab <= math.MaxFloat64) {
				nonFinite = true
				nanN = nanN || ad != ad
				nanG = nanG || ab != ab
			}
			if ad > mn {
				mn = ad
			}
			if ab > mg {
				mg = ab
			}
		}
	}
	if nanN {
		mn = math.NaN()
	}
	if nanG {
		mg = math.NaN()
	}
	return mn, mg, nonFinite
}

func binaryLoop[T float](b, d []T, a *accum) {
	d = d[:len(b)]
	n := 0
	for i, v := range b {
		n += b2i(v != d[i]) // branch-free: equality is data-dependent
	}
	a.neq += n
}

// b2i is 1 for true; the compiler turns it into a flag move, not a branch.
func b2i(c bool) int {
	var x int
	if c {
		x = 1
	}
	return x
}

func finite(x float64) bool { return math.Abs(x) <= math.MaxFloat64 }

// finite2 is isfinite(x) && isfinite(y) for either float type, with one
// compare: x−x is 0 for a finite x and NaN otherwise.
func finite2[T float](x, y T) bool { return (x-x)+(y-y) == 0 }

func benchmarkLoop[T float](p *plan, b, bd, d, e, r []T, a *accum) {
	bd, d, e, r = bd[:len(b)], d[:len(b)], e[:len(b)], r[:len(b)]
	sv, atol := T(p.sv), T(p.atolBench)
	small, smallErr, masked, pos, neg, reCnt := a.small, a.smallErr, a.masked, a.pos, a.neg, a.reCnt
	sq, reMax, reSum := a.sq, a.reMax, a.reSum
	for i, bv := range b {
		dv, bdv := d[i], bd[i]
		pos += b2i(dv > bdv) // branch-free: the sign is data-dependent
		neg += b2i(dv < bdv)
		if !finite2(dv, bdv) {
			masked++
			continue
		}
		ev := e[i]
		if abs(bv) <= sv {
			small++
			masked++
			if ev > atol {
				smallErr++
			}
			continue
		}
		s := float64(ev * ev) // the square in the array dtype, as np.square
		sq += s
		rv := float64(r[i])
		if reCnt < seqMax {
			a.reFirst[reCnt], a.sqFirst[reCnt] = rv, s
		}
		if rv > reMax { // rv is never NaN here: both sides are finite
			reMax = rv
		}
		reSum += rv
		reCnt++
	}
	a.small, a.smallErr, a.masked, a.pos, a.neg, a.reCnt = small, smallErr, masked, pos, neg, reCnt
	a.sq, a.reMax, a.reSum = sq, reMax, reSum
}

// ebLoop counts the signs of d − bench_in_dev for EB when the benchmark
// loop does not run.
func ebLoop[T float](bd, d []T, a *accum) {
	d = d[:len(bd)]
	pos, neg := a.pos, a.neg
	for i, bdv := range bd {
		pos += b2i(d[i] > bdv)
		neg += b2i(d[i] < bdv)
	}
	a.pos, a.neg = pos, neg
}

func absoluteLoop[T float](p *plan, b, bd, d, e, r []T, a *accum) {
	bd, d, e, r = bd[:len(b)], d[:len(b)], e[:len(b)], r[:len(b)]
	sv, atol, rtol := T(p.sv), T(p.atolAbs), T(p.rtol)
	small, smallErr, normal, normalFail := 0, 0, 0, 0
	for i, bv := range b {
		dv, bdv := d[i], bd[i]
		if !finite2(dv, bdv) {
			a.absInfNan++
			if !p.infNanPass(float64(bv), float64(bdv), float64(dv), p.rtol) {
				a.absInfNanFail++
			}
			continue
		}
		if abs(bv) <= sv {
			small++
			smallErr += b2i(e[i] > atol)
		} else {
			normal++
			normalFail += b2i(r[i] > rtol)
		}
	}
	a.absSmall += small
	a.absSmallErr += smallErr
	a.absNormal += normal
	a.absNormalFail += normalFail
}

func accumulativeLoop[T float](p *plan, b, bd, d, e, r []T, a *accum) {
	bd, d, e, r = bd[:len(b)], d[:len(b)], e[:len(b)], r[:len(b)]
	bound := T(p.bound)
	small, smallErr, normal, normalFail := 0, 0, 0, 0
	for i, bv := range b {
		dv, bdv := d[i], bd[i]
		if !finite2(dv, bdv) {
			a.accInfNan++
			if !p.infNanPass(float64(bv), float64(bdv), float64(dv), p.bound) {
				a.accInfNanFail++
			}
			continue
		}
		if abs(bv) <= AccumulativeSmallValue {
			small++
			smallErr += b2i(e[i] > bound)
		} else {
			normal++
			normalFail += b2i(r[i] > bound)
		}
	}
	a.accSmall += small
	a.accSmallErr += smallErr
	a.accNormal += normal
	a.accNormalFail += normalFail
}

// infNanPass judges one element where the device value or the bench cast to
// the device dtype is not finite (§6.9). msprobe: both are clipped to the
// device dtype's finite range and the element passes when
// |nc−gc| / (|b|+eps) ≤ rtol (the bench in the denominator is not clipped, so
// an infinite bench passes against any finite device value [quirk, §12 #6])
// or when both are NaN. probe's default: the element passes only when both
// are NaN or both clip to the same value.
func (p *plan) infNanPass(b, bd, d, rtol float64) bool {
	if d != d && bd != bd {
		return true
	}
	nc := math.Max(p.lo, math.Min(p.hi, d))
	gc := math.Max(p.lo, math.Min(p.hi, bd))
	if !p.compat {
		return nc == gc // NaN on one side compares unequal
	}
	diff := math.Abs(roundTo(p.devA, nc-gc))
	den := math.Abs(b) + p.eps
	if p.benchF32 {
		den = float64(float32(den))
	}
	q := diff / den
	if p.f32 {
		q = float64(float32(q))
	}
	return q <= rtol
}

// pow2 is 2^k for -1022 ≤ k ≤ 1023.
func pow2(k int) float64 { return math.Float64frombits(uint64(k+1023) << 52) }

// ulpLoop accumulates the ULP errors of §6.10.
func ulpLoop[T float](p *plan, b, d []T, a *accum) {
	d = d[:len(b)]
	mant, minEB, f32, thr := p.ulpMant, p.ulpMinEB, p.ulpF32, p.ulpThr
	zeroEB := 0
	if !p.compat {
		zeroEB = minEB // §12 #7: a zero bench gets the subnormal spacing
	}
	// log2 of a value just below a power of two rounds up in the
	// computation dtype: mantissas with these top bits all set take the
	// slow path of floorLog2 (see there).
	corner := uint64(0xfff0000000000)
	if f32 {
		corner = 0xfffe000000000
	}
	overflow32 := f32 && p.compat
	// the max as the bit pattern of a non-negative float64 (ulp is an
	// absolute value): non-negative floats order like their bits, and a NaN
	// with its sign cleared lies above +Inf.
	const inf64 = 0x7ff0000000000000
	mxb, sum, over, cnt := math.Float64bits(a.ulpMax), a.ulpSum, a.ulpOver, a.ulpCnt
	for i, bt := range b {
		bv := float64(bt)
		u := math.Float64bits(bv)
		exp := int(u>>52&0x7ff) - 1023
		var ulp float64
		if exp == 1024 {
			ulp = math.NaN() // log2(±inf) = inf → exp2(-inf) = 0 → (d−b)·0 = NaN
		} else {
			eb := exp
			switch {
			case u<<1 == 0:
				eb = zeroEB
			case u&corner == corner:
				eb = floorLog2(bv, f32)
			}
			eb = max(eb, minEB)
			k := mant - eb
			diff := float64(d[i]) - bv
			if f32 {
				diff = float64(float32(diff))
				if k >= 128 && overflow32 {
					// NumPy's float32 exp2 overflows: 0·inf = NaN, x·inf = ±inf.
					ulp = math.Abs(diff * math.Inf(1))
				} else {
					ulp = math.Abs(float64(float32(diff * pow2(k))))
				}
			} else {
				ulp = math.Abs(diff * pow2(k))
			}
		}
		ub := math.Float64bits(ulp) &^ (1 << 63) // ulp ≥ 0 or NaN: drops a NaN's sign only
		mxb = max(mxb, ub)
		if j := cnt + i; j < seqMax {
			a.ulpFirst[j] = ulp
		}
		sum += ulp
		over += b2i(ulp > thr)
	}
	if mxb > inf64 {
		a.ulpNaN = true // ULPMax is NaN whatever a.ulpMax holds
	} else {
		a.ulpMax = math.Float64frombits(mxb)
	}
	a.ulpSum, a.ulpOver, a.ulpCnt = sum, over, cnt+len(b)
}

// seqMax: NumPy sums fewer than 8 float32 values sequentially in float32
// (pairwise_sum's base case); the pass keeps the first seqMax values of each
// float32 mean so that such small means are reproduced bit for bit.
// Longer float32 means are summed exactly in float64 and rounded once, so
// they can differ from NumPy's pairwise float32 sum by its rounding error.
const seqMax = 7

// seqSum is NumPy's float32 sum of fewer than 8 values: sequential, in
// float32.
func seqSum(v []float64) float64 {
	var s float32
	for _, x := range v {
		s += float32(x)
	}
	return float64(s)
}

// floorLog2 is floor(log2|x|) as NumPy computes it for a finite non-zero x
// in float32 (f32) or float64: the binary exponent, except that log2 of a
// value just below a power of two rounds up to the next integer in the
// computation dtype, which the slow path reproduces.
func floorLog2(x float64, f32 bool) int {
	if f32 {
		u := math.Float32bits(float32(x))
		e := int(u>>23&0xff) - 127
		if e == -127 { // float32 subnormal: below any min_eb
			return -150
		}
		if u&0x7fff00 == 0x7fff00 { // mantissa within 2^-15 of 2
			return int(math.Floor(float64(float32(math.Log2(math.Abs(x))))))
		}
		return e
	}
	u := math.Float64bits(x)
	e := int(u>>52&0x7ff) - 1023
	if e == -1023 {
		return -1075
	}
	if u&0xfff0000000000 == 0xfff0000000000 { // mantissa within 2^-40 of 2
		return int(math.Floor(math.Log2(math.Abs(x))))
	}
	return e
}
