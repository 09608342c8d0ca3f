"""Shape and view ops (sdk/ops/schema_shape.go), each run with torch.

Views (expand, flip's inputs, slice, select, diagonal, unbind, unfold) are
returned as torch gives them; the runner detaches and copies what it sends.
"""

import torch

from .ops import _ints, _x, _t

aten = torch.ops.aten


def _expand(c):
    return c.inputs[0].expand(_ints(c.attrs["size"]))


def _repeat(c):
    return c.inputs[0].repeat(_ints(c.attrs["repeats"]))


def _flip(c):
    return torch.flip(c.inputs[0], _ints(c.attrs["dims"]))


def _roll(c):
    return torch.roll(c.inputs[0], _ints(c.attrs["shifts"]), _ints(c.attrs["dims"]))


def _rot90(c):
    return torch.rot90(c.inputs[0], c.attrs["k"], _ints(c.attrs["dims"]))


def _slice(c):
    a = c.attrs
    return aten.slice(c.inputs[0], a["dim"], a["start"], a["end"], a["step"])


def _select(c):
    return torch.select(c.inputs[0], c.attrs["dim"], c.attrs["index"])


def _unfold(c):
    a = c.attrs
    return c.inputs[0].unfold(a["dimension"], a["size"], a["step"])


def _diagonal(c):
    a = c.attrs
    return torch.diagonal(c.inputs[0], a["offset"], a["dim1"], a["dim2"])


def _diag_embed(c):
    a = c.attrs
    return torch.diag_embed(c.inputs[0], a["offset"], a["dim1"], a["dim2"])


def _diagflat(c):
    return torch.diagflat(c.inputs[0], c.attrs["offset"])


def _unbind(c):
    return list(torch.unbind(c.inputs[0], c.attrs["dim"]))


def _tensors(c):
    return list(c.inputs)


def _broadcast_tensors(c):
    return list(torch.broadcast_tensors(*_tensors(c)))


def _stack_family(fn):
    def f(c):
        return fn(_tensors(c))
    return f


def _gather(c):
    x, index = c.inputs
    return torch.gather(x, c.attrs["dim"], index)


def _index_select(c):
    x, index = c.inputs
    return torch.index_select(x, c.attrs["dim"], index)


OPS = {
    "expand": _expand,
    "repeat": _repeat,
    "flip": _flip,
    "roll": _roll,
    "rot90": _rot90,
    "slice": _slice,
    "select": _select,
    "unfold": _unfold,
    "diagonal": _diagonal,
    "diag_embed": _diag_embed,
    "diagflat": _diagflat,
    "unbind": _unbind,
    "broadcast_tensors": _broadcast_tensors,
    "hstack": _stack_family(torch.hstack),
    "vstack": _stack_family(torch.vstack),
    "dstack": _stack_family(torch.dstack),
    "column_stack": _stack_family(torch.column_stack),
    "gather": _gather,
    "index_select": _index_select,
}

BACKWARD = set(OPS)


def _s(attrs, make=_x):
    def s(dt):
        return [make(dt)], dict(attrs)
    return s


def _row(dt):
    return _t([1.5, 0.75], dt) if dt.is_floating_point else _t([2, 1], dt)


def _s_indexed(dt, index, attrs):
    # The int64 index takes part in the call dtype: float or int64 self.
    if dt.is_floating_point or dt == torch.int64:
        return [_x(dt), index], dict(attrs)
    return None


SAMPLES = {
    "expand": _s({"size": [3, 2, 2]}),
    "repeat": _s({"repeats": [2, 1]}),
    "flip": _s({"dims": [0]}),
    "roll": _s({"shifts": [1], "dims": [1]}),
    "rot90": _s({"k": 1, "dims": [0, 1]}),
    "slice": _s({"dim": 1, "start": 1, "end": 2, "step": 1}),
    "select": _s({"dim": 0, "index": 1}),
    "unfold": _s({"dimension": 1, "size": 1, "step": 1}),
    "diagonal": _s({"offset": 0, "dim1": 0, "dim2": 1}),
    "diag_embed": _s({"offset": 0, "dim1": -2, "dim2": -1}),
    "diagflat": _s({"offset": 1}, _row),
    "unbind": _s({"dim": 0}),
    "broadcast_tensors": lambda dt: ([_x(dt), _row(dt)], {}),
    "hstack": lambda dt: ([_x(dt), _x(dt)], {}),
    "vstack": lambda dt: ([_x(dt), _row(dt)], {}),
    "dstack": lambda dt: ([_x(dt), _x(dt)], {}),
    "column_stack": lambda dt: ([_x(dt), _row(dt)], {}),
    "gather": lambda dt: _s_indexed(dt, torch.tensor([[1, 0], [0, 0]]), {"dim": 1}),
    "index_select": lambda dt: _s_indexed(dt, torch.tensor([1, 0, 1]), {"dim": 0}),
}
