"""Golden cases for the misc family (sdk/ops/schema_misc.go): the remaining
creation ops (linspace, logspace, ...) and small ops.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_misc.py

writes golden/misc.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer cases keep their dtypes so that
result dtypes are checked); emulated cases compute at float32, bfloat16 and
float16 as PyTorch's CPU kernels do.
"""

import torch

from golden_lib import case, error_case, write_group

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
NARROW = (f32, bf16, f16)
INTS = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8)
# The CPU plugin reproduces these bit for bit.
EXACT = {"rtol": 0.0, "atol": 0.0, "ulp": 0.0}
NAN, INF = float("nan"), float("inf")


def dn(d):
    return str(d).replace("torch.", "")


# --------------------------------------------------------------------------
# linspace, logspace

def space_cases(op):
    cs = []
    fn = getattr(torch, op)

    def add(name, start, end, steps, dtype=f64, base=None, mode="bench", error=False, tol=None):
        attrs = {"steps": steps, "dtype": dtype}
        if op == "logspace":
            attrs["base"] = 10.0 if base is None else float(base)

        def f(s, e):
            if op == "logspace":
                return fn(s, e, steps, attrs["base"], dtype=dtype)
            return fn(s, e, steps, dtype=dtype)
        n = "%s/%s" % (op, name)
        if error:
            cs.append(error_case(n, op, [start, end], f, attrs=attrs, mode=mode))
        else:
            cs.append(case(n, op, [start, end], f, attrs=attrs, backward=False, mode=mode, **(tol or {})))

    add("basic", 0.0, 1.0, 5)
    add("reversed", 3.5, -2.25, 11)
    add("ints", 2, 17, 6)
    add("bool_start", True, 5, 4)
    add("steps0", 1.0, 2.0, 0)
    add("steps1", 1.5, 2.0, 1)
    add("steps2", -1.0, 4.0, 2)
    add("odd", 0.1, 0.9, 9)
    add("long", -3.7, 11.3, 1000)
    add("vector_tail", 0.3, 2.9, 37)
    add("nan", NAN, 1.0, 4)
    add("inf", -INF, INF, 4)
    add("inf_start", INF, 1.0, 3)
    add("equal", 2.0, 2.0, 6)
    for d in INTS:
        if op == "linspace":
            lo, hi = (1, 250) if d == torch.uint8 else (-7, 100)
            add("int/%s" % dn(d), lo, hi, 67, dtype=d)
        else:
            # results in the dtype's range (out of it C++ leaves the
            # conversion undefined)
            add("int/%s" % dn(d), 0 if d == torch.uint8 else -1, 2, 5, dtype=d)
    add("int/frac_bounds", 0.5, 7.9, 5, dtype=torch.int64)
    if op == "linspace":
        add("int/reversed", 20, -13, 40, dtype=torch.int32)
        add("int/uint8_wrap", -1, 3, 5, dtype=torch.uint8)
    else:
        add("int/reversed", 9, -3, 40, dtype=torch.int32)
    add("err/bool", 0, 1, 3, dtype=torch.bool, error=True)
    add("err/overflow_f32", 1e40, 1.0, 3, dtype=f32, error=True)
    add("err/overflow_int8", 0, 300, 3, dtype=torch.int8, error=True)
    add("err/nan_int", NAN, 3, 3, dtype=torch.int32, error=True)
    if op == "linspace":
        add("err/overflow_f16", 70000.0, 1.0, 3, dtype=f16, error=True)
        add("bf16_large_start", 70000.0, 1.0, 3, dtype=bf16, mode="emulated", tol=EXACT)
        add("bool_steps1", 0.5, 1, 1, dtype=torch.bool)
    else:
        add("base2", -2.0, 3.0, 11, base=2)
        add("base_half", 0.0, 4.0, 9, base=0.5)
        add("base_neg", 0.0, 3.0, 7, base=-2)
        add("base_e", -1.0, 1.0, 64, base=2.718281828459045)
        add("steps1_pow", 2.5, 0.0, 1, base=3)
        add("int/base2_5", 0, 6, 7, dtype=torch.int64, base=2.5)
        add("err/int_inf", 400, 500, 1, dtype=torch.int64, error=True)
    # narrow dtypes, as PyTorch's CPU kernels compute them
    for d in NARROW:
        for name, s, e, n in (("small", -1.25, 3.5, 7), ("blocks", 0.37, 9.81, 100), ("tail", 7.3, -1.1, 45)):
            if op == "logspace":
                s, e = s / 4, e / 4
            try:
                fn(0, 1, 3, dtype=d)
            except RuntimeError:
                # no CPU kernel at the dtype in PyTorch 1.13 (float16
                # logspace): the float64 result rounded, from bounds exact
                # at the dtype
                s, e = round(s), round(e)
                cs.append(case("%s/emu/%s/%s_via_f64" % (op, dn(d), name), op, [s, e],
                               lambda s, e, n=n, d=d: fn(s, e, n, dtype=f64).to(d),
                               attrs={"steps": n, "dtype": d, "base": 10.0}, backward=False, mode="emulated"))
                continue
            add("emu/%s/%s" % (dn(d), name), s, e, n, dtype=d, mode="emulated", tol=EXACT)
    return cs


# --------------------------------------------------------------------------
# tril_indices, triu_indices

def tri_indices_cases(op):
    cs = []
    fn = getattr(torch, op)

    def add(name, row, col, offset=0, dtype=torch.int64, error=False):
        attrs = {"offset": offset, "dtype": dtype}
        n = "%s/%s" % (op, name)

        def f(r, c):
            return fn(r, c, offset, dtype=dtype)
        if error:
            cs.append(error_case(n, op, [row, col], f, attrs=attrs))
        else:
            cs.append(case(n, op, [row, col], f, attrs=attrs, backward=False))

    add("square", 4, 4)
    add("wide", 3, 6, 2)
    add("tall", 7, 3, -2)
    add("offset_beyond", 3, 4, 10)
    add("offset_below", 3, 4, -10)
    add("empty_rows", 0, 5)
    add("empty_cols", 4, 0, 1)
    add("int32", 5, 5, 1, dtype=torch.int32)
    add("large", 40, 33, -3)
    add("err/negative_row", -1, 3, error=True)
    add("err/negative_col", 2, -3, error=True)
    for d in (f32, torch.int16, torch.uint8, torch.bool):
        add("err/%s" % dn(d), 3, 3, dtype=d, error=True)
    return cs


if __name__ == "__main__":
    write_group("misc", space_cases("linspace") + space_cases("logspace") +
                tri_indices_cases("tril_indices") + tri_indices_cases("triu_indices"))
