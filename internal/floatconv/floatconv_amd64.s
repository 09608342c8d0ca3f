#include "textflag.h"

// func float32sAVX2(dst *float64, src *float32, n int)
TEXT ·float32sAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	XORQ CX, CX

f32loop:
	CMPQ CX, DX
	JGE  f32done
	VCVTPS2PD 0(SI)(CX*4), Y0
	VCVTPS2PD 16(SI)(CX*4), Y1
	VMOVUPD   Y0, 0(DI)(CX*8)
	VMOVUPD   Y1, 32(DI)(CX*8)
	ADDQ $8, CX
	JMP  f32loop

f32done:
	VZEROUPPER
	RET

// func bfloat16sAVX2(dst *float64, src *uint16, n int)
TEXT ·bfloat16sAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	XORQ CX, CX

bf16loop:
	CMPQ CX, DX
	JGE  bf16done
	VPMOVZXWD 0(SI)(CX*2), Y0 // eight bit patterns, zero-extended
	VPSLLD    $16, Y0, Y0     // the float32 with the same value
	VCVTPS2PD X0, Y1
	VEXTRACTI128 $1, Y0, X0
	VCVTPS2PD X0, Y2
	VMOVUPD   Y1, 0(DI)(CX*8)
	VMOVUPD   Y2, 32(DI)(CX*8)
	ADDQ $8, CX
	JMP  bf16loop

bf16done:
	VZEROUPPER
	RET

// func hf32sAVX2(dst *float64, src *uint32, n int)
TEXT ·hf32sAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	XORQ CX, CX
	MOVL $0x800, AX
	VMOVD AX, X14
	VPBROADCASTD X14, Y14 // half of the twelve bits dropped
	MOVL $0xFFFFF000, AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15 // the bits HF32 keeps

hf32loop:
	CMPQ CX, DX
	JGE  hf32done
	VMOVDQU   0(SI)(CX*4), Y0
	VPADDD    Y14, Y0, Y0
	VPAND     Y15, Y0, Y0
	VCVTPS2PD X0, Y1
	VEXTRACTI128 $1, Y0, X0
	VCVTPS2PD X0, Y2
	VMOVUPD   Y1, 0(DI)(CX*8)
	VMOVUPD   Y2, 32(DI)(CX*8)
	ADDQ $8, CX
	JMP  hf32loop

hf32done:
	VZEROUPPER
	RET

// func toFloat32sAVX2(dst *float32, src *float64, n int)
TEXT ·toFloat32sAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	XORQ CX, CX

f64loop:
	CMPQ CX, DX
	JGE  f64done
	VCVTPD2PSY 0(SI)(CX*8), X0
	VCVTPD2PSY 32(SI)(CX*8), X1
	VMOVUPS    X0, 0(DI)(CX*4)
	VMOVUPS    X1, 16(DI)(CX*4)
	ADDQ $8, CX
	JMP  f64loop

f64done:
	VZEROUPPER
	RET

// func toBFloat16sAVX2(dst *uint16, src *float64, from, n int) int
//
// BFloat16's normal-range path over the quads i, i+1, i+2, i+3 (i = from,
// from+4, ...) while i+3 < n: the significand rounded to 7 bits, ties to
// even, on the float64 bits (b += 2^44 − 1 + (b>>45 & 1); b &^= 2^45 − 1),
// then the exact (or overflowing) float32 conversion's top half. Zeros
// take the same steps unchanged. It stops at a quad with another value
// outside the normal range (exponent field below 1023−126, or NaN/Inf) and
// returns its index, or where it ran out.
TEXT ·toBFloat16sAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ from+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ $0x7ff, AX
	MOVQ AX, X8
	VPBROADCASTQ X8, Y8   // exponent mask
	MOVQ $896, AX
	MOVQ AX, X9
	VPBROADCASTQ X9, Y9   // 1023−126−1
	MOVQ $0x7ff, AX
	MOVQ AX, X10
	VPBROADCASTQ X10, Y10 // 2047
	MOVQ $1, AX
	MOVQ AX, X11
	VPBROADCASTQ X11, Y11 // 1
	MOVQ $0xfffffffffff, AX
	MOVQ AX, X12
	VPBROADCASTQ X12, Y12 // 2^44 − 1
	MOVQ $0x1fffffffffff, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13 // 2^45 − 1
	MOVQ $0x7fffffffffffffff, AX
	MOVQ AX, X14
	VPBROADCASTQ X14, Y14 // |·| mask
	VPXOR Y15, Y15, Y15

bfloop:
	LEAQ 3(CX), AX
	CMPQ AX, DX
	JGE  bfdone
	VMOVDQU  (SI)(CX*8), Y0
	VPSRLQ   $52, Y0, Y1
	VPAND    Y8, Y1, Y1         // exponent field
	VPCMPGTQ Y9, Y1, Y2         // ≥ 1023−126
	VPCMPGTQ Y1, Y10, Y3        // < 2047
	VPAND    Y3, Y2, Y2
	VPAND    Y14, Y0, Y3
	VPCMPEQQ Y15, Y3, Y3        // ±0
	VPOR     Y3, Y2, Y2
	VMOVMSKPD Y2, AX
	CMPQ     AX, $15
	JNE      bfdone
	VPSRLQ   $45, Y0, Y1
	VPAND    Y11, Y1, Y1        // b>>45 & 1
	VPADDQ   Y12, Y0, Y0
	VPADDQ   Y1, Y0, Y0
	VPANDN   Y0, Y13, Y0        // &^ (2^45 − 1)
	VCVTPD2PSY Y0, X0
	VPSRLD   $16, X0, X0
	VPACKUSDW X0, X0, X0
	VMOVQ    X0, (DI)(CX*2)
	ADDQ     $4, CX
	JMP      bfloop

bfdone:
	VZEROUPPER
	MOVQ CX, ret+32(FP)
	RET
