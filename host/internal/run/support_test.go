package run

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// fakeDevice declares what it is given and counts Execute calls; it
// echoes its first input as output and gradient.
type fakeDevice struct {
	info  device.Info
	calls int
	last  *device.ExecRequest
}

func (d *fakeDevice) Describe(context.Context) (*device.Info, error) { return &d.info, nil }
func (d *fakeDevice) Configure(context.Context, device.Config) error { return nil }
func (d *fakeDevice) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	d.calls++
	d.last = req
	x := req.Inputs[0].Tensor
	res := &device.ExecResult{Outputs: []*tensor.Tensor{x}}
	if req.Backward {
		res.InputGrads = []*tensor.Tensor{x}
	}
	return res, nil
}

// fakeHandle is a plugin handle over any device of the tests.
type fakeHandle struct{ d device.Device }

func (h fakeHandle) Device() device.Device         { return h.d }
func (h fakeHandle) Restart(context.Context) error { return nil }
func (h fakeHandle) Close() error                  { return nil }

type fakeFramework struct{ plan *framework.Plan }

func (f fakeFramework) Describe(context.Context) (*framework.Info, error) {
	return &framework.Info{}, nil
}
func (f fakeFramework) Plan(context.Context, *framework.PlanRequest) (*framework.PlanResponse, error) {
	return &framework.PlanResponse{Plan: f.plan}, nil
}

// The host checks every planned op and dtype against what both plugins
// declare before sending anything: an undeclared pair is a SKIP naming the
// plugin, op and dtype, with no Execute call; an undeclared backward only
// skips the backward.
func TestDeclaredSupport(t *testing.T) {
	const js = `{"task": "statistics", "data": {
 "Functional.gelu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [8], "Max": 1, "Min": -1, "requires_grad": true}],
   "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [8], "Max": 1, "Min": 0}]},
 "Functional.gelu.0.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [8], "Max": 1, "Min": 0}], "output": [null]}}}`
	d, err := dump.Parse([]byte(js), "gelu.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	plan := &framework.Plan{Op: "gelu", Attrs: ops.Attrs{"approximate": ops.StringAttr("none"), "inplace": ops.BoolAttr(false)},
		Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0", RequiresGrad: true}}, GradRows: []string{"args.0"}}
	bench := &fakeDevice{info: device.Info{Name: "ref", Ops: []device.OpSupport{{Op: "gelu", DTypes: []tensor.DType{tensor.Float64}, Backward: true}}}}
	run := func(dev *fakeDevice) *report.API {
		o := &Options{Dump: d, Framework: fakeFramework{plan}, Standard: standard.PyTorch{}, Style: report.Style{Flavor: report.PyTorch},
			Device: func(context.Context, int) (Handle, error) { return fakeHandle{dev}, nil }, DeviceName: "npu-x",
			Bench: func(context.Context, int) (Handle, error) { return fakeHandle{bench}, nil }, BenchName: "ref",
			APITimeout: time.Minute}
		w, err := newWorker(context.Background(), o, 0)
		if err != nil {
			t.Fatal(err)
		}
		return w.check(context.Background(), d.Entries[0])
	}

	// gelu declared at float32 only: the bf16 call is not sent.
	dev := &fakeDevice{info: device.Info{Ops: []device.OpSupport{{Op: "gelu", DTypes: []tensor.DType{tensor.Float32}, Backward: true}}}}
	api := run(dev)
	want := "device plugin npu-x does not support op gelu at bfloat16 (it declares float32)"
	if api.Forward != standard.Skip || api.Message != want || dev.calls != 0 || bench.calls != 0 {
		t.Errorf("undeclared dtype: %+v, %d device and %d bench calls", api, dev.calls, bench.calls)
	}
	// No gelu at all.
	dev = &fakeDevice{info: device.Info{Ops: []device.OpSupport{{Op: "relu", DTypes: []tensor.DType{tensor.BFloat16}}}}}
	if api := run(dev); !strings.Contains(api.Message, "device plugin npu-x does not support op gelu (not among the ops it declares)") || dev.calls != 0 {
		t.Errorf("undeclared op: %+v", api)
	}
	// Declared without backward: the forward runs, the backward is SKIP.
	dev = &fakeDevice{info: device.Info{Ops: []device.OpSupport{{Op: "gelu", DTypes: []tensor.DType{tensor.BFloat16}}}}}
	api = run(dev)
	if dev.calls != 1 || dev.last.Backward || bench.last.Backward || api.Backward != standard.Skip ||
		!strings.Contains(api.Message, "device plugin npu-x does not support the backward of op gelu") {
		t.Errorf("no backward: %+v (device backward %v)", api, dev.last.Backward)
	}
	// Declared with backward: both directions run.
	dev = &fakeDevice{info: device.Info{Ops: []device.OpSupport{{Op: "gelu", DTypes: []tensor.DType{tensor.BFloat16}, Backward: true}}}}
	if api := run(dev); dev.calls != 1 || !dev.last.Backward || api.Backward == standard.Skip {
		t.Errorf("declared backward: %+v", api)
	}
}

// A framework plugin's plan is input the host does not trust: output
// indices out of range (negative, beyond the op's outputs, or absurdly
// large for a gradient) give an error row, never a panic or a huge
// allocation.
func TestBadPlanIndices(t *testing.T) {
	const js = `{"task": "statistics", "data": {
 "Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": -1, "requires_grad": true}],
   "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": 0}]},
 "Functional.relu.0.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": 0}], "output": [null]}}}`
	d, err := dump.Parse([]byte(js), "relu.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	info := device.Info{Ops: []device.OpSupport{{Op: "relu", DTypes: []tensor.DType{tensor.Float32, tensor.Float64}, Backward: true}}}
	for _, c := range []struct {
		name string
		plan framework.Plan
		want string
	}{
		{"negative compare", framework.Plan{Compare: []int{-1}}, "the plan compares output -1 but the op returned 1"},
		{"compare beyond", framework.Plan{Compare: []int{3}}, "the plan compares output 3 but the op returned 1"},
		{"zero share negative", framework.Plan{Compare: []int{-2}, CompareMode: framework.CompareZeroShare}, "the plan compares output -2 but the op returned 1"},
		{"zero share beyond", framework.Plan{Compare: []int{5}, CompareMode: framework.CompareZeroShare}, "the plan compares output 5 but the op returned 1"},
		{"huge gradient output", framework.Plan{GradOutputs: []int{1 << 40}}, "gradient output 1099511627776 out of range"},
	} {
		plan := c.plan
		plan.Op = "relu"
		plan.Inputs = []framework.Binding{{Kind: framework.BindTensor, Path: "args.0", RequiresGrad: true}}
		plan.GradRows = []string{"args.0"}
		o := &Options{Dump: d, Framework: fakeFramework{&plan}, Standard: standard.PyTorch{}, Style: report.Style{Flavor: report.PyTorch},
			Device: func(context.Context, int) (Handle, error) { return fakeHandle{&fakeDevice{info: info}}, nil }, DeviceName: "npu-x",
			Bench: func(context.Context, int) (Handle, error) { return fakeHandle{&fakeDevice{info: info}}, nil }, BenchName: "ref",
			APITimeout: time.Minute}
		w, err := newWorker(context.Background(), o, 0)
		if err != nil {
			t.Fatal(err)
		}
		api := w.check(context.Background(), d.Entries[0])
		var msgs []string
		for _, det := range api.Details {
			msgs = append(msgs, det.Row.Message)
		}
		all := api.Message + " | " + strings.Join(msgs, " | ")
		if !strings.Contains(all, c.want) {
			t.Errorf("%s: %s/%s %q, want a row saying %q", c.name, api.Forward, api.Backward, all, c.want)
		}
	}
}

// addSlowest keeps the SlowestN longest, longest first, whatever the order
// they come in.
func TestAddSlowest(t *testing.T) {
	var list []APITime
	for i, ms := range []int{5, 1, 9, 7, 3, 8, 2, 9, 6} {
		list = addSlowest(list, APITime{fmt.Sprint("api", i), time.Duration(ms) * time.Millisecond})
	}
	var got []int
	for _, a := range list {
		got = append(got, int(a.Took/time.Millisecond))
	}
	if want := []int{9, 9, 8, 7, 6}; !slices.Equal(got, want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	if list[0].Name != "api2" || list[1].Name != "api7" {
		t.Fatalf("ties: %v (the first seen stays first)", list)
	}
}
