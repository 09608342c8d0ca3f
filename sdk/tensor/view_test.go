package tensor

import (
	"math"
	"testing"
	"unsafe"
)

func TestFloat64ViewSharesMemory(t *testing.T) {
	vals := []float64{1, -2.5, math.Inf(1), math.NaN(), 0x1p-1074}
	x := FromFloat64s(Float64, []int{5}, vals)
	v, ok := x.Float64View()
	if !ok {
		t.Fatal("no view of a float64 tensor")
	}
	for i := range vals {
		if math.Float64bits(v[i]) != math.Float64bits(x.At(i)) {
			t.Fatalf("element %d: view %v, At %v", i, v[i], x.At(i))
		}
	}
	v[1] = 7
	if x.At(1) != 7 {
		t.Fatalf("a write through the view did not reach the tensor: %v", x.At(1))
	}
	if _, ok := FromFloat64s(Float32, []int{2}, []float64{1, 2}).Float64View(); ok {
		t.Fatal("a float32 tensor gave a float64 view")
	}
	buf := make([]byte, 64)
	off := 1
	if uintptr(unsafe.Pointer(&buf[1]))%8 == 0 {
		off = 2
	}
	odd := &Tensor{DType: Float64, Shape: []int{1}, Data: buf[off : off+8]}
	if _, ok := odd.Float64View(); ok {
		t.Fatal("a misaligned Data gave a view")
	}
	if v, ok := New(Float64, []int{0, 3}).Float64View(); !ok || len(v) != 0 {
		t.Fatalf("empty tensor: %v %v", v, ok)
	}
}

func TestWrapFloat64s(t *testing.T) {
	vals := []float64{3, math.Copysign(0, -1), math.Inf(-1), 1e300}
	w := WrapFloat64s([]int{2, 2}, vals)
	want := FromFloat64s(Float64, []int{2, 2}, vals)
	if string(w.Data) != string(want.Data) || w.Len() != 4 {
		t.Fatalf("WrapFloat64s bytes differ from FromFloat64s")
	}
	vals[0] = 9
	if w.At(0) != 9 {
		t.Fatal("the wrapped tensor does not share the slice's memory")
	}
	if e := WrapFloat64s([]int{0}, nil); len(e.Data) != 0 || e.Data == nil {
		t.Fatalf("empty: %#v", e.Data)
	}
}
