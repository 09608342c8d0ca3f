package cpu

import (
	"fmt"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The linalg family: matrix products beyond matmul/mm/bmm/addmm (addmv,
// addr, baddbmm, addbmm, outer, ...). Every product goes through nnGemm.
// Integer tensors are exact in float64 below 2^53; the integer multipliers
// beta and alpha are truncated as PyTorch converts them to the tensor's type.

func init() {
	register("addmv", &kernel{forward: addmvForward, backward: addmvBackward})
	register("addr", &kernel{forward: addrForward, backward: addrBackward})
	register("baddbmm", &kernel{forward: baddbmmForward, backward: baddbmmBackward})
	register("addbmm", &kernel{forward: addbmmForward, backward: addbmmBackward})
	register("outer", &kernel{forward: outerForward, backward: outerBackward})
	for _, op := range []string{"addmv", "baddbmm", "addbmm"} {
		supportDTypes(op, nnNumericDTypes...)
	}
	for _, op := range []string{"addr", "outer"} {
		supportDTypes(op, append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	}
}

// laMetaName is how PyTorch's "Bad in-place call" messages print a dtype
// (caffe2's TypeMeta names).
func laMetaName(d tensor.DType) string {
	switch d {
	case tensor.Float64:
		return "double"
	case tensor.Float32:
		return "float"
	case tensor.Float16:
		return "c10::Half"
	case tensor.BFloat16:
		return "c10::BFloat16"
	case tensor.Int64:
		return "long int"
	case tensor.Int32:
		return "int"
	case tensor.Int16:
		return "short int"
	case tensor.Int8:
		return "signed char"
	case tensor.Uint8:
		return "unsigned char"
	case tensor.Bool:
		return "bool"
	}
	return d.String()
}

// laBadInplace is the check of PyTorch's out= kernels used by the in-place
// addmv_ and baddbmm_: self must have the result's shape and dtype.
func laBadInplace(self *array, shape []int, dt tensor.DType) error {
	if !slices.Equal(self.shape, shape) {
		return fmt.Errorf("Bad in-place call: input tensor size %s and output tensor size %s should match", ops.ShapeList(self.shape), ops.ShapeList(shape))
	}
	if self.dtype != dt {
		return fmt.Errorf("Bad in-place call: input tensor dtype %s and output tensor dtype %s should match", laMetaName(self.dtype), laMetaName(dt))
	}
	return nil
}

// laAddScaled adds beta*s (s broadcast to shape out) to dst; beta == 0
// ignores s (NaN included).
func laAddScaled(dst []float64, s *array, out []int, beta float64, dt tensor.DType) {
	if beta == 0 {
		return
	}
	conv := func(v float64) float64 { return v }
	if !dt.IsFloat() && s.dtype != dt {
		// PyTorch converts self to an integer result dtype first.
		conv = func(v float64) float64 { return roundTo(dt, v) }
	}
	if s.len() == 1 {
		v := beta * conv(s.data[0])
		for i := range dst {
			dst[i] += v
		}
		return
	}
	for k, j := range nnBroadcastIndex(s.shape, out) {
		dst[k] += beta * conv(s.data[j])
	}
}

// laScale multiplies x by v in place (v == 1 leaves it).
func laScale(x []float64, v float64) {
	if v == 1 {
		return
	}
	for i := range x {
		x[i] *= v
	}
}

// laSelfGrad is the gradient of beta*self: beta*g summed to self's shape.
func laSelfGrad(g []float64, out []int, self *array, beta float64) *array {
	gs := sumToShape(g, out, self.shape) // always a new slice
	laScale(gs, beta)
	return &array{shape: append([]int{}, self.shape...), data: gs, dtype: self.dtype}
}

// laNeed3 returns the three tensor inputs.
func laNeed3(c *call, names ...string) ([3]*array, error) {
	var in [3]*array
	for i, n := range names {
		a, err := nnNeed(c, i, n)
		if err != nil {
			return in, err
		}
		in[i] = a
	}
	return in, nil
}

// ---- addmv

type laAddmvPlan struct {
	n, k        int
	dt          tensor.DType
	beta, alpha float64
}

func laAddmvSetup(c *call) (*laAddmvPlan, [3]*array, error) {
	in, err := laNeed3(c, "self", "mat", "vec")
	if err != nil {
		return nil, in, err
	}
	s, m, v := in[0], in[1], in[2]
	if len(m.shape) != 2 || len(v.shape) != 1 || len(s.shape) > 1 {
		return nil, in, fmt.Errorf("vector + matrix @ vector expected, got %d, %d, %d", len(s.shape), len(m.shape), len(v.shape))
	}
	n, k := m.shape[0], m.shape[1]
	sn := n
	if s.len() != 1 && len(s.shape) == 1 {
		sn = s.shape[0]
	}
	if k != v.shape[0] || sn != n {
		return nil, in, fmt.Errorf("size mismatch, got %d, %dx%d,%d", sn, n, k, v.shape[0])
	}
	if m.dtype != v.dtype {
		return nil, in, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(m.dtype), ops.TypeName(v.dtype))
	}
	if _, err := nnNumeric("addmv_impl_cpu", m); err != nil {
		return nil, in, err
	}
	if c.attrs.Bool("inplace", false) {
		if err := laBadInplace(s, []int{n}, m.dtype); err != nil {
			return nil, in, err
		}
	}
	return &laAddmvPlan{n: n, k: k, dt: m.dtype, beta: nnIntScale(c.attrs.Float("beta", 1), m.dtype),
		alpha: nnIntScale(c.attrs.Float("alpha", 1), m.dtype)}, in, nil
}

func addmvForward(c *call) ([]*array, error) {
	pl, in, err := laAddmvSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew([]int{pl.n}, pl.dt)
	if pl.alpha != 0 {
		nnGemm(false, false, pl.n, 1, pl.k, in[1].data, in[2].data, out.data, false)
		laScale(out.data, pl.alpha)
	}
	laAddScaled(out.data, in[0], out.shape, pl.beta, pl.dt)
	return []*array{out}, nil
}

func addmvBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, in, err := laAddmvSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, 3)
	if g == nil {
		return grads, nil
	}
	if nnWantsGrad(c, 0) {
		grads[0] = laSelfGrad(g.data, []int{pl.n}, in[0], pl.beta)
	}
	if gm := nnGradFor(c, 1); gm != nil {
		nnGemm(false, false, pl.n, pl.k, 1, g.data, in[2].data, gm.data, false)
		laScale(gm.data, pl.alpha)
		grads[1] = gm
	}
	if gv := nnGradFor(c, 2); gv != nil {
		nnGemm(true, false, pl.k, 1, pl.n, in[1].data, g.data, gv.data, false)
		laScale(gv.data, pl.alpha)
		grads[2] = gv
	}
	return grads, nil
}

// ---- addr and outer

// laVec1D checks that a is a 1-d vector argument of op.
func laVec1D(op, name string, a *array) error {
	if len(a.shape) != 1 {
		return fmt.Errorf("%s: Expected 1-D argument %s, but got %d-D", op, name, len(a.shape))
	}
	return nil
}

// laOuterInto writes alpha*x⊗y into dst (n×m), or its logical form for a
// bool result.
func laOuterInto(dst, x, y []float64, alpha float64, dt tensor.DType) {
	m := len(y)
	for i, xv := range x {
		row := dst[i*m : (i+1)*m]
		if dt == tensor.Bool {
			for j, yv := range y {
				if alpha != 0 && xv != 0 && yv != 0 {
					row[j] = 1
				}
			}
			continue
		}
		a := alpha * xv
		for j, yv := range y {
			row[j] += a * yv
		}
	}
}

// laWrapInts wraps integer results into their dtype (C++ integer overflow).
func laWrapInts(out *array) {
	if out.dtype.IsInt() {
		for i, v := range out.data {
			out.data[i] = wrapInt(out.dtype, v)
		}
	}
}

type laAddrPlan struct {
	shape       []int
	dt          tensor.DType
	beta, alpha float64
}

func laAddrSetup(c *call) (*laAddrPlan, [3]*array, error) {
	in, err := laNeed3(c, "self", "vec1", "vec2")
	if err != nil {
		return nil, in, err
	}
	s, v1, v2 := in[0], in[1], in[2]
	if err := laVec1D("addr", "vec1", v1); err != nil {
		return nil, in, err
	}
	if err := laVec1D("addr", "vec2", v2); err != nil {
		return nil, in, err
	}
	shape := []int{v1.shape[0], v2.shape[0]}
	if c.attrs.Bool("inplace", false) {
		if !slices.Equal(s.shape, shape) {
			return nil, in, fmt.Errorf("size mismatch, input: %s, v1: %s, v2: %s", ops.ShapeList(s.shape), ops.ShapeList(v1.shape), ops.ShapeList(v2.shape))
		}
	} else if err := nnExpandCheck(s.shape, shape); err != nil {
		return nil, in, err
	}
	dt := nnPromote(s, v1, v2) // self is expanded first: no 0-d exception
	return &laAddrPlan{shape: shape, dt: dt, beta: nnIntScale(c.attrs.Float("beta", 1), dt), alpha: nnIntScale(c.attrs.Float("alpha", 1), dt)}, in, nil
}

func addrForward(c *call) ([]*array, error) {
	pl, in, err := laAddrSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.shape, pl.dt)
	if pl.dt == tensor.Bool {
		if pl.beta != 0 {
			for k, j := range nnBroadcastIndex(in[0].shape, pl.shape) {
				if in[0].data[j] != 0 {
					out.data[k] = 1
				}
			}
		}
		laOuterInto(out.data, in[1].data, in[2].data, pl.alpha, pl.dt)
		return []*array{out}, nil
	}
	laOuterInto(out.data, in[1].data, in[2].data, pl.alpha, pl.dt)
	laAddScaled(out.data, in[0], pl.shape, pl.beta, pl.dt)
	laWrapInts(out)
	return []*array{out}, nil
}

func addrBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, in, err := laAddrSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, 3)
	if g == nil {
		return grads, nil
	}
	n, m := pl.shape[0], pl.shape[1]
	if nnWantsGrad(c, 0) {
		grads[0] = laSelfGrad(g.data, pl.shape, in[0], pl.beta)
	}
	if g1 := nnGradFor(c, 1); g1 != nil {
		nnGemm(false, false, n, 1, m, g.data, in[2].data, g1.data, false)
		laScale(g1.data, pl.alpha)
		grads[1] = g1
	}
	if g2 := nnGradFor(c, 2); g2 != nil {
		nnGemm(true, false, m, 1, n, g.data, in[1].data, g2.data, false)
		laScale(g2.data, pl.alpha)
		grads[2] = g2
	}
	return grads, nil
}

func laOuterSetup(c *call) (*array, *array, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, err
	}
	y, err := nnNeed(c, 1, "vec2")
	if err != nil {
		return nil, nil, err
	}
	if err := laVec1D("outer", "self", x); err != nil {
		return nil, nil, err
	}
	if err := laVec1D("outer", "vec2", y); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func outerForward(c *call) ([]*array, error) {
	x, y, err := laOuterSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew([]int{x.shape[0], y.shape[0]}, resultType(x, y))
	laOuterInto(out.data, x.data, y.data, 1, out.dtype)
	laWrapInts(out)
	return []*array{out}, nil
}

func outerBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	x, y, err := laOuterSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, 2)
	if g == nil {
		return grads, nil
	}
	n, m := x.shape[0], y.shape[0]
	if gx := nnGradFor(c, 0); gx != nil {
		nnGemm(false, false, n, 1, m, g.data, y.data, gx.data, false)
		grads[0] = gx
	}
	if gy := nnGradFor(c, 1); gy != nil {
		nnGemm(true, false, m, 1, n, g.data, x.data, gy.data, false)
		grads[1] = gy
	}
	return grads, nil
}

// ---- baddbmm and addbmm

type laBatchPlan struct {
	bs, n, k, p int
	shape       []int // result shape
	dt          tensor.DType
	beta, alpha float64
}

// laBatchShapes makes baddbmm's and addbmm's checks in PyTorch's order:
// the result shape is read from batch1's first dims and batch2's last
// (an index error on too few dims), self must expand to it, then both
// batches must be 3-d.
func laBatchShapes(s, b1, b2 *array, batched, inplace bool) ([]int, error) {
	dimErr := func(a *array, d int) error {
		r := max(len(a.shape), 1)
		return fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, d)
	}
	if len(b1.shape) < 2 {
		return nil, dimErr(b1, 1)
	}
	if len(b2.shape) < 3 {
		return nil, dimErr(b2, 2)
	}
	shape := []int{b1.shape[1], b2.shape[2]}
	if batched {
		shape = []int{b1.shape[0], b1.shape[1], b2.shape[2]}
	}
	if !inplace {
		if err := nnExpandCheck(s.shape, shape); err != nil {
			return nil, err
		}
	}
	if len(b1.shape) != 3 {
		return nil, fmt.Errorf("batch1 must be a 3D tensor")
	}
	if len(b2.shape) != 3 {
		return nil, fmt.Errorf("batch2 must be a 3D tensor")
	}
	return shape, nil
}

func laBaddbmmSetup(c *call) (*laBatchPlan, [3]*array, error) {
	in, err := laNeed3(c, "self", "batch1", "batch2")
	if err != nil {
		return nil, in, err
	}
	s, b1, b2 := in[0], in[1], in[2]
	inplace := c.attrs.Bool("inplace", false)
	shape, err := laBatchShapes(s, b1, b2, true, inplace)
	if err != nil {
		return nil, in, err
	}
	bs, n, k, p := b1.shape[0], b1.shape[1], b1.shape[2], b2.shape[2]
	if b2.shape[0] != bs || b2.shape[1] != k {
		return nil, in, fmt.Errorf("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", bs, k, b2.shape[0], b2.shape[1])
	}
	if b1.dtype != b2.dtype {
		return nil, in, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(b1.dtype), ops.TypeName(b2.dtype))
	}
	if _, err := nnNumeric("baddbmm", b1); err != nil {
		return nil, in, err
	}
	if inplace {
		if err := laBadInplace(s, shape, b1.dtype); err != nil {
			return nil, in, err
		}
	}
	return &laBatchPlan{bs: bs, n: n, k: k, p: p, shape: shape, dt: b1.dtype,
		beta: nnIntScale(c.attrs.Float("beta", 1), b1.dtype), alpha: nnIntScale(c.attrs.Float("alpha", 1), b1.dtype)}, in, nil
}

func baddbmmForward(c *call) ([]*array, error) {
	pl, in, err := laBaddbmmSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.shape, pl.dt)
	n, k, p := pl.n, pl.k, pl.p
	for b := 0; b < pl.bs; b++ {
		nnGemm(false, false, n, p, k, in[1].data[b*n*k:], in[2].data[b*k*p:], out.data[b*n*p:], false)
	}
	laScale(out.data, pl.alpha) // alpha == 0 keeps NaN products, as PyTorch
	laAddScaled(out.data, in[0], pl.shape, pl.beta, pl.dt)
	laWrapInts(out)
	return []*array{out}, nil
}

// laBatchGrads returns the gradients of alpha*(b1[b] @ b2[b]) for batch
// gradients g (one n×p block per batch, or one shared block when shared).
func laBatchGrads(c *call, pl *laBatchPlan, b1, b2, g []float64, shared bool) (g1, g2 *array) {
	n, k, p := pl.n, pl.k, pl.p
	gb := func(b int) []float64 {
		if shared {
			return g
		}
		return g[b*n*p:]
	}
	if g1 = nnGradFor(c, 1); g1 != nil {
		for b := 0; b < pl.bs; b++ {
			nnGemm(false, true, n, k, p, gb(b), b2[b*k*p:], g1.data[b*n*k:], false)
		}
		laScale(g1.data, pl.alpha)
	}
	if g2 = nnGradFor(c, 2); g2 != nil {
		for b := 0; b < pl.bs; b++ {
			nnGemm(true, false, k, p, n, b1[b*n*k:], gb(b), g2.data[b*k*p:], false)
		}
		laScale(g2.data, pl.alpha)
	}
	return g1, g2
}

func baddbmmBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, in, err := laBaddbmmSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, 3)
	if g == nil {
		return grads, nil
	}
	if nnWantsGrad(c, 0) {
		grads[0] = laSelfGrad(g.data, pl.shape, in[0], pl.beta)
	}
	grads[1], grads[2] = laBatchGrads(c, pl, in[1].data, in[2].data, g.data, false)
	return grads, nil
}

func laAddbmmSetup(c *call) (*laBatchPlan, [3]*array, error) {
	in, err := laNeed3(c, "self", "batch1", "batch2")
	if err != nil {
		return nil, in, err
	}
	s, b1, b2 := in[0], in[1], in[2]
	inplace := c.attrs.Bool("inplace", false)
	shape, err := laBatchShapes(s, b1, b2, false, inplace)
	if err != nil {
		return nil, in, err
	}
	if b1.shape[0] != b2.shape[0] {
		return nil, in, fmt.Errorf("batch1 and batch2 must have same number of batches, got %d and %d", b1.shape[0], b2.shape[0])
	}
	if b1.shape[2] != b2.shape[1] {
		return nil, in, fmt.Errorf("Incompatible matrix sizes for bmm (%dx%d and %dx%d)", b1.shape[1], b1.shape[2], b2.shape[1], b2.shape[2])
	}
	if b1.dtype != b2.dtype {
		return nil, in, fmt.Errorf("mat1 and mat2 must have the same dtype")
	}
	if s.dtype != b2.dtype {
		return nil, in, fmt.Errorf("self and mat2 must have the same dtype")
	}
	if _, err := nnNumeric("addmm_impl_cpu_", b1); err != nil {
		return nil, in, err
	}
	if inplace && !slices.Equal(s.shape, shape) {
		return nil, in, fmt.Errorf("output with shape %s doesn't match the broadcast shape %s", ops.ShapeList(s.shape), ops.ShapeList(shape))
	}
	dt := b1.dtype
	return &laBatchPlan{bs: b1.shape[0], n: shape[0], k: b1.shape[2], p: shape[1], shape: shape, dt: dt,
		beta: nnIntScale(c.attrs.Float("beta", 1), dt), alpha: nnIntScale(c.attrs.Float("alpha", 1), dt)}, in, nil
}

func addbmmForward(c *call) ([]*array, error) {
	pl, in, err := laAddbmmSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.shape, pl.dt)
	n, k, p := pl.n, pl.k, pl.p
	if pl.alpha != 0 {
		for b := 0; b < pl.bs; b++ {
			nnGemm(false, false, n, p, k, in[1].data[b*n*k:], in[2].data[b*k*p:], out.data, b > 0)
		}
		laScale(out.data, pl.alpha)
	}
	laAddScaled(out.data, in[0], pl.shape, pl.beta, pl.dt)
	laWrapInts(out)
	return []*array{out}, nil
}

func addbmmBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, in, err := laAddbmmSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, 3)
	if g == nil {
		return grads, nil
	}
	if nnWantsGrad(c, 0) {
		grads[0] = laSelfGrad(g.data, pl.shape, in[0], pl.beta)
	}
	grads[1], grads[2] = laBatchGrads(c, pl, in[1].data, in[2].data, g.data, true)
	return grads, nil
}
