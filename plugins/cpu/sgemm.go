package cpu

import (
	"runtime"
	"unsafe"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Matrix products of the emulated device at float32, as PyTorch's CPU
// computes them: its BLAS (sgemm) sums the products in float32, each one
// fused into the running sum, so a float32 product carries float32
// rounding error (about √k units in the last place), not the float64
// product rounded once. nnGemmAt runs the packed scheme of gemmPacked with
// a float32 6×16 micro-kernel; each element of C sums its k products in
// order, one k block (gemmKC) after another, whatever the core count.
// linear, mm, bmm, matmul, addmm and convolution use it in Emulated mode
// (call.gemmDT); sums over several products (a convolution's weight
// gradient over the images, a broadcast operand's gradient over the
// batches) stay in float32 too (gemmSum).

const (
	sgemmMR = 6  // rows of a float32 micro-tile
	sgemmNR = 16 // columns: two AVX2 registers of eight float32
)

// gemmDT is the dtype c's product of operands a and b is formed at
// (nnGemmAt, gemmSum): float32 in Emulated mode when both are float32, as
// PyTorch's CPU sums them (BLAS sgemm, oneDNN's convolutions, its naive
// loops at opmath float), else float64. The bench forms every product in
// float64 even where a bench policy sends it float32 operands.
func (c *call) gemmDT(a, b *array) tensor.DType {
	if c.emulated && a.dtype == tensor.Float32 && b.dtype == tensor.Float32 {
		return tensor.Float32
	}
	return tensor.Float64
}

// sgemmFor reports whether nnGemmAt forms an m×k by k×n product of
// operands of dtype dt in float32: at float32, with AVX2/FMA and a
// product large enough to pack.
func sgemmFor(dt tensor.DType, m, n, k int) bool {
	return dt == tensor.Float32 && gemmHasFMA && m*n*k >= gemmMinWork
}

// nnGemmAt is nnGemm (C = op(A)·op(B), acc false) for operands of dtype
// dt: where sgemmFor, in float32 arithmetic (operands hold float32
// values); otherwise nnGemm's float64 product.
func nnGemmAt(dt tensor.DType, transA, transB bool, m, n, k int, a, b, c []float64) {
	if !sgemmFor(dt, m, n, k) {
		nnGemm(transA, transB, m, n, k, a, b, c, false)
		return
	}
	c32, c32b := float32sFor(m * n)
	defer scratchDone(c32b)
	clear(c32)
	sgemmPacked(transA, transB, m, n, k, a, b, c32)
	forChunks(m*n, func(from, to int) error {
		dst := c[from:to]
		for i, v := range c32[from:to] {
			dst[i] = float64(v)
		}
		return nil
	})
}

// gemmSum adds several products of one size into C, as nnGemm with acc
// true does, at the products' dtype: where sgemmFor, C is held in float32
// while the products are added (each one's k blocks summed in float32 and
// added to C in float32, as BLAS sgemm with beta = 1 does), and rounded
// back into the float64 C by done; otherwise every product is added to C
// in float64.
type gemmSum struct {
	c         []float64
	c32       []float32
	buf       []float64 // c32's memory, for scratchDone
	mul       [3]int    // m, n, k of every product
	inFloat32 bool
}

// newGemmSum starts sums of m×k by k×n products of operands of dtype dt
// into c (its current values included).
func newGemmSum(dt tensor.DType, c []float64, m, n, k int) *gemmSum {
	s := &gemmSum{c: c, mul: [3]int{m, n, k}, inFloat32: sgemmFor(dt, m, n, k)}
	if s.inFloat32 {
		s.c32, s.buf = float32sFor(len(c))
		forChunks(len(c), func(from, to int) error {
			for i, v := range c[from:to] {
				s.c32[from+i] = float32(v)
			}
			return nil
		})
	}
	return s
}

// add adds op(A)·op(B) to C[off:off+m·n].
func (s *gemmSum) add(transA, transB bool, a, b []float64, off int) {
	m, n, k := s.mul[0], s.mul[1], s.mul[2]
	if !s.inFloat32 {
		nnGemm(transA, transB, m, n, k, a, b, s.c[off:], true)
		return
	}
	if m == 0 || n == 0 || k == 0 {
		return
	}
	sgemmPacked(transA, transB, m, n, k, a, b, s.c32[off:off+m*n])
}

// done writes the float32 sums into C and gives their memory back.
func (s *gemmSum) done() {
	if !s.inFloat32 {
		return
	}
	forChunks(len(s.c), func(from, to int) error {
		for i, v := range s.c32[from:to] {
			s.c[from+i] = float64(v)
		}
		return nil
	})
	scratchDone(s.buf)
	s.inFloat32, s.c32, s.buf = false, nil, nil
}

// float32sFor returns n float32s (not zeroed) for the current call, and
// the buffer to give to scratchDone.
func float32sFor(n int) ([]float32, []float64) {
	b := float64sFor((n + 1) / 2)
	return float32sIn(b, n), b
}

// float32sIn is the first n float32s of b's memory.
func float32sIn(b []float64, n int) []float32 {
	if n == 0 {
		return []float32{}
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// scratch32For is float32sFor from scratchFor: packing space given back
// with scratchDone.
func scratch32For(n int) ([]float32, []float64) {
	b := scratchFor((n + 1) / 2)
	return float32sIn(b, n), b
}

// sgemmPacked adds op(A)·op(B) to the float32 C: gemmPacked's scheme (the
// same blocks, tasks and k order) with float32 strips packed from operands
// of type S (float32 values, held as float32 or float64) and the float32
// micro-kernel. It is gemmPacked's code at float32 rather than one generic
// function for both: with the tile sizes as parameters instead of
// constants the float64 packing loops ran measurably slower on
// convolution shapes.
func sgemmPacked[S float32 | float64](transA, transB bool, m, n, k int, a, b []S, c []float32) {
	workers := runtime.GOMAXPROCS(0)
	mBlocks := (m + gemmMC - 1) / gemmMC
	nSplit := 1
	if mBlocks < 2*workers {
		nSplit = (2*workers + mBlocks - 1) / mBlocks
	}
	kcMax := min(gemmKC, k)
	ncMax := (min(gemmNC, n) + sgemmNR - 1) / sgemmNR * sgemmNR
	ap, apb := scratch32For(mBlocks * gemmMC * kcMax)
	bp, bpb := scratch32For(kcMax * ncMax)
	defer scratchDone(apb)
	defer scratchDone(bpb)
	tiles := make([][sgemmMR * sgemmNR]float32, workers)
	for pc := 0; pc < k; pc += gemmKC {
		kc := min(gemmKC, k-pc)
		parallelFor(workers, mBlocks, func(_, blk int) {
			ic := blk * gemmMC
			sgemmPackA(ap[blk*gemmMC*kc:(blk+1)*gemmMC*kc], a, transA, ic, pc, min(gemmMC, m-ic), kc, m, k)
		})
		for jc := 0; jc < n; jc += gemmNC {
			nc := min(gemmNC, n-jc)
			strips := (nc + sgemmNR - 1) / sgemmNR
			parallelFor(workers, (strips+15)/16, func(_, g int) {
				sgemmPackB(bp, b, transB, pc, jc, kc, nc, n, k, g*16, min(strips, g*16+16))
			})
			per := (strips + nSplit - 1) / nSplit * sgemmNR
			parallelFor(workers, mBlocks*nSplit, func(w, task int) {
				blk := task / nSplit
				ic := blk * gemmMC
				jlo := task % nSplit * per
				if jlo >= nc {
					return
				}
				jhi := min(jlo+per, nc)
				mc := min(gemmMC, m-ic)
				apb := ap[blk*gemmMC*kc : (blk+1)*gemmMC*kc]
				for jr := jlo; jr < jhi; jr += sgemmNR {
					bs := bp[jr*kc : (jr+sgemmNR)*kc]
					for ir := 0; ir < mc; ir += sgemmMR {
						as := apb[ir*kc : (ir+sgemmMR)*kc]
						rows, cols := min(sgemmMR, mc-ir), min(sgemmNR, nc-jr)
						off := (ic+ir)*n + jc + jr
						if rows == sgemmMR && cols == sgemmNR {
							sgemmKernelFMA(kc, as, bs, c[off:], n)
							continue
						}
						t := &tiles[w]
						clear(t[:])
						sgemmKernelFMA(kc, as, bs, t[:], sgemmNR)
						for i := 0; i < rows; i++ {
							crow := c[off+i*n : off+i*n+cols]
							for j := range crow {
								crow[j] += t[i*sgemmNR+j]
							}
						}
					}
				}
			})
		}
	}
}

// sgemmPackB is gemmPackB for float32 strips of sgemmNR columns.
func sgemmPackB[S float32 | float64](bp []float32, b []S, transB bool, pc, jc, kc, nc, n, k, sFrom, sTo int) {
	for s := sFrom; s < sTo; s++ {
		dst := bp[s*sgemmNR*kc : (s+1)*sgemmNR*kc]
		j0 := jc + s*sgemmNR
		cols := min(sgemmNR, nc-s*sgemmNR)
		for l := 0; l < kc; l++ {
			d := dst[l*sgemmNR : (l+1)*sgemmNR]
			if transB {
				for j := 0; j < cols; j++ {
					d[j] = float32(b[(j0+j)*k+pc+l])
				}
			} else {
				for j, v := range b[(pc+l)*n+j0 : (pc+l)*n+j0+cols] {
					d[j] = float32(v)
				}
			}
			clear(d[cols:])
		}
	}
}

// sgemmPackA is gemmPackA for float32 strips of sgemmMR rows.
func sgemmPackA[S float32 | float64](ap []float32, a []S, transA bool, ic, pc, mc, kc, m, k int) {
	for s := 0; s*sgemmMR < mc; s++ {
		dst := ap[s*sgemmMR*kc : (s+1)*sgemmMR*kc]
		i0 := ic + s*sgemmMR
		rows := min(sgemmMR, mc-s*sgemmMR)
		for l := 0; l < kc; l++ {
			d := dst[l*sgemmMR : (l+1)*sgemmMR]
			for i := 0; i < rows; i++ {
				if transA {
					d[i] = float32(a[(pc+l)*m+i0+i])
				} else {
					d[i] = float32(a[(i0+i)*k+pc+l])
				}
			}
			clear(d[rows:])
		}
	}
}
