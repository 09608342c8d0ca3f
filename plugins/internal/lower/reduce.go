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

// reduceDims lowers sum/mean(input, dim, keepdim, *, dtype); dim None or
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
