package standard

import (
	"math"

	"golang.org/x/sys/cpu"
)

// legacyState is legacyPairsAVX's state and constants (legacy_amd64.s):
// the two-lane sums, mae, the rel_err counts (int64 lanes, bit patterns in
// float64 slots) and the constants.
type legacyState struct {
	dot, nn, gg, mae         [2]float64
	lt4, lt3, lt2, lt3bf     [2]int64
	abs, eps, t4, t3, t2, tb [2]float64
}

//go:noescape
func legacyPairsAVX(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState) int

// legacyAVX says whether legacy64 runs legacyPairsAVX.
var legacyAVX = cpu.X86.HasAVX

// legacy64 is legacy64Go with its pairs in two-lane AVX: the same
// operations in the same order on the same two chains, so the same bits;
// a pair that raises the maximum error or holds a NaN returns to Go.
func legacy64(b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) {
	n := len(b)
	if !legacyAVX || n < 2 {
		legacy64Go(b, d, bd, e, r, eps, castBench, a)
		return
	}
	d, bd, e, r = d[:n], bd[:n], e[:n], r[:n]
	abs := math.Float64frombits(1<<63 - 1)
	st := legacyState{mae: [2]float64{a.mae, a.mae}, abs: [2]float64{abs, abs}, eps: [2]float64{eps, eps},
		t4: [2]float64{TenThousandThreshold, TenThousandThreshold}, t3: [2]float64{ThousandThreshold, ThousandThreshold},
		t2: [2]float64{HundredThreshold, HundredThreshold}, tb: [2]float64{BF16ThousandThreshold, BF16ThousandThreshold}}
	maeNaN := a.maeNaN
	i := 0
	for {
		i = legacyPairsAVX(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, &st)
		if i+1 >= n {
			break
		}
		// a new maximum or a NaN in the pair i, i+1
		mae := st.mae[0]
		mae, maeNaN = maxErr(mae, maeNaN, e[i])
		mae, maeNaN = maxErr(mae, maeNaN, e[i+1])
		st.mae = [2]float64{mae, mae}
		i += 2
	}
	mae := st.mae[0]
	c4, c3, c2, cb := int(st.lt4[0]+st.lt4[1]), int(st.lt3[0]+st.lt3[1]), int(st.lt2[0]+st.lt2[1]), int(st.lt3bf[0]+st.lt3bf[1])
	dot0, nn0, gg0 := st.dot[0], st.nn[0], st.gg[0]
	if i < n { // odd length: the last element, on chain 0
		b0, d0 := b[i], d[i]
		dot0 += b0 * d0
		nn0 += d0 * d0
		gg0 += b0 * b0
		if castBench {
			bd[i] = float64(float32(b0))
		}
		ev := abs64(d0 - b0)
		rv := ev / (abs64(b0) + eps)
		e[i], r[i] = ev, rv
		mae, maeNaN = maxErr(mae, maeNaN, ev)
		c4 += b2i(rv < TenThousandThreshold)
		c3 += b2i(rv < ThousandThreshold)
		c2 += b2i(rv < HundredThreshold)
		cb += b2i(rv < BF16ThousandThreshold)
	}
	a.dot += dot0 + st.dot[1]
	a.nn += nn0 + st.nn[1]
	a.gg += gg0 + st.gg[1]
	a.mae, a.maeNaN = mae, maeNaN
	a.lt4 += c4
	a.lt3 += c3
	a.lt2 += c2
	a.lt3bf += cb
}

func abs64(x float64) float64 { return math.Abs(x) }

// benchState is benchPairsAVX's state and constants (legacy_amd64.s).
type benchState struct {
	sq, reSum                      float64
	reMax                          [2]float64
	pos, neg, small, smallErr, cnt [2]int64
	abs, sv, atol, minus1          [2]float64
}

//go:noescape
func benchPairsAVX(b, bd, d, e, r *float64, from, n int, st *benchState) int

// benchmarkLoop64 is benchmarkLoop for float64 arrays with its pairs in
// two-lane AVX: the sums in element order, so the same bits. The elements
// up to the seqMax-th normal one (whose values NumPy's short sums need)
// and an odd last element run in Go.
func benchmarkLoop64(p *plan, b, bd, d, e, r []float64, a *accum) {
	n := len(b)
	if !legacyAVX {
		benchmarkLoop(p, b, bd, d, e, r, a)
		return
	}
	bd, d, e, r = bd[:n], d[:n], e[:n], r[:n]
	i := 0
	for ; i < n && a.reCnt < seqMax; i++ {
		benchmarkLoop(p, b[i:i+1], bd[i:i+1], d[i:i+1], e[i:i+1], r[i:i+1], a)
	}
	if n-i < 2 {
		benchmarkLoop(p, b[i:], bd[i:], d[i:], e[i:], r[i:], a)
		return
	}
	abs := math.Float64frombits(1<<63 - 1)
	st := benchState{sq: a.sq, reSum: a.reSum, reMax: [2]float64{a.reMax, a.reMax},
		abs: [2]float64{abs, abs}, sv: [2]float64{p.sv, p.sv}, atol: [2]float64{p.atolBench, p.atolBench}, minus1: [2]float64{-1, -1}}
	j := benchPairsAVX(&b[0], &bd[0], &d[0], &e[0], &r[0], i, n, &st)
	cnt := int(st.cnt[0] + st.cnt[1])
	small := int(st.small[0] + st.small[1])
	a.sq, a.reSum, a.reMax = st.sq, st.reSum, max(st.reMax[0], st.reMax[1])
	a.pos += int(st.pos[0] + st.pos[1])
	a.neg += int(st.neg[0] + st.neg[1])
	a.small += small
	a.smallErr += int(st.smallErr[0] + st.smallErr[1])
	a.reCnt += cnt
	a.masked += j - i - cnt
	benchmarkLoop(p, b[j:], bd[j:], d[j:], e[j:], r[j:], a)
}

// absState is absPairsAVX's state and constants (legacy_amd64.s).
type absState struct {
	small, smallErr, normal, normalFail [2]int64
	abs, sv, atol, rtol                 [2]float64
}

//go:noescape
func absPairsAVX(b, bd, d, e, r *float64, from, n int, st *absState) int

// absoluteLoop64 is absoluteLoop for float64 arrays with its pairs in
// two-lane AVX (counts only, so any order gives the same); a pair with a
// non-finite value and an odd last element run in Go.
func absoluteLoop64(p *plan, b, bd, d, e, r []float64, a *accum) {
	n := len(b)
	if !legacyAVX || n < 2 {
		absoluteLoop(p, b, bd, d, e, r, a)
		return
	}
	bd, d, e, r = bd[:n], d[:n], e[:n], r[:n]
	abs := math.Float64frombits(1<<63 - 1)
	st := absState{abs: [2]float64{abs, abs}, sv: [2]float64{p.sv, p.sv}, atol: [2]float64{p.atolAbs, p.atolAbs}, rtol: [2]float64{p.rtol, p.rtol}}
	i := 0
	for {
		i = absPairsAVX(&b[0], &bd[0], &d[0], &e[0], &r[0], i, n, &st)
		if i+1 >= n {
			break
		}
		absoluteLoop(p, b[i:i+2], bd[i:i+2], d[i:i+2], e[i:i+2], r[i:i+2], a) // a non-finite value
		i += 2
	}
	a.absSmall += int(st.small[0] + st.small[1])
	a.absSmallErr += int(st.smallErr[0] + st.smallErr[1])
	a.absNormal += int(st.normal[0] + st.normal[1])
	a.absNormalFail += int(st.normalFail[0] + st.normalFail[1])
	absoluteLoop(p, b[i:], bd[i:], d[i:], e[i:], r[i:], a)
}

// ulpState is ulpPairsAVX's state and constants (legacy_amd64.s).
type ulpState struct {
	sum                                                               float64
	_                                                                 float64
	max                                                               [2]float64
	over                                                              [2]int64
	expMask, corner, c2046, c2045, minPow, mantPow, zeroPow, thr, abs [2]uint64
}

//go:noescape
func ulpPairsAVX(b, d *float64, from, n int, st *ulpState) int

// ulpLoop64 is ulpLoop for float64 arrays computed in float64 (not f32),
// its pairs in two-lane AVX: the sum in element order, so the same bits.
// The first seqMax elements, pairs needing ulpLoop's slow cases and an odd
// last element run in Go.
func ulpLoop64(p *plan, b, d []float64, a *accum) {
	n := len(b)
	if !legacyAVX || p.ulpF32 {
		ulpLoop(p, b, d, a)
		return
	}
	d = d[:n]
	i := 0
	if head := min(n, max(0, seqMax-a.ulpCnt)); head > 0 {
		ulpLoop(p, b[:head], d[:head], a)
		i = head
	}
	if n-i < 2 {
		ulpLoop(p, b[i:], d[i:], a)
		return
	}
	zeroEB := 0
	if !p.compat {
		zeroEB = p.ulpMinEB
	}
	two := func(v uint64) [2]uint64 { return [2]uint64{v, v} }
	f := func(x float64) [2]uint64 { return two(math.Float64bits(x)) }
	st := ulpState{sum: a.ulpSum, max: [2]float64{0, 0},
		expMask: two(0x7ff0000000000000), corner: two(0xfff0000000000), c2046: two(2046 << 52), c2045: two(2045 << 52),
		minPow: f(pow2(-p.ulpMinEB)), mantPow: f(pow2(p.ulpMant)), zeroPow: f(pow2(p.ulpMant - max(zeroEB, p.ulpMinEB))),
		thr: f(p.ulpThr), abs: two(1<<63 - 1)}
	over := 0
	flush := func(from, to int) {
		// the lanes' maximum and count into a, the sum carried in st
		mx := max(st.max[0], st.max[1])
		if mb := math.Float64bits(mx); mb > math.Float64bits(a.ulpMax) {
			a.ulpMax = mx
		}
		over += int(st.over[0] + st.over[1])
		st.max, st.over = [2]float64{}, [2]int64{}
		a.ulpCnt += to - from
	}
	for {
		j := ulpPairsAVX(&b[0], &d[0], i, n, &st)
		flush(i, j)
		a.ulpSum = st.sum
		if j+1 >= n {
			i = j
			break
		}
		ulpLoop(p, b[j:j+2], d[j:j+2], a) // a slow case
		st.sum = a.ulpSum
		i = j + 2
	}
	a.ulpOver += over
	ulpLoop(p, b[i:], d[i:], a)
}
