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
