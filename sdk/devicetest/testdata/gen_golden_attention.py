"""Golden cases for npu.fusion_attention (torch_npu.npu_fusion_attention /
MindSpore flash_attention_score), written to golden/nn_attention.json.gz.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_attention.py

There is no fused attention in PyTorch 1.13 CPU, so the reference is
msprobe's bench written with plain torch ops in float64 (fused-ops.md §7.3-
7.5): layout → BNSD by view/permute, kv heads repeated with
repeat_interleave, masks built with triu/tril as msprobe's
generate_atten_mask does, S = (Q·Kᵀ + pse)·scale + M·(−40000), softmax, P·V,
and autograd for the gradients of attention_out (the only output run_ut
differentiates, grad_index 0). softmax_max / softmax_sum are
[B, N1, S1, 8]. Float32 cases compute in float64 and round the results,
as the bench does.
"""

import math

import torch

from golden_lib import Rand, case, write_group

torch.set_default_dtype(torch.float64)


def to_bnsd(x, layout, n):
    if layout == "BSH":
        b, s, h = x.shape
        return x.reshape(b, s, n, h // n).permute(0, 2, 1, 3)
    if layout == "SBH":
        s, b, h = x.shape
        return x.reshape(s, b, n, h // n).permute(1, 2, 0, 3)
    if layout == "BSND":
        return x.permute(0, 2, 1, 3)
    return x


def from_bnsd(x, layout):
    b, n, s, d = x.shape
    if layout == "BSH":
        return x.permute(0, 2, 1, 3).reshape(b, s, n * d)
    if layout == "SBH":
        return x.permute(2, 0, 1, 3).reshape(s, b, n * d)
    if layout == "BSND":
        return x.permute(0, 2, 1, 3)
    return x


def ref_mask(mask, mode, s1, s2, pre, nxt):
    """msprobe's generate_atten_mask (no compressed-mask branch here)."""
    if mask is not None:
        return mask.to(torch.float64).ne(0).to(torch.float64)
    ones = torch.ones(s1, s2)
    if mode in (0, 4):
        return (torch.triu(ones, diagonal=nxt + 1) + torch.tril(ones, diagonal=-pre - 1)).clamp(max=1)
    if mode == 1:
        return torch.zeros(s1, s2)
    if mode == 2:
        return torch.triu(ones, diagonal=1)
    if mode == 3:
        return torch.triu(ones, diagonal=s2 - s1 + 1)
    raise ValueError("mode %d needs a mask" % mode)


def fusion_attention(layout, head_num, scale, mode=0, pre=2147483647, nxt=2147483647):
    def fn(q, k, v, pse, mask):
        dt = q.dtype
        qd = q.to(torch.float64)
        if layout in ("BSH", "SBH"):
            n1 = head_num
            d = q.shape[-1] // n1
            n2 = k.shape[-1] // d
        else:
            n1, n2 = (q.shape[2], k.shape[2]) if layout == "BSND" else (q.shape[1], k.shape[1])
        Q = to_bnsd(qd, layout, n1)
        K = to_bnsd(k.to(torch.float64), layout, n2).repeat_interleave(n1 // n2, dim=1)
        V = to_bnsd(v.to(torch.float64), layout, n2).repeat_interleave(n1 // n2, dim=1)
        s = Q @ K.transpose(-1, -2)
        if pse is not None:
            s = s + pse.to(torch.float64)
        s = s * scale
        M = ref_mask(mask, mode, Q.shape[2], K.shape[2], pre, nxt)
        s = s + M * -40000.0
        m = s.max(dim=-1, keepdim=True).values
        e = torch.exp(s - m)
        l = e.sum(dim=-1, keepdim=True)
        o = (e / l) @ V
        stat = torch.float64 if dt == torch.float64 else torch.float32
        return (from_bnsd(o, layout).to(dt),
                m.detach().expand(*m.shape[:-1], 8).to(stat).contiguous(),
                l.detach().expand(*l.shape[:-1], 8).to(stat).contiguous())
    return fn


def attrs(layout, head_num, scale, mode=0, pre=2147483647, nxt=2147483647):
    return {"head_num": head_num, "input_layout": layout, "scale": float(scale),
            "sparse_mode": mode, "pre_tockens": pre, "next_tockens": nxt}


def gen():
    cs = []

    def add(name, layout, head_num, scale, q, k, v, pse=None, mask=None, mode=0, pre=2147483647, nxt=2147483647, **kw):
        r = Rand("nn_attention/" + name + "#dy")
        dy = r.randn(q.shape, q.dtype)
        cs.append(case("npu.fusion_attention/" + name, "npu.fusion_attention", [q, k, v, pse, mask],
                       fusion_attention(layout, head_num, scale, mode, pre, nxt),
                       attrs=attrs(layout, head_num, scale, mode, pre, nxt),
                       grad_outputs=[dy, None, None], **kw))

    r = Rand("nn_attention")
    # BNSD multi-head, no mask, scale 1/sqrt(D).
    add("bnsd_mha", "BNSD", 2, 1 / math.sqrt(5), r.randn((2, 2, 3, 5)), r.randn((2, 2, 4, 5)), r.randn((2, 2, 4, 5)))
    # BSH grouped-query (N1 = 4, N2 = 2), right-down causal built from sparse_mode 3.
    add("bsh_gqa_mode3", "BSH", 4, 0.5, r.randn((2, 4, 12)), r.randn((2, 6, 6)), r.randn((2, 6, 6)), mode=3)
    # SBH with a full BNSS pse and a given B1SS bool mask (sparse_mode 0).
    add("sbh_pse_mask", "SBH", 2, 0.35, r.randn((5, 1, 8)), r.randn((5, 1, 8)), r.randn((5, 1, 8)),
        pse=r.randn((1, 2, 5, 5)), mask=r.bool((1, 1, 5, 5), 0.3))
    # BSND multi-query (N2 = 1), left-up causal (sparse_mode 2) with S1 < S2.
    add("bsnd_mqa_mode2", "BSND", 3, 0.6, r.randn((1, 3, 3, 4)), r.randn((1, 5, 1, 4)), r.randn((1, 5, 1, 4)), mode=2)
    # band (sparse_mode 4) with pre 1, next 2.
    add("bnsd_band_mode4", "BNSD", 1, 0.4, r.randn((1, 1, 6, 3)), r.randn((1, 1, 6, 3)), r.randn((1, 1, 6, 3)),
        mode=4, pre=1, nxt=2)
    # sparse_mode 0 without mask but finite tokens: msprobe's band.
    add("bnsd_mode0_tokens", "BNSD", 2, 0.5, r.randn((1, 2, 5, 2)), r.randn((1, 2, 5, 2)), r.randn((1, 2, 5, 2)),
        mode=0, pre=2, nxt=0)
    # pse broadcast over the query axis (BN1S) and a 2-D uint8 mask, sparse_mode 1.
    add("bsh_pse_bn1s_mode1", "BSH", 2, 0.7, r.randn((2, 3, 4)), r.randn((2, 4, 4)), r.randn((2, 4, 4)),
        pse=r.randn((2, 2, 1, 4)), mask=r.bool((3, 4), 0.25).to(torch.uint8), mode=1)
    # float32 inputs: float32 attention_out, float32 statistics.
    add("bsh_float32", "BSH", 2, 0.25, r.randn((1, 4, 6), torch.float32), r.randn((1, 4, 6), torch.float32),
        r.randn((1, 4, 6), torch.float32), mask=r.bool((4, 4), 0.3))
    return cs


if __name__ == "__main__":
    write_group("nn_attention", gen())
