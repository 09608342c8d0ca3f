package dump

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

const testPath = "/x/dump.json"

// parseOne wraps one positional descriptor in a PyTorch (or MindSpore)
// dump and returns its entry.
func parseOne(t *testing.T, fw, desc string) *Entry {
	t.Helper()
	task := ""
	if fw == MindSpore {
		task = `"task": "statistics", `
	}
	doc := fmt.Sprintf(`{%s"data": {"Torch.f.0.forward": {"input_args": [%s], "input_kwargs": {}, "output": []}}}`, task, desc)
	if fw == MindSpore {
		doc = strings.Replace(doc, "Torch.f.0", "Mint.f.0", 1)
	}
	d, err := Parse([]byte(doc), testPath, fw)
	if err != nil {
		t.Fatalf("Parse(%s): %v", desc, err)
	}
	if len(d.Entries) != 1 {
		t.Fatalf("entries %v", names(d))
	}
	return d.Entries[0]
}

func bptr(b bool) *bool { return &b }

func TestDescriptorKinds(t *testing.T) {
	tensorArg := func(typ, dtName string, dt tensor.DType, shape ...int) framework.Arg {
		if shape == nil {
			shape = []int{}
		}
		return framework.Arg{Kind: framework.ArgTensor, Path: "args.0", TypeName: typ, DType: dt, DTypeName: dtName, Shape: shape}
	}
	cases := []struct {
		name, fw, desc string
		want           framework.Arg
	}{
		{"torch tensor", PyTorch, `{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2, 3], "Max": 1.0, "Min": -1.0, "requires_grad": true}`,
			framework.Arg{Kind: framework.ArgTensor, Path: "args.0", TypeName: "torch.Tensor", DType: tensor.Float16, DTypeName: "torch.float16", Shape: []int{2, 3}, RequiresGrad: true}},
		{"legacy parameter", PyTorch, `{"type": "torch.nn.parameter.Parameter", "dtype": "torch.float32", "shape": [4], "Max": 1, "Min": 0}`,
			tensorArg("torch.nn.parameter.Parameter", "torch.float32", tensor.Float32, 4)},
		{"mindspore tensor", MindSpore, `{"type": "mindspore.Tensor", "dtype": "BFloat16", "shape": [], "Max": 1, "Min": 1}`,
			tensorArg("mindspore.Tensor", "BFloat16", tensor.BFloat16)},
		{"numpy ndarray", PyTorch, `{"type": "numpy.ndarray", "dtype": "float32", "shape": [3], "Max": 1, "Min": 0}`,
			tensorArg("numpy.ndarray", "float32", tensor.Float32, 3)},
		{"float8 kept invalid", PyTorch, `{"type": "torch.Tensor", "dtype": "torch.float8_e4m3fn", "shape": [2], "Max": 1, "Min": 0}`,
			tensorArg("torch.Tensor", "torch.float8_e4m3fn", tensor.Invalid, 2)},
		{"hifloat8 kept invalid", PyTorch, `{"type": "torch.Tensor", "dtype": "torch_npu.HiFloat8Tensor", "shape": [2], "Max": 1, "Min": 0}`,
			tensorArg("torch.Tensor", "torch_npu.HiFloat8Tensor", tensor.Invalid, 2)},
		{"complex kept invalid", PyTorch, `{"type": "torch.Tensor", "dtype": "torch.complex64", "shape": [1], "Max": 1, "Min": 0}`,
			tensorArg("torch.Tensor", "torch.complex64", tensor.Invalid, 1)},
		{"mindspore uint16 kept invalid", MindSpore, `{"type": "mindspore.Tensor", "dtype": "UInt16", "shape": [1], "Max": 1, "Min": 0}`,
			tensorArg("mindspore.Tensor", "UInt16", tensor.Invalid, 1)},
		{"int", PyTorch, `{"type": "int", "value": -7}`, framework.Arg{Kind: framework.ArgInt, Path: "args.0", TypeName: "int", Int: -7, Float: -7}},
		{"int written as float", PyTorch, `{"type": "int", "value": 1.0}`, framework.Arg{Kind: framework.ArgInt, Path: "args.0", TypeName: "int", Int: 1, Float: 1}},
		{"big int", PyTorch, `{"type": "int", "value": 9223372036854775807}`, framework.Arg{Kind: framework.ArgInt, Path: "args.0", TypeName: "int", Int: math.MaxInt64, Float: 9223372036854775807}},
		{"float", PyTorch, `{"type": "float", "value": 0.08838834764831843}`, framework.Arg{Kind: framework.ArgFloat, Path: "args.0", TypeName: "float", Float: 0.08838834764831843}},
		{"float integral", PyTorch, `{"type": "float", "value": 2}`, framework.Arg{Kind: framework.ArgFloat, Path: "args.0", TypeName: "float", Float: 2, Int: 2}},
		{"float -inf", PyTorch, `{"type": "float", "value": -Infinity}`, framework.Arg{Kind: framework.ArgFloat, Path: "args.0", TypeName: "float", Float: math.Inf(-1)}},
		{"bool", PyTorch, `{"type": "bool", "value": true}`, framework.Arg{Kind: framework.ArgBool, Path: "args.0", TypeName: "bool", Bool: true, Int: 1, Float: 1}},
		{"str", PyTorch, `{"type": "str", "value": "NaN Infinity"}`, framework.Arg{Kind: framework.ArgString, Path: "args.0", TypeName: "str", Str: "NaN Infinity"}},
		{"numpy int64", PyTorch, `{"type": "int64", "value": 5}`, framework.Arg{Kind: framework.ArgInt, Path: "args.0", TypeName: "int64", Int: 5, Float: 5}},
		{"numpy float32", PyTorch, `{"type": "float32", "value": 0.5}`, framework.Arg{Kind: framework.ArgFloat, Path: "args.0", TypeName: "float32", Float: 0.5}},
		{"legacy numpy.float64", PyTorch, `{"type": "numpy.float64", "value": 3.14}`, framework.Arg{Kind: framework.ArgFloat, Path: "args.0", TypeName: "numpy.float64", Float: 3.14}},
		{"numpy bool_", PyTorch, `{"type": "bool_", "value": false}`, framework.Arg{Kind: framework.ArgBool, Path: "args.0", TypeName: "bool_"}},
		{"numpy complex", PyTorch, `{"type": "complex64", "value": "1+2j"}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "complex64"}},
		{"slice", PyTorch, `{"type": "slice", "value": [1, 10, 2]}`, framework.Arg{Kind: framework.ArgSlice, Path: "args.0", TypeName: "slice", Elems: []framework.Arg{
			{Kind: framework.ArgInt, Path: "args.0.0", TypeName: "int", Int: 1, Float: 1},
			{Kind: framework.ArgInt, Path: "args.0.1", TypeName: "int", Int: 10, Float: 10},
			{Kind: framework.ArgInt, Path: "args.0.2", TypeName: "int", Int: 2, Float: 2}}}},
		{"slice with None", PyTorch, `{"type": "slice", "value": [null, -1, null]}`, framework.Arg{Kind: framework.ArgSlice, Path: "args.0", TypeName: "slice", Elems: []framework.Arg{
			{Kind: framework.ArgNone, Path: "args.0.0"},
			{Kind: framework.ArgInt, Path: "args.0.1", TypeName: "int", Int: -1, Float: -1},
			{Kind: framework.ArgNone, Path: "args.0.2"}}}},
		{"ellipsis", PyTorch, `{"type": "ellipsis", "value": "..."}`, framework.Arg{Kind: framework.ArgEllipsis, Path: "args.0", TypeName: "ellipsis", Str: "..."}},
		{"torch.Size", PyTorch, `{"type": "torch.Size", "value": [2, 3]}`, framework.Arg{Kind: framework.ArgSize, Path: "args.0", TypeName: "torch.Size", Ints: []int64{2, 3}}},
		{"torch.dtype", PyTorch, `{"type": "torch.dtype", "value": "torch.float16"}`, framework.Arg{Kind: framework.ArgDType, Path: "args.0", TypeName: "torch.dtype", Str: "torch.float16", DTypeName: "torch.float16", DType: tensor.Float16}},
		{"torch.dtype unknown", PyTorch, `{"type": "torch.dtype", "value": "torch.complex32"}`, framework.Arg{Kind: framework.ArgDType, Path: "args.0", TypeName: "torch.dtype", Str: "torch.complex32", DTypeName: "torch.complex32"}},
		{"mindspore.dtype", MindSpore, `{"type": "mindspore.dtype", "value": "Float32"}`, framework.Arg{Kind: framework.ArgDType, Path: "args.0", TypeName: "mindspore.dtype", Str: "Float32", DTypeName: "Float32", DType: tensor.Float32}},
		{"torch.device str", PyTorch, `{"type": "torch.device", "value": "npu:0"}`, framework.Arg{Kind: framework.ArgDevice, Path: "args.0", TypeName: "torch.device", Str: "npu:0"}},
		{"torch.device int", PyTorch, `{"type": "torch.device", "value": 1}`, framework.Arg{Kind: framework.ArgDevice, Path: "args.0", TypeName: "torch.device", Str: "1", Int: 1}},
		{"memory_format", PyTorch, `{"type": "torch.memory_format", "format": "channels_last"}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "torch.memory_format", Str: "channels_last"}},
		{"process group", PyTorch, `{"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": "1a2b3c4d"}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "torch.ProcessGroup"}},
		{"reduce op", PyTorch, `{"type": "torch.distributed.ReduceOp", "value": "RedOpType.SUM"}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "torch.distributed.ReduceOp", Str: "RedOpType.SUM"}},
		{"p2p op", PyTorch, `{"class_type": "torch.distributed.P2POp", "tensor": {"type": "torch.Tensor"}, "op": "isend", "peer": 1}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "torch.distributed.P2POp"}},
		{"empty object", PyTorch, `{}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0"}},
		{"null", PyTorch, `null`, framework.Arg{Kind: framework.ArgNone, Path: "args.0"}},
		{"int with null value (pytorch passes None)", PyTorch, `{"type": "int", "value": null}`, framework.Arg{Kind: framework.ArgNone, Path: "args.0", TypeName: "int"}},
		{"nested list", PyTorch, `[[{"type": "int", "value": 1}, null], []]`, framework.Arg{Kind: framework.ArgList, Path: "args.0", Elems: []framework.Arg{
			{Kind: framework.ArgList, Path: "args.0.0", Elems: []framework.Arg{
				{Kind: framework.ArgInt, Path: "args.0.0.0", TypeName: "int", Int: 1, Float: 1},
				{Kind: framework.ArgNone, Path: "args.0.0.1"}}},
			{Kind: framework.ArgList, Path: "args.0.1", Elems: []framework.Arg{}}}}},
		{"dict argument", PyTorch, `{"a": {"type": "int", "value": 3}}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "dict", Elems: []framework.Arg{
			{Kind: framework.ArgInt, Path: "args.0.a", TypeName: "int", Int: 3, Float: 3}}}},
		{"unknown type", PyTorch, `{"type": "torch.Generator"}`, framework.Arg{Kind: framework.ArgUnknown, Path: "args.0", TypeName: "torch.Generator"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := parseOne(t, c.fw, c.desc)
			if e.Skip != "" || e.Err != nil {
				t.Fatalf("skip %q err %v", e.Skip, e.Err)
			}
			got := e.Forward.Args[0]
			if !reflect.DeepEqual(normalize(got), normalize(c.want)) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// normalize makes nil and empty slices compare equal.
func normalize(a framework.Arg) framework.Arg {
	if len(a.Shape) == 0 && a.Kind != framework.ArgTensor {
		a.Shape = nil
	}
	if len(a.Ints) == 0 {
		a.Ints = nil
	}
	if len(a.Elems) == 0 {
		if a.Kind == framework.ArgList {
			a.Elems = []framework.Arg{}
		} else {
			a.Elems = nil
		}
	}
	for i := range a.Elems {
		a.Elems[i] = normalize(a.Elems[i])
	}
	if a.Shape == nil && a.Kind == framework.ArgTensor {
		a.Shape = []int{}
	}
	return a
}

func TestTensorStatistics(t *testing.T) {
	e := parseOne(t, PyTorch, `{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [3, 3],
		"Max": Infinity, "Min": -Infinity, "Mean": NaN, "Norm": NaN, "requires_grad": false,
		"Max_except_inf_nan": 2.0, "Min_except_inf_nan": 1, "data_name": "a.pt", "datapath": "b.pt"}`)
	td := e.Forward.Tensors["args.0"]
	if !math.IsInf(td.Max, 1) || !math.IsInf(td.Min, -1) || !td.HasMax || !td.HasMin {
		t.Errorf("Max %v Min %v", td.Max, td.Min)
	}
	if td.MaxExceptInfNan == nil || *td.MaxExceptInfNan != 2 || td.MinExceptInfNan == nil || *td.MinExceptInfNan != 1 {
		t.Errorf("except keys %v %v", td.MaxExceptInfNan, td.MinExceptInfNan)
	}
	if td.DataName != "b.pt" {
		t.Errorf("DataName %q, want the legacy datapath to win", td.DataName)
	}
	if td.MaxRepr != "inf" || td.MinRepr != "-inf" || td.NumElements() != 9 {
		t.Errorf("repr %q %q n %d", td.MaxRepr, td.MinRepr, td.NumElements())
	}

	e = parseOne(t, PyTorch, `{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1, 0, 256], "Max": null, "Min": null}`)
	td = e.Forward.Tensors["args.0"]
	if td.HasMax || td.HasMin || td.MaxRepr != "None" || td.NumElements() != 0 {
		t.Errorf("empty tensor stats %+v", td)
	}
	e = parseOne(t, PyTorch, `{"type": "torch.Tensor", "dtype": "torch.bool", "shape": [4], "Max": true, "Min": false}`)
	td = e.Forward.Tensors["args.0"]
	if !reflect.DeepEqual(td.MaxBool, bptr(true)) || !reflect.DeepEqual(td.MinBool, bptr(false)) || td.Max != 1 || td.Min != 0 || !td.HasMax {
		t.Errorf("bool stats %+v", td)
	}
	e = parseOne(t, PyTorch, `{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": "big", "Min": 1e-05}`)
	td = e.Forward.Tensors["args.0"]
	if td.HasMax || td.MaxRepr != "big" || td.MinRepr != "1e-05" || td.Min != 1e-05 {
		t.Errorf("string stat %+v", td)
	}
	// NaN as statistic stays NaN.
	e = parseOne(t, PyTorch, `{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2], "Max": NaN, "Min": -0.0}`)
	td = e.Forward.Tensors["args.0"]
	if !math.IsNaN(td.Max) || !td.HasMax || td.Min != 0 || !math.Signbit(td.Min) || td.MaxRepr != "nan" || td.MinRepr != "-0.0" {
		t.Errorf("nan stats %+v", td)
	}
}

func TestKwargs(t *testing.T) {
	doc := `{"data": {"Functional.linear.2.forward": {"input_args": [], "input_kwargs": {
		"bias": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": 1, "Min": 0, "data_name": "Functional.linear.2.forward.kwargs.bias.pt"},
		"tensors": [{"type": "torch.Tensor", "dtype": "torch.int64", "shape": [2], "Max": 1, "Min": 0}, {"type": "int", "value": 2}],
		"out": null,
		"dtype": {"type": "torch.dtype", "value": "torch.bfloat16"},
		"bias": {"type": "torch.Tensor", "dtype": "torch.float16", "shape": [4], "Max": 1, "Min": 0}}, "output": []}}}`
	d, err := Parse([]byte(doc), testPath, PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	f := d.Entries[0].Forward
	var got []string
	for _, k := range f.Kwargs {
		got = append(got, k.Name)
	}
	if strings.Join(got, ",") != "bias,tensors,out,dtype" {
		t.Errorf("kwarg order %v (a repeated key keeps its first position, last value)", got)
	}
	if f.Kwargs[0].Arg.DType != tensor.Float16 || f.Tensors["kwargs.bias"].DType != tensor.Float16 {
		t.Errorf("repeated kwarg should keep the last value: %+v", f.Kwargs[0].Arg)
	}
	if l := f.Kwargs[1].Arg; l.Kind != framework.ArgList || l.Elems[0].Path != "kwargs.tensors.0" || f.Tensors["kwargs.tensors.0"] == nil || l.Elems[1].Int != 2 {
		t.Errorf("list kwarg %+v", l)
	}
	if f.Kwargs[2].Arg.Kind != framework.ArgNone || f.Kwargs[3].Arg.DType != tensor.BFloat16 {
		t.Errorf("kwargs %+v", f.Kwargs)
	}
}

func TestNonFiniteTokensAndOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"task": "statistics", "level": "L1", "dump_data_dir": null, "data": {`)
	want := []string{}
	for i := 20; i > 0; i-- {
		if i < 20 {
			b.WriteString(",\n")
		}
		name := fmt.Sprintf("Torch.op%02d.%d", i, i%3)
		want = append(want, name)
		fmt.Fprintf(&b, `%q: {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1], "Max": Infinity, "Min": -Infinity, "Mean": NaN, "Norm": NaN}, {"type": "str", "value": "-Infinity"}], "input_kwargs": {"alpha": {"type": "float", "value": NaN}}, "output": []}`, name+".forward")
	}
	b.WriteString("}}")
	d, err := Parse([]byte(b.String()), testPath, PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(d); !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want file order %v", got, want)
	}
	f := d.Entries[7].Forward
	if !math.IsInf(f.Tensors["args.0"].Max, 1) || !math.IsInf(f.Tensors["args.0"].Min, -1) {
		t.Errorf("inf stats %+v", f.Tensors["args.0"])
	}
	if f.Args[1].Str != "-Infinity" || !math.IsNaN(f.Kwargs[0].Arg.Float) {
		t.Errorf("string token or NaN value mangled: %+v %+v", f.Args[1], f.Kwargs[0].Arg)
	}
}

func TestMalformedJSON(t *testing.T) {
	cases := []struct {
		doc, want string
	}{
		{``, "dump /x/dump.json: the file is empty"},
		{"{\n \"data\": {\"a.forward\": [1, 2,]}\n}", "dump /x/dump.json:2:30: unexpected ']', expected a value"},
		{`{"data": {"Torch.a.0.forward": {"input_args": [Nan]}}}`, "dump /x/dump.json:1:48: invalid literal, expected \"NaN\""},
		{`{"data": {"Torch.a.0.forward": {"x": -Inf}}}`, "dump /x/dump.json:1:39: invalid literal, expected \"Infinity\""},
		{`{"data": {}} x`, "dump /x/dump.json:1:14: unexpected 'x' after the end of the JSON document"},
		{`{"data": {"a": "unterminated}}`, "dump /x/dump.json:1:16: unterminated string"},
		{"{\"data\": {\"a\": 01}}", "dump /x/dump.json:1:16: invalid number: leading zero"},
		{`{"data": {"a" 1}}`, "dump /x/dump.json:1:15: unexpected '1' after object key \"a\", expected ':'"},
		{`{"data": {"a": "\x"}}`, `dump /x/dump.json:1:17: invalid escape '\x' in string`},
		{"{\"data\": {\"a\": \"tab\there\"}}", "dump /x/dump.json:1:20: invalid control character 0x09 in string"},
		{`[1, 2]`, "dump /x/dump.json:1:1: the top-level JSON value is an array, expected an object"},
		{`{"data": "x"}`, `dump /x/dump.json:1:10: "data" is a string, expected an object mapping entry names to entries`},
		{`{"data": null}`, "dump /x/dump.json: something wrong with dump, no data found in dump.json (\"data\" is null)"},
		{`{"task": "statistics"}`, "dump /x/dump.json: \"data\" is missing and the file holds no API entries"},
		{`{"task": 3, "data": {}}`, `dump /x/dump.json:1:10: "task" is a number, expected a string`},
		{`{"framework": "mindspore", "data": {}}`, `dump /x/dump.json: the dump says "framework": "mindspore" but it is being checked as a pytorch dump`},
		{strings.Repeat("[", 2000), "nesting deeper than 1000 levels"},
		{"{\"data\": {\"é\": [}}}", "dump /x/dump.json:1:17: unexpected '}', expected a value"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.doc), testPath, PyTorch)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%.40q): error %v, want %q", c.doc, err, c.want)
		}
	}
	msCases := []struct{ doc, want string }{
		{`{"data": {}}`, `dump /x/dump.json: "task" is missing; it must be "statistics" or "tensor"`},
		{`{"task": "overflow_check", "data": {}}`, `dump /x/dump.json: "task" is "overflow_check"; it must be "statistics" or "tensor"`},
		{`{"task": "tensor", "dump_data_dir": null, "data": {}}`, `dump /x/dump.json: tensor mode needs "dump_data_dir" (the directory of the .npy files) as a string, but it is a null`},
		{`{"task": "tensor", "data": {}}`, `needs "dump_data_dir" (the directory of the .npy files) as a string, but it is missing`},
		{`{"task": "statistics"}`, `dump /x/dump.json: "data" is missing`},
		{`{"task": "statistics", "framework": "pytorch", "data": {}}`, `the dump says "framework": "pytorch" but it is being checked as a mindspore dump`},
	}
	for _, c := range msCases {
		_, err := Parse([]byte(c.doc), testPath, MindSpore)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MindSpore Parse(%q): error %v, want %q", c.doc, err, c.want)
		}
	}
	if _, err := Parse([]byte(`{"data": {}}`), testPath, "tensorflow"); err == nil || !strings.Contains(err.Error(), `unknown framework "tensorflow"`) {
		t.Errorf("unknown framework: %v", err)
	}
	if _, err := Load("/nonexistent/dir/dump.json", PyTorch); err == nil || !strings.Contains(err.Error(), "dump /nonexistent/dir/dump.json: cannot read: no such file or directory") {
		t.Errorf("missing file: %v", err)
	}
}

func TestEntryErrors(t *testing.T) {
	cases := []struct {
		body, skip string
		at         string // the text the error points at
	}{
		{`{"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32"}], "input_kwargs": {}}`, `input_args[0]: tensor descriptor has no "shape"`, `{"type": "torch.Tensor", "dtype": "torch.float32"}`},
		{`{"input_args": [[null, {"type": "torch.Tensor", "shape": [1]}]], "input_kwargs": {}}`, `input_args[0][1]: tensor descriptor has no "dtype"`, `{"type": "torch.Tensor", "shape"`},
		{`{"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, -1]}], "input_kwargs": {}}`, `input_args[0].shape[1]: dimension -1 is not a non-negative integer`, `-1`},
		{`{"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": 3}], "input_kwargs": {}}`, `input_args[0]: tensor descriptor "shape" is a number, expected an array of integers`, `3}`},
		{`{"input_args": [{"type": "torch.Tensor", "dtype": 5, "shape": []}], "input_kwargs": {}}`, `input_args[0]: tensor descriptor "dtype" is a number, expected a string`, `5,`},
		{`{"input_args": [], "input_kwargs": {"x": 5}}`, `input_kwargs["x"]: is a number, expected an object, an array or null`, `5}`},
		{`{"input_args": []}`, `input_kwargs: missing`, `{"input_args": []}`},
		{`{"input_args": 7, "input_kwargs": {}}`, `input_args: is a number, expected an array`, `7,`},
		{`[1]`, `the entry is an array, expected an object with input_args, input_kwargs and output`, `[1]`},
		{`{"input_args": [{"type": "slice", "value": [1, 2]}], "input_kwargs": {}}`, `input_args[0]: slice descriptor needs "value": [start, stop, step]`, `{"type": "slice"`},
		{`{"input_args": [{"type": "int", "value": "3"}], "input_kwargs": {}}`, `input_args[0]: "int" descriptor has a string "value"`, `"3"`},
		{`{"input_args": [{"type": 3}], "input_kwargs": {}}`, `input_args[0]: "type" is a number, expected a string`, `3}`},
		{`{"input_args": [], "input_kwargs": {}, "output": [{"type": "torch.Size", "value": [1.5]}]}`, `output[0].value[0]: torch.Size element is not an integer`, `1.5`},
		{`{"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "data_name": 3}], "input_kwargs": {}}`, `input_args[0].data_name: is a number, expected a file name`, `3}`},
		{`{"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1048576, 1048576, 1048576]}], "input_kwargs": {}}`, `input_args[0].shape: shape [1048576, 1048576, 1048576] has more than 2^50 elements`, `[1048576`},
	}
	for _, c := range cases {
		doc := "{\"data\": {\n \"Torch.ok.0.forward\": {\"input_args\": [], \"input_kwargs\": {}},\n \"Functional.conv2d.0.forward\": " + c.body + "\n}}"
		d, err := Parse([]byte(doc), testPath, PyTorch)
		if err != nil {
			t.Fatalf("%s: whole dump failed: %v", c.body, err)
		}
		if len(d.Entries) != 2 || d.Entries[0].Skip != "" || d.Entries[0].Forward == nil {
			t.Fatalf("%s: the healthy entry was affected: %+v", c.body, d.Entries[0])
		}
		e := d.Entries[1]
		if e.Skip != c.skip || e.Forward != nil || e.Silent {
			t.Errorf("%s:\n skip %q\n want %q", c.body, e.Skip, c.skip)
		}
		col := len(` "Functional.conv2d.0.forward": `) + strings.Index(c.body, c.at) + 1
		wantErr := fmt.Sprintf("dump /x/dump.json: Functional.conv2d.0.forward: %s (line 3, column %d)", c.skip, col)
		if e.Err == nil || e.Err.Error() != wantErr {
			t.Errorf("%s:\n err  %v\n want %s", c.body, e.Err, wantErr)
		}
	}
}

func TestMindSporeDescriptorStrictness(t *testing.T) {
	doc := `{"task": "statistics", "data": {"Mint.add.0.forward": {"input_args": [{"type": "int", "value": null}], "input_kwargs": {}, "output": []},
		"Mint.sub.0.forward": {"input_args": [], "input_kwargs": {}}}}`
	d, err := Parse([]byte(doc), testPath, MindSpore)
	if err != nil {
		t.Fatal(err)
	}
	if e := d.Entries[0]; e.Skip != `input_args[0]: "int" descriptor has no "value" (or it is null)` {
		t.Errorf("null value: %q", e.Skip)
	}
	if e := d.Entries[1]; e.Skip != "output: missing" {
		t.Errorf("missing output: %q", e.Skip)
	}
}

func TestBackwardErrorsKeepForward(t *testing.T) {
	doc := `{"data": {"Torch.a.0.forward": {"input_args": [], "input_kwargs": {}, "output": []},
		"Torch.a.0.backward": {"output": []},
		"Torch.b.0.forward": {"input_args": [], "input_kwargs": {}, "output": []},
		"Torch.b.0.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.float32"}], "output": []}}}`
	d, err := Parse([]byte(doc), testPath, PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	a, b := d.Entries[0], d.Entries[1]
	if a.Skip != "" || a.Forward == nil || a.Backward == nil || a.Backward.Skip != "input: missing (the gradients of the backward entry)" {
		t.Errorf("a: skip %q backward %+v", a.Skip, a.Backward)
	}
	if b.Backward == nil || b.Backward.Skip != `input[0]: tensor descriptor has no "shape"` ||
		!strings.HasPrefix(b.Backward.Err.Error(), `dump /x/dump.json: Torch.b.0.backward: input[0]: tensor descriptor has no "shape"`) {
		t.Errorf("b backward %+v", b.Backward)
	}
}

func TestPyTorchNames(t *testing.T) {
	keys := []string{
		"Functional.my_forward_op.0.forward", // "forward" inside the API name
		"Tensor.Module_like.0.forward",       // "Module" inside the API name
		"Torch.linalg.vector_norm.0.forward",
		"Aten.add.Tensor.0.forward",
		"Torch.a.b.c.0.forward",
		"Distributed.all_reduce.0.forward",
		"MindSpeed.npu_ring.0.forward",
		"Module.conv1.Conv2d.forward.0",
		"Module.conv1.Conv2d.backward.0",
		"Module.conv1.Conv2d.parameters_grad",
		"Functional.relu.0.sideways",
		"Functional.relu.0.backward",
		"Torch.only_backward.0.backward",
		"=cmd.x.0.forward",
		"Torch.a;@x.0.forward",
		"＋Torch.add.0.forward",
		"Torch.sum.0.forward",
		"Torch.sum.0.forward", // duplicate key: last body wins, first position kept
	}
	var b strings.Builder
	b.WriteString(`{"data": {`)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		body := `{"input_args": [], "input_kwargs": {}, "output": []}`
		if strings.HasSuffix(k, "backward") {
			body = `{"input": [], "output": []}`
		}
		if i == len(keys)-1 {
			body = `{"input_args": [{"type": "int", "value": 9}], "input_kwargs": {}, "output": []}`
		}
		fmt.Fprintf(&b, "%q: %s", k, body)
	}
	b.WriteString("}}")
	d, err := Parse([]byte(b.String()), testPath, PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		typ, api, skip string
		silent, fwd    bool
		bwd            bool
	}
	wants := map[string]want{
		"Functional.my_forward_op.0":          {"Functional", "my_forward_op", "", false, true, false},
		"Tensor.Module_like.0":                {"Tensor", "Module_like", "", false, true, false},
		"Torch.linalg.vector_norm.0":          {"Torch", "linalg.vector_norm", "", false, true, false},
		"Aten.add.Tensor.0":                   {"Aten", "add.Tensor", "", false, true, false},
		"Torch.a.b.c.0":                       {"Torch", "", "API Torch.a.b.c.0 not support for run ut. SKIP.", false, true, false},
		"Distributed.all_reduce.0":            {"Distributed", "all_reduce", "API Distributed.all_reduce.0 not support for run ut. SKIP.", false, true, false},
		"MindSpeed.npu_ring.0":                {"MindSpeed", "npu_ring", "API MindSpeed.npu_ring.0 not support for run ut. SKIP.", false, true, false},
		"Module.conv1.Conv2d.forward.0":       {"Module", "", moduleSkip, true, false, false},
		"Module.conv1.Conv2d.backward.0":      {"Module", "", moduleSkip, true, false, false},
		"Module.conv1.Conv2d.parameters_grad": {"Module", "", moduleSkip, true, false, false},
		"Functional.relu.0.sideways":          {"Functional", "", `entry "Functional.relu.0.sideways" is not an API call: the last segment of its name must be "forward" or "backward"`, false, false, false},
		"Functional.relu.0":                   {"Functional", "relu", "backward-only entry: the dump has no forward call to replay", true, false, true},
		"Torch.only_backward.0":               {"Torch", "only_backward", "backward-only entry: the dump has no forward call to replay", true, false, true},
		"Torch.sum.0":                         {"Torch", "sum", "", false, true, false},
	}
	seen := map[string]bool{}
	for _, e := range d.Entries {
		if seen[e.Name] {
			t.Errorf("duplicate entry %s", e.Name)
		}
		seen[e.Name] = true
		if UnsafeName(e.Name) {
			if !e.Silent || !strings.Contains(e.Skip, "formula") {
				t.Errorf("%s: unsafe name not skipped silently: %q", e.Name, e.Skip)
			}
			continue
		}
		w, ok := wants[e.Name]
		if !ok {
			t.Errorf("unexpected entry %s", e.Name)
			continue
		}
		if e.Type != w.typ || e.API != w.api || e.Skip != w.skip || e.Silent != w.silent || (e.Forward != nil) != w.fwd || (e.Backward != nil) != w.bwd {
			t.Errorf("%s: got type %q api %q skip %q silent %v fwd %v bwd %v, want %+v", e.Name, e.Type, e.API, e.Skip, e.Silent, e.Forward != nil, e.Backward != nil, w)
		}
	}
	for _, n := range []string{"=cmd.x.0", "Torch.a;@x.0", "＋Torch.add.0"} {
		if !seen[n] {
			t.Errorf("unsafe name %s missing", n)
		}
	}
	if sum := entry(t, d, "Torch.sum.0"); sum.Forward.Args[0].Int != 9 || d.Entries[len(d.Entries)-1].Name != "Torch.sum.0" {
		t.Errorf("duplicate key handling: %+v", sum.Forward.Args)
	}
	if len(d.Warnings) < 3 {
		t.Errorf("warnings %v", d.Warnings)
	}
}

func TestMindSporeNames(t *testing.T) {
	keys := []string{
		"fake api",
		"MintFunctional.relu.0.forward",
		"Tensor.add_.0.forward",
		"Tensor.new.add.0.forward",
		"Tensor.__add__.0.forward",
		"Functional.flash_attention_score.0.forward",
		"Functional.relu.0.forward",
		"Mint.a.b.0.forward",
		"Cell.net.Dense.forward.0",
		"Primitive.conv2d.Conv2d.0.forward",
		"Jit.f.0.forward",
		"MintDistributed.all_gather.0.forward",
		"NPU.npu_x.0.forward",
	}
	want := map[string]struct {
		skip   string
		silent bool
	}{
		"fake api":                           {`entry "fake api" is not an API call: the last segment of its name must be "forward" or "backward"`, true},
		"MintFunctional.relu.0":              {"", false},
		"Tensor.add_.0":                      {"", false},
		"Tensor.new.add.0":                   {`MindSpore Tensor method "new.add" is not in the checker's supported list`, true},
		"Tensor.__add__.0":                   {`MindSpore Tensor method "__add__" is not in the checker's supported list`, true},
		"Functional.flash_attention_score.0": {"", false},
		"Functional.relu.0":                  {`MindSpore Functional API "relu" is not checked (only flash_attention_score)`, true},
		"Functional.swiglu.0":                {"", false}, // checked by probe; msprobe skips it (MsprobeSkip)
		"Mint.a.b.0":                         {`API name "Mint.a.b.0" must have exactly three segments <type>.<api>.<index> to be resolved`, false},
		"Cell.net.Dense.forward.0":           {cellSkip, true},
		"Primitive.conv2d.Conv2d.0":          {primitiveSkip, true},
		"Jit.f.0":                            {jitSkip, true},
		"MintDistributed.all_gather.0":       {"MintDistributed APIs are not checked", true},
		"NPU.npu_x.0":                        {"NPU APIs are not checked (MindSpore checks Mint, MintFunctional, the supported Tensor methods and flash_attention_score)", true},
	}
	doc := func(fw string) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, `{"task": "statistics", "framework": %q, "data": {`, fw)
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `%q: {"input_args": [], "input_kwargs": {}, "output": []}`, k)
		}
		b.WriteString("}}")
		return []byte(b.String())
	}
	d, err := Parse(doc("mindspore"), testPath, MindSpore)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entries) != len(keys) {
		t.Fatalf("entries %v", names(d))
	}
	for _, e := range d.Entries {
		w := want[e.Name]
		if e.Skip != w.skip || e.Silent != w.silent {
			t.Errorf("%s: skip %q silent %v, want %q %v", e.Name, e.Skip, e.Silent, w.skip, w.silent)
		}
	}
	if e := entry(t, d, "Mint.a.b.0"); e.API != "a.b" || e.Type != "Mint" {
		t.Errorf("Mint.a.b.0: %+v", e)
	}
	if r := entry(t, d, "Tensor.__add__.0").PlanRequest(""); r == nil || r.Dialect != "" {
		t.Errorf("mindspore plan request: %+v", r)
	}
	// MindTorch dumps check Torch, Functional and Tensor entries.
	mt := strings.Replace(string(doc("mindtorch")), `"fake api"`, `"Torch.matmul.0.forward"`, 1)
	mt = strings.Replace(mt, `"Mint.a.b.0.forward"`, `"Torch.linalg.det.0.forward"`, 1)
	d, err = Parse([]byte(mt), testPath, MindSpore)
	if err != nil {
		t.Fatal(err)
	}
	// Sub-module names are left to the plugin (checked, SKIP under
	// --compat msprobe).
	for _, n := range []string{"Torch.matmul.0", "Functional.relu.0", "Tensor.__add__.0", "Torch.linalg.det.0"} {
		if e := entry(t, d, n); e.Skip != "" {
			t.Errorf("mindtorch %s: %q", n, e.Skip)
		}
		// The framework plugin learns the dialect from the plan request.
		if r := entry(t, d, n).PlanRequest("msprobe"); r == nil || r.Dialect != "mindtorch" || r.Compat != "msprobe" {
			t.Errorf("mindtorch %s plan request: %+v", n, r)
		}
	}
	if e := entry(t, d, "NPU.npu_x.0"); !e.Silent || !strings.Contains(e.Skip, "MindTorch") {
		t.Errorf("mindtorch NPU: %q", e.Skip)
	}
}

func TestDataDir(t *testing.T) {
	tmp := t.TempDir()
	real := filepath.Join(tmp, "step0", "rank")
	if err := os.MkdirAll(filepath.Join(real, "dump_tensor_data"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(real, "dump.json"), `{"task": "tensor", "dump_data_dir": "/somewhere/else/dump_tensor_data", "data": {}}`)
	// A symlinked dump.json resolves to its real directory.
	link := filepath.Join(tmp, "link.json")
	if err := os.Symlink(filepath.Join(real, "dump.json"), link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(real, "dump.json"), link} {
		d, err := Load(p, PyTorch)
		if err != nil {
			t.Fatal(err)
		}
		if d.DataDir != filepath.Join(real, "dump_tensor_data") || d.Task != TaskTensor {
			t.Errorf("%s: DataDir %q task %q", p, d.DataDir, d.Task)
		}
	}
	// Falsy dump_data_dir: no root.
	for _, v := range []string{`null`, `""`, `false`, `0`} {
		d, err := Parse([]byte(`{"dump_data_dir": `+v+`, "data": {}}`), filepath.Join(real, "dump.json"), PyTorch)
		if err != nil || d.DataDir != "" || d.Task != TaskStatistics {
			t.Errorf("dump_data_dir %s: %v %q %q", v, err, d.DataDir, d.Task)
		}
	}
	// MindSpore: the recorded directory when it exists...
	other := filepath.Join(tmp, "npy")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	ms := func(dir string) string {
		d, err := Parse([]byte(fmt.Sprintf(`{"task": "tensor", "dump_data_dir": %q, "data": {}}`, dir)), filepath.Join(real, "dump.json"), MindSpore)
		if err != nil {
			t.Fatal(err)
		}
		return d.DataDir
	}
	if got := ms(other); got != other {
		t.Errorf("existing recorded dir: %q", got)
	}
	// ...else the moved dump's own dump_tensor_data.
	if got := ms("/gone/dump_tensor_data"); got != filepath.Join(real, "dump_tensor_data") {
		t.Errorf("moved dump: %q", got)
	}
	// Relative directories are relative to the working directory.
	cwd, _ := os.Getwd()
	if got := ms("."); got != cwd {
		t.Errorf("relative dir: %q", got)
	}
	// ...which a warning says, since the dump's own directory is the more
	// likely guess of a user.
	for dir, warn := range map[string]bool{"": true, ".": true, other: false} {
		d, err := Parse([]byte(fmt.Sprintf(`{"task": "tensor", "dump_data_dir": %q, "data": {}}`, dir)), filepath.Join(real, "dump.json"), MindSpore)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(d.Warnings, "\n"), "is relative: the tensor files are read from "+cwd)
		if got != warn {
			t.Errorf("dump_data_dir %q: warnings %q", dir, d.Warnings)
		}
	}
	d, err := Parse([]byte(`{"task": "statistics", "dump_data_dir": "/x", "data": {}}`), filepath.Join(real, "dump.json"), MindSpore)
	if err != nil || d.DataDir != "" {
		t.Errorf("statistics mode: %v %q", err, d.DataDir)
	}
}

func TestPyFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{{1, "1.0"}, {0.1, "0.1"}, {1e-05, "1e-05"}, {0.0001, "0.0001"}, {1e16, "1e+16"}, {123456789.5, "123456789.5"},
		{1.5e300, "1.5e+300"}, {-2.5, "-2.5"}, {math.NaN(), "nan"}, {math.Inf(-1), "-inf"}, {9999999999999998, "9999999999999998.0"}} {
		if got := FormatPyFloat(c.f); got != c.want {
			t.Errorf("FormatPyFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

// Issue 9, finding 7: a name that is both formula-like and malformed was
// dropped with no row and no warning; docs/compat.md row 4 promises one.
func TestUnsafeMalformedNameWarns(t *testing.T) {
	const name = `=cmd|' /C calc'!A0.0`
	js := `{"task": "statistics", "data": {"` + name + `.forward": {"input_args": [], "input_kwargs": {}, "output": []}}}`
	d, err := Parse([]byte(js), "evil.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entries) != 1 || !d.Entries[0].Silent || !strings.Contains(d.Entries[0].Skip, "formula") {
		t.Fatalf("entries %+v: want one silent entry skipped as a formula", d.Entries)
	}
	for _, w := range d.Warnings {
		if strings.Contains(w, fmt.Sprintf("%q", name)) && strings.Contains(w, "formula") {
			return
		}
	}
	t.Errorf("no warning names %q: %q", name, d.Warnings)
}

// Issue 9, finding 6: a string of invalid UTF-8 reached gRPC, whose marshal
// error was taken for a plugin crash (3 s an API), and its raw bytes and
// gRPC's message reached the CSV. Bad bytes now read as U+FFFD, with a
// warning naming where.
func TestInvalidUTF8Replaced(t *testing.T) {
	js := "{\"task\": \"statistics\", \"data\": {\"Functional.gelu.0.forward\": {\"input_args\": [{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2], \"Max\": 1, \"Min\": 0}],\n" +
		" \"input_kwargs\": {\"approximate\": {\"type\": \"str\", \"value\": \"ta\xffnh\"}}, \"output\": []}}}"
	d, err := Parse([]byte(js), "bad.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "1 string(s) are not valid UTF-8, the first at 2:") {
		t.Errorf("warnings %q", d.Warnings)
	}
	kw := d.Entries[0].Forward.Kwargs
	if len(kw) != 1 || kw[0].Arg.Str != "ta\uFFFDnh" {
		t.Errorf("kwargs %+v, want approximate = \"ta\\uFFFDnh\"", kw)
	}
}
