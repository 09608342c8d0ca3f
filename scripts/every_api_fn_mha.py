"""Every-API dump recipes for the multi-head attention family
(torch.nn.functional's multi_head_attention_forward): see
make_every_api_dump.py and every_api_fn_base.py for the conventions.
Query, key and value are distinct tensors (the in_proj_weight.chunk(3)
path); dropout_p is 0 (dropout in training is random); the key padding
mask keeps position 0 of every sequence (no row all −inf)."""

import torch


def _mha(t):
    L, S, N, E, H = 5, 6, 2, 8, 2
    return ([t.f(L, N, E), t.f(S, N, E), t.f(S, N, E), E, H, t.f(3 * E, E) * 0.3, t.f(3 * E), None, None, False, 0.0,
             t.f(E, E) * 0.3, t.f(E)],
            {"key_padding_mask": t.b(N, S) & (torch.arange(S) > 0)})


RECIPES = {
    "multi_head_attention_forward": _mha,
}
