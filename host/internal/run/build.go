package run

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/probe-dev/probe/host/internal/dump"
	"github.com/probe-dev/probe/host/internal/inputgen"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/tensorload"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// build turns a plan into the device and bench requests: it loads or
// generates every bound tensor, decides which inputs take gradients, and
// prepares the dumped gradient for the backward pass. call is the entry's
// forward call after convertCall.
func (w *worker) build(e *dump.Entry, call *dump.Call, plan *framework.Plan) (*unit, error) {
	schema, ok := ops.Lookup(plan.Op)
	if !ok {
		return nil, fmt.Errorf("the framework plugin planned unknown op %q", plan.Op)
	}
	if err := checkArity(schema, len(plan.Inputs)); err != nil {
		return nil, fmt.Errorf("plan for op %s: %w", plan.Op, err)
	}
	u := &unit{call: call}
	cache := map[string]*tensor.Tensor{}
	u.tensors = cache
	raise := w.raiser(e, plan, call)
	devIn := make([]ops.Value, len(plan.Inputs))
	benchIn := make([]ops.Value, len(plan.Inputs))
	reqGrad := make([]bool, len(plan.Inputs))
	u.inputPaths = make([]string, len(plan.Inputs))
	for i, b := range plan.Inputs {
		spec := schema.Inputs[min(i, len(schema.Inputs)-1)]
		switch b.Kind {
		case framework.BindNone:
			if !spec.Optional {
				return nil, fmt.Errorf("op %s input %q may not be None", plan.Op, spec.Name)
			}
			devIn[i], benchIn[i] = ops.None, ops.None
		case framework.BindScalar:
			devIn[i] = ops.Value{Kind: ops.KindScalar, Scalar: b.Scalar}
			benchIn[i] = devIn[i]
		case framework.BindTensor:
			t, err := w.tensorFor(e, call.Tensors, b.Path, cache)
			if err != nil {
				return nil, err
			}
			if plan.HF32Inputs && t.DType == tensor.Float32 {
				t = roundHF32(t)
			}
			u.inputPaths[i] = b.Path
			devIn[i] = ops.T(t)
			benchIn[i] = ops.T(raise(t))
			reqGrad[i] = spec.Differentiable && t.DType.IsFloat() && w.wantsGrad(call, b.Path)
		default:
			return nil, fmt.Errorf("plan input %d has unknown binding kind %d", i, b.Kind)
		}
	}
	seed := inputgen.Seed(w.o.Seed, e.Name, "op")
	u.devReq = &device.ExecRequest{API: e.Name, Op: plan.Op, Attrs: plan.Attrs, Inputs: devIn, RequiresGrad: reqGrad, Seed: seed}
	battrs := plan.Attrs
	if !w.o.Compat {
		battrs = benchAttrs(plan.Attrs)
	}
	u.benchReq = &device.ExecRequest{API: e.Name, Op: plan.Op, Attrs: battrs, Inputs: benchIn, RequiresGrad: reqGrad, Seed: seed}

	u.backwardMessage = plan.BackwardMessage
	if e.Backward == nil || u.backwardMessage != "" {
		return u, nil
	}
	u.backward = true
	u.gradRows = w.gradRowPaths(call)
	// gradient i of the backward entry feeds op output outs[i]
	outs := plan.GradOutputs
	if len(outs) == 0 {
		outs = []int{plan.GradOutput}
	}
	top := 0
	for _, o := range outs {
		if o < 0 {
			return nil, fmt.Errorf("plan: gradient output %d", o)
		}
		top = max(top, o)
	}
	grads := make([]*tensor.Tensor, top+1)
	loaded := false
	for i, o := range outs {
		if i >= len(e.Backward.Inputs) || e.Backward.Inputs[i].Kind != framework.ArgTensor {
			continue // a zero gradient
		}
		g, err := w.tensorFor(e, e.Backward.Tensors, e.Backward.Inputs[i].Path, cache)
		if err != nil {
			return nil, fmt.Errorf("backward: %w", err)
		}
		grads[o], loaded = g, true
		u.grads = append(u.grads, g)
	}
	if !loaded {
		u.backwardMessage = "the dumped backward entry has no gradient tensor, skip backward."
		if len(plan.GradOutputs) == 0 {
			u.backwardMessage = "the dumped backward entry has no gradient tensor as its input 0, skip backward."
		}
		u.backward = false
		return u, nil
	}
	anyGrad := false
	for _, r := range reqGrad {
		anyGrad = anyGrad || r
	}
	if !anyGrad {
		return u, nil // every row will be "Bench output is None"
	}
	u.devReq.Backward, u.devReq.GradOutputs = true, grads
	raiseGrad := w.raiser(e, plan, nil)
	bg := make([]*tensor.Tensor, len(grads))
	for i, g := range grads {
		if g != nil {
			bg[i] = raiseGrad(g)
		}
	}
	u.benchReq.Backward, u.benchReq.GradOutputs = true, bg
	return u, nil
}

func checkArity(s ops.Schema, n int) error {
	variadic := len(s.Inputs) > 0 && s.Inputs[len(s.Inputs)-1].Variadic
	switch {
	case variadic && n < len(s.Inputs)-1:
		return fmt.Errorf("needs at least %d inputs, plan binds %d", len(s.Inputs)-1, n)
	case !variadic && n != len(s.Inputs):
		return fmt.Errorf("needs %d inputs, plan binds %d", len(s.Inputs), n)
	}
	return nil
}

// wantsGrad: PyTorch differentiates the tensors dumped with
// requires_grad=true; MindSpore every top-level positional float tensor.
func (w *worker) wantsGrad(call *dump.Call, path string) bool {
	if w.o.Flavor == report.MindSpore {
		return isTopLevelArg(path)
	}
	d := call.Tensors[path]
	return d != nil && d.RequiresGrad
}

func isTopLevelArg(path string) bool {
	rest, ok := strings.CutPrefix(path, "args.")
	return ok && !strings.Contains(rest, ".")
}

// gradRowPaths lists the tensors whose gradients form the backward rows.
func (w *worker) gradRowPaths(call *dump.Call) []string {
	var out []string
	var walk func(args []framework.Arg, top bool)
	walk = func(args []framework.Arg, top bool) {
		for _, a := range args {
			switch {
			case a.Kind == framework.ArgTensor:
				if w.o.Flavor == report.PyTorch || (top && a.DType.IsFloat()) {
					out = append(out, a.Path)
				}
			case a.Kind == framework.ArgList && w.o.Flavor == report.PyTorch:
				walk(a.Elems, false)
			}
		}
	}
	walk(call.Args, true)
	return out
}

// tensorFor loads (tensor mode) or generates (statistics mode) the tensor
// at path, once per API.
func (w *worker) tensorFor(e *dump.Entry, tensors map[string]*dump.TensorDesc, path string, cache map[string]*tensor.Tensor) (*tensor.Tensor, error) {
	if t, ok := cache[path]; ok {
		return t, nil
	}
	d := tensors[path]
	if d == nil {
		return nil, fmt.Errorf("%s: no tensor descriptor at %s", e.Name, path)
	}
	if !d.DType.Valid() {
		return nil, fmt.Errorf("%s: %s: dtype %s is not supported", e.Name, path, d.DTypeName)
	}
	var t *tensor.Tensor
	var err error
	if w.o.Dump.Task == "tensor" && d.DataName != "" {
		if w.o.Dump.DataDir == "" {
			return nil, fmt.Errorf("%s: %s: data_name %q but the dump has no tensor data directory", e.Name, path, d.DataName)
		}
		t, err = tensorload.Load(w.o.Dump.DataDir, d.DataName, d.DType)
	} else if m := causalMask(e, path, d); m != nil {
		t = m
	} else if w.o.Compat && w.o.Flavor == report.MindSpore {
		t, err = inputgen.GenerateMindSpore(d)
	} else {
		t, err = inputgen.Generate(d, inputgen.Seed(w.o.Seed, e.Name, path))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", e.Name, path, err)
	}
	if !slices.Equal(t.Shape, d.Shape) {
		return nil, fmt.Errorf("%s: %s: data has shape %v but the dump says %v", e.Name, path, t.Shape, d.Shape)
	}
	cache[path] = t
	return t, nil
}

// raiser returns how a tensor is cast for the bench. probe's default raises
// every floating tensor to float64. With Compat, MindSpore benches at the
// dumped dtype, and PyTorch follows msprobe's rule
// (pytorch-precheck §4.7): the fp16/bf16/fp32 dtypes among the call's
// tensors decide one raised dtype — a single dtype maps fp16, bf16 -> fp32
// and fp32 -> fp64, several map to fp32 — conv1d/conv2d keep fp32 tensors
// as they are and type_as raises nothing. call == nil judges a tensor on its
// own (the gradient).
func (w *worker) raiser(e *dump.Entry, plan *framework.Plan, call *dump.Call) func(*tensor.Tensor) *tensor.Tensor {
	if !w.o.Compat {
		return func(t *tensor.Tensor) *tensor.Tensor {
			if t.DType.IsFloat() && t.DType != tensor.Float64 {
				return t.Cast(tensor.Float64)
			}
			return t
		}
	}
	if w.o.Flavor == report.MindSpore {
		// msprobe's MindSpore bench runs PyTorch at the dumped dtype
		// (mindspore-precheck §4.5).
		return func(t *tensor.Tensor) *tensor.Tensor { return t }
	}
	lowFloat := func(d tensor.DType) bool { return d == tensor.Float16 || d == tensor.BFloat16 || d == tensor.Float32 }
	set := map[tensor.DType]bool{}
	if call != nil {
		for _, d := range call.Tensors {
			if lowFloat(d.DType) {
				set[d.DType] = true
			}
		}
	}
	conv := e.API == "conv1d" || e.API == "conv2d"
	return func(t *tensor.Tensor) *tensor.Tensor {
		if !lowFloat(t.DType) || e.API == "type_as" || (conv && t.DType == tensor.Float32) {
			return t
		}
		s := set
		if call == nil {
			s = map[tensor.DType]bool{t.DType: true}
		}
		to := tensor.Float32
		if len(s) == 1 && t.DType == tensor.Float32 {
			to = tensor.Float64
		}
		if t.DType == to {
			return t
		}
		return t.Cast(to)
	}
}

// benchAttrs raises a floating "dtype" attribute to float64.
func benchAttrs(a ops.Attrs) ops.Attrs {
	v, ok := a["dtype"]
	if !ok || v.Kind != ops.AttrString {
		return a
	}
	d, err := tensor.Parse(v.String)
	if err != nil || !d.IsFloat() {
		return a
	}
	out := make(ops.Attrs, len(a))
	for k, x := range a {
		out[k] = x
	}
	out["dtype"] = ops.StringAttr(tensor.Float64.String())
	return out
}

// roundHF32 applies msprobe's HF32 rounding to a float32 tensor:
// p' = (p + 0x800) & 0xFFFFF000 on the bit pattern (pytorch-precheck §4.3).
func roundHF32(t *tensor.Tensor) *tensor.Tensor {
	out := t.Clone()
	for i := 0; i < out.Len(); i++ {
		p := math.Float32bits(float32(out.At(i)))
		out.Set(i, float64(math.Float32frombits((p+0x800)&0xFFFFF000)))
	}
	return out
}

// causalMask is pytorch-precheck §4.6's rule for npu_fusion_attention: with
// sparse_mode 2, 3 or 4 an atten_mask without data is the compressed causal
// mask — true strictly above the diagonal — not random booleans. It returns
// nil when the rule does not apply.
func causalMask(e *dump.Entry, path string, d *dump.TensorDesc) *tensor.Tensor {
	if e.API != "npu_fusion_attention" || path != "kwargs.atten_mask" || d.DType != tensor.Bool || len(d.Shape) < 2 {
		return nil
	}
	mode := int64(0)
	for _, kw := range e.Forward.Kwargs {
		if kw.Name == "sparse_mode" && kw.Arg.Kind == framework.ArgInt {
			mode = kw.Arg.Int
		}
	}
	if mode < 2 || mode > 4 {
		return nil
	}
	t := tensor.New(tensor.Bool, d.Shape)
	rows, cols := d.Shape[len(d.Shape)-2], d.Shape[len(d.Shape)-1]
	for k := 0; k < t.Len(); k++ {
		if i, j := (k/cols)%rows, k%cols; j > i {
			t.Data[k] = 1
		}
	}
	return t
}
