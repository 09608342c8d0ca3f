package cpu

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The fused torch_npu kernels give the same bytes at any core count:
// forward and backward on inputs spanning several parallel chunks, with
// GOMAXPROCS(1) and the machine's count. (Their values are checked by the
// golden group npu.)
func TestNPUOpsCoreCount(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	mask := nnRandArray(r, 2, 1, 64, 64)
	for i, v := range mask.data {
		mask.data[i] = float64(npuB2I(v > 0.8))
	}
	mask.dtype = tensor.Bool
	finished := nnRandArray(r, 4, 2000)
	for i, v := range finished.data {
		finished.data[i] = float64(npuB2I(v > 1))
	}
	finished.dtype = tensor.Bool
	calls := []*call{
		{op: "npu.swiglu", attrs: ops.Attrs{"dim": ops.IntAttr(-1)}, in: []*array{nnRandArray(r, 96, 1024)}},
		{op: "npu.swiglu", attrs: ops.Attrs{"dim": ops.IntAttr(0)}, in: []*array{nnRandArray(r, 64, 3, 512)}},
		{op: "npu.rotary_mul", attrs: ops.Attrs{"rotary_mode": ops.StringAttr("half")},
			in: []*array{nnRandArray(r, 2, 64, 4, 128), nnRandArray(r, 1, 64, 1, 128), nnRandArray(r, 1, 64, 1, 128)}},
		{op: "npu.rotary_mul", attrs: ops.Attrs{"rotary_mode": ops.StringAttr("interleave")},
			in: []*array{nnRandArray(r, 2, 4, 64, 128), nnRandArray(r, 2, 1, 64, 128), nnRandArray(r, 128)}},
		{op: "npu.fast_gelu", attrs: ops.Attrs{}, in: []*array{nnRandArray(r, 300, 257)}},
		{op: "npu.mish", attrs: ops.Attrs{}, in: []*array{nnRandArray(r, 300, 257)}},
		{op: "npu.scaled_masked_softmax", attrs: ops.Attrs{"scale": ops.FloatAttr(0.5), "fixed_triu_mask": ops.BoolAttr(false)},
			in: []*array{nnRandArray(r, 2, 8, 64, 64), mask}},
		{op: "npu.scaled_masked_softmax", attrs: ops.Attrs{"scale": ops.FloatAttr(2), "fixed_triu_mask": ops.BoolAttr(true)},
			in: []*array{nnRandArray(r, 2, 8, 64, 64), mask}},
		{op: "npu.confusion_transpose", attrs: ops.Attrs{"perm": ops.IntsAttr(0, 2, 1, 3), "shape": ops.IntsAttr(4, 64, 16, 32), "transpose_first": ops.BoolAttr(false)},
			in: []*array{nnRandArray(r, 4, 64, 512)}},
		{op: "npu.linear", attrs: ops.Attrs{}, in: []*array{nnRandArray(r, 3, 70, 96), nnRandArray(r, 80, 96), nnRandArray(r, 80)}},
		{op: "npu.layer_norm_eval", attrs: ops.Attrs{"normalized_shape": ops.IntsAttr(4, 96), "eps": ops.FloatAttr(1e-5)},
			in: []*array{nnRandArray(r, 130, 4, 96), nnRandArray(r, 4, 96), nnRandArray(r, 4, 96)}},
		{op: "npu.apply_adam", attrs: ops.Attrs{"use_nesterov": ops.BoolAttr(true)},
			in: append([]*array{nnRandArray(r, 300, 257), nnRandArray(r, 300, 257), npuAbs(nnRandArray(r, 300, 257)), nnRandArray(r, 300, 257)},
				npuScalarArrays(0.9, 0.999, 1e-3, 0.9, 0.999, 1e-8)...)},
		{op: "npu.apply_adam_w", attrs: ops.Attrs{"amsgrad": ops.BoolAttr(true), "maximize": ops.BoolAttr(true)},
			in: append([]*array{nnRandArray(r, 300, 257), nnRandArray(r, 300, 257), npuAbs(nnRandArray(r, 300, 257)), nnRandArray(r, 300, 257),
				npuAbs(nnRandArray(r, 300, 257))}, npuScalarArrays(0.9, 0.999, 1e-3, 0.01, 0.9, 0.999, 1e-8)...)},
		{op: "npu.group_norm_silu", attrs: ops.Attrs{"group": ops.IntAttr(4), "eps": ops.FloatAttr(1e-5)},
			in: []*array{nnRandArray(r, 6, 16, 40, 40), nnRandArray(r, 16), nnRandArray(r, 16)}},
		{op: "npu.moe_gating_top_k_softmax", attrs: ops.Attrs{"k": ops.IntAttr(4)}, in: []*array{nnRandArray(r, 4, 2000, 64), finished}},
		{op: "npu.sort_v2", attrs: ops.Attrs{"dim": ops.IntAttr(-1), "descending": ops.BoolAttr(true)}, in: []*array{nnRandArray(r, 600, 257)}},
		{op: "npu.sort_v2", attrs: ops.Attrs{"dim": ops.IntAttr(0), "descending": ops.BoolAttr(false)}, in: []*array{nnRandArray(r, 257, 600)}},
	}
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	for _, c := range calls {
		c.requiresGrad = make([]bool, len(c.in))
		for i, a := range c.in {
			c.requiresGrad[i] = a.dtype.IsFloat()
		}
		k := kernels[c.op]
		run := func() ([]*array, []*array) {
			outs, err := k.forward(c)
			if err != nil {
				t.Fatalf("%s: %v", c.op, err)
			}
			if k.backward == nil {
				return outs, nil
			}
			gys := make([]*array, len(outs))
			for i, o := range outs {
				gys[i] = nnRandArray(rand.New(rand.NewPCG(1, 2)), o.shape...)
			}
			grads, err := k.backward(c, outs, gys)
			if err != nil {
				t.Fatalf("%s backward: %v", c.op, err)
			}
			return outs, grads
		}
		o2, g2 := run()
		prev := runtime.GOMAXPROCS(1)
		o1, g1 := run()
		runtime.GOMAXPROCS(prev)
		for i := range o1 {
			if !same(o1[i].data, o2[i].data) {
				t.Errorf("%s: output %d differs between 1 and %d goroutines", c.op, i, prev)
			}
		}
		for i := range g1 {
			if (g1[i] == nil) != (g2[i] == nil) || g1[i] != nil && !same(g1[i].data, g2[i].data) {
				t.Errorf("%s: gradient %d differs between 1 and %d goroutines", c.op, i, prev)
			}
		}
		if k.backward == nil {
			continue
		}
		for i, g := range g1 {
			if want := c.requiresGrad[i]; (g != nil) != want {
				t.Errorf("%s: gradient %d present %v, want %v", c.op, i, g != nil, want)
			}
		}
	}
}

func npuB2I(b bool) int {
	if b {
		return 1
	}
	return 0
}

// npuScalarArrays wraps Python numbers as the Scalar inputs of the
// optimizer steps.
func npuScalarArrays(v ...float64) []*array {
	out := make([]*array, len(v))
	for i, x := range v {
		out[i] = scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: x})
	}
	return out
}

// npuAbs makes a's values non-negative (second moments).
func npuAbs(a *array) *array {
	for i, v := range a.data {
		a.data[i] = math.Abs(v)
	}
	return a
}
