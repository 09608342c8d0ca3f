package cpu

import (
	"fmt"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Matrix products: matmul, mm, bmm, linear, addmm. PyTorch's CPU kernels
// accept integer tensors (exact in float64 below 2^53) but not bool.

func init() {
	register("matmul", &kernel{forward: matmulForward, backward: matmulBackward})
	register("mm", &kernel{forward: checkedMatmul("addmm_impl_cpu_", mmCheck), backward: matmulBackward})
	register("bmm", &kernel{forward: checkedMatmul("bmm", bmmCheck), backward: matmulBackward})
	register("linear", &kernel{forward: linearForward, backward: linearBackward})
	register("addmm", &kernel{forward: addmmForward, backward: addmmBackward})
	for _, op := range []string{"matmul", "mm", "bmm", "linear", "addmm"} {
		supportDTypes(op, nnNumericDTypes...)
	}
}

// nnNumericDTypes are the float and integer dtypes (no bool), which
// PyTorch's CPU BLAS and convolution kernels accept.
var nnNumericDTypes = []tensor.DType{tensor.Float64, tensor.Float32, tensor.Float16, tensor.BFloat16,
	tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8}

// nnBatchedPlan describes a broadcast batched product
// out[b] = A[ai(b)] (n×k) · B[bi(b)] (k×p).
type nnBatchedPlan struct {
	n, k, p  int
	aIdx     []int // batch index into A per output batch
	bIdx     []int
	aBatches int
	bBatches int
	outBatch []int // broadcast batch shape
}

// nnPlanBatched broadcasts the batch shapes of A (aBatch + [n, k]) and B
// (bBatch + [k, p]).
func nnPlanBatched(aBatch, bBatch []int, n, k, p int) (*nnBatchedPlan, error) {
	ob, err := ops.BroadcastShapes(aBatch, bBatch)
	if err != nil {
		return nil, err
	}
	return &nnBatchedPlan{
		n: n, k: k, p: p,
		aIdx:     nnBroadcastIndex(aBatch, ob),
		bIdx:     nnBroadcastIndex(bBatch, ob),
		aBatches: tensor.NumElements(aBatch),
		bBatches: tensor.NumElements(bBatch),
		outBatch: ob,
	}, nil
}

// forward returns the products, formed at dtype dt (call.gemmDT).
func (pl *nnBatchedPlan) forward(dt tensor.DType, a, b []float64) []float64 {
	n, k, p := pl.n, pl.k, pl.p
	out := zeros(len(pl.aIdx) * n * p)
	for ob := range pl.aIdx {
		ai, bi := pl.aIdx[ob], pl.bIdx[ob]
		nnGemmAt(dt, false, false, n, p, k, a[ai*n*k:], b[bi*k*p:], out[ob*n*p:])
	}
	return out
}

// backward returns dA = g·Bᵀ and dB = Aᵀ·g, summed over broadcast batches;
// either is skipped (nil) when not wanted. The products are formed at
// dtype dt (call.gemmDT); at float32 the sum over broadcast batches is kept
// in float32 too (gemmSum), as PyTorch's matmul, which folds a broadcast
// operand's batches into one sgemm (or sums bmm's float32 products), does.
func (pl *nnBatchedPlan) backward(dt tensor.DType, a, b, g []float64, wantA, wantB bool) (ga, gb []float64) {
	n, k, p := pl.n, pl.k, pl.p
	var sa, sb *gemmSum
	if wantA {
		ga = zeros(pl.aBatches * n * k)
		sa = newGemmSum(dt, ga, n, k, p)
	}
	if wantB {
		gb = zeros(pl.bBatches * k * p)
		sb = newGemmSum(dt, gb, k, p, n)
	}
	for ob := range pl.aIdx {
		ai, bi := pl.aIdx[ob], pl.bIdx[ob]
		if wantA {
			sa.add(false, true, g[ob*n*p:], b[bi*k*p:], ai*n*k)
		}
		if wantB {
			sb.add(true, false, a[ai*n*k:], g[ob*n*p:], bi*k*p)
		}
	}
	if wantA {
		sa.done()
	}
	if wantB {
		sb.done()
	}
	return ga, gb
}

// nnMatmulPlan resolves torch.matmul's shape rules.
func nnMatmulPlan(a, b *array) (*nnBatchedPlan, []int, error) {
	ra, rb := len(a.shape), len(b.shape)
	if ra == 0 || rb == 0 {
		return nil, nil, fmt.Errorf("both arguments to matmul need to be at least 1D, but they are %dD and %dD", ra, rb)
	}
	var aBatch, bBatch []int
	var n, k, k2, p int
	if ra == 1 {
		n, k = 1, a.shape[0]
	} else {
		aBatch = a.shape[:ra-2]
		n, k = a.shape[ra-2], a.shape[ra-1]
	}
	if rb == 1 {
		k2, p = b.shape[0], 1
	} else {
		bBatch = b.shape[:rb-2]
		k2, p = b.shape[rb-2], b.shape[rb-1]
	}
	if k != k2 {
		switch {
		case ra == 1 && rb == 1:
			return nil, nil, fmt.Errorf("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", k, k2, k, k2)
		case ra == 2 && rb == 1:
			return nil, nil, fmt.Errorf("size mismatch, got %d, %dx%d,%d", n, n, k, k2)
		case rb <= 2:
			rows := n * tensor.NumElements(aBatch)
			return nil, nil, fmt.Errorf("mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", rows, k, k2, p)
		default:
			return nil, nil, fmt.Errorf("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", nnLastBatch(aBatch, bBatch), k, nnLastBatch(aBatch, bBatch), k2)
		}
	}
	pl, err := nnPlanBatched(aBatch, bBatch, n, k, p)
	if err != nil {
		return nil, nil, err
	}
	out := append([]int{}, pl.outBatch...)
	if ra >= 2 {
		out = append(out, n)
	}
	if rb >= 2 {
		out = append(out, p)
	}
	return pl, out, nil
}

func nnLastBatch(a, b []int) int {
	s, err := ops.BroadcastShapes(a, b)
	if err != nil || len(s) == 0 {
		return 1
	}
	return tensor.NumElements(s)
}

func nnMatmulKernelName(a, b *array) string {
	switch {
	case len(a.shape) == 1 && len(b.shape) == 1:
		return "dot"
	case len(b.shape) == 1 && len(a.shape) == 2:
		return "addmv_impl_cpu"
	case len(a.shape) > 2 || len(b.shape) > 2:
		if len(b.shape) <= 2 {
			return "addmm_impl_cpu_"
		}
		return "bmm"
	}
	return "addmm_impl_cpu_"
}

func matmulForward(c *call) ([]*array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, err
	}
	b, err := nnNeed(c, 1, "other")
	if err != nil {
		return nil, err
	}
	dt, err := nnNumeric(nnMatmulKernelName(a, b), a, b)
	if err != nil {
		return nil, err
	}
	pl, shape, err := nnMatmulPlan(a, b)
	if err != nil {
		return nil, err
	}
	if narrowDT(dt) && a.dtype == dt && b.dtype == dt {
		if data, ok := narrowMatmul(a, b, pl); ok {
			return []*array{{shape: shape, data: data, dtype: dt}}, nil
		}
	}
	return []*array{{shape: shape, data: pl.forward(c.gemmDT(a, b), a.data, b.data), dtype: dt}}, nil
}

func matmulBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	g := nnGradOut(gradOuts, 0)
	wa, wb := nnWantsGrad(c, 0), nnWantsGrad(c, 1)
	if g == nil || (!wa && !wb) {
		return []*array{nnGradFor(c, 0), nnGradFor(c, 1)}, nil
	}
	a, b := c.in[0], c.in[1]
	pl, _, err := nnMatmulPlan(a, b)
	if err != nil {
		return nil, err
	}
	var ga, gb []float64
	doneA, doneB := false, false
	if narrowDT(a.dtype) && a.dtype == b.dtype {
		ga, gb, doneA, doneB = narrowMatmulGrads(a, b, pl, g.data, wa, wb)
	}
	if wa && !doneA || wb && !doneB {
		fa, fb := pl.backward(c.gemmDT(a, b), a.data, b.data, g.data, wa && !doneA, wb && !doneB)
		if !doneA {
			ga = fa
		}
		if !doneB {
			gb = fb
		}
	}
	return []*array{nnWrapGrad(a, ga), nnWrapGrad(b, gb)}, nil
}

// nnWrapGrad gives gradient data the shape and dtype of input x; nil data
// stays nil.
func nnWrapGrad(x *array, g []float64) *array {
	if g == nil {
		return nil
	}
	return &array{shape: append([]int{}, x.shape...), data: g, dtype: x.dtype}
}

func mmCheck(a, b *array) error {
	if len(a.shape) != 2 {
		return fmt.Errorf("self must be a matrix")
	}
	if len(b.shape) != 2 {
		return fmt.Errorf("mat2 must be a matrix")
	}
	if a.shape[1] != b.shape[0] {
		return fmt.Errorf("mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", a.shape[0], a.shape[1], b.shape[0], b.shape[1])
	}
	return nil
}

// checkedMatmul is the forward of mm and bmm: torch.matmul's kernel after
// the op's own dtype check (named after PyTorch's kernel, for its message)
// and shape check.
func checkedMatmul(kernelName string, check func(a, b *array) error) func(c *call) ([]*array, error) {
	return func(c *call) ([]*array, error) {
		a, err := nnNeed(c, 0, "self")
		if err != nil {
			return nil, err
		}
		b, err := nnNeed(c, 1, "mat2")
		if err != nil {
			return nil, err
		}
		if _, err := nnNumeric(kernelName, a, b); err != nil {
			return nil, err
		}
		if err := check(a, b); err != nil {
			return nil, err
		}
		return matmulForward(&call{op: c.op, in: []*array{a, b}, emulated: c.emulated})
	}
}

func bmmCheck(a, b *array) error {
	if len(a.shape) != 3 {
		return fmt.Errorf("batch1 must be a 3D tensor")
	}
	if len(b.shape) != 3 {
		return fmt.Errorf("batch2 must be a 3D tensor")
	}
	if b.shape[0] != a.shape[0] || b.shape[1] != a.shape[2] {
		return fmt.Errorf("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", a.shape[0], a.shape[2], b.shape[0], b.shape[1])
	}
	return nil
}

// linear: input (*, in) · weightᵀ (weight (out, in) or (in)) + bias.
type nnLinearPlan struct {
	rows, in, out int
	outShape      []int
	dt            tensor.DType
}

func nnLinearSetup(c *call) (*nnLinearPlan, *array, *array, *array, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	w, err := nnNeed(c, 1, "weight")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	bias := nnInput(c, 2)
	dt, err := nnNumeric("addmm_impl_cpu_", x, w, bias)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if len(x.shape) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("both arguments to linear need to be at least 1D, but they are 0D and %dD", len(w.shape))
	}
	if len(w.shape) != 1 && len(w.shape) != 2 {
		return nil, nil, nil, nil, fmt.Errorf("t() expects a tensor with <= 2 dimensions, but self is %dD", len(w.shape))
	}
	if len(w.shape) == 1 && bias != nil && len(x.shape) == 2 {
		return nil, nil, nil, nil, fmt.Errorf("mat2 must be a matrix, got 1-D tensor")
	}
	pl := &nnLinearPlan{dt: dt}
	pl.in = x.shape[len(x.shape)-1]
	pl.rows = tensor.NumElements(x.shape[:len(x.shape)-1])
	win := w.shape[len(w.shape)-1]
	pl.out = 1
	pl.outShape = append([]int{}, x.shape[:len(x.shape)-1]...)
	if len(w.shape) == 2 {
		pl.out = w.shape[0]
		pl.outShape = append(pl.outShape, pl.out)
	}
	if win != pl.in {
		if len(x.shape) == 1 && len(w.shape) == 1 {
			return nil, nil, nil, nil, fmt.Errorf("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", pl.in, win, pl.in, win)
		}
		return nil, nil, nil, nil, fmt.Errorf("mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", pl.rows, pl.in, win, pl.out)
	}
	if bias != nil {
		if err := nnExpandCheck(bias.shape, pl.outShape); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	return pl, x, w, bias, nil
}

func linearForward(c *call) ([]*array, error) {
	pl, x, w, bias, err := nnLinearSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.outShape, pl.dt)
	nnGemmAt(c.gemmDT(x, w), false, true, pl.rows, pl.out, pl.in, x.data, w.data, out.data)
	if bias != nil {
		for k, j := range nnBroadcastIndex(bias.shape, pl.outShape) {
			out.data[k] += bias.data[j]
		}
	}
	return []*array{out}, nil
}

func linearBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, x, w, bias, err := nnLinearSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gw, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return []*array{gx, gw, gb}, nil
	}
	// at bfloat16 the products are mm's backward formulas through
	// cpublas (gemm_narrow.go): grad·weight and gradᵀ·input
	bf := narrowDT(g.dtype) && narrowDT(x.dtype) && narrowDT(w.dtype) && len(x.shape) >= 2 && len(w.shape) == 2
	if gx != nil && !(bf && narrowGemm(false, false, pl.rows, pl.in, pl.out, g.data, w.data, gx.data, 0, 1)) {
		nnGemmAt(c.gemmDT(g, w), false, false, pl.rows, pl.in, pl.out, g.data, w.data, gx.data)
	}
	if gw != nil && !(bf && narrowGemm(true, false, pl.out, pl.in, pl.rows, g.data, x.data, gw.data, 0, 1)) {
		nnGemmAt(c.gemmDT(g, x), true, false, pl.out, pl.in, pl.rows, g.data, x.data, gw.data)
	}
	if gb != nil {
		gb.data = sumToShape(g.data, pl.outShape, bias.shape)
	}
	return []*array{gx, gw, gb}, nil
}

// addmm: beta*self + alpha*(mat1 @ mat2). beta == 0 ignores self (NaN
// included) and alpha == 0 ignores the product, as BLAS does.
type nnAddmmPlan struct {
	n, k, p  int
	outShape []int
	dt       tensor.DType
	alpha    float64
	beta     float64
}

func nnAddmmSetup(c *call) (*nnAddmmPlan, error) {
	for i, name := range []string{"self", "mat1", "mat2"} {
		if _, err := nnNeed(c, i, name); err != nil {
			return nil, err
		}
	}
	s, a, b := c.in[0], c.in[1], c.in[2]
	dt, err := nnNumeric("addmm_impl_cpu_", s, a, b)
	if err != nil {
		return nil, err
	}
	if len(a.shape) != 2 {
		return nil, fmt.Errorf("mat1 must be a matrix, got %d-D tensor", len(a.shape))
	}
	if len(b.shape) != 2 {
		return nil, fmt.Errorf("mat2 must be a matrix, got %d-D tensor", len(b.shape))
	}
	if a.shape[1] != b.shape[0] {
		return nil, fmt.Errorf("mat1 and mat2 shapes cannot be multiplied (%dx%d and %dx%d)", a.shape[0], a.shape[1], b.shape[0], b.shape[1])
	}
	pl := &nnAddmmPlan{n: a.shape[0], k: a.shape[1], p: b.shape[1], dt: dt}
	pl.outShape = []int{pl.n, pl.p}
	if c.attrs.Bool("inplace", false) {
		if !slices.Equal(s.shape, pl.outShape) {
			return nil, fmt.Errorf("The input tensor must be a matrix with size %dx%d, but got a %d-D tensor with size %s", pl.n, pl.p, len(s.shape), ops.ShapeList(s.shape))
		}
		if dt.IsFloat() && !s.dtype.IsFloat() {
			return nil, fmt.Errorf("result type %s can't be cast to the desired output type %s", ops.TypeName(dt), ops.TypeName(s.dtype))
		}
		pl.dt = s.dtype
	} else if err := nnExpandCheck(s.shape, pl.outShape); err != nil {
		return nil, err
	}
	pl.alpha = nnIntScale(c.attrs.Float("alpha", 1), pl.dt)
	pl.beta = nnIntScale(c.attrs.Float("beta", 1), pl.dt)
	return pl, nil
}

func addmmForward(c *call) ([]*array, error) {
	pl, err := nnAddmmSetup(c)
	if err != nil {
		return nil, err
	}
	s, a, b := c.in[0], c.in[1], c.in[2]
	out := nnNew(pl.outShape, pl.dt)
	if narrowDT(pl.dt) && a.dtype == pl.dt && b.dtype == pl.dt && narrowAddmm(s, a.data, b.data, pl.n, pl.k, pl.p, out.data, pl.beta, pl.alpha) {
		return []*array{out}, nil
	}
	if pl.alpha != 0 {
		nnGemmAt(c.gemmDT(a, b), false, false, pl.n, pl.p, pl.k, a.data, b.data, out.data)
		if pl.alpha != 1 {
			for i := range out.data {
				out.data[i] *= pl.alpha
			}
		}
	}
	if pl.beta != 0 {
		for k, j := range nnBroadcastIndex(s.shape, pl.outShape) {
			out.data[k] += pl.beta * s.data[j]
		}
	}
	return []*array{out}, nil
}

func addmmBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, err := nnAddmmSetup(c)
	if err != nil {
		return nil, err
	}
	s, a, b := c.in[0], c.in[1], c.in[2]
	gs, ga, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return []*array{gs, ga, gb}, nil
	}
	if gs != nil && narrowDT(pl.dt) {
		gs = laSelfGrad(g.data, pl.outShape, s, pl.beta)
	} else if gs != nil {
		gs.data = sumToShape(g.data, pl.outShape, s.shape)
		if pl.beta != 1 {
			for i := range gs.data {
				gs.data[i] *= pl.beta
			}
		}
	}
	scale := func(x []float64) {
		if narrowDT(pl.dt) {
			narrowScale(x, pl.alpha)
		} else if pl.alpha != 1 {
			for i := range x {
				x[i] *= pl.alpha
			}
		}
	}
	doneA, doneB := false, false
	if narrowDT(a.dtype) && a.dtype == b.dtype {
		doneA, doneB = narrowMMGrads(a.data, b.data, g.data, pl.n, pl.k, pl.p, dataOf(ga), dataOf(gb))
	}
	if ga != nil {
		if !doneA {
			nnGemmAt(c.gemmDT(g, b), false, true, pl.n, pl.k, pl.p, g.data, b.data, ga.data)
		}
		scale(ga.data)
	}
	if gb != nil {
		if !doneB {
			nnGemmAt(c.gemmDT(a, g), true, false, pl.k, pl.p, pl.n, a.data, g.data, gb.data)
		}
		scale(gb.data)
	}
	return []*array{gs, ga, gb}, nil
}
