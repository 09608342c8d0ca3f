"""The create family (sdk/ops/schema_create.go): casts and tensor creation,
run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _dtype, _is_t, _x
from .wire import ArgumentError

aten = torch.ops.aten


def _cast(c):
    x = c.inputs[0]
    if not _is_t(x):
        raise ArgumentError("cast: self must be a tensor")
    dt = _dtype(c.attrs["dtype"])
    if dt is None:
        raise ArgumentError("cast: dtype is required")
    return x.to(dt)


def _s_cast(dt):
    return [_x(dt)], {"dtype": "float32" if dt != torch.float32 else "float64"}


OPS = {
    "cast": _cast,
}

SAMPLES = {
    "cast": _s_cast,
}

BACKWARD = {"cast"}
