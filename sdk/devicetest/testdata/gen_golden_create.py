"""Golden cases for the create family (sdk/ops/schema_create.go): casts and
tensor creation.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_create.py

writes golden/create.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer, bool and mixed cases keep their
natural dtypes so that result dtypes are checked); emulated cases compute at
float32, bfloat16 and float16 as PyTorch's CPU kernels do.
"""

import torch

from golden_lib import Rand, case, error_case, write_group

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
NARROW = (f32, bf16, f16)
# The CPU plugin reproduces these bit for bit.
EXACT = {"rtol": 0.0, "atol": 0.0, "ulp": 0.0}


def dn(d):
    return str(d).replace("torch.", "")


def special(dtype=f64):
    """Values that exercise edge cases: zeros, NaN, infinities."""
    return torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.5, -2.0], dtype=dtype)


# --------------------------------------------------------------------------
# cast

def cast_cases():
    cs = []
    op = "cast"
    r = Rand("create/cast")

    def to(d):
        def f(x):
            return x.to(d)
        return f

    def add(name, x, d, backward=None, mode="bench", **kw):
        if backward is None:
            backward = x.dtype.is_floating_point and d.is_floating_point
        cs.append(case("cast/" + name, op, [x], to(d), attrs={"dtype": d}, backward=backward, mode=mode, **kw))

    # float to float, with the gradient cast back
    add("f64_f32", r.randn((3, 4)), f32)
    add("f64_f16", r.randn((3, 4)), f16)
    add("f64_bf16", r.randn((3, 4)), bf16)
    add("f64_f64", r.randn((2, 3)), f64)
    add("f32_f64", r.randn((2, 3), f32), f64)
    add("0d", r.randn(()), f32)
    add("empty", r.randn((0, 3)), f16)
    add("large", r.randn((17, 33)), f32, backward=False)
    # float64 reaches float16 and bfloat16 through float32: a double rounding
    add("f64_f16_double_rounding", torch.tensor([1 + 2 ** -11 + 2 ** -40, 1 + 2 ** -11, -(1 + 3 * 2 ** -11 - 2 ** -40), 65504.0, 65520.0, 1e-8], dtype=f64), f16,
        backward=False)
    add("f64_bf16_double_rounding", torch.tensor([1 + 2 ** -8 + 2 ** -40, 1 + 2 ** -8, -(1 + 3 * 2 ** -8 - 2 ** -40), 3e38, 1e-40], dtype=f64), bf16,
        backward=False)
    add("f64_f32_overflow", torch.tensor([1e39, -1e39, 3.4028235e38, 1e-46], dtype=f64), f32, backward=False)
    add("f64_f16_overflow", torch.tensor([1e5, -65520.0, 6e-8, 1e-9], dtype=f64), f16, backward=False)
    for d in (f32, f16, bf16, f64):
        add("special_" + dn(d), special(), d, backward=False)
    add("special_bool", special(), torch.bool)
    # float to integers: truncation toward zero, wrapped
    x = torch.tensor([-2.75, -1.5, -0.5, -0.0, 0.25, 0.99, 1.0, 7.5, 126.9], dtype=f64)
    for d in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
        add("f64_" + dn(d), x, d)
    add("f64_int8_wrap", torch.tensor([300.7, -129.9, 255.5, -200.0], dtype=f64), torch.int8)
    add("f64_uint8_wrap", torch.tensor([-1.5, 300.7, 256.0, -255.0], dtype=f64), torch.uint8)
    add("f32_int64", r.randn((2, 5), f32) * 100, torch.int64)
    add("f16_int32", (r.randn((7,)) * 50).to(f16), torch.int32)
    add("bf16_int16", (r.randn((7,)) * 500).to(bf16), torch.int16)
    # integers and bool to floats and integers
    big = torch.tensor([2 ** 24 + 1, 2 ** 53 + 1, -(2 ** 60) - 2 ** 36 - 1, 3, -7, 0], dtype=torch.int64)
    add("i64_f64", big, f64)
    add("i64_f32", big, f32)
    add("i64_f16", torch.tensor([2049, 2051, -70000, 65519, 65520, 1], dtype=torch.int64), f16)
    add("i64_bf16", torch.tensor([257, 259, 2 ** 24 + 2 ** 16 + 1, -3, 2 ** 40 + 2 ** 32 + 2 ** 16], dtype=torch.int64), bf16)
    add("i64_i32_wrap", torch.tensor([2 ** 31, -(2 ** 31) - 1, 2 ** 40 + 5, -3], dtype=torch.int64), torch.int32)
    add("i32_i8_wrap", torch.tensor([127, 128, -129, 1000, -1000], dtype=torch.int32), torch.int8)
    add("i16_u8_wrap", torch.tensor([-1, 255, 256, -300, 7], dtype=torch.int16), torch.uint8)
    add("u8_i8", torch.tensor([0, 127, 128, 255], dtype=torch.uint8), torch.int8)
    add("i8_u8", torch.tensor([-128, -1, 0, 127], dtype=torch.int8), torch.uint8)
    add("i64_bool", torch.tensor([0, 1, -1, 2 ** 40], dtype=torch.int64), torch.bool)
    add("i32_i64", r.randint(-100, 100, (3, 2), torch.int32), torch.int64)
    add("bool_f64", r.bool((2, 3)), f64)
    add("bool_i64", r.bool((2, 3)), torch.int64)
    add("bool_bool", r.bool((4,)), torch.bool)
    add("u8_f32", torch.tensor([0, 1, 200, 255], dtype=torch.uint8), f32)
    # narrow dtypes, the gradient cast back
    for d in NARROW:
        for t in (f64, f32, f16, bf16):
            if t == d:
                continue
            rr = Rand("create/cast/%s/%s" % (dn(d), dn(t)))
            add("emu/%s_%s" % (dn(d), dn(t)), rr.randn((5, 7), d), t, mode="emulated", **EXACT)
        add("emu/%s_int64" % dn(d), (Rand("create/cast/int/" + dn(d)).randn((9,)) * 30).to(d), torch.int64, mode="emulated", **EXACT)
        add("emu/%s_same" % dn(d), Rand("create/cast/same/" + dn(d)).randn((4,), d), d, mode="emulated", **EXACT)
    return cs


# --------------------------------------------------------------------------
# fill (Tensor.fill_, torch.full_like, zeros_like), full (torch.full,
# scalar_tensor)

def fill_cases():
    cs = []
    op = "fill"
    r = Rand("create/fill")

    def fill_(x, v):
        return x.clone().fill_(v)

    def like(dtype):
        def f(x, v):
            return torch.full_like(x, v, dtype=dtype)
        return f

    def add(name, inputs, fn=fill_, dtype=None, backward=True, mode="bench", error=False, **kw):
        attrs = {"dtype": dtype}
        if error:
            cs.append(error_case("fill/" + name, op, inputs, fn, attrs=attrs, mode=mode))
        else:
            cs.append(case("fill/" + name, op, inputs, fn, attrs=attrs, backward=backward, mode=mode, **kw))

    add("float", [r.randn((2, 3)), 0.5])
    add("int_value", [r.randn((3,)), 2])
    add("bool_value", [r.randn((3,)), True])
    add("tensor_value", [r.randn((2, 3)), r.randn(())])
    add("tensor_value_f32", [r.randn((4,)), r.randn((), f32)])
    add("tensor_value_int", [r.randn((4,)), torch.tensor(3)])
    add("tensor_value_into_int", [r.randint(-5, 5, (3,)), torch.tensor(2.5, dtype=f64)], backward=False)
    add("0d", [r.randn(()), -1.25])
    add("empty", [r.randn((0, 3)), 1.0])
    add("nan", [r.randn((3,)), float("nan")], backward=False)
    add("inf_f16", [r.randn((3,), f16), float("-inf")], backward=False)
    add("float_into_int64", [r.randint(-5, 5, (2, 2)), 2.7], backward=False)
    add("float_into_int8", [r.randint(-5, 5, (3,), torch.int8), -2.7], backward=False)
    add("int_into_uint8_wraps", [r.randint(0, 5, (3,), torch.uint8), -1], backward=False)
    add("float_into_bool", [r.bool((3,)), 2.5], backward=False)
    add("nan_into_bool", [r.bool((3,)), float("nan")], backward=False)
    add("bool_into_int64", [r.randint(-5, 5, (3,)), True], backward=False)
    add("int_into_f16", [r.randn((3,), f16), 2049], backward=False)
    add("f64_into_f16_double_rounding", [r.randn((2,), f16), 1 + 2 ** -11 + 2 ** -40], backward=False)
    add("max_f16", [r.randn((2,), f16), 65504.0], backward=False)
    add("max_bf16", [r.randn((2,), bf16), 3.3895313892515355e38], backward=False)
    # torch.full_like and zeros_like: the dtype argument
    add("like", [r.randn((2, 3)), 0.25], fn=like(None))
    add("like_dtype_f64", [r.randint(-5, 5, (2,), torch.int32), 2.7], fn=like(f64), dtype=f64, backward=False)
    add("like_dtype_int", [r.randn((3,)), -2.7], fn=like(torch.int32), dtype=torch.int32, backward=False)
    add("like_dtype_bool", [r.randn((3,)), 0], fn=like(torch.bool), dtype=torch.bool, backward=False)
    add("like_tensor_value", [r.randn((3,)), torch.tensor(1.5, dtype=f64)], fn=like(None), backward=False)
    add("zeros_like_f16", [r.randn((2, 2)), 0], fn=like(f16), dtype=f16, backward=False)
    # errors PyTorch raises: the value must fit the dtype
    add("overflow_int8", [r.randint(0, 5, (3,), torch.int8), 300], error=True)
    add("overflow_int8_float", [r.randint(0, 5, (3,), torch.int8), 127.5], error=True)
    add("overflow_uint8_negative_float", [r.randint(0, 5, (3,), torch.uint8), -0.5], error=True)
    add("overflow_int32_nan", [r.randint(0, 5, (3,), torch.int32), float("nan")], error=True)
    add("overflow_int64", [r.randint(0, 5, (3,)), 9.3e18], error=True)
    add("overflow_f32", [r.randn((3,), f32), 1e39], error=True)
    add("overflow_f16", [r.randn((3,), f16), 65519.0], error=True)
    add("overflow_f16_int", [r.randn((3,), f16), 70000], error=True)
    add("overflow_bf16", [r.randn((3,), bf16), 3.39e38], error=True)
    add("overflow_tensor_value", [r.randint(0, 5, (3,), torch.int8), torch.tensor(300)], error=True)
    add("overflow_like_dtype", [r.randn((3,)), 1000], fn=like(torch.int8), dtype=torch.int8, error=True)
    add("value_not_0d", [r.randn((3,)), r.randn((3,))], error=True)
    # narrow dtypes
    for d in NARROW:
        rr = Rand("create/fill/" + dn(d))
        add("emu/%s/float" % dn(d), [rr.randn((5, 7), d), 0.1], backward=False, mode="emulated", **EXACT)
        add("emu/%s/tensor_value" % dn(d), [rr.randn((5, 7), d), rr.randn((), d)], mode="emulated")
        add("emu/%s/like_f64" % dn(d), [rr.randn((3,), d), 0.1], fn=like(f64), dtype=f64, backward=False, mode="emulated", **EXACT)
    return cs


def full_cases():
    cs = []
    op = "full"

    def add(name, size, v, dtype=None, mode="bench", error=False, scalar_tensor=False):
        if scalar_tensor:
            def f(x):
                return torch.scalar_tensor(x, dtype=dtype)
            dt = dtype or f32
        else:
            def f(x):
                return torch.full(size, x, dtype=dtype)
            dt = dtype
            if dt is None:
                dt = torch.bool if isinstance(v, bool) else f32 if isinstance(v, float) else torch.int64
        attrs = {"size": list(size), "dtype": dt}
        if error:
            cs.append(error_case("full/" + name, op, [v], f, attrs=attrs, mode=mode))
        else:
            cs.append(case("full/" + name, op, [v], f, attrs=attrs, backward=False, mode=mode))

    add("int", (2, 3), 7)
    add("float", (4,), 0.1)
    add("bool", (2,), True)
    add("0d", (), -3)
    add("empty", (0, 2), 1.5)
    add("f64", (3,), 0.1, dtype=f64)
    add("int_f64", (2, 2), 3, dtype=f64)
    add("float_int32", (3,), -2.7, dtype=torch.int32)
    add("int_uint8_wraps", (2,), -1, dtype=torch.uint8)
    add("nan", (2,), float("nan"), dtype=f64)
    add("inf_f16", (2,), float("inf"), dtype=f16)
    add("float_bool", (2,), 0.5, dtype=torch.bool)
    add("scalar_tensor_int", (), 3, scalar_tensor=True)
    add("scalar_tensor_bool", (), True, scalar_tensor=True)
    add("scalar_tensor_f64", (), 0.1, dtype=f64, scalar_tensor=True)
    add("scalar_tensor_int8", (), 2.5, dtype=torch.int8, scalar_tensor=True)
    add("negative_size", (2, -1), 1, error=True)
    add("overflow_int8", (2,), 300, dtype=torch.int8, error=True)
    add("overflow_f32", (2,), 1e39, error=True)
    add("overflow_f16", (2,), 70000, dtype=f16, error=True)
    add("overflow_scalar_tensor", (), 1e39, scalar_tensor=True, error=True)
    for d in NARROW:
        add("emu/%s" % dn(d), (3, 5), 0.1, dtype=d, mode="emulated")
        add("emu/%s/int" % dn(d), (3,), 2049, dtype=d, mode="emulated")
    return cs


# --------------------------------------------------------------------------
# tril, triu

def triangle_cases():
    cs = []
    for op in ("tril", "triu"):
        r = Rand("create/" + op)
        fn = getattr(torch, op)

        def f(x, d=0, fn=fn):
            return fn(x, d)

        def fi(x, d=0, op=op):
            return getattr(x.clone(), op + "_")(d)

        def add(name, x, d=0, inplace=False, mode="bench", error=False, **kw):
            g = (lambda t: fi(t, d)) if inplace else (lambda t: f(t, d))
            attrs = {"diagonal": d, "inplace": inplace}
            if error:
                cs.append(error_case(op + "/" + name, op, [x], g, attrs=attrs, mode=mode))
            else:
                cs.append(case(op + "/" + name, op, [x], g, attrs=attrs, mode=mode, **kw))

        add("square", r.randn((4, 4)))
        add("wide", r.randn((3, 5)), 1)
        add("tall", r.randn((5, 3)), -1)
        add("batched", r.randn((2, 3, 4, 4)), 2)
        add("diagonal_beyond", r.randn((3, 4)), 7)
        add("diagonal_below", r.randn((3, 4)), -5)
        add("empty", r.randn((0, 3)))
        add("empty_batch", r.randn((2, 0, 3)))
        add("special", special().reshape(7, 1).expand(7, 3).contiguous(), -1, backward=False)
        add("inplace", r.randn((3, 3)), 1, inplace=True)
        add("int64", r.randint(-9, 9, (3, 4)), 0)
        add("bool", r.bool((4, 3)), -1)
        add("uint8", r.randint(0, 255, (3, 3), torch.uint8), 1)
        add("large", r.randn((2, 17, 33)), -3, backward=False)
        add("1d", r.randn((3,)), error=True)
        add("0d", r.randn(()), error=True)
        for d in NARROW:
            rr = Rand("create/%s/%s" % (op, dn(d)))
            add("emu/%s" % dn(d), rr.randn((5, 7), d), 1, mode="emulated", **EXACT)
            add("emu/%s/inplace" % dn(d), rr.randn((2, 4, 4), d), -1, inplace=True, mode="emulated", **EXACT)
    return cs


# --------------------------------------------------------------------------
# eye

def eye_cases():
    cs = []

    def add(name, n, m=None, dtype=None, mode="bench", error=False):
        # m=None is lowered to m=n
        def f(n, m):
            return torch.eye(n, m, dtype=dtype)
        inputs = [n, n if m is None else m]
        attrs = {"dtype": dtype or f32}
        if error:
            cs.append(error_case("eye/" + name, "eye", inputs, f, attrs=attrs, mode=mode))
        else:
            cs.append(case("eye/" + name, "eye", inputs, f, attrs=attrs, backward=False, mode=mode))

    add("square", 4)
    add("wide", 2, 5, dtype=f64)
    add("tall", 5, 3, dtype=f64)
    add("empty", 0)
    add("empty_cols", 3, 0, dtype=f64)
    add("int64", 3, dtype=torch.int64)
    add("bool", 2, 3, dtype=torch.bool)
    add("uint8", 3, 2, dtype=torch.uint8)
    add("negative_n", -1, error=True)
    add("negative_m", 2, -3, error=True)
    for d in NARROW:
        try:
            torch.eye(1, dtype=d)
            add("emu/%s" % dn(d), 3, 4, dtype=d, mode="emulated")
        except RuntimeError:
            # no CPU kernel at the dtype in PyTorch 1.13 (bfloat16): the
            # float32 result rounded, as in gen_golden_dtypes.py
            cs.append(case("eye/emu/%s_via_f32" % dn(d), "eye", [3, 4], lambda n, m: torch.eye(n, m).to(d),
                           attrs={"dtype": d}, backward=False, mode="emulated"))
    return cs


if __name__ == "__main__":
    write_group("create", cast_cases() + fill_cases() + full_cases() + triangle_cases() + eye_cases())
