package cpu

import "golang.org/x/sys/cpu"

// gemmHasFMA reports whether the AVX2/FMA micro-kernel can run here.
var gemmHasFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// gemmKernel6x8 is the AVX2/FMA micro-kernel (gemm_amd64.s): the tile
// c[i*ldc+j], i < 6, j < 8, gets Σ_l a[l*6+i]·b[l*8+j] added.
//
//go:noescape
func gemmKernel6x8(kc int, a, b, c *float64, ldc int)

func gemmKernelFMA(kc int, a, b, c []float64, ldc int) {
	if kc == 0 {
		return
	}
	_ = a[kc*gemmMR-1]
	_ = b[kc*gemmNR-1]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	gemmKernel6x8(kc, &a[0], &b[0], &c[0], ldc)
}
