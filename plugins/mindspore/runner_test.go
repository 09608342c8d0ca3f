package mindspore

import (
	"context"
	"math"
	"testing"

	"github.com/probe-dev/probe/plugins/cpu"
	"github.com/probe-dev/probe/plugins/pytorch"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// mindspore-precheck §11.2 (test_api_runner), as far as it concerns probe
// rather than msprobe's Python runner (which replays a custom Python
// function): the API name split and callable resolution, and a two-output
// forward whose backward is seeded with one sens per output, with the
// vector's numbers and tolerance 1e-5.
func TestAPIRunnerVector(t *testing.T) {
	ctx := context.Background()
	// Name split and resolution: MintFunctional.relu.0 is
	// mindspore.mint.nn.functional.relu, and torch.nn.functional.relu on the
	// PyTorch side; both plan the canonical relu.
	x := f32("args.0", 3)
	if p := plan(t, &framework.PlanRequest{API: "MintFunctional.relu.0", Args: []framework.Arg{x}}); p.Plan == nil || p.Plan.Op != "relu" {
		t.Errorf("MintFunctional.relu.0: %+v", p)
	}
	pt, err := pytorch.New().Plan(ctx, &framework.PlanRequest{API: "Functional.relu.0", Args: []framework.Arg{x}})
	if err != nil || pt.Plan == nil || pt.Plan.Op != "relu" {
		t.Errorf("Functional.relu.0 (pytorch): %+v %v", pt, err)
	}

	// Two outputs [1, 2, 3] and [1.1, 2, 3] (x1 and x2 of the vector, here
	// the halves of one input), sens g1 = [1, 2, 3] and g2 = [1.11, 2, 3]:
	// the input gradient is [g1, g2].
	req := &framework.PlanRequest{API: "Mint.split.0", Args: []framework.Arg{f32("args.0", 6), iv(3)},
		Outputs: []framework.Arg{f32("output.0", 3), f32("output.1", 3)}, HasBackward: true}
	resp := plan(t, req)
	if resp.Plan == nil {
		t.Fatalf("Mint.split.0 skipped: %s", resp.Skip)
	}
	p := resp.Plan
	if p.BackwardMessage != "" || len(p.GradOutputs) != 2 || p.GradOutputs[0] != 0 || p.GradOutputs[1] != 1 {
		t.Fatalf("plan %+v: want gradients for outputs 0 and 1", p)
	}
	in := tensor.FromFloat64s(tensor.Float32, []int{6}, []float64{1, 2, 3, 1.1, 2, 3})
	g1 := tensor.FromFloat64s(tensor.Float32, []int{3}, []float64{1, 2, 3})
	g2 := tensor.FromFloat64s(tensor.Float32, []int{3}, []float64{1.11, 2, 3})
	grads := make([]*tensor.Tensor, 2)
	grads[p.GradOutputs[0]], grads[p.GradOutputs[1]] = g1, g2
	for _, mode := range []cpu.Mode{cpu.Bench, cpu.Emulated} {
		res, err := cpu.New(cpu.Options{Mode: mode}).Execute(ctx, &device.ExecRequest{API: req.API, Op: p.Op, Attrs: p.Attrs,
			Inputs: []ops.Value{ops.T(in)}, RequiresGrad: []bool{true}, Backward: true, GradOutputs: grads})
		if err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		check := func(what string, got *tensor.Tensor, want []float64) {
			v := got.Float64s()
			if len(v) != len(want) {
				t.Fatalf("mode %v: %s = %v, want %v", mode, what, v, want)
			}
			for i := range v {
				if math.Abs(v[i]-want[i]) > 1e-5 {
					t.Errorf("mode %v: %s = %v, want %v", mode, what, v, want)
					break
				}
			}
		}
		check("output 0", res.Outputs[0], []float64{1, 2, 3})
		check("output 1", res.Outputs[1], []float64{1.1, 2, 3})
		check("input gradient", res.InputGrads[0], []float64{1, 2, 3, 1.11, 2, 3})
	}
}
