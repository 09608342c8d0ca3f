package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The optim family: optimizer arithmetic (addcmul, addcdiv, lerp), tensor
// creation and casts.

func init() {
	// value is keyword-only; the deprecated overload (input, value,
	// tensor1, tensor2) takes it second (PyTorch 1.13 still accepts it).
	const addcSig = "input, tensor1, tensor2, value=1, *, out=None"
	def(addc("addcmul"), addcSig, "Torch.addcmul", "Tensor.addcmul", "Tensor.addcmul_")
	def(addc("addcdiv"), addcSig, "Torch.addcdiv", "Tensor.addcdiv", "Tensor.addcdiv_")
	def(lerp, "input, end, weight, *, out=None", "Torch.lerp", "Tensor.lerp", "Tensor.lerp_")
	// Factory functions: layout, device and pin_memory do not change the
	// values; requires_grad makes a leaf without a backward to check.
	def(arange(false), "start=None, end=None, step=None, *, out=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False",
		"Torch.arange")
	def(arange(true), "start, end, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False", "Torch.range")
	usedOps = append(usedOps, "addcmul", "addcdiv", "lerp", "arange")

	cannot("returns a complex tensor, which probe's tensors do not represent", "Tensor.cfloat")
	cannot("is a fused optimizer step that updates lists of tensors in place and returns nothing to compare", "Torch._fused_adamw_")
}

// number binds a Python number argument of a factory function.
func (b *bound) number(name string) (framework.Binding, bool, error) {
	a := b.arg(name)
	if a.Kind == framework.ArgTensor {
		return framework.Binding{}, false, b.argErr(name, "a tensor bound is not supported (probe needs the number itself)")
	}
	bind, info, err := operandOf(a)
	if err != nil {
		return bind, false, b.argErr(name, "expected a number, got %s", kindName(a))
	}
	return bind, info.isFloat(), nil
}

// arange lowers torch.arange(end), torch.arange(start, end, step=1) and
// torch.range(start, end, step=1); the dtype is resolved here, so that the
// bench raises a float one to float64.
func arange(inclusive bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		if !inclusive {
			switch {
			case b.isNone("start") && b.isNone("end"):
				return nil, b.errf("arange() missing required argument \"end\"")
			case b.isNone("end") && !b.given["step"] && b.positional["start"]:
				b.vals["start"], b.vals["end"] = framework.Arg{Kind: framework.ArgInt}, b.vals["start"]
			case b.isNone("end"):
				return nil, b.errf("arange() received an invalid combination of arguments: end is missing")
			case b.isNone("start"):
				b.vals["start"] = framework.Arg{Kind: framework.ArgInt}
			}
			if b.isNone("step") {
				b.vals["step"] = framework.Arg{Kind: framework.ArgInt, Int: 1}
			}
		}
		var binds []framework.Binding
		anyFloat := false
		for _, name := range []string{"start", "end", "step"} {
			bind, isFloat, err := b.number(name)
			if err != nil {
				return nil, err
			}
			binds = append(binds, bind)
			anyFloat = anyFloat || isFloat
		}
		dt, err := b.dtypeAttr("dtype")
		if err != nil {
			return nil, err
		}
		if dt.Kind == ops.AttrNone {
			d := tensor.Int64
			if anyFloat || inclusive {
				d = ops.DefaultFloat
			}
			dt = ops.StringAttr(d.String())
		}
		if _, _, err := b.optBool("requires_grad"); err != nil {
			return nil, err
		}
		return newPlan("arange", ops.Attrs{"dtype": dt, "inclusive": ops.BoolAttr(inclusive)}, binds...), nil
	}
}

// lerp lowers torch.lerp with a tensor or number weight.
func lerp(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	end, err := b.tensor("end")
	if err != nil {
		return nil, err
	}
	w, wi, err := b.operand("weight")
	if err != nil {
		return nil, err
	}
	if end.DType != x.DType {
		return nil, b.errf("expected dtype %s for `end` but got dtype %s", x.DType.CppName(), end.DType.CppName())
	}
	if wi.isTensor && wi.dtype != x.DType {
		return nil, b.errf("expected dtype %s for `weight` but got dtype %s", x.DType.CppName(), wi.dtype.CppName())
	}
	if !x.DType.IsFloat() {
		k := "lerp_kernel_scalar"
		if wi.isTensor {
			k = "lerp_kernel_tensor"
		}
		return nil, b.errf("%q not implemented for '%s'", k, ops.TypeName(x.DType))
	}
	return newPlan("lerp", b.inplaceAttr(ops.Attrs{}), tensorBinding(x), tensorBinding(end), w), nil
}

// addc lowers addcmul and addcdiv: self + value * tensor1 (* or /) tensor2.
func addc(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		if b.positional["value"] {
			// Only the deprecated overload has four positional arguments:
			// a number second, then the two tensors.
			if k := b.arg("tensor1").Kind; k != framework.ArgInt && k != framework.ArgFloat && k != framework.ArgBool {
				n := 3
				if b.ns == TensorMethod {
					n = 2
				}
				return nil, b.errf("%s() takes %d positional arguments but %d were given (value is keyword-only)", b.name, n, n+1)
			}
			b.vals["value"], b.vals["tensor1"], b.vals["tensor2"] = b.vals["tensor1"], b.vals["tensor2"], b.vals["value"]
		}
		var ts [3]framework.Arg
		for i, name := range []string{"input", "tensor1", "tensor2"} {
			t, err := b.tensor(name)
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		v := b.arg("value")
		if v.Kind == framework.ArgTensor {
			return nil, b.argErr("value", "a tensor value is not supported (probe needs the number itself)")
		}
		val, _, err := b.operand("value")
		if err != nil {
			return nil, b.argErr("value", "must be Number, not %s", kindName(v))
		}
		if op == "addcdiv" && !ts[1].DType.IsFloat() && !ts[2].DType.IsFloat() {
			return nil, b.errf("%s", addcdivIntegerMsg)
		}
		return newPlan(op, b.inplaceAttr(ops.Attrs{}), tensorBinding(ts[0]), tensorBinding(ts[1]), tensorBinding(ts[2]), val), nil
	}
}

// addcdivIntegerMsg is PyTorch's refusal of addcdiv with two integer
// tensors.
const addcdivIntegerMsg = "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. " +
	"The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs " +
	"and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
