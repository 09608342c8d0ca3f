package run

import (
	"fmt"
	"maps"
	"slices"

	"github.com/probe-dev/probe/host/internal/inputgen"
	"github.com/probe-dev/probe/host/internal/tensorload"
	"github.com/probe-dev/probe/internal/bufpool"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/internal/parallel"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// maxOpOutputs bounds the op output index a plan may feed a gradient to,
// so that a plugin's bad plan cannot make the host allocate without limit.
const maxOpOutputs = 1 << 20

// build turns a plan into the device and bench requests: it loads or
// generates every bound tensor (after the plan's descriptor rewrites),
// marks the inputs that take gradients, applies the plan's precision modes
// and bench policy, and prepares the dumped gradients for the backward.
func (w *worker) build(e *dump.Entry, plan *framework.Plan) (_ *unit, err error) {
	schema, ok := ops.Lookup(plan.Op)
	if !ok {
		return nil, fmt.Errorf("the framework plugin planned unknown op %q", plan.Op)
	}
	if err := schema.CheckArity(len(plan.Inputs)); err != nil {
		return nil, fmt.Errorf("plan for op %s: %w", plan.Op, err)
	}
	call, err := rewrite(e.Forward, plan.Rewrites)
	if err != nil {
		return nil, fmt.Errorf("%s: plan: %w", e.Name, err)
	}
	policy := plan.Bench
	if policy == nil {
		policy = framework.RaiseToFloat64(plan.Attrs)
	}
	u := &unit{call: call, tensors: map[string]*tensor.Tensor{}, widened: map[*tensor.Tensor]*tensor.Tensor{}}
	u.devLease, u.benchLease = w.lease(w.device), w.lease(w.bench)
	defer func() {
		if err != nil {
			u.release()
		}
	}()
	// A tensor the bench gets cast is generated in the device's lease and
	// cast into the bench's; one both sides get as it is stays in host
	// memory, since a device may overwrite its inputs while the bench's
	// call is still copying them.
	devAlloc := func(casts map[tensor.DType]tensor.DType, path string) func(int) []byte {
		if d := call.Tensors[path]; d != nil && castsAway(casts, d.DType) && !plan.Precision.HF32 {
			return u.leased(u.devLease)
		}
		return u.alloc
	}
	// A generated tensor the bench gets as float64 is widened while it is
	// drawn, into the bench's lease (not under HF32: the bench gets the
	// rounded values).
	widen := func(casts map[tensor.DType]tensor.DType, d *dump.TensorDesc) func(int) []byte {
		if d != nil && casts[d.DType] == tensor.Float64 && d.DType != tensor.Float64 && !plan.Precision.HF32 {
			return u.leased(u.benchLease)
		}
		return nil
	}
	devIn := make([]ops.Value, len(plan.Inputs))
	benchIn := make([]ops.Value, len(plan.Inputs))
	reqGrad := make([]bool, len(plan.Inputs))
	u.inputPaths = make([]string, len(plan.Inputs))
	for i, b := range plan.Inputs {
		spec := schema.Input(i)
		switch b.Kind {
		case framework.BindNone:
			if !spec.Optional {
				return nil, fmt.Errorf("op %s input %q may not be None", plan.Op, spec.Name)
			}
			devIn[i], benchIn[i] = ops.None, ops.None
		case framework.BindScalar:
			if !spec.ScalarOK {
				return nil, fmt.Errorf("op %s input %q may not be a number", plan.Op, spec.Name)
			}
			devIn[i] = ops.Value{Kind: ops.KindScalar, Scalar: b.Scalar}
			benchIn[i] = devIn[i]
		case framework.BindTensor:
			t, err := w.tensorFor(e, call.Tensors, b.Path, b.Synthetic, plan.Generator, u, devAlloc(policy.Inputs, b.Path), widen(policy.Inputs, call.Tensors[b.Path]))
			if err != nil {
				return nil, err
			}
			u.inputPaths[i] = b.Path
			devIn[i] = ops.T(t)
			reqGrad[i] = b.RequiresGrad && spec.Differentiable && t.DType.IsFloat()
			// The bench sees the inputs as the device computes them.
			if plan.Precision.HF32 && t.DType == tensor.Float32 && policy.Inputs[tensor.Float32] == tensor.Float64 {
				benchIn[i] = ops.T(u.hf32To64(t))
				break
			}
			if plan.Precision.HF32 {
				t = ops.RoundHF32Tensor(t)
			}
			benchIn[i] = ops.T(u.castTo(t, policy.Inputs))
		default:
			return nil, fmt.Errorf("plan input %d has unknown binding kind %d", i, b.Kind)
		}
	}
	seed := inputgen.Seed(w.o.Seed, e.Name, "op")
	u.devReq = &device.ExecRequest{API: e.Name, Op: plan.Op, Attrs: plan.Attrs, Inputs: devIn, RequiresGrad: reqGrad, Seed: seed, Precision: plan.Precision}
	battrs := plan.Attrs
	if len(policy.Attrs) > 0 {
		battrs = maps.Clone(plan.Attrs)
		maps.Copy(battrs, policy.Attrs)
	}
	u.benchReq = &device.ExecRequest{API: e.Name, Op: plan.Op, Attrs: battrs, Inputs: benchIn, RequiresGrad: reqGrad, Seed: seed}

	u.backwardMessage = plan.BackwardMessage
	if e.Backward == nil || u.backwardMessage != "" {
		return u, nil
	}
	u.backward = true
	u.gradRows = plan.GradRows
	// gradient i of the backward entry feeds op output outs[i]
	outs := plan.GradOutputs
	if len(outs) == 0 {
		outs = []int{plan.GradOutput}
	}
	top := 0
	for _, o := range outs {
		if o < 0 || o >= maxOpOutputs {
			return nil, fmt.Errorf("plan: gradient output %d out of range", o)
		}
		top = max(top, o)
	}
	grads := make([]*tensor.Tensor, top+1)
	loaded := false
	for i, o := range outs {
		if i >= len(e.Backward.Inputs) || e.Backward.Inputs[i].Kind != framework.ArgTensor {
			continue // a zero gradient
		}
		gpath := e.Backward.Inputs[i].Path
		alloc := u.alloc
		if d := e.Backward.Tensors[gpath]; d != nil && castsAway(policy.Grads, d.DType) {
			alloc = u.leased(u.devLease)
		}
		g, err := w.tensorFor(e, e.Backward.Tensors, gpath, framework.SynthNone, plan.Generator, u, alloc, widen(policy.Grads, e.Backward.Tensors[gpath]))
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
	if !slices.Contains(reqGrad, true) {
		return u, nil // every row will be "Bench output is None"
	}
	u.devReq.Backward, u.devReq.GradOutputs = true, grads
	bg := make([]*tensor.Tensor, len(grads))
	for i, g := range grads {
		if g != nil {
			bg[i] = u.castTo(g, policy.Grads)
		}
	}
	u.benchReq.Backward, u.benchReq.GradOutputs = true, bg
	return u, nil
}

// castsAway reports whether casts maps dtype d to another dtype.
func castsAway(casts map[tensor.DType]tensor.DType, d tensor.DType) bool {
	to, ok := casts[d]
	return ok && to != d
}

// castTo casts t to the dtype casts maps its dtype to (t itself when the
// dtype is not listed or maps to itself), into the bench's lease or a
// buffer of the unit's.
func (u *unit) castTo(t *tensor.Tensor, casts map[tensor.DType]tensor.DType) *tensor.Tensor {
	if castsAway(casts, t.DType) {
		to := casts[t.DType]
		if wt := u.widened[t]; wt != nil && to == tensor.Float64 {
			return wt
		}
		out := &tensor.Tensor{DType: to, Shape: append([]int(nil), t.Shape...), Data: u.leased(u.benchLease)(t.Len() * to.Size())}
		t.CastInto(out)
		return out
	}
	return t
}

// hf32To64 is castTo(ops.RoundHF32Tensor(t)) of a float32 tensor to
// float64 in one pass, without the rounded copy.
func (u *unit) hf32To64(t *tensor.Tensor) *tensor.Tensor {
	out := &tensor.Tensor{DType: tensor.Float64, Shape: append([]int(nil), t.Shape...), Data: u.leased(u.benchLease)(t.Len() * 8)}
	v, ok := out.Float64View()
	if !ok {
		out.WriteFloat64s(ops.RoundHF32Tensor(t).Float64s())
		return out
	}
	parallel.Chunks(len(v), hf32Chunk, func(from, to int) error {
		ops.HF32Float64s(v[from:to], &tensor.Tensor{DType: tensor.Float32, Data: t.Data[from*4 : to*4]})
		return nil
	})
	return out
}

// hf32Chunk is the elements of one goroutine's share of hf32To64.
const hf32Chunk = 1 << 18

// hostBuffers keeps the large buffers of generated and cast inputs from
// one API to the next (bufpool's reason: fresh pages cost more than the
// generation itself).
var hostBuffers = bufpool.New(1 << 30)

// hostBufferMin is the smallest buffer taken from hostBuffers.
const hostBufferMin = 1 << 20

// alloc returns n bytes (not zeroed) that the unit gives back when it is
// released.
func (u *unit) alloc(n int) []byte {
	if n < hostBufferMin {
		return make([]byte, n)
	}
	b := hostBuffers.Get(n)
	u.buffers = append(u.buffers, b)
	return b
}

// leased returns an allocator of bytes from lease (shared memory of a
// plugin connection: see transport.Lease) for large buffers, falling back
// to alloc.
func (u *unit) leased(lease *transport.Lease) func(int) []byte {
	if lease == nil {
		return u.alloc
	}
	return func(n int) []byte {
		if n >= hostBufferMin {
			if b := lease.Alloc(n); b != nil {
				return b
			}
		}
		return u.alloc(n)
	}
}

// lease takes shared memory of role r's plugin for the unit's inputs, or
// returns nil: when the plugin has none to lend, and when the inputs are
// needed after the calls (--save-error-data writes them, and a device may
// overwrite its inputs).
func (w *worker) lease(r *role) *transport.Lease {
	if w.o.ErrorData != nil || r == nil || r.h == nil {
		return nil
	}
	if l, ok := r.h.Device().(leaser); ok {
		return l.Lease()
	}
	return nil
}

// release gives the unit's buffers and leases back; its tensors and the
// results of its calls must not be used afterwards.
func (u *unit) release() {
	for _, b := range u.buffers {
		hostBuffers.Put(b)
	}
	u.buffers = nil
	u.devLease.Release()
	u.benchLease.Release()
	u.devLease, u.benchLease = nil, nil
}

// rewrite returns the call with the plan's descriptor rewrites applied to
// copies of the descriptors (the parsed dump is never modified), or the
// call itself when there are none.
func rewrite(call *dump.Call, rewrites []framework.TensorRewrite) (*dump.Call, error) {
	if len(rewrites) == 0 {
		return call, nil
	}
	out := *call
	out.Tensors = maps.Clone(call.Tensors)
	for _, r := range rewrites {
		old := out.Tensors[r.Path]
		if old == nil {
			return nil, fmt.Errorf("rewrite of %s: the call has no tensor there", r.Path)
		}
		d := *old
		if r.DType != tensor.Invalid {
			if !r.DType.Valid() {
				return nil, fmt.Errorf("rewrite of %s: invalid dtype %d", r.Path, r.DType)
			}
			d.DType, d.DTypeName = r.DType, r.DType.TorchName()
		}
		if r.HasMin {
			if d.HasMin && d.Min <= r.MinAtLeast {
				d.Min, d.MinRepr, d.MinBool = r.MinAtLeast, dump.FormatPyFloat(r.MinAtLeast), nil
			}
			if d.MinExceptInfNan != nil && *d.MinExceptInfNan < r.MinAtLeast {
				v := r.MinAtLeast
				d.MinExceptInfNan = &v
			}
		}
		out.Tensors[r.Path] = &d
	}
	return &out, nil
}

// tensorFor loads (tensor mode) or makes (statistics mode: generated from
// its statistics, or the plan's synthetic tensor) the tensor at path, once
// per API, in memory from alloc. With widen set, a generated tensor's
// float64 copy is made in memory from widen as it is drawn and recorded in
// u.widened.
func (w *worker) tensorFor(e *dump.Entry, tensors map[string]*dump.TensorDesc, path string, syn framework.Synthetic, gen framework.InputGenerator, u *unit, alloc, widen func(int) []byte) (*tensor.Tensor, error) {
	if t, ok := u.tensors[path]; ok {
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
	switch {
	case w.o.Dump.Task == "tensor" && d.DataName != "":
		if w.o.Dump.DataDir == "" {
			return nil, fmt.Errorf("%s: %s: data_name %q but the dump has no tensor data directory", e.Name, path, d.DataName)
		}
		t, err = tensorload.Load(w.o.Dump.DataDir, d.DataName, d.DType)
	case syn == framework.SynthCausalMask:
		t, err = causalMask(d)
	case gen == framework.GenMsprobeMindSpore:
		t, err = inputgen.GenerateMindSpore(d)
	default:
		var widened *tensor.Tensor
		t, widened, err = inputgen.GenerateWidened(d, inputgen.Seed(w.o.Seed, e.Name, path), alloc, widen)
		if widened != nil {
			u.widened[t] = widened
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", e.Name, path, err)
	}
	if !slices.Equal(t.Shape, d.Shape) {
		return nil, fmt.Errorf("%s: %s: data has shape %v but the dump says %v", e.Name, path, t.Shape, d.Shape)
	}
	u.tensors[path] = t
	return t, nil
}

// causalMask is framework.SynthCausalMask: a bool tensor of the
// descriptor's shape, true strictly above the diagonal of its last two
// dimensions.
func causalMask(d *dump.TensorDesc) (*tensor.Tensor, error) {
	if d.DType != tensor.Bool || len(d.Shape) < 2 {
		return nil, fmt.Errorf("a causal mask must be a bool tensor of at least 2 dimensions, the dump has %s%v", d.DType, d.Shape)
	}
	n := int64(1)
	for _, s := range d.Shape {
		if s < 0 || (s != 0 && n > inputgen.MaxTensorBytes/int64(s)) {
			return nil, fmt.Errorf("causal mask of shape %v is too large to make (limit %d bytes)", d.Shape, inputgen.MaxTensorBytes)
		}
		n *= int64(s)
	}
	t := tensor.New(tensor.Bool, d.Shape)
	rows, cols := d.Shape[len(d.Shape)-2], d.Shape[len(d.Shape)-1]
	if rows == 0 || cols == 0 {
		return t, nil
	}
	for k := range t.Data {
		if i, j := (k/cols)%rows, k%cols; j > i {
			t.Data[k] = 1
		}
	}
	return t, nil
}
