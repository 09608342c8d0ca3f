package standard

import "math"

// Float32 kernels: the hot loops of a pass whose arithmetic is float32
// (p.f32), specialised by hand. They compute exactly what the generic loops
// of pass.go compute, in the same order, with fewer instructions: absolute
// values and the max |d−b| work on the bit patterns (clearing the sign bit
// of a float32 is |x|; non-negative float32 values order like their bits,
// and a NaN with its sign cleared is above +Inf), the cosine sums run in
// the same loop as the errors, and e/r are stored only when a later loop
// reads them.

const (
	sign32 = 1 << 31
	exp32  = 0x7f800000 // exponent field: all ones for ±Inf and NaN
)

// abs32 is |x| (NaN stays NaN).
func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ sign32) }

// legacy32 is legacyLoop for float32 in one loop over pairs of elements:
// the cosine sums keep legacyLoop's two chains (even and odd elements),
// added to a at the end of the block. d, e and r must be at least as long
// as b. When store is set it leaves abs_err and rel_err_orig in e and r, as
// legacyLoop does; otherwise no later loop of the pass reads them.
func legacy32(b, d, e, r []float32, eps float32, store bool, a *accum) {
	n := len(b)
	d, e, r = d[:n], e[:n], r[:n]
	var dot0, nn0, gg0, dot1, nn1, gg1 float64
	// mae as the bit pattern of a non-negative float32 (see above): a NaN
	// error makes it exceed exp32.
	mb := math.Float32bits(float32(a.mae))
	c4, c3, c2, c3bf := 0, 0, 0, 0
	i := 1
	for ; i < n; i += 2 {
		b0, d0, b1, d1 := b[i-1], d[i-1], b[i], d[i]
		x0, y0, x1, y1 := float64(b0), float64(d0), float64(b1), float64(d1)
		dot0 += x0 * y0
		nn0 += y0 * y0
		gg0 += x0 * x0
		dot1 += x1 * y1
		nn1 += y1 * y1
		gg1 += x1 * x1
		eb0 := math.Float32bits(d0-b0) &^ sign32
		eb1 := math.Float32bits(d1-b1) &^ sign32
		ev0, ev1 := math.Float32frombits(eb0), math.Float32frombits(eb1)
		rv0 := ev0 / (abs32(b0) + eps)
		rv1 := ev1 / (abs32(b1) + eps)
		mb = max(mb, eb0, eb1)
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
		if store {
			e[i-1], r[i-1] = ev0, rv0
			e[i], r[i] = ev1, rv1
		}
	}
	if i--; i < n { // odd length: the last element, on chain 0
		b0, d0 := b[i], d[i]
		x0, y0 := float64(b0), float64(d0)
		dot0 += x0 * y0
		nn0 += y0 * y0
		gg0 += x0 * x0
		eb0 := math.Float32bits(d0-b0) &^ sign32
		ev0 := math.Float32frombits(eb0)
		rv0 := ev0 / (abs32(b0) + eps)
		mb = max(mb, eb0)
		if rv0 < TenThousandThreshold {
			c4++
		} else if rv0 < ThousandThreshold {
			c3++
		} else if rv0 < HundredThreshold {
			c2++
			c3bf += b2i(rv0 < BF16ThousandThreshold)
		}
		if store {
			e[i], r[i] = ev0, rv0
		}
	}
	a.dot += dot0 + dot1
	a.nn += nn0 + nn1
	a.gg += gg0 + gg1
	if mb > exp32 {
		// a NaN error: MaxAbsErr is NaN whatever a.mae holds
		a.maeNaN = true
	} else {
		a.mae = float64(math.Float32frombits(mb))
	}
	a.lt4 += c4
	a.lt3 += c4 + c3
	a.lt2 += c4 + c3 + c2
	a.lt3bf += c4 + c3 + c3bf
}
