package standard

import (
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Threshold constants of pytorch-precheck §6.2 that do not depend on the
// dtype.
const (
	// CosineThreshold: the legacy tree needs cosine > 0.99.
	CosineThreshold = 0.99
	// MaxAbsErrThreshold: a max absolute error < 0.001 passes at once.
	MaxAbsErrThreshold = 0.001
	// HundredThreshold, ThousandThreshold and TenThousandThreshold are the
	// relative-error bounds of the double-hundred/thousand/ten-thousand
	// ratios (§6.6); a ratio passes iff it is > 1 − threshold.
	HundredThreshold     = 0.01
	ThousandThreshold    = 0.001
	TenThousandThreshold = 0.0001
	// BF16ThousandThreshold replaces ThousandThreshold in the legacy
	// tree's bfloat16 pass/warning step (probe's default; msprobe uses
	// 0.001). 0.001 is below bfloat16's own rounding unit: a correctly
	// rounded bfloat16 result has relative errors up to 2^-8 ≈ 0.0039, so
	// msprobe warns on a perfect kernel. 2^-8 is the bfloat16 rtol of the
	// precision standard (§6.2).
	BF16ThousandThreshold = 0x1p-8

	// ThousandthPass is the thousandth standard's pass value (§6.12):
	// api_precision_compare passes iff 双千指标 ≥ 0.999.
	ThousandthPass = 0.999

	// AccumulativeSmallValue is the accumulative standard's small-value
	// threshold for every dtype (§6.2, §6.11).
	AccumulativeSmallValue = 1.0

	// Benchmark ratio error thresholds of api_precision_compare (§6.2,
	// §10.5): NPU/GPU ratios above these are errors.
	SmallValueErrRatioThreshold = 2.0
	RMSERatioThreshold          = 2.0
	MaxRelErrRatioThreshold     = 10.0
	MeanRelErrRatioThreshold    = 2.0
	EBRatioThreshold            = 2.0
	// BenchmarkWarningRatio is the "warning" ratio threshold that exists in
	// msprobe's code but is never used (§6.2).
	BenchmarkWarningRatio = 1.0

	// ULPMeanThresholdFP32: an fp32 ULP mean < 64 passes (§10.5).
	ULPMeanThresholdFP32 = 64.0
	// ULPProportionThresholdFP32: an fp32 ULP proportion < 0.05 passes.
	ULPProportionThresholdFP32 = 0.05
	// ULPProportionThresholdHalf: fp16/bf16/fp8 ULP proportion < 0.001
	// passes.
	ULPProportionThresholdHalf = 0.001
	// ULPProportionRatioThreshold: an NPU/GPU proportion ratio < 1 passes.
	ULPProportionRatioThreshold = 1.0

	// BF16Eps is bfloat16's epsilon as msprobe uses it (2^-8, §6.2/§6.3).
	BF16Eps = 0x1p-8
	// BF16Max is bfloat16's finite range as msprobe uses it (§6.9).
	BF16Max = 3.3895313892515355e+38

	// MsprobeHalfAtol is the 1e-16 small-value atol msprobe's code uses
	// where the user guide says 2^-16 (§6.2, §12 #8).
	MsprobeHalfAtol = 1e-16
	// DocumentedHalfAtol is the user guide's fp16/bf16 small-value atol.
	DocumentedHalfAtol = 0x1p-16
)

// dtypeClass buckets a dtype string for the §6.2 table.
type dtypeClass int

const (
	classOther dtypeClass = iota
	classFP16
	classBF16
	classFP32
)

func classify(dtype string) dtypeClass {
	switch dtypeKey(dtype) {
	case "float16":
		return classFP16
	case "bfloat16":
		return classBF16
	case "float32":
		return classFP32
	}
	return classOther
}

// pick returns the column of the §6.2 table for dtype: fp16, bf16, fp32,
// default (every other dtype).
func pick(dtype string, fp16, bf16, fp32, other float64) float64 {
	switch classify(dtype) {
	case classFP16:
		return fp16
	case classBF16:
		return bf16
	case classFP32:
		return fp32
	}
	return other
}

// SmallValue is the small-value threshold of the benchmark and absolute
// threshold standards: fp16/bf16 2^-10, fp32 and others 2^-20. dtype may be
// spelled "torch.float16", "float16" or "Float16" (as for every function
// here).
func SmallValue(dtype string) float64 {
	return pick(dtype, 0x1p-10, 0x1p-10, 0x1p-20, 0x1p-20)
}

// AbsThreshAtol is msprobe's small-value atol of the absolute threshold
// standard: fp16 2^-16, bf16 1e-16 [quirk], fp32 and others 2^-30.
func AbsThreshAtol(dtype string) float64 {
	return pick(dtype, 0x1p-16, MsprobeHalfAtol, 0x1p-30, 0x1p-30)
}

// BenchmarkAtol is msprobe's small-value atol of the benchmark standard
// (also the fallback of the others): fp16 and bf16 1e-16 [quirk], fp32 and
// others 2^-30.
func BenchmarkAtol(dtype string) float64 {
	return pick(dtype, MsprobeHalfAtol, MsprobeHalfAtol, 0x1p-30, 0x1p-30)
}

// DocumentedAtol is the user guide's small-value atol used by probe's
// default (non-compat) standard for both the benchmark and the absolute
// threshold standards (§12 #8): fp16/bf16 2^-16, fp32 and others 2^-30.
func DocumentedAtol(dtype string) float64 {
	return pick(dtype, DocumentedHalfAtol, DocumentedHalfAtol, 0x1p-30, 0x1p-30)
}

// RTol is the absolute threshold standard's relative tolerance: fp16
// 2^-10, bf16 2^-8, fp32 and others 2^-20.
func RTol(dtype string) float64 {
	return pick(dtype, 0x1p-10, 0x1p-8, 0x1p-20, 0x1p-20)
}

// AccumulativeBound is the accumulative standard's error bound: fp16 2^-8,
// bf16 2^-7, fp32 and others 2^-11.
func AccumulativeBound(dtype string) float64 {
	return pick(dtype, 0x1p-8, 0x1p-7, 0x1p-11, 0x1p-11)
}

// MinimumError is the denominator floor of api_precision_compare's NPU/GPU
// ratios: fp16 2^-11, bf16 2^-8, fp32 and others 2^-14.
func MinimumError(dtype string) float64 {
	return pick(dtype, 0x1p-11, 0x1p-8, 0x1p-14, 0x1p-14)
}

// AccumulativeEBThreshold is api_precision_compare's EB bound of the
// accumulative standard: fp16 2^-20, bf16 2^-7, fp32 and others 2^-14.
func AccumulativeEBThreshold(dtype string) float64 {
	return pick(dtype, 0x1p-20, 0x1p-7, 0x1p-14, 0x1p-14)
}

// ULPErrThreshold is the per-element ULP threshold ("ulp > thr" counts in
// the proportion): fp32 32, every other dtype 1.
func ULPErrThreshold(dtype string) float64 {
	return pick(dtype, 1, 1, 32, 1)
}

// ULPProportionThreshold is the ULP proportion below which
// api_precision_compare passes: exactly "torch.float32" 0.05, else 0.001.
func ULPProportionThreshold(dtype string) float64 {
	if classify(dtype) == classFP32 {
		return ULPProportionThresholdFP32
	}
	return ULPProportionThresholdHalf
}

// BenchmarkRatio is api_precision_compare's calc_ratio (§10.5 step 3):
// |npu| / max(|gpu|, MinimumError(dtype)). Callers handle inf/NaN first.
func BenchmarkRatio(npu, gpu float64, dtype string) float64 {
	return math.Abs(npu) / math.Max(math.Abs(gpu), MinimumError(dtype))
}

// ulpShape returns the mantissa bits and minimum normal exponent of a
// floating-point dtype (ok false for other dtypes).
func ulpShape(dt tensor.DType) (mant, minExp int, ok bool) {
	switch dt {
	case tensor.Float16:
		return 10, -14, true
	case tensor.BFloat16:
		return 7, -126, true
	case tensor.Float32:
		return 23, -126, true
	case tensor.Float64:
		return 52, -1022, true
	}
	return 0, 0, false
}

// ulpAt is the spacing of a dtype with mant mantissa bits and minimum
// normal exponent minExp at |x| (the subnormal spacing near zero).
func ulpAt(x float64, mant, minExp int) float64 {
	_, e := math.Frexp(x) // |x| = f·2^e, f in [0.5, 1): floor(log2|x|) = e−1
	if x == 0 {
		e = minExp + 1
	}
	return math.Ldexp(1, max(e-1, minExp)-mant)
}
