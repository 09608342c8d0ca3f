package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestCreateCasts(t *testing.T) { runCases(t, crCastCases(), nil) }

func crCastCases() []lcase {
	x := f32("args.0", 2, 3)
	xs := []framework.Arg{x}
	castTo := func(d string) ops.Attrs { return ops.Attrs{"dtype": sa(d)} }
	in0 := []string{"args.0"}
	var cs []lcase
	for name, d := range map[string]string{"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16",
		"int": "int32", "long": "int64", "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool"} {
		cs = append(cs,
			lcase{name: "Tensor." + name, args: xs, op: "cast", attrs: castTo(d), in: in0},
			lcase{name: "Tensor." + name, args: xs, kwargs: []framework.NamedArg{kw("memory_format", sv("torch.preserve_format"))}, op: "cast", attrs: castTo(d)},
			lcase{name: "Tensor." + name, args: []framework.Arg{fv(1)}, err: `argument "input": expected tensor, got float`},
			lcase{name: "Tensor." + name, args: []framework.Arg{x, iv(1), iv(2)}, err: "takes at most 2 positional arguments"},
		)
	}
	y16 := tn("args.1", tensor.Float16, 4)
	cs = append(cs,
		lcase{name: "Tensor.type_as", args: []framework.Arg{x, y16}, op: "cast", attrs: castTo("float16"), in: in0},
		lcase{name: "Tensor.type_as", args: []framework.Arg{i64("args.0", 3), x}, op: "cast", attrs: castTo("float32"), in: in0},
		lcase{name: "Tensor.type_as", args: xs, kwargs: []framework.NamedArg{kw("other", tn("kwargs.other", tensor.Bool, 1))}, op: "cast", attrs: castTo("bool")},
		lcase{name: "Tensor.type_as", args: []framework.Arg{x, fv(1)}, err: `argument "other": expected tensor, got float`},
		lcase{name: "Tensor.type_as", args: []framework.Arg{x, framework.Arg{Kind: framework.ArgTensor, Path: "args.1", DTypeName: "torch.complex64"}},
			err: `argument "other": dtype "torch.complex64" is not supported`},
		lcase{name: "Tensor.type_as", args: xs, err: `missing required argument "other"`},

		lcase{name: "Tensor.type", args: []framework.Arg{x, dtv("torch.float16")}, op: "cast", attrs: castTo("float16"), in: in0},
		lcase{name: "Tensor.type", args: xs, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int64")), kw("non_blocking", bv(true))}, op: "cast", attrs: castTo("int64")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.FloatTensor")}, op: "cast", attrs: castTo("float32")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.cuda.HalfTensor")}, op: "cast", attrs: castTo("float16")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.npu.BFloat16Tensor")}, op: "cast", attrs: castTo("bfloat16")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.LongTensor")}, op: "cast", attrs: castTo("int64")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.ByteTensor")}, op: "cast", attrs: castTo("uint8")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.BoolTensor")}, op: "cast", attrs: castTo("bool")},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.Tensor")}, op: "cast", attrs: castTo("float32")},
		lcase{name: "Tensor.type", args: xs, err: "Tensor.type() without a dtype returns the type name, a string"},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("float")}, err: `argument "dtype": invalid type: 'float'`},
		lcase{name: "Tensor.type", args: []framework.Arg{x, sv("torch.float32")}, err: `argument "dtype": invalid type: 'torch.float32'`},
		lcase{name: "Tensor.type", args: []framework.Arg{x, dtv("torch.complex64")}, err: `argument "dtype": dtype "torch.complex64" is not supported`},
		lcase{name: "Tensor.type", args: []framework.Arg{x, iv(1)}, err: `argument "dtype": expected dtype or str, got int`},
		lcase{name: "Tensor.type", args: []framework.Arg{x, dtv("torch.float16"), iv(1)}, err: `argument "non_blocking": expected bool, got int`},
	)
	return cs
}

// createCases are every lowering case of the create family (TestOpsListed).
func createCases() []lcase {
	return crCastCases()
}
