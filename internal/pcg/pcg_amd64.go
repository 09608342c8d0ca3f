package pcg

import "golang.org/x/sys/cpu"

// useAVX512 says whether blocks of draws run in AVX-512 (draws16AVX512):
// 64-bit multiplies (DQ) and conversions of unsigned 64-bit integers.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// pcgConsts are draws16AVX512's constants (see there).
type pcgConsts [11]uint64

//go:noescape
func draws16AVX512(u *float64, st *[4][8]uint64, iters int, c *pcgConsts)

// jump16 and jumpBlock are 16 and BlockLen steps of the LCG.
var (
	jump16    = jumpOf(16)
	jumpBlock = jumpOf(BlockLen)
	consts16  = pcgConsts{jump16.mulLo, jump16.mulHi, jump16.plusLo, jump16.plusHi,
		jump16.mulLo & (1<<32 - 1), jump16.mulLo >> 32, 1<<32 - 1, 1, cheapMul, 1<<53 - 1, 0x3ca0000000000000} // 2^-53
)

// block is lanes on sixteen interleaved streams in AVX-512 where the
// machine has it: lane j starts at the state after draw j and steps 16
// draws at a time, so the block holds the same values in the same order.
// It reports false where it cannot run.
func (p *PCG) block(u []float64) bool {
	if !useAVX512 || len(u) != BlockLen {
		return false
	}
	var st [4][8]uint64
	s := *p
	for j := range 16 {
		s.hi, s.lo = step(s.hi, s.lo)
		set := j / 8 * 2
		st[set][j%8], st[set+1][j%8] = s.hi, s.lo
	}
	draws16AVX512(&u[0], &st, len(u)/16, &consts16)
	jumpBlock.apply(p)
	return true
}
