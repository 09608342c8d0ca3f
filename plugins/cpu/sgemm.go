package cpu

import (
	"unsafe"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Matrix products of the emulated device at float32, as PyTorch's CPU
// computes them: its BLAS (sgemm) sums the products in float32, each one
// fused into the running sum, so a float32 product carries float32
// rounding error (about √k units in the last place), not the float64
// product rounded once. sgemmAt runs the packed scheme of gemmPacked with
// a float32 6×16 micro-kernel; each element of C sums its k products in
// order, one k block (gemmKC) after another, whatever the core count.

const (
	sgemmMR = 6  // rows of a float32 micro-tile
	sgemmNR = 16 // columns: two AVX2 registers of eight float32
)

// nnGemmAt is nnGemm (C = op(A)·op(B), acc false) for operands of dtype
// dt: at float32, with AVX2/FMA and a product large enough to pack, in
// float32 arithmetic (operands hold float32 values); otherwise nnGemm's
// float64 product.
func nnGemmAt(dt tensor.DType, transA, transB bool, m, n, k int, a, b, c []float64) {
	if dt != tensor.Float32 || !gemmHasFMA || m*n*k < gemmMinWork {
		nnGemm(transA, transB, m, n, k, a, b, c, false)
		return
	}
	c32, c32b := float32sFor(m * n)
	defer scratchDone(c32b)
	clear(c32)
	ap, apb := float32sFor(gemmAPackLen(m, k))
	bp, bpb := float32sFor(gemmBPackLen(n, k, sgemmNR))
	defer scratchDone(apb)
	defer scratchDone(bpb)
	packedGemm(transA, transB, m, n, k, a, b, c32, ap, bp, sgemmMR, sgemmNR, sgemmKernelFMA)
	forChunks(m*n, func(from, to int) error {
		dst := c[from:to]
		for i, v := range c32[from:to] {
			dst[i] = float64(v)
		}
		return nil
	})
}

// float32sFor returns n float32s (not zeroed) for the current call, and
// the buffer to give to scratchDone.
func float32sFor(n int) ([]float32, []float64) {
	b := float64sFor((n + 1) / 2)
	if n == 0 {
		return []float32{}, b
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n), b
}
