package run

import (
	"strings"

	"github.com/probe-dev/probe/host/internal/dump"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// convertCall applies run_ut's per-API preprocessing (pytorch-precheck
// §4.1) and returns the call to plan and build; the parsed dump is never
// modified (changed descriptors and argument trees are copies), and the
// call itself is returned when nothing applies.
//
//   - cross_entropy: tensor inputs recorded as int32 are generated / loaded
//     as int64 (int32_to_int64), and when there are at least two positional
//     arguments and the second (the target) is a tensor whose Min is <= 0,
//     its Min becomes 0 so that no negative class index is generated.
//   - histc: tensor inputs recorded as int64 become float32
//     (int64_to_fp32), and an int8/int32/int64 first positional argument
//     becomes float32.
//
// Only the inputs (args and kwargs) are converted, not the outputs.
func convertCall(api string, call *dump.Call) *dump.Call {
	if call == nil || (api != "cross_entropy" && api != "histc") {
		return call
	}
	out := *call
	out.Tensors = make(map[string]*dump.TensorDesc, len(call.Tensors))
	for p, d := range call.Tensors {
		out.Tensors[p] = d
	}
	changed := false
	edit := func(path string) *dump.TensorDesc {
		d := out.Tensors[path]
		if d == nil {
			return nil
		}
		if d == call.Tensors[path] {
			c := *d
			d = &c
			out.Tensors[path] = d
		}
		changed = true
		return d
	}
	isInput := func(p string) bool { return strings.HasPrefix(p, "args.") || strings.HasPrefix(p, "kwargs.") }

	// Descriptor rewrites.
	if len(call.Args) >= 2 && api == "cross_entropy" {
		if d := call.Tensors[call.Args[1].Path]; call.Args[1].Kind == framework.ArgTensor && d != nil {
			if d.HasMin && d.Min <= 0 {
				d = edit(d.Path)
				d.Min, d.MinRepr, d.MinBool = 0, "0", nil
			}
			if d.MinExceptInfNan != nil && *d.MinExceptInfNan < 0 {
				d = edit(d.Path)
				zero := 0.0
				d.MinExceptInfNan = &zero
			}
		}
	}
	if len(call.Args) >= 1 && api == "histc" {
		if d := call.Tensors[call.Args[0].Path]; call.Args[0].Kind == framework.ArgTensor && d != nil {
			switch d.DType {
			case tensor.Int8, tensor.Int32, tensor.Int64:
				retype(edit(d.Path), tensor.Float32)
			}
		}
	}
	// Type conversion of every input tensor.
	from, to := tensor.Int32, tensor.Int64
	if api == "histc" {
		from, to = tensor.Int64, tensor.Float32
	}
	for p := range call.Tensors {
		if isInput(p) && out.Tensors[p].DType == from {
			retype(edit(p), to)
		}
	}
	if !changed {
		return call
	}
	out.Args = retypeArgs(call.Args, out.Tensors)
	out.Kwargs = make([]framework.NamedArg, len(call.Kwargs))
	for i, kw := range call.Kwargs {
		out.Kwargs[i] = framework.NamedArg{Name: kw.Name, Arg: retypeArg(kw.Arg, out.Tensors)}
	}
	return &out
}

func retype(d *dump.TensorDesc, to tensor.DType) {
	d.DType, d.DTypeName = to, to.TorchName()
}

// retypeArgs copies the argument trees with the tensors' dtypes taken from
// the (converted) descriptors, so that the framework plugin plans with the
// dtypes that will be generated.
func retypeArgs(args []framework.Arg, tensors map[string]*dump.TensorDesc) []framework.Arg {
	if args == nil {
		return nil
	}
	out := make([]framework.Arg, len(args))
	for i, a := range args {
		out[i] = retypeArg(a, tensors)
	}
	return out
}

func retypeArg(a framework.Arg, tensors map[string]*dump.TensorDesc) framework.Arg {
	if a.Kind == framework.ArgTensor {
		if d := tensors[a.Path]; d != nil {
			a.DType, a.DTypeName = d.DType, d.DTypeName
		}
		return a
	}
	if len(a.Elems) > 0 {
		a.Elems = retypeArgs(a.Elems, tensors)
	}
	return a
}
