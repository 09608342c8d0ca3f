package devicetest

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The corpus: one gzip-compressed JSON file per op group, written by the
// generators in testdata/ (see doc.go and testdata/golden_lib.py).
//
//go:embed testdata/golden/*.json.gz
var corpusFS embed.FS

const corpusDir = "testdata/golden"

// Case is one golden case, decoded.
type Case struct {
	// Group is the corpus file the case comes from ("unary", "nn_conv",
	// "dtypes", ...), Name its name, unique within the corpus, Op its
	// canonical op.
	Group, Name, Op string
	// Mode is "bench" or "emulated" as recorded in the corpus: which mode of
	// the CPU plugin the case was written for. bench cases compute in
	// float64 (or at a natural integer or narrow dtype), emulated cases are
	// PyTorch's CPU kernels at float32, float16 or bfloat16. Check runs
	// every case on every device whatever its mode; a device may tighten
	// its tolerance by mode (see Options.Tolerance).
	Mode string
	// DType is the call's dtype, device.CallDType(Request.Inputs): the
	// dtype that Info.Ops is matched against. A call without tensor inputs
	// (a factory op such as arange) has its dtype attribute's.
	DType tensor.DType
	// Request is the call. API holds the case name, Backward and
	// GradOutputs are set for a case with a backward.
	Request *device.ExecRequest
	// Outputs and InputGrads are PyTorch's results. InputGrads has one entry
	// per input for a backward case (nil entries: no gradient), none
	// otherwise.
	Outputs, InputGrads []*tensor.Tensor
	// Error, when not empty, is PyTorch's message: torch rejected the call,
	// and the device must return an error (of kind InvalidArgument).
	Error string
	// RTol, ATol and ULP are the case's own tolerance fields, when present.
	RTol, ATol, ULP *float64
}

// corpus is decoded once; Cases hands out copies.
var corpus struct {
	once  sync.Once
	cases []*Case
	err   error
}

func loadCorpus() ([]*Case, error) {
	corpus.once.Do(func() { corpus.cases, corpus.err = decodeCorpus(corpusFS, corpusDir) })
	return corpus.cases, corpus.err
}

// Cases returns every case of the embedded corpus, in a stable order: by
// group (file name), then in the order of the file. The cases are the
// caller's to change.
func Cases() ([]*Case, error) {
	cs, err := loadCorpus()
	if err != nil {
		return nil, err
	}
	out := make([]*Case, len(cs))
	for i, c := range cs {
		out[i] = c.clone()
	}
	return out, nil
}

// decodeCorpus reads every *.json.gz file of dir in fsys.
func decodeCorpus(fsys fs.FS, dir string) ([]*Case, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("devicetest: corpus: %v", err)
	}
	var cases []*Case
	names := map[string]string{}
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json.gz") {
			continue
		}
		p := path.Join(dir, e.Name())
		raw, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("devicetest: corpus: %v", err)
		}
		cs, err := decodeFile(raw, strings.TrimSuffix(e.Name(), ".json.gz"))
		if err != nil {
			return nil, fmt.Errorf("devicetest: corpus file %s: %v", e.Name(), err)
		}
		for _, c := range cs {
			if g, dup := names[c.Name]; dup {
				return nil, fmt.Errorf("devicetest: corpus: case %s is in groups %s and %s", c.Name, g, c.Group)
			}
			names[c.Name] = c.Group
		}
		cases = append(cases, cs...)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("devicetest: corpus: no cases in %s", dir)
	}
	return cases, nil
}

// The JSON form, as golden_lib.py writes it.

type jsonFile struct {
	Group string     `json:"group"`
	Torch string     `json:"torch"`
	Cases []jsonCase `json:"cases"`
}

type jsonCase struct {
	Name         string              `json:"name"`
	Op           string              `json:"op"`
	Mode         string              `json:"mode"`
	Attrs        map[string]jsonAttr `json:"attrs"`
	Inputs       []jsonValue         `json:"inputs"`
	RequiresGrad []bool              `json:"requires_grad"`
	Seed         uint64              `json:"seed"`
	GradOutputs  *[]*jsonTensor      `json:"grad_outputs"`
	Outputs      []jsonTensor        `json:"outputs"`
	InputGrads   []*jsonTensor       `json:"input_grads"`
	Error        *string             `json:"error"`
	RTol         *float64            `json:"rtol"`
	ATol         *float64            `json:"atol"`
	ULP          *float64            `json:"ulp"`
}

type jsonAttr struct {
	Kind  string `json:"kind"`
	Value any    `json:"value"`
}

type jsonTensor struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []any  `json:"data"`
}

type jsonValue struct {
	Kind       string `json:"kind"`
	ScalarKind string `json:"scalar_kind"`
	Value      any    `json:"value"`
	jsonTensor
}

func decodeFile(raw []byte, defaultGroup string) ([]*Case, error) {
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(gz)
	dec.UseNumber()
	var f jsonFile
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return nil, err
	}
	if f.Group == "" {
		f.Group = defaultGroup
	}
	out := make([]*Case, 0, len(f.Cases))
	for i := range f.Cases {
		c, err := f.Cases[i].decode(f.Group)
		if err != nil {
			return nil, fmt.Errorf("case %d (%s): %v", i, f.Cases[i].Name, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func (jc *jsonCase) decode(group string) (*Case, error) {
	if jc.Name == "" {
		return nil, fmt.Errorf("no name")
	}
	sch, ok := ops.Lookup(jc.Op)
	if !ok {
		return nil, fmt.Errorf("unknown op %q", jc.Op)
	}
	c := &Case{Group: group, Name: jc.Name, Op: jc.Op, Mode: jc.Mode, RTol: jc.RTol, ATol: jc.ATol, ULP: jc.ULP}
	switch c.Mode {
	case "":
		c.Mode = "bench"
	case "bench", "emulated":
	default:
		return nil, fmt.Errorf("unknown mode %q", jc.Mode)
	}
	req := &device.ExecRequest{API: jc.Name, Op: jc.Op, Attrs: ops.Attrs{}, Seed: jc.Seed,
		RequiresGrad: append([]bool(nil), jc.RequiresGrad...)}
	for name, a := range jc.Attrs {
		at, err := a.attr()
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %v", name, err)
		}
		req.Attrs[name] = at
	}
	for i, v := range jc.Inputs {
		val, err := v.value()
		if err != nil {
			return nil, fmt.Errorf("input %d: %v", i, err)
		}
		req.Inputs = append(req.Inputs, val)
	}
	if n := len(req.RequiresGrad); n != 0 && n != len(req.Inputs) {
		return nil, fmt.Errorf("%d requires_grad flags for %d inputs", n, len(req.Inputs))
	}
	if err := sch.CheckArity(len(req.Inputs)); err != nil && jc.Error == nil {
		return nil, err
	}
	c.Request = req
	c.DType = callDType(req)
	if jc.Error != nil {
		if *jc.Error == "" {
			return nil, fmt.Errorf("empty error message")
		}
		c.Error = *jc.Error
		return c, nil
	}
	for i := range jc.Outputs {
		t, err := jc.Outputs[i].tensor()
		if err != nil {
			return nil, fmt.Errorf("output %d: %v", i, err)
		}
		c.Outputs = append(c.Outputs, t)
	}
	if len(c.Outputs) == 0 {
		return nil, fmt.Errorf("no outputs and no error")
	}
	if jc.GradOutputs == nil {
		return c, nil
	}
	req.Backward = true
	if len(*jc.GradOutputs) != len(c.Outputs) {
		return nil, fmt.Errorf("%d grad_outputs for %d outputs", len(*jc.GradOutputs), len(c.Outputs))
	}
	for i, g := range *jc.GradOutputs {
		var t *tensor.Tensor
		if g != nil {
			var err error
			if t, err = g.tensor(); err != nil {
				return nil, fmt.Errorf("grad_outputs %d: %v", i, err)
			}
		}
		req.GradOutputs = append(req.GradOutputs, t)
	}
	if len(jc.InputGrads) != len(req.Inputs) {
		return nil, fmt.Errorf("%d input_grads for %d inputs", len(jc.InputGrads), len(req.Inputs))
	}
	for i, g := range jc.InputGrads {
		var t *tensor.Tensor
		if g != nil {
			var err error
			if t, err = g.tensor(); err != nil {
				return nil, fmt.Errorf("input_grads %d: %v", i, err)
			}
		}
		c.InputGrads = append(c.InputGrads, t)
	}
	return c, nil
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
		if err == nil && f != math.Trunc(f) {
			return 0, fmt.Errorf("not an integer: %v", x)
		}
		return int64(f), err
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("not an integer: %#v", v)
}

func (g *jsonTensor) tensor() (*tensor.Tensor, error) {
	dt, err := tensor.Parse(g.DType)
	if err != nil {
		return nil, err
	}
	shape := append([]int{}, g.Shape...)
	for _, s := range shape {
		if s < 0 {
			return nil, fmt.Errorf("negative dimension in shape %v", shape)
		}
	}
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

func (a jsonAttr) attr() (ops.Attr, error) {
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

func (v jsonValue) value() (ops.Value, error) {
	switch v.Kind {
	case "none":
		return ops.None, nil
	case "tensor":
		t, err := v.jsonTensor.tensor()
		return ops.T(t), err
	case "scalar":
		switch v.ScalarKind {
		case "int":
			i, err := jsonInt(v.Value)
			return ops.I(i), err
		case "bool":
			f, err := jsonFloat(v.Value)
			return ops.B(f != 0), err
		case "float", "":
			f, err := jsonFloat(v.Value)
			return ops.F(f), err
		}
		return ops.Value{}, fmt.Errorf("unknown scalar kind %q", v.ScalarKind)
	}
	return ops.Value{}, fmt.Errorf("unknown input kind %q", v.Kind)
}

// ---- deep copies ----

func cloneTensor(t *tensor.Tensor) *tensor.Tensor {
	if t == nil {
		return nil
	}
	return t.Clone()
}

func cloneTensors(ts []*tensor.Tensor) []*tensor.Tensor {
	if ts == nil {
		return nil
	}
	out := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		out[i] = cloneTensor(t)
	}
	return out
}

func cloneFloat(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneRequest deep-copies a request: devices may overwrite their inputs.
func cloneRequest(r *device.ExecRequest) *device.ExecRequest {
	out := *r
	if r.Attrs != nil {
		out.Attrs = make(ops.Attrs, len(r.Attrs))
		for k, a := range r.Attrs {
			a.Ints, a.Floats = slices.Clone(a.Ints), slices.Clone(a.Floats)
			out.Attrs[k] = a
		}
	}
	if r.Inputs != nil {
		out.Inputs = make([]ops.Value, len(r.Inputs))
		for i, v := range r.Inputs {
			v.Tensor = cloneTensor(v.Tensor)
			out.Inputs[i] = v
		}
	}
	out.RequiresGrad = slices.Clone(r.RequiresGrad)
	out.GradOutputs = cloneTensors(r.GradOutputs)
	return &out
}

func (c *Case) clone() *Case {
	out := *c
	out.Request = cloneRequest(c.Request)
	out.Outputs = cloneTensors(c.Outputs)
	out.InputGrads = cloneTensors(c.InputGrads)
	out.RTol, out.ATol, out.ULP = cloneFloat(c.RTol), cloneFloat(c.ATol), cloneFloat(c.ULP)
	return &out
}

// callDType is device.CallDType of the request's inputs or, for a call
// without tensor inputs (arange), its dtype attribute.
func callDType(req *device.ExecRequest) tensor.DType {
	dt := device.CallDType(req.Inputs)
	if dt == tensor.Invalid && req.Attrs.Has("dtype") && !req.Attrs.IsNone("dtype") {
		if d, err := tensor.Parse(req.Attrs.Str("dtype", "")); err == nil {
			return d
		}
	}
	return dt
}
