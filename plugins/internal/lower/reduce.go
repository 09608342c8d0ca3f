package lower

import (
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Reductions: sum, mean, max/min in their three overloads, cumsum; then
// the reduce family (sdk/ops/schema_reduce.go): further reductions and
// selection (sort, topk, medians, quantiles, histograms, unique, ...).

func init() {
	const sumSig = "input, dim=None, keepdim=False, *, dtype=None, out=None"
	def(reduceDims("sum"), sumSig, "Torch.sum", "Tensor.sum")
	def(reduceDims("mean"), sumSig, "Torch.mean", "Tensor.mean")
	// max/min: (input), (input, dim, keepdim=False) and (input, other).
	const maxSig = "input, dim=None, keepdim=False, *, other=None, out=None"
	def(maxMin("max", "max_dim", "maximum"), maxSig, "Torch.max", "Tensor.max")
	def(maxMin("min", "min_dim", "minimum"), maxSig, "Torch.min", "Tensor.min")
	def(cumsum, "input, dim, *, dtype=None, out=None", "Torch.cumsum", "Tensor.cumsum", "Tensor.cumsum_")
}

// reduceDims lowers sum/mean/nansum/nanmean(input, dim, keepdim, *, dtype); dim None or
// [] reduces every dimension (PyTorch 1.13).
func reduceDims(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		dim := ops.NoneAttr()
		if !b.isNone("dim") {
			dims, err := b.intList("dim", 0, true)
			if err != nil {
				return nil, err
			}
			seen := map[int]bool{}
			for _, d := range dims {
				w, err := b.wrapDim("dim", d, len(x.Shape))
				if err != nil {
					return nil, err
				}
				if seen[w] {
					return nil, b.argErr("dim", "dim %d appears multiple times in the list of dims", w)
				}
				seen[w] = true
			}
			if len(dims) > 0 {
				dim = ops.IntsAttr(dims...)
			}
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		dt, err := b.dtypeAttr("dtype")
		if err != nil {
			return nil, err
		}
		if op == "mean" && dt.Kind == ops.AttrNone && !x.DType.IsFloat() {
			return nil, b.errf("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", x.DType)
		}
		if op == "nanmean" && !x.DType.IsFloat() {
			return nil, b.errf("nanmean(): expected input to have floating point dtype but got %s", ops.TypeName(x.DType))
		}
		return newPlan(op, ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep), "dtype": dt}, tensorBinding(x)), nil
	}
}

// maxMin resolves torch.max/min's overloads: no dim → full reduction; an
// int dim → (values, indices); a tensor → elementwise maximum/minimum.
func maxMin(full, alongDim, elementwise string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		other, hasOther := b.vals["other"], b.given["other"]
		if !hasOther && b.arg("dim").Kind == framework.ArgTensor {
			other, hasOther = b.arg("dim"), true
		}
		if hasOther {
			if b.given["keepdim"] {
				return nil, b.argErr("keepdim", "the (input, other) overload takes no keepdim")
			}
			if other.Kind != framework.ArgTensor || other.Path == "" {
				return nil, b.argErr("other", "expected tensor, got %s", kindName(other))
			}
			return newPlan(elementwise, ops.Attrs{"inplace": ops.BoolAttr(false)}, tensorBinding(x), tensorBinding(other)), nil
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		if b.isNone("dim") {
			if b.given["keepdim"] && keep {
				return nil, b.argErr("keepdim", "keepdim=True needs a dim")
			}
			return newPlan(full, nil, tensorBinding(x)), nil
		}
		dim, err := b.dimOf("dim", x)
		if err != nil {
			return nil, err
		}
		b.multi = true
		return newPlan(alongDim, ops.Attrs{"dim": ops.IntAttr(dim), "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
	}
}

func cumsum(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dim, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	return newPlan("cumsum", b.inplaceAttr(ops.Attrs{"dim": ops.IntAttr(dim), "dtype": dt}), tensorBinding(x)), nil
}

// ---- the reduce family ----

func init() {
	const nanSig = "input, dim=None, keepdim=False, *, dtype=None, out=None"
	def(prod, nanSig, "Torch.prod", "Tensor.prod")
	def(reduceDims("nansum"), nanSig, "Torch.nansum", "Tensor.nansum")
	def(reduceDims("nanmean"), nanSig, "Torch.nanmean", "Tensor.nanmean")
	def(dimsReduce("amax", true), "input, dim=(), keepdim=False, *, out=None", "Torch.amax", "Tensor.amax")
	def(dimsReduce("amin", true), "input, dim=(), keepdim=False, *, out=None", "Torch.amin", "Tensor.amin")
	def(dimsReduce("logsumexp", true), "input, dim, keepdim=False, *, out=None", "Torch.logsumexp", "Tensor.logsumexp")
	def(dimsReduce("count_nonzero", false), "input, dim=None", "Torch.count_nonzero", "Tensor.count_nonzero")
	def(allAny("all"), "input, dim=None, keepdim=False, *, out=None", "Torch.all", "Tensor.all")
	def(allAny("any"), "input, dim=None, keepdim=False, *, out=None", "Torch.any", "Tensor.any")
	def(cumulative("cumprod", true), "input, dim, *, dtype=None, out=None", "Torch.cumprod", "Tensor.cumprod", "Tensor.cumprod_")
	def(cumulative("logcumsumexp", false), "input, dim, *, out=None", "Torch.logcumsumexp", "Tensor.logcumsumexp")
	const varSig = "input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None"
	def(variance("var"), varSig, "Torch.var", "Tensor.var")
	def(variance("std"), varSig, "Torch.std", "Tensor.std")
	defMulti(variance("var_mean"), varSig, "Torch.var_mean")
	defMulti(variance("std_mean"), varSig, "Torch.std_mean")
	def(norm, "input, p='fro', dim=None, keepdim=False, out=None, dtype=None", "Torch.norm", "Tensor.norm")
	def(vectorNorm, "x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None", "Torch.linalg.vector_norm")
	defMulti(aminmax, "input, *, dim=None, keepdim=False, out=None", "Torch.aminmax", "Tensor.aminmax")
	usedOps = append(usedOps, "var", "std", "var_mean", "std_mean", "norm", "aminmax")
	usedOps = append(usedOps, "prod", "nansum", "nanmean", "amax", "amin", "logsumexp", "count_nonzero", "all", "any", "cumprod", "logcumsumexp")
}

// dimsArg reads a dim argument that is an int or a list of ints, checked
// against x's rank and for repeats; an empty list gives nil.
func (b *bound) dimsArg(name string, x framework.Arg) ([]int64, error) {
	dims, err := b.intList(name, 0, true)
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, d := range dims {
		w, err := b.wrapDim(name, d, len(x.Shape))
		if err != nil {
			return nil, err
		}
		if seen[w] {
			return nil, b.argErr(name, "dim %d appears multiple times in the list of dims", w)
		}
		seen[w] = true
	}
	return dims, nil
}

// dimsReduce lowers op(input, dim, keepdim) with dim an int or a list
// (amax, amin, logsumexp, count_nonzero); withKeep is false for ops without
// keepdim.
func dimsReduce(op string, withKeep bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"dim": ops.NoneAttr()}
		if !b.isNone("dim") {
			dims, err := b.dimsArg("dim", x)
			if err != nil {
				return nil, err
			}
			if len(dims) > 0 {
				attrs["dim"] = ops.IntsAttr(dims...)
			}
		}
		if op == "logsumexp" && attrs["dim"].Kind == ops.AttrNone {
			return nil, b.argErr("dim", "logsumexp needs at least one dim (PyTorch 1.13 fails on an empty list)")
		}
		if withKeep {
			keep, err := b.boolean("keepdim")
			if err != nil {
				return nil, err
			}
			attrs["keepdim"] = ops.BoolAttr(keep)
		}
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}

// prod lowers torch.prod(input, *, dtype) and torch.prod(input, dim,
// keepdim=False, *, dtype): dim is a single int.
func prod(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	dim := ops.NoneAttr()
	if b.isNone("dim") {
		if b.given["keepdim"] {
			return nil, b.argErr("keepdim", "prod() takes keepdim only with a dim")
		}
	} else {
		d, err := b.dimOf("dim", x)
		if err != nil {
			return nil, err
		}
		dim = ops.IntsAttr(d)
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	return newPlan("prod", ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep), "dtype": dt}, tensorBinding(x)), nil
}

// allAny lowers torch.all/any(input) and (input, dim, keepdim=False): dim
// is a single int in PyTorch 1.13.
func allAny(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		dim := ops.NoneAttr()
		if b.isNone("dim") {
			if b.given["keepdim"] {
				return nil, b.argErr("keepdim", "%s() takes keepdim only with a dim", op)
			}
		} else {
			d, err := b.dimOf("dim", x)
			if err != nil {
				return nil, err
			}
			dim = ops.IntsAttr(d)
		}
		return newPlan(op, ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
	}
}

// cumulative lowers cumprod/logcumsumexp(input, dim[, *, dtype]).
func cumulative(op string, withDType bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		dim, err := b.dimOf("dim", x)
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"dim": ops.IntAttr(dim)}
		if withDType {
			dt, err := b.dtypeAttr("dtype")
			if err != nil {
				return nil, err
			}
			attrs["dtype"] = dt
			b.inplaceAttr(attrs)
		}
		return newPlan(op, attrs, tensorBinding(x)), nil
	}
}

// optDims reads an optional dim argument (None, an int or a list of ints)
// as the dim attribute: None or an empty list reduce every dim.
func (b *bound) optDims(name string, x framework.Arg) (ops.Attr, error) {
	if b.isNone(name) {
		return ops.NoneAttr(), nil
	}
	dims, err := b.dimsArg(name, x)
	if err != nil {
		return ops.Attr{}, err
	}
	if len(dims) == 0 {
		return ops.NoneAttr(), nil
	}
	return ops.IntsAttr(dims...), nil
}

// variance lowers var/std/var_mean/std_mean in PyTorch 1.13's overloads:
// (input, unbiased), (input, dim, unbiased, keepdim) and (input, dim, *,
// correction, keepdim); correction is an int.
func variance(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if !x.DType.IsFloat() {
			what := op
			if op == "var" || op == "std" {
				what = "std and var"
			}
			return nil, b.errf("%s only support floating point and complex dtypes", what)
		}
		dimArg := "dim"
		unbiased := b.arg("unbiased")
		if d := b.arg("dim"); d.Kind == framework.ArgBool {
			// var(input, unbiased): the bool takes the place of dim
			if b.given["unbiased"] || b.given["keepdim"] || b.given["correction"] {
				return nil, b.argErr("dim", "expected int or list of ints, got bool")
			}
			unbiased, dimArg = d, ""
		}
		corr := 1.0
		switch unbiased.Kind {
		case framework.ArgNone:
		case framework.ArgBool:
			if !unbiased.Bool {
				corr = 0
			}
		default:
			return nil, b.argErr("unbiased", "expected bool, got %s", kindName(unbiased))
		}
		if !b.isNone("correction") {
			if unbiased.Kind != framework.ArgNone {
				return nil, b.argErr("correction", "%s() takes unbiased or correction, not both", op)
			}
			c, err := b.integer("correction")
			if err != nil {
				return nil, err
			}
			corr = float64(c)
		}
		dim := ops.NoneAttr()
		if dimArg != "" {
			if dim, err = b.optDims("dim", x); err != nil {
				return nil, err
			}
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		return newPlan(op, ops.Attrs{"dim": dim, "correction": ops.FloatAttr(corr), "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
	}
}

// normOrder reads a norm order: an int or a float (inf and -inf included).
func (b *bound) normOrder(name string) (float64, error) {
	a := b.arg(name)
	switch a.Kind {
	case framework.ArgInt:
		return float64(a.Int), nil
	case framework.ArgFloat:
		return a.Float, nil
	}
	return 0, b.argErr(name, "expected a number, got %s", kindName(a))
}

// norm lowers torch.norm / Tensor.norm: a number p, 'fro' or None (the
// 2-norm over at most two dims, without dtype) as the vector norm; 'nuc'
// is a matrix norm and is not checked.
func norm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("norm(): input dtype should be either floating point or complex. Got %s instead.", ops.TypeName(x.DType))
	}
	dim, err := b.optDims("dim", x)
	if err != nil {
		return nil, err
	}
	p := 2.0
	switch a := b.arg("p"); {
	case a.Kind == framework.ArgNone || a.Kind == framework.ArgString && a.Str == "fro":
		if !b.isNone("dtype") {
			return nil, b.argErr("dtype", "dtype argument is not supported in frobenius norm")
		}
		if n := len(dim.Ints); n > 2 {
			return nil, b.argErr("dim", "the Frobenius norm takes at most 2 dimensions, got %d", n)
		}
	case a.Kind == framework.ArgString && a.Str == "nuc":
		return nil, b.argErr("p", "the nuclear norm is a matrix norm (a sum of singular values); probe checks vector norms only")
	case a.Kind == framework.ArgString:
		return nil, b.argErr("p", "unknown norm %q", a.Str)
	default:
		if p, err = b.normOrder("p"); err != nil {
			return nil, err
		}
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	return newPlan("norm", ops.Attrs{"p": ops.FloatAttr(p), "dim": dim, "keepdim": ops.BoolAttr(keep), "dtype": dt}, tensorBinding(x)), nil
}

// vectorNorm lowers torch.linalg.vector_norm: dtype may not narrow the
// input's.
func vectorNorm(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("x")
	if err != nil {
		return nil, err
	}
	if !x.DType.IsFloat() {
		return nil, b.errf("linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.DType))
	}
	p, err := b.normOrder("ord")
	if err != nil {
		return nil, err
	}
	dim, err := b.optDims("dim", x)
	if err != nil {
		return nil, err
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	if dt.Kind != ops.AttrNone {
		to, _ := tensor.Parse(dt.String)
		if ops.PromoteTypes(x.DType, to) != to {
			return nil, b.argErr("dtype", "linalg.vector_norm: the dtype of the input (%s) should be convertible without narrowing to the specified dtype (%s)", ops.TypeName(x.DType), ops.TypeName(to))
		}
	}
	if math.IsNaN(p) {
		return nil, b.argErr("ord", "ord must not be NaN")
	}
	return newPlan("norm", ops.Attrs{"p": ops.FloatAttr(p), "dim": dim, "keepdim": ops.BoolAttr(keep), "dtype": dt}, tensorBinding(x)), nil
}

// aminmax lowers torch.aminmax(input, *, dim=None, keepdim=False).
func aminmax(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dim := ops.NoneAttr()
	if !b.isNone("dim") {
		d, err := b.dimOf("dim", x)
		if err != nil {
			return nil, err
		}
		dim = ops.IntAttr(d)
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	return newPlan("aminmax", ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
}

// ---- selection ----

func init() {
	def(argMaxMin("argmax"), "input, dim=None, keepdim=False", "Torch.argmax", "Tensor.argmax")
	def(argMaxMin("argmin"), "input, dim=None, keepdim=False", "Torch.argmin", "Tensor.argmin")
	defMulti(sortAPI("sort"), "input, dim=-1, descending=False, *, stable=False, out=None", "Torch.sort", "Tensor.sort")
	def(sortAPI("argsort"), "input, dim=-1, descending=False, *, stable=False", "Torch.argsort", "Tensor.argsort")
	def(sortAPI("msort"), "input, *, out=None", "Torch.msort", "Tensor.msort")
	defMulti(topk, "input, k, dim=-1, largest=True, sorted=True, *, out=None", "Torch.topk", "Tensor.topk")
	defMulti(kthvalue, "input, k, dim=-1, keepdim=False, *, out=None", "Torch.kthvalue", "Tensor.kthvalue")
	usedOps = append(usedOps, "argmax", "argmin", "sort", "topk", "kthvalue")
}

// argMaxMin lowers argmax/argmin(input, dim=None, keepdim=False).
func argMaxMin(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		dim, err := b.optDim("dim", x)
		if err != nil {
			return nil, err
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		return newPlan(op, ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
	}
}

// optDim reads an optional single dim, checked against x's rank.
func (b *bound) optDim(name string, x framework.Arg) (ops.Attr, error) {
	if b.isNone(name) {
		return ops.NoneAttr(), nil
	}
	d, err := b.integer(name)
	if err != nil {
		return ops.Attr{}, err
	}
	if _, err := b.wrapDim(name, d, len(x.Shape)); err != nil {
		return ops.Attr{}, err
	}
	return ops.IntAttr(d), nil
}

// sortAPI lowers sort, argsort (the indices of sort) and msort (the
// values of sort along dim 0).
func sortAPI(api string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"dim": ops.IntAttr(0), "descending": ops.BoolAttr(false), "stable": ops.BoolAttr(false)}
		if api != "msort" {
			dim, err := b.dimOf("dim", x)
			if err != nil {
				return nil, err
			}
			desc, err := b.boolean("descending")
			if err != nil {
				return nil, err
			}
			stable, _, err := b.optBool("stable")
			if err != nil {
				return nil, err
			}
			attrs = ops.Attrs{"dim": ops.IntAttr(dim), "descending": ops.BoolAttr(desc), "stable": ops.BoolAttr(stable)}
		}
		p := newPlan("sort", attrs, tensorBinding(x))
		switch api {
		case "argsort":
			p.Compare = []int{1}
		case "msort":
			p.Compare = []int{0}
		}
		return p, nil
	}
}

// topk lowers topk(input, k, dim=-1, largest=True, sorted=True): the op
// always sorts (PyTorch leaves the order of sorted=False unspecified, so
// the values are compared in sorted order).
func topk(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	k, err := b.integer("k")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	w, err := b.wrapDim("dim", dim, len(x.Shape))
	if err != nil {
		return nil, err
	}
	size := int64(1)
	if len(x.Shape) > 0 {
		size = int64(x.Shape[w])
	}
	if k < 0 || k > size {
		return nil, b.argErr("k", "selected index k out of range (k = %d, dim size %d)", k, size)
	}
	largest, err := b.boolean("largest")
	if err != nil {
		return nil, err
	}
	if _, err := b.boolean("sorted"); err != nil {
		return nil, err
	}
	return newPlan("topk", ops.Attrs{"k": ops.IntAttr(k), "dim": ops.IntAttr(dim), "largest": ops.BoolAttr(largest)}, tensorBinding(x)), nil
}

// kthvalue lowers kthvalue(input, k, dim=-1, keepdim=False).
func kthvalue(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	k, err := b.integer("k")
	if err != nil {
		return nil, err
	}
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	w, err := b.wrapDim("dim", dim, len(x.Shape))
	if err != nil {
		return nil, err
	}
	size := int64(1)
	if len(x.Shape) > 0 {
		size = int64(x.Shape[w])
	}
	if k < 1 || k > size {
		return nil, b.argErr("k", "kthvalue(): selected number k out of range for dimension %d", w)
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	return newPlan("kthvalue", ops.Attrs{"k": ops.IntAttr(k), "dim": ops.IntAttr(dim), "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
}

func init() {
	const medianSig = "input, dim=None, keepdim=False, *, out=None"
	def(median(false), medianSig, "Torch.median", "Tensor.median")
	def(median(true), medianSig, "Torch.nanmedian", "Tensor.nanmedian")
	defMulti(mode, "input, dim=-1, keepdim=False, *, out=None", "Torch.mode", "Tensor.mode")
	defMulti(cumMaxMin("cummax"), "input, dim, *, out=None", "Torch.cummax", "Tensor.cummax")
	defMulti(cumMaxMin("cummin"), "input, dim, *, out=None", "Torch.cummin", "Tensor.cummin")
	usedOps = append(usedOps, "median", "median_dim", "mode", "cummax", "cummin")
}

// median lowers median/nanmedian(input) (the 0-d median) and (input, dim,
// keepdim=False) (values and indices).
func median(ignoreNaN bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		if b.isNone("dim") {
			if b.given["keepdim"] {
				return nil, b.argErr("keepdim", "%s() takes keepdim only with a dim", b.name)
			}
			return newPlan("median", ops.Attrs{"ignore_nan": ops.BoolAttr(ignoreNaN)}, tensorBinding(x)), nil
		}
		dim, err := b.dimOf("dim", x)
		if err != nil {
			return nil, err
		}
		b.multi = true
		return newPlan("median_dim", ops.Attrs{"dim": ops.IntAttr(dim), "keepdim": ops.BoolAttr(keep), "ignore_nan": ops.BoolAttr(ignoreNaN)}, tensorBinding(x)), nil
	}
}

// mode lowers mode(input, dim=-1, keepdim=False).
func mode(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dim, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	keep, err := b.boolean("keepdim")
	if err != nil {
		return nil, err
	}
	return newPlan("mode", ops.Attrs{"dim": ops.IntAttr(dim), "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
}

// cumMaxMin lowers cummax/cummin(input, dim).
func cumMaxMin(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		dim, err := b.dimOf("dim", x)
		if err != nil {
			return nil, err
		}
		return newPlan(op, ops.Attrs{"dim": ops.IntAttr(dim)}, tensorBinding(x)), nil
	}
}

func init() {
	const qSig = "input, q, dim=None, keepdim=False, *, interpolation='linear', out=None"
	def(quantile(false), qSig, "Torch.quantile", "Tensor.quantile")
	def(quantile(true), qSig, "Torch.nanquantile", "Tensor.nanquantile")
	usedOps = append(usedOps, "quantile")
}

// quantile lowers quantile/nanquantile: q a number or a tensor.
func quantile(ignoreNaN bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if x.DType != tensor.Float32 && x.DType != tensor.Float64 {
			return nil, b.errf("quantile() input tensor must be either float or double dtype")
		}
		var q framework.Binding
		switch a := b.arg("q"); a.Kind {
		case framework.ArgTensor:
			if q, _, err = b.operand("q"); err != nil {
				return nil, err
			}
			if len(a.Shape) > 1 {
				return nil, b.argErr("q", "quantile() q must be a scalar or 1D tensor")
			}
			if a.DType != x.DType {
				return nil, b.argErr("q", "quantile() q tensor must be same dtype as the input tensor")
			}
		case framework.ArgFloat, framework.ArgInt:
			v, _ := b.float("q")
			if !(v >= 0 && v <= 1) {
				return nil, b.argErr("q", "quantile() q must be in the range [0, 1] but got %g", v)
			}
			q = scalarBinding(ops.Scalar{Kind: ops.ScalarFloat, F: v})
		default:
			return nil, b.argErr("q", "expected float or tensor, got %s", kindName(a))
		}
		dim, err := b.optDim("dim", x)
		if err != nil {
			return nil, err
		}
		keep, err := b.boolean("keepdim")
		if err != nil {
			return nil, err
		}
		mode, err := b.str("interpolation")
		if err != nil {
			return nil, err
		}
		switch mode {
		case "linear", "lower", "higher", "midpoint", "nearest":
		default:
			return nil, b.argErr("interpolation", "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got %s", mode)
		}
		return newPlan("quantile", ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep), "interpolation": ops.StringAttr(mode), "ignore_nan": ops.BoolAttr(ignoreNaN)},
			tensorBinding(x), q), nil
	}
}

func init() {
	def(histc, "input, bins=100, min=0, max=0, *, out=None", "Torch.histc", "Tensor.histc")
	def(bincount, "input, weights=None, minlength=0", "Torch.bincount", "Tensor.bincount")
	def(searchsorted(true), "input, boundaries, *, out_int32=False, right=False, out=None", "Torch.bucketize")
	def(searchsorted(false), "sorted_sequence, input, *, out_int32=False, right=False, side=None, out=None, sorter=None", "Torch.searchsorted")
	usedOps = append(usedOps, "histc", "bincount", "searchsorted")
}

// histc lowers histc(input, bins=100, min=0, max=0).
func histc(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	bins, err := b.integer("bins")
	if err != nil {
		return nil, err
	}
	if bins <= 0 {
		return nil, b.argErr("bins", "torch.histogram(): bins must be > 0, but got %d for dimension 0", bins)
	}
	lo, err := b.float("min")
	if err != nil {
		return nil, err
	}
	hi, err := b.float("max")
	if err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, b.argErr("max", "torch.histc: max must be larger than min")
	}
	if !finite(lo) || !finite(hi) {
		return nil, b.argErr("min", "torch.histc: the range [%g, %g] is not finite", lo, hi)
	}
	return newPlan("histc", ops.Attrs{"bins": ops.IntAttr(bins), "min": ops.FloatAttr(lo), "max": ops.FloatAttr(hi)}, tensorBinding(x)), nil
}

// bincount lowers bincount(input, weights=None, minlength=0).
func bincount(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if x.DType.IsFloat() || x.DType == tensor.Bool || len(x.Shape) != 1 {
		return nil, b.argErr("input", "bincount only supports 1-d non-negative integral inputs.")
	}
	w, hasW, err := b.optTensor("weights")
	if err != nil {
		return nil, err
	}
	if hasW && (len(w.Shape) != 1 || w.Shape[0] != x.Shape[0]) {
		return nil, b.argErr("weights", "weights should be 1-d and have the same length as input")
	}
	minlength, err := b.integer("minlength")
	if err != nil {
		return nil, err
	}
	if minlength < 0 {
		return nil, b.argErr("minlength", "minlength should be >= 0")
	}
	return newPlan("bincount", ops.Attrs{"minlength": ops.IntAttr(minlength)}, tensorBinding(x), optBinding(w, hasW)), nil
}

// searchsorted lowers torch.searchsorted and torch.bucketize (input,
// boundaries): the values may be a Python number.
func searchsorted(bucketize bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		seqName := "sorted_sequence"
		if bucketize {
			seqName = "boundaries"
		}
		seq, err := b.tensor(seqName)
		if err != nil {
			return nil, err
		}
		if bucketize && len(seq.Shape) != 1 {
			return nil, b.argErr(seqName, "boundaries tensor must be 1 dimension, but got dim(%d)", len(seq.Shape))
		}
		if len(seq.Shape) == 0 {
			return nil, b.argErr(seqName, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
		}
		v, info, err := b.operand("input")
		if err != nil {
			return nil, err
		}
		if !info.isTensor && len(seq.Shape) > 1 {
			return nil, b.argErr("input", "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(%d)", len(seq.Shape))
		}
		if info.isTensor && len(seq.Shape) > 1 {
			vs := b.arg("input").Shape
			if len(vs) != len(seq.Shape) || !slices.Equal(vs[:len(vs)-1], seq.Shape[:len(seq.Shape)-1]) {
				return nil, b.argErr("input", "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match")
			}
		}
		out32, err := b.boolean("out_int32")
		if err != nil {
			return nil, err
		}
		right, err := b.boolean("right")
		if err != nil {
			return nil, err
		}
		sorter := noneBinding
		if !bucketize {
			if !b.isNone("side") {
				side, err := b.str("side")
				if err != nil {
					return nil, err
				}
				if side != "left" && side != "right" {
					return nil, b.argErr("side", "torch.searchsorted(): side can only be 'left' or 'right' but got %s", side)
				}
				if b.given["right"] && right != (side == "right") {
					return nil, b.argErr("side", "torch.searchsorted(): side and right can't be set to opposites, got side of %s while right was %v", side, pyBool(right))
				}
				right = side == "right"
			}
			s, ok, err := b.optTensor("sorter")
			if err != nil {
				return nil, err
			}
			if ok {
				if !slices.Equal(s.Shape, seq.Shape) {
					return nil, b.argErr("sorter", "torch.searchsorted(): boundary and sorter must have the same size")
				}
				sorter = tensorBinding(s)
			}
		}
		return newPlan("searchsorted", ops.Attrs{"out_int32": ops.BoolAttr(out32), "right": ops.BoolAttr(right)}, tensorBinding(seq), v, sorter), nil
	}
}

// pyBool spells a bool as Python does.
func pyBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

func init() {
	def(unique(false), "input, sorted=True, return_inverse=False, return_counts=False, dim=None", "Tensor.unique")
	def(unique(true), "input, return_inverse=False, return_counts=False, dim=None", "Torch.unique_consecutive", "Tensor.unique_consecutive")
	usedOps = append(usedOps, "unique")
}

// unique lowers Tensor.unique and unique_consecutive; sorted=False is
// checked in sorted order (PyTorch leaves its order unspecified). The API
// returns a tuple when it returns inverse indices or counts.
func unique(consecutive bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if !consecutive {
			if _, err := b.boolean("sorted"); err != nil {
				return nil, err
			}
		}
		inv, err := b.boolean("return_inverse")
		if err != nil {
			return nil, err
		}
		counts, err := b.boolean("return_counts")
		if err != nil {
			return nil, err
		}
		dim, err := b.optDim("dim", x)
		if err != nil {
			return nil, err
		}
		b.multi = inv || counts
		return newPlan("unique", ops.Attrs{"dim": dim, "consecutive": ops.BoolAttr(consecutive), "return_inverse": ops.BoolAttr(inv), "return_counts": ops.BoolAttr(counts)},
			tensorBinding(x)), nil
	}
}
