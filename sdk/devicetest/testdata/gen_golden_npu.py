"""Golden cases for the fused torch_npu operators (issue 13): group "npu".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_npu.py

writes golden/npu.json.gz (format: golden_lib.py). torch_npu is not
available here, so each operator is its defining formula of
../shared/spec/fused-ops.md (torch_npu's documented semantics) written with
PyTorch 1.13 ops in float64; gradients are torch.autograd's on that
composition, and every float64 backward case is first checked by central
finite differences (torch.autograd.gradcheck). The worked examples of
fused-ops.md are cases too, their values asserted here.

Narrow cases (mode "emulated", one per float32/float16/bfloat16, forward
and backward) follow the fused-kernel model of plugins/cpu/npu_ops.go: the
inputs at the dtype, the formula computed wider (float64 here) and each
output (and input gradient) rounded once to the dtype.

Error messages are the CPU kernels' own (torch_npu's are not available):
the compositions raise them, except where a PyTorch op raises first with
the same text (reshape, permute, layer_norm).
"""

import math

import torch
import torch.nn.functional as F

from golden_lib import Rand, case, error_case, write_group

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NAN, INF = float("nan"), float("inf")


def R(name):
    return Rand("npu/" + name)


def fused(fn, d):
    """fn on inputs of dtype d computed in float64, each output rounded
    once to d (gradients too: autograd through the casts)."""
    def wrapped(*xs):
        args = [x.to(f64) if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        out = fn(*args)
        if isinstance(out, torch.Tensor):
            return out.to(d)
        return tuple(o.to(d) for o in out)
    return wrapped


def fd_checked(name, op, inputs, fn, **kw):
    """case() after a finite-difference check of fn's gradients (float64
    inputs that take a gradient)."""
    if kw.get("backward", True):
        rg = kw.get("requires_grad")
        xs = []
        for i, v in enumerate(inputs):
            want = isinstance(v, torch.Tensor) and v.dtype == f64 and (rg is None or rg[i])
            xs.append(v.detach().clone().requires_grad_(True) if want else v)
        if any(isinstance(x, torch.Tensor) and x.requires_grad for x in xs) and all(
                not isinstance(x, torch.Tensor) or x.numel() == 0 or bool(torch.isfinite(x).all()) or x.dtype == torch.bool for x in xs):
            assert torch.autograd.gradcheck(lambda *a: fn(*a), xs, eps=1e-6, atol=1e-7, rtol=1e-6), name
    return case(name, op, inputs, fn, **kw)


def narrow(op, fn, mk, attrs=None, label=None, backward=True):
    cs = []
    for dn, d in NARROW.items():
        name = "%s/%s" % (label or op, dn)
        cs.append(case(name, op, mk(R(name), d), fused(fn, d), attrs=attrs, mode="emulated", backward=backward))
    return cs


def close(got, want, tol=1e-9):
    got = torch.as_tensor(got, dtype=f64).reshape(-1)
    want = torch.tensor(want, dtype=f64).reshape(-1)
    assert got.shape == want.shape and bool(((got - want).abs() <= tol * (1 + want.abs())).all()), (got, want)


def worked(name, op, inputs, fn, grad_outputs, want_y, want_grads, attrs=None, tol=1e-9):
    """A worked example of fused-ops.md: the case, its values asserted."""
    c = case(name, op, inputs, fn, attrs=attrs, grad_outputs=grad_outputs)
    close([v for o in c["outputs"] for v in o["data"]], want_y, tol)
    for g, w in zip(c["input_grads"], want_grads):
        if w is not None:
            close(g["data"], w, tol)
    return c


def bcast_to(a, shape):
    """Whether shape a broadcasts to shape without changing it."""
    try:
        return torch.broadcast_shapes(a, shape) == shape
    except RuntimeError:
        return False


def not_float(kernel):
    """The CPU kernels' dtype error (PyTorch's "not implemented" form)."""
    def fn(x):
        if not x.dtype.is_floating_point:
            raise RuntimeError('"%s" not implemented for \'%s\'' % (kernel, {torch.int64: "Long", torch.bool: "Bool"}[x.dtype]))
        return x
    return fn


def t(v, d=f64):
    return torch.tensor(v, dtype=d)


# ---------------------------------------------------------------- npu_swiglu

def swiglu(x, dim=-1):
    if x.dim() == 0:
        raise RuntimeError("npu_swiglu: input must have 1 to 8 dimensions, got a 0-d tensor")
    d = dim % x.dim()
    if x.shape[d] % 2:
        raise RuntimeError("npu_swiglu: the size of dimension %d (%d) must be even" % (d, x.shape[d]))
    a, b = x.chunk(2, dim=d)
    return a * torch.sigmoid(a) * b


def swiglu_cases():
    cs = []
    r = R("swiglu")
    S = lambda dim: (lambda x: swiglu(x, dim))
    cs.append(fd_checked("npu.swiglu/1d", "npu.swiglu", [r.randn((8,))], swiglu, attrs={"dim": -1}))
    cs.append(fd_checked("npu.swiglu/3d_last", "npu.swiglu", [r.randn((2, 3, 6)) * 3], swiglu, attrs={"dim": -1}))
    cs.append(fd_checked("npu.swiglu/dim0", "npu.swiglu", [r.randn((4, 3))], S(0), attrs={"dim": 0}))
    cs.append(fd_checked("npu.swiglu/dim_neg2", "npu.swiglu", [r.randn((2, 6, 5))], S(-2), attrs={"dim": -2}))
    cs.append(fd_checked("npu.swiglu/dim1_of_4d", "npu.swiglu", [r.randn((2, 4, 3, 2))], S(1), attrs={"dim": 1}))
    cs.append(case("npu.swiglu/empty", "npu.swiglu", [r.randn((0, 4))], swiglu, attrs={"dim": -1}))
    cs.append(case("npu.swiglu/special", "npu.swiglu", [t([0.0, NAN, INF, -INF, 30.0, -800.0, 1.5, 2.0, -1.0, INF, 0.5, -0.0])], swiglu,
                   attrs={"dim": -1}, backward=False))
    cs.append(worked("npu.swiglu/worked", "npu.swiglu", [t([1.0, -2.0, 3.0, 4.0])], swiglu, [t([1.0, 1.0])],
                     [2.1931757359, -0.9536233762], [[2.7830115356, -0.3631369951, 0.7310585786, -0.2384058440]], attrs={"dim": -1}))
    cs.append(error_case("npu.swiglu/odd", "npu.swiglu", [r.randn((3, 5))], swiglu, attrs={"dim": -1}))
    cs.append(error_case("npu.swiglu/odd_dim0", "npu.swiglu", [r.randn((3, 4))], S(0), attrs={"dim": 0}))
    cs.append(error_case("npu.swiglu/0d", "npu.swiglu", [t(1.5)], swiglu, attrs={"dim": -1}))
    cs += narrow("npu.swiglu", swiglu, lambda r, d: [r.randn((4, 16), d)], attrs={"dim": -1})
    return cs


# ---------------------------------------------------------------- npu_rotary_mul

def rot(x, mode):
    if mode == "half":
        x1, x2 = x.chunk(2, -1)
        return torch.cat((-x2, x1), -1)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((-x2, x1), -1).reshape(x.shape)


def rotary_mul(mode="half"):
    def fn(x, r1, r2):
        if x.dim() == 0 or x.shape[-1] % 2:
            raise RuntimeError("npu_rotary_mul: the last dimension of input %s must be even" % list(x.shape))
        for n, rr in (("r1", r1), ("r2", r2)):
            if not bcast_to(rr.shape, x.shape):
                raise RuntimeError("npu_rotary_mul: %s of shape %s does not broadcast to input's shape %s" % (n, list(rr.shape), list(x.shape)))
        return r1 * x + r2 * rot(x, mode)
    return fn


def rotary_cases():
    cs = []
    r = R("rotary")
    H = {"rotary_mode": "half"}
    I = {"rotary_mode": "interleave"}
    B, S, N, D = 2, 3, 2, 8
    bsnd, bnsd, sbnd = (B, S, N, D), (B, N, S, D), (S, B, N, D)
    for lab, xs, rs in (("1S1D", bsnd, (1, S, 1, D)), ("11SD", bnsd, (1, 1, S, D)), ("S11D", sbnd, (S, 1, 1, D)), ("full", bsnd, bsnd),
                        ("B1SD", bnsd, (B, 1, S, D))):
        cs.append(fd_checked("npu.rotary_mul/" + lab, "npu.rotary_mul", [r.randn(xs), r.randn(rs), r.randn(rs)], rotary_mul(), attrs=H))
    cs.append(fd_checked("npu.rotary_mul/interleave", "npu.rotary_mul", [r.randn((B, S, N, D)), r.randn((1, S, 1, D)), r.randn((1, S, 1, D))],
                         rotary_mul("interleave"), attrs=I))
    cs.append(fd_checked("npu.rotary_mul/interleave_full", "npu.rotary_mul", [r.randn((2, 4)), r.randn((2, 4)), r.randn((4,))],
                         rotary_mul("interleave"), attrs=I))
    cs.append(fd_checked("npu.rotary_mul/r_mixed", "npu.rotary_mul", [r.randn((B, S, N, D)), r.randn((1, S, 1, D)), r.randn((D,))], rotary_mul(), attrs=H))
    cs.append(case("npu.rotary_mul/repo_2d", "npu.rotary_mul", [t([[1.0, 2], [3, 4]]), t([[5.0, 6], [7, 8]]), t([[9.0, 10], [11, 12]])],
                   rotary_mul(), attrs=H))
    close(cs[-1]["outputs"][0]["data"], [-13, 22, -23, 68])
    cs.append(worked("npu.rotary_mul/worked", "npu.rotary_mul", [t([[[[1.0, 2, 3, 4]]]]), t([[[[0.1, 0.2, 0.3, 0.4]]]]), t([[[[0.5, 0.6, 0.7, 0.8]]]])],
                     rotary_mul(), [t([[[[1.0, 1, 1, 1]]]])], [-1.4, -2.0, 1.6, 3.2],
                     [[0.8, 1.0, -0.2, -0.2], [1, 2, 3, 4], [-3, -4, 1, 2]], attrs=H))
    cs.append(case("npu.rotary_mul/empty", "npu.rotary_mul", [r.randn((0, 2, 4)), r.randn((2, 4)), r.randn((2, 4))], rotary_mul(), attrs=H))
    cs.append(case("npu.rotary_mul/special", "npu.rotary_mul", [t([[NAN, 1.0, INF, 2.0]]), t([[1.0, 0.0, 2.0, -1.0]]), t([[0.5, 0.5, 0.0, 1.0]])],
                   rotary_mul(), attrs=H, backward=False))
    cs.append(error_case("npu.rotary_mul/odd", "npu.rotary_mul", [r.randn((2, 3)), r.randn((3,)), r.randn((3,))], rotary_mul(), attrs=H))
    cs.append(error_case("npu.rotary_mul/bad_broadcast", "npu.rotary_mul", [r.randn((2, 4)), r.randn((3, 4)), r.randn((4,))], rotary_mul(), attrs=H))
    cs.append(error_case("npu.rotary_mul/r_larger", "npu.rotary_mul", [r.randn((2, 4)), r.randn((2, 2, 4)), r.randn((4,))], rotary_mul(), attrs=H))
    cs += narrow("npu.rotary_mul", rotary_mul(), lambda r, d: [r.randn((2, 4, 2, 16), d), r.randn((1, 4, 1, 16), d), r.randn((1, 4, 1, 16), d)], attrs=H)
    cs += narrow("npu.rotary_mul", rotary_mul("interleave"), lambda r, d: [r.randn((2, 3, 8), d), r.randn((3, 8), d), r.randn((3, 8), d)],
                 attrs=I, label="npu.rotary_mul/interleave")
    return cs


# ---------------------------------------------------------------- npu_fast_gelu, npu_mish

def fast_gelu(x):
    return x * torch.sigmoid(1.702 * x)


def mish(x):
    return x * torch.tanh(torch.log1p(torch.exp(x)))


def unary_cases():
    cs = []
    special = t([0.0, -0.0, NAN, INF, -INF, 1.5, -2.0, 30.0, -30.0, -800.0, 800.0])
    for op, fn in (("npu.fast_gelu", fast_gelu), ("npu.mish", mish)):
        r = R(op)
        cs.append(fd_checked(op + "/2x3", op, [r.randn((2, 3)) * 2], fn))
        cs.append(fd_checked(op + "/3d", op, [r.randn((2, 3, 4)) * 4], fn))
        cs.append(fd_checked(op + "/0d", op, [t(-0.75)], fn))
        cs.append(case(op + "/empty", op, [r.randn((0, 3))], fn))
        cs.append(case(op + "/special", op, [special], fn, backward=False))
        cs.append(error_case(op + "/int64", op, [torch.tensor([1, -2, 0])], not_float(op.replace(".", "_"))))
        cs += narrow(op, fn, lambda r, d: [(r.randn((3, 5)) * 3).to(d)])
    cs.append(worked("npu.fast_gelu/worked", "npu.fast_gelu", [t([-2.0, -1, 0, 1, 2])], fast_gelu, [t([1.0] * 5)],
                     [-0.0643413769, -0.1542042341, 0, 0.8457957659, 1.9356586231],
                     [[-0.0738153543, -0.0677796066, 0.5, 1.0677796066, 1.0738153543]]))
    cs.append(worked("npu.mish/worked", "npu.mish", [t([-1.0, 0, 1, 2])], mish, [t([1.0] * 4)],
                     [-0.3034014614, 0, 0.8650983883, 1.9439589595], [[0.0592167559, 0.6, 1.0490362201, 1.0693179343]]))
    return cs


# ---------------------------------------------------------------- npu_scaled_masked_softmax

def sms(scale=1.0, triu=False):
    def fn(x, mask):
        if mask.dtype != torch.bool:
            raise RuntimeError("npu_scaled_masked_softmax: mask must be a bool tensor, got %s" % str(mask.dtype).replace("torch.", ""))
        if not bcast_to(mask.shape, x.shape):
            raise RuntimeError("npu_scaled_masked_softmax: mask of shape %s does not broadcast to x's shape %s" % (list(mask.shape), list(x.shape)))
        if triu:
            s1, s2 = x.shape[-2:]
            mask = torch.ones((s1, s2), dtype=torch.bool).triu(1)
        z = (x * scale).masked_fill(mask, -10000.0)
        return torch.softmax(z, -1)
    return fn


def sms_cases():
    cs = []
    r = R("sms")
    A = lambda s, tr=False: {"scale": float(s), "fixed_triu_mask": tr}
    x = r.randn((2, 2, 4, 8)) * 2
    cs.append(fd_checked("npu.scaled_masked_softmax/bnss", "npu.scaled_masked_softmax", [x, r.bool((2, 2, 4, 8), 0.3)], sms(0.5), attrs=A(0.5)))
    cs.append(fd_checked("npu.scaled_masked_softmax/mask_b1ss", "npu.scaled_masked_softmax", [x, r.bool((2, 1, 4, 8), 0.3)], sms(1.0), attrs=A(1)))
    cs.append(fd_checked("npu.scaled_masked_softmax/mask_ss", "npu.scaled_masked_softmax", [r.randn((3, 4, 4)), r.bool((4, 4), 0.4)], sms(2.0), attrs=A(2)))
    cs.append(fd_checked("npu.scaled_masked_softmax/triu", "npu.scaled_masked_softmax", [r.randn((2, 3, 5, 5)), r.bool((1, 1, 5, 5), 0.5)],
                         sms(0.125, True), attrs=A(0.125, True)))
    cs.append(fd_checked("npu.scaled_masked_softmax/triu_rect", "npu.scaled_masked_softmax", [r.randn((2, 3, 6)), r.bool((3, 6), 0.5)],
                         sms(1.0, True), attrs=A(1, True)))
    full = torch.zeros((2, 4), dtype=torch.bool)
    full[1] = True
    cs.append(fd_checked("npu.scaled_masked_softmax/row_masked", "npu.scaled_masked_softmax", [r.randn((2, 4)), full], sms(3.0), attrs=A(3)))
    cs.append(fd_checked("npu.scaled_masked_softmax/neg_scale", "npu.scaled_masked_softmax", [r.randn((2, 5)), r.bool((2, 5), 0.3)], sms(-1.5), attrs=A(-1.5)))
    cs.append(case("npu.scaled_masked_softmax/empty", "npu.scaled_masked_softmax", [r.randn((0, 4)), r.bool((0, 4))], sms(), attrs=A(1)))
    cs.append(case("npu.scaled_masked_softmax/special", "npu.scaled_masked_softmax",
                   [t([[1.0, NAN, 2.0], [INF, 0.0, 1.0], [-INF, 0.0, 1.0], [1e5, -1e5, 0.0]]), torch.tensor([[False, False, True]] * 4)],
                   sms(), attrs=A(1), backward=False))
    cs.append(worked("npu.scaled_masked_softmax/worked", "npu.scaled_masked_softmax", [t([1.0, 2, 3, 4]), torch.tensor([False, False, True, False])],
                     sms(0.5), [t([1.0, 0, 0, 0])], [0.1402443832, 0.2312238976, 0, 0.6285317192],
                     [[0.0602879481, -0.0162139264, 0, -0.0440740216]], attrs=A(0.5)))
    cs.append(worked("npu.scaled_masked_softmax/worked_all_masked", "npu.scaled_masked_softmax", [t([1.0, 2, 3, 4]), torch.ones(4, dtype=torch.bool)],
                     sms(0.5), [t([1.0, 0, 0, 0])], [0.25] * 4, [[0, 0, 0, 0]], attrs=A(0.5)))
    cs.append(error_case("npu.scaled_masked_softmax/float_mask", "npu.scaled_masked_softmax", [r.randn((2, 4)), r.randn((2, 4))], sms(), attrs=A(1)))
    cs.append(error_case("npu.scaled_masked_softmax/bad_mask_shape", "npu.scaled_masked_softmax", [r.randn((2, 4)), r.bool((3, 4))], sms(), attrs=A(1)))
    cs += narrow("npu.scaled_masked_softmax", sms(0.25), lambda r, d: [(r.randn((2, 2, 4, 16)) * 4).to(d), r.bool((2, 1, 4, 16), 0.25)], attrs=A(0.25))
    return cs


# ---------------------------------------------------------------- npu_confusion_transpose

def ct(perm, shape, first):
    def fn(x):
        if first:
            return x.permute(*perm).reshape(shape)
        return x.reshape(shape).permute(*perm)
    return fn


def ct_cases():
    cs = []
    r = R("ct")
    A = lambda p, s, f: {"perm": list(p), "shape": list(s), "transpose_first": f}
    ar = torch.arange(12, dtype=f64)
    cases = [
        ("worked_first", ar.reshape(2, 3, 2), (0, 2, 1), (2, 6), True),
        ("worked_second", torch.arange(6, dtype=f64).reshape(2, 3), (1, 0), (3, 2), False),
        ("bsh_to_bnsd", r.randn((2, 3, 8)), (0, 2, 1, 3), (2, 3, 2, 4), False),
        ("bnsd_to_bsh", r.randn((2, 2, 3, 4)), (0, 2, 1, 3), (2, 3, 8), True),
        ("infer", r.randn((2, 3, 4)), (2, 0, 1), (-1, 6), True),
        ("neg_perm", r.randn((2, 3, 4)), (-1, 0, 1), (4, 6), True),
        ("identity", r.randn((3, 4)), (0, 1), (3, 4), False),
    ]
    for lab, x, p, s, f in cases:
        cs.append(fd_checked("npu.confusion_transpose/" + lab, "npu.confusion_transpose", [x], ct(p, s, f), attrs=A(p, s, f)))
    close(cs[0]["outputs"][0]["data"], [0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11])
    close(cs[1]["outputs"][0]["data"], [0, 2, 4, 1, 3, 5])
    # the backward of the first worked example: grad arange(12) of (2, 6)
    c = case("npu.confusion_transpose/worked_backward", "npu.confusion_transpose", [ar.reshape(2, 3, 2)], ct((0, 2, 1), (2, 6), True),
             attrs=A((0, 2, 1), (2, 6), True), grad_outputs=[ar.reshape(2, 6)])
    close(c["input_grads"][0]["data"], [0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11])
    cs.append(c)
    cs.append(case("npu.confusion_transpose/empty", "npu.confusion_transpose", [r.randn((0, 3, 2))], ct((0, 2, 1), (0, 6), True),
                   attrs=A((0, 2, 1), (0, 6), True)))
    for dn, d in (("int64", torch.int64), ("int32", torch.int32), ("bool", torch.bool)):
        x = torch.arange(24).reshape(2, 3, 4).to(d) if d != torch.bool else torch.arange(24).reshape(2, 3, 4) % 3 == 0
        cs.append(case("npu.confusion_transpose/" + dn, "npu.confusion_transpose", [x], ct((1, 0, 2), (3, 8), True), attrs=A((1, 0, 2), (3, 8), True),
                       backward=False))
    cs.append(error_case("npu.confusion_transpose/bad_count", "npu.confusion_transpose", [r.randn((2, 3, 4))], ct((0, 2, 1), (5, 5), True),
                         attrs=A((0, 2, 1), (5, 5), True)))
    cs.append(error_case("npu.confusion_transpose/perm_len", "npu.confusion_transpose", [r.randn((2, 3, 4))], ct((0, 1), (6, 4), True),
                         attrs=A((0, 1), (6, 4), True)))
    cs.append(error_case("npu.confusion_transpose/perm_dup", "npu.confusion_transpose", [r.randn((2, 12))], ct((0, 1, 1), (2, 3, 4), False),
                         attrs=A((0, 1, 1), (2, 3, 4), False)))
    cs.append(error_case("npu.confusion_transpose/perm_range", "npu.confusion_transpose", [r.randn((2, 12))], ct((0, 1, 3), (2, 3, 4), False),
                         attrs=A((0, 1, 3), (2, 3, 4), False)))
    cs += narrow("npu.confusion_transpose", ct((0, 2, 1, 3), (2, 4, 3, 4), False), lambda r, d: [r.randn((2, 3, 16), d)],
                 attrs=A((0, 2, 1, 3), (2, 4, 3, 4), False))
    return cs


# ---------------------------------------------------------------- npu_linear

def linear(x, w, b=None):
    if x.dim() < 1 or w.dim() != 2 or x.shape[-1] != w.shape[1]:
        raise RuntimeError("npu_linear: input %s and weight %s do not match (want input [.., K], weight [N, K])" % (list(x.shape), list(w.shape)))
    if b is not None and (b.dim() != 1 or b.shape[0] != w.shape[0]):
        raise RuntimeError("npu_linear: bias of shape %s does not match weight's %d output features" % (list(b.shape), w.shape[0]))
    return F.linear(x, w, b)


def linear_cases():
    cs = []
    r = R("linear")
    cs.append(fd_checked("npu.linear/2d_bias", "npu.linear", [r.randn((4, 6)), r.randn((5, 6)), r.randn((5,))], linear))
    cs.append(fd_checked("npu.linear/2d_nobias", "npu.linear", [r.randn((3, 4)), r.randn((2, 4)), None], linear))
    cs.append(fd_checked("npu.linear/3d", "npu.linear", [r.randn((2, 3, 4)), r.randn((5, 4)), r.randn((5,))], linear))
    cs.append(fd_checked("npu.linear/1d", "npu.linear", [r.randn((4,)), r.randn((3, 4)), r.randn((3,))], linear))
    cs.append(case("npu.linear/packed", "npu.linear", [r.randn((20, 40)), r.randn((48, 40)), r.randn((48,))], linear))
    cs.append(case("npu.linear/empty_rows", "npu.linear", [r.randn((0, 4)), r.randn((3, 4)), r.randn((3,))], linear))
    cs.append(case("npu.linear/k0", "npu.linear", [r.randn((2, 0)), r.randn((3, 0)), r.randn((3,))], linear))
    cs.append(worked("npu.linear/worked", "npu.linear", [t([[1.0, 2]]), t([[1.0, 0], [0, 1], [1, 1]]), t([0.5, -0.5, 0])], linear,
                     [t([[1.0, 1, 1]])], [1.5, 1.5, 3], [[2, 2], [1, 2, 1, 2, 1, 2], [1, 1, 1]]))
    cs.append(error_case("npu.linear/k_mismatch", "npu.linear", [r.randn((2, 4)), r.randn((3, 5)), None], linear))
    cs.append(error_case("npu.linear/bias_size", "npu.linear", [r.randn((2, 4)), r.randn((3, 4)), r.randn((2,))], linear))
    cs += narrow("npu.linear", linear, lambda r, d: [r.randn((6, 16), d), r.randn((8, 16), d), r.randn((8,), d)])
    return cs


# ---------------------------------------------------------------- npu_layer_norm_eval

def lne(ns, eps=1e-5):
    def fn(x, w, b):
        for n, a in (("weight", w), ("bias", b)):
            if a is not None and list(a.shape) != list(ns):
                raise RuntimeError("npu_layer_norm_eval: %s of shape %s must have normalized_shape %s" % (n, list(a.shape), list(ns)))
        return F.layer_norm(x, ns, w, b, eps)
    return fn


def lne_cases():
    cs = []
    r = R("lne")
    A = lambda ns, eps=1e-5: {"normalized_shape": list(ns), "eps": eps}
    cs.append(fd_checked("npu.layer_norm_eval/noaffine", "npu.layer_norm_eval", [r.randn((2, 3, 8)), None, None], lne((8,)), attrs=A((8,))))
    cs.append(fd_checked("npu.layer_norm_eval/affine", "npu.layer_norm_eval", [r.randn((4, 6)), r.randn((6,)), r.randn((6,))], lne((6,)), attrs=A((6,))))
    cs.append(fd_checked("npu.layer_norm_eval/2d_shape_eps", "npu.layer_norm_eval", [r.randn((2, 3, 4)), r.randn((3, 4)), r.randn((3, 4))],
                         lne((3, 4), 1e-3), attrs=A((3, 4), 1e-3)))
    cs.append(fd_checked("npu.layer_norm_eval/weight_only", "npu.layer_norm_eval", [r.randn((3, 5)), r.randn((5,)), None], lne((5,)), attrs=A((5,))))
    cs.append(fd_checked("npu.layer_norm_eval/bias_only", "npu.layer_norm_eval", [r.randn((3, 5)), None, r.randn((5,))], lne((5,)), attrs=A((5,))))
    cs.append(case("npu.layer_norm_eval/empty", "npu.layer_norm_eval", [r.randn((0, 4)), r.randn((4,)), r.randn((4,))], lne((4,)), attrs=A((4,))))
    cs.append(case("npu.layer_norm_eval/special", "npu.layer_norm_eval", [t([[1.0, NAN, 2.0], [INF, 0.0, 1.0], [3.0, 3.0, 3.0]]), None, None],
                   lne((3,)), attrs=A((3,)), backward=False))
    cs.append(worked("npu.layer_norm_eval/worked", "npu.layer_norm_eval", [t([1.0, 2, 3, 4]), None, None], lne((4,)), [t([1.0, 0, 0, 0])],
                     [-1.3416354200, -0.4472118067, 0.4472118067, 1.3416354200], [[0.2683303039, -0.3577683720, -0.0894434346, 0.1788815028]],
                     attrs=A((4,))))
    cs.append(worked("npu.layer_norm_eval/worked_affine", "npu.layer_norm_eval", [t([1.0, 2, 3, 4]), t([1.0, 2, 1, 1]), t([0.0, 0, 0, 1])], lne((4,)),
                     [t([1.0, 0, 0, 0])], [-1.3416354200, -0.8944236133, 0.4472118067, 2.3416354200], [None, None, None], attrs=A((4,))))
    cs.append(error_case("npu.layer_norm_eval/shape", "npu.layer_norm_eval", [r.randn((2, 3, 8)), None, None], lne((4,)), attrs=A((4,))))
    cs.append(error_case("npu.layer_norm_eval/weight_shape", "npu.layer_norm_eval", [r.randn((2, 8)), r.randn((4,)), None], lne((8,)), attrs=A((8,))))
    cs += narrow("npu.layer_norm_eval", lne((16,)), lambda r, d: [r.randn((4, 16), d), r.randn((16,), d), r.randn((16,), d)], attrs=A((16,)))
    return cs


# ---------------------------------------------------------------- npu_apply_adam, npu_apply_adam_w

def fused_tuple(fn, d):
    """fused() for ops with integer outputs: only float outputs rounded."""
    def wrapped(*xs):
        args = [x.to(f64) if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        return tuple(o.to(d) if o.is_floating_point() else o for o in fn(*args))
    return wrapped


def narrow_tuple(op, fn, mk, attrs=None, label=None):
    cs = []
    for dn, d in NARROW.items():
        name = "%s/%s" % (label or op, dn)
        cs.append(case(name, op, mk(R(name), d), fused_tuple(fn, d), attrs=attrs, mode="emulated", backward=False))
    return cs


def adam_shapes(fn, names=("var", "m", "v", "grad", "max_grad_norm")):
    def check(*ts):
        for n, a in zip(names, ts):
            if a is None:
                continue
            if not a.dtype.is_floating_point:
                raise RuntimeError('"%s" not implemented for \'%s\'' % (fn, {torch.int64: "Long", torch.bool: "Bool"}[a.dtype]))
            if list(a.shape) != list(ts[0].shape):
                raise RuntimeError("%s: %s of shape %s does not match var's shape %s" % (fn, n, list(a.shape), list(ts[0].shape)))
    return check


def adam(nesterov=False):
    def fn(var, m, v, g, b1p, b2p, lr, b1, b2, eps):
        adam_shapes("npu_apply_adam")(var, m, v, g)
        m_t = m + (b1 - 1) * (m - g)
        v_t = v + (b2 - 1) * (v - g * g)
        lr_t = lr * (1 - b2p) ** 0.5 / (1 - b1p)
        num = b1 * m_t + (1 - b1) * g if nesterov else m_t
        return var - lr_t * num / (eps + torch.sqrt(v_t)), m_t, v_t
    return fn


def adam_w(amsgrad=False, maximize=False):
    def fn(var, m, v, g, mgn, b1p, b2p, lr, wd, b1, b2, eps):
        adam_shapes("npu_apply_adam_w")(var, m, v, g, mgn)
        if amsgrad and mgn is None:
            raise RuntimeError("npu_apply_adam_w: amsgrad=True needs max_grad_norm, got None")
        p1, p2 = b1p * b1, b2p * b2
        var_d = var * (1 - lr * wd)
        gg = -g if maximize else g
        m_t = b1 * m - (b1 - 1) * gg
        v_t = b2 * v - (b2 - 1) * gg * gg
        if amsgrad:
            vmax = torch.maximum(mgn, v_t)
            if bool(1 - p2 == 0):
                p2 = p2 - eps
            denom = torch.sqrt(vmax / (1 - p2)) + eps
        else:
            denom = torch.sqrt(v_t / (1 - p2)) + eps
        if bool(1 - p1 == 0):
            p1 = p1 - eps
        return var_d + (-lr * m_t / (1 - p1)) / denom, m_t, v_t
    return fn


def adam_cases():
    cs = []
    r = R("adam")
    P = [0.9, 0.999, 0.001, 0.9, 0.999, 1e-8]
    N = lambda nest=False: {"use_nesterov": nest}
    st = lambda shape: [r.randn(shape), r.randn(shape) * 0.1, r.rand(shape, lo=0.0, hi=0.01), r.randn(shape)]
    for lab, nest in (("plain", False), ("nesterov", True)):
        cs.append(case("npu.apply_adam/" + lab, "npu.apply_adam", st((3, 5)) + P, adam(nest), attrs=N(nest), backward=False))
    P2 = [0.729, 0.997, 0.01, 0.8, 0.99, 1e-6]
    cs.append(case("npu.apply_adam/step3_3d", "npu.apply_adam", st((2, 3, 4)) + P2, adam(True), attrs=N(True), backward=False))
    # Scalars given as 0-d tensors (PyTorch's Scalar accepts them) and a Python int lr
    cs.append(case("npu.apply_adam/tensor_scalars", "npu.apply_adam", st((3, 4)) + [t(v) for v in P2[:2]] + [1] + [t(v) for v in P2[3:]],
                   adam(), attrs=N(), backward=False))
    cs.append(case("npu.apply_adam/0d", "npu.apply_adam", [t(0.5), t(0.1), t(0.02), t(-0.3)] + P, adam(), attrs=N(), backward=False))
    cs.append(case("npu.apply_adam/empty", "npu.apply_adam", st((0, 4)) + P, adam(), attrs=N(), backward=False))
    z = t([0.0, 0, 0])
    g = t([1.0, 2, 3])
    c = case("npu.apply_adam/worked", "npu.apply_adam", [z, z, z, g] + P, adam(), attrs=N(), backward=False)
    close(c["outputs"][0]["data"], [-9.99999684e-4, -9.99999842e-4, -9.99999895e-4], 1e-8)
    close(c["outputs"][1]["data"], [0.1, 0.2, 0.3])
    close(c["outputs"][2]["data"], [0.001, 0.004, 0.009])
    cs.append(c)
    c = case("npu.apply_adam/worked_nesterov", "npu.apply_adam", [z, z, z, g] + P, adam(True), attrs=N(True), backward=False)
    close(c["outputs"][0]["data"], [-1.89999940e-3, -1.89999970e-3, -1.89999980e-3], 1e-8)
    cs.append(c)
    c = case("npu.apply_adam/worked_state", "npu.apply_adam", [z, t([1.0, 2, 3]), t([1.0, 2, 3]), g] + P, adam(), attrs=N(), backward=False)
    close(c["outputs"][0]["data"], [-3.16227763e-4, -4.46990153e-4, -5.47175652e-4], 1e-8)
    close(c["outputs"][2]["data"], [1, 2.002, 3.006])
    cs.append(c)
    cs.append(error_case("npu.apply_adam/shape", "npu.apply_adam", [r.randn((3,)), r.randn((4,)), r.randn((3,)), r.randn((3,))] + P, adam(), attrs=N()))
    cs.append(error_case("npu.apply_adam/int64", "npu.apply_adam", [r.randn((3,)), r.randn((3,)), r.randn((3,)), torch.tensor([1, 2, 3])] + P, adam(),
                         attrs=N()))
    cs += narrow_tuple("npu.apply_adam", adam(), lambda r, d: [r.randn((4, 8), d), (r.randn((4, 8)) * 0.1).to(d), r.rand((4, 8), d, 0.0, 0.01),
                                                               r.randn((4, 8), d)] + P2, attrs=N())

    W = [0.9, 0.999, 0.001, 0.01, 0.9, 0.999, 1e-8]
    A = lambda ams=False, mx=False: {"amsgrad": ams, "maximize": mx}
    stw = lambda shape: st(shape) + [r.rand(shape, lo=0.0, hi=0.02)]
    for lab, ams, mx in (("plain", False, False), ("maximize", False, True), ("amsgrad", True, False), ("amsgrad_maximize", True, True)):
        cs.append(case("npu.apply_adam_w/" + lab, "npu.apply_adam_w", stw((3, 5)) + W, adam_w(ams, mx), attrs=A(ams, mx), backward=False))
    W2 = [0.81, 0.998, 0.01, 0.1, 0.9, 0.999, 1e-6]
    cs.append(case("npu.apply_adam_w/no_max_grad_norm", "npu.apply_adam_w", st((2, 3, 4)) + [None] + W2, adam_w(), attrs=A(), backward=False))
    cs.append(case("npu.apply_adam_w/tensor_scalars", "npu.apply_adam_w", stw((3, 4)) + [t(v) for v in W2], adam_w(True), attrs=A(True),
                   backward=False))
    # beta1_power·β1 == 1 and, under amsgrad, beta2_power·β2 == 1: the ε guards
    W3 = [1.0, 1.0, 0.01, 0.0, 1.0, 1.0, 1e-3]
    cs.append(case("npu.apply_adam_w/guards", "npu.apply_adam_w", stw((4,)) + W3, adam_w(True), attrs=A(True), backward=False))
    cs.append(case("npu.apply_adam_w/empty", "npu.apply_adam_w", stw((0, 3)) + W, adam_w(), attrs=A(), backward=False))
    x3 = t([0.1, 0.2, 0.3])
    c = case("npu.apply_adam_w/worked", "npu.apply_adam_w", [x3, x3, x3, x3, None] + W, adam_w(), attrs=A(), backward=False)
    close(c["outputs"][0]["data"], [0.0999245528, 0.1998927210, 0.2998680666])
    close(c["outputs"][1]["data"], [0.1, 0.2, 0.3])
    close(c["outputs"][2]["data"], [0.09991, 0.19984, 0.29979])
    cs.append(c)
    c = case("npu.apply_adam_w/worked_maximize", "npu.apply_adam_w", [x3, x3, x3, x3, None] + W, adam_w(False, True), attrs=A(False, True),
             backward=False)
    close(c["outputs"][0]["data"], [0.0999394422, 0.1999137768, 0.2998938533])
    close(c["outputs"][1]["data"], [0.08, 0.16, 0.24])
    cs.append(c)
    c = case("npu.apply_adam_w/worked_amsgrad", "npu.apply_adam_w", [x3, x3, x3, x3, t([0.5, 0.1, 0.1])] + W, adam_w(True), attrs=A(True),
             backward=False)
    close(c["outputs"][0]["data"], [0.0999657212, 0.1998927210, 0.2998680666])
    cs.append(c)
    cs.append(error_case("npu.apply_adam_w/amsgrad_none", "npu.apply_adam_w", st((3,)) + [None] + W, adam_w(True), attrs=A(True)))
    cs.append(error_case("npu.apply_adam_w/shape", "npu.apply_adam_w", st((3,)) + [r.randn((2,))] + W, adam_w(True), attrs=A(True)))
    cs += narrow_tuple("npu.apply_adam_w", adam_w(True), lambda r, d: [r.randn((4, 8), d), (r.randn((4, 8)) * 0.1).to(d), r.rand((4, 8), d, 0.0, 0.01),
                                                                       r.randn((4, 8), d), r.rand((4, 8), d, 0.0, 0.02)] + W2, attrs=A(True))
    return cs


# ---------------------------------------------------------------- npu_group_norm_silu

def gns(group, eps=1e-5):
    def fn(x, w, b):
        if x.dim() < 2:
            raise RuntimeError("npu_group_norm_silu: input must have 2 to 8 dimensions [N, C, *], got %s" % list(x.shape))
        n, ch = x.shape[:2]
        if group <= 0 or ch % group:
            raise RuntimeError("npu_group_norm_silu: the number of channels %d must be divisible by group %d" % (ch, group))
        for nm, a in (("weight", w), ("bias", b)):
            if a is not None and list(a.shape) != [ch]:
                raise RuntimeError("npu_group_norm_silu: %s of shape %s must have shape [%d]" % (nm, list(a.shape), ch))
        xr = x.reshape(n, group, (ch // group) * math.prod(x.shape[2:]))
        mean = xr.mean(-1)
        rstd = 1 / torch.sqrt(xr.var(-1, unbiased=False) + eps)
        tt = ((xr - mean[..., None]) * rstd[..., None]).reshape(x.shape)
        shape = [1, ch] + [1] * (x.dim() - 2)
        if w is not None:
            tt = tt * w.reshape(shape)
        if b is not None:
            tt = tt + b.reshape(shape)
        return F.silu(tt), mean, rstd
    return fn


def gns_cases():
    cs = []
    r = R("gns")
    A = lambda g, eps=1e-5: {"group": g, "eps": eps}
    x4 = r.randn((2, 6, 3, 4)) * 2 + 1
    w6, b6 = r.randn((6,)), r.randn((6,))
    c = case("npu.group_norm_silu/4d", "npu.group_norm_silu", [x4, w6, b6], gns(3), attrs=A(3), backward=False)
    ref = F.silu(F.group_norm(x4, 3, w6, b6, 1e-5))
    close(c["outputs"][0]["data"], ref.reshape(-1).tolist())
    cs.append(c)
    cs.append(case("npu.group_norm_silu/2d", "npu.group_norm_silu", [r.randn((3, 8)), r.randn((8,)), r.randn((8,))], gns(4), attrs=A(4), backward=False))
    cs.append(case("npu.group_norm_silu/3d_noaffine", "npu.group_norm_silu", [r.randn((2, 4, 5)), None, None], gns(2, 1e-3), attrs=A(2, 1e-3),
                   backward=False))
    cs.append(case("npu.group_norm_silu/5d_weight_only", "npu.group_norm_silu", [r.randn((1, 4, 2, 3, 2)), r.randn((4,)), None], gns(1), attrs=A(1),
                   backward=False))
    cs.append(case("npu.group_norm_silu/group_eq_c_bias_only", "npu.group_norm_silu", [r.randn((2, 4, 3)), None, r.randn((4,))], gns(4), attrs=A(4),
                   backward=False))
    cs.append(case("npu.group_norm_silu/empty", "npu.group_norm_silu", [r.randn((0, 4, 3)), None, None], gns(2), attrs=A(2), backward=False))
    c = case("npu.group_norm_silu/worked", "npu.group_norm_silu", [t([[[[1.0, 2], [3, 4]]]]), t([1.0]), t([0.0])], gns(1), attrs=A(1), backward=False)
    close(c["outputs"][0]["data"], [-0.2780421921, -0.1744232877, 0.2727885190, 1.0635932279])
    close(c["outputs"][1]["data"], [2.5])
    close(c["outputs"][2]["data"], [0.8944236133])
    cs.append(c)
    c = case("npu.group_norm_silu/worked_c2", "npu.group_norm_silu", [t([[[0.0, 1], [2, 3]]]), t([1.0, 2]), t([0.0, -1])], gns(1), attrs=A(1),
             backward=False)
    close(c["outputs"][0]["data"], [-0.2780421921, -0.1744232877, -0.0500041855, 1.4195648473])
    close(c["outputs"][1]["data"], [1.5])
    close(c["outputs"][2]["data"], [0.8944236133])
    cs.append(c)
    cs.append(error_case("npu.group_norm_silu/indivisible", "npu.group_norm_silu", [r.randn((2, 4, 3)), None, None], gns(3), attrs=A(3)))
    cs.append(error_case("npu.group_norm_silu/weight_shape", "npu.group_norm_silu", [r.randn((2, 4, 3)), r.randn((3,)), None], gns(2), attrs=A(2)))
    cs.append(error_case("npu.group_norm_silu/1d", "npu.group_norm_silu", [r.randn((4,)), None, None], gns(2), attrs=A(2)))
    cs += narrow_tuple("npu.group_norm_silu", gns(2), lambda r, d: [(r.randn((2, 4, 4, 4)) * 3).to(d), r.randn((4,), d), r.randn((4,), d)], attrs=A(2))
    return cs


# ---------------------------------------------------------------- npu_moe_gating_top_k_softmax

def moe(k):
    def fn(x, fin):
        if x.dim() not in (2, 3):
            raise RuntimeError("npu_moe_gating_top_k_softmax: x must be 2-D or 3-D, got %s" % list(x.shape))
        lead, e = list(x.shape[:-1]), x.shape[-1]
        if k <= 0 or k > e or k > 1024:
            raise RuntimeError("npu_moe_gating_top_k_softmax: k must be in [1, min(%d, 1024)], got %d" % (e, k))
        xr = x.reshape(-1, e)
        rows = xr.shape[0]
        s = torch.softmax(xr, -1)
        order = torch.sort(s, dim=-1, descending=True, stable=True).indices[:, :k]
        y = s.gather(-1, order)
        ex = order.clone()
        if fin is not None:
            ex[fin.reshape(-1)] = e
        row = torch.arange(rows * k).reshape(k, rows).t()
        shape = lead + [k]
        return y.reshape(shape), ex.to(torch.int32).reshape(shape), row.to(torch.int32).reshape(shape)
    return fn


def moe_cases():
    cs = []
    r = R("moe")
    op = "npu.moe_gating_top_k_softmax"
    cs.append(case(op + "/2d_k2", op, [r.randn((5, 8)) * 2, r.bool((5,), 0.3)], moe(2), attrs={"k": 2}, backward=False))
    cs.append(case(op + "/2d_k1_nofinished", op, [r.randn((4, 6)), None], moe(1), attrs={"k": 1}, backward=False))
    cs.append(case(op + "/3d_k3", op, [r.randn((2, 3, 8)), r.bool((2, 3), 0.3)], moe(3), attrs={"k": 3}, backward=False))
    cs.append(case(op + "/k_eq_e", op, [r.randn((3, 4)), None], moe(4), attrs={"k": 4}, backward=False))
    cs.append(case(op + "/ties", op, [t([[1.0, 2, 2, 1], [0.0, 0, 0, 0]]), None], moe(3), attrs={"k": 3}, backward=False))
    cs.append(case(op + "/empty", op, [r.randn((0, 4)), None], moe(2), attrs={"k": 2}, backward=False))
    c = case(op + "/worked", op, [t([[1.0, 2, 3], [3, 1, 2]]), torch.tensor([False, True])], moe(2), attrs={"k": 2}, backward=False)
    close(c["outputs"][0]["data"], [0.6652409558, 0.2447284711, 0.6652409558, 0.2447284711])
    assert c["outputs"][1]["data"] == [2, 1, 3, 3] and c["outputs"][2]["data"] == [0, 2, 1, 3], c["outputs"]
    cs.append(c)
    cs.append(error_case(op + "/k_too_big", op, [r.randn((3, 4)), None], moe(5), attrs={"k": 5}))
    cs.append(error_case(op + "/1d", op, [r.randn((4,)), None], moe(1), attrs={"k": 1}))
    cs += narrow_tuple(op, moe(2), lambda r, d: [(r.randn((6, 8)) * 2).to(d), r.bool((6,), 0.3)], attrs={"k": 2})
    return cs


# ---------------------------------------------------------------- npu_sort_v2

def sort_v2(dim=-1, desc=False):
    def fn(x):
        if not x.dtype.is_floating_point:
            raise RuntimeError('"npu_sort_v2" not implemented for \'%s\'' % {torch.int64: "Long", torch.bool: "Bool"}[x.dtype])
        return torch.sort(x, dim=dim, descending=desc, stable=True).values
    return fn


def sort_cases():
    cs = []
    r = R("sort")
    op = "npu.sort_v2"
    A = lambda dim=-1, desc=False: {"dim": dim, "descending": desc}
    cs.append(fd_checked(op + "/asc", op, [r.randn((3, 7))], sort_v2(), attrs=A()))
    cs.append(fd_checked(op + "/desc", op, [r.randn((2, 3, 5))], sort_v2(-1, True), attrs=A(-1, True)))
    cs.append(fd_checked(op + "/dim0", op, [r.randn((5, 3))], sort_v2(0), attrs=A(0)))
    cs.append(fd_checked(op + "/dim1_desc", op, [r.randn((2, 4, 3))], sort_v2(1, True), attrs=A(1, True)))
    cs.append(fd_checked(op + "/0d", op, [t(1.5)], sort_v2(), attrs=A()))
    cs.append(case(op + "/empty", op, [r.randn((2, 0))], sort_v2(), attrs=A()))
    cs.append(case(op + "/special_asc", op, [t([1.0, NAN, -INF, INF, -0.0, 0.0, -2.0])], sort_v2(), attrs=A(), backward=False))
    cs.append(case(op + "/special_desc", op, [t([1.0, NAN, -INF, INF, -0.0, 0.0, -2.0])], sort_v2(-1, True), attrs=A(-1, True), backward=False))
    for lab, desc, want_y in (("worked", False, [1, 1, 2, 3]), ("worked_desc", True, [3, 2, 1, 1])):
        c = case(op + "/" + lab, op, [t([3.0, 1, 2, 1])], sort_v2(-1, desc), attrs=A(-1, desc), grad_outputs=[t([10.0, 20, 30, 40])])
        close(c["outputs"][0]["data"], want_y)
        if not desc:
            close(c["input_grads"][0]["data"], [40, 10, 30, 20])
        cs.append(c)
    cs.append(error_case(op + "/int64", op, [torch.tensor([3, 1, 2])], sort_v2(), attrs=A()))
    cs += narrow(op, sort_v2(), lambda r, d: [r.randn((4, 16), d)], attrs=A())
    return cs


# ---------------------------------------------------------------- msprobe's references (--compat msprobe)
#
# Semantics "msprobe": what msprobe's bench functions compute (fused-ops.md
# §17 #13, #17, #18), which --compat msprobe gives the bench. Written as
# msprobe's bench_functions do, with the same PyTorch ops at the same
# dtypes: float32 steps are PyTorch 1.13's float32 kernels. Inputs are
# what run_ut hands the bench: a float32 original raised to float64
# (float32 values in float64 cases), a float16/bfloat16 original raised to
# float32 (float32 cases). The CPU kernels round each float32 step
# correctly while PyTorch's float32 exp, sigmoid and sums are not always
# correctly rounded, so these cases carry a tolerance of a few float32
# ulps; the "overflow"/"underflow" cases (atol 0) are where a float64
# computation would differ beyond any rounding: a float32 step overflows
# to inf or underflows to 0.

MS = {"semantics": "msprobe"}


def f32vals(r, shape, scale=1.0):
    """float64 values that are float32 numbers (a float32 original raised)."""
    return (r.randn(shape) * scale).to(torch.float32).to(f64)


def swiglu_ref(dim=-1):
    """msprobe's bench_functions/swiglu.py npu_swiglu."""
    def fn(x):
        dt = x.dtype
        a, b = torch.chunk(x, 2, dim=dim)
        if dt == torch.float32:
            s = torch.sigmoid(torch.mul(a, 1.0))
            return torch.mul(torch.mul(s, a), b)
        out = F.silu(a.type(torch.float)).type(dt).type(torch.float32) * b.type(torch.float)
        return out.type(dt)
    return fn


def sms_ref(scale):
    """msprobe's npu_scaled_masked_softmax (without fixed_triu_mask)."""
    def fn(x, mask):
        dt = x.dtype
        x = (x * scale).masked_fill(mask, value=-10000)
        x = x - torch.max(x, dim=-1, keepdims=True)[0]
        x = torch.exp(x.float())
        y = torch.div(x, torch.sum(x, dim=-1, keepdims=True))
        return y.to(dt)
    return fn


def sms_bwd_ref(scale):
    """msprobe's aten npu_scaled_masked_softmax_backward (fused-ops.md §10,
    without fixed_triu_mask): in float32, cast to y_grad's dtype."""
    def fn(g, y, mask):
        dt = g.dtype
        g, y = g.float(), y.float()
        d = g - torch.sum(g * y, dim=-1, keepdims=True)
        d = d * y * scale
        return d.masked_fill(mask, value=0).to(dt)
    return fn


def sms_bwd(scale):
    """The aten record's official formula, float64."""
    def fn(g, y, mask):
        return (scale * y * (g - (g * y).sum(-1, keepdim=True))).masked_fill(mask, 0.0)
    return fn


def lne_ref(ns):
    """msprobe's npu_layer_norm_eval: weight, bias and eps ignored."""
    def fn(x, w, b):
        return F.layer_norm(x, ns)
    return fn


def moe_ref(k):
    """msprobe's npu_moe_gating_top_k_softmax (fused-ops.md §14, §17 #16,
    #18): the softmax in float32 (max subtracted, exp, sum, quotient) cast
    back to x's dtype, a stable ascending argsort of its negation, whose
    first k are taken along axis 1 ([:, :k]: the experts of a 2-D x, the
    rows of each batch of a 3-D one), y gathered along the last axis;
    finished viewed as [finished.shape[0], 1] and expanded to k columns
    puts E where True (torch.where broadcasting); row_idx is arange of
    y.shape[0]·y.shape[1] laid out [y.shape[1], y.shape[0]] and
    transposed. Indices as int32, the device's dtype (they compare as
    integers)."""
    def fn(x, fin):
        e = x.shape[-1]
        xf = x.float()
        ex = torch.exp(xf - xf.max(dim=-1, keepdim=True).values)
        s = (ex / ex.sum(dim=-1, keepdim=True)).to(x.dtype)
        idx = torch.argsort(-s, dim=-1, stable=True)[:, :k]
        y = torch.gather(s, -1, idx)
        if fin is not None:
            f = fin.view(fin.shape[0], 1).expand(-1, k)
            idx = torch.where(f, e, idx)
        row = torch.arange(y.shape[0] * y.shape[1]).reshape(y.shape[1], y.shape[0]).t()
        return y, idx.to(torch.int32), row.to(torch.int32)
    return fn


def differs(c, official, inputs, out=0):
    """Assert that the msprobe case's output differs from the official
    formula's beyond 1e-9 relative somewhere (what the case proves)."""
    want = torch.tensor([float(v) for v in c["outputs"][out]["data"]], dtype=f64)
    got = official(*inputs)
    got = (got if isinstance(got, torch.Tensor) else got[out]).detach().to(f64).reshape(-1)
    fin = torch.isfinite(want) & torch.isfinite(got)
    rel = ((want - got).abs() / got.abs().clamp(min=1e-300))
    assert bool((~(torch.isfinite(want) == torch.isfinite(got))).any()) or bool((rel[fin] > 1e-9).any()), c["name"]
    return c


def msprobe_cases():
    cs = []
    r = R("msprobe")
    TOL = dict(rtol=1e-6, atol=1e-9)  # a few float32 ulps (see above)
    EXACT = dict(rtol=1e-6, atol=0.0)
    f32 = torch.float32
    # §17 #17 npu_swiglu
    op = "npu.swiglu"
    x = f32vals(r, (3, 8), 2)
    cs.append(differs(case(op + "/msprobe_float64", op, [x], swiglu_ref(), attrs={"dim": -1, **MS}, **TOL), swiglu, [x]))
    x = f32vals(r, (2, 6, 3))
    cs.append(case(op + "/msprobe_float64_dim1", op, [x], swiglu_ref(1), attrs={"dim": 1, **MS}, **TOL))
    # silu(100)·1e37 = 1e39 overflows float32; silu(1e-20)·1e-20 is a float32 subnormal
    x = t([100.0, 1e-20, -3.0, 0.5, 1e37, 1e-20, 2.0, -1e-30]).to(f32).to(f64)
    cs.append(differs(case(op + "/msprobe_float64_range", op, [x], swiglu_ref(), attrs={"dim": -1, **MS}, backward=False, **EXACT),
                      swiglu, [x]))
    x = r.randn((4, 16), f32)
    cs.append(case(op + "/msprobe_float32", op, [x], swiglu_ref(), attrs={"dim": -1, **MS}, ulp=4.0))
    # §17 #18 npu_scaled_masked_softmax
    op = "npu.scaled_masked_softmax"
    A = lambda sc: {"scale": sc, "fixed_triu_mask": False, **MS}
    x, m = f32vals(r, (2, 2, 4, 8), 3), r.bool((2, 1, 4, 8), 0.3)
    # the max's gradient (minus the row's sum of float32 terms) makes the
    # gradient at each row's maximum a difference of float32 noise: atol
    # of a few float32 ulps of the row's terms
    cs.append(differs(case(op + "/msprobe_float64", op, [x, m], sms_ref(0.5), attrs=A(0.5), rtol=1e-6, atol=2e-7), sms(0.5), [x, m]))
    full = torch.tensor([[False, True, False, True, False], [True, True, True, True, True]])
    x = f32vals(r, (2, 5))
    cs.append(case(op + "/msprobe_float64_row_masked", op, [x, full], sms_ref(2.0), attrs=A(2.0), rtol=1e-6, atol=2e-7))
    # exp(z − max) of −110 and −130 underflows to 0 in float32
    x = t([[0.0, -55.0, -65.0, 1.0, 0.5], [3.0, 2.0, -100.0, -120.0, 2.5]]).to(f32).to(f64)
    m = torch.zeros((2, 5), dtype=torch.bool)
    cs.append(differs(case(op + "/msprobe_float64_underflow", op, [x, m], sms_ref(2.0), attrs=A(2.0), **EXACT), sms(2.0), [x, m]))
    cs.append(case(op + "/msprobe_float32", op, [r.randn((2, 4, 16), f32) * 4, r.bool((4, 16), 0.25)], sms_ref(0.25), attrs=A(0.25),
                   ulp=4.0, atol=2e-8))
    # §17 #13 npu_layer_norm_eval: weight, bias and eps ignored
    op = "npu.layer_norm_eval"
    LA = lambda ns, eps: {"normalized_shape": list(ns), "eps": eps, **MS}
    ins = [f32vals(r, (3, 6)), f32vals(r, (6,)), f32vals(r, (6,))]
    cs.append(differs(case(op + "/msprobe_affine_eps", op, ins, lne_ref((6,)), attrs=LA((6,), 0.1)), lne((6,), 0.1), ins))
    ins = [f32vals(r, (2, 3, 4)), f32vals(r, (3, 4)), None]
    cs.append(differs(case(op + "/msprobe_weight_2d", op, ins, lne_ref((3, 4)), attrs=LA((3, 4), 1e-5)), lne((3, 4)), ins))
    c = case(op + "/msprobe_worked", op, [t([1.0, 2, 3, 4]), t([1.0, 2, 1, 1]), t([0.0, 0, 0, 1])], lne_ref((4,)), attrs=LA((4,), 1e-5),
             grad_outputs=[t([1.0, 0, 0, 0])])
    close(c["outputs"][0]["data"], [-1.3416354200, -0.4472118067, 0.4472118067, 1.3416354200])
    close(c["input_grads"][0]["data"], [0.2683303039, -0.3577683720, -0.0894434346, 0.1788815028])
    assert c["input_grads"][1] is None and c["input_grads"][2] is None
    cs.append(c)
    cs.append(case(op + "/msprobe_float32", op, [r.randn((4, 16), f32), r.randn((16,), f32), r.randn((16,), f32)], lne_ref((16,)),
                   attrs=LA((16,), 1e-3), ulp=4.0, atol=2e-7))  # PyTorch's float32 layer_norm, not emulated
    # §17 #18 npu_moe_gating_top_k_softmax: the softmax in float32
    op = "npu.moe_gating_top_k_softmax"
    x, fin = f32vals(r, (5, 8), 2), r.bool((5,), 0.3)
    cs.append(differs(case(op + "/msprobe_float64", op, [x, fin], moe_ref(3), attrs={"k": 3, **MS}, backward=False, **TOL), moe(3), [x, fin]))
    # a 1e-9 gap is a tie in float32: stable order puts the lower index first
    x = t([[1.0, 1.0 + 1e-9, 0.5, -2.0], [0.25, -1.0, 0.25 + 1e-12, 3.0]])
    c = case(op + "/msprobe_float32_ties", op, [x, None], moe_ref(2), attrs={"k": 2, **MS}, backward=False, **TOL)
    assert c["outputs"][1]["data"][:2] == [0, 1], c["outputs"][1]
    cs.append(c)
    x = t([[-120.0, 0.0, 1.0, -110.0]])
    cs.append(differs(case(op + "/msprobe_float64_underflow", op, [x, None], moe_ref(4), attrs={"k": 4, **MS}, backward=False, **EXACT),
                      moe(4), [x, None]))
    cs.append(case(op + "/msprobe_float32", op, [(r.randn((6, 8)) * 2).to(f32), r.bool((6,), 0.3)], moe_ref(2), attrs={"k": 2, **MS},
                   backward=False, ulp=4.0))
    # §17 #16: a 3-D x [B, T, E] takes its first k along axis 1, the rows:
    # y and expert_idx [B, min(k, T), E] (each row's experts all sorted),
    # row_idx [B, min(k, T)]; finished must hold finished.shape[0] elements
    x = f32vals(r, (2, 3, 5))
    c = case(op + "/msprobe_3d", op, [x, None], moe_ref(2), attrs={"k": 2, **MS}, backward=False, **TOL)
    assert [o["shape"] for o in c["outputs"]] == [[2, 2, 5], [2, 2, 5], [2, 2]], c["outputs"]
    cs.append(c)
    c = case(op + "/msprobe_3d_k_over_t", op, [f32vals(r, (2, 2, 6)), None], moe_ref(4), attrs={"k": 4, **MS}, backward=False, **TOL)
    assert [o["shape"] for o in c["outputs"]] == [[2, 2, 6], [2, 2, 6], [2, 2]], c["outputs"]
    cs.append(c)
    # T = 1: finished [B, 1] views as [B, 1]; with k = E its [B, k] broadcasts
    # against expert_idx [B, 1, E] to [B, B, E]
    fin = torch.tensor([[True], [False]])
    c = case(op + "/msprobe_3d_finished_t1", op, [f32vals(r, (2, 1, 4)), fin], moe_ref(4), attrs={"k": 4, **MS}, backward=False, **TOL)
    assert c["outputs"][1]["shape"] == [2, 2, 4], c["outputs"][1]
    cs.append(c)
    cs.append(error_case(op + "/msprobe_3d_finished", op, [f32vals(r, (2, 3, 4)), r.bool((2, 3), 0.5)], moe_ref(2), attrs={"k": 2, **MS}))
    cs.append(error_case(op + "/msprobe_3d_finished_t1_k", op, [f32vals(r, (2, 1, 4)), fin], moe_ref(2), attrs={"k": 2, **MS}))
    # §10 the aten record npu_scaled_masked_softmax_backward(y_grad, y,
    # mask, scale, fixed_triu_mask): the reference computes in float32; y is
    # the forward's output (a float32 original raised to float64)
    op = "npu.scaled_masked_softmax_backward"
    SA = lambda sc: {"scale": sc, "fixed_triu_mask": False, **MS}
    x, m = f32vals(r, (2, 3, 8), 3), r.bool((2, 1, 8), 0.3)
    y = sms(0.5)(x, m).to(f32).to(f64)
    g = f32vals(r, (2, 3, 8))
    cs.append(differs(case(op + "/msprobe_float64", op, [g, y, m], sms_bwd_ref(0.5), attrs=SA(0.5), backward=False, rtol=1e-6, atol=2e-7),
                      sms_bwd(0.5), [g, y, m]))
    # float32 steps: 3e38 − (−3e38) overflows to inf, and inf·0 is NaN where
    # float64 gives 0; (1 − Σ)·1e-38·0.7 is a float32 subnormal
    g = t([[3e38, -3e38, 1.0, 0.5], [1.0, 2.0, 3.0, 4.0]]).to(f32).to(f64)
    y = t([[0.0, 1.0, 0.0, 0.0], [1e-38, 0.25, 0.25, 0.5]]).to(f32).to(f64)
    m = torch.zeros((2, 4), dtype=torch.bool)
    cs.append(differs(case(op + "/msprobe_float64_overflow", op, [g, y, m], sms_bwd_ref(0.7), attrs=SA(0.7), backward=False, **EXACT),
                      sms_bwd(0.7), [g, y, m]))
    x, m = r.randn((2, 4, 16), f32) * 4, r.bool((4, 16), 0.25)
    y = sms(0.25)(x.double(), m).to(f32)
    cs.append(case(op + "/msprobe_float32", op, [r.randn((2, 4, 16), f32), y, m], sms_bwd_ref(0.25), attrs=SA(0.25), backward=False,
                   ulp=4.0, atol=2e-8))
    return cs


def main():
    cs = swiglu_cases() + rotary_cases() + unary_cases() + sms_cases() + ct_cases() + linear_cases() + lne_cases()
    cs += adam_cases() + gns_cases() + moe_cases() + sort_cases() + msprobe_cases()
    write_group("npu", cs)


if __name__ == "__main__":
    main()
