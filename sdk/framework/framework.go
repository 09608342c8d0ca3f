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
	// Compat names the tool whose output the run reproduces: "msprobe"
	// (probe run --compat msprobe), or "" for probe's own behaviour. It
	// changes the bench policy and input generation a plugin plans.
	Compat string
	// Dialect names the API dialect of the dump, for a framework plugin
	// that reads more than one: "mindtorch" for a MindSpore dump written by
	// MsAdapter ("framework": "mindtorch" in dump.json), whose Torch.*,
	// Functional.* and Tensor.* calls have PyTorch's semantics; "" for
	// the framework's own (protocol minor 3: older hosts leave it empty).
	Dialect string
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
	// RequiresGrad: the input takes a gradient in backward (it must also be
	// a floating tensor and its schema input Differentiable).
	RequiresGrad bool
	// Synthetic says how the tensor is made when the dump has no data for
	// it (statistics mode); SynthNone generates it from its statistics.
	Synthetic Synthetic
}

// Synthetic is a rule for making an input tensor that is not random.
type Synthetic int32

// Synthetic inputs.
const (
	SynthNone Synthetic = iota
	// SynthCausalMask is a boolean mask of the descriptor's shape, true
	// strictly above the diagonal of the last two dimensions (the
	// compressed causal mask of fused attention, pytorch-precheck §4.6).
	SynthCausalMask
)

// CompareMode says how the outputs of a plan are judged.
type CompareMode int32

// Compare modes.
const (
	// CompareStandard judges every compared output and gradient with the
	// precision standard.
	CompareStandard CompareMode = iota
	// CompareZeroShare judges output 0 and the first gradient of a random
	// op (dropout) by the share of zeros: with at least 100 elements the
	// shares on both sides differ by less than 0.1 (pytorch-precheck §5.6).
	CompareZeroShare
)

// InputGenerator chooses how statistics-mode tensors are generated.
type InputGenerator int32

// Input generators.
const (
	// GenProbe draws each tensor from its own stream seeded by the run's
	// seed, the API and the tensor's path (order-independent).
	GenProbe InputGenerator = iota
	// GenMsprobeMindSpore is msprobe's MindSpore generator (MT19937 seeded
	// with 42 per tensor, mindspore-precheck §4.3), for --compat msprobe.
	GenMsprobeMindSpore
)

// TensorRewrite changes a dumped tensor descriptor before its data is
// loaded or generated (run_ut's per-API type conversions).
type TensorRewrite struct {
	Path string
	// DType, when valid, is the dtype the tensor is generated or loaded as.
	DType tensor.DType
	// MinAtLeast, when HasMin, raises the descriptor's Min (and its legacy
	// Min_except_inf_nan) to at least this value.
	HasMin     bool
	MinAtLeast float64
}

// BenchPolicy says how the bench request of a plan differs from the
// device's: the bench is the reference, so its inputs are usually raised
// to a wider dtype.
type BenchPolicy struct {
	// Inputs maps the dtype of an input tensor to the dtype the bench gets
	// it in; dtypes not listed are sent unchanged.
	Inputs map[tensor.DType]tensor.DType
	// Grads is Inputs for the dumped output gradients.
	Grads map[tensor.DType]tensor.DType
	// Attrs replace attributes of the bench request (a floating dtype=
	// raised with the inputs).
	Attrs ops.Attrs
}

// RaiseToFloat64 is probe's own bench policy: every floating tensor, and a
// floating dtype attribute of attrs, raised to float64. It is also what the
// host applies when a plan has no BenchPolicy.
func RaiseToFloat64(attrs ops.Attrs) *BenchPolicy {
	m := map[tensor.DType]tensor.DType{tensor.Float32: tensor.Float64, tensor.Float16: tensor.Float64, tensor.BFloat16: tensor.Float64}
	p := &BenchPolicy{Inputs: m, Grads: m}
	if v, ok := attrs["dtype"]; ok && v.Kind == ops.AttrString {
		if d, err := tensor.Parse(v.String); err == nil && d.IsFloat() {
			p.Attrs = ops.Attrs{"dtype": ops.StringAttr(tensor.Float64.String())}
		}
	}
	return p
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
	// GradRows lists, in row order, the dumped tensor paths whose
	// gradients are the API's backward rows. A path that is not a binding
	// taking a gradient gives a row saying the bench has no gradient.
	GradRows []string
	// Precision asks the device for reduced-precision modes (msprobe's
	// HF32 for conv1d/conv2d). The bench gets the device's view of the
	// inputs: with HF32, float32 inputs rounded by ops.RoundHF32 before the
	// bench policy applies.
	Precision ops.Precision
	// Bench is the bench policy; nil means RaiseToFloat64(Attrs).
	Bench *BenchPolicy
	// CompareMode says how outputs are judged.
	CompareMode CompareMode
	// Generator chooses the statistics-mode input generator.
	Generator InputGenerator
	// Rewrites change dumped descriptors before their data is made.
	Rewrites []TensorRewrite
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
	// Support describes the API names the plugin knows, one entry each:
	// those it plans (with Ops) and those it deliberately does not (with a
	// Reason). Optional: `probe ops` shows what it holds.
	Support []APISupport
}

// APISupport is what a framework plugin says about one API name.
type APISupport struct {
	// API is the name as dumped, without call index: "Tensor.addcmul_".
	API string
	// Ops are the canonical ops a plain call of the API lowers to; other
	// argument forms may use other ops of Info.Ops. Empty when the plugin
	// does not plan the API.
	Ops []string
	// Reason says in one line why the API is not planned ("Tensor.
	// bernoulli_ is random by nature"); empty when it is.
	Reason string
}

// Framework plans dumped API calls. Plan must be a pure function of the
// request, so that the host may cache it.
type Framework interface {
	Describe(ctx context.Context) (*Info, error)
	Plan(ctx context.Context, req *PlanRequest) (*PlanResponse, error)
}
