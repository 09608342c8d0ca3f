// Package device is the contract between probe's host and a device plugin:
// the Device interface a plugin implements (and the host calls through gRPC),
// with plain Go request and result types. A device plugin author imports this
// package, sdk/ops and sdk/tensor, implements Device, and calls
// sdk/plugin.ServeDevice from main. No generated protobuf type is visible.
package device

import (
	"context"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// OpSupport says that a device runs one canonical op at some dtypes.
type OpSupport struct {
	Op       string
	DTypes   []tensor.DType
	Backward bool
}

// Info describes a device plugin. It is what `probe plugins` prints.
type Info struct {
	Name            string // "cpu"
	Version         string // plugin semver
	SDKVersion      string // filled by the SDK
	ProtocolVersion int    // filled by the SDK
	Description     string
	Ops             []OpSupport
}

// Config is sent once after start-up, before any Execute. Device
// initialisation (driver loading) belongs here, never before the handshake.
type Config struct {
	DeviceID int
	// Options are the plugin's table in probe.toml, passed verbatim.
	Options map[string]string
}

// ExecRequest runs one canonical op forward and, when GradOutputs is set,
// its vector-Jacobian product, in one call, so that the device keeps its
// activations between the two.
type ExecRequest struct {
	// API is the dumped API's full name; for messages and logs only.
	API    string
	Op     string
	Attrs  ops.Attrs
	Inputs []ops.Value
	// RequiresGrad has one entry per input: gradients are returned only for
	// float tensor inputs whose entry is true.
	RequiresGrad []bool
	// Backward asks for input gradients. GradOutputs has one entry per
	// output; a nil entry means a zero gradient for that output.
	Backward    bool
	GradOutputs []*tensor.Tensor
	// Seed drives any randomness of the op (dropout masks).
	Seed uint64
}

// ExecResult holds the op's outputs and, for a backward request, one
// gradient per input (nil where the input takes no gradient).
type ExecResult struct {
	Outputs    []*tensor.Tensor
	InputGrads []*tensor.Tensor
}

// Device executes canonical ops. Errors returned by Execute are reported
// against the API being checked (unsupported op or dtype, invalid
// arguments, kernel failure) and do not stop the run.
//
// When served by sdk/plugin, large input tensors arrive as views of shared
// memory that are valid only until Execute returns: a device may read them,
// overwrite them or return them as outputs, but must not keep them (a device
// that needs to should implement plugin.InputRetainer to get copies).
type Device interface {
	Describe(ctx context.Context) (*Info, error)
	Configure(ctx context.Context, cfg Config) error
	Execute(ctx context.Context, req *ExecRequest) (*ExecResult, error)
}

// ErrUnsupported is wrapped by errors for ops or dtypes a device lacks.
type ErrUnsupported struct{ Op, Reason string }

func (e *ErrUnsupported) Error() string { return "op " + e.Op + " is not supported: " + e.Reason }
