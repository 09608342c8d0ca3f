package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The multi-head attention family (sdk/ops/schema_mha.go):
// torch.nn.functional.multi_head_attention_forward. A dump records query,
// key and value as separate tensors, so the replay takes the
// in_proj_weight.chunk(3) path of _in_projection_packed, as the canonical
// op does.

func init() {
	defMulti(mhaForward, "query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, "+
		"add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True, key_padding_mask=None, need_weights=True, "+
		"attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, "+
		"static_k=None, static_v=None, average_attn_weights=True",
		"Functional.multi_head_attention_forward")
	declareOps([]string{"multi_head_attention"}, "Functional.multi_head_attention_forward")
	usedOps = append(usedOps, "multi_head_attention")
}

// mhaOptional are the optional tensor inputs of multi_head_attention in
// its input order, after query, key and value.
var mhaOptional = []string{"in_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj_weight", "out_proj_bias",
	"key_padding_mask", "attn_mask", "q_proj_weight", "k_proj_weight", "v_proj_weight", "static_k", "static_v"}

// mhaForward lowers F.multi_head_attention_forward; dropout with
// training=True is random. PyTorch's shape checks (_mha_shape_check and
// the embedding assertions) give its messages.
func mhaForward(b *bound) (*framework.Plan, error) {
	var ins []framework.Binding
	var qkv [3]framework.Arg
	for i, n := range []string{"query", "key", "value"} {
		a, err := b.tensor(n)
		if err != nil {
			return nil, err
		}
		qkv[i] = a
		ins = append(ins, tensorBinding(a))
	}
	opt := map[string]framework.Arg{}
	for _, n := range mhaOptional {
		if n == "out_proj_weight" {
			a, err := b.tensor(n)
			if err != nil {
				return nil, err
			}
			ins = append(ins, tensorBinding(a))
			continue
		}
		a, ok, err := b.optTensor(n)
		if err != nil {
			return nil, err
		}
		if ok {
			opt[n] = a
		}
		ins = append(ins, optBinding(a, ok))
	}
	attrs := ops.Attrs{}
	for _, n := range []string{"embed_dim_to_check", "num_heads"} {
		v, err := b.integer(n)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.IntAttr(v)
	}
	for _, n := range []string{"add_zero_attn", "training", "need_weights", "use_separate_proj_weight", "average_attn_weights"} {
		v, err := b.boolean(n)
		if err != nil {
			return nil, err
		}
		attrs[n] = ops.BoolAttr(v)
	}
	p, err := b.float("dropout_p")
	if err != nil {
		return nil, err
	}
	attrs["dropout_p"] = ops.FloatAttr(p)
	if p > 0 && attrs["training"].Bool {
		return nil, b.argErr("dropout_p", "dropout_p %v with training=True drops attention weights at random: "+
			"its values cannot be compared with a reference (only dropout_p=0 or training=False is checked)", p)
	}
	if err := mhaShapeCheck(b, qkv, opt, attrs); err != nil {
		return nil, err
	}
	plan := newPlan("multi_head_attention", attrs, ins...)
	if !attrs["need_weights"].Bool {
		// PyTorch returns None for the weights
		plan.Compare = []int{0}
	}
	return plan, nil
}

// mhaShapeCheck is _mha_shape_check and the embedding assertions of
// PyTorch 1.13's multi_head_attention_forward.
func mhaShapeCheck(b *bound, qkv [3]framework.Arg, opt map[string]framework.Arg, attrs ops.Attrs) error {
	q, k, v := qkv[0], qkv[1], qkv[2]
	kpm, hasKPM := opt["key_padding_mask"]
	am, hasAM := opt["attn_mask"]
	nq, nk, nv := len(q.Shape), len(k.Shape), len(v.Shape)
	switch nq {
	case 3:
		if nk != 3 || nv != 3 {
			return b.argErr("key", "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found %d-D and %d-D tensors respectively", nk, nv)
		}
		if hasKPM && len(kpm.Shape) != 2 {
			return b.argErr("key_padding_mask", "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but found %d-D tensor instead", len(kpm.Shape))
		}
		if hasAM && len(am.Shape) != 2 && len(am.Shape) != 3 {
			return b.argErr("attn_mask", "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found %d-D tensor instead", len(am.Shape))
		}
	case 2:
		if nk != 2 || nv != 2 {
			return b.argErr("key", "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found %d-D and %d-D tensors respectively", nk, nv)
		}
		if hasKPM && len(kpm.Shape) != 1 {
			return b.argErr("key_padding_mask", "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but found %d-D tensor instead", len(kpm.Shape))
		}
		if hasAM && len(am.Shape) != 2 && len(am.Shape) != 3 {
			return b.argErr("attn_mask", "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found %d-D tensor instead", len(am.Shape))
		}
	default:
		return b.argErr("query", "query should be unbatched 2D or batched 3D tensor but received %d-D query tensor", nq)
	}
	if hasKPM && !kpm.DType.IsFloat() && kpm.DType != tensor.Bool {
		return b.argErr("key_padding_mask", "only bool and floating types of key_padding_mask are supported")
	}
	if hasAM && !am.DType.IsFloat() && am.DType != tensor.Bool && am.DType != tensor.Uint8 {
		return b.argErr("attn_mask", "Only float, byte, and bool types are supported for attn_mask, not torch.%s", am.DType)
	}
	e, h := int(attrs["embed_dim_to_check"].Int), int(attrs["num_heads"].Int)
	if got := q.Shape[nq-1]; got != e {
		return b.argErr("embed_dim_to_check", "was expecting embedding dimension of %d, but got %d", e, got)
	}
	if h <= 0 || e%h != 0 {
		return b.argErr("num_heads", "embed_dim %d not divisible by num_heads %d", e, h)
	}
	if !q.DType.IsFloat() {
		return b.argErr("query", "expected a floating point tensor, got %s", q.DType)
	}
	return nil
}
