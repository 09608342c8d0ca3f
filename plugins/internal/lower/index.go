package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Indexing APIs that write into a copy of self: scatter (src or value,
// reduce), scatter_add, index_add, index_copy, index_fill. What the sizes alone decide is refused here with
// PyTorch's message; the kernels check the index values.

func init() {
	def(scatter, "input, dim, index, src=None, *, value=None, reduce=None, out=None", "Torch.scatter", "Tensor.scatter", "Tensor.scatter_")
	def(scatterAdd, "input, dim, index, src, *, out=None", "Torch.scatter_add", "Tensor.scatter_add", "Tensor.scatter_add_")

	def(indexAdd, "input, dim, index, source, *, alpha=1, out=None", "Torch.index_add", "Tensor.index_add", "Tensor.index_add_")
	def(indexCopy, "input, dim, index, source, *, out=None", "Torch.index_copy", "Tensor.index_copy", "Tensor.index_copy_")
	def(indexFill, "input, dim, index, value", "Torch.index_fill", "Tensor.index_fill", "Tensor.index_fill_")

	// their sources need shapes that fit self's, which OpsOf's samples lack
	declareOps([]string{"index_add"}, "Torch.index_add", "Tensor.index_add", "Tensor.index_add_")
	declareOps([]string{"index_copy"}, "Torch.index_copy", "Tensor.index_copy", "Tensor.index_copy_")

	usedOps = append(usedOps, "scatter", "scatter_add", "index_add", "index_copy", "index_fill")
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

// sliceSource checks that source has self's shape apart from dim, where
// it has n entries (one per index). PyTorch broadcasts each slice of
// source to self's slice; probe takes the plain layout only.
func (b *bound) sliceSource(api string, x, source framework.Arg, dim int, n int) error {
	xs, ss := nonEmptyShape(x.Shape), nonEmptyShape(source.Shape)
	if len(ss) <= dim || ss[dim] != n {
		got := 1
		if len(ss) > dim {
			got = ss[dim]
		}
		if api == "index_add_" {
			return b.argErr("source", "index_add_(): Number of indices (%d) should be equal to source.size(dim): (%d), for dim: %d", n, got, dim)
		}
		return b.argErr("source", "%s(): Number of indices (%d) should be equal to source.size(dim) (%d)", api, n, got)
	}
	if len(ss) != len(xs) {
		return b.argErr("source", "%s(): source of rank %d for a self of rank %d is not supported", api, len(source.Shape), len(x.Shape))
	}
	for d := range xs {
		if d != dim && xs[d] != ss[d] {
			return b.argErr("source", "%s(): source shape %s does not match self %s apart from dimension %d", api,
				shapeList(int64s(source.Shape)), shapeList(int64s(x.Shape)), dim)
		}
	}
	return nil
}

// indexVector binds the index of index_add/index_copy/index_fill: a
// vector or 0-d tensor.
func (b *bound) indexVector(op string) (framework.Arg, int, error) {
	index, err := b.tensor("index")
	if err != nil {
		return index, 0, err
	}
	if r := len(index.Shape); r > 1 {
		switch op {
		case "index_add":
			return index, 0, b.argErr("index", "index_add_(): Index is supposed to be a vector, but got dim: %d with type: %s and size: %s",
				r, ops.TypeName(index.DType), shapeList(int64s(index.Shape)))
		case "index_copy":
			return index, 0, b.argErr("index", "index_copy_(): Index should have dimension 1 or 0 (got %d)", r)
		}
		return index, 0, b.argErr("index", "Index has to be a vector/scalar")
	}
	return index, tensor.NumElements(index.Shape), nil
}

func indexAdd(b *bound) (*framework.Plan, error) {
	x, _, d, dim, err := b.scatterCommon()
	if err != nil {
		return nil, err
	}
	index, n, err := b.indexVector("index_add")
	if err != nil {
		return nil, err
	}
	if index.DType != tensor.Int64 && index.DType != tensor.Int32 {
		return nil, b.argErr("index", "index_add_(): Expected dtype int32/int64 for index but got: %s", ops.TypeName(index.DType))
	}
	source, err := b.tensor("source")
	if err != nil {
		return nil, err
	}
	if source.DType != x.DType {
		return nil, b.argErr("source", "index_add_(): self (%s) and source (%s) must have the same scalar type", ops.TypeName(x.DType), ops.TypeName(source.DType))
	}
	if err := b.sliceSource("index_add_", x, source, dim, n); err != nil {
		return nil, err
	}
	alpha, err := b.float("alpha")
	if err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"dim": ops.IntAttr(d), "alpha": ops.FloatAttr(alpha)})
	return newPlan("index_add", attrs, tensorBinding(x), tensorBinding(index), tensorBinding(source)), nil
}

func indexCopy(b *bound) (*framework.Plan, error) {
	x, _, d, dim, err := b.scatterCommon()
	if err != nil {
		return nil, err
	}
	index, n, err := b.indexVector("index_copy")
	if err != nil {
		return nil, err
	}
	if index.DType != tensor.Int64 {
		return nil, b.argErr("index", "index_copy_(): Expected a long tensor for index, but got %s", ops.TypeName(index.DType))
	}
	source, err := b.tensor("source")
	if err != nil {
		return nil, err
	}
	if source.DType != x.DType {
		return nil, b.argErr("source", "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
			ops.TypeName(x.DType), ops.TypeName(source.DType))
	}
	if len(x.Shape) > 0 && len(source.Shape) > 0 && len(x.Shape) != len(source.Shape) {
		return nil, b.argErr("source", "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (%d), destination dimensionality (%d)",
			len(source.Shape), len(x.Shape))
	}
	if err := b.sliceSource("index_copy_", x, source, dim, n); err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"dim": ops.IntAttr(d)})
	return newPlan("index_copy", attrs, tensorBinding(x), tensorBinding(index), tensorBinding(source)), nil
}

func indexFill(b *bound) (*framework.Plan, error) {
	x, _, d, _, err := b.scatterCommon()
	if err != nil {
		return nil, err
	}
	index, _, err := b.indexVector("index_fill")
	if err != nil {
		return nil, err
	}
	if index.DType != tensor.Int64 {
		return nil, b.argErr("index", "index_fill_(): Expected dtype int64 for index.")
	}
	if v := b.arg("value"); v.Kind == framework.ArgTensor && len(v.Shape) > 0 {
		return nil, b.argErr("value", "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", len(v.Shape))
	}
	value, _, err := b.operand("value")
	if err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"dim": ops.IntAttr(d)})
	return newPlan("index_fill", attrs, tensorBinding(x), tensorBinding(index), value), nil
}
