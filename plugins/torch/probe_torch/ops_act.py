"""The act family (sdk/ops/schema_act.go): torch.nn.functional's elu,
leaky_relu, hardtanh (relu6), hardsigmoid, hardswish, mish, softplus,
softshrink, softsign, tanhshrink, logsigmoid, glu and softmin, run with the
real torch. Conventions as in ops.py: the in-place variant on input 0 for
attrs["inplace"]."""

import torch
import torch.nn.functional as F

from .ops import _dtype, _int_if_integral, _s_unary, _x


def _elu(c):
    return F.elu(c.inputs[0], c.attrs["alpha"], inplace=bool(c.attrs["inplace"]))


def _leaky_relu(c):
    return F.leaky_relu(c.inputs[0], c.attrs["negative_slope"], inplace=bool(c.attrs["inplace"]))


def _hardtanh(c):
    lo, hi = _int_if_integral(c.attrs["min_val"]), _int_if_integral(c.attrs["max_val"])
    return F.hardtanh(c.inputs[0], lo, hi, inplace=bool(c.attrs["inplace"]))


def _inplace_unary(fn):
    def f(c):
        return fn(c.inputs[0], inplace=bool(c.attrs["inplace"]))
    return f


def _softplus(c):
    return F.softplus(c.inputs[0], _int_if_integral(c.attrs["beta"]), _int_if_integral(c.attrs["threshold"]))


def _softmin(c):
    return F.softmin(c.inputs[0], c.attrs["dim"], dtype=_dtype(c.attrs["dtype"]))


OPS = {
    "elu": _elu,
    "leaky_relu": _leaky_relu,
    "hardtanh": _hardtanh,
    "hardsigmoid": _inplace_unary(F.hardsigmoid),
    "hardswish": _inplace_unary(F.hardswish),
    "mish": _inplace_unary(F.mish),
    "softplus": _softplus,
    "softshrink": lambda c: F.softshrink(c.inputs[0], c.attrs["lambd"]),
    "softsign": lambda c: F.softsign(c.inputs[0]),
    "tanhshrink": lambda c: F.tanhshrink(c.inputs[0]),
    "log_sigmoid": lambda c: F.logsigmoid(c.inputs[0]),
    "glu": lambda c: F.glu(c.inputs[0], c.attrs["dim"]),
    "softmin": _softmin,
}

SAMPLES = {
    "elu": lambda dt: ([_x(dt)], {"alpha": 1.0, "inplace": False}),
    "leaky_relu": lambda dt: ([_x(dt)], {"negative_slope": 0.01, "inplace": False}),
    "hardtanh": lambda dt: ([_x(dt)], {"min_val": -1.0, "max_val": 1.0, "inplace": False}),
    "hardsigmoid": _s_unary,
    "hardswish": _s_unary,
    "mish": _s_unary,
    "softplus": lambda dt: ([_x(dt)], {"beta": 1.0, "threshold": 20.0}),
    "softshrink": lambda dt: ([_x(dt)], {"lambd": 0.5}),
    "softsign": _s_unary,
    "tanhshrink": _s_unary,
    "log_sigmoid": _s_unary,
    "glu": lambda dt: ([_x(dt)], {"dim": -1}),
    "softmin": lambda dt: ([_x(dt)], {"dim": 1, "dtype": None}),
}

BACKWARD = set(OPS)
