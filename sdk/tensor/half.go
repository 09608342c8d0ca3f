package tensor

import (
	"math"
	"sync"

	"github.com/probe-dev/probe/internal/floatconv"
)

// Float16Bits converts v to IEEE 754 binary16 with round-to-nearest-even,
// directly from float64 (no double rounding through float32). Values beyond
// the largest finite half round to ±Inf; NaN stays a quiet NaN.
func Float16Bits(v float64) uint16 {
	b := math.Float64bits(v)
	sign := uint16(b>>48) & 0x8000
	if e := int(b>>52&0x7ff) - 1023; e >= -14 && e <= 15 {
		// Normal range: round the 52-bit significand to 10 bits, ties to
		// even, in the bits (a carry moves into the exponent).
		r := b&(1<<63-1) + 1<<41 - 1 + b>>42&1
		if r >= 0x40f0000000000000 { // rounded to 2^16: Inf
			return sign | 0x7c00
		}
		return sign | uint16((int(r>>52)-1023+15)<<10) | uint16(r>>42&0x3ff)
	}
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

// Float16Value returns the exact value of a binary16 bit pattern.
func Float16Value(h uint16) float64 {
	if e := uint64(h>>10) & 0x1f; e != 0 && e != 31 {
		return math.Float64frombits(uint64(h&0x8000)<<48 | (e-15+1023)<<52 | uint64(h&0x3ff)<<42)
	}
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

var (
	f16Once sync.Once
	f16Tab  *[1 << 16]float64
)

// float16Table holds Float16Value of every bit pattern (512 KiB, built on
// first use).
func float16Table() *[1 << 16]float64 {
	f16Once.Do(func() {
		f16Tab = new([1 << 16]float64)
		for h := range f16Tab {
			f16Tab[h] = Float16Value(uint16(h))
		}
	})
	return f16Tab
}

// BFloat16Bits converts v to bfloat16 with round-to-nearest-even, directly
// from float64.
func BFloat16Bits(v float64) uint16 { return floatconv.BFloat16(v) }

// BFloat16Value returns the exact value of a bfloat16 bit pattern.
func BFloat16Value(h uint16) float64 {
	return float64(math.Float32frombits(uint32(h) << 16))
}

// Round returns v rounded to the nearest value representable in d (ties to
// even for floats; truncation toward zero for integers, as a C cast; v != 0
// for bool). Integer results wrap like a C cast of an in-range value; out of
// range values are clamped to the type's limits.
func Round(d DType, v float64) float64 {
	switch d {
	case Float64:
		return v
	case Float32:
		return float64(float32(v))
	case Float16:
		return Float16Value(Float16Bits(v))
	case BFloat16:
		return BFloat16Value(BFloat16Bits(v))
	case Bool:
		if v != 0 {
			return 1
		}
		return 0
	}
	if math.IsNaN(v) {
		return 0
	}
	t := math.Trunc(v)
	lo, hi := intRange(d)
	return math.Max(lo, math.Min(hi, t))
}

func intRange(d DType) (float64, float64) {
	switch d {
	case Int8:
		return math.MinInt8, math.MaxInt8
	case Int16:
		return math.MinInt16, math.MaxInt16
	case Int32:
		return math.MinInt32, math.MaxInt32
	case Uint8:
		return 0, math.MaxUint8
	}
	return math.MinInt64, math.MaxInt64
}

// Eps returns the machine epsilon of a float dtype (distance from 1 to the
// next representable value), or 0 for non-float types.
func Eps(d DType) float64 {
	switch d {
	case Float64:
		return 0x1p-52
	case Float32:
		return 0x1p-23
	case Float16:
		return 0x1p-10
	case BFloat16:
		return 0x1p-7
	}
	return 0
}

// MinNormal is the smallest positive normal value of a float dtype
// (float64's for other dtypes).
func MinNormal(d DType) float64 {
	switch d {
	case Float16:
		return 0x1p-14
	case Float32, BFloat16:
		return 0x1p-126
	}
	return 0x1p-1022
}

// ULP returns the unit in the last place of x in float dtype d: the gap
// between |x| and the next larger representable magnitude. Zero and
// subnormals get the subnormal spacing, infinities and NaN the spacing of
// the smallest normal. It is 0 for a non-float dtype.
func ULP(d DType, x float64) float64 {
	eps := Eps(d)
	if eps == 0 {
		return 0
	}
	ax := math.Abs(x)
	if ax < MinNormal(d) || math.IsNaN(ax) || math.IsInf(ax, 0) {
		return MinNormal(d) * eps
	}
	_, e := math.Frexp(ax) // ax = f * 2^e, f in [0.5, 1)
	return math.Ldexp(eps, e-1)
}
