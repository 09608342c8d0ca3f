"""The index family (sdk/ops/schema_index.go): scatter (src tensor or
number, reduce add/multiply), scatter_add, index_add, index_copy,
index_fill; each run with torch, the
in-place variants on input 0 (a copy the runner made)."""

import torch

from .ops import _int_if_integral, _is_t, _num, _x
from .wire import Scalar


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


def _index_add(c):
    x, index, source = c.inputs
    alpha = _int_if_integral(c.attrs["alpha"])
    kw = {} if alpha == 1 else {"alpha": alpha}
    if c.attrs["inplace"]:
        return x.index_add_(c.attrs["dim"], index, source, **kw)
    return torch.index_add(x, c.attrs["dim"], index, source, **kw)


def _index_copy(c):
    x, index, source = c.inputs
    if c.attrs["inplace"]:
        return x.index_copy_(c.attrs["dim"], index, source)
    return torch.index_copy(x, c.attrs["dim"], index, source)


def _index_fill(c):
    x, index, value = c.inputs
    value = value if _is_t(value) else _num(value)
    if c.attrs["inplace"]:
        return x.index_fill_(c.attrs["dim"], index, value)
    return torch.index_fill(x, c.attrs["dim"], index, value)


OPS = {
    "scatter": _scatter,
    "scatter_add": _scatter_add,
    "index_add": _index_add,
    "index_copy": _index_copy,
    "index_fill": _index_fill,
}

BACKWARD = set(OPS)


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


def _s_slices(dt):
    if dt.is_floating_point or dt == torch.int64:
        return [_x(dt), torch.tensor([1, 0]), _x(dt)], {"dim": 0}
    return None


def _s_index_fill(dt):
    if dt.is_floating_point or dt == torch.int64:
        return [_x(dt), torch.tensor([1]), Scalar(True) if dt == torch.bool else Scalar(1)], {"dim": 1}
    return None


SAMPLES.update({
    "index_add": _s_slices,
    "index_copy": _s_slices,
    "index_fill": _s_index_fill,
})
