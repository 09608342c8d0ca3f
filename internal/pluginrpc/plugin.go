// Package pluginrpc is the wire side of probe's plugin protocol, for the
// host and for sdk/plugin: go-plugin glue (handshake, plugin sets, gRPC
// servers and clients), conversion between the sdk types and the generated
// protobuf types, and shared-memory tensor transport (internal/transport).
// Plugin authors never see it: they call sdk/plugin.ServeDevice.
//
// Tensor memory. Tensors a host receives are ordinary Go memory it owns. A
// served device, by contrast, gets the large tensors of an ExecRequest as
// views of shared memory that are valid only until Execute returns: it may
// read and overwrite them and return them as outputs (at no copy), but must
// not keep them; a device that must is served with RetainInputs.
//
// Errors. Errors returned by a plugin implementation travel as data with
// their kind (device.KindOf) and come back to the host as errors of the
// same kind with the plugin's message. Failures of the RPC itself
// (connection lost, deadline, protocol error) come back as *RPCError.
package pluginrpc

import (
	"context"
	"errors"
	"fmt"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/probe-dev/probe/internal/pb/probev1"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

const (
	// ProtocolVersion is the protocol major version: the go-plugin
	// handshake version and the proto package probe.v1.
	ProtocolVersion = 1
	// ProtocolMinor is the protocol minor version; minors only add fields
	// and capabilities. 1: Plan.grad_outputs (multi-output backward).
	// 2: error kinds INVALID_ARGUMENT and unsupported dtypes, request
	// precision modes, and the framework rules of a plan (requires_grad per
	// binding, grad rows, bench policy, compare mode, synthetic inputs,
	// input generator, descriptor rewrites; hf32_inputs retired).
	// 3: PlanRequest.dialect (MsAdapter "mindtorch" dumps).
	ProtocolMinor = 3
	// SDKVersion is the version of this SDK, reported by Describe.
	SDKVersion = "0.1.0"

	// KindDevice is the go-plugin name of device plugins.
	KindDevice = "device"
	// KindFramework is the go-plugin name of framework plugins.
	KindFramework = "framework"

	// MagicCookieKey and MagicCookieValue identify probe plugins. They are
	// not a security measure: they only keep a plugin binary run by hand
	// from waiting for a host forever.
	MagicCookieKey   = "PROBE_PLUGIN_MAGIC_COOKIE"
	MagicCookieValue = "9f1c4e7ab3d2586e0c7f4a1b93e6d5c28a7b1f4e6d3c9a05b8e2f7d4c1a6b390"

	// EnvLogLevel is the environment variable that sets a served plugin's
	// log level (trace, debug, info, warn, error); the host sets it.
	EnvLogLevel = "PROBE_PLUGIN_LOG_LEVEL"

	// CapShm is the capability of exchanging tensors through shared-memory
	// segments (sdk/transport).
	CapShm = "transport.shm"
)

// Capabilities lists the protocol capabilities of this SDK.
func Capabilities() []string { return []string{CapShm} }

// Handshake is the go-plugin handshake shared by probe and its plugins.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   MagicCookieKey,
	MagicCookieValue: MagicCookieValue,
}

// HostPluginSets returns go-plugin's ClientConfig.VersionedPlugins for a
// host: both plugin kinds at every protocol major the host speaks.
func HostPluginSets(opts transport.Options) map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		ProtocolVersion: {
			KindDevice:    &DevicePlugin{Transport: opts},
			KindFramework: &FrameworkPlugin{},
		},
	}
}

// DevicePlugin is the go-plugin glue of device plugins. On the plugin side
// Impl is served; on the host side GRPCClient returns a device.Device.
type DevicePlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	// Impl is the device served (plugin side only).
	Impl device.Device
	// Transport chooses inline versus shared-memory transfer.
	Transport transport.Options
	// RetainInputs gives Impl private copies of its input tensors instead
	// of views of shared memory (plugin side only).
	RetainInputs bool
}

// GRPCServer registers the device service.
func (p *DevicePlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("plugin: DevicePlugin.Impl is nil")
	}
	pb.RegisterDeviceServer(s, newDeviceServer(p.Impl, p.Transport, p.RetainInputs))
	return nil
}

// GRPCClient returns the host-side device.Device. Its shared memory is
// released when the plugin process exits or when it is closed (the value
// implements io.Closer).
func (p *DevicePlugin) GRPCClient(ctx context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (interface{}, error) {
	c := newDeviceClient(pb.NewDeviceClient(conn), p.Transport)
	context.AfterFunc(ctx, func() { _ = c.Close() })
	return c, nil
}

// FrameworkPlugin is the go-plugin glue of framework plugins.
type FrameworkPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
	// Impl is the framework served (plugin side only).
	Impl framework.Framework
}

// GRPCServer registers the framework service.
func (p *FrameworkPlugin) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	if p.Impl == nil {
		return errors.New("plugin: FrameworkPlugin.Impl is nil")
	}
	pb.RegisterFrameworkServer(s, &frameworkServer{impl: p.Impl})
	return nil
}

// GRPCClient returns the host-side framework.Framework.
func (p *FrameworkPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (interface{}, error) {
	return &frameworkClient{rpc: pb.NewFrameworkClient(conn)}, nil
}

// AsDevice turns the value returned by go-plugin's Dispense(KindDevice)
// into a device.Device. The result also implements io.Closer, which
// releases its shared-memory segments.
func AsDevice(raw interface{}) (device.Device, error) {
	c, ok := raw.(*deviceClient)
	if !ok {
		return nil, fmt.Errorf("plugin: dispensed %T is not a probe device plugin client", raw)
	}
	return c, nil
}

// AsFramework turns the value returned by go-plugin's
// Dispense(KindFramework) into a framework.Framework.
func AsFramework(raw interface{}) (framework.Framework, error) {
	c, ok := raw.(*frameworkClient)
	if !ok {
		return nil, fmt.Errorf("plugin: dispensed %T is not a probe framework plugin client", raw)
	}
	return c, nil
}

// RPCError is a failed call to a plugin at the RPC level: the connection
// broke (often because the plugin died), the deadline passed, or the peer
// violated the protocol. Errors returned by the plugin implementation are
// never RPCErrors.
type RPCError struct {
	// Method is the RPC ("Execute").
	Method string
	// Err is the gRPC status error.
	Err error
}

func (e *RPCError) Error() string { return fmt.Sprintf("plugin RPC %s: %v", e.Method, e.Err) }

// Unwrap returns the gRPC status error.
func (e *RPCError) Unwrap() error { return e.Err }

func rpcError(method string, err error) error { return &RPCError{Method: method, Err: err} }

// errConnClosed is the RPC error of calls on a client whose plugin has
// exited or that was closed.
var errConnClosed = status.Error(codes.Unavailable, "plugin connection closed")
