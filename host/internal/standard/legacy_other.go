//go:build !amd64

package standard

// legacy64 is legacy64Go where there is no assembly version.
func legacy64(b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) {
	legacy64Go(b, d, bd, e, r, eps, castBench, a)
}

// benchmarkLoop64 is benchmarkLoop where there is no assembly version.
func benchmarkLoop64(p *plan, b, bd, d, e, r []float64, a *accum) {
	benchmarkLoop(p, b, bd, d, e, r, a)
}

// absoluteLoop64 is absoluteLoop where there is no assembly version.
func absoluteLoop64(p *plan, b, bd, d, e, r []float64, a *accum) {
	absoluteLoop(p, b, bd, d, e, r, a)
}

// ulpLoop64 is ulpLoop where there is no assembly version.
func ulpLoop64(p *plan, b, d []float64, a *accum) {
	ulpLoop(p, b, d, a)
}

// legacyBench64 reports that there is no fused loop here.
func legacyBench64(p *plan, b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) bool {
	return false
}

// legacyULP64 reports that there is no fused loop here.
func legacyULP64(p *plan, b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) bool {
	return false
}
