package report

import (
	"math"
	"testing"

	"github.com/probe-dev/probe/host/internal/standard"
)

func TestPyRepr(t *testing.T) {
	cases := []struct {
		v    float64
		bits int
		want string
	}{
		{0, 64, "0.0"}, {1, 64, "1.0"}, {123456789, 64, "123456789.0"}, {0.0001, 64, "0.0001"},
		{1e-5, 64, "1e-05"}, {1.5e-7, 64, "1.5e-07"}, {1e16, 64, "1e+16"}, {-2.5, 64, "-2.5"},
		{0.1, 64, "0.1"}, {math.NaN(), 64, "nan"}, {math.Inf(-1), 64, "-inf"},
		// NumPy float32 str (values from spec §7.5).
		{float64(float32(0.0078125)), 32, "0.0078125"}, {float64(float32(0.099609375)), 32, "0.099609375"},
		{float64(float32(6.6666665)), 32, "6.6666665"}, {102, 32, "102.0"},
		{float64(float32(1.9984152e-05)), 32, "1.9984152e-05"}, {float64(float32(1e-4)), 32, "1e-04"},
		{float64(float32(0.06213379)), 32, "0.06213379"}, {1.5e16, 32, "1.5e+16"},
	}
	for _, c := range cases {
		if got := PyRepr(c.v, c.bits); got != c.want {
			t.Errorf("PyRepr(%v, %d) = %q, want %q", c.v, c.bits, got, c.want)
		}
	}
}

func TestFormatMetricFixed(t *testing.T) {
	cases := []struct {
		m    standard.Metric
		want string
	}{
		{standard.Metric{Format: standard.Fixed, V: 1}, "1.00000000000000"},
		{standard.Metric{Format: standard.Fixed, V: 5.836503e-08}, "0.00000005836503"},
		{standard.Metric{Format: standard.Fixed, V: 83886}, "83886.00000000000000"},
		{standard.Metric{Format: standard.Fixed, V: math.Inf(1)}, "inf"},
		{standard.Metric{Format: standard.Integer, V: 0}, "0"},
		{standard.Metric{}, " "},
	}
	for _, c := range cases {
		if got := FormatMetric(c.m, 14); got != c.want {
			t.Errorf("FormatMetric(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
}
