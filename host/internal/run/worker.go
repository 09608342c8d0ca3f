package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/probe-dev/probe/host/internal/killpoint"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// role is the device-under-test or the bench of one worker.
type role struct {
	name     string // "device" or "bench"
	plugin   string // its name in probe.toml, for messages
	h        Handle
	info     *device.Info // what it declared after Configure
	restarts int
	// dead is set when the plugin crashed and could not be restarted.
	dead error
}

type worker struct {
	o             *Options
	id            int
	device, bench *role
	// dead is set when a plugin crashed and could not be restarted: the
	// worker stops rather than blame the crash on the APIs after it.
	// (Each role records its own death while both run; finish merges.)
	dead error
	// t is the time this worker spent in each phase.
	t Timings
	// slowest are the APIs whose device calls and judging took longest.
	slowest []APITime
}

func newWorker(ctx context.Context, o *Options, id int) (*worker, error) {
	w := &worker{o: o, id: id}
	var dev Handle
	if !o.DeviceDumped {
		var err error
		if dev, err = o.Device(ctx, id); err != nil {
			return nil, fmt.Errorf("worker %d: device plugin: %w", id, err)
		}
	}
	bench, err := o.Bench(ctx, id)
	if err != nil {
		if dev != nil {
			dev.Close()
		}
		return nil, fmt.Errorf("worker %d: bench plugin: %w", id, err)
	}
	w.device = &role{name: "device", plugin: o.DeviceName, h: dev}
	w.bench = &role{name: "bench", plugin: o.BenchName, h: bench}
	// What a device supports can depend on its configuration (the device
	// it was given), so it is asked again now that it is configured.
	for _, r := range []*role{w.device, w.bench} {
		if r.h == nil {
			continue // the dumped outputs
		}
		if r.info, err = r.h.Device().Describe(ctx); err != nil {
			w.close()
			return nil, fmt.Errorf("worker %d: %s plugin %s: Describe: %w", id, r.name, r.plugin, err)
		}
	}
	return w, nil
}

func (w *worker) close() {
	if w.device.h != nil {
		w.device.h.Close()
	}
	w.bench.h.Close()
}

// viewer is a device whose results may stay in the transport's shared
// memory until released (pluginrpc's client).
type viewer interface {
	ExecuteViews(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, func(), error)
}

// leaser is a device that lends shared memory for a call's inputs ahead of
// it (pluginhost's device): ExecuteLeased sends what was placed there by
// reference, and its results stay valid until the lease is released.
type leaser interface {
	Lease() *transport.Lease
	ExecuteLeased(ctx context.Context, req *device.ExecRequest, lease *transport.Lease) (*device.ExecResult, func(), error)
}

// exec runs one request under the per-API timeout. A crash or a hang
// restarts the plugin and returns an *errCrash. The result may be views of
// shared memory: release (never nil) ends them, once the result is judged.
func (w *worker) exec(ctx context.Context, r *role, req *device.ExecRequest, lease *transport.Lease) (res *device.ExecResult, release func(), err error) {
	cctx, cancel := context.WithTimeout(ctx, w.o.APITimeout)
	defer cancel()
	release = func() {}
	if l, ok := r.h.Device().(leaser); ok && lease != nil {
		res, release, err = l.ExecuteLeased(cctx, req, lease)
	} else if v, ok := r.h.Device().(viewer); ok {
		res, release, err = v.ExecuteViews(cctx, req)
	} else {
		res, err = r.h.Device().Execute(cctx, req)
	}
	if err == nil {
		return res, release, nil
	}
	release()
	release = func() {}
	res, err = w.handleFailure(ctx, cctx, r, err)
	return res, release, err
}

// handleFailure handles the error of a request: a hang or a crash restarts the
// plugin (an *errCrash), anything else is returned as it is.
func (w *worker) handleFailure(ctx, cctx context.Context, r *role, err error) (*device.ExecResult, error) {
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
		r.dead = fmt.Errorf("%s plugin %s crashed and max_restarts (%d) is reached", r.name, r.plugin, w.o.MaxRestarts)
		return nil, &errCrash{r.name, fmt.Errorf("%w; not restarted: max_restarts (%d) reached", err, w.o.MaxRestarts)}
	}
	r.restarts++
	if rerr := r.h.Restart(ctx); rerr != nil {
		r.dead = fmt.Errorf("%s plugin %s crashed and could not be restarted: %v", r.name, r.plugin, rerr)
		return nil, &errCrash{r.name, fmt.Errorf("%w; restart failed: %v", err, rerr)}
	}
	return nil, &errCrash{r.name, fmt.Errorf("%w (plugin restarted)", err)}
}

// unsupported says why role r cannot run req (the op, or the op at the
// call's dtype, is not among what the plugin declares), or "" when it can.
// backward is set when it runs the forward but not the op's backward.
func (r *role) unsupported(req *device.ExecRequest) (reason string, backward bool) {
	dt := device.CallDType(req.Inputs)
	if dt == tensor.Invalid {
		return "", false // no tensor input: nothing to match
	}
	fwd, bwd := r.info.Supports(req.Op, dt)
	if !fwd {
		var have []string
		for _, s := range r.info.Ops {
			if s.Op == req.Op {
				for _, d := range s.DTypes {
					have = append(have, d.String())
				}
			}
		}
		if have == nil {
			return fmt.Sprintf("%s plugin %s does not support op %s (not among the ops it declares)", r.name, r.plugin, req.Op), false
		}
		return fmt.Sprintf("%s plugin %s does not support op %s at %s (it declares %s)", r.name, r.plugin, req.Op, dt, strings.Join(have, ", ")), false
	}
	if req.Backward && !bwd {
		return fmt.Sprintf("%s plugin %s does not support the backward of op %s, skip backward.", r.name, r.plugin, req.Op), true
	}
	return "", false
}

// check runs one API and returns its rows.
func (w *worker) check(ctx context.Context, e *dump.Entry) *report.API {
	return w.finish(ctx, w.prepare(ctx, e))
}

// prepared is an API planned and with its inputs built, or already
// decided (a SKIP before any device call).
type prepared struct {
	e    *dump.Entry
	u    *unit
	done *report.API
}

// prepare plans one API and builds its two requests. The entry stays
// materialized until finish.
func (w *worker) prepare(ctx context.Context, e *dump.Entry) *prepared {
	// Only the entries being checked are held converted (dump.Open).
	w.o.Dump.Materialize(e)
	style := w.o.Style
	compat := ""
	if w.o.Compat {
		compat = "msprobe"
	}
	if e.Skip == "" {
		if why := w.overBudget(e); why != "" {
			return &prepared{e: e, done: style.Skip(e.Name, why)}
		}
	}
	u, why := w.unitFor(ctx, e, compat)
	if u == nil {
		return &prepared{e: e, done: style.Skip(e.Name, why)}
	}
	return &prepared{e: e, u: u}
}

// finish runs a prepared API on the bench and the device and judges it.
func (w *worker) finish(ctx context.Context, p *prepared) *report.API {
	e, u := p.e, p.u
	defer w.o.Dump.Release(e)
	if p.done != nil {
		return p.done
	}
	defer u.release()
	start := time.Now()
	defer func() { w.slowest = addSlowest(w.slowest, APITime{e.Name, time.Since(start)}) }()
	style := w.o.Style
	plan := u.plan

	// Declared support first: an op or dtype a plugin does not declare is
	// a SKIP without a round trip; a missing backward skips the backward.
	for _, x := range []struct {
		r   *role
		req *device.ExecRequest
	}{{w.bench, u.benchReq}, {w.device, u.devReq}} {
		if x.r.h == nil {
			continue // the dumped outputs
		}
		reason, bwdOnly := x.r.unsupported(x.req)
		switch {
		case reason == "":
		case !bwdOnly:
			return style.Skip(e.Name, reason)
		default:
			u.skipBackward(reason)
		}
	}

	// The bench and the device are separate processes: they run the API
	// at the same time.
	var (
		benchRes, devRes         *device.ExecResult
		benchErr, devErr         error
		benchRelease, devRelease = func() {}, func() {}
	)
	defer func() {
		benchRelease()
		devRelease()
	}()
	// one role's call, between its two kill points, timed into spent
	call := func(r *role, req *device.ExecRequest, lease *transport.Lease, sent, done string, spent *time.Duration) (*device.ExecResult, func(), error) {
		killpoint.Hit(sent, e.Name)
		t0 := time.Now()
		res, release, err := w.exec(ctx, r, req, lease)
		*spent += time.Since(t0)
		killpoint.Hit(done, e.Name)
		return res, release, err
	}
	runBench := func() {
		benchRes, benchRelease, benchErr = call(w.bench, u.benchReq, u.benchLease, killpoint.BenchSent, killpoint.BenchDone, &w.t.Bench)
	}
	runDevice := func() {
		if w.o.DeviceDumped {
			t0 := time.Now()
			devRes, devErr = w.dumpedResult(e, u)
			w.t.Device += time.Since(t0)
			return
		}
		devRes, devRelease, devErr = call(w.device, u.devReq, u.devLease, killpoint.DeviceSent, killpoint.DeviceDone, &w.t.Device)
	}
	// Copies, the memory estimate every API is held to, was measured with
	// both sides running at once.
	runBoth := func() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			runDevice()
		}()
		runBench()
		<-done
		w.dead = errors.Join(w.bench.dead, w.device.dead)
	}
	runBoth()
	if msg := backwardRejected(u, benchErr, devErr); msg != "" && w.dead == nil {
		// The framework rejects the call with its backward (a
		// statistics-mode masked_select whose generated mask selects
		// another count than the dumped gradient holds): the forward is
		// checked on its own and the backward is a SKIP saying why.
		benchRelease()
		devRelease()
		benchRelease, devRelease = func() {}, func() {}
		u.skipBackward(msg)
		runBoth()
	}
	if benchErr != nil {
		return w.failed(e, u, w.bench, benchErr)
	}
	if devErr != nil && w.o.DeviceDumped {
		return style.Error(e.Name, u.backward, devErr.Error())
	}
	if w.o.DeviceDumped && benchErr == nil {
		// an API may return fewer outputs than its op (MindSpore's
		// Tensor.max(axis) the values only, flash_attention_score
		// attention_out only): only the compared ones must be there
		for len(devRes.Outputs) < len(benchRes.Outputs) {
			devRes.Outputs = append(devRes.Outputs, nil)
		}
	}
	if devErr != nil {
		return w.failed(e, u, w.device, devErr)
	}
	t2 := time.Now()
	api := w.judge(e, plan, u, benchRes, devRes)
	w.t.Metrics += time.Since(t2)
	killpoint.Hit(killpoint.Judged, e.Name)
	w.saveErrorData(api, u, benchRes, devRes)
	return api
}

// backwardRejected returns why the backward is a SKIP when a call with a
// backward failed as the framework itself would reject it (an
// *ops.ArgumentError), so that the forward may be checked alone; "" when
// there is no backward or no such failure. A forward the framework
// rejects fails again without the backward and SKIPs the API as before.
func backwardRejected(u *unit, errs ...error) string {
	if !u.backward {
		return ""
	}
	for _, err := range errs {
		if err != nil && !isCrash(err) && device.KindOf(err) == device.InvalidArgument {
			return "the call with its backward is rejected: " + err.Error()
		}
	}
	return ""
}

// failed makes the rows of an API whose run on role r returned err, by the
// error's kind: the framework would reject the call (SKIP with its
// reason), the plugin does not support it (SKIP naming the plugin), or a
// failure — a crashed or hung plugin, a kernel or driver error — which is
// an `error` row naming it.
func (w *worker) failed(e *dump.Entry, u *unit, r *role, err error) *report.API {
	style := w.o.Style
	switch {
	case isCrash(err):
		return style.Error(e.Name, u.backward, err.Error())
	}
	switch device.KindOf(err) {
	case device.InvalidArgument:
		return style.Skip(e.Name, err.Error())
	case device.Unsupported:
		return style.Skip(e.Name, fmt.Sprintf("%s plugin %s: %v", r.name, r.plugin, err))
	}
	return style.Error(e.Name, u.backward, fmt.Sprintf("%s plugin %s failed: %v", r.name, r.plugin, err))
}

// skipBackward turns the unit's backward into a SKIP with reason.
func (u *unit) skipBackward(reason string) {
	if !u.backward {
		return
	}
	u.backward, u.backwardMessage = false, reason
	for _, req := range []*device.ExecRequest{u.devReq, u.benchReq} {
		req.Backward, req.GradOutputs = false, nil
	}
}

// judge compares the two sides and builds the API's rows.
func (w *worker) judge(e *dump.Entry, plan *framework.Plan, u *unit, bench, dev *device.ExecResult) *report.API {
	style := w.o.Style
	api := &report.API{Name: e.Name}
	short := e.API
	zeroShare := plan.CompareMode == framework.CompareZeroShare

	// Forward.
	idx := plan.Compare
	if idx == nil {
		for i := range bench.Outputs {
			idx = append(idx, i)
		}
	}
	var fwd []report.Detail
	switch {
	case len(bench.Outputs) > len(dev.Outputs):
		fwd = []report.Detail{{Name: e.Name + ".forward.output.0", Row: standard.Row{Status: standard.Error, Message: "bench and npu output structure is different."}}}
	case zeroShare:
		switch {
		case len(idx) == 0:
		case idx[0] < 0 || idx[0] >= len(bench.Outputs):
			fwd = []report.Detail{{Name: e.Name + ".forward.output.0", Row: standard.Row{Status: standard.Error, Message: fmt.Sprintf("the plan compares output %d but the op returned %d", idx[0], len(bench.Outputs))}}}
		default:
			api.Forward, fwd = w.zeroShareRow(e.Name+".forward.output.0", bench.Outputs[idx[0]], dev.Outputs[idx[0]])
		}
	default:
		for k, i := range idx {
			if i < 0 || i >= len(bench.Outputs) {
				fwd = append(fwd, report.Detail{Name: fmt.Sprintf("%s.forward.output.%d", e.Name, k), Row: standard.Row{Status: standard.Error, Message: fmt.Sprintf("the plan compares output %d but the op returned %d", i, len(bench.Outputs))}})
				continue
			}
			if dev.Outputs[i] == nil {
				fwd = append(fwd, report.Detail{Name: fmt.Sprintf("%s.forward.output.%d", e.Name, k), Row: standard.Row{Status: standard.Error,
					Message: fmt.Sprintf("the device side has no output %d (the dump saved none)", i)}})
				continue
			}
			row := w.o.Standard.Judge(standard.Pair{API: short, Bench: bench.Outputs[i], Device: dev.Outputs[i]})
			fwd = append(fwd, report.Detail{Name: fmt.Sprintf("%s.forward.output.%d", e.Name, k), Row: row})
		}
	}

	// Backward.
	var bwd []report.Detail
	if u.backwardMessage != "" {
		api.Backward = standard.Skip
		bwd = style.BackwardSkipped(e.Name, u.backwardMessage)
	} else if u.backward {
		pairs := w.gradPairs(u, bench, dev)
		if zeroShare {
			if len(pairs) > 0 && pairs[0].bench != nil && pairs[0].dev != nil {
				api.Backward, bwd = w.zeroShareRow(e.Name+".backward.output.0", pairs[0].bench, pairs[0].dev)
			}
		} else {
			k := 0
			for _, p := range pairs {
				name := fmt.Sprintf("%s.backward.output.%d", e.Name, k)
				if p.bench != nil && p.dev == nil && w.o.DeviceDumped {
					// --device dumped: the dump's backward has no gradient
					// that fits this argument
					bwd = append(bwd, report.Detail{Name: name, Row: standard.Row{Status: standard.Skip,
						Message: fmt.Sprintf("the dump saved no gradient of shape %s for this argument: its backward holds %s",
							tensor.ShapeString(p.bench.Shape), dumpedGradShapes(e))}})
					k++
					continue
				}
				if p.bench == nil || p.dev == nil {
					d, ok := style.MissingGrad(name)
					if !ok {
						continue
					}
					bwd = append(bwd, d)
				} else {
					bwd = append(bwd, report.Detail{Name: name, Row: w.o.Standard.Judge(standard.Pair{API: short, Bench: p.bench, Device: p.dev})})
				}
				k++
			}
		}
	}
	style.Finish(api, fwd, bwd, u.backwardMessage)
	return api
}

// zeroShareRow judges the output of a random op (dropout) by the share of
// zeros (pytorch-precheck §5.6). msprobe writes no details row for it
// (§12 #5); probe writes one, unless Compat.
func (w *worker) zeroShareRow(name string, b, d *tensor.Tensor) (string, []report.Detail) {
	zb, zd := zeros(b), zeros(d)
	st := standard.Pass
	if !zeroSharesOK(b.Len(), d.Len(), zb, zd) {
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

// zeroSharesOK is pytorch-precheck §5.6 on element counts n (bench), m
// (device) and zero counts zb, zd: with at least 100 elements, the shares
// of zeros on both sides differ by less than 0.1.
func zeroSharesOK(n, m, zb, zd int) bool {
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

// gradPairs lists the gradient rows: one per path of the plan's GradRows,
// in order; a side without a gradient for it is nil.
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
	plan    *framework.Plan
	call    *dump.Call                // the forward call, descriptors rewritten by the plan
	tensors map[string]*tensor.Tensor // the loaded or generated tensors, by path
	// widened holds the float64 copies of generated tensors made while
	// they were drawn (inputgen.GenerateWidened), by the generated tensor:
	// castTo takes them instead of casting again.
	widened          map[*tensor.Tensor]*tensor.Tensor
	grads            []*tensor.Tensor // the dumped gradients (one per fed output), when backward runs
	devReq, benchReq *device.ExecRequest
	inputPaths       []string // dumped path of each op input ("" for constants)
	gradRows         []string // tensor paths whose gradients make the backward rows
	backward         bool
	backwardMessage  string
	buffers          [][]byte // from hostBuffers, given back by release
	// devLease and benchLease hold the inputs placed in the plugins'
	// shared memory (nil when none is lent), released by release.
	devLease, benchLease *transport.Lease
}

// preparedJob is a job whose API is prepared; need is what it holds of
// the worker's memory share until it is finished.
type preparedJob struct {
	idx  int
	p    *prepared
	need int64
}

// prepareAhead prepares the worker's jobs one ahead of the caller, which
// finishes them in order and sends each one's need on freed once done.
// At most two APIs are held at once (the one finishing and the next), and
// only while their estimates (NeedBytes) fit in the worker's share of the
// memory budget together and the next fits in the plugins' idle shared
// memory (fitsWarm); otherwise the next waits. The channel closes
// when jobs is exhausted or ctx is done.
func (w *worker) prepareAhead(ctx context.Context, jobs <-chan job) (<-chan preparedJob, chan<- int64) {
	out := make(chan preparedJob)
	freed := make(chan int64, 4)
	share := w.share()
	go func() {
		defer close(out)
		var held int64
		for j := range jobs {
			// The estimates read the entry's tensors, which a dump
			// read by Open converts on demand.
			w.o.Dump.Materialize(j.entry)
			need := min(NeedBytes(j.entry), share)
			for held > 0 && (held+need > share || !w.fitsWarm(j.entry)) {
				select {
				case n := <-freed:
					held -= n
				case <-ctx.Done():
					return
				}
			}
			if ctx.Err() != nil {
				return
			}
			held += need
			pj := preparedJob{j.idx, w.prepare(ctx, j.entry), need}
			select {
			case out <- pj:
			case <-ctx.Done():
				w.o.Dump.Release(j.entry)
				return
			}
			for drained := false; !drained; {
				select {
				case n := <-freed:
					held -= n
				default:
					drained = true
				}
			}
		}
	}()
	return out, freed
}

// APITime is how long one API took from its device calls to its verdict.
type APITime struct {
	Name string
	Took time.Duration
}

// SlowestN is how many of the slowest APIs a run reports.
const SlowestN = 5

// addSlowest keeps the SlowestN longest of list and t, longest first.
func addSlowest(list []APITime, t APITime) []APITime {
	i := len(list)
	for i > 0 && list[i-1].Took < t.Took {
		i--
	}
	if i >= SlowestN {
		return list
	}
	list = append(list, APITime{})
	copy(list[i+1:], list[i:])
	list[i] = t
	if len(list) > SlowestN {
		list = list[:SlowestN]
	}
	return list
}
