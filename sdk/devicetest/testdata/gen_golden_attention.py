"""Golden cases for npu.fusion_attention (torch_npu.npu_fusion_attention /
MindSpore flash_attention_score), written to golden/nn_attention.json.gz.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_attention.py

There is no fused attention in PyTorch 1.13 CPU, so the reference is
msprobe's bench written with plain torch ops in float64 (fused-ops.md §7.3-
7.5): layout → BNSD by view/permute, kv heads repeated with
repeat_interleave, masks built with triu/tril as msprobe's
generate_atten_mask does, S = (Q·Kᵀ + pse)·scale + M·(−40000), softmax, P·V,
and autograd for the gradients of attention_out (the only output run_ut
differentiates, grad_index 0). Masks follow torch_npu's documentation
(semantics "official": every layout x sparse_mode 0-8 x MHA/GQA, TND with
variable-length batches) or msprobe's reference (semantics "msprobe", the
--compat msprobe cases). Under the official semantics a fully masked query
row gets zero probabilities with inner_precise 2 and with sparse_mode 3
when S1 > S2 (torch_npu's invalid-row computation); msprobe's reference
keeps their unmasked attention. softmax_max / softmax_sum are
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


def band(s1, s2, pre, nxt, shift=0):
    """1 where j - i - shift > next or < -pre."""
    i = torch.arange(s1).reshape(-1, 1)
    j = torch.arange(s2).reshape(1, -1)
    r = j - i - shift
    return ((r > nxt) | (r < -pre)).to(torch.float64)


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


def official_mask(mask, mode, b, s1, s2, pre, nxt, prefix):
    """torch_npu's documented masks (ops-transformer sparse-mode note):
    mode 0 adds the pre/next band (top-left) to a given mask and masks
    nothing without one; 1 uses the given mask; 2, 3, 4 build left-up
    causal, right-down causal and the band anchored bottom-right; 5 uses
    the given mask or the prefix mask; 6 the prefix mask."""
    given = None if mask is None else mask.to(torch.float64).ne(0).to(torch.float64)
    if mode == 0:
        return None if given is None else torch.maximum(given, band(s1, s2, pre, nxt))
    if mode == 1:
        return given
    if mode == 2:
        return band(s1, s2, 2 ** 62, 0)
    if mode == 3:
        return band(s1, s2, 2 ** 62, 0, s2 - s1)
    if mode == 4:
        return band(s1, s2, pre, nxt, s2 - s1)
    if mode == 5 and given is not None:
        return given
    # prefix: visible iff j <= i + (s2 - s1) or j < prefix[b]
    out = torch.zeros(b, 1, s1, s2)
    for bi in range(b):
        causal = band(s1, s2, 2 ** 62, 0, s2 - s1)
        cols = (torch.arange(s2) >= prefix[bi]).to(torch.float64).reshape(1, -1)
        out[bi, 0] = causal * cols
    return out


def attend(Q, K, V, pse, M, scale, zero_rows=False):
    """BNSD float64 attention with GQA (kv head h // G): O, row max, row sum.
    zero_rows: a query row whose every key is masked gets zero
    probabilities (torch_npu's invalid-row computation), so a zero output
    and no gradient through it; its max and sum stay those of the masked
    scores."""
    g = Q.shape[1] // K.shape[1]
    K = K.repeat_interleave(g, dim=1)
    V = V.repeat_interleave(g, dim=1)
    s = Q @ K.transpose(-1, -2)
    if pse is not None:
        s = s + pse.to(torch.float64)
    s = s * scale
    if M is not None:
        s = s + M * -40000.0
    m = s.max(dim=-1, keepdim=True).values
    e = torch.exp(s - m)
    l = e.sum(dim=-1, keepdim=True)
    p = e / l
    if zero_rows and M is not None:
        full = torch.broadcast_to(M, s.shape).ne(0).all(dim=-1, keepdim=True)
        p = p.masked_fill(full, 0.0)
    return p @ V, m, l


def invalid_rows(semantics, inner_precise, mode, s1, s2):
    """Whether fully masked rows are zeroed: torch_npu's inner_precise 2
    (invalid-row computation), and automatically where the kernel knows
    there are such rows, sparse_mode 3 with S1 > S2 (torch_npu's
    documentation); msprobe's reference never zeroes them (fused-ops §7.4)."""
    return semantics == "official" and (inner_precise == 2 or (mode == 3 and s1 > s2))


def fusion_attention(layout, head_num, scale, mode=0, pre=2147483647, nxt=2147483647, semantics="official",
                     prefix=None, cq=None, ck=None, inner_precise=0):
    def fn(q, k, v, pse, mask):
        dt = q.dtype
        stat = torch.float64 if dt == torch.float64 else torch.float32
        if layout == "TND":
            outs, ms, ls = [], [], []
            bandb = [i for i in range(len(cq)) if cq[i] - (cq[i - 1] if i else 0) > 0]
            bandb = bandb[-1] if mode == 7 else bandb[0]
            for bi in range(len(cq)):
                q0, q1 = (cq[bi - 1] if bi else 0), cq[bi]
                k0, k1 = (ck[bi - 1] if bi else 0), ck[bi]
                if q1 == q0:
                    continue
                Q = q[q0:q1].to(torch.float64).permute(1, 0, 2).unsqueeze(0)
                K = k[k0:k1].to(torch.float64).permute(1, 0, 2).unsqueeze(0)
                V = v[k0:k1].to(torch.float64).permute(1, 0, 2).unsqueeze(0)
                bm = mode
                if mode in (7, 8):
                    bm = 4 if bi == bandb else (3 if mode == 7 else 2)
                M = official_mask(None, bm, 1, q1 - q0, k1 - k0, pre, nxt, None if prefix is None else [prefix[bi]])
                o, m, l = attend(Q, K, V, None, M, scale, invalid_rows(semantics, inner_precise, bm, q1 - q0, k1 - k0))
                outs.append(o[0].permute(1, 0, 2))
                ms.append(m[0].permute(1, 0, 2))
                ls.append(l[0].permute(1, 0, 2))
            o, m, l = torch.cat(outs), torch.cat(ms), torch.cat(ls)
            return (o.to(dt), m.detach().expand(*m.shape[:-1], 8).to(stat).contiguous(),
                    l.detach().expand(*l.shape[:-1], 8).to(stat).contiguous())
        if layout in ("BSH", "SBH"):
            n1 = head_num
            d = q.shape[-1] // n1
            n2 = k.shape[-1] // d
        else:
            n1, n2 = (q.shape[2], k.shape[2]) if layout == "BSND" else (q.shape[1], k.shape[1])
        Q = to_bnsd(q.to(torch.float64), layout, n1)
        K = to_bnsd(k.to(torch.float64), layout, n2)
        V = to_bnsd(v.to(torch.float64), layout, n2)
        s1, s2 = Q.shape[2], K.shape[2]
        if semantics == "msprobe":
            M = ref_mask(mask, mode, s1, s2, pre, nxt)
        else:
            M = official_mask(mask, mode, Q.shape[0], s1, s2, pre, nxt, prefix)
        o, m, l = attend(Q, K, V, pse, M, scale, invalid_rows(semantics, inner_precise, mode, s1, s2))
        return (from_bnsd(o, layout).to(dt),
                m.detach().expand(*m.shape[:-1], 8).to(stat).contiguous(),
                l.detach().expand(*l.shape[:-1], 8).to(stat).contiguous())
    return fn


def attrs(layout, head_num, scale, mode=0, pre=2147483647, nxt=2147483647, semantics="official", prefix=None, cq=None, ck=None,
          inner_precise=0):
    a = {"head_num": head_num, "input_layout": layout, "scale": float(scale),
         "sparse_mode": mode, "pre_tockens": pre, "next_tockens": nxt, "semantics": semantics,
         "band_anchor": "top_left" if semantics == "msprobe" else "bottom_right"}
    if inner_precise:
        a["inner_precise"] = inner_precise
    for k, v in (("prefix", prefix), ("actual_seq_qlen", cq), ("actual_seq_kvlen", ck)):
        if v is not None:
            a[k] = list(v)
    return a


def shapes(layout, b, n, s, d):
    return {"BSH": (b, s, n * d), "SBH": (s, b, n * d), "BSND": (b, s, n, d), "BNSD": (b, n, s, d)}[layout]


def gen():
    cs = []

    def add(name, layout, head_num, scale, q, k, v, pse=None, mask=None, mode=0, pre=2147483647, nxt=2147483647,
            semantics="official", prefix=None, cq=None, ck=None, inner_precise=0, **kw):
        r = Rand("nn_attention/" + name + "#dy")
        dy = r.randn(q.shape, q.dtype)
        if semantics == "msprobe":
            name = "msprobe_" + name
        c = case("npu.fusion_attention/" + name, "npu.fusion_attention", [q, k, v, pse, mask],
                 fusion_attention(layout, head_num, scale, mode, pre, nxt, semantics, prefix, cq, ck, inner_precise),
                 attrs=attrs(layout, head_num, scale, mode, pre, nxt, semantics, prefix, cq, ck, inner_precise),
                 grad_outputs=[dy, None, None], **kw)
        cs.append(c)
        return c

    r = Rand("nn_attention")
    # msprobe's reference (--compat msprobe): the cases of the first version.
    ms = dict(semantics="msprobe")
    add("bnsd_mha", "BNSD", 2, 1 / math.sqrt(5), r.randn((2, 2, 3, 5)), r.randn((2, 2, 4, 5)), r.randn((2, 2, 4, 5)), **ms)
    add("bsh_gqa_mode3", "BSH", 4, 0.5, r.randn((2, 4, 12)), r.randn((2, 6, 6)), r.randn((2, 6, 6)), mode=3, **ms)
    add("sbh_pse_mask", "SBH", 2, 0.35, r.randn((5, 1, 8)), r.randn((5, 1, 8)), r.randn((5, 1, 8)),
        pse=r.randn((1, 2, 5, 5)), mask=r.bool((1, 1, 5, 5), 0.3), **ms)
    add("bsnd_mqa_mode2", "BSND", 3, 0.6, r.randn((1, 3, 3, 4)), r.randn((1, 5, 1, 4)), r.randn((1, 5, 1, 4)), mode=2, **ms)
    add("bnsd_band_mode4", "BNSD", 1, 0.4, r.randn((1, 1, 6, 3)), r.randn((1, 1, 6, 3)), r.randn((1, 1, 6, 3)),
        mode=4, pre=1, nxt=2, **ms)
    # msprobe: mode 0 without a mask but finite tokens builds a band; mode 4
    # anchored top-left with S1 != S2.
    add("bnsd_mode0_tokens", "BNSD", 2, 0.5, r.randn((1, 2, 5, 2)), r.randn((1, 2, 5, 2)), r.randn((1, 2, 5, 2)),
        mode=0, pre=2, nxt=0, **ms)
    add("bnsd_mode4_s1ne_s2", "BNSD", 1, 0.5, r.randn((1, 1, 3, 2)), r.randn((1, 1, 5, 2)), r.randn((1, 1, 5, 2)),
        mode=4, pre=1, nxt=1, **ms)
    add("bsh_pse_bn1s_mode1", "BSH", 2, 0.7, r.randn((2, 3, 4)), r.randn((2, 4, 4)), r.randn((2, 4, 4)),
        pse=r.randn((2, 2, 1, 4)), mask=r.bool((3, 4), 0.25).to(torch.uint8), mode=1, **ms)
    add("bsh_float32", "BSH", 2, 0.25, r.randn((1, 4, 6), torch.float32), r.randn((1, 4, 6), torch.float32),
        r.randn((1, 4, 6), torch.float32), mask=r.bool((4, 4), 0.3), **ms)

    # torch_npu's semantics: every layout x sparse mode x (MHA, GQA).
    B, S1, S2, D = 2, 4, 5, 3
    for layout in ("BSH", "SBH", "BSND", "BNSD"):
        for heads, (n1, n2) in (("mha", (2, 2)), ("gqa", (4, 2))):
            for mode, extra in ((0, {}), (0, {"mask": True, "pre": 1, "nxt": 1}), (1, {"mask": True}), (1, {}),
                                (2, {}), (3, {}), (4, {"pre": 1, "nxt": 0}), (5, {"mask": True}),
                                (5, {"prefix": [1, 3]}), (6, {"prefix": [2, 0]})):
                tag = "%s_%s_mode%d%s" % (layout.lower(), heads, mode,
                                          "".join("_" + k for k in sorted(extra) if k in ("mask", "prefix")))
                q = r.randn(shapes(layout, B, n1, S1, D))
                k = r.randn(shapes(layout, B, n2, S2, D))
                v = r.randn(shapes(layout, B, n2, S2, D))
                mask = r.bool((B, 1, S1, S2), 0.3) if extra.get("mask") else None
                pse = r.randn((1, n1, S1, S2)) if mode == 1 else None
                add(tag, layout, n1, 0.45, q, k, v, pse=pse, mask=mask, mode=mode,
                    pre=extra.get("pre", 2147483647), nxt=extra.get("nxt", 2147483647), prefix=extra.get("prefix"))
    # TND: batches of 2, 0, 3 and 1 query rows over 3, 2, 4 and 2 key rows.
    cq, ck = [2, 2, 5, 6], [3, 5, 9, 11]
    for heads, (n1, n2) in (("mha", (2, 2)), ("gqa", (4, 2))):
        for mode, extra in ((0, {}), (1, {}), (2, {}), (3, {}), (4, {"pre": 1, "nxt": 0}), (6, {"prefix": [1, 0, 2, 1]}),
                            (7, {"pre": 4, "nxt": -1}), (8, {"pre": 4, "nxt": 1})):
            q = r.randn((6, n1, D))
            k = r.randn((11, n2, D))
            v = r.randn((11, n2, D))
            add("tnd_%s_mode%d" % (heads, mode), "TND", n1, 0.5, q, k, v, mode=mode,
                pre=extra.get("pre", 2147483647), nxt=extra.get("nxt", 2147483647), prefix=extra.get("prefix"), cq=cq, ck=ck)
    # narrow dtypes: float32 results of the float64 reference, rounded once.
    add("bnsd_gqa_mode3_float32", "BNSD", 4, 0.5, r.randn((1, 4, 3, 4), torch.float32), r.randn((1, 2, 5, 4), torch.float32),
        r.randn((1, 2, 5, 4), torch.float32), mode=3)
    add("tnd_mode8_bfloat16", "TND", 2, 0.5, r.randn((6, 2, 4), torch.bfloat16), r.randn((11, 2, 4), torch.bfloat16),
        r.randn((11, 2, 4), torch.bfloat16), mode=8, pre=4, nxt=1, cq=cq, ck=ck)
    # npu_fusion_attention_grad: (dq, dk, dv, dpse) of the forward for dy,
    # as outputs; dpse is zero-size without a pse.
    def add_grad(name, layout, head_num, scale, q, k, v, dy, pse=None, mask=None, mode=0, pre=2147483647, nxt=2147483647,
                 prefix=None, cq=None, ck=None, emulated=False, inner_precise=0):
        fwd = fusion_attention(layout, head_num, scale, mode, pre, nxt, "official", prefix, cq, ck, inner_precise)

        def fn(q, k, v, dy, pse, mask):
            leaves = [t.detach().double().requires_grad_() for t in (q, k, v)]
            p = None if pse is None else pse.detach().double().requires_grad_()
            o = fwd(*leaves, p, mask)[0]
            want = leaves + ([p] if p is not None else [])
            gs = torch.autograd.grad(o, want, dy.double())
            out = [g.to(q.dtype) for g in gs[:3]]
            out.append(gs[3].to(q.dtype) if p is not None else torch.zeros(0, dtype=q.dtype))
            return tuple(out)
        cs.append(case("npu.fusion_attention_grad/" + name, "npu.fusion_attention_grad", [q, k, v, dy, pse, mask], fn,
                       attrs=attrs(layout, head_num, scale, mode, pre, nxt, "official", prefix, cq, ck, inner_precise), backward=False,
                       mode="emulated" if emulated else "bench"))

    add_grad("bsh_gqa_mode3", "BSH", 4, 0.5, r.randn((2, 4, 12)), r.randn((2, 6, 6)), r.randn((2, 6, 6)), r.randn((2, 4, 12)), mode=3)
    add_grad("bnsd_pse_mask", "BNSD", 2, 0.35, r.randn((1, 2, 5, 3)), r.randn((1, 2, 5, 3)), r.randn((1, 2, 5, 3)),
             r.randn((1, 2, 5, 3)), pse=r.randn((1, 2, 5, 5)), mask=r.bool((1, 1, 5, 5), 0.3))
    add_grad("tnd_mode7", "TND", 2, 0.5, r.randn((6, 2, 3)), r.randn((11, 1, 3)), r.randn((11, 1, 3)), r.randn((6, 2, 3)),
             mode=7, pre=4, nxt=-1, cq=cq, ck=ck)
    # narrow dtypes: the float64 gradients rounded once
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        add_grad("sbh_mode4_" + str(dt).split(".")[1], "SBH", 2, 0.5, r.randn((4, 1, 6), dt), r.randn((5, 1, 6), dt),
                 r.randn((5, 1, 6), dt), r.randn((4, 1, 6), dt), mode=4, pre=1, nxt=0, emulated=True)
    # inner_precise 2 (torch_npu: "invalid-row computation"): a query row
    # whose every key is masked gets a zero output, zero dq and no dk, dv
    # or dpse through it; softmax_max/sum stay the masked scores'
    # statistics. 0 and 1 are reserved values (no effect). Each layout x
    # (MHA, GQA), a given mask with fully masked rows.
    def with_full_rows(mask, rows):
        mask = mask.clone()
        for b, i in rows:
            mask[b, ..., i, :] = True
        return mask

    def zero_rows_of(c, layout, n1, s1, d, rows):
        """Assert that attention_out of the case is 0 on the (b, i) rows
        of every head, and nonzero elsewhere."""
        o = torch.tensor([float(x) for x in c["outputs"][0]["data"]]).reshape(c["outputs"][0]["shape"])
        o = to_bnsd(o, layout, n1) if layout != "TND" else o
        for b in range(o.shape[0]):
            for i in range(s1):
                zero = bool((o[b, :, i, :] == 0).all())
                assert zero == ((b, i) in rows), (c["name"], b, i)
        return c

    # (its own random stream, after the cases above)
    r = Rand("nn_attention/invalid_rows")
    for layout in ("BSH", "SBH", "BSND", "BNSD"):
        for heads, (n1, n2) in (("mha", (2, 2)), ("gqa", (4, 2))):
            rows = [(0, 1), (1, 3)]
            q = r.randn(shapes(layout, B, n1, S1, D))
            k = r.randn(shapes(layout, B, n2, S2, D))
            v = r.randn(shapes(layout, B, n2, S2, D))
            mask = with_full_rows(r.bool((B, 1, S1, S2), 0.3), rows)
            c = add("%s_%s_inner_precise2" % (layout.lower(), heads), layout, n1, 0.45, q, k, v, mask=mask, mode=1,
                    pse=r.randn((1, n1, S1, S2)) if layout == "BNSD" else None, inner_precise=2)
            zero_rows_of(c, layout, n1, S1, D, rows)
    # mode 0: the given mask with its band; inner_precise 0 and 1 keep the
    # unmasked attention of a fully masked row (only 2 zeroes it)
    q, k, v = r.randn((1, 2, 4, 3)), r.randn((1, 2, 5, 3)), r.randn((1, 2, 5, 3))
    mask = with_full_rows(r.bool((1, 1, 4, 5), 0.2), [(0, 2)])
    for ip in (0, 1, 2):
        c = add("bnsd_mode0_mask_inner_precise%d" % ip, "BNSD", 2, 0.5, q, k, v, mask=mask, mode=0, pre=2, nxt=1, inner_precise=ip)
        zero_rows_of(c, "BNSD", 2, 4, 3, [(0, 2)] if ip == 2 else [])
    # sparse_mode 3 with S1 > S2: the first S1 − S2 rows are fully masked,
    # and torch_npu zeroes them whatever inner_precise
    for heads, (n1, n2) in (("mha", (2, 2)), ("gqa", (4, 2))):
        c = add("bnsd_%s_mode3_s1_gt_s2" % heads, "BNSD", n1, 0.5, r.randn((2, n1, 5, 3)), r.randn((2, n2, 3, 3)), r.randn((2, n2, 3, 3)), mode=3)
        zero_rows_of(c, "BNSD", n1, 5, 3, [(b, i) for b in range(2) for i in range(2)])
    add("bsh_mode3_s1_gt_s2_float32", "BSH", 2, 0.5, r.randn((1, 4, 6), torch.float32), r.randn((1, 2, 6), torch.float32),
        r.randn((1, 2, 6), torch.float32), mode=3)
    # TND: batches of 3, 1, 2 query rows over 1, 2, 2 keys; mode 3 (and 7's
    # right-down causal batches) zero the rows above a short batch's keys
    cq2, ck2 = [3, 4, 6], [1, 3, 5]
    for mode, extra in ((3, {}), (7, {"pre": 4, "nxt": 0})):
        for heads, (n1, n2) in (("mha", (2, 2)), ("gqa", (4, 2))):
            add("tnd_%s_mode%d_s1_gt_s2" % (heads, mode), "TND", n1, 0.5, r.randn((6, n1, D)), r.randn((5, n2, D)), r.randn((5, n2, D)),
                mode=mode, pre=extra.get("pre", 2147483647), nxt=extra.get("nxt", 2147483647), cq=cq2, ck=ck2)
    # msprobe's reference ignores inner_precise: the unmasked attention of
    # a fully masked row stays (fused-ops §7.4), S1 > S2 in mode 3 too
    q, k, v = r.randn((1, 2, 4, 3)), r.randn((1, 2, 5, 3)), r.randn((1, 2, 5, 3))
    c = add("bnsd_inner_precise2", "BNSD", 2, 0.5, q, k, v, mask=with_full_rows(r.bool((1, 1, 4, 5), 0.2), [(0, 1)]), mode=1,
            inner_precise=2, **ms)
    zero_rows_of(c, "BNSD", 2, 4, 3, [])
    add("bnsd_mode3_s1_gt_s2", "BNSD", 2, 0.5, r.randn((1, 2, 5, 3)), r.randn((1, 2, 3, 3)), r.randn((1, 2, 3, 3)), mode=3, **ms)

    mask = r.bool((1, 1, 5, 5), 0.3)
    mask[0, 0, 2, :] = True
    add_grad("bnsd_pse_inner_precise2", "BNSD", 2, 0.35, r.randn((1, 2, 5, 3)), r.randn((1, 2, 5, 3)), r.randn((1, 2, 5, 3)),
             r.randn((1, 2, 5, 3)), pse=r.randn((1, 2, 5, 5)), mask=mask, mode=1, inner_precise=2)
    add_grad("bsnd_gqa_mode3_s1_gt_s2", "BSND", 4, 0.5, r.randn((1, 5, 4, 3)), r.randn((1, 3, 2, 3)), r.randn((1, 3, 2, 3)),
             r.randn((1, 5, 4, 3)), mode=3)
    return cs


if __name__ == "__main__":
    write_group("nn_attention", gen())
