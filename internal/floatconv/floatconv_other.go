//go:build !amd64

package floatconv

const useAVX2 = false

func float32sAVX2(dst *float64, src *float32, n int) { panic("floatconv: no AVX2") }

func bfloat16sAVX2(dst *float64, src *uint16, n int) { panic("floatconv: no AVX2") }

func hf32sAVX2(dst *float64, src *uint32, n int) { panic("floatconv: no AVX2") }

func toFloat32sAVX2(dst *float32, src *float64, n int) { panic("floatconv: no AVX2") }

func toBFloat16sAVX2(dst *uint16, src *float64, from, n int) int { panic("floatconv: no AVX2") }
