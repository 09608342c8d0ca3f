// Command probe-device-minimal is a minimal third-party device plugin for
// probe: add, mul, neg and relu, forward and backward, at float32 and
// float64. sdk/ops checks each call, fills attribute defaults, promotes
// dtypes and broadcasts shapes the way PyTorch does; sdk/plugin serves the
// device over gRPC; the device only computes (kernels.go).
package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/plugin"
	"github.com/probe-dev/probe/sdk/tensor"
)

func main() {
	if err := plugin.ServeDevice(New()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// minimal has no state, so concurrent calls need no locking.
type minimal struct{}

// New returns the device.
func New() device.Device { return minimal{} }

// Describe declares exactly the op × dtype pairs Execute runs, backward
// included. A call's dtype is the promoted dtype of its tensor inputs
// (device.CallDType); the host reports other calls as SKIP without asking.
func (minimal) Describe(context.Context) (*device.Info, error) {
	info := &device.Info{Name: "minimal", Version: "0.1.0", Description: "example: add, mul, neg, relu like PyTorch's CPU kernels"}
	for _, op := range opNames {
		info.Ops = append(info.Ops, device.OpSupport{Op: op, DTypes: []tensor.DType{tensor.Float32, tensor.Float64}, Backward: true})
	}
	return info, nil
}

// Configure gets the device id and the plugin's options from probe.toml.
// This device takes no options, so any option is a mistake.
func (minimal) Configure(_ context.Context, cfg device.Config) error {
	if len(cfg.Options) > 0 {
		return fmt.Errorf("minimal: unknown option(s) %v: this device takes no options", slices.Sorted(maps.Keys(cfg.Options)))
	}
	return nil
}

// Execute runs one op forward and, when asked, its backward.
func (minimal) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	if !slices.Contains(opNames, req.Op) {
		return nil, &device.ErrUnsupported{Op: req.Op, Reason: "the minimal device has no kernel for it"}
	}
	// Arity, input kinds and attribute kinds; b.Attrs has the defaults
	// filled in. Errors are *ops.ArgumentError, as all PyTorch refusals.
	b, err := ops.Bind(req.Op, req.Attrs, req.Inputs)
	if err != nil {
		return nil, err
	}
	if cd := device.CallDType(b.Inputs); cd != tensor.Float32 && cd != tensor.Float64 {
		return nil, &device.ErrUnsupported{Op: req.Op, DType: cd, Reason: "the minimal device runs float32 and float64 only"}
	}
	if b.Attrs["alpha"].Kind == ops.AttrBool {
		return nil, ops.Errorf("Boolean alpha only supported for Boolean results.")
	}
	// PyTorch's result dtype: every operand is cast to it and the kernel
	// computes in it. Python numbers count, but never widen a float tensor.
	dt := ops.ResultTypeOf(b.Inputs...)
	x, shapes := make([][]float64, len(b.Inputs)), make([][]int, len(b.Inputs))
	for i, v := range b.Inputs {
		x[i], shapes[i] = operand(v, dt, req.Precision.HF32)
	}
	shape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil, err
	}
	// idx[i][j] is the element of operand i that output element j reads.
	idx := make([][]int, len(x))
	for i := range x {
		idx[i] = ops.BroadcastIndex(shapes[i], shape)
	}
	alpha := round(dt, b.Attrs.Float("alpha", 1)) // add's multiplier, cast to dt as PyTorch does
	y := make([]float64, tensor.NumElements(shape))
	for j := range y {
		y[j] = forward(req.Op, dt, alpha, elem(x, idx, j, 0), elem(x, idx, j, 1))
	}
	outDT := dt
	if b.Inplace() { // add_, relu_, ...: the result is written into self (Bind checked it is a tensor)
		self := b.Inputs[0].Tensor
		if err := ops.CheckInplace(req.Op, self.Shape, self.DType, shape, dt); err != nil {
			return nil, err
		}
		outDT = self.DType
	}
	res := &device.ExecResult{Outputs: []*tensor.Tensor{tensor.FromFloat64s(outDT, shape, y)}}
	if !req.Backward {
		return res, nil
	}
	g := make([]float64, len(y)) // the output's gradient; nil means zero
	if len(req.GradOutputs) > 0 && req.GradOutputs[0] != nil {
		if gs := req.GradOutputs[0].Shape; !slices.Equal(gs, shape) {
			return nil, fmt.Errorf("minimal: output gradient of shape %v for an output of shape %v", gs, shape)
		}
		g, _ = operand(ops.T(req.GradOutputs[0]), dt, false)
	}
	res.InputGrads = make([]*tensor.Tensor, len(req.Inputs))
	for i, v := range b.Inputs {
		if v.Kind != ops.KindTensor || !v.Tensor.DType.IsFloat() || i >= len(req.RequiresGrad) || !req.RequiresGrad[i] {
			continue // no gradient (nil) for numbers, integer tensors and inputs that do not require one
		}
		// Reduced over the dimensions the input was broadcast along: summed
		// in float64, rounded once (PyTorch sums in dt, in its own order).
		sum := make([]float64, len(x[i]))
		for j := range g {
			d := backward(req.Op, dt, alpha, elem(x, idx, j, 0), elem(x, idx, j, 1), y[j], g[j])
			sum[at(idx[i], j)] += d[i]
		}
		for n := range sum {
			sum[n] = round(dt, sum[n])
		}
		res.InputGrads[i] = tensor.FromFloat64s(v.Tensor.DType, v.Tensor.Shape, sum) // in the input's dtype
	}
	return res, nil
}
