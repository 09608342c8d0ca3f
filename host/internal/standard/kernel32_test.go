package standard

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// TestLegacy32MatchesGeneric checks the float32 kernel against the generic
// legacyLoop bit for bit, over odd and even lengths, with NaN, ±Inf, zeros,
// subnormals and huge values, carrying the accumulator across blocks.
func TestLegacy32MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-45, -3e38, 3e38, 1e-7}
	gen := func() float32 {
		switch r.IntN(10) {
		case 0:
			return special[r.IntN(len(special))]
		case 1:
			return float32(r.NormFloat64() * 1e-6)
		}
		return float32(r.NormFloat64())
	}
	for trial := range 200 {
		n := r.IntN(blockLen) + 1
		b, d := make([]float32, n), make([]float32, n)
		for i := range b {
			b[i] = gen()
			switch r.IntN(4) {
			case 0:
				d[i] = gen()
			case 1:
				d[i] = b[i]
			case 2: // relative errors around the 1e-3 and 2^-8 bounds
				d[i] = b[i] * (1 + 0.006*r.Float32())
			default:
				d[i] = math.Float32frombits(math.Float32bits(b[i]) + uint32(r.IntN(5)) - 2)
			}
			if trial%2 == 0 && (math.IsNaN(float64(b[i])) || math.IsNaN(float64(d[i]))) {
				b[i], d[i] = 1, 2 // half the trials without NaN: mae stays comparable
			}
		}
		eps := float32(1.1920929e-07)
		for _, store := range []bool{false, true} {
			var want, got accum
			var we, wr, ge, gr [blockLen]float32
			for range 2 { // two blocks: the carried state matters
				legacyLoop(b, d, we[:n], wr[:n], eps, &want)
				legacy32(b, d, ge[:n], gr[:n], eps, store, &got)
			}
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
			if !same(want.dot, got.dot) || !same(want.nn, got.nn) || !same(want.gg, got.gg) ||
				want.lt2 != got.lt2 || want.lt3 != got.lt3 || want.lt4 != got.lt4 || want.lt3bf != got.lt3bf || want.maeNaN != got.maeNaN ||
				!want.maeNaN && !same(want.mae, got.mae) {
				t.Fatalf("trial %d store %v: got %+v, want %+v", trial, store, got, want)
			}
			if store {
				for i := range n {
					if math.Float32bits(we[i]) != math.Float32bits(ge[i]) && !(we[i] != we[i] && ge[i] != ge[i]) ||
						math.Float32bits(wr[i]) != math.Float32bits(gr[i]) && !(wr[i] != wr[i] && gr[i] != gr[i]) {
						t.Fatalf("trial %d element %d: e, r = %v, %v, want %v, %v", trial, i, ge[i], gr[i], we[i], wr[i])
					}
				}
			}
		}
	}
}

// TestLegacy64MatchesGeneric checks the fused float64 kernel against
// benchInDev followed by legacyLoop, bit for bit: a float64 bench against
// float32 device values, odd and even lengths, specials, two blocks.
func TestLegacy64MatchesGeneric(t *testing.T) { eachLoop64(t, testLegacy64MatchesGeneric) }

func testLegacy64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -1.7e308, 3e38, 1e-7, 1e-45}
	clean := false // no specials: finite sums, whose bits the order decides
	gen := func() float64 {
		switch r.IntN(10) {
		case 0:
			if clean {
				return r.NormFloat64() * 1e3
			}
			return special[r.IntN(len(special))]
		case 1:
			return r.NormFloat64() * 1e-6
		}
		return r.NormFloat64()
	}
	p := &plan{devA: tensor.Float32}
	for trial := range 200 {
		n := r.IntN(blockLen) + 1
		clean = trial%4 == 1
		b, d := make([]float64, n), make([]float64, n)
		for i := range b {
			b[i] = gen()
			switch r.IntN(3) {
			case 0:
				d[i] = float64(float32(gen()))
			case 1:
				d[i] = float64(float32(b[i]))
			default:
				d[i] = float64(float32(b[i] * (1 + 0.006*r.Float64())))
			}
			if trial%2 == 0 && (math.IsNaN(b[i]) || math.IsNaN(d[i])) {
				b[i], d[i] = 1, 2
			}
		}
		eps := 1.1920929e-07
		for _, cast := range []bool{false, true} {
			var want, got accum
			var we, wr, wbd, ge, gr, gbd [blockLen]float64
			for range 2 {
				if cast {
					p.benchInDev(b, wbd[:n])
				}
				legacyLoop(b, d, we[:n], wr[:n], eps, &want)
				legacy64(b, d, gbd[:n], ge[:n], gr[:n], eps, cast, &got)
			}
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
			if !same(want.dot, got.dot) || !same(want.nn, got.nn) || !same(want.gg, got.gg) ||
				want.lt2 != got.lt2 || want.lt3 != got.lt3 || want.lt4 != got.lt4 || want.lt3bf != got.lt3bf || want.maeNaN != got.maeNaN ||
				!want.maeNaN && !same(want.mae, got.mae) {
				t.Fatalf("trial %d cast %v: got %+v, want %+v", trial, cast, got, want)
			}
			if clean && !(finite(want.dot) && finite(want.nn) && finite(want.gg)) {
				t.Fatalf("trial %d: a clean trial has sums %v, %v, %v", trial, want.dot, want.nn, want.gg)
			}
			for i := range n {
				if !same(we[i], ge[i]) || !same(wr[i], gr[i]) || cast && !same(wbd[i], gbd[i]) {
					t.Fatalf("trial %d element %d: e, r, bd = %v, %v, %v, want %v, %v, %v", trial, i, ge[i], gr[i], gbd[i], we[i], wr[i], wbd[i])
				}
			}
		}
	}
}

// TestBenchmarkLoop64MatchesGeneric checks the two-lane float64 benchmark
// loop against benchmarkLoop, bit for bit: sums, maximum, counts and the
// first values NumPy's short sums need, over lengths, specials and small
// values, starting from a fresh and from a used accumulator.
func TestBenchmarkLoop64MatchesGeneric(t *testing.T) {
	eachLoop64(t, testBenchmarkLoop64MatchesGeneric)
}

func testBenchmarkLoop64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 3e38, 1e-7, 1e-45}
	p := newPlan(tensor.Float64, tensor.Float32, false)
	for trial := range 300 {
		n := r.IntN(64) + 1
		if trial%10 == 0 {
			n = r.IntN(blockLen) + 1
		}
		b, d, bd, e, rr := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		allSmall := trial%9 == 4 // every element masked: reMax stays -1
		for i := range b {
			switch r.IntN(12) {
			case 0:
				b[i] = special[r.IntN(len(special))]
			case 1, 2:
				b[i] = r.NormFloat64() * 1e-7 // small values
			default:
				b[i] = r.NormFloat64()
			}
			if allSmall {
				b[i] = r.NormFloat64() * 1e-7
			}
			d[i] = float64(float32(b[i] * (1 + 0.01*r.NormFloat64())))
			if r.IntN(20) == 0 {
				d[i] = special[r.IntN(len(special))]
			}
			bd[i] = float64(float32(b[i]))
			e[i] = math.Abs(d[i] - b[i])
			rr[i] = e[i] / (math.Abs(b[i]) + p.eps)
		}
		var want, got accum
		want.reMax, got.reMax = -1, -1
		for range 2 { // a fresh, then a used accumulator
			benchmarkLoop(p, b, bd, d, e, rr, &want)
			benchmarkLoop64(p, b, bd, d, e, rr, &got)
			if math.Float64bits(want.sq) != math.Float64bits(got.sq) || math.Float64bits(want.reSum) != math.Float64bits(got.reSum) ||
				want.reMax != got.reMax || want.pos != got.pos || want.neg != got.neg || want.masked != got.masked ||
				want.small != got.small || want.smallErr != got.smallErr || want.reCnt != got.reCnt ||
				want.reFirst != got.reFirst || want.sqFirst != got.sqFirst {
				t.Fatalf("trial %d (n %d): got %+v, want %+v", trial, n, got, want)
			}
		}
	}
}

// TestAbsoluteLoop64MatchesGeneric checks the two-lane float64 absolute
// threshold loop against absoluteLoop: every count, non-finite pairs
// included.
func TestAbsoluteLoop64MatchesGeneric(t *testing.T) { eachLoop64(t, testAbsoluteLoop64MatchesGeneric) }

func testAbsoluteLoop64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	special := []float64{0, math.Inf(1), math.Inf(-1), math.NaN(), 3e38, 1e-7}
	p := newPlan(tensor.Float64, tensor.Float32, false)
	for trial := range 300 {
		n := r.IntN(64) + 1
		b, d, bd, e, rr := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range b {
			b[i] = r.NormFloat64()
			if r.IntN(4) == 0 {
				b[i] *= 1e-7 // small values
			}
			d[i] = float64(float32(b[i] * (1 + 0.01*r.NormFloat64())))
			if r.IntN(15) == 0 {
				d[i] = special[r.IntN(len(special))]
			}
			if r.IntN(30) == 0 {
				b[i] = special[r.IntN(len(special))]
			}
			bd[i] = float64(float32(b[i]))
			e[i] = math.Abs(d[i] - b[i])
			rr[i] = e[i] / (math.Abs(b[i]) + p.eps)
			switch r.IntN(20) { // errors at the thresholds: not above them
			case 0:
				e[i] = p.atolAbs
			case 1:
				rr[i] = p.rtol
			}
		}
		var want, got accum
		absoluteLoop(p, b, bd, d, e, rr, &want)
		absoluteLoop64(p, b, bd, d, e, rr, &got)
		if want.absSmall != got.absSmall || want.absSmallErr != got.absSmallErr || want.absNormal != got.absNormal ||
			want.absNormalFail != got.absNormalFail || want.absInfNan != got.absInfNan || want.absInfNanFail != got.absInfNanFail {
			t.Fatalf("trial %d (n %d): got %+v, want %+v", trial, n, got, want)
		}
	}
}

// TestULPLoop64MatchesGeneric checks the two-lane float64 ULP loop against
// ulpLoop, bit for bit: sum, maximum (NaN flag), count over the threshold
// and the first values, with zeros, subnormals, powers of two and values
// just below them, infinities and NaNs, in both --compat modes, from a
// fresh and a used accumulator.
func TestULPLoop64MatchesGeneric(t *testing.T) { eachLoop64(t, testULPLoop64MatchesGeneric) }

func testULPLoop64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	special := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, math.Inf(1), math.NaN(), 1, 0.5, 4, math.Nextafter(2, 0), math.Nextafter(1, 0), 1e300, 3e38}
	for _, compat := range []bool{false, true} {
		for _, dev := range []tensor.DType{tensor.Float32, tensor.BFloat16, tensor.Float16} {
			p := newPlan(tensor.Float64, dev, compat)
			if p.ulpF32 {
				t.Fatalf("%s: a float64 bench computes in float32", dev)
			}
			for trial := range 150 {
				n := r.IntN(80) + 1
				b, d := make([]float64, n), make([]float64, n)
				for i := range b {
					b[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20))
					if r.IntN(10) == 0 {
						b[i] = special[r.IntN(len(special))]
					}
					d[i] = float64(float32(b[i] * (1 + 1e-6*r.NormFloat64())))
					if r.IntN(25) == 0 {
						d[i] = special[r.IntN(len(special))]
					}
					if r.IntN(50) == 0 { // a zero bench against a non-zero value: the zero's power
						b[i], d[i] = 0, 1e-30*r.NormFloat64()
					}
				}
				var want, got accum
				for range 2 {
					ulpLoop(p, b, d, &want)
					ulpLoop64(p, b, d, &got)
					same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
					// with the NaN flag set the maximum is NaN whatever ulpMax holds
					if !same(want.ulpSum, got.ulpSum) || want.ulpNaN != got.ulpNaN || !want.ulpNaN && !same(want.ulpMax, got.ulpMax) ||
						want.ulpOver != got.ulpOver || want.ulpCnt != got.ulpCnt || !slices.EqualFunc(want.ulpFirst[:], got.ulpFirst[:], same) {
						t.Fatalf("compat %v %s trial %d (n %d): got sum %v max %v nan %v over %d cnt %d first %v, want %v %v %v %d %d %v",
							compat, dev, trial, n, got.ulpSum, got.ulpMax, got.ulpNaN, got.ulpOver, got.ulpCnt, got.ulpFirst,
							want.ulpSum, want.ulpMax, want.ulpNaN, want.ulpOver, want.ulpCnt, want.ulpFirst)
					}
				}
			}
		}
	}
}

// eachLoop64 runs test on every path of the float64 loops this machine
// has: Go alone, the four-lane AVX2 loops, and the eight-lane AVX-512
// loops followed by the four-lane ones.
func eachLoop64(t *testing.T, test func(t *testing.T)) {
	quads, octs := quadsAVX2, octsAVX512
	defer func() { quadsAVX2, octsAVX512 = quads, octs }()
	for _, path := range []struct {
		name        string
		quads, octs bool
	}{{"go", false, false}, {"avx2", true, false}, {"avx512", true, true}} {
		if path.quads && !quads || path.octs && !octs {
			t.Logf("%s: not on this machine", path.name)
			continue
		}
		quadsAVX2, octsAVX512 = path.quads, path.octs
		t.Run(path.name, test)
	}
}

// TestLegacyBench64MatchesGeneric checks the fused legacy and benchmark
// loop (legacyBench64, as chunkOf runs it) against benchInDev, legacyLoop
// and benchmarkLoop, bit for bit: sums, counts, maxima and the e, r and
// bench_in_dev arrays, over lengths, specials and small values, from an
// accumulator before and past the first seqMax normal elements.
func TestLegacyBench64MatchesGeneric(t *testing.T) { eachLoop64(t, testLegacyBench64MatchesGeneric) }

func testLegacyBench64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -1.7e308, 3e38, 1e-7, 1e-45}
	p := newPlan(tensor.Float64, tensor.Float32, false)
	fused := 0
	for trial := range 300 {
		n := r.IntN(blockLen) + 1
		clean := trial%4 == 1 // no specials: finite sums, whose bits the order decides
		b, d := make([]float64, n), make([]float64, n)
		for i := range b {
			switch r.IntN(10) {
			case 0:
				b[i] = r.NormFloat64() * 1e-7 // small values
			case 1:
				if !clean {
					b[i] = special[r.IntN(len(special))]
					break
				}
				fallthrough
			default:
				b[i] = r.NormFloat64()
			}
			d[i] = float64(float32(b[i] * (1 + 0.006*r.NormFloat64())))
			if !clean && r.IntN(20) == 0 {
				d[i] = special[r.IntN(len(special))]
			}
			if r.IntN(40) == 0 { // a small value's error at atol: not above it
				b[i], d[i] = 0, p.atolBench
			}
		}
		for _, cast := range []bool{false, true} {
			want, got := accum{reMax: -1}, accum{reMax: -1}
			if trial%3 != 0 {
				want.reCnt, got.reCnt = seqMax, seqMax // past the short sums' elements
			}
			var we, wr, wbd, ge, gr, gbd [blockLen]float64
			for range 2 {
				wb, gb := b, b
				if cast {
					p.benchInDev(b, wbd[:n])
					wb, gb = wbd[:n], gbd[:n]
				}
				legacyLoop(b, d, we[:n], wr[:n], p.eps, &want)
				benchmarkLoop(p, b, wb, d, we[:n], wr[:n], &want)
				if legacyBench64(p, b, d, gb, ge[:n], gr[:n], p.eps, cast, &got) {
					fused++
				} else {
					legacy64(b, d, gb, ge[:n], gr[:n], p.eps, cast, &got)
					benchmarkLoop64(p, b, gb, d, ge[:n], gr[:n], &got)
				}
			}
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
			if !same(want.dot, got.dot) || !same(want.nn, got.nn) || !same(want.gg, got.gg) ||
				want.lt2 != got.lt2 || want.lt3 != got.lt3 || want.lt4 != got.lt4 || want.lt3bf != got.lt3bf || want.maeNaN != got.maeNaN ||
				!want.maeNaN && !same(want.mae, got.mae) ||
				!same(want.sq, got.sq) || !same(want.reSum, got.reSum) || want.reMax != got.reMax || want.pos != got.pos || want.neg != got.neg ||
				want.masked != got.masked || want.small != got.small || want.smallErr != got.smallErr || want.reCnt != got.reCnt ||
				want.reFirst != got.reFirst || want.sqFirst != got.sqFirst {
				t.Fatalf("trial %d cast %v (n %d): got %+v, want %+v", trial, cast, n, got, want)
			}
			if clean && !(finite(want.dot) && finite(want.sq) && finite(want.reSum)) {
				t.Fatalf("trial %d: a clean trial has sums %v, %v, %v", trial, want.dot, want.sq, want.reSum)
			}
			for i := range n {
				if !same(we[i], ge[i]) || !same(wr[i], gr[i]) || cast && !same(wbd[i], gbd[i]) {
					t.Fatalf("trial %d element %d: e, r, bd = %v, %v, %v, want %v, %v, %v", trial, i, ge[i], gr[i], gbd[i], we[i], wr[i], wbd[i])
				}
			}
		}
	}
	if octsAVX512 && fused == 0 {
		t.Fatal("the fused loop never ran")
	}
}

// TestLegacyULP64MatchesGeneric checks the fused legacy and ULP loop
// (legacyULP64, as chunkOf runs it) against benchInDev, legacyLoop and
// ulpLoop, bit for bit: the legacy sums and counts, the ULP sum, maximum
// (NaN flag), count and first values, and the e, r and bench_in_dev
// arrays, with zeros, subnormals, powers of two and values just below
// them, infinities and NaNs, in both --compat modes.
func TestLegacyULP64MatchesGeneric(t *testing.T) { eachLoop64(t, testLegacyULP64MatchesGeneric) }

func testLegacyULP64MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	special := []float64{0, math.Copysign(0, -1), 5e-324, 1e-310, math.Inf(1), math.NaN(), 1, 0.5, 4, math.Nextafter(2, 0), math.Nextafter(1, 0), 1e300, 3e38}
	fused := 0
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y }
	for _, compat := range []bool{false, true} {
		for _, dev := range []tensor.DType{tensor.Float32, tensor.BFloat16} {
			p := newPlan(tensor.Float64, dev, compat)
			for trial := range 120 {
				n := r.IntN(blockLen) + 1
				clean := trial%4 == 1 // no specials: finite sums, whose bits the order decides
				b, d := make([]float64, n), make([]float64, n)
				for i := range b {
					b[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20))
					if !clean && r.IntN(40) == 0 {
						b[i] = special[r.IntN(len(special))]
					}
					d[i] = float64(float32(b[i] * (1 + 1e-3*r.NormFloat64())))
					if !clean && r.IntN(60) == 0 {
						d[i] = special[r.IntN(len(special))]
					}
					if r.IntN(50) == 0 { // a zero bench against a non-zero value: the zero's power
						b[i], d[i] = 0, 1e-30*r.NormFloat64()
					}
				}
				cast := trial%2 == 0
				want, got := accum{}, accum{}
				if trial%3 != 0 {
					want.ulpCnt, got.ulpCnt = seqMax, seqMax // past the short sums' elements
				}
				var we, wr, wbd, ge, gr, gbd [blockLen]float64
				for range 2 {
					gb := b
					if cast {
						p.benchInDev(b, wbd[:n])
						gb = gbd[:n]
					}
					legacyLoop(b, d, we[:n], wr[:n], p.eps, &want)
					ulpLoop(p, b, d, &want)
					if legacyULP64(p, b, d, gb, ge[:n], gr[:n], p.eps, cast, &got) {
						fused++
					} else {
						legacy64(b, d, gb, ge[:n], gr[:n], p.eps, cast, &got)
						ulpLoop64(p, b, d, &got)
					}
				}
				if !same(want.dot, got.dot) || !same(want.nn, got.nn) || !same(want.gg, got.gg) ||
					want.lt2 != got.lt2 || want.lt3 != got.lt3 || want.lt4 != got.lt4 || want.lt3bf != got.lt3bf || want.maeNaN != got.maeNaN ||
					!want.maeNaN && !same(want.mae, got.mae) ||
					!same(want.ulpSum, got.ulpSum) || want.ulpNaN != got.ulpNaN || !want.ulpNaN && !same(want.ulpMax, got.ulpMax) ||
					want.ulpOver != got.ulpOver || want.ulpCnt != got.ulpCnt || !slices.EqualFunc(want.ulpFirst[:], got.ulpFirst[:], same) {
					t.Fatalf("compat %v %s trial %d (n %d): got %+v, want %+v", compat, dev, trial, n, got, want)
				}
				if clean && !(finite(want.dot) && finite(want.ulpSum)) {
					t.Fatalf("trial %d: a clean trial has sums %v, %v", trial, want.dot, want.ulpSum)
				}
				for i := range n {
					if !same(we[i], ge[i]) || !same(wr[i], gr[i]) || cast && !same(wbd[i], gbd[i]) {
						t.Fatalf("trial %d element %d: e, r, bd = %v, %v, %v, want %v, %v, %v", trial, i, ge[i], gr[i], gbd[i], we[i], wr[i], wbd[i])
					}
				}
			}
		}
	}
	if octsAVX512 && fused == 0 {
		t.Fatal("the fused loop never ran")
	}
}
