package run

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
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

// blockingDevice runs until its context ends, like a slow kernel
// interrupted by Ctrl-C; start is called on every call (the device and
// the bench share one that closes a channel once).
type blockingDevice struct {
	fakeDevice
	start func()
}

func (d *blockingDevice) Execute(ctx context.Context, _ *device.ExecRequest) (*device.ExecResult, error) {
	d.start()
	<-ctx.Done()
	return nil, ctx.Err()
}

// An API that is running when the run is interrupted gets no row at all
// (not "SKIP, context canceled"), so that --resume runs it again. The old
// worker chose at random between sending the cancelled API's row and
// stopping, so the test interrupts many runs.
func TestInterruptedAPIHasNoRow(t *testing.T) {
	const js = `{"task": "statistics", "data": {
 "Functional.gelu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": -1, "requires_grad": false}],
   "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": 0}]}}}`
	d, err := dump.Parse([]byte(js), "gelu.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	plan := &framework.Plan{Op: "gelu", Attrs: ops.Attrs{"approximate": ops.StringAttr("none"), "inplace": ops.BoolAttr(false)},
		Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0"}}}
	sup := []device.OpSupport{{Op: "gelu", DTypes: []tensor.DType{tensor.Float32, tensor.Float64}}}
	for i := 0; i < 30; i++ {
		dir := t.TempDir()
		w, err := report.Create(dir, report.PyTorch, time.Unix(0, 0), 14)
		if err != nil {
			t.Fatal(err)
		}
		started := make(chan struct{})
		start := sync.OnceFunc(func() { close(started) })
		dev := &blockingDevice{fakeDevice{info: device.Info{Name: "npu-x", Ops: sup}}, start}
		bench := &blockingDevice{fakeDevice{info: device.Info{Name: "ref", Ops: sup}}, start}
		o := Options{Dump: d, Framework: fakeFramework{plan}, Standard: standard.PyTorch{}, Style: report.Style{Flavor: report.PyTorch},
			Device: func(context.Context, int) (Handle, error) { return fakeHandle{dev}, nil }, DeviceName: "npu-x",
			Bench: func(context.Context, int) (Handle, error) { return fakeHandle{bench}, nil }, BenchName: "ref",
			APITimeout: time.Minute, Writer: w}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		sum, err := Run(ctx, o)
		cancel()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted after 0 of 1") {
			t.Fatalf("run %d: err %v, want the run interrupted after 0 of 1 APIs", i, err)
		}
		if sum.Total != 0 {
			t.Fatalf("run %d: the summary counts %d APIs", i, sum.Total)
		}
		rows, err := report.ReadCSV(w.ResultPath)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 {
			t.Fatalf("run %d: the interrupted API has rows %q; want none, so that --resume runs it", i, rows[1:])
		}
	}
}

// Every worker starts its own device and bench processes: a run never
// starts more workers than it has APIs to check (issue 9, finding 2).
func TestWorkersAtMostAPIs(t *testing.T) {
	const js = `{"task": "statistics", "data": {
 "Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": -1, "requires_grad": false}],
   "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": 0}]}}}`
	d, err := dump.Parse([]byte(js), "relu.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	plan := &framework.Plan{Op: "relu", Attrs: ops.Attrs{"inplace": ops.BoolAttr(false)},
		Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0"}}}
	sup := []device.OpSupport{{Op: "relu", DTypes: []tensor.DType{tensor.Float32, tensor.Float64}}}
	w, err := report.Create(t.TempDir(), report.PyTorch, time.Unix(0, 0), 14)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var opened atomic.Int32
	open := func(context.Context, int) (Handle, error) {
		opened.Add(1)
		return fakeHandle{&fakeDevice{info: device.Info{Name: "x", Ops: sup}}}, nil
	}
	sum, err := Run(context.Background(), Options{Dump: d, Framework: fakeFramework{plan}, Standard: standard.PyTorch{},
		Style: report.Style{Flavor: report.PyTorch}, Device: open, Bench: open, DeviceName: "x", BenchName: "x",
		APITimeout: time.Minute, Writer: w, Workers: 32})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Workers != 1 || opened.Load() != 2 {
		t.Errorf("32 workers asked for one API: %d workers started, %d plugins opened; want 1 and 2", sum.Workers, opened.Load())
	}
}
