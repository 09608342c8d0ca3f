package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// TestConvImagesAtOnce: convolution's products over several images at
// once give the bits of one image at a time (NaN payloads aside), forward
// and backward, with groups, strides, padding and bias, in both modes.
func TestConvImagesAtOnce(t *testing.T) {
	if !gemmHasFMA {
		t.Skip("no AVX2/FMA: one image at a time")
	}
	r := rand.New(rand.NewPCG(9, 10))
	defer func() { convOneImage = false }()
	type form struct {
		x, w           []int
		stride, pad    []int64
		groups         int
		bias           bool
		dilation       []int64
		wantMultiImage bool
	}
	forms := []form{
		{[]int{5, 32, 7, 7}, []int{40, 32, 3, 3}, []int64{1, 1}, []int64{1, 1}, 1, true, []int64{1, 1}, true},
		{[]int{4, 16, 15, 15}, []int{24, 8, 3, 3}, []int64{2, 2}, []int64{0, 0}, 2, false, []int64{1, 1}, true},
		{[]int{3, 64, 4, 4}, []int{70, 64, 1, 1}, []int64{1, 1}, []int64{0, 0}, 1, true, []int64{1, 1}, true},
		{[]int{3, 8, 40}, []int{50, 8, 5}, []int64{1}, []int64{2}, 1, true, []int64{2}, true},
	}
	for _, f := range forms {
		x := fastValues(r, tensor.Float64, f.x, false)
		w := fastValues(r, tensor.Float64, f.w, false)
		inputs := []ops.Value{ops.T(x), ops.T(w), {Kind: ops.KindNone}}
		if f.bias {
			inputs[2] = ops.T(fastValues(r, tensor.Float64, []int{f.w[0]}, false))
		}
		attrs := ops.Attrs{"stride": ops.IntsAttr(f.stride...), "padding": ops.IntsAttr(f.pad...), "dilation": ops.IntsAttr(f.dilation...), "groups": ops.IntAttr(int64(f.groups))}
		req := &device.ExecRequest{Op: "convolution", Attrs: attrs, Inputs: inputs}
		convOneImage = true
		probe, err := execute(Options{}, req)
		convOneImage = false
		if err != nil {
			t.Fatalf("%v: %v", f.x, err)
		}
		g := fastValues(r, tensor.Float64, probe.Outputs[0].Shape, false)
		req.Backward, req.RequiresGrad, req.GradOutputs = true, []bool{true, true, f.bias}, []*tensor.Tensor{g}
		for _, mode := range []Mode{Bench, Emulated} {
			name := fmt.Sprintf("%v*%v/groups=%d/%v", f.x, f.w, f.groups, mode)
			cv := &nnConv{batch: f.x[0], oS: tensor.NumElements(probe.Outputs[0].Shape[2:])}
			if got := cv.imagesPerProduct(f.w[0]/f.groups, f.w[1]*tensor.NumElements(f.w[2:])) > 1; got != f.wantMultiImage {
				t.Fatalf("%s: several images at once %v, want %v", name, got, f.wantMultiImage)
			}
			at, err := execute(Options{Mode: mode}, req)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			convOneImage = true
			one, err := execute(Options{Mode: mode}, req)
			convOneImage = false
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sameTensor(t, name+" output", at.Outputs[0], one.Outputs[0])
			for i := range at.InputGrads {
				sameTensor(t, fmt.Sprintf("%s gradient %d", name, i), at.InputGrads[i], one.InputGrads[i])
			}
		}
	}
}
