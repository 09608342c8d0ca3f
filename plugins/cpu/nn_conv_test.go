package cpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// A 1×1 convolution with stride 1 and no padding reads its columns from
// the input itself instead of copying them (nnConv.columns): forward and
// backward give the copying path's bytes, and the shortcut is not taken
// where the columns differ from the input (stride, padding, dilation with
// a larger kernel, groups).
func TestConvDirectColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type conv struct {
		in, w            []int
		stride, pad, dil []int64
		groups           int64
	}
	cases := []conv{
		{[]int{2, 6, 5, 7}, []int{4, 6, 1, 1}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, 1},
		{[]int{2, 6, 5, 7}, []int{4, 3, 1, 1}, []int64{1, 1}, []int64{0, 0}, []int64{1, 1}, 2},
		{[]int{2, 6, 5, 7}, []int{4, 6, 1, 1}, []int64{2, 2}, []int64{0, 0}, []int64{1, 1}, 1},
		{[]int{2, 6, 5, 7}, []int{4, 6, 1, 1}, []int64{1, 2}, []int64{0, 0}, []int64{1, 1}, 1},
		{[]int{2, 6, 5, 7}, []int{4, 6, 1, 1}, []int64{1, 1}, []int64{1, 0}, []int64{1, 1}, 1},
		{[]int{2, 6, 5, 7}, []int{4, 6, 1, 1}, []int64{1, 1}, []int64{0, 0}, []int64{2, 3}, 1},
		{[]int{2, 6, 9}, []int{4, 6, 1}, []int64{1}, []int64{0}, []int64{1}, 1},
		{[]int{1, 4, 3, 4, 5}, []int{2, 4, 1, 1, 1}, []int64{1, 1, 1}, []int64{0, 0, 0}, []int64{1, 1, 1}, 1},
		{[]int{2, 6, 5, 7}, []int{4, 6, 3, 3}, []int64{1, 1}, []int64{1, 1}, []int64{1, 1}, 1},
	}
	randT := func(dt tensor.DType, shape []int) *tensor.Tensor {
		v := make([]float64, tensor.NumElements(shape))
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return tensor.FromFloat64s(dt, shape, v)
	}
	for _, c := range cases {
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
			x, w := randT(dt, c.in), randT(dt, c.w)
			probe := &device.ExecRequest{Op: "convolution", Inputs: []ops.Value{ops.T(x), ops.T(w), ops.None},
				Attrs: ops.Attrs{"stride": ops.IntsAttr(c.stride...), "padding": ops.IntsAttr(c.pad...), "dilation": ops.IntsAttr(c.dil...), "groups": ops.IntAttr(c.groups)}}
			fwd, err := execute(Options{Mode: Bench}, probe)
			if err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			g := randT(dt, fwd.Outputs[0].Shape)
			for _, m := range modes {
				name := fmt.Sprintf("%v %s %s", c, dt, m)
				req := *probe
				req.RequiresGrad, req.Backward, req.GradOutputs = []bool{true, true, false}, true, []*tensor.Tensor{g}
				run := func(copying bool) *device.ExecResult {
					convNoDirectColumns = copying
					defer func() { convNoDirectColumns = false }()
					res, err := execute(Options{Mode: m}, &req)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					return res
				}
				direct, copied := run(false), run(true)
				for i, pair := range [][2]*tensor.Tensor{{direct.Outputs[0], copied.Outputs[0]}, {direct.InputGrads[0], copied.InputGrads[0]}, {direct.InputGrads[1], copied.InputGrads[1]}} {
					if !bytes.Equal(pair[0].Data, pair[1].Data) {
						t.Errorf("%s: result %d differs between the direct and the copied columns", name, i)
					}
				}
			}
		}
	}
}
