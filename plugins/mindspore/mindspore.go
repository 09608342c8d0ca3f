// Package mindspore is probe's MindSpore framework plugin: it plans the API
// calls of a msprobe MindSpore dump. msprobe benchmarks a MindSpore API with
// the same-named PyTorch API on the CPU (Mint.<api> → torch.<api>,
// MintFunctional.<api> → torch.nn.functional.<api>, Tensor.<method> →
// torch.Tensor.<method>), so the calls are lowered with PyTorch semantics,
// accepting MindSpore's own spellings where they differ (axis, keep_dims,
// dtype names such as Float32, Tensor.transpose(*axes)).
package mindspore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/probe-dev/probe/internal/apilist"
	"github.com/probe-dev/probe/plugins/internal/lower"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Version is the plugin version.
const Version = "0.1.0"

// checkerTensorAPIs is msprobe's checker_support_api.yaml (key tensor): the
// only Tensor.* methods checked in MindSpore mode (mindspore-precheck.md
// Appendix A).
var checkerTensorAPIs = apilist.MindSporeTensorMethods

// fusionAPIs are the Functional.* APIs msprobe checks, with a reference of
// its own.
var fusionAPIs = apilist.MindSporeFusionAPIs

// kwargAliases maps MindSpore keyword spellings onto PyTorch's; they apply
// only where the PyTorch signature lacks the MindSpore name.
var kwargAliases = map[string]string{
	"axis":                   "dim",
	"keep_dims":              "keepdim",
	"keepdims":               "keepdim",
	"split_size_or_sections": "split_size",
}

var namespaces = map[string]lower.Namespace{
	"Mint":           lower.Torch,
	"MintFunctional": lower.Functional,
	"Tensor":         lower.TensorMethod,
}

type plugin struct{}

// New returns the MindSpore framework plugin.
func New() framework.Framework { return plugin{} }

// Describe lists the APIs of msprobe's MindSpore lists that probe plans
// ("Mint.add", "MintFunctional.relu", "Tensor.view",
// "Functional.flash_attention_score", ...) and the ops their plans use;
// Support has one entry per name of the lists (Mint, MintFunctional, the
// checker's Tensor list) and per fused Functional: the ops of a plain call,
// or why probe does not check it.
func (plugin) Describe(ctx context.Context) (*framework.Info, error) {
	var apis []string
	var support []framework.APISupport
	for _, l := range []struct {
		prefix string
		names  []string
	}{{"Mint", apilist.MindSporeMint}, {"MintFunctional", apilist.MindSporeMintFunctional}, {"Tensor", apilist.MindSporeTensorList}} {
		for _, n := range slices.Sorted(slices.Values(l.names)) {
			api := l.prefix + "." + n
			if ops := opsOf(l.prefix, n); len(ops) > 0 {
				apis = append(apis, api)
				support = append(support, framework.APISupport{API: api, Ops: ops})
				continue
			}
			why, ok := reasons[api]
			if !ok {
				why = "has no lowering in probe"
			}
			support = append(support, framework.APISupport{API: api, Reason: api + " " + why})
		}
	}
	for _, n := range slices.Sorted(maps.Keys(fusionAPIs)) {
		apis = append(apis, "Functional."+n)
		support = append(support, framework.APISupport{API: "Functional." + n, Ops: []string{"npu.fusion_attention"}})
	}
	msFusedOps := map[string]string{"rms_norm": "npu.rms_norm", "swiglu": "npu.swiglu", "rotary_position_embedding": "npu.rotary_mul"}
	for _, n := range lower.MindSporeFusedNames() {
		apis = append(apis, "Functional."+n)
		support = append(support, framework.APISupport{API: "Functional." + n, Ops: []string{msFusedOps[n]}})
	}
	var opsUsed []string
	for _, op := range lower.Ops() {
		// Of the torch_npu ops only these have a MindSpore API.
		if !strings.HasPrefix(op, "npu.") || op == "npu.fusion_attention" || slices.Contains(slices.Collect(maps.Values(msFusedOps)), op) {
			opsUsed = append(opsUsed, op)
		}
	}
	return &framework.Info{
		Name:        "mindspore",
		Version:     Version,
		Description: "MindSpore mint / mint.nn.functional / Tensor APIs lowered with the semantics of their PyTorch bench (msprobe's MindSpore pre-check)",
		APIs:        apis,
		Ops:         opsUsed,
		Support:     support,
	}, nil
}

func skip(format string, a ...any) *framework.PlanResponse {
	return &framework.PlanResponse{Skip: fmt.Sprintf(format, a...)}
}

// Plan plans one dumped forward call, or skips it with a reason.
func (plugin) Plan(ctx context.Context, req *framework.PlanRequest) (*framework.PlanResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Dialect == DialectMindTorch {
		return planMindTorch(req), nil
	}
	parts := strings.Split(req.API, ".")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return skip("API name %q is not of the form <type>.<api>.<count>", req.API), nil
	}
	typ, name := parts[0], parts[1]
	_, ok := namespaces[typ]
	switch {
	case typ == "Functional" && fusionAPIs[name]:
		return finish(planFusion(req), req), nil
	case typ == "Functional" && req.Compat != "msprobe" && slices.Contains(lower.MindSporeFusedNames(), name):
		return planMSFused(req, name), nil
	case typ == "Functional":
		return skip("API %s is not checked in MindSpore mode: only Functional.flash_attention_score is", req.API), nil
	case !ok:
		return skip("API %s is not checked in MindSpore mode (API type %s)", req.API, typ), nil
	case typ == "Tensor" && !checkerTensorAPIs[name]:
		return skip("API %s is not checked in MindSpore mode: Tensor.%s is not in checker_support_api.yaml", req.API, name), nil
	}
	if why, ok := reasons[typ+"."+name]; ok {
		return skip("%s.%s %s", typ, name, why), nil
	}
	if err := lower.CheckDTypes(req.Args, req.Kwargs); err != nil {
		return skip("%s: %v", req.API, err), nil
	}
	call := &lower.Call{API: req.API, Name: name, Args: mindSporeDTypes(req.Args), Kwargs: mindSporeKwargDTypes(req.Kwargs), KwargAliases: kwargAliases, Compat: req.Compat}
	if typ != "Tensor" {
		positionalDType(call)
	}
	if typ == "Tensor" {
		if reason := adaptTensorMethod(call); reason != "" {
			return skip("%s: %s", req.API, reason), nil
		}
	}
	t, ok := resolve(typ, call.Name)
	if !ok {
		return skip("API %s.%s is not supported by the mindspore framework plugin yet", typ, name), nil
	}
	if t.noTorch && req.Compat == "msprobe" {
		return skip("API %s.%s: msprobe benches it with %s.%s, which PyTorch does not have (msprobe SKIPs it; without --compat msprobe probe checks it as %s)",
			typ, name, benchModule[typ], name, t), nil
	}
	var l *lower.Lowered
	var err error
	if t.ms != "" {
		l, _, err = lower.MindSporeLower(t.ms, call)
	} else {
		call.Namespace, call.Name = t.ns, t.name
		l, err = lower.Lower(call)
	}
	if err != nil {
		return skip("%v", err), nil
	}
	return finish(comparePlan(l, req), req), nil
}

// comparePlan sets the comparison and backward of a lowered call the way
// the MindSpore checker pairs them: outputs zipped with the dumped ones,
// one sens per output.
func comparePlan(l *lower.Lowered, req *framework.PlanRequest) *framework.PlanResponse {
	p := l.Plan
	p.GradOutput = 0
	n := lower.OutputCount(p)
	if k := len(req.Outputs); k > 0 && k < n {
		// msprobe zips bench and tested outputs to the shorter list: a
		// MindSpore Tensor.max(axis) returns values only.
		for i := 0; i < k; i++ {
			p.Compare = append(p.Compare, i)
		}
	}
	// MindSpore seeds the backward with one sens per output (msprobe's bench
	// back-propagates each (output, sens) pair and accumulates, the same
	// vector-Jacobian product): the sens list pairs with the dumped outputs,
	// else with the op's outputs.
	if len(req.Outputs) > 1 || (len(req.Outputs) == 0 && l.MultiOutput) {
		k := n
		if p.Compare != nil {
			k = len(p.Compare)
		}
		for i := 0; i < k; i++ {
			p.GradOutputs = append(p.GradOutputs, i)
		}
	}
	return &framework.PlanResponse{Plan: p}
}

// finish adds the checker's rules to a plan: MindSpore differentiates every
// top-level positional tensor and writes one gradient row per top-level
// positional float tensor; dropout is judged by its zero share; with
// --compat msprobe the bench runs at the dumped dtype and statistics-mode
// inputs come from msprobe's MindSpore generator.
func finish(resp *framework.PlanResponse, req *framework.PlanRequest) *framework.PlanResponse {
	p := resp.Plan
	if p == nil {
		return resp
	}
	lower.RequireGrad(p, func(path string) bool {
		rest, ok := strings.CutPrefix(path, "args.")
		return ok && !strings.Contains(rest, ".")
	})
	lower.TensorArgs(req.Args, false, func(a framework.Arg) {
		if a.DType.IsFloat() {
			p.GradRows = append(p.GradRows, a.Path)
		}
	})
	if lower.ZeroShare(req.API) {
		p.CompareMode = framework.CompareZeroShare
	}
	if req.Compat == "msprobe" {
		p.Bench = &framework.BenchPolicy{}
		p.Generator = framework.GenMsprobeMindSpore
	}
	return resp
}

// planMSFused plans MindSpore's functional rms_norm, swiglu and
// rotary_position_embedding, the torch_npu fused operators' equivalents
// (issue 13), which msprobe's MindSpore checker does not check: every
// output compared, one sens per output.
func planMSFused(req *framework.PlanRequest, name string) *framework.PlanResponse {
	if err := lower.CheckDTypes(req.Args, req.Kwargs); err != nil {
		return skip("%s: %v", req.API, err)
	}
	l, _, err := lower.MindSporeFused(req.API, name, req.Args, req.Kwargs, req.Compat)
	if err != nil {
		return skip("%v", err)
	}
	p := l.Plan
	p.GradOutput = 0
	if l.MultiOutput {
		for i := 0; i < lower.OutputCount(p); i++ {
			p.GradOutputs = append(p.GradOutputs, i)
		}
	}
	return finish(&framework.PlanResponse{Plan: p}, req)
}

// planFusion plans Functional.flash_attention_score with MindSpore's
// signature and defaults (mindspore-precheck.md §5.8). The functional
// returns attention_out only: it alone is compared and takes the sens.
func planFusion(req *framework.PlanRequest) *framework.PlanResponse {
	if err := lower.CheckDTypes(req.Args, req.Kwargs); err != nil {
		return skip("%s: %v", req.API, err)
	}
	l, err := lower.FlashAttentionScore(req.API, req.Args, req.Kwargs, req.Compat)
	if err != nil {
		return skip("%v", err)
	}
	p := l.Plan
	p.Compare = []int{0}
	p.GradOutput = 0
	return &framework.PlanResponse{Plan: p}
}

// adaptTensorMethod rewrites MindSpore-only forms of Tensor methods into
// their PyTorch equivalents; a non-empty result is a skip reason.
func adaptTensorMethod(c *lower.Call) string {
	switch c.Name {
	case "transpose":
		// Tensor.transpose(dim0, dim1) is PyTorch's; transpose(*axes) (a
		// tuple, no axes, or not exactly two ints) is a permutation.
		if len(c.Kwargs) > 0 || len(c.Args) == 0 {
			return ""
		}
		rest := c.Args[1:]
		if len(rest) == 2 && rest[0].Kind == framework.ArgInt && rest[1].Kind == framework.ArgInt {
			return ""
		}
		c.Name = "permute"
		if len(rest) == 0 || (len(rest) == 1 && rest[0].Kind == framework.ArgNone) {
			r := len(c.Args[0].Shape)
			dims := make([]framework.Arg, r)
			for i := range dims {
				dims[i] = framework.Arg{Kind: framework.ArgInt, Int: int64(r - 1 - i)}
			}
			c.Args = []framework.Arg{c.Args[0], {Kind: framework.ArgList, Elems: dims}}
		}
	case "flatten":
		// MindSpore's flatten(order='C', *, start_dim=0, end_dim=-1).
		var kept []framework.NamedArg
		order := "C"
		for _, kw := range c.Kwargs {
			if kw.Name == "order" {
				order = kw.Arg.Str
				continue
			}
			kept = append(kept, kw)
		}
		if len(c.Args) > 1 && c.Args[1].Kind == framework.ArgString {
			order = c.Args[1].Str
			c.Args = append([]framework.Arg{c.Args[0]}, c.Args[2:]...)
		}
		if order != "C" {
			return fmt.Sprintf("argument \"order\": only row-major order 'C' is supported, got %q", order)
		}
		c.Kwargs = kept
	case "select":
		// MindSpore's Tensor.select(condition, y) is ops.select(condition,
		// self, y): Tensor.where(condition, y). A bool tensor second
		// argument tells it from PyTorch's select(dim, index).
		if cond, ok := argOrKwarg(c, 1, "condition"); ok && cond.Kind == framework.ArgTensor && cond.DType == tensor.Bool {
			c.Name = "where"
		}
	case "topk":
		// MindSpore's topk(k, dim=None, largest=True, sorted=True): None is
		// the last dim, PyTorch's default -1.
		dropNone(c, 2, "dim")
	case "max", "min":
		// MindSpore's keyword-only initial=, where=, return_indices=.
		var kept []framework.NamedArg
		for _, kw := range c.Kwargs {
			switch kw.Name {
			case "initial":
				if kw.Arg.Kind != framework.ArgNone {
					return "argument \"initial\" is not supported"
				}
			case "where":
				if kw.Arg.Kind != framework.ArgNone && !(kw.Arg.Kind == framework.ArgBool && kw.Arg.Bool) {
					return "argument \"where\" is not supported"
				}
			case "return_indices":
				if kw.Arg.Kind != framework.ArgBool {
					return "argument \"return_indices\": expected bool"
				}
			default:
				kept = append(kept, kw)
			}
		}
		c.Kwargs = kept
		// axis a tuple, or None with keepdims=True: amax / amin over
		// those dims (every dim), whose gradient is shared evenly by the
		// ties as max()'s is.
		d, ok := argOrKwarg(c, 1, "axis", "dim")
		if (ok && d.Kind == framework.ArgList) || (!ok || d.Kind == framework.ArgNone) && hasTrue(c, 2, "keepdims", "keep_dims", "keepdim") {
			if ok && d.Kind == framework.ArgNone {
				setArgOrKwarg(c, 1, framework.Arg{Kind: framework.ArgList}, "axis", "dim")
			}
			c.Name = "a" + c.Name
		}
	}
	return ""
}

// positionalDType moves a trailing positional dtype to the keyword dtype:
// mint's signatures take dtype by position where PyTorch's make it
// keyword-only (mint.cumsum(input, dim, dtype=None),
// mint.nn.functional.softmax(input, dim=None, dtype=None), mint.eye).
func positionalDType(c *lower.Call) {
	n := len(c.Args)
	if n == 0 || c.Args[n-1].Kind != framework.ArgDType || slices.ContainsFunc(c.Kwargs, func(kw framework.NamedArg) bool { return kw.Name == "dtype" }) {
		return
	}
	c.Kwargs = append(slices.Clone(c.Kwargs), framework.NamedArg{Name: "dtype", Arg: c.Args[n-1]})
	c.Args = c.Args[:n-1]
}

// argOrKwarg finds argument i of a Tensor method call (self is argument 0)
// given by position or by one of names.
func argOrKwarg(c *lower.Call, i int, names ...string) (framework.Arg, bool) {
	if i < len(c.Args) {
		return c.Args[i], true
	}
	for _, kw := range c.Kwargs {
		if slices.Contains(names, kw.Name) {
			return kw.Arg, true
		}
	}
	return framework.Arg{}, false
}

func setArgOrKwarg(c *lower.Call, i int, a framework.Arg, names ...string) {
	if i < len(c.Args) {
		c.Args = slices.Clone(c.Args)
		c.Args[i] = a
		return
	}
	c.Kwargs = slices.Clone(c.Kwargs)
	for k, kw := range c.Kwargs {
		if slices.Contains(names, kw.Name) {
			c.Kwargs[k].Arg = a
		}
	}
}

// hasTrue reports that argument i (or a keyword of names) is True.
func hasTrue(c *lower.Call, i int, names ...string) bool {
	a, ok := argOrKwarg(c, i, names...)
	return ok && a.Kind == framework.ArgBool && a.Bool
}

// dropNone removes a keyword argument name given as None; a positional
// None at i (the last one given) goes too.
func dropNone(c *lower.Call, i int, name string) {
	if i == len(c.Args)-1 && c.Args[i].Kind == framework.ArgNone {
		c.Args = c.Args[:i]
	}
	c.Kwargs = slices.DeleteFunc(slices.Clone(c.Kwargs), func(kw framework.NamedArg) bool { return kw.Name == name && kw.Arg.Kind == framework.ArgNone })
}
