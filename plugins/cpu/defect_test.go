package cpu

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestParseDefect(t *testing.T) {
	good := map[string]Defect{
		"gelu:ulp=64":          {Op: "gelu", ULP: 64},
		"gelu:rel=1e-2":        {Op: "gelu", RelErr: 1e-2},
		" add : ulp=2,rel=0.5": {Op: "add", ULP: 2, RelErr: 0.5},
		"npu.rms_norm:ulp=-3":  {Op: "npu.rms_norm", ULP: -3},
	}
	for s, want := range good {
		got, err := ParseDefect(s)
		if err != nil || got != want {
			t.Errorf("ParseDefect(%q) = %+v, %v; want %+v", s, got, err, want)
		}
		if again, err := ParseDefect(got.String()); err != nil || again != got {
			t.Errorf("round trip of %q via %q: %+v, %v", s, got.String(), again, err)
		}
	}
	for _, s := range []string{"gelu", "gelu:", "nosuchop:ulp=1", "gelu:ulp", "gelu:ulp=x", "gelu:foo=1", "gelu:ulp=nan", ":ulp=1"} {
		if _, err := ParseDefect(s); err == nil {
			t.Errorf("ParseDefect(%q) accepted", s)
		}
	}
	list, err := ParseDefects("gelu:ulp=64,rel=1e-3, add:rel=2;mul:ulp=1")
	if err != nil || len(list) != 3 || list[0] != (Defect{Op: "gelu", ULP: 64, RelErr: 1e-3}) || list[1].Op != "add" || list[2].Op != "mul" {
		t.Errorf("ParseDefects = %+v, %v", list, err)
	}
	if list, err := ParseDefects(""); err != nil || len(list) != 0 {
		t.Errorf("ParseDefects(\"\") = %v, %v", list, err)
	}
}

// bitsOf returns the raw bit pattern of element i of a float tensor.
func bitsOf(t *tensor.Tensor, i int) int64 {
	switch t.DType {
	case tensor.Float32:
		return int64(binary.LittleEndian.Uint32(t.Data[i*4:]))
	case tensor.Float16, tensor.BFloat16:
		return int64(binary.LittleEndian.Uint16(t.Data[i*2:]))
	}
	return int64(binary.LittleEndian.Uint64(t.Data[i*8:]))
}

// TestDefectULP plants a 64-ULP defect on relu and checks that every
// output and gradient element moves by exactly 64 units in the last place
// of its dtype, while other ops and bench mode are untouched.
func TestDefectULP(t *testing.T) {
	// Mantissas below 1.5, so that +64 ulp stays in the binade even for
	// bfloat16 (8 significant bits).
	vals := []float64{1.25, 0.3125, 2.25, 80, 0.5625}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16} {
		x := tensor.FromFloat64s(dt, []int{len(vals)}, vals)
		g := tensor.FromFloat64s(dt, []int{len(vals)}, vals)
		req := &device.ExecRequest{Op: "relu", Inputs: []ops.Value{ops.T(x)}, RequiresGrad: []bool{true}, Backward: true, GradOutputs: []*tensor.Tensor{g}}
		ctx := context.Background()
		clean, err := New(Options{Mode: Emulated}).Execute(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		defects := []Defect{{Op: "relu", ULP: 64}}
		bad, err := New(Options{Mode: Emulated, Defects: defects}).Execute(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		bench, err := New(Options{Mode: Bench, Defects: defects}).Execute(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for i := range vals {
			if d := bitsOf(bad.Outputs[0], i) - bitsOf(clean.Outputs[0], i); d != 64 {
				t.Errorf("%s output %d moved by %d ulp, want 64", dt, i, d)
			}
			if d := bitsOf(bad.InputGrads[0], i) - bitsOf(clean.InputGrads[0], i); d != 64 {
				t.Errorf("%s gradient %d moved by %d ulp, want 64", dt, i, d)
			}
			if bench.Outputs[0].At(i) != clean.Outputs[0].At(i) {
				t.Errorf("%s: bench mode applied the defect", dt)
			}
			if want := vals[i] + 64*tensor.ULP(dt, vals[i]); bad.Outputs[0].At(i) != want {
				t.Errorf("%s output %d = %v, want %v", dt, i, bad.Outputs[0].At(i), want)
			}
		}
		// Another op is not affected.
		other, err := New(Options{Mode: Emulated, Defects: defects}).Execute(ctx, &device.ExecRequest{Op: "abs", Inputs: []ops.Value{ops.T(x)}})
		if err != nil {
			t.Fatal(err)
		}
		for i := range vals {
			if other.Outputs[0].At(i) != vals[i] {
				t.Errorf("%s: defect on relu changed abs", dt)
			}
		}
	}
}

func TestDefectRelErrAndZero(t *testing.T) {
	x := tensor.FromFloat64s(tensor.Float32, []int{3}, []float64{2, 0, -4})
	dev := New(Options{Mode: Emulated, Defects: []Defect{{Op: "clone", RelErr: 0.5}, {Op: "neg", ULP: 1}}})
	res, err := dev.Execute(context.Background(), &device.ExecRequest{Op: "clone", Inputs: []ops.Value{ops.T(x)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Outputs[0].Float64s(); got[0] != 3 || got[1] != 0 || got[2] != -6 {
		t.Errorf("rel defect: %v", got)
	}
	res, err = dev.Execute(context.Background(), &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(x)}})
	if err != nil {
		t.Fatal(err)
	}
	// -2 + 1 tensor.ULP(2) moves toward zero; 0 gets the smallest subnormal.
	if got := res.Outputs[0].Float64s(); got[0] != -2+0x1p-22 || got[1] != 0x1p-149 || got[2] != 4+0x1p-21 {
		t.Errorf("ulp defect: %v", got)
	}
	// Integer outputs never change.
	xi := tensor.FromInt64s(tensor.Int64, []int{2}, []int64{1, 2})
	res, err = New(Options{Mode: Emulated, Defects: []Defect{{Op: "neg", ULP: 100, RelErr: 1}}}).Execute(context.Background(), &device.ExecRequest{Op: "neg", Inputs: []ops.Value{ops.T(xi)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Outputs[0].Int64s(); got[0] != -1 || got[1] != -2 {
		t.Errorf("int output changed by defect: %v", got)
	}
	if math.IsNaN(applyDefects([]Defect{{Op: "x", ULP: 1}}, "x", tensor.Float32, []float64{math.NaN()})[0]) == false {
		t.Error("NaN should stay NaN")
	}
}
