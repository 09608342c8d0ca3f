#!/usr/bin/python3
"""Writes realistic statistics-mode msprobe dumps (level L1) from real PyTorch.

A recorder wraps the PyTorch APIs msprobe's PrecisionDebugger hooks
(support_wrap_ops.yaml: torch.nn.functional.*, torch.Tensor methods and
operators, torch.* functions; pytorch-precheck appendix A) the way msprobe
does -- by replacing the attributes of torch.nn.functional, torch.Tensor and
torch (torch.linalg) -- and records one real training step: the forward, the
backward and the optimizer step.  Entries, descriptors and statistics follow
msprobe's L1 statistics dump (pytorch-precheck section 2, and the real dump in
shared/fixtures/msprobe-cpu-convnet):

  * "<Functional|Tensor|Torch>.<name>.<n>.forward": input_args, input_kwargs,
    is_recompute (false), output -- inputs described before the call (so an
    in-place op shows its input as it was), outputs after it;
  * only the outermost hooked call is recorded (F.layer_norm's inner
    torch.layer_norm is not), and only outermost calls advance the
    per-"<Type>.<name>" counter, as msprobe's HOOKModule.inner_stop_hook does;
  * "<...>.backward": {"input": grads w.r.t. the node's outputs, "output":
    grads w.r.t. the node's inputs} from a hook on the autograd node of the
    first output tensor (output[0], recursively) -- what msprobe's
    nn.Module non-full backward hook records (Functional.linear's backward
    output is [bias, input, weight^T] grads: AddmmBackward0's inputs);
    dropout-family calls with p == 0 get no backward hook;
  * statistics as msprobe's get_stat_info computes them: bool -> any/all,
    0-d -> the value four times, ints and float64 cast to float32 first,
    fp16/bf16/fp32 reduced in their own dtype.

Run with Debian's PyTorch 1.13 (not the python3 on PATH):
    /usr/bin/python3 bench/make_dumps.py gpt --dtype fp32 --out bench/dumps/gpt-fp32
    /usr/bin/python3 bench/make_dumps.py gpt --dtype bf16 --out bench/dumps/gpt-bf16
    /usr/bin/python3 bench/make_dumps.py resnet50 --batch 32 --out bench/dumps/resnet50-b32

Each writes OUT/dump.json and OUT/floor.json (FLOPs of the matmul/conv APIs
and bytes of every dumped tensor, for bench/run's roofline floor).
"""
import argparse
import json
import math
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

# --- msprobe's support_wrap_ops.yaml (pytorch-precheck appendix A.1-A.3) ---
FUNCTIONAL = """
conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d conv_tbc avg_pool1d
avg_pool2d avg_pool3d fractional_max_pool2d_with_indices fractional_max_pool2d
fractional_max_pool3d_with_indices fractional_max_pool3d max_pool1d_with_indices max_pool1d
max_pool2d_with_indices max_pool2d max_pool3d_with_indices max_pool3d max_unpool1d max_unpool2d
max_unpool3d lp_pool2d lp_pool1d adaptive_max_pool1d_with_indices adaptive_max_pool1d
adaptive_max_pool2d_with_indices adaptive_max_pool2d adaptive_max_pool3d_with_indices
adaptive_max_pool3d adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d dropout
alpha_dropout dropout2d dropout3d feature_alpha_dropout threshold threshold_ relu relu_ glu hardtanh
hardtanh_ relu6 elu elu_ selu selu_ celu celu_ leaky_relu leaky_relu_ prelu rrelu rrelu_ logsigmoid
gelu hardshrink tanhshrink softsign softplus softmin softmax gumbel_softmax log_softmax softshrink
tanh sigmoid hardsigmoid linear bilinear silu hardswish embedding embedding_bag batch_norm
instance_norm layer_norm group_norm local_response_norm ctc_loss nll_loss poisson_nll_loss
gaussian_nll_loss kl_div cross_entropy binary_cross_entropy binary_cross_entropy_with_logits
smooth_l1_loss l1_loss mse_loss margin_ranking_loss hinge_embedding_loss multilabel_margin_loss
soft_margin_loss multilabel_soft_margin_loss cosine_embedding_loss multi_margin_loss pixel_shuffle
pixel_unshuffle channel_shuffle upsample interpolate upsample_nearest upsample_bilinear grid_sample
affine_grid pad pairwise_distance pdist cosine_similarity one_hot triplet_margin_loss
triplet_margin_with_distance_loss normalize unfold fold multi_head_attention_forward
scaled_dot_product_attention lp_pool3d dropout1d mish huber_loss
""".split()

TENSOR = """
__add__ __and__ __bool__ __div__ __eq__ __floordiv__ __ge__ __gt__ __iadd__ __iand__ __idiv__
__ifloordiv__ __ilshift__ __imod__ __imul__ __ior__ __ipow__ __irshift__ __isub__ __ixor__ __le__
__lshift__ __lt__ __matmul__ __mod__ __mul__ __ne__ __nonzero__ __or__ __pow__ __radd__ __rdiv__
__rmod__ __rmul__ __ror__ __rpow__ __rshift__ __rsub__ __rxor__ __setitem__ __sub__ __truediv__
__xor__ abs abs_ absolute absolute_ acos acos_ acosh acosh_ add add_ addbmm addbmm_ addcdiv addcdiv_
addcmul addcmul_ addmm addmm_ addmv addmv_ addr addr_ adjoint align_as align_to all allclose amax
amin aminmax angle any arccos arccos_ arccosh arccosh_ arcsin arcsin_ arcsinh arcsinh_ arctan
arctan2 arctan2_ arctan_ arctanh arctanh_ argmax argmin argsort argwhere asin asin_ asinh asinh_
atan atan2 atan2_ atan_ atanh atanh_ baddbmm baddbmm_ bernoulli bernoulli_ bfloat16 bincount
bitwise_and bitwise_and_ bitwise_left_shift bitwise_left_shift_ bitwise_not bitwise_not_ bitwise_or
bitwise_or_ bitwise_right_shift bitwise_right_shift_ bitwise_xor bitwise_xor_ bmm bool broadcast_to
byte cauchy_ ceil ceil_ cfloat char cholesky cholesky_inverse cholesky_solve chunk clamp clamp_
clamp_max clamp_max_ clamp_min clamp_min_ clip clip_ conj_physical copysign copysign_ corrcoef cos
cos_ cosh cosh_ count_nonzero cov cummax cummin cumprod cumprod_ cumsum cumsum_ deg2rad deg2rad_ det
diag diag_embed diagflat diagonal diagonal_scatter diff digamma digamma_ dist div div_ divide
divide_ dot double dsplit eig eq eq_ equal erf erf_ erfc erfc_ erfinv erfinv_ exp exp2 exp2_ exp_
expand expand_as expm1 expm1_ exponential_ fill_ fill_diagonal_ fix fix_ flatten flip fliplr flipud
float float_power float_power_ floor floor_ floor_divide floor_divide_ fmax fmin fmod fmod_ frac
frac_ frexp gather gcd gcd_ ge ge_ geometric_ geqrf ger greater greater_ greater_equal
greater_equal_ gt gt_ half hardshrink heaviside heaviside_ histc histogram hsplit hypot hypot_ i0
i0_ igamma igamma_ igammac igammac_ index_add index_add_ index_copy index_copy_ index_fill
index_fill_ index_put index_put_ index_select inner int inverse isclose isfinite isinf isnan
isneginf isposinf isreal kron kthvalue lcm lcm_ ldexp ldexp_ le le_ lerp lerp_ less less_ less_equal
less_equal_ lgamma lgamma_ log log10 log10_ log1p log1p_ log2 log2_ log_ log_normal_ log_softmax
logaddexp logaddexp2 logcumsumexp logdet logical_and logical_and_ logical_not logical_not_
logical_or logical_or_ logical_xor logical_xor_ logit logit_ logsumexp long lstsq lt lt_ lu lu_solve
map2_ map_ masked_fill masked_fill_ masked_scatter masked_scatter_ masked_select matmul matrix_exp
matrix_power max maximum mean median min minimum mm mode moveaxis movedim msort mul mul_ multinomial
multiply multiply_ mv mvlgamma mvlgamma_ nan_to_num nan_to_num_ nanmean nanmedian nanquantile nansum
narrow narrow_copy ne ne_ neg neg_ negative negative_ nextafter nextafter_ nonzero norm normal_
not_equal not_equal_ numpy orgqr ormqr outer permute pinverse polygamma polygamma_ pow pow_ prelu
prod put_ q_zero_point qr quantile rad2deg rad2deg_ ravel reciprocal reciprocal_ relu relu_
remainder remainder_ renorm renorm_ repeat repeat_interleave reshape reshape_as resize_ resize_as_
resolve_neg roll rot90 round round_ rsqrt rsqrt_ scatter scatter_ scatter_add scatter_add_ select
sgn sgn_ short sigmoid sigmoid_ sign sign_ signbit sin sin_ sinc sinc_ sinh sinh_ slice_scatter
slogdet smm softmax solve sort split split_with_sizes sqrt sqrt_ square square_ squeeze squeeze_
sspaddmm std stft stride sub sub_ subtract sum sum_to_size svd swapaxes swapdims swapdims_ symeig t
t_ take take_along_dim tan tan_ tanh tanh_ tensor_split tile to topk transpose transpose_
triangular_solve tril tril_ triu triu_ true_divide true_divide_ trunc trunc_ type_as unbind
unflatten unfold unique unique_consecutive unsafe_chunk unsafe_split unsafe_split_with_sizes
unsqueeze unsqueeze_ var vdot view_as vsplit where xlogy xlogy_
""".split()

TORCH = """
linalg.norm linalg.vector_norm linalg.matrix_norm linalg.diagonal linalg.det linalg.slogdet
linalg.cond linalg.matrix_rank linalg.qr linalg.lu linalg.lu_factor linalg.svd linalg.svdvals
linalg.solve linalg.lstsq linalg.inv linalg.pinv linalg.matrix_exp linalg.matrix_power linalg.cross
linalg.matmul linalg.vecdot linalg.multi_dot linalg.householder_product linalg.tensorsolve
linalg.vander linalg.cholesky_ex linalg.inv_ex linalg.solve_ex linalg.lu_factor_ex linalg.ldl_factor
linalg.ldl_factor_ex _adaptive_avg_pool2d _add_relu _add_relu_ _aminmax _batch_norm_impl_index
_convolution _foreach_norm _fused_adamw_ _softmax_backward_data abs abs_ absolute acos acos_ acosh
acosh_ adaptive_avg_pool1d adaptive_max_pool1d add addbmm addcdiv addcmul addmm addmv addmv_ addr
affine_grid_generator align_tensors all alpha_dropout alpha_dropout_ amax amin aminmax angle any
arange arccos arccos_ arccosh arccosh_ arcsin arcsin_ arcsinh arcsinh_ arctan arctan2 arctan_
arctanh arctanh_ argmax argmin argsort argwhere asin asin_ asinh asinh_ atan atan2 atan_ atanh
atanh_ atleast_1d atleast_2d atleast_3d avg_pool1d baddbmm bartlett_window batch_norm_backward_elemt
batch_norm_backward_reduce batch_norm_elemt batch_norm_gather_stats
batch_norm_gather_stats_with_counts batch_norm_stats batch_norm_update_stats bernoulli bilinear
binary_cross_entropy_with_logits bincount binomial bitwise_and bitwise_not bitwise_or bitwise_xor
blackman_window block_diag bmm broadcast_tensors broadcast_to bucketize cartesian_prod cat cdist
ceil ceil_ celu celu_ chain_matmul channel_shuffle cholesky cholesky_inverse cholesky_solve
choose_qparams_optimized chunk clamp clamp_ clamp_max clamp_max_ clamp_min clamp_min_ clip clip_
clone column_stack combinations concat concatenate constant_pad_nd conv1d conv2d conv3d conv_tbc
conv_transpose1d conv_transpose2d conv_transpose3d convolution copysign cos cos_ cosh cosh_
cosine_embedding_loss cosine_similarity count_nonzero cov cross ctc_loss cummax cummin cumprod
cumsum cumulative_trapezoid deg2rad deg2rad_ det diag diag_embed diagflat diagonal diagonal_scatter
diff digamma dist div divide dot dropout dropout_ dsmm dsplit dstack eig einsum embedding
embedding_bag embedding_renorm_ empty empty_like eq equal erf erf_ erfc erfc_ erfinv exp exp2 exp2_
exp_ expm1 expm1_ eye feature_alpha_dropout feature_alpha_dropout_ feature_dropout feature_dropout_
fill_ fix fix_ flatten flip fliplr flipud float_power floor floor_ floor_divide fmax fmin fmod frac
frac_ frexp frobenius_norm full full_like gather gcd gcd_ ge geqrf ger greater greater_equal
grid_sampler grid_sampler_2d grid_sampler_3d group_norm gru gru_cell gt hamming_window hann_window
hardshrink heaviside hinge_embedding_loss histc histogram histogramdd hsmm hsplit hspmm hstack hypot
i0 i0_ igamma igammac index_add index_copy index_fill index_put index_put_ index_select inner
instance_norm inverse isclose isfinite isin isinf isnan isneginf isposinf istft kaiser_window kl_div
kron kthvalue layer_norm lcm lcm_ ldexp ldexp_ le lerp less less_equal lgamma linspace log log10
log10_ log1p log1p_ log2 log2_ log_ log_softmax logaddexp logaddexp2 logcumsumexp logdet logical_and
logical_not logical_or logical_xor logit logit_ logspace logsumexp lstm lstm_cell lstsq lt lu_solve
lu_unpack margin_ranking_loss masked_fill masked_scatter masked_select matmul matrix_exp
matrix_power matrix_rank max max_pool1d max_pool1d_with_indices max_pool2d max_pool3d maximum mean
median min minimum mm mode moveaxis movedim msort mul multinomial multiply mv mvlgamma nan_to_num
nan_to_num_ nanmean nanmedian nanquantile nansum narrow narrow_copy native_batch_norm
native_group_norm native_layer_norm native_norm ne neg neg_ negative negative_ nextafter nonzero
norm norm_except_dim normal not_equal nuclear_norm ones_like outer pairwise_distance pdist permute
pinverse pixel_shuffle pixel_unshuffle poisson poisson_nll_loss polar polygamma pow prelu prod qr
quantile rad2deg rad2deg_ range ravel real reciprocal reciprocal_ relu relu_ remainder renorm
repeat_interleave reshape resize_as_ resolve_neg roll rot90 round round_ row_stack rrelu rrelu_
rsqrt rsqrt_ rsub saddmm scalar_tensor scatter scatter_add searchsorted select selu selu_ sgn
sigmoid sigmoid_ sign signbit sin sin_ sinc sinc_ sinh sinh_ slogdet smm softmax solve sort
sparse_coo_tensor split split_with_sizes spmm sqrt sqrt_ square square_ squeeze sspaddmm stack std
std_mean stft sub subtract sum svd swapaxes swapdims symeig t take take_along_dim tan tan_ tanh
tanh_ tensor_split tensordot threshold threshold_ tile topk transpose trapz triangular_solve tril
tril_indices triplet_margin_loss triu triu_indices true_divide trunc trunc_ unbind unflatten
unique_consecutive unsafe_chunk unsafe_split unsafe_split_with_sizes unsqueeze vander var var_mean
vdot vsplit vstack where xlogy xlogy_
""".split()

# Unpatched reductions for the statistics (msprobe uses the same class).
_VF = torch._C._VariableFunctionsClass

DROPOUTS = {"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
            "feature_alpha_dropout", "alpha_dropout_", "feature_alpha_dropout_",
            "feature_dropout", "feature_dropout_", "dropout_"}

ITEMSIZE = {"torch.float64": 8, "torch.float32": 4, "torch.float16": 2, "torch.bfloat16": 2,
            "torch.int64": 8, "torch.int32": 4, "torch.int16": 2, "torch.int8": 1,
            "torch.uint8": 1, "torch.bool": 1, "torch.complex64": 8, "torch.complex128": 16}


def tensor_desc(t):
    """msprobe's statistics descriptor of one tensor (get_stat_info, low precision)."""
    d = t.detach()
    mx = mn = mean = norm = None
    if d.is_meta or d.numel() == 0:
        pass
    elif d.dtype == torch.bool:
        mx, mn = _VF.any(d).item(), _VF.all(d).item()
    elif d.dim() == 0:
        mx = mn = mean = norm = d.item()
    elif d.is_complex():
        a = _VF.abs(d)
        mx, mn, mean = _VF.max(a).item(), _VF.min(a).item(), _VF.mean(a).item()
    else:
        if not d.is_floating_point() or d.dtype == torch.float64:
            d = d.float()
        mx, mn = _VF.max(d).item(), _VF.min(d).item()
        mean, norm = _VF.mean(d).item(), _VF.norm(d).item()
    return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape),
            "Max": mx, "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": t.requires_grad}


def describe(x, key=None, path=(), on_tensor=None):
    """msprobe's descriptor of one argument or output (pytorch-precheck 2.6).

    path is the index path of x (list indices, dict keys) and on_tensor, when
    given, is called as on_tensor(tensor, descriptor, path) for every tensor
    (a tensor-mode recorder saves it there and adds data_name)."""
    if x is None:
        return None
    if isinstance(x, torch.Tensor):
        d = tensor_desc(x)
        if on_tensor is not None:
            on_tensor(x, d, path)
        return d
    if isinstance(x, (bool, int, float, str)):
        return {"type": type(x).__name__, "value": x}
    if isinstance(x, torch.Size):
        return {"type": "torch.Size", "value": list(x)}
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # namedtuple
        return {f: describe(getattr(x, f), None, path + (f,), on_tensor) for f in x._fields}
    if isinstance(x, (list, tuple)):
        return [describe(y, None, path + (i,), on_tensor) for i, y in enumerate(x)]
    if isinstance(x, dict):
        return {str(k): describe(v, k, path + (k,), on_tensor) for k, v in x.items()}
    if isinstance(x, slice):
        return {"type": "slice", "value": [x.start, x.stop, x.step]}
    if x is Ellipsis:
        return {"type": "ellipsis", "value": "..."}
    if isinstance(x, torch.memory_format):
        return {"type": "torch.memory_format", "format": str(x).split(".")[-1]}
    if isinstance(x, torch.dtype) and key == "dtype":
        return {"type": "torch.dtype", "value": str(x)}
    if isinstance(x, torch.device) and key == "device":
        return {"type": "torch.device", "value": str(x)}
    return {}  # msprobe's quirk: any other object (a positional dtype too)


def _rg(x):
    return isinstance(x, torch.Tensor) and x.requires_grad


def _prod(xs):
    p = 1
    for v in xs:
        p *= v
    return p


def call_flops(name, args, kwargs, out):
    """(forward FLOPs, extra FLOPs per backward) of the matmul/conv APIs."""
    def arg(i, k):
        if len(args) > i:
            return args[i]
        return kwargs.get(k)
    if name == "linear":
        x, w = arg(0, "input"), arg(1, "weight")
        f = 2 * _prod(x.shape[:-1]) * w.shape[0] * w.shape[1]
        return f, f * (_rg(x) + _rg(w))
    if name in ("matmul", "__matmul__", "mm", "bmm"):
        a, b = arg(0, "input"), arg(1, "other" if name == "matmul" else "mat2")
        if a is None or b is None:
            return 0, 0
        sa, sb = list(a.shape), list(b.shape)
        if len(sa) == 1:
            sa = [1] + sa
        if len(sb) == 1:
            sb = sb + [1]
        batch = _prod(torch.broadcast_shapes(torch.Size(sa[:-2]), torch.Size(sb[:-2])))
        f = 2 * batch * sa[-2] * sa[-1] * sb[-1]
        return f, f * (_rg(a) + _rg(b))
    if name in ("conv1d", "conv2d", "conv3d"):
        x, w = arg(0, "input"), arg(1, "weight")
        o = out if isinstance(out, torch.Tensor) else None
        if o is None:
            return 0, 0
        # out [N, Cout, *spatial], weight [Cout, Cin/groups, *kernel]
        f = 2 * _prod(o.shape) * _prod(w.shape[1:])
        return f, f * (_rg(x) + _rg(w))
    return 0, 0


class Recorder:
    """msprobe's L1 API hooks, reduced to what a statistics dump needs."""

    def __init__(self, low_precision_fallback=None):
        self.data = {}
        self.count = {}
        self.busy = 0          # > 0 inside a recorded call or the recorder itself
        self.on = False
        self.patches = []
        self.fallback = low_precision_fallback   # dtype to compute in when a kernel is missing
        self.fallbacks = set()
        self.flops_fwd = 0
        self.flops_bwd = 0
        self.n_fwd = self.n_bwd = 0

    # -- installation ------------------------------------------------------
    def install(self):
        for name in FUNCTIONAL:
            self._patch(F, name, "Functional", name)
        for name in TENSOR:
            self._patch(torch.Tensor, name, "Tensor", name)
        for dotted in TORCH:
            owner, parts = torch, dotted.split(".")
            for p in parts[:-1]:
                owner = getattr(owner, p, None)
            if owner is not None:
                self._patch(owner, parts[-1], "Torch", parts[-1])

    def uninstall(self):
        for owner, attr, had, static in reversed(self.patches):
            if had:
                setattr(owner, attr, static)
            else:
                delattr(owner, attr)
        self.patches = []

    def _patch(self, owner, attr, prefix, name):
        if not hasattr(owner, attr):
            return  # not in this torch version: msprobe skips it too
        orig = getattr(owner, attr)
        if not callable(orig) or isinstance(orig, type):
            return
        had = attr in owner.__dict__
        self.patches.append((owner, attr, had, owner.__dict__.get(attr)))
        setattr(owner, attr, self._wrap(orig, prefix, name))

    def _wrap(self, orig, prefix, name):
        rec = self

        def wrapper(*args, **kwargs):
            if not rec.on or rec.busy:
                return orig(*args, **kwargs)
            rec.busy += 1
            try:
                key = prefix + "." + name
                n = rec.count.get(key, 0)
                rec.count[key] = n + 1
                api = "%s.%d" % (key, n)
                entry = {"input_args": rec.describe_args(api + ".forward", args),
                         "input_kwargs": rec.describe_kwargs(api + ".forward", kwargs),
                         "is_recompute": False}
                out = rec._call(orig, key, args, kwargs)
                outs = out if isinstance(out, tuple) else (out,)
                entry["output"] = rec.describe_outputs(api + ".forward", outs)
                rec.data[api + ".forward"] = entry
                rec.n_fwd += 1
                fwd, bwd = call_flops(name, args, kwargs, out)
                rec.flops_fwd += fwd
                rec._hook_backward(api, name, args, kwargs, out, bwd)
            finally:
                rec.busy -= 1
            return out

        wrapper.__name__ = getattr(orig, "__name__", name)
        wrapper.__doc__ = getattr(orig, "__doc__", None)
        return wrapper

    # -- descriptors (a tensor-mode recorder overrides these) --------------
    def describe_args(self, entry, args):
        return [describe(a) for a in args]

    def describe_kwargs(self, entry, kwargs):
        return {k: describe(v, k) for k, v in kwargs.items()}

    def describe_outputs(self, entry, outs):
        return [describe(o) for o in outs]

    def describe_backward(self, entry, grad_outputs, grad_inputs):
        return {"input": [describe(g) for g in grad_outputs],
                "output": [describe(g) for g in grad_inputs]}

    def _call(self, orig, key, args, kwargs):
        try:
            return orig(*args, **kwargs)
        except RuntimeError as e:
            if self.fallback is None or "BFloat16" not in str(e) and "Half" not in str(e):
                raise
        # The kernel is missing at this dtype on the CPU: compute in float32
        # and cast back, as examples/fp16/make_dump.py does.
        low = self.fallback
        up = lambda x: x.float() if isinstance(x, torch.Tensor) and x.dtype == low else x
        a = [up(x) for x in args]
        k = {n: up(v) for n, v in kwargs.items()}
        out = orig(*a, **k)
        self.fallbacks.add(key)
        down = lambda x: x.to(low) if isinstance(x, torch.Tensor) and x.dtype == torch.float32 else x
        return tuple(down(o) for o in out) if isinstance(out, tuple) else down(out)

    def _hook_backward(self, api, name, args, kwargs, out, bwd_flops):
        if not torch.is_grad_enabled():
            return
        if name in DROPOUTS:
            p = args[1] if len(args) > 1 else kwargs.get("p", 0.5)
            if p == 0:
                return
        var = out
        while not isinstance(var, torch.Tensor):  # torch.nn.Module._call_impl's search
            if isinstance(var, dict):
                var = next((v for v in var.values() if isinstance(v, torch.Tensor)), None)
            elif isinstance(var, (list, tuple)) and len(var) > 0:
                var = var[0]
            else:
                return
            if var is None:
                return
        node = var.grad_fn
        if node is None:
            return
        rec = self

        def hook(grad_inputs, grad_outputs):
            rec.busy += 1
            try:
                rec.data[api + ".backward"] = rec.describe_backward(
                    api + ".backward", grad_outputs, grad_inputs)
                rec.n_bwd += 1
                rec.flops_bwd += bwd_flops
            finally:
                rec.busy -= 1
        node.register_hook(hook)

    def start(self):
        self.on = True

    def stop(self):
        self.on = False

    # -- output --------------------------------------------------------------
    def tensor_bytes(self):
        total, elems, count = 0, 0, 0

        def walk(x):
            nonlocal total, elems, count
            if isinstance(x, dict):
                if x.get("type") == "torch.Tensor":
                    n = _prod(x["shape"])
                    total += n * ITEMSIZE.get(x["dtype"], 4)
                    elems += n
                    count += 1
                    return
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(self.data)
        return total, elems, count

    def write(self, out_dir, meta):
        os.makedirs(out_dir, exist_ok=True)
        dump = {"task": "statistics", "level": "L1", "framework": "pytorch",
                "dump_data_dir": None, "data": self.data}
        with open(os.path.join(out_dir, "dump.json"), "w") as f:
            json.dump(dump, f, indent=1)
        nbytes, elems, count = self.tensor_bytes()
        floor = {
            "apis_forward": self.n_fwd,
            "apis_backward": self.n_bwd,
            "flops_forward": self.flops_fwd,
            "flops_backward": self.flops_bwd,
            "flops": self.flops_fwd + self.flops_bwd,
            "tensor_descriptors": count,
            "tensor_elements": elems,
            "tensor_bytes": nbytes,
            "notes": ("flops: 2*M*N*K per linear/matmul/__matmul__/mm/bmm call and "
                      "2*N*Cout*Hout*Wout*Cin/groups*kh*kw per conv call, forward; a call "
                      "whose backward ran adds the forward figure once per gradient it "
                      "computes (input and/or weight: about 3x forward when both). "
                      "tensor_bytes: every tensor descriptor of the dump (forward inputs, "
                      "outputs, backward grads) at its dumped dtype."),
        }
        floor.update(meta)
        with open(os.path.join(out_dir, "floor.json"), "w") as f:
            json.dump(floor, f, indent=1)
            f.write("\n")
        return floor


# --- models -------------------------------------------------------------------

class CausalSelfAttention(nn.Module):
    """nanoGPT's attention as written for torch < 2.0 (no flash kernel)."""

    def __init__(self, d, heads, seq, dropout):
        super().__init__()
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.attn_dropout = nn.Dropout(dropout)
        self.resid_dropout = nn.Dropout(dropout)
        self.n_head, self.n_embd = heads, d
        self.register_buffer("bias", torch.tril(torch.ones(seq, seq)).view(1, 1, seq, seq))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        att = self.attn_dropout(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, d, dropout):
        super().__init__()
        self.c_fc = nn.Linear(d, 4 * d)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * d, d)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, d, heads, seq, dropout):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads, seq, dropout)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = MLP(d, dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    """A GPT-2-style decoder (nanoGPT's model.py, torch < 2.0 path)."""

    def __init__(self, layers, d, heads, seq, vocab, dropout):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(seq, d)
        self.drop = nn.Dropout(dropout)
        self.h = nn.ModuleList([Block(d, heads, seq, dropout) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.wte.weight = self.lm_head.weight  # weight tying
        for name, p in self.named_parameters():
            if p.dim() >= 2:
                std = 0.02 / math.sqrt(2 * layers) if name.endswith("c_proj.weight") else 0.02
                nn.init.normal_(p, mean=0.0, std=std)
            elif name.endswith("bias"):
                nn.init.zeros_(p)

    def forward(self, idx, targets):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.h:
            x = block(x)
        x = self.ln_f(x)
        logits = self.lm_head(x)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)


class Bottleneck(nn.Module):
    """torchvision 0.14's ResNet Bottleneck (v1.5: stride on the 3x3)."""
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * 4)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet50(nn.Module):
    """torchvision 0.14's resnet50(), written out (torchvision is not installed)."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.inplanes = 64
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(64, 3)
        self.layer2 = self._make_layer(128, 4, stride=2)
        self.layer3 = self._make_layer(256, 6, stride=2)
        self.layer4 = self._make_layer(512, 3, stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * 4, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)

    def _make_layer(self, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes * 4:
            downsample = nn.Sequential(
                nn.Conv2d(self.inplanes, planes * 4, 1, stride=stride, bias=False),
                nn.BatchNorm2d(planes * 4))
        layers = [Bottleneck(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * 4
        layers += [Bottleneck(self.inplanes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


# --- one training step, recorded ----------------------------------------------

def gpt_step(a, rec):
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[a.dtype]
    model = GPT(a.layers, a.d_model, a.heads, a.seq, a.vocab, a.dropout).to(dtype)
    model.train()
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=6e-4, betas=(0.9, 0.95), foreach=False)
    idx = torch.randint(0, a.vocab, (a.batch, a.seq))
    targets = torch.randint(0, a.vocab, (a.batch, a.seq))
    nparams = sum(p.numel() for p in model.parameters())
    print("gpt: %d parameters (%d tensors), %s" % (nparams, len(decay) + len(no_decay), dtype),
          file=sys.stderr)
    rec.start()
    t = time.time()
    loss = model(idx, targets)
    print("  forward %.1fs, loss %.4f" % (time.time() - t, loss.item()), file=sys.stderr)
    t = time.time()
    loss.backward()
    print("  backward %.1fs" % (time.time() - t), file=sys.stderr)
    t = time.time()
    opt.step()
    opt.zero_grad(set_to_none=True)
    print("  optimizer %.1fs" % (time.time() - t), file=sys.stderr)
    rec.stop()
    return {"model": "gpt", "layers": a.layers, "d_model": a.d_model, "heads": a.heads,
            "seq": a.seq, "vocab": a.vocab, "batch": a.batch, "dtype": a.dtype,
            "dropout": a.dropout, "parameters": nparams,
            "optimizer": "AdamW(lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1 on matrices, foreach=False)"}


def resnet_step(a, rec):
    model = ResNet50()
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4, foreach=False)
    criterion = nn.CrossEntropyLoss()
    x = torch.randn(a.batch, 3, a.image, a.image)
    y = torch.randint(0, 1000, (a.batch,))
    nparams = sum(p.numel() for p in model.parameters())
    print("resnet50: %d parameters, batch %d, %dx%d" % (nparams, a.batch, a.image, a.image),
          file=sys.stderr)
    rec.start()
    t = time.time()
    loss = criterion(model(x), y)
    print("  forward %.1fs, loss %.4f" % (time.time() - t, loss.item()), file=sys.stderr)
    t = time.time()
    loss.backward()
    print("  backward %.1fs" % (time.time() - t), file=sys.stderr)
    t = time.time()
    opt.step()
    opt.zero_grad(set_to_none=True)
    print("  optimizer %.1fs" % (time.time() - t), file=sys.stderr)
    rec.stop()
    return {"model": "resnet50", "batch": a.batch, "image": a.image, "dtype": "fp32",
            "parameters": nparams,
            "optimizer": "SGD(lr=0.1, momentum=0.9, weight_decay=1e-4, foreach=False)"}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", choices=["gpt", "resnet50"])
    ap.add_argument("--out", help="output directory (default bench/dumps/<model>-<dtype|b<batch>>)")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=1024)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--vocab", type=int, default=50257)
    ap.add_argument("--batch", type=int, default=None, help="default 1 (gpt), 32 (resnet50)")
    ap.add_argument("--dtype", choices=["fp32", "bf16"], default="fp32", help="gpt only")
    ap.add_argument("--dropout", type=float, default=0.1, help="gpt only")
    ap.add_argument("--image", type=int, default=224, help="resnet50 only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    a = ap.parse_args()
    if a.batch is None:
        a.batch = 1 if a.model == "gpt" else 32
    if a.out is None:
        name = "gpt-" + a.dtype if a.model == "gpt" else "resnet50-b%d" % a.batch
        a.out = os.path.join(here, "dumps", name)
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    start = time.time()
    rec = Recorder(low_precision_fallback=torch.bfloat16 if a.dtype == "bf16" else None)
    rec.install()
    try:
        meta = gpt_step(a, rec) if a.model == "gpt" else resnet_step(a, rec)
    finally:
        rec.uninstall()
    meta.update({"torch": torch.__version__, "seed": a.seed,
                 "fallback_float32_apis": sorted(rec.fallbacks)})
    floor = rec.write(a.out, meta)
    print("wrote %s: %d forward, %d backward entries, %.3g GFLOP, %.1f MB of tensors; "
          "%d bytes of JSON; %.1fs" % (
              os.path.join(a.out, "dump.json"), floor["apis_forward"], floor["apis_backward"],
              floor["flops"] / 1e9, floor["tensor_bytes"] / 1e6,
              os.path.getsize(os.path.join(a.out, "dump.json")), time.time() - start))
    if rec.fallbacks:
        print("computed in float32 and cast back (no %s kernel on the CPU): %s" % (
            a.dtype, ", ".join(sorted(rec.fallbacks))))


if __name__ == "__main__":
    main()
