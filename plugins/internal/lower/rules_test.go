package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// msprobe's bench precision rule (pytorch-precheck §4.7): the dtypes of
// the call's input tensors decide one raised dtype; conv1d/conv2d keep
// fp32, type_as raises nothing; a gradient is judged on its own dtype.
func TestMsprobeBench(t *testing.T) {
	f16, bf16, f32, f64, i64 := tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64, tensor.Int64
	cases := []struct {
		api  string
		call []tensor.DType
		in   tensor.DType
		want tensor.DType
	}{
		{"mul", []tensor.DType{f16}, f16, f32},
		{"mul", []tensor.DType{bf16}, bf16, f32},
		{"mul", []tensor.DType{f32}, f32, f64},
		{"mul", []tensor.DType{f16, f32}, f32, f32}, // mixed: everything to fp32
		{"mul", []tensor.DType{f16, f32}, f16, f32},
		{"conv2d", []tensor.DType{f32}, f32, f32},
		{"conv1d", []tensor.DType{f32}, f32, f32},
		{"conv2d", []tensor.DType{f16}, f16, f32},
		{"type_as", []tensor.DType{f16}, f16, f16},
		{"mul", []tensor.DType{f64}, f64, f64},
		{"mul", []tensor.DType{i64}, i64, i64},
	}
	for _, c := range cases {
		var args []framework.Arg
		for _, d := range c.call {
			args = append(args, framework.Arg{Kind: framework.ArgTensor, DType: d})
		}
		// One tensor in a keyword list: kwargs count too.
		kw := []framework.NamedArg{{Name: "l", Arg: framework.Arg{Kind: framework.ArgList, Elems: args[len(args)-1:]}}}
		p := MsprobeBench(c.api, args[:len(args)-1], kw)
		got := c.in
		if to, ok := p.Inputs[c.in]; ok {
			got = to
		}
		if got != c.want {
			t.Errorf("%s %v: %v -> %v, want %v", c.api, c.call, c.in, got, c.want)
		}
	}
	p := MsprobeBench("mul", []framework.Arg{{Kind: framework.ArgTensor, DType: f16}, {Kind: framework.ArgTensor, DType: f32}}, nil)
	if p.Grads[f32] != f64 || p.Grads[f16] != f32 || p.Grads[bf16] != f32 {
		t.Errorf("gradients %v", p.Grads)
	}
	if p := MsprobeBench("conv2d", nil, nil); p.Grads[f32] != 0 || p.Grads[f16] != f32 {
		t.Errorf("conv2d gradients %v", p.Grads)
	}
	if p := MsprobeBench("type_as", nil, nil); len(p.Grads) != 0 || len(p.Inputs) != 0 {
		t.Errorf("type_as %+v", p)
	}
}
