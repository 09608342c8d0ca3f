package run

import (
	"context"
	"errors"
	"time"

	"github.com/probe-dev/probe/host/internal/killpoint"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/device"
)

// Request is the device-under-test request of one dumped API, exactly as a
// run sends it, or why the run would skip the API.
type Request struct {
	API  string
	Exec *device.ExecRequest
	// Skip is set, and Exec nil, where a run writes a SKIP row before
	// any device is called.
	Skip string
}

// Requests plans every API of o.Dump with o.Framework and builds its
// device request, for tools that run the same calls on two devices and
// compare them directly (no bench, no standard). Only o.Dump, o.Framework,
// o.Seed, o.Compat, o.APITimeout and the lists are read.
func Requests(ctx context.Context, o Options) ([]Request, error) {
	if o.Dump == nil || o.Framework == nil {
		return nil, errors.New("run.Requests: a dump and a framework plugin are needed")
	}
	if o.APITimeout <= 0 {
		o.APITimeout = time.Minute
	}
	w := &worker{o: &o}
	compat := ""
	if o.Compat {
		compat = "msprobe"
	}
	var out []Request
	for _, e := range o.Dump.Entries {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if !writesRow(e) {
			continue
		}
		r := Request{API: e.Name}
		o.Dump.Materialize(e)
		switch u, why := w.unitFor(ctx, e, compat); {
		case u == nil:
			r.Skip = why
		default:
			r.Exec = u.devReq
		}
		o.Dump.Release(e)
		out = append(out, r)
	}
	return out, nil
}

// unitFor plans and builds one API; nil and the reason where a run skips
// it before calling a device.
func (w *worker) unitFor(ctx context.Context, e *dump.Entry, compat string) (*unit, string) {
	if e.Skip != "" {
		return nil, e.Skip
	}
	if listed(e.API, w.o.BlackList, w.o.WhiteList) {
		return nil, listedMessage(e.API)
	}
	req := e.PlanRequest(compat)
	if req == nil {
		return nil, "the dump has no forward call to check"
	}
	killpoint.Hit(killpoint.PlanBefore, e.Name)
	t0 := time.Now()
	pctx, cancel := context.WithTimeout(ctx, w.o.APITimeout)
	resp, err := w.o.Framework.Plan(pctx, req)
	cancel()
	t1 := time.Now()
	w.t.Plan += t1.Sub(t0)
	killpoint.Hit(killpoint.PlanAfter, e.Name)
	if err != nil {
		return nil, "framework plugin: " + err.Error()
	}
	if resp.Plan == nil {
		return nil, resp.Skip
	}
	u, err := w.build(e, resp.Plan)
	w.t.Inputs += time.Since(t1)
	if err != nil {
		return nil, err.Error()
	}
	u.plan = resp.Plan
	return u, ""
}
