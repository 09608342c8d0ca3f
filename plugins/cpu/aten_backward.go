package cpu

import (
	"fmt"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
)

// Aten-level backward references that a dump records as their own calls
// (fused-ops.md §0.1): their outputs are gradients.

func init() {
	register("matmul_backward", &kernel{forward: matmulBackwardForward})
	register("npu.fast_gelu_backward", vjpKernel("npu.fast_gelu", 1, 0))
	register("npu.swiglu_backward", vjpKernel("npu.swiglu", 1, 0))
	register("npu.rotary_mul_backward", vjpKernel("npu.rotary_mul", 3, 0, 1, 2))
	register("npu.linear_backward", vjpKernel("npu.linear", 3, 0, 1))
	register("npu.rms_norm_backward", &kernel{forward: rmsNormBackwardForward})
	register("npu.scaled_masked_softmax_backward", &kernel{forward: scaledMaskedSoftmaxBackwardForward})
}

// vjpKernel is the kernel of an aten backward reference that is the
// backward of op fwd (nIn inputs) for the gradient in input 0 of fwd's
// first output, fwd's inputs following it: the outputs are the gradients
// of fwd's inputs wrt, in that order, with the inputs' dtypes.
func vjpKernel(fwd string, nIn int, wrt ...int) *kernel {
	return &kernel{forward: func(c *call) ([]*array, error) {
		g, err := nnNeed(c, 0, "grad")
		if err != nil {
			return nil, err
		}
		if !g.dtype.IsFloat() {
			return nil, fmt.Errorf("%s_backward: grad must be a floating tensor, got %s", fwd, ops.TypeName(g.dtype))
		}
		in := make([]*array, nIn)
		copy(in, c.in[1:])
		rg := make([]bool, nIn)
		for _, i := range wrt {
			if in[i] == nil {
				return nil, fmt.Errorf("%s_backward: input %d must be a tensor, not None", fwd, i+1)
			}
			if !in[i].dtype.IsFloat() {
				return nil, fmt.Errorf("%s_backward: input %d must be a floating tensor, got %s", fwd, i+1, ops.TypeName(in[i].dtype))
			}
			rg[i] = true
		}
		k := kernels[fwd]
		fc := &call{op: fwd, attrs: c.attrs, in: in, requiresGrad: rg, seed: c.seed, emulated: c.emulated}
		outs, err := k.forward(fc)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(outs[0].shape, g.shape) {
			return nil, fmt.Errorf("%s_backward: grad has shape %s, the forward's output %s", fwd, ops.ShapeList(g.shape), ops.ShapeList(outs[0].shape))
		}
		gos := make([]*array, len(outs))
		gos[0] = g
		grads, err := k.backward(fc, outs, gos)
		if err != nil {
			return nil, err
		}
		res := make([]*array, len(wrt))
		for j, i := range wrt {
			if res[j] = grads[i]; res[j] == nil {
				res[j] = nnNew(in[i].shape, in[i].dtype)
			}
			res[j].dtype = in[i].dtype
		}
		return res, nil
	}}
}

// rmsNormBackwardForward is aten npu_rms_norm_backward(dy, x, gamma, rstd)
// with the given rstd (one per row of x over gamma's trailing dims):
// dx = rstd·gamma·dy − x·rstd³·Σ(dy·gamma·x)/D and dgamma = Σ_rows
// dy·x·rstd, or dy·x·rstd unreduced (reduce_dgamma false, msprobe's
// reference).
func rmsNormBackwardForward(c *call) ([]*array, error) {
	dy, err := nnNeed(c, 0, "dy")
	if err != nil {
		return nil, err
	}
	rstd, err := nnNeed(c, 3, "rstd")
	if err != nil {
		return nil, err
	}
	rn, err := rmsNormSetup(&call{op: "npu.rms_norm", attrs: ops.Attrs{}, in: []*array{nnInput(c, 1), nnInput(c, 2)}})
	if err != nil {
		return nil, err
	}
	if _, err := nnFloatOnly("npu_rms_norm_backward", dy, rstd); err != nil {
		return nil, err
	}
	if !slices.Equal(dy.shape, rn.x.shape) || rstd.len() != rn.rows {
		return nil, fmt.Errorf("npu_rms_norm_backward: dy %s must have self's shape %s and rstd %s one value per row (%d)",
			ops.ShapeList(dy.shape), ops.ShapeList(rn.x.shape), ops.ShapeList(rstd.shape), rn.rows)
	}
	reduce := c.attrs.Bool("reduce_dgamma", true)
	gx := nnNew(rn.x.shape, rn.x.dtype)
	gg := nnNew(rn.gamma.shape, rn.gamma.dtype)
	if !reduce {
		gg = nnNew(rn.x.shape, rn.gamma.dtype)
	}
	d := float64(rn.cols)
	for r := 0; r < rn.rows; r++ {
		rs := rstd.data[r]
		s := 0.0
		for j := 0; j < rn.cols; j++ {
			k := r*rn.cols + j
			s += dy.data[k] * rn.gamma.data[j] * rn.x.data[k]
			if reduce {
				gg.data[j] += dy.data[k] * rn.x.data[k] * rs
			} else {
				gg.data[k] = dy.data[k] * rn.x.data[k] * rs
			}
		}
		r3 := rs * rs * rs
		for j := 0; j < rn.cols; j++ {
			k := r*rn.cols + j
			gx.data[k] = rs*rn.gamma.data[j]*dy.data[k] - rn.x.data[k]*r3*s/d
		}
	}
	return []*array{gx, gg}, nil
}

// scaledMaskedSoftmaxBackwardForward is aten
// npu_scaled_masked_softmax_backward(y_grad, y, mask, scale,
// fixed_triu_mask): scale·y·(dy − Σ dy·y) over the last dim, 0 where
// masked; in float32 steps with semantics "msprobe" (gradAtenMsprobe).
func scaledMaskedSoftmaxBackwardForward(c *call) ([]*array, error) {
	g, err := nnNeed(c, 0, "y_grad")
	if err != nil {
		return nil, err
	}
	s, err := scaledMaskedSoftmaxSetup(&call{op: "npu.scaled_masked_softmax", attrs: c.attrs, in: []*array{nnInput(c, 1), nnInput(c, 2)}})
	if err != nil {
		return nil, err
	}
	if !g.dtype.IsFloat() || !slices.Equal(g.shape, s.x.shape) {
		return nil, fmt.Errorf("npu_scaled_masked_softmax_backward: y_grad %s %s must be a floating tensor of y's shape %s",
			ops.TypeName(g.dtype), ops.ShapeList(g.shape), ops.ShapeList(s.x.shape))
	}
	ref, err := npuMsprobe(c, "npu_scaled_masked_softmax_backward")
	if err != nil {
		return nil, err
	}
	y := s.x.data
	dx := &array{shape: slices.Clone(s.x.shape), data: float64sFor(len(y)), dtype: g.dtype}
	if ref {
		s.gradAtenMsprobe(g.data, y, dx.data, g.dtype)
	} else {
		s.grad(g.data, y, dx.data)
	}
	return []*array{dx}, nil
}

// matmulBackwardForward is aten matmul_backward(grad, self, other, mask):
// matmul's backward for the gradient grad, as outputs (grad_self,
// grad_other); a gradient masked off is zero-size.
func matmulBackwardForward(c *call) ([]*array, error) {
	g, err := nnNeed(c, 0, "grad")
	if err != nil {
		return nil, err
	}
	self, err := nnNeed(c, 1, "self")
	if err != nil {
		return nil, err
	}
	other, err := nnNeed(c, 2, "other")
	if err != nil {
		return nil, err
	}
	mask := c.attrs.Ints("output_mask", []int64{1, 1})
	if len(mask) != 2 {
		return nil, fmt.Errorf("matmul_backward: output_mask needs 2 entries, got %d", len(mask))
	}
	for _, a := range []*array{g, self, other} {
		if !a.dtype.IsFloat() {
			return nil, fmt.Errorf("matmul_backward: expected floating tensors, got %s", ops.TypeName(a.dtype))
		}
	}
	mc := &call{op: "matmul", in: []*array{self, other}, requiresGrad: []bool{mask[0] != 0, mask[1] != 0}, emulated: c.emulated}
	fwd, err := kernels["matmul"].forward(&call{op: "matmul", in: []*array{self, other}, requiresGrad: []bool{false, false}, emulated: c.emulated})
	if err != nil {
		return nil, err
	}
	if !slices.Equal(fwd[0].shape, g.shape) {
		return nil, fmt.Errorf("matmul_backward: grad has shape %s, matmul(self, other) has %s", ops.ShapeList(g.shape), ops.ShapeList(fwd[0].shape))
	}
	gr, err := kernels["matmul"].backward(mc, fwd, []*array{g})
	if err != nil {
		return nil, err
	}
	out := make([]*array, 2)
	for i, src := range []*array{self, other} {
		if mask[i] == 0 || gr[i] == nil {
			out[i] = nnNew([]int{0}, src.dtype)
			continue
		}
		out[i] = gr[i]
		out[i].dtype = src.dtype
	}
	return out, nil
}
