package cpu

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/tensor"
)

var modes = []Mode{Bench, Emulated}

// TestConformance runs the kit on the CPU device in both modes, as any
// device's test does, with the CPU's tightened options.
func TestConformance(t *testing.T) {
	for _, m := range modes {
		t.Run(m.String(), func(t *testing.T) {
			devicetest.Run(t, New(Options{Mode: m}), goldenOptions(m))
		})
	}
}

// undeclared serves a CPU device but declares exactly the op × dtype pairs
// the CPU does not, so that the kit runs the corpus's cases at those
// dtypes: error cases at integer dtypes of float-only ops (silu, softmax,
// dropout, ...), integer inputs with a float dtype attribute. The CPU
// executes any call; it declares only what the host may send it.
type undeclared struct{ device.Device }

func (u undeclared) Describe(ctx context.Context) (*device.Info, error) {
	info, err := u.Device.Describe(ctx)
	if err != nil {
		return nil, err
	}
	out := *info
	out.Ops = nil
	for _, s := range info.Ops {
		rest := device.OpSupport{Op: s.Op, Backward: s.Backward}
		for _, dt := range tensor.All {
			if !slices.Contains(s.DTypes, dt) {
				rest.DTypes = append(rest.DTypes, dt)
			}
		}
		out.Ops = append(out.Ops, rest)
	}
	return &out, nil
}

// TestConformanceUndeclared runs the corpus's cases at the dtypes the CPU
// does not declare; with TestConformance, every case of the corpus runs
// in both modes.
func TestConformanceUndeclared(t *testing.T) {
	for _, m := range modes {
		t.Run(m.String(), func(t *testing.T) {
			rep, err := devicetest.Check(context.Background(), undeclared{New(Options{Mode: m})}, goldenOptions(m))
			if err != nil {
				t.Fatal(err)
			}
			ran := 0
			for _, r := range rep.Results {
				ran += r.Cases
				if r.Status == devicetest.Fail {
					t.Errorf("%s at %s: %d of %d checks failed; worst: %s", r.Op, r.DType, r.Failed, r.Cases, r.Worst)
				}
			}
			if ran == 0 {
				t.Error("no case at an undeclared dtype ran")
			}
			t.Logf("%d checks at undeclared dtypes", ran)
		})
	}
}

// The conformance kit can fail: a device with a planted defect fails
// exactly the pairs of the defective op.

// TestConformanceCatchesForwardDefect plants 64 ulp on every gelu output
// and input gradient of the emulated device. Every gelu pair the corpus
// covers at float32, float16 and bfloat16 fails, naming gelu; no other op
// fails. At float64, 64 ulp (1.4e-14 relative) are below any tolerance the
// float64 kernels can be held to (the CPU's own is 1e-12), so the float64
// pair passes.
func TestConformanceCatchesForwardDefect(t *testing.T) {
	dev := New(Options{Mode: Emulated, Defects: []Defect{{Op: "gelu", ULP: 64}}})
	rep, err := devicetest.Check(context.Background(), dev, goldenOptions(Emulated))
	if err != nil {
		t.Fatal(err)
	}
	failed := map[tensor.DType]bool{}
	for _, r := range rep.Results {
		switch {
		case r.Op != "gelu":
			if r.Status == devicetest.Fail {
				t.Errorf("%s/%s failed: %s", r.Op, r.DType, r.Worst)
			}
		case r.DType == tensor.Float64:
			if r.Status != devicetest.Pass {
				t.Errorf("gelu/float64: %s %s", r.Status, r.Worst)
			}
		case r.DType.IsFloat():
			if r.Status != devicetest.Fail {
				t.Errorf("gelu/%s: %s, want FAIL", r.DType, r.Status)
				continue
			}
			failed[r.DType] = true
			if !strings.HasPrefix(r.Worst, "gelu "+r.DType.String()+" case ") || !strings.Contains(r.Worst, "tolerance") {
				t.Errorf("gelu/%s: worst %q does not name gelu, the case and the error", r.DType, r.Worst)
			}
		}
	}
	if len(failed) != 3 {
		t.Errorf("gelu failed at %v, want float32, float16 and bfloat16", failed)
	}
	var buf strings.Builder
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), " 3 FAIL,") {
		t.Errorf("table summary:\n%s", buf.String()[strings.LastIndex(strings.TrimSpace(buf.String()), "\n")+1:])
	}
}

// badBackward is a CPU device whose backward of one op is wrong: it
// scales that op's input gradients by 1.1; forward results are untouched.
type badBackward struct {
	device.Device
	op string
}

func (b badBackward) Execute(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	res, err := b.Device.Execute(ctx, req)
	if err != nil || req.Op != b.op {
		return res, err
	}
	for _, g := range res.InputGrads {
		if g != nil && g.DType.IsFloat() {
			for i := range g.Len() {
				g.Set(i, g.At(i)*1.1)
			}
		}
	}
	return res, nil
}

// TestConformanceCatchesBackwardDefect: a wrong tanh backward fails every
// tanh pair with backward cases against the golden gradients, and at
// float64 it fails the finite-difference gradient check on its own, with
// golden values not judged at all.
func TestConformanceCatchesBackwardDefect(t *testing.T) {
	dev := badBackward{New(Options{Mode: Bench}), "tanh"}
	rep, err := devicetest.Check(context.Background(), dev, goldenOptions(Bench))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rep.Results {
		switch {
		case r.Op == "tanh" && r.Backward:
			n++
			if r.Status != devicetest.Fail || !strings.Contains(r.Worst, "gradient") {
				t.Errorf("tanh/%s: %s %q, want a gradient failure", r.DType, r.Status, r.Worst)
			}
		case r.Status == devicetest.Fail:
			t.Errorf("%s/%s failed: %s", r.Op, r.DType, r.Worst)
		}
	}
	if n < 4 {
		t.Errorf("%d tanh pairs ran backward cases", n)
	}

	blind := devicetest.Options{Tolerance: func(*devicetest.Case, tensor.DType) devicetest.Tolerance {
		return devicetest.Tolerance{RTol: math.Inf(1), ATol: math.Inf(1)}
	}}
	rep, err = devicetest.Check(context.Background(), dev, blind)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		want := r.Op == "tanh" && r.DType == tensor.Float64
		switch {
		case want && (r.Status != devicetest.Fail || !strings.Contains(r.Worst, "gradient check of input 0 (self)")):
			t.Errorf("tanh/float64 without golden values: %s %q, want a failed gradient check", r.Status, r.Worst)
		case !want && r.Status == devicetest.Fail:
			t.Errorf("%s/%s failed without golden values: %s", r.Op, r.DType, r.Worst)
		}
	}
}
