package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func nn2DropoutCall(x *array, p float64, alpha, feature, unbatched bool, seed uint64) *call {
	return &call{op: "feature_dropout", attrs: ops.Attrs{"p": ops.FloatAttr(p), "train": ops.BoolAttr(true), "inplace": ops.BoolAttr(false),
		"alpha": ops.BoolAttr(alpha), "feature": ops.BoolAttr(feature), "unbatched": ops.BoolAttr(unbatched)},
		in: []*array{x}, requiresGrad: []bool{true}, seed: seed}
}

// TestNN2DropoutMask checks the random masks of the feature and alpha
// dropouts (the golden corpus checks p = 0, p = 1 and evaluation only):
// one draw per (N, C) plane for feature dropout (per dim-0 slice
// unbatched), one per element otherwise; kept values x/(1−p), or x·a + α·a·p
// and dropped ones α·a·(p − 1) for alpha dropout; a dropped share close to
// p; the same mask for the same seed and in backward.
func TestNN2DropoutMask(t *testing.T) {
	const alpha = 1.7580993408473766
	r := rand.New(rand.NewPCG(5, 6))
	x := nnNew([]int{40, 50, 6}, tensor.Float64)
	for i := range x.data {
		x.data[i] = 1 + r.Float64()
	}
	for _, tc := range []struct {
		alpha, feature, unbatched bool
		inner                     int // elements sharing one draw
	}{{false, true, false, 6}, {true, true, false, 6}, {true, false, false, 1}, {false, true, true, 300}} {
		for _, p := range []float64{0.2, 0.7} {
			c := nn2DropoutCall(x, p, tc.alpha, tc.feature, tc.unbatched, 42)
			out, err := nn2DropoutForward(c)
			if err != nil {
				t.Fatal(err)
			}
			y := out[0].data
			a := 1 / math.Sqrt((alpha*alpha*p+1)*(1-p))
			keptOf := func(v float64) float64 { return v / (1 - p) }
			dropVal := 0.0
			if tc.alpha {
				keptOf = func(v float64) float64 { return v*a + alpha*a*p }
				dropVal = alpha * a * (p - 1)
			}
			draws, dropped := len(y)/tc.inner, 0
			for q := 0; q < draws; q++ {
				d := math.Abs(y[q*tc.inner]-dropVal) < 1e-12
				if d {
					dropped++
				}
				for i := q * tc.inner; i < (q+1)*tc.inner; i++ {
					want := keptOf(x.data[i])
					if d {
						want = dropVal
					}
					if math.Abs(y[i]-want) > 1e-12*(1+math.Abs(want)) {
						t.Fatalf("%+v p=%v: element %d = %v, want %v (plane dropped %v)", tc, p, i, y[i], want, d)
					}
				}
			}
			sd := math.Sqrt(float64(draws) * p * (1 - p))
			if math.Abs(float64(dropped)-float64(draws)*p) > 6*sd {
				t.Errorf("%+v p=%v: dropped %d of %d", tc, p, dropped, draws)
			}
			g := nnNew(x.shape, tensor.Float64)
			for i := range g.data {
				g.data[i] = r.NormFloat64()
			}
			grads, err := nn2DropoutBackward(nn2DropoutCall(x, p, tc.alpha, tc.feature, tc.unbatched, 42), out, []*array{g})
			if err != nil {
				t.Fatal(err)
			}
			for q := 0; q < draws; q++ {
				scale := 1 / (1 - p)
				if tc.alpha {
					scale = a
				}
				if math.Abs(y[q*tc.inner]-dropVal) < 1e-12 {
					scale = 0
				}
				for i := q * tc.inner; i < (q+1)*tc.inner; i++ {
					if want := g.data[i] * scale; math.Abs(grads[0].data[i]-want) > 1e-12*(1+math.Abs(want)) {
						t.Fatalf("%+v p=%v: grad %d = %v, want %v", tc, p, i, grads[0].data[i], want)
					}
				}
			}
		}
	}
}

// TestNN2ConvTransposeIsConvGradient: conv_transpose of x is the input
// gradient of the convolution with the same weight and parameters.
func TestNN2ConvTransposeIsConvGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	fill := func(shape ...int) *array {
		a := nnNew(shape, tensor.Float64)
		for i := range a.data {
			a.data[i] = r.NormFloat64()
		}
		return a
	}
	w := fill(4, 3, 2, 3) // (C_in of the transpose = conv's C_out, C_out/groups, kH, kW)
	x := fill(2, 4, 3, 4) // transposed input
	in := nnNew([]int{2, 6, 5, 11}, tensor.Float64)
	attrs := ops.Attrs{"stride": ops.IntsAttr(2, 2), "padding": ops.IntsAttr(1, 0), "dilation": ops.IntsAttr(1, 2), "groups": ops.IntAttr(2)}
	conv := &call{op: "convolution", attrs: attrs, in: []*array{in, w, nil}, requiresGrad: []bool{true, false, false}}
	grads, err := convBackward(conv, nil, []*array{x})
	if err != nil {
		t.Fatal(err)
	}
	tattrs := ops.Attrs{"stride": ops.IntsAttr(2, 2), "padding": ops.IntsAttr(1, 0), "output_padding": ops.IntsAttr(1, 0),
		"dilation": ops.IntsAttr(1, 2), "groups": ops.IntAttr(2)}
	out, err := nn2ConvTForward(&call{op: "conv_transpose", attrs: tattrs, in: []*array{x, w, nil}, requiresGrad: []bool{false, false, false}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out[0].data) != len(grads[0].data) {
		t.Fatalf("shape %v, want %v", out[0].shape, grads[0].shape)
	}
	for i, v := range out[0].data {
		if math.Abs(v-grads[0].data[i]) > 1e-12*(1+math.Abs(v)) {
			t.Fatalf("element %d: %v, want %v", i, v, grads[0].data[i])
		}
	}
}
