package lower

import (
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestArithmetic(t *testing.T) { runCases(t, arithmeticCases(), nil) }

func arithmeticCases() []lcase {
	x, y := f32("args.0", 2, 3), f32("args.1", 2, 3)
	xi, yi := i64("args.0", 2), i64("args.1", 2)
	xb, yb := tn("args.0", tensor.Bool, 2), tn("args.1", tensor.Bool, 2)
	return []lcase{
		{name: "Torch.add", args: []framework.Arg{x, y}, op: "add", attrs: ops.Attrs{"alpha": fa(1), "inplace": ba(false)}, in: []string{"args.0", "args.1"}},
		{name: "Torch.add", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("alpha", fv(0.5))}, op: "add", attrs: ops.Attrs{"alpha": fa(0.5)}},
		{name: "Torch.add", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("other", iv(2))}, op: "add", in: []string{"args.0", "int:2"}},
		{name: "Torch.add", args: []framework.Arg{x, fv(2.5), iv(3)}, op: "add", attrs: ops.Attrs{"alpha": fa(3)}, in: []string{"args.0", "float:2.5"}},
		// deprecated torch.add(input, Number alpha, Tensor other)
		{name: "Torch.add", args: []framework.Arg{x, iv(2), y}, op: "add", attrs: ops.Attrs{"alpha": fa(2)}, in: []string{"args.0", "args.1"}},
		{name: "Torch.add", args: []framework.Arg{xi, yi}, kwargs: []framework.NamedArg{kw("alpha", fv(2))}, err: "alpha must not be a floating point"},
		{name: "Torch.add", args: []framework.Arg{x, y, iv(2)}, err: "takes 2 positional arguments but 3 were given"},
		{name: "Torch.add", args: []framework.Arg{xi, yi}, kwargs: []framework.NamedArg{kw("alpha", iv(2))}, op: "add", attrs: ops.Attrs{"alpha": fa(2)}},
		{name: "Torch.add", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("alpha", bv(true))}, err: "Boolean alpha only supported"},
		{name: "Torch.add", args: []framework.Arg{iv(1), y}, err: `argument "input": expected tensor, got int`},
		{name: "Torch.add", args: []framework.Arg{x, sv("a")}, err: `argument "other": expected tensor or number, got str`},
		{name: "Torch.add", args: []framework.Arg{x}, err: `missing required argument "other"`},
		{name: "Torch.add", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("beta", iv(1))}, err: `unexpected keyword argument "beta"`},
		{name: "Torch.add", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("other", y)}, err: `multiple values for argument "other"`},
		{name: "Tensor.add_", args: []framework.Arg{x, y}, op: "add", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Tensor.__iadd__", args: []framework.Arg{x, iv(1)}, op: "add", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "int:1"}},
		{name: "Tensor.__add__", args: []framework.Arg{x, bv(true)}, op: "add", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "bool:1"}},
		{name: "Tensor.__radd__", args: []framework.Arg{x, fv(1.5)}, op: "add", in: []string{"float:1.5", "args.0"}},
		{name: "Torch.sub", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("alpha", iv(3))}, op: "sub", attrs: ops.Attrs{"alpha": fa(3)}},
		{name: "Torch.subtract", args: []framework.Arg{x, y}, op: "sub"},
		{name: "Torch.sub", args: []framework.Arg{xb, yb}, err: "with two bool tensors is not supported"},
		{name: "Torch.rsub", args: []framework.Arg{x, iv(1), iv(2)}, op: "sub", attrs: ops.Attrs{"alpha": fa(2)}, in: []string{"int:1", "args.0"}},
		{name: "Tensor.__rsub__", args: []framework.Arg{x, iv(1)}, op: "sub", in: []string{"int:1", "args.0"}},
		{name: "Tensor.__sub__", args: []framework.Arg{x, y}, op: "sub", in: []string{"args.0", "args.1"}},
		{name: "Tensor.__isub__", args: []framework.Arg{x, y}, op: "sub", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.mul", args: []framework.Arg{x, fv(2)}, op: "mul", in: []string{"args.0", "float:2"}},
		{name: "Torch.multiply", args: []framework.Arg{x, y}, op: "mul"},
		{name: "Tensor.mul_", args: []framework.Arg{x, y}, op: "mul", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Tensor.__rmul__", args: []framework.Arg{x, iv(3)}, op: "mul", in: []string{"int:3", "args.0"}},
		{name: "Torch.div", args: []framework.Arg{x, y}, op: "div", attrs: ops.Attrs{"rounding_mode": na()}},
		{name: "Torch.div", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("rounding_mode", sv("floor"))}, op: "div", attrs: ops.Attrs{"rounding_mode": sa("floor")}},
		{name: "Torch.div", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("rounding_mode", sv("round"))}, err: "rounding_mode to be one of None, 'trunc', or 'floor'"},
		{name: "Torch.divide", args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{kw("rounding_mode", sv("trunc"))}, op: "div", attrs: ops.Attrs{"rounding_mode": sa("trunc")}},
		{name: "Torch.true_divide", args: []framework.Arg{xi, yi}, op: "div", attrs: ops.Attrs{"rounding_mode": na()}},
		{name: "Torch.floor_divide", args: []framework.Arg{xi, iv(2)}, op: "div", attrs: ops.Attrs{"rounding_mode": sa("floor")}},
		{name: "Tensor.__truediv__", args: []framework.Arg{x, iv(2)}, op: "div", in: []string{"args.0", "int:2"}},
		{name: "Tensor.__div__", args: []framework.Arg{x, y}, op: "div"},
		{name: "Tensor.__rtruediv__", args: []framework.Arg{x, iv(2)}, op: "div", in: []string{"int:2", "args.0"}},
		{name: "Tensor.__itruediv__", args: []framework.Arg{x, y}, op: "div", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Tensor.__floordiv__", args: []framework.Arg{x, y}, op: "div", attrs: ops.Attrs{"rounding_mode": sa("floor")}},
		{name: "Tensor.__rfloordiv__", args: []framework.Arg{x, fv(7)}, op: "div", attrs: ops.Attrs{"rounding_mode": sa("floor")}, in: []string{"float:7", "args.0"}},
		{name: "Torch.pow", args: []framework.Arg{x, iv(2)}, op: "pow", in: []string{"args.0", "int:2"}},
		{name: "Torch.pow", args: []framework.Arg{fv(2), x}, op: "pow", in: []string{"float:2", "args.0"}},
		{name: "Torch.pow", args: []framework.Arg{fv(2), fv(3)}, err: `argument "input": expected tensor`},
		{name: "Tensor.pow", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("exponent", y)}, op: "pow", in: []string{"args.0", "args.1"}},
		{name: "Tensor.__pow__", args: []framework.Arg{x, fv(0.5)}, op: "pow", in: []string{"args.0", "float:0.5"}},
		{name: "Tensor.__rpow__", args: []framework.Arg{x, iv(2)}, op: "pow", in: []string{"int:2", "args.0"}},
		{name: "Tensor.__ipow__", args: []framework.Arg{x, iv(2)}, op: "pow", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.square", args: []framework.Arg{x}, op: "pow", in: []string{"args.0", "int:2"}},
		{name: "Torch.maximum", args: []framework.Arg{x, y}, op: "maximum"},
		{name: "Torch.maximum", args: []framework.Arg{x, iv(1)}, err: `argument "other": expected tensor, got int`},
		{name: "Torch.minimum", args: []framework.Arg{x, y}, op: "minimum"},
		{name: "Torch.matmul", args: []framework.Arg{x, y}, op: "matmul", in: []string{"args.0", "args.1"}},
		{name: "Tensor.__matmul__", args: []framework.Arg{x, y}, op: "matmul", in: []string{"args.0", "args.1"}},
		{name: "Tensor.__rmatmul__", args: []framework.Arg{x, y}, op: "matmul", in: []string{"args.1", "args.0"}},
		{name: "Torch.mm", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("mat2", y)}, op: "mm"},
		{name: "Tensor.bmm", args: []framework.Arg{x, y}, op: "bmm"},
	}
}

func TestUnaryAndClamp(t *testing.T) { runCases(t, unaryCases(), nil) }

func unaryCases() []lcase {
	x := f32("args.0", 4)
	return []lcase{
		{name: "Torch.neg", args: []framework.Arg{x}, op: "neg", attrs: ops.Attrs{"inplace": ba(false)}},
		{name: "Torch.negative", args: []framework.Arg{x}, op: "neg"},
		{name: "Tensor.__neg__", args: []framework.Arg{x}, op: "neg"},
		{name: "Tensor.neg_", args: []framework.Arg{x}, op: "neg", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.neg", args: []framework.Arg{tn("args.0", tensor.Bool, 2)}, err: "on a bool tensor is not supported"},
		{name: "Torch.absolute", args: []framework.Arg{x}, op: "abs"},
		{name: "Tensor.absolute_", args: []framework.Arg{x}, op: "abs", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.exp", args: []framework.Arg{x}, op: "exp"},
		{name: "Torch.log_", args: []framework.Arg{x}, op: "log", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.rsqrt", args: []framework.Arg{x}, op: "rsqrt"},
		{name: "Tensor.sqrt_", args: []framework.Arg{x}, op: "sqrt", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.sin", args: []framework.Arg{x}, op: "sin"},
		{name: "Tensor.cos", args: []framework.Arg{x}, op: "cos"},
		{name: "Torch.cos", args: []framework.Arg{x, x}, err: "takes at most 1 positional arguments but 2 were given"},
		{name: "Tensor.reciprocal", args: []framework.Arg{x}, op: "reciprocal"},
		{name: "Tensor.sigmoid_", args: []framework.Arg{x}, op: "sigmoid", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.relu", args: []framework.Arg{x}, op: "relu", attrs: ops.Attrs{"inplace": ba(false)}},
		{name: "Functional.relu", args: []framework.Arg{x, bv(true)}, op: "relu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.relu_", args: []framework.Arg{x}, op: "relu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Tensor.relu_", args: []framework.Arg{x}, op: "relu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.silu", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("inplace", bv(true))}, op: "silu", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Functional.gelu", args: []framework.Arg{x}, op: "gelu", attrs: ops.Attrs{"approximate": sa("none")}},
		{name: "Functional.gelu", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("approximate", sv("tanh"))}, op: "gelu", attrs: ops.Attrs{"approximate": sa("tanh")}},
		{name: "Functional.gelu", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("approximate", sv("erf"))}, err: "must be either none or tanh"},
		{name: "Functional.tanh", args: []framework.Arg{x}, op: "tanh"},
		{name: "Torch.clamp", args: []framework.Arg{x, fv(-1), fv(1)}, op: "clamp", in: []string{"args.0", "float:-1", "float:1"}},
		{name: "Torch.clamp", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("max", iv(6))}, op: "clamp", in: []string{"args.0", "none", "int:6"}},
		{name: "Torch.clamp", args: []framework.Arg{x, f32("args.1"), nv()}, op: "clamp", in: []string{"args.0", "args.1", "none"}},
		{name: "Torch.clip", args: []framework.Arg{x, iv(0)}, op: "clamp", in: []string{"args.0", "int:0", "none"}},
		{name: "Torch.clamp", args: []framework.Arg{x}, err: "At least one of 'min' or 'max' must not be None"},
		{name: "Tensor.clamp_", args: []framework.Arg{x, iv(0), iv(1)}, op: "clamp", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.clamp_min", args: []framework.Arg{x, fv(0.5)}, op: "clamp", in: []string{"args.0", "float:0.5", "none"}},
		{name: "Tensor.clamp_max_", args: []framework.Arg{x, fv(0.5)}, op: "clamp", in: []string{"args.0", "none", "float:0.5"}, attrs: ops.Attrs{"inplace": ba(true)}},
	}
}

func TestNN(t *testing.T) { runCases(t, nnCases(), nil) }

func nnCases() []lcase {
	x4 := f32("args.0", 2, 3, 8, 8)
	w := f32("args.1", 4, 3, 3, 3)
	w2 := f32("args.1", 4, 3, 2, 2)
	b := f32("args.2", 4)
	return []lcase{
		// softmax: implicit dim 0 for ndim 0, 1, 3; else 1.
		{name: "Functional.softmax", args: []framework.Arg{f32("args.0", 5)}, op: "softmax", attrs: ops.Attrs{"dim": ia(0), "dtype": na()}},
		{name: "Functional.softmax", args: []framework.Arg{f32("args.0", 2, 5)}, op: "softmax", attrs: ops.Attrs{"dim": ia(1)}},
		{name: "Functional.softmax", args: []framework.Arg{f32("args.0", 2, 3, 5)}, op: "softmax", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Functional.softmax", args: []framework.Arg{f32("args.0")}, op: "softmax", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Functional.log_softmax", args: []framework.Arg{x4}, op: "log_softmax", attrs: ops.Attrs{"dim": ia(1)}},
		{name: "Functional.softmax", args: []framework.Arg{x4, iv(-1)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float64"))}, op: "softmax", attrs: ops.Attrs{"dim": ia(-1), "dtype": sa("float64")}},
		{name: "Functional.softmax", args: []framework.Arg{x4, nv(), iv(3), dtv("torch.half")}, op: "softmax", attrs: ops.Attrs{"dim": ia(1), "dtype": sa("float16")}},
		{name: "Torch.softmax", args: []framework.Arg{x4, iv(2), dtv("torch.float32")}, op: "softmax", attrs: ops.Attrs{"dim": ia(2), "dtype": sa("float32")}},
		{name: "Tensor.softmax", args: []framework.Arg{x4}, err: `missing required argument "dim"`},
		{name: "Tensor.log_softmax", args: []framework.Arg{x4, iv(4)}, err: "dimension out of range"},
		{name: "Functional.linear", args: []framework.Arg{f32("args.0", 2, 3), f32("args.1", 4, 3)}, op: "linear", in: []string{"args.0", "args.1", "none"}},
		{name: "Functional.linear", args: []framework.Arg{f32("args.0", 2, 3), f32("args.1", 4, 3)}, kwargs: []framework.NamedArg{kw("bias", f32("kwargs.bias", 4))}, op: "linear", in: []string{"args.0", "args.1", "kwargs.bias"}},
		{name: "Torch.addmm", args: []framework.Arg{f32("args.0", 2), f32("args.1", 2, 3), f32("args.2", 3, 2)}, kwargs: []framework.NamedArg{kw("beta", fv(0.5)), kw("alpha", iv(2))}, op: "addmm", attrs: ops.Attrs{"beta": fa(0.5), "alpha": fa(2), "inplace": ba(false)}},
		{name: "Tensor.addmm_", args: []framework.Arg{f32("args.0", 2), f32("args.1", 2, 3), f32("args.2", 3, 2)}, op: "addmm", attrs: ops.Attrs{"beta": fa(1), "alpha": fa(1), "inplace": ba(true)}},
		{name: "Functional.layer_norm", args: []framework.Arg{f32("args.0", 2, 3, 4), ints(4), f32("args.2", 4), f32("args.3", 4)}, op: "layer_norm", attrs: ops.Attrs{"normalized_shape": la(4), "eps": fa(1e-5)}, in: []string{"args.0", "args.2", "args.3"}},
		{name: "Functional.layer_norm", args: []framework.Arg{f32("args.0", 2, 3, 4), szv(3, 4)}, kwargs: []framework.NamedArg{kw("eps", fv(1e-6))}, op: "layer_norm", attrs: ops.Attrs{"normalized_shape": la(3, 4), "eps": fa(1e-6)}, in: []string{"args.0", "none", "none"}},
		{name: "Functional.layer_norm", args: []framework.Arg{f32("args.0", 2, 3, 4), iv(4)}, err: "expected list of ints, got int"},
		{name: "Functional.layer_norm", args: []framework.Arg{f32("args.0", 2, 3, 4), ints(3)}, err: "expected input with shape [*, 3]"},
		{name: "Torch.layer_norm", args: []framework.Arg{f32("args.0", 2, 4), ints(4), nv(), nv(), fv(1e-3), bv(false)}, op: "layer_norm", attrs: ops.Attrs{"eps": fa(1e-3)}},
		// embedding: F order (input, weight) → ATen (weight, indices); negative padding_idx normalised.
		{name: "Functional.embedding", args: []framework.Arg{i64("args.0", 3), f32("args.1", 10, 4)}, op: "embedding", attrs: ops.Attrs{"padding_idx": ia(-1), "scale_grad_by_freq": ba(false)}, in: []string{"args.1", "args.0"}},
		{name: "Functional.embedding", args: []framework.Arg{i64("args.0", 3), f32("args.1", 10, 4)}, kwargs: []framework.NamedArg{kw("padding_idx", iv(-2))}, op: "embedding", attrs: ops.Attrs{"padding_idx": ia(8)}},
		{name: "Functional.embedding", args: []framework.Arg{i64("args.0", 3), f32("args.1", 10, 4), iv(3)}, op: "embedding", attrs: ops.Attrs{"padding_idx": ia(3)}},
		{name: "Functional.embedding", args: []framework.Arg{i64("args.0", 3), f32("args.1", 10, 4), iv(10)}, err: "Padding_idx must be within num_embeddings"},
		{name: "Functional.embedding", args: []framework.Arg{i64("args.0", 3), f32("args.1", 10, 4)}, kwargs: []framework.NamedArg{kw("max_norm", fv(1))}, err: `argument "max_norm"`},
		{name: "Functional.embedding", args: []framework.Arg{f32("args.0", 3), f32("args.1", 10, 4)}, err: "'indices' to have one of the following scalar types: Long, Int"},
		{name: "Torch.embedding", args: []framework.Arg{f32("args.0", 10, 4), i64("args.1", 3), iv(-1), bv(true)}, op: "embedding", attrs: ops.Attrs{"padding_idx": ia(-1), "scale_grad_by_freq": ba(true)}, in: []string{"args.0", "args.1"}},
		// convolution
		{name: "Functional.conv2d", args: []framework.Arg{x4, w, b, ints(1, 1), ints(1, 1), ints(1, 1), iv(1)}, op: "convolution",
			attrs: ops.Attrs{"stride": la(1, 1), "padding": la(1, 1), "dilation": la(1, 1), "groups": ia(1)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, op: "convolution",
			attrs: ops.Attrs{"stride": la(1, 1), "padding": la(0, 0), "dilation": la(1, 1), "groups": ia(1)}, in: []string{"args.0", "args.1", "none"}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("stride", iv(2)), kw("padding", ints(1)), kw("dilation", ints(2, 1))}, op: "convolution",
			attrs: ops.Attrs{"stride": la(2, 2), "padding": la(1, 1), "dilation": la(2, 1)}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("padding", sv("same"))}, op: "convolution", attrs: ops.Attrs{"padding": la(1, 1)}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("padding", sv("same")), kw("dilation", iv(2))}, op: "convolution", attrs: ops.Attrs{"padding": la(2, 2)}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w2}, kwargs: []framework.NamedArg{kw("padding", sv("same"))}, err: "asymmetrically"},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w2}, kwargs: []framework.NamedArg{kw("padding", sv("same")), kw("dilation", iv(2))}, op: "convolution", attrs: ops.Attrs{"padding": la(1, 1)}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("padding", sv("same")), kw("stride", iv(2))}, err: "not supported for strided convolutions"},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("padding", sv("valid")), kw("stride", iv(2))}, op: "convolution", attrs: ops.Attrs{"padding": la(0, 0), "stride": la(2, 2)}},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("padding", sv("full"))}, err: "Invalid padding string: 'full'"},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("stride", sv("2"))}, err: `Functional.conv2d.0: argument "stride": expected int or list of ints, got str`},
		{name: "Functional.conv2d", args: []framework.Arg{x4, w}, kwargs: []framework.NamedArg{kw("stride", ints(1, 1, 1))}, err: "a single int or a list of 2 ints"},
		{name: "Functional.conv2d", args: []framework.Arg{f32("args.0", 3, 8, 8), w}, err: "unbatched 3-D input"},
		{name: "Functional.conv1d", args: []framework.Arg{f32("args.0", 1, 3, 9), f32("args.1", 2, 3, 3)}, kwargs: []framework.NamedArg{kw("padding", sv("same"))}, op: "convolution", attrs: ops.Attrs{"padding": la(1), "stride": la(1)}},
		{name: "Torch.conv3d", args: []framework.Arg{f32("args.0", 1, 3, 4, 4, 4), f32("args.1", 2, 3, 1, 1, 1), nv(), iv(1), iv(0), iv(1), iv(3)}, op: "convolution", attrs: ops.Attrs{"stride": la(1, 1, 1), "groups": ia(3)}},
		{name: "Torch.convolution", args: []framework.Arg{x4, w, nv(), ints(1), ints(0), ints(1), bv(false), ints(0), iv(1)}, op: "convolution", attrs: ops.Attrs{"stride": la(1, 1), "padding": la(0, 0)}},
		{name: "Torch.convolution", args: []framework.Arg{x4, w, nv(), ints(1), ints(0), ints(1), bv(true), ints(0), iv(1)}, op: "conv_transpose"},
		// pooling
		{name: "Functional.max_pool2d", args: []framework.Arg{x4, iv(2)}, op: "max_pool2d",
			attrs: ops.Attrs{"kernel_size": la(2, 2), "stride": la(2, 2), "padding": la(0, 0), "dilation": la(1, 1), "ceil_mode": ba(false), "return_indices": ba(false)}},
		{name: "Functional.max_pool2d", args: []framework.Arg{x4, ints(3, 2), iv(1), ints(1, 0)}, kwargs: []framework.NamedArg{kw("ceil_mode", bv(true))}, op: "max_pool2d",
			attrs: ops.Attrs{"kernel_size": la(3, 2), "stride": la(1, 1), "padding": la(1, 0), "ceil_mode": ba(true)}},
		{name: "Functional.max_pool2d", args: []framework.Arg{x4, iv(2)}, kwargs: []framework.NamedArg{kw("return_indices", bv(true))}, op: "max_pool2d", attrs: ops.Attrs{"return_indices": ba(true)}, multi: true},
		{name: "Functional.max_pool2d_with_indices", args: []framework.Arg{x4, iv(2), lv()}, op: "max_pool2d", attrs: ops.Attrs{"stride": la(2, 2), "return_indices": ba(true)}, multi: true},
		{name: "Functional.max_pool2d", args: []framework.Arg{x4, iv(3)}, kwargs: []framework.NamedArg{kw("padding", iv(2))}, err: "pad should be at most half of kernel size"},
		{name: "Torch.max_pool2d", args: []framework.Arg{x4, ints(2, 2)}, op: "max_pool2d", attrs: ops.Attrs{"stride": la(2, 2)}},
		{name: "Torch.max_pool2d", args: []framework.Arg{x4, iv(2), iv(1)}, op: "max_pool2d", attrs: ops.Attrs{"stride": la(1, 1)}},
		{name: "Functional.adaptive_avg_pool2d", args: []framework.Arg{f32("args.0", 2, 8, 4, 5), iv(1)}, op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": la(1, 1)}},
		{name: "Functional.adaptive_avg_pool2d", args: []framework.Arg{f32("args.0", 2, 8, 4, 5), lv(nv(), iv(2))}, op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": la(4, 2)}},
		{name: "Functional.adaptive_avg_pool2d", args: []framework.Arg{f32("args.0", 8, 4, 5), lv(iv(3), nv())}, op: "adaptive_avg_pool2d", attrs: ops.Attrs{"output_size": la(3, 5)}},
		// dropout
		{name: "Functional.dropout", args: []framework.Arg{x4}, op: "dropout", attrs: ops.Attrs{"p": fa(0.5), "train": ba(true), "inplace": ba(false)}},
		{name: "Functional.dropout", args: []framework.Arg{x4, fv(0.1), bv(false), bv(true)}, op: "dropout", attrs: ops.Attrs{"p": fa(0.1), "train": ba(false), "inplace": ba(true)}},
		{name: "Functional.dropout", args: []framework.Arg{x4, fv(1.5)}, err: "dropout probability has to be between 0 and 1"},
		{name: "Torch.dropout", args: []framework.Arg{x4, fv(0.2), bv(true)}, op: "dropout", attrs: ops.Attrs{"p": fa(0.2), "train": ba(true), "inplace": ba(false)}},
		{name: "Torch.dropout_", args: []framework.Arg{x4}, kwargs: []framework.NamedArg{kw("p", iv(0)), kw("train", bv(true))}, op: "dropout", attrs: ops.Attrs{"p": fa(0), "inplace": ba(true)}},
		// losses
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), i64("args.1", 3)}, op: "cross_entropy",
			attrs: ops.Attrs{"reduction": sa("mean"), "ignore_index": ia(-100), "label_smoothing": fa(0)}, in: []string{"args.0", "args.1", "none"}},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), i64("args.1", 3)}, kwargs: []framework.NamedArg{kw("size_average", bv(false))}, op: "cross_entropy", attrs: ops.Attrs{"reduction": sa("sum")}},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), i64("args.1", 3)}, kwargs: []framework.NamedArg{kw("reduce", bv(false)), kw("reduction", sv("sum"))}, op: "cross_entropy", attrs: ops.Attrs{"reduction": sa("none")}},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), i64("args.1", 3), f32("args.2", 5), nv(), iv(1), bv(true)}, op: "cross_entropy", attrs: ops.Attrs{"reduction": sa("mean"), "ignore_index": ia(1)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), i64("args.1", 3)}, kwargs: []framework.NamedArg{kw("reduction", sv("avg"))}, err: "avg is not a valid value for reduction"},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), i64("args.1", 3)}, kwargs: []framework.NamedArg{kw("label_smoothing", fv(0.1))}, op: "cross_entropy", attrs: ops.Attrs{"label_smoothing": fa(0.1)}},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), tn("args.1", tensor.Int32, 3)}, op: "cross_entropy"},
		{name: "Functional.cross_entropy", args: []framework.Arg{f32("args.0", 3, 5), f32("args.1", 3, 5)}, err: "class-probability"},
		{name: "Functional.nll_loss", args: []framework.Arg{f32("args.0", 2, 10), i64("args.1", 2)}, op: "nll_loss", attrs: ops.Attrs{"reduction": sa("mean"), "ignore_index": ia(-100)}},
		{name: "Functional.nll_loss", args: []framework.Arg{f32("args.0", 2, 10), i64("args.1", 2)}, kwargs: []framework.NamedArg{kw("size_average", bv(true)), kw("reduce", bv(true))}, op: "nll_loss", attrs: ops.Attrs{"reduction": sa("mean")}},
		{name: "Functional.nll_loss", args: []framework.Arg{f32("args.0", 2, 10), tn("args.1", tensor.Int32, 2)}, err: "expected scalar type Long but found int32"},
		// batch norm: F order and ATen order map to the op's (input, running_mean, running_var, weight, bias).
		{name: "Functional.batch_norm", args: []framework.Arg{x4, f32("args.1", 3), f32("args.2", 3), f32("args.3", 3), f32("args.4", 3), bv(true), fv(0.1), fv(1e-5)}, op: "batch_norm",
			attrs: ops.Attrs{"training": ba(true), "momentum": fa(0.1), "eps": fa(1e-5)}, in: []string{"args.0", "args.1", "args.2", "args.3", "args.4"}},
		{name: "Functional.batch_norm", args: []framework.Arg{x4, f32("args.1", 3), f32("args.2", 3)}, op: "batch_norm", attrs: ops.Attrs{"training": ba(false)}, in: []string{"args.0", "args.1", "args.2", "none", "none"}},
		{name: "Functional.batch_norm", args: []framework.Arg{x4, nv(), nv()}, err: "running_mean must be defined in evaluation mode"},
		{name: "Functional.batch_norm", args: []framework.Arg{x4, nv(), nv()}, kwargs: []framework.NamedArg{kw("training", bv(true))}, op: "batch_norm", in: []string{"args.0", "none", "none", "none", "none"}},
		{name: "Functional.batch_norm", args: []framework.Arg{f32("args.0", 1, 3), nv(), nv()}, kwargs: []framework.NamedArg{kw("training", bv(true))}, err: "Expected more than 1 value per channel when training"},
		{name: "Torch.batch_norm", args: []framework.Arg{x4, f32("args.1", 3), f32("args.2", 3), f32("args.3", 3), f32("args.4", 3), bv(false), fv(0.2), fv(1e-3), bv(true)}, op: "batch_norm",
			attrs: ops.Attrs{"momentum": fa(0.2), "eps": fa(1e-3)}, in: []string{"args.0", "args.3", "args.4", "args.1", "args.2"}},
		// npu_rms_norm: epsilon recorded, or torch_npu's default 1e-6.
		{name: "NPU.npu_rms_norm", args: []framework.Arg{tn("args.0", tensor.BFloat16, 8, 1, 16), tn("args.1", tensor.BFloat16, 16)}, op: "npu.rms_norm", attrs: ops.Attrs{"epsilon": fa(1e-6)}, multi: true},
		{name: "NPU.npu_rms_norm", args: []framework.Arg{tn("args.0", tensor.BFloat16, 8, 16), tn("args.1", tensor.BFloat16, 16)}, kwargs: []framework.NamedArg{kw("epsilon", fv(1e-5))}, op: "npu.rms_norm", attrs: ops.Attrs{"epsilon": fa(1e-5)}, multi: true},
		{name: "NPU.npu_rms_norm", args: []framework.Arg{tn("args.0", tensor.BFloat16, 8, 16), tn("args.1", tensor.BFloat16, 8)}, err: "trailing dimensions"},
	}
}

func TestReductions(t *testing.T) { runCases(t, reductionCases(), nil) }

func reductionCases() []lcase {
	x := f32("args.0", 2, 3, 4)
	return []lcase{
		{name: "Torch.sum", args: []framework.Arg{x}, op: "sum", attrs: ops.Attrs{"dim": na(), "keepdim": ba(false), "dtype": na()}},
		{name: "Torch.sum", args: []framework.Arg{x, iv(1), bv(true)}, op: "sum", attrs: ops.Attrs{"dim": la(1), "keepdim": ba(true)}},
		{name: "Tensor.sum", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("dim", ints(0, -1)), kw("dtype", dtv("torch.float64"))}, op: "sum", attrs: ops.Attrs{"dim": la(0, -1), "dtype": sa("float64")}},
		{name: "Torch.sum", args: []framework.Arg{x, lv()}, op: "sum", attrs: ops.Attrs{"dim": na()}},
		{name: "Torch.sum", args: []framework.Arg{x, ints(0, 0)}, err: "appears multiple times"},
		{name: "Torch.sum", args: []framework.Arg{x, iv(1), bv(true), dtv("torch.float64")}, err: "takes at most 3 positional arguments"},
		{name: "Torch.mean", args: []framework.Arg{x, iv(-1)}, op: "mean", attrs: ops.Attrs{"dim": la(-1)}},
		{name: "Torch.mean", args: []framework.Arg{i64("args.0", 3)}, err: "could not infer output dtype"},
		{name: "Torch.mean", args: []framework.Arg{i64("args.0", 3)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float32"))}, op: "mean", attrs: ops.Attrs{"dtype": sa("float32")}},
		{name: "Torch.max", args: []framework.Arg{x}, op: "max", in: []string{"args.0"}},
		{name: "Torch.max", args: []framework.Arg{x, iv(1)}, op: "max_dim", attrs: ops.Attrs{"dim": ia(1), "keepdim": ba(false)}, multi: true},
		{name: "Tensor.max", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("dim", iv(-1)), kw("keepdim", bv(true))}, op: "max_dim", attrs: ops.Attrs{"dim": ia(-1), "keepdim": ba(true)}, multi: true},
		{name: "Torch.max", args: []framework.Arg{x, f32("args.1", 4)}, op: "maximum", in: []string{"args.0", "args.1"}},
		{name: "Tensor.max", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("other", f32("kwargs.other", 4))}, op: "maximum", in: []string{"args.0", "kwargs.other"}},
		{name: "Torch.min", args: []framework.Arg{x, iv(0), bv(true)}, op: "min_dim", attrs: ops.Attrs{"keepdim": ba(true)}, multi: true},
		{name: "Torch.min", args: []framework.Arg{x, f32("args.1", 4)}, op: "minimum"},
		{name: "Torch.min", args: []framework.Arg{x}, op: "min"},
		{name: "Torch.max", args: []framework.Arg{x, fv(1.5)}, err: `argument "dim": expected int, got float`},
		{name: "Torch.cumsum", args: []framework.Arg{x, iv(1)}, op: "cumsum", attrs: ops.Attrs{"dim": ia(1), "dtype": na(), "inplace": ba(false)}},
		{name: "Tensor.cumsum", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("dim", iv(0)), kw("dtype", dtv("torch.float64"))}, op: "cumsum", attrs: ops.Attrs{"dim": ia(0), "dtype": sa("float64")}},
		{name: "Tensor.cumsum_", args: []framework.Arg{x, iv(0)}, op: "cumsum", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.cumsum", args: []framework.Arg{x, iv(1), dtv("torch.float64")}, err: "takes at most 2 positional arguments"},
	}
}

func TestShapes(t *testing.T) { runCases(t, shapeCases(), nil) }

func shapeCases() []lcase {
	x := f32("args.0", 2, 3, 4)
	return []lcase{
		{name: "Torch.cat", args: []framework.Arg{lv(f32("args.0.0", 2, 3), f32("args.0.1", 2, 3))}, kwargs: []framework.NamedArg{kw("dim", iv(-1))}, op: "cat", attrs: ops.Attrs{"dim": ia(-1)}, in: []string{"args.0.0", "args.0.1"}},
		{name: "Torch.concat", args: []framework.Arg{lv(f32("args.0.0", 2))}, op: "cat", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Torch.concatenate", args: []framework.Arg{lv(f32("args.0.0", 2), f32("args.0.1", 2)), iv(0)}, op: "cat"},
		{name: "Torch.cat", args: []framework.Arg{lv()}, err: "expected a non-empty list of Tensors"},
		{name: "Torch.cat", args: []framework.Arg{lv(f32("args.0.0", 2), iv(1))}, err: "element 1: expected tensor, got int"},
		{name: "Torch.stack", args: []framework.Arg{lv(f32("args.0.0", 2), f32("args.0.1", 2)), iv(1)}, op: "stack", attrs: ops.Attrs{"dim": ia(1)}},
		// chunk: ceil(n/chunks), may give fewer chunks.
		{name: "Torch.chunk", args: []framework.Arg{f32("args.0", 2048, 2, 1, 256), iv(2)}, kwargs: []framework.NamedArg{kw("dim", iv(-1))}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(128, 128), "dim": ia(-1)}, multi: true},
		{name: "Torch.chunk", args: []framework.Arg{f32("args.0", 5), iv(4)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(2, 2, 1)}, multi: true},
		{name: "Torch.chunk", args: []framework.Arg{f32("args.0", 6), iv(4)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(2, 2, 2)}, multi: true},
		{name: "Tensor.chunk", args: []framework.Arg{f32("args.0", 5), iv(10)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(1, 1, 1, 1, 1)}, multi: true},
		{name: "Torch.chunk", args: []framework.Arg{f32("args.0", 0, 2), iv(3)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(0, 0, 0)}, multi: true},
		{name: "Torch.chunk", args: []framework.Arg{f32("args.0", 5), iv(0)}, err: "chunk expects `chunks` to be greater than 0"},
		{name: "Torch.split", args: []framework.Arg{f32("args.0", 5), iv(2)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(2, 2, 1), "dim": ia(0)}, multi: true},
		{name: "Torch.split", args: []framework.Arg{f32("args.0", 4, 5), ints(2, 3)}, kwargs: []framework.NamedArg{kw("dim", iv(1))}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(2, 3), "dim": ia(1)}, multi: true},
		{name: "Torch.split", args: []framework.Arg{f32("args.0", 0, 2), iv(2)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(0)}, multi: true},
		{name: "Torch.split", args: []framework.Arg{f32("args.0", 5), iv(0)}, err: "split_size can only be 0 if dimension size is 0"},
		{name: "Torch.split", args: []framework.Arg{f32("args.0", 3, 4), ints(1, 1)}, err: "to sum exactly to 3"},
		{name: "Tensor.split", args: []framework.Arg{x, iv(2)}, kwargs: []framework.NamedArg{kw("dim", iv(2))}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(2, 2), "dim": ia(2)}, multi: true},
		{name: "Tensor.split", args: []framework.Arg{x, szv(1, 1)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(1, 1)}, multi: true},
		{name: "Torch.split_with_sizes", args: []framework.Arg{x, ints(1, 2), iv(1)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(1, 2), "dim": ia(1)}, multi: true},
		{name: "Torch.split", args: []framework.Arg{f32("args.0")}, kwargs: []framework.NamedArg{kw("split_size_or_sections", iv(1))}, err: "at least a 1-dimensional tensor"},
		{name: "Torch.tensor_split", args: []framework.Arg{f32("args.0", 7), iv(3)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(3, 2, 2)}, multi: true},
		{name: "Torch.tensor_split", args: []framework.Arg{f32("args.0", 7), ints(1, 5)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(1, 4, 2)}, multi: true},
		{name: "Tensor.tensor_split", args: []framework.Arg{f32("args.0", 7), ints(5, 1)}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(5, 0, 2)}, multi: true},
		{name: "Torch.tensor_split", args: []framework.Arg{f32("args.0", 7)}, kwargs: []framework.NamedArg{kw("indices", ints(2, 10))}, op: "split_with_sizes", attrs: ops.Attrs{"split_sizes": la(2, 5, 0)}, multi: true},
		{name: "Torch.transpose", args: []framework.Arg{x, iv(0), iv(-1)}, op: "transpose", attrs: ops.Attrs{"dim0": ia(0), "dim1": ia(-1), "inplace": ba(false)}},
		{name: "Tensor.transpose_", args: []framework.Arg{x, iv(0), iv(1)}, op: "transpose", attrs: ops.Attrs{"inplace": ba(true)}},
		{name: "Torch.swapaxes", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("axis0", iv(1)), kw("axis1", iv(2))}, op: "transpose", attrs: ops.Attrs{"dim0": ia(1), "dim1": ia(2)}},
		{name: "Torch.transpose", args: []framework.Arg{f32("args.0", 3), iv(0), iv(1)}, err: "dimension out of range"},
		{name: "Tensor.t", args: []framework.Arg{f32("args.0", 2, 3)}, op: "transpose", attrs: ops.Attrs{"dim0": ia(0), "dim1": ia(1)}},
		{name: "Tensor.t", args: []framework.Arg{f32("args.0", 3)}, op: "permute", attrs: ops.Attrs{"dims": la(0)}},
		{name: "Torch.t", args: []framework.Arg{x}, err: "t() expects a tensor with <= 2 dimensions"},
		{name: "Tensor.permute", args: []framework.Arg{x, iv(2), iv(0), iv(1)}, op: "permute", attrs: ops.Attrs{"dims": la(2, 0, 1)}},
		{name: "Tensor.permute", args: []framework.Arg{x, ints(2, 0, -2)}, op: "permute", attrs: ops.Attrs{"dims": la(2, 0, -2)}},
		{name: "Torch.permute", args: []framework.Arg{x, szv(1, 0, 2)}, op: "permute", attrs: ops.Attrs{"dims": la(1, 0, 2)}},
		{name: "Torch.permute", args: []framework.Arg{x, ints(0, 0, 1)}, err: "duplicate dims"},
		{name: "Torch.permute", args: []framework.Arg{x, ints(0, 1)}, err: "does not match the length"},
		{name: "Torch.permute", args: []framework.Arg{x, iv(0)}, err: "expected list of ints, got int"},
		// the reshape family resolves the explicit target shape.
		{name: "Tensor.view", args: []framework.Arg{x, iv(-1)}, op: "reshape", attrs: ops.Attrs{"shape": la(24)}},
		{name: "Tensor.view", args: []framework.Arg{x, iv(6), iv(-1)}, op: "reshape", attrs: ops.Attrs{"shape": la(6, 4)}},
		{name: "Tensor.view", args: []framework.Arg{x, szv(4, 6)}, op: "reshape", attrs: ops.Attrs{"shape": la(4, 6)}},
		{name: "Tensor.view", args: []framework.Arg{x, ints(-1, 2)}, op: "reshape", attrs: ops.Attrs{"shape": la(12, 2)}},
		{name: "Tensor.view", args: []framework.Arg{x, iv(5), iv(-1)}, err: "is invalid for input of size 24"},
		{name: "Tensor.view", args: []framework.Arg{x, iv(-1), iv(-1)}, err: "only one dimension can be inferred"},
		{name: "Tensor.view", args: []framework.Arg{x, dtv("torch.float16")}, err: "view(dtype)"},
		{name: "Tensor.reshape", args: []framework.Arg{x, iv(2), iv(12)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 12)}},
		{name: "Torch.reshape", args: []framework.Arg{x, ints(-1)}, op: "reshape", attrs: ops.Attrs{"shape": la(24)}},
		{name: "Torch.reshape", args: []framework.Arg{f32("args.0", 0, 3), ints(0, -1)}, err: "ambiguous"},
		{name: "Tensor.view_as", args: []framework.Arg{x, f32("args.1", 4, 6)}, op: "reshape", attrs: ops.Attrs{"shape": la(4, 6)}, in: []string{"args.0"}},
		{name: "Tensor.flatten", args: []framework.Arg{f32("args.0", 2, 8, 1, 1), iv(1)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 8)}},
		{name: "Torch.flatten", args: []framework.Arg{x}, op: "reshape", attrs: ops.Attrs{"shape": la(24)}},
		{name: "Torch.flatten", args: []framework.Arg{x, iv(-2)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 12)}},
		{name: "Torch.flatten", args: []framework.Arg{f32("args.0")}, op: "reshape", attrs: ops.Attrs{"shape": la(1)}},
		{name: "Torch.flatten", args: []framework.Arg{x, iv(2), iv(1)}, err: "start_dim cannot come after end_dim"},
		{name: "Torch.unflatten", args: []framework.Arg{x, iv(1), ints(-1, 1)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 3, 1, 4)}},
		{name: "Tensor.ravel", args: []framework.Arg{x}, op: "reshape", attrs: ops.Attrs{"shape": la(24)}},
		{name: "Torch.squeeze", args: []framework.Arg{f32("args.0", 1, 2, 1)}, op: "reshape", attrs: ops.Attrs{"shape": la(2)}},
		{name: "Torch.squeeze", args: []framework.Arg{f32("args.0", 1, 2, 1), iv(-1)}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 2)}},
		{name: "Tensor.squeeze", args: []framework.Arg{f32("args.0", 1, 2, 1), iv(1)}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 2, 1)}},
		{name: "Torch.unsqueeze", args: []framework.Arg{x, iv(-1)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 3, 4, 1)}},
		{name: "Tensor.unsqueeze_", args: []framework.Arg{x, iv(0)}, op: "reshape", attrs: ops.Attrs{"shape": la(1, 2, 3, 4)}},
		{name: "Torch.unsqueeze", args: []framework.Arg{x, iv(3)}, op: "reshape", attrs: ops.Attrs{"shape": la(2, 3, 4, 1)}},
		{name: "Torch.unsqueeze", args: []framework.Arg{x, iv(5)}, err: "dimension out of range"},
		// masked_fill, where, clone, ones_like
		{name: "Tensor.masked_fill", args: []framework.Arg{x, tn("args.1", tensor.Bool, 2, 3, 4), fv(-1e9)}, op: "masked_fill", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1", "float:-1e+09"}},
		{name: "Tensor.masked_fill_", args: []framework.Arg{x, tn("args.1", tensor.Bool, 4), f32("args.2")}, op: "masked_fill", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.masked_fill", args: []framework.Arg{x, tn("args.1", tensor.Bool, 4), f32("args.2", 1)}, err: "only supports a 0-dimensional value tensor"},
		{name: "Torch.where", args: []framework.Arg{tn("args.0", tensor.Bool, 4), f32("args.1", 4), fv(0)}, op: "where", in: []string{"args.0", "args.1", "float:0"}},
		{name: "Torch.where", args: []framework.Arg{tn("args.0", tensor.Bool, 4), iv(1), iv(0)}, op: "where", in: []string{"args.0", "int:1", "int:0"}},
		{name: "Torch.where", args: []framework.Arg{tn("args.0", tensor.Bool, 4)}, err: "with one argument (nonzero) is not supported"},
		{name: "Torch.where", args: []framework.Arg{f32("args.0", 4), x, x}, err: "where expected condition to be a boolean tensor"},
		{name: "Tensor.where", args: []framework.Arg{x, tn("args.1", tensor.Bool, 4), f32("args.2", 4)}, op: "where", in: []string{"args.1", "args.0", "args.2"}},
		{name: "Tensor.where", args: []framework.Arg{x, tn("args.1", tensor.Bool, 4), iv(2)}, err: `argument "other": expected tensor, got int`},
		{name: "Torch.clone", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("memory_format", framework.Arg{Kind: framework.ArgUnknown, TypeName: "torch.memory_format"})}, op: "clone"},
		{name: "Tensor.contiguous", args: []framework.Arg{x}, op: "clone"},
		{name: "Torch.ones_like", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int32")), kw("memory_format", framework.Arg{Kind: framework.ArgUnknown, TypeName: "torch.memory_format"})}, op: "ones_like", attrs: ops.Attrs{"dtype": sa("int32")}},
		{name: "Torch.ones_like", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.complex64"))}, err: `dtype "torch.complex64" is not supported`},
	}
}

// TestKwargAliases covers the MindSpore keyword spellings (axis, keep_dims).
func TestKwargAliases(t *testing.T) {
	x := f32("args.0", 2, 3)
	aliases := map[string]string{"axis": "dim", "keep_dims": "keepdim", "keepdims": "keepdim"}
	runCases(t, []lcase{
		{name: "Tensor.mean", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("axis", iv(1)), kw("keep_dims", bv(true))}, op: "mean", attrs: ops.Attrs{"dim": la(1), "keepdim": ba(true)}},
		{name: "Tensor.max", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("axis", iv(0)), kw("keepdims", bv(true))}, op: "max_dim", attrs: ops.Attrs{"dim": ia(0), "keepdim": ba(true)}, multi: true},
		{name: "Tensor.max", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("axis", nv())}, op: "max"},
		{name: "Tensor.mean", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("axis", iv(1)), kw("dim", iv(1))}, err: "multiple values"},
	}, aliases)
}

// TestEveryPlanMatchesSchema checks CheckPlan itself on broken plans.
func TestCheckPlanRejects(t *testing.T) {
	good := func() *framework.Plan {
		return &framework.Plan{Op: "add", Attrs: ops.Attrs{"alpha": fa(1), "inplace": ba(false)},
			Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0"}, {Kind: framework.BindScalar}}}
	}
	if err := CheckPlan(good()); err != nil {
		t.Fatalf("good plan rejected: %v", err)
	}
	for name, mutate := range map[string]func(p *framework.Plan){
		"unknown op":        func(p *framework.Plan) { p.Op = "addd" },
		"unknown attr":      func(p *framework.Plan) { p.Attrs["beta"] = fa(1) },
		"wrong kind":        func(p *framework.Plan) { p.Attrs["alpha"] = ia(1) },
		"missing attr":      func(p *framework.Plan) { delete(p.Attrs, "inplace") },
		"too few bindings":  func(p *framework.Plan) { p.Inputs = p.Inputs[:1] },
		"none not optional": func(p *framework.Plan) { p.Inputs[1] = framework.Binding{Kind: framework.BindNone} },
		"no path":           func(p *framework.Plan) { p.Inputs[0].Path = "" },
		"compare range":     func(p *framework.Plan) { p.Compare = []int{1} },
		"grad range":        func(p *framework.Plan) { p.GradOutput = 2 },
	} {
		p := good()
		mutate(p)
		if err := CheckPlan(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// scalar where the schema forbids it, required attr None
	p := &framework.Plan{Op: "matmul", Attrs: ops.Attrs{}, Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "a"}, {Kind: framework.BindScalar}}}
	if CheckPlan(p) == nil {
		t.Error("scalar matmul operand accepted")
	}
	p = &framework.Plan{Op: "softmax", Attrs: ops.Attrs{"dim": na(), "dtype": na()}, Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "a"}}}
	if CheckPlan(p) == nil {
		t.Error("None required attr accepted")
	}
}

func TestCheckDTypes(t *testing.T) {
	bad := framework.Arg{Kind: framework.ArgTensor, Path: "args.0.1", DTypeName: "torch.float8_e4m3fn"}
	err := CheckDTypes([]framework.Arg{f32("args.0.0"), lv(f32("args.0.0"), bad)}, nil)
	if err == nil || err.Error() != "dtype torch.float8_e4m3fn of argument args.0.1 is not supported" {
		t.Fatalf("got %v", err)
	}
	if err := CheckDTypes(nil, []framework.NamedArg{kw("w", f32("kwargs.w"))}); err != nil {
		t.Fatal(err)
	}
	if err := CheckDTypes(nil, []framework.NamedArg{kw("w", framework.Arg{Kind: framework.ArgTensor, Path: "kwargs.w", DTypeName: "Complex64"})}); err == nil {
		t.Fatal("complex kwarg accepted")
	}
}

// TestOpsListed checks that Ops() names schema ops only, that the table
// cases produce only listed ops, and that they produce every listed op.
func TestOpsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, op := range Ops() {
		if _, ok := ops.Lookup(op); !ok {
			t.Errorf("Ops() lists unknown op %s", op)
		}
		listed[op] = true
	}
	seen := map[string]bool{}
	var all []lcase
	for _, cases := range [][]lcase{mhaCases(), arithmeticCases(), poolCases(), unaryCases(), nnCases(), actCases(), lossCases(), reductionCases(), shapeCases(), attentionCases(), compareCases(), optimCases(), mathCases(), shapeViewCases(), shapeSplitStackCases(), reduceFamilyCases(), shapeIndexCases(), indexFamilyCases(), linalgCases(), nnTorchCases(), createCases(), index2FamilyCases(), miscCases(), windowsCases(), nn2Cases(), linalg2Cases(), loss2Cases(), misc2Cases(), npuOpsCases(), atenCases()} {
		all = append(all, cases...)
	}
	for _, c := range all {
		prefix, name, _ := strings.Cut(c.name, ".")
		l, err := lower(&Call{API: c.name + ".0", Namespace: nsByPrefix[prefix], Name: name, Args: c.args, Kwargs: c.kwargs})
		if err != nil {
			continue
		}
		seen[l.Plan.Op] = true
		if !listed[l.Plan.Op] {
			t.Errorf("%s produces %s, not in Ops()", c.name, l.Plan.Op)
		}
	}
	for op := range listed {
		if !seen[op] {
			t.Errorf("Ops() lists %s, which no sampled lowering produced", op)
		}
	}
}
