package tensor

import (
	"encoding/binary"
	"unsafe"
)

// nativeLittleEndian is true on little-endian machines, where a float64
// tensor's Data already holds native float64 values.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Float64View returns the elements of a float64 tensor as a []float64
// sharing t.Data's memory, without a copy; ok is false (and nothing is
// returned) for another dtype, on a big-endian machine, or when Data is
// not 8-byte aligned. Writes through the view change the tensor.
func (t *Tensor) Float64View() (v []float64, ok bool) {
	n := t.Len()
	if t.DType != Float64 || !nativeLittleEndian || len(t.Data) < n*8 {
		return nil, false
	}
	if n == 0 {
		return []float64{}, true
	}
	p := unsafe.Pointer(unsafe.SliceData(t.Data))
	if uintptr(p)%8 != 0 {
		return nil, false
	}
	return unsafe.Slice((*float64)(p), n), true
}

// WrapFloat64s returns a float64 tensor of the given shape whose Data is
// the memory of v itself, without a copy (on a big-endian machine, a copy
// in little-endian order). The tensor and v then share memory: the caller
// must not change v while the tensor is in use.
func WrapFloat64s(shape []int, v []float64) *Tensor {
	if len(v) != NumElements(shape) {
		panic("tensor: WrapFloat64s: the values do not match the shape")
	}
	t := &Tensor{DType: Float64, Shape: append([]int(nil), shape...)}
	switch {
	case len(v) == 0:
		t.Data = []byte{}
	case nativeLittleEndian:
		t.Data = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*8)
	default:
		t.Data = make([]byte, len(v)*8)
		t.WriteFloat64s(v)
	}
	return t
}

// alignedFor reports whether b's memory starts at a multiple of size.
func alignedFor(b []byte, size int) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) == 0
}

// viewOf is the first n elements of b read as a []T (b holds at least
// n*sizeof(T) bytes, aligned for T).
func viewOf[T float32 | float64 | uint16](b []byte, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}
