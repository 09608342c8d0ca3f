package floatconv

import "math"

// BFloat16 is the bfloat16 bit pattern nearest v, ties to even, rounded
// once from float64 (tensor.BFloat16Bits): NaN keeps its sign as the quiet
// NaN 0x7fc0, values from 2^128 up (after rounding) become infinities.
func BFloat16(v float64) uint16 {
	if b := math.Float64bits(v); b>>52&0x7ff >= 1023-126 && b>>52&0x7ff < 0x7ff {
		// Normal range: round the significand to 7 bits, ties to even, in
		// the bits; the float32 conversion is then exact (or overflows to
		// Inf from 2^128 up, as it must).
		b += 1<<44 - 1 + b>>45&1
		b &^= 1<<45 - 1
		return uint16(math.Float32bits(float32(math.Float64frombits(b))) >> 16)
	}
	if math.IsNaN(v) {
		return uint16(math.Float64bits(v)>>48)&0x8000 | 0x7fc0
	}
	// Round to 8 significant bits in float64 first (exact: float64 has room),
	// then the float32 conversion is exact for every finite in-range value.
	a := math.Abs(v)
	if a == 0 || math.IsInf(v, 0) {
		return uint16(math.Float32bits(float32(v)) >> 16)
	}
	e := math.Ilogb(a)
	if e < -126 {
		e = -126 // bf16 subnormals share float32's exponent range
	}
	q := math.Ldexp(math.RoundToEven(math.Ldexp(a, 7-e)), e-7)
	if q >= 0x1p128 {
		q = math.Inf(1)
	}
	if v < 0 {
		q = -q
	}
	return uint16(math.Float32bits(float32(q)) >> 16)
}

// ToBFloat16s sets dst[i] = BFloat16(src[i]) for every i < len(src); dst
// must be at least as long as src. Where the machine has AVX2, quads of
// values in the normal range round four at a time.
func ToBFloat16s(dst []uint16, src []float64) {
	n := len(src)
	dst = dst[:n]
	i := 0
	if useAVX2 && n >= 4 {
		for {
			i = toBFloat16sAVX2(&dst[0], &src[0], i, n)
			if i+3 >= n {
				break
			}
			for _, v := range src[i : i+4] { // a quad with a value outside the normal range
				dst[i] = BFloat16(v)
				i++
			}
		}
	}
	for ; i < n; i++ {
		dst[i] = BFloat16(src[i])
	}
}
