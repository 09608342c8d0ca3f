package cpu

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The linalg2 family: einsum, cdist/pdist, and (linalg2_solve.go...)
// factorisation-based kernels. Values are float64; the device wrapper
// rounds results to their dtype.

func init() {
	register("einsum", &kernel{forward: linalg2EinsumForward, backward: linalg2EinsumBackward})
	supportDTypes("einsum", tensor.Float64, tensor.Float32, tensor.BFloat16, tensor.Float16, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8)
	register("cdist", &kernel{forward: linalg2CdistForward, backward: linalg2CdistBackward})
	supportDTypes("cdist", tensor.Float64, tensor.Float32)
	register("pdist", &kernel{forward: linalg2PdistForward, backward: linalg2PdistBackward})
	supportDTypes("pdist", tensor.Float64, tensor.Float32)
}

// ---- einsum

// linalg2View is a labelled tensor: data read through strides (0 where a
// dimension is broadcast), one distinct label per dimension.
type linalg2View struct {
	data    []float64
	labels  []int
	sizes   []int
	strides []int
}

// linalg2Gather returns v's elements laid out contiguously in the label
// order `order` with sizes `sizes`: a label v lacks, or has with size 1,
// is broadcast.
func linalg2Gather(v linalg2View, order, sizes []int) linalg2View {
	st := make([]int, len(order))
	for k, l := range order {
		if j := slices.Index(v.labels, l); j >= 0 && v.sizes[j] == sizes[k] {
			st[k] = v.strides[j]
		}
	}
	n := tensor.NumElements(sizes)
	out := make([]float64, n)
	forChunks(n, func(from, to int) error {
		idx := make([]int, len(sizes))
		r, pos := from, 0
		for k := len(sizes) - 1; k >= 0; k-- {
			idx[k] = r % sizes[k]
			r /= sizes[k]
			pos += idx[k] * st[k]
		}
		for i := from; i < to; i++ {
			out[i] = v.data[pos]
			for k := len(sizes) - 1; k >= 0; k-- {
				idx[k]++
				pos += st[k]
				if idx[k] < sizes[k] {
					break
				}
				pos -= idx[k] * st[k]
				idx[k] = 0
			}
		}
		return nil
	})
	return linalg2View{data: out, labels: append([]int{}, order...), sizes: append([]int{}, sizes...), strides: contiguousStrides(sizes)}
}

// linalg2SumOut sums v over the labels in drop.
func linalg2SumOut(v linalg2View, drop []int) linalg2View {
	var keep, order, sizes, ks []int
	dropN := 1
	for j, l := range v.labels {
		if !slices.Contains(drop, l) {
			keep = append(keep, l)
			ks = append(ks, v.sizes[j])
		}
	}
	order = append(order, keep...)
	sizes = append(sizes, ks...)
	for j, l := range v.labels {
		if slices.Contains(drop, l) {
			order = append(order, l)
			sizes = append(sizes, v.sizes[j])
			dropN *= v.sizes[j]
		}
	}
	if len(order) == len(keep) {
		return v
	}
	g := linalg2Gather(v, order, sizes)
	n := tensor.NumElements(ks)
	out := make([]float64, n)
	for i := range out {
		s := 0.0
		for _, x := range g.data[i*dropN : (i+1)*dropN] {
			s += x
		}
		out[i] = s
	}
	return linalg2View{data: out, labels: keep, sizes: ks, strides: contiguousStrides(ks)}
}

// linalg2Pair contracts a with b: labels in both and in keep are batch
// dimensions, labels in both and not in keep are summed (a product per
// batch through nnGemm); a label of one operand only is kept. contracted
// reports whether any label was summed.
func linalg2Pair(a, b linalg2View, keep []int, size func(int) int) (linalg2View, bool) {
	var batch, contr, af, bf []int
	for _, l := range a.labels {
		switch {
		case !slices.Contains(b.labels, l):
			af = append(af, l)
		case slices.Contains(keep, l):
			batch = append(batch, l)
		default:
			contr = append(contr, l)
		}
	}
	for _, l := range b.labels {
		if !slices.Contains(a.labels, l) {
			bf = append(bf, l)
		}
	}
	sz := func(ls []int) ([]int, int) {
		s := make([]int, len(ls))
		n := 1
		for i, l := range ls {
			s[i] = size(l)
			n *= s[i]
		}
		return s, n
	}
	lab := func(parts ...[]int) []int {
		var out []int
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	asz := func(ls []int, v linalg2View) []int {
		s := make([]int, len(ls))
		for i, l := range ls {
			if j := slices.Index(v.labels, l); j >= 0 && !slices.Contains(batch, l) && !slices.Contains(contr, l) {
				s[i] = v.sizes[j]
			} else {
				s[i] = size(l)
			}
		}
		return s
	}
	_, nb := sz(batch)
	_, nk := sz(contr)
	la := lab(batch, af, contr)
	lb := lab(batch, contr, bf)
	sa, sb := asz(la, a), asz(lb, b)
	ga, gb := linalg2Gather(a, la, sa), linalg2Gather(b, lb, sb)
	m := tensor.NumElements(sa[len(batch) : len(batch)+len(af)])
	n := tensor.NumElements(sb[len(batch)+len(contr):])
	out := make([]float64, nb*m*n)
	for i := 0; i < nb; i++ {
		nnGemm(false, false, m, n, nk, ga.data[i*m*nk:], gb.data[i*nk*n:], out[i*m*n:], false)
	}
	ls := lab(batch, af, bf)
	ss := append(append([]int{}, sa[:len(batch)+len(af)]...), sb[len(batch)+len(contr):]...)
	return linalg2View{data: out, labels: ls, sizes: ss, strides: contiguousStrides(ss)}, len(contr) > 0
}

// linalg2Contract evaluates the einsum of views (distinct labels each)
// into the labels out, left to right as PyTorch: before each product a
// label no later operand and not the output needs is summed out.
func linalg2Contract(views []linalg2View, out []int, size func(int) int) (linalg2View, bool) {
	needed := func(from int, l int) bool {
		if slices.Contains(out, l) {
			return true
		}
		for _, v := range views[from:] {
			if slices.Contains(v.labels, l) {
				return true
			}
		}
		return false
	}
	lonely := func(v linalg2View, from int, other []int) []int {
		var d []int
		for _, l := range v.labels {
			if !needed(from, l) && !slices.Contains(other, l) {
				d = append(d, l)
			}
		}
		return d
	}
	cur := views[0]
	contracted := false
	for i := 1; i < len(views); i++ {
		cur = linalg2SumOut(cur, lonely(cur, i+1, views[i].labels))
		next := linalg2SumOut(views[i], lonely(views[i], i+1, cur.labels))
		var keep []int
		for _, l := range append(append([]int{}, cur.labels...), next.labels...) {
			if needed(i+1, l) {
				keep = append(keep, l)
			}
		}
		var c bool
		cur, c = linalg2Pair(cur, next, keep, size)
		contracted = contracted || c
	}
	var drop []int
	for _, l := range cur.labels {
		if !slices.Contains(out, l) {
			drop = append(drop, l)
		}
	}
	cur = linalg2SumOut(cur, drop)
	sizes := make([]int, len(out))
	for k, l := range out {
		sizes[k] = size(l)
		if j := slices.Index(cur.labels, l); j >= 0 {
			sizes[k] = cur.sizes[j]
		}
	}
	return linalg2Gather(cur, out, sizes), contracted
}

// linalg2EinsumPlan is a parsed einsum call.
type linalg2EinsumPlan struct {
	eq     *ops.Linalg2Einsum
	views  []linalg2View // per operand: distinct labels, diagonal strides
	size   []int         // per label: the broadcast size (-1 unused)
	shapes [][]int
	dt     tensor.DType
}

func linalg2EinsumSetup(c *call) (*linalg2EinsumPlan, error) {
	ranks := make([]int, len(c.in))
	for i, a := range c.in {
		if a == nil {
			return nil, fmt.Errorf("einsum(): operand %d is None", i)
		}
		ranks[i] = len(a.shape)
	}
	eq, err := ops.Linalg2ParseEinsum(c.attrs.Str("equation", ""), ranks)
	if err != nil {
		return nil, err
	}
	pl := &linalg2EinsumPlan{eq: eq, size: make([]int, 52+eq.Ellipsis)}
	for i := range pl.size {
		pl.size[i] = -1
	}
	for i, a := range c.in {
		if i == 0 {
			pl.dt = a.dtype
		} else if a.dtype != pl.dt {
			return nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(pl.dt), ops.TypeName(a.dtype))
		}
		st := contiguousStrides(a.shape)
		v := linalg2View{data: a.data}
		for d, l := range eq.Operands[i] {
			if j := slices.Index(v.labels, l); j >= 0 {
				if v.sizes[j] != a.shape[d] {
					return nil, fmt.Errorf("einsum(): subscript %c is repeated for operand %d but the sizes don't match, %d != %d", linalg2Letter(l), i, a.shape[d], v.sizes[j])
				}
				v.strides[j] += st[d]
				continue
			}
			v.labels = append(v.labels, l)
			v.sizes = append(v.sizes, a.shape[d])
			v.strides = append(v.strides, st[d])
		}
		pl.views = append(pl.views, v)
		pl.shapes = append(pl.shapes, a.shape)
	}
	for _, v := range pl.views {
		for j, l := range v.labels {
			s := v.sizes[j]
			switch {
			case pl.size[l] == -1 || pl.size[l] == 1:
				pl.size[l] = s
			case s != 1 && s != pl.size[l]:
				return nil, fmt.Errorf("einsum(): operands do not broadcast with remapped shapes (original->remapped)")
			}
		}
	}
	if pl.dt == tensor.Bool {
		return nil, nnNotImpl("bmm", pl.dt)
	}
	return pl, nil
}

func linalg2Letter(l int) byte {
	if l < 26 {
		return byte('A' + l)
	}
	return byte('a' + l - 26)
}

func (pl *linalg2EinsumPlan) sizeOf(l int) int { return max(pl.size[l], 0) }

// linalg2EinsumIntDType is the result dtype of an integer einsum: PyTorch
// sums a dimension only one operand has with sum(), which gives int64.
func (pl *linalg2EinsumPlan) resultDType() tensor.DType {
	if !pl.dt.IsInt() {
		return pl.dt
	}
	count := map[int]int{}
	for _, v := range pl.views {
		for _, l := range v.labels {
			count[l]++
		}
	}
	for _, v := range pl.views {
		for j, l := range v.labels {
			if count[l] == 1 && !slices.Contains(pl.eq.Output, l) && v.sizes[j] != 1 {
				return tensor.Int64
			}
		}
	}
	return pl.dt
}

func linalg2EinsumForward(c *call) ([]*array, error) {
	pl, err := linalg2EinsumSetup(c)
	if err != nil {
		return nil, err
	}
	r, contracted := linalg2Contract(pl.views, pl.eq.Output, pl.sizeOf)
	if contracted && pl.dt == tensor.Float16 {
		return nil, nnNotImpl("bmm", pl.dt)
	}
	out := &array{shape: r.sizes, data: r.data, dtype: pl.resultDType()}
	laWrapInts(out)
	return []*array{out}, nil
}

// linalg2EinsumBackward: the gradient of operand i is the einsum of the
// output gradient with the other operands onto operand i's labels,
// broadcast along labels only operand i has, summed where operand i
// broadcast a size-1 dimension, and written onto its diagonals.
func linalg2EinsumBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, err := linalg2EinsumSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, len(c.in))
	if g == nil {
		return grads, nil
	}
	gv := linalg2View{data: g.data, labels: pl.eq.Output, sizes: g.shape, strides: contiguousStrides(g.shape)}
	for i := range c.in {
		ga := nnGradFor(c, i)
		if ga == nil {
			continue
		}
		grads[i] = ga
		views := []linalg2View{gv}
		for j, v := range pl.views {
			if j != i {
				views = append(views, v)
			}
		}
		self := pl.views[i]
		var target []int
		for _, l := range self.labels {
			for _, v := range views {
				if slices.Contains(v.labels, l) {
					target = append(target, l)
					break
				}
			}
		}
		r, _ := linalg2Contract(views, target, pl.sizeOf)
		var shrink []int
		for j, l := range self.labels {
			if k := slices.Index(r.labels, l); k >= 0 && self.sizes[j] == 1 && r.sizes[k] != 1 {
				shrink = append(shrink, l)
			}
		}
		if len(shrink) > 0 {
			s := linalg2SumOut(r, shrink)
			r = s
		}
		full := linalg2Gather(r, self.labels, self.sizes)
		// write onto the (diagonal) positions of operand i
		idx := make([]int, len(self.sizes))
		pos := 0
		for _, x := range full.data {
			ga.data[pos] += x
			for k := len(idx) - 1; k >= 0; k-- {
				idx[k]++
				pos += self.strides[k]
				if idx[k] < self.sizes[k] {
					break
				}
				pos -= idx[k] * self.strides[k]
				idx[k] = 0
			}
		}
	}
	return grads, nil
}

// ---- cdist, pdist

// linalg2Dist is the p-norm of the differences d (p = 0 counts the
// non-zero ones, p = inf takes the largest |d|).
func linalg2Dist(x, y []float64, p float64) float64 {
	switch {
	case p == 0:
		n := 0.0
		for k := range x {
			if x[k] != y[k] {
				n++
			}
		}
		return n
	case p == 1:
		s := 0.0
		for k := range x {
			s += math.Abs(x[k] - y[k])
		}
		return s
	case p == 2:
		s := 0.0
		for k := range x {
			d := x[k] - y[k]
			s += d * d
		}
		return math.Sqrt(s)
	case math.IsInf(p, 1):
		m := 0.0
		for k := range x {
			d := math.Abs(x[k] - y[k])
			if d > m || d != d {
				m = d
			}
		}
		return m
	}
	s := 0.0
	for k := range x {
		s += math.Pow(math.Abs(x[k]-y[k]), p)
	}
	return math.Pow(s, 1/p)
}

// linalg2DistGrad adds to gx the gradient of dist = ‖x − y‖_p scaled by g
// (PyTorch's Distance.cpp backward formulas) and subtracts it from gy when
// gy is not nil.
func linalg2DistGrad(x, y, gx, gy []float64, dist, g, p float64) {
	for k := range x {
		diff := x[k] - y[k]
		var v float64
		switch {
		case p == 0:
		case p == 1:
			v = g * sgn(diff)
		case p < 1:
			if dist != 0 && !(diff == 0) {
				v = sgn(diff) * math.Pow(math.Abs(diff), p-1) * g / math.Pow(dist, p-1)
			}
		case p == 2:
			if dist != 0 {
				v = g * diff / dist
			}
		case math.IsInf(p, 1):
			v = g * sgn(diff) * (1 - math.Min(1, math.Ceil(math.Abs(math.Abs(diff)-dist))))
		default:
			if dist != 0 {
				v = diff * math.Pow(math.Abs(diff), p-2) * g / math.Pow(dist, p-1)
			}
		}
		gx[k] += v
		if gy != nil {
			gy[k] -= v
		}
	}
}

type linalg2CdistPlan struct {
	batch      []int // broadcast batch shape
	p          float64
	pn, rn, mn int
	nb         int
	m1, m2     []int // per batch: the batch index of x1 and x2
	dt         tensor.DType
}

func linalg2CdistSetup(c *call) (*linalg2CdistPlan, *array, *array, error) {
	x1, err := nnNeed(c, 0, "x1")
	if err != nil {
		return nil, nil, nil, err
	}
	x2, err := nnNeed(c, 1, "x2")
	if err != nil {
		return nil, nil, nil, err
	}
	p := c.attrs.Float("p", 2)
	switch {
	case len(x1.shape) < 2:
		return nil, nil, nil, fmt.Errorf("cdist only supports at least 2D tensors, X1 got: %dD", len(x1.shape))
	case len(x2.shape) < 2:
		return nil, nil, nil, fmt.Errorf("cdist only supports at least 2D tensors, X2 got: %dD", len(x2.shape))
	case !x1.dtype.IsFloat():
		return nil, nil, nil, fmt.Errorf("cdist only supports floating-point dtypes, X1 got: %s", ops.TypeName(x1.dtype))
	case !x2.dtype.IsFloat():
		return nil, nil, nil, fmt.Errorf("cdist only supports floating-point dtypes, X2 got: %s", ops.TypeName(x2.dtype))
	case x1.shape[len(x1.shape)-1] != x2.shape[len(x2.shape)-1]:
		return nil, nil, nil, fmt.Errorf("X1 and X2 must have the same number of columns. X1: %d X2: %d", x1.shape[len(x1.shape)-1], x2.shape[len(x2.shape)-1])
	case !(p >= 0):
		return nil, nil, nil, fmt.Errorf("cdist only supports non-negative p values")
	case x1.dtype != x2.dtype:
		return nil, nil, nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(x1.dtype), ops.TypeName(x2.dtype))
	case x1.dtype != tensor.Float64 && x1.dtype != tensor.Float32:
		return nil, nil, nil, nnNotImpl("cdist", x1.dtype)
	}
	b1, b2 := x1.shape[:len(x1.shape)-2], x2.shape[:len(x2.shape)-2]
	batch, err := ops.BroadcastShapes(b1, b2)
	if err != nil {
		return nil, nil, nil, err
	}
	pl := &linalg2CdistPlan{batch: batch, p: p, pn: x1.shape[len(x1.shape)-2], rn: x2.shape[len(x2.shape)-2], mn: x1.shape[len(x1.shape)-1], nb: tensor.NumElements(batch), dt: x1.dtype}
	pl.m1, pl.m2 = nnBroadcastIndex(b1, batch), nnBroadcastIndex(b2, batch)
	return pl, x1, x2, nil
}

func (pl *linalg2CdistPlan) outShape() []int {
	return append(append([]int{}, pl.batch...), pl.pn, pl.rn)
}

func linalg2CdistForward(c *call) ([]*array, error) {
	pl, x1, x2, err := linalg2CdistSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.outShape(), pl.dt)
	P, R, M := pl.pn, pl.rn, pl.mn
	forChunks(pl.nb*P, func(from, to int) error {
		for bi := from; bi < to; bi++ {
			b, i := bi/P, bi%P
			xr := x1.data[(pl.m1[b]*P+i)*M:][:M]
			row := out.data[bi*R:][:R]
			for j := range row {
				row[j] = linalg2Dist(xr, x2.data[(pl.m2[b]*R+j)*M:][:M], pl.p)
			}
		}
		return nil
	})
	return []*array{out}, nil
}

func linalg2CdistBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, x1, x2, err := linalg2CdistSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	g1, g2 := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{g1, g2}, nil
	}
	P, R, M := pl.pn, pl.rn, pl.mn
	// per broadcast batch, into full-size buffers, then summed to the
	// inputs' batch shapes
	full1 := make([]float64, pl.nb*P*M)
	full2 := make([]float64, pl.nb*R*M)
	forChunks(pl.nb, func(from, to int) error {
		for b := from; b < to; b++ {
			for i := 0; i < P; i++ {
				xr := x1.data[(pl.m1[b]*P+i)*M:][:M]
				for j := 0; j < R; j++ {
					k := (b*P+i)*R + j
					linalg2DistGrad(xr, x2.data[(pl.m2[b]*R+j)*M:][:M], full1[(b*P+i)*M:][:M], full2[(b*R+j)*M:][:M], outs[0].data[k], g.data[k], pl.p)
				}
			}
		}
		return nil
	})
	if g1 != nil {
		copy(g1.data, sumToShape(full1, append(append([]int{}, pl.batch...), P, M), x1.shape))
	}
	if g2 != nil {
		copy(g2.data, sumToShape(full2, append(append([]int{}, pl.batch...), R, M), x2.shape))
	}
	return []*array{g1, g2}, nil
}

func linalg2PdistSetup(c *call) (*array, float64, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, err
	}
	p := c.attrs.Float("p", 2)
	switch {
	case len(x.shape) != 2:
		return nil, 0, fmt.Errorf("pdist only supports 2D tensors, got: %dD", len(x.shape))
	case !x.dtype.IsFloat():
		return nil, 0, fmt.Errorf("pdist only supports floating-point dtypes")
	case !(p >= 0):
		return nil, 0, fmt.Errorf("pdist only supports non-negative p values")
	case x.dtype != tensor.Float64 && x.dtype != tensor.Float32:
		return nil, 0, nnNotImpl("pdist", x.dtype)
	}
	return x, p, nil
}

func linalg2PdistForward(c *call) ([]*array, error) {
	x, p, err := linalg2PdistSetup(c)
	if err != nil {
		return nil, err
	}
	n, m := x.shape[0], x.shape[1]
	out := nnNew([]int{n * (n - 1) / 2}, x.dtype)
	if n < 2 {
		out.shape = []int{0}
		out.data = out.data[:0]
		return []*array{out}, nil
	}
	forChunks(n, func(from, to int) error {
		for i := from; i < to; i++ {
			k := i*n - i*(i+1)/2
			for j := i + 1; j < n; j++ {
				out.data[k+j-i-1] = linalg2Dist(x.data[i*m:][:m], x.data[j*m:][:m], p)
			}
		}
		return nil
	})
	return []*array{out}, nil
}

func linalg2PdistBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	x, p, err := linalg2PdistSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gx := nnGradFor(c, 0)
	if g == nil || gx == nil {
		return []*array{gx}, nil
	}
	n, m := x.shape[0], x.shape[1]
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			linalg2DistGrad(x.data[i*m:][:m], x.data[j*m:][:m], gx.data[i*m:][:m], gx.data[j*m:][:m], outs[0].data[k], g.data[k], p)
			k++
		}
	}
	return []*array{gx}, nil
}
