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
            cs.append(checked(name, op, xs, fn, attrs=attrs, mode="emulated", backward=bwd, grad_outputs=go, **kw))
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
    add("list_arg", "ij,jk->ik", [(2, 3), (3, 4)])
    add("int64", "ij,jk->ik", [(2, 3), (3, 4)], dtype=torch.int64)
    add("int32_dot", "i,i->", [(4,)] * 2, dtype=torch.int32)
    add("int32_sum", "ij->j", [(3, 2)], dtype=torch.int32)
    add("int32_diag", "ii->i", [(3, 3)], dtype=torch.int32)
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


def main():
    cs = einsum_cases() + cdist_cases() + pdist_cases()
    write_group("linalg2", cs)
    for line in REPORT:
        print(line)


if __name__ == "__main__":
    main()
