package pluginhost

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

// begin picks the running instance and applies the default call deadline.
func (p *Plugin) begin(ctx context.Context, method string) (*instance, context.Context, context.CancelFunc, error) {
	in := p.current()
	if in == nil {
		return nil, nil, nil, fmt.Errorf("%s plugin %q: %s: %w", p.spec.Kind, p.spec.Name, method, ErrClosed)
	}
	cancel := context.CancelFunc(func() {})
	if _, ok := ctx.Deadline(); !ok && p.spec.CallTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, p.spec.CallTimeout)
	}
	return in, ctx, cancel, nil
}

// classify turns the error of a call into a timeout, crash or plain error.
func (p *Plugin) classify(ctx context.Context, in *instance, method, api string, err error) error {
	if err == nil {
		return nil
	}
	var rpcErr *pluginrpc.RPCError
	if !errors.As(err, &rpcErr) {
		return err // the plugin implementation's own error, or a local one
	}
	what := method
	if api != "" {
		what += " of " + api
	}
	ctxErr := ctx.Err()
	// The plugin's side of the deadline may fire first and reach us as a
	// DeadlineExceeded status before our own context notices.
	if ctxErr == nil && status.Code(rpcErr.Err) == codes.DeadlineExceeded {
		ctxErr = context.DeadlineExceeded
	}
	if ctxErr != nil {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return fmt.Errorf("%s plugin %q (pid %d): %s: %w: %w", p.spec.Kind, p.spec.Name, in.pid, what, ErrPluginTimeout, ctxErr)
		}
		return fmt.Errorf("%s plugin %q: %s: %w", p.spec.Kind, p.spec.Name, what, ctxErr)
	}
	if in.killed.Load() {
		return fmt.Errorf("%s plugin %q: %s: plugin was shut down during the call: %w", p.spec.Kind, p.spec.Name, what, ErrClosed)
	}
	if dead, reason := in.waitDead(crashWait); dead {
		ce := &CrashError{
			Plugin: p.spec.Name, Kind: p.spec.Kind, Method: method, API: api,
			Pid: in.pid, Reason: reason, Stderr: in.stderr.String(), Err: err,
		}
		p.logger.Error("plugin crashed", "pid", in.pid, "method", method, "api", api, "reason", reason)
		return ce
	}
	return fmt.Errorf("%s plugin %q: %s: %w", p.spec.Kind, p.spec.Name, what, err)
}

// hostDevice is the restart-proof device.Device of a Plugin.
type hostDevice struct{ p *Plugin }

func (d *hostDevice) Describe(ctx context.Context) (*device.Info, error) {
	in, ctx, cancel, err := d.p.begin(ctx, "Describe")
	if err != nil {
		return nil, err
	}
	defer cancel()
	info, err := in.dev.Describe(ctx)
	return info, d.p.classify(ctx, in, "Describe", "", err)
}

func (d *hostDevice) Configure(ctx context.Context, cfg device.Config) error {
	in, ctx, cancel, err := d.p.begin(ctx, "Configure")
	if err != nil {
		return err
	}
	defer cancel()
	if err := d.p.classify(ctx, in, "Configure", "", in.dev.Configure(ctx, cfg)); err != nil {
		return err
	}
	c := cfg
	if cfg.Options != nil {
		c.Options = make(map[string]string, len(cfg.Options))
		for k, v := range cfg.Options {
			c.Options[k] = v
		}
	}
	d.p.mu.Lock()
	d.p.lastCfg = &c
	d.p.mu.Unlock()
	return nil
}

func (d *hostDevice) Execute(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	res, _, err := d.execute(ctx, req, false, nil)
	return res, err
}

// ExecuteViews is Execute leaving large results in the plugin's shared
// memory until release is called (see pluginrpc); a plugin connection
// without it copies, and release does nothing.
func (d *hostDevice) ExecuteViews(ctx context.Context, req *device.ExecRequest) (res *device.ExecResult, release func(), err error) {
	return d.execute(ctx, req, true, nil)
}

// leaser is a device connection that lends shared memory ahead of a call
// (pluginrpc's client).
type leaser interface {
	Lease() *transport.Lease
	ExecuteLeased(context.Context, *device.ExecRequest, *transport.Lease) (*device.ExecResult, func(), error)
}

// Lease takes shared memory of the running instance for the next call's
// inputs (see transport.Lease), or returns nil when it has none to lend.
// Should the plugin restart before the call, the call copies the inputs
// out of the lease into the new instance's memory.
func (d *hostDevice) Lease() *transport.Lease {
	in := d.p.current()
	if in == nil {
		return nil
	}
	if l, ok := in.dev.(leaser); ok {
		return l.Lease()
	}
	return nil
}

// WarmBytes is how many bytes the running instance's next Lease can hand
// out without growing shared memory, or -1 when it lends none.
func (d *hostDevice) WarmBytes() int64 {
	in := d.p.current()
	if in == nil {
		return -1
	}
	if w, ok := in.dev.(interface{ WarmBytes() int64 }); ok {
		return w.WarmBytes()
	}
	return -1
}

// ExecuteLeased is ExecuteViews with the inputs placed in lease (Lease):
// the results stay valid until the lease is released.
func (d *hostDevice) ExecuteLeased(ctx context.Context, req *device.ExecRequest, lease *transport.Lease) (res *device.ExecResult, release func(), err error) {
	return d.execute(ctx, req, true, lease)
}

func (d *hostDevice) execute(ctx context.Context, req *device.ExecRequest, views bool, lease *transport.Lease) (res *device.ExecResult, release func(), err error) {
	release = func() {}
	in, ctx, cancel, err := d.p.begin(ctx, "Execute")
	if err != nil {
		return nil, release, err
	}
	defer cancel()
	api := ""
	if req != nil {
		api = req.API
	}
	if l, ok := in.dev.(leaser); ok && views && lease != nil {
		res, release, err = l.ExecuteLeased(ctx, req, lease)
	} else if v, ok := in.dev.(interface {
		ExecuteViews(context.Context, *device.ExecRequest) (*device.ExecResult, func(), error)
	}); ok && views {
		res, release, err = v.ExecuteViews(ctx, req)
	} else {
		res, err = in.dev.Execute(ctx, req)
	}
	if err != nil {
		release()
		return nil, func() {}, d.p.classify(ctx, in, "Execute", api, err)
	}
	return res, release, nil
}

// hostFramework is the restart-proof framework.Framework of a Plugin.
type hostFramework struct{ p *Plugin }

func (f *hostFramework) Describe(ctx context.Context) (*framework.Info, error) {
	in, ctx, cancel, err := f.p.begin(ctx, "Describe")
	if err != nil {
		return nil, err
	}
	defer cancel()
	info, err := in.fw.Describe(ctx)
	return info, f.p.classify(ctx, in, "Describe", "", err)
}

func (f *hostFramework) Plan(ctx context.Context, req *framework.PlanRequest) (*framework.PlanResponse, error) {
	in, ctx, cancel, err := f.p.begin(ctx, "Plan")
	if err != nil {
		return nil, err
	}
	defer cancel()
	api := ""
	if req != nil {
		api = req.API
	}
	res, err := in.fw.Plan(ctx, req)
	if err != nil {
		return nil, f.p.classify(ctx, in, "Plan", api, err)
	}
	return res, nil
}
