package devicetest

import (
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Tolerance is the allowed |got-want| of one expected value:
// ATol + RTol*|want| + ULP*tensor.ULP(dtype, want), where ulp is the unit in the
// last place of want in the compared tensor's dtype. Integer and bool
// values are always compared exactly; NaN must meet NaN and an infinity the
// same infinity, whatever the tolerance.
type Tolerance struct{ RTol, ATol, ULP float64 }

// allowed returns the largest |got-want| the tolerance accepts for an
// expected value want of dtype dt.
func (t Tolerance) allowed(dt tensor.DType, want float64) float64 {
	a := t.ATol
	if t.RTol != 0 && want != 0 {
		a += t.RTol * math.Abs(want)
	}
	if t.ULP != 0 {
		a += t.ULP * tensor.ULP(dt, want)
	}
	return a
}

// defaultTolerances are torch.testing.assert_close's defaults.
var defaultTolerances = map[tensor.DType]Tolerance{
	tensor.Float64:  {RTol: 1e-7, ATol: 1e-7},
	tensor.Float32:  {RTol: 1.3e-6, ATol: 1e-5},
	tensor.Float16:  {RTol: 1e-3, ATol: 1e-5},
	tensor.BFloat16: {RTol: 1.6e-2, ATol: 1e-5},
}

// DefaultTolerance is the dtype-aware default, loose enough for any correct
// kernel of a real device (GPU/NPU: another summation order, float32
// accumulation for float16 and bfloat16): torch.testing.assert_close's
// defaults (float64 rtol 1e-7 atol 1e-7; float32 rtol 1.3e-6 atol 1e-5;
// float16 rtol 1e-3 atol 1e-5; bfloat16 rtol 1.6e-2 atol 1e-5), each raised
// to the case's own rtol, atol and ulp fields where the case has them
// (c may be nil). dt is the dtype of the compared tensor (an output or an
// input gradient), not necessarily the call's. Integers and bools are exact:
// the zero Tolerance.
//
// float16's rtol 1e-3 admits one unit in the last place of any normal
// value (ulp/|x| ≤ 2⁻¹⁰ ≈ 0.98e-3), bfloat16's 1.6e-2 two (2·2⁻⁷ ≈ 1.56e-2),
// float32's 1.3e-6 about ten: a kernel that rounds a correct float32 (or
// float64) result once passes.
func DefaultTolerance(c *Case, dt tensor.DType) Tolerance {
	t := defaultTolerances[dt]
	if !dt.IsFloat() || c == nil {
		return t
	}
	if c.RTol != nil {
		t.RTol = math.Max(t.RTol, *c.RTol)
	}
	if c.ATol != nil {
		t.ATol = math.Max(t.ATol, *c.ATol)
	}
	if c.ULP != nil {
		t.ULP = math.Max(t.ULP, *c.ULP)
	}
	return t
}
