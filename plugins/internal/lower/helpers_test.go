package lower

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Descriptor builders for tests.

func tn(path string, d tensor.DType, shape ...int) framework.Arg {
	if shape == nil {
		shape = []int{}
	}
	return framework.Arg{Kind: framework.ArgTensor, Path: path, DType: d, DTypeName: d.TorchName(), Shape: shape}
}
func f32(path string, shape ...int) framework.Arg { return tn(path, tensor.Float32, shape...) }
func i64(path string, shape ...int) framework.Arg { return tn(path, tensor.Int64, shape...) }
func iv(v int64) framework.Arg                    { return framework.Arg{Kind: framework.ArgInt, Int: v} }
func fv(v float64) framework.Arg                  { return framework.Arg{Kind: framework.ArgFloat, Float: v} }
func bv(v bool) framework.Arg                     { return framework.Arg{Kind: framework.ArgBool, Bool: v} }
func sv(v string) framework.Arg                   { return framework.Arg{Kind: framework.ArgString, Str: v} }
func nv() framework.Arg                           { return framework.Arg{Kind: framework.ArgNone} }
func dtv(v string) framework.Arg                  { return framework.Arg{Kind: framework.ArgDType, Str: v} }
func szv(v ...int64) framework.Arg                { return framework.Arg{Kind: framework.ArgSize, Ints: v} }
func lv(elems ...framework.Arg) framework.Arg {
	if elems == nil {
		elems = []framework.Arg{}
	}
	return framework.Arg{Kind: framework.ArgList, Elems: elems}
}
func ints(v ...int64) framework.Arg {
	l := lv()
	for _, x := range v {
		l.Elems = append(l.Elems, iv(x))
	}
	return l
}
func kw(name string, a framework.Arg) framework.NamedArg {
	return framework.NamedArg{Name: name, Arg: a}
}

// bindStr renders a binding compactly: "args.0", "none", "int:2",
// "float:0.5", "bool:1".
func bindStr(b framework.Binding) string {
	switch b.Kind {
	case framework.BindTensor:
		return b.Path
	case framework.BindScalar:
		switch b.Scalar.Kind {
		case ops.ScalarInt:
			return fmt.Sprintf("int:%d", b.Scalar.I)
		case ops.ScalarBool:
			return fmt.Sprintf("bool:%g", b.Scalar.F)
		}
		return fmt.Sprintf("float:%g", b.Scalar.F)
	}
	return "none"
}

// lcase is one lowering expectation.
type lcase struct {
	name   string // "Torch.add" etc.
	args   []framework.Arg
	kwargs []framework.NamedArg
	op     string
	attrs  ops.Attrs // checked exactly for the listed names
	in     []string  // expected bindings (bindStr); nil: not checked
	multi  bool
	err    string          // expected skip substring; empty: a plan is expected
	compat string          // Call.Compat
	outs   []framework.Arg // Call.Outputs
}

var nsByPrefix = map[string]Namespace{"Functional": Functional, "Torch": Torch, "Tensor": TensorMethod, "NPU": NPU, "Aten": Aten}

func runCases(t *testing.T, cases []lcase, aliases map[string]string) {
	t.Helper()
	for _, c := range cases {
		prefix, name, _ := strings.Cut(c.name, ".")
		api := c.name + ".0"
		t.Run(c.name+"/"+c.op+c.err, func(t *testing.T) {
			l, err := lower(&Call{API: api, Namespace: nsByPrefix[prefix], Name: name, Args: c.args, Kwargs: c.kwargs, KwargAliases: aliases, Compat: c.compat, Outputs: c.outs})
			if c.err != "" {
				if err == nil {
					t.Fatalf("got plan %s %v, want skip containing %q", l.Plan.Op, l.Plan.Attrs, c.err)
				}
				if !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), api+": ") {
					t.Fatalf("skip %q, want it to start with %q and contain %q", err, api+": ", c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected skip: %v", err)
			}
			p := l.Plan
			if p.Op != c.op {
				t.Fatalf("op %s, want %s", p.Op, c.op)
			}
			if err := CheckPlan(p); err != nil {
				t.Fatalf("plan fails the schema: %v", err)
			}
			for k, want := range c.attrs {
				got, ok := p.Attrs[k]
				if !ok || !reflect.DeepEqual(normAttr(got), normAttr(want)) {
					t.Errorf("attr %s = %+v, want %+v", k, got, want)
				}
			}
			if c.in != nil {
				var got []string
				for _, b := range p.Inputs {
					got = append(got, bindStr(b))
				}
				if !reflect.DeepEqual(got, c.in) {
					t.Errorf("inputs %v, want %v", got, c.in)
				}
			}
			if l.MultiOutput != c.multi {
				t.Errorf("multi-output %v, want %v", l.MultiOutput, c.multi)
			}
		})
	}
}

// normAttr makes empty and nil int lists compare equal.
func normAttr(a ops.Attr) ops.Attr {
	if a.Kind == ops.AttrInts && len(a.Ints) == 0 {
		a.Ints = nil
	}
	return a
}

var (
	fa = ops.FloatAttr
	ia = ops.IntAttr
	ba = ops.BoolAttr
	sa = ops.StringAttr
	la = ops.IntsAttr
	na = ops.NoneAttr
)
