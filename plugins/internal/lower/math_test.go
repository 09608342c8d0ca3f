package lower

import (
	"math"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// mathUnaryNames maps every unary math API name of msprobe's tensor and
// torch lists to its canonical op; torchToo is false for names torch has
// no function of.
var mathUnaryNames = []struct {
	name, op string
	torchToo bool
}{
	{"log1p", "log1p", true}, {"log1p_", "log1p", true}, {"expm1", "expm1", true}, {"expm1_", "expm1", true},
	{"log2", "log2", true}, {"log2_", "log2", true}, {"log10", "log10", true}, {"log10_", "log10", true},
	{"exp2", "exp2", true}, {"exp2_", "exp2", true}, {"sinh", "sinh", true}, {"sinh_", "sinh", true},
	{"cosh", "cosh", true}, {"cosh_", "cosh", true}, {"tan", "tan", true}, {"tan_", "tan", true},
	{"asin", "asin", true}, {"asin_", "asin", true}, {"arcsin", "asin", true}, {"arcsin_", "asin", true},
	{"acos", "acos", true}, {"acos_", "acos", true}, {"arccos", "acos", true}, {"arccos_", "acos", true},
	{"atan", "atan", true}, {"atan_", "atan", true}, {"arctan", "atan", true}, {"arctan_", "atan", true},
	{"asinh", "asinh", true}, {"asinh_", "asinh", true}, {"arcsinh", "asinh", true}, {"arcsinh_", "asinh", true},
	{"acosh", "acosh", true}, {"acosh_", "acosh", true}, {"arccosh", "acosh", true}, {"arccosh_", "acosh", true},
	{"atanh", "atanh", true}, {"atanh_", "atanh", true}, {"arctanh", "atanh", true}, {"arctanh_", "atanh", true},
	{"erf", "erf", true}, {"erf_", "erf", true}, {"erfc", "erfc", true}, {"erfc_", "erfc", true},
	{"erfinv", "erfinv", true}, {"erfinv_", "erfinv", false}, {"sinc", "sinc", true}, {"sinc_", "sinc", true},
	{"deg2rad", "deg2rad", true}, {"deg2rad_", "deg2rad", true}, {"rad2deg", "rad2deg", true}, {"rad2deg_", "rad2deg", true},
	{"lgamma", "lgamma", true}, {"lgamma_", "lgamma", false}, {"digamma", "digamma", true}, {"digamma_", "digamma", false},
	{"i0", "i0", true}, {"i0_", "i0", true}, {"sign", "sign", true}, {"sign_", "sign", false},
	{"sgn", "sign", true}, {"sgn_", "sign", false}, {"floor", "floor", true}, {"floor_", "floor", true},
	{"ceil", "ceil", true}, {"ceil_", "ceil", true}, {"trunc", "trunc", true}, {"trunc_", "trunc", true},
	{"fix", "trunc", true}, {"fix_", "trunc", true}, {"frac", "frac", true}, {"frac_", "frac", true},
	{"angle", "angle", true}, {"logit", "logit", true}, {"logit_", "logit", true},
	{"round", "round", true}, {"round_", "round", true}, {"nan_to_num", "nan_to_num", true}, {"nan_to_num_", "nan_to_num", true},
}

// TestMathUnarySpellings: every spelling, as a Tensor method and (where
// torch has it) a torch function, lowers onto its op with the in-place
// attribute its name says; torch's out= is accepted and ignored, a Tensor
// method has none.
func TestMathUnarySpellings(t *testing.T) {
	for _, n := range mathUnaryNames {
		if !n.torchToo && Supported(Torch, n.name) {
			t.Errorf("Torch.%s has a lowering, torch has no such function", n.name)
		}
	}
	runCases(t, mathUnarySpellingCases(), nil)
}

// mathCases are every case of this file (TestOpsListed runs them too).
func mathCases() []lcase {
	return append(append(mathUnarySpellingCases(), mathUnaryAttrCases()...), mathBinaryCases()...)
}

func TestMathBinary(t *testing.T) { runCases(t, mathBinaryCases(), nil) }

func mathBinaryCases() []lcase {
	x, y := f32("args.0", 2, 3), f32("args.1", 3)
	xi, yi := i64("args.0", 4), i64("args.1", 4)
	out := kw("out", f32("kwargs.out", 2, 3))
	var cases []lcase
	// Ops of two tensors: every spelling, out= on torch's, numbers refused.
	for _, u := range []struct {
		op, second string
		names      []string
	}{
		{"atan2", "other", []string{"Torch.atan2", "Torch.arctan2", "Tensor.atan2", "Tensor.atan2_", "Tensor.arctan2", "Tensor.arctan2_"}},
		{"hypot", "other", []string{"Torch.hypot", "Tensor.hypot", "Tensor.hypot_"}},
		{"logaddexp", "other", []string{"Torch.logaddexp", "Tensor.logaddexp"}},
		{"logaddexp2", "other", []string{"Torch.logaddexp2", "Tensor.logaddexp2"}},
		{"fmax", "other", []string{"Torch.fmax", "Tensor.fmax"}},
		{"fmin", "other", []string{"Torch.fmin", "Tensor.fmin"}},
		{"ldexp", "other", []string{"Torch.ldexp", "Torch.ldexp_", "Tensor.ldexp", "Tensor.ldexp_"}},
		{"nextafter", "other", []string{"Torch.nextafter", "Tensor.nextafter", "Tensor.nextafter_"}},
		{"gcd", "other", []string{"Torch.gcd", "Torch.gcd_", "Tensor.gcd", "Tensor.gcd_"}},
		{"lcm", "other", []string{"Torch.lcm", "Torch.lcm_", "Tensor.lcm", "Tensor.lcm_"}},
		{"heaviside", "values", []string{"Torch.heaviside", "Tensor.heaviside", "Tensor.heaviside_"}},
	} {
		for _, n := range u.names {
			_, name, _ := strings.Cut(n, ".")
			s, _ := ops.Lookup(u.op)
			attrs := ops.Attrs{}
			if hasAttr(s, "inplace") {
				attrs["inplace"] = ba(strings.HasSuffix(name, "_"))
			}
			cases = append(cases,
				lcase{name: n, args: []framework.Arg{x, y}, op: u.op, attrs: attrs, in: []string{"args.0", "args.1"}},
				lcase{name: n, args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw(u.second, y)}, op: u.op, in: []string{"args.0", "args.1"}},
				lcase{name: n, args: []framework.Arg{x, fv(2)}, err: `argument "` + u.second + `": expected tensor, got float`},
				lcase{name: n, args: []framework.Arg{iv(2), y}, err: `argument "input": expected tensor, got int`},
			)
			if strings.HasPrefix(n, "Torch.") {
				cases = append(cases, lcase{name: n, args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{out}, op: u.op})
			} else {
				cases = append(cases, lcase{name: n, args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{out}, err: `unexpected keyword argument "out"`})
			}
		}
	}
	return append(cases,
		// A tensor and a number or tensor.
		lcase{name: "Torch.fmod", args: []framework.Arg{x, fv(1.5)}, op: "fmod", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "float:1.5"}},
		lcase{name: "Tensor.fmod_", args: []framework.Arg{xi, iv(3)}, op: "fmod", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "int:3"}},
		lcase{name: "Tensor.fmod", args: []framework.Arg{x, y}, op: "fmod", in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.fmod", args: []framework.Arg{iv(2), y}, err: `argument "input": expected tensor, got int`},
		lcase{name: "Torch.fmod", args: []framework.Arg{x, sv("a")}, err: `argument "other": expected tensor or number, got str`},
		lcase{name: "Torch.copysign", args: []framework.Arg{x, iv(-1)}, op: "copysign", in: []string{"args.0", "int:-1"}},
		lcase{name: "Tensor.copysign_", args: []framework.Arg{x, y}, op: "copysign", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Torch.copysign", args: []framework.Arg{fv(1), y}, err: `argument "input": expected tensor, got float`},
		// remainder and %: a number first only in torch.remainder and __rmod__.
		lcase{name: "Torch.remainder", args: []framework.Arg{x, y}, op: "remainder", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.remainder", args: []framework.Arg{iv(7), yi}, op: "remainder", in: []string{"int:7", "args.1"}},
		lcase{name: "Torch.remainder", args: []framework.Arg{x, fv(2.5)}, kwargs: []framework.NamedArg{out}, op: "remainder", in: []string{"args.0", "float:2.5"}},
		lcase{name: "Torch.remainder", args: []framework.Arg{iv(7), iv(2)}, err: `argument "input": expected tensor, got int`},
		lcase{name: "Tensor.remainder", args: []framework.Arg{xi, yi}, op: "remainder", in: []string{"args.0", "args.1"}},
		lcase{name: "Tensor.remainder_", args: []framework.Arg{xi, iv(2)}, op: "remainder", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.remainder", args: []framework.Arg{iv(7), yi}, err: `argument "input": expected tensor, got int`},
		lcase{name: "Tensor.__mod__", args: []framework.Arg{x, iv(3)}, op: "remainder", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "int:3"}},
		lcase{name: "Tensor.__rmod__", args: []framework.Arg{x, fv(3.5)}, op: "remainder", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"float:3.5", "args.0"}},
		lcase{name: "Tensor.__imod__", args: []framework.Arg{xi, yi}, op: "remainder", attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "args.1"}},
		lcase{name: "Tensor.__mod__", args: []framework.Arg{x, nv()}, err: `argument "other": expected tensor or number, got None`},
		// xlogy and float_power take a number first in torch's function.
		lcase{name: "Torch.xlogy", args: []framework.Arg{x, y}, op: "xlogy", attrs: ops.Attrs{"inplace": ba(false)}},
		lcase{name: "Torch.xlogy", args: []framework.Arg{fv(2), y}, op: "xlogy", in: []string{"float:2", "args.1"}},
		lcase{name: "Torch.xlogy", args: []framework.Arg{x, iv(3)}, op: "xlogy", in: []string{"args.0", "int:3"}},
		lcase{name: "Torch.xlogy_", args: []framework.Arg{x, y}, op: "xlogy", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Torch.xlogy_", args: []framework.Arg{fv(2), y}, err: `argument "input": expected tensor, got float`},
		lcase{name: "Tensor.xlogy_", args: []framework.Arg{x, fv(2)}, op: "xlogy", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Torch.float_power", args: []framework.Arg{x, fv(0.5)}, op: "float_power", in: []string{"args.0", "float:0.5"}},
		lcase{name: "Torch.float_power", args: []framework.Arg{iv(2), y}, op: "float_power", in: []string{"int:2", "args.1"}},
		lcase{name: "Torch.float_power", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("exponent", y)}, op: "float_power", in: []string{"args.0", "args.1"}},
		lcase{name: "Tensor.float_power_", args: []framework.Arg{x, iv(2)}, op: "float_power", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Torch.float_power", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("other", y)}, err: `unexpected keyword argument "other"`},
		// polygamma(n, input), Tensor.polygamma(n); mvlgamma(input, p).
		lcase{name: "Torch.polygamma", args: []framework.Arg{iv(2), x}, op: "polygamma", attrs: ops.Attrs{"n": ia(2), "inplace": ba(false)}, in: []string{"args.0"}},
		lcase{name: "Torch.polygamma", args: []framework.Arg{iv(0)}, kwargs: []framework.NamedArg{kw("input", x), out}, op: "polygamma", attrs: ops.Attrs{"n": ia(0)}},
		lcase{name: "Tensor.polygamma", args: []framework.Arg{x, iv(1)}, op: "polygamma", attrs: ops.Attrs{"n": ia(1)}, in: []string{"args.0"}},
		lcase{name: "Tensor.polygamma_", args: []framework.Arg{x, iv(3)}, op: "polygamma", attrs: ops.Attrs{"n": ia(3), "inplace": ba(true)}},
		lcase{name: "Torch.polygamma", args: []framework.Arg{iv(-1), x}, err: `argument "n": polygamma(n, x) does not support negative n.`},
		lcase{name: "Torch.polygamma", args: []framework.Arg{fv(1), x}, err: `argument "n": expected int, got float`},
		lcase{name: "Torch.polygamma", args: []framework.Arg{x, iv(1)}, err: `argument "input": expected tensor, got int`},
		lcase{name: "Torch.mvlgamma", args: []framework.Arg{x, iv(2)}, op: "mvlgamma", attrs: ops.Attrs{"p": ia(2), "inplace": ba(false)}},
		lcase{name: "Tensor.mvlgamma", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("p", iv(3))}, op: "mvlgamma", attrs: ops.Attrs{"p": ia(3)}},
		lcase{name: "Tensor.mvlgamma_", args: []framework.Arg{x, iv(1)}, op: "mvlgamma", attrs: ops.Attrs{"p": ia(1), "inplace": ba(true)}},
		lcase{name: "Torch.mvlgamma", args: []framework.Arg{x, iv(0)}, err: `argument "p": p has to be greater than or equal to 1`},
		lcase{name: "Torch.mvlgamma", args: []framework.Arg{x}, err: `missing required argument "p"`},
		lcase{name: "Torch.mvlgamma", args: []framework.Arg{x, fv(2)}, err: `argument "p": expected int, got float`},
	)
}

func mathUnarySpellingCases() []lcase {
	x := f32("args.0", 2, 3)
	var cases []lcase
	for _, n := range mathUnaryNames {
		attrs := ops.Attrs{"inplace": ba(strings.HasSuffix(n.name, "_"))}
		cases = append(cases,
			lcase{name: "Tensor." + n.name, args: []framework.Arg{x}, op: n.op, attrs: attrs, in: []string{"args.0"}},
			lcase{name: "Tensor." + n.name, args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("out", f32("kwargs.out", 2, 3))}, err: `unexpected keyword argument "out"`},
			lcase{name: "Tensor." + n.name, args: []framework.Arg{fv(0.5)}, err: `argument "input": expected tensor, got float`},
		)
		if n.torchToo {
			cases = append(cases,
				lcase{name: "Torch." + n.name, args: []framework.Arg{x}, op: n.op, attrs: attrs, in: []string{"args.0"}},
				lcase{name: "Torch." + n.name, args: []framework.Arg{}, kwargs: []framework.NamedArg{kw("input", x), kw("out", f32("kwargs.out", 2, 3))}, op: n.op, in: []string{"args.0"}},
				lcase{name: "Torch." + n.name, args: []framework.Arg{}, err: `missing required argument "input"`},
			)
		}
	}
	return cases
}

func TestMathUnaryAttrs(t *testing.T) { runCases(t, mathUnaryAttrCases(), nil) }

func mathUnaryAttrCases() []lcase {
	x := f32("args.0", 4)
	h := tn("args.0", tensor.Float16, 4)
	bf := tn("args.0", tensor.BFloat16, 4)
	d := tn("args.0", tensor.Float64, 4)
	xi := i64("args.0", 4)
	return []lcase{
		{name: "Torch.logit", args: []framework.Arg{x}, op: "logit", attrs: ops.Attrs{"eps": na(), "inplace": ba(false)}},
		{name: "Torch.logit", args: []framework.Arg{x, fv(1e-6)}, op: "logit", attrs: ops.Attrs{"eps": fa(1e-6)}},
		{name: "Tensor.logit_", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("eps", fv(0.25))}, op: "logit", attrs: ops.Attrs{"eps": fa(0.25), "inplace": ba(true)}},
		{name: "Tensor.logit", args: []framework.Arg{x, iv(0)}, op: "logit", attrs: ops.Attrs{"eps": fa(0)}},
		{name: "Tensor.logit", args: []framework.Arg{x, nv()}, op: "logit", attrs: ops.Attrs{"eps": na()}},
		{name: "Torch.logit", args: []framework.Arg{x, sv("a")}, err: `argument "eps": expected float, got str`},
		{name: "Torch.logit", args: []framework.Arg{x, fv(0.1), fv(0.2)}, err: "takes at most 2 positional arguments"},

		{name: "Torch.round", args: []framework.Arg{x}, op: "round", attrs: ops.Attrs{"decimals": ia(0), "inplace": ba(false)}},
		{name: "Torch.round", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("decimals", iv(2))}, op: "round", attrs: ops.Attrs{"decimals": ia(2)}},
		{name: "Tensor.round_", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("decimals", iv(-1))}, op: "round", attrs: ops.Attrs{"decimals": ia(-1), "inplace": ba(true)}},
		{name: "Torch.round", args: []framework.Arg{x, iv(2)}, err: "takes at most 1 positional arguments but 2 were given"},
		{name: "Tensor.round", args: []framework.Arg{x, iv(2)}, err: "takes at most 1 positional arguments but 2 were given"},
		{name: "Torch.round", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("decimals", fv(2))}, err: `argument "decimals": expected int, got float`},
		{name: "Torch.round", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("decimals", nv())}, err: `argument "decimals": expected int, got None`},

		// posinf/neginf default to the extremes of the dumped dtype.
		{name: "Torch.nan_to_num", args: []framework.Arg{x}, op: "nan_to_num",
			attrs: ops.Attrs{"nan": fa(0), "posinf": fa(math.MaxFloat32), "neginf": fa(-math.MaxFloat32), "inplace": ba(false)}},
		{name: "Torch.nan_to_num", args: []framework.Arg{h}, op: "nan_to_num", attrs: ops.Attrs{"posinf": fa(65504), "neginf": fa(-65504)}},
		{name: "Torch.nan_to_num", args: []framework.Arg{bf}, op: "nan_to_num", attrs: ops.Attrs{"posinf": fa(0x1.fep127), "neginf": fa(-0x1.fep127)}},
		{name: "Torch.nan_to_num", args: []framework.Arg{d}, op: "nan_to_num", attrs: ops.Attrs{"posinf": fa(math.MaxFloat64), "neginf": fa(-math.MaxFloat64)}},
		{name: "Torch.nan_to_num", args: []framework.Arg{xi}, op: "nan_to_num", attrs: ops.Attrs{"posinf": na(), "neginf": na()}},
		{name: "Torch.nan_to_num", args: []framework.Arg{x, fv(1.5), iv(7), fv(-2)}, op: "nan_to_num",
			attrs: ops.Attrs{"nan": fa(1.5), "posinf": fa(7), "neginf": fa(-2)}},
		{name: "Tensor.nan_to_num_", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("neginf", fv(-1)), kw("nan", iv(3))}, op: "nan_to_num",
			attrs: ops.Attrs{"nan": fa(3), "posinf": fa(math.MaxFloat32), "neginf": fa(-1), "inplace": ba(true)}},
		{name: "Torch.nan_to_num", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("nan", nv())}, err: `argument "nan": expected float, got None`},
		{name: "Torch.nan_to_num", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("posinf", sv("inf"))}, err: `argument "posinf": expected float, got str`},
		{name: "Torch.nan_to_num", args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("neginf", bv(true))}, err: `argument "neginf": expected float, got bool`},
		{name: "Torch.nan_to_num", args: []framework.Arg{iv(1)}, err: `argument "input": expected tensor, got int`},
	}
}
