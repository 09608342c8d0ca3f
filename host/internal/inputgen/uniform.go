package inputgen

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/internal/pcg"
	"github.com/probe-dev/probe/sdk/tensor"
)

// newPCG returns the generator newRand returns, as a pcg.PCG: the bulk
// draws of a float tensor.
func newPCG(seed uint64) pcg.PCG { return pcg.New(seed, mix(seed^0x6a09e667f3bcc909)) }

// uniformChunk is the number of elements one goroutine draws at a time. It
// only shapes the work: every element i is the stream's draw i whatever
// the chunking and the number of goroutines.
const uniformChunk = 1 << 16

// fillUniform stores n uniform draws from the stream seeded with seed into
// data (n elements of dt): element i is lerp(lowS, highS, u_i) kept inside
// [lowS, highS], rounded to dt and, when clamp is set, kept inside the
// representable bounds [lo, hi]. Chunks go to all cores.
//
// With widened non-nil (n elements), the stored values are also written
// there as float64, block by block while they are still in cache: the
// bench's copy of the input, without a second pass over the tensor.
func fillUniform(dt tensor.DType, data []byte, n int, seed uint64, lowS, highS, lo, hi float64, clamp bool, widened []float64) {
	if !clamp {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	base := newPCG(seed)
	parallel.Chunks(n, uniformChunk, func(from, to int) error {
		p := base
		p.Advance(uint64(from))
		fillRange(dt, data, from, to, &p, lowS, highS, lo, hi, widened)
		return nil
	})
}

// fillRange draws elements [from, to) with p positioned at draw from, in
// blocks: the draws, then one loop per dtype that scales, clamps and
// stores them (and widens them into widened when it is not nil).
func fillRange(dt tensor.DType, data []byte, from, to int, p *pcg.PCG, lowS, highS, lo, hi float64, widened []float64) {
	d := highS - lowS
	wide := math.IsInf(d, 0)
	var buf [pcg.BlockLen]float64
	sz := dt.Size()
	for off := from; off < to; off += len(buf) {
		u := buf[:min(len(buf), to-off)]
		p.Floats(u)
		storeBlock(dt, data[off*sz:], u, lowS, highS, d, lo, hi, wide)
		if widened != nil {
			(&tensor.Tensor{DType: dt, Data: data[off*sz : (off+len(u))*sz]}).ReadFloat64s(widened[off : off+len(u)])
		}
	}
}

// storeBlock scales one block of draws u into [lowS, highS] (d = highS -
// lowS, wide when d overflows), clamps them to [lo, hi] and stores them
// at the start of data.
func storeBlock(dt tensor.DType, data []byte, u []float64, lowS, highS, d, lo, hi float64, wide bool) {
	if dt == tensor.Float32 && !wide {
		if f := float32View(data, len(u)); f != nil {
			storeF32(f, u, lowS, highS, d, lo, hi)
			return
		}
	}
	// u becomes lerp(lowS, highS, u) inside [lowS, highS]; min and max
	// are math.Min and math.Max (NaN and signed zeros included).
	if wide {
		for i, x := range u {
			u[i] = max(lowS, min(highS, lowS*(1-x)+highS*x))
		}
	} else {
		lerpClamped(u, lowS, highS, d)
	}
	storeClamped(dt, data, u, lo, hi)
}

// lerpGo is fillRange's lerp: u becomes lowS + u·d kept inside [lowS,
// highS].
func lerpGo(u []float64, lowS, highS, d float64) {
	for i, x := range u {
		u[i] = max(lowS, min(highS, lowS+x*d))
	}
}

// storeF32Go is the loops below in one, for the common dtype: the same
// expressions, stored through a typed view.
func storeF32Go(f []float32, u []float64, lowS, highS, d, lo, hi float64) {
	f = f[:len(u)]
	for i, x := range u {
		v := float32(max(lowS, min(highS, lowS+x*d)))
		if float64(v) < lo {
			v = float32(lo)
		} else if float64(v) > hi {
			v = float32(hi)
		}
		f[i] = v
	}
}

// storeClamped stores u as dt values, rounded to nearest and kept inside
// [lo, hi].
func storeClamped(dt tensor.DType, data []byte, u []float64, lo, hi float64) {
	switch dt {
	case tensor.Float64:
		b := data[:len(u)*8]
		for i, v := range u {
			if v < lo {
				v = lo
			} else if v > hi {
				v = hi
			}
			binary.LittleEndian.PutUint64(b[i*8:], math.Float64bits(v))
		}
	case tensor.Float32:
		b := data[:len(u)*4]
		for i, v := range u {
			f := float32(v)
			if float64(f) < lo {
				f = float32(lo)
			} else if float64(f) > hi {
				f = float32(hi)
			}
			binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(f))
		}
	case tensor.Float16:
		loBits, hiBits := tensor.Float16Bits(lo), tensor.Float16Bits(hi)
		b := data[:len(u)*2]
		for i, v := range u {
			h := float32ToFloat16(float32(v))
			if math.IsNaN(v) {
				h = 0x7e00
			} else if val := float16Value(h); val < lo {
				h = loBits
			} else if val > hi {
				h = hiBits
			}
			binary.LittleEndian.PutUint16(b[i*2:], h)
		}
	default: // BFloat16
		m := storeBF16(data, u, lo, hi)
		data, u = data[2*m:], u[m:]
		loBits, hiBits := tensor.BFloat16Bits(lo), tensor.BFloat16Bits(hi)
		b := data[:len(u)*2]
		for i, v := range u {
			h := float32ToBFloat16(float32(v))
			if math.IsNaN(v) {
				h = 0x7fc0
			} else if val := float64(math.Float32frombits(uint32(h) << 16)); val < lo {
				h = loBits
			} else if val > hi {
				h = hiBits
			}
			binary.LittleEndian.PutUint16(b[i*2:], h)
		}
	}
}

// float32View is the first n float32 values of b as a []float32 sharing
// its memory, or nil when the machine is big-endian or b is not aligned.
func float32View(b []byte, n int) []float32 {
	if !nativeLittleEndian || n == 0 || len(b) < 4*n || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 != 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// nativeLittleEndian is true where tensor bytes are native values.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
