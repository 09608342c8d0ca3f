"""Golden cases for the linalg family (sdk/ops/schema_linalg.go): matrix
products beyond matmul/mm/bmm/addmm.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_linalg.py

writes golden/linalg.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer, bool and mixed cases keep their
natural dtypes so that result dtypes are checked); emulated cases compute at
float32, bfloat16 and float16 as PyTorch's CPU kernels do. Where PyTorch
1.13's CPU has no kernel at a dtype (most products at float16) the case is
computed in float32 and rounded to the dtype, and its name ends in
"_via_f32", as in gen_golden_dtypes.py. Narrow cases use well-conditioned
inputs (positive values, no cancelling sums) and carry the kit's default
tolerance of their dtype: PyTorch's float32 BLAS and its bfloat16
accumulations are a few ulp off the correctly rounded result; the script
stops if PyTorch is outside that tolerance of the float64 result rounded to
the dtype.
"""

import torch

from golden_lib import Rand, case, error_case, write_group

f64 = torch.float64
f32 = torch.float32
NARROW = (torch.float32, torch.bfloat16, torch.float16)
# sdk/devicetest's DefaultTolerance per dtype (torch.testing.assert_close).
TOL = {torch.float32: (1.3e-6, 1e-5), torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5)}
NAN, INF = float("nan"), float("inf")


def R(name):
    return Rand("linalg/" + name)


def dname(d):
    return str(d).replace("torch.", "")


def via_f32(fn, d):
    """fn computed in float32, floating outputs rounded to d."""
    def wrapped(*xs):
        args = [x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        out = fn(*args)
        return out.to(d) if out.dtype == torch.float32 else out
    return wrapped


def has_kernel(fn, inputs, backward=False):
    """Whether PyTorch runs fn (and, with backward, its gradient) on inputs."""
    try:
        xs = [x.detach().clone().requires_grad_(backward and x.dtype.is_floating_point) if isinstance(x, torch.Tensor) else x
              for x in inputs]
        out = fn(*xs)
        if backward:
            out.sum().backward()
        return True
    except RuntimeError:
        return False


def check_close(name, got, inputs, fn):
    """PyTorch's narrow result must be within the default tolerance of the
    float64 result rounded to its dtype."""
    want = fn(*[x.to(f64) if isinstance(x, torch.Tensor) and x.dtype.is_floating_point else x for x in inputs])
    want = want.detach().to(got.dtype).to(f64)
    rtol, atol = TOL[got.dtype]
    err = (got.detach().to(f64) - want).abs()
    if (err > atol + rtol * want.abs()).any():
        raise AssertionError("%s: PyTorch outside the default tolerance: %s vs %s" % (name, got, want))


def narrow_cases(op, make, fn, attrs=None, backward=True, bwd_ulp=None):
    """Forward and backward cases at float32, bfloat16 and float16, mode
    emulated; make(r, d) gives the inputs at dtype d. bwd_ulp: the ulp field
    of float16/bfloat16 backward cases whose gradient is formed from the
    rounded output (dist: d/‖d‖), which it inherits, as in
    gen_golden_dtypes.py."""
    cs = []
    for d in NARROW:
        for bwd in ([False, True] if backward else [False]):
            base = "%s/%s%s" % (op, dname(d), "/bwd" if bwd else "")
            inputs = make(R(base), d)
            f, name = fn, base
            if not has_kernel(fn, inputs, bwd):
                f, name = via_f32(fn, d), base + "_via_f32"
            rtol, atol = TOL[d]
            go = None
            if bwd:
                # positive gradients: no cancelling sums in the input
                # gradients, which PyTorch forms at the narrow dtype
                gr = R(base + "#grad")
                go = [gr.rand(o.shape, f64, 0.5, 1.5).to(o.dtype) for o in (f(*inputs),)]
            ulp = bwd_ulp if bwd and d != torch.float32 else None
            c = case(name, op, inputs, f, attrs=attrs, mode="emulated", backward=bwd, grad_outputs=go, rtol=rtol, atol=atol, ulp=ulp)
            check_close(name, f(*inputs), inputs, fn)
            cs.append(c)
    return cs


def pos(r, shape, d=f64):
    return r.rand(shape, f64, 0.2, 1.0).to(d)


def scaled(fn_name, method=False, inplace=False, beta=1, alpha=1):
    def f(s, a, b):
        if inplace:
            return getattr(s.clone(), fn_name + "_")(a, b, beta=beta, alpha=alpha)
        if method:
            return getattr(s, fn_name)(a, b, beta=beta, alpha=alpha)
        return getattr(torch, fn_name)(s, a, b, beta=beta, alpha=alpha)
    return f


def ba(beta, alpha, inplace=False):
    a = {"beta": float(beta), "alpha": float(alpha)}
    if inplace:
        a["inplace"] = True
    return a


# --------------------------------------------------------------------------
# addmv

def addmv_cases():
    op, r = "addmv", R("addmv")
    cs = []
    f = scaled(op)
    cs.append(case(op + "/basic", op, [r.randn((3,)), r.randn((3, 4)), r.randn((4,))], f))
    cs.append(case(op + "/beta_alpha", op, [r.randn((3,)), r.randn((3, 4)), r.randn((4,))], scaled(op, beta=0.5, alpha=-2.0),
                   attrs=ba(0.5, -2.0)))
    cs.append(case(op + "/self_0d", op, [r.randn(()), r.randn((3, 4)), r.randn((4,))], f))
    cs.append(case(op + "/self_1", op, [r.randn((1,)), r.randn((3, 4)), r.randn((4,))], scaled(op, beta=2.5), attrs=ba(2.5, 1)))
    cs.append(case(op + "/k0", op, [r.randn((3,)), r.randn((3, 0)), r.randn((0,))], f))
    cs.append(case(op + "/n0", op, [r.randn((0,)), r.randn((0, 4)), r.randn((4,))], f))
    cs.append(case(op + "/large", op, [r.randn((20,)), r.randn((20, 30)), r.randn((30,))], f, backward=False))
    s = torch.tensor([NAN, 1.0, INF], dtype=f64)
    cs.append(case(op + "/beta0_ignores_nan", op, [s, r.randn((3, 2)), r.randn((2,))], scaled(op, beta=0.0), attrs=ba(0, 1), backward=False))
    m = torch.tensor([[NAN, 1.0], [INF, 2.0], [1.0, 1.0]], dtype=f64)
    cs.append(case(op + "/alpha0_ignores_product", op, [r.randn((3,)), m, r.randn((2,))], scaled(op, alpha=0.0), attrs=ba(1, 0),
                   backward=False))
    cs.append(case(op + "/special", op, [torch.tensor([0.0, -0.0, 1.0], dtype=f64), m, torch.tensor([0.0, 1.0], dtype=f64)], f,
                   backward=False))
    cs.append(case(op + "/inplace", op, [r.randn((3,)), r.randn((3, 4)), r.randn((4,))], scaled(op, inplace=True, beta=2.0),
                   attrs=ba(2.0, 1, True)))
    cs.append(case(op + "/method", op, [r.randn((3,)), r.randn((3, 4)), r.randn((4,))], scaled(op, method=True, alpha=0.25),
                   attrs=ba(1, 0.25)))
    cs.append(case(op + "/int64_trunc_scales", op, [r.randint(-3, 4, (2,)), r.randint(-3, 4, (2, 3)), r.randint(-3, 4, (3,))],
                   scaled(op, beta=1.5, alpha=2.7), attrs=ba(1.5, 2.7), backward=False))
    cs.append(case(op + "/int32", op, [r.randint(-3, 4, (2,), torch.int32), r.randint(-3, 4, (2, 3), torch.int32),
                                       r.randint(-3, 4, (3,), torch.int32)], f, backward=False))
    # self of another dtype is converted to mat's
    cs.append(case(op + "/self_int_mat_f64", op, [r.randint(-3, 4, (2,)), r.randn((2, 3)), r.randn((3,))], f, backward=False))
    cs.append(case(op + "/self_bool", op, [r.bool((2,)), r.randn((2, 3)), r.randn((3,))], f, backward=False))
    cs.append(case(op + "/self_f64_mat_f32", op, [r.randn((2,)), r.randn((2, 3), f32), r.randn((3,), f32)], f, backward=False,
                   rtol=1.3e-6, atol=1e-5))
    cs.append(error_case(op + "/mat_1d", op, [r.randn((2,)), r.randn((3,)), r.randn((3,))], f))
    cs.append(error_case(op + "/vec_2d", op, [r.randn((2,)), r.randn((2, 3)), r.randn((3, 1))], f))
    cs.append(error_case(op + "/self_2d", op, [r.randn((1, 2)), r.randn((2, 3)), r.randn((3,))], f))
    cs.append(error_case(op + "/size_mismatch", op, [r.randn((2,)), r.randn((2, 3)), r.randn((2,))], f))
    cs.append(error_case(op + "/self_size_mismatch", op, [r.randn((3,)), r.randn((2, 3)), r.randn((3,))], f))
    cs.append(error_case(op + "/dtype_mismatch", op, [r.randn((2,)), r.randn((2, 3)), r.randn((3,), f32)], f))
    cs.append(error_case(op + "/bool", op, [r.bool((2,)), r.bool((2, 3)), r.bool((3,))], f))
    cs.append(error_case(op + "/inplace_shape", op, [r.randn((1,)), r.randn((2, 3)), r.randn((3,))], scaled(op, inplace=True),
                         attrs=ba(1, 1, True)))
    cs.append(error_case(op + "/inplace_dtype", op, [r.randint(0, 3, (2,)), r.randn((2, 3)), r.randn((3,))], scaled(op, inplace=True),
                         attrs=ba(1, 1, True)))
    cs += narrow_cases(op, lambda r, d: [pos(r, (3,), d), pos(r, (3, 4), d), pos(r, (4,), d)], f)
    return cs


# --------------------------------------------------------------------------
# addr, outer

def addr_cases():
    op, r = "addr", R("addr")
    cs = []
    f = scaled(op)
    cs.append(case(op + "/basic", op, [r.randn((3, 4)), r.randn((3,)), r.randn((4,))], f))
    cs.append(case(op + "/beta_alpha", op, [r.randn((3, 4)), r.randn((3,)), r.randn((4,))], scaled(op, beta=0.5, alpha=-2.0),
                   attrs=ba(0.5, -2.0)))
    cs.append(case(op + "/self_row_bcast", op, [r.randn((4,)), r.randn((3,)), r.randn((4,))], f))
    cs.append(case(op + "/self_0d", op, [r.randn(()), r.randn((3,)), r.randn((4,))], scaled(op, beta=3.0), attrs=ba(3, 1)))
    cs.append(case(op + "/self_col_bcast", op, [r.randn((3, 1)), r.randn((3,)), r.randn((4,))], f))
    cs.append(case(op + "/empty", op, [r.randn((0, 4)), r.randn((0,)), r.randn((4,))], f))
    s = torch.tensor([[NAN, 1.0], [INF, -INF]], dtype=f64)
    cs.append(case(op + "/beta0_ignores_nan", op, [s, r.randn((2,)), r.randn((2,))], scaled(op, beta=0.0), attrs=ba(0, 1),
                   backward=False))
    v = torch.tensor([NAN, 1.0], dtype=f64)
    cs.append(case(op + "/alpha0_keeps_nan", op, [r.randn((2, 2)), v, r.randn((2,))], scaled(op, alpha=0.0), attrs=ba(1, 0),
                   backward=False))
    cs.append(case(op + "/special", op, [torch.tensor([[0.0, -0.0, 1.0]], dtype=f64), torch.tensor([INF, 0.0], dtype=f64),
                                         torch.tensor([0.0, -1.0, 2.0], dtype=f64)], f, backward=False))
    cs.append(case(op + "/inplace", op, [r.randn((3, 4)), r.randn((3,)), r.randn((4,))], scaled(op, inplace=True, alpha=1.5),
                   attrs=ba(1, 1.5, True)))
    cs.append(case(op + "/int64", op, [r.randint(-3, 4, (2, 3)), r.randint(-3, 4, (2,)), r.randint(-3, 4, (3,))],
                   scaled(op, beta=2, alpha=3), attrs=ba(2, 3), backward=False))
    cs.append(case(op + "/int8_wraps", op, [torch.tensor([[100, -100]], dtype=torch.int8), torch.tensor([12], dtype=torch.int8),
                                            torch.tensor([11, -12], dtype=torch.int8)], f, backward=False))
    cs.append(case(op + "/bool", op, [r.bool((2, 3)), r.bool((2,)), r.bool((3,))], f, backward=False))
    cs.append(case(op + "/bool_beta0", op, [torch.ones(2, 2, dtype=torch.bool), torch.tensor([True, False]), torch.tensor([True, True])],
                   scaled(op, beta=0), attrs=ba(0, 1), backward=False))
    cs.append(case(op + "/bool_alpha0", op, [torch.zeros(2, 2, dtype=torch.bool), torch.tensor([True, False]), torch.tensor([True, True])],
                   scaled(op, alpha=0), attrs=ba(1, 0), backward=False))
    cs.append(case(op + "/bool_beta2", op, [r.bool((2, 2)), r.bool((2,)), r.bool((2,))], scaled(op, beta=2), attrs=ba(2, 1),
                   backward=False))
    cs.append(case(op + "/mixed_int_f64", op, [r.randint(-3, 4, (2, 3)), r.randint(-3, 4, (2,)), r.randn((3,))], f, backward=False))
    cs.append(case(op + "/mixed_f32_f64", op, [r.randn((2, 3), f32), r.randn((2,)), r.randn((3,), f32)], f,
                   backward=False))  # PyTorch 1.13 cannot differentiate a mixed-dtype addr
    cs.append(case(op + "/mixed_0d_f64_self", op, [r.randn(()), r.randn((2,), f32), r.randn((3,), f32)], f, backward=False,
                   rtol=1.3e-6, atol=1e-5))
    cs.append(case(op + "/mixed_bool_vecs_f64_self", op, [r.randn((2, 3)), r.bool((2,)), r.bool((3,))], f, backward=False))
    cs.append(error_case(op + "/vec1_2d", op, [r.randn((2, 3)), r.randn((2, 3)), r.randn((3,))], f))
    cs.append(error_case(op + "/vec2_0d", op, [r.randn((2, 3)), r.randn((2,)), r.randn(())], f))
    cs.append(error_case(op + "/self_bad_shape", op, [r.randn((2, 3)), r.randn((3,)), r.randn((3,))], f))
    cs.append(error_case(op + "/inplace_shape", op, [r.randn((1, 3)), r.randn((2,)), r.randn((3,))], scaled(op, inplace=True),
                         attrs=ba(1, 1, True)))
    cs.append(error_case(op + "/inplace_int_float", op, [r.randint(0, 3, (2, 3)), r.randn((2,)), r.randn((3,))], scaled(op, inplace=True),
                         attrs=ba(1, 1, True)))
    cs += narrow_cases(op, lambda r, d: [pos(r, (3, 4), d), pos(r, (3,), d), pos(r, (4,), d)], f)

    op, r = "outer", R("outer")
    f = torch.outer
    cs.append(case(op + "/basic", op, [r.randn((3,)), r.randn((4,))], f))
    cs.append(case(op + "/ger", op, [r.randn((2,)), r.randn((5,))], torch.ger))
    cs.append(case(op + "/empty", op, [r.randn((0,)), r.randn((4,))], f))
    cs.append(case(op + "/special", op, [torch.tensor([INF, 0.0, -0.0, NAN], dtype=f64), torch.tensor([0.0, -1.0, 2.0], dtype=f64)], f,
                   backward=False))
    cs.append(case(op + "/int64", op, [r.randint(-5, 5, (3,)), r.randint(-5, 5, (2,))], f, backward=False))
    cs.append(case(op + "/int16_wraps", op, [torch.tensor([300, -2], dtype=torch.int16), torch.tensor([200], dtype=torch.int16)], f,
                   backward=False))
    cs.append(case(op + "/bool", op, [r.bool((3,)), r.bool((4,))], f, backward=False))
    cs.append(case(op + "/mixed_int_bool", op, [r.randint(-5, 5, (3,)), r.bool((2,))], f, backward=False))
    cs.append(case(op + "/mixed_f32_f64", op, [r.randn((3,), f32), r.randn((2,))], f))
    cs.append(case(op + "/mixed_int_f32", op, [r.randint(-5, 5, (3,)), r.randn((2,), f32)], f))
    cs.append(error_case(op + "/self_2d", op, [r.randn((2, 3)), r.randn((3,))], f))
    cs.append(error_case(op + "/vec2_0d", op, [r.randn((2,)), r.randn(())], f))
    cs += narrow_cases(op, lambda r, d: [pos(r, (3,), d), pos(r, (4,), d)], f)
    return cs


# --------------------------------------------------------------------------
# baddbmm, addbmm

def bmm_cases():
    cs = []
    op, r = "baddbmm", R("baddbmm")
    f = scaled(op)
    cs.append(case(op + "/basic", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(case(op + "/beta_alpha", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], scaled(op, beta=0.5, alpha=-2.0),
                   attrs=ba(0.5, -2.0)))
    cs.append(case(op + "/self_bcast", op, [r.randn((3, 1)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(case(op + "/self_0d", op, [r.randn(()), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(case(op + "/k0", op, [r.randn((2, 3, 4)), r.randn((2, 3, 0)), r.randn((2, 0, 4))], f))
    cs.append(case(op + "/b0", op, [r.randn((0, 3, 4)), r.randn((0, 3, 2)), r.randn((0, 2, 4))], f))
    cs.append(case(op + "/large", op, [r.randn((2, 16, 16)), r.randn((2, 16, 20)), r.randn((2, 20, 16))], f, backward=False))
    # No beta=0 case: PyTorch 1.13's CPU baddbmm with beta=0 scales the
    # uninitialised result by 0 on some runs (NaN garbage gives NaN), so its
    # output is not deterministic. The kernels ignore self there.
    r.randn((2, 3, 2)), r.randn((2, 2, 2))  # keep the generator's stream
    b1 = torch.tensor([[[NAN, 1.0]], [[1.0, 2.0]]], dtype=f64)
    cs.append(case(op + "/alpha0_keeps_nan", op, [r.randn((2, 1, 2)), b1, r.randn((2, 2, 2))], scaled(op, alpha=0.0), attrs=ba(1, 0),
                   backward=False))
    cs.append(case(op + "/inplace", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], scaled(op, inplace=True, beta=-1.0),
                   attrs=ba(-1, 1, True)))
    cs.append(case(op + "/int64_trunc_scales", op, [r.randint(-3, 4, (2,)), r.randint(-3, 4, (2, 2, 3)), r.randint(-3, 4, (2, 3, 2))],
                   scaled(op, beta=1.5, alpha=2.5), attrs=ba(1.5, 2.5), backward=False))
    cs.append(case(op + "/self_f32_batches_f64", op, [r.randn((2, 2, 2), f32), r.randn((2, 2, 3)), r.randn((2, 3, 2))], f,
                   backward=False))
    cs.append(case(op + "/self_bool", op, [r.bool((2, 2, 2)), r.randn((2, 2, 3)), r.randn((2, 3, 2))], f, backward=False))
    cs.append(case(op + "/self_f64_batches_int", op, [r.randn((2, 2, 2)), r.randint(-3, 4, (2, 2, 3)), r.randint(-3, 4, (2, 3, 2))], f,
                   backward=False))
    cs.append(error_case(op + "/batch1_2d", op, [r.randn((2, 3, 4)), r.randn((3, 5)), r.randn((2, 5, 4))], f))
    cs.append(error_case(op + "/batch2_2d", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((5, 4))], f))
    cs.append(error_case(op + "/batch_mismatch", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((3, 5, 4))], f))
    cs.append(error_case(op + "/k_mismatch", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 4, 4))], f))
    cs.append(error_case(op + "/self_bad_shape", op, [r.randn((3, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(error_case(op + "/dtype_mismatch", op, [r.randn((2, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4), f32)], f))
    cs.append(error_case(op + "/bool", op, [r.bool((2, 3, 4)), r.bool((2, 3, 5)), r.bool((2, 5, 4))], f))
    cs.append(error_case(op + "/inplace_shape", op, [r.randn((4,)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], scaled(op, inplace=True),
                         attrs=ba(1, 1, True)))
    cs.append(error_case(op + "/inplace_dtype", op, [r.randint(0, 3, (2, 3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))],
                         scaled(op, inplace=True), attrs=ba(1, 1, True)))
    cs += narrow_cases(op, lambda r, d: [pos(r, (2, 3, 4), d), pos(r, (2, 3, 5), d), pos(r, (2, 5, 4), d)], f)

    op, r = "addbmm", R("addbmm")
    f = scaled(op)
    cs.append(case(op + "/basic", op, [r.randn((3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(case(op + "/beta_alpha", op, [r.randn((3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], scaled(op, beta=0.5, alpha=-2.0),
                   attrs=ba(0.5, -2.0)))
    cs.append(case(op + "/self_bcast", op, [r.randn((4,)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(case(op + "/self_0d", op, [r.randn(()), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(case(op + "/b0", op, [r.randn((3, 4)), r.randn((0, 3, 2)), r.randn((0, 2, 4))], f))
    cs.append(case(op + "/large", op, [r.randn((16, 16)), r.randn((2, 16, 20)), r.randn((2, 20, 16))], f, backward=False))
    s = torch.tensor([[NAN, INF]], dtype=f64)
    cs.append(case(op + "/beta0_ignores_nan", op, [s, r.randn((2, 1, 2)), r.randn((2, 2, 2))], scaled(op, beta=0.0), attrs=ba(0, 1),
                   backward=False))
    b1 = torch.tensor([[[NAN, 1.0]], [[1.0, 2.0]]], dtype=f64)
    cs.append(case(op + "/alpha0_ignores_product", op, [r.randn((1, 2)), b1, r.randn((2, 2, 2))], scaled(op, alpha=0.0), attrs=ba(1, 0),
                   backward=False))
    cs.append(case(op + "/inplace", op, [r.randn((3, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], scaled(op, inplace=True, beta=2.0),
                   attrs=ba(2, 1, True)))
    cs.append(case(op + "/int64_trunc_scales", op, [r.randint(-3, 4, (2,)), r.randint(-3, 4, (4, 2, 3)), r.randint(-3, 4, (4, 3, 2))],
                   scaled(op, beta=1.5, alpha=2.5), attrs=ba(1.5, 2.5), backward=False))
    cs.append(error_case(op + "/batch1_2d", op, [r.randn((3, 4)), r.randn((3, 5)), r.randn((2, 5, 4))], f))
    cs.append(error_case(op + "/batch_count", op, [r.randn((3, 4)), r.randn((2, 3, 5)), r.randn((3, 5, 4))], f))
    cs.append(error_case(op + "/k_mismatch", op, [r.randn((3, 4)), r.randn((2, 3, 5)), r.randn((2, 4, 4))], f))
    cs.append(error_case(op + "/self_bad_shape", op, [r.randn((2, 4)), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(error_case(op + "/mat_dtype", op, [r.randn((3, 4)), r.randn((2, 3, 5), f32), r.randn((2, 5, 4))], f))
    cs.append(error_case(op + "/self_dtype", op, [r.randn((3, 4), f32), r.randn((2, 3, 5)), r.randn((2, 5, 4))], f))
    cs.append(error_case(op + "/bool", op, [r.bool((3, 4)), r.bool((2, 3, 5)), r.bool((2, 5, 4))], f))
    cs += narrow_cases(op, lambda r, d: [pos(r, (3, 4), d), pos(r, (2, 3, 5), d), pos(r, (2, 5, 4), d)], f)
    return cs


# --------------------------------------------------------------------------
# kron, tensordot, multi_dot, vecdot, matrix_power

def td(dims_a, dims_b):
    return lambda a, b: torch.tensordot(a, b, dims=(dims_a, dims_b))


def tda(dims_a, dims_b):
    return {"dims_self": list(dims_a), "dims_other": list(dims_b)}


def product_cases():
    cs = []
    op, r = "kron", R("kron")
    f = torch.kron
    cs.append(case(op + "/2d", op, [r.randn((2, 3)), r.randn((3, 2))], f))
    cs.append(case(op + "/1d", op, [r.randn((3,)), r.randn((4,))], f))
    cs.append(case(op + "/rank_pad", op, [r.randn((2, 1, 2)), r.randn((3, 2))], f))
    cs.append(case(op + "/0d", op, [r.randn(()), r.randn((3,))], f))
    cs.append(case(op + "/both_0d", op, [r.randn(()), r.randn(())], f))
    cs.append(case(op + "/empty", op, [r.randn((0, 2)), r.randn((2, 2))], f))
    cs.append(case(op + "/special", op, [torch.tensor([INF, 0.0, NAN], dtype=f64), torch.tensor([0.0, -2.0], dtype=f64)], f,
                   backward=False))
    cs.append(case(op + "/int8_wraps", op, [torch.tensor([100, -3], dtype=torch.int8), torch.tensor([3, 2], dtype=torch.int8)], f,
                   backward=False))
    cs.append(case(op + "/bool", op, [r.bool((2, 2)), r.bool((2,))], f, backward=False))
    cs.append(case(op + "/mixed_0d_f64", op, [r.randn(()), r.randn((3,), f32)], f))
    cs.append(case(op + "/mixed_int_f32", op, [r.randint(-3, 4, (2, 2)), r.randn((2,), f32)], f, backward=False))
    cs += narrow_cases(op, lambda r, d: [pos(r, (2, 3), d), pos(r, (2, 2), d)], f)

    op, r = "tensordot", R("tensordot")
    cs.append(case(op + "/dims2", op, [r.randn((2, 3, 4)), r.randn((3, 4, 5))], lambda a, b: torch.tensordot(a, b, dims=2),
                   attrs=tda([-2, -1], [0, 1])))
    cs.append(case(op + "/lists", op, [r.randn((3, 2, 4)), r.randn((4, 5, 3))], td([0, 2], [2, 0]), attrs=tda([0, 2], [2, 0])))
    cs.append(case(op + "/negative_dims", op, [r.randn((2, 3)), r.randn((2, 3))], td([-1], [-1]), attrs=tda([-1], [-1])))
    cs.append(case(op + "/dims0_outer", op, [r.randn((2,)), r.randn((3, 2))], td([], []), attrs=tda([], [])))
    cs.append(case(op + "/all_dims", op, [r.randn((2, 3)), r.randn((3, 2))], td([0, 1], [1, 0]), attrs=tda([0, 1], [1, 0])))
    cs.append(case(op + "/size1_broadcast_self", op, [r.randn((2, 1)), r.randn((3, 4))], td([1], [0]), attrs=tda([1], [0])))
    cs.append(case(op + "/size1_broadcast_other", op, [r.randn((2, 3)), r.randn((1, 4))], td([1], [0]), attrs=tda([1], [0])))
    cs.append(case(op + "/empty_contracted", op, [r.randn((2, 0)), r.randn((0, 3))], td([1], [0]), attrs=tda([1], [0])))
    cs.append(case(op + "/both_0d", op, [r.randn(()), r.randn(())], td([], []), attrs=tda([], [])))
    cs.append(case(op + "/int64", op, [r.randint(-4, 5, (2, 3)), r.randint(-4, 5, (3, 2))], td([1], [0]), attrs=tda([1], [0]),
                   backward=False))
    cs.append(case(op + "/special", op, [torch.tensor([[INF, 1.0], [0.0, NAN]], dtype=f64), torch.tensor([[0.0, 1.0], [2.0, 0.0]], dtype=f64)],
                   td([1], [0]), attrs=tda([1], [0]), backward=False))
    cs.append(case(op + "/inner", op, [r.randn((2, 3)), r.randn((4, 3))], torch.inner, attrs=tda([-1], [-1])))
    cs.append(error_case(op + "/size_mismatch", op, [r.randn((2, 3)), r.randn((2, 3))], td([1], [0]), attrs=tda([1], [0])))
    cs.append(error_case(op + "/dim_range", op, [r.randn((2, 3)), r.randn((2, 3))], td([1, 5], [1, 1]), attrs=tda([1, 5], [1, 1])))
    cs.append(error_case(op + "/repeated_dim", op, [r.randn((2, 3)), r.randn((2, 3))], td([0, 0], [0, 0]), attrs=tda([0, 0], [0, 0])))
    cs.append(error_case(op + "/lengths", op, [r.randn((2, 3)), r.randn((2, 3))], td([1, 0], [1]), attrs=tda([1, 0], [1])))
    cs.append(error_case(op + "/dtype_mismatch", op, [r.randn((2, 3)), r.randn((3, 2), f32)], td([1], [0]), attrs=tda([1], [0])))
    cs.append(error_case(op + "/bool", op, [r.bool((2, 3)), r.bool((3, 2))], td([1], [0]), attrs=tda([1], [0])))
    cs += narrow_cases(op, lambda r, d: [pos(r, (2, 3, 4), d), pos(r, (4, 3), d)], td([1, 2], [1, 0]), attrs=tda([1, 2], [1, 0]))

    op, r = "multi_dot", R("multi_dot")

    def md(*xs):
        return torch.linalg.multi_dot(list(xs))
    cs.append(case(op + "/three", op, [r.randn((2, 3)), r.randn((3, 4)), r.randn((4, 2))], md))
    cs.append(case(op + "/two", op, [r.randn((2, 3)), r.randn((3, 4))], md))
    cs.append(case(op + "/first_1d", op, [r.randn((3,)), r.randn((3, 4)), r.randn((4, 2))], md))
    cs.append(case(op + "/last_1d", op, [r.randn((2, 3)), r.randn((3, 4)), r.randn((4,))], md))
    cs.append(case(op + "/both_1d", op, [r.randn((3,)), r.randn((3, 4)), r.randn((4,))], md))
    cs.append(case(op + "/two_1d", op, [r.randn((3,)), r.randn((3,))], md))
    cs.append(case(op + "/four", op, [r.randn((5, 2)), r.randn((2, 6)), r.randn((6, 3)), r.randn((3, 4))], md))
    cs.append(case(op + "/empty", op, [r.randn((2, 3)), r.randn((3, 0)), r.randn((0, 2))], md))
    cs.append(case(op + "/chain_matmul", op, [r.randn((2, 3)), r.randn((3, 3)), r.randn((3, 2))], lambda *xs: torch.chain_matmul(*xs)))
    cs.append(case(op + "/int64", op, [r.randint(-3, 4, (2, 3)), r.randint(-3, 4, (3, 3)), r.randint(-3, 4, (3,))], md, backward=False))
    cs.append(error_case(op + "/first_0d", op, [r.randn(()), r.randn((3,))], md))
    cs.append(error_case(op + "/last_3d", op, [r.randn((2, 3)), r.randn((2, 3, 2))], md))
    cs.append(error_case(op + "/middle_1d", op, [r.randn((3,)), r.randn((3,)), r.randn((3,))], md))
    cs.append(error_case(op + "/shapes", op, [r.randn((2, 3)), r.randn((2, 3))], md))
    cs.append(error_case(op + "/dtype", op, [r.randn((2, 3)), r.randn((3, 2), f32)], md))
    cs.append(error_case(op + "/bool", op, [r.bool((2, 3)), r.bool((3, 2))], md))
    cs += narrow_cases(op, lambda r, d: [pos(r, (2, 3), d), pos(r, (3, 4), d), pos(r, (4, 2), d)], md)

    op, r = "vecdot", R("vecdot")

    def vd(dim=-1):
        return lambda x, y: torch.linalg.vecdot(x, y, dim=dim)
    cs.append(case(op + "/2d", op, [r.randn((3, 4)), r.randn((3, 4))], vd(), attrs={"dim": -1}))
    cs.append(case(op + "/dim0", op, [r.randn((3, 4)), r.randn((3, 4))], vd(0), attrs={"dim": 0}))
    cs.append(case(op + "/broadcast", op, [r.randn((2, 1, 4)), r.randn((3, 4))], vd(1), attrs={"dim": 1}))
    cs.append(case(op + "/1d", op, [r.randn((5,)), r.randn((5,))], vd(), attrs={"dim": -1}))
    cs.append(case(op + "/0d", op, [r.randn(()), r.randn((3,))], vd(), attrs={"dim": -1}))
    cs.append(case(op + "/empty", op, [r.randn((2, 0)), r.randn((2, 0))], vd(), attrs={"dim": -1}))
    cs.append(case(op + "/special", op, [torch.tensor([[INF, 0.0], [NAN, 1.0], [-0.0, 1.0]], dtype=f64),
                                         torch.tensor([[0.0, 1.0], [1.0, 1.0], [0.0, -0.0]], dtype=f64)], vd(), attrs={"dim": -1},
                   backward=False))
    cs.append(error_case(op + "/dim_range", op, [r.randn((3, 4)), r.randn((3, 4))], vd(2), attrs={"dim": 2}))
    cs.append(error_case(op + "/broadcast_mismatch", op, [r.randn((3, 4)), r.randn((2,))], vd(), attrs={"dim": -1}))
    cs.append(error_case(op + "/dtype", op, [r.randn((3, 4)), r.randn((3, 4), f32)], vd(), attrs={"dim": -1}))
    cs.append(error_case(op + "/int", op, [r.randint(0, 3, (3, 4)), r.randint(0, 3, (3, 4))], vd(), attrs={"dim": -1}))
    cs += narrow_cases(op, lambda r, d: [pos(r, (3, 4), d), pos(r, (3, 4), d)], vd(), attrs={"dim": -1})

    op, r = "matrix_power", R("matrix_power")

    def mp(n):
        return lambda a: torch.linalg.matrix_power(a, n)

    def wellcond(r, shape, d=f64):
        """Diagonally dominant matrices: safely invertible."""
        n = shape[-1]
        return (r.randn(shape) + 3 * torch.eye(n, dtype=f64)).to(d)
    cs.append(case(op + "/n2", op, [r.randn((3, 3))], mp(2), attrs={"n": 2}))
    cs.append(case(op + "/n5", op, [r.randn((3, 3))], mp(5), attrs={"n": 5}))
    cs.append(case(op + "/n1", op, [r.randn((3, 3))], mp(1), attrs={"n": 1}))
    cs.append(case(op + "/n0", op, [r.randn((2, 3, 3))], mp(0), attrs={"n": 0}))
    cs.append(case(op + "/batched", op, [r.randn((2, 2, 3, 3))], mp(3), attrs={"n": 3}))
    cs.append(case(op + "/inverse", op, [wellcond(r, (3, 3))], mp(-1), attrs={"n": -1}))
    cs.append(case(op + "/neg3_batched", op, [wellcond(r, (2, 3, 3))], mp(-3), attrs={"n": -3}))
    cs.append(case(op + "/pivoting", op, [torch.tensor([[0.0, 1.0], [2.0, 0.5]], dtype=f64)], mp(-1), attrs={"n": -1}))
    cs.append(case(op + "/empty", op, [r.randn((0, 2, 2))], mp(3), attrs={"n": 3}))
    cs.append(case(op + "/int64", op, [r.randint(-3, 4, (3, 3))], mp(3), attrs={"n": 3}, backward=False))
    cs.append(case(op + "/int64_n0", op, [r.randint(-3, 4, (2, 2))], mp(0), attrs={"n": 0}, backward=False))
    cs.append(case(op + "/bool_n1", op, [r.bool((2, 2))], mp(1), attrs={"n": 1}, backward=False))
    cs.append(case(op + "/bool_n0", op, [r.bool((2, 2))], mp(0), attrs={"n": 0}, backward=False))
    cs.append(case(op + "/inverse_f32", op, [wellcond(r, (3, 3), f32)], mp(-1), attrs={"n": -1}, rtol=1.3e-6, atol=1e-5))
    cs.append(error_case(op + "/1d", op, [r.randn((3,))], mp(2), attrs={"n": 2}))
    cs.append(error_case(op + "/not_square", op, [r.randn((2, 3))], mp(2), attrs={"n": 2}))
    cs.append(error_case(op + "/singular", op, [torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=f64)], mp(-1), attrs={"n": -1}))
    cs.append(error_case(op + "/singular_batch", op, [torch.stack([torch.eye(2, dtype=f64), torch.zeros(2, 2, dtype=f64)])], mp(-2),
                         attrs={"n": -2}))
    cs.append(error_case(op + "/int_inverse", op, [r.randint(-3, 4, (2, 2))], mp(-1), attrs={"n": -1}))
    cs.append(error_case(op + "/bf16_inverse", op, [wellcond(r, (2, 2), torch.bfloat16)], mp(-1), attrs={"n": -1}))
    cs.append(error_case(op + "/bool_n2", op, [r.bool((2, 2))], mp(2), attrs={"n": 2}))
    cs += narrow_cases(op, lambda r, d: [pos(r, (3, 3), d)], mp(3), attrs={"n": 3})
    return cs


# --------------------------------------------------------------------------
# det, logdet, slogdet

def det_cases():
    cs = []

    def wellcond(r, shape, d=f64, shift=3.0):
        n = shape[-1]
        return (r.randn(shape) + shift * torch.eye(n, dtype=f64)).to(d)
    for op, fn in (("det", torch.linalg.det), ("logdet", torch.logdet), ("slogdet", torch.linalg.slogdet)):
        r = R(op)
        cs.append(case(op + "/3x3", op, [wellcond(r, (3, 3))], fn))
        cs.append(case(op + "/batched", op, [wellcond(r, (2, 2, 4, 4))], fn))
        cs.append(case(op + "/1x1", op, [torch.tensor([[2.5]], dtype=f64)], fn))
        cs.append(case(op + "/pivoting", op, [torch.tensor([[0.0, 2.0, 1.0], [1.0, 0.5, 0.0], [3.0, 1.0, 2.0]], dtype=f64)], fn))
        cs.append(case(op + "/empty_matrix", op, [r.randn((2, 0, 0))], fn, backward=False))
        cs.append(case(op + "/empty_batch", op, [r.randn((0, 3, 3))], fn))
        cs.append(case(op + "/negative_det", op, [torch.tensor([[0.0, 1.0], [1.0, 0.0]], dtype=f64)], fn, backward=op != "logdet"))
        cs.append(case(op + "/singular", op, [torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=f64)], fn, backward=False))
        cs.append(case(op + "/zeros", op, [torch.zeros(2, 2, dtype=f64)], fn, backward=False))
        cs.append(case(op + "/nan", op, [torch.tensor([[NAN, 1.0], [1.0, 0.0]], dtype=f64)], fn, backward=False))
        cs.append(case(op + "/inf", op, [torch.tensor([[INF, 1.0], [1.0, 0.0]], dtype=f64)], fn, backward=False))
        cs.append(case(op + "/f32_bench", op, [wellcond(r, (3, 3), f32)], fn, rtol=1.3e-6, atol=1e-5))
        cs.append(error_case(op + "/1d", op, [r.randn((3,))], fn))
        cs.append(error_case(op + "/not_square", op, [r.randn((2, 3))], fn))
        cs.append(error_case(op + "/int", op, [r.randint(0, 3, (2, 2))], fn))
        if op != "det":
            cs.append(error_case(op + "/bfloat16", op, [wellcond(r, (2, 2), torch.bfloat16)], fn))
    # det at the narrow dtypes: diagonally dominant, positive
    cs += narrow_cases("det", lambda r, d: [(pos(r, (3, 3)) + 2 * torch.eye(3, dtype=f64)).to(d)], torch.linalg.det)
    for op, fn in (("logdet", torch.logdet), ("slogdet", torch.linalg.slogdet)):
        for bwd in (False, True):
            name = "%s/float32%s" % (op, "/bwd" if bwd else "")
            r = R(name)
            x = (pos(r, (3, 3)) + 2 * torch.eye(3, dtype=f64)).to(f32)
            cs.append(case(name, op, [x], fn, mode="emulated", backward=bwd, rtol=1.3e-6, atol=1e-5))
    return cs


# --------------------------------------------------------------------------
# cross

def cross_cases():
    cs = []
    op, r = "cross", R("cross")

    def cr(dim):
        return lambda a, b: torch.linalg.cross(a, b, dim=dim)
    cs.append(case(op + "/last", op, [r.randn((4, 3)), r.randn((4, 3))], cr(-1), attrs={"dim": -1}))
    cs.append(case(op + "/dim0", op, [r.randn((3, 2)), r.randn((3, 2))], cr(0), attrs={"dim": 0}))
    cs.append(case(op + "/middle", op, [r.randn((2, 3, 2)), r.randn((2, 3, 2))], cr(1), attrs={"dim": 1}))
    cs.append(case(op + "/1d", op, [r.randn((3,)), r.randn((3,))], cr(0), attrs={"dim": 0}))
    cs.append(case(op + "/broadcast", op, [r.randn((1, 3)), r.randn((4, 3))], cr(1), attrs={"dim": 1}))
    cs.append(case(op + "/broadcast_both", op, [r.randn((2, 1, 3)), r.randn((1, 4, 3))], cr(-1), attrs={"dim": -1}))
    cs.append(case(op + "/torch_cross_default", op, [r.randn((3, 3)), r.randn((3, 3))], lambda a, b: torch.cross(a, b), attrs={"dim": 0}))
    cs.append(case(op + "/empty", op, [r.randn((0, 3)), r.randn((0, 3))], cr(1), attrs={"dim": 1}))
    cs.append(case(op + "/special", op, [torch.tensor([INF, 0.0, 1.0], dtype=f64), torch.tensor([1.0, NAN, -0.0], dtype=f64)], cr(0),
                   attrs={"dim": 0}, backward=False))
    cs.append(case(op + "/int64", op, [r.randint(-5, 6, (2, 3)), r.randint(-5, 6, (2, 3))], cr(1), attrs={"dim": 1}, backward=False))
    cs.append(error_case(op + "/rank", op, [r.randn((2, 3)), r.randn((3,))], cr(-1), attrs={"dim": -1}))
    cs.append(error_case(op + "/length", op, [r.randn((3, 2)), r.randn((3, 2))], cr(-1), attrs={"dim": -1}))
    cs.append(error_case(op + "/dim_range", op, [r.randn((3, 2)), r.randn((3, 2))], cr(2), attrs={"dim": 2}))
    cs.append(error_case(op + "/dtype", op, [r.randn((2, 3)), r.randint(0, 3, (2, 3))], cr(1), attrs={"dim": 1}))
    cs.append(error_case(op + "/bool", op, [r.bool((3,)), r.bool((3,))], cr(0), attrs={"dim": 0}))
    cs.append(error_case(op + "/broadcast_mismatch", op, [r.randn((2, 3)), r.randn((4, 3))], cr(1), attrs={"dim": 1}))
    # no cancelling products (PyTorch forms them at the narrow dtype): a
    # along the first axis, b along the last
    ax = torch.tensor([1.0, 0.0, 0.0], dtype=f64)
    bz = torch.tensor([0.0, 0.0, 1.0], dtype=f64)
    cs += narrow_cases(op, lambda r, d: [(pos(r, (2, 1)) * ax).to(d), (pos(r, (2, 1)) * bz).to(d)], cr(1), attrs={"dim": 1})
    # bfloat16's kernel rounds both products and their difference (ulp 0:
    # PyTorch's bits, cancelling products included)
    n = op + "/bfloat16_rounded_steps"
    rr = R(n)
    bf = torch.bfloat16
    cs.append(case(n, op, [rr.randn((16, 3)).to(bf), rr.randn((16, 3)).to(bf)], cr(-1), attrs={"dim": -1}, mode="emulated", ulp=0))
    return cs


# --------------------------------------------------------------------------
# dist

def dist_cases():
    cs = []
    op, r = "dist", R("dist")

    def dd(p):
        return lambda a, b: torch.dist(a, b, p)
    cs.append(case(op + "/p2", op, [r.randn((3, 4)), r.randn((3, 4))], dd(2), attrs={"p": 2.0}))
    cs.append(case(op + "/p1", op, [r.randn((3, 4)), r.randn((3, 4))], dd(1), attrs={"p": 1.0}))
    cs.append(case(op + "/p3", op, [r.randn((5,)), r.randn((5,))], dd(3), attrs={"p": 3.0}))
    cs.append(case(op + "/p_half", op, [r.randn((5,)), r.randn((5,))], dd(0.5), attrs={"p": 0.5}))
    cs.append(case(op + "/p0", op, [torch.tensor([1.0, 2.0, 3.0], dtype=f64), torch.tensor([1.0, 0.0, 2.0], dtype=f64)], dd(0), attrs={"p": 0.0},
                   backward=False))  # PyTorch 1.13 raises in the backward of p=0
    cs.append(case(op + "/inf", op, [r.randn((3, 4)), r.randn((3, 4))], dd(INF), attrs={"p": INF}))
    cs.append(case(op + "/neg_inf", op, [r.randn((3, 4)), r.randn((3, 4))], dd(-INF), attrs={"p": -INF}))
    cs.append(case(op + "/broadcast", op, [r.randn((2, 1, 3)), r.randn((4, 3))], dd(2), attrs={"p": 2.0}))
    cs.append(case(op + "/0d", op, [r.randn(()), r.randn((3,))], dd(2), attrs={"p": 2.0}))
    cs.append(case(op + "/equal", op, [torch.ones(3, dtype=f64), torch.ones(3, dtype=f64)], dd(2), attrs={"p": 2.0}))
    cs.append(case(op + "/empty", op, [r.randn((0, 3)), r.randn((0, 3))], dd(2), attrs={"p": 2.0}))
    cs.append(case(op + "/special", op, [torch.tensor([INF, 1.0], dtype=f64), torch.tensor([0.0, NAN], dtype=f64)], dd(2), attrs={"p": 2.0},
                   backward=False))
    cs.append(case(op + "/mixed_f32_f64", op, [r.randn((3,), f32), r.randn((3,))], dd(2), attrs={"p": 2.0}))
    cs.append(case(op + "/mixed_int_f32", op, [r.randint(-3, 4, (3,)), r.randn((3,), f32)], dd(2), attrs={"p": 2.0}, backward=False))
    cs.append(error_case(op + "/int", op, [r.randint(-3, 4, (3,)), r.randint(-3, 4, (3,))], dd(2), attrs={"p": 2.0}))
    cs.append(error_case(op + "/broadcast_mismatch", op, [r.randn((4,)), r.randn((2,))], dd(2), attrs={"p": 2.0}))
    # positive differences: no cancellation at the narrow dtypes
    cs += narrow_cases(op, lambda r, d: [(pos(r, (3, 4)) + 1.0).to(d), pos(r, (3, 4), d)], dd(2), attrs={"p": 2.0}, bwd_ulp=2)
    return cs


# --------------------------------------------------------------------------
# diff

def diff_cases():
    cs = []
    op, r = "diff", R("diff")

    def df(n=1, dim=-1):
        return lambda x, p, a: torch.diff(x, n=n, dim=dim, prepend=p, append=a)

    def at(n=1, dim=-1):
        return {"n": n, "dim": dim}
    cs.append(case(op + "/1d", op, [r.randn((5,)), None, None], df(), attrs=at()))
    cs.append(case(op + "/n2", op, [r.randn((6,)), None, None], df(2), attrs=at(2)))
    cs.append(case(op + "/n_too_big", op, [r.randn((3,)), None, None], df(5), attrs=at(5)))
    cs.append(case(op + "/n0", op, [r.randn((3,)), r.randn((1,)), None], df(0), attrs=at(0)))
    cs.append(case(op + "/n_negative", op, [r.randn((3,)), r.randn((1,)), None], df(-1), attrs=at(-1)))
    cs.append(case(op + "/dim0", op, [r.randn((4, 3)), None, None], df(1, 0), attrs=at(1, 0)))
    cs.append(case(op + "/middle_dim", op, [r.randn((2, 4, 3)), None, None], df(2, 1), attrs=at(2, 1)))
    cs.append(case(op + "/prepend_append", op, [r.randn((2, 4)), r.randn((2, 1)), r.randn((2, 2))], df(2), attrs=at(2)))
    cs.append(case(op + "/append_dim0", op, [r.randn((3, 2)), None, r.randn((2, 2))], df(1, 0), attrs=at(1, 0)))
    cs.append(case(op + "/empty", op, [r.randn((0, 3)), None, None], df(), attrs=at()))
    cs.append(case(op + "/special", op, [torch.tensor([INF, INF, 1.0, NAN, -0.0, 0.0], dtype=f64), None, None], df(), attrs=at(),
                   backward=False))
    cs.append(case(op + "/int64", op, [r.randint(-5, 6, (2, 4)), None, None], df(2), attrs=at(2), backward=False))
    cs.append(case(op + "/uint8_wraps", op, [torch.tensor([200, 1, 255], dtype=torch.uint8), None, None], df(), attrs=at(), backward=False))
    cs.append(case(op + "/bool", op, [r.bool((2, 5)), None, None], df(2), attrs=at(2), backward=False))
    cs.append(case(op + "/bool_prepend_int", op, [torch.tensor([True, False]), torch.tensor([1]), None], df(), attrs=at(), backward=False))
    cs.append(case(op + "/f32_prepend_f64", op, [r.randn((3,), f32), r.randn((1,)), None], df(), attrs=at()))
    cs.append(case(op + "/f32_prepend_int", op, [r.randn((3,), f32), r.randint(-3, 4, (2,)), None], df(), attrs=at()))
    cs.append(error_case(op + "/0d", op, [r.randn(()), None, None], df(), attrs=at()))
    cs.append(error_case(op + "/dim_range", op, [r.randn((2, 2)), None, None], df(1, 2), attrs=at(1, 2)))
    cs.append(error_case(op + "/prepend_rank", op, [r.randn((2, 2)), r.randn((2,)), None], df(), attrs=at()))
    cs.append(error_case(op + "/append_shape", op, [r.randn((2, 2)), None, r.randn((1, 1))], df(), attrs=at()))
    # no cancellation at the narrow dtypes: increasing values
    cs += narrow_cases(op, lambda r, d: [torch.cumsum(pos(r, (2, 5)), 1).to(d), None, None], df(), attrs=at())
    return cs


# --------------------------------------------------------------------------
# vander

def vander_cases():
    cs = []
    op, r = "vander", R("vander")

    def tv(n, inc=False):
        return lambda x: torch.vander(x, N=n, increasing=inc)

    def tvb(n, inc=False):
        """torch.vander through linalg.vander: PyTorch 1.13's torch.vander
        raises in its backward (an in-place cumprod); the values are the
        same cumulative products."""
        return lambda x: torch.linalg.vander(x, N=n) if inc else torch.linalg.vander(x, N=n).flip(-1)

    def lv(n):
        return lambda x: torch.linalg.vander(x, N=n)

    def at(n, inc=False):
        return {"N": n, "increasing": inc}
    cs.append(case(op + "/default", op, [r.randn((4,))], tv(4), attrs=at(4), backward=False))
    cs.append(case(op + "/default_bwd", op, [r.randn((4,))], tvb(4), attrs=at(4)))
    cs.append(case(op + "/N2", op, [r.randn((3,))], tvb(2), attrs=at(2)))
    cs.append(case(op + "/N6", op, [r.randn((3,))], tvb(6), attrs=at(6)))
    cs.append(case(op + "/N0", op, [r.randn((3,))], tv(0), attrs=at(0), backward=False))
    cs.append(case(op + "/N1", op, [r.randn((3,))], tv(1), attrs=at(1), backward=False))
    cs.append(case(op + "/increasing", op, [r.randn((4,))], tv(4, True), attrs=at(4, True), backward=False))
    cs.append(case(op + "/increasing_bwd", op, [r.randn((4,))], tvb(4, True), attrs=at(4, True)))
    cs.append(case(op + "/linalg_batched", op, [r.randn((2, 3))], lv(4), attrs=at(4, True)))
    cs.append(case(op + "/zero_and_special", op, [torch.tensor([0.0, -0.0, INF, NAN, -2.0], dtype=f64)], tv(3), attrs=at(3), backward=False))
    cs.append(case(op + "/zero_grad", op, [torch.tensor([0.0, 1.5], dtype=f64)], tvb(4), attrs=at(4)))
    cs.append(case(op + "/empty", op, [r.randn((0,))], tvb(3), attrs=at(3)))
    cs.append(case(op + "/int32", op, [r.randint(-4, 5, (4,), torch.int32)], tv(4), attrs=at(4), backward=False))
    cs.append(case(op + "/uint8", op, [torch.tensor([200, 3], dtype=torch.uint8)], tv(3), attrs=at(3), backward=False))
    cs.append(case(op + "/bool", op, [torch.tensor([True, False])], tv(3), attrs=at(3), backward=False))
    cs.append(case(op + "/int64_linalg", op, [r.randint(-4, 5, (2, 3))], lv(3), attrs=at(3, True), backward=False))
    cs.append(error_case(op + "/N_negative", op, [r.randn((3,))], tv(-1), attrs=at(-1)))
    cs += narrow_cases(op, lambda r, d: [pos(r, (4,), d)], tvb(3), attrs=at(3))
    return cs


# --------------------------------------------------------------------------
# block_diag

def block_diag_cases():
    cs = []
    op, r = "block_diag", R("block_diag")
    f = torch.block_diag
    cs.append(case(op + "/mixed_ranks", op, [r.randn((2, 2)), r.randn((3,)), r.randn(())], f))
    cs.append(case(op + "/one", op, [r.randn((2, 3))], f))
    cs.append(case(op + "/empty_blocks", op, [r.randn((0, 2)), r.randn((2, 0)), r.randn((1, 1))], f))
    cs.append(case(op + "/special", op, [torch.tensor([[NAN, INF]], dtype=f64), torch.tensor([-0.0], dtype=f64)], f, backward=False))
    cs.append(case(op + "/int_f64", op, [r.randint(-3, 4, (2, 2)), r.randn((1,))], f))
    cs.append(case(op + "/f32_0d_f64", op, [r.randn((2,), f32), r.randn(())], f))
    cs.append(case(op + "/int8_f32", op, [r.randn((2,), f32), r.randint(-3, 4, (1,), torch.int8)], f))
    cs.append(case(op + "/bool", op, [r.bool((2,)), r.bool((1, 2))], f, backward=False))
    cs.append(case(op + "/int64", op, [r.randint(-3, 4, (2, 2)), r.randint(-3, 4, (1, 3))], f, backward=False))
    cs.append(error_case(op + "/3d", op, [r.randn((2, 2)), r.randn((2, 2, 2))], f))
    cs += narrow_cases(op, lambda r, d: [pos(r, (2, 2), d), pos(r, (3,), d)], f)
    return cs


def main():
    cs = addmv_cases() + addr_cases() + bmm_cases() + product_cases() + det_cases() + cross_cases() + dist_cases() + diff_cases() + vander_cases() + block_diag_cases()
    write_group("linalg", cs)


if __name__ == "__main__":
    main()
