// Package framework is the contract between probe's host and a framework
// plugin (pytorch, mindspore): the plugin turns one dumped API call into an
// execution plan over canonical ops, or a SKIP with a reason.
package framework

import (
	"context"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// ArgKind is the kind of one dumped argument descriptor.
type ArgKind int32

// Argument kinds, covering every descriptor of the PyTorch and MindSpore
// dump formats.
const (
	ArgNone     ArgKind = iota // JSON null
	ArgTensor                  // torch.Tensor / mindspore.Tensor (also numpy.ndarray)
	ArgInt                     // int, numpy integer scalars
	ArgFloat                   // float, numpy float scalars
	ArgBool                    // bool
	ArgString                  // str
	ArgList                    // list or tuple (Elems)
	ArgSlice                   // slice: Elems are three ArgInt/ArgNone
	ArgEllipsis                // ...
	ArgDType                   // torch.dtype / mindspore.dtype (Str holds the spelling)
	ArgDevice                  // torch.device (Str)
	ArgSize                    // torch.Size (Ints)
	ArgUnknown                 // anything else; TypeName says what
)

// Arg is one argument descriptor of a dumped API call, without tensor data.
type Arg struct {
	Kind ArgKind
	// Path identifies a tensor for bindings: "args.0", "args.3.1",
	// "kwargs.bias", "kwargs.tensors.2".
	Path string
	// TypeName is the descriptor's "type" field as dumped.
	TypeName string

	// Tensor fields.
	DType        tensor.DType
	DTypeName    string // as dumped ("torch.float16", "Float16")
	Shape        []int
	RequiresGrad bool

	Int   int64
	Float float64
	Bool  bool
	Str   string
	Ints  []int64 // ArgSize
	Elems []Arg   // ArgList, ArgSlice
}

// NamedArg is one keyword argument, in dumped order.
type NamedArg struct {
	Name string
	Arg  Arg
}

// PlanRequest asks for the plan of one dumped forward API call.
type PlanRequest struct {
	// API is the full API name, without direction: "Functional.conv2d.0".
	API         string
	Args        []Arg
	Kwargs      []NamedArg
	Outputs     []Arg
	HasBackward bool
}

// BindingKind says where an op input comes from.
type BindingKind int32

// Binding kinds.
const (
	BindNone   BindingKind = iota // the op input is None
	BindTensor                    // a dumped tensor, by Path
	BindScalar                    // a constant scalar
)

// Binding feeds one op input.
type Binding struct {
	Kind   BindingKind
	Path   string
	Scalar ops.Scalar
}

// Plan is how to run one API: a single canonical op (the most specific one,
// so the device's own kernel is tested), its attributes and input bindings.
type Plan struct {
	Op     string
	Attrs  ops.Attrs
	Inputs []Binding
	// Compare lists the op outputs compared, in row order; nil means all.
	Compare []int
	// GradOutput is the op output that receives the dumped gradient
	// (backward input 0). Ignored when BackwardMessage or GradOutputs is
	// set.
	GradOutput int
	// GradOutputs, when not empty, feeds every dumped gradient: backward
	// input i is the gradient of op output GradOutputs[i] (MindSpore seeds
	// the backward of a multi-output API with one sens per output). Extra
	// backward inputs are ignored; a missing or non-tensor one is a zero
	// gradient, and gradients of integer outputs are ignored.
	GradOutputs []int
	// BackwardMessage, when not empty, turns the API's backward into SKIP
	// with this message (e.g. "Multiple backward is not supported.").
	BackwardMessage string
	// HF32Inputs rounds float32 tensor inputs to HF32 on both sides first
	// (msprobe's treatment of conv1d/conv2d).
	HF32Inputs bool
}

// PlanResponse is a Plan, or a SKIP with the reason.
type PlanResponse struct {
	Plan *Plan
	Skip string
}

// Info describes a framework plugin.
type Info struct {
	Name            string // "pytorch"
	Version         string
	SDKVersion      string // filled by the SDK
	ProtocolVersion int    // filled by the SDK
	Description     string
	// APIs lists the API names (without type prefix and index, e.g.
	// "Functional.conv2d") the plugin can plan.
	APIs []string
	// Ops lists the canonical ops its plans use.
	Ops []string
}

// Framework plans dumped API calls. Plan must be a pure function of the
// request, so that the host may cache it.
type Framework interface {
	Describe(ctx context.Context) (*Info, error)
	Plan(ctx context.Context, req *PlanRequest) (*PlanResponse, error)
}
