//go:build !amd64

package pcg

// block has no assembly version here.
func (p *PCG) block(u []float64) bool { return false }
