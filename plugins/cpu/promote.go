package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Type promotion, as PyTorch's at::result_type and c10::promoteTypes.

// defaultFloat is PyTorch's default floating dtype: what a float Python
// scalar becomes next to integer tensors, and what integer inputs of
// always-float ops (true division, sqrt, exp, ...) produce.
const defaultFloat = tensor.Float32

// dtypeCategory orders dtypes by kind: bool < integer < floating.
func dtypeCategory(d tensor.DType) int {
	switch {
	case d == tensor.Bool:
		return 0
	case d.IsInt():
		return 1
	case d.IsFloat():
		return 2
	}
	return -1
}

// torchTypeName is the C++ ScalarType name PyTorch prints in messages.
func torchTypeName(d tensor.DType) string {
	switch d {
	case tensor.Float64:
		return "Double"
	case tensor.Float32:
		return "Float"
	case tensor.Float16:
		return "Half"
	case tensor.BFloat16:
		return "BFloat16"
	case tensor.Int8:
		return "Char"
	case tensor.Int16:
		return "Short"
	case tensor.Int32:
		return "Int"
	case tensor.Int64:
		return "Long"
	case tensor.Uint8:
		return "Byte"
	case tensor.Bool:
		return "Bool"
	}
	return d.String()
}

// promoteTypes is c10::promoteTypes for the dtypes probe knows. Invalid
// stands for "undefined" and yields the other operand.
func promoteTypes(a, b tensor.DType) tensor.DType {
	if a == tensor.Invalid {
		return b
	}
	if b == tensor.Invalid || a == b {
		return a
	}
	ca, cb := dtypeCategory(a), dtypeCategory(b)
	switch {
	case ca != cb:
		if ca > cb {
			return a
		}
		return b
	case ca == 2:
		if (a == tensor.Float16 && b == tensor.BFloat16) || (a == tensor.BFloat16 && b == tensor.Float16) {
			return tensor.Float32
		}
		if a.Size() >= b.Size() {
			return a
		}
		return b
	}
	// Two different integer types.
	if a == tensor.Uint8 || b == tensor.Uint8 {
		other := a
		if a == tensor.Uint8 {
			other = b
		}
		if other == tensor.Int8 {
			return tensor.Int16
		}
		return other
	}
	if a.Size() >= b.Size() {
		return a
	}
	return b
}

// operandDType is the dtype an operand brings to type promotion: a wrapped
// Python number is int64 (int), the default float dtype (float) or bool.
func operandDType(a *array) tensor.DType {
	if !a.scalar {
		return a.dtype
	}
	switch a.scalarKind {
	case ops.ScalarInt:
		return tensor.Int64
	case ops.ScalarBool:
		return tensor.Bool
	}
	return defaultFloat
}

// combineCategories is at::native's combine_categories: a lower-priority
// class (0-d tensors, then wrapped numbers) only matters when it is of a
// higher category than the result so far.
func combineCategories(higher, lower tensor.DType) tensor.DType {
	if dtypeCategory(higher) == 2 {
		return higher
	}
	if higher == tensor.Bool || dtypeCategory(lower) == 2 {
		return promoteTypes(higher, lower)
	}
	if higher != tensor.Invalid {
		return higher
	}
	return lower
}

// resultType is at::result_type over the operands (nil entries are
// skipped): dimensioned tensors take precedence over 0-d tensors, which take
// precedence over wrapped scalars, unless a lower class has a higher
// category (bool < int < float).
func resultType(args ...*array) tensor.DType {
	var dim, zero, wrapped tensor.DType
	for _, a := range args {
		if a == nil {
			continue
		}
		switch {
		case a.scalar:
			wrapped = promoteTypes(wrapped, operandDType(a))
		case len(a.shape) == 0:
			zero = promoteTypes(zero, a.dtype)
		default:
			dim = promoteTypes(dim, a.dtype)
		}
	}
	return combineCategories(dim, combineCategories(zero, wrapped))
}

// toFloat is the dtype of an always-float op (true division, sqrt, exp...)
// whose promoted input dtype is d: integer and bool give the default float.
func toFloat(d tensor.DType) tensor.DType {
	if d.IsFloat() {
		return d
	}
	return defaultFloat
}

// canCast is c10::canCast for real dtypes: a floating value cannot go into
// an integer or bool tensor, and a non-bool value cannot go into bool.
func canCast(from, to tensor.DType) bool {
	return dtypeCategory(from) <= dtypeCategory(to)
}

// castError is PyTorch's message for an in-place or out= result cast it
// refuses.
func castError(from, to tensor.DType) error {
	return fmt.Errorf("result type %s can't be cast to the desired output type %s", torchTypeName(from), torchTypeName(to))
}

// castTo rounds every value of a to dtype d in place and sets its dtype.
func castTo(a *array, d tensor.DType) {
	if a.dtype == d && !a.scalar {
		return
	}
	roundSlice(d, a.data)
	a.dtype = d
}

// roundSlice rounds values to dtype d as a C++ static_cast would: floats
// to nearest, integers truncated toward zero and wrapped modulo their
// width, bool to 0/1.
func roundSlice(d tensor.DType, v []float64) {
	if d == tensor.Float64 {
		return
	}
	for i, x := range v {
		v[i] = roundTo(d, x)
	}
}

// roundTo converts one value to dtype d (see roundSlice).
func roundTo(d tensor.DType, x float64) float64 {
	switch d {
	case tensor.Float64:
		return x
	case tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Bool:
		return tensor.Round(d, x)
	}
	return wrapInt(d, x)
}

// wrapInt truncates x toward zero and wraps it into integer dtype d the way
// a two's-complement conversion does (NaN and infinities give 0, values
// beyond 2^63 saturate for int64).
func wrapInt(d tensor.DType, x float64) float64 {
	if x != x || x > 1.8e19 || x < -1.8e19 {
		return tensor.Round(d, x)
	}
	if x >= 0x1p63 || x < -0x1p63 {
		return tensor.Round(tensor.Int64, x)
	}
	n := int64(x)
	switch d {
	case tensor.Int8:
		return float64(int8(n))
	case tensor.Int16:
		return float64(int16(n))
	case tensor.Int32:
		return float64(int32(n))
	case tensor.Uint8:
		return float64(uint8(n))
	}
	return float64(n)
}
