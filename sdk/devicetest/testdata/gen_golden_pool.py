"""Golden cases for the pool family (sdk/ops/schema_pool.go): group "pool".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_pool.py

writes golden/pool.json.gz (format: golden_lib.py) from real PyTorch 1.13
on the CPU. Per op: float64 cases (shapes, unbatched, empty batch, every
attribute, special values), int64 where PyTorch takes it, error cases with
PyTorch's message, backward cases, and narrow-dtype cases (mode
"emulated") at the dtypes PyTorch 1.13's CPU kernel has; the cases named
"*_rounded_steps" carry ulp 0: the emulated device reproduces PyTorch's
rounding points there bit for bit.
"""

import math

import torch
import torch.nn.functional as F

from golden_lib import REPORT, Rand, attr, case, checked, error_case, write_group

f64 = torch.float64
f32, f16, bf16 = torch.float32, torch.float16, torch.bfloat16
NAN, INF = float("nan"), float("inf")


def R(name):
    return Rand("pool/" + name)


def distinct(r, shape, d=f64):
    """Normal values without ties (max pools' argmax is then unique, and
    finite differences never straddle a tie)."""
    n = 1
    for s in shape:
        n *= s
    v = torch.randperm(n, generator=r.g).to(f64) * 0.37 - n * 0.15
    return (v + r.rand((n,), f64, 0, 0.05)).reshape(shape).to(d)


def emu(name, op, inputs, fn, attrs=None, exact=False, backward=True):
    if exact:
        return case(name, op, inputs, fn, attrs=attrs, mode="emulated", backward=backward, ulp=0.0)
    return checked(name, op, inputs, fn, attrs=attrs, mode="emulated", backward=backward)


# ------------------------------------------------------------- avg_pool2d/3d

def AP(k, s=None, p=0, ceil=False, cip=True, div=None):
    k = k if isinstance(k, list) else [k]
    s = k if s is None else (s if isinstance(s, list) else [s])
    p = p if isinstance(p, list) else [p]
    return {"kernel_size": k, "stride": s, "padding": p, "ceil_mode": ceil, "count_include_pad": cip, "divisor_override": div}


def avg_pool2d_cases():
    cs = []
    op = "avg_pool2d"
    r = R(op)

    def C(name, x, k, s=None, p=0, ceil=False, cip=True, div=None, backward=True, mode="bench", exact=False):
        a = AP(k, s, p, ceil, cip, div)
        fn = lambda x: F.avg_pool2d(x, a["kernel_size"], a["stride"], a["padding"], ceil, cip, div)
        if mode == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    cs.append(C("k2", r.randn((2, 3, 6, 6)), 2))
    cs.append(C("k3s2p1", r.randn((2, 2, 7, 8)), 3, 2, 1))
    cs.append(C("rect", r.randn((1, 2, 7, 9)), [3, 2], [2, 1], [1, 0]))
    cs.append(C("unbatched", r.randn((3, 5, 6)), 2, 1))
    cs.append(C("ceil", r.randn((2, 2, 7, 7)), 3, 2, 1, ceil=True))
    cs.append(C("ceil_nopad", r.randn((1, 2, 6, 7)), 4, 3, 0, ceil=True))
    cs.append(C("no_count_pad", r.randn((2, 2, 6, 5)), 3, 2, 1, cip=False))
    cs.append(C("ceil_no_count_pad", r.randn((1, 2, 7, 6)), 3, 2, 1, ceil=True, cip=False))
    cs.append(C("divisor", r.randn((2, 2, 6, 6)), 3, 1, 1, div=5))
    cs.append(C("divisor_neg", r.randn((1, 2, 5, 5)), 2, 1, div=-3))
    cs.append(C("empty_batch", r.randn((0, 2, 5, 5)), 2))
    cs.append(C("special", torch.tensor([[[0.0, NAN, 1.0], [INF, 2.0, -1.0], [3.0, -INF, 0.5]]], dtype=f64), 2, 1, backward=False))
    cs.append(C("int64", r.randint(-20, 20, (2, 2, 5, 5)), 2, 1, 1, backward=False))
    cs.append(C("int64_divisor", r.randint(-20, 20, (1, 2, 5, 5)), 3, 2, 1, cip=False, div=4, backward=False))
    x = r.randn((2, 5, 6, 3)).permute(0, 3, 1, 2)
    cs.append(C("noncontiguous", x, 2, 1))
    E = lambda name, x, k, s=None, p=0, div=None: error_case(op + "/" + name, op, [x], lambda x: F.avg_pool2d(
        x, AP(k, s, p)["kernel_size"], AP(k, s, p)["stride"], AP(k, s, p)["padding"], False, True, div), attrs=AP(k, s, p, div=div))
    x = r.randn((2, 3, 5, 6))
    cs.append(E("2d_input", r.randn((5, 6)), 2))
    cs.append(E("5d_input", r.randn((1, 2, 3, 5, 6)), 2))
    cs.append(E("kernel0", x, 0))
    cs.append(E("kernel0_stride1", x, 0, 1))
    cs.append(E("kernel3", x, [2, 2, 2]))
    cs.append(E("stride3", x, 2, [1, 1, 1]))
    cs.append(E("padding3", x, 2, 1, [0, 0, 0]))
    cs.append(E("stride_neg", x, 2, -1))
    cs.append(E("pad_big", x, 2, 1, 2))
    cs.append(E("pad_neg", x, 2, 1, -1))
    cs.append(E("divisor0", x, 2, div=0))
    cs.append(E("too_small", x, 6))
    cs.append(E("empty_channels", r.randn((2, 0, 5, 6)), 2))
    cs.append(E("empty_height", r.randn((2, 3, 0, 6)), 2))
    cs.append(E("bool", x > 0, 2))
    cs.append(E("int32", r.randint(0, 5, (2, 3, 5, 6), torch.int32), 2))
    cs.append(error_case(op + "/float16", op, [x.to(f16)], lambda x: F.avg_pool2d(x, 2), attrs=AP(2), mode="emulated"))
    # narrow dtypes
    cs.append(C("float32", r.randn((2, 3, 7, 7), f32), 3, 2, 1, mode="emulated"))
    cs.append(C("bfloat16", r.randn((2, 3, 7, 7), bf16), 3, 2, 1, mode="emulated"))
    cs.append(C("bfloat16_rounded_steps", (r.randn((2, 3, 9, 9)) * 3).to(bf16), 3, 1, 1, mode="emulated", exact=True))
    cs.append(C("bfloat16_no_count_pad_rounded_steps", (r.randn((2, 2, 9, 8)) * 3).to(bf16), 5, 2, 2, cip=False, mode="emulated", exact=True))
    cs.append(C("bfloat16_divisor_rounded_steps", (r.randn((1, 3, 8, 8)) * 3).to(bf16), 4, 1, 1, div=7, mode="emulated", exact=True))
    cs.append(C("float32_long_windows", (r.randn((1, 2, 20, 20)) * 100).to(f32), 9, 1, 4, mode="emulated"))
    cs.append(C("float32_rounded_steps", (r.randn((2, 2, 12, 11)) * 10).to(f32), 5, 2, 2, cip=False, mode="emulated", exact=True))
    return cs


def avg_pool3d_cases():
    cs = []
    op = "avg_pool3d"
    r = R(op)

    def C(name, x, k, s=None, p=0, ceil=False, cip=True, div=None, backward=True, mode="bench", exact=False):
        a = AP(k, s, p, ceil, cip, div)
        fn = lambda x: F.avg_pool3d(x, a["kernel_size"], a["stride"], a["padding"], ceil, cip, div)
        if mode == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    cs.append(C("k2", r.randn((2, 2, 4, 4, 4)), 2))
    cs.append(C("k3s2p1", r.randn((1, 2, 5, 6, 7)), 3, 2, 1))
    cs.append(C("rect", r.randn((1, 2, 5, 6, 7)), [2, 3, 2], [1, 2, 3], [1, 1, 0]))
    cs.append(C("unbatched", r.randn((2, 4, 5, 4)), 2, 1))
    cs.append(C("ceil", r.randn((1, 2, 5, 5, 6)), 3, 2, 1, ceil=True))
    cs.append(C("no_count_pad", r.randn((1, 2, 5, 4, 6)), 3, 2, 1, cip=False))
    cs.append(C("ceil_no_count_pad", r.randn((1, 1, 5, 6, 5)), 3, 2, 1, ceil=True, cip=False))
    cs.append(C("divisor", r.randn((1, 2, 4, 4, 4)), 2, 1, 1, div=3))
    cs.append(C("empty_batch", r.randn((0, 2, 4, 4, 4)), 2))
    cs.append(C("int64", r.randint(-20, 20, (1, 2, 4, 5, 4)), 2, 1, 1, backward=False))
    cs.append(C("int64_no_count_pad", r.randint(-20, 20, (1, 2, 4, 5, 4)), 3, 2, 1, cip=False, backward=False))
    cs.append(C("special", torch.tensor([[[[0.0, NAN], [INF, 2.0]], [[1.0, -1.0], [-INF, 3.0]]]], dtype=f64), [1, 1, 2], 1, backward=False))
    E = lambda name, x, k, s=None, p=0, div=None: error_case(op + "/" + name, op, [x], lambda x: F.avg_pool3d(
        x, AP(k, s, p)["kernel_size"], AP(k, s, p)["stride"], AP(k, s, p)["padding"], False, True, div), attrs=AP(k, s, p, div=div))
    x = r.randn((1, 2, 4, 5, 6))
    cs.append(E("3d_input", r.randn((4, 5, 6)), 2))
    cs.append(E("kernel0", x, 0))
    cs.append(E("kernel0_stride1", x, 0, 1))
    cs.append(E("kernel2", x, [2, 2]))
    cs.append(E("stride2", x, 2, [1, 1]))
    cs.append(E("padding2", x, 2, 1, [0, 0]))
    cs.append(E("stride_neg", x, 2, -1))
    cs.append(E("pad_big", x, 2, 1, 2))
    cs.append(E("pad_neg", x, 2, 1, -1))
    cs.append(E("divisor0", x, 2, div=0))
    cs.append(E("smaller_than_kernel", x, 5))
    cs.append(E("smaller_than_kernel_padded", r.randn((1, 1, 2, 4, 4)), 3, 1, 1))
    cs.append(E("empty_channels", r.randn((1, 0, 4, 5, 6)), 2))
    cs.append(E("empty_depth", r.randn((1, 2, 0, 5, 6)), 2))
    cs.append(E("int32", r.randint(0, 5, (1, 2, 4, 5, 6), torch.int32), 2))
    cs.append(error_case(op + "/bfloat16", op, [x.to(bf16)], lambda x: F.avg_pool3d(x, 2), attrs=AP(2), mode="emulated"))
    cs.append(error_case(op + "/float16", op, [x.to(f16)], lambda x: F.avg_pool3d(x, 2), attrs=AP(2), mode="emulated"))
    cs.append(C("float32", r.randn((2, 2, 5, 5, 5), f32), 3, 2, 1, mode="emulated"))
    cs.append(C("float32_long_windows", (r.randn((1, 2, 8, 8, 8)) * 100).to(f32), 5, 1, 2, mode="emulated"))
    cs.append(C("float32_rounded_steps", (r.randn((1, 2, 7, 8, 8)) * 10).to(f32), 3, 2, 1, mode="emulated", exact=True))
    return cs


# ---------------------------------------------------------- adaptive pools

def adaptive_avg_pool3d_cases():
    cs = []
    op = "adaptive_avg_pool3d"
    r = R(op)

    def C(name, x, size, backward=True, mode="bench", exact=False):
        fn = lambda x: F.adaptive_avg_pool3d(x, size)
        a = {"output_size": size if isinstance(size, list) else [size]}
        if mode == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    cs.append(C("2x3x4", r.randn((2, 2, 5, 7, 6)), [2, 3, 4]))
    cs.append(C("overlapping", r.randn((1, 2, 5, 5, 7)), [3, 4, 5]))
    cs.append(C("upsampling", r.randn((1, 1, 2, 3, 2)), [3, 5, 4]))
    cs.append(C("int_size", r.randn((2, 4, 6, 5)), 2))
    cs.append(C("unbatched", r.randn((2, 4, 6, 5)), [1, 3, 2]))
    cs.append(C("mean", r.randn((2, 3, 4, 5, 6)), 1))
    cs.append(C("mean_3d", r.randn((4, 5, 6)), 1))
    cs.append(C("zero_size", r.randn((1, 2, 4, 5, 6)), [0, 2, 2]))
    cs.append(C("empty_batch", r.randn((0, 2, 4, 5, 6)), [2, 2, 2]))
    cs.append(C("special", torch.tensor([[[[0.0, NAN], [INF, 2.0]], [[1.0, -1.0], [-INF, 3.0]]]], dtype=f64), [2, 1, 2], backward=False))
    E = lambda name, x, size, mode="bench": error_case(op + "/" + name, op, [x], lambda x: F.adaptive_avg_pool3d(x, size),
                                                       attrs={"output_size": size if isinstance(size, list) else [size]}, mode=mode)
    cs.append(E("3d_input", r.randn((4, 5, 6)), 2))
    cs.append(E("empty_depth", r.randn((1, 2, 0, 5, 6)), 2))
    cs.append(E("negative", r.randn((1, 2, 4, 5, 6)), [2, -1, 2]))
    cs.append(E("two_sizes", r.randn((1, 2, 4, 5, 6)), [2, 2]))
    cs.append(E("int64", r.randint(0, 5, (1, 2, 4, 5, 6)), 2))
    cs.append(E("int64_mean", r.randint(0, 5, (1, 2, 4, 5, 6)), 1))
    cs.append(E("bfloat16_not_mean", r.randn((1, 2, 4, 5, 6), bf16), 2, mode="emulated"))
    cs.append(C("float32", r.randn((2, 2, 5, 6, 7), f32), [2, 4, 3], mode="emulated"))
    cs.append(C("float16", r.randn((2, 2, 5, 6, 7), f16), [2, 4, 3], mode="emulated"))
    cs.append(C("bfloat16", r.randn((2, 3, 4, 5, 6), bf16), 1, mode="emulated"))
    cs.append(C("float16_rounded_steps", (r.randn((2, 3, 5, 7, 6)) * 3).to(f16), [3, 3, 5], mode="emulated", exact=True))
    cs.append(C("float32_rounded_steps", (r.randn((2, 3, 5, 7, 6)) * 10).to(f32), [3, 3, 5], mode="emulated", exact=True))
    cs.append(C("float16_mean", (r.randn((2, 3, 5, 7, 6)) * 3).to(f16), 1, mode="emulated"))
    return cs


def adaptive_max_cases(nd):
    cs = []
    op = "adaptive_max_pool%dd" % nd
    f = F.adaptive_max_pool2d if nd == 2 else F.adaptive_max_pool3d
    r = R(op)

    def C(name, x, size, idx=True, backward=True, mode="bench", exact=False):
        fn = lambda x: f(x, size, return_indices=idx)
        a = {"output_size": size if isinstance(size, list) else [size], "return_indices": idx}
        if mode == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    sh = lambda *s: list(s[3 - nd:])
    cs.append(C("basic", distinct(r, [2, 2] + sh(4, 6, 6)), sh(2, 3, 2)))
    cs.append(C("overlapping", distinct(r, [1, 2] + sh(5, 7, 5)), sh(3, 4, 3)))
    cs.append(C("values_only", distinct(r, [1, 2] + sh(5, 7, 5)), sh(3, 4, 3), idx=False))
    cs.append(C("upsampling", distinct(r, [1, 2] + sh(2, 3, 2)), sh(3, 5, 4)))
    cs.append(C("int_size", distinct(r, [2] + sh(4, 5, 6)), 2))
    cs.append(C("unbatched", distinct(r, [3] + sh(4, 5, 6)), sh(1, 2, 3)))
    cs.append(C("zero_size", distinct(r, [1, 2] + sh(4, 5, 6)), sh(0, 2, 2), backward=False))
    cs.append(C("empty_batch", distinct(r, [0, 2] + sh(4, 5, 6)), sh(2, 2, 2)))
    cs.append(C("ties", torch.ones([1, 2] + sh(3, 4, 4), dtype=f64), sh(2, 2, 3)))
    sp = torch.tensor([0.0, NAN, 1.0, INF, 2.0, NAN, -INF, -INF, 3.0, -1.0, 5.0, 4.0], dtype=f64)
    cs.append(C("special", sp.repeat(3)[:36 if nd == 3 else 12].reshape([1, 1] + sh(3, 3, 4)), sh(1, 2, 2), backward=False))
    cs.append(C("all_neg_inf", torch.full([1, 1] + sh(2, 2, 2), -INF, dtype=f64), sh(1, 1, 1), backward=False))
    E = lambda name, x, size, mode="bench": error_case(op + "/" + name, op, [x], lambda x: f(x, size, return_indices=True),
                                                       attrs={"output_size": size if isinstance(size, list) else [size], "return_indices": True}, mode=mode)
    cs.append(E("low_rank", r.randn(sh(4, 5, 6)), 2))
    cs.append(E("high_rank", r.randn([1, 2, 3] + sh(4, 5, 6)), 2))
    cs.append(E("empty_dim", r.randn([1, 2, 0] + sh(4, 5, 6)[1:]), 2))
    cs.append(E("negative", r.randn([1, 2] + sh(4, 5, 6)), [-1] + [2] * (nd - 1)))
    cs.append(E("wrong_count", r.randn([1, 2] + sh(4, 5, 6)), [2] * (nd + 1)))
    cs.append(E("int64", r.randint(0, 5, [1, 2] + sh(4, 5, 6)), 2))
    cs.append(E("float16", r.randn([1, 2] + sh(4, 5, 6), f16), 2, mode="emulated"))
    cs.append(C("float32", distinct(r, [2, 2] + sh(5, 6, 7), f32), sh(2, 4, 3), mode="emulated"))
    cs.append(C("float32_overlapping_rounded_steps", (r.randn([2, 2] + sh(5, 7, 9)) * 3).to(f32), sh(4, 6, 8), mode="emulated", exact=True))
    if nd == 2:
        cs.append(C("bfloat16", distinct(r, (2, 2, 6, 7), bf16), [4, 3], mode="emulated"))
        cs.append(C("bfloat16_overlapping_rounded_steps", (r.randn((2, 2, 7, 9)) * 3).to(bf16), [6, 8], mode="emulated", exact=True))
    else:
        cs.append(E("bfloat16", r.randn((1, 2, 4, 5, 6), bf16), 2, mode="emulated"))
    return cs

# ---------------------------------------------------------------- F.pad

def pad_cases():
    cs = []
    op = "pad"
    r = R(op)

    def C(name, x, pad, mode, backward=True, md="bench", exact=False):
        fn = lambda x: F.pad(x, pad, mode)
        a = {"pad": list(pad), "mode": mode}
        if md == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    E = lambda name, x, pad, mode, md="bench": error_case(op + "/" + name, op, [x], lambda x: F.pad(x, pad, mode),
                                                           attrs={"pad": list(pad), "mode": mode}, mode=md)
    for m in ("reflect", "replicate", "circular"):
        cs.append(C(m + "_1d", r.randn((2, 3, 6)), (2, 3), m))
        cs.append(C(m + "_2d", r.randn((2, 2, 5, 6)), (1, 2, 3, 1), m))
        cs.append(C(m + "_3d", r.randn((1, 2, 4, 5, 3)), (1, 2, 2, 1, 0, 3), m))
        cs.append(C(m + "_negative", r.randn((2, 2, 5, 6)), (-1, 2, 3, -2), m))
        cs.append(C(m + "_empty_batch", r.randn((0, 2, 5, 6)), (1, 1, 2, 0), m))
        cs.append(C(m + "_3d_lone_dim", r.randn((2, 2, 3, 4)), (0, 0, 2, 1), m))
        if m != "circular":
            cs.append(C(m + "_1d_unbatched", r.randn((3, 6)), (2, 1), m))
            cs.append(C(m + "_2d_unbatched", r.randn((3, 5, 6)), (1, 3, 2, 1), m))
            cs.append(C(m + "_3d_unbatched", r.randn((2, 3, 4, 5)), (1, 1, 2, 1, 2, 0), m))
            cs.append(E(m + "_int64", r.randint(0, 5, (2, 3, 6)), (1, 1), m))
            cs.append(E(m + "_2d_float16", r.randn((2, 3, 5, 6), f16), (1, 1, 1, 1), m, md="emulated"))
            cs.append(E(m + "_1d_empty_channels", r.randn((2, 0, 6)), (1, 1), m))
            cs.append(E(m + "_2d_empty_channels", r.randn((2, 0, 5, 6)), (1, 1, 1, 1), m))
            cs.append(E(m + "_3d_empty_channels", r.randn((1, 0, 4, 5, 6)), (1, 1, 1, 1, 1, 1), m))
            cs.append(E(m + "_1d_too_small", r.randn((2, 3, 5)), (-3, -2), m))
            cs.append(C(m + "_2d_zero_width", r.randn((2, 3, 4, 5)), (-3, -2, 0, 0), m))
            cs.append(E(m + "_2d_too_small", r.randn((2, 3, 4, 5)), (-3, -2, -2, -2), m))
            cs.append(E(m + "_3d_too_small", r.randn((1, 2, 3, 4, 5)), (-3, -2, -2, -2, -1, -2), m))
        else:
            cs.append(C(m + "_wrap_whole", r.randn((2, 2, 5)), (5, 5), m))
            cs.append(C(m + "_crop_and_wrap", r.randn((2, 2, 7)), (3, -2), m))
            cs.append(C(m + "_empty_channels", r.randn((2, 0, 5, 6)), (1, 1, 1, 1), m))
            cs.append(C(m + "_to_empty", r.randn((2, 2, 5)), (-3, -2), m))
            cs.append(C(m + "_int64", r.randint(-9, 9, (2, 2, 4, 5)), (1, 2, 2, 1), m, backward=False))
            cs.append(C(m + "_bool", r.bool((2, 2, 4, 5)), (1, 2, 2, 1), m, backward=False))
            cs.append(E(m + "_unbatched", r.randn((3, 6)), (1, 1), m))
            cs.append(E(m + "_wraps_twice", r.randn((2, 2, 5)), (6, 0), m))
            cs.append(E(m + "_negative_size", r.randn((2, 2, 5)), (-3, -3), m))
    cs.append(E("reflect_1d_pad_too_big", r.randn((2, 3, 5)), (5, 0), "reflect"))
    cs.append(E("reflect_2d_width_pad_too_big", r.randn((2, 3, 4, 5)), (1, 5, 0, 0), "reflect"))
    cs.append(E("reflect_2d_height_pad_too_big", r.randn((2, 3, 4, 5)), (1, 1, 4, 0), "reflect"))
    cs.append(E("reflect_3d_pad_too_big", r.randn((1, 2, 3, 4, 5)), (1, 1, 1, 1, 3, 0), "reflect"))
    cs.append(E("reflect_3d_width_pad_too_big", r.randn((1, 2, 3, 4, 5)), (0, 5, 1, 1, 1, 1), "reflect"))
    cs.append(E("reflect_3d_int64", r.randint(0, 5, (1, 2, 3, 4, 5)), (1, 1, 1, 1, 1, 1), "reflect"))
    cs.append(E("replicate_3d_float16", r.randn((1, 2, 3, 4, 5), f16), (1, 1, 1, 1, 1, 1), "replicate", md="emulated"))
    cs.append(E("odd_length", r.randn((2, 3, 5)), (1,), "reflect"))
    cs.append(E("too_long", r.randn((2, 3, 5)), (1, 1) * 4, "replicate"))
    cs.append(E("2_pads_on_4d", r.randn((2, 3, 4, 5)), (1, 1), "reflect"))
    cs.append(E("1d_input", r.randn((5,)), (1, 1), "circular"))
    for m in ("reflect", "replicate", "circular"):
        cs.append(C(m + "_float32", r.randn((2, 3, 5, 6), f32), (2, 1, 1, 3), m, md="emulated"))
    for m in ("reflect", "replicate"):
        cs.append(C(m + "_float32_rounded_steps", (r.randn((2, 3, 5, 6)) * 10).to(f32), (4, 1, 1, 3), m, md="emulated", exact=True))
        cs.append(C(m + "_3d_float32_rounded_steps", (r.randn((1, 2, 3, 4, 5)) * 10).to(f32), (2, 2, 1, 2, 2, 1), m, md="emulated", exact=True))
    cs.append(C("reflect_3d_float16_rounded_steps", r.randn((1, 2, 3, 4, 5), f16), (2, 2, 1, 2, 2, 1), "reflect", md="emulated", exact=True))
    cs.append(C("reflect_3d_bfloat16_rounded_steps", r.randn((1, 2, 3, 4, 5), bf16), (2, 2, 1, 2, 2, 1), "reflect", md="emulated", exact=True))
    cs.append(C("circular_float16", r.randn((2, 3, 5, 6), f16), (2, 1, 1, 3), "circular", md="emulated"))
    cs.append(C("circular_bfloat16", r.randn((2, 3, 5, 6), bf16), (2, 1, 1, 3), "circular", md="emulated"))
    cs.append(C("circular_3d_bfloat16", r.randn((1, 2, 3, 4, 5), bf16), (2, 2, 1, 2, 2, 1), "circular", md="emulated"))
    return cs

# ------------------------------------------------------------ unfold / fold

def P2(v):
    return list(v) if isinstance(v, (list, tuple)) else [v, v]


def fold_cases():
    cs = []
    r = R("im2col")
    op = "im2col"

    def U(name, x, k, d=1, p=0, s=1, backward=True, md="bench", exact=False):
        fn = lambda x: F.unfold(x, k, d, p, s)
        a = {"kernel_size": P2(k), "dilation": P2(d), "padding": P2(p), "stride": P2(s)}
        if md == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        if md == "error":
            return error_case(op + "/" + name, op, [x], fn, attrs=a)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    cs.append(U("k2", r.randn((2, 3, 5, 6)), 2))
    cs.append(U("all_params", r.randn((2, 2, 7, 8)), (3, 2), (2, 1), (1, 2), (2, 3)))
    cs.append(U("unbatched", r.randn((3, 5, 6)), (2, 3), 1, 1, 2))
    cs.append(U("empty_batch", r.randn((0, 3, 5, 6)), 2))
    cs.append(U("whole", r.randn((1, 2, 3, 4)), (3, 4)))
    cs.append(U("special", torch.tensor([[[0.0, NAN, 1.0], [INF, 2.0, -1.0], [3.0, -INF, 0.5]]], dtype=f64), 2, backward=False))
    x = r.randn((2, 3, 5, 6))
    cs.append(U("2d_input", r.randn((5, 6)), 2, md="error"))
    cs.append(U("5d_input", r.randn((1, 2, 3, 5, 6)), 2, md="error"))
    cs.append(U("kernel0", x, 0, md="error"))
    cs.append(U("dilation0", x, 2, 0, md="error"))
    cs.append(U("stride0", x, 2, 1, 0, 0, md="error"))
    cs.append(U("padding_neg", x, 2, 1, -1, md="error"))
    cs.append(U("kernel3", x, (2, 2, 2), md="error"))
    cs.append(U("too_big", x, 6, md="error"))
    cs.append(U("empty_channels", r.randn((2, 0, 5, 6)), 2, md="error"))
    cs.append(U("int64", r.randint(0, 5, (2, 3, 5, 6)), 2, md="error"))
    cs.append(U("float32", r.randn((2, 3, 6, 6), f32), 3, 1, 1, md="emulated"))
    cs.append(U("float16_rounded_steps", r.randn((2, 3, 6, 6), f16), 3, 1, 1, md="emulated", exact=True))
    cs.append(U("bfloat16_rounded_steps", r.randn((2, 3, 6, 6), bf16), 3, 1, 1, md="emulated", exact=True))
    cs.append(U("float32_rounded_steps", r.randn((2, 3, 6, 6), f32), (3, 2), 2, 2, 1, md="emulated", exact=True))

    r = R("col2im")
    op = "col2im"

    def Fo(name, x, o, k, d=1, p=0, s=1, backward=True, md="bench", exact=False):
        fn = lambda x: F.fold(x, o, k, d, p, s)
        a = {"output_size": P2(o), "kernel_size": P2(k), "dilation": P2(d), "padding": P2(p), "stride": P2(s)}
        if md == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        if md == "error":
            return error_case(op + "/" + name, op, [x], fn, attrs=a)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    cs.append(Fo("k2", r.randn((2, 12, 20)), (5, 6), 2))
    cs.append(Fo("all_params", r.randn((2, 12, 12)), (7, 8), (3, 2), (2, 1), (1, 2), (2, 3)))
    cs.append(Fo("unbatched", r.randn((18, 9)), (5, 6), (2, 3), 1, 1, 2))
    cs.append(Fo("empty_batch", r.randn((0, 12, 20)), (5, 6), 2))
    cs.append(Fo("sparse_stride", r.randn((1, 4, 4)), (5, 5), 2, 1, 0, 3))
    c = r.randn((2, 12, 20))
    cs.append(Fo("1d_input", r.randn((20,)), (5, 6), 2, md="error"))
    cs.append(Fo("4d_input", r.randn((1, 2, 12, 20)), (5, 6), 2, md="error"))
    cs.append(Fo("blocks_mismatch", r.randn((2, 12, 19)), (5, 6), 2, md="error"))
    cs.append(Fo("channels_not_divisible", r.randn((2, 11, 20)), (5, 6), 2, md="error"))
    cs.append(Fo("kernel0", c, (5, 6), 0, md="error"))
    cs.append(Fo("stride0", c, (5, 6), 2, 1, 0, 0, md="error"))
    cs.append(Fo("dilation0", c, (5, 6), 2, 0, md="error"))
    cs.append(Fo("padding_neg", c, (5, 6), 2, 1, -1, md="error"))
    cs.append(Fo("output0", c, (0, 6), 2, md="error"))
    cs.append(Fo("empty_blocks", r.randn((2, 12, 0)), (1, 1), 2, md="error"))
    cs.append(Fo("too_small", r.randn((2, 12, 1)), (1, 1), 2, md="error"))
    cs.append(Fo("output_size3", c, (5, 6, 1), 2, md="error"))
    cs.append(Fo("int64", r.randint(0, 5, (2, 12, 20)), (5, 6), 2, md="error"))
    cs.append(Fo("float32", r.randn((2, 27, 36), f32), (6, 6), 3, 1, 1, md="emulated"))
    cs.append(Fo("float16_rounded_steps", r.randn((2, 27, 36), f16), (6, 6), 3, 1, 1, md="emulated", exact=True))
    cs.append(Fo("bfloat16_rounded_steps", r.randn((2, 27, 36), bf16), (6, 6), 3, 1, 1, md="emulated", exact=True))
    cs.append(Fo("float32_rounded_steps", (r.randn((2, 27, 36)) * 10).to(f32), (6, 6), 3, 1, 1, md="emulated", exact=True))
    return cs

# ---------------------------------------------------------- interpolate

def up_attrs(x, size, sf, mode, align, recompute):
    dim = x.dim() - 2
    scales = []
    if size is not None:
        out = list(size) if isinstance(size, (list, tuple)) else [size] * dim
    else:
        sfs = list(sf) if isinstance(sf, (list, tuple)) else [sf] * dim
        if recompute:
            out = [int(math.floor(float(x.shape[i + 2]) * sfs[i])) for i in range(dim)]
        else:
            out = [int(float(x.shape[i + 2]) * sfs[i]) for i in range(dim)]
            scales = [float(v) for v in sfs]
    kmode = {"bilinear": "linear", "trilinear": "linear"}.get(mode, mode)
    return {"mode": kmode, "output_size": out, "scales": attr("floats", scales), "align_corners": bool(align)}


def upsample_cases():
    cs = []
    op = "upsample"
    r = R(op)

    def C(name, x, mode, size=None, sf=None, align=None, recompute=None, backward=True, md="bench", exact=False, err=False):
        fn = lambda x: F.interpolate(x, size=size, scale_factor=sf, mode=mode, align_corners=align, recompute_scale_factor=recompute)
        a = up_attrs(x, size, sf, mode, align, recompute)
        if err:
            return error_case(op + "/" + name, op, [x], fn, attrs=a, mode=md)
        if md == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    for m, shape in (("nearest", (2, 3, 5)), ("nearest", (2, 2, 4, 5)), ("nearest", (1, 2, 3, 4, 5)), ("nearest-exact", (2, 2, 4, 5)),
                     ("nearest-exact", (2, 3, 5)), ("nearest-exact", (1, 2, 3, 4, 3)),
                     ("linear", (2, 3, 5)), ("bilinear", (2, 2, 4, 5)), ("trilinear", (1, 2, 3, 4, 5)), ("bicubic", (2, 2, 4, 5))):
        nd = len(shape) - 2
        tag = "%s_%dd" % (m, nd)
        al = None if m.startswith("nearest") else False
        cs.append(C(tag + "_size", r.randn(shape), m, size=[7, 3, 6][:nd] if nd > 1 else 8, align=al))
        cs.append(C(tag + "_scale", r.randn(shape), m, sf=[1.7, 0.6, 2.3][:nd] if nd > 1 else 1.7, align=al))
        cs.append(C(tag + "_scale_recompute", r.randn(shape), m, sf=1.3, align=al, recompute=True))
        cs.append(C(tag + "_double", r.randn(shape), m, sf=2, align=al))
        cs.append(C(tag + "_same", r.randn(shape), m, sf=1.0, align=al))
        cs.append(C(tag + "_down", r.randn(shape), m, sf=0.45, align=al, recompute=True))
        if not m.startswith("nearest"):
            cs.append(C(tag + "_align_corners", r.randn(shape), m, sf=1.7, align=True))
            cs.append(C(tag + "_align_corners_size", r.randn(shape), m, size=[1, 5, 2][:nd] if nd > 1 else 1, align=True))
    cs.append(C("bicubic_2d_down_unclamped", r.randn((1, 2, 9, 7)), "bicubic", sf=0.3, align=False))
    cs.append(C("nearest_2d_empty_batch", r.randn((0, 2, 4, 5)), "nearest", sf=2))
    cs.append(C("bilinear_2d_special", torch.tensor([[[[0.0, NAN, 1.0], [INF, 2.0, -1.0]]]], dtype=f64), "bilinear", size=[3, 5], align=False, backward=False))
    cs.append(C("nearest_uint8", r.randint(0, 200, (1, 2, 4, 5), torch.uint8), "nearest", sf=1.5, backward=False))
    cs.append(C("nearest_exact_uint8", r.randint(0, 200, (1, 2, 4, 5), torch.uint8), "nearest-exact", sf=1.5, backward=False))
    x = r.randn((2, 3, 5))
    cs.append(C("zero_output", x, "linear", size=0, align=False, err=True))
    cs.append(C("zero_output_2d", r.randn((2, 3, 4, 5)), "nearest", size=[0, 3], err=True))
    cs.append(C("zero_output_3d", r.randn((1, 2, 3, 4, 5)), "trilinear", size=[2, 0, 3], align=False, err=True))
    cs.append(C("empty_channels", r.randn((2, 0, 5)), "nearest", size=7, err=True))
    cs.append(C("int64_nearest", r.randint(0, 5, (2, 3, 5)), "nearest", size=7, err=True))
    cs.append(C("int64_linear", r.randint(0, 5, (2, 3, 5)), "linear", size=7, align=False, err=True))
    cs.append(C("float16_nearest", r.randn((2, 3, 5), f16), "nearest", size=7, err=True, md="emulated"))
    cs.append(C("float16_bilinear", r.randn((2, 3, 4, 5), f16), "bilinear", size=7, align=False, err=True, md="emulated"))
    cs.append(C("float16_bicubic", r.randn((2, 3, 4, 5), f16), "bicubic", size=7, align=False, err=True, md="emulated"))
    cs.append(C("bfloat16_nearest_exact", r.randn((2, 3, 4, 5), bf16), "nearest-exact", size=7, err=True, md="emulated"))
    # narrow dtypes
    for m, shape in (("nearest", (2, 2, 4, 5)), ("nearest-exact", (2, 2, 4, 5)), ("linear", (2, 3, 9)), ("bilinear", (2, 2, 5, 6)),
                     ("trilinear", (1, 2, 3, 4, 5)), ("bicubic", (2, 2, 5, 6))):
        al = None if m.startswith("nearest") else False
        for dn, d in (("float32", f32), ("bfloat16", bf16)):
            if m == "nearest-exact" and d == bf16:
                continue
            cs.append(C("%s_%s" % (m, dn), r.randn(shape, d), m, sf=1.7, align=al, md="emulated"))
    cs.append(C("bicubic_bfloat16_forward_rounded_steps", (r.randn((2, 2, 5, 6)) * 3).to(bf16), "bicubic", sf=1.7, align=False, md="emulated",
                exact=True, backward=False))
    cs.append(C("bicubic_bfloat16_align_forward_rounded_steps", (r.randn((2, 2, 5, 6)) * 3).to(bf16), "bicubic", sf=0.7, align=True, md="emulated",
                exact=True, backward=False))
    cs.append(C("nearest_float32_rounded_steps", (r.randn((2, 2, 7, 9)) * 3).to(f32), "nearest", sf=(0.45, 0.7), md="emulated", exact=True))
    cs.append(C("nearest_bfloat16_down_rounded_steps", (r.randn((2, 2, 7, 9)) * 3).to(bf16), "nearest", sf=(0.45, 0.7), md="emulated", exact=True))
    # nearest's source indices at bfloat16: 1-d with its bfloat16 scale
    for L, sf in ((9, 0.6), (3, 1.3), (17, 0.35), (11, 3.1)):
        cs.append(C("nearest_1d_bfloat16_L%d_rounded_steps" % L, r.randn((2, 3, L), bf16), "nearest", sf=sf, md="emulated", exact=True))
    cs.append(C("nearest_1d_bfloat16_size_rounded_steps", r.randn((2, 3, 13), bf16), "nearest", size=18, md="emulated", exact=True))
    cs.append(C("nearest_2d_bfloat16_rounded_steps", r.randn((2, 3, 9, 3), bf16), "nearest", sf=(0.6, 1.3), md="emulated", exact=True))
    cs.append(C("bilinear_bfloat16_one_channel_forward_rounded_steps", (r.randn((2, 1, 5, 6)) * 3).to(bf16), "bilinear", sf=1.7, align=False,
                md="emulated", exact=True, backward=False))
    cs.append(C("bilinear_bfloat16_one_channel_align_forward_rounded_steps", (r.randn((1, 1, 7, 4)) * 3).to(bf16), "bilinear", size=[9, 13], align=True,
                md="emulated", exact=True, backward=False))
    cs.append(C("trilinear_bfloat16_one_channel_forward_rounded_steps", (r.randn((1, 1, 3, 4, 5)) * 3).to(bf16), "trilinear", sf=1.7, align=False,
                md="emulated", exact=True, backward=False))
    cs.append(C("bilinear_bfloat16_one_channel", (r.randn((2, 1, 5, 6)) * 3).to(bf16), "bilinear", sf=2.3, align=False, md="emulated"))
    cs.append(C("nearest_2d_bfloat16_one_channel_rounded_steps", r.randn((2, 1, 9, 3), bf16), "nearest", sf=(0.6, 1.3), md="emulated", exact=True))
    cs.append(C("nearest_3d_bfloat16_rounded_steps", r.randn((1, 2, 9, 3, 4), bf16), "nearest", sf=(0.6, 1.3, 1.0), md="emulated", exact=True))
    for m, shape in (("linear", (2, 3, 9)), ("bilinear", (2, 2, 5, 6)), ("trilinear", (1, 2, 3, 4, 5))):
        for dn, d in (("float32", f32), ("bfloat16", bf16)):
            x = (r.randn(shape) * 3).to(d)
            cs.append(C("%s_%s_forward_rounded_steps" % (m, dn), x, m, sf=2.3, align=False, md="emulated", exact=True, backward=False))
            cs.append(C("%s_%s_size_forward_rounded_steps" % (m, dn), x, m, size=[4, 7, 11][3 - len(shape) + 2:] if len(shape) > 3 else 13,
                        align=False, md="emulated", exact=True, backward=False))
            cs.append(C("%s_%s_align_forward_rounded_steps" % (m, dn), x, m, sf=1.6, align=True, md="emulated", exact=True, backward=False))
            cs.append(C("%s_%s_rounded_steps" % (m, dn), x, m, sf=2.3, align=False, md="emulated", exact=True))
    return cs

# ---------------------------------------------------------- max_unpool

def max_unpool_cases():
    cs = []
    op = "max_unpool"
    r = R(op)

    def pooled(nd, shape, k, s=None, p=0):
        x = distinct(r, shape)
        f = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd]
        return f(x, k, s, p, return_indices=True)

    def C(name, nd, y, i, k, s=None, p=0, os=None, backward=True, md="bench", err=False):
        f = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}[nd]
        fn = lambda y, i: f(y, i, k, s, p, os)
        ks = [k] * nd if isinstance(k, int) else list(k)
        ss = ks if s is None else ([s] * nd if isinstance(s, int) else list(s))
        ps = [p] * nd if isinstance(p, int) else list(p)
        if os is None:
            out = [(y.shape[-nd + d] - 1) * ss[d] + ks[d] - 2 * ps[d] for d in range(nd)]
        else:
            out = list(os)[-nd:]
        a = {"output_size": out}
        if nd == 3:
            a["stride"], a["padding"] = ss, ps
        if err:
            return error_case(op + "/" + name, op, [y, i], fn, attrs=a, mode=md)
        if md == "emulated":
            return emu(op + "/" + name, op, [y, i], fn, attrs=a, backward=backward)
        return case(op + "/" + name, op, [y, i], fn, attrs=a, backward=backward)

    y, i = pooled(2, (2, 3, 6, 6), 2)
    cs.append(C("2d", 2, y, i, 2))
    y, i = pooled(2, (2, 2, 7, 6), 3, 2, 1)
    cs.append(C("2d_overlapping", 2, y, i, 3, 2, 1, os=(7, 6), backward=False))
    cs.append(C("2d_output_size", 2, y, i, 3, 2, 1, os=(8, 6), backward=False))
    y, i = pooled(2, (3, 6, 6), 2)
    cs.append(C("2d_unbatched", 2, y, i, 2))
    y, i = pooled(1, (2, 3, 9), 3, 2)
    cs.append(C("1d_overlapping", 1, y, i, 3, 2, backward=False))
    cs.append(C("1d_output_size", 1, y, i, 3, 2, os=[2, 3, 10], backward=False))
    y, i = pooled(1, (2, 3, 9), 2, 3)
    cs.append(C("1d", 1, y, i, 2, 3))
    y, i = pooled(3, (1, 2, 4, 4, 6), 2)
    cs.append(C("3d", 3, y, i, 2))
    y, i = pooled(3, (2, 4, 5, 6), (2, 2, 3), (1, 2, 3), (1, 1, 0))
    cs.append(C("3d_unbatched_params", 3, y, i, (2, 2, 3), (1, 2, 3), (1, 1, 0), os=(4, 5, 6), backward=False))
    y, i = pooled(3, (2, 4, 6, 6), (2, 3, 2), (2, 3, 3), (1, 0, 1))
    cs.append(C("3d_unbatched_strided", 3, y, i, (2, 3, 2), (2, 3, 3), (1, 0, 1)))
    # the same index twice: the later input wins
    cs.append(C("repeated_index", 2, torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]], dtype=f64), torch.tensor([[[[5, 5], [0, 5]]]]), 2, backward=False))
    cs.append(C("empty_batch", 2, r.randn((0, 2, 3, 3)), torch.zeros((0, 2, 3, 3), dtype=torch.int64), 2))
    y, i = pooled(2, (2, 3, 6, 6), 2)
    bad = i.clone()
    bad[1, 2, 1, 1] = 500
    cs.append(C("invalid_index", 2, y, bad, 2, err=True))
    neg = i.clone()
    neg[0, 1, 0, 2] = -3
    cs.append(C("negative_index", 2, y, neg, 2, err=True))
    cs.append(C("int32_indices", 2, y, i.int(), 2, err=True))
    cs.append(C("indices_shape", 2, y, i[:, :2], 2, err=True))
    cs.append(C("2d_input", 2, y[0, 0], i[0, 0], 2, err=True))
    cs.append(C("empty_channels", 2, y[:, :0], i[:, :0], 2, err=True))
    cs.append(C("int64_input", 2, torch.ones((1, 1, 2, 2), dtype=torch.int64), torch.tensor([[[[0, 1], [2, 3]]]]), 2, err=True))
    y3, i3 = pooled(3, (1, 2, 4, 4, 4), 2)
    bad3 = i3.clone()
    bad3[0, 1, 1, 1, 0] = 1000
    cs.append(C("3d_invalid_index", 3, y3, bad3, 2, err=True))
    cs.append(C("3d_stride0", 3, y3, i3, 2, 0, err=True))
    cs.append(C("3d_3d_input", 3, y3[0, 0], i3[0, 0], 2, err=True))
    y1, i1 = pooled(1, (2, 3, 9), 3, 2)
    bad1 = i1.clone()
    bad1[1, 1, 2] = 77
    cs.append(C("1d_invalid_index", 1, y1, bad1, 3, 2, err=True))
    cs.append(C("bfloat16", 2, y.to(bf16), i, 2, err=True, md="emulated"))
    cs.append(C("float16", 2, y.to(f16), i, 2, err=True, md="emulated"))
    cs.append(C("float32", 2, y.float(), i, 2, md="emulated"))
    cs.append(C("3d_float32", 3, y3.float(), i3, 2, md="emulated"))
    return cs

# ---------------------------------------------------------- lp_pool

def lp_pool_cases():
    cs = []
    op = "lp_pool"
    r = R(op)

    def C(name, nd, x, p, k, s=None, ceil=False, backward=True, md="bench", exact=False, err=False):
        f = F.lp_pool1d if nd == 1 else F.lp_pool2d
        fn = lambda x: f(x, p, k, s, ceil)
        ks = [k] * nd if isinstance(k, int) else list(k)
        ss = ks if s is None else ([s] * nd if isinstance(s, int) else list(s))
        a = {"norm_type": float(p), "kernel_size": ks, "stride": ss, "ceil_mode": ceil}
        if err:
            return error_case(op + "/" + name, op, [x], fn, attrs=a, mode=md)
        if md == "emulated":
            return emu(op + "/" + name, op, [x], fn, attrs=a, exact=exact, backward=backward)
        return case(op + "/" + name, op, [x], fn, attrs=a, backward=backward)

    pos = lambda shape, d=f64: r.rand(shape, f64, 0.2, 2.0).to(d)
    cs.append(C("2d_p2", 2, r.randn((2, 3, 6, 6)), 2, 2))
    cs.append(C("2d_p3_stride", 2, pos((2, 2, 7, 6)), 3, (3, 2), (2, 1)))
    cs.append(C("2d_p1_5_ceil", 2, pos((1, 2, 7, 7)), 1.5, 3, 2, ceil=True))
    cs.append(C("2d_unbatched", 2, pos((3, 6, 5)), 2.5, 2, 1))
    cs.append(C("1d_p2", 1, r.randn((2, 3, 9)), 2, 3))
    cs.append(C("1d_p4_stride_ceil", 1, pos((2, 3, 10)), 4, 3, 2, ceil=True))
    cs.append(C("1d_unbatched", 1, pos((3, 8)), 1, 2, 1))
    cs.append(C("2d_empty_batch", 2, pos((0, 2, 4, 4)), 2, 2))
    cs.append(C("2d_special", 2, torch.tensor([[[0.0, NAN, 1.0, 2.0], [INF, 2.0, -1.0, 0.0]]], dtype=f64), 2, 2, backward=False))
    cs.append(C("2d_too_small", 2, pos((2, 3, 2, 2)), 2, 3, err=True))
    cs.append(C("1d_too_small", 1, pos((2, 3, 2)), 2, 3, err=True))
    cs.append(C("2d_float16", 2, pos((2, 3, 4, 4), f16), 2, 2, err=True, md="emulated"))
    cs.append(C("2d_float32", 2, pos((2, 3, 6, 6), f32), 3, 2, 1, md="emulated"))
    cs.append(C("2d_bfloat16", 2, pos((2, 3, 6, 6), bf16), 3, 2, 1, md="emulated"))
    cs.append(C("1d_float32", 1, pos((2, 3, 9), f32), 2, 3, 2, md="emulated"))
    cs.append(C("1d_bfloat16", 1, pos((2, 3, 9), bf16), 2, 3, 2, md="emulated"))
    cs.append(C("2d_bfloat16_p2", 2, r.randn((2, 3, 6, 6)).to(bf16), 2, 2, md="emulated"))
    cs.append(C("2d_bfloat16_p3_rounded_steps", 2, pos((2, 3, 6, 6), bf16), 3, 2, md="emulated", exact=True))
    cs.append(C("1d_float32_p3", 1, pos((2, 3, 9), f32), 3, 3, 2, md="emulated"))
    return cs


def main():
    cs = avg_pool2d_cases() + avg_pool3d_cases() + adaptive_avg_pool3d_cases() + adaptive_max_cases(2) + adaptive_max_cases(3)
    cs += pad_cases() + fold_cases() + upsample_cases() + max_unpool_cases() + lp_pool_cases()
    print("\n".join(REPORT))
    write_group("pool", cs)


if __name__ == "__main__":
    main()
