package lower

import (
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestMindSporeAPIRules: a plain call of every MindSpore-only entry lowers
// to one of its declared ops, which lowerings are known to produce; the
// entries shadow no PyTorch rule of the same namespace that the MindSpore
// plugin would otherwise pick.
func TestMindSporeAPIRules(t *testing.T) {
	x := tensorArg(tensor.Float32, 3, 3)
	x.Path = "args.0"
	src := tensorArg(tensor.Float16, 3, 3)
	src.Path = "args.1"
	calls := map[string][]framework.Arg{
		"Mint.ones":    {{Kind: framework.ArgList, Elems: []framework.Arg{intArg(2), intArg(3)}}},
		"Mint.zeros":   {intArg(3)},
		"Mint.trace":   {x},
		"Tensor.to":    {x, {Kind: framework.ArgDType, Str: "Float16"}},
		"Tensor.copy_": {x, src},
		"Tensor.zero_": {x},
		"Tensor.all":   {x, {Kind: framework.ArgList}},
		"Tensor.any":   {x, intArg(1)},
	}
	used := Ops()
	for _, api := range MindSporeAPIs() {
		args, ok := calls[api]
		if !ok {
			t.Errorf("%s: no sample call", api)
			continue
		}
		l, ok, err := MindSporeLower(api, &Call{API: api + ".0", Args: args})
		if !ok || err != nil {
			t.Errorf("%s: ok %v err %v", api, ok, err)
			continue
		}
		if !slices.Contains(MindSporeOpsOf(api), l.Plan.Op) {
			t.Errorf("%s: op %s not in %v", api, l.Plan.Op, MindSporeOpsOf(api))
		}
		for _, op := range MindSporeOpsOf(api) {
			if !slices.Contains(used, op) {
				t.Errorf("%s: op %s is not in Ops()", api, op)
			}
		}
	}
	if _, ok, _ := MindSporeLower("Mint.add", &Call{API: "Mint.add.0"}); ok {
		t.Error("Mint.add is not MindSpore-only")
	}
}
