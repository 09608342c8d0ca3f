"""The loss family (sdk/ops/schema_loss.go): torch.nn.functional's
mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy,
normalize, one_hot and local_response_norm, run with the real torch.
Conventions as in ops.py."""

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


OPS = {
    "mse_loss": lambda c: F.mse_loss(c.inputs[0], c.inputs[1], reduction=_red(c)),
    "l1_loss": lambda c: F.l1_loss(c.inputs[0], c.inputs[1], reduction=_red(c)),
    "smooth_l1_loss": lambda c: F.smooth_l1_loss(c.inputs[0], c.inputs[1], reduction=_red(c), beta=c.attrs["beta"]),
    "huber_loss": lambda c: F.huber_loss(c.inputs[0], c.inputs[1], reduction=_red(c), delta=c.attrs["delta"]),
    "binary_cross_entropy": _bce,
    "normalize": _normalize,
    "one_hot": lambda c: F.one_hot(c.inputs[0], int(c.attrs["num_classes"])),
    "local_response_norm": _lrn,
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

BACKWARD = set(OPS) - {"one_hot"}
