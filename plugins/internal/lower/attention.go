package lower

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// Fused attention: torch_npu.npu_fusion_attention (NPU namespace) and
// MindSpore's flash_attention_score, both onto npu.fusion_attention
// (fused-ops.md §7, mindspore-precheck.md §5), with torch_npu's documented
// semantics: every option is read by position as well as by keyword, the
// scale defaults to 1.0, the masks are the sparse-mode note's, TND is
// computed per batch, inner_precise 2 zeroes fully masked rows (the
// kernel's attnInvalidRows), and attention_out, softmax_max and
// softmax_sum are compared. MindSpore's own names (real_shift,
// scalar_value, pre_tokens, next_tokens, input_layout='BSH') are honoured.
// Under --compat msprobe the plan is msprobe's reference (semantics
// "msprobe", docs/compat.md rows 29-33): keyword options only, scale
// 1/√D, its masks, unmasked fully masked rows, attention_out alone.
//
// Skipped, with the reason: padding_mask, keep_prob < 1 (the device's
// dropout mask cannot be reproduced), and the calls torch_npu documents as
// unsupported (pse or sparse_mode 5 with TND, ...).

// npuFusionAttentionSig is torch_npu's documented signature.
const npuFusionAttentionSig = "query, key, value, head_num, input_layout, pse=None, padding_mask=None, atten_mask=None, " +
	"scale=1.0, keep_prob=1.0, pre_tockens=2147483647, next_tockens=2147483647, inner_precise=0, prefix=None, " +
	"actual_seq_qlen=None, actual_seq_kvlen=None, sparse_mode=0, gen_mask_parallel=True, sync=False"

// flashAttentionScoreSig is MindSpore's ops.flash_attention_score.
const flashAttentionScoreSig = "query, key, value, head_num, real_shift=None, drop_mask=None, padding_mask=None, " +
	"attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, keep_prob=1.0, scalar_value=1.0, " +
	"pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0, input_layout='BSH', sparse_mode=0"

// npuFusionAttentionGradSig is the aten backward of npu_fusion_attention
// (fused-ops.md §7.1), with the varlen lengths of newer torch_npu.
const npuFusionAttentionGradSig = "query, key, value, dy, head_num, input_layout, *, pse=None, padding_mask=None, atten_mask=None, " +
	"softmax_max=None, softmax_sum=None, softmax_in=None, attention_in=None, scale_value=1.0, keep_prob=1.0, " +
	"pre_tockens=2147483647, next_tockens=2147483647, inner_precise=0, seed=0, offset=0, numels=0, prefix=None, " +
	"actual_seq_qlen=None, actual_seq_kvlen=None, sparse_mode=0, gen_mask_parallel=True, sync=False"

var flashAttentionScore = mustSig(flashAttentionScoreSig)

var npuAttnNames = attnNames{pse: "pse", mask: "atten_mask", scale: "scale", pre: "pre_tockens", next: "next_tockens"}

func init() {
	defMulti(fusionAttention(npuAttnNames), npuFusionAttentionSig, "NPU.npu_fusion_attention")
	defMulti(fusionAttentionGrad, npuFusionAttentionGradSig, "Aten.npu_fusion_attention_grad")
}

// fusionAttentionGrad lowers the aten record npu_fusion_attention_grad
// (query, key, value, dy, ...) → (dq, dk, dv, dpse) onto
// npu.fusion_attention_grad: the gradients the forward's backward
// computes, recomputing the probabilities from q, k, the mask and pse (the
// reference ignores softmax_max/sum and attention_in, §7.7). dq, dk and dv
// are compared, and dpse when a pse is given (msprobe's reference returns
// no dpse: --compat msprobe compares the first three only).
func fusionAttentionGrad(b *bound) (*framework.Plan, error) {
	n := npuAttnNames
	n.scale = "scale_value"
	p, err := fusionAttention(n)(b)
	if err != nil {
		return nil, err
	}
	dy, err := b.tensor("dy")
	if err != nil {
		return nil, err
	}
	if !dy.DType.IsFloat() {
		return nil, b.argErr("dy", "expected a floating tensor, got %s", dy.DType)
	}
	p.Op = "npu.fusion_attention_grad"
	p.Inputs = append(p.Inputs[:3], append([]framework.Binding{tensorBinding(dy)}, p.Inputs[3:]...)...)
	p.Compare = []int{0, 1, 2}
	if p.Inputs[4].Kind != framework.BindNone && b.compat != "msprobe" {
		p.Compare = append(p.Compare, 3)
	}
	p.GradOutput = 0
	return p, nil
}

// attnNames are a signature's parameter names for the op's inputs and
// attributes.
type attnNames struct {
	pse, mask, scale, pre, next string
	dropMask                    string // MindSpore only
}

var msAttnNames = attnNames{pse: "real_shift", mask: "attn_mask", scale: "scalar_value", pre: "pre_tokens", next: "next_tokens", dropMask: "drop_mask"}

// FlashAttentionScore lowers MindSpore's Functional.flash_attention_score
// call (api is the full name used in skip reasons) with MindSpore's
// signature and defaults. The functional returns attention_out only, so
// the lowered call is single-output.
func FlashAttentionScore(api string, args []framework.Arg, kwargs []framework.NamedArg, compat string) (l *Lowered, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("%s: internal error while planning: %v", api, r)
		}
	}()
	b := &bound{api: api, name: "flash_attention_score", compat: compat}
	if err := flashAttentionScore.bind(b, args, kwargs, nil); err != nil {
		return nil, err
	}
	p, err := fusionAttention(msAttnNames)(b)
	if err != nil {
		return nil, err
	}
	if err := complete(p); err != nil {
		return nil, fmt.Errorf("%s: internal error: %v", api, err)
	}
	if err := CheckPlan(p); err != nil {
		return nil, fmt.Errorf("%s: internal error: %v", api, err)
	}
	return &Lowered{Plan: p}, nil
}

func fusionAttention(n attnNames) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		ref := b.compat == "msprobe"
		// given reports whether an option takes the caller's value:
		// msprobe's reference reads options from keywords only (§17 #3).
		given := func(name string) bool { return b.given[name] && !(ref && b.positional[name]) }
		in, err := b.floatTensors("query", "key", "value")
		if err != nil {
			return nil, err
		}
		if !b.isNone("padding_mask") {
			return nil, b.argErr("padding_mask", "padding_mask is not supported (torch_npu documents it as unsupported)")
		}
		heads, err := b.integer("head_num")
		if err != nil {
			return nil, err
		}
		if heads <= 0 {
			return nil, b.argErr("head_num", "must be positive, got %d", heads)
		}
		layout, err := b.str("input_layout")
		if err != nil {
			return nil, err
		}
		rank := map[string]int{"BSH": 3, "SBH": 3, "BSND": 4, "BNSD": 4, "TND": 3}
		switch r, ok := rank[layout]; {
		case !ok:
			return nil, b.argErr("input_layout", "expected one of BSH, SBH, BSND, BNSD, TND, got %q", layout)
		case len(in[0].Shape) != r || len(in[1].Shape) != r || len(in[2].Shape) != r:
			return nil, b.errf("input_layout %s needs %d-d query, key and value, got %v, %v, %v", layout, r, in[0].Shape, in[1].Shape, in[2].Shape)
		}
		if layout == "BSH" || layout == "SBH" {
			if h := in[0].Shape[2]; h%int(heads) != 0 {
				return nil, b.argErr("head_num", "query hidden size %d is not a multiple of head_num %d", h, heads)
			}
		}
		scale := 1.0 // torch_npu's documented default
		switch {
		case given(n.scale):
			if scale, err = b.float(n.scale); err != nil {
				return nil, err
			}
		case ref:
			// msprobe's reference defaults to 1/√D (§17 #1)
			d := attnHeadDim(layout, in[0].Shape, int(heads))
			if d <= 0 {
				return nil, b.argErr("input_layout", "head dim D of query %v is 0", in[0].Shape)
			}
			scale = 1 / math.Sqrt(float64(d))
		}
		keep, err := b.float("keep_prob")
		if err != nil {
			return nil, err
		}
		if keep != 1 && !ref { // msprobe's reference forces keep_prob to 1 (§17 #2)
			if !(keep > 0 && keep < 1) {
				return nil, b.argErr("keep_prob", "must be in (0, 1], got %g", keep)
			}
			return nil, b.argErr("keep_prob", "keep_prob %g drops attention weights with the device's Philox stream (seed and offset of the call), which cannot be reproduced off the device: not comparable", keep)
		}
		if n.dropMask != "" && !b.isNone(n.dropMask) {
			if _, err := b.tensor(n.dropMask); err != nil {
				return nil, err
			}
		}
		toks := [3]int64{math.MaxInt32, math.MaxInt32, 0}
		for i, name := range []string{n.pre, n.next, "inner_precise"} {
			if !given(name) {
				continue
			}
			if toks[i], err = b.integer(name); err != nil {
				return nil, err
			}
		}
		mode := int64(0)
		if given("sparse_mode") {
			if mode, err = b.integer("sparse_mode"); err != nil {
				return nil, err
			}
		}
		var pse, mask framework.Arg
		hasPse, hasMask := false, false
		if given(n.pse) {
			if pse, hasPse, err = b.optTensor(n.pse); err != nil {
				return nil, err
			}
		}
		if hasPse && !pse.DType.IsFloat() {
			return nil, b.argErr(n.pse, "expected a floating tensor, got %s", pse.DType)
		}
		if given(n.mask) {
			if mask, hasMask, err = b.optTensor(n.mask); err != nil {
				return nil, err
			}
		}
		seqs := map[string][]int64{}
		for _, name := range []string{"actual_seq_qlen", "actual_seq_kvlen", "prefix"} {
			if b.isNone(name) {
				continue
			}
			v, err := b.intList(name, 0, false)
			if err != nil {
				return nil, err
			}
			seqs[name] = v
		}
		varlen := layout == "TND"
		switch {
		case mode < 0 || mode > 8:
			return nil, b.argErr("sparse_mode", "expected 0..8, got %d", mode)
		case varlen && (seqs["actual_seq_qlen"] == nil || seqs["actual_seq_kvlen"] == nil):
			return nil, b.argErr("input_layout", "layout TND needs actual_seq_qlen and actual_seq_kvlen")
		case !varlen && (seqs["actual_seq_qlen"] != nil || seqs["actual_seq_kvlen"] != nil):
			return nil, b.argErr("actual_seq_qlen", "actual_seq_qlen/actual_seq_kvlen need input_layout TND, got %s", layout)
		case !varlen && (mode == 7 || mode == 8):
			return nil, b.argErr("sparse_mode", "sparse_mode %d (split variable-length causal) needs input_layout TND", mode)
		case varlen && mode == 5:
			return nil, b.argErr("sparse_mode", "sparse_mode 5 (uncompressed prefix) is not supported with input_layout TND (torch_npu documents it so)")
		case varlen && hasPse:
			return nil, b.argErr(n.pse, "pse with input_layout TND (compressed alibi form) is not supported")
		case varlen && hasMask && (mode == 0 || mode == 1):
			return nil, b.argErr(n.mask, "an explicit atten_mask with input_layout TND and sparse_mode %d is not supported", mode)
		case (mode == 5 || mode == 6) && !hasMask && seqs["prefix"] == nil:
			return nil, b.argErr("sparse_mode", "sparse_mode %d needs an atten_mask or prefix", mode)
		case ref && mode >= 5 && !hasMask:
			return nil, b.argErr("sparse_mode", "sparse_mode %d without an atten_mask: msprobe's reference crashes (--compat msprobe)", mode)
		}
		pseLayout := "full"
		if hasPse && len(pse.Shape) == 4 && pse.Shape[2] == 1024 && !varlen {
			s1 := attnSeqLen(layout, in[0].Shape)
			switch {
			case s1 <= 1024:
			case ref:
				return nil, b.argErr(n.pse, "compressed alibi pse (the last 1024 rows of a query length %d): msprobe's reference cannot broadcast it (--compat msprobe)", s1)
			case mode != 0 && mode != 2 && mode != 3:
				return nil, b.argErr(n.pse, "compressed alibi pse (the last 1024 rows of a query length %d) needs the lower-triangle sparse_mode 0, 2 or 3, got %d", s1, mode)
			default:
				pseLayout = "alibi_compressed"
			}
		}
		attrs := ops.Attrs{
			"head_num":      ops.IntAttr(heads),
			"input_layout":  ops.StringAttr(layout),
			"scale":         ops.FloatAttr(scale),
			"keep_prob":     ops.FloatAttr(1),
			"pre_tockens":   ops.IntAttr(clampTokens(toks[0])),
			"next_tockens":  ops.IntAttr(clampTokens(toks[1])),
			"inner_precise": ops.IntAttr(toks[2]),
			"sparse_mode":   ops.IntAttr(mode),
			"band_anchor":   ops.StringAttr("bottom_right"),
			"semantics":     ops.StringAttr("official"),
			"pse_layout":    ops.StringAttr(pseLayout),
		}
		if ref {
			attrs["band_anchor"], attrs["semantics"] = ops.StringAttr("top_left"), ops.StringAttr("msprobe")
		}
		for name, v := range seqs {
			attrs[name] = ops.IntsAttr(v...)
		}
		p := newPlan("npu.fusion_attention", attrs, tensorBinding(in[0]), tensorBinding(in[1]), tensorBinding(in[2]),
			optBinding(pse, hasPse), optBinding(mask, hasMask))
		// attention_out, softmax_max and softmax_sum are compared; run_ut
		// keeps attention_out only (§17 #8)
		p.Compare = []int{0, 1, 2}
		if ref {
			p.Compare = []int{0}
		}
		p.GradOutput = 0
		return p, nil
	}
}

// attnHeadDim is the head dim D of a query in the layout (0 when the
// shape does not fit it).
func attnHeadDim(layout string, q []int, heads int) int {
	switch {
	case (layout == "BSH" || layout == "SBH") && len(q) == 3 && heads > 0:
		return q[2] / heads
	case (layout == "BSND" || layout == "BNSD") && len(q) == 4:
		return q[3]
	case layout == "TND" && len(q) == 3:
		return q[2]
	}
	return 0
}

// attnSeqLen is the query length S1 of a query in the layout.
func attnSeqLen(layout string, q []int) int {
	switch layout {
	case "BSH", "BSND":
		return q[1]
	case "SBH", "TND":
		return q[0]
	}
	return q[2]
}

// clampTokens keeps a token count within int64 arithmetic of the kernel's
// band test (j − i compared with next and −pre).
func clampTokens(v int64) int64 {
	return max(min(v, math.MaxInt32), math.MinInt32)
}
