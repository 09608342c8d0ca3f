package run

import (
	"math"
	"testing"

	"github.com/probe-dev/probe/host/internal/dump"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// pytorch-precheck §11.12: HF32 rounding of float32 bit patterns.
func TestHF32SpecVectors(t *testing.T) {
	cases := []struct{ in, out uint32 }{
		{0x3f800000, 0x3f800000}, // 1.0
		{0x3f800347, 0x3f800000}, // 1.0001
		{0x3f801000, 0x3f801000}, // 1.00048828125
		{0x3f801800, 0x3f802000}, // 1.000732421875
		{0xbf801800, 0xbf802000}, // -1.000732421875
		{0x40490fdb, 0x40491000}, // 3.14159265
		{0x322bcc77, 0x322bd000}, // 1e-08
		{0x477fe000, 0x477fe000}, // 65504.0
	}
	vals := make([]float64, len(cases))
	for i, c := range cases {
		vals[i] = float64(math.Float32frombits(c.in))
	}
	got := roundHF32(tensor.FromFloat64s(tensor.Float32, []int{len(vals)}, vals))
	for i, c := range cases {
		if b := math.Float32bits(float32(got.At(i))); b != c.out {
			t.Errorf("HF32(%#08x) = %#08x, want %#08x", c.in, b, c.out)
		}
	}
	if v := got.At(6); v != 1.0000803740695119e-08 {
		t.Errorf("HF32(1e-08) = %v", v)
	}
}

// pytorch-precheck §11.6: atten_mask without data, sparse_mode 3, for
// npu_fusion_attention is the 2048x2048 mask true strictly above the
// diagonal.
func TestCausalMask(t *testing.T) {
	e := &dump.Entry{API: "npu_fusion_attention", Forward: &dump.Call{Kwargs: []framework.NamedArg{{Name: "sparse_mode", Arg: framework.Arg{Kind: framework.ArgInt, Int: 3}}}}}
	d := &dump.TensorDesc{DType: tensor.Bool, Shape: []int{2048, 2048}}
	m := causalMask(e, "kwargs.atten_mask", d)
	if m == nil {
		t.Fatal("no mask")
	}
	for _, c := range [][3]int{{0, 0, 0}, {0, 1, 1}, {1, 0, 0}, {2047, 2047, 0}, {5, 2047, 1}, {2047, 5, 0}} {
		if got := int(m.Data[c[0]*2048+c[1]]); got != c[2] {
			t.Errorf("mask[%d][%d] = %d, want %d", c[0], c[1], got, c[2])
		}
	}
	e.Forward.Kwargs[0].Arg.Int = 0
	if causalMask(e, "kwargs.atten_mask", d) != nil {
		t.Error("sparse_mode 0 must use the normal rule")
	}
}
