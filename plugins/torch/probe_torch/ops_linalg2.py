"""The linalg2 family (sdk/ops/schema_linalg2.go): einsum, distances,
factorisation-based solvers and norms, statistics, integration and
combinatorics, run with the real torch. Conventions as in ops.py."""

import torch

from .ops import _dtype, _row, _t, _x
from .wire import ArgumentError, Unsupported

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


# ---------------------------------------------------------------- cholesky and the solvers

def _spd(dt):
    return _t([[4.0, 1.0], [1.0, 3.0]], dt)


def _cholesky(c):
    (x,) = _tensors(c, 1)
    a = c.attrs
    fn = a.get("fn", "linalg.cholesky")
    if a.get("check_errors", True):
        if fn == "cholesky":
            return [torch.cholesky(x, a.get("upper", False)), torch.zeros(x.shape[:-2], dtype=torch.int32, device=x.device)]
        return list(torch.linalg.cholesky_ex(x, upper=a.get("upper", False), check_errors=True))
    return list(torch.linalg.cholesky_ex(x, upper=a.get("upper", False)))


def _cholesky_inverse(c):
    (x,) = _tensors(c, 1)
    return torch.cholesky_inverse(x, c.attrs.get("upper", False))


def _cholesky_solve(c):
    b, x = _tensors(c, 2)
    return torch.cholesky_solve(b, x, c.attrs.get("upper", False))


def _triangular_solve(c):
    b, a = _tensors(c, 2)
    at = c.attrs
    return list(torch.triangular_solve(b, a, at.get("upper", True), at.get("transpose", False), at.get("unitriangular", False)))


def _linalg_solve(c):
    a, b = _tensors(c, 2)
    left = c.attrs.get("left", True)
    if c.attrs.get("check_errors", True):
        x = torch.linalg.solve(a, b, left=left)
        return [x, torch.zeros(a.shape[:-2], dtype=torch.int32, device=a.device)]
    return list(torch.linalg.solve_ex(a, b, left=left))


def _lu_solve(c):
    b, lu, piv = _tensors(c, 3)
    return torch.lu_solve(b, lu, piv)


def _lu_unpack(c):
    lu, piv = _tensors(c, 2)
    return list(torch.lu_unpack(lu, piv, c.attrs.get("unpack_data", True), c.attrs.get("unpack_pivots", True)))


def _s_lu(dt):
    lu, piv = torch.linalg.lu_factor(_spd(torch.float64))
    return [lu.to(dt), piv]


# ---------------------------------------------------------------- SVD-based ops, symeig, matrix_exp, lstsq, tensorsolve

def _ord(v):
    return v if v in ("fro", "nuc") else float(v)


def _svdvals(c):
    (x,) = _tensors(c, 1)
    return torch.linalg.svdvals(x)


def _matrix_norm(c):
    (x,) = _tensors(c, 1)
    a = c.attrs
    dt = a.get("dtype")
    return torch.linalg.matrix_norm(x, _ord(a.get("ord", "fro")), tuple(a.get("dim", (-2, -1))), a.get("keepdim", False),
                                    dtype=_dtype(dt) if dt else None)


def _cond(c):
    (x,) = _tensors(c, 1)
    return torch.linalg.cond(x, _ord(c.attrs.get("p", "2")))


def _pinv(c):
    (x,) = _tensors(c, 1)
    a = c.attrs
    return torch.linalg.pinv(x, atol=a.get("atol", 0.0), rtol=a["rtol"], hermitian=a.get("hermitian", False))


def _matrix_rank(c):
    (x,) = _tensors(c, 1)
    a = c.attrs
    return torch.linalg.matrix_rank(x, atol=a.get("atol", 0.0), rtol=a["rtol"], hermitian=a.get("hermitian", False))


def _symeig(c):
    (x,) = _tensors(c, 1)
    vec = c.attrs.get("eigenvectors", False)
    w, v = torch.symeig(x, vec, c.attrs.get("upper", True))
    if not vec:
        return [w, v]
    # each eigenvector signed so that its largest-magnitude element is
    # positive (the op's convention; LAPACK's signs are arbitrary)
    idx = v.abs().argmax(dim=-2, keepdim=True)
    return [w, v * torch.sign(torch.gather(v, -2, idx)).detach()]


def _matrix_exp(c):
    (x,) = _tensors(c, 1)
    if x.dtype == torch.bfloat16 and x.device.type == "cpu" and torch.__version__.startswith("1.13"):
        # exp(0.5·I) gives -1.3e30 and the backward NaN everywhere
        raise Unsupported("matrix_exp", "PyTorch 1.13's CPU bfloat16 matrix_exp computes wrong values", torch.bfloat16)
    return torch.matrix_exp(x)


def _lstsq(c):
    a, b = _tensors(c, 2)
    return list(torch.linalg.lstsq(a, b, c.attrs["rcond"], driver=c.attrs.get("driver", "gelsy")))


def _tensorsolve(c):
    a, b = _tensors(c, 2)
    dims = c.attrs.get("dims") or None
    return torch.linalg.tensorsolve(a, b, dims)


# ---------------------------------------------------------------- householder, statistics, integration, combinatorics

def _householder_product(c):
    a, tau = _tensors(c, 2)
    return torch.linalg.householder_product(a, tau)


def _ormqr(c):
    a, tau, o = _tensors(c, 3)
    return torch.ormqr(a, tau, o, c.attrs.get("left", True), c.attrs.get("transpose", False))


def _cov(c):
    x = _tensors(c, 1)[0]
    fw, aw = c.inputs[1], c.inputs[2]
    return torch.cov(x, correction=c.attrs.get("correction", 1), fweights=fw, aweights=aw)


def _corrcoef(c):
    (x,) = _tensors(c, 1)
    return torch.corrcoef(x)


def _trap(fn):
    def f(c):
        y = _tensors(c, 1)[0]
        x = c.inputs[1]
        dim = c.attrs.get("dim", -1)
        if x is not None:
            return fn(y, x, dim=dim)
        return fn(y, dx=c.attrs.get("dx", 1.0), dim=dim)
    return f


def _cartesian_prod(c):
    return torch.cartesian_prod(*_tensors(c, len(c.inputs)))


def _combinations(c):
    (x,) = _tensors(c, 1)
    return torch.combinations(x, c.attrs.get("r", 2), c.attrs.get("with_replacement", False))


OPS = {
    "einsum": _einsum,
    "cdist": _cdist,
    "pdist": _pdist,
    "cholesky": _cholesky,
    "cholesky_inverse": _cholesky_inverse,
    "cholesky_solve": _cholesky_solve,
    "triangular_solve": _triangular_solve,
    "linalg_solve": _linalg_solve,
    "lu_solve": _lu_solve,
    "lu_unpack": _lu_unpack,
    "svdvals": _svdvals,
    "matrix_norm": _matrix_norm,
    "cond": _cond,
    "pinv": _pinv,
    "matrix_rank": _matrix_rank,
    "symeig": _symeig,
    "matrix_exp": _matrix_exp,
    "lstsq": _lstsq,
    "tensorsolve": _tensorsolve,
    "householder_product": _householder_product,
    "ormqr": _ormqr,
    "cov": _cov,
    "corrcoef": _corrcoef,
    "trapezoid": _trap(torch.trapezoid),
    "cumulative_trapezoid": _trap(torch.cumulative_trapezoid),
    "cartesian_prod": _cartesian_prod,
    "combinations": _combinations,
}

SAMPLES = {
    "einsum": _s_einsum,
    "cdist": _f2(lambda dt: ([_x(dt), _x(dt)], {})),
    "pdist": _f2(lambda dt: ([_x(dt)], {})),
    "cholesky": _f2(lambda dt: ([_spd(dt)], {})),
    "cholesky_inverse": _f2(lambda dt: ([_spd(dt).tril()], {})),
    "cholesky_solve": _f2(lambda dt: ([_x(dt), _spd(dt).tril()], {})),
    "triangular_solve": _f2(lambda dt: ([_x(dt), _spd(dt).triu()], {})),
    "linalg_solve": _f2(lambda dt: ([_spd(dt), _x(dt)], {})),
    "lu_solve": _f2(lambda dt: ([_x(dt)] + _s_lu(dt), {})),
    "lu_unpack": _f2(lambda dt: (_s_lu(dt), {})),
    "svdvals": _f2(lambda dt: ([_x(dt)], {})),
    "matrix_norm": lambda dt: ([_x(dt)], {}) if dt.is_floating_point else None,
    "cond": _f2(lambda dt: ([_spd(dt)], {})),
    "pinv": _f2(lambda dt: ([_spd(dt)], {"rtol": 1e-6})),
    "matrix_rank": _f2(lambda dt: ([_spd(dt)], {"rtol": 1e-6})),
    "symeig": _f2(lambda dt: ([_spd(dt)], {"eigenvectors": True})),
    "matrix_exp": lambda dt: ([_x(dt)], {}) if dt in (torch.float64, torch.float32, torch.bfloat16) else None,
    "lstsq": _f2(lambda dt: ([_spd(dt), _x(dt)], {"rcond": 1e-6})),
    "tensorsolve": _f2(lambda dt: ([_spd(dt), _row(dt)], {})),
    "householder_product": _f2(lambda dt: ([_x(dt), _row(dt)], {})),
    "ormqr": _f2(lambda dt: ([_x(dt), _row(dt), _x(dt)], {})),
    "cov": lambda dt: None if dt in (torch.bool, torch.float16) else ([_x(dt), None, None], {}),
    "corrcoef": lambda dt: None if dt in (torch.bool, torch.float16) else ([_x(dt)], {}),
    "trapezoid": lambda dt: None if dt == torch.bool else ([_x(dt), None], {}),
    "cumulative_trapezoid": lambda dt: None if dt in (torch.bool, torch.float16) else ([_x(dt), None], {}),
    "cartesian_prod": lambda dt: ([_row(dt), _row(dt)], {}),
    "combinations": lambda dt: ([_row(dt)], {}),
}

BACKWARD = {"einsum", "cdist", "pdist", "cholesky", "cholesky_inverse", "cholesky_solve", "triangular_solve", "linalg_solve", "lu_solve", "lu_unpack",
            "svdvals", "matrix_norm", "cond", "pinv", "symeig", "matrix_exp", "lstsq", "tensorsolve",
            "householder_product", "cov", "corrcoef", "trapezoid", "cumulative_trapezoid", "cartesian_prod", "combinations"}

_ = _t
