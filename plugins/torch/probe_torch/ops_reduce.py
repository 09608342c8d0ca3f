"""The reduce family (sdk/ops/schema_reduce.go): prod, nansum, nanmean,
amax/amin, logsumexp, all/any, count_nonzero, cumprod, logcumsumexp,
var/std (and with the mean), norm, aminmax; selection: argmax/argmin,
sort, topk, kthvalue, median/nanmedian, mode, cummax/cummin, quantile,
histc, bincount, searchsorted (bucketize), unique (unique_consecutive)."""

import torch

from .ops import _dtype, _num, _t, _tname, _int_if_integral, _ints, _s_dim, _s_float_only, _s_sum, _x
from .wire import ArgumentError


def _prod(c):
    x = c.inputs[0]
    dim, keepdim, dt = _ints(c.attrs["dim"]), bool(c.attrs["keepdim"]), _dtype(c.attrs["dtype"])
    if dim is None:
        out = torch.prod(x, dtype=dt)
        return out.reshape([1] * x.dim()) if keepdim else out
    if len(dim) != 1:
        raise ArgumentError("prod: dim takes one dimension, got %s" % dim)
    return torch.prod(x, dim[0], keepdim=keepdim, dtype=dt)


def _nan_reduce(fn):
    def f(c):
        x = c.inputs[0]
        dim, keepdim, dt = _ints(c.attrs["dim"]), bool(c.attrs["keepdim"]), _dtype(c.attrs["dtype"])
        if dim is None:
            dim = list(range(x.dim()))
        return fn(x, dim, keepdim=keepdim, dtype=dt)
    return f


def _dims_reduce(fn):
    def f(c):
        dim = _ints(c.attrs["dim"]) or []
        return fn(c.inputs[0], dim, keepdim=bool(c.attrs["keepdim"]))
    return f


def _all_any(fn):
    def f(c):
        x = c.inputs[0]
        dim, keepdim = _ints(c.attrs["dim"]), bool(c.attrs["keepdim"])
        if dim is None:
            out = fn(x)
            return out.reshape([1] * x.dim()) if keepdim else out
        if len(dim) == 1:
            return fn(x, dim[0], keepdim=keepdim)
        # torch 1.13 takes one dim: several reduce one after the other.
        n = max(x.dim(), 1)
        for d in dim:
            if not -n <= d < n:
                return fn(x, d)  # torch's own error
        dims = sorted({d % n for d in dim}, reverse=True)
        out = x
        for d in dims:
            out = fn(out, d, keepdim=True)
        if not keepdim:
            for d in dims:
                if out.dim() > 0:
                    out = out.squeeze(d)
        return out
    return f


def _count_nonzero(c):
    dim = _ints(c.attrs["dim"])
    return torch.count_nonzero(c.inputs[0], dim=None if not dim else tuple(dim))


def _cumprod(c):
    x = c.inputs[0]
    dt = _dtype(c.attrs["dtype"])
    if c.attrs["inplace"]:
        return x.cumprod_(c.attrs["dim"], dtype=dt)
    return torch.cumprod(x, c.attrs["dim"], dtype=dt)


def _var(fn, pair):
    def f(c):
        dim = _ints(c.attrs["dim"]) or None
        out = fn(c.inputs[0], dim, correction=_int_if_integral(c.attrs["correction"]), keepdim=bool(c.attrs["keepdim"]))
        return list(out) if pair else out
    return f


def _norm(c):
    x = c.inputs[0]
    dt = _dtype(c.attrs["dtype"])
    if dt is not None:
        x = x.to(dt)
    dim = _ints(c.attrs["dim"]) or None
    return torch.linalg.vector_norm(x, c.attrs["p"], dim, bool(c.attrs["keepdim"]))


def _aminmax(c):
    x = c.inputs[0]
    keepdim = bool(c.attrs["keepdim"])
    if c.attrs["dim"] is None:
        lo, hi = torch.aminmax(x)
        if keepdim:
            lo, hi = lo.reshape([1] * x.dim()), hi.reshape([1] * x.dim())
        return [lo, hi]
    return list(torch.aminmax(x, dim=c.attrs["dim"], keepdim=keepdim))


def _arg(fn):
    def f(c):
        x, dim, keepdim = c.inputs[0], c.attrs["dim"], bool(c.attrs["keepdim"])
        if dim is None:
            out = fn(x)
            return out.reshape([1] * x.dim()) if keepdim else out
        return fn(x, dim, keepdim)
    return f


def _sort(c):
    # always the stable order: the canonical op's contract
    return list(torch.sort(c.inputs[0], dim=c.attrs["dim"], descending=bool(c.attrs["descending"]), stable=True))


def _topk(c):
    return list(torch.topk(c.inputs[0], c.attrs["k"], c.attrs["dim"], bool(c.attrs["largest"]), True))


def _kthvalue(c):
    return list(torch.kthvalue(c.inputs[0], c.attrs["k"], c.attrs["dim"], bool(c.attrs["keepdim"])))


def _median(c):
    fn = torch.nanmedian if c.attrs["ignore_nan"] else torch.median
    return fn(c.inputs[0])


def _median_dim(c):
    fn = torch.nanmedian if c.attrs["ignore_nan"] else torch.median
    return list(fn(c.inputs[0], c.attrs["dim"], bool(c.attrs["keepdim"])))


def _quantile(c):
    x, q = c.inputs
    fn = torch.nanquantile if c.attrs["ignore_nan"] else torch.quantile
    return fn(x, _num(q), c.attrs["dim"], bool(c.attrs["keepdim"]), interpolation=c.attrs["interpolation"])


def _s_quantile(dt):
    if dt not in (torch.float32, torch.float64):
        return None
    return [_x(dt), _t([0.25, 0.5], dt)], {"dim": 1}


def _histc(c):
    a = c.attrs
    return torch.histc(c.inputs[0], a["bins"], a["min"], a["max"])


def _searchsorted(c):
    seq, v, sorter = c.inputs
    return torch.searchsorted(seq, _num(v), out_int32=bool(c.attrs["out_int32"]), right=bool(c.attrs["right"]), sorter=sorter)


def _bincount(c):
    x, w = c.inputs
    if x.dtype.is_floating_point or x.dtype == torch.bool:
        # a float or bool input is the caller's mistake, whatever the
        # weights' dtype that made the call dtype a float one
        raise ArgumentError('"bincount_cpu" not implemented for \'%s\'' % _tname(x.dtype))
    return torch.bincount(x, w, c.attrs["minlength"])


def _unique(c):
    a = c.attrs
    kw = {"return_inverse": bool(a["return_inverse"]), "return_counts": bool(a["return_counts"]), "dim": a["dim"]}
    if a["consecutive"]:
        out = torch.unique_consecutive(c.inputs[0], **kw)
    else:
        out = torch.unique(c.inputs[0], sorted=True, **kw)
    return [out] if isinstance(out, torch.Tensor) else list(out)


def _s_bincount(dt):
    if dt.is_floating_point:
        return [torch.tensor([1, 0, 3]), _t([0.5, 1.0, 2.0], dt)], {}
    if dt == torch.bool:
        return None
    return [torch.tensor([1, 0, 3], dtype=dt), None], {}


def _s_searchsorted(dt):
    if dt == torch.bool:
        return None
    return [_t([1, 2, 3], dt), _t([2, 0], dt), None], {}


OPS = {
    "prod": _prod,
    "nansum": _nan_reduce(torch.nansum),
    "nanmean": _nan_reduce(torch.nanmean),
    "amax": _dims_reduce(torch.amax),
    "amin": _dims_reduce(torch.amin),
    "logsumexp": _dims_reduce(torch.logsumexp),
    "all": _all_any(torch.all),
    "any": _all_any(torch.any),
    "count_nonzero": _count_nonzero,
    "cumprod": _cumprod,
    "logcumsumexp": lambda c: torch.logcumsumexp(c.inputs[0], c.attrs["dim"]),
    "var": _var(torch.var, False),
    "std": _var(torch.std, False),
    "var_mean": _var(torch.var_mean, True),
    "std_mean": _var(torch.std_mean, True),
    "norm": _norm,
    "aminmax": _aminmax,
    "argmax": _arg(torch.argmax),
    "argmin": _arg(torch.argmin),
    "sort": _sort,
    "topk": _topk,
    "kthvalue": _kthvalue,
    "median": _median,
    "median_dim": _median_dim,
    "mode": lambda c: list(torch.mode(c.inputs[0], c.attrs["dim"], bool(c.attrs["keepdim"]))),
    "cummax": lambda c: list(torch.cummax(c.inputs[0], c.attrs["dim"])),
    "cummin": lambda c: list(torch.cummin(c.inputs[0], c.attrs["dim"])),
    "quantile": _quantile,
    "histc": _histc,
    "bincount": _bincount,
    "searchsorted": _searchsorted,
    "unique": _unique,
}

BACKWARD = {"prod", "nansum", "nanmean", "amax", "amin", "logsumexp", "cumprod", "logcumsumexp",
            "var", "std", "var_mean", "std_mean", "norm", "sort", "topk", "kthvalue",
            "median", "median_dim", "mode", "cummax", "cummin", "quantile"}


def _s_all(dt):
    return [_x(dt)], {}


SAMPLES = {
    "prod": _s_sum,
    "nansum": _s_sum,
    "nanmean": _s_float_only(_s_sum),
    "amax": _s_sum,
    "amin": _s_sum,
    "logsumexp": _s_sum,
    "all": _s_sum,
    "any": _s_sum,
    "count_nonzero": _s_all,
    "cumprod": _s_dim,
    "logcumsumexp": _s_float_only(_s_dim),
    "var": _s_float_only(_s_sum),
    "std": _s_float_only(_s_sum),
    "var_mean": _s_float_only(_s_sum),
    "std_mean": _s_float_only(_s_sum),
    "norm": _s_float_only(_s_sum),
    "aminmax": _s_dim,
    "argmax": _s_dim,
    "argmin": _s_dim,
    "sort": _s_dim,
    "topk": lambda dt: ([_x(dt)], {"k": 1, "dim": 1}),
    "kthvalue": lambda dt: ([_x(dt)], {"k": 1, "dim": 1}),
    "median": _s_all,
    "median_dim": _s_dim,
    "mode": _s_dim,
    "cummax": _s_dim,
    "cummin": _s_dim,
    "quantile": _s_quantile,
    "histc": _s_float_only(lambda dt: ([_x(dt)], {"bins": 4, "min": 0.0, "max": 4.0})),
    "bincount": _s_bincount,
    "searchsorted": _s_searchsorted,
    "unique": lambda dt: ([_x(dt)], {"return_inverse": True, "return_counts": True}),
}
