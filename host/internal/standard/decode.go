package standard

import (
	"encoding/binary"
	"math"
	"sync"
	"unsafe"

	"github.com/probe-dev/probe/internal/floatconv"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Block decoding: the streaming pass reads the little-endian bytes of both
// tensors a block at a time into small float64 buffers that stay in the L1
// cache, so every metric loop runs over plain []float64 without per-element
// dtype switches, and no full-size temporary array is ever built.

// blockLen is the number of elements decoded at a time.
const blockLen = 512

// f16Table maps every binary16 bit pattern to its float32 value (256 KiB,
// built on first use).
var (
	f16Once  sync.Once
	f16Table []float32
)

func half2f32() []float32 {
	f16Once.Do(func() {
		f16Table = make([]float32, 1<<16)
		for i := range f16Table {
			f16Table[i] = float32(tensor.Float16Value(uint16(i)))
		}
	})
	return f16Table
}

// nativeLE reports whether the host is little-endian, so that tensor bytes
// can be viewed in place as []float32 / []float64.
var nativeLE = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// view returns the elements of t in place as []T when t's dtype is T
// (float32 or float64), the host is little-endian and the data is aligned;
// nil otherwise.
func view[T float](t *tensor.Tensor) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	want := tensor.Float64
	if size == 4 {
		want = tensor.Float32
	}
	if t.DType != want || !nativeLE || len(t.Data) < size {
		return nil
	}
	p := unsafe.SliceData(t.Data)
	if uintptr(unsafe.Pointer(p))%uintptr(size) != 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(p)), len(t.Data)/size)
}

// decodeFloats writes elements [off, off+len(dst)) of a tensor to dst as
// float64 (exact for every float dtype).
func decodeFloats(t *tensor.Tensor, off int, dst []float64) { decodeInto(t, off, dst) }

// decodeInto writes elements [off, off+len(dst)) of a tensor to dst. For
// T = float32 the caller guarantees the values are representable (float32,
// float16 and bfloat16 tensors).
func decodeInto[T float](t *tensor.Tensor, off int, dst []T) {
	n := len(dst)
	switch t.DType {
	case tensor.Float32:
		if v := view[float32](t); v != nil {
			if d64, ok := any(dst).([]float64); ok {
				floatconv.FromFloat32s(d64, v[off:off+n])
				return
			}
			for i, x := range v[off : off+n] {
				dst[i] = T(x)
			}
			return
		}
		s := t.Data[off*4 : (off+n)*4]
		for i := range dst {
			dst[i] = T(math.Float32frombits(binary.LittleEndian.Uint32(s[4*i:])))
		}
	case tensor.Float64:
		if v := view[float64](t); v != nil {
			for i, x := range v[off : off+n] {
				dst[i] = T(x)
			}
			return
		}
		s := t.Data[off*8 : (off+n)*8]
		for i := range dst {
			dst[i] = T(math.Float64frombits(binary.LittleEndian.Uint64(s[8*i:])))
		}
	case tensor.Float16:
		tab := half2f32()
		s := t.Data[off*2 : (off+n)*2]
		for i := range dst {
			dst[i] = T(tab[binary.LittleEndian.Uint16(s[2*i:])])
		}
	case tensor.BFloat16:
		s := t.Data[off*2 : (off+n)*2]
		if d64, ok := any(dst).([]float64); ok && nativeLE && n > 0 && uintptr(unsafe.Pointer(&s[0]))%2 == 0 {
			floatconv.FromBFloat16s(d64, unsafe.Slice((*uint16)(unsafe.Pointer(&s[0])), n))
			return
		}
		for i := range dst {
			dst[i] = T(math.Float32frombits(uint32(binary.LittleEndian.Uint16(s[2*i:])) << 16))
		}
	default:
		for i := range dst {
			dst[i] = T(t.At(off + i))
		}
	}
}

// decodeInts writes elements [off, off+len(dst)) of an integer or bool
// tensor to dst, exactly.
func decodeInts(t *tensor.Tensor, off int, dst []int64) {
	n := len(dst)
	switch t.DType {
	case tensor.Int64:
		s := t.Data[off*8 : (off+n)*8]
		for i := range dst {
			dst[i] = int64(binary.LittleEndian.Uint64(s[8*i:]))
		}
	case tensor.Int32:
		s := t.Data[off*4 : (off+n)*4]
		for i := range dst {
			dst[i] = int64(int32(binary.LittleEndian.Uint32(s[4*i:])))
		}
	case tensor.Int16:
		s := t.Data[off*2 : (off+n)*2]
		for i := range dst {
			dst[i] = int64(int16(binary.LittleEndian.Uint16(s[2*i:])))
		}
	case tensor.Int8:
		s := t.Data[off : off+n]
		for i := range dst {
			dst[i] = int64(int8(s[i]))
		}
	case tensor.Uint8, tensor.Bool:
		s := t.Data[off : off+n]
		for i := range dst {
			dst[i] = int64(s[i])
		}
	default:
		for i := range dst {
			dst[i] = t.Int64(off + i)
		}
	}
}

// roundF16 rounds x to the nearest binary16 value (ties to even), the way
// NumPy's astype(float16) does: beyond the largest finite half it gives
// ±Inf, NaN stays NaN.
func roundF16(x float64) float64 {
	a := math.Abs(x)
	if !(a < 65520) { // 65520 is halfway to 2^16: rounds to Inf
		if a != a {
			return x
		}
		return math.Copysign(math.Inf(1), x)
	}
	if a < 0x1p-14 { // subnormal: quantum 2^-24
		return math.Copysign(math.RoundToEven(a*0x1p24)*0x1p-24, x)
	}
	u := math.Float64bits(x)
	u += 1<<41 - 1 + (u>>42)&1 // round the 52-bit mantissa to 10 bits
	u &^= 1<<42 - 1
	return math.Float64frombits(u)
}

// roundTo rounds x to the NumPy array dtype a (float16, float32 or float64).
func roundTo(a tensor.DType, x float64) float64 {
	switch a {
	case tensor.Float16:
		return roundF16(x)
	case tensor.Float32:
		return float64(float32(x))
	}
	return x
}

// arrayDType is the NumPy dtype of the host array msprobe compares for a
// tensor of dtype t when the device dtype is dev (pytorch-precheck §5.4 step
// 1: bf16 devices convert both sides to float32; NumPy has no bf16).
func arrayDType(t, dev tensor.DType) tensor.DType {
	if t == tensor.BFloat16 || dev == tensor.BFloat16 && t.IsFloat() && t != tensor.Float64 {
		return tensor.Float32
	}
	return t
}
