package cpu

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Elementwise kernels: unary math, binary arithmetic with broadcasting and
// type promotion, clamp, where and masked_fill.

// ---- shared machinery ----

// castValues returns a's values converted to dtype d (a copy when a
// conversion happens): PyTorch casts every operand to the common dtype
// before computing, wrapped scalars included.
func castValues(a *array, d tensor.DType) []float64 {
	if a.dtype == d || d == tensor.Float64 || a.dtype == tensor.Bool {
		return a.data // a bool's 0 and 1 are exact in every dtype
	}
	out := float64sFor(len(a.data))
	copy(out, a.data)
	roundSlice(d, out)
	return out
}

// operands are the broadcast inputs of an n-ary elementwise op.
type operands struct {
	shape []int
	vals  [][]float64 // per input, cast to the compute dtype
	maps  [][]int     // per input, broadcast map (nil: identity, one or a suffix)
	one   []bool      // per input: a single element broadcast to all
	// per input broadcast along leading dimensions only (its shape a suffix
	// of the output's after leading 1s): its element count, the value at
	// output position k being k mod that count; 0 otherwise. Such inputs
	// (attention masks, biases) need no index map of the output's size.
	mods []int
}

// broadcastOperands broadcasts the inputs (nil entries allowed and left
// nil) and casts them to the compute dtype.
func broadcastOperands(compute tensor.DType, in ...*array) (*operands, error) {
	var shapes [][]int
	for _, a := range in {
		if a != nil {
			shapes = append(shapes, a.shape)
		}
	}
	shape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil, err
	}
	o := &operands{shape: shape, vals: make([][]float64, len(in)), maps: make([][]int, len(in)), one: make([]bool, len(in)), mods: make([]int, len(in))}
	n := tensor.NumElements(shape)
	for i, a := range in {
		if a == nil {
			continue
		}
		o.vals[i] = castValues(a, compute)
		if len(a.data) == 1 && n != 1 {
			o.one[i] = true // no index map of n zeros
			continue
		}
		if m := len(a.data); m > 0 && m < n && suffixBroadcast(a.shape, shape) {
			o.mods[i] = m
			continue
		}
		o.maps[i] = ops.BroadcastIndex(a.shape, shape)
	}
	return o, nil
}

// get reads operand i at output position k.
func (o *operands) get(i, k int) float64 {
	if o.one[i] {
		return o.vals[i][0]
	}
	if m := o.mods[i]; m > 0 {
		return o.vals[i][k%m]
	}
	return at(o.vals[i], o.maps[i], k)
}

// suffixBroadcast reports whether shape in broadcasts to out along leading
// dimensions only: after in's leading 1s (and the dimensions out adds in
// front), every dimension equals out's, so that in's elements repeat in
// order every len(in) output elements.
func suffixBroadcast(in, out []int) bool {
	off := len(out) - len(in)
	if off < 0 {
		return false
	}
	j := 0
	for j < len(in) && in[j] == 1 {
		j++
	}
	for ; j < len(in); j++ {
		if in[j] != out[off+j] {
			return false
		}
	}
	return true
}

// gradFor reduces an output-shaped gradient to input i's shape, or returns
// nil when input i takes no gradient.
func gradFor(c *call, i int, g []float64, outShape []int) *array {
	if i >= len(c.in) || c.in[i] == nil || !c.requiresGrad[i] {
		return nil
	}
	in := c.in[i]
	return &array{shape: append([]int{}, in.shape...), data: sumToShape(g, outShape, in.shape), dtype: in.dtype}
}

// gradForOwned is gradFor for a g the caller made and gives up: where no
// reduction is needed it becomes the gradient itself, without a copy.
func gradForOwned(c *call, i int, g []float64, outShape []int) *array {
	if i >= len(c.in) || c.in[i] == nil || !c.requiresGrad[i] {
		return nil
	}
	if in := c.in[i]; slices.Equal(in.shape, outShape) {
		return &array{shape: append([]int{}, in.shape...), data: g, dtype: in.dtype}
	}
	return gradFor(c, i, g, outShape)
}

// gradData returns the values of an output gradient, zeros when it is nil.
func gradData(g *array, n int) []float64 {
	if g == nil {
		return zeros(n)
	}
	return g.data
}

// notImplemented is PyTorch's dispatch error for a dtype a kernel lacks.
func notImplemented(kernelName string, d tensor.DType) error {
	return fmt.Errorf("%q not implemented for '%s'", kernelName, ops.TypeName(d))
}

// ---- unary ops ----

type unaryDTypeRule int

const (
	keepDType  unaryDTypeRule = iota // integer in, integer out
	floatDType                       // integer/bool in, default float out
	floatOnly                        // floating inputs only
)

// unaryOp describes one unary elementwise op: f computes y from x; df
// returns dy/dx given x and the (rounded) output y.
type unaryOp struct {
	rule    unaryDTypeRule
	boolErr string // error for bool input ("" = allowed)
	intErr  string // kernel name in the "not implemented" error for integer input (floatOnly)
	f       func(x float64) float64
	df      func(x, y float64) float64
	// dfAt, when set, is df at the input's dtype dt: PyTorch's autograd
	// formula evaluated as separate tensor ops, each rounded to dt
	// (through float32 for float16 and bfloat16).
	dfAt func(x, y float64, dt tensor.DType) float64
	// fAt, when set, is f at a float32, float16 or bfloat16 result whose
	// kernel stores intermediate values at the dtype: r rounds to it.
	fAt func(x float64, r func(float64) float64) float64
	// fBF16 and gBF16, when set, are f and grad·f′ at bfloat16 for kernels
	// whose Vectorized<BFloat16> form rounds every operation (and whose
	// float32 and float16 forms are left to f and df).
	fBF16 func(x float64) float64
	gBF16 func(x, g float64) float64
}

const (
	sqrt2    = math.Sqrt2
	sqrt2Pi  = 2.5066282746310002 // sqrt(2*pi)
	geluBeta = math.Sqrt2 * (2 / math.SqrtPi) * 0.5
	geluK    = 0.044715
)

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// bf16Op rounds an operation's result as a bfloat16 kernel stores it
// (through float32, as atDT).
func bf16Op(v float64) float64 { return atDT(tensor.BFloat16, v) }

var unaryOps = map[string]unaryOp{
	"neg": {rule: keepDType, boolErr: "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
		f: func(x float64) float64 { return -x }, df: func(x, y float64) float64 { return -1 }},
	"abs": {rule: keepDType, boolErr: `"abs_cpu" not implemented for 'Bool'`,
		f: math.Abs, df: func(x, y float64) float64 { return sgn(x) }},
	"exp":  {rule: floatDType, f: math.Exp, df: func(x, y float64) float64 { return y }},
	"log":  {rule: floatDType, f: math.Log, df: func(x, y float64) float64 { return 1 / x }},
	"sqrt": {rule: floatDType, f: math.Sqrt, df: func(x, y float64) float64 { return 1 / (2 * y) }},
	"rsqrt": {rule: floatDType, f: func(x float64) float64 { return 1 / math.Sqrt(x) },
		df: func(x, y float64) float64 { return -0.5 * y * y * y },
		// -0.5 * grad * result.pow(3): the cube is a tensor of dt, at
		// bfloat16 two rounded products (powAt)
		dfAt: func(x, y float64, dt tensor.DType) float64 {
			if dt == tensor.Float64 || !dt.IsFloat() {
				return -0.5 * y * y * y
			}
			if dt == tensor.BFloat16 {
				return -0.5 * powAt(dt, y, 3)
			}
			return -0.5 * atDT(dt, roundTo(tensor.Float32, y*y)*y)
		}},
	"reciprocal": {rule: floatDType, f: func(x float64) float64 { return 1 / x },
		df: func(x, y float64) float64 { return -(y * y) },
		// -grad * (result * result): the square is a tensor of dt, then
		// the product with grad is rounded again (bit for bit with torch
		// 1.13 at float32, float16 and bfloat16)
		dfAt: func(x, y float64, dt tensor.DType) float64 {
			if dt == tensor.Float64 || !dt.IsFloat() {
				return -(y * y)
			}
			return -atDT(dt, y*y)
		}},
	"tanh":    {rule: floatDType, f: math.Tanh, df: func(x, y float64) float64 { return 1 - y*y }},
	"sigmoid": {rule: floatDType, f: sigmoid, df: func(x, y float64) float64 { return (1 - y) * y }},
	"sin": {rule: floatDType, f: math.Sin, df: func(x, y float64) float64 { return math.Cos(x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return atDT(dt, math.Cos(x)) }}, // grad * self.cos()
	"cos": {rule: floatDType, f: math.Cos, df: func(x, y float64) float64 { return -math.Sin(x) },
		dfAt: func(x, y float64, dt tensor.DType) float64 { return -atDT(dt, math.Sin(x)) }}, // grad * -self.sin()
	"relu": {rule: keepDType, boolErr: "Boolean inputs not supported for relu",
		f: func(x float64) float64 {
			if x > 0 || x != x {
				return x
			}
			return 0
		},
		df: func(x, y float64) float64 {
			// threshold_backward: zero where result <= 0 (NaN passes).
			if y <= 0 {
				return 0
			}
			return 1
		}},
	"silu": {rule: floatOnly, intErr: "silu_cpu",
		f: func(x float64) float64 { return x * sigmoid(x) },
		df: func(x, y float64) float64 {
			s := sigmoid(x)
			return s * (1 + x*(1-s))
		},
		// silu_kernel: x / (1 + exp(-x)); silu_backward_kernel:
		// dy · s · (1 + x · (1 − s)) with s = 1 / (1 + exp(-x))
		fBF16: func(x float64) float64 {
			r := bf16Op
			return r(x / r(1+r(math.Exp(-x))))
		},
		gBF16: func(x, g float64) float64 {
			r := bf16Op
			s := r(1 / r(1+r(math.Exp(-x))))
			return r(r(g*s) * r(1+r(x*r(1-s))))
		}},
}

func sgn(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0 // zero and NaN, as torch.sign
}

// geluForward is gelu with approximate "none" (erf) or "tanh".
func geluForward(x float64, tanhApprox bool) float64 {
	if tanhApprox {
		inner := geluBeta * (x + geluK*x*x*x)
		return 0.5 * x * (1 + math.Tanh(inner))
	}
	return x * 0.5 * (1 + math.Erf(x/sqrt2))
}

// geluTanhBF16 and geluTanhGradBF16 are gelu's tanh approximation and
// dy·its derivative as PyTorch 1.13's CPU kernels compute them at
// bfloat16: Vectorized<BFloat16> (and c10::BFloat16's scalar operators)
// round every product, sum and the tanh to bfloat16, and the constants
// are bfloat16 too (matched bit for bit against torch 1.13 on 4096 normal
// values).
func geluTanhBF16(x float64) float64 {
	r := bf16Op
	beta, kappa := r(geluBeta), r(geluK)
	cube := r(r(x*x) * x)
	inner := r(beta * r(x+r(kappa*cube)))
	return r(r(0.5*x) * r(1+r(math.Tanh(inner))))
}

func geluTanhGradBF16(x, dy float64) float64 {
	r := bf16Op
	beta, kappa := r(geluBeta), r(geluK)
	xSq := r(x * x)
	inner := r(beta * r(x+r(kappa*r(xSq*x))))
	t := r(math.Tanh(inner))
	left, right := r(0.5*x), r(1+t)
	leftD := r(0.5 * right)
	tanhD := r(1 - r(t*t))
	innerD := r(beta * r(1+r(r(3*kappa)*xSq)))
	rightD := r(r(left*tanhD) * innerD)
	return r(dy * r(leftD+rightD))
}

// geluGrad is d gelu / dx, as PyTorch's GeluBackward kernels compute it.
func geluGrad(x float64, tanhApprox bool) float64 {
	if tanhApprox {
		xSq := x * x
		inner := geluBeta * (x + geluK*xSq*x)
		t := math.Tanh(inner)
		left := 0.5 * x
		right := 1 + t
		leftD := 0.5 * right
		rightD := left * (1 - t*t) * geluBeta * (1 + 3*geluK*xSq)
		return leftD + rightD
	}
	cdf := 0.5 * (1 + math.Erf(x/sqrt2))
	pdf := math.Exp(-0.5*x*x) / sqrt2Pi
	return cdf + x*pdf
}

func unaryKernel(u unaryOp) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x := c.in[0]
			dt := x.dtype
			switch {
			case dt == tensor.Bool && u.boolErr != "":
				return nil, errors.New(u.boolErr)
			case !dt.IsFloat() && u.rule == floatOnly:
				return nil, notImplemented(u.intErr, dt)
			case !dt.IsFloat() && u.rule == floatDType:
				dt = ops.DefaultFloat
			}
			xv := castValues(x, dt)
			out := newArray(dt, x.shape)
			f := u.f
			if u.fBF16 != nil && dt == tensor.BFloat16 {
				f = u.fBF16
			} else if u.fAt != nil && narrowFloat(dt) {
				r := kernelRounder(dt)
				f = func(v float64) float64 { return u.fAt(v, r) }
			}
			forChunks(len(xv), func(from, to int) error {
				dst := out.data[from:to]
				for i, v := range xv[from:to] {
					dst[i] = f(v)
				}
				return nil
			})
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, y := c.in[0], outs[0]
			g := gradData(gos[0], len(y.data))
			res := float64sFor(len(g))
			forChunks(len(res), func(from, to int) error {
				if u.gBF16 != nil && x.dtype == tensor.BFloat16 {
					for i := from; i < to; i++ {
						res[i] = u.gBF16(x.data[i], g[i])
					}
					return nil
				}
				if u.dfAt != nil {
					for i := from; i < to; i++ {
						res[i] = g[i] * u.dfAt(x.data[i], y.data[i], x.dtype)
					}
					return nil
				}
				for i := from; i < to; i++ {
					res[i] = g[i] * u.df(x.data[i], y.data[i])
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, res, x.shape)}, nil
		},
	}
}

func geluKernel() *kernel {
	mode := func(c *call) (bool, error) {
		switch s := c.attrs.Str("approximate", "none"); s {
		case "none":
			return false, nil
		case "tanh":
			return true, nil
		default:
			return false, fmt.Errorf("approximate argument must be either none or tanh, got %q", s)
		}
	}
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			t, err := mode(c)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			if !x.dtype.IsFloat() {
				return nil, notImplemented("GeluKernelImpl", x.dtype)
			}
			out := newArray(x.dtype, x.shape)
			if t && x.dtype == tensor.BFloat16 {
				for i, v := range x.data {
					out.data[i] = geluTanhBF16(v)
				}
				return []*array{out}, nil
			}
			for i, v := range x.data {
				out.data[i] = geluForward(v, t)
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			t, err := mode(c)
			if err != nil {
				return nil, err
			}
			x := c.in[0]
			g := gradData(gos[0], len(x.data))
			res := zeros(len(g))
			if t && x.dtype == tensor.BFloat16 {
				for i := range res {
					res[i] = geluTanhGradBF16(x.data[i], g[i])
				}
				return []*array{gradFor(c, 0, res, x.shape)}, nil
			}
			for i := range res {
				res[i] = g[i] * geluGrad(x.data[i], t)
			}
			return []*array{gradFor(c, 0, res, x.shape)}, nil
		},
	}
}

// ---- binary arithmetic ----

// alphaValue reads the alpha attribute of add/sub with PyTorch's checks
// against the result dtype. PyTorch refuses any float alpha (even 2.0) for
// integral results; probe refuses only non-integral values, since a
// framework plugin may spell an integer alpha as a float attribute.
func alphaValue(c *call, dt tensor.DType) (float64, error) {
	a := c.attrs["alpha"]
	alpha := c.attrs.Float("alpha", 1)
	if a.Kind == ops.AttrBool {
		if dt != tensor.Bool {
			return 0, errors.New("Boolean alpha only supported for Boolean results.")
		}
		alpha = 0
		if a.Bool {
			alpha = 1
		}
	}
	if !dt.IsFloat() && dt != tensor.Bool && alpha != math.Trunc(alpha) {
		return 0, errors.New("For integral input tensors, argument alpha must not be a floating point number.")
	}
	return alpha, nil
}

func subCheck(a, b *array) error {
	da, db := operandDType(a), operandDType(b)
	if da == tensor.Bool && db == tensor.Bool {
		return errors.New("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
	}
	if da == tensor.Bool || db == tensor.Bool {
		return errors.New("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	return nil
}

// binaryMap evaluates f over the broadcast operands into a new array.
func binaryMap(c *call, res, compute tensor.DType, f func(a, b float64) (float64, error)) (*array, error) {
	x, y := c.in[0], c.in[1]
	shape, err := ops.BroadcastShapes(x.shape, y.shape)
	if err != nil {
		return nil, err
	}
	out := newArray(res, shape)
	n := len(out.data)
	a, b := castValues(x, compute), castValues(y, compute)
	aSame, bSame := slices.Equal(x.shape, shape), slices.Equal(y.shape, shape)
	bOne := len(b) == 1 && n != 1
	err = forChunks(n, func(from, to int) error {
		dst := out.data[from:to]
		var err error
		switch {
		case aSame && bSame:
			a, b := a[from:to], b[from:to]
			for k := range dst {
				if dst[k], err = f(a[k], b[k]); err != nil {
					return err
				}
			}
		case aSame && bOne:
			a, v := a[from:to], b[0]
			for k := range dst {
				if dst[k], err = f(a[k], v); err != nil {
					return err
				}
			}
		default:
			// broadcast positions walked in order, no index map of n
			ia, ib := newBcastIter(x.shape, shape), newBcastIter(y.shape, shape)
			ia.seek(from)
			ib.seek(from)
			for k := range dst {
				if dst[k], err = f(a[ia.pos], b[ib.pos]); err != nil {
					return err
				}
				ia.step()
				ib.step()
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func addSubKernel(sign float64) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			if sign < 0 {
				if err := subCheck(a, b); err != nil {
					return nil, err
				}
			}
			dt := resultType(a, b)
			alpha, err := alphaValue(c, dt)
			if err != nil {
				return nil, err
			}
			// alpha is applied in PyTorch's "opmath" type: float32 for
			// half and bfloat16 results.
			if dt == tensor.Float16 || dt == tensor.BFloat16 {
				alpha = roundTo(tensor.Float32, alpha)
			} else {
				alpha = roundTo(dt, alpha)
			}
			out, err := binaryMap(c, dt, dt, func(x, y float64) (float64, error) { return x + sign*alpha*y, nil })
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			out := outs[0]
			g := gradData(gos[0], len(out.data))
			alpha := c.attrs.Float("alpha", 1)
			gb := float64sFor(len(g))
			forChunks(len(g), func(from, to int) error {
				for i := from; i < to; i++ {
					gb[i] = sign * alpha * g[i]
				}
				return nil
			})
			return []*array{gradFor(c, 0, g, out.shape), gradForOwned(c, 1, gb, out.shape)}, nil
		},
	}
}

func mulKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt := resultType(c.in[0], c.in[1])
			out, err := binaryMap(c, dt, dt, func(x, y float64) (float64, error) { return x * y, nil })
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			out := outs[0]
			o, err := broadcastOperands(tensor.Float64, c.in[0], c.in[1])
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(out.data))
			ga, gb := zeros(len(g)), zeros(len(g))
			for k, v := range g {
				ga[k] = v * o.get(1, k)
				gb[k] = v * o.get(0, k)
			}
			return []*array{gradFor(c, 0, ga, out.shape), gradFor(c, 1, gb, out.shape)}, nil
		},
	}
}

// floorDivFloat is PyTorch's div_floor for floating types.
func floorDivFloat(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	fd := math.Floor(div)
	if div-fd > 0.5 {
		fd++
	}
	return fd
}

var errZeroDivision = errors.New("ZeroDivisionError")

func divKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			dt := resultType(a, b)
			mode := c.attrs.Str("rounding_mode", "")
			if c.attrs.IsNone("rounding_mode") {
				mode = ""
			}
			var f func(x, y float64) (float64, error)
			switch mode {
			case "":
				dt = ops.ToFloat(dt)
				f = func(x, y float64) (float64, error) { return x / y, nil }
			case "trunc":
				if dt.IsFloat() {
					f = func(x, y float64) (float64, error) { return math.Trunc(x / y), nil }
				} else {
					f = func(x, y float64) (float64, error) {
						if y == 0 {
							return 0, errZeroDivision
						}
						return float64(int64(x) / int64(y)), nil
					}
				}
			case "floor":
				if dt.IsFloat() {
					f = func(x, y float64) (float64, error) { return floorDivFloat(x, y), nil }
				} else {
					f = func(x, y float64) (float64, error) {
						if y == 0 {
							return 0, errZeroDivision
						}
						p, q := int64(x), int64(y)
						d := p / q
						if (p < 0) != (q < 0) && p%q != 0 {
							d--
						}
						return float64(d), nil
					}
				}
			default:
				return nil, fmt.Errorf("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode)
			}
			out, err := binaryMap(c, dt, dt, f)
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			out := outs[0]
			g := gradData(gos[0], len(out.data))
			ga, gb := zeros(len(g)), zeros(len(g))
			if c.attrs.IsNone("rounding_mode") {
				if dt := out.dtype; narrowFloat(dt) {
					return divGradsAt(c, out, g, dt)
				}
				o, err := broadcastOperands(tensor.Float64, c.in[0], c.in[1])
				if err != nil {
					return nil, err
				}
				for k, v := range g {
					x, y := o.get(0, k), o.get(1, k)
					ga[k] = v / y
					gb[k] = -v * ((x / y) / y)
				}
			}
			return []*array{gradFor(c, 0, ga, out.shape), gradFor(c, 1, gb, out.shape)}, nil
		},
	}
}

// divGradsAt is true division's backward at a float32, float16 or bfloat16
// result, each intermediate tensor of PyTorch's autograd formula rounded
// to dt: grad / other and -grad * ((self / other) / other). Numbers take
// part at dt, as TensorIterator casts them.
func divGradsAt(c *call, out *array, g []float64, dt tensor.DType) ([]*array, error) {
	o, err := broadcastOperands(dt, c.in[0], c.in[1])
	if err != nil {
		return nil, err
	}
	r := opRounder(dt)
	ga, gb := float64sFor(len(g)), float64sFor(len(g))
	forChunks(len(g), func(from, to int) error {
		for k := from; k < to; k++ {
			x, y := o.get(0, k), o.get(1, k)
			ga[k] = r(g[k] / y)
			gb[k] = r(-g[k] * r(r(x/y)/y))
		}
		return nil
	})
	return []*array{gradForOwned(c, 0, ga, out.shape), gradForOwned(c, 1, gb, out.shape)}, nil
}

// powInt is PyTorch's integer power (powi): wrapping int64 arithmetic, and
// for negative exponents 1, ±1 or 0.
func powInt(a, b int64) int64 {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if (-b)%2 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for b > 0 {
		if b&1 != 0 {
			r *= a
		}
		b >>= 1
		a *= a
	}
	return r
}

func powKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			a, b := c.in[0], c.in[1]
			if a.scalar && b.scalar {
				return nil, errors.New("pow needs at least one tensor operand")
			}
			dt := resultType(a, b)
			var f func(x, y float64) (float64, error)
			switch {
			case b.scalar && (dt == tensor.Float16 || dt == tensor.BFloat16):
				// pow_tensor_scalar_kernel: bfloat16 takes the products of
				// its optimized kernel for 2, 3 and -2 (each rounded), the
				// exponent tested as the double it is (powAt)
				e := b.data[0]
				f = func(x, _ float64) (float64, error) { return powAt(dt, x, e), nil }
			case dt.IsFloat():
				f = func(x, y float64) (float64, error) { return math.Pow(x, y), nil }
			default:
				if b.scalar && b.data[0] < 0 && !operandDType(b).IsFloat() {
					return nil, errors.New("Integers to negative integer powers are not allowed.")
				}
				f = func(x, y float64) (float64, error) {
					if dt == tensor.Bool {
						if y == 0 {
							return 1, nil
						}
						return x, nil
					}
					return float64(powInt(int64(x), int64(y))), nil
				}
			}
			out, err := binaryMap(c, dt, dt, f)
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			a, b, out := c.in[0], c.in[1], outs[0]
			g := gradData(gos[0], len(out.data))
			if dt := out.dtype; dt == tensor.Float16 || dt == tensor.BFloat16 {
				return powGradsAt(c, out, g, dt)
			}
			o, err := broadcastOperands(tensor.Float64, a, b)
			if err != nil {
				return nil, err
			}
			ga, gb := zeros(len(g)), zeros(len(g))
			for k, v := range g {
				x, y := o.get(0, k), o.get(1, k)
				// d/dself: zero where the exponent is 0 (pow_backward and
				// pow_backward_self).
				if y != 0 {
					ga[k] = v * (y * math.Pow(x, y-1))
				}
				// d/dexponent: zero where base == 0 and exponent >= 0.
				if !(x == 0 && y >= 0) {
					gb[k] = v * (out.data[k] * math.Log(x))
				}
			}
			return []*array{gradFor(c, 0, ga, out.shape), gradFor(c, 1, gb, out.shape)}, nil
		},
	}
}

// powGradsAt is pow's backward at a float16 or bfloat16 result as PyTorch
// 1.13's autograd formulas evaluate it, every intermediate tensor rounded
// to dt (through float32, as the CPU kernels store it):
//
//   - self, the exponent a number e: grad * (e * self.pow(e - 1)), zero for
//     e == 0; e - 1 is a double that the pow kernel casts to dt (powAt),
//     and e is cast to dt for the product (scalarAt);
//   - self, the exponent a tensor: where(exponent == 0, 0,
//     grad * (exponent * self.pow(exponent - 1))), exponent - 1 a tensor of
//     dt and the pow computed in float from dt operands;
//   - exponent, the base a tensor: grad * where(self == 0 & exponent >= 0,
//     0, result * self.log());
//   - exponent, the base a number b: grad * (result * log(b)), log(b) a
//     double cast to dt; for b == 0 the factor is 0 where exponent >= 0.
//
// Measured bit for bit against torch 1.13 on the CPU over 10⁵ random
// operands per form (golden group bf16_nn, pow/...): the results of its
// vectorized loop, which takes all but the remainder of a tensor shorter
// than two vectors (c10's scalar bfloat16 operators there round sqrt
// before rsqrt's division, e = 0.5). PyTorch 1.13 has no
// float16 log kernel, so at float16 the exponent's gradient of a tensor
// base errors there; here that log is computed in float32 and rounded to
// float16, as PyTorch's float16 kernels compute.
func powGradsAt(c *call, out *array, g []float64, dt tensor.DType) ([]*array, error) {
	a, b := c.in[0], c.in[1]
	o, err := broadcastOperands(dt, a, b)
	if err != nil {
		return nil, err
	}
	r := opRounder(dt)
	ga, gb := float64sFor(len(g)), float64sFor(len(g))
	wantA := !a.scalar && len(c.requiresGrad) > 0 && c.requiresGrad[0]
	wantB := !b.scalar && len(c.requiresGrad) > 1 && c.requiresGrad[1]
	// A number operand as the formula uses it: a double (e - 1, log b).
	var eNum, eAt, logB float64
	if b.scalar {
		eNum = b.data[0]
		eAt = scalarAt(dt, eNum)
	}
	if a.scalar {
		logB = scalarAt(dt, math.Log(a.data[0]))
	}
	forChunks(len(g), func(from, to int) error {
		for k := from; k < to; k++ {
			x, y := o.get(0, k), o.get(1, k)
			if wantA {
				switch {
				case b.scalar && eNum == 0, !b.scalar && y == 0:
					ga[k] = 0
				case b.scalar:
					ga[k] = r(g[k] * r(eAt*powAt(dt, x, eNum-1)))
				default:
					ga[k] = r(g[k] * r(y*r(math.Pow(x, r(y-1)))))
				}
			}
			if wantB {
				var f float64
				switch {
				case a.scalar && !(a.data[0] == 0 && y >= 0):
					f = r(out.data[k] * logB)
				case !a.scalar && !(x == 0 && y >= 0):
					f = r(out.data[k] * r(math.Log(x)))
				}
				gb[k] = r(g[k] * f)
			}
		}
		return nil
	})
	var gA, gB *array
	if wantA {
		gA = gradForOwned(c, 0, ga, out.shape)
	}
	if wantB {
		gB = gradForOwned(c, 1, gb, out.shape)
	}
	return []*array{gA, gB}, nil
}

// maxMin returns PyTorch's maximum (max=true) or minimum with NaN
// propagation.
func maxMin(x, y float64, max bool) float64 {
	if x != x {
		return x
	}
	if y != y {
		return y
	}
	if max == (x < y) {
		return y
	}
	return x
}

func maximumKernel(max bool) *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			dt := resultType(c.in[0], c.in[1])
			out, err := binaryMap(c, dt, dt, func(x, y float64) (float64, error) { return maxMin(x, y, max), nil })
			if err != nil {
				return nil, err
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			out := outs[0]
			o, err := broadcastOperands(tensor.Float64, c.in[0], c.in[1])
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(out.data))
			ga, gb := zeros(len(g)), zeros(len(g))
			for k, v := range g {
				x, y := o.get(0, k), o.get(1, k)
				h := v
				if x == y {
					h = v / 2
				}
				// maximum: self loses where self < other, other where
				// self > other; minimum the other way round.
				if !(max && x < y || !max && x > y) {
					ga[k] = h
				}
				if !(max && x > y || !max && x < y) {
					gb[k] = h
				}
			}
			return []*array{gradFor(c, 0, ga, out.shape), gradFor(c, 1, gb, out.shape)}, nil
		},
	}
}

// ---- clamp ----

func clampKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, lo, hi := c.in[0], c.in[1], c.in[2]
			if lo == nil && hi == nil {
				return nil, errors.New("torch.clamp: At least one of 'min' or 'max' must not be None")
			}
			if x.dtype == tensor.Bool {
				return nil, notImplemented("clamp_cpu", x.dtype)
			}
			dt := resultType(x, lo, hi)
			o, err := broadcastOperands(dt, x, lo, hi)
			if err != nil {
				return nil, err
			}
			out := newArray(dt, o.shape)
			for k := range out.data {
				v := o.get(0, k)
				if v != v {
					out.data[k] = v
					continue
				}
				if lo != nil {
					v = maxMin(v, o.get(1, k), true)
				}
				if hi != nil {
					v = maxMin(v, o.get(2, k), false)
				}
				out.data[k] = v
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			x, lo, hi, out := c.in[0], c.in[1], c.in[2], outs[0]
			o, err := broadcastOperands(tensor.Float64, x, lo, hi)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(out.data))
			gx, glo, ghi := zeros(len(g)), zeros(len(g)), zeros(len(g))
			for k, v := range g {
				xv := o.get(0, k)
				pass := true
				switch {
				case lo != nil && hi != nil:
					l, h := o.get(1, k), o.get(2, k)
					pass = xv >= l && xv <= h
					if xv < l && l < h {
						glo[k] = v
					}
					if xv > h || h < l {
						ghi[k] = v
					}
				case lo != nil:
					l := o.get(1, k)
					pass = xv >= l
					if xv < l {
						glo[k] = v
					}
				default:
					h := o.get(2, k)
					pass = xv <= h
					if xv > h {
						ghi[k] = v
					}
				}
				if pass {
					gx[k] = v
				}
			}
			return []*array{gradFor(c, 0, gx, out.shape), gradFor(c, 1, glo, out.shape), gradFor(c, 2, ghi, out.shape)}, nil
		},
	}
}

// ---- where / masked_fill ----

func whereKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			cond, a, b := c.in[0], c.in[1], c.in[2]
			if cond.scalar || cond.dtype != tensor.Bool {
				return nil, fmt.Errorf("where expected condition to be a boolean tensor, but got a tensor with dtype %s", ops.TypeName(cond.dtype))
			}
			dt := resultType(a, b)
			o, err := broadcastOperands(dt, cond, a, b)
			if err != nil {
				return nil, err
			}
			out := newArray(dt, o.shape)
			for k := range out.data {
				if o.get(0, k) != 0 {
					out.data[k] = o.get(1, k)
				} else {
					out.data[k] = o.get(2, k)
				}
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			out := outs[0]
			o, err := broadcastOperands(tensor.Float64, c.in[0], c.in[1], c.in[2])
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(out.data))
			ga, gb := zeros(len(g)), zeros(len(g))
			for k, v := range g {
				if o.get(0, k) != 0 {
					ga[k] = v
				} else {
					gb[k] = v
				}
			}
			return []*array{nil, gradFor(c, 1, ga, out.shape), gradFor(c, 2, gb, out.shape)}, nil
		},
	}
}

func maskedFillKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			x, mask, val := c.in[0], c.in[1], c.in[2]
			// PyTorch 1.13 still accepts (deprecated) integer masks holding
			// only 0 and 1; a floating mask is refused here (PyTorch 1.13
			// silently misreads it).
			if mask.dtype.IsFloat() {
				return nil, fmt.Errorf("masked_fill_ only supports boolean masks, but got mask with dtype %s", mask.dtype)
			}
			if mask.dtype != tensor.Bool {
				for _, v := range mask.data {
					if v != 0 && v != 1 {
						return nil, errors.New("Mask tensor can take 0 and 1 values only")
					}
				}
			}
			if !val.scalar && len(val.shape) != 0 {
				return nil, fmt.Errorf("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", len(val.shape))
			}
			o, err := broadcastOperands(x.dtype, x, mask)
			if err != nil {
				return nil, err
			}
			fill := roundTo(x.dtype, val.data[0])
			out := newArray(x.dtype, o.shape)
			for k := range out.data {
				if o.get(1, k) != 0 {
					out.data[k] = fill
				} else {
					out.data[k] = o.get(0, k)
				}
			}
			return []*array{out}, nil
		},
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			out := outs[0]
			o, err := broadcastOperands(tensor.Float64, c.in[0], c.in[1])
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(out.data))
			gx := zeros(len(g))
			sum := 0.0
			for k, v := range g {
				if o.get(1, k) != 0 {
					sum += v
				} else {
					gx[k] = v
				}
			}
			return []*array{gradFor(c, 0, gx, out.shape), nil, gradFor(c, 2, []float64{sum}, nil)}, nil
		},
	}
}

func init() {
	for name, u := range unaryOps {
		register(name, unaryKernel(u))
	}
	register("gelu", geluKernel())
	register("add", addSubKernel(1))
	register("sub", addSubKernel(-1))
	register("mul", mulKernel())
	register("div", divKernel())
	register("pow", powKernel())
	register("maximum", maximumKernel(true))
	register("minimum", maximumKernel(false))
	register("clamp", clampKernel())
	register("where", whereKernel())
	register("masked_fill", maskedFillKernel())

	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	ints := append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)
	for name, u := range unaryOps {
		switch {
		case u.rule == floatOnly:
		case u.boolErr != "":
			supportDTypes(name, ints...)
		default:
			supportDTypes(name, all...)
		}
	}
	for _, n := range []string{"add", "mul", "div", "pow", "maximum", "minimum", "where", "masked_fill"} {
		supportDTypes(n, all...)
	}
	supportDTypes("sub", ints...)
	supportDTypes("clamp", ints...)
}
