package devicetest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func corpusCases(t *testing.T) []*Case {
	t.Helper()
	cs, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestCorpus(t *testing.T) {
	cs := corpusCases(t)
	if len(cs) < 1000 {
		t.Errorf("only %d cases", len(cs))
	}
	groups, names := map[string]int{}, map[string]bool{}
	for _, c := range cs {
		groups[c.Group]++
		if names[c.Name] {
			t.Errorf("duplicate case %s", c.Name)
		}
		names[c.Name] = true
		if c.Request.API != c.Name || c.Request.Op != c.Op {
			t.Errorf("%s: request names %s/%s", c.Name, c.Request.API, c.Request.Op)
		}
		if c.Mode != "bench" && c.Mode != "emulated" {
			t.Errorf("%s: mode %q", c.Name, c.Mode)
		}
		if c.DType != callDType(c.Request) {
			t.Errorf("%s: DType %s", c.Name, c.DType)
		}
		if c.Error != "" {
			if c.Outputs != nil || c.Request.Backward {
				t.Errorf("%s: error case with outputs or a backward", c.Name)
			}
			continue
		}
		if !c.DType.Valid() || len(c.Outputs) == 0 {
			t.Errorf("%s: dtype %s, %d outputs", c.Name, c.DType, len(c.Outputs))
		}
		if c.Request.Backward && (len(c.InputGrads) != len(c.Request.Inputs) || len(c.Request.GradOutputs) != len(c.Outputs)) {
			t.Errorf("%s: %d gradients for %d inputs, %d gradient outputs for %d outputs", c.Name,
				len(c.InputGrads), len(c.Request.Inputs), len(c.Request.GradOutputs), len(c.Outputs))
		}
	}
	for _, g := range []string{"unary", "binary", "select", "reduce", "shape", "emulated", "nn_softmax", "nn_matmul",
		"nn_norm", "nn_conv", "nn_pool", "nn_loss", "nn_misc", "nn_emulated", "nn_attention", "dtypes"} {
		if groups[g] == 0 {
			t.Errorf("group %s has no case", g)
		}
	}
	// Cases hands out copies.
	cs[0].Request.Inputs[0].Tensor.Data[0] ^= 0xff
	cs[0].Name = "changed"
	again := corpusCases(t)
	if again[0].Name == "changed" || again[0].Request.Inputs[0].Tensor.Data[0] == cs[0].Request.Inputs[0].Tensor.Data[0] {
		t.Error("Cases returned shared data")
	}
}

func TestDefaultTolerance(t *testing.T) {
	rtol := 1e-4
	c := &Case{RTol: &rtol}
	for _, tc := range []struct {
		c    *Case
		dt   tensor.DType
		want Tolerance
	}{
		{nil, tensor.Float64, Tolerance{RTol: 1e-7, ATol: 1e-7}},
		{nil, tensor.Float32, Tolerance{RTol: 1.3e-6, ATol: 1e-5}},
		{nil, tensor.Float16, Tolerance{RTol: 1e-3, ATol: 1e-5}},
		{nil, tensor.BFloat16, Tolerance{RTol: 1.6e-2, ATol: 1e-5}},
		{c, tensor.Float32, Tolerance{RTol: 1e-4, ATol: 1e-5}},
		{c, tensor.BFloat16, Tolerance{RTol: 1.6e-2, ATol: 1e-5}},
		{c, tensor.Int64, Tolerance{}},
		{nil, tensor.Bool, Tolerance{}},
	} {
		if got := DefaultTolerance(tc.c, tc.dt); got != tc.want {
			t.Errorf("DefaultTolerance(%v, %s) = %+v, want %+v", tc.c != nil, tc.dt, got, tc.want)
		}
	}
	// One unit in the last place of any normal value passes the defaults.
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16} {
		for _, x := range []float64{1, 1.999, 0.75, 300, 1e-3} {
			x = tensor.Round(dt, x)
			if u := tensor.ULP(dt, x); u > DefaultTolerance(nil, dt).allowed(dt, x) {
				t.Errorf("%s: 1 ulp of %g (%g) is outside the default tolerance", dt, x, u)
			}
		}
	}
	if got := (Tolerance{RTol: math.Inf(1)}).allowed(tensor.Float64, 0); got != 0 {
		t.Errorf("infinite rtol at 0 allows %g", got)
	}
	if got := tensor.ULP(tensor.Float16, 1); got != 0x1p-10 {
		t.Errorf("tensor.ULP(float16, 1) = %g", got)
	}
}

// oracle answers every case with PyTorch's own results: the request's API
// is the case name. Changes, when set, alter its behaviour per case.
type oracle struct {
	cases    map[string]*Case
	info     *device.Info
	describe error
	change   func(c *Case, res *device.ExecResult, err error) (*device.ExecResult, error)
}

func newOracle(t *testing.T) *oracle {
	t.Helper()
	o := &oracle{cases: map[string]*Case{}, info: &device.Info{Name: "oracle"}}
	type pair struct {
		op string
		dt tensor.DType
	}
	seen := map[pair]bool{}
	byOp := map[string]*device.OpSupport{}
	var order []string
	for _, c := range corpusCases(t) {
		o.cases[c.Name] = c
		s := byOp[c.Op]
		if s == nil {
			s = &device.OpSupport{Op: c.Op}
			byOp[c.Op] = s
			order = append(order, c.Op)
		}
		s.Backward = s.Backward || c.Request.Backward
		if !seen[pair{c.Op, c.DType}] {
			seen[pair{c.Op, c.DType}] = true
			s.DTypes = append(s.DTypes, c.DType)
		}
	}
	for _, op := range order {
		o.info.Ops = append(o.info.Ops, *byOp[op])
	}
	return o
}

func (o *oracle) Describe(context.Context) (*device.Info, error) { return o.info, o.describe }
func (o *oracle) Configure(context.Context, device.Config) error { return nil }

func (o *oracle) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	c := o.cases[req.API]
	if c == nil {
		return nil, errors.New("unknown case")
	}
	var res *device.ExecResult
	var err error
	if c.Error != "" {
		err = ops.Errorf("%s", c.Error)
	} else {
		res = &device.ExecResult{Outputs: cloneTensors(c.Outputs)}
		if req.Backward {
			res.InputGrads = cloneTensors(c.InputGrads)
		}
	}
	if o.change != nil {
		return o.change(c, res, err)
	}
	return res, err
}

func mustCheck(t *testing.T, dev device.Device, opts Options) *Report {
	t.Helper()
	rep, err := Check(context.Background(), dev, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// expectFailures checks that exactly the pairs for which fails returns
// true failed, each with a Worst that contains want.
func expectFailures(t *testing.T, rep *Report, fails func(r Result) bool, want string) {
	t.Helper()
	n := 0
	for _, r := range rep.Results {
		switch f := fails(r); {
		case f && r.Status != Fail:
			t.Errorf("%s/%s: %s, want FAIL", r.Op, r.DType, r.Status)
		case f:
			n++
			if !strings.Contains(r.Worst, want) || !strings.HasPrefix(r.Worst, r.Op+" "+r.DType.String()+" case ") {
				t.Errorf("%s/%s: worst %q, want one naming op, dtype, case and %q", r.Op, r.DType, r.Worst, want)
			}
			if r.Failed == 0 || r.Failed > r.Cases {
				t.Errorf("%s/%s: %d of %d failed", r.Op, r.DType, r.Failed, r.Cases)
			}
		case r.Status == Fail:
			t.Errorf("%s/%s failed: %s", r.Op, r.DType, r.Worst)
		}
	}
	if n == 0 {
		t.Error("no pair failed")
	}
	if rep.OK() || len(rep.Failed()) != n {
		t.Errorf("OK() = %v, %d failed, want %d", rep.OK(), len(rep.Failed()), n)
	}
}

func TestOraclePasses(t *testing.T) {
	o := newOracle(t)
	rep := mustCheck(t, o, Options{NoGradCheck: true})
	if !rep.OK() || rep.Device != "oracle" {
		t.Errorf("OK() = %v, device %q", rep.OK(), rep.Device)
	}
	total := 0
	for i, r := range rep.Results {
		total += r.Cases
		if r.Status != Pass || r.Cases == 0 || r.WorstRatio != 0 || r.Worst != "" {
			t.Errorf("%s/%s: %+v", r.Op, r.DType, r)
		}
		if i > 0 {
			p := rep.Results[i-1]
			if p.Op > r.Op || (p.Op == r.Op && p.DType >= r.DType) {
				t.Errorf("results not sorted: %s/%s before %s/%s", p.Op, p.DType, r.Op, r.DType)
			}
		}
	}
	if total != len(o.cases) {
		t.Errorf("%d cases ran, the corpus has %d", total, len(o.cases))
	}
	if !rep.Results[0].Backward {
		t.Errorf("%s: backward did not run", rep.Results[0].Op)
	}
	// The same through Run.
	Run(t, o, Options{NoGradCheck: true})
}

func TestWrongValue(t *testing.T) {
	o := newOracle(t)
	o.change = func(c *Case, res *device.ExecResult, err error) (*device.ExecResult, error) {
		if c.Op == "exp" && c.DType == tensor.Float64 && res != nil && res.Outputs[0].Len() > 0 && !math.IsNaN(res.Outputs[0].At(0)) {
			res.Outputs[0].Set(0, res.Outputs[0].At(0)*(1+1e-5))
		}
		return res, err
	}
	rep := mustCheck(t, o, Options{NoGradCheck: true})
	expectFailures(t, rep, func(r Result) bool { return r.Op == "exp" && r.DType == tensor.Float64 }, "output 0 element 0: got ")
	for _, r := range rep.Failed() {
		if !strings.Contains(r.Worst, "× tolerance)") || r.WorstRatio < 10 || math.IsInf(r.WorstRatio, 0) {
			t.Errorf("worst %q, ratio %g", r.Worst, r.WorstRatio)
		}
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"OP", "DTYPE", "RESULT", "CASES", "WORST", "exp ", "FAIL", "output 0 element 0", "oracle: ", " 1 FAIL,"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestWrongDTypeAndShape(t *testing.T) {
	o := newOracle(t)
	o.change = func(c *Case, res *device.ExecResult, err error) (*device.ExecResult, error) {
		switch {
		case res == nil:
		case c.Op == "neg":
			res.Outputs[0] = res.Outputs[0].Cast(tensor.Float32)
			if res.Outputs[0].DType == c.Outputs[0].DType {
				res.Outputs[0] = res.Outputs[0].Cast(tensor.Float64)
			}
		case c.Op == "clone":
			res.Outputs[0].Shape = append(res.Outputs[0].Shape, 1)
		case c.Op == "sin" && res.InputGrads != nil:
			res.InputGrads = res.InputGrads[:0]
		}
		return res, err
	}
	rep := mustCheck(t, o, Options{NoGradCheck: true})
	valued := valuePairs(o.cases)
	for _, r := range rep.Results {
		want := map[string]string{"neg": "output 0: dtype ", "clone": "output 0: shape ", "sin": "input gradients, want one per input"}[r.Op]
		if (r.Op == "sin" && !r.Backward) || !valued[pairKey{r.Op, r.DType}] {
			want = ""
		}
		switch {
		case want == "" && r.Status == Fail:
			t.Errorf("%s/%s failed: %s", r.Op, r.DType, r.Worst)
		case want != "" && (r.Status != Fail || !strings.Contains(r.Worst, want)):
			t.Errorf("%s/%s: %s %q, want a failure with %q", r.Op, r.DType, r.Status, r.Worst, want)
		}
	}
}

// valuePairs are the pairs with cases that are not error cases.
func valuePairs(cases map[string]*Case) map[pairKey]bool {
	m := map[pairKey]bool{}
	for _, c := range cases {
		if c.Error == "" {
			m[pairKey{c.Op, c.DType}] = true
		}
	}
	return m
}

func TestErrorCases(t *testing.T) {
	isErrorPair := func(cases map[string]*Case) func(r Result) bool {
		pairs := map[pairKey]bool{}
		for _, c := range cases {
			if c.Error != "" {
				pairs[pairKey{c.Op, c.DType}] = true
			}
		}
		return func(r Result) bool { return pairs[pairKey{r.Op, r.DType}] }
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no error", nil, "no error; PyTorch raised "},
		{"failure", errors.New("boom"), `error "boom" is of kind failure, want invalid argument`},
		{"unsupported", &device.ErrUnsupported{Op: "x", Reason: "no"}, "is of kind unsupported, want invalid argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newOracle(t)
			o.change = func(c *Case, res *device.ExecResult, err error) (*device.ExecResult, error) {
				if c.Error == "" {
					return res, err
				}
				if tc.err == nil {
					return &device.ExecResult{Outputs: []*tensor.Tensor{tensor.New(tensor.Float32, nil)}}, nil
				}
				return nil, tc.err
			}
			expectFailures(t, mustCheck(t, o, Options{NoGradCheck: true}), isErrorPair(o.cases), tc.want)
		})
	}
	t.Run("CheckError", func(t *testing.T) {
		o := newOracle(t)
		var seen int
		opts := Options{NoGradCheck: true, CheckError: func(c *Case, err error) error {
			seen++
			if err.Error() != c.Error {
				return errors.New("not the oracle's message")
			}
			if c.Op == "cat" {
				return errors.New("cat message rejected")
			}
			return nil
		}}
		rep := mustCheck(t, o, opts)
		expectFailures(t, rep, func(r Result) bool { return r.Op == "cat" && isErrorPair(o.cases)(r) }, "cat message rejected")
		if seen == 0 {
			t.Error("CheckError not called")
		}
	})
}

func TestPanics(t *testing.T) {
	o := newOracle(t)
	o.change = func(c *Case, res *device.ExecResult, err error) (*device.ExecResult, error) {
		if c.Op == "sin" {
			panic("kernel bug")
		}
		return res, err
	}
	rep := mustCheck(t, o, Options{NoGradCheck: true, Tolerance: func(c *Case, dt tensor.DType) Tolerance {
		if c.Op == "cos" {
			panic("tolerance bug")
		}
		return DefaultTolerance(c, dt)
	}})
	valued := valuePairs(o.cases)
	expectFailures(t, rep, func(r Result) bool {
		return r.Op == "sin" || (r.Op == "cos" && valued[pairKey{r.Op, r.DType}])
	}, "panic")
	o.describe = nil
	o.info = nil
	if _, err := Check(context.Background(), o, Options{}); err == nil {
		t.Error("Check with a nil Info: no error")
	}
}

func TestSelection(t *testing.T) {
	o := newOracle(t)
	var ops []device.OpSupport
	for _, s := range o.info.Ops {
		switch s.Op {
		case "cos":
			continue // not declared: Unsupported
		case "echo":
			s.DTypes = append(s.DTypes, tensor.Int8) // no echo case at int8: NoCases
		case "tanh":
			s.Backward = false // forward only
		}
		ops = append(ops, s)
	}
	o.info = &device.Info{Name: "partial", Ops: ops}
	backward := 0
	o.change = func(c *Case, res *device.ExecResult, err error) (*device.ExecResult, error) {
		if c.Op == "tanh" && res != nil && res.InputGrads != nil {
			backward++
		}
		return res, err
	}
	rep := mustCheck(t, o, Options{NoGradCheck: true})
	if !rep.OK() {
		t.Errorf("failed: %v", rep.Failed())
	}
	st := map[string]Status{}
	for _, r := range rep.Results {
		st[r.Op+"/"+r.DType.String()] = r.Status
		if r.Op == "tanh" && r.Backward {
			t.Errorf("tanh/%s: backward ran", r.DType)
		}
	}
	if st["cos/float64"] != Unsupported || st["echo/int8"] != NoCases || st["echo/int64"] != Pass || st["tanh/float64"] != Pass {
		t.Errorf("statuses: cos/float64 %s, echo/int8 %s, echo/int64 %s, tanh/float64 %s",
			st["cos/float64"], st["echo/int8"], st["echo/int64"], st["tanh/float64"])
	}
	if backward != 0 {
		t.Errorf("%d tanh backward calls", backward)
	}
	for _, s := range []Status{Pass, Fail, Unsupported, NoCases, Status(9)} {
		if s.String() == "" {
			t.Errorf("Status(%d) has no name", int(s))
		}
	}

	rep = mustCheck(t, o, Options{NoGradCheck: true, Ops: []string{"add", "cos"}})
	for _, r := range rep.Results {
		if r.Op != "add" && r.Op != "cos" {
			t.Errorf("Options.Ops: result for %s", r.Op)
		}
	}
	if len(rep.Results) == 0 {
		t.Error("Options.Ops: no result")
	}
	if _, err := Check(context.Background(), o, Options{Ops: []string{"no_such_op"}}); err == nil {
		t.Error("unknown op in Options.Ops: no error")
	}
	o.describe = errors.New("driver missing")
	if _, err := Check(context.Background(), o, Options{}); err == nil || !strings.Contains(err.Error(), "driver missing") {
		t.Errorf("Describe error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o.describe = nil
	if _, err := Check(ctx, o, Options{}); err == nil {
		t.Error("cancelled context: no error")
	}
	if _, err := Check(context.Background(), nil, Options{}); err == nil {
		t.Error("nil device: no error")
	}
}

// analytic computes a few unary ops at float64, forward and backward, the
// way any correct kernel does; badTanh makes tanh's backward wrong.
type analytic struct{ badTanh bool }

var analyticOps = map[string]struct{ f, df func(x, y float64) float64 }{
	"exp": {func(x, _ float64) float64 { return math.Exp(x) }, func(_, y float64) float64 { return y }},
	"sin": {func(x, _ float64) float64 { return math.Sin(x) }, func(x, _ float64) float64 { return math.Cos(x) }},
	"tanh": {func(x, _ float64) float64 { return math.Tanh(x) },
		func(_, y float64) float64 { return 1 - y*y }},
	"relu": {func(x, _ float64) float64 {
		if x > 0 || math.IsNaN(x) {
			return x
		}
		return 0
	}, func(_, y float64) float64 {
		if y <= 0 { // PyTorch passes the gradient at NaN
			return 0
		}
		return 1
	}},
}

func (a analytic) Describe(context.Context) (*device.Info, error) {
	info := &device.Info{Name: "analytic"}
	for op := range analyticOps {
		info.Ops = append(info.Ops, device.OpSupport{Op: op, DTypes: []tensor.DType{tensor.Float64}, Backward: true})
	}
	return info, nil
}

func (a analytic) Configure(context.Context, device.Config) error { return nil }

func (a analytic) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	k, ok := analyticOps[req.Op]
	if !ok || len(req.Inputs) != 1 || req.Inputs[0].Tensor == nil || req.Inputs[0].Tensor.DType != tensor.Float64 {
		return nil, &device.ErrUnsupported{Op: req.Op, Reason: "analytic test device"}
	}
	x := req.Inputs[0].Tensor
	y := tensor.New(tensor.Float64, x.Shape)
	for i, v := range x.Float64s() {
		y.Set(i, k.f(v, 0))
	}
	res := &device.ExecResult{Outputs: []*tensor.Tensor{y}}
	if !req.Backward {
		return res, nil
	}
	res.InputGrads = []*tensor.Tensor{nil}
	if len(req.RequiresGrad) == 0 || !req.RequiresGrad[0] {
		return res, nil
	}
	g := tensor.New(tensor.Float64, x.Shape)
	if len(req.GradOutputs) > 0 && req.GradOutputs[0] != nil {
		g = req.GradOutputs[0]
	}
	gx := tensor.New(tensor.Float64, x.Shape)
	for i, v := range x.Float64s() {
		d := k.df(v, y.At(i))
		if a.badTanh && req.Op == "tanh" {
			d = 1 - y.At(i) // wrong: should be 1 - y²
		}
		gx.Set(i, g.At(i)*d)
	}
	res.InputGrads[0] = gx
	return res, nil
}

func TestGradCheck(t *testing.T) {
	nCases := map[string]int{}
	for _, c := range corpusCases(t) {
		if c.DType == tensor.Float64 {
			nCases[c.Op]++
		}
	}
	only := []string{"exp", "sin", "tanh", "relu"}
	rep := mustCheck(t, analytic{}, Options{Ops: only})
	for _, r := range rep.Results {
		if r.DType != tensor.Float64 {
			continue
		}
		if r.Status != Pass {
			t.Errorf("%s/%s: %s %s", r.Op, r.DType, r.Status, r.Worst)
		}
		// Some cases ran their gradient check too.
		if r.Cases <= nCases[r.Op] || !r.Backward {
			t.Errorf("%s: %d checks for %d cases: no gradient check ran", r.Op, r.Cases, nCases[r.Op])
		}
	}

	// A wrong backward fails the gradient check even when golden values are
	// not judged at all.
	blind := Options{Ops: only, Tolerance: func(*Case, tensor.DType) Tolerance { return Tolerance{RTol: math.Inf(1), ATol: math.Inf(1)} }}
	rep = mustCheck(t, analytic{badTanh: true}, blind)
	expectFailures(t, rep, func(r Result) bool { return r.Op == "tanh" && r.DType == tensor.Float64 }, "gradient check of input 0 (self)")
	// Without gradient checks, nothing fails.
	blind.NoGradCheck = true
	if rep := mustCheck(t, analytic{badTanh: true}, blind); !rep.OK() {
		t.Errorf("NoGradCheck: %v", rep.Failed())
	}
}

func TestGradCheckKink(t *testing.T) {
	k := &checker{ctx: context.Background(), dev: analytic{}}
	mk := func(x []float64) (*Case, *device.ExecResult) {
		xt := tensor.FromFloat64s(tensor.Float64, []int{len(x)}, x)
		g := tensor.FromFloat64s(tensor.Float64, []int{len(x)}, []float64{1, -0.5, 2, 0.25}[:len(x)])
		c := &Case{Name: "kink", Op: "relu", DType: tensor.Float64, Request: &device.ExecRequest{API: "kink", Op: "relu",
			Inputs: []ops.Value{ops.T(xt)}, RequiresGrad: []bool{true}, Backward: true, GradOutputs: []*tensor.Tensor{g}}}
		res, err := analytic{}.Execute(context.Background(), cloneRequest(c.Request))
		if err != nil {
			t.Fatal(err)
		}
		c.Outputs = res.Outputs
		return c, res
	}
	// relu at 0: the subgradient 0 is not the central difference; the kink
	// is detected and the input skipped.
	c, res := mk([]float64{0, 1, -1, 0.5})
	if o := k.gradCheck(c, res); o != nil {
		t.Errorf("kink: checked, failures %v", o.fails)
	}
	// Away from 0 the check runs and passes.
	c, res = mk([]float64{0.3, 1, -1, 0.5})
	if o := k.gradCheck(c, res); o == nil || len(o.fails) != 0 || o.worst > 1 {
		t.Errorf("smooth point: %+v", o)
	}
	// A wrong gradient there fails.
	res.InputGrads[0].Set(1, res.InputGrads[0].At(1)*1.01)
	if o := k.gradCheck(c, res); o == nil || len(o.fails) != 1 || !strings.Contains(o.fails[0].msg, "gradient check") {
		t.Errorf("wrong gradient: %+v", o)
	}
}
