"""The fused torch_npu operators of issue 13 (sdk/ops/schema_npu.go).

On an Ascend host (device "npu" and torch_npu importable) each op calls the
real torch_npu kernel, the device under test. Elsewhere torch_npu does not
exist: the op computes its defining formula (fused-ops.md, torch_npu's
documented semantics) with torch ops, so that the plugin still checks the
lowering path end to end; float16 and bfloat16 inputs are computed in
float32 and the result cast back once, the way a fused kernel rounds (and
PyTorch 1.13's CPU lacks several half kernels). Conventions as in ops.py.
"""

import torch
import torch.nn.functional as F

from .ops_loss2 import _f, _floats_only, _nograd
from .wire import ArgumentError

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


def _swiglu(c):
    (x,) = c.inputs
    dim = c.attrs["dim"]
    n = _npu(c)
    if n is not None:
        return n.npu_swiglu(x, dim=dim)
    d = dim % max(x.dim(), 1)
    if x.dim() == 0 or x.shape[d] % 2:
        raise ArgumentError("npu_swiglu: the size of dimension %d must be even" % dim)

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
    n = _npu(c)
    if n is not None:
        return n.npu_scaled_masked_softmax(x, mask, scale, triu)
    if triu:
        s1, s2 = x.shape[-2:]
        mask = torch.ones((s1, s2), dtype=torch.bool, device=x.device).triu(1)
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
    n = _npu(c)
    if n is not None:
        return n.npu_layer_norm_eval(x, ns, weight=w, bias=b, eps=eps)
    return _wide(lambda x, w, b: F.layer_norm(x, ns, w, b, eps), x, w, b)


OPS = {
    "npu.swiglu": _swiglu,
    "npu.rotary_mul": _rotary_mul,
    "npu.fast_gelu": _fast_gelu,
    "npu.mish": _mish,
    "npu.scaled_masked_softmax": _scaled_masked_softmax,
    "npu.confusion_transpose": _confusion_transpose,
    "npu.linear": _linear,
    "npu.layer_norm_eval": _layer_norm_eval,
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
}

BACKWARD = set(OPS)
