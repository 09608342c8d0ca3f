package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestMHA(t *testing.T) { runCases(t, mhaCases(), nil) }

func mhaCases() []lcase {
	const api = "Functional.multi_head_attention_forward"
	a := func(args ...framework.Arg) []framework.Arg { return args }
	q, k, v := f32("args.0", 5, 2, 8), f32("args.1", 6, 2, 8), f32("args.2", 6, 2, 8)
	w, bi, wo, bo := f32("args.5", 24, 8), f32("args.6", 24), f32("args.11", 8, 8), f32("args.12", 8)
	// the 13 positional arguments: query … out_proj_bias
	pos := func(q, k, v framework.Arg, e, h int64, p float64) []framework.Arg {
		return a(q, k, v, iv(e), iv(h), w, bi, nv(), nv(), bv(false), fv(p), wo, bo)
	}
	plain := ops.Attrs{"embed_dim_to_check": ops.IntAttr(8), "num_heads": ops.IntAttr(2), "add_zero_attn": ops.BoolAttr(false),
		"dropout_p": ops.FloatAttr(0), "training": ops.BoolAttr(true), "need_weights": ops.BoolAttr(true),
		"use_separate_proj_weight": ops.BoolAttr(false), "average_attn_weights": ops.BoolAttr(true)}
	none13 := []string{"none", "none", "none", "none", "none", "none", "none"}
	in := func(extra ...string) []string {
		return append([]string{"args.0", "args.1", "args.2", "args.5", "args.6", "none", "none", "args.11", "args.12"}, extra...)
	}
	boolMask := tn("kwargs.key_padding_mask", tensor.Bool, 2, 6)
	return []lcase{
		{name: api, args: pos(q, k, v, 8, 2, 0), op: "multi_head_attention", attrs: plain, in: in(none13...), multi: true},
		{name: api, args: pos(q, k, v, 8, 2, 0.1), kwargs: []framework.NamedArg{kw("training", bv(false)), kw("key_padding_mask", boolMask),
			kw("need_weights", bv(false)), kw("average_attn_weights", bv(false))},
			op: "multi_head_attention", attrs: ops.Attrs{"dropout_p": ops.FloatAttr(0.1), "training": ops.BoolAttr(false),
				"need_weights": ops.BoolAttr(false), "average_attn_weights": ops.BoolAttr(false)},
			in: in("kwargs.key_padding_mask", "none", "none", "none", "none", "none", "none"), multi: true},
		{name: api, args: pos(q, k, v, 8, 2, 0), kwargs: []framework.NamedArg{kw("use_separate_proj_weight", bv(true)),
			kw("q_proj_weight", f32("kwargs.q", 8, 8)), kw("k_proj_weight", f32("kwargs.k", 8, 8)), kw("v_proj_weight", f32("kwargs.v", 8, 8)),
			kw("static_k", f32("kwargs.sk", 4, 6, 4)), kw("static_v", f32("kwargs.sv", 4, 6, 4)), kw("attn_mask", f32("kwargs.m", 5, 6))},
			op: "multi_head_attention", attrs: ops.Attrs{"use_separate_proj_weight": ops.BoolAttr(true)},
			in: in("none", "kwargs.m", "kwargs.q", "kwargs.k", "kwargs.v", "kwargs.sk", "kwargs.sv"), multi: true},
		{name: api, args: pos(f32("args.0", 5, 8), f32("args.1", 6, 8), f32("args.2", 6, 8), 8, 2, 0), op: "multi_head_attention", multi: true},
		// dropout in training is random
		{name: api, args: pos(q, k, v, 8, 2, 0.1), err: "dropout_p 0.1 with training=True drops attention weights at random"},
		// PyTorch's checks
		{name: api, args: pos(q, k, v, 6, 2, 0), err: "was expecting embedding dimension of 6, but got 8"},
		{name: api, args: pos(q, k, v, 8, 3, 0), err: "embed_dim 8 not divisible by num_heads 3"},
		{name: api, args: pos(f32("args.0", 1, 5, 2, 8), k, v, 8, 2, 0), err: "query should be unbatched 2D or batched 3D tensor but received 4-D query tensor"},
		{name: api, args: pos(q, f32("args.1", 6, 8), v, 8, 2, 0), err: "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found 2-D and 3-D tensors respectively"},
		{name: api, args: pos(q, k, v, 8, 2, 0), kwargs: []framework.NamedArg{kw("key_padding_mask", i64("kwargs.key_padding_mask", 2, 6))},
			err: "only bool and floating types of key_padding_mask are supported"},
		{name: api, args: pos(q, k, v, 8, 2, 0), kwargs: []framework.NamedArg{kw("attn_mask", f32("kwargs.attn_mask", 6))},
			err: "expected `attn_mask` to be `None`, 2-D or 3-D but found 1-D tensor instead"},
		{name: api, args: pos(q, k, v, 8, 2, 0), kwargs: []framework.NamedArg{kw("attn_mask", i64("kwargs.attn_mask", 5, 6))},
			err: "Only float, byte, and bool types are supported for attn_mask, not torch.int64"},
		{name: api, args: pos(q, k, v, 8, 2, 0), kwargs: []framework.NamedArg{kw("attn_mask", tn("kwargs.attn_mask", tensor.Uint8, 5, 6))},
			op: "multi_head_attention", multi: true},
		{name: api, args: pos(q, k, v, 8, 2, 0)[:12], err: `missing required argument "out_proj_bias"`},
		{name: api, args: pos(q, k, v, 8, 2, 0), kwargs: []framework.NamedArg{kw("need_weights", iv(1))}, err: `argument "need_weights": expected bool`},
	}
}
