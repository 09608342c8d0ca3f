package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestFastLinearMatchesGeneral: the direct path of linear gives the
// general path's bits, forward and backward, in both modes at float64 and
// in Emulated mode at float32 (the bench's float32 calls take the general
// path, float64 products), with and without bias, every combination of
// inputs requiring grad, batched inputs, products of several k blocks and
// special values; and it really ran.
func TestFastLinearMatchesGeneral(t *testing.T) {
	if !gemmHasFMA {
		t.Skip("no AVX2/FMA: float32 linear takes the general path")
	}
	r := rand.New(rand.NewPCG(7, 8))
	defer func() { fastDisabled = false }()
	type form struct {
		x    []int
		in   int
		out  int
		bias bool
	}
	forms := []form{
		{[]int{40, 33}, 33, 35, true},
		{[]int{40, 33}, 33, 35, false},
		{[]int{2, 20, 300}, 300, 17, true}, // two k blocks in the forward
		{[]int{300, 40}, 40, 29, true},     // two k blocks in the weight gradient
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, f := range forms {
			x := fastValues(r, dt, f.x, false)
			w := fastValues(r, dt, []int{f.out, f.in}, false)
			inputs := []ops.Value{ops.T(x), ops.T(w), {Kind: ops.KindNone}}
			if f.bias {
				inputs[2] = ops.T(fastValues(r, dt, []int{f.out}, false))
			}
			outShape := append(append([]int{}, f.x[:len(f.x)-1]...), f.out)
			g := fastValues(r, dt, outShape, false)
			for _, grads := range [][]bool{nil, {true, true, true}, {true, false, false}, {false, true, true}, {false, false, false}} {
				req := &device.ExecRequest{Op: "linear", Inputs: inputs}
				if grads != nil {
					req.Backward, req.RequiresGrad, req.GradOutputs = true, grads, []*tensor.Tensor{g}
				}
				for _, mode := range []Mode{Bench, Emulated} {
					name := fmt.Sprintf("%s/%v/%d→%d/bias=%v/grads=%v/%v", dt, f.x, f.in, f.out, f.bias, grads, mode)
					opts := Options{Mode: mode}
					fastDisabled = false
					fast, ok := fastLinear(opts, req)
					if dt == tensor.Float32 && mode == Bench {
						// the bench's products are float64 (call.gemmDT)
						if ok {
							t.Errorf("%s: the direct path took a float32 call of the bench", name)
						}
						continue
					}
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

// TestFastLinearDeclines: the calls the direct path leaves to the general
// one.
func TestFastLinearDeclines(t *testing.T) {
	f32 := func(shape ...int) ops.Value { return ops.T(tensor.New(tensor.Float32, shape)) }
	f64 := func(shape ...int) ops.Value { return ops.T(tensor.New(tensor.Float64, shape)) }
	none := ops.Value{Kind: ops.KindNone}
	big := []ops.Value{f32(64, 64), f32(64, 64), none}
	for _, c := range []struct {
		name string
		req  *device.ExecRequest
		opts Options
	}{
		{"small float32 product", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{f32(4, 3), f32(5, 3), none}}, Options{}},
		{"1-d input", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{f64(3), f64(5, 3), none}}, Options{}},
		{"1-d weight", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{f64(4, 3), f64(3), none}}, Options{}},
		{"mixed dtypes", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{f64(64, 64), f32(64, 64), none}}, Options{}},
		{"bfloat16", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{ops.T(tensor.New(tensor.BFloat16, []int{64, 64})), ops.T(tensor.New(tensor.BFloat16, []int{64, 64})), none}}, Options{}},
		{"2-d bias", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{f64(4, 3), f64(5, 3), f64(4, 5)}}, Options{}},
		{"shape mismatch", &device.ExecRequest{Op: "linear", Inputs: []ops.Value{f64(4, 3), f64(5, 4), none}}, Options{}},
		{"hf32", &device.ExecRequest{Op: "linear", Inputs: big, Precision: ops.Precision{HF32: true}}, Options{}},
		{"defect", &device.ExecRequest{Op: "linear", Inputs: big}, Options{Mode: Emulated, Defects: []Defect{{Op: "linear"}}}},
		{"no output gradient", &device.ExecRequest{Op: "linear", Inputs: big, Backward: true, RequiresGrad: []bool{true, true, false}}, Options{}},
		{"gradient of another dtype", &device.ExecRequest{Op: "linear", Inputs: big, Backward: true, RequiresGrad: []bool{true, true, false},
			GradOutputs: []*tensor.Tensor{tensor.New(tensor.Float64, []int{64, 64})}}, Options{}},
	} {
		if _, ok := fastLinear(c.opts, c.req); ok {
			t.Errorf("%s: taken by the direct path", c.name)
		}
	}
}
