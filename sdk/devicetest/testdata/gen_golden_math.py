"""Golden cases for the elementwise math family: group "math".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_math.py

writes golden/math.json.gz (format: golden_lib.py) from real PyTorch 1.13
on the CPU. Per op: float64 cases (shapes, 0-d, empty, special values NaN,
±inf, ±0), integer and bool inputs where PyTorch takes them, error cases
with PyTorch's message, backward cases for differentiable ops, and one case
per narrow dtype (float32, float16, bfloat16; mode "emulated", with a
backward where the op has one). Where PyTorch 1.13's CPU has no kernel at
the dtype (most float16 math), the narrow case is computed in float32 and
rounded, as PyTorch's own float16 kernels compute in float32; its name then
ends in "_via_f32".

Narrow cases (and integer inputs, whose results are float32) are checked
against the float64 result of the same inputs rounded to the dtype: where
PyTorch is more than one unit in the last place off (float32 special
functions, bfloat16 gradient formulas that round intermediates), the case
carries an ulp field of that deviation plus one, so that a device computing
the correctly rounded value passes as PyTorch does. The script prints every
such case.
"""

import math

import torch

from golden_lib import REPORT, Rand, case, checked, error_case, run_torch, via_f32, write_group

f64 = torch.float64
DTYPES = {"float64": f64, "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def R(name):
    return Rand("math/" + name)


def special(dtype=f64):
    return torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.5, -2.0, 0.5, -0.25, 3.0], dtype=dtype)


def narrow(op, fn, mk, backward=True, attrs=None, label=None):
    """One case per narrow dtype (emulated), through float32 where PyTorch
    1.13's CPU lacks the kernel."""
    cs = []
    for dn, d in NARROW.items():
        name = "%s/%s" % (label or op, dn)
        x = mk(R(name), d)
        f = fn
        try:
            rg = [backward and isinstance(v, torch.Tensor) and v.dtype.is_floating_point for v in x]
            outs, _ = run_torch(fn, x, rg, None)
            if backward:
                run_torch(fn, x, rg, [torch.ones_like(o) for o in outs])
        except RuntimeError:
            name, f = name + "_via_f32", via_f32(fn, d)
        cs.append(checked(name, op, x, f, attrs=attrs, backward=backward, mode="emulated"))
    return cs


# ---------------------------------------------------------------- unary ops

def rng(lo, hi):
    return lambda r, shape, d=f64: r.rand(shape, f64, lo, hi).to(d)


def normal(scale=1.0):
    return lambda r, shape, d=f64: (r.randn(shape, f64) * scale).to(d)


# op: (torch function, input maker for float64 cases, input maker for the
# narrow cases (well conditioned), promotes integers to float, in-place
# method or None)
UNARY = {
    "log1p": (torch.log1p, rng(-0.9, 3.0), rng(0.2, 3.0), True, "log1p_"),
    "expm1": (torch.expm1, normal(1.5), rng(0.2, 2.0), True, "expm1_"),
    "log2": (torch.log2, rng(0.1, 5.0), rng(1.5, 5.0), True, "log2_"),
    "log10": (torch.log10, rng(0.1, 5.0), rng(1.5, 5.0), True, "log10_"),
    "exp2": (torch.exp2, normal(2.0), rng(-2.0, 2.0), True, "exp2_"),
    "sinh": (torch.sinh, normal(1.5), rng(0.3, 2.0), True, "sinh_"),
    "cosh": (torch.cosh, normal(1.5), rng(0.3, 2.0), True, "cosh_"),
    "tan": (torch.tan, rng(-1.4, 1.4), rng(0.2, 1.2), True, "tan_"),
    "asin": (torch.asin, rng(-0.95, 0.95), rng(0.2, 0.9), True, "asin_"),
    "acos": (torch.acos, rng(-0.95, 0.95), rng(-0.9, 0.8), True, "acos_"),
    "atan": (torch.atan, normal(2.0), rng(0.2, 3.0), True, "atan_"),
    "asinh": (torch.asinh, normal(2.0), rng(0.2, 3.0), True, "asinh_"),
    "acosh": (torch.acosh, rng(1.05, 5.0), rng(1.5, 5.0), True, "acosh_"),
    "atanh": (torch.atanh, rng(-0.95, 0.95), rng(0.2, 0.9), True, "atanh_"),
    "erf": (torch.erf, normal(1.2), rng(0.2, 1.5), True, "erf_"),
    "erfc": (torch.erfc, normal(1.2), rng(-1.0, 1.0), True, "erfc_"),
    "erfinv": (torch.erfinv, rng(-0.99, 0.99), rng(0.2, 0.9), True, "erfinv_"),
    "sinc": (torch.sinc, normal(1.5), rng(0.1, 0.8), True, "sinc_"),
    "deg2rad": (torch.deg2rad, normal(180.0), rng(10.0, 300.0), True, "deg2rad_"),
    "rad2deg": (torch.rad2deg, normal(3.0), rng(0.2, 3.0), True, "rad2deg_"),
    "lgamma": (torch.lgamma, rng(0.05, 6.0), rng(2.5, 6.0), True, "lgamma_"),
    "digamma": (torch.digamma, rng(0.05, 6.0), rng(2.0, 6.0), True, "digamma_"),
    "i0": (torch.i0, normal(5.0), rng(0.2, 4.0), True, "i0_"),
    "sign": (torch.sign, normal(1.0), normal(1.0), False, "sign_"),
    "floor": (torch.floor, normal(3.0), normal(3.0), False, "floor_"),
    "ceil": (torch.ceil, normal(3.0), normal(3.0), False, "ceil_"),
    "trunc": (torch.trunc, normal(3.0), normal(3.0), False, "trunc_"),
    "frac": (torch.frac, normal(3.0), normal(3.0), False, "frac_"),
    "angle": (torch.angle, normal(1.0), normal(1.0), True, None),
}
NO_INPLACE_GRAD = {"asinh", "acosh", "atanh"}
ROUNDING_BOOL_ERR = {"floor", "ceil", "trunc"}


def unary_cases():
    cs = []
    for op, (fn, mk, mkn, promote, method) in UNARY.items():
        r = R(op)
        cs.append(case(op + "/2x3", op, [mk(r, (2, 3))], fn))
        cs.append(case(op + "/0d", op, [mk(r, ())], fn))
        cs.append(case(op + "/empty", op, [mk(r, (0, 3))], fn))
        # sign's jump at 0 is symmetric: finite differences do not see the
        # kink there, so the special values run forward only.
        cs.append(case(op + "/special", op, [special()], fn, backward=op != "sign"))
        if method:
            # PyTorch 1.13 has no derivative for asinh_, acosh_, atanh_.
            cs.append(case(op + "/inplace", op, [mk(r, (4,))], lambda x, m=method: getattr(x.clone(), m)(),
                           attrs={"inplace": True}, backward=op not in NO_INPLACE_GRAD))
        xi = torch.tensor([1, 2, 3, 0, 5], dtype=torch.int32)
        if op in ("log1p", "log2", "log10", "lgamma", "digamma"):
            xi = torch.tensor([1, 2, 3, 4, 5], dtype=torch.int32)
        if op in ("asin", "acos", "atanh", "erfinv"):
            xi = torch.tensor([0, 1, -1, 0, 1], dtype=torch.int32)
        if op in ("sign", "floor", "ceil", "trunc", "angle"):
            xi = torch.tensor([3, -2, 0, 7, -5], dtype=torch.int32)
        if op == "acosh":
            xi = torch.tensor([1, 2, 3, 4, 5], dtype=torch.int32)
        xb = torch.tensor([True, False, True])
        if op == "frac":
            cs.append(error_case(op + "/int64", op, [xi.to(torch.int64)], fn))
            cs.append(error_case(op + "/bool", op, [xb], fn))
        else:
            for dn, d in (("int32", torch.int32), ("int64", torch.int64), ("uint8", torch.uint8), ("int8", torch.int8)):
                x = xi.to(d) if d != torch.uint8 else xi.abs().to(d)
                # sinc of an integer is 0, which PyTorch forms in float32 as
                # sin(pi·n)/(pi·n), about 1e-8.
                kw = {"atol": 1e-7} if op == "sinc" else {}
                cs.append(checked(op + "/" + dn, op, [x], fn, promote=promote, backward=False, **kw))
            if op in ROUNDING_BOOL_ERR:
                cs.append(error_case(op + "/bool", op, [xb], fn))
            else:
                kw = {"atol": 1e-7} if op == "sinc" else {}
                cs.append(checked(op + "/bool", op, [xb], fn, promote=promote, backward=False, **kw))
        if method and promote:
            cs.append(error_case(op + "/inplace_int", op, [xi.to(torch.int64)],
                                 lambda x, m=method: getattr(x.clone(), m)(), attrs={"inplace": True}))
        if method and not promote and op != "frac":
            cs.append(case(op + "/inplace_int", op, [xi.to(torch.int64)],
                           lambda x, m=method: getattr(x.clone(), m)(), attrs={"inplace": True}, backward=False))
        cs += narrow(op, fn, lambda r, d, mkn=mkn: [mkn(r, (2, 3), d)])
    # domain edges: negative arguments of the gamma functions, the branches
    # of i0 and erfinv, sign at ±0
    cs.append(case("lgamma/negative", "lgamma", [torch.tensor([-0.5, -1.5, -2.25, -3.75, -1.0, -2.0, 1.0, 2.0], dtype=f64)], torch.lgamma))
    cs.append(case("digamma/negative", "digamma", [torch.tensor([-0.5, -1.5, -2.25, -3.75, -1.0, 1e-8, 10.0, 1e18], dtype=f64)], torch.digamma))
    cs.append(case("i0/branches", "i0", [torch.tensor([-8.0, 8.0, 8.5, -20.0, 50.0, 700.0, 710.0, 1e-3], dtype=f64)], torch.i0))
    cs.append(case("erfinv/tails", "erfinv", [torch.tensor([0.7, -0.7, 0.71, 0.999, -0.99999, 1e-10, 1.0, -1.0], dtype=f64)], torch.erfinv))
    cs.append(case("sinc/integers", "sinc", [torch.tensor([1.0, -2.0, 3.0, 1e-12, -1e-200, 100.5], dtype=f64)], torch.sinc))
    cs.append(case("round/ties", "round", [torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.49999, 2.0 ** 52 + 1], dtype=f64)],
                   torch.round, backward=False))
    return cs


# ---------------------------------------------------------------- unary ops with attributes

def attr_cases():
    cs = []
    # logit
    r = R("logit")
    x = r.rand((2, 3), f64, 0.02, 0.98)
    cs.append(case("logit/2x3", "logit", [x], torch.logit))
    cs.append(case("logit/0d", "logit", [r.rand((), f64, 0.1, 0.9)], torch.logit))
    cs.append(case("logit/empty", "logit", [r.rand((0, 2), f64, 0.1, 0.9)], torch.logit))
    edges = torch.tensor([-0.5, 0.0, 0.05, 0.3, 0.95, 1.0, 1.5, float("nan")], dtype=f64)
    cs.append(case("logit/edges", "logit", [edges], torch.logit))
    cs.append(case("logit/eps", "logit", [edges], lambda x: torch.logit(x, 0.1), attrs={"eps": 0.1}))
    cs.append(case("logit/eps_none", "logit", [x], lambda x: torch.logit(x, None), attrs={"eps": None}))
    cs.append(case("logit/eps_0", "logit", [edges], lambda x: torch.logit(x, 0.0), attrs={"eps": 0.0}))
    cs.append(case("logit/inplace", "logit", [x], lambda x: x.clone().logit_(0.25), attrs={"eps": 0.25, "inplace": True}))
    cs.append(checked("logit/int64", "logit", [torch.tensor([0, 1, 2, -1])], torch.logit, promote=True, backward=False))
    cs.append(checked("logit/bool", "logit", [torch.tensor([True, False])], torch.logit, promote=True, backward=False))
    cs.append(error_case("logit/inplace_int", "logit", [torch.tensor([0, 1])], lambda x: x.clone().logit_(), attrs={"inplace": True}))
    cs += narrow("logit", torch.logit, lambda r, d: [r.rand((2, 3), f64, 0.6, 0.95).to(d)])
    cs += narrow("logit", lambda x: torch.logit(x, 0.2), lambda r, d: [r.rand((2, 3), f64, 0.05, 0.7).to(d)],
                 attrs={"eps": 0.2}, label="logit/eps_0.2")
    # round
    r = R("round")
    x = r.randn((2, 3)) * 50
    for dec in (0, 1, 2, 3, -1, -2):
        fn = (lambda x, dec=dec: torch.round(x, decimals=dec))
        cs.append(case("round/decimals_%d" % dec, "round", [x], fn, attrs={"decimals": dec}))
    cs.append(case("round/2x3", "round", [r.randn((2, 3)) * 3], torch.round))
    cs.append(case("round/0d", "round", [r.randn(()) * 3], torch.round))
    cs.append(case("round/empty", "round", [r.randn((0,))], torch.round))
    cs.append(case("round/special", "round", [special()], torch.round))
    cs.append(case("round/special_decimals", "round", [special()], lambda x: torch.round(x, decimals=2), attrs={"decimals": 2}))
    cs.append(case("round/inplace", "round", [x], lambda x: x.clone().round_(decimals=1), attrs={"decimals": 1, "inplace": True}))
    xi = torch.tensor([3, -2, 0, 7, -5])
    for dn, d in (("int32", torch.int32), ("int64", torch.int64), ("uint8", torch.uint8)):
        v = xi.to(d) if d != torch.uint8 else xi.abs().to(d)
        cs.append(case("round/" + dn, "round", [v], torch.round, backward=False))
    cs.append(case("round/inplace_int", "round", [xi], lambda x: x.clone().round_(), attrs={"inplace": True}, backward=False))
    cs.append(error_case("round/bool", "round", [torch.tensor([True, False])], torch.round))
    cs.append(error_case("round/int_decimals", "round", [xi], lambda x: torch.round(x, decimals=1), attrs={"decimals": 1}))
    cs += narrow("round", torch.round, lambda r, d: [(r.randn((2, 3), f64) * 3).to(d)])
    for dn, d in NARROW.items():
        fn = lambda x: torch.round(x, decimals=2)
        xv = (R("round/dec/" + dn).randn((2, 3), f64) * 10).to(d)
        name = "round/decimals_2/" + dn
        try:
            fn(xv)
        except RuntimeError:
            name, fn = name + "_via_f32", via_f32(fn, d)
        cs.append(checked(name, "round", [xv], fn, attrs={"decimals": 2}, mode="emulated"))
    # nan_to_num
    r = R("nan_to_num")
    sp = special()
    cs.append(case("nan_to_num/special", "nan_to_num", [sp], torch.nan_to_num))
    cs.append(case("nan_to_num/values", "nan_to_num", [sp], lambda x: torch.nan_to_num(x, 1.5, 1e10, -2.0),
                   attrs={"nan": 1.5, "posinf": 1e10, "neginf": -2.0}))
    cs.append(case("nan_to_num/posinf_only", "nan_to_num", [sp], lambda x: torch.nan_to_num(x, posinf=7.0),
                   attrs={"posinf": 7.0}))
    cs.append(case("nan_to_num/2x3", "nan_to_num", [r.randn((2, 3))], torch.nan_to_num))
    cs.append(case("nan_to_num/0d", "nan_to_num", [torch.tensor(float("nan"), dtype=f64)], torch.nan_to_num))
    cs.append(case("nan_to_num/empty", "nan_to_num", [r.randn((0, 2))], torch.nan_to_num))
    cs.append(case("nan_to_num/inplace", "nan_to_num", [sp], lambda x: x.clone().nan_to_num_(nan=-1.0),
                   attrs={"nan": -1.0, "inplace": True}))
    cs.append(case("nan_to_num/int64", "nan_to_num", [torch.tensor([1, -2, 3])], lambda x: torch.nan_to_num(x, 1.5),
                   attrs={"nan": 1.5}, backward=False))
    cs.append(case("nan_to_num/bool", "nan_to_num", [torch.tensor([True, False])], torch.nan_to_num, backward=False))
    for dn, d in NARROW.items():
        cs.append(case("nan_to_num/%s_defaults" % dn, "nan_to_num", [sp.to(d)], torch.nan_to_num, mode="emulated"))
    cs.append(case("nan_to_num/float16_big_posinf", "nan_to_num", [sp.to(torch.float16)],
                   lambda x: torch.nan_to_num(x, posinf=1e10), attrs={"posinf": 1e10}, backward=False, mode="emulated"))
    return cs


# ---------------------------------------------------------------- polygamma, mvlgamma

def gamma_family_cases():
    cs = []
    r = R("polygamma")
    x = r.rand((2, 3), f64, 0.3, 4.0)
    for n in (0, 1, 2, 3, 5):
        cs.append(case("polygamma/n%d" % n, "polygamma", [x], lambda x, n=n: torch.polygamma(n, x), attrs={"n": n}))
    cs.append(case("polygamma/negative_x", "polygamma", [torch.tensor([-0.5, -1.5, -2.25, -1.0, 0.0, 1e-3], dtype=f64)],
                   lambda x: torch.polygamma(2, x), attrs={"n": 2}))
    cs.append(case("polygamma/special", "polygamma", [special()], lambda x: torch.polygamma(3, x), attrs={"n": 3}, backward=False))
    cs.append(case("polygamma/0d", "polygamma", [r.rand((), f64, 0.5, 2.0)], lambda x: torch.polygamma(2, x), attrs={"n": 2}))
    cs.append(case("polygamma/empty", "polygamma", [r.rand((0, 2), f64, 0.5, 2.0)], lambda x: torch.polygamma(2, x), attrs={"n": 2}))
    cs.append(case("polygamma/inplace", "polygamma", [x], lambda x: x.clone().polygamma_(2), attrs={"n": 2, "inplace": True}))
    cs.append(checked("polygamma/int64", "polygamma", [torch.tensor([1, 2, 3])], lambda x: torch.polygamma(2, x),
                      attrs={"n": 2}, promote=True, backward=False))
    cs.append(error_case("polygamma/inplace_int", "polygamma", [torch.tensor([1, 2])], lambda x: x.clone().polygamma_(1),
                         attrs={"n": 1, "inplace": True}))
    cs += narrow("polygamma", lambda x: torch.polygamma(2, x), lambda r, d: [r.rand((2, 3), f64, 1.0, 3.0).to(d)],
                 attrs={"n": 2})
    r = R("mvlgamma")
    x = r.rand((2, 3), f64, 2.0, 5.0)
    for p in (1, 2, 3, 5):
        cs.append(case("mvlgamma/p%d" % p, "mvlgamma", [x], lambda x, p=p: torch.mvlgamma(x, p), attrs={"p": p}))
    cs.append(case("mvlgamma/0d", "mvlgamma", [r.rand((), f64, 2.0, 4.0)], lambda x: torch.mvlgamma(x, 2), attrs={"p": 2}))
    cs.append(case("mvlgamma/empty", "mvlgamma", [r.rand((0,), f64, 2.0, 4.0)], lambda x: torch.mvlgamma(x, 2), attrs={"p": 2}))
    cs.append(case("mvlgamma/special", "mvlgamma", [special()], lambda x: torch.mvlgamma(x, 2), attrs={"p": 2}, backward=False))
    cs.append(case("mvlgamma/inplace", "mvlgamma", [x], lambda x: x.clone().mvlgamma_(3), attrs={"p": 3, "inplace": True}))
    cs.append(checked("mvlgamma/int64", "mvlgamma", [torch.tensor([3, 4, 7])], lambda x: torch.mvlgamma(x, 2),
                      attrs={"p": 2}, promote=True, backward=False))
    cs += narrow("mvlgamma", lambda x: torch.mvlgamma(x, 2), lambda r, d: [r.rand((2, 3), f64, 2.5, 5.0).to(d)],
                 attrs={"p": 2})
    return cs


# ---------------------------------------------------------------- binary ops

def signed(r, shape, lo, hi):
    mag = r.rand(shape, f64, lo, hi)
    return mag * torch.where(r.bool(shape), 1.0, -1.0)


# op: (fn, make (a, b) at float64, make narrow (a, b), number operands
# (second, first), in-place method, integer result (keep / float / error),
# bool (ok / error), differentiable)
def _pair(fa, fb):
    return lambda r, shape, d=f64: [fa(r, shape).to(d), fb(r, shape).to(d)]


N = lambda s=1.0: (lambda r, shape: r.randn(shape, f64) * s)
U = lambda lo, hi: (lambda r, shape: r.rand(shape, f64, lo, hi))
S = lambda lo, hi: (lambda r, shape: signed(r, shape, lo, hi))

BINARY = {
    "atan2": (torch.atan2, _pair(N(), N()), _pair(U(0.3, 2), U(0.3, 2)), (False, False), "atan2_", "float", True, True),
    "fmod": (torch.fmod, _pair(N(5), S(0.5, 2)), _pair(U(2, 5), U(0.7, 1.5)), (True, False), "fmod_", "keep", False, True),
    "remainder": (torch.remainder, _pair(N(5), S(0.5, 2)), _pair(U(2, 5), U(0.7, 1.5)), (True, True), "remainder_", "keep", False, True),
    "copysign": (torch.copysign, _pair(S(0.2, 2), N()), _pair(S(0.2, 2), N()), (True, False), "copysign_", "float", True, True),
    "hypot": (torch.hypot, _pair(N(), N()), _pair(U(0.3, 2), U(0.3, 2)), (False, False), "hypot_", "error", False, True),
    "xlogy": (torch.xlogy, _pair(N(), U(0.1, 3)), _pair(U(0.3, 2), U(1.5, 3)), (True, True), "xlogy_", "float", True, True),
    "logaddexp": (torch.logaddexp, _pair(N(2), N(2)), _pair(U(0.3, 2), U(0.3, 2)), (False, False), None, "error", False, True),
    "logaddexp2": (torch.logaddexp2, _pair(N(2), N(2)), _pair(U(0.3, 2), U(0.3, 2)), (False, False), None, "error", False, True),
    "fmax": (torch.fmax, _pair(N(), N()), _pair(N(), N()), (False, False), None, "keep", True, True),
    "fmin": (torch.fmin, _pair(N(), N()), _pair(N(), N()), (False, False), None, "keep", True, True),
    "float_power": (torch.float_power, _pair(U(0.2, 2), N()), _pair(U(0.5, 2), U(-1.5, 1.5)), (True, True), "float_power_", "float64", True, True),
    "nextafter": (torch.nextafter, _pair(N(), N()), _pair(N(), N()), (False, False), "nextafter_", "error", False, False),
}


def binary_cases():
    cs = []
    sp_a = special()
    sp_b = torch.tensor([1.0, -2.0, 0.5, float("inf"), -0.0, float("nan"), float("-inf"), 0.0, -3.0, 2.0], dtype=f64)
    for op, (fn, mk, mkn, (num2, num1), method, ints, boolok, diff) in BINARY.items():
        r = R(op)
        cs.append(case(op + "/same", op, mk(r, (2, 3)), fn, backward=diff))
        a, _ = mk(r, (2, 1, 3))
        _, b = mk(r, (4, 1))
        cs.append(case(op + "/broadcast", op, [a, b], fn, backward=diff))
        a, _ = mk(r, ())
        _, b = mk(r, (2, 2))
        cs.append(case(op + "/0d_and_tensor", op, [a, b], fn, backward=diff))
        cs.append(case(op + "/empty", op, mk(r, (0, 3)), fn, backward=diff))
        cs.append(case(op + "/special", op, [sp_a, sp_b], fn, backward=diff))
        cs.append(error_case(op + "/bad_broadcast", op, [mk(r, (2, 3))[0], mk(r, (2,))[1]], fn))
        if num2:
            a, b = mk(r, (3,))
            cs.append(case(op + "/scalar_float", op, [a, 1.5], fn, backward=diff))
            cs.append(case(op + "/scalar_int", op, [a, 2], fn, backward=diff))
        if num1:
            a, b = mk(r, (3,))
            # PyTorch 1.13 has no derivative for remainder(Scalar, Tensor).
            cs.append(case(op + "/scalar_left", op, [2.5, b], fn, backward=diff and op != "remainder"))
        if method:
            cs.append(case(op + "/inplace", op, mk(r, (2, 3)), lambda a, b, m=method: getattr(a.clone(), m)(b),
                           attrs={"inplace": True}, backward=diff))
        ai = torch.tensor([7, -7, 7, -7, 0, 5])
        bi = torch.tensor([2, 2, -3, -3, 3, 1])
        if ints == "error":
            cs.append(error_case(op + "/int64", op, [ai, bi], fn))
        else:
            cs.append(checked(op + "/int64", op, [ai, bi], fn, promote=True, backward=False))
            cs.append(checked(op + "/int32_int64", op, [ai.to(torch.int32), bi], fn, promote=True, backward=False))
            cs.append(checked(op + "/uint8_int8", op, [torch.tensor([1, 2, 250], dtype=torch.uint8), torch.tensor([3, -2, 1], dtype=torch.int8)],
                              fn, promote=True, backward=False))
            cs.append(case(op + "/int_float", op, [ai, torch.tensor([1.5, -2.0, 0.5, 3.0, -1.0, 2.5], dtype=f64)], fn, backward=diff))
            if method and ints != "keep":
                cs.append(error_case(op + "/inplace_int", op, [ai, bi], lambda a, b, m=method: getattr(a.clone(), m)(b),
                                     attrs={"inplace": True}))
            if method and ints == "keep":
                cs.append(case(op + "/inplace_int", op, [ai, bi], lambda a, b, m=method: getattr(a.clone(), m)(b),
                               attrs={"inplace": True}, backward=False))
        bb = [torch.tensor([True, False, True, False]), torch.tensor([True, True, False, False])]
        if boolok:
            cs.append(checked(op + "/bool", op, bb, fn, promote=True, backward=False))
        elif ints != "error":
            cs.append(error_case(op + "/bool", op, bb, fn))
        cs += narrow(op, fn, lambda r, d, mkn=mkn: mkn(r, (2, 3), d), backward=diff)
    # integer division by zero, modulo signs
    zi = torch.tensor([0, 1, 0])
    for op in ("fmod", "remainder"):
        fn = getattr(torch, op)
        cs.append(error_case(op + "/int_by_zero", op, [torch.tensor([1, 2, 3]), zi], fn))
        cs.append(error_case(op + "/int_by_zero_scalar", op, [torch.tensor([1, 2, 3]), 0], fn))
        cs.append(case(op + "/float_by_zero", op, [torch.tensor([1.0, -2.0, 0.0], dtype=f64), torch.tensor([0.0, -0.0, 0.0], dtype=f64)],
                       fn, backward=False))
        cs.append(error_case(op + "/inplace_int_float", op, [torch.tensor([1, 2, 3]), 2.5],
                             lambda a, b, op=op: getattr(a.clone(), op + "_")(b), attrs={"inplace": True}))
    cs.append(case("remainder/scalar_left_int", "remainder", [7, torch.tensor([3, -3, 2])], torch.remainder, backward=False))
    cs.append(case("remainder/mod", "remainder", [torch.tensor([5.5, -5.5, 5.5, -5.5], dtype=f64), torch.tensor([2.0, 2.0, -2.0, -2.0], dtype=f64)],
                   lambda a, b: a % b))
    cs.append(case("remainder/rmod", "remainder", [3.5, torch.tensor([2.0, -2.0, 1.5], dtype=f64)], lambda a, b: a % b,
                   backward=False))
    cs.append(case("remainder/imod", "remainder", [torch.tensor([5, -5, 7]), 3], lambda a, b: a.clone().__imod__(b),
                   attrs={"inplace": True}, backward=False))
    # float_power: always float64; its in-place form needs a float64 self
    cs.append(error_case("float_power/inplace_float32", "float_power", [torch.tensor([1.5, 2.0]), 2.0],
                         lambda a, b: a.clone().float_power_(b), attrs={"inplace": True}))
    cs.append(case("float_power/float32_inputs", "float_power", [torch.tensor([1.5, 2.0]), torch.tensor([0.5, 3.0])], torch.float_power))
    cs.append(case("float_power/zero_edges", "float_power", [torch.tensor([0.0, 0.0, 2.0, -1.5], dtype=f64), torch.tensor([0.0, 2.5, 0.0, 2.0], dtype=f64)],
                   torch.float_power))
    # xlogy at x = 0
    cs.append(case("xlogy/zeros", "xlogy", [torch.tensor([0.0, 0.0, 0.0, 1.0, 2.0, float("nan")], dtype=f64),
                                            torch.tensor([0.0, float("nan"), -1.0, 0.0, 3.0, 1.0], dtype=f64)], torch.xlogy))
    # fmax/fmin: NaN and ties
    t1 = torch.tensor([1.0, float("nan"), float("nan"), 2.0, 3.0], dtype=f64)
    t2 = torch.tensor([float("nan"), 1.0, float("nan"), 2.0, 1.0], dtype=f64)
    cs.append(case("fmax/nan_ties", "fmax", [t1, t2], torch.fmax))
    cs.append(case("fmin/nan_ties", "fmin", [t1, t2], torch.fmin))
    # copysign at zero
    cs.append(case("copysign/zeros", "copysign", [torch.tensor([0.0, -0.0, 1.0, -2.0], dtype=f64), torch.tensor([-1.0, 1.0, -0.0, 0.0], dtype=f64)],
                   torch.copysign))
    # ldexp
    r = R("ldexp")
    x = r.randn((2, 3))
    e = torch.tensor([[0, 1, -2], [3, -1, 10]])
    cs.append(case("ldexp/int_exponent", "ldexp", [x, e], torch.ldexp))
    cs.append(case("ldexp/float_exponent", "ldexp", [x, r.randn((3,))], torch.ldexp))
    cs.append(case("ldexp/0d", "ldexp", [r.randn(()), torch.tensor(2)], torch.ldexp))
    cs.append(case("ldexp/empty", "ldexp", [r.randn((0,)), torch.tensor([], dtype=torch.int64)], torch.ldexp))
    cs.append(case("ldexp/special", "ldexp", [sp_a, torch.tensor([1, 2, 0, -1, 3, 0, 1, 1000, -1100, 2])], torch.ldexp))
    cs.append(checked("ldexp/int64", "ldexp", [torch.tensor([1, -3, 5]), torch.tensor([2, 0, -1])], torch.ldexp, promote=True, backward=False))
    cs.append(checked("ldexp/bool", "ldexp", [torch.tensor([True, False]), torch.tensor([2, 1])], torch.ldexp, promote=True, backward=False))
    cs.append(case("ldexp/float16_int", "ldexp", [x.to(torch.float16), e], torch.ldexp, mode="emulated"))
    cs.append(case("ldexp/inplace", "ldexp", [x, e], lambda a, b: a.clone().ldexp_(b), attrs={"inplace": True}, backward=False))
    cs.append(error_case("ldexp/inplace_int", "ldexp", [e, e], lambda a, b: a.clone().ldexp_(b), attrs={"inplace": True}))
    cs += narrow("ldexp", torch.ldexp, lambda r, d: [r.randn((2, 3), f64).to(d), torch.tensor([[0, 1, -2], [3, -1, 4]]).to(d)])
    # heaviside
    hx = torch.tensor([-1.0, 0.0, 2.0, -0.0, float("nan"), float("inf")], dtype=f64)
    hv = torch.tensor([0.5, 0.25, 0.5, -1.0, 0.5, 0.5], dtype=f64)
    cs.append(case("heaviside/float64", "heaviside", [hx, hv], torch.heaviside, backward=False))
    cs.append(case("heaviside/broadcast", "heaviside", [hx.reshape(2, 3), torch.tensor([0.5, 7.0, -2.0], dtype=f64)], torch.heaviside, backward=False))
    cs.append(case("heaviside/0d", "heaviside", [torch.tensor(0.0, dtype=f64), torch.tensor(3.0, dtype=f64)], torch.heaviside, backward=False))
    cs.append(case("heaviside/empty", "heaviside", [hx[:0], hv[:0]], torch.heaviside, backward=False))
    cs.append(case("heaviside/int64", "heaviside", [torch.tensor([-3, 0, 4]), torch.tensor([5, 6, 7])], torch.heaviside, backward=False))
    cs.append(case("heaviside/bool", "heaviside", [torch.tensor([True, False]), torch.tensor([False, True])], torch.heaviside, backward=False))
    cs.append(case("heaviside/inplace", "heaviside", [hx, hv], lambda a, b: a.clone().heaviside_(b), attrs={"inplace": True}, backward=False))
    cs.append(error_case("heaviside/mixed_dtypes", "heaviside", [hx.float(), hv], torch.heaviside))
    cs.append(error_case("heaviside/int_float", "heaviside", [torch.tensor([1, 0]), torch.tensor([0.5, 0.5])], torch.heaviside))
    for dn, d in NARROW.items():
        cs.append(case("heaviside/" + dn, "heaviside", [hx.to(d), hv.to(d)], torch.heaviside, backward=False, mode="emulated"))
    # gcd, lcm
    ga = torch.tensor([0, -12, 7, 0, 9, 100, -8])
    gb = torch.tensor([0, 18, -21, 5, 6, 3, -12])
    for op in ("gcd", "lcm"):
        fn = getattr(torch, op)
        cs.append(case(op + "/int64", op, [ga, gb], fn, backward=False))
        cs.append(case(op + "/int8_wraps", op, [ga.to(torch.int8), gb.to(torch.int8)], fn, backward=False))
        cs.append(case(op + "/int32_int64", op, [ga.to(torch.int32), gb], fn, backward=False))
        cs.append(case(op + "/uint8", op, [ga.abs().to(torch.uint8), gb.abs().to(torch.uint8)], fn, backward=False))
        cs.append(case(op + "/broadcast", op, [ga.reshape(7, 1)[:3], gb[:4]], fn, backward=False))
        cs.append(case(op + "/0d", op, [torch.tensor(12), torch.tensor(-18)], fn, backward=False))
        cs.append(case(op + "/empty", op, [ga[:0], gb[:0]], fn, backward=False))
        cs.append(case(op + "/inplace", op, [ga, gb], lambda a, b, op=op: getattr(a.clone(), op + "_")(b), attrs={"inplace": True}, backward=False))
        cs.append(error_case(op + "/float", op, [ga.double(), gb.double()], fn))
        cs.append(error_case(op + "/bool", op, [ga > 0, gb > 0], fn))
    # nextafter steps by the dtype's own unit
    nx = torch.tensor([1.0, 1.0, 0.0, -0.0, 0.0, float("inf"), float("nan"), 2.0], dtype=f64)
    ny = torch.tensor([2.0, 0.0, -1.0, 1.0, -0.0, 0.0, 1.0, 2.0], dtype=f64)
    cs.append(case("nextafter/edges", "nextafter", [nx, ny], torch.nextafter, backward=False))
    for dn, d in NARROW.items():
        fn = torch.nextafter
        name = "nextafter/edges_" + dn
        try:
            fn(nx.to(d), ny.to(d))
        except RuntimeError:
            continue  # float16: no PyTorch 1.13 CPU kernel, and float32 steps are not float16 steps
        cs.append(case(name, "nextafter", [nx.to(d), ny.to(d)], fn, backward=False, mode="emulated"))
    return cs


# ---------------------------------------------------------------- bfloat16 rounding steps

# At bfloat16 PyTorch evaluates these functions' autograd formulas as
# tensor ops, each result rounded (grad / other, (self.pow(2) + 1).rsqrt(),
# Python numbers cast to bfloat16, ...), and some forward kernels store
# intermediate values at the scalar type (logit, sinc, xlogy's log). These
# cases, 64 elements with random gradients, hold the emulated device to
# PyTorch's bits (ulp 0).
ROUNDED_UNARY = {
    "asinh": (torch.asinh, rng(-3.0, 3.0)),
    "acosh": (torch.acosh, rng(1.1, 3.0)),
    "atanh": (torch.atanh, rng(-0.9, 0.9)),
    "erf": (torch.erf, normal(1.0)),
    "erfc": (torch.erfc, normal(1.0)),
    "erfinv": (torch.erfinv, rng(-0.9, 0.9)),
    "sinc": (torch.sinc, normal(1.0)),
    "logit": (torch.logit, rng(0.05, 0.95)),
    "rad2deg": (torch.rad2deg, normal(3.0)),
    "deg2rad": (torch.deg2rad, normal(100.0)),
    "log2": (torch.log2, rng(0.2, 3.0)),
    "log10": (torch.log10, rng(0.2, 3.0)),
    # -0.5 * grad * result.pow(3): bfloat16's pow(3) rounds both products
    "rsqrt": (torch.rsqrt, rng(0.2, 3.0)),
}
ROUNDED_BINARY = {
    "div": (torch.div, N(), U(0.5, 2)),
    "atan2": (torch.atan2, N(), N()),
    "xlogy": (torch.xlogy, N(), U(0.5, 2)),
    "logaddexp": (torch.logaddexp, N(), N()),
    "logaddexp2": (torch.logaddexp2, N(), N()),
}


def rounded_cases():
    cs = []
    bf16 = torch.bfloat16
    for op, (fn, mk) in ROUNDED_UNARY.items():
        name = op + "/bfloat16_rounded_steps"
        cs.append(case(name, op, [mk(R(name), (8, 8), bf16)], fn, mode="emulated", ulp=0))
    for op, (fn, fa, fb) in ROUNDED_BINARY.items():
        name = op + "/bfloat16_rounded_steps"
        r = R(name)
        cs.append(case(name, op, [fa(r, (8, 8)).to(bf16), fb(r, (8, 8)).to(bf16)], fn, mode="emulated", ulp=0))
    # the gamma family: gradients are the next function as a bfloat16
    # tensor, from PyTorch's float kernels (trigamma's float overload is
    # finite at the poles: -1.0 below); mvlgamma's composite rounds
    # x + arange, each lgamma or digamma, the sum and the constant
    gam = lambda r: torch.cat([rng(0.3, 4.0)(r, (62,)), torch.tensor([-1.0, -2.5], dtype=f64)]).reshape(8, 8).to(bf16)
    for op, fn, at in (("lgamma", torch.lgamma, None), ("digamma", torch.digamma, None),
                       ("polygamma", lambda x: torch.polygamma(0, x), {"n": 0})):
        name = op + "/bfloat16_rounded_steps"
        cs.append(case(name, op, [gam(R(name))], fn, attrs=at, mode="emulated", ulp=0))
    name = "mvlgamma/bfloat16_rounded_steps"
    cs.append(case(name, "mvlgamma", [rng(1.6, 4.0)(R(name), (8, 8), bf16)], lambda x: torch.mvlgamma(x, 3),
                   attrs={"p": 3}, mode="emulated", ulp=0))
    return cs


def main():
    cs = unary_cases() + attr_cases() + gamma_family_cases() + binary_cases() + rounded_cases()
    print("\n".join(REPORT))
    write_group("math", cs)


if __name__ == "__main__":
    main()
