package floatconv

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2

// float32sAVX2 widens n float32 values (n a multiple of 8).
//
//go:noescape
func float32sAVX2(dst *float64, src *float32, n int)

// bfloat16sAVX2 widens n bfloat16 values (n a multiple of 8).
//
//go:noescape
func bfloat16sAVX2(dst *float64, src *uint16, n int)

// hf32sAVX2 rounds n float32 bit patterns to HF32 and widens them (n a
// multiple of 8).
//
//go:noescape
func hf32sAVX2(dst *float64, src *uint32, n int)

// toFloat32sAVX2 narrows n float64 values (n a multiple of 8).
//
//go:noescape
func toFloat32sAVX2(dst *float32, src *float64, n int)

// toBFloat16sAVX2 rounds the quads from `from` on to bfloat16 while they
// are in BFloat16's normal range (see the assembly).
//
//go:noescape
func toBFloat16sAVX2(dst *uint16, src *float64, from, n int) int
