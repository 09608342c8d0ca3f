package standard

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// correctlyRounded returns n float64 bench values spread over [lo, hi) and
// the same values rounded to dt (a perfect kernel of that dtype), with k ULP
// of dt added to every 10th device value when k ≠ 0.
func correctlyRounded(dt tensor.DType, n int, lo, hi float64, k int) (bench, device *tensor.Tensor) {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]float64, n)
	for i := range b {
		b[i] = lo + (hi-lo)*r.Float64()
	}
	bench = tensor.FromFloat64s(tensor.Float64, []int{n}, b)
	device = tensor.FromFloat64s(dt, []int{n}, b)
	if k != 0 {
		mant, minExp, _ := ulpShape(dt)
		dv := device.Float64s()
		for i := 0; i < n; i += 10 {
			dv[i] += float64(k) * ulpAt(dv[i], mant, minExp)
		}
		device = tensor.FromFloat64s(dt, []int{n}, dv)
	}
	return bench, device
}

// A correctly rounded bfloat16 result passes probe's legacy tree, while
// msprobe's (Compat) warns because its double-thousand bound 0.001 is below
// bfloat16's rounding unit; a 1-ULP error on 10% of the elements warns in
// both.
func TestPyTorchBF16Rounding(t *testing.T) {
	b, d := correctlyRounded(tensor.BFloat16, 4096, 0.25, 4, 0)
	p := Pair{API: "Functional.gelu.0.forward.output.0", Bench: b, Device: d}
	row := PyTorch{}.Judge(p)
	if row.Status != Pass || !strings.Contains(row.Message, "less than 0.00390625") {
		t.Errorf("probe, rounded: %s %q", row.Status, row.Message)
	}
	if th := row.Metrics[ColThousand].V; !(th < 0.999) {
		t.Errorf("双千指标 %v: the column must keep msprobe's 0.001 bound", th)
	}
	if row := (PyTorch{Compat: true}).Judge(p); row.Status != Warning || !strings.Contains(row.Message, "greater than 0.001, consider as warning") {
		t.Errorf("compat, rounded: %s %q", row.Status, row.Message)
	}
	b, d = correctlyRounded(tensor.BFloat16, 4096, 0.25, 4, 1)
	p = Pair{API: "Functional.gelu.0.forward.output.0", Bench: b, Device: d}
	for _, s := range []PyTorch{{}, {Compat: true}} {
		if row := s.Judge(p); row.Status != Warning {
			t.Errorf("compat=%v, 1 ULP: %s %q", s.Compat, row.Status, row.Message)
		}
	}
	// A float32 bench (an external bench plugin; msprobe's own precision)
	// takes the float32 kernel of the pass: same verdicts.
	b, d = correctlyRounded(tensor.BFloat16, 4096, 0.25, 4, 0)
	b32 := tensor.FromFloat64s(tensor.Float32, b.Shape, b.Float64s())
	p = Pair{API: "Functional.gelu.0.forward.output.0", Bench: b32, Device: d}
	if row := (PyTorch{}).Judge(p); row.Status != Pass {
		t.Errorf("probe, float32 bench: %s %q", row.Status, row.Message)
	}
	if row := (PyTorch{Compat: true}).Judge(p); row.Status != Warning {
		t.Errorf("compat, float32 bench: %s %q", row.Status, row.Message)
	}
	// float16 keeps 0.001: it is above float16's rounding unit 2^-11.
	b, d = correctlyRounded(tensor.Float16, 4096, 0.25, 4, 0)
	p = Pair{API: "Functional.gelu.0.forward.output.0", Bench: b, Device: d}
	if row := (PyTorch{}).Judge(p); row.Status != Pass || !strings.Contains(row.Message, "less than 0.001, consider as pass") {
		t.Errorf("fp16, rounded: %s %q", row.Status, row.Message)
	}
}

// MindSpore's absolute 0.001 is finer than bfloat16 above 0.5 and float16
// above 4: by default an error below one ULP of the tested dtype passes.
func TestMindSporeULPAllowance(t *testing.T) {
	cases := []struct {
		name        string
		dt          tensor.DType
		lo, hi      float64
		k           int
		probe, comp string
	}{
		{"bf16 rounded", tensor.BFloat16, 0.5, 4, 0, Pass, Error},
		{"bf16 1 ULP off", tensor.BFloat16, 0.5, 4, 1, Error, Error},
		{"bf16 64 ULP off", tensor.BFloat16, 0.5, 4, 64, Error, Error},
		{"bf16 small values", tensor.BFloat16, -0.2, 0.2, 0, Pass, Pass},
		{"fp16 rounded", tensor.Float16, 4, 60, 0, Pass, Error},
		{"fp16 small values 1 ULP off", tensor.Float16, 0.1, 0.4, 1, Pass, Pass},
		{"fp32 rounded", tensor.Float32, 2e4, 1e5, 0, Pass, Error},
		{"fp32 8 ULP off", tensor.Float32, 2e4, 1e5, 8, Error, Error},
	}
	for _, c := range cases {
		b, d := correctlyRounded(c.dt, 1000, c.lo, c.hi, c.k)
		p := Pair{API: "Functional.relu.0.forward.output.0", Bench: b, Device: d}
		for _, s := range []MindSpore{{}, {Compat: true}} {
			want := c.probe
			if s.Compat {
				want = c.comp
			}
			row := s.Judge(p)
			if row.Status != want {
				t.Errorf("%s, compat=%v: %s %q, want %s", c.name, s.Compat, row.Status, row.Message, want)
			}
			if want == Error && row.Message != msMaxAbsError {
				t.Errorf("%s, compat=%v: message %q", c.name, s.Compat, row.Message)
			}
			if mae := row.Metrics[ColMaxAbsErr].V; math.IsNaN(mae) || mae == 0 && c.lo >= 0.5 {
				t.Errorf("%s: max abs err column %v", c.name, mae)
			}
		}
	}
	// NaN stays an error.
	row := MindSpore{}.Judge(Pair{Bench: tens(tensor.Float64, 1, math.NaN()), Device: tens(tensor.BFloat16, 1, math.NaN())})
	if row.Status != Error {
		t.Errorf("NaN: %s", row.Status)
	}
}

func TestULPAt(t *testing.T) {
	cases := []struct {
		dt   tensor.DType
		x    float64
		want float64
	}{
		{tensor.BFloat16, 1, 0x1p-7},
		{tensor.BFloat16, 1.99, 0x1p-7},
		{tensor.BFloat16, -2, 0x1p-6},
		{tensor.BFloat16, 0, 0x1p-133},
		{tensor.Float16, 1, 0x1p-10},
		{tensor.Float16, 0, 0x1p-24},
		{tensor.Float16, 1e-6, 0x1p-24},
		{tensor.Float32, 3, 0x1p-22},
		{tensor.Float64, 1, 0x1p-52},
	}
	for _, c := range cases {
		mant, minExp, ok := ulpShape(c.dt)
		if got := ulpAt(c.x, mant, minExp); !ok || got != c.want {
			t.Errorf("ulpAt(%v, %v) = %v, want %v", c.x, c.dt, got, c.want)
		}
	}
}
