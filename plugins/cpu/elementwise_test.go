package cpu

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Finite-difference checks of the backward of every differentiable
// elementwise, reduction and shape kernel, through Execute. They are
// independent of the PyTorch golden data: the vector-Jacobian product must
// equal the derivative of <grad_out, f(x)> estimated by central differences.

// fdCase is one gradient check: float64 tensor inputs take gradients.
type fdCase struct {
	name   string
	op     string
	inputs []ops.Value
	attrs  ops.Attrs
}

// randT is a float64 tensor of uniform values in [lo, hi).
func randT(r *rand.Rand, lo, hi float64, shape ...int) ops.Value {
	n := tensor.NumElements(shape)
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*r.Float64()
	}
	return ops.T(tensor.FromFloat64s(tensor.Float64, shape, v))
}

// randSigned is like randT but with |value| in [lo, hi) and a random sign,
// keeping values away from kinks at 0.
func randSigned(r *rand.Rand, lo, hi float64, shape ...int) ops.Value {
	v := randT(r, lo, hi, shape...)
	for i := 0; i < v.Tensor.Len(); i++ {
		if r.IntN(2) == 0 {
			v.Tensor.Set(i, -v.Tensor.At(i))
		}
	}
	return v
}

func boolT(r *rand.Rand, shape ...int) ops.Value {
	n := tensor.NumElements(shape)
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(r.IntN(2))
	}
	return ops.T(tensor.FromInt64s(tensor.Bool, shape, v))
}

// weightedSum runs the forward and returns sum_k <w_k, out_k> over float
// outputs.
func weightedSum(t *testing.T, d device.Device, c fdCase, w []*tensor.Tensor) float64 {
	t.Helper()
	res, err := d.Execute(context.Background(), &device.ExecRequest{Op: c.op, Attrs: c.attrs, Inputs: c.inputs})
	if err != nil {
		t.Fatalf("forward: %v", err)
	}
	s := 0.0
	for k, o := range res.Outputs {
		if w[k] == nil {
			continue
		}
		for i := 0; i < o.Len(); i++ {
			s += w[k].At(i) * o.At(i)
		}
	}
	return s
}

func runFDCheck(t *testing.T, r *rand.Rand, c fdCase) {
	t.Helper()
	d := New(Options{Mode: Bench})
	rg := make([]bool, len(c.inputs))
	for i, v := range c.inputs {
		rg[i] = v.Kind == ops.KindTensor && v.Tensor.DType == tensor.Float64
	}
	fwd, err := d.Execute(context.Background(), &device.ExecRequest{Op: c.op, Attrs: c.attrs, Inputs: c.inputs})
	if err != nil {
		t.Fatalf("forward: %v", err)
	}
	w := make([]*tensor.Tensor, len(fwd.Outputs))
	for k, o := range fwd.Outputs {
		if o.DType.IsFloat() {
			w[k] = randT(r, -1, 1, o.Shape...).Tensor
		}
	}
	res, err := d.Execute(context.Background(), &device.ExecRequest{Op: c.op, Attrs: c.attrs, Inputs: c.inputs, RequiresGrad: rg, Backward: true, GradOutputs: w})
	if err != nil {
		t.Fatalf("backward: %v", err)
	}
	const h = 1e-6
	checked := 0
	for i, v := range c.inputs {
		if !rg[i] {
			if res.InputGrads[i] != nil {
				t.Errorf("input %d: unexpected gradient", i)
			}
			continue
		}
		g := res.InputGrads[i]
		if g == nil {
			t.Fatalf("input %d: no gradient", i)
		}
		x := v.Tensor
		for j := 0; j < x.Len(); j++ {
			orig := x.At(j)
			x.Set(j, orig+h)
			fp := weightedSum(t, d, c, w)
			x.Set(j, orig-h)
			fm := weightedSum(t, d, c, w)
			x.Set(j, orig)
			num := (fp - fm) / (2 * h)
			if ana := g.At(j); math.Abs(num-ana) > 1e-6*(1+math.Abs(ana)) {
				t.Errorf("input %d element %d: backward %.10g, finite difference %.10g", i, j, ana, num)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

func TestElementwiseGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var cases []fdCase
	for name := range unaryOps {
		x := randSigned(r, 0.2, 2, 2, 3)
		if name == "log" || name == "sqrt" || name == "rsqrt" {
			x = randT(r, 0.2, 3, 2, 3)
		}
		cases = append(cases, fdCase{name: name, op: name, inputs: []ops.Value{x}})
	}
	cases = append(cases,
		fdCase{"gelu", "gelu", []ops.Value{randSigned(r, 0.1, 3, 5)}, nil},
		fdCase{"gelu_tanh", "gelu", []ops.Value{randSigned(r, 0.1, 3, 5)}, ops.Attrs{"approximate": ops.StringAttr("tanh")}},
		fdCase{"add_alpha", "add", []ops.Value{randT(r, -1, 1, 2, 3), randT(r, -1, 1, 3)}, ops.Attrs{"alpha": ops.FloatAttr(0.7)}},
		fdCase{"add_scalar", "add", []ops.Value{randT(r, -1, 1, 2, 3), ops.F(2)}, nil},
		fdCase{"sub", "sub", []ops.Value{randT(r, -1, 1, 2, 1), randT(r, -1, 1, 1, 3)}, ops.Attrs{"alpha": ops.IntAttr(2)}},
		fdCase{"sub_scalar_left", "sub", []ops.Value{ops.F(1.5), randT(r, -1, 1, 4)}, nil},
		fdCase{"mul", "mul", []ops.Value{randT(r, -1, 1, 2, 3), randT(r, -1, 1, 2, 1)}, nil},
		fdCase{"mul_0d", "mul", []ops.Value{randT(r, -1, 1), randT(r, -1, 1, 3)}, nil},
		fdCase{"div", "div", []ops.Value{randT(r, -1, 1, 2, 3), randSigned(r, 0.5, 2, 3)}, nil},
		fdCase{"div_scalar_left", "div", []ops.Value{ops.F(2), randSigned(r, 0.5, 2, 3)}, nil},
		fdCase{"pow", "pow", []ops.Value{randT(r, 0.5, 2, 2, 3), randT(r, -2, 2, 3)}, nil},
		fdCase{"pow_scalar_exp", "pow", []ops.Value{randT(r, 0.5, 2, 4), ops.F(2.5)}, nil},
		fdCase{"pow_scalar_base", "pow", []ops.Value{ops.F(1.7), randT(r, -2, 2, 4)}, nil},
		fdCase{"maximum", "maximum", []ops.Value{randT(r, -1, 1, 2, 3), randT(r, -1, 1, 3)}, nil},
		fdCase{"minimum", "minimum", []ops.Value{randT(r, -1, 1, 2, 3), randT(r, -1, 1, 2, 1)}, nil},
		fdCase{"clamp_scalar", "clamp", []ops.Value{randT(r, -2, 2, 6), ops.F(-0.5), ops.F(0.5)}, nil},
		fdCase{"clamp_tensors", "clamp", []ops.Value{randT(r, -2, 2, 2, 4), randT(r, -1.5, -0.2, 4), randT(r, 0.2, 1.5, 2, 1)}, nil},
		fdCase{"clamp_min_gt_max", "clamp", []ops.Value{randT(r, -2, 2, 6), randT(r, 0.5, 1, 6), randT(r, -1, -0.5, 6)}, nil},
		fdCase{"where", "where", []ops.Value{boolT(r, 2, 3), randT(r, -1, 1, 3), randT(r, -1, 1, 2, 1)}, nil},
		fdCase{"masked_fill", "masked_fill", []ops.Value{randT(r, -1, 1, 2, 3), boolT(r, 3), randT(r, -1, 1)}, nil},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runFDCheck(t, r, c) })
	}
}

func TestMaskedFillScalarKinds(t *testing.T) {
	x := f64([]int{3}, 1.5, 2.5, 3.5)
	m := tensor.FromInt64s(tensor.Bool, []int{3}, []int64{1, 0, 1})
	for _, v := range []ops.Value{ops.I(-2), ops.F(-2), ops.B(true)} {
		res := exec(t, New(Options{}), &device.ExecRequest{Op: "masked_fill", Inputs: []ops.Value{ops.T(x), ops.T(m), v}})
		want := v.Scalar.Float()
		if got := res.Outputs[0].Float64s(); got[0] != want || got[1] != 2.5 || got[2] != want || res.Outputs[0].DType != tensor.Float64 {
			t.Errorf("masked_fill with %+v = %v", v.Scalar, got)
		}
	}
}
