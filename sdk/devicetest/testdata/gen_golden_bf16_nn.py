"""Golden cases holding nn kernels to PyTorch 1.13's bits at bfloat16:
group "bf16_nn".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_bf16_nn.py

writes golden/bf16_nn.json.gz (format: golden_lib.py) from real PyTorch
1.13 on the CPU, one thread. Every case is mode "emulated" with ulp 0: a
device must round the intermediates as PyTorch's bfloat16 CPU kernels and
autograd formulas do, not merely return the correctly rounded result.

  - layer_norm and group_norm statistics: utils::RowwiseMoments' Welford at
    bfloat16 over 16-lane vectors (rows of 8, 40, 300 and 1100 elements
    reach the scalar tail, the vector lanes, two chunks and a three-level
    cascade); layer_norm's output and backward in float32 from bfloat16
    statistics, ds, db and dγ/dβ collectors (the collectors are per
    thread, so the bits depend on the thread count: one thread here, as the
    CPU device emulates);
  - group_norm at bfloat16 throughout: its kernel backward when only the
    output has a gradient, PyTorch's composite formula once mean and rstd
    carry gradients too;
  - batch_norm's bfloat16 mean and invstd (a channel of one element per
    sample takes the bfloat16 mean for its variance);
  - _softmax_backward_data's kernel (float32 with the lastdim kernel's sum
    stored at bfloat16) and its double backward's bfloat16 chain;
  - affine_grid_generator's bfloat16 linspace and bmm (baddbmm's bfloat16
    loop, cpublas' gemm above 400 multiply-adds per batch);
  - cosine_similarity's chain of bfloat16 tensor operations and autograd
    formulas;
  - embedding's backward adding gradient rows one index after another at
    bfloat16 and float16;
  - gelu's tanh approximation, forward and backward, every product, sum
    and the tanh rounded to bfloat16 (Vectorized<BFloat16>), with bfloat16
    constants; silu's x / (1 + exp(-x)) and its backward likewise;
  - pow's backward in its three forms (number exponent, tensor exponent,
    number base) and reciprocal's, at bfloat16 and float16 (reciprocal at
    float32 too): each tensor op of the autograd formula rounded, the pow
    and log inside it computed in float and rounded.
"""

import torch
import torch.nn.functional as F

from golden_lib import Rand, case, write_group

f64 = torch.float64
bf16 = torch.bfloat16

CASES = []


def add(name, op, inputs, fn, **kw):
    CASES.append(case(name, op, inputs, fn, mode="emulated", ulp=0, **kw))


def layer_norm_cases():
    def ln(name, xs, ns, w=True, b=True, eps=1e-5, native=True):
        op = "native_layer_norm" if native else "layer_norm"
        nm = op + "/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(xs).to(bf16)
        wt = r.randn(ns).to(bf16) if w else None
        bt = r.randn(ns).to(bf16) if b else None
        attrs = {"normalized_shape": list(ns), "eps": eps}
        if native:
            add(nm, op, [x, wt, bt], lambda x, w, b: torch.native_layer_norm(x, ns, w, b, eps), attrs=attrs)
        else:
            add(nm, op, [x, wt, bt], lambda x, w, b: F.layer_norm(x, ns, w, b, eps), attrs=attrs)

    ln("rows_of_8", [6, 8], [8])
    ln("rows_of_40_weight_only", [5, 40], [40], b=False)
    ln("rows_of_300_no_affine", [3, 300], [300], w=False, b=False, eps=1e-3)
    ln("rows_of_1100_bias_only", [1, 1100], [1100], w=False)
    ln("two_dims", [3, 4, 10], [4, 10])
    ln("rows_of_24", [2, 3, 24], [24], native=False)


def group_norm_cases():
    def gn(name, xs, n, c, hw, g, w=True, b=True, eps=1e-5, output_only=False):
        nm = "native_group_norm/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(xs).to(bf16)
        wt = r.randn([c]).to(bf16) if w else None
        bt = r.randn([c]).to(bf16) if b else None
        attrs = {"N": n, "C": c, "HxW": hw, "group": g, "eps": eps}
        go = [r.randn(xs).to(bf16), None, None] if output_only else None
        add(nm, "native_group_norm", [x, wt, bt], lambda x, w, b: torch.native_group_norm(x, w, b, n, c, hw, g, eps),
            attrs=attrs, grad_outputs=go)

    gn("lanes", [2, 4, 24], 2, 4, 24, 2, output_only=True)
    gn("channel_lanes", [2, 32, 3], 2, 32, 3, 2, output_only=True)
    gn("no_affine", [3, 6, 5], 3, 6, 5, 3, w=False, b=False, output_only=True)
    gn("lanes_all_grads", [2, 4, 24], 2, 4, 24, 2)
    gn("channel_lanes_all_grads", [2, 32, 3], 2, 32, 3, 2)
    gn("per_channel_all_grads", [2, 6, 9], 2, 6, 9, 6, b=False)

    nm = "group_norm/bf16_rounded_steps/spatial"
    r = Rand(nm)
    x, wt, bt = r.randn([2, 6, 4, 5]).to(bf16), r.randn([6]).to(bf16), r.randn([6]).to(bf16)
    add(nm, "group_norm", [x, wt, bt], lambda x, w, b: F.group_norm(x, 3, w, b, 1e-5), attrs={"num_groups": 3, "eps": 1e-5})


def batch_norm_cases():
    def bn(name, xs, training, stats=True):
        nm = "native_batch_norm/bf16_rounded_steps/" + name
        r = Rand(nm)
        c = xs[1]
        x = (r.randn(xs) * 0.5 + 2.0).to(bf16)
        wt, bt = r.randn([c]).to(bf16), r.randn([c]).to(bf16)
        rm = r.randn([c]).to(bf16) if stats else None
        rv = r.rand([c], f64, 0.5, 2.0).to(bf16) if stats else None

        def f(x, w, b, rm, rv):
            if rm is not None:
                rm, rv = rm.clone(), rv.clone()
            return torch.native_batch_norm(x, w, b, rm, rv, training, 0.1, 1e-5)
        attrs = {"training": training, "momentum": 0.1, "eps": 1e-5}
        add(nm, "native_batch_norm", [x, wt, bt, rm, rv], f, attrs=attrs, requires_grad=[True, True, True, False, False])

    bn("train", [4, 6, 20], True)
    bn("train_no_stats", [3, 5, 2, 3], True, stats=False)
    bn("train_2d", [16, 8], True)
    bn("eval", [3, 4, 6], False)

    nm = "batch_norm/bf16_rounded_steps/train"
    r = Rand(nm)
    x, wt, bt = (r.randn([3, 4, 7]) * 0.5 - 1.0).to(bf16), r.randn([4]).to(bf16), r.randn([4]).to(bf16)
    add(nm, "batch_norm", [x, None, None, wt, bt], lambda x, rm, rv, w, b: F.batch_norm(x, rm, rv, w, b, True, 0.1, 1e-5),
        attrs={"training": True, "momentum": 0.1, "eps": 1e-5})


def rest_cases():
    def sb(name, shape, dim):
        nm = "softmax_backward_data/bf16_rounded_steps/" + name
        r = Rand(nm)
        g = r.randn(shape).to(bf16)
        y = torch.softmax(r.randn(shape), dim).to(bf16)
        add(nm, "softmax_backward_data", [g, y], lambda g, y: torch._softmax_backward_data(g, y, dim, bf16),
            attrs={"dim": dim, "input_dtype": "bfloat16"})

    sb("last", [6, 24], 1)
    sb("first", [12, 5], 0)

    def ag(name, ts, size, align):
        nm = "affine_grid/bf16_rounded_steps/" + name
        r = Rand(nm)
        th = (r.randn(ts) * 0.5).to(bf16)
        add(nm, "affine_grid", [th], lambda t: torch.affine_grid_generator(t, list(size), align),
            attrs={"size": list(size), "align_corners": align})

    ag("2d", [2, 2, 3], [2, 3, 4, 5], False)
    ag("3d_align", [1, 3, 4], [1, 1, 2, 3, 4], True)
    ag("2d_gemm", [2, 2, 3], [2, 1, 10, 10], False)

    def cs(name, s1, s2, dim):
        nm = "cosine_similarity/bf16_rounded_steps/" + name
        r = Rand(nm)
        a, b = r.randn(s1).to(bf16), r.randn(s2).to(bf16)
        add(nm, "cosine_similarity", [a, b], lambda a, b: torch.cosine_similarity(a, b, dim), attrs={"dim": dim})

    cs("rows", [6, 24], [6, 24], 1)
    cs("broadcast_last", [2, 3, 8], [3, 8], -1)

    def emb(name, dt, **kw):
        nm = "embedding/rounded_steps/" + name
        r = Rand(nm)
        w = r.randn([10, 8]).to(dt)
        idx = r.randint(0, 10, [6, 7])
        attrs = {k: v for k, v in kw.items()}
        add(nm, "embedding", [w, idx], lambda w, i: F.embedding(i, w, **kw), attrs=attrs)

    emb("bfloat16", bf16)
    emb("bfloat16_scale_grad_by_freq", bf16, scale_grad_by_freq=True)
    emb("bfloat16_padding_idx", bf16, padding_idx=3)
    emb("float16_scale_grad_by_freq", torch.float16, scale_grad_by_freq=True)

    for name, shape, scale in (("vector", [4, 64], 1.0), ("tail", [37], 3.0), ("wide", [3, 50], 6.0)):
        nm = "gelu/tanh/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = (r.randn(shape) * scale).to(bf16)
        add(nm, "gelu", [x], lambda x: F.gelu(x, approximate="tanh"), attrs={"approximate": "tanh"})
        nm = "silu/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = (r.randn(shape) * scale).to(bf16)
        add(nm, "silu", [x], F.silu)


def loss_pool_cases():
    def lsm(name, shape, dim):
        nm = "log_softmax/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = (r.randn(shape) * 3).to(bf16)
        add(nm, "log_softmax", [x], lambda x: torch.log_softmax(x, dim), attrs={"dim": dim}, backward=False)

    lsm("last_8", [4, 8], 1)
    lsm("last_37", [3, 37], -1)
    lsm("last_300", [2, 300], 1)
    lsm("vector", [100], 0)
    lsm("not_last", [4, 8, 5], 1)

    def nll(name, n, c, red, weight=False, ignore=False):
        nm = "nll_loss/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn([n, c]).to(bf16)
        t = r.randint(0, c, [n])
        if ignore:
            t[1] = -100
        w = (r.rand([c]) + 0.5).to(bf16) if weight else None
        add(nm, "nll_loss", [x, t, w], lambda x, t, w: F.nll_loss(x, t, w, reduction=red),
            attrs={"reduction": red}, requires_grad=[True, False, False], backward=False)

    nll("mean_4", 4, 6, "mean")
    nll("sum_40_cascade", 40, 5, "sum")
    nll("mean_300_weight_ignored", 300, 7, "mean", weight=True, ignore=True)
    nll("mean_17_weight", 17, 3, "mean", weight=True)

    def nll1d(name, c, red, weight):
        nm = "nll_loss/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = (r.randn([c]) * 3).to(bf16)
        t = torch.tensor(2)
        w = (r.rand([c]) + 0.5).to(bf16) if weight else None
        add(nm, "nll_loss", [x, t, w], lambda x, t, w: F.nll_loss(x, t, w, reduction=red),
            attrs={"reduction": red}, requires_grad=[True, False, False], backward=False)

    nll1d("1d_mean_weight", 5, "mean", True)

    def kl(name, shape, red):
        nm = "kl_div/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(shape).to(bf16)
        t = (r.rand(shape) * 0.9 + 0.05).to(bf16)

        def f(x, t):
            if red == "batchmean":
                return torch.kl_div(x, t, 2) / x.size()[0]
            return torch.kl_div(x, t, {"none": 0, "mean": 1, "sum": 2}[red])
        add(nm, "kl_div", [x, t], f, attrs={"reduction": red, "log_target": False}, backward=False)

    kl("batchmean", [4, 8], "batchmean")
    kl("none", [6, 24], "none")
    kl("sum", [3, 50], "sum")

    def avg1d(name, shape, k, s, p, ceil=False, cip=True):
        nm = "avg_pool1d/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(shape).to(bf16)
        add(nm, "avg_pool1d", [x], lambda x: torch.avg_pool1d(x, k, s, p, ceil, cip),
            attrs={"kernel_size": [k], "stride": [s], "padding": [p], "ceil_mode": ceil, "count_include_pad": cip})

    avg1d("k3s2p1", [2, 3, 10], 3, 2, 1)
    avg1d("k5s2_no_count_ceil", [2, 2, 30], 5, 2, 2, True, False)
    avg1d("k4s1", [3, 17], 4, 1, 0)

    def aavg1d(name, shape, n):
        nm = "adaptive_avg_pool1d/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(shape).to(bf16)
        add(nm, "adaptive_avg_pool1d", [x], lambda x: torch.adaptive_avg_pool1d(x, n), attrs={"output_size": [n]})

    aavg1d("10_to_4", [2, 3, 10], 4)
    aavg1d("30_to_7", [2, 2, 30], 7)

    def aavg2d(name, shape, n):
        nm = "adaptive_avg_pool2d/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(shape).to(bf16)
        add(nm, "adaptive_avg_pool2d", [x], lambda x: F.adaptive_avg_pool2d(x, n), attrs={"output_size": list(n)})

    aavg2d("7x9_to_3x4", [2, 2, 7, 9], (3, 4))

    def mp(name, shape, k, s, p, ret):
        nm = "max_pool2d/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(shape).to(bf16)
        attrs = {"kernel_size": [k, k], "stride": [s, s], "padding": [p, p], "dilation": [1, 1],
                 "ceil_mode": False, "return_indices": ret}
        go = None
        if ret:
            out = F.max_pool2d(x, k, s, p)
            go = [Rand(nm + "#g").randn(list(out.shape)).to(bf16), None]
        add(nm, "max_pool2d", [x], lambda x: F.max_pool2d(x, k, s, p, 1, False, ret), attrs=attrs, grad_outputs=go)

    mp("k3s2p1_indices", [2, 3, 8, 8], 3, 2, 1, True)
    mp("k4s1p2", [1, 2, 9, 7], 4, 1, 2, False)


def linear_cases():
    def lin(name, xs, ws, bias):
        nm = "linear/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(xs).to(bf16)
        w = r.randn(ws).to(bf16)
        b = r.randn(ws[:1]).to(bf16) if bias else None
        add(nm, "linear", [x, w, b], F.linear)

    lin("4x8_to_6", [4, 8], [6, 8], True)
    lin("3d_no_bias", [2, 3, 10], [5, 10], False)
    lin("9x7_to_11", [9, 7], [11, 7], True)


def conv_cases():
    def cv(name, xs, ws, bias, stride, padding, dilation, groups=1, fn=None):
        nm = "convolution/bf16_rounded_steps/" + name
        r = Rand(nm)
        x = r.randn(xs).to(bf16)
        w = r.randn(ws).to(bf16)
        b = r.randn(ws[:1]).to(bf16) if bias else None
        if fn is None:
            def fn(x, w, b):
                return torch.convolution(x, w, b, stride, padding, dilation, False, [0] * len(stride), groups)
        add(nm, "convolution", [x, w, b], fn,
            attrs={"stride": stride, "padding": padding, "dilation": dilation, "groups": groups})

    cv("1d_pad_groups", [2, 4, 10], [6, 2, 3], True, [1], [1], [1], 2)
    cv("1d_stride_dil_no_bias", [3, 3, 17], [4, 3, 3], False, [2], [2], [2])
    cv("2d_stride_pad", [2, 3, 8, 8], [4, 3, 3, 3], True, [2, 2], [1, 1], [1, 1])
    cv("2d_dil_groups", [2, 4, 7, 9], [6, 2, 2, 3], True, [1, 2], [1, 0], [2, 1], 2)
    cv("3d_dil_no_bias", [1, 2, 5, 5, 5], [3, 2, 2, 2, 2], False, [1, 1, 1], [0, 0, 0], [2, 2, 2])
    cv("3d_stride_pad", [2, 2, 4, 5, 4], [3, 2, 3, 2, 2], True, [2, 1, 1], [1, 0, 1], [1, 1, 1])
    cv("2d_unbatched", [3, 6, 6], [2, 3, 3, 3], True, [1, 1], [1, 1], [1, 1],
       fn=lambda x, w, b: F.conv2d(x, w, b, 1, 1))


def pow_reciprocal_cases():
    """pow's three forms and reciprocal, backward, at bfloat16 and float16
    (reciprocal at float32 too): autograd's formulas evaluated as tensor
    ops of the dtype, each rounded, e.g. grad * (e * self.pow(e - 1)) with
    e cast to the dtype for the product, -grad * (result * result).
    Tensors of 64 elements: torch's vectorized loop (two vectors of 16 or
    32 elements a step) takes them all; a shorter remainder goes through
    c10's scalar operators, whose bfloat16 std::sqrt rounds before rsqrt's
    division (the emulated device follows the vectorized path)."""
    f16 = torch.float16
    for tag, d in (("bf16", bf16), ("f16", f16)):
        def nm(s):
            return "pow/%s_rounded_steps/%s" % (tag, s)
        x = Rand(nm("base")).rand([64], f64, 0.5, 2.0).to(d)
        for e in (0.3, 2.5, -1.7, 3, 0.5, -1.0):
            add(nm("scalar_exp_%g" % e), "pow", [x, e], torch.pow)
        r = Rand(nm("tensor_exp"))
        b = r.rand([64], f64, 0.25, 3.0)
        e = r.rand([64], f64, -3.0, 3.0)
        # a zero base takes exponents 0..3 (finite gradients; the
        # exponent's is 0 there), exponent 0 zeroes the base's gradient
        b[:4] = 0.0
        e[:4] = torch.tensor([0.0, 1.0, 2.0, 3.0])
        e[4:6] = 0.0
        b, e = b.to(d), e.to(d)
        # PyTorch 1.13 has no float16 log kernel: at float16 only the
        # base takes a gradient
        add(nm("tensor_exp"), "pow", [b, e], torch.pow, requires_grad=[True, d == bf16])
        for base in (2.5, 0.7, 0.0):
            ex = e.clone()
            if base == 0.0:
                ex = ex.abs()  # 0 ** negative is inf
                ex[6:9] = torch.tensor([-0.5, -1.0, -2.0]).to(d)
            add(nm("scalar_base_%g" % base), "pow", [base, ex], torch.pow)
    for tag, d in (("bf16", bf16), ("f16", f16), ("f32", torch.float32)):
        nm = "reciprocal/%s_rounded_steps/signed" % tag
        r = Rand(nm)
        mag = r.rand([64], f64, 0.25, 4.0)
        sign = torch.where(r.bool([64]), 1.0, -1.0)
        add(nm, "reciprocal", [(mag * sign).to(d)], torch.reciprocal)


def main():
    torch.set_num_threads(1)
    layer_norm_cases()
    group_norm_cases()
    batch_norm_cases()
    rest_cases()
    loss_pool_cases()
    linear_cases()
    # The convolution goldens are slow_conv2d/slow_conv3d's bfloat16
    # (cc09922): oneDNN would take them on a CPU with AVX-512 bf16.
    with torch.backends.mkldnn.flags(enabled=False):
        conv_cases()
    pow_reciprocal_cases()
    write_group("bf16_nn", CASES)


if __name__ == "__main__":
    main()
