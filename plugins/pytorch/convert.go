package pytorch

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// convert applies run_ut's per-API preprocessing (pytorch-precheck §4.1):
// it returns the request to lower (argument trees copied where a dtype
// changes; the caller's request is never modified) and the descriptor
// rewrites the host applies before it loads or generates the tensors.
//
//   - cross_entropy: input tensors recorded as int32 are made as int64
//     (int32_to_int64), and when there are at least two positional
//     arguments and the second (the target) is a tensor, its Min (and
//     legacy Min_except_inf_nan) is raised to 0 so that no negative class
//     index is generated.
//   - histc: input tensors recorded as int64 become float32
//     (int64_to_fp32), and an int8/int32/int64 first positional argument
//     becomes float32.
//
// Only the inputs (args and kwargs) are converted, not the outputs.
func convert(api string, req *framework.PlanRequest) (*framework.PlanRequest, []framework.TensorRewrite) {
	if api != "cross_entropy" && api != "histc" {
		return req, nil
	}
	var rewrites []framework.TensorRewrite
	at := map[string]int{} // path -> index in rewrites
	rw := func(path string) *framework.TensorRewrite {
		if i, ok := at[path]; ok {
			return &rewrites[i]
		}
		at[path] = len(rewrites)
		rewrites = append(rewrites, framework.TensorRewrite{Path: path})
		return &rewrites[len(rewrites)-1]
	}
	if api == "cross_entropy" && len(req.Args) >= 2 && req.Args[1].Kind == framework.ArgTensor {
		r := rw(req.Args[1].Path)
		r.HasMin, r.MinAtLeast = true, 0
	}
	if api == "histc" && len(req.Args) >= 1 && req.Args[0].Kind == framework.ArgTensor {
		switch req.Args[0].DType {
		case tensor.Int8, tensor.Int32, tensor.Int64:
			rw(req.Args[0].Path).DType = tensor.Float32
		}
	}
	from, to := tensor.Int32, tensor.Int64
	if api == "histc" {
		from, to = tensor.Int64, tensor.Float32
	}
	var retype func(args []framework.Arg) []framework.Arg
	retype = func(args []framework.Arg) []framework.Arg {
		if args == nil {
			return nil
		}
		out := make([]framework.Arg, len(args))
		for i, a := range args {
			switch {
			case a.Kind == framework.ArgTensor:
				if a.DType == from {
					rw(a.Path).DType = to
				}
				if i, ok := at[a.Path]; ok && rewrites[i].DType != tensor.Invalid {
					a.DType, a.DTypeName = rewrites[i].DType, rewrites[i].DType.TorchName()
				}
			case len(a.Elems) > 0:
				a.Elems = retype(a.Elems)
			}
			out[i] = a
		}
		return out
	}
	out := *req
	out.Args = retype(req.Args)
	out.Kwargs = make([]framework.NamedArg, len(req.Kwargs))
	for i, kw := range req.Kwargs {
		out.Kwargs[i] = framework.NamedArg{Name: kw.Name, Arg: retype([]framework.Arg{kw.Arg})[0]}
	}
	return &out, rewrites
}
