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


def main():
    cs = swiglu_cases() + rotary_cases() + unary_cases() + sms_cases() + ct_cases() + linear_cases() + lne_cases()
    write_group("npu", cs)


if __name__ == "__main__":
    main()
