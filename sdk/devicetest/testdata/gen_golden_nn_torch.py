"""Golden cases for the nn ops of msprobe's torch list: group "nn_torch".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_nn_torch.py

writes golden/nn_torch.json.gz (format: golden_lib.py) from real PyTorch
1.13 on the CPU. Per op: float64 cases (shapes, 0-d, empty, special values
NaN, ±inf, ±0, parameters), integer inputs where PyTorch takes them, error
cases with PyTorch's message, backward cases for differentiable ops, and
one case per narrow dtype (float32, float16, bfloat16; mode "emulated",
with a backward where the op has one). Where PyTorch 1.13's CPU has no
kernel at the dtype (float16 for all of these), the narrow case is computed
in float32 and rounded, as PyTorch's own half kernels compute in float32;
its name then ends in "_via_f32".

Narrow cases are checked against the float64 result of the same inputs
rounded to the dtype: where PyTorch is more than one unit in the last place
off (bfloat16 kernels that round every intermediate, float32 sums), the
case carries an ulp field of that deviation plus one, so that a device
computing the correctly rounded value passes as PyTorch does. The script
prints every such case.
"""

import math

import torch

from golden_lib import REPORT, Rand, case, checked, error_case, run_torch, via_f32, write_group

f64 = torch.float64
DTYPES = {"float64": f64, "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NAN, INF = float("nan"), float("inf")


def R(name):
    return Rand("nn_torch/" + name)


def special(dtype=f64):
    return torch.tensor([0.0, -0.0, NAN, INF, -INF, 1.5, -2.0, 0.5, -0.25, 3.0], dtype=dtype)


def narrow(op, fn, mk, backward=True, attrs=None, label=None, dtypes=NARROW):
    """One case per narrow dtype (emulated), through float32 where PyTorch
    1.13's CPU lacks the kernel."""
    cs = []
    for dn, d in dtypes.items():
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


def normal(r, shape, d=f64, scale=1.0):
    return (r.randn(shape, f64) * scale).to(d)


def away_from(r, shape, points, d=f64, scale=1.5, gap=0.05):
    """Normal values at least gap away from the kinks in points (finite
    differences of a float64 case never straddle one)."""
    x = r.randn(shape, f64) * scale
    for p in points:
        near = (x - p).abs() < gap
        x = torch.where(near, x + 2 * gap * torch.sign(x - p + 1e-300), x)
    return x.to(d)


# ---------------------------------------------------------------- activations

def celu_cases():
    cs = []
    r = R("celu")
    cs.append(case("celu/2x3", "celu", [away_from(r, (2, 3), [0])], torch.celu))
    cs.append(case("celu/alpha2", "celu", [away_from(r, (3, 4), [0])], lambda x: torch.celu(x, 2.0), attrs={"alpha": 2.0}))
    cs.append(case("celu/alpha_neg", "celu", [away_from(r, (5,), [0])], lambda x: torch.celu(x, -1.5), attrs={"alpha": -1.5}))
    cs.append(case("celu/0d", "celu", [torch.tensor(-0.75, dtype=f64)], torch.celu, backward=False))
    cs.append(case("celu/empty", "celu", [r.randn((0, 3))], torch.celu))
    cs.append(case("celu/special", "celu", [special()], lambda x: torch.celu(x, 0.5), attrs={"alpha": 0.5}, backward=False))
    cs.append(case("celu/tiny", "celu", [torch.tensor([-1e-9, -1e-17, -40.0, -800.0, 1e-300], dtype=f64)], torch.celu, backward=False))
    cs.append(case("celu/inplace", "celu", [away_from(r, (2, 3), [0])], lambda x: torch.celu_(x.clone(), 0.5),
                   attrs={"alpha": 0.5, "inplace": True}))
    cs.append(error_case("celu/alpha0", "celu", [r.randn((3,))], lambda x: torch.celu(x, 0.0), attrs={"alpha": 0.0}))
    cs.append(error_case("celu/int64", "celu", [torch.tensor([1, -2, 0])], torch.celu))
    cs.append(error_case("celu/bool", "celu", [torch.tensor([True, False])], torch.celu))
    cs += narrow("celu", lambda x: torch.celu(x, 2.0), lambda r, d: [away_from(r, (2, 3), [0], d)], attrs={"alpha": 2.0})
    return cs


def selu_cases():
    cs = []
    r = R("selu")
    cs.append(case("selu/2x3", "selu", [away_from(r, (2, 3), [0])], torch.selu))
    cs.append(case("selu/3d", "selu", [away_from(r, (2, 3, 4), [0], scale=3.0)], torch.selu))
    cs.append(case("selu/0d", "selu", [torch.tensor(-0.75, dtype=f64)], torch.selu))
    cs.append(case("selu/empty", "selu", [r.randn((0, 3))], torch.selu))
    cs.append(case("selu/special", "selu", [special()], torch.selu, backward=False))
    cs.append(case("selu/inplace", "selu", [away_from(r, (2, 3), [0])], lambda x: torch.selu_(x.clone()), attrs={"inplace": True}))
    cs.append(error_case("selu/int64", "selu", [torch.tensor([1, -2, 0])], torch.selu))
    cs.append(error_case("selu/inplace_int", "selu", [torch.tensor([1, -2, 0])], lambda x: torch.selu_(x.clone()), attrs={"inplace": True}))
    cs += narrow("selu", torch.selu, lambda r, d: [away_from(r, (2, 3), [0], d)])
    return cs


def threshold_cases():
    cs = []
    r = R("threshold")
    cs.append(case("threshold/2x3", "threshold", [away_from(r, (2, 3), [0.5])], lambda x: torch.threshold(x, 0.5, -3.0),
                   attrs={"threshold": 0.5, "value": -3.0}))
    cs.append(case("threshold/at_threshold", "threshold", [torch.tensor([0.5, 0.25, 1.0, 0.5000001], dtype=f64)],
                   lambda x: torch.threshold(x, 0.5, 2.0), attrs={"threshold": 0.5, "value": 2.0}, backward=False))
    cs.append(case("threshold/0d", "threshold", [torch.tensor(-0.75, dtype=f64)], lambda x: torch.threshold(x, 0.0, 1.0),
                   attrs={"threshold": 0.0, "value": 1.0}))
    cs.append(case("threshold/empty", "threshold", [r.randn((0, 2))], lambda x: torch.threshold(x, 0.0, 1.0),
                   attrs={"threshold": 0.0, "value": 1.0}))
    cs.append(case("threshold/special", "threshold", [special()], lambda x: torch.threshold(x, 0.0, NAN),
                   attrs={"threshold": 0.0, "value": NAN}, backward=False))
    cs.append(case("threshold/inf_threshold", "threshold", [special()], lambda x: torch.threshold(x, -INF, 7.0),
                   attrs={"threshold": -INF, "value": 7.0}, backward=False))
    cs.append(case("threshold/inplace", "threshold", [away_from(r, (2, 3), [0.5])], lambda x: torch.threshold_(x.clone(), 0.5, 3.0),
                   attrs={"threshold": 0.5, "value": 3.0, "inplace": True}))
    xi = torch.tensor([3, -2, 0, 7, -5, 1])
    for dn, d in (("int64", torch.int64), ("int32", torch.int32), ("int8", torch.int8), ("uint8", torch.uint8)):
        x = xi.to(d) if d != torch.uint8 else xi.abs().to(d)
        cs.append(case("threshold/" + dn, "threshold", [x], lambda x: torch.threshold(x, 1.5, 7.9),
                       attrs={"threshold": 1.5, "value": 7.9}, backward=False))
    cs.append(case("threshold/int_neg_threshold", "threshold", [xi], lambda x: torch.threshold(x, -1.5, -9.5),
                   attrs={"threshold": -1.5, "value": -9.5}, backward=False))
    cs.append(case("threshold/inplace_int", "threshold", [xi], lambda x: torch.threshold_(x.clone(), 0, 4),
                   attrs={"threshold": 0.0, "value": 4.0, "inplace": True}, backward=False))
    cs.append(error_case("threshold/bool", "threshold", [torch.tensor([True, False])], lambda x: torch.threshold(x, 0, 1),
                         attrs={"threshold": 0.0, "value": 1.0}))
    cs += narrow("threshold", lambda x: torch.threshold(x, 0.1, -0.7), lambda r, d: [away_from(r, (2, 3), [0.1], d)],
                 attrs={"threshold": 0.1, "value": -0.7})
    return cs


def hardshrink_cases():
    cs = []
    r = R("hardshrink")
    cs.append(case("hardshrink/2x3", "hardshrink", [away_from(r, (2, 3), [0.5, -0.5])], torch.hardshrink))
    cs.append(case("hardshrink/lambd1", "hardshrink", [away_from(r, (3, 4), [1, -1], scale=2.0)], lambda x: torch.hardshrink(x, 1.0),
                   attrs={"lambd": 1.0}))
    cs.append(case("hardshrink/lambd_neg", "hardshrink", [away_from(r, (4,), [0.5, -0.5])], lambda x: torch.hardshrink(x, -0.5),
                   attrs={"lambd": -0.5}))
    cs.append(case("hardshrink/edges", "hardshrink", [torch.tensor([0.5, -0.5, 0.5000001, -0.5000001, 0.0], dtype=f64)],
                   torch.hardshrink, backward=False))
    cs.append(case("hardshrink/0d", "hardshrink", [torch.tensor(-0.75, dtype=f64)], torch.hardshrink))
    cs.append(case("hardshrink/empty", "hardshrink", [r.randn((2, 0))], torch.hardshrink))
    cs.append(case("hardshrink/special", "hardshrink", [special()], torch.hardshrink, backward=False))
    cs.append(error_case("hardshrink/int64", "hardshrink", [torch.tensor([1, -2, 0])], torch.hardshrink))
    cs += narrow("hardshrink", lambda x: torch.hardshrink(x, 0.3), lambda r, d: [away_from(r, (2, 3), [0.3, -0.3], d)],
                 attrs={"lambd": 0.3})
    return cs


def prelu_cases():
    cs = []
    r = R("prelu")
    cs.append(case("prelu/nchw_per_channel", "prelu", [away_from(r, (2, 3, 2, 2), [0]), r.rand((3,), f64, 0.05, 0.5)], torch.prelu))
    cs.append(case("prelu/single_weight", "prelu", [away_from(r, (2, 3, 4), [0]), torch.tensor([0.25], dtype=f64)], torch.prelu))
    cs.append(case("prelu/2d", "prelu", [away_from(r, (4, 3), [0]), r.randn((3,))], torch.prelu))
    cs.append(case("prelu/1d", "prelu", [away_from(r, (5,), [0]), torch.tensor([-0.5], dtype=f64)], torch.prelu))
    cs.append(case("prelu/0d_weight", "prelu", [away_from(r, (2, 3), [0]), torch.tensor(0.3, dtype=f64)], torch.prelu))
    cs.append(case("prelu/0d_input", "prelu", [torch.tensor(-1.5, dtype=f64), torch.tensor([0.2], dtype=f64)], torch.prelu))
    cs.append(case("prelu/empty", "prelu", [r.randn((0, 3)), torch.tensor([0.1, 0.2, 0.3], dtype=f64)], torch.prelu))
    cs.append(case("prelu/special", "prelu", [special().reshape(5, 2), torch.tensor([0.5, -2.0], dtype=f64)], torch.prelu, backward=False))
    cs.append(error_case("prelu/channel_mismatch", "prelu", [r.randn((2, 3)), r.randn((2,))], torch.prelu))
    cs.append(error_case("prelu/1d_many_weights", "prelu", [r.randn((3,)), r.randn((3,))], torch.prelu))
    cs.append(error_case("prelu/weight_2d", "prelu", [r.randn((2, 3)), r.randn((1, 3))], torch.prelu))
    cs.append(error_case("prelu/weight_dtype", "prelu", [r.randn((2, 3)), r.randn((3,)).float()], torch.prelu))
    cs.append(error_case("prelu/int64", "prelu", [torch.tensor([1, -2]), torch.tensor([1])], torch.prelu))
    cs += narrow("prelu", torch.prelu, lambda r, d: [away_from(r, (2, 3, 5), [0], d), r.rand((3,), f64, 0.05, 0.5).to(d)])
    # PyTorch's bits at bfloat16: the weight gradient sums a bfloat16
    # collector, each sample's channel sum rounded, the samples accumulated
    # at bfloat16
    bf16 = torch.bfloat16
    r = R("prelu/bfloat16_rounded_steps")
    cs.append(case("prelu/bfloat16_rounded_steps", "prelu", [r.randn((6, 4, 10)).to(bf16), r.rand((4,), f64, 0.05, 0.5).to(bf16)],
                   torch.prelu, mode="emulated", ulp=0))
    r = R("prelu/bfloat16_single_weight_rounded_steps")
    cs.append(case("prelu/bfloat16_single_weight_rounded_steps", "prelu", [r.randn((3, 4, 5)).to(bf16), torch.tensor([0.25], dtype=bf16)],
                   torch.prelu, mode="emulated", ulp=0))
    return cs


def add_relu_cases():
    cs = []
    r = R("add_relu")
    fn = torch._add_relu
    cs.append(case("add_relu/broadcast", "add_relu", [r.randn((2, 3)), r.randn((3,))], fn, backward=False))
    cs.append(case("add_relu/alpha", "add_relu", [r.randn((2, 3)), r.randn((2, 3))], lambda x, y: fn(x, y, alpha=-2.5),
                   attrs={"alpha": -2.5}, backward=False))
    cs.append(case("add_relu/scalar", "add_relu", [r.randn((2, 3)), 0.25], fn, backward=False))
    cs.append(case("add_relu/scalar_alpha", "add_relu", [r.randn((4,)), 2], lambda x, y: fn(x, y, 0.5), attrs={"alpha": 0.5}, backward=False))
    cs.append(case("add_relu/0d", "add_relu", [torch.tensor(2.0, dtype=f64), r.randn((3,))], fn, backward=False))
    cs.append(case("add_relu/empty", "add_relu", [r.randn((0, 3)), r.randn((3,))], fn, backward=False))
    cs.append(case("add_relu/zeros_inf", "add_relu", [torch.tensor([-0.0, 0.0, -1.0, INF, -INF, 1e308, 3.0], dtype=f64),
                                                      torch.tensor([0.0, -0.0, 1.0, 0.0, 1.0, 1e308, -5.0], dtype=f64)], fn, backward=False))
    cs.append(case("add_relu/float32_inf", "add_relu", [torch.tensor([INF, 3e38, -INF, 1.0]), torch.tensor([1.0, 3e38, 0.0, 2.0])], fn,
                   backward=False, mode="emulated"))
    cs.append(case("add_relu/float32_self_float64", "add_relu", [torch.tensor([3e38, 1.0, -2.0]), torch.tensor([3e38, 0.5, 1.0], dtype=f64)],
                   fn, backward=False))
    xi = torch.tensor([3, -2, 0, 7, -5, 100])
    cs.append(case("add_relu/int64", "add_relu", [xi, torch.tensor([1, 1, -1, -9, 9, 27])], fn, backward=False))
    cs.append(case("add_relu/int64_float_alpha", "add_relu", [xi, torch.tensor([2, 2, 2, 2, 2, 2])], lambda x, y: fn(x, y, alpha=1.5),
                   attrs={"alpha": 1.5}, backward=False))
    cs.append(case("add_relu/int8_wrap", "add_relu", [xi.to(torch.int8), torch.tensor([100, 1, 1, 125, 1, 100], dtype=torch.int8)], fn, backward=False))
    cs.append(case("add_relu/int32_self_int64", "add_relu", [torch.tensor([2 ** 31 - 1, 5, -3], dtype=torch.int32), torch.tensor([5, 2 ** 40, 1])],
                   fn, backward=False))
    cs.append(case("add_relu/int16_scalar_float", "add_relu", [xi.to(torch.int16), 1.5], fn, backward=False))
    cs.append(case("add_relu/int64_self_float", "add_relu", [xi, torch.tensor([0.5, 1e30, INF, 1.0, 2.5, -1e3])], fn,
                   backward=False, mode="emulated"))
    cs.append(case("add_relu/inplace", "add_relu", [r.randn((2, 3)), r.randn((3,))], lambda x, y: torch._add_relu_(x.clone(), y),
                   attrs={"inplace": True}, backward=False))
    cs.append(error_case("add_relu/inplace_int_float", "add_relu", [xi, r.randn((6,))], lambda x, y: torch._add_relu_(x.clone(), y),
                         attrs={"inplace": True}))
    cs.append(error_case("add_relu/inplace_broadcast", "add_relu", [r.randn((1,)), r.randn((3,))], lambda x, y: torch._add_relu_(x.clone(), y),
                         attrs={"inplace": True}))
    for dn, x in (("float16", r.randn((3,)).half()), ("bfloat16", r.randn((3,)).bfloat16()),
                  ("bool", torch.tensor([True, False, True])), ("uint8", torch.tensor([1, 2, 3], dtype=torch.uint8))):
        cs.append(error_case("add_relu/" + dn, "add_relu", [x, x.clone()], fn))
    cs.append(case("add_relu/float32", "add_relu", [r.randn((2, 3)).float(), r.randn((2, 3)).float()],
                   lambda x, y: fn(x, y, alpha=0.5), attrs={"alpha": 0.5}, backward=False, mode="emulated"))
    return cs


def rrelu_cases():
    cs = []
    r = R("rrelu")
    fn = lambda x: torch.rrelu(x)  # noqa: E731
    cs.append(case("rrelu/2x3", "rrelu", [away_from(r, (2, 3), [0])], fn))
    cs.append(case("rrelu/bounds", "rrelu", [away_from(r, (3, 4), [0])], lambda x: torch.rrelu(x, 0.1, 0.7),
                   attrs={"lower": 0.1, "upper": 0.7}))
    cs.append(case("rrelu/negative_slope", "rrelu", [away_from(r, (4,), [0])], lambda x: torch.rrelu(x, -0.9, -0.2),
                   attrs={"lower": -0.9, "upper": -0.2}))
    cs.append(case("rrelu/0d", "rrelu", [torch.tensor(-0.75, dtype=f64)], fn))
    cs.append(case("rrelu/empty", "rrelu", [r.randn((0, 3))], fn))
    cs.append(case("rrelu/special", "rrelu", [special()], fn, backward=False))
    cs.append(case("rrelu/inplace", "rrelu", [away_from(r, (2, 3), [0])], lambda x: torch.rrelu_(x.clone(), 0.2, 0.4),
                   attrs={"lower": 0.2, "upper": 0.4, "inplace": True}))
    cs.append(error_case("rrelu/lower_above_upper", "rrelu", [r.randn((3,))], lambda x: torch.rrelu(x, 0.5, 0.25),
                         attrs={"lower": 0.5, "upper": 0.25}))
    cs.append(error_case("rrelu/int64", "rrelu", [torch.tensor([1, -2, 0])], fn))
    cs += narrow("rrelu", lambda x: torch.rrelu(x, 0.1, 0.3), lambda r, d: [away_from(r, (2, 3), [0], d)],
                 attrs={"lower": 0.1, "upper": 0.3})
    return cs


# ---------------------------------------------------------------- data movement

def shuffle_cases():
    cs = []
    r = R("pixel_shuffle")
    ps, pu = torch.pixel_shuffle, torch.pixel_unshuffle
    cs.append(case("pixel_shuffle/r2", "pixel_shuffle", [r.randn((2, 8, 2, 3))], lambda x: ps(x, 2), attrs={"upscale_factor": 2}))
    cs.append(case("pixel_shuffle/r3_3d", "pixel_shuffle", [r.randn((9, 2, 1))], lambda x: ps(x, 3), attrs={"upscale_factor": 3}))
    cs.append(case("pixel_shuffle/5d", "pixel_shuffle", [r.randn((2, 1, 4, 2, 2))], lambda x: ps(x, 2), attrs={"upscale_factor": 2}))
    cs.append(case("pixel_shuffle/r1", "pixel_shuffle", [r.randn((1, 3, 2, 2))], lambda x: ps(x, 1), attrs={"upscale_factor": 1}))
    cs.append(case("pixel_shuffle/empty", "pixel_shuffle", [r.randn((0, 4, 2, 2))], lambda x: ps(x, 2), attrs={"upscale_factor": 2}, backward=False))
    cs.append(case("pixel_shuffle/int64", "pixel_shuffle", [r.randint(-9, 9, (1, 4, 2, 3))], lambda x: ps(x, 2),
                   attrs={"upscale_factor": 2}, backward=False))
    cs.append(case("pixel_shuffle/bool", "pixel_shuffle", [r.bool((1, 4, 1, 2))], lambda x: ps(x, 2),
                   attrs={"upscale_factor": 2}, backward=False))
    cs.append(error_case("pixel_shuffle/2d", "pixel_shuffle", [r.randn((4, 2))], lambda x: ps(x, 2), attrs={"upscale_factor": 2}))
    cs.append(error_case("pixel_shuffle/zero_factor", "pixel_shuffle", [r.randn((1, 4, 2, 2))], lambda x: ps(x, 0), attrs={"upscale_factor": 0}))
    cs.append(error_case("pixel_shuffle/not_divisible", "pixel_shuffle", [r.randn((1, 5, 2, 2))], lambda x: ps(x, 2), attrs={"upscale_factor": 2}))
    cs += narrow("pixel_shuffle", lambda x: ps(x, 2), lambda r, d: [r.randn((1, 8, 2, 2), d)], attrs={"upscale_factor": 2})

    r = R("pixel_unshuffle")
    cs.append(case("pixel_unshuffle/r2", "pixel_unshuffle", [r.randn((2, 2, 4, 6))], lambda x: pu(x, 2), attrs={"downscale_factor": 2}))
    cs.append(case("pixel_unshuffle/r3_3d", "pixel_unshuffle", [r.randn((1, 3, 6))], lambda x: pu(x, 3), attrs={"downscale_factor": 3}))
    cs.append(case("pixel_unshuffle/5d", "pixel_unshuffle", [r.randn((2, 1, 1, 4, 2))], lambda x: pu(x, 2), attrs={"downscale_factor": 2}))
    cs.append(case("pixel_unshuffle/empty", "pixel_unshuffle", [r.randn((0, 1, 2, 2))], lambda x: pu(x, 2), attrs={"downscale_factor": 2}, backward=False))
    cs.append(case("pixel_unshuffle/int32", "pixel_unshuffle", [r.randint(-9, 9, (1, 2, 2, 4), torch.int32)], lambda x: pu(x, 2),
                   attrs={"downscale_factor": 2}, backward=False))
    cs.append(error_case("pixel_unshuffle/2d", "pixel_unshuffle", [r.randn((4, 4))], lambda x: pu(x, 2), attrs={"downscale_factor": 2}))
    cs.append(error_case("pixel_unshuffle/negative_factor", "pixel_unshuffle", [r.randn((1, 1, 4, 4))], lambda x: pu(x, -2),
                         attrs={"downscale_factor": -2}))
    cs.append(error_case("pixel_unshuffle/height", "pixel_unshuffle", [r.randn((1, 1, 3, 4))], lambda x: pu(x, 2), attrs={"downscale_factor": 2}))
    cs.append(error_case("pixel_unshuffle/width", "pixel_unshuffle", [r.randn((1, 1, 4, 3))], lambda x: pu(x, 2), attrs={"downscale_factor": 2}))
    cs += narrow("pixel_unshuffle", lambda x: pu(x, 2), lambda r, d: [r.randn((1, 2, 4, 2), d)], attrs={"downscale_factor": 2})

    # channel_shuffle: no derivative in PyTorch 1.13, forward only.
    r = R("channel_shuffle")
    cs_ = torch.channel_shuffle
    cs.append(case("channel_shuffle/g2", "channel_shuffle", [r.randn((2, 8, 2, 3))], lambda x: cs_(x, 2), attrs={"groups": 2}, backward=False))
    cs.append(case("channel_shuffle/g3_3d", "channel_shuffle", [r.randn((1, 6, 4))], lambda x: cs_(x, 3), attrs={"groups": 3}, backward=False))
    cs.append(case("channel_shuffle/g1", "channel_shuffle", [r.randn((1, 3, 2))], lambda x: cs_(x, 1), attrs={"groups": 1}, backward=False))
    cs.append(case("channel_shuffle/5d", "channel_shuffle", [r.randn((1, 4, 1, 2, 2))], lambda x: cs_(x, 4), attrs={"groups": 4}, backward=False))
    cs.append(case("channel_shuffle/int64", "channel_shuffle", [r.randint(-9, 9, (2, 4, 3))], lambda x: cs_(x, 2),
                   attrs={"groups": 2}, backward=False))
    cs.append(case("channel_shuffle/bool", "channel_shuffle", [r.bool((1, 4, 2))], lambda x: cs_(x, 2), attrs={"groups": 2}, backward=False))
    cs.append(error_case("channel_shuffle/2d", "channel_shuffle", [r.randn((2, 4))], lambda x: cs_(x, 2), attrs={"groups": 2}))
    cs.append(error_case("channel_shuffle/zero_groups", "channel_shuffle", [r.randn((1, 4, 2))], lambda x: cs_(x, 0), attrs={"groups": 0}))
    cs.append(error_case("channel_shuffle/not_divisible", "channel_shuffle", [r.randn((1, 8, 2))], lambda x: cs_(x, 3), attrs={"groups": 3}))
    cs += narrow("channel_shuffle", lambda x: cs_(x, 2), lambda r, d: [r.randn((1, 4, 3), d)], attrs={"groups": 2}, backward=False)
    return cs


def pad_cases():
    cs = []
    r = R("constant_pad_nd")
    pad = torch.constant_pad_nd

    def P(p, v=None):
        a = {"pad": p}
        if v is not None:
            a["value"] = float(v)
        return a
    cs.append(case("constant_pad_nd/last_dim", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [1, 2], 5.5), attrs=P([1, 2], 5.5)))
    cs.append(case("constant_pad_nd/two_dims", "constant_pad_nd", [r.randn((2, 3, 4))], lambda x: pad(x, [0, 1, 2, 0]), attrs=P([0, 1, 2, 0])))
    cs.append(case("constant_pad_nd/all_dims", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [1, 1, 1, 1], -1), attrs=P([1, 1, 1, 1], -1)))
    cs.append(case("constant_pad_nd/mixed_negative", "constant_pad_nd", [r.randn((3, 4))], lambda x: pad(x, [-1, 2, 1, -2]), attrs=P([-1, 2, 1, -2])))
    cs.append(case("constant_pad_nd/crop_only", "constant_pad_nd", [r.randn((3, 4))], lambda x: pad(x, [-1, -2]), attrs=P([-1, -2])))
    cs.append(case("constant_pad_nd/crop_to_empty", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [-3, 0]), attrs=P([-3, 0])))
    cs.append(case("constant_pad_nd/no_pad", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, []), attrs=P([])))
    cs.append(case("constant_pad_nd/0d", "constant_pad_nd", [torch.tensor(1.5, dtype=f64)], lambda x: pad(x, []), attrs=P([])))
    cs.append(case("constant_pad_nd/empty_input", "constant_pad_nd", [r.randn((0, 2))], lambda x: pad(x, [1, 1, 1, 0]), attrs=P([1, 1, 1, 0])))
    cs.append(case("constant_pad_nd/nan_value", "constant_pad_nd", [r.randn((3,))], lambda x: pad(x, [1, 1], NAN), attrs=P([1, 1], NAN)))
    cs.append(case("constant_pad_nd/int64", "constant_pad_nd", [r.randint(-9, 9, (2, 3))], lambda x: pad(x, [1, 1], -2.7),
                   attrs=P([1, 1], -2.7), backward=False))
    cs.append(case("constant_pad_nd/uint8", "constant_pad_nd", [r.randint(0, 9, (2, 3), torch.uint8)], lambda x: pad(x, [0, 1], 255),
                   attrs=P([0, 1], 255), backward=False))
    cs.append(case("constant_pad_nd/bool", "constant_pad_nd", [r.bool((2, 2))], lambda x: pad(x, [1, 0], 0.5), attrs=P([1, 0], 0.5), backward=False))
    cs.append(error_case("constant_pad_nd/odd", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [1, 2, 3]), attrs=P([1, 2, 3])))
    cs.append(error_case("constant_pad_nd/too_long", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [1] * 6), attrs=P([1] * 6)))
    cs.append(error_case("constant_pad_nd/too_negative", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [-2, -2]), attrs=P([-2, -2])))
    cs.append(error_case("constant_pad_nd/crop_start", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [-5, 0]), attrs=P([-5, 0])))
    cs.append(error_case("constant_pad_nd/mixed_zero_size", "constant_pad_nd", [r.randn((2, 3))], lambda x: pad(x, [-2, -1, 1, 0]),
                         attrs=P([-2, -1, 1, 0])))
    cs.append(error_case("constant_pad_nd/int_overflow", "constant_pad_nd", [torch.tensor([1, 2], dtype=torch.int32)], lambda x: pad(x, [1, 0], INF),
                         attrs=P([1, 0], INF)))
    cs.append(error_case("constant_pad_nd/int8_overflow", "constant_pad_nd", [torch.tensor([1, 2], dtype=torch.int8)], lambda x: pad(x, [1, 0], 200),
                         attrs=P([1, 0], 200)))
    cs.append(error_case("constant_pad_nd/half_overflow", "constant_pad_nd", [torch.tensor([1, 2], dtype=torch.float16)], lambda x: pad(x, [1, 0], 1e6),
                         attrs=P([1, 0], 1e6)))
    cs += narrow("constant_pad_nd", lambda x: pad(x, [1, 2, 0, 1], 0.3), lambda r, d: [r.randn((2, 3), d)], attrs=P([1, 2, 0, 1], 0.3))
    return cs


# ---------------------------------------------------------------- distances

def distance_cases():
    cs = []
    r = R("cosine_similarity")
    cos = torch.cosine_similarity
    cs.append(case("cosine_similarity/dim1", "cosine_similarity", [r.randn((3, 5)), r.randn((3, 5))], cos))
    cs.append(case("cosine_similarity/broadcast_dim_neg", "cosine_similarity", [r.randn((2, 3, 4)), r.randn((3, 1))],
                   lambda a, b: cos(a, b, -2), attrs={"dim": -2}))
    cs.append(case("cosine_similarity/dim0_1d", "cosine_similarity", [r.randn((6,)), r.randn((6,))], lambda a, b: cos(a, b, 0), attrs={"dim": 0}))
    z = r.randn((3, 4))
    z[0] = 0.0
    z[1] = 1e-10 * z[1]
    # PyTorch's gradient where a norm is below eps is not the derivative
    # (the norm is clamped in place out of autograd's sight): forward only.
    cs.append(case("cosine_similarity/zero_and_tiny_rows", "cosine_similarity", [z, r.randn((3, 4))], cos, backward=False))
    cs.append(case("cosine_similarity/large_eps", "cosine_similarity", [r.randn((2, 4)) * 0.1, r.randn((2, 4))], lambda a, b: cos(a, b, 1, 0.5),
                   attrs={"dim": 1, "eps": 0.5}, backward=False))
    cs.append(case("cosine_similarity/empty_dim", "cosine_similarity", [r.randn((2, 0)), r.randn((2, 0))], cos))
    cs.append(case("cosine_similarity/special", "cosine_similarity", [special().reshape(5, 2), torch.ones((5, 2), dtype=f64)], cos, backward=False))
    cs.append(case("cosine_similarity/int_and_float", "cosine_similarity", [r.randint(-5, 5, (2, 3)), r.randn((2, 3))], cos))
    cs.append(error_case("cosine_similarity/int", "cosine_similarity", [r.randint(-5, 5, (2, 3)), r.randint(-5, 5, (2, 3))], cos))
    cs.append(error_case("cosine_similarity/broadcast", "cosine_similarity", [r.randn((2, 3)), r.randn((2,))], lambda a, b: cos(a, b, -1),
                         attrs={"dim": -1}))
    cs.append(error_case("cosine_similarity/dim", "cosine_similarity", [r.randn((3,)), r.randn((3,))], cos))
    cs += narrow("cosine_similarity", cos, lambda r, d: [r.randn((3, 8), d), r.randn((3, 8), d)])

    r = R("pairwise_distance")
    pd = torch.pairwise_distance
    for p, label in ((2.0, "p2"), (1.0, "p1"), (3.0, "p3"), (1.5, "p1.5"), (0.5, "p0.5"), (INF, "pinf"), (-INF, "pneginf"), (-1.0, "pneg1")):
        cs.append(case("pairwise_distance/" + label, "pairwise_distance", [r.randn((3, 5)), r.randn((3, 5))], lambda a, b, p=p: pd(a, b, p),
                       attrs={"p": p}))
    cs.append(case("pairwise_distance/p0", "pairwise_distance", [r.randn((3, 5)), r.randn((3, 5))], lambda a, b: pd(a, b, 0.0),
                   attrs={"p": 0.0}, backward=False))
    cs.append(case("pairwise_distance/broadcast_keepdim", "pairwise_distance", [r.randn((2, 3, 4)), r.randn((4,))],
                   lambda a, b: pd(a, b, keepdim=True), attrs={"keepdim": True}))
    cs.append(case("pairwise_distance/1d_and_2d", "pairwise_distance", [r.randn((4,)), r.randn((3, 4))], pd))
    cs.append(case("pairwise_distance/0d", "pairwise_distance", [torch.tensor(1.5, dtype=f64), torch.tensor(-0.5, dtype=f64)], pd))
    cs.append(case("pairwise_distance/eps0", "pairwise_distance", [r.randn((2, 3)), r.randn((2, 3))], lambda a, b: pd(a, b, 2.0, 0.0),
                   attrs={"eps": 0.0}))
    same = r.randn((2, 3))
    cs.append(case("pairwise_distance/equal_inputs", "pairwise_distance", [same, same.clone()], lambda a, b: pd(a, b, 2.0, 0.0),
                   attrs={"eps": 0.0}, backward=False))
    cs.append(case("pairwise_distance/special", "pairwise_distance", [special().reshape(2, 5), torch.zeros((2, 5), dtype=f64)], pd, backward=False))
    cs.append(case("pairwise_distance/int64", "pairwise_distance", [r.randint(-5, 5, (2, 3)), r.randint(-5, 5, (2, 3))], pd, backward=False))
    cs.append(case("pairwise_distance/empty_rows", "pairwise_distance", [r.randn((0, 3)), r.randn((0, 3))], pd))
    cs.append(error_case("pairwise_distance/bool", "pairwise_distance", [r.bool((2, 3)), r.bool((2, 3))], pd))
    cs.append(error_case("pairwise_distance/broadcast", "pairwise_distance", [r.randn((2, 3)), r.randn((2,))], pd))
    cs += narrow("pairwise_distance", pd, lambda r, d: [r.randn((3, 8), d), r.randn((3, 8), d)])
    return cs


# ---------------------------------------------------------------- pooling

def pool_cases():
    cs = []
    r = R("adaptive_avg_pool1d")
    ap = torch.adaptive_avg_pool1d

    def A(n):
        return {"output_size": [n]}
    cs.append(case("adaptive_avg_pool1d/3d", "adaptive_avg_pool1d", [r.randn((2, 3, 7))], lambda x: ap(x, 3), attrs=A(3)))
    cs.append(case("adaptive_avg_pool1d/2d", "adaptive_avg_pool1d", [r.randn((3, 8))], lambda x: ap(x, 4), attrs=A(4)))
    cs.append(case("adaptive_avg_pool1d/larger", "adaptive_avg_pool1d", [r.randn((1, 2, 3))], lambda x: ap(x, 7), attrs=A(7)))
    cs.append(case("adaptive_avg_pool1d/identity", "adaptive_avg_pool1d", [r.randn((1, 2, 5))], lambda x: ap(x, 5), attrs=A(5)))
    cs.append(case("adaptive_avg_pool1d/zero_out", "adaptive_avg_pool1d", [r.randn((1, 2, 5))], lambda x: ap(x, 0), attrs=A(0), backward=False))
    cs.append(case("adaptive_avg_pool1d/empty_batch", "adaptive_avg_pool1d", [r.randn((0, 2, 5))], lambda x: ap(x, 2), attrs=A(2)))
    cs.append(case("adaptive_avg_pool1d/special", "adaptive_avg_pool1d", [special().reshape(1, 1, 10)], lambda x: ap(x, 4), attrs=A(4), backward=False))
    cs.append(error_case("adaptive_avg_pool1d/1d", "adaptive_avg_pool1d", [r.randn((5,))], lambda x: ap(x, 2), attrs=A(2)))
    cs.append(error_case("adaptive_avg_pool1d/4d", "adaptive_avg_pool1d", [r.randn((1, 1, 2, 5))], lambda x: ap(x, 2), attrs=A(2)))
    cs.append(error_case("adaptive_avg_pool1d/two_sizes", "adaptive_avg_pool1d", [r.randn((1, 2, 5))], lambda x: ap(x, (2, 2)),
                         attrs={"output_size": [2, 2]}))
    cs.append(error_case("adaptive_avg_pool1d/negative", "adaptive_avg_pool1d", [r.randn((1, 2, 5))], lambda x: ap(x, -1), attrs=A(-1)))
    cs.append(error_case("adaptive_avg_pool1d/empty_length", "adaptive_avg_pool1d", [r.randn((1, 2, 0))], lambda x: ap(x, 2), attrs=A(2)))
    cs.append(error_case("adaptive_avg_pool1d/int64", "adaptive_avg_pool1d", [r.randint(0, 5, (1, 2, 5))], lambda x: ap(x, 2), attrs=A(2)))
    cs += narrow("adaptive_avg_pool1d", lambda x: ap(x, 3), lambda r, d: [r.randn((2, 2, 8), d)], attrs=A(3))

    r = R("max_pool1d")
    mp, mpi = torch.max_pool1d, torch.max_pool1d_with_indices

    def M(k, s=None, p=0, d=1, ceil=False, idx=False):
        return {"kernel_size": [k], "stride": [s if s is not None else k], "padding": [p], "dilation": [d],
                "ceil_mode": ceil, "return_indices": idx}
    cs.append(case("max_pool1d/3d", "max_pool1d", [r.randn((2, 3, 7))], lambda x: mp(x, 3), attrs=M(3)))
    cs.append(case("max_pool1d/2d", "max_pool1d", [r.randn((3, 8))], lambda x: mp(x, 2), attrs=M(2)))
    cs.append(case("max_pool1d/stride_pad_dil", "max_pool1d", [r.randn((2, 2, 11))], lambda x: mp(x, 3, 2, 1, 2), attrs=M(3, 2, 1, 2)))
    cs.append(case("max_pool1d/ceil", "max_pool1d", [r.randn((1, 2, 6))], lambda x: mp(x, 4, 3, 1, 1, True), attrs=M(4, 3, 1, 1, True)))
    cs.append(case("max_pool1d/indices", "max_pool1d", [r.randn((2, 3, 9))], lambda x: mpi(x, 3, 2, 1, 1, True),
                   attrs=M(3, 2, 1, 1, True, True)))
    cs.append(case("max_pool1d/indices_2d", "max_pool1d", [r.randn((3, 6))], lambda x: mpi(x, 2), attrs=M(2, idx=True)))
    cs.append(case("max_pool1d/empty_batch", "max_pool1d", [r.randn((0, 3, 7))], lambda x: mp(x, 3), attrs=M(3), backward=False))
    cs.append(case("max_pool1d/empty_output", "max_pool1d", [r.randn((1, 1, 2))], lambda x: mp(x, 3), attrs=M(3), backward=False))
    cs.append(case("max_pool1d/nan_ties", "max_pool1d", [torch.tensor([[[1.0, NAN, 2.0, 3.0, 5.0, 5.0, -INF, -INF]]], dtype=f64)],
                   lambda x: mpi(x, 2), attrs=M(2, idx=True), backward=False))
    cs.append(error_case("max_pool1d/1d", "max_pool1d", [r.randn((5,))], lambda x: mp(x, 2), attrs=M(2)))
    cs.append(error_case("max_pool1d/1d_indices", "max_pool1d", [r.randn((5,))], lambda x: mpi(x, 2), attrs=M(2, idx=True)))
    cs.append(error_case("max_pool1d/empty_length", "max_pool1d", [r.randn((1, 3, 0))], lambda x: mp(x, 1), attrs=M(1)))
    cs.append(error_case("max_pool1d/kernel0", "max_pool1d", [r.randn((1, 3, 5))], lambda x: mp(x, 0, 1), attrs=M(0, 1)))
    cs.append(error_case("max_pool1d/stride0", "max_pool1d", [r.randn((1, 3, 5))], lambda x: mp(x, 3, 0), attrs=M(3, 0)))
    cs.append(error_case("max_pool1d/padding_neg", "max_pool1d", [r.randn((1, 3, 5))], lambda x: mp(x, 3, 1, -1), attrs=M(3, 1, -1)))
    cs.append(error_case("max_pool1d/padding_big", "max_pool1d", [r.randn((1, 3, 5))], lambda x: mp(x, 3, 1, 2), attrs=M(3, 1, 2)))
    cs.append(error_case("max_pool1d/dilation0", "max_pool1d", [r.randn((1, 3, 5))], lambda x: mp(x, 3, 1, 0, 0), attrs=M(3, 1, 0, 0)))
    cs.append(error_case("max_pool1d/int64", "max_pool1d", [r.randint(0, 5, (1, 2, 5))], lambda x: mp(x, 2), attrs=M(2)))
    cs.append(error_case("max_pool1d/indices_too_small", "max_pool1d", [r.randn((1, 1, 2))], lambda x: mpi(x, 3), attrs=M(3, idx=True)))
    cs += narrow("max_pool1d", lambda x: mp(x, 3, 2), lambda r, d: [r.randn((2, 2, 9), d)], attrs=M(3, 2))

    r = R("avg_pool1d")
    av = torch.avg_pool1d

    def V(k, s=None, p=0, ceil=False, cip=True):
        return {"kernel_size": [k], "stride": [s if s is not None else k], "padding": [p], "ceil_mode": ceil, "count_include_pad": cip}
    cs.append(case("avg_pool1d/3d", "avg_pool1d", [r.randn((2, 3, 7))], lambda x: av(x, 3), attrs=V(3)))
    cs.append(case("avg_pool1d/2d", "avg_pool1d", [r.randn((3, 8))], lambda x: av(x, 2, 1), attrs=V(2, 1)))
    cs.append(case("avg_pool1d/pad", "avg_pool1d", [r.randn((2, 2, 7))], lambda x: av(x, 3, 2, 1), attrs=V(3, 2, 1)))
    cs.append(case("avg_pool1d/pad_no_count", "avg_pool1d", [r.randn((2, 2, 7))], lambda x: av(x, 3, 2, 1, False, False),
                   attrs=V(3, 2, 1, False, False)))
    cs.append(case("avg_pool1d/ceil", "avg_pool1d", [r.randn((1, 2, 5))], lambda x: av(x, 3, 3, 1, True), attrs=V(3, 3, 1, True)))
    cs.append(case("avg_pool1d/ceil_no_count", "avg_pool1d", [r.randn((1, 2, 6))], lambda x: av(x, 4, 3, 2, True, False),
                   attrs=V(4, 3, 2, True, False)))
    cs.append(case("avg_pool1d/empty_batch", "avg_pool1d", [r.randn((0, 2, 5))], lambda x: av(x, 2), attrs=V(2), backward=False))
    cs.append(case("avg_pool1d/special", "avg_pool1d", [special().reshape(1, 1, 10)], lambda x: av(x, 2), attrs=V(2), backward=False))
    cs.append(case("avg_pool1d/int64", "avg_pool1d", [torch.tensor([[0, 1, -3, 0, 5, 2, 7]])], lambda x: av(x, 2), attrs=V(2), backward=False))
    cs.append(error_case("avg_pool1d/1d", "avg_pool1d", [r.randn((5,))], lambda x: av(x, 2), attrs=V(2)))
    cs.append(error_case("avg_pool1d/kernel0", "avg_pool1d", [r.randn((1, 5))], lambda x: av(x, 0, 1), attrs=V(0, 1)))
    cs.append(error_case("avg_pool1d/stride0", "avg_pool1d", [r.randn((1, 5))], lambda x: av(x, 3, 0), attrs=V(3, 0)))
    cs.append(error_case("avg_pool1d/stride_neg", "avg_pool1d", [r.randn((1, 5))], lambda x: av(x, 2, -1), attrs=V(2, -1)))
    cs.append(error_case("avg_pool1d/padding_neg", "avg_pool1d", [r.randn((1, 5))], lambda x: av(x, 3, 1, -1), attrs=V(3, 1, -1)))
    cs.append(error_case("avg_pool1d/padding_big", "avg_pool1d", [r.randn((1, 5))], lambda x: av(x, 3, 1, 2), attrs=V(3, 1, 2)))
    cs.append(error_case("avg_pool1d/too_small", "avg_pool1d", [r.randn((1, 2))], lambda x: av(x, 3), attrs=V(3)))
    cs.append(error_case("avg_pool1d/empty_channels", "avg_pool1d", [r.randn((0, 5))], lambda x: av(x, 2), attrs=V(2)))
    cs.append(error_case("avg_pool1d/int8", "avg_pool1d", [torch.tensor([[1, 2, 3, 4]], dtype=torch.int8)], lambda x: av(x, 2), attrs=V(2)))
    cs += narrow("avg_pool1d", lambda x: av(x, 3, 2, 1), lambda r, d: [r.randn((2, 2, 9), d)], attrs=V(3, 2, 1))

    r = R("adaptive_max_pool1d")
    am = torch.adaptive_max_pool1d

    def X(n, idx=True):
        return {"output_size": [n], "return_indices": idx}
    cs.append(case("adaptive_max_pool1d/3d", "adaptive_max_pool1d", [r.randn((2, 3, 7))], lambda x: am(x, 3), attrs=X(3)))
    cs.append(case("adaptive_max_pool1d/2d", "adaptive_max_pool1d", [r.randn((3, 8))], lambda x: am(x, 3), attrs=X(3)))
    cs.append(case("adaptive_max_pool1d/values_only", "adaptive_max_pool1d", [r.randn((2, 2, 9))], lambda x: am(x, 4)[0], attrs=X(4, False)))
    cs.append(case("adaptive_max_pool1d/larger", "adaptive_max_pool1d", [r.randn((1, 2, 3))], lambda x: am(x, 5), attrs=X(5), backward=False))
    cs.append(case("adaptive_max_pool1d/zero_out", "adaptive_max_pool1d", [r.randn((1, 2, 3))], lambda x: am(x, 0), attrs=X(0), backward=False))
    cs.append(case("adaptive_max_pool1d/empty_batch", "adaptive_max_pool1d", [r.randn((0, 2, 3))], lambda x: am(x, 2), attrs=X(2), backward=False))
    cs.append(case("adaptive_max_pool1d/nan_ties", "adaptive_max_pool1d",
                   [torch.tensor([[1.0, NAN, 3.0, NAN, 3.0, 3.0, -INF, -INF, 2.0]], dtype=f64)], lambda x: am(x, 3), attrs=X(3), backward=False))
    cs.append(error_case("adaptive_max_pool1d/1d", "adaptive_max_pool1d", [r.randn((5,))], lambda x: am(x, 2), attrs=X(2)))
    cs.append(error_case("adaptive_max_pool1d/two_sizes", "adaptive_max_pool1d", [r.randn((1, 2, 5))], lambda x: am(x, (2, 2)),
                         attrs={"output_size": [2, 2], "return_indices": True}))
    cs.append(error_case("adaptive_max_pool1d/negative", "adaptive_max_pool1d", [r.randn((2, 3, 5))], lambda x: am(x, -1), attrs=X(-1)))
    cs.append(error_case("adaptive_max_pool1d/empty_length", "adaptive_max_pool1d", [r.randn((1, 2, 0))], lambda x: am(x, 2), attrs=X(2)))
    cs.append(error_case("adaptive_max_pool1d/empty_channels", "adaptive_max_pool1d", [r.randn((1, 0, 3))], lambda x: am(x, 2), attrs=X(2)))
    cs.append(error_case("adaptive_max_pool1d/int64", "adaptive_max_pool1d", [r.randint(0, 5, (1, 2, 5))], lambda x: am(x, 2), attrs=X(2)))
    cs += narrow("adaptive_max_pool1d", lambda x: am(x, 3)[0], lambda r, d: [r.randn((2, 2, 8), d)], attrs=X(3, False))
    return cs


# ---------------------------------------------------------------- normalisation

def norm_cases():
    cs = []
    r = R("group_norm")
    gn = torch.group_norm

    def G(g, eps=None):
        a = {"num_groups": g}
        if eps is not None:
            a["eps"] = eps
        return a
    cs.append(case("group_norm/affine", "group_norm", [r.randn((2, 4, 3)), r.randn((4,)), r.randn((4,))], lambda x, w, b: gn(x, 2, w, b), attrs=G(2)))
    cs.append(case("group_norm/no_affine", "group_norm", [r.randn((3, 6, 2, 2)) * 3 + 1, None, None], lambda x, w, b: gn(x, 3), attrs=G(3)))
    cs.append(case("group_norm/weight_only_eps", "group_norm", [r.randn((2, 4, 5)), r.randn((4,)), None], lambda x, w, b: gn(x, 4, w, None, 1e-2),
                   attrs=G(4, 1e-2)))
    # PyTorch 1.13's backward fails with a bias and no weight ("tensor does
    # not have a device"): forward only.
    cs.append(case("group_norm/bias_only_one_group", "group_norm", [r.randn((2, 3, 4)), None, r.randn((3,))], lambda x, w, b: gn(x, 1, None, b),
                   attrs=G(1), backward=False))
    cs.append(case("group_norm/2d", "group_norm", [r.randn((3, 4)), r.randn((4,)), r.randn((4,))], lambda x, w, b: gn(x, 2, w, b), attrs=G(2)))
    cs.append(case("group_norm/empty_batch", "group_norm", [r.randn((0, 4, 3)), r.randn((4,)), r.randn((4,))], lambda x, w, b: gn(x, 2, w, b),
                   attrs=G(2), backward=False))
    cs.append(error_case("group_norm/1d", "group_norm", [r.randn((4,)), None, None], lambda x, w, b: gn(x, 1), attrs=G(1)))
    cs.append(error_case("group_norm/groups0", "group_norm", [r.randn((2, 4, 3)), None, None], lambda x, w, b: gn(x, 0), attrs=G(0)))
    cs.append(error_case("group_norm/not_divisible", "group_norm", [r.randn((2, 4, 3)), None, None], lambda x, w, b: gn(x, 3), attrs=G(3)))
    cs.append(error_case("group_norm/weight_size", "group_norm", [r.randn((2, 4, 3)), r.randn((3,)), None], lambda x, w, b: gn(x, 2, w), attrs=G(2)))
    cs.append(error_case("group_norm/bias_size", "group_norm", [r.randn((2, 4, 3)), None, r.randn((3,))], lambda x, w, b: gn(x, 2, None, b), attrs=G(2)))
    cs.append(error_case("group_norm/weight_dtype", "group_norm", [r.randn((2, 4, 3)), r.randn((4,)).float(), None], lambda x, w, b: gn(x, 2, w),
                         attrs=G(2)))
    cs.append(error_case("group_norm/int64", "group_norm", [r.randint(0, 5, (2, 4, 3)), None, None], lambda x, w, b: gn(x, 2), attrs=G(2)))
    cs += narrow("group_norm", lambda x, w, b: gn(x, 2, w, b), lambda r, d: [r.randn((2, 4, 6), d), r.randn((4,), d), r.randn((4,), d)], attrs=G(2))
    return cs


def main():
    cs = celu_cases() + selu_cases() + threshold_cases() + hardshrink_cases() + prelu_cases() + add_relu_cases() + rrelu_cases()
    cs += shuffle_cases() + pad_cases() + distance_cases() + pool_cases() + norm_cases()
    print("\n".join(REPORT))
    write_group("nn_torch", cs)


if __name__ == "__main__":
    main()
