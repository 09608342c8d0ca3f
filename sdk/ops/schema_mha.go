package ops

// The multi-head attention family: torch.nn.functional's
// multi_head_attention_forward as PyTorch 1.13's Python composes it from
// its ops (linear, cat, bmm/baddbmm, softmax, sum, div), each intermediate
// a tensor of the query's dtype.

func init() {
	addSchemas(
		Schema{Name: "multi_head_attention", Doc: "F.multi_head_attention_forward of PyTorch 1.13 with q, k and v distinct tensors: " +
			"query (L, N, E) or unbatched (L, E), key and value (S, N, E*) projected by three linears (in_proj_weight.chunk(3) and " +
			"in_proj_bias.chunk(3), or q/k/v_proj_weight with use_separate_proj_weight), bias_k/bias_v (1, 1, E) appended to k and v, " +
			"heads split (N·H, ·, E/H), static_k/static_v replacing them, add_zero_attn appending a zero position, " +
			"softmax(q/sqrt(E/H)·kᵀ + mask)·v with the bool or float attn_mask ((L, S) or (N·H, L, S)) and key_padding_mask ((N, S)) " +
			"merged as 1.13 merges them (no gradient), the out projection; outputs attn_output and the attention weights " +
			"(averaged over heads with average_attn_weights; an empty tensor when need_weights is False); float16 emulated in " +
			"float32 (no CPU addmm, bmm or softmax in PyTorch 1.13); dropout_p > 0 with training refused (random)",
			Inputs: []InputSpec{in("query"), in("key"), in("value"), opt("in_proj_weight"), opt("in_proj_bias"), opt("bias_k"), opt("bias_v"),
				in("out_proj_weight"), opt("out_proj_bias"), {Name: "key_padding_mask", Optional: true}, {Name: "attn_mask", Optional: true},
				opt("q_proj_weight"), opt("k_proj_weight"), opt("v_proj_weight"), opt("static_k"), opt("static_v")},
			Attrs: []AttrSpec{req("embed_dim_to_check", AttrInt, "the expected embedding dimension E"), req("num_heads", AttrInt, "H"),
				attr("add_zero_attn", AttrBool, BoolAttr(false), ""), attr("dropout_p", AttrFloat, FloatAttr(0), "only 0 (or training False) is checked"),
				attr("training", AttrBool, BoolAttr(true), "dropout applies only when training"),
				attr("need_weights", AttrBool, BoolAttr(true), "False: output 1 is an empty tensor (PyTorch returns None)"),
				attr("use_separate_proj_weight", AttrBool, BoolAttr(false), ""),
				attr("average_attn_weights", AttrBool, BoolAttr(true), "")},
			Outputs: 2},
	)
}
