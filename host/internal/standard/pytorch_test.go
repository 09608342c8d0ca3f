package standard

import (
	"math"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Vectors of pytorch-precheck §11.1.
func TestCosineSpecVectors(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		bench, device []float64
		set           bool
		value         float64
		ok            bool
		msg           string
	}{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, true, 1, true, ""},
		{[]float64{1, 2, 3}, []float64{4, 5}, true, -1, false, "Shape of device and bench outputs don't match"},
		{[]float64{1}, []float64{1}, false, 0, true, "All the data in device dump data is scalar"},
		{[]float64{0, 0, 0}, []float64{0, 0, 0}, false, 0, true, "All the data in device and bench outputs are zero"},
		{[]float64{0, 1, 0}, []float64{0, 0, 0}, false, 0, false, "All the data is zero in device dump data"},
		{[]float64{0, 0, 0}, []float64{0, 1, 0}, false, 0, false, "All the data is zero in bench dump data"},
		{[]float64{1, 2, nan}, []float64{1, 2, 3}, true, nan, false, "Dump data has NaN when comparing with Cosine Similarity"},
	}
	for i, c := range cases {
		m, ok, msg := Cosine(c.bench, c.device)
		if m.Set() != c.set || ok != c.ok || !strings.Contains(msg, c.msg) || (c.msg == "" && msg != "") {
			t.Errorf("case %d: got (%+v, %v, %q), want set=%v ok=%v msg~%q", i, m, ok, msg, c.set, c.ok, c.msg)
		}
		if c.set && !(m.V == c.value || math.IsNaN(c.value) && math.IsNaN(m.V) || math.Abs(m.V-c.value) < 1e-15) {
			t.Errorf("case %d: value %v, want %v", i, m.V, c.value)
		}
	}
}

func tens(d tensor.DType, v ...float64) *tensor.Tensor {
	return tensor.FromFloat64s(d, []int{len(v)}, v)
}

// Comparator vectors of pytorch-precheck §11.3 that the decision tree alone
// decides.
func TestPyTorchStatusVectors(t *testing.T) {
	cases := []struct {
		name          string
		bench, device *tensor.Tensor
		status        string
	}{
		{"fp16 1.1 offsets", tens(tensor.Float32, 1, 2, 3), tens(tensor.Float16, 1.1, 2.1, 3.1), Error},
		{"fp16 1e-4 offsets", tens(tensor.Float32, 1, 2, 3), tens(tensor.Float16, 1.0001, 2.0001, 3.0001), Pass},
		{"fp16 1e-2 offsets", tens(tensor.Float32, 1, 2, 3), tens(tensor.Float16, 1.01, 2.01, 3.01), Warning},
		{"fp32 1e-2 offsets", tens(tensor.Float32, 1, 2, 3), tens(tensor.Float32, 1.01, 2.01, 3.01), Error},
		{"bool-built vs other", tens(tensor.Float32, 1, 1, 0), tens(tensor.Float32, 1, 2, 3), Error},
		{"bool-built vs same", tens(tensor.Float32, 1, 1, 0), tens(tensor.Float32, 1, 1, 0), Pass},
		{"fp32 vs bf16 equal", tens(tensor.Float32, 1, 2, 3), tens(tensor.BFloat16, 1, 2, 3), Pass},
		{"int64 equal", tens(tensor.Int64, 1, 2, 3), tens(tensor.Int64, 1, 2, 3), Pass},
		{"int64 differ", tens(tensor.Int64, 1, 2, 3), tens(tensor.Int64, 1, 2, 4), Error},
		{"shape", tensor.FromFloat64s(tensor.Float32, []int{2, 3}, []float64{1, 2, 3, 1, 2, 3}), tens(tensor.Float32, 1, 2, 3), Error},
		{"int vs float", tens(tensor.Int64, 1, 2, 3), tens(tensor.Float32, 1, 2, 3), Error},
		{"empty", tens(tensor.Float32), tens(tensor.Float32), Error},
	}
	for _, c := range cases {
		row := PyTorch{}.Judge(Pair{API: "__matmul__", Bench: c.bench, Device: c.device})
		if row.Status != c.status {
			t.Errorf("%s: status %s, want %s (message %q)", c.name, row.Status, c.status, row.Message)
		}
	}
	row := PyTorch{}.Judge(Pair{Bench: tens(tensor.Int64, 1, 2, 3), Device: tens(tensor.Int64, 1, 2, 3)})
	if row.Message != "Compare algorithm is not supported for int64 data. Only judged by Error Rate.\n" {
		t.Errorf("int64 message %q", row.Message)
	}
	row = PyTorch{}.Judge(Pair{Bench: tensor.FromFloat64s(tensor.Float32, []int{2, 3}, make([]float64, 6)), Device: tens(tensor.Float32, 1, 2, 3)})
	if row.Message != "The shape of benchtorch.Size([2, 3]) and nputorch.Size([3]) not equal." {
		t.Errorf("shape message %q", row.Message)
	}
}

func TestAggregate(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{Pass, Error, Warning}, Error}, // msprobe would say Warning (fixed)
		{[]string{Pass, Warning}, Warning},
		{[]string{Skip}, Pass},
		{nil, Pass},
	} {
		if got := Aggregate(c.in); got != c.want {
			t.Errorf("Aggregate(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	// msprobe's fold (§5.2, §12 #1): a later Warning overwrites an error.
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{Pass, Error, Warning}, Warning},
		{[]string{Warning, Error}, Error},
		{[]string{Pass, Warning}, Warning},
		{[]string{Skip, Skip}, Pass},
		{nil, Pass},
	} {
		if got := AggregateCompat(c.in); got != c.want {
			t.Errorf("AggregateCompat(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestMindSporeStandard(t *testing.T) {
	row := MindSpore{}.Judge(Pair{Bench: tens(tensor.Float32, 1, 2, 3), Device: tens(tensor.Float32, 1, 2, 3)})
	if row.Status != Pass || row.Message != "" || row.Metrics[ColCosine].V != 1 {
		t.Errorf("identical: %+v", row)
	}
	row = MindSpore{}.Judge(Pair{Bench: tens(tensor.Float32, 1, 2, 3), Device: tens(tensor.Float32, 1, 2, 3.5)})
	if row.Status != Error || row.Message != "max absolute difference is greater than threshold: 0.001 " {
		t.Errorf("offset: %+v", row)
	}
	row = MindSpore{}.Judge(Pair{Bench: tens(tensor.Float32, 1, 0, 0), Device: tens(tensor.Float32, 0, 1, 0)})
	if row.Status != Error || row.Message != "cosine similarity is less than threshold: 0.99 max absolute difference is greater than threshold: 0.001 " {
		t.Errorf("orthogonal: %+v", row)
	}
}

// A failing cosine between values within the small-value threshold is
// rounding noise: probe judges such a pair by its max abs error, msprobe
// (Compat) reports the cosine error (docs/compat.md row 22). The first case
// is real: the bias gradient of the conv net's first conv2d (followed by a
// batch_norm, so exactly zero), as PyTorch 1.13 computes it in float32 on
// the CPU and as the float64 bench does.
func TestNearZeroCosine(t *testing.T) {
	const s32, s16 = 0x1p-20, 0x1p-10
	cases := []struct {
		name          string
		bench, device *tensor.Tensor
		probe, compat string
	}{
		{"conv bias grad", tens(tensor.Float64, -7.70364750e-09, 7.46695150e-10, 8.76025297e-09, 1.61458047e-09),
			tens(tensor.Float32, -3.34694050e-09, -1.12340786e-08, 1.14087015e-08, -9.44419298e-09), Pass, Error},
		{"bench exactly zero", tens(tensor.Float64, 0, 0, 0), tens(tensor.Float32, 1e-9, -2e-9, 0), Pass, Error},
		{"device exactly zero", tens(tensor.Float64, 1e-9, -2e-9, 3e-9), tens(tensor.Float32, 0, 0, 0), Pass, Error},
		{"at the threshold", tens(tensor.Float64, s32, -s32, 0), tens(tensor.Float32, 0, 0, s32), Pass, Error},
		{"bench beyond it", tens(tensor.Float64, 2*s32, -s32, 0), tens(tensor.Float32, 0, 0, s32), Error, Error},
		{"device far from it", tens(tensor.Float64, 1e-9, -2e-9, 3e-9), tens(tensor.Float32, 5e-4, -5e-4, 0), Error, Error},
		{"device NaN", tens(tensor.Float64, 1e-9, -2e-9, 3e-9), tens(tensor.Float32, math.NaN(), 0, 0), Error, Error},
		{"bench inf", tens(tensor.Float64, math.Inf(1), -2e-9, 3e-9), tens(tensor.Float32, 0, 0, 0), Error, Error},
		{"float16 band", tens(tensor.Float64, 1e-4, -2e-4, 3e-4), tens(tensor.Float16, -3e-4, 4e-4, -1e-4), Pass, Error},
		{"float16 beyond", tens(tensor.Float64, 1e-4, -2e-4, 2*s16), tens(tensor.Float16, -3e-4, 4e-4, -1e-4), Error, Error},
		{"large values keep the cosine rule", tens(tensor.Float64, 1, -1, 1), tens(tensor.Float32, -1, 1, 1), Error, Error},
	}
	for _, c := range cases {
		for _, compat := range []bool{false, true} {
			want := c.probe
			if compat {
				want = c.compat
			}
			row := PyTorch{Compat: compat}.Judge(Pair{API: "conv2d", Bench: c.bench, Device: c.device})
			if row.Status != want {
				t.Errorf("%s (compat %v): %s, want %s (message %q)", c.name, compat, row.Status, want, row.Message)
				continue
			}
			noise := strings.Contains(row.Message, "rounding noise")
			if noise != (want == Pass) {
				t.Errorf("%s (compat %v): message %q", c.name, compat, row.Message)
			}
			if noise && !row.Metrics[ColMaxAbsErr].Set() {
				t.Errorf("%s: max abs error column left blank", c.name)
			}
		}
	}
	row := PyTorch{}.Judge(Pair{API: "conv2d", Bench: cases[0].bench, Device: cases[0].device})
	if !strings.Contains(row.Message, "small-value threshold 2^-20 of torch.float32") {
		t.Errorf("message %q does not name the threshold", row.Message)
	}
}
