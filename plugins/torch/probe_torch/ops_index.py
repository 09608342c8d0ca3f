"""The index family (sdk/ops/schema_index.go): scatter (src tensor or
number, reduce add/multiply), scatter_add; each run with torch, the
in-place variants on input 0 (a copy the runner made)."""

import torch

from .ops import _is_t, _num, _x


def _scatter(c):
    x, index, src = c.inputs
    a = c.attrs
    kw = {} if a["reduce"] is None else {"reduce": a["reduce"]}
    src = src if _is_t(src) else _num(src)
    if a["inplace"]:
        return x.scatter_(a["dim"], index, src, **kw)
    return torch.scatter(x, a["dim"], index, src, **kw)


def _scatter_add(c):
    x, index, src = c.inputs
    if c.attrs["inplace"]:
        return x.scatter_add_(c.attrs["dim"], index, src)
    return torch.scatter_add(x, c.attrs["dim"], index, src)


OPS = {
    "scatter": _scatter,
    "scatter_add": _scatter_add,
}

BACKWARD = {"scatter", "scatter_add"}


def _index():
    return torch.tensor([[1, 0], [0, 1]])


def _s_scatter(dt):
    # The int64 index takes part in the call dtype: float or int64 self.
    if dt.is_floating_point or dt == torch.int64:
        return [_x(dt), _index(), _x(dt)], {"dim": 0, "reduce": None, "inplace": False}
    return None


SAMPLES = {
    "scatter": _s_scatter,
    "scatter_add": lambda dt: None if _s_scatter(dt) is None else ([_x(dt), _index(), _x(dt)], {"dim": 1, "inplace": False}),
}
