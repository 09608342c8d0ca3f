package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// MindSpore APIs of msprobe's MindSpore lists (mindspore-precheck.md
// Appendices A and B) that have no PyTorch lowering of the same name:
// mint.ones/zeros and mint.trace, and the Tensor methods to, copy_ and
// zero_ — and the Tensor methods whose MindSpore signature PyTorch's rule
// cannot take (all, any) — lowered with MindSpore's signatures and defaults. They live apart
// from the PyTorch rules so that the PyTorch plugin's API set (and run_ut's
// black list for Tensor.to) does not change.

type msAPIRule struct {
	sig *signature
	fn  lowerFunc
	ns  Namespace
	ops []string
}

var msAPIs = map[string]*msAPIRule{}

// defMindSpore registers fn under the MindSpore entries ("Mint.ones",
// "Tensor.zero_") with the MindSpore signature sig; ops are the canonical
// ops of a plain call (the support table's).
func defMindSpore(fn lowerFunc, sig string, ops []string, entries ...string) {
	for _, e := range entries {
		if _, dup := msAPIs[e]; dup {
			panic("lower: duplicate MindSpore rule " + e)
		}
		ns := Torch
		if prefix, _, _ := strings.Cut(e, "."); prefix == "Tensor" {
			ns = TensorMethod
		}
		msAPIs[e] = &msAPIRule{sig: mustSig(sig), fn: fn, ns: ns, ops: ops}
	}
}

func init() {
	// mindspore.mint.ones(size, dtype=None) / zeros: size an int or a
	// tuple of ints; dtype None is mindspore.float32.
	defMindSpore(msConstant(1), "size, dtype=None", []string{"full"}, "Mint.ones")
	defMindSpore(msConstant(0), "size, dtype=None", []string{"full"}, "Mint.zeros")
	// mindspore.mint.trace(input): the sum of a matrix's diagonal.
	defMindSpore(msTrace, "input", []string{"einsum"}, "Mint.trace")
	// mindspore.Tensor.to(dtype): a cast.
	defMindSpore(msTo, "input, dtype, non_blocking=False, copy=False", []string{"cast"}, "Tensor.to")
	// mindspore.Tensor.copy_(src, non_blocking=False): src broadcast to
	// self's shape and cast to self's dtype.
	defMindSpore(msCopy, "input, src, non_blocking=False", []string{"cast", "expand"}, "Tensor.copy_")
	// mindspore.Tensor.zero_(): self filled with zeros.
	defMindSpore(msZero, "input", []string{"fill"}, "Tensor.zero_")
	// mindspore.Tensor.all/any(axis=None, keep_dims=False): axis None or
	// () reduces every axis, a tuple several; keep_dims applies either way
	// (PyTorch 1.13's all(dim) takes one int). The plugin maps axis and
	// keep_dims onto dim and keepdim.
	defMindSpore(msAllAny("all"), "input, dim=None, keepdim=False", []string{"all"}, "Tensor.all")
	defMindSpore(msAllAny("any"), "input, dim=None, keepdim=False", []string{"any"}, "Tensor.any")
}

// msAllAny lowers MindSpore's Tensor.all / any.
func msAllAny(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		x, err := b.tensor("input")
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
		return newPlan(op, ops.Attrs{"dim": dim, "keepdim": ops.BoolAttr(keep)}, tensorBinding(x)), nil
	}
}

// MindSporeAPIs lists the MindSpore-only entries ("Mint.ones", ...)
// MindSporeLower lowers, sorted.
func MindSporeAPIs() []string { return sortedKeys(msAPIs) }

// MindSporeOpsOf returns the canonical ops of a plain call of a
// MindSpore-only entry ("Mint.ones"); nil when it is not one.
func MindSporeOpsOf(api string) []string {
	if r, ok := msAPIs[api]; ok {
		return slices.Clone(r.ops)
	}
	return nil
}

// MindSporeLower lowers c as the MindSpore-only entry api ("Mint.ones");
// ok is false when api is not one. c.Namespace and c.Name are ignored.
func MindSporeLower(api string, c *Call) (l *Lowered, ok bool, err error) {
	r, ok := msAPIs[api]
	if !ok {
		return nil, false, nil
	}
	defer func() {
		if p := recover(); p != nil {
			l, err = nil, fmt.Errorf("%s: internal error while planning: %v", c.API, p)
		}
	}()
	_, name, _ := strings.Cut(api, ".")
	b := &bound{api: c.API, name: name, ns: r.ns, compat: c.Compat, outputs: c.Outputs}
	if err := r.sig.bind(b, c.Args, c.Kwargs, c.KwargAliases); err != nil {
		return nil, true, err
	}
	p, err := r.fn(b)
	if err != nil {
		return nil, true, err
	}
	if err := complete(p); err != nil {
		return nil, true, fmt.Errorf("%s: internal error: %v", c.API, err)
	}
	if err := CheckPlan(p); err != nil {
		return nil, true, fmt.Errorf("%s: internal error: %v", c.API, err)
	}
	return &Lowered{Plan: p, MultiOutput: b.multi}, true, nil
}

// msConstant lowers mint.ones / mint.zeros: a tensor of size filled with
// v, of dtype (mindspore.float32 when None).
func msConstant(v int64) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		var size []int64
		switch a := b.arg("size"); a.Kind {
		case framework.ArgInt:
			size = []int64{a.Int}
		default:
			s, ok := asInts(a)
			if !ok {
				return nil, b.argErr("size", "expected int or tuple of ints, got %s", describeList(a))
			}
			size = s
		}
		for _, n := range size {
			if n < 0 {
				return nil, b.argErr("size", "each dimension of size must be non-negative, got %s", intsString(size))
			}
		}
		dt, err := b.dtypeAttr("dtype")
		if err != nil {
			return nil, err
		}
		if dt.Kind == ops.AttrNone {
			dt = ops.StringAttr(tensor.Float32.String())
		}
		return newPlan("full", ops.Attrs{"size": ops.IntsAttr(size...), "dtype": dt}, scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: v})), nil
	}
}

// msTrace lowers mint.trace(input) as einsum("ii->"): a square float32,
// float64 or int64 matrix (PyTorch's CPU trace has no float16, bfloat16
// or bool kernel; it sums smaller integers into int64, which einsum does
// not).
func msTrace(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if len(x.Shape) != 2 {
		return nil, b.errf("trace: expected a matrix, but got tensor with dim %d", len(x.Shape))
	}
	switch x.DType {
	case tensor.Float16, tensor.BFloat16, tensor.Bool:
		return nil, b.errf("%q not implemented for '%s'", "trace", ops.TypeName(x.DType))
	case tensor.Float32, tensor.Float64, tensor.Int64:
	default:
		return nil, b.errf("probe checks trace of float32, float64 and int64 matrices, got %s (PyTorch sums it into int64)", ops.TypeName(x.DType))
	}
	if x.Shape[0] != x.Shape[1] {
		return nil, b.errf("probe checks trace of square matrices (as einsum \"ii->\"), got shape %s", intsString(int64s(x.Shape)))
	}
	return newPlan("einsum", ops.Attrs{"equation": ops.StringAttr("ii->")}, tensorBinding(x)), nil
}

// msTo lowers mindspore.Tensor.to(dtype): self cast to dtype.
func msTo(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	if k := b.arg("dtype").Kind; k != framework.ArgDType && k != framework.ArgString {
		return nil, b.argErr("dtype", "expected dtype, got %s", kindName(b.arg("dtype")))
	}
	dt, err := b.dtypeAttr("dtype")
	if err != nil {
		return nil, err
	}
	return newPlan("cast", ops.Attrs{"dtype": dt}, tensorBinding(x)), nil
}

// msCopy lowers Tensor.copy_(src): src of self's shape cast to self's
// dtype, or src of self's dtype broadcast to self's shape.
func msCopy(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	src, err := b.tensor("src")
	if err != nil {
		return nil, err
	}
	if slices.Equal(src.Shape, x.Shape) {
		return castPlan(src, x.DType), nil
	}
	if err := b.expandSizes("src", src, int64s(x.Shape)); err != nil {
		return nil, b.argErr("src", "output with shape %s doesn't match the broadcast shape %s", intsString(int64s(x.Shape)), intsString(int64s(src.Shape)))
	}
	if src.DType != x.DType {
		return nil, b.argErr("src", "probe checks copy_ from a source of self's shape, or of self's dtype (a broadcast), got %s %s into %s %s",
			ops.TypeName(src.DType), intsString(int64s(src.Shape)), ops.TypeName(x.DType), intsString(int64s(x.Shape)))
	}
	return newPlan("expand", ops.Attrs{"size": ops.IntsAttr(int64s(x.Shape)...)}, tensorBinding(src)), nil
}

// msZero lowers Tensor.zero_(): self filled with 0.
func msZero(b *bound) (*framework.Plan, error) {
	x, err := b.tensor("input")
	if err != nil {
		return nil, err
	}
	return newPlan("fill", ops.Attrs{}, tensorBinding(x), scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: 0})), nil
}
