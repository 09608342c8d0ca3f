// Package pcg is math/rand/v2's PCG generator (128-bit LCG, DXSM output),
// bit for bit, with what a bulk user needs: a jump ahead in O(log n), so
// that chunks of one stream are drawn in parallel and still give exactly
// the values of the sequential stream, and Floats, which draws blocks of
// float64 values on interleaved streams (sixteen lanes in AVX-512 where
// the machine has it). TestMatchesMathRand holds it to math/rand/v2.
package pcg

import "math/bits"

// PCG is the generator's state: math/rand/v2's rand.NewPCG(seed1, seed2)
// is New(seed1, seed2).
type PCG struct{ hi, lo uint64 }

// New returns the generator math/rand/v2's NewPCG(seed1, seed2) returns.
func New(seed1, seed2 uint64) PCG { return PCG{seed1, seed2} }

const (
	mulHi = 2549297995355413924
	mulLo = 4865540595714422341
	incHi = 6364136223846793005
	incLo = 1442695040888963407

	// cheapMul is DXSM's multiplier.
	cheapMul = 0xda942042e4dd58b5
)

// mul128 and add128 are arithmetic modulo 2^128.
func mul128(ahi, alo, bhi, blo uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(alo, blo)
	hi += ahi*blo + alo*bhi
	return hi, lo
}

func add128(ahi, alo, bhi, blo uint64) (hi, lo uint64) {
	lo, c := bits.Add64(alo, blo, 0)
	hi, _ = bits.Add64(ahi, bhi, c)
	return hi, lo
}

// Uint64 is rand.PCG.Uint64: the next draw.
func (p *PCG) Uint64() uint64 {
	hi, lo := mul128(p.hi, p.lo, mulHi, mulLo)
	hi, lo = add128(hi, lo, incHi, incLo)
	p.hi, p.lo = hi, lo
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// Float64 is rand.Rand.Float64 over this generator: 53 random bits in
// [0, 1).
func (p *PCG) Float64() float64 { return float64(p.Uint64()<<11>>11) / (1 << 53) }

// Advance moves the generator n draws ahead in O(log n) (Brown, "Random
// number generation with arbitrary strides", 1994).
func (p *PCG) Advance(n uint64) {
	j := jumpOf(n)
	j.apply(p)
}

// jump is the affine map of n steps of the LCG: state' = mul·state + plus.
type jump struct{ mulHi, mulLo, plusHi, plusLo uint64 }

func jumpOf(n uint64) jump {
	accHi, accLo := uint64(0), uint64(1) // multiplier
	plusHi, plusLo := uint64(0), uint64(0)
	curHi, curLo := uint64(mulHi), uint64(mulLo)
	iHi, iLo := uint64(incHi), uint64(incLo)
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			accHi, accLo = mul128(accHi, accLo, curHi, curLo)
			plusHi, plusLo = mul128(plusHi, plusLo, curHi, curLo)
			plusHi, plusLo = add128(plusHi, plusLo, iHi, iLo)
		}
		// inc' = (cur+1)·inc, cur' = cur²
		c1Hi, c1Lo := add128(curHi, curLo, 0, 1)
		iHi, iLo = mul128(c1Hi, c1Lo, iHi, iLo)
		curHi, curLo = mul128(curHi, curLo, curHi, curLo)
	}
	return jump{accHi, accLo, plusHi, plusLo}
}

func (j jump) apply(p *PCG) {
	p.hi, p.lo = mul128(j.mulHi, j.mulLo, p.hi, p.lo)
	p.hi, p.lo = add128(p.hi, p.lo, j.plusHi, j.plusLo)
}

// Floats fills u with the next len(u) values of Float64, in blocks of
// BlockLen drawn on interleaved streams: lane j of a block starts j
// draws in (a jump ahead), so that the steps of the lanes, which do not
// depend on each other, overlap in the processor — the same values,
// several times faster than one chain of dependent 128-bit
// multiplications.
func (p *PCG) Floats(u []float64) {
	for len(u) >= BlockLen {
		if !p.block(u[:BlockLen]) {
			p.lanes(u[:BlockLen])
		}
		u = u[BlockLen:]
	}
	shi, slo := p.hi, p.lo
	for i := range u {
		shi, slo = step(shi, slo)
		u[i] = out(shi, slo)
	}
	p.hi, p.lo = shi, slo
}

// BlockLen is the draws of one block of Floats: callers that draw in
// pieces of this length (or a multiple) get every draw from a block.
const BlockLen = nLanes * laneLen

const (
	nLanes  = 4
	laneLen = 128
)

// laneJump is laneLen steps of the LCG.
var laneJump = jumpOf(laneLen)

// step is one step of the LCG.
func step(hi, lo uint64) (uint64, uint64) {
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	return h, l
}

// out is the DXSM output of a state as a float64 in [0, 1).
func out(hi, lo uint64) float64 {
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return float64(hi<<11>>11) / (1 << 53)
}

// lanes draws one block in Go on four streams, lane j starting laneLen·j
// draws in, the states kept in registers.
func (p *PCG) lanes(u []float64) {
	s0 := *p
	s1 := s0
	laneJump.apply(&s1)
	s2 := s1
	laneJump.apply(&s2)
	s3 := s2
	laneJump.apply(&s3)
	h0, l0, h1, l1, h2, l2, h3, l3 := s0.hi, s0.lo, s1.hi, s1.lo, s2.hi, s2.lo, s3.hi, s3.lo
	u0, u1, u2, u3 := u[:laneLen], u[laneLen:2*laneLen], u[2*laneLen:3*laneLen], u[3*laneLen:4*laneLen]
	for i := range u0 {
		h0, l0 = step(h0, l0)
		h1, l1 = step(h1, l1)
		h2, l2 = step(h2, l2)
		h3, l3 = step(h3, l3)
		u0[i] = out(h0, l0)
		u1[i] = out(h1, l1)
		u2[i] = out(h2, l2)
		u3[i] = out(h3, l3)
	}
	// the last lane ends where the block ends
	p.hi, p.lo = h3, l3
}
