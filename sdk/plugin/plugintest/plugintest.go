// Package plugintest runs a plugin implementation in-process behind the real
// gRPC shims (go-plugin's TestPluginGRPCConn over a Unix socket), so that a
// plugin's unit tests exercise the same conversion and transport code as
// production, without starting a process.
package plugintest

import (
	"io"
	"testing"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/plugin"
	"github.com/probe-dev/probe/sdk/transport"
)

// Device serves impl in-process and returns the host-side device.Device
// that talks to it through gRPC. Everything is torn down when the test
// ends.
func Device(t testing.TB, impl device.Device) device.Device {
	t.Helper()
	return DeviceWith(t, impl, transport.Options{})
}

// DeviceWith is Device with explicit transport options, applied on both
// sides (e.g. DisableShm to force inline transfer).
func DeviceWith(t testing.TB, impl device.Device, opts transport.Options) device.Device {
	t.Helper()
	raw := dispense(t, plugin.KindDevice, &plugin.DevicePlugin{Impl: impl, Transport: opts})
	d, err := plugin.AsDevice(raw)
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
	raw := dispense(t, plugin.KindFramework, &plugin.FrameworkPlugin{Impl: impl})
	f, err := plugin.AsFramework(raw)
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
