package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestLinalg(t *testing.T) { runCases(t, linalgCases(), nil) }

func laArgs(a ...framework.Arg) []framework.Arg { return a }

func laKws(a ...framework.NamedArg) []framework.NamedArg { return a }

func linalgCases() []lcase {
	v3, w3 := tn("args.0", tensor.Float64, 3), tn("args.1", tensor.Float64, 3)
	w2 := tn("args.1", tensor.Float64, 2)
	w3f := tn("args.1", tensor.Float32, 3)
	m23 := tn("args.0", tensor.Float64, 2, 3)
	m23b := tn("args.1", tensor.Float64, 2, 3)
	pair := []string{"args.0", "args.1"}
	var cs []lcase
	for _, n := range []string{"dot", "vdot"} {
		other := "tensor"
		if n == "vdot" {
			other = "other"
		}
		cs = append(cs,
			lcase{name: "Torch." + n, args: laArgs(v3, w3), op: "matmul", in: pair},
			lcase{name: "Tensor." + n, args: laArgs(v3, w3), op: "matmul", in: pair},
			lcase{name: "Torch." + n, args: laArgs(v3), kwargs: laKws(kw(other, w3), kw("out", nv())), op: "matmul", in: pair},
			lcase{name: "Torch." + n, args: laArgs(m23, w3), err: "1D tensors expected, but got 2D and 1D tensors"},
			lcase{name: "Torch." + n, args: laArgs(v3, w3f), err: "dot : expected both vectors to have same dtype, but found Double and Float"},
			lcase{name: "Torch." + n, args: laArgs(v3, w2), err: "inconsistent tensor size, expected tensor [3] and src [2]"},
			lcase{name: "Torch." + n, args: laArgs(v3, fv(1)), err: `argument "` + other + `": expected tensor, got float`},
			lcase{name: "Tensor." + n, args: laArgs(v3, w3), kwargs: laKws(kw("out", nv())), err: `unexpected keyword argument "out"`},
		)
	}
	cs = append(cs,
		lcase{name: "Torch.mv", args: laArgs(m23, w3), op: "matmul", in: pair},
		lcase{name: "Tensor.mv", args: laArgs(m23), kwargs: laKws(kw("vec", w3)), op: "matmul", in: pair},
		lcase{name: "Torch.mv", args: laArgs(m23, m23b), err: "vector + matrix @ vector expected, got 1, 2, 2"},
		lcase{name: "Torch.mv", args: laArgs(m23, w3f), err: "expected scalar type Double but found Float"},
		lcase{name: "Torch.mv", args: laArgs(m23, w2), err: "size mismatch, got 2, 2x3,2"},
		lcase{name: "Torch.mv", args: laArgs(m23), err: `missing required argument "vec"`},
		lcase{name: "Torch.linalg.matmul", args: laArgs(m23, w3), kwargs: laKws(kw("out", nv())), op: "matmul", in: pair},
		lcase{name: "Torch.outer", args: laArgs(v3, w2), op: "outer", in: pair},
		lcase{name: "Torch.ger", args: laArgs(v3), kwargs: laKws(kw("vec2", w2)), op: "outer", in: pair},
		lcase{name: "Tensor.outer", args: laArgs(v3, w2), op: "outer", in: pair},
		lcase{name: "Tensor.ger", args: laArgs(v3, w2), op: "outer", in: pair},
		lcase{name: "Torch.outer", args: laArgs(v3, iv(2)), err: `argument "vec2": expected tensor, got int`},
	)
	three := []string{"args.0", "args.1", "args.2"}
	s, a, b := tn("args.0", tensor.Float64, 2), m23b, tn("args.2", tensor.Float64, 3)
	for _, op := range []string{"addmv", "addr", "baddbmm", "addbmm"} {
		m1, m2 := map[string][2]string{"addmv": {"mat", "vec"}, "addr": {"vec1", "vec2"}, "baddbmm": {"batch1", "batch2"}, "addbmm": {"batch1", "batch2"}}[op][0],
			map[string][2]string{"addmv": {"mat", "vec"}, "addr": {"vec1", "vec2"}, "baddbmm": {"batch1", "batch2"}, "addbmm": {"batch1", "batch2"}}[op][1]
		cs = append(cs,
			lcase{name: "Torch." + op, args: laArgs(s, a, b), op: op, in: three,
				attrs: ops.Attrs{"beta": fa(1), "alpha": fa(1), "inplace": ba(false)}},
			lcase{name: "Torch." + op, args: laArgs(s, a, b), kwargs: laKws(kw("beta", fv(0.5)), kw("alpha", iv(2)), kw("out", nv())), op: op,
				attrs: ops.Attrs{"beta": fa(0.5), "alpha": fa(2)}},
			lcase{name: "Torch." + op, args: laArgs(s), kwargs: laKws(kw(m2, b), kw(m1, a)), op: op, in: three},
			lcase{name: "Tensor." + op + "_", args: laArgs(s, a, b), op: op, attrs: ops.Attrs{"inplace": ba(true)}},
			lcase{name: "Torch." + op, args: laArgs(s, a, b, fv(1)), err: "takes at most 3 positional arguments but 4 were given"},
			lcase{name: "Torch." + op, args: laArgs(s, a, b), kwargs: laKws(kw("beta", sv("x"))), err: `argument "beta": must be Number, not str`},
			lcase{name: "Torch." + op, args: laArgs(s, a, b), kwargs: laKws(kw("alpha", nv())), err: `argument "alpha": must be Number, not None`},
			lcase{name: "Torch." + op, args: laArgs(s, fv(1), b), err: `argument "` + m1 + `": expected tensor, got float`},
			lcase{name: "Torch." + op, args: laArgs(s, a), err: `missing required argument "` + m2 + `"`},
			lcase{name: "Tensor." + op, args: laArgs(s, a, b), kwargs: laKws(kw("out", nv())), err: `unexpected keyword argument "out"`},
		)
	}
	for _, op := range []string{"addmv", "baddbmm", "addbmm"} {
		cs = append(cs, lcase{name: "Tensor." + op, args: laArgs(s, a, b), kwargs: laKws(kw("beta", bv(false))), op: op, attrs: ops.Attrs{"beta": fa(0), "inplace": ba(false)}})
	}
	cs = append(cs,
		lcase{name: "Tensor.addr", args: laArgs(s, a, b), kwargs: laKws(kw("beta", bv(false))), err: "Boolean beta only supported for Boolean results."},
		lcase{name: "Torch.addmv_", args: laArgs(s, a, b), op: "addmv", attrs: ops.Attrs{"inplace": ba(true)}},
		// addr checks the kind of beta and alpha against the result dtype
		lcase{name: "Torch.addr", args: laArgs(i64("args.0", 2, 3), i64("args.1", 2), i64("args.2", 3)), kwargs: laKws(kw("beta", iv(2))), op: "addr"},
		lcase{name: "Torch.addr", args: laArgs(i64("args.0", 2, 3), i64("args.1", 2), i64("args.2", 3)), kwargs: laKws(kw("beta", fv(0.5))),
			err: "For integral input tensors, argument beta must not be a floating point number."},
		lcase{name: "Torch.addr", args: laArgs(tn("args.0", tensor.Bool, 2, 3), tn("args.1", tensor.Bool, 2), tn("args.2", tensor.Bool, 3)),
			kwargs: laKws(kw("alpha", fv(2))), err: "For integral input tensors, argument alpha must not be a floating point number."},
		lcase{name: "Torch.addr", args: laArgs(tn("args.0", tensor.Bool, 2, 3), tn("args.1", tensor.Bool, 2), tn("args.2", tensor.Bool, 3)),
			kwargs: laKws(kw("alpha", bv(true)), kw("beta", iv(0))), op: "addr", attrs: ops.Attrs{"beta": fa(0), "alpha": fa(1)}},
		lcase{name: "Torch.addr", args: laArgs(i64("args.0", 2, 3), tn("args.1", tensor.Bool, 2), tn("args.2", tensor.Bool, 3)),
			kwargs: laKws(kw("beta", bv(true))), err: "Boolean beta only supported for Boolean results."},
		lcase{name: "Torch.addr", args: laArgs(i64("args.0", 2, 3), i64("args.1", 2), tn("args.2", tensor.Float32, 3)),
			kwargs: laKws(kw("beta", fv(0.5))), op: "addr"},
		// the other products truncate a float multiplier for integer tensors
		lcase{name: "Torch.addmv", args: laArgs(i64("args.0", 2), i64("args.1", 2, 3), i64("args.2", 3)), kwargs: laKws(kw("alpha", fv(0.5))), op: "addmv"},
	)
	cs = append(cs, linalgProductCases()...)
	return cs
}

func linalgProductCases() []lcase {
	a23, b34 := tn("args.0", tensor.Float64, 2, 3), tn("args.1", tensor.Float64, 3, 4)
	b43 := tn("args.1", tensor.Float64, 4, 3)
	s0 := tn("args.1", tensor.Float64)
	pair := []string{"args.0", "args.1"}
	dims := func(a, b []int64) ops.Attrs { return ops.Attrs{"dims_self": la(a...), "dims_other": la(b...)} }
	m := func(path string, shape ...int) framework.Arg { return tn(path, tensor.Float64, shape...) }
	return []lcase{
		{name: "Torch.kron", args: laArgs(a23, b34), op: "kron", in: pair},
		{name: "Tensor.kron", args: laArgs(a23), kwargs: laKws(kw("other", b34)), op: "kron", in: pair},
		{name: "Torch.kron", args: laArgs(a23, iv(2)), err: `argument "other": expected tensor, got int`},

		{name: "Torch.tensordot", args: laArgs(a23, b34), op: "tensordot", attrs: dims([]int64{-2, -1}, []int64{0, 1})},
		{name: "Torch.tensordot", args: laArgs(a23, b34, iv(1)), op: "tensordot", attrs: dims([]int64{-1}, []int64{0})},
		{name: "Torch.tensordot", args: laArgs(a23, b34), kwargs: laKws(kw("dims", iv(0))), op: "tensordot", attrs: dims(nil, nil)},
		{name: "Torch.tensordot", args: laArgs(a23, b34), kwargs: laKws(kw("dims", lv(ints(1), ints(0)))), op: "tensordot", attrs: dims([]int64{1}, []int64{0})},
		{name: "Torch.tensordot", args: laArgs(a23, b34), kwargs: laKws(kw("dims", lv(iv(1), iv(0)))), op: "tensordot", attrs: dims([]int64{1}, []int64{0})},
		{name: "Torch.tensordot", kwargs: laKws(kw("a", a23), kw("b", b34), kw("dims", lv(ints(1, 0), ints(0, 1))), kw("out", nv())), op: "tensordot",
			attrs: dims([]int64{1, 0}, []int64{0, 1})},
		{name: "Torch.tensordot", args: laArgs(a23, b34, iv(-1)), err: `argument "dims": tensordot expects dims >= 0, but got dims=-1`},
		{name: "Torch.tensordot", args: laArgs(a23, b34, fv(1)), err: `argument "dims": tensordot expects dims to be int`},
		{name: "Torch.tensordot", args: laArgs(a23, b34, lv(ints(1, 0), ints(1))), err: `argument "dims": both dimension lists should have same length`},
		{name: "Torch.tensordot", args: laArgs(a23, b34, lv(ints(1))), err: `argument "dims": expected two lists of dims, got 1 values`},
		{name: "Torch.tensordot", args: laArgs(a23, b34, lv(lv(fv(1)), ints(0))), err: `argument "dims": expected two lists of ints`},
		{name: "Torch.tensordot", args: laArgs(a23, b34, i64("args.2")), err: `argument "dims": a tensor dims is not supported`},

		{name: "Torch.inner", args: laArgs(a23, b43), op: "tensordot", in: pair, attrs: dims([]int64{-1}, []int64{-1})},
		{name: "Tensor.inner", args: laArgs(a23, s0), op: "mul", in: pair, attrs: ops.Attrs{"inplace": ba(false)}},
		{name: "Torch.inner", args: laArgs(a23, b34), err: "inner() the last dimension must match on both input tensors but got shapes [2, 3] and [3, 4]"},
		{name: "Torch.inner", args: laArgs(a23, fv(1)), err: `argument "other": expected tensor, got float`},

		{name: "Torch.linalg.multi_dot", args: laArgs(lv(m("args.0.0", 2, 3), m("args.0.1", 3, 4), m("args.0.2", 4))), op: "multi_dot",
			in: []string{"args.0.0", "args.0.1", "args.0.2"}},
		{name: "Torch.multi_dot", kwargs: laKws(kw("tensors", lv(m("kwargs.tensors.0", 3), m("kwargs.tensors.1", 3, 4))), kw("out", nv())), op: "multi_dot",
			in: []string{"kwargs.tensors.0", "kwargs.tensors.1"}},
		{name: "Torch.multi_dot", args: laArgs(lv(m("args.0.0", 2, 3))), err: `argument "tensors": multi_dot(): expected at least 2 tensors but got 1`},
		{name: "Torch.multi_dot", args: laArgs(lv(m("args.0.0", 2, 3), iv(1))), err: `argument "tensors": element 1: expected tensor, got int`},
		{name: "Torch.multi_dot", args: laArgs(m("args.0", 2, 3)), err: `argument "tensors": expected a list of tensors, got tensor`},
		{name: "Torch.chain_matmul", args: laArgs(m("args.0", 2, 3), m("args.1", 3, 4), m("args.2", 4, 2)), op: "multi_dot",
			in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.chain_matmul", args: laArgs(m("args.0", 2, 3)), op: "clone", in: []string{"args.0"}},
		{name: "Torch.chain_matmul", args: laArgs(m("args.0", 2, 3), m("args.1", 3)), err: "Tensor dimension is 1, expected 2 instead."},
		{name: "Torch.chain_matmul", args: nil, err: "chain_matmul(): Expected one or more matrices"},

		{name: "Torch.linalg.vecdot", args: laArgs(a23, a23), op: "vecdot", attrs: ops.Attrs{"dim": ia(-1)}},
		{name: "Torch.vecdot", args: laArgs(a23), kwargs: laKws(kw("y", a23), kw("dim", iv(0))), op: "vecdot", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Torch.vecdot", kwargs: laKws(kw("x", a23), kw("y", a23), kw("out", nv())), op: "vecdot"},
		{name: "Torch.vecdot", args: laArgs(a23, a23, iv(0)), err: "takes at most 2 positional arguments but 3 were given"},
		{name: "Torch.vecdot", args: laArgs(a23, f32("args.1", 2, 3)), err: "linalg.vecdot: Expected x and y to have the same dtype, but found x of type Double and y of type Float instead"},
		{name: "Torch.vecdot", args: laArgs(i64("args.0", 3), i64("args.1", 3)), err: "linalg.vecdot: Expected a floating point or complex tensor as input. Got Long"},
		{name: "Torch.vecdot", args: laArgs(a23, a23), kwargs: laKws(kw("dim", nv())), err: `argument "dim": expected int, got None`},

		{name: "Torch.matrix_power", args: laArgs(m("args.0", 3, 3), iv(2)), op: "matrix_power", attrs: ops.Attrs{"n": ia(2)}},
		{name: "Tensor.matrix_power", args: laArgs(m("args.0", 2, 3, 3)), kwargs: laKws(kw("n", iv(-1))), op: "matrix_power", attrs: ops.Attrs{"n": ia(-1)}},
		{name: "Torch.linalg.matrix_power", args: laArgs(i64("args.0", 2, 2), iv(0)), kwargs: laKws(kw("out", nv())), op: "matrix_power"},
		{name: "Torch.matrix_power", args: laArgs(m("args.0", 3), iv(2)), err: "linalg.matrix_power: The input tensor A must have at least 2 dimensions."},
		{name: "Torch.matrix_power", args: laArgs(m("args.0", 2, 3), iv(2)), err: "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices"},
		{name: "Torch.matrix_power", args: laArgs(i64("args.0", 2, 2), iv(-1)), err: "linalg.inv: Expected a floating point or complex tensor as input. Got Long"},
		{name: "Torch.matrix_power", args: laArgs(tn("args.0", tensor.BFloat16, 2, 2), iv(-1)), err: "linalg.inv: Low precision dtypes not supported. Got BFloat16"},
		{name: "Torch.matrix_power", args: laArgs(m("args.0", 2, 2), fv(2)), err: `argument "n": expected int, got float`},
		{name: "Tensor.matrix_power", args: laArgs(m("args.0", 2, 2), iv(2)), kwargs: laKws(kw("out", nv())), err: `unexpected keyword argument "out"`},

		{name: "Torch.inverse", args: laArgs(m("args.0", 3, 3)), op: "matrix_power", attrs: ops.Attrs{"n": ia(-1)}, in: []string{"args.0"}},
		{name: "Tensor.inverse", args: laArgs(f32("args.0", 2, 3, 3)), op: "matrix_power", attrs: ops.Attrs{"n": ia(-1)}},
		{name: "Torch.inverse", kwargs: laKws(kw("input", m("kwargs.input", 2, 2)), kw("out", nv())), op: "matrix_power"},
		{name: "Torch.linalg.inv", kwargs: laKws(kw("A", m("kwargs.A", 2, 2))), op: "matrix_power"},
		{name: "Torch.inv", args: laArgs(m("args.0", 2, 2)), op: "matrix_power", attrs: ops.Attrs{"n": ia(-1)}},
		{name: "Torch.inv", kwargs: laKws(kw("input", m("kwargs.input", 2, 2))), err: `unexpected keyword argument "input"`},
		{name: "Torch.inverse", args: laArgs(m("args.0", 3)), err: "linalg.inv: The input tensor A must have at least 2 dimensions."},
		{name: "Torch.inv", args: laArgs(m("args.0", 2, 3)), err: "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"},
		{name: "Torch.inverse", args: laArgs(i64("args.0", 2, 2)), err: "linalg.inv: Expected a floating point or complex tensor as input. Got Long"},
		{name: "Torch.inverse", args: laArgs(tn("args.0", tensor.Float16, 2, 2)), err: "linalg.inv: Low precision dtypes not supported. Got Half"},
		{name: "Tensor.inverse", args: laArgs(m("args.0", 2, 2)), kwargs: laKws(kw("out", nv())), err: `unexpected keyword argument "out"`},

		{name: "Torch.det", args: laArgs(m("args.0", 3, 3)), op: "det", in: []string{"args.0"}},
		{name: "Tensor.det", args: laArgs(f32("args.0", 2, 3, 3)), op: "det"},
		{name: "Torch.det", args: laArgs(tn("args.0", tensor.BFloat16, 2, 2)), op: "det"},
		{name: "Torch.linalg.det", kwargs: laKws(kw("A", m("kwargs.A", 2, 2)), kw("out", nv())), op: "det"},
		{name: "Torch.det", args: laArgs(m("args.0", 3)), err: "linalg.det: The input tensor A must have at least 2 dimensions."},
		{name: "Torch.det", args: laArgs(m("args.0", 2, 3)), err: "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices"},
		{name: "Tensor.det", args: laArgs(i64("args.0", 2, 2)), err: "linalg.det: Expected a floating point or complex tensor as input. Got Long"},
		{name: "Torch.logdet", args: laArgs(m("args.0", 3, 3)), op: "logdet"},
		{name: "Tensor.logdet", args: laArgs(tn("args.0", tensor.Float16, 2, 2)), err: "logdet: Low precision dtypes not supported. Got Half"},
		{name: "Torch.logdet", args: laArgs(m("args.0", 2, 2)), kwargs: laKws(kw("out", nv())), err: `unexpected keyword argument "out"`},
		{name: "Torch.slogdet", args: laArgs(m("args.0", 3, 3)), op: "slogdet", multi: true},
		{name: "Tensor.slogdet", args: laArgs(m("args.0", 3, 3)), op: "slogdet", multi: true},
		{name: "Torch.linalg.slogdet", args: laArgs(m("args.0", 3, 3)), op: "slogdet", multi: true},
		{name: "Torch.slogdet", args: laArgs(m("args.0", 2, 3)), err: "linalg.slogdet: A must be batches of square matrices, but they are 2 by 3 matrices"},
		{name: "Torch.slogdet", args: laArgs(tn("args.0", tensor.BFloat16, 2, 2)), err: "linalg.slogdet: Low precision dtypes not supported. Got BFloat16"},
		{name: "Torch.slogdet", args: laArgs(tn("args.0", tensor.Bool, 2, 2)), err: "linalg.slogdet: Expected a floating point or complex tensor as input. Got Bool"},

		{name: "Torch.cross", args: laArgs(m("args.0", 4, 3), m("args.1", 4, 3)), op: "cross", attrs: ops.Attrs{"dim": ia(1)}, in: pair},
		{name: "Torch.cross", args: laArgs(m("args.0", 3, 3), m("args.1", 3, 3), iv(-1)), op: "cross", attrs: ops.Attrs{"dim": ia(-1)}},
		{name: "Torch.cross", args: laArgs(m("args.0", 3, 3), m("args.1", 3, 3)), kwargs: laKws(kw("dim", iv(0))), op: "cross", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Tensor.cross", args: laArgs(m("args.0", 3, 2), m("args.1", 3, 2)), op: "cross", attrs: ops.Attrs{"dim": ia(0)}},
		{name: "Torch.linalg.cross", args: laArgs(m("args.0", 3, 3), m("args.1", 3, 3)), op: "cross", attrs: ops.Attrs{"dim": ia(-1)}},
		{name: "Torch.cross", args: laArgs(m("args.0", 3, 3), m("args.1", 3, 3)), err: `argument "dim": not given: torch.cross would take dim 0 (the first of length 3) and torch.linalg.cross dim -1`},
		{name: "Torch.cross", args: laArgs(m("args.0", 2, 4), m("args.1", 2, 4)), err: "no dimension of size 3 in input"},
		{name: "Torch.cross", args: laArgs(m("args.0", 3), m("args.1", 3)), kwargs: laKws(kw("dim", fv(0))), err: `argument "dim": expected int, got float`},
		{name: "Torch.linalg.cross", args: laArgs(m("args.0", 3), m("args.1", 3), iv(0)), err: "takes at most 2 positional arguments but 3 were given"},

		{name: "Torch.dist", args: laArgs(a23, a23), op: "dist", attrs: ops.Attrs{"p": fa(2)}, in: []string{"args.0", "args.0"}},
		{name: "Tensor.dist", args: laArgs(a23, b34, iv(3)), op: "dist", attrs: ops.Attrs{"p": fa(3)}},
		{name: "Torch.dist", args: laArgs(a23, b34), kwargs: laKws(kw("p", fv(-1))), op: "dist", attrs: ops.Attrs{"p": fa(-1)}},
		{name: "Torch.dist", args: laArgs(a23, fv(1)), err: `argument "other": expected tensor, got float`},
		{name: "Torch.dist", args: laArgs(a23, b34), kwargs: laKws(kw("p", nv())), err: `argument "p": expected float, got None`},
		{name: "Torch.dist", args: laArgs(a23, b34), kwargs: laKws(kw("out", nv())), err: `unexpected keyword argument "out"`},

		{name: "Torch.diff", args: laArgs(a23), op: "diff", attrs: ops.Attrs{"n": ia(1), "dim": ia(-1)}, in: []string{"args.0", "none", "none"}},
		{name: "Tensor.diff", args: laArgs(a23, iv(2), iv(0)), op: "diff", attrs: ops.Attrs{"n": ia(2), "dim": ia(0)}},
		{name: "Torch.diff", args: laArgs(a23), kwargs: laKws(kw("append", m("kwargs.append", 2, 1)), kw("prepend", m("kwargs.prepend", 2, 2))), op: "diff",
			in: []string{"args.0", "kwargs.prepend", "kwargs.append"}},
		{name: "Torch.diff", args: laArgs(a23), kwargs: laKws(kw("n", bv(true))), err: `argument "n": expected int, got bool`},
		{name: "Torch.diff", args: laArgs(a23), kwargs: laKws(kw("prepend", fv(1))), err: `argument "prepend": expected tensor, got float`},
		{name: "Torch.diff", args: laArgs(a23), kwargs: laKws(kw("dim", nv())), err: `argument "dim": expected int, got None`},

		{name: "Torch.vander", args: laArgs(m("args.0", 4), iv(3)), op: "vander", attrs: ops.Attrs{"N": ia(3), "increasing": ba(false)}},
		{name: "Torch.vander", args: laArgs(m("args.0", 4)), kwargs: laKws(kw("increasing", bv(true))), op: "vander", attrs: ops.Attrs{"N": ia(4), "increasing": ba(true)}},
		{name: "Torch.vander", args: laArgs(m("args.0", 2, 4)), op: "vander", attrs: ops.Attrs{"N": ia(4), "increasing": ba(true)}},
		{name: "Torch.vander", args: laArgs(m("args.0", 4)), kwargs: laKws(kw("N", iv(1))), op: "vander", attrs: ops.Attrs{"N": ia(1), "increasing": ba(false)}},
		{name: "Torch.vander", args: laArgs(tn("args.0", tensor.Bool, 3)), op: "vander", attrs: ops.Attrs{"N": ia(3), "increasing": ba(false)}},
		{name: "Torch.vander", args: laArgs(m("args.0", 4)), err: "is torch.vander (decreasing powers) or torch.linalg.vander (increasing)"},
		{name: "Torch.vander", args: laArgs(m("args.0", 4), iv(-1)), err: `argument "N": N must be non-negative.`},
		{name: "Torch.vander", args: laArgs(m("args.0", 2, 4), iv(3)), err: "x must be a one-dimensional tensor."},
		{name: "Torch.vander", args: laArgs(m("args.0", 4), iv(3), iv(1)), err: `argument "increasing": expected bool, got int`},
		{name: "Torch.linalg.vander", args: laArgs(m("args.0", 2, 4)), kwargs: laKws(kw("N", iv(3))), op: "vander", attrs: ops.Attrs{"N": ia(3), "increasing": ba(true)}},
		{name: "Torch.linalg.vander", args: laArgs(m("args.0", 4)), kwargs: laKws(kw("N", iv(1))), err: `argument "N": N must be greater than 1.`},
		{name: "Torch.linalg.vander", args: laArgs(tn("args.0", tensor.Bool, 3)), err: "linalg.vander supports floating point, complex, and integer tensors, but got Bool"},

		{name: "Torch.block_diag", args: laArgs(a23, m("args.1", 3), m("args.2")), op: "block_diag", in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.block_diag", args: laArgs(a23), op: "block_diag", in: []string{"args.0"}},
		{name: "Torch.block_diag", args: nil, err: `argument "tensors": block_diag of no tensors is not supported`},
		{name: "Torch.block_diag", args: laArgs(a23, m("args.1", 2, 2, 2)), err: "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions"},
		{name: "Torch.block_diag", args: laArgs(a23, iv(1)), err: `argument "tensors": element 1: expected tensor, got int`},

		{name: "Torch.vector_norm", args: laArgs(f32("args.0", 2, 3)), kwargs: laKws(kw("ord", iv(1)), kw("dim", iv(1))), op: "norm",
			attrs: ops.Attrs{"p": fa(1), "dim": la(1)}},
	}
}
