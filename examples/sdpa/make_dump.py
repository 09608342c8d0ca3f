#!/usr/bin/python3
"""Writes examples/sdpa/dump.json: a statistics-mode msprobe L1 dump of one
attention block of a PyTorch 2-style model, which calls
torch.nn.functional.scaled_dot_product_attention (PyTorch >= 2.0).

The machines here have PyTorch 1.13, which lacks that function, so the dump
is made by hand: the attention is composed as PyTorch 2's documentation
defines it (softmax(q·kᵀ·scale + bias)·v, bias -inf where a bool mask is
False or above the diagonal with is_causal, else the float mask), with real
torch 1.13 tensors, forward and backward, and each call is written under
the name and with the arguments a PyTorch 2 msprobe dump gives it
(Functional.scaled_dot_product_attention.N.forward/backward, q, k, v as
input_args, attn_mask / dropout_p / is_causal / scale as input_kwargs).
Around it: the q/k/v and output projections (Functional.linear).

    /usr/bin/python3 examples/sdpa/make_dump.py
"""
import json
import math
import os

import torch

torch.manual_seed(0)
B, H, L, E = 2, 4, 16, 8
D = H * E


def stats(t, grad):
    t = t.detach()
    f = t.double()
    return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape),
            "Max": f.max().item(), "Min": f.min().item(), "Mean": f.mean().item(),
            "Norm": f.norm().item(), "requires_grad": grad}


def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None):
    s = q @ k.transpose(-2, -1) * (1 / math.sqrt(q.size(-1)) if scale is None else scale)
    Lq, S = q.size(-2), k.size(-2)
    if is_causal:
        s = s.masked_fill(torch.ones(Lq, S, dtype=torch.bool).triu(1), float("-inf"))
    if attn_mask is not None:
        s = s.masked_fill(~attn_mask, float("-inf")) if attn_mask.dtype == torch.bool else s + attn_mask
    return torch.softmax(s, -1) @ v


data = {}
count = {}


def record(name, args, kwargs, out, grads_in=None, grads_out=None):
    n = count.get(name, 0)
    count[name] = n + 1
    key = "%s.%d" % (name, n)
    desc = lambda x: stats(x, x.requires_grad) if isinstance(x, torch.Tensor) else x
    kw = {}
    for k, v in kwargs.items():
        if isinstance(v, torch.Tensor):
            kw[k] = stats(v, False)
        elif v is None:
            kw[k] = None
        else:
            kw[k] = {"type": type(v).__name__, "value": v}
    data[key + ".forward"] = {"input_args": [desc(a) for a in args], "input_kwargs": kw,
                              "is_recompute": False, "output": [stats(out, True)]}
    if grads_in is not None:
        data[key + ".backward"] = {"input": [stats(g, False) for g in grads_in],
                                   "output": [stats(g, False) for g in grads_out]}


def block(dtype, attn_mask=None, is_causal=False, scale=None):
    x = torch.randn(B, L, D).to(dtype).requires_grad_()
    w = (torch.randn(3 * D, D) / math.sqrt(D)).to(dtype).requires_grad_()
    qkv = torch.nn.functional.linear(x, w)
    q, k, v = [t.view(B, L, H, E).transpose(1, 2).detach().requires_grad_() for t in qkv.split(D, -1)]
    out = sdpa(q, k, v, attn_mask, is_causal, scale)
    g = torch.randn_like(out)
    out.backward(g)
    record("Functional.linear", [x, w, None], {}, qkv)
    record("Functional.scaled_dot_product_attention", [q, k, v],
           {"attn_mask": attn_mask, "dropout_p": 0.0, "is_causal": is_causal, "scale": scale}, out,
           [g], [q.grad, k.grad, v.grad])


block(torch.float32, is_causal=True)
block(torch.bfloat16, is_causal=True)
block(torch.float32, attn_mask=torch.rand(L, L) > 0.2)
block(torch.float32, attn_mask=torch.randn(B, 1, L, L) * 0.5, scale=0.2)

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "dump.json"), "w") as f:
    json.dump({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": None,
               "data": data}, f, indent=1)
print("wrote %d entries" % len(data))
