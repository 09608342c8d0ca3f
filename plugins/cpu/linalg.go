package cpu

import (
	"errors"
	"fmt"
	"math"
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
	register("baddbmm", &kernel{forward: baddbmmForward, backward: laBatchBackward(laBaddbmmSetup, false)})
	register("addbmm", &kernel{forward: addbmmForward, backward: laBatchBackward(laAddbmmSetup, true)})
	register("outer", &kernel{forward: outerForward, backward: outerBackward})
	register("kron", &kernel{forward: kronForward, backward: kronBackward})
	register("tensordot", &kernel{forward: tensordotForward, backward: tensordotBackward})
	register("multi_dot", &kernel{forward: multiDotForward, backward: multiDotBackward})
	register("vecdot", &kernel{forward: vecdotForward, backward: vecdotBackward})
	register("matrix_power", &kernel{forward: matrixPowerForward, backward: matrixPowerBackward})
	register("cross", &kernel{forward: crossForward, backward: crossBackward})
	supportDTypes("cross", append(append([]tensor.DType{}, floatDTypes...), tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8)...)
	register("dist", &kernel{forward: distForward, backward: distBackward})
	register("diff", &kernel{forward: diffForward, backward: diffBackward})
	supportDTypes("diff", append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	register("vander", &kernel{forward: vanderForward, backward: vanderBackward})
	supportDTypes("vander", append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	register("block_diag", &kernel{forward: blockDiagForward, backward: blockDiagBackward})
	supportDTypes("block_diag", append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	register("det", &kernel{forward: detForward("det"), backward: detBackward("det")})
	register("logdet", &kernel{forward: detForward("logdet"), backward: detBackward("logdet")})
	register("slogdet", &kernel{forward: detForward("slogdet"), backward: detBackward("slogdet")})
	supportDTypes("logdet", tensor.Float64, tensor.Float32)
	supportDTypes("slogdet", tensor.Float64, tensor.Float32)
	for _, op := range []string{"addmv", "baddbmm", "addbmm", "tensordot", "multi_dot"} {
		supportDTypes(op, nnNumericDTypes...)
	}
	for _, op := range []string{"addr", "outer", "kron", "matrix_power"} {
		supportDTypes(op, append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	}
}

// laBadInplace is the check of PyTorch's out= kernels used by the in-place
// addmv_ and baddbmm_: self must have the result's shape and dtype.
func laBadInplace(self *array, shape []int, dt tensor.DType) error {
	if !slices.Equal(self.shape, shape) {
		return fmt.Errorf("Bad in-place call: input tensor size %s and output tensor size %s should match", ops.ShapeList(self.shape), ops.ShapeList(shape))
	}
	if self.dtype != dt {
		return fmt.Errorf("Bad in-place call: input tensor dtype %s and output tensor dtype %s should match", self.dtype.CppName(), dt.CppName())
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
	if narrowDT(self.dtype) && beta != 1 {
		// maybe_multiply(grad, beta) rounds before the sum to self's shape
		gb := append([]float64(nil), g...)
		narrowScale(gb, beta)
		return &array{shape: append([]int{}, self.shape...), data: sumToShape(gb, out, self.shape), dtype: self.dtype}
	}
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
	if narrowDT(pl.dt) && in[0].dtype == pl.dt && pl.n*pl.k <= narrowOneDNN {
		if pl.beta != 0 {
			narrowFill(out.data, in[0], out.shape)
		}
		narrowGemv(false, pl.n, pl.k, in[1].data, in[2].data, out.data, pl.beta, pl.alpha)
		return []*array{out}, nil
	}
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
		if narrowDT(pl.dt) {
			narrowOuterScaled(gm.data, g.data, in[2].data, pl.alpha)
		} else {
			nnGemm(false, false, pl.n, pl.k, 1, g.data, in[2].data, gm.data, false)
			laScale(gm.data, pl.alpha)
		}
		grads[1] = gm
	}
	if gv := nnGradFor(c, 2); gv != nil {
		if narrowDT(pl.dt) && narrowGemv(true, pl.k, pl.n, in[1].data, g.data, gv.data, 0, 1) {
			narrowScale(gv.data, pl.alpha)
		} else {
			nnGemm(true, false, pl.k, 1, pl.n, in[1].data, g.data, gv.data, false)
			laScale(gv.data, pl.alpha)
		}
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
	if narrowDT(pl.dt) {
		narrowAddr(out.data, in[0], in[1].data, in[2].data, pl.beta, pl.alpha)
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
		if narrowDT(pl.dt) && narrowGemv(false, n, m, g.data, in[2].data, g1.data, 0, 1) {
			narrowScale(g1.data, pl.alpha)
		} else {
			nnGemm(false, false, n, 1, m, g.data, in[2].data, g1.data, false)
			laScale(g1.data, pl.alpha)
		}
		grads[1] = g1
	}
	if g2 := nnGradFor(c, 2); g2 != nil {
		if narrowDT(pl.dt) && narrowGemv(true, m, n, g.data, in[1].data, g2.data, 0, 1) {
			narrowScale(g2.data, pl.alpha)
		} else {
			nnGemm(true, false, m, 1, n, g.data, in[1].data, g2.data, false)
			laScale(g2.data, pl.alpha)
		}
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
	if narrowDT(x.dtype) && y.dtype == x.dtype {
		gx, gy := nnGradFor(c, 0), nnGradFor(c, 1)
		narrowOuterGrads(g.data, x.data, y.data, dataOf(gx), dataOf(gy))
		return []*array{gx, gy}, nil
	}
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
	if narrowDT(pl.dt) && in[0].dtype == pl.dt {
		if pl.beta != 0 {
			narrowFill(out.data, in[0], pl.shape)
		}
		if narrowBmm(false, false, pl.bs, n, p, k, in[1].data, in[2].data, batchOffsets(pl.bs, n*k), batchOffsets(pl.bs, k*p), out.data, pl.beta, pl.alpha) {
			return []*array{out}, nil
		}
	}
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
	if narrowDT(pl.dt) {
		gOff := batchOffsets(pl.bs, n*p)
		if shared {
			gOff = make([]int, pl.bs)
		}
		g1, g2 = nnGradFor(c, 1), nnGradFor(c, 2)
		doneA := g1 == nil || narrowBmm(false, true, pl.bs, n, k, p, g, b2, gOff, batchOffsets(pl.bs, k*p), g1.data, 0, 1)
		doneB := g2 == nil || narrowBmm(true, false, pl.bs, k, p, n, b1, g, batchOffsets(pl.bs, n*k), gOff, g2.data, 0, 1)
		if doneA && doneB {
			if g1 != nil {
				narrowScale(g1.data, pl.alpha)
			}
			if g2 != nil {
				narrowScale(g2.data, pl.alpha)
			}
			return g1, g2
		}
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

// laBatchBackward is the backward of baddbmm and addbmm (setup reads their
// plan; shared: addbmm's one output for every batch): self's gradient
// scaled by beta, the batches' by alpha.
func laBatchBackward(setup func(*call) (*laBatchPlan, [3]*array, error), shared bool) func(c *call, outs, gradOuts []*array) ([]*array, error) {
	return func(c *call, outs, gradOuts []*array) ([]*array, error) {
		pl, in, err := setup(c)
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
		grads[1], grads[2] = laBatchGrads(c, pl, in[1].data, in[2].data, g.data, shared)
		return grads, nil
	}
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
	if narrowDT(pl.dt) && pl.bs > 0 && n*k*p <= narrowOneDNN {
		// addbmm_: self copied into the result, then addmm_ per batch
		// (beta for the first only).
		if pl.beta != 0 {
			narrowFill(out.data, in[0], pl.shape)
		}
		beta := pl.beta
		for b := 0; b < pl.bs; b++ {
			narrowGemm(false, false, n, p, k, in[1].data[b*n*k:], in[2].data[b*k*p:], out.data, beta, pl.alpha)
			beta = 1
		}
		return []*array{out}, nil
	}
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

// ---- kron

// laKronPlan maps every output element of kron(a, b) to its two factors;
// the lower-rank input gets leading 1s.
type laKronPlan struct {
	shape      []int
	aIdx, bIdx []int
}

func laKronSetup(c *call) (*laKronPlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := nnNeed(c, 1, "other")
	if err != nil {
		return nil, nil, nil, err
	}
	nd := max(len(a.shape), len(b.shape))
	pad := func(s []int) []int {
		out := make([]int, nd)
		for i := range out {
			out[i] = 1
		}
		copy(out[nd-len(s):], s)
		return out
	}
	sa, sb := pad(a.shape), pad(b.shape)
	shape := make([]int, nd)
	for i := range shape {
		shape[i] = sa[i] * sb[i]
	}
	n := tensor.NumElements(shape)
	pl := &laKronPlan{shape: shape, aIdx: make([]int, n), bIdx: make([]int, n)}
	stA, stB := contiguousStrides(sa), contiguousStrides(sb)
	idx := make([]int, nd)
	for k := 0; k < n; k++ {
		ia, ib := 0, 0
		for d := 0; d < nd; d++ {
			ia += idx[d] / sb[d] * stA[d]
			ib += idx[d] % sb[d] * stB[d]
		}
		pl.aIdx[k], pl.bIdx[k] = ia, ib
		for d := nd - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return pl, a, b, nil
}

func kronForward(c *call) ([]*array, error) {
	pl, a, b, err := laKronSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.shape, nnPromote(a, b))
	for k := range out.data {
		out.data[k] = a.data[pl.aIdx[k]] * b.data[pl.bIdx[k]]
	}
	if out.dtype == tensor.Bool {
		for k, v := range out.data {
			if v != 0 {
				out.data[k] = 1
			}
		}
	}
	laWrapInts(out)
	return []*array{out}, nil
}

func kronBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, b, err := laKronSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if g != nil && narrowDT(a.dtype) && b.dtype == a.dtype {
		sizes, redA, redB := laKronDims(a, b)
		if ga != nil {
			narrowKronGrad(ga.data, g.data, b.data, pl.aIdx, pl.bIdx, sizes, redA)
		}
		if gb != nil {
			narrowKronGrad(gb.data, g.data, a.data, pl.bIdx, pl.aIdx, sizes, redB)
		}
		return []*array{ga, gb}, nil
	}
	if g != nil {
		for k, gv := range g.data {
			if ga != nil {
				ga.data[pl.aIdx[k]] += gv * b.data[pl.bIdx[k]]
			}
			if gb != nil {
				gb.data[pl.bIdx[k]] += gv * a.data[pl.aIdx[k]]
			}
		}
	}
	return []*array{ga, gb}, nil
}

// ---- tensordot

// laTensordotPlan contracts self (gathered as an m×k matrix: free dims,
// then the contracted ones) with other (k×p: contracted dims, then free);
// a contracted dim of size 1 against a longer one broadcasts, as PyTorch
// sums the other side over it.
type laTensordotPlan struct {
	m, k, p    int
	shape      []int
	aIdx, bIdx []int // source offset of every gathered element
	// the permutations gathered (free dims then contracted for self,
	// contracted then free for other) and whether a contracted dim
	// broadcasts, for the bfloat16 layouts (narrowTensordot)
	orderA, orderB []int
	nFree          int
	bcast          bool
}

// laGather returns, for the permutation order of dims of a tensor of
// shape s read with sizes sizes (a size-1 dim of s read as a longer one
// repeats), the source offset of every element in row-major order.
func laGather(s []int, order, sizes []int) []int {
	st := contiguousStrides(s)
	n := tensor.NumElements(sizes)
	out := make([]int, n)
	idx := make([]int, len(order))
	for k := 0; k < n; k++ {
		off := 0
		for i, d := range order {
			if s[d] != 1 {
				off += idx[i] * st[d]
			}
		}
		out[k] = off
		for i := len(order) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < sizes[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

func laTensordotSetup(c *call) (*laTensordotPlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := nnNeed(c, 1, "other")
	if err != nil {
		return nil, nil, nil, err
	}
	da, db := c.attrs.Ints("dims_self", nil), c.attrs.Ints("dims_other", nil)
	if len(da) != len(db) {
		return nil, nil, nil, fmt.Errorf("both dimension lists should have same length")
	}
	ca, cb := make([]int, len(da)), make([]int, len(db))
	csize := make([]int, len(da))
	for i := range da {
		if ca[i], err = normDim(da[i], len(a.shape)); err != nil {
			return nil, nil, nil, err
		}
		if cb[i], err = normDim(db[i], len(b.shape)); err != nil {
			return nil, nil, nil, err
		}
		s1, s2 := laDimSize(a, ca[i]), laDimSize(b, cb[i])
		if s1 != s2 && s1 != 1 && s2 != 1 {
			return nil, nil, nil, fmt.Errorf("contracted dimensions need to match, but first has size %d in dim %d and second has size %d in dim %d", s1, da[i], s2, db[i])
		}
		csize[i] = max(s1, s2)
		if s1 == 0 || s2 == 0 {
			csize[i] = 0
		}
	}
	for _, cs := range [][]int{ca, cb} {
		seen := map[int]bool{}
		for _, d := range cs {
			if seen[d] {
				return nil, nil, nil, fmt.Errorf("dim %d appears multiple times in the list of dims", d)
			}
			seen[d] = true
		}
	}
	if a.dtype != b.dtype {
		return nil, nil, nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(a.dtype), ops.TypeName(b.dtype))
	}
	if _, err := nnNumeric("addmm_impl_cpu_", a); err != nil {
		return nil, nil, nil, err
	}
	free := func(x *array, con []int) []int {
		var f []int
		for d := range x.shape {
			if !slices.Contains(con, d) {
				f = append(f, d)
			}
		}
		return f
	}
	fa, fb := free(a, ca), free(b, cb)
	pl := &laTensordotPlan{m: 1, k: 1, p: 1, shape: []int{}}
	var orderA, sizesA, orderB, sizesB []int
	for _, d := range fa {
		orderA, sizesA = append(orderA, d), append(sizesA, a.shape[d])
		pl.m *= a.shape[d]
		pl.shape = append(pl.shape, a.shape[d])
	}
	for i, d := range ca {
		orderA, sizesA = append(orderA, d), append(sizesA, csize[i])
		orderB, sizesB = append(orderB, cb[i]), append(sizesB, csize[i])
		pl.k *= csize[i]
	}
	for _, d := range fb {
		orderB, sizesB = append(orderB, d), append(sizesB, b.shape[d])
		pl.p *= b.shape[d]
		pl.shape = append(pl.shape, b.shape[d])
	}
	pl.aIdx = laGather(a.shape, orderA, sizesA)
	pl.bIdx = laGather(b.shape, orderB, sizesB)
	pl.orderA, pl.orderB, pl.nFree = orderA, orderB, len(fa)
	for i := range ca {
		pl.bcast = pl.bcast || laDimSize(a, ca[i]) != laDimSize(b, cb[i])
	}
	return pl, a, b, nil
}

// laDimSize is the size of dim d (a 0-d tensor's dim 0 has size 1).
func laDimSize(a *array, d int) int {
	if len(a.shape) == 0 {
		return 1
	}
	return a.shape[d]
}

func laTake(src []float64, idx []int) []float64 {
	out := float64sFor(len(idx))
	for i, j := range idx {
		out[i] = src[j]
	}
	return out
}

func tensordotForward(c *call) ([]*array, error) {
	pl, a, b, err := laTensordotSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.shape, a.dtype)
	if narrowDT(a.dtype) && !pl.bcast && narrowTensordot(pl, a, b, out.data) {
		return []*array{out}, nil
	}
	nnGemm(false, false, pl.m, pl.p, pl.k, laTake(a.data, pl.aIdx), laTake(b.data, pl.bIdx), out.data, false)
	laWrapInts(out)
	return []*array{out}, nil
}

func tensordotBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, b, err := laTensordotSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{ga, gb}, nil
	}
	if narrowDT(a.dtype) && !pl.bcast && narrowTensordotGrads(pl, a, b, g.data, dataOf(ga), dataOf(gb)) {
		return []*array{ga, gb}, nil
	}
	if ga != nil {
		buf := zeros(pl.m * pl.k)
		nnGemm(false, true, pl.m, pl.k, pl.p, g.data, laTake(b.data, pl.bIdx), buf, false)
		for i, j := range pl.aIdx {
			ga.data[j] += buf[i]
		}
	}
	if gb != nil {
		buf := zeros(pl.k * pl.p)
		nnGemm(true, false, pl.k, pl.p, pl.m, laTake(a.data, pl.aIdx), g.data, buf, false)
		for i, j := range pl.bIdx {
			gb.data[j] += buf[i]
		}
	}
	return []*array{ga, gb}, nil
}

// ---- multi_dot

// laMultiDotSetup checks the chain and returns the matrices' (rows, cols),
// a 1-d first tensor read as a row and a 1-d last one as a column, and the
// result shape.
func laMultiDotSetup(c *call) ([][2]int, []int, error) {
	n := len(c.in)
	if n < 2 {
		return nil, nil, fmt.Errorf("multi_dot(): expected at least 2 tensors but got %d", n)
	}
	for i, t := range c.in {
		if t == nil {
			return nil, nil, fmt.Errorf("multi_dot(): tensor %d is None", i)
		}
	}
	first, last := c.in[0], c.in[n-1]
	if r := len(first.shape); r != 1 && r != 2 {
		return nil, nil, fmt.Errorf("multi_dot(): the first tensor must be 1D or 2D but got %dD", r)
	}
	for i := 1; i < n-1; i++ {
		if r := len(c.in[i].shape); r != 2 {
			return nil, nil, fmt.Errorf("multi_dot(): tensor %d must be 2D but got %dD", i, r)
		}
	}
	if r := len(last.shape); r != 1 && r != 2 {
		return nil, nil, fmt.Errorf("multi_dot(): the last tensor must be 1D or 2D but got %dD", r)
	}
	for i, t := range c.in {
		if t.dtype != first.dtype {
			return nil, nil, fmt.Errorf("multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and tensor %d %s", first.dtype.CppName(), i, t.dtype.CppName())
		}
	}
	dims := make([][2]int, n)
	for i, t := range c.in {
		switch {
		case len(t.shape) == 2:
			dims[i] = [2]int{t.shape[0], t.shape[1]}
		case i == 0:
			dims[i] = [2]int{1, t.shape[0]}
		default:
			dims[i] = [2]int{t.shape[0], 1}
		}
	}
	for i := 0; i+1 < n; i++ {
		if dims[i][1] != dims[i+1][0] {
			return nil, nil, fmt.Errorf("multi_dot(): tensors %d and %d with shapes %s and %s cannot be multiplied", i, i+1, ops.ShapeList(c.in[i].shape), ops.ShapeList(c.in[i+1].shape))
		}
	}
	if _, err := nnNumeric("addmm_impl_cpu_", first); err != nil {
		return nil, nil, err
	}
	var shape []int
	if len(first.shape) == 2 {
		shape = append(shape, dims[0][0])
	}
	if len(last.shape) == 2 {
		shape = append(shape, dims[n-1][1])
	}
	return dims, shape, nil
}

// laChain multiplies matrices from..to-1 of the chain (nil for an empty
// range: the identity) and returns the product and its rows.
func laChain(c *call, dims [][2]int, from, to int) []float64 {
	if from >= to {
		return nil
	}
	acc := c.in[from].data
	rows, cols := dims[from][0], dims[from][1]
	for i := from + 1; i < to; i++ {
		p := dims[i][1]
		next := zeros(rows * p)
		nnGemm(false, false, rows, p, cols, acc, c.in[i].data, next, false)
		acc, cols = next, p
	}
	return acc
}

func multiDotForward(c *call) ([]*array, error) {
	dims, shape, err := laMultiDotSetup(c)
	if err != nil {
		return nil, err
	}
	if narrowDT(c.in[0].dtype) {
		ch, top := narrowMultiDot(c, dims)
		return []*array{{shape: shape, data: ch.vals[top], dtype: c.in[0].dtype}}, nil
	}
	prod := laChain(c, dims, 0, len(c.in))
	out := &array{shape: shape, data: append(zeros(0), prod...), dtype: c.in[0].dtype}
	laWrapInts(out)
	return []*array{out}, nil
}

func multiDotBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	dims, _, err := laMultiDotSetup(c)
	if err != nil {
		return nil, err
	}
	n := len(c.in)
	grads := make([]*array, n)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return grads, nil
	}
	if narrowDT(c.in[0].dtype) {
		ch, top := narrowMultiDot(c, dims)
		gs := ch.backward(top, g.data)
		for i := range c.in {
			if gi := nnGradFor(c, i); gi != nil {
				gi.data = gs[i]
				grads[i] = gi
			}
		}
		return grads, nil
	}
	r0, cn := dims[0][0], dims[n-1][1]
	for i := range c.in {
		gi := nnGradFor(c, i)
		if gi == nil {
			continue
		}
		// d(L·Mi·R) = Lᵀ·g·Rᵀ with L = M0..Mi-1 (r0×ri), R = Mi+1..Mn-1 (ci×cn).
		ri, ci := dims[i][0], dims[i][1]
		gl := g.data // r0×cn
		if l := laChain(c, dims, 0, i); l != nil {
			t := zeros(ri * cn)
			nnGemm(true, false, ri, cn, r0, l, g.data, t, false)
			gl = t
		}
		if r := laChain(c, dims, i+1, n); r != nil {
			nnGemm(false, true, ri, ci, cn, gl, r, gi.data, false)
		} else {
			copy(gi.data, gl)
		}
		grads[i] = gi
	}
	return grads, nil
}

// ---- vecdot

type laVecdotPlan struct {
	shape []int // broadcast shape
	out   []int // result shape
	dim   int
}

func laVecdotSetup(c *call) (*laVecdotPlan, *array, *array, error) {
	x, err := nnNeed(c, 0, "x")
	if err != nil {
		return nil, nil, nil, err
	}
	y, err := nnNeed(c, 1, "y")
	if err != nil {
		return nil, nil, nil, err
	}
	if x.dtype != y.dtype {
		return nil, nil, nil, fmt.Errorf("linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of type %s instead", ops.TypeName(x.dtype), ops.TypeName(y.dtype))
	}
	if !x.dtype.IsFloat() {
		return nil, nil, nil, fmt.Errorf("linalg.vecdot: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(x.dtype))
	}
	shape, err := ops.BroadcastShapes(x.shape, y.shape)
	if err != nil {
		return nil, nil, nil, err
	}
	dim, err := normDim(int64(c.attrs.Int("dim", -1)), len(shape))
	if err != nil {
		return nil, nil, nil, err
	}
	pl := &laVecdotPlan{shape: shape, dim: dim}
	if len(shape) > 0 {
		pl.out = append(append([]int{}, shape[:dim]...), shape[dim+1:]...)
	}
	return pl, x, y, nil
}

// laReduceIndex maps every element of shape (of rank ≥ 1) to its result
// element when dim is summed away; a 0-d shape maps its element to 0.
func laReduceIndex(shape []int, dim int) []int {
	n := tensor.NumElements(shape)
	out := make([]int, n)
	if len(shape) == 0 {
		return out
	}
	inner := tensor.NumElements(shape[dim+1:])
	d := shape[dim]
	for k := range out {
		out[k] = k/(inner*d)*inner + k%inner
	}
	return out
}

func vecdotForward(c *call) ([]*array, error) {
	pl, x, y, err := laVecdotSetup(c)
	if err != nil {
		return nil, err
	}
	xe, ye := expandTo(x, pl.shape), expandTo(y, pl.shape)
	out := nnNew(pl.out, x.dtype)
	if narrowDT(x.dtype) {
		narrowVecdot(out.data, xe, ye, laReduceIndex(pl.shape, pl.dim))
		return []*array{out}, nil
	}
	for k, j := range laReduceIndex(pl.shape, pl.dim) {
		out.data[j] += xe[k] * ye[k]
	}
	return []*array{out}, nil
}

func vecdotBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, x, y, err := laVecdotSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gx, gy := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{gx, gy}, nil
	}
	red := laReduceIndex(pl.shape, pl.dim)
	for i, gi := range []*array{gx, gy} {
		if gi == nil {
			continue
		}
		other := expandTo([]*array{y, x}[i], pl.shape)
		full := float64sFor(len(red))
		for k, j := range red {
			full[k] = g.data[j] * other[k]
		}
		gi.data = sumToShape(full, pl.shape, gi.shape)
	}
	return []*array{gx, gy}, nil
}

// ---- matrix_power

type laPowerPlan struct {
	batch, n int
	pow      int64
}

func laPowerSetup(c *call) (*laPowerPlan, *array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, err
	}
	r := len(a.shape)
	if r < 2 {
		return nil, nil, fmt.Errorf("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
	}
	if a.shape[r-1] != a.shape[r-2] {
		return nil, nil, fmt.Errorf("linalg.matrix_power: A must be batches of square matrices, but they are %d by %d matrices", a.shape[r-2], a.shape[r-1])
	}
	pl := &laPowerPlan{batch: tensor.NumElements(a.shape[:r-2]), n: a.shape[r-1], pow: int64(c.attrs.Int("n", 1))}
	switch {
	case pl.pow < 0 && !a.dtype.IsFloat():
		return nil, nil, fmt.Errorf("linalg.inv: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(a.dtype))
	case pl.pow < 0 && a.dtype != tensor.Float64 && a.dtype != tensor.Float32:
		return nil, nil, fmt.Errorf("linalg.inv: Low precision dtypes not supported. Got %s", ops.TypeName(a.dtype))
	case pl.pow >= 2:
		if _, err := nnNumeric("addmm_impl_cpu_", a); err != nil {
			return nil, nil, err
		}
	}
	return pl, a, nil
}

// laLU factors the n×n matrix m as P·A = L·U with partial pivoting
// (LAPACK's getrf order: the largest |pivot| in the column, the first on a
// tie); info is the 1-based index of the first exactly zero pivot, 0 if
// none, and swaps counts the row exchanges.
func laLU(m []float64, n int) (lu []float64, piv []int, info, swaps int) {
	lu = append([]float64(nil), m[:n*n]...)
	piv = make([]int, n)
	for j := 0; j < n; j++ {
		p := j
		for i := j + 1; i < n; i++ {
			if abs(lu[i*n+j]) > abs(lu[p*n+j]) {
				p = i
			}
		}
		piv[j] = p
		if p != j {
			swaps++
			for k := 0; k < n; k++ {
				lu[j*n+k], lu[p*n+k] = lu[p*n+k], lu[j*n+k]
			}
		}
		d := lu[j*n+j]
		if d == 0 {
			if info == 0 {
				info = j + 1
			}
			continue
		}
		for i := j + 1; i < n; i++ {
			f := lu[i*n+j] / d
			lu[i*n+j] = f
			for k := j + 1; k < n; k++ {
				lu[i*n+k] -= f * lu[j*n+k]
			}
		}
	}
	return lu, piv, info, swaps
}

// laInverse inverts the n×n matrix m from its LU factors; a zero pivot is
// PyTorch's singular-matrix error, naming the first zero diagonal element
// (1-based) as LAPACK's info does.
func laInverse(m []float64, n int) ([]float64, int) {
	lu, piv, info, _ := laLU(m, n)
	if info != 0 {
		return nil, info
	}
	// Solve A·X = I column by column: P·A = L·U.
	inv := make([]float64, n*n)
	col := make([]float64, n)
	for c := 0; c < n; c++ {
		for i := range col {
			col[i] = 0
		}
		col[c] = 1
		for j := 0; j < n; j++ {
			col[j], col[piv[j]] = col[piv[j]], col[j]
		}
		for i := 0; i < n; i++ {
			for k := 0; k < i; k++ {
				col[i] -= lu[i*n+k] * col[k]
			}
		}
		for i := n - 1; i >= 0; i-- {
			for k := i + 1; k < n; k++ {
				col[i] -= lu[i*n+k] * col[k]
			}
			col[i] /= lu[i*n+i]
		}
		for i := 0; i < n; i++ {
			inv[i*n+c] = col[i]
		}
	}
	return inv, 0
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// laPowerBase returns the matrices whose |n|-th power is the result: self,
// or its inverse for n < 0.
func laPowerBase(pl *laPowerPlan, a *array) ([]float64, error) {
	if pl.pow >= 0 {
		return a.data, nil
	}
	nn := pl.n * pl.n
	out := make([]float64, pl.batch*nn)
	for b := 0; b < pl.batch; b++ {
		inv, info := laInverse(a.data[b*nn:], pl.n)
		if info != 0 {
			prefix := ""
			if len(a.shape) > 2 {
				prefix = fmt.Sprintf("(Batch element %d): ", b)
			}
			return nil, fmt.Errorf("linalg.inv: %sThe diagonal element %d is zero, the inversion could not be completed because the input matrix is singular.", prefix, info)
		}
		copy(out[b*nn:], inv)
	}
	return out, nil
}

// laPowers returns base^0 .. base^m for one n×n matrix.
func laPowers(base []float64, n int, m int64) [][]float64 {
	ps := make([][]float64, m+1)
	id := make([]float64, n*n)
	for i := 0; i < n; i++ {
		id[i*n+i] = 1
	}
	ps[0] = id
	for k := int64(1); k <= m; k++ {
		if k == 1 {
			ps[1] = base[:n*n]
			continue
		}
		ps[k] = make([]float64, n*n)
		nnGemm(false, false, n, n, n, ps[k-1], base, ps[k], false)
	}
	return ps
}

func matrixPowerForward(c *call) ([]*array, error) {
	pl, a, err := laPowerSetup(c)
	if err != nil {
		return nil, err
	}
	base, err := laPowerBase(pl, a)
	if err != nil {
		return nil, err
	}
	if narrowDT(a.dtype) && pl.pow >= 2 {
		ch, top := narrowPower(pl, a)
		return []*array{{shape: append([]int{}, a.shape...), data: ch.vals[top], dtype: a.dtype}}, nil
	}
	out := nnNew(a.shape, a.dtype)
	m := pl.pow
	if m < 0 {
		m = -m
	}
	nn := pl.n * pl.n
	for b := 0; b < pl.batch; b++ {
		dst := out.data[b*nn : (b+1)*nn]
		if m == 0 {
			for i := 0; i < pl.n; i++ {
				dst[i*pl.n+i] = 1
			}
			continue
		}
		// binary powering, as PyTorch: few products on large n
		var acc []float64
		sq := base[b*nn : (b+1)*nn]
		for e := m; e > 0; e >>= 1 {
			if e&1 == 1 {
				if acc == nil {
					acc = append([]float64(nil), sq...)
				} else {
					t := make([]float64, nn)
					nnGemm(false, false, pl.n, pl.n, pl.n, acc, sq, t, false)
					acc = t
				}
			}
			if e > 1 {
				t := make([]float64, nn)
				nnGemm(false, false, pl.n, pl.n, pl.n, sq, sq, t, false)
				sq = t
			}
		}
		copy(dst, acc)
	}
	laWrapInts(out)
	return []*array{out}, nil
}

func matrixPowerBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, err := laPowerSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga := nnGradFor(c, 0)
	if g == nil || ga == nil || pl.pow == 0 {
		return []*array{ga}, nil
	}
	if narrowDT(a.dtype) && pl.pow >= 2 {
		ch, top := narrowPower(pl, a)
		ga.data = ch.backward(top, g.data)[0]
		return []*array{ga}, nil
	}
	base, err := laPowerBase(pl, a)
	if err != nil {
		return nil, err
	}
	m := pl.pow
	if m < 0 {
		m = -m
	}
	n, nn := pl.n, pl.n*pl.n
	t := make([]float64, nn)
	for b := 0; b < pl.batch; b++ {
		ps := laPowers(base[b*nn:(b+1)*nn], n, m-1)
		gb := make([]float64, nn) // gradient with respect to the base
		for k := int64(0); k < m; k++ {
			// (B^k)ᵀ · g · (B^(m-1-k))ᵀ
			nnGemm(true, false, n, n, n, ps[k], g.data[b*nn:], t, false)
			nnGemm(false, true, n, n, n, t, ps[m-1-k], gb, true)
		}
		dst := ga.data[b*nn : (b+1)*nn]
		if pl.pow > 0 {
			copy(dst, gb)
			continue
		}
		// B = A⁻¹: dA = -Bᵀ · dB · Bᵀ
		bi := base[b*nn : (b+1)*nn]
		nnGemm(true, false, n, n, n, bi, gb, t, false)
		nnGemm(false, true, n, n, n, t, bi, dst, false)
		for i := range dst {
			dst[i] = -dst[i]
		}
	}
	return []*array{ga}, nil
}

// ---- det, logdet, slogdet

// laDetFn names the function in PyTorch's messages.
var laDetFn = map[string]string{"det": "linalg.det", "logdet": "logdet", "slogdet": "linalg.slogdet"}

type laDetPlan struct {
	batch, n int
	outShape []int
}

func laDetSetup(op string, c *call) (*laDetPlan, *array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, err
	}
	fn, r := laDetFn[op], len(a.shape)
	switch {
	case r < 2:
		return nil, nil, fmt.Errorf("%s: The input tensor A must have at least 2 dimensions.", fn)
	case a.shape[r-1] != a.shape[r-2]:
		return nil, nil, fmt.Errorf("%s: A must be batches of square matrices, but they are %d by %d matrices", fn, a.shape[r-2], a.shape[r-1])
	case !a.dtype.IsFloat():
		return nil, nil, fmt.Errorf("%s: Expected a floating point or complex tensor as input. Got %s", fn, ops.TypeName(a.dtype))
	case op != "det" && a.dtype != tensor.Float64 && a.dtype != tensor.Float32:
		return nil, nil, fmt.Errorf("%s: Low precision dtypes not supported. Got %s", fn, ops.TypeName(a.dtype))
	}
	return &laDetPlan{batch: tensor.NumElements(a.shape[:r-2]), n: a.shape[r-1], outShape: append([]int{}, a.shape[:r-2]...)}, a, nil
}

// laSign is the sign of x: -1, 0 (for 0 and NaN) or 1.
func laSign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// laSlogdet returns the sign and log|det| of one matrix from its LU
// factors (the empty matrix: 1 and 0).
func laSlogdet(m []float64, n int) (sign, logabs float64) {
	lu, _, _, swaps := laLU(m, n)
	sign = 1
	if swaps%2 == 1 {
		sign = -1
	}
	for i := 0; i < n; i++ {
		d := lu[i*n+i]
		sign *= laSign(d)
		logabs += math.Log(abs(d))
	}
	return sign, logabs
}

func detForward(op string) func(c *call) ([]*array, error) {
	return func(c *call) ([]*array, error) {
		pl, a, err := laDetSetup(op, c)
		if err != nil {
			return nil, err
		}
		nn := pl.n * pl.n
		o0 := nnNew(pl.outShape, a.dtype)
		o1 := nnNew(pl.outShape, a.dtype)
		for b := 0; b < pl.batch; b++ {
			m := a.data[b*nn:]
			switch op {
			case "det":
				lu, _, _, swaps := laLU(m, pl.n)
				d := 1.0
				if swaps%2 == 1 {
					d = -1
				}
				for i := 0; i < pl.n; i++ {
					d *= lu[i*pl.n+i]
				}
				o0.data[b] = d
			case "logdet":
				sign, la := laSlogdet(m, pl.n)
				switch {
				case sign < 0 || math.IsNaN(la):
					o0.data[b] = math.NaN()
				case sign == 0:
					o0.data[b] = math.Inf(-1)
				default:
					o0.data[b] = la
				}
			default:
				o0.data[b], o1.data[b] = laSlogdet(m, pl.n)
			}
		}
		if op == "slogdet" {
			return []*array{o0, o1}, nil
		}
		return []*array{o0}, nil
	}
}

// detBackward: d det = det·A⁻ᵀ (zero for a singular matrix, as PyTorch
// 1.13 gives), d log|det| = A⁻ᵀ (logdet: zero where the determinant is
// negative and the result NaN).
func detBackward(op string) func(c *call, outs, gradOuts []*array) ([]*array, error) {
	return func(c *call, outs, gradOuts []*array) ([]*array, error) {
		pl, a, err := laDetSetup(op, c)
		if err != nil {
			return nil, err
		}
		gi := 0
		if op == "slogdet" {
			gi = 1 // the sign takes no gradient
		}
		g := nnGradOut(gradOuts, gi)
		ga := nnGradFor(c, 0)
		if g == nil || ga == nil {
			return []*array{ga}, nil
		}
		n, nn := pl.n, pl.n*pl.n
		for b := 0; b < pl.batch; b++ {
			if op == "logdet" && math.IsNaN(outs[0].data[b]) {
				continue // a negative determinant: PyTorch's NaN takes no gradient
			}
			inv, info := laInverse(a.data[b*nn:], n)
			if info != 0 {
				continue // singular: zero gradient
			}
			scale := g.data[b]
			if op == "det" {
				scale *= outs[0].data[b]
			}
			dst := ga.data[b*nn : (b+1)*nn]
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					dst[i*n+j] = scale * inv[j*n+i]
				}
			}
		}
		return []*array{ga}, nil
	}
}

// ---- cross

type laCrossPlan struct {
	shape        []int
	outer, inner int
}

func laCrossSetup(c *call) (*laCrossPlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := nnNeed(c, 1, "other")
	if err != nil {
		return nil, nil, nil, err
	}
	if len(a.shape) != len(b.shape) {
		return nil, nil, nil, fmt.Errorf("linalg.cross: inputs must have the same number of dimensions.")
	}
	given := c.attrs.Int("dim", -1)
	if len(a.shape) == 0 {
		return nil, nil, nil, fmt.Errorf("Dimension specified as %d but tensor has no dimensions", given)
	}
	dim, err := normDim(given, len(a.shape))
	if err != nil {
		return nil, nil, nil, err
	}
	if a.shape[dim] != 3 || b.shape[dim] != 3 {
		return nil, nil, nil, fmt.Errorf("linalg.cross: inputs dimension %d must have length 3. Got %d and %d", given, a.shape[dim], b.shape[dim])
	}
	if a.dtype != b.dtype {
		return nil, nil, nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(a.dtype), ops.TypeName(b.dtype))
	}
	if _, err := nnNumeric("cross", a); err != nil {
		return nil, nil, nil, err
	}
	shape, err := ops.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, nil, nil, err
	}
	return &laCrossPlan{shape: shape, outer: tensor.NumElements(shape[:dim]), inner: tensor.NumElements(shape[dim+1:])}, a, b, nil
}

// laCrossInto writes x × y (both of the plan's shape) into out.
func laCrossInto(pl *laCrossPlan, x, y, out []float64) {
	in := pl.inner
	for o := 0; o < pl.outer; o++ {
		base := o * 3 * in
		for i := 0; i < in; i++ {
			p0, p1, p2 := base+i, base+in+i, base+2*in+i
			out[p0] = x[p1]*y[p2] - x[p2]*y[p1]
			out[p1] = x[p2]*y[p0] - x[p0]*y[p2]
			out[p2] = x[p0]*y[p1] - x[p1]*y[p0]
		}
	}
}

func crossForward(c *call) ([]*array, error) {
	pl, a, b, err := laCrossSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.shape, a.dtype)
	laCrossIntoAt(a.dtype, pl, expandTo(a, pl.shape), expandTo(b, pl.shape), out.data)
	laWrapInts(out)
	return []*array{out}, nil
}

// crossBackward: d(a × b) gives ga = b × g and gb = g × a, summed over
// broadcast dims.
func crossBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, b, err := laCrossSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{ga, gb}, nil
	}
	buf := float64sFor(tensor.NumElements(pl.shape))
	if ga != nil {
		laCrossIntoAt(a.dtype, pl, expandTo(b, pl.shape), g.data, buf)
		ga.data = sumToShape(buf, pl.shape, a.shape)
	}
	if gb != nil {
		laCrossIntoAt(a.dtype, pl, g.data, expandTo(a, pl.shape), buf)
		gb.data = sumToShape(buf, pl.shape, b.shape)
	}
	return []*array{ga, gb}, nil
}

// ---- dist

// laDistSetup returns the difference self - other (broadcast, at the
// promoted dtype) as the input of a norm call over every element.
func laDistSetup(c *call) (*call, []int, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, err
	}
	b, err := nnNeed(c, 1, "other")
	if err != nil {
		return nil, nil, err
	}
	dt := resultType(a, b)
	shape, err := ops.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, nil, err
	}
	if !dt.IsFloat() {
		return nil, nil, fmt.Errorf("norm(): input dtype should be either floating point or complex. Got %s instead.", ops.TypeName(dt))
	}
	d := expandTo(a, shape)
	for k, v := range expandTo(b, shape) {
		d[k] -= v
	}
	roundSlice(dt, d) // PyTorch subtracts at the result dtype
	nc := &call{op: "norm", in: []*array{{shape: shape, data: d, dtype: dt}}, requiresGrad: []bool{true},
		attrs: ops.Attrs{"p": ops.FloatAttr(c.attrs.Float("p", 2)), "dim": ops.NoneAttr(), "keepdim": ops.BoolAttr(false), "dtype": ops.NoneAttr()}}
	return nc, shape, nil
}

func distForward(c *call) ([]*array, error) {
	nc, _, err := laDistSetup(c)
	if err != nil {
		return nil, err
	}
	return kernels["norm"].forward(nc)
}

func distBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	nc, shape, err := laDistSetup(c)
	if err != nil {
		return nil, err
	}
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if nnGradOut(gradOuts, 0) == nil || ga == nil && gb == nil {
		return []*array{ga, gb}, nil
	}
	gd, err := kernels["norm"].backward(nc, outs, gradOuts)
	if err != nil {
		return nil, err
	}
	if gd[0] == nil {
		return []*array{ga, gb}, nil
	}
	if ga != nil {
		ga.data = sumToShape(gd[0].data, shape, ga.shape)
	}
	if gb != nil {
		gb.data = sumToShape(gd[0].data, shape, gb.shape)
		for i := range gb.data {
			gb.data[i] = -gb.data[i]
		}
	}
	return []*array{ga, gb}, nil
}

// ---- diff

type laDiffPlan struct {
	outer, inner int
	lens         [3]int // prepend, self, append lengths along dim (0 when absent)
	total        int    // concatenated length
	n            int64
	dim          int
	dt           tensor.DType
	outShape     []int
}

func laDiffSetup(c *call) (*laDiffPlan, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	if len(x.shape) == 0 {
		return nil, fmt.Errorf("diff expects input to be at least one-dimensional")
	}
	dim, err := normDim(c.attrs.Int("dim", -1), len(x.shape))
	if err != nil {
		return nil, err
	}
	pl := &laDiffPlan{n: c.attrs.Int("n", 1), dim: dim, dt: x.dtype}
	pl.lens[1] = x.shape[dim]
	for i, t := range []*array{c.in[1], c.in[2]} {
		if t == nil {
			continue
		}
		if len(t.shape) != len(x.shape) {
			return nil, fmt.Errorf("diff expects prepend or append to be the same dimension as input")
		}
		for d := range x.shape {
			if d != dim && t.shape[d] != x.shape[d] {
				return nil, fmt.Errorf("diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; input.size(%d) = %d, but got tensor.size(%d) = %d", d, x.shape[d], d, t.shape[d])
			}
		}
		pl.lens[2*i] = t.shape[dim]
		pl.dt = ops.PromoteTypes(pl.dt, t.dtype)
	}
	if pl.n == 0 {
		pl.dt = x.dtype
	}
	pl.outer, pl.inner = tensor.NumElements(x.shape[:dim]), tensor.NumElements(x.shape[dim+1:])
	pl.total = pl.lens[0] + pl.lens[1] + pl.lens[2]
	outLen := pl.total
	switch {
	case pl.n == 0:
		outLen = pl.lens[1]
	case pl.n > 0:
		outLen = max(pl.total-int(min(pl.n, int64(pl.total))), 0)
	}
	pl.outShape = append([]int{}, x.shape...)
	pl.outShape[dim] = outLen
	return pl, nil
}

// laDiffCat concatenates the present inputs along dim as an
// outer × total × inner block, converted to the result dtype.
func laDiffCat(pl *laDiffPlan, c *call) []float64 {
	cat := make([]float64, pl.outer*pl.total*pl.inner)
	off := 0
	for k, t := range []*array{c.in[1], c.in[0], c.in[2]} {
		l := pl.lens[k]
		if t == nil || l == 0 {
			continue
		}
		for o := 0; o < pl.outer; o++ {
			src := t.data[o*l*pl.inner : (o+1)*l*pl.inner]
			dst := cat[(o*pl.total+off)*pl.inner:]
			for j, v := range src {
				if t.dtype != pl.dt {
					v = roundTo(pl.dt, v)
				}
				dst[j] = v
			}
		}
		off += l
	}
	return cat
}

func diffForward(c *call) ([]*array, error) {
	pl, err := laDiffSetup(c)
	if err != nil {
		return nil, err
	}
	if pl.n == 0 {
		return []*array{c.in[0].clone()}, nil
	}
	cur := laDiffCat(pl, c)
	length := pl.total
	for step := int64(0); step < pl.n && length > 0; step++ {
		nl := length - 1
		next := make([]float64, pl.outer*nl*pl.inner)
		for o := 0; o < pl.outer; o++ {
			for i := 0; i < nl; i++ {
				a := cur[(o*length+i+1)*pl.inner:]
				b := cur[(o*length+i)*pl.inner:]
				d := next[(o*nl+i)*pl.inner : (o*nl+i+1)*pl.inner]
				for j := range d {
					if pl.dt == tensor.Bool {
						if (a[j] != 0) != (b[j] != 0) {
							d[j] = 1
						}
						continue
					}
					d[j] = a[j] - b[j]
				}
			}
		}
		cur, length = next, nl
	}
	out := &array{shape: pl.outShape, data: cur, dtype: pl.dt}
	laWrapInts(out)
	return []*array{out}, nil
}

// diffBackward applies the transposed difference n times and splits the
// result among prepend, self and append.
func diffBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, err := laDiffSetup(c)
	if err != nil {
		return nil, err
	}
	grads := []*array{nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)}
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return grads, nil
	}
	if pl.n == 0 {
		if grads[0] != nil {
			copy(grads[0].data, g.data)
		}
		return grads, nil
	}
	cur, length := g.data, pl.outShape[pl.dim]
	steps := pl.n
	if steps < 0 {
		steps = 0
	}
	steps = min(steps, int64(pl.total))
	for s := int64(0); s < steps; s++ {
		nl := length + 1
		next := make([]float64, pl.outer*nl*pl.inner)
		for o := 0; o < pl.outer; o++ {
			for i := 0; i < length; i++ {
				src := cur[(o*length+i)*pl.inner : (o*length+i+1)*pl.inner]
				hi := next[(o*nl+i+1)*pl.inner:]
				lo := next[(o*nl+i)*pl.inner:]
				for j, v := range src {
					hi[j] += v
					lo[j] -= v
				}
			}
		}
		cur, length = next, nl
	}
	off := 0
	for k, idx := range []int{1, 0, 2} {
		l := pl.lens[k]
		if gr := grads[idx]; gr != nil {
			for o := 0; o < pl.outer; o++ {
				copy(gr.data[o*l*pl.inner:(o+1)*l*pl.inner], cur[(o*pl.total+off)*pl.inner:(o*pl.total+off+l)*pl.inner])
			}
		}
		off += l
	}
	return grads, nil
}

// ---- vander

func laVanderSetup(c *call) (*array, int, bool, []int, error) {
	x, err := nnNeed(c, 0, "x")
	if err != nil {
		return nil, 0, false, nil, err
	}
	n := c.attrs.Int("N", 0)
	if n < 0 {
		return nil, 0, false, nil, fmt.Errorf("N must be non-negative.")
	}
	if len(x.shape) == 0 {
		return nil, 0, false, nil, fmt.Errorf("x must be a one-dimensional tensor.")
	}
	shape := append(append([]int{}, x.shape...), int(n))
	return x, int(n), c.attrs.Bool("increasing", false), shape, nil
}

// laVanderCol is the power of column j.
func laVanderCol(j, n int, increasing bool) int {
	if increasing {
		return j
	}
	return n - 1 - j
}

func vanderForward(c *call) ([]*array, error) {
	if x := c.in[0]; x.rank() != 1 && x.dtype == tensor.BFloat16 {
		// a batched x is linalg.vander's, which PyTorch 1.13 refuses at bfloat16
		return nil, errors.New("linalg.vander supports floating point, complex, and integer tensors, but got BFloat16")
	}
	x, n, inc, shape, err := laVanderSetup(c)
	if err != nil {
		return nil, err
	}
	dt := x.dtype
	if !dt.IsFloat() {
		dt = tensor.Int64
	}
	out := nnNew(shape, dt)
	pows := make([]float64, n)
	for i, v := range x.data {
		p := 1.0
		for k := 0; k < n; k++ {
			pows[k] = p
			p *= v // cumulative products, as PyTorch's cumprod
			if dt == tensor.Int64 {
				p = wrapInt(dt, p)
			}
		}
		row := out.data[i*n : (i+1)*n]
		for j := range row {
			row[j] = pows[laVanderCol(j, n, inc)]
		}
	}
	return []*array{out}, nil
}

func vanderBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	x, n, inc, _, err := laVanderSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gx := nnGradFor(c, 0)
	if g == nil || gx == nil {
		return []*array{gx}, nil
	}
	for i, v := range x.data {
		s := 0.0
		for j := 0; j < n; j++ {
			if k := laVanderCol(j, n, inc); k > 0 {
				s += g.data[i*n+j] * float64(k) * math.Pow(v, float64(k-1))
			}
		}
		gx.data[i] = s
	}
	return []*array{gx}, nil
}

// ---- block_diag

// laBlocks returns each tensor's (rows, cols) as a block and the result
// shape.
func laBlocks(c *call) ([][2]int, []int, tensor.DType, error) {
	blocks := make([][2]int, len(c.in))
	rows, cols := 0, 0
	var dt tensor.DType
	for i, t := range c.in {
		if t == nil {
			return nil, nil, 0, fmt.Errorf("torch.block_diag: input %d is None", i)
		}
		switch len(t.shape) {
		case 0:
			blocks[i] = [2]int{1, 1}
		case 1:
			blocks[i] = [2]int{1, t.shape[0]}
		case 2:
			blocks[i] = [2]int{t.shape[0], t.shape[1]}
		default:
			return nil, nil, 0, fmt.Errorf("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d dimensions", i, len(t.shape))
		}
		rows += blocks[i][0]
		cols += blocks[i][1]
	}
	dt = resultType(c.in...) // a 0-d tensor ranks below the others, as in PyTorch
	return blocks, []int{rows, cols}, dt, nil
}

func blockDiagForward(c *call) ([]*array, error) {
	blocks, shape, dt, err := laBlocks(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(shape, dt)
	r0, c0 := 0, 0
	for i, t := range c.in {
		br, bc := blocks[i][0], blocks[i][1]
		for r := 0; r < br; r++ {
			dst := out.data[(r0+r)*shape[1]+c0:]
			for k, v := range t.data[r*bc : (r+1)*bc] {
				if t.dtype != dt {
					v = roundTo(dt, v)
				}
				dst[k] = v
			}
		}
		r0, c0 = r0+br, c0+bc
	}
	return []*array{out}, nil
}

func blockDiagBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	blocks, shape, _, err := laBlocks(c)
	if err != nil {
		return nil, err
	}
	grads := make([]*array, len(c.in))
	g := nnGradOut(gradOuts, 0)
	r0, c0 := 0, 0
	for i := range c.in {
		br, bc := blocks[i][0], blocks[i][1]
		if gi := nnGradFor(c, i); gi != nil && g != nil {
			for r := 0; r < br; r++ {
				copy(gi.data[r*bc:(r+1)*bc], g.data[(r0+r)*shape[1]+c0:])
			}
			grads[i] = gi
		}
		r0, c0 = r0+br, c0+bc
	}
	return grads, nil
}
