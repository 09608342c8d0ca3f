package cpu

import (
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Matrix products at bfloat16 as PyTorch 1.13's CPU kernels compute them
// (float16 has no CPU matrix-product kernel in 1.13: its ops refuse it).
// Measured against real torch, bit for bit (gen_golden_gemm_narrow.py):
//
//   - Above 16³ multiply-adds (m·n·k for mm, addmm, addmv's m·k, dot's k,
//     batch·m·n·k for bmm and baddbmm) oneDNN's bf16 matmul takes the
//     product: float32 accumulation, rounded once, which the float64
//     product rounded once matches; callers keep their float64 kernels
//     there (narrowGemm and friends return false).
//   - Below, addmm_impl_cpu_ calls cpublas::gemm on the transposed
//     problem (row-major C as column-major Cᵀ = Bᵀ·Aᵀ). With B transposed
//     and A not, that is the BLAS "transa" loop: a float32 dot product (four
//     partial sums) and c = beta·c + alpha·dot rounded once. Every other
//     layout runs the naive loops: each product is rounded to bfloat16 and
//     added to C, which is bfloat16, so the running sum is rounded at every
//     step, starting from beta·C (C holds self for addmm).
//   - bmm and baddbmm below 400 multiply-adds per batch run
//     baddbmm_cpu_kernel in bfloat16 arithmetic whatever the layout:
//     r = beta·r, then r += (alpha·a)·b, each operation rounded.
//   - mv and addmv call gemv: a row-major matrix sums its products rounded
//     to bfloat16 in bfloat16, then y = beta·y + alpha·sum (each op
//     rounded); a transposed one adds alpha·x[j]·column j to y column by
//     column; dot is the naive loop.
//
// Operands hold bfloat16 values in float64; the kernels work on float32
// copies (bfloat16 products and sums are formed in float32 by PyTorch) and
// round with bf16Round: no dtype dispatch inside the loops.

// narrowOneDNN is the size above which PyTorch's bf16 products go to
// oneDNN (mkldnn_gemm_min_size in 1.13's checksize).
const narrowOneDNN = 16 * 16 * 16

// narrowSmallBmm is baddbmm's bound for its own kernel (per batch).
const narrowSmallBmm = 400

// narrowDT reports whether dt's matrix products follow the loops above.
func narrowDT(dt tensor.DType) bool { return dt == tensor.BFloat16 }

// bf16Round rounds a float32 to bfloat16 (to nearest even, NaN kept).
func bf16Round(x float32) float32 {
	if x != x {
		return x
	}
	u := math.Float32bits(x)
	u += 0x7FFF + (u>>16)&1
	return math.Float32frombits(u & 0xFFFF0000)
}

// narrowOperands copies op(A) row-major (m×k) and op(B) column-major (one
// row of k values per column of op(B)) into float32.
func narrowOperands(transA, transB bool, m, n, k int, a, b []float64) (ar, bc []float32) {
	ar = make([]float32, m*k)
	bc = make([]float32, n*k)
	for i := 0; i < m; i++ {
		row := ar[i*k : (i+1)*k]
		for l := range row {
			if transA {
				row[l] = float32(a[l*m+i])
			} else {
				row[l] = float32(a[i*k+l])
			}
		}
	}
	for j := 0; j < n; j++ {
		col := bc[j*k : (j+1)*k]
		for l := range col {
			if transB {
				col[l] = float32(b[j*k+l])
			} else {
				col[l] = float32(b[l*n+j])
			}
		}
	}
	return ar, bc
}

// narrowGemm sets c (m×n, row-major, bfloat16 values) to beta·c +
// alpha·op(A)·op(B) as PyTorch's addmm does at bfloat16 (op as in nnGemm:
// A stored k×m when transA, B stored n×k when transB); beta == 0 ignores
// c. It returns false, leaving c alone, where oneDNN would take the
// product.
func narrowGemm(transA, transB bool, m, n, k int, a, b, c []float64, beta, alpha float64) bool {
	if m*n*k > narrowOneDNN {
		return false
	}
	if m == 0 || n == 0 {
		return true
	}
	ar, bc := narrowOperands(transA, transB, m, n, k, a, b)
	be, al := float32(beta), float32(alpha)
	if transB && !transA {
		// gemm_transa_: float32 dot products with four partial sums.
		for i := 0; i < m; i++ {
			row := ar[i*k : (i+1)*k]
			for j := 0; j < n; j++ {
				d := dot4(row, bc[j*k:(j+1)*k])
				o := &c[i*n+j]
				if beta == 0 {
					*o = float64(bf16Round(al * d))
				} else {
					*o = float64(bf16Round(float32(be*float32(*o)) + float32(al*d)))
				}
			}
		}
		return true
	}
	// gemm_notrans_ and friends: c = beta·c, then c += b·(a·alpha), every
	// product and sum rounded to bfloat16.
	for i := 0; i < m; i++ {
		row := ar[i*k : (i+1)*k]
		if alpha != 1 {
			for l := range row {
				row[l] *= al
			}
		}
		for j := 0; j < n; j++ {
			col := bc[j*k : (j+1)*k]
			var s float32
			switch beta {
			case 0:
			case 1:
				s = float32(c[i*n+j])
			default:
				s = bf16Round(float32(c[i*n+j]) * be)
			}
			for l, x := range row {
				s = bf16Round(s + bf16Round(col[l]*x))
			}
			c[i*n+j] = float64(s)
		}
	}
	return true
}

// dot4 is cpublas's sum: four float32 partial sums over i mod 4, the
// tail added to the first, then the partial sums in order.
func dot4(x, y []float32) float32 {
	var p0, p1, p2, p3 float32
	n := len(x)
	y = y[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p0 += x[i] * y[i]
		p1 += x[i+1] * y[i+1]
		p2 += x[i+2] * y[i+2]
		p3 += x[i+3] * y[i+3]
	}
	for ; i < n; i++ {
		p0 += x[i] * y[i]
	}
	return p0 + p1 + p2 + p3
}

// narrowBmm sets c[q] (m×n) to beta·c[q] + alpha·op(A[q])·op(B[q]) for bs
// batches as PyTorch's bmm and baddbmm do at bfloat16; A[q] starts at
// a[aOff[q]], B[q] at b[bOff[q]]. False where oneDNN takes the product.
func narrowBmm(transA, transB bool, bs, m, n, k int, a, b []float64, aOff, bOff []int, c []float64, beta, alpha float64) bool {
	if bs*m*n*k > narrowOneDNN {
		return false
	}
	for q := 0; q < bs; q++ {
		cq := c[q*m*n : (q+1)*m*n]
		if m*n*k >= narrowSmallBmm {
			narrowGemm(transA, transB, m, n, k, a[aOff[q]:], b[bOff[q]:], cq, beta, alpha)
			continue
		}
		narrowBmmKernel(transA, transB, m, n, k, a[aOff[q]:], b[bOff[q]:], cq, beta, alpha)
	}
	return true
}

// narrowBmmKernel is baddbmm_cpu_kernel in bfloat16 arithmetic: r =
// beta·r, r += (alpha·a)·b, beta and alpha cast to bfloat16.
func narrowBmmKernel(transA, transB bool, m, n, k int, a, b, c []float64, beta, alpha float64) {
	ar, bc := narrowOperands(transA, transB, m, n, k, a, b)
	be, al := bf16Round(float32(beta)), bf16Round(float32(alpha))
	if al != 1 {
		for l, x := range ar {
			ar[l] = bf16Round(al * x)
		}
	}
	for i := 0; i < m; i++ {
		row := ar[i*k : (i+1)*k]
		for j := 0; j < n; j++ {
			col := bc[j*k : (j+1)*k]
			var s float32
			if beta != 0 {
				s = bf16Round(be * float32(c[i*n+j]))
			}
			for l, x := range row {
				s = bf16Round(s + bf16Round(x*col[l]))
			}
			c[i*n+j] = float64(s)
		}
	}
}

// batchOffsets returns q·stride for q < bs.
func batchOffsets(bs, stride int) []int {
	off := make([]int, bs)
	for q := range off {
		off[q] = q * stride
	}
	return off
}

// narrowGemv sets y (m values) to beta·y + alpha·op(A)·x as PyTorch's
// addmv and mv do at bfloat16 (A m×k, stored k×m when transA); false
// where oneDNN takes the product (m·k > 16³).
func narrowGemv(transA bool, m, k int, a, x, y []float64, beta, alpha float64) bool {
	if m*k > narrowOneDNN {
		return false
	}
	be, al := bf16Round(float32(beta)), bf16Round(float32(alpha))
	xs := make([]float32, k)
	for l := range xs {
		xs[l] = float32(x[l])
	}
	if !transA {
		// gemv 't' on the column-major view: a bfloat16 sum per row.
		for i := 0; i < m; i++ {
			row := a[i*k : (i+1)*k]
			var s float32
			for l, xv := range xs {
				s = bf16Round(s + bf16Round(xv*float32(row[l])))
			}
			s = bf16Round(al * s)
			if beta != 0 {
				s = bf16Round(bf16Round(be*float32(y[i])) + s)
			}
			y[i] = float64(s)
		}
		return true
	}
	// gemv 'n': y = beta·y, then y += (alpha·x[l])·column l.
	ys := make([]float32, m)
	if beta != 0 {
		for i := range ys {
			ys[i] = float32(y[i])
			if beta != 1 {
				ys[i] = bf16Round(be * ys[i])
			}
		}
	}
	for l, xv := range xs {
		z := bf16Round(al * xv)
		col := a[l*m : (l+1)*m]
		for i := range ys {
			ys[i] = bf16Round(ys[i] + bf16Round(z*float32(col[i])))
		}
	}
	for i, v := range ys {
		y[i] = float64(v)
	}
	return true
}

// narrowDot is torch.dot at bfloat16: products and running sum rounded;
// false above 16³ elements (oneDNN).
func narrowDot(x, y []float64) (float64, bool) {
	if len(x) > narrowOneDNN {
		return 0, false
	}
	var s float32
	for i, v := range x {
		s = bf16Round(s + bf16Round(float32(v)*float32(y[i])))
	}
	return float64(s), true
}

// narrowMatmul is torch.matmul at bfloat16 (pl from nnMatmulPlan),
// following 1.13's dispatch: dot; mv (a ≥3-d first operand folded into its
// rows); mm (a 1-d first operand as a row, a ≥3-d one folded); a matrix or
// vector by a ≥3-d b as (bᵀ·aᵀ)ᵀ (narrowMatmulT); else bmm on the
// broadcast batches. False where oneDNN takes the product (all of matmul's
// forms count batches·n·p·k multiply-adds against the same bound).
func narrowMatmul(a, b *array, pl *nnBatchedPlan) ([]float64, bool) {
	ra, rb := len(a.shape), len(b.shape)
	n, k, p := pl.n, pl.k, pl.p
	bs := len(pl.aIdx)
	if bs*n*p*k > narrowOneDNN {
		return nil, false
	}
	switch {
	case ra == 1 && rb == 1:
		v, ok := narrowDot(a.data, b.data)
		return []float64{v}, ok
	case rb == 1:
		out := make([]float64, bs*n)
		return out, narrowGemv(false, bs*n, k, a.data, b.data, out, 0, 1)
	case rb == 2:
		out := make([]float64, bs*n*p)
		return out, narrowGemm(false, false, bs*n, p, k, a.data, b.data, out, 0, 1)
	case ra <= 2:
		return narrowMatmulT(a, b, pl)
	}
	out := make([]float64, bs*n*p)
	return out, narrowBmm(false, false, bs, n, p, k, a.data, b.data, scaleOffsets(pl.aIdx, n*k), scaleOffsets(pl.bIdx, k*p), out, 0, 1)
}

// scaleOffsets returns idx[q]·stride.
func scaleOffsets(idx []int, stride int) []int {
	off := make([]int, len(idx))
	for q, i := range idx {
		off[q] = i * stride
	}
	return off
}

// narrowMatmulGrads is torch.matmul's backward at bfloat16: the
// backward formulas of the op narrowMatmul ran (mm: g·Bᵀ and Aᵀ·g; mv:
// g⊗vec, which needs no product loop, and Aᵀ·g; bmm per batch, summed over
// broadcast batches in float32). doneA and doneB say which gradients it
// computed; the others (dot's, the outer product's, oneDNN's) are left to
// the float64 kernel.
func narrowMatmulGrads(a, b *array, pl *nnBatchedPlan, g []float64, wantA, wantB bool) (ga, gb []float64, doneA, doneB bool) {
	ra, rb := len(a.shape), len(b.shape)
	n, k, p := pl.n, pl.k, pl.p
	bs := len(pl.aIdx)
	if bs*n*p*k > narrowOneDNN || k == 0 {
		return nil, nil, false, false
	}
	switch {
	case ra == 1 && rb == 1:
		return nil, nil, false, false
	case rb == 1:
		if wantB {
			gb = make([]float64, k)
			doneB = narrowGemv(true, k, bs*n, a.data, g, gb, 0, 1)
		}
		return nil, gb, false, doneB
	case rb == 2:
		if wantA {
			ga = make([]float64, bs*n*k)
			doneA = narrowGemm(false, true, bs*n, k, p, g, b.data, ga, 0, 1)
		}
		if wantB {
			gb = make([]float64, k*p)
			doneB = narrowGemm(true, false, k, p, bs*n, a.data, g, gb, 0, 1)
		}
		return ga, gb, doneA, doneB
	case ra <= 2:
		ga, gb, done := narrowMatmulTGrads(a, b, pl, g, wantA, wantB)
		return ga, gb, done, done
	}
	gOff := batchOffsets(bs, n*p)
	if wantA {
		full := make([]float64, bs*n*k)
		if narrowBmm(false, true, bs, n, k, p, g, b.data, gOff, scaleOffsets(pl.bIdx, k*p), full, 0, 1) {
			ga, doneA = narrowBatchSum(full, pl.aIdx, pl.aBatches, n*k), true
		}
	}
	if wantB {
		full := make([]float64, bs*k*p)
		if narrowBmm(true, false, bs, k, p, n, a.data, g, scaleOffsets(pl.aIdx, n*k), gOff, full, 0, 1) {
			gb, doneB = narrowBatchSum(full, pl.bIdx, pl.bBatches, k*p), true
		}
	}
	return ga, gb, doneA, doneB
}

// narrowBatchSum sums per-output-batch gradients (blocks of size) into
// the batches of the input they came from (idx), in float32 and rounded
// once, as the backward of expand does; a batch used once is copied.
func narrowBatchSum(full []float64, idx []int, batches, size int) []float64 {
	if len(idx) == batches {
		identity := true
		for q, i := range idx {
			identity = identity && q == i
		}
		if identity {
			return full
		}
	}
	acc := make([]float32, batches*size)
	for q, i := range idx {
		dst := acc[i*size : (i+1)*size]
		for e, v := range full[q*size : (q+1)*size] {
			dst[e] += float32(v)
		}
	}
	out := make([]float64, len(acc))
	for e, v := range acc {
		out[e] = float64(bf16Round(v))
	}
	return out
}

// narrowAddmm sets out (n×p) to beta·s + alpha·A·B at bfloat16 (s
// broadcast to out's shape), as addmm does: self is copied into the
// result, which the product loops then update. False where oneDNN takes
// the product.
func narrowAddmm(s *array, a, b []float64, n, k, p int, out []float64, beta, alpha float64) bool {
	if n*k*p > narrowOneDNN {
		return false
	}
	if beta != 0 {
		narrowFill(out, s, []int{n, p})
	}
	return narrowGemm(false, false, n, p, k, a, b, out, beta, alpha)
}

// narrowFill copies s broadcast to shape into out.
func narrowFill(out []float64, s *array, shape []int) {
	if s.len() == 1 {
		for i := range out {
			out[i] = s.data[0]
		}
		return
	}
	for i, j := range nnBroadcastIndex(s.shape, shape) {
		out[i] = s.data[j]
	}
}

// narrowMMGrads sets ga = g·Bᵀ (n×k) and gb = Aᵀ·g (k×p) for the product
// A (n×k) · B (k×p) of row-major operands, as mm's backward formulas run
// at bfloat16 (g·Bᵀ takes the float32 dot loop, Aᵀ·g the naive one); nil
// slices are skipped. It reports which it computed.
func narrowMMGrads(a, b, g []float64, n, k, p int, ga, gb []float64) (doneA, doneB bool) {
	if ga != nil {
		doneA = narrowGemm(false, true, n, k, p, g, b, ga, 0, 1)
	}
	if gb != nil {
		doneB = narrowGemm(true, false, k, p, n, a, g, gb, 0, 1)
	}
	return doneA, doneB
}

// dataOf is x's data, nil for a nil array.
func dataOf(x *array) []float64 {
	if x == nil {
		return nil
	}
	return x.data
}

// narrowProduct sets c to op(A)·op(B) at bfloat16 for bs batches of
// m×k by k×n (contiguous batches): bmm's loops when batched, mm's
// otherwise, and where oneDNN takes the product the float64 product
// rounded once (through float32, as oneDNN's float32 accumulator).
func narrowProduct(batched, transA, transB bool, bs, m, n, k int, a, b, c []float64) {
	if batched && narrowBmm(transA, transB, bs, m, n, k, a, b, batchOffsets(bs, m*k), batchOffsets(bs, k*n), c, 0, 1) {
		return
	}
	if !batched && narrowGemm(transA, transB, m, n, k, a, b, c, 0, 1) {
		return
	}
	for q := 0; q < bs; q++ {
		nnGemm(transA, transB, m, n, k, a[q*m*k:], b[q*k*n:], c[q*m*n:], false)
	}
	roundSlice(tensor.Float32, c)
	roundSlice(tensor.BFloat16, c)
}

// narrowChain is a graph of matrix products (multi_dot's order,
// matrix_power's squarings) over bs batches of leaf matrices, evaluated and
// differentiated as autograd runs mm or bmm at bfloat16: every
// intermediate rounded, g·Rᵀ and Lᵀ·g per product, and the gradients of a
// leaf used more than once added in bfloat16 in the order autograd's
// engine delivers them (see backward).
type narrowChain struct {
	bs      int
	batched bool        // bmm through matmul's views, else mm
	vals    [][]float64 // leaves and products, in creation order
	dims    [][2]int    // rows, cols of every value
	ops     [][2]int    // operand ids of a product; {-1, -1} for a leaf
}

func newNarrowChain(bs int, batched bool) *narrowChain {
	return &narrowChain{bs: bs, batched: batched}
}

// leaf adds an input (bs batches of rows×cols) and returns its id.
func (ch *narrowChain) leaf(data []float64, rows, cols int) int {
	ch.vals = append(ch.vals, data)
	ch.dims = append(ch.dims, [2]int{rows, cols})
	ch.ops = append(ch.ops, [2]int{-1, -1})
	return len(ch.vals) - 1
}

// mul adds the product of values l and r, computes it, and returns its id.
func (ch *narrowChain) mul(l, r int) int {
	m, k, n := ch.dims[l][0], ch.dims[l][1], ch.dims[r][1]
	out := make([]float64, ch.bs*m*n)
	narrowProduct(ch.batched, false, false, ch.bs, m, n, k, ch.vals[l], ch.vals[r], out)
	ch.vals = append(ch.vals, out)
	ch.dims = append(ch.dims, [2]int{m, n})
	ch.ops = append(ch.ops, [2]int{l, r})
	return len(ch.vals) - 1
}

// backward returns the gradients of every value given g for value top
// (nil where none flows). It replays autograd's engine: the ready node
// with the highest sequence number runs first, a leaf's AccumulateGrad
// (sequence number UINT64_MAX) as soon as all its gradients arrived, and
// a product's backward sends self's gradient before mat2's. Batched
// products run through matmul's expand/reshape views (one node per
// operand, created in operand order before the bmm) and its output view;
// plain ones are mm nodes alone.
func (ch *narrowChain) backward(top int, g []float64) [][]float64 {
	nv := len(ch.vals)
	grads := make([][]float64, nv)
	add := func(id int, v []float64) {
		if grads[id] == nil {
			grads[id] = v
			return
		}
		for i, x := range v {
			grads[id][i] = float64(bf16Round(float32(grads[id][i]) + float32(x)))
		}
	}
	// Nodes: value id v (its product's output node, or the leaf's
	// AccumulateGrad), and for batched products the operand views
	// nv + 2·v + side. Sequence numbers follow creation.
	const leafSeq = math.MaxInt
	seq := func(node int) int {
		if node >= nv {
			v, side := (node-nv)/2, (node-nv)%2
			return 4*v + side
		}
		if ch.ops[node][0] < 0 {
			return leafSeq
		}
		return 4*node + 3
	}
	// the nodes a product's backward feeds, self's first
	targets := func(v int) [2]int {
		if ch.batched {
			return [2]int{nv + 2*v, nv + 2*v + 1}
		}
		return ch.ops[v]
	}
	deps := map[int]int{}
	var count func(node int)
	count = func(node int) {
		deps[node]++
		if deps[node] > 1 {
			return
		}
		switch {
		case node >= nv:
			count(ch.ops[(node-nv)/2][(node-nv)%2])
		case ch.ops[node][0] >= 0:
			for _, t := range targets(node) {
				count(t)
			}
		}
	}
	count(top)
	pending := map[int][]float64{} // gradients of view nodes
	var ready []int
	send := func(node int, v []float64) {
		if node < nv {
			add(node, v)
		} else {
			pending[node] = v
		}
		if deps[node]--; deps[node] == 0 {
			ready = append(ready, node)
		}
	}
	send(top, g)
	for len(ready) > 0 {
		best := 0
		for i, n := range ready {
			if seq(n) > seq(ready[best]) {
				best = i
			}
		}
		node := ready[best]
		ready = append(ready[:best], ready[best+1:]...)
		if node >= nv {
			send(ch.ops[(node-nv)/2][(node-nv)%2], pending[node])
			continue
		}
		if ch.ops[node][0] < 0 {
			continue
		}
		l, r := ch.ops[node][0], ch.ops[node][1]
		gp := grads[node]
		m, k, n := ch.dims[l][0], ch.dims[l][1], ch.dims[r][1]
		gl := make([]float64, ch.bs*m*k)
		narrowProduct(ch.batched, false, true, ch.bs, m, k, n, gp, ch.vals[r], gl)
		gr := make([]float64, ch.bs*k*n)
		narrowProduct(ch.batched, true, false, ch.bs, k, n, m, ch.vals[l], gp, gr)
		t := targets(node)
		send(t[0], gl)
		send(t[1], gr)
	}
	return grads
}

// narrowMultiDotOrder builds linalg.multi_dot's product tree over the
// chain's leaves 0..n-1 (dims: rows, cols of each): two matrices
// multiplied, three by the cheaper of (AB)C and A(BC) (A(BC) only when
// strictly cheaper), more in the matrix-chain order of 1.13's
// matrix_chain_order. It returns the id of the result.
func narrowMultiDotOrder(ch *narrowChain, dims [][2]int) int {
	n := len(dims)
	switch n {
	case 2:
		return ch.mul(0, 1)
	case 3:
		a, b, c, d := dims[0][0], dims[1][0], dims[2][0], dims[2][1]
		if (a*c)*(b+d) > (b*d)*(a+c) {
			return ch.mul(0, ch.mul(1, 2))
		}
		return ch.mul(ch.mul(0, 1), 2)
	}
	p := make([]int, n+1)
	p[0] = dims[0][0]
	for i := range dims {
		p[i+1] = dims[i][1]
	}
	cost := make([][]int, n)
	split := make([][]int, n)
	for i := range cost {
		cost[i], split[i] = make([]int, n), make([]int, n)
	}
	for l := 1; l < n; l++ {
		for i := 0; i+l < n; i++ {
			j := i + l
			cost[i][j] = math.MaxInt
			for k := i; k < j; k++ {
				if q := cost[i][k] + cost[k+1][j] + p[i]*p[k+1]*p[j+1]; q < cost[i][j] {
					cost[i][j], split[i][j] = q, k
				}
			}
		}
	}
	var build func(i, j int) int
	build = func(i, j int) int {
		if i == j {
			return i
		}
		return ch.mul(build(i, split[i][j]), build(split[i][j]+1, j))
	}
	return build(0, n-1)
}

// narrowPowerOrder builds linalg.matrix_power's products for exponent
// m ≥ 1 of leaf 0: a·a for 2, (a·a)·a for 3, else binary powering
// (z squared each step, result·z for a set bit).
func narrowPowerOrder(ch *narrowChain, m int64) int {
	switch m {
	case 1:
		return 0
	case 2:
		return ch.mul(0, 0)
	case 3:
		return ch.mul(ch.mul(0, 0), 0)
	}
	z, res := -1, -1
	for ; m > 0; m /= 2 {
		if z < 0 {
			z = 0
		} else {
			z = ch.mul(z, z)
		}
		if m%2 == 1 {
			if res < 0 {
				res = z
			} else {
				res = ch.mul(res, z)
			}
		}
	}
	return res
}

// narrowMultiDot evaluates linalg.multi_dot's tree over c's inputs (dims
// from laMultiDotSetup) at bfloat16.
func narrowMultiDot(c *call, dims [][2]int) (*narrowChain, int) {
	ch := newNarrowChain(1, false)
	for i, t := range c.in {
		ch.leaf(t.data, dims[i][0], dims[i][1])
	}
	return ch, narrowMultiDotOrder(ch, dims)
}

// narrowPower evaluates linalg.matrix_power (exponent ≥ 2) at bfloat16:
// matmul of ≥3-d inputs runs bmm over the flattened batches, of a matrix
// mm.
func narrowPower(pl *laPowerPlan, a *array) (*narrowChain, int) {
	ch := newNarrowChain(pl.batch, len(a.shape) > 2)
	ch.leaf(a.data, pl.n, pl.n)
	return ch, narrowPowerOrder(ch, pl.pow)
}

// narrowAddr sets out (n×m) to beta·s + (alpha·v1)·v2 as addr's
// elementwise kernel does at bfloat16: each operation rounded, beta and
// alpha cast to bfloat16; beta == 0 ignores s.
func narrowAddr(out []float64, s *array, v1, v2 []float64, beta, alpha float64) {
	be, al := bf16Round(float32(beta)), bf16Round(float32(alpha))
	m := len(v2)
	if beta != 0 {
		narrowFill(out, s, []int{len(v1), m})
	}
	for i, x := range v1 {
		ax := bf16Round(al * float32(x))
		row := out[i*m : (i+1)*m]
		for j, y := range v2 {
			p := bf16Round(ax * float32(y))
			if beta != 0 {
				p = bf16Round(bf16Round(be*float32(row[j])) + p)
			}
			row[j] = float64(p)
		}
	}
}

// narrowOuterGrads is the backward of outer (self.reshape(-1, 1) * vec2)
// at bfloat16: mul's gradients g·y and g·x rounded, summed to each input's
// shape in float32. gx (n) and gy (m) may be nil.
func narrowOuterGrads(g, x, y, gx, gy []float64) {
	n, m := len(x), len(y)
	for i := range gx {
		var s float32
		for j, v := range g[i*m : (i+1)*m] {
			s += bf16Round(float32(v) * float32(y[j]))
		}
		gx[i] = float64(bf16Round(s))
	}
	if gy != nil {
		acc := make([]float32, m)
		for i := 0; i < n; i++ {
			xi := float32(x[i])
			for j, v := range g[i*m : (i+1)*m] {
				acc[j] += bf16Round(float32(v) * xi)
			}
		}
		for j, v := range acc {
			gy[j] = float64(bf16Round(v))
		}
	}
}

// narrowKronGrad is one input's gradient of kron at bfloat16: mul's
// g·other rounded, then sum_to the input's shape as PyTorch's CPU sum
// runs it (measured): the product's dims interleave the inputs' (a0, b0,
// a1, b1, ...), size-1 dims drop and neighbours of one kind (summed or
// kept) merge; the innermost two merged dims form the kernel's inner loop,
// summed in float32 and rounded, and every outer step adds its partial
// sum into the bfloat16 result. idx and oIdx map product elements (row-
// major) to this input's and the other's elements; sizes are the
// interleaved dims, reduced marks the summed ones.
func narrowKronGrad(dst, g, other []float64, idx, oIdx []int, sizes []int, reduced []bool) {
	var kinds []bool // merged dims, outermost first
	var lens []int
	for d, n := range sizes {
		if n == 1 {
			continue
		}
		if len(kinds) > 0 && kinds[len(kinds)-1] == reduced[d] {
			lens[len(lens)-1] *= n
			continue
		}
		kinds, lens = append(kinds, reduced[d]), append(lens, n)
	}
	block := 1
	for i := max(0, len(lens)-2); i < len(lens); i++ {
		block *= lens[i]
	}
	out := make([]float32, len(dst))
	acc := make([]float32, len(dst))
	var touched []int
	for e, v := range g {
		j := idx[e]
		if acc[j] == 0 {
			touched = append(touched, j)
		}
		acc[j] += bf16Round(float32(v) * float32(other[oIdx[e]]))
		if (e+1)%block == 0 || e == len(g)-1 {
			for _, t := range touched {
				out[t] = bf16Round(out[t] + bf16Round(acc[t]))
				acc[t] = 0
			}
			touched = touched[:0]
		}
	}
	for i, v := range out {
		dst[i] = float64(v)
	}
}

// narrowVecdot is linalg.vecdot at bfloat16, (x * y).sum(dim): products
// rounded, summed in float32 (red maps each element to its result),
// rounded once.
func narrowVecdot(out, xe, ye []float64, red []int) {
	acc := make([]float32, len(out))
	for e, j := range red {
		acc[j] += bf16Round(float32(xe[e]) * float32(ye[e]))
	}
	for i, v := range acc {
		out[i] = float64(bf16Round(v))
	}
}

// narrowOperand is x.permute(order).reshape(rows, cols) as tensordot's
// mm sees it, the rows made of order's first nRows dims (self's free
// dims, other's contracted ones): x itself for the identity, a transposed
// view of x (stored cols×rows) when order rotates x's dims so that its
// first nRows dims are x's last ones, else a contiguous copy (gathered
// with idx): other of shape (4, 5, 3) permuted (2, 0, 1) into 12×5 is a
// copy, its row dims (2, 0) not x's last two.
func narrowOperand(x *array, order []int, nRows int, idx []int) (data []float64, trans bool) {
	r := len(order)
	rot := -1
	for j := 0; j < r && rot < 0; j++ {
		ok := true
		for i, d := range order {
			ok = ok && d == (i+j)%r
		}
		if ok {
			rot = j
		}
	}
	switch {
	case rot == 0:
		return x.data, false
	case rot > 0 && nRows == r-rot:
		return x.data, true
	}
	return laTake(x.data, idx), false
}

// narrowTensordot is tensordot's mm at bfloat16 on its operands' layouts;
// false where oneDNN takes it.
func narrowTensordot(pl *laTensordotPlan, a, b *array, out []float64) bool {
	da, ta := narrowOperand(a, pl.orderA, pl.nFree, pl.aIdx)
	db, tb := narrowOperand(b, pl.orderB, len(pl.orderA)-pl.nFree, pl.bIdx)
	return narrowGemm(ta, tb, pl.m, pl.p, pl.k, da, db, out, 0, 1)
}

// narrowTensordotGrads is the backward of tensordot's mm (t1 m×k, t2 k×p)
// at bfloat16 as mm_mat1_backward and mm_mat2_backward compute it: a
// column-major operand gets (t2·gᵀ)ᵀ or (gᵀ·t1)ᵀ, a row-major one g·t2ᵀ or
// t1ᵀ·g. The gradients are added into ga and gb (nil: not wanted) through
// the gathers; false where oneDNN takes the products.
func narrowTensordotGrads(pl *laTensordotPlan, a, b *array, g, ga, gb []float64) bool {
	m, k, p := pl.m, pl.k, pl.p
	if m*k*p > narrowOneDNN {
		return false
	}
	da, ta := narrowOperand(a, pl.orderA, pl.nFree, pl.aIdx)
	db, tb := narrowOperand(b, pl.orderB, len(pl.orderA)-pl.nFree, pl.bIdx)
	if ga != nil {
		buf := make([]float64, m*k)
		if ta {
			x := make([]float64, k*m)
			narrowGemm(tb, true, k, m, p, db, g, x, 0, 1)
			narrowTranspose(buf, x, k, m)
		} else {
			narrowGemm(false, !tb, m, k, p, g, db, buf, 0, 1)
		}
		for i, j := range pl.aIdx {
			ga[j] += buf[i]
		}
	}
	if gb != nil {
		buf := make([]float64, k*p)
		if tb {
			y := make([]float64, p*k)
			narrowGemm(true, ta, p, k, m, g, da, y, 0, 1)
			narrowTranspose(buf, y, p, k)
		} else {
			narrowGemm(!ta, false, k, p, m, da, g, buf, 0, 1)
		}
		for i, j := range pl.bIdx {
			gb[j] += buf[i]
		}
	}
	return true
}

// narrowTranspose writes the transpose of src (rows×cols) into dst.
func narrowTranspose(dst, src []float64, rows, cols int) {
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			dst[j*rows+i] = src[i*cols+j]
		}
	}
}

// narrowAddInto is addmm_(c, A, B) at bfloat16 (c += op(A)·op(B)): the
// loops above, or oneDNN's float32 product added to c and rounded once.
func narrowAddInto(transA, transB bool, m, n, k int, a, b, c []float64) {
	if narrowGemm(transA, transB, m, n, k, a, b, c, 1, 1) {
		return
	}
	t := make([]float64, m*n)
	nnGemm(transA, transB, m, n, k, a, b, t, false)
	for i, v := range t {
		c[i] = float64(bf16Round(float32(c[i]) + float32(v)))
	}
}

// narrowTBC is conv_tbc's forward at bfloat16: the output starts as the
// bias, then one addmm_ per kernel offset.
func narrowTBC(t *nn2TBC, out []float64) {
	for i := 0; i < t.ot*t.batch; i++ {
		copy(out[i*t.cout:(i+1)*t.cout], t.b.data)
	}
	for k := 0; k < t.k; k++ {
		t0, t1 := t.rows(k)
		if t1 == t0 {
			continue
		}
		a := t.x.data[(t0+k-t.pad)*t.batch*t.cin:]
		narrowAddInto(false, false, (t1-t0)*t.batch, t.cout, t.cin, a, t.w.data[k*t.cin*t.cout:], out[t0*t.batch*t.cout:])
	}
}

// narrowTBCGrads is conv_tbc_backward at bfloat16: dInput_.addmm_(dOut_,
// weight[k].t()) and dWeight[k].addmm_(input_.t(), dOut_) per offset, and
// the bias gradient as dOutput.sum(0).sum(0), each sum in float32 and
// rounded. gx, gw, gb start at zero; nil ones are skipped.
func narrowTBCGrads(t *nn2TBC, g, gx, gw, gb []float64) {
	t.gradBlocks(g, func(k, rows, xo int, gk, wk []float64) {
		if gx != nil {
			narrowAddInto(false, true, rows, t.cin, t.cout, gk, wk, gx[xo:])
		}
		if gw != nil {
			narrowAddInto(true, false, t.cin, t.cout, rows, t.x.data[xo:], gk, gw[k*t.cin*t.cout:])
		}
	})
	if gb == nil {
		return
	}
	bc := t.batch * t.cout
	acc := make([]float32, t.cout)
	for b := 0; b < t.batch; b++ {
		for j := 0; j < t.cout; j++ {
			var s float32
			for ti := 0; ti < t.ot; ti++ {
				s += float32(g[ti*bc+b*t.cout+j])
			}
			acc[j] += bf16Round(s)
		}
	}
	for j, v := range acc {
		gb[j] = float64(bf16Round(v))
	}
}

// narrowBilinear is bilinear at bfloat16 (no bias: the caller adds it).
// PyTorch's _trilinear runs, per output feature o, two sumproduct_pair
// bmm's: u = input1 · weight[o] (batch×J), then u[b]·input2[b] per batch
// row; each product is rounded to bfloat16.
func narrowBilinear(bl *nn2Bilinear, out []float64) {
	nb, ni, nj := bl.batch, bl.i, bl.j
	u := make([]float64, nb*nj)
	v := make([]float64, nb)
	for o := 0; o < bl.o; o++ {
		narrowProduct(true, false, false, 1, nb, nj, ni, bl.x1.data, bl.w.data[o*ni*nj:], u)
		narrowProduct(true, false, false, nb, 1, 1, nj, u, bl.x2.data, v)
		for b, x := range v {
			out[b*bl.o+o] = x
		}
	}
}

// narrowBilinearGrads is _trilinear_backward at bfloat16 for input1,
// input2 and weight (nil: not wanted), each a _trilinear of its own, per
// output feature o:
//
//	ginput1 += (g[:, o]·weight[o]) · input2 per row (bmm over rows)
//	ginput2 += (input1 · weight[o]) · g[:, o]
//	gweight[o] = (input1·g[:, o])ᵀ · input2
//
// the elementwise products rounded, the accumulations over o in
// bfloat16.
func narrowBilinearGrads(bl *nn2Bilinear, g, g1, g2, gw []float64) {
	nb, ni, nj, no := bl.batch, bl.i, bl.j, bl.o
	accum := func(dst, src []float64, first bool) {
		for e, x := range src {
			if first {
				dst[e] = x
			} else {
				dst[e] = float64(bf16Round(float32(dst[e]) + float32(x)))
			}
		}
	}
	if g1 != nil {
		buf := make([]float64, nb*ni*nj)
		res := make([]float64, nb*ni)
		for o := 0; o < no; o++ {
			w := bl.w.data[o*ni*nj : (o+1)*ni*nj]
			for b := 0; b < nb; b++ {
				gv := float32(g[b*no+o])
				for e, x := range w {
					buf[b*ni*nj+e] = float64(bf16Round(gv * float32(x)))
				}
			}
			narrowProduct(true, false, false, nb, ni, 1, nj, buf, bl.x2.data, res)
			accum(g1, res, o == 0)
		}
	}
	if g2 != nil {
		u := make([]float64, nb*nj)
		for o := 0; o < no; o++ {
			narrowProduct(true, false, false, 1, nb, nj, ni, bl.x1.data, bl.w.data[o*ni*nj:], u)
			for b := 0; b < nb; b++ {
				gv := float32(g[b*no+o])
				for e := b * nj; e < (b+1)*nj; e++ {
					u[e] = float64(bf16Round(float32(u[e]) * gv))
				}
			}
			accum(g2, u, o == 0)
		}
	}
	if gw != nil {
		buf := make([]float64, nb*ni)
		for o := 0; o < no; o++ {
			for b := 0; b < nb; b++ {
				gv := float32(g[b*no+o])
				for e := b * ni; e < (b+1)*ni; e++ {
					buf[e] = float64(bf16Round(float32(bl.x1.data[e]) * gv))
				}
			}
			narrowProduct(true, true, false, 1, ni, nj, nb, buf, bl.x2.data, gw[o*ni*nj:(o+1)*ni*nj])
		}
	}
}

// narrowScale is maybe_multiply(x, v) at bfloat16: x·v rounded, the
// Python scalar v cast to bfloat16 first as mul casts a wrapped number
// (measured); v == 1 leaves x.
func narrowScale(x []float64, v float64) {
	if v == 1 {
		return
	}
	f := bf16Round(float32(v))
	for i, e := range x {
		x[i] = float64(bf16Round(float32(e) * f))
	}
}

// narrowOuterScaled sets dst (n×m) to grad.ger(vec)·alpha at bfloat16
// (addmv's matrix gradient): each product rounded, then scaled.
func narrowOuterScaled(dst, g, v []float64, alpha float64) {
	m := len(v)
	for i, gv := range g {
		for j, x := range v {
			dst[i*m+j] = float64(bf16Round(float32(gv) * float32(x)))
		}
	}
	narrowScale(dst[:len(g)*m], alpha)
}

// laKronDims returns kron's interleaved product dims (a0, b0, a1, b1, ...;
// the lower-rank input padded with leading 1s) and which of them the
// gradients of a and of b sum.
func laKronDims(a, b *array) (sizes []int, redA, redB []bool) {
	nd := max(len(a.shape), len(b.shape))
	for d := 0; d < nd; d++ {
		sa, sb := 1, 1
		if i := d - (nd - len(a.shape)); i >= 0 {
			sa = a.shape[i]
		}
		if i := d - (nd - len(b.shape)); i >= 0 {
			sb = b.shape[i]
		}
		sizes = append(sizes, sa, sb)
		redA = append(redA, false, true)
		redB = append(redB, true, false)
	}
	return sizes, redA, redB
}

// narrowMatmulT is matmul of a matrix or vector a by a ≥3-d b at
// bfloat16: PyTorch 1.13 computes (bᵀ · aᵀ)ᵀ, folding bᵀ's batches into
// the rows of one contiguous (batches·p)×k matrix t; t·aᵀ takes the float32
// dot loop (aᵀ is a column-major view), a vector t.mv(a).
func narrowMatmulT(a, b *array, pl *nnBatchedPlan) ([]float64, bool) {
	n, k, p, bb := pl.n, pl.k, pl.p, pl.bBatches
	t := narrowFoldT(b.data, bb, k, p)
	if len(a.shape) == 1 {
		// a vector: t.mv(a), gemv on a row-major matrix
		out := make([]float64, bb*p)
		return out, narrowGemv(false, bb*p, k, t, a.data, out, 0, 1)
	}
	c := make([]float64, bb*p*n)
	if !narrowGemm(false, true, bb*p, n, k, t, a.data, c, 0, 1) {
		return nil, false
	}
	out := make([]float64, bb*n*p)
	for q := 0; q < bb; q++ {
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				out[(q*n+i)*p+j] = c[(q*p+j)*n+i]
			}
		}
	}
	return out, true
}

// narrowFoldT gathers bᵀ (bb batches of k×p) as a contiguous (bb·p)×k
// matrix: row q·p+j holds b[q][:, j].
func narrowFoldT(b []float64, bb, k, p int) []float64 {
	t := make([]float64, bb*p*k)
	for q := 0; q < bb; q++ {
		for l := 0; l < k; l++ {
			for j := 0; j < p; j++ {
				t[(q*p+j)*k+l] = b[(q*k+l)*p+j]
			}
		}
	}
	return t
}

// narrowMatmulTGrads is the backward of narrowMatmulT (a matrix a): with g's
// transpose gT ((bb·p)×n, the contiguous copy autograd makes), a's
// gradient is gTᵀ·t (mm_mat2_backward's column-major branch: the naive
// loop; a vector's the same over its single column) and t's is gT·a
// (naive; single products for a vector), scattered back to b.
func narrowMatmulTGrads(a, b *array, pl *nnBatchedPlan, g []float64, wantA, wantB bool) (ga, gb []float64, done bool) {
	n, k, p, bb := pl.n, pl.k, pl.p, pl.bBatches
	if bb*p*n*k > narrowOneDNN {
		return nil, nil, false
	}
	if len(a.shape) == 1 {
		// mv's backward: tᵀ.mv(g) (gemv on a column-major view) and g⊗a
		if wantA {
			ga = make([]float64, k)
			narrowGemv(true, k, bb*p, narrowFoldT(b.data, bb, k, p), g, ga, 0, 1)
		}
		if wantB {
			gb = make([]float64, bb*k*p)
			for q := 0; q < bb; q++ {
				for l := 0; l < k; l++ {
					for j := 0; j < p; j++ {
						gb[(q*k+l)*p+j] = g[q*p+j] * a.data[l]
					}
				}
			}
		}
		return ga, gb, true
	}
	gT := make([]float64, bb*p*n)
	for q := 0; q < bb; q++ {
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				gT[(q*p+j)*n+i] = g[(q*n+i)*p+j]
			}
		}
	}
	if wantA {
		ga = make([]float64, n*k)
		narrowGemm(true, false, n, k, bb*p, gT, narrowFoldT(b.data, bb, k, p), ga, 0, 1)
	}
	if wantB {
		dt := make([]float64, bb*p*k)
		narrowGemm(false, false, bb*p, k, n, gT, a.data, dt, 0, 1)
		gb = make([]float64, bb*k*p)
		for q := 0; q < bb; q++ {
			for l := 0; l < k; l++ {
				for j := 0; j < p; j++ {
					gb[(q*k+l)*p+j] = dt[(q*p+j)*k+l]
				}
			}
		}
	}
	return ga, gb, true
}
