package cpu

// The optim family: optimizer arithmetic (addcmul, addcdiv), tensor
// creation and casts.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("addcmul", addcKernel(false))
	register("addcdiv", addcKernel(true))
	register("lerp", lerpKernel())
	register("arange", &kernel{forward: arangeForward})
	supportDTypes("arange", append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)...)
	supportDTypes("addcmul", append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)...)
}

// ---- addcmul / addcdiv ----

// cTypeName is the C++ type PyTorch names when a Scalar does not fit the
// kernel's type ("value cannot be converted to type int8_t without
// overflow"); float16 and bfloat16 kernels take their scalar as float.
func cTypeName(d tensor.DType) string {
	switch d {
	case tensor.Float64:
		return "double"
	case tensor.Int64:
		return "int64_t"
	case tensor.Int32:
		return "int"
	case tensor.Int16:
		return "int16_t"
	case tensor.Int8:
		return "int8_t"
	case tensor.Uint8:
		return "uint8_t"
	}
	return "float"
}

// intRange is the range of an integer dtype.
func intRange(d tensor.DType) (lo, hi float64) {
	switch d {
	case tensor.Int8:
		return math.MinInt8, math.MaxInt8
	case tensor.Int16:
		return math.MinInt16, math.MaxInt16
	case tensor.Int32:
		return math.MinInt32, math.MaxInt32
	case tensor.Uint8:
		return 0, math.MaxUint8
	}
	return -0x1p63, 0x1p63 - 1024
}

// scalarTo is c10::Scalar::to<T> for the kernel type of dtype d (float for
// float32, float16 and bfloat16): the overflow check of checked_convert,
// then the C++ conversion (truncation toward zero for integers, rounding to
// nearest for float).
func scalarTo(s *array, d tensor.DType) (float64, error) {
	v := s.data[0]
	overflow := fmt.Errorf("value cannot be converted to type %s without overflow", cTypeName(d))
	switch {
	case s.scalarKind == ops.ScalarBool:
		return v, nil
	case d == tensor.Float64:
		return v, nil
	case d.IsFloat():
		if s.scalarKind == ops.ScalarFloat && !math.IsInf(v, 0) && math.Abs(v) > math.MaxFloat32 {
			return 0, overflow
		}
		return float64(float32(v)), nil
	}
	lo, hi := intRange(d)
	if s.scalarKind == ops.ScalarInt && d == tensor.Uint8 {
		// an unsigned type takes negative ints that wrap (a - b as
		// a + 255*b)
		if v > hi || -v > hi {
			return 0, overflow
		}
		return wrapInt(d, v), nil
	}
	if v != v || v < lo || v > hi {
		return 0, overflow
	}
	return math.Trunc(v), nil
}

// fma32 is float32's fused multiply-add x*y + z, rounded once, for float32
// values x, y, z: x*y is exact in float64, and the sum is rounded to odd
// before the rounding to float32, so that the double rounding is exact.
func fma32(x, y, z float64) float64 {
	p := x * y
	r := p + z
	if bb := r - p; r-r == 0 { // finite
		if e := (p - (r - bb)) + (z - bb); e != 0 {
			if bits := math.Float64bits(r); bits&1 == 0 {
				if (e > 0) == (r > 0) {
					bits++
				} else {
					bits--
				}
				r = math.Float64frombits(bits)
			}
		}
	}
	return float64(float32(r))
}

// addcFunc is the per-element formula of addcmul (div false) or addcdiv
// at compute dtype d, as PyTorch 1.13's CPU kernels evaluate it:
// self + (value*t1)*t2 with a fused multiply-add at float32 and float64
// (the compiler contracts it), self + (value*t1)/t2 without; float16 and
// bfloat16 compute in float32 (the result is rounded to d afterwards);
// integers wrap.
func addcFunc(d tensor.DType, div bool, v float64) func(s, a, b float64) float64 {
	switch {
	case d == tensor.Float64 && div:
		return func(s, a, b float64) float64 { return s + v*a/b }
	case d == tensor.Float64:
		return func(s, a, b float64) float64 { return math.FMA(v*a, b, s) }
	case d.IsFloat() && div:
		return func(s, a, b float64) float64 {
			q := float64(float32(float64(float32(v*a)) / b))
			return float64(float32(s + q))
		}
	case d.IsFloat():
		return func(s, a, b float64) float64 { return fma32(float64(float32(v*a)), b, s) }
	}
	iv := int64(v)
	return func(s, a, b float64) float64 {
		return wrapInt(d, float64(int64(s)+iv*int64(a)*int64(b)))
	}
}

// ternaryMap evaluates f over three broadcast operands (values already cast
// to the compute dtype) into a new array of dtype res. An operand of one
// element (a scalar weight) is read in place, without an index map.
func ternaryMap(res tensor.DType, shape []int, in [3]*array, vals [3][]float64, f func(s, a, b float64) float64) *array {
	out := newArray(res, shape)
	n := len(out.data)
	flat := true // every operand has the output's shape or one element
	var stride [3]int
	for i, a := range in {
		switch {
		case slices.Equal(a.shape, shape):
			stride[i] = 1
		case len(vals[i]) == 1:
		default:
			flat = false
		}
	}
	forChunks(n, func(from, to int) error {
		dst := out.data[from:to]
		s, a, b := vals[0], vals[1], vals[2]
		if flat {
			ss, sa, sb := stride[0], stride[1], stride[2]
			for k := range dst {
				j := from + k
				dst[k] = f(s[j*ss], a[j*sa], b[j*sb])
			}
			return nil
		}
		is, ia, ib := newBcastIter(in[0].shape, shape), newBcastIter(in[1].shape, shape), newBcastIter(in[2].shape, shape)
		is.seek(from)
		ia.seek(from)
		ib.seek(from)
		for k := range dst {
			dst[k] = f(s[is.pos], a[ia.pos], b[ib.pos])
			is.step()
			ia.step()
			ib.step()
		}
		return nil
	})
	return out
}

// addcDType checks an addcmul/addcdiv call the way PyTorch does and
// returns the result dtype and shape.
func addcDType(c *call, div bool) (tensor.DType, []int, error) {
	s, t1, t2, v := c.in[0], c.in[1], c.in[2], c.in[3]
	if s.scalar || t1.scalar || t2.scalar {
		return 0, nil, errors.New("self, tensor1 and tensor2 must be tensors")
	}
	if v == nil || !v.scalar {
		return 0, nil, errors.New("value must be a number")
	}
	if div && !t1.dtype.IsFloat() && !t2.dtype.IsFloat() {
		return 0, nil, errors.New(addcdivIntegerMsg)
	}
	shape, err := ops.BroadcastShapes(s.shape, t1.shape, t2.shape)
	if err != nil {
		return 0, nil, err
	}
	dt := resultType(s, t1, t2)
	if c.attrs.Bool("inplace", false) {
		if err := ops.CheckInplace(c.op, s.shape, s.dtype, shape, dt); err != nil {
			return 0, nil, err
		}
	}
	if dt == tensor.Bool {
		return 0, nil, notImplemented(c.op+"_cpu_out", dt)
	}
	return dt, shape, nil
}

const addcdivIntegerMsg = "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. " +
	"The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs " +
	"and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes."

// emuRound rounds v in place the way a PyTorch CPU kernel's result of dtype
// d is stored: through float32 for bfloat16 (its opmath type), float16 as
// float32 (PyTorch 1.13's CPU has no float16 kernel for these ops: the
// conformance corpus computes them in float32), integers left exact.
func emuRound(d tensor.DType, v []float64) {
	switch d {
	case tensor.Float32, tensor.Float16:
		roundSlice(tensor.Float32, v)
	case tensor.BFloat16:
		roundSlice(tensor.Float32, v)
		roundSlice(tensor.BFloat16, v)
	}
}

// viaF32 is the dtype a value of dtype d is computed at: float16 as
// float32 (see emuRound).
func viaF32(d tensor.DType) tensor.DType {
	if d == tensor.Float16 {
		return tensor.Float32
	}
	return d
}

// scalarRound converts a Python number to a tensor of dtype d the way a
// wrapped number is cast (double to float to bfloat16), float16 as
// float32 (see emuRound).
func scalarRound(d tensor.DType, x float64) float64 {
	if d == tensor.BFloat16 {
		return roundTo(d, roundTo(tensor.Float32, x))
	}
	return roundTo(viaF32(d), x)
}

// scaled returns a's values broadcast to shape times the number s (a
// wrapped scalar: cast to the product's dtype first), rounded as a
// PyTorch mul stores them, and the product's dtype.
func scaled(a, s *array, shape []int) ([]float64, tensor.DType) {
	d := resultType(a, s)
	v := scalarRound(d, s.data[0])
	w := expandTo(a, shape)
	forChunks(len(w), func(from, to int) error {
		for i := from; i < to; i++ {
			w[i] *= v
		}
		return nil
	})
	emuRound(d, w)
	return w, d
}

func addcKernel(div bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt, shape, err := addcDType(c, div)
			if err != nil {
				return nil, err
			}
			v, err := scalarTo(c.in[3], dt)
			if err != nil {
				return nil, err
			}
			in := [3]*array{c.in[0], c.in[1], c.in[2]}
			var vals [3][]float64
			for i, a := range in {
				vals[i] = castValues(a, dt)
			}
			return []*array{ternaryMap(dt, shape, in, vals, addcFunc(dt, div, v))}, nil
		},
		// PyTorch's formulas (derivatives.yaml), each product and quotient
		// rounded to its dtype as autograd's ops store them:
		// addcmul: self g, tensor1 g*(tensor2*value), tensor2 g*(tensor1*value);
		// addcdiv: self g, tensor1 g*(value/tensor2),
		// tensor2 -g*((tensor1*value)/(tensor2*tensor2)).
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			t1, t2, val := c.in[1], c.in[2], c.in[3]
			out := outs[0]
			shape := out.shape
			n := len(out.data)
			g := gradData(gos[0], n)
			gd := out.dtype
			if gos[0] != nil {
				gd = gos[0].dtype
			}
			gdArr := &array{dtype: gd, shape: shape}
			// product g*w of w (dtype wd), rounded to their common dtype
			times := func(w []float64, wd tensor.DType, neg bool) []float64 {
				pd := resultType(gdArr, &array{dtype: wd, shape: shape})
				r := float64sFor(n)
				sign := 1.0
				if neg {
					sign = -1
				}
				forChunks(n, func(from, to int) error {
					for i := from; i < to; i++ {
						r[i] = sign * g[i] * w[i]
					}
					return nil
				})
				emuRound(pd, r)
				return r
			}
			grads := []*array{gradFor(c, 0, g, shape), nil, nil, nil}
			if !div {
				if c.requiresGrad[1] {
					w, wd := scaled(t2, val, shape)
					grads[1] = gradForOwned(c, 1, times(w, wd, false), shape)
				}
				if c.requiresGrad[2] {
					w, wd := scaled(t1, val, shape)
					grads[2] = gradForOwned(c, 2, times(w, wd, false), shape)
				}
				return grads, nil
			}
			if c.requiresGrad[1] {
				// value/tensor2 is full_like(tensor2, value).div_(tensor2):
				// an integer tensor2 cannot hold the quotient.
				if !t2.dtype.IsFloat() {
					return nil, ops.CastError(ops.DefaultFloat, t2.dtype)
				}
				q := expandTo(t2, shape)
				v := scalarRound(t2.dtype, val.data[0])
				for i := range q {
					q[i] = v / q[i]
				}
				emuRound(t2.dtype, q)
				grads[1] = gradForOwned(c, 1, times(q, t2.dtype, false), shape)
			}
			if c.requiresGrad[2] {
				num, nd := scaled(t1, val, shape)
				den := expandTo(t2, shape)
				for i, x := range den {
					den[i] = x * x
				}
				emuRound(t2.dtype, den)
				qd := ops.ToFloat(resultType(&array{dtype: nd, shape: shape}, &array{dtype: t2.dtype, shape: shape}))
				for i := range num {
					num[i] /= den[i]
				}
				emuRound(qd, num)
				grads[2] = gradForOwned(c, 2, times(num, qd, true), shape)
			}
			return grads, nil
		},
	}
}

// ---- lerp ----

// lerpFunc is PyTorch 1.13's lerp at compute dtype d: two branches on
// |weight| < 0.5, each a multiply-add the compiler fuses; float16 and
// bfloat16 compute in float32 (opmath), a scalar weight converted to float
// (not to the tensors' dtype).
func lerpFunc(d tensor.DType) func(s, e, w float64) float64 {
	if d == tensor.Float64 {
		return func(s, e, w float64) float64 {
			diff := e - s
			if w < 0.5 {
				return math.FMA(w, diff, s)
			}
			return math.FMA(-diff, 1-w, e)
		}
	}
	return func(s, e, w float64) float64 {
		diff := float64(float32(e - s))
		if w < 0.5 {
			return fma32(w, diff, s)
		}
		return fma32(-diff, float64(float32(1-w)), e)
	}
}

// lerpCheck checks a lerp call as PyTorch does and returns the result
// shape.
func lerpCheck(c *call) ([]int, error) {
	s, e, w := c.in[0], c.in[1], c.in[2]
	if s.scalar || e.scalar {
		return nil, errors.New("self and end must be tensors")
	}
	if e.dtype != s.dtype {
		return nil, fmt.Errorf("expected dtype %s for `end` but got dtype %s", s.dtype.CppName(), e.dtype.CppName())
	}
	if !w.scalar && w.dtype != s.dtype {
		return nil, fmt.Errorf("expected dtype %s for `weight` but got dtype %s", s.dtype.CppName(), w.dtype.CppName())
	}
	shape, err := ops.BroadcastShapes(s.shape, e.shape, w.shape)
	if err != nil {
		return nil, err
	}
	if c.attrs.Bool("inplace", false) {
		if err := ops.CheckInplace(c.op, s.shape, s.dtype, shape, s.dtype); err != nil {
			return nil, err
		}
	}
	if !s.dtype.IsFloat() {
		k := "lerp_kernel_scalar"
		if !w.scalar {
			k = "lerp_kernel_tensor"
		}
		return nil, notImplemented(k, s.dtype)
	}
	return shape, nil
}

func lerpKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			shape, err := lerpCheck(c)
			if err != nil {
				return nil, err
			}
			s, e, w := c.in[0], c.in[1], c.in[2]
			dt := s.dtype
			wv := w.data
			if w.scalar {
				v, err := scalarTo(w, dt)
				if err != nil {
					return nil, err
				}
				wv = []float64{v}
			}
			in := [3]*array{s, e, w}
			return []*array{ternaryMap(dt, shape, in, [3][]float64{s.data, e.data, wv}, lerpFunc(dt))}, nil
		},
		// PyTorch's formulas, each product rounded to the dtype as
		// autograd's ops store it: a scalar weight w gives self g*(1-w)
		// and end g*w, the scalars rounded to the dtype (mul's wrapped
		// number); a tensor weight gives self g*(1-w), end g*w and weight
		// g*(end-self), with 1-w and end-self rounded first.
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			s, e, w := c.in[0], c.in[1], c.in[2]
			out := outs[0]
			shape, n := out.shape, len(out.data)
			g := gradData(gos[0], n)
			d := viaF32(out.dtype)
			prod := func(f func(k int) float64) []float64 {
				r := float64sFor(n)
				forChunks(n, func(from, to int) error {
					for k := from; k < to; k++ {
						r[k] = g[k] * f(k)
					}
					return nil
				})
				emuRound(d, r)
				return r
			}
			grads := make([]*array, 3)
			if w.scalar {
				one := scalarRound(d, 1-w.data[0])
				wv := scalarRound(d, w.data[0])
				if c.requiresGrad[0] {
					grads[0] = gradForOwned(c, 0, prod(func(int) float64 { return one }), shape)
				}
				if c.requiresGrad[1] {
					grads[1] = gradForOwned(c, 1, prod(func(int) float64 { return wv }), shape)
				}
				return grads, nil
			}
			ww := expandTo(w, shape)
			if c.requiresGrad[0] {
				om := make([]float64, n)
				for k, x := range ww {
					om[k] = 1 - x
				}
				emuRound(d, om)
				grads[0] = gradForOwned(c, 0, prod(func(k int) float64 { return om[k] }), shape)
			}
			if c.requiresGrad[1] {
				grads[1] = gradForOwned(c, 1, prod(func(k int) float64 { return ww[k] }), shape)
			}
			if c.requiresGrad[2] {
				diff := expandTo(e, shape)
				sv := expandTo(s, shape)
				for k := range diff {
					diff[k] -= sv[k]
				}
				emuRound(d, diff)
				grads[2] = gradForOwned(c, 2, prod(func(k int) float64 { return diff[k] }), shape)
			}
			return grads, nil
		},
	}
}

// ---- arange / range ----

// accDType is at::acc_type<T, false> (the CPU accumulate type) of dtype d.
func accDType(d tensor.DType) tensor.DType {
	switch {
	case d == tensor.Float16 || d == tensor.BFloat16:
		return tensor.Float32
	case d.IsFloat():
		return tensor.Float64
	}
	return tensor.Int64
}

// cppNumber prints a number as C++'s ostream does (six significant
// digits, inf and nan in lower case).
func cppNumber(v float64, integral bool) string {
	switch {
	case integral:
		return strconv.FormatInt(int64(v), 10)
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// arangeForward is torch.arange (or torch.range with inclusive) as
// PyTorch 1.13's CPU computes it: the bounds converted to the accumulate
// type, the length from them (arange at int64: (end-start+step-sign)/step
// in integers; at other dtypes ceil((end-start)/step) in double; range:
// (end-start)/step+1 in the accumulate type), then start + step*i in the
// accumulate type, cast to the dtype.
func arangeForward(c *call) ([]*array, error) {
	inclusive := c.attrs.Bool("inclusive", false)
	name := "arange"
	if inclusive {
		name = "range"
	}
	anyFloat := false
	for i, a := range c.in {
		if a == nil || !a.scalar {
			return nil, fmt.Errorf("%s: input %d must be a number", name, i)
		}
		anyFloat = anyFloat || a.scalarKind == ops.ScalarFloat
	}
	dt, ok, err := dtypeAttr(c, "dtype")
	if err != nil {
		return nil, err
	}
	if !ok {
		dt = tensor.Int64
		if anyFloat || inclusive {
			dt = ops.DefaultFloat
		}
	}
	if dt == tensor.Bool {
		return nil, notImplemented(name+"_cpu", dt)
	}
	acc := accDType(dt)
	var x [3]float64
	for i, a := range c.in {
		if x[i], err = scalarTo(a, acc); err != nil {
			return nil, err
		}
	}
	start, end, step := x[0], x[1], x[2]
	if !(step > 0 || step < 0) {
		return nil, errors.New("step must be nonzero")
	}
	if math.IsInf(start, 0) || math.IsNaN(start) || math.IsInf(end, 0) || math.IsNaN(end) {
		return nil, fmt.Errorf("unsupported range: %s -> %s", cppNumber(start, acc == tensor.Int64), cppNumber(end, acc == tensor.Int64))
	}
	if !(step > 0 && end >= start || step < 0 && end <= start) {
		if inclusive {
			return nil, errors.New("upper bound and lower bound inconsistent with step sign")
		}
		return nil, errors.New("upper bound and larger bound inconsistent with step sign")
	}
	var size float64
	switch {
	case inclusive && acc == tensor.Int64:
		size = float64((int64(end)-int64(start))/int64(step) + 1)
	case inclusive && acc == tensor.Float32:
		size = math.Trunc(float64(float32(float64(float32(end-start))/step)) + 1)
	case inclusive:
		size = math.Trunc((end-start)/step + 1)
	case dt == tensor.Int64:
		sgn := int64(0)
		if step > 0 {
			sgn = 1
		} else {
			sgn = -1
		}
		size = float64((int64(end) - int64(start) + int64(step) - sgn) / int64(step))
	default:
		size = math.Ceil((c.in[1].data[0] - c.in[0].data[0]) / c.in[2].data[0])
	}
	if !(size >= 0 && size <= 1<<53) {
		return nil, errors.New("invalid size, possible overflow?")
	}
	out := newArray(dt, []int{int(size)})
	var f func(i int) float64
	switch acc {
	case tensor.Int64:
		s0, st := int64(start), int64(step)
		f = func(i int) float64 { return wrapInt(dt, float64(s0+st*int64(i))) }
	case tensor.Float32:
		f = func(i int) float64 { return fma32(step, float64(float32(i)), start) }
	default:
		f = func(i int) float64 { return math.FMA(step, float64(i), start) }
	}
	forChunks(len(out.data), func(from, to int) error {
		for i := from; i < to; i++ {
			out.data[i] = f(i)
		}
		return nil
	})
	return []*array{out}, nil
}
