package dump

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// converter turns JSON entry bodies into Calls and Backwards.
type converter struct {
	fw string
}

// tensorTypes are the descriptor types that describe a tensor (dtype,
// shape and statistics).
var tensorTypes = map[string]bool{
	"torch.Tensor":                   true,
	"torch.nn.parameter.Parameter":   true, // legacy dumps
	"torch.nn.Parameter":             true,
	"mindspore.Tensor":               true,
	"mindspore.common.tensor.Tensor": true,
	"numpy.ndarray":                  true,
	// Special tensors of PyTorch dumps; their statistics may be null.
	"torch.distributed.tensor.DTensor":                                true,
	"torch._subclasses.fake_tensor.FakeTensor":                        true,
	"torch.distributed._functional_collectives.AsyncCollectiveTensor": true,
	"torch.nested._internal.nested_tensor.NestedTensor":               true,
}

// numpyScalar maps numpy scalar type names (current spelling; legacy dumps
// prefix them with "numpy.") to the argument kind of their value.
var numpyScalar = map[string]framework.ArgKind{
	"int8": framework.ArgInt, "int16": framework.ArgInt, "int32": framework.ArgInt, "int64": framework.ArgInt,
	"uint8": framework.ArgInt, "uint16": framework.ArgInt, "uint32": framework.ArgInt, "uint64": framework.ArgInt,
	"intc": framework.ArgInt, "intp": framework.ArgInt, "longlong": framework.ArgInt,
	"float16": framework.ArgFloat, "float32": framework.ArgFloat, "float64": framework.ArgFloat,
	"float128": framework.ArgFloat, "longdouble": framework.ArgFloat, "half": framework.ArgFloat,
	"single": framework.ArgFloat, "double": framework.ArgFloat,
	"bool_": framework.ArgBool, "bool8": framework.ArgBool,
	"str_": framework.ArgString, "string_": framework.ArgString, "bytes_": framework.ArgString,
	"unicode_": framework.ArgString,
	// complex scalars have no argument kind
	"complex64": framework.ArgUnknown, "complex128": framework.ArgUnknown, "complex256": framework.ArgUnknown,
}

// maxElements bounds the element count a shape may declare, so that
// products of dimensions never overflow an int.
const maxElements = 1 << 50

// descCtx carries the tensor map and the field path of one descriptor walk.
type descCtx struct {
	tensors map[string]*TensorDesc
}

func ferr(field string, v *jvalue, format string, args ...any) *fieldError {
	off := 0
	if v != nil {
		off = v.off
	}
	return &fieldError{field: field, off: off, msg: fmt.Sprintf(format, args...)}
}

// forward converts a forward entry body.
func (c *converter) forward(body *jvalue) (*Call, *fieldError) {
	if body.kind != jObject {
		return nil, ferr("", body, "the entry is %s %s, expected an object with input_args, input_kwargs and output", article(body.kind), body.kind)
	}
	call := &Call{Tensors: map[string]*TensorDesc{}}
	ctx := &descCtx{tensors: call.Tensors}

	args := body.get("input_args")
	switch {
	case args == nil && c.fw == MindSpore:
		return nil, ferr("input_args", body, "missing")
	case args == nil || args.kind == jNull:
		// run_ut treats missing input_args as no positional arguments.
	case args.kind != jArray:
		return nil, ferr("input_args", args, "is %s %s, expected an array", article(args.kind), args.kind)
	default:
		call.Args = make([]framework.Arg, len(args.arr))
		for i, a := range args.arr {
			arg, err := c.arg(ctx, a, "args."+strconv.Itoa(i), fmt.Sprintf("input_args[%d]", i), 0)
			if err != nil {
				return nil, err
			}
			call.Args[i] = arg
		}
	}

	kw := body.get("input_kwargs")
	switch {
	case kw == nil:
		return nil, ferr("input_kwargs", body, "missing")
	case kw.kind == jNull && c.fw == PyTorch:
		return nil, ferr("input_kwargs", kw, "is null, expected an object")
	case kw.kind == jNull:
	case kw.kind != jObject:
		return nil, ferr("input_kwargs", kw, "is %s %s, expected an object", article(kw.kind), kw.kind)
	default:
		seen := map[string]int{}
		for _, m := range kw.obj {
			field := fmt.Sprintf("input_kwargs[%q]", m.key)
			switch m.val.kind {
			case jObject, jArray, jNull:
			default:
				return nil, ferr(field, m.val, "is %s %s, expected an object, an array or null", article(m.val.kind), m.val.kind)
			}
			arg, err := c.arg(ctx, m.val, "kwargs."+m.key, field, 0)
			if err != nil {
				return nil, err
			}
			if i, dup := seen[m.key]; dup { // Python keeps the last value
				call.Kwargs[i].Arg = arg
				continue
			}
			seen[m.key] = len(call.Kwargs)
			call.Kwargs = append(call.Kwargs, framework.NamedArg{Name: m.key, Arg: arg})
		}
	}

	out := body.get("output")
	switch {
	case out == nil && c.fw == MindSpore:
		return nil, ferr("output", body, "missing")
	case out == nil || out.kind == jNull:
	case out.kind != jArray:
		return nil, ferr("output", out, "is %s %s, expected an array", article(out.kind), out.kind)
	default:
		call.Outputs = make([]framework.Arg, len(out.arr))
		for i, a := range out.arr {
			arg, err := c.arg(ctx, a, "outputs."+strconv.Itoa(i), fmt.Sprintf("output[%d]", i), 0)
			if err != nil {
				return nil, err
			}
			call.Outputs[i] = arg
		}
	}
	return call, nil
}

// backward converts a backward entry body.
func (c *converter) backward(body *jvalue) (*Backward, *fieldError) {
	b := &Backward{Tensors: map[string]*TensorDesc{}}
	if body.kind != jObject {
		return b, ferr("", body, "the entry is %s %s, expected an object with input and output", article(body.kind), body.kind)
	}
	ctx := &descCtx{tensors: b.Tensors}
	list := func(key, prefix string, dst *[]framework.Arg, required bool) *fieldError {
		v := body.get(key)
		switch {
		case v == nil && required:
			return ferr(key, body, "missing (the gradients of the backward entry)")
		case v == nil || v.kind == jNull:
			return nil
		case v.kind != jArray:
			return ferr(key, v, "is %s %s, expected an array", article(v.kind), v.kind)
		}
		*dst = make([]framework.Arg, len(v.arr))
		for i, a := range v.arr {
			arg, err := c.arg(ctx, a, prefix+"."+strconv.Itoa(i), fmt.Sprintf("%s[%d]", key, i), 0)
			if err != nil {
				return err
			}
			(*dst)[i] = arg
		}
		return nil
	}
	if err := list("input", "grad", &b.Inputs, true); err != nil {
		return b, err
	}
	if err := list("output", "gradout", &b.Outputs, false); err != nil {
		return b, err
	}
	return b, nil
}

// maxArgDepth is msprobe's recursion limit for nested argument lists.
const maxArgDepth = 400

// arg converts one descriptor (object, array or null).
func (c *converter) arg(ctx *descCtx, v *jvalue, path, field string, depth int) (framework.Arg, *fieldError) {
	a := framework.Arg{Path: path}
	if depth > maxArgDepth {
		return a, ferr(field, v, "arguments nested deeper than %d levels", maxArgDepth)
	}
	switch v.kind {
	case jNull:
		a.Kind = framework.ArgNone
		return a, nil
	case jArray:
		a.Kind = framework.ArgList
		a.Elems = make([]framework.Arg, len(v.arr))
		for i, e := range v.arr {
			el, err := c.arg(ctx, e, path+"."+strconv.Itoa(i), fmt.Sprintf("%s[%d]", field, i), depth+1)
			if err != nil {
				return a, err
			}
			a.Elems[i] = el
		}
		return a, nil
	case jObject:
	default:
		return a, ferr(field, v, "is %s %s, expected a descriptor object, an array or null", article(v.kind), v.kind)
	}

	tv := v.get("type")
	if tv == nil {
		if ct := v.get("class_type"); ct != nil && ct.kind == jString {
			// P2POp and similar distributed objects.
			a.Kind, a.TypeName = framework.ArgUnknown, ct.s
			return a, nil
		}
		a.Kind = framework.ArgUnknown
		if len(v.obj) == 0 {
			// The dumper's quirk: any object it cannot describe (including
			// a positional torch.dtype or torch.device) becomes {}.
			return a, nil
		}
		// A dict, namedtuple or dataclass argument: keep its members.
		a.TypeName = "dict"
		for _, m := range v.obj {
			el, err := c.arg(ctx, m.val, path+"."+m.key, fmt.Sprintf("%s[%q]", field, m.key), depth+1)
			if err != nil {
				return a, err
			}
			a.Elems = append(a.Elems, el)
		}
		return a, nil
	}
	if tv.kind != jString {
		return a, ferr(field, tv, "\"type\" is %s %s, expected a string", article(tv.kind), tv.kind)
	}
	typ := tv.s
	a.TypeName = typ
	if tensorTypes[typ] {
		td, err := tensorDesc(v, path, field, typ)
		if err != nil {
			return a, err
		}
		ctx.tensors[path] = td
		a.Kind = framework.ArgTensor
		a.DType, a.DTypeName = td.DType, td.DTypeName
		a.Shape = append([]int(nil), td.Shape...)
		a.RequiresGrad = td.RequiresGrad
		return a, nil
	}

	val := v.get("value")
	// Non-tensor descriptors of MindSpore dumps need a non-null value
	// (§4.2); PyTorch passes None on.
	nullValue := func() (framework.Arg, *fieldError) {
		if c.fw == MindSpore {
			return a, ferr(field, v, "%q descriptor has no \"value\" (or it is null)", typ)
		}
		a.Kind = framework.ArgNone
		return a, nil
	}
	switch typ {
	case "int", "float", "bool", "str":
		if val == nil || val.kind == jNull {
			return nullValue()
		}
		return scalar(a, typ, map[string]framework.ArgKind{"int": framework.ArgInt, "float": framework.ArgFloat, "bool": framework.ArgBool, "str": framework.ArgString}[typ], val, field)
	case "slice":
		if val == nil || val.kind != jArray || len(val.arr) != 3 {
			return a, ferr(field, v, "slice descriptor needs \"value\": [start, stop, step]")
		}
		a.Kind = framework.ArgSlice
		a.Elems = make([]framework.Arg, 3)
		for i, e := range val.arr {
			el := framework.Arg{Path: path + "." + strconv.Itoa(i)}
			switch {
			case e.kind == jNull:
				el.Kind = framework.ArgNone
			case e.kind == jNumber && e.isInt():
				n, ok := exactInt(e)
				if !ok {
					return a, ferr(field, e, "slice bound %s does not fit in 64 bits", e.num)
				}
				el.Kind, el.Int, el.Float, el.TypeName = framework.ArgInt, n, e.f, "int"
			case e.kind == jNumber:
				el.Kind, el.Float, el.TypeName = framework.ArgFloat, e.f, "float"
			default:
				return a, ferr(fmt.Sprintf("%s.value[%d]", field, i), e, "slice bound is %s %s, expected an integer or null", article(e.kind), e.kind)
			}
			a.Elems[i] = el
		}
		return a, nil
	case "ellipsis":
		a.Kind, a.Str = framework.ArgEllipsis, "..."
		return a, nil
	case "torch.Size":
		if val == nil || val.kind != jArray {
			return a, ferr(field, v, "torch.Size descriptor needs \"value\": an array of integers")
		}
		a.Kind = framework.ArgSize
		a.Ints = make([]int64, len(val.arr))
		for i, e := range val.arr {
			n, ok := exactInt(e)
			if !ok {
				return a, ferr(fmt.Sprintf("%s.value[%d]", field, i), e, "torch.Size element is not an integer")
			}
			a.Ints[i] = n
		}
		return a, nil
	case "torch.dtype", "mindspore.dtype":
		if val == nil || val.kind == jNull {
			return nullValue()
		}
		if val.kind != jString {
			return a, ferr(field, val, "%s descriptor has %s %s \"value\", expected a dtype name", typ, article(val.kind), val.kind)
		}
		a.Kind, a.Str, a.DTypeName = framework.ArgDType, val.s, val.s
		a.DType, _ = tensor.Parse(val.s) // Invalid for dtypes probe lacks
		return a, nil
	case "torch.device":
		if val == nil || val.kind == jNull {
			return nullValue()
		}
		a.Kind = framework.ArgDevice
		switch val.kind {
		case jString:
			a.Str = val.s
		case jNumber:
			n, ok := exactInt(val)
			if !ok {
				return a, ferr(field, val, "torch.device index %s is not an integer", val.num)
			}
			a.Int, a.Str = n, val.num
		default:
			return a, ferr(field, val, "torch.device descriptor has %s %s \"value\", expected a string or an integer", article(val.kind), val.kind)
		}
		return a, nil
	case "torch.memory_format":
		a.Kind = framework.ArgUnknown
		if f := v.get("format"); f != nil && f.kind == jString {
			a.Str = f.s
		}
		return a, nil
	}
	base := strings.TrimPrefix(typ, "numpy.")
	if k, ok := numpyScalar[base]; ok {
		if val == nil || val.kind == jNull {
			return nullValue()
		}
		if k == framework.ArgUnknown {
			a.Kind = framework.ArgUnknown
			return a, nil
		}
		return scalar(a, typ, k, val, field)
	}
	// ProcessGroup, ReduceOp, and anything newer: the type name says what.
	a.Kind = framework.ArgUnknown
	if val != nil && val.kind == jString {
		a.Str = val.s
	}
	return a, nil
}

// exactInt returns an integral JSON number as int64.
func exactInt(v *jvalue) (int64, bool) {
	if v == nil || v.kind != jNumber {
		return 0, false
	}
	if v.isInt() {
		n, err := strconv.ParseInt(v.num, 10, 64)
		return n, err == nil
	}
	// 2.0 is accepted as 2.
	if v.f == math.Trunc(v.f) && math.Abs(v.f) < 0x1p63 {
		return int64(v.f), true
	}
	return 0, false
}

// scalar fills a bool/int/float/str argument from its value.
func scalar(a framework.Arg, typ string, kind framework.ArgKind, val *jvalue, field string) (framework.Arg, *fieldError) {
	a.Kind = kind
	switch kind {
	case framework.ArgInt:
		switch val.kind {
		case jBool: // Python's bool is an int
			if val.b {
				a.Int, a.Float = 1, 1
			}
			return a, nil
		case jNumber:
			a.Float = val.f
			if n, ok := exactInt(val); ok {
				a.Int = n
				return a, nil
			}
			if val.isInt() {
				// An integer beyond int64: keep its float value.
				return a, nil
			}
			if math.IsNaN(val.f) || math.IsInf(val.f, 0) {
				return a, ferr(field, val, "%q descriptor has the non-finite value %s", typ, val.num)
			}
			// A float written for an int (e.g. 1.0 under "int"): keep both.
			a.Int = int64(math.Trunc(val.f))
			return a, nil
		}
	case framework.ArgFloat:
		switch val.kind {
		case jNumber:
			a.Float = val.f
			if n, ok := exactInt(val); ok {
				a.Int = n
			}
			return a, nil
		case jBool:
			if val.b {
				a.Float, a.Int = 1, 1
			}
			return a, nil
		}
	case framework.ArgBool:
		switch val.kind {
		case jBool:
			a.Bool = val.b
			if val.b {
				a.Int, a.Float = 1, 1
			}
			return a, nil
		case jNumber:
			a.Bool = val.f != 0
			a.Float = val.f
			a.Int, _ = exactInt(val)
			return a, nil
		}
	case framework.ArgString:
		if val.kind == jString {
			a.Str = val.s
			return a, nil
		}
	}
	return a, ferr(field, val, "%q descriptor has %s %s \"value\"", typ, article(val.kind), val.kind)
}

// tensorDesc reads the statistics descriptor of a tensor.
func tensorDesc(v *jvalue, path, field, typ string) (*TensorDesc, *fieldError) {
	td := &TensorDesc{Path: path, TypeName: typ}
	dt := v.get("dtype")
	switch {
	case dt == nil:
		return nil, ferr(field, v, "tensor descriptor has no \"dtype\"")
	case dt.kind != jString:
		return nil, ferr(field, dt, "tensor descriptor \"dtype\" is %s %s, expected a string", article(dt.kind), dt.kind)
	}
	td.DTypeName = dt.s
	td.DType, _ = tensor.Parse(dt.s) // unknown dtypes stay Invalid: SKIP later
	sh := v.get("shape")
	switch {
	case sh == nil:
		return nil, ferr(field, v, "tensor descriptor has no \"shape\"")
	case sh.kind != jArray:
		return nil, ferr(field, sh, "tensor descriptor \"shape\" is %s %s, expected an array of integers", article(sh.kind), sh.kind)
	}
	td.Shape = make([]int, len(sh.arr))
	n := 1
	for i, e := range sh.arr {
		d, ok := exactInt(e)
		if !ok || d < 0 || d > maxElements {
			return nil, ferr(fmt.Sprintf("%s.shape[%d]", field, i), e, "dimension %s is not a non-negative integer", render(e))
		}
		td.Shape[i] = int(d)
		if n != 0 {
			if d != 0 && n > maxElements/int(d) {
				return nil, ferr(field+".shape", sh, "shape %s has more than 2^50 elements", render(sh))
			}
			n *= int(d)
		}
	}
	td.Max, td.HasMax, td.MaxBool, td.MaxRepr = stat(v.get("Max"))
	td.Min, td.HasMin, td.MinBool, td.MinRepr = stat(v.get("Min"))
	if e := v.get("Max_except_inf_nan"); e != nil && e.kind == jNumber {
		f := e.f
		td.MaxExceptInfNan = &f
	}
	if e := v.get("Min_except_inf_nan"); e != nil && e.kind == jNumber {
		f := e.f
		td.MinExceptInfNan = &f
	}
	for _, key := range []string{"data_name", "datapath"} { // datapath wins
		dn := v.get(key)
		if dn == nil || dn.kind == jNull {
			continue
		}
		if dn.kind != jString {
			return nil, ferr(field+"."+key, dn, "is %s %s, expected a file name", article(dn.kind), dn.kind)
		}
		td.DataName = dn.s
	}
	if rg := v.get("requires_grad"); rg != nil {
		td.RequiresGrad = truthy(rg)
	}
	return td, nil
}

// stat reads a Max/Min statistic.
func stat(v *jvalue) (f float64, ok bool, b *bool, repr string) {
	if v == nil {
		return 0, false, nil, "None"
	}
	switch v.kind {
	case jNumber:
		return v.f, true, nil, pyNumber(v)
	case jBool:
		bv := v.b
		if bv {
			return 1, true, &bv, "True"
		}
		return 0, true, &bv, "False"
	}
	return 0, false, nil, render(v)
}

// pyNumber renders a JSON number the way Python's str() renders the value
// json.loads produced (an int, or a float in repr form).
func pyNumber(v *jvalue) string {
	if v.isInt() {
		if _, err := strconv.ParseInt(v.num, 10, 64); err == nil {
			return v.num
		}
		// Python ints are unbounded: print the literal (minus a "-0").
		return strings.TrimPrefix(v.num, "+")
	}
	return FormatPyFloat(v.f)
}

// FormatPyFloat formats a float64 like Python's repr(float) ("1.0",
// "1e-05", "inf", "nan"), for messages that must read like msprobe's.
func FormatPyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	// repr uses scientific notation when the decimal exponent is < -4 or
	// >= 16; Go's 'e' format already writes at least two exponent digits.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	if _, e, ok := strings.Cut(s, "e"); ok {
		if exp, err := strconv.Atoi(e); err == nil && (exp < -4 || exp >= 16) {
			return s
		}
	}
	s = strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// render prints a JSON value compactly, Python-style, for messages.
func render(v *jvalue) string {
	if v == nil {
		return "None"
	}
	switch v.kind {
	case jNull:
		return "None"
	case jBool:
		if v.b {
			return "True"
		}
		return "False"
	case jNumber:
		return pyNumber(v)
	case jString:
		return v.s
	case jArray:
		parts := make([]string, len(v.arr))
		for i, e := range v.arr {
			parts[i] = renderInner(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	parts := make([]string, len(v.obj))
	for i, m := range v.obj {
		parts[i] = strconv.Quote(m.key) + ": " + renderInner(m.val)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func renderInner(v *jvalue) string {
	if v.kind == jString {
		return "'" + v.s + "'"
	}
	return render(v)
}
