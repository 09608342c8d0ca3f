package lower

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestFusionAttention(t *testing.T) { runCases(t, attentionCases(), nil) }

func attentionCases() []lcase {
	bf := func(path string, shape ...int) framework.Arg { return tn(path, tensor.BFloat16, shape...) }
	q, k, v := bf("args.0", 4096, 1, 1536), bf("args.1", 4096, 1, 1536), bf("args.2", 4096, 1, 1536)
	qkv := []framework.Arg{q, k, v, iv(12), sv("SBH")}
	mask := tn("kwargs.atten_mask", tensor.Bool, 1, 1, 4096, 4096)
	// The fixture's call (mindspore_ut_compare_dump_file_pytorch_data_dump.json).
	fixture := []framework.NamedArg{kw("pse", nv()), kw("padding_mask", nv()), kw("atten_mask", mask), kw("scale", fv(0.08838834764831843)),
		kw("pre_tockens", iv(65536)), kw("next_tockens", iv(0)), kw("keep_prob", fv(1)), kw("inner_precise", iv(0)),
		kw("actual_seq_qlen", nv()), kw("actual_seq_kvlen", nv()), kw("sparse_mode", iv(0))}
	with := func(extra ...framework.NamedArg) []framework.NamedArg { return extra }
	b4 := []framework.Arg{f32("args.0", 2, 4, 3, 8), f32("args.1", 2, 2, 5, 8), f32("args.2", 2, 2, 5, 8), iv(4), sv("BNSD")}
	return []lcase{
		{name: "NPU.npu_fusion_attention", args: qkv, kwargs: fixture, op: "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"head_num": ia(12), "input_layout": sa("SBH"), "scale": fa(0.08838834764831843), "keep_prob": fa(1),
				"pre_tockens": ia(65536), "next_tockens": ia(0), "inner_precise": ia(0), "sparse_mode": ia(0),
				"band_anchor": sa("bottom_right"), "zero_masked_rows": ba(false), "semantics": sa("official")},
			in: []string{"args.0", "args.1", "args.2", "none", "kwargs.atten_mask"}},
		// --compat msprobe: the reference's band anchor and mask rules.
		{name: "NPU.npu_fusion_attention", args: qkv, kwargs: fixture, op: "npu.fusion_attention", multi: true, compat: "msprobe",
			attrs: ops.Attrs{"scale": fa(0.08838834764831843), "band_anchor": sa("top_left"), "semantics": sa("msprobe")}},
		// msprobe's reference: scale 1/√D by default, positional options ignored, keep_prob forced to 1.
		{name: "NPU.npu_fusion_attention", args: append(append([]framework.Arg{}, b4...), f32("args.5", 1, 4, 3, 5), nv(), tn("args.7", tensor.Uint8, 3, 5), fv(0.5)),
			kwargs: with(kw("sparse_mode", iv(1)), kw("keep_prob", fv(0.9))), op: "npu.fusion_attention", multi: true, compat: "msprobe",
			attrs: ops.Attrs{"scale": fa(1 / math.Sqrt(8)), "sparse_mode": ia(1), "keep_prob": fa(1)}, in: []string{"args.0", "args.1", "args.2", "none", "none"}},
		// TND with its cumulative lengths; split causal modes 7 and 8.
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{f32("args.0", 6, 2, 4), f32("args.1", 7, 1, 4), f32("args.2", 7, 1, 4), iv(2), sv("TND")},
			kwargs: with(kw("actual_seq_qlen", ints(2, 6)), kw("actual_seq_kvlen", ints(3, 7)), kw("sparse_mode", iv(7)), kw("pre_tockens", iv(4)), kw("next_tockens", iv(0))),
			op:     "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"input_layout": sa("TND"), "actual_seq_qlen": ops.IntsAttr(2, 6), "actual_seq_kvlen": ops.IntsAttr(3, 7), "sparse_mode": ia(7)}},
		// a compressed alibi pse (the last 1024 rows, S1 > 1024), lower-triangle modes only
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{f32("args.0", 1, 2, 1100, 4), f32("args.1", 1, 2, 1100, 4), f32("args.2", 1, 2, 1100, 4), iv(2), sv("BNSD")},
			kwargs: with(kw("pse", f32("kwargs.pse", 1, 2, 1024, 1100)), kw("sparse_mode", iv(3))), op: "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"pse_layout": sa("alibi_compressed")}},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{f32("args.0", 1, 2, 1100, 4), f32("args.1", 1, 2, 1100, 4), f32("args.2", 1, 2, 1100, 4), iv(2), sv("BNSD")},
			kwargs: with(kw("pse", f32("kwargs.pse", 1, 2, 1024, 1100)), kw("sparse_mode", iv(4))), err: "needs the lower-triangle sparse_mode 0, 2 or 3, got 4"},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{f32("args.0", 1, 2, 1100, 4), f32("args.1", 1, 2, 1100, 4), f32("args.2", 1, 2, 1100, 4), iv(2), sv("BNSD")},
			kwargs: with(kw("pse", f32("kwargs.pse", 1, 2, 1024, 1100)), kw("sparse_mode", iv(3))), compat: "msprobe", err: "msprobe's reference cannot broadcast it"},
		// prefix (sparse_mode 5 without a mask, 6).
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(5)), kw("prefix", ints(1, 2))), op: "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"sparse_mode": ia(5), "prefix": ops.IntsAttr(1, 2)}},
		// Defaults: torch_npu's scale 1.0 and tokens 2147483647.
		{name: "NPU.npu_fusion_attention", args: b4, op: "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"scale": fa(1), "pre_tockens": ia(2147483647), "next_tockens": ia(2147483647), "sparse_mode": ia(0)},
			in:    []string{"args.0", "args.1", "args.2", "none", "none"}},
		// Options given by position are honoured (msprobe's bench ignores them).
		{name: "NPU.npu_fusion_attention", args: append(append([]framework.Arg{}, b4...), f32("args.5", 1, 4, 3, 5), nv(), tn("args.7", tensor.Uint8, 3, 5), fv(0.5)),
			kwargs: with(kw("sparse_mode", iv(1))), op: "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"scale": fa(0.5), "sparse_mode": ia(1)}, in: []string{"args.0", "args.1", "args.2", "args.5", "args.7"}},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(3)), kw("pre_tockens", iv(-5000000000))), op: "npu.fusion_attention", multi: true,
			attrs: ops.Attrs{"sparse_mode": ia(3), "pre_tockens": ia(-2147483648)}},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{f32("args.0", 6, 2, 4), f32("args.1", 6, 2, 4), f32("args.2", 6, 2, 4), iv(2), sv("TND")},
			err: "layout TND needs actual_seq_qlen and actual_seq_kvlen"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("actual_seq_qlen", ints(2, 4)), kw("actual_seq_kvlen", ints(2, 4))), err: `argument "actual_seq_qlen": actual_seq_qlen/actual_seq_kvlen need input_layout TND`},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(8))), err: "sparse_mode 8 (split variable-length causal) needs input_layout TND"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("padding_mask", f32("kwargs.padding_mask", 2, 1, 3, 5))), err: "padding_mask is not supported"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("keep_prob", fv(0.9))), err: "cannot be reproduced off the device: not comparable"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("keep_prob", fv(0))), err: "must be in (0, 1]"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(6))), err: "sparse_mode 6 needs an atten_mask or prefix"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(5))), err: "sparse_mode 5 needs an atten_mask or prefix"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(5)), kw("prefix", ints(1, 2))), compat: "msprobe", err: "msprobe's reference crashes"},
		{name: "NPU.npu_fusion_attention", args: b4, kwargs: with(kw("sparse_mode", iv(9))), err: "expected 0..8"},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{q, k, v, iv(12), sv("BHS")}, err: `expected one of BSH, SBH, BSND, BNSD, TND, got "BHS"`},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{q, k, v, iv(12), sv("BSND")}, err: "needs 4-d query, key and value"},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{q, k, v, iv(7), sv("SBH")}, err: "not a multiple of head_num 7"},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{q, k, v, iv(0), sv("SBH")}, err: `argument "head_num": must be positive`},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{q, k, v, iv(12)}, err: `missing required argument "input_layout"`},
		{name: "NPU.npu_fusion_attention", args: []framework.Arg{i64("args.0", 2, 4, 3, 8), b4[1], b4[2], iv(4), sv("BNSD")}, err: "expected a floating tensor"},
	}
}

func TestFlashAttentionScore(t *testing.T) {
	bf := func(path string, shape ...int) framework.Arg {
		a := tn(path, tensor.BFloat16, shape...)
		a.DTypeName = "BFloat16"
		return a
	}
	q, k, v := bf("args.0", 4096, 1, 1536), bf("args.1", 4096, 1, 1536), bf("args.2", 4096, 1, 1536)
	mask := tn("kwargs.attn_mask", tensor.Uint8, 1, 1, 4096, 4096)
	// The fixture's call (mindspore_ut_compare_dump_file_mindspore_data_dump.json).
	l, err := FlashAttentionScore("Functional.flash_attention_score.0", []framework.Arg{q, k, v, iv(12)},
		[]framework.NamedArg{kw("attn_mask", mask), kw("scalar_value", fv(0.08838834764831843)), kw("pre_tokens", iv(65536)),
			kw("next_tokens", iv(0)), kw("input_layout", sv("SBH"))}, "")
	if err != nil {
		t.Fatal(err)
	}
	p := l.Plan
	want := ops.Attrs{"head_num": ia(12), "input_layout": sa("SBH"), "scale": fa(0.08838834764831843), "pre_tockens": ia(65536),
		"next_tockens": ia(0), "sparse_mode": ia(0), "keep_prob": fa(1), "inner_precise": ia(0)}
	for n, a := range want {
		if !reflect.DeepEqual(p.Attrs[n], a) {
			t.Errorf("attr %s = %+v, want %+v", n, p.Attrs[n], a)
		}
	}
	var in []string
	for _, b := range p.Inputs {
		in = append(in, bindStr(b))
	}
	if strings.Join(in, ",") != "args.0,args.1,args.2,none,kwargs.attn_mask" {
		t.Errorf("inputs %v", in)
	}
	if l.MultiOutput || p.GradOutput != 0 || len(p.Compare) != 3 {
		t.Errorf("multi %v, compare %v, grad output %d", l.MultiOutput, p.Compare, p.GradOutput)
	}
	// MindSpore's defaults: input_layout 'BSH', scalar_value 1.0; real_shift is the pse.
	l, err = FlashAttentionScore("Functional.flash_attention_score.1", []framework.Arg{bf("args.0", 2, 3, 8), bf("args.1", 2, 3, 8), bf("args.2", 2, 3, 8), iv(2)},
		[]framework.NamedArg{kw("real_shift", bf("kwargs.real_shift", 2, 2, 3, 3)), kw("sparse_mode", iv(2))}, "")
	if err != nil {
		t.Fatal(err)
	}
	if p := l.Plan; p.Attrs.Str("input_layout", "") != "BSH" || p.Attrs.Float("scale", 0) != 1 || bindStr(p.Inputs[3]) != "kwargs.real_shift" || p.Attrs.Int("sparse_mode", 0) != 2 {
		t.Errorf("defaults: %v %v", p.Attrs, p.Inputs)
	}
	for _, c := range []struct {
		args   []framework.Arg
		kwargs []framework.NamedArg
		want   string
	}{
		{[]framework.Arg{q, k, v, iv(12)}, []framework.NamedArg{kw("input_layout", sv("TND"))}, "layout TND needs actual_seq_qlen"},
		{[]framework.Arg{q, k, v, iv(12)}, []framework.NamedArg{kw("input_layout", sv("SBH")), kw("keep_prob", fv(0.5))}, "keep_prob 0.5 drops"},
		{[]framework.Arg{q, k, v, iv(12)}, []framework.NamedArg{kw("input_layout", sv("SBH")), kw("actual_seq_kvlen", ints(4096))}, "need input_layout TND"},
		{[]framework.Arg{q, k, v, iv(12)}, []framework.NamedArg{kw("pre_tockens", iv(1))}, `unexpected keyword argument "pre_tockens"`},
		{[]framework.Arg{q, k, v}, nil, `missing required argument "head_num"`},
	} {
		_, err := FlashAttentionScore("Functional.flash_attention_score.0", c.args, c.kwargs, "")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "Functional.flash_attention_score.0: ") {
			t.Errorf("skip %v, want one containing %q", err, c.want)
		}
	}
}
