"""Golden cases of the compare family: comparisons, logical and bitwise ops,
predicates. Group "compare".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_compare.py

writes golden/compare.json.gz (format: golden_lib.py) from real PyTorch
1.13. None of these ops has a backward, so every case is forward only.
Bench cases use float64 with ties on purpose (values drawn from a small
grid, so that == and <= meet equal elements), special values (NaN, ±inf,
±0), integer and bool dtypes, Python numbers and 0-d tensors whose
rounding to the promoted dtype decides the result; emulated cases run at
float32, float16 and bfloat16.
"""

import torch

from golden_lib import Rand, case, error_case, write_group

f64 = torch.float64
NARROW = (torch.float32, torch.float16, torch.bfloat16)


def R(name):
    return Rand("compare/" + name)


def grid(r, shape, dtype=f64):
    """Values on a grid of halves in [-2, 2]: ties are common."""
    return (r.randint(-4, 5, shape).to(f64) / 2).to(dtype)


def special(dtype=f64):
    return torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.5, -2.0, float("nan")], dtype=dtype)


def special_other(dtype=f64):
    return torch.tensor([-0.0, 0.0, float("nan"), float("inf"), 1.0, float("inf"), -2.0, 1.0], dtype=dtype)


def fwd(name, op, inputs, fn, **kw):
    return case(name, op, inputs, fn, backward=False, **kw)


# --------------------------------------------------------------------------
# comparisons

CMP = {"eq": torch.eq, "ne": torch.ne, "gt": torch.gt, "ge": torch.ge, "lt": torch.lt, "le": torch.le}


def inplace(name):
    def fn(a, b):
        return getattr(a.clone(), name + "_")(b)
    return fn


def comparison_cases():
    cs = []
    for op, fn in CMP.items():
        r = R(op)
        cs.append(fwd(op + "/same", op, [grid(r, (3, 4)), grid(r, (3, 4))], fn))
        cs.append(fwd(op + "/broadcast_row", op, [grid(r, (2, 3)), grid(r, (3,))], fn))
        cs.append(fwd(op + "/broadcast_both", op, [grid(r, (2, 1, 3)), grid(r, (4, 1))], fn))
        cs.append(fwd(op + "/broadcast_col", op, [grid(r, (3, 1)), grid(r, (3, 5))], fn))
        cs.append(fwd(op + "/0d", op, [grid(r, ()), grid(r, ())], fn))
        cs.append(fwd(op + "/0d_other", op, [grid(r, (2, 3)), torch.tensor(0.5, dtype=f64)], fn))
        cs.append(fwd(op + "/empty", op, [grid(r, (0, 3)), grid(r, (3,))], fn))
        cs.append(fwd(op + "/special", op, [special(), special_other()], fn))
        cs.append(fwd(op + "/special_scalar_nan", op, [special(), float("nan")], fn))
        cs.append(fwd(op + "/special_scalar_inf", op, [special(), float("inf")], fn))
        cs.append(fwd(op + "/scalar_float", op, [grid(r, (2, 3)), 0.5], fn))
        cs.append(fwd(op + "/scalar_int", op, [grid(r, (2, 3)), 1], fn))
        cs.append(fwd(op + "/scalar_bool", op, [grid(r, (2, 3)), True], fn))
        ai = r.randint(-3, 4, (2, 4))
        bi = r.randint(-3, 4, (4,))
        cs.append(fwd(op + "/int64", op, [ai, bi], fn))
        cs.append(fwd(op + "/int32_int64_0d", op, [ai.to(torch.int32), torch.tensor(1)], fn))
        cs.append(fwd(op + "/int_scalar_float", op, [ai, 0.5], fn))
        cs.append(fwd(op + "/int_float_tensor", op, [ai, grid(r, (4,))], fn))
        # the int scalar is cast to the tensor's dtype: 300 wraps to 44 in int8
        cs.append(fwd(op + "/int8_scalar_wraps", op, [torch.tensor([43, 44, 45, -1], dtype=torch.int8), 300], fn))
        cs.append(fwd(op + "/uint8_scalar_negative", op, [torch.tensor([0, 254, 255, 1], dtype=torch.uint8), -1], fn))
        cs.append(fwd(op + "/uint8_int8", op, [torch.tensor([0, 200, 255, 3], dtype=torch.uint8), torch.tensor([0, -56, -1, 3], dtype=torch.int8)], fn))
        # int32 beyond float32's 24 bits, compared in float32 with a float number
        cs.append(fwd(op + "/int32_scalar_float_rounds", op, [torch.tensor([16777216, 16777217, 16777218], dtype=torch.int32), 16777217.0], fn))
        bb = torch.tensor([True, False, True, False])
        cs.append(fwd(op + "/bool_bool", op, [bb, torch.tensor([True, True, False, False])], fn))
        cs.append(fwd(op + "/bool_int_scalar", op, [bb, 1], fn))
        cs.append(fwd(op + "/bool_float_scalar", op, [bb, 0.5], fn))
        cs.append(fwd(op + "/bool_float_tensor", op, [bb, torch.tensor([1.0, 0.0, 0.5, -0.0], dtype=f64)], fn))
        # float16 compares with float16(0.1), not 0.1
        h = torch.tensor([0.1, 0.0999755859375, 0.10003662109375, 0.2], dtype=torch.float16)
        cs.append(fwd(op + "/float16_scalar_rounds", op, [h, 0.1], fn))
        cs.append(fwd(op + "/float16_0d_float64_rounds", op, [h, torch.tensor(0.1, dtype=f64)], fn))
        cs.append(fwd(op + "/float32_float64", op, [torch.tensor([0.1, 0.5], dtype=torch.float32), torch.tensor([0.1, 0.5], dtype=f64)], fn))
        cs.append(fwd(op + "/float16_bfloat16", op, [torch.tensor([0.1, 1.0, 3.0], dtype=torch.float16), torch.tensor([0.1, 1.0, 3.0], dtype=torch.bfloat16)], fn))
        cs.append(fwd(op + "/float32_int64", op, [torch.tensor([2.0, 2.5, -1.0], dtype=torch.float32), torch.tensor([2, 2, -2])], fn))
        cs.append(error_case(op + "/bad_broadcast", op, [grid(r, (2, 3)), grid(r, (2,))], fn))
        # in-place: the result at self's dtype
        at = {"inplace": True}
        cs.append(fwd(op + "/inplace", op, [grid(r, (2, 3)), grid(r, (3,))], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_scalar", op, [grid(r, (2, 3)), 0.5], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_int_float", op, [ai, 0.5], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_int32_float_tensor", op, [ai.to(torch.int32), grid(r, (4,))], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_bool", op, [bb, torch.tensor([0.5, 0.0, 1.0, 1.0], dtype=f64)], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_float16", op, [h, 0.1], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_0d", op, [grid(r, ()), grid(r, ())], inplace(op), attrs=at))
        cs.append(error_case(op + "/inplace_bad_shape", op, [grid(r, (3,)), grid(r, (2, 3))], inplace(op), attrs=at))
        # narrow float dtypes
        for dt in NARROW:
            n = str(dt).split(".")[1]
            x, y = (r.randn((3, 4)) * 2).to(dt), (r.randn((4,)) * 2).to(dt)
            y[1] = x[0, 1]
            cs.append(fwd("%s/%s" % (op, n), op, [x, y], fn, mode="emulated"))
            cs.append(fwd("%s/%s_scalar" % (op, n), op, [x, 0.3], fn, mode="emulated"))
            cs.append(fwd("%s/%s_special" % (op, n), op, [special(dt), special_other(dt)], fn, mode="emulated"))
            cs.append(fwd("%s/%s_inplace" % (op, n), op, [x, y], inplace(op), attrs=at, mode="emulated"))
    return cs


# --------------------------------------------------------------------------
# logical ops

LOGICAL = {"logical_and": torch.logical_and, "logical_or": torch.logical_or, "logical_xor": torch.logical_xor}


def zeros_grid(r, shape, dtype=f64):
    """Values with many zeros (±0) among halves."""
    v = grid(r, shape)
    v[v.abs() == 0.5] = 0.0
    return v.to(dtype)


def logical_cases():
    cs = []
    at = {"inplace": True}
    for op, fn in LOGICAL.items():
        r = R(op)
        cs.append(fwd(op + "/same", op, [zeros_grid(r, (3, 4)), zeros_grid(r, (3, 4))], fn))
        cs.append(fwd(op + "/broadcast_row", op, [zeros_grid(r, (2, 3)), zeros_grid(r, (3,))], fn))
        cs.append(fwd(op + "/broadcast_both", op, [zeros_grid(r, (2, 1, 3)), zeros_grid(r, (4, 1))], fn))
        cs.append(fwd(op + "/0d", op, [torch.tensor(0.0, dtype=f64), torch.tensor(-1.5, dtype=f64)], fn))
        cs.append(fwd(op + "/0d_other", op, [zeros_grid(r, (2, 3)), torch.tensor(2.0, dtype=f64)], fn))
        cs.append(fwd(op + "/0d_other_zero", op, [zeros_grid(r, (2, 3)), torch.tensor(-0.0, dtype=f64)], fn))
        cs.append(fwd(op + "/empty", op, [zeros_grid(r, (0, 3)), zeros_grid(r, (3,))], fn))
        cs.append(fwd(op + "/special", op, [special(), special_other()], fn))
        cs.append(fwd(op + "/int_float", op, [r.randint(-1, 2, (2, 4)), zeros_grid(r, (4,))], fn))
        cs.append(fwd(op + "/int8_uint8", op, [torch.tensor([0, -1, 3, 0], dtype=torch.int8), torch.tensor([0, 0, 255, 7], dtype=torch.uint8)], fn))
        cs.append(fwd(op + "/bool_bool", op, [torch.tensor([True, False, True, False]), torch.tensor([True, True, False, False])], fn))
        cs.append(fwd(op + "/bool_float", op, [torch.tensor([True, False, True, False]), torch.tensor([0.5, 0.0, -0.0, float("nan")], dtype=f64)], fn))
        # a 0-d float64 operand is cast to the float32 of the other: 1e-320 becomes 0
        cs.append(fwd(op + "/0d_float64_underflows", op, [torch.tensor([1.0, 0.0], dtype=torch.float32), torch.tensor(1e-320, dtype=f64)], fn))
        cs.append(fwd(op + "/float64_float32", op, [torch.tensor([1e-320, 0.0], dtype=f64), torch.tensor([1.0, 1.0], dtype=torch.float32)], fn))
        cs.append(error_case(op + "/bad_broadcast", op, [zeros_grid(r, (2, 3)), zeros_grid(r, (2,))], fn))
        cs.append(fwd(op + "/inplace", op, [zeros_grid(r, (2, 3)), zeros_grid(r, (3,))], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_int", op, [r.randint(-2, 3, (4,)), zeros_grid(r, (4,))], inplace(op), attrs=at))
        cs.append(fwd(op + "/inplace_bool", op, [torch.tensor([True, False, True, False]), torch.tensor([1, 1, 0, 0])], inplace(op), attrs=at))
        cs.append(error_case(op + "/inplace_bad_shape", op, [zeros_grid(r, (3,)), zeros_grid(r, (2, 3))], inplace(op), attrs=at))
        for dt in NARROW:
            n = str(dt).split(".")[1]
            x, y = zeros_grid(r, (3, 4), dt), zeros_grid(r, (4,), dt)
            cs.append(fwd("%s/%s" % (op, n), op, [x, y], fn, mode="emulated"))
            cs.append(fwd("%s/%s_special" % (op, n), op, [special(dt), special_other(dt)], fn, mode="emulated"))
            cs.append(fwd("%s/%s_inplace" % (op, n), op, [x, y], inplace(op), attrs=at, mode="emulated"))
    op, fn = "logical_not", torch.logical_not
    r = R(op)
    inp = lambda x: x.clone().logical_not_()
    cs.append(fwd(op + "/2x3", op, [zeros_grid(r, (2, 3))], fn))
    cs.append(fwd(op + "/0d", op, [torch.tensor(-0.0, dtype=f64)], fn))
    cs.append(fwd(op + "/empty", op, [zeros_grid(r, (0, 3))], fn))
    cs.append(fwd(op + "/special", op, [special()], fn))
    cs.append(fwd(op + "/tiny", op, [torch.tensor([1e-320, -5e-324, 0.0], dtype=f64)], fn))
    cs.append(fwd(op + "/int32", op, [r.randint(-2, 3, (5,), torch.int32)], fn))
    cs.append(fwd(op + "/uint8", op, [torch.tensor([0, 1, 255], dtype=torch.uint8)], fn))
    cs.append(fwd(op + "/bool", op, [torch.tensor([True, False])], fn))
    cs.append(fwd(op + "/inplace", op, [zeros_grid(r, (2, 3))], inp, attrs={"inplace": True}))
    cs.append(fwd(op + "/inplace_int64", op, [r.randint(-2, 3, (5,))], inp, attrs={"inplace": True}))
    cs.append(fwd(op + "/inplace_bool", op, [torch.tensor([True, False])], inp, attrs={"inplace": True}))
    for dt in NARROW:
        n = str(dt).split(".")[1]
        cs.append(fwd("%s/%s" % (op, n), op, [zeros_grid(r, (3, 4), dt)], fn, mode="emulated"))
        cs.append(fwd("%s/%s_special" % (op, n), op, [special(dt)], fn, mode="emulated"))
        cs.append(fwd("%s/%s_inplace" % (op, n), op, [zeros_grid(r, (4,), dt)], inp, attrs={"inplace": True}, mode="emulated"))
    return cs


# --------------------------------------------------------------------------
# bitwise ops and shifts

BITWISE = {"bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor,
           "bitwise_left_shift": torch.bitwise_left_shift, "bitwise_right_shift": torch.bitwise_right_shift}
SHIFTS = ("bitwise_left_shift", "bitwise_right_shift")
INTS = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)


def bitwise_cases():
    cs = []
    at = {"inplace": True}
    for op, fn in BITWISE.items():
        r = R(op)
        shift = op in SHIFTS

        def vals(shape, dt=torch.int64):
            lo, hi = (-128, 128) if dt != torch.uint8 else (0, 256)
            return r.randint(lo, hi, shape).to(dt)

        def counts(shape, dt=torch.int64):
            return r.randint(0, 7, shape).to(dt) if shift else vals(shape, dt)

        cs.append(fwd(op + "/same", op, [vals((3, 4)), counts((3, 4))], fn))
        cs.append(fwd(op + "/broadcast_row", op, [vals((2, 3)), counts((3,))], fn))
        cs.append(fwd(op + "/broadcast_both", op, [vals((2, 1, 3)), counts((4, 1))], fn))
        cs.append(fwd(op + "/0d", op, [vals(()), counts(())], fn))
        cs.append(fwd(op + "/0d_other", op, [vals((2, 3)), torch.tensor(3)], fn))
        cs.append(fwd(op + "/empty", op, [vals((0, 3)), counts((3,))], fn))
        cs.append(fwd(op + "/scalar_int", op, [vals((2, 3)), 5], fn))
        for dt in INTS:
            n = str(dt).split(".")[1]
            cs.append(fwd("%s/%s" % (op, n), op, [vals((2, 5), dt), counts((5,), dt)], fn))
        cs.append(fwd(op + "/uint8_int8", op, [vals((4,), torch.uint8), counts((4,), torch.int8)], fn))
        cs.append(fwd(op + "/int8_int64_0d", op, [vals((4,), torch.int8), torch.tensor(3)], fn))
        cs.append(fwd(op + "/int8_scalar_wraps", op, [vals((4,), torch.int8), 258], fn))
        cs.append(fwd(op + "/bool_int_scalar", op, [torch.tensor([True, False, True]), 3], fn))
        if not shift:
            cs.append(fwd(op + "/bool_bool", op, [torch.tensor([True, False, True, False]), torch.tensor([True, True, False, False])], fn))
            cs.append(fwd(op + "/bool_scalar_bool", op, [torch.tensor([True, False]), True], fn))
            cs.append(fwd(op + "/int64_large", op, [torch.tensor([2**52 + 1, -(2**52) - 3, 2**40]), torch.tensor([2**52 - 1, 7, -1])], fn))
        else:
            cs.append(error_case(op + "/bool_bool", op, [torch.tensor([True, False]), torch.tensor([True, True])], fn))
            cs.append(error_case(op + "/bool_scalar_bool", op, [torch.tensor([True, False]), True], fn))
            # counts at and beyond the width, and negative: the CPU kernel
            # masks the count (64 for int64, 32 for the narrower types)
            cnt = [0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100, -1, -31, -33]
            for dt in INTS:
                n = str(dt).split(".")[1]
                c = torch.tensor(cnt, dtype=torch.int64).to(dt)
                base = torch.tensor([1, -1, 3, -128, 100, 5, -7, 1, 1, 1, 3, 3, 1, 1, 1, 1], dtype=torch.int64).to(dt)
                cs.append(fwd("%s/%s_wide_counts" % (op, n), op, [base, c], fn))
            cs.append(fwd(op + "/int64_scalar_64", op, [vals((4,)), 64], fn))
            cs.append(fwd(op + "/int32_scalar_33", op, [vals((4,), torch.int32), 33], fn))
        cs.append(error_case(op + "/float", op, [torch.tensor([1.0, 2.0], dtype=f64), torch.tensor([1.0, 1.0], dtype=f64)], fn))
        cs.append(error_case(op + "/int_scalar_float", op, [vals((2,)), 1.5], fn))
        cs.append(error_case(op + "/int_float16_0d", op, [vals((2,), torch.int8), torch.tensor(1.0, dtype=torch.float16)], fn))
        cs.append(error_case(op + "/float32_int", op, [torch.tensor([1.0], dtype=torch.float32), 1], fn))
        cs.append(error_case(op + "/bad_broadcast", op, [vals((2, 3)), counts((2,))], fn))
        ip = inplace(op)
        cs.append(fwd(op + "/inplace", op, [vals((2, 3)), counts((3,))], ip, attrs=at))
        cs.append(fwd(op + "/inplace_int8_int64", op, [vals((4,), torch.int8), counts((4,))], ip, attrs=at))
        cs.append(error_case(op + "/inplace_int_float", op, [vals((2,), torch.int16), 1.5], ip, attrs=at))
        cs.append(error_case(op + "/inplace_bool_int", op, [torch.tensor([True, False]), torch.tensor([1, 2])], ip, attrs=at))
        cs.append(error_case(op + "/inplace_float", op, [torch.tensor([1.0, 2.0], dtype=f64), 1], ip, attrs=at))
        cs.append(error_case(op + "/inplace_bad_shape", op, [vals((3,)), counts((2, 3))], ip, attrs=at))
        if not shift:
            cs.append(fwd(op + "/inplace_bool", op, [torch.tensor([True, False, True]), torch.tensor([False, False, True])], ip, attrs=at))
    op, fn = "bitwise_not", torch.bitwise_not
    r = R(op)
    inp = lambda x: x.clone().bitwise_not_()
    cs.append(fwd(op + "/2x3", op, [r.randint(-100, 100, (2, 3))], fn))
    cs.append(fwd(op + "/0d", op, [torch.tensor(5)], fn))
    cs.append(fwd(op + "/empty", op, [r.randint(0, 3, (0, 2))], fn))
    for dt in INTS:
        n = str(dt).split(".")[1]
        lo, hi = (-128, 128) if dt != torch.uint8 else (0, 256)
        cs.append(fwd("%s/%s" % (op, n), op, [r.randint(lo, hi, (6,)).to(dt)], fn))
    cs.append(fwd(op + "/bool", op, [torch.tensor([True, False])], fn))
    cs.append(fwd(op + "/inplace", op, [r.randint(-9, 9, (4,), torch.int32)], inp, attrs={"inplace": True}))
    cs.append(fwd(op + "/inplace_bool", op, [torch.tensor([True, False])], inp, attrs={"inplace": True}))
    cs.append(error_case(op + "/float", op, [torch.tensor([1.0], dtype=f64)], fn))
    cs.append(error_case(op + "/float16", op, [torch.tensor([1.0], dtype=torch.float16)], fn))
    cs.append(error_case(op + "/inplace_float", op, [torch.tensor([1.0], dtype=f64)], inp, attrs={"inplace": True}))
    return cs


# --------------------------------------------------------------------------
# predicates of one tensor

PREDICATES = {"isnan": torch.isnan, "isinf": torch.isinf, "isfinite": torch.isfinite, "isneginf": torch.isneginf,
              "isposinf": torch.isposinf, "isreal": torch.isreal, "signbit": torch.signbit}


def predicate_cases():
    cs = []
    for op, fn in PREDICATES.items():
        r = R(op)
        cs.append(fwd(op + "/2x3", op, [r.randn((2, 3))], fn))
        cs.append(fwd(op + "/0d", op, [torch.tensor(float("-inf"), dtype=f64)], fn))
        cs.append(fwd(op + "/empty", op, [r.randn((0, 3))], fn))
        cs.append(fwd(op + "/special", op, [special()], fn))
        # negative zero and subnormal (the corpus's "nan" carries no sign bit)
        cs.append(fwd(op + "/negative_tiny", op, [-torch.tensor([0.0, 5e-324, 1e-310], dtype=f64)], fn))
        for dt in (torch.int8, torch.int32, torch.int64, torch.uint8):
            n = str(dt).split(".")[1]
            cs.append(fwd("%s/%s" % (op, n), op, [torch.tensor([0, 1, -1, 7], dtype=torch.int64).to(dt)], fn))
        cs.append(fwd(op + "/bool", op, [torch.tensor([True, False])], fn))
        for dt in NARROW:
            n = str(dt).split(".")[1]
            cs.append(fwd("%s/%s" % (op, n), op, [special(dt)], fn, mode="emulated"))
            big = torch.tensor([1e39, -1e39, 70000.0, -70000.0, 1e-46, -1e-46], dtype=f64).to(dt)
            cs.append(fwd("%s/%s_overflow" % (op, n), op, [big], fn, mode="emulated"))
    return cs


# --------------------------------------------------------------------------
# isclose

def isclose_fn(rtol=1e-05, atol=1e-08, equal_nan=False):
    return lambda a, b: torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def near(r, x, rel, dtype=f64):
    """x perturbed by about rel relative and a tiny absolute amount."""
    return (x * (1 + rel * r.randn(x.shape)) + 1e-9 * r.randn(x.shape)).to(dtype)


def isclose_cases():
    cs = []
    op = "isclose"
    r = R(op)
    x = r.randn((4, 5))
    y = near(r, x, 1e-5)
    fn = isclose_fn()
    tol = lambda rt, at, en=False: {"rtol": rt, "atol": at, "equal_nan": en}
    cs.append(fwd(op + "/default", op, [x, y], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/rtol", op, [x, near(r, x, 1e-3)], isclose_fn(rtol=1e-3), attrs=tol(1e-3, 1e-08)))
    cs.append(fwd(op + "/atol", op, [x * 1e-3, near(r, x * 1e-3, 1e-2)], isclose_fn(atol=1e-6), attrs=tol(1e-05, 1e-06)))
    cs.append(fwd(op + "/zero_tols", op, [x, torch.where(r.bool((4, 5)), x, y)], isclose_fn(rtol=0.0, atol=0.0), attrs=tol(0.0, 0.0)))
    cs.append(fwd(op + "/broadcast", op, [x, near(r, x[0], 1e-5)], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/broadcast_both", op, [x[:, :1], near(r, x[0], 1e-5)], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/0d", op, [torch.tensor(1.0, dtype=f64), torch.tensor(1.000001, dtype=f64)], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/empty", op, [r.randn((0, 2)), r.randn((2,))], fn, attrs=tol(1e-05, 1e-08)))
    sp = torch.tensor([float("nan"), float("nan"), float("inf"), float("inf"), float("-inf"), 0.0, 1.0, float("nan")], dtype=f64)
    so = torch.tensor([float("nan"), 1.0, float("inf"), float("-inf"), float("-inf"), -0.0, float("inf"), float("inf")], dtype=f64)
    cs.append(fwd(op + "/special", op, [sp, so], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/special_equal_nan", op, [sp, so], isclose_fn(equal_nan=True), attrs=tol(1e-05, 1e-08, True)))
    cs.append(fwd(op + "/special_zero_tols", op, [sp, so], isclose_fn(rtol=0.0, atol=0.0, equal_nan=True), attrs=tol(0.0, 0.0, True)))
    cs.append(fwd(op + "/large_tols", op, [sp, so], isclose_fn(rtol=1.0, atol=1e300), attrs=tol(1.0, 1e300)))
    # boundary: |a - b| exactly atol
    cs.append(fwd(op + "/boundary", op, [torch.tensor([1.0, 1.0, 1.0], dtype=f64), torch.tensor([1.5, 1.25, 2.0], dtype=f64)],
                  isclose_fn(rtol=0.0, atol=0.5), attrs=tol(0.0, 0.5)))
    # integers compute the errors in float32: no wrapping; bool as float32
    cs.append(fwd(op + "/int8", op, [torch.tensor([-128, 100, 5, 3], dtype=torch.int8), torch.tensor([0, -100, 5, 5], dtype=torch.int8)],
                  isclose_fn(atol=2.0), attrs=tol(1e-05, 2.0)))
    cs.append(fwd(op + "/uint8", op, [torch.tensor([3, 250, 0], dtype=torch.uint8), torch.tensor([5, 5, 1], dtype=torch.uint8)],
                  isclose_fn(atol=2.0), attrs=tol(1e-05, 2.0)))
    cs.append(fwd(op + "/int64_rtol", op, [torch.tensor([1000, 1000, 16777217, -5]), torch.tensor([1001, 1002, 16777216, 5])],
                  isclose_fn(rtol=1e-3), attrs=tol(1e-3, 1e-08)))
    cs.append(fwd(op + "/int32_default", op, [torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([1, 3, 3], dtype=torch.int32)], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/bool", op, [torch.tensor([True, False, True]), torch.tensor([False, False, True])], isclose_fn(atol=1.0), attrs=tol(1e-05, 1.0)))
    cs.append(error_case(op + "/dtype_mismatch", op, [torch.tensor([1, 2]), torch.tensor([1.0, 2.0])], fn, attrs=tol(1e-05, 1e-08)))
    cs.append(error_case(op + "/negative_rtol", op, [x, y], isclose_fn(rtol=-0.5), attrs=tol(-0.5, 1e-08)))
    cs.append(error_case(op + "/negative_atol", op, [x, y], isclose_fn(atol=-1e-08), attrs=tol(1e-05, -1e-08)))
    cs.append(error_case(op + "/bad_broadcast", op, [x, y[:, :2]], fn, attrs=tol(1e-05, 1e-08)))
    # narrow dtypes: every step rounded to the dtype
    for dt in NARROW:
        n = str(dt).split(".")[1]
        for rt, at in ((1e-05, 1e-08), (1e-2, 1e-3), (0.1, 0.3)):
            xa = (r.randn((64,)) * 3).to(dt)
            ya = near(r, xa.to(f64), 3 * rt, dt)
            cs.append(fwd("%s/%s_r%g_a%g" % (op, n, rt, at), op, [xa, ya], isclose_fn(rt, at), attrs=tol(rt, at), mode="emulated"))
        cs.append(fwd("%s/%s_special" % (op, n), op, [sp.to(dt), so.to(dt)], isclose_fn(equal_nan=True), attrs=tol(1e-05, 1e-08, True), mode="emulated"))
        # elements where the rounding of each step decides: torch at the
        # dtype and torch in float64 disagree on them
        for rt, at in ((0.1, 0.3), (1e-2, 1e-3)):
            xa = (r.randn((20000,)) * 3).to(dt)
            ya = near(r, xa.to(f64), 3 * rt, dt)
            narrow = torch.isclose(xa, ya, rtol=rt, atol=at)
            wide = torch.isclose(xa.to(f64), ya.to(f64), rtol=rt, atol=at)
            pick = (narrow != wide).nonzero().flatten()[:12]
            pick = torch.cat([pick, torch.arange(4)])
            cs.append(fwd("%s/%s_r%g_a%g_rounding" % (op, n, rt, at), op, [xa[pick], ya[pick]], isclose_fn(rt, at),
                          attrs=tol(rt, at), mode="emulated"))
    return cs


# --------------------------------------------------------------------------
# isin

def isin_fn(assume_unique=False, invert=False):
    return lambda e, t: torch.isin(e, t, assume_unique=assume_unique, invert=invert)


def isin_cases():
    cs = []
    op = "isin"
    r = R(op)
    at = lambda au=False, inv=False: {"assume_unique": au, "invert": inv}
    e = r.randint(0, 10, (3, 4))
    t = torch.tensor([2, 5, 7])
    for au in (False, True):
        for inv in (False, True):
            sfx = "%s%s" % ("_unique" if au else "", "_invert" if inv else "")
            fn = isin_fn(au, inv)
            cs.append(fwd(op + "/int64" + sfx, op, [e, t], fn, attrs=at(au, inv)))
            # enough test elements for PyTorch's sorting path
            big = r.randint(0, 40, (30,))
            cs.append(fwd(op + "/int64_many" + sfx, op, [e, big], fn, attrs=at(au, inv)))
            cs.append(fwd(op + "/float_nan" + sfx, op, [special(), torch.tensor([0.0, float("nan"), float("-inf"), 1.5], dtype=f64)], fn, attrs=at(au, inv)))
            cs.append(fwd(op + "/float_nan_many" + sfx, op, [special(), torch.cat([torch.tensor([-0.0, float("nan"), float("inf")], dtype=f64), r.randn((40,))])], fn, attrs=at(au, inv)))
            cs.append(fwd(op + "/scalar_test" + sfx, op, [e, 5], fn, attrs=at(au, inv)))
            cs.append(fwd(op + "/scalar_elements" + sfx, op, [5, t], fn, attrs=at(au, inv)))
    # repeated elements with assume_unique: PyTorch's sorting path finds
    # an element followed by an equal one
    rep = torch.tensor([1, 1, 2, 3, 3, 9, 9, 9])
    cs.append(fwd(op + "/repeated_unique_sorting", op, [rep, torch.full((18,), 3)], isin_fn(True), attrs=at(True)))
    cs.append(fwd(op + "/repeated_unique_sorting_invert", op, [rep, torch.full((18,), 3)], isin_fn(True, True), attrs=at(True, True)))
    cs.append(fwd(op + "/repeated_unique_small", op, [rep, torch.tensor([3])], isin_fn(True), attrs=at(True)))
    cs.append(fwd(op + "/repeated_float_sorting", op, [torch.tensor([0.5, -0.0, 0.0, 0.5, float("nan"), float("nan")], dtype=f64), torch.full((20,), 7.0, dtype=f64)],
                  isin_fn(True), attrs=at(True)))
    cs.append(fwd(op + "/0d", op, [torch.tensor(5), t], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/empty_elements", op, [r.randint(0, 3, (0, 2)), t], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/empty_test", op, [e, torch.tensor([], dtype=torch.int64)], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/2d_test", op, [e, torch.tensor([[1, 2], [3, 4]])], isin_fn(), attrs=at()))
    # promotion: int elements vs float test, float16 vs float32, uint8 vs a wrapped negative int
    cs.append(fwd(op + "/int_float", op, [torch.tensor([1, 2, 3]), torch.tensor([2.5, 3.0], dtype=f64)], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/float16_float32", op, [torch.tensor([0.1, 0.5], dtype=torch.float16), torch.tensor([0.1, 0.5], dtype=torch.float32)], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/float16_scalar_rounds", op, [torch.tensor([0.1, 0.5], dtype=torch.float16), 0.1], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/uint8_scalar_negative", op, [torch.tensor([1, 2], dtype=torch.uint8), -254], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/scalar_int_float_test", op, [1, torch.tensor([1.5, 1.0], dtype=f64)], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/scalar_float_int_test", op, [1.5, torch.tensor([1, 2])], isin_fn(), attrs=at()))
    cs.append(fwd(op + "/int8_int32", op, [torch.tensor([-1, 100, 7], dtype=torch.int8), torch.tensor([255, 100], dtype=torch.int32)], isin_fn(), attrs=at()))
    cs.append(error_case(op + "/bool_elements", op, [torch.tensor([True]), torch.tensor([1])], isin_fn(), attrs=at()))
    cs.append(error_case(op + "/bool_test", op, [torch.tensor([1, 2]), torch.tensor([True])], isin_fn(), attrs=at()))
    cs.append(error_case(op + "/bool_scalar", op, [torch.tensor([1, 2]), True], isin_fn(), attrs=at()))
    cs.append(error_case(op + "/bfloat16", op, [torch.tensor([1.0], dtype=torch.bfloat16), torch.tensor([1.0], dtype=f64)], isin_fn(), attrs=at()))
    cs.append(error_case(op + "/bfloat16_test", op, [1.0, torch.tensor([1.0], dtype=torch.bfloat16)], isin_fn(), attrs=at()))
    cs.append(error_case(op + "/bfloat16_emulated", op, [(r.randint(-8, 8, (4,)).to(f64) / 4).to(torch.bfloat16), 0.25], isin_fn(), attrs=at(), mode="emulated"))
    for dt in (torch.float32, torch.float16):
        n = str(dt).split(".")[1]
        el = (r.randint(-8, 8, (4, 5)).to(f64) / 4).to(dt)
        tt = torch.tensor([0.25, -1.0, 0.1, float("nan")], dtype=f64).to(dt)
        # PyTorch 1.13's CPU has no float16 isin kernel: membership of the
        # float16 values computed in float32 is the same (the cast is exact)
        via = (lambda f: lambda e, t: f(e.float(), t.float())) if dt == torch.float16 else (lambda f: f)
        sfx = "_via_f32" if dt == torch.float16 else ""
        cs.append(fwd("%s/%s%s" % (op, n, sfx), op, [el, tt], via(isin_fn()), attrs=at(), mode="emulated"))
        cs.append(fwd("%s/%s_invert%s" % (op, n, sfx), op, [el, tt], via(isin_fn(invert=True)), attrs=at(False, True), mode="emulated"))
        cs.append(fwd("%s/%s_many%s" % (op, n, sfx), op, [el, torch.cat([tt, (r.randn((30,)) * 2).to(dt)])], via(isin_fn()), attrs=at(), mode="emulated"))
        cs.append(fwd("%s/%s_scalar" % (op, n), op, [el, 0.1], isin_fn(), attrs=at(), mode="emulated"))
    return cs


# --------------------------------------------------------------------------
# equal and allclose: PyTorch returns a Python bool; the ops a 0-d bool tensor

def as_tensor(f):
    return lambda a, b: torch.tensor(f(a, b))


def bool_result_cases():
    cs = []
    op, fn = "equal", as_tensor(torch.equal)
    r = R(op)
    x = grid(r, (3, 4))
    y = x.clone()
    y[1, 2] += 0.5
    cs.append(fwd(op + "/true", op, [x, x.clone()], fn))
    cs.append(fwd(op + "/false", op, [x, y], fn))
    cs.append(fwd(op + "/shape_differs", op, [x, x[0]], fn))
    cs.append(fwd(op + "/0d_vs_1d", op, [torch.tensor(1.0, dtype=f64), torch.tensor([1.0], dtype=f64)], fn))
    cs.append(fwd(op + "/0d", op, [torch.tensor(1.5, dtype=f64), torch.tensor(1.5, dtype=f64)], fn))
    cs.append(fwd(op + "/empty", op, [r.randn((0, 3)), r.randn((0, 3))], fn))
    cs.append(fwd(op + "/nan", op, [special(), special()], fn))
    cs.append(fwd(op + "/signed_zero", op, [torch.tensor([0.0, 1.0], dtype=f64), torch.tensor([-0.0, 1.0], dtype=f64)], fn))
    cs.append(fwd(op + "/int_float", op, [torch.tensor([1, 2]), torch.tensor([1.0, 2.0], dtype=f64)], fn))
    cs.append(fwd(op + "/float16_float32", op, [torch.tensor([0.1, 1.0], dtype=torch.float16), torch.tensor([0.1, 1.0], dtype=torch.float32)], fn))
    cs.append(fwd(op + "/int8_uint8", op, [torch.tensor([1, -1], dtype=torch.int8), torch.tensor([1, 255], dtype=torch.uint8)], fn))
    cs.append(fwd(op + "/bool", op, [torch.tensor([True, False]), torch.tensor([True, False])], fn))
    cs.append(fwd(op + "/int64", op, [torch.tensor([3, 4, 5]), torch.tensor([3, 4, 6])], fn))
    for dt in NARROW:
        n = str(dt).split(".")[1]
        a = r.randn((3, 4)).to(dt)
        b = a.clone()
        b[0, 0] = -b[0, 0] + 1
        cs.append(fwd("%s/%s_true" % (op, n), op, [a, a.clone()], fn, mode="emulated"))
        cs.append(fwd("%s/%s_false" % (op, n), op, [a, b], fn, mode="emulated"))

    op = "allclose"
    r = R(op)
    tol = lambda rt, at, en=False: {"rtol": rt, "atol": at, "equal_nan": en}
    ac = lambda rt=1e-05, at=1e-08, en=False: as_tensor(lambda a, b: torch.allclose(a, b, rtol=rt, atol=at, equal_nan=en))
    x = r.randn((4, 5))
    cs.append(fwd(op + "/true", op, [x, near(r, x, 1e-7)], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/false", op, [x, near(r, x, 1e-3)], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/rtol", op, [x, near(r, x, 1e-4)], ac(1e-2), attrs=tol(1e-2, 1e-08)))
    cs.append(fwd(op + "/broadcast", op, [x, near(r, x[0], 1e-9)], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/empty", op, [r.randn((0, 3)), r.randn((0, 3))], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/nan", op, [special(), special()], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(fwd(op + "/nan_equal_nan", op, [special(), special()], ac(en=True), attrs=tol(1e-05, 1e-08, True)))
    cs.append(fwd(op + "/int", op, [torch.tensor([3, 250]), torch.tensor([5, 251])], ac(at=2.0), attrs=tol(1e-05, 2.0)))
    cs.append(error_case(op + "/dtype_mismatch", op, [torch.tensor([1]), torch.tensor([1.0], dtype=f64)], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(error_case(op + "/bad_broadcast", op, [x, x[:, :2]], ac(), attrs=tol(1e-05, 1e-08)))
    cs.append(error_case(op + "/negative_rtol", op, [x, x], ac(-1.0), attrs=tol(-1.0, 1e-08)))
    for dt in NARROW:
        n = str(dt).split(".")[1]
        a = (r.randn((16,)) * 3).to(dt)
        cs.append(fwd("%s/%s_true" % (op, n), op, [a, near(r, a.to(f64), 1e-3, dt)], ac(1e-2, 1e-3), attrs=tol(1e-2, 1e-3), mode="emulated"))
        cs.append(fwd("%s/%s_false" % (op, n), op, [a, near(r, a.to(f64), 1e-1, dt)], ac(1e-2, 1e-3), attrs=tol(1e-2, 1e-3), mode="emulated"))
    return cs


def main():
    cs = []
    cs += comparison_cases()
    cs += logical_cases()
    cs += bitwise_cases()
    cs += predicate_cases()
    cs += isclose_cases()
    cs += isin_cases()
    cs += bool_result_cases()
    write_group("compare", cs)


if __name__ == "__main__":
    main()
