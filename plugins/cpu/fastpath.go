package cpu

import (
	"math"
	"slices"
	"unsafe"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The direct path: an optimizer step is a few hundred forward-only calls of
// add, sub, mul, div, sqrt, addcmul and addcdiv over whole parameter
// tensors (the AdamW step of a 42 M-parameter GPT: 2.3 G elements, four
// fifths of all the elements of the step's dump). The general path
// converts every operand to a []float64 array, evaluates a per-element
// closure and converts the result back: three passes and two float64
// copies per tensor. Here the same formulas run in one pass over the
// tensors' own float32 or float64 memory, into the result tensor. Each
// formula is the general kernel's, evaluated in float64 and rounded to the
// result dtype where the general path rounds it, so the results are the
// same bits (fastpath_test.go compares the two paths on every form this
// one takes).

// fastOps are the ops the direct path knows.
var fastOps = map[string]bool{"add": true, "sub": true, "mul": true, "div": true, "sqrt": true, "addcmul": true, "addcdiv": true}

// fastDisabled turns the direct path off (tests compare both paths).
var fastDisabled bool

// fastOperand is the second input of a binary op: a tensor of the call's
// shape (vals), or a single number (a Python scalar cast to the call's
// dtype, or a 0-d tensor broadcast over self).
type fastOperand[T float32 | float64] struct {
	vals  []T
	one   float64
	isOne bool
}

// fastExecute runs req on the direct path when it qualifies: forward only,
// no HF32, no defect planted on the op, every tensor input float32 (or
// every one float64) with the shape of input 0 — the second operand of a
// binary op may also be a Python number or a 0-d tensor — and memory
// aligned for its dtype. ok is false when the general path must run
// (which also reports every error PyTorch would raise).
func fastExecute(opts Options, req *device.ExecRequest) (res *device.ExecResult, ok bool) {
	if fastDisabled || req.Backward || req.Precision.HF32 || !fastOps[req.Op] {
		return nil, false
	}
	if n := len(req.RequiresGrad); n != 0 && n != len(req.Inputs) {
		return nil, false // the general path reports it
	}
	if opts.Mode == Emulated {
		for _, df := range opts.Defects {
			if df.Op == req.Op {
				return nil, false
			}
		}
	}
	b, err := ops.Bind(req.Op, req.Attrs, req.Inputs)
	if err != nil || len(b.Inputs) == 0 || b.Inputs[0].Kind != ops.KindTensor {
		return nil, false
	}
	self := b.Inputs[0].Tensor
	dt := self.DType
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return nil, false
	}
	shape := self.Shape
	// tensors: the inputs that must be tensors of self's shape; number:
	// the input that may also be a scalar or a 0-d tensor (-1: none)
	tensors, number := []int{0}, 1
	switch req.Op {
	case "sqrt":
		number = -1
	case "addcmul", "addcdiv":
		tensors, number = []int{0, 1, 2}, -1
		if len(b.Inputs) < 4 || b.Inputs[3].Kind != ops.KindScalar || b.Inputs[3].Scalar.Kind == ops.ScalarBool {
			return nil, false
		}
	case "add", "sub":
		if b.Attrs["alpha"].Kind == ops.AttrBool {
			return nil, false
		}
	case "div":
		if !b.Attrs.IsNone("rounding_mode") {
			return nil, false
		}
	}
	fits := func(t *tensor.Tensor, zeroD bool) bool {
		return t.DType == dt && (slices.Equal(t.Shape, shape) || zeroD && len(t.Shape) == 0) &&
			t.Validate() == nil && fastAligned(t)
	}
	for _, i := range tensors {
		if i >= len(b.Inputs) || b.Inputs[i].Kind != ops.KindTensor || !fits(b.Inputs[i].Tensor, false) {
			return nil, false
		}
	}
	if number >= 0 {
		if number >= len(b.Inputs) {
			return nil, false
		}
		switch v := b.Inputs[number]; v.Kind {
		case ops.KindScalar:
			if v.Scalar.Kind != ops.ScalarFloat && v.Scalar.Kind != ops.ScalarInt {
				return nil, false
			}
		case ops.KindTensor:
			if !fits(v.Tensor, true) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	var val float64
	if req.Op == "addcmul" || req.Op == "addcdiv" {
		if val, err = scalarTo(scalarArray(b.Inputs[3].Scalar), dt); err != nil {
			return nil, false
		}
	}
	out := &tensor.Tensor{DType: dt, Shape: append([]int(nil), shape...), Data: bytesFor(self.Len() * dt.Size())}
	if dt == tensor.Float32 {
		fastRun[float32](req.Op, b, val, out)
	} else {
		fastRun[float64](req.Op, b, val, out)
	}
	return &device.ExecResult{Outputs: []*tensor.Tensor{out}}, true
}

// fastAligned reports whether t's memory can be read as its element type.
func fastAligned(t *tensor.Tensor) bool {
	return len(t.Data) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(t.Data)))%uintptr(t.DType.Size()) == 0
}

// fastView is t's memory as a []T of t.Len() elements.
func fastView[T float32 | float64](t *tensor.Tensor) []T {
	n := t.Len()
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(t.Data))), n)
}

// fastOperandOf reads input v at the call's dtype dt: a number is cast to
// dt as the general path casts a wrapped scalar (castValues).
func fastOperandOf[T float32 | float64](v ops.Value, dt tensor.DType, n int) fastOperand[T] {
	if v.Kind == ops.KindScalar {
		return fastOperand[T]{one: roundTo(dt, v.Scalar.Float()), isOne: true}
	}
	if len(v.Tensor.Shape) == 0 && n != 1 {
		return fastOperand[T]{one: float64(fastView[T](v.Tensor)[0]), isOne: true}
	}
	return fastOperand[T]{vals: fastView[T](v.Tensor)}
}

// fastRun evaluates op into out; val is addcmul's or addcdiv's value,
// already converted as the general kernel converts it (scalarTo).
func fastRun[T float32 | float64](op string, b *ops.Bound, val float64, out *tensor.Tensor) {
	dt := out.DType
	dst := fastView[T](out)
	x := fastView[T](b.Inputs[0].Tensor)
	switch op {
	case "sqrt":
		forChunks(len(dst), func(from, to int) error {
			d, s := dst[from:to], x[from:to]
			for i, v := range s {
				d[i] = T(math.Sqrt(float64(v)))
			}
			return nil
		})
	case "add", "sub", "mul", "div":
		y := fastOperandOf[T](b.Inputs[1], dt, len(dst))
		k, c := fastMul, 0.0
		switch op {
		case "add", "sub":
			sign := 1.0
			if op == "sub" {
				sign = -1
			}
			// x + sign*alpha*y, grouped as the general kernel groups it
			k, c = fastAdd, sign*roundTo(dt, b.Attrs.Float("alpha", 1))
		case "div":
			k = fastDiv
		}
		fastBinary(k, c, dst, x, y)
	case "addcmul", "addcdiv":
		t1, t2 := fastView[T](b.Inputs[1].Tensor), fastView[T](b.Inputs[2].Tensor)
		div := op == "addcdiv"
		// addcFunc's formulas
		forChunks(len(dst), func(from, to int) error {
			d, s, p, q := dst[from:to], x[from:to], t1[from:to], t2[from:to]
			p, q = p[:len(s)], q[:len(s)]
			switch {
			case dt == tensor.Float64 && div:
				for i, sv := range s {
					d[i] = T(float64(sv) + val*float64(p[i])/float64(q[i]))
				}
			case dt == tensor.Float64:
				for i, sv := range s {
					d[i] = T(math.FMA(val*float64(p[i]), float64(q[i]), float64(sv)))
				}
			case div:
				for i, sv := range s {
					r := float64(float32(float64(float32(val*float64(p[i]))) / float64(q[i])))
					d[i] = T(float32(float64(sv) + r))
				}
			default:
				for i, sv := range s {
					d[i] = T(fma32(float64(float32(val*float64(p[i]))), float64(q[i]), float64(sv)))
				}
			}
			return nil
		})
	}
}

// The binary forms of fastBinary.
const (
	fastAdd = iota // x + c*y
	fastMul        // x * y
	fastDiv        // x / y
)

// fastBinary is dst = x op y element by element, computed in float64 and
// rounded to T, one loop per form (no call per element).
func fastBinary[T float32 | float64](k int, c float64, dst, x []T, y fastOperand[T]) {
	forChunks(len(dst), func(from, to int) error {
		d, s := dst[from:to], x[from:to]
		if y.isOne {
			v := y.one
			switch k {
			case fastAdd:
				for i, xv := range s {
					d[i] = T(float64(xv) + c*v)
				}
			case fastMul:
				for i, xv := range s {
					d[i] = T(float64(xv) * v)
				}
			default:
				for i, xv := range s {
					d[i] = T(float64(xv) / v)
				}
			}
			return nil
		}
		o := y.vals[from:to]
		o = o[:len(s)]
		switch k {
		case fastAdd:
			for i, xv := range s {
				d[i] = T(float64(xv) + c*float64(o[i]))
			}
		case fastMul:
			for i, xv := range s {
				d[i] = T(float64(xv) * float64(o[i]))
			}
		default:
			for i, xv := range s {
				d[i] = T(float64(xv) / float64(o[i]))
			}
		}
		return nil
	})
}
