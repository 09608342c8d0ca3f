"""The create family (sdk/ops/schema_create.go): casts and tensor creation,
run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _dtype, _ints, _is_t, _num, _x
from .wire import ArgumentError, Scalar

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


def _fill(c):
    x, v = c.inputs
    if not _is_t(x):
        raise ArgumentError("fill: self must be a tensor")
    dt = _dtype(c.attrs["dtype"])
    # fill_ into a fresh tensor: a tensor value keeps its gradient (the sum
    # of the output's), self's values take none
    return torch.empty_like(x, dtype=dt if dt is not None else x.dtype).fill_(_num(v))


def _s_fill(dt):
    return [_x(dt), Scalar(1)], {}


def _full(c):
    v = c.inputs[0]
    if _is_t(v):
        raise ArgumentError("full: fill_value must be a number")
    return torch.full(_ints(c.attrs["size"]), _num(v), dtype=_dtype(c.attrs["dtype"]), device=c.device)


def _s_full(dt):
    return [Scalar(1)], {"size": [2, 3], "dtype": _DT_NAMES[dt]}


def _triangle(name):
    def f(c):
        x = c.inputs[0]
        if not _is_t(x):
            raise ArgumentError("%s: self must be a tensor" % name)
        if c.attrs["inplace"]:
            return getattr(x, name + "_")(c.attrs["diagonal"])
        return getattr(torch, name)(x, c.attrs["diagonal"])
    return f


def _s_triangle(dt):
    return [_x(dt)], {"diagonal": 0}


def _eye(c):
    n, m = (_num(v) for v in c.inputs)
    if _is_t(n) or _is_t(m):
        raise ArgumentError("eye: n and m must be ints")
    return torch.eye(n, m, dtype=_dtype(c.attrs["dtype"]), device=c.device)


def _s_eye(dt):
    return [Scalar(2), Scalar(3)], {"dtype": _DT_NAMES[dt]}


_DT_NAMES = {torch.float64: "float64", torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
             torch.int8: "int8", torch.int16: "int16", torch.int32: "int32", torch.int64: "int64", torch.uint8: "uint8",
             torch.bool: "bool"}


OPS = {
    "cast": _cast,
    "fill": _fill,
    "full": _full,
    "tril": _triangle("tril"),
    "triu": _triangle("triu"),
    "eye": _eye,
}

SAMPLES = {
    "cast": _s_cast,
    "fill": _s_fill,
    "full": _s_full,
    "tril": _s_triangle,
    "triu": _s_triangle,
    "eye": _s_eye,
}

BACKWARD = {"cast", "fill", "tril", "triu"}
