package lower

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// pool is a mix of well-formed and ill-formed argument descriptors.
func pool() []framework.Arg {
	unknown := framework.Arg{Kind: framework.ArgUnknown, TypeName: "torch.memory_format"}
	return []framework.Arg{
		f32("", 2, 3), f32("", 3), f32("", 2, 3, 4, 4), f32("", 4, 3, 3, 3), f32(""), f32("", 3, 2),
		tn("", tensor.Float16, 2, 3), tn("", tensor.BFloat16, 3), i64("", 2), i64("", 2, 3), tn("", tensor.Bool, 2, 3),
		tn("", tensor.Int32, 2), f32("", 0, 3), f32("", 2, 3, 4),
		iv(-1), iv(0), iv(1), iv(2), iv(3), fv(0.5), fv(-1), bv(true), bv(false),
		sv("same"), sv("valid"), sv("mean"), sv("tanh"), sv("floor"), sv("x"), nv(),
		ints(1, 1), ints(3), ints(), ints(2, -1), ints(1, 0), szv(3, 2), szv(),
		lv(f32("", 2, 3), f32("", 2, 3)), lv(iv(1), nv()), lv(fv(1)),
		dtv("torch.float64"), dtv("Float32"), dtv("torch.complex64"),
		{Kind: framework.ArgSlice, Elems: []framework.Arg{nv(), iv(2), nv()}}, {Kind: framework.ArgEllipsis},
		{Kind: framework.ArgDevice, Str: "npu:0"}, unknown,
	}
}

// withPath sets the descriptor's path (and its list elements').
func withPath(a framework.Arg, path string) framework.Arg {
	a.Path = path
	if a.Kind == framework.ArgList {
		elems := make([]framework.Arg, len(a.Elems))
		for i, e := range a.Elems {
			elems[i] = withPath(e, fmt.Sprintf("%s.%d", path, i))
		}
		a.Elems = elems
	}
	return a
}

// sampleCalls draws deterministic random calls of one API: positional
// arguments, keyword arguments named after the signature, and stray names.
func sampleCalls(ns Namespace, name string, n int) []*Call {
	r := rules[ns][name]
	pl := pool()
	rng := rand.New(rand.NewPCG(uint64(len(name)), uint64(ns)))
	var names []string
	for _, p := range r.sig.params {
		names = append(names, p.name)
	}
	names = append(names, "bogus", "out", "axis")
	var out []*Call
	for i := 0; i < n; i++ {
		c := &Call{API: fmt.Sprintf("%s.%s.%d", ns, name, i), Namespace: ns, Name: name,
			KwargAliases: map[string]string{"axis": "dim"}}
		np := rng.IntN(6)
		for j := 0; j < np; j++ {
			c.Args = append(c.Args, withPath(pl[rng.IntN(len(pl))], fmt.Sprintf("args.%d", j)))
		}
		nk := rng.IntN(3)
		for j := 0; j < nk; j++ {
			k := names[rng.IntN(len(names))]
			c.Kwargs = append(c.Kwargs, framework.NamedArg{Name: k, Arg: withPath(pl[rng.IntN(len(pl))], "kwargs."+k)})
		}
		out = append(out, c)
	}
	return out
}

// TestNeverPanics throws random well- and ill-formed descriptors at every
// lowering (without Lower's recover): each call must give a valid plan or a
// skip reason that names the API.
func TestNeverPanics(t *testing.T) {
	plans, skips := 0, 0
	for _, ns := range []Namespace{Functional, Torch, TensorMethod, NPU} {
		for _, name := range Names(ns) {
			for _, c := range sampleCalls(ns, name, 150) {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s panicked on args %+v kwargs %+v: %v", c.API, c.Args, c.Kwargs, r)
						}
					}()
					l, err := lower(c)
					switch {
					case err != nil:
						skips++
						if !strings.HasPrefix(err.Error(), c.API+": ") || len(err.Error()) <= len(c.API)+2 {
							t.Errorf("skip reason %q does not name %s", err, c.API)
						}
						if strings.Contains(err.Error(), "internal error") {
							t.Errorf("%s: %v (args %+v kwargs %+v)", c.API, err, c.Args, c.Kwargs)
						}
					default:
						plans++
						if err := CheckPlan(l.Plan); err != nil {
							t.Errorf("%s: %v", c.API, err)
						}
					}
				}()
			}
		}
	}
	if plans == 0 || skips == 0 {
		t.Fatalf("plans %d, skips %d: the sampler does not exercise both outcomes", plans, skips)
	}
}

func TestLowerUnknownAPI(t *testing.T) {
	_, err := Lower(&Call{API: "Torch.nope.0", Namespace: Torch, Name: "nope"})
	if err == nil || !strings.HasPrefix(err.Error(), "Torch.nope.0: ") {
		t.Fatalf("got %v", err)
	}
}
