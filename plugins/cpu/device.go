// Package cpu is probe's CPU device plugin. It runs every canonical op
// (sdk/ops) forward and backward in float64 and serves two roles:
//
//   - Bench: the high-precision reference. Results keep their natural
//     PyTorch result dtype; with the float64 inputs the host sends for the
//     bench, float results are float64.
//   - Emulated: a fake "device under test" that behaves like PyTorch's CPU
//     kernels at the dumped dtype: every float result is rounded through
//     float32 (PyTorch's fp32 internal math for fp16/bf16) to its dtype,
//     integers are exact. Planted defects (see Defect) make it a bad device
//     on purpose so that tests can show the precision standard catches it.
//
// Kernels live in one file per op family and register themselves with
// register (kernel.go).
package cpu

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/probe-dev/probe/internal/floatconv"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Version is the CPU plugin's version, reported by Describe.
const Version = "0.1.0"

// Mode selects what the CPU device is for.
type Mode int

// Modes.
const (
	// Bench computes the float64 reference.
	Bench Mode = iota
	// Emulated rounds results the way PyTorch's CPU kernels do at the
	// inputs' dtype, and applies planted defects.
	Emulated
)

// String returns "bench" or "emulated".
func (m Mode) String() string {
	switch m {
	case Bench:
		return "bench"
	case Emulated:
		return "emulated"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode reads "bench" or "emulated".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "bench":
		return Bench, nil
	case "emulated", "emulate", "device":
		return Emulated, nil
	}
	return 0, fmt.Errorf("cpu: unknown mode %q (want bench or emulated)", s)
}

// Options configure a CPU device.
type Options struct {
	Mode Mode
	// Defects are applied in Emulated mode only.
	Defects []Defect
	// Fault, when set, makes the plugin process die or hang on one API
	// (see ParseFault); it exists to test the host's crash handling.
	Fault *Fault

	// alloc is the request's Alloc during Execute: results written
	// straight into the memory they travel in.
	alloc func(n int) []byte
}

// outputBytes returns n bytes for the Data of a result tensor: lent by
// the request (shared memory, sent without a copy) where it can, else from
// the call's arena.
func (o Options) outputBytes(n int) []byte {
	if o.alloc != nil {
		if b := o.alloc(n); b != nil {
			return b[:n:n]
		}
	}
	return bytesFor(n)
}

// New returns a CPU device. Configure may later override the mode and
// defects from the plugin's probe.toml table: key "mode" ("bench" or
// "emulated") and key "defect" or "defects" (a list of ParseDefect strings
// separated by ';' or ','; it replaces the defects given here).
func New(opts Options) device.Device {
	return &cpuDevice{opts: Options{Mode: opts.Mode, Defects: append([]Defect(nil), opts.Defects...), Fault: opts.Fault}}
}

// NewConfigurable returns a CPU device in Bench mode with no defects, for
// plugin serving: its Configure options choose the mode and defects.
func NewConfigurable() device.Device { return New(Options{}) }

type cpuDevice struct {
	mu   sync.RWMutex
	opts Options
	// releases is set once the caller has released a result
	// (device.Releaser, as the plugin server does): from then on large
	// buffers come from the pool (arena.go). A caller that never releases
	// gets plain allocations.
	releases atomic.Bool
}

// Release gives the buffers res shares back to the pool (device.Releaser).
func (d *cpuDevice) Release(res *device.ExecResult) {
	d.releases.Store(true)
	pool.release(res)
}

// Describe lists every registered kernel, its dtypes and whether it has a
// backward.
func (d *cpuDevice) Describe(ctx context.Context) (*device.Info, error) {
	d.mu.RLock()
	mode := d.opts.Mode
	d.mu.RUnlock()
	names := make([]string, 0, len(kernels))
	for n := range kernels {
		names = append(names, n)
	}
	sort.Strings(names)
	info := &device.Info{
		Name:    "cpu",
		Version: Version,
		Description: "CPU device, " + mode.String() + " mode: canonical ops in float64 " +
			map[Mode]string{Bench: "(high-precision reference)", Emulated: "rounded to the inputs' dtype like PyTorch CPU kernels"}[mode],
	}
	for _, n := range names {
		dts := opDTypes[n]
		if dts == nil {
			dts = floatDTypes
		}
		info.Ops = append(info.Ops, device.OpSupport{Op: n, DTypes: append([]tensor.DType(nil), dts...), Backward: kernels[n].backward != nil})
	}
	return info, nil
}

// Configure reads the optional "mode" and "defect"/"defects" options (see
// New).
func (d *cpuDevice) Configure(ctx context.Context, cfg device.Config) error {
	opts := d.options()
	for k := range cfg.Options {
		if !knownOptions[k] {
			return fmt.Errorf("cpu: unknown option %q (known: mode, defect, defects, fault)", k)
		}
	}
	if s, ok := cfg.Options["fault"]; ok {
		f, err := ParseFault(s)
		if err != nil {
			return err
		}
		opts.Fault = f
	}
	if s, ok := cfg.Options["mode"]; ok {
		m, err := ParseMode(s)
		if err != nil {
			return err
		}
		opts.Mode = m
	}
	var specs []string
	for _, key := range []string{"defect", "defects"} {
		if s, ok := cfg.Options[key]; ok {
			specs = append(specs, s)
		}
	}
	if specs != nil {
		dfs, err := ParseDefects(strings.Join(specs, ";"))
		if err != nil {
			return err
		}
		opts.Defects = dfs
	}
	d.mu.Lock()
	d.opts = opts
	d.mu.Unlock()
	return nil
}

func (d *cpuDevice) options() Options {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return Options{Mode: d.opts.Mode, Defects: append([]Defect(nil), d.opts.Defects...), Fault: d.opts.Fault}
}

// Execute runs one op forward and, when asked, backward. Kernel panics are
// turned into errors.
func (d *cpuDevice) Execute(ctx context.Context, req *device.ExecRequest) (res *device.ExecResult, err error) {
	if req == nil {
		return nil, errors.New("cpu: nil request")
	}
	defer func() {
		if r := recover(); r != nil {
			// A kernel bug: a device failure, never a SKIP.
			res, err = nil, fmt.Errorf("%s: internal error in CPU kernel: %v", req.Op, r)
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts := d.options()
	opts.alloc = req.Alloc
	if err := opts.Fault.trigger(req); err != nil {
		return nil, err
	}
	if !d.releases.Load() {
		execMu.RLock()
		defer execMu.RUnlock()
	} else {
		execMu.Lock()
		a := &arena{}
		startArena(a)
		defer func() {
			cur = nil
			if err != nil {
				a.finish(nil)
			} else {
				a.finish(res)
			}
			execMu.Unlock()
		}()
	}
	res, err = execute(opts, req)
	if err != nil {
		var unsup *device.ErrUnsupported
		if errors.As(err, &unsup) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", req.Op, err)
	}
	return res, nil
}

func execute(opts Options, req *device.ExecRequest) (*device.ExecResult, error) {
	sch, ok := ops.Lookup(req.Op)
	if !ok {
		return nil, &device.ErrUnsupported{Op: req.Op, Reason: "unknown canonical op"}
	}
	k, ok := kernels[req.Op]
	if !ok {
		return nil, &device.ErrUnsupported{Op: req.Op, Reason: "the CPU plugin has no kernel for it"}
	}
	if res, ok := fastEmbedding(opts, req); ok {
		return res, nil
	}
	if res, ok := fastLinear(opts, req); ok {
		return res, nil
	}
	if res, ok := fastExecute(opts, req); ok {
		return res, nil
	}
	c, specs, err := buildCall(req)
	if err != nil {
		return nil, err
	}
	c.emulated = opts.Mode == Emulated
	if req.Op == "echo" {
		// Transport measurement: hand back the very bytes (int64 values
		// beyond 2^53 included), untouched by rounding or defects.
		res := &device.ExecResult{Outputs: []*tensor.Tensor{req.Inputs[0].Tensor.Clone()}}
		if req.Backward {
			res.InputGrads = make([]*tensor.Tensor, len(req.Inputs))
		}
		return res, nil
	}
	outs, err := k.forward(c)
	if err != nil {
		return nil, invalid(err)
	}
	if sch.Outputs >= 0 && len(outs) != sch.Outputs {
		return nil, fmt.Errorf("kernel returned %d outputs, schema has %d", len(outs), sch.Outputs)
	}
	unalias(c, outs)
	if sch.HasAttr("inplace") && c.attrs.Bool("inplace", false) {
		if err := applyInplace(c, outs); err != nil {
			return nil, err
		}
	}
	res := &device.ExecResult{Outputs: make([]*tensor.Tensor, len(outs))}
	for i, o := range outs {
		if o == nil {
			return nil, fmt.Errorf("kernel returned no output %d", i)
		}
		if len(o.data) != tensor.NumElements(o.shape) {
			return nil, fmt.Errorf("kernel output %d has %d values for shape %v", i, len(o.data), o.shape)
		}
		if !req.Backward {
			// nothing reads the output again: round as it is stored
			if t, ok := storeRounded(opts, req.Op, o.dtype, o.shape, o.data); ok {
				res.Outputs[i] = t
				continue
			}
		}
		roundResult(opts.Mode, o.dtype, o.data)
		vals := o.data
		if opts.Mode == Emulated {
			vals = applyDefects(opts.Defects, req.Op, o.dtype, vals)
		}
		res.Outputs[i] = toTensor(o.dtype, o.shape, vals)
	}
	if !req.Backward {
		return res, nil
	}
	grads, err := runBackward(opts, k, c, specs, outs, req.GradOutputs)
	if err != nil {
		return nil, invalid(err)
	}
	res.InputGrads = grads[:len(req.Inputs)]
	return res, nil
}

// invalid classifies an error of a kernel or of the checks around it: the
// CPU kernels compute in float64 and fail only where PyTorch rejects the
// call (with PyTorch's message), so an error of no other kind is an invalid
// argument. Bugs panic, and Execute reports a panic as a device failure.
func invalid(err error) error {
	if device.KindOf(err) != device.Failure {
		return err
	}
	return &ops.ArgumentError{Msg: err.Error()}
}

// unalias copies any output whose values share memory with an input or an
// earlier output, so that rounding an output in place never changes what
// backward reads.
func unalias(c *call, outs []*array) {
	seen := map[*float64]bool{}
	for _, a := range c.in {
		if a != nil && len(a.data) > 0 {
			seen[&a.data[0]] = true
		}
	}
	for i, o := range outs {
		if o == nil || len(o.data) == 0 {
			continue
		}
		if seen[&o.data[0]] {
			outs[i] = o.clone()
			o = outs[i]
		}
		seen[&o.data[0]] = true
	}
}

// buildCall checks the request against the op schema (ops.Bind) and
// converts its inputs to arrays; it also returns the schema entry of every
// input. With Precision.HF32, float32 tensor inputs are rounded to HF32
// (the CPU has no HF32 mode of its own).
func buildCall(req *device.ExecRequest) (*call, []ops.InputSpec, error) {
	b, err := ops.Bind(req.Op, req.Attrs, req.Inputs)
	if err != nil {
		return nil, nil, err
	}
	if n := len(req.RequiresGrad); n != 0 && n != len(req.Inputs) {
		return nil, nil, ops.Errorf("%d requires_grad flags for %d inputs", n, len(req.Inputs))
	}
	c := &call{op: req.Op, attrs: b.Attrs, in: make([]*array, len(b.Inputs)), requiresGrad: make([]bool, len(b.Inputs)), seed: req.Seed}
	for i, v := range b.Inputs {
		switch v.Kind {
		case ops.KindScalar:
			c.in[i] = scalarArray(v.Scalar)
		case ops.KindTensor:
			t := v.Tensor
			if err := t.Validate(); err != nil {
				return nil, nil, ops.Errorf("input %s: %v", b.Specs[i].Name, err)
			}
			var data []float64
			if req.Precision.HF32 && t.DType == tensor.Float32 {
				data = hf32Float64s(t)
			} else {
				data = float64s(t)
			}
			c.in[i] = &array{shape: append([]int{}, t.Shape...), data: data, dtype: t.DType}
			c.requiresGrad[i] = b.Specs[i].Differentiable && t.DType.IsFloat() && i < len(req.RequiresGrad) && req.RequiresGrad[i]
		}
	}
	return c, b.Specs, nil
}

// float64s returns t's values as float64: a float64 tensor's own memory
// (kernels never write into their inputs, and Execute's caller keeps
// ownership: see device.Device), any other a converted copy.
func float64s(t *tensor.Tensor) []float64 {
	if v, ok := t.Float64View(); ok {
		return v
	}
	v := float64sFor(t.Len())
	forChunks(len(v), func(from, to int) error {
		sz := t.DType.Size()
		part := &tensor.Tensor{DType: t.DType, Data: t.Data[from*sz : to*sz]}
		part.ReadFloat64s(v[from:to])
		return nil
	})
	return v
}

// hf32Float64s is float64s of a float32 tensor rounded to HF32
// (ops.RoundHF32Tensor), without the rounded copy.
func hf32Float64s(t *tensor.Tensor) []float64 {
	v := float64sFor(t.Len())
	forChunks(len(v), func(from, to int) error {
		ops.HF32Float64s(v[from:to], &tensor.Tensor{DType: t.DType, Data: t.Data[from*4 : to*4]})
		return nil
	})
	return v
}

// scalarArray wraps a Python number as a 0-d "wrapped number" array. Its
// dtype field holds the value exactly; promotion uses operandDType.
func scalarArray(s ops.Scalar) *array {
	a := &array{data: []float64{s.Float()}, scalar: true, scalarKind: s.Kind}
	switch s.Kind {
	case ops.ScalarInt:
		a.dtype = tensor.Int64
	case ops.ScalarBool:
		a.dtype = tensor.Bool
		if s.F != 0 {
			a.data[0] = 1
		}
	default:
		a.dtype = tensor.Float64
	}
	return a
}

// applyInplace makes output 0 what PyTorch writes into input 0 for the
// in-place variant (add_, relu_, ...): checked by ops.CheckInplace, then
// rounded to input 0's dtype. ops.Bind made sure input 0 is a tensor.
func applyInplace(c *call, outs []*array) error {
	self := c.in[0]
	o := outs[0]
	if err := ops.CheckInplace(c.op, self.shape, self.dtype, o.shape, o.dtype); err != nil {
		return err
	}
	castTo(o, self.dtype)
	return nil
}

// roundResult rounds values to dtype dt in place. In Emulated mode fp16 and
// bf16 results are rounded to float32 first (PyTorch computes them in
// float32).
func roundResult(mode Mode, dt tensor.DType, v []float64) {
	if mode == Emulated && (dt == tensor.Float16 || dt == tensor.BFloat16) {
		roundSlice(tensor.Float32, v)
	}
	roundSlice(dt, v)
}

// storeRounded is roundResult followed by toTensor in one pass that leaves
// v alone, for the float dtypes below float64 when no defect applies to op
// (ok false otherwise). Emulated float16 and bfloat16 results round through
// float32 first, as roundResult does.
func storeRounded(opts Options, op string, dt tensor.DType, shape []int, v []float64) (*tensor.Tensor, bool) {
	if dt != tensor.Float32 && dt != tensor.Float16 && dt != tensor.BFloat16 {
		return nil, false
	}
	if opts.Mode == Emulated {
		for _, df := range opts.Defects {
			if df.Op == op {
				return nil, false
			}
		}
	}
	t := &tensor.Tensor{DType: dt, Shape: append([]int(nil), shape...), Data: opts.outputBytes(len(v) * dt.Size())}
	viaF32 := opts.Mode == Emulated
	forChunks(len(v), func(from, to int) error {
		switch dt {
		case tensor.Float32:
			(&tensor.Tensor{DType: dt, Data: t.Data[from*4 : to*4]}).WriteFloat64s(v[from:to])
		case tensor.Float16:
			b := t.Data[from*2 : to*2]
			for i, x := range v[from:to] {
				if viaF32 {
					x = float64(float32(x))
				}
				h := tensor.Float16Bits(x)
				if x != x {
					h = 0x7e00 // as rounding through Float16Value does
				}
				binary.LittleEndian.PutUint16(b[i*2:], h)
			}
		default:
			b := t.Data[from*2 : to*2]
			if len(b) > 0 && uintptr(unsafe.Pointer(&b[0]))%2 == 0 && littleEndianHost {
				h := unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), to-from)
				if !viaF32 {
					floatconv.ToBFloat16s(h, v[from:to])
					break
				}
				var buf [512]float64 // rounded through float32 first
				for off := 0; off < len(h); off += len(buf) {
					r := buf[:min(len(buf), len(h)-off)]
					for i, x := range v[from+off : from+off+len(r)] {
						r[i] = float64(float32(x))
					}
					floatconv.ToBFloat16s(h[off:off+len(r)], r)
				}
				break
			}
			for i, x := range v[from:to] {
				if viaF32 {
					x = float64(float32(x))
				}
				binary.LittleEndian.PutUint16(b[i*2:], tensor.BFloat16Bits(x))
			}
		}
		return nil
	})
	return t, true
}

// littleEndianHost says whether a tensor's little-endian bytes can be
// viewed in place as the machine's numbers.
var littleEndianHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// toTensor builds a tensor of dtype dt from already rounded values; a
// float64 tensor shares v's memory.
func toTensor(dt tensor.DType, shape []int, v []float64) *tensor.Tensor {
	if dt == tensor.Float64 {
		return tensor.WrapFloat64s(shape, v)
	}
	t := &tensor.Tensor{DType: dt, Shape: append([]int(nil), shape...), Data: bytesFor(len(v) * dt.Size())}
	if dt == tensor.Int64 {
		for i, x := range v {
			if math.IsNaN(x) {
				x = 0
			}
			t.SetInt64(i, int64(math.Max(math.MinInt64, math.Min(x, 0x1p63-1024))))
		}
		return t
	}
	forChunks(len(v), func(from, to int) error {
		sz := dt.Size()
		part := &tensor.Tensor{DType: dt, Data: t.Data[from*sz : to*sz]}
		part.WriteFloat64s(v[from:to])
		return nil
	})
	return t
}

// runBackward converts the gradients of the outputs, runs the kernel's
// backward and returns the input gradients in the inputs' dtypes.
func runBackward(opts Options, k *kernel, c *call, specs []ops.InputSpec, outs []*array, gradOut []*tensor.Tensor) ([]*tensor.Tensor, error) {
	grads := make([]*tensor.Tensor, len(c.in))
	need := false
	for _, r := range c.requiresGrad {
		need = need || r
	}
	if !need {
		return grads, nil
	}
	if k.backward == nil {
		return nil, &device.ErrUnsupported{Op: c.op, Reason: "the CPU plugin has no backward for it"}
	}
	if len(gradOut) > len(outs) {
		return nil, fmt.Errorf("%d output gradients for %d outputs", len(gradOut), len(outs))
	}
	gos := make([]*array, len(outs))
	for i, o := range outs {
		var g *tensor.Tensor
		if i < len(gradOut) {
			g = gradOut[i]
		}
		if g == nil {
			if o.dtype.IsFloat() {
				gos[i] = newArray(tensor.Float64, o.shape)
			}
			continue
		}
		if err := g.Validate(); err != nil {
			return nil, fmt.Errorf("gradient of output %d: %v", i, err)
		}
		if !slices.Equal(g.Shape, o.shape) {
			// autograd's error: the framework rejects the call
			return nil, ops.Errorf("Mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape of %s.", i, lossSize(g.Shape), i, lossSize(o.shape))
		}
		if !o.dtype.IsFloat() {
			continue // integer outputs (indices) take no gradient
		}
		gos[i] = &array{shape: append([]int{}, g.Shape...), data: float64s(g), dtype: g.DType}
	}
	ig, err := k.backward(c, outs, gos)
	if err != nil {
		return nil, err
	}
	if len(ig) != len(c.in) {
		return nil, fmt.Errorf("backward returned %d gradients for %d inputs", len(ig), len(c.in))
	}
	for i, g := range ig {
		if g == nil || !c.requiresGrad[i] {
			continue
		}
		in := c.in[i]
		if len(g.data) != len(in.data) {
			return nil, fmt.Errorf("gradient of input %s has %d values, the input has %d", specs[i].Name, len(g.data), len(in.data))
		}
		if t, ok := storeRounded(opts, c.op, in.dtype, in.shape, g.data); ok {
			grads[i] = t
			continue
		}
		vals := g.data
		if in.dtype != tensor.Float64 || opts.Mode == Emulated {
			// Rounding and defects work in place; a gradient may share
			// memory with another or with an output gradient.
			vals = float64sFor(len(g.data))
			copy(vals, g.data)
		}
		roundResult(opts.Mode, in.dtype, vals)
		if opts.Mode == Emulated {
			vals = applyDefects(opts.Defects, c.op, in.dtype, vals)
		}
		grads[i] = toTensor(in.dtype, in.shape, vals)
	}
	return grads, nil
}
