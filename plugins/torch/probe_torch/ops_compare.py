"""The compare family: comparisons, logical and bitwise ops, predicates.

None of them has a backward. An in-place call runs torch's own in-place
method on input 0 (eq_, logical_and_, bitwise_or_, ...), which writes the
result at input 0's dtype as the dumped call did.
"""

import torch

from .ops import _num, _s_binary, _s_unary, _self_tensor


def _binary(name):
    fn = getattr(torch, name)

    def f(c):
        a, b = c.inputs
        if c.attrs["inplace"]:
            return getattr(_self_tensor(c), name + "_")(_num(b))
        return fn(a, _num(b))
    return f


def _unary(name):
    fn = getattr(torch, name)

    def f(c):
        x = c.inputs[0]
        if c.attrs["inplace"]:
            return getattr(x, name + "_")()
        return fn(x)
    return f


OPS = {
    "eq": _binary("eq"),
    "ne": _binary("ne"),
    "gt": _binary("gt"),
    "ge": _binary("ge"),
    "lt": _binary("lt"),
    "le": _binary("le"),
    "logical_and": _binary("logical_and"),
    "logical_or": _binary("logical_or"),
    "logical_xor": _binary("logical_xor"),
    "logical_not": _unary("logical_not"),
}

SAMPLES = {
    "eq": _s_binary,
    "ne": _s_binary,
    "gt": _s_binary,
    "ge": _s_binary,
    "lt": _s_binary,
    "le": _s_binary,
    "logical_and": _s_binary,
    "logical_or": _s_binary,
    "logical_xor": _s_binary,
    "logical_not": _s_unary,
}

BACKWARD = set()
