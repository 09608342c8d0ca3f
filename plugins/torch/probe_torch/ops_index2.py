"""The index2 family (sdk/ops/schema_index2.go): masked_select,
masked_scatter; each run with torch, the in-place variants on input 0 (a
copy the runner made)."""

import torch

from .ops import _x


def _masked_select(c):
    x, mask = c.inputs
    return torch.masked_select(x, mask)


def _masked_scatter(c):
    x, mask, source = c.inputs
    if c.attrs["inplace"]:
        return x.masked_scatter_(mask, source)
    return x.masked_scatter(mask, source)


OPS = {
    "masked_select": _masked_select,
    "masked_scatter": _masked_scatter,
}

BACKWARD = set(OPS)


def _mask():
    return torch.tensor([[True, False], [False, True]])


SAMPLES = {
    "masked_select": lambda dt: ([_x(dt), _mask()], {}),
    "masked_scatter": lambda dt: ([_x(dt), _mask(), _x(dt)], {"inplace": False}),
}
