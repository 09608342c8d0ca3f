// Package plugin serves a device or framework plugin to probe's host over
// hashicorp/go-plugin (gRPC): a plugin's main calls ServeDevice (or
// ServeFramework) and returns when the host is done with it.
//
//	func main() {
//		if err := plugin.ServeDevice(mydevice.New()); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//			os.Exit(1)
//		}
//	}
//
// Serving checks the handshake cookie (a plugin run by hand gets
// ErrNoHost), keeps stray writes to file descriptor 1 away from the
// handshake, raises gRPC's message limits, moves large tensors through
// shared memory, logs JSON through go-hclog on stderr and exits by itself
// when the host dies. The protocol and its transport are internal: a plugin
// sees only sdk/device (or sdk/framework), sdk/ops and sdk/tensor.
package plugin

import (
	"github.com/hashicorp/go-hclog"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

const (
	// ProtocolVersion is the protocol major version: plugins and hosts
	// speak to each other only when it is equal.
	ProtocolVersion = pluginrpc.ProtocolVersion
	// ProtocolMinor is the protocol minor version; minors only add.
	ProtocolMinor = pluginrpc.ProtocolMinor
	// SDKVersion is the version of this SDK, reported by Describe.
	SDKVersion = pluginrpc.SDKVersion
)

// ErrNoHost is returned when the plugin was not started by a probe host.
var ErrNoHost = pluginrpc.ErrNoHost

// Option changes how a plugin is served.
type Option func(*options)

type options struct {
	retainInputs bool
}

// RetainInputs gives the device private copies of its input tensors. By
// default the large inputs of an ExecRequest are views of shared memory,
// valid only until Execute returns: a device may read them, overwrite them
// and return them as outputs (at no copy), but must not keep them. A
// device that keeps inputs beyond the call asks for copies with this
// option, at the cost of one copy per input.
func RetainInputs() Option { return func(o *options) { o.retainInputs = true } }

// ServeDevice serves d as a device plugin and returns when the host shuts
// the plugin down, or at once with ErrNoHost when run by hand. Call it from
// main; run device initialisation (driver loading) in Configure, not
// before, so that the handshake stays fast.
func ServeDevice(d device.Device, opts ...Option) error {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return pluginrpc.ServeDevice(d, o.retainInputs)
}

// ServeFramework serves f as a framework plugin and returns when the host
// shuts the plugin down, or at once with ErrNoHost when run by hand.
func ServeFramework(f framework.Framework, opts ...Option) error {
	return pluginrpc.ServeFramework(f)
}

// Logger is the plugin-side logger: JSON lines on stderr that the host
// re-logs under the plugin's name, at the level the host asked for.
func Logger() hclog.Logger { return pluginrpc.Logger() }
