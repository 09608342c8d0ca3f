"""Golden cases for the nn2 family (sdk/ops/schema_nn2.go): transposed and
time-batch-channel convolutions, 3-d max pooling, the native_*
normalisations, grid sampling, affine grids, the feature and alpha
dropouts, _softmax_backward_data, embedding_renorm_ and bilinear.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_nn2.py

writes golden/nn2.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer cases keep their dtypes so that
result dtypes are checked); emulated cases compute at float32, bfloat16 and
float16 where PyTorch's CPU kernel has the dtype (checked() records how far
PyTorch itself is from the correctly rounded result).
"""

import torch
import torch.nn.functional as F

import math

from golden_lib import REPORT, Rand, _ulps, case, checked, error_case, run_torch, write_group

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
i64 = torch.int64

CASES = []


def _t64(v):
    return torch.tensor([float(x) for x in v["data"]], dtype=f64).reshape(v["shape"])


def torch_ulps(c, inputs, fn):
    """PyTorch's distance from the float64 result in units in the last
    place of PyTorch's own values (checked() counts them in the float64
    result's: where a gradient cancels, PyTorch's narrow value may be much
    smaller, and a device is compared with it)."""
    go = None
    if c.get("grad_outputs") is not None:
        go = [None if g is None else _t64(g) for g in c["grad_outputs"]]
    narrow = [o.dtype for o in run_torch(fn, inputs, c["requires_grad"], None)[0]]
    tgo = None if go is None else [None if g is None else g.to(d) for g, d in zip(go, narrow)]
    touts, tgrads = run_torch(fn, inputs, c["requires_grad"], tgo)
    up = [v.to(f64) if isinstance(v, torch.Tensor) and v.dtype.is_floating_point else v for v in inputs]
    eouts, egrads = run_torch(fn, up, c["requires_grad"], go)
    worst = 0.0
    for got, want in list(zip(touts, eouts)) + list(zip(tgrads, egrads)):
        if got is None or want is None or not got.dtype.is_floating_point or got.dtype == f64:
            continue
        worst = max(worst, _ulps(want.to(got.dtype), got.to(f64)))
    return worst


def add(name, op, inputs, fn, attrs=None, mode="bench", backward=True, **kw):
    if mode == "emulated":
        c = checked(name, op, inputs, fn, attrs=attrs, backward=backward, mode=mode, **kw)
        w = torch_ulps(c, inputs, fn)
        if w > 1.0 and "atol" not in kw:
            c["ulp"] = max(c.get("ulp", 0), float(math.ceil(w) + 1))
        CASES.append(c)
    else:
        CASES.append(case(name, op, inputs, fn, attrs=attrs, backward=backward, mode=mode, **kw))


def err(name, op, inputs, fn, attrs=None, mode="bench"):
    CASES.append(error_case(name, op, inputs, fn, attrs=attrs, mode=mode))


# --------------------------------------------------------------------------
# conv_transpose

def conv_transpose_cases():
    r = Rand("conv_transpose")
    fns = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}

    def one(name, xs, ws, bias=True, stride=1, padding=0, output_padding=0, groups=1, dilation=1, dt=f64, mode="bench", error=False, backward=True):
        n = len(ws) - 2
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        w = r.randn(ws, dt) if dt.is_floating_point else r.randint(-3, 4, ws, dt)
        b = None
        if bias:
            b = r.randn([ws[1] * groups], dt) if dt.is_floating_point else r.randint(-3, 4, [ws[1] * groups], dt)

        def lst(v):
            return [v] * n if isinstance(v, int) else list(v)
        attrs = {"stride": lst(stride), "padding": lst(padding), "output_padding": lst(output_padding),
                 "dilation": lst(dilation), "groups": groups}

        def f(x, w, b):
            return fns[n](x, w, b, attrs["stride"], attrs["padding"], attrs["output_padding"], groups, attrs["dilation"])
        nm = "conv_transpose/" + name
        if error:
            err(nm, "conv_transpose", [x, w, b], f, attrs=attrs, mode=mode)
        else:
            add(nm, "conv_transpose", [x, w, b], f, attrs=attrs, mode=mode, backward=backward and dt.is_floating_point)

    one("1d", [2, 2, 3], [2, 2, 2])
    one("1d_stride_pad", [1, 2, 4], [2, 2, 3], stride=2, padding=1, output_padding=1)
    one("1d_unbatched", [2, 3], [2, 1, 2], stride=3)
    one("1d_groups_dilation", [1, 4, 3], [4, 1, 2], groups=2, dilation=2, output_padding=1, stride=2)
    one("2d", [1, 2, 2, 3], [2, 2, 2, 2], bias=False)
    one("2d_params", [1, 2, 2, 3], [2, 1, 2, 2], stride=(2, 1), padding=(1, 0), output_padding=(1, 0), dilation=(1, 2), groups=2)
    one("2d_unbatched", [2, 2, 2], [2, 1, 2, 2], stride=2)
    one("2d_empty_batch", [0, 2, 3, 3], [2, 2, 2, 2])
    one("3d", [1, 2, 2, 2, 2], [2, 1, 2, 2, 1], stride=(1, 2, 1), padding=(0, 1, 0), output_padding=(0, 1, 0))
    one("3d_groups", [1, 2, 2, 1, 2], [2, 1, 2, 1, 2], groups=2, dilation=(2, 1, 1))
    one("int64", [1, 2, 4], [2, 3, 2], dt=i64, stride=2)
    one("int64_2d", [1, 2, 3, 3], [2, 1, 2, 2], dt=i64, padding=1, bias=False)
    for d in (f32,):
        one("emu/%s/1d" % d, [1, 3, 5], [3, 2, 3], stride=2, padding=1, dt=d, mode="emulated")
        one("emu/%s/2d" % d, [1, 4, 3, 3], [4, 1, 2, 2], groups=2, dt=d, mode="emulated")
        one("emu/%s/3d" % d, [1, 2, 2, 2, 2], [2, 1, 2, 2, 2], stride=2, dt=d, mode="emulated")
    one("err/bf16", [1, 2, 3], [2, 2, 2], dt=bf16, error=True)
    one("err/f16_3d", [1, 2, 3, 3, 3], [2, 2, 2, 2, 2], dt=f16, error=True)
    one("err/int32", [1, 2, 3], [2, 2, 2], dt=torch.int32, error=True)
    one("err/channels", [1, 3, 3], [2, 2, 2], error=True)
    one("err/stride0", [1, 2, 3], [2, 2, 2], stride=0, error=True)
    one("err/padding_neg", [1, 2, 3], [2, 2, 2], padding=-1, error=True)
    one("err/output_padding_neg", [1, 2, 3], [2, 2, 2], output_padding=-1, error=True)
    one("err/output_padding_big", [1, 2, 3], [2, 2, 2], output_padding=1, error=True)
    one("err/output_padding_big_2d", [1, 2, 3, 3], [2, 2, 2, 2], output_padding=(0, 2), stride=(1, 2), error=True)
    one("err/dilation0", [1, 2, 3, 3], [2, 2, 2, 2], dilation=(1, 0), error=True)
    one("err/too_small", [1, 2, 3], [2, 2, 2], padding=3, error=True)
    one("err/groups", [1, 2, 3], [2, 2, 2], groups=3, error=True)
    one("err/dims", [1, 2, 3, 3, 3], [2, 2, 2, 2], error=True)
    x, w = r.randn([1, 2, 3]), r.randn([2, 2, 2])
    err("conv_transpose/err/bias", "conv_transpose", [x, w, r.randn([3])], lambda x, w, b: F.conv_transpose1d(x, w, b),
        attrs={"stride": [1], "padding": [0], "output_padding": [0], "dilation": [1], "groups": 1})
    err("conv_transpose/err/mixed", "conv_transpose", [x.float(), w, None], lambda x, w, b: F.conv_transpose1d(x, w, b),
        attrs={"stride": [1], "padding": [0], "output_padding": [0], "dilation": [1], "groups": 1})


# --------------------------------------------------------------------------
# conv_tbc

def conv_tbc_cases():
    r = Rand("conv_tbc")

    def one(name, xs, ws, pad=0, dt=f64, bdt=None, mode="bench", error=False):
        def mk(s, d):
            return r.randn(s, d) if d.is_floating_point else r.randint(-3, 4, s, d)
        x, w = mk(xs, dt), mk(ws, dt)
        b = mk([ws[2] if len(ws) == 3 else 2], bdt or dt)

        def f(x, w, b):
            return torch.conv_tbc(x, w, b, pad)
        nm = "conv_tbc/" + name
        if error:
            err(nm, "conv_tbc", [x, w, b], f, attrs={"pad": pad}, mode=mode)
        else:
            add(nm, "conv_tbc", [x, w, b], f, attrs={"pad": pad}, mode=mode, backward=dt.is_floating_point)

    one("basic", [4, 2, 3], [2, 3, 2])
    one("pad", [4, 3, 2], [3, 2, 2], pad=2)
    one("pad_neg", [6, 1, 2], [2, 2, 3], pad=-1)
    one("k1", [3, 2, 2], [1, 2, 2])
    one("empty_time", [3, 2, 2], [4, 2, 2], pad=0)
    one("empty_batch", [3, 0, 2], [2, 2, 2], pad=1)
    one("int64", [4, 2, 3], [2, 3, 2], pad=1, dt=i64)
    one("int8_wrap", [4, 2, 3], [2, 3, 2], pad=1, dt=torch.int8)
    one("uint8", [4, 1, 3], [2, 3, 2], dt=torch.uint8)
    one("bias_f64", [4, 1, 3], [2, 3, 2], dt=f32, bdt=f64, mode="emulated")
    for d in (f32, bf16):
        one("emu/%s/basic" % d, [4, 2, 3], [2, 3, 4], pad=1, dt=d, mode="emulated")
    one("err/f16", [3, 2, 2], [2, 2, 2], dt=f16, error=True)
    one("err/bool", [3, 2, 2], [2, 2, 2], dt=torch.bool, error=True)
    one("err/input_dims", [3, 2], [2, 2, 2], error=True)
    one("err/weight_dims", [3, 2, 2], [2, 2], error=True)
    one("err/channels", [3, 2, 3], [2, 2, 2], error=True)
    one("err/too_short", [1, 2, 2], [3, 2, 2], error=True)
    x = r.randn([3, 2, 2])
    err("conv_tbc/err/bias_dims", "conv_tbc", [x, r.randn([2, 2, 2]), r.randn([1, 2])], lambda x, w, b: torch.conv_tbc(x, w, b), attrs={"pad": 0})
    err("conv_tbc/err/bias_size", "conv_tbc", [x, r.randn([2, 2, 2]), r.randn([3])], lambda x, w, b: torch.conv_tbc(x, w, b), attrs={"pad": 0})
    err("conv_tbc/err/mixed", "conv_tbc", [x, r.randn([2, 2, 2]).float(), r.randn([2])], lambda x, w, b: torch.conv_tbc(x, w, b), attrs={"pad": 0})


# --------------------------------------------------------------------------
# max_pool3d

def max_pool3d_cases():
    r = Rand("max_pool3d")

    def one(name, xs, k, s=None, p=0, d=1, ceil=False, idx=False, dt=f64, mode="bench", error=False, x=None):
        if x is None:
            x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)

        def tr(v):
            return [v] * 3 if isinstance(v, int) else list(v)
        attrs = {"kernel_size": tr(k), "stride": tr(k if s is None else s), "padding": tr(p), "dilation": tr(d),
                 "ceil_mode": ceil, "return_indices": idx}

        def f(x):
            return F.max_pool3d(x, attrs["kernel_size"], attrs["stride"], attrs["padding"], attrs["dilation"], ceil, idx)
        nm = "max_pool3d/" + name
        if error:
            err(nm, "max_pool3d", [x], f, attrs=attrs, mode=mode)
        else:
            add(nm, "max_pool3d", [x], f, attrs=attrs, mode=mode)

    one("basic", [1, 2, 2, 4, 4], 2)
    one("indices", [2, 1, 3, 2, 4], (2, 2, 3), s=(1, 2, 1), idx=True)
    one("unbatched", [1, 3, 3, 3], 2, s=1, p=1, idx=True)
    one("dilation_ceil", [1, 1, 5, 3, 5], 2, s=2, d=(2, 1, 2), ceil=True, idx=True)
    one("pad_ceil", [1, 1, 4, 4, 5], 3, s=2, p=1, ceil=True)
    one("empty_batch", [0, 2, 4, 4, 4], 2)
    xn = r.randn([1, 1, 2, 2, 4])
    xn[0, 0, 0, 0, 1] = float("nan")
    xn[0, 0, 1, 1, 2] = float("-inf")
    one("nan_inf", None, 2, x=xn, idx=True)
    xt = torch.tensor([1.0, 1.0, 2.0, 2.0, 0.5, 0.5, 2.0, 1.0], dtype=f64).reshape(1, 1, 2, 2, 2)
    one("ties", None, (1, 2, 2), s=1, x=xt, idx=True)
    one("emu/float32", [1, 2, 3, 4, 4], 2, s=(2, 1, 2), p=1, idx=True, dt=f32, mode="emulated")
    one("err/int64", [1, 1, 2, 2, 2], 2, dt=i64, error=True)
    one("err/bf16", [1, 1, 2, 2, 2], 2, dt=bf16, error=True)
    one("err/f16", [1, 1, 2, 2, 2], 2, dt=f16, error=True)
    one("err/rank3", [2, 4, 4], 2, error=True)
    one("err/stride0", [1, 1, 4, 4, 4], 2, s=0, error=True)
    one("err/pad_big", [1, 1, 4, 4, 4], 2, p=2, error=True)
    one("err/pad_neg", [1, 1, 4, 4, 4], 2, p=-1, error=True)
    one("err/dilation0", [1, 1, 4, 4, 4], 2, d=0, error=True)
    one("err/too_small", [1, 1, 1, 4, 4], 2, error=True)
    one("err/empty_channel", [1, 0, 4, 4, 4], 2, error=True)
    one("err/kernel_pair", [1, 1, 4, 4, 4], (2, 2), error=True)


# --------------------------------------------------------------------------
# native_layer_norm, native_group_norm, native_batch_norm,
# batch_norm_update_stats

def norm_cases():
    r = Rand("native_norms")

    def ln(name, xs, ns, w=True, b=True, eps=1e-5, dt=f64, pdt=None, mode="bench", error=False):
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        pdt = pdt or dt
        wt = r.randn(ns, pdt) if w else None
        bt = r.randn(ns, pdt) if b else None

        def f(x, w, b):
            return torch.native_layer_norm(x, ns, w, b, eps)
        nm = "native_layer_norm/" + name
        attrs = {"normalized_shape": list(ns), "eps": eps}
        if error:
            err(nm, "native_layer_norm", [x, wt, bt], f, attrs=attrs)
        else:
            add(nm, "native_layer_norm", [x, wt, bt], f, attrs=attrs, mode=mode)

    ln("basic", [2, 3, 4], [4])
    ln("two_dims", [2, 3, 4], [3, 4], b=False)
    ln("no_affine", [3, 5], [5], w=False, b=False, eps=0.1)
    ln("1d", [6], [6])
    ln("empty_rows", [0, 4], [4])
    for d in (f32, bf16):
        ln("emu/%s" % d, [3, 2, 6], [6], dt=d, mode="emulated")
    ln("err/f16", [2, 4], [4], dt=f16, error=True)
    ln("err/int", [2, 4], [4], dt=i64, w=False, b=False, error=True)
    ln("err/shape", [2, 3, 4], [3], w=False, b=False, error=True)
    ln("err/empty_shape", [2, 3], [], w=False, b=False, error=True)
    ln("err/mixed", [2, 4], [4], dt=bf16, pdt=f32, error=True)

    def gn(name, xs, n, c, hw, g, w=True, b=True, eps=1e-5, dt=f64, mode="bench", error=False, pshape=None):
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        wt = r.randn(pshape or [c], dt) if w else None
        bt = r.randn(pshape or [c], dt) if b else None

        def f(x, w, b):
            return torch.native_group_norm(x, w, b, n, c, hw, g, eps)
        nm = "native_group_norm/" + name
        attrs = {"N": n, "C": c, "HxW": hw, "group": g, "eps": eps}
        if error:
            err(nm, "native_group_norm", [x, wt, bt], f, attrs=attrs)
        else:
            add(nm, "native_group_norm", [x, wt, bt], f, attrs=attrs, mode=mode)

    gn("basic", [2, 4, 3], 2, 4, 3, 2)
    gn("spatial", [1, 6, 2, 2], 1, 6, 4, 3, b=False)
    gn("flat", [24], 2, 3, 4, 1, w=False, b=False)
    gn("per_channel", [2, 3, 5], 2, 3, 5, 3, eps=0.5)
    for d in (f32, bf16):
        gn("emu/%s" % d, [2, 4, 4], 2, 4, 4, 2, dt=d, mode="emulated")
    gn("err/f16", [2, 4, 3], 2, 4, 3, 2, dt=f16, error=True)
    gn("err/int", [2, 4, 3], 2, 4, 3, 2, dt=i64, w=False, b=False, error=True)
    gn("err/numel", [2, 4, 3], 2, 4, 4, 2, error=True)
    gn("err/weight", [2, 4, 3], 2, 4, 3, 2, pshape=[3], error=True)
    gn("err/groups", [2, 4, 3], 2, 4, 3, 3, error=True)

    def bn(name, xs, training, w=True, b=True, stats=True, eps=1e-5, dt=f64, pdt=None, mode="bench", error=False, backward=True):
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        c = xs[1] if len(xs) > 1 else xs[0]
        pdt = pdt or dt
        wt = r.randn([c], pdt) if w else None
        bt = r.randn([c], pdt) if b else None
        rm = r.randn([c], pdt) if stats else None
        rv = r.rand([c], pdt, 0.5, 2.0) if stats else None

        def f(x, w, b, rm, rv):
            if rm is not None:
                rm, rv = rm.clone(), rv.clone()
            return torch.native_batch_norm(x, w, b, rm, rv, training, 0.1, eps)
        nm = "native_batch_norm/" + name
        attrs = {"training": training, "momentum": 0.1, "eps": eps}
        rg = [dt.is_floating_point and backward, w and backward, b and backward, False, False]
        if error:
            err(nm, "native_batch_norm", [x, wt, bt, rm, rv], f, attrs=attrs)
        else:
            add(nm, "native_batch_norm", [x, wt, bt, rm, rv], f, attrs=attrs, mode=mode, requires_grad=rg, backward=backward)

    bn("train", [4, 3, 2], True)
    bn("train_no_stats", [3, 2, 2, 2], True, b=False, stats=False)
    bn("train_2d", [5, 3], True, w=False, b=False)
    bn("train_one_per_channel", [1, 3], True)
    bn("eval", [4, 3, 2], False)
    bn("eval_no_affine", [2, 3, 3], False, w=False, b=False, eps=0.01)
    for d in (f32, bf16):
        bn("emu/%s/train" % d, [3, 2, 5], True, dt=d, mode="emulated")
        bn("emu/%s/eval" % d, [3, 2, 4], False, dt=d, mode="emulated")
    bn("emu/bf16_f32_params", [3, 2, 4], True, dt=bf16, pdt=f32, mode="emulated")
    bn("err/f16", [4, 3, 2], True, dt=f16, error=True)
    bn("err/int", [4, 3, 2], True, dt=i64, w=False, b=False, stats=False, error=True)
    bn("err/mixed", [4, 3, 2], True, dt=f32, pdt=f64, error=True)
    bn("err/1d", [3], True, w=False, b=False, stats=False, error=True)

    def us(name, xs, stats=True, dt=f64, mode="bench", error=False):
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        rm = r.randn([xs[1] if len(xs) > 1 else 1], dt) if stats else None
        rv = r.rand([xs[1] if len(xs) > 1 else 1], dt, 0.5, 2.0) if stats else None

        def f(x, rm, rv):
            if rm is not None:
                rm, rv = rm.clone(), rv.clone()
            return torch.batch_norm_update_stats(x, rm, rv, 0.1)
        nm = "batch_norm_update_stats/" + name
        if error:
            err(nm, "batch_norm_update_stats", [x, rm, rv], f, attrs={"momentum": 0.1})
        else:
            add(nm, "batch_norm_update_stats", [x, rm, rv], f, attrs={"momentum": 0.1}, mode=mode, backward=False)

    us("basic", [4, 3, 2])
    us("no_stats", [5, 2], stats=False)
    us("spatial", [2, 3, 2, 2])
    for d in (f32, bf16):
        us("emu/%s" % d, [4, 3, 5], dt=d, mode="emulated")
    us("err/f16", [4, 3], dt=f16, error=True)
    us("err/int", [4, 3], dt=i64, error=True)
    us("err/1d", [3], error=True)


# --------------------------------------------------------------------------
# grid_sampler, affine_grid

def grid_cases():
    r = Rand("grid_sampler")

    def gs(name, xs, gsz, mode=0, pad=0, align=False, dt=f64, gdt=None, mode_="bench", error=False, lo=-1.2, hi=1.2, grid=None):
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        g = grid if grid is not None else r.rand(gsz, gdt or dt, lo, hi)
        attrs = {"interpolation_mode": mode, "padding_mode": pad, "align_corners": align}

        def f(x, g):
            return torch.grid_sampler(x, g, mode, pad, align)
        nm = "grid_sampler/" + name
        if error:
            err(nm, "grid_sampler", [x, g], f, attrs=attrs, mode=mode_)
        else:
            add(nm, "grid_sampler", [x, g], f, attrs=attrs, mode=mode_)

    for m, mn in ((0, "bilinear"), (1, "nearest"), (2, "bicubic")):
        for p, pn in ((0, "zeros"), (1, "border"), (2, "reflection")):
            for a in (False, True):
                gs("2d/%s/%s/%s" % (mn, pn, "align" if a else "noalign"), [1, 1, 3, 4], [1, 3, 2, 2], m, p, a, lo=-1.6, hi=1.6)
        for p, pn in ((0, "zeros"), (2, "reflection")):
            if m != 2:
                gs("3d/%s/%s" % (mn, pn), [1, 2, 2, 3, 3], [1, 1, 2, 3, 3], m, p, p == 2, lo=-1.5, hi=1.5)
    gs("3d/bilinear/border", [2, 1, 3, 2, 2], [2, 1, 2, 2, 3], 0, 1, False)
    gs("2d/size1", [1, 1, 1, 3], [1, 2, 2, 2], 0, 2, True)
    gs("2d/empty_grid", [1, 2, 3, 3], [1, 0, 2, 2])
    gs("2d/empty_channels", [1, 0, 3, 3], [1, 2, 2, 2])
    # points on pixel centres and exact halves (nearest rounds half to even)
    gi = torch.tensor([[[[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]], [[-0.5, 0.5], [0.25, -0.75], [0.5, 0.0]]]], dtype=f64)
    gs("2d/nearest/halves", [1, 1, 3, 5], None, 1, 0, True, grid=gi)
    gs("2d/bilinear/exact", [1, 1, 3, 5], None, 0, 1, True, grid=gi)
    for d in (f32,):
        gs("emu/%s/bilinear" % d, [1, 2, 4, 5], [1, 3, 3, 2], 0, 0, False, dt=d, mode_="emulated")
        gs("emu/%s/bicubic" % d, [1, 2, 4, 4], [1, 3, 3, 2], 2, 1, True, dt=d, mode_="emulated")
        gs("emu/%s/3d_nearest" % d, [1, 2, 3, 3, 3], [1, 2, 2, 2, 3], 1, 2, False, dt=d, mode_="emulated")
    gs("err/bf16", [1, 1, 2, 2], [1, 1, 1, 2], dt=bf16, error=True)
    gs("err/f16_3d", [1, 1, 2, 2, 2], [1, 1, 1, 1, 3], dt=f16, error=True)
    gs("err/mixed", [1, 1, 2, 2], [1, 1, 1, 2], dt=f32, gdt=f64, error=True)
    gs("err/batch", [1, 1, 2, 2], [2, 1, 1, 2], error=True)
    gs("err/last_dim", [1, 1, 2, 2], [1, 1, 1, 3], error=True)
    gs("err/empty_spatial", [1, 1, 0, 2], [1, 1, 1, 2], error=True)
    gs("err/bicubic_3d", [1, 1, 2, 2, 2], [1, 1, 1, 1, 3], mode=2, error=True)

    r = Rand("affine_grid")

    def ag(name, ts, size, align=False, dt=f64, mode="bench", error=False):
        th = r.randn(ts, dt) if dt.is_floating_point else r.randint(-3, 4, ts, dt)
        attrs = {"size": list(size), "align_corners": align}

        def f(t):
            return torch.affine_grid_generator(t, list(size), align)
        nm = "affine_grid/" + name
        if error:
            err(nm, "affine_grid", [th], f, attrs=attrs, mode=mode)
        else:
            add(nm, "affine_grid", [th], f, attrs=attrs, mode=mode, backward=dt.is_floating_point)

    ag("2d", [2, 2, 3], [2, 3, 3, 4])
    ag("2d_align", [1, 2, 3], [1, 1, 3, 4], True)
    ag("2d_size1", [1, 2, 3], [1, 1, 1, 3])
    ag("3d", [2, 3, 4], [2, 1, 2, 2, 3])
    ag("3d_align", [1, 3, 4], [1, 2, 3, 2, 3], True)
    ag("int64", [1, 2, 3], [1, 1, 3, 5], dt=i64)
    ag("int64_align", [1, 2, 3], [1, 1, 3, 5], True, dt=i64)
    ag("int32_3d_align", [1, 3, 4], [1, 1, 2, 3, 4], True, dt=torch.int32)
    for d in (f32, bf16):
        ag("emu/%s/2d" % d, [1, 2, 3], [1, 1, 4, 5], dt=d, mode="emulated")
        ag("emu/%s/3d" % d, [1, 3, 4], [1, 1, 2, 3, 3], True, dt=d, mode="emulated")
    ag("err/f16", [1, 2, 3], [1, 1, 2, 2], dt=f16, error=True)
    ag("err/size3", [1, 2, 3], [1, 1, 2], error=True)
    ag("err/batch", [2, 2, 3], [1, 1, 2, 2], error=True)
    ag("err/rows", [1, 3, 3], [1, 1, 2, 2], error=True)
    ag("err/theta_3d_for_2d", [1, 3, 4], [1, 1, 2, 2], error=True)


# --------------------------------------------------------------------------
# feature_dropout (alpha and feature dropouts): the mask is random, so the
# corpus checks p = 0, p = 1 and evaluation, and the errors

def dropout_cases():
    r = Rand("feature_dropout")
    names = {(False, True): "feature_dropout", (True, False): "alpha_dropout", (True, True): "feature_alpha_dropout"}

    def one(name, xs, p, train, alpha, feature, inplace=False, unbatched=False, dt=f64, mode="bench", error=False):
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        fn = getattr(torch, names[(alpha, feature)] + ("_" if inplace else ""))
        attrs = {"p": p, "train": train, "inplace": inplace, "feature": feature, "alpha": alpha, "unbatched": unbatched}

        def f(x):
            if inplace:
                x = x.clone()
            if unbatched:
                return fn(x.unsqueeze(0), p, train).squeeze(0)
            return fn(x, p, train)
        nm = "feature_dropout/" + name
        if error:
            err(nm, "feature_dropout", [x], f, attrs=attrs, mode=mode)
        else:
            add(nm, "feature_dropout", [x], f, attrs=attrs, mode=mode, backward=dt.is_floating_point)

    for (alpha, feature), n in sorted(names.items()):
        one(n + "/p0", [2, 3, 4], 0.0, True, alpha, feature)
        one(n + "/p1", [2, 3, 2], 1.0, True, alpha, feature)
        one(n + "/eval", [2, 3], 0.5, False, alpha, feature)
        one(n + "/inplace_p1", [3, 2], 1.0, True, alpha, feature, inplace=True)
        one(n + "/int_eval", [2, 3], 0.5, False, alpha, feature, dt=i64)
        one(n + "/err/p", [2, 3], 1.5, True, alpha, feature, error=True)
        one(n + "/err/int_train", [2, 3], 0.5, True, alpha, feature, dt=i64, error=True)
        one(n + "/err/f16_train", [2, 3], 0.5, True, alpha, feature, dt=f16, error=True)
        for d in (f32, bf16):
            one("%s/emu/%s/p1" % (n, d), [2, 3], 1.0, True, alpha, feature, dt=d, mode="emulated")
            one("%s/emu/%s/eval" % (n, d), [2, 3], 0.5, False, alpha, feature, dt=d, mode="emulated")
    xn = torch.tensor([[1.0, float("nan")], [float("inf"), -2.0]], dtype=f64)
    add("feature_dropout/nan_p1", "feature_dropout", [xn], lambda x: torch.feature_dropout(x, 1.0, True),
        attrs={"p": 1.0, "train": True, "feature": True, "alpha": False, "unbatched": False})
    one("feature_dropout/unbatched_p1", [3, 4], 1.0, True, False, True, unbatched=True)
    one("feature_dropout/int_p1", [2, 3], 1.0, True, False, True, dt=i64)
    one("feature_dropout/empty", [0, 3], 0.5, True, False, True)
    one("feature_dropout/err/1d", [4], 0.5, True, False, True, error=True)
    one("feature_alpha_dropout/err/0d", [], 0.5, True, True, True, error=True)


# --------------------------------------------------------------------------
# softmax_backward_data, embedding_renorm, bilinear

def rest_cases():
    r = Rand("nn2_rest")

    def sb(name, shape, dim, dt=f64, in_dt=None, ydt=None, mode="bench", error=False):
        g = r.randn(shape, dt) if dt.is_floating_point else r.randint(-3, 4, shape, dt)
        y = torch.softmax(r.randn(shape), dim if shape else 0).to(ydt or dt) if (ydt or dt).is_floating_point else r.randint(0, 2, shape, ydt or dt)
        idt = in_dt or dt
        attrs = {"dim": dim, "input_dtype": dtn(idt)}

        def f(g, y):
            return torch._softmax_backward_data(g, y, dim, idt)
        nm = "softmax_backward_data/" + name
        if error:
            err(nm, "softmax_backward_data", [g, y], f, attrs=attrs, mode=mode)
        else:
            add(nm, "softmax_backward_data", [g, y], f, attrs=attrs, mode=mode)

    sb("last", [3, 4], 1)
    sb("first", [3, 4], 0)
    sb("neg_mid", [2, 3, 4], -2)
    sb("0d", [], 0)
    sb("empty", [0, 3], 1)
    sb("input_dtype_f32", [2, 3], 1, in_dt=f32)
    for d in (f32, bf16):
        sb("emu/%s/last" % d, [4, 6], -1, dt=d, mode="emulated")
        sb("emu/%s/first" % d, [5, 3], 0, dt=d, mode="emulated")
    sb("emu/bf16_input_f32", [3, 5], 1, dt=bf16, in_dt=f32, mode="emulated")
    sb("err/f16", [2, 3], 1, dt=f16, error=True)
    sb("err/f16_dim0", [2, 3], 0, dt=f16, error=True)
    sb("err/int", [2, 3], 1, dt=i64, error=True)
    sb("err/half_input", [2, 3], 1, dt=f32, in_dt=f16, error=True)
    sb("err/mixed", [2, 3], 1, dt=f64, ydt=f32, error=True)
    g, y = r.randn([2, 3]), r.randn([2, 4])
    err("softmax_backward_data/err/size", "softmax_backward_data", [g, y], lambda g, y: torch._softmax_backward_data(g, y, 1, f64),
        attrs={"dim": 1, "input_dtype": "float64"})

    def rn(name, w, idx, max_norm, p, mode="bench", error=False):
        attrs = {"max_norm": max_norm, "norm_type": p}

        def f(w, i):
            return torch.embedding_renorm_(w.clone(), i, max_norm, p)
        nm = "embedding_renorm/" + name
        if error:
            err(nm, "embedding_renorm", [w, idx], f, attrs=attrs, mode=mode)
        else:
            add(nm, "embedding_renorm", [w, idx], f, attrs=attrs, mode=mode, backward=False)

    w = r.randn([6, 4]) * 2
    ix = torch.tensor([4, 0, 4, 2, -1])
    rn("l2", w, ix, 1.5, 2.0)
    rn("l1", w, ix, 3.0, 1.0)
    rn("inf", w, torch.tensor([1, 3, 5], dtype=torch.int32), 1.0, float("inf"))
    rn("p3", w, ix.reshape(5, 1), 1.0, 3.0)
    rn("p0", w, ix, 2.0, 0.0)
    rn("none_above", w, ix, 100.0, 2.0)
    rn("empty_indices", w, torch.tensor([], dtype=i64), 1.0, 2.0)
    rn("neg_wrap_twice", w, torch.tensor([-6, 0]), 1.0, 2.0)
    for d in (f32, bf16, f16):
        rn("emu/%s" % d, (r.randn([5, 8]) * 2).to(d), torch.tensor([0, 1, 3, 3]), 2.0, 2.0, mode="emulated")
    rn("err/1d", r.randn([4]), torch.tensor([0]), 1.0, 2.0, error=True)
    rn("err/index_dtype", w, torch.tensor([0.0]), 1.0, 2.0, error=True)
    rn("err/out_of_range", w, torch.tensor([6]), 1.0, 2.0, error=True)
    rn("err/int", torch.ones(3, 2, dtype=i64), torch.tensor([0]), 1.0, 2.0, error=True)

    def bl(name, s1, s2, ws, bias=True, dt=f64, bdt=None, mode="bench", error=False, **kw):
        def mk(s, d):
            return r.randn(s, d) if d.is_floating_point else r.randint(-3, 4, s, d)
        x1, x2, w = mk(s1, dt), mk(s2, dt), mk(ws, dt)
        b = mk([ws[0]], bdt or dt) if bias else None

        def f(x1, x2, w, b):
            return torch.bilinear(x1, x2, w, b)
        nm = "bilinear/" + name
        if error:
            err(nm, "bilinear", [x1, x2, w, b], f, mode=mode)
        else:
            add(nm, "bilinear", [x1, x2, w, b], f, mode=mode, backward=dt.is_floating_point, **kw)

    bl("basic", [3, 2], [3, 4], [5, 2, 4])
    bl("no_bias", [2, 3], [2, 2], [3, 3, 2], bias=False)
    bl("batch_dims", [2, 3, 2], [2, 3, 3], [2, 2, 3])
    bl("1d", [3], [2], [4, 3, 2])
    bl("empty_batch", [0, 3], [0, 2], [4, 3, 2])
    bl("int64", [3, 2], [3, 4], [5, 2, 4], dt=i64)
    bl("int8", [2, 3], [2, 3], [2, 3, 3], dt=torch.int8)
    # a float64 result from PyTorch's float32 product: float32's tolerance
    bl("bias_f64", [3, 2], [3, 4], [5, 2, 4], dt=f32, bdt=f64, mode="emulated", rtol=1e-5, atol=1e-5)
    for d in (f32, bf16):
        bl("emu/%s" % d, [3, 4], [3, 5], [3, 4, 5], dt=d, mode="emulated")
    bl("err/f16", [2, 3], [2, 3], [2, 3, 3], dt=f16, error=True)
    bl("err/bool", [2, 3], [2, 3], [2, 3, 3], dt=torch.bool, bias=False, error=True)
    bl("err/dims", [2, 3], [3], [2, 3, 3], error=True)
    bl("err/batch", [1, 3], [2, 3], [2, 3, 3], error=True)
    bl("err/input1", [2, 2], [2, 3], [2, 3, 3], error=True)
    bl("err/input2", [2, 3], [2, 2], [2, 3, 3], error=True)
    x1, x2, w = r.randn([2, 3]), r.randn([2, 4]), r.randn([5, 3, 4])
    err("bilinear/err/bias", "bilinear", [x1, x2, w, r.randn([4])], lambda a, b, c, d: torch.bilinear(a, b, c, d))
    err("bilinear/err/mixed", "bilinear", [x1.float(), x2, w, None], lambda a, b, c, d: torch.bilinear(a, b, c, d))


def dtn(d):
    return str(d).replace("torch.", "")


SECTIONS = [conv_transpose_cases, conv_tbc_cases, max_pool3d_cases, norm_cases, grid_cases, dropout_cases, rest_cases]

if __name__ == "__main__":
    for s in SECTIONS:
        s()
    write_group("nn2", CASES)
    for line in REPORT:
        print(line)
