package lower

import (
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// OpsOf returns the canonical ops a plain call of an API lowers to, for the
// support table (`probe ops`): the lowering is run on a made-up call whose
// required arguments start as float32 tensors of shape [2, 3] and change
// kind whenever the lowering names an argument and the kind it expected
// ("argument \"dim\": expected int, got tensor"); a call with a dim
// argument is also tried with dim=1 (max lowers to max or max_dim). A
// lowering that no made-up call satisfies takes its ops from declaredOps.
// Nil when the API has no lowering.
func OpsOf(ns Namespace, name string) []string {
	r, ok := rules[ns][name]
	if !ok {
		return nil
	}
	if ops, ok := declaredOps[ns.String()+"."+name]; ok {
		return ops
	}
	found := map[string]bool{}
	for _, extra := range []map[string]framework.Arg{nil, {"dim": intArg(1)}, {"min": {Kind: framework.ArgFloat, Float: 0.5}}} {
		skip := false
		for k := range extra {
			skip = skip || !r.sig.has(k) || slices.ContainsFunc(r.sig.params, func(p param) bool { return p.name == k && p.def == nil })
		}
		if skip {
			continue
		}
		if op, ok := sampleLowering(ns, name, r, extra); ok {
			found[op] = true
		}
	}
	out := make([]string, 0, len(found))
	for op := range found {
		out = append(out, op)
	}
	sort.Strings(out)
	return out
}

// declaredOps are the ops of lowerings that no made-up call of OpsOf
// satisfies (their arguments need shapes that fit each other).
var declaredOps = map[string][]string{}

// declareOps records the ops of API entries that OpsOf cannot find by
// itself; TestOpsOfEveryAPI says which need it.
func declareOps(ops []string, entries ...string) {
	for _, e := range entries {
		ns, name := splitEntry(e)
		declaredOps[ns.String()+"."+name] = ops
	}
}

var (
	missingRE  = regexp.MustCompile(`missing required argument "([^"]+)"`)
	namedRE    = regexp.MustCompile(`argument "([^"]+)": `)
	expectedRE = regexp.MustCompile(`argument "[^"]+": expected ([a-z ]+)`)
)

// sampleLowering lowers made-up calls of the rule; it returns the plan's op
// of the first call accepted. When the lowering rejects an argument, the
// argument becomes the next sample of the kind the message expected (or of
// its own kind when the message names none).
func sampleLowering(ns Namespace, name string, r *rule, extra map[string]framework.Arg) (op string, ok bool) {
	type slot struct {
		samples []framework.Arg
		i       int
		jumped  map[string]bool // the kinds a message asked for, once each
	}
	slots := map[string]*slot{}
	var order []string
	for _, p := range r.sig.params {
		if p.variadic || p.def != nil {
			continue
		}
		slots[p.name] = &slot{samples: allSamples()}
		order = append(order, p.name)
	}
	variadics := [][]framework.Arg{nil, {intArg(1), intArg(0)}, {intArg(3), intArg(2)}, {intArg(1)},
		{tensorArg(tensor.Float32, 2, 3)}, {tensorArg(tensor.Float32, 2, 3), tensorArg(tensor.Float32, 2, 3)}}
	if !slices.ContainsFunc(r.sig.params, func(p param) bool { return p.variadic }) {
		variadics = variadics[:1]
	}
	for _, rest := range variadics {
		for range 64 { // each retry changes one argument
			var args []framework.Arg
			for i, n := range order {
				sl := slots[n]
				args = append(args, withPaths(sl.samples[sl.i], fmt.Sprintf("args.%d", i)))
			}
			for j, a := range rest {
				args = append(args, withPaths(a, fmt.Sprintf("args.%d", len(order)+j)))
			}
			var kwargs []framework.NamedArg
			for k, v := range extra {
				kwargs = append(kwargs, framework.NamedArg{Name: k, Arg: withPaths(v, "kwargs."+k)})
			}
			l, err := Lower(&Call{API: ns.String() + "." + name + ".0", Namespace: ns, Name: name, Args: args, Kwargs: kwargs})
			if err == nil {
				return l.Plan.Op, true
			}
			if m := missingRE.FindStringSubmatch(err.Error()); m != nil && r.sig.has(m[1]) && slots[m[1]] == nil {
				// an optional parameter the lowering needs after all
				slots[m[1]] = &slot{samples: allSamples()}
				order = append(order, m[1])
				continue
			}
			m := namedRE.FindStringSubmatch(err.Error())
			if m == nil {
				break
			}
			sl, bound := slots[m[1]]
			if !bound {
				break
			}
			if e := expectedRE.FindStringSubmatch(err.Error()); e != nil {
				if kind := samplesOf(e[1]); kind != nil && !sl.jumped[e[1]] {
					if sl.jumped == nil {
						sl.jumped = map[string]bool{}
					}
					sl.jumped[e[1]] = true
					sl.samples, sl.i = append(kind, allSamples()...), 0
					continue
				}
			}
			if sl.i+1 >= len(sl.samples) {
				break
			}
			sl.i++
		}
	}
	return "", false
}

// samplesOf are arguments of the kind a lowering's message expected, in
// the order they are tried.
func samplesOf(expected string) []framework.Arg {
	ints := func(v ...int64) framework.Arg {
		a := framework.Arg{Kind: framework.ArgList}
		for _, x := range v {
			a.Elems = append(a.Elems, intArg(x))
		}
		return a
	}
	switch expected {
	case "tensor", "tensor or number", "a floating tensor":
		return []framework.Arg{tensorArg(tensor.Float32, 2, 3), tensorArg(tensor.Float32, 1, 2, 4, 4),
			tensorArg(tensor.Float32), tensorArg(tensor.Bool, 2, 3), tensorArg(tensor.Int64, 2, 3), tensorArg(tensor.Int64, 2)}
	case "int", "a single int or a list of ":
		return []framework.Arg{intArg(1), intArg(0)}
	case "ints", "list of ints", "int or list of ints":
		return []framework.Arg{ints(3, 2), ints(2, 3), ints(1, 1), ints(3), ints(6), ints(4, 2, 3)}
	case "float", "number":
		return []framework.Arg{{Kind: framework.ArgFloat, Float: 0.5}}
	case "bool":
		return []framework.Arg{{Kind: framework.ArgBool}}
	case "dtype":
		return []framework.Arg{{Kind: framework.ArgDType, Str: "torch.float32"}}
	case "str":
		return []framework.Arg{{Kind: framework.ArgString, Str: "mean"}}
	case "a list of tensors":
		return []framework.Arg{{Kind: framework.ArgList, Elems: []framework.Arg{tensorArg(tensor.Float32, 2, 3), tensorArg(tensor.Float32, 2, 3)}}}
	case "scalar type Long but found ":
		return []framework.Arg{tensorArg(tensor.Int64, 2), tensorArg(tensor.Int64, 2, 3)}
	}
	return nil
}

// allSamples is every sample, tensors first: what a parameter starts
// with, and what a rejected one cycles through when the lowering's message
// names no kind.
func allSamples() []framework.Arg {
	var out []framework.Arg
	for _, k := range []string{"tensor", "int", "ints", "float", "bool"} {
		out = append(out, samplesOf(k)...)
	}
	return out
}

func intArg(v int64) framework.Arg { return framework.Arg{Kind: framework.ArgInt, Int: v} }

func tensorArg(dt tensor.DType, shape ...int) framework.Arg {
	return framework.Arg{Kind: framework.ArgTensor, TypeName: "torch.Tensor", DType: dt, DTypeName: "torch." + dt.String(), Shape: shape, RequiresGrad: dt.IsFloat()}
}

// withPaths gives a made-up argument, and the tensors of a list, the paths
// a dump would.
func withPaths(a framework.Arg, path string) framework.Arg {
	switch a.Kind {
	case framework.ArgTensor:
		a.Path = path
	case framework.ArgList:
		elems := make([]framework.Arg, len(a.Elems))
		for i, e := range a.Elems {
			elems[i] = withPaths(e, fmt.Sprintf("%s.%d", path, i))
		}
		a.Elems = elems
	}
	return a
}

func init() {
	// Lowerings whose arguments must fit each other's shapes (a 3-D or 5-D
	// convolution, attention's layouts) or that take lists OpsOf does not
	// make up.
	declareOps([]string{"convolution"}, "Functional.conv1d", "Functional.conv3d", "Torch.conv1d", "Torch.conv3d")
	declareOps([]string{"adaptive_avg_pool2d"}, "Functional.adaptive_avg_pool2d")
	declareOps([]string{"permute"}, "Torch.permute", "Tensor.permute")
	declareOps([]string{"roll"}, "Torch.roll", "Tensor.roll")
	declareOps([]string{"split_with_sizes"}, "Torch.tensor_split", "Tensor.tensor_split")
	declareOps([]string{"where"}, "Torch.where")
	declareOps([]string{"npu.fusion_attention"}, "NPU.npu_fusion_attention")
}
