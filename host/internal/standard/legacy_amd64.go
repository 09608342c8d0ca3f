package standard

import (
	"math"

	"golang.org/x/sys/cpu"
)

// lanes is a four-lane constant of the assembly loops.
type lanes [4]float64

func four(x float64) lanes { return lanes{x, x, x, x} }

// sum4 is the total of four int64 count lanes.
func sum4(c [4]int64) int { return int(c[0] + c[1] + c[2] + c[3]) }

// pairCounts are two counts in each int64 lane, the first in the low 32
// bits and the second in the high 32 (one register for two counts). A
// call of the loops adds at most n/4 < 2^32 to each half.
type pairCounts [4]int64

// split returns the two totals and clears the lanes.
func (c *pairCounts) split() (lo, hi int) {
	for _, v := range c {
		lo += int(v & 0xffffffff)
		hi += int(v >> 32)
	}
	*c = pairCounts{}
	return lo, hi
}

// max4 is the largest of four lanes that hold no NaN.
func max4(v lanes) float64 { return max(v[0], v[1], v[2], v[3]) }

// hiOne is 1<<32 in each lane: a compare's mask ANDed with it counts in
// the high half of a pairCounts lane.
var hiOne = [4]uint64{1 << 32, 1 << 32, 1 << 32, 1 << 32}

// legacyState is the state and constants of legacyQuadsAVX2
// (legacy_amd64.s): the two-chain sums, mae, the
// rel_err counts (< 1e-4 and < 1e-3, < 1e-2 and < 2^-8, as pairCounts)
// and the constants.
type legacyState struct {
	dot, nn, gg              [2]float64
	mae                      lanes
	c43, c2b                 pairCounts
	abs, eps, t4, t3, t2, tb lanes
	hi                       [4]uint64
}

func newLegacyState(mae, eps float64) *legacyState {
	return &legacyState{mae: four(mae), abs: four(math.Float64frombits(1<<63 - 1)), eps: four(eps),
		t4: four(TenThousandThreshold), t3: four(ThousandThreshold), t2: four(HundredThreshold), tb: four(BF16ThousandThreshold), hi: hiOne}
}

//go:noescape
func legacyQuadsAVX2(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState) int

//go:noescape
func legacyOctsAVX512(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState) int

//go:noescape
func legacyBenchOctsAVX512(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState, bst *benchState) int

// quadsAVX2 says whether the float64 loops run their four-lane assembly
// (legacy_amd64.s).
var quadsAVX2 = cpu.X86.HasAVX2

// octsAVX512 says whether they run their eight-lane AVX-512 loops
// (legacy512_amd64.s) before the four-lane ones; the tests clear it to
// check the four-lane loops alone.
var octsAVX512 = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512BW

// quads runs one of the legacy assembly loops (quads(i) continues from i)
// over groups of w elements (4 or 8) until fewer than w are left, updating
// mae where a group stopped it (a new maximum or a NaN), and returns where
// it ended.
func (st *legacyState) quads(e []float64, maeNaN *bool, i, w int, quads func(i int) int) int {
	n := len(e)
	for {
		i = quads(i)
		if i+w-1 >= n {
			return i
		}
		mae := st.mae[0]
		for _, ev := range e[i : i+w] {
			mae, *maeNaN = maxErr(mae, *maeNaN, ev)
		}
		st.mae = four(mae)
		i += w
	}
}

// finish runs legacy64Go's work on the last elements, from i (a multiple
// of 4, so element k goes to chain k%2 as in legacy64Go), and adds the
// state to a.
func (st *legacyState) finish(b, d, bd, e, r []float64, i int, eps float64, castBench, maeNaN bool, a *accum) {
	mae := st.mae[0]
	c4, c3 := st.c43.split()
	c2, cb := st.c2b.split()
	for ; i < len(b); i++ {
		b0, d0 := b[i], d[i]
		c := i & 1
		st.dot[c] += b0 * d0
		st.nn[c] += d0 * d0
		st.gg[c] += b0 * b0
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
	a.dot += st.dot[0] + st.dot[1]
	a.nn += st.nn[0] + st.nn[1]
	a.gg += st.gg[0] + st.gg[1]
	a.mae, a.maeNaN = mae, maeNaN
	a.lt4 += c4
	a.lt3 += c3
	a.lt2 += c2
	a.lt3bf += cb
}

// legacy64 is legacy64Go with its octets in eight-lane AVX-512 (where the
// machine has it) and its quads in four-lane AVX2: the same operations in
// the same order on the same two chains, so the same bits; a group that
// raises the maximum error or holds a NaN returns to Go.
func legacy64(b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) {
	n := len(b)
	if !quadsAVX2 || n < 4 {
		legacy64Go(b, d, bd, e, r, eps, castBench, a)
		return
	}
	d, bd, e, r = d[:n], bd[:n], e[:n], r[:n]
	st, maeNaN := newLegacyState(a.mae, eps), a.maeNaN
	i := 0
	if octsAVX512 {
		i = st.quads(e, &maeNaN, i, 8, func(i int) int {
			return legacyOctsAVX512(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, st)
		})
	}
	i = st.quads(e, &maeNaN, i, 4, func(i int) int {
		return legacyQuadsAVX2(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, st)
	})
	st.finish(b, d, bd, e, r, i, eps, castBench, maeNaN, a)
}

// legacyBench64 is legacy64 then benchmarkLoop64 over the same block in
// one loop over its octets (legacyBenchOctsAVX512), where the machine has
// AVX-512 and the benchmark loop is past the elements NumPy's short sums
// need (a.reCnt >= seqMax): the benchmark loop's sums have a chain of
// dependent adds per element, whose latency the legacy work fills. It
// reports whether it ran.
func legacyBench64(p *plan, b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) bool {
	n := len(b)
	if !octsAVX512 || a.reCnt < seqMax || n < 8 {
		return false
	}
	d, bd, e, r = d[:n], bd[:n], e[:n], r[:n]
	st, maeNaN := newLegacyState(a.mae, eps), a.maeNaN
	sb := newBenchState(p, a)
	i := st.quads(e, &maeNaN, 0, 8, func(i int) int {
		return legacyBenchOctsAVX512(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, st, sb)
	})
	j := st.quads(e, &maeNaN, i, 4, func(i int) int {
		return legacyQuadsAVX2(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, st)
	})
	st.finish(b, d, bd, e, r, j, eps, castBench, maeNaN, a)
	// the benchmark loop from i, now that bd, e and r are complete
	k := benchQuadsAVX2(&b[0], &bd[0], &d[0], &e[0], &r[0], i, n, sb)
	sb.finish(k, a)
	benchmarkLoop(p, b[k:], bd[k:], d[k:], e[k:], r[k:], a)
	return true
}

func abs64(x float64) float64 { return math.Abs(x) }

// benchState is the state and constants of benchQuadsAVX2
// (legacy_amd64.s): the two sums, the maximum
// relative error per lane, the counts (pos and neg, small and smallErr as
// pairCounts; reCnt), then the constants.
type benchState struct {
	sq, reSum             float64
	reMax                 lanes
	posNeg, small         pairCounts
	cnt                   [4]int64
	abs, sv, atol, minus1 lanes
	hi                    [4]uint64
}

func newBenchState(p *plan, a *accum) *benchState {
	return &benchState{sq: a.sq, reSum: a.reSum, reMax: four(a.reMax),
		abs: four(math.Float64frombits(1<<63 - 1)), sv: four(p.sv), atol: four(p.atolBench), minus1: four(-1), hi: hiOne}
}

// finish adds the state of a loop that ran over `done` elements to a.
func (sb *benchState) finish(done int, a *accum) {
	cnt := sum4(sb.cnt)
	pos, neg := sb.posNeg.split()
	small, smallErr := sb.small.split()
	a.sq, a.reSum, a.reMax = sb.sq, sb.reSum, max4(sb.reMax)
	a.pos += pos
	a.neg += neg
	a.small += small
	a.smallErr += smallErr
	a.reCnt += cnt
	a.masked += done - cnt
}

//go:noescape
func benchQuadsAVX2(b, bd, d, e, r *float64, from, n int, st *benchState) int

//go:noescape
func benchOctsAVX512(b, bd, d, e, r *float64, from, n int, st *benchState) int

// benchmarkLoop64 is benchmarkLoop for float64 arrays with its quads in
// four-lane AVX2: the sums in element order, so the same bits. The
// elements up to the seqMax-th normal one (whose values NumPy's short sums
// need) and the last n mod 4 run in Go.
func benchmarkLoop64(p *plan, b, bd, d, e, r []float64, a *accum) {
	n := len(b)
	if !quadsAVX2 {
		benchmarkLoop(p, b, bd, d, e, r, a)
		return
	}
	bd, d, e, r = bd[:n], d[:n], e[:n], r[:n]
	i := 0
	for ; i < n && a.reCnt < seqMax; i++ {
		benchmarkLoop(p, b[i:i+1], bd[i:i+1], d[i:i+1], e[i:i+1], r[i:i+1], a)
	}
	if n-i < 4 {
		benchmarkLoop(p, b[i:], bd[i:], d[i:], e[i:], r[i:], a)
		return
	}
	sb := newBenchState(p, a)
	j := i
	if octsAVX512 {
		j = benchOctsAVX512(&b[0], &bd[0], &d[0], &e[0], &r[0], j, n, sb)
	}
	j = benchQuadsAVX2(&b[0], &bd[0], &d[0], &e[0], &r[0], j, n, sb)
	sb.finish(j-i, a)
	benchmarkLoop(p, b[j:], bd[j:], d[j:], e[j:], r[j:], a)
}

// absState is absQuadsAVX2's state and constants (legacy_amd64.s).
type absState struct {
	small, smallErr, normal, normalFail [4]int64
	abs, sv, atol, rtol                 lanes
}

//go:noescape
func absQuadsAVX2(b, bd, d, e, r *float64, from, n int, st *absState) int

//go:noescape
func absOctsAVX512(b, bd, d, e, r *float64, from, n int, st *absState) int

// absoluteLoop64 is absoluteLoop for float64 arrays with its quads in
// four-lane AVX2 (counts only, so any order gives the same); a quad with a
// non-finite value and the last n mod 4 elements run in Go.
func absoluteLoop64(p *plan, b, bd, d, e, r []float64, a *accum) {
	n := len(b)
	if !quadsAVX2 || n < 4 {
		absoluteLoop(p, b, bd, d, e, r, a)
		return
	}
	bd, d, e, r = bd[:n], d[:n], e[:n], r[:n]
	st := absState{abs: four(math.Float64frombits(1<<63 - 1)), sv: four(p.sv), atol: four(p.atolAbs), rtol: four(p.rtol)}
	// groups of w elements until fewer than w are left; a group with a
	// non-finite value runs in Go
	groups := func(i, w int, kernel func(b, bd, d, e, r *float64, from, n int, st *absState) int) int {
		for {
			i = kernel(&b[0], &bd[0], &d[0], &e[0], &r[0], i, n, &st)
			if i+w-1 >= n {
				return i
			}
			absoluteLoop(p, b[i:i+w], bd[i:i+w], d[i:i+w], e[i:i+w], r[i:i+w], a)
			i += w
		}
	}
	i := 0
	if octsAVX512 {
		i = groups(i, 8, absOctsAVX512)
	}
	i = groups(i, 4, absQuadsAVX2)
	a.absSmall += sum4(st.small)
	a.absSmallErr += sum4(st.smallErr)
	a.absNormal += sum4(st.normal)
	a.absNormalFail += sum4(st.normalFail)
	absoluteLoop(p, b[i:], bd[i:], d[i:], e[i:], r[i:], a)
}

// ulpState is ulpQuadsAVX2's state and constants (legacy_amd64.s).
type ulpState struct {
	sum                                                               float64
	_                                                                 float64
	max                                                               lanes
	over                                                              [4]int64
	expMask, corner, c2046, c2045, minPow, mantPow, zeroPow, thr, abs [4]uint64
}

//go:noescape
func ulpQuadsAVX2(b, d *float64, from, n int, st *ulpState) int

//go:noescape
func ulpOctsAVX512(b, d *float64, from, n int, st *ulpState) int

// ulpLoop64 is ulpLoop for float64 arrays computed in float64 (not f32),
// its octets in eight-lane AVX-512 (where the machine has it) and its
// quads in four-lane AVX2: the sum in element order, so the same bits.
// The first seqMax elements, groups needing ulpLoop's slow cases and the
// last n mod 4 elements run in Go.
func ulpLoop64(p *plan, b, d []float64, a *accum) {
	n := len(b)
	if !quadsAVX2 || p.ulpF32 {
		ulpLoop(p, b, d, a)
		return
	}
	d = d[:n]
	i := 0
	if head := min(n, max(0, seqMax-a.ulpCnt)); head > 0 {
		ulpLoop(p, b[:head], d[:head], a)
		i = head
	}
	if n-i < 4 {
		ulpLoop(p, b[i:], d[i:], a)
		return
	}
	u := newULPRun(p, b, d, a)
	if octsAVX512 {
		i = u.groups(i, 8)
	}
	u.finish(u.groups(i, 4))
}

// ulpRun is ulpLoop64's state over one block: the assembly loops' state,
// and the count over the threshold so far.
type ulpRun struct {
	p    *plan
	b, d []float64
	a    *accum
	st   ulpState
	over int
}

func newULPRun(p *plan, b, d []float64, a *accum) ulpRun {
	zeroEB := 0
	if !p.compat {
		zeroEB = p.ulpMinEB
	}
	two := func(v uint64) [4]uint64 { return [4]uint64{v, v, v, v} }
	f := func(x float64) [4]uint64 { return two(math.Float64bits(x)) }
	return ulpRun{p: p, b: b, d: d, a: a, st: ulpState{sum: a.ulpSum,
		expMask: two(0x7ff0000000000000), corner: two(0xfff0000000000), c2046: two(2046 << 52), c2045: two(2045 << 52),
		minPow: f(pow2(-p.ulpMinEB)), mantPow: f(pow2(p.ulpMant)), zeroPow: f(pow2(p.ulpMant - max(zeroEB, p.ulpMinEB))),
		thr: f(p.ulpThr), abs: two(1<<63 - 1)}}
}

// flush moves the lanes' maximum and count, and the sum, of the elements
// [from, to) that the assembly ran into a.
func (u *ulpRun) flush(from, to int) {
	mx := max4(u.st.max)
	if mb := math.Float64bits(mx); mb > math.Float64bits(u.a.ulpMax) {
		u.a.ulpMax = mx
	}
	u.over += sum4(u.st.over)
	u.st.max, u.st.over = lanes{}, [4]int64{}
	u.a.ulpCnt += to - from
	u.a.ulpSum = u.st.sum
}

// slow runs the group [j, j+w) in Go (ulpLoop's slow cases), after a flush.
func (u *ulpRun) slow(j, w int) {
	ulpLoop(u.p, u.b[j:j+w], u.d[j:j+w], u.a)
	u.st.sum = u.a.ulpSum
}

// groups runs the assembly loop over groups of w elements (ulpOctsAVX512
// for 8, ulpQuadsAVX2 for 4) from i until fewer than w are left, a group
// needing a slow case in Go, and returns where it ended.
func (u *ulpRun) groups(i, w int) int {
	n := len(u.b)
	for {
		var j int
		if w == 8 {
			j = ulpOctsAVX512(&u.b[0], &u.d[0], i, n, &u.st)
		} else {
			j = ulpQuadsAVX2(&u.b[0], &u.d[0], i, n, &u.st)
		}
		u.flush(i, j)
		if j+w-1 >= n {
			return j
		}
		u.slow(j, w)
		i = j + w
	}
}

// finish runs the elements from i in Go and adds the count to a.
func (u *ulpRun) finish(i int) {
	u.a.ulpOver += u.over
	ulpLoop(u.p, u.b[i:], u.d[i:], u.a)
}

//go:noescape
func legacyULPOctsAVX512(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState, ust *ulpState) (i int, slow bool)

// legacyULP64 is legacy64 then ulpLoop64 over the same block in one loop
// over its octets (legacyULPOctsAVX512), where the machine has AVX-512, the
// ULP loop computes in float64 and is past the first seqMax elements: the
// legacy work fills the latency of the ULP sum's chain of dependent adds.
// It reports whether it ran.
func legacyULP64(p *plan, b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) bool {
	n := len(b)
	if !octsAVX512 || p.ulpF32 || a.ulpCnt < seqMax || n < 8 {
		return false
	}
	d, bd, e, r = d[:n], bd[:n], e[:n], r[:n]
	st, maeNaN := newLegacyState(a.mae, eps), a.maeNaN
	u := newULPRun(p, b, d, a)
	i := 0
	for {
		j, slow := legacyULPOctsAVX512(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, st, &u.st)
		if j+7 >= n {
			u.flush(i, j)
			i = j
			break
		}
		// the octet j stopped it: its legacy work is done, mae to update
		mae := st.mae[0]
		for _, ev := range e[j : j+8] {
			mae, maeNaN = maxErr(mae, maeNaN, ev)
		}
		st.mae = four(mae)
		if slow {
			u.flush(i, j)
			u.slow(j, 8)
		} else {
			u.flush(i, j+8)
		}
		i = j + 8
	}
	j := st.quads(e, &maeNaN, i, 4, func(i int) int {
		return legacyQuadsAVX2(&b[0], &d[0], &bd[0], &e[0], &r[0], i, n, castBench, st)
	})
	st.finish(b, d, bd, e, r, j, eps, castBench, maeNaN, a)
	u.finish(u.groups(i, 4))
	return true
}
