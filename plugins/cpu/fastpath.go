package cpu

import (
	"github.com/probe-dev/probe/internal/floatconv"
	"math"
	"slices"
	"unsafe"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The direct path: an optimizer step is a few hundred forward-only calls of
// add, sub, mul, div, sqrt, addcmul, addcdiv and clone over whole parameter
// tensors (the AdamW step of a 42 M-parameter GPT: 2.3 G elements, four
// fifths of all the elements of the step's dump). The general path
// converts every operand to a []float64 array, evaluates a per-element
// closure and converts the result back: three passes and two float64
// copies per tensor. Here the same formulas run in one pass over the
// tensors' own float32, float64 or bfloat16 memory, into the result tensor. Each
// formula is the general kernel's, evaluated in float64 and rounded to the
// result dtype where the general path rounds it, so the results are the
// same bits (fastpath_test.go compares the two paths on every form this
// one takes).

// fastOps are the ops the direct path knows.
var fastOps = map[string]bool{"add": true, "sub": true, "mul": true, "div": true, "sqrt": true, "addcmul": true, "addcdiv": true, "clone": true}

// fastDisabled turns the direct path off (tests compare both paths).
var fastDisabled bool

// fastOperand is the second input of a binary op: a tensor of the call's
// shape (vals), or a single number (a Python scalar cast to the call's
// dtype, or a 0-d tensor broadcast over self).
type fastOperand[T float32 | float64 | uint16] struct {
	vals  []T
	one   float64
	isOne bool
}

// fastExecute runs req on the direct path when it qualifies: forward only,
// no HF32, no defect planted on the op, every tensor input of one dtype
// (float32, float64 or bfloat16) with the shape of input 0 — the second
// operand of a binary op may also be a Python number or a 0-d tensor —
// and memory aligned for its dtype. ok is false when the general path must
// run (which also reports every error PyTorch would raise).
func fastExecute(opts Options, req *device.ExecRequest) (res *device.ExecResult, ok bool) {
	if req.Backward || !fastOps[req.Op] {
		return nil, false
	}
	b := fastBound(opts, req)
	if b == nil || len(b.Inputs) == 0 || b.Inputs[0].Kind != ops.KindTensor {
		return nil, false
	}
	self := b.Inputs[0].Tensor
	dt := self.DType
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 {
		return nil, false
	}
	shape := self.Shape
	// tensors: the inputs that must be tensors of self's shape; number:
	// the input that may also be a scalar or a 0-d tensor (-1: none)
	tensors, number := []int{0}, 1
	switch req.Op {
	case "sqrt", "clone":
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
		var err error
		if val, err = scalarTo(scalarArray(b.Inputs[3].Scalar), dt); err != nil {
			return nil, false
		}
	}
	out := &tensor.Tensor{DType: dt, Shape: append([]int(nil), shape...)}
	if inplace := b.Attrs["inplace"]; inplace.Kind == ops.AttrBool && inplace.Bool && req.Op != "clone" {
		// add_, addcmul_ and the like write into self, as the framework
		// does (a device may overwrite its inputs): each element is read
		// before it is written, and the result needs no memory of its own
		// (the largest AdamW steps of a GPT dump: 0.4 GB a side).
		out.Data = self.Data
	} else {
		out.Data = opts.outputBytes(self.Len() * dt.Size())
	}
	switch dt {
	case tensor.Float32:
		fastRun[float32](req.Op, b, val, out)
	case tensor.Float64:
		fastRun[float64](req.Op, b, val, out)
	default:
		fastRunBF16(req.Op, b, val, out, opts.Mode == Emulated)
	}
	return &device.ExecResult{Outputs: []*tensor.Tensor{out}}, true
}

// fastBound binds req for a direct path; nil when the general path must
// run: the direct paths are off, the request asks for HF32, its
// requires_grad flags do not match its inputs, a defect is planted on the
// op, or the binding fails (the general path reports it).
func fastBound(opts Options, req *device.ExecRequest) *ops.Bound {
	if fastDisabled || req.Precision.HF32 {
		return nil
	}
	if n := len(req.RequiresGrad); n != 0 && n != len(req.Inputs) {
		return nil
	}
	if opts.Mode == Emulated {
		for _, df := range opts.Defects {
			if df.Op == req.Op {
				return nil
			}
		}
	}
	b, err := ops.Bind(req.Op, req.Attrs, req.Inputs)
	if err != nil {
		return nil
	}
	return b
}

// fastAligned reports whether t's memory can be read as its element type.
func fastAligned(t *tensor.Tensor) bool {
	return len(t.Data) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(t.Data)))%uintptr(t.DType.Size()) == 0
}

// fastView is t's memory as a []T of t.Len() elements.
func fastView[T float32 | float64 | uint16 | int64 | int32](t *tensor.Tensor) []T {
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

// fastRun evaluates op into out, a float32 or float64 tensor; val is
// addcmul's or addcdiv's value, already converted as the general kernel
// converts it (scalarTo).
func fastRun[T float32 | float64](op string, b *ops.Bound, val float64, out *tensor.Tensor) {
	dst := fastView[T](out)
	x := fastView[T](b.Inputs[0].Tensor)
	f := fastFormulaOf(op, b, out.DType, val)
	var y fastOperand[T]
	var t1, t2 []T
	switch op {
	case "add", "sub", "mul", "div":
		y = fastOperandOf[T](b.Inputs[1], out.DType, len(dst))
	case "addcmul", "addcdiv":
		t1, t2 = fastView[T](b.Inputs[1].Tensor), fastView[T](b.Inputs[2].Tensor)
	}
	forChunks(len(dst), func(from, to int) error {
		var p, q []T
		if t1 != nil {
			p, q = t1[from:to], t2[from:to]
		}
		fastRange(f, dst[from:to], x[from:to], y.at(from, to), p, q)
		return nil
	})
}

// fastRunBF16 is fastRun for bfloat16 tensors: each block of elements is
// decoded to float64, computed as at float32 (PyTorch's opmath type for
// bfloat16; the general path's formulas for bfloat16 are its float32
// ones), and stored rounded as the general path stores a result (through
// float32 in the emulated mode).
func fastRunBF16(op string, b *ops.Bound, val float64, out *tensor.Tensor, viaF32 bool) {
	dst := fastView[uint16](out)
	x := fastView[uint16](b.Inputs[0].Tensor)
	f := fastFormulaOf(op, b, out.DType, val)
	var y fastOperand[uint16]
	var t1, t2 []uint16
	switch op {
	case "add", "sub", "mul", "div":
		if v := b.Inputs[1]; v.Kind == ops.KindScalar {
			y = fastOperand[uint16]{one: roundTo(tensor.BFloat16, v.Scalar.Float()), isOne: true}
		} else if len(v.Tensor.Shape) == 0 && len(dst) != 1 {
			y = fastOperand[uint16]{one: bf16Value(fastView[uint16](v.Tensor)[0]), isOne: true}
		} else {
			y = fastOperand[uint16]{vals: fastView[uint16](v.Tensor)}
		}
	case "addcmul", "addcdiv":
		t1, t2 = fastView[uint16](b.Inputs[1].Tensor), fastView[uint16](b.Inputs[2].Tensor)
	}
	forChunks(len(dst), func(from, to int) error {
		const blk = 512
		var xs, ys, ps, qs, rs [blk]float64
		for off := from; off < to; off += blk {
			m := min(blk, to-off)
			bf16Decode(xs[:m], x[off:off+m])
			yo := fastOperand[float64]{one: y.one, isOne: y.isOne}
			if !y.isOne && y.vals != nil {
				bf16Decode(ys[:m], y.vals[off:off+m])
				yo.vals = ys[:m]
			}
			var p, q []float64
			if t1 != nil {
				bf16Decode(ps[:m], t1[off:off+m])
				bf16Decode(qs[:m], t2[off:off+m])
				p, q = ps[:m], qs[:m]
			}
			fastRange(f, rs[:m], xs[:m], yo, p, q)
			if viaF32 {
				for i, r := range rs[:m] {
					rs[i] = float64(float32(r))
				}
			}
			floatconv.ToBFloat16s(dst[off:off+m], rs[:m])
		}
		return nil
	})
}

func bf16Value(h uint16) float64 { return float64(math.Float32frombits(uint32(h) << 16)) }

func bf16Decode(dst []float64, src []uint16) { floatconv.FromBFloat16s(dst, src[:len(dst)]) }

// at is the operand's part for elements [from, to).
func (o fastOperand[T]) at(from, to int) fastOperand[T] {
	if o.vals != nil {
		o.vals = o.vals[from:to]
	}
	return o
}

// fastFormula is one op's per-element formula, as the general kernel
// evaluates it at the call's dtype.
type fastFormula struct {
	kind int     // fastAdd ... fastAddcdiv32
	c    float64 // fastAdd's sign·alpha; addcmul's and addcdiv's value
}

// The formulas of fastRange.
const (
	fastAdd       = iota // x + c*y
	fastMul              // x * y
	fastDiv              // x / y
	fastSqrt             // sqrt(x)
	fastCopy             // x (converted through float64 as the general path does)
	fastAddcmul64        // fma(c*p, q, x)
	fastAddcdiv64        // x + c*p/q
	fastAddcmul32        // fma32(f32(c*p), q, x)
	fastAddcdiv32        // f32(x + f32(f32(c*p) / q))
)

func fastFormulaOf(op string, b *ops.Bound, dt tensor.DType, val float64) fastFormula {
	wide := dt == tensor.Float64
	switch op {
	case "add", "sub":
		sign := 1.0
		if op == "sub" {
			sign = -1
		}
		// alpha in PyTorch's opmath type: float32 for bfloat16 (see
		// addSubKernel); x + sign*alpha*y grouped as that kernel groups it
		opmath := dt
		if dt == tensor.BFloat16 {
			opmath = tensor.Float32
		}
		return fastFormula{fastAdd, sign * roundTo(opmath, b.Attrs.Float("alpha", 1))}
	case "mul":
		return fastFormula{kind: fastMul}
	case "div":
		return fastFormula{kind: fastDiv}
	case "sqrt":
		return fastFormula{kind: fastSqrt}
	case "clone":
		return fastFormula{kind: fastCopy}
	case "addcmul":
		if wide {
			return fastFormula{fastAddcmul64, val}
		}
		return fastFormula{fastAddcmul32, val}
	}
	if wide {
		return fastFormula{fastAddcdiv64, val}
	}
	return fastFormula{fastAddcdiv32, val}
}

// fastRange is d = f(s, y) (binary ops, sqrt) or f(s, p, q) (addcmul,
// addcdiv) element by element, computed in float64 and rounded to T, one
// loop per formula (no call per element). addcFunc and the kernels of
// elementwise.go hold the same formulas.
func fastRange[T float32 | float64](f fastFormula, d, s []T, y fastOperand[T], p, q []T) {
	s = s[:len(d)]
	c := f.c
	switch f.kind {
	case fastSqrt:
		for i, v := range s {
			d[i] = T(math.Sqrt(float64(v)))
		}
		return
	case fastCopy:
		for i, v := range s {
			d[i] = T(float64(v))
		}
		return
	case fastAddcmul64, fastAddcdiv64, fastAddcmul32, fastAddcdiv32:
		p, q = p[:len(s)], q[:len(s)]
		switch f.kind {
		case fastAddcdiv64:
			for i, sv := range s {
				d[i] = T(float64(sv) + c*float64(p[i])/float64(q[i]))
			}
		case fastAddcmul64:
			for i, sv := range s {
				d[i] = T(math.FMA(c*float64(p[i]), float64(q[i]), float64(sv)))
			}
		case fastAddcdiv32:
			for i, sv := range s {
				r := float64(float32(float64(float32(c*float64(p[i]))) / float64(q[i])))
				d[i] = T(float32(float64(sv) + r))
			}
		default:
			for i, sv := range s {
				d[i] = T(fma32(float64(float32(c*float64(p[i]))), float64(q[i]), float64(sv)))
			}
		}
		return
	}
	if y.isOne {
		v := y.one
		switch f.kind {
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
		return
	}
	o := y.vals[:len(s)]
	switch f.kind {
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
}
