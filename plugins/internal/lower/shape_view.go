package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// View and rearrangement APIs: expand/broadcast_to, repeat/tile, flip,
// roll, rot90, narrow/select (slice, select), movedim (permute), unfold,
// the diagonal family and unbind. Arguments PyTorch refuses are refused
// here with its message; what depends on the sizes alone the kernels check
// again.

func init() {
	def(expand, "input, size=None, *sizes", "Tensor.expand")
	def(expandAs, "input, other", "Tensor.expand_as")
	def(broadcastTo, "input, size", "Torch.broadcast_to", "Tensor.broadcast_to")
	def(repeat, "input, repeats=None, *sizes", "Tensor.repeat")
	def(tile, "input, dims", "Torch.tile")
	def(tile, "input, dims=None, *sizes", "Tensor.tile")

	def(flip, "input, dims", "Torch.flip")
	def(flip, "input, dims=None, *sizes", "Tensor.flip")
	def(flipOne(1, 2), "input", "Torch.fliplr", "Tensor.fliplr")
	def(flipOne(0, 1), "input", "Torch.flipud", "Tensor.flipud")
	def(roll, "input, shifts, dims=None", "Torch.roll", "Tensor.roll")
	def(rot90, "input, k=1, dims=[0, 1]", "Torch.rot90", "Tensor.rot90")

	def(narrow, "input, dim, start, length", "Torch.narrow", "Tensor.narrow")
	def(narrow, "input, dim, start, length, *, out=None", "Torch.narrow_copy", "Tensor.narrow_copy")
	def(selectIndex, "input, dim, index", "Torch.select", "Tensor.select")
	def(movedim, "input, source, destination", "Torch.movedim", "Tensor.movedim", "Torch.moveaxis", "Tensor.moveaxis")
	def(unfold, "input, dimension, size, step", "Tensor.unfold")

	def(diag, "input, diagonal=0, *, out=None", "Torch.diag", "Tensor.diag")
	def(diagonal, "input, offset=0, dim1=0, dim2=1", "Torch.diagonal", "Tensor.diagonal")
	def(diagEmbed, "input, offset=0, dim1=-2, dim2=-1", "Torch.diag_embed", "Tensor.diag_embed")
	def(diagflat, "input, offset=0", "Torch.diagflat", "Tensor.diagflat")

	defMulti(unbind, "input, dim=0", "Torch.unbind", "Tensor.unbind")

	def(gather, "input, dim, index, *, sparse_grad=False, out=None", "Torch.gather", "Tensor.gather")
	def(indexSelect, "input, dim, index, *, out=None", "Torch.index_select", "Tensor.index_select")

	defMulti(dirSplit("hsplit", 1), "input, indices_or_sections=None, *indices", "Torch.hsplit", "Tensor.hsplit")
	defMulti(dirSplit("vsplit", 2), "input, indices_or_sections=None, *indices", "Torch.vsplit", "Tensor.vsplit")
	defMulti(dirSplit("dsplit", 3), "input, indices_or_sections=None, *indices", "Torch.dsplit", "Tensor.dsplit")
	def(atLeast(1), "*tensors", "Torch.atleast_1d")
	def(atLeast(2), "*tensors", "Torch.atleast_2d")
	def(atLeast(3), "*tensors", "Torch.atleast_3d")
	defMulti(tensorList("broadcast_tensors", "broadcast_tensors"), "*tensors", "Torch.broadcast_tensors")
	def(tensorList("hstack", "hstack"), "tensors, *, out=None", "Torch.hstack")
	def(tensorList("vstack", "vstack"), "tensors, *, out=None", "Torch.vstack")
	def(tensorList("vstack", "row_stack"), "tensors, *, out=None", "Torch.row_stack")
	def(tensorList("dstack", "dstack"), "tensors, *, out=None", "Torch.dstack")
	def(tensorList("column_stack", "column_stack"), "tensors, *, out=None", "Torch.column_stack")

	usedOps = append(usedOps, "expand", "repeat", "flip", "roll", "rot90", "slice", "select", "unfold",
		"diagonal", "diag_embed", "diagflat", "unbind", "broadcast_tensors", "hstack", "vstack", "dstack", "column_stack", "gather", "index_select")
}

// sizeArgs reads an int list given either as one list/torch.Size (or
// int) in the named parameter or as several ints, the first in the named
// parameter and the rest in the variadic ones: x.expand(2, 3),
// x.expand((2, 3)), x.expand(size=(2, 3)).
func (b *bound) sizeArgs(name string) ([]int64, error) {
	if !b.given[name] {
		if len(b.variadic) > 0 {
			return nil, b.argErr(name, "expected ints")
		}
		return nil, b.errf("missing required argument %q", name)
	}
	if len(b.variadic) == 0 {
		return b.intList(name, 0, true)
	}
	first, err := b.integer(name)
	if err != nil {
		return nil, err
	}
	out := []int64{first}
	for _, a := range b.variadic {
		if a.Kind != framework.ArgInt {
			return nil, b.argErr(name, "expected ints, got %s", kindName(a))
		}
		out = append(out, a.Int)
	}
	return out, nil
}

func shapeList(v []int64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// expandSizes checks a target of expand against the input's shape, as
// PyTorch's infer_size does.
func (b *bound) expandSizes(name string, x framework.Arg, size []int64) error {
	r, m := len(x.Shape), len(size)
	if m < r {
		return b.argErr(name, "the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", m, r)
	}
	for i, s := range size {
		j := i - (m - r)
		switch {
		case j < 0 && s < 0:
			return b.argErr(name, "The expanded size of the tensor (%d) isn't allowed in a leading, non-existing dimension %d", s, i)
		case j < 0, s == -1, int64(x.Shape[j]) == s, x.Shape[j] == 1 && s >= 0:
		default:
			return b.argErr(name, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
				s, x.Shape[j], i, shapeList(size), shapeList(int64s(x.Shape)))
		}
	}
	return nil
}

func expandPlan(b *bound, name string, x framework.Arg, size []int64) (*framework.Plan, error) {
	if err := b.expandSizes(name, x, size); err != nil {
		return nil, err
	}
	return newPlan("expand", ops.Attrs{"size": ops.IntsAttr(size...)}, tensorBinding(x)), nil
}

func expand(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	size, err := b.sizeArgs("size")
	if err != nil {
		return nil, err
	}
	return expandPlan(b, "size", x, size)
}

func expandAs(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	o, err := b.tensor("other")
	if err != nil {
		return nil, err
	}
	return expandPlan(b, "other", x, int64s(o.Shape))
}

func broadcastTo(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	size, err := b.intList("size", 0, true)
	if err != nil {
		return nil, err
	}
	return expandPlan(b, "size", x, size)
}

func repeatPlan(b *bound, name string, x framework.Arg, reps []int64) (*framework.Plan, error) {
	if len(reps) < len(x.Shape) {
		return nil, b.argErr(name, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	for i, n := range reps {
		if n < 0 {
			return nil, b.argErr(name, "Trying to create tensor with negative dimension: repeats[%d] = %d", i, n)
		}
	}
	return newPlan("repeat", ops.Attrs{"repeats": ops.IntsAttr(reps...)}, tensorBinding(x)), nil
}

func repeat(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	reps, err := b.sizeArgs("repeats")
	if err != nil {
		return nil, err
	}
	return repeatPlan(b, "repeats", x, reps)
}

// tile is repeat with the repetitions padded with leading 1s to the
// input's rank.
func tile(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	reps, err := b.sizeArgs("dims")
	if err != nil {
		return nil, err
	}
	for len(reps) < len(x.Shape) {
		reps = append([]int64{1}, reps...)
	}
	return repeatPlan(b, "dims", x, reps)
}

// checkDims checks a list of distinct dims (flip).
func (b *bound) checkDims(name string, dims []int64, rank int) error {
	seen := map[int]bool{}
	for _, d := range dims {
		w, err := b.wrapDim(name, d, rank)
		if err != nil {
			return err
		}
		if seen[w] {
			return b.argErr(name, "dim %d appears multiple times in the list of dims", w)
		}
		seen[w] = true
	}
	return nil
}

func flip(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	dims, err := b.sizeArgs("dims")
	if err != nil {
		return nil, err
	}
	if err := b.checkDims("dims", dims, len(x.Shape)); err != nil {
		return nil, err
	}
	return newPlan("flip", ops.Attrs{"dims": ops.IntsAttr(dims...)}, tensorBinding(x)), nil
}

// flipOne lowers fliplr (dim 1, at least 2-d) and flipud (dim 0, at least
// 1-d).
func flipOne(dim int64, minRank int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if len(x.Shape) < minRank {
			return nil, b.argErr("input", "Input must be >= %d-d.", minRank)
		}
		return newPlan("flip", ops.Attrs{"dims": ops.IntsAttr(dim)}, tensorBinding(x)), nil
	}
}

func roll(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	shifts, err := b.intList("shifts", 0, true)
	if err != nil {
		return nil, err
	}
	dims := []int64{}
	if !b.isNone("dims") {
		if dims, err = b.intList("dims", 0, true); err != nil {
			return nil, err
		}
	}
	if len(dims) == 0 && len(shifts) == 0 {
		return nil, b.argErr("shifts", "`shifts` required")
	}
	if len(dims) != len(shifts) && !(len(dims) == 0 && len(shifts) == 1) {
		return nil, b.argErr("dims", "shifts and dimensions must align. shifts: %d, dims:%d", len(shifts), len(dims))
	}
	if len(dims) > 0 && len(x.Shape) == 0 {
		return nil, b.argErr("dims", "Dimension specified as %d but tensor has no dimensions", dims[0])
	}
	for _, d := range dims {
		if _, err := b.wrapDim("dims", d, len(x.Shape)); err != nil {
			return nil, err
		}
	}
	return newPlan("roll", ops.Attrs{"shifts": ops.IntsAttr(shifts...), "dims": ops.IntsAttr(dims...)}, tensorBinding(x)), nil
}

func rot90(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	k, err := b.integer("k")
	if err != nil {
		return nil, err
	}
	dims, err := b.intList("dims", 0, false)
	if err != nil {
		return nil, err
	}
	r := int64(len(x.Shape))
	switch {
	case len(dims) != 2:
		return nil, b.argErr("dims", "expected total rotation dims == 2, but got dims = %d", len(dims))
	case r < 2:
		return nil, b.argErr("input", "expected total dims >= 2, but got total dims = %d", r)
	case dims[0] == dims[1] || abs64(dims[0]-dims[1]) == r:
		return nil, b.argErr("dims", "expected rotation dims to be different, but got dim0 = %d and dim1 = %d", dims[0], dims[1])
	case dims[0] >= r || dims[0] < -r:
		return nil, b.argErr("dims", "Rotation dim0 out of range, dim0 = %d", dims[0])
	case dims[1] >= r || dims[1] < -r:
		return nil, b.argErr("dims", "Rotation dim1 out of range, dim1 = %d", dims[1])
	}
	return newPlan("rot90", ops.Attrs{"k": ops.IntAttr(k), "dims": ops.IntsAttr(dims...)}, tensorBinding(x)), nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// narrow lowers narrow and narrow_copy to slice(dim, start, start+length).
func narrow(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("input", "narrow() cannot be applied to a 0-dim tensor.")
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	if b.arg("start").Kind == framework.ArgTensor {
		return nil, b.argErr("start", "a tensor start is not supported (its value is not in the dump)")
	}
	start, err := b.integer("start")
	if err != nil {
		return nil, err
	}
	length, err := b.integer("length")
	if err != nil {
		return nil, err
	}
	n := int64(x.Shape[dim])
	if start != n {
		if start < -n || start >= n {
			lo, hi := -n, n-1
			if n == 0 {
				lo, hi = -1, 0
			}
			return nil, b.argErr("start", "Dimension out of range (expected to be in range of [%d, %d], but got %d)", lo, hi, start)
		}
		if start < 0 {
			start += n
		}
	}
	if length < 0 || start > n-length {
		return nil, b.argErr("length", "start (%d) + length (%d) exceeds dimension size (%d).", start, length, n)
	}
	return newPlan("slice", ops.Attrs{"dim": ops.IntAttr(d), "start": ops.IntAttr(start), "end": ops.IntAttr(start + length), "step": ops.IntAttr(1)}, tensorBinding(x)), nil
}

func selectIndex(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("input", "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	idx, err := b.integer("index")
	if err != nil {
		return nil, err
	}
	if n := int64(x.Shape[dim]); idx < -n || idx >= n {
		return nil, b.argErr("index", "select(): index %d out of range for tensor of size %s at dimension %d", idx, shapeList(int64s(x.Shape)), dim)
	}
	return newPlan("select", ops.Attrs{"dim": ops.IntAttr(d), "index": ops.IntAttr(idx)}, tensorBinding(x)), nil
}

// movedim lowers movedim/moveaxis to permute, with ATen's order: the
// moved dims at their destinations, the others in their order in the
// remaining places.
func movedim(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	src, err := b.intList("source", 0, true)
	if err != nil {
		return nil, err
	}
	dst, err := b.intList("destination", 0, true)
	if err != nil {
		return nil, err
	}
	if len(src) != len(dst) {
		return nil, b.argErr("destination", "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of dims as destination (%s dims)", shapeList(src), shapeList(dst))
	}
	r := len(x.Shape)
	norm := func(name string, v []int64) ([]int, error) {
		out := make([]int, len(v))
		seen := map[int]bool{}
		for i, d := range v {
			w, err := b.wrapDim(name, d, r)
			if err != nil {
				return nil, err
			}
			out[i] = w
		}
		for _, w := range out {
			if seen[w] {
				ws := make([]int64, len(out))
				for i, o := range out {
					ws[i] = int64(o)
				}
				return nil, b.argErr(name, "movedim: repeated dim in `%s` (%s)", name, shapeList(ws))
			}
			seen[w] = true
		}
		return out, nil
	}
	s, err := norm("source", src)
	if err != nil {
		return nil, err
	}
	d, err := norm("destination", dst)
	if err != nil {
		return nil, err
	}
	if r == 0 {
		return newPlan("permute", ops.Attrs{"dims": ops.IntsAttr()}, tensorBinding(x)), nil
	}
	order := make([]int64, r)
	for i := range order {
		order[i] = -1
	}
	usedSrc := make([]bool, r)
	for i := range s {
		order[d[i]] = int64(s[i])
		usedSrc[s[i]] = true
	}
	next := 0
	for i := range order {
		if order[i] >= 0 {
			continue
		}
		for usedSrc[next] {
			next++
		}
		order[i] = int64(next)
		next++
	}
	return newPlan("permute", ops.Attrs{"dims": ops.IntsAttr(order...)}, tensorBinding(x)), nil
}

func unfold(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	d, err := b.integer("dimension")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dimension", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	size, err := b.integer("size")
	if err != nil {
		return nil, err
	}
	step, err := b.integer("step")
	if err != nil {
		return nil, err
	}
	maxSize := int64(1)
	if len(x.Shape) > 0 {
		maxSize = int64(x.Shape[dim])
	}
	switch {
	case size > maxSize:
		return nil, b.argErr("size", "maximum size for tensor at dimension %d is %d but size is %d", dim, maxSize, size)
	case step <= 0:
		return nil, b.argErr("step", "step is %d but must be > 0", step)
	case size < 0:
		return nil, b.argErr("size", "size is %d but must be >= 0", size)
	}
	return newPlan("unfold", ops.Attrs{"dimension": ops.IntAttr(d), "size": ops.IntAttr(size), "step": ops.IntAttr(step)}, tensorBinding(x)), nil
}

// diagPair checks the two plane dims of diagonal/diag_embed against rank.
func (b *bound) diagPair(n1, n2 string, rank int) (int64, int64, error) {
	d1, err := b.integer(n1)
	if err != nil {
		return 0, 0, err
	}
	d2, err := b.integer(n2)
	if err != nil {
		return 0, 0, err
	}
	w1, err := b.wrapDim(n1, d1, rank)
	if err != nil {
		return 0, 0, err
	}
	w2, err := b.wrapDim(n2, d2, rank)
	if err != nil {
		return 0, 0, err
	}
	if w1 == w2 {
		return 0, 0, b.argErr(n2, "diagonal dimensions cannot be identical %d, %d", d1, d2)
	}
	return d1, d2, nil
}

func diagonal(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	off, err := b.integer("offset")
	if err != nil {
		return nil, err
	}
	d1, d2, err := b.diagPair("dim1", "dim2", len(x.Shape))
	if err != nil {
		return nil, err
	}
	if r := len(x.Shape); b.ns == Torch && r >= 3 && !b.given["dim1"] && !b.given["dim2"] && !b.positional["offset"] && len(b.outputs) == 1 {
		// msprobe's dumper records torch.linalg.diagonal (dims −2, −1) as
		// Torch.diagonal too: the dumped output's shape tells it from
		// torch.diagonal's (dims 0, 1) where they differ
		wrap := func(d int64) int { return (int(d) + r) % r }
		got := b.outputs[0].Shape
		if !slices.Equal(got, diagonalShape(x.Shape, off, wrap(d1), wrap(d2))) && slices.Equal(got, diagonalShape(x.Shape, off, r-2, r-1)) {
			d1, d2 = -2, -1
		}
	}
	return newPlan("diagonal", ops.Attrs{"offset": ops.IntAttr(off), "dim1": ops.IntAttr(d1), "dim2": ops.IntAttr(d2)}, tensorBinding(x)), nil
}

// diagonalShape is the shape of x.diagonal(offset, d1, d2): the other
// dims, then the diagonal's length.
func diagonalShape(shape []int, off int64, d1, d2 int) []int {
	var out []int
	for i, n := range shape {
		if i != d1 && i != d2 {
			out = append(out, n)
		}
	}
	n1, n2 := int64(shape[d1]), int64(shape[d2])
	var l int64
	if off >= 0 {
		l = max(0, min(n1, n2-off))
	} else {
		l = max(0, min(n1+off, n2))
	}
	return append(out, int(l))
}

func diagEmbed(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	off, err := b.integer("offset")
	if err != nil {
		return nil, err
	}
	d1, d2, err := b.diagPair("dim1", "dim2", len(x.Shape)+1)
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 { // dims wrap against rank 1: they collide
		return nil, b.argErr("input", "diag_embed of a 0-d tensor")
	}
	return newPlan("diag_embed", ops.Attrs{"offset": ops.IntAttr(off), "dim1": ops.IntAttr(d1), "dim2": ops.IntAttr(d2)}, tensorBinding(x)), nil
}

// diag lowers torch.diag: a vector goes on a diagonal of a matrix
// (diag_embed), a matrix gives its diagonal (diagonal).
func diag(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	off, err := b.integer("diagonal")
	if err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"offset": ops.IntAttr(off), "dim1": ops.IntAttr(0), "dim2": ops.IntAttr(1)}
	switch len(x.Shape) {
	case 1:
		return newPlan("diag_embed", attrs, tensorBinding(x)), nil
	case 2:
		return newPlan("diagonal", attrs, tensorBinding(x)), nil
	}
	return nil, b.argErr("input", "matrix or a vector expected")
}

func diagflat(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	off, err := b.integer("offset")
	if err != nil {
		return nil, err
	}
	return newPlan("diagflat", ops.Attrs{"offset": ops.IntAttr(off)}, tensorBinding(x)), nil
}

func unbind(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("input", "Dimension specified as %d but tensor has no dimensions", d)
	}
	if _, err := b.wrapDim("dim", d, len(x.Shape)); err != nil {
		return nil, err
	}
	return newPlan("unbind", ops.Attrs{"dim": ops.IntAttr(d)}, tensorBinding(x)), nil
}

// dirSplit lowers hsplit (dim 1, or 0 for a 1-d tensor), vsplit (dim 0)
// and dsplit (dim 2) onto split_with_sizes: an int splits into that many
// equal parts, which must divide the dimension; a list of indices splits
// as tensor_split does.
func dirSplit(api string, minRank int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
		if err != nil {
			return nil, err
		}
		if len(x.Shape) < minRank {
			return nil, b.argErr("input", "torch.%s requires a tensor with at least %d dimension, but got a tensor with %d dimensions!", api, minRank, len(x.Shape))
		}
		dim := map[string]int{"hsplit": 1, "vsplit": 0, "dsplit": 2}[api]
		if api == "hsplit" && len(x.Shape) == 1 {
			dim = 0
		}
		n := int64(x.Shape[dim])
		a := b.arg("indices_or_sections")
		plan := func(sizes []int64) *framework.Plan {
			return newPlan("split_with_sizes", ops.Attrs{"split_sizes": ops.IntsAttr(sizes...), "dim": ops.IntAttr(int64(dim))}, tensorBinding(x))
		}
		if a.Kind == framework.ArgInt && len(b.variadic) == 0 {
			sections := a.Int
			if sections == 0 || n%sections != 0 {
				return nil, b.argErr("indices_or_sections", "torch.%s attempted to split along dimension %d, but the size of the dimension %d is not divisible by the split_size %d!", api, dim, n, sections)
			}
			if sections < 0 {
				return nil, b.argErr("indices_or_sections", "number of sections must be larger than 0, got %d", sections)
			}
			sizes := make([]int64, sections)
			for i := range sizes {
				sizes[i] = n / sections
			}
			return plan(sizes), nil
		}
		idx, err := b.sizeArgs("indices_or_sections")
		if err != nil {
			return nil, err
		}
		return plan(splitAtIndices(n, idx)), nil
	}
}

// splitAtIndices is tensor_split's sizes for split indices, clamped to the
// dimension of size n.
func splitAtIndices(n int64, idx []int64) []int64 {
	var sizes []int64
	start := int64(0)
	for _, v := range idx {
		if v < 0 {
			v += n
		}
		end := max(max(0, min(v, n)), start)
		sizes = append(sizes, end-start)
		start = end
	}
	return append(sizes, n-start)
}

// listArg reads the tensors of a *tensors parameter: several tensors, or
// one list or tuple of them.
func (b *bound) listArg() ([]framework.Arg, error) {
	elems := b.variadic
	if len(elems) == 1 && elems[0].Kind == framework.ArgList {
		elems = elems[0].Elems
	}
	for i, e := range elems {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr("tensors", "element %d: expected tensor, got %s", i, kindName(e))
		}
	}
	return elems, nil
}

// atLeast lowers atleast_1d/2d/3d of one tensor onto reshape; of several
// tensors (a tuple result) the call is refused.
func atLeast(n int) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		ts, err := b.listArg()
		if err != nil {
			return nil, err
		}
		if len(ts) != 1 || len(b.variadic) != 1 || b.variadic[0].Kind == framework.ArgList {
			return nil, b.argErr("tensors", "only a single tensor is supported (several tensors give a tuple)")
		}
		x := ts[0]
		s := int64s(x.Shape)
		switch {
		case len(s) >= n:
		case len(s) == 0:
			s = []int64{1, 1, 1}[:n]
		case len(s) == 1 && n == 2:
			s = []int64{1, s[0]}
		case len(s) == 1:
			s = []int64{1, s[0], 1}
		default:
			s = []int64{s[0], s[1], 1}
		}
		return reshapePlan(x, s), nil
	}
}

// tensorList lowers the APIs whose op takes the tensors as its variadic
// input: broadcast_tensors(*tensors) and the stack family (a list).
func tensorList(op, api string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		var ts []framework.Arg
		if op == "broadcast_tensors" {
			var err error
			if ts, err = b.listArg(); err != nil {
				return nil, err
			}
			if len(ts) == 0 {
				return nil, b.argErr("tensors", "broadcast_tensors of no tensors is not supported (an empty tuple)")
			}
		} else {
			list := b.arg("tensors")
			if list.Kind != framework.ArgList {
				return nil, b.argErr("tensors", "expected a list of tensors, got %s", kindName(list))
			}
			if len(list.Elems) == 0 {
				return nil, b.argErr("tensors", "%s expects a non-empty TensorList", api)
			}
			for i, e := range list.Elems {
				if e.Kind != framework.ArgTensor || e.Path == "" {
					return nil, b.argErr("tensors", "element %d: expected tensor, got %s", i, kindName(e))
				}
			}
			ts = list.Elems
		}
		in := make([]framework.Binding, len(ts))
		for i, t := range ts {
			in[i] = tensorBinding(t)
		}
		return newPlan(op, nil, in...), nil
	}
}

// nonEmptyRank is a tensor's rank with a 0-d tensor counted as 1-d.
func nonEmptyRank(a framework.Arg) int { return max(len(a.Shape), 1) }

func gather(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	index, err := b.tensor("index")
	if err != nil {
		return nil, err
	}
	if _, err := b.boolean("sparse_grad"); err != nil {
		return nil, err
	}
	if index.DType != tensor.Int64 {
		return nil, b.argErr("index", "gather(): Expected dtype int64 for index")
	}
	if nonEmptyRank(index) != nonEmptyRank(x) {
		return nil, b.argErr("index", "Index tensor must have the same number of dimensions as input tensor")
	}
	for i := range index.Shape {
		if i != dim && len(x.Shape) > 0 && index.Shape[i] > x.Shape[i] {
			return nil, b.argErr("index", "Size does not match at dimension %d expected index %s to be smaller than self %s apart from dimension %d",
				i, shapeList(int64s(index.Shape)), shapeList(int64s(x.Shape)), dim)
		}
	}
	return newPlan("gather", ops.Attrs{"dim": ops.IntAttr(d)}, tensorBinding(x), tensorBinding(index)), nil
}

func indexSelect(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	d, err := b.dimOf("dim", x)
	if err != nil {
		return nil, err
	}
	index, err := b.tensor("index")
	if err != nil {
		return nil, err
	}
	if len(index.Shape) > 1 {
		return nil, b.argErr("index", "index_select(): Index is supposed to be a vector")
	}
	if index.DType != tensor.Int64 && index.DType != tensor.Int32 {
		return nil, b.argErr("index", "index_select(): Expected dtype int32 or int64 for index")
	}
	return newPlan("index_select", ops.Attrs{"dim": ops.IntAttr(d)}, tensorBinding(x), tensorBinding(index)), nil
}
