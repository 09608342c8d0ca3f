package standard

// legacy64Go is legacyLoop for float64 arithmetic (a float64 bench against a
// float32 or bfloat16 device, the pair of every run) in one loop instead
// of two, with the bench cast to float32 (bench_in_dev, benchInDev) in the
// same loop when castBench is set: one pass over the block instead of
// three. The sums keep legacyLoop's two chains (even and odd elements,
// the odd element of an odd length on chain 0), so every figure is
// legacyLoop's, bit for bit (TestLegacy64MatchesGeneric). legacy64 is this
// loop, in two-lane assembly where the machine has AVX.
func legacy64Go(b, d, bd, e, r []float64, eps float64, castBench bool, a *accum) {
	n := len(b)
	d, bd, e, r = d[:n], bd[:n], e[:n], r[:n]
	var dot0, nn0, gg0, dot1, nn1, gg1 float64
	mae, maeNaN := a.mae, a.maeNaN
	c4, c3, c2, c3bf := 0, 0, 0, 0
	i := 1
	for ; i < n; i += 2 {
		b0, d0, b1, d1 := b[i-1], d[i-1], b[i], d[i]
		dot0 += b0 * d0
		nn0 += d0 * d0
		gg0 += b0 * b0
		dot1 += b1 * d1
		nn1 += d1 * d1
		gg1 += b1 * b1
		if castBench {
			bd[i-1], bd[i] = float64(float32(b0)), float64(float32(b1))
		}
		ev0, ev1 := abs(d0-b0), abs(d1-b1)
		rv0, rv1 := ev0/(abs(b0)+eps), ev1/(abs(b1)+eps)
		e[i-1], r[i-1], e[i], r[i] = ev0, rv0, ev1, rv1
		if !(ev0 <= mae && ev1 <= mae) { // rare: a new maximum or a NaN
			mae, maeNaN = maxErr(mae, maeNaN, ev0)
			mae, maeNaN = maxErr(mae, maeNaN, ev1)
		}
		// buckets: < 1e-4, [1e-4, 1e-3), [1e-3, 1e-2); one compare in
		// the common case
		if rv0 < TenThousandThreshold {
			c4++
		} else if rv0 < ThousandThreshold {
			c3++
		} else if rv0 < HundredThreshold {
			c2++
			c3bf += b2i(rv0 < BF16ThousandThreshold)
		}
		if rv1 < TenThousandThreshold {
			c4++
		} else if rv1 < ThousandThreshold {
			c3++
		} else if rv1 < HundredThreshold {
			c2++
			c3bf += b2i(rv1 < BF16ThousandThreshold)
		}
	}
	if i--; i < n { // odd length: the last element, on chain 0
		b0, d0 := b[i], d[i]
		dot0 += b0 * d0
		nn0 += d0 * d0
		gg0 += b0 * b0
		if castBench {
			bd[i] = float64(float32(b0))
		}
		ev := abs(d0 - b0)
		rv := ev / (abs(b0) + eps)
		e[i], r[i] = ev, rv
		mae, maeNaN = maxErr(mae, maeNaN, ev)
		if rv < TenThousandThreshold {
			c4++
		} else if rv < ThousandThreshold {
			c3++
		} else if rv < HundredThreshold {
			c2++
			c3bf += b2i(rv < BF16ThousandThreshold)
		}
	}
	a.dot += dot0 + dot1
	a.nn += nn0 + nn1
	a.gg += gg0 + gg1
	a.mae, a.maeNaN = mae, maeNaN
	a.lt4 += c4
	a.lt3 += c4 + c3
	a.lt2 += c4 + c3 + c2
	a.lt3bf += c4 + c3 + c3bf
}

// maxErr is legacyLoop's running max of |d−b|: a NaN error leaves the
// maximum and sets the flag.
func maxErr(mae float64, maeNaN bool, ev float64) (float64, bool) {
	if !(ev <= mae) {
		if ev > mae {
			mae = ev
		} else {
			maeNaN = true
		}
	}
	return mae, maeNaN
}
