package mindspore

import (
	"strings"

	"github.com/probe-dev/probe/plugins/internal/lower"
	"github.com/probe-dev/probe/sdk/framework"
)

// DialectMindTorch is framework.PlanRequest.Dialect for a MindSpore dump
// written by MsAdapter ("framework": "mindtorch" in dump.json).
const DialectMindTorch = "mindtorch"

// mindTorchNamespaces are the prefixes of an MsAdapter dump that
// msprobe's MindSpore checker checks (mindspore-precheck.md §3.2, §4.1):
// MsAdapter's torch.<api>, torch.nn.functional.<api> and
// torch.Tensor.<method>, benched with the same PyTorch names.
var mindTorchNamespaces = map[string]lower.Namespace{
	"Torch":      lower.Torch,
	"Functional": lower.Functional,
	"Tensor":     lower.TensorMethod,
}

// planMindTorch plans a call of an MsAdapter dump (§4.10): MsAdapter's API
// has the signature and semantics of the PyTorch API it is benched with,
// so the call is lowered as the PyTorch plugin lowers it (no MindSpore
// spellings, every Torch.*, Functional.* and Tensor.* name, not only the
// checker's lists), its MindSpore dtype objects read as dtype names; the
// rest is MindSpore's checker: every top-level positional tensor
// differentiated, one sens per output, the MindSpore standard. Names of a
// sub-module (Torch.linalg.det.0) are checked too; with --compat msprobe
// they SKIP, as msprobe resolves only <type>.<api>.<index> (§4.1).
func planMindTorch(req *framework.PlanRequest) *framework.PlanResponse {
	parts := strings.Split(req.API, ".")
	if len(parts) < 3 || parts[0] == "" || parts[1] == "" || parts[len(parts)-1] == "" {
		return skip("API name %q is not of the form <type>.<api>.<count>", req.API)
	}
	if len(parts) != 3 && req.Compat == "msprobe" {
		return skip("API name %q must have exactly three segments <type>.<api>.<index> to be resolved", req.API)
	}
	typ, name := parts[0], strings.Join(parts[1:len(parts)-1], ".")
	ns, ok := mindTorchNamespaces[typ]
	switch {
	case typ == "Functional" && fusionAPIs[name]:
		// msprobe benches flash_attention_score with its own reference,
		// whatever the prefix (§4.1).
		return finish(planFusion(req), req)
	case !ok:
		return skip("API %s is not checked in a MindTorch dump (API type %s): only Torch, Functional and Tensor APIs are", req.API, typ)
	case uninitialized[name] && typ != "Functional":
		return skip("API %s.%s returns uninitialized memory: its values cannot be compared with a reference", typ, name)
	case typ == "Tensor" && name == "to":
		// run_ut's fixed black list keeps Tensor.to out of PyTorch's
		// rules; MindSpore's checker checks it: the dtype form, a cast.
		return mindTorchTo(req)
	case !lower.Supported(ns, name):
		if why, ok := lower.Reason(ns, name); ok {
			return skip("API %s", why)
		}
		return skip("API %s.%s is not supported by the mindspore framework plugin yet (MindTorch dump, PyTorch semantics)", typ, name)
	}
	if err := lower.CheckDTypes(req.Args, req.Kwargs); err != nil {
		return skip("%s: %v", req.API, err)
	}
	l, err := lower.Lower(&lower.Call{API: req.API, Namespace: ns, Name: name, Args: mindSporeDTypes(req.Args),
		Kwargs: mindSporeKwargDTypes(req.Kwargs), Compat: req.Compat, Outputs: req.Outputs})
	if err != nil {
		return skip("%v", err)
	}
	return finish(comparePlan(l, req), req)
}

// uninitialized are the factories of run_ut's fixed black list other than
// to: their values are whatever the memory held.
var uninitialized = map[string]bool{"empty": true, "empty_like": true, "empty_strided": true, "new_empty": true,
	"new_empty_strided": true, "empty_with_format": true}

// mindTorchTo plans Tensor.to(dtype, non_blocking=False, copy=False): a
// cast; its device forms are refused with the reason.
func mindTorchTo(req *framework.PlanRequest) *framework.PlanResponse {
	if err := lower.CheckDTypes(req.Args, req.Kwargs); err != nil {
		return skip("%s: %v", req.API, err)
	}
	l, _, err := lower.MindSporeLower("Tensor.to", &lower.Call{API: req.API, Name: "to", Args: mindSporeDTypes(req.Args),
		Kwargs: mindSporeKwargDTypes(req.Kwargs), Compat: req.Compat, Outputs: req.Outputs})
	if err != nil {
		return skip("%v", err)
	}
	return finish(comparePlan(l, req), req)
}
