#include "textflag.h"

// The float64 loops of a pass, four elements (one YMM register) at a time.
// Every sum keeps the order of the Go loop it replaces, so the results are
// the Go loops' bit for bit: the cosine sums run on two chains (even and
// odd elements; a quad adds its low half, then its high half, to the pair
// of chains), the other sums on one chain, element by element. Counts are
// int64 lanes (a compare's all-ones mask subtracted); maxima are lanes.

// func legacyQuadsAVX2(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState) int
//
// legacy64's loop over the quads i, i+1, i+2, i+3 (i = from, from+4, ...)
// while i+3 < n. It stops after a quad whose |d−b| is not ≤ mae in every
// lane (a new maximum or a NaN: the caller updates mae) and returns that
// quad's first index; it returns i with i+3 ≥ n when done.
// st (legacyState): dot, nn, gg (2 lanes each) at 0, 16, 32; mae at 48;
// the counts of rel_err < 1e-4 | < 1e-3 at 80, < 1e-2 | < 2^-8 at 112
// (pairCounts); the constants |·| mask, eps, 1e-4, 1e-3, 1e-2, 2^-8, 1<<32
// at 144, 176, ..., 336.
TEXT ·legacyQuadsAVX2(SB), NOSPLIT, $0-80
	MOVQ    b+0(FP), SI
	MOVQ    d+8(FP), DI
	MOVQ    bd+16(FP), R8
	MOVQ    e+24(FP), R9
	MOVQ    r+32(FP), R10
	MOVQ    from+40(FP), CX
	MOVQ    n+48(FP), DX
	MOVBQZX cast+56(FP), BX
	MOVQ    st+64(FP), R11

	VMOVUPD 0(R11), X0    // dot
	VMOVUPD 16(R11), X1   // nn
	VMOVUPD 32(R11), X2   // gg
	VMOVUPD 48(R11), Y5   // mae
	VMOVUPD 80(R11), Y10  // count < 1e-4 | < 1e-3
	VMOVUPD 112(R11), Y12 // count < 1e-2 | < 2^-8
	VMOVUPD 144(R11), Y3  // |·| mask
	VMOVUPD 176(R11), Y4  // eps
	VMOVUPD 336(R11), Y13 // 1<<32

lloop:
	LEAQ 3(CX), AX
	CMPQ AX, DX
	JGE  ldone
	VMOVUPD (SI)(CX*8), Y6 // b
	VMOVUPD (DI)(CX*8), Y7 // d
	VMULPD  Y7, Y6, Y8
	VADDPD  X8, X0, X0     // dot += b·d: elements i, i+1
	VEXTRACTF128 $1, Y8, X8
	VADDPD  X8, X0, X0     // then i+2, i+3
	VMULPD  Y7, Y7, Y8
	VADDPD  X8, X1, X1     // nn += d·d
	VEXTRACTF128 $1, Y8, X8
	VADDPD  X8, X1, X1
	VMULPD  Y6, Y6, Y8
	VADDPD  X8, X2, X2     // gg += b·b
	VEXTRACTF128 $1, Y8, X8
	VADDPD  X8, X2, X2
	TESTQ   BX, BX
	JEQ     lnocast
	VCVTPD2PSY Y6, X8
	VCVTPS2PD  X8, Y8
	VMOVUPD    Y8, (R8)(CX*8) // bench_in_dev = float32(b)

lnocast:
	VSUBPD  Y6, Y7, Y8   // d − b
	VANDPD  Y3, Y8, Y8   // ev = |d − b|
	VANDPD  Y3, Y6, Y9
	VADDPD  Y4, Y9, Y9   // |b| + eps
	VDIVPD  Y9, Y8, Y14  // rv
	VMOVUPD Y8, (R9)(CX*8)
	VMOVUPD Y14, (R10)(CX*8)
	VCMPPD  $1, 208(R11), Y14, Y15
	VPSUBQ  Y15, Y10, Y10
	VCMPPD  $1, 240(R11), Y14, Y15
	VPAND   Y13, Y15, Y15
	VPADDQ  Y15, Y10, Y10
	VCMPPD  $1, 272(R11), Y14, Y15
	VPSUBQ  Y15, Y12, Y12
	VCMPPD  $1, 304(R11), Y14, Y15
	VPAND   Y13, Y15, Y15
	VPADDQ  Y15, Y12, Y12
	VCMPPD  $2, Y5, Y8, Y8 // ev <= mae
	VMOVMSKPD Y8, AX
	CMPQ    AX, $15
	JNE     ldone
	ADDQ    $4, CX
	JMP     lloop

ldone:
	VMOVUPD X0, 0(R11)
	VMOVUPD X1, 16(R11)
	VMOVUPD X2, 32(R11)
	VMOVUPD Y10, 80(R11)
	VMOVUPD Y12, 112(R11)
	VZEROUPPER
	MOVQ CX, ret+72(FP)
	RET

// func benchQuadsAVX2(b, bd, d, e, r *float64, from, n int, st *benchState) int
//
// benchmarkLoop (float64) over the quads i, i+1, i+2, i+3 (i = from,
// from+4, ...) while i+3 < n: the sums of squares and of relative errors
// taken element by element, with 0 added for a masked element (x + 0 = x
// for the non-negative sums), so they are benchmarkLoop's bit for bit; the
// counts as int64 lanes; the maximum relative error per lane (−1 for
// masked elements). Returns the index where it stopped.
// st (benchState): sq, reSum at 0, 8; reMax at 16; pos | neg at 48, small
// | smallErr at 80 (pairCounts), reCnt at 112; the constants |·| mask,
// small-value threshold, atol, −1, 1<<32 at 144, 176, ..., 272.
TEXT ·benchQuadsAVX2(SB), NOSPLIT, $0-72
	MOVQ b+0(FP), SI
	MOVQ bd+8(FP), DI
	MOVQ d+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ r+32(FP), R10
	MOVQ from+40(FP), CX
	MOVQ n+48(FP), DX
	MOVQ st+56(FP), R11

	VMOVSD  0(R11), X0   // sq
	VMOVSD  8(R11), X1   // reSum
	VMOVUPD 16(R11), Y2  // reMax
	VMOVUPD 48(R11), Y3  // pos | neg
	VMOVUPD 80(R11), Y6  // small | smallErr
	VMOVUPD 112(R11), Y8 // reCnt
	VMOVUPD 272(R11), Y4 // 1<<32
	VXORPD  Y15, Y15, Y15

bloop:
	LEAQ 3(CX), AX
	CMPQ AX, DX
	JGE  bdone
	VMOVUPD (R8)(CX*8), Y9  // d
	VMOVUPD (DI)(CX*8), Y10 // bench_in_dev
	VCMPPD  $14, Y10, Y9, Y11 // d > bd
	VPSUBQ  Y11, Y3, Y3
	VCMPPD  $1, Y10, Y9, Y11  // d < bd
	VPAND   Y4, Y11, Y11
	VPADDQ  Y11, Y3, Y3
	VSUBPD  Y9, Y9, Y11
	VSUBPD  Y10, Y10, Y12
	VADDPD  Y12, Y11, Y11
	VCMPPD  $0, Y15, Y11, Y11 // finite: (d−d)+(bd−bd) == 0
	VMOVUPD (SI)(CX*8), Y12   // b
	VANDPD  144(R11), Y12, Y12 // |b|
	VCMPPD  $2, 176(R11), Y12, Y12 // |b| <= small-value threshold
	VANDPD  Y11, Y12, Y12     // small (and finite)
	VANDNPD Y11, Y12, Y13     // normal: finite and not small
	VMOVUPD (R9)(CX*8), Y14   // abs_err
	VCMPPD  $14, 208(R11), Y14, Y9 // abs_err > atol
	VANDPD  Y12, Y9, Y9
	VPAND   Y4, Y9, Y9
	VPADDQ  Y9, Y6, Y6        // smallErr
	VPSUBQ  Y12, Y6, Y6       // small
	VPSUBQ  Y13, Y8, Y8       // reCnt
	VMULPD  Y14, Y14, Y14     // abs_err²
	VANDPD  Y13, Y14, Y14
	VMOVUPD (R10)(CX*8), Y9   // rel_err
	VANDPD  Y13, Y9, Y10
	VEXTRACTF128 $1, Y14, X12
	VEXTRACTF128 $1, Y10, X11
	VADDSD  X14, X0, X0       // sq += s0
	VADDSD  X10, X1, X1       // reSum += r0
	VUNPCKHPD X14, X14, X14
	VUNPCKHPD X10, X10, X9
	VADDSD  X14, X0, X0       // s1
	VADDSD  X9, X1, X1        // r1
	VUNPCKHPD X12, X12, X14
	VUNPCKHPD X11, X11, X9
	VADDSD  X12, X0, X0       // s2
	VADDSD  X11, X1, X1       // r2
	VADDSD  X14, X0, X0       // s3
	VADDSD  X9, X1, X1        // r3
	VANDNPD 240(R11), Y13, Y11 // −1 where masked
	VORPD   Y11, Y10, Y10
	VMAXPD  Y10, Y2, Y2
	ADDQ    $4, CX
	JMP     bloop

bdone:
	VMOVSD  X0, 0(R11)
	VMOVSD  X1, 8(R11)
	VMOVUPD Y2, 16(R11)
	VMOVUPD Y3, 48(R11)
	VMOVUPD Y6, 80(R11)
	VMOVUPD Y8, 112(R11)
	VZEROUPPER
	MOVQ CX, ret+64(FP)
	RET

// func absQuadsAVX2(b, bd, d, e, r *float64, from, n int, st *absState) int
//
// absoluteLoop (float64) over the quads i, i+1, i+2, i+3 while i+3 < n,
// counting small values, their errors above atol, normal values and their
// relative errors above rtol (int64 lanes). It stops at a quad with a
// non-finite device or bench_in_dev value (the caller judges it) and
// returns the quad's index, or the index where it ran out.
// st: small, smallErr, normal, normalFail (int64 lanes), then the
// constants |·| mask, small-value threshold, atol, rtol (4 lanes each).
TEXT ·absQuadsAVX2(SB), NOSPLIT, $0-72
	MOVQ b+0(FP), SI
	MOVQ bd+8(FP), DI
	MOVQ d+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ r+32(FP), R10
	MOVQ from+40(FP), CX
	MOVQ n+48(FP), DX
	MOVQ st+56(FP), R11
	LEAQ 128(R11), R12

	VMOVUPD 0(R11), Y3  // small
	VMOVUPD 32(R11), Y4 // smallErr
	VMOVUPD 64(R11), Y5 // normal
	VMOVUPD 96(R11), Y6 // normalFail
	VXORPD  Y15, Y15, Y15
	VPCMPEQQ Y14, Y14, Y14 // all ones

aloop:
	LEAQ 3(CX), AX
	CMPQ AX, DX
	JGE  adone
	VMOVUPD (R8)(CX*8), Y9  // d
	VMOVUPD (DI)(CX*8), Y10 // bench_in_dev
	VSUBPD  Y9, Y9, Y11
	VSUBPD  Y10, Y10, Y12
	VADDPD  Y12, Y11, Y11
	VCMPPD  $0, Y15, Y11, Y11 // finite
	VMOVMSKPD Y11, AX
	CMPQ    AX, $15
	JNE     adone
	VMOVUPD (SI)(CX*8), Y12
	VANDPD  0(R12), Y12, Y12
	VCMPPD  $2, 32(R12), Y12, Y12 // small: |b| <= sv
	VXORPD  Y14, Y12, Y13         // normal: not small
	VMOVUPD (R9)(CX*8), Y9
	VCMPPD  $14, 64(R12), Y9, Y9  // abs_err > atol
	VANDPD  Y12, Y9, Y9
	VMOVUPD (R10)(CX*8), Y10
	VCMPPD  $14, 96(R12), Y10, Y10 // rel_err > rtol
	VANDPD  Y13, Y10, Y10
	VPSUBQ  Y12, Y3, Y3
	VPSUBQ  Y9, Y4, Y4
	VPSUBQ  Y13, Y5, Y5
	VPSUBQ  Y10, Y6, Y6
	ADDQ    $4, CX
	JMP     aloop

adone:
	VMOVUPD Y3, 0(R11)
	VMOVUPD Y4, 32(R11)
	VMOVUPD Y5, 64(R11)
	VMOVUPD Y6, 96(R11)
	VZEROUPPER
	MOVQ CX, ret+64(FP)
	RET

// func ulpQuadsAVX2(b, d *float64, from, n int, st *ulpState) int
//
// ulpLoop's float64 computation (not f32) over the quads i, i+1, i+2, i+3
// while i+3 < n: ulp = |(d − b)·2^(mant − max(e_b, min_eb))|, the power of
// two formed from b's exponent bits as 2^mant·min(2^−e_b, 2^−min_eb) (zero
// b: the zero power), the sum element by element, the maximum per lane,
// the count above the threshold. It stops at a quad needing ulpLoop's slow
// cases (b infinite, NaN, ≥ 2^1022 or just below a power of two; d not
// finite) and returns its index, or where it ran out.
// st: sum, max (4 lanes), over (int64 lanes), then the constants exponent
// mask, corner mask, 2046<<52, 2045<<52, 2^−min_eb, 2^mant, zero power,
// threshold, |·| mask (4 lanes each).
TEXT ·ulpQuadsAVX2(SB), NOSPLIT, $0-48
	MOVQ b+0(FP), SI
	MOVQ d+8(FP), DI
	MOVQ from+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ st+32(FP), R11
	LEAQ 80(R11), R12

	VMOVSD  0(R11), X0   // sum
	VMOVUPD 16(R11), Y1  // max
	VMOVUPD 48(R11), Y2  // over
	VMOVUPD 0(R12), Y4   // exponent mask
	VMOVUPD 32(R12), Y3  // corner mask
	VMOVUPD 64(R12), Y5  // 2046<<52
	VMOVUPD 128(R12), Y6 // 2^-min_eb
	VMOVUPD 160(R12), Y7 // 2^mant
	VMOVUPD 192(R12), Y8 // zero power
	VMOVUPD 224(R12), Y9 // threshold
	VXORPD  Y15, Y15, Y15

uloop:
	LEAQ 3(CX), AX
	CMPQ AX, DX
	JGE  udone
	VMOVUPD  (SI)(CX*8), Y10 // b
	VMOVUPD  (DI)(CX*8), Y11 // d
	VPAND    Y4, Y10, Y12    // b's exponent bits
	VPCMPGTQ 96(R12), Y12, Y13 // exponent field > 2045: b ≥ 2^1022, inf or NaN
	VPAND    Y3, Y10, Y14
	VPCMPEQQ Y3, Y14, Y14    // mantissa just below a power of two
	VPOR     Y14, Y13, Y13
	VSUBPD   Y11, Y11, Y14
	VCMPPD   $4, Y15, Y14, Y14 // d not finite: d − d != 0 (NaN)
	VPOR     Y14, Y13, Y13
	VMOVMSKPD Y13, AX
	TESTQ    AX, AX
	JNE      udone
	VPSUBQ   Y12, Y5, Y14    // 2^−e_b (b normal) or 2^1023 (b zero or subnormal)
	VMINPD   Y6, Y14, Y14
	VMULPD   Y7, Y14, Y14    // 2^(mant − max(e_b, min_eb))
	VANDPD   256(R12), Y10, Y13
	VPCMPEQQ Y15, Y13, Y13   // b == ±0
	VBLENDVPD Y13, Y8, Y14, Y14
	VSUBPD   Y10, Y11, Y11   // d − b
	VMULPD   Y14, Y11, Y11
	VANDPD   256(R12), Y11, Y11 // ulp
	VMAXPD   Y11, Y1, Y1
	VCMPPD   $14, Y9, Y11, Y13 // ulp > threshold
	VPSUBQ   Y13, Y2, Y2
	VEXTRACTF128 $1, Y11, X12
	VADDSD   X11, X0, X0
	VUNPCKHPD X11, X11, X11
	VADDSD   X11, X0, X0
	VADDSD   X12, X0, X0
	VUNPCKHPD X12, X12, X12
	VADDSD   X12, X0, X0
	ADDQ     $4, CX
	JMP      uloop

udone:
	VMOVSD  X0, 0(R11)
	VMOVUPD Y1, 16(R11)
	VMOVUPD Y2, 48(R11)
	VZEROUPPER
	MOVQ CX, ret+40(FP)
	RET
