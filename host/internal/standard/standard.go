// Package standard holds the precision standard: the metrics that compare a
// device output with its bench output, and the verdict (pass, Warning,
// error) derived from them. Everything here is a pure function of the two
// tensors and the API name, so it can be tested against the spec's vectors.
package standard

import (
	"github.com/probe-dev/probe/sdk/tensor"
)

// Status strings as msprobe writes them.
const (
	Pass    = "pass"
	Warning = "Warning"
	Error   = "error"
	Skip    = "SKIP"
	Space   = " " // "not computed / not applicable"
)

// Format says how a metric value is written to CSV.
type Format int

// Formats of metric values (spec pytorch-precheck §7.5).
const (
	Unset    Format = iota // not computed: a single space
	Fixed                  // Python float: fixed-point with 14 decimals
	Float32                // NumPy float32 scalar: shortest round-trip text
	Integer                // an integer such as 0
	Shortest               // Python repr of a float64 (MindSpore CSVs)
)

// Metric is one computed value with the way msprobe prints it.
type Metric struct {
	Format Format
	V      float64
}

// Set reports whether the metric was computed.
func (m Metric) Set() bool { return m.Format != Unset }

// fixed, f32 and integer build metrics.
func fixed(v float64) Metric { return Metric{Format: Fixed, V: v} }
func f32(v float64) Metric   { return Metric{Format: Float32, V: float64(float32(v))} }

// Column indexes of the PyTorch details CSV metric block (columns 5..21).
const (
	ColCosine = iota
	ColMaxAbsErr
	ColHundred
	ColThousand
	ColTenThousand
	ColBinaryErrRate
	ColEB
	ColRMSE
	ColSmallValueErrRatio
	ColMaxRelErr
	ColMeanRelErr
	ColInfNanErrRate
	ColRelErrRate
	ColAbsErrRate
	ColULPMax
	ColULPMean
	ColULPRatio
	NumMetrics
)

// Pair is one output (or gradient) of an API on both sides.
type Pair struct {
	// API is the short API name ("conv2d", "__mul__") used to pick the
	// standard's category.
	API    string
	Bench  *tensor.Tensor
	Device *tensor.Tensor
}

// Row is the verdict on one output: the details CSV row minus its name.
type Row struct {
	BenchDType  string
	DeviceDType string
	Shape       string
	Metrics     [NumMetrics]Metric
	Status      string
	Message     string
}

// Standard judges one output pair.
type Standard interface {
	Judge(p Pair) Row
}

// Aggregate folds per-row statuses into the API-level status: any error →
// error, else any Warning → Warning, else pass. SKIP rows do not degrade it.
// (msprobe lets a later Warning overwrite an earlier error; that is fixed
// here, see docs/compat.md.)
func Aggregate(statuses []string) string {
	out := Pass
	for _, s := range statuses {
		switch s {
		case Error:
			out = Error
		case Warning:
			if out != Error {
				out = Warning
			}
		}
	}
	return out
}

// AggregateCompat is msprobe's API-level fold (pytorch-precheck §5.2): the
// rows are scanned in order from pass, an error row sets error and a Warning
// row sets Warning, so a later Warning overwrites an earlier error
// ([error, Warning] → Warning, §12 #1). pass and SKIP rows change nothing,
// so all-SKIP gives pass.
func AggregateCompat(statuses []string) string {
	out := Pass
	for _, s := range statuses {
		switch s {
		case Error:
			out = Error
		case Warning:
			out = Warning
		}
	}
	return out
}
