package host

// The Go emulated device (plugins/cpu, mode emulated) against the real
// PyTorch (plugins/torch on the CPU), call by call: the golden corpus'
// inputs cast to float32, float16 and bfloat16, and every API of the
// fixture dumps as a run sends it. Outputs and input gradients are
// compared in units in the last place of their dtype (adjacent
// representable values are 1 apart). With -update-emulated-vs-torch the
// table is written to docs/emulated-vs-torch.md.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/pluginhost"
	"github.com/probe-dev/probe/host/internal/run"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/internal/fixtures"
	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/plugins/cpu"
	"github.com/probe-dev/probe/plugins/mindspore"
	"github.com/probe-dev/probe/plugins/pytorch"
	"github.com/probe-dev/probe/plugins/torch"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

var updateCrossDoc = flag.Bool("update-emulated-vs-torch", false, "rewrite docs/emulated-vs-torch.md")

// startTorch starts the torch plugin on the CPU, as probe does.
func startTorch(t testing.TB, py string) (device.Device, *device.Info) {
	t.Helper()
	script, err := torch.Materialize(os.Getenv("PROBE_CACHE_DIR"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := pluginhost.Start(ctx, pluginhost.Spec{Name: "device.torch", Kind: pluginrpc.KindDevice, Path: py, Args: []string{"-u", script}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	// native CPU kernels (oneDNN off), the ones the emulation reproduces,
	// whatever the CPU
	if err := p.Device().Configure(ctx, device.Config{Options: map[string]string{"device": "cpu", "onednn": "false"}}); err != nil {
		t.Fatal(err)
	}
	info, err := p.Device().Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return p.Device(), info
}

// verdict of one call, worst first.
type verdict int

const (
	exact  verdict = iota // every bit equal
	oneULP                // no element more than 1 ULP apart
	worse                 // some element further apart, or a shape/dtype difference
)

func (v verdict) String() string { return [...]string{"bit-exact", "≤ 1 ULP", "> 1 ULP"}[v] }

// ordered maps a float of dtype d to an integer whose difference counts the
// representable values in between.
func ordered(d tensor.DType, v float64) int64 {
	var bits, sign int64
	switch d {
	case tensor.Float16:
		bits, sign = int64(tensor.Float16Bits(v)), 1<<15
	case tensor.BFloat16:
		bits, sign = int64(tensor.BFloat16Bits(v)), 1<<15
	case tensor.Float32:
		bits, sign = int64(math.Float32bits(float32(v))), 1<<31
	default:
		u := math.Float64bits(v)
		if u>>63 != 0 {
			return -int64(u &^ (1 << 63))
		}
		return int64(u)
	}
	if bits&sign != 0 {
		return -(bits &^ sign)
	}
	return bits
}

// distance between two tensors: ulp is the largest elementwise distance in
// representable values of the dtype (NaN meets NaN), scaled the largest
// |a−b| in ULPs of the tensor's largest magnitude (which keeps results near
// zero, where the representable values crowd, in proportion). Both are +Inf
// where shape, dtype or a NaN differs, 0 for equal integers.
func distance(a, b *tensor.Tensor) (ulp, scaled float64) {
	inf := math.Inf(1)
	if a == nil || b == nil {
		if a == nil && b == nil {
			return 0, 0
		}
		return inf, inf
	}
	if a.DType != b.DType || !slices.Equal(a.Shape, b.Shape) {
		return inf, inf
	}
	if !a.DType.IsFloat() {
		if slices.Equal(a.Data, b.Data) {
			return 0, 0
		}
		return inf, inf
	}
	av, bv := a.Float64s(), b.Float64s()
	top, diff := 0.0, 0.0
	for i := range av {
		x, y := av[i], bv[i]
		if math.IsNaN(x) || math.IsNaN(y) {
			if math.IsNaN(x) != math.IsNaN(y) {
				return inf, inf
			}
			continue
		}
		if math.IsInf(x, 0) || math.IsInf(y, 0) {
			if x != y {
				return inf, inf
			}
			continue
		}
		ulp = math.Max(ulp, math.Abs(float64(ordered(a.DType, x)-ordered(a.DType, y))))
		top = math.Max(top, math.Abs(y))
		diff = math.Max(diff, math.Abs(x-y))
	}
	if diff > 0 {
		scaled = diff / tensor.ULP(a.DType, top)
	}
	return ulp, scaled
}

// compareResults measures the emulated result against another (torch's,
// or the rounded float64 one): outputs, and the input gradients both give.
func compareResults(emu, ref *device.ExecResult) (v verdict, ulp, scaled float64) {
	if len(emu.Outputs) != len(ref.Outputs) {
		return worse, math.Inf(1), math.Inf(1)
	}
	pairs := [][2]*tensor.Tensor{}
	for i := range ref.Outputs {
		pairs = append(pairs, [2]*tensor.Tensor{emu.Outputs[i], ref.Outputs[i]})
	}
	for i, r := range ref.InputGrads {
		if i < len(emu.InputGrads) && r != nil && emu.InputGrads[i] != nil {
			pairs = append(pairs, [2]*tensor.Tensor{emu.InputGrads[i], r})
		}
	}
	for _, p := range pairs {
		u, s := distance(p[0], p[1])
		ulp, scaled = math.Max(ulp, u), math.Max(scaled, s)
	}
	switch {
	case ulp == 0:
		return exact, 0, 0
	case ulp <= 1:
		return oneULP, ulp, scaled
	}
	return worse, ulp, scaled
}

// roundedReference runs a request on the float64 bench (inputs raised to
// float64, HF32 rounding applied first as a run does) and rounds each
// result to the dtype of the corresponding tensor of like: the correctly
// rounded answer at the device's dtype.
func roundedReference(ctx context.Context, bench device.Device, r *device.ExecRequest, like *device.ExecResult) (*device.ExecResult, error) {
	in := cloneRequest(r)
	if in.Precision.HF32 {
		for i, v := range in.Inputs {
			in.Inputs[i].Tensor = ops.RoundHF32Tensor(v.Tensor)
		}
		in.Precision = ops.Precision{}
	}
	res, err := bench.Execute(ctx, castRequest(in, tensor.Float64))
	if err != nil {
		return nil, err
	}
	round := func(ts, as []*tensor.Tensor) {
		for i := range ts {
			if i < len(as) && ts[i] != nil && as[i] != nil && ts[i].DType != as[i].DType {
				ts[i] = ts[i].Cast(as[i].DType)
			}
		}
	}
	round(res.Outputs, like.Outputs)
	round(res.InputGrads, like.InputGrads)
	return res, nil
}

// judgement of one call run on both devices.
type judgement struct {
	v           verdict
	ulp, scaled float64
	// For a call > 1 ULP apart: how far each device is from the correctly
	// rounded float64 result (scaled ULPs), and the explanation when the
	// emulation is not the cause.
	emuRef, torchRef float64
	why              string
}

// judge compares the two results and, where they are more than 1 ULP
// apart, asks the float64 bench which of them is nearer the truth.
func judge(ctx context.Context, bench device.Device, req *device.ExecRequest, emu, ref *device.ExecResult) (judgement, error) {
	var j judgement
	j.v, j.ulp, j.scaled = compareResults(emu, ref)
	if j.v != worse {
		return j, nil
	}
	ref64, err := roundedReference(ctx, bench, req, emu)
	if err != nil {
		return j, err
	}
	_, _, j.emuRef = compareResults(emu, ref64)
	_, _, j.torchRef = compareResults(ref, ref64)
	switch {
	case j.emuRef <= 1:
		j.why = fmt.Sprintf("emulation correctly rounded (%s ULP from the float64 result), torch %s ULP from it", fmtULP(j.emuRef), fmtULP(j.torchRef))
	case j.emuRef <= 2*j.torchRef+2:
		j.why = fmt.Sprintf("both far from the float64 result (emulation %s ULP, torch %s ULP): rounding PyTorch itself makes at this dtype", fmtULP(j.emuRef), fmtULP(j.torchRef))
	}
	return j, nil
}

// castRequest casts a request's floating tensors (inputs and gradients) to dt.
func castRequest(r *device.ExecRequest, dt tensor.DType) *device.ExecRequest {
	c := *r
	c.Inputs = slices.Clone(r.Inputs)
	for i, v := range c.Inputs {
		if v.Tensor != nil && v.Tensor.DType.IsFloat() {
			c.Inputs[i].Tensor = v.Tensor.Cast(dt)
		}
	}
	c.GradOutputs = slices.Clone(r.GradOutputs)
	for i, g := range c.GradOutputs {
		if g != nil && g.DType.IsFloat() {
			c.GradOutputs[i] = g.Cast(dt)
		}
	}
	return &c
}

// cloneRequest deep-copies a request's tensors: a device may overwrite
// its inputs (in-place ops).
func cloneRequest(r *device.ExecRequest) *device.ExecRequest {
	c := *r
	c.Inputs = slices.Clone(r.Inputs)
	for i, v := range c.Inputs {
		if v.Tensor != nil {
			c.Inputs[i].Tensor = v.Tensor.Clone()
		}
	}
	c.GradOutputs = slices.Clone(r.GradOutputs)
	for i, g := range c.GradOutputs {
		if g != nil {
			c.GradOutputs[i] = g.Clone()
		}
	}
	return &c
}

// cell aggregates the calls of one op at one dtype.
type cell struct {
	n     [3]int
	lacks int // torch does not run it here
	// worst is the call furthest apart; unexplained lists the calls > 1
	// ULP apart where the emulation is the one far from the float64 result.
	worst       judgement
	worstAt     string
	unexplained []string
}

func (c *cell) add(j judgement, name string) {
	c.n[j.v]++
	if j.v == worse && (c.worstAt == "" || j.scaled > c.worst.scaled) {
		c.worst, c.worstAt = j, name
	}
	if j.v == worse && j.why == "" {
		c.unexplained = append(c.unexplained, name)
	}
}

func (c *cell) String() string {
	total := c.n[0] + c.n[1] + c.n[2]
	if total == 0 {
		if c.lacks > 0 {
			return "torch lacks it"
		}
		return "–"
	}
	switch {
	case c.n[2] > 0:
		return fmt.Sprintf("%d/%d > 1 ULP", c.n[2], total)
	case c.n[1] > 0:
		return fmt.Sprintf("%d/%d ≤ 1 ULP", c.n[1], total)
	}
	return fmt.Sprintf("bit-exact (%d)", total)
}

func fmtULP(d float64) string {
	if math.IsInf(d, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.3g", d)
}

// corpusDTypes are the dtypes of the table.
var corpusDTypes = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16}

// randomOps draw from a generator: the two devices' random streams differ
// by design, so their values are not compared.
var randomOps = map[string]bool{"dropout": true}

// The emulated device against torch on the golden corpus at three dtypes
// and on every fixture API. A call more than 1 ULP apart must be explained
// by the float64 result: the emulation is correctly rounded where torch is
// not, or both are as far from it. Any other is a failure: the emulation
// is wrong.
func TestEmulatedVsTorch(t *testing.T) {
	py := needTorch(t)
	if testing.Short() {
		t.Skip("-short: the emulated-vs-torch comparison runs every corpus case three times on two devices")
	}
	ctx := context.Background()
	ref, info := startTorch(t, py)
	emu := cpu.New(cpu.Options{Mode: cpu.Emulated})
	bench := cpu.New(cpu.Options{Mode: cpu.Bench})
	exec := func(d device.Device, r *device.ExecRequest) (*device.ExecResult, error) {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		return d.Execute(cctx, cloneRequest(r))
	}
	// both runs a request on the two devices; skip says why it could not
	// be compared (torch lacks the op here, or both reject the call).
	both := func(req *device.ExecRequest) (j judgement, skip string) {
		fwd, bwd := info.Supports(req.Op, device.CallDType(req.Inputs))
		if !fwd {
			return j, "torch does not run it here"
		}
		if !bwd {
			req.Backward, req.GradOutputs = false, nil
		}
		rr, rerr := exec(ref, req)
		er, eerr := exec(emu, req)
		switch {
		case rerr != nil && device.KindOf(rerr) == device.Unsupported:
			return j, "torch: " + rerr.Error()
		case rerr != nil && eerr != nil:
			return j, "both reject it"
		case rerr != nil || eerr != nil:
			j.v, j.ulp, j.scaled = worse, math.Inf(1), math.Inf(1)
			t.Logf("%s: torch %v; emulated %v", req.API, rerr, eerr)
			return j, ""
		}
		j, err := judge(ctx, bench, req, er, rr)
		if err != nil {
			t.Fatalf("%s on the float64 bench: %v", req.API, err)
		}
		return j, ""
	}

	// The golden corpus at each dtype.
	cases, err := devicetest.Cases()
	if err != nil {
		t.Fatal(err)
	}
	table := map[string]map[tensor.DType]*cell{}
	for _, c := range cases {
		if c.Error != "" || !c.DType.IsFloat() || randomOps[c.Op] {
			continue
		}
		if table[c.Op] == nil {
			table[c.Op] = map[tensor.DType]*cell{}
		}
		for _, dt := range corpusDTypes {
			cl := table[c.Op][dt]
			if cl == nil {
				cl = &cell{}
				table[c.Op][dt] = cl
			}
			switch j, skip := both(castRequest(c.Request, dt)); skip {
			case "":
				cl.add(j, c.Name)
			case "both reject it":
			default:
				cl.lacks++
			}
		}
	}

	// The fixture dumps, every API as a run sends it.
	type apiRow struct {
		dump, api, op string
		dt            tensor.DType
		j             judgement
		note          string
	}
	var apis []apiRow
	dumps := []string{
		filepath.Join(repo, "examples/convnet/tensor/dump.json"),
		filepath.Join(repo, "examples/convnet/statistics/dump.json"),
		filepath.Join(repo, "examples/fp16/dump.json"),
	}
	if dir, ok := fixtures.Dir(); ok {
		more, _ := filepath.Glob(filepath.Join(dir, "msprobe-*/dumps/*/step0/rank/dump.json"))
		ut, _ := filepath.Glob(filepath.Join(dir, "msprobe-unit-tests/*.json"))
		dumps = append(dumps, append(more, ut...)...)
	}
	for _, path := range dumps {
		fwName, fw := "pytorch", pytorch.New()
		if strings.Contains(path, "mindspore_ut_files") || strings.Contains(path, "mindspore_data_dump") {
			fwName, fw = "mindspore", mindspore.New()
		}
		d, err := dump.Load(path, fwName)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		reqs, err := run.Requests(ctx, run.Options{Dump: d, Framework: fw, Seed: 1234})
		if err != nil {
			t.Fatal(err)
		}
		rel := relFixture(path)
		for _, r := range reqs {
			if r.Exec == nil {
				continue // a run skips it before calling any device
			}
			a := apiRow{dump: rel, api: r.API, op: r.Exec.Op, dt: device.CallDType(r.Exec.Inputs)}
			if randomOps[a.op] {
				a.note = "random mask: not compared"
			} else {
				a.j, a.note = both(r.Exec)
			}
			if a.note == "" && a.j.v == worse && a.j.why == "" {
				t.Errorf("%s %s (%s at %s): the emulated device is %s ULP from torch and %s ULP from the correctly rounded float64 result (torch %s)",
					a.dump, a.api, a.op, a.dt, fmtULP(a.j.ulp), fmtULP(a.j.emuRef), fmtULP(a.j.torchRef))
			}
			apis = append(apis, a)
		}
	}

	var doc strings.Builder
	fmt.Fprintf(&doc, "# The emulated device against real PyTorch\n\n")
	fmt.Fprintf(&doc, "Written by `go test ./host -run TestEmulatedVsTorch -update-emulated-vs-torch` with %s.\n", info.Description)
	fmt.Fprintf(&doc, "Each call runs on probe's Go emulation of PyTorch's CPU kernels (`cpu-emulated`) and on the torch\n")
	fmt.Fprintf(&doc, "device plugin (the real `torch`, on the CPU); outputs and input gradients are compared in units in\n")
	fmt.Fprintf(&doc, "the last place of their dtype: 1 ULP apart means adjacent representable values. Where the two are\n")
	fmt.Fprintf(&doc, "more than 1 ULP apart, the float64 bench (inputs raised to float64, result rounded to the dtype)\n")
	fmt.Fprintf(&doc, "says which is nearer the truth, in ULPs of each tensor's largest magnitude; the test fails when the\n")
	fmt.Fprintf(&doc, "emulation is the one far from it. `dropout` is left out: the two devices draw their masks from\n")
	fmt.Fprintf(&doc, "different generators by design.\n\n")
	fmt.Fprintf(&doc, "## Golden corpus inputs cast to each dtype\n\n")
	fmt.Fprintf(&doc, "The inputs (and output gradients) of every corpus case of `sdk/devicetest`, cast to the dtype.\n")
	fmt.Fprintf(&doc, "\"torch lacks it\": the installed torch has no kernel for the op at that dtype on this device\n")
	fmt.Fprintf(&doc, "(PyTorch 1.13 has few float16 kernels on the CPU).\n\n")
	fmt.Fprintf(&doc, "| op | float32 | float16 | bfloat16 |\n|---|---|---|---|\n")
	ops := make([]string, 0, len(table))
	for op := range table {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var worst []string
	for _, op := range ops {
		fmt.Fprintf(&doc, "| %s |", op)
		for _, dt := range corpusDTypes {
			c := table[op][dt]
			fmt.Fprintf(&doc, " %s |", c)
			if c.n[2] > 0 {
				w := c.worst
				why := w.why
				if why == "" {
					why = "**the emulation is the one far from the float64 result**"
				}
				worst = append(worst, fmt.Sprintf("| %s | %s | `%s` | %s | %s |", op, dt, c.worstAt, fmtULP(w.ulp), why))
			}
			for _, u := range c.unexplained {
				t.Errorf("corpus case %s at %s: the emulation differs from torch and is the one far from the float64 result", u, dt)
			}
		}
		fmt.Fprintln(&doc)
	}
	if len(worst) > 0 {
		fmt.Fprintf(&doc, "\nThe call furthest apart in each cell with calls > 1 ULP apart:\n\n")
		fmt.Fprintf(&doc, "| op | dtype | case | ULP apart | why |\n|---|---|---|---|---|\n")
		for _, w := range worst {
			fmt.Fprintln(&doc, w)
		}
	}
	fmt.Fprintf(&doc, "\n## Fixture APIs\n\n")
	fmt.Fprintf(&doc, "Every API of the example and fixture dumps, with the inputs a run sends the device under test.\n\n")
	fmt.Fprintf(&doc, "| dump | API | op | dtype | verdict |\n|---|---|---|---|---|\n")
	for _, a := range apis {
		v := a.j.v.String()
		switch {
		case a.note != "":
			v = a.note
		case a.j.v == worse:
			v = fmt.Sprintf("%s ULP apart: %s", fmtULP(a.j.ulp), a.j.why)
		}
		fmt.Fprintf(&doc, "| %s | %s | %s | %s | %s |\n", a.dump, a.api, a.op, a.dt, v)
	}
	path := filepath.Join(repo, "docs/emulated-vs-torch.md")
	if *updateCrossDoc {
		if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	} else if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is missing: run with -update-emulated-vs-torch", path)
	}
}

func relFixture(path string) string {
	if dir, ok := fixtures.Dir(); ok {
		if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
			return "fixtures/" + r
		}
	}
	r, err := filepath.Rel(repo, path)
	if err != nil {
		return path
	}
	return r
}
