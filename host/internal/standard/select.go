package standard

import (
	"strings"

	"github.com/probe-dev/probe/sdk/tensor"
)

// Algorithm is one of the precision standards of pytorch-precheck §6.1.
type Algorithm int

// The standards (pytorch-precheck §6.1). The zero value is the benchmark
// standard, the fallback for every API that no Appendix B list names.
const (
	AlgBenchmark         Algorithm = iota // benchmark (标杆比对法)
	AlgULP                                // ulp_compare (ULP误差比对法)
	AlgBinary                             // binary_consistency (二进制一致法)
	AlgAbsoluteThreshold                  // absolute_threshold (绝对阈值法)
	AlgThousandth                         // thousandth_threshold (双千指标法)
	AlgAccumulative                       // accumulative_error_compare (累积误差比对法)
)

var algNames = [...]struct{ code, display string }{
	AlgBenchmark:         {"benchmark", "标杆比对法"},
	AlgULP:               {"ulp_compare", "ULP误差比对法"},
	AlgBinary:            {"binary_consistency", "二进制一致法"},
	AlgAbsoluteThreshold: {"absolute_threshold", "绝对阈值法"},
	AlgThousandth:        {"thousandth_threshold", "双千指标法"},
	AlgAccumulative:      {"accumulative_error_compare", "累积误差比对法"},
}

// String returns msprobe's code name of the standard ("benchmark",
// "ulp_compare", "binary_consistency", "absolute_threshold",
// "thousandth_threshold", "accumulative_error_compare").
func (a Algorithm) String() string {
	if a < 0 || int(a) >= len(algNames) {
		return "unknown"
	}
	return algNames[a].code
}

// DisplayName returns the Chinese name api_precision_compare writes in its
// 比对算法 column (§6.1): 标杆比对法, ULP误差比对法, 二进制一致法, 绝对阈值法,
// 双千指标法, 累积误差比对法.
func (a Algorithm) DisplayName() string {
	if a < 0 || int(a) >= len(algNames) {
		return ""
	}
	return algNames[a].display
}

// Appendix B of pytorch-precheck (api_precision_standard.yaml), in the order
// the categories are tried.
var (
	absoluteThreshAPIs = []string{"mul", "mul_", "__mul__", "__imul__", "__rmul__", "add", "add_", "__add__",
		"__iadd__", "__radd__", "div", "div_", "__div__", "__idiv__", "divide", "divide_", "leaky_relu",
		"leaky_relu_", "prelu", "reciprocal", "reciprocal_", "rsqrt", "rsqrt_", "square", "square_", "sub",
		"sub_", "rsub", "__isub__", "__sub__"}
	binaryCompareAPIs = []string{"abs", "abs_", "absolute", "absolute_", "argmin", "bitwise_and", "bitwise_and_",
		"broadcast_to", "ceil", "ceil_", "equal", "fill_", "flatten", "floor", "floor_", "gather", "greater",
		"greater_", "greater_equal", "greater_equal_", "histc", "isfinite", "isnan", "less", "less_",
		"less_equal", "less_equal_", "logical_and", "logical_and_", "logical_not", "logical_not_",
		"logical_or", "logical_or_", "masked_fill", "masked_fill_", "max_pool3d", "maximum", "minimum", "neg",
		"neg_", "nonzero", "not_equal", "not_equal_", "one_hot", "pad", "relu", "reshape", "round", "round_",
		"select", "sign", "sign_", "sort", "tile", "topk", "transpose", "transpose_", "tril", "tril_", "triu",
		"triu_", "type_as"}
	ulpAPIs = []string{"__matmul__", "addbmm", "addbmm_", "addmm", "addmm_", "baddbmm", "baddbmm_", "bilinear",
		"bmm", "chain_matmul", "hspmm", "linear", "matmul", "mm", "mv", "smm", "sspaddmm"}
	thousandthAPIs   = []string{"conv1d", "conv2d"}
	accumulativeAPIs = []string{"test_api"}
)

// apiCategory maps a short API name to its Appendix B category. Built once;
// an earlier category wins, as in §6.1 step 4.
var apiCategory = func() map[string]Algorithm {
	m := map[string]Algorithm{}
	for _, c := range []struct {
		alg  Algorithm
		apis []string
	}{
		{AlgAbsoluteThreshold, absoluteThreshAPIs},
		{AlgBinary, binaryCompareAPIs},
		{AlgULP, ulpAPIs},
		{AlgThousandth, thousandthAPIs},
		{AlgAccumulative, accumulativeAPIs},
	} {
		for _, a := range c.apis {
			if _, ok := m[a]; !ok {
				m[a] = c.alg
			}
		}
	}
	return m
}()

// CategoryAPIs returns the short API names of Appendix B listed under
// standard a (nil for AlgBenchmark, the fallback). The slice is a copy.
func CategoryAPIs(a Algorithm) []string {
	var l []string
	switch a {
	case AlgAbsoluteThreshold:
		l = absoluteThreshAPIs
	case AlgBinary:
		l = binaryCompareAPIs
	case AlgULP:
		l = ulpAPIs
	case AlgThousandth:
		l = thousandthAPIs
	case AlgAccumulative:
		l = accumulativeAPIs
	}
	return append([]string(nil), l...)
}

// dtypeKey normalises a dtype spelling to its short name: "torch.float16",
// "float16" and "Float16" all give "float16". Builtin type strings such as
// "<class 'int'>" and blanks are returned trimmed but otherwise unchanged.
func dtypeKey(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<") {
		return s
	}
	s = strings.TrimPrefix(s, "torch_npu.")
	s = strings.TrimPrefix(s, "torch.")
	switch s {
	case "half":
		return "float16"
	case "float":
		return "float32"
	case "double":
		return "float64"
	}
	return strings.ToLower(s)
}

// IsFP8 reports whether the dtype string names an fp8 type
// (torch.float8_e4m3fn, torch.float8_e5m2) or HiFloat8
// (torch_npu.HiFloat8Tensor, torch_npu.hifloat8).
func IsFP8(dtype string) bool {
	switch dtypeKey(dtype) {
	case "float8_e4m3fn", "float8_e5m2", "hifloat8tensor", "hifloat8":
		return true
	}
	return false
}

// newStandardFloat is the set of §6.1 step 3: output dtypes that are judged
// by an Appendix B category rather than binary consistency.
func newStandardFloat(key string) bool {
	switch key {
	case "float16", "bfloat16", "float32", "float8_e4m3fn", "float8_e5m2", "float64", "complex64", "complex128":
		return true
	}
	return false
}

// Select is the standard selection of pytorch-precheck §6.1, shared by
// run_ut and api_precision_compare. api is the short API name ("conv2d",
// "__mul__", "mul_"); outDType is the device output dtype and inDType the
// input dtype, in any spelling ("torch.float16", "float16", "Float16";
// builtin types such as "<class 'int'>" are accepted). Steps: fp8/HiF8
// output → ULP; fp8/HiF8 input → absolute threshold; an output dtype other
// than fp16/bf16/fp32/fp8/fp64/complex → binary consistency; else the first
// Appendix B category naming the API; else benchmark.
func Select(api, outDType, inDType string) Algorithm {
	if IsFP8(outDType) {
		return AlgULP
	}
	if IsFP8(inDType) {
		return AlgAbsoluteThreshold
	}
	if !newStandardFloat(dtypeKey(outDType)) {
		return AlgBinary
	}
	return SelectAPI(api)
}

// SelectDType is Select for tensor dtypes (the input is not fp8: probe's
// tensor types have none).
func SelectDType(api string, out tensor.DType) Algorithm {
	if !out.IsFloat() {
		return AlgBinary
	}
	return SelectAPI(api)
}

// SelectAPI is §6.1 steps 4-5 alone: the Appendix B category of the short
// API name, or AlgBenchmark when no list names it.
func SelectAPI(api string) Algorithm {
	if a, ok := apiCategory[api]; ok {
		return a
	}
	return AlgBenchmark
}
