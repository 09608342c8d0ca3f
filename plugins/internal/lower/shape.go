package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Shape and data-movement APIs: cat/stack, split/chunk (lowered to
// split_with_sizes with explicit sizes), transpose/permute, the reshape
// family (reshape, view, flatten, squeeze... lowered to reshape with an
// explicit shape), masked_fill, where, clone, ones_like.

func init() {
	def(catStack("cat"), "tensors, dim=0, *, out=None", "Torch.cat", "Torch.concat", "Torch.concatenate")
	def(catStack("stack"), "tensors, dim=0, *, out=None", "Torch.stack")

	defMulti(split("tensor", "split_size_or_sections"), "tensor, split_size_or_sections, dim=0", "Torch.split")
	defMulti(split("input", "split_size"), "input, split_size, dim=0", "Tensor.split", "Torch.unsafe_split", "Tensor.unsafe_split")
	defMulti(split("input", "split_sizes"), "input, split_sizes, dim=0",
		"Torch.split_with_sizes", "Tensor.split_with_sizes", "Torch.unsafe_split_with_sizes", "Tensor.unsafe_split_with_sizes")
	defMulti(chunk, "input, chunks, dim=0", "Torch.chunk", "Tensor.chunk", "Torch.unsafe_chunk", "Tensor.unsafe_chunk")
	defMulti(tensorSplit, "input, indices_or_sections=None, dim=0, *, sections=None, indices=None", "Torch.tensor_split", "Tensor.tensor_split")

	def(transpose("dim0", "dim1"), "input, dim0, dim1", "Torch.transpose", "Tensor.transpose", "Tensor.transpose_",
		"Torch.swapdims", "Tensor.swapdims", "Tensor.swapdims_")
	def(transpose("axis0", "axis1"), "input, axis0, axis1", "Torch.swapaxes", "Tensor.swapaxes", "Tensor.swapaxes_")
	def(matrixT, "input", "Torch.t", "Tensor.t", "Tensor.t_")
	def(permute, "input, dims", "Torch.permute")
	def(permute, "input, *dims", "Tensor.permute")

	def(reshapeTo("shape"), "input, shape", "Torch.reshape")
	def(reshapeTo(""), "input, *shape", "Tensor.reshape", "Tensor.view")
	def(reshapeAs, "input, other", "Tensor.view_as", "Tensor.reshape_as")
	def(flatten, "input, start_dim=0, end_dim=-1", "Torch.flatten", "Tensor.flatten")
	def(unflatten, "input, dim, sizes", "Torch.unflatten", "Tensor.unflatten")
	def(ravel, "input", "Torch.ravel", "Tensor.ravel")
	def(squeeze, "input, dim=None", "Torch.squeeze", "Tensor.squeeze", "Tensor.squeeze_")
	def(unsqueeze, "input, dim", "Torch.unsqueeze", "Tensor.unsqueeze", "Tensor.unsqueeze_")

	def(maskedFill, "input, mask, value", "Torch.masked_fill", "Tensor.masked_fill", "Tensor.masked_fill_")
	def(where(false), "condition, input=None, other=None, *, out=None", "Torch.where")
	def(where(true), "input, condition, other", "Tensor.where")
	def(clone, "input, *, memory_format=None", "Torch.clone", "Tensor.clone")
	def(clone, "input, memory_format=None", "Tensor.contiguous")
	def(onesLike, "input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None, pin_memory=None",
		"Torch.ones_like")
}

func catStack(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		list := b.arg("tensors")
		if list.Kind != framework.ArgList {
			return nil, b.argErr("tensors", "expected a list of tensors, got %s", kindName(list))
		}
		if len(list.Elems) == 0 {
			return nil, b.argErr("tensors", "torch.%s(): expected a non-empty list of Tensors", op)
		}
		var in []framework.Binding
		for i, e := range list.Elems {
			if e.Kind != framework.ArgTensor || e.Path == "" {
				return nil, b.argErr("tensors", "element %d: expected tensor, got %s", i, kindName(e))
			}
			in = append(in, tensorBinding(e))
		}
		dim, err := b.integer("dim")
		if err != nil {
			return nil, err
		}
		rank := len(list.Elems[0].Shape)
		if op == "stack" {
			rank++
		}
		if _, err := b.wrapDim("dim", dim, rank); err != nil {
			return nil, err
		}
		return newPlan(op, ops.Attrs{"dim": ops.IntAttr(dim)}, in...), nil
	}
}

// splitDim validates the tensor and dim of a split and returns the size of
// the split dimension.
func (b *bound) splitDim(x framework.Arg) (int64, int64, error) {
	if len(x.Shape) == 0 {
		return 0, 0, b.errf("split expects at least a 1-dimensional tensor")
	}
	dim, err := b.integer("dim")
	if err != nil {
		return 0, 0, err
	}
	d, err := b.wrapDim("dim", dim, len(x.Shape))
	if err != nil {
		return 0, 0, err
	}
	return dim, int64(x.Shape[d]), nil
}

// splitSizes is torch.split's rule for an int split_size: chunks of
// split_size, the last one smaller; an empty dimension gives one empty chunk.
func splitSizes(n, size int64) []int64 {
	if size == 0 {
		return []int64{0}
	}
	num := (n + size - 1) / size
	if num < 1 {
		num = 1
	}
	out := make([]int64, num)
	for i := range out {
		out[i] = size
	}
	out[num-1] = n - size*(num-1)
	return out
}

// chunkSizes is ATen's chunk: split_size = ceil(n/chunks), so it may give
// fewer than chunks pieces; an empty dimension gives chunks empty pieces.
func chunkSizes(n, chunks int64) []int64 {
	size := (n + chunks - 1) / chunks
	if size == 0 && n == 0 {
		return make([]int64, chunks)
	}
	return splitSizes(n, size)
}

func (b *bound) splitPlan(x framework.Arg, dim int64, sizes []int64) *framework.Plan {
	return newPlan("split_with_sizes", ops.Attrs{"split_sizes": ops.IntsAttr(sizes...), "dim": ops.IntAttr(dim)}, tensorBinding(x))
}

// split lowers torch.split (int or sizes), Tensor.split, split_with_sizes
// and the unsafe_ forms.
func split(self, sizeName string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor(self)
		if err != nil {
			return nil, err
		}
		dim, n, err := b.splitDim(x)
		if err != nil {
			return nil, err
		}
		a := b.arg(sizeName)
		if a.Kind == framework.ArgInt && sizeName != "split_sizes" {
			size := a.Int
			switch {
			case size < 0:
				return nil, b.argErr(sizeName, "split expects split_size be non-negative, but got split_size=%d", size)
			case size == 0 && n != 0:
				return nil, b.argErr(sizeName, "split_size can only be 0 if dimension size is 0, but got dimension size of %d", n)
			}
			return b.splitPlan(x, dim, splitSizes(n, size)), nil
		}
		sizes, err := b.intList(sizeName, 0, false)
		if err != nil {
			return nil, err
		}
		var sum int64
		for _, s := range sizes {
			if s < 0 {
				return nil, b.argErr(sizeName, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%v", sizes)
			}
			sum += s
		}
		if sum != n || len(sizes) == 0 {
			return nil, b.argErr(sizeName, "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%v", n, dim, sizes)
		}
		return b.splitPlan(x, dim, sizes), nil
	}
}

func chunk(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	chunks, err := b.integer("chunks")
	if err != nil {
		return nil, err
	}
	if chunks <= 0 {
		return nil, b.argErr("chunks", "chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	dim, n, err := b.splitDim(x)
	if err != nil {
		return nil, err
	}
	return b.splitPlan(x, dim, chunkSizes(n, chunks)), nil
}

// tensorSplit lowers tensor_split: int sections (the first n%sections
// pieces one larger) or split indices (clamped to the dimension).
func tensorSplit(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	name := ""
	for _, n := range []string{"indices_or_sections", "sections", "indices"} {
		if !b.isNone(n) {
			if name != "" {
				return nil, b.argErr(n, "given together with %q", name)
			}
			name = n
		}
	}
	if name == "" {
		return nil, b.errf("missing required argument \"indices_or_sections\"")
	}
	dim, n, err := b.splitDim(x)
	if err != nil {
		return nil, err
	}
	a := b.arg(name)
	if a.Kind == framework.ArgInt && name != "indices" {
		sections := a.Int
		if sections <= 0 {
			return nil, b.argErr(name, "number of sections must be larger than 0, got %d", sections)
		}
		sizes := make([]int64, sections)
		for i := range sizes {
			sizes[i] = n / sections
			if int64(i) < n%sections {
				sizes[i]++
			}
		}
		return b.splitPlan(x, dim, sizes), nil
	}
	if a.Kind == framework.ArgTensor {
		return nil, b.argErr(name, "tensor indices_or_sections are not supported")
	}
	idx, err := b.intList(name, 0, false)
	if err != nil {
		return nil, err
	}
	clampIdx := func(v int64) int64 {
		if v < 0 {
			v += n
		}
		return max(0, min(v, n))
	}
	var sizes []int64
	start := int64(0)
	for _, v := range idx {
		end := max(clampIdx(v), start)
		sizes = append(sizes, end-start)
		start = end
	}
	sizes = append(sizes, n-start)
	return b.splitPlan(x, dim, sizes), nil
}

func transpose(n0, n1 string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		d0, err := b.integer(n0)
		if err != nil {
			return nil, err
		}
		d1, err := b.integer(n1)
		if err != nil {
			return nil, err
		}
		if _, err := b.wrapDim(n0, d0, len(x.Shape)); err != nil {
			return nil, err
		}
		if _, err := b.wrapDim(n1, d1, len(x.Shape)); err != nil {
			return nil, err
		}
		return newPlan("transpose", b.inplaceAttr(ops.Attrs{"dim0": ops.IntAttr(d0), "dim1": ops.IntAttr(d1)}), tensorBinding(x)), nil
	}
}

// matrixT lowers t(): transpose(0, 1) for 2-D, identity for 0-D and 1-D.
func matrixT(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	switch r := len(x.Shape); {
	case r > 2:
		return nil, b.errf("t() expects a tensor with <= 2 dimensions, but self is %dD", r)
	case r == 2:
		return newPlan("transpose", b.inplaceAttr(ops.Attrs{"dim0": ops.IntAttr(0), "dim1": ops.IntAttr(1)}), tensorBinding(x)), nil
	case r == 1:
		return newPlan("permute", ops.Attrs{"dims": ops.IntsAttr(0)}, tensorBinding(x)), nil
	}
	return newPlan("permute", ops.Attrs{"dims": ops.IntsAttr()}, tensorBinding(x)), nil
}

// varInts reads a varargs int list (*shape, *dims): ints, or a single
// list/tuple/torch.Size. With a named parameter it reads that instead.
func (b *bound) varInts(name string) ([]int64, error) {
	if _, ok := b.vals[name]; ok {
		return b.intList(name, 0, false)
	}
	if len(b.variadic) == 1 {
		if v, ok := asInts(b.variadic[0]); ok {
			return v, nil
		}
	}
	if len(b.variadic) == 0 {
		return nil, b.errf("missing required argument %q", name)
	}
	out := make([]int64, 0, len(b.variadic))
	for _, a := range b.variadic {
		if a.Kind != framework.ArgInt {
			return nil, b.argErr(name, "expected ints, got %s", kindName(a))
		}
		out = append(out, a.Int)
	}
	return out, nil
}

func permute(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dims, err := b.varInts("dims")
	if err != nil {
		return nil, err
	}
	if len(dims) != len(x.Shape) {
		return nil, b.argErr("dims", "number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", len(x.Shape), len(dims))
	}
	seen := map[int]bool{}
	for _, d := range dims {
		w, err := b.wrapDim("dims", d, len(x.Shape))
		if err != nil {
			return nil, err
		}
		if seen[w] {
			return nil, b.argErr("dims", "permute(): duplicate dims are not allowed.")
		}
		seen[w] = true
	}
	return newPlan("permute", ops.Attrs{"dims": ops.IntsAttr(dims...)}, tensorBinding(x)), nil
}

// inferShape resolves a target shape with at most one -1 against numel,
// as PyTorch's infer_size does.
func (b *bound) inferShape(name string, numel int64, shape []int64) ([]int64, error) {
	out := append([]int64{}, shape...)
	infer := -1
	prod := int64(1)
	for i, s := range shape {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, b.argErr(name, "only one dimension can be inferred")
			}
			infer = i
		case s < 0:
			return nil, b.argErr(name, "invalid shape dimension %d", s)
		default:
			prod *= s
		}
	}
	if infer >= 0 {
		if prod == 0 {
			return nil, b.argErr(name, "cannot reshape tensor of %d elements into shape %v because the unspecified dimension size -1 can be any value and is ambiguous", numel, shape)
		}
		if numel%prod != 0 {
			return nil, b.argErr(name, "shape '%v' is invalid for input of size %d", shape, numel)
		}
		out[infer] = numel / prod
		return out, nil
	}
	if prod != numel {
		return nil, b.argErr(name, "shape '%v' is invalid for input of size %d", shape, numel)
	}
	return out, nil
}

func numel(x framework.Arg) int64 { return int64(tensor.NumElements(x.Shape)) }

func reshapePlan(x framework.Arg, shape []int64) *framework.Plan {
	return newPlan("reshape", ops.Attrs{"shape": ops.IntsAttr(shape...)}, tensorBinding(x))
}

// reshapeTo lowers torch.reshape(input, shape) and Tensor.reshape/view
// (*shape); view(dtype) reinterprets bytes and is not a reshape.
func reshapeTo(name string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		argName := name
		if name == "" {
			argName = "shape"
			if len(b.variadic) == 1 && b.variadic[0].Kind == framework.ArgDType {
				return nil, b.argErr("dtype", "view(dtype) reinterprets the tensor's bytes, which is not supported")
			}
		}
		shape, err := b.varInts(argName)
		if err != nil {
			return nil, err
		}
		out, err := b.inferShape(argName, numel(x), shape)
		if err != nil {
			return nil, err
		}
		return reshapePlan(x, out), nil
	}
}

func reshapeAs(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	o, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	shape := make([]int64, len(o.Shape))
	for i, s := range o.Shape {
		shape[i] = int64(s)
	}
	if _, err := b.inferShape("other", numel(x), shape); err != nil {
		return nil, err
	}
	return reshapePlan(x, shape), nil
}

func int64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, s := range v {
		out[i] = int64(s)
	}
	return out
}

func flatten(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	s0, err := b.integer("start_dim")
	if err != nil {
		return nil, err
	}
	s1, err := b.integer("end_dim")
	if err != nil {
		return nil, err
	}
	start, err := b.wrapDim("start_dim", s0, len(x.Shape))
	if err != nil {
		return nil, err
	}
	end, err := b.wrapDim("end_dim", s1, len(x.Shape))
	if err != nil {
		return nil, err
	}
	if start > end {
		return nil, b.errf("flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if len(x.Shape) == 0 {
		return reshapePlan(x, []int64{1}), nil
	}
	in := int64s(x.Shape)
	shape := append([]int64{}, in[:start]...)
	p := int64(1)
	for _, s := range in[start : end+1] {
		p *= s
	}
	shape = append(shape, p)
	shape = append(shape, in[end+1:]...)
	return reshapePlan(x, shape), nil
}

func unflatten(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.errf("unflatten: Dimension size must be non-zero (got a 0-d tensor)")
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	sizes, err := b.intList("sizes", 0, false)
	if err != nil {
		return nil, err
	}
	if len(sizes) == 0 {
		return nil, b.argErr("sizes", "unflatten: sizes must be non-empty")
	}
	in := int64s(x.Shape)
	part, err := b.inferShape("sizes", in[dim], sizes)
	if err != nil {
		return nil, err
	}
	shape := append(append(append([]int64{}, in[:dim]...), part...), in[dim+1:]...)
	return reshapePlan(x, shape), nil
}

func ravel(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	return reshapePlan(x, []int64{numel(x)}), nil
}

func squeeze(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	in := int64s(x.Shape)
	var shape []int64
	if b.isNone("dim") {
		for _, s := range in {
			if s != 1 {
				shape = append(shape, s)
			}
		}
		return reshapePlan(x, shape), nil
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	for i, s := range in {
		if i != dim || s != 1 {
			shape = append(shape, s)
		}
	}
	return reshapePlan(x, shape), nil
}

func unsqueeze(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape)+1)
	if err != nil {
		return nil, err
	}
	in := int64s(x.Shape)
	shape := append(append(append([]int64{}, in[:dim]...), 1), in[dim:]...)
	return reshapePlan(x, shape), nil
}

func maskedFill(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	m, err := b.tensor("mask")
	if err != nil {
		return nil, err
	}
	v, vi, err := b.operand("value")
	if err != nil {
		return nil, err
	}
	if vi.isTensor && len(b.arg("value").Shape) != 0 {
		return nil, b.argErr("value", "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", len(b.arg("value").Shape))
	}
	return newPlan("masked_fill", b.inplaceAttr(ops.Attrs{}), tensorBinding(x), tensorBinding(m), v), nil
}

// where lowers torch.where(condition, input, other) and
// Tensor.where(condition, other) (self is input). The one-argument
// torch.where(condition) is nonzero, not a select.
func where(method bool) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		if !method && b.isNone("input") && b.isNone("other") {
			return nil, b.errf("torch.where(condition) with one argument (nonzero) is not supported")
		}
		c, err := b.tensor("condition")
		if err != nil {
			return nil, err
		}
		if c.DType != tensor.Bool && c.DType != tensor.Uint8 {
			return nil, b.argErr("condition", "where expected condition to be a boolean tensor, but got a tensor with dtype %s", c.DType)
		}
		if method {
			if _, err := b.tensor("input"); err != nil {
				return nil, err
			}
			if _, err := b.tensor("other"); err != nil {
				return nil, err
			}
		}
		x, _, err := b.operand("input")
		if err != nil {
			return nil, err
		}
		y, _, err := b.operand("other")
		if err != nil {
			return nil, err
		}
		return newPlan("where", nil, tensorBinding(c), x, y), nil
	}
}

func clone(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	return newPlan("clone", nil, tensorBinding(x)), nil
}

func onesLike(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	return newPlan("ones_like", ops.Attrs{"dtype": dt}, tensorBinding(x)), nil
}
