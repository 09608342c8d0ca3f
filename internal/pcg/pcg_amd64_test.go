package pcg

import (
	"math/rand/v2"
	"testing"
)

// TestBlockMatchesLanes holds the AVX-512 block of draws to the Go
// one, value for value and in the state it leaves, from random states
// (whose 128-bit steps carry from the low half in about half the lanes).
func TestBlockMatchesLanes(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 (F, DQ) on this machine: draws16AVX512 never runs")
	}
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 200 {
		start := PCG{r.Uint64(), r.Uint64()}
		if trial == 0 {
			start = PCG{^uint64(0), ^uint64(0)}
		}
		want, got := make([]float64, BlockLen), make([]float64, BlockLen)
		pw, pg := start, start
		pw.lanes(want)
		if !pg.block(got) {
			t.Fatal("block did not run")
		}
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("trial %d draw %d: %v, want %v", trial, i, got[i], want[i])
			}
		}
		if pw != pg {
			t.Fatalf("trial %d: state after the block %#x, want %#x", trial, pg, pw)
		}
	}
}

func BenchmarkBlock(b *testing.B) {
	u := make([]float64, BlockLen)
	b.Run("lanes", func(b *testing.B) {
		p := New(1, 2)
		for b.Loop() {
			p.lanes(u)
		}
	})
	if useAVX512 {
		b.Run("avx512", func(b *testing.B) {
			p := New(1, 2)
			for b.Loop() {
				p.block(u)
			}
		})
	}
}
