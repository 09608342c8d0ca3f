package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestReduceFamily(t *testing.T) { runCases(t, reduceFamilyCases(), nil) }

func reduceFamilyCases() []lcase {
	x := f32("args.0", 2, 3, 4)
	xi := tn("args.0", tensor.Int32, 3)
	x0 := f32("args.0")
	a := func(v ...framework.Arg) []framework.Arg { return v }
	return []lcase{
		// prod: full, or one int dim
		{name: "Torch.prod", args: a(x), op: "prod", attrs: attrsOf("dim", na(), "keepdim", ba(false), "dtype", na()), in: []string{"args.0"}},
		{name: "Tensor.prod", args: a(x, iv(-1), bv(true)), op: "prod", attrs: attrsOf("dim", la(-1), "keepdim", ba(true))},
		{name: "Torch.prod", args: a(x, iv(1)), kwargs: kws("dtype", dtv("torch.float64")), op: "prod", attrs: attrsOf("dim", la(1), "dtype", sa("float64"))},
		{name: "Torch.prod", args: a(xi), kwargs: kws("out", nv()), op: "prod"},
		{name: "Torch.prod", args: a(x0, iv(0)), op: "prod", attrs: attrsOf("dim", la(0))},
		{name: "Torch.prod", args: a(x, ints(0, 1)), err: `argument "dim": expected int, got list`},
		{name: "Torch.prod", args: a(x, iv(3)), err: `argument "dim": dimension out of range (expected to be in range of [-3, 2], but got 3)`},
		{name: "Torch.prod", args: a(x), kwargs: kws("keepdim", bv(true)), err: `argument "keepdim": prod() takes keepdim only with a dim`},
		{name: "Torch.prod", args: a(x, iv(0), iv(1)), err: `argument "keepdim": expected bool, got int`},
		{name: "Torch.prod", args: a(x), kwargs: kws("dtype", sv("complex32")), err: `argument "dtype": dtype "complex32" is not supported`},
		{name: "Tensor.prod", args: a(x), kwargs: kws("out", nv()), err: `unexpected keyword argument "out"`},
		// nansum / nanmean: int or list dims, dtype
		{name: "Torch.nansum", args: a(x, ints(0, -1), bv(true)), op: "nansum", attrs: attrsOf("dim", la(0, -1), "keepdim", ba(true), "dtype", na())},
		{name: "Tensor.nansum", args: a(xi), op: "nansum", attrs: attrsOf("dim", na())},
		{name: "Torch.nansum", args: a(x, ints(1, -2)), err: "dim 1 appears multiple times in the list of dims"},
		{name: "Torch.nanmean", args: a(x, iv(2)), kwargs: kws("dtype", dtv("torch.float64")), op: "nanmean", attrs: attrsOf("dim", la(2), "dtype", sa("float64"))},
		{name: "Tensor.nanmean", args: a(x), op: "nanmean"},
		{name: "Torch.nanmean", args: a(xi), err: "nanmean(): expected input to have floating point dtype but got Int"},
		// amax / amin / logsumexp / count_nonzero
		{name: "Torch.amax", args: a(x), op: "amax", attrs: attrsOf("dim", na(), "keepdim", ba(false))},
		{name: "Tensor.amax", args: a(x, iv(1), bv(true)), op: "amax", attrs: attrsOf("dim", la(1), "keepdim", ba(true))},
		{name: "Torch.amin", args: a(x), kwargs: kws("dim", szv(0, 2)), op: "amin", attrs: attrsOf("dim", la(0, 2))},
		{name: "Tensor.amin", args: a(x, lv()), op: "amin", attrs: attrsOf("dim", na())},
		{name: "Torch.amax", args: a(x, iv(-4)), err: `argument "dim": dimension out of range`},
		{name: "Torch.amin", args: a(x, fv(1)), err: `argument "dim": expected int or list of ints, got float`},
		{name: "Torch.logsumexp", args: a(x, iv(1)), op: "logsumexp", attrs: attrsOf("dim", la(1), "keepdim", ba(false))},
		{name: "Tensor.logsumexp", args: a(xi, ints(0), bv(true)), op: "logsumexp", attrs: attrsOf("dim", la(0), "keepdim", ba(true))},
		{name: "Torch.logsumexp", args: a(x), err: `missing required argument "dim"`},
		{name: "Torch.logsumexp", args: a(x, lv()), err: `argument "dim": logsumexp needs at least one dim`},
		{name: "Torch.count_nonzero", args: a(x), op: "count_nonzero", attrs: attrsOf("dim", na())},
		{name: "Tensor.count_nonzero", args: a(x, ints(0, 1)), op: "count_nonzero", attrs: attrsOf("dim", la(0, 1))},
		{name: "Torch.count_nonzero", args: a(x, iv(0), bv(true)), err: "takes at most 2 positional arguments"},
		// all / any: one int dim
		{name: "Torch.all", args: a(x), op: "all", attrs: attrsOf("dim", na(), "keepdim", ba(false))},
		{name: "Tensor.any", args: a(x, iv(-1), bv(true)), op: "any", attrs: attrsOf("dim", la(-1), "keepdim", ba(true))},
		{name: "Tensor.all", args: a(x), kwargs: kws("dim", iv(0)), op: "all", attrs: attrsOf("dim", la(0))},
		{name: "Torch.any", args: a(x, ints(0, 1)), err: `argument "dim": expected int, got list`},
		{name: "Torch.all", args: a(x), kwargs: kws("keepdim", bv(false)), err: `argument "keepdim": all() takes keepdim only with a dim`},
		// cumprod (and in place) / logcumsumexp
		{name: "Torch.cumprod", args: a(x, iv(1)), op: "cumprod", attrs: attrsOf("dim", ia(1), "dtype", na(), "inplace", ba(false))},
		{name: "Tensor.cumprod_", args: a(xi, iv(0)), op: "cumprod", attrs: attrsOf("inplace", ba(true))},
		{name: "Tensor.cumprod", args: a(xi), kwargs: kws("dim", iv(-1), "dtype", dtv("torch.float32")), op: "cumprod", attrs: attrsOf("dim", ia(-1), "dtype", sa("float32"))},
		{name: "Torch.cumprod", args: a(x), err: `missing required argument "dim"`},
		{name: "Torch.cumprod", args: a(x, iv(5)), err: `argument "dim": dimension out of range`},
		{name: "Torch.logcumsumexp", args: a(x, iv(-1)), op: "logcumsumexp", attrs: attrsOf("dim", ia(-1))},
		{name: "Tensor.logcumsumexp", args: a(x0, iv(0)), op: "logcumsumexp"},
		{name: "Torch.logcumsumexp", args: a(x, nv()), err: `argument "dim": expected int, got None`},
		{name: "Torch.logcumsumexp", args: a(sv("x"), iv(0)), err: `argument "input": expected tensor, got str`},
	}
}

// attrsOf builds ops.Attrs from name, value pairs.
func attrsOf(kv ...any) map[string]ops.Attr {
	m := map[string]ops.Attr{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(ops.Attr)
	}
	return m
}

// kws builds keyword arguments from name, value pairs.
func kws(kv ...any) []framework.NamedArg {
	var out []framework.NamedArg
	for i := 0; i < len(kv); i += 2 {
		out = append(out, kw(kv[i].(string), kv[i+1].(framework.Arg)))
	}
	return out
}
