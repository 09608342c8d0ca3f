"""Golden cases for the optim family (sdk/ops/schema_optim.go): optimizer
arithmetic (addcmul, addcdiv), tensor creation and casts.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_optim.py

writes golden/optim.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer, bool and mixed cases keep their
natural dtypes so that result dtypes are checked); emulated cases compute at
float32, bfloat16 and float16 as PyTorch's CPU kernels do. Where PyTorch
1.13's CPU has no kernel at a dtype (addcmul and addcdiv at float16) the
case is computed in float32 and rounded to the dtype, and its name ends in
"_via_f32", as in gen_golden_dtypes.py.
"""

import torch

from golden_lib import Rand, case, error_case, write_group

f64 = torch.float64
f32 = torch.float32
NARROW = (torch.float32, torch.bfloat16, torch.float16)
# The CPU plugin's emulated kernels reproduce PyTorch's bit for bit where
# a case says so (other devices keep the kit's default tolerance).
EXACT = {"rtol": 0.0, "atol": 0.0, "ulp": 0.0}


def special(dtype=f64):
    """Values that exercise edge cases: zeros, NaN, infinities."""
    return torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.5, -2.0], dtype=dtype)


def via_f32(fn, d):
    """fn computed in float32, floating outputs rounded to d."""
    def wrapped(*xs):
        args = [x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        out = fn(*args)
        return out.to(d) if out.dtype == torch.float32 else out
    return wrapped


def has_kernel(fn, inputs):
    try:
        fn(*[x.detach().clone() if isinstance(x, torch.Tensor) else x for x in inputs])
        return True
    except RuntimeError:
        return False


# --------------------------------------------------------------------------
# addcmul, addcdiv

def addc_cases():
    cs = []
    for op in ("addcmul", "addcdiv"):
        fn = getattr(torch, op)
        method = op + "_"
        div = op == "addcdiv"
        r = Rand("optim/" + op)

        def den(shape, dtype=f64, r=r):
            """Denominators away from zero."""
            x = r.randn(shape)
            return (x + torch.sign(x) * 0.5).to(dtype)

        def f(s, a, b, v, fn=fn):
            return fn(s, a, b, value=v)

        def fi(s, a, b, v, m=method):
            return getattr(s.clone(), m)(a, b, value=v)

        # float64: shapes, broadcasting, value kinds, backward
        cs.append(case(op + "/2x3", op, [r.randn((2, 3)), r.randn((2, 3)), den((2, 3)), 1], f))
        cs.append(case(op + "/value_float", op, [r.randn((3, 4)), r.randn((3, 4)), den((3, 4)), -0.375], f))
        cs.append(case(op + "/value_int", op, [r.randn((4,)), r.randn((4,)), den((4,)), 3], f))
        cs.append(case(op + "/value_bool", op, [r.randn((4,)), r.randn((4,)), den((4,)), True], f))
        cs.append(case(op + "/broadcast", op, [r.randn((2, 1, 3)), r.randn((4, 1)), den((1, 4, 3)), 0.25], f))
        cs.append(case(op + "/broadcast_self", op, [r.randn((3,)), r.randn((2, 3)), den((2, 1)), 2.5], f))
        cs.append(case(op + "/0d", op, [r.randn(()), r.randn(()), den(()), 0.5], f))
        cs.append(case(op + "/0d_broadcast", op, [r.randn(()), r.randn((2, 3)), den(()), -1.5], f))
        cs.append(case(op + "/empty", op, [r.randn((0, 3)), r.randn((0, 3)), den((3,)), 0.5], f))
        cs.append(case(op + "/large", op, [r.randn((300,)), r.randn((300,)), den((300,)), 0.001], f, backward=False))
        sp = special()
        cs.append(case(op + "/special", op, [sp, sp.flip(0), torch.tensor([1.0, -2.0, 0.5, 2.0, -1.0, 0.0, -0.0], dtype=f64), 1.5], f,
                       backward=False))
        cs.append(case(op + "/special_value_nan", op, [r.randn((3,)), r.randn((3,)), den((3,)), float("nan")], f, backward=False))
        cs.append(case(op + "/special_value_inf", op, [r.randn((3,)), r.randn((3,)), den((3,)), float("-inf")], f, backward=False))
        cs.append(case(op + "/value_zero", op, [r.randn((3,)), torch.tensor([float("inf"), 1.0, 2.0], dtype=f64), den((3,)), 0.0], f,
                       backward=False))
        cs.append(case(op + "/inplace", op, [r.randn((2, 3)), r.randn((2, 3)), den((3,)), -0.5], fi, attrs={"inplace": True}))
        cs.append(case(op + "/inplace_float32_int", op, [r.randn((2, 3), f32), r.randint(-3, 4, (2, 3)), den((3,), f32), 0.5], fi,
                       attrs={"inplace": True}, backward=False))
        # mixed dtypes: promotion over the three tensors, 0-d tensors of a
        # higher category
        cs.append(case(op + "/mixed_int_self", op, [r.randint(-5, 5, (2, 3)), r.randn((2, 3), f32), den((2, 3), f32), 0.5], f,
                       backward=False))
        cs.append(case(op + "/mixed_f32_f64", op, [r.randn((2, 3), f32), r.randn((2, 3), f64), den((2, 3), f32), 0.5], f,
                       backward=False))
        cs.append(case(op + "/mixed_0d_f64", op, [r.randn((), f64), r.randn((2, 3), f32), den((2, 3), f32), 0.5], f,
                       backward=False))
        cs.append(case(op + "/mixed_int_tensor1", op, [r.randn((2, 3), f32), r.randint(-5, 5, (2, 3), torch.int32), den((2, 3), f32), 2],
                       f, backward=False))
        cs.append(case(op + "/mixed_bool_tensor2", op, [r.randn((2, 3), f32), r.randn((2, 3), f32), r.bool((2, 3)), 2], f, backward=False)
                  if not div else
                  case(op + "/mixed_bool_tensor1", op, [r.randn((2, 3), f32), r.bool((2, 3)), den((2, 3), f32), 2], f, backward=False))
        # errors PyTorch raises
        cs.append(error_case(op + "/broadcast_mismatch", op, [r.randn((2, 3)), r.randn((3,)), den((4,)), 1], f))
        cs.append(error_case(op + "/inplace_shape", op, [r.randn((3,)), r.randn((2, 3)), den((3,)), 1], fi, attrs={"inplace": True}))
        cs.append(error_case(op + "/inplace_int_float", op, [r.randint(-5, 5, (3,)), r.randn((3,)), den((3,)), 1], fi,
                             attrs={"inplace": True}))
        cs.append(error_case(op + "/value_overflow_float32", op, [r.randn((3,), f32), r.randn((3,), f32), den((3,), f32), 1e39], f))
        cs.append(error_case(op + "/value_overflow_bfloat16", op,
                             [r.randn((3,), torch.bfloat16), r.randn((3,), torch.bfloat16), den((3,), torch.bfloat16), -4e38], f))
        if div:
            for name, a, b in (("int", r.randint(1, 5, (3,)), r.randint(1, 5, (3,))),
                               ("int_bool", r.randint(1, 5, (3,), torch.int32), torch.tensor([True, True, False])),
                               ("int_float_self", r.randint(1, 5, (3,)), r.randint(1, 5, (3,)))):
                s = r.randn((3,)) if name == "int_float_self" else r.randint(0, 5, (3,))
                cs.append(error_case(op + "/" + name, op, [s, a, b, 1], f))
            cs.append(error_case(op + "/bool", op, [r.bool((3,)), r.bool((3,)), r.bool((3,)), 1], f))
        else:
            # integer arithmetic: value converted to the integer type
            # (float truncated toward zero, checked for overflow), wrapping
            cs.append(case(op + "/int64", op, [r.randint(-9, 9, (2, 3)), r.randint(-9, 9, (2, 3)), r.randint(-9, 9, (3,)), 3], f,
                           backward=False))
            cs.append(case(op + "/int32_value_float", op,
                           [r.randint(-9, 9, (5,), torch.int32), r.randint(-9, 9, (5,), torch.int32), r.randint(-9, 9, (5,), torch.int32), -2.75],
                           f, backward=False))
            cs.append(case(op + "/int8_wrap", op,
                           [r.randint(-100, 100, (6,), torch.int8), r.randint(-100, 100, (6,), torch.int8), r.randint(-100, 100, (6,), torch.int8), 7],
                           f, backward=False))
            cs.append(case(op + "/int16", op,
                           [r.randint(-300, 300, (4,), torch.int16), r.randint(-300, 300, (4,), torch.int16), r.randint(-300, 300, (4,), torch.int16), 2],
                           f, backward=False))
            cs.append(case(op + "/uint8_value_negative_int", op,
                           [r.randint(0, 255, (6,), torch.uint8), r.randint(0, 255, (6,), torch.uint8), r.randint(0, 255, (6,), torch.uint8), -1],
                           f, backward=False))
            cs.append(case(op + "/int64_value_bool", op, [r.randint(-9, 9, (3,)), r.randint(-9, 9, (3,)), r.randint(-9, 9, (3,)), True], f,
                           backward=False))
            cs.append(case(op + "/inplace_int", op, [r.randint(-9, 9, (3,)), r.randint(-9, 9, (3,)), r.randint(-9, 9, (3,), torch.int8), 2], fi,
                           attrs={"inplace": True}, backward=False))
            for name, d, v in (("int8", torch.int8, 128), ("int8_float", torch.int8, -128.5), ("int16", torch.int16, 40000),
                               ("int32", torch.int32, 3e9), ("int64", torch.int64, 1e19), ("uint8", torch.uint8, 256),
                               ("uint8_negative_float", torch.uint8, -1.0), ("uint8_negative_int", torch.uint8, -256),
                               ("int32_nan", torch.int32, float("nan"))):
                cs.append(error_case(op + "/value_overflow_" + name, op,
                                     [r.randint(0, 5, (3,), d), r.randint(0, 5, (3,), d), r.randint(0, 5, (3,), d), v], f))
            cs.append(error_case(op + "/bool", op, [r.bool((3,)), r.bool((3,)), r.bool((3,)), True], f))

        # narrow dtypes as PyTorch's CPU kernels compute them (float32
        # opmath, a fused multiply-add for addcmul); many elements so that
        # both the vectorised loop and its tail are exercised
        for d in NARROW:
            dn = str(d).replace("torch.", "")
            for shape, v, bwd in (((67,), 0.1, False), ((5, 7), -0.0123, True), ((4, 6), 3, True)):
                rr = Rand("optim/%s/%s/%s" % (op, dn, shape))
                s, a = rr.randn(shape, d), rr.randn(shape, d)
                x = rr.randn(shape)
                b = (x + torch.sign(x) * 0.5).to(d)
                inputs = [s, a, b, v]
                name = "%s/emu/%s/%s_%s" % (op, dn, "x".join(map(str, shape)), "bwd" if bwd else "fwd")
                g = f
                if not has_kernel(f, inputs):
                    g, name = via_f32(f, d), name + "_via_f32"
                cs.append(case(name, op, inputs, g, backward=bwd, mode="emulated", **EXACT))
            rr = Rand("optim/%s/%s/inplace" % (op, dn))
            x = rr.randn((9,))
            inputs = [rr.randn((9,), d), rr.randn((9,), d), (x + torch.sign(x) * 0.5).to(d), -0.001]
            name = "%s/emu/%s/inplace" % (op, dn)
            g = fi
            if not has_kernel(fi, inputs):
                g, name = via_f32(fi, d), name + "_via_f32"
            cs.append(case(name, op, inputs, g, attrs={"inplace": True}, backward=False, mode="emulated", **EXACT))
    return cs


# --------------------------------------------------------------------------
# lerp

def lerp_cases():
    cs = []
    op = "lerp"
    r = Rand("optim/lerp")

    def f(s, e, w):
        return torch.lerp(s, e, w)

    def fi(s, e, w):
        return s.clone().lerp_(e, w)

    def wts(shape, dtype=f64):
        """Weights on both branches (|w| < 0.5 and not), 0.5 included."""
        return r.rand(shape, f64, -0.6, 1.6).to(dtype)

    cs.append(case("lerp/scalar_small", op, [r.randn((2, 3)), r.randn((2, 3)), 0.25], f))
    cs.append(case("lerp/scalar_large", op, [r.randn((2, 3)), r.randn((2, 3)), 0.75], f))
    cs.append(case("lerp/scalar_half", op, [r.randn((4,)), r.randn((4,)), 0.5], f))
    cs.append(case("lerp/scalar_negative", op, [r.randn((4,)), r.randn((4,)), -0.3], f))
    cs.append(case("lerp/scalar_int", op, [r.randn((4,)), r.randn((4,)), 2], f))
    cs.append(case("lerp/scalar_bool", op, [r.randn((4,)), r.randn((4,)), True], f))
    cs.append(case("lerp/tensor", op, [r.randn((3, 4)), r.randn((3, 4)), wts((3, 4))], f))
    cs.append(case("lerp/tensor_broadcast", op, [r.randn((2, 1, 3)), r.randn((4, 1)), wts((1, 4, 3))], f))
    cs.append(case("lerp/scalar_broadcast", op, [r.randn((3,)), r.randn((2, 3)), 0.125], f))
    cs.append(case("lerp/tensor_0d_weight", op, [r.randn((2, 3)), r.randn((2, 3)), wts(())], f))
    cs.append(case("lerp/0d", op, [r.randn(()), r.randn(()), wts(())], f))
    cs.append(case("lerp/empty", op, [r.randn((0, 3)), r.randn((0, 3)), 0.5], f))
    sp = special()
    cs.append(case("lerp/special", op, [sp, sp.flip(0), 0.3], f, backward=False))
    cs.append(case("lerp/special_large", op, [sp, sp.flip(0), 0.9], f, backward=False))
    cs.append(case("lerp/special_weight", op, [r.randn((7,)), r.randn((7,)), special()], f, backward=False))
    cs.append(case("lerp/scalar_nan", op, [r.randn((3,)), r.randn((3,)), float("nan")], f, backward=False))
    cs.append(case("lerp/scalar_inf", op, [r.randn((3,)), r.randn((3,)), float("inf")], f, backward=False))
    cs.append(case("lerp/inplace", op, [r.randn((2, 3)), r.randn((3,)), 0.4], fi, attrs={"inplace": True}))
    cs.append(case("lerp/inplace_tensor", op, [r.randn((2, 3)), r.randn((2, 3)), wts((3,))], fi, attrs={"inplace": True}))
    cs.append(case("lerp/float32", op, [r.randn((5,), f32), r.randn((5,), f32), wts((5,), f32)], f, backward=False))
    # errors PyTorch raises
    cs.append(error_case("lerp/end_dtype", op, [r.randn((3,), f32), r.randn((3,)), 0.5], f))
    cs.append(error_case("lerp/weight_dtype", op, [r.randn((3,), f32), r.randn((3,), f32), wts((3,))], f))
    cs.append(error_case("lerp/end_dtype_bf16", op, [r.randn((3,)), r.randn((3,), torch.bfloat16), 0.5], f))
    cs.append(error_case("lerp/int", op, [r.randint(0, 5, (3,)), r.randint(0, 5, (3,)), 1], f))
    cs.append(error_case("lerp/int_tensor", op, [r.randint(0, 5, (3,)), r.randint(0, 5, (3,)), r.randint(0, 5, (3,))], f))
    cs.append(error_case("lerp/bool", op, [r.bool((3,)), r.bool((3,)), True], f))
    cs.append(error_case("lerp/broadcast_mismatch", op, [r.randn((3,)), r.randn((4,)), 0.5], f))
    cs.append(error_case("lerp/inplace_shape", op, [r.randn((3,)), r.randn((2, 3)), 0.5], fi, attrs={"inplace": True}))
    cs.append(error_case("lerp/value_overflow_float32", op, [r.randn((3,), f32), r.randn((3,), f32), 1e39], f))
    # narrow dtypes as PyTorch's CPU kernels compute them
    for d in NARROW:
        dn = str(d).replace("torch.", "")
        for label, shape, w, bwd in (("scalar", (67,), 0.3, False), ("scalar_large", (5, 7), 0.7, True),
                                     ("scalar_neg", (4, 6), -0.123, True), ("tensor", (67,), None, False),
                                     ("tensor", (5, 7), None, True)):
            rr = Rand("optim/lerp/%s/%s/%s" % (dn, label, shape))
            s, e = rr.randn(shape, d), rr.randn(shape, d)
            if w is None:
                w = rr.rand(shape, f64, -0.6, 1.6).to(d)
            inputs = [s, e, w]
            name = "lerp/emu/%s/%s_%s_%s" % (dn, label, "x".join(map(str, shape)), "bwd" if bwd else "fwd")
            g = f
            if not has_kernel(f, inputs):
                g, name = via_f32(f, d), name + "_via_f32"
            cs.append(case(name, op, inputs, g, backward=bwd, mode="emulated", **EXACT))
    return cs


# --------------------------------------------------------------------------
# arange, range

def arange_cases():
    cs = []
    import warnings
    warnings.simplefilter("ignore")  # torch.range is deprecated

    def ar(dtype=None, inclusive=False):
        fn = torch.range if inclusive else torch.arange

        def f(s, e, st):
            return fn(s, e, st, dtype=dtype)
        return f

    def add(name, inputs, dtype=None, inclusive=False, mode="bench", error=False, **kw):
        # The dtype attribute is always set, as the lowering sets it from
        # PyTorch's inference (torch computes with dtype=None here): it is
        # the call dtype of a call without tensor inputs.
        dt = dtype
        if dt is None:
            dt = torch.float32 if inclusive or any(isinstance(v, float) for v in inputs) else torch.int64
        attrs = {"dtype": dt, "inclusive": inclusive}
        op = "arange"
        if error:
            cs.append(error_case(name, op, inputs, ar(dtype, inclusive), attrs=attrs, mode=mode))
        else:
            cs.append(case(name, op, inputs, ar(dtype, inclusive), attrs=attrs, backward=False, mode=mode, **kw))

    # dtype inference (attribute None) and explicit dtypes
    add("arange/int_infer", [0, 7, 1])
    add("arange/int_step", [-3, 12, 4])
    add("arange/int_negative_step", [10, -3, -3])
    add("arange/float_infer", [0, 2.5, 0.5])
    add("arange/float_end_infer", [0, 3.7, 1])
    add("arange/bool_infer", [False, True, 1])
    add("arange/float64", [0.1, 3.3, 0.37], dtype=f64)
    add("arange/float64_negative_step", [2.0, -1.3, -0.29], dtype=f64)
    add("arange/float64_ints", [0, 5, 1], dtype=f64)
    add("arange/float64_inexact_length", [0.0, 1.0, 0.1], dtype=f64)
    add("arange/empty", [3, 3, 1], dtype=f64)
    add("arange/empty_int", [3, 3, 2])
    add("arange/large", [0.0, 5000.0, 1.25], dtype=f64)
    add("arange/int32_float_bounds", [-2.5, 3, 1.5], dtype=torch.int32)
    add("arange/int64_float_bounds", [-2.5, 3, 1.0], dtype=torch.int64)
    add("arange/int64_truncated_start", [0.5, 3, 1])
    add("arange/uint8_wrap", [0, 300, 7], dtype=torch.uint8)
    add("arange/int8", [-100, 100, 9], dtype=torch.int8)
    add("arange/int16", [5, -20, -3], dtype=torch.int16)
    add("range/float_infer", [1, 4, 1], inclusive=True)
    add("range/float64", [0.0, 1.0, 0.3], dtype=f64, inclusive=True)
    add("range/float64_negative", [1.5, -1.5, -0.5], dtype=f64, inclusive=True)
    add("range/int64", [1, 10, 2], dtype=torch.int64, inclusive=True)
    add("range/int64_float_step", [0, 5, 1.5], dtype=torch.int64, inclusive=True)
    # errors PyTorch raises
    add("arange/step_zero", [0, 5, 0], error=True)
    add("arange/step_zero_truncated", [0, 2.5, 0.5], dtype=torch.int64, error=True)
    add("arange/sign", [5, 0, 1], error=True)
    add("arange/inf", [0, float("inf"), 1], dtype=f64, error=True)
    add("arange/nan", [0, float("nan"), 1], dtype=f64, error=True)
    add("arange/bool", [0, 5, 1], dtype=torch.bool, error=True)
    add("arange/int64_overflow", [0, 1e20, 1e18], dtype=torch.int64, error=True)
    add("range/step_zero", [0, 5, 0], inclusive=True, error=True)
    add("range/sign", [5, 0, 1], inclusive=True, error=True)
    add("range/bool", [0, 5, 1], dtype=torch.bool, inclusive=True, error=True)
    # narrow dtypes. PyTorch's vectorised loop adds j*step to a base
    # rounded to the dtype, vector by vector (its width depends on the
    # CPU), so its values are within an ulp or two of the correctly rounded
    # start + step*i that probe computes, except near a cancellation to 0:
    # the cases keep away from one.
    for d in NARROW:
        dn = str(d).replace("torch.", "")
        add("arange/emu/%s/fractional" % dn, [0.3, 9.9, 0.0625], dtype=d, mode="emulated")
        add("arange/emu/%s/ints" % dn, [0, 300, 1], dtype=d, mode="emulated")
        add("arange/emu/%s/large" % dn, [1000, 1030, 0.5], dtype=d, mode="emulated")
        # torch.range has no float16 CPU kernel in 1.13 (a device that runs
        # arange at float16 need not run range there): no case
        if d != torch.float16:
            add("range/emu/%s" % dn, [0, 2, 0.25], dtype=d, inclusive=True, mode="emulated")
    return cs


if __name__ == "__main__":
    write_group("optim", addc_cases() + lerp_cases() + arange_cases())
