// Package apilist holds msprobe's fixed API lists, one copy each, for the
// host's dump classification and the framework plugins alike.
package apilist

import "strings"

func set(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

// MindSporeTensorMethods is the MindSpore checker's allow-list of Tensor
// methods (checker_support_api.yaml, key "tensor"; mindspore-precheck
// appendix A): the only Tensor.* entries of a MindSpore dump it checks.
var MindSporeTensorMethods = set(`add_ add addmm_ all allclose any bool byte ceil clamp
	contiguous copy_ cos clone cumprod expand_as flatten float half int is_contiguous isnan item log log2
	long masked_fill max mean min numel numpy repeat repeat_interleave reshape round select sin size
	split sqrt square sub swapaxes to t tolist topk transpose trunc type unsqueeze view view_as fill_
	floor_ clamp_ type_as zero_`)

// MindSporeFusionAPIs are the MindSpore Functional APIs the checker
// accepts (with a reference of its own).
var MindSporeFusionAPIs = set(`flash_attention_score`)

// MindSporeFusedFunctionals are MindSpore's functional equivalents of
// fused torch_npu operators that probe checks and msprobe's MindSpore
// checker does not (issue 13).
var MindSporeFusedFunctionals = set(`rms_norm swiglu rotary_position_embedding`)

// AlwaysBlack are the APIs run_ut never checks, whatever the configured
// lists say (pytorch-precheck §3.5).
var AlwaysBlack = set(`to empty empty_like empty_strided new_empty new_empty_strided empty_with_format`)

// BlackListed is run_ut's SKIP message for an API filtered out by the
// black or white list.
func BlackListed(api string) string {
	return "API " + api + " in black list or not in white list. SKIP."
}
