package cpu

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// group_norm of msprobe's torch list (sdk/ops/schema_nn.go): every
// (sample, channel group) block is normalised by its mean and biased
// variance, then scaled and shifted per channel; PyTorch 1.13's checks in
// their order and native_group_norm_backward's formulas.

type groupNorm struct {
	x, w, b *array
	n, c, g int
	hw      int // elements per channel of a sample
	eps     float64
}

// block is the number of elements of one (sample, group) block.
func (gn *groupNorm) block() int { return gn.c / gn.g * gn.hw }

func newGroupNorm(c *call) (*groupNorm, error) {
	x, w, b := c.in[0], c.in[1], c.in[2]
	if x.rank() < 2 {
		return nil, fmt.Errorf("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
	}
	g := c.attrs.Int("num_groups", 0)
	ch := x.shape[1]
	wShape := []int{0}
	if w != nil {
		wShape = w.shape
	}
	switch {
	case g <= 0:
		return nil, fmt.Errorf("Expected num groups to be greater than 0, got %d", g)
	case int64(ch)%g != 0:
		return nil, fmt.Errorf("Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d", ops.ShapeList(x.shape), g)
	case w != nil && (w.rank() != 1 || w.len() != ch):
		return nil, fmt.Errorf("Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape %s and input of shape %s", ops.ShapeList(w.shape), ops.ShapeList(x.shape))
	case b != nil && (b.rank() != 1 || b.len() != ch):
		// PyTorch 1.13 prints the weight's shape here.
		return nil, fmt.Errorf("Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape %s and input of shape %s", ops.ShapeList(wShape), ops.ShapeList(x.shape))
	}
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl("GroupNormKernelImpl", x.dtype)
	}
	for _, p := range []*array{w, b} {
		if p != nil && p.dtype != x.dtype {
			return nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(x.dtype), ops.TypeName(p.dtype))
		}
	}
	return &groupNorm{x: x, w: w, b: b, n: x.shape[0], c: ch, g: int(g), hw: tensor.NumElements(x.shape[2:]), eps: c.attrs.Float("eps", 1e-5)}, nil
}

// stats returns the mean and 1/sqrt(var+eps) of block q (at bfloat16 as
// PyTorch's bfloat16 kernel rounds them, nn_norm_narrow.go).
func (gn *groupNorm) stats(q int) (mean, rstd float64) {
	if gn.bf16() {
		m, r := gn.bf16Stats(q)
		return float64(m), float64(r)
	}
	m := gn.block()
	mean, v := nnMoments(gn.x.data[q*m : (q+1)*m])
	return mean, 1 / math.Sqrt(v+gn.eps)
}

func groupNormKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			gn, err := newGroupNorm(c)
			if err != nil {
				return nil, err
			}
			out := &array{shape: append([]int{}, gn.x.shape...), data: float64sFor(len(gn.x.data)), dtype: gn.x.dtype}
			m, per := gn.block(), gn.c/gn.g
			parallelPlanes(gn.n*gn.g, func(q int) {
				if gn.bf16() {
					gn.bf16Forward(out.data, q)
					return
				}
				mean, rstd := gn.stats(q)
				for k := q * m; k < (q+1)*m; k++ {
					ch := (q%gn.g)*per + (k-q*m)/gn.hw
					v := (gn.x.data[k] - mean) * rstd
					if gn.w != nil {
						v *= gn.w.data[ch]
					}
					if gn.b != nil {
						v += gn.b.data[ch]
					}
					out.data[k] = v
				}
			})
			return []*array{out}, nil
		},
		// dx = w·rstd·(g − mean(w·g) − x̂·mean(w·g·x̂)) per block, with the
		// means over the block; dw[c] = Σ g·x̂, db[c] = Σ g.
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			gn, err := newGroupNorm(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], len(gn.x.data))
			if gn.bf16() {
				gx, dw, db := gn.bf16Backward(g, c.requiresGrad[0])
				res := []*array{nil, nil, nil}
				if gx != nil {
					res[0] = gradForOwned(c, 0, gx, gn.x.shape)
				}
				for i, d := range [][]float64{dw, db} {
					if p := c.in[1+i]; p != nil && c.requiresGrad[1+i] {
						res[1+i] = &array{shape: append([]int{}, p.shape...), data: d, dtype: p.dtype}
					}
				}
				return res, nil
			}
			m, per := gn.block(), gn.c/gn.g
			gx := float64sFor(len(g))
			// per-block partial sums of g·x̂ and g for every channel
			pw, pb := make([]float64, gn.n*gn.c), make([]float64, gn.n*gn.c)
			parallelPlanes(gn.n*gn.g, func(q int) {
				mean, rstd := gn.stats(q)
				var s1, s2 float64 // Σ w·g, Σ w·g·x̂
				for k := q * m; k < (q+1)*m; k++ {
					ch := (q%gn.g)*per + (k-q*m)/gn.hw
					xh := (gn.x.data[k] - mean) * rstd
					wg := g[k]
					if gn.w != nil {
						wg *= gn.w.data[ch]
					}
					s1 += wg
					s2 += wg * xh
					nc := (q/gn.g)*gn.c + ch
					pw[nc] += g[k] * xh
					pb[nc] += g[k]
				}
				inv := 1 / float64(m)
				for k := q * m; k < (q+1)*m; k++ {
					ch := (q%gn.g)*per + (k-q*m)/gn.hw
					xh := (gn.x.data[k] - mean) * rstd
					wg := g[k]
					if gn.w != nil {
						wg *= gn.w.data[ch]
					}
					gx[k] = rstd * (wg - s1*inv - xh*s2*inv)
				}
			})
			res := []*array{gradForOwned(c, 0, gx, gn.x.shape), nil, nil}
			for i, part := range [][]float64{pw, pb} {
				p := c.in[1+i]
				if p == nil || !c.requiresGrad[1+i] {
					continue
				}
				d := make([]float64, gn.c)
				for s := 0; s < gn.n; s++ {
					for ch := 0; ch < gn.c; ch++ {
						d[ch] += part[s*gn.c+ch]
					}
				}
				res[1+i] = &array{shape: append([]int{}, p.shape...), data: d, dtype: p.dtype}
			}
			return res, nil
		},
	}
}

func init() {
	register("group_norm", groupNormKernel())
}
