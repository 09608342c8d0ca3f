#include "textflag.h"

// LERP loads four float64 draws u from (SI) and leaves in Y0
// max(lowS, min(highS, lowS + u·d)) with Go's min and max (−0 below +0;
// lowS, highS and the lerp are never NaN here). Y10: lowS, Y11: d, Y12:
// highS; clobbers Y1-Y3. v = lowS + u·d; m = min(highS, v) is v where
// v < highS, highS | v where they are equal (−0 wins), else highS; then
// max(lowS, m) is m where lowS < m, lowS & m where equal (+0 wins), else
// lowS.
#define LERP \
	VMOVUPD   (SI), Y0        \
	VMULPD    Y11, Y0, Y0     \
	VADDPD    Y0, Y10, Y0     \
	VCMPPD    $1, Y12, Y0, Y1 \
	VCMPPD    $0, Y12, Y0, Y2 \
	VANDPD    Y0, Y2, Y2      \
	VORPD     Y12, Y2, Y2     \
	VBLENDVPD Y1, Y0, Y2, Y0  \
	VCMPPD    $1, Y0, Y10, Y1 \
	VCMPPD    $0, Y0, Y10, Y2 \
	VANDPD    Y0, Y10, Y3     \
	VBLENDVPD Y2, Y3, Y10, Y3 \
	VBLENDVPD Y1, Y0, Y3, Y0

// func fillF32AVX2(dst *float32, u *float64, n int, c *fillConsts)
//
// The float32 loop of fillRange over n elements (a multiple of 4), four at
// a time: v = lowS + u·d, kept inside [lowS, highS] by Go's min and max
// (−0 below +0; lowS, highS and v are never NaN here), rounded to float32
// and replaced by float32(lo) or float32(hi) outside [lo, hi]. c: lowS, d,
// highS, lo, hi, float64(float32(lo)), float64(float32(hi)), each in four
// lanes.
TEXT ·fillF32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ u+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), AX
	VMOVUPD 0(AX), Y10   // lowS
	VMOVUPD 32(AX), Y11  // d
	VMOVUPD 64(AX), Y12  // highS
	VMOVUPD 96(AX), Y13  // lo
	VMOVUPD 128(AX), Y14 // hi
	VMOVUPD 160(AX), Y15 // float64(float32(lo))
	VMOVUPD 192(AX), Y9  // float64(float32(hi))
	SHRQ    $2, CX
	JZ      fdone

floop:
	LERP
	VCVTPD2PSY Y0, X0         // f
	VCVTPS2PD X0, Y1          // float64(f)
	VCMPPD    $14, Y14, Y1, Y2 // > hi
	VCMPPD    $1, Y13, Y1, Y3  // < lo
	VBLENDVPD Y2, Y9, Y1, Y1
	VBLENDVPD Y3, Y15, Y1, Y1  // < lo is tested first in Go: it wins
	VCVTPD2PSY Y1, X0
	VMOVUPS   X0, (DI)
	ADDQ      $32, SI
	ADDQ      $16, DI
	DECQ      CX
	JNZ       floop

fdone:
	VZEROUPPER
	RET

// func lerpAVX2(u *float64, n int, c *fillConsts)
//
// The first half of fillF32AVX2 in place: u = max(lowS, min(highS,
// lowS + u·d)) over n elements (a multiple of 4).
TEXT ·lerpAVX2(SB), NOSPLIT, $0-24
	MOVQ u+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ c+16(FP), AX
	VMOVUPD 0(AX), Y10   // lowS
	VMOVUPD 32(AX), Y11  // d
	VMOVUPD 64(AX), Y12  // highS
	SHRQ    $2, CX
	JZ      ldone

lloop:
	LERP
	VMOVUPD   Y0, (SI)
	ADDQ      $32, SI
	DECQ      CX
	JNZ       lloop

ldone:
	VZEROUPPER
	RET
