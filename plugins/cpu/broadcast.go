package cpu

import (
	"github.com/probe-dev/probe/sdk/tensor"
)

// Broadcasting per NumPy/PyTorch rules (ops.BroadcastShapes): shapes are
// aligned on the right and each dimension must be equal or 1.

// broadcastMap returns, for every flat index of shape out, the flat index
// of the element of a tensor of shape in (broadcastable to out) that it
// reads. It returns nil when in equals out (the identity map).
func broadcastMap(in, out []int) []int {
	if sameShape(in, out) {
		return nil
	}
	n := tensor.NumElements(out)
	idx := make([]int, n)
	if n == 0 {
		return idx
	}
	inSt := contiguousStrides(in)
	eff := make([]int, len(out))
	for i := range out {
		if j := len(in) - len(out) + i; j >= 0 && in[j] != 1 {
			eff[i] = inSt[j]
		}
	}
	pos := make([]int, len(out))
	cur := 0
	for k := 0; k < n; k++ {
		idx[k] = cur
		for d := len(out) - 1; d >= 0; d-- {
			pos[d]++
			cur += eff[d]
			if pos[d] < out[d] {
				break
			}
			cur -= eff[d] * pos[d]
			pos[d] = 0
		}
	}
	return idx
}

// at reads element k of the broadcast view described by m (nil: identity).
func at(data []float64, m []int, k int) float64 {
	if m == nil {
		return data[k]
	}
	return data[m[k]]
}

// expandTo returns a's values broadcast to shape out.
func expandTo(a *array, out []int) []float64 {
	m := broadcastMap(a.shape, out)
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
	m := broadcastMap(in, out)
	if m == nil {
		return append([]float64(nil), g...)
	}
	res := make([]float64, tensor.NumElements(in))
	for k, j := range m {
		res[j] += g[k]
	}
	return res
}
