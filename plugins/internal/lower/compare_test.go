package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestCompare(t *testing.T) { runCases(t, compareCases(), nil) }

func compareCases() []lcase {
	x, y := f32("args.0", 2, 3), f32("args.1", 3)
	xi := i64("args.0", 2)
	out := kw("out", tn("kwargs.out", tensor.Bool, 2, 3))
	var cs []lcase
	for op, names := range map[string][]string{
		"eq": {"eq"}, "ne": {"ne", "not_equal"}, "gt": {"gt", "greater"},
		"ge": {"ge", "greater_equal"}, "lt": {"lt", "less"}, "le": {"le", "less_equal"},
	} {
		for _, n := range names {
			cs = append(cs,
				lcase{name: "Torch." + n, args: []framework.Arg{x, y}, op: op, attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1"}},
				lcase{name: "Torch." + n, args: []framework.Arg{x}, kwargs: []framework.NamedArg{kw("other", fv(0.5)), out}, op: op, in: []string{"args.0", "float:0.5"}},
				lcase{name: "Tensor." + n, args: []framework.Arg{xi, iv(2)}, op: op, attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "int:2"}},
				lcase{name: "Tensor." + n + "_", args: []framework.Arg{x, bv(true)}, op: op, attrs: ops.Attrs{"inplace": ba(true)}, in: []string{"args.0", "bool:1"}},
				lcase{name: "Tensor." + n, args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{out}, err: `unexpected keyword argument "out"`},
			)
		}
		cs = append(cs,
			lcase{name: "Tensor.__" + op + "__", args: []framework.Arg{x, iv(0)}, op: op, attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "int:0"}},
			lcase{name: "Tensor.__" + op + "__", args: []framework.Arg{x, nv()}, err: `argument "other": expected tensor or number, got None`},
		)
	}
	for _, op := range []string{"logical_and", "logical_or", "logical_xor"} {
		cs = append(cs,
			lcase{name: "Torch." + op, args: []framework.Arg{x, y}, kwargs: []framework.NamedArg{out}, op: op, attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1"}},
			lcase{name: "Tensor." + op, args: []framework.Arg{xi}, kwargs: []framework.NamedArg{kw("other", y)}, op: op, in: []string{"args.0", "args.1"}},
			lcase{name: "Tensor." + op + "_", args: []framework.Arg{x, y}, op: op, attrs: ops.Attrs{"inplace": ba(true)}},
			lcase{name: "Torch." + op, args: []framework.Arg{x, iv(1)}, err: `argument "other": expected tensor, got int`},
			lcase{name: "Tensor." + op, args: []framework.Arg{x, bv(true)}, err: `argument "other": expected tensor, got bool`},
			lcase{name: "Torch." + op, args: []framework.Arg{fv(1), y}, err: `argument "input": expected tensor, got float`},
		)
	}
	cs = append(cs,
		lcase{name: "Torch.logical_not", args: []framework.Arg{x}, kwargs: []framework.NamedArg{out}, op: "logical_not", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0"}},
		lcase{name: "Tensor.logical_not", args: []framework.Arg{xi}, op: "logical_not", attrs: ops.Attrs{"inplace": ba(false)}},
		lcase{name: "Tensor.logical_not_", args: []framework.Arg{x}, op: "logical_not", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.logical_not", args: []framework.Arg{x, y}, err: "takes at most 1 positional arguments but 2 were given"},
		lcase{name: "Torch.logical_not", args: []framework.Arg{iv(0)}, err: `argument "input": expected tensor, got int`},
	)
	xb := tn("args.0", tensor.Bool, 2)
	xi8 := tn("args.0", tensor.Int8, 2)
	for _, b := range []struct {
		op, kernel string
		names      []string
	}{
		{"bitwise_and", "bitwise_and_cpu", []string{"Torch.bitwise_and", "Tensor.bitwise_and", "Tensor.__and__"}},
		{"bitwise_or", "bitwise_or_cpu", []string{"Torch.bitwise_or", "Tensor.bitwise_or", "Tensor.__or__", "Tensor.__ror__"}},
		{"bitwise_xor", "bitwise_xor_cpu", []string{"Torch.bitwise_xor", "Tensor.bitwise_xor", "Tensor.__xor__", "Tensor.__rxor__"}},
		{"bitwise_left_shift", "lshift_cpu", []string{"Tensor.bitwise_left_shift", "Tensor.__lshift__"}},
		{"bitwise_right_shift", "rshift_cpu", []string{"Tensor.bitwise_right_shift", "Tensor.__rshift__"}},
	} {
		for _, n := range b.names {
			cs = append(cs,
				lcase{name: n, args: []framework.Arg{xi, i64("args.1", 2)}, op: b.op, attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0", "args.1"}},
				lcase{name: n, args: []framework.Arg{xi8, iv(3)}, op: b.op, in: []string{"args.0", "int:3"}},
				lcase{name: n, args: []framework.Arg{x, iv(3)}, err: `argument "input": "` + b.kernel + `" not implemented for 'Float'`},
				lcase{name: n, args: []framework.Arg{xi, fv(1.5)}, err: `argument "other": "` + b.kernel + `" not implemented for 'Float'`},
				lcase{name: n, args: []framework.Arg{xi, tn("args.1", tensor.Float16)}, err: `argument "other": "` + b.kernel + `" not implemented for 'Half'`},
				lcase{name: n, args: []framework.Arg{xi, sv("a")}, err: `argument "other": expected tensor or number, got str`},
			)
		}
		shift := b.op == "bitwise_left_shift" || b.op == "bitwise_right_shift"
		if shift {
			cs = append(cs, lcase{name: b.names[0], args: []framework.Arg{xb, bv(true)}, err: `argument "input": "` + b.kernel + `" not implemented for 'Bool'`},
				lcase{name: b.names[0], args: []framework.Arg{xb, iv(1)}, op: b.op})
		} else {
			cs = append(cs, lcase{name: b.names[0], args: []framework.Arg{xb, bv(true)}, op: b.op, in: []string{"args.0", "bool:1"}})
		}
	}
	cs = append(cs,
		lcase{name: "Torch.bitwise_and", args: []framework.Arg{xi, iv(1)}, kwargs: []framework.NamedArg{out}, op: "bitwise_and"},
		lcase{name: "Tensor.bitwise_and_", args: []framework.Arg{xi8, xi}, op: "bitwise_and", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.__iand__", args: []framework.Arg{xi, iv(1)}, op: "bitwise_and", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.__ior__", args: []framework.Arg{xi, iv(1)}, op: "bitwise_or", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.__ixor__", args: []framework.Arg{xb, bv(false)}, op: "bitwise_xor", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.__ilshift__", args: []framework.Arg{xi, iv(1)}, op: "bitwise_left_shift", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.__irshift__", args: []framework.Arg{xi, iv(1)}, op: "bitwise_right_shift", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.bitwise_left_shift_", args: []framework.Arg{xi8, i64("args.1", 2)}, op: "bitwise_left_shift", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Tensor.bitwise_or_", args: []framework.Arg{xb, i64("args.1", 2)}, err: `argument "other": result type Long can't be cast to the desired output type Bool`},
		lcase{name: "Tensor.__ilshift__", args: []framework.Arg{tn("args.0", tensor.Int16, 2), fv(1.5)}, err: `argument "other": result type Float can't be cast to the desired output type Short`},
		lcase{name: "Tensor.bitwise_xor", args: []framework.Arg{xi, i64("args.1", 2)}, kwargs: []framework.NamedArg{out}, err: `unexpected keyword argument "out"`},
		lcase{name: "Torch.bitwise_not", args: []framework.Arg{xi}, kwargs: []framework.NamedArg{out}, op: "bitwise_not", attrs: ops.Attrs{"inplace": ba(false)}, in: []string{"args.0"}},
		lcase{name: "Tensor.bitwise_not", args: []framework.Arg{xb}, op: "bitwise_not"},
		lcase{name: "Tensor.bitwise_not_", args: []framework.Arg{xi8}, op: "bitwise_not", attrs: ops.Attrs{"inplace": ba(true)}},
		lcase{name: "Torch.bitwise_not", args: []framework.Arg{x}, err: `argument "input": "bitwise_not_cpu" not implemented for 'Float'`},
		lcase{name: "Torch.bitwise_not", args: []framework.Arg{iv(3)}, err: `argument "input": expected tensor, got int`},
	)
	for _, op := range []string{"isnan", "isinf", "isfinite", "isneginf", "isposinf", "isreal", "signbit"} {
		if op != "isreal" {
			cs = append(cs, lcase{name: "Torch." + op, args: []framework.Arg{x}, op: op, in: []string{"args.0"}},
				lcase{name: "Torch." + op, args: []framework.Arg{fv(1)}, err: `argument "input": expected tensor, got float`})
		}
		cs = append(cs, lcase{name: "Tensor." + op, args: []framework.Arg{xi}, op: op, in: []string{"args.0"}},
			lcase{name: "Tensor." + op, args: []framework.Arg{x, y}, err: "takes at most 1 positional arguments but 2 were given"})
	}
	cs = append(cs,
		lcase{name: "Torch.isneginf", args: []framework.Arg{x}, kwargs: []framework.NamedArg{out}, op: "isneginf"},
		lcase{name: "Torch.signbit", args: []framework.Arg{x}, kwargs: []framework.NamedArg{out}, op: "signbit"},
		lcase{name: "Torch.isnan", args: []framework.Arg{x}, kwargs: []framework.NamedArg{out}, err: `unexpected keyword argument "out"`},
	)
	x2 := f32("args.1", 2, 3)
	cs = append(cs,
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2}, op: "isclose", attrs: ops.Attrs{"rtol": fa(1e-5), "atol": fa(1e-8), "equal_nan": ba(false)}, in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2, fv(1e-3), iv(0), bv(true)}, op: "isclose", attrs: ops.Attrs{"rtol": fa(1e-3), "atol": fa(0), "equal_nan": ba(true)}},
		lcase{name: "Tensor.isclose", args: []framework.Arg{xi, i64("args.1", 2)}, kwargs: []framework.NamedArg{kw("atol", fv(0.5)), kw("equal_nan", bv(false))}, op: "isclose", attrs: ops.Attrs{"atol": fa(0.5)}},
		lcase{name: "Torch.isclose", args: []framework.Arg{xi, f32("args.1", 2)}, err: `argument "other": Long did not match Float`},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, fv(1)}, err: `argument "other": expected tensor, got float`},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{kw("rtol", fv(-1))}, err: `argument "rtol": rtol must be greater than or equal to zero, but got -1`},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{kw("atol", fv(-1e-8))}, err: `argument "atol": atol must be greater than or equal to zero, but got -1e-08`},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{kw("atol", sv("a"))}, err: `argument "atol": expected float, got str`},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{kw("equal_nan", iv(1))}, err: `argument "equal_nan": expected bool, got int`},
		lcase{name: "Torch.isclose", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{out}, err: `unexpected keyword argument "out"`},
	)
	cs = append(cs,
		lcase{name: "Torch.isin", args: []framework.Arg{xi, i64("args.1", 3)}, op: "isin", attrs: ops.Attrs{"assume_unique": ba(false), "invert": ba(false)}, in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.isin", args: []framework.Arg{x, fv(0.5)}, kwargs: []framework.NamedArg{kw("invert", bv(true)), kw("assume_unique", bv(true))}, op: "isin", attrs: ops.Attrs{"assume_unique": ba(true), "invert": ba(true)}, in: []string{"args.0", "float:0.5"}},
		lcase{name: "Torch.isin", args: []framework.Arg{iv(3)}, kwargs: []framework.NamedArg{kw("test_elements", xi)}, op: "isin", in: []string{"int:3", "args.0"}},
		lcase{name: "Torch.isin", args: []framework.Arg{iv(3), iv(4)}, err: `argument "test_elements": isin() received an invalid combination of arguments - got (int, int)`},
		lcase{name: "Torch.isin", args: []framework.Arg{xb, xi}, err: `argument "elements": Unsupported input type encountered for isin(): Bool`},
		lcase{name: "Torch.isin", args: []framework.Arg{xi, bv(true)}, err: `argument "test_elements": Unsupported input type encountered for isin(): Bool`},
		lcase{name: "Torch.isin", args: []framework.Arg{fv(1), tn("args.1", tensor.BFloat16, 2)}, err: `argument "test_elements": Unsupported input type encountered for isin(): BFloat16`},
		lcase{name: "Torch.isin", args: []framework.Arg{xi, sv("a")}, err: `argument "test_elements": expected tensor or number, got str`},
		lcase{name: "Torch.isin", args: []framework.Arg{xi, xi}, kwargs: []framework.NamedArg{kw("invert", iv(1))}, err: `argument "invert": expected bool, got int`},
		lcase{name: "Torch.isin", args: []framework.Arg{xi, xi, bv(true)}, err: "takes at most 2 positional arguments but 3 were given"},
	)
	cs = append(cs,
		lcase{name: "Torch.equal", args: []framework.Arg{x, x2}, op: "equal", in: []string{"args.0", "args.1"}},
		lcase{name: "Tensor.equal", args: []framework.Arg{xi, y}, op: "equal", in: []string{"args.0", "args.1"}},
		lcase{name: "Torch.equal", args: []framework.Arg{x, fv(1)}, err: `argument "other": expected tensor, got float`},
		lcase{name: "Torch.equal", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{out}, err: `unexpected keyword argument "out"`},
		lcase{name: "Tensor.allclose", args: []framework.Arg{x, x2}, op: "allclose", attrs: ops.Attrs{"rtol": fa(1e-5), "atol": fa(1e-8), "equal_nan": ba(false)}, in: []string{"args.0", "args.1"}},
		lcase{name: "Tensor.allclose", args: []framework.Arg{x, x2, iv(0), fv(0.5), bv(true)}, op: "allclose", attrs: ops.Attrs{"rtol": fa(0), "atol": fa(0.5), "equal_nan": ba(true)}},
		lcase{name: "Tensor.allclose", args: []framework.Arg{xi, x2}, err: `argument "other": Long did not match Float`},
		lcase{name: "Tensor.allclose", args: []framework.Arg{x, x2}, kwargs: []framework.NamedArg{kw("rtol", fv(-0.5))}, err: `argument "rtol": rtol must be greater than or equal to zero, but got -0.5`},
	)
	return append(cs,
		lcase{name: "Torch.eq", args: []framework.Arg{iv(1), x}, err: `argument "input": expected tensor, got int`},
		lcase{name: "Torch.eq", args: []framework.Arg{x, sv("a")}, err: `argument "other": expected tensor or number, got str`},
		lcase{name: "Torch.eq", args: []framework.Arg{x}, err: `missing required argument "other"`},
		lcase{name: "Torch.gt", args: []framework.Arg{x, y, y}, err: "takes at most 2 positional arguments but 3 were given"},
		lcase{name: "Tensor.lt", args: []framework.Arg{x, f32("", 3)}, err: `argument "other": tensor has no path in the dump`},
	)
}

// The comparisons' bench gets the inputs at their dumped dtypes.
func TestCompareExactBench(t *testing.T) {
	l, err := lower(&Call{API: "Tensor.__eq__.0", Namespace: TensorMethod, Name: "__eq__", Args: []framework.Arg{tn("args.0", tensor.Float16, 4), fv(0.1)}})
	if err != nil {
		t.Fatal(err)
	}
	if b := l.Plan.Bench; b == nil || len(b.Inputs) != 0 || len(b.Grads) != 0 || len(b.Attrs) != 0 {
		t.Errorf("bench policy %+v, want one that raises nothing", b)
	}
}

// __bool__ and __nonzero__ have a reason instead of a lowering.
func TestCompareReasons(t *testing.T) {
	for _, n := range []string{"__bool__", "__nonzero__"} {
		r, ok := Reason(TensorMethod, n)
		if !ok || Supported(TensorMethod, n) || r != "Tensor."+n+" returns a Python bool read from a one-element tensor, with nothing computed on the device to check" {
			t.Errorf("%s: reason %q (%v)", n, r, ok)
		}
	}
}

// Every name of the compare family in msprobe's tensor and torch lists
// (pytorch-precheck Appendix A) has a lowering or a reason.
func TestCompareFamilyCovered(t *testing.T) {
	tensorNames := []string{"__and__", "__bool__", "__eq__", "__ge__", "__gt__", "__iand__", "__ilshift__", "__ior__",
		"__irshift__", "__ixor__", "__le__", "__lshift__", "__lt__", "__ne__", "__nonzero__", "__or__", "__ror__", "__rshift__",
		"__rxor__", "__xor__", "allclose", "bitwise_and", "bitwise_and_", "bitwise_left_shift", "bitwise_left_shift_",
		"bitwise_not", "bitwise_not_", "bitwise_or", "bitwise_or_", "bitwise_right_shift", "bitwise_right_shift_",
		"bitwise_xor", "bitwise_xor_", "eq", "eq_", "equal", "ge", "ge_", "greater", "greater_", "greater_equal",
		"greater_equal_", "gt", "gt_", "isclose", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "le",
		"le_", "less", "less_", "less_equal", "less_equal_", "logical_and", "logical_and_", "logical_not", "logical_not_",
		"logical_or", "logical_or_", "logical_xor", "logical_xor_", "lt", "lt_", "ne", "ne_", "not_equal", "not_equal_", "signbit"}
	torchNames := []string{"bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "eq", "equal", "ge", "greater",
		"greater_equal", "gt", "isclose", "isfinite", "isin", "isinf", "isnan", "isneginf", "isposinf", "le", "less",
		"less_equal", "logical_and", "logical_not", "logical_or", "logical_xor", "lt", "ne", "not_equal", "signbit"}
	for ns, names := range map[Namespace][]string{TensorMethod: tensorNames, Torch: torchNames} {
		for _, n := range names {
			_, why := Reason(ns, n)
			if !Supported(ns, n) && !why {
				t.Errorf("%s.%s has neither a lowering nor a reason", ns, n)
			}
		}
	}
}
