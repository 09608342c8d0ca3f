"""Golden cases for the loss2 family (sdk/ops/schema_loss2.go): the losses
beyond cross_entropy/nll_loss, the recurrent cells and layers and
embedding_bag.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_loss2.py

writes golden/loss2.json.gz from real PyTorch 1.13 on the CPU (format:
golden_lib.py). Per op: float64 cases (every reduction, broadcast, 0-d,
empty, options), backward cases, error cases with PyTorch's message, and
emulated cases at float32, bfloat16 and float16 where PyTorch 1.13's CPU
runs the op at that dtype. Emulated cases carry PyTorch's own deviation
from the correctly rounded result (checked) or an explicit tolerance.
"""

import torch
import torch.nn.functional as F

from golden_lib import REPORT, Rand, case, checked, error_case, write_group

f64, f32, bf16, f16 = torch.float64, torch.float32, torch.bfloat16, torch.float16
RED = {"none": 0, "mean": 1, "sum": 2}
NARROW = (f32, bf16, f16)


class _Short(Rand):
    """Rand with values rounded to 3 decimals: short JSON, a small file."""

    def randn(self, shape, dtype=f64):
        return (torch.round(super().randn(shape, f64) * 1000) / 1000).to(dtype)

    def rand(self, shape, dtype=f64, lo=0.0, hi=1.0):
        return (torch.round(super().rand(shape, f64, lo, hi) * 1000) / 1000).to(dtype)


def R(name):
    return _Short("loss2/" + name)


def dn(d):
    return str(d)[6:]


def pm1(r, shape, d=f64):
    return (r.bool(shape).to(f64) * 2 - 1).to(d)


CASES = []


def add(name, op, inputs, fn, attrs, backward=True, rg=None, mode="bench", **kw):
    if mode == "emulated":
        CASES.append(checked(name, op, inputs, fn, attrs=attrs, backward=backward, requires_grad=rg, mode=mode, **kw))
    else:
        CASES.append(case(name, op, inputs, fn, attrs=attrs, backward=backward, requires_grad=rg, mode=mode, **kw))


def err(name, op, inputs, fn, attrs, mode="bench"):
    CASES.append(error_case(name, op, inputs, fn, attrs=attrs, mode=mode))


def emulated(op, mk, fn, attrs, dtypes=NARROW, rg=None, tol=None):
    """One emulated case per narrow dtype PyTorch runs the op at; mk(r, d)
    gives the inputs; op may carry a label: "op/label"."""
    label = op
    op = op.split("/")[0]
    for d in dtypes:
        name = "%s/emu/%s" % (label, dn(d))
        xs = mk(R(name), d)
        try:
            fn(*xs)
        except RuntimeError:
            # no CPU kernel at the dtype: the torch plugin reports that as
            # unsupported, so no error case
            continue
        t = dict(tol.get(d, {})) if tol else {}
        add(name, op, xs, fn, attrs, rg=rg, mode="emulated", **t)


# ---------------------------------------------------------------- bce with logits

def bce_cases():
    op = "binary_cross_entropy_with_logits"

    def fn(red):
        return lambda x, t, w, pw: torch.binary_cross_entropy_with_logits(x, t, w, pw, RED[red])
    rg4 = [True, True, False, False]
    for red in RED:
        r = R("bce/" + red)
        x, t = r.randn((3, 4)) * 3, r.rand((3, 4))
        add("bce/%s" % red, op, [x, t, None, None], fn(red), {"reduction": red})
        add("bce/%s/weights" % red, op, [x, t, r.rand((4,)) + 0.5, r.rand((3, 1)) * 3], fn(red), {"reduction": red}, rg=rg4)
    r = R("bce/misc")
    add("bce/pos_weight_only", op, [r.randn((2, 5)) * 20, r.rand((2, 5)), None, r.rand((5,)) * 2], fn("mean"), {"reduction": "mean"}, rg=rg4)
    add("bce/weight_only", op, [r.randn((2, 5)), r.rand((2, 5)), r.rand((2, 5)), None], fn("sum"), {"reduction": "sum"}, rg=rg4)
    add("bce/input_broadcast", op, [r.randn((4,)), r.rand((3, 4)), None, None], fn("none"), {"reduction": "none"}, backward=False)
    add("bce/0d", op, [torch.tensor(0.7, dtype=f64), torch.tensor(1.0, dtype=f64), None, None], fn("mean"), {"reduction": "mean"})
    add("bce/empty_mean", op, [torch.zeros(0, 3, dtype=f64), torch.zeros(0, 3, dtype=f64), None, None], fn("mean"), {"reduction": "mean"})
    add("bce/large_logits", op, [torch.tensor([-800.0, -30.0, 0.0, 30.0, 800.0], dtype=f64), torch.tensor([0.0, 1.0, 0.5, 0.0, 1.0], dtype=f64), None, None],
        fn("none"), {"reduction": "none"})
    add("bce/int_input_float_target", op, [r.randn((2, 3)), torch.tensor([[1.0, 0, 1], [0, 0, 1]], dtype=f64), None, None], fn("sum"), {"reduction": "sum"})
    err("bce/err/target_shape", op, [r.randn((3, 4)), r.rand((4,)), None, None], fn("none"), {"reduction": "none"})
    err("bce/err/weight_shape", op, [r.randn((3, 4)), r.rand((3, 4)), r.rand((2, 3, 4)), None], fn("none"), {"reduction": "none"})
    err("bce/err/int_target", op, [r.randn((3, 4)), torch.ones(3, 4, dtype=torch.int64), None, None], fn("none"), {"reduction": "none"})
    emulated(op, lambda r, d: [(r.randn((4, 8)) * 3).to(d), r.rand((4, 8)).to(d), None, (r.rand((8,)) * 2).to(d)], fn("mean"),
             {"reduction": "mean"}, rg=rg4)
    emulated(op + "/none", lambda r, d: [(r.randn((3, 5)) * 3).to(d), r.rand((3, 5)).to(d), r.rand((5,)).to(d), None], fn("none"),
             {"reduction": "none"}, dtypes=(f32, bf16), rg=rg4)


# ---------------------------------------------------------------- kl_div

def kl_cases():
    op = "kl_div"

    def fn(red, lt):
        def f(x, t):
            if red == "batchmean":
                out = torch.kl_div(x, t, 2, log_target=lt)
                return out / x.size()[0] if x.dim() != 0 else out
            return torch.kl_div(x, t, RED[red], log_target=lt)
        return f
    for red in ("none", "mean", "sum", "batchmean"):
        for lt in (False, True):
            r = R("kl/%s/%s" % (red, lt))
            x = torch.log_softmax(r.randn((3, 5)), -1)
            t = torch.softmax(r.randn((3, 5)), -1) if not lt else torch.log_softmax(r.randn((3, 5)), -1)
            add("kl/%s/log_target_%s" % (red, lt), op, [x, t], fn(red, lt), {"reduction": red, "log_target": lt})
    r = R("kl/misc")
    add("kl/zero_target", op, [r.randn((2, 3)), torch.tensor([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]], dtype=f64)], fn("sum", False),
        {"reduction": "sum", "log_target": False})
    add("kl/broadcast", op, [r.randn((4,)), r.rand((3, 4))], fn("none", False), {"reduction": "none", "log_target": False})
    add("kl/0d_batchmean", op, [torch.tensor(-0.5, dtype=f64), torch.tensor(0.3, dtype=f64)], fn("batchmean", False),
        {"reduction": "batchmean", "log_target": False})
    add("kl/empty_batchmean", op, [torch.zeros(0, 3, dtype=f64), torch.zeros(0, 3, dtype=f64)], fn("batchmean", True),
        {"reduction": "batchmean", "log_target": True}, backward=False)
    add("kl/3d", op, [r.randn((2, 3, 4)), r.rand((2, 3, 4))], fn("batchmean", False), {"reduction": "batchmean", "log_target": False})
    err("kl/err/int", op, [torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.int64)], fn("sum", False), {"reduction": "sum", "log_target": False})
    err("kl/err/shape", op, [r.randn((3, 4)), r.rand((2, 4))], fn("sum", False), {"reduction": "sum", "log_target": False})
    emulated(op, lambda r, d: [torch.log_softmax(r.randn((4, 8)), -1).to(d), torch.softmax(r.randn((4, 8)), -1).to(d)], fn("batchmean", False),
             {"reduction": "batchmean", "log_target": False})
    emulated(op + "/log_target", lambda r, d: [torch.log_softmax(r.randn((4, 8)), -1).to(d), torch.log_softmax(r.randn((4, 8)), -1).to(d)],
             fn("none", True), {"reduction": "none", "log_target": True})


# ---------------------------------------------------------------- margin / embedding losses

def margin_cases():
    op = "margin_ranking_loss"

    def mr(red, m):
        return lambda a, b, t: torch.margin_ranking_loss(a, b, t, m, RED[red])
    for red in RED:
        r = R("mr/" + red)
        add("mr/%s" % red, op, [r.randn((8,)), r.randn((8,)), pm1(r, (8,))], mr(red, 0.0), {"margin": 0.0, "reduction": red})
        add("mr/%s/margin" % red, op, [r.randn((2, 4)), r.randn((2, 4)), pm1(r, (2, 4))], mr(red, 0.5), {"margin": 0.5, "reduction": red})
    r = R("mr/misc")
    add("mr/broadcast", op, [r.randn((3, 4)), r.randn((4,)), pm1(r, (3, 1))], mr("none", 0.1), {"margin": 0.1, "reduction": "none"})
    add("mr/0d", op, [torch.tensor(0.3, dtype=f64), torch.tensor(0.9, dtype=f64), torch.tensor(1.0, dtype=f64)], mr("mean", 0.2), {"margin": 0.2, "reduction": "mean"})
    add("mr/empty", op, [torch.zeros(0, dtype=f64), torch.zeros(0, dtype=f64), torch.zeros(0, dtype=f64)], mr("sum", 0.0), {"margin": 0.0, "reduction": "sum"})
    add("mr/int_target", op, [r.randn((5,)), r.randn((5,)), torch.tensor([1, -1, 1, 1, -1])], mr("mean", 0.0), {"margin": 0.0, "reduction": "mean"})
    err("mr/err/shape", op, [r.randn((3,)), r.randn((4,)), pm1(r, (3,))], mr("mean", 0.0), {"margin": 0.0, "reduction": "mean"})
    emulated(op, lambda r, d: [r.randn((16,)).to(d), r.randn((16,)).to(d), pm1(r, (16,), d)], mr("mean", 0.1), {"margin": 0.1, "reduction": "mean"})

    op = "hinge_embedding_loss"

    def hi(red, m):
        return lambda x, t: torch.hinge_embedding_loss(x, t, m, RED[red])
    for red in RED:
        r = R("hinge/" + red)
        add("hinge/%s" % red, op, [r.randn((4, 5)) * 2, pm1(r, (4, 5))], hi(red, 1.0), {"margin": 1.0, "reduction": red})
    r = R("hinge/misc")
    add("hinge/other_targets", op, [r.randn((6,)), torch.tensor([1.0, -1.0, 0.0, 2.0, 1.0, -1.0], dtype=f64)], hi("none", 0.5), {"margin": 0.5, "reduction": "none"})
    add("hinge/broadcast", op, [r.randn((3, 4)), pm1(r, (4,))], hi("none", 1.0), {"margin": 1.0, "reduction": "none"})
    add("hinge/0d", op, [torch.tensor(0.4, dtype=f64), torch.tensor(-1.0, dtype=f64)], hi("sum", 2.0), {"margin": 2.0, "reduction": "sum"})
    add("hinge/int_target", op, [r.randn((5,)), torch.tensor([1, -1, 1, -1, -1])], hi("mean", 1.0), {"margin": 1.0, "reduction": "mean"})
    err("hinge/err/shape", op, [r.randn((3, 4)), pm1(r, (3,))], hi("mean", 1.0), {"margin": 1.0, "reduction": "mean"})
    emulated(op, lambda r, d: [(r.randn((4, 8)) * 2).to(d), pm1(r, (4, 8), d)], hi("mean", 1.0), {"margin": 1.0, "reduction": "mean"})

    op = "cosine_embedding_loss"

    def co(red, m):
        return lambda a, b, t: torch.cosine_embedding_loss(a, b, t, m, RED[red])
    for red in RED:
        r = R("cos/" + red)
        add("cos/%s" % red, op, [r.randn((4, 6)), r.randn((4, 6)), torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=f64)], co(red, 0.0), {"margin": 0.0, "reduction": red})
    r = R("cos/misc")
    add("cos/margin", op, [r.randn((5, 3)), r.randn((5, 3)), torch.tensor([-1.0, -1.0, 1.0, 0.0, -1.0], dtype=f64)], co("none", -0.5), {"margin": -0.5, "reduction": "none"})
    add("cos/1d", op, [r.randn((6,)), r.randn((6,)), torch.tensor(-1.0, dtype=f64)], co("mean", 0.1), {"margin": 0.1, "reduction": "mean"})
    add("cos/broadcast", op, [r.randn((3, 4)), r.randn((1, 4)), torch.tensor([1.0], dtype=f64)], co("none", 0.0), {"margin": 0.0, "reduction": "none"})
    add("cos/zero_row", op, [torch.zeros(2, 3, dtype=f64), r.randn((2, 3)), torch.tensor([1.0, -1.0], dtype=f64)], co("sum", 0.0), {"margin": 0.0, "reduction": "sum"})
    err("cos/err/target_dim", op, [r.randn((3, 4)), r.randn((3, 4)), torch.tensor(1.0, dtype=f64)], co("mean", 0.0), {"margin": 0.0, "reduction": "mean"})
    err("cos/err/2d_target", op, [r.randn((3, 4)), r.randn((3, 4)), r.randn((3, 4))], co("mean", 0.0), {"margin": 0.0, "reduction": "mean"})
    emulated(op, lambda r, d: [r.randn((4, 8)).to(d), r.randn((4, 8)).to(d), torch.tensor([1.0, -1.0, 1.0, -1.0]).to(d)], co("mean", 0.0),
             {"margin": 0.0, "reduction": "mean"}, tol={f32: {"ulp": 30}, bf16: {"atol": 5e-4, "rtol": 2e-2}})

    op = "soft_margin_loss"

    def sm(red):
        return lambda x, t: torch._C._nn.soft_margin_loss(x, t, RED[red])
    rg2 = [True, False]
    for red in RED:
        r = R("soft/" + red)
        add("soft/%s" % red, op, [r.randn((3, 4)) * 2, pm1(r, (3, 4))], sm(red), {"reduction": red}, rg=rg2)
    r = R("soft/misc")
    add("soft/broadcast_target", op, [r.randn((3, 4)), r.randn((4,))], sm("none"), {"reduction": "none"}, rg=rg2)
    add("soft/0d", op, [torch.tensor(-30.0, dtype=f64), torch.tensor(1.0, dtype=f64)], sm("mean"), {"reduction": "mean"}, rg=rg2)
    err("soft/err/shape", op, [r.randn((4,)), r.randn((3, 4))], sm("none"), {"reduction": "none"})
    emulated(op, lambda r, d: [(r.randn((4, 8)) * 2).to(d), pm1(r, (4, 8), d)], sm("sum"), {"reduction": "sum"}, rg=rg2)

    op = "multilabel_soft_margin_loss"

    def ms(red):
        return lambda x, t, w: F.multilabel_soft_margin_loss(x, t, w, reduction=red)
    for red in RED:
        r = R("mlsoft/" + red)
        add("mlsoft/%s" % red, op, [r.randn((3, 5)) * 2, r.bool((3, 5)).to(f64), None], ms(red), {"reduction": red})
        add("mlsoft/%s/weight" % red, op, [r.randn((3, 5)), r.rand((3, 5)), r.rand((5,))], ms(red), {"reduction": red})
    r = R("mlsoft/misc")
    add("mlsoft/1d", op, [r.randn((4,)), r.rand((4,)), None], ms("none"), {"reduction": "none"})
    add("mlsoft/3d", op, [r.randn((2, 3, 4)), r.rand((2, 3, 4)), None], ms("mean"), {"reduction": "mean"})
    err("mlsoft/err/shape", op, [r.randn((3, 4)), r.rand((3, 5)), None], ms("mean"), {"reduction": "mean"})
    emulated(op, lambda r, d: [r.randn((4, 8)).to(d), r.bool((4, 8)).to(d), None], ms("mean"), {"reduction": "mean"})

    op = "multilabel_margin_loss"

    def ml(red):
        return lambda x, t: torch._C._nn.multilabel_margin_loss(x, t, RED[red])
    tgt = torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [-1, 0, 0, 0, 0], [4, -1, 2, 2, 2]])
    for red in RED:
        r = R("mlm/" + red)
        add("mlm/%s" % red, op, [r.randn((4, 5)), tgt], ml(red), {"reduction": red})
    r = R("mlm/misc")
    add("mlm/1d", op, [r.randn((5,)), torch.tensor([2, 4, -1, 0, 0])], ml("none"), {"reduction": "none"})
    add("mlm/0d", op, [torch.tensor(0.5, dtype=f64), torch.tensor(0)], ml("sum"), {"reduction": "sum"})
    err("mlm/err/range", op, [r.randn((2, 3)), torch.tensor([[0, 3, -1], [1, -1, 0]])], ml("mean"), {"reduction": "mean"})
    err("mlm/err/shape", op, [r.randn((2, 3)), torch.tensor([0, 1, -1])], ml("mean"), {"reduction": "mean"})
    err("mlm/err/3d", op, [r.randn((2, 3, 4)), torch.zeros(2, 3, 4, dtype=torch.int64)], ml("mean"), {"reduction": "mean"})
    emulated(op, lambda r, d: [r.randn((4, 5)).to(d), tgt], ml("mean"), {"reduction": "mean"})

    op = "multi_margin_loss"

    def mm(red, p, m):
        return lambda x, t, w: torch._C._nn.multi_margin_loss(x, t, p, m, w, RED[red])
    rg3 = [True, False, False]
    for red in RED:
        for p in (1, 2):
            r = R("mm/%s/%d" % (red, p))
            add("mm/%s/p%d" % (red, p), op, [r.randn((4, 5)), r.randint(0, 5, (4,)), None], mm(red, p, 1.0), {"p": p, "margin": 1.0, "reduction": red})
    r = R("mm/misc")
    add("mm/weight", op, [r.randn((4, 5)), r.randint(0, 5, (4,)), r.rand((5,))], mm("mean", 2, 0.5), {"p": 2, "margin": 0.5, "reduction": "mean"}, rg=rg3)
    add("mm/1d", op, [r.randn((5,)), torch.tensor(3), None], mm("none", 1, 1.0), {"p": 1, "margin": 1.0, "reduction": "none"})
    add("mm/0d", op, [torch.tensor(0.5, dtype=f64), torch.tensor(0), None], mm("sum", 1, 1.0), {"p": 1, "margin": 1.0, "reduction": "sum"})
    err("mm/err/range", op, [r.randn((2, 3)), torch.tensor([0, 3]), None], mm("mean", 1, 1.0), {"p": 1, "margin": 1.0, "reduction": "mean"})
    err("mm/err/size", op, [r.randn((3, 3)), torch.tensor([0, 1]), None], mm("mean", 1, 1.0), {"p": 1, "margin": 1.0, "reduction": "mean"})
    err("mm/err/p", op, [r.randn((3, 3)), torch.tensor([0, 1, 2]), None], mm("mean", 3, 1.0), {"p": 3, "margin": 1.0, "reduction": "mean"})
    emulated(op, lambda r, d: [r.randn((4, 5)).to(d), r.randint(0, 5, (4,)), None], mm("mean", 1, 1.0), {"p": 1, "margin": 1.0, "reduction": "mean"})


# ---------------------------------------------------------------- poisson / gaussian / triplet

def nll_cases():
    op = "poisson_nll_loss"

    def po(li, full, eps, red):
        return lambda x, t: torch.poisson_nll_loss(x, t, li, full, eps, RED[red])
    for red in RED:
        for li in (True, False):
            for full in (False, True):
                r = R("poisson/%s/%s/%s" % (red, li, full))
                x = r.randn((3, 4)) if li else r.rand((3, 4), lo=0.1, hi=3)
                t = r.randint(0, 5, (3, 4)).to(f64)
                a = {"log_input": li, "full": full, "eps": 1e-8, "reduction": red}
                add("poisson/%s/log_input_%s/full_%s" % (red, li, full), op, [x, t], po(li, full, 1e-8, red), a)
    r = R("poisson/misc")
    add("poisson/eps", op, [torch.tensor([0.0, 0.5, 2.0], dtype=f64), torch.tensor([1.0, 2.0, 0.0], dtype=f64)], po(False, False, 0.1, "none"),
        {"log_input": False, "full": False, "eps": 0.1, "reduction": "none"})
    add("poisson/broadcast", op, [r.randn((4,)), r.rand((3, 4), hi=4)], po(True, True, 1e-8, "none"), {"log_input": True, "full": True, "eps": 1e-8, "reduction": "none"})
    add("poisson/0d", op, [torch.tensor(0.3, dtype=f64), torch.tensor(3.0, dtype=f64)], po(True, True, 1e-8, "mean"), {"log_input": True, "full": True, "eps": 1e-8, "reduction": "mean"})
    err("poisson/err/shape", op, [r.randn((3,)), r.randn((4,))], po(True, False, 1e-8, "mean"), {"log_input": True, "full": False, "eps": 1e-8, "reduction": "mean"})
    emulated(op, lambda r, d: [r.randn((4, 8)).to(d), r.randint(0, 5, (4, 8)).to(d)], po(True, False, 1e-8, "mean"),
             {"log_input": True, "full": False, "eps": 1e-8, "reduction": "mean"})
    emulated(op + "/full", lambda r, d: [r.rand((4, 8), lo=0.5, hi=3).to(d), r.randint(0, 6, (4, 8)).to(d)], po(False, True, 1e-8, "none"),
             {"log_input": False, "full": True, "eps": 1e-8, "reduction": "none"}, dtypes=(f32, bf16))

    op = "gaussian_nll_loss"

    def ga(full, eps, red):
        return lambda x, t, v: F.gaussian_nll_loss(x, t, v, full=full, eps=eps, reduction=red)
    for red in RED:
        for full in (False, True):
            r = R("gauss/%s/%s" % (red, full))
            a = {"full": full, "eps": 1e-6, "reduction": red}
            add("gauss/%s/full_%s" % (red, full), op, [r.randn((3, 4)), r.randn((3, 4)), r.rand((3, 4), lo=0.1, hi=2)], ga(full, 1e-6, red), a)
    r = R("gauss/misc")
    a = {"full": False, "eps": 1e-6, "reduction": "none"}
    add("gauss/homoscedastic", op, [r.randn((3, 4)), r.randn((3, 4)), r.rand((3,), lo=0.1)], ga(False, 1e-6, "none"), a)
    add("gauss/last1", op, [r.randn((3, 4)), r.randn((3, 4)), r.rand((3, 1), lo=0.1)], ga(False, 1e-6, "none"), a)
    add("gauss/clamped", op, [r.randn((4,)), r.randn((4,)), torch.tensor([0.001, 0.003, 0.05, 1.0], dtype=f64)], ga(False, 0.01, "sum"),
        {"full": False, "eps": 0.01, "reduction": "sum"}, rg=[True, True, False])
    add("gauss/target_broadcast", op, [r.randn((3, 4)), r.randn((4,)), r.rand((3, 4), lo=0.1)], ga(True, 1e-6, "mean"), {"full": True, "eps": 1e-6, "reduction": "mean"})
    err("gauss/err/var_size", op, [r.randn((3, 4)), r.randn((3, 4)), r.rand((4,), lo=0.1)], ga(False, 1e-6, "none"), a)
    err("gauss/err/negative", op, [r.randn((3, 4)), r.randn((3, 4)), -r.rand((3, 4), lo=0.1)], ga(False, 1e-6, "none"), a)
    emulated(op, lambda r, d: [r.randn((4, 8)).to(d), r.randn((4, 8)).to(d), r.rand((4, 8), lo=0.2, hi=2).to(d)], ga(False, 1e-6, "mean"),
             {"full": False, "eps": 1e-6, "reduction": "mean"})

    op = "triplet_margin_loss"

    def tr(m, p, eps, swap, red, py=False):
        if py:
            def dist(x, y):
                return F.pairwise_distance(x, y, p, eps)
            return lambda a, b, n: F.triplet_margin_with_distance_loss(a, b, n, distance_function=dist, margin=m, swap=swap, reduction=red)
        return lambda a, b, n: torch.triplet_margin_loss(a, b, n, m, p, eps, swap, RED[red])

    def ta(m, p, eps, swap, red, py=False):
        return {"margin": m, "p": p, "eps": eps, "swap": swap, "python_order": py, "reduction": red}
    for red in RED:
        for swap in (False, True):
            r = R("trip/%s/%s" % (red, swap))
            xs = [r.randn((3, 4)), r.randn((3, 4)), r.randn((3, 4))]
            add("trip/%s/swap_%s" % (red, swap), op, xs, tr(1.0, 2.0, 1e-6, swap, red), ta(1.0, 2.0, 1e-6, swap, red))
            if swap or red == "none":
                add("trip/%s/swap_%s/python" % (red, swap), op, xs, tr(1.0, 2.0, 1e-6, swap, red, True), ta(1.0, 2.0, 1e-6, swap, red, True))
    r = R("trip/misc")
    add("trip/p1", op, [r.randn((3, 5)), r.randn((3, 5)), r.randn((3, 5))], tr(0.5, 1.0, 1e-6, False, "none"), ta(0.5, 1.0, 1e-6, False, "none"))
    add("trip/p3", op, [r.randn((3, 5)), r.randn((3, 5)), r.randn((3, 5))], tr(2.0, 3.0, 1e-6, True, "none"), ta(2.0, 3.0, 1e-6, True, "none"))
    add("trip/1d", op, [r.randn((5,)), r.randn((5,)), r.randn((5,))], tr(1.0, 2.0, 1e-6, False, "mean"), ta(1.0, 2.0, 1e-6, False, "mean"))
    add("trip/broadcast", op, [r.randn((3, 5)), r.randn((1, 5)), r.randn((3, 5))], tr(1.0, 2.0, 1e-6, True, "none"), ta(1.0, 2.0, 1e-6, True, "none"))
    add("trip/python_rank", op, [r.randn((3, 5)), r.randn((5,)), r.randn((3, 5))], tr(1.0, 2.0, 1e-6, False, "none", True), ta(1.0, 2.0, 1e-6, False, "none", True))
    err("trip/err/rank", op, [r.randn((3, 5)), r.randn((5,)), r.randn((3, 5))], tr(1.0, 2.0, 1e-6, False, "mean"), ta(1.0, 2.0, 1e-6, False, "mean"))
    emulated(op, lambda r, d: [r.randn((4, 8)).to(d), r.randn((4, 8)).to(d), r.randn((4, 8)).to(d)], tr(1.0, 2.0, 1e-6, False, "mean"),
             ta(1.0, 2.0, 1e-6, False, "mean"), tol={f32: {"ulp": 60}})


# ---------------------------------------------------------------- recurrent

def rnn_params(r, gates, I, H, layers=1, dirs=1, bias=True, proj=0, d=f64):
    ps = []
    P = proj or H
    for l in range(layers):
        for _ in range(dirs):
            li = I if l == 0 else dirs * P
            ps += [r.rand((gates * H, li), lo=-0.6, hi=0.6), r.rand((gates * H, P), lo=-0.6, hi=0.6)]
            if bias:
                ps += [r.rand((gates * H,), lo=-0.5, hi=0.5), r.rand((gates * H,), lo=-0.5, hi=0.5)]
            if proj:
                ps.append(r.rand((P, H), lo=-0.6, hi=0.6))
    return [p.to(d) for p in ps]


def cell_cases():
    def lc(x, h, c, wi, wh, bi, bh):
        return torch.lstm_cell(x, [h, c], wi, wh, bi, bh)

    def gc(x, h, wi, wh, bi, bh):
        return torch.gru_cell(x, h, wi, wh, bi, bh)
    for bias in (True, False):
        r = R("lstm_cell/%s" % bias)
        ps = rnn_params(r, 4, 3, 4)
        add("lstm_cell/bias_%s" % bias, "lstm_cell", [r.randn((2, 3)), r.randn((2, 4)), r.randn((2, 4)), ps[0], ps[1]] + (ps[2:] if bias else [None, None]), lc, {})
        r = R("gru_cell/%s" % bias)
        ps = rnn_params(r, 3, 3, 4)
        add("gru_cell/bias_%s" % bias, "gru_cell", [r.randn((2, 3)), r.randn((2, 4)), ps[0], ps[1]] + (ps[2:] if bias else [None, None]), gc, {})
    r = R("cells/misc")
    ps = rnn_params(r, 4, 3, 4)
    add("lstm_cell/one_bias", "lstm_cell", [r.randn((1, 3)), r.randn((1, 4)), r.randn((1, 4)), ps[0], ps[1], ps[2], None], lc, {})
    add("lstm_cell/batch0", "lstm_cell", [r.randn((0, 3)), r.randn((0, 4)), r.randn((0, 4))] + ps, lc, {})
    err("lstm_cell/err/1d", "lstm_cell", [r.randn((3,)), r.randn((4,)), r.randn((4,))] + ps, lc, {})
    err("lstm_cell/err/hidden", "lstm_cell", [r.randn((2, 3)), r.randn((2, 5)), r.randn((2, 4))] + ps, lc, {})
    gps = rnn_params(r, 3, 3, 4)
    err("gru_cell/err/input", "gru_cell", [r.randn((2, 2)), r.randn((2, 4))] + gps, gc, {})
    for d in (f32, bf16):
        r = R("lstm_cell/emu/" + dn(d))
        ps = rnn_params(r, 4, 3, 4, d=d)
        tol = {"atol": 4e-3 if d == bf16 else 1e-6, "rtol": 3e-2 if d == bf16 else 1e-4}
        add("lstm_cell/emu/" + dn(d), "lstm_cell", [r.randn((3, 3)).to(d), r.randn((3, 4)).to(d), r.randn((3, 4)).to(d)] + ps, lc, {}, mode="emulated", **tol)
        r = R("gru_cell/emu/" + dn(d))
        ps = rnn_params(r, 3, 3, 4, d=d)
        add("gru_cell/emu/" + dn(d), "gru_cell", [r.randn((3, 3)).to(d), r.randn((3, 4)).to(d)] + ps, gc, {}, mode="emulated", **tol)


def rnn_cases():
    def attrs(bias, layers, dropout, train, bidir, bf):
        return {"has_biases": bias, "num_layers": layers, "dropout": dropout, "train": train, "bidirectional": bidir, "batch_first": bf}

    def lf(a):
        def f(x, h, c, *ps):
            return torch.lstm(x, [h, c], list(ps), a["has_biases"], a["num_layers"], a["dropout"], a["train"], a["bidirectional"], a["batch_first"])
        return f

    def gf(a):
        def f(x, h, *ps):
            return torch.gru(x, h, list(ps), a["has_biases"], a["num_layers"], a["dropout"], a["train"], a["bidirectional"], a["batch_first"])
        return f
    T, N, I, H = 3, 2, 2, 2
    configs = [("plain", True, 1, False, False, 0), ("nobias", False, 1, False, False, 0), ("bidir", True, 1, True, False, 0),
               ("layers2_bidir", True, 2, True, False, 0), ("batch_first", True, 2, False, True, 0), ("proj", True, 2, True, False, 1)]
    for name, bias, layers, bidir, bf, proj in configs:
        D = 2 if bidir else 1
        for gru in (False, True):
            if gru and proj:
                continue
            op = "gru" if gru else "lstm"
            r = R("%s/%s" % (op, name))
            P = proj or H
            x = r.randn((N, T, I) if bf else (T, N, I))
            a = attrs(bias, layers, 0.0, False, bidir, bf)
            ps = rnn_params(r, 3 if gru else 4, I, H, layers, D, bias, proj)
            if gru:
                add("%s/%s" % (op, name), op, [x, r.randn((layers * D, N, H))] + ps, gf(a), a)
            else:
                add("%s/%s" % (op, name), op, [x, r.randn((layers * D, N, P)), r.randn((layers * D, N, H))] + ps, lf(a), a)
    r = R("rnn/misc")
    a = attrs(True, 1, 0.5, True, False, False)
    ps = rnn_params(r, 4, I, H)
    add("lstm/train_dropout_one_layer", "lstm", [r.randn((T, N, I)), r.randn((1, N, H)), r.randn((1, N, H))] + ps, lf(a), a)
    a = attrs(True, 1, 0.0, False, False, False)
    err("lstm/err/2d", "lstm", [r.randn((T, I)), r.randn((1, H)), r.randn((1, H))] + ps, lf(a), a)
    for d in (f32, bf16):
        for gru in (False, True):
            op = "gru" if gru else "lstm"
            r = R("%s/emu/%s" % (op, dn(d)))
            a = attrs(True, 1, 0.0, False, True, False)
            ps = rnn_params(r, 3 if gru else 4, 3, 4, 1, 2, d=d)
            st = [r.randn((2, 2, 4)).to(d)] * (1 if gru else 2)
            # PyTorch's backward rounds every step at the dtype: gradients
            # of a few units of 1e-3 (bfloat16) or 1e-6 (float32) apart
            tol = {"atol": 1e-2 if d == bf16 else 2e-6, "rtol": 3e-2 if d == bf16 else 1e-4}
            add("%s/emu/%s" % (op, dn(d)), op, [r.randn((3, 2, 3)).to(d)] + st + ps, gf(a) if gru else lf(a), a, mode="emulated", **tol)


# ---------------------------------------------------------------- embedding_bag

def bag_cases():
    op = "embedding_bag"
    MODES = {"sum": 0, "mean": 1, "max": 2}

    def eb(mode, scale=False, last=False, pad=-1):
        def f(w, ix, off, psw):
            p = None if pad == -1 else pad
            if off is None:
                return F.embedding_bag(ix, w, None, scale_grad_by_freq=scale, mode=mode, per_sample_weights=psw, include_last_offset=last, padding_idx=p)
            return torch.embedding_bag(w, ix, off, scale, MODES[mode], False, psw, last, p)[0]
        return f

    def ea(mode, scale=False, last=False, pad=-1):
        return {"mode": mode, "scale_grad_by_freq": scale, "include_last_offset": last, "padding_idx": pad}
    ix = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 1])
    off = torch.tensor([0, 4, 4, 6])
    for mode in ("sum", "mean", "max"):
        r = R("bag/" + mode)
        w = r.randn((10, 3))
        add("bag/%s" % mode, op, [w, ix, off, None], eb(mode), ea(mode))
        add("bag/%s/padding" % mode, op, [w, ix, off, None], eb(mode, pad=4), ea(mode, pad=4))
        add("bag/%s/last_offset" % mode, op, [w, ix, torch.tensor([0, 2, 5, 9]), None], eb(mode, last=True), ea(mode, last=True))
        add("bag/%s/2d" % mode, op, [w, torch.tensor([[1, 2, 3], [4, 4, 0]]), None, None], eb(mode), ea(mode))
        if mode != "max":
            # PyTorch's scaled gradient is not a derivative: at float32, out
            # of the float64 finite-difference checks
            add("bag/%s/scale_grad" % mode, op, [w.to(f32), ix, off, None], eb(mode, scale=True), ea(mode, scale=True), mode="emulated")
            add("bag/%s/scale_grad_pad" % mode, op, [w.to(f32), ix, off, None], eb(mode, scale=True, pad=2), ea(mode, scale=True, pad=2), mode="emulated")
    r = R("bag/misc")
    w = r.randn((10, 3))
    add("bag/per_sample_weights", op, [w, ix, off, r.randn((9,))], eb("sum"), ea("sum"))
    add("bag/per_sample_weights_pad", op, [w, ix, off, r.randn((9,))], eb("sum", pad=2), ea("sum", pad=2))
    add("bag/int32", op, [w, ix.int(), off.int(), None], eb("mean"), ea("mean"))
    add("bag/empty_indices", op, [w, torch.zeros(0, dtype=torch.int64), torch.tensor([0, 0]), None], eb("sum"), ea("sum"))
    err("bag/err/range", op, [w, torch.tensor([1, 10]), torch.tensor([0]), None], eb("sum"), ea("sum"))
    err("bag/err/offset0", op, [w, ix, torch.tensor([1, 3]), None], eb("sum"), ea("sum"))
    err("bag/err/offset_end", op, [w, ix, torch.tensor([0, 12]), None], eb("sum"), ea("sum"))
    err("bag/err/psw_mean", op, [w, ix, off, r.randn((9,))], lambda w, i, o, p: torch.embedding_bag(w, i, o, False, 1, False, p, False, None)[0], ea("mean"))
    err("bag/err/bfloat16", op, [w.to(bf16), ix, off, None], eb("sum"), ea("sum"))
    for d in (f32, f16):
        for mode in ("sum", "mean", "max"):
            r = R("bag/emu/%s/%s" % (mode, dn(d)))
            w = r.randn((12, 4)).to(d)
            psw = r.randn((10,)).to(d) if mode == "sum" else None
            add("bag/emu/%s/%s" % (mode, dn(d)), op, [w, r.randint(0, 12, (10,)), torch.tensor([0, 3, 7]), psw], eb(mode), ea(mode), mode="emulated")


# ---------------------------------------------------------------- ctc_loss

def ctc_cases():
    op = "ctc_loss"

    def cf(il, tl, blank, red, zi):
        def f(lp, tg, ilt, tlt):
            return torch.ctc_loss(lp, tg, il if ilt is None else ilt, tl if tlt is None else tlt, blank, RED[red], zi)
        return f

    def ca(il, tl, blank, red, zi):
        return {"input_lengths": [] if il is None else il, "target_lengths": [] if tl is None else tl, "blank": blank,
                "reduction": red, "zero_infinity": zi}

    # float32 cases: PyTorch's float32 kernel cancels exp(lp) against
    # exp(lcab + nll − lp): absolute deviations of a few 1e-7
    F32 = {"atol": 2e-6, "rtol": 1e-5}

    def lps(r, T, N, C, d=f64):
        return torch.log_softmax(r.randn((T, N, C)) if N else r.randn((T, C)), -1).to(d)
    tg = torch.tensor([[1, 2, 2], [3, 1, 0], [2, 0, 0]])
    il, tl = [6, 5, 4], [3, 2, 1]
    for red in RED:
        for zi in (red == "mean",):
            r = R("ctc/%s/%s" % (red, zi))
            # float64: forward (the gradient is not the derivative with
            # respect to log_probs, so backward cases are float32)
            add("ctc/%s/zi_%s" % (red, zi), op, [lps(r, 6, 3, 4), tg, None, None], cf(il, [3, 2, 1], 0, red, zi), ca(il, tl, 0, red, zi), backward=False)
            add("ctc/%s/zi_%s/f32" % (red, zi), op, [lps(r, 6, 3, 4, f32), tg, None, None], cf(il, tl, 0, red, zi), ca(il, tl, 0, red, zi), **F32)
    r = R("ctc/misc")
    x = lps(r, 6, 3, 4, f32)
    add("ctc/tensor_lengths", op, [x, tg, torch.tensor(il), torch.tensor(tl)], cf(None, None, 0, "mean", False), ca(None, None, 0, "mean", False), **F32)
    add("ctc/concatenated", op, [x, torch.tensor([1, 2, 2, 3, 1, 2]), None, None], cf(il, tl, 0, "sum", False), ca(il, tl, 0, "sum", False), **F32)
    add("ctc/blank_last", op, [x, torch.tensor([[1, 2, 2], [0, 1, 0], [2, 0, 0]]), None, None], cf(il, tl, 3, "none", False), ca(il, tl, 3, "none", False), **F32)
    add("ctc/impossible", op, [x, tg, None, None], cf([6, 1, 4], tl, 0, "none", False), ca([6, 1, 4], tl, 0, "none", False), backward=False)
    add("ctc/impossible_zero_inf", op, [x, tg, None, None], cf([6, 1, 4], tl, 0, "mean", True), ca([6, 1, 4], tl, 0, "mean", True), **F32)
    add("ctc/zero_target", op, [x, tg, None, None], cf(il, [3, 0, 1], 0, "mean", False), ca(il, [3, 0, 1], 0, "mean", False), **F32)
    add("ctc/int32_targets", op, [x, tg.int(), None, None], cf(il, tl, 0, "mean", False), ca(il, tl, 0, "mean", False), **F32)
    add("ctc/unbatched", op, [lps(r, 5, 0, 4, f32), torch.tensor([1, 3]), None, None], cf([5], [2], 0, "none", False), ca([5], [2], 0, "none", False), **F32)
    add("ctc/unbatched_tensor_lengths", op, [lps(r, 5, 0, 4, f32), torch.tensor([1, 3]), torch.tensor(5), torch.tensor(2)],
        cf(None, None, 0, "mean", False), ca(None, None, 0, "mean", False), **F32)
    err("ctc/err/input_length", op, [x, tg, None, None], cf([7, 5, 4], tl, 0, "mean", False), ca([7, 5, 4], tl, 0, "mean", False))
    err("ctc/err/target_length", op, [x, tg, None, None], cf(il, [4, 2, 1], 0, "mean", False), ca(il, [4, 2, 1], 0, "mean", False))
    err("ctc/err/blank", op, [x, tg, None, None], cf(il, tl, 4, "mean", False), ca(il, tl, 4, "mean", False))
    err("ctc/err/batch", op, [x, tg, None, None], cf(il, [3, 2], 0, "mean", False), ca(il, [3, 2], 0, "mean", False))
    r = R("ctc/emu")
    add("ctc/emu/float32", op, [lps(r, 8, 2, 5, f32), torch.tensor([[1, 2, 3], [4, 4, 0]]), None, None], cf([8, 7], [3, 2], 0, "mean", False),
        ca([8, 7], [3, 2], 0, "mean", False), mode="emulated")


if __name__ == "__main__":
    bce_cases()
    kl_cases()
    margin_cases()
    nll_cases()
    cell_cases()
    rnn_cases()
    bag_cases()
    ctc_cases()
    write_group("loss2", [c for c in CASES if c is not None])
    for line in REPORT:
        print(line)
