package compare

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/probe-dev/probe/host/internal/standard"
)

var nan = math.NaN()

// Output columns of api_precision_compare_details (0-based, §10.2).
const (
	dName = iota
	dSmallValueRatio
	dSmallValueStatus
	dRMSERatio
	dRMSEStatus
	dMaxRelRatio
	dMaxRelStatus
	dMeanRelRatio
	dMeanRelStatus
	dEBRatio
	dEBStatus
	dInfNanRate
	dInfNanStatus
	dRelErrRate
	dRelErrStatus
	dAbsErrRate
	dAbsErrStatus
	dErrorRate
	dErrorRateStatus
	dULPMean
	dULPRatio
	dULPRatioRatio
	dULPStatus
	dThousandth
	dThousandthStatus
	dResult
	dAlgorithm
	dMessage
	numDetailCols
)

// DetailsHeader is the header of api_precision_compare_details_<ts>.csv.
var DetailsHeader = []string{"API Name", "小值域错误比值", "小值域判定结果", "均方根误差比值", "均方根误差判定结果",
	"相对误差最大值比值", "相对误差最大值判定结果", "相对误差平均值比值", "相对误差平均值判定结果", "误差均衡性比值",
	"误差均衡性判定结果", "inf/nan错误率", "inf/nan判定结果", "相对误差错误率", "相对误差判定结果", "绝对误差错误率",
	"绝对误差判定结果", "二进制一致错误率", "二进制一致错误率判定结果", "ULP误差平均值", "ULP误差大于阈值占比",
	"ULP误差大于阈值占比比值", "ULP误差判定结果", "双千指标", "双千指标判定结果", "比对结果", "比对算法", "Message"}

// ResultHeader is the header of api_precision_compare_result_<ts>.csv
// (capital N, unlike run_ut's result CSV).
var ResultHeader = []string{"API Name", "Forward Test Success", "Backward Test Success", "Message"}

// Messages of msprobe's api_precision_compare (pytorch-precheck Appendix D.5).
const (
	MsgUnsupportedDType = "This data type does not support benchmark compare."
	msgTopK             = "在npu上，topk的入参sorted=False时不生效，会返回有序tensor，而cpu上会返回无序tensor。 如果topk精度不达标，请检查是否是该原因导致的。"
	msgULP              = "ERROR: ULP误差不满足标准\n"
	msgBinary           = "ERROR: 二进制一致错误率超过阈值\n"
	msgThousandth       = "ERROR: 双千指标不达标\n"
	msgEBAccumulative   = "ERROR: 误差均衡性超过阈值\n"
	fp32                = "torch.float32"
)

// unsupportedDTypes are the device dtypes api_precision_compare skips.
var unsupportedDTypes = map[string]bool{"torch.float64": true, "torch.complex64": true, "torch.complex128": true}

// newStandardDTypes are the exact dtype strings that §6.1 step 3 lets
// through to the Appendix B categories.
var newStandardDTypes = map[string]bool{"torch.float16": true, "torch.bfloat16": true, "torch.float32": true,
	"torch.float8_e4m3fn": true, "torch.float8_e5m2": true, "torch.float64": true, "torch.complex64": true,
	"torch.complex128": true}

// selectAlgorithm is §6.1 on the exact dtype strings of the CSV: a
// spelling msprobe's tables do not list (e.g. "float16") is not a
// new-standard float, as in msprobe.
func selectAlgorithm(api, outDType, inDType string) standard.Algorithm {
	if !standard.IsFP8(outDType) && !standard.IsFP8(inDType) && !newStandardDTypes[outDType] {
		return standard.AlgBinary
	}
	return standard.Select(api, outDType, inDType)
}

// thresholdDType maps a dtype string to the key of msprobe's §6.2 tables:
// only the exact torch spellings of fp16, bf16 and fp32 have their own
// column, everything else takes the default one.
func thresholdDType(d string) string {
	switch d {
	case "torch.float16", "torch.bfloat16", fp32:
		return d
	}
	return "other"
}

// pyError is an exception msprobe's per-row code raises; the row becomes a
// SKIP whose message is the exception text (§10.3 step 5).
type pyError struct {
	msg  string // str(exception), as msprobe writes it
	info string // where it came from, for probe's default mode and stderr
}

func (e *pyError) Error() string { return e.msg }

// row evaluates one NPU row against its GPU row (§10.4, §10.5).
type row struct {
	a      *analysis
	ni, gi int // NPU and GPU row index
	api    string
	det    []string
}

func (r *row) npu(col string) value { return r.a.npu.cell(r.ni, col, r.a.opt.Compat) }

// float is msprobe's convert_str_to_float on one cell.
func (r *row) float(t *Table, i int, col string) (float64, error) {
	v := t.cell(i, col, r.a.opt.Compat)
	switch v.k {
	case kFloat, kInt, kNA:
		return v.f, nil
	case kNone:
		return 0, &pyError{msg: fmt.Sprintf("'%s'", col), info: fmt.Sprintf("%s details CSV %s has no column %s", t.Side, t.Path, col)}
	}
	if strings.TrimFunc(v.s, unicode.IsSpace) == "" {
		return 0, &pyError{msg: msgEmpty, info: fmt.Sprintf("%s %s is blank", t.Side, t.where(i, col))}
	}
	f, ok := pyFloat(v.s)
	if !ok {
		return 0, &pyError{msg: msgNotANumber, info: fmt.Sprintf("%s %s: %q is not a number", t.Side, t.where(i, col), v.s)}
	}
	return f, nil
}

func (r *row) npuFloat(col string) (float64, error) { return r.float(r.a.npu, r.ni, col) }
func (r *row) gpuFloat(col string) (float64, error) { return r.float(r.a.gpu, r.gi, col) }

// blank is the test msprobe makes with str.isspace() (§10.1): with compat a
// non-text cell raises AttributeError as in msprobe; without it a cell is
// blank when it holds nothing but whitespace, empty included.
func (r *row) blank(col string) (bool, error) {
	v := r.npu(col)
	if !r.a.opt.Compat {
		return strings.TrimFunc(v.s, unicode.IsSpace) == "", nil
	}
	switch v.k {
	case kNone:
		return false, &pyError{msg: fmt.Sprintf("'%s'", col), info: fmt.Sprintf("NPU details CSV %s has no column %s", r.a.npu.Path, col)}
	case kText:
		return pyIsSpace(v.s), nil
	}
	return false, &pyError{msg: fmt.Sprintf("'%s' object has no attribute 'isspace'", v.pyTypeName()),
		info: fmt.Sprintf("NPU %s: pandas reads the cell %q as a number", r.a.npu.where(r.ni, col), v.s)}
}

// optional reads a column msprobe reads without validating (Shape,
// Message): with compat a missing column raises KeyError as in msprobe;
// without it the cell reads as empty.
func (r *row) optional(col string) (value, error) {
	v := r.npu(col)
	if v.k == kNone {
		if r.a.opt.Compat {
			return v, &pyError{msg: fmt.Sprintf("'%s'", col), info: fmt.Sprintf("NPU details CSV %s has no column %s", r.a.npu.Path, col)}
		}
		return value{k: kText}, nil
	}
	return v, nil
}

func (r *row) set(col int, s string)   { r.det[col] = s }
func (r *row) setF(col int, f float64) { r.det[col] = fixed(f, r.a.opt.Precision) }
func (r *row) setV(col int, v value)   { r.det[col] = v.csvText(r.a.opt.Precision) }
func (r *row) done(status string, alg standard.Algorithm, msg string) string {
	r.det[dResult] = status
	r.det[dAlgorithm] = alg.DisplayName()
	r.det[dMessage] = msg
	return status
}

// status computes the row status and fills the details row (§10.4).
func (r *row) status() (string, error) {
	dt := r.npu(colDeviceDType)
	isBlank, err := r.blank(colDeviceDType)
	if err != nil {
		return "", err
	}
	unsupported := dt.k == kText && unsupportedDTypes[dt.s]
	skip := isBlank || unsupported
	if !skip {
		shape, err := r.optional(colShape)
		if err != nil {
			return "", err
		}
		skip = shape.is("(0,)")
	}
	if skip {
		msg, err := r.optional(colMessage)
		if err != nil {
			return "", err
		}
		r.det[dResult] = standard.Skip
		switch {
		case r.a.opt.Compat:
			r.setV(dMessage, msg)
		case unsupported:
			r.det[dMessage] = MsgUnsupportedDType
		default:
			r.det[dMessage] = msg.s
		}
		return standard.Skip, nil
	}
	relBlank, err := r.blank(colRelErrRate)
	if err != nil {
		return "", err
	}
	inDType := "torch.float8_e4m3fn"
	if relBlank {
		inDType = fp32
	}
	switch alg := selectAlgorithm(r.api, dt.s, inDType); alg {
	case standard.AlgBinary:
		return r.binary()
	case standard.AlgAbsoluteThreshold:
		return r.absoluteThreshold()
	case standard.AlgULP:
		return r.ulp(dt.s)
	case standard.AlgThousandth:
		return r.thousandth()
	case standard.AlgAccumulative:
		return r.accumulative(dt.s)
	default:
		return r.benchmark(dt.s)
	}
}

func passIf(ok bool) string {
	if ok {
		return standard.Pass
	}
	return standard.Error
}

// binary: pass iff the NPU binary error rate is 0; the GPU is not used.
func (r *row) binary() (string, error) {
	v, err := r.npuFloat(colErrorRate)
	if err != nil {
		return "", err
	}
	st := passIf(v == 0)
	r.setV(dErrorRate, r.npu(colErrorRate))
	r.set(dErrorRateStatus, st)
	msg := ""
	if st == standard.Error {
		msg = msgBinary
	}
	return r.done(st, standard.AlgBinary, msg), nil
}

// absRates reads and judges the three absolute-threshold rates (each pass
// iff 0) and fills columns 12-17.
func (r *row) absRates() (statuses [3]string, err error) {
	var v [3]float64
	for i, c := range []string{colInfNanRate, colRelErrRate, colAbsErrRate} {
		if v[i], err = r.npuFloat(c); err != nil {
			return statuses, err
		}
	}
	for i, c := range []int{dInfNanRate, dRelErrRate, dAbsErrRate} {
		statuses[i] = passIf(v[i] == 0)
		r.setF(c, v[i])
		r.set(c+1, statuses[i])
	}
	return statuses, nil
}

var absMessages = [3]string{"ERROR: inf/nan错误率超过阈值", "ERROR: 相对误差错误率超过阈值", "ERROR: 绝对误差错误率超过阈值"}

// absoluteThreshold: error if any of the three NPU rates is not 0; the
// messages are concatenated without separators, as msprobe does.
func (r *row) absoluteThreshold() (string, error) {
	st, err := r.absRates()
	if err != nil {
		return "", err
	}
	status, msg := standard.Pass, ""
	for i, s := range st {
		if s == standard.Error {
			status = standard.Error
			msg += absMessages[i]
		}
	}
	return r.done(status, standard.AlgAbsoluteThreshold, msg), nil
}

// accumulative: the absolute-threshold rates plus EB ≤ the dtype's bound;
// failing items end in LF and are joined with LF (§10.5).
func (r *row) accumulative(dtype string) (string, error) {
	st, err := r.absRates()
	if err != nil {
		return "", err
	}
	eb, err := r.npuFloat(colEB)
	if err != nil {
		return "", err
	}
	ebSt := passIf(eb <= standard.AccumulativeEBThreshold(thresholdDType(dtype)))
	r.setF(dEBRatio, eb)
	r.set(dEBStatus, ebSt)
	var items []string
	status := standard.Pass
	for i, s := range st {
		if s == standard.Error {
			status = standard.Error
			items = append(items, absMessages[i]+"\n")
		}
	}
	if ebSt == standard.Error {
		status = standard.Error
		items = append(items, msgEBAccumulative)
	}
	return r.done(status, standard.AlgAccumulative, strings.Join(items, "\n")), nil
}

// thousandth: pass iff the NPU 双千指标 ≥ 0.999 (conv1d, conv2d).
func (r *row) thousandth() (string, error) {
	v, err := r.npuFloat(colThousandth)
	if err != nil {
		return "", err
	}
	st := passIf(v >= standard.ThousandthPass)
	r.setV(dThousandth, r.npu(colThousandth))
	r.set(dThousandthStatus, st)
	msg := ""
	if st == standard.Error {
		msg = msgThousandth
	}
	return r.done(st, standard.AlgThousandth, msg), nil
}

// infNaN is msprobe's check_inf_or_nan: called when x or y is inf or NaN,
// it returns whether they are consistent (both inf of one sign, or both
// NaN) and the note for the message.
func infNaN(x, y float64, col string) (bool, string) {
	var ok bool
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		ok = math.IsInf(x, 0) && math.IsInf(y, 0) && x == y
	} else {
		ok = math.IsNaN(x) && math.IsNaN(y)
	}
	if ok {
		return true, col + "同为同号inf或nan\n"
	}
	return false, col + "inf或nan不一致\n"
}

// ratio is the NPU/GPU ratio of one metric (§10.5 benchmark steps 2-3):
// NaN with a consistency note when either side is inf or NaN.
func ratio(x, y float64, col, dtype string) (float64, bool, string) {
	if isInfOrNaN(x) || isInfOrNaN(y) {
		ok, note := infNaN(x, y, col)
		return nan, ok, note
	}
	return standard.BenchmarkRatio(x, y, thresholdDType(dtype)), true, ""
}

// benchmarkMetrics are the five benchmark metrics in msprobe's order, with
// their ratio thresholds and error messages; EB (last) is reported but
// does not count.
var benchmarkMetrics = []struct {
	col        string
	ratio, st  int
	threshold  float64
	errMessage string
}{
	{colSmallValue, dSmallValueRatio, dSmallValueStatus, standard.SmallValueErrRatioThreshold, "ERROR: 小值域错误比值超过阈值\n"},
	{colRMSE, dRMSERatio, dRMSEStatus, standard.RMSERatioThreshold, "ERROR: 均方根误差比值超过阈值\n"},
	{colMaxRelErr, dMaxRelRatio, dMaxRelStatus, standard.MaxRelErrRatioThreshold, "ERROR: 相对误差最大值比值超过阈值\n"},
	{colMeanRelErr, dMeanRelRatio, dMeanRelStatus, standard.MeanRelErrRatioThreshold, "ERROR: 相对误差平均值比值超过阈值\n"},
	{colEB, dEBRatio, dEBStatus, standard.EBRatioThreshold, ""},
}

// benchmark compares each metric's NPU/GPU ratio with its threshold.
func (r *row) benchmark(dtype string) (string, error) {
	var ratios [5]float64
	var consistent [5]bool
	notes := ""
	for i, m := range benchmarkMetrics {
		x, err := r.npuFloat(m.col)
		if err != nil {
			return "", err
		}
		y, err := r.gpuFloat(m.col)
		if err != nil {
			return "", err
		}
		var note string
		ratios[i], consistent[i], note = ratio(x, y, m.col, dtype)
		notes += note
	}
	status, errs := standard.Pass, ""
	for i, m := range benchmarkMetrics {
		st := standard.Pass
		switch {
		case !consistent[i]:
			st = standard.Error
		case isInfOrNaN(ratios[i]):
		case ratios[i] > m.threshold:
			st = standard.Error
		}
		r.setF(m.ratio, ratios[i])
		r.set(m.st, st)
		if st == standard.Error && m.errMessage != "" {
			status = standard.Error
			errs += m.errMessage
		}
	}
	return r.done(status, standard.AlgBenchmark, notes+errs), nil
}

// ulp: fp8 outputs need an NPU proportion < 0.001; others compare the mean
// ULP error and the proportion above threshold with the GPU's (§10.5).
func (r *row) ulp(dtype string) (string, error) {
	if standard.IsFP8(dtype) {
		p, err := r.npuFloat(colULPRatio)
		if err != nil {
			return "", err
		}
		st := passIf(p < standard.ULPProportionThresholdHalf)
		r.setF(dULPRatio, p)
		r.set(dULPStatus, st)
		msg := ""
		if st == standard.Error {
			msg = msgULP
		}
		return r.done(st, standard.AlgULP, msg), nil
	}
	x, err := r.npuFloat(colULPMean)
	if err != nil {
		return "", err
	}
	y, err := r.gpuFloat(colULPMean)
	if err != nil {
		return "", err
	}
	meanOK, msg := true, ""
	if isInfOrNaN(x) || isInfOrNaN(y) {
		meanOK, msg = infNaN(x, y, colULPMean)
	}
	p, err := r.npuFloat(colULPRatio)
	if err != nil {
		return "", err
	}
	q, err := r.gpuFloat(colULPRatio)
	if err != nil {
		return "", err
	}
	rt, propOK, note := ratio(p, q, colULPRatio, dtype)
	msg += note
	r.setF(dULPMean, x)
	r.setF(dULPRatio, p)
	r.setF(dULPRatioRatio, rt)
	if !meanOK || !propOK {
		if !r.a.opt.Compat {
			r.set(dULPStatus, standard.Error) // msprobe leaves it blank (§12 #9)
		}
		return r.done(standard.Error, standard.AlgULP, msg+msgULP), nil
	}
	var ok bool
	if dtype == fp32 {
		ok = x < standard.ULPMeanThresholdFP32 || p < standard.ULPProportionThresholdFP32 || rt < standard.ULPProportionRatioThreshold
	} else {
		ok = p < standard.ULPProportionThresholdHalf || rt < standard.ULPProportionRatioThreshold
	}
	st := passIf(ok)
	if !ok {
		msg += msgULP
	}
	r.set(dULPStatus, st)
	return r.done(st, standard.AlgULP, msg), nil
}
