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

// func storeBF16AVX2(dst *uint16, u *float64, n int, c *bf16Consts)
//
// storeClamped's bfloat16 loop over n values (a multiple of 8), eight at a
// time: f = float32(u) (to nearest even), h = the bfloat16 nearest f (ties
// to even, on the bits: (f + 0x7fff + (f>>16 & 1)) >> 16), replaced by
// hiBits where h's value is above hi, then by loBits where below lo (lo
// is tested first in Go: it wins), and by 0x7fc0 where u is NaN. The
// bounds compare in float32, exact for bounds that are float32 values
// (the caller checks). c: lo and hi as float32, loBits, hiBits, 0x7fff, 1,
// 0x7fc0, each in eight 32-bit lanes.
TEXT ·storeBF16AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ u+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), AX
	VMOVDQU 0(AX), Y8    // lo
	VMOVDQU 32(AX), Y9   // hi
	VMOVDQU 64(AX), Y10  // loBits
	VMOVDQU 96(AX), Y11  // hiBits
	VMOVDQU 128(AX), Y12 // 0x7fff
	VMOVDQU 160(AX), Y13 // 1
	VMOVDQU 192(AX), Y14 // 0x7fc0
	SHRQ    $3, CX
	JZ      bdone

bloop:
	VCVTPD2PSY  0(SI), X0
	VCVTPD2PSY  32(SI), X1
	VINSERTF128 $1, X1, Y0, Y0 // f: eight float32
	VCMPPS      $3, Y0, Y0, Y7 // NaN
	VPSRLD      $16, Y0, Y1
	VPAND       Y13, Y1, Y1
	VPADDD      Y12, Y0, Y2
	VPADDD      Y1, Y2, Y2
	VPSRLD      $16, Y2, Y2    // h
	VPSLLD      $16, Y2, Y3    // h's value as a float32
	VCMPPS      $14, Y9, Y3, Y4 // > hi
	VPBLENDVB   Y4, Y11, Y2, Y2
	VCMPPS      $1, Y8, Y3, Y4  // < lo
	VPBLENDVB   Y4, Y10, Y2, Y2
	VPBLENDVB   Y7, Y14, Y2, Y2
	VEXTRACTI128 $1, Y2, X3
	VPACKUSDW   X3, X2, X2     // eight uint16
	VMOVDQU     X2, (DI)
	ADDQ        $64, SI
	ADDQ        $16, DI
	DECQ        CX
	JNZ         bloop

bdone:
	VZEROUPPER
	RET
