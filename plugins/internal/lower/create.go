package lower

import (
	"strconv"
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

	// Factory functions: layout, device and pin_memory do not change the
	// values; requires_grad makes a leaf without a backward to check.
	def(full, "size, fill_value, *, names=None, out=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False", "Torch.full")
	def(scalarTensor, "s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False", "Torch.scalar_tensor")
	const likeKw = "*, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False, memory_format=None"
	def(fullLike, "input, fill_value, "+likeKw, "Torch.full_like")
	def(zerosLike, "input, "+likeKw, "Torch.zeros_like")
	def(fill, "input, value", "Torch.fill_", "Tensor.fill_")
	def(triangle("tril"), "input, diagonal=0, *, out=None", "Torch.tril", "Tensor.tril", "Tensor.tril_")
	def(triangle("triu"), "input, diagonal=0, *, out=None", "Torch.triu", "Tensor.triu", "Tensor.triu_")
	def(eye, "n, m=None, *, out=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False", "Torch.eye")
	usedOps = append(usedOps, "cast", "fill", "full", "tril", "triu", "eye")
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

// fillNumber binds the number a factory function fills its tensor with,
// and the dtype PyTorch infers from it (bool, int64 or the default float).
func (b *bound) fillNumber(name string) (framework.Binding, tensor.DType, error) {
	a := b.arg(name)
	if a.Kind == framework.ArgTensor {
		return framework.Binding{}, tensor.Invalid, b.argErr(name, "a tensor %s is not supported (probe needs the number itself)", name)
	}
	bind, info, err := operandOf(a)
	if err != nil {
		return bind, tensor.Invalid, b.argErr(name, "must be Number, not %s", kindName(a))
	}
	switch {
	case info.isBool():
		return bind, tensor.Bool, nil
	case info.isFloat():
		return bind, ops.DefaultFloat, nil
	}
	return bind, tensor.Int64, nil
}

// factoryDType is the dtype argument of a factory function, def where it
// is None.
func (b *bound) factoryDType(def tensor.DType) (ops.Attr, error) {
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return dt, err
	}
	if dt.Kind == ops.AttrNone {
		dt = ops.StringAttr(def.String())
	}
	if _, _, err := b.optBool("requires_grad"); err != nil {
		return dt, err
	}
	return dt, nil
}

// full lowers torch.full(size, fill_value).
func full(b *bound) (*framework.Plan, error) {
	if !b.isNone("names") {
		return nil, b.argErr("names", "named tensors are not supported")
	}
	size, err := b.sizeArg("size")
	if err != nil {
		return nil, err
	}
	v, inferred, err := b.fillNumber("fill_value")
	if err != nil {
		return nil, err
	}
	dt, err := b.factoryDType(inferred)
	if err != nil {
		return nil, err
	}
	return newPlan("full", ops.Attrs{"size": ops.IntsAttr(size...), "dtype": dt}, v), nil
}

// sizeArg reads the size of a factory function: a list of non-negative
// ints or a torch.Size.
func (b *bound) sizeArg(name string) ([]int64, error) {
	size, ok := asInts(b.arg(name))
	if !ok {
		return nil, b.argErr(name, "expected list of ints, got %s", describeList(b.arg(name)))
	}
	for _, n := range size {
		if n < 0 {
			return nil, b.argErr(name, "Trying to create tensor with negative dimension %d: %s", n, intsString(size))
		}
	}
	return size, nil
}

// intsString prints ints as PyTorch prints an IntArrayRef: "[2, -1]".
func intsString(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// scalarTensor lowers torch.scalar_tensor(s): a 0-d tensor of the default
// float dtype whatever the number's kind.
func scalarTensor(b *bound) (*framework.Plan, error) {
	v, _, err := b.fillNumber("s")
	if err != nil {
		return nil, err
	}
	dt, err := b.factoryDType(ops.DefaultFloat)
	if err != nil {
		return nil, err
	}
	return newPlan("full", ops.Attrs{"size": ops.IntsAttr(), "dtype": dt}, v), nil
}

// fillOperand binds the value of fill_ and full_like: a number or a 0-d
// tensor.
func (b *bound) fillOperand(name string) (framework.Binding, error) {
	a := b.arg(name)
	v, _, err := b.operand(name)
	if err != nil {
		return v, err
	}
	if a.Kind == framework.ArgTensor && len(a.Shape) != 0 {
		if b.name == "full_like" {
			return v, b.argErr(name, "full_like(): argument 'fill_value' must be Number, not Tensor")
		}
		return v, b.argErr(name, "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", len(a.Shape))
	}
	return v, nil
}

// fullLike lowers torch.full_like(input, fill_value).
func fullLike(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	v, err := b.fillOperand("fill_value")
	if err != nil {
		return nil, err
	}
	dt, err := b.likeDType()
	if err != nil {
		return nil, err
	}
	return newPlan("fill", ops.Attrs{"dtype": dt}, tensorBinding(x), v), nil
}

// likeDType is the dtype argument of a *_like function (None keeps the
// input's).
func (b *bound) likeDType() (ops.Attr, error) {
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return dt, err
	}
	if _, _, err := b.optBool("requires_grad"); err != nil {
		return dt, err
	}
	return dt, nil
}

// zerosLike lowers torch.zeros_like(input): a fill with 0.
func zerosLike(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dt, err := b.likeDType()
	if err != nil {
		return nil, err
	}
	return newPlan("fill", ops.Attrs{"dtype": dt}, tensorBinding(x), scalarBinding(ops.Scalar{Kind: ops.ScalarInt})), nil
}

// fill lowers Tensor.fill_(value) and torch.fill_(input, value).
func fill(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	v, err := b.fillOperand("value")
	if err != nil {
		return nil, err
	}
	return newPlan("fill", ops.Attrs{"dtype": ops.NoneAttr()}, tensorBinding(x), v), nil
}

// triangle lowers tril and triu (and their in-place forms).
func triangle(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		d, err := b.integer("diagonal")
		if err != nil {
			return nil, err
		}
		switch len(x.Shape) {
		case 0:
			return nil, b.argErr("input", "Dimension specified as -2 but tensor has no dimensions")
		case 1:
			return nil, b.argErr("input", "Dimension out of range (expected to be in range of [-1, 0], but got -2)")
		}
		return newPlan(op, b.inplaceAttr(ops.Attrs{"diagonal": ops.IntAttr(d)}), tensorBinding(x)), nil
	}
}

// eye lowers torch.eye(n, m=None).
func eye(b *bound) (*framework.Plan, error) {
	n, err := b.integer("n")
	if err != nil {
		return nil, err
	}
	m := n
	if !b.isNone("m") {
		if m, err = b.integer("m"); err != nil {
			return nil, err
		}
	}
	if n < 0 {
		return nil, b.argErr("n", "n must be greater or equal to 0, got %d", n)
	}
	if m < 0 {
		return nil, b.argErr("m", "m must be greater or equal to 0, got %d", m)
	}
	dt, err := b.factoryDType(ops.DefaultFloat)
	if err != nil {
		return nil, err
	}
	return newPlan("eye", ops.Attrs{"dtype": dt}, scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: n}), scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: m})), nil
}
