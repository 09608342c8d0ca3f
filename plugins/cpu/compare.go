package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The compare family: comparisons, logical and bitwise ops, predicates.
// Their results are exact: comparisons and logical ops give bool (0/1)
// computed at the promoted dtype of the operands (a Python number or a 0-d
// tensor rounded to it first, as PyTorch's TensorIterator casts them);
// the device wrapper writes an in-place result into input 0 at its dtype.
// None has a backward.

// ---- the row walker ----

// rowRun computes one run of output elements: a and b are either as long
// as dst or a single element broadcast over it.
type rowRun func(dst, a, b []float64)

// mapRows broadcasts x and y (values already cast to the compute dtype:
// xv, yv) and fills a new array of dtype res run by run: a run is a row of
// the output's last dimension, so the kernels' inner loops see contiguous
// slices (or one broadcast element) and no index map. Rows are spread over
// the cores in fixed chunks.
func mapRows(x, y *array, xv, yv []float64, res tensor.DType, run rowRun) (*array, error) {
	shape, err := ops.BroadcastShapes(x.shape, y.shape)
	if err != nil {
		return nil, err
	}
	out := newArray(res, shape)
	n := len(out.data)
	if n == 0 {
		return out, nil
	}
	if len(xv) == n && len(yv) == n || len(xv) == n && len(yv) == 1 || len(xv) == 1 && len(yv) == n {
		// same shapes, or one operand a single element: one run per chunk
		forChunks(n, func(from, to int) error {
			a, b := xv, yv
			if len(a) == n {
				a = a[from:to]
			}
			if len(b) == n {
				b = b[from:to]
			}
			run(out.data[from:to], a, b)
			return nil
		})
		return out, nil
	}
	rank := len(shape)
	last := shape[rank-1]
	rows := n / last
	rowShape := shape[:rank-1]
	// an operand's run is a whole row when its last dimension (aligned on
	// the right) is not broadcast, else one element
	full := func(a *array) bool { return len(a.shape) > 0 && a.shape[len(a.shape)-1] == last && last != 1 }
	xFull, yFull := full(x), full(y)
	lead := func(a *array) []int {
		if len(a.shape) == 0 {
			return nil
		}
		return a.shape[:len(a.shape)-1]
	}
	// positions are in rows of the operand (times its row length below)
	xLen, yLen := 1, 1
	if xFull {
		xLen = last
	}
	if yFull {
		yLen = last
	}
	parallel.Chunks(rows, max(1, chunkElems/last), func(from, to int) error {
		ix, iy := newBcastIter(lead(x), rowShape), newBcastIter(lead(y), rowShape)
		ix.seek(from)
		iy.seek(from)
		for r := from; r < to; r++ {
			px, py := ix.pos*xLen, iy.pos*yLen
			run(out.data[r*last:(r+1)*last], xv[px:px+xLen], yv[py:py+yLen])
			ix.step()
			iy.step()
		}
		return nil
	})
	return out, nil
}

// ---- comparisons and logical ops ----

// cmpKind names a bool-valued binary op.
type cmpKind int

const (
	cmpEq cmpKind = iota
	cmpNe
	cmpGt
	cmpGe
	cmpLt
	cmpLe
	cmpAnd // logical: operands tested against zero
	cmpOr
	cmpXor
)

// mirror is the kind that gives the same result with the operands
// swapped: a > b is b < a.
func (k cmpKind) mirror() cmpKind {
	switch k {
	case cmpGt:
		return cmpLt
	case cmpGe:
		return cmpLe
	case cmpLt:
		return cmpGt
	case cmpLe:
		return cmpGe
	}
	return k
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// cmpOne is one element of kind k.
func cmpOne(k cmpKind, x, y float64) bool {
	switch k {
	case cmpEq:
		return x == y
	case cmpNe:
		return x != y
	case cmpGt:
		return x > y
	case cmpGe:
		return x >= y
	case cmpLt:
		return x < y
	case cmpLe:
		return x <= y
	case cmpAnd:
		return x != 0 && y != 0
	case cmpOr:
		return x != 0 || y != 0
	}
	return (x != 0) != (y != 0)
}

// cmpRun is the rowRun of kind k: the kind is chosen once per run, the
// loops are plain.
func cmpRun(k cmpKind) rowRun {
	return func(dst, a, b []float64) {
		switch {
		case len(a) == 1 && len(b) == 1:
			v := b2f(cmpOne(k, a[0], b[0]))
			for i := range dst {
				dst[i] = v
			}
			return
		case len(a) == 1:
			cmpVecScalar(k.mirror(), dst, b, a[0])
			return
		case len(b) == 1:
			cmpVecScalar(k, dst, a, b[0])
			return
		}
		a, b = a[:len(dst)], b[:len(dst)]
		switch k {
		case cmpEq:
			for i := range dst {
				dst[i] = b2f(a[i] == b[i])
			}
		case cmpNe:
			for i := range dst {
				dst[i] = b2f(a[i] != b[i])
			}
		case cmpGt:
			for i := range dst {
				dst[i] = b2f(a[i] > b[i])
			}
		case cmpGe:
			for i := range dst {
				dst[i] = b2f(a[i] >= b[i])
			}
		case cmpLt:
			for i := range dst {
				dst[i] = b2f(a[i] < b[i])
			}
		case cmpLe:
			for i := range dst {
				dst[i] = b2f(a[i] <= b[i])
			}
		case cmpAnd:
			for i := range dst {
				dst[i] = b2f(a[i] != 0 && b[i] != 0)
			}
		case cmpOr:
			for i := range dst {
				dst[i] = b2f(a[i] != 0 || b[i] != 0)
			}
		case cmpXor:
			for i := range dst {
				dst[i] = b2f((a[i] != 0) != (b[i] != 0))
			}
		}
	}
}

// cmpVecScalar is cmpRun with b a single element v.
func cmpVecScalar(k cmpKind, dst, a []float64, v float64) {
	a = a[:len(dst)]
	switch k {
	case cmpEq:
		for i := range dst {
			dst[i] = b2f(a[i] == v)
		}
	case cmpNe:
		for i := range dst {
			dst[i] = b2f(a[i] != v)
		}
	case cmpGt:
		for i := range dst {
			dst[i] = b2f(a[i] > v)
		}
	case cmpGe:
		for i := range dst {
			dst[i] = b2f(a[i] >= v)
		}
	case cmpLt:
		for i := range dst {
			dst[i] = b2f(a[i] < v)
		}
	case cmpLe:
		for i := range dst {
			dst[i] = b2f(a[i] <= v)
		}
	case cmpAnd:
		if v == 0 {
			clear(dst)
			return
		}
		for i := range dst {
			dst[i] = b2f(a[i] != 0)
		}
	case cmpOr:
		if v != 0 {
			for i := range dst {
				dst[i] = 1
			}
			return
		}
		for i := range dst {
			dst[i] = b2f(a[i] != 0)
		}
	case cmpXor:
		for i := range dst {
			dst[i] = b2f((a[i] != 0) != (v != 0))
		}
	}
}

// cmpKernel is a comparison or logical op: both operands cast to their
// promoted dtype (ops.ResultType, wrapped numbers included), a bool result.
func cmpKernel(k cmpKind) *kernel {
	return &kernel{forward: func(c *call) ([]*array, error) {
		x, y := c.in[0], c.in[1]
		dt := resultType(x, y)
		out, err := mapRows(x, y, castValues(x, dt), castValues(y, dt), tensor.Bool, cmpRun(k))
		if err != nil {
			return nil, err
		}
		return []*array{out}, nil
	}}
}

func init() {
	all := append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)
	for op, k := range map[string]cmpKind{"eq": cmpEq, "ne": cmpNe, "gt": cmpGt, "ge": cmpGe, "lt": cmpLt, "le": cmpLe} {
		register(op, cmpKernel(k))
		supportDTypes(op, all...)
	}
	for op, k := range map[string]cmpKind{"logical_and": cmpAnd, "logical_or": cmpOr, "logical_xor": cmpXor} {
		register(op, cmpKernel(k))
		supportDTypes(op, all...)
	}
	register("logical_not", &kernel{forward: logicalNot})
	supportDTypes("logical_not", all...)
	for op, k := range map[string]bitKind{"bitwise_and": bitAnd, "bitwise_or": bitOr, "bitwise_xor": bitXor} {
		register(op, bitKernel(op, k))
		supportDTypes(op, intDTypes...)
	}
	register("bitwise_left_shift", bitKernel("bitwise_left_shift", bitShl))
	register("bitwise_right_shift", bitKernel("bitwise_right_shift", bitShr))
	supportDTypes("bitwise_left_shift", intDTypes[:5]...)
	supportDTypes("bitwise_right_shift", intDTypes[:5]...)
	register("bitwise_not", &kernel{forward: bitwiseNot})
	supportDTypes("bitwise_not", intDTypes...)
	register("isin", &kernel{forward: isin})
	// PyTorch refuses bool and bfloat16 inputs of isin
	supportDTypes("isin", tensor.Float64, tensor.Float32, tensor.Float16, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8)
	register("isclose", &kernel{forward: isclose})
	supportDTypes("isclose", all...)
	register("allclose", &kernel{forward: func(c *call) ([]*array, error) {
		outs, err := isclose(c)
		if err != nil {
			return nil, err
		}
		return []*array{allTrue(outs[0].data)}, nil
	}})
	supportDTypes("allclose", all...)
	register("equal", &kernel{forward: equal})
	supportDTypes("equal", all...)
	for _, op := range []string{"isnan", "isinf", "isfinite", "isneginf", "isposinf", "isreal", "signbit"} {
		register(op, &kernel{forward: predicateKernel(op)})
		supportDTypes(op, all...)
	}
}

// logicalNot is self == 0 (NaN is not zero).
func logicalNot(c *call) ([]*array, error) {
	x := c.in[0]
	out := newArray(tensor.Bool, x.shape)
	forChunks(len(x.data), func(from, to int) error {
		dst, src := out.data[from:to], x.data[from:to]
		for i, v := range src {
			dst[i] = b2f(v == 0)
		}
		return nil
	})
	return []*array{out}, nil
}

// ---- bitwise ops ----

// bitKind names a bitwise op of two integer operands.
type bitKind int

const (
	bitAnd bitKind = iota
	bitOr
	bitXor
	bitShl
	bitShr
)

// bitKernelNames are PyTorch's CPU kernel names, for its dtype errors.
var bitKernelNames = map[string]string{
	"bitwise_and": "bitwise_and_cpu", "bitwise_or": "bitwise_or_cpu", "bitwise_xor": "bitwise_xor_cpu",
	"bitwise_left_shift": "lshift_cpu", "bitwise_right_shift": "rshift_cpu", "bitwise_not": "bitwise_not_cpu",
}

// bitRun is the rowRun of kind k at integer dtype dt. Values are integers
// of dt held exactly in float64. A shift count is taken modulo the width
// PyTorch 1.13's CPU kernel shifts in (x86 masks the count): 64 for int64,
// 32 for the narrower types, which C++ promotes to int; a left shift's
// result is wrapped to dt afterwards (roundSlice).
func bitRun(k bitKind, dt tensor.DType) rowRun {
	mask := uint64(31)
	if dt == tensor.Int64 {
		mask = 63
	}
	return func(dst, a, b []float64) {
		n := len(dst)
		sa, sb := len(a) == 1 && n != 1, len(b) == 1 && n != 1
		switch k {
		case bitAnd:
			for i := range dst {
				dst[i] = float64(int64(pick(a, i, sa)) & int64(pick(b, i, sb)))
			}
		case bitOr:
			for i := range dst {
				dst[i] = float64(int64(pick(a, i, sa)) | int64(pick(b, i, sb)))
			}
		case bitXor:
			for i := range dst {
				dst[i] = float64(int64(pick(a, i, sa)) ^ int64(pick(b, i, sb)))
			}
		case bitShl:
			for i := range dst {
				dst[i] = float64(int64(pick(a, i, sa)) << (uint64(int64(pick(b, i, sb))) & mask))
			}
		case bitShr:
			for i := range dst {
				dst[i] = float64(int64(pick(a, i, sa)) >> (uint64(int64(pick(b, i, sb))) & mask))
			}
		}
	}
}

// pick is v[i], or v[0] for a broadcast single element.
func pick(v []float64, i int, one bool) float64 {
	if one {
		return v[0]
	}
	return v[i]
}

// bitKernel is a bitwise op or shift: the promoted dtype must be integer
// (or bool, except for shifts); an in-place call is checked first, as
// PyTorch's TensorIterator checks the cast before the kernel's dtype.
func bitKernel(op string, k bitKind) *kernel {
	return &kernel{forward: func(c *call) ([]*array, error) {
		x, y := c.in[0], c.in[1]
		dt := resultType(x, y)
		shape, err := ops.BroadcastShapes(x.shape, y.shape)
		if err != nil {
			return nil, err
		}
		if c.attrs.Bool("inplace", false) {
			if err := ops.CheckInplace(op, x.shape, x.dtype, shape, dt); err != nil {
				return nil, err
			}
		}
		if dt.IsFloat() || dt == tensor.Bool && (k == bitShl || k == bitShr) {
			return nil, notImplemented(bitKernelNames[op], dt)
		}
		out, err := mapRows(x, y, castValues(x, dt), castValues(y, dt), dt, bitRun(k, dt))
		if err != nil {
			return nil, err
		}
		if k == bitShl {
			roundSlice(dt, out.data)
		}
		return []*array{out}, nil
	}}
}

// bitwiseNot is ~self; for bool, logical not.
func bitwiseNot(c *call) ([]*array, error) {
	x := c.in[0]
	if x.dtype.IsFloat() {
		return nil, notImplemented("bitwise_not_cpu", x.dtype)
	}
	out := newArray(x.dtype, x.shape)
	boolean := x.dtype == tensor.Bool
	forChunks(len(x.data), func(from, to int) error {
		dst, src := out.data[from:to], x.data[from:to]
		if boolean {
			for i, v := range src {
				dst[i] = 1 - v
			}
			return nil
		}
		for i, v := range src {
			dst[i] = float64(^int64(v))
		}
		return nil
	})
	if x.dtype == tensor.Uint8 {
		roundSlice(tensor.Uint8, out.data)
	}
	return []*array{out}, nil
}

// ---- predicates ----

// predicateKernel is an elementwise test with a bool result. Integer and
// bool values are never NaN or infinite, and never -0.
func predicateKernel(op string) func(c *call) ([]*array, error) {
	return func(c *call) ([]*array, error) {
		x := c.in[0]
		out := newArray(tensor.Bool, x.shape)
		forChunks(len(x.data), func(from, to int) error {
			dst, src := out.data[from:to], x.data[from:to]
			switch op {
			case "isnan":
				for i, v := range src {
					dst[i] = b2f(v != v)
				}
			case "isinf":
				for i, v := range src {
					dst[i] = b2f(math.IsInf(v, 0))
				}
			case "isfinite":
				for i, v := range src {
					dst[i] = b2f(v-v == 0) // false for NaN and ±inf
				}
			case "isneginf":
				for i, v := range src {
					dst[i] = b2f(math.IsInf(v, -1))
				}
			case "isposinf":
				for i, v := range src {
					dst[i] = b2f(math.IsInf(v, 1))
				}
			case "isreal":
				for i := range dst {
					dst[i] = 1
				}
			case "signbit":
				for i, v := range src {
					dst[i] = b2f(math.Signbit(v))
				}
			}
			return nil
		})
		return []*array{out}, nil
	}
}

// ---- isclose ----

// expanded returns v (an operand's values) broadcast to shape out, from
// the arena.
func expanded(a *array, v []float64, out []int) []float64 {
	n := tensor.NumElements(out)
	if len(v) == n {
		return v
	}
	res := float64sFor(n)
	if len(v) == 1 {
		for i := range res {
			res[i] = v[0]
		}
		return res
	}
	m := ops.BroadcastIndex(a.shape, out)
	forChunks(n, func(from, to int) error {
		for k := from; k < to; k++ {
			res[k] = v[m[k]]
		}
		return nil
	})
	return res
}

// isclose is ATen's composite isclose of PyTorch 1.13: close = self ==
// other (or both NaN with equal_nan); unless rtol and atol are both zero,
// also where |self - other| is finite and <= atol + |rtol * other|. Each
// step is one ATen op at the dtype of the inputs, so its result is
// rounded to it (rtol and atol first, as wrapped numbers); integer and
// bool inputs compute the errors in float32, PyTorch's default dtype
// (other is cast to it first).
func isclose(c *call) ([]*array, error) {
	x, y := c.in[0], c.in[1]
	if x.dtype != y.dtype {
		return nil, fmt.Errorf("%s did not match %s", ops.TypeName(x.dtype), ops.TypeName(y.dtype))
	}
	rtol, atol := c.attrs.Float("rtol", 1e-5), c.attrs.Float("atol", 1e-8)
	if rtol < 0 {
		return nil, fmt.Errorf("rtol must be greater than or equal to zero, but got %g", rtol)
	}
	if atol < 0 {
		return nil, fmt.Errorf("atol must be greater than or equal to zero, but got %g", atol)
	}
	out, err := mapRows(x, y, x.data, y.data, tensor.Bool, cmpRun(cmpEq))
	if err != nil {
		return nil, err
	}
	n := len(out.data)
	d := x.dtype
	if c.attrs.Bool("equal_nan", false) && d.IsFloat() {
		xs, ys := expanded(x, x.data, out.shape), expanded(y, y.data, out.shape)
		forChunks(n, func(from, to int) error {
			for i := from; i < to; i++ {
				if xs[i] != xs[i] && ys[i] != ys[i] {
					out.data[i] = 1
				}
			}
			return nil
		})
	}
	if rtol == 0 && atol == 0 {
		return []*array{out}, nil
	}
	cd := d
	if !d.IsFloat() {
		cd = ops.DefaultFloat
	}
	xs, ys := expanded(x, castValues(x, cd), out.shape), expanded(y, castValues(y, cd), out.shape)
	r, a := roundTo(cd, rtol), roundTo(cd, atol)
	allowed, actual := float64sFor(n), float64sFor(n)
	forChunks(n, func(from, to int) error {
		al, ac := allowed[from:to], actual[from:to]
		for i := range al {
			al[i] = r * ys[from+i] // exact in float64 for operands of 24 bits
			ac[i] = xs[from+i] - ys[from+i]
		}
		roundSlice(cd, al)
		roundSlice(cd, ac)
		for i := range al {
			al[i] = a + math.Abs(al[i])
		}
		roundSlice(cd, al)
		o := out.data[from:to]
		for i, v := range ac {
			v = math.Abs(v)
			if v-v == 0 && v <= al[i] {
				o[i] = 1
			}
		}
		return nil
	})
	return []*array{out}, nil
}

// ---- isin ----

// isin is membership at the promoted dtype (a number as a wrapped
// scalar); bool and bfloat16 inputs are refused. PyTorch 1.13's CPU has
// no float16 kernel but its CUDA has: membership of float16 values is
// exact, so probe computes it. PyTorch 1.13 takes a sorting path when test_elements has at
// least int64(10·n^0.145) elements (n: the elements' count); with
// assume_unique it skips unique(), and an element is then found also
// where an equal element follows it in elements (its stable sort sees a
// duplicate). NaN is never found.
func isin(c *call) ([]*array, error) {
	x, y := c.in[0], c.in[1]
	for _, a := range []*array{x, y} {
		if d := operandDType(a); d == tensor.Bool || d == tensor.BFloat16 {
			return nil, fmt.Errorf("Unsupported input type encountered for isin(): %s", ops.TypeName(d))
		}
	}
	if x.scalar && y.scalar {
		return nil, fmt.Errorf("isin() received an invalid combination of arguments - got (Number, Number)")
	}
	dt := resultType(x, y)
	xv, yv := castValues(x, dt), castValues(y, dt)
	invert := c.attrs.Bool("invert", false)
	test := make(map[float64]struct{}, len(yv))
	for _, v := range yv {
		if v == v {
			test[v] = struct{}{} // +0 and -0 are one key
		}
	}
	out := newArray(tensor.Bool, x.shape)
	hit, miss := b2f(!invert), b2f(invert)
	n := len(xv)
	sorting := c.attrs.Bool("assume_unique", false) && !y.scalar && len(yv) >= int(10*math.Pow(float64(n), 0.145))
	if sorting {
		later := make(map[float64]struct{}, n)
		for i := n - 1; i >= 0; i-- {
			v := xv[i]
			_, inTest := test[v]
			_, dup := later[v]
			out.data[i] = miss
			if inTest || dup {
				out.data[i] = hit
			}
			if v == v {
				later[v] = struct{}{}
			}
		}
		return []*array{out}, nil
	}
	forChunks(n, func(from, to int) error {
		for i := from; i < to; i++ {
			out.data[i] = miss
			if _, ok := test[xv[i]]; ok {
				out.data[i] = hit
			}
		}
		return nil
	})
	return []*array{out}, nil
}

// ---- equal, allclose ----

// allTrue is a 0-d bool array: every value of v is non-zero (true when v
// is empty).
func allTrue(v []float64) *array {
	out := newArray(tensor.Bool, nil)
	out.data[0] = 1
	for _, x := range v {
		if x == 0 {
			out.data[0] = 0
			break
		}
	}
	return out
}

// equal is torch.equal: false for different shapes (no broadcasting),
// else every element equal at the promoted dtype (NaN is not).
func equal(c *call) ([]*array, error) {
	x, y := c.in[0], c.in[1]
	if !slices.Equal(x.shape, y.shape) {
		return []*array{newArray(tensor.Bool, nil)}, nil
	}
	dt := resultType(x, y)
	eq, err := mapRows(x, y, castValues(x, dt), castValues(y, dt), tensor.Bool, cmpRun(cmpEq))
	if err != nil {
		return nil, err
	}
	return []*array{allTrue(eq.data)}, nil
}
