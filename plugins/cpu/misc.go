package cpu

// The misc family: the remaining creation ops (linspace, logspace...) and
// small ops.

import (
	"errors"
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("linspace", &kernel{forward: miscLinspaceForward})
	register("logspace", &kernel{forward: miscLogspaceForward})
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for _, op := range []string{"linspace", "logspace"} {
		supportDTypes(op, all...)
	}
	register("tril_indices", &kernel{forward: miscTriIndices(false)})
	register("triu_indices", &kernel{forward: miscTriIndices(true)})
	supportDTypes("tril_indices", tensor.Int32, tensor.Int64)
	supportDTypes("triu_indices", tensor.Int32, tensor.Int64)
}

// miscHalfName is how c10::Scalar::to names the narrow float types in its
// overflow error.
func miscHalfName(d tensor.DType) string {
	if d == tensor.Float16 {
		return "at::Half"
	}
	return "at::BFloat16"
}

// miscScalarTo is c10::Scalar::to<scalar_t> for the kernel type of dtype d
// itself (float16 and bfloat16 included, which scalarTo takes as float):
// the overflow check against d's range (infinities and NaN pass for the
// float types), then the conversion (float16 and bfloat16 built from a
// float).
func miscScalarTo(s *array, d tensor.DType) (float64, error) {
	if d == tensor.Bool {
		if s.data[0] != 0 {
			return 1, nil
		}
		return 0, nil
	}
	if (d != tensor.Float16 && d != tensor.BFloat16) || s.scalarKind == ops.ScalarBool {
		return scalarTo(s, d)
	}
	v := s.data[0]
	max := 65504.0
	if d == tensor.BFloat16 {
		max = 0x1.fep127
	}
	if !math.IsInf(v, 0) && math.Abs(v) > max {
		return 0, fmt.Errorf("value cannot be converted to type %s without overflow", miscHalfName(d))
	}
	return tensor.Round(d, float64(float32(v))), nil
}

// miscFactoryArgs reads the start and end numbers and the steps and dtype
// attributes of linspace and logspace.
func miscFactoryArgs(c *call) (start, end *array, steps int, dt tensor.DType, err error) {
	if len(c.in) != 2 {
		return nil, nil, 0, 0, fmt.Errorf("%s: want 2 inputs, got %d", c.op, len(c.in))
	}
	for i, a := range c.in {
		if a == nil || !a.scalar {
			return nil, nil, 0, 0, fmt.Errorf("%s: input %d must be a number", c.op, i)
		}
	}
	dt, ok, err := dtypeAttr(c, "dtype")
	if err != nil {
		return nil, nil, 0, 0, err
	}
	if !ok {
		return nil, nil, 0, 0, fmt.Errorf("%s: dtype is required", c.op)
	}
	n := c.attrs.Int("steps", -1)
	if n < 0 {
		return nil, nil, 0, 0, errors.New("number of steps must be non-negative")
	}
	if n > 1<<40 {
		return nil, nil, 0, 0, fmt.Errorf("%s: %d steps is too many", c.op, n)
	}
	return c.in[0], c.in[1], int(n), dt, nil
}

// miscVecLanes is Vectorized<scalar_t>::size() of PyTorch's AVX2 kernels
// (32-byte vectors) for dtype d.
func miscVecLanes(d tensor.DType) int {
	switch d {
	case tensor.Float64, tensor.Int64:
		return 4
	case tensor.Float32, tensor.Int32:
		return 8
	case tensor.Float16, tensor.BFloat16, tensor.Int16:
		return 16
	}
	return 32
}

// miscLinspaceForward is torch.linspace as PyTorch 1.13's CPU kernel
// (linspace_kernel, AVX2) computes it: start and end converted to the
// dtype, step = (end - start) / (steps - 1) at the dtype (in double for
// integer dtypes); element i is start + step*i below steps/2 and
// end - step*(steps-1-i) from there (a fused multiply-add at float32,
// float64 and the integers' double, the compiler contracts it), except
// that the vectorised loop, which covers blocks of 2 vectors, computes
// only the first element of each vector so and adds k*step to it for its
// k-th lane (rounded twice). float16 and bfloat16 arithmetic is float's
// rounded to the dtype after each operation. steps = 1 gives start alone.
// Calls of more than 32768 steps split at thread boundaries in PyTorch;
// probe computes them as one range.
func miscLinspaceForward(c *call) ([]*array, error) {
	start, end, n, dt, err := miscFactoryArgs(c)
	if err != nil {
		return nil, err
	}
	out := newArray(dt, []int{n})
	switch {
	case n == 0:
		return []*array{out}, nil
	case n == 1:
		v, err := miscScalarTo(start, dt)
		if err != nil {
			return nil, err
		}
		out.data[0] = v
		return []*array{out}, nil
	case dt == tensor.Bool:
		return nil, notImplemented("linspace_cpu", dt)
	}
	s, err := miscScalarTo(start, dt)
	if err != nil {
		return nil, err
	}
	e, err := miscScalarTo(end, dt)
	if err != nil {
		return nil, err
	}
	half := n / 2
	lanes := miscVecLanes(dt)
	vecEnd := n / (2 * lanes) * (2 * lanes)
	// base(i) is the scalar formula, lane(b, k) the k-th lane of a vector
	// starting at b
	var base func(i int) float64
	var lane func(b float64, k int) float64
	switch dt {
	case tensor.Float64:
		step := (e - s) / float64(n-1)
		base = func(i int) float64 {
			if i < half {
				return math.FMA(step, float64(i), s)
			}
			return math.FMA(-step, float64(n-1-i), e)
		}
		lane = func(b float64, k int) float64 { return b + float64(float64(k)*step) }
	case tensor.Float32:
		step := float64(float32(float64(float32(e-s)) / float64(float32(n-1))))
		base = func(i int) float64 {
			if i < half {
				return fma32(step, float64(float32(i)), s)
			}
			return fma32(-step, float64(float32(n-1-i)), e)
		}
		lane = func(b float64, k int) float64 { return float64(float32(b + float64(float32(float64(k)*step)))) }
	case tensor.Float16, tensor.BFloat16:
		// c10::Half and c10::BFloat16 operators compute in float and round
		// the result back; an int64 operand is converted to the type first
		r := func(v float64) float64 { return tensor.Round(dt, float64(float32(v))) }
		step := r(r(e-s) / r(float64(n-1)))
		base = func(i int) float64 {
			if i < half {
				return r(s + r(step*r(float64(i))))
			}
			return r(e - r(step*r(float64(n-1-i))))
		}
		lane = func(b float64, k int) float64 { return r(b + r(float64(k)*step)) }
	default:
		step := (e - s) / float64(n-1)
		base = func(i int) float64 {
			if i < half {
				return wrapInt(dt, math.FMA(step, float64(i), s))
			}
			return wrapInt(dt, math.FMA(-step, float64(n-1-i), e))
		}
		lane = func(b float64, k int) float64 { return wrapInt(dt, b+float64(float64(k)*step)) }
	}
	forChunks(n, func(from, to int) error {
		for i := from; i < to; i++ {
			if i >= vecEnd {
				out.data[i] = base(i)
				continue
			}
			k := i % lanes
			b := base(i - k)
			if k != 0 {
				b = lane(b, k)
			}
			out.data[i] = b
		}
		return nil
	})
	return []*array{out}, nil
}

// miscLogspaceForward is torch.logspace as PyTorch 1.13's CPU computes it
// (logspace_out): start and end converted to the dtype, their difference
// taken at the dtype and then, in double, step = difference / (steps - 1);
// element i is pow(base, start + step*i) below steps/2 and
// pow(base, end - step*(steps-1-i)) from there, in double without a fused
// multiply-add, converted to the dtype (through float for float16 and
// bfloat16; integers truncated). steps = 1 gives pow(base, start) from
// start as a double. PyTorch 1.13 has no float16 kernel on the CPU: probe
// computes it as bfloat16's.
func miscLogspaceForward(c *call) ([]*array, error) {
	start, end, n, dt, err := miscFactoryArgs(c)
	if err != nil {
		return nil, err
	}
	base := c.attrs.Float("base", 10)
	out := newArray(dt, []int{n})
	conv := func(v float64) float64 {
		if dt == tensor.Float16 || dt == tensor.BFloat16 {
			return tensor.Round(dt, float64(float32(v)))
		}
		return roundTo(dt, v)
	}
	switch {
	case n == 0:
		return []*array{out}, nil
	case n == 1:
		// fill_ with a double: Scalar::to's overflow check at the dtype
		v, err := miscScalarTo(&array{data: []float64{math.Pow(base, start.data[0])}, scalar: true, scalarKind: ops.ScalarFloat}, dt)
		if err != nil {
			return nil, err
		}
		out.data[0] = v
		return []*array{out}, nil
	case dt == tensor.Bool:
		return nil, notImplemented("logspace_cpu", dt)
	}
	s, err := miscScalarTo(start, dt)
	if err != nil {
		return nil, err
	}
	e, err := miscScalarTo(end, dt)
	if err != nil {
		return nil, err
	}
	var diff float64
	switch {
	case dt.IsFloat():
		diff = conv(e - s)
	case dt == tensor.Int64:
		diff = float64(int64(e) - int64(s))
	default:
		diff = e - s // smaller integers promote to int
	}
	step := diff / float64(n-1)
	half := n / 2
	forChunks(n, func(from, to int) error {
		for i := from; i < to; i++ {
			var x float64
			if i < half {
				x = s + float64(step*float64(i))
			} else {
				x = e - float64(step*float64(n-1-i))
			}
			out.data[i] = conv(math.Pow(base, x))
		}
		return nil
	})
	return []*array{out}, nil
}

// miscTriIndices is torch.tril_indices (upper false) or torch.triu_indices:
// the row and column indices of the triangle of a row × col matrix, row by
// row; only int32 and int64 have a kernel.
func miscTriIndices(upper bool) func(c *call) ([]*array, error) {
	return func(c *call) ([]*array, error) {
		if len(c.in) != 2 {
			return nil, fmt.Errorf("%s: want 2 inputs, got %d", c.op, len(c.in))
		}
		var rc [2]int64
		for i, a := range c.in {
			if a == nil || !a.scalar || a.scalarKind != ops.ScalarInt {
				return nil, fmt.Errorf("%s: input %d must be an int", c.op, i)
			}
			rc[i] = int64(a.data[0])
		}
		row, col := rc[0], rc[1]
		off := c.attrs.Int("offset", 0)
		dt, ok, err := dtypeAttr(c, "dtype")
		if err != nil {
			return nil, err
		}
		if !ok {
			dt = tensor.Int64
		}
		if row < 0 {
			return nil, fmt.Errorf("row must be non-negative, got%d", row)
		}
		if col < 0 {
			return nil, fmt.Errorf("col must be non-negative, got%d", col)
		}
		if dt != tensor.Int32 && dt != tensor.Int64 {
			return nil, notImplemented(c.op, dt)
		}
		if row*col > 1<<34 {
			return nil, fmt.Errorf("%s: a %d × %d matrix is too large", c.op, row, col)
		}
		// columns kept in row i: [lo, hi)
		span := func(i int64) (lo, hi int64) {
			if upper {
				return min(max(i+off, 0), col), col
			}
			return 0, min(max(i+off+1, 0), col)
		}
		n := int64(0)
		for i := int64(0); i < row; i++ {
			lo, hi := span(i)
			n += hi - lo
		}
		out := newArray(dt, []int{2, int(n)})
		rows, cols := out.data[:n], out.data[n:]
		k := 0
		for i := int64(0); i < row; i++ {
			lo, hi := span(i)
			for j := lo; j < hi; j++ {
				rows[k], cols[k] = float64(i), float64(j)
				k++
			}
		}
		return []*array{out}, nil
	}
}
