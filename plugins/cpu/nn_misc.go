package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/internal/pcg"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// embedding and dropout.

func init() {
	register("embedding", &kernel{forward: embeddingForward, backward: embeddingBackward})
	supportDTypes("embedding", append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	register("dropout", &kernel{forward: dropoutForward, backward: dropoutBackward})
}

// ---- embedding ----

func embeddingSetup(c *call) (w, idx *array, err error) {
	if w, err = nnNeed(c, 0, "weight"); err != nil {
		return nil, nil, err
	}
	if idx, err = nnNeed(c, 1, "indices"); err != nil {
		return nil, nil, err
	}
	if idx.dtype != tensor.Int64 && idx.dtype != tensor.Int32 {
		return nil, nil, fmt.Errorf("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.%sTensor instead (while checking arguments for embedding)", ops.TypeName(idx.dtype))
	}
	if len(w.shape) != 2 {
		return nil, nil, fmt.Errorf("'weight' must be 2-D")
	}
	for _, v := range idx.data {
		if v < 0 || int(v) >= w.shape[0] {
			return nil, nil, fmt.Errorf("index out of range in self")
		}
	}
	return w, idx, nil
}

func embeddingForward(c *call) ([]*array, error) {
	w, idx, err := embeddingSetup(c)
	if err != nil {
		return nil, err
	}
	d := w.shape[1]
	out := nnNew(append(append([]int{}, idx.shape...), d), w.dtype)
	for i, v := range idx.data {
		copy(out.data[i*d:(i+1)*d], w.data[int(v)*d:(int(v)+1)*d])
	}
	return []*array{out}, nil
}

// embeddingBackward accumulates the output gradient into the rows that were
// read; the padding_idx row gets none, and scale_grad_by_freq divides each
// contribution by the number of times its row was read.
func embeddingBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gw := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gw == nil || g == nil {
		return []*array{gw, nil}, nil
	}
	w, idx, err := embeddingSetup(c)
	if err != nil {
		return nil, err
	}
	d := w.shape[1]
	pad := c.attrs.Int("padding_idx", -1)
	var counts map[int]int
	if c.attrs.Bool("scale_grad_by_freq", false) {
		counts = map[int]int{}
		for _, v := range idx.data {
			counts[int(v)]++
		}
	}
	// PyTorch's embedding_dense_backward_cpu adds the gradient rows into a
	// zeroed weight gradient of the weight's dtype one index after
	// another (grad_weight[k].add_(grad[i], scale)): at float16 and
	// bfloat16 every sum rounds, and so does grad·scale with scale (1 or
	// 1/count) at the dtype, as measured against torch 1.13.
	narrow := gw.dtype == tensor.BFloat16 || gw.dtype == tensor.Float16
	for i, v := range idx.data {
		row := int(v)
		if int64(row) == pad {
			continue
		}
		scale := 1.0
		if counts != nil {
			scale = 1 / float64(counts[row])
		}
		dst := gw.data[row*d : (row+1)*d]
		if narrow {
			sc := scalarAt(gw.dtype, scale)
			for j, gv := range g.data[i*d : (i+1)*d] {
				dst[j] = atDT(gw.dtype, dst[j]+atDT(gw.dtype, gv*sc))
			}
			continue
		}
		for j, gv := range g.data[i*d : (i+1)*d] {
			dst[j] += gv * scale
		}
	}
	return []*array{gw, nil}, nil
}

// ---- dropout ----

// dropoutMask returns the multiplier of every element (0 or 1/(1-p)), or nil
// when dropout is the identity (eval mode, p = 0, or an empty input).
// The Bernoulli draws come from a PCG generator seeded by the call's seed,
// so forward and backward of one call see the same mask.
func dropoutMask(c *call) ([]float64, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	p := c.attrs.Float("p", 0.5)
	if p < 0 || p > 1 || p != p {
		return nil, fmt.Errorf("dropout probability has to be between 0 and 1, but got %v", p)
	}
	train := c.attrs.Bool("train", true)
	if p == 0 || !train || x.len() == 0 {
		return nil, nil
	}
	mask := zeros(x.len())
	if p == 1 {
		return mask, nil
	}
	if !x.dtype.IsFloat() {
		return nil, fmt.Errorf("result type Float can't be cast to the desired output type %s", ops.TypeName(x.dtype))
	}
	// rand.New(rand.NewPCG(c.seed, …)).Float64()'s draws, in blocks
	rng := pcg.New(c.seed, 0x6a09e667f3bcc909)
	keep, scale := 1-p, 1/(1-p)
	var u [pcg.BlockLen]float64
	for off := 0; off < len(mask); off += len(u) {
		m := mask[off:min(len(mask), off+len(u))]
		rng.Floats(u[:len(m)])
		for i, x := range u[:len(m)] {
			if x < keep {
				m[i] = scale
			}
		}
	}
	return mask, nil
}

func dropoutForward(c *call) ([]*array, error) {
	mask, err := dropoutMask(c)
	if err != nil {
		return nil, err
	}
	x := c.in[0]
	out := nnNew(x.shape, x.dtype)
	copy(out.data, x.data)
	if mask != nil {
		// x·mask, so NaN and Inf stay NaN where dropped, as in PyTorch.
		for i := range out.data {
			out.data[i] *= mask[i]
		}
	}
	return []*array{out}, nil
}

func dropoutBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	mask, err := dropoutMask(c)
	if err != nil {
		return nil, err
	}
	copy(gx.data, g.data)
	if mask != nil {
		for i := range gx.data {
			gx.data[i] *= mask[i]
		}
	}
	return []*array{gx}, nil
}
