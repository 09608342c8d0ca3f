package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestOptim(t *testing.T) { runCases(t, optimCases(), nil) }

func optimCases() []lcase {
	x, y, z := f32("args.0", 2, 3), f32("args.1", 2, 3), f32("args.2", 3)
	xi, yi, zi := i64("args.0", 2), i64("args.1", 2), i64("args.2", 2)
	yb := tn("args.1", tensor.Bool, 2)
	args := []framework.Arg{x, y, z}
	in3 := func(v string) []string { return []string{"args.0", "args.1", "args.2", v} }
	noInplace := ops.Attrs{"inplace": ba(false)}
	var cs []lcase
	for _, op := range []string{"addcmul", "addcdiv"} {
		cs = append(cs,
			lcase{name: "Torch." + op, args: args, op: op, attrs: noInplace, in: in3("int:1")},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("value", fv(-0.5))}, op: op, in: in3("float:-0.5")},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("value", iv(3)), kw("out", nv())}, op: op, in: in3("int:3")},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("value", bv(true))}, op: op, in: in3("bool:1")},
			lcase{name: "Torch." + op, args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("tensor2", z), kw("tensor1", y)}, op: op, in: in3("int:1")},
			// the deprecated overload: value second
			lcase{name: "Torch." + op, args: []framework.Arg{x, fv(0.25), y, z}, op: op, in: in3("float:0.25")},
			lcase{name: "Tensor." + op, args: []framework.Arg{x, iv(2), y, z}, op: op, in: in3("int:2")},
			lcase{name: "Tensor." + op, args: args, kwargs: []framework.NamedArg{kw("value", fv(0.1))}, op: op, attrs: noInplace, in: in3("float:0.1")},
			lcase{name: "Tensor." + op + "_", args: args, kwargs: []framework.NamedArg{kw("value", fv(0.1))}, op: op, attrs: ops.Attrs{"inplace": ba(true)}, in: in3("float:0.1")},
			lcase{name: "Torch." + op, args: []framework.Arg{x, y, z, fv(1.5)}, err: op + "() takes 3 positional arguments but 4 were given"},
			lcase{name: "Tensor." + op, args: []framework.Arg{x, y, z, fv(1.5)}, err: op + "() takes 2 positional arguments but 3 were given"},
			lcase{name: "Tensor." + op, args: args, kwargs: []framework.NamedArg{kw("out", nv())}, err: `unexpected keyword argument "out"`},
			lcase{name: "Torch." + op, args: []framework.Arg{x, y, fv(1)}, err: `argument "tensor2": expected tensor, got float`},
			lcase{name: "Torch." + op, args: []framework.Arg{fv(1), y, z}, err: `argument "input": expected tensor, got float`},
			lcase{name: "Torch." + op, args: []framework.Arg{x, y}, err: `missing required argument "tensor2"`},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("value", nv())}, err: `argument "value": must be Number, not None`},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("value", sv("a"))}, err: `argument "value": must be Number, not str`},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("value", f32("kwargs.value"))}, err: `argument "value": a tensor value is not supported`},
			lcase{name: "Torch." + op, args: args, kwargs: []framework.NamedArg{kw("alpha", iv(1))}, err: `unexpected keyword argument "alpha"`},
		)
	}
	cs = append(cs,
		lcase{name: "Torch.addcmul", args: []framework.Arg{xi, yi, zi}, op: "addcmul", in: in3("int:1")},
		lcase{name: "Torch.addcdiv", args: []framework.Arg{x, yi, zi}, err: "Integer division with addcdiv is no longer supported"},
		lcase{name: "Torch.addcdiv", args: []framework.Arg{x, yb, zi}, err: "Integer division with addcdiv is no longer supported"},
		lcase{name: "Torch.addcdiv", args: []framework.Arg{xi, yi, z}, op: "addcdiv"},
	)
	xd, xb := tn("args.1", tensor.Float64, 2, 3), tn("args.0", tensor.BFloat16, 3)
	wt := f32("args.2", 3)
	cs = append(cs,
		lcase{name: "Torch.lerp", args: []framework.Arg{x, y, fv(0.25)}, op: "lerp", attrs: noInplace, in: []string{"args.0", "args.1", "float:0.25"}},
		lcase{name: "Torch.lerp", args: []framework.Arg{x, y, wt}, kwargs: []framework.NamedArg{kw("out", nv())}, op: "lerp", in: []string{"args.0", "args.1", "args.2"}},
		lcase{name: "Torch.lerp", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("end", y), kw("weight", iv(1))}, op: "lerp", in: []string{"args.0", "args.1", "int:1"}},
		lcase{name: "Tensor.lerp", args: []framework.Arg{x, y, bv(true)}, op: "lerp", in: []string{"args.0", "args.1", "bool:1"}},
		lcase{name: "Tensor.lerp_", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("weight", fv(0.9))}, op: "lerp", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Torch.lerp", args: []framework.Arg{x, xd, fv(0.5)}, err: "expected dtype float for `end` but got dtype double"},
		lcase{name: "Torch.lerp", args: []framework.Arg{xb, tn("args.1", tensor.BFloat16, 3), wt}, err: "expected dtype c10::BFloat16 for `weight` but got dtype float"},
		lcase{name: "Torch.lerp", args: []framework.Arg{xi, yi, iv(1)}, err: `"lerp_kernel_scalar" not implemented for 'Long'`},
		lcase{name: "Torch.lerp", args: []framework.Arg{xi, yi, zi}, err: `"lerp_kernel_tensor" not implemented for 'Long'`},
		lcase{name: "Torch.lerp", args: []framework.Arg{x, fv(1), fv(0.5)}, err: `argument "end": expected tensor, got float`},
		lcase{name: "Torch.lerp", args: []framework.Arg{x, y, sv("a")}, err: `argument "weight": expected tensor or number, got str`},
		lcase{name: "Torch.lerp", args: []framework.Arg{x, y}, err: `missing required argument "weight"`},
		lcase{name: "Tensor.lerp", args: []framework.Arg{x, y, fv(0.5)}, kwargs: []framework.NamedArg{kw("out", nv())}, err: `unexpected keyword argument "out"`},
	)
	ar := func(dt string, inclusive bool) ops.Attrs {
		return ops.Attrs{"dtype": sa(dt), "inclusive": ba(inclusive)}
	}
	dev := framework.Arg{Kind: framework.ArgDevice, Str: "cpu"}
	cs = append(cs,
		lcase{name: "Torch.arange", args: []framework.Arg{iv(512)}, op: "arange", attrs: ar("int64", false), in: []string{"int:0", "int:512", "int:1"}},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(0), iv(512)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int64")), kw("device", dev)},
			op: "arange", attrs: ar("int64", false), in: []string{"int:0", "int:512", "int:1"}},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(1), fv(2.5), iv(2)}, op: "arange", attrs: ar("float32", false), in: []string{"int:1", "float:2.5", "int:2"}},
		lcase{name: "Torch.arange", args: []framework.Arg{fv(4)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float64")), kw("requires_grad", bv(false))},
			op: "arange", attrs: ar("float64", false), in: []string{"int:0", "float:4", "int:1"}},
		lcase{name: "Torch.arange", kwargs: []framework.NamedArg{kw("end", iv(4))}, op: "arange", in: []string{"int:0", "int:4", "int:1"}},
		lcase{name: "Torch.arange", kwargs: []framework.NamedArg{kw("start", iv(1)), kw("end", iv(4)), kw("step", iv(2))}, op: "arange", in: []string{"int:1", "int:4", "int:2"}},
		lcase{name: "Torch.arange", args: []framework.Arg{bv(true)}, op: "arange", attrs: ar("int64", false), in: []string{"int:0", "bool:1", "int:1"}},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(0), iv(5), fv(0.5)}, kwargs: []framework.NamedArg{kw("out", nv())}, op: "arange", attrs: ar("float32", false)},
		lcase{name: "Torch.arange", err: `arange() missing required argument "end"`},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(4)}, kwargs: []framework.NamedArg{kw("step", iv(2))}, err: "invalid combination of arguments"},
		lcase{name: "Torch.arange", kwargs: []framework.NamedArg{kw("start", iv(4))}, err: "invalid combination of arguments"},
		lcase{name: "Torch.arange", args: []framework.Arg{i64("args.0")}, err: `argument "end": a tensor bound is not supported`},
		lcase{name: "Torch.arange", args: []framework.Arg{sv("a")}, err: `argument "end": expected a number, got str`},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(4)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.complex64"))}, err: `argument "dtype": dtype "torch.complex64" is not supported`},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(4)}, kwargs: []framework.NamedArg{kw("requires_grad", iv(1))}, err: `argument "requires_grad": expected bool, got int`},
		lcase{name: "Torch.arange", args: []framework.Arg{iv(0), iv(4), iv(1), iv(1)}, err: "takes at most 3 positional arguments"},
		lcase{name: "Torch.range", args: []framework.Arg{iv(1), iv(4)}, op: "arange", attrs: ar("float32", true), in: []string{"int:1", "int:4", "int:1"}},
		lcase{name: "Torch.range", args: []framework.Arg{iv(1), iv(4), iv(2)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int32"))}, op: "arange", attrs: ar("int32", true)},
		lcase{name: "Torch.range", args: []framework.Arg{iv(1)}, err: `missing required argument "end"`},
		lcase{name: "Torch.range", args: []framework.Arg{iv(1), iv(4)}, kwargs: []framework.NamedArg{kw("pin_memory", bv(false))}, err: `unexpected keyword argument "pin_memory"`},
	)
	return cs
}

func TestOptimReasons(t *testing.T) {
	for _, c := range []struct {
		ns   Namespace
		name string
		want string
	}{
		{TensorMethod, "cfloat", "Tensor.cfloat returns a complex tensor, which probe's tensors do not represent"},
		{Torch, "_fused_adamw_", "Torch._fused_adamw_ is a fused optimizer step that updates lists of tensors in place and returns nothing to compare"},
	} {
		if got, ok := Reason(c.ns, c.name); !ok || got != c.want {
			t.Errorf("Reason(%s, %s) = %q, %v; want %q", c.ns, c.name, got, ok, c.want)
		}
	}
}
