package cpu

import "golang.org/x/sys/cpu"

// vexpOK reports whether the AVX2/FMA exp kernel can run here. Go's
// math.Exp on amd64 uses its fused multiply-adds whenever the CPU has AVX
// and FMA, so with this guard both evaluate the same operations in the
// same order and round alike.
var vexpOK = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expAVX2 (vexp_amd64.s) sets dst[i] = math.Exp(src[i]) for i < n, n a
// multiple of 4.
//
//go:noescape
func expAVX2(dst, src *float64, n int)

// expVec computes the leading multiple of four elements of dst = exp(src)
// with the vector kernel and returns how many it did (0 without AVX2/FMA).
func expVec(dst, src []float64) int {
	n := len(src) &^ 3
	if !vexpOK || n == 0 {
		return 0
	}
	_ = dst[n-1]
	expAVX2(&dst[0], &src[0], n)
	return n
}
