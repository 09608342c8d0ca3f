package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/host/internal/standard"
)

// FormatMetric writes a metric the way msprobe's CSVs hold it
// (pytorch-precheck §7.5, mindspore-precheck §7.3). precision is the number
// of decimals of fixed-point values (config.yaml's precision, default 14).
func FormatMetric(m standard.Metric, precision int) string {
	switch m.Format {
	case standard.Unset:
		return standard.Space
	case standard.Fixed:
		if s, ok := special(m.V); ok {
			return s
		}
		return strconv.FormatFloat(m.V, 'f', precision, 64)
	case standard.Float32:
		return PyRepr(m.V, 32)
	case standard.Integer:
		return strconv.FormatInt(int64(m.V), 10)
	case standard.Shortest:
		return PyRepr(m.V, 64)
	}
	return standard.Space
}

func special(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "nan", true
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	}
	return "", false
}

// PyRepr formats v like Python's repr of a float (bits 64) or NumPy's str of
// a float32 scalar (bits 32): the shortest digits that round-trip, fixed
// notation with at least one decimal when 1e-4 <= |v| < 1e16, otherwise
// scientific with a signed exponent of at least two digits.
func PyRepr(v float64, bits int) string {
	if s, ok := special(v); ok {
		return s
	}
	if v == 0 {
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(v, 'e', -1, bits) // d.ddde±XX
	neg := strings.HasPrefix(e, "-")
	e = strings.TrimPrefix(e, "-")
	mant, expS, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	sci := exp < -4 || exp >= 16 // Python: by the shortest digits' exponent
	if bits == 32 {
		a := math.Abs(v) // NumPy: by the value itself
		sci = a < 1e-4 || a >= 1e16
	}
	if sci {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		out = m + "e" + sign + es
	} else if exp < 0 {
		// e.g. float32 9.9999997e-05 has shortest digits "1" at 1e-04 but is
		// printed in scientific form above.
		out = "0." + strings.Repeat("0", -exp-1) + digits
	} else if len(digits) <= exp+1 {
		out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	} else {
		out = digits[:exp+1] + "." + digits[exp+1:]
	}
	if neg {
		out = "-" + out
	}
	return out
}
