"""The aten backward references that msprobe dumps as their own records
(fused-ops.md §0.1; sdk/ops/schema.go, schema_aten.go): matmul_backward
through torch's autograd of torch.matmul; npu.fusion_attention_grad through
torch_npu (only where torch_npu imports); the fused operators' *_backward
through torch_npu's aten op on an Ascend NPU and elsewhere through autograd
of ops_npu.py's forward (their defining formulas), or the formula itself
where the reference takes the forward's output (rstd, y). Their outputs are
gradients: they have no backward. Conventions as in ops.py."""

import copy

import torch

from .ops import _npu_fusion_attention_args, _torch_npu
from .ops_npu import OPS as _NPU_OPS
from .ops_npu import _msprobe, _npu, _wide


def _matmul_backward(c):
    grad, a, b = c.inputs
    mask = [bool(m) for m in c.attrs["output_mask"]]
    with torch.enable_grad():  # samples and forward calls may run under no_grad
        x, y = a.detach().requires_grad_(), b.detach().requires_grad_()
        gx, gy = torch.autograd.grad(torch.matmul(x, y), [x, y], grad)
    empty = lambda t: torch.empty(0, dtype=t.dtype, device=t.device)  # noqa: E731
    return [gx if mask[0] else empty(a), gy if mask[1] else empty(b)]


def _npu_fusion_attention_grad(c):
    torch_npu = _torch_npu(c)
    q, k, v, dy, pse, mask = c.inputs
    a, mask, lists = _npu_fusion_attention_args(c, q, mask)
    outs = torch_npu.npu_fusion_attention_grad(
        q, k, v, dy, a["head_num"], a["input_layout"], pse=pse, padding_mask=None, atten_mask=mask,
        scale_value=a["scale"], keep_prob=a["keep_prob"], pre_tockens=a["pre_tockens"], next_tockens=a["next_tockens"],
        inner_precise=a["inner_precise"], prefix=lists["prefix"], actual_seq_qlen=lists["actual_seq_qlen"],
        actual_seq_kvlen=lists["actual_seq_kvlen"], sparse_mode=a["sparse_mode"])
    dq, dk, dv = outs[0], outs[1], outs[2]
    dpse = outs[3] if len(outs) > 3 and pse is not None else torch.empty(0, dtype=q.dtype, device=q.device)
    return [dq, dk, dv, dpse]


def _vjp(fwd, n_in, wrt, npu_call):
    """The backward of ops_npu's forward fwd for the gradient in input 0;
    npu_call(torch_npu, c) is the real aten op on an NPU."""
    def f(c):
        n = _npu(c)
        if n is not None:
            out = npu_call(n, c)
            return list(out) if isinstance(out, (tuple, list)) else [out]
        g = c.inputs[0]
        xs = (list(c.inputs[1:]) + [None] * n_in)[:n_in]
        with torch.enable_grad():  # samples and forward calls may run under no_grad
            leaves = [x.detach().requires_grad_() if i in wrt else x for i, x in enumerate(xs)]
            sub = copy.copy(c)
            sub.inputs = leaves
            y = _NPU_OPS[fwd](sub)
            y = y[0] if isinstance(y, (tuple, list)) else y
            return list(torch.autograd.grad(y, [leaves[i] for i in wrt], g))
    return f


def _rms_norm_backward(c):
    dy, x, gamma, rstd = c.inputs
    n = _npu(c)
    if n is not None:
        dx, dg = n.npu_rms_norm_backward(dy, x, gamma, rstd)[:2]
        return [dx, dg]

    def f(dy, x, gamma, rstd):
        k = gamma.dim()
        dims = tuple(range(x.dim() - k, x.dim()))
        rs = rstd.reshape(x.shape[:x.dim() - k] + (1,) * k)
        cm = (dy * x * gamma * rs).mean(dim=dims, keepdim=True)
        dx = (dy * gamma - x * rs * cm) * rs
        dg = dy * x * rs
        if c.attrs["reduce_dgamma"] and x.dim() > k:  # sum(dim=()) would sum everything
            dg = dg.sum(dim=tuple(range(x.dim() - k)))
        return dx, dg
    return [t.to(x.dtype) for t in _wide_pair(f, dy, x, gamma, rstd)]


def _wide_pair(f, *xs):
    half = (torch.float16, torch.bfloat16)
    ys = [t.float() if isinstance(t, torch.Tensor) and t.dtype in half else t for t in xs]
    return f(*ys)


def _scaled_masked_softmax_backward(c):
    g, y, mask = c.inputs
    ref = _msprobe(c, "npu_scaled_masked_softmax_backward")
    n = _npu(c)
    if n is not None and not ref:
        return [n.npu_scaled_masked_softmax_backward(g, y, mask, c.attrs["scale"], c.attrs["fixed_triu_mask"])]
    if c.attrs["fixed_triu_mask"]:
        s = y.shape[-2:]
        mask = torch.ones(s, dtype=torch.bool, device=y.device).triu(1)
    if ref:
        # msprobe's reference (fused-ops.md §10): in float32, cast to
        # y_grad's dtype
        g32, y32 = g.float(), y.float()
        d = (g32 - (g32 * y32).sum(-1, keepdim=True)) * y32 * c.attrs["scale"]
        return [d.masked_fill(mask, 0.0).to(g.dtype)]

    def f(g, y):
        return (c.attrs["scale"] * y * (g - (g * y).sum(-1, keepdim=True))).masked_fill(mask, 0.0)
    return [_wide(f, g, y)]


OPS = {
    "matmul_backward": _matmul_backward,
    "npu.fusion_attention_grad": _npu_fusion_attention_grad,
    "npu.fast_gelu_backward": _vjp("npu.fast_gelu", 1, [0], lambda n, c: n.npu_fast_gelu_backward(c.inputs[0], c.inputs[1])),
    "npu.swiglu_backward": _vjp("npu.swiglu", 1, [0], lambda n, c: n.npu_swiglu_backward(c.inputs[0], c.inputs[1], c.attrs["dim"])),
    "npu.rotary_mul_backward": _vjp("npu.rotary_mul", 3, [0, 1, 2],
                                    lambda n, c: n.npu_rotary_mul_backward(*c.inputs, rotary_mode=c.attrs["rotary_mode"])),
    "npu.linear_backward": _vjp("npu.linear", 3, [0, 1], lambda n, c: n.npu_linear_backward(*c.inputs)),
    "npu.rms_norm_backward": _rms_norm_backward,
    "npu.scaled_masked_softmax_backward": _scaled_masked_softmax_backward,
}


def _s_matmul_backward(dt):
    if not dt.is_floating_point:
        return None
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64).to(dt)
    b = torch.tensor([1.0, 1.0], dtype=torch.float64).to(dt)
    g = torch.tensor([1.0, 2.0], dtype=torch.float64).to(dt)
    return [g, a, b], {"output_mask": [1, 1]}


def _s_fusion_attention_grad(dt):
    if not dt.is_floating_point:
        return None
    gen = torch.Generator().manual_seed(0)
    q, k, v, dy = (torch.rand((1, 4, 32), generator=gen, dtype=torch.float64).to(dt) for _ in range(4))
    return [q, k, v, dy, None, None], {"head_num": 2, "input_layout": "BSH", "scale": 0.25}


def _s_floats(make):
    def s(dt):
        return make(dt) if dt in (torch.float64, torch.float32, torch.float16, torch.bfloat16) else None
    return s


def _v(dt, *rows):
    return torch.tensor(rows, dtype=torch.float64).to(dt)


SAMPLES = {
    "matmul_backward": _s_matmul_backward,
    "npu.fusion_attention_grad": _s_fusion_attention_grad,
    "npu.fast_gelu_backward": _s_floats(lambda dt: ([_v(dt, 1.0, -0.5), _v(dt, 0.5, 2.0)], {})),
    "npu.swiglu_backward": _s_floats(lambda dt: ([_v(dt, 1.0), _v(dt, 0.5, 2.0)], {"dim": -1})),
    "npu.rotary_mul_backward": _s_floats(lambda dt: ([_v(dt, 1.0, -0.5), _v(dt, 0.5, 2.0), _v(dt, 0.25, 1.0), _v(dt, 1.5, 0.5)],
                                                     {"rotary_mode": "half"})),
    "npu.linear_backward": _s_floats(lambda dt: ([_v(dt, [1.0]), _v(dt, [0.5, 2.0]), _v(dt, [1.5, 0.25])], {})),
    "npu.rms_norm_backward": _s_floats(lambda dt: ([_v(dt, 1.0, -0.5), _v(dt, 0.5, 2.0), _v(dt, 1.0, 1.5), _v(dt, 0.7)],
                                                   {"reduce_dgamma": True})),
    "npu.scaled_masked_softmax_backward": _s_floats(lambda dt: ([_v(dt, 1.0, -0.5), _v(dt, 0.25, 0.75), torch.tensor([False, True])],
                                                                {"scale": 1.0, "fixed_triu_mask": False})),
}

BACKWARD = set()
