package pcg

import (
	"math/rand/v2"
	"testing"
)

// TestMatchesMathRand holds PCG to math/rand/v2's: the same draws from the
// same seeds, Advance(n) lands where n draws do, and Floats gives Float64's
// values at every length (blocks and the rest).
func TestMatchesMathRand(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {11, 0x6a09e667f3bcc909}, {0xdeadbeefcafef00d, ^uint64(0)}} {
		r := rand.NewPCG(seed[0], seed[1])
		p := New(seed[0], seed[1])
		for i := range 1000 {
			if a, b := r.Uint64(), p.Uint64(); a != b {
				t.Fatalf("seeds %d draw %d: math/rand %#x, pcg %#x", seed, i, a, b)
			}
		}
		for _, n := range []uint64{0, 1, 2, 3, 63, 64, 65536, 1<<16 + 7, 1<<20 + 12345} {
			seq := New(seed[0], seed[1])
			for range n {
				seq.Uint64()
			}
			jump := New(seed[0], seed[1])
			jump.Advance(n)
			if seq != jump {
				t.Fatalf("seeds %d: Advance(%d) gives %#x, %d draws %#x", seed, n, jump, n, seq)
			}
		}
		for _, n := range []int{0, 1, 511, BlockLen, BlockLen + 1, 3*BlockLen + 17} {
			rr := rand.New(rand.NewPCG(seed[0], seed[1]))
			p := New(seed[0], seed[1])
			u := make([]float64, n)
			p.Floats(u)
			for i, v := range u {
				if want := rr.Float64(); v != want {
					t.Fatalf("seeds %d, Floats of %d: draw %d is %v, want %v", seed, n, i, v, want)
				}
			}
			if a, b := rr.Float64(), p.Float64(); a != b { // the state after
				t.Fatalf("seeds %d, after Floats of %d: %v, want %v", seed, n, b, a)
			}
		}
	}
}
