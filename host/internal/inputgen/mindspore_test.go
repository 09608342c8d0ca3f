package inputgen

import (
	"math"
	"testing"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/tensor"
)

// mindspore-precheck §11.4: NumPy's legacy random_sample after seed 42.
func TestMT19937NumPyStream(t *testing.T) {
	want := []float64{0.3745401188473625, 0.9507143064099162, 0.7319939418114051, 0.5986584841970366,
		0.15601864044243652, 0.15599452033620265, 0.05808361216819946, 0.8661761457749352}
	m := newMT19937(42)
	for i, w := range want {
		if got := m.float64(); got != w {
			t.Errorf("u[%d] = %v, want %v", i, got, w)
		}
	}
}

func msDesc(d tensor.DType, shape []int, lo, hi float64) *dump.TensorDesc {
	return &dump.TensorDesc{DType: d, DTypeName: d.MindSporeName(), Shape: shape, Min: lo, Max: hi, HasMin: true, HasMax: true}
}

// mindspore-precheck §11.3 and §11.4 generator vectors.
func TestGenerateMindSporeVectors(t *testing.T) {
	f := false
	boolDesc := &dump.TensorDesc{DType: tensor.Bool, Shape: []int{2, 3}, MinBool: &f, MaxBool: &f}
	cases := []struct {
		d    *dump.TensorDesc
		want []float64
	}{
		{boolDesc, []float64{0, 1, 1, 1, 0, 0}},
		{msDesc(tensor.Int64, []int{2, 3}, 0, 5), []float64{1, 4, 3, 2, 0, 0}},
		{msDesc(tensor.Int64, []int{6}, -3, 3), []float64{0, 2, 1, 0, -2, -2}},
		{msDesc(tensor.Float16, []int{4}, -2.5, 2.5), []float64{-0.6274, 2.254, 1.16, 0.4934}},
		{msDesc(tensor.Float16, []int{2, 2}, -1, 1), []float64{-0.251, 0.9014, 0.4639, 0.1973}},
		{msDesc(tensor.Float64, nil, 0, 1), []float64{0.3745401188473625}},
		{msDesc(tensor.Float64, []int{2, 3}, 1, 3), []float64{1.749080237694725, 2.9014286128198323, 2.46398788362281, 2.197316968394073, 1.312037280884873, 1.3119890406724053}},
		{msDesc(tensor.Float32, []int{2, 3}, 1, 3), []float64{1.7490802, 2.9014287, 2.4639878, 2.197317, 1.3120372, 1.3119891}},
		{msDesc(tensor.Float16, []int{3}, 0, math.Inf(1)), []float64{math.Inf(1), math.Inf(1), math.Inf(1)}},
	}
	for i, c := range cases {
		got, err := GenerateMindSpore(c.d)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for k, w := range c.want {
			g := got.At(k)
			ok := g == w
			if c.d.DType == tensor.Float16 || c.d.DType == tensor.Float32 {
				// The spec prints NumPy's shortest text of the rounded value.
				ok = tensor.Round(c.d.DType, w) == g
			}
			if !ok {
				t.Errorf("case %d (%s %v): element %d = %v, want %v", i, c.d.DType, c.d.Shape, k, g, w)
			}
		}
	}
	if _, err := GenerateMindSpore(msDesc(tensor.Float32, []int{2}, math.Inf(-1), math.Inf(1))); err == nil || err.Error() != "Range exceeds valid bounds" {
		t.Errorf("infinite range: %v", err)
	}
	if _, err := GenerateMindSpore(&dump.TensorDesc{DType: tensor.Float32, Shape: []int{2}, HasMax: true}); err == nil {
		t.Error("missing Min accepted")
	}
}
