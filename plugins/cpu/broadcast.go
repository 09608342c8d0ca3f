package cpu

import (
	"slices"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Broadcasting per NumPy/PyTorch rules (ops.BroadcastShapes): shapes are
// aligned on the right and each dimension must be equal or 1.

// at reads element k of the broadcast view described by m (nil: identity).
func at(data []float64, m []int, k int) float64 {
	if m == nil {
		return data[k]
	}
	return data[m[k]]
}

// expandTo returns a's values broadcast to shape out.
func expandTo(a *array, out []int) []float64 {
	m := ops.BroadcastIndex(a.shape, out)
	if m == nil {
		return append([]float64(nil), a.data...)
	}
	res := make([]float64, len(m))
	for k, j := range m {
		res[k] = a.data[j]
	}
	return res
}

// sumToShape reduces g, of shape out, to shape in (which broadcasts to out)
// by summing over the broadcast dimensions: the gradient of a broadcast.
func sumToShape(g []float64, out, in []int) []float64 {
	if slices.Equal(in, out) {
		res := float64sFor(len(g))
		copy(res, g)
		return res
	}
	// the positions walked in output order (ops.BroadcastIndex's, without
	// a map of the output's size), so each sum adds in the same order
	res := zeros(tensor.NumElements(in))
	if len(g) == 0 {
		return res
	}
	it := newBcastIter(in, out)
	for k := range g {
		res[it.pos] += g[k]
		it.step()
	}
	return res
}

// bcastIter walks the positions of an operand of shape in broadcast to
// shape out, in the output's row-major order, without an index map.
type bcastIter struct {
	out, strides, idx []int // strides: the operand's per output dim, 0 where broadcast
	pos               int   // the operand position of the current element
}

func newBcastIter(in, out []int) *bcastIter {
	it := &bcastIter{out: out, strides: make([]int, len(out)), idx: make([]int, len(out))}
	s := 1
	for d := len(in) - 1; d >= 0; d-- {
		if od := len(out) - len(in) + d; od >= 0 && in[d] != 1 {
			it.strides[od] = s
		}
		s *= in[d]
	}
	return it
}

// seek moves to output element k.
func (it *bcastIter) seek(k int) {
	it.pos = 0
	for d := len(it.out) - 1; d >= 0; d-- {
		it.idx[d] = k % it.out[d]
		k /= it.out[d]
		it.pos += it.idx[d] * it.strides[d]
	}
}

// step moves to the next output element.
func (it *bcastIter) step() {
	d := len(it.out) - 1
	if d < 0 {
		return
	}
	it.idx[d]++
	it.pos += it.strides[d]
	for it.idx[d] == it.out[d] && d > 0 {
		it.pos -= it.strides[d] * it.out[d]
		it.idx[d] = 0
		d--
		it.idx[d]++
		it.pos += it.strides[d]
	}
}
