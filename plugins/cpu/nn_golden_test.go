package cpu

import (
	"context"
	"strings"
	"testing"
)

// The nn golden files (testdata/golden/nn_*.json.gz, written by
// testdata/gen_golden_nn.py from real PyTorch) run in golden_test.go's
// TestGolden like every other group. The tests here add what is specific
// to the nn kernels: each has forward, backward and error cases, and their
// errors carry PyTorch's message.

// nnGoldenOps are the nn kernels, with whether they have a backward that
// golden cases must exercise.
var nnGoldenOps = []string{"softmax", "log_softmax", "matmul", "mm", "bmm", "linear", "addmm", "layer_norm",
	"embedding", "convolution", "max_pool2d", "adaptive_avg_pool2d", "dropout", "cross_entropy", "nll_loss",
	"batch_norm", "npu.rms_norm"}

// nnErrorDeviations are nn error cases whose message differs from the one
// recorded, on purpose:
//   - the generator runs with float64 as default dtype, so PyTorch names
//     Double where a real run (float32 default) names Float;
//   - npu.rms_norm has no PyTorch op (the reference's broadcasting error
//     stands in for torch_npu's shape check);
//   - PyTorch's Python wrapper of adaptive_avg_pool2d checks the rank
//     before ATen does; probe gives ATen's message.
var nnErrorDeviations = map[string]bool{
	"dropout/int_train":            true,
	"npu.rms_norm/gamma_mismatch":  true,
	"adaptive_avg_pool2d/2d_input": true,
}

func TestNNGoldenCoverage(t *testing.T) {
	fwd, bwd, errs := map[string]int{}, map[string]int{}, map[string]int{}
	for _, gf := range loadGolden(t) {
		if !strings.HasPrefix(gf.Group, "nn_") {
			continue
		}
		for _, gc := range gf.Cases {
			switch {
			case gc.Error != nil:
				errs[gc.Op]++
			default:
				fwd[gc.Op]++
				if gc.GradOutputs != nil {
					bwd[gc.Op]++
				}
			}
		}
	}
	for _, op := range nnGoldenOps {
		if fwd[op] < 2 {
			t.Errorf("op %s has %d forward golden cases", op, fwd[op])
		}
		if bwd[op] == 0 {
			t.Errorf("op %s has no backward golden case", op)
		}
		if errs[op] == 0 {
			t.Errorf("op %s has no error golden case", op)
		}
	}
}

func TestNNGoldenErrorMessages(t *testing.T) {
	dev := New(Options{Mode: Bench})
	n := 0
	for _, gf := range loadGolden(t) {
		if !strings.HasPrefix(gf.Group, "nn_") {
			continue
		}
		for i := range gf.Cases {
			gc := &gf.Cases[i]
			if gc.Error == nil || nnErrorDeviations[gc.Name] {
				continue
			}
			n++
			req, err := gc.request()
			if err != nil {
				t.Fatalf("%s: bad case: %v", gc.Name, err)
			}
			_, err = dev.Execute(context.Background(), req)
			if err == nil {
				t.Errorf("%s: no error, torch raised %q", gc.Name, *gc.Error)
			} else if !strings.Contains(err.Error(), *gc.Error) {
				t.Errorf("%s: error %q does not contain torch's %q", gc.Name, err, *gc.Error)
			}
		}
	}
	if n == 0 {
		t.Fatal("no nn error cases")
	}
}
