package standard

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// BenchmarkKernels64 runs each float64 loop of a pass on one block that
// stays in L1: the loops' own cost, without the memory traffic of
// BenchmarkMetrics, on the four-lane and (where the machine has them) the
// eight-lane loops. Bytes/s count 8 bytes per element, as
// BenchmarkMetrics does (a float32 bench and a float32 device value).
func BenchmarkKernels64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var bb, dd, bd, e, rr [blockLen]float64
	for i := range bb {
		v := r.NormFloat64()
		if i%97 == 0 {
			v *= 1e-7
		}
		bb[i] = v
		dd[i] = float64(float32(v * (1 + 1e-7*r.NormFloat64())))
	}
	p := newPlan(tensor.Float64, tensor.Float32, false)
	var a accum
	legacy64(bb[:], dd[:], bd[:], e[:], rr[:], p.eps, true, &a)
	run := func(name string, f func()) {
		for _, wide := range []bool{false, true} {
			if wide && !octsAVX512 {
				continue
			}
			b.Run(fmt.Sprintf("%s/avx512=%v", name, wide), func(b *testing.B) {
				defer func(v bool) { octsAVX512 = v }(octsAVX512)
				octsAVX512 = wide
				b.SetBytes(8 * blockLen)
				for range b.N {
					f()
				}
			})
		}
	}
	run("legacy", func() {
		a = accum{}
		legacy64(bb[:], dd[:], bd[:], e[:], rr[:], p.eps, true, &a)
	})
	run("benchmark", func() {
		a = accum{reCnt: seqMax, reMax: -1}
		benchmarkLoop64(p, bb[:], bd[:], dd[:], e[:], rr[:], &a)
	})
	run("legacy+benchmark", func() { // as chunkOf runs them
		a = accum{reCnt: seqMax, reMax: -1}
		if !legacyBench64(p, bb[:], dd[:], bd[:], e[:], rr[:], p.eps, true, &a) {
			legacy64(bb[:], dd[:], bd[:], e[:], rr[:], p.eps, true, &a)
			benchmarkLoop64(p, bb[:], bd[:], dd[:], e[:], rr[:], &a)
		}
	})
	run("legacy+ulp", func() { // as chunkOf runs them
		a = accum{ulpCnt: seqMax}
		if !legacyULP64(p, bb[:], dd[:], bd[:], e[:], rr[:], p.eps, true, &a) {
			legacy64(bb[:], dd[:], bd[:], e[:], rr[:], p.eps, true, &a)
			ulpLoop64(p, bb[:], dd[:], &a)
		}
	})
	run("absolute", func() {
		a = accum{}
		absoluteLoop64(p, bb[:], bd[:], dd[:], e[:], rr[:], &a)
	})
	run("ulp", func() {
		a = accum{ulpCnt: seqMax}
		ulpLoop64(p, bb[:], dd[:], &a)
	})
}
