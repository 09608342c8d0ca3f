// Package dumpjson reads the forward entries of a msprobe dump.json into
// framework plan requests, minimally: enough for the framework plugins'
// tests to run every real dumped call through Plan. It is not the host's
// dump parser (no statistics, no tensor data, no backward pairing).
package dumpjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Forward parses a dump.json (or a bare "data" object) and returns one plan
// request per forward entry ("<name>.forward" keys) in file order. HasBackward is set
// when the matching ".backward" key exists.
func Forward(raw []byte) ([]framework.PlanRequest, error) {
	raw = sanitize(raw)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, err
	}
	data := raw
	if d, ok := top["data"]; ok {
		data = d
	}
	keys, bodies, err := orderedObject(data)
	if err != nil {
		return nil, err
	}
	backward := map[string]bool{}
	for _, k := range keys {
		if name, ok := strings.CutSuffix(k, ".backward"); ok {
			backward[name] = true
		}
	}
	var out []framework.PlanRequest
	for i, k := range keys {
		name, ok := strings.CutSuffix(k, ".forward")
		if !ok {
			continue
		}
		var body struct {
			InputArgs []json.RawMessage `json:"input_args"`
			Output    []json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(bodies[i], &body); err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		req := framework.PlanRequest{API: name, HasBackward: backward[name]}
		for j, a := range body.InputArgs {
			arg, err := Descriptor(a, fmt.Sprintf("args.%d", j))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", k, err)
			}
			req.Args = append(req.Args, arg)
		}
		kwKeys, kwBodies, err := orderedObject(rawOrEmpty(bodies[i], "input_kwargs"))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		for j, kk := range kwKeys {
			arg, err := Descriptor(kwBodies[j], "kwargs."+kk)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", k, err)
			}
			req.Kwargs = append(req.Kwargs, framework.NamedArg{Name: kk, Arg: arg})
		}
		for j, o := range body.Output {
			arg, err := Descriptor(o, fmt.Sprintf("output.%d", j))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", k, err)
			}
			req.Outputs = append(req.Outputs, arg)
		}
		out = append(out, req)
	}
	return out, nil
}

func rawOrEmpty(body json.RawMessage, key string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m[key] == nil {
		return json.RawMessage("{}")
	}
	return m[key]
}

// orderedObject returns the keys and raw values of a JSON object in order.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if tok == nil {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("expected an object")
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, kt.(string))
		vals = append(vals, v)
	}
	return keys, vals, nil
}

// sanitize replaces Python's bare NaN, Infinity and -Infinity tokens
// (outside strings) by null.
func sanitize(raw []byte) []byte {
	var out bytes.Buffer
	inStr, esc := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inStr {
			out.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
		case bytes.HasPrefix(raw[i:], []byte("-Infinity")):
			out.WriteString("null")
			i += len("-Infinity") - 1
			continue
		case bytes.HasPrefix(raw[i:], []byte("Infinity")):
			out.WriteString("null")
			i += len("Infinity") - 1
			continue
		case bytes.HasPrefix(raw[i:], []byte("NaN")):
			out.WriteString("null")
			i += len("NaN") - 1
			continue
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// Descriptor maps one argument descriptor (pytorch-precheck.md §2.6,
// mindspore-precheck.md §2.4) to a framework.Arg with the given path.
func Descriptor(raw json.RawMessage, path string) (framework.Arg, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return framework.Arg{Kind: framework.ArgNone, Path: path}, nil
	}
	if raw[0] == '[' {
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return framework.Arg{}, err
		}
		a := framework.Arg{Kind: framework.ArgList, Path: path, Elems: []framework.Arg{}}
		for i, e := range elems {
			ea, err := Descriptor(e, path+"."+strconv.Itoa(i))
			if err != nil {
				return framework.Arg{}, err
			}
			a.Elems = append(a.Elems, ea)
		}
		return a, nil
	}
	var d map[string]json.RawMessage
	if err := json.Unmarshal(raw, &d); err != nil {
		return framework.Arg{}, fmt.Errorf("%s: %v", path, err)
	}
	var typ string
	_ = json.Unmarshal(d["type"], &typ)
	a := framework.Arg{Path: path, TypeName: typ}
	value := d["value"]
	switch {
	case typ == "torch.Tensor" || typ == "mindspore.Tensor" || typ == "torch.nn.parameter.Parameter" || typ == "numpy.ndarray" ||
		strings.HasPrefix(typ, "torch.") && strings.HasSuffix(typ, "Tensor"):
		a.Kind = framework.ArgTensor
		_ = json.Unmarshal(d["dtype"], &a.DTypeName)
		a.DType, _ = tensor.Parse(a.DTypeName)
		_ = json.Unmarshal(d["shape"], &a.Shape)
		_ = json.Unmarshal(d["requires_grad"], &a.RequiresGrad)
	case typ == "torch.dtype" || typ == "mindspore.dtype":
		a.Kind = framework.ArgDType
		_ = json.Unmarshal(value, &a.Str)
	case typ == "torch.device":
		a.Kind = framework.ArgDevice
		a.Str = strings.Trim(string(value), `"`)
	case typ == "torch.Size":
		a.Kind = framework.ArgSize
		_ = json.Unmarshal(value, &a.Ints)
	case typ == "slice":
		a.Kind = framework.ArgSlice
		var v []*int64
		_ = json.Unmarshal(value, &v)
		for _, x := range v {
			if x == nil {
				a.Elems = append(a.Elems, framework.Arg{Kind: framework.ArgNone})
			} else {
				a.Elems = append(a.Elems, framework.Arg{Kind: framework.ArgInt, Int: *x})
			}
		}
	case typ == "ellipsis":
		a.Kind = framework.ArgEllipsis
	case typ == "str":
		a.Kind = framework.ArgString
		_ = json.Unmarshal(value, &a.Str)
	case typ == "int" || typ == "float" || typ == "bool" || isNumpyScalar(typ):
		scalar(&a, typ, value)
	default:
		a.Kind = framework.ArgUnknown
	}
	return a, nil
}

var numpyScalars = func() []string {
	s := []string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
		"float64", "bool_"}
	sort.Strings(s)
	return s
}()

func isNumpyScalar(typ string) bool {
	t := strings.TrimPrefix(typ, "numpy.")
	i := sort.SearchStrings(numpyScalars, t)
	return i < len(numpyScalars) && numpyScalars[i] == t
}

// scalar reads a number or bool descriptor by the JSON value's own type
// (Python bool/int/float), falling back on the declared type.
func scalar(a *framework.Arg, typ string, value json.RawMessage) {
	v := strings.TrimSpace(string(value))
	switch {
	case v == "true" || v == "false":
		a.Kind, a.Bool = framework.ArgBool, v == "true"
	case strings.ContainsAny(v, ".eE") || strings.Contains(typ, "float") || v == "null":
		a.Kind = framework.ArgFloat
		a.Float, _ = strconv.ParseFloat(v, 64)
	default:
		a.Kind = framework.ArgInt
		a.Int, _ = strconv.ParseInt(v, 10, 64)
	}
}
