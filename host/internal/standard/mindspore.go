package standard

import (
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/tensor"
)

// MindSpore is the MindSpore checker's standard (mindspore-precheck §6):
// cosine > 0.99 and max absolute error < 0.001; the max relative error is
// informational. Metric values are printed like Python's repr of a float.
//
// By default an element of a floating-point output whose absolute error is
// not below 0.001 still passes when the error is below one ULP of the
// tested dtype at the bench value (the ULP error of pytorch-precheck §6.10
// is < 1): probe's bench is float64, and an absolute 0.001 is finer than a
// correctly rounded bfloat16 value above 0.5 (or float16 above 4) can be,
// so msprobe's rule fails every correct kernel with large outputs. The
// ColMaxAbsErr column is the plain max absolute error either way.
type MindSpore struct {
	// Compat selects msprobe's rule: max absolute error < 0.001, whatever
	// the dtype.
	Compat bool
}

// MindSpore row messages (exact, with their trailing spaces).
const (
	msCosError    = "cosine similarity is less than threshold: 0.99 "
	msCosSkip     = "two inputs are not valid for computing cosine similarity, skip comparing "
	msMaxAbsError = "max absolute difference is greater than threshold: 0.001 "
	msMaxAbsSkip  = "two inputs are not valid for computing max absolute difference, skip comparing "
)

// Judge implements Standard. Columns used: ColCosine, ColMaxAbsErr,
// ColMaxRelErr.
func (s MindSpore) Judge(p Pair) Row {
	b, d := p.Bench, p.Device
	if b == nil || d == nil || b.Validate() != nil || d.Validate() != nil {
		return Row{Status: Error, Message: msCosSkip + msMaxAbsSkip}
	}
	row := Row{BenchDType: b.DType.MindSporeName(), DeviceDType: d.DType.MindSporeName(), Shape: tensor.ShapeString(b.Shape)}
	if !slices.Equal(b.Shape, d.Shape) {
		row.Status, row.Message = Error, msCosSkip+msMaxAbsSkip
		return row
	}
	n := b.Len()
	const eps = 1e-8
	var dot, nb, nd float64
	mae, mre := math.Inf(-1), math.Inf(-1)
	nanAbs, nanRel := false, false
	mant, minExp, ulpRule := ulpShape(d.DType)
	ulpRule = ulpRule && !s.Compat
	over := false // an element with error ≥ 0.001 and ≥ 1 ULP (ulpRule)
	var bb, dd [blockLen]float64
	for off := 0; off < n; off += blockLen {
		m := min(blockLen, n-off)
		decodeFloats(b, off, bb[:m])
		decodeFloats(d, off, dd[:m])
		for i := 0; i < m; i++ {
			bv, dv := bb[i], dd[i]
			dot += bv * dv
			nb += bv * bv
			nd += dv * dv
			e := math.Abs(bv - dv)
			den := math.Abs(bv)
			if bv == 0 {
				den = eps
			}
			r := e / den
			if math.IsNaN(e) {
				nanAbs = true
			} else if e > mae {
				mae = e
			}
			if ulpRule && !(e < MaxAbsErrThreshold) && !(e < ulpAt(bv, mant, minExp)) {
				over = true
			}
			if math.IsNaN(r) {
				nanRel = true
			} else if r > mre {
				mre = r
			}
		}
	}
	cos := (eps + dot) / (eps + math.Sqrt(nb)*math.Sqrt(nd))
	if nanAbs {
		mae = math.NaN()
	}
	if nanRel {
		mre = math.NaN()
	}
	row.Metrics[ColCosine] = Metric{Format: Shortest, V: cos}
	if n == 0 {
		// NumPy's max of an empty array raises: the direction is SKIP in
		// msprobe; here the row says why instead.
		row.Status, row.Message = Error, msMaxAbsSkip
		return row
	}
	row.Metrics[ColMaxAbsErr] = Metric{Format: Shortest, V: mae}
	row.Metrics[ColMaxRelErr] = Metric{Format: Shortest, V: mre}
	cosOK, maeOK := cos > CosineThreshold, mae < MaxAbsErrThreshold
	if ulpRule {
		// msprobe's message stays true: a failing element's error is ≥ 0.001.
		maeOK = !nanAbs && !over
	}
	row.Status = Pass
	if !cosOK || !maeOK {
		row.Status = Error
		if !cosOK {
			row.Message += msCosError
		}
		if !maeOK {
			row.Message += msMaxAbsError
		}
	}
	return row
}
