package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Elementwise arithmetic: add, sub, mul, div, pow, maximum, minimum, the
// unary math functions, clamp, and the Tensor dunder operators.

func init() {
	const addSig = "input, other, alpha=1, *, out=None"
	def(addLike("add", false), addSig, "Torch.add", "Tensor.add", "Tensor.add_")
	def(addLike("sub", false), addSig,
		"Torch.sub", "Torch.subtract", "Tensor.sub", "Tensor.sub_", "Tensor.subtract", "Tensor.subtract_")
	def(addLike("sub", true), "input, other, alpha=1", "Torch.rsub")
	def(addLike("add", false), "input, other", "Tensor.__add__", "Tensor.__iadd__")
	def(addLike("add", true), "input, other", "Tensor.__radd__")
	def(addLike("sub", false), "input, other", "Tensor.__sub__", "Tensor.__isub__")
	def(addLike("sub", true), "input, other", "Tensor.__rsub__")

	def(binary("mul", false), "input, other, *, out=None",
		"Torch.mul", "Torch.multiply", "Tensor.mul", "Tensor.mul_", "Tensor.multiply", "Tensor.multiply_")
	def(binary("mul", false), "input, other", "Tensor.__mul__", "Tensor.__imul__")
	def(binary("mul", true), "input, other", "Tensor.__rmul__")

	def(divide(false, ""), "input, other, *, rounding_mode=None, out=None",
		"Torch.div", "Torch.divide", "Tensor.div", "Tensor.div_", "Tensor.divide", "Tensor.divide_")
	def(divide(false, "none"), "input, other, *, out=None",
		"Torch.true_divide", "Tensor.true_divide", "Tensor.true_divide_")
	def(divide(false, "floor"), "input, other, *, out=None",
		"Torch.floor_divide", "Tensor.floor_divide", "Tensor.floor_divide_")
	def(divide(false, "none"), "input, other",
		"Tensor.__truediv__", "Tensor.__div__", "Tensor.__idiv__", "Tensor.__itruediv__")
	def(divide(true, "none"), "input, other", "Tensor.__rtruediv__", "Tensor.__rdiv__")
	def(divide(false, "floor"), "input, other", "Tensor.__floordiv__", "Tensor.__ifloordiv__")
	def(divide(true, "floor"), "input, other", "Tensor.__rfloordiv__")

	def(power(false), "input, exponent, *, out=None", "Torch.pow", "Tensor.pow", "Tensor.pow_")
	def(power(false), "input, exponent", "Tensor.__pow__", "Tensor.__ipow__")
	def(power(true), "input, exponent", "Tensor.__rpow__")
	def(square, "input, *, out=None", "Torch.square", "Torch.square_", "Tensor.square", "Tensor.square_")

	def(tensorPair("maximum", "input", "other", false), "input, other, *, out=None", "Torch.maximum", "Tensor.maximum")
	def(tensorPair("minimum", "input", "other", false), "input, other, *, out=None", "Torch.minimum", "Tensor.minimum")
	def(tensorPair("matmul", "input", "other", false), "input, other, *, out=None", "Torch.matmul", "Tensor.matmul")
	def(tensorPair("matmul", "input", "other", false), "input, other", "Tensor.__matmul__")
	def(tensorPair("matmul", "input", "other", true), "input, other", "Tensor.__rmatmul__")
	def(tensorPair("mm", "input", "mat2", false), "input, mat2, *, out=None", "Torch.mm", "Tensor.mm")
	def(tensorPair("bmm", "input", "mat2", false), "input, mat2, *, out=None", "Torch.bmm", "Tensor.bmm")

	for _, u := range []struct {
		op    string
		names []string
	}{
		{"neg", []string{"neg", "neg_", "negative", "negative_"}},
		{"abs", []string{"abs", "abs_", "absolute", "absolute_"}},
		{"exp", []string{"exp", "exp_"}},
		{"log", []string{"log", "log_"}},
		{"sqrt", []string{"sqrt", "sqrt_"}},
		{"rsqrt", []string{"rsqrt", "rsqrt_"}},
		{"reciprocal", []string{"reciprocal", "reciprocal_"}},
		{"tanh", []string{"tanh", "tanh_"}},
		{"sigmoid", []string{"sigmoid", "sigmoid_"}},
		{"sin", []string{"sin", "sin_"}},
		{"cos", []string{"cos", "cos_"}},
	} {
		var entries []string
		for _, n := range u.names {
			entries = append(entries, "Tensor."+n)
			if n != "absolute_" { // torch has no absolute_ function
				entries = append(entries, "Torch."+n)
			}
		}
		def(unary(u.op), "input, *, out=None", entries...)
	}
	def(unary("neg"), "input", "Tensor.__neg__")
	def(unary("abs"), "input", "Tensor.__abs__")
	def(unary("relu"), "input", "Torch.relu", "Torch.relu_", "Tensor.relu", "Tensor.relu_", "Functional.relu_")
	def(unary("relu"), "input, inplace=False", "Functional.relu")
	def(unary("silu"), "input, inplace=False", "Functional.silu")
	def(unary("tanh"), "input", "Functional.tanh")
	def(unary("sigmoid"), "input", "Functional.sigmoid")
	def(gelu, "input, approximate='none'", "Functional.gelu")

	const clampSig = "input, min=None, max=None, *, out=None"
	def(clamp("min", "max"), clampSig,
		"Torch.clamp", "Torch.clamp_", "Torch.clip", "Torch.clip_", "Tensor.clamp", "Tensor.clamp_", "Tensor.clip", "Tensor.clip_")
	def(clamp("min", ""), "input, min, *, out=None", "Torch.clamp_min", "Torch.clamp_min_", "Tensor.clamp_min", "Tensor.clamp_min_")
	def(clamp("", "max"), "input, max, *, out=None", "Torch.clamp_max", "Torch.clamp_max_", "Tensor.clamp_max", "Tensor.clamp_max_")
}

// operands binds the two operands of a binary op; swapped reflected
// operators (__radd__, __rsub__, ...) compute other OP self. The first
// positional argument of a non-reflected call must be a tensor.
func (b *bound) operands(first, second string, swap bool) (x, y framework.Binding, xi, yi operandInfo, err error) {
	// self is a tensor, also for the reflected dunders.
	if _, err = b.tensor(first); err != nil {
		return
	}
	if x, xi, err = b.operand(first); err != nil {
		return
	}
	if y, yi, err = b.operand(second); err != nil {
		return
	}
	if swap {
		x, y, xi, yi = y, x, yi, xi
	}
	return
}

// addLike lowers add/sub (with alpha) and rsub/__rsub__/__radd__ (swapped).
func addLike(op string, swap bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		// torch.add(input, Number alpha, Tensor other) is the deprecated
		// overload: alpha comes second.
		// A positional alpha exists only in the Number overloads.
		if b.positional["alpha"] {
			switch {
			case b.arg("alpha").Kind == framework.ArgTensor && b.arg("other").Kind != framework.ArgTensor:
				b.vals["alpha"], b.vals["other"] = b.vals["other"], b.vals["alpha"]
			case b.arg("other").Kind == framework.ArgTensor:
				return nil, b.errf("takes 2 positional arguments but 3 were given (alpha is keyword-only when other is a tensor)")
			}
		}
		x, y, xi, yi, err := b.operands("input", "other", swap)
		if err != nil {
			return nil, err
		}
		if op == "sub" && xi.isBool() && yi.isBool() {
			return nil, b.errf("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
		}
		attrs := b.inplaceAttr(ops.Attrs{"alpha": ops.FloatAttr(1)})
		if a, ok := b.vals["alpha"]; ok {
			integral := !xi.isFloat() && !yi.isFloat()
			switch a.Kind {
			case framework.ArgInt:
				attrs["alpha"] = ops.FloatAttr(float64(a.Int))
			case framework.ArgFloat:
				if integral {
					return nil, b.argErr("alpha", "For integral input tensors, argument alpha must not be a floating point number.")
				}
				attrs["alpha"] = ops.FloatAttr(a.Float)
			case framework.ArgBool:
				if !xi.isBool() || !yi.isBool() {
					return nil, b.argErr("alpha", "Boolean alpha only supported for Boolean results.")
				}
				attrs["alpha"] = ops.FloatAttr(boolFloat(a.Bool))
			default:
				return nil, b.argErr("alpha", "expected number, got %s", kindName(a))
			}
		}
		return newPlan(op, attrs, x, y), nil
	}
}

func boolFloat(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// binary lowers a plain binary op with tensor-or-number operands.
func binary(op string, swap bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, y, _, _, err := b.operands("input", "other", swap)
		if err != nil {
			return nil, err
		}
		return newPlan(op, b.inplaceAttr(ops.Attrs{}), x, y), nil
	}
}

// divide lowers div and its aliases; mode "" reads rounding_mode, "none"
// is true division, "floor" floor division (floor_divide, //).
func divide(swap bool, mode string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, y, _, _, err := b.operands("input", "other", swap)
		if err != nil {
			return nil, err
		}
		rm := ops.NoneAttr()
		switch mode {
		case "floor":
			rm = ops.StringAttr("floor")
		case "":
			if !b.isNone("rounding_mode") {
				s, err := b.str("rounding_mode")
				if err != nil {
					return nil, err
				}
				if s != "trunc" && s != "floor" {
					return nil, b.argErr("rounding_mode", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", s)
				}
				rm = ops.StringAttr(s)
			}
		}
		return newPlan("div", b.inplaceAttr(ops.Attrs{"rounding_mode": rm}), x, y), nil
	}
}

// power lowers pow; torch.pow also takes a Number base.
func power(swap bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		if swap {
			x, y, _, _, err := b.operands("input", "exponent", true)
			if err != nil {
				return nil, err
			}
			return newPlan("pow", b.inplaceAttr(ops.Attrs{}), x, y), nil
		}
		x, xi, err := b.operand("input")
		if err != nil {
			return nil, err
		}
		y, yi, err := b.operand("exponent")
		if err != nil {
			return nil, err
		}
		if !xi.isTensor && (b.ns != Torch || !yi.isTensor) {
			// Only torch.pow(Number self, Tensor exponent) takes a number base.
			_, err := b.tensor("input")
			return nil, err
		}
		return newPlan("pow", b.inplaceAttr(ops.Attrs{}), x, y), nil
	}
}

// square is pow(input, 2), which is how ATen implements it.
func square(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	return newPlan("pow", b.inplaceAttr(ops.Attrs{}), tensorBinding(x), scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: 2})), nil
}

// tensorPair lowers an op of two tensors (maximum, matmul, mm, bmm).
func tensorPair(op, first, second string, swap bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor(first)
		if err != nil {
			return nil, err
		}
		y, err := b.tensor(second)
		if err != nil {
			return nil, err
		}
		if swap {
			x, y = y, x
		}
		attrs := ops.Attrs{}
		if s, _ := ops.Lookup(op); hasAttr(s, "inplace") {
			b.inplaceAttr(attrs)
		}
		return newPlan(op, attrs, tensorBinding(x), tensorBinding(y)), nil
	}
}

func hasAttr(s ops.Schema, name string) bool {
	for _, a := range s.Attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// unary lowers a one-tensor elementwise op; F.relu/F.silu take inplace=.
func unary(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if op == "neg" && x.DType == tensor.Bool {
			return nil, b.errf("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
		}
		attrs := b.inplaceAttr(ops.Attrs{})
		if _, ok := b.vals["inplace"]; ok {
			in, err := b.boolean("inplace")
			if err != nil {
				return nil, err
			}
			attrs["inplace"] = ops.BoolAttr(in)
		}
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}

func gelu(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	approx, err := b.str("approximate")
	if err != nil {
		return nil, err
	}
	if approx != "none" && approx != "tanh" {
		return nil, b.argErr("approximate", "approximate argument must be either none or tanh.")
	}
	return newPlan("gelu", ops.Attrs{"approximate": ops.StringAttr(approx), "inplace": ops.BoolAttr(false)}, tensorBinding(x)), nil
}

// clamp lowers clamp/clip (min and max), clamp_min (max "") and clamp_max
// (min ""); the bounds are numbers, tensors or None.
func clamp(minName, maxName string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		lo, hi := noneBinding, noneBinding
		var hasLo, hasHi bool
		if minName != "" {
			if lo, hasLo, err = b.optOperand(minName); err != nil {
				return nil, err
			}
		}
		if maxName != "" {
			if hi, hasHi, err = b.optOperand(maxName); err != nil {
				return nil, err
			}
		}
		if !hasLo && !hasHi {
			return nil, b.errf("torch.clamp: At least one of 'min' or 'max' must not be None")
		}
		return newPlan("clamp", b.inplaceAttr(ops.Attrs{}), tensorBinding(x), lo, hi), nil
	}
}
