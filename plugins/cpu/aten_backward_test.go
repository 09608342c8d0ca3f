package cpu

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestConfusionTransposeBackwardExample is fused-ops.md §3's worked
// example: the aten backward (grad = arange(12) of shape (2, 6), perm
// (0, 2, 1), shape (2, 3, 2), transpose_first false) as the lowering plans
// it, npu.confusion_transpose with the inverse permutation over the
// intermediate shape (2, 2, 3).
func TestConfusionTransposeBackwardExample(t *testing.T) {
	g := make([]float64, 12)
	for i := range g {
		g[i] = float64(i)
	}
	res, err := New(Options{Mode: Bench}).Execute(context.Background(), &device.ExecRequest{Op: "npu.confusion_transpose",
		Attrs:  ops.Attrs{"perm": ops.IntsAttr(0, 2, 1), "shape": ops.IntsAttr(2, 2, 3), "transpose_first": ops.BoolAttr(false)},
		Inputs: []ops.Value{ops.T(tensor.FromFloat64s(tensor.Float64, []int{2, 6}, g))}})
	if err != nil {
		t.Fatal(err)
	}
	dx := res.Outputs[0]
	if !slices.Equal(dx.Shape, []int{2, 3, 2}) || !slices.Equal(dx.Float64s(), []float64{0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11}) {
		t.Errorf("dx %v %v", dx.Shape, dx.Float64s())
	}
}

// TestAtenVJPErrors: the wrapper's checks of the gradient and inputs.
func TestAtenVJPErrors(t *testing.T) {
	dev := New(Options{Mode: Bench})
	f := func(shape ...int) ops.Value { return ops.T(tensor.New(tensor.Float64, shape)) }
	for _, c := range []struct {
		op   string
		in   []ops.Value
		want string
	}{
		{"npu.fast_gelu_backward", []ops.Value{f(2, 3), f(2, 4)}, "grad has shape [2, 3], the forward's output [2, 4]"},
		{"npu.fast_gelu_backward", []ops.Value{ops.T(tensor.New(tensor.Int64, []int{2})), f(2)}, "grad must be a floating tensor"},
		{"npu.linear_backward", []ops.Value{f(3, 4), ops.T(tensor.New(tensor.Int64, []int{3, 5})), f(4, 5)}, "input 1 must be a floating tensor"},
		{"npu.rms_norm_backward", []ops.Value{f(3, 4), f(3, 4), f(4), f(2, 1)}, "one value per row (3)"},
		{"npu.scaled_masked_softmax_backward", []ops.Value{f(2, 4), f(2, 5), ops.T(tensor.New(tensor.Bool, []int{2, 5}))}, "must be a floating tensor of y's shape"},
	} {
		_, err := dev.Execute(context.Background(), &device.ExecRequest{Op: c.op, Inputs: c.in})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.op, err, c.want)
		}
	}
}
