"""Golden cases for the linalg2 family (sdk/ops/schema_linalg2.go): einsum,
cdist/pdist, cholesky and the solvers, norms and SVD-based ops, cov,
trapezoid, cartesian_prod, combinations.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_linalg2.py

writes golden/linalg2.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer cases keep their dtypes so that
result dtypes are checked); emulated cases run PyTorch at float32 (and
bfloat16/float16 where PyTorch 1.13's CPU has a kernel) and carry an ulp
field where PyTorch is more than one ulp from the correctly rounded result
(golden_lib.checked). Matrices are well conditioned (diagonally dominant,
symmetric positive definite where the op needs it) so that the narrow
results are meaningful.
"""

import warnings

import torch

from golden_lib import REPORT, Rand, checked, case, error_case, write_group

warnings.filterwarnings("ignore")

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
NAN, INF = float("nan"), float("inf")


def R(name):
    return Rand("linalg2/" + name)


def dn(d):
    return str(d).replace("torch.", "")


def spd(r, n, batch=(), d=f64):
    a = r.randn(tuple(batch) + (n, n))
    return (a @ a.transpose(-2, -1) + n * torch.eye(n, dtype=f64)).to(d)


def wellcond(r, n, batch=(), d=f64):
    return (r.randn(tuple(batch) + (n, n)) + 3 * torch.eye(n, dtype=f64)).to(d)


def pos(r, shape, d=f64):
    """positive values: no cancelling sums at the narrow dtypes"""
    return r.rand(shape, f64, 0.5, 1.5).to(d)


def fp32_bwd(name, make, fn, attrs=None):
    """A bench-mode backward case at float32 (see cholesky_cases)."""
    return [widen(checked(name + "/f32_bwd", name.split("/")[0], make(R(name + "/f32_bwd")), fn, attrs=attrs))]


def widen(c):
    """A gradient formed from the rounded outputs inherits their rounding,
    which PyTorch's narrow result and the float64 reference do not share:
    backward cases carry twice PyTorch's own deviation, at least 8 ulp."""
    c["ulp"] = max(8.0, 2 * c.get("ulp", 0))
    return c


def via_f32(fn, d):
    """fn computed in float32, floating outputs rounded to d."""
    def wrapped(*xs):
        out = fn(*[x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs])
        return out.to(d)
    return wrapped


def narrow(op, make, fn, dtypes=(f32,), attrs=None, backward=True, **kw):
    """Emulated forward (and backward) cases at the narrow dtypes."""
    cs = []
    for d in dtypes:
        for bwd in ([False, True] if backward else [False]):
            name = "%s/%s%s" % (op, dn(d), "/bwd" if bwd else "")
            xs = make(R(name), d)
            go = None
            if bwd:
                # positive gradients: no cancelling sums at the narrow dtype
                outs = fn(*xs)
                outs = (outs,) if isinstance(outs, torch.Tensor) else tuple(outs)
                gr = R(name + "#grad")
                go = [gr.rand(o.shape, f64, 0.5, 1.5).to(o.dtype) if o.dtype.is_floating_point else None for o in outs]
            c = checked(name, op, xs, fn, attrs=attrs, mode="emulated", backward=bwd, grad_outputs=go, **kw)
            if bwd:
                widen(c)
            cs.append(c)
    return cs


# --------------------------------------------------------------------------
# einsum

def einsum_cases():
    cs = []
    op = "einsum"
    r = R(op)

    def ein(eq):
        return lambda *xs: torch.einsum(eq, *xs)

    def add(name, eq, shapes, dtype=f64, backward=True, mode="bench"):
        xs = [r.randn(s).to(dtype) if dtype.is_floating_point else r.randint(-4, 5, s, dtype) for s in shapes]
        cs.append(case(op + "/" + name, op, xs, ein(eq), attrs={"equation": eq}, backward=backward and dtype.is_floating_point, mode=mode))

    add("matmul", "ij,jk->ik", [(2, 3), (3, 4)])
    add("implicit", "ij,jk", [(2, 3), (3, 4)])
    add("spaces", " i j , j k -> k i ", [(2, 3), (3, 4)])
    add("batched", "bij,bjk->bik", [(2, 2, 3), (2, 3, 4)])
    add("attention", "bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)])
    add("ellipsis", "...ij,...jk->...ik", [(2, 2, 3), (3, 4)])
    add("ellipsis_sum", "...j,jk->k", [(2, 2, 3), (3, 4)])
    add("ellipsis_mid", "a...b,b...->a...", [(2, 5, 3), (3, 5)])
    add("ellipsis_implicit", "...ij", [(2, 3, 4)])
    add("trace", "ii", [(3, 3)])
    add("diag", "ii->i", [(3, 3)])
    add("diag3", "iij->j", [(2, 2, 3)])
    add("diag_pair", "iij,jk->ik", [(2, 2, 3), (3, 4)])
    add("transpose", "ij->ji", [(2, 3)])
    add("sum_all", "ij->", [(2, 3)])
    add("outer", "i,j->ij", [(3,), (4,)])
    add("dot", "i,i->", [(5,), (5,)])
    add("hadamard", "ij,ij->ij", [(2, 3), (2, 3)])
    add("broadcast1", "ij,kj->ik", [(2, 1), (4, 3)])
    add("broadcast_rows", "ij,ij->ij", [(2, 3), (1, 3)])
    add("three", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)])
    add("three_sum", "i,ij,j->", [(3,), (3, 4), (4,)])
    add("upper", "Ab,bA->", [(2, 3), (3, 2)])
    add("implicit_upper", "aB,Ba", [(2, 3), (3, 2)])
    add("bilinear", "bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)])
    add("scalar", "", [()])
    add("scalar_mul", ",ij->ij", [(), (2, 3)])
    add("empty", "ij,jk->ik", [(0, 3), (3, 2)])
    add("empty_contract", "ij,jk->ik", [(2, 0), (0, 3)])
    add("attention_out", "bhqk,bhkd->bhqd", [(2, 2, 3, 4), (2, 2, 4, 5)])
    add("ellipsis_bcast", "...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)])
    add("repeated_apart", "iji->j", [(3, 2, 3)])
    add("trace_sum", "ii->", [(3, 3)])
    add("three_chain", "abc,cd,de->abe", [(2, 3, 4), (4, 2), (2, 3)])
    add("sum_then_mul", "ij,k->k", [(2, 3), (4,)])
    add("batch_outer", "bi,bj->bij", [(2, 3), (2, 4)])
    add("mixed_order", "kj,ji->ik", [(4, 3), (3, 2)])
    add("bilinear_sum", "ik,jkl,il->ij", [(2, 3), (4, 3, 5), (2, 5)])
    add("int64", "ij,jk->ik", [(2, 3), (3, 4)], dtype=torch.int64)
    add("int32_dot", "i,i->", [(4,)] * 2, dtype=torch.int32)
    add("int32_sum", "ij->j", [(3, 2)], dtype=torch.int32)
    add("int32_diag", "ii->i", [(3, 3)], dtype=torch.int32)
    add("int32_sum_mul", "ij,k->k", [(2, 3), (4,)], dtype=torch.int32)
    add("int8_matmul", "ij,jk->ik", [(2, 3), (3, 2)], dtype=torch.int8)
    add("int16_outer", "i,j->ij", [(3,), (2,)], dtype=torch.int16)
    e = lambda eq, *shapes: error_case(op + "/err_" + eq.replace(",", "_").replace("->", "_to_").replace(".", "d"), op,
                                       [r.randn(s) for s in shapes], ein(eq), attrs={"equation": eq})
    cs.append(e("ij,jk->ii", (2, 3), (3, 4)))
    cs.append(e("ij,jk->iz", (2, 3), (3, 4)))
    cs.append(e("ijk", (2, 3)))
    cs.append(e("ij,jk,kl", (2, 3), (3, 4)))
    cs.append(e("i.j", (2, 3)))
    cs.append(e("ii", (2, 3)))
    cs.append(error_case(op + "/err_dtypes", op, [r.randn((2, 3)), r.randn((3, 4), f32)], ein("ij,jk"), attrs={"equation": "ij,jk"}))
    cs += narrow(op, lambda r, d: [pos(r, (2, 3, 4), d), pos(r, (2, 4, 5), d)], ein("bij,bjk->bik"), dtypes=(f32, bf16),
                 attrs={"equation": "bij,bjk->bik"})
    cs += narrow(op, lambda r, d: [r.randn((3, 4), d), r.randn((4,), d)], ein("ij,j->ij"), dtypes=(f16,),
                 attrs={"equation": "ij,j->ij"})
    return cs


# --------------------------------------------------------------------------
# cdist, pdist

MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}


def cdist_cases():
    cs = []
    op = "cdist"
    r = R(op)

    def add(name, s1, s2, p=2.0, mode="use_mm_for_euclid_dist_if_necessary", backward=True, xs=None):
        xs = xs or [r.randn(s1), r.randn(s2)]
        cs.append(case(op + "/" + name, op, xs, lambda a, b: torch.cdist(a, b, p, mode), attrs={"p": float(p), "compute_mode": MODES[mode]},
                       backward=backward))
    add("basic", (3, 4), (5, 4))
    for p in (0.0, 0.5, 1.0, 1.5, 3.0, INF):
        add("p%s" % p, (3, 4), (2, 4), p=p)
    add("batched", (2, 3, 4), (2, 5, 4))
    add("broadcast", (2, 1, 3, 4), (3, 5, 4))
    add("mm", (3, 4), (5, 4), mode="use_mm_for_euclid_dist")
    add("no_mm_large", (30, 3), (4, 3), mode="donot_use_mm_for_euclid_dist")
    add("large_mm", (30, 3), (4, 3))
    x = r.randn((3, 2))
    add("zero_dist", None, None, p=1.0, xs=[x, x.clone()])
    add("zero_dist_p2", None, None, xs=[x, x.clone()], mode="donot_use_mm_for_euclid_dist")
    add("empty", (0, 3), (2, 3))
    add("m0", (2, 0), (3, 0))
    cs.append(error_case(op + "/1d", op, [r.randn((3,)), r.randn((2, 3))], lambda a, b: torch.cdist(a, b), attrs={}))
    cs.append(error_case(op + "/cols", op, [r.randn((2, 3)), r.randn((2, 4))], lambda a, b: torch.cdist(a, b), attrs={}))
    cs.append(error_case(op + "/neg_p", op, [r.randn((2, 3)), r.randn((2, 3))], lambda a, b: torch.cdist(a, b, -1.0), attrs={"p": -1.0}))
    cs.append(error_case(op + "/int", op, [r.randint(0, 3, (2, 3)), r.randint(0, 3, (2, 3))], lambda a, b: torch.cdist(a, b), attrs={}))
    cs += narrow(op, lambda r, d: [r.randn((3, 4), d), r.randn((5, 4), d)], lambda a, b: torch.cdist(a, b), attrs={})
    cs += narrow(op + "_p1", lambda r, d: [r.randn((3, 4), d), r.randn((5, 4), d)], lambda a, b: torch.cdist(a, b, 1.0), attrs={"p": 1.0})
    for c in cs:
        c["op"] = op
    return cs


def pdist_cases():
    cs = []
    op = "pdist"
    r = R(op)

    def add(name, shape, p=2.0, backward=True, x=None):
        x = r.randn(shape) if x is None else x
        cs.append(case(op + "/" + name, op, [x], lambda a: torch.pdist(a, p), attrs={"p": float(p)}, backward=backward))
    add("basic", (4, 3))
    for p in (0.0, 0.5, 1.0, 3.0, INF):
        add("p%s" % p, (4, 3), p=p)
    add("one_row", (1, 3))
    add("dup_rows", None, x=torch.tensor([[1.0, 2.0], [1.0, 2.0], [0.5, -1.0]], dtype=f64))
    cs.append(error_case(op + "/3d", op, [r.randn((2, 2, 2))], lambda a: torch.pdist(a), attrs={}))
    cs.append(error_case(op + "/neg_p", op, [r.randn((2, 2))], lambda a: torch.pdist(a, -1.0), attrs={"p": -1.0}))
    cs += narrow(op, lambda r, d: [r.randn((4, 3), d)], lambda a: torch.pdist(a), attrs={})
    return cs


# --------------------------------------------------------------------------
# cholesky family, triangular_solve, linalg.solve, lu_solve, lu_unpack

def chol_attrs(upper=False, check=True, fn="linalg.cholesky"):
    return {"upper": upper, "check_errors": check, "fn": fn}


def cholesky_cases():
    cs = []
    op = "cholesky"
    r = R(op)

    def add(name, a, upper=False, backward=False):
        cs.append(case(op + "/" + name, op, [a], lambda x: torch.linalg.cholesky_ex(x, upper=upper), attrs=chol_attrs(upper), backward=backward))
    add("basic", spd(r, 3))
    add("upper", spd(r, 3), upper=True)
    # PyTorch's gradients of the cholesky family are not the derivative of
    # the forward, which reads one triangle (cholesky: symmetrised; the
    # factor ops: as if the factor were a full matrix), so the kit's
    # finite-difference check cannot run on them: their bench backward
    # cases are float32 (the check runs at float64 only)
    cs += fp32_bwd(op, lambda r: [spd(r, 3, (2,), f32)], lambda x: torch.linalg.cholesky_ex(x), attrs=chol_attrs())
    cs += fp32_bwd(op + "/upper", lambda r: [spd(r, 3, (), f32)], lambda x: torch.linalg.cholesky_ex(x, upper=True), attrs=chol_attrs(True))
    add("batched", spd(r, 4, (2, 2)))
    add("one", spd(r, 1))
    add("empty", spd(r, 0))
    add("empty_batch", spd(r, 2, (0,)))
    # only one triangle is read
    a = spd(r, 3)
    add("lower_only", torch.tril(a) + torch.triu(r.randn((3, 3)), 1))
    add("upper_only", torch.triu(a) + torch.tril(r.randn((3, 3)), -1), upper=True)
    bad = torch.tensor([[4.0, 2.0, 1.0], [2.0, 1.0, 3.0], [1.0, 3.0, 2.0]], dtype=f64)
    cs.append(case(op + "/not_pd_info", op, [bad], lambda x: torch.linalg.cholesky_ex(x), attrs=chol_attrs(check=False, fn="linalg.cholesky_ex"), backward=False))
    cs.append(error_case(op + "/not_pd", op, [bad], lambda x: torch.cholesky(x), attrs=chol_attrs(fn="cholesky")))
    cs.append(error_case(op + "/not_pd_batch", op, [torch.stack([spd(r, 3), bad])], lambda x: torch.cholesky(x), attrs=chol_attrs(fn="cholesky")))
    cs.append(error_case(op + "/not_pd_ex", op, [bad], lambda x: torch.linalg.cholesky_ex(x, check_errors=True), attrs=chol_attrs(fn="linalg.cholesky_ex")))
    cs.append(error_case(op + "/1d", op, [r.randn((3,))], lambda x: torch.cholesky(x), attrs=chol_attrs(fn="cholesky")))
    cs.append(error_case(op + "/not_square", op, [r.randn((2, 3))], lambda x: torch.cholesky(x), attrs=chol_attrs(fn="cholesky")))
    cs += narrow(op, lambda r, d: [spd(r, 3, (2,), d)], lambda x: torch.linalg.cholesky_ex(x), attrs=chol_attrs())

    op = "cholesky_inverse"
    for upper in (False, True):
        u = "upper" if upper else "lower"
        L = torch.linalg.cholesky(spd(r, 3), upper=upper)
        cs.append(case(op + "/" + u, op, [L], lambda x, up=upper: torch.cholesky_inverse(x, up), attrs={"upper": upper}, backward=False))
        LB = torch.linalg.cholesky(spd(r, 3, (2,)), upper=upper)
        cs.append(case(op + "/batched_" + u, op, [LB], lambda x, up=upper: torch.cholesky_inverse(x, up), attrs={"upper": upper}, backward=False))
        cs += fp32_bwd(op + "/" + u, lambda r, up=upper: [torch.linalg.cholesky(spd(r, 3, (2,)), upper=up).float()],
                       lambda x, up=upper: torch.cholesky_inverse(x, up), attrs={"upper": upper})
    cs.append(case(op + "/empty", op, [r.randn((0, 0))], lambda x: torch.cholesky_inverse(x), attrs={}))
    cs.append(error_case(op + "/1d", op, [r.randn((3,))], lambda x: torch.cholesky_inverse(x), attrs={}))
    cs += narrow(op, lambda r, d: [torch.linalg.cholesky(spd(r, 3)).to(d)], lambda x: torch.cholesky_inverse(x), attrs={})

    op = "cholesky_solve"
    for upper in (False, True):
        u = "upper" if upper else "lower"
        L = torch.linalg.cholesky(spd(r, 3), upper=upper)
        cs.append(case(op + "/" + u, op, [r.randn((3, 2)), L], lambda b, x, up=upper: torch.cholesky_solve(b, x, up), attrs={"upper": upper}, backward=False))
        cs += fp32_bwd(op + "/" + u, lambda r, up=upper: [r.randn((3, 2), f32), torch.linalg.cholesky(spd(r, 3), upper=up).float()],
                       lambda b, x, up=upper: torch.cholesky_solve(b, x, up), attrs={"upper": upper})
    LB = torch.linalg.cholesky(spd(r, 3, (4,)))
    cs.append(case(op + "/broadcast", op, [r.randn((2, 1, 3, 2)), LB], lambda b, x: torch.cholesky_solve(b, x), attrs={}, backward=False))
    cs += fp32_bwd(op + "/broadcast", lambda r: [r.randn((2, 1, 3, 2), f32), torch.linalg.cholesky(spd(r, 3, (4,))).float()],
                   lambda b, x: torch.cholesky_solve(b, x), attrs={})
    cs.append(case(op + "/broadcast_b", op, [r.randn((2, 3, 1)), LB[0]], lambda b, x: torch.cholesky_solve(b, x), attrs={}, backward=False))
    cs.append(case(op + "/grad_b_only", op, [r.randn((2, 3, 1)), LB[0]], lambda b, x: torch.cholesky_solve(b, x), attrs={}, requires_grad=[True, False]))
    cs.append(case(op + "/k0", op, [r.randn((3, 0)), LB[0]], lambda b, x: torch.cholesky_solve(b, x), attrs={}))
    cs.append(error_case(op + "/1d", op, [r.randn((3,)), LB[0]], lambda b, x: torch.cholesky_solve(b, x), attrs={}))
    cs.append(error_case(op + "/dtype", op, [r.randn((3, 2)), LB[0].float()], lambda b, x: torch.cholesky_solve(b, x), attrs={}))
    cs += narrow(op, lambda r, d: [r.randn((3, 2), d), torch.linalg.cholesky(spd(r, 3)).to(d)], lambda b, x: torch.cholesky_solve(b, x), attrs={})
    return cs


def triangular_cases():
    cs = []
    op = "triangular_solve"
    r = R(op)

    def ts(upper=True, trans=False, unit=False):
        return lambda b, a: torch.triangular_solve(b, a, upper, trans, unit)

    def at(upper=True, trans=False, unit=False):
        return {"upper": upper, "transpose": trans, "unitriangular": unit}
    for upper in (True, False):
        for trans in (False, True):
            for unit in (False, True):
                name = "%s%s%s" % ("upper" if upper else "lower", "_t" if trans else "", "_unit" if unit else "")
                cs.append(case(op + "/" + name, op, [r.randn((3, 2)), wellcond(r, 3)], ts(upper, trans, unit), attrs=at(upper, trans, unit)))
    cs.append(case(op + "/broadcast", op, [r.randn((2, 1, 3, 2)), wellcond(r, 3, (4,))], ts(), attrs=at()))
    cs.append(case(op + "/broadcast_a", op, [r.randn((2, 3, 2)), wellcond(r, 3)], ts(False), attrs=at(False)))
    cs.append(case(op + "/empty", op, [r.randn((0, 2)), wellcond(r, 0)], ts(), attrs=at()))
    cs.append(error_case(op + "/1d", op, [r.randn((3,)), wellcond(r, 3)], ts(), attrs=at()))
    cs.append(error_case(op + "/sizes", op, [r.randn((2, 2)), wellcond(r, 3)], ts(), attrs=at()))
    cs += narrow(op, lambda r, d: [r.randn((3, 2), d), wellcond(r, 3, (), d)], ts(), attrs=at())
    return cs


def solve_cases():
    cs = []
    op = "linalg_solve"
    r = R(op)

    def sv(left=True):
        return lambda a, b: torch.linalg.solve_ex(a, b, left=left)

    def at(left=True, check=True):
        return {"left": left, "check_errors": check}
    cs.append(case(op + "/basic", op, [wellcond(r, 3), r.randn((3, 2))], sv(), attrs=at()))
    cs.append(case(op + "/vector", op, [wellcond(r, 3), r.randn((3,))], sv(), attrs=at()))
    cs.append(case(op + "/batched_vector", op, [wellcond(r, 3, (2,)), r.randn((2, 3))], sv(), attrs=at()))
    cs.append(case(op + "/vector_broadcast", op, [wellcond(r, 3, (2,)), r.randn((3,))], sv(), attrs=at()))
    cs.append(case(op + "/broadcast", op, [wellcond(r, 3, (2, 1)), r.randn((4, 3, 2))], sv(), attrs=at()))
    cs.append(case(op + "/right", op, [wellcond(r, 3), r.randn((2, 3))], sv(False), attrs=at(False)))
    cs.append(case(op + "/right_batched", op, [wellcond(r, 3, (2,)), r.randn((2, 4, 3))], sv(False), attrs=at(False)))
    cs.append(case(op + "/pivoting", op, [torch.tensor([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]], dtype=f64), r.randn((3, 2))], sv(), attrs=at()))
    cs.append(case(op + "/empty", op, [wellcond(r, 0), r.randn((0, 2))], sv(), attrs=at()))
    cs.append(error_case(op + "/singular", op, [torch.zeros((3, 3), dtype=f64), r.randn((3, 2))], lambda a, b: torch.linalg.solve(a, b), attrs=at()))
    cs.append(error_case(op + "/shapes", op, [wellcond(r, 3), r.randn((2, 2))], lambda a, b: torch.linalg.solve(a, b), attrs=at()))
    cs.append(error_case(op + "/dtype", op, [wellcond(r, 3), r.randn((3, 2), f32)], lambda a, b: torch.linalg.solve(a, b), attrs=at()))
    cs.append(error_case(op + "/not_square", op, [r.randn((3, 2)), r.randn((3, 2))], lambda a, b: torch.linalg.solve(a, b), attrs=at()))
    cs += narrow(op, lambda r, d: [wellcond(r, 3, (), d), r.randn((3, 2), d)], sv(), attrs=at())
    return cs


def lu_cases():
    cs = []
    r = R("lu")
    op = "lu_solve"

    def lu(a):
        LU, piv = torch.linalg.lu_factor(a)
        return LU, piv
    LU, piv = lu(r.randn((3, 3)))
    cs.append(case(op + "/basic", op, [r.randn((3, 2)), LU, piv], torch.lu_solve, attrs={}))
    LU2, piv2 = lu(r.randn((2, 3, 3)))
    cs.append(case(op + "/batched", op, [r.randn((2, 3, 1)), LU2, piv2], torch.lu_solve, attrs={}))
    cs.append(case(op + "/broadcast_b", op, [r.randn((4, 1, 3, 2)), LU, piv], torch.lu_solve, attrs={}))
    cs.append(case(op + "/pivoting", op, [r.randn((3, 2))] + list(lu(torch.tensor([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]], dtype=f64))),
                   torch.lu_solve, attrs={}))
    cs.append(error_case(op + "/1d", op, [r.randn((3,)), LU, piv], torch.lu_solve, attrs={}))
    cs += narrow(op, lambda r, d: [r.randn((3, 2), d)] + [t.to(d) if t.dtype.is_floating_point else t for t in lu(wellcond(r, 3))], torch.lu_solve, attrs={})

    op = "lu_unpack"

    def un(data=True, pivots=True):
        return lambda a, p: torch.lu_unpack(a, p, data, pivots)

    def at(data=True, pivots=True):
        return {"unpack_data": data, "unpack_pivots": pivots}
    cs.append(case(op + "/square", op, [LU, piv], un(), attrs=at()))
    cs.append(case(op + "/batched", op, [LU2, piv2], un(), attrs=at()))
    cs.append(case(op + "/wide", op, list(lu(r.randn((3, 5)))), un(), attrs=at()))
    cs.append(case(op + "/tall", op, list(lu(r.randn((5, 3)))), un(), attrs=at()))
    cs.append(case(op + "/no_data", op, [LU, piv], un(False), attrs=at(False), backward=False))
    cs.append(case(op + "/no_pivots", op, [LU, piv], un(True, False), attrs=at(True, False)))
    cs.append(error_case(op + "/int64_pivots", op, [LU, piv.long()], un(), attrs=at()))
    cs += narrow(op, lambda r, d: [t.to(d) if t.dtype.is_floating_point else t for t in lu(r.randn((3, 3)))], un(), attrs=at())
    return cs


# --------------------------------------------------------------------------
# svdvals, matrix_norm, cond, pinv, matrix_rank

EPS = {f64: torch.finfo(f64).eps, f32: torch.finfo(f32).eps}


def svd_cases():
    cs = []
    op = "svdvals"
    r = R(op)
    sv = torch.linalg.svdvals
    cs.append(case(op + "/wide", op, [r.randn((3, 4))], sv))
    cs.append(case(op + "/tall", op, [r.randn((4, 3))], sv))
    cs.append(case(op + "/batched", op, [r.randn((2, 3, 3))], sv))
    cs.append(case(op + "/empty", op, [r.randn((0, 3))], sv))
    cs.append(error_case(op + "/1d", op, [r.randn((3,))], sv))
    cs.append(error_case(op + "/int", op, [r.randint(0, 3, (2, 2))], sv))
    cs += narrow(op, lambda r, d: [r.randn((3, 4), d)], sv)

    op = "matrix_norm"
    r = R(op)

    def mn(ord, dim=(-2, -1), keepdim=False, dtype=None):
        o = ord
        if ord in ("inf", "-inf", "1", "-1", "2", "-2"):
            o = float(ord)
        return lambda x: torch.linalg.matrix_norm(x, o, dim, keepdim, dtype=dtype)

    def at(ord, dim=(-2, -1), keepdim=False, dtype=None):
        return {"ord": ord, "dim": list(dim), "keepdim": keepdim, "dtype": dtype}
    for ord in ("fro", "nuc", "inf", "-inf", "1", "-1", "2", "-2"):
        cs.append(case(op + "/" + ord, op, [r.randn((3, 4))], mn(ord), attrs=at(ord)))
        cs.append(case(op + "/" + ord + "/dims_keepdim", op, [r.randn((3, 2, 4))], mn(ord, (2, 0), True), attrs=at(ord, (2, 0), True)))
    cs.append(case(op + "/batched", op, [r.randn((2, 3, 3))], mn("fro"), attrs=at("fro")))
    cs.append(case(op + "/ties", op, [torch.tensor([[1.0, -2.0], [-2.0, 1.0]], dtype=f64)], mn("1"), attrs=at("1")))
    cs.append(case(op + "/zero_fro", op, [torch.zeros((2, 2), dtype=f64)], mn("fro"), attrs=at("fro")))
    cs.append(case(op + "/empty_fro", op, [r.randn((0, 3))], mn("fro"), attrs=at("fro")))
    cs.append(case(op + "/dtype", op, [r.randn((3, 3), f32)], mn("fro", dtype=f64), attrs=at("fro", dtype=f64)))
    cs.append(error_case(op + "/1d", op, [r.randn((3,))], mn("fro"), attrs=at("fro")))
    cs.append(error_case(op + "/int", op, [r.randint(0, 3, (2, 2))], mn("fro"), attrs=at("fro")))
    cs.append(error_case(op + "/empty_inf", op, [r.randn((0, 3))], mn("inf"), attrs=at("inf")))
    for ord in ("fro", "inf", "1"):
        cs += narrow(op + "_" + ord, lambda r, d: [pos(r, (3, 4), d)], mn(ord), attrs=at(ord), dtypes=(f32, bf16, f16))
    cs += narrow(op + "_nuc", lambda r, d: [r.randn((3, 4), d)], mn("nuc"), attrs=at("nuc"))
    for c in cs:
        if c["op"].startswith("matrix_norm_"):
            c["op"] = "matrix_norm"

    op = "cond"
    r = R(op)

    def cd(p):
        pp = p
        if p in ("inf", "-inf", "1", "-1", "2", "-2"):
            pp = float(p)
        return lambda x: torch.linalg.cond(x, pp)
    cs.append(case(op + "/none", op, [r.randn((3, 4))], lambda x: torch.linalg.cond(x), attrs={"p": "2"}))
    cs.append(case(op + "/m2", op, [r.randn((4, 3))], cd("-2"), attrs={"p": "-2"}))
    cs.append(case(op + "/batched", op, [r.randn((2, 3, 3))], cd("2"), attrs={"p": "2"}))
    for p in ("fro", "nuc", "inf", "-inf", "1", "-1"):
        cs.append(case(op + "/" + p, op, [wellcond(r, 3)], cd(p), attrs={"p": p}, backward=False))
    cs.append(case(op + "/singular_fro", op, [torch.ones((2, 2), dtype=f64)], cd("fro"), attrs={"p": "fro"}, backward=False))
    cs.append(error_case(op + "/fro_not_square", op, [r.randn((2, 3))], cd("fro"), attrs={"p": "fro"}))
    cs += narrow(op, lambda r, d: [wellcond(r, 3, (), d)], cd("2"), attrs={"p": "2"})

    op = "pinv"
    r = R(op)

    def pv(atol=0.0, rtol=None, herm=False, n=None):
        return lambda x: torch.linalg.pinv(x, atol=atol, rtol=rtol, hermitian=herm)

    def at(x, atol=0.0, rtol=None, herm=False):
        if rtol is None:
            rtol = EPS[x.dtype] * max(x.shape[-2:])
        return {"atol": atol, "rtol": rtol, "hermitian": herm}

    def add(name, x, atol=0.0, rtol=None, herm=False, backward=True):
        a = at(x, atol, rtol, herm)
        cs.append(case(op + "/" + name, op, [x], pv(a["atol"], a["rtol"], herm), attrs=a, backward=backward))
    add("wide", r.randn((3, 4)))
    add("tall", r.randn((4, 3)))
    add("batched", r.randn((2, 3, 3)))
    add("pinverse_rcond", r.randn((3, 3)), rtol=1e-15)
    add("rank_deficient", torch.outer(r.randn((3,)), r.randn((4,))), backward=False)
    add("atol_cut", torch.diag(torch.tensor([3.0, 1.0, 1e-3], dtype=f64)), atol=0.01, backward=False)
    add("hermitian", spd(r, 3), herm=True, backward=False)
    add("empty", r.randn((0, 3)))
    cs.append(error_case(op + "/int", op, [r.randint(0, 3, (2, 2))], pv(rtol=0.0), attrs={"atol": 0.0, "rtol": 0.0, "hermitian": False}))
    cs += narrow(op, lambda r, d: [wellcond(r, 3, (), d)], pv(0.0, EPS[f32] * 3), attrs={"atol": 0.0, "rtol": EPS[f32] * 3, "hermitian": False})

    op = "matrix_rank"
    r = R(op)

    def rk(x, atol=0.0, rtol=None, herm=False, name=""):
        if rtol is None:
            rtol = EPS[x.dtype] * max(x.shape[-2:])
        cs.append(case(op + "/" + name, op, [x], lambda y: torch.linalg.matrix_rank(y, atol=atol, rtol=rtol, hermitian=herm),
                       attrs={"atol": atol, "rtol": rtol, "hermitian": herm}, backward=False))
    rk(r.randn((3, 4)), name="full")
    rk(torch.outer(r.randn((3,)), r.randn((4,))), name="rank1")
    rk(r.randn((2, 3, 3)), name="batched")
    rk(torch.diag(torch.tensor([3.0, 1.0, 1e-3], dtype=f64)), atol=0.01, rtol=0.0, name="atol")
    rk(torch.diag(torch.tensor([3.0, 1.0, 1e-3], dtype=f64)), rtol=0.1, name="rtol")
    rk(spd(r, 3), herm=True, name="hermitian")
    rk(r.randn((3, 3), f32), name="f32")
    cs += narrow(op, lambda r, d: [r.randn((3, 4), d)], lambda y: torch.linalg.matrix_rank(y, atol=0.0, rtol=EPS[f32] * 4),
                 attrs={"atol": 0.0, "rtol": EPS[f32] * 4, "hermitian": False}, backward=False)
    return cs


def symeig_cases():
    cs = []
    op = "symeig"
    r = R(op)

    def normalized(x, vec=False, upper=True):
        w, v = torch.symeig(x, vec, upper)
        if not vec:
            return w, v
        idx = v.abs().argmax(dim=-2, keepdim=True)
        sign = torch.sign(torch.gather(v, -2, idx)).detach()
        return w, v * sign

    def add(name, x, vec=False, upper=True, backward=False):
        cs.append(case(op + "/" + name, op, [x], lambda y: normalized(y, vec, upper), attrs={"eigenvectors": vec, "upper": upper}, backward=backward))
    add("values", spd(r, 3))
    add("vectors", spd(r, 3), vec=True)
    add("lower", torch.tril(spd(r, 3)) + torch.triu(r.randn((3, 3)), 1), vec=True, upper=False)
    add("upper_only", torch.triu(spd(r, 3)) + torch.tril(r.randn((3, 3)), -1), vec=True)
    add("batched", spd(r, 3, (2,)), vec=True)
    add("empty", spd(r, 0))
    cs.append(error_case(op + "/not_square", op, [r.randn((2, 3))], lambda y: torch.symeig(y), attrs={}))
    # the gradient is symmetric while the forward reads one triangle (see
    # cholesky_cases): float32 bench backward cases
    cs += fp32_bwd(op, lambda r: [spd(r, 3, (2,), f32)], lambda y: normalized(y, True), attrs={"eigenvectors": True, "upper": True})
    cs += fp32_bwd(op + "/lower", lambda r: [spd(r, 3, (), f32)], lambda y: normalized(y, True, False), attrs={"eigenvectors": True, "upper": False})
    cs += narrow(op, lambda r, d: [spd(r, 3, (), d)], lambda y: normalized(y, True), attrs={"eigenvectors": True, "upper": True})
    return cs


def matrix_exp_cases():
    cs = []
    op = "matrix_exp"
    r = R(op)
    me = torch.matrix_exp
    cs.append(case(op + "/small", op, [0.3 * r.randn((3, 3))], me))
    cs.append(case(op + "/scaled", op, [3.0 * r.randn((4, 4))], me))
    cs.append(case(op + "/batched", op, [r.randn((2, 3, 3))], me))
    cs.append(case(op + "/one", op, [r.randn((1, 1))], me))
    cs.append(case(op + "/empty", op, [r.randn((0, 0))], me))
    cs.append(case(op + "/zero", op, [torch.zeros((2, 2), dtype=f64)], me))
    cs.append(error_case(op + "/not_square", op, [r.randn((2, 3))], me))
    cs.append(error_case(op + "/int", op, [r.randint(0, 3, (2, 2))], me))
    cs += narrow(op, lambda r, d: [(0.3 * r.randn((3, 3))).to(d)], me)
    # PyTorch 1.13's CPU bfloat16 matrix_exp is wrong (exp(0.5·I) gives
    # -1.3e30, its backward NaN everywhere): the bfloat16 cases are
    # PyTorch's float32 result rounded, as gen_golden_dtypes.py does where a
    # dtype has no kernel
    cs += narrow(op, lambda r, d: [(0.3 * r.randn((3, 3))).to(d)], via_f32(me, bf16), dtypes=(bf16,))
    for c in cs:
        if c["name"].startswith("matrix_exp/bfloat16"):
            c["name"] = c["name"].replace("bfloat16", "bfloat16_via_f32")
    return cs


def lstsq_cases():
    cs = []
    op = "lstsq"
    r = R(op)

    def add(name, a, b, driver="gelsy", backward=True):
        rcond = EPS[a.dtype] * max(a.shape[-2:])
        c = case(op + "/" + name, op, [a, b], lambda x, y: torch.linalg.lstsq(x, y, driver=driver), attrs={"rcond": rcond, "driver": driver},
                 backward=backward)
        cs.append(stable(c) if driver == "gelsy" else c)
    add("tall", r.randn((4, 3)), r.randn((4, 2)))
    for drv in ("gels", "gelsd", "gelss"):
        add("tall_" + drv, r.randn((4, 3)), r.randn((4, 2)), drv)
    add("square", wellcond(r, 3), r.randn((3, 2)))
    add("wide", r.randn((3, 4)), r.randn((3, 2)), "gelsd")
    # PyTorch 1.13 raises in the backward of a vector B
    add("vector", r.randn((4, 3)), r.randn((4,)), backward=False)
    add("batched", r.randn((2, 4, 3)), r.randn((2, 4, 2)), "gelsd")
    add("rank_deficient", torch.outer(r.randn((4,)), r.randn((3,))), r.randn((4, 2)), "gelsd", backward=False)
    cs.append(error_case(op + "/rows", op, [r.randn((4, 3)), r.randn((3, 2))], lambda x, y: torch.linalg.lstsq(x, y), attrs={"rcond": 0.0}))
    # gelsd: gelsy's float32 results vary in the last bit from run to run
    cs += narrow(op, lambda r, d: [r.randn((4, 3), d), r.randn((4, 2), d)], lambda x, y: torch.linalg.lstsq(x, y, driver="gelsd"),
                 attrs={"rcond": EPS[f32] * 4, "driver": "gelsd"})
    return cs


def stable(c):
    """LAPACK's gelsy (lstsq's default driver) varies in the last bits from
    run to run: its float64 values are kept to 12 significant digits, and the
    case carries rtol 1e-11, so that the file is byte-stable."""
    c["rtol"] = 1e-11
    for key in ("outputs", "input_grads"):
        for t in c.get(key) or []:
            if t is not None and t["dtype"] == "float64":
                t["data"] = [float("%.12g" % v) if isinstance(v, float) else v for v in t["data"]]
    return c


def tensorsolve_cases():
    cs = []
    op = "tensorsolve"
    r = R(op)

    def ts(dims=None):
        return lambda a, b: torch.linalg.tensorsolve(a, b, dims)
    a = wellcond(r, 6).reshape(2, 3, 6)
    cs.append(case(op + "/basic", op, [a, r.randn((2, 3))], ts(), attrs={"dims": []}))
    a2 = wellcond(r, 6).reshape(6, 2, 3).permute(1, 2, 0).contiguous().permute(2, 0, 1).contiguous()
    cs.append(case(op + "/dims", op, [a2, r.randn((2, 3))], ts((0,)), attrs={"dims": [0]}))
    cs.append(case(op + "/square", op, [wellcond(r, 4), r.randn((4,))], ts(), attrs={"dims": []}))
    cs.append(error_case(op + "/sizes", op, [r.randn((2, 3, 4)), r.randn((2, 3))], ts(), attrs={"dims": []}))
    cs += narrow(op, lambda r, d: [wellcond(r, 4, (), d), r.randn((4,), d)], ts(), attrs={"dims": []})
    return cs


# --------------------------------------------------------------------------
# householder_product, ormqr

def householder_cases():
    cs = []
    op = "householder_product"
    r = R(op)
    hp = torch.linalg.householder_product
    cs.append(case(op + "/tall", op, [r.randn((4, 3)), r.randn((3,))], hp))
    cs.append(case(op + "/k_less", op, [r.randn((4, 3)), r.randn((2,))], hp))
    cs.append(case(op + "/square", op, [r.randn((3, 3)), r.randn((3,))], hp))
    cs.append(case(op + "/batched", op, [r.randn((2, 4, 2)), r.randn((2, 2))], hp))
    cs.append(case(op + "/tau0", op, [r.randn((3, 2)), torch.zeros((2,), dtype=f64)], hp))
    cs.append(case(op + "/geqrf", op, list(torch.geqrf(r.randn((4, 3)))), hp))
    cs.append(error_case(op + "/wide", op, [r.randn((3, 4)), r.randn((2,))], hp))
    cs.append(error_case(op + "/tau_long", op, [r.randn((4, 3)), r.randn((4,))], hp))
    cs += narrow(op, lambda r, d: [r.randn((4, 3), d), r.randn((3,), d)], hp)

    op = "ormqr"
    r = R(op)

    def om(left=True, trans=False):
        return lambda a, t, c: torch.ormqr(a, t, c, left, trans)
    for left in (True, False):
        for trans in (False, True):
            name = "%s%s" % ("left" if left else "right", "_t" if trans else "")
            other = r.randn((4, 2)) if left else r.randn((2, 4))
            cs.append(case(op + "/" + name, op, [r.randn((4, 3)), r.randn((3,)), other], om(left, trans), attrs={"left": left, "transpose": trans},
                           backward=False))
    cs.append(case(op + "/batched", op, [r.randn((2, 3, 2)), r.randn((2, 2)), r.randn((2, 3, 3))], om(), attrs={"left": True, "transpose": False},
                   backward=False))
    cs.append(error_case(op + "/rows", op, [r.randn((4, 3)), r.randn((3,)), r.randn((3, 2))], om(), attrs={"left": True, "transpose": False}))
    cs += narrow(op, lambda r, d: [r.randn((4, 3), d), r.randn((3,), d), r.randn((4, 2), d)], om(), attrs={"left": True, "transpose": False},
                 backward=False)
    return cs


# --------------------------------------------------------------------------
# cov, corrcoef, trapezoid, cumulative_trapezoid, cartesian_prod, combinations

def stats_cases():
    cs = []
    op = "cov"
    r = R(op)

    def cv(corr=1):
        return lambda x, fw, aw: torch.cov(x, correction=corr, fweights=fw, aweights=aw)

    def add(name, x, fw=None, aw=None, corr=1, backward=True):
        cs.append(case(op + "/" + name, op, [x, fw, aw], cv(corr), attrs={"correction": corr}, backward=backward,
                       requires_grad=[backward and x.dtype.is_floating_point, False, False]))
    add("basic", r.randn((3, 5)))
    add("1d", r.randn((5,)))
    add("correction0", r.randn((2, 4)), corr=0)
    add("correction2", r.randn((2, 4)), corr=2)
    add("fweights", r.randn((3, 4)), fw=torch.tensor([1, 2, 0, 3]))
    add("aweights", r.randn((3, 4)), aw=r.rand((4,), f64, 0.5, 2.0))
    add("both", r.randn((3, 4)), fw=torch.tensor([1, 2, 1, 3]), aw=r.rand((4,), f64, 0.5, 2.0))
    add("aweights_f32", r.randn((2, 4)), aw=r.rand((4,), f32, 0.5, 2.0))
    add("one_obs", r.randn((2, 1)))
    add("int64", r.randint(-5, 6, (2, 5)), backward=False)
    add("int32_aw", r.randint(-5, 6, (2, 5), torch.int32), aw=r.rand((5,), f64, 0.5, 2.0), backward=False)
    cs.append(error_case(op + "/3d", op, [r.randn((2, 2, 2)), None, None], cv(), attrs={}))
    cs.append(error_case(op + "/bool", op, [r.bool((2, 3)), None, None], cv(), attrs={}))
    cs.append(error_case(op + "/fw_float", op, [r.randn((2, 3)), torch.ones(3, dtype=f64), None], cv(), attrs={}))
    cs.append(error_case(op + "/fw_negative", op, [r.randn((2, 3)), torch.tensor([1, -1, 1]), None], cv(), attrs={}))
    cs += narrow(op, lambda r, d: [r.randn((3, 5), d), None, None], cv(), attrs={}, dtypes=(f32, bf16))

    op = "corrcoef"
    r = R(op)
    cs.append(case(op + "/basic", op, [r.randn((3, 5))], torch.corrcoef))
    cs.append(case(op + "/1d", op, [r.randn((5,))], torch.corrcoef))
    cs.append(case(op + "/constant_row", op, [torch.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, 4.0]], dtype=f64)], torch.corrcoef, backward=False))
    cs.append(case(op + "/int", op, [r.randint(-5, 6, (2, 5))], torch.corrcoef, backward=False))
    cs += narrow(op, lambda r, d: [r.randn((3, 5), d)], torch.corrcoef, dtypes=(f32, bf16))

    for op, fn in (("trapezoid", torch.trapz), ("cumulative_trapezoid", torch.cumulative_trapezoid)):
        r = R(op)

        def tdx(dx=1.0, dim=-1, f=fn):
            return lambda y, x: f(y, dx=dx, dim=dim)

        def tx(dim=-1, f=fn):
            return lambda y, x: f(y, x, dim=dim)
        cs.append(case(op + "/basic", op, [r.randn((3, 4)), None], tdx(), attrs={"dx": 1.0, "dim": -1}))
        cs.append(case(op + "/dx_dim0", op, [r.randn((3, 4)), None], tdx(0.5, 0), attrs={"dx": 0.5, "dim": 0}))
        cs.append(case(op + "/x1d", op, [r.randn((3, 4)), torch.tensor([0.0, 0.5, 2.0, 2.5], dtype=f64)], tx(), attrs={"dim": -1}))
        cs.append(case(op + "/x1d_dim0", op, [r.randn((3, 4)), torch.tensor([0.0, 1.0, 3.0], dtype=f64)], tx(0), attrs={"dim": 0}))
        cs.append(case(op + "/x_bcast", op, [r.randn((3, 4)), r.randn((1, 4))], tx(), attrs={"dim": -1}))
        cs.append(case(op + "/x_full", op, [r.randn((2, 3)), r.randn((2, 3))], tx(), attrs={"dim": -1}))
        cs.append(case(op + "/one", op, [r.randn((3, 1)), None], tdx(), attrs={"dx": 1.0, "dim": -1}))
        cs.append(case(op + "/empty", op, [r.randn((3, 0)), None], tdx(), attrs={"dx": 1.0, "dim": -1}))
        cs.append(case(op + "/int", op, [r.randint(-5, 6, (2, 4)), None], tdx(2.0), attrs={"dx": 2.0, "dim": -1}, backward=False))
        cs.append(case(op + "/int_x", op, [r.randint(-5, 6, (4,)), torch.tensor([1, 3, 4, 7])], tx(), attrs={"dim": -1}, backward=False))
        cs.append(case(op + "/f32_x_f64", op, [r.randn((4,), f32), torch.tensor([0.0, 1.0, 1.5, 3.0], dtype=f64)], tx(), attrs={"dim": -1}))
        cs.append(error_case(op + "/bool", op, [r.bool((3,)), None], tdx(), attrs={"dx": 1.0, "dim": -1}))
        cs.append(error_case(op + "/x_len", op, [r.randn((3, 4)), torch.tensor([0.0, 1.0], dtype=f64)], tx(), attrs={"dim": -1}))
        dts = (f32, bf16, f16) if op == "trapezoid" else (f32, bf16)
        cs += narrow(op, lambda r, d: [pos(r, (3, 5), d), None], tdx(0.5), attrs={"dx": 0.5, "dim": -1}, dtypes=dts)

    op = "cartesian_prod"
    r = R(op)
    cp = torch.cartesian_prod
    cs.append(case(op + "/two", op, [r.randn((2,)), r.randn((3,))], cp))
    cs.append(case(op + "/three", op, [r.randn((2,)), r.randn((1,)), r.randn((3,))], cp))
    cs.append(case(op + "/one", op, [r.randn((3,))], cp))
    cs.append(case(op + "/empty", op, [r.randn((2,)), r.randn((0,))], cp))
    cs.append(case(op + "/int", op, [r.randint(0, 5, (2,)), r.randint(0, 5, (2,))], cp, backward=False))
    cs.append(case(op + "/bool", op, [r.bool((2,)), r.bool((2,))], cp, backward=False))
    cs.append(error_case(op + "/2d", op, [r.randn((1, 2)), r.randn((2,))], cp))
    cs.append(error_case(op + "/dtypes", op, [r.randn((2,)), r.randn((2,), f32)], cp))
    cs += narrow(op, lambda r, d: [r.randn((2,), d), r.randn((3,), d)], cp, dtypes=(f32, bf16, f16))

    op = "combinations"
    r = R(op)

    def cb(rr=2, wr=False):
        return lambda x: torch.combinations(x, rr, wr)
    cs.append(case(op + "/r2", op, [r.randn((4,))], cb(), attrs={"r": 2, "with_replacement": False}))
    cs.append(case(op + "/r3_repl", op, [r.randn((3,))], cb(3, True), attrs={"r": 3, "with_replacement": True}))
    cs.append(case(op + "/r1", op, [r.randn((3,))], cb(1), attrs={"r": 1, "with_replacement": False}))
    cs.append(case(op + "/r0", op, [r.randn((3,))], cb(0), attrs={"r": 0, "with_replacement": False}, backward=False))
    cs.append(case(op + "/r_big", op, [r.randn((3,))], cb(4), attrs={"r": 4, "with_replacement": False}))
    cs.append(case(op + "/empty", op, [r.randn((0,))], cb(), attrs={"r": 2, "with_replacement": False}))
    cs.append(case(op + "/int", op, [r.randint(0, 9, (4,))], cb(), attrs={"r": 2, "with_replacement": False}, backward=False))
    cs.append(case(op + "/bool", op, [r.bool((3,))], cb(2, True), attrs={"r": 2, "with_replacement": True}, backward=False))
    cs.append(error_case(op + "/2d", op, [r.randn((2, 2))], cb(), attrs={"r": 2, "with_replacement": False}))
    cs.append(error_case(op + "/neg", op, [r.randn((3,))], cb(-1), attrs={"r": -1, "with_replacement": False}))
    cs += narrow(op, lambda r, d: [r.randn((4,), d)], cb(), attrs={"r": 2, "with_replacement": False}, dtypes=(f32, bf16, f16))
    return cs


def main():
    cs = einsum_cases() + cdist_cases() + pdist_cases() + cholesky_cases() + triangular_cases() + solve_cases() + lu_cases()
    cs += svd_cases() + symeig_cases() + matrix_exp_cases() + lstsq_cases() + tensorsolve_cases()
    cs += householder_cases() + stats_cases()
    write_group("linalg2", cs)
    for line in REPORT:
        print(line)


if __name__ == "__main__":
    main()
