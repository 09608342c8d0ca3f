"""The compare family: comparisons, logical and bitwise ops, predicates.

None of them has a backward. An in-place call runs torch's own in-place
method on input 0 (eq_, logical_and_, bitwise_or_, ...), which writes the
result at input 0's dtype as the dumped call did.
"""

import torch

from .ops import _num, _s_binary, _s_unary, _self_tensor
from .wire import ArgumentError


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


def _integral(name, fn):
    """An op PyTorch defines for integer and bool dtypes only: its refusal of
    a floating result ("not implemented for 'Float'", on every device) is
    the framework rejecting the call, not a missing kernel."""
    def f(c):
        try:
            return fn(c)
        except RuntimeError as e:
            xs = [v if isinstance(v, torch.Tensor) else torch.tensor(_num(v)) for v in c.inputs]
            dt = xs[0].dtype if len(xs) == 1 else torch.result_type(xs[0], _num(c.inputs[1]))
            if "not implemented for" in str(e) and (dt.is_floating_point or dt == torch.bool):
                raise ArgumentError(str(e).strip().splitlines()[0])
            raise
    return f


def _s_int(make):
    def s(dt):
        return None if dt.is_floating_point else make(dt)
    return s


def _s_shift(dt):
    return None if dt.is_floating_point or dt == torch.bool else _s_binary(dt)


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
    "bitwise_and": _integral("bitwise_and", _binary("bitwise_and")),
    "bitwise_or": _integral("bitwise_or", _binary("bitwise_or")),
    "bitwise_xor": _integral("bitwise_xor", _binary("bitwise_xor")),
    "bitwise_left_shift": _integral("bitwise_left_shift", _binary("bitwise_left_shift")),
    "bitwise_right_shift": _integral("bitwise_right_shift", _binary("bitwise_right_shift")),
    "bitwise_not": _integral("bitwise_not", _unary("bitwise_not")),
    "isnan": lambda c: torch.isnan(c.inputs[0]),
    "isinf": lambda c: torch.isinf(c.inputs[0]),
    "isfinite": lambda c: torch.isfinite(c.inputs[0]),
    "isneginf": lambda c: torch.isneginf(c.inputs[0]),
    "isposinf": lambda c: torch.isposinf(c.inputs[0]),
    "isreal": lambda c: torch.isreal(c.inputs[0]),
    "signbit": lambda c: torch.signbit(c.inputs[0]),
    "isin": lambda c: torch.isin(_num(c.inputs[0]), _num(c.inputs[1]), assume_unique=bool(c.attrs["assume_unique"]),
                                 invert=bool(c.attrs["invert"])),
    "equal": lambda c: torch.tensor(torch.equal(c.inputs[0], c.inputs[1]), device=c.inputs[0].device),
    "allclose": lambda c: torch.tensor(torch.allclose(c.inputs[0], c.inputs[1], rtol=c.attrs["rtol"], atol=c.attrs["atol"],
                                                      equal_nan=bool(c.attrs["equal_nan"])), device=c.inputs[0].device),
    "isclose": lambda c: torch.isclose(c.inputs[0], c.inputs[1], rtol=c.attrs["rtol"], atol=c.attrs["atol"],
                                       equal_nan=bool(c.attrs["equal_nan"])),
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
    "bitwise_and": _s_int(_s_binary),
    "bitwise_or": _s_int(_s_binary),
    "bitwise_xor": _s_int(_s_binary),
    "bitwise_left_shift": _s_shift,
    "bitwise_right_shift": _s_shift,
    "bitwise_not": _s_int(_s_unary),
    "isnan": _s_unary,
    "isinf": _s_unary,
    "isfinite": _s_unary,
    "isneginf": _s_unary,
    "isposinf": _s_unary,
    "isreal": _s_unary,
    "signbit": _s_unary,
    "isclose": _s_binary,
    "equal": _s_binary,
    "allclose": _s_binary,
    "isin": lambda dt: None if dt == torch.bool else _s_binary(dt),
}

BACKWARD = set()
