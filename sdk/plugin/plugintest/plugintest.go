// Package plugintest runs a plugin implementation in-process behind the real
// gRPC shims (go-plugin's TestPluginGRPCConn over a Unix socket), so that a
// plugin's unit tests exercise the same conversion and transport code as
// production, without starting a process.
package plugintest

import (
	"io"
	"testing"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

// Option changes how Device serves a device.
type Option func(*options)

type options struct {
	transport transport.Options
	retain    bool
}

// InlineOnly sends every tensor inline in the gRPC messages, as with a
// host or plugin that cannot use shared memory.
func InlineOnly() Option { return func(o *options) { o.transport.DisableShm = true } }

// InlineLimit sends tensors of up to n bytes inline (the rest through
// shared memory); 0 keeps the default.
func InlineLimit(n int) Option { return func(o *options) { o.transport.InlineMax = n } }

// RetainInputs serves the device as plugin.RetainInputs does.
func RetainInputs() Option { return func(o *options) { o.retain = true } }

// Device serves impl in-process and returns the host-side device.Device
// that talks to it through gRPC. Everything is torn down when the test
// ends.
func Device(t testing.TB, impl device.Device, opts ...Option) device.Device {
	t.Helper()
	var o options
	for _, f := range opts {
		f(&o)
	}
	raw := dispense(t, pluginrpc.KindDevice, &pluginrpc.DevicePlugin{Impl: impl, Transport: o.transport, RetainInputs: o.retain})
	d, err := pluginrpc.AsDevice(raw)
	if err != nil {
		t.Fatalf("plugintest: %v", err)
	}
	t.Cleanup(func() {
		if c, ok := d.(io.Closer); ok {
			_ = c.Close()
		}
	})
	return d
}

// Framework serves impl in-process and returns the host-side
// framework.Framework.
func Framework(t testing.TB, impl framework.Framework) framework.Framework {
	t.Helper()
	raw := dispense(t, pluginrpc.KindFramework, &pluginrpc.FrameworkPlugin{Impl: impl})
	f, err := pluginrpc.AsFramework(raw)
	if err != nil {
		t.Fatalf("plugintest: %v", err)
	}
	return f
}

func dispense(t testing.TB, kind string, p goplugin.Plugin) interface{} {
	t.Helper()
	client, _ := goplugin.TestPluginGRPCConn(t, false, goplugin.PluginSet{kind: p})
	// Closing the client stops the server too (go-plugin's Shutdown RPC);
	// stopping it here as well would race with that.
	t.Cleanup(func() { _ = client.Close() })
	raw, err := client.Dispense(kind)
	if err != nil {
		t.Fatalf("plugintest: dispense %s: %v", kind, err)
	}
	return raw
}
