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
		lcase{name: "Tensor.type_as", args: []framework.Arg{x, {Kind: framework.ArgTensor, Path: "args.1", DTypeName: "torch.complex64"}},
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

func TestCreateFill(t *testing.T) { runCases(t, crFillCases(), nil) }

func crFillCases() []lcase {
	x, xi := f32("args.0", 2, 3), i64("args.0", 4)
	v0 := tn("args.1", tensor.Float64)
	full := func(dt string, size ...int64) ops.Attrs { return ops.Attrs{"dtype": sa(dt), "size": la(size...)} }
	dev := framework.Arg{Kind: framework.ArgDevice, Str: "cpu"}
	return []lcase{
		{name: "Torch.full", args: []framework.Arg{ints(2, 3), iv(7)}, op: "full", attrs: full("int64", 2, 3), in: []string{"int:7"}},
		{name: "Torch.full", args: []framework.Arg{szv(4), fv(0.5)}, op: "full", attrs: full("float32", 4), in: []string{"float:0.5"}},
		{name: "Torch.full", args: []framework.Arg{ints(), bv(true)}, op: "full", attrs: full("bool"), in: []string{"bool:1"}},
		{name: "Torch.full", args: []framework.Arg{ints(2), iv(1)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float16")), kw("device", dev),
			kw("requires_grad", bv(false)), kw("out", nv())}, op: "full", attrs: full("float16", 2)},
		{name: "Torch.full", kwargs: []framework.NamedArg{kw("size", ints(0, 2)), kw("fill_value", fv(-1))}, op: "full", attrs: full("float32", 0, 2)},
		{name: "Torch.full", args: []framework.Arg{ints(2, -1), iv(1)}, err: `argument "size": Trying to create tensor with negative dimension -1: [2, -1]`},
		{name: "Torch.full", args: []framework.Arg{iv(2), iv(1)}, err: `argument "size": expected list of ints, got int`},
		{name: "Torch.full", args: []framework.Arg{ints(2), f32("args.1")}, err: `argument "fill_value": a tensor fill_value is not supported`},
		{name: "Torch.full", args: []framework.Arg{ints(2), sv("a")}, err: `argument "fill_value": must be Number, not str`},
		{name: "Torch.full", args: []framework.Arg{ints(2), iv(1)}, kwargs: []framework.NamedArg{kw("names", lv(sv("N")))}, err: `argument "names": named tensors are not supported`},
		{name: "Torch.full", args: []framework.Arg{ints(2), iv(1)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.complex64"))}, err: `argument "dtype": dtype "torch.complex64" is not supported`},
		{name: "Torch.full", args: []framework.Arg{ints(2), iv(1)}, kwargs: []framework.NamedArg{kw("requires_grad", iv(1))}, err: `argument "requires_grad": expected bool, got int`},
		{name: "Torch.full", args: []framework.Arg{ints(2)}, err: `missing required argument "fill_value"`},

		{name: "Torch.scalar_tensor", args: []framework.Arg{iv(3)}, op: "full", attrs: full("float32"), in: []string{"int:3"}},
		{name: "Torch.scalar_tensor", args: []framework.Arg{bv(true)}, op: "full", attrs: full("float32"), in: []string{"bool:1"}},
		{name: "Torch.scalar_tensor", args: []framework.Arg{fv(2.5)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int8"))}, op: "full", attrs: full("int8")},
		{name: "Torch.scalar_tensor", args: []framework.Arg{f32("args.0")}, err: `argument "s": a tensor s is not supported`},
		{name: "Torch.scalar_tensor", args: []framework.Arg{nv()}, err: `argument "s": must be Number, not None`},

		{name: "Torch.full_like", args: []framework.Arg{x, fv(0.5)}, op: "fill", attrs: ops.Attrs{"dtype": na()}, in: []string{"args.0", "float:0.5"}},
		{name: "Torch.full_like", args: []framework.Arg{x, iv(2)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int32")), kw("memory_format", sv("torch.preserve_format"))},
			op: "fill", attrs: ops.Attrs{"dtype": sa("int32")}, in: []string{"args.0", "int:2"}},
		{name: "Torch.full_like", args: []framework.Arg{x, v0}, op: "fill", in: []string{"args.0", "args.1"}},
		{name: "Torch.full_like", args: []framework.Arg{x, f32("args.1", 2)}, err: `argument "fill_value": full_like(): argument 'fill_value' must be Number, not Tensor`},
		{name: "Torch.full_like", args: []framework.Arg{fv(1), iv(2)}, err: `argument "input": expected tensor, got float`},
		{name: "Torch.full_like", args: []framework.Arg{x, nv()}, err: `argument "fill_value": expected tensor or number, got None`},
		{name: "Torch.full_like", args: []framework.Arg{x, iv(2)}, kwargs: []framework.NamedArg{kw("dtype", iv(1))}, err: `argument "dtype": expected dtype, got int`},
		{name: "Torch.zeros_like", args: []framework.Arg{xi}, op: "fill", attrs: ops.Attrs{"dtype": na()}, in: []string{"args.0", "int:0"}},
		{name: "Torch.zeros_like", args: []framework.Arg{xi}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float16"))}, op: "fill", attrs: ops.Attrs{"dtype": sa("float16")}},
		{name: "Torch.zeros_like", args: []framework.Arg{xi}, kwargs: []framework.NamedArg{kw("requires_grad", sv("x"))}, err: `argument "requires_grad": expected bool, got str`},

		{name: "Tensor.fill_", args: []framework.Arg{x, fv(1.5)}, op: "fill", attrs: ops.Attrs{"dtype": na()}, in: []string{"args.0", "float:1.5"}},
		{name: "Tensor.fill_", args: []framework.Arg{xi, bv(false)}, op: "fill", in: []string{"args.0", "bool:0"}},
		{name: "Tensor.fill_", args: []framework.Arg{x, v0}, op: "fill", in: []string{"args.0", "args.1"}},
		{name: "Torch.fill_", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("value", iv(3))}, op: "fill", in: []string{"args.0", "int:3"}},
		{name: "Tensor.fill_", args: []framework.Arg{x, f32("args.1", 3)}, err: `argument "value": fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.`},
		{name: "Tensor.fill_", args: []framework.Arg{x, sv("a")}, err: `argument "value": expected tensor or number, got str`},
		{name: "Tensor.fill_", args: []framework.Arg{x}, err: `missing required argument "value"`},
		{name: "Torch.fill_", args: []framework.Arg{iv(1), iv(3)}, err: `argument "input": expected tensor, got int`},
	}
}

func TestCreateTriangle(t *testing.T) { runCases(t, crTriangleCases(), nil) }

func crTriangleCases() []lcase {
	x := f32("args.0", 3, 4)
	var cs []lcase
	for _, op := range []string{"tril", "triu"} {
		cs = append(cs,
			lcase{name: "Torch." + op, args: []framework.Arg{x}, op: op, attrs: ops.Attrs{"diagonal": ia(0), "inplace": ba(false)}, in: []string{"args.0"}},
			lcase{name: "Torch." + op, args: []framework.Arg{x, iv(-2)}, kwargs: []framework.NamedArg{kw("out", nv())}, op: op, attrs: ops.Attrs{"diagonal": ia(-2)}},
			lcase{name: "Tensor." + op, args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("diagonal", iv(1))}, op: op, attrs: ops.Attrs{"diagonal": ia(1), "inplace": ba(false)}},
			lcase{name: "Tensor." + op + "_", args: []framework.Arg{tn("args.0", tensor.Bool, 2, 2, 2), iv(3)}, op: op, attrs: ops.Attrs{"diagonal": ia(3), "inplace": ba(true)}},
			lcase{name: "Torch." + op, args: []framework.Arg{f32("args.0", 3)}, err: `argument "input": Dimension out of range (expected to be in range of [-1, 0], but got -2)`},
			lcase{name: "Torch." + op, args: []framework.Arg{f32("args.0")}, err: `argument "input": Dimension specified as -2 but tensor has no dimensions`},
			lcase{name: "Torch." + op, args: []framework.Arg{x, fv(1.5)}, err: `argument "diagonal": expected int, got float`},
			lcase{name: "Torch." + op, args: []framework.Arg{fv(1.5)}, err: `argument "input": expected tensor, got float`},
			lcase{name: "Tensor." + op, args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("out", nv())}, err: `unexpected keyword argument "out"`},
		)
	}
	return cs
}

func TestCreateEye(t *testing.T) { runCases(t, crEyeCases(), nil) }

func crEyeCases() []lcase {
	eye := func(dt string) ops.Attrs { return ops.Attrs{"dtype": sa(dt)} }
	return []lcase{
		{name: "Torch.eye", args: []framework.Arg{iv(3)}, op: "eye", attrs: eye("float32"), in: []string{"int:3", "int:3"}},
		{name: "Torch.eye", args: []framework.Arg{iv(2), iv(4)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.bool")), kw("requires_grad", bv(false))}, op: "eye", attrs: eye("bool"), in: []string{"int:2", "int:4"}},
		{name: "Torch.eye", args: []framework.Arg{iv(2), nv()}, kwargs: []framework.NamedArg{kw("out", nv())}, op: "eye", attrs: eye("float32"), in: []string{"int:2", "int:2"}},
		{name: "Torch.eye", args: []framework.Arg{iv(-1)}, err: `argument "n": n must be greater or equal to 0, got -1`},
		{name: "Torch.eye", args: []framework.Arg{iv(2), iv(-3)}, err: `argument "m": m must be greater or equal to 0, got -3`},
		{name: "Torch.eye", args: []framework.Arg{fv(2)}, err: `argument "n": expected int, got float`},
		{name: "Torch.eye", args: []framework.Arg{iv(2), fv(2)}, err: `argument "m": expected int, got float`},
		{name: "Torch.eye", args: []framework.Arg{iv(2)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.complex64"))}, err: `argument "dtype": dtype "torch.complex64" is not supported`},
		{name: "Torch.eye", err: `missing required argument "n"`},
	}
}

// createCases are every lowering case of the create family (TestOpsListed).
func createCases() []lcase {
	return append(append(append(crCastCases(), crFillCases()...), crTriangleCases()...), crEyeCases()...)
}
