package cpu

import (
	"slices"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The direct path of linear, forward and backward, at float32 and float64.
// A language model's output projection is its step's largest product
// (GPT-2's: 512 rows by 1024 by a 50257-word vocabulary), and the general
// path converts the weight, the output gradient and every result to and
// from float64 arrays: at float32, 1.2 GB of buffers a side that exist only
// to be converted, each page faulted in. Here the products read the
// tensors' own memory and write straight into the result memory, with the
// general path's arithmetic: at float32 the packed float32 product of
// sgemm.go (the general path forms the same sums in nnGemmAt), the bias
// added in float64 and rounded once; at float64 nnGemm. The bias gradient
// sums the output gradient's rows in order, as sumToShape.
// fastpath_linear_test.go compares the bits with the general path.

// fastLinear runs a linear call on the direct path when it qualifies:
// input of rank ≥ 2, a 2-D weight, a 1-D bias of the output size or none,
// all float32 (in Emulated mode, with AVX2/FMA and a product large enough
// to pack) or all float64, no HF32, no defect planted on linear, and, with a backward, one
// output gradient of the output's dtype and shape. ok is false when the
// general path must run (which also reports PyTorch's errors).
func fastLinear(opts Options, req *device.ExecRequest) (res *device.ExecResult, ok bool) {
	if req.Op != "linear" {
		return nil, false
	}
	b := fastBound(opts, req)
	if b == nil || len(b.Inputs) != 3 || b.Inputs[0].Kind != ops.KindTensor || b.Inputs[1].Kind != ops.KindTensor {
		return nil, false
	}
	x, w := b.Inputs[0].Tensor, b.Inputs[1].Tensor
	var bias *tensor.Tensor
	switch v := b.Inputs[2]; v.Kind {
	case ops.KindTensor:
		bias = v.Tensor
	case ops.KindNone:
	default:
		return nil, false
	}
	dt := x.DType
	if dt != tensor.Float32 && dt != tensor.Float64 || w.DType != dt || len(x.Shape) < 2 || len(w.Shape) != 2 ||
		x.Shape[len(x.Shape)-1] != w.Shape[1] || bias != nil && (bias.DType != dt || len(bias.Shape) != 1 || bias.Shape[0] != w.Shape[0]) {
		return nil, false
	}
	tensors := []*tensor.Tensor{x, w}
	if bias != nil {
		tensors = append(tensors, bias)
	}
	in, out := w.Shape[1], w.Shape[0]
	rows := tensor.NumElements(x.Shape[:len(x.Shape)-1])
	if dt == tensor.Float32 && (opts.Mode != Emulated || !sgemmFor(dt, rows, out, in)) {
		return nil, false // the general path's float64 product (call.gemmDT)
	}
	outShape := append(append([]int{}, x.Shape[:len(x.Shape)-1]...), out)
	var gradOut *tensor.Tensor
	if req.Backward {
		// (without an output gradient the general path multiplies by
		// zeros, which keeps the NaN of 0·Inf)
		if len(req.GradOutputs) != 1 || req.GradOutputs[0] == nil {
			return nil, false
		}
		gradOut = req.GradOutputs[0]
		if gradOut.DType != dt || !slices.Equal(gradOut.Shape, outShape) {
			return nil, false
		}
		tensors = append(tensors, gradOut)
	}
	for _, t := range tensors {
		if t.Validate() != nil || !fastAligned(t) {
			return nil, false
		}
	}
	wants := func(i int) bool { return req.Backward && i < len(req.RequiresGrad) && req.RequiresGrad[i] }

	res = &device.ExecResult{}
	y := &tensor.Tensor{DType: dt, Shape: outShape, Data: opts.outputBytes(rows * out * dt.Size())}
	res.Outputs = []*tensor.Tensor{y}
	if dt == tensor.Float32 {
		fastLinear32(x, w, bias, y, rows, in, out)
	} else {
		fastLinear64(x, w, bias, y, rows, in, out)
	}
	if !req.Backward {
		return res, true
	}
	res.InputGrads = make([]*tensor.Tensor, len(req.Inputs))
	newGrad := func(shape []int) *tensor.Tensor {
		t := &tensor.Tensor{DType: dt, Shape: append([]int{}, shape...), Data: opts.outputBytes(tensor.NumElements(shape) * dt.Size())}
		forChunks(len(t.Data), func(from, to int) error {
			clear(t.Data[from:to])
			return nil
		})
		return t
	}
	var gx, gw, gb *tensor.Tensor
	if wants(0) {
		gx = newGrad(x.Shape)
	}
	if wants(1) {
		gw = newGrad(w.Shape)
	}
	if wants(2) && bias != nil {
		gb = newGrad(bias.Shape)
	}
	res.InputGrads[0], res.InputGrads[1] = gx, gw
	if bias != nil {
		res.InputGrads[2] = gb
	}
	if dt == tensor.Float32 {
		g := fastView[float32](gradOut)
		if gx != nil {
			sgemmInto(false, false, rows, in, out, g, fastView[float32](w), fastView[float32](gx))
		}
		if gw != nil {
			sgemmInto(true, false, out, in, rows, g, fastView[float32](x), fastView[float32](gw))
		}
		if gb != nil {
			fastBiasGrad(g, fastView[float32](gb), rows, out)
		}
		return res, true
	}
	g := fastView[float64](gradOut)
	if gx != nil {
		nnGemm(false, false, rows, in, out, g, fastView[float64](w), fastView[float64](gx), false)
	}
	if gw != nil {
		nnGemm(true, false, out, in, rows, g, fastView[float64](x), fastView[float64](gw), false)
	}
	if gb != nil {
		fastBiasGrad(g, fastView[float64](gb), rows, out)
	}
	return res, true
}

// fastLinear32 is y = x·wᵀ (+ bias) at float32, y's memory zeroed here.
func fastLinear32(x, w, bias, y *tensor.Tensor, rows, in, out int) {
	c := fastView[float32](y)
	forChunks(len(c), func(from, to int) error {
		clear(c[from:to])
		return nil
	})
	sgemmInto(false, true, rows, out, in, fastView[float32](x), fastView[float32](w), c)
	if bias != nil {
		bv := fastView[float32](bias)
		forChunks(rows, func(from, to int) error {
			for r := from; r < to; r++ {
				row := c[r*out : (r+1)*out]
				for j, v := range bv {
					row[j] = float32(float64(row[j]) + float64(v))
				}
			}
			return nil
		})
	}
}

// fastLinear64 is y = x·wᵀ (+ bias) at float64.
func fastLinear64(x, w, bias, y *tensor.Tensor, rows, in, out int) {
	c := fastView[float64](y)
	nnGemm(false, true, rows, out, in, fastView[float64](x), fastView[float64](w), c, false)
	if bias != nil {
		bv := fastView[float64](bias)
		forChunks(rows, func(from, to int) error {
			for r := from; r < to; r++ {
				row := c[r*out : (r+1)*out]
				for j, v := range bv {
					row[j] += v
				}
			}
			return nil
		})
	}
}

// fastBiasGrad is sumToShape of the (rows, out) gradient g to (out): each
// column's values added from zero in row order, in float64, rounded to T
// once.
func fastBiasGrad[T float32 | float64](g, gb []T, rows, out int) {
	forChunks(out, func(from, to int) error {
		acc := make([]float64, to-from)
		for r := 0; r < rows; r++ {
			for j, v := range g[r*out+from : r*out+to] {
				acc[j] += float64(v)
			}
		}
		for j, v := range acc {
			gb[from+j] = T(v)
		}
		return nil
	})
}

// sgemmInto adds op(A)·op(B) to the float32 C with the packed float32
// product of nnGemmAt (C zeroed by the caller).
func sgemmInto(transA, transB bool, m, n, k int, a, b, c []float32) {
	sgemmPacked(transA, transB, m, n, k, a, b, c)
}
