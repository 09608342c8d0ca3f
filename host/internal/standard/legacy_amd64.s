#include "textflag.h"

// func legacyPairsAVX(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState) int
//
// legacy64's loop over the element pairs (i, i+1), i = from, from+2, ...,
// while i+1 < n, two lanes at a time: lane 0 is legacy64's chain 0 (even
// elements), lane 1 chain 1, so the sums are legacy64's bit for bit. It
// stops after a pair whose |d−b| is not ≤ mae in both lanes (a new maximum
// or a NaN: the caller updates mae) and returns the index after which the
// caller continues (the pair's first index); it returns i ≥ n−1 when done.
// st: dot, nn, gg (2 lanes each), mae (2 lanes), the counts of rel_err <
// 1e-4, < 1e-3, < 1e-2, < 2^-8 (int64 lanes), then the constants |·| mask,
// eps, 1e-4, 1e-3, 1e-2, 2^-8 (2 lanes each).
TEXT ·legacyPairsAVX(SB), NOSPLIT, $0-80
	MOVQ    b+0(FP), SI
	MOVQ    d+8(FP), DI
	MOVQ    bd+16(FP), R8
	MOVQ    e+24(FP), R9
	MOVQ    r+32(FP), R10
	MOVQ    from+40(FP), CX
	MOVQ    n+48(FP), DX
	MOVBQZX cast+56(FP), BX
	MOVQ    st+64(FP), R11
	LEAQ    128(R11), R12

	VMOVUPD 0(R11), X0   // dot
	VMOVUPD 16(R11), X1  // nn
	VMOVUPD 32(R11), X2  // gg
	VMOVUPD 48(R11), X5  // mae
	VMOVUPD 64(R11), X10 // count < 1e-4
	VMOVUPD 80(R11), X11 // count < 1e-3
	VMOVUPD 96(R11), X12 // count < 1e-2
	VMOVUPD 112(R11), X13 // count < 2^-8
	VMOVUPD 0(R12), X3   // |·| mask
	VMOVUPD 16(R12), X4  // eps

loop:
	LEAQ 1(CX), AX
	CMPQ AX, DX
	JGE  done
	VMOVUPD (SI)(CX*8), X6 // b
	VMOVUPD (DI)(CX*8), X7 // d
	VMULPD  X7, X6, X8
	VADDPD  X8, X0, X0     // dot += b·d
	VMULPD  X7, X7, X8
	VADDPD  X8, X1, X1     // nn += d·d
	VMULPD  X6, X6, X8
	VADDPD  X8, X2, X2     // gg += b·b
	TESTQ   BX, BX
	JEQ     nocast
	VCVTPD2PSX X6, X8
	VCVTPS2PD  X8, X8
	VMOVUPD    X8, (R8)(CX*8) // bench_in_dev = float32(b)

nocast:
	VSUBPD  X6, X7, X8   // d − b
	VANDPD  X3, X8, X8   // ev = |d − b|
	VANDPD  X3, X6, X9
	VADDPD  X4, X9, X9   // |b| + eps
	VDIVPD  X9, X8, X14  // rv
	VMOVUPD X8, (R9)(CX*8)
	VMOVUPD X14, (R10)(CX*8)
	VCMPPD  $1, 32(R12), X14, X15
	VPSUBQ  X15, X10, X10
	VCMPPD  $1, 48(R12), X14, X15
	VPSUBQ  X15, X11, X11
	VCMPPD  $1, 64(R12), X14, X15
	VPSUBQ  X15, X12, X12
	VCMPPD  $1, 80(R12), X14, X15
	VPSUBQ  X15, X13, X13
	VCMPPD  $2, X5, X8, X8 // ev <= mae
	VMOVMSKPD X8, AX
	CMPQ    AX, $3
	JNE     done
	ADDQ    $2, CX
	JMP     loop

done:
	VMOVUPD X0, 0(R11)
	VMOVUPD X1, 16(R11)
	VMOVUPD X2, 32(R11)
	VMOVUPD X10, 64(R11)
	VMOVUPD X11, 80(R11)
	VMOVUPD X12, 96(R11)
	VMOVUPD X13, 112(R11)
	VZEROUPPER
	MOVQ CX, ret+72(FP)
	RET

// func benchPairsAVX(b, bd, d, e, r *float64, from, n int, st *benchState) int
//
// benchmarkLoop (float64) over the pairs (i, i+1), i = from, from+2, ...,
// while i+1 < n: the sums of squares and of relative errors taken in
// element order, lane 0 then lane 1, with 0 added for a masked element
// (x + 0 = x for the non-negative sums), so they are benchmarkLoop's bit
// for bit; the counts as int64 lanes; the maximum relative error per lane
// (−1 for masked elements). Returns the index where it stopped.
// st: sq, reSum, reMax (2 lanes), then pos, neg, small, smallErr, reCnt
// (int64 lanes), then the constants |·| mask, small-value threshold, atol,
// −1 (2 lanes each).
TEXT ·benchPairsAVX(SB), NOSPLIT, $0-72
	MOVQ b+0(FP), SI
	MOVQ bd+8(FP), DI
	MOVQ d+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ r+32(FP), R10
	MOVQ from+40(FP), CX
	MOVQ n+48(FP), DX
	MOVQ st+56(FP), R11
	LEAQ 112(R11), R12

	VMOVSD  0(R11), X0   // sq
	VMOVSD  8(R11), X1   // reSum
	VMOVUPD 16(R11), X2  // reMax
	VMOVUPD 32(R11), X3  // pos
	VMOVUPD 48(R11), X4  // neg
	VMOVUPD 64(R11), X6  // small
	VMOVUPD 80(R11), X7  // smallErr
	VMOVUPD 96(R11), X8  // reCnt
	VXORPD  X15, X15, X15

bloop:
	LEAQ 1(CX), AX
	CMPQ AX, DX
	JGE  bdone
	VMOVUPD (R8)(CX*8), X9  // d
	VMOVUPD (DI)(CX*8), X10 // bench_in_dev
	VCMPPD  $14, X10, X9, X11 // d > bd
	VPSUBQ  X11, X3, X3
	VCMPPD  $1, X10, X9, X11  // d < bd
	VPSUBQ  X11, X4, X4
	VSUBPD  X9, X9, X11
	VSUBPD  X10, X10, X12
	VADDPD  X12, X11, X11
	VCMPPD  $0, X15, X11, X11 // finite: (d−d)+(bd−bd) == 0
	VMOVUPD (SI)(CX*8), X12   // b
	VANDPD  0(R12), X12, X12  // |b|
	VCMPPD  $2, 16(R12), X12, X12 // |b| <= small-value threshold
	VANDPD  X11, X12, X12     // small (and finite)
	VANDNPD X11, X12, X13     // normal: finite and not small
	VMOVUPD (R9)(CX*8), X14   // abs_err
	VCMPPD  $14, 32(R12), X14, X9 // abs_err > atol
	VANDPD  X12, X9, X9
	VPSUBQ  X9, X7, X7        // smallErr
	VPSUBQ  X12, X6, X6       // small
	VPSUBQ  X13, X8, X8       // reCnt
	VMULPD  X14, X14, X14     // abs_err²
	VANDPD  X13, X14, X14
	VADDSD  X14, X0, X0       // sq += s0
	VUNPCKHPD X14, X14, X14
	VADDSD  X14, X0, X0       // sq += s1
	VMOVUPD (R10)(CX*8), X9   // rel_err
	VANDPD  X13, X9, X10
	VADDSD  X10, X1, X1       // reSum += r0
	VUNPCKHPD X10, X10, X11
	VADDSD  X11, X1, X1       // reSum += r1
	VANDNPD 48(R12), X13, X11 // −1 where masked
	VORPD   X11, X10, X10
	VMAXPD  X10, X2, X2
	ADDQ    $2, CX
	JMP     bloop

bdone:
	VMOVSD  X0, 0(R11)
	VMOVSD  X1, 8(R11)
	VMOVUPD X2, 16(R11)
	VMOVUPD X3, 32(R11)
	VMOVUPD X4, 48(R11)
	VMOVUPD X6, 64(R11)
	VMOVUPD X7, 80(R11)
	VMOVUPD X8, 96(R11)
	VZEROUPPER
	MOVQ CX, ret+64(FP)
	RET

// func absPairsAVX(b, bd, d, e, r *float64, from, n int, st *absState) int
//
// absoluteLoop (float64) over the pairs (i, i+1) while i+1 < n, counting
// small values, their errors above atol, normal values and their relative
// errors above rtol (int64 lanes). It stops at a pair with a non-finite
// device or bench_in_dev value (the caller judges it) and returns the
// pair's index, or the index where it ran out.
// st: small, smallErr, normal, normalFail (int64 lanes), then the
// constants |·| mask, small-value threshold, atol, rtol (2 lanes each).
TEXT ·absPairsAVX(SB), NOSPLIT, $0-72
	MOVQ b+0(FP), SI
	MOVQ bd+8(FP), DI
	MOVQ d+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ r+32(FP), R10
	MOVQ from+40(FP), CX
	MOVQ n+48(FP), DX
	MOVQ st+56(FP), R11
	LEAQ 64(R11), R12

	VMOVUPD 0(R11), X3  // small
	VMOVUPD 16(R11), X4 // smallErr
	VMOVUPD 32(R11), X5 // normal
	VMOVUPD 48(R11), X6 // normalFail
	VXORPD  X15, X15, X15

aloop:
	LEAQ 1(CX), AX
	CMPQ AX, DX
	JGE  adone
	VMOVUPD (R8)(CX*8), X9  // d
	VMOVUPD (DI)(CX*8), X10 // bench_in_dev
	VSUBPD  X9, X9, X11
	VSUBPD  X10, X10, X12
	VADDPD  X12, X11, X11
	VCMPPD  $0, X15, X11, X11 // finite
	VMOVMSKPD X11, AX
	CMPQ    AX, $3
	JNE     adone
	VMOVUPD (SI)(CX*8), X12
	VANDPD  0(R12), X12, X12
	VCMPPD  $2, 16(R12), X12, X12 // small: |b| <= sv
	VPCMPEQQ X13, X13, X13
	VXORPD  X13, X12, X13         // normal: not small
	VMOVUPD (R9)(CX*8), X9
	VCMPPD  $14, 32(R12), X9, X9  // abs_err > atol
	VANDPD  X12, X9, X9
	VMOVUPD (R10)(CX*8), X10
	VCMPPD  $14, 48(R12), X10, X10 // rel_err > rtol
	VANDPD  X13, X10, X10
	VPSUBQ  X12, X3, X3
	VPSUBQ  X9, X4, X4
	VPSUBQ  X13, X5, X5
	VPSUBQ  X10, X6, X6
	ADDQ    $2, CX
	JMP     aloop

adone:
	VMOVUPD X3, 0(R11)
	VMOVUPD X4, 16(R11)
	VMOVUPD X5, 32(R11)
	VMOVUPD X6, 48(R11)
	VZEROUPPER
	MOVQ CX, ret+64(FP)
	RET

// func ulpPairsAVX(b, d *float64, from, n int, st *ulpState) int
//
// ulpLoop's float64 computation (not f32) over the pairs (i, i+1) while
// i+1 < n: ulp = |(d − b)·2^(mant − max(e_b, min_eb))|, the power of two
// formed from b's exponent bits as 2^mant·min(2^−e_b, 2^−min_eb) (zero b:
// the zero power), the sum in element order (lane 0 then lane 1), the
// maximum per lane, the count above the threshold. It stops at a pair
// needing ulpLoop's slow cases (b infinite, NaN, ≥ 2^1022 or just below a
// power of two; d not finite) and returns its index, or where it ran out.
// st: sum, max (2 lanes), over (int64 lanes), then the constants exponent
// mask, corner mask, 2046<<52, 2045<<52, 2^−min_eb, 2^mant, zero power,
// threshold, |·| mask (2 lanes each).
TEXT ·ulpPairsAVX(SB), NOSPLIT, $0-48
	MOVQ b+0(FP), SI
	MOVQ d+8(FP), DI
	MOVQ from+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ st+32(FP), R11
	LEAQ 48(R11), R12

	VMOVSD  0(R11), X0   // sum
	VMOVUPD 16(R11), X1  // max
	VMOVUPD 32(R11), X2  // over
	VMOVUPD 0(R12), X4   // exponent mask
	VMOVUPD 16(R12), X3  // corner mask
	VMOVUPD 32(R12), X5  // 2046<<52
	VMOVUPD 64(R12), X6  // 2^-min_eb
	VMOVUPD 80(R12), X7  // 2^mant
	VMOVUPD 96(R12), X8  // zero power
	VMOVUPD 112(R12), X9 // threshold

uloop:
	LEAQ 1(CX), AX
	CMPQ AX, DX
	JGE  udone
	VMOVUPD  (SI)(CX*8), X10 // b
	VMOVUPD  (DI)(CX*8), X11 // d
	VPAND    X4, X10, X12    // b's exponent bits
	VPCMPGTQ 48(R12), X12, X13 // exponent field > 2045: b ≥ 2^1022, inf or NaN
	VPAND    X3, X10, X14
	VPCMPEQQ X3, X14, X14    // mantissa just below a power of two
	VPOR     X14, X13, X13
	VSUBPD   X11, X11, X14
	VXORPD   X15, X15, X15
	VCMPPD   $4, X15, X14, X14 // d not finite: d − d != 0 (NaN)
	VPOR     X14, X13, X13
	VMOVMSKPD X13, AX
	TESTQ    AX, AX
	JNE      udone
	VPSUBQ   X12, X5, X14    // 2^−e_b (b normal) or 2^1023 (b zero or subnormal)
	VMINPD   X6, X14, X14
	VMULPD   X7, X14, X14    // 2^(mant − max(e_b, min_eb))
	VANDPD   128(R12), X10, X13
	VPCMPEQQ X15, X13, X13   // b == ±0
	VBLENDVPD X13, X8, X14, X14
	VSUBPD   X10, X11, X11   // d − b
	VMULPD   X14, X11, X11
	VANDPD   128(R12), X11, X11 // ulp
	VMAXPD   X11, X1, X1
	VCMPPD   $14, X9, X11, X13 // ulp > threshold
	VPSUBQ   X13, X2, X2
	VADDSD   X11, X0, X0
	VUNPCKHPD X11, X11, X11
	VADDSD   X11, X0, X0
	ADDQ     $2, CX
	JMP      uloop

udone:
	VMOVSD  X0, 0(R11)
	VMOVUPD X1, 16(R11)
	VMOVUPD X2, 32(R11)
	VZEROUPPER
	MOVQ CX, ret+40(FP)
	RET
