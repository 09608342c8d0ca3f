"""The optim family (sdk/ops/schema_optim.go): optimizer arithmetic
(addcmul, addcdiv), tensor creation and casts, run with the real torch.
Conventions as in ops.py."""

import warnings

import torch

from .ops import _dtype, _num, _row, _x
from .wire import ArgumentError, Scalar

aten = torch.ops.aten


def _addc(name):
    fn = getattr(torch, name)

    def f(c):
        s, t1, t2, v = c.inputs
        for i, t in enumerate((s, t1, t2)):
            if not isinstance(t, torch.Tensor):
                raise ArgumentError("%s: input %d must be a tensor" % (c.op, i))
        if isinstance(v, torch.Tensor):
            raise ArgumentError("%s: value must be a number" % c.op)
        if c.attrs["inplace"]:
            return getattr(s, name + "_")(t1, t2, value=_num(v))
        return fn(s, t1, t2, value=_num(v))
    return f

def _s_addc(int_ok):
    def s(dt):
        if dt == torch.bool or (not int_ok and not dt.is_floating_point):
            return None
        v = Scalar(0.5) if dt.is_floating_point else Scalar(2)
        return [_x(dt), _row(dt), _x(dt), v], {}
    return s

def _lerp(c):
    s, e, w = c.inputs
    if not isinstance(s, torch.Tensor) or not isinstance(e, torch.Tensor):
        raise ArgumentError("lerp: self and end must be tensors")
    if c.attrs["inplace"]:
        return s.lerp_(e, _num(w))
    return torch.lerp(s, e, _num(w))


def _s_lerp(dt):
    if not dt.is_floating_point:
        return None
    return [_x(dt), _row(dt), Scalar(0.25)], {}


def _arange(c):
    start, end, step = (_num(v) for v in c.inputs)
    for v in (start, end, step):
        if isinstance(v, torch.Tensor):
            raise ArgumentError("%s: start, end and step must be numbers" % c.op)
    dt = _dtype(c.attrs["dtype"])
    if c.attrs["inclusive"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch.range is deprecated
            return torch.range(start, end, step, dtype=dt, device=c.device)
    return torch.arange(start, end, step, dtype=dt, device=c.device)


def _s_arange(dt):
    if dt == torch.bool:
        return None
    return [Scalar(0), Scalar(5), Scalar(1)], {"dtype": _DT_NAMES[dt]}


_DT_NAMES = {torch.float64: "float64", torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
             torch.int8: "int8", torch.int16: "int16", torch.int32: "int32", torch.int64: "int64", torch.uint8: "uint8",
             torch.bool: "bool"}


OPS = {
    "addcmul": _addc("addcmul"),
    "addcdiv": _addc("addcdiv"),
    "lerp": _lerp,
    "arange": _arange,
}

SAMPLES = {
    "addcmul": _s_addc(True),
    "addcdiv": _s_addc(False),
    "lerp": _s_lerp,
    "arange": _s_arange,
}

BACKWARD = {"addcmul", "addcdiv", "lerp"}
