"""Golden cases for the CPU plugin's elementwise, reduction and shape kernels.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden.py

writes golden/{unary,binary,select,reduce,shape,emulated}.json.gz from real
PyTorch (see golden_lib.py for the format). Inputs are small seeded random
tensors; bench cases compute in float64 (int/bool/low-precision cases keep
their natural dtype so that result dtypes are checked too); emulated cases
compute at float16/bfloat16/float32 as PyTorch's CPU kernels do.
"""

import torch
import torch.nn.functional as F

from golden_lib import Rand, attr, case, error_case, write_group

torch.manual_seed(0)
f64 = torch.float64


def R(name):
    return Rand(name)


def special(dtype=f64):
    """Values that exercise edge cases: zeros, NaN, infinities."""
    return torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.5, -2.0], dtype=dtype)


# --------------------------------------------------------------------------
# unary ops

UNARY = {
    "neg": torch.neg, "abs": torch.abs, "exp": torch.exp, "log": torch.log,
    "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal,
    "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu,
    "silu": F.silu, "sin": torch.sin, "cos": torch.cos,
}
POSITIVE = {"log", "sqrt", "rsqrt"}
INPLACE = {"neg": "neg_", "abs": "abs_", "exp": "exp_", "log": "log_", "sqrt": "sqrt_",
           "rsqrt": "rsqrt_", "reciprocal": "reciprocal_", "tanh": "tanh_", "sigmoid": "sigmoid_",
           "relu": "relu_", "sin": "sin_", "cos": "cos_"}


def unary_input(op, r, shape, dtype=f64):
    if op in POSITIVE:
        return r.rand(shape, dtype, 0.1, 3.0)
    if op == "reciprocal":
        x = r.randn(shape, f64)
        return (x + torch.sign(x) * 0.3).to(dtype)
    return (r.randn(shape, f64) * 2).to(dtype)


def unary_cases():
    cs = []
    for op, fn in UNARY.items():
        r = R("unary/" + op)
        cs.append(case(op + "/2x3", op, [unary_input(op, r, (2, 3))], fn))
        cs.append(case(op + "/0d", op, [unary_input(op, r, ())], fn))
        cs.append(case(op + "/empty", op, [unary_input(op, r, (0, 3))], fn))
        cs.append(case(op + "/special", op, [special()], fn))
        if op in INPLACE:
            m = INPLACE[op]
            cs.append(case(op + "/inplace", op, [unary_input(op, r, (4,))],
                           lambda x, m=m: getattr(x.clone(), m)(), attrs={"inplace": True}))
        # integer and bool inputs: dtype rules
        xi = r.randint(1, 5, (5,), torch.int32) * torch.tensor([1, -1, 1, -1, 1], dtype=torch.int32)
        if op in POSITIVE:
            xi = xi.abs()
        xb = torch.tensor([True, False, True])
        if op == "silu":
            cs.append(error_case(op + "/int", op, [xi], fn))
            continue
        cs.append(case(op + "/int32", op, [xi], fn, backward=False))
        cs.append(case(op + "/int64", op, [xi.to(torch.int64)], fn, backward=False))
        if op in ("neg", "abs", "relu"):
            cs.append(error_case(op + "/bool", op, [xb], fn))
        else:
            cs.append(case(op + "/bool", op, [xb], fn, backward=False))
        if op in INPLACE and op not in ("neg", "abs", "relu"):
            m = INPLACE[op]
            cs.append(error_case(op + "/inplace_int", op, [xi.to(torch.int64)],
                                 lambda x, m=m: getattr(x.clone(), m)(), attrs={"inplace": True}))
        # narrow float at its natural dtype in bench mode
        # PyTorch's float32 kernels are a few ulp off the correctly rounded
        # value probe computes (e.g. gelu's 1+erf cancellation).
        cs.append(case(op + "/float32", op, [unary_input(op, r, (6,), torch.float32)], fn, atol=1e-6))
    # gelu
    for approx in ("none", "tanh"):
        r = R("gelu/" + approx)
        fn = lambda x, a=approx: F.gelu(x, approximate=a)
        at = {"approximate": approx}
        cs.append(case("gelu/%s/2x3" % approx, "gelu", [r.randn((2, 3)) * 3], fn, attrs=at))
        cs.append(case("gelu/%s/0d" % approx, "gelu", [r.randn(())], fn, attrs=at))
        cs.append(case("gelu/%s/empty" % approx, "gelu", [r.randn((0,))], fn, attrs=at))
        cs.append(case("gelu/%s/special" % approx, "gelu", [special()], fn, attrs=at))
        cs.append(case("gelu/%s/float32" % approx, "gelu", [r.randn((5,), torch.float32)], fn, attrs=at, atol=1e-6))
    cs.append(case("gelu/default_attr", "gelu", [R("gelu/d").randn((4,))], F.gelu))
    cs.append(error_case("gelu/int", "gelu", [torch.tensor([1, 2])], F.gelu))
    cs.append(case("relu/inplace_int", "relu", [torch.tensor([-1, 2, 0], dtype=torch.int64)],
                   lambda x: x.clone().relu_(), attrs={"inplace": True}, backward=False))
    return cs


# --------------------------------------------------------------------------
# binary ops

def bin_fn(op, rounding=None, alpha=None, inplace=False):
    def fn(a, b):
        if inplace:
            a = a.clone()
            if op == "add":
                return a.add_(b, alpha=alpha if alpha is not None else 1)
            if op == "sub":
                return a.sub_(b, alpha=alpha if alpha is not None else 1)
            if op == "mul":
                return a.mul_(b)
            if op == "div":
                return a.div_(b, rounding_mode=rounding)
            if op == "pow":
                return a.pow_(b)
        if op in ("add", "sub"):
            if not isinstance(a, torch.Tensor):
                # Python scalar on the left: a + alpha*b == (alpha*b) + a
                t = b if alpha is None else b * alpha
                return (a + t) if op == "add" else (a - t)
            f = torch.add if op == "add" else torch.sub
            return f(a, b) if alpha is None else f(a, b, alpha=alpha)
        if op == "mul":
            return a * b
        if op == "div":
            if not isinstance(a, torch.Tensor):
                return torch.div(torch.tensor(a, dtype=b.dtype), b, rounding_mode=rounding) if rounding else a / b
            return torch.div(a, b, rounding_mode=rounding)
        if op == "pow":
            return torch.pow(a, b)
        if op == "maximum":
            return torch.maximum(a, b)
        if op == "minimum":
            return torch.minimum(a, b)
        raise KeyError(op)
    return fn


def binary_cases():
    cs = []
    ops = ["add", "sub", "mul", "div", "pow", "maximum", "minimum"]
    for op in ops:
        r = R("binary/" + op)

        def pos(shape):
            return r.rand(shape, f64, 0.2, 2.0)

        def gen(shape):
            return pos(shape) if op == "pow" else r.randn(shape)

        fn = bin_fn(op)
        cs.append(case(op + "/same", op, [gen((2, 3)), gen((2, 3))], fn))
        cs.append(case(op + "/broadcast_row", op, [gen((2, 3)), gen((3,))], fn))
        cs.append(case(op + "/broadcast_both", op, [gen((2, 1, 3)), gen((4, 1))], fn))
        cs.append(case(op + "/0d_and_tensor", op, [gen(()), gen((2, 2))], fn))
        cs.append(case(op + "/0d_0d", op, [gen(()), gen(())], fn))
        cs.append(case(op + "/empty", op, [gen((0, 3)), gen((3,))], fn))
        cs.append(case(op + "/empty_bcast", op, [gen((2, 0)), gen((1, 1))], fn))
        if op not in ("maximum", "minimum"):
            cs.append(case(op + "/scalar_float", op, [gen((2, 3)), 1.5], fn))
            cs.append(case(op + "/scalar_int", op, [gen((3,)), 2], fn))
            cs.append(case(op + "/scalar_left", op, [2.5, gen((2, 2))], fn))
        cs.append(case(op + "/special", op, [special(), torch.tensor([1.0, 2.0, 0.0, float("nan"), 1.0, float("inf"), -0.0], dtype=f64)], fn))
        cs.append(error_case(op + "/bad_broadcast", op, [gen((2, 3)), gen((2,))], fn))
        # integer arithmetic
        ai = r.randint(-9, 10, (2, 4), torch.int64)
        bi = r.randint(1, 5, (4,), torch.int64) * torch.tensor([1, -1, 1, -1])
        if op == "pow":
            ai = r.randint(-4, 5, (2, 4), torch.int64)
            bi = r.randint(0, 4, (4,), torch.int64)
        cs.append(case(op + "/int64", op, [ai, bi], fn, backward=False))
        cs.append(case(op + "/int32_int64_0d", op, [ai.to(torch.int32), torch.tensor(3)], fn, backward=False))
        cs.append(case(op + "/int32_float64_0d", op, [ai.to(torch.int32), torch.tensor(1.25, dtype=f64)], fn))
        cs.append(case(op + "/uint8_int8", op, [torch.tensor([1, 2, 250], dtype=torch.uint8), torch.tensor([3, -2, 1], dtype=torch.int8)], fn, backward=False))
        cs.append(case(op + "/float16_bfloat16", op, [r.rand((3,), torch.float16, 0.5, 2), r.rand((3,), torch.bfloat16, 0.5, 2)], fn, backward=False))
        # Mixed float32/float64: torch computes the float64 input's
        # gradient in float32 (the result dtype), probe in float64.
        cs.append(case(op + "/float32_float64", op, [r.rand((3,), torch.float32, 0.5, 2), r.rand((3,), f64, 0.5, 2)], fn, rtol=1e-6))
        if op not in ("maximum", "minimum"):
            cs.append(case(op + "/int_scalar_int", op, [ai.to(torch.int32), 3], fn, backward=False))
            cs.append(case(op + "/int_scalar_float", op, [ai, 1.5], fn, backward=False))
            cs.append(case(op + "/float16_scalar", op, [r.rand((4,), torch.float16, 0.5, 2), 0.1], fn, backward=False))
            cs.append(case(op + "/float32_0d_float64", op, [r.rand((3,), torch.float32, 0.5, 2), torch.tensor(0.3, dtype=f64)], fn, rtol=1e-6))
        if op != "sub":
            bb = [torch.tensor([True, False, True, False]), torch.tensor([True, True, False, False])]
            if op == "pow":
                cs.append(case(op + "/bool_int_scalar", op, [bb[0], 2], fn, backward=False))
            else:
                cs.append(case(op + "/bool_bool", op, bb, fn, backward=False))
            if op not in ("maximum", "minimum"):
                cs.append(case(op + "/bool_int_scalar", op, [bb[0], 3], fn, backward=False)) if op != "pow" else None
                cs.append(case(op + "/bool_float_scalar", op, [bb[0], 0.5], fn, backward=False))
        # in-place
        if op in ("add", "sub", "mul", "div", "pow"):
            cs.append(case(op + "/inplace", op, [gen((2, 3)), gen((3,))], bin_fn(op, inplace=True), attrs={"inplace": True}))
            cs.append(case(op + "/inplace_float32_float64", op, [r.rand((3,), torch.float32, 0.5, 2), r.rand((3,), f64, 0.5, 2)],
                           bin_fn(op, inplace=True), attrs={"inplace": True}, rtol=1e-6))
            cs.append(error_case(op + "/inplace_int_float", op, [ai, 2.5], bin_fn(op, inplace=True), attrs={"inplace": True}))
            cs.append(error_case(op + "/inplace_bad_shape", op, [gen((3,)), gen((2, 3))], bin_fn(op, inplace=True), attrs={"inplace": True}))
            if op != "div":
                cs.append(case(op + "/inplace_int32_int64", op, [ai.to(torch.int32), bi],
                               bin_fn(op, inplace=True), attrs={"inplace": True}, backward=False))
    # alpha
    for op in ("add", "sub"):
        r = R("alpha/" + op)
        cs.append(case(op + "/alpha_float", op, [r.randn((2, 3)), r.randn((2, 3))], bin_fn(op, alpha=0.5), attrs={"alpha": 0.5}))
        cs.append(case(op + "/alpha_int", op, [r.randn((3,)), r.randn((2, 3))], bin_fn(op, alpha=-3), attrs={"alpha": -3}))
        cs.append(case(op + "/alpha_int_tensors", op, [r.randint(-5, 5, (4,)), r.randint(-5, 5, (4,))], bin_fn(op, alpha=2), attrs={"alpha": 2}, backward=False))
        cs.append(case(op + "/alpha_scalar_other", op, [r.randn((3,)), 2.0], bin_fn(op, alpha=1.5), attrs={"alpha": 1.5}))
        cs.append(error_case(op + "/alpha_float_int_tensors", op, [r.randint(-5, 5, (4,)), r.randint(-5, 5, (4,))], bin_fn(op, alpha=2.5), attrs={"alpha": 2.5}))
    cs.append(error_case("sub/bool_bool", "sub", [torch.tensor([True]), torch.tensor([False])], bin_fn("sub")))
    cs.append(error_case("sub/bool_float", "sub", [torch.tensor([True]), torch.tensor([1.0])], bin_fn("sub")))
    # division rounding modes
    r = R("div/rounding")
    a = r.randn((3, 4)) * 5
    b = r.randn((4,)) * 2
    b[1] = 0.0
    ai = torch.tensor([7, -7, 7, -7, 0, 5], dtype=torch.int64)
    bi = torch.tensor([2, 2, -2, -2, 3, 5], dtype=torch.int64)
    for mode in ("trunc", "floor"):
        cs.append(case("div/%s" % mode, "div", [a, b], bin_fn("div", rounding=mode), attrs={"rounding_mode": mode}))
        cs.append(case("div/%s_int" % mode, "div", [ai, bi], bin_fn("div", rounding=mode), attrs={"rounding_mode": mode}, backward=False))
        cs.append(case("div/%s_int32_scalar" % mode, "div", [ai.to(torch.int32), -3], bin_fn("div", rounding=mode), attrs={"rounding_mode": mode}, backward=False))
        cs.append(case("div/%s_int_float_scalar" % mode, "div", [ai, 2.5], bin_fn("div", rounding=mode), attrs={"rounding_mode": mode}, backward=False))
        cs.append(case("div/%s_special" % mode, "div", [special(), torch.tensor([2.0, -2.0, 1.0, 3.0, -1.0, 0.0, 0.0], dtype=f64)],
                       bin_fn("div", rounding=mode), attrs={"rounding_mode": mode}))
        cs.append(error_case("div/%s_int_zero" % mode, "div", [ai, torch.zeros(6, dtype=torch.int64)], bin_fn("div", rounding=mode), attrs={"rounding_mode": mode}))
    cs.append(case("div/none_attr", "div", [a, b], bin_fn("div"), attrs={"rounding_mode": None}))
    cs.append(case("div/int_int_true", "div", [ai, bi], bin_fn("div"), backward=False))
    cs.append(case("div/int_by_zero", "div", [ai, torch.zeros(6, dtype=torch.int64)], bin_fn("div"), backward=False))
    cs.append(case("div/true_bool_bool", "div", [torch.tensor([True, False]), torch.tensor([True, True])], bin_fn("div"), backward=False))
    # pow edge cases (0 ** 0 and friends)
    x = torch.tensor([0.0, 0.0, 0.0, 2.0, -1.5, 0.5], dtype=f64)
    e = torch.tensor([0.0, 1.0, 2.5, 0.0, 2.0, -1.0], dtype=f64)
    cs.append(case("pow/zero_edges", "pow", [x, e], torch.pow))
    cs.append(case("pow/scalar_exp_0", "pow", [x, 0.0], torch.pow))
    cs.append(case("pow/scalar_exp_2", "pow", [x, 2], torch.pow))
    cs.append(case("pow/scalar_exp_half", "pow", [x.abs(), 0.5], torch.pow))
    cs.append(case("pow/scalar_exp_neg", "pow", [x[3:], -2.0], torch.pow))
    cs.append(case("pow/scalar_base_0", "pow", [0.0, e], torch.pow))
    cs.append(case("pow/scalar_base_2", "pow", [2.0, e], torch.pow))
    cs.append(case("pow/scalar_base_int_int_tensor", "pow", [2, torch.tensor([0, 1, 5], dtype=torch.int32)], torch.pow, backward=False))
    cs.append(case("pow/scalar_base_float_int_tensor", "pow", [2.5, torch.tensor([0, 1, 5], dtype=torch.int32)], torch.pow, backward=False))
    cs.append(case("pow/int_neg_tensor_exp", "pow", [torch.tensor([1, -1, -1, 2, 0]), torch.tensor([-3, -3, -2, -1, 2])], torch.pow, backward=False))
    cs.append(case("pow/int_float_scalar", "pow", [torch.tensor([1, 4, 9]), 0.5], torch.pow, backward=False))
    cs.append(error_case("pow/int_neg_scalar", "pow", [torch.tensor([1, 2]), -1], torch.pow))
    # maximum/minimum ties split the gradient
    t1 = torch.tensor([1.0, 2.0, 3.0, float("nan")], dtype=f64)
    t2 = torch.tensor([1.0, 3.0, 2.0, 1.0], dtype=f64)
    cs.append(case("maximum/ties", "maximum", [t1, t2], torch.maximum))
    cs.append(case("minimum/ties", "minimum", [t1, t2], torch.minimum))
    return cs


# --------------------------------------------------------------------------
# clamp, where, masked_fill

def select_cases():
    cs = []
    r = R("clamp")
    x = r.randn((3, 4))
    clamp = lambda x, lo, hi: torch.clamp(x, min=lo, max=hi)
    cs.append(case("clamp/both", "clamp", [x, -0.5, 0.5], clamp))
    cs.append(case("clamp/min_only", "clamp", [x, -0.2, None], clamp))
    cs.append(case("clamp/max_only", "clamp", [x, None, 0.3], clamp))
    cs.append(case("clamp/int_scalars", "clamp", [x, -1, 1], clamp))
    cs.append(case("clamp/min_gt_max", "clamp", [x, 0.5, -0.5], clamp))
    cs.append(case("clamp/equal_bounds", "clamp", [torch.tensor([-1.0, 0.25, 0.25, 2.0], dtype=f64), 0.25, 0.25], clamp))
    cs.append(case("clamp/special", "clamp", [special(), -1.0, 1.0], clamp))
    cs.append(case("clamp/0d", "clamp", [r.randn(()), -0.1, 0.1], clamp))
    cs.append(case("clamp/empty", "clamp", [r.randn((0, 2)), -0.1, 0.1], clamp))
    lo, hi = r.randn((4,)) - 0.5, r.randn((3, 1)) + 0.5
    cs.append(case("clamp/tensors", "clamp", [x, lo, hi], clamp))
    cs.append(case("clamp/tensor_min", "clamp", [x, lo, None], clamp))
    cs.append(case("clamp/tensor_max", "clamp", [x, None, hi], clamp))
    cs.append(case("clamp/tensors_broadcast_out", "clamp", [r.randn((4,)), r.randn((2, 1)) - 0.5, r.randn((2, 4)) + 0.5], clamp))
    cs.append(case("clamp/tensors_min_gt_max", "clamp", [x, r.randn((4,)) + 1, r.randn((4,)) - 1], clamp))
    cs.append(case("clamp/tensors_ties", "clamp", [torch.tensor([0.5, -0.5, 0.0], dtype=f64), torch.tensor([0.5, -1.0, 0.0], dtype=f64), torch.tensor([1.0, -0.5, 0.0], dtype=f64)], clamp))
    xi = torch.tensor([-5, -1, 0, 3, 9], dtype=torch.int32)
    cs.append(case("clamp/int", "clamp", [xi, -2, 4], clamp, backward=False))
    cs.append(case("clamp/int_float_bound", "clamp", [xi, 0.5, None], clamp, backward=False))
    cs.append(case("clamp/inplace", "clamp", [x, -0.5, 0.5], lambda x, lo, hi: x.clone().clamp_(lo, hi), attrs={"inplace": True}))
    cs.append(error_case("clamp/inplace_int_float", "clamp", [xi, 0.5, None], lambda x, lo, hi: x.clone().clamp_(lo, hi), attrs={"inplace": True}))
    cs.append(error_case("clamp/none_none", "clamp", [x, None, None], clamp))

    r = R("where")
    cond = r.bool((2, 3))
    a, b = r.randn((2, 3)), r.randn((2, 3))
    cs.append(case("where/same", "where", [cond, a, b], torch.where))
    cs.append(case("where/broadcast", "where", [r.bool((3,)), r.randn((2, 1)), r.randn((2, 3))], torch.where))
    cs.append(case("where/cond_broadcasts_out", "where", [r.bool((2, 3)), r.randn((3,)), r.randn(())], torch.where))
    cs.append(case("where/scalar_other", "where", [cond, a, 0.0], torch.where))
    cs.append(case("where/scalar_self_int", "where", [cond, 2, b], torch.where))
    cs.append(case("where/0d", "where", [torch.tensor(True), r.randn(()), r.randn(())], torch.where))
    cs.append(case("where/empty", "where", [r.bool((0, 3)), r.randn((0, 3)), r.randn((3,))], torch.where))
    cs.append(case("where/int32_float_scalar", "where", [cond, torch.ones((2, 3), dtype=torch.int32), 2.5], torch.where, backward=False))
    cs.append(case("where/int32_int64", "where", [cond, torch.ones((2, 3), dtype=torch.int32), torch.zeros((2, 3), dtype=torch.int64)], torch.where, backward=False))
    cs.append(case("where/float32_float64", "where", [cond, r.randn((2, 3), torch.float32), r.randn((2, 3))], torch.where))
    cs.append(case("where/bool_values", "where", [cond, torch.ones((2, 3), dtype=torch.bool), torch.zeros((3,), dtype=torch.bool)], torch.where, backward=False))
    c2 = torch.tensor([True, False])
    cs.append(case("where/scalars_float", "where", [c2, 1.0, 0.0], torch.where, backward=False))
    cs.append(case("where/scalars_int", "where", [c2, 1, 0], torch.where, backward=False))
    cs.append(case("where/scalars_mixed", "where", [c2, 1, 0.5], torch.where, backward=False))
    cs.append(case("where/0d_float64_int_scalar", "where", [c2, torch.tensor(1.0, dtype=f64), 2], torch.where))
    cs.append(case("where/int32_bool_scalar", "where", [c2, torch.tensor([1], dtype=torch.int32), True], torch.where, backward=False))
    cs.append(case("where/bool_int_scalar", "where", [c2, torch.tensor([True, False]), 2], torch.where, backward=False))
    cs.append(error_case("where/float_cond", "where", [torch.ones(3, dtype=f64), r.randn((3,)), r.randn((3,))], torch.where))

    r = R("masked_fill")
    x = r.randn((2, 3))
    mask = r.bool((2, 3))
    mf = lambda x, m, v: x.masked_fill(m, v)
    cs.append(case("masked_fill/scalar", "masked_fill", [x, mask, -1.5], mf))
    cs.append(case("masked_fill/int_scalar", "masked_fill", [x, mask, 2], mf))
    cs.append(case("masked_fill/0d_value", "masked_fill", [x, mask, torch.tensor(0.75, dtype=f64)], mf))
    cs.append(case("masked_fill/mask_broadcast", "masked_fill", [x, r.bool((3,)), torch.tensor(-2.0, dtype=f64)], mf))
    cs.append(case("masked_fill/self_broadcast", "masked_fill", [r.randn((3,)), r.bool((2, 3)), torch.tensor(4.0, dtype=f64)], mf))
    cs.append(case("masked_fill/nan_value", "masked_fill", [x, mask, float("nan")], mf))
    cs.append(case("masked_fill/0d", "masked_fill", [r.randn(()), torch.tensor(True), 3.0], mf))
    cs.append(case("masked_fill/empty", "masked_fill", [r.randn((0, 2)), r.bool((0, 2)), 3.0], mf))
    cs.append(case("masked_fill/int_tensor_float_value", "masked_fill", [torch.arange(6).reshape(2, 3), mask, 2.7], mf, backward=False))
    cs.append(case("masked_fill/int_tensor_0d_float", "masked_fill", [torch.arange(6).reshape(2, 3), mask, torch.tensor(-2.7, dtype=f64)], mf, requires_grad=[False, False, False]))
    cs.append(case("masked_fill/bool_tensor", "masked_fill", [mask, mask.logical_not(), True], mf, backward=False))
    cs.append(case("masked_fill/int_mask", "masked_fill", [x, mask.to(torch.int64), 1.0], mf))
    cs.append(case("masked_fill/inplace", "masked_fill", [x, r.bool((3,)), torch.tensor(-2.0, dtype=f64)], lambda x, m, v: x.clone().masked_fill_(m, v), attrs={"inplace": True}))
    cs.append(error_case("masked_fill/inplace_bad_broadcast", "masked_fill", [r.randn((3,)), r.bool((2, 3)), 1.0], lambda x, m, v: x.clone().masked_fill_(m, v), attrs={"inplace": True}))
    cs.append(error_case("masked_fill/1d_value", "masked_fill", [x, mask, torch.tensor([1.0], dtype=f64)], mf))
    cs.append(error_case("masked_fill/int_mask_not_01", "masked_fill", [x, torch.full((2, 3), 2), 1.0], mf))
    return cs


# --------------------------------------------------------------------------
# reductions

def reduce_cases():
    cs = []
    r = R("reduce")
    x = r.randn((2, 3, 4))
    for op, f in (("sum", torch.sum), ("mean", torch.mean)):
        def fn(x, dim=None, keepdim=False, dtype=None, f=f):
            if dim is None:
                return f(x, dtype=dtype) if dtype is not None else f(x)
            return f(x, dim=dim, keepdim=keepdim, dtype=dtype)
        cs.append(case(op + "/all", op, [x], fn))
        cs.append(case(op + "/dim_none_attr", op, [x], fn, attrs={"dim": None, "keepdim": False}))
        cs.append(case(op + "/dim1", op, [x], lambda x: fn(x, [1]), attrs={"dim": [1]}))
        cs.append(case(op + "/dim_int", op, [x], lambda x: fn(x, 2), attrs={"dim": 2}))
        cs.append(case(op + "/dim_neg", op, [x], lambda x: fn(x, [-1]), attrs={"dim": [-1]}))
        cs.append(case(op + "/dims_0_2_keepdim", op, [x], lambda x: fn(x, [0, 2], True), attrs={"dim": [0, 2], "keepdim": True}))
        cs.append(case(op + "/dims_all_list", op, [x], lambda x: fn(x, [0, 1, 2]), attrs={"dim": [0, 1, 2]}))
        cs.append(case(op + "/keepdim_all", op, [x], lambda x: fn(x, [0, 1, 2], True), attrs={"dim": [0, 1, 2], "keepdim": True}))
        cs.append(case(op + "/0d", op, [r.randn(())], fn))
        cs.append(case(op + "/0d_dim0", op, [r.randn(())], lambda x: fn(x, 0), attrs={"dim": [0]}))
        cs.append(case(op + "/0d_dim0_keepdim", op, [r.randn(())], lambda x: fn(x, -1, True), attrs={"dim": [-1], "keepdim": True}))
        cs.append(case(op + "/empty_dim0", op, [r.randn((0, 3))], lambda x: fn(x, [0]), attrs={"dim": [0]}))
        cs.append(case(op + "/empty_all", op, [r.randn((0, 3))], fn))
        cs.append(case(op + "/dtype_float32", op, [x], lambda x: fn(x, [1], dtype=torch.float32), attrs={"dim": [1], "dtype": "float32"}, rtol=1e-6))
        cs.append(case(op + "/special", op, [special()], fn))
        cs.append(case(op + "/float32", op, [r.randn((3, 5), torch.float32)], lambda x: fn(x, [1]), attrs={"dim": [1]}))
        cs.append(error_case(op + "/dup_dims", op, [x], lambda x: fn(x, [0, -3]), attrs={"dim": [0, -3]}))
        cs.append(error_case(op + "/dim_range", op, [x], lambda x: fn(x, [3]), attrs={"dim": [3]}))
        xi = r.randint(-5, 6, (3, 4), torch.int32)
        if op == "sum":
            cs.append(case("sum/int32", op, [xi], fn, backward=False))
            cs.append(case("sum/int32_dim", op, [xi], lambda x: fn(x, [0]), attrs={"dim": [0]}, backward=False))
            cs.append(case("sum/bool", op, [r.bool((5,))], fn, backward=False))
            cs.append(case("sum/int_dtype_float", op, [xi], lambda x: fn(x, [1], dtype=f64), attrs={"dim": [1], "dtype": "float64"}, backward=False))
            cs.append(case("sum/float_dtype_int", op, [x * 3], lambda x: fn(x, [1], dtype=torch.int64), attrs={"dim": [1], "dtype": "int64"}, backward=False))
        else:
            cs.append(error_case("mean/int", op, [xi], fn))
            cs.append(error_case("mean/dtype_int", op, [x], lambda x: fn(x, [1], dtype=torch.int64), attrs={"dim": [1], "dtype": "int64"}))
            cs.append(case("mean/int_dtype_float", op, [xi], lambda x: fn(x, [1], dtype=f64), attrs={"dim": [1], "dtype": "float64"}, backward=False))

    ties = torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 2.0]], dtype=f64)
    nan = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), -1.0, float("nan")]], dtype=f64)
    for op, f in (("max", torch.max), ("min", torch.min)):
        cs.append(case(op + "/full", op, [x], f))
        cs.append(case(op + "/ties", op, [ties], f))
        cs.append(case(op + "/ties_neg", op, [-ties], f))
        cs.append(case(op + "/nan", op, [nan], f))
        cs.append(case(op + "/0d", op, [r.randn(())], f))
        cs.append(case(op + "/inf", op, [torch.tensor([float("inf"), float("-inf"), 0.0], dtype=f64)], f))
        cs.append(case(op + "/int", op, [r.randint(-9, 9, (7,))], f, backward=False))
        cs.append(case(op + "/bool", op, [r.bool((4,))], f, backward=False))
        cs.append(case(op + "/float32", op, [r.randn((6,), torch.float32)], f))
        cs.append(error_case(op + "/empty", op, [r.randn((0, 2))], f))
        d = op + "_dim"
        cs.append(case(d + "/dim1", d, [x], lambda x, f=f: f(x, 1), attrs={"dim": 1}))
        cs.append(case(d + "/dim0_keepdim", d, [x], lambda x, f=f: f(x, 0, True), attrs={"dim": 0, "keepdim": True}))
        cs.append(case(d + "/dim_neg", d, [x], lambda x, f=f: f(x, -1), attrs={"dim": -1}))
        cs.append(case(d + "/ties", d, [ties], lambda x, f=f: f(x, 1), attrs={"dim": 1}))
        cs.append(case(d + "/ties_dim0", d, [ties.t().contiguous()], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(case(d + "/nan", d, [nan], lambda x, f=f: f(x, 1), attrs={"dim": 1}))
        cs.append(case(d + "/0d", d, [r.randn(())], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(case(d + "/0d_keepdim", d, [r.randn(())], lambda x, f=f: f(x, -1, True), attrs={"dim": -1, "keepdim": True}))
        cs.append(case(d + "/1d", d, [r.randn((5,))], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(case(d + "/empty_other_dim", d, [r.randn((0, 3))], lambda x, f=f: f(x, 1), attrs={"dim": 1}))
        cs.append(case(d + "/int", d, [r.randint(-3, 3, (3, 5), torch.int32)], lambda x, f=f: f(x, 1), attrs={"dim": 1}, backward=False))
        cs.append(case(d + "/bool", d, [r.bool((3, 4))], lambda x, f=f: f(x, 0), attrs={"dim": 0}, backward=False))
        cs.append(case(d + "/grad_values_only", d, [x], lambda x, f=f: f(x, 2), attrs={"dim": 2}))
        cs.append(error_case(d + "/empty_dim", d, [r.randn((0, 3))], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(error_case(d + "/dim_range", d, [x], lambda x, f=f: f(x, 3), attrs={"dim": 3}))

    cs.append(case("cumsum/dim0", "cumsum", [x], lambda x: torch.cumsum(x, 0), attrs={"dim": 0}))
    cs.append(case("cumsum/dim_neg", "cumsum", [x], lambda x: torch.cumsum(x, -1), attrs={"dim": -1}))
    cs.append(case("cumsum/dim1", "cumsum", [x], lambda x: torch.cumsum(x, 1), attrs={"dim": 1}))
    cs.append(case("cumsum/0d", "cumsum", [r.randn(())], lambda x: torch.cumsum(x, 0), attrs={"dim": 0}))
    cs.append(case("cumsum/0d_neg", "cumsum", [r.randn(())], lambda x: torch.cumsum(x, -1), attrs={"dim": -1}))
    cs.append(case("cumsum/empty", "cumsum", [r.randn((0, 3))], lambda x: torch.cumsum(x, 1), attrs={"dim": 1}))
    cs.append(case("cumsum/special", "cumsum", [special()], lambda x: torch.cumsum(x, 0), attrs={"dim": 0}))
    cs.append(case("cumsum/int32", "cumsum", [r.randint(-5, 5, (2, 4), torch.int32)], lambda x: torch.cumsum(x, 1), attrs={"dim": 1}, backward=False))
    cs.append(case("cumsum/bool", "cumsum", [r.bool((5,))], lambda x: torch.cumsum(x, 0), attrs={"dim": 0}, backward=False))
    cs.append(case("cumsum/dtype", "cumsum", [r.randint(-5, 5, (4,))], lambda x: torch.cumsum(x, 0, dtype=f64), attrs={"dim": 0, "dtype": "float64"}, backward=False))
    cs.append(case("cumsum/dtype_float32", "cumsum", [x], lambda x: torch.cumsum(x, 2, dtype=torch.float32), attrs={"dim": 2, "dtype": "float32"}, rtol=1e-6))
    cs.append(case("cumsum/inplace", "cumsum", [x], lambda x: x.clone().cumsum_(1), attrs={"dim": 1, "inplace": True}))
    cs.append(case("cumsum/inplace_int32", "cumsum", [r.randint(-5, 5, (4,), torch.int32)], lambda x: x.clone().cumsum_(0), attrs={"dim": 0, "inplace": True}, backward=False))
    cs.append(error_case("cumsum/dim_range", "cumsum", [x], lambda x: torch.cumsum(x, -4), attrs={"dim": -4}))
    return cs


# --------------------------------------------------------------------------
# shape ops

def shape_cases():
    cs = []
    r = R("shape")
    a, b, c = r.randn((2, 3)), r.randn((2, 1)), r.randn((2, 4))
    cat = lambda dim: (lambda *ts: torch.cat(ts, dim))
    cs.append(case("cat/dim1", "cat", [a, b, c], cat(1), attrs={"dim": 1}))
    cs.append(case("cat/dim_neg", "cat", [a, b, c], cat(-1), attrs={"dim": -1}))
    cs.append(case("cat/dim0", "cat", [a, r.randn((3, 3))], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/default_dim", "cat", [a, r.randn((1, 3))], cat(0)))
    cs.append(case("cat/single", "cat", [a], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/3d_mid", "cat", [r.randn((2, 1, 2)), r.randn((2, 3, 2))], cat(1), attrs={"dim": 1}))
    cs.append(case("cat/legacy_empty", "cat", [a, torch.zeros((0,), dtype=f64), r.randn((1, 3))], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/empty_part", "cat", [a, r.randn((0, 3))], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/all_legacy_empty", "cat", [torch.zeros((0,), dtype=f64), torch.zeros((0,), dtype=f64)], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/promote_int_float", "cat", [torch.tensor([1, 2], dtype=torch.int32), r.randn((3,), torch.float32)], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/promote_f32_f64", "cat", [r.randn((2,), torch.float32), r.randn((3,))], cat(0), attrs={"dim": 0}))
    cs.append(case("cat/int", "cat", [torch.tensor([[1, 2]]), torch.tensor([[3, 4]])], cat(1), attrs={"dim": 1}, backward=False))
    cs.append(case("cat/bool", "cat", [torch.tensor([True]), torch.tensor([False, True])], cat(0), attrs={"dim": 0}, backward=False))
    cs.append(error_case("cat/0d", "cat", [torch.tensor(1.0, dtype=f64), a], cat(0), attrs={"dim": 0}))
    cs.append(error_case("cat/size_mismatch", "cat", [a, c], cat(0), attrs={"dim": 0}))
    cs.append(error_case("cat/rank_mismatch", "cat", [a, r.randn((2, 3, 1))], cat(0), attrs={"dim": 0}))
    cs.append(error_case("cat/dim_range", "cat", [a, a], cat(2), attrs={"dim": 2}))

    stack = lambda dim: (lambda *ts: torch.stack(ts, dim))
    s1, s2, s3 = r.randn((2, 3)), r.randn((2, 3)), r.randn((2, 3))
    cs.append(case("stack/dim0", "stack", [s1, s2, s3], stack(0), attrs={"dim": 0}))
    cs.append(case("stack/dim1", "stack", [s1, s2], stack(1), attrs={"dim": 1}))
    cs.append(case("stack/dim_last", "stack", [s1, s2], stack(2), attrs={"dim": 2}))
    cs.append(case("stack/dim_neg", "stack", [s1, s2, s3], stack(-1), attrs={"dim": -1}))
    cs.append(case("stack/0d", "stack", [r.randn(()), r.randn(())], stack(0), attrs={"dim": 0}))
    cs.append(case("stack/empty", "stack", [r.randn((0, 2)), r.randn((0, 2))], stack(1), attrs={"dim": 1}))
    cs.append(case("stack/promote", "stack", [torch.tensor([1, 2]), r.randn((2,))], stack(0), attrs={"dim": 0}))
    cs.append(case("stack/int", "stack", [torch.tensor([1, 2], dtype=torch.int16), torch.tensor([3, 4], dtype=torch.int16)], stack(0), attrs={"dim": 0}, backward=False))
    cs.append(case("stack/int_bool", "stack", [torch.tensor([1, 2], dtype=torch.int32), torch.tensor([True, False])], stack(0), attrs={"dim": 0}, backward=False))
    cs.append(error_case("stack/unequal", "stack", [s1, r.randn((2, 2))], stack(0), attrs={"dim": 0}))
    cs.append(error_case("stack/dim_range", "stack", [s1, s2], stack(3), attrs={"dim": 3}))

    sp = lambda sizes, dim: (lambda x: torch.split_with_sizes(x, sizes, dim))
    x = r.randn((3, 4))
    cs.append(case("split/dim0", "split_with_sizes", [x], sp([1, 2], 0), attrs={"split_sizes": [1, 2], "dim": 0}))
    cs.append(case("split/dim_neg", "split_with_sizes", [x], sp([1, 1, 2], -1), attrs={"split_sizes": [1, 1, 2], "dim": -1}))
    cs.append(case("split/zero_piece", "split_with_sizes", [x], sp([0, 4, 0], 1), attrs={"split_sizes": [0, 4, 0], "dim": 1}))
    cs.append(case("split/default_dim", "split_with_sizes", [x], sp([3], 0), attrs={"split_sizes": [3]}))
    cs.append(case("split/3d", "split_with_sizes", [r.randn((2, 5, 2))], sp([2, 3], 1), attrs={"split_sizes": [2, 3], "dim": 1}))
    cs.append(case("split/int", "split_with_sizes", [torch.arange(6)], sp([2, 4], 0), attrs={"split_sizes": [2, 4], "dim": 0}, backward=False))
    # gradient for only some outputs
    g = [r.randn((1, 4)), None]
    cs.append(case("split/partial_grad", "split_with_sizes", [x], sp([1, 2], 0), attrs={"split_sizes": [1, 2], "dim": 0}, grad_outputs=g))
    cs.append(case("split/empty_dim", "split_with_sizes", [r.randn((0, 3))], sp([2, 1], 1), attrs={"split_sizes": [2, 1], "dim": 1}))
    cs.append(case("split/bool", "split_with_sizes", [r.bool((4,))], sp([1, 3], 0), attrs={"split_sizes": [1, 3], "dim": 0}, backward=False))
    cs.append(error_case("split/negative", "split_with_sizes", [x], sp([4, -1], 0), attrs={"split_sizes": [4, -1], "dim": 0}))
    cs.append(error_case("split/dim_range", "split_with_sizes", [x], sp([3], 2), attrs={"split_sizes": [3], "dim": 2}))
    cs.append(error_case("split/bad_sum", "split_with_sizes", [x], sp([1, 1], 0), attrs={"split_sizes": [1, 1], "dim": 0}))
    cs.append(error_case("split/0d", "split_with_sizes", [r.randn(())], sp([1], 0), attrs={"split_sizes": [1], "dim": 0}))

    y = r.randn((2, 3, 4))
    tr = lambda d0, d1: (lambda x: torch.transpose(x, d0, d1))
    cs.append(case("transpose/01", "transpose", [y], tr(0, 1), attrs={"dim0": 0, "dim1": 1}))
    cs.append(case("transpose/neg", "transpose", [y], tr(-1, 0), attrs={"dim0": -1, "dim1": 0}))
    cs.append(case("transpose/same", "transpose", [y], tr(1, 1), attrs={"dim0": 1, "dim1": 1}))
    cs.append(case("transpose/0d", "transpose", [r.randn(())], tr(0, -1), attrs={"dim0": 0, "dim1": -1}))
    cs.append(case("transpose/empty", "transpose", [r.randn((0, 3))], tr(0, 1), attrs={"dim0": 0, "dim1": 1}))
    cs.append(case("transpose/int", "transpose", [torch.arange(6).reshape(2, 3)], tr(0, 1), attrs={"dim0": 0, "dim1": 1}, backward=False))
    cs.append(case("transpose/inplace", "transpose", [y], lambda x: x.clone().transpose_(0, 2), attrs={"dim0": 0, "dim1": 2, "inplace": True}))
    cs.append(error_case("transpose/range", "transpose", [y], tr(0, 3), attrs={"dim0": 0, "dim1": 3}))

    pm = lambda dims: (lambda x: x.permute(*dims))
    cs.append(case("permute/201", "permute", [y], pm([2, 0, 1]), attrs={"dims": [2, 0, 1]}))
    cs.append(case("permute/neg", "permute", [y], pm([-1, -3, 1]), attrs={"dims": [-1, -3, 1]}))
    cs.append(case("permute/0d", "permute", [r.randn(())], lambda x: x.permute(()), attrs={"dims": attr("ints", [])}))
    cs.append(case("permute/bool", "permute", [r.bool((2, 3))], pm([1, 0]), attrs={"dims": [1, 0]}, backward=False))
    cs.append(case("permute/empty", "permute", [r.randn((2, 0, 3))], pm([2, 1, 0]), attrs={"dims": [2, 1, 0]}))
    cs.append(error_case("permute/len", "permute", [y], pm([0, 1]), attrs={"dims": [0, 1]}))
    cs.append(error_case("permute/dup", "permute", [y], pm([0, 1, 1]), attrs={"dims": [0, 1, 1]}))

    rs = lambda shape: (lambda x: x.reshape(shape))
    cs.append(case("reshape/infer", "reshape", [y], rs([4, -1]), attrs={"shape": [4, -1]}))
    cs.append(case("reshape/flat", "reshape", [y], rs([-1]), attrs={"shape": [-1]}))
    cs.append(case("reshape/to_0d", "reshape", [r.randn((1, 1))], rs([]), attrs={"shape": attr("ints", [])}))
    cs.append(case("reshape/from_0d", "reshape", [r.randn(())], rs([1, -1]), attrs={"shape": [1, -1]}))
    cs.append(case("reshape/empty", "reshape", [r.randn((0, 3))], rs([3, 0]), attrs={"shape": [3, 0]}))
    cs.append(case("reshape/empty_infer", "reshape", [r.randn((0, 3))], rs([-1, 3]), attrs={"shape": [-1, 3]}))
    cs.append(case("reshape/int", "reshape", [torch.arange(6)], rs([3, 2]), attrs={"shape": [3, 2]}, backward=False))
    cs.append(error_case("reshape/invalid", "reshape", [y], rs([5, -1]), attrs={"shape": [5, -1]}))
    cs.append(error_case("reshape/size", "reshape", [y], rs([4, 4]), attrs={"shape": [4, 4]}))
    cs.append(error_case("reshape/two_infer", "reshape", [y], rs([-1, -1]), attrs={"shape": [-1, -1]}))
    cs.append(error_case("reshape/ambiguous", "reshape", [r.randn((0, 3))], rs([0, -1]), attrs={"shape": [0, -1]}))
    cs.append(error_case("reshape/negative", "reshape", [y], rs([-2, 12]), attrs={"shape": [-2, 12]}))

    cs.append(case("clone/float", "clone", [y], torch.clone))
    cs.append(case("clone/0d", "clone", [r.randn(())], torch.clone))
    cs.append(case("clone/int", "clone", [torch.arange(4, dtype=torch.int8)], torch.clone, backward=False))
    cs.append(case("clone/empty", "clone", [r.randn((2, 0))], torch.clone))
    cs.append(case("clone/bool", "clone", [r.bool((3,))], torch.clone, backward=False))
    cs.append(case("clone/special", "clone", [special()], torch.clone))
    cs.append(case("ones_like/float", "ones_like", [y], torch.ones_like, requires_grad=[False], backward=False))
    cs.append(case("ones_like/int", "ones_like", [torch.arange(3)], torch.ones_like, backward=False))
    cs.append(case("ones_like/dtype", "ones_like", [y], lambda x: torch.ones_like(x, dtype=torch.bfloat16),
                   attrs={"dtype": "bfloat16"}, requires_grad=[False], backward=False))
    cs.append(case("ones_like/bool_dtype", "ones_like", [torch.arange(3)], lambda x: torch.ones_like(x, dtype=torch.bool),
                   attrs={"dtype": "bool"}, backward=False))
    cs.append(case("ones_like/empty_0d", "ones_like", [r.randn(())], torch.ones_like, requires_grad=[False], backward=False))
    ident = lambda x: x.clone()
    for name, t in (("float64", y), ("float16", r.randn((3,), torch.float16)), ("int64", torch.arange(3)),
                    ("bool", r.bool((2, 2))), ("0d", r.randn(())), ("empty", r.randn((0,))), ("special", special())):
        cs.append(case("echo/" + name, "echo", [t], ident, requires_grad=[False], backward=False))
    return cs


# --------------------------------------------------------------------------
# emulated device: results at float16 / bfloat16 / float32 as PyTorch CPU
# computes them.

def emulated_cases():
    cs = []
    dts = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}
    ops = [
        ("add", lambda r, d: [r.randn((4, 5), d), r.randn((5,), d)], torch.add, {}),
        ("add_scalar", lambda r, d: [r.randn((6,), d), 0.1], torch.add, {}),
        ("add_alpha", lambda r, d: [r.randn((6,), d), r.randn((6,), d)], lambda a, b: torch.add(a, b, alpha=0.1), {"alpha": 0.1}),
        ("mul", lambda r, d: [r.randn((4, 5), d), r.randn((4, 5), d)], torch.mul, {}),
        ("mul_scalar", lambda r, d: [r.randn((6,), d), 0.1], torch.mul, {}),
        ("div_scalar", lambda r, d: [r.randn((6,), d), 3.0], torch.div, {}),
        ("div", lambda r, d: [r.randn((4, 5), d), r.rand((4, 5), d, 0.5, 2)], torch.div, {}),
        ("sub", lambda r, d: [r.randn((8,), d), r.randn((8,), d)], torch.sub, {}),
        ("exp", lambda r, d: [r.randn((10,), d)], torch.exp, {}),
        ("log", lambda r, d: [r.rand((10,), d, 0.1, 4)], torch.log, {}),
        ("sqrt", lambda r, d: [r.rand((10,), d, 0.1, 4)], torch.sqrt, {}),
        ("tanh", lambda r, d: [r.randn((10,), d)], torch.tanh, {}),
        ("sigmoid", lambda r, d: [r.randn((10,), d)], torch.sigmoid, {}),
        ("relu", lambda r, d: [r.randn((10,), d)], torch.relu, {}),
        ("gelu", lambda r, d: [r.randn((10,), d)], F.gelu, {}),
        ("silu", lambda r, d: [r.randn((10,), d)], F.silu, {}),
        ("sin", lambda r, d: [r.randn((10,), d)], torch.sin, {}),
        ("neg", lambda r, d: [r.randn((10,), d)], torch.neg, {}),
        ("sum", lambda r, d: [r.randn((3, 8), d)], lambda x: torch.sum(x, 1), {"dim": [1]}),
        ("mean", lambda r, d: [r.randn((3, 8), d)], lambda x: torch.mean(x, 1), {"dim": [1]}),
        ("cumsum", lambda r, d: [r.randn((6,), d)], lambda x: torch.cumsum(x, 0), {"dim": 0}),
        ("max_dim", lambda r, d: [r.randn((3, 5), d)], lambda x: torch.max(x, 1), {"dim": 1}),
        ("clamp", lambda r, d: [r.randn((8,), d), -0.5, 0.5], lambda x, lo, hi: torch.clamp(x, lo, hi), {}),
        ("transpose", lambda r, d: [r.randn((2, 3), d)], lambda x: x.t(), {"dim0": 0, "dim1": 1}),
    ]
    for name, mk, fn, at in ops:
        op = name if name in ("max_dim",) else name.split("_")[0]
        for dn, d in dts.items():
            r = R("emulated/%s/%s" % (name, dn))
            ins = mk(r, d)
            cname = "emu/%s/%s" % (name, dn)
            try:
                c = case(cname, op, ins, fn, attrs=at, mode="emulated", ulp=2, atol=2e-6)
            except RuntimeError as e:
                # The op lacks a CPU kernel or backward at this dtype in
                # PyTorch 1.13: keep the forward only when it exists.
                try:
                    c = case(cname, op, ins, fn, attrs=at, mode="emulated", ulp=2, atol=2e-6, backward=False)
                except RuntimeError as e2:
                    print("skip %s: %s" % (cname, str(e2).splitlines()[0]))
                    continue
                print("forward only %s: %s" % (cname, str(e).splitlines()[0]))
            cs.append(c)
    return cs


if __name__ == "__main__":
    write_group("unary", unary_cases())
    write_group("binary", binary_cases())
    write_group("select", select_cases())
    write_group("reduce", reduce_cases())
    write_group("shape", shape_cases())
    write_group("emulated", emulated_cases())
