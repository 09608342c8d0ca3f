package cpu

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// fastValues are n values of dtype dt at several scales, with the special
// values (NaN, infinities, signed zeros, subnormals, the largest finite)
// spread through them.
func fastValues(r *rand.Rand, dt tensor.DType, shape []int, positive bool) *tensor.Tensor {
	n := tensor.NumElements(shape)
	tiny := 1e-40
	big := float64(math.MaxFloat32)
	if dt == tensor.Float64 {
		tiny, big = 1e-310, math.MaxFloat64
	}
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), tiny, -tiny, big, -big, 1, -1}
	v := make([]float64, n)
	for i := range v {
		switch {
		case i%37 == 5:
			v[i] = special[(i/37)%len(special)]
		default:
			v[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(13)-6))
		}
		if positive && v[i] == v[i] {
			v[i] = math.Abs(v[i])
		}
	}
	return tensor.FromFloat64s(dt, shape, v)
}

// TestFastPathMatchesGeneral: every form the direct path takes gives the
// general path's bits, in both modes, at float32, float64 and bfloat16, on sizes
// that exercise one chunk and several; and the direct path really ran.
func TestFastPathMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type form struct {
		op    string
		attrs ops.Attrs
		// second: "tensor", "float", "int", "0d"; for addc*, the value
		second string
		value  ops.Value
	}
	var forms []form
	for _, op := range []string{"add", "sub", "mul", "div"} {
		for _, second := range []string{"tensor", "float", "int", "0d"} {
			forms = append(forms, form{op: op, second: second})
			if op == "add" || op == "sub" {
				forms = append(forms, form{op: op, second: second, attrs: ops.Attrs{"alpha": ops.FloatAttr(0.3)}},
					form{op: op, second: second, attrs: ops.Attrs{"alpha": ops.IntAttr(-2), "inplace": ops.BoolAttr(true)}})
			}
		}
		forms = append(forms, form{op: op, second: "tensor", attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}})
	}
	forms = append(forms, form{op: "sqrt"}, form{op: "sqrt", attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}})
	forms = append(forms, form{op: "clone"})
	for _, op := range []string{"addcmul", "addcdiv"} {
		for _, v := range []ops.Value{ops.F(0.1), ops.F(-1e-3), ops.F(1), {Kind: ops.KindScalar, Scalar: ops.Scalar{Kind: ops.ScalarInt, I: 3}}} {
			forms = append(forms, form{op: op, value: v}, form{op: op, value: v, attrs: ops.Attrs{"inplace": ops.BoolAttr(true)}})
		}
	}
	defer func() { fastDisabled = false }()
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.BFloat16} {
		for _, shape := range [][]int{{}, {0}, {7}, {3, 41}, {5, chunkElems + 123}} {
			for _, f := range forms {
				var in []ops.Value
				x := fastValues(r, dt, shape, f.op == "sqrt")
				in = append(in, ops.T(x))
				switch f.op {
				case "sqrt":
				case "addcmul", "addcdiv":
					in = append(in, ops.T(fastValues(r, dt, shape, false)), ops.T(fastValues(r, dt, shape, false)), f.value)
				default:
					switch f.second {
					case "tensor":
						in = append(in, ops.T(fastValues(r, dt, shape, false)))
					case "float":
						in = append(in, ops.F(0.1))
					case "int":
						in = append(in, ops.Value{Kind: ops.KindScalar, Scalar: ops.Scalar{Kind: ops.ScalarInt, I: 7}})
					case "0d":
						in = append(in, ops.T(tensor.FromFloat64s(dt, nil, []float64{-2.7182818})))
					}
				}
				// each call gets its own inputs: an in-place op
				// writes into self
				req := func() *device.ExecRequest {
					vs := slices.Clone(in)
					for i, v := range vs {
						if v.Kind == ops.KindTensor {
							vs[i].Tensor = v.Tensor.Clone()
						}
					}
					return &device.ExecRequest{Op: f.op, Attrs: f.attrs, Inputs: vs}
				}
				for _, mode := range []Mode{Bench, Emulated} {
					name := fmt.Sprintf("%s/%s/%v/%s/%v/%v", f.op, dt, shape, f.second, f.attrs, mode)
					opts := Options{Mode: mode}
					fastDisabled = false
					if _, ok := fastExecute(opts, req()); !ok {
						t.Errorf("%s: the direct path did not take it", name)
						continue
					}
					fastReq := req()
					fast, err := execute(opts, fastReq)
					if err != nil {
						t.Fatalf("%s: direct: %v", name, err)
					}
					inplace := f.attrs["inplace"].Bool && f.op != "clone"
					if self := fastReq.Inputs[0].Tensor; inplace && len(self.Data) > 0 && &fast.Outputs[0].Data[0] != &self.Data[0] {
						t.Errorf("%s: the in-place result is not written into self", name)
					}
					fastDisabled = true
					slow, err := execute(opts, req())
					fastDisabled = false
					if err != nil {
						t.Fatalf("%s: general: %v", name, err)
					}
					a, b := fast.Outputs[0], slow.Outputs[0]
					if a.DType != b.DType || fmt.Sprint(a.Shape) != fmt.Sprint(b.Shape) || !bytes.Equal(a.Data, b.Data) {
						i := 0
						for i < min(len(a.Data), len(b.Data)) && a.Data[i] == b.Data[i] {
							i++
						}
						t.Errorf("%s: direct %s%v differs from general %s%v (first byte %d of %d/%d)", name, a.DType, a.Shape, b.DType, b.Shape, i, len(a.Data), len(b.Data))
					}
				}
			}
		}
	}
}

// TestFastPathDeclines: the forms the direct path leaves to the general
// one (which also raises PyTorch's errors).
func TestFastPathDeclines(t *testing.T) {
	f32 := func(shape ...int) ops.Value { return ops.T(tensor.New(tensor.Float32, shape)) }
	f64 := func(shape ...int) ops.Value { return ops.T(tensor.New(tensor.Float64, shape)) }
	f16 := ops.T(tensor.New(tensor.Float16, []int{4}))
	for _, c := range []struct {
		name string
		req  *device.ExecRequest
		opts Options
	}{
		{"backward", &device.ExecRequest{Op: "add", Inputs: []ops.Value{f32(4), f32(4)}, Backward: true}, Options{}},
		{"mixed dtypes", &device.ExecRequest{Op: "add", Inputs: []ops.Value{f32(4), f64(4)}}, Options{}},
		{"float16", &device.ExecRequest{Op: "mul", Inputs: []ops.Value{f16, f16}}, Options{}},
		{"broadcast", &device.ExecRequest{Op: "mul", Inputs: []ops.Value{f32(4), f32(1)}}, Options{}},
		{"broadcast self", &device.ExecRequest{Op: "mul", Inputs: []ops.Value{f32(), f32(4)}}, Options{}},
		{"scalar self", &device.ExecRequest{Op: "sub", Inputs: []ops.Value{ops.F(1), f32(4)}}, Options{}},
		{"bool alpha", &device.ExecRequest{Op: "add", Inputs: []ops.Value{f32(4), f32(4)}, Attrs: ops.Attrs{"alpha": ops.BoolAttr(true)}}, Options{}},
		{"rounding mode", &device.ExecRequest{Op: "div", Inputs: []ops.Value{f32(4), f32(4)}, Attrs: ops.Attrs{"rounding_mode": ops.StringAttr("floor")}}, Options{}},
		{"hf32", &device.ExecRequest{Op: "mul", Inputs: []ops.Value{f32(4), f32(4)}, Precision: ops.Precision{HF32: true}}, Options{}},
		{"defect", &device.ExecRequest{Op: "mul", Inputs: []ops.Value{f32(4), f32(4)}}, Options{Mode: Emulated, Defects: []Defect{{Op: "mul"}}}},
		{"value overflow", &device.ExecRequest{Op: "addcmul", Inputs: []ops.Value{f32(4), f32(4), f32(4), ops.F(1e300)}}, Options{}},
		{"other op", &device.ExecRequest{Op: "exp", Inputs: []ops.Value{f32(4)}}, Options{}},
	} {
		if _, ok := fastExecute(c.opts, c.req); ok {
			t.Errorf("%s: taken by the direct path", c.name)
		}
	}
}
