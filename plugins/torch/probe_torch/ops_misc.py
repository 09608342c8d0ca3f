"""The misc family (sdk/ops/schema_misc.go): the remaining creation ops and
small ops, run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _dtype, _is_t, _num
from .wire import ArgumentError, Scalar

aten = torch.ops.aten

_DT_NAMES = {torch.float64: "float64", torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
             torch.int8: "int8", torch.int16: "int16", torch.int32: "int32", torch.int64: "int64", torch.uint8: "uint8",
             torch.bool: "bool"}


def _numbers(c, *names):
    vals = [_num(v) for v in c.inputs]
    for n, v in zip(names, vals):
        if _is_t(v):
            raise ArgumentError("%s: %s must be a number" % (c.op, n))
    return vals


def _linspace(c):
    start, end = _numbers(c, "start", "end")
    return torch.linspace(start, end, c.attrs["steps"], dtype=_dtype(c.attrs["dtype"]), device=c.device)


def _s_linspace(dt):
    if dt == torch.bool:
        return None
    return [Scalar(0), Scalar(4)], {"steps": 5, "dtype": _DT_NAMES[dt]}


def _logspace(c):
    start, end = _numbers(c, "start", "end")
    return torch.logspace(start, end, c.attrs["steps"], c.attrs["base"], dtype=_dtype(c.attrs["dtype"]), device=c.device)


def _s_logspace(dt):
    if dt == torch.bool:
        return None
    return [Scalar(0), Scalar(2)], {"steps": 3, "base": 2.0, "dtype": _DT_NAMES[dt]}


OPS = {
    "linspace": _linspace,
    "logspace": _logspace,
}

SAMPLES = {
    "linspace": _s_linspace,
    "logspace": _s_logspace,
}

BACKWARD = set()


def _tri_indices(name):
    def f(c):
        row, col = _numbers(c, "row", "col")
        return getattr(torch, name)(row, col, c.attrs["offset"], dtype=_dtype(c.attrs["dtype"]), device=c.device)
    return f


def _s_tri_indices(dt):
    if dt not in (torch.int32, torch.int64):
        return None
    return [Scalar(3), Scalar(4)], {"offset": 0, "dtype": _DT_NAMES[dt]}


OPS.update({"tril_indices": _tri_indices("tril_indices"), "triu_indices": _tri_indices("triu_indices")})
SAMPLES.update({"tril_indices": _s_tri_indices, "triu_indices": _s_tri_indices})
