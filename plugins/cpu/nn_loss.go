package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// nll_loss and cross_entropy (class-index targets, and class-probability
// targets for cross_entropy), with PyTorch's reductions: "mean" divides by
// the summed weight of the non-ignored targets (NaN when that is zero).

func init() {
	register("nll_loss", &kernel{forward: nllForward, backward: nllBackward})
	register("cross_entropy", &kernel{forward: crossEntropyForward, backward: crossEntropyBackward})
}

// nnLoss is an input viewed as (n, C, d) with its target viewed as (n, d).
type nnLoss struct {
	x, t, w     *array
	n, classes  int
	d           int
	reduction   string
	ignore      int64
	smoothing   float64
	probTargets bool
	noneShape   []int // shape of the "none" output
}

// at is the flat input index of (sample i, class c, position j).
func (l *nnLoss) at(i, c, j int) int { return (i*l.classes+c)*l.d + j }

func lossSetup(c *call, ce bool) (*nnLoss, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	t, err := nnNeed(c, 1, "target")
	if err != nil {
		return nil, err
	}
	w := nnInput(c, 2)
	kname := "nll_loss_out_frame"
	if ce {
		kname = "log_softmax_lastdim_kernel_impl"
	}
	if _, err := nnFloatOnly(kname, x, w); err != nil {
		return nil, err
	}
	l := &nnLoss{x: x, t: t, w: w,
		reduction: c.attrs.Str("reduction", "mean"),
		ignore:    c.attrs.Int("ignore_index", -100),
	}
	switch l.reduction {
	case "none", "mean", "sum":
	default:
		return nil, fmt.Errorf("%s is not a valid value for reduction", l.reduction)
	}
	if ce {
		l.smoothing = c.attrs.Float("label_smoothing", 0)
		if l.smoothing < 0 || l.smoothing > 1 || math.IsNaN(l.smoothing) {
			return nil, fmt.Errorf("label_smoothing must be between 0.0 and 1.0. Got: %v", l.smoothing)
		}
	}
	r := len(x.shape)
	if r == 0 {
		return nil, fmt.Errorf("input tensor should be 1D or 2D")
	}
	if r == 1 {
		l.n, l.classes, l.d = 1, x.shape[0], 1
	} else {
		l.n, l.classes, l.d = x.shape[0], x.shape[1], tensor.NumElements(x.shape[2:])
	}
	if w != nil && (len(w.shape) != 1 || w.shape[0] != l.classes) {
		return nil, fmt.Errorf("weight tensor should be defined either for all %d classes or no classes but got weight tensor of shape: %s", l.classes, ops.ShapeList(w.shape))
	}
	if ce && t.dtype.IsFloat() {
		if !slices.Equal(t.shape, x.shape) {
			return nil, fmt.Errorf("Expected target size %s, got %s", ops.ShapeList(x.shape), ops.ShapeList(t.shape))
		}
		l.probTargets = true
		l.noneShape = x.shape[:0]
		if r > 1 {
			l.noneShape = append(append([]int{}, x.shape[0]), x.shape[2:]...)
		}
		return l, nil
	}
	if !t.dtype.IsInt() {
		return nil, fmt.Errorf("expected scalar type Long but found %s", ops.TypeName(t.dtype))
	}
	switch {
	case r == 1:
		if len(t.shape) != 0 {
			return nil, fmt.Errorf("size mismatch (got input: %s, target: %s)", ops.ShapeList(x.shape), ops.ShapeList(t.shape))
		}
		l.noneShape = []int{}
	case r == 2:
		if len(t.shape) != 1 {
			return nil, fmt.Errorf("0D or 1D target tensor expected, multi-target not supported")
		}
		if t.shape[0] != l.n {
			return nil, fmt.Errorf("Expected input batch_size (%d) to match target batch_size (%d).", l.n, t.shape[0])
		}
		l.noneShape = []int{l.n}
	default:
		want := append(append([]int{}, x.shape[0]), x.shape[2:]...)
		if !slices.Equal(t.shape, want) {
			return nil, fmt.Errorf("Expected target size %s, got %s", ops.ShapeList(want), ops.ShapeList(t.shape))
		}
		l.noneShape = want
	}
	for _, v := range t.data {
		if int64(v) != l.ignore && (v < 0 || int(v) >= l.classes) {
			return nil, fmt.Errorf("Target %d is out of bounds.", int64(v))
		}
	}
	return l, nil
}

func (l *nnLoss) weight(c int) float64 {
	if l.w == nil {
		return 1
	}
	return l.w.data[c]
}

// target returns the class of element (i, j) and whether it counts.
func (l *nnLoss) target(i, j int) (int, bool) {
	v := int64(l.t.data[i*l.d+j])
	return int(v), v != l.ignore
}

// denom is the "mean" divisor: the summed weights of the counted targets,
// or the number of elements for probability targets.
func (l *nnLoss) denom() float64 {
	if l.probTargets {
		return float64(l.n * l.d)
	}
	s := 0.0
	for i := 0; i < l.n; i++ {
		for j := 0; j < l.d; j++ {
			if t, ok := l.target(i, j); ok {
				s += l.weight(t)
			}
		}
	}
	return s
}

// reduce turns per-element losses into the output.
func (l *nnLoss) reduce(per []float64) *array {
	if l.reduction == "none" {
		return &array{shape: append([]int{}, l.noneShape...), data: per, dtype: l.x.dtype}
	}
	s := 0.0
	for _, v := range per {
		s += v
	}
	if l.reduction == "mean" {
		s /= l.denom()
	}
	return &array{shape: []int{}, data: []float64{s}, dtype: l.x.dtype}
}

// perGrad spreads the output gradient over the elements: the gradient of
// each element's loss.
func (l *nnLoss) perGrad(g *array) []float64 {
	m := l.n * l.d
	out := make([]float64, m)
	switch l.reduction {
	case "none":
		copy(out, g.data)
	case "sum":
		for i := range out {
			out[i] = g.data[0]
		}
	default:
		v := g.data[0] / l.denom()
		for i := range out {
			out[i] = v
		}
	}
	return out
}

// nll: the per-element loss -w[t]·input[t] over any (n, C, d) input.
func (l *nnLoss) nll(inp []float64) []float64 {
	per := make([]float64, l.n*l.d)
	for i := 0; i < l.n; i++ {
		for j := 0; j < l.d; j++ {
			if t, ok := l.target(i, j); ok {
				per[i*l.d+j] = -l.weight(t) * inp[l.at(i, t, j)]
			}
		}
	}
	return per
}

func nllForward(c *call) ([]*array, error) {
	l, err := lossSetup(c, false)
	if err != nil {
		return nil, err
	}
	if l.x.dtype == tensor.BFloat16 && len(l.x.shape) <= 2 && l.reduction != "none" {
		return []*array{l.nllBF16()}, nil
	}
	return []*array{l.reduce(l.nll(l.x.data))}, nil
}

// nllBF16 is nll_loss_out_frame's sum at bfloat16 (PyTorch 1.13): every
// product, add and the mean's division rounded to bfloat16, the losses and
// weights summed in an 8-level cascade of partial sums flushed upward at
// every 16th sample, then the partial sums added in order from zero.
func (l *nnLoss) nllBF16() *array {
	const levels, power = 8, 4
	const mask = 1<<power - 1
	var ws, ls [levels]float64
	ignored := 0
	for b := 0; b < l.n; b++ {
		t, ok := l.target(b, 0)
		if !ok {
			ignored++
			continue
		}
		w := l.weight(t)
		ws[0] = bf16Op(ws[0] + w)
		ls[0] = bf16Op(ls[0] - bf16Op(l.x.data[l.at(b, t, 0)]*w))
		for j := 0; j+1 < levels; j++ {
			if b&(mask<<(j*power)) != 0 {
				break
			}
			ws[j+1] = bf16Op(ws[j+1] + ws[j])
			ls[j+1] = bf16Op(ls[j+1] + ls[j])
			ws[j], ls[j] = 0, 0
		}
	}
	total := bf16Op(float64(l.n - ignored))
	if l.w != nil {
		total = 0
		for _, v := range ws {
			total = bf16Op(total + v)
		}
	}
	out := 0.0
	for _, v := range ls {
		out = bf16Op(out + v)
	}
	if l.reduction == "mean" {
		out = bf16Op(out / total)
	}
	return &array{shape: []int{}, data: []float64{out}, dtype: l.x.dtype}
}

func nllBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx, nil, nil}, nil
	}
	l, err := lossSetup(c, false)
	if err != nil {
		return nil, err
	}
	pg := l.perGrad(g)
	for i := 0; i < l.n; i++ {
		for j := 0; j < l.d; j++ {
			if t, ok := l.target(i, j); ok {
				gx.data[l.at(i, t, j)] = -l.weight(t) * pg[i*l.d+j]
			}
		}
	}
	return []*array{gx, nil, nil}, nil
}

// rowStats returns the maximum m of row (i, j) over the class dim (a NaN
// wins) and ls = log Σ_c exp(x[c] − m): log_softmax of class c is
// x[c] − m − ls, evaluated in that order wherever it is used.
func (l *nnLoss) rowStats(i, j int) (m, ls float64) {
	m = math.Inf(-1)
	s := 0.0
	if l.d == 1 {
		xs := l.x.data[i*l.classes : (i+1)*l.classes]
		for _, v := range xs {
			if v > m || v != v {
				m = v
			}
		}
		// Σ exp(x − m) in class order, the exps vectorised a block at a
		// time (expInto gives math.Exp's bits).
		var buf [expBlock]float64
		for c0 := 0; c0 < len(xs); c0 += expBlock {
			e := buf[:min(expBlock, len(xs)-c0)]
			for c := range e {
				e[c] = xs[c0+c] - m
			}
			expInto(e, e)
			for _, v := range e {
				s += v
			}
		}
		return m, math.Log(s)
	}
	for c := 0; c < l.classes; c++ {
		if v := l.x.data[l.at(i, c, j)]; v > m || v != v {
			m = v
		}
	}
	var buf [expBlock]float64
	for c0 := 0; c0 < l.classes; c0 += expBlock {
		e := buf[:min(expBlock, l.classes-c0)]
		for c := range e {
			e[c] = l.x.data[l.at(i, c0+c, j)] - m
		}
		expInto(e, e)
		for _, v := range e {
			s += v
		}
	}
	return m, math.Log(s)
}

// ceExp sets ex[c] = exp(x[i, c0+c, j] − m − ls), softmax of those
// classes as cross_entropy's backward evaluates it, vectorised (expInto
// gives math.Exp's bits).
func (l *nnLoss) ceExp(ex []float64, i, c0, j int, m, ls float64) {
	for c := range ex {
		ex[c] = l.x.data[l.at(i, c0+c, j)] - m - ls
	}
	expInto(ex, ex)
}

// ceStats are the rowStats of every row, saved by cross_entropy's
// forward for its backward.
type ceStats struct{ m, ls []float64 }

// stats returns row e's rowStats, from st when the forward saved them.
func (l *nnLoss) stats(st *ceStats, e int) (m, ls float64) {
	if st != nil {
		return st.m[e], st.ls[e]
	}
	return l.rowStats(e/l.d, e%l.d)
}

// ceRows calls fn on ranges [from, to) of the n·d rows (i, j) = (e / d,
// e % d), spread over the cores. Rows are independent, so results never
// depend on the split.
func (l *nnLoss) ceRows(fn func(from, to int)) {
	per := max(1, 4*chunkElems/max(1, l.classes))
	parallel.Chunks(l.n*l.d, per, func(from, to int) error {
		fn(from, to)
		return nil
	})
}

// ceCoef returns, for element (i, j) with loss gradient gl, the gradient
// of the loss with respect to log_softmax[c] for every class c.
func (l *nnLoss) ceCoef(i, j int, gl float64, coef []float64) {
	for c := range coef {
		coef[c] = 0
	}
	if l.probTargets {
		cl := float64(l.classes)
		for c := range coef {
			p := l.t.data[l.at(i, c, j)]*(1-l.smoothing) + l.smoothing/cl
			coef[c] = -l.weight(c) * p * gl
		}
		return
	}
	t, ok := l.target(i, j)
	if !ok {
		return
	}
	if l.smoothing == 0 {
		coef[t] = -l.weight(t) * gl
		return
	}
	s := l.smoothing / float64(l.classes)
	for c := range coef {
		coef[c] = -l.weight(c) * gl * s
	}
	coef[t] += -l.weight(t) * gl * (1 - l.smoothing)
}

func crossEntropyForward(c *call) ([]*array, error) {
	l, err := lossSetup(c, true)
	if err != nil {
		return nil, err
	}
	per := make([]float64, l.n*l.d)
	cl := float64(l.classes)
	st := &ceStats{m: make([]float64, l.n*l.d), ls: make([]float64, l.n*l.d)}
	c.saved = st
	l.ceRows(func(from, to int) {
		for e := from; e < to; e++ {
			i, j := e/l.d, e%l.d
			m, ls := l.rowStats(i, j)
			st.m[e], st.ls[e] = m, ls
			if l.probTargets {
				s := 0.0
				for c := 0; c < l.classes; c++ {
					k := l.at(i, c, j)
					p := l.t.data[k]*(1-l.smoothing) + l.smoothing/cl
					s += (l.x.data[k] - m - ls) * p * l.weight(c)
				}
				per[e] = -s
				continue
			}
			t, ok := l.target(i, j)
			if !ok {
				continue
			}
			nll := -l.weight(t) * (l.x.data[l.at(i, t, j)] - m - ls)
			if l.smoothing == 0 {
				per[e] = nll
				continue
			}
			smooth := 0.0
			for c := 0; c < l.classes; c++ {
				smooth += (l.x.data[l.at(i, c, j)] - m - ls) * l.weight(c)
			}
			per[e] = (1-l.smoothing)*nll + (l.smoothing/cl)*(-smooth)
		}
	})
	return []*array{l.reduce(per)}, nil
}

func crossEntropyBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx, nil, nil}, nil
	}
	l, err := lossSetup(c, true)
	if err != nil {
		return nil, err
	}
	pg := l.perGrad(g)
	// With class-index targets and no smoothing only the target's
	// coefficient (ceCoef) is non-zero: s, the coefficients' sum from 0,
	// is that one value (+0 for −0), and every other class has
	// coefficient +0.
	sparse := !l.probTargets && l.smoothing == 0
	st, _ := c.saved.(*ceStats)
	l.ceRows(func(from, to int) {
		var buf [expBlock]float64
		var coef []float64
		if !sparse {
			coef = make([]float64, l.classes)
		}
		for e := from; e < to; e++ {
			i, j := e/l.d, e%l.d
			m, ls := l.stats(st, e)
			if sparse {
				t, ok := l.target(i, j)
				v, s := 0.0, 0.0
				if ok {
					v = -l.weight(t) * pg[e]
					s += v
				}
				for c0 := 0; c0 < l.classes; c0 += expBlock {
					ex := buf[:min(expBlock, l.classes-c0)]
					l.ceExp(ex, i, c0, j, m, ls)
					for c, ev := range ex {
						cl := c0 + c
						cv := 0.0
						if ok && cl == t {
							cv = v
						}
						gx.data[l.at(i, cl, j)] = cv - ev*s
					}
				}
				continue
			}
			l.ceCoef(i, j, pg[e], coef)
			s := 0.0
			for _, v := range coef {
				s += v
			}
			for c0 := 0; c0 < l.classes; c0 += expBlock {
				ex := buf[:min(expBlock, l.classes-c0)]
				l.ceExp(ex, i, c0, j, m, ls)
				for c, ev := range ex {
					cl := c0 + c
					gx.data[l.at(i, cl, j)] = coef[cl] - ev*s
				}
			}
		}
	})
	return []*array{gx, nil, nil}, nil
}
