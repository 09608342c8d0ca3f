package lower

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// Namespace is the PyTorch namespace an API name resolves in.
type Namespace int

// Namespaces of PyTorch APIs.
const (
	Functional   Namespace = iota + 1 // torch.nn.functional
	Torch                             // torch
	TensorMethod                      // torch.Tensor; self is the first positional argument
	NPU                               // torch_npu
	Aten                              // torch.ops.aten: the backward references of the fused operators
)

// String returns msprobe's dump prefix of the namespace.
func (n Namespace) String() string {
	switch n {
	case Functional:
		return "Functional"
	case Torch:
		return "Torch"
	case TensorMethod:
		return "Tensor"
	case NPU:
		return "NPU"
	case Aten:
		return "Aten"
	}
	return fmt.Sprintf("Namespace(%d)", int(n))
}

// Call is one dumped API call to lower with PyTorch semantics.
type Call struct {
	// API is the full name used in skip reasons: "Functional.conv2d.0".
	API       string
	Namespace Namespace
	// Name is the API name inside the namespace: "conv2d".
	Name   string
	Args   []framework.Arg
	Kwargs []framework.NamedArg
	// KwargAliases renames keyword arguments that the PyTorch signature
	// lacks (MindSpore's axis → dim); nil for none.
	KwargAliases map[string]string
	// Compat is framework.PlanRequest.Compat: "msprobe" makes the fused
	// operators follow msprobe's reference (fused-ops.md §17) instead of
	// the official semantics.
	Compat string
	// Outputs are the dumped outputs (nil when unknown): where msprobe's
	// dumper records two functions under one name, their shapes can tell
	// which was called.
	Outputs []framework.Arg
}

// Lowered is a lowered call.
type Lowered struct {
	// Plan has Op, Attrs (every attribute of the op's schema) and Inputs
	// set; the caller sets the framework's backward and comparison policy.
	Plan *framework.Plan
	// MultiOutput reports that the API returns a tuple or list of tensors
	// (split, chunk, max along a dim, max_pool2d with indices...).
	MultiOutput bool
}

type lowerFunc func(b *bound) (*framework.Plan, error)

type rule struct {
	sig *signature
	fn  lowerFunc
	// multi marks APIs that always return a tuple or list.
	multi bool
}

var rules = map[Namespace]map[string]*rule{}

// def registers fn under every "<Namespace>.<name>" entry with the PyTorch
// signature sig. Tensor methods take self as their first positional
// argument, so they share the function's signature; their form has no out=.
func def(fn lowerFunc, sig string, entries ...string) {
	defRule(&rule{sig: mustSig(sig), fn: fn}, entries...)
}

// defMulti is def for APIs that return a tuple or list.
func defMulti(fn lowerFunc, sig string, entries ...string) {
	defRule(&rule{sig: mustSig(sig), fn: fn, multi: true}, entries...)
}

func defRule(r *rule, entries ...string) {
	for _, e := range entries {
		ns, name := splitEntry(e)
		rr := *r
		if ns == TensorMethod {
			rr.sig = r.sig.withoutParam("out")
		}
		if rules[ns] == nil {
			rules[ns] = map[string]*rule{}
		}
		if _, dup := rules[ns][name]; dup {
			panic("lower: duplicate rule " + e)
		}
		rules[ns][name] = &rr
	}
}

// splitEntry splits "<Namespace>.<name>"; a bad entry panics (entries are
// literals of this package).
func splitEntry(e string) (Namespace, string) {
	prefix, name, ok := strings.Cut(e, ".")
	if !ok {
		panic("lower: bad entry " + e)
	}
	switch prefix {
	case "Functional":
		return Functional, name
	case "Torch":
		return Torch, name
	case "Tensor":
		return TensorMethod, name
	case "NPU":
		return NPU, name
	case "Aten":
		return Aten, name
	}
	panic("lower: bad namespace in " + e)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Supported reports whether the API has a lowering.
func Supported(ns Namespace, name string) bool {
	_, ok := rules[ns][name]
	return ok
}

// Names lists the API names of a namespace that have a lowering, sorted.
func Names(ns Namespace) []string {
	return sortedKeys(rules[ns])
}

// Lower plans one call. The error, when not nil, is the SKIP reason; it
// always names the API. Lower never panics.
func Lower(c *Call) (l *Lowered, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("%s: internal error while planning: %v", c.API, r)
		}
	}()
	return lower(c)
}

func lower(c *Call) (*Lowered, error) {
	r, ok := rules[c.Namespace][c.Name]
	if !ok {
		return nil, fmt.Errorf("%s: API %s.%s has no lowering", c.API, c.Namespace, c.Name)
	}
	b := &bound{api: c.API, name: c.Name, ns: c.Namespace, compat: c.Compat, outputs: c.Outputs}
	if err := r.sig.bind(b, c.Args, c.Kwargs, c.KwargAliases); err != nil {
		return nil, err
	}
	p, err := r.fn(b)
	if err != nil {
		return nil, err
	}
	if err := complete(p); err != nil {
		return nil, fmt.Errorf("%s: internal error: %v", c.API, err)
	}
	if err := CheckPlan(p); err != nil {
		return nil, fmt.Errorf("%s: internal error: %v", c.API, err)
	}
	return &Lowered{Plan: p, MultiOutput: r.multi || b.multi}, nil
}

// newPlan starts a plan.
func newPlan(op string, attrs ops.Attrs, inputs ...framework.Binding) *framework.Plan {
	if attrs == nil {
		attrs = ops.Attrs{}
	}
	return &framework.Plan{Op: op, Attrs: attrs, Inputs: inputs}
}

// complete fills every schema attribute the lowering left unset with the
// schema default, so that plans are self-describing.
func complete(p *framework.Plan) error {
	s, ok := ops.Lookup(p.Op)
	if !ok {
		return fmt.Errorf("unknown op %q", p.Op)
	}
	for _, a := range s.Attrs {
		if _, set := p.Attrs[a.Name]; set {
			continue
		}
		if a.Required {
			return fmt.Errorf("op %s: required attribute %q not set", p.Op, a.Name)
		}
		p.Attrs[a.Name] = a.Default
	}
	return nil
}

// isInplace reports whether an API name is an in-place variant: add_,
// relu_, __iadd__...
func isInplace(name string) bool {
	if strings.HasPrefix(name, "__") {
		switch name {
		case "__iadd__", "__isub__", "__imul__", "__idiv__", "__itruediv__", "__ifloordiv__", "__ipow__":
			return true
		}
		return false
	}
	return strings.HasSuffix(name, "_")
}

// inplaceAttr sets the inplace attribute from the API name.
func (b *bound) inplaceAttr(attrs ops.Attrs) ops.Attrs {
	attrs["inplace"] = ops.BoolAttr(isInplace(b.name))
	return attrs
}

// usedOps lists the canonical ops that lowerings produce; a file that adds
// a family of lowerings appends its ops from its init.
var usedOps = []string{
	"abs", "adaptive_avg_pool2d", "add", "addmm", "batch_norm", "bmm", "cat", "clamp", "clone", "convolution",
	"cos", "cross_entropy", "cumsum", "div", "dropout", "embedding", "exp", "gelu", "layer_norm", "linear", "log",
	"log_softmax", "masked_fill", "matmul", "max", "max_dim", "max_pool2d", "maximum", "mean", "min", "min_dim",
	"minimum", "mm", "mul", "neg", "nll_loss", "npu.fusion_attention", "npu.rms_norm", "ones_like", "permute", "pow", "reciprocal", "relu",
	"reshape", "rsqrt", "sigmoid", "silu", "sin", "softmax", "split_with_sizes", "sqrt", "stack", "sub", "sum",
	"tanh", "transpose", "where",
}

// Ops lists the canonical ops that lowerings produce, sorted; npu.rms_norm
// comes only from the NPU namespace, npu.fusion_attention from the NPU
// namespace and FlashAttentionScore.
func Ops() []string {
	out := append([]string{}, usedOps...)
	sort.Strings(out)
	return slices.Compact(out)
}
