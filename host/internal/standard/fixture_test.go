package standard

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/tensorload"
	"github.com/probe-dev/probe/internal/fixtures"
	"github.com/probe-dev/probe/sdk/tensor"
)

// msprobe's run_ut output on the conv net's tensor dump (fp32 device; bench
// float64, float32 for conv2d), and the dump itself.
var (
	fixtureDetails = "msprobe-cpu-convnet/run_ut/convnet_tensor/accuracy_checking_details_20261130085813.csv"
	fixtureTensors = "msprobe-cpu-convnet/dumps/convnet_tensor/step0/rank/dump_tensor_data"
)

// fixtureRows reads the details CSV: row name → its 22 cells after the
// name (dtypes, shape, 17 metrics, status, message).
func fixtureRows(t *testing.T) (names []string, rows map[string][]string) {
	t.Helper()
	f, err := os.Open(fixtures.Path(t, fixtureDetails))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = map[string][]string{}
	for _, r := range recs[1:] {
		names = append(names, r[0])
		rows[r[0]] = r[1:]
	}
	return names, rows
}

func parseShape(t *testing.T, s string) []int {
	s = strings.Trim(s, "()")
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("shape %q", s)
		}
		out = append(out, v)
	}
	return out
}

// TestFixtureColumnSets: for every compared row of msprobe's conv-net CSV,
// a synthetic pair with the row's dtypes, shape and API fills exactly the
// columns msprobe filled (conv2d → thousandth, batch_norm, max_pool2d,
// log_softmax, nll_loss, adaptive_avg_pool2d, clone, ones_like → benchmark,
// linear → ULP, float add_ → absolute threshold, relu/flatten → binary,
// int64 add_ → binary only), with the same status.
func TestFixtureColumnSets(t *testing.T) {
	names, rows := fixtureRows(t)
	seen := map[string]bool{}
	for _, name := range names {
		r := rows[name]
		if r[20] == Skip {
			continue
		}
		api := strings.Split(name, ".")[1]
		bdt, err1 := tensor.Parse(r[0])
		ddt, err2 := tensor.Parse(r[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: dtypes %q %q", name, r[0], r[1])
		}
		shape := parseShape(t, r[2])
		n := tensor.NumElements(shape)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = 0.5 + float64(i%7)/8 // identical sides, as after a deterministic op
		}
		var bench, dev *tensor.Tensor
		if ddt.IsFloat() {
			dev = tensor.FromFloat64s(ddt, shape, vals)
			bench = dev.Cast(bdt)
		} else {
			ints := make([]int64, n)
			bench, dev = tensor.FromInt64s(bdt, shape, ints), tensor.FromInt64s(ddt, shape, ints)
		}
		for _, s := range []PyTorch{{}, {Compat: true}} {
			row := s.Judge(Pair{API: api, Bench: bench, Device: dev})
			for c := range NumMetrics {
				if row.Metrics[c].Set() != (r[3+c] != " ") {
					t.Errorf("%s (compat %v): column %d set=%v, msprobe %q", name, s.Compat, c+5, row.Metrics[c].Set(), r[3+c])
				}
			}
			if row.Status != r[20] || row.Message != r[21] || row.BenchDType != r[0] || row.DeviceDType != r[1] || row.Shape != r[2] {
				t.Errorf("%s: row %+v, msprobe %q", name, row, r)
			}
		}
		seen[api] = true
	}
	for _, api := range []string{"conv2d", "batch_norm", "max_pool2d", "log_softmax", "nll_loss", "linear", "add_", "relu", "flatten"} {
		if !seen[api] {
			t.Errorf("fixture has no compared %s row", api)
		}
	}
}

func loadPT(t *testing.T, name string) *tensor.Tensor {
	t.Helper()
	x, err := tensorload.Load(fixtures.Path(t, fixtureTensors), name, tensor.Invalid)
	if err != nil {
		t.Fatalf("fixture tensor: %v", err)
	}
	return x
}

// TestFixtureValues reproduces msprobe's numbers for the rows whose float64
// bench is easy to compute here from the dumped inputs; the device side is
// the dumped fp32 output (msprobe's CPU "device" run recomputes the same op
// in the same dtype on the same machine). Fixed cells agree to within 2 units
// of the 14th decimal (the bench here is not torch's float64 kernel).
func TestFixtureValues(t *testing.T) {
	_, rows := fixtureRows(t)
	f64 := func(x *tensor.Tensor) []float64 { return x.Float64s() }
	bench := map[string]func() []float64{
		"Functional.linear.0.forward.output.0": func() []float64 {
			x, w, b := f64(loadPT(t, "Functional.linear.0.forward.input.0.pt")), f64(loadPT(t, "Functional.linear.0.forward.input.1.pt")), f64(loadPT(t, "Functional.linear.0.forward.input.2.pt"))
			out := make([]float64, 2*10)
			for i := range 2 {
				for o := range 10 {
					s := b[o]
					for k := range 8 {
						s += x[i*8+k] * w[o*8+k]
					}
					out[i*10+o] = s
				}
			}
			return out
		},
		"Functional.log_softmax.0.forward.output.0": func() []float64 {
			x := f64(loadPT(t, "Functional.log_softmax.0.forward.input.0.pt"))
			out := make([]float64, len(x))
			for i := range 2 {
				row := x[i*10 : i*10+10]
				m := math.Inf(-1)
				for _, v := range row {
					m = math.Max(m, v)
				}
				var s float64
				for _, v := range row {
					s += math.Exp(v - m)
				}
				for j, v := range row {
					out[i*10+j] = v - m - math.Log(s)
				}
			}
			return out
		},
		"Functional.nll_loss.0.forward.output.0": func() []float64 {
			x := f64(loadPT(t, "Functional.nll_loss.0.forward.input.0.pt"))
			tg := loadPT(t, "Functional.nll_loss.0.forward.input.1.pt").Int64s()
			return []float64{-(x[int(tg[0])] + x[10+int(tg[1])]) / 2}
		},
		"Functional.relu.0.forward.output.0": func() []float64 {
			x := f64(loadPT(t, "Functional.relu.0.forward.input.0.pt"))
			for i, v := range x {
				x[i] = math.Max(v, 0)
			}
			return x
		},
		"Tensor.flatten.0.forward.output.0": func() []float64 {
			return f64(loadPT(t, "Tensor.flatten.0.forward.input.0.pt"))
		},
		"Functional.batch_norm.0.forward.output.0": func() []float64 {
			x := f64(loadPT(t, "Functional.batch_norm.0.forward.input.0.pt"))
			w, b := f64(loadPT(t, "Functional.batch_norm.0.forward.input.3.pt")), f64(loadPT(t, "Functional.batch_norm.0.forward.input.4.pt"))
			const n, c, hw = 2, 4, 64
			out := make([]float64, len(x))
			for ch := range c {
				var mean, v float64
				for i := range n {
					for j := range hw {
						mean += x[(i*c+ch)*hw+j]
					}
				}
				mean /= n * hw
				for i := range n {
					for j := range hw {
						d := x[(i*c+ch)*hw+j] - mean
						v += d * d
					}
				}
				inv := 1 / math.Sqrt(v/(n*hw)+1e-5)
				for i := range n {
					for j := range hw {
						k := (i*c+ch)*hw + j
						out[k] = (x[k]-mean)*inv*w[ch] + b[ch]
					}
				}
			}
			return out
		},
	}
	for i := 2; i <= 11; i++ {
		p := "Tensor.add_." + strconv.Itoa(i) + ".forward."
		bench[p+"output.0"] = func() []float64 {
			a, b := f64(loadPT(t, p+"input.0.pt")), f64(loadPT(t, p+"input.1.pt"))
			for j := range a {
				a[j] += -0.01 * b[j] // alpha = -0.01 (the SGD step)
			}
			return a
		}
	}
	for name, fn := range bench {
		want, ok := rows[name]
		if !ok {
			t.Errorf("%s: not in the fixture", name)
			continue
		}
		dev := loadPT(t, strings.TrimSuffix(name, "output.0")+"output.0.pt")
		b := tensor.FromFloat64s(tensor.Float64, dev.Shape, fn())
		api := strings.Split(name, ".")[1]
		for _, s := range []PyTorch{{}, {Compat: true}} {
			row := s.Judge(Pair{API: api, Bench: b, Device: dev})
			checkRow(t, name, row, want[3:20], 2e-14)
			if row.Status != want[20] || row.Message != want[21] {
				t.Errorf("%s: %s %q", name, row.Status, row.Message)
			}
		}
	}
}
