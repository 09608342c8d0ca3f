package lower

import (
	"slices"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The rest of the indexing APIs: masked_select, masked_scatter, take,
// take_along_dim, index_put, put, Tensor.__setitem__ with tensor keys,
// nonzero, argwhere, repeat_interleave, searchsorted, bucketize. What
// the sizes and dtypes alone decide is refused here with PyTorch's
// message; the kernels check what the values decide (the number of true
// mask elements against source's size).

func init() {
	def(maskedSelect, "input, mask, *, out=None", "Torch.masked_select", "Tensor.masked_select")
	def(maskedScatter, "input, mask, source", "Torch.masked_scatter", "Tensor.masked_scatter", "Tensor.masked_scatter_")

	def(take, "input, index, *, out=None", "Torch.take", "Tensor.take")
	def(takeAlongDim, "input, indices, dim=None, *, out=None", "Torch.take_along_dim", "Tensor.take_along_dim")

	def(indexPut, "input, indices, values, accumulate=False", "Torch.index_put", "Torch.index_put_", "Tensor.index_put", "Tensor.index_put_")
	def(setItem, "input, key, value", "Tensor.__setitem__")
	def(nonzero, "input, *, out=None, as_tuple=False", "Torch.nonzero", "Tensor.nonzero")
	def(nonzero, "input", "Torch.argwhere", "Tensor.argwhere")
	def(repeatInterleave, "input, repeats=None, dim=None, *, output_size=None", "Torch.repeat_interleave", "Tensor.repeat_interleave")
	def(put, "input, index, source, accumulate=False", "Torch.put", "Tensor.put", "Tensor.put_")

	// their repeats are an int or a vector, which OpsOf's samples lack
	declareOps([]string{"repeat_interleave"}, "Torch.repeat_interleave", "Tensor.repeat_interleave")
	// its indices are a tuple of tensors, which OpsOf's samples lack
	declareOps([]string{"index_put", "setitem"}, "Tensor.__setitem__")
	declareOps([]string{"index_put"}, "Torch.index_put", "Torch.index_put_", "Tensor.index_put", "Tensor.index_put_")

	usedOps = append(usedOps, "masked_select", "masked_scatter", "take", "take_along_dim", "index_put", "put", "nonzero", "repeat_interleave", "setitem")
}

// boolMask binds a mask: bool, or uint8 (deprecated in PyTorch 1.13,
// still accepted). PyTorch 1.13's masked_scatter takes integer masks of 0s
// and 1s and misreads float masks; probe refuses both.
func (b *bound) boolMask(api string) (framework.Arg, error) {
	m, err := b.tensor("mask")
	if err != nil {
		return m, err
	}
	switch {
	case m.DType == tensor.Bool || m.DType == tensor.Uint8:
		return m, nil
	case api == "masked_select":
		return m, b.argErr("mask", "masked_select: expected BoolTensor or ByteTensor for mask")
	case m.DType.IsFloat():
		return m, b.argErr("mask", "%s only supports boolean masks, but got mask with dtype %s", api, ops.TypeName(m.DType))
	}
	return m, b.argErr("mask", "%s with a mask of dtype %s (deprecated; only 0 and 1 values) is not supported", api, ops.TypeName(m.DType))
}

func maskedSelect(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	m, err := b.boolMask("masked_select")
	if err != nil {
		return nil, err
	}
	if _, err := ops.BroadcastShapes(m.Shape, x.Shape); err != nil {
		return nil, b.argErr("mask", "%v", err)
	}
	return newPlan("masked_select", nil, tensorBinding(x), tensorBinding(m)), nil
}

func maskedScatter(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	m, err := b.boolMask("masked_scatter_")
	if err != nil {
		return nil, err
	}
	src, err := b.tensor("source")
	if err != nil {
		return nil, err
	}
	if src.DType != x.DType {
		return nil, b.argErr("source", "masked_scatter: expected self and source to have same dtypes but got%s and %s", ops.TypeName(x.DType), ops.TypeName(src.DType))
	}
	attrs := b.inplaceAttr(ops.Attrs{})
	if attrs.Bool("inplace", false) {
		// masked_scatter_ expands the mask to self's shape
		if err := b.expandSizes("mask", m, int64s(x.Shape)); err != nil {
			return nil, err
		}
	}
	if _, err := ops.BroadcastShapes(m.Shape, x.Shape); err != nil {
		return nil, b.argErr("mask", "%v", err)
	}
	return newPlan("masked_scatter", attrs, tensorBinding(x), tensorBinding(m), tensorBinding(src)), nil
}

func take(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	index, err := b.tensor("index")
	if err != nil {
		return nil, err
	}
	if index.DType != tensor.Int64 {
		return nil, b.argErr("index", "take(): Expected a long tensor for index, but got %s", ops.TypeName(index.DType))
	}
	if tensor.NumElements(x.Shape) == 0 && tensor.NumElements(index.Shape) > 0 {
		return nil, b.argErr("input", "take(): tried to take from an empty tensor")
	}
	return newPlan("take", nil, tensorBinding(x), tensorBinding(index)), nil
}

func takeAlongDim(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	ind, err := b.tensor("indices")
	if err != nil {
		return nil, err
	}
	if b.isNone("dim") {
		if ind.DType != tensor.Int64 {
			return nil, b.argErr("indices", "gather(): Expected dtype int64 for index")
		}
		return newPlan("take_along_dim", ops.Attrs{"dim": ops.NoneAttr()}, tensorBinding(x), tensorBinding(ind)), nil
	}
	d, err := b.integer("dim")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != len(ind.Shape) {
		return nil, b.argErr("indices", "torch.take_along_dim(): input and indices should have the same number of dimensions, but got %d dimensions for input, and %d dimensions for indices",
			len(x.Shape), len(ind.Shape))
	}
	if ind.DType != tensor.Int64 {
		return nil, b.argErr("indices", "torch.take_along_dim(): dtype of indices should be Long but got %s", ops.TypeName(ind.DType))
	}
	if len(x.Shape) == 0 {
		return nil, b.argErr("dim", "Dimension specified as %d but tensor has no dimensions", d)
	}
	dim, err := b.wrapDim("dim", d, len(x.Shape))
	if err != nil {
		return nil, err
	}
	sizes := append([]int{}, x.Shape...)
	sizes[dim] = ind.Shape[dim]
	if _, err := ops.BroadcastShapes(sizes, ind.Shape); err != nil {
		return nil, b.argErr("indices", "%v", err)
	}
	return newPlan("take_along_dim", ops.Attrs{"dim": ops.IntAttr(d)}, tensorBinding(x), tensorBinding(ind)), nil
}

// indexPutShapes checks the indices and values of index_put against self
// as ATen does, as far as the sizes decide: bool/uint8 indices stand for
// as many dimensions as their rank and must match self's sizes there;
// with only integer indices the indexing result's shape is known and
// values must broadcast to it.
func (b *bound) indexPutShapes(name string, x framework.Arg, indices []framework.Arg, values framework.Arg) error {
	dims := 0
	masks := false
	var shapes [][]int
	for _, ix := range indices {
		switch ix.DType {
		case tensor.Int64:
			dims++
			shapes = append(shapes, ix.Shape)
		case tensor.Bool, tensor.Uint8:
			masks = true
			for j, s := range ix.Shape {
				if dims+j < len(x.Shape) && x.Shape[dims+j] != s {
					return b.argErr(name, "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d",
						shapeList(int64s(ix.Shape)), j, shapeList(int64s(x.Shape)), dims+j)
				}
			}
			dims += len(ix.Shape)
		default:
			return b.argErr(name, "tensors used as indices must be long, byte or bool tensors")
		}
	}
	if dims > len(x.Shape) {
		return b.argErr(name, "too many indices for tensor of dimension %d (got %d)", len(x.Shape), dims)
	}
	bs, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		parts := make([]string, len(shapes))
		for i, s := range shapes {
			parts[i] = shapeList(int64s(s))
		}
		return b.argErr(name, "shape mismatch: indexing tensors could not be broadcast together with shapes %s", strings.Join(parts, ", "))
	}
	if masks {
		return nil
	}
	res := append(append([]int{}, bs...), x.Shape[dims:]...)
	if sh, err := ops.BroadcastShapes(values.Shape, res); err != nil || !slices.Equal(sh, res) {
		vname := "values"
		if name == "key" {
			vname = "value"
		}
		return b.argErr(vname, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
			shapeList(int64s(values.Shape)), shapeList(int64s(res)))
	}
	return nil
}

func indexPut(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	list := b.arg("indices")
	if list.Kind != framework.ArgList {
		return nil, b.argErr("indices", "expected a tuple of tensors, got %s", kindName(list))
	}
	if len(list.Elems) == 0 {
		return nil, b.argErr("indices", "strides() called on an undefined Tensor")
	}
	var in []framework.Binding
	for i, e := range list.Elems {
		if e.Kind != framework.ArgTensor || e.Path == "" {
			return nil, b.argErr("indices", "expected Tensor as element %d in argument 1, but got %s", i, kindName(e))
		}
		in = append(in, tensorBinding(e))
	}
	values, err := b.tensor("values")
	if err != nil {
		return nil, err
	}
	if values.DType != x.DType {
		return nil, b.argErr("values", "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.",
			ops.TypeName(x.DType), ops.TypeName(values.DType))
	}
	if err := b.indexPutShapes("indices", x, list.Elems, values); err != nil {
		return nil, err
	}
	acc, err := b.boolean("accumulate")
	if err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"accumulate": ops.BoolAttr(acc)})
	return newPlan("index_put", attrs, append([]framework.Binding{tensorBinding(x), tensorBinding(values)}, in...)...), nil
}

func put(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	index, err := b.tensor("index")
	if err != nil {
		return nil, err
	}
	source, err := b.tensor("source")
	if err != nil {
		return nil, err
	}
	if index.DType != tensor.Int64 {
		return nil, b.argErr("index", "put_(): Expected a long tensor for index, but got %s", ops.TypeName(index.DType))
	}
	if source.DType != x.DType {
		return nil, b.argErr("source", "put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s",
			ops.TypeName(x.DType), ops.TypeName(source.DType))
	}
	ni, ns := tensor.NumElements(index.Shape), tensor.NumElements(source.Shape)
	if ni != ns {
		return nil, b.argErr("source", "put_(): Expected source and index to have the same number of elements, but got source.numel() = %d, index.numel() = %d", ns, ni)
	}
	if tensor.NumElements(x.Shape) == 0 && ni > 0 {
		return nil, b.argErr("input", "put_(): Tried to put elements into an empty tensor")
	}
	acc, err := b.boolean("accumulate")
	if err != nil {
		return nil, err
	}
	attrs := b.inplaceAttr(ops.Attrs{"accumulate": ops.BoolAttr(acc)})
	return newPlan("put", attrs, tensorBinding(x), tensorBinding(index), tensorBinding(source)), nil
}

// setItem lowers self[key] = value (msprobe dumps self, the key and the
// value; the call returns None, so run_ut compares nothing) to an in-place
// index_put whose output is self as written. Keys probe checks: an int64,
// bool or uint8 tensor, or a tuple of them (advanced indexing); values: a
// number, or a tensor of self's dtype.
func setItem(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	key := b.arg("key")
	var keys []framework.Arg
	switch key.Kind {
	case framework.ArgTensor:
		keys = []framework.Arg{key}
	case framework.ArgList:
		keys = key.Elems
	case framework.ArgInt, framework.ArgSlice, framework.ArgNone, framework.ArgEllipsis:
		keys = []framework.Arg{key}
	default:
		return nil, b.argErr("key", "an index of kind %s is not supported (only tensors, ints, slices, None, Ellipsis and tuples of them)", kindName(key))
	}
	if len(keys) == 0 {
		return nil, b.argErr("key", "an empty index tuple is not supported")
	}
	tensors := 0
	for _, k := range keys {
		if k.Kind == framework.ArgTensor {
			tensors++
		}
	}
	if tensors == 0 {
		return setItemBasic(b, x, keys)
	}
	var in []framework.Binding
	for _, k := range keys {
		if k.Kind != framework.ArgTensor || k.Path == "" {
			return nil, b.argErr("key", "a key mixing index tensors with a %s is not supported (only all-tensor or all-basic keys)", kindName(k))
		}
		switch k.DType {
		case tensor.Int64, tensor.Bool, tensor.Uint8:
		default:
			return nil, b.argErr("key", "tensors used as indices must be long, byte or bool tensors")
		}
		in = append(in, tensorBinding(k))
	}
	value, vi, err := b.operand("value")
	if err != nil {
		return nil, err
	}
	if vi.isTensor {
		v := b.arg("value")
		if v.DType != x.DType {
			return nil, b.argErr("value", "a value of dtype %s for a tensor of dtype %s (cast by __setitem__) is not supported", ops.TypeName(v.DType), ops.TypeName(x.DType))
		}
		if err := b.indexPutShapes("key", x, keys, v); err != nil {
			return nil, err
		}
	} else if err := b.indexPutShapes("key", x, keys, framework.Arg{Kind: framework.ArgTensor}); err != nil {
		return nil, err
	}
	attrs := ops.Attrs{"accumulate": ops.BoolAttr(false), "inplace": ops.BoolAttr(true)}
	return newPlan("index_put", attrs, append([]framework.Binding{tensorBinding(x), value}, in...)...), nil
}

// setItemBasic lowers self[key] = value for a basic key (ints, slices,
// None, Ellipsis; a dumped list counts as the tuple of a subscript
// x[a, b]) to setitem on the strided view the key selects, checked as
// PyTorch's basic indexing checks it.
func setItemBasic(b *bound, x framework.Arg, keys []framework.Arg) (*framework.Plan, error) {
	consumed, ellipses := 0, 0
	for _, k := range keys {
		switch k.Kind {
		case framework.ArgInt, framework.ArgSlice:
			consumed++
		case framework.ArgEllipsis:
			ellipses++
		case framework.ArgNone:
		default:
			return nil, b.argErr("key", "an index of kind %s is not supported (only tensors, ints, slices, None, Ellipsis and tuples of them)", kindName(k))
		}
	}
	if ellipses > 1 {
		return nil, b.argErr("key", "an index can only have a single ellipsis ('...')")
	}
	rank := len(x.Shape)
	if consumed > rank {
		return nil, b.argErr("key", "too many indices for tensor of dimension %d", rank)
	}
	strides := make([]int64, rank)
	st := int64(1)
	for d := rank - 1; d >= 0; d-- {
		strides[d] = st
		st *= int64(x.Shape[d])
	}
	var sizes, vstrides []int64
	offset, d := int64(0), 0
	for _, k := range keys {
		switch k.Kind {
		case framework.ArgNone:
			sizes, vstrides = append(sizes, 1), append(vstrides, 0)
		case framework.ArgEllipsis:
			for n := rank - consumed; n > 0; n-- {
				sizes, vstrides = append(sizes, int64(x.Shape[d])), append(vstrides, strides[d])
				d++
			}
		case framework.ArgInt:
			n, i := int64(x.Shape[d]), k.Int
			if i < -n || i >= n {
				return nil, b.argErr("key", "index %d is out of bounds for dimension %d with size %d", i, d, n)
			}
			if i < 0 {
				i += n
			}
			offset += i * strides[d]
			d++
		case framework.ArgSlice:
			n := int64(x.Shape[d])
			var part [3]*int64
			for j, e := range k.Elems {
				if j >= 3 {
					break
				}
				switch e.Kind {
				case framework.ArgNone:
				case framework.ArgInt:
					v := e.Int
					part[j] = &v
				default:
					return nil, b.argErr("key", "slice indices must be integers or None or have an __index__ method")
				}
			}
			step := int64(1)
			if part[2] != nil {
				step = *part[2]
			}
			if step <= 0 {
				return nil, b.argErr("key", "step must be greater than zero")
			}
			start, end := int64(0), n
			if part[0] != nil {
				start = *part[0]
				if start < 0 {
					start += n
				}
			}
			if part[1] != nil {
				end = *part[1]
				if end < 0 {
					end += n
				}
			}
			start = max(0, min(start, n))
			end = max(start, min(end, n))
			offset += start * strides[d]
			sizes, vstrides = append(sizes, (end-start+step-1)/step), append(vstrides, strides[d]*step)
			d++
		}
	}
	for ; d < rank; d++ {
		sizes, vstrides = append(sizes, int64(x.Shape[d])), append(vstrides, strides[d])
	}
	value, vi, err := b.operand("value")
	if err != nil {
		return nil, err
	}
	if vi.isTensor {
		v := b.arg("value")
		res := make([]int, len(sizes))
		for i, s := range sizes {
			res[i] = int(s)
		}
		if sh, err := ops.BroadcastShapes(v.Shape, res); err != nil || !slices.Equal(sh, res) {
			return nil, b.argErr("value", "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
				shapeList(int64s(v.Shape)), shapeList(sizes))
		}
	}
	attrs := ops.Attrs{"offset": ops.IntAttr(offset), "sizes": ops.IntsAttr(sizes...), "strides": ops.IntsAttr(vstrides...)}
	return newPlan("setitem", attrs, tensorBinding(x), value), nil
}

func nonzero(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if _, ok := b.vals["as_tuple"]; ok {
		tuple, err := b.boolean("as_tuple")
		if err != nil {
			return nil, err
		}
		if tuple {
			return nil, b.argErr("as_tuple", "nonzero(as_tuple=True) (a tuple of index vectors) is not supported")
		}
	}
	return newPlan("nonzero", nil, tensorBinding(x)), nil
}

func repeatInterleave(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if b.isNone("repeats") {
		return nil, b.argErr("repeats", "torch.repeat_interleave(repeats) with one argument is not supported")
	}
	if !b.isNone("output_size") {
		return nil, b.argErr("output_size", "output_size is not supported")
	}
	var reps framework.Binding
	switch r := b.arg("repeats"); r.Kind {
	case framework.ArgInt:
		if r.Int < 0 {
			return nil, b.argErr("repeats", "repeats can not be negative")
		}
		reps = scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: r.Int})
	case framework.ArgTensor:
		t, err := b.tensor("repeats")
		if err != nil {
			return nil, err
		}
		if len(t.Shape) > 1 {
			return nil, b.argErr("repeats", "repeats must be 0-dim or 1-dim tensor")
		}
		if t.DType != tensor.Int64 && t.DType != tensor.Int32 {
			return nil, b.argErr("repeats", "\"repeat_interleave_cpu\" not implemented for '%s'", ops.TypeName(t.DType))
		}
		reps = tensorBinding(t)
	default:
		return nil, b.argErr("repeats", "expected int or tensor, got %s", kindName(r))
	}
	attrs := ops.Attrs{"dim": ops.NoneAttr()}
	n := tensor.NumElements(x.Shape)
	if !b.isNone("dim") {
		d, err := b.integer("dim")
		if err != nil {
			return nil, err
		}
		if len(x.Shape) == 0 {
			return nil, b.argErr("dim", "Dimension specified as %d but tensor has no dimensions", d)
		}
		dim, err := b.wrapDim("dim", d, len(x.Shape))
		if err != nil {
			return nil, err
		}
		n = x.Shape[dim]
		attrs["dim"] = ops.IntAttr(d)
	}
	if r := b.arg("repeats"); r.Kind == framework.ArgTensor {
		if m := tensor.NumElements(r.Shape); m != 1 && m != n {
			return nil, b.argErr("repeats", "repeats must have the same size as input along dim")
		}
	}
	return newPlan("repeat_interleave", attrs, tensorBinding(x), reps), nil
}
