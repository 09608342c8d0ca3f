package run

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/host/internal/tensorload"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// dumpedResult is the device side of --device dumped: the outputs the
// tensor-mode dump saved for the forward call (output i of the API as op
// output i; non-tensor outputs leave a gap), and the gradients its
// backward entry saved (gradient k of the backward's outputs belongs to
// positional argument k of the forward, as msprobe's dumper aligns them).
// Nothing runs on a device.
func (w *worker) dumpedResult(e *dump.Entry, u *unit) (*device.ExecResult, error) {
	res := &device.ExecResult{}
	var outs []framework.Arg
	flattenArgs(e.Forward.Outputs, &outs)
	for i, a := range outs {
		switch a.Kind {
		case framework.ArgBool: // a Python scalar output (Tensor.allclose): a 0-d tensor
			res.Outputs = append(res.Outputs, tensor.FromInt64s(tensor.Bool, []int{}, []int64{int64(b2i64(a.Bool))}))
			continue
		case framework.ArgInt:
			res.Outputs = append(res.Outputs, tensor.FromInt64s(tensor.Int64, []int{}, []int64{a.Int}))
			continue
		case framework.ArgFloat:
			res.Outputs = append(res.Outputs, tensor.FromFloat64s(tensor.Float64, []int{}, []float64{a.Float}))
			continue
		case framework.ArgTensor:
		default:
			res.Outputs = append(res.Outputs, nil)
			continue
		}
		t, err := w.loadDumped(e.Forward.Tensors, a.Path, fmt.Sprintf("output %d", i))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name, err)
		}
		res.Outputs = append(res.Outputs, t)
	}
	if !u.backward || e.Backward == nil {
		return res, nil
	}
	res.InputGrads = make([]*tensor.Tensor, len(u.inputPaths))
	grads := e.Backward.Outputs
	used := make([]bool, len(grads))
	shapeOf := func(k int) []int {
		if k < 0 || k >= len(grads) || grads[k].Kind != framework.ArgTensor || used[k] {
			return nil
		}
		return grads[k].Shape
	}
	for j, path := range u.inputPaths {
		if !u.devReq.RequiresGrad[j] || e.Forward.Tensors[path] == nil {
			continue
		}
		want := e.Forward.Tensors[path].Shape
		// MindSpore's dumper (and PyTorch's for most APIs) writes gradient
		// k for positional argument k; PyTorch's backward hook on a
		// function writes its autograd node's order instead (linear:
		// bias, input, weightᵀ). The same position if its shape fits, else
		// the first unused gradient of the argument's shape; none: the row
		// says the device side has no gradient.
		k := -1
		if rest, ok := strings.CutPrefix(path, "args."); ok && !strings.Contains(rest, ".") {
			if p, err := strconv.Atoi(rest); err == nil && slices.Equal(shapeOf(p), want) {
				k = p
			}
		}
		for c := 0; k < 0 && c < len(grads); c++ {
			if s := shapeOf(c); s != nil && slices.Equal(s, want) {
				k = c
			}
		}
		if k < 0 {
			continue
		}
		used[k] = true
		g, err := w.loadDumped(e.Backward.Tensors, grads[k].Path, "the gradient of "+path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Backward.Key, err)
		}
		res.InputGrads[j] = g
	}
	return res, nil
}

// flattenArgs appends the leaves of a (possibly nested) output list.
func flattenArgs(args []framework.Arg, out *[]framework.Arg) {
	for _, a := range args {
		if a.Kind == framework.ArgList {
			flattenArgs(a.Elems, out)
			continue
		}
		*out = append(*out, a)
	}
}

// loadDumped reads the data file of the dumped tensor at path.
func (w *worker) loadDumped(tensors map[string]*dump.TensorDesc, path, what string) (*tensor.Tensor, error) {
	d := tensors[path]
	switch {
	case d == nil:
		return nil, fmt.Errorf("%s (%s): no tensor descriptor", what, path)
	case !d.DType.Valid():
		return nil, fmt.Errorf("%s (%s): dtype %s is not supported", what, path, d.DTypeName)
	case d.DataName == "":
		return nil, fmt.Errorf("%s (%s): the dump saved no data for it (no data_name)", what, path)
	case w.o.Dump.DataDir == "":
		return nil, fmt.Errorf("%s (%s): data_name %q but the dump has no tensor data directory", what, path, d.DataName)
	}
	t, err := tensorload.Load(w.o.Dump.DataDir, d.DataName, d.DType)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", what, path, err)
	}
	if !slices.Equal(t.Shape, d.Shape) {
		return nil, fmt.Errorf("%s (%s): data %s has shape %v but the dump says %v", what, path, d.DataName, t.Shape, d.Shape)
	}
	return t, nil
}

// dumpedGradShapes lists the shapes of the gradients the backward entry
// saved, for messages.
func dumpedGradShapes(e *dump.Entry) string {
	if e.Backward == nil {
		return "nothing"
	}
	var parts []string
	for _, a := range e.Backward.Outputs {
		if a.Kind == framework.ArgTensor {
			parts = append(parts, tensor.ShapeString(a.Shape))
		} else {
			parts = append(parts, "None")
		}
	}
	return strings.Join(parts, ", ")
}

func b2i64(v bool) int {
	if v {
		return 1
	}
	return 0
}
