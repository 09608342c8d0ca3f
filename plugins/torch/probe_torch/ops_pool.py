"""The pool family (sdk/ops/schema_pool.go): average, adaptive and
max-unpooling, paddings, fold/unfold and upsampling, run with the real
torch. Conventions as in ops.py."""

import functools

import torch

from .wire import ArgumentError

aten = torch.ops.aten


def _kernel_per_attrs(fn):
    """For ops whose torch kernel exists at a dtype for some attributes
    only (reflect padding has no float16 or int64 kernel, circular has;
    nearest-exact has no bfloat16 kernel, nearest has): torch's "not
    implemented" for the call's attributes is torch rejecting this call,
    as PyTorch raises it, not a dtype the device lacks (the pair is
    declared from a sample that runs)."""
    @functools.wraps(fn)
    def f(c):
        try:
            return fn(c)
        except (RuntimeError, NotImplementedError) as e:
            msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if isinstance(e, NotImplementedError) or "not implemented for" in msg:
                raise ArgumentError("torch rejects the call: %s" % msg) from e
            raise
    return f


def _ints(v, n=None):
    """An int-list attribute; one value repeated to n when n is given (the
    ATen ops take a single int as that)."""
    if v is None:
        return None
    v = [int(x) for x in v] if isinstance(v, (list, tuple)) else [int(v)]
    if n is not None and len(v) == 1:
        v = v * n
    return v


def _avg(nd):
    def f(c):
        a = c.attrs
        div = a.get("divisor_override")
        op = aten.avg_pool2d if nd == 2 else aten.avg_pool3d
        return op(c.inputs[0], _ints(a["kernel_size"]), _ints(a["stride"]), _ints(a["padding"]), bool(a["ceil_mode"]),
                  bool(a["count_include_pad"]), None if div is None else int(div))
    return f


def _adaptive_max(nd):
    def f(c):
        op = aten.adaptive_max_pool2d if nd == 2 else aten.adaptive_max_pool3d
        out, idx = op(c.inputs[0], _ints(c.attrs["output_size"], nd))
        if c.attrs["return_indices"]:
            return [out, idx]
        return out
    return f


def _pad(c):
    x, pad, mode = c.inputs[0], _ints(c.attrs["pad"]), c.attrs["mode"]
    return torch._C._nn.pad(x, pad, mode) if hasattr(torch._C._nn, "pad") else torch.nn.functional.pad(x, pad, mode)


def _im2col(c):
    a = c.attrs
    return torch._C._nn.im2col(c.inputs[0], _ints(a["kernel_size"]), _ints(a["dilation"]), _ints(a["padding"]), _ints(a["stride"]))


def _col2im(c):
    a = c.attrs
    return torch._C._nn.col2im(c.inputs[0], _ints(a["output_size"]), _ints(a["kernel_size"]), _ints(a["dilation"]),
                               _ints(a["padding"]), _ints(a["stride"]))


def _upsample(c):
    a = c.attrs
    x = c.inputs[0]
    size = _ints(a["output_size"])
    scales = [float(v) for v in a.get("scales") or []] or None
    if scales is not None:
        # the .vec overloads take one of the two; the size follows from
        # the scales as the lowering computed it
        size = None
    nd = x.dim() - 2
    mode = a["mode"]
    nn = torch._C._nn
    if mode == "nearest":
        return getattr(nn, "upsample_nearest%dd" % nd)(x, size, scales)
    if mode == "nearest-exact":
        return getattr(nn, "_upsample_nearest_exact%dd" % nd)(x, size, scales)
    align = bool(a["align_corners"])
    if mode == "bicubic":
        return nn.upsample_bicubic2d(x, size, align, scales)
    op = {1: nn.upsample_linear1d, 2: nn.upsample_bilinear2d, 3: nn.upsample_trilinear3d}[nd]
    return op(x, size, align, scales)


def _max_unpool(c):
    x, ind = c.inputs
    a = c.attrs
    size = _ints(a["output_size"])
    if len(size) == 1:
        return aten.max_unpool2d(x.unsqueeze(-1), ind.unsqueeze(-1), size + [1]).squeeze(-1)
    if len(size) == 2:
        return aten.max_unpool2d(x, ind, size)
    return aten.max_unpool3d(x, ind, size, _ints(a["stride"]), _ints(a["padding"]))


def _lp_pool(c):
    a = c.attrs
    k = _ints(a["kernel_size"])
    x = c.inputs[0]
    if len(k) == 1:
        return torch.nn.functional.lp_pool1d(x, a["norm_type"], k[0], _ints(a["stride"]), bool(a["ceil_mode"]))
    return torch.nn.functional.lp_pool2d(x, a["norm_type"], k, _ints(a["stride"]), bool(a["ceil_mode"]))


OPS = {
    "lp_pool": _lp_pool,
    "max_unpool": _max_unpool,
    "upsample": _kernel_per_attrs(_upsample),
    "im2col": _im2col,
    "col2im": _col2im,
    "pad": _kernel_per_attrs(_pad),
    "avg_pool2d": _avg(2),
    "avg_pool3d": _avg(3),
    "adaptive_avg_pool3d": _kernel_per_attrs(lambda c: aten.adaptive_avg_pool3d(c.inputs[0], _ints(c.attrs["output_size"], 3))),
    "adaptive_max_pool2d": _adaptive_max(2),
    "adaptive_max_pool3d": _adaptive_max(3),
}


def _grid(dt, *shape):
    n = 1
    for s in shape:
        n *= s
    v = torch.arange(n, dtype=torch.float64).reshape(shape) * 0.25 - 1.0
    return v.to(dt) if dt.is_floating_point else torch.arange(n).reshape(shape).to(dt)


def _floats(make, ints=False):
    def s(dt):
        if not dt.is_floating_point and not (ints and dt == torch.int64):
            return None
        return make(dt)
    return s


_AVG = {"kernel_size": [2], "stride": [2], "padding": [0], "ceil_mode": False, "count_include_pad": True, "divisor_override": None}

_BLOCKS = {"kernel_size": [2, 2], "dilation": [1, 1], "padding": [0, 0], "stride": [1, 1]}

SAMPLES = {
    "lp_pool": _floats(lambda dt: ([_grid(dt, 1, 1, 2, 4) + 2], {"norm_type": 2.0, "kernel_size": [2, 2], "stride": [2, 2], "ceil_mode": False})),
    "max_unpool": _floats(lambda dt: ([_grid(dt, 1, 1, 1, 2), torch.tensor([[[[1, 2]]]])], {"output_size": [2, 2], "stride": [], "padding": []})),
    "upsample": _floats(lambda dt: ([_grid(dt, 1, 1, 2, 3)], {"mode": "nearest", "output_size": [3, 4], "scales": [], "align_corners": False})),
    "im2col": _floats(lambda dt: ([_grid(dt, 1, 1, 3, 3)], dict(_BLOCKS))),
    "col2im": _floats(lambda dt: ([_grid(dt, 1, 4, 4)], dict(_BLOCKS, output_size=[3, 3]))),
    "pad": lambda dt: ([_grid(dt, 1, 1, 2, 3)], {"pad": [1, 1, 0, 1], "mode": "circular"}),
    "avg_pool2d": _floats(lambda dt: ([_grid(dt, 1, 1, 4, 4)], dict(_AVG)), ints=True),
    "avg_pool3d": _floats(lambda dt: ([_grid(dt, 1, 1, 2, 2, 2)], dict(_AVG)), ints=True),
    "adaptive_avg_pool3d": _floats(lambda dt: ([_grid(dt, 1, 1, 2, 2, 4)], {"output_size": [1, 1, 1]})),
    "adaptive_max_pool2d": _floats(lambda dt: ([_grid(dt, 1, 1, 2, 4)], {"output_size": [1, 2], "return_indices": True})),
    "adaptive_max_pool3d": _floats(lambda dt: ([_grid(dt, 1, 1, 2, 2, 4)], {"output_size": [1, 1, 2], "return_indices": True})),
}

BACKWARD = set(OPS)
