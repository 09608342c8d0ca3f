package lower

import (
	"math"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Elementwise math: the unary functions (log1p ... angle, with the arc*
// aliases, fix, sgn, polygamma, mvlgamma) and, in mathBinary, the binary
// ones (atan2 ... lcm, with %, arctan2).

func init() {
	for _, u := range []struct {
		op    string
		names []string // API names; each is a Tensor method and a torch function unless listed below
	}{
		{"log1p", []string{"log1p", "log1p_"}},
		{"expm1", []string{"expm1", "expm1_"}},
		{"log2", []string{"log2", "log2_"}},
		{"log10", []string{"log10", "log10_"}},
		{"exp2", []string{"exp2", "exp2_"}},
		{"sinh", []string{"sinh", "sinh_"}},
		{"cosh", []string{"cosh", "cosh_"}},
		{"tan", []string{"tan", "tan_"}},
		{"asin", []string{"asin", "asin_", "arcsin", "arcsin_"}},
		{"acos", []string{"acos", "acos_", "arccos", "arccos_"}},
		{"atan", []string{"atan", "atan_", "arctan", "arctan_"}},
		{"asinh", []string{"asinh", "asinh_", "arcsinh", "arcsinh_"}},
		{"acosh", []string{"acosh", "acosh_", "arccosh", "arccosh_"}},
		{"atanh", []string{"atanh", "atanh_", "arctanh", "arctanh_"}},
		{"erf", []string{"erf", "erf_"}},
		{"erfc", []string{"erfc", "erfc_"}},
		{"erfinv", []string{"erfinv", "erfinv_"}},
		{"sinc", []string{"sinc", "sinc_"}},
		{"deg2rad", []string{"deg2rad", "deg2rad_"}},
		{"rad2deg", []string{"rad2deg", "rad2deg_"}},
		{"lgamma", []string{"lgamma", "lgamma_"}},
		{"digamma", []string{"digamma", "digamma_"}},
		{"i0", []string{"i0", "i0_"}},
		// sgn is sign for real tensors.
		{"sign", []string{"sign", "sign_", "sgn", "sgn_"}},
		{"floor", []string{"floor", "floor_"}},
		{"ceil", []string{"ceil", "ceil_"}},
		{"trunc", []string{"trunc", "trunc_", "fix", "fix_"}},
		{"frac", []string{"frac", "frac_"}},
		{"angle", []string{"angle"}},
	} {
		var entries []string
		for _, n := range u.names {
			entries = append(entries, "Tensor."+n)
			if !tensorOnly[n] {
				entries = append(entries, "Torch."+n)
			}
		}
		def(unary(u.op), "input, *, out=None", entries...)
		usedOps = append(usedOps, u.op)
	}
	def(logitEps, "input, eps=None, *, out=None", "Torch.logit", "Torch.logit_", "Tensor.logit", "Tensor.logit_")
	def(roundDecimals, "input, *, decimals=0, out=None", "Torch.round", "Torch.round_", "Tensor.round", "Tensor.round_")
	def(nanToNum, "input, nan=0.0, posinf=None, neginf=None, *, out=None",
		"Torch.nan_to_num", "Torch.nan_to_num_", "Tensor.nan_to_num", "Tensor.nan_to_num_")
	usedOps = append(usedOps, "logit", "round", "nan_to_num")
	def(polygamma, "n, input, *, out=None", "Torch.polygamma")
	def(polygamma, "input, n", "Tensor.polygamma", "Tensor.polygamma_")
	def(mvlgamma, "input, p, *, out=None", "Torch.mvlgamma", "Tensor.mvlgamma", "Tensor.mvlgamma_")
	usedOps = append(usedOps, "polygamma", "mvlgamma")
	mathBinary()
}

// mathBinary registers the binary math functions.
func mathBinary() {
	const sig = "input, other, *, out=None"
	// Two tensors.
	for _, u := range []struct {
		op    string
		names []string
	}{
		{"atan2", []string{"Torch.atan2", "Torch.arctan2", "Tensor.atan2", "Tensor.atan2_", "Tensor.arctan2", "Tensor.arctan2_"}},
		{"hypot", []string{"Torch.hypot", "Tensor.hypot", "Tensor.hypot_"}},
		{"logaddexp", []string{"Torch.logaddexp", "Tensor.logaddexp"}},
		{"logaddexp2", []string{"Torch.logaddexp2", "Tensor.logaddexp2"}},
		{"fmax", []string{"Torch.fmax", "Tensor.fmax"}},
		{"fmin", []string{"Torch.fmin", "Tensor.fmin"}},
		{"ldexp", []string{"Torch.ldexp", "Torch.ldexp_", "Tensor.ldexp", "Tensor.ldexp_"}},
		{"nextafter", []string{"Torch.nextafter", "Tensor.nextafter", "Tensor.nextafter_"}},
		{"gcd", []string{"Torch.gcd", "Torch.gcd_", "Tensor.gcd", "Tensor.gcd_"}},
		{"lcm", []string{"Torch.lcm", "Torch.lcm_", "Tensor.lcm", "Tensor.lcm_"}},
	} {
		def(tensorPair(u.op, "input", "other", false), sig, u.names...)
		usedOps = append(usedOps, u.op)
	}
	def(tensorPair("heaviside", "input", "values", false), "input, values, *, out=None",
		"Torch.heaviside", "Tensor.heaviside", "Tensor.heaviside_")
	// A tensor and a tensor or number.
	def(binary("fmod", false), sig, "Torch.fmod", "Tensor.fmod", "Tensor.fmod_")
	def(binary("copysign", false), sig, "Torch.copysign", "Tensor.copysign", "Tensor.copysign_")
	def(binary("remainder", false), "input, other", "Tensor.__mod__")
	def(inplaceAlways(binary("remainder", false)), "input, other", "Tensor.__imod__")
	def(binary("remainder", true), "input, other", "Tensor.__rmod__")
	// torch.remainder and torch.xlogy also take a number first.
	def(numberFirst("remainder", "other"), sig, "Torch.remainder", "Tensor.remainder", "Tensor.remainder_")
	def(numberFirst("xlogy", "other"), sig, "Torch.xlogy", "Torch.xlogy_", "Tensor.xlogy", "Tensor.xlogy_")
	def(numberFirst("float_power", "exponent"), "input, exponent, *, out=None",
		"Torch.float_power", "Tensor.float_power", "Tensor.float_power_")
	usedOps = append(usedOps, "heaviside", "fmod", "copysign", "remainder", "xlogy", "float_power")
}

// numberFirst lowers a binary op whose torch function takes a number in
// either position (at least one tensor); the Tensor method's self is a
// tensor.
func numberFirst(op, second string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, xi, err := b.operand("input")
		if err != nil {
			return nil, err
		}
		y, yi, err := b.operand(second)
		if err != nil {
			return nil, err
		}
		if !xi.isTensor && (b.ns != Torch || !yi.isTensor || isInplace(b.name)) {
			_, err := b.tensor("input")
			return nil, err
		}
		return newPlan(op, b.inplaceAttr(ops.Attrs{}), x, y), nil
	}
}

// inplaceAlways marks the plan in place (__imod__, which isInplace does not
// list).
func inplaceAlways(fn lowerFunc) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		p, err := fn(b)
		if err != nil {
			return nil, err
		}
		p.Attrs["inplace"] = ops.BoolAttr(true)
		return p, nil
	}
}

// polygamma lowers torch.polygamma(n, input) and Tensor.polygamma(n).
func polygamma(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	n, err := b.integer("n")
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, b.argErr("n", "polygamma(n, x) does not support negative n.")
	}
	return newPlan("polygamma", b.inplaceAttr(ops.Attrs{"n": ops.IntAttr(n)}), tensorBinding(x)), nil
}

func mvlgamma(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	p, err := b.integer("p")
	if err != nil {
		return nil, err
	}
	if p < 1 {
		return nil, b.argErr("p", "p has to be greater than or equal to 1")
	}
	return newPlan("mvlgamma", b.inplaceAttr(ops.Attrs{"p": ops.IntAttr(p)}), tensorBinding(x)), nil
}

// tensorOnly are in-place names of the math family that torch has no
// function of (msprobe's torch list lacks them too).
var tensorOnly = map[string]bool{
	"erfinv_": true, "lgamma_": true, "digamma_": true, "sign_": true, "sgn_": true,
}

func logitEps(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	eps := ops.NoneAttr()
	if !b.isNone("eps") {
		v, err := b.float("eps")
		if err != nil {
			return nil, err
		}
		eps = ops.FloatAttr(v)
	}
	return newPlan("logit", b.inplaceAttr(ops.Attrs{"eps": eps}), tensorBinding(x)), nil
}

func roundDecimals(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	d, err := b.integer("decimals")
	if err != nil {
		return nil, err
	}
	return newPlan("round", b.inplaceAttr(ops.Attrs{"decimals": ops.IntAttr(d)}), tensorBinding(x)), nil
}

// nanToNum lowers nan_to_num. posinf and neginf default to the extremes of
// the dumped tensor's dtype, which the plan then carries: the float64
// bench replaces infinities with the values the device uses (65504 for
// float16), not with float64's.
func nanToNum(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	nan, err := b.float("nan")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"nan": ops.FloatAttr(nan)}
	for _, name := range []string{"posinf", "neginf"} {
		if b.isNone(name) {
			attrs[name] = ops.NoneAttr()
			if m, ok := floatMax(x.DType); ok {
				if name == "neginf" {
					m = -m
				}
				attrs[name] = ops.FloatAttr(m)
			}
			continue
		}
		v, err := b.float(name)
		if err != nil {
			return nil, err
		}
		attrs[name] = ops.FloatAttr(v)
	}
	return newPlan("nan_to_num", b.inplaceAttr(attrs), tensorBinding(x)), nil
}

// floatMax is the largest finite value of a floating dtype.
func floatMax(d tensor.DType) (float64, bool) {
	switch d {
	case tensor.Float64:
		return math.MaxFloat64, true
	case tensor.Float32:
		return math.MaxFloat32, true
	case tensor.Float16:
		return 65504, true
	case tensor.BFloat16:
		return 0x1.fep127, true
	}
	return 0, false
}
