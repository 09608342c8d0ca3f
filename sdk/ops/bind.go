package ops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/probe-dev/probe/sdk/tensor"
)

// ArgumentError is an op call the framework itself would reject: wrong
// arity or attribute, shapes that do not broadcast, a refused in-place
// cast. Msg is the framework's own message where one exists. Devices
// return it (or wrap it) from Execute; the host reports the API as SKIP
// with Msg as the reason, since the call cannot be checked anywhere.
type ArgumentError struct {
	Msg string
}

func (e *ArgumentError) Error() string { return e.Msg }

// Errorf makes an *ArgumentError.
func Errorf(format string, a ...any) error {
	return &ArgumentError{Msg: fmt.Sprintf(format, a...)}
}

// Input returns the schema entry that op input i fills (the last entry
// for every input of a variadic tail). It panics on a schema without
// inputs.
func (s Schema) Input(i int) InputSpec {
	return s.Inputs[min(i, len(s.Inputs)-1)]
}

// Variadic reports whether the last input is a list of tensors.
func (s Schema) Variadic() bool {
	return len(s.Inputs) > 0 && s.Inputs[len(s.Inputs)-1].Variadic
}

// HasAttr reports whether the op has an attribute called name.
func (s Schema) HasAttr(name string) bool {
	return slices.ContainsFunc(s.Attrs, func(a AttrSpec) bool { return a.Name == name })
}

// CheckArity checks that n inputs can be given to the op: all of them, or
// for a variadic op the fixed ones and at least one tensor of the list.
func (s Schema) CheckArity(n int) error {
	switch fixed := len(s.Inputs) - 1; {
	case s.Variadic() && n <= fixed:
		return Errorf("op %s needs at least %d inputs, got %d", s.Name, fixed+1, n)
	case !s.Variadic() && n != len(s.Inputs):
		return Errorf("op %s takes %d inputs, got %d", s.Name, len(s.Inputs), n)
	}
	return nil
}

// attrCompatible reports whether a value of kind got may fill an attribute
// of kind want: None always (an absent value), an int where a float, bool
// or int list goes, and so on, as Python would convert it.
func attrCompatible(want, got AttrKind) bool {
	if want == got || got == AttrNone {
		return true
	}
	switch want {
	case AttrFloat:
		return got == AttrInt || got == AttrBool
	case AttrInt:
		return got == AttrBool
	case AttrBool:
		return got == AttrInt
	case AttrInts:
		return got == AttrInt
	case AttrFloats:
		return got == AttrFloat || got == AttrInts || got == AttrInt
	}
	return false
}

// String names an attribute kind as messages spell it.
func (k AttrKind) String() string {
	switch k {
	case AttrNone:
		return "none"
	case AttrInt:
		return "int"
	case AttrFloat:
		return "float"
	case AttrBool:
		return "bool"
	case AttrString:
		return "string"
	case AttrInts:
		return "ints"
	case AttrFloats:
		return "floats"
	}
	return fmt.Sprintf("AttrKind(%d)", int32(k))
}

// BindAttrs checks given against the schema's attributes (every name
// known, every value of a compatible kind, required ones set and not None)
// and returns a new map with the defaults of absent attributes added.
func (s Schema) BindAttrs(given Attrs) (Attrs, error) {
	out := make(Attrs, len(s.Attrs))
	for name, v := range given {
		i := slices.IndexFunc(s.Attrs, func(a AttrSpec) bool { return a.Name == name })
		if i < 0 {
			return nil, Errorf("op %s has no attribute %q", s.Name, name)
		}
		if sp := s.Attrs[i]; !attrCompatible(sp.Kind, v.Kind) {
			return nil, Errorf("op %s: attribute %s has kind %s, want %s", s.Name, name, v.Kind, sp.Kind)
		}
		out[name] = v
	}
	for _, sp := range s.Attrs {
		v, ok := out[sp.Name]
		if sp.Required && (!ok || v.Kind == AttrNone) {
			return nil, Errorf("op %s: missing required attribute %s", s.Name, sp.Name)
		}
		if !ok {
			out[sp.Name] = sp.Default
		}
	}
	return out, nil
}

// Bound is an op call checked against its schema.
type Bound struct {
	Schema Schema
	// Attrs holds every attribute of the schema: the given ones and the
	// defaults of the others.
	Attrs Attrs
	// Inputs has one entry per schema input (an omitted trailing optional
	// input is None) and, for a variadic op, one per tensor of the list.
	Inputs []Value
	// Specs is the schema entry of each input.
	Specs []InputSpec
}

// Bind checks a call of op with the given attributes and inputs against
// the op's schema: the op exists, the number of inputs is right (trailing
// optional inputs may be left out), every input is of a kind its entry
// accepts (a scalar only where ScalarOK, None only where Optional, no nil
// tensor), the attributes pass BindAttrs, and an in-place call (attribute
// inplace true) has a tensor as input 0. Errors are *ArgumentError.
// Bind does not look at dtypes or shapes: kernels do, with ResultType and
// BroadcastShapes.
func Bind(op string, attrs Attrs, inputs []Value) (*Bound, error) {
	s, ok := Lookup(op)
	if !ok {
		return nil, Errorf("unknown canonical op %q", op)
	}
	n := len(s.Inputs)
	fixed := n
	if s.Variadic() {
		fixed = n - 1
	}
	if !s.Variadic() && len(inputs) > n {
		return nil, Errorf("op %s takes %d inputs, got %d", op, n, len(inputs))
	}
	for j := len(inputs); j < fixed; j++ {
		if !s.Inputs[j].Optional {
			return nil, Errorf("op %s: missing input %s (got %d inputs)", op, s.Inputs[j].Name, len(inputs))
		}
	}
	if s.Variadic() && len(inputs) <= fixed {
		return nil, Errorf("op %s: input %s needs at least one tensor", op, s.Inputs[n-1].Name)
	}
	b := &Bound{Schema: s, Inputs: make([]Value, max(len(inputs), n)), Specs: make([]InputSpec, max(len(inputs), n))}
	if s.Variadic() {
		b.Inputs, b.Specs = b.Inputs[:len(inputs)], b.Specs[:len(inputs)]
	}
	copy(b.Inputs, inputs)
	for i := range b.Specs {
		b.Specs[i] = s.Input(i)
	}
	for i, v := range b.Inputs {
		sp := b.Specs[i]
		name := sp.Name
		if sp.Variadic {
			name = fmt.Sprintf("%s[%d]", sp.Name, i-fixed)
		}
		switch v.Kind {
		case KindTensor:
			if v.Tensor == nil {
				return nil, Errorf("op %s: input %s is a nil tensor", op, name)
			}
		case KindScalar:
			if !sp.ScalarOK {
				return nil, Errorf("op %s: input %s must be a tensor, not a number", op, name)
			}
		case KindNone:
			if !sp.Optional {
				return nil, Errorf("op %s: input %s must be a tensor, not None", op, name)
			}
		default:
			return nil, Errorf("op %s: input %s has unknown kind %d", op, name, v.Kind)
		}
	}
	var err error
	if b.Attrs, err = s.BindAttrs(attrs); err != nil {
		return nil, err
	}
	if b.Inplace() && (len(b.Inputs) == 0 || b.Inputs[0].Kind != KindTensor) {
		return nil, Errorf("op %s: an in-place call needs a tensor as input 0", op)
	}
	return b, nil
}

// Inplace reports whether the call writes its result into input 0 (the
// op's inplace attribute is true: add_, relu_, __iadd__, ...).
func (b *Bound) Inplace() bool {
	return b.Schema.HasAttr("inplace") && b.Attrs.Bool("inplace", false)
}

// CheckInplace is PyTorch's rule for an in-place call of op: the result,
// of shape resultShape and dtype resultDType, is written into input 0 of
// shape selfShape and dtype selfDType, so it must have that shape (except
// for transpose, whose in-place form changes the shape) and a cast to
// selfDType must be one PyTorch allows (CanCast). The caller then rounds
// the result to selfDType. Errors are *ArgumentError with PyTorch's text.
func CheckInplace(op string, selfShape []int, selfDType tensor.DType, resultShape []int, resultDType tensor.DType) error {
	if op != "transpose" && !slices.Equal(selfShape, resultShape) {
		return Errorf("output with shape %s doesn't match the broadcast shape %s", ShapeList(selfShape), ShapeList(resultShape))
	}
	if !CanCast(resultDType, selfDType) {
		return CastError(resultDType, selfDType)
	}
	return nil
}

// ShapeList formats a shape as PyTorch prints sizes: [2, 3].
func ShapeList(shape []int) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = fmt.Sprint(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// BroadcastShapes returns the common shape of the given shapes under
// NumPy/PyTorch broadcasting (aligned on the right, each dimension equal or
// 1), or an *ArgumentError with PyTorch's message for a mismatch (it names
// operands a and b and counts dimensions from the left of the result).
func BroadcastShapes(shapes ...[]int) ([]int, error) {
	n := 0
	for _, s := range shapes {
		n = max(n, len(s))
	}
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := n - len(s)
		for j, d := range s {
			k := off + j
			switch {
			case d == out[k]:
			case out[k] == 1:
				out[k] = d
			case d == 1:
			default:
				return nil, Errorf("The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", out[k], d, k)
			}
		}
	}
	return out, nil
}

// BroadcastIndex returns, for every flat index of shape out, the flat index
// of the element of a row-major tensor of shape in (broadcastable to out,
// see BroadcastShapes) that it reads: a kernel reads in[idx[k]] for output
// element k, and a backward sums gradient element k into the input's
// gradient at idx[k]. It returns nil when in equals out (the identity).
// It does not check that in broadcasts to out.
func BroadcastIndex(in, out []int) []int {
	if slices.Equal(in, out) {
		return nil
	}
	n := tensor.NumElements(out)
	idx := make([]int, n)
	if n == 0 {
		return idx
	}
	inSt := make([]int, len(in))
	for i, s := len(in)-1, 1; i >= 0; i-- {
		inSt[i] = s
		s *= in[i]
	}
	eff := make([]int, len(out))
	for i := range out {
		if j := len(in) - len(out) + i; j >= 0 && in[j] != 1 {
			eff[i] = inSt[j]
		}
	}
	pos := make([]int, len(out))
	cur := 0
	for k := 0; k < n; k++ {
		idx[k] = cur
		for d := len(out) - 1; d >= 0; d-- {
			pos[d]++
			cur += eff[d]
			if pos[d] < out[d] {
				break
			}
			cur -= eff[d] * pos[d]
			pos[d] = 0
		}
	}
	return idx
}
