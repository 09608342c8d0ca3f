package run

import (
	"fmt"

	"github.com/probe-dev/probe/host/internal/errordata"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/tensor"
)

// saveErrorData writes the inputs, outputs and gradients of an API that did
// not pass (-save_error_data; pytorch-precheck §4.11). A failure to save is
// added to the API's message: the verdict stays, nothing already written is
// lost.
func (w *worker) saveErrorData(api *report.API, u *unit, bench, dev *device.ExecResult) {
	s := w.o.ErrorData
	if s == nil {
		return
	}
	bwd := api.Backward
	if bwd == "" {
		bwd = " "
	}
	if !errordata.ShouldSave(api.Forward, bwd) {
		return
	}
	lookup := func(path string) *tensor.Tensor { return u.tensors[path] }
	var a errordata.API
	for _, arg := range u.call.Args {
		a.Args = append(a.Args, errordata.FromArg(arg, lookup))
	}
	for _, kw := range u.call.Kwargs {
		a.Kwargs = append(a.Kwargs, errordata.Kwarg{Name: kw.Name, Value: errordata.FromArg(kw.Arg, lookup)})
	}
	list := func(ts []*tensor.Tensor) errordata.Node {
		n := errordata.L()
		for _, t := range ts {
			if t == nil {
				n.Elems = append(n.Elems, errordata.S(errordata.KindNone))
			} else {
				n.Elems = append(n.Elems, errordata.T(t))
			}
		}
		return n
	}
	a.BenchOut, a.DeviceOut = list(bench.Outputs), list(dev.Outputs)
	if u.devReq.Backward && len(u.grads) > 0 {
		a.Grad = errordata.T(u.grads[0])
		if len(u.grads) > 1 {
			a.Grad = list(u.grads)
		}
		var bg, dg []*tensor.Tensor
		for _, p := range w.gradPairs(u, bench, dev) {
			bg, dg = append(bg, p.bench), append(dg, p.dev)
		}
		a.BenchGrads, a.DeviceGrads = list(bg), list(dg)
	}
	if err := s.Save(api.Name, a); err != nil {
		api.Message += fmt.Sprintf(" (error data not saved: %v)", err)
		api.OmitMessage = false
	}
}
