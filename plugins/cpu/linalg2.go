package cpu

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/probe-dev/probe/internal/parallel"
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
	for op, k := range map[string]*kernel{
		"cholesky":            {forward: linalg2CholeskyForward, backward: linalg2CholeskyBackward},
		"cholesky_inverse":    {forward: linalg2CholInverseForward, backward: linalg2CholInverseBackward},
		"cholesky_solve":      {forward: linalg2CholSolveForward, backward: linalg2CholSolveBackward},
		"triangular_solve":    {forward: linalg2TriangularForward, backward: linalg2TriangularBackward},
		"linalg_solve":        {forward: linalg2SolveForward, backward: linalg2SolveBackward},
		"lu_solve":            {forward: linalg2LUSolveForward, backward: linalg2LUSolveBackward},
		"lu_unpack":           {forward: linalg2LUUnpackForward, backward: linalg2LUUnpackBackward},
		"svdvals":             {forward: linalg2SvdvalsForward, backward: linalg2SvdvalsBackward},
		"cond":                {forward: linalg2CondForward, backward: linalg2CondBackward},
		"pinv":                {forward: linalg2PinvForward, backward: linalg2PinvBackward},
		"matrix_rank":         {forward: linalg2MatrixRankForward},
		"symeig":              {forward: linalg2SymeigForward, backward: linalg2SymeigBackward},
		"lstsq":               {forward: linalg2LstsqForward, backward: linalg2LstsqBackward},
		"tensorsolve":         {forward: linalg2TensorsolveForward, backward: linalg2TensorsolveBackward},
		"householder_product": {forward: linalg2HHForward, backward: linalg2HHBackward},
		"ormqr":               {forward: linalg2OrmqrForward},
	} {
		register(op, k)
		supportDTypes(op, tensor.Float64, tensor.Float32)
	}
	register("matrix_norm", &kernel{forward: linalg2MatrixNormForward, backward: linalg2MatrixNormBackward})
	register("matrix_exp", &kernel{forward: linalg2MatrixExpForward, backward: linalg2MatrixExpBackward})
	// PyTorch 1.13's CPU bfloat16 matrix_exp returns garbage (exp(0.5·I)
	// gives -1.3e30 on the diagonal, 4×4 inputs NaN), so the device
	// declares float64 and float32 only, as the torch device does: a
	// bfloat16 call is SKIP on both rather than a comparison with values
	// no kernel of PyTorch's computes.
	supportDTypes("matrix_exp", tensor.Float64, tensor.Float32)
	ints := []tensor.DType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8}
	register("cov", &kernel{forward: linalg2CovForward, backward: linalg2CovBackward})
	register("corrcoef", &kernel{forward: linalg2CorrcoefForward, backward: linalg2CorrcoefBackward})
	register("cumulative_trapezoid", &kernel{forward: linalg2TrapForward(true), backward: linalg2TrapBackward(true)})
	for _, op := range []string{"cov", "corrcoef", "cumulative_trapezoid"} {
		supportDTypes(op, append([]tensor.DType{tensor.Float64, tensor.Float32, tensor.BFloat16}, ints...)...)
	}
	register("trapezoid", &kernel{forward: linalg2TrapForward(false), backward: linalg2TrapBackward(false)})
	supportDTypes("trapezoid", append(append([]tensor.DType{}, floatDTypes...), ints...)...)
	register("cartesian_prod", &kernel{forward: linalg2CartesianForward, backward: linalg2CartesianBackward})
	register("combinations", &kernel{forward: linalg2CombForward, backward: linalg2CombBackward})
	for _, op := range []string{"cartesian_prod", "combinations"} {
		supportDTypes(op, append(append([]tensor.DType{}, floatDTypes...), intDTypes...)...)
	}
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
//
// bf16 computes as PyTorch's CPU bfloat16 bmm does: each product rounded
// to bfloat16 and added in order, the sum rounded after each addition.
func linalg2Pair(a, b linalg2View, keep []int, size func(int) int, bf16 bool) (linalg2View, bool) {
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
		if bf16 {
			linalg2GemmBF16(m, n, nk, ga.data[i*m*nk:], gb.data[i*nk*n:], out[i*m*n:])
			continue
		}
		nnGemm(false, false, m, n, nk, ga.data[i*m*nk:], gb.data[i*nk*n:], out[i*m*n:], false)
	}
	ls := lab(batch, af, bf)
	ss := append(append([]int{}, sa[:len(batch)+len(af)]...), sb[len(batch)+len(contr):]...)
	return linalg2View{data: out, labels: ls, sizes: ss, strides: contiguousStrides(ss)}, linalg2CallsBmm(a, b, contr)
}

// linalg2CallsBmm reports whether PyTorch 1.13's einsum multiplies the
// pair with bmm (whose dtype dispatch refuses float16 on the CPU): only
// when a summed label is of size other than 1 in both operands (otherwise
// it sums the one side and multiplies elementwise), and only when neither
// operand is empty (bmm returns before its dispatch then).
func linalg2CallsBmm(a, b linalg2View, contr []int) bool {
	if tensor.NumElements(a.sizes) == 0 || tensor.NumElements(b.sizes) == 0 {
		return false
	}
	for _, l := range contr {
		ia, ib := slices.Index(a.labels, l), slices.Index(b.labels, l)
		if ia >= 0 && ib >= 0 && a.sizes[ia] != 1 && b.sizes[ib] != 1 {
			return true
		}
	}
	return false
}

// linalg2GemmBF16 is c = a·b (m×k, k×n) with PyTorch's CPU bfloat16
// rounding: products and running sums rounded to bfloat16.
func linalg2GemmBF16(m, n, k int, a, b, c []float64) {
	bf := func(v float64) float64 { return tensor.BFloat16Value(tensor.BFloat16Bits(v)) }
	linalg2Batches(m, func(i int) {
		for j := 0; j < n; j++ {
			s := 0.0
			for l := 0; l < k; l++ {
				p := bf(a[i*k+l] * b[l*n+j])
				if l == 0 {
					s = p
				} else {
					s = bf(s + p)
				}
			}
			c[i*n+j] = s
		}
	})
}

// linalg2Contract evaluates the einsum of views (distinct labels each)
// into the labels out, left to right as PyTorch: before each product a
// label no later operand and not the output needs is summed out.
func linalg2Contract(views []linalg2View, out []int, size func(int) int, bf16 bool) (linalg2View, bool) {
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
	sum := func(v linalg2View, drop []int) linalg2View {
		r := linalg2SumOut(v, drop)
		if bf16 && len(drop) > 0 {
			// a bfloat16 sum() result is rounded before the product
			r.data = append([]float64(nil), r.data...)
			roundSlice(tensor.BFloat16, r.data)
		}
		return r
	}
	cur := views[0]
	contracted := false
	for i := 1; i < len(views); i++ {
		cur = sum(cur, lonely(cur, i+1, views[i].labels))
		next := sum(views[i], lonely(views[i], i+1, cur.labels))
		var keep []int
		for _, l := range append(append([]int{}, cur.labels...), next.labels...) {
			if needed(i+1, l) {
				keep = append(keep, l)
			}
		}
		var c bool
		cur, c = linalg2Pair(cur, next, keep, size, bf16)
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
	r, contracted := linalg2Contract(pl.views, pl.eq.Output, pl.sizeOf, pl.dt == tensor.BFloat16)
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
		r, _ := linalg2Contract(views, target, pl.sizeOf, pl.dt == tensor.BFloat16)
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
// gy is not nil. dt is the inputs' dtype: for p = inf PyTorch picks the
// elements whose |x − y|, computed at dt, equals dist (the result at dt),
// so two differences that round alike both take the gradient.
func linalg2DistGrad(x, y, gx, gy []float64, dist, g, p float64, dt tensor.DType) {
	for k := range x {
		diff := x[k] - y[k]
		if math.IsInf(p, 1) {
			diff = roundTo(dt, diff)
		}
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
					linalg2DistGrad(xr, x2.data[(pl.m2[b]*R+j)*M:][:M], full1[(b*P+i)*M:][:M], full2[(b*R+j)*M:][:M], outs[0].data[k], g.data[k], pl.p, x1.dtype)
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
			linalg2DistGrad(x.data[i*m:][:m], x.data[j*m:][:m], gx.data[i*m:][:m], gx.data[j*m:][:m], outs[0].data[k], g.data[k], p, x.dtype)
			k++
		}
	}
	return []*array{gx}, nil
}

// ---- matrix helpers of the solvers

// linalg2MM returns op(a)·op(b): op(a) m×k, op(b) k×n (ta, tb: transposed).
func linalg2MM(a, b []float64, m, k, n int, ta, tb bool) []float64 {
	c := make([]float64, m*n)
	nnGemm(ta, tb, m, n, k, a, b, c, false)
	return c
}

// linalg2T returns the transpose of the r×c matrix a.
func linalg2T(a []float64, r, c int) []float64 {
	t := make([]float64, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			t[j*r+i] = a[i*c+j]
		}
	}
	return t
}

// linalg2Chol factors the lower triangle of the n×n matrix a as L·Lᵀ
// right-looking, as the LAPACK PyTorch links does; info is the order of the
// first leading minor that is not positive-definite (0 if none), where the
// factor stops with the trailing part updated so far and the failing
// diagonal element's updated value. The upper triangle is zero.
func linalg2Chol(a []float64, n int) ([]float64, int) {
	l := make([]float64, n*n)
	for i := 0; i < n; i++ {
		copy(l[i*n:i*n+i+1], a[i*n:i*n+i+1])
	}
	for j := 0; j < n; j++ {
		d := l[j*n+j]
		if !(d > 0) {
			return l, j + 1
		}
		d = math.Sqrt(d)
		l[j*n+j] = d
		for i := j + 1; i < n; i++ {
			l[i*n+j] /= d
		}
		for k := j + 1; k < n; k++ {
			lk := l[k*n+j]
			for i := k; i < n; i++ {
				l[i*n+k] -= l[i*n+j] * lk
			}
		}
	}
	return l, 0
}

// linalg2TriSolve solves op(t)·x = b in place: t is n×n (lower or upper
// triangular), b n×k; trans takes tᵀ, unit a unit diagonal.
func linalg2TriSolve(t []float64, n int, b []float64, k int, lower, trans, unit bool) {
	at := func(i, j int) float64 {
		if trans {
			return t[j*n+i]
		}
		return t[i*n+j]
	}
	if lower != trans { // forward substitution
		for i := 0; i < n; i++ {
			row := b[i*k : (i+1)*k]
			for j := 0; j < i; j++ {
				if v := at(i, j); v != 0 {
					for c, x := range b[j*k : (j+1)*k] {
						row[c] -= v * x
					}
				}
			}
			if !unit {
				d := at(i, i)
				for c := range row {
					row[c] /= d
				}
			}
		}
		return
	}
	for i := n - 1; i >= 0; i-- {
		row := b[i*k : (i+1)*k]
		for j := i + 1; j < n; j++ {
			if v := at(i, j); v != 0 {
				for c, x := range b[j*k : (j+1)*k] {
					row[c] -= v * x
				}
			}
		}
		if !unit {
			d := at(i, i)
			for c := range row {
				row[c] /= d
			}
		}
	}
}

// linalg2Bcast broadcasts the batch dimensions of two matrix operands.
type linalg2Bcast struct {
	batch  []int
	nb     int
	ia, ib []int // per broadcast batch: the batch index of each operand
}

func linalg2BatchOf(a, b []int) (*linalg2Bcast, error) {
	batch, err := ops.BroadcastShapes(a, b)
	if err != nil {
		return nil, err
	}
	return &linalg2Bcast{batch: batch, nb: tensor.NumElements(batch), ia: nnBroadcastIndex(a, batch), ib: nnBroadcastIndex(b, batch)}, nil
}

// linalg2SumBatch sums a gradient of broadcast batch shape (full: the
// broadcast batch followed by the matrix dims) to the operand's shape.
func linalg2SumBatch(full []float64, batch []int, mat []int, shape []int) []float64 {
	return sumToShape(full, append(append([]int{}, batch...), mat...), shape)
}

// linalg2Square checks a (batch of) square matrices, naming fn.
func linalg2Square(fn string, a *array) error {
	r := len(a.shape)
	switch {
	case r < 2:
		return fmt.Errorf("%s: The input tensor A must have at least 2 dimensions.", fn)
	case a.shape[r-1] != a.shape[r-2]:
		return fmt.Errorf("%s: A must be batches of square matrices, but they are %d by %d matrices", fn, a.shape[r-2], a.shape[r-1])
	}
	return nil
}

// linalg2Lapack checks PyTorch's LAPACK dtypes (float64 and float32).
func linalg2Lapack(kernelName, fn string, a *array) error {
	if !a.dtype.IsFloat() {
		if fn == "" {
			return nnNotImpl(kernelName, a.dtype)
		}
		return fmt.Errorf("%s: Expected a floating point or complex tensor as input. Got %s", fn, ops.TypeName(a.dtype))
	}
	if a.dtype != tensor.Float64 && a.dtype != tensor.Float32 {
		return nnNotImpl(kernelName, a.dtype)
	}
	return nil
}

// linalg2BatchPrefix is PyTorch's "(Batch element i): " of batched errors.
func linalg2BatchPrefix(a *array, b int) string {
	if len(a.shape) > 2 {
		return fmt.Sprintf("(Batch element %d): ", b)
	}
	return ""
}

// ---- cholesky, cholesky_inverse, cholesky_solve

func linalg2CholSetup(c *call) (*array, int, int, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, 0, err
	}
	fn := c.attrs.Str("fn", "linalg.cholesky")
	if err := linalg2Square(fn, a); err != nil {
		return nil, 0, 0, err
	}
	if err := linalg2Lapack("cholesky_cpu", fn, a); err != nil {
		return nil, 0, 0, err
	}
	n := a.shape[len(a.shape)-1]
	return a, n, tensor.NumElements(a.shape[:len(a.shape)-2]), nil
}

func linalg2CholeskyForward(c *call) ([]*array, error) {
	a, n, nb, err := linalg2CholSetup(c)
	if err != nil {
		return nil, err
	}
	upper := c.attrs.Bool("upper", false)
	out := nnNew(a.shape, a.dtype)
	info := nnNew(a.shape[:len(a.shape)-2], tensor.Int32)
	nn := n * n
	for b := 0; b < nb; b++ {
		m := a.data[b*nn : (b+1)*nn]
		if upper {
			m = linalg2T(m, n, n)
		}
		l, inf := linalg2Chol(m, n)
		if inf != 0 && c.attrs.Bool("check_errors", true) {
			return nil, fmt.Errorf("%s: %sThe factorization could not be completed because the input is not positive-definite (the leading minor of order %d is not positive-definite).",
				c.attrs.Str("fn", "linalg.cholesky"), linalg2BatchPrefix(a, b), inf)
		}
		if upper {
			l = linalg2T(l, n, n)
		}
		copy(out.data[b*nn:], l)
		info.data[b] = float64(inf)
	}
	return []*array{out, info}, nil
}

// linalg2CholeskyBackward is PyTorch's cholesky_backward: with L the lower
// factor, Φ(X) = tril(X) with the diagonal halved,
// gA = sym(L⁻ᵀ Φ(Lᵀ gL) L⁻¹).
func linalg2CholeskyBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	_, n, nb, err := linalg2CholSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga := nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	upper := c.attrs.Bool("upper", false)
	nn := n * n
	linalg2Batches(nb, func(b int) {
		l, gl := outs[0].data[b*nn:(b+1)*nn], g.data[b*nn:(b+1)*nn]
		if upper {
			l, gl = linalg2T(l, n, n), linalg2T(gl, n, n)
		}
		phi := linalg2MM(l, gl, n, n, n, true, false)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				phi[i*n+j] = 0
			}
			phi[i*n+i] *= 0.5
		}
		// L⁻ᵀ Φ L⁻¹: solve Lᵀ Y = Φ, then Z Lᵀ... (Y L⁻¹)ᵀ = L⁻ᵀ Yᵀ
		linalg2TriSolve(l, n, phi, n, true, true, false)
		yt := linalg2T(phi, n, n)
		linalg2TriSolve(l, n, yt, n, true, true, false)
		z := linalg2T(yt, n, n)
		dst := ga.data[b*nn : (b+1)*nn]
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				dst[i*n+j] = 0.5 * (z[i*n+j] + z[j*n+i])
			}
		}
	})
	return []*array{ga}, nil
}

// linalg2CholInverse returns (L·Lᵀ)⁻¹ (or (Uᵀ·U)⁻¹) of one factor.
func linalg2CholInverse(f []float64, n int, upper bool) []float64 {
	l := f
	if upper {
		l = linalg2T(f, n, n)
	}
	x := make([]float64, n*n)
	for i := 0; i < n; i++ {
		x[i*n+i] = 1
	}
	linalg2TriSolve(l, n, x, n, true, false, false)
	linalg2TriSolve(l, n, x, n, true, true, false)
	return x
}

func linalg2CholInverseSetup(c *call) (*array, int, int, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, 0, err
	}
	if err := linalg2Square("cholesky_inverse", a); err != nil {
		return nil, 0, 0, err
	}
	if err := linalg2Lapack("cholesky_inverse_out_cpu", "cholesky_inverse", a); err != nil {
		return nil, 0, 0, err
	}
	n := a.shape[len(a.shape)-1]
	return a, n, tensor.NumElements(a.shape[:len(a.shape)-2]), nil
}

func linalg2CholInverseForward(c *call) ([]*array, error) {
	a, n, nb, err := linalg2CholInverseSetup(c)
	if err != nil {
		return nil, err
	}
	upper := c.attrs.Bool("upper", false)
	out := nnNew(a.shape, a.dtype)
	nn := n * n
	linalg2Batches(nb, func(b int) {
		copy(out.data[b*nn:], linalg2CholInverse(a.data[b*nn:(b+1)*nn], n, upper))
	})
	return []*array{out}, nil
}

// linalg2CholInverseBackward is PyTorch's cholesky_inverse_backward:
// T = inv·(g + gᵀ)·inv, gL = −T·L (upper: −U·T).
func linalg2CholInverseBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	a, n, nb, err := linalg2CholInverseSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga := nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	upper := c.attrs.Bool("upper", false)
	nn := n * n
	linalg2Batches(nb, func(b int) {
		inv, gb, f := outs[0].data[b*nn:(b+1)*nn], g.data[b*nn:(b+1)*nn], a.data[b*nn:(b+1)*nn]
		s := make([]float64, nn)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				s[i*n+j] = gb[i*n+j] + gb[j*n+i]
			}
		}
		t := linalg2MM(inv, linalg2MM(s, inv, n, n, n, false, false), n, n, n, false, false)
		var r []float64
		if upper {
			r = linalg2MM(f, t, n, n, n, false, false)
		} else {
			r = linalg2MM(t, f, n, n, n, false, false)
		}
		dst := ga.data[b*nn : (b+1)*nn]
		for i := range dst {
			dst[i] = -r[i]
		}
	})
	return []*array{ga}, nil
}

// linalg2PairPlan is a solver call of a right-hand side b [..., n, k] and a
// square matrix a [..., n, n] whose batch dimensions broadcast.
type linalg2PairPlan struct {
	bc   *linalg2Bcast
	n, k int
	dt   tensor.DType
}

func (pl *linalg2PairPlan) outShape() []int {
	return append(append([]int{}, pl.bc.batch...), pl.n, pl.k)
}

// linalg2PairSetup checks b and a of cholesky_solve, triangular_solve and
// lu_solve (fn names the function in PyTorch's messages).
func linalg2PairSetup(fn string, b, a *array) (*linalg2PairPlan, error) {
	rb, ra := len(b.shape), len(a.shape)
	switch fn {
	case "cholesky_solve":
		if rb < 2 {
			return nil, fmt.Errorf("b should have at least 2 dimensions, but has %d dimensions instead", rb)
		}
		if ra < 2 {
			return nil, fmt.Errorf("u should have at least 2 dimensions, but has %d dimensions instead", ra)
		}
		if b.dtype != a.dtype {
			return nil, fmt.Errorf("Expected b and A to have the same dtype, but found b of type %s and A of type %s instead.", ops.TypeName(b.dtype), ops.TypeName(a.dtype))
		}
	case "triangular_solve":
		if rb < 2 {
			return nil, fmt.Errorf("torch.triangular_solve: Expected b to have at least 2 dimensions, but it has %d dimensions instead", rb)
		}
		if ra < 2 {
			return nil, fmt.Errorf("torch.triangular_solve: Expected A to have at least 2 dimensions, but it has %d dimensions instead", ra)
		}
		if b.dtype != a.dtype {
			return nil, fmt.Errorf("torch.triangular_solve: Expected b and A to have the same dtype, but found b of type %s and A of type %s instead.", ops.TypeName(b.dtype), ops.TypeName(a.dtype))
		}
	default:
		if rb < 2 {
			return nil, fmt.Errorf("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
		}
		if ra < 2 {
			return nil, fmt.Errorf("linalg.lu_solve: The input tensor LU must have at least 2 dimensions.")
		}
		if b.dtype != a.dtype {
			return nil, fmt.Errorf("linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type %s and B of type %s instead", ops.TypeName(a.dtype), ops.TypeName(b.dtype))
		}
	}
	if a.shape[ra-1] != a.shape[ra-2] {
		return nil, fmt.Errorf("%s: A must be batches of square matrices, but they are %d by %d matrices", fn, a.shape[ra-2], a.shape[ra-1])
	}
	if a.shape[ra-1] != b.shape[rb-2] {
		return nil, fmt.Errorf("Incompatible matrix sizes for %s: each A matrix is %d by %d but each b matrix is %d by %d",
			fn, a.shape[ra-2], a.shape[ra-1], b.shape[rb-2], b.shape[rb-1])
	}
	kname := map[string]string{"cholesky_solve": "cholesky_solve_cpu", "triangular_solve": "triangular_solve_cpu"}[fn]
	if kname == "" {
		kname = "linalg_lu_solve"
	}
	if err := linalg2Lapack(kname, "", a); err != nil {
		return nil, err
	}
	bc, err := linalg2BatchOf(b.shape[:rb-2], a.shape[:ra-2])
	if err != nil {
		return nil, err
	}
	return &linalg2PairPlan{bc: bc, n: a.shape[ra-1], k: b.shape[rb-1], dt: a.dtype}, nil
}

func linalg2CholSolveSetup(c *call) (*linalg2PairPlan, *array, *array, error) {
	b, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	a, err := nnNeed(c, 1, "input2")
	if err != nil {
		return nil, nil, nil, err
	}
	pl, err := linalg2PairSetup("cholesky_solve", b, a)
	return pl, b, a, err
}

// linalg2CholSolve solves (L·Lᵀ)·x = rhs in place (upper: (Uᵀ·U)).
func linalg2CholSolve(f []float64, n int, rhs []float64, k int, upper bool) {
	if upper {
		linalg2TriSolve(f, n, rhs, k, false, true, false)
		linalg2TriSolve(f, n, rhs, k, false, false, false)
		return
	}
	linalg2TriSolve(f, n, rhs, k, true, false, false)
	linalg2TriSolve(f, n, rhs, k, true, true, false)
}

func linalg2CholSolveForward(c *call) ([]*array, error) {
	pl, b, a, err := linalg2CholSolveSetup(c)
	if err != nil {
		return nil, err
	}
	upper := c.attrs.Bool("upper", false)
	out := nnNew(pl.outShape(), pl.dt)
	n, k := pl.n, pl.k
	for i := 0; i < pl.bc.nb; i++ {
		x := out.data[i*n*k : (i+1)*n*k]
		copy(x, b.data[pl.bc.ia[i]*n*k:])
		linalg2CholSolve(a.data[pl.bc.ib[i]*n*n:], n, x, k, upper)
	}
	return []*array{out}, nil
}

// linalg2CholSolveBackward is PyTorch's cholesky_solve_backward:
// gB = cholesky_solve(gX), T = gB·Xᵀ + X·gBᵀ, gL = −T·L (upper: −U·T).
func linalg2CholSolveBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, _, a, err := linalg2CholSolveSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gb, ga := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{gb, ga}, nil
	}
	upper := c.attrs.Bool("upper", false)
	n, k := pl.n, pl.k
	fullB := make([]float64, pl.bc.nb*n*k)
	fullA := make([]float64, pl.bc.nb*n*n)
	linalg2Batches(pl.bc.nb, func(i int) {
		f := a.data[pl.bc.ib[i]*n*n:][:n*n]
		gx := fullB[i*n*k : (i+1)*n*k]
		copy(gx, g.data[i*n*k:])
		linalg2CholSolve(f, n, gx, k, upper)
		x := outs[0].data[i*n*k : (i+1)*n*k]
		t := linalg2MM(gx, x, n, k, n, false, true)
		for r := 0; r < n; r++ {
			for s := r; s < n; s++ {
				v := t[r*n+s] + t[s*n+r]
				t[r*n+s], t[s*n+r] = v, v
			}
		}
		var r []float64
		if upper {
			r = linalg2MM(f, t, n, n, n, false, false)
		} else {
			r = linalg2MM(t, f, n, n, n, false, false)
		}
		for j, v := range r {
			fullA[i*n*n+j] = -v
		}
	})
	if gb != nil {
		copy(gb.data, linalg2SumBatch(fullB, pl.bc.batch, []int{n, k}, gb.shape))
	}
	if ga != nil {
		copy(ga.data, linalg2SumBatch(fullA, pl.bc.batch, []int{n, n}, ga.shape))
	}
	return []*array{gb, ga}, nil
}

// ---- triangular_solve

func linalg2TriangularSetup(c *call) (*linalg2PairPlan, *array, *array, error) {
	b, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	a, err := nnNeed(c, 1, "A")
	if err != nil {
		return nil, nil, nil, err
	}
	pl, err := linalg2PairSetup("triangular_solve", b, a)
	return pl, b, a, err
}

func linalg2TriangularForward(c *call) ([]*array, error) {
	pl, b, a, err := linalg2TriangularSetup(c)
	if err != nil {
		return nil, err
	}
	upper, trans, unit := c.attrs.Bool("upper", true), c.attrs.Bool("transpose", false), c.attrs.Bool("unitriangular", false)
	out := nnNew(pl.outShape(), pl.dt)
	m := nnNew(append(append([]int{}, pl.bc.batch...), pl.n, pl.n), pl.dt)
	n, k := pl.n, pl.k
	linalg2Batches(pl.bc.nb, func(i int) {
		x := out.data[i*n*k : (i+1)*n*k]
		copy(x, b.data[pl.bc.ia[i]*n*k:])
		t := a.data[pl.bc.ib[i]*n*n:][:n*n]
		copy(m.data[i*n*n:], t)
		linalg2TriSolve(t, n, x, k, !upper, trans, unit)
	})
	return []*array{out, m}, nil
}

// linalg2TriangularBackward is PyTorch's triangular_solve_backward:
// gB = triangular_solve(gX, A, upper, !transpose), gA = −gB·Xᵀ (transpose:
// −X·gBᵀ) restricted to A's triangle, plus the gradient of the copy of A.
func linalg2TriangularBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, _, a, err := linalg2TriangularSetup(c)
	if err != nil {
		return nil, err
	}
	g, gm := nnGradOut(gradOuts, 0), nnGradOut(gradOuts, 1)
	gb, ga := nnGradFor(c, 0), nnGradFor(c, 1)
	upper, trans, unit := c.attrs.Bool("upper", true), c.attrs.Bool("transpose", false), c.attrs.Bool("unitriangular", false)
	n, k := pl.n, pl.k
	fullB := make([]float64, pl.bc.nb*n*k)
	fullA := make([]float64, pl.bc.nb*n*n)
	linalg2Batches(pl.bc.nb, func(i int) {
		dst := fullA[i*n*n : (i+1)*n*n]
		if g != nil {
			t := a.data[pl.bc.ib[i]*n*n:][:n*n]
			gx := fullB[i*n*k : (i+1)*n*k]
			copy(gx, g.data[i*n*k:])
			linalg2TriSolve(t, n, gx, k, !upper, !trans, unit)
			x := outs[0].data[i*n*k : (i+1)*n*k]
			var r []float64
			if trans {
				r = linalg2MM(x, gx, n, k, n, false, true)
			} else {
				r = linalg2MM(gx, x, n, k, n, false, true)
			}
			for p := 0; p < n; p++ {
				for q := 0; q < n; q++ {
					in := q > p || (q == p && !unit)
					if !upper {
						in = q < p || (q == p && !unit)
					}
					if in {
						dst[p*n+q] = -r[p*n+q]
					}
				}
			}
		}
		if gm != nil {
			for j, v := range gm.data[i*n*n : (i+1)*n*n] {
				dst[j] += v
			}
		}
	})
	if gb != nil && g != nil {
		copy(gb.data, linalg2SumBatch(fullB, pl.bc.batch, []int{n, k}, gb.shape))
	}
	if ga != nil {
		copy(ga.data, linalg2SumBatch(fullA, pl.bc.batch, []int{n, n}, ga.shape))
	}
	return []*array{gb, ga}, nil
}

// ---- linalg.solve (and solve_ex)

type linalg2SolvePlan struct {
	bc     *linalg2Bcast
	n, k   int
	vector bool
	left   bool
	dt     tensor.DType
	out    []int
}

func linalg2SolveSetup(c *call) (*linalg2SolvePlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "A")
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := nnNeed(c, 1, "B")
	if err != nil {
		return nil, nil, nil, err
	}
	const fn = "linalg.solve"
	if err := linalg2Square(fn, a); err != nil {
		return nil, nil, nil, err
	}
	if err := linalg2Lapack("lu_cpu", fn, a); err != nil {
		return nil, nil, nil, err
	}
	if a.dtype != b.dtype {
		return nil, nil, nil, fmt.Errorf("linalg.solve: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead", ops.TypeName(a.dtype), ops.TypeName(b.dtype))
	}
	ra, rb := len(a.shape), len(b.shape)
	n := a.shape[ra-1]
	pl := &linalg2SolvePlan{n: n, left: c.attrs.Bool("left", true), dt: a.dtype}
	pl.vector = rb == 1 || (rb == ra-1 && slices.Equal(b.shape, a.shape[:ra-1]))
	var bb []int
	if pl.vector {
		if !pl.left {
			return nil, nil, nil, fmt.Errorf("linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)")
		}
		if b.shape[rb-1] != n {
			return nil, nil, nil, fmt.Errorf("linalg.solve: Incompatible shapes of A and B for the equation AX = B (%dx%d and %d)", n, n, b.shape[rb-1])
		}
		bb, pl.k = b.shape[:rb-1], 1
	} else {
		if rb < 2 {
			return nil, nil, nil, fmt.Errorf("linalg.solve: The input tensor B must have at least 2 dimensions.")
		}
		r, cc := b.shape[rb-2], b.shape[rb-1]
		if pl.left && r != n {
			return nil, nil, nil, fmt.Errorf("linalg.solve: Incompatible shapes of A and B for the equation AX = B (%dx%d and %dx%d)", n, n, r, cc)
		}
		if !pl.left && cc != n {
			return nil, nil, nil, fmt.Errorf("linalg.solve: Incompatible shapes of A and B for the equation XA = B (%dx%d and %dx%d)", n, n, r, cc)
		}
		bb, pl.k = b.shape[:rb-2], r
		if pl.left {
			pl.k = cc
		}
	}
	pl.bc, err = linalg2BatchOf(a.shape[:ra-2], bb)
	if err != nil {
		return nil, nil, nil, err
	}
	pl.out = append([]int{}, pl.bc.batch...)
	switch {
	case pl.vector:
		pl.out = append(pl.out, n)
	case pl.left:
		pl.out = append(pl.out, n, pl.k)
	default:
		pl.out = append(pl.out, pl.k, n)
	}
	return pl, a, b, nil
}

// linalg2LUSolve solves A·x = rhs (n×k, in place) from A's LU factors
// (laLU: 0-based pivot rows).
func linalg2LUSolve(lu []float64, piv []int, n int, rhs []float64, k int) {
	for j := 0; j < n; j++ {
		if p := piv[j]; p != j {
			for c := 0; c < k; c++ {
				rhs[j*k+c], rhs[p*k+c] = rhs[p*k+c], rhs[j*k+c]
			}
		}
	}
	linalg2TriSolve(lu, n, rhs, k, true, false, true)
	linalg2TriSolve(lu, n, rhs, k, false, false, false)
}

// linalg2SolveMats returns batch i's A (transposed for left=False) and
// B as an n×k right-hand side.
func (pl *linalg2SolvePlan) mats(i int, a, b *array) (am, bm []float64) {
	n, k := pl.n, pl.k
	am = a.data[pl.bc.ia[i]*n*n:][:n*n]
	bm = append([]float64(nil), b.data[pl.bc.ib[i]*n*k:][:n*k]...)
	if !pl.left {
		am = linalg2T(am, n, n)
		bm = linalg2T(bm, k, n)
	}
	return am, bm
}

func linalg2SolveForward(c *call) ([]*array, error) {
	pl, a, b, err := linalg2SolveSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.out, pl.dt)
	info := nnNew(a.shape[:len(a.shape)-2], tensor.Int32)
	n, k := pl.n, pl.k
	for i := 0; i < pl.bc.nb; i++ {
		am, x := pl.mats(i, a, b)
		lu, piv, inf, _ := laLU(am, n)
		if inf != 0 && c.attrs.Bool("check_errors", true) {
			return nil, fmt.Errorf("torch.linalg.solve: %sThe solver failed because the input matrix is singular.", linalg2BatchPrefix(a, i))
		}
		info.data[pl.bc.ia[i]] = float64(inf)
		linalg2LUSolve(lu, piv, n, x, k)
		if !pl.left {
			x = linalg2T(x, n, k)
		}
		copy(out.data[i*n*k:], x)
	}
	return []*array{out, info}, nil
}

// linalg2SolveBackward: gB = A⁻ᵀ·gX, gA = −gB·Xᵀ (left=False works on the
// transposed system).
func linalg2SolveBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, b, err := linalg2SolveSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{ga, gb}, nil
	}
	n, k := pl.n, pl.k
	fullA := make([]float64, pl.bc.nb*n*n)
	fullB := make([]float64, pl.bc.nb*n*k)
	for i := 0; i < pl.bc.nb; i++ {
		am, _ := pl.mats(i, a, b)
		x := outs[0].data[i*n*k : (i+1)*n*k]
		gx := append([]float64(nil), g.data[i*n*k:(i+1)*n*k]...)
		if !pl.left {
			x, gx = linalg2T(x, k, n), linalg2T(gx, k, n)
		}
		lu, piv, _, _ := laLU(linalg2T(am, n, n), n)
		linalg2LUSolve(lu, piv, n, gx, k)
		r := linalg2MM(gx, x, n, k, n, false, true)
		for j := range r {
			r[j] = -r[j]
		}
		if !pl.left {
			r, gx = linalg2T(r, n, n), linalg2T(gx, n, k)
		}
		copy(fullA[i*n*n:], r)
		copy(fullB[i*n*k:], gx)
	}
	if ga != nil {
		copy(ga.data, linalg2SumBatch(fullA, pl.bc.batch, []int{n, n}, ga.shape))
	}
	if gb != nil {
		mat := []int{n, k}
		switch {
		case pl.vector:
			mat = []int{n}
		case !pl.left:
			mat = []int{k, n}
		}
		copy(gb.data, linalg2SumBatch(fullB, pl.bc.batch, mat, gb.shape))
	}
	return []*array{ga, gb}, nil
}

// ---- lu_solve, lu_unpack

// linalg2Pivots reads LAPACK's 1-based pivots of one matrix.
func linalg2Pivots(p []float64, m int) ([]int, error) {
	out := make([]int, len(p))
	for i, v := range p {
		if v < 1 || v > float64(m) {
			return nil, fmt.Errorf("lu_unpack: LU_pivots contains an out-of-range index %d (expected 1 to %d)", int64(v), m)
		}
		out[i] = int(v) - 1
	}
	return out, nil
}

func linalg2LUSolveSetup(c *call) (*linalg2PairPlan, *array, *array, *array, error) {
	b, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	lu, err := nnNeed(c, 1, "LU_data")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	piv, err := nnNeed(c, 2, "LU_pivots")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	pl, err := linalg2PairSetup("linalg.lu_solve", b, lu)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if piv.dtype != tensor.Int32 {
		return nil, nil, nil, nil, fmt.Errorf("linalg.lu_solve: pivots should be a Tensor of scalar type Int but got type %s", ops.TypeName(piv.dtype))
	}
	if len(piv.shape) != len(lu.shape)-1 || !slices.Equal(piv.shape[:len(piv.shape)-1], lu.shape[:len(lu.shape)-2]) || piv.shape[len(piv.shape)-1] != pl.n {
		return nil, nil, nil, nil, fmt.Errorf("linalg.lu_solve: Incompatible shapes of LU and pivots: %s and %s", ops.ShapeList(lu.shape), ops.ShapeList(piv.shape))
	}
	return pl, b, lu, piv, nil
}

func linalg2LUSolveForward(c *call) ([]*array, error) {
	pl, b, lu, piv, err := linalg2LUSolveSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(pl.outShape(), pl.dt)
	n, k := pl.n, pl.k
	for i := 0; i < pl.bc.nb; i++ {
		p, err := linalg2Pivots(piv.data[pl.bc.ib[i]*n:][:n], n)
		if err != nil {
			return nil, err
		}
		x := out.data[i*n*k : (i+1)*n*k]
		copy(x, b.data[pl.bc.ia[i]*n*k:])
		linalg2LUSolve(lu.data[pl.bc.ib[i]*n*n:], p, n, x, k)
	}
	return []*array{out}, nil
}

// linalg2LUSolveBackward is PyTorch 1.13's linalg_lu_solve derivative:
// gB = A⁻ᵀ·gX; gR = −U⁻ᵀ·gX·Xᵀ, gLU = triu(gR) + tril(L⁻ᵀ·gR·Uᵀ, −1).
func linalg2LUSolveBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, _, lu, piv, err := linalg2LUSolveSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gb, gl := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{gb, gl, nil}, nil
	}
	n, k := pl.n, pl.k
	fullB := make([]float64, pl.bc.nb*n*k)
	fullL := make([]float64, pl.bc.nb*n*n)
	for i := 0; i < pl.bc.nb; i++ {
		f := lu.data[pl.bc.ib[i]*n*n:][:n*n]
		p, err := linalg2Pivots(piv.data[pl.bc.ib[i]*n:][:n], n)
		if err != nil {
			return nil, err
		}
		gx := g.data[i*n*k : (i+1)*n*k]
		x := outs[0].data[i*n*k : (i+1)*n*k]
		// gB: Aᵀ = Uᵀ·Lᵀ·Pᵀ
		z := append([]float64(nil), gx...)
		linalg2TriSolve(f, n, z, k, false, true, false)
		linalg2TriSolve(f, n, z, k, true, true, true)
		for j := n - 1; j >= 0; j-- {
			if q := p[j]; q != j {
				for cc := 0; cc < k; cc++ {
					z[j*k+cc], z[q*k+cc] = z[q*k+cc], z[j*k+cc]
				}
			}
		}
		copy(fullB[i*n*k:], z)
		// gR = −U⁻ᵀ·gX·Xᵀ
		r := linalg2MM(gx, x, n, k, n, false, true)
		linalg2TriSolve(f, n, r, n, false, true, false)
		for j := range r {
			r[j] = -r[j]
		}
		// L⁻ᵀ·gR·Uᵀ
		t := append([]float64(nil), r...)
		linalg2TriSolve(f, n, t, n, true, true, true)
		u := make([]float64, n*n)
		for a := 0; a < n; a++ {
			for b := a; b < n; b++ {
				u[a*n+b] = f[a*n+b]
			}
		}
		t = linalg2MM(t, u, n, n, n, false, true)
		dst := fullL[i*n*n : (i+1)*n*n]
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if b >= a {
					dst[a*n+b] = r[a*n+b]
				} else {
					dst[a*n+b] = t[a*n+b]
				}
			}
		}
	}
	if gb != nil {
		copy(gb.data, linalg2SumBatch(fullB, pl.bc.batch, []int{n, k}, gb.shape))
	}
	if gl != nil {
		copy(gl.data, linalg2SumBatch(fullL, pl.bc.batch, []int{n, n}, gl.shape))
	}
	return []*array{gb, gl, nil}, nil
}

func linalg2LUUnpackSetup(c *call) (*array, *array, int, int, int, error) {
	lu, err := nnNeed(c, 0, "LU_data")
	if err != nil {
		return nil, nil, 0, 0, 0, err
	}
	piv, err := nnNeed(c, 1, "LU_pivots")
	if err != nil {
		return nil, nil, 0, 0, 0, err
	}
	r := len(lu.shape)
	if r < 2 {
		return nil, nil, 0, 0, 0, fmt.Errorf("torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: %s instead", ops.ShapeList(lu.shape))
	}
	m, n := lu.shape[r-2], lu.shape[r-1]
	k := min(m, n)
	if piv.dtype != tensor.Int32 {
		return nil, nil, 0, 0, 0, fmt.Errorf("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype. Note: this function is intended to be used with the output produced by torch.linalg.lu_factor")
	}
	if len(piv.shape) != r-1 || !slices.Equal(piv.shape[:r-2], lu.shape[:r-2]) || piv.shape[r-2] != k {
		return nil, nil, 0, 0, 0, fmt.Errorf("torch.lu_unpack: LU_pivots of shape %s does not match LU_data of shape %s", ops.ShapeList(piv.shape), ops.ShapeList(lu.shape))
	}
	return lu, piv, m, n, k, nil
}

func linalg2LUUnpackForward(c *call) ([]*array, error) {
	lu, piv, m, n, k, err := linalg2LUUnpackSetup(c)
	if err != nil {
		return nil, err
	}
	batch := lu.shape[:len(lu.shape)-2]
	nb := tensor.NumElements(batch)
	withData, withPiv := c.attrs.Bool("unpack_data", true), c.attrs.Bool("unpack_pivots", true)
	shp := func(r, cc int) []int { return append(append([]int{}, batch...), r, cc) }
	p, l, u := nnNew([]int{0}, lu.dtype), nnNew([]int{0}, lu.dtype), nnNew([]int{0}, lu.dtype)
	if withPiv {
		p = nnNew(shp(m, m), lu.dtype)
		for b := 0; b < nb; b++ {
			pv, err := linalg2Pivots(piv.data[b*k:][:k], m)
			if err != nil {
				return nil, err
			}
			perm := make([]int, m)
			for i := range perm {
				perm[i] = i
			}
			for i, q := range pv {
				perm[i], perm[q] = perm[q], perm[i]
			}
			for i, q := range perm {
				p.data[b*m*m+q*m+i] = 1
			}
		}
	}
	if withData {
		l, u = nnNew(shp(m, k), lu.dtype), nnNew(shp(k, n), lu.dtype)
		linalg2Batches(nb, func(b int) {
			f := lu.data[b*m*n:]
			for i := 0; i < m; i++ {
				for j := 0; j < k; j++ {
					switch {
					case j < i:
						l.data[b*m*k+i*k+j] = f[i*n+j]
					case j == i:
						l.data[b*m*k+i*k+j] = 1
					}
				}
			}
			for i := 0; i < k; i++ {
				for j := i; j < n; j++ {
					u.data[b*k*n+i*n+j] = f[i*n+j]
				}
			}
		})
	}
	return []*array{p, l, u}, nil
}

// linalg2LUUnpackBackward: gLU = tril(gL, −1) + triu(gU), placed in the
// m×n matrix.
func linalg2LUUnpackBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	lu, _, m, n, k, err := linalg2LUUnpackSetup(c)
	if err != nil {
		return nil, err
	}
	gl := nnGradFor(c, 0)
	if gl == nil || !c.attrs.Bool("unpack_data", true) {
		return []*array{gl, nil}, nil
	}
	gL, gU := nnGradOut(gradOuts, 1), nnGradOut(gradOuts, 2)
	nb := tensor.NumElements(lu.shape[:len(lu.shape)-2])
	linalg2Batches(nb, func(b int) {
		dst := gl.data[b*m*n:]
		if gL != nil {
			for i := 0; i < m; i++ {
				for j := 0; j < min(i, k); j++ {
					dst[i*n+j] += gL.data[b*m*k+i*k+j]
				}
			}
		}
		if gU != nil {
			for i := 0; i < k; i++ {
				for j := i; j < n; j++ {
					dst[i*n+j] += gU.data[b*k*n+i*n+j]
				}
			}
		}
	})
	return []*array{gl, nil}, nil
}

// ---- SVD and eigen helpers

// linalg2SVD returns the singular values of the m×n matrix a (descending)
// and, with vectors, the thin U (m×k) and Vᵀ (k×n), k = min(m, n), by
// LAPACK's dgesvd (gonum). Non-finite input gives NaN values.
func linalg2SVD(a []float64, m, n int, vectors bool) (s, u, vt []float64) {
	k := min(m, n)
	s = make([]float64, k)
	if vectors {
		u, vt = make([]float64, m*k), make([]float64, k*n)
	}
	if k == 0 {
		return s, u, vt
	}
	if !nnAllFinite(a[:m*n]) {
		for i := range s {
			s[i] = math.NaN()
		}
		for i := range u {
			u[i] = math.NaN()
		}
		for i := range vt {
			vt[i] = math.NaN()
		}
		return s, u, vt
	}
	ac := append([]float64(nil), a[:m*n]...)
	job := lapack.SVDNone
	ug, vg := blas64.General{Stride: 1, Data: []float64{0}}, blas64.General{Stride: 1, Data: []float64{0}}
	if vectors {
		job = lapack.SVDStore
		ug = blas64.General{Rows: m, Cols: k, Stride: k, Data: u}
		vg = blas64.General{Rows: k, Cols: n, Stride: n, Data: vt}
	}
	ag := blas64.General{Rows: m, Cols: n, Stride: n, Data: ac}
	work := []float64{0}
	lapack64.Gesvd(job, job, ag, ug, vg, s, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Gesvd(job, job, ag, ug, vg, s, work, len(work))
	return s, u, vt
}

// linalg2Eigh returns the eigenvalues (ascending) of the symmetric n×n
// matrix whose upper (or lower) triangle a holds and, with vectors, the
// eigenvectors as columns, each signed so that its largest-magnitude
// element (the first of equals) is positive — a convention probe's torch
// plugin applies too, since LAPACK's signs are arbitrary.
func linalg2Eigh(a []float64, n int, upper, vectors bool) (w, v []float64) {
	w = make([]float64, n)
	if n == 0 {
		return w, []float64{}
	}
	ac := append([]float64(nil), a[:n*n]...)
	if !nnAllFinite(ac) {
		for i := range w {
			w[i] = math.NaN()
		}
		for i := range ac {
			ac[i] = math.NaN()
		}
		return w, ac
	}
	uplo := blas.Lower
	if upper {
		uplo = blas.Upper
	}
	job := lapack.EVNone
	if vectors {
		job = lapack.EVCompute
	}
	sg := blas64.Symmetric{Uplo: uplo, N: n, Stride: n, Data: ac}
	work := []float64{0}
	lapack64.Syev(job, sg, w, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Syev(job, sg, w, work, len(work))
	if !vectors {
		return w, nil
	}
	for j := 0; j < n; j++ {
		best := 0
		for i := 1; i < n; i++ {
			if math.Abs(ac[i*n+j]) > math.Abs(ac[best*n+j]) {
				best = i
			}
		}
		if ac[best*n+j] < 0 {
			for i := 0; i < n; i++ {
				ac[i*n+j] = -ac[i*n+j]
			}
		}
	}
	return w, ac
}

// linalg2Mats moves dims d0 and d1 of a to the end (in that order): the
// data as a batch of contiguous m×n matrices and the remaining dims.
func linalg2Mats(data []float64, shape []int, d0, d1 int) (mats []float64, rest []int, order []int) {
	r := len(shape)
	for i := 0; i < r; i++ {
		if i != d0 && i != d1 {
			order = append(order, i)
			rest = append(rest, shape[i])
		}
	}
	order = append(order, d0, d1)
	labels := make([]int, r)
	for i := range labels {
		labels[i] = i
	}
	sizes := make([]int, r)
	for k, d := range order {
		sizes[k] = shape[d]
	}
	v := linalg2View{data: data, labels: labels, sizes: shape, strides: contiguousStrides(shape)}
	return linalg2Gather(v, order, sizes).data, rest, order
}

// linalg2Unmats is linalg2Mats's inverse: matrices in the order `order`
// back to shape.
func linalg2Unmats(mats []float64, shape, order []int) []float64 {
	sizes := make([]int, len(order))
	for k, d := range order {
		sizes[k] = shape[d]
	}
	labels := make([]int, len(shape))
	for i := range labels {
		labels[i] = i
	}
	v := linalg2View{data: mats, labels: order, sizes: sizes, strides: contiguousStrides(sizes)}
	return linalg2Gather(v, labels, shape).data
}

// linalg2Matrices is a (batch of) m×n matrices at the end of the shape.
func linalg2Matrices(a *array) (nb, m, n int) {
	r := len(a.shape)
	return tensor.NumElements(a.shape[:r-2]), a.shape[r-2], a.shape[r-1]
}

// ---- svdvals

func linalg2SvdvalsSetup(c *call) (*array, error) {
	a, err := nnNeed(c, 0, "A")
	if err != nil {
		return nil, err
	}
	if len(a.shape) < 2 {
		return nil, fmt.Errorf("linalg.svd: The input tensor A must have at least 2 dimensions.")
	}
	if err := linalg2Lapack("linalg_svd_cpu", "linalg.svd", a); err != nil {
		return nil, err
	}
	return a, nil
}

func linalg2SvdvalsForward(c *call) ([]*array, error) {
	a, err := linalg2SvdvalsSetup(c)
	if err != nil {
		return nil, err
	}
	nb, m, n := linalg2Matrices(a)
	k := min(m, n)
	out := nnNew(append(append([]int{}, a.shape[:len(a.shape)-2]...), k), a.dtype)
	linalg2Batches(nb, func(b int) {
		s, _, _ := linalg2SVD(a.data[b*m*n:], m, n, false)
		copy(out.data[b*k:], s)
	})
	return []*array{out}, nil
}

// linalg2SvdvalsBackward: gA = U·diag(g)·Vᵀ.
func linalg2SvdvalsBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	a, err := linalg2SvdvalsSetup(c)
	if err != nil {
		return nil, err
	}
	g, ga := nnGradOut(gradOuts, 0), nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	nb, m, n := linalg2Matrices(a)
	k := min(m, n)
	linalg2Batches(nb, func(b int) {
		_, u, vt := linalg2SVD(a.data[b*m*n:], m, n, true)
		linalg2USV(ga.data[b*m*n:(b+1)*m*n], u, g.data[b*k:(b+1)*k], vt, m, n)
	})
	return []*array{ga}, nil
}

// linalg2USV writes U·diag(w)·Vᵀ into dst (m×n).
func linalg2USV(dst, u, w, vt []float64, m, n int) {
	k := min(m, n)
	us := make([]float64, m*k)
	for i := 0; i < m; i++ {
		for j := 0; j < k; j++ {
			us[i*k+j] = u[i*k+j] * w[j]
		}
	}
	nnGemm(false, false, m, n, k, us, vt, dst, false)
}

// ---- matrix_norm

// linalg2Ords are the orders of linalg.matrix_norm; the SVD ones need
// float32/float64.
var linalg2Ords = map[string]bool{"fro": false, "nuc": true, "inf": false, "-inf": false, "1": false, "-1": false, "2": true, "-2": true}

// linalg2MatNorm is the ord-norm of one m×n matrix.
func linalg2MatNorm(ord string, x []float64, m, n int) float64 {
	switch ord {
	case "fro":
		s := 0.0
		for _, v := range x[:m*n] {
			s += v * v
		}
		return math.Sqrt(s)
	case "nuc", "2", "-2":
		s, _, _ := linalg2SVD(x, m, n, false)
		if len(s) == 0 {
			return 0
		}
		switch ord {
		case "nuc":
			t := 0.0
			for _, v := range s {
				t += v
			}
			return t
		case "2":
			return s[0]
		}
		return s[len(s)-1]
	}
	sums := linalg2AbsSums(ord, x, m, n)
	best := sums[0]
	for _, v := range sums[1:] {
		if ord[0] == '-' {
			if v < best || v != v {
				best = v
			}
		} else if v > best || v != v {
			best = v
		}
	}
	return best
}

// linalg2AbsSums are the column sums of |x| (ord ±1) or the row sums (±inf).
func linalg2AbsSums(ord string, x []float64, m, n int) []float64 {
	if ord == "1" || ord == "-1" {
		s := make([]float64, n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				s[j] += math.Abs(x[i*n+j])
			}
		}
		return s
	}
	s := make([]float64, m)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s[i] += math.Abs(x[i*n+j])
		}
	}
	return s
}

// linalg2MatNormGrad writes g·d‖x‖/dx into dst (PyTorch's: abs→sum→amax
// splits the gradient evenly among tied rows/columns; the SVD orders go
// through the singular vectors).
//
// fro follows PyTorch's norm_backward step by step at dt: x·(g / norm).
func linalg2MatNormGrad(ord string, x []float64, m, n int, norm, g float64, dst []float64, dt tensor.DType) {
	for i := range dst[:m*n] {
		dst[i] = 0
	}
	switch ord {
	case "fro":
		if norm == 0 {
			return
		}
		scale := roundTo(dt, g/norm)
		for i, v := range x[:m*n] {
			dst[i] = v * scale
		}
		return
	case "nuc", "2", "-2":
		s, u, vt := linalg2SVD(x, m, n, true)
		k := len(s)
		if k == 0 {
			return
		}
		w := make([]float64, k)
		switch ord {
		case "nuc":
			for i := range w {
				w[i] = g
			}
		case "2":
			w[0] = g
		default:
			w[k-1] = g
		}
		linalg2USV(dst, u, w, vt, m, n)
		return
	}
	sums := linalg2AbsSums(ord, x, m, n)
	norm = linalg2MatNorm(ord, x, m, n) // at float64: the output may be rounded
	var idx []int
	for i, v := range sums {
		if v == norm {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	share := g / float64(len(idx))
	for _, t := range idx {
		if ord == "1" || ord == "-1" {
			for i := 0; i < m; i++ {
				dst[i*n+t] = share * sgn(x[i*n+t])
			}
		} else {
			for j := 0; j < n; j++ {
				dst[t*n+j] = share * sgn(x[t*n+j])
			}
		}
	}
}

type linalg2NormPlan struct {
	ord      string
	d0, d1   int
	keep     bool
	dt       tensor.DType
	m, n, nb int
	out      []int
}

func linalg2MatrixNormSetup(c *call) (*linalg2NormPlan, *array, error) {
	a, err := nnNeed(c, 0, "A")
	if err != nil {
		return nil, nil, err
	}
	ord := c.attrs.Str("ord", "fro")
	svd, ok := linalg2Ords[ord]
	if !ok {
		return nil, nil, fmt.Errorf("linalg.matrix_norm: Order %s not supported.", ord)
	}
	if len(a.shape) < 2 {
		return nil, nil, fmt.Errorf("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
	}
	if !a.dtype.IsFloat() {
		return nil, nil, fmt.Errorf("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(a.dtype))
	}
	dt, set, err := dtypeAttr(c, "dtype")
	if err != nil {
		return nil, nil, err
	}
	if !set {
		dt = a.dtype
	}
	if svd && dt != tensor.Float64 && dt != tensor.Float32 {
		return nil, nil, nnNotImpl("linalg_svd_cpu", dt)
	}
	dims := c.attrs.Ints("dim", []int64{-2, -1})
	if len(dims) != 2 {
		return nil, nil, fmt.Errorf("linalg.matrix_norm: dim must be a 2-tuple. Got %v", dims)
	}
	d0, err := normDim(dims[0], len(a.shape))
	if err != nil {
		return nil, nil, err
	}
	d1, err := normDim(dims[1], len(a.shape))
	if err != nil {
		return nil, nil, err
	}
	if d0 == d1 {
		return nil, nil, fmt.Errorf("linalg.matrix_norm: dims must be different. Got (%d, %d)", dims[0], dims[1])
	}
	pl := &linalg2NormPlan{ord: ord, d0: d0, d1: d1, keep: c.attrs.Bool("keepdim", false), dt: dt, m: a.shape[d0], n: a.shape[d1]}
	pl.nb = a.len() / max(1, pl.m*pl.n)
	for i, s := range a.shape {
		switch {
		case i != d0 && i != d1:
			pl.out = append(pl.out, s)
		case pl.keep:
			pl.out = append(pl.out, 1)
		}
	}
	if ord != "fro" && ord != "nuc" && pl.m*pl.n == 0 {
		// PyTorch reduces with amax/amin: abs → sum over one dim → the
		// other (±1, ±inf), or over the singular values (±2)
		fn := "amax"
		if ord[0] == '-' {
			fn = "amin"
		}
		red := len(a.shape) - 2
		switch ord {
		case "1", "-1":
			red = d1
			if d1 > d0 {
				red--
			}
		case "inf", "-inf":
			red = d0
			if d0 > d1 {
				red--
			}
		}
		return nil, nil, fmt.Errorf("%s(): Expected reduction dim %d to have non-zero size.", fn, red)
	}
	return pl, a, nil
}

// linalg2AtDType returns a's values rounded to dt when dt is narrower.
func linalg2AtDType(a *array, dt tensor.DType) []float64 {
	if a.dtype == dt || dt == tensor.Float64 {
		return a.data
	}
	v := append([]float64(nil), a.data...)
	roundSlice(dt, v)
	return v
}

func linalg2MatrixNormForward(c *call) ([]*array, error) {
	pl, a, err := linalg2MatrixNormSetup(c)
	if err != nil {
		return nil, err
	}
	mats, _, _ := linalg2Mats(linalg2AtDType(a, pl.dt), a.shape, pl.d0, pl.d1)
	out := nnNew(pl.out, pl.dt)
	mn := pl.m * pl.n
	linalg2Batches(pl.nb, func(b int) {
		out.data[b] = linalg2MatNorm(pl.ord, mats[b*mn:], pl.m, pl.n)
	})
	return []*array{out}, nil
}

func linalg2MatrixNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, err := linalg2MatrixNormSetup(c)
	if err != nil {
		return nil, err
	}
	g, ga := nnGradOut(gradOuts, 0), nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	mats, _, order := linalg2Mats(linalg2AtDType(a, pl.dt), a.shape, pl.d0, pl.d1)
	mn := pl.m * pl.n
	gm := make([]float64, len(mats))
	linalg2Batches(pl.nb, func(b int) {
		linalg2MatNormGrad(pl.ord, mats[b*mn:], pl.m, pl.n, outs[0].data[b], g.data[b], gm[b*mn:(b+1)*mn], pl.dt)
	})
	copy(ga.data, linalg2Unmats(gm, a.shape, order))
	return []*array{ga}, nil
}

// ---- cond

func linalg2CondSetup(c *call) (*array, string, error) {
	a, err := nnNeed(c, 0, "A")
	if err != nil {
		return nil, "", err
	}
	p := c.attrs.Str("p", "2")
	svd, ok := linalg2Ords[p]
	if !ok {
		return nil, "", fmt.Errorf("linalg.cond got an invalid norm type: %s", p)
	}
	if len(a.shape) < 2 {
		return nil, "", fmt.Errorf("linalg.cond: The input tensor A must have at least 2 dimensions.")
	}
	if !svd || p == "nuc" {
		if err := linalg2Square("linalg.cond(ord="+p+")", a); err != nil {
			return nil, "", err
		}
		if err := linalg2Lapack("linalg_inv_ex_cpu", "linalg.cond", a); err != nil {
			return nil, "", err
		}
	} else if err := linalg2Lapack("linalg_svd_cpu", "linalg.cond", a); err != nil {
		return nil, "", err
	}
	return a, p, nil
}

func linalg2CondForward(c *call) ([]*array, error) {
	a, p, err := linalg2CondSetup(c)
	if err != nil {
		return nil, err
	}
	nb, m, n := linalg2Matrices(a)
	out := nnNew(a.shape[:len(a.shape)-2], a.dtype)
	for b := 0; b < nb; b++ {
		x := a.data[b*m*n : (b+1)*m*n]
		if p == "2" || p == "-2" {
			s, _, _ := linalg2SVD(x, m, n, false)
			if len(s) == 0 {
				out.data[b] = math.NaN()
				continue
			}
			if p == "2" {
				out.data[b] = s[0] / s[len(s)-1]
			} else {
				out.data[b] = s[len(s)-1] / s[0]
			}
			continue
		}
		if n == 0 {
			out.data[b] = 0
			continue
		}
		inv, info := laInverse(x, n)
		if info != 0 {
			out.data[b] = math.Inf(1)
			continue
		}
		out.data[b] = linalg2MatNorm(p, x, n, n) * linalg2MatNorm(p, inv, n, n)
	}
	return []*array{out}, nil
}

// linalg2CondBackward differentiates σmax/σmin (p = 2) and σmin/σmax
// (p = -2); PyTorch 1.13 raises in the backward of the other orders.
func linalg2CondBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	a, p, err := linalg2CondSetup(c)
	if err != nil {
		return nil, err
	}
	g, ga := nnGradOut(gradOuts, 0), nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	if p != "2" && p != "-2" {
		return nil, fmt.Errorf("linalg.cond(p=%s) has no working backward in PyTorch 1.13 (an in-place inverse is read again)", p)
	}
	nb, m, n := linalg2Matrices(a)
	for b := 0; b < nb; b++ {
		s, u, vt := linalg2SVD(a.data[b*m*n:], m, n, true)
		k := len(s)
		if k == 0 {
			continue
		}
		w := make([]float64, k)
		hi, lo := s[0], s[k-1]
		if p == "2" {
			w[0] += g.data[b] / lo
			w[k-1] -= g.data[b] * hi / (lo * lo)
		} else {
			w[k-1] += g.data[b] / hi
			w[0] -= g.data[b] * lo / (hi * hi)
		}
		linalg2USV(ga.data[b*m*n:(b+1)*m*n], u, w, vt, m, n)
	}
	return []*array{ga}, nil
}

// ---- pinv, matrix_rank

// linalg2Spectrum returns the values whose cut-off decides pinv and
// matrix_rank: the singular values, or |eigenvalues| of the lower
// triangle (hermitian), with the factors that rebuild the matrix.
type linalg2Spectrum struct {
	s, u, vt []float64 // hermitian: s the eigenvalues, u the eigenvectors, vt nil
	herm     bool
}

func linalg2Spec(x []float64, m, n int, herm, vectors bool) linalg2Spectrum {
	if herm {
		w, v := linalg2Eigh(x, n, false, vectors)
		return linalg2Spectrum{s: w, u: v, herm: true}
	}
	s, u, vt := linalg2SVD(x, m, n, vectors)
	return linalg2Spectrum{s: s, u: u, vt: vt}
}

// cutoff is max(atol, rtol·max|s|).
func (sp linalg2Spectrum) cutoff(atol, rtol float64) float64 {
	mx := 0.0
	for _, v := range sp.s {
		if math.Abs(v) > mx || v != v {
			mx = math.Abs(v)
		}
	}
	return math.Max(atol, rtol*mx)
}

func linalg2PinvSetup(c *call, fn string) (*array, error) {
	a, err := nnNeed(c, 0, "A")
	if err != nil {
		return nil, err
	}
	if len(a.shape) < 2 || (a.dtype != tensor.Float64 && a.dtype != tensor.Float32) {
		if fn == "linalg.pinv" {
			return nil, fmt.Errorf("linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types",
				ops.TypeName(a.dtype), linalg2Braces(a.shape))
		}
		if len(a.shape) < 2 {
			return nil, fmt.Errorf("linalg.matrix_rank: The input tensor A must have at least 2 dimensions.")
		}
		return nil, fmt.Errorf("This function doesn't handle types other than float and double")
	}
	if c.attrs.Bool("hermitian", false) {
		if err := linalg2Square(fn, a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// linalg2Braces is a shape as PyTorch's toString writes it: "3, 3".
func linalg2Braces(shape []int) string {
	s := ""
	for i, v := range shape {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(v)
	}
	return "[" + s + "]"
}

// linalg2Pinv returns the pseudo-inverse (n×m) of one m×n matrix.
func linalg2Pinv(x []float64, m, n int, atol, rtol float64, herm bool) []float64 {
	sp := linalg2Spec(x, m, n, herm, true)
	cut := sp.cutoff(atol, rtol)
	k := len(sp.s)
	w := make([]float64, k)
	for i, v := range sp.s {
		if math.Abs(v) > cut {
			w[i] = 1 / v
		}
	}
	out := make([]float64, n*m)
	if herm {
		// V·diag(w)·Vᵀ
		vw := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				vw[i*n+j] = sp.u[i*n+j] * w[j]
			}
		}
		nnGemm(false, true, n, n, n, vw, sp.u, out, false)
		return out
	}
	// V·diag(w)·Uᵀ: (Vᵀ)ᵀ n×k, Uᵀ k×m
	vw := make([]float64, n*k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			vw[i*k+j] = sp.vt[j*n+i] * w[j]
		}
	}
	nnGemm(false, true, n, m, k, vw, sp.u, out, false)
	return out
}

func linalg2PinvForward(c *call) ([]*array, error) {
	a, err := linalg2PinvSetup(c, "linalg.pinv")
	if err != nil {
		return nil, err
	}
	nb, m, n := linalg2Matrices(a)
	out := nnNew(append(append([]int{}, a.shape[:len(a.shape)-2]...), n, m), a.dtype)
	atol, rtol, herm := c.attrs.Float("atol", 0), c.attrs.Float("rtol", 0), c.attrs.Bool("hermitian", false)
	linalg2Batches(nb, func(b int) {
		copy(out.data[b*m*n:], linalg2Pinv(a.data[b*m*n:], m, n, atol, rtol, herm))
	})
	return []*array{out}, nil
}

// linalg2PinvGrad is PyTorch's pinv_backward for one matrix: g and p are
// n×m (p = pinv(a)), a is m×n; the result is m×n.
func linalg2PinvGrad(g, p, a []float64, m, n int) []float64 {
	mm := func(x, y []float64, r, k, c int, tx, ty bool) []float64 { return linalg2MM(x, y, r, k, c, tx, ty) }
	out := make([]float64, m*n)
	if m <= n {
		k := mm(g, p, m, n, m, true, false)      // gᵀ·p: m×m
		kph := mm(k, p, m, m, n, false, true)    // K·pᵀ: m×n
		t1 := mm(p, k, n, m, m, false, false)    // p·K: n×m → −(p·K)ᵀ
		ap := mm(a, p, m, n, m, false, false)    // a·p: m×m
		t3 := mm(ap, kph, m, m, n, false, false) // (a·p)·K·pᵀ: m×n
		php := mm(p, p, m, n, m, true, false)    // pᵀ·p: m×m
		gk := mm(k, a, m, m, n, false, false)    // K·a: m×n
		gh := linalg2T(g, n, m)                  // gᵀ: m×n
		for i := range gh {
			gh[i] -= gk[i]
		}
		t4 := mm(php, gh, m, m, n, false, false)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				out[i*n+j] = -t1[j*m+i] + kph[i*n+j] - t3[i*n+j] + t4[i*n+j]
			}
		}
		return out
	}
	k := mm(p, g, n, m, n, false, true)   // p·gᵀ: n×n
	phk := mm(p, k, m, n, n, true, false) // pᵀ·K: m×n
	t1 := mm(k, p, n, n, m, false, false) // K·p: n×m → −(K·p)ᵀ
	gh := linalg2T(g, n, m)               // gᵀ: m×n
	ak := mm(a, k, m, n, n, false, false) // a·K: m×n
	for i := range gh {
		gh[i] -= ak[i]
	}
	t2 := mm(mm(gh, p, m, n, m, false, false), p, m, m, n, false, true) // (gᵀ − a·K)·p·pᵀ
	t4 := mm(mm(phk, p, m, n, m, false, false), a, m, m, n, false, false)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			out[i*n+j] = -t1[j*m+i] + t2[i*n+j] + phk[i*n+j] - t4[i*n+j]
		}
	}
	return out
}

func linalg2PinvBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	a, err := linalg2PinvSetup(c, "linalg.pinv")
	if err != nil {
		return nil, err
	}
	g, ga := nnGradOut(gradOuts, 0), nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	nb, m, n := linalg2Matrices(a)
	linalg2Batches(nb, func(b int) {
		copy(ga.data[b*m*n:], linalg2PinvGrad(g.data[b*m*n:(b+1)*m*n], outs[0].data[b*m*n:(b+1)*m*n], a.data[b*m*n:(b+1)*m*n], m, n))
	})
	return []*array{ga}, nil
}

func linalg2MatrixRankForward(c *call) ([]*array, error) {
	a, err := linalg2PinvSetup(c, "linalg.matrix_rank")
	if err != nil {
		return nil, err
	}
	nb, m, n := linalg2Matrices(a)
	out := nnNew(a.shape[:len(a.shape)-2], tensor.Int64)
	atol, rtol, herm := c.attrs.Float("atol", 0), c.attrs.Float("rtol", 0), c.attrs.Bool("hermitian", false)
	linalg2Batches(nb, func(b int) {
		sp := linalg2Spec(a.data[b*m*n:], m, n, herm, false)
		cut := sp.cutoff(atol, rtol)
		r := 0
		for _, v := range sp.s {
			if math.Abs(v) > cut {
				r++
			}
		}
		out.data[b] = float64(r)
	})
	return []*array{out}, nil
}

// ---- symeig

func linalg2SymeigSetup(c *call) (*array, int, int, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, 0, err
	}
	if err := linalg2Square("linalg.symeig", a); err != nil {
		return nil, 0, 0, err
	}
	if a.dtype != tensor.Float64 && a.dtype != tensor.Float32 {
		return nil, 0, 0, nnNotImpl("symeig_cpu", a.dtype)
	}
	nb, _, n := linalg2Matrices(a)
	return a, nb, n, nil
}

func linalg2SymeigForward(c *call) ([]*array, error) {
	a, nb, n, err := linalg2SymeigSetup(c)
	if err != nil {
		return nil, err
	}
	vec, upper := c.attrs.Bool("eigenvectors", false), c.attrs.Bool("upper", true)
	w := nnNew(a.shape[:len(a.shape)-1], a.dtype)
	v := nnNew([]int{0}, a.dtype)
	if vec || a.len() == 0 {
		v = nnNew(a.shape, a.dtype)
	}
	linalg2Batches(nb, func(b int) {
		ev, vv := linalg2Eigh(a.data[b*n*n:], n, upper, vec)
		copy(w.data[b*n:], ev)
		if vec {
			copy(v.data[b*n*n:], vv)
		}
	})
	return []*array{w, v}, nil
}

// linalg2SymeigBackward is PyTorch's linalg_eig_backward for a symmetric
// input: gA = V·(skew(Vᵀ·gV) / E + diag(gL))·Vᵀ, E_ij = L_j − L_i.
func linalg2SymeigBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	_, nb, n, err := linalg2SymeigSetup(c)
	if err != nil {
		return nil, err
	}
	ga := nnGradFor(c, 0)
	if ga == nil {
		return []*array{ga}, nil
	}
	if !c.attrs.Bool("eigenvectors", false) {
		return nil, fmt.Errorf("linalg_eig_backward: torch.symeig(A, eigenvectors=False) is not differentiable. Use torch.linalg.eigvalsh(A) instead.")
	}
	gl, gv := nnGradOut(gradOuts, 0), nnGradOut(gradOuts, 1)
	linalg2Batches(nb, func(b int) {
		l, v := outs[0].data[b*n:(b+1)*n], outs[1].data[b*n*n:(b+1)*n*n]
		mid := make([]float64, n*n)
		if gv != nil {
			vg := linalg2MM(v, gv.data[b*n*n:], n, n, n, true, false)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i != j {
						mid[i*n+j] = 0.5 * (vg[i*n+j] - vg[j*n+i]) / (l[j] - l[i])
					}
				}
			}
		}
		if gl != nil {
			for i := 0; i < n; i++ {
				mid[i*n+i] = gl.data[b*n+i]
			}
		}
		copy(ga.data[b*n*n:], linalg2MM(linalg2MM(v, mid, n, n, n, false, false), v, n, n, n, false, true))
	})
	return []*array{ga}, nil
}

// laCrossIntoAt is laCrossInto at dtype dt: bfloat16's cross kernel
// computes each component a1*b2 - a2*b1 in scalar_t, BFloat16's operators
// rounding both products and the difference; the other dtypes (float16
// has no kernel in 1.13) as laCrossInto.
func laCrossIntoAt(dt tensor.DType, pl *laCrossPlan, x, y, out []float64) {
	if dt != tensor.BFloat16 {
		laCrossInto(pl, x, y, out)
		return
	}
	rd := opRounder(dt)
	d := func(a, b, c, e float64) float64 { return rd(rd(a*b) - rd(c*e)) }
	in := pl.inner
	for o := 0; o < pl.outer; o++ {
		base := o * 3 * in
		for i := 0; i < in; i++ {
			p0, p1, p2 := base+i, base+in+i, base+2*in+i
			out[p0] = d(x[p1], y[p2], x[p2], y[p1])
			out[p1] = d(x[p2], y[p0], x[p0], y[p2])
			out[p2] = d(x[p0], y[p1], x[p1], y[p0])
		}
	}
}

// ---- matrix_exp

// linalg2Expm is exp of one n×n matrix by scaling and squaring with the
// [13/13] Padé approximant (Higham 2005).
func linalg2Expm(a []float64, n int) []float64 {
	if n == 0 {
		return []float64{}
	}
	if !nnAllFinite(a[:n*n]) {
		out := make([]float64, n*n)
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	norm := 0.0 // 1-norm
	for j := 0; j < n; j++ {
		s := 0.0
		for i := 0; i < n; i++ {
			s += math.Abs(a[i*n+j])
		}
		norm = math.Max(norm, s)
	}
	const theta13 = 5.371920351148152
	sq := 0
	if norm > theta13 {
		sq = int(math.Max(0, math.Ceil(math.Log2(norm/theta13))))
	}
	scale := math.Ldexp(1, -sq)
	x := make([]float64, n*n)
	for i, v := range a[:n*n] {
		x[i] = v * scale
	}
	b := []float64{64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
		10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1}
	id := make([]float64, n*n)
	for i := 0; i < n; i++ {
		id[i*n+i] = 1
	}
	mm := func(p, q []float64) []float64 { return linalg2MM(p, q, n, n, n, false, false) }
	x2 := mm(x, x)
	x4 := mm(x2, x2)
	x6 := mm(x4, x2)
	lin := func(cs []float64, ms ...[]float64) []float64 {
		out := make([]float64, n*n)
		for k, mtx := range ms {
			for i := range out {
				out[i] += cs[k] * mtx[i]
			}
		}
		return out
	}
	uIn := lin([]float64{b[13], b[11], b[9]}, x6, x4, x2)
	u := mm(x, func() []float64 {
		t := mm(x6, uIn)
		add := lin([]float64{b[7], b[5], b[3], b[1]}, x6, x4, x2, id)
		for i := range t {
			t[i] += add[i]
		}
		return t
	}())
	vIn := lin([]float64{b[12], b[10], b[8]}, x6, x4, x2)
	v := mm(x6, vIn)
	add := lin([]float64{b[6], b[4], b[2], b[0]}, x6, x4, x2, id)
	for i := range v {
		v[i] += add[i]
	}
	p, q := make([]float64, n*n), make([]float64, n*n)
	for i := range p {
		p[i] = v[i] + u[i]
		q[i] = v[i] - u[i]
	}
	lu, piv, _, _ := laLU(q, n)
	linalg2LUSolve(lu, piv, n, p, n)
	for ; sq > 0; sq-- {
		p = mm(p, p)
	}
	return p
}

func linalg2MatrixExpSetup(c *call) (*array, int, int, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, 0, err
	}
	if err := linalg2Square("linalg.matrix_exp", a); err != nil {
		return nil, 0, 0, err
	}
	if !a.dtype.IsFloat() {
		return nil, 0, 0, fmt.Errorf("matrix_exp: Expected a floating point or complex tensor as input. Got %s", ops.TypeName(a.dtype))
	}
	if a.dtype == tensor.Float16 {
		return nil, 0, 0, nnNotImpl("log2_vml_cpu", a.dtype)
	}
	nb, _, n := linalg2Matrices(a)
	return a, nb, n, nil
}

func linalg2MatrixExpForward(c *call) ([]*array, error) {
	a, nb, n, err := linalg2MatrixExpSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(a.shape, a.dtype)
	linalg2Batches(nb, func(b int) {
		copy(out.data[b*n*n:], linalg2Expm(a.data[b*n*n:], n))
	})
	return []*array{out}, nil
}

// linalg2MatrixExpBackward: the upper-right block of exp([[Aᵀ, G], [0, Aᵀ]])
// (PyTorch's backward_analytic_function_of_a_matrix).
func linalg2MatrixExpBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	a, nb, n, err := linalg2MatrixExpSetup(c)
	if err != nil {
		return nil, err
	}
	g, ga := nnGradOut(gradOuts, 0), nnGradFor(c, 0)
	if g == nil || ga == nil {
		return []*array{ga}, nil
	}
	N := 2 * n
	linalg2Batches(nb, func(b int) {
		blk := make([]float64, N*N)
		x, gb := a.data[b*n*n:], g.data[b*n*n:]
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				blk[i*N+j] = x[j*n+i]
				blk[(n+i)*N+n+j] = x[j*n+i]
				blk[i*N+n+j] = gb[i*n+j]
			}
		}
		e := linalg2Expm(blk, N)
		dst := ga.data[b*n*n:]
		for i := 0; i < n; i++ {
			copy(dst[i*n:(i+1)*n], e[i*N+n:i*N+N])
		}
	})
	return []*array{ga}, nil
}

// ---- lstsq

type linalg2LstsqPlan struct {
	bc       *linalg2Bcast
	m, n, k  int
	vector   bool
	driver   string
	rcond    float64
	dt       tensor.DType
	abatch   []int
	solShape []int
}

func linalg2LstsqSetup(c *call) (*linalg2LstsqPlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := nnNeed(c, 1, "b")
	if err != nil {
		return nil, nil, nil, err
	}
	ra, rb := len(a.shape), len(b.shape)
	switch {
	case a.dtype != tensor.Float64 && a.dtype != tensor.Float32:
		return nil, nil, nil, fmt.Errorf("This function doesn't handle types other than float and double")
	case a.dtype != b.dtype:
		return nil, nil, nil, fmt.Errorf("torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype %s and other's dtype %s",
			ops.TypeName(a.dtype), ops.TypeName(b.dtype))
	case ra < 2:
		return nil, nil, nil, fmt.Errorf("torch.linalg.lstsq: input must have at least 2 dimensions.")
	case ra < rb || ra-rb > 1:
		return nil, nil, nil, fmt.Errorf("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1")
	}
	pl := &linalg2LstsqPlan{m: a.shape[ra-2], n: a.shape[ra-1], vector: rb == ra-1, driver: c.attrs.Str("driver", "gelsy"), rcond: c.attrs.Float("rcond", 0), dt: a.dtype}
	bb := b.shape[:rb-1]
	pl.k = 1
	if !pl.vector {
		bb, pl.k = b.shape[:rb-2], b.shape[rb-1]
		if b.shape[rb-2] != pl.m {
			return nil, nil, nil, fmt.Errorf("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
		}
	} else if b.shape[rb-1] != pl.m {
		return nil, nil, nil, fmt.Errorf("torch.linalg.lstsq: input.size(-2) should match other.size(-1)")
	}
	pl.abatch = a.shape[:ra-2]
	if pl.bc, err = linalg2BatchOf(pl.abatch, bb); err != nil {
		return nil, nil, nil, err
	}
	pl.solShape = append(append([]int{}, pl.bc.batch...), pl.n)
	if !pl.vector {
		pl.solShape = append(pl.solShape, pl.k)
	}
	return pl, a, b, nil
}

// rhs returns batch i's right-hand side as an m×k matrix.
func (pl *linalg2LstsqPlan) rhs(i int, b *array) []float64 {
	return b.data[pl.bc.ib[i]*pl.m*pl.k:][:pl.m*pl.k]
}

func linalg2LstsqForward(c *call) ([]*array, error) {
	pl, a, b, err := linalg2LstsqSetup(c)
	if err != nil {
		return nil, err
	}
	m, n, k := pl.m, pl.n, pl.k
	sol := nnNew(pl.solShape, pl.dt)
	rank := nnNew([]int{0}, tensor.Int64)
	if pl.driver != "gels" {
		rank = nnNew(pl.abatch, tensor.Int64)
	}
	sv := nnNew([]int{0}, pl.dt)
	withSV := pl.driver == "gelsd" || pl.driver == "gelss"
	if withSV {
		sv = nnNew(append(append([]int{}, pl.abatch...), min(m, n)), pl.dt)
	}
	full := true
	res := make([]float64, pl.bc.nb*k)
	for i := 0; i < pl.bc.nb; i++ {
		x := a.data[pl.bc.ia[i]*m*n:][:m*n]
		s, u, vt := linalg2SVD(x, m, n, true)
		cut := 0.0
		if len(s) > 0 {
			cut = pl.rcond * s[0]
		}
		r := 0
		w := make([]float64, len(s))
		for j, v := range s {
			if v > cut {
				w[j] = 1 / v
				r++
			}
		}
		full = full && r == min(m, n)
		if pl.driver != "gels" {
			rank.data[pl.bc.ia[i]] = float64(r)
		}
		if withSV {
			copy(sv.data[pl.bc.ia[i]*len(s):], s)
		}
		// x = V·diag(w)·Uᵀ·b
		kk := len(s)
		utb := linalg2MM(u, pl.rhs(i, b), kk, m, k, true, false)
		for j := 0; j < kk; j++ {
			for cc := 0; cc < k; cc++ {
				utb[j*k+cc] *= w[j]
			}
		}
		xs := linalg2MM(vt, utb, n, kk, k, true, false)
		copy(sol.data[i*n*k:], xs)
		// squared residuals per column
		ax := linalg2MM(x, xs, m, n, k, false, false)
		bi := pl.rhs(i, b)
		for cc := 0; cc < k; cc++ {
			t := 0.0
			for row := 0; row < m; row++ {
				d := bi[row*k+cc] - ax[row*k+cc]
				t += d * d
			}
			res[i*k+cc] = t
		}
	}
	residuals := nnNew([]int{0}, pl.dt)
	if m > n && pl.driver != "gelsy" && full {
		shape := append([]int{}, pl.bc.batch...)
		if !pl.vector {
			shape = append(shape, k)
		}
		residuals = &array{shape: shape, data: res, dtype: pl.dt}
	}
	return []*array{sol, residuals, rank, sv}, nil
}

// linalg2LstsqBackward is PyTorch 1.13's linalg_lstsq derivative through
// the pseudo-inverse: X = pinv(A)·B, gB = pinv(A)ᵀ·gX, gA =
// pinv_backward(gX·Bᵀ).
func linalg2LstsqBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, b, err := linalg2LstsqSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{ga, gb}, nil
	}
	m, n, k := pl.m, pl.n, pl.k
	eps := 0x1p-52
	if pl.dt == tensor.Float32 {
		eps = 0x1p-23
	}
	fullA := make([]float64, pl.bc.nb*m*n)
	fullB := make([]float64, pl.bc.nb*m*k)
	for i := 0; i < pl.bc.nb; i++ {
		x := a.data[pl.bc.ia[i]*m*n:][:m*n]
		p := linalg2Pinv(x, m, n, 0, eps*float64(max(m, n)), false)
		gx := g.data[i*n*k : (i+1)*n*k]
		copy(fullB[i*m*k:], linalg2MM(p, gx, m, n, k, true, false))
		gp := linalg2MM(gx, pl.rhs(i, b), n, k, m, false, true)
		copy(fullA[i*m*n:], linalg2PinvGrad(gp, p, x, m, n))
	}
	if ga != nil {
		copy(ga.data, linalg2SumBatch(fullA, pl.bc.batch, []int{m, n}, ga.shape))
	}
	if gb != nil {
		mat := []int{m, k}
		if pl.vector {
			mat = []int{m}
		}
		copy(gb.data, linalg2SumBatch(fullB, pl.bc.batch, mat, gb.shape))
	}
	return []*array{ga, gb}, nil
}

// ---- tensorsolve

type linalg2TensorsolvePlan struct {
	order  []int // A's dims with dims moved to the end
	moved  []int // A's shape in that order
	nrow   int
	rest   []int
	labels []int
}

func linalg2TensorsolveSetup(c *call) (*linalg2TensorsolvePlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "A")
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := nnNeed(c, 1, "B")
	if err != nil {
		return nil, nil, nil, err
	}
	if err := linalg2Lapack("lu_cpu", "linalg.solve", a); err != nil {
		return nil, nil, nil, err
	}
	if a.dtype != b.dtype {
		return nil, nil, nil, fmt.Errorf("linalg.solve: Expected A and B to have the same dtype, but found A of type %s and B of type %s instead", ops.TypeName(a.dtype), ops.TypeName(b.dtype))
	}
	r := len(a.shape)
	pl := &linalg2TensorsolvePlan{}
	var dims []int
	for _, d := range c.attrs.Ints("dims", nil) {
		nd, err := normDim(d, r)
		if err != nil {
			return nil, nil, nil, err
		}
		dims = append(dims, nd)
	}
	for i := 0; i < r; i++ {
		if !slices.Contains(dims, i) {
			pl.order = append(pl.order, i)
		}
	}
	pl.order = append(pl.order, dims...)
	for _, d := range pl.order {
		pl.moved = append(pl.moved, a.shape[d])
	}
	nb := len(b.shape)
	if nb > r {
		return nil, nil, nil, fmt.Errorf("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got %d != %d", 1, b.len())
	}
	pl.rest = pl.moved[nb:]
	pl.nrow = tensor.NumElements(pl.moved[:nb])
	if p := tensor.NumElements(pl.rest); p != pl.nrow {
		return nil, nil, nil, fmt.Errorf("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got %d != %d", p, pl.nrow)
	}
	if !slices.Equal(b.shape, pl.moved[:nb]) {
		return nil, nil, nil, fmt.Errorf("linalg.solve: Incompatible shapes of A and B for the equation AX = B (%dx%d and %d)", pl.nrow, pl.nrow, b.len())
	}
	pl.labels = make([]int, r)
	for i := range pl.labels {
		pl.labels[i] = i
	}
	return pl, a, b, nil
}

// mat returns A moved and flattened to nrow×nrow.
func (pl *linalg2TensorsolvePlan) mat(a *array) []float64 {
	v := linalg2View{data: a.data, labels: pl.labels, sizes: a.shape, strides: contiguousStrides(a.shape)}
	return linalg2Gather(v, pl.order, pl.moved).data
}

func linalg2TensorsolveForward(c *call) ([]*array, error) {
	pl, a, b, err := linalg2TensorsolveSetup(c)
	if err != nil {
		return nil, err
	}
	n := pl.nrow
	lu, piv, info, _ := laLU(pl.mat(a), n)
	if info != 0 {
		return nil, fmt.Errorf("torch.linalg.solve: The solver failed because the input matrix is singular.")
	}
	x := append([]float64(nil), b.data...)
	linalg2LUSolve(lu, piv, n, x, 1)
	return []*array{{shape: append([]int{}, pl.rest...), data: x, dtype: a.dtype}}, nil
}

func linalg2TensorsolveBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, _, err := linalg2TensorsolveSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gb := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{ga, gb}, nil
	}
	n := pl.nrow
	lu, piv, _, _ := laLU(linalg2T(pl.mat(a), n, n), n)
	z := append([]float64(nil), g.data...)
	linalg2LUSolve(lu, piv, n, z, 1)
	if gb != nil {
		copy(gb.data, z)
	}
	if ga != nil {
		gm := linalg2MM(z, outs[0].data, n, 1, n, false, false)
		for i := range gm {
			gm[i] = -gm[i]
		}
		v := linalg2View{data: gm, labels: pl.order, sizes: pl.moved, strides: contiguousStrides(pl.moved)}
		copy(ga.data, linalg2Gather(v, pl.labels, a.shape).data)
	}
	return []*array{ga, gb}, nil
}

// ---- householder_product, ormqr

// linalg2Reflect applies H = I − τ·v·vᵀ (v = e_i + a[i+1:, i] of the m×k
// reflector matrix a, row stride lda) to the m×c matrix y from the left.
func linalg2Reflect(a []float64, lda, m, i int, tau float64, y []float64, c int) {
	if tau == 0 {
		return
	}
	w := make([]float64, c) // vᵀ·y
	copy(w, y[i*c:(i+1)*c])
	for r := i + 1; r < m; r++ {
		v := a[r*lda+i]
		for j := 0; j < c; j++ {
			w[j] += v * y[r*c+j]
		}
	}
	for j := 0; j < c; j++ {
		y[i*c+j] -= tau * w[j]
	}
	for r := i + 1; r < m; r++ {
		v := tau * a[r*lda+i]
		for j := 0; j < c; j++ {
			y[r*c+j] -= v * w[j]
		}
	}
}

type linalg2HHPlan struct {
	nb, m, n, k int
}

func linalg2HHSetup(c *call) (*linalg2HHPlan, *array, *array, error) {
	a, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, nil, nil, err
	}
	tau, err := nnNeed(c, 1, "tau")
	if err != nil {
		return nil, nil, nil, err
	}
	const fn = "torch.linalg.householder_product"
	r := len(a.shape)
	switch {
	case r < 2:
		return nil, nil, nil, fmt.Errorf("%s: input must have at least 2 dimensions.", fn)
	case a.shape[r-2] < a.shape[r-1]:
		return nil, nil, nil, fmt.Errorf("%s: input.shape[-2] must be greater than or equal to input.shape[-1]", fn)
	case len(tau.shape) != r-1:
		return nil, nil, nil, fmt.Errorf("%s: Expected tau to have one dimension less than input, but got tau.ndim equal to %d and input.ndim is equal to %d", fn, len(tau.shape), r)
	case a.shape[r-1] < tau.shape[r-2]:
		return nil, nil, nil, fmt.Errorf("%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", fn)
	case !slices.Equal(a.shape[:r-2], tau.shape[:r-2]):
		return nil, nil, nil, fmt.Errorf("%s: Expected batch dimensions of tau to be equal to input.shape[:-2], but got %s", fn, ops.ShapeList(tau.shape[:r-2]))
	case a.dtype != tau.dtype:
		return nil, nil, nil, fmt.Errorf("%s: tau dtype %s does not match input dtype %s", fn, ops.TypeName(tau.dtype), ops.TypeName(a.dtype))
	}
	if err := linalg2Lapack("orgqr_cpu", "", a); err != nil {
		return nil, nil, nil, err
	}
	nb, m, n := linalg2Matrices(a)
	return &linalg2HHPlan{nb: nb, m: m, n: n, k: tau.shape[r-2]}, a, tau, nil
}

// linalg2HHChain returns Y_k = E (the first n columns of I), …, Y_0 = Q
// with Y_i = H_i·Y_{i+1}.
func linalg2HHChain(pl *linalg2HHPlan, a, tau []float64) [][]float64 {
	m, n, k := pl.m, pl.n, pl.k
	ys := make([][]float64, k+1)
	y := make([]float64, m*n)
	for i := 0; i < n; i++ {
		y[i*n+i] = 1
	}
	ys[k] = y
	for i := k - 1; i >= 0; i-- {
		y = append([]float64(nil), y...)
		linalg2Reflect(a, n, m, i, tau[i], y, n)
		ys[i] = y
	}
	return ys
}

func linalg2HHForward(c *call) ([]*array, error) {
	pl, a, tau, err := linalg2HHSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(a.shape, a.dtype)
	mn := pl.m * pl.n
	linalg2Batches(pl.nb, func(b int) {
		ys := linalg2HHChain(pl, a.data[b*mn:(b+1)*mn], tau.data[b*pl.k:(b+1)*pl.k])
		copy(out.data[b*mn:], ys[0])
	})
	return []*array{out}, nil
}

// linalg2HHBackward differentiates Q = H_0·…·H_{k−1}·E reflector by
// reflector: with G_0 = gQ and G_{i+1} = H_i·G_i, H_i's gradient is
// G_i·Y_{i+1}ᵀ, whence gτ_i = −(vᵀG_i)(Y_{i+1}ᵀv) and
// gv = −τ_i(G_i·Y_{i+1}ᵀv + Y_{i+1}·G_iᵀv) below the diagonal.
func linalg2HHBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, a, tau, err := linalg2HHSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	ga, gt := nnGradFor(c, 0), nnGradFor(c, 1)
	if g == nil {
		return []*array{ga, gt}, nil
	}
	m, n, k := pl.m, pl.n, pl.k
	mn := m * n
	linalg2Batches(pl.nb, func(b int) {
		ab, tb := a.data[b*mn:(b+1)*mn], tau.data[b*k:(b+1)*k]
		ys := linalg2HHChain(pl, ab, tb)
		gi := append([]float64(nil), g.data[b*mn:(b+1)*mn]...)
		v := make([]float64, m)
		for i := 0; i < k; i++ {
			for r := range v {
				switch {
				case r < i:
					v[r] = 0
				case r == i:
					v[r] = 1
				default:
					v[r] = ab[r*n+i]
				}
			}
			y := ys[i+1]
			yv := make([]float64, n) // Y_{i+1}ᵀ·v
			gv := make([]float64, n) // G_iᵀ·v
			for r := i; r < m; r++ {
				for j := 0; j < n; j++ {
					yv[j] += y[r*n+j] * v[r]
					gv[j] += gi[r*n+j] * v[r]
				}
			}
			if gt != nil {
				s := 0.0
				for j := 0; j < n; j++ {
					s += gv[j] * yv[j]
				}
				gt.data[b*k+i] = -s
			}
			if ga != nil {
				for r := i + 1; r < m; r++ {
					s := 0.0
					for j := 0; j < n; j++ {
						s += gi[r*n+j]*yv[j] + y[r*n+j]*gv[j]
					}
					ga.data[b*mn+r*n+i] = -tb[i] * s
				}
			}
			linalg2Reflect(ab, n, m, i, tb[i], gi, n)
		}
	})
	return []*array{ga, gt}, nil
}

func linalg2OrmqrForward(c *call) ([]*array, error) {
	a, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	tau, err := nnNeed(c, 1, "input2")
	if err != nil {
		return nil, err
	}
	o, err := nnNeed(c, 2, "input3")
	if err != nil {
		return nil, err
	}
	left, trans := c.attrs.Bool("left", true), c.attrs.Bool("transpose", false)
	r := len(a.shape)
	switch {
	case r < 2:
		return nil, fmt.Errorf("torch.ormqr: input must have at least 2 dimensions.")
	case len(o.shape) != r:
		return nil, fmt.Errorf("torch.ormqr: other.dim() must be equal to input.dim()")
	case len(tau.shape) != r-1:
		return nil, fmt.Errorf("torch.ormqr: tau.dim() must be equal to input.dim() - 1")
	case left && o.shape[r-2] != a.shape[r-2]:
		return nil, fmt.Errorf("torch.ormqr: other.shape[-2] must be equal to input.shape[-2]")
	case !left && o.shape[r-1] != a.shape[r-2]:
		return nil, fmt.Errorf("torch.ormqr: other.shape[-1] must be equal to input.shape[-2]")
	case left && o.shape[r-2] < tau.shape[r-2]:
		return nil, fmt.Errorf("torch.ormqr: other.shape[-2] must be greater than or equal to tau.shape[-1]")
	case !left && o.shape[r-1] < tau.shape[r-2]:
		return nil, fmt.Errorf("torch.ormqr: other.shape[-1] must be greater than or equal to tau.shape[-1]")
	case a.shape[r-1] < tau.shape[r-2]:
		return nil, fmt.Errorf("torch.ormqr: input.shape[-1] must be greater than or equal to tau.shape[-1]")
	case !slices.Equal(a.shape[:r-2], o.shape[:r-2]) || !slices.Equal(a.shape[:r-2], tau.shape[:r-2]):
		return nil, fmt.Errorf("torch.ormqr: the batch dimensions of input, tau and other must be equal")
	case a.dtype != tau.dtype || a.dtype != o.dtype:
		return nil, fmt.Errorf("torch.ormqr: input, tau and other must have the same dtype")
	}
	if err := linalg2Lapack("ormqr_cpu", "", a); err != nil {
		return nil, err
	}
	nb, m, ka := linalg2Matrices(a)
	k := tau.shape[r-2]
	_, p, q := linalg2Matrices(o)
	out := &array{shape: append([]int{}, o.shape...), data: append([]float64(nil), o.data...), dtype: o.dtype}
	linalg2Batches(nb, func(b int) {
		ab, tb := a.data[b*m*ka:(b+1)*m*ka], tau.data[b*k:(b+1)*k]
		y := out.data[b*p*q : (b+1)*p*q]
		// C·op(Q) = (op(Q)ᵀ·Cᵀ)ᵀ
		fromLeftFirst := left == trans // apply H_0 first
		if !left {
			y = linalg2T(y, p, q)
		}
		rows, cols := p, q
		if !left {
			rows, cols = q, p
		}
		for s := 0; s < k; s++ {
			i := k - 1 - s
			if fromLeftFirst {
				i = s
			}
			linalg2Reflect(ab, ka, rows, i, tb[i], y, cols)
		}
		if !left {
			copy(out.data[b*p*q:], linalg2T(y, q, p))
		}
	})
	return []*array{out}, nil
}

// ---- cov, corrcoef

type linalg2CovPlan struct {
	vars, obs int
	w         []float64 // per observation (nil: none)
	aw        []float64 // aweights (nil: none)
	awDT      tensor.DType
	avg       []float64
	xm        []float64 // centred input, vars×obs
	norm      float64
	dt        tensor.DType
	outShape  []int
}

func linalg2CovSetup(c *call) (*linalg2CovPlan, *array, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, nil, err
	}
	fw, aw := nnInput(c, 1), nnInput(c, 2)
	if len(x.shape) > 2 {
		return nil, nil, fmt.Errorf("cov(): expected input to have two or fewer dimensions but got an input with %d dimensions", len(x.shape))
	}
	if x.dtype == tensor.Bool {
		return nil, nil, fmt.Errorf("cov(): bool dtype is not supported for input")
	}
	pl := &linalg2CovPlan{vars: 1, obs: x.len(), dt: x.dtype}
	if len(x.shape) == 2 {
		pl.vars, pl.obs = x.shape[0], x.shape[1]
		pl.outShape = []int{pl.vars, pl.vars}
	}
	if !pl.dt.IsFloat() {
		pl.dt = tensor.Float32
	}
	if fw != nil {
		switch {
		case len(fw.shape) > 1:
			return nil, nil, fmt.Errorf("cov(): expected fweights to have one or fewer dimensions but got fweights with %d dimensions", len(fw.shape))
		case fw.dtype.IsFloat() || fw.dtype == tensor.Bool:
			return nil, nil, fmt.Errorf("cov(): expected fweights to have integral dtype but got fweights with %s dtype", ops.TypeName(fw.dtype))
		case fw.len() != pl.obs:
			return nil, nil, fmt.Errorf("cov(): expected fweights to have the same numel as there are observations in the input but got %d != %d", fw.len(), pl.obs)
		}
		for _, v := range fw.data {
			if v < 0 {
				return nil, nil, fmt.Errorf("cov(): fweights cannot be negative")
			}
		}
		pl.w = append([]float64(nil), fw.data...)
	}
	if aw != nil {
		switch {
		case len(aw.shape) > 1:
			return nil, nil, fmt.Errorf("cov(): expected aweights to have one or fewer dimensions but got aweights with %d dimensions", len(aw.shape))
		case !aw.dtype.IsFloat():
			return nil, nil, fmt.Errorf("cov(): expected aweights to have floating point dtype but got aweights with %s dtype", ops.TypeName(aw.dtype))
		case aw.len() != pl.obs:
			return nil, nil, fmt.Errorf("cov(): expected aweights to have the same numel as there are observations in the input but got %d != %d", aw.len(), pl.obs)
		}
		for _, v := range aw.data {
			if v < 0 {
				return nil, nil, fmt.Errorf("cov(): aweights cannot be negative")
			}
		}
		pl.aw = aw.data
		pl.awDT = aw.dtype
		pl.dt = ops.PromoteTypes(pl.dt, aw.dtype)
		if pl.w == nil {
			pl.w = append([]float64(nil), aw.data...)
		} else {
			for i := range pl.w {
				pl.w[i] = roundTo(aw.dtype, pl.w[i]*aw.data[i])
			}
		}
	}
	if pl.dt == tensor.Float16 {
		return nil, nil, nnNotImpl("addmm_impl_cpu_", pl.dt)
	}
	corr := float64(c.attrs.Int("correction", 1))
	// the weights and their sums are PyTorch tensors of the weights' dtype
	wr := func(v float64) float64 {
		if pl.aw == nil {
			return v
		}
		return roundTo(pl.awDT, v)
	}
	wsum := float64(pl.obs)
	if pl.w != nil {
		wsum = 0
		for _, v := range pl.w {
			wsum += v
		}
		wsum = wr(wsum)
	}
	pl.avg = make([]float64, pl.vars)
	pl.xm = make([]float64, pl.vars*pl.obs)
	for i := 0; i < pl.vars; i++ {
		s := 0.0
		for j := 0; j < pl.obs; j++ {
			v := x.data[i*pl.obs+j]
			if pl.w != nil {
				v *= pl.w[j]
			}
			s += v
		}
		// PyTorch's steps, each a tensor of the result dtype: sum, / w_sum,
		// input − avg
		pl.avg[i] = pl.rd(pl.rd(s) / wsum)
		for j := 0; j < pl.obs; j++ {
			pl.xm[i*pl.obs+j] = pl.rd(x.data[i*pl.obs+j] - pl.avg[i])
		}
	}
	switch {
	case corr == 0:
		pl.norm = wsum
	case pl.aw == nil:
		pl.norm = wsum - corr
	default:
		s := 0.0
		for j, v := range pl.w {
			s += wr(v * pl.aw[j])
		}
		pl.norm = wr(wsum - wr(corr*wr(wr(s)/wsum)))
	}
	if pl.norm <= 0 {
		pl.norm = 0 // PyTorch warns and clamps: inf/NaN results
	}
	return pl, x, nil
}

// cov is xm·diag(w)·xmᵀ / norm (vars×vars).
func (pl *linalg2CovPlan) cov() []float64 {
	xw := pl.xm
	if pl.w != nil {
		xw = make([]float64, len(pl.xm))
		for i := 0; i < pl.vars; i++ {
			for j := 0; j < pl.obs; j++ {
				xw[i*pl.obs+j] = pl.xm[i*pl.obs+j] * pl.w[j]
			}
		}
	}
	// mm: PyTorch's CPU bfloat16 mm accumulates in float32 and rounds the
	// result (unlike bmm, see linalg2GemmBF16)
	c := linalg2MM(pl.xm, xw, pl.vars, pl.obs, pl.vars, false, true)
	for i := range c {
		c[i] = pl.rd(pl.rd(c[i]) / pl.norm)
	}
	return c
}

// rd rounds an intermediate result to the result dtype (float64: none).
func (pl *linalg2CovPlan) rd(v float64) float64 { return roundTo(pl.dt, v) }

// gradX is the input gradient of cov for the gradient gc of the cov
// matrix: (gc + gcᵀ)·xm·diag(w) / norm (the weighted centring takes none).
//
// Without weights at a narrow dtype it follows autograd's steps, each
// rounded: gc / norm, the two mm gradients and their sum, and the mean's
// path (−Σ, / n), which cancels only in exact arithmetic.
func (pl *linalg2CovPlan) gradX(gc []float64) []float64 {
	v := pl.vars
	if pl.w == nil && pl.dt != tensor.Float64 {
		g := make([]float64, v*v)
		for i := range g {
			g[i] = pl.rd(gc[i] / pl.norm)
		}
		a := linalg2MM(g, pl.xm, v, v, pl.obs, false, false)
		b := linalg2MM(g, pl.xm, v, v, pl.obs, true, false)
		gx := make([]float64, v*pl.obs)
		for i := 0; i < v; i++ {
			row := gx[i*pl.obs : (i+1)*pl.obs]
			sum := 0.0
			for j := range row {
				row[j] = pl.rd(pl.rd(a[i*pl.obs+j]) + pl.rd(b[i*pl.obs+j]))
				sum += row[j]
			}
			mean := pl.rd(pl.rd(-sum) / float64(pl.obs))
			for j := range row {
				row[j] = pl.rd(row[j] + mean)
			}
		}
		return gx
	}
	s := make([]float64, v*v)
	for i := 0; i < v; i++ {
		for j := 0; j < v; j++ {
			s[i*v+j] = (gc[i*v+j] + gc[j*v+i]) / pl.norm
		}
	}
	gx := linalg2MM(s, pl.xm, v, v, pl.obs, false, false)
	if pl.w != nil {
		for i := 0; i < v; i++ {
			for j := 0; j < pl.obs; j++ {
				gx[i*pl.obs+j] *= pl.w[j]
			}
		}
	}
	return gx
}

func linalg2CovForward(c *call) ([]*array, error) {
	pl, _, err := linalg2CovSetup(c)
	if err != nil {
		return nil, err
	}
	return []*array{{shape: pl.outShape, data: pl.cov(), dtype: pl.dt}}, nil
}

func linalg2CovBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, _, err := linalg2CovSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gx := nnGradFor(c, 0)
	if g == nil || gx == nil {
		return []*array{gx, nil, nil}, nil
	}
	copy(gx.data, pl.gradX(g.data))
	return []*array{gx, nil, nil}, nil
}

// linalg2Corr is corrcoef from cov as PyTorch computes it: c / s_i / s_j
// (s = sqrt(diag c)), clipped to [−1, 1]; raw keeps the unclipped values.
func linalg2Corr(cv []float64, v int, dt tensor.DType) (r, raw, s []float64) {
	s = make([]float64, v)
	for i := range s {
		s[i] = roundTo(dt, math.Sqrt(cv[i*v+i]))
	}
	r, raw = make([]float64, v*v), make([]float64, v*v)
	for i := 0; i < v; i++ {
		for j := 0; j < v; j++ {
			x := roundTo(dt, roundTo(dt, cv[i*v+j]/s[i])/s[j])
			raw[i*v+j] = x
			r[i*v+j] = math.Max(-1, math.Min(1, x))
			if x != x {
				r[i*v+j] = x
			}
		}
	}
	return r, raw, s
}

func linalg2CorrcoefForward(c *call) ([]*array, error) {
	pl, _, err := linalg2CovSetup(c)
	if err != nil {
		return nil, err
	}
	cv := pl.cov()
	if pl.outShape == nil {
		// a 1-d input: PyTorch returns c / c
		return []*array{{data: []float64{cv[0] / cv[0]}, dtype: pl.dt}}, nil
	}
	r, _, _ := linalg2Corr(cv, pl.vars, pl.dt)
	return []*array{{shape: pl.outShape, data: r, dtype: pl.dt}}, nil
}

// linalg2CorrcoefBackward: the clip passes the gradient where −1 ≤ x ≤ 1;
// x = c_ij/s_i/s_j, s_i = sqrt(c_ii).
func linalg2CorrcoefBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	pl, _, err := linalg2CovSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	gx := nnGradFor(c, 0)
	if g == nil || gx == nil {
		return []*array{gx}, nil
	}
	v := pl.vars
	if pl.outShape == nil {
		return []*array{gx}, nil // c / c: the gradient is zero
	}
	// autograd's steps of c1 = c / s_i, c2 = c1 / s_j, clip, s = sqrt(diag c),
	// each rounded at the dtype (rd: none at float64): a division's
	// gradients are g / other and −g·((self / other) / other), summed
	// over the broadcast dim
	rd := pl.rd
	cv := pl.cov()
	_, raw, s := linalg2Corr(cv, v, pl.dt)
	c1 := make([]float64, v*v)
	for i := 0; i < v; i++ {
		for j := 0; j < v; j++ {
			c1[i*v+j] = rd(cv[i*v+j] / s[i])
		}
	}
	g2 := make([]float64, v*v) // through the clip
	for i, x := range raw {
		if x >= -1 && x <= 1 {
			g2[i] = g.data[i]
		}
	}
	gc1 := make([]float64, v*v)
	gsRow := make([]float64, v) // s as the row vector of c1 / s_j
	for j := 0; j < v; j++ {
		sum := 0.0
		for i := 0; i < v; i++ {
			gc1[i*v+j] = rd(g2[i*v+j] / s[j])
			sum += rd(-g2[i*v+j] * rd(rd(c1[i*v+j]/s[j])/s[j]))
		}
		gsRow[j] = rd(sum)
	}
	gc := make([]float64, v*v)
	gsCol := make([]float64, v)
	for i := 0; i < v; i++ {
		sum := 0.0
		for j := 0; j < v; j++ {
			gc[i*v+j] = rd(gc1[i*v+j] / s[i])
			sum += rd(-gc1[i*v+j] * rd(rd(cv[i*v+j]/s[i])/s[i]))
		}
		gsCol[i] = rd(sum)
	}
	for i := 0; i < v; i++ {
		gsum := rd(gsRow[i] + gsCol[i])
		gd := rd(gsum / (2 * s[i]))
		gc[i*v+i] = rd(gc[i*v+i] + gd)
	}
	copy(gx.data, pl.gradX(gc))
	return []*array{gx}, nil
}

// ---- trapezoid, cumulative_trapezoid

type linalg2TrapPlan struct {
	ydt             tensor.DType
	outer, n, inner int
	dim             int
	dx              float64
	xs              []float64 // x broadcast to y's shape (nil: dx)
	dt              tensor.DType
	shape           []int
}

func linalg2TrapSetup(c *call, fn string) (*linalg2TrapPlan, *array, *array, error) {
	y, err := nnNeed(c, 0, "y")
	if err != nil {
		return nil, nil, nil, err
	}
	x := nnInput(c, 1)
	if y.dtype == tensor.Bool {
		return nil, nil, nil, fmt.Errorf("%s: received a bool input for `y`, but bool is not supported", fn)
	}
	if x != nil && x.dtype == tensor.Bool {
		return nil, nil, nil, fmt.Errorf("%s: received a bool input for `x`, but bool is not supported", fn)
	}
	if len(y.shape) == 0 {
		return nil, nil, nil, fmt.Errorf("Dimension specified as %d but tensor has no dimensions", c.attrs.Int("dim", -1))
	}
	d, err := normDim(c.attrs.Int("dim", -1), len(y.shape))
	if err != nil {
		return nil, nil, nil, err
	}
	pl := &linalg2TrapPlan{dim: d, n: y.shape[d], outer: tensor.NumElements(y.shape[:d]), inner: tensor.NumElements(y.shape[d+1:]), dx: c.attrs.Float("dx", 1), shape: y.shape}
	pl.dt, pl.ydt = y.dtype, y.dtype
	if x != nil {
		pl.dt = resultType(y, x)
		xs := x.shape
		if len(xs) == 1 {
			if xs[0] != pl.n {
				return nil, nil, nil, fmt.Errorf("%s: There must be one `x` value for each sample point", fn)
			}
			xs = make([]int, len(y.shape))
			for i := range xs {
				xs[i] = 1
			}
			xs[d] = pl.n
		}
		full, err := ops.BroadcastShapes(xs, y.shape)
		if err != nil || !slices.Equal(full, y.shape) {
			return nil, nil, nil, fmt.Errorf("%s: x and y must be broadcastable to y's shape, got %s and %s", fn, ops.ShapeList(x.shape), ops.ShapeList(y.shape))
		}
		pl.xs = expandTo(&array{shape: xs, data: x.data}, y.shape)
	}
	if !pl.dt.IsFloat() {
		pl.dt = tensor.Float32
	}
	return pl, y, x, nil
}

// at is the flat index of element k along dim of row (o, i).
func (pl *linalg2TrapPlan) at(o, k, i int) int { return (o*pl.n+k)*pl.inner + i }

// pair is y_k + y_{k+1}: PyTorch adds them at y's dtype.
func (pl *linalg2TrapPlan) pair(y *array, o, k, i int) float64 {
	v := y.data[pl.at(o, k, i)] + y.data[pl.at(o, k+1, i)]
	if pl.ydt.IsFloat() {
		return roundTo(pl.ydt, v)
	}
	return v
}

// rd2 rounds a sum of y values to y's dtype (a float y).
func (pl *linalg2TrapPlan) rd2(v float64) float64 {
	if pl.ydt.IsFloat() {
		return roundTo(pl.ydt, v)
	}
	return v
}

// step is the width between samples k and k+1.
func (pl *linalg2TrapPlan) step(o, k, i int) float64 {
	if pl.xs == nil {
		return pl.dx
	}
	return pl.xs[pl.at(o, k+1, i)] - pl.xs[pl.at(o, k, i)]
}

func linalg2TrapForward(cumulative bool) func(c *call) ([]*array, error) {
	fn := map[bool]string{false: "trapezoid", true: "cumulative_trapezoid"}[cumulative]
	return func(c *call) ([]*array, error) {
		pl, y, _, err := linalg2TrapSetup(c, fn)
		if err != nil {
			return nil, err
		}
		if cumulative && pl.dt == tensor.Float16 {
			return nil, nnNotImpl("cumsum_out_cpu", pl.dt)
		}
		shape := append([]int{}, pl.shape...)
		if cumulative {
			shape[pl.dim] = max(pl.n-1, 0)
		} else {
			shape = append(shape[:pl.dim], shape[pl.dim+1:]...)
		}
		out := nnNew(shape, pl.dt)
		// PyTorch's steps, each a tensor of the result dtype (rd):
		// trapezoid (y.sum(dim) − (y_0 + y_last)·0.5)·dx, or
		// sum(Δx·(y_k + y_k+1)) / 2; cumulative_trapezoid
		// cumsum(dx/2·(y_k + y_k+1)), or cumsum(Δx·(y_k + y_k+1)) / 2 (a
		// cumsum accumulates wider and rounds each output)
		rd := func(v float64) float64 { return roundTo(pl.dt, v) }
		for o := 0; o < pl.outer; o++ {
			for i := 0; i < pl.inner; i++ {
				if !cumulative && pl.xs == nil {
					if pl.n == 0 {
						continue
					}
					all := 0.0
					for k := 0; k < pl.n; k++ {
						all += y.data[pl.at(o, k, i)]
					}
					ends := pl.rd2(y.data[pl.at(o, 0, i)] + y.data[pl.at(o, pl.n-1, i)])
					out.data[o*pl.inner+i] = rd(rd(pl.rd2(all)-rd(ends*0.5)) * pl.dx)
					continue
				}
				s := 0.0
				for k := 0; k+1 < pl.n; k++ {
					var t float64
					if pl.xs == nil {
						t = rd(pl.dx / 2 * pl.pair(y, o, k, i))
					} else {
						t = rd(pl.step(o, k, i) * pl.pair(y, o, k, i))
					}
					s += t
					if cumulative {
						v := rd(s)
						if pl.xs != nil {
							v = rd(v / 2)
						}
						out.data[(o*(pl.n-1)+k)*pl.inner+i] = v
					}
				}
				if !cumulative {
					out.data[o*pl.inner+i] = rd(rd(s) / 2)
				}
			}
		}
		return []*array{out}, nil
	}
}

func linalg2TrapBackward(cumulative bool) func(c *call, outs, gradOuts []*array) ([]*array, error) {
	fn := map[bool]string{false: "trapezoid", true: "cumulative_trapezoid"}[cumulative]
	return func(c *call, outs, gradOuts []*array) ([]*array, error) {
		pl, y, x, err := linalg2TrapSetup(c, fn)
		if err != nil {
			return nil, err
		}
		g := nnGradOut(gradOuts, 0)
		gy, gxArr := nnGradFor(c, 0), nnGradFor(c, 1)
		if g == nil {
			return []*array{gy, gxArr}, nil
		}
		var gx []float64
		if gxArr != nil {
			gx = make([]float64, len(y.data))
		}
		rd := func(v float64) float64 { return roundTo(pl.dt, v) }
		rc := make([]float64, max(pl.n-1, 0))
		for o := 0; o < pl.outer; o++ {
			for i := 0; i < pl.inner; i++ {
				// gradient of interval k's term: the sum of the output
				// gradients that include it (cumulative: the reverse cumsum
				// autograd forms, rounded at the dtype like its steps)
				for k := range rc {
					rc[k] = g.data[o*pl.inner+i]
				}
				if cumulative {
					acc := 0.0
					for k := pl.n - 2; k >= 0; k-- {
						v := g.data[(o*(pl.n-1)+k)*pl.inner+i]
						if pl.xs != nil {
							v = rd(v / 2)
						}
						acc += v
						rc[k] = rd(acc)
					}
				}
				for k := 0; k+1 < pl.n; k++ {
					var w float64
					switch {
					case cumulative && pl.xs == nil:
						w = rd(rc[k] * pl.dx / 2)
					case cumulative:
						w = rd(rc[k] * pl.step(o, k, i))
					default:
						w = rc[k] * pl.step(o, k, i) / 2
					}
					if gy != nil {
						gy.data[pl.at(o, k, i)] += w
						gy.data[pl.at(o, k+1, i)] += w
					}
					if gx != nil {
						t := rc[k] * pl.pair(y, o, k, i)
						if !cumulative || pl.xs == nil {
							t /= 2
						}
						gx[pl.at(o, k+1, i)] += t
						gx[pl.at(o, k, i)] -= t
					}
				}
			}
		}
		if gxArr != nil {
			xs := x.shape
			if len(xs) == 1 && len(pl.shape) > 1 {
				xs = make([]int, len(pl.shape))
				for i := range xs {
					xs[i] = 1
				}
				xs[pl.dim] = pl.n
			}
			copy(gxArr.data, sumToShape(gx, pl.shape, xs))
		}
		return []*array{gy, gxArr}, nil
	}
}

// ---- cartesian_prod, combinations

func linalg2CartesianSetup(c *call) ([]int, tensor.DType, error) {
	sizes := make([]int, len(c.in))
	var dt tensor.DType
	for i, a := range c.in {
		if a == nil || len(a.shape) != 1 {
			shape := []int{}
			if a != nil {
				shape = a.shape
			}
			return nil, 0, fmt.Errorf("Expect a 1D vector, but got shape %s", ops.ShapeList(shape))
		}
		if i == 0 {
			dt = a.dtype
		} else if a.dtype != dt {
			return nil, 0, fmt.Errorf("meshgrid expects all tensors to have the same dtype")
		}
		sizes[i] = a.shape[0]
	}
	if len(sizes) == 0 {
		return nil, 0, fmt.Errorf("cartesian_prod expects at least one tensor")
	}
	return sizes, dt, nil
}

func linalg2CartesianForward(c *call) ([]*array, error) {
	sizes, dt, err := linalg2CartesianSetup(c)
	if err != nil {
		return nil, err
	}
	k := len(sizes)
	if k == 1 {
		return []*array{c.in[0].clone()}, nil
	}
	n := tensor.NumElements(sizes)
	out := nnNew([]int{n, k}, dt)
	st := contiguousStrides(sizes)
	for r := 0; r < n; r++ {
		for j := 0; j < k; j++ {
			out.data[r*k+j] = c.in[j].data[(r/st[j])%sizes[j]]
		}
	}
	return []*array{out}, nil
}

func linalg2CartesianBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	sizes, _, err := linalg2CartesianSetup(c)
	if err != nil {
		return nil, err
	}
	g := nnGradOut(gradOuts, 0)
	grads := make([]*array, len(c.in))
	if g == nil {
		return grads, nil
	}
	k := len(sizes)
	for j := range c.in {
		grads[j] = nnGradFor(c, j)
	}
	if k == 1 {
		if grads[0] != nil {
			copy(grads[0].data, g.data)
		}
		return grads, nil
	}
	n := tensor.NumElements(sizes)
	st := contiguousStrides(sizes)
	for r := 0; r < n; r++ {
		for j := 0; j < k; j++ {
			if grads[j] != nil {
				grads[j].data[(r/st[j])%sizes[j]] += g.data[r*k+j]
			}
		}
	}
	return grads, nil
}

// linalg2Combos lists the index tuples of combinations (with_replacement:
// non-decreasing) in lexicographic order.
func linalg2Combos(n, r int, repl bool) [][]int {
	var out [][]int
	cur := make([]int, r)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == r {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := from; i < n; i++ {
			cur[pos] = i
			if repl {
				rec(pos+1, i)
			} else {
				rec(pos+1, i+1)
			}
		}
	}
	rec(0, 0)
	return out
}

func linalg2CombSetup(c *call) (*array, int, bool, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, 0, false, err
	}
	if len(x.shape) != 1 {
		return nil, 0, false, fmt.Errorf("Expect a 1D vector, but got shape %s", ops.ShapeList(x.shape))
	}
	r := c.attrs.Int("r", 2)
	if r < 0 {
		return nil, 0, false, fmt.Errorf("Expect a non-negative number, but got %d", r)
	}
	return x, int(r), c.attrs.Bool("with_replacement", false), nil
}

func linalg2CombForward(c *call) ([]*array, error) {
	x, r, repl, err := linalg2CombSetup(c)
	if err != nil {
		return nil, err
	}
	if r == 0 {
		return []*array{nnNew([]int{0}, x.dtype)}, nil
	}
	cs := linalg2Combos(x.shape[0], r, repl)
	out := nnNew([]int{len(cs), r}, x.dtype)
	for i, t := range cs {
		for j, k := range t {
			out.data[i*r+j] = x.data[k]
		}
	}
	return []*array{out}, nil
}

func linalg2CombBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	x, r, repl, err := linalg2CombSetup(c)
	if err != nil {
		return nil, err
	}
	g, gx := nnGradOut(gradOuts, 0), nnGradFor(c, 0)
	if g == nil || gx == nil || r == 0 {
		return []*array{gx}, nil
	}
	for i, t := range linalg2Combos(x.shape[0], r, repl) {
		for j, k := range t {
			gx.data[k] += g.data[i*r+j]
		}
	}
	return []*array{gx}, nil
}

// linalg2Batches runs fn for every batch index in [0, nb), spread over the
// cores; batches are independent (each writes its own slice of the
// results), so the results do not depend on the core count.
func linalg2Batches(nb int, fn func(b int)) {
	parallel.Chunks(nb, 1, func(from, to int) error {
		for b := from; b < to; b++ {
			fn(b)
		}
		return nil
	})
}
