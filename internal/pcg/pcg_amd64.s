#include "textflag.h"

// STEP advances eight PCG states (hi in HI, lo in LO) by the jump in the
// constant registers: (hi, lo) = (hi, lo)·(Z21, Z20) + (Z23, Z22) modulo
// 2^128, with the high half of lo·mulLo formed from 32-bit products (Z24:
// mulLo's low 32 bits, Z25: its high 32 bits, Z26: 2^32 − 1, Z27: 1).
// T1-T5 are scratch.
#define STEP(HI, LO, T1, T2, T3, T4, T5) \
	VPSRLQ   $32, LO, T1       \ // lo's high half
	VPMULUDQ Z24, LO, T2       \ // lo0·m0
	VPMULUDQ Z25, LO, T3       \ // lo0·m1
	VPMULUDQ Z24, T1, T4       \ // lo1·m0
	VPMULUDQ Z25, T1, T1       \ // lo1·m1
	VPSRLQ   $32, T2, T2       \
	VPANDQ   Z26, T3, T5       \
	VPADDQ   T5, T2, T2        \
	VPANDQ   Z26, T4, T5       \
	VPADDQ   T5, T2, T2        \ // the middle column, carries included
	VPSRLQ   $32, T3, T3       \
	VPADDQ   T3, T1, T1        \
	VPSRLQ   $32, T4, T4       \
	VPADDQ   T4, T1, T1        \
	VPSRLQ   $32, T2, T2       \
	VPADDQ   T2, T1, T1        \ // mulhi(lo, mulLo)
	VPMULLQ  Z20, HI, T2       \ // hi·mulLo
	VPMULLQ  Z21, LO, T3       \ // lo·mulHi
	VPMULLQ  Z20, LO, LO       \ // lo·mulLo
	VPADDQ   T2, T1, T1        \
	VPADDQ   T3, T1, T1        \
	VPADDQ   Z23, T1, HI       \ // + plusHi
	VPADDQ   Z22, LO, T4       \ // + plusLo
	VPCMPUQ  $1, LO, T4, K1    \ // the low half wrapped: carry
	VMOVDQA64 T4, LO           \
	VPADDQ   Z27, HI, K1, HI

// OUT stores the DXSM output of eight states (hi in HI, lo in LO) as
// float64 draws in [0, 1) at DST: h = hi ^ hi>>32; h *= Z28 (DXSM's
// multiplier); h ^= h>>48; h *= lo|1; the low 53 bits of h (Z29) times
// 2^-53 (Z30). T1, T2 are scratch.
#define OUT(HI, LO, T1, T2, DST) \
	VPSRLQ     $32, HI, T1 \
	VPXORQ     HI, T1, T1  \
	VPMULLQ    Z28, T1, T1 \
	VPSRLQ     $48, T1, T2 \
	VPXORQ     T2, T1, T1  \
	VPORQ      Z27, LO, T2 \
	VPMULLQ    T2, T1, T1  \
	VPANDQ     Z29, T1, T1 \
	VCVTUQQ2PD T1, T1      \
	VMULPD     Z30, T1, T1 \
	VMOVUPD    T1, DST

// func draws16AVX512(u *float64, st *[4][8]uint64, iters int, c *pcgConsts)
//
// Sixteen interleaved streams of one PCG sequence: lane j (st's hi and lo
// of set A for j < 8, of set B for j ≥ 8) holds the state after draw j
// and advances by the 16-step jump in c, so that iteration i stores draws
// 16i … 16i+15 in order. c: mulLo, mulHi, plusLo, plusHi of the jump,
// mulLo's 32-bit halves, 2^32 − 1, 1, DXSM's multiplier, 2^53 − 1, 2^-53.
TEXT ·draws16AVX512(SB), NOSPLIT, $0-32
	MOVQ u+0(FP), DI
	MOVQ st+8(FP), SI
	MOVQ iters+16(FP), CX
	MOVQ c+24(FP), AX
	VPBROADCASTQ 0(AX), Z20
	VPBROADCASTQ 8(AX), Z21
	VPBROADCASTQ 16(AX), Z22
	VPBROADCASTQ 24(AX), Z23
	VPBROADCASTQ 32(AX), Z24
	VPBROADCASTQ 40(AX), Z25
	VPBROADCASTQ 48(AX), Z26
	VPBROADCASTQ 56(AX), Z27
	VPBROADCASTQ 64(AX), Z28
	VPBROADCASTQ 72(AX), Z29
	VPBROADCASTQ 80(AX), Z30
	VMOVDQU64 0(SI), Z0   // set A: hi
	VMOVDQU64 64(SI), Z1  // set A: lo
	VMOVDQU64 128(SI), Z2 // set B: hi
	VMOVDQU64 192(SI), Z3 // set B: lo
	TESTQ CX, CX
	JZ    done

loop:
	OUT(Z0, Z1, Z4, Z5, 0(DI))
	OUT(Z2, Z3, Z10, Z11, 64(DI))
	STEP(Z0, Z1, Z4, Z5, Z6, Z7, Z8)
	STEP(Z2, Z3, Z10, Z11, Z12, Z13, Z14)
	ADDQ $128, DI
	DECQ CX
	JNZ  loop

done:
	VMOVDQU64 Z0, 0(SI)
	VMOVDQU64 Z1, 64(SI)
	VMOVDQU64 Z2, 128(SI)
	VMOVDQU64 Z3, 192(SI)
	VZEROUPPER
	RET
