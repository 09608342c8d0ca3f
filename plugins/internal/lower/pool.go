package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// The pool family (sdk/ops/schema_pool.go): torch.nn.functional's 2-d and
// 3-d average pooling, 3-d adaptive average pooling and 2-d/3-d adaptive
// max pooling. The lowerings pass the sizes as given (one or n ints); the
// kernels make PyTorch's checks with its messages.

func init() {
	avgSig := "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None"
	def(poolAvg("avg_pool2d"), avgSig, "Functional.avg_pool2d")
	def(poolAvg("avg_pool3d"), avgSig, "Functional.avg_pool3d")
	def(poolAdaptive("adaptive_avg_pool3d", false), "input, output_size", "Functional.adaptive_avg_pool3d")
	amSig := "input, output_size, return_indices=False"
	def(poolAdaptive("adaptive_max_pool2d", false), amSig, "Functional.adaptive_max_pool2d")
	defMulti(poolAdaptive("adaptive_max_pool2d", true), amSig, "Functional.adaptive_max_pool2d_with_indices")
	def(poolAdaptive("adaptive_max_pool3d", false), amSig, "Functional.adaptive_max_pool3d")
	defMulti(poolAdaptive("adaptive_max_pool3d", true), amSig, "Functional.adaptive_max_pool3d_with_indices")
	def(poolPad, "input, pad, mode='constant', value=None", "Functional.pad")
	def(poolFold("im2col"), "input, kernel_size, dilation=1, padding=0, stride=1", "Functional.unfold")
	def(poolFold("col2im"), "input, output_size, kernel_size, dilation=1, padding=0, stride=1", "Functional.fold")
	usedOps = append(usedOps, "avg_pool2d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d", "pad",
		"im2col", "col2im")
	cannot("is random by nature (the pooling regions are drawn inside the call unless _random_samples is given): its values cannot be compared with a reference",
		"Functional.fractional_max_pool2d", "Functional.fractional_max_pool2d_with_indices",
		"Functional.fractional_max_pool3d", "Functional.fractional_max_pool3d_with_indices")
}

// poolAvg lowers F.avg_pool2d/avg_pool3d: stride None (or []) is
// kernel_size.
func poolAvg(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		kernel, err := b.intList("kernel_size", 0, true)
		if err != nil {
			return nil, err
		}
		stride := kernel
		if !b.isNone("stride") {
			if stride, err = b.intList("stride", 0, true); err != nil {
				return nil, err
			}
			if len(stride) == 0 {
				stride = kernel
			}
		}
		padding, err := b.intList("padding", 0, true)
		if err != nil {
			return nil, err
		}
		ceil, err := b.boolean("ceil_mode")
		if err != nil {
			return nil, err
		}
		countPad, err := b.boolean("count_include_pad")
		if err != nil {
			return nil, err
		}
		div, set, err := b.optInteger("divisor_override")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"kernel_size": ops.IntsAttr(kernel...), "stride": ops.IntsAttr(stride...), "padding": ops.IntsAttr(padding...),
			"ceil_mode": ops.BoolAttr(ceil), "count_include_pad": ops.BoolAttr(countPad), "divisor_override": ops.NoneAttr()}
		if set {
			attrs["divisor_override"] = ops.IntAttr(div)
		}
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}

// poolOutputSize reads an adaptive pool's output_size as
// F._list_with_default does: an int stays one size (the kernel repeats
// it), None entries take the input's size.
func (b *bound) poolOutputSize(x framework.Arg) ([]int64, error) {
	a := b.arg("output_size")
	switch a.Kind {
	case framework.ArgInt:
		return []int64{a.Int}, nil
	case framework.ArgSize:
		return append([]int64{}, a.Ints...), nil
	case framework.ArgList:
	default:
		return nil, b.argErr("output_size", "expected int or a list of ints/None, got %s", kindName(a))
	}
	n := len(a.Elems)
	if len(x.Shape) <= n {
		return nil, b.argErr("output_size", "Input dimension should be at least %d", n+1)
	}
	size := make([]int64, n)
	for i, e := range a.Elems {
		switch e.Kind {
		case framework.ArgInt:
			size[i] = e.Int
		case framework.ArgNone:
			size[i] = int64(x.Shape[len(x.Shape)-n+i])
		default:
			return nil, b.argErr("output_size", "expected int or None elements, got %s", kindName(e))
		}
	}
	return size, nil
}

// poolAdaptive lowers F.adaptive_avg_pool3d and F.adaptive_max_pool2d/3d
// (indices when return_indices, always for the _with_indices forms).
func poolAdaptive(op string, withIndices bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		size, err := b.poolOutputSize(x)
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"output_size": ops.IntsAttr(size...)}
		if op == "adaptive_avg_pool3d" {
			return newPlan(op, attrs, tensorBinding(x)), nil
		}
		indices := withIndices
		if !withIndices {
			if indices, err = b.boolean("return_indices"); err != nil {
				return nil, err
			}
		}
		b.multi = indices
		attrs["return_indices"] = ops.BoolAttr(indices)
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}

// poolPad lowers F.pad (ATen's pad): mode constant is constant_pad_nd,
// the others op pad; the checks of ATen's _pad_enum come first.
func poolPad(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	pad, err := b.intList("pad", 0, false)
	if err != nil {
		return nil, err
	}
	mode, err := b.str("mode")
	if err != nil {
		return nil, err
	}
	value, hasValue := 0.0, !b.isNone("value")
	if hasValue {
		if value, err = b.float("value"); err != nil {
			return nil, err
		}
	}
	switch mode {
	case "constant", "reflect", "replicate", "circular":
	default:
		return nil, b.argErr("mode", "Unrecognised padding mode %s", mode)
	}
	if len(pad)%2 != 0 {
		return nil, b.argErr("pad", "Padding length must be divisible by 2")
	}
	if len(pad) > 2*len(x.Shape) {
		return nil, b.argErr("pad", "Padding length too large")
	}
	if mode == "constant" {
		return newPlan("constant_pad_nd", ops.Attrs{"pad": ops.IntsAttr(pad...), "value": ops.FloatAttr(value)}, tensorBinding(x)), nil
	}
	if hasValue && value != 0 {
		return nil, b.argErr("value", "Padding mode \"%s\" doesn't take in value argument", mode)
	}
	return newPlan("pad", ops.Attrs{"pad": ops.IntsAttr(pad...), "mode": ops.StringAttr(mode)}, tensorBinding(x)), nil
}

// poolFold lowers F.unfold (im2col) and F.fold (col2im): each size is
// _pair'd (an int becomes two), lists pass as given (the kernel checks
// that they hold two).
func poolFold(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		names := []string{"kernel_size", "dilation", "padding", "stride"}
		if op == "col2im" {
			names = append([]string{"output_size"}, names...)
		}
		attrs := ops.Attrs{}
		for _, n := range names {
			v, err := b.intList(n, 0, true)
			if err != nil {
				return nil, err
			}
			if len(v) == 1 && b.arg(n).Kind == framework.ArgInt {
				v = []int64{v[0], v[0]}
			}
			attrs[n] = ops.IntsAttr(v...)
		}
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}
