//go:build !amd64

package inputgen

// lerpClamped is lerpGo where there is no assembly version.
func lerpClamped(u []float64, lowS, highS, d float64) { lerpGo(u, lowS, highS, d) }

// storeF32 is storeF32Go where there is no assembly version.
func storeF32(f []float32, u []float64, lowS, highS, d, lo, hi float64) {
	storeF32Go(f, u, lowS, highS, d, lo, hi)
}

// storeBF16 has no assembly version here: storeClamped stores every value.
func storeBF16(dst []byte, u []float64, lo, hi float64) int { return 0 }
