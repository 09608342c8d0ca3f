"""The linalg family (sdk/ops/schema_linalg.go): matrix products beyond
matmul/mm/bmm/addmm, run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _int_if_integral, _row, _t, _x
from .wire import ArgumentError

aten = torch.ops.aten


def _tensors(c, n):
    for i, t in enumerate(c.inputs[:n]):
        if not isinstance(t, torch.Tensor):
            raise ArgumentError("%s: input %d must be a tensor" % (c.op, i))
    return c.inputs[:n]


def _add_product(name):
    fn = getattr(aten, name)

    def f(c):
        s, a, b = _tensors(c, 3)
        beta, alpha = _int_if_integral(c.attrs["beta"]), _int_if_integral(c.attrs["alpha"])
        if c.attrs["inplace"]:
            return getattr(s, name + "_")(a, b, beta=beta, alpha=alpha)
        return fn(s, a, b, beta=beta, alpha=alpha)
    return f


def _outer(c):
    x, y = _tensors(c, 2)
    return torch.outer(x, y)


def _s_addmv(dt):
    if dt == torch.bool:
        return None
    return [_row(dt), _x(dt), _row(dt)], {}


def _s_addr(dt):
    return [_x(dt), _row(dt), _row(dt)], {}


def _s_baddbmm(dt):
    if dt == torch.bool:
        return None
    return [_x(dt).unsqueeze(0), _x(dt).unsqueeze(0), _x(dt).unsqueeze(0)], {}


def _s_addbmm(dt):
    if dt == torch.bool:
        return None
    return [_x(dt), _x(dt).unsqueeze(0), _x(dt).unsqueeze(0)], {}


def _s_outer(dt):
    return [_row(dt), _row(dt)], {}


def _kron(c):
    x, y = _tensors(c, 2)
    return torch.kron(x, y)


def _tensordot(c):
    x, y = _tensors(c, 2)
    return torch.tensordot(x, y, dims=(list(c.attrs["dims_self"]), list(c.attrs["dims_other"])))


def _multi_dot(c):
    return torch.linalg.multi_dot(list(_tensors(c, len(c.inputs))))


def _vecdot(c):
    x, y = _tensors(c, 2)
    return torch.linalg.vecdot(x, y, dim=c.attrs["dim"])


def _matrix_power(c):
    (x,) = _tensors(c, 1)
    if x.dtype == torch.bool and c.attrs["n"] >= 2:
        # no device multiplies bool matrices: PyTorch's own refusal, not a
        # missing kernel of this device
        raise ArgumentError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    return torch.linalg.matrix_power(x, c.attrs["n"])


def _s_kron(dt):
    return [_x(dt), _row(dt)], {}


def _s_tensordot(dt):
    if dt == torch.bool:
        return None
    return [_x(dt), _x(dt)], {"dims_self": [1], "dims_other": [0]}


def _s_multi_dot(dt):
    if dt == torch.bool:
        return None
    return [_row(dt), _x(dt), _x(dt)], {}


def _s_vecdot(dt):
    if not dt.is_floating_point:
        return None
    return [_x(dt), _row(dt)], {"dim": -1}


def _s_matrix_power(dt):
    if dt == torch.bool:
        return [_x(dt)], {"n": 1}
    return [_x(dt)], {"n": 2}


def _cross(c):
    x, y = _tensors(c, 2)
    return torch.linalg.cross(x, y, dim=c.attrs["dim"])


def _s_cross(dt):
    if dt == torch.bool:
        return None
    return [_t([[1.0, 2.0, 0.5], [0.25, 1.0, 2.0]], dt), _t([[2.0, 0.5, 1.0], [1.0, 1.5, 0.5]], dt)], {"dim": 1}


def _dist(c):
    x, y = _tensors(c, 2)
    return torch.dist(x, y, c.attrs["p"])


def _s_dist(dt):
    if not dt.is_floating_point:
        return None
    return [_x(dt), _row(dt)], {"p": 2.0}


def _diff(c):
    x, pre, app = c.inputs
    (x,) = _tensors(c, 1)
    return torch.diff(x, n=c.attrs["n"], dim=c.attrs["dim"], prepend=pre, append=app)


def _s_diff(dt):
    return [_x(dt), None, None], {"n": 1, "dim": -1}


def _vander(c):
    (x,) = _tensors(c, 1)
    n, inc = c.attrs["N"], c.attrs["increasing"]
    # torch.linalg.vander where it runs: torch 1.13's torch.vander has no
    # working backward (an in-place cumprod), linalg.vander has
    if n > 1 and x.dtype in (torch.float64, torch.float32) or x.dim() != 1:
        out = torch.linalg.vander(x, N=n)
        return out if inc else out.flip(-1)
    return torch.vander(x, N=n, increasing=inc)


def _s_vander(dt):
    return [_row(dt)], {"N": 3, "increasing": False}


def _block_diag(c):
    return torch.block_diag(*_tensors(c, len(c.inputs)))


def _s_block_diag(dt):
    return [_x(dt), _row(dt)], {}


def _det(c):
    (x,) = _tensors(c, 1)
    return torch.linalg.det(x)


def _logdet(c):
    (x,) = _tensors(c, 1)
    return torch.logdet(x)


def _slogdet(c):
    (x,) = _tensors(c, 1)
    return list(torch.linalg.slogdet(x))


def _s_det(dt):
    if not dt.is_floating_point:
        return None
    return [_x(dt)], {}


OPS = {
    "addmv": _add_product("addmv"),
    "addr": _add_product("addr"),
    "baddbmm": _add_product("baddbmm"),
    "addbmm": _add_product("addbmm"),
    "outer": _outer,
    "kron": _kron,
    "tensordot": _tensordot,
    "multi_dot": _multi_dot,
    "vecdot": _vecdot,
    "matrix_power": _matrix_power,
    "cross": _cross,
    "dist": _dist,
    "diff": _diff,
    "vander": _vander,
    "block_diag": _block_diag,
    "det": _det,
    "logdet": _logdet,
    "slogdet": _slogdet,
}

SAMPLES = {
    "addmv": _s_addmv,
    "addr": _s_addr,
    "baddbmm": _s_baddbmm,
    "addbmm": _s_addbmm,
    "outer": _s_outer,
    "kron": _s_kron,
    "tensordot": _s_tensordot,
    "multi_dot": _s_multi_dot,
    "vecdot": _s_vecdot,
    "matrix_power": _s_matrix_power,
    "cross": _s_cross,
    "dist": _s_dist,
    "diff": _s_diff,
    "vander": _s_vander,
    "block_diag": _s_block_diag,
    "det": _s_det,
    "logdet": _s_det,
    "slogdet": _s_det,
}

BACKWARD = {"addmv", "addr", "baddbmm", "addbmm", "outer", "kron", "tensordot", "multi_dot", "vecdot", "matrix_power", "cross", "dist", "diff", "vander", "block_diag", "det", "logdet", "slogdet"}
