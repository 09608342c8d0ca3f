"""The fused torch_npu operators of issue 13 (sdk/ops/schema_npu.go).

On an Ascend host (device "npu" and torch_npu importable) each op calls the
real torch_npu kernel, the device under test. Elsewhere torch_npu does not
exist: the op computes its defining formula (fused-ops.md, torch_npu's
documented semantics) with torch ops, so that the plugin still checks the
lowering path end to end; float16 and bfloat16 inputs are computed in
float32 and the result cast back once, the way a fused kernel rounds (and
PyTorch 1.13's CPU lacks several half kernels). Conventions as in ops.py.

The attribute semantics "msprobe" (the bench of --compat msprobe) asks for
msprobe's reference instead of torch_npu's op (fused-ops.md §17 #13, #16,
#17, #18): swiglu, scaled_masked_softmax, layer_norm_eval and the MoE
gating compute it with torch ops at the dtype they are given, on every
device (torch_npu included: the reference is not the NPU kernel), autograd
of it for the gradients.
"""

import math

import torch
import torch.nn.functional as F

from .ops_loss2 import _f, _floats_only, _nograd
from .wire import ArgumentError, Scalar

_HALF = (torch.float16, torch.bfloat16)


def _npu(c):
    """torch_npu when the call runs on an Ascend NPU, else None."""
    if c.device.type != "npu":
        return None
    try:
        import torch_npu
    except ImportError:
        return None
    return torch_npu


def _wide(fn, *xs):
    """fn on xs with float16/bfloat16 tensors raised to float32, the result
    cast back to the first input's dtype."""
    dt = xs[0].dtype
    if dt not in _HALF:
        return fn(*xs)
    ys = [x.float() if isinstance(x, torch.Tensor) and x.dtype in _HALF else x for x in xs]
    return fn(*ys).to(dt)


def _msprobe(c, fn):
    """Whether the call asks for msprobe's reference (the semantics
    attribute, "official" or "msprobe")."""
    s = c.attrs.get("semantics", "official")
    if s in ("official", "msprobe"):
        return s == "msprobe"
    raise ArgumentError('%s: semantics must be "official" or "msprobe", got %r' % (fn, s))


def _swiglu(c):
    (x,) = c.inputs
    dim = c.attrs["dim"]
    ref = _msprobe(c, "npu_swiglu")
    n = _npu(c)
    if n is not None and not ref:
        return n.npu_swiglu(x, dim=dim)
    d = dim % max(x.dim(), 1)
    if x.dim() == 0 or x.shape[d] % 2:
        raise ArgumentError("npu_swiglu: the size of dimension %d must be even" % dim)
    if ref:
        # §11, §17 #17: a float32 x (a float16/bfloat16 original raised by
        # run_ut) σ(A)·A·B in float32; any other dtype silu(A) in float32,
        # rounded to x's dtype and back, times B in float32, the product
        # cast to x's dtype
        a, b = x.chunk(2, dim=d)
        if x.dtype == torch.float32:
            return torch.sigmoid(a) * a * b
        return (F.silu(a.float()).to(x.dtype).float() * b.float()).to(x.dtype)

    def f(x):
        a, b = x.chunk(2, dim=d)
        return a * torch.sigmoid(a) * b
    return _wide(f, x)


def _rot(x, mode):
    if mode == "half":
        x1, x2 = x.chunk(2, -1)
        return torch.cat((-x2, x1), -1)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((-x2, x1), -1).reshape(x.shape)


def _rotary_mul(c):
    x, r1, r2 = c.inputs
    mode = c.attrs["rotary_mode"]
    if mode not in ("half", "interleave"):
        raise ArgumentError("npu_rotary_mul: rotary_mode must be 'half' or 'interleave', got %r" % mode)
    n = _npu(c)
    if n is not None:
        if mode == "half":
            return n.npu_rotary_mul(x, r1, r2)
        return n.npu_rotary_mul(x, r1, r2, rotary_mode=mode)
    if x.dim() == 0 or x.shape[-1] % 2:
        raise ArgumentError("npu_rotary_mul: the last dimension of input %s must be even" % list(x.shape))
    for name, r in (("r1", r1), ("r2", r2)):
        try:
            ok = list(torch.broadcast_shapes(x.shape, r.shape)) == list(x.shape)
        except RuntimeError:
            ok = False
        if not ok:
            raise ArgumentError("npu_rotary_mul: %s of shape %s does not broadcast to input's shape %s" % (name, list(r.shape), list(x.shape)))
    return _wide(lambda x, r1, r2: r1 * x + r2 * _rot(x, mode), x, r1, r2)


def _fast_gelu(c):
    (x,) = c.inputs
    n = _npu(c)
    if n is not None:
        return n.npu_fast_gelu(x)
    return _wide(lambda x: x * torch.sigmoid(1.702 * x), x)


def _mish(c):
    (x,) = c.inputs
    n = _npu(c)
    if n is not None:
        return n.npu_mish(x)
    return _wide(lambda x: x * torch.tanh(torch.log1p(torch.exp(x))), x)


def _scaled_masked_softmax(c):
    x, mask = c.inputs
    mask = _nograd(mask)
    scale, triu = c.attrs["scale"], c.attrs["fixed_triu_mask"]
    ref = _msprobe(c, "npu_scaled_masked_softmax")
    n = _npu(c)
    if n is not None and not ref:
        return n.npu_scaled_masked_softmax(x, mask, scale, triu)
    if triu:
        s1, s2 = x.shape[-2:]
        mask = torch.ones((s1, s2), dtype=torch.bool, device=x.device).triu(1)
    if ref:
        # §10, §17 #18: x·scale, the fill and z − max(z) at x's dtype, then
        # exp, sum and quotient in float32, cast back to x's dtype
        z = (x * scale).masked_fill(mask, -10000.0)
        e = torch.exp((z - z.max(dim=-1, keepdim=True).values).float())
        return (e / e.sum(dim=-1, keepdim=True)).to(x.dtype)
    return _wide(lambda x: torch.softmax((x * scale).masked_fill(mask, -10000.0), -1), x)


def _confusion_transpose(c):
    (x,) = c.inputs
    perm, shape, first = list(c.attrs["perm"]), list(c.attrs["shape"]), c.attrs["transpose_first"]
    n = _npu(c)
    if n is not None:
        return n.npu_confusion_transpose(x, perm, shape, first)
    if first:
        return x.permute(*perm).reshape(shape)
    return x.reshape(shape).permute(*perm)


def _linear(c):
    x, w, b = c.inputs
    n = _npu(c)
    if n is not None:
        return n.npu_linear(x, w, b)
    return _wide(lambda x, w, b: F.linear(x, w, b), x, w, b)


def _layer_norm_eval(c):
    x, w, b = c.inputs
    ns, eps = list(c.attrs["normalized_shape"]), c.attrs["eps"]
    if _msprobe(c, "npu_layer_norm_eval"):
        # §5, §17 #13: layer_norm(x, normalized_shape), weight, bias and eps
        # ignored (PyTorch's eps 1e-5); weight and bias take no gradient.
        # The shapes are still checked as torch_npu checks them.
        for nm, p in (("weight", w), ("bias", b)):
            if p is not None and list(p.shape) != ns:
                raise ArgumentError("npu_layer_norm_eval: %s of shape %s must have normalized_shape %s" % (nm, list(p.shape), ns))
        c.no_grad |= {1, 2}
        return F.layer_norm(x, ns)
    n = _npu(c)
    if n is not None:
        return n.npu_layer_norm_eval(x, ns, weight=w, bias=b, eps=eps)
    return _wide(lambda x, w, b: F.layer_norm(x, ns, w, b, eps), x, w, b)


def _wide_all(fn, *xs):
    """_wide for functions returning a tuple: float16/bfloat16 inputs raised
    to float32, each float output cast back once to the first input's
    dtype (integer outputs kept)."""
    dt = xs[0].dtype
    if dt not in _HALF:
        return fn(*xs)
    ys = [x.float() if isinstance(x, torch.Tensor) and x.dtype in _HALF else x for x in xs]
    return tuple(o.to(dt) if o.is_floating_point() else o for o in fn(*ys))


def _adam_check(fn, ts):
    names = ("var", "m", "v", "grad", "max_grad_norm")
    for n, a in zip(names, ts):
        if a is None:
            continue
        if not a.dtype.is_floating_point:
            raise ArgumentError("%s: %s must be a floating tensor, got %s" % (fn, n, a.dtype))
        if list(a.shape) != list(ts[0].shape):
            raise ArgumentError("%s: %s of shape %s does not match var's shape %s" % (fn, n, list(a.shape), list(ts[0].shape)))


def _scalars(vs):
    """The Scalar inputs of the optimizer steps: Python numbers (a
    one-element tensor's value, its dtype's rounding kept)."""
    out = []
    for v in vs:
        if isinstance(v, Scalar):
            out.append(v.value)
        elif isinstance(v, torch.Tensor) and v.numel() == 1:
            out.append(v.item())
        else:
            raise ArgumentError("a Scalar must be a number or a one-element tensor, got %r" % (v,))
    return out


def _apply_adam(c):
    var, m, v, g = [_nograd(x) for x in c.inputs[:4]]
    b1p, b2p, lr, b1, b2, eps = _scalars(c.inputs[4:])
    nest = c.attrs["use_nesterov"]
    _adam_check("npu_apply_adam", (var, m, v, g))
    n = _npu(c)
    if n is not None:
        return list(n.npu_apply_adam(b1p, b2p, lr, b1, b2, eps, g, False, nest, out=(var.clone(), m.clone(), v.clone())))

    def f(var, m, v, g):
        m_t = m + (b1 - 1) * (m - g)
        v_t = v + (b2 - 1) * (v - g * g)
        # a float64 tensor: 1 − beta1_power = 0 gives inf, a negative root nan
        lr_t = lr * torch.sqrt(torch.tensor(1 - b2p, dtype=torch.float64)) / (1 - b1p)
        lr_t = lr_t.to(var.device)
        num = b1 * m_t + (1 - b1) * g if nest else m_t
        return var - lr_t * num / (eps + torch.sqrt(v_t)), m_t, v_t
    return list(_wide_all(f, var, m, v, g))


def _apply_adam_w(c):
    var, m, v, g, mg = [_nograd(x) for x in c.inputs[:5]]
    b1p, b2p, lr, wd, b1, b2, eps = _scalars(c.inputs[5:])
    ams, maximize = c.attrs["amsgrad"], c.attrs["maximize"]
    _adam_check("npu_apply_adam_w", (var, m, v, g, mg))
    if ams and mg is None:
        raise ArgumentError("npu_apply_adam_w: amsgrad=True needs max_grad_norm, got None")
    n = _npu(c)
    if n is not None:
        return list(n.npu_apply_adam_w(b1p, b2p, lr, wd, b1, b2, eps, g, mg, ams, maximize, out=(var.clone(), m.clone(), v.clone())))

    def f(var, m, v, g, mg):
        p1, p2 = b1p * b1, b2p * b2
        gg = -g if maximize else g
        m_t = b1 * m - (b1 - 1) * gg
        v_t = b2 * v - (b2 - 1) * gg * gg
        vh = v_t
        if ams:
            vh = torch.maximum(mg, v_t)
            if 1 - p2 == 0:
                p2 = p2 - eps
        if 1 - p1 == 0:
            p1 = p1 - eps
        return var * (1 - lr * wd) + (-lr * m_t / (1 - p1)) / (torch.sqrt(vh / (1 - p2)) + eps), m_t, v_t
    return list(_wide_all(f, var, m, v, g, mg))


def _group_norm_silu(c):
    x, w, b = [_nograd(t) for t in c.inputs]
    group, eps = c.attrs["group"], c.attrs["eps"]
    if x.dim() < 2:
        raise ArgumentError("npu_group_norm_silu: input must have 2 to 8 dimensions [N, C, *], got %s" % list(x.shape))
    ch = x.shape[1]
    if group <= 0 or ch % group:
        raise ArgumentError("npu_group_norm_silu: the number of channels %d must be divisible by group %d" % (ch, group))
    for nm, p in (("weight", w), ("bias", b)):
        if p is not None and list(p.shape) != [ch]:
            raise ArgumentError("npu_group_norm_silu: %s of shape %s must have shape [%d]" % (nm, list(p.shape), ch))
    n = _npu(c)
    if n is not None:
        return list(n.npu_group_norm_silu(x, w, b, group, eps))

    def f(x, w, b):
        size = (ch // group) * math.prod(x.shape[2:])
        xr = x.reshape(x.shape[0], group, size)
        mean = xr.mean(-1)
        rstd = 1 / torch.sqrt(xr.var(-1, unbiased=False) + eps)
        t = ((xr - mean[..., None]) * rstd[..., None]).reshape(x.shape)
        shape = [1, ch] + [1] * (x.dim() - 2)
        if w is not None:
            t = t * w.reshape(shape)
        if b is not None:
            t = t + b.reshape(shape)
        return t * torch.sigmoid(t), mean, rstd
    return list(_wide_all(f, x, w, b))


def _moe_gating(c):
    x, fin = [_nograd(t) for t in c.inputs]
    k = c.attrs["k"]
    if x.dim() not in (2, 3):
        raise ArgumentError("npu_moe_gating_top_k_softmax: x must be 2-D or 3-D, got %s" % list(x.shape))
    lead, e = list(x.shape[:-1]), x.shape[-1]
    if k <= 0 or k > e or k > 1024:
        raise ArgumentError("npu_moe_gating_top_k_softmax: k must be in [1, min(%d, 1024)], got %d" % (e, k))
    if fin is not None and (fin.dtype != torch.bool or list(fin.shape) != lead):
        raise ArgumentError("npu_moe_gating_top_k_softmax: finished must be a bool tensor of shape %s" % lead)
    if _msprobe(c, "npu_moe_gating_top_k_softmax"):
        return _moe_msprobe(x, fin, k)
    n = _npu(c)
    if n is not None:
        return list(n.npu_moe_gating_top_k_softmax(x, finished=fin, k=k))

    def f(x):
        xr = x.reshape(-1, e)
        rows = xr.shape[0]
        s = torch.softmax(xr, -1)
        order = torch.sort(s, dim=-1, descending=True, stable=True).indices[:, :k]
        y = s.gather(-1, order)
        ex = order.clone()
        if fin is not None:
            ex[fin.reshape(-1)] = e
        row = torch.arange(rows * k, device=x.device).reshape(k, rows).t()
        shape = lead + [k]
        return y.reshape(shape), ex.to(torch.int32).reshape(shape), row.to(torch.int32).reshape(shape)
    return list(_wide_all(f, x))


def _moe_msprobe(x, fin, k):
    """msprobe's reference (fused-ops.md §14, §17 #16, #18): the softmax in
    float32 (max subtracted, exp, sum, quotient) cast back to x's dtype; a
    stable descending order along the last axis whose first k are taken
    along axis 1 — the experts of a 2-D x [T, E], but for a 3-D x [B, T, E]
    the first min(k, T) rows of each batch with all E experts: y and
    expert_idx [B, min(k, T), E], row_idx [B, min(k, T)]; finished is viewed
    as [finished.shape[0], 1] (a 1-D finished; a 2-D one of more than one
    column fails as in the reference) and expanded to k columns, where it
    is True expert_idx is E (broadcast against expert_idx's shape); row_idx
    is arange(y.shape[0]·y.shape[1]) laid out [y.shape[1], y.shape[0]] and
    transposed. Indices come back as int32, as the device's (they compare
    as integers)."""
    e = x.shape[-1]
    xf = x.float()
    ex = torch.exp(xf - xf.max(dim=-1, keepdim=True).values)
    tot = ex.sum(dim=-1, keepdim=True)
    if bool((tot == 0).any()):
        raise ArgumentError("npu_moe_gating_top_k_softmax: msprobe's reference fails on a softmax row whose sum is 0")
    s = (ex / tot).to(x.dtype)
    idx = torch.argsort(-s, dim=-1, stable=True)[:, :k]
    y = torch.gather(s, -1, idx)
    if fin is not None:
        if fin.numel() != fin.shape[0]:
            raise ArgumentError("shape '[%d, 1]' is invalid for input of size %d (msprobe's reference of npu_moe_gating_top_k_softmax "
                                "views finished as [finished.shape[0], 1]: a 1-D finished only, fused-ops.md §17 #16)"
                                % (fin.shape[0], fin.numel()))
        f = fin.reshape(fin.shape[0], 1).expand(-1, k)
        try:
            idx = torch.where(f, e, idx)
        except RuntimeError as err:
            raise ArgumentError("%s (msprobe's reference of npu_moe_gating_top_k_softmax: finished [%d, k=%d] against "
                                "expert_idx %s)" % (str(err).splitlines()[0], fin.shape[0], k, list(idx.shape)))
    row = torch.arange(y.shape[0] * y.shape[1], device=x.device).reshape(y.shape[1], y.shape[0]).t()
    return [y, idx.to(torch.int32), row.to(torch.int32)]


def _sort_v2(c):
    (x,) = c.inputs
    dim, desc = c.attrs["dim"], c.attrs["descending"]
    if not x.dtype.is_floating_point:
        raise ArgumentError("npu_sort_v2 supports floating tensors, got %s" % x.dtype)
    n = _npu(c)
    if n is not None:
        return n.npu_sort_v2(x, dim=dim, descending=desc)
    return _wide(lambda x: torch.sort(x, dim=dim, descending=desc, stable=True).values, x)


OPS = {
    "npu.swiglu": _swiglu,
    "npu.rotary_mul": _rotary_mul,
    "npu.fast_gelu": _fast_gelu,
    "npu.mish": _mish,
    "npu.scaled_masked_softmax": _scaled_masked_softmax,
    "npu.confusion_transpose": _confusion_transpose,
    "npu.linear": _linear,
    "npu.layer_norm_eval": _layer_norm_eval,
    "npu.apply_adam": _apply_adam,
    "npu.apply_adam_w": _apply_adam_w,
    "npu.group_norm_silu": _group_norm_silu,
    "npu.moe_gating_top_k_softmax": _moe_gating,
    "npu.sort_v2": _sort_v2,
}

_X4 = ([0.5, -1.25, 2.0, -0.5], [1.5, 0.25, -2.0, 1.0])


def _s(make):
    return _floats_only(make, half=True)


SAMPLES = {
    "npu.swiglu": _s(lambda dt: ([_f(dt, *_X4)], {"dim": -1})),
    "npu.rotary_mul": _s(lambda dt: ([_f(dt, *_X4), _f(dt, *_X4), _f(dt, *_X4)], {"rotary_mode": "half"})),
    "npu.fast_gelu": _s(lambda dt: ([_f(dt, *_X4)], {})),
    "npu.mish": _s(lambda dt: ([_f(dt, *_X4)], {})),
    "npu.scaled_masked_softmax": _s(lambda dt: ([_f(dt, *_X4), torch.tensor([[False, True, False, False]] * 2)],
                                                {"scale": 0.5, "fixed_triu_mask": False})),
    "npu.confusion_transpose": lambda dt: ([_f(dt, *_X4)], {"perm": [1, 0], "shape": [2, 4], "transpose_first": False})
    if dt != torch.bool else ([torch.tensor([[True, False], [False, True]])], {"perm": [1, 0], "shape": [2, 2], "transpose_first": False}),
    "npu.linear": _s(lambda dt: ([_f(dt, *_X4), _f(dt, *_X4), None], {})),
    "npu.layer_norm_eval": _s(lambda dt: ([_f(dt, *_X4), None, None], {"normalized_shape": [4], "eps": 1e-5})),
    "npu.apply_adam": _s(lambda dt: ([_f(dt, *_X4), _f(dt, *_X4), _f(dt, [0.5, 0.25, 1.0, 0.125], [1.0, 2.0, 0.5, 0.25]), _f(dt, *_X4)]
                                     + [Scalar(x) for x in (0.9, 0.999, 1e-3, 0.9, 0.999, 1e-8)], {"use_nesterov": False})),
    "npu.apply_adam_w": _s(lambda dt: ([_f(dt, *_X4), _f(dt, *_X4), _f(dt, [0.5, 0.25, 1.0, 0.125], [1.0, 2.0, 0.5, 0.25]), _f(dt, *_X4), None]
                                       + [Scalar(x) for x in (0.9, 0.999, 1e-3, 0.01, 0.9, 0.999, 1e-8)], {"amsgrad": False, "maximize": False})),
    "npu.group_norm_silu": _s(lambda dt: ([_f(dt, *_X4).reshape(1, 2, 4), None, None], {"group": 1, "eps": 1e-5})),
    "npu.moe_gating_top_k_softmax": _s(lambda dt: ([_f(dt, *_X4), None], {"k": 2})),
    "npu.sort_v2": _s(lambda dt: ([_f(dt, *_X4)], {"dim": -1, "descending": False})),
}

# the optimizer steps, group_norm_silu and the MoE gating take no gradient
# (fused-ops.md §0.4)
BACKWARD = set(OPS) - {"npu.apply_adam", "npu.apply_adam_w", "npu.group_norm_silu", "npu.moe_gating_top_k_softmax"}
