package lower

import (
	"fmt"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// CheckPlan verifies a plan against the op's schema in sdk/ops: the op
// exists; every attribute is one of the schema's, of the schema's kind (or
// None where the schema's default is None), and every schema attribute is
// present, required ones not None; the bindings match the inputs (one per
// input, variadic inputs one or more; None only for optional inputs,
// scalars only where the schema allows them, tensors with a path); Compare
// and GradOutput name existing outputs.
func CheckPlan(p *framework.Plan) error {
	if p == nil {
		return fmt.Errorf("nil plan")
	}
	s, ok := ops.Lookup(p.Op)
	if !ok {
		return fmt.Errorf("unknown op %q", p.Op)
	}
	specs := map[string]ops.AttrSpec{}
	for _, a := range s.Attrs {
		specs[a.Name] = a
	}
	for name, v := range p.Attrs {
		spec, ok := specs[name]
		if !ok {
			return fmt.Errorf("op %s has no attribute %q", p.Op, name)
		}
		switch {
		case v.Kind == spec.Kind:
		case v.Kind == ops.AttrNone && !spec.Required && spec.Default.Kind == ops.AttrNone:
		default:
			return fmt.Errorf("op %s: attribute %q has kind %d, schema wants %d", p.Op, name, v.Kind, spec.Kind)
		}
	}
	for _, spec := range s.Attrs {
		v, ok := p.Attrs[spec.Name]
		if !ok {
			return fmt.Errorf("op %s: attribute %q missing", p.Op, spec.Name)
		}
		if spec.Required && v.Kind == ops.AttrNone {
			return fmt.Errorf("op %s: required attribute %q is None", p.Op, spec.Name)
		}
	}
	variadic := len(s.Inputs) > 0 && s.Inputs[len(s.Inputs)-1].Variadic
	switch {
	case variadic && len(p.Inputs) < len(s.Inputs):
		return fmt.Errorf("op %s: %d bindings for at least %d inputs", p.Op, len(p.Inputs), len(s.Inputs))
	case !variadic && len(p.Inputs) != len(s.Inputs):
		return fmt.Errorf("op %s: %d bindings for %d inputs", p.Op, len(p.Inputs), len(s.Inputs))
	}
	for i, in := range p.Inputs {
		spec := s.Inputs[min(i, len(s.Inputs)-1)]
		switch in.Kind {
		case framework.BindTensor:
			if in.Path == "" {
				return fmt.Errorf("op %s: input %d (%s) bound to a tensor without path", p.Op, i, spec.Name)
			}
		case framework.BindScalar:
			if !spec.ScalarOK {
				return fmt.Errorf("op %s: input %d (%s) cannot be a scalar", p.Op, i, spec.Name)
			}
		case framework.BindNone:
			if !spec.Optional {
				return fmt.Errorf("op %s: input %d (%s) cannot be None", p.Op, i, spec.Name)
			}
		default:
			return fmt.Errorf("op %s: input %d has binding kind %d", p.Op, i, in.Kind)
		}
	}
	n := OutputCount(p)
	for _, c := range p.Compare {
		if c < 0 || c >= n {
			return fmt.Errorf("op %s: compared output %d of %d", p.Op, c, n)
		}
	}
	if p.GradOutput < 0 || p.GradOutput >= n {
		return fmt.Errorf("op %s: gradient output %d of %d", p.Op, p.GradOutput, n)
	}
	for _, g := range p.GradOutputs {
		if g < 0 || g >= n {
			return fmt.Errorf("op %s: gradient output %d of %d", p.Op, g, n)
		}
	}
	return nil
}

// OutputCount is the number of outputs the plan's op produces.
func OutputCount(p *framework.Plan) int {
	s, ok := ops.Lookup(p.Op)
	if !ok {
		return 0
	}
	if s.Outputs >= 0 {
		return s.Outputs
	}
	switch p.Op {
	case "split_with_sizes":
		return len(p.Attrs.Ints("split_sizes", nil))
	case "max_pool2d":
		if p.Attrs.Bool("return_indices", false) {
			return 2
		}
		return 1
	}
	return 1
}

// CheckDTypes returns an error naming the first tensor argument (of the
// positional and keyword arguments, recursively) whose dtype probe does not
// support (float8, complex, HiFloat8...).
func CheckDTypes(args []framework.Arg, kwargs []framework.NamedArg) error {
	var walk func(a framework.Arg) error
	walk = func(a framework.Arg) error {
		if a.Kind == framework.ArgTensor && !a.DType.Valid() {
			name := a.DTypeName
			if name == "" {
				name = "(unknown)"
			}
			if strings.Contains(strings.ToLower(name), "complex") {
				return fmt.Errorf("argument %s is a complex tensor (%s), which probe's tensors do not represent", a.Path, name)
			}
			return fmt.Errorf("dtype %s of argument %s is not supported", name, a.Path)
		}
		if a.Kind == framework.ArgList {
			for _, e := range a.Elems {
				if err := walk(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, a := range args {
		if err := walk(a); err != nil {
			return err
		}
	}
	for _, kw := range kwargs {
		if err := walk(kw.Arg); err != nil {
			return err
		}
	}
	return nil
}
