"""Golden cases for the CPU plugin's neural-network kernels (nn_*.go).

Run with the system PyTorch 1.13:

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_nn.py

It writes golden/nn_<group>.json.gz in golden_lib's format. Every case runs
real PyTorch in float64 (a few float32 cases check output dtypes with a
loose tolerance); gradients come from autograd with a random grad_output.

npu.rms_norm has no PyTorch op: its reference is the float64 formula of
spec/fused-ops.md §8 written with torch ops (rstd over gamma's trailing
dims, float32 rstd for float32 inputs), and autograd of y alone, which is
what torch_npu's backward (npu_rms_norm_backward) computes.
"""

import math

import torch
import torch.nn.functional as F

from golden_lib import Rand, case, enc_tensor, error_case, write_group

torch.set_default_dtype(torch.float64)
D = torch.float64
NAN = float("nan")
INF = float("inf")


def R(name):
    return Rand("nn/" + name)


# ---------------------------------------------------------------- softmax

def gen_softmax():
    cs = []
    for op, fn in (("softmax", torch.softmax), ("log_softmax", torch.log_softmax)):
        r = R(op)
        for shape, dim in (((3, 5), 1), ((3, 5), 0), ((2, 3, 4), 1), ((2, 3, 4), -1),
                           ((6,), 0), ((), 0), ((), -1), ((0, 4), 1), ((4, 0), 0)):
            nm = "%s/%s_dim%d" % (op, "x".join(map(str, shape)) or "scalar", dim)
            cs.append(case(nm, op, [r.randn(shape)], lambda x, d=dim, f=fn: f(x, d), attrs={"dim": dim}))
        big = r.randn((2, 4)) * 300
        cs.append(case(op + "/large_values", op, [big], lambda x, f=fn: f(x, 1), attrs={"dim": 1}))
        m = r.randn((3, 4))
        m[0, 1] = -INF
        m[1, :] = -INF
        cs.append(case(op + "/neg_inf_mask", op, [m], lambda x, f=fn: f(x, 1), attrs={"dim": 1}, backward=False))
        m2 = r.randn((2, 4))
        m2[0, 2] = -INF
        cs.append(case(op + "/neg_inf_entry", op, [m2], lambda x, f=fn: f(x, -1), attrs={"dim": -1}))
        x32 = r.randn((2, 3)).float()
        cs.append(case(op + "/dtype_attr_f32_to_f64", op, [x32], lambda x, f=fn: f(x, 1, dtype=torch.float64),
                       attrs={"dim": 1, "dtype": "float64"}))
        cs.append(case(op + "/dtype_attr_f64_to_f32", op, [r.randn((2, 5))], lambda x, f=fn: f(x, 1, dtype=torch.float32),
                       attrs={"dim": 1, "dtype": "float32"}, rtol=1e-6, atol=1e-7))
        xi = r.randint(-3, 3, (2, 3))
        cs.append(case(op + "/int_input_dtype_attr", op, [xi], lambda x, f=fn: f(x, 1, dtype=torch.float64),
                       attrs={"dim": 1, "dtype": "float64"}, backward=False))
        cs.append(error_case(op + "/int_input", op, [xi], lambda x, f=fn: f(x, 1), attrs={"dim": 1}))
        cs.append(error_case(op + "/dim_out_of_range", op, [r.randn((2, 3))], lambda x, f=fn: f(x, 2), attrs={"dim": 2}))
        cs.append(case(op + "/float32", op, [r.randn((3, 4)).float()], lambda x, f=fn: f(x, 1), attrs={"dim": 1},
                       rtol=1e-5, atol=1e-6))
    return cs


# ---------------------------------------------------------------- matmul family

def gen_matmul():
    cs = []
    r = R("matmul")
    shapes = [
        ("1d_1d", (4,), (4,)),
        ("2d_1d", (3, 4), (4,)),
        ("1d_2d", (4,), (4, 2)),
        ("2d_2d", (3, 4), (4, 5)),
        ("3d_3d", (2, 3, 4), (2, 4, 5)),
        ("3d_2d", (2, 3, 4), (4, 5)),
        ("2d_3d", (3, 4), (2, 4, 5)),
        ("1d_3d", (4,), (2, 4, 3)),
        ("3d_1d", (2, 3, 4), (4,)),
        ("4d_1d", (2, 2, 3, 4), (4,)),
        ("bcast_4d_3d", (2, 1, 3, 4), (5, 4, 2)),
        ("bcast_1x_2x", (1, 3, 4), (2, 4, 5)),
        ("bcast_both", (3, 1, 2, 4), (1, 2, 4, 3)),
        ("zero_batch", (0, 3, 4), (4, 2)),
        ("zero_k", (2, 0), (0, 3)),
        ("zero_n", (0, 4), (4, 3)),
    ]
    for nm, sa, sb in shapes:
        cs.append(case("matmul/" + nm, "matmul", [r.randn(sa), r.randn(sb)], torch.matmul))
    a = torch.zeros(2, 3)
    a[1, 1] = 1.0
    b = r.randn((3, 2))
    b[0, 0] = INF
    b[2, 1] = NAN
    cs.append(case("matmul/inf_nan_times_zero", "matmul", [a, b], torch.matmul, backward=False))
    cs.append(case("matmul/int64", "matmul", [r.randint(-5, 5, (2, 3)), r.randint(-5, 5, (3, 4))], torch.matmul, backward=False))
    cs.append(case("matmul/float32", "matmul", [r.randn((3, 4)).float(), r.randn((4, 2)).float()], torch.matmul, rtol=1e-5, atol=1e-5))
    cs.append(case("matmul/one_input_grad", "matmul", [r.randn((3, 4)), r.randn((4, 2))], torch.matmul, requires_grad=[False, True]))
    cs.append(error_case("matmul/0d", "matmul", [torch.tensor(1.0), r.randn((3,))], torch.matmul))
    cs.append(error_case("matmul/1d_mismatch", "matmul", [r.randn((3,)), r.randn((4,))], torch.matmul))
    cs.append(error_case("matmul/mv_mismatch", "matmul", [r.randn((2, 3)), r.randn((4,))], torch.matmul))
    cs.append(error_case("matmul/mm_mismatch", "matmul", [r.randn((2, 3)), r.randn((4, 2))], torch.matmul))
    cs.append(error_case("matmul/batch_mismatch", "matmul", [r.randn((2, 2, 3)), r.randn((3, 3, 2))], torch.matmul))
    cs.append(error_case("matmul/bool", "matmul", [r.bool((2, 3)), r.bool((3, 2))], torch.matmul))

    cs.append(case("mm/basic", "mm", [r.randn((3, 4)), r.randn((4, 2))], torch.mm))
    cs.append(case("mm/zero_k", "mm", [r.randn((3, 0)), r.randn((0, 2))], torch.mm))
    cs.append(error_case("mm/mismatch", "mm", [r.randn((2, 3)), r.randn((4, 2))], torch.mm))
    cs.append(error_case("mm/not_matrix", "mm", [r.randn((3,)), r.randn((3, 2))], torch.mm))

    cs.append(case("bmm/basic", "bmm", [r.randn((3, 2, 4)), r.randn((3, 4, 5))], torch.bmm))
    cs.append(case("bmm/zero_batch", "bmm", [r.randn((0, 2, 4)), r.randn((0, 4, 5))], torch.bmm))
    cs.append(error_case("bmm/batch_mismatch", "bmm", [r.randn((2, 2, 3)), r.randn((3, 3, 2))], torch.bmm))
    cs.append(error_case("bmm/not_3d", "bmm", [r.randn((2, 3)), r.randn((2, 3, 2))], torch.bmm))

    cs.append(case("linear/2d_bias", "linear", [r.randn((4, 3)), r.randn((5, 3)), r.randn((5,))], F.linear))
    cs.append(case("linear/2d_no_bias", "linear", [r.randn((4, 3)), r.randn((5, 3)), None], F.linear))
    cs.append(case("linear/3d_bias", "linear", [r.randn((2, 4, 3)), r.randn((5, 3)), r.randn((5,))], F.linear))
    cs.append(case("linear/4d_bias", "linear", [r.randn((2, 1, 2, 3)), r.randn((2, 3)), r.randn((2,))], F.linear))
    cs.append(case("linear/1d_input", "linear", [r.randn((3,)), r.randn((5, 3)), r.randn((5,))], F.linear))
    cs.append(case("linear/1d_weight", "linear", [r.randn((4, 3)), r.randn((3,)), None], F.linear))
    cs.append(case("linear/bias_size1", "linear", [r.randn((4, 3)), r.randn((5, 3)), r.randn((1,))], F.linear))
    cs.append(case("linear/bias_2d", "linear", [r.randn((4, 3)), r.randn((5, 3)), r.randn((4, 1))], F.linear))
    cs.append(case("linear/zero_batch", "linear", [r.randn((0, 3)), r.randn((5, 3)), r.randn((5,))], F.linear))
    cs.append(case("linear/int64", "linear", [r.randint(-4, 4, (2, 3)), r.randint(-4, 4, (4, 3)), r.randint(-4, 4, (4,))],
                   F.linear, backward=False))
    cs.append(error_case("linear/in_mismatch", "linear", [r.randn((4, 3)), r.randn((5, 4)), None], F.linear))
    cs.append(error_case("linear/bias_mismatch", "linear", [r.randn((4, 3)), r.randn((5, 3)), r.randn((4,))], F.linear))

    def addmm(beta=1.0, alpha=1.0):
        return lambda s, a, b: torch.addmm(s, a, b, beta=beta, alpha=alpha)
    cs.append(case("addmm/basic", "addmm", [r.randn((3, 2)), r.randn((3, 4)), r.randn((4, 2))], addmm()))
    cs.append(case("addmm/beta_alpha", "addmm", [r.randn((3, 2)), r.randn((3, 4)), r.randn((4, 2))], addmm(0.5, -2.0),
                   attrs={"beta": 0.5, "alpha": -2.0}))
    cs.append(case("addmm/self_row_bcast", "addmm", [r.randn((2,)), r.randn((3, 4)), r.randn((4, 2))], addmm(1.5, 1.0),
                   attrs={"beta": 1.5}))
    cs.append(case("addmm/self_col_bcast", "addmm", [r.randn((3, 1)), r.randn((3, 4)), r.randn((4, 2))], addmm()))
    cs.append(case("addmm/self_0d", "addmm", [r.randn(()), r.randn((3, 4)), r.randn((4, 2))], addmm()))
    s = torch.full((3, 2), NAN)
    cs.append(case("addmm/beta0_ignores_nan", "addmm", [s, r.randn((3, 4)), r.randn((4, 2))], addmm(0.0, 1.0),
                   attrs={"beta": 0.0}, requires_grad=[False, True, True]))
    m1 = r.randn((3, 4))
    m1[0, 0] = NAN
    cs.append(case("addmm/alpha0_ignores_product", "addmm", [r.randn((3, 2)), m1, r.randn((4, 2))], addmm(1.0, 0.0),
                   attrs={"alpha": 0.0}))
    cs.append(case("addmm/inplace", "addmm", [r.randn((3, 2)), r.randn((3, 4)), r.randn((4, 2))],
                   lambda s, a, b: s.clone().addmm_(a, b, beta=2.0), attrs={"beta": 2.0, "inplace": True}))
    cs.append(case("addmm/int64_trunc_scales", "addmm", [r.randint(-3, 3, (2, 2)), r.randint(-3, 3, (2, 3)), r.randint(-3, 3, (3, 2))],
                   addmm(1.5, 2.5), attrs={"beta": 1.5, "alpha": 2.5}, backward=False))
    cs.append(error_case("addmm/mismatch", "addmm", [r.randn((3, 2)), r.randn((3, 4)), r.randn((3, 2))], addmm()))
    cs.append(error_case("addmm/self_bad_shape", "addmm", [r.randn((4, 2)), r.randn((3, 4)), r.randn((4, 2))], addmm()))
    return cs


# ---------------------------------------------------------------- norms

def rms_norm_ref(x, gamma, eps):
    dims = tuple(range(x.dim() - gamma.dim(), x.dim()))
    rstd = torch.rsqrt(x.double().pow(2).mean(dims, keepdim=True) + eps)
    y = (x.double() * rstd * gamma.double()).to(x.dtype)
    return y, rstd.to(torch.float32 if x.dtype != torch.float64 else torch.float64)


def gen_norm():
    cs = []
    r = R("norm")

    def ln(ns, eps=1e-5):
        return lambda x, w, b: F.layer_norm(x, ns, w, b, eps)
    cs.append(case("layer_norm/affine_last", "layer_norm", [r.randn((2, 3, 5)), r.randn((5,)), r.randn((5,))], ln([5]),
                   attrs={"normalized_shape": [5]}))
    cs.append(case("layer_norm/affine_two_dims", "layer_norm", [r.randn((2, 3, 4)), r.randn((3, 4)), r.randn((3, 4))], ln([3, 4]),
                   attrs={"normalized_shape": [3, 4]}))
    cs.append(case("layer_norm/no_affine", "layer_norm", [r.randn((4, 6)), None, None], ln([6]),
                   attrs={"normalized_shape": [6]}))
    cs.append(case("layer_norm/weight_only", "layer_norm", [r.randn((4, 6)), r.randn((6,)), None], ln([6]),
                   attrs={"normalized_shape": [6]}))
    cs.append(case("layer_norm/bias_only_eps", "layer_norm", [r.randn((3, 6)) * 0.01, None, r.randn((6,))], ln([6], 1e-3),
                   attrs={"normalized_shape": [6], "eps": 1e-3}))
    cs.append(case("layer_norm/1d", "layer_norm", [r.randn((7,)), r.randn((7,)), r.randn((7,))], ln([7]),
                   attrs={"normalized_shape": [7]}))
    cs.append(case("layer_norm/all_dims", "layer_norm", [r.randn((2, 3)), r.randn((2, 3)), r.randn((2, 3))], ln([2, 3]),
                   attrs={"normalized_shape": [2, 3]}))
    cs.append(case("layer_norm/zero_rows", "layer_norm", [r.randn((0, 4)), r.randn((4,)), r.randn((4,))], ln([4]),
                   attrs={"normalized_shape": [4]}))
    cs.append(case("layer_norm/float32", "layer_norm", [r.randn((3, 8)).float(), r.randn((8,)).float(), r.randn((8,)).float()], ln([8]),
                   attrs={"normalized_shape": [8]}, rtol=1e-4, atol=1e-5))
    cs.append(error_case("layer_norm/shape_mismatch", "layer_norm", [r.randn((2, 3)), None, None], ln([4]),
                         attrs={"normalized_shape": [4]}))
    cs.append(error_case("layer_norm/weight_shape", "layer_norm", [r.randn((2, 3)), r.randn((2,)), None], ln([3]),
                         attrs={"normalized_shape": [3]}))
    cs.append(error_case("layer_norm/int", "layer_norm", [r.randint(0, 3, (2, 3)), None, None], ln([3]),
                         attrs={"normalized_shape": [3]}))

    def bn(training, momentum=0.1, eps=1e-5):
        return lambda x, rm, rv, w, b: F.batch_norm(x, rm, rv, w, b, training, momentum, eps)
    no_stats = [True, False, False, True, True]
    C = 3
    cs.append(case("batch_norm/train_2d", "batch_norm",
                   [r.randn((5, C)), r.randn((C,)), r.rand((C,), lo=0.5, hi=2), r.randn((C,)), r.randn((C,))],
                   bn(True), attrs={"training": True}, requires_grad=no_stats))
    cs.append(case("batch_norm/train_4d", "batch_norm",
                   [r.randn((2, C, 3, 4)), r.randn((C,)), r.rand((C,), lo=0.5, hi=2), r.randn((C,)), r.randn((C,))],
                   bn(True, 0.3, 1e-3), attrs={"training": True, "momentum": 0.3, "eps": 1e-3}, requires_grad=no_stats))
    cs.append(case("batch_norm/train_no_stats_no_affine", "batch_norm",
                   [r.randn((4, C, 5)), None, None, None, None], bn(True), attrs={"training": True}))
    cs.append(case("batch_norm/train_weight_only", "batch_norm",
                   [r.randn((4, C, 2)), None, None, r.randn((C,)), None], bn(True), attrs={"training": True}))
    cs.append(case("batch_norm/eval_3d", "batch_norm",
                   [r.randn((2, C, 4)), r.randn((C,)), r.rand((C,), lo=0.5, hi=2), r.randn((C,)), r.randn((C,))],
                   bn(False), attrs={"training": False}, requires_grad=no_stats))
    cs.append(case("batch_norm/eval_no_affine", "batch_norm",
                   [r.randn((3, C, 2, 2)), r.randn((C,)), r.rand((C,), lo=0.5, hi=2), None, None],
                   bn(False, 0.1, 1e-2), attrs={"training": False, "eps": 1e-2}, requires_grad=[True, False, False, False, False]))
    cs.append(case("batch_norm/eval_zero_batch", "batch_norm",
                   [r.randn((0, C)), r.randn((C,)), r.rand((C,), lo=0.5, hi=2), r.randn((C,)), r.randn((C,))],
                   bn(False), attrs={"training": False}, requires_grad=no_stats))
    cs.append(case("batch_norm/train_zero_batch", "batch_norm",
                   [r.randn((0, C, 2)), None, None, r.randn((C,)), r.randn((C,))], bn(True), attrs={"training": True}))
    cs.append(case("batch_norm/float32_train", "batch_norm",
                   [r.randn((6, C)).float(), None, None, r.randn((C,)).float(), r.randn((C,)).float()],
                   bn(True), attrs={"training": True}, rtol=1e-4, atol=1e-5))
    cs.append(error_case("batch_norm/eval_no_running", "batch_norm", [r.randn((2, C)), None, None, None, None], bn(False),
                         attrs={"training": False}))
    cs.append(error_case("batch_norm/train_one_value", "batch_norm", [r.randn((1, C)), None, None, None, None], bn(True),
                         attrs={"training": True}))
    cs.append(error_case("batch_norm/running_mean_size", "batch_norm",
                         [r.randn((2, C)), r.randn((4,)), r.rand((4,)), None, None], bn(False), attrs={"training": False}))
    cs.append(error_case("batch_norm/int", "batch_norm", [r.randint(0, 3, (2, C)), None, None, None, None], bn(True),
                         attrs={"training": True}))

    def rms(eps=1e-6):
        return lambda x, g: rms_norm_ref(x, g, eps)
    for nm, xs, gs, eps in (("last_dim", (2, 3, 8), (8,), 1e-6), ("two_dims", (2, 3, 4), (3, 4), 1e-6),
                            ("2d_eps", (4, 5), (5,), 1e-2), ("1d", (6,), (6,), 1e-6)):
        x, g = r.randn(xs), r.randn(gs)
        attrs = {} if eps == 1e-6 else {"epsilon": eps}
        cs.append(case("npu.rms_norm/" + nm, "npu.rms_norm", [x, g], rms(eps), attrs=attrs,
                       grad_outputs=[R("rmsg/" + nm).randn(xs), None]))
    x, g = r.randn((3, 4)), r.randn((4,))
    cs.append(case("npu.rms_norm/float32_rstd_dtype", "npu.rms_norm", [x.float(), g.float()], rms(), rtol=1e-5, atol=1e-6,
                   grad_outputs=[R("rmsg/f32").randn((3, 4)).float(), None]))
    # torch_npu's autograd ignores a gradient of rstd: the expected input
    # gradients come from y's gradient alone, the case then also sends one
    # for rstd.
    c = case("npu.rms_norm/rstd_grad_ignored", "npu.rms_norm", [x, g], rms(),
             grad_outputs=[R("rmsg/ign").randn((3, 4)), None])
    c["grad_outputs"][1] = enc_tensor(R("rmsg/ign2").randn((3, 1)))
    cs.append(c)
    cs.append(error_case("npu.rms_norm/gamma_mismatch", "npu.rms_norm", [r.randn((2, 4)), r.randn((3,))],
                         lambda x, g: x * g))
    return cs


# ---------------------------------------------------------------- convolution

def gen_conv():
    cs = []
    r = R("conv")

    def conv(stride, padding, dilation, groups=1):
        return lambda x, w, b: torch.convolution(x, w, b, stride, padding, dilation, False, [0] * len(stride), groups)

    def add(nm, xs, ws, bias, stride, padding, dilation, groups=1, **kw):
        b = r.randn((ws[0],)) if bias else None
        cs.append(case("convolution/" + nm, "convolution", [r.randn(xs), r.randn(ws), b],
                       conv(stride, padding, dilation, groups),
                       attrs={"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}, **kw))
    add("1d_basic", (2, 3, 8), (4, 3, 3), True, [1], [0], [1])
    add("1d_stride_pad_dil_groups", (2, 4, 9), (6, 2, 3), True, [2], [1], [2], 2)
    add("1d_no_bias_pad2", (1, 2, 5), (3, 2, 2), False, [1], [2], [1])
    add("2d_basic", (2, 3, 6, 5), (4, 3, 3, 3), True, [1, 1], [1, 1], [1, 1])
    add("2d_stride_pad_dil", (1, 2, 7, 8), (3, 2, 3, 2), True, [2, 1], [0, 2], [1, 2])
    add("2d_groups", (2, 4, 5, 5), (6, 2, 3, 3), True, [1, 2], [1, 0], [1, 1], 2)
    add("2d_depthwise", (1, 3, 6, 6), (6, 1, 3, 3), False, [2, 2], [1, 1], [2, 2], 3)
    add("2d_1x1", (2, 5, 3, 4), (2, 5, 1, 1), True, [1, 1], [0, 0], [1, 1])
    add("2d_stride_skips_tail", (1, 1, 7, 7), (1, 1, 2, 2), True, [3, 3], [0, 0], [1, 1])
    add("2d_zero_batch", (0, 3, 5, 5), (2, 3, 3, 3), True, [1, 1], [0, 0], [1, 1])
    add("3d_basic", (1, 2, 4, 4, 3), (2, 2, 2, 2, 2), True, [1, 2, 1], [1, 0, 1], [1, 1, 2])
    cs.append(case("convolution/2d_unbatched", "convolution", [r.randn((3, 5, 5)), r.randn((2, 3, 3, 3)), r.randn((2,))],
                   lambda x, w, b: F.conv2d(x, w, b, 1, 1), attrs={"stride": [1, 1], "padding": [1, 1], "dilation": [1, 1]}))
    cs.append(case("convolution/2d_int64", "convolution", [r.randint(-3, 3, (1, 2, 4, 4)), r.randint(-3, 3, (2, 2, 2, 2)), None],
                   conv([1, 1], [0, 0], [1, 1]), attrs={"stride": [1, 1], "padding": [0, 0], "dilation": [1, 1]}, backward=False))
    cs.append(case("convolution/2d_float32", "convolution", [r.randn((1, 2, 5, 5)).float(), r.randn((3, 2, 3, 3)).float(), r.randn((3,)).float()],
                   conv([1, 1], [1, 1], [1, 1]), attrs={"stride": [1, 1], "padding": [1, 1], "dilation": [1, 1]}, rtol=1e-4, atol=1e-5))
    at = {"stride": [1, 1], "padding": [0, 0], "dilation": [1, 1]}
    cs.append(error_case("convolution/kernel_too_big", "convolution", [r.randn((1, 1, 2, 2)), r.randn((1, 1, 3, 3)), None],
                         conv([1, 1], [0, 0], [1, 1]), attrs=at))
    cs.append(error_case("convolution/channel_mismatch", "convolution", [r.randn((1, 2, 5, 5)), r.randn((4, 3, 3, 3)), None],
                         conv([1, 1], [0, 0], [1, 1]), attrs=at))
    cs.append(error_case("convolution/groups_not_dividing", "convolution", [r.randn((1, 4, 5, 5)), r.randn((3, 2, 3, 3)), None],
                         conv([1, 1], [0, 0], [1, 1], 2), attrs=dict(at, groups=2)))
    cs.append(error_case("convolution/bias_size", "convolution", [r.randn((1, 3, 5, 5)), r.randn((4, 3, 3, 3)), r.randn((3,))],
                         conv([1, 1], [0, 0], [1, 1]), attrs=at))
    cs.append(error_case("convolution/bool", "convolution", [r.bool((1, 1, 3, 3)), r.bool((1, 1, 2, 2)), None],
                         conv([1, 1], [0, 0], [1, 1]), attrs=at))
    return cs


# ---------------------------------------------------------------- pooling

def gen_pool():
    cs = []
    r = R("pool")

    def mp(k, s, p=(0, 0), d=(1, 1), ceil=False, ret=False):
        return lambda x: F.max_pool2d(x, k, s, p, d, ceil, ret)

    def add(nm, x, k, s, p=(0, 0), d=(1, 1), ceil=False, ret=False, **kw):
        attrs = {"kernel_size": list(k), "stride": list(s), "padding": list(p), "dilation": list(d),
                 "ceil_mode": ceil, "return_indices": ret}
        go = None
        if ret:
            out = F.max_pool2d(x, k, s, p, d, ceil, False)
            go = [R("mpg/" + nm).randn(out.shape), None]
        cs.append(case("max_pool2d/" + nm, "max_pool2d", [x], mp(k, s, p, d, ceil, ret), attrs=attrs, grad_outputs=go, **kw))
    add("k3s2", r.randn((2, 3, 7, 7)), (3, 3), (2, 2))
    add("k2s2_indices", r.randn((1, 2, 6, 5)), (2, 2), (2, 2), ret=True)
    add("k3s1_pad1_indices", r.randn((1, 2, 5, 5)), (3, 3), (1, 1), (1, 1), ret=True)
    add("dilation2", r.randn((1, 1, 8, 7)), (2, 3), (1, 2), (1, 1), (2, 2), ret=True)
    add("ceil_mode", r.randn((2, 1, 6, 7)), (3, 3), (2, 2), ceil=True, ret=True)
    add("ceil_mode_pad", r.randn((1, 2, 5, 6)), (2, 3), (2, 2), (1, 1), ceil=True, ret=True)
    add("unbatched_3d", r.randn((3, 5, 4)), (2, 2), (1, 1), ret=True)
    ties = torch.round(r.randn((1, 1, 5, 5)))
    add("ties_first_wins", ties, (3, 3), (1, 1), (1, 1), ret=True)
    xn = r.randn((1, 1, 4, 4))
    xn[0, 0, 1, 1] = NAN
    xn[0, 0, 3, 2] = NAN
    xn[0, 0, 3, 3] = NAN
    add("nan_propagates", xn, (2, 2), (2, 2), ret=True)
    xi = r.randn((1, 1, 4, 4))
    xi[0, 0, :2, :2] = -INF
    add("neg_inf_window", xi, (2, 2), (2, 2), ret=True)
    add("zero_batch", r.randn((0, 2, 4, 4)), (2, 2), (2, 2))
    add("float32", r.randn((1, 2, 4, 4)).float(), (2, 2), (2, 2), ret=True)
    cs.append(error_case("max_pool2d/pad_too_big", "max_pool2d", [r.randn((1, 1, 5, 5))], mp((3, 3), (1, 1), (2, 2)),
                         attrs={"kernel_size": [3, 3], "stride": [1, 1], "padding": [2, 2]}))
    cs.append(error_case("max_pool2d/output_too_small", "max_pool2d", [r.randn((1, 1, 2, 2))], mp((3, 3), (1, 1)),
                         attrs={"kernel_size": [3, 3], "stride": [1, 1]}))
    cs.append(error_case("max_pool2d/int", "max_pool2d", [r.randint(0, 5, (1, 1, 4, 4))], mp((2, 2), (2, 2)),
                         attrs={"kernel_size": [2, 2], "stride": [2, 2]}))
    cs.append(error_case("max_pool2d/2d_input", "max_pool2d", [r.randn((4, 4))], mp((2, 2), (2, 2)),
                         attrs={"kernel_size": [2, 2], "stride": [2, 2]}))

    def aap(os):
        return lambda x: F.adaptive_avg_pool2d(x, os)
    for nm, xs, os in (("down_uneven", (2, 3, 7, 5), (3, 2)), ("up", (1, 2, 3, 4), (5, 7)), ("global", (2, 3, 4, 5), (1, 1)),
                       ("identity", (1, 2, 3, 3), (3, 3)), ("unbatched", (2, 5, 6), (4, 4)), ("zero_batch", (0, 2, 4, 4), (2, 2)),
                       ("zero_output", (1, 2, 4, 4), (0, 2))):
        # torch's backward refuses an empty output: forward only there.
        cs.append(case("adaptive_avg_pool2d/" + nm, "adaptive_avg_pool2d", [r.randn(xs)], aap(os), attrs={"output_size": list(os)},
                       backward=0 not in os))
    cs.append(error_case("adaptive_avg_pool2d/int", "adaptive_avg_pool2d", [r.randint(0, 4, (1, 1, 4, 4))], aap((2, 2)),
                         attrs={"output_size": [2, 2]}))
    cs.append(error_case("adaptive_avg_pool2d/2d_input", "adaptive_avg_pool2d", [r.randn((4, 4))], aap((2, 2)),
                         attrs={"output_size": [2, 2]}))
    cs.append(case("adaptive_avg_pool2d/zero_channels", "adaptive_avg_pool2d", [r.randn((1, 0, 4, 4))], aap((2, 2)), backward=False,
                   attrs={"output_size": [2, 2]}))
    cs.append(error_case("adaptive_avg_pool2d/empty_height", "adaptive_avg_pool2d", [r.randn((1, 2, 0, 4))], aap((2, 2)),
                         attrs={"output_size": [2, 2]}))
    return cs


# ---------------------------------------------------------------- losses

def gen_loss():
    cs = []
    r = R("loss")
    RG = [True, False, False]

    def ce(reduction="mean", ignore_index=-100, ls=0.0):
        return lambda x, t, w: F.cross_entropy(x, t, w, reduction=reduction, ignore_index=ignore_index, label_smoothing=ls)

    def nll(reduction="mean", ignore_index=-100):
        return lambda x, t, w: F.nll_loss(x, t, w, reduction=reduction, ignore_index=ignore_index)

    N, C = 6, 4
    x = r.randn((N, C))
    t = torch.tensor([0, 3, 1, -100, 3, 2])
    t_noign = torch.tensor([0, 3, 1, 1, 3, 2])
    w = r.rand((C,), lo=0.2, hi=2.0)
    for red in ("mean", "sum", "none"):
        for wn, wt in (("", None), ("_weight", w)):
            for ls in (0.0, 0.15):
                nm = "cross_entropy/%s%s%s" % (red, wn, "_ls" if ls else "")
                attrs = {"reduction": red}
                if ls:
                    attrs["label_smoothing"] = ls
                cs.append(case(nm, "cross_entropy", [x, t, wt], ce(red, ls=ls), attrs=attrs, requires_grad=RG))
            nm = "nll_loss/%s%s" % (red, wn)
            cs.append(case(nm, "nll_loss", [x, t, wt], nll(red), attrs={"reduction": red}, requires_grad=RG))
    cs.append(case("cross_entropy/no_ignored_mean", "cross_entropy", [x, t_noign, None], ce(), requires_grad=RG))
    cs.append(case("cross_entropy/ignore_index_2_weight_ls", "cross_entropy", [x, torch.tensor([0, 2, 1, 2, 3, 2]), w],
                   ce("mean", 2, 0.3), attrs={"ignore_index": 2, "label_smoothing": 0.3}, requires_grad=RG))
    cs.append(case("cross_entropy/all_ignored_mean_nan", "cross_entropy", [r.randn((2, 3)), torch.tensor([-100, -100]), None],
                   ce(), requires_grad=RG))
    cs.append(case("cross_entropy/1d_input", "cross_entropy", [r.randn((5,)), torch.tensor(3), None], ce(), requires_grad=RG))
    cs.append(case("cross_entropy/1d_input_ls_weight", "cross_entropy", [r.randn((5,)), torch.tensor(1), r.rand((5,), lo=0.5, hi=1.5)],
                   ce("mean", ls=0.2), attrs={"label_smoothing": 0.2}, requires_grad=RG))
    t4 = r.randint(0, C, (2, 3, 2))
    t4[0, 1, 1] = -100
    for red in ("mean", "none"):
        cs.append(case("cross_entropy/4d_" + red, "cross_entropy", [r.randn((2, C, 3, 2)), t4, w], ce(red, ls=0.1),
                       attrs={"reduction": red, "label_smoothing": 0.1}, requires_grad=RG))
        cs.append(case("nll_loss/4d_" + red, "nll_loss", [r.randn((2, C, 3, 2)), t4, w], nll(red),
                       attrs={"reduction": red}, requires_grad=RG))
    cs.append(case("cross_entropy/3d_sum", "cross_entropy", [r.randn((2, C, 5)), r.randint(0, C, (2, 5)), None], ce("sum"),
                   attrs={"reduction": "sum"}, requires_grad=RG))
    cs.append(case("cross_entropy/zero_batch_mean", "cross_entropy", [r.randn((0, C)), torch.zeros(0, dtype=torch.int64), None],
                   ce(), requires_grad=RG))
    cs.append(case("cross_entropy/zero_batch_sum", "cross_entropy", [r.randn((0, C)), torch.zeros(0, dtype=torch.int64), None],
                   ce("sum"), attrs={"reduction": "sum"}, requires_grad=RG))
    p = torch.softmax(r.randn((N, C)), 1)
    for red in ("mean", "sum", "none"):
        cs.append(case("cross_entropy/prob_targets_" + red, "cross_entropy", [x, p, w], ce(red, ls=0.1),
                       attrs={"reduction": red, "label_smoothing": 0.1}, requires_grad=RG))
    cs.append(case("cross_entropy/prob_targets_4d", "cross_entropy", [r.randn((2, 3, 2, 2)), torch.softmax(r.randn((2, 3, 2, 2)), 1), None],
                   ce(), requires_grad=RG))
    cs.append(case("cross_entropy/float32", "cross_entropy", [x.float(), t, w.float()], ce(ls=0.1), attrs={"label_smoothing": 0.1},
                   requires_grad=RG, rtol=1e-5, atol=1e-6))
    cs.append(case("nll_loss/1d_input", "nll_loss", [r.randn((5,)), torch.tensor(2), None], nll(), requires_grad=RG))
    cs.append(case("nll_loss/1d_input_none", "nll_loss", [r.randn((5,)), torch.tensor(4), r.rand((5,))], nll("none"),
                   attrs={"reduction": "none"}, requires_grad=RG))
    cs.append(case("cross_entropy/1d_input_none", "cross_entropy", [r.randn((5,)), torch.tensor(0), None], ce("none"),
                   attrs={"reduction": "none"}, requires_grad=RG))
    cs.append(case("nll_loss/ignore_index_custom", "nll_loss", [x, torch.tensor([0, 1, 1, 1, 3, 2]), w], nll("mean", 1),
                   attrs={"ignore_index": 1}, requires_grad=RG))
    cs.append(case("nll_loss/all_ignored_mean_nan", "nll_loss", [r.randn((2, 3)), torch.tensor([-100, -100]), None], nll(),
                   requires_grad=RG))
    cs.append(case("nll_loss/zero_weight_mean_nan", "nll_loss", [r.randn((2, 3)), torch.tensor([1, 1]), torch.tensor([1.0, 0.0, 1.0])],
                   nll(), requires_grad=RG))
    cs.append(case("nll_loss/zero_batch_mean", "nll_loss", [r.randn((0, 3)), torch.zeros(0, dtype=torch.int64), None], nll(),
                   requires_grad=RG))
    cs.append(error_case("cross_entropy/target_out_of_bounds", "cross_entropy", [x, torch.tensor([0, 1, 4, 1, 1, 1]), None], ce()))
    cs.append(error_case("cross_entropy/target_negative", "cross_entropy", [x, torch.tensor([0, 1, -1, 1, 1, 1]), None], ce()))
    cs.append(error_case("cross_entropy/weight_size", "cross_entropy", [x, t, torch.ones(3)], ce()))
    cs.append(error_case("cross_entropy/batch_mismatch", "cross_entropy", [x, torch.tensor([0, 1]), None], ce()))
    cs.append(error_case("cross_entropy/int_input", "cross_entropy", [r.randint(0, 3, (2, 3)), torch.tensor([0, 1]), None], ce()))
    cs.append(error_case("nll_loss/float_target", "nll_loss", [x, t.double(), None], nll()))
    cs.append(error_case("nll_loss/target_out_of_bounds", "nll_loss", [x, torch.tensor([0, 1, 7, 1, 1, 1]), None], nll()))
    return cs


# ---------------------------------------------------------------- embedding, dropout

def gen_misc():
    cs = []
    r = R("misc")

    def emb(padding_idx=None, scale=False):
        return lambda w, i: F.embedding(i, w, padding_idx=padding_idx, scale_grad_by_freq=scale)
    W = r.randn((10, 3))
    idx = torch.tensor([[1, 2, 4, 2], [4, 3, 2, 9]])
    cs.append(case("embedding/repeated", "embedding", [W, idx], emb()))
    cs.append(case("embedding/padding_idx", "embedding", [W, idx], emb(2), attrs={"padding_idx": 2}))
    cs.append(case("embedding/padding_idx_negative", "embedding", [W, idx], emb(-1), attrs={"padding_idx": 9}))
    cs.append(case("embedding/scale_grad_by_freq", "embedding", [W, idx], emb(None, True), attrs={"scale_grad_by_freq": True}))
    cs.append(case("embedding/padding_and_scale", "embedding", [W, idx], emb(4, True), attrs={"padding_idx": 4, "scale_grad_by_freq": True}))
    cs.append(case("embedding/int32_indices", "embedding", [W, idx.int()], emb()))
    cs.append(case("embedding/0d_index", "embedding", [W, torch.tensor(7)], emb()))
    cs.append(case("embedding/empty_indices", "embedding", [W, torch.zeros((0, 2), dtype=torch.int64)], emb()))
    cs.append(case("embedding/int64_weight", "embedding", [r.randint(-9, 9, (5, 2)), torch.tensor([4, 0, 4])], emb(), backward=False))
    cs.append(case("embedding/float32", "embedding", [W.float(), idx], emb(), rtol=1e-6, atol=1e-7))
    cs.append(error_case("embedding/out_of_range", "embedding", [W, torch.tensor([1, 10])], emb()))
    cs.append(error_case("embedding/negative_index", "embedding", [W, torch.tensor([-1])], emb()))
    cs.append(error_case("embedding/float_indices", "embedding", [W, torch.tensor([1.0])], emb()))
    cs.append(error_case("embedding/1d_weight", "embedding", [r.randn((5,)), torch.tensor([1])], emb()))

    def dropout(p, train, inplace=False):
        return lambda x: F.dropout(x.clone() if inplace else x, p, train, inplace)
    x = r.randn((3, 4))
    cs.append(case("dropout/p0_train", "dropout", [x], dropout(0.0, True), attrs={"p": 0.0, "train": True}))
    cs.append(case("dropout/eval", "dropout", [x], dropout(0.5, False), attrs={"p": 0.5, "train": False}))
    cs.append(case("dropout/eval_inplace", "dropout", [x], dropout(0.3, False, True), attrs={"p": 0.3, "train": False, "inplace": True}))
    xs = r.randn((2, 5))
    xs[0, 1] = NAN
    xs[1, 2] = INF
    cs.append(case("dropout/p1_zeros_nan_stays", "dropout", [xs], dropout(1.0, True), attrs={"p": 1.0, "train": True}))
    cs.append(case("dropout/eval_int", "dropout", [r.randint(0, 5, (2, 3))], dropout(0.5, False), attrs={"p": 0.5, "train": False},
                   backward=False))
    cs.append(error_case("dropout/p_above_1", "dropout", [x], dropout(1.5, True), attrs={"p": 1.5, "train": True}))
    cs.append(error_case("dropout/p_negative", "dropout", [x], dropout(-0.1, True), attrs={"p": -0.1, "train": True}))
    cs.append(error_case("dropout/int_train", "dropout", [r.randint(0, 5, (2, 3))], dropout(0.5, True), attrs={"p": 0.5, "train": True}))
    return cs


# ---------------------------------------------------------------- emulated bf16

def gen_emulated():
    """bfloat16 cases for the emulated device: PyTorch's CPU kernels at
    bf16 against the float64 kernels rounded through float32 to bf16, within
    2 bf16 units in the last place.

    Only ops whose PyTorch bf16 kernel keeps fp32 intermediates are here
    (forward), plus the backward of the pure routing ops (max_pool2d,
    embedding). PyTorch's bf16 matmul/convolution/layer_norm, and most bf16
    backward formulas, round intermediates to bf16 and then differ from the
    correctly rounded result by more than 2 ulp on cancelling sums, so they
    say nothing about the kernels."""
    cs = []
    r = R("emulated")
    b = torch.bfloat16

    def add(nm, op, inputs, fn, attrs=None, backward=False, **kw):
        cs.append(case("emulated/" + nm, op, inputs, fn, attrs=attrs, mode="emulated", ulp=2, backward=backward, **kw))
    add("softmax", "softmax", [r.randn((3, 8)).to(b)], lambda x: torch.softmax(x, 1), {"dim": 1})
    add("log_softmax", "log_softmax", [r.randn((3, 8)).to(b)], lambda x: torch.log_softmax(x, 1), {"dim": 1})
    add("linear", "linear", [r.randn((3, 8)).to(b), r.randn((4, 8)).to(b), r.randn((4,)).to(b)], F.linear)
    add("max_pool2d", "max_pool2d", [r.randn((1, 2, 5, 5)).to(b)], lambda x: F.max_pool2d(x, 2, 2, 0, 1, False, True),
        {"kernel_size": [2, 2], "stride": [2, 2], "return_indices": True}, backward=True,
        grad_outputs=[R("emu/mp").randn((1, 2, 2, 2)).to(b), None])
    add("adaptive_avg_pool2d", "adaptive_avg_pool2d", [r.randn((1, 2, 5, 5)).to(b)], lambda x: F.adaptive_avg_pool2d(x, (2, 3)),
        {"output_size": [2, 3]})
    add("batch_norm_train", "batch_norm", [r.randn((4, 3, 2)).to(b), None, None, r.randn((3,)).to(b), r.randn((3,)).to(b)],
        lambda x, rm, rv, w, bb: F.batch_norm(x, rm, rv, w, bb, True), {"training": True})
    add("cross_entropy", "cross_entropy", [r.randn((4, 5)).to(b), torch.tensor([0, 4, 2, 1]), None],
        lambda x, t, w: F.cross_entropy(x, t, w))
    add("embedding", "embedding", [r.randn((5, 3)).to(b), torch.tensor([[0, 4], [4, 1]])], lambda w, i: F.embedding(i, w),
        backward=True)
    return cs


def main():
    torch.manual_seed(0)
    write_group("nn_softmax", gen_softmax())
    write_group("nn_matmul", gen_matmul())
    write_group("nn_norm", gen_norm())
    write_group("nn_conv", gen_conv())
    write_group("nn_pool", gen_pool())
    write_group("nn_loss", gen_loss())
    write_group("nn_misc", gen_misc())
    write_group("nn_emulated", gen_emulated())


if __name__ == "__main__":
    main()
