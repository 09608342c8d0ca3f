"""The index2 family (sdk/ops/schema_index2.go): masked_select,
masked_scatter, take, take_along_dim, index_put, put, setitem (Tensor.__setitem__ with a basic key), nonzero, repeat_interleave; each run with torch, the in-place variants on input 0 (a
copy the runner made)."""

import torch

from .ops import _is_t, _num, _tname, _x
from .wire import ArgumentError


def _masked_select(c):
    x, mask = c.inputs
    return torch.masked_select(x, mask)


def _masked_scatter(c):
    x, mask, source = c.inputs
    if c.attrs["inplace"]:
        return x.masked_scatter_(mask, source)
    return x.masked_scatter(mask, source)


def _take(c):
    x, index = c.inputs
    return torch.take(x, index)


def _take_along_dim(c):
    x, indices = c.inputs
    if c.attrs["dim"] is None:
        return torch.take_along_dim(x, indices)
    return torch.take_along_dim(x, indices, c.attrs["dim"])


def _index_put(c):
    x, values = c.inputs[0], c.inputs[1]
    indices = tuple(c.inputs[2:])
    acc = bool(c.attrs["accumulate"])
    if not _is_t(values):
        # Tensor.__setitem__ with a number
        if not c.attrs["inplace"]:
            x = x.clone()
        x.__setitem__(indices, _num(values))
        return x
    if c.attrs["inplace"]:
        return x.index_put_(indices, values, acc)
    return torch.index_put(x, indices, values, acc)


def _setitem(c):
    # Tensor.__setitem__ with a basic key, which the lowering resolved to
    # the strided view it selects: a copy of self whose view is assigned
    # value (cast and broadcast by torch), under autograd
    x, value = c.inputs
    out = x.clone()
    view = out.as_strided(c.attrs["sizes"], c.attrs["strides"], out.storage_offset() + c.attrs["offset"])
    view[...] = value if _is_t(value) else _num(value)
    return out


def _put(c):
    x, index, source = c.inputs
    acc = bool(c.attrs["accumulate"])
    if c.attrs["inplace"]:
        return x.put_(index, source, acc)
    return x.put(index, source, acc)


def _nonzero(c):
    return torch.nonzero(c.inputs[0])


def _repeat_interleave(c):
    x, reps = c.inputs
    reps = reps if _is_t(reps) else int(_num(reps))
    if _is_t(reps) and reps.dtype not in (torch.int32, torch.int64):
        # torch's dispatch error, which the runner would take for a kernel
        # missing at this dtype: the call itself is invalid
        raise ArgumentError("\"repeat_interleave_cpu\" not implemented for '%s'" % _tname(reps.dtype))
    if c.attrs["dim"] is None:
        return torch.repeat_interleave(x, reps)
    return torch.repeat_interleave(x, reps, c.attrs["dim"])


OPS = {
    "masked_select": _masked_select,
    "masked_scatter": _masked_scatter,
    "take": _take,
    "take_along_dim": _take_along_dim,
    "index_put": _index_put,
    "put": _put,
    "setitem": _setitem,
    "nonzero": _nonzero,
    "repeat_interleave": _repeat_interleave,
}

BACKWARD = set(OPS) - {"nonzero"}


def _mask():
    return torch.tensor([[True, False], [False, True]])


SAMPLES = {
    "masked_select": lambda dt: ([_x(dt), _mask()], {}),
    "masked_scatter": lambda dt: ([_x(dt), _mask(), _x(dt)], {"inplace": False}),
    "take": lambda dt: ([_x(dt), torch.tensor([[3, -4], [0, 0]])], {}),
    "take_along_dim": lambda dt: ([_x(dt), torch.tensor([[1, 0]])], {"dim": 0}),
    "index_put": lambda dt: ([_x(dt), _x(dt)[0], torch.tensor([1])], {"accumulate": False, "inplace": False}),
    "put": lambda dt: ([_x(dt), torch.tensor([3, -4]), _x(dt)[1]], {"accumulate": False, "inplace": False}),
    "setitem": lambda dt: ([_x(dt), _x(dt)[0, :1]], {"offset": 1, "sizes": [2], "strides": [2]}),
    "nonzero": lambda dt: ([_x(dt)], {}),
    "repeat_interleave": lambda dt: ([_x(dt), torch.tensor([2, 1])], {"dim": 0}),
}
