package standard

import (
	"fmt"
	"math"
	"strings"

	"github.com/probe-dev/probe/sdk/tensor"
)

// PyTorch is run_ut's decision tree (pytorch-precheck §5.3-§5.5): cosine,
// max absolute error and the double-hundred/thousand/ten-thousand ratios.
type PyTorch struct{}

// Legacy thresholds (pytorch-precheck §6.2).
const (
	cosThreshold    = 0.99
	maxAbsThreshold = 0.001
)

// Judge implements Standard.
func (PyTorch) Judge(p Pair) Row {
	b, d := p.Bench, p.Device
	row := Row{BenchDType: b.DType.TorchName(), DeviceDType: d.DType.TorchName(), Shape: tensor.ShapeString(d.Shape)}
	if !shapesEqual(b.Shape, d.Shape) {
		return row.fail(fmt.Sprintf("The shape of bench%s and npu%s not equal.", torchSize(b.Shape), torchSize(d.Shape)))
	}
	if !dtypesComparable(b.DType, d.DType) {
		return row.fail(fmt.Sprintf("Bench out dtype is %s but npu output dtype is %s, cannot compare.", numpyName(b.DType), numpyName(d.DType)))
	}
	n := b.Len()
	if n == 0 {
		return row.fail("There is not bench calculation result.")
	}
	if !b.DType.IsFloat() {
		rate := binaryErrorRate(b, d)
		row.Metrics[ColBinaryErrRate] = fixed(rate)
		row.Message = fmt.Sprintf("Compare algorithm is not supported for %s data. Only judged by Error Rate.\n", numpyName(b.DType))
		row.Status = Pass
		if rate != 0 {
			row.Status = Error
		}
		return row
	}

	var msg strings.Builder
	dt := d.DType
	if dt != tensor.Float16 && dt != tensor.BFloat16 && dt != tensor.Float32 {
		fmt.Fprintf(&msg, "The data type %s is not supported for new precision standard.", dt.TorchName())
	}
	bv, dv := b.Float64s(), d.Float64s()
	cos, ok, cosMsg := Cosine(bv, dv)
	row.Metrics[ColCosine] = cos
	msg.WriteString(cosMsg + "\n")
	done := func(status, m string) Row {
		msg.WriteString(m)
		row.Status, row.Message = status, msg.String()
		return row
	}
	if !ok {
		return done(Error, "Cosine similarity is less than 0.99, consider as error, skip other check and set to SPACE.\n")
	}
	eps := tensor.Eps(b.DType)
	if dt == tensor.BFloat16 {
		eps = 0x1p-8
	}
	mae, nanErr := 0.0, false
	var lt2, lt3, lt4 int
	for i := range bv {
		e := math.Abs(dv[i] - bv[i])
		if math.IsNaN(e) {
			nanErr = true
		} else if e > mae {
			mae = e
		}
		rel := math.Abs(e / (math.Abs(bv[i]) + eps))
		if rel < 0.01 {
			lt2++
		}
		if rel < 0.001 {
			lt3++
		}
		if rel < 0.0001 {
			lt4++
		}
	}
	if nanErr {
		mae = math.NaN()
	}
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		row.Metrics[ColMaxAbsErr] = f32(mae)
	} else {
		row.Metrics[ColMaxAbsErr] = fixed(mae)
	}
	if mae < maxAbsThreshold {
		return done(Pass, "Max abs error is less than 0.001, consider as pass, skip other check and set to SPACE.\n")
	}
	fn := float64(n)
	half := dt == tensor.Float16 || dt == tensor.BFloat16
	if half {
		h := float64(lt2) / fn
		row.Metrics[ColHundred] = fixed(h)
		if !(h > 0.99) {
			return done(Error, "Relative error is greater than 0.01, consider as error, skip other check and set to SPACE.\n")
		}
	}
	t := float64(lt3) / fn
	row.Metrics[ColThousand] = fixed(t)
	if half {
		if t > 0.999 {
			return done(Pass, "Relative error is less than 0.001, consider as pass, skip other check and set to SPACE.\n")
		}
		return done(Warning, "Relative error is greater than 0.001, consider as warning, skip other check and set to SPACE.\n")
	}
	w := float64(lt4) / fn
	row.Metrics[ColTenThousand] = fixed(w)
	if dt == tensor.Float32 || dt == tensor.Float64 {
		if !(t > 0.999) {
			return done(Error, "Relative error is greater than 0.001, consider as error, skip other check and set to SPACE.\n")
		}
		if !(w > 0.9999) {
			return done(Warning, "Relative error is greater than 0.0001, consider as warning, skip other check and set to SPACE.\n")
		}
		msg.WriteString("Relative error is less than 0.0001, consider as pass.\n")
	}
	return done(Pass, "")
}

func (r Row) fail(msg string) Row {
	r.Status, r.Message = Error, msg
	return r
}

// Cosine is cosine similarity per pytorch-precheck §6.4: scalars and all-zero
// inputs give an unset value with a message; otherwise both vectors are
// normalised by their max-abs first, the result is clipped to [-1, 1], and ok
// means > 0.99.
func Cosine(bench, device []float64) (Metric, bool, string) {
	if len(bench) != len(device) {
		return fixed(-1), false, fmt.Sprintf("Shape of device and bench outputs don't match. device: (%d,), bench: (%d,).", len(device), len(bench))
	}
	if len(device) == 1 {
		return Metric{}, true, "All the data in device dump data is scalar. Please refer to other compare algorithms."
	}
	const e = 2.220446049250313e-16
	mn, mg := maxAbs(device), maxAbs(bench)
	switch {
	case mn <= e && mg <= e:
		return Metric{}, true, "All the data in device and bench outputs are zero."
	case mn <= e:
		return Metric{}, false, "All the data is zero in device dump data."
	case mg <= e:
		return Metric{}, false, "All the data is zero in bench dump data."
	}
	var dot, nn, gg float64
	for i := range device {
		a, b := device[i]/mn, bench[i]/mg
		dot += a * b
		nn += a * a
		gg += b * b
	}
	cos := dot / (math.Sqrt(nn) * math.Sqrt(gg))
	if math.IsNaN(cos) {
		return fixed(cos), false, "Dump data has NaN when comparing with Cosine Similarity."
	}
	cos = math.Max(-1, math.Min(1, cos))
	return fixed(cos), cos > cosThreshold, ""
}

// maxAbs returns max|x|, NaN if any element is NaN.
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		a := math.Abs(v)
		if math.IsNaN(a) {
			return a
		}
		if a > m {
			m = a
		}
	}
	return m
}

func binaryErrorRate(b, d *tensor.Tensor) float64 {
	n, bad := b.Len(), 0
	for i := 0; i < n; i++ {
		if b.Int64(i) != d.Int64(i) || b.At(i) != d.At(i) {
			bad++
		}
	}
	return float64(bad) / float64(n)
}

func shapesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// dtypesComparable is §5.4 step 4: both float, both in {bool, uint8}, or
// both in {int32, int64}.
func dtypesComparable(a, b tensor.DType) bool {
	group := func(d tensor.DType) int {
		switch {
		case d.IsFloat():
			return 1
		case d == tensor.Bool || d == tensor.Uint8:
			return 2
		case d == tensor.Int32 || d == tensor.Int64:
			return 3
		}
		return 0
	}
	return group(a) != 0 && group(a) == group(b)
}

// numpyName is the NumPy dtype name msprobe prints (bf16 is compared as
// float32, see §5.4 step 1).
func numpyName(d tensor.DType) string {
	if d == tensor.BFloat16 {
		return "float32"
	}
	return d.String()
}

func torchSize(shape []int) string {
	s := make([]string, len(shape))
	for i, v := range shape {
		s[i] = fmt.Sprint(v)
	}
	return "torch.Size([" + strings.Join(s, ", ") + "])"
}
