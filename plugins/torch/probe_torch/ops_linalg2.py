"""The linalg2 family (sdk/ops/schema_linalg2.go): einsum, distances,
factorisation-based solvers and norms, statistics, integration and
combinatorics, run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _row, _t, _x
from .wire import ArgumentError

FLOAT2 = (torch.float64, torch.float32)


def _tensors(c, n):
    for i, t in enumerate(c.inputs[:n]):
        if not isinstance(t, torch.Tensor):
            raise ArgumentError("%s: input %d must be a tensor" % (c.op, i))
    return c.inputs[:n]


def _f2(make):
    """A sample only at float64 and float32 (PyTorch's LAPACK dtypes)."""
    def s(dt):
        return make(dt) if dt in FLOAT2 else None
    return s


# ---------------------------------------------------------------- einsum, cdist, pdist

def _einsum(c):
    return torch.einsum(c.attrs["equation"], *_tensors(c, len(c.inputs)))


def _s_einsum(dt):
    if dt == torch.bool:
        return None
    if dt == torch.float16:
        return [_x(dt), _row(dt)], {"equation": "ij,j->ij"}
    return [_x(dt), _x(dt)], {"equation": "ij,jk->ik"}


_CDIST_MODES = ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"]


def _cdist(c):
    x1, x2 = _tensors(c, 2)
    m = c.attrs.get("compute_mode", 0)
    if not 0 <= m < len(_CDIST_MODES):
        raise ArgumentError("cdist: compute_mode must be 0, 1 or 2")
    return torch.cdist(x1, x2, c.attrs.get("p", 2.0), _CDIST_MODES[m])


def _pdist(c):
    (x,) = _tensors(c, 1)
    return torch.pdist(x, c.attrs.get("p", 2.0))


OPS = {
    "einsum": _einsum,
    "cdist": _cdist,
    "pdist": _pdist,
}

SAMPLES = {
    "einsum": _s_einsum,
    "cdist": _f2(lambda dt: ([_x(dt), _x(dt)], {})),
    "pdist": _f2(lambda dt: ([_x(dt)], {})),
}

BACKWARD = {"einsum", "cdist", "pdist"}

_ = _t
