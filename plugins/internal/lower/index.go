package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Indexing APIs that write into a copy of self: scatter (src or value,
// reduce), scatter_add. What the sizes alone decide is refused here with
// PyTorch's message; the kernels check the index values.

func init() {
	def(scatter, "input, dim, index, src=None, *, value=None, reduce=None, out=None", "Torch.scatter", "Tensor.scatter", "Tensor.scatter_")
	def(scatterAdd, "input, dim, index, src, *, out=None", "Torch.scatter_add", "Tensor.scatter_add", "Tensor.scatter_add_")

	usedOps = append(usedOps, "scatter", "scatter_add")
}

// scatterShapes checks the index of scatter/scatter_add against self and
// src (nil for a number) as ATen's scatter_shape_check does; an empty
// index is not checked. srcRank says whether src's rank is checked
// (scatter checks it, scatter_add does not and fails reading its sizes).
func (b *bound) scatterShapes(x, index framework.Arg, src *framework.Arg, dim int, srcRank bool) error {
	if index.DType != tensor.Int64 {
		return b.argErr("index", "scatter(): Expected dtype int64 for index")
	}
	if src != nil && src.DType != x.DType {
		return b.argErr("src", "scatter(): Expected self.dtype to be equal to src.dtype")
	}
	if tensor.NumElements(index.Shape) == 0 {
		return nil
	}
	if nonEmptyRank(index) != nonEmptyRank(x) {
		return b.argErr("index", "Index tensor must have the same number of dimensions as self tensor")
	}
	if src != nil && srcRank && nonEmptyRank(*src) != nonEmptyRank(index) {
		return b.argErr("src", "Index tensor must have the same number of dimensions as src tensor")
	}
	xs, is := nonEmptyShape(x.Shape), nonEmptyShape(index.Shape)
	var ss []int
	if src != nil {
		ss = nonEmptyShape(src.Shape)
		if len(ss) < len(is) {
			r := len(ss)
			return b.argErr("src", "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, r)
		}
	}
	for d := range is {
		if (d != dim && is[d] > xs[d]) || (src != nil && is[d] > ss[d]) {
			if src == nil {
				return b.argErr("index", "Expected index %s to be smaller than self %s apart from dimension %d",
					shapeList(int64s(index.Shape)), shapeList(int64s(x.Shape)), dim)
			}
			return b.argErr("index", "Expected index %s to be smaller than self %s apart from dimension %d and to be smaller size than src %s",
				shapeList(int64s(index.Shape)), shapeList(int64s(x.Shape)), dim, shapeList(int64s(src.Shape)))
		}
	}
	return nil
}

func nonEmptyShape(s []int) []int {
	if len(s) == 0 {
		return []int{1}
	}
	return s
}

// scatterCommon binds input, dim and index.
func (b *bound) scatterCommon() (x, index framework.Arg, d int64, dim int, err error) {
	if x, err = b.tensor("input"); err != nil {
		return
	}
	if d, err = b.integer("dim"); err != nil {
		return
	}
	if dim, err = b.wrapDim("dim", d, len(x.Shape)); err != nil {
		return
	}
	index, err = b.tensor("index")
	return
}

func scatter(b *bound) (*framework.Plan, error) {
	x, index, d, dim, err := b.scatterCommon()
	if err != nil {
		return nil, err
	}
	var src framework.Binding
	var srcArg *framework.Arg
	switch s, v := b.arg("src"), b.arg("value"); {
	case b.given["src"] && b.given["value"]:
		return nil, b.argErr("value", "scatter() takes either src or value, not both")
	case b.given["value"]:
		if v.Kind == framework.ArgTensor {
			return nil, b.argErr("value", "expected a number, got tensor")
		}
		if src, _, err = b.operand("value"); err != nil {
			return nil, err
		}
	case !b.given["src"]:
		return nil, b.errf("missing required argument %q", "src")
	case s.Kind == framework.ArgTensor:
		a, err := b.tensor("src")
		if err != nil {
			return nil, err
		}
		srcArg, src = &a, tensorBinding(a)
	case b.positional["src"]:
		// scatter(input, dim, index, value): a number in src's place
		if src, _, err = b.operand("src"); err != nil {
			return nil, err
		}
	default:
		return nil, b.argErr("src", "expected tensor, got %s", kindName(s))
	}
	reduce := ops.NoneAttr()
	if !b.isNone("reduce") {
		r, err := b.str("reduce")
		if err != nil {
			return nil, err
		}
		if r != "add" && r != "multiply" {
			return nil, b.argErr("reduce", "reduce argument must be either add or multiply.")
		}
		reduce = ops.StringAttr(r)
	}
	if err := b.scatterShapes(x, index, srcArg, dim, true); err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"dim": ops.IntAttr(d), "reduce": reduce})
	return newPlan("scatter", attrs, tensorBinding(x), tensorBinding(index), src), nil
}

func scatterAdd(b *bound) (*framework.Plan, error) {
	x, index, d, dim, err := b.scatterCommon()
	if err != nil {
		return nil, err
	}
	src, err := b.tensor("src")
	if err != nil {
		return nil, err
	}
	if err := b.scatterShapes(x, index, &src, dim, false); err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"dim": ops.IntAttr(d)})
	return newPlan("scatter_add", attrs, tensorBinding(x), tensorBinding(index), tensorBinding(src)), nil
}
