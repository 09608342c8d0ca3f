package devicetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Options change what Check runs and how strictly it judges.
type Options struct {
	// Tolerance, when not nil, replaces DefaultTolerance (a device tightens
	// it; plugins/cpu does). It is called with the case and the dtype of
	// the compared tensor (an output or an input gradient).
	Tolerance func(c *Case, dt tensor.DType) Tolerance
	// Ops, when not empty, restricts the suite to these ops.
	Ops []string
	// CheckError, when not nil, is called for every error case the device
	// rejected (with an error of kind InvalidArgument: any other outcome
	// fails already), with its error; a non-nil result is a failure
	// (plugins/cpu uses it to require PyTorch's exact messages).
	CheckError func(c *Case, err error) error
	// NoGradCheck turns off the finite-difference gradient checks.
	NoGradCheck bool
}

// Status is the verdict on one op × dtype pair.
type Status int

// Statuses.
const (
	// Pass: the device declares the pair and every case passed.
	Pass Status = iota
	// Fail: at least one case (or gradient check) failed.
	Fail
	// Unsupported: the corpus has cases, the device does not declare the
	// pair.
	Unsupported
	// NoCases: the device declares the pair, the corpus has no case for it.
	NoCases
)

// String returns "pass", "FAIL", "unsupported" or "no cases".
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "FAIL"
	case Unsupported:
		return "unsupported"
	case NoCases:
		return "no cases"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is one op × dtype pair.
type Result struct {
	Op     string
	DType  tensor.DType
	Status Status
	// Cases and Failed count the checks run and failed: one per case (its
	// forward, with its backward when that ran) and one per case whose
	// finite-difference gradient check ran.
	Cases, Failed int
	// Backward: backward cases ran with their backward.
	Backward bool
	// Worst is, for Fail, the worst failure, naming op, dtype, case and the
	// error, e.g. `gelu float32 case "emu/gelu/float32": output 0 element 3:
	// got 1.3, want 1.2, |err| 7.6e-06 > tol 1.3e-06 (5.8× tolerance)`. A
	// failure that is not a value out of tolerance (an error, a wrong dtype
	// or shape, NaN where a number is expected) is worse than any value.
	Worst string
	// WorstRatio is the worst |err|/tolerance seen over every compared
	// value and gradient check of the pair (0 when none; +Inf for a NaN or
	// infinity where another value is expected).
	WorstRatio float64
}

// Report is the outcome of Check.
type Report struct {
	Device  string // Info.Name
	Results []Result
}

// OK reports whether no Result has Status Fail.
func (r *Report) OK() bool { return len(r.Failed()) == 0 }

// Failed returns the Results with Status Fail.
func (r *Report) Failed() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Status == Fail {
			out = append(out, res)
		}
	}
	return out
}

// Check runs the suite against dev (already configured) and reports every
// pair: each op × dtype that the corpus has cases for or the device
// declares, sorted by op then dtype. It calls Describe first and chooses
// cases by what the device declares: a case runs when the device declares
// its op at the case's DType; its backward runs only when the device
// declares Backward for the op (else forward only). An error return means
// the suite could not run at all (Describe failed, corpus unreadable,
// ctx done, an unknown op in Options.Ops); failures of the device are in
// the Report. A panic of the device, or of an Options function, is a
// failure of the case it happened in; Check itself does not panic.
func Check(ctx context.Context, dev device.Device, opts Options) (*Report, error) {
	return check(ctx, dev, opts, nil)
}

type pairKey struct {
	op string
	dt tensor.DType
}

// failure is one failed check.
type failure struct {
	msg string
	// ratio is |err|/tolerance; +Inf for a failure that is not a value out
	// of tolerance.
	ratio float64
}

// outcome collects the failures of one check (a case or its gradient
// check).
type outcome struct {
	prefix string
	fails  []failure
	worst  float64
}

func (o *outcome) seen(ratio float64) {
	if ratio > o.worst || math.IsNaN(ratio) {
		o.worst = ratio
	}
}

func (o *outcome) fail(ratio float64, format string, a ...any) {
	o.fails = append(o.fails, failure{msg: o.prefix + fmt.Sprintf(format, a...), ratio: ratio})
}

type pairState struct {
	Result
	declared  bool
	worstFail failure
}

func (p *pairState) add(o *outcome, onFail func(op string, dt tensor.DType, msg string)) {
	p.Cases++
	if o.worst > p.WorstRatio {
		p.WorstRatio = o.worst
	}
	if len(o.fails) == 0 {
		return
	}
	p.Failed++
	for _, f := range o.fails {
		if p.Worst == "" || f.ratio > p.worstFail.ratio {
			p.worstFail = f
			p.Worst = f.msg
		}
		if onFail != nil {
			onFail(p.Op, p.DType, f.msg)
		}
	}
}

type checker struct {
	ctx  context.Context
	dev  device.Device
	opts Options
}

// check is Check; onFail, when not nil, receives every failure.
func check(ctx context.Context, dev device.Device, opts Options, onFail func(op string, dt tensor.DType, msg string)) (*Report, error) {
	if dev == nil {
		return nil, errors.New("devicetest: nil device")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	only := map[string]bool{}
	for _, op := range opts.Ops {
		if _, ok := ops.Lookup(op); !ok {
			return nil, fmt.Errorf("devicetest: Options.Ops: unknown canonical op %q", op)
		}
		only[op] = true
	}
	keep := func(op string) bool { return len(only) == 0 || only[op] }
	info, err := describe(ctx, dev)
	if err != nil {
		return nil, fmt.Errorf("devicetest: Describe: %w", err)
	}
	cases, err := loadCorpus()
	if err != nil {
		return nil, err
	}
	pairs := map[pairKey]*pairState{}
	pair := func(op string, dt tensor.DType) *pairState {
		k := pairKey{op, dt}
		p := pairs[k]
		if p == nil {
			p = &pairState{Result: Result{Op: op, DType: dt}}
			pairs[k] = p
		}
		return p
	}
	for _, s := range info.Ops {
		if !keep(s.Op) {
			continue
		}
		for _, dt := range s.DTypes {
			pair(s.Op, dt).declared = true
		}
	}
	k := &checker{ctx: ctx, dev: dev, opts: opts}
	for _, c := range cases {
		if !keep(c.Op) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("devicetest: %w", err)
		}
		p := pair(c.Op, c.DType)
		fwd, bwd := info.Supports(c.Op, c.DType)
		if !fwd {
			continue
		}
		p.declared = true
		backward := bwd && c.Request.Backward
		o, res := k.runCase(c, backward)
		p.add(o, onFail)
		if backward {
			p.Backward = true
			if !opts.NoGradCheck && res != nil {
				if g := k.gradCheck(c, res); g != nil {
					p.add(g, onFail)
				}
			}
		}
	}
	rep := &Report{Device: info.Name}
	for _, p := range pairs {
		switch {
		case !p.declared:
			p.Status = Unsupported
		case p.Cases == 0:
			p.Status = NoCases
		case p.Failed > 0:
			p.Status = Fail
		default:
			p.Status = Pass
		}
		rep.Results = append(rep.Results, p.Result)
	}
	sort.Slice(rep.Results, func(i, j int) bool {
		a, b := rep.Results[i], rep.Results[j]
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.DType < b.DType
	})
	return rep, nil
}

// describe calls Describe, turning a panic into an error.
func describe(ctx context.Context, dev device.Device) (info *device.Info, err error) {
	defer func() {
		if r := recover(); r != nil {
			info, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	info, err = dev.Describe(ctx)
	if err == nil && info == nil {
		err = errors.New("no Info")
	}
	return info, err
}

// panicError is a device panic turned into an error (a Failure).
type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprintf("Execute panicked: %v", e.v) }

// execute runs one request on a copy of it, turning a panic into an error.
func (k *checker) execute(req *device.ExecRequest) (res *device.ExecResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &panicError{r}
		}
	}()
	return k.dev.Execute(k.ctx, cloneRequest(req))
}

func (k *checker) tolerance(c *Case, dt tensor.DType) Tolerance {
	if k.opts.Tolerance != nil {
		return k.opts.Tolerance(c, dt)
	}
	return DefaultTolerance(c, dt)
}

func casePrefix(c *Case) string {
	return fmt.Sprintf("%s %s case %q: ", c.Op, c.DType, c.Name)
}

// inputName names input i of a case's op ("input 1 (other)").
func inputName(c *Case, i int) string {
	s, ok := ops.Lookup(c.Op)
	if !ok || len(s.Inputs) == 0 {
		return fmt.Sprintf("input %d", i)
	}
	sp := s.Input(i)
	if sp.Variadic {
		return fmt.Sprintf("input %d (%s[%d])", i, sp.Name, i-(len(s.Inputs)-1))
	}
	return fmt.Sprintf("input %d (%s)", i, sp.Name)
}

// runCase runs one case (with its backward when backward is set) and
// checks the result; res is the device's result when Execute succeeded on
// a case that is not an error case.
func (k *checker) runCase(c *Case, backward bool) (o *outcome, res *device.ExecResult) {
	o = &outcome{prefix: casePrefix(c)}
	defer func() {
		if r := recover(); r != nil { // a panic of Options.Tolerance or CheckError
			o.fail(math.Inf(1), "panic while checking the result: %v", r)
			res = nil
		}
	}()
	req := c.Request
	if !backward && req.Backward {
		req = cloneRequest(req)
		req.Backward, req.GradOutputs = false, nil
	}
	res, err := k.execute(req)
	if c.Error != "" {
		switch kind := device.KindOf(err); {
		case err == nil:
			o.fail(math.Inf(1), "no error; PyTorch raised %q", c.Error)
		case kind != device.InvalidArgument:
			o.fail(math.Inf(1), "error %q is of kind %s, want %s (PyTorch raised %q)", err, kind, device.InvalidArgument, c.Error)
		case k.opts.CheckError != nil:
			if e := k.opts.CheckError(c, err); e != nil {
				o.fail(math.Inf(1), "%v", e)
			}
		}
		return o, nil
	}
	if err != nil {
		o.fail(math.Inf(1), "Execute: %v (%s)", err, device.KindOf(err))
		return o, nil
	}
	if res == nil {
		o.fail(math.Inf(1), "Execute returned neither a result nor an error")
		return o, nil
	}
	if len(res.Outputs) != len(c.Outputs) {
		o.fail(math.Inf(1), "%d outputs, want %d", len(res.Outputs), len(c.Outputs))
		return o, nil
	}
	for i, want := range c.Outputs {
		k.compare(o, c, fmt.Sprintf("output %d", i), res.Outputs[i], want)
	}
	if !backward {
		return o, res
	}
	if len(res.InputGrads) != len(req.Inputs) {
		o.fail(math.Inf(1), "%d input gradients, want one per input (%d)", len(res.InputGrads), len(req.Inputs))
		return o, nil
	}
	for i, want := range c.InputGrads {
		got := res.InputGrads[i]
		what := inputName(c, i) + " gradient"
		if want == nil {
			if got != nil && !allZero(got) {
				o.fail(math.Inf(1), "%s: got a non-zero gradient, PyTorch gives none", what)
			}
			continue
		}
		k.compare(o, c, what, got, want)
	}
	return o, res
}

// allZero reports whether t is a valid tensor of zeros.
func allZero(t *tensor.Tensor) bool {
	if t.Validate() != nil {
		return false
	}
	for _, v := range t.Float64s() {
		if v != 0 {
			return false
		}
	}
	return true
}

// compare checks got against want: dtype and shape exactly, values within
// the case's tolerance.
func (k *checker) compare(o *outcome, c *Case, what string, got, want *tensor.Tensor) {
	switch {
	case got == nil:
		o.fail(math.Inf(1), "%s: got none, want %s%s", what, want.DType, ops.ShapeList(want.Shape))
		return
	case got.Validate() != nil:
		o.fail(math.Inf(1), "%s: invalid tensor: %v", what, got.Validate())
		return
	case got.DType != want.DType:
		o.fail(math.Inf(1), "%s: dtype %s, want %s", what, got.DType, want.DType)
		return
	case !slices.Equal(got.Shape, want.Shape):
		o.fail(math.Inf(1), "%s: shape %s, want %s", what, ops.ShapeList(got.Shape), ops.ShapeList(want.Shape))
		return
	}
	n := want.Len()
	if !want.DType.IsFloat() {
		gi, wi := got.Int64s(), want.Int64s()
		bad, first := 0, -1
		for i := range wi {
			if gi[i] != wi[i] {
				if bad == 0 {
					first = i
				}
				bad++
			}
		}
		if bad > 0 {
			o.fail(math.Inf(1), "%s element %d: got %d, want %d%s", what, first, gi[first], wi[first], outOf(bad, n))
		}
		return
	}
	tol := k.tolerance(c, want.DType)
	dt := want.DType
	bad, worstI, worst := 0, -1, -1.0
	var worstAllowed float64
	gv, wv := got.Float64s(), want.Float64s()
	for i := range n {
		g, w := gv[i], wv[i]
		var ratio, allowed float64
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if !(math.IsNaN(w) && math.IsNaN(g)) {
				ratio = math.Inf(1)
			}
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			if g != w {
				ratio = math.Inf(1)
			}
		default:
			allowed = tol.allowed(dt, w)
			switch d := math.Abs(g - w); {
			case d == 0:
			case allowed > 0:
				ratio = d / allowed
			default:
				ratio = math.Inf(1)
			}
		}
		if ratio > 1 {
			bad++
		}
		if ratio > worst {
			worst, worstI, worstAllowed = ratio, i, allowed
		}
	}
	if worstI < 0 {
		return // empty tensor
	}
	o.seen(worst)
	if bad == 0 {
		return
	}
	g, w := gv[worstI], wv[worstI]
	if math.IsInf(worst, 1) && (math.IsNaN(g) || math.IsNaN(w) || math.IsInf(g, 0) || math.IsInf(w, 0)) {
		o.fail(worst, "%s element %d: got %s, want %s%s", what, worstI, fmtVal(g, dt), fmtVal(w, dt), outOf(bad, n))
		return
	}
	o.fail(worst, "%s element %d: got %s, want %s, |err| %.2g > tol %.2g (%s tolerance)%s",
		what, worstI, fmtVal(g, dt), fmtVal(w, dt), math.Abs(g-w), worstAllowed, fmtRatio(worst), outOf(bad, n))
}

func outOf(bad, n int) string {
	if bad <= 1 {
		return ""
	}
	return fmt.Sprintf(" (%d of %d elements out of tolerance)", bad, n)
}

// fmtVal formats a value of dtype dt with the digits that identify it.
func fmtVal(v float64, dt tensor.DType) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	bits := 32
	if dt == tensor.Float64 {
		bits = 64
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// fmtRatio formats |err|/tolerance: "5.8×".
func fmtRatio(r float64) string {
	if math.IsInf(r, 1) {
		return "inf×"
	}
	return strconv.FormatFloat(r, 'g', 2, 64) + "×"
}
