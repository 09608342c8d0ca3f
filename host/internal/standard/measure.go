package standard

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Stats holds every metric of one float output pair, as computed by
// Measure in a single streaming pass. Each value is in float64 and already
// rounded the way NumPy's arrays of the pair's dtypes would have rounded it
// (float32 arithmetic where msprobe's arrays are float32). The Has* fields
// say whether the metric's subset was non-empty: msprobe prints the Python
// integer 0 instead of a ratio when it is not.
type Stats struct {
	// N is the number of elements.
	N int

	// Cosine similarity (§6.4). CosineSet is false when the value is SPACE
	// (a scalar or an all-zero side); CosineOK is the "> 0.99" verdict;
	// CosineMsg the message fragment (may be empty).
	Cosine    float64
	CosineSet bool
	CosineOK  bool
	CosineMsg string

	// MaxAbsErr is max |d−b| (NaN if any element is NaN), §6.5.
	MaxAbsErr float64
	// Hundred, Thousand and TenThousand are the shares of elements whose
	// rel_err_orig is < 0.01, 0.001, 0.0001 (§6.6; Thousand is also the
	// thousandth standard, §6.12).
	Hundred, Thousand, TenThousand float64
	// ThousandBF16 is the share of elements whose rel_err_orig is <
	// BF16ThousandThreshold (2^-8): the legacy tree's bfloat16 verdict in
	// probe's default mode. It is not a CSV column.
	ThousandBF16 float64

	// BinaryErrRate is count(b ≠ d)/N (§6.7).
	BinaryErrRate float64

	// Benchmark standard (§6.8).
	EB                 float64
	RMSE               float64
	SmallValueErrRatio float64
	HasSmall           bool
	MaxRelErr          float64
	MeanRelErr         float64
	HasRelErr          bool

	// Absolute threshold standard (§6.9).
	InfNanErrRate float64
	HasInfNan     bool
	RelErrRate    float64
	HasNormal     bool
	AbsErrRate    float64
	HasSmallAbs   bool

	// ULP standard (§6.10).
	ULPMax, ULPMean, ULPRatio float64

	// Accumulative error standard (§6.11); its EB is EB above.
	AccInfNanErrRate float64
	AccHasInfNan     bool
	AccRelErrRate    float64
	AccHasNormal     bool
	AccAbsErrRate    float64
	AccHasSmall      bool

	// Float32Err says abs_err and the relative errors are NumPy float32
	// values (the promoted dtype of the two arrays is float32), Float32ULP
	// that the ULP errors are.
	Float32Err bool
	Float32ULP bool
}

// Measure computes the metric families g of a float pair in one streaming
// pass over the little-endian bytes of both tensors (split in fixed 1 Mi
// element chunks over at most two goroutines, merged in chunk order, so the
// result does not depend on the machine). Both tensors must be valid float
// tensors with the same number of elements. The cosine drops the spec's
// max-abs normalisation (cosine is scale invariant); it rescans the tensors
// only when the sums of squares cannot decide it: when one is not finite (a
// NaN or an infinity, or finite values beyond ~1e154 whose squares
// overflow) or when all values are below ~1e-15 (the all-zero tests need the
// exact max |x|). Then a pass finds max |x| of both sides, and for finite
// values a third computes the spec's normalised formulation.
func Measure(bench, device *tensor.Tensor, g Group, o Options) Stats {
	return newPlan(bench.DType, device.DType, o.Compat).measure(bench, device, g)
}

// measure is Measure under plan p. The plan's dtypes (which decide the
// thresholds and the NumPy rounding) need not be the tensors' own: msprobe's
// unit tests pass float32 arrays with a bf16 device dtype.
func (p *plan) measure(bench, device *tensor.Tensor, g Group) Stats {
	a := p.run(bench, device, g)
	s := Stats{N: a.n, Float32Err: p.f32, Float32ULP: p.ulpF32}
	if g&GroupLegacy != 0 {
		p.finishLegacy(&a, &s, bench, device)
	}
	fn := float64(a.n)
	ratio := func(k, of int) float64 {
		if of == 0 {
			return 0
		}
		return float64(k) / float64(of)
	}
	if g&GroupBinary != 0 {
		s.BinaryErrRate = ratio(a.neq, a.n)
	}
	if g&(GroupBenchmark|GroupAccumulative) != 0 && a.n > 0 {
		s.EB = math.Abs(float64(a.pos-a.neg)) / fn
	}
	if g&GroupBenchmark != 0 && a.n > 0 {
		s.HasSmall = a.small > 0
		s.SmallValueErrRatio = ratio(a.smallErr, a.small)
		mse := a.sq / fn
		if p.f32 {
			mse = float64(float32(mse))
			if a.n <= seqMax { // masked elements add exact zeros
				mse = float64(float32(seqSum(a.sqFirst[:a.reCnt]) / fn))
			}
		}
		mse *= fn/(fn-float64(a.masked)+0.0001) + 0.0001
		s.RMSE = math.Sqrt(mse)
		if a.reCnt > 0 {
			s.HasRelErr = true
			s.MaxRelErr = math.Max(a.reMax, 0)
			s.MeanRelErr = a.reSum / float64(a.reCnt)
			if p.f32 {
				s.MeanRelErr = float64(float32(s.MeanRelErr))
				if a.reCnt <= seqMax {
					s.MeanRelErr = float64(float32(seqSum(a.reFirst[:a.reCnt]) / float64(a.reCnt)))
				}
			}
		}
	}
	if g&GroupAbsolute != 0 {
		s.HasInfNan, s.InfNanErrRate = a.absInfNan > 0, ratio(a.absInfNanFail, a.absInfNan)
		s.HasNormal, s.RelErrRate = a.absNormal > 0, ratio(a.absNormalFail, a.absNormal)
		s.HasSmallAbs, s.AbsErrRate = a.absSmall > 0, ratio(a.absSmallErr, a.absSmall)
	}
	if g&GroupAccumulative != 0 {
		s.AccHasInfNan, s.AccInfNanErrRate = a.accInfNan > 0, ratio(a.accInfNanFail, a.accInfNan)
		s.AccHasNormal, s.AccRelErrRate = a.accNormal > 0, ratio(a.accNormalFail, a.accNormal)
		s.AccHasSmall, s.AccAbsErrRate = a.accSmall > 0, ratio(a.accSmallErr, a.accSmall)
	}
	if g&GroupULP != 0 && a.n > 0 {
		s.ULPMax = a.ulpMax
		if a.ulpNaN {
			s.ULPMax = math.NaN()
		}
		s.ULPMean = a.ulpSum / fn
		if p.ulpF32 {
			s.ULPMean = float64(float32(s.ULPMean))
			if a.n <= seqMax {
				s.ULPMean = float64(float32(seqSum(a.ulpFirst[:a.n]) / fn))
			}
		}
		s.ULPRatio = float64(a.ulpOver) / fn
	}
	return s
}

func (p *plan) finishLegacy(a *accum, s *Stats, bench, device *tensor.Tensor) {
	s.MaxAbsErr = a.mae
	if a.maeNaN {
		s.MaxAbsErr = math.NaN()
	}
	if a.n == 0 {
		s.Hundred, s.Thousand, s.TenThousand, s.ThousandBF16 = 1, 1, 1, 1
	} else {
		fn := float64(a.n)
		s.Hundred, s.Thousand, s.TenThousand = float64(a.lt2)/fn, float64(a.lt3)/fn, float64(a.lt4)/fn
		s.ThousandBF16 = float64(a.lt3bf) / fn
	}
	// The cosine's all-zero tests need max |x| ≤ E of each side, and the
	// unnormalised formula dot/(|d||b|) needs finite, non-degenerate sums.
	// max² ≤ Σx² ≤ n·max², so the sums decide both in all but rare cases:
	// Σx² = 0 means all zero; Σx² > 2n·E² means max > E (the factor 2
	// absorbs the sum's rounding); otherwise, or when a sum is not finite
	// (inf/NaN, or overflow), maxPass finds the exact maxima.
	const e = 2.220446049250313e-16
	zeroish := func(ss float64) bool { return ss <= 2*float64(a.n)*e*e }
	mn, mg, nonFin := 1.0, 1.0, false // placeholders > E
	exact := !finite(a.nn) || !finite(a.gg) || zeroish(a.nn) && a.nn != 0 || zeroish(a.gg) && a.gg != 0
	if exact {
		mn, mg, nonFin = maxPass(bench, device)
	} else {
		if a.nn == 0 {
			mn = 0
		}
		if a.gg == 0 {
			mg = 0
		}
	}
	var cos float64
	set, ok, msg := cosinePrelude(a.n, a.n, mn, mg)
	if set {
		switch {
		case nonFin:
			cos = math.NaN()
		case exact:
			// finite values whose sums overflow (or are tiny): the spec's
			// normalised formulation
			cos = normalisedCosine(bench, device, mn, mg)
		default:
			cos = a.dot / (math.Sqrt(a.nn) * math.Sqrt(a.gg))
		}
		cos, ok, msg = cosineVerdict(cos)
	}
	s.Cosine, s.CosineSet, s.CosineOK, s.CosineMsg = cos, set, ok, msg
}

// cosinePrelude is steps 1-3 of §6.4 from the lengths and the max |x| of
// both sides (NaN when a side holds a NaN). set reports whether the value
// must still be computed; otherwise ok and msg are final.
func cosinePrelude(nDev, nBench int, mn, mg float64) (set, ok bool, msg string) {
	const e = 2.220446049250313e-16
	switch {
	case nDev != nBench:
		return false, false, fmt.Sprintf("Shape of device and bench outputs don't match. device: (%d,), bench: (%d,).", nDev, nBench)
	case nDev == 1:
		return false, true, "All the data in device dump data is scalar. Please refer to other compare algorithms."
	case mn <= e && mg <= e:
		return false, true, "All the data in device and bench outputs are zero."
	case mn <= e:
		return false, false, "All the data is zero in device dump data."
	case mg <= e:
		return false, false, "All the data is zero in bench dump data."
	}
	return true, false, ""
}

// cosineVerdict is step 4 of §6.4 after the raw value: NaN gets the message,
// the value is clipped to [-1, 1], ok iff > 0.99.
func cosineVerdict(cos float64) (float64, bool, string) {
	if math.IsNaN(cos) {
		return cos, false, "Dump data has NaN when comparing with Cosine Similarity."
	}
	cos = math.Max(-1, math.Min(1, cos))
	return cos, cos > CosineThreshold, ""
}

// normalisedCosine is the spec's formulation (each side divided by its max
// |x| first), used as the overflow-safe fallback: a second pass.
func normalisedCosine(bench, device *tensor.Tensor, mn, mg float64) float64 {
	var bb, dd [blockLen]float64
	var dot, nn, gg float64
	n := bench.Len()
	for off := 0; off < n; off += blockLen {
		m := min(blockLen, n-off)
		decodeFloats(bench, off, bb[:m])
		decodeFloats(device, off, dd[:m])
		for i := 0; i < m; i++ {
			x, y := dd[i]/mn, bb[i]/mg
			dot += x * y
			nn += x * x
			gg += y * y
		}
	}
	return dot / (math.Sqrt(nn) * math.Sqrt(gg))
}
