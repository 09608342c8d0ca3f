#!/usr/bin/python3
"""Writes a MindSpore-format msprobe L1 dump (mindspore-precheck.md section 2)
that calls every API of msprobe's MindSpore checker lists once per dtype:
the Mint.* and MintFunctional.* names of Appendix B, the Tensor.* names of
Appendix A, and Functional.flash_attention_score, rms_norm, swiglu and
rotary_position_embedding. No MindSpore is needed: the values come from real
PyTorch 1.13 (run it with /usr/bin/python3), which is the checker's bench
for these names (Mint.<api> -> torch.<api>, MintFunctional.<api> ->
torch.nn.functional.<api>, Tensor.<m> -> torch.Tensor.<m>), and, for the
fused Functional names PyTorch lacks, from float64 reference formulas (the
ones probe's bench implements) rounded once to the dtype.

The arguments reuse the recipes of scripts/make_every_api_dump.py (its
Torch/Tensor tables and scripts/every_api_fn_*.py) where the PyTorch call
is the same; MS_RECIPES below holds the MindSpore-only forms (axis,
keep_dims, Tensor.max returning the values only, mint-only names such as
add_ex or dense, which mean their PyTorch namesake) and the names no
every-API recipe covers.

Each call is recorded as MindSpore's dumper does: "<Type>.<api>.<n>.forward"
with input_args / input_kwargs / output, and, when a floating output
carries a gradient, "<Type>.<api>.<n>.backward" whose input is the sens of
every output (random for floating outputs, zeros otherwise) and whose
output has one gradient per positional argument (None for a non-tensor, a
list for a list of tensors; zeros where the output does not depend on it),
as MindSpore's GradOperation(get_all, sens_param) returns them: every
top-level positional floating tensor (and every floating tensor of a
positional list) is differentiated, keyword tensors are not. Tensor
descriptors: "type": "mindspore.Tensor", MindSpore dtype names (Float32,
BFloat16, Int64, Bool, ...), Max/Min/Mean/Norm; --mode tensor adds
data_name and writes <entry>.<input|kwargs|output>.<i>[.<j>].npy under
OUT/dump_tensor_data (bfloat16 stored as float32, as the dumper does).

A name is called at float32 and bfloat16 (--dtypes) when it takes floating
input, once at its natural dtype (int64 / bool) otherwise. Seeded per
(type, name, dtype): --only gives the same values as a full run. A
bfloat16 call PyTorch 1.13 has no CPU kernel for is computed in float32
and rounded to bfloat16 (printed); a call PyTorch rejects otherwise is left
out and printed; a name whose backward raises is recorded forward only.
Sub-module entries of the lists (absolute_import, nn, functional, linalg,
special) are not callables and are left out.

    /usr/bin/python3 scripts/make_mindspore_dump.py --mode statistics --out /tmp/ms-every-api
    /usr/bin/python3 scripts/make_mindspore_dump.py --mode tensor --only Mint.add,Tensor.mean
"""
import argparse
import json
import math
import os
import sys
import time
import warnings
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import make_every_api_dump as med  # noqa: E402  (recipes and Inputs)

A = med.A
DEFAULT_OUT = "/tmp/probe-mindspore-dump"

# --- the checker's lists (mindspore-precheck.md appendices A and B) -----------

MINT = """abs absolute_import add add_ex all any any_ex argmax avg_pool2d baddbmm
baddbmm_ex batch_norm binary_cross_entropy_with_logits bitwise_and bitwise_or bitwise_xor bmm
broadcast_to cat cat_ex ceil chunk clamp conv2d conv_transpose2d cos cross cummax cummin cumsum div
divide dropout embedding eq erf erfinv exp flatten flip flip_ex fold full functional gather gelu
greater grid_sample group_norm gt index_select interpolate isclose isfinite layer_norm le leaky_relu
less less_equal linear linspace log logical_and logical_not logical_or lt masked_select matmul max
max_pool2d maximum mean mean_ex min minimum mul ne neg negative nn nonzero normal one_hot ones
ones_ex ones_like pad permute permute_ex pow prod reciprocal relu remainder repeat_interleave rsqrt
scatter scatter_add searchsorted sigmoid silu sin softmax softplus sort split sqrt sqrt_ex square
stack sub sub_ex sum tanh tile topk tril triu unfold unique where xlogy zeros zeros_ex zeros_like
inverse select item unsqueeze median floor histc special arctan2 sign concat atanh greater_equal eye
fix argmin asinh atan nan_to_num tan round cosh norm roll log1p reshape arccos outer arcsin rand_like
acosh multinomial logical_xor acos linalg sinc arcsinh asin narrow arctanh trace erfc bernoulli expm1
logaddexp sinh arccosh atan2 rand arange trunc arctan swapaxes transpose""".split()

MINT_FUNCTIONAL = """absolute_import avg_pool2d batch_norm batch_norm_ex bce_with_logits
binary_cross_entropy_with_logits conv_transpose2d dense dropout embedding fold gelu grid_sample
group_norm interpolate layer_norm leaky_relu linear max_pool2d max_pool2d_ex normal one_hot
one_hot_ext pad relu relu_ sigmoid silu softmax softmax_ex softplus tanh unfold mse_loss
adaptive_avg_pool1d binary_cross_entropy adaptive_avg_pool2d hardsigmoid selu softshrink prelu
logsigmoid hardswish mish log_softmax hardshrink l1_loss elu""".split()

TENSOR = """add_ add addmm_ all allclose any bool byte ceil clamp contiguous copy_ cos clone
cumprod expand_as flatten float half int is_contiguous isnan item log log2 long masked_fill max mean
min numel numpy repeat repeat_interleave reshape round select sin size split sqrt square sub swapaxes
to t tolist topk transpose trunc type unsqueeze view view_as fill_ floor_ clamp_ type_as
zero_""".split()

FUSED = ["flash_attention_score", "rms_norm", "swiglu", "rotary_position_embedding"]

LISTS = (("Mint", MINT), ("MintFunctional", MINT_FUNCTIONAL), ("Tensor", TENSOR), ("Functional", FUSED))

# list entries that are sub-modules, not callables
MODULES = {"absolute_import", "nn", "functional", "linalg", "special"}

# mint-only names and the PyTorch API they mean (spec 4.1: the checker does
# not translate them; the values are their namesake's)
ALIAS = {
    ("Mint", "add_ex"): ("Mint", "add"), ("Mint", "any_ex"): ("Mint", "any"),
    ("Mint", "baddbmm_ex"): ("Mint", "baddbmm"), ("Mint", "cat_ex"): ("Mint", "cat"),
    ("Mint", "flip_ex"): ("Mint", "flip"), ("Mint", "mean_ex"): ("Mint", "mean"),
    ("Mint", "ones_ex"): ("Mint", "ones"), ("Mint", "permute_ex"): ("Mint", "permute"),
    ("Mint", "sqrt_ex"): ("Mint", "sqrt"), ("Mint", "sub_ex"): ("Mint", "sub"),
    ("Mint", "zeros_ex"): ("Mint", "zeros"),
    ("MintFunctional", "batch_norm_ex"): ("MintFunctional", "batch_norm"),
    ("MintFunctional", "bce_with_logits"): ("MintFunctional", "binary_cross_entropy_with_logits"),
    ("MintFunctional", "dense"): ("MintFunctional", "linear"),
    ("MintFunctional", "max_pool2d_ex"): ("MintFunctional", "max_pool2d"),
    ("MintFunctional", "one_hot_ext"): ("MintFunctional", "one_hot"),
    ("MintFunctional", "softmax_ex"): ("MintFunctional", "softmax"),
}

# --- MindSpore-specific recipes ------------------------------------------------
# A recipe maps med.Inputs to (args, kwargs) as recorded. CALL_AS, when a
# name has one, maps the recorded (args, kwargs) to the PyTorch call's;
# OUT_AS maps PyTorch's result to MindSpore's.

MS_RECIPES = {}
CALL_AS = {}
OUT_AS = {}


def _ms_kw(**ren):
    """CALL_AS entry renaming MindSpore keywords to PyTorch's."""
    def f(args, kwargs):
        return args, {ren.get(k, k): v for k, v in kwargs.items()}
    return f


_AXIS = _ms_kw(axis="dim", keep_dims="keepdim", keepdims="keepdim")

# Mint factories and random APIs (mint mirrors torch's signatures)
MS_RECIPES[("Mint", "zeros")] = lambda t: A((4, 8), dtype=t.dt)
MS_RECIPES[("Mint", "ones")] = lambda t: A((4, 8), dtype=t.dt)
MS_RECIPES[("Mint", "zeros_like")] = lambda t: A(t.c(4, 8))
MS_RECIPES[("Mint", "ones_like")] = lambda t: A(t.c(4, 8))
MS_RECIPES[("Mint", "rand")] = lambda t: A(4, 8, dtype=t.dt)
MS_RECIPES[("Mint", "rand_like")] = lambda t: A(t.c(4, 8))
MS_RECIPES[("Mint", "normal")] = lambda t: A(t.c(4, 8), t.cp(4, 8))
MS_RECIPES[("MintFunctional", "normal")] = MS_RECIPES[("Mint", "normal")]
MS_RECIPES[("Mint", "arange")] = lambda t: A(0, 8, 1, dtype=t.dt)
MS_RECIPES[("Mint", "item")] = lambda t: A(t.c(1))
MS_RECIPES[("Mint", "trace")] = lambda t: A(t.f(4, 4))
MS_RECIPES[("Mint", "unique")] = lambda t: A(t.i(16, hi=6).to(t.dt), sorted=True, return_inverse=True)
MS_RECIPES[("Mint", "one_hot")] = lambda t: A(t.i(4, 6, lo=0, hi=5), 5)
MS_RECIPES[("Mint", "max")] = lambda t: A(t.f(4, 8), 1, keepdim=False)
MS_RECIPES[("Mint", "min")] = lambda t: A(t.f(4, 8), 1, keepdim=True)
MS_RECIPES[("Mint", "mean")] = lambda t: A(t.f(4, 8), 1, keepdim=True)
MS_RECIPES[("Mint", "sum")] = lambda t: A(t.f(4, 8), 0)
MS_RECIPES[("Mint", "prod")] = lambda t: A(t.f(4, 8), 1)
MS_RECIPES[("Mint", "median")] = lambda t: A(t.f(4, 8), 1)
MS_RECIPES[("Mint", "all")] = lambda t: A(t.b(4, 8), 1)
MS_RECIPES[("Mint", "any")] = lambda t: A(t.b(4, 8), 1)
MS_RECIPES[("Mint", "dropout")] = lambda t: A(t.f(16, 16), 0.3, True)  # torch.dropout(input, p, train)
MS_RECIPES[("MintFunctional", "dropout")] = lambda t: A(t.f(16, 16), p=0.3, training=True)
MS_RECIPES[("Mint", "norm")] = lambda t: A(t.f(4, 8), 2.0, 1)
MS_RECIPES[("Mint", "split")] = lambda t: A(t.f(4, 8), [3, 5], 1)
MS_RECIPES[("Mint", "chunk")] = lambda t: A(t.f(4, 8), 2, 1)
MS_RECIPES[("Mint", "eye")] = lambda t: A(4, 5, dtype=t.dt)
MS_RECIPES[("Mint", "full")] = lambda t: A((4, 8), 1.5, dtype=t.dt)
MS_RECIPES[("Mint", "linspace")] = lambda t: A(-1.0, 1.0, 8, dtype=t.dt)
for _n in ("avg_pool2d", "fold", "gelu", "grid_sample", "interpolate", "leaky_relu", "linear",
           "pad", "silu", "softplus", "unfold"):
    # mint.<name> is mint.nn.functional.<name>: no torch.<name> in 1.13
    MS_RECIPES[("Mint", _n)] = (lambda n: lambda t: med.FUNC_R[n](t))(_n)

# Tensor methods with MindSpore's spellings (axis, keep_dims) and returns
MS_RECIPES[("Tensor", "mean")] = lambda t: A(t.f(4, 8), axis=1, keep_dims=True)
CALL_AS[("Tensor", "mean")] = _AXIS
MS_RECIPES[("Tensor", "all")] = lambda t: A(t.b(4, 8), axis=1, keep_dims=False)
CALL_AS[("Tensor", "all")] = _AXIS
MS_RECIPES[("Tensor", "any")] = lambda t: A(t.b(4, 8), axis=0, keep_dims=True)
CALL_AS[("Tensor", "any")] = _AXIS
# MindSpore's Tensor.max(axis, keepdims) returns the values only
MS_RECIPES[("Tensor", "max")] = lambda t: A(t.f(4, 8), axis=1, keepdims=False)
MS_RECIPES[("Tensor", "min")] = lambda t: A(t.f(4, 8), axis=0, keepdims=True)
CALL_AS[("Tensor", "max")] = CALL_AS[("Tensor", "min")] = _AXIS
OUT_AS[("Tensor", "max")] = OUT_AS[("Tensor", "min")] = lambda out: out[0]
MS_RECIPES[("Tensor", "split")] = lambda t: A(t.f(4, 8), split_size_or_sections=[3, 5], axis=1)
CALL_AS[("Tensor", "split")] = _ms_kw(split_size_or_sections="split_size", axis="dim")
MS_RECIPES[("Tensor", "swapaxes")] = lambda t: A(t.f(2, 3, 4), 0, 2)
MS_RECIPES[("Tensor", "transpose")] = lambda t: A(t.f(4, 8), 0, 1)
MS_RECIPES[("Tensor", "flatten")] = lambda t: A(t.f(2, 3, 4), start_dim=1)
MS_RECIPES[("Tensor", "select")] = lambda t: A(t.f(4, 8), 1, 2)
MS_RECIPES[("Tensor", "unsqueeze")] = lambda t: A(t.f(4, 8), 1)
MS_RECIPES[("Tensor", "view")] = lambda t: A(t.f(4, 8), 8, 4)
MS_RECIPES[("Tensor", "reshape")] = lambda t: A(t.f(4, 8), 2, 16)
MS_RECIPES[("Tensor", "repeat")] = lambda t: A(t.f(4, 8), 2, 1)
MS_RECIPES[("Tensor", "cumprod")] = lambda t: A(t.f(4, 8), 1)
MS_RECIPES[("Tensor", "topk")] = lambda t: A(t.f(4, 8), 3, 1)
MS_RECIPES[("Tensor", "clamp")] = lambda t: A(t.f(4, 8), -0.5, 0.5)
MS_RECIPES[("Tensor", "clamp_")] = lambda t: A(t.f(4, 8), min=-0.5, max=0.5)
MS_RECIPES[("Tensor", "add_")] = lambda t: A(t.f(4, 8), t.f(4, 8), alpha=2)
MS_RECIPES[("Tensor", "addmm_")] = lambda t: A(t.f(4, 6), t.f(4, 5), t.f(5, 6), beta=0.5, alpha=2)
MS_RECIPES[("Tensor", "copy_")] = lambda t: A(t.f(4, 8), t.f(4, 8))
MS_RECIPES[("Tensor", "fill_")] = lambda t: A(t.f(4, 8), 1.5)
MS_RECIPES[("Tensor", "zero_")] = lambda t: A(t.f(4, 8))
MS_RECIPES[("Tensor", "floor_")] = lambda t: A(t.f(4, 8) * 3)
MS_RECIPES[("Tensor", "round")] = lambda t: A(t.f(4, 8) * 10)
MS_RECIPES[("Tensor", "to")] = lambda t: A(t.f(4, 8), torch.float16)
MS_RECIPES[("Tensor", "type")] = lambda t: A(t.f(4, 8), torch.float32)
MS_RECIPES[("Tensor", "type_as")] = lambda t: A(t.f(4, 8), t.c(2).to(torch.float16))
MS_RECIPES[("Tensor", "item")] = lambda t: A(t.c(1))
MS_RECIPES[("Tensor", "tolist")] = lambda t: A(t.c(5))
MS_RECIPES[("Tensor", "numpy")] = lambda t: A(t.c(2, 3).float())
for _n in ("numel", "size", "is_contiguous", "contiguous", "clone", "t", "bool", "byte", "float",
           "half", "int", "long", "isnan"):
    MS_RECIPES[("Tensor", _n)] = lambda t: A(t.f(4, 8))


# positional tensors PyTorch cannot differentiate (MindSpore's gradient for
# them is recorded as zeros): batch_norm's running statistics
NO_GRAD = {("Mint", "batch_norm"): (3, 4), ("MintFunctional", "batch_norm"): (1, 2),
           ("MintFunctional", "batch_norm_ex"): (1, 2), ("Tensor", "numpy"): (0,)}


# --- the fused MindSpore functionals: float64 references -----------------------

def _rms_norm(x, gamma, epsilon=1e-6):
    k = gamma.dim()
    dims = tuple(range(x.dim() - k, x.dim()))
    rstd = torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + epsilon)
    # rstd is not differentiable: RmsNormGrad takes the sens of y only
    return x * rstd * gamma, rstd.detach()


def _swiglu(x, dim=-1):
    a, b = x.chunk(2, dim)
    return F.silu(a) * b


def _rope(x, cos, sin, mode=0):
    if mode == 0:
        x1, x2 = x.chunk(2, -1)
        rot = torch.cat([-x2, x1], -1)
    else:
        x1, x2 = x[..., 0::2], x[..., 1::2]
        rot = torch.stack([-x2, x1], -1).flatten(-2)
    return x * cos + rot * sin


def _fas(query, key, value, head_num, input_layout="BSH", scalar_value=1.0, **_):
    b, s1, h1 = query.shape
    d = h1 // head_num
    n2 = key.shape[-1] // d

    def bnsd(x, n):
        return x.reshape(b, x.shape[1], n, d).transpose(1, 2)
    q, k, v = bnsd(query, head_num), bnsd(key, n2), bnsd(value, n2)
    if n2 != head_num:
        k = k.repeat_interleave(head_num // n2, 1)
        v = v.repeat_interleave(head_num // n2, 1)
    p = torch.softmax(q @ k.transpose(-1, -2) * scalar_value, -1)
    return (p @ v).transpose(1, 2).reshape(b, s1, h1)


FUSED_FN = {"rms_norm": _rms_norm, "swiglu": _swiglu, "rotary_position_embedding": _rope,
            "flash_attention_score": _fas}


def _rope_cs(t, s, d, mode):
    pos = torch.arange(s, dtype=torch.float64)[:, None]
    inv = 1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    ang = pos * inv[None, :]
    ang = torch.cat([ang, ang], -1) if mode == 0 else ang.repeat_interleave(2, -1)
    return ang.cos().reshape(1, s, 1, d).to(t.dt), ang.sin().reshape(1, s, 1, d).to(t.dt)


MS_RECIPES[("Functional", "rms_norm")] = lambda t: A(t.f(2, 3, 8), t.p(8), epsilon=1e-5)
MS_RECIPES[("Functional", "swiglu")] = lambda t: A(t.f(4, 16), dim=-1)
MS_RECIPES[("Functional", "rotary_position_embedding")] = lambda t: A(
    t.f(2, 6, 2, 8), *_rope_cs(t, 6, 8, 0), 0)
MS_RECIPES[("Functional", "flash_attention_score")] = lambda t: A(
    t.f(2, 8, 32), t.f(2, 8, 32), t.f(2, 8, 32), 4,
    scalar_value=1 / math.sqrt(8), input_layout="BSH")


# --- recipe and callable resolution --------------------------------------------

def recipe_for(kind, name):
    """(recipe, in_place) of kind.name, or (None, False)."""
    if (kind, name) in ALIAS:
        kind, name = ALIAS[(kind, name)]
    if (kind, name) in MS_RECIPES:
        return MS_RECIPES[(kind, name)], name.endswith("_") and kind == "Tensor"
    if kind == "Functional":
        return None, False
    if kind == "MintFunctional":
        return med.FUNC_R.get(name), name.endswith("_")
    r, ip = med.recipe_for("Torch" if kind == "Mint" else "Tensor", name)
    return r, ip or (kind == "Tensor" and name.endswith("_"))


def natural(kind, name):
    if (kind, name) in ALIAS:
        kind, name = ALIAS[(kind, name)]
    if kind == "MintFunctional":
        return name in med.FUNC_NATURAL
    if kind == "Functional":
        return False
    return med.is_natural("Torch" if kind == "Mint" else "Tensor", name) or name in (
        "all", "any", "one_hot")


def torch_callable(kind, name):
    if (kind, name) in ALIAS:
        kind, name = ALIAS[(kind, name)]
    if kind == "Functional":
        return FUSED_FN[name]
    if kind == "MintFunctional":
        return torch.normal if name == "normal" else getattr(F, name)
    if kind == "Tensor":
        return getattr(torch.Tensor, name)
    if name == "item":
        return torch.Tensor.item
    fn = getattr(torch, name, None)
    if fn is None or (kind, name) in MS_RECIPES and name in med.FUNC_R:
        fn = getattr(F, name)
    return fn


# --- descriptors ------------------------------------------------------------------

MS_DTYPE = {torch.bool: "Bool", torch.int8: "Int8", torch.uint8: "UInt8", torch.int16: "Int16",
            torch.int32: "Int32", torch.int64: "Int64", torch.float16: "Float16",
            torch.bfloat16: "BFloat16", torch.float32: "Float32", torch.float64: "Float64"}


def _num(v):
    return float(v)


def tensor_stats(x):
    """Max/Min/Mean/Norm as MindSpore's dumper writes them (spec 2.4)."""
    x = x.detach()
    if x.numel() == 0:
        return None, None, None, None
    if x.dtype == torch.bool:
        return bool(x.any()), bool(x.all()), None, None
    if x.dtype in (torch.float16, torch.bfloat16):
        y = x
    else:
        y = x.to(torch.float32)
    return _num(y.max()), _num(y.min()), _num(y.float().mean().to(y.dtype)), _num(
        torch.linalg.vector_norm(y.float()).to(y.dtype))


class Recorder:
    def __init__(self, mode, data_dir):
        self.mode = mode
        self.data_dir = data_dir
        self.data = {}
        self.count = {}
        self.saved = 0

    def desc(self, x, stem):
        if x is None:
            return None
        if isinstance(x, torch.Tensor):
            mx, mn, mean, norm = tensor_stats(x)
            d = {"type": "mindspore.Tensor", "dtype": MS_DTYPE[x.dtype], "shape": list(x.shape),
                 "Max": mx, "Min": mn, "Mean": mean, "Norm": norm}
            if self.mode == "tensor":
                name = stem + ".npy"
                y = x.detach().contiguous()
                if y.dtype == torch.bfloat16:
                    y = y.float()
                np.save(os.path.join(self.data_dir, name), y.numpy())
                d["data_name"] = name
                self.saved += 1
            return d
        if isinstance(x, (list, tuple)):
            return [self.desc(y, "%s.%d" % (stem, i)) for i, y in enumerate(x)]
        if isinstance(x, bool):
            return {"type": "bool", "value": x}
        if isinstance(x, int):
            return {"type": "int", "value": x}
        if isinstance(x, float):
            return {"type": "float", "value": x}
        if isinstance(x, str):
            return {"type": "str", "value": x}
        if isinstance(x, slice):
            return {"type": "slice", "value": [x.start, x.stop, x.step]}
        if isinstance(x, torch.dtype):
            return {"type": "mindspore.dtype", "value": MS_DTYPE[x]}
        if isinstance(x, np.ndarray):
            return {"type": "numpy.ndarray", "dtype": str(x.dtype), "shape": list(x.shape),
                    "Max": float(x.max()), "Min": float(x.min()), "Mean": float(x.mean()),
                    "Norm": float(np.linalg.norm(x.astype(np.float32)))}
        raise TypeError("cannot describe %s" % type(x).__name__)

    def record(self, kind, name, args, kwargs, outs, sens, grads):
        key = "%s.%s" % (kind, name)
        n = self.count.get(key, 0)
        self.count[key] = n + 1
        e = "%s.%d" % (key, n)
        fwd = e + ".forward"
        self.data[fwd] = {
            "input_args": [self.desc(a, "%s.input.%d" % (fwd, i)) for i, a in enumerate(args)],
            "input_kwargs": {k: self.desc(v, "%s.kwargs.%s" % (fwd, k)) for k, v in kwargs.items()},
            "output": [self.desc(o, "%s.output.%d" % (fwd, i)) for i, o in enumerate(outs)]}
        if sens is not None:
            bwd = e + ".backward"
            self.data[bwd] = {
                "input": [self.desc(s, "%s.input.%d" % (bwd, i)) for i, s in enumerate(sens)],
                "output": [self.desc(g, "%s.output.%d" % (bwd, i)) for i, g in enumerate(grads)]}


# --- one call ----------------------------------------------------------------------

def _leaf(x):
    x = x.detach().clone()
    if x.is_floating_point():
        x.requires_grad_(True)
    return x


def _snapshot(a):
    """The recorded value of an argument: a copy taken before the call."""
    if isinstance(a, torch.Tensor):
        return a.detach().clone()
    if isinstance(a, list):
        return [_snapshot(y) for y in a]
    return a


def _flat_outputs(out):
    if isinstance(out, (tuple, list)) and not isinstance(out, torch.Size):
        return list(out)
    return [out]


def _downcast(x, dtype):
    if isinstance(x, torch.Tensor) and x.dtype == torch.float32:
        return x.to(dtype)
    return x


def _upcast(x):
    if isinstance(x, torch.Tensor) and x.dtype in (torch.bfloat16, torch.float16):
        return x.float()
    if isinstance(x, list):
        return [_upcast(y) for y in x]
    if x is torch.bfloat16 or x is torch.float16:  # a factory's dtype=
        return torch.float32
    return x


def call_once(kind, name, dtype, seed, backward=True, upcast=False):
    """(args, kwargs, outs, sens, grads) of one call; sens is None when no
    backward is recorded. upcast: a bfloat16 call computed in float32 with
    its outputs rounded to bfloat16 (the gradients reach the bfloat16
    inputs through the casts, rounded once)."""
    recipe, in_place = recipe_for(kind, name)
    torch.manual_seed(seed)
    args, kwargs = recipe(med.Inputs(dtype, True))
    # every top-level positional floating tensor (and those of a positional
    # list) is a leaf requiring grad; keyword tensors require none
    leaves = []
    nograd = NO_GRAD.get((kind, name), ())
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor):
            args[i] = _leaf(a) if backward and i not in nograd else a.detach()
        elif isinstance(a, (list, tuple)) and a and all(isinstance(y, torch.Tensor) for y in a):
            args[i] = [(_leaf(y) if backward else y.detach()) for y in a]
    kwargs = {k: (v.detach() if isinstance(v, torch.Tensor) else v) for k, v in kwargs.items()}
    for a in args:
        for y in (a if isinstance(a, list) else [a]):
            if isinstance(y, torch.Tensor) and y.requires_grad:
                leaves.append(y)
    rec_args = [_snapshot(a) for a in args]
    rec_kwargs = dict(kwargs)
    call_args, call_kwargs = list(args), dict(kwargs)
    if in_place and call_args and isinstance(call_args[0], torch.Tensor):
        call_args[0] = call_args[0].clone()
    if (kind, name) in CALL_AS:
        call_args, call_kwargs = CALL_AS[(kind, name)](call_args, call_kwargs)
    fn = torch_callable(kind, name)
    if kind == "Functional":
        dt = dtype
        c64 = [a.double() if isinstance(a, torch.Tensor) else a for a in call_args]
        out = fn(*c64, **call_kwargs)
        out = tuple(o.to(dt) for o in out) if isinstance(out, tuple) else out.to(dt)
    else:
        if upcast:
            call_args = [_upcast(a) for a in call_args]
            call_kwargs = {k: _upcast(v) for k, v in call_kwargs.items()}
        out = fn(*call_args, **call_kwargs)
        if upcast:
            out = tuple(_downcast(o, dtype) for o in out) if isinstance(out, tuple) else _downcast(out, dtype)
    if (kind, name) in OUT_AS:
        out = OUT_AS[(kind, name)](out)
    outs = _flat_outputs(out)
    diff = [o for o in outs if isinstance(o, torch.Tensor) and o.is_floating_point() and o.grad_fn is not None]
    rec_outs = [o.detach().clone() if isinstance(o, torch.Tensor) else o for o in outs]
    if not backward or not diff or not leaves:
        return rec_args, rec_kwargs, rec_outs, None, None
    sens = []
    for o in outs:
        if not isinstance(o, torch.Tensor):
            continue
        if o.is_floating_point():
            sens.append(torch.randn(o.shape).to(o.dtype))
        else:
            sens.append(torch.zeros_like(o))
    pairs = [(o, s) for o, s in zip([o for o in outs if isinstance(o, torch.Tensor)], sens)
             if o.is_floating_point() and o.grad_fn is not None]
    g = torch.autograd.grad([o for o, _ in pairs], leaves, [s for _, s in pairs], allow_unused=True)
    gmap = {id(x): (gi if gi is not None else torch.zeros_like(x)) for x, gi in zip(leaves, g)}

    def grad_of(a):
        if isinstance(a, torch.Tensor):
            return gmap[id(a)].detach() if id(a) in gmap else torch.zeros_like(a)
        if isinstance(a, list) and a and all(isinstance(y, torch.Tensor) for y in a):
            return [grad_of(y) for y in a]
        return None
    grads = [grad_of(a) for a in args]
    return rec_args, rec_kwargs, rec_outs, sens, grads


def run_api(rec, kind, name, label, dtype, left_out, stats):
    seed = zlib.crc32(("ms.%s.%s.%s" % (kind, name, label)).encode())
    errors = []
    # PyTorch 1.13 lacks some bfloat16 CPU kernels: such a call is
    # computed in float32 and rounded (the values an NPU computing in
    # float32 would give), and listed
    attempts = [(True, False), (False, False)]
    if dtype == torch.bfloat16:
        attempts += [(True, True), (False, True)]
    for backward, upcast in attempts:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = call_once(kind, name, dtype, seed, backward, upcast)
        except Exception as e:  # noqa: BLE001 - any failure leaves the call out
            msg = str(e).strip()
            errors.append("%s: %s" % (type(e).__name__, msg.splitlines()[0][:200] if msg else ""))
            continue
        rec.record(kind, name, *res)
        stats["called"].add((kind, name))
        stats["calls"] += 1
        stats["backward"] += res[3] is not None
        if upcast:
            stats["upcast"].append((kind, name, label, errors[0]))
        elif errors:
            stats["forward_only"].append((kind, name, label, errors[0]))
        return
    left_out.append((kind, name, label, errors[-1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default %(default)s)")
    ap.add_argument("--mode", choices=("statistics", "tensor"), default="tensor",
                    help="dump task: statistics (Max/Min/Mean/Norm only) or tensor (+ .npy files)")
    ap.add_argument("--dtypes", default="float32,bfloat16",
                    help="comma-separated float dtypes (default %(default)s)")
    ap.add_argument("--only", default="",
                    help="comma-separated names: Mint.add, MintFunctional.gelu, Tensor.view, Functional.swiglu")
    a = ap.parse_args()
    torch.set_num_threads(1)
    dtypes = [(d, getattr(torch, d)) for d in a.dtypes.split(",") if d]
    only = set(x for x in a.only.split(",") if x)

    todo, modules, no_recipe = [], [], []
    for kind, names in LISTS:
        for name in names:
            if only and "%s.%s" % (kind, name) not in only:
                continue
            if name in MODULES:
                modules.append((kind, name))
            elif recipe_for(kind, name)[0] is None:
                no_recipe.append((kind, name))
            else:
                todo.append((kind, name))

    os.makedirs(a.out, exist_ok=True)
    data_dir = os.path.abspath(os.path.join(a.out, "dump_tensor_data"))
    if a.mode == "tensor":
        os.makedirs(data_dir, exist_ok=True)
        for f in os.listdir(data_dir):
            if f.endswith(".npy"):
                os.remove(os.path.join(data_dir, f))
    start = time.time()
    rec = Recorder(a.mode, data_dir)
    left_out = []
    stats = {"called": set(), "calls": 0, "backward": 0, "forward_only": [], "upcast": []}
    for kind, name in todo:
        runs = [("natural", torch.float32)] if natural(kind, name) else dtypes
        for label, dt in runs:
            run_api(rec, kind, name, label, dt, left_out, stats)
    dump = {"task": a.mode, "level": "L1", "framework": "mindspore",
            "dump_data_dir": data_dir if a.mode == "tensor" else None, "data": rec.data}
    with open(os.path.join(a.out, "dump.json"), "w") as f:
        json.dump(dump, f, indent=1)
    elapsed = time.time() - start

    for kind, names in LISTS:
        sel = [n for n in names if not only or "%s.%s" % (kind, n) in only]
        called = sum(1 for n in sel if (kind, n) in stats["called"])
        print("%s list: %d names, %d called at least once" % (kind, len(sel), called))
    print("calls recorded: %d (%d with a backward); %d tensors saved" % (
        stats["calls"], stats["backward"], rec.saved))
    for kind, name in modules:
        print("sub-module, not called: %s.%s" % (kind, name))
    for kind, name in no_recipe:
        print("no recipe: %s.%s" % (kind, name))
    for kind, name, label, err in stats["forward_only"]:
        print("forward only (%s): %s.%s: %s" % (label, kind, name, err))
    for kind, name, label, err in stats["upcast"]:
        print("computed in float32 (%s): %s.%s: %s" % (label, kind, name, err))
    for kind, name, label, err in left_out:
        print("left out (%s): %s.%s: %s" % (label, kind, name, err))
    print("wrote %s (%d entries, task %s); %.1fs" % (
        os.path.join(a.out, "dump.json"), len(rec.data), a.mode, elapsed))


if __name__ == "__main__":
    main()
