package cpu

// Golden tests: cases computed by real PyTorch (1.13, CPU) and checked in
// under testdata/golden, one gzip-compressed JSON file per op group. The
// generators are testdata/gen_golden.py (elementwise, reduction, shape ops)
// and testdata/gen_golden_nn.py (nn ops); both use testdata/golden_lib.py,
// whose header documents the format in full. In short, a file is
//
//	{"group": "...", "torch": "1.13...", "cases": [case, ...]}
//
// and a case is
//
//	{"name", "op", "mode": "bench"|"emulated" (default bench),
//	 "attrs": {name: {"kind": "int|float|bool|string|ints|floats|none", "value": ...}},
//	 "inputs": [{"kind": "tensor", "dtype", "shape", "data"} |
//	            {"kind": "scalar", "scalar_kind": "float|int|bool", "value"} | {"kind": "none"}],
//	 "requires_grad": [bool per input], "seed": optional,
//	 "grad_outputs": [tensor|null per output]   (present iff backward runs),
//	 "outputs": [tensor], "input_grads": [tensor|null per input],
//	 "error": "torch's message"                 (instead of outputs),
//	 "rtol", "atol", "ulp": optional tolerances}
//
// NaN and infinities are the strings "nan", "inf", "-inf"; bools are 0/1.
//
// Every case runs through Execute on a device of the case's mode. Outputs
// and input gradients must have exactly the expected dtype and shape;
// integer and bool values must be equal; float64 values must agree within
// 1e-12 relative plus 1e-12 absolute; values of narrower float dtypes
// within 2 units in the last place of their dtype (or the case's ulp).

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

type goldenFile struct {
	Group string       `json:"group"`
	Torch string       `json:"torch"`
	Cases []goldenCase `json:"cases"`
}

type goldenCase struct {
	Name         string                `json:"name"`
	Op           string                `json:"op"`
	Mode         string                `json:"mode"`
	Attrs        map[string]goldenAttr `json:"attrs"`
	Inputs       []goldenValue         `json:"inputs"`
	RequiresGrad []bool                `json:"requires_grad"`
	Seed         uint64                `json:"seed"`
	GradOutputs  *[]*goldenTensor      `json:"grad_outputs"`
	Outputs      []goldenTensor        `json:"outputs"`
	InputGrads   []*goldenTensor       `json:"input_grads"`
	Error        *string               `json:"error"`
	RTol         *float64              `json:"rtol"`
	ATol         *float64              `json:"atol"`
	ULP          *float64              `json:"ulp"`
}

type goldenAttr struct {
	Kind  string `json:"kind"`
	Value any    `json:"value"`
}

type goldenTensor struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []any  `json:"data"`
}

type goldenValue struct {
	Kind       string `json:"kind"`
	ScalarKind string `json:"scalar_kind"`
	Value      any    `json:"value"`
	goldenTensor
}

// loadGolden reads every *.json and *.json.gz file of testdata/golden.
func loadGolden(t *testing.T) []goldenFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var files []goldenFile
	for _, p := range paths {
		if !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".json.gz") {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = f
		if strings.HasSuffix(p, ".gz") {
			gz, err := gzip.NewReader(f)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			r = gz
		}
		dec := json.NewDecoder(r)
		dec.UseNumber()
		var gf goldenFile
		if err := dec.Decode(&gf); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f.Close()
		if gf.Group == "" {
			gf.Group = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(p), ".gz"), ".json")
		}
		files = append(files, gf)
	}
	if len(files) == 0 {
		t.Fatal("no golden files in testdata/golden")
	}
	return files
}

func jsonFloat(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case string:
		switch x {
		case "nan":
			return math.NaN(), nil
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		}
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("not a number: %#v", v)
}

func jsonInt(v any) (int64, error) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		f, err := x.Float64()
		return int64(f), err
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("not an integer: %#v", v)
}

func (g *goldenTensor) tensor() (*tensor.Tensor, error) {
	dt, err := tensor.Parse(g.DType)
	if err != nil {
		return nil, err
	}
	shape := append([]int{}, g.Shape...)
	if tensor.NumElements(shape) != len(g.Data) {
		return nil, fmt.Errorf("%d values for shape %v", len(g.Data), shape)
	}
	if dt.IsFloat() {
		vals := make([]float64, len(g.Data))
		for i, v := range g.Data {
			if vals[i], err = jsonFloat(v); err != nil {
				return nil, err
			}
		}
		return tensor.FromFloat64s(dt, shape, vals), nil
	}
	vals := make([]int64, len(g.Data))
	for i, v := range g.Data {
		if vals[i], err = jsonInt(v); err != nil {
			return nil, err
		}
	}
	return tensor.FromInt64s(dt, shape, vals), nil
}

func (a goldenAttr) attr() (ops.Attr, error) {
	switch a.Kind {
	case "none":
		return ops.NoneAttr(), nil
	case "int":
		i, err := jsonInt(a.Value)
		return ops.IntAttr(i), err
	case "float":
		f, err := jsonFloat(a.Value)
		return ops.FloatAttr(f), err
	case "bool":
		b, ok := a.Value.(bool)
		if !ok {
			return ops.Attr{}, fmt.Errorf("bool attribute %#v", a.Value)
		}
		return ops.BoolAttr(b), nil
	case "string":
		s, ok := a.Value.(string)
		if !ok {
			return ops.Attr{}, fmt.Errorf("string attribute %#v", a.Value)
		}
		return ops.StringAttr(s), nil
	case "ints", "floats":
		list, ok := a.Value.([]any)
		if !ok {
			return ops.Attr{}, fmt.Errorf("list attribute %#v", a.Value)
		}
		if a.Kind == "ints" {
			v := make([]int64, len(list))
			for i, x := range list {
				var err error
				if v[i], err = jsonInt(x); err != nil {
					return ops.Attr{}, err
				}
			}
			return ops.IntsAttr(v...), nil
		}
		v := make([]float64, len(list))
		for i, x := range list {
			var err error
			if v[i], err = jsonFloat(x); err != nil {
				return ops.Attr{}, err
			}
		}
		return ops.FloatsAttr(v...), nil
	}
	return ops.Attr{}, fmt.Errorf("unknown attribute kind %q", a.Kind)
}

func (v goldenValue) value() (ops.Value, error) {
	switch v.Kind {
	case "none":
		return ops.None, nil
	case "tensor":
		t, err := v.goldenTensor.tensor()
		return ops.T(t), err
	case "scalar":
		switch v.ScalarKind {
		case "int":
			i, err := jsonInt(v.Value)
			return ops.I(i), err
		case "bool":
			f, err := jsonFloat(v.Value)
			return ops.B(f != 0), err
		default:
			f, err := jsonFloat(v.Value)
			return ops.F(f), err
		}
	}
	return ops.Value{}, fmt.Errorf("unknown input kind %q", v.Kind)
}

// request builds the ExecRequest of a golden case.
func (gc *goldenCase) request() (*device.ExecRequest, error) {
	req := &device.ExecRequest{API: gc.Name, Op: gc.Op, Attrs: ops.Attrs{}, RequiresGrad: gc.RequiresGrad, Seed: gc.Seed}
	for name, a := range gc.Attrs {
		at, err := a.attr()
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %v", name, err)
		}
		req.Attrs[name] = at
	}
	for i, v := range gc.Inputs {
		val, err := v.value()
		if err != nil {
			return nil, fmt.Errorf("input %d: %v", i, err)
		}
		req.Inputs = append(req.Inputs, val)
	}
	if gc.GradOutputs != nil {
		req.Backward = true
		for i, g := range *gc.GradOutputs {
			if g == nil {
				req.GradOutputs = append(req.GradOutputs, nil)
				continue
			}
			t, err := g.tensor()
			if err != nil {
				return nil, fmt.Errorf("grad_outputs %d: %v", i, err)
			}
			req.GradOutputs = append(req.GradOutputs, t)
		}
	}
	return req, nil
}

// tolerance is the allowed |got-want| for one expected value.
type tolerance struct {
	rtol, atol, ulps float64
}

func (gc *goldenCase) tolerance(dt tensor.DType) tolerance {
	tol := tolerance{rtol: 1e-12, atol: 1e-12}
	if dt != tensor.Float64 {
		tol = tolerance{ulps: 2}
	}
	if gc.RTol != nil {
		tol.rtol = *gc.RTol
	}
	if gc.ATol != nil {
		tol.atol = *gc.ATol
	}
	if gc.ULP != nil {
		tol.ulps = *gc.ULP
	}
	return tol
}

// compareTensor reports the first difference between got and want.
func compareTensor(got, want *tensor.Tensor, tol tolerance) error {
	if got == nil {
		return fmt.Errorf("got nil, want %s%v", want.DType, want.Shape)
	}
	if got.DType != want.DType {
		return fmt.Errorf("dtype %s, want %s", got.DType, want.DType)
	}
	if !sameShape(got.Shape, want.Shape) {
		return fmt.Errorf("shape %v, want %v", got.Shape, want.Shape)
	}
	if !want.DType.IsFloat() {
		g, w := got.Int64s(), want.Int64s()
		for i := range w {
			if g[i] != w[i] {
				return fmt.Errorf("element %d = %d, want %d", i, g[i], w[i])
			}
		}
		return nil
	}
	g, w := got.Float64s(), want.Float64s()
	for i := range w {
		if err := compareFloat(g[i], w[i], want.DType, tol); err != nil {
			return fmt.Errorf("element %d: %v", i, err)
		}
	}
	return nil
}

func compareFloat(g, w float64, dt tensor.DType, tol tolerance) error {
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		if math.IsNaN(w) && math.IsNaN(g) {
			return nil
		}
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		if g == w {
			return nil
		}
	default:
		allowed := tol.atol + tol.rtol*math.Abs(w) + tol.ulps*ulp(dt, w)
		if math.Abs(g-w) <= allowed {
			return nil
		}
	}
	return fmt.Errorf("got %.17g, want %.17g", g, w)
}

func allZero(t *tensor.Tensor) bool {
	for _, v := range t.Float64s() {
		if v != 0 {
			return false
		}
	}
	return true
}

// runGolden runs one case and reports every mismatch.
func runGolden(t *testing.T, gc *goldenCase) {
	t.Helper()
	req, err := gc.request()
	if err != nil {
		t.Fatalf("bad case: %v", err)
	}
	mode := Bench
	if gc.Mode != "" {
		if mode, err = ParseMode(gc.Mode); err != nil {
			t.Fatal(err)
		}
	}
	res, err := New(Options{Mode: mode}).Execute(context.Background(), req)
	if gc.Error != nil {
		if err == nil {
			t.Fatalf("no error; torch raised %q", *gc.Error)
		}
		// The elementwise/reduction/shape kernels reproduce PyTorch's
		// messages, except where noted in errorMessageDeviations.
		if _, mine := goldenOps[gc.Op]; mine && !errorMessageDeviations[gc.Name] && !strings.Contains(err.Error(), *gc.Error) {
			t.Errorf("error %q does not contain torch's %q", err, *gc.Error)
		}
		return
	}
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if len(res.Outputs) != len(gc.Outputs) {
		t.Fatalf("%d outputs, want %d", len(res.Outputs), len(gc.Outputs))
	}
	for i := range gc.Outputs {
		want, err := gc.Outputs[i].tensor()
		if err != nil {
			t.Fatalf("bad expected output %d: %v", i, err)
		}
		if err := compareTensor(res.Outputs[i], want, gc.tolerance(want.DType)); err != nil {
			t.Errorf("output %d: %v", i, err)
		}
	}
	if !req.Backward {
		return
	}
	if len(res.InputGrads) != len(gc.Inputs) {
		t.Fatalf("%d input gradients, want %d", len(res.InputGrads), len(gc.Inputs))
	}
	for i, wg := range gc.InputGrads {
		got := res.InputGrads[i]
		if wg == nil {
			if got != nil && !allZero(got) {
				t.Errorf("input grad %d: got non-zero gradient, torch gives none", i)
			}
			continue
		}
		want, err := wg.tensor()
		if err != nil {
			t.Fatalf("bad expected grad %d: %v", i, err)
		}
		if err := compareTensor(got, want, gc.tolerance(want.DType)); err != nil {
			t.Errorf("input grad %d: %v", i, err)
		}
	}
}

func TestGolden(t *testing.T) {
	for _, gf := range loadGolden(t) {
		t.Run(gf.Group, func(t *testing.T) {
			for i := range gf.Cases {
				gc := &gf.Cases[i]
				t.Run(gc.Name, func(t *testing.T) { runGolden(t, gc) })
			}
		})
	}
}

// goldenOps are the kernels of this file's package part (elementwise,
// reduction and shape ops) that must each have golden cases, forward and,
// where differentiable, backward.
var goldenOps = map[string]bool{ // op -> differentiable
	"add": true, "sub": true, "mul": true, "div": true, "pow": true, "maximum": true, "minimum": true,
	"neg": true, "abs": true, "exp": true, "log": true, "sqrt": true, "rsqrt": true, "reciprocal": true,
	"tanh": true, "sigmoid": true, "relu": true, "gelu": true, "silu": true, "sin": true, "cos": true,
	"clamp": true, "sum": true, "mean": true, "max": true, "min": true, "max_dim": true, "min_dim": true,
	"cumsum": true, "cat": true, "stack": true, "split_with_sizes": true, "transpose": true, "permute": true,
	"reshape": true, "masked_fill": true, "where": true, "clone": true, "ones_like": false, "echo": false,
}

// errorMessageDeviations are error cases whose message differs from
// PyTorch's on purpose: pow_ and clamp_ word the refused in-place cast
// differently in PyTorch ("Found dtype Long but expected Float", lower-case
// "int"); probe uses the one message of every other in-place op.
var errorMessageDeviations = map[string]bool{
	"pow/inplace_int_float":   true,
	"clamp/inplace_int_float": true,
}

func TestGoldenCoverage(t *testing.T) {
	fwd, bwd, emu, errs := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	for _, gf := range loadGolden(t) {
		for _, gc := range gf.Cases {
			switch {
			case gc.Error != nil:
				errs[gc.Op]++
			case gc.Mode == "emulated":
				emu[gc.Op]++
			default:
				fwd[gc.Op]++
				if gc.GradOutputs != nil {
					bwd[gc.Op]++
				}
			}
		}
	}
	for op, diff := range goldenOps {
		if fwd[op] == 0 {
			t.Errorf("op %s has no bench golden case", op)
		}
		if diff && bwd[op] == 0 {
			t.Errorf("op %s has no backward golden case", op)
		}
	}
	for op := range kernels {
		if fwd[op] == 0 {
			t.Logf("note: registered op %s has no golden case", op)
		}
	}
	if len(emu) < 5 {
		t.Errorf("only %d ops have emulated-mode golden cases", len(emu))
	}
	t.Logf("golden: %d ops forward, %d backward, %d emulated, %d with error cases", len(fwd), len(bwd), len(emu), len(errs))
}
