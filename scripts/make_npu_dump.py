#!/usr/bin/python3
"""Writes an msprobe L1 tensor-mode dump that calls each fused torch_npu
operator of issue 13 once per dtype (--dtypes, default float32): NPU.npu_swiglu,
npu_rotary_mul, npu_fast_gelu, npu_mish, npu_scaled_masked_softmax,
npu_confusion_transpose, npu_linear and npu_layer_norm_eval, each followed by
the backward of sum(out * R) (R fixed random), recorded as msprobe does.

The recorder and the writer are scripts/make_every_api_dump.py's
(TensorRecorder: msprobe's hooks, data_name + .pt files, dump.json with task
"tensor", level "L1"); the operators are hooked under the "NPU" prefix.
With torch_npu importable (an Ascend host, --device npu) the real kernels run;
without it each operator is its defining formula (fused-ops.md, torch_npu's
documented semantics) computed in float32 from the inputs and cast once to
their dtype, differentiable through the casts.

    /usr/bin/python3 scripts/make_npu_dump.py --out /tmp/npu-dump
    go run ./host/cmd/probe run --framework pytorch --api-info /tmp/npu-dump/dump.json -o /tmp/npu-dump/out
"""
import argparse
import os
import sys
import types
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import make_every_api_dump as every  # noqa: E402  (TensorRecorder, and make_dumps on its path)

DEFAULT_OUT = "/tmp/probe-npu-dump"
OPS = ("npu_swiglu", "npu_rotary_mul", "npu_fast_gelu", "npu_mish", "npu_scaled_masked_softmax",
       "npu_confusion_transpose", "npu_linear", "npu_layer_norm_eval")


def _in_f32(fn):
    """fn computed with floating tensor arguments raised to float32, the
    result cast once to the first argument's dtype."""
    def wrapped(*args, **kwargs):
        dt = args[0].dtype

        def up(v):
            return v.float() if isinstance(v, torch.Tensor) and v.is_floating_point() else v
        out = fn(*[up(a) for a in args], **{k: up(v) for k, v in kwargs.items()})
        return out.to(dt)
    wrapped.__name__ = fn.__name__
    return wrapped


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


def namespace():
    """The operators: torch_npu's when it imports, else the formulas."""
    try:
        import torch_npu
        return torch_npu, True
    except ImportError:
        pass
    ns = types.SimpleNamespace()
    for name in OPS:
        f = globals()[name]
        setattr(ns, name, f if name == "npu_confusion_transpose" else _in_f32(f))
    return ns, False


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
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default %(default)s)")
    ap.add_argument("--dtypes", default="float32", help="comma-separated float dtypes (default %(default)s)")
    ap.add_argument("--device", default="cpu", help="torch device (npu with torch_npu; default %(default)s)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    ns, real = namespace()
    rec = every.TensorRecorder()
    for name in OPS:
        rec._patch(ns, name, "NPU", name)
    n_bwd = 0
    try:
        for dn in [d for d in a.dtypes.split(",") if d]:
            dt = getattr(torch, dn)
            for name, args, kwargs in calls(_seeded(dt, dn), a.device):
                torch.manual_seed(zlib.crc32(("%s.%s" % (name, dn)).encode()))
                rec.on = True
                try:
                    out = getattr(ns, name)(*args, **kwargs)
                finally:
                    rec.on = False
                r = torch.randn(out.shape).to(out.dtype).to(out.device)
                (out * r).sum().backward()
                n_bwd += 1
    finally:
        rec.uninstall()
    tdir = rec.write_tensor_dump(a.out)
    print("%s: %d entries (%d backward), %d tensors in %s; operators: %s" % (
        os.path.join(a.out, "dump.json"), len(rec.data), n_bwd, len(rec.saved), tdir,
        "torch_npu" if real else "defining formulas in float32"))


class _seeded(every.Inputs):
    """make_every_api_dump.Inputs seeded per dtype, grads on."""

    def __init__(self, dt, dn):
        torch.manual_seed(zlib.crc32(("npu." + dn).encode()))
        super().__init__(dt, True)


if __name__ == "__main__":
    main()
