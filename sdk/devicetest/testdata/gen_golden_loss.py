"""Golden cases for the loss family (sdk/ops/schema_loss.go): group "loss".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_loss.py

writes golden/loss.json.gz from real PyTorch 1.13 on the CPU (format:
golden_lib.py): mse_loss, l1_loss, smooth_l1_loss, huber_loss,
binary_cross_entropy, normalize, one_hot and local_response_norm. Per op:
float64 cases (every reduction and parameter, broadcast, 0-d, empty,
non-contiguous, special values), backward cases, error cases with
PyTorch's message, and emulated cases at float32, float16 and bfloat16.
Where PyTorch 1.13's CPU lacks the kernel at a narrow dtype (forward or
backward) the case is computed in float32 and rounded, as probe emulates
it; its name then ends in "_via_f32". Emulated cases carry PyTorch's own
deviation from the correctly rounded result (checked); the script prints
every such case.
"""

import math
import warnings

import torch
import torch.nn.functional as F

from golden_lib import REPORT, Rand, case, checked, error_case, run_torch, via_f32, write_group

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NAN, INF = float("nan"), float("inf")
REDS = ("none", "mean", "sum")
CASES = []


class _Short(Rand):
    """Rand with values rounded to 3 decimals: short JSON, a small file."""

    def randn(self, shape, dtype=f64):
        return (torch.round(super().randn(shape, f64) * 1000) / 1000).to(dtype)

    def rand(self, shape, dtype=f64, lo=0.0, hi=1.0):
        return (torch.round(super().rand(shape, f64, lo, hi) * 1000) / 1000).to(dtype)


def R(name):
    return _Short("loss/" + name)


def add(name, op, inputs, fn, attrs, backward=True, rg=None, **kw):
    CASES.append(case(name, op, inputs, fn, attrs=attrs, backward=backward, requires_grad=rg, **kw))


def err(name, op, inputs, fn, attrs):
    CASES.append(error_case(name, op, inputs, fn, attrs=attrs))


def narrow(op, fn, mk, attrs, backward=True, label=None, rg=None, dtypes=NARROW):
    """One emulated case per narrow dtype, through float32 where PyTorch
    1.13's CPU lacks the kernel (forward or backward)."""
    for dn, d in dtypes.items():
        name = "%s/%s" % (label or op, dn)
        xs = mk(R(name), d)
        f = fn
        rgs = rg if rg is not None else [backward and isinstance(v, torch.Tensor) and v.dtype.is_floating_point for v in xs]
        try:
            outs, _ = run_torch(fn, xs, rgs, None)
        except RuntimeError:
            name, f = name + "_via_f32", via_f32(fn, d)
            CASES.append(checked(name, op, xs, f, attrs=attrs, backward=backward, requires_grad=rg, mode="emulated"))
            continue
        try:
            if backward:
                run_torch(fn, xs, rgs, [torch.ones_like(o) for o in outs])
        except RuntimeError:
            # a forward kernel but no backward one: the forward as PyTorch
            # computes it, the backward emulated in float32 (whose forward
            # is a few ulp from the real kernel's)
            CASES.append(checked(name, op, xs, fn, attrs=attrs, backward=False, requires_grad=rg, mode="emulated"))
            CASES.append(case(name + "_backward_via_f32", op, xs, via_f32(fn, d), attrs=attrs, requires_grad=rg, mode="emulated", ulp=3))
            continue
        CASES.append(checked(name, op, xs, f, attrs=attrs, backward=backward, requires_grad=rg, mode="emulated"))


def red_fn(fname, **kw):
    fn = getattr(F, fname)
    return lambda red: (lambda x, t: fn(x, t, reduction=red, **kw))


# ---------------------------------------------------------------- pointwise losses

def pair_cases(op, fname, params=None, kinks=()):
    params = params or {}
    mk = red_fn(fname, **params)
    A = lambda red: dict(params, reduction=red)  # noqa: E731
    for red in REDS:
        r = R("%s/%s" % (op, red))
        add("%s/%s" % (op, red), op, [r.randn((3, 4)) * 2, r.randn((3, 4)) * 2], mk(red), A(red))
    r = R(op + "/misc")
    add(op + "/broadcast", op, [r.randn((3, 1, 4)), r.randn((2, 4))], mk("mean"), A("mean"))
    add(op + "/broadcast_none", op, [r.randn((4,)), r.randn((3, 4))], mk("none"), A("none"))
    add(op + "/0d", op, [torch.tensor(0.7, dtype=f64), torch.tensor(-1.3, dtype=f64)], mk("mean"), A("mean"))
    add(op + "/empty_mean", op, [torch.zeros(0, 3, dtype=f64), torch.zeros(0, 3, dtype=f64)], mk("mean"), A("mean"))
    add(op + "/empty_sum", op, [torch.zeros(0, 3, dtype=f64), torch.zeros(0, 3, dtype=f64)], mk("sum"), A("sum"))
    add(op + "/noncontig", op, [(r.randn((4, 3)) * 2).t(), r.randn((3, 4))], mk("sum"), A("sum"))
    add(op + "/special", op, [torch.tensor([NAN, INF, -INF, 0.0, 1.0, 2.0], dtype=f64), torch.tensor([0.0, 1.0, 0.0, INF, NAN, 2.0], dtype=f64)],
        mk("none"), A("none"), backward=False)
    # mixed dtypes: PyTorch 1.13's backward refuses them ("Found dtype Double but expected Float")
    add(op + "/float32_target64", op, [r.randn((2, 3)).float(), r.randn((2, 3))], mk("mean"), A("mean"), mode="emulated", backward=False)
    add(op + "/int_target", op, [r.randn((2, 3)), torch.tensor([[1, 0, 2], [-1, 3, 0]])], mk("sum"), A("sum"), backward=False)
    err(op + "/err/shape", op, [r.randn((2, 3)), r.randn((4,))], mk("mean"), A("mean"))
    narrow(op, mk("mean"), lambda r, d: [(r.randn((4, 8)) * 2).to(d), (r.randn((4, 8)) * 2).to(d)], A("mean"))
    narrow(op, mk("none"), lambda r, d: [(r.randn((3, 5)) * 2).to(d), (r.randn((3, 5)) * 2).to(d)], A("none"), label=op + "/none")


def mse_cases():
    pair_cases("mse_loss", "mse_loss")
    r = R("mse_loss/extra")
    add("mse_loss/bool_target", "mse_loss", [r.randn((2, 3)), torch.tensor([[True, False, True], [False, False, True]])],
        red_fn("mse_loss")("mean"), {"reduction": "mean"}, backward=False)
    add("mse_loss/target_grad", "mse_loss", [r.randn((3, 4)), r.randn((3, 4))], red_fn("mse_loss")("mean"), {"reduction": "mean"})
    err("mse_loss/err/int", "mse_loss", [torch.tensor([1, 2]), torch.tensor([2, 2])], red_fn("mse_loss")("mean"), {"reduction": "mean"})


def l1_cases():
    pair_cases("l1_loss", "l1_loss")
    r = R("l1_loss/extra")
    add("l1_loss/ties", "l1_loss", [torch.tensor([1.0, 2.0, -0.5], dtype=f64), torch.tensor([1.0, 1.0, -0.5], dtype=f64)],
        red_fn("l1_loss")("sum"), {"reduction": "sum"})
    err("l1_loss/err/bool_target", "l1_loss", [r.randn((2,)), torch.tensor([True, False])], red_fn("l1_loss")("mean"), {"reduction": "mean"})
    err("l1_loss/err/int_mean", "l1_loss", [torch.tensor([1, 2]), torch.tensor([2, 2])], red_fn("l1_loss")("mean"), {"reduction": "mean"})


def smooth_l1_cases():
    pair_cases("smooth_l1_loss", "smooth_l1_loss")
    r = R("smooth_l1_loss/extra")
    for beta in (0.5, 2.0, 0.0):
        add("smooth_l1_loss/beta_%g" % beta, "smooth_l1_loss", [r.randn((3, 4)) * 2, r.randn((3, 4))],
            lambda x, t, b=beta: F.smooth_l1_loss(x, t, beta=b), {"reduction": "mean", "beta": beta})
    add("smooth_l1_loss/beta0_none", "smooth_l1_loss", [r.randn((3, 4)), r.randn((3, 4))],
        lambda x, t: F.smooth_l1_loss(x, t, reduction="none", beta=0.0), {"reduction": "none", "beta": 0.0})
    add("smooth_l1_loss/edges", "smooth_l1_loss", [torch.tensor([1.0, -1.0, 0.5, 2.0], dtype=f64), torch.tensor([0.0, 0.0, 0.0, 1.0], dtype=f64)],
        lambda x, t: F.smooth_l1_loss(x, t, reduction="none"), {"reduction": "none", "beta": 1.0})
    err("smooth_l1_loss/err/beta_neg", "smooth_l1_loss", [r.randn((3,)), r.randn((3,))], lambda x, t: F.smooth_l1_loss(x, t, beta=-1.0),
        {"reduction": "mean", "beta": -1.0})
    err("smooth_l1_loss/err/int", "smooth_l1_loss", [torch.tensor([1, 2]), torch.tensor([2, 2])], red_fn("smooth_l1_loss")("mean"),
        {"reduction": "mean", "beta": 1.0})
    narrow("smooth_l1_loss", lambda x, t: F.smooth_l1_loss(x, t, beta=0.7), lambda r, d: [(r.randn((4, 8)) * 2).to(d), r.randn((4, 8)).to(d)],
           {"reduction": "mean", "beta": 0.7}, label="smooth_l1_loss/beta")


def huber_cases():
    pair_cases("huber_loss", "huber_loss")
    r = R("huber_loss/extra")
    for delta in (0.5, 2.5):
        add("huber_loss/delta_%g" % delta, "huber_loss", [r.randn((3, 4)) * 2, r.randn((3, 4))],
            lambda x, t, dl=delta: F.huber_loss(x, t, delta=dl), {"reduction": "mean", "delta": delta})
    add("huber_loss/edges", "huber_loss", [torch.tensor([1.0, -1.0, 0.5, 2.0], dtype=f64), torch.tensor([0.0, 0.0, 0.0, 1.0], dtype=f64)],
        lambda x, t: F.huber_loss(x, t, reduction="none"), {"reduction": "none", "delta": 1.0})
    add("huber_loss/float64_input_float32_target", "huber_loss", [r.randn((2, 3)), r.randn((2, 3)).float()], red_fn("huber_loss")("sum"),
        {"reduction": "sum", "delta": 1.0}, backward=False)
    err("huber_loss/err/delta0", "huber_loss", [r.randn((3,)), r.randn((3,))], lambda x, t: F.huber_loss(x, t, delta=0.0),
        {"reduction": "mean", "delta": 0.0})
    err("huber_loss/err/int", "huber_loss", [torch.tensor([1, 2]), torch.tensor([2, 2])], red_fn("huber_loss")("mean"),
        {"reduction": "mean", "delta": 1.0})
    narrow("huber_loss", lambda x, t: F.huber_loss(x, t, delta=0.8), lambda r, d: [(r.randn((4, 8)) * 2).to(d), r.randn((4, 8)).to(d)],
           {"reduction": "mean", "delta": 0.8}, label="huber_loss/delta")


# ---------------------------------------------------------------- binary_cross_entropy

def bce_cases():
    op = "binary_cross_entropy"

    def fn(red):
        return lambda x, t, w: F.binary_cross_entropy(x, t, w, reduction=red)
    rg = [True, True, False]
    for red in REDS:
        r = R("bce_prob/" + red)
        x, t = r.rand((3, 4), f64, 0.02, 0.98), r.rand((3, 4))
        add("bce_prob/" + red, op, [x, t, None], fn(red), {"reduction": red}, rg=rg)
        add("bce_prob/%s/weight" % red, op, [x, t, r.rand((3, 4)) + 0.5], fn(red), {"reduction": red}, rg=rg)
    r = R("bce_prob/misc")
    add("bce_prob/weight_broadcast", op, [r.rand((2, 5), f64, 0.02, 0.98), r.rand((2, 5)), r.rand((5,)) * 2], fn("mean"), {"reduction": "mean"}, rg=rg)
    add("bce_prob/weight_0d", op, [r.rand((2, 5), f64, 0.02, 0.98), r.rand((2, 5)), torch.tensor(1.5, dtype=f64)], fn("sum"), {"reduction": "sum"}, rg=rg)
    add("bce_prob/0d", op, [torch.tensor(0.3, dtype=f64), torch.tensor(1.0, dtype=f64), None], fn("mean"), {"reduction": "mean"}, rg=rg)
    add("bce_prob/empty_mean", op, [torch.zeros(0, 3, dtype=f64), torch.zeros(0, 3, dtype=f64), None], fn("mean"), {"reduction": "mean"}, rg=rg)
    add("bce_prob/edges", op, [torch.tensor([0.0, 1.0, 0.0, 1.0, 0.5, 1e-50], dtype=f64), torch.tensor([0.0, 1.0, 1.0, 0.0, 0.5, 1.0], dtype=f64), None],
        fn("none"), {"reduction": "none"}, backward=False)
    add("bce_prob/target_outside", op, [torch.tensor([0.3, 0.6], dtype=f64), torch.tensor([1.5, -0.5], dtype=f64), None], fn("sum"), {"reduction": "sum"}, rg=rg)
    add("bce_prob/noncontig", op, [r.rand((4, 3), f64, 0.02, 0.98).t(), r.rand((3, 4)), None], fn("mean"), {"reduction": "mean"}, rg=rg)
    err("bce_prob/err/input_range", op, [torch.tensor([0.5, 1.5], dtype=f64), torch.tensor([0.0, 1.0], dtype=f64), None], fn("mean"), {"reduction": "mean"})
    err("bce_prob/err/input_nan", op, [torch.tensor([0.5, NAN], dtype=f64), torch.tensor([0.0, 1.0], dtype=f64), None], fn("mean"), {"reduction": "mean"})
    err("bce_prob/err/target_dtype", op, [torch.tensor([0.5, 0.2]), torch.tensor([0.0, 1.0], dtype=f64), None], fn("mean"), {"reduction": "mean"})
    err("bce_prob/err/target_size", op, [r.rand((2, 3)), r.rand((3,)), None], fn("mean"), {"reduction": "mean"})
    err("bce_prob/err/weight_size", op, [r.rand((2, 3)), r.rand((2, 3)), r.rand((2,))], fn("mean"), {"reduction": "mean"})
    err("bce_prob/err/int", op, [torch.tensor([0, 1]), torch.tensor([0, 1]), None], fn("mean"), {"reduction": "mean"})
    narrow(op, fn("mean"), lambda r, d: [r.rand((4, 8), f64, 0.02, 0.98).to(d), r.rand((4, 8)).to(d), (r.rand((8,)) + 0.5).to(d)],
           {"reduction": "mean"}, rg=rg)


# ---------------------------------------------------------------- normalize, one_hot, local_response_norm

def normalize_cases():
    op = "normalize"

    def A(p=2.0, dim=(1,), eps=1e-12):
        return {"p": p, "dim": list(dim), "eps": eps}
    r = R("normalize")
    add("normalize/default", op, [r.randn((3, 4))], F.normalize, A())
    add("normalize/dim0", op, [r.randn((3, 4))], lambda x: F.normalize(x, dim=0), A(dim=(0,)))
    add("normalize/neg_dim", op, [r.randn((2, 3, 4))], lambda x: F.normalize(x, dim=-1), A(dim=(-1,)))
    add("normalize/dims", op, [r.randn((2, 3, 4))], lambda x: F.normalize(x, dim=(1, 2)), A(dim=(1, 2)))
    add("normalize/p1", op, [r.randn((3, 4))], lambda x: F.normalize(x, p=1.0), A(p=1.0))
    add("normalize/p3", op, [r.randn((3, 4))], lambda x: F.normalize(x, p=3.0), A(p=3.0))
    add("normalize/p_inf", op, [r.randn((3, 4))], lambda x: F.normalize(x, p=INF), A(p=INF))
    add("normalize/p0", op, [torch.tensor([[1.0, 0.0, 2.0], [0.0, 0.0, 0.0]], dtype=f64)], lambda x: F.normalize(x, p=0.0), A(p=0.0), backward=False)
    add("normalize/eps_clamps", op, [torch.tensor([[1e-3, 2e-3], [3.0, 4.0]], dtype=f64)], lambda x: F.normalize(x, eps=0.1), A(eps=0.1))
    # no gradient check at 0 (the norm is not differentiable there)
    add("normalize/zeros", op, [torch.zeros(2, 3, dtype=f64)], F.normalize, A(), backward=False)
    add("normalize/1d", op, [r.randn((5,))], lambda x: F.normalize(x, dim=0), A(dim=(0,)))
    add("normalize/0d", op, [torch.tensor(-3.0, dtype=f64)], lambda x: F.normalize(x, dim=0), A(dim=(0,)))
    add("normalize/empty", op, [torch.zeros(0, 3, dtype=f64)], F.normalize, A())
    add("normalize/noncontig", op, [r.randn((4, 3)).t()], F.normalize, A())
    err("normalize/err/int", op, [torch.tensor([[1, 2], [3, 4]])], F.normalize, A())
    narrow(op, F.normalize, lambda r, d: [r.randn((4, 8)).to(d)], A())
    narrow(op, lambda x: F.normalize(x, p=1.0, dim=0), lambda r, d: [r.randn((6, 5)).to(d)], A(p=1.0, dim=(0,)), label="normalize/p1")


def one_hot_cases():
    op = "one_hot"
    add("one_hot/infer", op, [torch.tensor([0, 2, 1, 2])], F.one_hot, {"num_classes": -1}, backward=False)
    add("one_hot/classes", op, [torch.tensor([[0, 2], [1, 4]])], lambda x: F.one_hot(x, 6), {"num_classes": 6}, backward=False)
    add("one_hot/0d", op, [torch.tensor(3)], F.one_hot, {"num_classes": -1}, backward=False)
    add("one_hot/empty", op, [torch.zeros(0, 2, dtype=torch.int64)], lambda x: F.one_hot(x, 3), {"num_classes": 3}, backward=False)
    err("one_hot/err/too_large", op, [torch.tensor([0, 2, 1])], lambda x: F.one_hot(x, 2), {"num_classes": 2})
    err("one_hot/err/negative", op, [torch.tensor([0, -1])], F.one_hot, {"num_classes": -1})
    err("one_hot/err/negative_classes", op, [torch.tensor([0, -1])], lambda x: F.one_hot(x, 3), {"num_classes": 3})
    err("one_hot/err/empty_infer", op, [torch.zeros(0, dtype=torch.int64)], F.one_hot, {"num_classes": -1})
    err("one_hot/err/int32", op, [torch.tensor([1, 2], dtype=torch.int32)], lambda x: F.one_hot(x, 3), {"num_classes": 3})
    err("one_hot/err/float", op, [torch.tensor([1.0, 2.0], dtype=f64)], lambda x: F.one_hot(x, 3), {"num_classes": 3})


def lrn_cases():
    op = "local_response_norm"

    def A(size, alpha=1e-4, beta=0.75, k=1.0):
        return {"size": size, "alpha": alpha, "beta": beta, "k": k}

    def fn(size, alpha=1e-4, beta=0.75, k=1.0):
        return lambda x: F.local_response_norm(x, size, alpha, beta, k)
    r = R("lrn")
    add("lrn/3d", op, [r.randn((2, 5, 4)) * 3], fn(3), A(3))
    add("lrn/4d", op, [r.randn((2, 6, 3, 3)) * 3], fn(2, 0.5, 0.6, 2.0), A(2, 0.5, 0.6, 2.0))
    add("lrn/5d", op, [r.randn((1, 4, 2, 3, 2)) * 3], fn(5, 1e-2), A(5, 1e-2))
    add("lrn/size1", op, [r.randn((2, 3, 4))], fn(1, 1.0), A(1, 1.0))
    add("lrn/size_gt_channels", op, [r.randn((2, 3, 4))], fn(7, 0.3, 1.2, 0.5), A(7, 0.3, 1.2, 0.5))
    add("lrn/empty", op, [torch.zeros(0, 3, 4, dtype=f64)], fn(2), A(2), backward=False)
    add("lrn/noncontig", op, [(r.randn((2, 4, 5)) * 2).transpose(1, 2)], fn(3, 0.1), A(3, 0.1))
    err("lrn/err/size0", op, [r.randn((2, 3, 4))], fn(0), A(0))
    narrow(op, fn(3, 0.1, 0.75, 1.0), lambda r, d: [(r.randn((2, 6, 5)) * 2).to(d)], A(3, 0.1, 0.75, 1.0))
    # 4-d and larger: no bfloat16 avg_pool3d in PyTorch 1.13 (probe emulates
    # it in float32), while the torch device declares bfloat16 for the op
    # (its 3-d form runs): no bfloat16 case that the torch device must run
    narrow(op, fn(4, 0.05, 0.6, 1.5), lambda r, d: [(r.randn((2, 5, 3, 2)) * 2).to(d)], A(4, 0.05, 0.6, 1.5), label="lrn/4d",
           dtypes={k: v for k, v in NARROW.items() if k != "bfloat16"})


# ---------------------------------------------------------------- scaled_dot_product_attention

def sdpa_ref(q, k, v, mask=None, is_causal=False, scale=None, enable_gqa=False):
    """PyTorch 2's documented composition of F.scaled_dot_product_attention
    on PyTorch 1.13's ops (dropout_p 0)."""
    L, S = q.size(-2), k.size(-2)
    sf = 1 / math.sqrt(q.size(-1)) if scale is None else scale
    bias = torch.zeros(L, S, dtype=q.dtype)
    if is_causal:
        bias.masked_fill_(torch.ones(L, S, dtype=torch.bool).tril(diagonal=0).logical_not(), float("-inf"))
    if mask is not None:
        if mask.dtype == torch.bool:
            bias = bias.masked_fill(mask.logical_not(), float("-inf"))
        else:
            bias = mask + bias
    if enable_gqa:
        k = k.repeat_interleave(q.size(-3) // k.size(-3), -3)
        v = v.repeat_interleave(q.size(-3) // v.size(-3), -3)
    w = q @ k.transpose(-2, -1) * sf
    w += bias
    w = torch.softmax(w, dim=-1)
    return w @ v


def sdpa_cases():
    op = "scaled_dot_product_attention"

    def A(is_causal=False, scale=None, gqa=False):
        return {"dropout_p": 0.0, "is_causal": is_causal, "scale": scale, "enable_gqa": gqa}
    rg4 = [True, True, True, False]
    r = R("sdpa")
    q, k, v = r.randn((2, 3, 4, 8)), r.randn((2, 3, 5, 8)), r.randn((2, 3, 5, 6))
    add("sdpa/plain", op, [q, k, v, None], lambda q, k, v, m: sdpa_ref(q, k, v), A(), rg=rg4)
    add("sdpa/scale", op, [q, k, v, None], lambda q, k, v, m: sdpa_ref(q, k, v, scale=0.3), A(scale=0.3), rg=rg4)
    qs = r.randn((2, 5, 8))
    add("sdpa/causal", op, [qs, r.randn((2, 5, 8)), r.randn((2, 5, 4)), None], lambda q, k, v, m: sdpa_ref(q, k, v, is_causal=True),
        A(is_causal=True), rg=rg4)
    add("sdpa/causal_rect", op, [r.randn((1, 3, 4)), r.randn((1, 6, 4)), r.randn((1, 6, 4)), None],
        lambda q, k, v, m: sdpa_ref(q, k, v, is_causal=True), A(is_causal=True), rg=rg4)
    bm = r.bool((4, 5))
    bm[:, 0] = True
    add("sdpa/bool_mask", op, [q, k, v, bm], lambda q, k, v, m: sdpa_ref(q, k, v, m), A(), rg=rg4)
    add("sdpa/float_mask", op, [q, k, v, r.randn((3, 1, 5))], lambda q, k, v, m: sdpa_ref(q, k, v, m), A(), rg=rg4)
    add("sdpa/broadcast_batch", op, [r.randn((2, 1, 3, 4)), r.randn((3, 5, 4)), r.randn((3, 5, 2)), None],
        lambda q, k, v, m: sdpa_ref(q, k, v), A(), rg=rg4)
    add("sdpa/2d", op, [r.randn((3, 4)), r.randn((5, 4)), r.randn((5, 2)), None], lambda q, k, v, m: sdpa_ref(q, k, v), A(), rg=rg4)
    add("sdpa/gqa", op, [r.randn((1, 4, 3, 8)), r.randn((1, 2, 5, 8)), r.randn((1, 2, 5, 4)), None],
        lambda q, k, v, m: sdpa_ref(q, k, v, enable_gqa=True), A(gqa=True), rg=rg4)
    err("sdpa/err/mismatch", op, [r.randn((2, 4, 8)), r.randn((2, 5, 6)), r.randn((2, 5, 6)), None], lambda q, k, v, m: sdpa_ref(q, k, v), A())
    for dn, d in NARROW.items():
        name = "sdpa/%s" % dn
        rr = R(name)
        xs = [(rr.randn((2, 2, 6, 16))).to(d), rr.randn((2, 2, 7, 16)).to(d), rr.randn((2, 2, 7, 8)).to(d), rr.randn((6, 7)).to(d)]
        fn = lambda q, k, v, m: sdpa_ref(q, k, v, m)  # noqa: E731
        try:
            run_torch(fn, xs, rg4, None)
            run_torch(fn, xs, rg4, [torch.ones(2, 2, 6, 8, dtype=d)])
        except RuntimeError:
            name, fn = name + "_via_f32", via_f32(fn, d)
        # float32: PyTorch's BLAS sums in its own order, and the gradients
        # cancel: a tolerance instead of PyTorch's ulp
        tol = {"atol": 2e-7, "rtol": 1e-5} if d == torch.float32 else {}
        CASES.append(checked(name, op, xs, fn, attrs=A(), requires_grad=rg4, mode="emulated", **tol))


def bits_cases():
    """PyTorch's bits where its narrow kernels round in a way measured
    against torch 1.13 (ulp 0): huber_loss rounds every step at bfloat16 and
    float16 (delta at the dtype), smooth_l1_loss at bfloat16 computes in
    float (beta a float) and rounds once, local_response_norm at bfloat16
    reads alpha, k and beta at bfloat16 and its avg_pool backward rounds
    every addition, normalize's bfloat16 2-norm over an outer dim rounds
    every square and addition."""
    bf, h = torch.bfloat16, torch.float16
    for dn, d in (("bfloat16", bf), ("float16", h)):
        r = R("bits/huber/" + dn)
        add("huber_loss/bits_" + dn, "huber_loss", [(r.randn((8, 32)) * 2).to(d), r.randn((8, 32)).to(d)],
            lambda x, t: F.huber_loss(x, t, reduction="none", delta=0.8), {"reduction": "none", "delta": 0.8}, mode="emulated", ulp=0,
            backward=d == bf)
    r = R("bits/smooth_l1/bfloat16")
    add("smooth_l1_loss/bits_bfloat16", "smooth_l1_loss", [(r.randn((8, 32)) * 2).to(bf), r.randn((8, 32)).to(bf)],
        lambda x, t: F.smooth_l1_loss(x, t, reduction="none", beta=0.7), {"reduction": "none", "beta": 0.7}, mode="emulated", ulp=0)
    r = R("bits/normalize/bfloat16_dim0")
    add("normalize/bits_bfloat16_dim0", "normalize", [r.randn((8, 32)).to(bf)], lambda x: F.normalize(x, dim=0),
        {"p": 2.0, "dim": [0], "eps": 1e-12}, mode="emulated", ulp=0)
    r = R("bits/lrn/bfloat16")
    add("lrn/bits_bfloat16", "local_response_norm", [(r.randn((2, 6, 16)) * 2).to(bf)], lambda x: F.local_response_norm(x, 3, 0.1, 0.75, 1.0),
        {"size": 3, "alpha": 0.1, "beta": 0.75, "k": 1.0}, mode="emulated", ulp=0)


def main():
    warnings.simplefilter("ignore")
    mse_cases()
    l1_cases()
    smooth_l1_cases()
    huber_cases()
    bce_cases()
    normalize_cases()
    one_hot_cases()
    lrn_cases()
    sdpa_cases()
    bits_cases()
    print("\n".join(REPORT))
    write_group("loss", CASES)


if __name__ == "__main__":
    main()
