//go:build !amd64

package cpu

// gemmHasFMA is false where there is no assembly micro-kernel.
var gemmHasFMA = false

func gemmKernelFMA(kc int, a, b, c []float64, ldc int) { gemmKernelGo(kc, a, b, c, ldc) }

// sgemmKernelFMA is never called where gemmHasFMA is false.
func sgemmKernelFMA(kc int, a, b, c []float32, ldc int) { panic("cpu: no float32 micro-kernel") }
