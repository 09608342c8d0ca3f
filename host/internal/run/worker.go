package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/probe-dev/probe/host/internal/dump"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// msprobe's message for a missing gradient row.
const noGradMessage = "Bench output is None, skip this test."

type role struct {
	name     string
	h        Handle
	restarts int
}

type worker struct {
	o             *Options
	id            int
	device, bench *role
	std           standard.Standard
}

func newWorker(ctx context.Context, o *Options, id int) (*worker, error) {
	w := &worker{o: o, id: id, std: standard.PyTorch{Compat: o.Compat}}
	if o.Flavor == report.MindSpore {
		w.std = standard.MindSpore{Compat: o.Compat}
	}
	dev, err := o.Device(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("worker %d: device plugin: %w", id, err)
	}
	bench, err := o.Bench(ctx, id)
	if err != nil {
		dev.Close()
		return nil, fmt.Errorf("worker %d: bench plugin: %w", id, err)
	}
	w.device, w.bench = &role{name: "device", h: dev}, &role{name: "bench", h: bench}
	return w, nil
}

func (w *worker) close() {
	w.device.h.Close()
	w.bench.h.Close()
}

// exec runs one request under the per-API timeout. A crash or a hang
// restarts the plugin and returns an *errCrash.
func (w *worker) exec(ctx context.Context, r *role, req *device.ExecRequest) (*device.ExecResult, error) {
	cctx, cancel := context.WithTimeout(ctx, w.o.APITimeout)
	defer cancel()
	res, err := r.h.Device().Execute(cctx, req)
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// gRPC may report the deadline a moment before the context's own timer
	// fires, so the error itself counts too.
	hung := errors.Is(cctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
	if !hung && (w.o.IsCrash == nil || !w.o.IsCrash(err)) {
		return nil, err
	}
	if hung {
		err = fmt.Errorf("no answer within %v (api_timeout): %w", w.o.APITimeout, err)
	}
	if r.restarts >= w.o.MaxRestarts {
		return nil, &errCrash{r.name, fmt.Errorf("%w; not restarted: max_restarts (%d) reached", err, w.o.MaxRestarts)}
	}
	r.restarts++
	if rerr := r.h.Restart(ctx); rerr != nil {
		return nil, &errCrash{r.name, fmt.Errorf("%w; restart failed: %v", err, rerr)}
	}
	return nil, &errCrash{r.name, fmt.Errorf("%w (plugin restarted)", err)}
}

// check runs one API and returns its rows.
func (w *worker) check(ctx context.Context, e *dump.Entry) *report.API {
	if e.Skip != "" {
		return w.skipAPI(e.Name, e.Skip)
	}
	if listed(e.API, w.o.BlackList, w.o.WhiteList) {
		return w.skipAPI(e.Name, listedMessage(e.API))
	}
	call := e.Forward
	if w.o.Flavor == report.PyTorch {
		call = convertCall(e.API, call)
	}
	req := &framework.PlanRequest{API: e.Name, Args: call.Args, Kwargs: call.Kwargs, Outputs: call.Outputs, HasBackward: e.Backward != nil}
	pctx, cancel := context.WithTimeout(ctx, w.o.APITimeout)
	resp, err := w.o.Framework.Plan(pctx, req)
	cancel()
	if err != nil {
		return w.skipAPI(e.Name, "framework plugin: "+err.Error())
	}
	if resp.Plan == nil {
		return w.skipAPI(e.Name, resp.Skip)
	}
	plan := resp.Plan
	u, err := w.build(e, call, plan)
	if err != nil {
		return w.skipAPI(e.Name, err.Error())
	}

	benchRes, err := w.exec(ctx, w.bench, u.benchReq)
	if err == nil {
		var devRes *device.ExecResult
		devRes, err = w.exec(ctx, w.device, u.devReq)
		if err == nil {
			api := w.judge(e, plan, u, benchRes, devRes)
			w.saveErrorData(api, u, benchRes, devRes)
			return api
		}
	}
	if isCrash(err) {
		return w.errorAPI(e.Name, u.backward, err.Error())
	}
	return w.skipAPI(e.Name, err.Error())
}

// skipAPI is an API that could not be run: SKIP, SKIP and the reason.
func (w *worker) skipAPI(name, reason string) *report.API {
	a := &report.API{Name: name, Forward: standard.Skip, Backward: standard.Skip, Message: reason}
	if w.o.Flavor == report.PyTorch {
		a.Details = []report.Detail{{Name: name + ".forward.output.0", Row: standard.Row{Status: standard.Skip, Message: reason}}}
	}
	return a
}

// errorAPI is an API whose plugin crashed or hung.
func (w *worker) errorAPI(name string, backward bool, reason string) *report.API {
	bw := standard.Space
	if backward {
		bw = standard.Error
	}
	if w.o.Flavor == report.MindSpore && !backward {
		bw = ""
	}
	return &report.API{Name: name, Forward: standard.Error, Backward: bw, Message: reason,
		Details: []report.Detail{{Name: name + ".forward.output.0", Row: standard.Row{Status: standard.Error, Message: reason}}}}
}

// judge compares the two sides and builds the API's rows.
func (w *worker) judge(e *dump.Entry, plan *framework.Plan, u *unit, bench, dev *device.ExecResult) *report.API {
	api := &report.API{Name: e.Name}
	short := e.API
	dropout := strings.Contains(e.Name, "dropout")

	// Forward.
	idx := plan.Compare
	if idx == nil {
		for i := range bench.Outputs {
			idx = append(idx, i)
		}
	}
	var fwd []report.Detail
	fwdStatus := ""
	switch {
	case len(bench.Outputs) > len(dev.Outputs):
		fwd = []report.Detail{{Name: e.Name + ".forward.output.0", Row: standard.Row{Status: standard.Error, Message: "bench and npu output structure is different."}}}
	case dropout:
		if len(idx) > 0 {
			fwdStatus, fwd = w.dropoutRow(e.Name+".forward.output.0", bench.Outputs[idx[0]], dev.Outputs[idx[0]])
		}
	default:
		for k, i := range idx {
			if i >= len(bench.Outputs) {
				fwd = append(fwd, report.Detail{Name: fmt.Sprintf("%s.forward.output.%d", e.Name, k), Row: standard.Row{Status: standard.Error, Message: fmt.Sprintf("the plan compares output %d but the op returned %d", i, len(bench.Outputs))}})
				continue
			}
			row := w.std.Judge(standard.Pair{API: short, Bench: bench.Outputs[i], Device: dev.Outputs[i]})
			fwd = append(fwd, report.Detail{Name: fmt.Sprintf("%s.forward.output.%d", e.Name, k), Row: row})
		}
	}

	// Backward.
	var bwd []report.Detail
	bwdStatus := ""
	if u.backwardMessage != "" {
		bwdStatus = standard.Skip
		if w.o.Flavor == report.PyTorch {
			bwd = []report.Detail{{Name: e.Name + ".backward.output.0", Row: standard.Row{Status: standard.Skip, Message: u.backwardMessage}}}
		}
	} else if u.backward {
		pairs := w.gradPairs(u, bench, dev)
		if dropout {
			if len(pairs) > 0 && pairs[0].bench != nil && pairs[0].dev != nil {
				bwdStatus, bwd = w.dropoutRow(e.Name+".backward.output.0", pairs[0].bench, pairs[0].dev)
			}
		} else {
			k := 0
			for _, p := range pairs {
				name := fmt.Sprintf("%s.backward.output.%d", e.Name, k)
				if p.bench == nil || p.dev == nil {
					if w.o.Flavor == report.MindSpore {
						continue // trimmed, mindspore-precheck §4.9
					}
					bwd = append(bwd, report.Detail{Name: name, Row: standard.Row{Status: standard.Skip, Message: noGradMessage}})
				} else {
					bwd = append(bwd, report.Detail{Name: name, Row: w.std.Judge(standard.Pair{API: short, Bench: p.bench, Device: p.dev})})
				}
				k++
			}
		}
	}

	api.Details = append(fwd, bwd...)
	if fwdStatus == "" {
		fwdStatus = w.aggregateRows(fwd)
	}
	if bwdStatus == "" {
		bwdStatus = w.aggregateRows(bwd)
	}
	api.Forward, api.Backward = fwdStatus, bwdStatus
	if w.o.Flavor == report.PyTorch {
		if api.Backward == "" {
			api.Backward = standard.Space
		}
		if u.backwardMessage != "" {
			api.Message = u.backwardMessage
		} else {
			// msprobe writes no Message cell here; probe writes an empty one
			// so that every row has 4 fields (pytorch-precheck §12 #21).
			api.OmitMessage = w.o.Compat
		}
		return api
	}
	// MindSpore: message only when something failed.
	if !(api.Forward == standard.Pass && (api.Backward == standard.Pass || api.Backward == "")) {
		for _, d := range api.Details {
			if d.Status == standard.Error {
				api.Message += d.Message
			}
		}
		if u.backwardMessage != "" {
			api.Message += u.backwardMessage
		}
	}
	return api
}

// aggregateRows is the API-level status of one direction ("" with no rows).
// PyTorch: any error -> error, else any Warning -> Warning, else pass; a
// direction whose rows are all SKIP is SKIP (msprobe says pass: §12 #2).
// With Compat, msprobe's order-dependent rule (§5.2).
func (w *worker) aggregateRows(rows []report.Detail) string {
	if len(rows) == 0 {
		return ""
	}
	st := make([]string, len(rows))
	allSkip := true
	for i, r := range rows {
		st[i] = r.Status
		allSkip = allSkip && r.Status == standard.Skip
	}
	if w.o.Flavor == report.PyTorch {
		if w.o.Compat {
			return standard.AggregateCompat(st)
		}
		if allSkip {
			return standard.Skip
		}
		return standard.Aggregate(st)
	}
	for _, s := range st { // MindSpore: pass only when every row passes
		if s != standard.Pass {
			return standard.Error
		}
	}
	return standard.Pass
}

// dropoutRow judges a dropout output by the share of zeros
// (pytorch-precheck §5.6). msprobe writes no details row for it (§12 #5);
// probe writes one, unless Compat.
func (w *worker) dropoutRow(name string, b, d *tensor.Tensor) (string, []report.Detail) {
	zb, zd := zeros(b), zeros(d)
	st := standard.Pass
	if !dropoutCountsOK(b.Len(), d.Len(), zb, zd) {
		st = standard.Error
	}
	if w.o.Compat {
		return st, nil
	}
	msg := fmt.Sprintf("Dropout: judged by the share of zeros: bench %d/%d, device %d/%d (pass when the shares differ by less than 0.1, or with fewer than 100 elements).\n", zb, b.Len(), zd, d.Len())
	return st, []report.Detail{{Name: name, Row: standard.Row{BenchDType: b.DType.TorchName(), DeviceDType: d.DType.TorchName(), Shape: tensor.ShapeString(d.Shape), Status: st, Message: msg}}}
}

func zeros(t *tensor.Tensor) int {
	n := 0
	for i := 0; i < t.Len(); i++ {
		if t.At(i) == 0 {
			n++
		}
	}
	return n
}

// dropoutOK is pytorch-precheck §5.6: with at least 100 elements, the
// shares of zeros on both sides differ by less than 0.1.
func dropoutOK(b, d *tensor.Tensor) bool {
	return dropoutCountsOK(b.Len(), d.Len(), zeros(b), zeros(d))
}

// dropoutCountsOK is dropoutOK on element counts n (bench), m (device) and
// zero counts zb, zd.
func dropoutCountsOK(n, m, zb, zd int) bool {
	if n < 100 || m != n {
		return n < 100
	}
	diff := zb - zd
	if diff < 0 {
		diff = -diff
	}
	return float64(diff)/float64(n) < 0.1
}

type gradPair struct{ bench, dev *tensor.Tensor }

// gradPairs lists the gradient rows: for PyTorch one per tensor of the
// positional arguments, in order (nil sides give "Bench output is None"
// rows); for MindSpore one per top-level positional float tensor.
func (w *worker) gradPairs(u *unit, bench, dev *device.ExecResult) []gradPair {
	var out []gradPair
	for _, path := range u.gradRows {
		var p gradPair
		for i, ip := range u.inputPaths {
			if ip != path || !u.devReq.RequiresGrad[i] {
				continue
			}
			if i < len(bench.InputGrads) && bench.InputGrads[i] != nil {
				p.bench = bench.InputGrads[i]
			}
			if i < len(dev.InputGrads) && dev.InputGrads[i] != nil {
				p.dev = dev.InputGrads[i]
			}
			break
		}
		out = append(out, p)
	}
	return out
}

// unit is one API made concrete: the two requests and how rows map back.
type unit struct {
	call             *dump.Call
	tensors          map[string]*tensor.Tensor // the loaded or generated tensors, by path
	grads            []*tensor.Tensor          // the dumped gradients (one per fed output), when backward runs
	devReq, benchReq *device.ExecRequest
	inputPaths       []string // dumped path of each op input ("" for constants)
	gradRows         []string // tensor paths whose gradients make the backward rows
	backward         bool
	backwardMessage  string
}
