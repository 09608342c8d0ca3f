"""Golden cases for the multi-head attention family (sdk/ops/schema_mha.go):
group "mha".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_mha.py

writes golden/mha.json.gz from real PyTorch 1.13 on the CPU (format:
golden_lib.py): F.multi_head_attention_forward with query, key and value
distinct tensors (the in-projection's w.chunk(3) path, as a replayed dump
gives them), batched and unbatched, every mask kind and their merges,
bias_k/bias_v, add_zero_attn, separate projection weights, static_k/static_v,
need_weights False, average_attn_weights False, dropout_p > 0 with
training False; forward and backward (every input gradient, seeded by
both outputs' gradients), error cases with PyTorch's message, and emulated
cases at float32, bfloat16 and float16 (PyTorch 1.13's CPU has no float16
addmm, bmm or softmax: computed in float32 and rounded, "_via_f32").
need_weights False makes output 1 an empty tensor (PyTorch returns None).
"""

import warnings

import torch
import torch.nn.functional as F

from golden_lib import REPORT, Rand, case, checked, error_case, write_group

warnings.simplefilter("ignore")

f64 = torch.float64
CASES = []
OP = "multi_head_attention"
NAMES = ["query", "key", "value", "in_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj_weight", "out_proj_bias",
         "key_padding_mask", "attn_mask", "q_proj_weight", "k_proj_weight", "v_proj_weight", "static_k", "static_v"]
MASKS = (NAMES.index("key_padding_mask"), NAMES.index("attn_mask"))


class _Short(Rand):
    """Rand with values rounded to 3 decimals: short JSON, a small file."""

    def randn(self, shape, dtype=f64):
        return (torch.round(super().randn(shape, f64) * 1000) / 1000).to(dtype)


def R(name):
    return _Short("mha/" + name)


def mha_fn(attrs):
    a = dict(attrs)

    def fn(*xs):
        kw = dict(zip(NAMES, xs))
        out, w = F.multi_head_attention_forward(
            kw["query"], kw["key"], kw["value"], a["embed_dim_to_check"], a["num_heads"], kw["in_proj_weight"], kw["in_proj_bias"],
            kw["bias_k"], kw["bias_v"], a["add_zero_attn"], a["dropout_p"], kw["out_proj_weight"], kw["out_proj_bias"],
            training=a["training"], key_padding_mask=kw["key_padding_mask"], need_weights=a["need_weights"], attn_mask=kw["attn_mask"],
            use_separate_proj_weight=a["use_separate_proj_weight"], q_proj_weight=kw["q_proj_weight"], k_proj_weight=kw["k_proj_weight"],
            v_proj_weight=kw["v_proj_weight"], static_k=kw["static_k"], static_v=kw["static_v"],
            average_attn_weights=a["average_attn_weights"])
        if w is None:
            w = torch.empty(0, dtype=out.dtype)
        return out, w
    return fn


def via_f32(fn, d):
    """fn computed in float32, its outputs rounded to d."""
    def wrapped(*xs):
        args = [x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        return tuple(o.to(d) if o.dtype == torch.float32 else o for o in fn(*args))
    return wrapped


def attrs_of(E, H, **kw):
    a = {"embed_dim_to_check": E, "num_heads": H, "add_zero_attn": False, "dropout_p": 0.0, "training": True, "need_weights": True,
         "use_separate_proj_weight": False, "average_attn_weights": True}
    a.update(kw)
    return a


def inputs(r, L=3, S=4, N=2, E=4, H=2, d=f64, batched=True, in_bias=True, out_bias=True, bias_kv=False, kpm=None, attn_mask=None,
           separate=False, kdim=None, vdim=None, static=(False, False), static_s=None):
    """The 16 inputs (None where absent); kpm/attn_mask are given tensors."""
    kdim, vdim = kdim or E, vdim or E

    def t(*shape):
        return r.randn(shape, d)
    bs = (N,) if batched else ()
    q = t(L, *bs, E)
    k = t(S, *bs, kdim)
    v = t(S, *bs, vdim)
    xs = {n: None for n in NAMES}
    xs.update(query=q, key=k, value=v, out_proj_weight=t(E, E) * 0.5)
    if separate:
        xs.update(q_proj_weight=t(E, E) * 0.5, k_proj_weight=t(E, kdim) * 0.5, v_proj_weight=t(E, vdim) * 0.5)
    else:
        xs["in_proj_weight"] = t(3 * E, E) * 0.5
    if in_bias:
        xs["in_proj_bias"] = t(3 * E)
    if out_bias:
        xs["out_proj_bias"] = t(E)
    if bias_kv:
        xs.update(bias_k=t(1, 1, E), bias_v=t(1, 1, E))
    hd, B = E // H, N * H if batched else H
    ss = static_s or S
    if static[0]:
        xs["static_k"] = t(B, ss, hd)
    if static[1]:
        xs["static_v"] = t(B, ss, hd)
    xs["key_padding_mask"] = kpm
    xs["attn_mask"] = attn_mask
    return [xs[n] for n in NAMES]


def rg_of(xs):
    return [isinstance(x, torch.Tensor) and x.dtype.is_floating_point and i not in MASKS for i, x in enumerate(xs)]


def add(name, xs, attrs, backward=True, mode="bench", fn=None, check=False, **kw):
    fn = fn or mha_fn(attrs)
    rg = rg_of(xs) if backward else None
    mk = checked if check else case
    CASES.append(mk(name, OP, xs, fn, attrs=attrs, backward=backward, requires_grad=rg, mode=mode, **kw))


def err(name, xs, attrs):
    CASES.append(error_case(name, OP, xs, mha_fn(attrs), attrs=attrs))


def bool_mask(r, shape, p=0.3):
    m = r.bool(shape, p)
    m[..., 0] = False  # every row keeps a position: no all −inf softmax
    return m


def bench_cases():
    E, H, L, S, N = 4, 2, 3, 4, 2
    A = attrs_of(E, H)
    r = R("basic")
    add("basic", inputs(r), A)
    add("unbatched", inputs(R("unbatched"), batched=False), A)
    add("no_bias", inputs(R("no_bias"), in_bias=False, out_bias=False), A)
    add("one_head", inputs(R("one_head"), H=1), attrs_of(E, 1))
    add("four_heads", inputs(R("four_heads"), E=8, H=4), attrs_of(8, 4))
    r = R("masks")
    add("attn_bool_2d", inputs(r, attn_mask=bool_mask(r, (L, S))), A)
    add("attn_float_2d", inputs(r, attn_mask=r.randn((L, S))), A)
    add("attn_bool_3d", inputs(r, attn_mask=bool_mask(r, (N * H, L, S))), A)
    add("attn_float_3d", inputs(r, attn_mask=r.randn((N * H, L, S))), A)
    add("attn_uint8_2d", inputs(r, attn_mask=bool_mask(r, (L, S)).to(torch.uint8)), A)
    add("attn_float32_mask", inputs(r, attn_mask=r.randn((L, S)).float()), A)
    add("kpm_bool", inputs(r, kpm=bool_mask(r, (N, S))), A)
    add("kpm_float", inputs(r, kpm=r.randn((N, S))), A)
    add("kpm_bool_attn_float", inputs(r, kpm=bool_mask(r, (N, S)), attn_mask=r.randn((L, S))), A)
    add("kpm_bool_attn_bool", inputs(r, kpm=bool_mask(r, (N, S)), attn_mask=bool_mask(r, (L, S))), A)
    add("kpm_float_attn_bool", inputs(r, kpm=(r.randn((N, S)) > 0.5).double(), attn_mask=bool_mask(r, (L, S))), A)
    add("kpm_bool_attn_float_3d", inputs(r, kpm=bool_mask(r, (N, S)), attn_mask=r.randn((N * H, L, S))), A)
    add("unbatched_masks", inputs(r, batched=False, kpm=bool_mask(r, (S,)), attn_mask=r.randn((L, S))), A)
    add("unbatched_mask_3d", inputs(r, batched=False, attn_mask=bool_mask(r, (H, L, S))), A)
    r = R("bias_kv")
    add("bias_kv", inputs(r, bias_kv=True), A)
    add("bias_kv_masks", inputs(r, bias_kv=True, kpm=bool_mask(r, (N, S)), attn_mask=r.randn((L, S))), A)
    add("zero_attn", inputs(r, attn_mask=bool_mask(r, (L, S)), kpm=bool_mask(r, (N, S))), attrs_of(E, H, add_zero_attn=True))
    add("bias_kv_zero_attn", inputs(r, bias_kv=True, attn_mask=r.randn((L, S))), attrs_of(E, H, add_zero_attn=True))
    add("zero_attn_unbatched", inputs(r, batched=False, bias_kv=True), attrs_of(E, H, add_zero_attn=True))
    r = R("separate")
    SA = attrs_of(E, H, use_separate_proj_weight=True)
    add("separate", inputs(r, separate=True), SA)
    add("separate_kvdim", inputs(r, separate=True, kdim=3, vdim=5, attn_mask=bool_mask(r, (L, S))), SA)
    add("separate_no_bias", inputs(r, separate=True, in_bias=False, kdim=5), SA)
    r = R("static")
    add("static_kv", inputs(r, static=(True, True)), A)
    add("static_kv_len", inputs(r, static=(True, True), static_s=6, kpm=bool_mask(r, (N, 6))), A)
    add("static_k", inputs(r, static=(True, False)), A)
    add("static_v_zero_attn", inputs(r, static=(False, True)), attrs_of(E, H, add_zero_attn=True))
    r = R("weights")
    add("no_weights", inputs(r), attrs_of(E, H, need_weights=False))
    add("per_head", inputs(r, attn_mask=r.randn((L, S))), attrs_of(E, H, average_attn_weights=False))
    add("per_head_unbatched", inputs(r, batched=False), attrs_of(E, H, average_attn_weights=False))
    add("no_weights_unbatched", inputs(r, batched=False), attrs_of(E, H, need_weights=False))
    add("eval_dropout", inputs(r, attn_mask=bool_mask(r, (L, S))), attrs_of(E, H, dropout_p=0.5, training=False))
    add("three_heads", inputs(R("three"), E=6, H=3, L=5, S=6, N=1), attrs_of(6, 3))
    add("forward_only", inputs(R("fwd"), kpm=bool_mask(R("fwdm"), (N, S))), A, backward=False)


def error_cases():
    E, H, L, S, N = 4, 2, 3, 4, 2
    A = attrs_of(E, H)
    r = R("err")
    err("err/embed_dim", inputs(r), attrs_of(6, H))
    err("err/not_divisible", inputs(r), attrs_of(E, 3))
    xs = inputs(r)
    xs[0] = xs[0].unsqueeze(0)
    err("err/query_4d", xs, A)
    xs = inputs(r)
    xs[1] = xs[1][:, 0]
    err("err/key_2d", xs, A)
    xs = inputs(r, batched=False)
    xs[2] = xs[2].unsqueeze(1)
    err("err/unbatched_value_3d", xs, A)
    err("err/kpm_int", inputs(r, kpm=torch.zeros(N, S, dtype=torch.int64)), A)
    err("err/kpm_3d", inputs(r, kpm=torch.zeros(N, 1, S, dtype=torch.bool)), A)
    err("err/kpm_shape", inputs(r, kpm=torch.zeros(N, S + 1, dtype=torch.bool)), A)
    err("err/attn_int", inputs(r, attn_mask=torch.zeros(L, S, dtype=torch.int64)), A)
    err("err/attn_1d", inputs(r, attn_mask=torch.zeros(S, dtype=torch.bool)), A)
    err("err/attn_2d_shape", inputs(r, attn_mask=torch.zeros(L, S + 1, dtype=torch.bool)), A)
    err("err/attn_3d_shape", inputs(r, attn_mask=torch.zeros(N, L, S, dtype=torch.bool)), A)
    err("err/unbatched_attn_3d_shape", inputs(r, batched=False, attn_mask=torch.zeros(1, L, S, dtype=torch.bool)), A)
    xs = inputs(r)
    xs[2] = xs[2][:-1]
    err("err/kv_shape", xs, A)
    xs = inputs(r, separate=True)
    xs[2] = xs[2][:-1]
    err("err/kv_separate_shape", xs, attrs_of(E, H, use_separate_proj_weight=True))
    xs = inputs(r)
    xs[3] = None
    err("err/no_in_proj", xs, A)
    xs = inputs(r, separate=True)
    xs[12] = None
    err("err/no_k_proj", xs, attrs_of(E, H, use_separate_proj_weight=True))
    xs = inputs(r, separate=True)
    xs[13] = xs[13][:, :3]
    err("err/v_proj_shape", xs, attrs_of(E, H, use_separate_proj_weight=True))
    xs = inputs(r, separate=True)
    xs[4] = xs[4][:9]
    err("err/separate_bias_shape", xs, attrs_of(E, H, use_separate_proj_weight=True))
    xs = inputs(r, bias_kv=True, static=(True, True))
    err("err/bias_static", xs, A)
    err("err/static_k_batch", _static_bad(r, 0), A)
    err("err/static_k_dim", _static_bad(r, 2), A)
    err("err/static_len_mask", inputs(r, static=(True, True), static_s=6, attn_mask=torch.zeros(L, S, dtype=torch.bool)), A)


def _static_bad(r, dim):
    xs = inputs(r, static=(True, True))
    sk = xs[14]
    xs[14] = sk[:-1] if dim == 0 else sk[..., :-1]
    return xs


def emulated_cases():
    E, H, L, S, N = 8, 2, 4, 5, 2
    for dn, d in (("float32", torch.float32), ("bfloat16", torch.bfloat16), ("float16", torch.float16)):
        variants = [
            ("plain", {}, {}),
            ("masks", dict(kpm="bool", attn_mask="float"), {}),
            ("bias_kv_zero", dict(bias_kv=True, attn_mask="bool"), dict(add_zero_attn=True)),
            ("per_head_unbatched", dict(batched=False, kpm="bool"), dict(average_attn_weights=False)),
            ("separate_static", dict(separate=True, static=(False, True)), dict(use_separate_proj_weight=True)),
            ("no_weights", {}, dict(need_weights=False)),
        ]
        if d == torch.bfloat16:
            # bit for bit: the mask merges, a float mask of another dtype
            # (copied into baddbmm's result), dropout off in eval, per-head
            # weights batched, static k with a zero position, no biases
            variants += [
                ("kpm_float_attn_bool_3d", dict(kpm="float", attn_mask="bool_3d"), {}),
                ("kpm_bool_attn_float_3d", dict(kpm="bool", attn_mask="float_3d"), {}),
                ("attn_float32", dict(attn_mask="float32"), {}),
                ("eval_per_head", dict(attn_mask="bool"), dict(dropout_p=0.3, training=False, average_attn_weights=False)),
                ("static_k_zero_no_bias", dict(static=(True, False), in_bias=False, out_bias=False), dict(add_zero_attn=True)),
                ("four_heads_unbatched", dict(batched=False, H=4, attn_mask="float"), {}),
            ]
        for vn, ikw, akw in variants:
            name = "%s/%s" % (vn, dn)
            r = R(name)
            ikw = dict(ikw)
            B = ikw.get("batched", True)
            if ikw.get("kpm") == "bool":
                ikw["kpm"] = bool_mask(r, (N, S) if B else (S,))
            h = ikw.pop("H", H)
            if ikw.get("kpm") == "float":
                ikw["kpm"] = r.randn((N, S)).to(d)
            m = ikw.get("attn_mask")
            if m == "float":
                ikw["attn_mask"] = r.randn((L, S)).to(d)
            elif m == "float32":
                ikw["attn_mask"] = r.randn((L, S)).float()
            elif m == "bool":
                ikw["attn_mask"] = bool_mask(r, (L, S))
            elif m == "bool_3d":
                ikw["attn_mask"] = bool_mask(r, (N * h, L, S))
            elif m == "float_3d":
                ikw["attn_mask"] = r.randn((N * h, L, S)).to(d)
            xs = inputs(r, L=L, S=S, N=N, E=E, H=h, d=d, **ikw)
            attrs = attrs_of(E, h, **akw)
            fn = mha_fn(attrs)
            if d == torch.float16:
                name, fn = name + "_via_f32", via_f32(fn, d)
            if d == torch.bfloat16:
                # the composition of PyTorch's bfloat16 kernels, bit for bit
                add(name, xs, attrs, mode="emulated", fn=fn, ulp=0)
                continue
            # float32 (and float16 through it): PyTorch's BLAS sums in its
            # own order and the gradients cancel (PyTorch's own float32
            # gradients are up to 1.5e-5 from float64's, at magnitudes
            # near 35): a tolerance instead of PyTorch's ulp; float16 one
            # ulp more (a float32 difference may round it either way)
            tol = {"atol": 3e-5, "rtol": 1e-5 if d == torch.float32 else 1e-3}
            add(name, xs, attrs, mode="emulated", fn=fn, check=True, **tol)


def main():
    bench_cases()
    error_cases()
    emulated_cases()
    print("\n".join(REPORT))
    write_group("mha", CASES)


if __name__ == "__main__":
    main()
