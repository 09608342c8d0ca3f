"""The multi-head attention family (sdk/ops/schema_mha.go):
F.multi_head_attention_forward run with the real torch. Query, key and
value arrive as distinct tensors (the in_proj_weight.chunk(3) path, as in
a replayed dump); need_weights False gives an empty second output where
PyTorch returns None. Conventions as in ops.py."""

import torch
import torch.nn.functional as F

from .ops_loss2 import _f, _floats_only, _nograd
from .wire import ArgumentError


def _mha(c):
    (q, k, v, w, b, bk, bv, wo, bo, kpm, am, qw, kw, vw, sk, sv) = c.inputs
    a = c.attrs
    if a["dropout_p"] > 0 and a["training"]:
        raise ArgumentError("multi_head_attention: dropout_p > 0 with training=True is random")
    try:
        out, weights = _mha_call(q, k, v, w, b, bk, bv, wo, bo, kpm, am, qw, kw, vw, sk, sv, a)
    except AssertionError as e:
        # PyTorch checks the arguments with assert: an invalid argument
        raise ArgumentError(str(e))
    if weights is None:
        weights = torch.empty(0, dtype=out.dtype, device=out.device)
    return [out, weights]


def _mha_call(q, k, v, w, b, bk, bv, wo, bo, kpm, am, qw, kw, vw, sk, sv, a):
    return F.multi_head_attention_forward(
        q, k, v, int(a["embed_dim_to_check"]), int(a["num_heads"]), w, b, bk, bv, bool(a["add_zero_attn"]), float(a["dropout_p"]),
        wo, bo, training=bool(a["training"]), key_padding_mask=_nograd(kpm), need_weights=bool(a["need_weights"]),
        attn_mask=_nograd(am), use_separate_proj_weight=bool(a["use_separate_proj_weight"]), q_proj_weight=qw, k_proj_weight=kw,
        v_proj_weight=vw, static_k=sk, static_v=sv, average_attn_weights=bool(a["average_attn_weights"]))


OPS = {"multi_head_attention": _mha}


def _sample(dt):
    # L=2, S=2, N=1, E=2, H=1
    x = _f(dt, [0.5, -1.25], [2.0, -0.5]).reshape(2, 1, 2)
    w = torch.cat([_f(dt, [0.5, 0.25], [-0.5, 1.0])] * 3)
    ins = [x, x.clone(), x.clone(), w, None, None, None, _f(dt, [1.0, 0.0], [0.0, 1.0]), None] + [None] * 7
    return ins, {"embed_dim_to_check": 2, "num_heads": 1, "add_zero_attn": False, "dropout_p": 0.0, "training": True,
                 "need_weights": True, "use_separate_proj_weight": False, "average_attn_weights": True}


SAMPLES = {"multi_head_attention": _floats_only(_sample)}

BACKWARD = set(OPS)
