package ops

import (
	"github.com/probe-dev/probe/sdk/tensor"
)

// Type promotion as PyTorch does it (at::result_type, c10::promoteTypes,
// c10::canCast). A device computes an op at the dtype these functions give,
// so that its outputs have the dtypes the framework's would.

// DefaultFloat is PyTorch's default floating dtype: what a float Python
// number becomes next to integer tensors, and what integer inputs of
// always-float ops (true division, sqrt, exp, ...) produce.
const DefaultFloat = tensor.Float32

// category orders dtypes by kind: bool < integer < floating.
func category(d tensor.DType) int {
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

// PromoteTypes is c10::promoteTypes for the dtypes probe knows.
// tensor.Invalid stands for "undefined" and yields the other operand.
func PromoteTypes(a, b tensor.DType) tensor.DType {
	if a == tensor.Invalid {
		return b
	}
	if b == tensor.Invalid || a == b {
		return a
	}
	ca, cb := category(a), category(b)
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

// Operand is what one input of an op brings to type promotion: a tensor
// (its dtype and whether it is 0-d) or a Python number (a "wrapped
// number", see Scalar).
type Operand struct {
	// DType is the tensor's dtype; unused for a Python number.
	DType tensor.DType
	// ZeroDim marks a 0-d tensor.
	ZeroDim bool
	// Number marks a Python number of kind Kind.
	Number bool
	Kind   ScalarKind
}

// TensorOperand is the operand of a tensor of dtype dt and the given rank.
func TensorOperand(dt tensor.DType, rank int) Operand {
	return Operand{DType: dt, ZeroDim: rank == 0}
}

// NumberOperand is the operand of a Python number of kind k.
func NumberOperand(k ScalarKind) Operand { return Operand{Number: true, Kind: k} }

// Operand returns what v brings to type promotion; ok is false for None.
func (v Value) Operand() (op Operand, ok bool) {
	switch v.Kind {
	case KindTensor:
		if v.Tensor == nil {
			return Operand{}, false
		}
		return TensorOperand(v.Tensor.DType, len(v.Tensor.Shape)), true
	case KindScalar:
		return NumberOperand(v.Scalar.Kind), true
	}
	return Operand{}, false
}

// numberDType is the dtype a Python number brings: int64 (int), the
// default float dtype (float) or bool.
func numberDType(k ScalarKind) tensor.DType {
	switch k {
	case ScalarInt:
		return tensor.Int64
	case ScalarBool:
		return tensor.Bool
	}
	return DefaultFloat
}

// combineCategories is at::native's combine_categories: a lower-priority
// class (0-d tensors, then wrapped numbers) only matters when it is of a
// higher category than the result so far.
func combineCategories(higher, lower tensor.DType) tensor.DType {
	if category(higher) == 2 {
		return higher
	}
	if higher == tensor.Bool || category(lower) == 2 {
		return PromoteTypes(higher, lower)
	}
	if higher != tensor.Invalid {
		return higher
	}
	return lower
}

// ResultType is at::result_type over the operands: dimensioned tensors
// take precedence over 0-d tensors, which take precedence over Python
// numbers, unless a lower class is of a higher category (bool < integer <
// floating). With no operand it returns tensor.Invalid.
func ResultType(operands ...Operand) tensor.DType {
	var dim, zero, wrapped tensor.DType
	for _, o := range operands {
		switch {
		case o.Number:
			wrapped = PromoteTypes(wrapped, numberDType(o.Kind))
		case o.ZeroDim:
			zero = PromoteTypes(zero, o.DType)
		default:
			dim = PromoteTypes(dim, o.DType)
		}
	}
	return combineCategories(dim, combineCategories(zero, wrapped))
}

// ResultTypeOf is ResultType over op inputs; None inputs are skipped.
func ResultTypeOf(vals ...Value) tensor.DType {
	operands := make([]Operand, 0, len(vals))
	for _, v := range vals {
		if o, ok := v.Operand(); ok {
			operands = append(operands, o)
		}
	}
	return ResultType(operands...)
}

// ToFloat is the dtype of an always-float op (true division, sqrt, exp,
// ...) whose promoted input dtype is d: integer and bool give DefaultFloat.
func ToFloat(d tensor.DType) tensor.DType {
	if d.IsFloat() {
		return d
	}
	return DefaultFloat
}

// CanCast is c10::canCast for real dtypes: a floating value cannot go into
// an integer or bool tensor, and a non-bool value cannot go into bool.
func CanCast(from, to tensor.DType) bool {
	return category(from) <= category(to)
}

// CastError is PyTorch's error for an in-place or out= result cast it
// refuses, as an *ArgumentError.
func CastError(from, to tensor.DType) error {
	return Errorf("result type %s can't be cast to the desired output type %s", TypeName(from), TypeName(to))
}

// TypeName is the C++ ScalarType name PyTorch prints in messages
// ("Float", "Half", "Long").
func TypeName(d tensor.DType) string {
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
