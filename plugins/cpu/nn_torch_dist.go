package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Distances of msprobe's torch list (sdk/ops/schema_nn.go):
// cosine_similarity and pairwise_distance, of two broadcast tensors, along
// one dimension, with PyTorch 1.13's formulas and gradients.

// nnExpand returns a's values broadcast to shape (a's own slice, not to be
// written, when the shapes are equal).
func nnExpand(a *array, shape []int) []float64 {
	if slices.Equal(a.shape, shape) {
		return a.data
	}
	if len(a.data) == 1 {
		out := float64sFor(tensor.NumElements(shape))
		v := a.data[0]
		for i := range out {
			out[i] = v
		}
		return out
	}
	m := ops.BroadcastIndex(a.shape, shape)
	out := float64sFor(len(m))
	forChunks(len(m), func(from, to int) error {
		for k := from; k < to; k++ {
			out[k] = a.data[m[k]]
		}
		return nil
	})
	return out
}

// nnLines describes the lines of a reduction along one dimension of shape:
// line q = (o, j) holds the elements o·n·inner + i·inner + j, i < n.
type nnLines struct{ outer, n, inner int }

func newNNLines(shape []int, dim int) nnLines {
	if len(shape) == 0 {
		return nnLines{1, 1, 1}
	}
	return nnLines{tensor.NumElements(shape[:dim]), shape[dim], tensor.NumElements(shape[dim+1:])}
}

func (l nnLines) count() int { return l.outer * l.inner }

// base and stride of line q.
func (l nnLines) line(q int) (int, int) {
	return (q/l.inner)*l.n*l.inner + q%l.inner, l.inner
}

// reducedShape drops (or, keepdim, sets to 1) dimension dim.
func nnReducedShape(shape []int, dim int, keepdim bool) []int {
	if len(shape) == 0 {
		return []int{}
	}
	out := append([]int{}, shape[:dim]...)
	if keepdim {
		out = append(out, 1)
	}
	return append(out, shape[dim+1:]...)
}

// ---- cosine_similarity ----

type cosPlan struct {
	shape  []int
	dim    int
	lines  nnLines
	dt     tensor.DType
	eps    float64
	epsArg float64 // eps as given (bfloat16's eps² clamp squares it first)
	x1, x2 []float64
}

func newCosPlan(c *call) (*cosPlan, error) {
	a, b := c.in[0], c.in[1]
	dt := resultType(a, b)
	if !dt.IsFloat() {
		return nil, fmt.Errorf("expected common dtype to be floating point, yet common dtype is %s", ops.TypeName(dt))
	}
	shape, err := ops.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	dim, err := normDim(c.attrs.Int("dim", 1), len(shape))
	if err != nil {
		return nil, err
	}
	return &cosPlan{shape: shape, dim: dim, lines: newNNLines(shape, dim), dt: dt,
		eps: nnScalarAt(dt, c.attrs.Float("eps", 1e-8)), epsArg: c.attrs.Float("eps", 1e-8), x1: nnExpand(a, shape), x2: nnExpand(b, shape)}, nil
}

// norms returns ‖x1‖, ‖x2‖ of line q and the result Σ (x1/n1)(x2/n2) with
// n = max(‖x‖, eps).
func (p *cosPlan) norms(q int) (t1, t2, n1, n2, out float64) {
	base, st := p.lines.line(q)
	var s1, s2 float64
	for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
		s1 += p.x1[k] * p.x1[k]
		s2 += p.x2[k] * p.x2[k]
	}
	t1, t2 = math.Sqrt(s1), math.Sqrt(s2)
	n1, n2 = math.Max(t1, p.eps), math.Max(t2, p.eps)
	if t1 != t1 {
		n1 = t1
	}
	if t2 != t2 {
		n2 = t2
	}
	for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
		out += (p.x1[k] / n1) * (p.x2[k] / n2)
	}
	return
}

func cosineSimilarityKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			p, err := newCosPlan(c)
			if err != nil {
				return nil, err
			}
			out := &array{shape: nnReducedShape(p.shape, p.dim, false), data: float64sFor(p.lines.count()), dtype: p.dt}
			forChunks(len(out.data), func(from, to int) error {
				for q := from; q < to; q++ {
					if p.dt == tensor.BFloat16 {
						out.data[q] = p.bf16Forward(q)
						continue
					}
					_, _, _, _, out.data[q] = p.norms(q)
				}
				return nil
			})
			return []*array{out}, nil
		},
		// out = Σ (x1/n1)(x2/n2) with n = max(‖x‖, eps). PyTorch 1.13
		// clamps the norm in place under no_grad, so autograd takes the
		// norm's path with the clamped value as the norm: ∂/∂x1 =
		// x2/(n1·n2) − out/n1 · x1/n1, which is not the derivative where
		// ‖x1‖ < eps (there the second term should vanish).
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := newCosPlan(c)
			if err != nil {
				return nil, err
			}
			g := gradData(gos[0], p.lines.count())
			n := tensor.NumElements(p.shape)
			g1, g2 := float64sFor(n), float64sFor(n)
			forChunks(p.lines.count(), func(from, to int) error {
				for q := from; q < to; q++ {
					if p.dt == tensor.BFloat16 {
						p.bf16Backward(q, float32(g[q]), g1, g2)
						continue
					}
					_, _, n1, n2, out := p.norms(q)
					r1, r2 := 0.0, 0.0
					if n1 != 0 {
						r1 = 1 / n1
					}
					if n2 != 0 {
						r2 = 1 / n2
					}
					gq := g[q]
					base, st := p.lines.line(q)
					for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
						g1[k] = gq * (p.x2[k]/(n1*n2) - out/n1*p.x1[k]*r1)
						g2[k] = gq * (p.x1[k]/(n1*n2) - out/n2*p.x2[k]*r2)
					}
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, g1, p.shape), gradForOwned(c, 1, g2, p.shape)}, nil
		},
	}
}

// PyTorch 1.13 at bfloat16 (measured bit for bit): with s = Σ x·x
// clamped at eps² and n = sqrt(s), cosine_similarity is
// Σ (x1/n1)·(x2/n2), a chain of bfloat16 tensor operations (each rounded,
// the sums accumulated in float32 and rounded once), and autograd runs its
// formulas at bfloat16 through the same graph: mul, div (both operands),
// the sum's broadcast, sqrt (g/(2n)) and pow (g·2x); the clamp, done in
// place under no_grad, is invisible to it.

// bf16Norms are line q's n1 and n2.
func (p *cosPlan) bf16Norms(q int) (n1, n2 float32) {
	base, st := p.lines.line(q)
	var s1, s2 float64
	for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
		a, b := float32(p.x1[k]), float32(p.x2[k])
		s1 += float64(bfMul(a, a))
		s2 += float64(bfMul(b, b))
	}
	lo := bf16Round(float32(p.epsArg * p.epsArg))
	n1 = bf16Round(float32(math.Sqrt(float64(max(bfRound64(s1), lo)))))
	n2 = bf16Round(float32(math.Sqrt(float64(max(bfRound64(s2), lo)))))
	return
}

func (p *cosPlan) bf16Forward(q int) float64 {
	n1, n2 := p.bf16Norms(q)
	base, st := p.lines.line(q)
	var s float64
	for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
		s += float64(bfMul(bfDiv(float32(p.x1[k]), n1), bfDiv(float32(p.x2[k]), n2)))
	}
	return float64(bfRound64(s))
}

// bf16Backward writes line q's gradients for the gradient g of its result.
func (p *cosPlan) bf16Backward(q int, g float32, g1, g2 []float64) {
	n1, n2 := p.bf16Norms(q)
	base, st := p.lines.line(q)
	side := func(x, other []float64, n, no float32, dst []float64) {
		// the gradient of x/n is g·(other/no); n's gathers −ga·((x/n)/n)
		var sn float64
		for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
			ga := bfMul(g, bfDiv(float32(other[k]), no))
			sn += float64(bfMul(-ga, bfDiv(bfDiv(float32(x[k]), n), n)))
		}
		gs := bfDiv(bfRound64(sn), bfMul(2, n))
		for i, k := 0, base; i < p.lines.n; i, k = i+1, k+st {
			ga := bfMul(g, bfDiv(float32(other[k]), no))
			dst[k] = float64(bfAdd(bfDiv(ga, n), bfMul(gs, bfMul(2, float32(x[k])))))
		}
	}
	side(p.x1, p.x2, n1, n2, g1)
	side(p.x2, p.x1, n2, n1, g2)
}

// ---- pairwise_distance ----

type pdistPlan struct {
	shape []int
	lines nnLines
	dim   int
	dt    tensor.DType
	p     float64
	d     []float64 // x1 − x2 + eps, broadcast
}

func newPdistPlan(c *call) (*pdistPlan, error) {
	a, b := c.in[0], c.in[1]
	if err := subCheck(a, b); err != nil {
		return nil, err
	}
	dt := resultType(a, b)
	if !dt.IsFloat() {
		dt = ops.DefaultFloat
	}
	shape, err := ops.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	dim := max(len(shape)-1, 0)
	eps := c.attrs.Float("eps", 1e-6)
	x1, x2 := nnExpand(a, shape), nnExpand(b, shape)
	d := float64sFor(len(x1))
	integral := !resultType(a, b).IsFloat()
	it := resultType(a, b)
	// PyTorch forms x1 − x2 + eps as two tensor ops at the result dtype:
	// below float64 each rounds (a float32 opmath sum for the half types,
	// eps read as a float32)
	narrow := dt != tensor.Float64
	e32 := float64(float32(eps))
	forChunks(len(d), func(from, to int) error {
		for k := from; k < to; k++ {
			v := x1[k] - x2[k]
			if integral {
				v = wrapInt(it, v)
			}
			if narrow {
				d[k] = roundTo(dt, roundTo(tensor.Float32, roundTo(dt, v)+e32))
			} else {
				d[k] = v + eps
			}
		}
		return nil
	})
	return &pdistPlan{shape: shape, lines: newNNLines(shape, dim), dim: dim, dt: dt, p: c.attrs.Float("p", 2), d: d}, nil
}

// norm is the p-norm of line q.
func (p *pdistPlan) norm(q int) float64 {
	base, st := p.lines.line(q)
	n := p.lines.n
	switch {
	case p.p == 2:
		s := 0.0
		for i, k := 0, base; i < n; i, k = i+1, k+st {
			s += p.d[k] * p.d[k]
		}
		return math.Sqrt(s)
	case p.p == 1:
		s := 0.0
		for i, k := 0, base; i < n; i, k = i+1, k+st {
			s += math.Abs(p.d[k])
		}
		return s
	case p.p == 0:
		s := 0.0
		for i, k := 0, base; i < n; i, k = i+1, k+st {
			if p.d[k] != 0 {
				s++
			}
		}
		return s
	case math.IsInf(p.p, 0):
		big := p.p > 0
		m := math.Inf(-1)
		if !big {
			m = math.Inf(1)
		}
		for i, k := 0, base; i < n; i, k = i+1, k+st {
			a := math.Abs(p.d[k])
			if a != a {
				return a
			}
			if (big && a > m) || (!big && a < m) {
				m = a
			}
		}
		return m
	}
	s := 0.0
	for i, k := 0, base; i < n; i, k = i+1, k+st {
		s += math.Pow(math.Abs(p.d[k]), p.p)
	}
	return math.Pow(s, 1/p.p)
}

func pairwiseDistanceKernel() *kernel {
	return &kernel{
		forward: func(c *call) ([]*array, error) {
			p, err := newPdistPlan(c)
			if err != nil {
				return nil, err
			}
			if p.lines.n == 0 && math.IsInf(p.p, 0) {
				return nil, fmt.Errorf("linalg.vector_norm cannot compute the %v norm on an empty tensor because the operation does not have an identity", p.p)
			}
			out := &array{shape: nnReducedShape(p.shape, p.dim, c.attrs.Bool("keepdim", false)), data: float64sFor(p.lines.count()), dtype: p.dt}
			forChunks(len(out.data), func(from, to int) error {
				for q := from; q < to; q++ {
					out.data[q] = p.norm(q)
				}
				return nil
			})
			return []*array{out}, nil
		},
		// norm_backward of d = x1 − x2 + eps; x2 takes its negation. p = 0
		// has no gradient.
		backward: func(c *call, outs, gos []*array) ([]*array, error) {
			p, err := newPdistPlan(c)
			if err != nil {
				return nil, err
			}
			if p.p == 0 {
				return []*array{nil, nil}, nil
			}
			g := gradData(gos[0], p.lines.count())
			nv := outs[0].data
			gd := float64sFor(len(p.d))
			forChunks(p.lines.count(), func(from, to int) error {
				for q := from; q < to; q++ {
					base, st := p.lines.line(q)
					n := p.lines.n
					norm, gq := nv[q], g[q]
					switch {
					case p.p == 1:
						for i, k := 0, base; i < n; i, k = i+1, k+st {
							gd[k] = sgn(p.d[k]) * gq
						}
					case math.IsInf(p.p, 0):
						cnt := 0.0
						for i, k := 0, base; i < n; i, k = i+1, k+st {
							if a := math.Abs(p.d[k]); a == norm || a != a {
								cnt++
							}
						}
						for i, k := 0, base; i < n; i, k = i+1, k+st {
							if a := math.Abs(p.d[k]); a == norm || a != a {
								gd[k] = sgn(p.d[k]) * gq / cnt
							} else {
								gd[k] = 0
							}
						}
					default:
						scale := 0.0
						if norm != 0 {
							scale = gq / math.Pow(norm, p.p-1)
						}
						for i, k := 0, base; i < n; i, k = i+1, k+st {
							v := p.d[k]
							if p.p < 2 {
								gd[k] = sgn(v) * math.Pow(math.Abs(v), p.p-1) * scale
							} else {
								gd[k] = v * math.Pow(math.Abs(v), p.p-2) * scale
							}
						}
					}
				}
				return nil
			})
			neg := float64sFor(len(gd))
			forChunks(len(gd), func(from, to int) error {
				for k := from; k < to; k++ {
					neg[k] = -gd[k]
				}
				return nil
			})
			return []*array{gradForOwned(c, 0, gd, p.shape), gradForOwned(c, 1, neg, p.shape)}, nil
		},
	}
}

func init() {
	register("cosine_similarity", cosineSimilarityKernel())
	register("pairwise_distance", pairwiseDistanceKernel())
	supportDTypes("pairwise_distance", append(append([]tensor.DType(nil), floatDTypes...), intDTypes[:5]...)...)
}
