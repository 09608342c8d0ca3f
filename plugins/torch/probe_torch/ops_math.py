"""The elementwise math family (sdk/ops/schema_math.go), each op run with
the real torch: unary functions (log1p ... angle, polygamma, mvlgamma) and
the binary ones (atan2 ... lcm).
Conventions as in ops.py: torch.ops.aten where the op is an ATen op, the
in-place variant on input 0 for attrs["inplace"]."""

import torch

from .ops import _inplace_result, _is_t, _num, _s_binary, _s_unary, _self_tensor, _tname
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


def _polygamma(c):
    x = c.inputs[0]
    if c.attrs["inplace"]:
        return x.polygamma_(c.attrs["n"])
    return aten.polygamma(c.attrs["n"], x)


def _mvlgamma(c):
    x = c.inputs[0]
    if c.attrs["inplace"]:
        return x.mvlgamma_(c.attrs["p"])
    return aten.mvlgamma(x, c.attrs["p"])


def _binary(name):
    """torch.<name> on tensors or Python numbers (torch decides which
    combinations it takes); the in-place variant where torch has one."""
    fn = getattr(torch, name)
    method = name + "_"

    def f(c):
        a, b = c.inputs
        if c.attrs["inplace"]:
            x = _self_tensor(c)
            # ldexp_ runs mul_ with out=, which autograd refuses.
            if hasattr(torch.Tensor, method) and name != "ldexp":
                return getattr(x, method)(_num(b))
            return _inplace_result(x, fn(x, _num(b)))
        if not _is_t(a) and not _is_t(b):
            raise ArgumentError("%s: at least one of the operands must be a tensor" % name)
        return fn(_num(a), _num(b))
    return f


_BINARY = ["atan2", "fmod", "remainder", "copysign", "hypot", "xlogy", "logaddexp", "logaddexp2", "fmax", "fmin",
           "float_power", "ldexp", "nextafter", "heaviside", "gcd", "lcm"]

_UNARY = ["log1p", "expm1", "log2", "log10", "exp2", "sinh", "cosh", "tan", "asin", "acos", "atan", "asinh",
          "acosh", "atanh", "erf", "erfc", "erfinv", "sinc", "deg2rad", "rad2deg", "lgamma", "digamma", "i0",
          "sign", "floor", "ceil", "trunc", "frac", "angle"]

OPS = {name: _unary(name) for name in _UNARY}
OPS.update({
    "logit": _logit,
    "round": _round,
    "nan_to_num": _nan_to_num,
    "polygamma": _polygamma,
    "mvlgamma": _mvlgamma,
})
OPS.update({name: _binary(name) for name in _BINARY})

SAMPLES = {name: _s_unary for name in _UNARY + ["logit", "round", "nan_to_num"]}
SAMPLES.update({name: _s_binary for name in _BINARY})
SAMPLES["polygamma"] = lambda dt: ([_s_unary(dt)[0][0]], {"n": 1})
SAMPLES["mvlgamma"] = lambda dt: ([_s_unary(dt)[0][0]], {"p": 2})

# nextafter, heaviside, gcd and lcm have no derivative in PyTorch.
BACKWARD = set(OPS) - {"nextafter", "heaviside", "gcd", "lcm"}
