package lower

import (
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The create family: casts (Tensor.float, half, type_as, type...) and
// tensor creation.

func init() {
	// The dtype methods: memory_format does not change the values.
	for _, m := range []struct {
		name string
		dt   tensor.DType
	}{
		{"float", tensor.Float32}, {"double", tensor.Float64}, {"half", tensor.Float16}, {"bfloat16", tensor.BFloat16},
		{"int", tensor.Int32}, {"long", tensor.Int64}, {"short", tensor.Int16}, {"char", tensor.Int8},
		{"byte", tensor.Uint8}, {"bool", tensor.Bool},
	} {
		def(castTo(m.dt), "input, memory_format=None", "Tensor."+m.name)
	}
	def(typeAs, "input, other", "Tensor.type_as")
	def(typeCast, "input, dtype=None, non_blocking=False", "Tensor.type")
	declareOps([]string{"cast"}, "Tensor.type")
	usedOps = append(usedOps, "cast")
}

// castPlan is the cast of tensor x to dtype d.
func castPlan(x framework.Arg, d tensor.DType) *framework.Plan {
	return newPlan("cast", ops.Attrs{"dtype": ops.StringAttr(d.String())}, tensorBinding(x))
}

// castTo lowers Tensor.float(), Tensor.long()...: self cast to d.
func castTo(d tensor.DType) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		return castPlan(x, d), nil
	}
}

// typeAs lowers Tensor.type_as(other): self cast to other's dtype.
func typeAs(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	o, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	if o.DType == tensor.Invalid {
		return nil, b.argErr("other", "dtype %q is not supported", o.DTypeName)
	}
	return castPlan(x, o.DType), nil
}

// tensorTypes are the dtypes of the legacy tensor type names
// ("torch.FloatTensor", "torch.cuda.HalfTensor") that Tensor.type takes.
var tensorTypes = map[string]tensor.DType{
	"FloatTensor": tensor.Float32, "DoubleTensor": tensor.Float64, "HalfTensor": tensor.Float16, "BFloat16Tensor": tensor.BFloat16,
	"ByteTensor": tensor.Uint8, "CharTensor": tensor.Int8, "ShortTensor": tensor.Int16, "IntTensor": tensor.Int32,
	"LongTensor": tensor.Int64, "BoolTensor": tensor.Bool,
}

// typeCast lowers Tensor.type(dtype): a torch.dtype or a tensor type name
// ("torch.FloatTensor"; "torch.cuda.HalfTensor" or "torch.npu.HalfTensor" names another device, whose
// values are the same; "torch.Tensor" is the default dtype's type). Without
// a dtype, Tensor.type() returns the type name, a string.
func typeCast(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if _, err := b.boolean("non_blocking"); err != nil {
		return nil, err
	}
	a := b.arg("dtype")
	switch a.Kind {
	case framework.ArgNone:
		return nil, b.errf("Tensor.type() without a dtype returns the type name, a string, not a tensor to compare")
	case framework.ArgDType:
		d, err := tensor.Parse(a.Str)
		if err != nil {
			return nil, b.argErr("dtype", "dtype %q is not supported", a.Str)
		}
		return castPlan(x, d), nil
	case framework.ArgString:
		name := a.Str
		if name == "torch.Tensor" {
			return castPlan(x, ops.DefaultFloat), nil
		}
		if rest, ok := strings.CutPrefix(name, "torch."); ok {
			for _, dev := range []string{"cuda.", "npu."} {
				rest = strings.TrimPrefix(rest, dev)
			}
			if d, ok := tensorTypes[rest]; ok {
				return castPlan(x, d), nil
			}
		}
		return nil, b.argErr("dtype", "invalid type: '%s'", name)
	}
	return nil, b.argErr("dtype", "expected dtype or str, got %s", kindName(a))
}
