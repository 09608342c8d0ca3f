// Package tensor holds the dense tensor type that crosses every plugin
// boundary in probe, its element types, and exact conversions between
// float64 and the narrow float formats (float16, bfloat16).
package tensor

import (
	"fmt"
	"strings"
)

// DType is the element type of a Tensor. The numbering is part of the wire
// protocol (sdk/proto) and must never be changed; add new types at the end.
type DType int32

// Element types. Invalid is the zero value so that a forgotten dtype is an
// error, not silently float64.
const (
	Invalid DType = iota
	Float64
	Float32
	Float16
	BFloat16
	Int8
	Int16
	Int32
	Int64
	Uint8
	Bool
)

// All lists every valid DType in protocol order.
var All = []DType{Float64, Float32, Float16, BFloat16, Int8, Int16, Int32, Int64, Uint8, Bool}

var dtypeInfo = [...]struct {
	name      string // short name: float32
	torch     string // torch.float32
	mindspore string // Float32
	size      int
}{
	Invalid:  {"invalid", "", "", 0},
	Float64:  {"float64", "torch.float64", "Float64", 8},
	Float32:  {"float32", "torch.float32", "Float32", 4},
	Float16:  {"float16", "torch.float16", "Float16", 2},
	BFloat16: {"bfloat16", "torch.bfloat16", "BFloat16", 2},
	Int8:     {"int8", "torch.int8", "Int8", 1},
	Int16:    {"int16", "torch.int16", "Int16", 2},
	Int32:    {"int32", "torch.int32", "Int32", 4},
	Int64:    {"int64", "torch.int64", "Int64", 8},
	Uint8:    {"uint8", "torch.uint8", "UInt8", 1},
	Bool:     {"bool", "torch.bool", "Bool", 1},
}

// Valid reports whether d is one of the defined element types.
func (d DType) Valid() bool { return d > Invalid && int(d) < len(dtypeInfo) }

// String returns the short name ("float32").
func (d DType) String() string {
	if !d.Valid() {
		return fmt.Sprintf("DType(%d)", int32(d))
	}
	return dtypeInfo[d].name
}

// TorchName returns PyTorch's spelling ("torch.float32").
func (d DType) TorchName() string {
	if !d.Valid() {
		return d.String()
	}
	return dtypeInfo[d].torch
}

// MindSporeName returns MindSpore's spelling ("Float32").
func (d DType) MindSporeName() string {
	if !d.Valid() {
		return d.String()
	}
	return dtypeInfo[d].mindspore
}

// CppName returns the C++ type name PyTorch's error messages print for the
// dtype (caffe2's TypeMeta names: "float", "double", "c10::Half",
// "long int", ...), as in "expected dtype float for `end` but got dtype
// double".
func (d DType) CppName() string {
	switch d {
	case Float64:
		return "double"
	case Float32:
		return "float"
	case Float16:
		return "c10::Half"
	case BFloat16:
		return "c10::BFloat16"
	case Int64:
		return "long int"
	case Int32:
		return "int"
	case Int16:
		return "short int"
	case Int8:
		return "signed char"
	case Uint8:
		return "unsigned char"
	case Bool:
		return "bool"
	}
	return d.String()
}

// Size is the number of bytes of one element.
func (d DType) Size() int {
	if !d.Valid() {
		return 0
	}
	return dtypeInfo[d].size
}

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool {
	return d == Float64 || d == Float32 || d == Float16 || d == BFloat16
}

// IsInt reports whether d is an integer type (bool excluded).
func (d DType) IsInt() bool {
	return d == Int8 || d == Int16 || d == Int32 || d == Int64 || d == Uint8
}

// Parse accepts any of the spellings probe meets in dumps: the short name
// ("float32"), PyTorch's ("torch.float32", also the aliases torch.float,
// torch.half, torch.double, torch.long, torch.int) and MindSpore's
// ("Float32").
func Parse(s string) (DType, error) {
	for d := Float64; int(d) < len(dtypeInfo); d++ {
		in := dtypeInfo[d]
		if s == in.name || s == in.torch || s == in.mindspore {
			return d, nil
		}
	}
	switch strings.TrimPrefix(s, "torch.") {
	case "float", "float32":
		return Float32, nil
	case "half":
		return Float16, nil
	case "double":
		return Float64, nil
	case "long":
		return Int64, nil
	case "int":
		return Int32, nil
	case "short":
		return Int16, nil
	}
	return Invalid, fmt.Errorf("unsupported dtype %q", s)
}
