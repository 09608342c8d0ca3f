package run

import (
	"context"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/dump"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// pytorch-precheck §11.6 black/white vectors (api, black, white), and the
// fixed list of always-unsupported APIs (§3.5).
func TestListed(t *testing.T) {
	cases := []struct {
		api          string
		black, white []string
		want         bool
	}{
		{"test_api", []string{"test_api"}, nil, true},
		{"test_api", nil, []string{"another_api"}, true},
		{"test_api", []string{"test_api"}, []string{"test_api"}, true},
		{"test_api", nil, []string{"test_api"}, false},
		{"test_api", nil, nil, false},
		{"to", nil, nil, true},
		{"empty_with_format", nil, []string{"empty_with_format"}, true},
		{"new_empty_strided", nil, nil, true},
	}
	for _, c := range cases {
		if got := listed(c.api, c.black, c.white); got != c.want {
			t.Errorf("listed(%s, black %v, white %v) = %v, want %v", c.api, c.black, c.white, got, c.want)
		}
	}
}

// A black-listed API is a SKIP row with msprobe's message, before any
// plugin is asked.
func TestCheckBlackListed(t *testing.T) {
	w := &worker{o: &Options{Flavor: report.PyTorch, BlackList: []string{"gelu"}}}
	e := &dump.Entry{Name: "Functional.gelu.0", API: "gelu", Forward: &dump.Call{}}
	a := w.check(context.Background(), e)
	const msg = "API gelu in black list or not in white list. SKIP."
	if a.Forward != standard.Skip || a.Backward != standard.Skip || a.Message != msg {
		t.Fatalf("got %+v", a)
	}
	if len(a.Details) != 1 || a.Details[0].Name != "Functional.gelu.0.forward.output.0" || a.Details[0].Message != msg {
		t.Errorf("details %+v", a.Details)
	}
	w.o.BlackList, w.o.WhiteList = nil, []string{"relu"}
	if a := w.check(context.Background(), e); a.Message != msg {
		t.Errorf("not in the white list: %+v", a)
	}
}

func parseEntries(t *testing.T, data string) []*dump.Entry {
	t.Helper()
	d, err := dump.Parse([]byte(data), "dump.json", dump.PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	return d.Entries
}

func names(es []*dump.Entry) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Name)
	}
	return strings.Join(s, " ")
}

// §11.6: filter_api on {torch.add_1: args [{value 1}], torch.add_2: the
// same, torch.sub: args [{value 2}]} keeps 2 entries, under both rules.
func TestDedupVector(t *testing.T) {
	es := parseEntries(t, `{"task": "statistics", "data": {
		"torch.add_1.forward": {"input_args": [{"type": "int", "value": 1}], "input_kwargs": {}},
		"torch.add_2.forward": {"input_args": [{"type": "int", "value": 1}], "input_kwargs": {}},
		"torch.sub.forward": {"input_args": [{"type": "int", "value": 2}], "input_kwargs": {}}}}`)
	for _, compat := range []bool{false, true} {
		kept, dropped := dedup(es, compat)
		if len(kept) != 2 || dropped != 1 || kept[0].Name != es[0].Name || kept[1].Name != es[2].Name {
			t.Errorf("compat=%v: kept %s, dropped %d", compat, names(kept), dropped)
		}
	}
}

// probe's signature (§12 #15 fix) and msprobe's (§3.6) on the cases where
// they differ.
func TestDedupRules(t *testing.T) {
	tensor := func(extra string) string {
		return `{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2], "requires_grad": true` + extra + `}`
	}
	call := func(args, kwargs string) string {
		return `{"input_args": [` + args + `], "input_kwargs": {` + kwargs + `}, "output": []}`
	}
	cases := []struct {
		name        string
		a, b        string
		dup, compat bool // duplicates under probe's rule / msprobe's
	}{
		{"identical", call(tensor(`, "Max": 1, "Min": 0`), ""), call(tensor(`, "Max": 1, "Min": 0`), ""), true, true},
		{"Max/Min differ", call(tensor(`, "Max": 1, "Min": 0`), ""), call(tensor(`, "Max": 2, "Min": -1`), ""), true, true},
		{"Mean/Norm differ", call(tensor(`, "Mean": 0.5, "Norm": 1`), ""), call(tensor(`, "Mean": 0.25, "Norm": 2`), ""), true, false},
		{"md5 and data_name differ", call(tensor(`, "md5": "aa", "data_name": "x.0.pt"`), ""), call(tensor(`, "md5": "bb", "data_name": "x.1.pt"`), ""), true, false},
		{"shape differs", call(tensor(""), ""), call(strings.Replace(tensor(""), "[2]", "[3]", 1), ""), false, false},
		{"dtype differs", call(tensor(""), ""), call(strings.Replace(tensor(""), "float16", "float32", 1), ""), false, false},
		{"list contents differ", call("["+tensor("")+"]", ""), call("["+strings.Replace(tensor(""), "[2]", "[3]", 1)+"]", ""), false, true},
		{"list lengths differ", call("["+tensor("")+"]", ""), call("["+tensor("")+", "+tensor("")+"]", ""), false, true},
		{"kwarg Max differs", call("", `"w": `+tensor(`, "Max": 1`)), call("", `"w": `+tensor(`, "Max": 2`)), true, false},
		{"kwarg value differs", call("", `"dim": {"type": "int", "value": 1}`), call("", `"dim": {"type": "int", "value": 2}`), false, false},
		{"key order, 1 == 1.0", call(`{"type": "float", "value": 1}`, ""), call(`{"value": 1.0, "type": "float"}`, ""), true, true},
		{"null vs list arg", call(`null`, ""), call(`[{"type": "int", "value": 1}]`, ""), false, true},
		{"null vs int arg", call(`null`, ""), call(`{"type": "int", "value": 1}`, ""), false, false},
	}
	for _, c := range cases {
		es := parseEntries(t, `{"task": "statistics", "data": {"Torch.foo.0.forward": `+c.a+`, "Torch.foo.1.forward": `+c.b+`}}`)
		for _, compat := range []bool{false, true} {
			want := c.dup
			if compat {
				want = c.compat
			}
			kept, _ := dedup(es, compat)
			if got := len(kept) == 1; got != want {
				t.Errorf("%s, compat=%v: duplicate = %v, want %v", c.name, compat, got, want)
			}
		}
	}
	// Calls of different APIs, or an unparsed body, are never duplicates.
	es := parseEntries(t, `{"task": "statistics", "data": {
		"Torch.foo.0.forward": `+call("", "")+`, "Torch.bar.0.forward": `+call("", "")+`,
		"Torch.foo.1.forward": "broken", "Torch.foo.2.forward": "broken", "Module.m.M.forward.0": {}}}`)
	if kept, n := dedup(es, false); n != 0 || len(kept) != len(es) {
		t.Errorf("kept %s, dropped %d", names(kept), n)
	}
}

func ceCall(targetDType tensor.DType, min float64) *dump.Call {
	c := &dump.Call{Tensors: map[string]*dump.TensorDesc{}}
	x := &dump.TensorDesc{Path: "args.0", DType: tensor.Float32, DTypeName: "torch.float32", Shape: []int{2, 3}, Min: -1, Max: 1, HasMin: true, HasMax: true}
	y := &dump.TensorDesc{Path: "args.1", DType: targetDType, DTypeName: targetDType.TorchName(), Shape: []int{2}, Min: min, Max: 1, HasMin: true, HasMax: true, MinRepr: "orig"}
	for _, d := range []*dump.TensorDesc{x, y} {
		c.Tensors[d.Path] = d
		c.Args = append(c.Args, framework.Arg{Kind: framework.ArgTensor, Path: d.Path, DType: d.DType, DTypeName: d.DTypeName, Shape: d.Shape})
	}
	return c
}

// §11.6: the cross_entropy target's Min −1 becomes 0, Min 1 is unchanged;
// cross_entropy converts int32 to int64, linear converts nothing; the
// parsed call is never modified.
func TestConvertCrossEntropy(t *testing.T) {
	orig := ceCall(tensor.Int64, -1)
	got := convertCall("cross_entropy", orig)
	if d := got.Tensors["args.1"]; d.Min != 0 || !d.HasMin || d.MinRepr != "0" {
		t.Errorf("Min -1: got %+v", d)
	}
	if d := orig.Tensors["args.1"]; d.Min != -1 || d.MinRepr != "orig" {
		t.Errorf("the parsed descriptor was modified: %+v", d)
	}
	one := ceCall(tensor.Int64, 1)
	if got := convertCall("cross_entropy", one); got != one || got.Tensors["args.1"].Min != 1 {
		t.Errorf("Min 1: got %+v", got.Tensors["args.1"])
	}

	// int32_to_int64 for cross_entropy; linear has no conversion.
	i32 := ceCall(tensor.Int32, 0)
	got = convertCall("cross_entropy", i32)
	if d := got.Tensors["args.1"]; d.DType != tensor.Int64 || d.DTypeName != "torch.int64" || got.Args[1].DType != tensor.Int64 {
		t.Errorf("int32 target: %+v / %+v", d, got.Args[1])
	}
	if i32.Tensors["args.1"].DType != tensor.Int32 || i32.Args[1].DType != tensor.Int32 {
		t.Error("the parsed call was modified")
	}
	if got.Tensors["args.0"] != i32.Tensors["args.0"] {
		t.Error("an unconverted descriptor was copied")
	}
	if got := convertCall("linear", i32); got != i32 {
		t.Error("linear: the call was converted")
	}

	// §11.6: int32 [0..1] with int32_to_int64 is generated as int64.
	d := &dump.Dump{Task: dump.TaskStatistics}
	w := &worker{o: &Options{Dump: d, Flavor: report.PyTorch, Seed: 1}}
	e := &dump.Entry{Name: "Functional.cross_entropy.0", API: "cross_entropy"}
	x, err := w.tensorFor(e, got.Tensors, "args.1", map[string]*tensor.Tensor{})
	if err != nil {
		t.Fatal(err)
	}
	if x.DType != tensor.Int64 {
		t.Errorf("generated %v", x.DType)
	}
	for _, v := range x.Float64s() {
		if v < 0 || v > 1 {
			t.Errorf("value %v outside [0, 1]", v)
		}
	}
}

// histc: int64 tensors become float32 (int64_to_fp32), and an int8/int32
// first positional argument becomes float32.
func TestConvertHistc(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Int8, tensor.Int32, tensor.Int64} {
		c := ceCall(dt, 0) // args.0 float32, args.1 dt
		c.Args[0], c.Args[1] = c.Args[1], c.Args[0]
		got := convertCall("histc", c)
		if got.Tensors["args.1"].DType != tensor.Float32 || got.Args[0].DType != tensor.Float32 || got.Args[0].DTypeName != "torch.float32" {
			t.Errorf("histc %v input: %+v", dt, got.Args[0])
		}
		if c.Tensors["args.1"].DType != dt {
			t.Error("the parsed call was modified")
		}
	}
	// A second int64 input (here in a kwarg list) is converted too; int32
	// elsewhere is not.
	c := ceCall(tensor.Float32, 0)
	c.Tensors["kwargs.l.0"] = &dump.TensorDesc{Path: "kwargs.l.0", DType: tensor.Int64}
	c.Tensors["kwargs.l.1"] = &dump.TensorDesc{Path: "kwargs.l.1", DType: tensor.Int32}
	c.Kwargs = []framework.NamedArg{{Name: "l", Arg: framework.Arg{Kind: framework.ArgList, Path: "kwargs.l", Elems: []framework.Arg{
		{Kind: framework.ArgTensor, Path: "kwargs.l.0", DType: tensor.Int64}, {Kind: framework.ArgTensor, Path: "kwargs.l.1", DType: tensor.Int32}}}}}
	got := convertCall("histc", c)
	if got.Tensors["kwargs.l.0"].DType != tensor.Float32 || got.Kwargs[0].Arg.Elems[0].DType != tensor.Float32 || got.Kwargs[0].Arg.Elems[1].DType != tensor.Int32 {
		t.Errorf("kwargs: %+v", got.Kwargs)
	}
	if c.Kwargs[0].Arg.Elems[0].DType != tensor.Int64 {
		t.Error("the parsed kwargs were modified")
	}
}
