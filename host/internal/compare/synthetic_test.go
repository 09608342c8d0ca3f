package compare

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/standard"
)

// runUTHeader is run_ut's details CSV header (pytorch-precheck §7.4).
var runUTHeader = []string{"API Name", "Bench Dtype", "DEVICE Dtype", "Shape", "余弦相似度", "最大绝对误差", "双百指标", "双千指标",
	"双万指标", "二进制一致错误率", "误差均衡性", "均方根误差", "小值域错误占比", "相对误差最大值", "相对误差平均值", "inf/nan错误率",
	"相对误差错误率", "绝对误差错误率", "ULP误差最大值", "ULP误差平均值", "ULP误差大于阈值占比", "Status", "Message"}

// in is one input row: column name → cell; unset cells are SPACE, as
// run_ut writes them.
type in map[string]string

func detailsCSV(rows []in) []byte {
	var recs [][]string
	for _, r := range rows {
		rec := make([]string, len(runUTHeader))
		for i, h := range runUTHeader {
			v, ok := r[h]
			if !ok {
				v = " "
			}
			rec[i] = v
		}
		recs = append(recs, rec)
	}
	return Encode(runUTHeader, recs)
}

func mustTable(t *testing.T, side string, rows []in) *Table {
	t.Helper()
	tb, err := ParseTable(strings.ToLower(side)+".csv", side, detailsCSV(rows))
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.CheckColumns(); err != nil {
		t.Fatal(err)
	}
	return tb
}

// padRow is a SKIP row whose blank cells keep pandas from typing the
// metric columns of a small file as numbers (see TestNumericColumnQuirk).
var padRow = in{"API Name": "Torch.pad_row.0.forward.output.0"}

func compareRows(t *testing.T, compat bool, npu, gpu []in) (*Output, []string) {
	t.Helper()
	var warnings []string
	out := Compare(mustTable(t, "NPU", npu), mustTable(t, "GPU", gpu), Options{Compat: compat, Warn: func(w string) { warnings = append(warnings, w) }})
	return out, warnings
}

func resultCSV(o *Output) string {
	return strings.TrimPrefix(string(Encode(ResultHeader, o.Results)), bomPrefix)
}

func detailByName(t *testing.T, o *Output, name string) []string {
	t.Helper()
	for _, d := range o.Details {
		if d[dName] == name {
			return d
		}
	}
	t.Fatalf("no details row %s", name)
	return nil
}

// bench builds a benchmark-metric row.
func bench(name, dtype, small, rmse, maxRel, meanRel, eb string) in {
	return in{"API Name": name, "DEVICE Dtype": dtype, "Shape": "(4,)", "小值域错误占比": small, "均方根误差": rmse,
		"相对误差最大值": maxRel, "相对误差平均值": meanRel, "误差均衡性": eb}
}

func ulpRow(name, dtype, mean, prop string) in {
	return in{"API Name": name, "DEVICE Dtype": dtype, "Shape": "(4,)", "ULP误差平均值": mean, "ULP误差大于阈值占比": prop}
}

func absRow(name, dtype, infNan, rel, abs string) in {
	return in{"API Name": name, "DEVICE Dtype": dtype, "Shape": "(4,)", "inf/nan错误率": infNan, "相对误差错误率": rel, "绝对误差错误率": abs}
}

func with(r in, kv ...string) in {
	c := in{}
	for k, v := range r {
		c[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i]] = kv[i+1]
	}
	return c
}

// example107 is the observed example of pytorch-precheck §10.7, in input
// order.
func example107() (npu, gpu []in) {
	add := func(n, g in) {
		npu = append(npu, n)
		if g != nil {
			gpu = append(gpu, g)
		}
	}
	add(bench("Torch.softmax.0.forward.output.0", "torch.float16", "0.3", "0.01", "0.5", "0.02", "0.9"),
		bench("Torch.softmax.0.forward.output.0", "torch.float16", "0.1", "0.01", "0.01", "0.01", "0.1"))
	add(bench("Torch.softmax.0.backward.output.0", "torch.float16", "inf", "nan", "0.5", "0.02", "0.1"),
		bench("Torch.softmax.0.backward.output.0", "torch.float16", "inf", "nan", "0.5", "0.02", "0.1"))
	add(ulpRow("Torch.matmul.0.forward.output.0", "torch.float32", "70", "0.2"), ulpRow("Torch.matmul.0.forward.output.0", "torch.float32", "70", "0.1"))
	add(ulpRow("Torch.matmul.1.forward.output.0", "torch.float16", "1.5", "0.01"), ulpRow("Torch.matmul.1.forward.output.0", "torch.float16", "1.5", "0.02"))
	add(ulpRow("Torch.matmul.2.forward.output.0", "torch.bfloat16", "nan", "0.01"), ulpRow("Torch.matmul.2.forward.output.0", "torch.bfloat16", "0.5", "0.01"))
	mul := absRow("Torch.mul.0.forward.output.0", "torch.float16", "0.1", "0", "0.2")
	add(mul, mul)
	abs := in{"API Name": "Tensor.abs.0.forward.output.0", "DEVICE Dtype": "torch.float16", "Shape": "(4,)", "二进制一致错误率": "0.5"}
	add(abs, abs)
	conv := in{"API Name": "Functional.conv2d.0.forward.output.0", "DEVICE Dtype": "torch.float32", "Shape": "(4,)", "双千指标": "0.998"}
	add(conv, conv)
	testAPI := with(absRow("Torch.test_api.0.forward.output.0", "torch.bfloat16", "0", "0", "0"), "误差均衡性", "0.01")
	add(testAPI, testAPI)
	sum := in{"API Name": "Torch.sum.0.forward.output.0", "DEVICE Dtype": "torch.float64", "Shape": "(4,)", "Message": "x"}
	add(sum, sum)
	empty := in{"API Name": "Torch.empty.0.forward.output.0", "DEVICE Dtype": "torch.float32", "Shape": "(0,)", "Message": "There is not bench calculation result."}
	add(empty, empty)
	add(bench("Torch.only_npu.0.forward.output.0", "torch.float16", "0", "0", "0", "0", "0"), nil)
	bad := bench("Torch.bad.name.x.y.forward.output.0", "torch.float16", "0", "0", "0", "0", "0")
	add(bad, bad)
	gelu := in{"API Name": "Torch.gelu.1.forward.output.0", "Message": "some skip"}
	add(gelu, gelu)
	topk := in{"API Name": "Torch.topk.0.forward.output.0", "DEVICE Dtype": "torch.float32", "Shape": "(4,)", "二进制一致错误率": "0.5"}
	add(topk, topk)
	return npu, gpu
}

// The observed example of §10.7 gives, with --compat msprobe, exactly the
// result CSV listed there.
func TestSpecExampleCompat(t *testing.T) {
	npu, gpu := example107()
	out, warnings := compareRows(t, true, npu, gpu)
	want := "API Name,Forward Test Success,Backward Test Success,Message\r\n" +
		"Torch.softmax.0,error,pass,\r\n" +
		"Torch.matmul.0,error, ,\r\n" +
		"Torch.matmul.1,pass, ,\r\n" +
		"Torch.matmul.2,error, ,\r\n" +
		"Torch.mul.0,error, ,\r\n" +
		"Tensor.abs.0,error, ,\r\n" +
		"Functional.conv2d.0,error, ,\r\n" +
		"Torch.test_api.0,pass, ,\r\n" +
		"Torch.sum.0,SKIP,SKIP,This data type does not support benchmark compare.\r\n" +
		"Torch.bad.name.x.y.forward.output.0,SKIP,SKIP,The API name Torch.bad.name.x.y.forward.output.0 is invalid.\r\n" +
		"Torch.empty.0,SKIP, ,There is not bench calculation result.\r\n" +
		"Torch.gelu.1,SKIP, ,some skip\r\n" +
		"Torch.topk.0,error, ,在npu上，topk的入参sorted=False时不生效，会返回有序tensor，而cpu上会返回无序tensor。 如果topk精度不达标，请检查是否是该原因导致的。\r\n"
	if got := resultCSV(out); got != want {
		t.Errorf("result CSV:\n%s\nwant:\n%s", got, want)
	}
	if !reflect.DeepEqual(warnings, []string{"This API : Torch.only_npu.0.forward.output.0 does not exist in the GPU data."}) {
		t.Errorf("warnings %q", warnings)
	}
	checkExampleDetails(t, out, true)
}

// checkExampleDetails checks the details rows of §10.7 that both modes
// write alike, plus the ULP verdict column that differs (§12 #9).
func checkExampleDetails(t *testing.T, out *Output, compat bool) {
	t.Helper()
	sm := detailByName(t, out, "Torch.softmax.0.forward.output.0")
	if got := sm[dSmallValueRatio : dEBStatus+1]; !reflect.DeepEqual(got, []string{"3.00000000000000", "error", "1.00000000000000", "pass",
		"50.00000000000000", "error", "2.00000000000000", "pass", "9.00000000000000", "error"}) {
		t.Errorf("softmax forward ratios %q", got)
	}
	if sm[dResult] != "error" || sm[dAlgorithm] != "标杆比对法" || sm[dMessage] != "ERROR: 小值域错误比值超过阈值\nERROR: 相对误差最大值比值超过阈值\n" {
		t.Errorf("softmax forward %q", sm[dResult:])
	}
	sb := detailByName(t, out, "Torch.softmax.0.backward.output.0")
	if sb[dSmallValueRatio] != "nan" || sb[dRMSERatio] != "nan" || sb[dResult] != "pass" || sb[dMessage] != "小值域错误占比同为同号inf或nan\n均方根误差同为同号inf或nan\n" {
		t.Errorf("softmax backward %q", sb)
	}
	m0 := detailByName(t, out, "Torch.matmul.0.forward.output.0")
	if got := m0[dULPMean : dResult+2]; !reflect.DeepEqual(got, []string{"70.00000000000000", "0.20000000000000", "2.00000000000000", "error", " ", " ", "error", "ULP误差比对法"}) {
		t.Errorf("matmul.0 %q", got)
	}
	if m1 := detailByName(t, out, "Torch.matmul.1.forward.output.0"); m1[dULPRatioRatio] != "0.50000000000000" || m1[dULPStatus] != "pass" {
		t.Errorf("matmul.1 %q", m1)
	}
	m2 := detailByName(t, out, "Torch.matmul.2.forward.output.0")
	wantULPStatus := "error"
	if compat {
		wantULPStatus = " "
	}
	if m2[dULPMean] != "nan" || m2[dULPStatus] != wantULPStatus || m2[dResult] != "error" || m2[dMessage] != "ULP误差平均值inf或nan不一致\nERROR: ULP误差不满足标准\n" {
		t.Errorf("matmul.2 %q", m2)
	}
	mul := detailByName(t, out, "Torch.mul.0.forward.output.0")
	if got := mul[dInfNanRate : dAbsErrStatus+1]; !reflect.DeepEqual(got, []string{"0.10000000000000", "error", "0.00000000000000", "pass", "0.20000000000000", "error"}) {
		t.Errorf("mul %q", got)
	}
	if mul[dMessage] != "ERROR: inf/nan错误率超过阈值ERROR: 绝对误差错误率超过阈值" || mul[dAlgorithm] != "绝对阈值法" {
		t.Errorf("mul message %q", mul[dMessage])
	}
	if ab := detailByName(t, out, "Tensor.abs.0.forward.output.0"); ab[dErrorRate] != "0.5" || ab[dErrorRateStatus] != "error" || ab[dAlgorithm] != "二进制一致法" || ab[dMessage] != "ERROR: 二进制一致错误率超过阈值\n" {
		t.Errorf("abs %q", ab)
	}
	if cv := detailByName(t, out, "Functional.conv2d.0.forward.output.0"); cv[dThousandth] != "0.998" || cv[dThousandthStatus] != "error" || cv[dMessage] != "ERROR: 双千指标不达标\n" || cv[dAlgorithm] != "双千指标法" {
		t.Errorf("conv2d %q", cv)
	}
	if ta := detailByName(t, out, "Torch.test_api.0.forward.output.0"); ta[dAlgorithm] != "绝对阈值法" || ta[dResult] != "pass" || ta[dEBRatio] != " " {
		t.Errorf("test_api %q", ta)
	}
	if e := detailByName(t, out, "Torch.empty.0.forward.output.0"); e[dResult] != "SKIP" || e[dAlgorithm] != " " || e[dMessage] != "There is not bench calculation result." {
		t.Errorf("empty %q", e)
	}
	wantSum := "x"
	if !compat {
		wantSum = MsgUnsupportedDType
	}
	if s := detailByName(t, out, "Torch.sum.0.forward.output.0"); s[dResult] != "SKIP" || s[dMessage] != wantSum {
		t.Errorf("sum %q", s)
	}
}

// Without --compat the same input differs only by the documented fixes:
// the NPU-only row is reported (§10.3 step 3), the float64 API's SKIP is
// decided per row (§12 #10), and matmul.2's ULP verdict column says error
// (§12 #9).
func TestSpecExampleDefault(t *testing.T) {
	npu, gpu := example107()
	out, warnings := compareRows(t, false, npu, gpu)
	want := "API Name,Forward Test Success,Backward Test Success,Message\r\n" +
		"Torch.softmax.0,error,pass,\r\n" +
		"Torch.matmul.0,error, ,\r\n" +
		"Torch.matmul.1,pass, ,\r\n" +
		"Torch.matmul.2,error, ,\r\n" +
		"Torch.mul.0,error, ,\r\n" +
		"Tensor.abs.0,error, ,\r\n" +
		"Functional.conv2d.0,error, ,\r\n" +
		"Torch.test_api.0,pass, ,\r\n" +
		"Torch.sum.0,SKIP, ,This data type does not support benchmark compare.\r\n" +
		"Torch.empty.0,SKIP, ,There is not bench calculation result.\r\n" +
		"Torch.bad.name.x.y.forward.output.0,SKIP,SKIP,The API name Torch.bad.name.x.y.forward.output.0 is invalid.\r\n" +
		"Torch.only_npu.0,SKIP, ,This API : Torch.only_npu.0.forward.output.0 does not exist in the GPU data.\r\n" +
		"Torch.gelu.1,SKIP, ,some skip\r\n" +
		"Torch.topk.0,error, ,在npu上，topk的入参sorted=False时不生效，会返回有序tensor，而cpu上会返回无序tensor。 如果topk精度不达标，请检查是否是该原因导致的。\r\n"
	if got := resultCSV(out); got != want {
		t.Errorf("result CSV:\n%s\nwant:\n%s", got, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "Torch.only_npu.0.forward.output.0 has no row in the GPU details CSV") {
		t.Errorf("warnings %q", warnings)
	}
	checkExampleDetails(t, out, false)
	if d := detailByName(t, out, "Torch.only_npu.0.forward.output.0"); d[dResult] != "SKIP" || d[dAlgorithm] != " " {
		t.Errorf("only_npu %q", d)
	}
}

// pyFloat follows Python's float(str) (§11.5 parse vectors and more).
func TestPyFloat(t *testing.T) {
	for s, want := range map[string]float64{"123.45": 123.45, "123.0": 123, "   123.0   ": 123, "0": 0, "-1e-3": -0.001, ".5": 0.5,
		"5.": 5, "1_000.5": 1000.5, "inf": math.Inf(1), "-Infinity": math.Inf(-1), "+INF": math.Inf(1), "1e400": math.Inf(1)} {
		if got, ok := pyFloat(s); !ok || got != want {
			t.Errorf("pyFloat(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"nan", "NaN", " -nan "} {
		if got, ok := pyFloat(s); !ok || !math.IsNaN(got) {
			t.Errorf("pyFloat(%q) = %v, %v; want NaN", s, got, ok)
		}
	}
	for _, s := range []string{"", "    ", "abc", "1_", "_1", "0x10", "1e", "--1", "+-inf", "1.2.3", "in f"} {
		if got, ok := pyFloat(s); ok {
			t.Errorf("pyFloat(%q) = %v; want an error", s, got)
		}
	}
}

// A blank cell is msprobe's "empty string" error, a malformed one its
// "cannot be converted" error; the row becomes a SKIP with an immediate
// result row named after the row (§10.3 step 5). Without --compat the
// message also names the file, line and column.
func TestUnparsableCells(t *testing.T) {
	npu := []in{bench("Torch.gelu.0.forward.output.0", "torch.float16", "0", "0", "0", "0", "0"),
		bench("Torch.gelu.1.forward.output.0", "torch.float16", "0", "0", "0", "0", "0")}
	gpu := []in{bench("Torch.gelu.0.forward.output.0", "torch.float16", "0", " ", "0", "0", "0"),
		bench("Torch.gelu.1.forward.output.0", "torch.float16", "0", "0", "abc", "0", "0")}
	for _, compat := range []bool{true, false} {
		out, warnings := compareRows(t, compat, npu, gpu)
		want := [][]string{{"Torch.gelu.0.forward.output.0", "SKIP", "SKIP", "ERROR: Input data is an empty string"},
			{"Torch.gelu.1.forward.output.0", "SKIP", "SKIP", "ERROR: Input data cannot be converted to float"}}
		if !compat {
			want[0][3] += " (GPU gpu.csv line 2, column 均方根误差 is blank)"
			want[1][3] += ` (GPU gpu.csv line 3, column 相对误差最大值: "abc" is not a number)`
		}
		if !reflect.DeepEqual(out.Results, want) {
			t.Errorf("compat=%v results %q", compat, out.Results)
		}
		if d := out.Details[1]; d[dResult] != "SKIP" || d[dMessage] != want[1][3] || d[dRMSERatio] != " " || d[dAlgorithm] != " " {
			t.Errorf("compat=%v details %q", compat, d)
		}
		if len(warnings) != 2 || !strings.Contains(warnings[1], "gpu.csv line 3, column 相对误差最大值") {
			t.Errorf("compat=%v warnings %q", compat, warnings)
		}
	}
}

// §11.5: every metric 0, 双千指标 0.999, fp16, NPU = GPU passes under each
// algorithm; with DEVICE Dtype blank the row is a SKIP.
func TestEveryAlgorithmPassesOnZeros(t *testing.T) {
	for _, tc := range []struct {
		api, rel, alg string
	}{
		{"conv2d", " ", "双千指标法"}, {"abs", " ", "二进制一致法"}, {"mul", "0", "绝对阈值法"}, {"matmul", " ", "ULP误差比对法"},
		{"mean", " ", "标杆比对法"}, {"conv2d", "0", "绝对阈值法"}, {"matmul", "0", "绝对阈值法"},
	} {
		name := "Torch." + tc.api + ".0.forward.output.0"
		r := in{"API Name": name, "DEVICE Dtype": "torch.float16", "Shape": "(4,)", "双千指标": "0.999"}
		for _, c := range []string{"二进制一致错误率", "误差均衡性", "均方根误差", "小值域错误占比", "相对误差最大值", "相对误差平均值", "inf/nan错误率",
			"绝对误差错误率", "ULP误差最大值", "ULP误差平均值", "ULP误差大于阈值占比"} {
			r[c] = "0"
		}
		r["相对误差错误率"] = tc.rel
		for _, compat := range []bool{true, false} {
			out, _ := compareRows(t, compat, []in{r, padRow}, []in{r, padRow})
			d := out.Details[0]
			if d[dResult] != "pass" || d[dAlgorithm] != tc.alg || d[dMessage] != "" {
				t.Errorf("%s (rel %q, compat %v): %q", tc.api, tc.rel, compat, d)
			}
			skip := with(r, "DEVICE Dtype", " ")
			out, _ = compareRows(t, compat, []in{skip}, []in{skip})
			if d := out.Details[0]; d[dResult] != "SKIP" {
				t.Errorf("%s with blank dtype: %q", tc.api, d)
			}
		}
	}
}

func TestBinaryAndThousandthVectors(t *testing.T) {
	for _, tc := range []struct{ rate, want, msg string }{{"0.0", "pass", ""}, {"0", "pass", ""}, {"0.1", "error", msgBinary}, {"2.0", "error", msgBinary}} {
		r := in{"API Name": "Torch.abs.0.forward.output.0", "DEVICE Dtype": "torch.float16", "Shape": "(4,)", "二进制一致错误率": tc.rate}
		out, _ := compareRows(t, true, []in{r, padRow}, []in{r, padRow})
		if d := out.Details[0]; d[dResult] != tc.want || d[dErrorRate] != tc.rate || d[dMessage] != tc.msg {
			t.Errorf("binary %q: %q", tc.rate, d)
		}
	}
	for _, tc := range []struct{ v, want string }{{"0.999", "pass"}, {"1", "pass"}, {"0.99899", "error"}} {
		r := in{"API Name": "Functional.conv1d.0.forward.output.0", "DEVICE Dtype": "torch.float32", "Shape": "(4,)", "双千指标": tc.v}
		out, _ := compareRows(t, true, []in{r}, []in{r})
		if d := out.Details[0]; d[dResult] != tc.want || d[dThousandthStatus] != tc.want {
			t.Errorf("thousandth %q: %q", tc.v, d)
		}
	}
	// integer outputs are binary whatever the API (§6.1 step 3)
	r := in{"API Name": "Torch.matmul.0.forward.output.0", "DEVICE Dtype": "torch.int64", "Shape": "(4,)", "二进制一致错误率": "0.25"}
	out, _ := compareRows(t, true, []in{r}, []in{r})
	if d := out.Details[0]; d[dAlgorithm] != "二进制一致法" || d[dResult] != "error" {
		t.Errorf("int64 matmul: %q", d)
	}
}

// §11.5 inf/nan consistency vectors.
func TestInfNaNConsistency(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		x, y float64
		ok   bool
	}{{inf, inf, true}, {inf, -inf, false}, {inf, 1, false}, {nan, nan, true}, {nan, 1, false}, {1, -inf, false}, {nan, inf, false}} {
		r, ok, note := ratio(tc.x, tc.y, "col", "torch.float16")
		wantNote := "col同为同号inf或nan\n"
		if !tc.ok {
			wantNote = "colinf或nan不一致\n"
		}
		if !math.IsNaN(r) || ok != tc.ok || note != wantNote {
			t.Errorf("ratio(%v, %v) = %v %v %q", tc.x, tc.y, r, ok, note)
		}
	}
	if r, ok, note := ratio(0.3, 0, "c", "torch.bfloat16"); r != 0.3/0x1p-8 || !ok || note != "" {
		t.Errorf("bf16 floor: %v %v %q", r, ok, note)
	}
}

// An inconsistent benchmark metric is an error with both notes; EB alone
// never makes the row an error.
func TestBenchmarkInconsistentAndEB(t *testing.T) {
	n := bench("Torch.gelu.0.forward.output.0", "torch.float32", "inf", "0.1", "0", "0", "5")
	g := bench("Torch.gelu.0.forward.output.0", "torch.float32", "1", "0.1", "0", "0", "1")
	out, _ := compareRows(t, true, []in{n}, []in{g})
	d := out.Details[0]
	if d[dSmallValueRatio] != "nan" || d[dSmallValueStatus] != "error" || d[dResult] != "error" ||
		d[dMessage] != "小值域错误占比inf或nan不一致\nERROR: 小值域错误比值超过阈值\n" || d[dEBStatus] != "error" || d[dEBRatio] != "5.00000000000000" {
		t.Errorf("inconsistent small value: %q", d)
	}
	n = bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "5")
	out, _ = compareRows(t, true, []in{n}, []in{g})
	if d := out.Details[0]; d[dResult] != "pass" || d[dEBStatus] != "error" || d[dMessage] != "" {
		t.Errorf("EB only: %q", d)
	}
}

// ULP rules: fp32 passes on a mean < 64, a proportion < 0.05 or a ratio < 1;
// fp16/bf16 on a proportion < 0.001 or a ratio < 1; fp8 on the NPU
// proportion alone.
func TestULPRules(t *testing.T) {
	for _, tc := range []struct {
		dtype, mean, prop, gprop, want string
	}{
		{"torch.float32", "63.9", "0.9", "0.1", "pass"},
		{"torch.float32", "64", "0.049", "0.01", "pass"},
		{"torch.float32", "64", "0.05", "0.06", "pass"},
		{"torch.float32", "64", "0.05", "0.05", "error"},
		{"torch.float16", "1", "0.0009", "0", "pass"},
		{"torch.float16", "1", "0.001", "0.0011", "pass"},
		{"torch.bfloat16", "1", "0.5", "0.5", "error"},
		{"torch.float16", "1", "inf", "inf", "error"},
		{"torch.float32", "1", "inf", "inf", "pass"},
		{"torch.float32", "nan", "0", "0", "pass"}, // NaN on both sides is consistent
		{"torch.float8_e4m3fn", "99", "0.0009", "0.5", "pass"},
		{"torch.float8_e5m2", "0", "0.001", "0", "error"},
	} {
		n := ulpRow("Torch.matmul.0.forward.output.0", tc.dtype, tc.mean, tc.prop)
		g := ulpRow("Torch.matmul.0.forward.output.0", tc.dtype, tc.mean, tc.gprop)
		out, _ := compareRows(t, true, []in{n}, []in{g})
		d := out.Details[0]
		if d[dResult] != tc.want || d[dULPStatus] != tc.want || d[dAlgorithm] != "ULP误差比对法" {
			t.Errorf("%+v: %q", tc, d)
		}
		if (tc.want == "error") != strings.HasSuffix(d[dMessage], msgULP) {
			t.Errorf("%+v: message %q", tc, d[dMessage])
		}
		if strings.HasPrefix(tc.dtype, "torch.float8") && (d[dULPMean] != " " || d[dULPRatioRatio] != " ") {
			t.Errorf("fp8 columns: %q", d)
		}
	}
}

// The accumulative rule (unreachable through the CSVs, §6.11) applied
// directly: absolute-threshold rates plus EB ≤ the dtype's bound.
func TestAccumulativeRule(t *testing.T) {
	for _, tc := range []struct{ dtype, infNan, eb, want, msg string }{
		{"torch.bfloat16", "0", "0.0078125", "pass", ""},
		{"torch.bfloat16", "0.5", "0.01", "error", "ERROR: inf/nan错误率超过阈值\n\nERROR: 误差均衡性超过阈值\n"},
		{"torch.float16", "0", "0.0001", "error", "ERROR: 误差均衡性超过阈值\n"},
	} {
		n := with(absRow("Torch.test_api.0.forward.output.0", tc.dtype, tc.infNan, "0", "0"), "误差均衡性", tc.eb)
		tb := mustTable(t, "NPU", []in{n})
		a := &analysis{npu: tb, gpu: tb, opt: Options{Compat: true, Precision: 14}}
		r := &row{a: a, api: "test_api", det: a.newDetail("x")}
		st, err := r.accumulative(tc.dtype)
		if err != nil || st != tc.want || r.det[dMessage] != tc.msg || r.det[dAlgorithm] != "累积误差比对法" || r.det[dEBStatus] == " " {
			t.Errorf("%+v: %v %v %q", tc, st, err, r.det)
		}
	}
	// Through the CSV: a blank relative error rate routes test_api to the
	// accumulative rule, which then cannot read it (§6.11).
	n := with(absRow("Torch.test_api.0.forward.output.0", "torch.bfloat16", "0", " ", "0"), "误差均衡性", "0")
	out, _ := compareRows(t, true, []in{n}, []in{n})
	if out.Results[0][3] != msgEmpty {
		t.Errorf("test_api with blank rate: %q", out.Results)
	}
}

func TestAggregate(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{[]string{"pass", "error"}, "error"}, {[]string{"pass", "pass"}, "pass"}, {nil, " "}, {[]string{"SKIP"}, "SKIP"},
		{[]string{"SKIP", "pass"}, "pass"}, {[]string{"Warning", "pass"}, "Warning"}, {[]string{"error", "Warning"}, "error"}} {
		if got := aggregate(tc.in); got != tc.want {
			t.Errorf("aggregate(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHeaders(t *testing.T) {
	if len(DetailsHeader) != 28 || DetailsHeader[2] != "小值域判定结果" || DetailsHeader[27] != "Message" || len(ResultHeader) != 4 || ResultHeader[0] != "API Name" {
		t.Errorf("headers %q %q", DetailsHeader, ResultHeader)
	}
	if numDetailCols != len(DetailsHeader) {
		t.Errorf("numDetailCols %d", numDetailCols)
	}
}

// A SKIP row with an empty NPU message: msprobe writes "nan" (§12 #26),
// probe an empty message.
func TestEmptySkipMessage(t *testing.T) {
	r := in{"API Name": "Torch.gelu.0.forward.output.0", "Message": ""}
	for compat, want := range map[bool]string{true: "nan", false: ""} {
		out, _ := compareRows(t, compat, []in{r}, []in{r})
		if out.Details[0][dMessage] != want || out.Results[0][3] != want || out.Results[0][1] != standard.Skip {
			t.Errorf("compat=%v: %q %q", compat, out.Details[0], out.Results[0])
		}
	}
}

// Several GPU rows for one name stop msprobe, leaving the pending API
// unflushed; probe uses the last one and says so.
func TestDuplicateGPURows(t *testing.T) {
	a := bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	b := bench("Torch.gelu.1.forward.output.0", "torch.float32", "1", "0", "0", "0", "0")
	bOld := bench("Torch.gelu.1.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	bNew := bench("Torch.gelu.1.forward.output.0", "torch.float32", "1", "0", "0", "0", "0")
	out, _ := compareRows(t, true, []in{a, b}, []in{a, bOld, bNew})
	if out.Stopped == nil || !strings.Contains(out.Stopped.Error(), "This API : Torch.gelu.1.forward.output.0 has multiple records in the GPU data.") ||
		len(out.Details) != 1 || len(out.Results) != 0 {
		t.Errorf("compat: %v %q %q", out.Stopped, out.Details, out.Results)
	}
	out, warnings := compareRows(t, false, []in{a, b}, []in{a, bOld, bNew})
	if out.Stopped != nil || len(out.Results) != 2 || out.Results[1][1] != "pass" || out.Details[1][dSmallValueRatio] != "1.00000000000000" {
		t.Errorf("default: %v %q %q", out.Stopped, out.Details, out.Results)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "the last one (line 4) is used") {
		t.Errorf("warnings %q", warnings)
	}
}

// §12 #10: msprobe SKIPs a whole API by the dtype of its last row; probe
// SKIPs the float64 rows and judges the rest.
func TestPerRowUnsupportedDType(t *testing.T) {
	bad := bench("Torch.gelu.0.forward.output.0", "torch.float32", "9", "0", "0", "0", "0")
	f64 := in{"API Name": "Torch.gelu.0.forward.output.1", "DEVICE Dtype": "torch.float64", "Shape": "(4,)"}
	gpuBad := bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	out, _ := compareRows(t, true, []in{bad, f64}, []in{gpuBad, f64})
	if !reflect.DeepEqual(out.Results, [][]string{{"Torch.gelu.0", "SKIP", "SKIP", MsgUnsupportedDType}}) {
		t.Errorf("compat: %q", out.Results)
	}
	out, _ = compareRows(t, false, []in{bad, f64}, []in{gpuBad, f64})
	if !reflect.DeepEqual(out.Results, [][]string{{"Torch.gelu.0", "error", " ", ""}}) {
		t.Errorf("default: %q", out.Results)
	}
	// and the other way round: float64 first, a failing fp32 row last
	out, _ = compareRows(t, true, []in{f64, bad}, []in{f64, gpuBad})
	if !reflect.DeepEqual(out.Results, [][]string{{"Torch.gelu.0", "error", " ", ""}}) {
		t.Errorf("compat, float64 first: %q", out.Results)
	}
}

// Rows only the GPU file has are ignored by msprobe and reported by probe,
// inside their API when the NPU has it, else after the NPU's APIs.
func TestGPUOnlyRows(t *testing.T) {
	a0 := bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	a1 := bench("Torch.gelu.0.backward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	c := bench("Torch.tanh.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	out, warnings := compareRows(t, true, []in{a0}, []in{a0, a1, c})
	if len(out.Details) != 1 || !reflect.DeepEqual(out.Results, [][]string{{"Torch.gelu.0", "pass", " ", ""}}) || len(warnings) != 0 {
		t.Errorf("compat: %q %q %q", out.Details, out.Results, warnings)
	}
	out, warnings = compareRows(t, false, []in{a0}, []in{a0, a1, c})
	want := [][]string{{"Torch.gelu.0", "pass", "SKIP", ""},
		{"Torch.tanh.0", "SKIP", " ", "This API : Torch.tanh.0.forward.output.0 does not exist in the NPU data."}}
	if !reflect.DeepEqual(out.Results, want) || len(out.Details) != 3 || out.Details[1][dName] != "Torch.gelu.0.backward.output.0" || len(warnings) != 2 {
		t.Errorf("default: %q %q %q", out.Details, out.Results, warnings)
	}
}

// pandas types a column whose every cell is a number as floats, and
// msprobe's str.isspace() on such a cell raises (§10.1): with compat every
// row of a file of absolute-threshold outputs is a SKIP; probe judges them.
func TestNumericColumnQuirk(t *testing.T) {
	r0 := absRow("Torch.add.0.forward.output.0", "torch.float32", "0", "0", "0")
	r1 := absRow("Torch.add.1.forward.output.0", "torch.float32", "0", "0.5", "0")
	out, _ := compareRows(t, true, []in{r0, r1}, []in{r0, r1})
	if out.Details[1][dMessage] != "'float' object has no attribute 'isspace'" || out.Results[1][1] != "SKIP" {
		t.Errorf("compat, float column: %q %q", out.Details, out.Results)
	}
	r1 = absRow("Torch.add.1.forward.output.0", "torch.float32", "0", "1", "0")
	out, _ = compareRows(t, true, []in{r0, r1}, []in{r0, r1})
	if out.Details[0][dMessage] != "'int' object has no attribute 'isspace'" {
		t.Errorf("compat, int column: %q", out.Details[0])
	}
	out, _ = compareRows(t, false, []in{r0, r1}, []in{r0, r1})
	if !reflect.DeepEqual(out.Results, [][]string{{"Torch.add.0", "pass", " ", ""}, {"Torch.add.1", "error", " ", ""}}) {
		t.Errorf("default: %q", out.Results)
	}
	// a numeric binary column is copied in fixed notation by msprobe, as
	// read by probe
	b0 := in{"API Name": "Torch.abs.0.forward.output.0", "DEVICE Dtype": "torch.float32", "Shape": "(4,)", "二进制一致错误率": "0"}
	out, _ = compareRows(t, true, []in{b0}, []in{b0})
	if out.Details[0][dErrorRate] != "0" {
		t.Errorf("int column copied as %q", out.Details[0][dErrorRate])
	}
	b0["二进制一致错误率"] = "0.5"
	out, _ = compareRows(t, true, []in{b0}, []in{b0})
	if out.Details[0][dErrorRate] != "0.50000000000000" {
		t.Errorf("float column copied as %q", out.Details[0][dErrorRate])
	}
	out, _ = compareRows(t, false, []in{b0}, []in{b0})
	if out.Details[0][dErrorRate] != "0.5" {
		t.Errorf("default copies the text, got %q", out.Details[0][dErrorRate])
	}
}

// A name that could be read as a formula stops msprobe; probe leaves the
// row out and warns.
func TestInjectionName(t *testing.T) {
	ok := bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	bad := bench("=cmd.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	out, _ := compareRows(t, true, []in{ok, bad}, []in{ok, bad})
	if out.Stopped == nil || len(out.Results) != 0 || len(out.Details) != 1 {
		t.Errorf("compat: %v %q", out.Stopped, out.Results)
	}
	out, warnings := compareRows(t, false, []in{ok, bad}, []in{ok, bad})
	if out.Stopped != nil || len(out.Results) != 1 || len(out.Details) != 1 || len(warnings) != 1 {
		t.Errorf("default: %v %q %q", out.Stopped, out.Results, warnings)
	}
}

// An API split into several runs gets several result rows; seven-segment
// names have a two-part API name.
func TestSplitRunsAndDottedNames(t *testing.T) {
	a := bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	b := bench("Torch.linalg.vector_norm.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	a2 := bench("Torch.gelu.0.backward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	out, _ := compareRows(t, true, []in{a, b, a2}, []in{a, b, a2})
	want := [][]string{{"Torch.gelu.0", "pass", " ", ""}, {"Torch.linalg.vector_norm.0", "pass", " ", ""}, {"Torch.gelu.0", " ", "pass", ""}}
	if !reflect.DeepEqual(out.Results, want) {
		t.Errorf("%q", out.Results)
	}
	if out.Details[1][dAlgorithm] != "标杆比对法" {
		t.Errorf("vector_norm: %q", out.Details[1])
	}
}

// Without a Shape or Message column msprobe raises KeyError on the rows
// that read them; probe reads the missing column as empty.
func TestMissingOptionalColumns(t *testing.T) {
	drop := func(rows []in, col string) *Table {
		data := detailsCSV(rows)
		tb, err := ParseTable("x.csv", "NPU", data)
		if err != nil {
			t.Fatal(err)
		}
		c := tb.col[col]
		tb.Header = append(tb.Header[:c:c], tb.Header[c+1:]...)
		for i, r := range tb.Rows {
			tb.Rows[i] = append(r[:c:c], r[c+1:]...)
		}
		tb, err = ParseTable("x.csv", "NPU", Encode(tb.Header, tb.Rows))
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	rows := []in{bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0"), {"API Name": "Torch.gelu.1.forward.output.0", "Message": "m"}}
	for _, tc := range []struct {
		col    string
		compat bool
		want   [][]string
	}{
		{"Shape", true, [][]string{{"Torch.gelu.0.forward.output.0", "SKIP", "SKIP", "'Shape'"}, {"Torch.gelu.1", "SKIP", " ", "m"}}},
		{"Message", true, [][]string{{"Torch.gelu.1.forward.output.0", "SKIP", "SKIP", "'Message'"}, {"Torch.gelu.0", "pass", " ", ""}}},
		{"Shape", false, [][]string{{"Torch.gelu.0", "pass", " ", ""}, {"Torch.gelu.1", "SKIP", " ", "m"}}},
		{"Message", false, [][]string{{"Torch.gelu.0", "pass", " ", ""}, {"Torch.gelu.1", "SKIP", " ", ""}}},
	} {
		tb := drop(rows, tc.col)
		out := Compare(tb, tb, Options{Compat: tc.compat})
		if !reflect.DeepEqual(out.Results, tc.want) {
			t.Errorf("no %s, compat %v: %q", tc.col, tc.compat, out.Results)
		}
	}
}

// An empty API Name stops msprobe (pandas NaN has no split); probe reports
// it as an invalid name.
func TestEmptyAPIName(t *testing.T) {
	rows := []in{bench("", "torch.float32", "0", "0", "0", "0", "0"), bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")}
	out, _ := compareRows(t, true, rows, rows)
	if out.Stopped == nil || !strings.Contains(out.Stopped.Error(), "'float' object has no attribute 'split'") || len(out.Results) != 0 {
		t.Errorf("compat: %v %q", out.Stopped, out.Results)
	}
	out, _ = compareRows(t, false, rows, rows)
	if !reflect.DeepEqual(out.Results, [][]string{{"", "SKIP", "SKIP", "The API name  is invalid."}, {"Torch.gelu.0", "pass", " ", ""}}) {
		t.Errorf("default: %q", out.Results)
	}
}

// pandas types columns: int when every cell is an integer, float when every
// non-NA cell is a number, object otherwise.
func TestPandasColumnKinds(t *testing.T) {
	tb, err := ParseTable("x.csv", "NPU", []byte("a,b,c,d,e\r\n1, 2 ,x,,inf\r\n3,2.5,4,,-Infinity\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	for col, want := range map[string]kind{"a": kInt, "b": kFloat, "c": kText, "d": kNA, "e": kFloat} {
		if v := tb.cell(0, col, true); v.k != want {
			t.Errorf("column %s: kind %d, want %d", col, v.k, want)
		}
		if v := tb.cell(0, col, false); v.k != kText {
			t.Errorf("column %s without compat: kind %d", col, v.k)
		}
	}
	if v := tb.cell(1, "e", true); !math.IsInf(v.f, -1) {
		t.Errorf("-Infinity: %v", v.f)
	}
	if v := tb.cell(0, "b", true); v.f != 2 || v.csvText(14) != "2.00000000000000" || v.pyStr() != "2.0" {
		t.Errorf("' 2 ': %+v", v)
	}
}

// GPU-only rows with an invalid name get msprobe's invalid-name rows; one
// that could be read as a formula is left out.
func TestGPUOnlyOddNames(t *testing.T) {
	a := bench("Torch.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	odd := bench("Torch.odd.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	formula := bench("@SUM.gelu.0.forward.output.0", "torch.float32", "0", "0", "0", "0", "0")
	out, warnings := compareRows(t, false, []in{a}, []in{a, odd, formula})
	want := [][]string{{"Torch.gelu.0", "pass", " ", ""}, {"Torch.odd.forward.output.0", "SKIP", "SKIP", "The API name Torch.odd.forward.output.0 is invalid."}}
	if !reflect.DeepEqual(out.Results, want) || len(out.Details) != 2 || len(warnings) != 1 || !strings.Contains(warnings[0], "@SUM") {
		t.Errorf("%q %q %q", out.Results, out.Details, warnings)
	}
}

func TestSummarize(t *testing.T) {
	npu, gpu := example107()
	s := Summarize(Compare(mustTable(t, "NPU", npu), mustTable(t, "GPU", gpu), Options{Compat: true}))
	if s.APIs != 13 || s.Pass != 2 || s.Error != 7 || s.Skip != 4 || s.Warning != 0 || s.Rows != 14 {
		t.Errorf("%+v", s)
	}
	for _, tc := range []struct{ f, b, want string }{{"SKIP", "pass", "pass"}, {" ", "SKIP", "SKIP"}, {"pass", "Warning", "Warning"}, {"Warning", "error", "error"}} {
		if got := verdict(tc.f, tc.b); got != tc.want {
			t.Errorf("verdict(%q, %q) = %q", tc.f, tc.b, got)
		}
	}
}

// Files of the same second are never overwritten: Run takes the next free
// second for both names.
func TestRunTakesNextFreeSecond(t *testing.T) {
	out := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	taken := filepath.Join(out, "api_precision_compare_details_20260102030405.csv")
	if err := os.WriteFile(taken, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Run(filepath.Join(fixtureDir, "npu_accuracy_checking_details.csv"), filepath.Join(fixtureDir, "gpu_accuracy_checking_details.csv"), out, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(s.ResultPath) != "api_precision_compare_result_20260102030406.csv" || filepath.Base(s.DetailsPath) != "api_precision_compare_details_20260102030406.csv" {
		t.Errorf("%s %s", s.ResultPath, s.DetailsPath)
	}
	if b, _ := os.ReadFile(taken); string(b) != "keep" {
		t.Errorf("existing file overwritten")
	}
}
