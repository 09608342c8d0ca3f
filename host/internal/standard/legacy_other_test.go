//go:build !amd64

package standard

// The loops' switches, which eachLoop64 flips, where there is no assembly.
var quadsAVX2, octsAVX512 = false, false
