package main

import (
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// opNames are the canonical ops this device runs (sdk/ops/schema.go).
var opNames = []string{"add", "mul", "neg", "relu"}

// forward computes one output element of op at dtype dt (float32 or
// float64) from self x and other y (0 for a unary op), both already cast
// to dt. Like PyTorch's CPU kernels, each operation rounds to dt once.
func forward(op string, dt tensor.DType, alpha, x, y float64) float64 {
	switch op {
	case "add": // self + alpha*other, one rounding as in PyTorch's vectorised loop (an FMA)
		return fma(dt, alpha, y, x)
	case "mul":
		return round(dt, x*y)
	case "neg":
		return -x
	}
	if x < 0 { // relu: max(x, 0) as std::max computes it (NaN and -0 pass)
		return 0
	}
	return x
}

// backward returns the gradients of self and other for one output element
// z whose gradient is g: the vector-Jacobian product, in dt.
func backward(op string, dt tensor.DType, alpha, x, y, z, g float64) [2]float64 {
	switch op {
	case "add":
		return [2]float64{g, round(dt, alpha*g)}
	case "mul":
		return [2]float64{round(dt, g*y), round(dt, g*x)}
	case "neg":
		return [2]float64{-g}
	}
	if z <= 0 { // relu, as threshold_backward: zero where the output is <= 0
		return [2]float64{}
	}
	return [2]float64{g}
}

// round rounds v to dt, to nearest even.
func round(dt tensor.DType, v float64) float64 {
	if dt == tensor.Float32 {
		return float64(float32(v))
	}
	return v
}

// fma is x*y + z rounded once to dt. For float32 the product is exact in
// float64; the sum is rounded to odd (exact sum error by TwoSum) so that
// the final float32 rounding is the only one that counts.
func fma(dt tensor.DType, x, y, z float64) float64 {
	if dt == tensor.Float64 {
		return math.FMA(x, y, z)
	}
	p := x * y
	s := p + z
	v := s - p
	if e := (p - (s - v)) + (z - v); e != 0 && !math.IsNaN(e) && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return round(dt, s)
}

// operand returns an input's values cast to dt, as PyTorch casts every
// operand to the result dtype, and its shape (none for a Python number).
// With HF32 asked for, float32 tensors are rounded to HF32 first: this
// device has no HF32 mode of its own.
func operand(v ops.Value, dt tensor.DType, hf32 bool) ([]float64, []int) {
	if v.Kind == ops.KindScalar {
		return []float64{round(dt, v.Scalar.Float())}, nil
	}
	t := v.Tensor
	if hf32 {
		t = ops.RoundHF32Tensor(t)
	}
	vals := t.Float64s()
	for i := range vals {
		vals[i] = round(dt, vals[i])
	}
	return vals, t.Shape
}

// elem is the element of operand i that output element j reads (0 when
// the op has no operand i).
func elem(x [][]float64, idx [][]int, j, i int) float64 {
	if i >= len(x) {
		return 0
	}
	return x[i][at(idx[i], j)]
}

// at maps output element j through a broadcast index (nil: the identity).
func at(idx []int, j int) int {
	if idx == nil {
		return j
	}
	return idx[j]
}
