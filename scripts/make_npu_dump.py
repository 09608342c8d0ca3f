#!/usr/bin/python3
"""Writes an msprobe L1 tensor-mode dump that calls each fused torch_npu
operator of issue 13 once per dtype (--dtypes, default float32):
- NPU.npu_swiglu, npu_rotary_mul, npu_fast_gelu, npu_mish,
  npu_scaled_masked_softmax, npu_confusion_transpose, npu_linear,
  npu_layer_norm_eval and npu_sort_v2, each followed by the backward of
  sum(out * R) (R fixed random), recorded as msprobe does;
- NPU.npu_rms_norm (y and rstd), npu_group_norm_silu and
  npu_moe_gating_top_k_softmax: no backward (run_ut runs none for a tuple
  output);
- NPU.npu_apply_adam and npu_apply_adam_w: var, m, v updated in place
  through out= (dumped before the call);
- NPU.npu_fusion_attention in ten calls of their own dtypes (float32 and
  bfloat16): layouts BSH, SBH, BSND, BNSD and TND (actual_seq_qlen/kvlen),
  sparse modes 0 with and without atten_mask, 2, 3, 4, 6 (prefix) and 7/8
  (TND), MHA and GQA, one with a pse, each followed by the backward of
  attention_out only (grad_index 0);
- the aten backward records msprobe checks as their own APIs (fused-ops.md
  §0.1), under the prefix "Aten": npu_fusion_attention_grad,
  matmul_backward and npu_{fast_gelu,swiglu,rotary_mul,linear,rms_norm,
  scaled_masked_softmax,confusion_transpose}_backward, whose outputs are
  gradients (no backward).

The recorder and the writer are scripts/make_every_api_dump.py's
(TensorRecorder: msprobe's hooks, data_name + .pt files, dump.json with task
"tensor", level "L1"); the operators are hooked under the "NPU" prefix.
With torch_npu importable (an Ascend host, --device npu) the real kernels run
(the aten records through torch.ops.npu; untested here: no Ascend host).
Without it each operator is its defining formula (fused-ops.md, torch_npu's
documented semantics): the first eight computed in float32 from the inputs,
npu_fusion_attention the float64 reference of
sdk/devicetest/testdata/gen_golden_attention.py (torch_npu's official
masks), the others and the aten records float64 formulas (the gradients:
torch.autograd of the forward formulas), each output cast once to its
dtype. Each differentiable operator is one autograd node, as torch_npu's
fused kernels are, so its backward record holds the gradients of the API's
floating tensor arguments (npu_fusion_attention: dq, dk, dv, dpse for the
gradient of attention_out), as msprobe records them.

    /usr/bin/python3 scripts/make_npu_dump.py --out /tmp/npu-dump
    go run ./host/cmd/probe run --framework pytorch --api-info /tmp/npu-dump/dump.json -o /tmp/npu-dump/out
"""
import argparse
import contextlib
import math
import os
import sys
import types
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "sdk", "devicetest", "testdata"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import make_every_api_dump as every  # noqa: E402  (TensorRecorder, and make_dumps on its path)

_default = torch.get_default_dtype()
import gen_golden_attention as gat  # noqa: E402  (sets float64 as the default dtype)
torch.set_default_dtype(_default)

DEFAULT_OUT = "/tmp/probe-npu-dump"
OPS = ("npu_swiglu", "npu_rotary_mul", "npu_fast_gelu", "npu_mish", "npu_scaled_masked_softmax",
       "npu_confusion_transpose", "npu_linear", "npu_layer_norm_eval")
# operators written as one autograd node, float64 inside
NODE_OPS = ("npu_rms_norm", "npu_fusion_attention", "npu_sort_v2")
# operators without a backward, float64 inside
PLAIN_OPS = ("npu_apply_adam", "npu_apply_adam_w", "npu_group_norm_silu", "npu_moe_gating_top_k_softmax")
# the aten backward records (fused-ops.md §0.1), prefix "Aten"
ATEN_OPS = ("npu_fusion_attention_grad", "matmul_backward", "npu_fast_gelu_backward", "npu_swiglu_backward",
            "npu_rotary_mul_backward", "npu_linear_backward", "npu_rms_norm_backward",
            "npu_scaled_masked_softmax_backward", "npu_confusion_transpose_backward")


def _fused(fn, wide):
    """fn as one fused kernel: one autograd node (_Node) over its floating
    tensor arguments, positional and keyword, computed with them raised to
    wide (None: as they are) and the result cast once to the first
    argument's dtype; its backward record holds the gradient of each."""
    def wrapped(*args, **kwargs):
        dt = args[0].dtype
        slots = [(True, i) for i, v in enumerate(args) if _floating(v)] + \
                [(False, k) for k, v in kwargs.items() if _floating(v)]

        def f(*ts):
            a, kw = list(args), dict(kwargs)
            for (pos, key), x in zip(slots, ts):
                x = x if wide is None else x.to(wide)
                if pos:
                    a[key] = x
                else:
                    kw[key] = x
            return (fn(*a, **kw).to(dt),)
        return _Node.apply((f, 1), *[args[k] if pos else kwargs[k] for pos, k in slots])[0]
    wrapped.__name__ = fn.__name__
    return wrapped


def _floating(v):
    return isinstance(v, torch.Tensor) and v.is_floating_point()


def _rot(x, mode):
    if mode == "half":
        x1, x2 = x.chunk(2, -1)
        return torch.cat((-x2, x1), -1)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((-x2, x1), -1).reshape(x.shape)


def npu_swiglu(input, dim=-1):
    a, b = input.chunk(2, dim=dim)
    return a * torch.sigmoid(a) * b


def npu_rotary_mul(input, r1, r2, rotary_mode="half"):
    return r1 * input + r2 * _rot(input, rotary_mode)


def npu_fast_gelu(input):
    return input * torch.sigmoid(1.702 * input)


def npu_mish(self):
    return self * torch.tanh(torch.log1p(torch.exp(self)))


def npu_scaled_masked_softmax(x, mask, scale=1.0, fixed_triu_mask=False):
    if fixed_triu_mask:
        s1, s2 = x.shape[-2:]
        mask = torch.ones((s1, s2), dtype=torch.bool).triu(1)
    return torch.softmax((x * scale).masked_fill(mask, -10000.0), -1)


def npu_confusion_transpose(self, perm, shape, transpose_first):
    if transpose_first:
        return self.permute(*perm).reshape(shape)
    return self.reshape(shape).permute(*perm)


def npu_linear(input, weight, bias=None):
    return F.linear(input, weight, bias)


def npu_layer_norm_eval(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


@contextlib.contextmanager
def _f64_default():
    """gen_golden_attention's functions build masks in the default dtype,
    which it sets to float64."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


class _Node(torch.autograd.Function):
    """One autograd node around fn(*tensors) (a fused kernel's): its
    backward is autograd through fn, for the gradients of the outputs that
    are differentiable (the first n_diff), so a backward hook sees the
    gradients of the API's tensor inputs."""

    @staticmethod
    def forward(ctx, box, *ts):
        fn, n_diff = box
        with torch.enable_grad():
            leaves = [t.detach().requires_grad_(t.requires_grad) for t in ts]
            outs = fn(*leaves)
        ctx.saved = (leaves, outs[:n_diff])
        ctx.set_materialize_grads(False)
        res = tuple(o.detach() for o in outs)
        ctx.mark_non_differentiable(*res[n_diff:])
        return res

    @staticmethod
    def backward(ctx, *gouts):
        leaves, outs = ctx.saved
        pairs = [(o, g) for o, g in zip(outs, gouts) if g is not None and o.requires_grad]
        want = [x for x in leaves if x.requires_grad]
        if not pairs or not want:
            return (None,) * (1 + len(leaves))
        gs = iter(torch.autograd.grad([o for o, _ in pairs], want, [g for _, g in pairs], allow_unused=True))
        return (None,) + tuple(next(gs) if x.requires_grad else None for x in leaves)


def npu_rms_norm(self, gamma, epsilon=1e-06):
    """(y, rstd) over gamma's trailing dims (fused-ops.md §8), float64 inside,
    y cast once to self's dtype, rstd float32."""
    def f(x, g):
        dims = tuple(range(x.dim() - g.dim(), x.dim()))
        xd = x.double()
        rstd = torch.rsqrt(xd.pow(2).mean(dim=dims, keepdim=True) + epsilon)
        return (xd * rstd * g.double()).to(x.dtype), rstd.float()
    return _Node.apply((f, 1), self, gamma)


def npu_fusion_attention(query, key, value, head_num, input_layout, pse=None, padding_mask=None, atten_mask=None,
                         scale=1.0, keep_prob=1.0, pre_tockens=2147483647, next_tockens=2147483647, inner_precise=0,
                         prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, sparse_mode=0,
                         gen_mask_parallel=True, sync=False):
    """torch_npu's outputs (attention_out, softmax_max, softmax_sum,
    softmax_out, seed, offset, numels) from gen_golden_attention's float64
    reference with torch_npu's documented masks; only attention_out is
    differentiable, its backward gives dq, dk, dv (and dpse)."""
    if keep_prob != 1.0 or padding_mask is not None:
        raise ValueError("npu_fusion_attention formula: no dropout, no padding_mask")
    mask = atten_mask if sparse_mode in (0, 1, 5) else None  # 2-4, 6-8 read their compressed forms
    fn = gat.fusion_attention(input_layout, head_num, scale, sparse_mode, pre_tockens, next_tockens, "official",
                              prefix, actual_seq_qlen, actual_seq_kvlen)

    def f(q, k, v, *p):
        with _f64_default():
            return fn(q, k, v, p[0] if p else None, mask)
    ts = (query, key, value) + ((pse,) if pse is not None else ())
    o, m, l = _Node.apply((f, 1), *ts)
    return o, m, l, torch.zeros(0, dtype=o.dtype), 0, 0, 0


def npu_sort_v2(self, dim=-1, descending=False):
    """The values of a stable sort (fused-ops.md §15); the gradient is
    scattered back through the permutation."""
    return _Node.apply((lambda x: (torch.sort(x, dim=dim, descending=descending, stable=True)[0],), 1), self)[0]


def _adam_out(out, new):
    """torch_npu's optimizer kernels update out=(var, m, v) in place and
    return them."""
    for o, n in zip(out, new):
        o.copy_(n.to(o.dtype))
    return tuple(out)


def npu_apply_adam(beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False, use_nesterov=False,
                   out=None):
    """TF ApplyAdam (fused-ops.md §1), float64 inside."""
    var, m, v = (x.double() for x in out)
    g = grad.double()
    m_t = m + (beta1 - 1) * (m - g)
    v_t = v + (beta2 - 1) * (v - g * g)
    lr_t = lr * math.sqrt(1 - beta2_power) / (1 - beta1_power)
    step = (beta1 * m_t + (1 - beta1) * g) if use_nesterov else m_t
    return _adam_out(out, (var - lr_t * step / (epsilon + v_t.sqrt()), m_t, v_t))


def npu_apply_adam_w(beta1_power, beta2_power, lr, weight_decay, beta1, beta2, epsilon, grad, max_grad_norm=None,
                     amsgrad=False, maximize=False, out=None):
    """AdamW with the powers advanced inside (fused-ops.md §2, the given
    max_grad_norm under amsgrad), float64 inside."""
    var, m, v = (x.double() for x in out)
    g = -grad.double() if maximize else grad.double()
    b1p, b2p = beta1_power * beta1, beta2_power * beta2
    var_d = var * (1 - lr * weight_decay)
    m2 = beta1 * m - (beta1 - 1) * g
    v2 = beta2 * v - (beta2 - 1) * g * g
    if amsgrad:
        b2p = b2p - epsilon if 1 - b2p == 0 else b2p
        denom = (torch.maximum(max_grad_norm.double(), v2) / (1 - b2p)).sqrt() + epsilon
    else:
        denom = (v2 / (1 - b2p)).sqrt() + epsilon
    b1p = b1p - epsilon if 1 - b1p == 0 else b1p
    return _adam_out(out, (var_d + (-lr * m2 / (1 - b1p)) / denom, m2, v2))


def npu_group_norm_silu(input, weight, bias, group, eps=1e-05):
    """(silu(group_norm(x)), mean, rstd) with mean and rstd [N, group] in
    the input's dtype (fused-ops.md §12), float64 inside."""
    x = input.double()
    n, c = x.shape[0], x.shape[1]
    xg = x.reshape(n, group, -1)
    mean = xg.mean(-1)
    rstd = torch.rsqrt(((xg - mean.unsqueeze(-1)) ** 2).mean(-1) + eps)
    t = ((xg - mean.unsqueeze(-1)) * rstd.unsqueeze(-1)).reshape(x.shape)
    shape = [1, c] + [1] * (x.dim() - 2)
    if weight is not None:
        t = t * weight.double().reshape(shape)
    if bias is not None:
        t = t + bias.double().reshape(shape)
    dt = input.dtype
    return (t * torch.sigmoid(t)).to(dt), mean.to(dt), rstd.to(dt)


def npu_moe_gating_top_k_softmax(x, finished=None, k=1):
    """(y, expert_idx, row_idx) of the top-k of softmax(x) over the last dim
    (fused-ops.md §14): a stable descending order, the leading dims
    flattened to T rows, a finished row's experts E, row_idx j·T + i, int32."""
    e = x.shape[-1]
    s = torch.softmax(x.double().reshape(-1, e), -1)
    t = s.shape[0]
    order = torch.sort(s, dim=-1, descending=True, stable=True)[1][:, :k]
    y = s.gather(1, order)
    idx = order.clone()
    if finished is not None:
        idx[finished.reshape(-1)] = e
    row = torch.arange(t * k).reshape(k, t).t()
    shape = list(x.shape[:-1]) + [k]
    return y.to(x.dtype).reshape(shape), idx.to(torch.int32).reshape(shape), row.to(torch.int32).reshape(shape)


# --- the aten backward records: gradients, float64 inside, cast once ---------

def _grads(fwd, xs, wrt, g):
    """The gradients of fwd(*xs) (its first output) for g w.r.t. xs[i], i
    in wrt, all in float64, each cast to its input's dtype."""
    with torch.enable_grad():
        leaves = [x.detach().double().requires_grad_(i in wrt) if isinstance(x, torch.Tensor) and x.is_floating_point()
                  else x for i, x in enumerate(xs)]
        y = fwd(*leaves)
        y = y[0] if isinstance(y, tuple) else y
        gs = torch.autograd.grad(y, [leaves[i] for i in wrt], g.double())
    return tuple(gr.to(xs[i].dtype) for gr, i in zip(gs, wrt))


def npu_fusion_attention_grad(query, key, value, dy, head_num, input_layout, *, pse=None, padding_mask=None,
                              atten_mask=None, softmax_max=None, softmax_sum=None, softmax_in=None, attention_in=None,
                              scale_value=1.0, keep_prob=1.0, pre_tockens=2147483647, next_tockens=2147483647,
                              inner_precise=0, seed=0, offset=0, numels=0, prefix=None, actual_seq_qlen=None,
                              actual_seq_kvlen=None, sparse_mode=0, gen_mask_parallel=True, sync=False):
    """(dq, dk, dv, dpse) of the forward for dy; dpse zero-size without a pse."""
    mask = atten_mask if sparse_mode in (0, 1, 5) else None
    fn = gat.fusion_attention(input_layout, head_num, scale_value, sparse_mode, pre_tockens, next_tockens, "official",
                              prefix, actual_seq_qlen, actual_seq_kvlen)

    def fwd(q, k, v, p):
        with _f64_default():
            return fn(q, k, v, p, mask)[0]
    wrt = [0, 1, 2] + ([3] if pse is not None else [])
    gs = _grads(fwd, [query, key, value, pse], wrt, dy)
    return gs if pse is not None else gs + (torch.zeros(0, dtype=query.dtype),)


def matmul_backward(grad, self, other, mask):
    gs = _grads(torch.matmul, [self, other], [0, 1], grad)
    return tuple(g if m else None for g, m in zip(gs, mask))


def npu_fast_gelu_backward(grad, self):
    return _grads(npu_fast_gelu, [self], [0], grad)[0]


def npu_swiglu_backward(grad, x, dim=-1):
    return _grads(lambda a: npu_swiglu(a, dim), [x], [0], grad)[0]


def npu_rotary_mul_backward(grad, self, r1, r2, rotary_mode="half"):
    return _grads(lambda x, a, b: npu_rotary_mul(x, a, b, rotary_mode), [self, r1, r2], [0, 1, 2], grad)


def npu_linear_backward(grad, input, weight):
    return _grads(lambda x, w: F.linear(x, w), [input, weight], [0, 1], grad)


def npu_rms_norm_backward(dy, self, gamma, rstd):
    """(dx, dgamma) with the given rstd (fused-ops.md §8), dgamma reduced to
    gamma's shape (torch_npu's)."""
    xd, gd, dyd, r = self.double(), gamma.double(), dy.double(), rstd.double()
    dims = tuple(range(xd.dim() - gd.dim(), xd.dim()))
    c = (dyd * xd * gd * r).mean(dim=dims, keepdim=True)
    dx = (dyd * gd - xd * r * c) * r
    dg = (dyd * xd * r).sum(dim=tuple(range(xd.dim() - gd.dim())))
    return dx.to(self.dtype), dg.to(gamma.dtype)


def npu_scaled_masked_softmax_backward(y_grad, y, mask, scale=1.0, fixed_triu_mask=False):
    """scale·y⊙(dy − Σ(dy⊙y)), 0 where masked: autograd of the softmax
    written with its output y (fused-ops.md §10)."""
    yd, g = y.double(), y_grad.double()
    if fixed_triu_mask:
        mask = torch.ones(y.shape[-2:], dtype=torch.bool).triu(1)
    dx = scale * yd * (g - (g * yd).sum(-1, keepdim=True))
    return dx.masked_fill(mask, 0).to(y_grad.dtype)


def npu_confusion_transpose_backward(grad, perm, shape, transpose_first):
    """The inverse data movement; shape is the forward input's and
    transpose_first the negation of the forward's (fused-ops.md §3)."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    if transpose_first:
        return grad.permute(*inv).reshape(shape)
    return grad.reshape([shape[p] for p in perm]).permute(*inv)


def namespace():
    """The operators: torch_npu's when it imports, else the formulas; and
    the aten records: torch.ops.npu's (torch.ops.aten.matmul_backward) with
    torch_npu, else the gradient formulas."""
    try:
        import torch_npu
        aten = types.SimpleNamespace()
        for name in ATEN_OPS:
            lib = torch.ops.aten if name == "matmul_backward" else torch.ops.npu
            setattr(aten, name, getattr(lib, name))
        return torch_npu, aten, True
    except ImportError:
        pass
    ns = types.SimpleNamespace()
    for name in OPS:
        setattr(ns, name, _fused(globals()[name], None if name == "npu_confusion_transpose" else torch.float32))
    for name in NODE_OPS + PLAIN_OPS:
        setattr(ns, name, globals()[name])
    aten = types.SimpleNamespace()
    for name in ATEN_OPS:
        setattr(aten, name, globals()[name])
    return ns, aten, False


def calls(t, dev):
    """(name, args, kwargs) of each operator's one call; t is
    make_every_api_dump.Inputs."""
    def mv(xs):
        return [x.to(dev) if isinstance(x, torch.Tensor) else x for x in xs]
    mask = (torch.rand(2, 1, 32, 32) < 0.2).to(dev)
    return [
        ("npu_swiglu", mv([t.f(2, 4, 16)]), {"dim": -1}),
        ("npu_rotary_mul", mv([t.f(2, 4, 2, 16), t.f(1, 4, 1, 16), t.f(1, 4, 1, 16)]), {}),
        ("npu_fast_gelu", mv([t.f(4, 16)]), {}),
        ("npu_mish", mv([t.f(4, 16)]), {}),
        ("npu_scaled_masked_softmax", mv([t.f(2, 2, 32, 32), mask, 4.0, False]), {}),
        ("npu_confusion_transpose", mv([t.f(2, 8, 32)]), {"perm": [0, 2, 1, 3], "shape": [2, 8, 4, 8], "transpose_first": False}),
        ("npu_linear", mv([t.f(8, 32), t.f(16, 32), t.f(16)]), {}),
        ("npu_layer_norm_eval", mv([t.f(4, 32), [32]]), {"weight": t.f(32).to(dev), "bias": t.f(32).to(dev), "eps": 1e-5}),
        # tuple outputs: run_ut never runs their backward, none is recorded
        ("npu_rms_norm", mv([t.c(4, 2, 32), t.p(32).detach()]), {"epsilon": 1e-6}),
        ("npu_group_norm_silu", mv([t.c(2, 8, 3, 3), t.cp(8), t.c(8), 4]), {"eps": 1e-5}),
        ("npu_moe_gating_top_k_softmax", mv([t.c(6, 8)]), {"finished": (torch.rand(6) < 0.3).to(dev), "k": 2}),
        # optimizer steps: var, m, v updated in place through out= (dumped before the call)
        ("npu_apply_adam", mv([0.9, 0.999, 0.001, 0.9, 0.999, 1e-8, t.c(4, 16), False, False]),
         {"out": tuple(mv([t.c(4, 16), t.c(4, 16) * 0.1, t.cp(4, 16) * 0.01]))}),
        ("npu_apply_adam_w", mv([0.9, 0.999, 0.001, 0.01, 0.9, 0.999, 1e-8, t.c(4, 16), None, False, False]),
         {"out": tuple(mv([t.c(4, 16), t.c(4, 16) * 0.1, t.cp(4, 16) * 0.01]))}),
        ("npu_sort_v2", mv([t.f(4, 16)]), {"dim": -1, "descending": False}),
    ]


INT_MAX = 2147483647


def _compressed_mask(mode, dev):
    """The fixed compressed atten_mask torch_npu reads for sparse_mode 2-4
    and 7-8 (triu(ones(2048, 2048), 1)) and 6 (that over a 1024x2048 block
    whose right half is masked); the formulas build these masks themselves
    (plugins/torch/probe_torch/ops.py _npu_fusion_attention_args)."""
    m = torch.triu(torch.ones((2048, 2048), dtype=torch.bool), diagonal=1)
    if mode == 6:
        tail = torch.zeros((1024, 2048), dtype=torch.bool)
        tail[:, 1024:] = True
        m = torch.cat([m, tail])
    return m.to(dev)


def _attn(dt, layout, n1, n2, s1, s2, d, dev, real, b=2, mode=0, mask=False, pse=False, pre=INT_MAX, nxt=INT_MAX,
          prefix=None, cq=None, ck=None, grad=True):
    """(args, kwargs) of one npu_fusion_attention call: q, k, v (and pse)
    leaves of dtype dt, the options as keywords, as torch_npu users pass
    them."""
    def leaf(*shape):
        x = torch.randn(*shape).to(dt).to(dev)
        return x.requires_grad_(grad)
    if layout == "TND":
        q, k, v = leaf(cq[-1], n1, d), leaf(ck[-1], n2, d), leaf(ck[-1], n2, d)
    else:
        q = leaf(*gat.shapes(layout, b, n1, s1, d))
        k, v = leaf(*gat.shapes(layout, b, n2, s2, d)), leaf(*gat.shapes(layout, b, n2, s2, d))
    kw = {"pse": leaf(b, n1, s1, s2) * 0.5 if pse else None, "padding_mask": None, "atten_mask": None,
          "scale": 1 / math.sqrt(d), "pre_tockens": pre, "next_tockens": nxt, "keep_prob": 1.0, "inner_precise": 0,
          "sparse_mode": mode}
    if pse:
        kw["pse"] = kw["pse"].detach().requires_grad_(grad)
    if mask:
        kw["atten_mask"] = (torch.rand(b, 1, s1, s2) < 0.25).to(dev)
    elif real and mode in (2, 3, 4, 6, 7, 8):
        kw["atten_mask"] = _compressed_mask(mode, dev)
    if prefix is not None:
        kw["prefix"] = list(prefix)
    if layout == "TND":
        kw["actual_seq_qlen"], kw["actual_seq_kvlen"] = list(cq), list(ck)
    return [q, k, v, n1, layout], kw


def attention_calls(dev, real):
    """(dtype name, args, kwargs) of the npu_fusion_attention calls, each at
    its own dtype: every layout, sparse modes 0 (with and without a mask),
    2, 3, 4, 6 and 7/8 (TND), MHA and GQA, one with a pse."""
    f32, bf16 = torch.float32, torch.bfloat16
    cs = [
        ("float32", "BSH", dict(n1=2, n2=2, s1=8, s2=12, d=8)),
        ("bfloat16", "BSH", dict(n1=4, n2=2, s1=8, s2=8, d=8, mask=True, pre=4, nxt=1)),
        ("float32", "SBH", dict(n1=2, n2=2, s1=8, s2=8, d=16, mode=2, pse=True)),
        ("bfloat16", "SBH", dict(n1=4, n2=2, s1=8, s2=12, d=8, mode=3)),
        ("float32", "BSND", dict(n1=2, n2=2, s1=8, s2=12, d=16, mode=4, pre=3, nxt=1)),
        ("bfloat16", "BSND", dict(n1=4, n2=2, s1=8, s2=10, d=8, mode=6, prefix=[3, 5])),
        ("float32", "BNSD", dict(n1=4, n2=2, s1=8, s2=12, d=16, mask=True)),
        ("bfloat16", "BNSD", dict(n1=2, n2=2, s1=16, s2=16, d=16, b=1, mode=2)),
        ("float32", "TND", dict(n1=2, n2=2, s1=0, s2=0, d=8, mode=7, pre=4, nxt=-1, cq=[3, 8, 16], ck=[4, 10, 16])),
        ("bfloat16", "TND", dict(n1=4, n2=2, s1=0, s2=0, d=16, mode=8, pre=4, nxt=1, cq=[5, 9, 16], ck=[6, 9, 16])),
    ]
    out = []
    for dn, layout, kw in cs:
        torch.manual_seed(zlib.crc32(("attn.%s.%s.%d" % (layout, dn, kw.get("mode", 0))).encode()))
        args, kwargs = _attn({"float32": f32, "bfloat16": bf16}[dn], layout, dev=dev, real=real, **kw)
        out.append((dn, args, kwargs))
    return out


def aten_calls(t, dev, ns, real):
    """(name, args, kwargs) of each aten backward record's one call, at
    t's dtype, on tensors that need no gradient; the forward outputs they
    take (softmax_max/sum and attention_in, rstd, y) from the operator's
    unrecorded forward."""
    def mv(xs):
        return [x.to(dev) if isinstance(x, torch.Tensor) else x for x in xs]
    # npu_fusion_attention_grad: BSH, GQA, sparse_mode 3, with a pse
    a, kw = _attn(t.dt, "BSH", n1=4, n2=2, s1=8, s2=12, d=8, dev=dev, real=real, mode=3, pse=True, grad=False)
    with torch.no_grad():
        o, smax, ssum = ns.npu_fusion_attention(*a, **kw)[:3]
    gkw = {k: v for k, v in kw.items() if k != "scale"}
    gkw.update(scale_value=kw["scale"], softmax_max=smax, softmax_sum=ssum, softmax_in=None, attention_in=o)
    x = t.c(4, 2, 32)
    gamma = t.cp(32)
    with torch.no_grad():
        rstd = ns.npu_rms_norm(x.to(dev), gamma.to(dev), epsilon=1e-6)[1]
    sx, smask = t.c(2, 2, 32, 32), (torch.rand(2, 1, 32, 32) < 0.2)
    with torch.no_grad():
        y = ns.npu_scaled_masked_softmax(sx.to(dev), smask.to(dev), 4.0, False)
    return [
        ("npu_fusion_attention_grad", a[:3] + [torch.randn(a[0].shape).to(t.dt).to(dev)] + a[3:], gkw),
        ("matmul_backward", mv([t.c(2, 4, 6), t.c(2, 4, 8), t.c(8, 6), [True, True]]), {}),
        ("npu_fast_gelu_backward", mv([t.c(4, 16), t.c(4, 16)]), {}),
        ("npu_swiglu_backward", mv([t.c(2, 4, 8), t.c(2, 4, 16)]), {"dim": -1}),
        ("npu_rotary_mul_backward", mv([t.c(2, 4, 2, 16), t.c(2, 4, 2, 16), t.c(1, 4, 1, 16), t.c(1, 4, 1, 16)]), {}),
        ("npu_linear_backward", mv([t.c(8, 16), t.c(8, 32), t.c(16, 32)]), {}),
        ("npu_rms_norm_backward", mv([t.c(4, 2, 32), x, gamma, rstd]), {}),
        ("npu_scaled_masked_softmax_backward", mv([t.c(2, 2, 32, 32), y, smask, 4.0, False]), {}),
        ("npu_confusion_transpose_backward", mv([t.c(2, 4, 8, 8), [0, 2, 1, 3], [2, 8, 32], True]), {}),
    ]


def _first(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default %(default)s)")
    ap.add_argument("--dtypes", default="float32", help="comma-separated float dtypes (default %(default)s)")
    ap.add_argument("--device", default="cpu", help="torch device (npu with torch_npu; default %(default)s)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    ns, aten, real = namespace()
    rec = every.TensorRecorder()
    for name in OPS + NODE_OPS + PLAIN_OPS:
        rec._patch(ns, name, "NPU", name)
    for name in ATEN_OPS:
        rec._patch(aten, name, "Aten", name)
    n_bwd = 0

    def call_and_backward(fn, args, kwargs):
        nonlocal n_bwd
        rec.on = True
        try:
            out = _first(fn(*args, **kwargs))
        finally:
            rec.on = False
        if out.requires_grad:  # attention: attention_out only (grad_index 0)
            r = torch.randn(out.shape).to(out.dtype).to(out.device)
            (out * r).sum().backward()
            n_bwd += 1

    try:
        for dn in [d for d in a.dtypes.split(",") if d]:
            dt = getattr(torch, dn)
            t = _seeded(dt, dn)
            for name, args, kwargs in calls(t, a.device):
                torch.manual_seed(zlib.crc32(("%s.%s" % (name, dn)).encode()))
                call_and_backward(getattr(ns, name), args, kwargs)
            for name, args, kwargs in aten_calls(t, a.device, ns, real):
                rec.on = True
                try:
                    with torch.no_grad():
                        getattr(aten, name)(*args, **kwargs)
                finally:
                    rec.on = False
        for dn, args, kwargs in attention_calls(a.device, real):
            torch.manual_seed(zlib.crc32(("npu_fusion_attention.%s.%s" % (args[4], dn)).encode()))
            call_and_backward(ns.npu_fusion_attention, args, kwargs)
    finally:
        rec.uninstall()
    tdir = rec.write_tensor_dump(a.out)
    print("%s: %d entries (%d backward), %d tensors in %s; operators: %s" % (
        os.path.join(a.out, "dump.json"), len(rec.data), n_bwd, len(rec.saved), tdir,
        "torch_npu" if real else "defining formulas (float32 for the first eight, float64 for the others)"))


class _seeded(every.Inputs):
    """make_every_api_dump.Inputs seeded per dtype, grads on."""

    def __init__(self, dt, dn):
        torch.manual_seed(zlib.crc32(("npu." + dn).encode()))
        super().__init__(dt, True)


if __name__ == "__main__":
    main()
