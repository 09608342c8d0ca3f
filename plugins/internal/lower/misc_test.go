package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

func TestMiscSpace(t *testing.T) { runCases(t, miscSpaceCases(), nil) }

func miscSpaceCases() []lcase {
	sp := func(steps int64, dt string) ops.Attrs { return ops.Attrs{"steps": ops.IntAttr(steps), "dtype": sa(dt)} }
	lg := func(steps int64, base float64, dt string) ops.Attrs {
		return ops.Attrs{"steps": ops.IntAttr(steps), "base": ops.FloatAttr(base), "dtype": sa(dt)}
	}
	dev := framework.Arg{Kind: framework.ArgDevice, Str: "cpu"}
	return []lcase{
		{name: "Torch.linspace", args: []framework.Arg{iv(0), iv(1), iv(5)}, op: "linspace", attrs: sp(5, "float32"), in: []string{"int:0", "int:1"}},
		{name: "Torch.linspace", args: []framework.Arg{fv(-1.5), fv(2)}, kwargs: []framework.NamedArg{kw("steps", iv(7)), kw("dtype", dtv("torch.float64")), kw("device", dev), kw("requires_grad", bv(false))},
			op: "linspace", attrs: sp(7, "float64"), in: []string{"float:-1.5", "float:2"}},
		{name: "Torch.linspace", kwargs: []framework.NamedArg{kw("start", bv(true)), kw("end", iv(9)), kw("steps", iv(0)), kw("dtype", dtv("torch.int32")), kw("out", nv())},
			op: "linspace", attrs: sp(0, "int32")},
		{name: "Torch.linspace", args: []framework.Arg{iv(0), iv(1)}, err: `missing required argument "steps"`},
		{name: "Torch.linspace", args: []framework.Arg{iv(0), iv(1), iv(-1)}, err: `argument "steps": number of steps must be non-negative`},
		{name: "Torch.linspace", args: []framework.Arg{iv(0), iv(1), fv(3)}, err: `argument "steps": expected int, got float`},
		{name: "Torch.linspace", args: []framework.Arg{f32("args.0"), iv(1), iv(3)}, err: `argument "start": a tensor bound is not supported`},
		{name: "Torch.linspace", args: []framework.Arg{iv(0), sv("x"), iv(3)}, err: `argument "end": expected a number, got str`},
		{name: "Torch.linspace", args: []framework.Arg{iv(0), iv(1), iv(3)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.complex64"))}, err: `argument "dtype": dtype "torch.complex64" is not supported`},
		{name: "Torch.linspace", args: []framework.Arg{iv(0), iv(1), iv(3)}, kwargs: []framework.NamedArg{kw("requires_grad", iv(1))}, err: `argument "requires_grad": expected bool, got int`},

		{name: "Torch.logspace", args: []framework.Arg{iv(0), iv(3), iv(4)}, op: "logspace", attrs: lg(4, 10, "float32"), in: []string{"int:0", "int:3"}},
		{name: "Torch.logspace", args: []framework.Arg{fv(0.5), iv(3), iv(4), iv(2)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.bfloat16"))}, op: "logspace", attrs: lg(4, 2, "bfloat16")},
		{name: "Torch.logspace", args: []framework.Arg{iv(0), iv(3), iv(4)}, kwargs: []framework.NamedArg{kw("base", fv(0.5)), kw("dtype", dtv("torch.int64"))}, op: "logspace", attrs: lg(4, 0.5, "int64")},
		{name: "Torch.logspace", args: []framework.Arg{iv(0), iv(3), iv(4), sv("e")}, err: `argument "base": expected float, got str`},
		{name: "Torch.logspace", args: []framework.Arg{iv(0), iv(3), iv(-2)}, err: `argument "steps": number of steps must be non-negative`},
		{name: "Torch.logspace", args: []framework.Arg{iv(0), iv(3), iv(4), iv(2), iv(5)}, err: "positional"},
	}
}

func TestMiscTriIndices(t *testing.T) { runCases(t, miscTriIndicesCases(), nil) }

func miscTriIndicesCases() []lcase {
	ti := func(off int64, dt string) ops.Attrs { return ops.Attrs{"offset": ops.IntAttr(off), "dtype": sa(dt)} }
	var cs []lcase
	for _, op := range []string{"tril_indices", "triu_indices"} {
		name := "Torch." + op
		cs = append(cs,
			lcase{name: name, args: []framework.Arg{iv(3), iv(4)}, op: op, attrs: ti(0, "int64"), in: []string{"int:3", "int:4"}},
			lcase{name: name, args: []framework.Arg{iv(3), iv(4), iv(-1)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int32")), kw("device", sv("cpu"))}, op: op, attrs: ti(-1, "int32")},
			lcase{name: name, kwargs: []framework.NamedArg{kw("row", iv(0)), kw("col", iv(2)), kw("offset", iv(5))}, op: op, attrs: ti(5, "int64"), in: []string{"int:0", "int:2"}},
			lcase{name: name, args: []framework.Arg{iv(-1), iv(4)}, err: `argument "row": row must be non-negative, got-1`},
			lcase{name: name, args: []framework.Arg{iv(1), iv(-4)}, err: `argument "col": col must be non-negative, got-4`},
			lcase{name: name, args: []framework.Arg{iv(3), iv(4)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float32"))}, err: `argument "dtype": "` + op + `" not implemented for 'Float'`},
			lcase{name: name, args: []framework.Arg{iv(3), iv(4)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.uint8"))}, err: `not implemented for 'Byte'`},
			lcase{name: name, args: []framework.Arg{fv(3), iv(4)}, err: `argument "row": expected int, got float`},
			lcase{name: name, args: []framework.Arg{iv(3), iv(4), bv(true)}, err: `argument "offset": expected int, got bool`},
			lcase{name: name, args: []framework.Arg{iv(3)}, err: `missing required argument "col"`},
			lcase{name: name, args: []framework.Arg{iv(3), iv(4)}, kwargs: []framework.NamedArg{kw("out", nv())}, err: `unexpected keyword argument "out"`},
		)
	}
	return cs
}

// miscCases are every lowering case of the misc family (TestOpsListed).
func miscCases() []lcase {
	return append(miscSpaceCases(), miscTriIndicesCases()...)
}
