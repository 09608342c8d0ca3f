"""The elementwise math family (sdk/ops/schema_math.go), each op run with
the real torch: unary functions (log1p ... angle) and the binary ones.
Conventions as in ops.py: torch.ops.aten where the op is an ATen op, the
in-place variant on input 0 for attrs["inplace"]."""

import torch

from .ops import _inplace_result, _s_unary, _tname
from .wire import ArgumentError

aten = torch.ops.aten

# PyTorch 1.13 has no derivative for these in-place variants (and no
# angle_): the in-place result is formed by hand (same values, same cast
# rule), so that autograd runs.
_NO_INPLACE_GRAD = {"asinh", "acosh", "atanh"}


def _unary(name):
    fn = getattr(aten, name)
    method = name + "_"

    def f(c):
        x = c.inputs[0]
        if c.attrs["inplace"]:
            if name in _NO_INPLACE_GRAD or not hasattr(torch.Tensor, method):
                return _inplace_result(x, fn(x))
            return getattr(x, method)()
        return fn(x)
    return f


def _logit(c):
    x = c.inputs[0]
    eps = c.attrs["eps"]
    if c.attrs["inplace"]:
        return x.logit_(eps)
    return aten.logit(x, eps)


def _round(c):
    x = c.inputs[0]
    d = c.attrs["decimals"]
    if d != 0 and not x.is_floating_point():
        # PyTorch 1.13's CPU message; a missing kernel elsewhere would read
        # as an unsupported dtype.
        raise ArgumentError('"round_cpu" not implemented for \'%s\'' % _tname(x.dtype))
    if c.attrs["inplace"]:
        return x.round_(decimals=d) if d != 0 else x.round_()
    return aten.round(x, decimals=d) if d != 0 else aten.round(x)


def _nan_to_num(c):
    x = c.inputs[0]
    a = c.attrs
    if c.attrs["inplace"]:
        return x.nan_to_num_(a["nan"], a["posinf"], a["neginf"])
    return aten.nan_to_num(x, a["nan"], a["posinf"], a["neginf"])


_UNARY = ["log1p", "expm1", "log2", "log10", "exp2", "sinh", "cosh", "tan", "asin", "acos", "atan", "asinh",
          "acosh", "atanh", "erf", "erfc", "erfinv", "sinc", "deg2rad", "rad2deg", "lgamma", "digamma", "i0",
          "sign", "floor", "ceil", "trunc", "frac", "angle"]

OPS = {name: _unary(name) for name in _UNARY}
OPS.update({
    "logit": _logit,
    "round": _round,
    "nan_to_num": _nan_to_num,
})

SAMPLES = {name: _s_unary for name in OPS}

BACKWARD = set(OPS)
