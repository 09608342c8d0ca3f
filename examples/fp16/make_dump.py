"""Writes examples/fp16/dump.json: a statistics-mode L1 dump in msprobe's
format of a few float16 API calls (forward and backward), with statistics
computed by real PyTorch on real data. Run with Debian's python3-torch:
    /usr/bin/python3 examples/fp16/make_dump.py
"""
import json, os
import torch
import torch.nn.functional as F

torch.manual_seed(0)

def desc(t, requires_grad=None):
    if t is None:
        return None
    if isinstance(t, (list, tuple)):
        return [desc(x) for x in t]
    if isinstance(t, (bool, int, float, str)):
        return {"type": type(t).__name__, "value": t}
    rg = t.requires_grad if requires_grad is None else requires_grad
    x = t.detach()
    if x.numel() == 0:
        mx = mn = mean = norm = None
    else:
        mx, mn = x.max().item(), x.min().item()
        mean, norm = x.mean().item(), x.norm().item()
    return {"type": "torch.Tensor", "dtype": str(x.dtype), "shape": list(x.shape),
            "Max": mx, "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": rg}

data = {}
def record(name, fn, args, kwargs, grad=True):
    args_req = [a.detach().requires_grad_(a.requires_grad) if torch.is_tensor(a) else a for a in args]
    out = fn(*args_req, **kwargs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    data[name + ".forward"] = {
        "input_args": [desc(a) for a in args_req],
        "input_kwargs": {k: desc(v) for k, v in kwargs.items()},
        "output": [desc(o) for o in outs],
    }
    if grad and outs[0].requires_grad:
        g = (torch.randn_like(outs[0].float()) * 0.1).half()
        outs[0].backward(g)
        data[name + ".backward"] = {
            "input": [desc(g, False)],
            "output": [desc(a.grad, False) if torch.is_tensor(a) and a.grad is not None else None for a in args_req],
        }

def h(*shape, scale=1.0, rg=True):
    return (torch.randn(*shape) * scale).half().requires_grad_(rg)

# fp16 kernels are not all implemented on PyTorch 1.13's CPU: compute in
# float32 and cast the results, which is what a dump's statistics describe.
def f16(fn):
    def run(*a, **k):
        a = [x.float() if torch.is_tensor(x) and x.is_floating_point() else x for x in a]
        out = fn(*a, **k)
        return tuple(o.half() for o in out) if isinstance(out, tuple) else out.half()
    return run

record("Functional.gelu.0", f16(F.gelu), [h(32, 64)], {})
record("Torch.add.0", f16(torch.add), [h(32, 64), h(64)], {"alpha": 0.5})
record("Tensor.__mul__.0", f16(torch.Tensor.__mul__), [h(32, 64), h(32, 64, rg=False)], {})
record("Functional.softmax.0", f16(F.softmax), [h(16, 32, scale=3.0)], {"dim": -1})
record("Torch.matmul.0", f16(torch.matmul), [h(16, 32, scale=0.3), h(32, 8, scale=0.3)], {})
record("Functional.silu.0", f16(F.silu), [h(8, 128)], {})
record("Tensor.exp.0", f16(torch.Tensor.exp), [h(64, scale=0.5)], {})
record("Functional.layer_norm.0", f16(F.layer_norm), [h(8, 64), [64], h(64, scale=0.1).detach().add_(1).requires_grad_(), h(64, scale=0.1)], {"eps": 1e-5})
record("Torch.sum.0", f16(torch.sum), [h(16, 16, scale=0.1)], {"dim": 1})

dump = {"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": None, "data": data}
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dump.json")
with open(out, "w") as f:
    json.dump(dump, f, indent=1)
print("wrote", out, len(data), "entries")
