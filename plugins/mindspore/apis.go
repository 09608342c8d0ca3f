package mindspore

import (
	"strings"

	"github.com/probe-dev/probe/plugins/internal/lower"
	"github.com/probe-dev/probe/sdk/framework"
)

// target is how an API of a MindSpore dump is lowered: a MindSpore-only
// rule of package lower (ms, "Mint.ones"), or the PyTorch rule ns.name.
type target struct {
	ms   string
	ns   lower.Namespace
	name string
	// noTorch: msprobe's bench (torch.<api>, torch.nn.functional.<api>)
	// has no function of the dumped name, so msprobe SKIPs the API.
	noTorch bool
}

func (t target) String() string {
	if t.ms != "" {
		return t.ms
	}
	return t.ns.String() + "." + t.name
}

// benchModule is the PyTorch module msprobe benches a dump prefix with.
var benchModule = map[string]string{"Mint": "torch", "MintFunctional": "torch.nn.functional", "Tensor": "torch.Tensor"}

// aliases are the names of msprobe's MindSpore lists that are another
// API's computation: mint's functional names (mint.gelu is
// mint.nn.functional.gelu), the *_ex / *_ext entries of the dumper's YAML
// (mint's own implementations, add_ext behind mint.add, ...; spec pitfall
// 23 proposes this mapping) and mint.nn.functional's MindSpore spellings
// (dense is linear, bce_with_logits is binary_cross_entropy_with_logits).
// Each is lowered as the API it names, with that API's signature (mint
// follows PyTorch's).
var aliases = map[string]string{
	"Mint.avg_pool2d":  "Functional.avg_pool2d",
	"Mint.fold":        "Functional.fold",
	"Mint.gelu":        "Functional.gelu",
	"Mint.grid_sample": "Functional.grid_sample",
	"Mint.interpolate": "Functional.interpolate",
	"Mint.leaky_relu":  "Functional.leaky_relu",
	"Mint.linear":      "Functional.linear",
	"Mint.one_hot":     "Functional.one_hot",
	"Mint.pad":         "Functional.pad",
	"Mint.silu":        "Functional.silu",
	"Mint.softplus":    "Functional.softplus",
	"Mint.unfold":      "Functional.unfold",
	// mint.unique(input, sorted=True, return_inverse=False,
	// return_counts=False, dim=None) is torch.unique's signature, which
	// Tensor.unique's rule has.
	"Mint.unique": "Tensor.unique",

	"Mint.add_ex":     "Torch.add",
	"Mint.any_ex":     "Torch.any",
	"Mint.baddbmm_ex": "Torch.baddbmm",
	"Mint.cat_ex":     "Torch.cat",
	"Mint.flip_ex":    "Torch.flip",
	"Mint.mean_ex":    "Torch.mean",
	"Mint.ones_ex":    "Mint.ones",
	"Mint.permute_ex": "Torch.permute",
	"Mint.sqrt_ex":    "Torch.sqrt",
	"Mint.sub_ex":     "Torch.sub",
	"Mint.zeros_ex":   "Mint.zeros",

	"MintFunctional.batch_norm_ex":   "Functional.batch_norm",
	"MintFunctional.bce_with_logits": "Functional.binary_cross_entropy_with_logits",
	"MintFunctional.dense":           "Functional.linear",
	"MintFunctional.max_pool2d_ex":   "Functional.max_pool2d",
	"MintFunctional.one_hot_ext":     "Functional.one_hot",
	"MintFunctional.softmax_ex":      "Functional.softmax",
}

// torchHas are the aliases whose dumped name PyTorch has too (torch.unique).
var torchHas = map[string]bool{"Mint.unique": true}

// reasons say why the names of msprobe's MindSpore lists that probe does
// not plan are not checked (a phrase after the API name).
var reasons = map[string]string{}

func init() {
	because := func(why string, apis ...string) {
		for _, a := range apis {
			reasons[a] = why
		}
	}
	because("names a sub-module (or the __future__ import absolute_import) that the dumper's YAML lists, not a function: there is no computation to check",
		"Mint.absolute_import", "Mint.functional", "Mint.linalg", "Mint.nn", "Mint.special", "MintFunctional.absolute_import")
	because("is random by nature: its values cannot be compared with a reference",
		"Mint.bernoulli", "Mint.multinomial", "Mint.normal", "Mint.rand", "Mint.rand_like", "MintFunctional.normal")
	because("returns a Python number read from a one-element tensor, with nothing computed on the device to check", "Mint.item", "Tensor.item")
	because("returns a Python int (the element count), not a tensor: nothing computed to check", "Tensor.numel")
	because("returns the shape (Python ints), not a tensor: nothing computed to check", "Tensor.size")
	because("returns a Python bool about the memory layout, not a tensor: nothing computed to check", "Tensor.is_contiguous")
	because("returns a NumPy array, not a tensor (msprobe SKIPs it: unsupported type)", "Tensor.numpy")
	because("returns a Python list, not a tensor: its elements are copies with nothing computed to check", "Tensor.tolist")
}

// MintFunctional.softmax called without dim keeps PyTorch's implicit dim
// (0 for 0-, 1- and 3-D inputs, else 1), the rule of msprobe's bench
// torch.nn.functional.softmax: MindSpore's documentation of
// mindspore.mint.nn.functional.softmax(input, dim=None, dtype=None)
// (r2.3.1 to r2.5.0) gives the default None without saying which axis it
// means; its one example is 1-D, where every rule agrees, and the Ascend
// kernel itself refuses a None dim (pyboost SoftmaxExtAscendCustomize: "In
// SoftmaxExt, dim should not be None").

// namespaceOf maps the prefix of a target entry to its namespace.
var namespaceOf = map[string]lower.Namespace{"Functional": lower.Functional, "Torch": lower.Torch, "Tensor": lower.TensorMethod, "Mint": lower.Torch, "MintFunctional": lower.Functional}

// resolve finds the lowering of the API typ.name of a MindSpore dump.
func resolve(typ, name string) (target, bool) {
	key := typ + "." + name
	to, aliased := aliases[key]
	if !aliased {
		to = key
	}
	t := target{noTorch: aliased && !torchHas[key]}
	if lower.MindSporeOpsOf(to) != nil {
		t.ms = to
		return t, true
	}
	prefix, n, _ := strings.Cut(to, ".")
	t.ns, t.name = namespaceOf[prefix], n
	return t, lower.Supported(t.ns, t.name)
}

// opsOf is the ops of a plain call of typ.name (the support table's); nil
// when probe does not plan it.
func opsOf(typ, name string) []string {
	if _, why := reasons[typ+"."+name]; why {
		return nil
	}
	t, ok := resolve(typ, name)
	switch {
	case !ok:
		return nil
	case t.ms != "":
		return lower.MindSporeOpsOf(t.ms)
	}
	return lower.OpsOf(t.ns, t.name)
}

// mindSporeDTypes rewrites MindSpore's dtype objects spelled as Python
// prints them ("mindspore.float32", "mindspore.bool_") to the short names.
func mindSporeDTypes(args []framework.Arg) []framework.Arg {
	var out []framework.Arg
	for i, a := range args {
		b := mindSporeDType(a)
		if out == nil && !sameArg(a, b) {
			out = append([]framework.Arg{}, args[:i]...)
		}
		if out != nil {
			out = append(out, b)
		}
	}
	if out == nil {
		return args
	}
	return out
}

func mindSporeKwargDTypes(kwargs []framework.NamedArg) []framework.NamedArg {
	var out []framework.NamedArg
	for i, kw := range kwargs {
		b := mindSporeDType(kw.Arg)
		if out == nil && !sameArg(kw.Arg, b) {
			out = append([]framework.NamedArg{}, kwargs[:i]...)
		}
		if out != nil {
			out = append(out, framework.NamedArg{Name: kw.Name, Arg: b})
		}
	}
	if out == nil {
		return kwargs
	}
	return out
}

// sameArg reports that mindSporeDType left a unchanged.
func sameArg(a, b framework.Arg) bool {
	return a.Kind == b.Kind && a.Str == b.Str && len(a.Elems) == len(b.Elems) && (len(a.Elems) == 0 || &a.Elems[0] == &b.Elems[0])
}

func mindSporeDType(a framework.Arg) framework.Arg {
	switch a.Kind {
	case framework.ArgDType:
		if s, ok := strings.CutPrefix(a.Str, "mindspore."); ok {
			a.Str = strings.TrimSuffix(s, "_")
		}
	case framework.ArgList:
		if elems := mindSporeDTypes(a.Elems); len(elems) > 0 && &elems[0] != &a.Elems[0] {
			a.Elems = elems
		}
	}
	return a
}
