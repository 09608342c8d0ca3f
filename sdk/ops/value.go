// Package ops defines probe's canonical operator vocabulary: the values an
// op consumes (tensors, scalars, None), its attributes, and the schema of
// every op that device plugins implement. Framework plugins lower framework
// APIs onto these ops; device plugins execute them.
package ops

import (
	"sort"

	"github.com/probe-dev/probe/sdk/tensor"
)

// ScalarKind says which Python number type a scalar operand had. It matters
// for type promotion: an int scalar added to an int tensor keeps the tensor's
// dtype, a float scalar turns it into the default float dtype.
type ScalarKind int32

// Scalar kinds.
const (
	ScalarFloat ScalarKind = iota
	ScalarInt
	ScalarBool
)

// Scalar is a Python number passed where a tensor could go ("wrapped
// number" in PyTorch): it never widens a floating tensor's dtype.
type Scalar struct {
	Kind ScalarKind
	F    float64 // value for ScalarFloat (and ScalarBool: 0 or 1)
	I    int64   // value for ScalarInt
}

// Float returns the scalar as float64 whatever its kind.
func (s Scalar) Float() float64 {
	if s.Kind == ScalarInt {
		return float64(s.I)
	}
	return s.F
}

// ValueKind says what an op input holds.
type ValueKind int32

// Value kinds.
const (
	KindNone ValueKind = iota
	KindTensor
	KindScalar
)

// Value is one op input: a tensor, a scalar, or None (an absent optional
// input such as a missing bias).
type Value struct {
	Kind   ValueKind
	Tensor *tensor.Tensor
	Scalar Scalar
}

// T wraps a tensor.
func T(t *tensor.Tensor) Value { return Value{Kind: KindTensor, Tensor: t} }

// F wraps a float scalar.
func F(v float64) Value { return Value{Kind: KindScalar, Scalar: Scalar{Kind: ScalarFloat, F: v}} }

// I wraps an int scalar.
func I(v int64) Value { return Value{Kind: KindScalar, Scalar: Scalar{Kind: ScalarInt, I: v}} }

// B wraps a bool scalar.
func B(v bool) Value {
	f := 0.0
	if v {
		f = 1
	}
	return Value{Kind: KindScalar, Scalar: Scalar{Kind: ScalarBool, F: f}}
}

// None is the absent value.
var None = Value{}

// AttrKind is the type of an attribute value.
type AttrKind int32

// Attribute kinds.
const (
	AttrNone AttrKind = iota // explicitly None (e.g. dim=None)
	AttrInt
	AttrFloat
	AttrBool
	AttrString
	AttrInts
	AttrFloats
)

// Attr is one attribute value of an op call.
type Attr struct {
	Kind   AttrKind
	Int    int64
	Float  float64
	Bool   bool
	String string
	Ints   []int64
	Floats []float64
}

// IntAttr makes an int attribute.
func IntAttr(v int64) Attr { return Attr{Kind: AttrInt, Int: v} }

// FloatAttr makes a float attribute.
func FloatAttr(v float64) Attr { return Attr{Kind: AttrFloat, Float: v} }

// BoolAttr makes a bool attribute.
func BoolAttr(v bool) Attr { return Attr{Kind: AttrBool, Bool: v} }

// StringAttr makes a string attribute.
func StringAttr(v string) Attr { return Attr{Kind: AttrString, String: v} }

// IntsAttr makes an int-list attribute.
func IntsAttr(v ...int64) Attr { return Attr{Kind: AttrInts, Ints: v} }

// FloatsAttr makes a float-list attribute.
func FloatsAttr(v ...float64) Attr { return Attr{Kind: AttrFloats, Floats: v} }

// NoneAttr makes an explicit None attribute.
func NoneAttr() Attr { return Attr{Kind: AttrNone} }

// Attrs are the named attributes of one op call.
type Attrs map[string]Attr

// Has reports whether name is set (to anything, None included).
func (a Attrs) Has(name string) bool { _, ok := a[name]; return ok }

// Int returns the int attribute name, or def when it is absent or None.
// A bool attribute reads as 0/1.
func (a Attrs) Int(name string, def int64) int64 {
	v, ok := a[name]
	if !ok || v.Kind == AttrNone {
		return def
	}
	switch v.Kind {
	case AttrBool:
		if v.Bool {
			return 1
		}
		return 0
	case AttrFloat:
		return int64(v.Float)
	}
	return v.Int
}

// Float returns the numeric attribute name (int, float, or a bool as 0/1),
// or def.
func (a Attrs) Float(name string, def float64) float64 {
	v, ok := a[name]
	if !ok || v.Kind == AttrNone {
		return def
	}
	switch v.Kind {
	case AttrInt:
		return float64(v.Int)
	case AttrBool:
		if v.Bool {
			return 1
		}
		return 0
	}
	return v.Float
}

// Bool returns the bool attribute name, or def.
func (a Attrs) Bool(name string, def bool) bool {
	v, ok := a[name]
	if !ok || v.Kind == AttrNone {
		return def
	}
	if v.Kind == AttrInt {
		return v.Int != 0
	}
	return v.Bool
}

// Str returns the string attribute name, or def.
func (a Attrs) Str(name string, def string) string {
	v, ok := a[name]
	if !ok || v.Kind != AttrString {
		return def
	}
	return v.String
}

// Ints returns the int-list attribute name (a single int reads as a
// one-element list), or def.
func (a Attrs) Ints(name string, def []int64) []int64 {
	v, ok := a[name]
	if !ok || v.Kind == AttrNone {
		return def
	}
	if v.Kind == AttrInt {
		return []int64{v.Int}
	}
	return v.Ints
}

// Floats returns the float-list attribute name, or def.
func (a Attrs) Floats(name string, def []float64) []float64 {
	v, ok := a[name]
	if !ok || v.Kind == AttrNone {
		return def
	}
	if v.Kind == AttrFloat {
		return []float64{v.Float}
	}
	if v.Kind == AttrInts {
		out := make([]float64, len(v.Ints))
		for i, x := range v.Ints {
			out[i] = float64(x)
		}
		return out
	}
	return v.Floats
}

// IsNone reports whether name is absent or explicitly None.
func (a Attrs) IsNone(name string) bool {
	v, ok := a[name]
	return !ok || v.Kind == AttrNone
}

// Names returns the attribute names in sorted order.
func (a Attrs) Names() []string {
	names := make([]string, 0, len(a))
	for k := range a {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
