// Package floatconv converts between float64 and the narrower float types
// in bulk: the conversions every float64 bench input, every bench output
// sent back at the device dtype and every metric pass over a float32
// output go through. On amd64 with AVX2 the loops run eight elements at a
// time; the values are those of Go's conversions, bit for bit (widening is
// exact; narrowing rounds to nearest even, as Go's float32(x) does).
package floatconv

import "math"

// FromFloat32s sets dst[i] = float64(src[i]) for every i < len(src); dst must
// be at least as long as src.
func FromFloat32s(dst []float64, src []float32) {
	convert(dst, src, float32sAVX2, func(v float32) float64 { return float64(v) })
}

// FromBFloat16s sets dst[i] to the value of the bfloat16 bit pattern src[i]
// for every i < len(src); dst must be at least as long as src.
func FromBFloat16s(dst []float64, src []uint16) {
	convert(dst, src, bfloat16sAVX2, func(v uint16) float64 { return float64(math.Float32frombits(uint32(v) << 16)) })
}

// FromHF32s sets dst[i] to the value of the float32 bit pattern src[i]
// rounded to HF32 (Ascend's 1+8+11-bit float32 mode) the way msprobe
// emulates it, (p + 0x800) & 0xFFFFF000, for every i < len(src); dst must be
// at least as long as src. It is RoundHF32 and the widening in one pass.
func FromHF32s(dst []float64, src []uint32) {
	convert(dst, src, hf32sAVX2, func(v uint32) float64 { return float64(math.Float32frombits((v + 0x800) & 0xFFFFF000)) })
}

// ToFloat32s sets dst[i] = float32(src[i]) for every i < len(src); dst must
// be at least as long as src.
func ToFloat32s(dst []float32, src []float64) {
	convert(dst, src, toFloat32sAVX2, func(v float64) float32 { return float32(v) })
}

// convert runs the eight-wide loop vec over the first len(src) &^ 7
// elements where the machine has AVX2, and one on the others.
func convert[S, D any](dst []D, src []S, vec func(dst *D, src *S, n int), one func(S) D) {
	dst = dst[:len(src)]
	i := 0
	if useAVX2 && len(src) >= 8 {
		i = len(src) &^ 7
		vec(&dst[0], &src[0], i)
	}
	for ; i < len(src); i++ {
		dst[i] = one(src[i])
	}
}
