package cpu

import "math"

// expBlock is the length of the stack buffers the kernels run expInto
// over when they have no row of their own to use.
const expBlock = 512

// expInto sets dst[i] = math.Exp(src[i]) for every i, bit for bit the
// value math.Exp returns on this machine, four lanes at a time where the
// CPU allows (vexp_amd64.s) and one element at a time elsewhere. dst and
// src must have the same length; they may be the same slice.
func expInto(dst, src []float64) {
	if len(dst) != len(src) {
		panic("cpu: expInto: dst and src lengths differ")
	}
	n := expVec(dst, src)
	if n == len(src) {
		return
	}
	if vexpOK {
		// The tail (fewer than four) through the vector kernel too: a
		// padded block costs less than three scalar calls.
		var buf [4]float64
		copy(buf[:], src[n:])
		expVec(buf[:], buf[:])
		copy(dst[n:], buf[:])
		return
	}
	for i := n; i < len(src); i++ {
		dst[i] = math.Exp(src[i])
	}
}
