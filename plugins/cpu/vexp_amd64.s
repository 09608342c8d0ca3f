#include "textflag.h"

// Vector form of Go's math.Exp on amd64 (its FMA path), four float64 lanes
// per step, evaluating for every lane exactly the operations the scalar
// code does, in the same order, so that each result has the same bits:
//
//	k  = int32(x·log2e), rounded to nearest
//	r  = ((x − k·ln2hi) − k·ln2lo)·(1/16)       (both steps fused)
//	p  = Horner over 1/8! … 1/3!, 1/2, 1 in r   (fused)
//	e  = r·p; then three times e = e·(e+2); then e = e·(e+2) + 1 (fused)
//	   (e^(16r) by squaring e^r − 1 four times)
//	result = e·2^k, or (e·2^(k+1022))·2^−1022 for a subnormal result;
//	0 when k+1023 < −52 (also −Inf and any very negative x),
//	+Inf when x > 709.782712893384 or k+1023 > 2046, and x itself for NaN.
//
// A multiplication by 1.0 is exact, so the normal and the subnormal
// scaling share one code path: e·s1·s2 with s2 = 1 for normal results.

// 1/ln 2
DATA vexpLog2e<>+0(SB)/8, $1.4426950408889634073599246810018920
DATA vexpLog2e<>+8(SB)/8, $1.4426950408889634073599246810018920
DATA vexpLog2e<>+16(SB)/8, $1.4426950408889634073599246810018920
DATA vexpLog2e<>+24(SB)/8, $1.4426950408889634073599246810018920
GLOBL vexpLog2e<>(SB), RODATA|NOPTR, $32

// ln 2, upper part
DATA vexpLn2Hi<>+0(SB)/8, $0.69314718055966295651160180568695068359375
DATA vexpLn2Hi<>+8(SB)/8, $0.69314718055966295651160180568695068359375
DATA vexpLn2Hi<>+16(SB)/8, $0.69314718055966295651160180568695068359375
DATA vexpLn2Hi<>+24(SB)/8, $0.69314718055966295651160180568695068359375
GLOBL vexpLn2Hi<>(SB), RODATA|NOPTR, $32

// ln 2, lower part
DATA vexpLn2Lo<>+0(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA vexpLn2Lo<>+8(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA vexpLn2Lo<>+16(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA vexpLn2Lo<>+24(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
GLOBL vexpLn2Lo<>(SB), RODATA|NOPTR, $32

DATA vexpSixteenth<>+0(SB)/8, $0.0625
DATA vexpSixteenth<>+8(SB)/8, $0.0625
DATA vexpSixteenth<>+16(SB)/8, $0.0625
DATA vexpSixteenth<>+24(SB)/8, $0.0625
GLOBL vexpSixteenth<>(SB), RODATA|NOPTR, $32

// 1/8!
DATA vexpC8<>+0(SB)/8, $2.4801587301587301587e-5
DATA vexpC8<>+8(SB)/8, $2.4801587301587301587e-5
DATA vexpC8<>+16(SB)/8, $2.4801587301587301587e-5
DATA vexpC8<>+24(SB)/8, $2.4801587301587301587e-5
GLOBL vexpC8<>(SB), RODATA|NOPTR, $32

// 1/7!
DATA vexpC7<>+0(SB)/8, $1.9841269841269841270e-4
DATA vexpC7<>+8(SB)/8, $1.9841269841269841270e-4
DATA vexpC7<>+16(SB)/8, $1.9841269841269841270e-4
DATA vexpC7<>+24(SB)/8, $1.9841269841269841270e-4
GLOBL vexpC7<>(SB), RODATA|NOPTR, $32

// 1/6!
DATA vexpC6<>+0(SB)/8, $1.3888888888888888889e-3
DATA vexpC6<>+8(SB)/8, $1.3888888888888888889e-3
DATA vexpC6<>+16(SB)/8, $1.3888888888888888889e-3
DATA vexpC6<>+24(SB)/8, $1.3888888888888888889e-3
GLOBL vexpC6<>(SB), RODATA|NOPTR, $32

// 1/5!
DATA vexpC5<>+0(SB)/8, $8.3333333333333333333e-3
DATA vexpC5<>+8(SB)/8, $8.3333333333333333333e-3
DATA vexpC5<>+16(SB)/8, $8.3333333333333333333e-3
DATA vexpC5<>+24(SB)/8, $8.3333333333333333333e-3
GLOBL vexpC5<>(SB), RODATA|NOPTR, $32

// 1/4!
DATA vexpC4<>+0(SB)/8, $4.1666666666666666667e-2
DATA vexpC4<>+8(SB)/8, $4.1666666666666666667e-2
DATA vexpC4<>+16(SB)/8, $4.1666666666666666667e-2
DATA vexpC4<>+24(SB)/8, $4.1666666666666666667e-2
GLOBL vexpC4<>(SB), RODATA|NOPTR, $32

// 1/3!
DATA vexpC3<>+0(SB)/8, $1.6666666666666666667e-1
DATA vexpC3<>+8(SB)/8, $1.6666666666666666667e-1
DATA vexpC3<>+16(SB)/8, $1.6666666666666666667e-1
DATA vexpC3<>+24(SB)/8, $1.6666666666666666667e-1
GLOBL vexpC3<>(SB), RODATA|NOPTR, $32

DATA vexpHalf<>+0(SB)/8, $0.5
DATA vexpHalf<>+8(SB)/8, $0.5
DATA vexpHalf<>+16(SB)/8, $0.5
DATA vexpHalf<>+24(SB)/8, $0.5
GLOBL vexpHalf<>(SB), RODATA|NOPTR, $32

DATA vexpOne<>+0(SB)/8, $1.0
DATA vexpOne<>+8(SB)/8, $1.0
DATA vexpOne<>+16(SB)/8, $1.0
DATA vexpOne<>+24(SB)/8, $1.0
GLOBL vexpOne<>(SB), RODATA|NOPTR, $32

DATA vexpTwo<>+0(SB)/8, $2.0
DATA vexpTwo<>+8(SB)/8, $2.0
DATA vexpTwo<>+16(SB)/8, $2.0
DATA vexpTwo<>+24(SB)/8, $2.0
GLOBL vexpTwo<>(SB), RODATA|NOPTR, $32

// largest argument math.Exp takes through the polynomial
DATA vexpOverflow<>+0(SB)/8, $7.09782712893384e+02
DATA vexpOverflow<>+8(SB)/8, $7.09782712893384e+02
DATA vexpOverflow<>+16(SB)/8, $7.09782712893384e+02
DATA vexpOverflow<>+24(SB)/8, $7.09782712893384e+02
GLOBL vexpOverflow<>(SB), RODATA|NOPTR, $32

// +Inf
DATA vexpInf<>+0(SB)/8, $0x7FF0000000000000
DATA vexpInf<>+8(SB)/8, $0x7FF0000000000000
DATA vexpInf<>+16(SB)/8, $0x7FF0000000000000
DATA vexpInf<>+24(SB)/8, $0x7FF0000000000000
GLOBL vexpInf<>(SB), RODATA|NOPTR, $32

// 2^-1022
DATA vexpTiny<>+0(SB)/8, $0x0010000000000000
DATA vexpTiny<>+8(SB)/8, $0x0010000000000000
DATA vexpTiny<>+16(SB)/8, $0x0010000000000000
DATA vexpTiny<>+24(SB)/8, $0x0010000000000000
GLOBL vexpTiny<>(SB), RODATA|NOPTR, $32

// exponent bias (int64 lanes)
DATA vexpBias<>+0(SB)/8, $1023
DATA vexpBias<>+8(SB)/8, $1023
DATA vexpBias<>+16(SB)/8, $1023
DATA vexpBias<>+24(SB)/8, $1023
GLOBL vexpBias<>(SB), RODATA|NOPTR, $32

// bias - 1, for subnormal results
DATA vexpBiasM1<>+0(SB)/8, $1022
DATA vexpBiasM1<>+8(SB)/8, $1022
DATA vexpBiasM1<>+16(SB)/8, $1022
DATA vexpBiasM1<>+24(SB)/8, $1022
GLOBL vexpBiasM1<>(SB), RODATA|NOPTR, $32

// biased exponents above this one are not flushed to 0
DATA vexpMinB<>+0(SB)/8, $-53
DATA vexpMinB<>+8(SB)/8, $-53
DATA vexpMinB<>+16(SB)/8, $-53
DATA vexpMinB<>+24(SB)/8, $-53
GLOBL vexpMinB<>(SB), RODATA|NOPTR, $32

// biased exponents above this one overflow
DATA vexpMaxB<>+0(SB)/8, $2046
DATA vexpMaxB<>+8(SB)/8, $2046
DATA vexpMaxB<>+16(SB)/8, $2046
DATA vexpMaxB<>+24(SB)/8, $2046
GLOBL vexpMaxB<>(SB), RODATA|NOPTR, $32

// func expAVX2(dst, src *float64, n int)
TEXT ·expAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ BX, BX
	VPXOR Y15, Y15, Y15

loop:
	CMPQ BX, CX
	JGE  done
	VMOVUPD (SI)(BX*8), Y0

	// k and the reduced argument r
	VMULPD       vexpLog2e<>(SB), Y0, Y1
	VCVTPD2DQY   Y1, X2
	VCVTDQ2PD    X2, Y1
	VMOVAPD      Y0, Y3
	VFNMADD231PD vexpLn2Hi<>(SB), Y1, Y3
	VFNMADD231PD vexpLn2Lo<>(SB), Y1, Y3
	VMULPD       vexpSixteenth<>(SB), Y3, Y3

	// polynomial
	VMOVUPD     vexpC8<>(SB), Y4
	VFMADD213PD vexpC7<>(SB), Y3, Y4
	VFMADD213PD vexpC6<>(SB), Y3, Y4
	VFMADD213PD vexpC5<>(SB), Y3, Y4
	VFMADD213PD vexpC4<>(SB), Y3, Y4
	VFMADD213PD vexpC3<>(SB), Y3, Y4
	VFMADD213PD vexpHalf<>(SB), Y3, Y4
	VFMADD213PD vexpOne<>(SB), Y3, Y4
	VMULPD      Y4, Y3, Y3

	// four squarings
	VADDPD      vexpTwo<>(SB), Y3, Y4
	VMULPD      Y4, Y3, Y3
	VADDPD      vexpTwo<>(SB), Y3, Y4
	VMULPD      Y4, Y3, Y3
	VADDPD      vexpTwo<>(SB), Y3, Y4
	VMULPD      Y4, Y3, Y3
	VADDPD      vexpTwo<>(SB), Y3, Y4
	VFMADD213PD vexpOne<>(SB), Y4, Y3

	// scaling: b = k + 1023 in int64 lanes; Y6 = (b > 0), normal result
	VPMOVSXDQ X2, Y5
	VPADDQ    vexpBias<>(SB), Y5, Y5
	VPCMPGTQ  Y15, Y5, Y6
	VPANDN    vexpBiasM1<>(SB), Y6, Y7
	VPADDQ    Y5, Y7, Y7
	VPSLLQ    $52, Y7, Y7
	VMULPD    Y7, Y3, Y3
	VMOVUPD   vexpTiny<>(SB), Y7
	VBLENDVPD Y6, vexpOne<>(SB), Y7, Y7
	VMULPD    Y7, Y3, Y3

	// underflow to +0, overflow to +Inf, NaN to itself
	VPCMPGTQ  vexpMinB<>(SB), Y5, Y6
	VANDPD    Y6, Y3, Y3
	VPCMPGTQ  vexpMaxB<>(SB), Y5, Y6
	VCMPPD    $0x1e, vexpOverflow<>(SB), Y0, Y7
	VORPD     Y7, Y6, Y6
	VBLENDVPD Y6, vexpInf<>(SB), Y3, Y3
	VCMPPD    $3, Y0, Y0, Y6
	VBLENDVPD Y6, Y0, Y3, Y3

	VMOVUPD Y3, (DI)(BX*8)
	ADDQ    $4, BX
	JMP     loop

done:
	VZEROUPPER
	RET
