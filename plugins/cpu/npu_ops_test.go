package cpu

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
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
		{op: "npu.swiglu", attrs: ops.Attrs{"dim": ops.IntAttr(-1), "semantics": ops.StringAttr("msprobe")}, in: []*array{nnRandArray(r, 96, 1024)}},
		{op: "npu.scaled_masked_softmax", attrs: ops.Attrs{"scale": ops.FloatAttr(0.5), "fixed_triu_mask": ops.BoolAttr(false), "semantics": ops.StringAttr("msprobe")},
			in: []*array{nnRandArray(r, 2, 8, 64, 64), mask}},
		// msprobe's reference takes a 1-D finished (of a 2-D x; §17 #16)
		{op: "npu.moe_gating_top_k_softmax", attrs: ops.Attrs{"k": ops.IntAttr(4), "semantics": ops.StringAttr("msprobe")},
			in: []*array{nnRandArray(r, 8000, 64), {shape: []int{8000}, data: finished.data, dtype: tensor.Bool}}},
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

// Semantics "msprobe" (the bench of --compat msprobe, fused-ops.md §17 #13,
// #17, #18): on float64 inputs holding float32 values (a float32 original
// raised by run_ut), swiglu, scaled_masked_softmax and the moe gating's
// softmax give float32 values (swiglu's gradient too), where the official
// float64 formula does not; layer_norm_eval ignores weight, bias and eps
// and gives their gradients none. (PyTorch's values: the golden group npu,
// cases msprobe_*.)
func TestNPUMsprobeSemantics(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	f32vals := func(shape ...int) *array {
		a := nnRandArray(r, shape...)
		for i, v := range a.data {
			a.data[i] = float64(float32(2 * v))
		}
		return a
	}
	mask := nnRandArray(r, 6, 16)
	for i, v := range mask.data {
		mask.data[i] = float64(npuB2I(v > 0.7))
	}
	mask.dtype = tensor.Bool
	isF32 := func(v []float64) bool {
		for _, x := range v {
			if x != float64(float32(x)) {
				return false
			}
		}
		return true
	}
	for _, c := range []*call{
		{op: "npu.swiglu", attrs: ops.Attrs{"dim": ops.IntAttr(-1)}, in: []*array{f32vals(6, 16)}},
		{op: "npu.scaled_masked_softmax", attrs: ops.Attrs{"scale": ops.FloatAttr(0.3), "fixed_triu_mask": ops.BoolAttr(false)}, in: []*array{f32vals(6, 16), mask}},
		{op: "npu.moe_gating_top_k_softmax", attrs: ops.Attrs{"k": ops.IntAttr(3)}, in: []*array{f32vals(6, 16), nil}},
	} {
		k := kernels[c.op]
		c.requiresGrad = []bool{true, false}[:len(c.in)]
		var official []float64
		for _, sem := range []string{"official", "msprobe"} {
			c.attrs["semantics"] = ops.StringAttr(sem)
			outs, err := k.forward(c)
			if err != nil {
				t.Fatalf("%s %s: %v", c.op, sem, err)
			}
			y := outs[0].data
			if sem == "official" {
				official = slices.Clone(y)
				if isF32(y) {
					t.Errorf("%s: the official float64 outputs are all float32 values", c.op)
				}
				continue
			}
			if !isF32(y) {
				t.Errorf("%s: msprobe's outputs are not float32 values", c.op)
			}
			if slices.Equal(y, official) {
				t.Errorf("%s: msprobe's outputs equal the official ones", c.op)
			}
			if k.backward == nil {
				continue
			}
			g, err := k.backward(c, outs, []*array{nnRandArray(rand.New(rand.NewPCG(3, 4)), outs[0].shape...)})
			if err != nil {
				t.Fatalf("%s backward: %v", c.op, err)
			}
			// swiglu's gradient ends in float32; the softmax's goes on at
			// float64 (the max subtracted, the scale)
			if c.op == "npu.swiglu" && !isF32(g[0].data) {
				t.Errorf("%s: msprobe's gradient is not float32 values", c.op)
			}
		}
	}

	// layer_norm_eval: weight, bias and eps ignored; no gradient for them
	x, w, b := f32vals(4, 8), f32vals(8), f32vals(8)
	ln := func(sem string, eps float64, in ...*array) ([]*array, []*array) {
		c := &call{op: "npu.layer_norm_eval", attrs: ops.Attrs{"normalized_shape": ops.IntsAttr(8), "eps": ops.FloatAttr(eps), "semantics": ops.StringAttr(sem)},
			in: in, requiresGrad: []bool{true, in[1] != nil, in[2] != nil}}
		k := kernels[c.op]
		outs, err := k.forward(c)
		if err != nil {
			t.Fatal(err)
		}
		g, err := k.backward(c, outs, []*array{nnRandArray(rand.New(rand.NewPCG(5, 6)), 4, 8)})
		if err != nil {
			t.Fatal(err)
		}
		return outs, g
	}
	refY, refG := ln("msprobe", 0.5, x, w, b)
	plainY, plainG := ln("official", 1e-5, x, nil, nil)
	if !slices.Equal(refY[0].data, plainY[0].data) || !slices.Equal(refG[0].data, plainG[0].data) {
		t.Errorf("layer_norm_eval msprobe: not layer_norm(x, normalized_shape) with eps 1e-5")
	}
	if refG[1] != nil || refG[2] != nil {
		t.Errorf("layer_norm_eval msprobe: weight and bias gradients %v, %v, want none", refG[1], refG[2])
	}
	if offY, _ := ln("official", 0.5, x, w, b); slices.Equal(offY[0].data, refY[0].data) {
		t.Errorf("layer_norm_eval official: weight, bias and eps ignored")
	}

	c := &call{op: "npu.swiglu", attrs: ops.Attrs{"dim": ops.IntAttr(-1), "semantics": ops.StringAttr("ref")}, in: []*array{x}}
	if _, err := kernels[c.op].forward(c); err == nil || !strings.Contains(err.Error(), `semantics must be "official" or "msprobe"`) {
		t.Errorf("bad semantics: %v", err)
	}
}
