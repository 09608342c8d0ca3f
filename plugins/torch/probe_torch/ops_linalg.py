"""The linalg family (sdk/ops/schema_linalg.go): matrix products beyond
matmul/mm/bmm/addmm, run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _int_if_integral, _row, _x
from .wire import ArgumentError

aten = torch.ops.aten


def _tensors(c, n):
    for i, t in enumerate(c.inputs[:n]):
        if not isinstance(t, torch.Tensor):
            raise ArgumentError("%s: input %d must be a tensor" % (c.op, i))
    return c.inputs[:n]


def _add_product(name):
    fn = getattr(aten, name)

    def f(c):
        s, a, b = _tensors(c, 3)
        beta, alpha = _int_if_integral(c.attrs["beta"]), _int_if_integral(c.attrs["alpha"])
        if c.attrs["inplace"]:
            return getattr(s, name + "_")(a, b, beta=beta, alpha=alpha)
        return fn(s, a, b, beta=beta, alpha=alpha)
    return f


def _outer(c):
    x, y = _tensors(c, 2)
    return torch.outer(x, y)


def _s_addmv(dt):
    if dt == torch.bool:
        return None
    return [_row(dt), _x(dt), _row(dt)], {}


def _s_addr(dt):
    return [_x(dt), _row(dt), _row(dt)], {}


def _s_baddbmm(dt):
    if dt == torch.bool:
        return None
    return [_x(dt).unsqueeze(0), _x(dt).unsqueeze(0), _x(dt).unsqueeze(0)], {}


def _s_addbmm(dt):
    if dt == torch.bool:
        return None
    return [_x(dt), _x(dt).unsqueeze(0), _x(dt).unsqueeze(0)], {}


def _s_outer(dt):
    return [_row(dt), _row(dt)], {}


OPS = {
    "addmv": _add_product("addmv"),
    "addr": _add_product("addr"),
    "baddbmm": _add_product("baddbmm"),
    "addbmm": _add_product("addbmm"),
    "outer": _outer,
}

SAMPLES = {
    "addmv": _s_addmv,
    "addr": _s_addr,
    "baddbmm": _s_baddbmm,
    "addbmm": _s_addbmm,
    "outer": _s_outer,
}

BACKWARD = {"addmv", "addr", "baddbmm", "addbmm", "outer"}
