package cpu

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func f64(shape []int, vals ...float64) *tensor.Tensor {
	return tensor.FromFloat64s(tensor.Float64, shape, vals)
}

func exec(t *testing.T, d device.Device, req *device.ExecRequest) *device.ExecResult {
	t.Helper()
	res, err := d.Execute(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", req.Op, err)
	}
	return res
}

func execErr(t *testing.T, req *device.ExecRequest, want string) {
	t.Helper()
	_, err := New(Options{}).Execute(context.Background(), req)
	if err == nil {
		t.Fatalf("%s: no error, want %q", req.Op, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s: error %q does not contain %q", req.Op, err, want)
	}
	// Everything the CPU plugin refuses, PyTorch would refuse too.
	if k := device.KindOf(err); k != device.InvalidArgument {
		t.Errorf("%s: error %q is of kind %v, want invalid argument", req.Op, err, k)
	}
}

func TestDescribe(t *testing.T) {
	info, err := New(Options{Mode: Emulated}).Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "cpu" || info.Version == "" || !strings.Contains(info.Description, "emulated") {
		t.Errorf("info = %+v", info)
	}
	seen := map[string]device.OpSupport{}
	for i, o := range info.Ops {
		if i > 0 && info.Ops[i-1].Op >= o.Op {
			t.Errorf("ops not sorted: %s before %s", info.Ops[i-1].Op, o.Op)
		}
		if _, ok := ops.Lookup(o.Op); !ok {
			t.Errorf("Describe lists unknown op %s", o.Op)
		}
		if len(o.DTypes) == 0 {
			t.Errorf("op %s lists no dtypes", o.Op)
		}
		seen[o.Op] = o
	}
	if len(seen) != len(kernels) {
		t.Errorf("Describe lists %d ops, %d are registered", len(seen), len(kernels))
	}
	for op, diff := range goldenOps {
		o, ok := seen[op]
		if !ok {
			t.Errorf("op %s missing", op)
			continue
		}
		if o.Backward != diff {
			t.Errorf("op %s: Backward = %v, want %v", op, o.Backward, diff)
		}
	}
	hasInt := func(op string) bool {
		for _, d := range seen[op].DTypes {
			if d == tensor.Int64 {
				return true
			}
		}
		return false
	}
	if !hasInt("add") || !hasInt("sum") || hasInt("silu") {
		t.Errorf("dtype lists wrong: add %v, sum %v, silu %v", seen["add"].DTypes, seen["sum"].DTypes, seen["silu"].DTypes)
	}
}

func TestConfigure(t *testing.T) {
	d := NewConfigurable()
	x := tensor.FromFloat64s(tensor.Float32, []int{1}, []float64{1})
	err := d.Configure(context.Background(), device.Config{Options: map[string]string{"mode": "emulated", "defect": "neg:rel=1"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := exec(t, d, &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(x)}}).Outputs[0].At(0); got != -2 {
		t.Errorf("configured defect not applied: %v", got)
	}
	if err := d.Configure(context.Background(), device.Config{Options: map[string]string{"mode": "gpu"}}); err == nil {
		t.Error("bad mode accepted")
	}
	if err := d.Configure(context.Background(), device.Config{Options: map[string]string{"defects": "neg:ulp"}}); err == nil {
		t.Error("bad defect accepted")
	}
}

func TestExecuteValidation(t *testing.T) {
	x := f64([]int{2}, 1, 2)
	_, err := New(Options{}).Execute(context.Background(), &device.ExecRequest{Op: "nosuch"})
	var unsup *device.ErrUnsupported
	if !errors.As(err, &unsup) {
		t.Errorf("unknown op: %v", err)
	}
	execErr(t, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(x)}}, "missing input other")
	execErr(t, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(x), ops.T(x), ops.T(x)}}, "takes 2 inputs")
	execErr(t, &device.ExecRequest{Op: "sum", Inputs: []ops.Value{ops.F(1)}}, "input self must be a tensor, not a number")
	execErr(t, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(x), ops.None}}, "input other must be a tensor, not None")
	execErr(t, &device.ExecRequest{Op: "cat", Inputs: []ops.Value{ops.T(x), ops.F(2)}}, "tensors[1] must be a tensor")
	execErr(t, &device.ExecRequest{Op: "cat"}, "needs at least one tensor")
	execErr(t, &device.ExecRequest{Op: "cumsum", Inputs: []ops.Value{ops.T(x)}}, "missing required attribute dim")
	execErr(t, &device.ExecRequest{Op: "sum", Inputs: []ops.Value{ops.T(x)}, Attrs: ops.Attrs{"axis": ops.IntAttr(0)}}, `has no attribute "axis"`)
	execErr(t, &device.ExecRequest{Op: "sum", Inputs: []ops.Value{ops.T(x)}, Attrs: ops.Attrs{"keepdim": ops.StringAttr("yes")}}, "attribute keepdim has kind string")
	execErr(t, &device.ExecRequest{Op: "sum", Inputs: []ops.Value{ops.T(&tensor.Tensor{DType: tensor.Float64, Shape: []int{3}, Data: make([]byte, 8)})}}, "input self")
	execErr(t, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(x), ops.T(x)}, RequiresGrad: []bool{true}}, "requires_grad")
	execErr(t, &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(x)}, RequiresGrad: []bool{true}, Backward: true,
		GradOutputs: []*tensor.Tensor{f64([]int{3}, 1, 2, 3)}}, "grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])")
	_, err = New(Options{}).Execute(context.Background(), &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(x)}, RequiresGrad: []bool{true}, Backward: true,
		GradOutputs: []*tensor.Tensor{f64([]int{3}, 1, 2, 3)}})
	if device.KindOf(err) != device.InvalidArgument {
		t.Errorf("a gradient of another shape than its output: %v is a %v, want what the framework would reject (autograd raises)", err, device.KindOf(err))
	}
	execErr(t, &device.ExecRequest{Op: "sum", Inputs: []ops.Value{ops.T(x)}, Attrs: ops.Attrs{"dtype": ops.StringAttr("complex64")}}, "dtype")
	// Every error names the op.
	execErr(t, &device.ExecRequest{Op: "reshape", Inputs: []ops.Value{ops.T(x)}, Attrs: ops.Attrs{"shape": ops.IntsAttr(3)}}, "reshape: shape '[3]' is invalid for input of size 2")
	// Trailing optional inputs may be omitted.
	res := exec(t, New(Options{}), &device.ExecRequest{Op: "clamp", Inputs: []ops.Value{ops.T(x), ops.F(1.5)}})
	if got := res.Outputs[0].Float64s(); got[0] != 1.5 || got[1] != 2 {
		t.Errorf("clamp with omitted max = %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(Options{}).Execute(ctx, &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(x)}}); err == nil {
		t.Error("cancelled context accepted")
	}
}

// TestExecuteRecoversPanics swaps a kernel in the registry for the
// duration of the test (no test of this package runs in parallel).
func TestExecuteRecoversPanics(t *testing.T) {
	// neg: an op the direct path (fastpath.go) does not take
	saved := kernels["neg"]
	defer func() { kernels["neg"] = saved }()
	kernels["neg"] = &kernel{forward: func(c *call) ([]*array, error) { panic("boom") }}
	_, err := New(Options{}).Execute(context.Background(), &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(f64([]int{1}, 1))}})
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "neg") {
		t.Errorf("panic not turned into an error: %v", err)
	}
}

func TestBackwardGradientRules(t *testing.T) {
	d := New(Options{})
	x := f64([]int{2, 2}, 1, -2, 3, -4)
	y := f64([]int{2}, 0.5, 2)
	// A nil gradient means zero.
	res := exec(t, d, &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(x), ops.T(y)}, RequiresGrad: []bool{true, true}, Backward: true, GradOutputs: []*tensor.Tensor{nil}})
	for i, g := range res.InputGrads {
		if g == nil || !allZero(g) || !slices.Equal(g.Shape, []*tensor.Tensor{x, y}[i].Shape) {
			t.Errorf("grad %d for a nil output gradient = %v", i, g)
		}
	}
	// Only inputs that require grad get one; broadcast gradients are summed.
	g := f64([]int{2, 2}, 1, 1, 1, 1)
	res = exec(t, d, &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(x), ops.T(y)}, RequiresGrad: []bool{false, true}, Backward: true, GradOutputs: []*tensor.Tensor{g}})
	if res.InputGrads[0] != nil {
		t.Error("gradient for an input that does not require it")
	}
	if got := res.InputGrads[1].Float64s(); got[0] != 4 || got[1] != -6 {
		t.Errorf("broadcast gradient = %v, want [4 -6]", got)
	}
	// Integer inputs and non-differentiable inputs (echo's) never get one.
	xi := tensor.FromInt64s(tensor.Int64, []int{2}, []int64{1, 2})
	res = exec(t, d, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(xi), ops.T(y)}, RequiresGrad: []bool{true, true}, Backward: true})
	if res.InputGrads[0] != nil || res.InputGrads[1] == nil {
		t.Errorf("int input grads = %v", res.InputGrads)
	}
	res = exec(t, d, &device.ExecRequest{Op: "echo", Inputs: []ops.Value{ops.T(y)}, RequiresGrad: []bool{true}, Backward: true})
	if len(res.InputGrads) != 1 || res.InputGrads[0] != nil {
		t.Errorf("echo grads = %v", res.InputGrads)
	}
	// Gradients come back in the input's dtype.
	h := tensor.FromFloat64s(tensor.Float16, []int{2}, []float64{1, 2})
	b := tensor.FromFloat64s(tensor.BFloat16, []int{2}, []float64{3, 4})
	res = exec(t, New(Options{Mode: Emulated}), &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(h), ops.T(b)}, RequiresGrad: []bool{true, true}, Backward: true,
		GradOutputs: []*tensor.Tensor{tensor.FromFloat64s(tensor.Float32, []int{2}, []float64{0.1, 0.1})}})
	if res.Outputs[0].DType != tensor.Float32 || res.InputGrads[0].DType != tensor.Float16 || res.InputGrads[1].DType != tensor.BFloat16 {
		t.Errorf("dtypes: out %s, grads %s %s", res.Outputs[0].DType, res.InputGrads[0].DType, res.InputGrads[1].DType)
	}
}

func TestEmulatedRounding(t *testing.T) {
	// 1 + 2^-11 + 2^-30 rounds up to 1+2^-10 in one step, but to 1 via
	// float32 (where it becomes the tie 1+2^-11, then even).
	v := 1 + 0x1p-11 + 0x1p-30
	e, b := []float64{v}, []float64{v}
	roundResult(Emulated, tensor.Float16, e)
	roundResult(Bench, tensor.Float16, b)
	if e[0] != 1 || b[0] != 1+0x1p-10 {
		t.Errorf("emulated %v, bench %v", e[0], b[0])
	}
	// Bench keeps float64 results exact, emulated float32 is rounded.
	x := f64([]int{1}, 1)
	y := f64([]int{1}, 3)
	if got := exec(t, New(Options{}), &device.ExecRequest{Op: "div", Inputs: []ops.Value{ops.T(x), ops.T(y)}}).Outputs[0].At(0); got != 1.0/3 {
		t.Errorf("bench 1/3 = %v", got)
	}
	x32 := tensor.FromFloat64s(tensor.Float32, []int{1}, []float64{1})
	y32 := tensor.FromFloat64s(tensor.Float32, []int{1}, []float64{3})
	out := exec(t, New(Options{Mode: Emulated}), &device.ExecRequest{Op: "div", Inputs: []ops.Value{ops.T(x32), ops.T(y32)}}).Outputs[0]
	if out.DType != tensor.Float32 || out.At(0) != float64(float32(1.0/3)) {
		t.Errorf("emulated 1/3 = %v %s", out.At(0), out.DType)
	}
}

func TestIntegerSemantics(t *testing.T) {
	d := New(Options{Mode: Emulated})
	i8 := tensor.FromInt64s(tensor.Int8, []int{2}, []int64{100, -100})
	out := exec(t, d, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(i8), ops.T(i8)}}).Outputs[0]
	if out.DType != tensor.Int8 || out.Int64(0) != -56 || out.Int64(1) != 56 {
		t.Errorf("int8 overflow: %v %s", out.Int64s(), out.DType)
	}
	big := tensor.FromInt64s(tensor.Int64, []int{1}, []int64{1 << 40})
	out = exec(t, d, &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(big), ops.I(3)}}).Outputs[0]
	if out.DType != tensor.Int64 || out.Int64(0) != 3<<40 {
		t.Errorf("int64 mul = %v", out.Int64s())
	}
	// In-place: int64 result cast back into an int32 tensor is allowed,
	// a float result into an int tensor is refused.
	i32 := tensor.FromInt64s(tensor.Int32, []int{1}, []int64{7})
	out = exec(t, d, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.T(i32), ops.T(big)}, Attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}}).Outputs[0]
	if out.DType != tensor.Int32 || out.Int64(0) != 7 {
		t.Errorf("in-place int32 += 2^40 = %v %s", out.Int64s(), out.DType)
	}
	execErr(t, &device.ExecRequest{Op: "mul", Inputs: []ops.Value{ops.T(big), ops.F(0.5)}, Attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}},
		"result type Float can't be cast to the desired output type Long")
	execErr(t, &device.ExecRequest{Op: "add", Inputs: []ops.Value{ops.F(1), ops.T(big)}, Attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}},
		"in-place call needs a tensor")
}

func TestEchoIsExact(t *testing.T) {
	big := tensor.FromInt64s(tensor.Int64, []int{2}, []int64{1<<62 + 1, -(1<<60 + 3)})
	res := exec(t, New(Options{Mode: Emulated, Defects: []Defect{{Op: "echo", ULP: 5}}}), &device.ExecRequest{Op: "echo", Inputs: []ops.Value{ops.T(big)}})
	if got := res.Outputs[0].Int64s(); got[0] != 1<<62+1 || got[1] != -(1<<60+3) {
		t.Errorf("echo = %v", got)
	}
	res.Outputs[0].Data[0] ^= 1
	if big.Int64(0) != 1<<62+1 {
		t.Error("echo output aliases its input")
	}
}

func TestUnalias(t *testing.T) {
	in := &array{shape: []int{2}, data: []float64{1.1, 2.2}, dtype: tensor.Float64}
	c := &call{in: []*array{in}}
	outs := []*array{in, {shape: []int{2}, data: in.data, dtype: tensor.Float16}}
	unalias(c, outs)
	roundSlice(tensor.Float16, outs[1].data)
	if outs[0] == in || &outs[1].data[0] == &in.data[0] || in.data[0] != 1.1 {
		t.Errorf("outputs still alias the input: %v", in.data)
	}
}

// Precision.HF32 is honoured by rounding float32 inputs to HF32 first (the
// CPU has no HF32 mode): the result equals that of pre-rounded inputs and
// differs from the plain float32 one; other dtypes are not touched.
func TestHF32Precision(t *testing.T) {
	a := tensor.FromFloat64s(tensor.Float32, []int{2, 2}, []float64{1.0001, 3.14159265, -2.7182818, 0.3333333})
	b := tensor.FromFloat64s(tensor.Float32, []int{2, 2}, []float64{1.0000001, -1.2345678, 0.5, 7.654321})
	mm := func(x, y *tensor.Tensor, hf32 bool) []float64 {
		res := exec(t, New(Options{Mode: Emulated}), &device.ExecRequest{Op: "mm", Inputs: []ops.Value{ops.T(x), ops.T(y)}, Precision: ops.Precision{HF32: hf32}})
		return res.Outputs[0].Float64s()
	}
	got, rounded, plain := mm(a, b, true), mm(ops.RoundHF32Tensor(a), ops.RoundHF32Tensor(b), false), mm(a, b, false)
	if !slices.Equal(got, rounded) || slices.Equal(got, plain) {
		t.Errorf("HF32 mm %v, pre-rounded %v, plain %v", got, rounded, plain)
	}
	a64, b64 := a.Cast(tensor.Float64), b.Cast(tensor.Float64)
	if !slices.Equal(mm(a64, b64, true), mm(a64, b64, false)) {
		t.Error("HF32 changed a float64 call")
	}
}
