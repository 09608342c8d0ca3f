package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFloat16ValueMatchesReference checks every bit pattern.
func TestFloat16ValueMatchesReference(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		got, want := Float16Value(uint16(h)), float16ValueRef(uint16(h))
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Float16Value(%#x) = %v, reference %v", h, got, want)
		}
	}
}

// TestFastRoundingMatchesReference compares Float16Bits and BFloat16Bits
// (rounding in the float64 bits) with the arithmetic versions they
// replaced (kept below): random values over every exponent either format
// reaches and beyond, exact ties and their neighbours, both signs.
func TestFastRoundingMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	check := func(v float64) {
		if got, want := Float16Bits(v), float16BitsRef(v); got != want {
			t.Fatalf("Float16Bits(%v [%#x]) = %#x, reference %#x", v, math.Float64bits(v), got, want)
		}
		if got, want := BFloat16Bits(v), bfloat16BitsRef(v); got != want {
			t.Fatalf("BFloat16Bits(%v [%#x]) = %#x, reference %#x", v, math.Float64bits(v), got, want)
		}
	}
	for _, v := range []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 65504, 65519.99, 65520, 65536, 0x1p-14, 0x1p-24, 0x1p-25, 0x1p-126, 0x1p-133, 0x1p-134, 0x1p127, 0x1p128, math.MaxFloat32, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		check(v)
		check(-v)
	}
	for i := 0; i < 2_000_000; i++ {
		e := r.IntN(300) - 160
		v := math.Ldexp(1+r.Float64(), e)
		switch i % 4 {
		case 1: // a tie or a neighbour of one for bfloat16 (7 bits kept)
			b := math.Float64bits(v)&^(1<<45-1) | 1<<44
			v = math.Float64frombits(b + uint64(r.IntN(3)) - 1)
		case 2: // the same for float16 (10 bits kept)
			b := math.Float64bits(v)&^(1<<42-1) | 1<<41
			v = math.Float64frombits(b + uint64(r.IntN(3)) - 1)
		case 3:
			v = math.Float64frombits(r.Uint64())
		}
		if r.IntN(2) == 0 {
			v = -v
		}
		check(v)
	}
}

func float16BitsRef(v float64) uint16 {
	b := math.Float64bits(v)
	sign := uint16(b>>48) & 0x8000
	if math.IsNaN(v) {
		return sign | 0x7e00
	}
	a := math.Abs(v)
	if math.IsInf(v, 0) || a >= 65520 { // 65520 is the halfway point to 2^16: rounds to Inf
		return sign | 0x7c00
	}
	if a < 0x1p-14 { // subnormal range: quantum 2^-24
		q := math.RoundToEven(a * 0x1p24)
		return sign | uint16(q) // q == 1024 yields the smallest normal, which is correct
	}
	e := math.Ilogb(a) // -14..15
	m := math.RoundToEven((a/math.Ldexp(1, e) - 1) * 1024)
	if m == 1024 {
		m = 0
		e++
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(m)
}

func bfloat16BitsRef(v float64) uint16 {
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

func float16ValueRef(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return sign * m * 0x1p-24
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * (1 + m/1024) * math.Ldexp(1, e-15)
}
