package lower

import (
	"errors"
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// bound is one API call whose arguments were bound to the API's signature.
type bound struct {
	api  string // full name for messages: "Functional.conv2d.0"
	name string // short API name: "conv2d"
	ns   Namespace

	vals       map[string]framework.Arg
	given      map[string]bool
	positional map[string]bool // given by position
	variadic   []framework.Arg

	// multi is set by a lowering whose API returns a tuple or list.
	multi bool
	// compat is the run's --compat ("msprobe" or "").
	compat string
	// outputs are the dumped outputs, when known.
	outputs []framework.Arg
}

// errf makes a skip reason prefixed with the API name.
func (b *bound) errf(format string, a ...any) error {
	return fmt.Errorf("%s: %s", b.api, fmt.Sprintf(format, a...))
}

// argErr makes a skip reason about one argument.
func (b *bound) argErr(name, format string, a ...any) error {
	return fmt.Errorf("%s: argument %q: %s", b.api, name, fmt.Sprintf(format, a...))
}

// kindName is how an argument's type is spelled in skip reasons.
func kindName(a framework.Arg) string {
	switch a.Kind {
	case framework.ArgNone:
		return "None"
	case framework.ArgTensor:
		return "tensor"
	case framework.ArgInt:
		return "int"
	case framework.ArgFloat:
		return "float"
	case framework.ArgBool:
		return "bool"
	case framework.ArgString:
		return "str"
	case framework.ArgList:
		return "list"
	case framework.ArgSlice:
		return "slice"
	case framework.ArgEllipsis:
		return "ellipsis"
	case framework.ArgDType:
		return "dtype"
	case framework.ArgDevice:
		return "device"
	case framework.ArgSize:
		return "torch.Size"
	}
	if a.TypeName != "" {
		return a.TypeName
	}
	return "an unknown object"
}

func (b *bound) arg(name string) framework.Arg { return b.vals[name] }

func (b *bound) isNone(name string) bool { return b.vals[name].Kind == framework.ArgNone }

// tensor returns a tensor argument.
func (b *bound) tensor(name string) (framework.Arg, error) {
	a := b.vals[name]
	if a.Kind != framework.ArgTensor {
		return a, b.argErr(name, "expected tensor, got %s", kindName(a))
	}
	if a.Path == "" {
		return a, b.argErr(name, "tensor has no path in the dump")
	}
	return a, nil
}

// optTensor returns a tensor argument that may be None (ok false).
func (b *bound) optTensor(name string) (framework.Arg, bool, error) {
	if b.isNone(name) {
		return framework.Arg{}, false, nil
	}
	a, err := b.tensor(name)
	return a, err == nil, err
}

// integer returns an int argument (a Python bool is not accepted).
func (b *bound) integer(name string) (int64, error) {
	a := b.vals[name]
	if a.Kind != framework.ArgInt {
		return 0, b.argErr(name, "expected int, got %s", kindName(a))
	}
	return a.Int, nil
}

// optInteger returns an int argument that may be None (set false).
func (b *bound) optInteger(name string) (v int64, set bool, err error) {
	if b.isNone(name) {
		return 0, false, nil
	}
	v, err = b.integer(name)
	return v, err == nil, err
}

// float returns a float argument; a Python int is accepted.
func (b *bound) float(name string) (float64, error) {
	a := b.vals[name]
	switch a.Kind {
	case framework.ArgFloat:
		return a.Float, nil
	case framework.ArgInt:
		return float64(a.Int), nil
	}
	return 0, b.argErr(name, "expected float, got %s", kindName(a))
}

// boolean returns a bool argument.
func (b *bound) boolean(name string) (bool, error) {
	a := b.vals[name]
	if a.Kind != framework.ArgBool {
		return false, b.argErr(name, "expected bool, got %s", kindName(a))
	}
	return a.Bool, nil
}

// optBool returns a bool argument that may be None.
func (b *bound) optBool(name string) (v bool, set bool, err error) {
	if b.isNone(name) {
		return false, false, nil
	}
	v, err = b.boolean(name)
	return v, err == nil, err
}

// str returns a str argument.
func (b *bound) str(name string) (string, error) {
	a := b.vals[name]
	if a.Kind != framework.ArgString {
		return "", b.argErr(name, "expected str, got %s", kindName(a))
	}
	return a.Str, nil
}

// asInts reads a list/tuple of ints or a torch.Size.
func asInts(a framework.Arg) ([]int64, bool) {
	switch a.Kind {
	case framework.ArgSize:
		return append([]int64{}, a.Ints...), true
	case framework.ArgList:
		out := make([]int64, 0, len(a.Elems))
		for _, e := range a.Elems {
			if e.Kind != framework.ArgInt {
				return nil, false
			}
			out = append(out, e.Int)
		}
		return out, true
	}
	return nil, false
}

// intList reads an int[n] argument: a list of ints, or (when scalarOK) a
// single int. With n > 0 a single int or a one-element list is repeated n
// times, as PyTorch expands int[2] arguments; any other length is an error.
func (b *bound) intList(name string, n int, scalarOK bool) ([]int64, error) {
	a := b.vals[name]
	var v []int64
	switch {
	case a.Kind == framework.ArgInt && scalarOK:
		v = []int64{a.Int}
	default:
		var ok bool
		if v, ok = asInts(a); !ok {
			if scalarOK {
				return nil, b.argErr(name, "expected int or list of ints, got %s", describeList(a))
			}
			return nil, b.argErr(name, "expected list of ints, got %s", describeList(a))
		}
	}
	if n > 0 {
		if len(v) == 1 && n > 1 {
			x := v[0]
			v = make([]int64, n)
			for i := range v {
				v[i] = x
			}
		}
		if len(v) != n {
			return nil, b.argErr(name, "expected a single int or a list of %d ints, got %d values", n, len(v))
		}
	}
	return v, nil
}

// describeList names an argument's type; for a list with a bad element it
// names the element.
func describeList(a framework.Arg) string {
	if a.Kind == framework.ArgList {
		for _, e := range a.Elems {
			if e.Kind != framework.ArgInt {
				return "list containing " + kindName(e)
			}
		}
	}
	return kindName(a)
}

// dtypeAttr reads an optional dtype argument as a short dtype name.
func (b *bound) dtypeAttr(name string) (ops.Attr, error) {
	a := b.vals[name]
	switch a.Kind {
	case framework.ArgNone:
		return ops.NoneAttr(), nil
	case framework.ArgDType, framework.ArgString:
		d, err := tensor.Parse(a.Str)
		if err != nil {
			return ops.Attr{}, b.argErr(name, "dtype %q is not supported", a.Str)
		}
		return ops.StringAttr(d.String()), nil
	}
	return ops.Attr{}, b.argErr(name, "expected dtype, got %s", kindName(a))
}

// operandInfo describes an operand for PyTorch type-promotion checks.
type operandInfo struct {
	isTensor bool
	dtype    tensor.DType // tensors
	scalar   ops.ScalarKind
}

func (o operandInfo) isFloat() bool {
	if o.isTensor {
		return o.dtype.IsFloat()
	}
	return o.scalar == ops.ScalarFloat
}

func (o operandInfo) isBool() bool {
	if o.isTensor {
		return o.dtype == tensor.Bool
	}
	return o.scalar == ops.ScalarBool
}

// errNotNumber tells that an operand is neither a tensor nor a number.
var errNotNumber = errors.New("not a tensor or number")

// operandOf binds a tensor or Python number.
func operandOf(a framework.Arg) (framework.Binding, operandInfo, error) {
	switch a.Kind {
	case framework.ArgTensor:
		if a.Path == "" {
			return framework.Binding{}, operandInfo{}, errors.New("tensor has no path in the dump")
		}
		return tensorBinding(a), operandInfo{isTensor: true, dtype: a.DType}, nil
	case framework.ArgInt:
		s := ops.Scalar{Kind: ops.ScalarInt, I: a.Int}
		return scalarBinding(s), operandInfo{scalar: s.Kind}, nil
	case framework.ArgFloat:
		s := ops.Scalar{Kind: ops.ScalarFloat, F: a.Float}
		return scalarBinding(s), operandInfo{scalar: s.Kind}, nil
	case framework.ArgBool:
		s := ops.Scalar{Kind: ops.ScalarBool}
		if a.Bool {
			s.F = 1
		}
		return scalarBinding(s), operandInfo{scalar: s.Kind}, nil
	}
	return framework.Binding{}, operandInfo{}, errNotNumber
}

// operand binds a tensor-or-number argument.
func (b *bound) operand(name string) (framework.Binding, operandInfo, error) {
	bind, info, err := operandOf(b.vals[name])
	if err != nil {
		if errors.Is(err, errNotNumber) {
			return bind, info, b.argErr(name, "expected tensor or number, got %s", kindName(b.vals[name]))
		}
		return bind, info, b.argErr(name, "%v", err)
	}
	return bind, info, nil
}

// optOperand binds a tensor-or-number argument that may be None.
func (b *bound) optOperand(name string) (framework.Binding, bool, error) {
	if b.isNone(name) {
		return framework.Binding{Kind: framework.BindNone}, false, nil
	}
	bind, _, err := b.operand(name)
	return bind, err == nil, err
}

func tensorBinding(a framework.Arg) framework.Binding {
	return framework.Binding{Kind: framework.BindTensor, Path: a.Path}
}

func scalarBinding(s ops.Scalar) framework.Binding {
	return framework.Binding{Kind: framework.BindScalar, Scalar: s}
}

var noneBinding = framework.Binding{Kind: framework.BindNone}

// optBinding binds an optional tensor.
func optBinding(a framework.Arg, ok bool) framework.Binding {
	if !ok {
		return noneBinding
	}
	return tensorBinding(a)
}

// dimOf reads an int dim argument and checks it against x's rank (the
// value stays as given: negative dims are the op's to wrap).
func (b *bound) dimOf(name string, x framework.Arg) (int64, error) {
	d, err := b.integer(name)
	if err != nil {
		return 0, err
	}
	if _, err := b.wrapDim(name, d, len(x.Shape)); err != nil {
		return 0, err
	}
	return d, nil
}

// wrapDim checks dim against a tensor of rank ndim the way PyTorch does
// (a 0-d tensor accepts -1 and 0) and returns it normalised.
func (b *bound) wrapDim(name string, dim int64, ndim int) (int, error) {
	n := int64(ndim)
	if n == 0 {
		n = 1
	}
	if dim < -n || dim >= n {
		return 0, b.argErr(name, "dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, dim)
	}
	if dim < 0 {
		dim += n
	}
	return int(dim), nil
}

// finite reports whether v is a finite float.
func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
