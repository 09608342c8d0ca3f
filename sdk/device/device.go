// Package device is the contract between probe's host and a device plugin:
// the Device interface a plugin implements (and the host calls through gRPC),
// with plain Go request and result types. A device plugin author imports this
// package, sdk/ops and sdk/tensor, implements Device, and calls
// sdk/plugin.ServeDevice from main; sdk/devicetest checks the result. No
// generated protobuf type is visible. docs/plugin-authors.md describes the
// contract in prose.
package device

import (
	"context"
	"errors"
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// OpSupport says that a device runs one canonical op at some dtypes. The
// dtype of a call is the promoted dtype of its inputs (CallDType); the host
// sends a device only the calls whose op and dtype it declares, and reports
// the others as SKIP without a round trip.
type OpSupport struct {
	Op     string
	DTypes []tensor.DType
	// Backward: the device also runs the op's vector-Jacobian product.
	Backward bool
}

// CallDType is the dtype a call of an op runs at, the one OpSupport.DTypes
// is matched against: the promoted dtype (ops.ResultTypeOf) of its tensor
// inputs, Python numbers left out (an integer tensor plus 0.5 is an integer
// call). tensor.Invalid for a call without tensors.
func CallDType(inputs []ops.Value) tensor.DType {
	var operands []ops.Operand
	for _, v := range inputs {
		if v.Kind == ops.KindTensor && v.Tensor != nil {
			operands = append(operands, ops.TensorOperand(v.Tensor.DType, len(v.Tensor.Shape)))
		}
	}
	return ops.ResultType(operands...)
}

// Supports reports whether the device declares op at dtype dt, and whether
// it declares the op's backward.
func (i *Info) Supports(op string, dt tensor.DType) (forward, backward bool) {
	for _, s := range i.Ops {
		if s.Op != op {
			continue
		}
		for _, d := range s.DTypes {
			if d == dt {
				return true, s.Backward
			}
		}
	}
	return false, false
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
	// Backward asks for input gradients. GradOutputs holds the gradient of
	// each output, in output order; a nil entry, or a missing one (the list
	// may be shorter than the outputs), means a zero gradient for that
	// output. Gradients of integer outputs are ignored.
	Backward    bool
	GradOutputs []*tensor.Tensor
	// Seed drives any randomness of the op (dropout masks): the same
	// request with the same seed must give the same result.
	Seed uint64
	// Precision asks for reduced-precision modes (HF32) the framework had
	// on; see ops.Precision.
	Precision ops.Precision
	// Alloc, when not nil, lends n bytes of the memory the result travels
	// back in (the call's shared-memory segment, when served by
	// sdk/plugin): an output tensor whose Data the device writes there is
	// sent without a copy. It returns nil when it has none to lend (small
	// sizes, no shared memory); the device then allocates as usual. The
	// memory is valid until Execute returns; only a result tensor may keep
	// it, and it must not be handed to Releaser as the device's own.
	Alloc func(n int) []byte
}

// ExecResult holds the op's outputs and, for a backward request, one
// gradient per input (nil where the input takes no gradient).
type ExecResult struct {
	Outputs    []*tensor.Tensor
	InputGrads []*tensor.Tensor
}

// Device executes canonical ops. Errors returned by Execute are reported
// against the API being checked, by kind (see KindOf): an *ops.ArgumentError
// (the framework would reject the call) makes the API SKIP with its message,
// an *ErrUnsupported makes it SKIP naming the plugin, op and dtype, and any
// other error is a device failure: an `error` row naming it. None of them
// stops the run.
//
// When served by sdk/plugin, large input tensors arrive as views of shared
// memory that are valid only until Execute returns: a device may read them,
// overwrite them or return them as outputs, but must not keep them (a device
// that needs to should be served with plugin.RetainInputs()).
//
// The host calls one plugin process one request at a time (Describe, then
// Configure, then Execute after Execute); a device used from several
// goroutines directly, as in its own tests, must lock what it shares.
type Device interface {
	Describe(ctx context.Context) (*Info, error)
	Configure(ctx context.Context, cfg Config) error
	Execute(ctx context.Context, req *ExecRequest) (*ExecResult, error)
}

// Releaser is implemented by a device that reuses the memory of its
// results (pinned host buffers, a pool of reused allocations): when served
// by sdk/plugin, Release is called with each result of Execute once its
// tensors have been sent (copied into shared memory or into the message),
// and the device may then reuse their Data. A caller using the device
// directly need not call it; a result never released is simply garbage.
type Releaser interface {
	Release(res *ExecResult)
}

// ErrUnsupported is the error of a call the device cannot run: the op, or
// the op at this dtype, or its backward, is missing.
type ErrUnsupported struct {
	Op string
	// DType is the call's dtype, tensor.Invalid when the whole op is
	// missing.
	DType  tensor.DType
	Reason string
}

func (e *ErrUnsupported) Error() string {
	if e.DType != tensor.Invalid {
		return fmt.Sprintf("op %s at %s is not supported: %s", e.Op, e.DType, e.Reason)
	}
	return "op " + e.Op + " is not supported: " + e.Reason
}

// ErrorKind classifies an error returned by Execute.
type ErrorKind int

// Error kinds. The zero value is Failure: an error of no other kind is a
// failure of the device.
const (
	// Failure is a kernel or driver error: the API gets an `error` row.
	Failure ErrorKind = iota
	// Unsupported is an *ErrUnsupported: the API is SKIP.
	Unsupported
	// InvalidArgument is an *ops.ArgumentError: the framework itself would
	// reject the call, so the API is SKIP with the framework's reason.
	InvalidArgument
)

// String returns "failure", "unsupported" or "invalid argument".
func (k ErrorKind) String() string {
	switch k {
	case Failure:
		return "failure"
	case Unsupported:
		return "unsupported"
	case InvalidArgument:
		return "invalid argument"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// KindOf classifies err (nil is a Failure too; do not ask).
func KindOf(err error) ErrorKind {
	var u *ErrUnsupported
	if errors.As(err, &u) {
		return Unsupported
	}
	var a *ops.ArgumentError
	if errors.As(err, &a) {
		return InvalidArgument
	}
	return Failure
}
