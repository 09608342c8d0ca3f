package cpu

import (
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
	m := ops.BroadcastIndex(in, out)
	if m == nil {
		res := float64sFor(len(g))
		copy(res, g)
		return res
	}
	res := zeros(tensor.NumElements(in))
	for k, j := range m {
		res[j] += g[k]
	}
	return res
}
