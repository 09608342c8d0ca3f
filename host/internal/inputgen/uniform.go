package inputgen

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/sdk/tensor"
)

// pcg is math/rand/v2's PCG (128-bit LCG, DXSM output), bit for bit — the
// generator newRand returns — with a jump ahead, so that the chunks of one
// tensor are drawn in parallel and still give exactly the values of one
// sequential stream. TestPCGMatchesMathRand holds it to math/rand/v2.
type pcg struct{ hi, lo uint64 }

const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407

	// pcgCheapMul is DXSM's multiplier.
	pcgCheapMul = 0xda942042e4dd58b5
)

func newPCG(seed uint64) pcg { return pcg{seed, mix(seed ^ 0x6a09e667f3bcc909)} }

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

func (p *pcg) uint64() uint64 {
	hi, lo := mul128(p.hi, p.lo, pcgMulHi, pcgMulLo)
	hi, lo = add128(hi, lo, pcgIncHi, pcgIncLo)
	p.hi, p.lo = hi, lo
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// float64 is rand.Rand.Float64: 53 random bits in [0, 1).
func (p *pcg) float64() float64 { return float64(p.uint64()<<11>>11) / (1 << 53) }

// advance moves the generator n steps ahead in O(log n) (Brown, "Random
// number generation with arbitrary strides", 1994).
func (p *pcg) advance(n uint64) {
	j := jumpOf(n)
	j.apply(p)
}

// jump is the affine map of n steps of the LCG: state' = mul·state + plus.
type jump struct{ mulHi, mulLo, plusHi, plusLo uint64 }

func jumpOf(n uint64) jump {
	accHi, accLo := uint64(0), uint64(1) // multiplier
	plusHi, plusLo := uint64(0), uint64(0)
	curHi, curLo := uint64(pcgMulHi), uint64(pcgMulLo)
	incHi, incLo := uint64(pcgIncHi), uint64(pcgIncLo)
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			accHi, accLo = mul128(accHi, accLo, curHi, curLo)
			plusHi, plusLo = mul128(plusHi, plusLo, curHi, curLo)
			plusHi, plusLo = add128(plusHi, plusLo, incHi, incLo)
		}
		// inc' = (cur+1)·inc, cur' = cur²
		c1Hi, c1Lo := add128(curHi, curLo, 0, 1)
		incHi, incLo = mul128(c1Hi, c1Lo, incHi, incLo)
		curHi, curLo = mul128(curHi, curLo, curHi, curLo)
	}
	return jump{accHi, accLo, plusHi, plusLo}
}

func (j jump) apply(p *pcg) {
	p.hi, p.lo = mul128(j.mulHi, j.mulLo, p.hi, p.lo)
	p.hi, p.lo = add128(p.hi, p.lo, j.plusHi, j.plusLo)
}

// uniformChunk is the number of elements one goroutine draws at a time. It
// only shapes the work: every element i is the stream's draw i whatever
// the chunking and the number of goroutines.
const uniformChunk = 1 << 16

// fillUniform stores n uniform draws from the stream seeded with seed into
// data (n elements of dt): element i is lerp(lowS, highS, u_i) kept inside
// [lowS, highS], rounded to dt and, when clamp is set, kept inside the
// representable bounds [lo, hi]. Chunks go to all cores.
func fillUniform(dt tensor.DType, data []byte, n int, seed uint64, lowS, highS, lo, hi float64, clamp bool) {
	if !clamp {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	base := newPCG(seed)
	parallel.Chunks(n, uniformChunk, func(from, to int) error {
		p := base
		p.advance(uint64(from))
		fillRange(dt, data, from, to, &p, lowS, highS, lo, hi)
		return nil
	})
}

// draws fills u with the next len(u) values of float64, the state kept in
// registers. A block of drawLanes·laneLen values is drawn as drawLanes
// interleaved streams, lane j starting laneLen·j draws in (a jump ahead),
// so that the steps of the lanes, which do not depend on each other,
// overlap in the processor: the same values, about twice as fast as one
// chain of dependent 128-bit multiplications.
func (p *pcg) draws(u []float64) {
	if len(u) == drawLanes*laneLen {
		if !p.drawBlock(u) {
			p.drawLanes(u)
		}
		return
	}
	shi, slo := p.hi, p.lo
	for i := range u {
		shi, slo = pcgStep(shi, slo)
		u[i] = pcgOut(shi, slo)
	}
	p.hi, p.lo = shi, slo
}

const (
	drawLanes = 4
	laneLen   = 128
)

// laneJump is laneLen steps of the LCG.
var laneJump = jumpOf(laneLen)

// pcgStep is one step of the LCG.
func pcgStep(hi, lo uint64) (uint64, uint64) {
	h, l := bits.Mul64(lo, pcgMulLo)
	h += hi*pcgMulLo + lo*pcgMulHi
	l, c := bits.Add64(l, pcgIncLo, 0)
	h, _ = bits.Add64(h, pcgIncHi, c)
	return h, l
}

// pcgOut is the DXSM output of a state as a float64 in [0, 1).
func pcgOut(hi, lo uint64) float64 {
	hi ^= hi >> 32
	hi *= pcgCheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return float64(hi<<11>>11) / (1 << 53)
}

func (p *pcg) drawLanes(u []float64) {
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
		h0, l0 = pcgStep(h0, l0)
		h1, l1 = pcgStep(h1, l1)
		h2, l2 = pcgStep(h2, l2)
		h3, l3 = pcgStep(h3, l3)
		u0[i] = pcgOut(h0, l0)
		u1[i] = pcgOut(h1, l1)
		u2[i] = pcgOut(h2, l2)
		u3[i] = pcgOut(h3, l3)
	}
	// the last lane ends where the block ends
	p.hi, p.lo = h3, l3
}

// fillRange draws elements [from, to) with p positioned at draw from, in
// blocks: the draws, then one loop per dtype that scales, clamps and
// stores them.
func fillRange(dt tensor.DType, data []byte, from, to int, p *pcg, lowS, highS, lo, hi float64) {
	d := highS - lowS
	wide := math.IsInf(d, 0)
	var buf [512]float64
	for off := from; off < to; off += len(buf) {
		u := buf[:min(len(buf), to-off)]
		p.draws(u)
		if dt == tensor.Float32 && !wide {
			if f := float32View(data[off*4:], len(u)); f != nil {
				storeF32(f, u, lowS, highS, d, lo, hi)
				continue
			}
		}
		// u becomes lerp(lowS, highS, u) inside [lowS, highS]; min and max
		// are math.Min and math.Max (NaN and signed zeros included).
		if wide {
			for i, x := range u {
				u[i] = max(lowS, min(highS, lowS*(1-x)+highS*x))
			}
		} else {
			lerpClamped(u, lowS, highS, d)
		}
		storeClamped(dt, data[off*dt.Size():], u, lo, hi)
	}
}

// lerpGo is fillRange's lerp: u becomes lowS + u·d kept inside [lowS,
// highS].
func lerpGo(u []float64, lowS, highS, d float64) {
	for i, x := range u {
		u[i] = max(lowS, min(highS, lowS+x*d))
	}
}

// storeF32Go is the loops below in one, for the common dtype: the same
// expressions, stored through a typed view.
func storeF32Go(f []float32, u []float64, lowS, highS, d, lo, hi float64) {
	f = f[:len(u)]
	for i, x := range u {
		v := float32(max(lowS, min(highS, lowS+x*d)))
		if float64(v) < lo {
			v = float32(lo)
		} else if float64(v) > hi {
			v = float32(hi)
		}
		f[i] = v
	}
}

// storeClamped stores u as dt values, rounded to nearest and kept inside
// [lo, hi].
func storeClamped(dt tensor.DType, data []byte, u []float64, lo, hi float64) {
	switch dt {
	case tensor.Float64:
		b := data[:len(u)*8]
		for i, v := range u {
			if v < lo {
				v = lo
			} else if v > hi {
				v = hi
			}
			binary.LittleEndian.PutUint64(b[i*8:], math.Float64bits(v))
		}
	case tensor.Float32:
		b := data[:len(u)*4]
		for i, v := range u {
			f := float32(v)
			if float64(f) < lo {
				f = float32(lo)
			} else if float64(f) > hi {
				f = float32(hi)
			}
			binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(f))
		}
	case tensor.Float16:
		loBits, hiBits := tensor.Float16Bits(lo), tensor.Float16Bits(hi)
		b := data[:len(u)*2]
		for i, v := range u {
			h := float32ToFloat16(float32(v))
			if math.IsNaN(v) {
				h = 0x7e00
			} else if val := float16Value(h); val < lo {
				h = loBits
			} else if val > hi {
				h = hiBits
			}
			binary.LittleEndian.PutUint16(b[i*2:], h)
		}
	default: // BFloat16
		loBits, hiBits := tensor.BFloat16Bits(lo), tensor.BFloat16Bits(hi)
		b := data[:len(u)*2]
		for i, v := range u {
			h := float32ToBFloat16(float32(v))
			if math.IsNaN(v) {
				h = 0x7fc0
			} else if val := float64(math.Float32frombits(uint32(h) << 16)); val < lo {
				h = loBits
			} else if val > hi {
				h = hiBits
			}
			binary.LittleEndian.PutUint16(b[i*2:], h)
		}
	}
}

// float32View is the first n float32 values of b as a []float32 sharing
// its memory, or nil when the machine is big-endian or b is not aligned.
func float32View(b []byte, n int) []float32 {
	if !nativeLittleEndian || n == 0 || len(b) < 4*n || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 != 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// nativeLittleEndian is true where tensor bytes are native values.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
