"""The windows family (sdk/ops/schema_windows.go): torch's signal windows,
run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _dtype, _is_t, _num
from .wire import ArgumentError, Scalar

_DT_NAMES = {torch.float64: "float64", torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}


def _window(c):
    a = c.attrs
    kind = a["kind"]
    fn = getattr(torch, kind + "_window")
    kw = {"dtype": _dtype(a["dtype"]), "device": c.device}
    n = _num(c.inputs[0])
    if _is_t(n):
        raise ArgumentError("window: window_length must be a number")
    periodic = a.get("periodic", True)
    if kind == "hamming":
        return fn(n, periodic, a.get("alpha", 0.54), a.get("beta", 0.46), **kw)
    if kind == "kaiser":
        return fn(n, periodic, a.get("beta", 12.0), **kw)
    return fn(n, periodic, **kw)


def _s_window(dt):
    if dt not in _DT_NAMES:
        return None
    return [Scalar(5)], {"kind": "bartlett", "periodic": True, "dtype": _DT_NAMES[dt]}


OPS = {"window": _window}
SAMPLES = {"window": _s_window}
BACKWARD = set()
