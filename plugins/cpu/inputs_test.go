package cpu

import (
	"bytes"
	"context"
	"testing"

	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestExecuteLeavesInputsAlone runs every corpus case, forward and
// backward, with its float inputs and gradients as float64 — the tensors
// the kernels read in place rather than convert (float64s) — in both
// modes, and checks that Execute changed none of the request's bytes.
func TestExecuteLeavesInputsAlone(t *testing.T) {
	cases, err := devicetest.Cases()
	if err != nil {
		t.Fatal(err)
	}
	to64 := func(x *tensor.Tensor) *tensor.Tensor {
		if x == nil || !x.DType.IsFloat() {
			return x
		}
		return x.Cast(tensor.Float64)
	}
	ran := 0
	for _, m := range modes {
		dev := New(Options{Mode: m})
		for _, c := range cases {
			req := *c.Request
			req.Inputs = append([]ops.Value(nil), req.Inputs...)
			var in []*tensor.Tensor
			for i, v := range req.Inputs {
				if v.Kind == ops.KindTensor && v.Tensor != nil {
					req.Inputs[i].Tensor = to64(v.Tensor)
					in = append(in, req.Inputs[i].Tensor)
				}
			}
			req.GradOutputs = nil
			for _, g := range c.Request.GradOutputs {
				req.GradOutputs = append(req.GradOutputs, to64(g))
			}
			in = append(in, req.GradOutputs...)
			var before [][]byte
			for _, x := range in {
				if x != nil {
					before = append(before, bytes.Clone(x.Data))
				}
			}
			if _, err := dev.Execute(context.Background(), &req); err != nil {
				continue // errors are the kit's business
			}
			ran++
			k := 0
			for _, x := range in {
				if x == nil {
					continue
				}
				if !bytes.Equal(x.Data, before[k]) {
					t.Errorf("%s mode, %s case %q: Execute changed an input or output gradient", m, c.Op, c.Name)
				}
				k++
			}
		}
	}
	if ran == 0 {
		t.Fatal("no case ran")
	}
	t.Logf("%d calls checked", ran)
}
