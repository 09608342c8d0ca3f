package run

import (
	"slices"
	"testing"

	"github.com/probe-dev/probe/host/internal/dump"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func callWith(dts ...tensor.DType) *dump.Call {
	c := &dump.Call{Tensors: map[string]*dump.TensorDesc{}}
	for i, d := range dts {
		p := "args." + string(rune('0'+i))
		c.Tensors[p] = &dump.TensorDesc{Path: p, DType: d}
	}
	return c
}

// msprobe's bench precision rule (pytorch-precheck §4.7) under Compat, and
// float64 for every floating tensor by default.
func TestRaiser(t *testing.T) {
	f16, bf16, f32, f64, i64 := tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64, tensor.Int64
	cases := []struct {
		compat bool
		api    string
		call   []tensor.DType
		in     tensor.DType
		want   tensor.DType
	}{
		{false, "mul", []tensor.DType{f16}, f16, f64},
		{false, "conv2d", []tensor.DType{f32}, f32, f64},
		{false, "add", []tensor.DType{i64}, i64, i64},
		{true, "mul", []tensor.DType{f16}, f16, f32},
		{true, "mul", []tensor.DType{bf16}, bf16, f32},
		{true, "mul", []tensor.DType{f32}, f32, f64},
		{true, "mul", []tensor.DType{f16, f32}, f32, f32}, // mixed: everything to fp32
		{true, "mul", []tensor.DType{f16, f32}, f16, f32},
		{true, "conv2d", []tensor.DType{f32}, f32, f32},
		{true, "conv2d", []tensor.DType{f16}, f16, f32},
		{true, "type_as", []tensor.DType{f16}, f16, f16},
		{true, "mul", []tensor.DType{f64}, f64, f64},
		{true, "mul", []tensor.DType{i64}, i64, i64},
	}
	for _, c := range cases {
		w := &worker{o: &Options{Compat: c.compat}}
		e := &dump.Entry{API: c.api}
		got := w.raiser(e, &framework.Plan{}, callWith(c.call...))(tensor.New(c.in, []int{2})).DType
		if got != c.want {
			t.Errorf("compat=%v %s %v: %v -> %v, want %v", c.compat, c.api, c.call, c.in, got, c.want)
		}
	}
	// The gradient is judged on its own: an fp32 gradient of a mixed call
	// goes to fp64.
	w := &worker{o: &Options{Compat: true}}
	if got := w.raiser(&dump.Entry{API: "mul"}, &framework.Plan{}, nil)(tensor.New(f32, []int{1})).DType; got != f64 {
		t.Errorf("gradient: %v", got)
	}
}

func TestWritesRow(t *testing.T) {
	cases := []struct {
		e    dump.Entry
		want bool
	}{
		{dump.Entry{Name: "Torch.add.0", Key: "Torch.add.0.forward", Forward: &dump.Call{}}, true},
		{dump.Entry{Name: "Module.a.B.forward.0", Key: "Module.a.B.forward.0", Skip: "module", Silent: true}, true},
		{dump.Entry{Name: "Cell.a.B.backward.0", Key: "Cell.a.B.backward.0", Skip: "cell", Silent: true}, false},
		{dump.Entry{Name: "Torch.add.1", Key: "Torch.add.1.backward", Skip: "backward-only", Silent: true}, false},
		{dump.Entry{Name: "=cmd.x.0", Key: "=cmd.x.0.forward", Forward: &dump.Call{}}, false},
		{dump.Entry{Name: "Torch.bad.0", Key: "Torch.bad.0.forward", Skip: "input_args[0]: no shape"}, true},
	}
	for _, c := range cases {
		if got := writesRow(&c.e); got != c.want {
			t.Errorf("writesRow(%s) = %v, want %v", c.e.Key, got, c.want)
		}
	}
}

func TestDropoutOK(t *testing.T) {
	mk := func(zeros, n int) *tensor.Tensor {
		v := make([]float64, n)
		for i := zeros; i < n; i++ {
			v[i] = 2
		}
		return tensor.FromFloat64s(tensor.Float32, []int{n}, v)
	}
	// pytorch-precheck §11.3 dropout vectors.
	if !dropoutOK(mk(60, 120), mk(60, 120)) || dropoutOK(mk(60, 120), mk(0, 120)) || !dropoutOK(mk(2, 3), mk(2, 3)) || dropoutOK(mk(67, 100), mk(34, 100)) {
		t.Error("dropout rule")
	}
}

func TestHF32(t *testing.T) {
	// HF32 keeps 11 mantissa bits (quantum 2^-11 at 1): 1 + 2^-12 is a tie
	// and rounds away from zero, 1 + 2^-13 rounds down, 1 + 2^-11 stays.
	x := tensor.FromFloat64s(tensor.Float32, []int{4}, []float64{1 + 0x1p-12, 1 + 0x1p-13, -(1 + 0x1p-12), 1 + 0x1p-11})
	got := roundHF32(x).Float64s()
	want := []float64{1 + 0x1p-11, 1, -(1 + 0x1p-11), 1 + 0x1p-11}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("HF32 element %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// MindSpore seeds a multi-output backward with one sens per output
// (mindspore-precheck §4.8, §11.2): every dumped gradient reaches the op
// output the plan maps it to, on both sides, and the bench's is raised.
func TestMultiOutputBackwardFeedsEveryGradient(t *testing.T) {
	const js = `{"task": "statistics", "framework": "mindspore", "dump_data_dir": null, "data": {
 "Mint.split.0.forward": {"input_args": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [5, 2], "Max": 1, "Min": -1}],
   "input_kwargs": {"split_size_or_sections": {"type": "int", "value": 2}},
   "output": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [2, 2], "Max": 1, "Min": -1},
              {"type": "mindspore.Tensor", "dtype": "Float32", "shape": [2, 2], "Max": 1, "Min": -1},
              {"type": "mindspore.Tensor", "dtype": "Float32", "shape": [1, 2], "Max": 1, "Min": -1}]},
 "Mint.split.0.backward": {"input": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [2, 2], "Max": 3, "Min": 2},
              null,
              {"type": "mindspore.Tensor", "dtype": "Float32", "shape": [1, 2], "Max": 7, "Min": 6}],
   "output": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [5, 2], "Max": 7, "Min": 0}]}}}`
	d, err := dump.Parse([]byte(js), "split.json", "mindspore")
	if err != nil {
		t.Fatal(err)
	}
	var e *dump.Entry
	for i := range d.Entries {
		if d.Entries[i].Name == "Mint.split.0" {
			e = d.Entries[i]
		}
	}
	if e == nil || e.Backward == nil {
		t.Fatalf("no Mint.split.0 with backward in %+v", d.Entries)
	}
	w := &worker{o: &Options{Dump: d, Flavor: report.MindSpore, Seed: 1}}
	plan := &framework.Plan{Op: "split_with_sizes",
		Attrs:       ops.Attrs{"split_sizes": ops.IntsAttr(2, 2, 1)},
		Inputs:      []framework.Binding{{Kind: framework.BindTensor, Path: "args.0"}},
		GradOutputs: []int{0, 1, 2}}
	u, err := w.build(e, e.Forward, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !u.devReq.Backward || !u.benchReq.Backward {
		t.Fatalf("no backward: %q", u.backwardMessage)
	}
	dg, bg := u.devReq.GradOutputs, u.benchReq.GradOutputs
	if len(dg) != 3 || len(bg) != 3 {
		t.Fatalf("gradients %d/%d, want 3", len(dg), len(bg))
	}
	if dg[1] != nil || bg[1] != nil {
		t.Errorf("the None sens must be a zero (nil) gradient")
	}
	for i, want := range map[int][2]float64{0: {2, 3}, 2: {6, 7}} {
		g, b := dg[i], bg[i]
		if g == nil || b == nil || g.DType != tensor.Float32 || b.DType != tensor.Float64 {
			t.Fatalf("gradient %d: device %v bench %v", i, g, b)
		}
		gv, bv := g.Float64s(), b.Float64s()
		// first element = Min, last = Max (statistics-mode forcing)
		if gv[0] != want[0] || gv[len(gv)-1] != want[1] || !slices.Equal(gv, bv) {
			t.Errorf("gradient %d: device %v bench %v, want from %v", i, gv, bv, want)
		}
	}
	if len(u.grads) != 2 {
		t.Errorf("saved gradients %d, want 2", len(u.grads))
	}
}
