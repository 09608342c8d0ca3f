//go:build !amd64

package cpu

// gemmHasFMA is false where there is no assembly micro-kernel.
var gemmHasFMA = false

func gemmKernelFMA(kc int, a, b, c []float64, ldc int) { gemmKernelGo(kc, a, b, c, ldc) }
