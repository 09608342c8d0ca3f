#include "textflag.h"

// The float64 loops of a pass, eight elements (one ZMM register) at a
// time, where the machine has AVX-512 (F, DQ, VL, BW): the loops of
// legacy_amd64.s with mask registers in place of compare masks, blends
// and VMOVMSKPD, and the same order for every sum, so the same bits. Each
// reads and writes the state of its four-lane counterpart (its lanes in the
// low half of a ZMM register, folded back at the end) and stops where
// fewer than eight elements are left; the four-lane loop takes the last
// quad.

// func benchOctsAVX512(b, bd, d, e, r *float64, from, n int, st *benchState) int
//
// benchQuadsAVX2 over the octets i, ..., i+7 (i = from, from+8, ...) while
// i+7 < n: the two sums element by element (0 added for a masked element),
// the counts in int64 lanes, the maximum relative error per lane (masked
// lanes keep theirs). Returns the index where it stopped.
TEXT ·benchOctsAVX512(SB), NOSPLIT, $192-72
	MOVQ b+0(FP), SI
	MOVQ bd+8(FP), DI
	MOVQ d+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ r+32(FP), R10
	MOVQ from+40(FP), CX
	MOVQ n+48(FP), DX
	MOVQ st+56(FP), R11
	LEAQ 63(SP), R12
	ANDQ $~63, R12 // 128 bytes of scratch, aligned

	VMOVSD  0(R11), X0   // sq
	VMOVSD  8(R11), X1   // reSum
	VMOVUPD 16(R11), Y2
	VINSERTF64X4 $1, Y2, Z2, Z2 // reMax, in both halves
	VPXORQ  Z3, Z3, Z3 // pos
	VPXORQ  Z4, Z4, Z4 // neg
	VPXORQ  Z5, Z5, Z5 // small
	VPXORQ  Z6, Z6, Z6 // smallErr
	VPXORQ  Z7, Z7, Z7 // reCnt
	MOVQ    $1, AX
	VPBROADCASTQ AX, Z16       // 1
	VBROADCASTSD 144(R11), Z17 // |·| mask
	VBROADCASTSD 176(R11), Z18 // small-value threshold
	VBROADCASTSD 208(R11), Z19 // atol

bloop:
	LEAQ 7(CX), AX
	CMPQ AX, DX
	JGE  bdone
	VMOVUPD (R8)(CX*8), Z9   // d
	VMOVUPD (DI)(CX*8), Z10  // bench_in_dev
	VCMPPD  $14, Z10, Z9, K1 // d > bd
	VPADDQ  Z16, Z3, K1, Z3
	VCMPPD  $1, Z10, Z9, K1  // d < bd
	VPADDQ  Z16, Z4, K1, Z4
	VFPCLASSPDZ $0x99, Z9, K2  // d NaN or infinite
	VFPCLASSPDZ $0x99, Z10, K3 // bd NaN or infinite
	KORB    K2, K3, K2
	KNOTB   K2, K2             // finite
	VPANDQ  (SI)(CX*8), Z17, Z12   // |b|
	VCMPPD  $2, Z18, Z12, K2, K3   // small: finite and |b| <= sv
	VCMPPD  $6, Z18, Z12, K2, K4   // normal: finite and not small
	VMOVUPD (R9)(CX*8), Z14        // abs_err
	VCMPPD  $14, Z19, Z14, K3, K1  // small and abs_err > atol
	VPADDQ  Z16, Z6, K1, Z6
	VPADDQ  Z16, Z5, K3, Z5
	VPADDQ  Z16, Z7, K4, Z7
	VMULPD.Z Z14, Z14, K4, Z14     // abs_err², 0 where masked
	VMOVUPD.Z (R10)(CX*8), K4, Z9  // rel_err, 0 where masked
	VMAXPD  Z9, Z2, K4, Z2
	VMOVAPD Z14, 0(R12)
	VMOVAPD Z9, 64(R12)
	VADDSD  0(R12), X0, X0 // element i
	VADDSD  64(R12), X1, X1
	VADDSD  8(R12), X0, X0
	VADDSD  72(R12), X1, X1
	VADDSD  16(R12), X0, X0
	VADDSD  80(R12), X1, X1
	VADDSD  24(R12), X0, X0
	VADDSD  88(R12), X1, X1
	VADDSD  32(R12), X0, X0
	VADDSD  96(R12), X1, X1
	VADDSD  40(R12), X0, X0
	VADDSD  104(R12), X1, X1
	VADDSD  48(R12), X0, X0
	VADDSD  112(R12), X1, X1
	VADDSD  56(R12), X0, X0 // i+7
	VADDSD  120(R12), X1, X1
	ADDQ    $8, CX
	JMP     bloop

bdone:
	VMOVSD  X0, 0(R11)
	VMOVSD  X1, 8(R11)
	VEXTRACTF64X4 $1, Z2, Y9
	VMAXPD  Y9, Y2, Y2
	VMOVUPD Y2, 16(R11)
	VEXTRACTI64X4 $1, Z3, Y9
	VPADDQ  Y9, Y3, Y3
	VEXTRACTI64X4 $1, Z4, Y9
	VPADDQ  Y9, Y4, Y4
	VPSLLQ  $32, Y4, Y4
	VPADDQ  Y4, Y3, Y3
	VPADDQ  48(R11), Y3, Y3
	VMOVDQU Y3, 48(R11)        // pos | neg
	VEXTRACTI64X4 $1, Z5, Y9
	VPADDQ  Y9, Y5, Y5
	VEXTRACTI64X4 $1, Z6, Y9
	VPADDQ  Y9, Y6, Y6
	VPSLLQ  $32, Y6, Y6
	VPADDQ  Y6, Y5, Y5
	VPADDQ  80(R11), Y5, Y5
	VMOVDQU Y5, 80(R11)        // small | smallErr
	VEXTRACTI64X4 $1, Z7, Y9
	VPADDQ  Y9, Y7, Y7
	VPADDQ  112(R11), Y7, Y7
	VMOVDQU Y7, 112(R11)       // reCnt
	VZEROUPPER
	MOVQ CX, ret+64(FP)
	RET

// func legacyOctsAVX512(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState) int
//
// legacyQuadsAVX2 over the octets i, ..., i+7 (i = from, from+8, ...)
// while i+7 < n: an octet adds its products to the pair of chains two
// elements at a time, in element order, as two quads do. It stops after an
// octet whose |d−b| is not ≤ mae in every lane and returns that octet's
// first index; it returns i with i+7 ≥ n when done.
TEXT ·legacyOctsAVX512(SB), NOSPLIT, $256-80
	MOVQ    b+0(FP), SI
	MOVQ    d+8(FP), DI
	MOVQ    bd+16(FP), R8
	MOVQ    e+24(FP), R9
	MOVQ    r+32(FP), R10
	MOVQ    from+40(FP), CX
	MOVQ    n+48(FP), DX
	MOVBQZX cast+56(FP), BX
	MOVQ    st+64(FP), R11
	LEAQ    63(SP), R12
	ANDQ    $~63, R12 // 192 bytes of scratch, aligned

	VMOVUPD 0(R11), X0    // dot
	VMOVUPD 16(R11), X1   // nn
	VMOVUPD 32(R11), X2   // gg
	VBROADCASTSD 48(R11), Z5   // mae
	VBROADCASTSD 144(R11), Z3  // |·| mask
	VBROADCASTSD 176(R11), Z4  // eps
	VBROADCASTSD 208(R11), Z17 // 1e-4
	VBROADCASTSD 240(R11), Z18 // 1e-3
	VBROADCASTSD 272(R11), Z19 // 1e-2
	VBROADCASTSD 304(R11), Z20 // 2^-8
	MOVQ    $1, AX
	VPBROADCASTQ AX, Z16 // 1
	VPXORQ  Z10, Z10, Z10 // count < 1e-4
	VPXORQ  Z11, Z11, Z11 // < 1e-3
	VPXORQ  Z12, Z12, Z12 // < 1e-2
	VPXORQ  Z13, Z13, Z13 // < 2^-8

lloop:
	LEAQ 7(CX), AX
	CMPQ AX, DX
	JGE  ldone
	VMOVUPD (SI)(CX*8), Z6 // b
	VMOVUPD (DI)(CX*8), Z7 // d
	VMULPD  Z7, Z6, Z8
	VMOVAPD Z8, 0(R12)
	VMULPD  Z7, Z7, Z8
	VMOVAPD Z8, 64(R12)
	VMULPD  Z6, Z6, Z8
	VMOVAPD Z8, 128(R12)
	VADDPD  0(R12), X0, X0 // dot += b·d: elements i, i+1
	VADDPD  64(R12), X1, X1 // nn += d·d
	VADDPD  128(R12), X2, X2 // gg += b·b
	VADDPD  16(R12), X0, X0 // i+2, i+3
	VADDPD  80(R12), X1, X1
	VADDPD  144(R12), X2, X2
	VADDPD  32(R12), X0, X0 // i+4, i+5
	VADDPD  96(R12), X1, X1
	VADDPD  160(R12), X2, X2
	VADDPD  48(R12), X0, X0 // i+6, i+7
	VADDPD  112(R12), X1, X1
	VADDPD  176(R12), X2, X2
	TESTQ   BX, BX
	JEQ     lnocast
	VCVTPD2PS Z6, Y8
	VCVTPS2PD Y8, Z8
	VMOVUPD   Z8, (R8)(CX*8) // bench_in_dev = float32(b)

lnocast:
	VSUBPD  Z6, Z7, Z8   // d − b
	VPANDQ  Z3, Z8, Z8   // ev = |d − b|
	VPANDQ  Z3, Z6, Z9
	VADDPD  Z4, Z9, Z9   // |b| + eps
	VDIVPD  Z9, Z8, Z14  // rv
	VMOVUPD Z8, (R9)(CX*8)
	VMOVUPD Z14, (R10)(CX*8)
	VCMPPD  $1, Z17, Z14, K1
	VPADDQ  Z16, Z10, K1, Z10
	VCMPPD  $1, Z18, Z14, K1
	VPADDQ  Z16, Z11, K1, Z11
	VCMPPD  $1, Z19, Z14, K1
	VPADDQ  Z16, Z12, K1, Z12
	VCMPPD  $1, Z20, Z14, K1
	VPADDQ  Z16, Z13, K1, Z13
	VCMPPD  $2, Z5, Z8, K2 // ev <= mae
	KORTESTB K2, K2
	JCC     ldone          // not in every lane
	ADDQ    $8, CX
	JMP     lloop

ldone:
	VMOVUPD X0, 0(R11)
	VMOVUPD X1, 16(R11)
	VMOVUPD X2, 32(R11)
	VEXTRACTI64X4 $1, Z10, Y9
	VPADDQ  Y9, Y10, Y10
	VEXTRACTI64X4 $1, Z11, Y9
	VPADDQ  Y9, Y11, Y11
	VPSLLQ  $32, Y11, Y11
	VPADDQ  Y11, Y10, Y10
	VPADDQ  80(R11), Y10, Y10
	VMOVDQU Y10, 80(R11)  // count < 1e-4 | < 1e-3
	VEXTRACTI64X4 $1, Z12, Y9
	VPADDQ  Y9, Y12, Y12
	VEXTRACTI64X4 $1, Z13, Y9
	VPADDQ  Y9, Y13, Y13
	VPSLLQ  $32, Y13, Y13
	VPADDQ  Y13, Y12, Y12
	VPADDQ  112(R11), Y12, Y12
	VMOVDQU Y12, 112(R11) // count < 1e-2 | < 2^-8
	VZEROUPPER
	MOVQ CX, ret+72(FP)
	RET

// func absOctsAVX512(b, bd, d, e, r *float64, from, n int, st *absState) int
//
// absQuadsAVX2 over the octets i, ..., i+7 while i+7 < n. It stops at an
// octet with a non-finite device or bench_in_dev value (the caller judges
// it) and returns the octet's index, or the index where it ran out.
TEXT ·absOctsAVX512(SB), NOSPLIT, $0-72
	MOVQ b+0(FP), SI
	MOVQ bd+8(FP), DI
	MOVQ d+16(FP), R8
	MOVQ e+24(FP), R9
	MOVQ r+32(FP), R10
	MOVQ from+40(FP), CX
	MOVQ n+48(FP), DX
	MOVQ st+56(FP), R11

	VPXORQ Z3, Z3, Z3 // small
	VPXORQ Z4, Z4, Z4 // smallErr
	VPXORQ Z5, Z5, Z5 // normal
	VPXORQ Z6, Z6, Z6 // normalFail
	MOVQ   $1, AX
	VPBROADCASTQ AX, Z16       // 1
	VBROADCASTSD 128(R11), Z17 // |·| mask
	VBROADCASTSD 160(R11), Z18 // small-value threshold
	VBROADCASTSD 192(R11), Z19 // atol
	VBROADCASTSD 224(R11), Z20 // rtol

aloop:
	LEAQ 7(CX), AX
	CMPQ AX, DX
	JGE  adone
	VFPCLASSPDZ $0x99, (R8)(CX*8), K1 // d NaN or infinite
	VFPCLASSPDZ $0x99, (DI)(CX*8), K2 // bd NaN or infinite
	KORTESTB K1, K2
	JNE     adone
	VPANDQ  (SI)(CX*8), Z17, Z12
	VCMPPD  $2, Z18, Z12, K1       // small: |b| <= sv
	KNOTB   K1, K2                 // normal: not small
	VMOVUPD (R9)(CX*8), Z9
	VCMPPD  $14, Z19, Z9, K1, K3   // small and abs_err > atol
	VMOVUPD (R10)(CX*8), Z10
	VCMPPD  $14, Z20, Z10, K2, K4  // normal and rel_err > rtol
	VPADDQ  Z16, Z3, K1, Z3
	VPADDQ  Z16, Z4, K3, Z4
	VPADDQ  Z16, Z5, K2, Z5
	VPADDQ  Z16, Z6, K4, Z6
	ADDQ    $8, CX
	JMP     aloop

adone:
	VEXTRACTI64X4 $1, Z3, Y9
	VPADDQ  Y9, Y3, Y3
	VPADDQ  0(R11), Y3, Y3
	VMOVDQU Y3, 0(R11)
	VEXTRACTI64X4 $1, Z4, Y9
	VPADDQ  Y9, Y4, Y4
	VPADDQ  32(R11), Y4, Y4
	VMOVDQU Y4, 32(R11)
	VEXTRACTI64X4 $1, Z5, Y9
	VPADDQ  Y9, Y5, Y5
	VPADDQ  64(R11), Y5, Y5
	VMOVDQU Y5, 64(R11)
	VEXTRACTI64X4 $1, Z6, Y9
	VPADDQ  Y9, Y6, Y6
	VPADDQ  96(R11), Y6, Y6
	VMOVDQU Y6, 96(R11)
	VZEROUPPER
	MOVQ CX, ret+64(FP)
	RET

// func ulpOctsAVX512(b, d *float64, from, n int, st *ulpState) int
//
// ulpQuadsAVX2 over the octets i, ..., i+7 while i+7 < n: the sum element
// by element, the maximum per lane, the count above the threshold. It
// stops at an octet needing ulpLoop's slow cases and returns its index,
// or where it ran out.
TEXT ·ulpOctsAVX512(SB), NOSPLIT, $128-48
	MOVQ b+0(FP), SI
	MOVQ d+8(FP), DI
	MOVQ from+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ st+32(FP), R11
	LEAQ 63(SP), R12
	ANDQ $~63, R12 // 64 bytes of scratch, aligned

	VMOVSD  0(R11), X0 // sum
	VMOVUPD 16(R11), Y1
	VINSERTF64X4 $1, Y1, Z1, Z1 // max, in both halves
	VPXORQ  Z2, Z2, Z2          // over
	VPBROADCASTQ 80(R11), Z4    // exponent mask
	VPBROADCASTQ 112(R11), Z3   // corner mask
	VPBROADCASTQ 144(R11), Z5   // 2046<<52
	VPBROADCASTQ 176(R11), Z15  // 2045<<52
	VBROADCASTSD 208(R11), Z6   // 2^-min_eb
	VBROADCASTSD 240(R11), Z7   // 2^mant
	VBROADCASTSD 272(R11), Z8   // zero power
	VBROADCASTSD 304(R11), Z9   // threshold
	VPBROADCASTQ 336(R11), Z17  // |·| mask
	MOVQ    $1, AX
	VPBROADCASTQ AX, Z16        // 1

uloop:
	LEAQ 7(CX), AX
	CMPQ AX, DX
	JGE  udone
	VMOVUPD  (SI)(CX*8), Z10 // b
	VMOVUPD  (DI)(CX*8), Z11 // d
	VPANDQ   Z4, Z10, Z12    // b's exponent bits
	VPCMPGTQ Z15, Z12, K1    // exponent field > 2045: b ≥ 2^1022, inf or NaN
	VPANDQ   Z3, Z10, Z14
	VPCMPEQQ Z3, Z14, K2     // mantissa just below a power of two
	VFPCLASSPDZ $0x99, Z11, K3 // d not finite
	KORB     K1, K2, K1
	KORTESTB K1, K3
	JNE      udone
	VPSUBQ   Z12, Z5, Z14    // 2^−e_b (b normal) or 2^1023 (b zero or subnormal)
	VMINPD   Z6, Z14, Z14
	VMULPD   Z7, Z14, Z14    // 2^(mant − max(e_b, min_eb))
	VPTESTNMQ Z17, Z10, K2   // b == ±0
	VMOVAPD  Z8, K2, Z14
	VSUBPD   Z10, Z11, Z11   // d − b
	VMULPD   Z14, Z11, Z11
	VPANDQ   Z17, Z11, Z11   // ulp
	VMAXPD   Z11, Z1, Z1
	VCMPPD   $14, Z9, Z11, K1 // ulp > threshold
	VPADDQ   Z16, Z2, K1, Z2
	VMOVAPD  Z11, 0(R12)
	VADDSD   0(R12), X0, X0
	VADDSD   8(R12), X0, X0
	VADDSD   16(R12), X0, X0
	VADDSD   24(R12), X0, X0
	VADDSD   32(R12), X0, X0
	VADDSD   40(R12), X0, X0
	VADDSD   48(R12), X0, X0
	VADDSD   56(R12), X0, X0
	ADDQ     $8, CX
	JMP      uloop

udone:
	VMOVSD  X0, 0(R11)
	VEXTRACTF64X4 $1, Z1, Y9
	VMAXPD  Y9, Y1, Y1
	VMOVUPD Y1, 16(R11)
	VEXTRACTI64X4 $1, Z2, Y9
	VPADDQ  Y9, Y2, Y2
	VPADDQ  48(R11), Y2, Y2
	VMOVDQU Y2, 48(R11)
	VZEROUPPER
	MOVQ CX, ret+40(FP)
	RET

// func legacyBenchOctsAVX512(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState, bst *benchState) int
//
// legacyOctsAVX512 and benchOctsAVX512 in one loop: each octet's legacy
// work, then its benchmark-standard work on the same registers (bd, |d−b|
// and rel_err as the legacy part leaves them in bd, e and r). Each sum
// keeps its own chain and order, so the results are the two loops' bit for
// bit; the loop stops where legacyOctsAVX512 stops, after the octet's
// benchmark work too.
TEXT ·legacyBenchOctsAVX512(SB), NOSPLIT, $384-88
	MOVQ    b+0(FP), SI
	MOVQ    d+8(FP), DI
	MOVQ    bd+16(FP), R8
	MOVQ    e+24(FP), R9
	MOVQ    r+32(FP), R10
	MOVQ    from+40(FP), CX
	MOVQ    n+48(FP), DX
	MOVBQZX cast+56(FP), BX
	MOVQ    st+64(FP), R11
	MOVQ    bst+72(FP), R13
	LEAQ    63(SP), R12
	ANDQ    $~63, R12 // 320 bytes of scratch, aligned

	VMOVUPD 0(R11), X0    // dot
	VMOVUPD 16(R11), X1   // nn
	VMOVUPD 32(R11), X2   // gg
	VBROADCASTSD 48(R11), Z5   // mae
	VBROADCASTSD 144(R11), Z3  // |·| mask
	VBROADCASTSD 176(R11), Z4  // eps
	VBROADCASTSD 208(R11), Z17 // 1e-4
	VBROADCASTSD 240(R11), Z18 // 1e-3
	VBROADCASTSD 272(R11), Z19 // 1e-2
	VBROADCASTSD 304(R11), Z20 // 2^-8
	MOVQ    $1, AX
	VPBROADCASTQ AX, Z16 // 1
	VPXORQ  Z10, Z10, Z10 // count < 1e-4
	VPXORQ  Z11, Z11, Z11 // < 1e-3
	VPXORQ  Z12, Z12, Z12 // < 1e-2
	VPXORQ  Z13, Z13, Z13 // < 2^-8
	VMOVSD  0(R13), X29   // sq
	VMOVSD  8(R13), X30   // reSum
	VMOVUPD 16(R13), Y21
	VINSERTF64X4 $1, Y21, Z21, Z21 // reMax, in both halves
	VPXORQ  Z22, Z22, Z22 // pos
	VPXORQ  Z23, Z23, Z23 // neg
	VPXORQ  Z24, Z24, Z24 // small
	VPXORQ  Z25, Z25, Z25 // smallErr
	VPXORQ  Z26, Z26, Z26 // reCnt
	VBROADCASTSD 176(R13), Z27 // small-value threshold
	VBROADCASTSD 208(R13), Z28 // atol

fbloop:
	LEAQ 7(CX), AX
	CMPQ AX, DX
	JGE  fbdone
	VMOVUPD (SI)(CX*8), Z6 // b
	VMOVUPD (DI)(CX*8), Z7 // d
	VMULPD  Z7, Z6, Z8
	VMOVAPD Z8, 0(R12)
	VMULPD  Z7, Z7, Z8
	VMOVAPD Z8, 64(R12)
	VMULPD  Z6, Z6, Z8
	VMOVAPD Z8, 128(R12)
	VADDPD  0(R12), X0, X0 // dot += b·d: elements i, i+1
	VADDPD  64(R12), X1, X1 // nn += d·d
	VADDPD  128(R12), X2, X2 // gg += b·b
	VADDPD  16(R12), X0, X0 // i+2, i+3
	VADDPD  80(R12), X1, X1
	VADDPD  144(R12), X2, X2
	VADDPD  32(R12), X0, X0 // i+4, i+5
	VADDPD  96(R12), X1, X1
	VADDPD  160(R12), X2, X2
	VADDPD  48(R12), X0, X0 // i+6, i+7
	VADDPD  112(R12), X1, X1
	VADDPD  176(R12), X2, X2
	VMOVAPD Z6, Z31 // bench_in_dev = b
	TESTQ   BX, BX
	JEQ     fbnocast
	VCVTPD2PS Z6, Y31
	VCVTPS2PD Y31, Z31
	VMOVUPD   Z31, (R8)(CX*8) // bench_in_dev = float32(b)

fbnocast:
	VSUBPD  Z6, Z7, Z8   // d − b
	VPANDQ  Z3, Z8, Z8   // ev = |d − b|
	VPANDQ  Z3, Z6, Z15  // |b|
	VADDPD  Z4, Z15, Z9  // |b| + eps
	VDIVPD  Z9, Z8, Z14  // rv
	VMOVUPD Z8, (R9)(CX*8)
	VMOVUPD Z14, (R10)(CX*8)
	VCMPPD  $1, Z17, Z14, K1
	VPADDQ  Z16, Z10, K1, Z10
	VCMPPD  $1, Z18, Z14, K1
	VPADDQ  Z16, Z11, K1, Z11
	VCMPPD  $1, Z19, Z14, K1
	VPADDQ  Z16, Z12, K1, Z12
	VCMPPD  $1, Z20, Z14, K1
	VPADDQ  Z16, Z13, K1, Z13
	// the benchmark loop's octet (benchOctsAVX512) from registers
	VCMPPD  $14, Z31, Z7, K1 // d > bd
	VPADDQ  Z16, Z22, K1, Z22
	VCMPPD  $1, Z31, Z7, K1  // d < bd
	VPADDQ  Z16, Z23, K1, Z23
	VFPCLASSPDZ $0x99, Z7, K2  // d NaN or infinite
	VFPCLASSPDZ $0x99, Z31, K3 // bd NaN or infinite
	KORB    K2, K3, K2
	KNOTB   K2, K2             // finite
	VCMPPD  $2, Z27, Z15, K2, K3   // small: finite and |b| <= sv
	VCMPPD  $6, Z27, Z15, K2, K4   // normal: finite and not small
	VCMPPD  $14, Z28, Z8, K3, K1   // small and abs_err > atol
	VPADDQ  Z16, Z25, K1, Z25
	VPADDQ  Z16, Z24, K3, Z24
	VPADDQ  Z16, Z26, K4, Z26
	VMULPD.Z Z8, Z8, K4, Z9        // abs_err², 0 where masked
	VMOVAPD.Z Z14, K4, Z15         // rel_err, 0 where masked
	VMAXPD  Z14, Z21, K4, Z21
	VMOVAPD Z9, 192(R12)
	VMOVAPD Z15, 256(R12)
	VADDSD  192(R12), X29, X29 // element i
	VADDSD  256(R12), X30, X30
	VADDSD  200(R12), X29, X29
	VADDSD  264(R12), X30, X30
	VADDSD  208(R12), X29, X29
	VADDSD  272(R12), X30, X30
	VADDSD  216(R12), X29, X29
	VADDSD  280(R12), X30, X30
	VADDSD  224(R12), X29, X29
	VADDSD  288(R12), X30, X30
	VADDSD  232(R12), X29, X29
	VADDSD  296(R12), X30, X30
	VADDSD  240(R12), X29, X29
	VADDSD  304(R12), X30, X30
	VADDSD  248(R12), X29, X29 // i+7
	VADDSD  312(R12), X30, X30
	VCMPPD  $2, Z5, Z8, K2 // ev <= mae
	KORTESTB K2, K2
	JCC     fbdone          // not in every lane
	ADDQ    $8, CX
	JMP     fbloop

fbdone:
	VMOVUPD X0, 0(R11)
	VMOVUPD X1, 16(R11)
	VMOVUPD X2, 32(R11)
	VEXTRACTI64X4 $1, Z10, Y9
	VPADDQ  Y9, Y10, Y10
	VEXTRACTI64X4 $1, Z11, Y9
	VPADDQ  Y9, Y11, Y11
	VPSLLQ  $32, Y11, Y11
	VPADDQ  Y11, Y10, Y10
	VPADDQ  80(R11), Y10, Y10
	VMOVDQU Y10, 80(R11)  // count < 1e-4 | < 1e-3
	VEXTRACTI64X4 $1, Z12, Y9
	VPADDQ  Y9, Y12, Y12
	VEXTRACTI64X4 $1, Z13, Y9
	VPADDQ  Y9, Y13, Y13
	VPSLLQ  $32, Y13, Y13
	VPADDQ  Y13, Y12, Y12
	VPADDQ  112(R11), Y12, Y12
	VMOVDQU Y12, 112(R11) // count < 1e-2 | < 2^-8
	VMOVSD  X29, 0(R13)
	VMOVSD  X30, 8(R13)
	VEXTRACTF64X4 $1, Z21, Y9
	VMAXPD  Y9, Y21, Y21
	VMOVUPD Y21, 16(R13)
	VEXTRACTI64X4 $1, Z22, Y9
	VPADDQ  Y9, Y22, Y22
	VEXTRACTI64X4 $1, Z23, Y9
	VPADDQ  Y9, Y23, Y23
	VPSLLQ  $32, Y23, Y23
	VPADDQ  Y23, Y22, Y22
	VPADDQ  48(R13), Y22, Y22
	VMOVDQU64 Y22, 48(R13)        // pos | neg
	VEXTRACTI64X4 $1, Z24, Y9
	VPADDQ  Y9, Y24, Y24
	VEXTRACTI64X4 $1, Z25, Y9
	VPADDQ  Y9, Y25, Y25
	VPSLLQ  $32, Y25, Y25
	VPADDQ  Y25, Y24, Y24
	VPADDQ  80(R13), Y24, Y24
	VMOVDQU64 Y24, 80(R13)        // small | smallErr
	VEXTRACTI64X4 $1, Z26, Y9
	VPADDQ  Y9, Y26, Y26
	VPADDQ  112(R13), Y26, Y26
	VMOVDQU64 Y26, 112(R13)       // reCnt
	VZEROUPPER
	MOVQ CX, ret+80(FP)
	RET

// func legacyULPOctsAVX512(b, d, bd, e, r *float64, from, n int, cast bool, st *legacyState, ust *ulpState) (i int, slow bool)
//
// legacyOctsAVX512 and ulpOctsAVX512 in one loop: each octet's legacy work,
// then its ULP work, each sum on its own chain in its own order, so the
// results are the two loops' bit for bit. It stops after an octet whose
// |d−b| is not ≤ mae in every lane, or that needs the ULP loop's slow
// cases (then slow is set and the octet's ULP work is left to the
// caller), and returns the octet's index; it returns i with i+7 ≥ n when
// done.
TEXT ·legacyULPOctsAVX512(SB), NOSPLIT, $320-89
	MOVQ    b+0(FP), SI
	MOVQ    d+8(FP), DI
	MOVQ    bd+16(FP), R8
	MOVQ    e+24(FP), R9
	MOVQ    r+32(FP), R10
	MOVQ    from+40(FP), CX
	MOVQ    n+48(FP), DX
	MOVBQZX cast+56(FP), BX
	MOVQ    st+64(FP), R11
	MOVQ    ust+72(FP), R13
	MOVB    $0, slow+88(FP)
	LEAQ    63(SP), R12
	ANDQ    $~63, R12 // 256 bytes of scratch, aligned

	VMOVUPD 0(R11), X0    // dot
	VMOVUPD 16(R11), X1   // nn
	VMOVUPD 32(R11), X2   // gg
	VBROADCASTSD 48(R11), Z5   // mae
	VBROADCASTSD 144(R11), Z3  // |·| mask
	VBROADCASTSD 176(R11), Z4  // eps
	VBROADCASTSD 208(R11), Z17 // 1e-4
	VBROADCASTSD 240(R11), Z18 // 1e-3
	VBROADCASTSD 272(R11), Z19 // 1e-2
	VBROADCASTSD 304(R11), Z20 // 2^-8
	MOVQ    $1, AX
	VPBROADCASTQ AX, Z16 // 1
	VPXORQ  Z10, Z10, Z10 // count < 1e-4
	VPXORQ  Z11, Z11, Z11 // < 1e-3
	VPXORQ  Z12, Z12, Z12 // < 1e-2
	VPXORQ  Z13, Z13, Z13 // < 2^-8
	VMOVSD  0(R13), X29 // ULP sum
	VMOVUPD 16(R13), Y21
	VINSERTF64X4 $1, Y21, Z21, Z21 // ULP max, in both halves
	VPXORQ  Z22, Z22, Z22          // ULP over
	VPBROADCASTQ 80(R13), Z23      // exponent mask
	VPBROADCASTQ 112(R13), Z24     // corner mask
	VPBROADCASTQ 144(R13), Z25     // 2046<<52
	VPBROADCASTQ 176(R13), Z26     // 2045<<52
	VBROADCASTSD 208(R13), Z27     // 2^-min_eb
	VBROADCASTSD 240(R13), Z28     // 2^mant
	VBROADCASTSD 272(R13), Z30     // zero power
	VBROADCASTSD 304(R13), Z31     // ULP threshold

fuloop:
	LEAQ 7(CX), AX
	CMPQ AX, DX
	JGE  fudone
	VMOVUPD (SI)(CX*8), Z6 // b
	VMOVUPD (DI)(CX*8), Z7 // d
	VPANDQ  Z23, Z6, Z15   // b's exponent bits
	VPCMPGTQ Z26, Z15, K3  // exponent field > 2045: b ≥ 2^1022, inf or NaN
	VPANDQ  Z24, Z6, Z9
	VPCMPEQQ Z24, Z9, K4   // mantissa just below a power of two
	VFPCLASSPDZ $0x99, Z7, K5 // d not finite
	KORB    K3, K4, K3
	KORB    K3, K5, K6     // the ULP loop's slow cases
	VMULPD  Z7, Z6, Z8
	VMOVAPD Z8, 0(R12)
	VMULPD  Z7, Z7, Z8
	VMOVAPD Z8, 64(R12)
	VMULPD  Z6, Z6, Z8
	VMOVAPD Z8, 128(R12)
	VADDPD  0(R12), X0, X0 // dot += b·d: elements i, i+1
	VADDPD  64(R12), X1, X1 // nn += d·d
	VADDPD  128(R12), X2, X2 // gg += b·b
	VADDPD  16(R12), X0, X0 // i+2, i+3
	VADDPD  80(R12), X1, X1
	VADDPD  144(R12), X2, X2
	VADDPD  32(R12), X0, X0 // i+4, i+5
	VADDPD  96(R12), X1, X1
	VADDPD  160(R12), X2, X2
	VADDPD  48(R12), X0, X0 // i+6, i+7
	VADDPD  112(R12), X1, X1
	VADDPD  176(R12), X2, X2
	TESTQ   BX, BX
	JEQ     funocast
	VCVTPD2PS Z6, Y8
	VCVTPS2PD Y8, Z8
	VMOVUPD   Z8, (R8)(CX*8) // bench_in_dev = float32(b)

funocast:
	VSUBPD  Z6, Z7, Z8   // d − b
	VPANDQ  Z3, Z8, Z8   // ev = |d − b|
	VPANDQ  Z3, Z6, Z9
	VADDPD  Z4, Z9, Z9   // |b| + eps
	VDIVPD  Z9, Z8, Z14  // rv
	VMOVUPD Z8, (R9)(CX*8)
	VMOVUPD Z14, (R10)(CX*8)
	VCMPPD  $1, Z17, Z14, K1
	VPADDQ  Z16, Z10, K1, Z10
	VCMPPD  $1, Z18, Z14, K1
	VPADDQ  Z16, Z11, K1, Z11
	VCMPPD  $1, Z19, Z14, K1
	VPADDQ  Z16, Z12, K1, Z12
	VCMPPD  $1, Z20, Z14, K1
	VPADDQ  Z16, Z13, K1, Z13
	VCMPPD  $2, Z5, Z8, K2 // ev <= mae
	KORTESTB K6, K6
	JNE     fuslow
	// the ULP loop's octet (ulpOctsAVX512)
	VPSUBQ  Z15, Z25, Z14  // 2^−e_b (b normal) or 2^1023 (b zero or subnormal)
	VMINPD  Z27, Z14, Z14
	VMULPD  Z28, Z14, Z14  // 2^(mant − max(e_b, min_eb))
	VPTESTNMQ Z3, Z6, K4   // b == ±0
	VMOVAPD Z30, K4, Z14
	VSUBPD  Z6, Z7, Z8     // d − b
	VMULPD  Z14, Z8, Z8
	VPANDQ  Z3, Z8, Z8     // ulp
	VMAXPD  Z8, Z21, Z21
	VCMPPD  $14, Z31, Z8, K1 // ulp > threshold
	VPADDQ  Z16, Z22, K1, Z22
	VMOVAPD Z8, 192(R12)
	VADDSD  192(R12), X29, X29
	VADDSD  200(R12), X29, X29
	VADDSD  208(R12), X29, X29
	VADDSD  216(R12), X29, X29
	VADDSD  224(R12), X29, X29
	VADDSD  232(R12), X29, X29
	VADDSD  240(R12), X29, X29
	VADDSD  248(R12), X29, X29
	KORTESTB K2, K2
	JCC     fudone          // |d−b| not ≤ mae in every lane
	ADDQ    $8, CX
	JMP     fuloop

fuslow:
	MOVB    $1, slow+88(FP) // the octet's ULP work is the caller's

fudone:
	VMOVUPD X0, 0(R11)
	VMOVUPD X1, 16(R11)
	VMOVUPD X2, 32(R11)
	VEXTRACTI64X4 $1, Z10, Y9
	VPADDQ  Y9, Y10, Y10
	VEXTRACTI64X4 $1, Z11, Y9
	VPADDQ  Y9, Y11, Y11
	VPSLLQ  $32, Y11, Y11
	VPADDQ  Y11, Y10, Y10
	VPADDQ  80(R11), Y10, Y10
	VMOVDQU Y10, 80(R11)  // count < 1e-4 | < 1e-3
	VEXTRACTI64X4 $1, Z12, Y9
	VPADDQ  Y9, Y12, Y12
	VEXTRACTI64X4 $1, Z13, Y9
	VPADDQ  Y9, Y13, Y13
	VPSLLQ  $32, Y13, Y13
	VPADDQ  Y13, Y12, Y12
	VPADDQ  112(R11), Y12, Y12
	VMOVDQU Y12, 112(R11) // count < 1e-2 | < 2^-8
	VMOVSD  X29, 0(R13)
	VEXTRACTF64X4 $1, Z21, Y9
	VMAXPD  Y9, Y21, Y21
	VMOVUPD Y21, 16(R13)
	VEXTRACTI64X4 $1, Z22, Y9
	VPADDQ  Y9, Y22, Y22
	VPADDQ  48(R13), Y22, Y22
	VMOVDQU64 Y22, 48(R13)
	VZEROUPPER
	MOVQ CX, i+80(FP)
	RET
