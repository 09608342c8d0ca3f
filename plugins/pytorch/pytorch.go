// Package pytorch is probe's PyTorch framework plugin: it plans the API
// calls of a msprobe PyTorch dump (Functional., Torch., Tensor. and NPU.
// entries) as canonical ops, with PyTorch 1.13 semantics, and applies
// msprobe run_ut's policies in the plan: the fixed black list, the
// backward messages (out=, multi-output), which tensors take gradients and
// make gradient rows, HF32 for float32 conv1d/conv2d, the cross_entropy and
// histc conversions, dropout's zero-share comparison, the causal
// atten_mask of npu_fusion_attention (whose attention_out alone is
// compared, with the gradient fed to it: grad_index 0) and, for
// --compat msprobe, msprobe's bench precisions.
package pytorch

import (
	"context"
	"fmt"
	"strings"

	"github.com/probe-dev/probe/internal/apilist"
	"github.com/probe-dev/probe/plugins/internal/lower"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Version is the plugin version.
const Version = "0.1.0"

// Backward messages of msprobe run_ut (pytorch-precheck.md §4.2, §4.9, D.2).
const (
	MsgOutKwarg = "function with out=... arguments don't support automatic differentiation, skip backward."
	// MsgRepeatInterleave and MsgMaskedSelect are msprobe's texts for two
	// APIs whose backward it never runs.
	MsgRepeatInterleave = "This API does not have backward input data, skip backward."
	MsgMaskedSelect     = "This API does not support backward ut, skip backward."
	MsgMultipleBackward = "Multiple backward is not supported."
)

// gradIndex is msprobe's torch_ut_setting.json: the APIs whose tuple output
// still gets a backward, through output grad_index.
var gradIndex = map[string]int{"topk": 0, "npu_fusion_attention": 0}

// hf32APIs get msprobe's HF32 rounding of float32 inputs (§4.3).
var hf32APIs = map[string]bool{"conv1d": true, "conv2d": true}

var namespaces = map[string]lower.Namespace{
	"Functional": lower.Functional,
	"Torch":      lower.Torch,
	"Tensor":     lower.TensorMethod,
	"NPU":        lower.NPU,
	"Aten":       lower.Aten,
}

type plugin struct{}

// New returns the PyTorch framework plugin.
func New() framework.Framework { return plugin{} }

// Describe lists the planned APIs ("Functional.conv2d", ...) and the ops
// their plans use.
func (plugin) Describe(ctx context.Context) (*framework.Info, error) {
	var apis []string
	for _, prefix := range []string{"Aten", "Functional", "NPU", "Tensor", "Torch"} {
		for _, n := range lower.Names(namespaces[prefix]) {
			apis = append(apis, prefix+"."+n)
		}
	}
	return &framework.Info{
		Name:        "pytorch",
		Version:     Version,
		Description: "PyTorch 1.13 API semantics (torch, torch.nn.functional, torch.Tensor, torch_npu) lowered to canonical ops, msprobe run_ut policies",
		APIs:        apis,
		Ops:         lower.Ops(),
		Support:     support(),
	}, nil
}

// support describes every API name the plugin plans (with the ops of a
// plain call) or deliberately does not (with the reason), by namespace.
func support() []framework.APISupport {
	var out []framework.APISupport
	for _, prefix := range []string{"Aten", "Functional", "NPU", "Tensor", "Torch"} {
		ns := namespaces[prefix]
		for _, n := range lower.Names(ns) {
			out = append(out, framework.APISupport{API: prefix + "." + n, Ops: lower.OpsOf(ns, n)})
		}
		for _, n := range lower.Reasons(ns) {
			why, _ := lower.Reason(ns, n)
			out = append(out, framework.APISupport{API: prefix + "." + n, Reason: why})
		}
	}
	return out
}

// splitName splits a full API name "<Type>.<api>.<index>" (the API may
// contain dots: "Torch.linalg.norm.0") into type and API name.
func splitName(full string) (typ, api string, err error) {
	parts := strings.Split(full, ".")
	if len(parts) < 3 || parts[0] == "" || parts[len(parts)-1] == "" {
		return "", "", fmt.Errorf("API name %q is not of the form <Type>.<api>.<index>", full)
	}
	for _, r := range parts[len(parts)-1] {
		if r < '0' || r > '9' {
			return "", "", fmt.Errorf("API name %q does not end with a call index", full)
		}
	}
	return parts[0], strings.Join(parts[1:len(parts)-1], "."), nil
}

func skip(format string, a ...any) *framework.PlanResponse {
	return &framework.PlanResponse{Skip: fmt.Sprintf(format, a...)}
}

// Plan plans one dumped forward call, or skips it with a reason.
func (plugin) Plan(ctx context.Context, req *framework.PlanRequest) (*framework.PlanResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	typ, name, err := splitName(req.API)
	if err != nil {
		return skip("%v", err), nil
	}
	ns, ok := namespaces[typ]
	if packet, overload, dotted := strings.Cut(name, "."); ok && ns == lower.Aten && dotted && lower.Supported(ns, packet) {
		// Aten.<packet>.<overload>.N: msprobe looks the overload-qualified
		// name up among packet names and never finds it (§12 #12)
		if req.Compat == "msprobe" {
			return skip("Skip op[%s] accuracy check, because the op is not in dir(torch.ops.aten) and support yaml.", name), nil
		}
		if overload != "default" {
			return skip("API Aten.%s: only the default overload of %s exists", name, packet), nil
		}
		name = packet
	}
	switch {
	case typ == "Distributed" || typ == "MindSpeed":
		return skip("API %s not support for run ut. SKIP.", req.API), nil
	case !ok:
		return skip("API %s.%s is not supported by the pytorch framework plugin yet", typ, name), nil
	case apilist.AlwaysBlack[name]:
		return skip("%s", apilist.BlackListed(name)), nil
	case !lower.Supported(ns, name):
		if why, ok := lower.Reason(ns, name); ok {
			return skip("API %s", why), nil
		}
		return skip("API %s.%s is not supported by the pytorch framework plugin yet", typ, name), nil
	}
	req, rewrites := convert(name, req)
	if err := lower.CheckDTypes(req.Args, req.Kwargs); err != nil {
		return skip("%s: %v", req.API, err), nil
	}
	l, err := lower.Lower(&lower.Call{API: req.API, Namespace: ns, Name: name, Args: req.Args, Kwargs: req.Kwargs, Compat: req.Compat, Outputs: req.Outputs})
	if err != nil {
		return skip("%v", err), nil
	}
	p := l.Plan
	multi := l.MultiOutput || len(req.Outputs) > 1
	if _, ok := gradIndex[name]; multi && !ok && req.Compat != "msprobe" {
		// msprobe differentiates only output[grad_index] and skips the
		// backward of other tuple outputs (§12 #23); probe seeds one
		// backward with every dumped gradient, gradient i for output i (a
		// missing one is zero): the same sum of vector-Jacobian products
		// that autograd formed in the training step.
		k := lower.OutputCount(p)
		if n := len(req.Outputs); n > 0 && n < k {
			k = n
		}
		for i := 0; i < k; i++ {
			p.GradOutputs = append(p.GradOutputs, i)
		}
		multi = false
	}
	p.BackwardMessage = backwardMessage(name, req, multi)
	p.Rewrites = rewrites
	p.Precision.HF32 = hf32APIs[name]
	// run_ut differentiates the tensors dumped with requires_grad, and
	// writes one gradient row per tensor of the positional arguments
	// (lists included), in order.
	grad := map[string]bool{}
	lower.TensorArgs(req.Args, true, func(a framework.Arg) {
		grad[a.Path] = a.RequiresGrad
		p.GradRows = append(p.GradRows, a.Path)
	})
	for _, kw := range req.Kwargs {
		lower.TensorArgs([]framework.Arg{kw.Arg}, true, func(a framework.Arg) { grad[a.Path] = a.RequiresGrad })
	}
	lower.RequireGrad(p, func(path string) bool { return grad[path] })
	if lower.ZeroShare(req.API) {
		p.CompareMode = framework.CompareZeroShare
	}
	if name == "npu_fusion_attention" {
		causalMask(p, req)
	}
	if req.Compat == "msprobe" {
		p.Bench = lower.MsprobeBench(name, req.Args, req.Kwargs)
		p.Bench.Attrs = lower.MsprobeBenchAttrs(p.Op)
	}
	return &framework.PlanResponse{Plan: p}, nil
}

// causalMask applies run_ut's atten_mask rule of npu_fusion_attention
// (pytorch-precheck §4.6): with sparse_mode 2, 3 or 4, a bool atten_mask
// keyword without data is the compressed causal mask — true strictly above
// the diagonal — not random booleans.
func causalMask(p *framework.Plan, req *framework.PlanRequest) {
	mode := int64(0)
	var mask *framework.Arg
	for i, kw := range req.Kwargs {
		switch {
		case kw.Name == "sparse_mode" && kw.Arg.Kind == framework.ArgInt:
			mode = kw.Arg.Int
		case kw.Name == "atten_mask" && kw.Arg.Kind == framework.ArgTensor:
			mask = &req.Kwargs[i].Arg
		}
	}
	if mode < 2 || mode > 4 || mask == nil || mask.DType != tensor.Bool || len(mask.Shape) < 2 {
		return
	}
	for i, b := range p.Inputs {
		if b.Kind == framework.BindTensor && b.Path == mask.Path {
			p.Inputs[i].Synthetic = framework.SynthCausalMask
		}
	}
}

// backwardMessage is msprobe run_ut's accumulated backward message: out=
// present, the two APIs it never differentiates, and, when multi is set, a
// tuple output without a grad_index (even a single-element tuple, such as
// chunk(x, 1)).
func backwardMessage(name string, req *framework.PlanRequest, multi bool) string {
	var msg string
	for _, kw := range req.Kwargs {
		if kw.Name == "out" {
			msg += MsgOutKwarg
			break
		}
	}
	switch name {
	case "repeat_interleave":
		msg += MsgRepeatInterleave
	case "masked_select":
		msg += MsgMaskedSelect
	}
	if _, ok := gradIndex[name]; !ok && multi {
		msg += MsgMultipleBackward
	}
	return msg
}
