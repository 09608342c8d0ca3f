package cpu

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestFastEmbeddingMatchesGeneral: the direct path of embedding gives the
// general path's bits, forward and backward, in both modes, at float32,
// float64 and bfloat16, with repeated rows, the padding row, gradients
// scaled by frequency, int32 and int64 indices, 0-d and empty index
// tensors; and it really ran.
func TestFastEmbeddingMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	defer func() { fastDisabled = false }()
	type form struct {
		rows, d  int
		idxShape []int
		attrs    ops.Attrs
	}
	forms := []form{
		{10, 8, []int{4, 5}, nil},
		{10, 8, []int{4, 5}, ops.Attrs{"padding_idx": ops.IntAttr(3)}},
		{10, 8, []int{4, 5}, ops.Attrs{"scale_grad_by_freq": ops.BoolAttr(true)}},
		{10, 8, []int{4, 5}, ops.Attrs{"scale_grad_by_freq": ops.BoolAttr(true), "padding_idx": ops.IntAttr(0)}},
		{7, 3, []int{}, nil},
		{7, 3, []int{0}, nil},
		{7, 0, []int{6}, nil},
		{4000, 33, []int{2, 700}, nil}, // several chunks
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.BFloat16} {
		for _, idt := range []tensor.DType{tensor.Int64, tensor.Int32} {
			for _, f := range forms {
				w := fastValues(r, dt, []int{f.rows, f.d}, false)
				n := tensor.NumElements(f.idxShape)
				iv := make([]float64, n)
				for i := range iv {
					iv[i] = float64(r.IntN(min(f.rows, 6))) // repeated rows
				}
				idx := tensor.FromFloat64s(idt, f.idxShape, iv)
				g := fastValues(r, dt, append(append([]int{}, f.idxShape...), f.d), false)
				for _, backward := range []bool{false, true} {
					for _, grad := range []bool{true, false} {
						if !backward && !grad {
							continue
						}
						req := &device.ExecRequest{Op: "embedding", Attrs: f.attrs, Inputs: []ops.Value{ops.T(w), ops.T(idx)}}
						if backward {
							req.Backward = true
							req.RequiresGrad = []bool{grad, false}
							req.GradOutputs = []*tensor.Tensor{g}
						}
						for _, mode := range []Mode{Bench, Emulated} {
							name := fmt.Sprintf("%s/%s/%d×%d/%v/%v/backward=%v/grad=%v/%v", dt, idt, f.rows, f.d, f.idxShape, f.attrs, backward, grad, mode)
							opts := Options{Mode: mode}
							fastDisabled = false
							fast, ok := fastEmbedding(opts, req)
							if !ok {
								t.Errorf("%s: the direct path did not take it", name)
								continue
							}
							fastDisabled = true
							slow, err := execute(opts, req)
							fastDisabled = false
							if err != nil {
								t.Fatalf("%s: general: %v", name, err)
							}
							sameTensor(t, name+" output", fast.Outputs[0], slow.Outputs[0])
							if backward {
								if len(fast.InputGrads) != len(slow.InputGrads) {
									t.Fatalf("%s: %d gradients, general %d", name, len(fast.InputGrads), len(slow.InputGrads))
								}
								for i := range fast.InputGrads {
									sameTensor(t, fmt.Sprintf("%s gradient %d", name, i), fast.InputGrads[i], slow.InputGrads[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// sameTensor fails unless a and b have the same dtype, shape and bits,
// NaN payloads aside (which NaN an operation returns depends on the order
// of its operands in the instruction the compiler chose).
func sameTensor(t *testing.T, name string, a, b *tensor.Tensor) {
	t.Helper()
	if (a == nil) != (b == nil) {
		t.Errorf("%s: direct %v, general %v", name, a != nil, b != nil)
		return
	}
	if a == nil {
		return
	}
	if a.DType != b.DType || fmt.Sprint(a.Shape) != fmt.Sprint(b.Shape) || len(a.Data) != len(b.Data) {
		t.Errorf("%s: direct %s%v, general %s%v", name, a.DType, a.Shape, b.DType, b.Shape)
		return
	}
	if bytes.Equal(a.Data, b.Data) {
		return
	}
	for i := 0; i < a.Len(); i++ {
		x, y := a.At(i), b.At(i)
		if x != x && y != y {
			continue
		}
		if math.Float64bits(x) != math.Float64bits(y) {
			t.Errorf("%s: direct %s%v differs from general at element %d: %v, %v", name, a.DType, a.Shape, i, x, y)
			return
		}
	}
}
