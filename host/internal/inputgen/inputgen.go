// Package inputgen generates the input tensors of statistics-mode dumps from
// their descriptors (dtype, shape, Max, Min), following msprobe's PyTorch
// run_ut generator (pytorch-precheck §4.4), deterministically: a tensor's
// data depends only on its descriptor and a seed, and Seed derives that
// seed from the run's global seed, the API's full name and the tensor's
// path, so results never depend on processing order, worker count or
// resume (the fix of msprobe's pitfall 12.13).
//
// Differences from msprobe, on purpose:
//
//   - Uniform values are drawn in float64, clamped to [Min, Max] and then
//     rounded to the dtype. msprobe draws and scales in the target dtype,
//     so a float16 range wider than 65504 (e.g. Min -60000, Max 60000)
//     overflows to ±inf values the real tensor never had (pitfall 12.14).
//   - Integer bounds given in reverse order are swapped (msprobe's randint
//     raises), and bounds are clamped to the dtype's range.
//   - A 0-d tensor whose Max is infinite holds Max (msprobe fails indexing
//     the "last slice" of a 0-d tensor).
//
// The random stream itself is not PyTorch's: exact values cannot match
// msprobe's, only the rules (which elements are forced, which ranges are
// used) do.
package inputgen

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/tensor"
)

// MaxTensorBytes bounds the size of one generated tensor, so that a
// corrupt descriptor (shape [1099511627776]) gives an error instead of
// exhausting memory. The host may lower it to its memory budget at start-up
// (before generating anything).
var MaxTensorBytes int64 = 16 << 30

// Seed derives the seed of one tensor from the run's global seed, the full
// API name ("Functional.conv2d.0") and the tensor's path ("args.0",
// "kwargs.bias", "grad.0"). The derivation (FNV-1a of the name and path,
// mixed with the global seed by SplitMix64) is part of probe's
// reproducibility contract: changing it changes every generated input.
func Seed(global uint64, apiFullName, path string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(apiFullName))
	h.Write([]byte{0})
	h.Write([]byte(path))
	return mix(global ^ mix(h.Sum64()))
}

// mix is SplitMix64's finalizer.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newRand returns the generator of one tensor: PCG, seeded with seed
// (newPCG's stream, which the float fills draw in bulk).
func newRand(seed uint64) *rand.Rand {
	p := newPCG(seed)
	return rand.New(&p)
}

// Generate builds the tensor of a statistics descriptor:
//
//   - empty shape (a 0 dimension) → an empty tensor;
//   - Min/Max (or the legacy *_except_inf_nan keys) not numbers → error
//     "Data info Min: <low> , Max: <high>, info type must be int or float.";
//   - bool: integers uniform in [int(Min), int(Max)], element = value > 0
//     (Max true / Min false gives a ~50/50 mix; both true all true);
//   - floats: Max NaN → all NaN; Max ±Inf (and truthy) → filled with Max,
//     the last slice along dimension 0 set to Min; otherwise uniform in
//     [Min, Max) with infinite bounds replaced by the dtype's finite
//     limits;
//   - integers: uniform in [int(Min), int(Max)] inclusive;
//   - then, for floats and integers, element 0 = Min and the last element
//     = Max, infinite statistics restored (so one element holds Max and two
//     are [Min, Max]).
func Generate(d *dump.TensorDesc, seed uint64) (*tensor.Tensor, error) {
	return GenerateWith(d, seed, nil)
}

// GenerateWith is Generate with the tensor's bytes from alloc (n bytes, not
// necessarily zeroed; nil: make), for a caller that reuses buffers.
func GenerateWith(d *dump.TensorDesc, seed uint64, alloc func(n int) []byte) (*tensor.Tensor, error) {
	t, _, err := GenerateWidened(d, seed, alloc, nil)
	return t, err
}

// GenerateWidened is GenerateWith that also returns the tensor's values as
// a float64 tensor in memory from widen (n bytes; nil: none), written while
// each block of the tensor is generated: the cast the bench needs, without
// a second pass over the tensor. widened is nil where the tensor was not
// drawn element by element (a non-float dtype, a NaN or infinite
// statistic): the caller casts t itself there.
func GenerateWidened(d *dump.TensorDesc, seed uint64, alloc, widen func(n int) []byte) (*tensor.Tensor, *tensor.Tensor, error) {
	if d == nil {
		return nil, nil, fmt.Errorf("no tensor descriptor")
	}
	dt := d.DType
	if !dt.Valid() {
		name := d.DTypeName
		if name == "" {
			name = dt.String()
		}
		return nil, nil, fmt.Errorf("Dtype is not supported: %s", name)
	}
	for _, s := range d.Shape {
		if s < 0 {
			return nil, nil, fmt.Errorf("invalid shape %v", d.Shape)
		}
	}
	n := 1
	for _, s := range d.Shape {
		if s != 0 && int64(n) > MaxTensorBytes/int64(s) {
			return nil, nil, fmt.Errorf("tensor of shape %v is too large to generate (limit %d bytes)", d.Shape, MaxTensorBytes)
		}
		n *= s
	}
	if int64(n)*int64(dt.Size()) > MaxTensorBytes {
		return nil, nil, fmt.Errorf("tensor of shape %v (%s) is too large to generate (limit %d bytes)", d.Shape, dt, MaxTensorBytes)
	}
	if n == 0 {
		return tensor.New(dt, d.Shape), nil, nil
	}
	t := &tensor.Tensor{DType: dt, Shape: append([]int(nil), d.Shape...)}
	if alloc != nil {
		t.Data = alloc(n * dt.Size())
	} else {
		t.Data = make([]byte, n*dt.Size())
	}

	lowO, highO := d.Min, d.Max
	low, high := lowO, highO
	lowOK, highOK := d.HasMin, d.HasMax
	lowRepr, highRepr := d.MinRepr, d.MaxRepr
	if d.MinExceptInfNan != nil {
		low, lowOK, lowRepr = *d.MinExceptInfNan, true, dump.FormatPyFloat(*d.MinExceptInfNan)
	}
	if d.MaxExceptInfNan != nil {
		high, highOK, highRepr = *d.MaxExceptInfNan, true, dump.FormatPyFloat(*d.MaxExceptInfNan)
	}
	if !lowOK || !highOK {
		if lowRepr == "" {
			lowRepr = "None"
		}
		if highRepr == "" {
			highRepr = "None"
		}
		return nil, nil, fmt.Errorf("Data info Min: %s , Max: %s, info type must be int or float.", lowRepr, highRepr)
	}
	r := newRand(seed)

	switch {
	case dt == tensor.Bool:
		lo, err := pyInt(low)
		if err != nil {
			return nil, nil, err
		}
		hi, err := pyInt(high)
		if err != nil {
			return nil, nil, err
		}
		if lo > hi {
			lo, hi = hi, lo
		}
		for i := 0; i < n; i++ {
			t.Data[i] = 0
			if uniformInt(r, lo, hi) > 0 {
				t.Data[i] = 1
			}
		}
		return t, nil, nil

	case dt.IsFloat():
		if math.IsNaN(high) {
			fill(t, math.NaN())
			return t, nil, nil
		}
		if highO != 0 && math.IsInf(high, 0) {
			fill(t, high)
			if len(d.Shape) > 0 {
				slice := n / d.Shape[0]
				for i := n - slice; i < n; i++ {
					t.Set(i, low)
				}
			}
			return t, nil, nil
		}
		lowS, highS := finite(dt, low), finite(dt, high)
		if lowS > highS { // msprobe's formula then draws from (high, low]
			lowS, highS = highS, lowS
		}
		// Representable bounds inside [lowS, highS]; when the interval holds
		// no value of the dtype, values are simply rounded.
		lo, hi := roundUp(dt, lowS), roundDown(dt, highS)
		var widened *tensor.Tensor
		var w []float64
		if widen != nil && dt != tensor.Float64 {
			widened = &tensor.Tensor{DType: tensor.Float64, Shape: append([]int(nil), d.Shape...), Data: widen(n * 8)}
			var ok bool
			if w, ok = widened.Float64View(); !ok {
				widened, w = nil, nil
			}
		}
		fillUniform(dt, t.Data, n, seed, lowS, highS, lo, hi, lo <= hi, w)
		// the elements step 7 sets are widened again on return
		defer func() {
			for _, i := range []int{0, 1, n - 1} {
				if w != nil && i < n {
					w[i] = t.At(i)
				}
			}
		}()
		// Step 7: force the extremes.
		if math.IsNaN(highO) {
			if n <= 2 {
				t.Set(0, math.NaN())
				t.Set(n-1, high)
			} else {
				t.Set(0, low)
				t.Set(1, math.NaN())
				t.Set(n-1, high)
			}
			return t, widened, nil
		}
		t.Set(0, low)
		t.Set(n-1, high)
		if math.IsInf(highO, 0) {
			t.Set(n-1, highO)
		}
		if math.IsInf(lowO, 0) {
			t.Set(0, lowO)
		}
		return t, widened, nil

	default: // integers
		lo, err := pyInt(low)
		if err != nil {
			return nil, nil, err
		}
		hi, err := pyInt(high)
		if err != nil {
			return nil, nil, err
		}
		if lo > hi {
			lo, hi = hi, lo
		}
		tmin, tmax := intLimits(dt)
		lo, hi = max(lo, tmin), min(hi, tmax)
		if lo > hi {
			return nil, nil, fmt.Errorf("Min %s and Max %s lie outside the range of %s", lowRepr, highRepr, dt)
		}
		for i := 0; i < n; i++ {
			t.SetInt64(i, uniformInt(r, lo, hi))
		}
		t.SetInt64(0, lo)
		t.SetInt64(n-1, hi)
		return t, nil, nil
	}
}

// float32ToBFloat16 rounds a non-NaN float32 to bfloat16, ties to even.
func float32ToBFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

// float32ToFloat16 rounds a non-NaN float32 to IEEE binary16, ties to even,
// overflowing to ±Inf.
func float32ToFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign // rounds to ±0
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		half := mant >> shift
		rem, halfway := mant&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > halfway || (rem == halfway && half&1 == 1) {
			half++
		}
		return sign | uint16(half)
	}
	half := uint32(exp)<<10 | mant>>13
	if rem := mant & 0x1fff; rem > 0x1000 || (rem == 0x1000 && half&1 == 1) {
		half++ // a carry into the exponent is correct, up to Inf
	}
	return sign | uint16(half)
}

var (
	f16Once  sync.Once
	f16Table []float32
)

// float16Value is tensor.Float16Value through a lookup table.
func float16Value(h uint16) float64 {
	f16Once.Do(func() {
		f16Table = make([]float32, 1<<16)
		for i := range f16Table {
			f16Table[i] = float32(tensor.Float16Value(uint16(i)))
		}
	})
	return float64(f16Table[h])
}

// fill sets every element to v.
func fill(t *tensor.Tensor, v float64) {
	if t.Len() == 0 {
		return
	}
	t.Set(0, v)
	es := t.DType.Size()
	for o := es; o < len(t.Data); o += es {
		copy(t.Data[o:o+es], t.Data[:es])
	}
}

// finite replaces ±Inf by the dtype's largest finite values (finfo).
func finite(dt tensor.DType, v float64) float64 {
	if !math.IsInf(v, 0) {
		return v
	}
	m := maxFinite(dt)
	if v < 0 {
		return -m
	}
	return m
}

func maxFinite(dt tensor.DType) float64 {
	switch dt {
	case tensor.Float32:
		return math.MaxFloat32
	case tensor.Float16:
		return 65504
	case tensor.BFloat16:
		return tensor.BFloat16Value(0x7f7f)
	}
	return math.MaxFloat64
}

// roundDown returns the largest value of dt that is <= x.
func roundDown(dt tensor.DType, x float64) float64 {
	r := tensor.Round(dt, x)
	if r > x {
		r = step(dt, r, -1)
	}
	return r
}

// roundUp returns the smallest value of dt that is >= x.
func roundUp(dt tensor.DType, x float64) float64 {
	r := tensor.Round(dt, x)
	if r < x {
		r = step(dt, r, +1)
	}
	return r
}

// step returns the neighbour of the dt value r in direction dir.
func step(dt tensor.DType, r float64, dir int) float64 {
	inf := math.Inf(dir)
	switch dt {
	case tensor.Float64:
		return math.Nextafter(r, inf)
	case tensor.Float32:
		return float64(math.Nextafter32(float32(r), float32(inf)))
	case tensor.Float16:
		return tensor.Float16Value(stepBits16(tensor.Float16Bits(r), dir))
	case tensor.BFloat16:
		return tensor.BFloat16Value(stepBits16(tensor.BFloat16Bits(r), dir))
	}
	return r
}

// stepBits16 moves a 16-bit sign-magnitude float one unit along the real
// line.
func stepBits16(b uint16, dir int) uint16 {
	neg := b&0x8000 != 0
	mag := b & 0x7fff
	switch {
	case mag == 0 && dir < 0:
		return 0x8001
	case mag == 0:
		return 0x0001
	case neg == (dir < 0):
		return b + 1 // away from zero
	}
	return b - 1
}

// pyInt is Python's int() of a float: truncation toward zero, errors for
// NaN and infinities (with Python's messages), clamped to int64.
func pyInt(v float64) (int64, error) {
	switch {
	case math.IsNaN(v):
		return 0, fmt.Errorf("cannot convert float NaN to integer")
	case math.IsInf(v, 0):
		return 0, fmt.Errorf("cannot convert float infinity to integer")
	case v >= 0x1p63:
		return math.MaxInt64, nil
	case v < -0x1p63:
		return math.MinInt64, nil
	}
	return int64(math.Trunc(v)), nil
}

func intLimits(dt tensor.DType) (int64, int64) {
	switch dt {
	case tensor.Int8:
		return math.MinInt8, math.MaxInt8
	case tensor.Int16:
		return math.MinInt16, math.MaxInt16
	case tensor.Int32:
		return math.MinInt32, math.MaxInt32
	case tensor.Uint8:
		return 0, math.MaxUint8
	}
	return math.MinInt64, math.MaxInt64
}

// uniformInt draws an integer uniformly from [lo, hi] (lo <= hi).
func uniformInt(r *rand.Rand, lo, hi int64) int64 {
	span := uint64(hi) - uint64(lo) + 1 // wraps to 0 for the full int64 range
	if span == 0 {
		return int64(r.Uint64())
	}
	return int64(uint64(lo) + r.Uint64N(span))
}
