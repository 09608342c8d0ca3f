#!/usr/bin/python3
"""Writes an msprobe L1 tensor-mode dump that calls every name of msprobe's
`functional`, `tensor` and `torch` API lists (pytorch-precheck appendix A.1-A.3)
once per dtype, with real PyTorch (Debian's 1.13: run it with /usr/bin/python3).

Every name has a recipe (the tables below for Tensor and Torch names;
scripts/every_api_fn_*.py, one module per family, for torch.nn.functional
names, each a RECIPES dict: how to build its arguments); a name is
called at float32 and at bfloat16 (--dtypes) when it takes floating input, once
at its natural dtype (int64 / bool) otherwise.  Float inputs require grad; when
some floating output has a grad_fn, loss = sum_i (out_i * R_i).sum() with a
fixed random R_i per output is back-propagated, so the hook on the autograd
node of the first output records "<entry>.backward" as msprobe does.  A call
whose backward raises, or whose outputs carry no gradient, is made again with
inputs that do not require grad.

The recorder is bench/make_dumps.py's (msprobe's hooks on torch.Tensor and
torch/torch.linalg attributes, outermost call only, per-"<Type>.<name>"
counters), extended to tensor mode: each tensor descriptor gets data_name
"<entry>.<input|kwargs|output>.<index path>.pt" and the tensor is written with
torch.save to OUT/dump_tensor_data/<data_name>; dump.json has task "tensor",
level "L1", framework "pytorch", dump_data_dir = that directory.

Seeded per (list, name, dtype), so --only gives the same entries' values as a
full run, and the same PyTorch writes the same bytes.  A name PyTorch 1.13
lacks, or whose call raises on the CPU (with and without grad), is left out and
printed with the exception.

    /usr/bin/python3 scripts/make_every_api_dump.py --out /tmp/every-api
    /usr/bin/python3 scripts/make_every_api_dump.py --only Tensor.addmm,Torch.linalg.qr,Functional.gelu
"""
import argparse
import glob
import importlib
import json
import os
import sys
import time
import warnings
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

# The native CPU kernels, whatever the machine: on a CPU with AVX-512 BF16,
# PyTorch 1.13 sends bfloat16 convolutions to oneDNN, whose accumulation
# differs from the native kernels the emulated device reproduces (and from
# what the same script gives on any other CPU).
torch.backends.mkldnn.enabled = False

import make_dumps as md  # noqa: E402  (msprobe-style recorder and API lists)

DEFAULT_OUT = "/tmp/probe-every-api-dump"


# --- the tensor-mode recorder ---------------------------------------------------

class TensorRecorder(md.Recorder):
    """make_dumps.Recorder writing msprobe's tensor mode: data_name + .pt files."""

    def __init__(self):
        super().__init__(low_precision_fallback=None)
        self.saved = {}  # data_name -> detached contiguous CPU clone

    def _saver(self, prefix):
        def on_tensor(t, desc, path):
            name = prefix + "".join("." + str(p) for p in path) + ".pt"
            desc["data_name"] = name
            self.saved[name] = t.detach().clone().contiguous()
        return on_tensor

    def _desc(self, x, key, path, prefix):
        import numpy as np
        if isinstance(x, np.ndarray):  # Tensor.numpy's output (pytorch-precheck 2.6)
            if x.size == 0:
                return {"type": "numpy.ndarray", "dtype": str(x.dtype), "shape": list(x.shape),
                        "Max": None, "Min": None, "Mean": None, "Norm": None}
            return {"type": "numpy.ndarray", "dtype": str(x.dtype), "shape": list(x.shape),
                    "Max": float(x.max()), "Min": float(x.min()), "Mean": float(x.mean()),
                    "Norm": float(np.linalg.norm(x.astype(np.float32)))}
        return md.describe(x, key, path, self._saver(prefix))

    def describe_args(self, entry, args):
        return [self._desc(a, None, (i,), entry + ".input") for i, a in enumerate(args)]

    def describe_kwargs(self, entry, kwargs):
        return {k: self._desc(v, k, (k,), entry + ".kwargs") for k, v in kwargs.items()}

    def describe_outputs(self, entry, outs):
        return [self._desc(o, None, (i,), entry + ".output") for i, o in enumerate(outs)]

    def describe_backward(self, entry, grad_outputs, grad_inputs):
        return {"input": [self._desc(g, None, (i,), entry + ".input")
                          for i, g in enumerate(grad_outputs)],
                "output": [self._desc(g, None, (i,), entry + ".output")
                           for i, g in enumerate(grad_inputs)]}

    def snapshot(self):
        return dict(self.data), dict(self.count), dict(self.saved), self.n_fwd, self.n_bwd

    def rollback(self, snap):
        self.data, self.count, self.saved, self.n_fwd, self.n_bwd = (
            dict(snap[0]), dict(snap[1]), dict(snap[2]), snap[3], snap[4])

    def write_tensor_dump(self, out_dir):
        tdir = os.path.abspath(os.path.join(out_dir, "dump_tensor_data"))
        os.makedirs(tdir, exist_ok=True)
        for f in os.listdir(tdir):  # stale files of an earlier run
            if f.endswith(".pt"):
                os.remove(os.path.join(tdir, f))
        for name in sorted(self.saved):
            torch.save(self.saved[name], os.path.join(tdir, name))
        dump = {"task": "tensor", "level": "L1", "framework": "pytorch",
                "dump_data_dir": tdir, "data": self.data}
        with open(os.path.join(out_dir, "dump.json"), "w") as f:
            json.dump(dump, f, indent=1)
        return tdir


# --- inputs -----------------------------------------------------------------------

class Inputs:
    """Seeded argument factory for one call at one dtype.  Float tensors are
    generated in float32, cast to the dtype under test and, in grad mode,
    made leaves that require grad (the no-grad variants: c*, or grad=False)."""

    def __init__(self, dtype, grad):
        self.dt = dtype
        self.grad = grad

    def _leaf(self, x, grad=True):
        x = x.to(self.dt)
        if grad and self.grad:
            x.requires_grad_(True)
        return x

    # float tensors that require grad in grad mode
    def f(self, *s):                     # normal(0, 1)
        return self._leaf(torch.randn(*s))

    def u(self, *s):                     # (-0.9, 0.9): asin, atanh, ...
        return self._leaf(torch.rand(*s) * 1.8 - 0.9)

    def p(self, *s):                     # (0.5, 2): log, sqrt, divisors, ...
        return self._leaf(torch.rand(*s) * 1.5 + 0.5)

    def g(self, *s):                     # (1.1, 3): acosh, mvlgamma
        return self._leaf(torch.rand(*s) * 1.9 + 1.1)

    def z(self, *s):                     # (0.05, 0.95): logit, probabilities
        return self._leaf(torch.rand(*s) * 0.9 + 0.05)

    def sq(self, *s):                    # well-conditioned square matrices
        n = s[-1]
        return self._leaf(torch.randn(*s) * 0.3 + torch.eye(n) * 2)

    def spd(self, *s):                   # symmetric positive definite
        n = s[-1]
        a = torch.randn(*s) * 0.5
        return self._leaf(a @ a.transpose(-1, -2) + torch.eye(n) * n)

    # tensors that never require grad
    def c(self, *s):
        return torch.randn(*s).to(self.dt)

    def cp(self, *s):
        return (torch.rand(*s) * 1.5 + 0.5).to(self.dt)

    def cz(self, *s):
        return (torch.rand(*s) * 0.9 + 0.05).to(self.dt)

    def i(self, *s, lo=0, hi=5):
        return torch.randint(lo, hi, s)

    def b(self, *s):
        return torch.rand(*s) < 0.5

    def perm(self, rows, n, k):          # [rows, k] distinct column indices < n
        return torch.stack([torch.randperm(n)[:k] for _ in range(rows)])

    @staticmethod
    def nl(x):
        """A non-leaf copy, so that an in-place API may write to it."""
        return x.clone() if isinstance(x, torch.Tensor) and x.requires_grad else x


def A(*args, **kwargs):
    return list(args), kwargs


def _lstm_params(t, inp, hid, gates):
    return [t.f(gates * hid, inp) * 0.3, t.f(gates * hid, hid) * 0.3, t.f(gates * hid), t.f(gates * hid)]


def _detach_leaf(t, x):
    x = x.detach()
    if t.grad and (x.is_floating_point() or x.is_complex()):
        x.requires_grad_(True)
    return x


def _lu(t):
    a = t.sq(2, 4, 4)
    lu, piv = torch.linalg.lu_factor(a.detach())
    return _detach_leaf(t, lu), piv


def _geqrf(t):
    a = t.c(5, 3)
    q, tau = torch.geqrf(a.float())
    return _detach_leaf(t, q.to(t.dt)), _detach_leaf(t, tau.to(t.dt))


def _sparse(t, shape, nnz):
    idx = torch.stack([torch.randint(0, n, (nnz,)) for n in shape])
    return torch.sparse_coo_tensor(idx, torch.randn(nnz), shape).coalesce().to(t.dt)


def _stft_spec(t):
    w = torch.hann_window(8)
    s = torch.stft(torch.randn(2, 64), 8, window=w, return_complex=True)
    return _detach_leaf(t, s), w


# --- recipes ----------------------------------------------------------------------
# A recipe maps an Inputs to (args, kwargs).  For a Tensor name args[0] is self
# (called as torch.Tensor.<name>(*args, **kwargs)); for a Torch name the call is
# torch.<dotted name>(*args, **kwargs).  COMMON serves both lists unless TENSOR_R
# / TORCH_R has the name; an in-place name "<base>_" without its own recipe uses
# <base>'s with args[0] made a non-leaf.  NATURAL: called once, at int64/bool.

COMMON = {}
TENSOR_R = {}
TORCH_R = {}
NATURAL = set()


def _group(table, names, fn):
    for n in names.split():
        table[n] = fn


# elementwise, one input
_group(COMMON, """abs absolute neg negative sin cos tan atan arctan sinh cosh tanh asinh arcsinh
    sigmoid exp exp2 expm1 erf erfc sign sgn ceil floor round trunc fix frac square deg2rad
    rad2deg relu sinc signbit isfinite isinf isnan isneginf isposinf isreal nan_to_num lgamma
    digamma i0 angle conj_physical resolve_neg selu celu ravel msort clone real t adjoint
    nonzero argwhere count_nonzero all any sum prod nansum mean nanmean frexp
    bfloat16 bool byte char double float half int long short cfloat
    native_norm nuclear_norm numpy""", lambda t: A(t.f(4, 8)))
_group(COMMON, "acos asin arccos arcsin atanh arctanh erfinv", lambda t: A(t.u(4, 8)))
_group(COMMON, "log log10 log1p log2 sqrt rsqrt reciprocal", lambda t: A(t.p(4, 8)))
_group(COMMON, "acosh arccosh", lambda t: A(t.g(4, 8)))
_group(COMMON, "logit", lambda t: A(t.z(4, 8)))
# elementwise, two inputs
_group(COMMON, """add sub subtract mul multiply atan2 arctan2 maximum minimum fmax fmin hypot
    copysign nextafter logaddexp logaddexp2 eq ne lt le gt ge greater greater_equal less
    less_equal not_equal isclose allclose equal __add__ __sub__ __mul__ __radd__ __eq__ __ne__
    __lt__ __le__ __gt__ __ge__ __iadd__ __isub__ __imul__ dist""",
       lambda t: A(t.f(4, 8), t.f(4, 8)))
_group(COMMON, """div divide true_divide fmod remainder floor_divide __truediv__ __div__
    __floordiv__ __mod__ __idiv__ __ifloordiv__ __imod__""",
       lambda t: A(t.f(4, 8), t.p(4, 8)))
_group(COMMON, "pow __pow__ __ipow__ float_power", lambda t: A(t.p(4, 8), t.f(4, 8)))
_group(COMMON, "xlogy", lambda t: A(t.f(4, 8), t.p(4, 8)))
_group(COMMON, "igamma igammac", lambda t: A(t.p(4, 8), t.p(4, 8)))
_group(COMMON, "__rsub__ __rmul__", lambda t: A(t.f(4, 8), 1.5))
_group(COMMON, "__rdiv__ __rmod__", lambda t: A(t.p(4, 8), 3.0))
COMMON["__rpow__"] = lambda t: A(t.f(4, 8), 2.0)
COMMON["heaviside"] = lambda t: A(t.f(4, 8), t.c(4, 8))
COMMON["ldexp"] = lambda t: A(t.f(4, 8), t.i(4, 8, lo=-2, hi=3))
COMMON["lerp"] = lambda t: A(t.f(4, 8), t.f(4, 8), 0.3)
COMMON["addcdiv"] = lambda t: A(t.f(4, 8), t.f(4, 8), t.p(4, 8), value=0.5)
COMMON["addcmul"] = lambda t: A(t.f(4, 8), t.f(4, 8), t.f(4, 8), value=0.5)
COMMON["clamp"] = COMMON["clip"] = lambda t: A(t.f(4, 8), -0.5, 0.5)
COMMON["clamp_max"] = lambda t: A(t.f(4, 8), 0.5)
COMMON["clamp_min"] = lambda t: A(t.f(4, 8), -0.5)
COMMON["hardshrink"] = lambda t: A(t.f(4, 8), 0.5)
COMMON["mvlgamma"] = lambda t: A(t.g(4, 8), 2)
COMMON["renorm"] = lambda t: A(t.f(4, 8), 2, 0, 1.0)
COMMON["round"] = lambda t: A(t.f(4, 8) * 10)
COMMON["where"] = lambda t: A(t.b(4, 8), t.f(4, 8), t.f(4, 8))
TENSOR_R["where"] = lambda t: A(t.f(4, 8), t.b(4, 8), t.f(4, 8))
COMMON["polygamma"] = lambda t: A(1, t.p(4, 8))
TENSOR_R["polygamma"] = lambda t: A(t.p(4, 8), 1)
COMMON["__bool__"] = COMMON["__nonzero__"] = lambda t: A(t.c(1))
# integer and bool APIs: natural dtype
_INT2 = lambda t: A(t.i(4, 8, hi=16), t.i(4, 8, hi=16))
_SHIFT = lambda t: A(t.i(4, 8, hi=16), t.i(4, 8, hi=4))
_BOOL2 = lambda t: A(t.b(4, 8), t.b(4, 8))
_group(COMMON, """bitwise_and bitwise_or bitwise_xor gcd lcm __and__ __or__ __xor__ __iand__
    __ior__ __ixor__ __ror__ __rxor__""", _INT2)
_group(COMMON, "bitwise_left_shift bitwise_right_shift __lshift__ __rshift__ __ilshift__ __irshift__",
       _SHIFT)
COMMON["bitwise_not"] = lambda t: A(t.i(4, 8, hi=16))
_group(COMMON, "logical_and logical_or logical_xor", _BOOL2)
COMMON["logical_not"] = lambda t: A(t.b(4, 8))
COMMON["bincount"] = lambda t: A(t.i(16, hi=6))
COMMON["tril_indices"] = COMMON["triu_indices"] = lambda t: A(4, 4)
NATURAL.update("""bitwise_and bitwise_or bitwise_xor gcd lcm __and__ __or__ __xor__ __iand__
    __ior__ __ixor__ __ror__ __rxor__ bitwise_left_shift bitwise_right_shift __lshift__
    __rshift__ __ilshift__ __irshift__ bitwise_not logical_and logical_or logical_xor logical_not
    bincount tril_indices triu_indices""".split())
# reductions and scans along a dim
_group(COMMON, """amax amin argmax argmin max min median nanmedian mode logsumexp sort argsort
    std var std_mean var_mean aminmax""", lambda t: A(t.f(4, 8), dim=-1))
COMMON["aminmax"] = lambda t: A(t.f(4, 8), dim=-1)
COMMON["_aminmax"] = lambda t: A(t.f(4, 8))
_group(COMMON, "cumsum cumprod cummax cummin logcumsumexp", lambda t: A(t.f(4, 8), 1))
_group(COMMON, "softmax log_softmax", lambda t: A(t.f(4, 8), -1))
COMMON["norm"] = lambda t: A(t.f(4, 8))
COMMON["frobenius_norm"] = lambda t: A(t.f(4, 8), (0, 1))
COMMON["norm_except_dim"] = lambda t: A(t.f(4, 8), 2, 0)
COMMON["topk"] = lambda t: A(t.f(4, 8), 3, dim=-1)
COMMON["kthvalue"] = lambda t: A(t.f(4, 8), 2, -1)
COMMON["quantile"] = COMMON["nanquantile"] = lambda t: A(t.f(4, 8), 0.3, dim=-1)
COMMON["histc"] = lambda t: A(t.f(4, 8), bins=10, min=-2.0, max=2.0)
COMMON["histogram"] = lambda t: A(t.f(32), bins=5)
COMMON["histogramdd"] = lambda t: A(t.f(16, 2), bins=[3, 3])
COMMON["unique"] = lambda t: A(t.i(16, hi=6).to(t.dt), sorted=True, return_inverse=True)
COMMON["unique_consecutive"] = lambda t: A(t.i(16, hi=3).to(t.dt), return_counts=True)
COMMON["cov"] = COMMON["corrcoef"] = lambda t: A(t.f(3, 8))
COMMON["diff"] = lambda t: A(t.f(4, 8), dim=1)
COMMON["trapz"] = COMMON["cumulative_trapezoid"] = lambda t: A(t.f(4, 8), dim=-1)
# matmul family
COMMON["mm"] = COMMON["smm"] = lambda t: A(t.f(4, 5), t.f(5, 6))
_group(COMMON, "matmul __matmul__ bmm linalg.matmul", lambda t: A(t.f(2, 4, 5), t.f(2, 5, 6)))
COMMON["mv"] = lambda t: A(t.f(4, 5), t.f(5))
COMMON["dot"] = COMMON["vdot"] = lambda t: A(t.f(8), t.f(8))
COMMON["inner"] = lambda t: A(t.f(4, 8), t.f(6, 8))
COMMON["outer"] = COMMON["ger"] = lambda t: A(t.f(4), t.f(6))
COMMON["addmm"] = lambda t: A(t.f(4, 6), t.f(4, 5), t.f(5, 6))
COMMON["addmv"] = lambda t: A(t.f(4), t.f(4, 5), t.f(5))
COMMON["addr"] = lambda t: A(t.f(4, 6), t.f(4), t.f(6))
COMMON["addbmm"] = lambda t: A(t.f(4, 6), t.f(2, 4, 5), t.f(2, 5, 6))
COMMON["baddbmm"] = lambda t: A(t.f(2, 4, 6), t.f(2, 4, 5), t.f(2, 5, 6))
COMMON["chain_matmul"] = lambda t: A(t.f(4, 5), t.f(5, 6), t.f(6, 3))
COMMON["linalg.multi_dot"] = lambda t: A([t.f(4, 5), t.f(5, 6), t.f(6, 3)])
COMMON["linalg.vecdot"] = lambda t: A(t.f(4, 8), t.f(4, 8))
COMMON["kron"] = lambda t: A(t.f(2, 3), t.f(3, 2))
COMMON["tensordot"] = lambda t: A(t.f(4, 5, 6), t.f(5, 6, 3), dims=2)
COMMON["einsum"] = lambda t: A("bij,bjk->bik", t.f(2, 4, 5), t.f(2, 5, 6))
COMMON["cdist"] = lambda t: A(t.f(2, 4, 3), t.f(2, 5, 3))
COMMON["cross"] = COMMON["linalg.cross"] = lambda t: A(t.f(4, 3), t.f(4, 3), dim=-1)
COMMON["cartesian_prod"] = lambda t: A(t.f(3), t.f(4))
COMMON["block_diag"] = lambda t: A(t.f(2, 2), t.f(3, 3))
COMMON["sspaddmm"] = COMMON["saddmm"] = lambda t: A(_sparse(t, (4, 6), 5), _sparse(t, (4, 5), 6),
                                                    t.f(5, 6))
COMMON["hspmm"] = COMMON["dsmm"] = COMMON["hsmm"] = COMMON["spmm"] = \
    lambda t: A(_sparse(t, (4, 5), 6), t.f(5, 6))
TENSOR_R["smm"] = lambda t: A(_sparse(t, (4, 5), 6), t.f(5, 6))
COMMON["smm"] = TENSOR_R["smm"]
COMMON["sparse_coo_tensor"] = lambda t: A(torch.tensor([[0, 1, 3], [2, 0, 7]]), t.f(3), (4, 8))
# linear algebra
_group(COMMON, """det inverse linalg.det linalg.slogdet slogdet linalg.inv linalg.inv_ex
    matrix_exp linalg.matrix_exp linalg.cond linalg.svdvals linalg.eigvals""",
       lambda t: A(t.sq(2, 4, 4)))
COMMON["logdet"] = lambda t: A(t.spd(2, 4, 4))
COMMON["matrix_power"] = COMMON["linalg.matrix_power"] = lambda t: A(t.sq(2, 4, 4), 3)
_group(COMMON, "pinverse linalg.pinv qr linalg.qr svd linalg.svd geqrf linalg.matrix_rank",
       lambda t: A(t.f(5, 3)))
_group(COMMON, "cholesky linalg.cholesky_ex linalg.ldl_factor linalg.ldl_factor_ex",
       lambda t: A(t.spd(2, 4, 4)))
COMMON["symeig"] = lambda t: A(t.spd(4, 4), eigenvectors=True)
COMMON["eig"] = lambda t: A(t.sq(4, 4), eigenvectors=True)
COMMON["matrix_rank"] = lambda t: A(t.f(5, 3))
COMMON["cholesky_inverse"] = lambda t: A(_detach_leaf(t, torch.linalg.cholesky(t.spd(4, 4).float()).to(t.dt)))
COMMON["cholesky_solve"] = lambda t: A(t.f(2, 4, 2), _detach_leaf(
    t, torch.linalg.cholesky(t.spd(2, 4, 4).float()).to(t.dt)))
COMMON["solve"] = lambda t: A(t.f(4, 2), t.sq(4, 4))
_group(COMMON, "linalg.solve linalg.solve_ex", lambda t: A(t.sq(2, 4, 4), t.f(2, 4, 2)))
COMMON["triangular_solve"] = lambda t: A(t.f(2, 4, 2), _detach_leaf(t, t.sq(2, 4, 4).triu()))
COMMON["lu_solve"] = lambda t: (lambda b, lp: A(b, lp[0], lp[1]))(t.f(2, 4, 2), _lu(t))
COMMON["lu_unpack"] = lambda t: A(*_lu(t))
_group(COMMON, "lu linalg.lu linalg.lu_factor linalg.lu_factor_ex", lambda t: A(t.sq(2, 4, 4)))
COMMON["orgqr"] = COMMON["linalg.householder_product"] = lambda t: A(*_geqrf(t))
COMMON["ormqr"] = lambda t: (lambda a, tau: A(a, tau, t.f(5, 2)))(*_geqrf(t))
COMMON["lstsq"] = lambda t: A(t.f(5, 2), t.f(5, 3))
COMMON["linalg.lstsq"] = lambda t: A(t.f(2, 5, 3), t.f(2, 5, 2))
_group(COMMON, "linalg.norm linalg.vector_norm", lambda t: A(t.f(4, 8)))
COMMON["linalg.matrix_norm"] = lambda t: A(t.f(2, 4, 4))
COMMON["linalg.diagonal"] = lambda t: A(t.f(2, 4, 4))
COMMON["linalg.tensorsolve"] = lambda t: A(_detach_leaf(t, t.sq(6, 6).reshape(2, 3, 6)), t.f(2, 3))
COMMON["linalg.vander"] = lambda t: A(t.f(4))
COMMON["vander"] = lambda t: A(t.f(4), N=3)
# shapes, views, joins
COMMON["chunk"] = COMMON["unsafe_chunk"] = lambda t: A(t.f(4, 8), 2, dim=1)
COMMON["split"] = COMMON["unsafe_split"] = lambda t: A(t.f(4, 8), 4, dim=1)
COMMON["split_with_sizes"] = COMMON["unsafe_split_with_sizes"] = lambda t: A(t.f(4, 8), [3, 5], dim=1)
COMMON["tensor_split"] = lambda t: A(t.f(4, 8), 3, dim=1)
COMMON["hsplit"] = COMMON["vsplit"] = lambda t: A(t.f(4, 8), 2)
COMMON["dsplit"] = lambda t: A(t.f(2, 4, 6), 3)
COMMON["unbind"] = lambda t: A(t.f(4, 8), 1)
COMMON["narrow"] = COMMON["narrow_copy"] = lambda t: A(t.f(4, 8), 1, 2, 4)
COMMON["select"] = lambda t: A(t.f(4, 8), 1, 2)
COMMON["squeeze"] = lambda t: A(t.f(4, 1, 8), 1)
COMMON["unsqueeze"] = lambda t: A(t.f(4, 8), 1)
COMMON["permute"] = lambda t: A(t.f(2, 3, 4), (2, 0, 1))
_group(COMMON, "transpose swapaxes swapdims", lambda t: A(t.f(4, 8), 0, 1))
COMMON["moveaxis"] = COMMON["movedim"] = lambda t: A(t.f(2, 3, 4), 0, 2)
COMMON["reshape"] = lambda t: A(t.f(4, 8), (8, 4))
COMMON["unflatten"] = lambda t: A(t.f(4, 8), 1, (2, 4))
COMMON["flatten"] = lambda t: A(t.f(2, 3, 4), 1)
COMMON["tile"] = lambda t: A(t.f(4, 8), (2, 1))
TENSOR_R["repeat"] = lambda t: A(t.f(4, 8), 2, 1)
COMMON["repeat_interleave"] = lambda t: A(t.f(4, 8), 2, dim=0)
TENSOR_R["expand"] = lambda t: A(t.f(4, 1), 4, 8)
TENSOR_R["expand_as"] = lambda t: A(t.f(4, 1), t.c(4, 8))
COMMON["broadcast_to"] = lambda t: A(t.f(4, 1), (4, 8))
COMMON["broadcast_tensors"] = lambda t: A(t.f(4, 1), t.f(1, 8))
_group(COMMON, "atleast_1d atleast_2d atleast_3d", lambda t: A(t.f(8)))
_group(COMMON, "stack hstack vstack dstack column_stack row_stack",
       lambda t: A([t.f(4, 8), t.f(4, 8)]))
_group(COMMON, "cat concat concatenate", lambda t: A([t.f(4, 8), t.f(2, 8)], dim=0))
COMMON["flip"] = lambda t: A(t.f(4, 8), [0])
COMMON["fliplr"] = COMMON["flipud"] = lambda t: A(t.f(4, 8))
COMMON["roll"] = lambda t: A(t.f(4, 8), 2, 1)
COMMON["rot90"] = lambda t: A(t.f(4, 8), 1, [0, 1])
COMMON["diag"] = COMMON["diagflat"] = lambda t: A(t.f(6))
COMMON["diag_embed"] = lambda t: A(t.f(2, 4))
COMMON["diagonal"] = lambda t: A(t.f(4, 8), 0, 0, 1)
COMMON["diagonal_scatter"] = lambda t: A(t.f(4, 4), t.f(4), 0)
TENSOR_R["slice_scatter"] = lambda t: A(t.f(4, 8), t.f(2, 8), dim=0, start=0, end=2, step=1)
COMMON["tril"] = COMMON["triu"] = lambda t: A(t.f(4, 8), 0)
TENSOR_R["view_as"] = TENSOR_R["reshape_as"] = lambda t: A(t.f(4, 8), t.c(8, 4))
TENSOR_R["type_as"] = lambda t: A(t.f(4, 8), torch.zeros(1, dtype=torch.float64))
TENSOR_R["to"] = lambda t: A(t.f(4, 8), dtype=torch.float32)
TENSOR_R["unfold"] = lambda t: A(t.f(4, 8), 1, 4, 2)
TENSOR_R["sum_to_size"] = lambda t: A(t.f(4, 8), 1, 8)
TENSOR_R["stride"] = lambda t: A(t.c(4, 8))
TENSOR_R["align_to"] = lambda t: A(t.f(4, 8).refine_names("N", "C"), "C", "N")
TENSOR_R["align_as"] = lambda t: A(t.f(4, 8).refine_names("N", "C"),
                                   torch.zeros(8, 4, 2).refine_names("C", "N", "H"))
COMMON["align_tensors"] = lambda t: A(t.f(4, 8).refine_names("N", "C"),
                                      t.f(8).refine_names("C"))
TENSOR_R["q_zero_point"] = lambda t: A(torch.quantize_per_tensor(t.c(4, 8).float(), 0.1, 10,
                                                                 torch.quint8))
TENSOR_R["resize_"] = lambda t: A(t.f(4, 8), (2, 16))
COMMON["resize_as_"] = lambda t: A(t.f(4, 8), t.c(2, 16))
TENSOR_R["map_"] = lambda t: A(t.c(4, 8), t.c(4, 8), lambda a, b: a + 2 * b)
TENSOR_R["map2_"] = lambda t: A(t.c(4, 8), t.c(4, 8), t.c(4, 8), lambda a, b, c: a * b + c)
# indexing, scatter/gather
COMMON["gather"] = lambda t: A(t.f(4, 8), 1, t.i(4, 3, hi=8))
COMMON["scatter"] = lambda t: A(t.f(4, 8), 1, t.perm(4, 8, 3), t.f(4, 3))
COMMON["scatter_add"] = lambda t: A(t.f(4, 8), 1, t.i(4, 3, hi=8), t.f(4, 3))
_group(COMMON, "index_add index_copy", lambda t: A(t.f(4, 8), 0, torch.tensor([0, 2]), t.f(2, 8)))
COMMON["index_fill"] = lambda t: A(t.f(4, 8), 1, torch.tensor([0, 3]), -1.0)
COMMON["index_put"] = lambda t: A(t.f(4, 8), (torch.tensor([0, 2]),), t.f(2, 8))
COMMON["index_select"] = lambda t: A(t.f(4, 8), 0, torch.tensor([3, 0, 2]))
COMMON["masked_fill"] = lambda t: A(t.f(4, 8), t.b(4, 8), -1.0)
COMMON["masked_scatter"] = lambda t: A(t.f(4, 8), t.b(4, 8), t.f(4, 8))
COMMON["masked_select"] = lambda t: A(t.f(4, 8), t.b(4, 8))
COMMON["take"] = lambda t: A(t.f(4, 8), t.i(5, hi=32))
COMMON["take_along_dim"] = lambda t: A(t.f(4, 8), t.i(4, 3, hi=8), dim=1)
TENSOR_R["put_"] = lambda t: A(Inputs.nl(t.f(4, 8)), torch.randperm(32)[:5], t.f(5))
TENSOR_R["__setitem__"] = lambda t: A(Inputs.nl(t.f(4, 8)), slice(0, 2, None), t.f(2, 8))
COMMON["fill_"] = lambda t: A(Inputs.nl(t.f(4, 8)), 1.5)
TENSOR_R["fill_diagonal_"] = lambda t: A(Inputs.nl(t.f(4, 8)), 0.0)
COMMON["bucketize"] = lambda t: A(t.f(4, 8), torch.tensor([-1.0, -0.3, 0.0, 0.4, 1.2]).to(t.dt))
COMMON["searchsorted"] = lambda t: A(t.c(4, 5).sort(-1)[0], t.f(4, 3))
COMMON["isin"] = lambda t: A(t.i(4, 8, hi=6).to(t.dt), torch.tensor([1.0, 3.0]).to(t.dt))
COMMON["combinations"] = lambda t: A(t.f(4), r=2)
# random
COMMON["bernoulli"] = lambda t: A(t.cz(4, 8))
TENSOR_R["bernoulli_"] = lambda t: A(Inputs.nl(t.f(4, 8)), 0.3)
_group(TENSOR_R, "cauchy_ exponential_ log_normal_ normal_", lambda t: A(Inputs.nl(t.f(4, 8))))
TENSOR_R["geometric_"] = lambda t: A(Inputs.nl(t.f(4, 8)), 0.4)
COMMON["multinomial"] = lambda t: A(t.cp(4, 8), 3)
COMMON["normal"] = lambda t: A(t.f(4, 8), t.p(4, 8))
COMMON["poisson"] = lambda t: A(t.cp(4, 8) * 3)
COMMON["binomial"] = lambda t: A(torch.randint(1, 10, (4, 8)).to(t.dt), t.cz(4, 8))
_group(COMMON, "dropout alpha_dropout", lambda t: A(t.f(4, 8), 0.3, True))
_group(COMMON, "feature_dropout feature_alpha_dropout", lambda t: A(t.f(2, 4, 3, 3), 0.3, True))
_group(COMMON, "rrelu", lambda t: A(t.f(4, 8), 0.125, 1 / 3.0, True))
# factories
COMMON["arange"] = lambda t: A(0, 8, dtype=t.dt)
COMMON["range"] = lambda t: A(0, 7, dtype=t.dt)
COMMON["empty"] = lambda t: A(0, 8, dtype=t.dt)
COMMON["empty_like"] = lambda t: A(t.f(0, 8))
COMMON["eye"] = lambda t: A(4, dtype=t.dt)
COMMON["full"] = lambda t: A((4, 8), 1.5, dtype=t.dt)
COMMON["full_like"] = lambda t: A(t.f(4, 8), 1.5)
COMMON["ones_like"] = lambda t: A(t.f(4, 8))
COMMON["linspace"] = lambda t: A(-1.0, 1.0, 8, dtype=t.dt)
COMMON["logspace"] = lambda t: A(0.0, 2.0, 8, dtype=t.dt)
COMMON["scalar_tensor"] = lambda t: A(1.5, dtype=t.dt)
_group(COMMON, "bartlett_window blackman_window hamming_window hann_window kaiser_window",
       lambda t: A(8, dtype=t.dt))
COMMON["polar"] = lambda t: A(t.p(4, 8), t.f(4, 8))
# signal
COMMON["stft"] = lambda t: A(t.f(2, 64), 8, window=torch.hann_window(8).to(t.dt),
                             return_complex=True)
COMMON["istft"] = lambda t: (lambda s, w: A(s, 8, window=w))(*_stft_spec(t))
# neural-network functions of the torch namespace
COMMON["prelu"] = lambda t: A(t.f(2, 3, 4), t.f(3) * 0.25)
COMMON["threshold"] = lambda t: A(t.f(4, 8), 0.1, 0.0)
COMMON["channel_shuffle"] = lambda t: A(t.f(2, 4, 3, 3), 2)
COMMON["pixel_shuffle"] = lambda t: A(t.f(2, 8, 3, 3), 2)
COMMON["pixel_unshuffle"] = lambda t: A(t.f(2, 2, 4, 4), 2)
COMMON["constant_pad_nd"] = lambda t: A(t.f(4, 8), [1, 1, 2, 2], 0.0)
COMMON["_add_relu"] = lambda t: A(t.f(4, 8), t.f(4, 8))
COMMON["_softmax_backward_data"] = lambda t: A(
    t.f(4, 8), _detach_leaf(t, torch.softmax(t.c(4, 8).float(), -1).to(t.dt)), -1, t.dt)
COMMON["_foreach_norm"] = lambda t: A([t.f(4, 8), t.f(8)], 2)
COMMON["choose_qparams_optimized"] = lambda t: A(t.c(64), 64, 200, 0.16, 8)
COMMON["conv1d"] = lambda t: A(t.f(2, 3, 8), t.f(4, 3, 3), t.f(4), 1, 1)
COMMON["conv2d"] = lambda t: A(t.f(2, 3, 8, 8), t.f(4, 3, 3, 3), t.f(4), 1, 1)
COMMON["conv3d"] = lambda t: A(t.f(1, 2, 4, 4, 4), t.f(3, 2, 3, 3, 3), t.f(3), 1, 1)
COMMON["conv_transpose1d"] = lambda t: A(t.f(2, 4, 8), t.f(4, 3, 3), t.f(3), 2, 1)
COMMON["conv_transpose2d"] = lambda t: A(t.f(2, 4, 5, 5), t.f(4, 3, 3, 3), t.f(3), 2, 1)
COMMON["conv_transpose3d"] = lambda t: A(t.f(1, 2, 3, 3, 3), t.f(2, 3, 3, 3, 3), t.f(3), 2, 1)
COMMON["conv_tbc"] = lambda t: A(t.f(8, 2, 3), t.f(3, 3, 4), t.f(4), 1)
COMMON["convolution"] = lambda t: A(t.f(2, 3, 8, 8), t.f(4, 3, 3, 3), t.f(4), [1, 1], [1, 1],
                                    [1, 1], False, [0, 0], 1)
COMMON["_convolution"] = lambda t: A(t.f(2, 3, 8, 8), t.f(4, 3, 3, 3), t.f(4), [1, 1], [1, 1],
                                     [1, 1], False, [0, 0], 1, False, False, True, True)
COMMON["adaptive_avg_pool1d"] = COMMON["adaptive_max_pool1d"] = lambda t: A(t.f(2, 3, 8), 4)
COMMON["_adaptive_avg_pool2d"] = lambda t: A(t.f(2, 3, 8, 8), [4, 4])
_group(COMMON, "avg_pool1d max_pool1d max_pool1d_with_indices", lambda t: A(t.f(2, 3, 8), 2))
COMMON["max_pool2d"] = lambda t: A(t.f(2, 3, 8, 8), 2)
COMMON["max_pool3d"] = lambda t: A(t.f(1, 2, 4, 4, 4), 2)
COMMON["affine_grid_generator"] = lambda t: A(t.f(2, 2, 3) * 0.5, [2, 3, 4, 4], False)
COMMON["grid_sampler"] = COMMON["grid_sampler_2d"] = lambda t: A(
    t.f(2, 3, 4, 4), t.u(2, 4, 4, 2), 0, 0, False)
COMMON["grid_sampler_3d"] = lambda t: A(t.f(1, 2, 4, 4, 4), t.u(1, 3, 3, 3, 3), 0, 0, False)
_BN = lambda t: [t.f(2, 4, 3, 3), t.f(4), t.f(4), t.c(4) * 0.1, t.cp(4)]
COMMON["batch_norm"] = lambda t: A(*_BN(t), True, 0.1, 1e-5, False)
COMMON["native_batch_norm"] = lambda t: A(*_BN(t), True, 0.1, 1e-5)
COMMON["_batch_norm_impl_index"] = lambda t: A(*_BN(t), True, 0.1, 1e-5, False)
COMMON["instance_norm"] = lambda t: A(*_BN(t), True, 0.1, 1e-5, False)
COMMON["group_norm"] = lambda t: A(t.f(2, 4, 8), 2, t.f(4), t.f(4), 1e-5, False)
COMMON["native_group_norm"] = lambda t: A(t.f(2, 4, 8), t.f(4), t.f(4), 2, 4, 8, 2, 1e-5)
COMMON["layer_norm"] = lambda t: A(t.f(4, 8), [8], t.f(8), t.f(8), 1e-5, False)
COMMON["native_layer_norm"] = lambda t: A(t.f(4, 8), [8], t.f(8), t.f(8), 1e-5)
COMMON["batch_norm_stats"] = lambda t: A(t.f(2, 4, 3, 3), 1e-5)
COMMON["batch_norm_elemt"] = lambda t: A(t.f(2, 4, 3, 3), t.f(4), t.f(4), t.c(4), t.cp(4), 1e-5)
COMMON["batch_norm_gather_stats"] = lambda t: A(t.f(2, 4, 3, 3), t.c(1, 4), t.cp(1, 4), t.c(4),
                                                t.cp(4), 0.1, 1e-5, 18)
COMMON["batch_norm_gather_stats_with_counts"] = lambda t: A(
    t.f(2, 4, 3, 3), t.c(2, 4), t.cp(2, 4), t.c(4), t.cp(4), 0.1, 1e-5, torch.tensor([9.0, 9.0]).to(t.dt))
COMMON["batch_norm_update_stats"] = lambda t: A(t.f(2, 4, 3, 3), t.c(4), t.cp(4), 0.1)
COMMON["batch_norm_backward_reduce"] = lambda t: A(t.f(2, 4, 3, 3), t.f(2, 4, 3, 3), t.c(4), t.cp(4),
                                                   t.f(4), True, True, True)
COMMON["batch_norm_backward_elemt"] = lambda t: A(t.f(2, 4, 3, 3), t.f(2, 4, 3, 3), t.c(4), t.cp(4),
                                                  t.f(4), t.c(4), t.c(4), torch.tensor([18], dtype=torch.int32))
COMMON["bilinear"] = lambda t: A(t.f(4, 5), t.f(4, 6), t.f(3, 5, 6), t.f(3))
COMMON["embedding"] = lambda t: A(t.f(10, 8), t.i(4, 5, hi=10))
COMMON["embedding_bag"] = lambda t: A(t.f(10, 8), t.i(12, hi=10), torch.tensor([0, 4, 7]),
                                      False, 0, False, None, False)
COMMON["embedding_renorm_"] = lambda t: A(t.c(10, 8), t.i(6, hi=10), 1.0, 2.0)
COMMON["binary_cross_entropy_with_logits"] = lambda t: A(t.f(4, 8), t.cz(4, 8), None, None, 1)
COMMON["cosine_embedding_loss"] = lambda t: A(t.f(4, 8), t.f(4, 8),
                                              torch.tensor([1.0, -1.0, 1.0, -1.0]).to(t.dt), 0.0, 1)
COMMON["hinge_embedding_loss"] = lambda t: A(t.f(4, 8), (t.b(4, 8).to(t.dt) * 2 - 1), 1.0, 1)
COMMON["kl_div"] = lambda t: A(t.f(4, 8), t.cz(4, 8), 1, log_target=False)
COMMON["margin_ranking_loss"] = lambda t: A(t.f(8), t.f(8), (t.b(8).to(t.dt) * 2 - 1), 0.0, 1)
COMMON["poisson_nll_loss"] = lambda t: A(t.f(4, 8), t.cp(4, 8), True, False, 1e-8, 1)
COMMON["triplet_margin_loss"] = lambda t: A(t.f(4, 8), t.f(4, 8), t.f(4, 8), 1.0, 2.0, 1e-6,
                                            False, 1)
COMMON["ctc_loss"] = lambda t: A(_detach_leaf(t, torch.log_softmax(torch.randn(8, 2, 5), -1).to(t.dt)),
                                 torch.randint(1, 5, (2, 3)), [8, 8], [3, 3], 0, 1, False)
COMMON["cosine_similarity"] = lambda t: A(t.f(4, 8), t.f(4, 8), 1, 1e-8)
COMMON["pairwise_distance"] = lambda t: A(t.f(4, 8), t.f(4, 8))
COMMON["pdist"] = lambda t: A(t.f(4, 8))
COMMON["lstm"] = lambda t: A(t.f(5, 2, 4), [t.f(1, 2, 6), t.f(1, 2, 6)], _lstm_params(t, 4, 6, 4),
                             True, 1, 0.0, True, False, False)
COMMON["gru"] = lambda t: A(t.f(5, 2, 4), t.f(1, 2, 6), _lstm_params(t, 4, 6, 3),
                            True, 1, 0.0, True, False, False)
COMMON["lstm_cell"] = lambda t: A(t.f(2, 4), [t.f(2, 6), t.f(2, 6)], *_lstm_params(t, 4, 6, 4))
COMMON["gru_cell"] = lambda t: A(t.f(2, 4), t.f(2, 6), *_lstm_params(t, 4, 6, 3))
COMMON["rsub"] = lambda t: A(t.f(4, 8), t.f(4, 8))


def _functional_recipes():
    """RECIPES of scripts/every_api_fn_*.py, merged (a name in two is an
    error), and the union of their optional NATURAL sets."""
    sys.path.insert(0, HERE)
    table, natural = {}, set()
    for path in sorted(glob.glob(os.path.join(HERE, "every_api_fn_*.py"))):
        mod = importlib.import_module(os.path.basename(path)[:-3])
        for name, fn in mod.RECIPES.items():
            if name in table:
                raise SystemExit("%s: Functional.%s has a recipe in two modules" % (path, name))
            table[name] = fn
        natural |= set(getattr(mod, "NATURAL", ()))
    return table, natural


FUNC_R, FUNC_NATURAL = _functional_recipes()


def recipe_for(kind, name):
    """(recipe, in_place) for a Tensor/Torch/Functional name, or (None, False)."""
    if kind == "Functional":
        return FUNC_R.get(name), name.endswith("_")
    own = TENSOR_R if kind == "Tensor" else TORCH_R
    if name in own:
        return own[name], False
    if name in COMMON:
        return COMMON[name], False
    if name.endswith("_") and not name.endswith("__"):
        base = name[:-1]
        r, _ = recipe_for(kind, base)
        if r is not None:
            return r, True
    return None, False


def is_natural(kind, name):
    if kind == "Functional":
        return name in FUNC_NATURAL
    n = name[:-1] if name.endswith("_") and not name.endswith("__") else name
    return name in NATURAL or n in NATURAL


def resolve(kind, dotted):
    """The (patched) callable at call time."""
    if kind == "Tensor":
        return getattr(torch.Tensor, dotted)
    if kind == "Functional":
        return getattr(F, dotted)
    owner = torch
    for p in dotted.split("."):
        owner = getattr(owner, p)
    return owner


def exists(kind, dotted):
    try:
        obj = resolve(kind, dotted)
    except AttributeError:
        return False
    return callable(obj) and not isinstance(obj, type)


def _flat_tensors(x):
    if isinstance(x, torch.Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for y in x:
            yield from _flat_tensors(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _flat_tensors(y)


def call_once(rec, kind, name, dtype, grad, seed, record):
    """Builds the arguments, calls the API (recorded when record) and runs the
    backward of sum(out_i * R_i).  Returns whether a backward ran."""
    recipe, in_place = recipe_for(kind, name)
    in_place = in_place or name.startswith("__i")  # __iadd__, __imul__, ...
    torch.manual_seed(seed)
    args, kwargs = recipe(Inputs(dtype, grad))
    if in_place and args:
        args[0] = Inputs.nl(args[0])
    fn = resolve(kind, name)
    rec.on = record
    try:
        out = fn(*args, **kwargs)
    finally:
        rec.on = False
    diff = [o for o in _flat_tensors(out)
            if (o.is_floating_point() or o.is_complex()) and o.grad_fn is not None and not o.is_sparse]
    if not diff:
        return False
    loss = None
    for o in diff:
        v = torch.view_as_real(o) if o.is_complex() else o
        r = torch.randn(v.shape).to(v.dtype)
        term = (v * r).sum()
        loss = term if loss is None else loss + term.to(loss.dtype)
    loss.backward()
    return True


def run_api(rec, kind, name, label, dtype, left_out, stats):
    seed = zlib.crc32(("%s.%s.%s" % (kind, name, label)).encode())
    mode, errors = None, []
    for grad in (True, False):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                backward = call_once(rec, kind, name, dtype, grad, seed, record=False)
        except Exception as e:  # noqa: BLE001 - any failure leaves the API out
            errors.append("%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:200]
                                      if str(e).strip() else ""))
            continue
        if grad and not backward:
            mode = False  # no gradient flows: call it with inputs that need none
        else:
            mode = grad
        break
    if mode is None:
        left_out.append((kind, name, label, errors[-1]))  # the call without grad
        return
    snap = rec.snapshot()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            backward = call_once(rec, kind, name, dtype, mode, seed, record=True)
    except Exception as e:  # noqa: BLE001
        rec.rollback(snap)
        left_out.append((kind, name, label, "recorder: %s: %s" % (type(e).__name__, str(e)[:200])))
        return
    stats["called"].add((kind, name))
    stats["calls"] += 1
    stats["backward"] += backward
    if errors:
        stats["forward_only"].append((kind, name, label, errors[0]))


LISTS = (("Functional", md.FUNCTIONAL), ("Tensor", md.TENSOR), ("Torch", md.TORCH))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default %(default)s)")
    ap.add_argument("--dtypes", default="float32,bfloat16",
                    help="comma-separated float dtypes (default %(default)s)")
    ap.add_argument("--only", default="",
                    help="comma-separated names: Tensor.add, Torch.linalg.qr, Functional.gelu, or a bare name for every list")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (default 1: the same bytes on every machine)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    dtypes = [(d, getattr(torch, d)) for d in a.dtypes.split(",") if d]
    only = set(x for x in a.only.split(",") if x)

    todo, missing, no_recipe = [], [], []
    for kind, names in LISTS:
        for name in names:
            if only and name not in only and "%s.%s" % (kind, name) not in only:
                continue
            if not exists(kind, name):
                missing.append((kind, name))
            elif recipe_for(kind, name)[0] is None:
                no_recipe.append((kind, name))
            else:
                todo.append((kind, name))

    start = time.time()
    rec = TensorRecorder()
    rec.install()
    left_out = []
    stats = {"called": set(), "calls": 0, "backward": 0, "forward_only": []}
    try:
        for kind, name in todo:
            runs = [("natural", torch.float32)] if is_natural(kind, name) else dtypes
            for label, dt in runs:
                run_api(rec, kind, name, label, dt, left_out, stats)
    finally:
        rec.uninstall()
    t_calls = time.time() - start
    tdir = rec.write_tensor_dump(a.out)
    elapsed = time.time() - start

    for kind, names in LISTS:
        sel = [n for n in names if not only or n in only or "%s.%s" % (kind, n) in only]
        called = sum(1 for n in sel if (kind, n) in stats["called"])
        print("%s list: %d names, %d called at least once" % (kind, len(sel), called))
    print("calls recorded: %d (%d with a backward); %d tensors saved" % (
        stats["calls"], stats["backward"], len(rec.saved)))
    for kind, name in missing:
        print("missing in torch %s: %s.%s" % (torch.__version__, kind, name))
    for kind, name in no_recipe:
        print("no recipe: %s.%s" % (kind, name))
    for kind, name, label, err in stats["forward_only"]:
        print("forward only (%s): %s.%s: %s" % (label, kind, name, err))
    for kind, name, label, err in left_out:
        print("left out (%s): %s.%s: %s" % (label, kind, name, err))
    never = sorted(set((k, n) for k, n in todo) - stats["called"])
    print("names never called: %d%s" % (len(never), (": " + " ".join("%s.%s" % x for x in never))
                                          if never else ""))
    print("wrote %s (%d entries) and %s; calls %.1fs, total %.1fs" % (
        os.path.join(a.out, "dump.json"), len(rec.data), tdir, t_calls, elapsed))


if __name__ == "__main__":
    main()
