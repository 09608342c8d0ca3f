package lower

import (
	"fmt"
	"math"
	"strings"

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
	declareOps([]string{"constant_pad_nd", "pad"}, "Functional.pad")
	def(poolFold("im2col"), "input, kernel_size, dilation=1, padding=0, stride=1", "Functional.unfold")
	def(poolFold("col2im"), "input, output_size, kernel_size, dilation=1, padding=0, stride=1", "Functional.fold")
	def(poolInterpolate(""), "input, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None, antialias=False",
		"Functional.interpolate")
	def(poolInterpolate(""), "input, size=None, scale_factor=None, mode='nearest', align_corners=None", "Functional.upsample")
	def(poolInterpolate("nearest"), "input, size=None, scale_factor=None", "Functional.upsample_nearest")
	def(poolInterpolate("bilinear"), "input, size=None, scale_factor=None", "Functional.upsample_bilinear")
	// a made-up call has no size: say which ops they lower to
	declareOps([]string{"upsample", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d"}, "Functional.interpolate", "Functional.upsample")
	declareOps([]string{"upsample"}, "Functional.upsample_nearest", "Functional.upsample_bilinear")
	for n := 1; n <= 3; n++ {
		def(poolUnpool(n), "input, indices, kernel_size, stride=None, padding=0, output_size=None", fmt.Sprintf("Functional.max_unpool%dd", n))
	}
	def(poolLp(1), "input, norm_type, kernel_size, stride=None, ceil_mode=False", "Functional.lp_pool1d")
	def(poolLp(2), "input, norm_type, kernel_size, stride=None, ceil_mode=False", "Functional.lp_pool2d")
	usedOps = append(usedOps, "lp_pool", "max_unpool", "avg_pool2d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d", "pad",
		"im2col", "col2im", "upsample", "adaptive_avg_pool1d", "adaptive_avg_pool2d")
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

// poolNumbers reads size or scale_factor of F.interpolate: None (nil,
// false), a number repeated dim times, or a list of dim numbers (checked
// by the caller); list is whether it was a list.
func (b *bound) poolNumbers(name string, dim int) (v []float64, set, list bool, err error) {
	a := b.arg(name)
	switch a.Kind {
	case framework.ArgNone:
		return nil, false, false, nil
	case framework.ArgInt, framework.ArgFloat:
		f, err := b.float(name)
		if err != nil {
			return nil, false, false, err
		}
		v = make([]float64, max(dim, 0))
		for i := range v {
			v[i] = f
		}
		return v, true, false, nil
	case framework.ArgSize:
		for _, x := range a.Ints {
			v = append(v, float64(x))
		}
		return v, true, true, nil
	case framework.ArgList:
		for _, e := range a.Elems {
			switch e.Kind {
			case framework.ArgInt:
				v = append(v, float64(e.Int))
			case framework.ArgFloat:
				v = append(v, e.Float)
			default:
				return nil, false, false, b.argErr(name, "expected numbers, got a list containing %s", kindName(e))
			}
		}
		return v, true, true, nil
	}
	return nil, false, false, b.argErr(name, "expected a number or a list of numbers, got %s", kindName(a))
}

// pyList prints numbers as Python prints a list of them.
func pyList(v []float64, ints bool) string {
	s := make([]string, len(v))
	for i, x := range v {
		if ints {
			s[i] = fmt.Sprint(int64(x))
		} else {
			s[i] = fmt.Sprint(x)
			if x == math.Trunc(x) && !strings.ContainsAny(s[i], "e.") {
				s[i] += ".0"
			}
		}
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// poolInterpolate lowers F.interpolate, F.upsample (fixedMode ""),
// F.upsample_nearest ("nearest") and F.upsample_bilinear ("bilinear",
// align_corners=True) as torch 1.13's Python does: mode area is
// adaptive_avg_pool1d/2d/3d of the output size, the others op upsample
// with the output size and the scale factors the kernel receives.
func poolInterpolate(fixedMode string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		mode := fixedMode
		if mode == "" {
			if mode, err = b.str("mode"); err != nil {
				return nil, err
			}
		}
		align, alignSet := false, false
		switch {
		case fixedMode == "bilinear":
			align, alignSet = true, true
		case fixedMode == "":
			if align, alignSet, err = b.optBool("align_corners"); err != nil {
				return nil, err
			}
		}
		interp := mode != "nearest" && mode != "area" && mode != "nearest-exact"
		if !interp && alignSet {
			return nil, b.argErr("align_corners", "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
		}
		rank := len(x.Shape)
		dim := rank - 2
		in := make([]float64, 0, 3)
		for i := 2; i < rank; i++ {
			in = append(in, float64(x.Shape[i]))
		}
		size, sizeSet, sizeList, err := b.poolNumbers("size", dim)
		if err != nil {
			return nil, err
		}
		sf, sfSet, sfList, err := b.poolNumbers("scale_factor", dim)
		if err != nil {
			return nil, err
		}
		var out, scales []float64
		switch {
		case sizeSet && sfSet:
			return nil, b.argErr("size", "only one of size or scale_factor should be defined")
		case sizeSet:
			if sizeList && len(size) != dim {
				return nil, b.argErr("size", "Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of %s "+
					"and output size of %s. Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.",
					pyList(in, true), pyList(size, true))
			}
			out = size
		case sfSet:
			if sfList && len(sf) != dim {
				return nil, b.argErr("scale_factor", "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of %s "+
					"and scale_factor of shape %s. Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.",
					pyList(in, true), pyList(sf, false))
			}
			scales = sf
		default:
			return nil, b.argErr("size", "either size or scale_factor should be defined")
		}
		recompute := false
		if _, ok := b.vals["recompute_scale_factor"]; ok {
			if recompute, _, err = b.optBool("recompute_scale_factor"); err != nil {
				return nil, err
			}
			if recompute && sizeSet {
				return nil, b.argErr("recompute_scale_factor", "recompute_scale_factor is not meaningful with an explicit size.")
			}
		}
		if mode == "area" && out == nil {
			recompute = true
		}
		if recompute {
			out = make([]float64, dim)
			for i := range out {
				out[i] = math.Floor(in[i] * scales[i])
			}
			scales = nil
		}
		antialias := false
		if _, ok := b.vals["antialias"]; ok {
			if antialias, err = b.boolean("antialias"); err != nil {
				return nil, err
			}
		}
		if antialias && !((mode == "bilinear" || mode == "bicubic") && rank == 4) {
			return nil, b.argErr("antialias", "Anti-alias option is only supported for bilinear and bicubic modes")
		}
		if out == nil {
			// the kernel's output size: input size × scale, truncated
			out = make([]float64, dim)
			for i := range out {
				out[i] = math.Trunc(in[i] * scales[i])
			}
		}
		outInts := make([]int64, len(out))
		for i, v := range out {
			outInts[i] = int64(v)
		}
		op := ""
		switch {
		case dim >= 1 && dim <= 3 && (mode == "nearest" || mode == "nearest-exact"):
			op = mode
		case dim >= 1 && dim <= 3 && mode == "area":
			name := []string{"adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d"}[dim-1]
			return newPlan(name, ops.Attrs{"output_size": ops.IntsAttr(outInts...)}, tensorBinding(x)), nil
		case rank == 3 && mode == "linear", rank == 4 && mode == "bilinear", rank == 5 && mode == "trilinear":
			op = "linear"
		case rank == 4 && mode == "bicubic":
			op = "bicubic"
		}
		if antialias && op != "" {
			return nil, b.errf("antialias=True (torch._C._nn._upsample_%s2d_aa) is not supported", mode)
		}
		if op == "" {
			need := map[string]int{"linear": 3, "bilinear": 4, "trilinear": 5}
			if n, ok := need[mode]; ok && rank >= 3 && rank <= 5 {
				return nil, b.argErr("mode", "Got %dD input, but %s mode needs %dD input", rank, mode, n)
			}
			return nil, b.argErr("mode", "Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: "+
				"nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)", rank, mode)
		}
		attrs := ops.Attrs{"mode": ops.StringAttr(op), "output_size": ops.IntsAttr(outInts...), "scales": ops.FloatsAttr(scales...),
			"align_corners": ops.BoolAttr(align)}
		return newPlan("upsample", attrs, tensorBinding(x)), nil
	}
}

// poolUnpool lowers F.max_unpool1d/2d/3d: the output size as
// F._unpool_output_size computes (and checks) it.
func poolUnpool(n int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		ind, err := b.tensor("indices")
		if err != nil {
			return nil, err
		}
		kernel, err := b.intList("kernel_size", n, true)
		if err != nil {
			return nil, err
		}
		stride := kernel
		if !b.isNone("stride") {
			if stride, err = b.intList("stride", n, true); err != nil {
				return nil, err
			}
		}
		padding, err := b.intList("padding", n, true)
		if err != nil {
			return nil, err
		}
		if len(x.Shape) < n {
			return nil, b.argErr("input", "the input has %d dimensions, max_unpool%dd needs at least %d", len(x.Shape), n, n)
		}
		def := make([]int64, n)
		for d := 0; d < n; d++ {
			def[d] = (int64(x.Shape[len(x.Shape)-n+d])-1)*stride[d] + kernel[d] - 2*padding[d]
		}
		out := def
		if !b.isNone("output_size") {
			os, err := b.intList("output_size", 0, false)
			if err != nil {
				return nil, err
			}
			if len(os) == n+2 {
				os = os[2:]
			}
			if len(os) != n {
				return nil, b.argErr("output_size", "output_size should be a sequence containing %d or %d elements, but it has a length of '%d'", n, n+2, len(os))
			}
			for d := 0; d < n; d++ {
				lo, hi := def[d]-stride[d], def[d]+stride[d]
				if !(lo < os[d] && os[d] < hi) {
					return nil, b.argErr("output_size", "invalid output_size (dim %d must be between %d and %d)", d, lo, hi)
				}
			}
			out = os
		}
		attrs := ops.Attrs{"output_size": ops.IntsAttr(out...)}
		if n == 3 {
			attrs["stride"], attrs["padding"] = ops.IntsAttr(stride...), ops.IntsAttr(padding...)
		}
		return newPlan("max_unpool", attrs, tensorBinding(x), tensorBinding(ind)), nil
	}
}

// poolLp lowers F.lp_pool1d (n 1) and F.lp_pool2d (n 2, sizes paired).
func poolLp(n int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		p, err := b.float("norm_type")
		if err != nil {
			return nil, err
		}
		kernel, err := b.intList("kernel_size", n, true)
		if err != nil {
			return nil, err
		}
		stride := kernel
		if !b.isNone("stride") {
			if stride, err = b.intList("stride", n, true); err != nil {
				return nil, err
			}
		}
		ceil, err := b.boolean("ceil_mode")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"norm_type": ops.FloatAttr(p), "kernel_size": ops.IntsAttr(kernel...), "stride": ops.IntsAttr(stride...), "ceil_mode": ops.BoolAttr(ceil)}
		return newPlan("lp_pool", attrs, tensorBinding(x)), nil
	}
}
