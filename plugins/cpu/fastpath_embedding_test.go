package cpu

import (
	"bytes"
	"fmt"
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

func sameTensor(t *testing.T, name string, a, b *tensor.Tensor) {
	t.Helper()
	if (a == nil) != (b == nil) {
		t.Errorf("%s: direct %v, general %v", name, a != nil, b != nil)
		return
	}
	if a == nil {
		return
	}
	if a.DType != b.DType || fmt.Sprint(a.Shape) != fmt.Sprint(b.Shape) || !bytes.Equal(a.Data, b.Data) {
		i := 0
		for i < min(len(a.Data), len(b.Data)) && a.Data[i] == b.Data[i] {
			i++
		}
		t.Errorf("%s: direct %s%v differs from general %s%v (first byte %d of %d/%d)", name, a.DType, a.Shape, b.DType, b.Shape, i, len(a.Data), len(b.Data))
	}
}

// TestFastEmbeddingDeclines: the calls the direct path leaves to the
// general one, which raises PyTorch's errors.
func TestFastEmbeddingDeclines(t *testing.T) {
	w := ops.T(tensor.New(tensor.Float32, []int{5, 3}))
	idx := func(v ...float64) ops.Value { return ops.T(tensor.FromFloat64s(tensor.Int64, []int{len(v)}, v)) }
	for _, c := range []struct {
		name string
		req  *device.ExecRequest
		opts Options
	}{
		{"index out of range", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, idx(1, 5)}}, Options{}},
		{"negative index", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, idx(-1)}}, Options{}},
		{"float indices", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, ops.T(tensor.New(tensor.Float32, []int{2}))}}, Options{}},
		{"float16 weight", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{ops.T(tensor.New(tensor.Float16, []int{5, 3})), idx(1)}}, Options{}},
		{"1-d weight", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{ops.T(tensor.New(tensor.Float32, []int{5})), idx(1)}}, Options{}},
		{"hf32", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, idx(1)}, Precision: ops.Precision{HF32: true}}, Options{}},
		{"defect", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, idx(1)}}, Options{Mode: Emulated, Defects: []Defect{{Op: "embedding"}}}},
		{"gradient of another shape", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, idx(1)}, Backward: true, RequiresGrad: []bool{true, false},
			GradOutputs: []*tensor.Tensor{tensor.New(tensor.Float32, []int{2, 3})}}, Options{}},
		{"gradient of another dtype", &device.ExecRequest{Op: "embedding", Inputs: []ops.Value{w, idx(1)}, Backward: true, RequiresGrad: []bool{true, false},
			GradOutputs: []*tensor.Tensor{tensor.New(tensor.Float64, []int{1, 3})}}, Options{}},
		{"other op", &device.ExecRequest{Op: "embedding_bag", Inputs: []ops.Value{w, idx(1)}}, Options{}},
	} {
		if _, ok := fastEmbedding(c.opts, c.req); ok {
			t.Errorf("%s: taken by the direct path", c.name)
		}
	}
}
