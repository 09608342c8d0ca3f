package lower

import (
	"math"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Elementwise math: the unary functions (log1p ... angle, with the arc*
// aliases, fix, sgn) and, in mathBinary, the binary ones.

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
