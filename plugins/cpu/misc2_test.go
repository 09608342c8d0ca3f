package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Finite-difference checks of the misc2 kernels' backward beyond the
// golden cases: stft and istft with every pad mode, odd and even n_fft,
// batches and lengths; renorm at several orders; the scatter ops.
func TestMisc2GradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	win := func(n int) *array {
		a := nnRandArray(r, n)
		for i := range a.data {
			a.data[i] = 0.5 + math.Abs(a.data[i])
		}
		return a
	}
	var cases []nnGradCase
	for _, mode := range []string{"reflect", "constant", "replicate", "circular"} {
		cases = append(cases, nnGradCase{name: "stft/" + mode, op: "stft", in: []*array{nnRandArray(r, 2, 13), win(5)},
			attrs: ops.Attrs{"n_fft": ops.IntAttr(7), "hop_length": ops.IntAttr(3), "win_length": ops.IntAttr(5), "pad_mode": ops.StringAttr(mode)}})
	}
	cases = append(cases,
		nnGradCase{name: "stft/twosided_normalized", op: "stft", in: []*array{nnRandArray(r, 20), nil},
			attrs: ops.Attrs{"n_fft": ops.IntAttr(8), "onesided": ops.BoolAttr(false), "normalized": ops.BoolAttr(true), "center": ops.BoolAttr(false)}},
		nnGradCase{name: "istft/even", op: "istft", in: []*array{nnRandArray(r, 5, 6, 2), win(8)},
			attrs: ops.Attrs{"n_fft": ops.IntAttr(8), "hop_length": ops.IntAttr(2)}},
		nnGradCase{name: "istft/odd_length", op: "istft", in: []*array{nnRandArray(r, 2, 4, 7, 2), win(7)},
			attrs: ops.Attrs{"n_fft": ops.IntAttr(7), "hop_length": ops.IntAttr(3), "length": ops.IntAttr(25)}},
		nnGradCase{name: "istft/twosided", op: "istft", in: []*array{nnRandArray(r, 6, 5, 2), nil},
			attrs: ops.Attrs{"n_fft": ops.IntAttr(6), "hop_length": ops.IntAttr(1), "center": ops.BoolAttr(false), "normalized": ops.BoolAttr(true)}},
		nnGradCase{name: "diagonal_scatter", op: "diagonal_scatter", in: []*array{nnRandArray(r, 3, 4, 5), nnRandArray(r, 4, 3)},
			attrs: ops.Attrs{"offset": ops.IntAttr(-1), "dim1": ops.IntAttr(2), "dim2": ops.IntAttr(0)}},
		nnGradCase{name: "slice_scatter", op: "slice_scatter", in: []*array{nnRandArray(r, 3, 7), nnRandArray(r, 3, 2)},
			attrs: ops.Attrs{"dim": ops.IntAttr(-1), "start": ops.IntAttr(1), "end": ops.IntAttr(6), "step": ops.IntAttr(3)}},
		nnGradCase{name: "sum_to_size", op: "sum_to_size", in: []*array{nnRandArray(r, 2, 3, 4)}, attrs: ops.Attrs{"size": ops.IntsAttr(3, 1)}},
	)
	for _, p := range []float64{1, 2, 3.5, math.Inf(1)} {
		x := nnRandArray(r, 3, 4, 2)
		cases = append(cases, nnGradCase{name: "renorm/" + formatOrder(p), op: "renorm", in: []*array{x},
			attrs: ops.Attrs{"p": ops.FloatAttr(p), "dim": ops.IntAttr(1), "maxnorm": ops.FloatAttr(0.8)}})
	}
	for _, gc := range cases {
		t.Run(gc.name, func(t *testing.T) { runNNGradCheck(t, gc) })
	}
}

// TestMisc2Igamma: P + Q = 1 over every branch of calc_igamma, at float64
// and at float32.
func TestMisc2Igamma(t *testing.T) {
	for _, a := range []float64{0.05, 0.5, 1, 3, 19, 25, 80, 150, 250, 1e3} {
		for _, x := range []float64{1e-3, 0.3, 0.6, 1, 1.2, 5, 24, 30, 79, 160, 255, 990} {
			if s := misc2Igamma(a, x) + misc2Igammac(a, x); math.Abs(s-1) > 1e-13 {
				t.Errorf("float64 P+Q(%g, %g) = %.17g", a, x, s)
			}
			if s := misc2Igamma(float32(a), float32(x)) + misc2Igammac(float32(a), float32(x)); math.Abs(float64(s)-1) > 2e-6 {
				t.Errorf("float32 P+Q(%g, %g) = %.9g", a, x, s)
			}
		}
	}
	// P(1, x) = 1 - exp(-x)
	for _, x := range []float64{0.1, 1, 2.5, 10} {
		if got, want := misc2Igamma(1.0, x), -math.Expm1(-x); math.Abs(got-want) > 1e-15 {
			t.Errorf("P(1, %g) = %.17g, want %.17g", x, got, want)
		}
	}
}

// TestMisc2STFTRoundTrip: istft(stft(x)) is x with a window whose squared
// overlap-add has no zero.
func TestMisc2STFTRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := nnRandArray(r, 50)
	w := nnNew([]int{16}, tensor.Float64)
	for i := range w.data {
		w.data[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/16)
	}
	at := func(op string, extra ops.Attrs, in ...*array) *array {
		gc := nnGradCase{op: op, in: in, attrs: extra}
		outs, err := kernels[op].forward(gc.call(0))
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		return outs[0]
	}
	spec := at("stft", ops.Attrs{"n_fft": ops.IntAttr(16)}, x, w)
	y := at("istft", ops.Attrs{"n_fft": ops.IntAttr(16), "length": ops.IntAttr(50)}, spec, w)
	for i, v := range x.data {
		if math.Abs(y.data[i]-v) > 1e-12 {
			t.Fatalf("element %d: %g, want %g", i, y.data[i], v)
		}
	}
}

// TestMisc2ChooseQparamsBench: a float64 (bench) input gives the float32
// search's result.
func TestMisc2ChooseQparamsBench(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	x32 := nnNew([]int{60}, tensor.Float32)
	for i := range x32.data {
		x32.data[i] = float64(float32(r.NormFloat64()))
	}
	x64 := x32.clone()
	x64.dtype = tensor.Float64
	attrs := ops.Attrs{"numel": ops.IntAttr(60), "n_bins": ops.IntAttr(100), "ratio": ops.FloatAttr(0.3), "bit_width": ops.IntAttr(4)}
	a, err := misc2ChooseQparamsForward(&call{op: "choose_qparams_optimized", attrs: attrs, in: []*array{x32}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := misc2ChooseQparamsForward(&call{op: "choose_qparams_optimized", attrs: attrs, in: []*array{x64}})
	if err != nil {
		t.Fatal(err)
	}
	if a[0].data[0] != b[0].data[0] || a[1].data[0] != b[1].data[0] || a[0].dtype != tensor.Float32 || b[1].dtype != tensor.Float32 {
		t.Fatalf("float32 %v %v, float64 %v %v", a[0].data, a[1].data, b[0].data, b[1].data)
	}
}
