package main

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/plugin/plugintest"
	"github.com/probe-dev/probe/sdk/tensor"
)

// exec runs one request on the device served in-process through the real
// gRPC shims, as probe would run the built plugin.
func exec(t *testing.T, req *device.ExecRequest) (*device.ExecResult, error) {
	t.Helper()
	return plugintest.Device(t, New()).Execute(context.Background(), req)
}

func f32(shape []int, v ...float64) *tensor.Tensor {
	return tensor.FromFloat64s(tensor.Float32, shape, v)
}

func check(t *testing.T, what string, got *tensor.Tensor, dt tensor.DType, shape []int, want ...float64) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: no tensor", what)
	}
	if got.DType != dt || !slices.Equal(got.Shape, shape) || !slices.Equal(got.Float64s(), want) {
		t.Errorf("%s: got %s%v %v, want %s%v %v", what, got.DType, got.Shape, got.Float64s(), dt, shape, want)
	}
}

func TestBroadcastAddWithAlpha(t *testing.T) {
	res, err := exec(t, &device.ExecRequest{
		Op:    "add",
		Attrs: ops.Attrs{"alpha": ops.FloatAttr(2)},
		Inputs: []ops.Value{
			ops.T(f32([]int{2, 3}, 1, 2, 3, 4, 5, 6)),
			ops.T(f32([]int{3}, 0.5, 0.25, 0.125)),
		},
		RequiresGrad: []bool{true, true},
		Backward:     true,
		GradOutputs:  []*tensor.Tensor{f32([]int{2, 3}, 1, 1, 1, 1, 1, 1)},
	})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "output", res.Outputs[0], tensor.Float32, []int{2, 3}, 2, 2.5, 3.25, 5, 5.5, 6.25)
	check(t, "grad self", res.InputGrads[0], tensor.Float32, []int{2, 3}, 1, 1, 1, 1, 1, 1)
	// alpha*grad, summed over the broadcast dimension.
	check(t, "grad other", res.InputGrads[1], tensor.Float32, []int{3}, 4, 4, 4)
}

// PyTorch computes float32 self + alpha*other with one rounding (a fused
// multiply-add); two roundings give other values for these operands.
func TestAddAlphaRoundsOnce(t *testing.T) {
	for _, c := range []struct{ self, other, alpha, want float64 }{
		{-1, 1 + 0x1p-22, 1 + 0x1p-23, 3*0x1p-23 + 0x1p-45},
		// The float64 sum lands on a float32 midpoint: round-to-odd case.
		{1 + 0x1p-23, 0x1p-24 + 0x1p-44, 1 - 0x1p-20, 1 + 0x1p-23},
	} {
		res, err := exec(t, &device.ExecRequest{Op: "add", Attrs: ops.Attrs{"alpha": ops.FloatAttr(c.alpha)},
			Inputs: []ops.Value{ops.T(f32(nil, c.self)), ops.T(f32(nil, c.other))}})
		if err != nil {
			t.Fatal(err)
		}
		check(t, "add", res.Outputs[0], tensor.Float32, nil, c.want)
	}
}

func TestPromotion(t *testing.T) {
	x := f32([]int{2}, 1.5, -3)
	tenth := 0.1
	for _, c := range []struct {
		name   string
		op     string
		inputs []ops.Value
		dt     tensor.DType
		want   []float64
	}{
		// A Python number never widens a float tensor.
		{"float32 + 2.5", "add", []ops.Value{ops.T(x), ops.F(2.5)}, tensor.Float32, []float64{4, -0.5}},
		// Nor does a 0-d tensor of the same category.
		{"float32 * float64 0-d", "mul", []ops.Value{ops.T(x), ops.T(tensor.FromFloat64s(tensor.Float64, nil, []float64{tenth}))},
			tensor.Float32, []float64{float64(1.5 * float32(tenth)), float64(-3 * float32(tenth))}},
		// Dimensioned tensors promote: float32 * float64 is float64.
		{"float32 * float64", "mul", []ops.Value{ops.T(x), ops.T(tensor.FromFloat64s(tensor.Float64, []int{2}, []float64{tenth, tenth}))},
			tensor.Float64, []float64{1.5 * tenth, -3 * tenth}},
		// An integer tensor next to a float one is cast to float.
		{"int32 + float32", "add", []ops.Value{ops.T(tensor.FromInt64s(tensor.Int32, []int{2}, []int64{1, 2})), ops.T(x)}, tensor.Float32, []float64{2.5, -1}},
	} {
		res, err := exec(t, &device.ExecRequest{Op: c.op, Inputs: c.inputs})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check(t, c.name, res.Outputs[0], c.dt, []int{2}, c.want...)
	}
}

func TestBackwardRules(t *testing.T) {
	// relu: gradient only where the output is > 0; a Python number and an
	// input without requires_grad get none.
	res, err := exec(t, &device.ExecRequest{Op: "relu", Inputs: []ops.Value{ops.T(f32([]int{3}, -1, 0, 2))},
		RequiresGrad: []bool{true}, Backward: true, GradOutputs: []*tensor.Tensor{f32([]int{3}, 5, 6, 7)}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "relu grad", res.InputGrads[0], tensor.Float32, []int{3}, 0, 0, 7)
	res, err = exec(t, &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(f32([]int{2}, 1, 2)), ops.F(3)},
		RequiresGrad: []bool{false, false}, Backward: true, GradOutputs: []*tensor.Tensor{f32([]int{2}, 1, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.InputGrads) != 2 || res.InputGrads[0] != nil || res.InputGrads[1] != nil {
		t.Errorf("mul without requires_grad: got gradients %v", res.InputGrads)
	}
	// A nil output gradient is a zero one.
	res, err = exec(t, &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(f32([]int{2}, 1, 2))},
		RequiresGrad: []bool{true}, Backward: true, GradOutputs: []*tensor.Tensor{nil}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "neg zero grad", res.InputGrads[0], tensor.Float32, []int{2}, 0, 0)
}

func TestErrorKinds(t *testing.T) {
	x := f32([]int{3}, 1, 2, 3)
	inplace := ops.Attrs{"inplace": ops.BoolAttr(true)}
	for _, c := range []struct {
		name string
		req  *device.ExecRequest
		kind device.ErrorKind
	}{
		// PyTorch refuses these calls: *ops.ArgumentError.
		{"in-place float into int", &device.ExecRequest{Op: "add", Attrs: inplace,
			Inputs: []ops.Value{ops.T(tensor.FromInt64s(tensor.Int64, []int{3}, []int64{1, 2, 3})), ops.T(x)}}, device.InvalidArgument},
		{"in-place broadcast self", &device.ExecRequest{Op: "mul", Attrs: inplace,
			Inputs: []ops.Value{ops.T(x), ops.T(f32([]int{2, 3}, 1, 2, 3, 4, 5, 6))}}, device.InvalidArgument},
		{"bad broadcast", &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(x), ops.T(f32([]int{2}, 1, 2))}}, device.InvalidArgument},
		{"missing input", &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(x)}}, device.InvalidArgument},
		{"unknown attribute", &device.ExecRequest{Op: "neg", Attrs: ops.Attrs{"alpha": ops.FloatAttr(2)}, Inputs: []ops.Value{ops.T(x)}}, device.InvalidArgument},
		// What this device does not do: *device.ErrUnsupported.
		{"int64 call", &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(tensor.FromInt64s(tensor.Int64, []int{1}, []int64{1})), ops.I(2)}}, device.Unsupported},
		{"float16 call", &device.ExecRequest{Op: "relu", Inputs: []ops.Value{ops.T(tensor.FromFloat64s(tensor.Float16, []int{1}, []float64{1}))}}, device.Unsupported},
		{"op without kernel", &device.ExecRequest{Op: "exp", Inputs: []ops.Value{ops.T(x)}}, device.Unsupported},
	} {
		_, err := exec(t, c.req)
		if got := device.KindOf(err); err == nil || got != c.kind {
			t.Errorf("%s: got error %v (%s), want kind %s", c.name, err, got, c.kind)
		}
	}
	// The concrete types survive the gRPC round trip.
	_, err := exec(t, &device.ExecRequest{Op: "add", Attrs: inplace,
		Inputs: []ops.Value{ops.T(tensor.FromInt64s(tensor.Int64, []int{3}, []int64{1, 2, 3})), ops.T(x)}})
	var arg *ops.ArgumentError
	if !errors.As(err, &arg) || arg.Msg != "result type Float can't be cast to the desired output type Long" {
		t.Errorf("in-place refusal: got %#v", err)
	}
	_, err = exec(t, &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(tensor.FromInt64s(tensor.Int32, []int{1}, []int64{1})), ops.I(2)}})
	var unsup *device.ErrUnsupported
	if !errors.As(err, &unsup) || unsup.Op != "mul" || unsup.DType != tensor.Int32 {
		t.Errorf("int32 call: got %#v", err)
	}
}

func TestDescribeAndConfigure(t *testing.T) {
	d := plugintest.Device(t, New())
	info, err := d.Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"add", "mul", "neg", "relu"} {
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
			if fwd, bwd := info.Supports(op, dt); !fwd || !bwd {
				t.Errorf("%s at %s: forward %v, backward %v", op, dt, fwd, bwd)
			}
		}
	}
	if fwd, _ := info.Supports("add", tensor.Int64); fwd {
		t.Error("add at int64 declared")
	}
	if err := d.Configure(context.Background(), device.Config{DeviceID: 0}); err != nil {
		t.Errorf("Configure without options: %v", err)
	}
	if err := d.Configure(context.Background(), device.Config{Options: map[string]string{"mode": "fast"}}); err == nil {
		t.Error("Configure accepted an unknown option")
	}
}

// TestConformance runs the SDK's conformance kit: PyTorch's golden cases
// and finite-difference gradient checks for every pair Describe declares.
func TestConformance(t *testing.T) {
	devicetest.Run(t, plugintest.Device(t, New()), devicetest.Options{})
}
