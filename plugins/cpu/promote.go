package cpu

import (
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Type promotion is PyTorch's, from sdk/ops; these adapters apply it to
// the kernels' arrays.

// operandDType is the dtype an operand brings to type promotion: a wrapped
// Python number is int64 (int), the default float dtype (float) or bool.
func operandDType(a *array) tensor.DType {
	if !a.scalar {
		return a.dtype
	}
	return ops.ResultType(ops.NumberOperand(a.scalarKind))
}

// resultType is ops.ResultType over the operands (nil entries are
// skipped).
func resultType(args ...*array) tensor.DType {
	operands := make([]ops.Operand, 0, len(args))
	for _, a := range args {
		switch {
		case a == nil:
		case a.scalar:
			operands = append(operands, ops.NumberOperand(a.scalarKind))
		default:
			operands = append(operands, ops.TensorOperand(a.dtype, len(a.shape)))
		}
	}
	return ops.ResultType(operands...)
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
	var f func(v []float64)
	switch d {
	case tensor.Float64:
		return
	case tensor.Float32:
		f = func(v []float64) {
			for i, x := range v {
				v[i] = float64(float32(x))
			}
		}
	case tensor.Float16:
		f = func(v []float64) {
			for i, x := range v {
				v[i] = tensor.Float16Value(tensor.Float16Bits(x))
			}
		}
	case tensor.BFloat16:
		f = func(v []float64) {
			for i, x := range v {
				v[i] = tensor.BFloat16Value(tensor.BFloat16Bits(x))
			}
		}
	default:
		f = func(v []float64) {
			for i, x := range v {
				v[i] = roundTo(d, x)
			}
		}
	}
	forChunks(len(v), func(from, to int) error {
		f(v[from:to])
		return nil
	})
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
