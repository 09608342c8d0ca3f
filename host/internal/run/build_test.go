package run

import (
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The plan's bench policy is what the bench gets: probe's default raises
// every floating input, gradient and dtype attribute to float64; a policy
// maps exactly the dtypes it lists; HF32 reaches the device as a request
// precision and the bench as rounded inputs.
func TestBenchPolicyAndPrecision(t *testing.T) {
	const js = `{"task": "statistics", "data": {
 "Functional.conv2d.0.forward": {"input_args": [
     {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": 1.0001, "Min": -3.14159265, "requires_grad": true},
     {"type": "torch.Tensor", "dtype": "torch.float16", "shape": [4], "Max": 1, "Min": -1, "requires_grad": false}],
   "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": 1, "Min": 0}]},
 "Functional.conv2d.0.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": 2, "Min": 1}],
   "output": [null]}}}`
	d, err := dump.Parse([]byte(js), "conv.json", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	e := d.Entries[0]
	w := &worker{o: &Options{Dump: d, Seed: 1}}
	bind := []framework.Binding{{Kind: framework.BindTensor, Path: "args.0", RequiresGrad: true}, {Kind: framework.BindTensor, Path: "args.1"}}
	plan := &framework.Plan{Op: "add", Attrs: ops.Attrs{"alpha": ops.FloatAttr(1), "inplace": ops.BoolAttr(false)}, Inputs: bind}
	u, err := w.build(e, plan)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []tensor.DType{tensor.Float64, tensor.Float64} {
		if got := u.benchReq.Inputs[i].Tensor.DType; got != want {
			t.Errorf("default policy: bench input %d is %v, want %v", i, got, want)
		}
	}
	if g := u.benchReq.GradOutputs[0]; g.DType != tensor.Float64 || u.devReq.GradOutputs[0].DType != tensor.Float32 {
		t.Errorf("default policy: gradients %v / %v", g.DType, u.devReq.GradOutputs[0].DType)
	}
	if !slices.Equal(u.devReq.RequiresGrad, []bool{true, false}) || !slices.Equal(u.benchReq.RequiresGrad, u.devReq.RequiresGrad) {
		t.Errorf("requires_grad %v / %v", u.devReq.RequiresGrad, u.benchReq.RequiresGrad)
	}

	// An explicit policy: fp16 -> fp32 only, fp32 gradients stay; HF32.
	plan.Bench = &framework.BenchPolicy{Inputs: map[tensor.DType]tensor.DType{tensor.Float16: tensor.Float32}, Grads: map[tensor.DType]tensor.DType{}}
	plan.Precision = ops.Precision{HF32: true}
	u, err = w.build(e, plan)
	if err != nil {
		t.Fatal(err)
	}
	x, bx := u.devReq.Inputs[0].Tensor, u.benchReq.Inputs[0].Tensor
	if x.DType != tensor.Float32 || bx.DType != tensor.Float32 || u.benchReq.Inputs[1].Tensor.DType != tensor.Float32 {
		t.Fatalf("policy dtypes: %v %v %v", x.DType, bx.DType, u.benchReq.Inputs[1].Tensor.DType)
	}
	if !u.devReq.Precision.HF32 || u.benchReq.Precision.HF32 {
		t.Errorf("precision: device %+v bench %+v", u.devReq.Precision, u.benchReq.Precision)
	}
	// The device gets the data as dumped (it rounds itself); the bench the
	// HF32-rounded values: Min -3.14159265 forced into element 0.
	if got, want := x.At(0), float64(float32(-3.14159265)); got != want {
		t.Errorf("device input 0 = %v, want %v", got, want)
	}
	if got, want := bx.At(0), float64(ops.RoundHF32(float32(-3.14159265))); got != want || got == x.At(0) {
		t.Errorf("bench input 0 = %v, want HF32 %v", got, want)
	}
	if g := u.benchReq.GradOutputs[0]; g.DType != tensor.Float32 {
		t.Errorf("policy gradient %v", g.DType)
	}

	// HF32 with the default policy: float32 inputs reach the bench rounded
	// and widened in one pass, the same values as rounding then casting.
	plan.Bench = nil
	u, err = w.build(e, plan)
	if err != nil {
		t.Fatal(err)
	}
	x, bx = u.devReq.Inputs[0].Tensor, u.benchReq.Inputs[0].Tensor
	if bx.DType != tensor.Float64 {
		t.Fatalf("HF32, default policy: bench input 0 is %v", bx.DType)
	}
	if got, want := bx.Float64s(), ops.RoundHF32Tensor(x).Cast(tensor.Float64).Float64s(); !slices.Equal(got, want) || got[0] == x.At(0) {
		t.Errorf("HF32, default policy: bench input 0 = %v, want %v", got, want)
	}
}

// A dtype attribute is raised with the inputs by the default policy.
func TestDefaultPolicyRaisesDTypeAttr(t *testing.T) {
	p := framework.RaiseToFloat64(ops.Attrs{"dtype": ops.StringAttr("float16"), "dim": ops.IntAttr(1)})
	if p.Attrs["dtype"].String != "float64" || len(p.Attrs) != 1 {
		t.Errorf("attrs %+v", p.Attrs)
	}
	if p := framework.RaiseToFloat64(ops.Attrs{"dtype": ops.StringAttr("int32")}); len(p.Attrs) != 0 {
		t.Errorf("integer dtype raised: %+v", p.Attrs)
	}
}

// Rewrites change copies of the descriptors: dtype, and Min raised (also
// the legacy Min_except_inf_nan); the parsed call is never modified.
func TestRewrite(t *testing.T) {
	low := -2.0
	orig := &dump.Call{Tensors: map[string]*dump.TensorDesc{
		"args.0": {Path: "args.0", DType: tensor.Float32, DTypeName: "torch.float32"},
		"args.1": {Path: "args.1", DType: tensor.Int32, DTypeName: "torch.int32", Min: -1, HasMin: true, MinRepr: "orig", MinExceptInfNan: &low},
	}}
	got, err := rewrite(orig, []framework.TensorRewrite{{Path: "args.1", DType: tensor.Int64, HasMin: true, MinAtLeast: 0}})
	if err != nil {
		t.Fatal(err)
	}
	d := got.Tensors["args.1"]
	if d.DType != tensor.Int64 || d.DTypeName != "torch.int64" || d.Min != 0 || !d.HasMin || *d.MinExceptInfNan != 0 {
		t.Errorf("rewritten %+v", d)
	}
	if o := orig.Tensors["args.1"]; o.DType != tensor.Int32 || o.Min != -1 || o.MinRepr != "orig" || *o.MinExceptInfNan != -2 {
		t.Errorf("the parsed descriptor was modified: %+v", o)
	}
	if got.Tensors["args.0"] != orig.Tensors["args.0"] {
		t.Error("an unrewritten descriptor was copied")
	}
	if same, _ := rewrite(orig, nil); same != orig {
		t.Error("no rewrites must return the call itself")
	}
	// Min 1 is above the bound: unchanged.
	orig.Tensors["args.1"].Min = 1
	if got, _ := rewrite(orig, []framework.TensorRewrite{{Path: "args.1", HasMin: true}}); got.Tensors["args.1"].Min != 1 {
		t.Errorf("Min 1 changed: %+v", got.Tensors["args.1"])
	}
	if _, err := rewrite(orig, []framework.TensorRewrite{{Path: "args.7", DType: tensor.Int64}}); err == nil || !strings.Contains(err.Error(), "args.7") {
		t.Errorf("rewrite of a missing tensor: %v", err)
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

func TestZeroShare(t *testing.T) {
	mk := func(zeros, n int) *tensor.Tensor {
		v := make([]float64, n)
		for i := zeros; i < n; i++ {
			v[i] = 2
		}
		return tensor.FromFloat64s(tensor.Float32, []int{n}, v)
	}
	// pytorch-precheck §11.3 dropout vectors.
	ok := func(b, d *tensor.Tensor) bool { return zeroSharesOK(b.Len(), d.Len(), zeros(b), zeros(d)) }
	if !ok(mk(60, 120), mk(60, 120)) || ok(mk(60, 120), mk(0, 120)) || !ok(mk(2, 3), mk(2, 3)) || ok(mk(67, 100), mk(34, 100)) {
		t.Error("dropout rule")
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
	w := &worker{o: &Options{Dump: d, Seed: 1}}
	plan := &framework.Plan{Op: "split_with_sizes",
		Attrs:       ops.Attrs{"split_sizes": ops.IntsAttr(2, 2, 1)},
		Inputs:      []framework.Binding{{Kind: framework.BindTensor, Path: "args.0", RequiresGrad: true}},
		GradOutputs: []int{0, 1, 2}}
	u, err := w.build(e, plan)
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
