package cpu

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestExecuteLeavesInputsAlone runs every corpus case, forward and
// backward, with its float inputs and gradients as float64 — the tensors
// the kernels read in place rather than convert (float64s) — in both
// modes, and checks that Execute changed none of the request's bytes but
// the self of an in-place op (add_, addcmul_, ...), which it may write its
// result into as the framework does.
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
			inplace := req.Attrs["inplace"].Kind == ops.AttrBool && req.Attrs["inplace"].Bool
			for i, v := range req.Inputs {
				if v.Kind == ops.KindTensor && v.Tensor != nil {
					req.Inputs[i].Tensor = to64(v.Tensor)
					if i == 0 && inplace {
						continue
					}
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

// TestStoreRoundedMatchesRoundThenStore: the one-pass rounding of results
// gives the bytes of roundResult followed by toTensor, in both modes, for
// every float dtype it takes (NaNs of both signs, infinities, subnormals,
// ties included).
func TestStoreRoundedMatchesRoundThenStore(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	v := []float64{math.NaN(), -math.NaN(), math.Copysign(math.NaN(), -1), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 65504, 65520, 1e-8, -3e-39, 0x1p-25, 1 + 0x1p-11, 1 + 0x1p-8}
	for len(v) < 100000 {
		v = append(v, math.Ldexp(r.NormFloat64(), r.IntN(80)-40), math.Float64frombits(r.Uint64()))
	}
	for _, m := range modes {
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16} {
			got, ok := storeRounded(Options{Mode: m}, "add", dt, []int{len(v)}, v)
			if !ok {
				t.Fatalf("%s %s: not taken", m, dt)
			}
			w := append([]float64(nil), v...)
			roundResult(m, dt, w)
			want := toTensor(dt, []int{len(v)}, w)
			if !bytes.Equal(got.Data, want.Data) {
				for i := range v {
					a, b := got.Data[i*dt.Size():(i+1)*dt.Size()], want.Data[i*dt.Size():(i+1)*dt.Size()]
					if !bytes.Equal(a, b) {
						t.Fatalf("%s %s: element %d (%v): %x, want %x", m, dt, i, v[i], a, b)
					}
				}
			}
		}
	}
	if _, ok := storeRounded(Options{Mode: Emulated, Defects: []Defect{{Op: "add"}}}, "add", tensor.Float32, []int{1}, []float64{1}); ok {
		t.Fatal("taken with a defect on the op")
	}
}
