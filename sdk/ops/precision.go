package ops

import (
	le "encoding/binary"
	"math"
	"unsafe"

	"github.com/probe-dev/probe/internal/floatconv"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Precision holds the reduced-precision modes a call asks the device for,
// as the framework would have them on during training. The zero value asks
// for none.
type Precision struct {
	// HF32: float32 inputs of the op are computed as HF32 (Ascend's
	// "half-float32", 1 sign, 8 exponent and 11 mantissa bits), as
	// torch_npu does for convolutions by default. A device that has the
	// mode turns it on; a device that has not rounds every float32 input
	// tensor with RoundHF32 before computing.
	HF32 bool
}

// RoundHF32 rounds a float32 value to HF32 and back, the way msprobe
// emulates HF32: on the bit pattern p, (p + 0x800) & 0xFFFFF000 (round half
// away from zero in magnitude; values near the float32 maximum can round to
// infinity).
func RoundHF32(x float32) float32 {
	return math.Float32frombits((math.Float32bits(x) + 0x800) & 0xFFFFF000)
}

// RoundHF32Tensor returns a copy of a float32 tensor with every element
// rounded by RoundHF32; other dtypes are returned unchanged.
func RoundHF32Tensor(t *tensor.Tensor) *tensor.Tensor {
	if t == nil || t.DType != tensor.Float32 {
		return t
	}
	out := t.Clone()
	d := out.Data
	for i := 0; i+4 <= len(d); i += 4 {
		le.LittleEndian.PutUint32(d[i:], (le.LittleEndian.Uint32(d[i:])+0x800)&0xFFFFF000)
	}
	return out
}

// HF32Float64s sets dst[i] to element i of the float32 tensor t rounded
// by RoundHF32, as a float64, for every i < len(dst): RoundHF32Tensor and
// the widening in one pass, without a copy of t.
func HF32Float64s(dst []float64, t *tensor.Tensor) {
	n := len(dst)
	if n == 0 {
		return
	}
	b := t.Data[:n*4]
	if p := unsafe.Pointer(&b[0]); uintptr(p)%4 == 0 && le.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		floatconv.FromHF32s(dst, unsafe.Slice((*uint32)(p), n))
		return
	}
	for i := range dst {
		dst[i] = float64(RoundHF32(math.Float32frombits(le.LittleEndian.Uint32(b[i*4:]))))
	}
}
