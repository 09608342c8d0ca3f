package lower

import (
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Rules that msprobe applies to a call beyond its lowering, shared by both
// framework plugins: they travel in the plan so that the host runs plans
// without knowing APIs.

// TensorArgs calls fn for every tensor of args in order, descending into
// lists when deep.
func TensorArgs(args []framework.Arg, deep bool, fn func(framework.Arg)) {
	for _, a := range args {
		switch {
		case a.Kind == framework.ArgTensor:
			fn(a)
		case a.Kind == framework.ArgList && deep:
			TensorArgs(a.Elems, true, fn)
		}
	}
}

// RequireGrad sets RequiresGrad on the tensor bindings of p whose path
// want accepts.
func RequireGrad(p *framework.Plan, want func(path string) bool) {
	for i, b := range p.Inputs {
		if b.Kind == framework.BindTensor {
			p.Inputs[i].RequiresGrad = want(b.Path)
		}
	}
}

// ZeroShare reports whether msprobe judges an API by its share of zeros
// instead of its values: the dropout family, whose masks are random
// (pytorch-precheck §5.6; msprobe tests "dropout" in the API name).
func ZeroShare(api string) bool { return strings.Contains(api, "dropout") }

// lowFloats are the dtypes msprobe raises on the bench.
var lowFloats = []tensor.DType{tensor.Float16, tensor.BFloat16, tensor.Float32}

// MsprobeBench is msprobe run_ut's bench precision rule (pytorch-precheck
// §4.7), for --compat msprobe: the set S of fp16/bf16/fp32 dtypes among
// the call's input tensors (args and kwargs, nested ones included) decides
// one raised dtype — a single dtype maps fp16 and bf16 to fp32 and fp32 to
// fp64, several map to fp32 (fp32 tensors then stay fp32); api conv1d and
// conv2d keep their fp32 tensors, and type_as raises nothing. A gradient is
// judged on its own dtype.
func MsprobeBench(api string, args []framework.Arg, kwargs []framework.NamedArg) *framework.BenchPolicy {
	p := &framework.BenchPolicy{Inputs: map[tensor.DType]tensor.DType{}, Grads: map[tensor.DType]tensor.DType{}}
	if api == "type_as" {
		return p
	}
	set := map[tensor.DType]bool{}
	collect := func(a framework.Arg) {
		for _, d := range lowFloats {
			if a.DType == d {
				set[d] = true
			}
		}
	}
	TensorArgs(args, true, collect)
	for _, kw := range kwargs {
		TensorArgs([]framework.Arg{kw.Arg}, true, collect)
	}
	conv := api == "conv1d" || api == "conv2d"
	for _, d := range lowFloats {
		if conv && d == tensor.Float32 {
			continue
		}
		to := tensor.Float32
		if d == tensor.Float32 {
			to = tensor.Float64
		}
		p.Grads[d] = to
		if set[d] {
			if len(set) > 1 {
				to = tensor.Float32
			}
			p.Inputs[d] = to
		}
	}
	return p
}

// msprobeRefOps are the fused ops whose bench msprobe computes otherwise
// than torch_npu's formula (fused-ops.md §17 #13, #16, #17, #18, §10):
// layer_norm_eval ignores weight, bias and eps; swiglu, scaled_masked_softmax
// and its aten backward record drop to float32; the moe gating's softmax
// drops to float32 and a 3-D x takes its top-k along axis 1.
var msprobeRefOps = map[string]bool{
	"npu.layer_norm_eval": true, "npu.swiglu": true, "npu.scaled_masked_softmax": true, "npu.moe_gating_top_k_softmax": true,
	"npu.scaled_masked_softmax_backward": true,
}

// MsprobeBenchAttrs are the attributes the bench request of a plan for op
// replaces under --compat msprobe (framework.BenchPolicy.Attrs), nil for
// none: semantics "msprobe" for the fused ops whose msprobe reference
// differs from the official formula. Only the bench changes; the device is
// the NPU under test, which computes torch_npu's op.
func MsprobeBenchAttrs(op string) ops.Attrs {
	if !msprobeRefOps[op] {
		return nil
	}
	return ops.Attrs{"semantics": ops.StringAttr("msprobe")}
}
