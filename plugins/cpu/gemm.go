package cpu

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Packed dgemm (the GotoBLAS/BLIS scheme): B is packed into kc×nr column
// strips, A into mr×kc row strips, and a register-blocked micro-kernel
// accumulates one mr×nr tile of C per strip pair. Blocks of rows of C run on
// separate goroutines; every tile sums its k blocks in the same order
// whatever the number of goroutines, so results never depend on it. Every
// product is formed (no zero skipping), so 0·Inf gives NaN as in PyTorch's
// BLAS.
const (
	gemmMR = 6    // rows of a micro-tile
	gemmNR = 8    // columns of a micro-tile
	gemmKC = 256  // k block: an A strip and a B strip stay in L1
	gemmMC = 96   // rows of C per goroutine task (a multiple of gemmMR)
	gemmNC = 4096 // columns of B packed at once
)

// gemmMinWork is the m·n·k below which packing costs more than it saves.
const gemmMinWork = 32 * 32 * 32

// gemmPacked computes C += op(A)·op(B) for row-major matrices: op(A) is
// m×k (A stored k×m when transA), op(B) is k×n (B stored n×k when transB),
// C is m×n. kernel is the micro-kernel (C tile += A strip · B strip).
//
// For each k block, every row block of A is packed once (in parallel), then
// for each column block of B its strips are packed (in parallel), then the
// tiles of C are computed by tasks of one row block and a range of columns.
// Every tile adds its k blocks in increasing order, whoever computes it.
func gemmPacked(transA, transB bool, m, n, k int, a, b, c []float64, kernel func(kc int, a, b, c []float64, ldc int)) {
	workers := runtime.GOMAXPROCS(0)
	mBlocks := (m + gemmMC - 1) / gemmMC
	// With fewer row blocks than twice the goroutines (a convolution's
	// few output channels by many pixels), each row block's columns are
	// split too.
	nSplit := 1
	if mBlocks < 2*workers {
		nSplit = (2*workers + mBlocks - 1) / mBlocks
	}
	kcMax := min(gemmKC, k)
	ncMax := (min(gemmNC, n) + gemmNR - 1) / gemmNR * gemmNR
	ap := scratchFor(mBlocks * gemmMC * kcMax)
	bp := scratchFor(kcMax * ncMax)
	defer scratchDone(ap)
	defer scratchDone(bp)
	tiles := make([][gemmMR * gemmNR]float64, workers)
	for pc := 0; pc < k; pc += gemmKC {
		kc := min(gemmKC, k-pc)
		parallelFor(workers, mBlocks, func(_, blk int) {
			ic := blk * gemmMC
			gemmPackA(ap[blk*gemmMC*kc:(blk+1)*gemmMC*kc], a, transA, ic, pc, min(gemmMC, m-ic), kc, m, k)
		})
		for jc := 0; jc < n; jc += gemmNC {
			nc := min(gemmNC, n-jc)
			strips := (nc + gemmNR - 1) / gemmNR
			// B strips in groups of 16 per task
			parallelFor(workers, (strips+15)/16, func(_, g int) {
				gemmPackB(bp, b, transB, pc, jc, kc, nc, n, k, g*16, min(strips, g*16+16))
			})
			per := (strips + nSplit - 1) / nSplit * gemmNR // columns per task
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
				for jr := jlo; jr < jhi; jr += gemmNR {
					bs := bp[jr*kc : (jr+gemmNR)*kc]
					for ir := 0; ir < mc; ir += gemmMR {
						as := apb[ir*kc : (ir+gemmMR)*kc]
						rows, cols := min(gemmMR, mc-ir), min(gemmNR, nc-jr)
						off := (ic+ir)*n + jc + jr
						if rows == gemmMR && cols == gemmNR {
							kernel(kc, as, bs, c[off:], n)
							continue
						}
						t := &tiles[w]
						clear(t[:])
						kernel(kc, as, bs, t[:], gemmNR)
						for i := 0; i < rows; i++ {
							crow := c[off+i*n : off+i*n+cols]
							for j := range crow {
								crow[j] += t[i*gemmNR+j]
							}
						}
					}
				}
			})
		}
	}
}

// parallelFor runs fn(worker, i) for i in [0, n) on up to workers
// goroutines (worker is the goroutine's index, for its scratch space).
func parallelFor(workers, n int, fn func(w, i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(w, i)
			}
		}()
	}
	wg.Wait()
}

// gemmPackB copies strips [sFrom, sTo) of op(B)[pc:pc+kc, jc:jc+nc]:
// strip s holds, for each l, the gemmNR values of row l of columns
// s·gemmNR.. (zero beyond nc).
func gemmPackB(bp, b []float64, transB bool, pc, jc, kc, nc, n, k, sFrom, sTo int) {
	for s := sFrom; s < sTo; s++ {
		dst := bp[s*gemmNR*kc : (s+1)*gemmNR*kc]
		j0 := jc + s*gemmNR
		cols := min(gemmNR, nc-s*gemmNR)
		if cols == gemmNR && transB {
			// a full strip of Bᵀ, without the per-element branch: eight
			// rows read together
			var r [gemmNR][]float64
			for j := range r {
				r[j] = b[(j0+j)*k+pc : (j0+j)*k+pc+kc]
			}
			r0, r1, r2, r3, r4, r5, r6, r7 := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
			for l := range r0 {
				d := dst[l*gemmNR : l*gemmNR+gemmNR : l*gemmNR+gemmNR]
				d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = r0[l], r1[l], r2[l], r3[l], r4[l], r5[l], r6[l], r7[l]
			}
			continue
		}
		if cols == gemmNR {
			// a full strip of B: eight contiguous values a row, moved
			// as one array (copy would call memmove for 64 bytes)
			for l := 0; l < kc; l++ {
				o := (pc+l)*n + j0
				*(*[gemmNR]float64)(dst[l*gemmNR:]) = *(*[gemmNR]float64)(b[o : o+gemmNR])
			}
			continue
		}
		for l := 0; l < kc; l++ {
			d := dst[l*gemmNR : (l+1)*gemmNR]
			if transB { // B is n×k
				for j := 0; j < cols; j++ {
					d[j] = b[(j0+j)*k+pc+l]
				}
			} else {
				copy(d[:cols], b[(pc+l)*n+j0:(pc+l)*n+j0+cols])
			}
			clear(d[cols:])
		}
	}
}

// gemmPackA copies op(A)[ic:ic+mc, pc:pc+kc] into strips of gemmMR rows:
// strip s holds, for each l, the gemmMR values of column l (zero beyond mc).
func gemmPackA(ap, a []float64, transA bool, ic, pc, mc, kc, m, k int) {
	for s := 0; s*gemmMR < mc; s++ {
		dst := ap[s*gemmMR*kc : (s+1)*gemmMR*kc]
		i0 := ic + s*gemmMR
		rows := min(gemmMR, mc-s*gemmMR)
		if rows == gemmMR {
			// a full strip, without the per-element branch: six rows
			// of A read together, or six values of each row of Aᵀ
			if transA {
				for l := 0; l < kc; l++ {
					o := (pc+l)*m + i0
					*(*[gemmMR]float64)(dst[l*gemmMR:]) = *(*[gemmMR]float64)(a[o : o+gemmMR])
				}
				continue
			}
			r0 := a[i0*k+pc : i0*k+pc+kc]
			r1 := a[(i0+1)*k+pc : (i0+1)*k+pc+kc]
			r2 := a[(i0+2)*k+pc : (i0+2)*k+pc+kc]
			r3 := a[(i0+3)*k+pc : (i0+3)*k+pc+kc]
			r4 := a[(i0+4)*k+pc : (i0+4)*k+pc+kc]
			r5 := a[(i0+5)*k+pc : (i0+5)*k+pc+kc]
			for l := range r0 {
				d := dst[l*gemmMR : l*gemmMR+gemmMR : l*gemmMR+gemmMR]
				d[0], d[1], d[2], d[3], d[4], d[5] = r0[l], r1[l], r2[l], r3[l], r4[l], r5[l]
			}
			continue
		}
		for l := 0; l < kc; l++ {
			d := dst[l*gemmMR : (l+1)*gemmMR]
			for i := 0; i < rows; i++ {
				if transA { // A is k×m
					d[i] = a[(pc+l)*m+i0+i]
				} else {
					d[i] = a[(i0+i)*k+pc+l]
				}
			}
			clear(d[rows:])
		}
	}
}

// gemmKernelGo is the portable micro-kernel: c[i*ldc+j] += Σ_l
// a[l*gemmMR+i]·b[l*gemmNR+j] over a gemmMR×gemmNR tile, with the
// products fused into the sums as the FMA kernel does.
func gemmKernelGo(kc int, a, b, c []float64, ldc int) {
	var acc [gemmMR * gemmNR]float64
	for l := 0; l < kc; l++ {
		av := a[l*gemmMR : (l+1)*gemmMR]
		bv := b[l*gemmNR : (l+1)*gemmNR]
		for i, x := range av {
			row := acc[i*gemmNR : (i+1)*gemmNR]
			for j, y := range bv {
				row[j] = math.FMA(x, y, row[j])
			}
		}
	}
	for i := 0; i < gemmMR; i++ {
		row := c[i*ldc : i*ldc+gemmNR]
		for j := range row {
			row[j] += acc[i*gemmNR+j]
		}
	}
}
