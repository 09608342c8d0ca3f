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
	return cs
}
