"""The loss family (sdk/ops/schema_loss.go): torch.nn.functional's
mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy,
normalize, one_hot and local_response_norm, run with the real torch.
Conventions as in ops.py."""

import math

import torch
import torch.nn.functional as F

from .ops import _ints
from .ops_loss2 import _f, _floats_only, _nograd
from .wire import ArgumentError


def _red(c):
    r = c.attrs["reduction"]
    if r not in ("none", "mean", "sum"):
        raise ArgumentError("%s is not a valid value for reduction" % r)
    return r


def _bce(c):
    x, t, w = c.inputs
    try:
        return F.binary_cross_entropy(x, t, _nograd(w), reduction=_red(c))
    except ValueError as e:
        raise ArgumentError(str(e))


def _normalize(c):
    dims = _ints(c.attrs["dim"])
    return F.normalize(c.inputs[0], c.attrs["p"], dims[0] if len(dims) == 1 else dims, c.attrs["eps"])


def _lrn(c):
    a = c.attrs
    try:
        return F.local_response_norm(c.inputs[0], int(a["size"]), a["alpha"], a["beta"], a["k"])
    except ValueError as e:
        raise ArgumentError(str(e))


def _sdpa(c):
    """PyTorch 2's F.scaled_dot_product_attention where torch has it, else
    its documented composition (PyTorch 1.13)."""
    q, k, v, m = c.inputs
    a = c.attrs
    if a["dropout_p"]:
        raise ArgumentError("scaled_dot_product_attention: dropout_p > 0 is random")
    m = _nograd(m)
    if hasattr(F, "scaled_dot_product_attention"):
        kw = {"scale": a["scale"]}
        if a["enable_gqa"]:
            kw["enable_gqa"] = True
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m, dropout_p=0.0, is_causal=bool(a["is_causal"]), **kw)
    L, S = q.size(-2), k.size(-2)
    sf = 1 / math.sqrt(q.size(-1)) if a["scale"] is None else a["scale"]
    bias = torch.zeros(L, S, dtype=q.dtype)
    if a["is_causal"]:
        if m is not None:
            raise ArgumentError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
        bias = bias.masked_fill(torch.ones(L, S, dtype=torch.bool).tril(diagonal=0).logical_not(), float("-inf"))
    if m is not None:
        bias = bias.masked_fill(m.logical_not(), float("-inf")) if m.dtype == torch.bool else m + bias
    if a["enable_gqa"]:
        k = k.repeat_interleave(q.size(-3) // k.size(-3), -3)
        v = v.repeat_interleave(q.size(-3) // v.size(-3), -3)
    w = q @ k.transpose(-2, -1) * sf
    w = w + bias
    return torch.softmax(w, dim=-1) @ v


OPS = {
    "mse_loss": lambda c: F.mse_loss(c.inputs[0], c.inputs[1], reduction=_red(c)),
    "l1_loss": lambda c: F.l1_loss(c.inputs[0], c.inputs[1], reduction=_red(c)),
    "smooth_l1_loss": lambda c: F.smooth_l1_loss(c.inputs[0], c.inputs[1], reduction=_red(c), beta=c.attrs["beta"]),
    "huber_loss": lambda c: F.huber_loss(c.inputs[0], c.inputs[1], reduction=_red(c), delta=c.attrs["delta"]),
    "binary_cross_entropy": _bce,
    "normalize": _normalize,
    "one_hot": lambda c: F.one_hot(c.inputs[0], int(c.attrs["num_classes"])),
    "local_response_norm": _lrn,
    "scaled_dot_product_attention": _sdpa,
}

_X = ([0.5, -1.25], [2.0, -0.5])
_T = ([1.0, 0.0], [0.25, 1.0])
_P = ([0.25, 0.75], [0.5, 0.125])

SAMPLES = {
    "mse_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T)], {"reduction": "mean"}), half=True),
    "l1_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T)], {"reduction": "mean"}), half=True),
    "smooth_l1_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T)], {"reduction": "mean", "beta": 1.0}), half=True),
    "huber_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T)], {"reduction": "mean", "delta": 1.0}), half=True),
    "binary_cross_entropy": _floats_only(lambda dt: ([_f(dt, *_P), _f(dt, *_T), None], {"reduction": "mean"}), half=True),
    "normalize": _floats_only(lambda dt: ([_f(dt, *_X)], {"p": 2.0, "dim": [1], "eps": 1e-12}), half=True),
    "one_hot": lambda dt: ([torch.tensor([0, 2, 1])], {"num_classes": -1}) if dt == torch.int64 else None,
    "local_response_norm": _floats_only(lambda dt: ([_f(dt, *_X).reshape(1, 2, 2)], {"size": 2, "alpha": 1e-4, "beta": 0.75, "k": 1.0}),
                                        half=True),
}

SAMPLES["scaled_dot_product_attention"] = _floats_only(
    lambda dt: ([_f(dt, *_X).reshape(1, 2, 2), _f(dt, *_T).reshape(1, 2, 2), _f(dt, *_P).reshape(1, 2, 2), None],
                {"dropout_p": 0.0, "is_causal": False, "scale": None, "enable_gqa": False}))

BACKWARD = set(OPS) - {"one_hot"}
