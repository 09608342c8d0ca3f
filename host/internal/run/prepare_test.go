package run

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
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

// warmDevice says it can lend warm bytes without growing shared memory,
// and reports each time it is asked on asked.
type warmDevice struct {
	fakeDevice
	warm  int64
	asked chan struct{}
}

func (d *warmDevice) WarmBytes() int64 {
	select {
	case d.asked <- struct{}{}:
	default:
	}
	return d.warm
}

// preparingWorker returns a worker over two relu calls of n float32
// elements each, in a dump read by Open (entries converted on demand),
// whose plugins say they hold warm bytes idle, with a memory budget of
// budget bytes (0: none).
func preparingWorker(t *testing.T, n int, warm, budget int64) (*worker, *dump.Dump) {
	t.Helper()
	entry := func(i string) string {
		return `"Functional.relu.` + i + `.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [` +
			strconv.Itoa(n) + `], "Max": 1, "Min": -1, "requires_grad": false}], "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [` +
			strconv.Itoa(n) + `], "Max": 1, "Min": 0}]}`
	}
	path := filepath.Join(t.TempDir(), "dump.json")
	js := `{"task": "statistics", "data": {` + entry("0") + `, ` + entry("1") + `}}`
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := dump.Open(path, "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	plan := &framework.Plan{Op: "relu", Attrs: ops.Attrs{"inplace": ops.BoolAttr(false)},
		Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0"}}}
	sup := []device.OpSupport{{Op: "relu", DTypes: []tensor.DType{tensor.Float32, tensor.Float64}}}
	open := func(context.Context, int) (Handle, error) {
		return fakeHandle{&warmDevice{fakeDevice: fakeDevice{info: device.Info{Name: "x", Ops: sup}}, warm: warm, asked: make(chan struct{}, 1)}}, nil
	}
	o := &Options{Dump: d, Framework: fakeFramework{plan}, Standard: standard.PyTorch{}, Style: report.Style{Flavor: report.PyTorch},
		Device: open, Bench: open, DeviceName: "x", BenchName: "x", APITimeout: time.Minute, Workers: 1, MemoryBudget: budget}
	w, err := newWorker(context.Background(), o, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.close)
	return w, d
}

// jobsOf queues every entry of d.
func jobsOf(d *dump.Dump) <-chan job {
	jobs := make(chan job, len(d.Entries))
	for i, e := range d.Entries {
		jobs <- job{i, e}
	}
	close(jobs)
	return jobs
}

// guard fails the test if what it waits for takes minutes: a preparer that
// waits for something that never comes, rather than a slow one.
const guard = 2 * time.Minute

// An API whose tensors do not fit in the shared memory the plugins hold
// idle is not prepared while another runs: its inputs would grow a second
// segment, faulting in fresh pages that then stay for the whole run. It is
// prepared once the one before it is done.
func TestPrepareAheadWaitsForWarmMemory(t *testing.T) {
	n := 1 << 23 // the bench's side: 2 × 8 Mi × 8 bytes = 128 MiB, over warmSlack
	w, d := preparingWorker(t, n, 0, 0)
	if got := sideBytes(materialized(d, d.Entries[1]), true); got <= warmSlack {
		t.Fatalf("sideBytes of the bench's side = %d, want over warmSlack (%d)", got, warmSlack)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, freed := w.prepareAhead(ctx, jobsOf(d))
	first := <-out
	if first.p.u == nil {
		t.Fatalf("first API not prepared: %+v", first.p.done)
	}
	asked := w.device.h.Device().(*warmDevice).asked
	select {
	case <-asked:
	case pj := <-out:
		t.Fatalf("%s prepared while %s still runs, with no warm shared memory for it", pj.p.e.Name, first.p.e.Name)
	case <-time.After(guard):
		t.Fatal("the preparer never asked how much shared memory is warm")
	}
	first.p.u.release()
	freed <- first.need
	select {
	case second := <-out:
		if second.p.u == nil {
			t.Fatalf("second API not prepared: %+v", second.p.done)
		}
		second.p.u.release()
	case <-time.After(guard):
		t.Fatal("the second API was not prepared after the first was done")
	}
}

// With enough warm shared memory, and no memory budget in the way, the
// next API is prepared while the one before it runs.
func TestPrepareAheadOverlapsWhenWarm(t *testing.T) {
	w, d := preparingWorker(t, 1<<23, 1<<40, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, _ := w.prepareAhead(ctx, jobsOf(d))
	first := <-out
	defer first.p.u.release()
	select {
	case second := <-out:
		second.p.u.release()
	case <-time.After(guard):
		t.Fatal("the second API was not prepared while the first was held")
	}
}

// The memory budget counts an API's estimate (NeedBytes) before it is
// prepared, also for entries a dump read by Open converts on demand: the
// next API waits when both would not fit in the budget.
func TestPrepareAheadCountsLazyEntries(t *testing.T) {
	n := 1 << 20
	w, d := preparingWorker(t, n, 1<<40, 0)
	need := NeedBytes(materialized(d, d.Entries[0]))
	d.Release(d.Entries[0])
	if need == 0 {
		t.Fatal("NeedBytes of a relu over 1 Mi elements is 0")
	}
	w.o.MemoryBudget = need + need/2 // room for one, not two
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, freed := w.prepareAhead(ctx, jobsOf(d))
	first := <-out
	if first.need != need {
		t.Fatalf("the first API holds %d bytes of the budget, want its estimate %d", first.need, need)
	}
	// Preparing a relu takes milliseconds: a preparer that does not wait
	// hands the second over well within the grace period.
	select {
	case second := <-out:
		t.Fatalf("%s prepared before %s gave its share of the budget back", second.p.e.Name, first.p.e.Name)
	case <-time.After(2 * time.Second):
	}
	first.p.u.release()
	freed <- first.need
	select {
	case second := <-out:
		second.p.u.release()
	case <-time.After(guard):
		t.Fatal("the second API was not prepared after the first gave its share back")
	}
}

// materialized converts e (a dump read by Open converts entries on
// demand) and returns it.
func materialized(d *dump.Dump, e *dump.Entry) *dump.Entry {
	d.Materialize(e)
	return e
}

// rejectingDevice is fakeDevice rejecting every call with a backward as
// the framework would (an *ops.ArgumentError).
type rejectingDevice struct{ fakeDevice }

func (d *rejectingDevice) Execute(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	if req.Backward {
		return nil, ops.Errorf("Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([8]).")
	}
	return d.fakeDevice.Execute(ctx, req)
}

// A call the framework rejects only with its backward (a statistics-mode
// masked_select whose generated mask selects another count than the
// dumped gradient holds) keeps its forward row: the forward runs alone
// and the backward is a SKIP saying why.
func TestBackwardRejectedForwardChecked(t *testing.T) {
	const js = `{"task": "statistics", "data": {
 "Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": -1, "requires_grad": true}],
   "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": 0}]},
 "Functional.relu.0.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": -1}],
   "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [8], "Max": 1, "Min": -1}]}}}`
	d, err := dump.Parse([]byte(js), "relu.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	plan := &framework.Plan{Op: "relu", Attrs: ops.Attrs{"inplace": ops.BoolAttr(false)},
		Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0", RequiresGrad: true}}}
	sup := []device.OpSupport{{Op: "relu", DTypes: []tensor.DType{tensor.Float32, tensor.Float64}, Backward: true}}
	w, err := report.Create(t.TempDir(), report.PyTorch, time.Unix(0, 0), 14)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	open := func(context.Context, int) (Handle, error) {
		return fakeHandle{&rejectingDevice{fakeDevice{info: device.Info{Name: "x", Ops: sup}}}}, nil
	}
	sum, err := Run(context.Background(), Options{Dump: d, Framework: fakeFramework{plan}, Standard: standard.PyTorch{},
		Style: report.Style{Flavor: report.PyTorch}, Device: open, Bench: open, DeviceName: "x", BenchName: "x",
		APITimeout: time.Minute, Writer: w})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := report.ReadCSV(w.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 1 || len(rows) != 2 {
		t.Fatalf("%d APIs, rows %q; want one API", sum.Total, rows)
	}
	if r := rows[1]; r[1] != "pass" || r[2] != "SKIP" || !strings.Contains(r[3], "Mismatch in shape") {
		t.Errorf("row %q: want the forward passed and the backward a SKIP naming the rejection", r)
	}
}
