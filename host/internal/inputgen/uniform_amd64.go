package inputgen

import (
	"math"
	"unsafe"

	"github.com/probe-dev/probe/sdk/tensor"
	"golang.org/x/sys/cpu"
)

// fillConsts are fillF32AVX2's bounds, each in four lanes.
type fillConsts [7][4]float64

//go:noescape
func fillF32AVX2(dst *float32, u *float64, n int, c *fillConsts)

//go:noescape
func lerpAVX2(u *float64, n int, c *fillConsts)

// uniformAVX2 says whether the float32 stores and the lerp run in AVX2.
var uniformAVX2 = cpu.X86.HasAVX2

// finiteBounds says whether the assembly may compute lowS + u·d: no NaN and
// no infinity in it, so Go's min and max reduce to compares.
func finiteBounds(lowS, highS, d float64) bool {
	return !math.IsNaN(lowS) && !math.IsNaN(highS) && !math.IsInf(lowS, 0) && !math.IsInf(highS, 0) && !math.IsInf(d, 0)
}

// lerpClamped is lerpGo, four elements at a time in AVX2 when the bounds allow.
func lerpClamped(u []float64, lowS, highS, d float64) {
	if n := len(u); uniformAVX2 && n >= 4 && finiteBounds(lowS, highS, d) {
		c := fillConsts{{lowS, lowS, lowS, lowS}, {d, d, d, d}, {highS, highS, highS, highS}}
		m := n &^ 3
		lerpAVX2(&u[0], m, &c)
		u = u[m:]
	}
	lerpGo(u, lowS, highS, d)
}

// storeF32 is storeF32Go, four elements at a time in AVX2 when the bounds
// allow.
func storeF32(f []float32, u []float64, lowS, highS, d, lo, hi float64) {
	n := len(u)
	if uniformAVX2 && n >= 4 && finiteBounds(lowS, highS, d) {
		c := fillConsts{}
		for i, v := range []float64{lowS, d, highS, lo, hi, float64(float32(lo)), float64(float32(hi))} {
			c[i] = [4]float64{v, v, v, v}
		}
		m := n &^ 3
		fillF32AVX2(&f[0], &u[0], m, &c)
		f, u = f[m:], u[m:]
	}
	storeF32Go(f, u, lowS, highS, d, lo, hi)
}

// bf16Consts are storeBF16AVX2's constants, each in eight 32-bit lanes.
type bf16Consts [7][8]uint32

//go:noescape
func storeBF16AVX2(dst *uint16, u *float64, n int, c *bf16Consts)

// storeBF16 stores the first len(u) &^ 7 values of u as storeClamped's
// bfloat16 loop does, in AVX2, and returns how many it stored: none where
// the machine lacks AVX2, dst is not aligned for uint16, or a bound is not
// a float32 value (the loop compares in float32).
func storeBF16(dst []byte, u []float64, lo, hi float64) int {
	n := len(u) &^ 7
	if !uniformAVX2 || n == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%2 != 0 || !nativeLittleEndian ||
		float64(float32(lo)) != lo || float64(float32(hi)) != hi {
		return 0
	}
	dst = dst[:2*n]
	var c bf16Consts
	for i, v := range []uint32{math.Float32bits(float32(lo)), math.Float32bits(float32(hi)),
		uint32(tensor.BFloat16Bits(lo)), uint32(tensor.BFloat16Bits(hi)), 0x7fff, 1, 0x7fc0} {
		for j := range c[i] {
			c[i][j] = v
		}
	}
	storeBF16AVX2((*uint16)(unsafe.Pointer(unsafe.SliceData(dst))), &u[0], n, &c)
	return n
}
