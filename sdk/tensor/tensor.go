package tensor

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/probe-dev/probe/internal/floatconv"
	"github.com/probe-dev/probe/internal/parallel"
)

// Tensor is a dense, row-major, contiguous tensor whose elements are stored
// little-endian in Data. A 0-d tensor has an empty Shape and one element.
type Tensor struct {
	DType DType
	Shape []int
	Data  []byte
}

// NumElements returns the product of the shape (1 for a 0-d tensor).
func NumElements(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// New returns a zero-filled tensor.
func New(d DType, shape []int) *Tensor {
	return &Tensor{DType: d, Shape: append([]int(nil), shape...), Data: make([]byte, NumElements(shape)*d.Size())}
}

// Len is the number of elements.
func (t *Tensor) Len() int { return NumElements(t.Shape) }

// Validate checks that the dtype is known, no dimension is negative and Data
// has exactly the right length.
func (t *Tensor) Validate() error {
	if t == nil {
		return fmt.Errorf("nil tensor")
	}
	if !t.DType.Valid() {
		return fmt.Errorf("invalid dtype %d", int32(t.DType))
	}
	for i, s := range t.Shape {
		if s < 0 {
			return fmt.Errorf("negative dimension %d at axis %d", s, i)
		}
	}
	if want := t.Len() * t.DType.Size(); len(t.Data) != want {
		return fmt.Errorf("%s tensor of shape %v needs %d bytes, has %d", t.DType, t.Shape, want, len(t.Data))
	}
	return nil
}

// At returns element i converted exactly to float64 (int64 values beyond
// 2^53 lose precision; use Int64 for those).
func (t *Tensor) At(i int) float64 {
	switch t.DType {
	case Float64:
		return math.Float64frombits(binary.LittleEndian.Uint64(t.Data[i*8:]))
	case Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(t.Data[i*4:])))
	case Float16:
		return Float16Value(binary.LittleEndian.Uint16(t.Data[i*2:]))
	case BFloat16:
		return BFloat16Value(binary.LittleEndian.Uint16(t.Data[i*2:]))
	case Int8:
		return float64(int8(t.Data[i]))
	case Int16:
		return float64(int16(binary.LittleEndian.Uint16(t.Data[i*2:])))
	case Int32:
		return float64(int32(binary.LittleEndian.Uint32(t.Data[i*4:])))
	case Int64:
		return float64(int64(binary.LittleEndian.Uint64(t.Data[i*8:])))
	case Uint8, Bool:
		return float64(t.Data[i])
	}
	panic(fmt.Sprintf("tensor: At on %v", t.DType))
}

// Int64 returns element i as an integer (floats are truncated toward zero).
func (t *Tensor) Int64(i int) int64 {
	switch t.DType {
	case Int64:
		return int64(binary.LittleEndian.Uint64(t.Data[i*8:]))
	case Int32, Int16, Int8, Uint8, Bool:
		return int64(t.At(i))
	}
	return int64(t.At(i))
}

// Set stores v at element i after rounding it to the tensor's dtype with
// Round (ties to even for floats).
func (t *Tensor) Set(i int, v float64) {
	switch t.DType {
	case Float64:
		binary.LittleEndian.PutUint64(t.Data[i*8:], math.Float64bits(v))
	case Float32:
		binary.LittleEndian.PutUint32(t.Data[i*4:], math.Float32bits(float32(v)))
	case Float16:
		binary.LittleEndian.PutUint16(t.Data[i*2:], Float16Bits(v))
	case BFloat16:
		binary.LittleEndian.PutUint16(t.Data[i*2:], BFloat16Bits(v))
	case Int64:
		if math.Abs(v) < 0x1p63 {
			binary.LittleEndian.PutUint64(t.Data[i*8:], uint64(int64(v)))
		} else {
			binary.LittleEndian.PutUint64(t.Data[i*8:], uint64(int64(Round(Int64, v))))
		}
	case Int32:
		binary.LittleEndian.PutUint32(t.Data[i*4:], uint32(int32(Round(Int32, v))))
	case Int16:
		binary.LittleEndian.PutUint16(t.Data[i*2:], uint16(int16(Round(Int16, v))))
	case Int8:
		t.Data[i] = byte(int8(Round(Int8, v)))
	case Uint8, Bool:
		t.Data[i] = byte(Round(t.DType, v))
	default:
		panic(fmt.Sprintf("tensor: Set on %v", t.DType))
	}
}

// SetInt64 stores an integer exactly (int64 tensors) or via Set otherwise.
func (t *Tensor) SetInt64(i int, v int64) {
	if t.DType == Int64 {
		binary.LittleEndian.PutUint64(t.Data[i*8:], uint64(v))
		return
	}
	t.Set(i, float64(v))
}

// Float64s returns all elements as float64.
func (t *Tensor) Float64s() []float64 {
	out := make([]float64, t.Len())
	t.ReadFloat64s(out)
	return out
}

// ReadFloat64s converts the first len(dst) elements to float64 into dst,
// exactly as At does, with one dtype dispatch for the whole slice.
func (t *Tensor) ReadFloat64s(dst []float64) {
	if t.readDirect(dst) {
		return
	}
	b := t.Data
	switch t.DType {
	case Float64:
		b = b[:len(dst)*8]
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[i*8:]))
		}
	case Float32:
		b = b[:len(dst)*4]
		for i := range dst {
			dst[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:])))
		}
	case Float16:
		tab := float16Table()
		b = b[:len(dst)*2]
		for i := range dst {
			dst[i] = tab[binary.LittleEndian.Uint16(b[i*2:])]
		}
	case BFloat16:
		b = b[:len(dst)*2]
		for i := range dst {
			dst[i] = float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[i*2:])) << 16))
		}
	case Uint8, Bool:
		b = b[:len(dst)]
		for i := range dst {
			dst[i] = float64(b[i])
		}
	default:
		for i := range dst {
			dst[i] = t.At(i)
		}
	}
}

// WriteFloat64s stores src into the first len(src) elements, each rounded
// exactly as Set does, with one dtype dispatch for the whole slice.
func (t *Tensor) WriteFloat64s(src []float64) {
	if t.writeDirect(src) {
		return
	}
	b := t.Data
	switch t.DType {
	case Float64:
		b = b[:len(src)*8]
		for i, v := range src {
			binary.LittleEndian.PutUint64(b[i*8:], math.Float64bits(v))
		}
	case Float32:
		b = b[:len(src)*4]
		for i, v := range src {
			binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(float32(v)))
		}
	case Float16:
		b = b[:len(src)*2]
		for i, v := range src {
			binary.LittleEndian.PutUint16(b[i*2:], Float16Bits(v))
		}
	case BFloat16:
		b = b[:len(src)*2]
		for i, v := range src {
			binary.LittleEndian.PutUint16(b[i*2:], BFloat16Bits(v))
		}
	default:
		for i, v := range src {
			t.Set(i, v)
		}
	}
}

// Int64s returns all elements as int64 (exact for integer dtypes).
func (t *Tensor) Int64s() []int64 {
	out := make([]int64, t.Len())
	for i := range out {
		out[i] = t.Int64(i)
	}
	return out
}

// FromFloat64s builds a tensor of dtype d, rounding every value with Round.
func FromFloat64s(d DType, shape []int, vals []float64) *Tensor {
	t := New(d, shape)
	if len(vals) != t.Len() {
		panic(fmt.Sprintf("tensor: %d values for shape %v", len(vals), shape))
	}
	t.WriteFloat64s(vals)
	return t
}

// FromInt64s builds an integer (or bool) tensor exactly.
func FromInt64s(d DType, shape []int, vals []int64) *Tensor {
	t := New(d, shape)
	if len(vals) != t.Len() {
		panic(fmt.Sprintf("tensor: %d values for shape %v", len(vals), shape))
	}
	for i, v := range vals {
		t.SetInt64(i, v)
	}
	return t
}

// Cast converts t to dtype d element by element (Round semantics; int64 to
// int64 is exact).
func (t *Tensor) Cast(d DType) *Tensor {
	if d == t.DType {
		return t.Clone()
	}
	out := New(d, t.Shape)
	t.CastInto(out)
	return out
}

// CastInto converts t's elements into out, as Cast does, for a caller that
// provides the memory: out has its dtype and at least t.Len() elements of
// Data (not necessarily zeroed); its Shape is left as it is.
func (t *Tensor) CastInto(out *Tensor) {
	d := out.DType
	if d == t.DType {
		copy(out.Data, t.Data[:t.Len()*d.Size()])
		return
	}
	if t.DType == Int64 && d.IsInt() {
		for i := 0; i < t.Len(); i++ {
			out.SetInt64(i, t.Int64(i))
		}
		return
	}
	// in blocks, so that no float64 copy of the whole tensor is made, and
	// large tensors on all cores (each element converts alone)
	n := t.Len()
	sin, sout := t.DType.Size(), d.Size()
	castRange := func(from, to int) {
		if castDirect(t, out, from, to) {
			return
		}
		var buf [1024]float64
		for off := from; off < to; off += len(buf) {
			m := min(len(buf), to-off)
			src := &Tensor{DType: t.DType, Data: t.Data[off*sin : (off+m)*sin]}
			dst := &Tensor{DType: d, Data: out.Data[off*sout : (off+m)*sout]}
			src.ReadFloat64s(buf[:m])
			dst.WriteFloat64s(buf[:m])
		}
	}
	parallel.Chunks(n, castParallelMin, func(from, to int) error {
		castRange(from, to)
		return nil
	})
}

// castDirect converts elements [from, to) of t into out with one typed
// loop, for the casts to float64 of the float dtypes and float64 to
// float32 (the casts a run makes for every bench input and output), where
// the machine is little-endian and both buffers are aligned for their
// element types; false leaves the cast to the general loop. The values
// are those of ReadFloat64s and WriteFloat64s.
func castDirect(t, out *Tensor, from, to int) bool {
	if to <= from {
		return false
	}
	src := &Tensor{DType: t.DType, Data: t.Data[from*t.DType.Size() : to*t.DType.Size()]}
	dst := &Tensor{DType: out.DType, Data: out.Data[from*out.DType.Size() : to*out.DType.Size()]}
	switch {
	case out.DType == Float64 && t.DType != Float64:
		v, ok := dst.float64sOf(to - from)
		return ok && src.readDirect(v)
	case out.DType == Float32 && t.DType == Float64:
		v, ok := src.float64sOf(to - from)
		return ok && dst.writeDirect(v)
	}
	return false
}

// float64sOf is the first n elements of a float64 tensor's Data as a
// []float64 sharing its memory (Float64View without the shape).
func (t *Tensor) float64sOf(n int) ([]float64, bool) {
	if !nativeLittleEndian || len(t.Data) < n*8 || !alignedFor(t.Data, 8) {
		return nil, false
	}
	return viewOf[float64](t.Data, n), true
}

// readDirect is ReadFloat64s for float64, float32, bfloat16 and float16
// data on a little-endian machine with Data aligned for its elements: a
// copy, floatconv's vector loop or one table lookup per element, through
// typed views. False leaves the work to the general loop.
func (t *Tensor) readDirect(dst []float64) bool {
	n := len(dst)
	if !nativeLittleEndian || n == 0 || !alignedFor(t.Data, t.DType.Size()) {
		return false
	}
	b := t.Data[:n*t.DType.Size()]
	switch t.DType {
	case Float64:
		copy(dst, viewOf[float64](b, n))
	case Float32:
		floatconv.FromFloat32s(dst, viewOf[float32](b, n))
	case BFloat16:
		floatconv.FromBFloat16s(dst, viewOf[uint16](b, n))
	case Float16:
		tab := float16Table()
		for i, v := range viewOf[uint16](b, n) {
			dst[i] = tab[v]
		}
	default:
		return false
	}
	return true
}

// writeDirect is readDirect's counterpart for WriteFloat64s.
func (t *Tensor) writeDirect(src []float64) bool {
	n := len(src)
	if !nativeLittleEndian || n == 0 || !alignedFor(t.Data, t.DType.Size()) {
		return false
	}
	b := t.Data[:n*t.DType.Size()]
	switch t.DType {
	case Float64:
		copy(viewOf[float64](b, n), src)
	case Float32:
		floatconv.ToFloat32s(viewOf[float32](b, n), src)
	case BFloat16:
		floatconv.ToBFloat16s(viewOf[uint16](b, n), src)
	default:
		return false
	}
	return true
}

// castParallelMin is the elements of one goroutine's share of a Cast.
const castParallelMin = 1 << 18

// Clone returns a deep copy.
func (t *Tensor) Clone() *Tensor {
	return &Tensor{DType: t.DType, Shape: append([]int(nil), t.Shape...), Data: append([]byte(nil), t.Data...)}
}

// ShapeString formats a shape the way Python prints a tuple: "(2, 3)",
// "(5,)", "()".
func ShapeString(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return fmt.Sprintf("(%d,)", shape[0])
	}
	s := "("
	for i, d := range shape {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(d)
	}
	return s + ")"
}
