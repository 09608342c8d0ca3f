package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// Reductions: sum, mean, max/min in their three overloads, cumsum.

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
		dim, err := b.integer("dim")
		if err != nil {
			return nil, err
		}
		if _, err := b.wrapDim("dim", dim, len(x.Shape)); err != nil {
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
	dim, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	if _, err := b.wrapDim("dim", dim, len(x.Shape)); err != nil {
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
		d, err := b.integer("dim")
		if err != nil {
			return nil, err
		}
		if _, err := b.wrapDim("dim", d, len(x.Shape)); err != nil {
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
			d, err := b.integer("dim")
			if err != nil {
				return nil, err
			}
			if _, err := b.wrapDim("dim", d, len(x.Shape)); err != nil {
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
		dim, err := b.integer("dim")
		if err != nil {
			return nil, err
		}
		if _, err := b.wrapDim("dim", dim, len(x.Shape)); err != nil {
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
