package cpu

// sgemmKernel6x16 is the float32 AVX2/FMA micro-kernel (sgemm_amd64.s):
// the tile c[i*ldc+j], i < 6, j < 16, gets Σ_l a[l*6+i]·b[l*16+j] added,
// each product fused into a float32 running sum.
//
//go:noescape
func sgemmKernel6x16(kc int, a, b, c *float32, ldc int)

func sgemmKernelFMA(kc int, a, b, c []float32, ldc int) {
	if kc == 0 {
		return
	}
	_ = a[kc*sgemmMR-1]
	_ = b[kc*sgemmNR-1]
	_ = c[(sgemmMR-1)*ldc+sgemmNR-1]
	sgemmKernel6x16(kc, &a[0], &b[0], &c[0], ldc)
}
