package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func nnDropoutCall(x *array, p float64, seed uint64) *call {
	return &call{op: "dropout", attrs: ops.Attrs{"p": ops.FloatAttr(p), "train": ops.BoolAttr(true), "inplace": ops.BoolAttr(false)},
		in: []*array{x}, requiresGrad: []bool{true}, seed: seed}
}

// TestDropoutMask checks the random mask: kept elements are scaled by
// 1/(1-p), the dropped fraction is close to p, the same seed gives the same
// mask, another seed another one, and backward applies the forward's mask.
func TestDropoutMask(t *testing.T) {
	const n = 20000
	x := nnNew([]int{100, n / 100}, tensor.Float64)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range x.data {
		x.data[i] = 1 + r.Float64() // never zero
	}
	for _, p := range []float64{0.1, 0.5, 0.9} {
		out, err := dropoutForward(nnDropoutCall(x, p, 42))
		if err != nil {
			t.Fatal(err)
		}
		y := out[0]
		dropped := 0
		for i, v := range y.data {
			switch {
			case v == 0:
				dropped++
			case math.Abs(v-x.data[i]/(1-p)) > 1e-12*math.Abs(v):
				t.Fatalf("p=%v: kept element %d = %v, want %v", p, i, v, x.data[i]/(1-p))
			}
		}
		// Binomial(n, p): 6 standard deviations is far beyond any fixed seed's luck.
		sd := math.Sqrt(n * p * (1 - p))
		if math.Abs(float64(dropped)-n*p) > 6*sd {
			t.Errorf("p=%v: dropped %d of %d", p, dropped, n)
		}
		again, _ := dropoutForward(nnDropoutCall(x, p, 42))
		other, _ := dropoutForward(nnDropoutCall(x, p, 43))
		same, diff := true, false
		for i := range y.data {
			same = same && again[0].data[i] == y.data[i]
			diff = diff || other[0].data[i] != y.data[i]
		}
		if !same {
			t.Errorf("p=%v: same seed, different mask", p)
		}
		if !diff {
			t.Errorf("p=%v: seeds 42 and 43 gave the same mask", p)
		}
		g := nnNew(x.shape, tensor.Float64)
		for i := range g.data {
			g.data[i] = r.NormFloat64()
		}
		grads, err := dropoutBackward(nnDropoutCall(x, p, 42), out, []*array{g})
		if err != nil {
			t.Fatal(err)
		}
		for i, gv := range grads[0].data {
			want := g.data[i] * y.data[i] / x.data[i]
			if math.Abs(gv-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("p=%v: grad %d = %v, want %v", p, i, gv, want)
			}
		}
	}
}

func TestDropoutIdentityAndZero(t *testing.T) {
	x := &array{shape: []int{4}, data: []float64{1, -2, math.NaN(), math.Inf(1)}, dtype: tensor.Float32}
	for _, c := range []*call{
		nnDropoutCall(x, 0, 1),
		{op: "dropout", attrs: ops.Attrs{"p": ops.FloatAttr(0.5), "train": ops.BoolAttr(false)}, in: []*array{x}},
	} {
		out, err := dropoutForward(c)
		if err != nil {
			t.Fatal(err)
		}
		if out[0].dtype != tensor.Float32 || out[0].data[0] != 1 || out[0].data[1] != -2 || !math.IsNaN(out[0].data[2]) || !math.IsInf(out[0].data[3], 1) {
			t.Errorf("identity dropout changed the input: %v", out[0].data)
		}
	}
	out, err := dropoutForward(nnDropoutCall(x, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	// p = 1 multiplies by zero: NaN and Inf become NaN, as in PyTorch.
	if out[0].data[0] != 0 || out[0].data[1] != 0 || !math.IsNaN(out[0].data[2]) || !math.IsNaN(out[0].data[3]) {
		t.Errorf("p=1: %v", out[0].data)
	}
}
