"""Golden cases that give every canonical op (but echo) cases at float32,
float16 and bfloat16: group "dtypes".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_dtypes.py

writes golden/dtypes.json.gz (format: golden_lib.py). For every op and
dtype there is a small forward case, "dtypes/<op>/<dtype>", and where the op is
differentiable a backward case, "dtypes/<op>/<dtype>/bwd" (its forward outputs are
checked too). Each is computed by real PyTorch 1.13 on the CPU at that
dtype. Where PyTorch 1.13's CPU has no kernel at the dtype (most float16
kernels, some backward kernels), the case is computed in float32 and its
outputs and gradients are rounded to the dtype, as PyTorch's own float16
kernels compute in float32; the case name then ends in "_via_f32". The two
torch_npu ops have no PyTorch kernel at all: their cases use the float64
reference formulas of gen_golden_nn.py (rms_norm_ref, here with x cast
once) and gen_golden_attention.py, rounded to the dtype, and end in
"_ref_f64".

Cases are mode "emulated" (PyTorch at a narrow dtype). Inputs and
gradient outputs are chosen well conditioned: no sums that cancel, no
output near 0 made of larger terms, tanh/sigmoid inputs within [-1, 1],
backward cases without broadcasting. PyTorch's narrow kernels round
intermediates (bfloat16 matmul, layer_norm, batch_norm, softmax backward,
gradients of broadcast inputs, ...), and on cancelling sums they are then
many ulp off the correctly rounded result (62 ulp for a bfloat16 matmul
backward with random gradients); the cases check that a device runs every
op at every narrow dtype with the right result dtype, shape and values, not
PyTorch's rounding of intermediates. The script checks that property: it
recomputes every case in float64 and stops if PyTorch's result is outside
sdk/devicetest's default tolerance of the float64 result rounded to the
dtype (it prints the deviation of every case).
"""

import math

import torch
import torch.nn.functional as F

from gen_golden_attention import attrs as attn_attrs
from gen_golden_attention import fusion_attention
from golden_lib import Rand, case, write_group

torch.set_default_dtype(torch.float64)
f64 = torch.float64
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
# torch.testing.assert_close's defaults: sdk/devicetest's DefaultTolerance.
DEFAULT_TOL = {torch.float32: (1.3e-6, 1e-5), torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5)}


def R(name):
    return Rand("dtypes/" + name)


# Ops whose backward is formed from the forward output rounded to the dtype
# (PyTorch's formulas, and a device's that keeps its output), with how many
# units in the last place of that rounding the gradient can inherit:
# rsqrt −½·g·y³ (3), reciprocal −g·y² (2), exp g·y (1), sqrt g/2y (1), tanh
# g·(1−y²) (≤ 3 for |x| ≤ 1), sigmoid g·y·(1−y) (2), softmax y·(g − Σg·y)
# (2), log_softmax and cross_entropy through eʸ (1, 2), pow's exponent
# gradient g·y·log(x) (1). Their float16 and bfloat16 backward cases carry
# ulp = that + 1, so that a device whose output is correctly rounded and
# PyTorch, whose output may be 1 ulp off, both pass (at bfloat16 PyTorch's
# rsqrt backward is 4 ulp from the CPU plugin's on such an element).
GRAD_FROM_OUTPUT = {"rsqrt": 3, "reciprocal": 2, "exp": 1, "sqrt": 1, "tanh": 3, "sigmoid": 2, "softmax": 2,
                    "log_softmax": 1, "cross_entropy": 2, "pow": 1}


# Each spec: (op, make_inputs(r, dtype) -> list, fn, attrs, differentiable,
# extra case() keywords). make_inputs builds float64 values and casts the
# floating ones with .to(dtype), so every dtype sees the same values up to
# rounding.

def unary(lo=-1.5, hi=1.5):
    return lambda r, d: [r.rand((2, 3), f64, lo, hi).to(d)]


def signed_away_from_zero(r, shape, lo, hi):
    mag = r.rand(shape, f64, lo, hi)
    sign = torch.where(r.bool(shape), 1.0, -1.0)
    return mag * sign


def binary(lo=-1.5, hi=1.5):
    # Same shapes: the gradient of a broadcast input is a sum, which
    # PyTorch forms from products already rounded to the dtype.
    return lambda r, d: [r.rand((2, 3), f64, lo, hi).to(d), r.rand((2, 3), f64, lo, hi).to(d)]


def pow_inputs(r, d):
    return [r.rand((2, 3), f64, 0.5, 2.0).to(d), r.rand((2, 3), f64, -1.5, 1.5).to(d)]


def div_inputs(r, d):
    return [r.rand((2, 3), f64, -1.5, 1.5).to(d), signed_away_from_zero(r, (2, 3), 0.5, 2.0).to(d)]


def distinct(r, shape, d):
    """Values spaced well apart (no ties at any dtype), shuffled."""
    n = 1
    for s in shape:
        n *= s
    vals = torch.linspace(-2.0, 2.0, n, dtype=f64)[torch.randperm(n, generator=r.g)]
    return vals.reshape(shape).to(d)


def centred(r, channels, d):
    """[4, channels] values whose channel means are exactly 0 at any dtype:
    a permutation of (-1.5, -0.5, 0.5, 1.5) times a per-channel scale."""
    cols = []
    for _ in range(channels):
        p = torch.randperm(4, generator=r.g)
        cols.append(torch.tensor([-1.5, -0.5, 0.5, 1.5], dtype=f64)[p] * r.rand((), f64, 0.5, 1.0))
    return torch.stack(cols, 1).to(d)


def one_hot(r, rows, cols, d):
    g = torch.zeros((rows, cols), dtype=f64)
    g[torch.arange(rows), torch.randint(0, cols, (rows,), generator=r.g)] = 1.0
    return g.to(d)


def unit_rows(r, rows, cols, d):
    """rows × cols of ±1, half of each sign per row."""
    base = torch.tensor([-1.0, 1.0] * (cols // 2), dtype=f64)
    return torch.stack([base[torch.randperm(cols, generator=r.g)] for _ in range(rows)]).to(d)


def ln_grad(r, d, inputs):
    """Gradient outputs for the layer_norm cases (see SPECS)."""
    x, w = inputs[0].to(f64), inputs[1].to(f64)
    u = torch.zeros_like(x)
    pattern = torch.tensor([1.5, -0.5, -1.0], dtype=f64)
    for sign in (-1.0, 1.0):
        idx = (x[0] == sign).nonzero().flatten()
        u[0, idx] = pattern[torch.randperm(3, generator=r.g)] * r.rand((), f64, 0.5, 1.0)
    return [(u / w).to(d)]


def rms_norm_ref(x, gamma, eps=1e-6):
    """gen_golden_nn.py's npu.rms_norm reference with x cast to float64
    once, so that autograd rounds x's gradient to the dtype once (two
    casts make it add two rounded parts at the dtype)."""
    xd = x.double()
    dims = tuple(range(x.dim() - gamma.dim(), x.dim()))
    rstd = torch.rsqrt(xd.pow(2).mean(dims, keepdim=True) + eps)
    y = (xd * rstd * gamma.double()).to(x.dtype)
    return y, rstd.to(torch.float32 if x.dtype != torch.float64 else torch.float64)


def bn_grad(r, d, inputs):
    """Gradient outputs for the batch_norm cases: per channel, with x a
    permutation of (-1.5, -0.5, 0.5, 1.5)·s, g = c·(ρ + 0.2 + 0.2·x/s)
    where ρ is +1 at ±1.5·s and -1 at ±0.5·s. ρ is orthogonal to 1 and x,
    so dx = w·invstd·(g − mean(g) − x̂·mean(g·x̂)) = w·invstd·c·ρ has no
    element near 0 (PyTorch's bfloat16 backward rounds intermediates; with
    random gradient outputs it is many ulp off on cancelling elements)."""
    x = inputs[0].to(f64)
    s = x.abs().max(0).values
    rho = torch.where(x.abs() > s * 0.75, 1.0, -1.0)
    c = r.rand((x.shape[1],), f64, 0.5, 1.0)
    return [(c * (rho + 0.2 + 0.2 * x / s)).to(d)]


def conv(x, w, b):
    return torch.convolution(x, w, b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)


def bn_train(x, rm, rv, w, b):
    return F.batch_norm(x, rm, rv, w, b, True)


# Backward cases of ops whose gradients are sums of products get positive
# gradient outputs (with their positive inputs: no cancelling sums).
POS = {"positive_grads": True}

SPECS = [
    # elementwise unary
    ("neg", unary(), torch.neg, {}, True, {}),
    ("abs", lambda r, d: [signed_away_from_zero(r, (2, 3), 0.2, 1.5).to(d)], torch.abs, {}, True, {}),
    ("exp", unary(), torch.exp, {}, True, {}),
    ("log", unary(0.5, 2.0), torch.log, {}, True, {}),
    ("sqrt", unary(0.5, 2.0), torch.sqrt, {}, True, {}),
    ("rsqrt", unary(0.5, 2.0), torch.rsqrt, {}, True, {}),
    ("reciprocal", lambda r, d: [signed_away_from_zero(r, (2, 3), 0.5, 2.0).to(d)], torch.reciprocal, {}, True, {}),
    # Within [-1, 1]: the backward works from the output y rounded to the
    # dtype (1 − y², y·(1 − y)), which loses precision as y nears ±1.
    ("tanh", unary(-1.0, 1.0), torch.tanh, {}, True, {}),
    ("sigmoid", unary(-1.0, 1.0), torch.sigmoid, {}, True, {}),
    ("relu", lambda r, d: [signed_away_from_zero(r, (2, 3), 0.2, 1.5).to(d)], torch.relu, {}, True, {}),
    ("silu", unary(0.2, 1.5), F.silu, {}, True, {}),
    ("sin", unary(), torch.sin, {}, True, {}),
    ("cos", unary(0.2, 1.2), torch.cos, {}, True, {}),
    ("gelu", unary(0.2, 1.5), F.gelu, {}, True, {}),
    # elementwise binary and selection
    ("add", binary(), torch.add, {}, True, {}),
    ("sub", lambda r, d: [r.rand((2, 3), f64, 0.5, 1.5).to(d), r.rand((2, 3), f64, -1.5, -0.5).to(d)], torch.sub, {}, True, {}),
    ("mul", binary(), torch.mul, {}, True, {}),
    ("div", div_inputs, torch.div, {}, True, {}),
    ("pow", pow_inputs, torch.pow, {}, True, {}),
    ("maximum", lambda r, d: [distinct(r, (2, 3), d), distinct(r, (2, 3), d) + 0.1], torch.maximum, {}, True, {}),
    ("minimum", lambda r, d: [distinct(r, (2, 3), d), distinct(r, (2, 3), d) + 0.1], torch.minimum, {}, True, {}),
    ("clamp", lambda r, d: [distinct(r, (2, 3), d) + 0.05, -0.5, 0.5], lambda x, lo, hi: torch.clamp(x, lo, hi), {}, True, {}),
    ("where", lambda r, d: [r.bool((2, 3)), r.rand((2, 3), f64, -1.5, 1.5).to(d), r.rand((2, 3), f64, -1.5, 1.5).to(d)],
     torch.where, {}, True, {}),
    ("masked_fill", lambda r, d: [r.rand((2, 3), f64, -1.5, 1.5).to(d), r.bool((2, 3)), 0.75],
     lambda x, m, v: x.masked_fill(m, v), {}, True, {}),
    # reductions (positive values: no cancelling sums)
    ("sum", lambda r, d: [r.rand((3, 5), f64, 0.5, 1.5).to(d)], lambda x: torch.sum(x, 1), {"dim": [1]}, True, {}),
    ("mean", lambda r, d: [r.rand((3, 5), f64, 0.5, 1.5).to(d)], lambda x: torch.mean(x, 1), {"dim": [1]}, True, {}),
    ("max", lambda r, d: [distinct(r, (3, 4), d)], torch.max, {}, True, {}),
    ("min", lambda r, d: [distinct(r, (3, 4), d)], torch.min, {}, True, {}),
    ("max_dim", lambda r, d: [distinct(r, (3, 4), d)], lambda x: torch.max(x, 1), {"dim": 1}, True, {}),
    ("min_dim", lambda r, d: [distinct(r, (3, 4), d)], lambda x: torch.min(x, 1), {"dim": 1}, True, {}),
    ("cumsum", lambda r, d: [r.rand((2, 4), f64, 0.5, 1.5).to(d)], lambda x: torch.cumsum(x, 1), {"dim": 1}, True, {}),
    # shape
    ("cat", lambda r, d: [r.rand((2, 3), f64, -1.5, 1.5).to(d), r.rand((1, 3), f64, -1.5, 1.5).to(d)],
     lambda a, b: torch.cat([a, b], 0), {"dim": 0}, True, {}),
    ("stack", lambda r, d: [r.rand((2, 3), f64, -1.5, 1.5).to(d), r.rand((2, 3), f64, -1.5, 1.5).to(d)],
     lambda a, b: torch.stack([a, b], 1), {"dim": 1}, True, {}),
    ("split_with_sizes", lambda r, d: [r.rand((3, 4), f64, -1.5, 1.5).to(d)],
     lambda x: torch.split_with_sizes(x, [1, 3], 1), {"split_sizes": [1, 3], "dim": 1}, True, {}),
    ("transpose", lambda r, d: [r.rand((2, 3, 4), f64, -1.5, 1.5).to(d)], lambda x: torch.transpose(x, 0, 2),
     {"dim0": 0, "dim1": 2}, True, {}),
    ("permute", lambda r, d: [r.rand((2, 3, 4), f64, -1.5, 1.5).to(d)], lambda x: x.permute(1, 2, 0), {"dims": [1, 2, 0]}, True, {}),
    ("reshape", lambda r, d: [r.rand((2, 3, 4), f64, -1.5, 1.5).to(d)], lambda x: x.reshape(4, -1), {"shape": [4, -1]}, True, {}),
    ("clone", unary(), torch.clone, {}, True, {}),
    ("ones_like", unary(), torch.ones_like, {}, False, {"requires_grad": [False]}),
    # Eval dropout returns its input itself; the clone gives the output a
    # gradient function (the gradient is the identity's).
    ("dropout", unary(), lambda x: F.dropout(x.clone(), 0.5, False), {"p": 0.5, "train": False}, True, {}),
    # nn
    # One-hot gradient outputs: dx = y·(g − Σg·y) (log_softmax: g − eʸ·Σg)
    # then has no cancelling difference (PyTorch's backward works from the
    # output rounded to the dtype).
    ("softmax", lambda r, d: [r.rand((3, 5), f64, -1.5, 1.5).to(d)], lambda x: torch.softmax(x, 1), {"dim": 1}, True,
     {"grad_outputs": lambda r, d, _: [one_hot(r, 3, 5, d)]}),
    ("log_softmax", lambda r, d: [r.rand((3, 5), f64, -1.5, 1.5).to(d)], lambda x: torch.log_softmax(x, 1), {"dim": 1}, True,
     {"grad_outputs": lambda r, d, _: [one_hot(r, 3, 5, d)]}),
    ("matmul", lambda r, d: [r.rand((2, 3, 4), f64, 0.2, 1.0).to(d), r.rand((4, 2), f64, 0.2, 1.0).to(d)], torch.matmul, {}, True, POS),
    ("mm", lambda r, d: [r.rand((3, 4), f64, 0.2, 1.0).to(d), r.rand((4, 2), f64, 0.2, 1.0).to(d)], torch.mm, {}, True, POS),
    ("bmm", lambda r, d: [r.rand((2, 3, 4), f64, 0.2, 1.0).to(d), r.rand((2, 4, 2), f64, 0.2, 1.0).to(d)], torch.bmm, {}, True, POS),
    ("linear", lambda r, d: [r.rand((2, 4), f64, 0.2, 1.0).to(d), r.rand((3, 4), f64, 0.2, 1.0).to(d), r.rand((3,), f64, 0.2, 1.0).to(d)],
     F.linear, {}, True, POS),
    ("addmm", lambda r, d: [r.rand((3,), f64, 0.2, 1.0).to(d), r.rand((2, 4), f64, 0.2, 1.0).to(d), r.rand((4, 3), f64, 0.2, 1.0).to(d)],
     torch.addmm, {}, True, POS),
    # One row of ±1: mean 0 and variance 1 exactly, so that the mean and
    # rstd PyTorch 1.13 saves at the input dtype for its backward are exact;
    # a bias larger than the weight: no output near 0 (PyTorch's bfloat16
    # forward rounds x·rstd·w before adding the bias); gradient outputs for
    # which dx = rstd·(w·g − mean over the sign group of w·g) has no element
    # near 0 (the bfloat16 backward rounds intermediates; with random ones
    # it is 3 ulp off on a cancelling element).
    ("layer_norm", lambda r, d: [unit_rows(r, 1, 6, d), r.rand((6,), f64, 0.5, 1.0).to(d), r.rand((6,), f64, 2.0, 2.5).to(d)],
     lambda x, w, b: F.layer_norm(x, [6], w, b), {"normalized_shape": [6]}, True, {"grad_outputs": ln_grad}),
    ("embedding", lambda r, d: [r.rand((5, 3), f64, -1.5, 1.5).to(d), torch.tensor([0, 3, 3, 1])],
     lambda w, i: F.embedding(i, w), {}, True, {}),
    ("convolution", lambda r, d: [r.rand((1, 2, 4, 4), f64, 0.2, 1.0).to(d), r.rand((3, 2, 3, 3), f64, 0.2, 1.0).to(d),
                                  r.rand((3,), f64, 0.2, 1.0).to(d)],
     conv, {"stride": [1, 1], "padding": [1, 1], "dilation": [1, 1], "groups": 1}, True, POS),
    ("max_pool2d", lambda r, d: [distinct(r, (1, 2, 4, 4), d)], lambda x: F.max_pool2d(x, 2, 2),
     {"kernel_size": [2, 2], "stride": [2, 2]}, True, {}),
    # Windows that do not overlap: PyTorch accumulates the bfloat16 input
    # gradient of overlapping windows at bfloat16.
    ("adaptive_avg_pool2d", lambda r, d: [r.rand((1, 2, 4, 6), f64, 0.2, 1.5).to(d)], lambda x: F.adaptive_avg_pool2d(x, (2, 3)),
     {"output_size": [2, 3]}, True, {}),
    ("cross_entropy", lambda r, d: [r.rand((4, 5), f64, -1.5, 1.5).to(d), torch.tensor([0, 4, 2, 1]), None],
     lambda x, t, w: F.cross_entropy(x, t, w), {}, True, {}),
    ("nll_loss", lambda r, d: [r.rand((4, 5), f64, -2.0, -0.5).to(d), torch.tensor([0, 4, 2, 1]), None],
     lambda x, t, w: F.nll_loss(x, t, w), {}, True, {}),
    # Channels of mean 0 and a bias larger than the weight: no output near 0
    # (PyTorch's bfloat16 forward folds mean, invstd, weight and bias into
    # two bfloat16 factors before x·a + b).
    ("batch_norm", lambda r, d: [centred(r, 3, d), None, None, r.rand((3,), f64, 0.5, 1.0).to(d), r.rand((3,), f64, 2.5, 3.0).to(d)],
     bn_train, {"training": True}, True, {"grad_outputs": bn_grad}),
]

# The torch_npu ops: float64 reference formulas rounded to the dtype.
REF_SPECS = [
    ("npu.rms_norm", lambda r, d: [r.rand((2, 5), f64, 0.5, 1.5).to(d), r.rand((5,), f64, 0.5, 1.5).to(d)],
     rms_norm_ref, {}, True, {"grad_outputs": lambda r, d, _: [r.randn((2, 5)).to(d), None]}),
    ("npu.fusion_attention",
     lambda r, d: [r.rand((1, 3, 4), f64, -1.0, 1.0).to(d), r.rand((1, 3, 4), f64, -1.0, 1.0).to(d),
                   r.rand((1, 3, 4), f64, -1.0, 1.0).to(d), None, None],
     fusion_attention("BSH", 2, 0.5), attn_attrs("BSH", 2, 0.5), True,
     {"grad_outputs": lambda r, d, _: [r.randn((1, 3, 4)).to(d), None, None]}),
]


def via_f32(fn, d):
    """fn computed in float32, floating outputs rounded to d."""
    def wrapped(*xs):
        args = [x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        out = fn(*args)
        single = isinstance(out, torch.Tensor)
        outs = (out,) if single else tuple(out)
        outs = tuple(o.to(d) if o.dtype == torch.float32 else o for o in outs)
        return outs[0] if single else outs
    return wrapped


def to64(v):
    if isinstance(v, torch.Tensor) and v.dtype.is_floating_point:
        return v.to(f64)
    return v


def run_fn(fn, inputs, rg, grad_outputs, backward):
    """fn(*inputs) in torch as golden_lib.case runs it: the outputs and one
    gradient per input (None where there is none)."""
    xs = []
    for v, g in zip(inputs, rg):
        if isinstance(v, torch.Tensor):
            v = v.detach().clone().requires_grad_(bool(g))
        xs.append(v)
    with torch.enable_grad():
        out = fn(*xs)
    outs = (out,) if isinstance(out, torch.Tensor) else tuple(out)
    grads = [None] * len(xs)
    if backward:
        use = [i for i, (o, g) in enumerate(zip(outs, grad_outputs)) if g is not None and o.grad_fn is not None]
        gin = [i for i, x in enumerate(xs) if isinstance(x, torch.Tensor) and x.requires_grad]
        if use and gin:
            got = torch.autograd.grad([outs[i] for i in use], [xs[i] for i in gin], [grad_outputs[i] for i in use],
                                      allow_unused=True)
            for i, g in zip(gin, got):
                grads[i] = g
    return [o.detach() for o in outs], grads


def deviation(got, exact):
    """PyTorch's result against the float64 one rounded to got's dtype:
    (max |err| / default tolerance, max |err| in units in the last place)."""
    if got is None or exact is None or got.numel() == 0:
        return 0.0, 0.0
    if not got.dtype.is_floating_point:
        return (0.0, 0.0) if torch.equal(got, exact.to(got.dtype)) else (math.inf, math.inf)
    rtol, atol = DEFAULT_TOL.get(got.dtype, (1e-7, 1e-7))
    g, w = got.to(f64), exact.to(got.dtype).to(f64)
    fi = torch.finfo(got.dtype)
    ulp = torch.exp2(torch.floor(torch.log2(w.abs().clamp(min=fi.tiny)))) * fi.eps
    err = (g - w).abs()
    return (err / (atol + rtol * w.abs())).max().item(), (err / ulp).max().item()


def gen():
    cs = []
    report, bad = [], []
    for specs, ref in ((SPECS, False), (REF_SPECS, True)):
        for op, mk, fn, attrs, diff, kw in specs:
            for dn, d in DTYPES.items():
                for backward in ([False, True] if diff else [False]):
                    base = "dtypes/%s/%s%s" % (op, dn, "/bwd" if backward else "")
                    inputs = mk(R(base), d)
                    rg = kw.get("requires_grad")
                    if rg is None:
                        rg = [backward and isinstance(v, torch.Tensor) and v.dtype.is_floating_point for v in inputs]

                    def grad_outputs(outs):
                        if not backward:
                            return None
                        if "grad_outputs" in kw:
                            return kw["grad_outputs"](R(base + "#grad"), d, inputs)
                        gr = R(base + "#grad")
                        if kw.get("positive_grads"):
                            return [gr.rand(o.shape, f64, 0.5, 1.5).to(o.dtype) if o.dtype.is_floating_point else None for o in outs]
                        return [gr.randn(o.shape, f64).to(o.dtype) if o.dtype.is_floating_point else None for o in outs]

                    name, f, how = base + ("_ref_f64" if ref else ""), fn, "ref_f64" if ref else "torch"
                    try:
                        outs, _ = run_fn(f, inputs, rg, None, False)
                        run_fn(f, inputs, rg, grad_outputs(outs), backward)
                    except RuntimeError as e:
                        if ref:
                            raise
                        name, f, how = base + "_via_f32", via_f32(fn, d), "via_f32 (%s)" % str(e).splitlines()[0]
                        outs, _ = run_fn(f, inputs, rg, None, False)
                    go = grad_outputs(outs)
                    ulp = None
                    if backward and d != torch.float32 and op in GRAD_FROM_OUTPUT:
                        ulp = GRAD_FROM_OUTPUT[op] + 1
                    cs.append(case(name, op, inputs, f, attrs=attrs, requires_grad=rg, backward=backward,
                                   mode="emulated", grad_outputs=go, ulp=ulp))
                    touts, tgrads = run_fn(f, inputs, rg, go, backward)
                    eouts, egrads = run_fn(fn, [to64(v) for v in inputs], rg, None if go is None else [to64(g) for g in go], backward)
                    worst, worst_ulp = 0.0, 0.0
                    for got, want in list(zip(touts, eouts)) + list(zip(tgrads, egrads)):
                        r, u = deviation(got, want)
                        worst, worst_ulp = max(worst, r), max(worst_ulp, u)
                    report.append("%-44s %.3f× default tolerance, %.2f ulp from the correctly rounded result  %s"
                                  % (name, worst, worst_ulp, how))
                    if worst > 1:
                        bad.append(report[-1])
    print("\n".join(report))
    if bad:
        raise AssertionError("PyTorch outside the default tolerance of the correctly rounded result:\n" + "\n".join(bad))
    return cs


if __name__ == "__main__":
    write_group("dtypes", gen())
