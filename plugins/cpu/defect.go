package cpu

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Defect is an error planted in the emulated device: every float output
// (and input gradient) of op Op gets ULP units in the last place of its
// dtype added, then is multiplied by 1+RelErr. Defects are ignored in Bench
// mode.
type Defect struct {
	Op     string
	ULP    float64
	RelErr float64
}

// String formats the defect the way ParseDefect reads it.
func (d Defect) String() string {
	var parts []string
	if d.ULP != 0 {
		parts = append(parts, "ulp="+strconv.FormatFloat(d.ULP, 'g', -1, 64))
	}
	if d.RelErr != 0 {
		parts = append(parts, "rel="+strconv.FormatFloat(d.RelErr, 'g', -1, 64))
	}
	return d.Op + ":" + strings.Join(parts, ",")
}

// ParseDefect reads "OP:ulp=N", "OP:rel=X" or both ("gelu:ulp=64,rel=1e-3").
// OP must be a canonical op.
func ParseDefect(s string) (Defect, error) {
	op, spec, ok := strings.Cut(strings.TrimSpace(s), ":")
	op, spec = strings.TrimSpace(op), strings.TrimSpace(spec)
	if !ok || op == "" || spec == "" {
		return Defect{}, fmt.Errorf("defect %q: want OP:ulp=N or OP:rel=X", s)
	}
	if _, known := ops.Lookup(op); !known {
		return Defect{}, fmt.Errorf("defect %q: unknown op %q", s, op)
	}
	d := Defect{Op: op}
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return Defect{}, fmt.Errorf("defect %q: %q is not key=value", s, kv)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Defect{}, fmt.Errorf("defect %q: bad number %q", s, v)
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "ulp":
			d.ULP = x
		case "rel", "relerr":
			d.RelErr = x
		default:
			return Defect{}, fmt.Errorf("defect %q: unknown key %q (want ulp or rel)", s, k)
		}
	}
	return d, nil
}

// ParseDefects reads a list of defects separated by ';' or by ',' before a
// new "OP:" (so "gelu:ulp=64,add:rel=1e-3" and "gelu:ulp=64;add:rel=1e-3"
// are the same). An empty string gives no defects.
func ParseDefects(s string) ([]Defect, error) {
	var items []string
	for _, chunk := range strings.Split(s, ";") {
		for _, f := range strings.Split(chunk, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			if strings.Contains(f, ":") || len(items) == 0 {
				items = append(items, f)
			} else {
				items[len(items)-1] += "," + f
			}
		}
	}
	var out []Defect
	for _, it := range items {
		d, err := ParseDefect(it)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// applyDefects returns v with every defect for op applied (v itself when
// none applies). Only float dtypes are affected.
func applyDefects(defects []Defect, op string, d tensor.DType, v []float64) []float64 {
	if !d.IsFloat() {
		return v
	}
	var out []float64
	for _, df := range defects {
		if df.Op != op {
			continue
		}
		if out == nil {
			out = append([]float64(nil), v...)
		}
		for i, x := range out {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			if df.ULP != 0 {
				x += df.ULP * tensor.ULP(d, x)
			}
			if df.RelErr != 0 {
				x *= 1 + df.RelErr
			}
			out[i] = roundTo(d, x)
		}
	}
	if out == nil {
		return v
	}
	return out
}
