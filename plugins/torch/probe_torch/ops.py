"""The canonical ops (sdk/ops/schema.go), each run with the real torch.

OPS maps an op name to a function f(call) -> output tensor or list of
output tensors (runner.Call: call.inputs, call.attrs, call.device,
call.generator). Inputs arrive on the device, at the dtypes the request
gave; an op computes at the dtype PyTorch would, with torch.ops.aten where
the op is an ATen op, and honours call.attrs["inplace"] by calling the
in-place variant on input 0. Backward is autograd's (runner.run): an op
must only build its outputs from its inputs with differentiable torch
calls.

SAMPLES maps an op name to s(dtype) -> (inputs, attrs) or None: a small
call of the op whose call dtype is dtype (inputs as CPU tensors,
wire.Scalar or None), None where the op is not meaningful at that dtype.
The plugin runs every sample on the configured device to learn which
op x dtype pairs the installed torch runs there (Describe).

BACKWARD is the set of ops with a backward.

Python numbers (wire.Scalar) go to torch as Python numbers, so that torch
treats them as wrapped numbers for type promotion and reads them at the
kernel's compute type, as it does for the dumped call: torch.add, sub,
mul and div take a number in either position (PyTorch's argument parser
wraps it), torch.pow(number, tensor) is ATen's pow.Scalar, torch.rsub
computes number - alpha * tensor.
"""

import torch
import torch.nn.functional as F

from .wire import BY_NAME, ArgumentError, Scalar, Unsupported

aten = torch.ops.aten

FLOATS = (torch.float64, torch.float32, torch.float16, torch.bfloat16)


# ---------------------------------------------------------------- helpers

def _num(v):
    """A Python number for a wire.Scalar, the value itself otherwise."""
    return v.value if isinstance(v, Scalar) else v


def _is_t(v):
    return isinstance(v, torch.Tensor)


def _dtype(name):
    """The torch dtype of a dtype attribute (None stays None)."""
    if name is None:
        return None
    dt = BY_NAME.get(name)
    if dt is None:
        raise ArgumentError("unknown dtype %r (want one of %s)" % (name, ", ".join(sorted(BY_NAME))))
    return dt


def _ints(v):
    """An int-list attribute; a single int (a compatible kind) as a list."""
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [int(x) for x in v]
    return [int(v)]


def _int_if_integral(v):
    """An attribute that came as a float: an int when it is integral, as
    the Python call most likely had it (torch refuses a float alpha for
    integer tensors)."""
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _self_tensor(c, what="self"):
    x = c.inputs[0]
    if not _is_t(x):
        raise ArgumentError("%s: in-place %s needs a tensor %s, got the number %r" % (c.op, c.op, what, _num(x)))
    return x


def _inplace_result(x, result):
    """The in-place rule for an op that torch has no in-place variant of:
    the result must have input 0's shape and cast to its dtype (c10's
    canCast); the output is the result at input 0's dtype (not written
    into input 0, whose value autograd may still need)."""
    if not torch.can_cast(result.dtype, x.dtype):
        raise ArgumentError("result type %s can't be cast to the desired output type %s"
                            % (_tname(result.dtype), _tname(x.dtype)))
    if tuple(result.shape) != tuple(x.shape):
        raise ArgumentError("output with shape %s doesn't match the broadcast shape %s"
                            % (list(x.shape), list(result.shape)))
    return result.to(x.dtype)


def _tname(dt):
    return {torch.float64: "Double", torch.float32: "Float", torch.float16: "Half", torch.bfloat16: "BFloat16",
            torch.int8: "Char", torch.int16: "Short", torch.int32: "Int", torch.int64: "Long",
            torch.uint8: "Byte", torch.bool: "Bool"}.get(dt, str(dt))


# ---------------------------------------------------------------- elementwise binary

def _add_like(sub):
    def f(c):
        a, b = c.inputs
        alpha = _int_if_integral(c.attrs["alpha"])
        kw = {} if alpha == 1 else {"alpha": alpha}
        if c.attrs["inplace"]:
            x = _self_tensor(c)
            return x.sub_(_num(b), **kw) if sub else x.add_(_num(b), **kw)
        if _is_t(a):
            return torch.sub(a, _num(b), **kw) if sub else torch.add(a, _num(b), **kw)
        if not _is_t(b):
            raise ArgumentError("%s: at least one of self and other must be a tensor" % c.op)
        # number OP alpha*tensor: rsub is number - alpha*tensor; add takes
        # the number first (PyTorch wraps it).
        return torch.rsub(b, _num(a), **kw) if sub else torch.add(_num(a), b, **kw)
    return f


def _mul(c):
    a, b = c.inputs
    if c.attrs["inplace"]:
        return _self_tensor(c).mul_(_num(b))
    if not _is_t(a) and not _is_t(b):
        raise ArgumentError("mul: at least one of self and other must be a tensor")
    return torch.mul(_num(a), _num(b))


def _div(c):
    a, b = c.inputs
    rm = c.attrs["rounding_mode"]
    if rm is not None and rm not in ("trunc", "floor"):
        raise ArgumentError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'" % rm)
    if c.attrs["inplace"]:
        return _self_tensor(c).div_(_num(b), rounding_mode=rm)
    if not _is_t(a) and not _is_t(b):
        raise ArgumentError("div: at least one of self and other must be a tensor")
    return torch.div(_num(a), _num(b), rounding_mode=rm)


def _pow(c):
    a, b = c.inputs
    if c.attrs["inplace"]:
        return _self_tensor(c).pow_(_num(b))
    if not _is_t(a) and not _is_t(b):
        raise ArgumentError("pow: at least one of self and exponent must be a tensor")
    return torch.pow(_num(a), _num(b))


def _maxmin(fn):
    def f(c):
        a, b = c.inputs
        out = fn(_num(a), _num(b))
        if c.attrs["inplace"]:
            # torch has no maximum_/minimum_: the in-place rule by hand.
            return _inplace_result(_self_tensor(c), out)
        return out
    return f


# ---------------------------------------------------------------- elementwise unary

def _unary(name, method=None):
    fn = getattr(aten, name)
    method = method or name + "_"

    def f(c):
        x = c.inputs[0]
        if c.attrs["inplace"]:
            return getattr(x, method)()
        return fn(x)
    return f


def _silu(c):
    return F.silu(c.inputs[0], inplace=bool(c.attrs["inplace"]))


def _gelu(c):
    x = c.inputs[0]
    approx = c.attrs["approximate"]
    if c.attrs["inplace"]:
        return aten.gelu_(x, approximate=approx)
    return aten.gelu(x, approximate=approx)


def _clamp(c):
    x, lo, hi = c.inputs
    lo, hi = _num(lo), _num(hi)
    if c.attrs["inplace"]:
        return x.clamp_(lo, hi)
    return torch.clamp(x, lo, hi)


def _where(c):
    cond, a, b = c.inputs
    return torch.where(cond, _num(a), _num(b))


def _masked_fill(c):
    x, mask, v = c.inputs
    if c.attrs["inplace"]:
        return x.masked_fill_(mask, _num(v))
    return x.masked_fill(mask, _num(v))


# ---------------------------------------------------------------- nn

def _softmax(fn):
    def f(c):
        return fn(c.inputs[0], c.attrs["dim"], dtype=_dtype(c.attrs["dtype"]))
    return f


def _addmm(c):
    s, a, b = c.inputs
    beta, alpha = _int_if_integral(c.attrs["beta"]), _int_if_integral(c.attrs["alpha"])
    if c.attrs["inplace"]:
        return s.addmm_(a, b, beta=beta, alpha=alpha)
    return aten.addmm(s, a, b, beta=beta, alpha=alpha)


def _layer_norm(c):
    x, w, b = c.inputs
    return aten.layer_norm(x, _ints(c.attrs["normalized_shape"]), w, b, c.attrs["eps"])


def _embedding(c):
    w, idx = c.inputs
    pi = c.attrs["padding_idx"]
    if pi is None:
        pi = -1
    return aten.embedding(w, idx, pi, bool(c.attrs["scale_grad_by_freq"]), False)


def _convolution(c):
    x, w, b = c.inputs
    stride, padding, dilation = _ints(c.attrs["stride"]), _ints(c.attrs["padding"]), _ints(c.attrs["dilation"])
    groups = c.attrs["groups"]
    # An unbatched input (conv1d/2d/3d take one): batched as at::conv2d does.
    unbatched = w.dim() >= 3 and x.dim() == w.dim() - 1
    if unbatched:
        x = x.unsqueeze(0)
    out = aten.convolution(x, w, b, stride, padding, dilation, False, [0] * len(stride), groups)
    return out.squeeze(0) if unbatched else out


def _max_pool2d(c):
    x = c.inputs[0]
    a = c.attrs
    args = (x, _ints(a["kernel_size"]), _ints(a["stride"]), _ints(a["padding"]), _ints(a["dilation"]), bool(a["ceil_mode"]))
    if a["return_indices"]:
        out, idx = aten.max_pool2d_with_indices(*args)
        return [out, idx]
    return aten.max_pool2d(*args)


def _adaptive_avg_pool2d(c):
    return aten.adaptive_avg_pool2d(c.inputs[0], _ints(c.attrs["output_size"]))


def _cross_entropy(c):
    x, t, w = c.inputs
    a = c.attrs
    return F.cross_entropy(x, t, w, ignore_index=a["ignore_index"], reduction=a["reduction"],
                           label_smoothing=a["label_smoothing"])


def _nll_loss(c):
    x, t, w = c.inputs
    a = c.attrs
    return F.nll_loss(x, t, w, ignore_index=a["ignore_index"], reduction=a["reduction"])


def _batch_norm(c):
    x, rm, rv, w, b = c.inputs
    a = c.attrs
    return F.batch_norm(x, rm, rv, w, b, bool(a["training"]), a["momentum"], a["eps"])


def _dropout(c):
    x = c.inputs[0]
    seed = c.seed & 0x7FFFFFFFFFFFFFFF
    torch.manual_seed(seed)
    if c.device.type == "npu":
        torch.npu.manual_seed(seed)
    return F.dropout(x, c.attrs["p"], bool(c.attrs["train"]), bool(c.attrs["inplace"]))


# ---------------------------------------------------------------- reductions

def _reduce(fn):
    def f(c):
        x = c.inputs[0]
        dim, keepdim, dt = _ints(c.attrs["dim"]), bool(c.attrs["keepdim"]), _dtype(c.attrs["dtype"])
        if dim is None:
            if not keepdim:
                return fn(x, dtype=dt)
            dim = list(range(x.dim()))
        return fn(x, dim, keepdim=keepdim, dtype=dt)
    return f


def _full(fn):
    def f(c):
        return fn(c.inputs[0])
    return f


def _dim_reduce(fn):
    def f(c):
        v, i = fn(c.inputs[0], c.attrs["dim"], bool(c.attrs["keepdim"]))
        return [v, i]
    return f


def _cumsum(c):
    x = c.inputs[0]
    dt = _dtype(c.attrs["dtype"])
    if c.attrs["inplace"]:
        return x.cumsum_(c.attrs["dim"], dtype=dt)
    return torch.cumsum(x, c.attrs["dim"], dtype=dt)


# ---------------------------------------------------------------- shape

def _tensors(c):
    for i, v in enumerate(c.inputs):
        if not _is_t(v):
            raise ArgumentError("%s: input %d must be a tensor" % (c.op, i))
    return list(c.inputs)


def _cat(c):
    return torch.cat(_tensors(c), c.attrs["dim"])


def _stack(c):
    return torch.stack(_tensors(c), c.attrs["dim"])


def _split_with_sizes(c):
    return list(torch.split_with_sizes(c.inputs[0], _ints(c.attrs["split_sizes"]), c.attrs["dim"]))


def _transpose(c):
    x = c.inputs[0]
    if c.attrs["inplace"]:
        return x.transpose_(c.attrs["dim0"], c.attrs["dim1"])
    return torch.transpose(x, c.attrs["dim0"], c.attrs["dim1"])


def _permute(c):
    return torch.permute(c.inputs[0], _ints(c.attrs["dims"]))


def _reshape(c):
    return torch.reshape(c.inputs[0], _ints(c.attrs["shape"]))


def _clone(c):
    return torch.clone(c.inputs[0])


def _ones_like(c):
    return torch.ones_like(c.inputs[0], dtype=_dtype(c.attrs["dtype"]))


def _echo(c):
    return c.inputs[0]


# ---------------------------------------------------------------- torch_npu

NPU_ONLY = 'needs torch_npu on an Ascend NPU (device = "npu")'


def _torch_npu(c):
    if c.device.type != "npu":
        raise Unsupported(c.op, NPU_ONLY)
    try:
        import torch_npu
    except ImportError as e:
        raise Unsupported(c.op, "cannot import torch_npu: %s" % e)
    return torch_npu


def _npu_rms_norm(c):
    torch_npu = _torch_npu(c)
    x, gamma = c.inputs
    y, rstd = torch_npu.npu_rms_norm(x, gamma, epsilon=c.attrs["epsilon"])[:2]
    return [y, rstd]


# torch_npu's sparse_mode 2, 3 and 4 read the fixed compressed mask
# triu(ones(2048, 2048), 1) (documented as required for them); a call
# without a mask gets it, as the canonical op builds these modes' masks.
_COMPRESSED_MASK_MODES = (2, 3, 4, 7, 8)


def _npu_fusion_attention(c):
    torch_npu = _torch_npu(c)
    q, k, v, pse, mask = c.inputs
    a, mask, lists = _npu_fusion_attention_args(c, q, mask)
    if a["keep_prob"] < 1:
        # The dropout mask comes from torch_npu's generator: seeded from
        # the request, as dropout's.
        seed = c.seed & 0x7FFFFFFFFFFFFFFF
        torch.manual_seed(seed)
        torch.npu.manual_seed(seed)
    outs = torch_npu.npu_fusion_attention(
        q, k, v, a["head_num"], a["input_layout"],
        pse=pse, padding_mask=None, atten_mask=mask,
        scale=a["scale"], keep_prob=a["keep_prob"],
        pre_tockens=a["pre_tockens"], next_tockens=a["next_tockens"],
        inner_precise=a["inner_precise"], sparse_mode=a["sparse_mode"], prefix=lists["prefix"],
        actual_seq_qlen=lists["actual_seq_qlen"], actual_seq_kvlen=lists["actual_seq_kvlen"])
    # (attention_out, softmax_max, softmax_sum, softmax_out, seed, offset,
    # numels): the op's outputs are the first three. semantics,
    # band_anchor and zero_masked_rows describe the float64 reference; the
    # device does what it does.
    return [outs[0], outs[1], outs[2]]


def _npu_fusion_attention_args(c, q, mask):
    """The attributes of npu.fusion_attention(_grad), the mask torch_npu
    reads (the compressed forms of sparse_mode 2-4, 6-8 when none is
    given) and the int lists (prefix, actual_seq_qlen/kvlen)."""
    a = c.attrs
    layout = a["input_layout"]
    if layout not in ("BSH", "SBH", "BSND", "BNSD", "TND"):
        raise ArgumentError("npu.fusion_attention: input_layout %r is not supported (BSH, SBH, BSND, BNSD or TND)" % layout)
    mode = a["sparse_mode"]
    if mask is None and mode in _COMPRESSED_MASK_MODES:
        mask = torch.triu(torch.ones((2048, 2048), dtype=torch.bool, device=q.device), diagonal=1)
    if mode == 6 and mask is None:
        # the compressed prefix mask: causal 2048x2048 over a 1024x2048
        # block whose left half is 0 and right half 1
        tail = torch.zeros((1024, 2048), dtype=torch.bool, device=q.device)
        tail[:, 1024:] = True
        mask = torch.cat([torch.triu(torch.ones((2048, 2048), dtype=torch.bool, device=q.device), diagonal=1), tail])
    lists = {n: a.get(n) for n in ("prefix", "actual_seq_qlen", "actual_seq_kvlen")}
    return a, mask, lists


# ---------------------------------------------------------------- the table

OPS = {
    "add": _add_like(False),
    "sub": _add_like(True),
    "mul": _mul,
    "div": _div,
    "pow": _pow,
    "maximum": _maxmin(torch.maximum),
    "minimum": _maxmin(torch.minimum),
    "neg": _unary("neg"),
    "abs": _unary("abs"),
    "exp": _unary("exp"),
    "log": _unary("log"),
    "sqrt": _unary("sqrt"),
    "rsqrt": _unary("rsqrt"),
    "reciprocal": _unary("reciprocal"),
    "tanh": _unary("tanh"),
    "sigmoid": _unary("sigmoid"),
    "relu": _unary("relu"),
    "silu": _silu,
    "sin": _unary("sin"),
    "cos": _unary("cos"),
    "gelu": _gelu,
    "clamp": _clamp,
    "softmax": _softmax(torch.softmax),
    "log_softmax": _softmax(torch.log_softmax),
    "matmul": lambda c: torch.matmul(c.inputs[0], c.inputs[1]),
    "mm": lambda c: aten.mm(c.inputs[0], c.inputs[1]),
    "bmm": lambda c: aten.bmm(c.inputs[0], c.inputs[1]),
    "linear": lambda c: aten.linear(c.inputs[0], c.inputs[1], c.inputs[2]),
    "addmm": _addmm,
    "layer_norm": _layer_norm,
    "embedding": _embedding,
    "convolution": _convolution,
    "max_pool2d": _max_pool2d,
    "adaptive_avg_pool2d": _adaptive_avg_pool2d,
    "sum": _reduce(torch.sum),
    "mean": _reduce(torch.mean),
    "max": _full(torch.max),
    "min": _full(torch.min),
    "max_dim": _dim_reduce(torch.max),
    "min_dim": _dim_reduce(torch.min),
    "cumsum": _cumsum,
    "cat": _cat,
    "stack": _stack,
    "split_with_sizes": _split_with_sizes,
    "transpose": _transpose,
    "permute": _permute,
    "reshape": _reshape,
    "masked_fill": _masked_fill,
    "where": _where,
    "dropout": _dropout,
    "cross_entropy": _cross_entropy,
    "nll_loss": _nll_loss,
    "batch_norm": _batch_norm,
    "clone": _clone,
    "ones_like": _ones_like,
    "npu.rms_norm": _npu_rms_norm,
    "npu.fusion_attention": _npu_fusion_attention,
    "echo": _echo,
}

BACKWARD = set(OPS) - {"ones_like", "echo"}


# ---------------------------------------------------------------- samples
#
# Each sample is a tiny call whose call dtype (the promoted dtype of its
# tensor inputs, Python numbers left out) is the dtype asked for; torch,
# run on the configured device at start-up, decides which pairs exist.

def _t(values, dt):
    return torch.tensor(values, dtype=torch.float64).to(dt)


def _x(dt):
    """A 2x2 tensor of positive values (log, sqrt and pow take them)."""
    return _t([[0.5, 1.25], [2.0, 3.0]], dt) if dt.is_floating_point else _t([[1, 2], [3, 1]], dt)


def _row(dt):
    return _t([1.5, 0.75], dt) if dt.is_floating_point else _t([2, 1], dt)


def _s_unary(dt):
    return [_x(dt)], {}


def _s_binary(dt):
    return [_x(dt), _row(dt)], {}




def _s_float_only(make):
    def s(dt):
        return make(dt) if dt in FLOATS else None
    return s


def _s_clamp(dt):
    if dt == torch.bool:
        return [_x(dt), Scalar(False), Scalar(True)], {}
    if dt.is_floating_point:
        return [_x(dt), Scalar(0.75), Scalar(2.5)], {}
    return [_x(dt), Scalar(1), Scalar(2)], {}


def _mask():
    return torch.tensor([[True, False], [False, True]])


def _s_where(dt):
    return [_mask(), _x(dt), _row(dt)], {}


def _s_masked_fill(dt):
    v = Scalar(True) if dt == torch.bool else Scalar(1)
    return [_x(dt), _mask(), v], {}


def _s_softmax(dt):
    return [_x(dt)], {"dim": 1}


def _s_mm(dt):
    return [_x(dt), _x(dt)], {}


def _s_bmm(dt):
    return [_x(dt).unsqueeze(0), _x(dt).unsqueeze(0)], {}


def _s_linear(dt):
    return [_x(dt), _x(dt), _row(dt)], {}


def _s_addmm(dt):
    return [_row(dt), _x(dt), _x(dt)], {}


def _s_layer_norm(dt):
    return [_x(dt), _row(dt), _row(dt)], {"normalized_shape": [2]}


def _s_embedding(dt):
    # The indices take part in the call dtype: int64 indices with a float
    # weight, indices of the weight's own dtype for int32/int64 weights.
    if dt.is_floating_point:
        return [_x(dt), torch.tensor([1, 0, 1])], {}
    if dt in (torch.int32, torch.int64):
        return [_x(dt), torch.tensor([1, 0, 1], dtype=dt)], {}
    return None  # indices are int32/int64: no such call dtype


def _s_convolution(dt):
    x = _t([[[[0.5, 1.0, 1.5], [2.0, 0.25, 0.75], [1.0, 1.25, 0.5]]]], dt)
    w = _t([[[[1.0, 0.5], [0.25, 1.5]]]], dt)
    return [x, w, _t([0.5], dt)], {"stride": [1, 1], "padding": [0, 0], "dilation": [1, 1], "groups": 1}


def _s_max_pool2d(dt):
    x = _t([[[[0.5, 1.0, 1.5, 0.0], [2.0, 0.25, 0.75, 3.0], [1.0, 1.25, 0.5, 2.5], [0.0, 0.5, 2.0, 1.0]]]], dt)
    return [x], {"kernel_size": [2, 2], "stride": [2, 2], "return_indices": True}


def _s_adaptive(dt):
    x = _t([[[[0.5, 1.0, 1.5, 0.0], [2.0, 0.25, 0.75, 3.0], [1.0, 1.25, 0.5, 2.5], [0.0, 0.5, 2.0, 1.0]]]], dt)
    return [x], {"output_size": [2, 2]}


def _s_sum(dt):
    return [_x(dt)], {"dim": [1]}


def _s_mean(dt):
    # mean of an integer or bool tensor needs a float dtype.
    if dt.is_floating_point:
        return [_x(dt)], {"dim": [1]}
    return [_x(dt)], {"dim": [1], "dtype": "float32"}


def _s_dim(dt):
    return [_x(dt)], {"dim": 1}


def _s_cumsum(dt):
    return [_x(dt)], {"dim": 1}


def _s_cat(dt):
    return [_x(dt), _x(dt)], {"dim": 0}


def _s_split(dt):
    return [_x(dt)], {"split_sizes": [1, 1], "dim": 1}


def _s_transpose(dt):
    return [_x(dt)], {"dim0": 0, "dim1": 1}


def _s_permute(dt):
    return [_x(dt)], {"dims": [1, 0]}


def _s_reshape(dt):
    return [_x(dt)], {"shape": [-1]}


def _s_dropout(dt):
    if dt.is_floating_point:
        return [_x(dt)], {"p": 0.5, "train": True}
    # integer tensors: dropout is the identity in eval mode only.
    return [_x(dt)], {"p": 0.5, "train": False}


def _s_loss(dt):
    if not dt.is_floating_point:
        return None
    return [_x(dt), torch.tensor([1, 0]), None], {}


def _s_batch_norm(dt):
    x = _t([[0.5, 1.0], [2.0, 0.25], [1.5, 0.75]], dt)
    return [x, None, None, _row(dt), _row(dt)], {"training": True}


def _s_rms_norm(dt):
    if not dt.is_floating_point:
        return None
    x = _t([[0.5, 1.0, 1.5, 2.0, 0.25, 0.75, 1.25, 1.75]] * 2, dt)
    return [x, _t([1.0] * 8, dt)], {}


def _s_fusion_attention(dt):
    if not dt.is_floating_point:
        return None
    # BSH, B = 1, S = 4, two heads of D = 16.
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.rand((1, 4, 32), generator=g, dtype=torch.float64).to(dt) for _ in range(3))
    return [q, k, v, None, None], {"head_num": 2, "input_layout": "BSH", "scale": 0.25}


SAMPLES = {
    "add": _s_binary,
    "sub": _s_binary,
    "mul": _s_binary,
    "div": _s_binary,
    "pow": _s_binary,
    "maximum": _s_binary,
    "minimum": _s_binary,
    "neg": _s_unary,
    "abs": _s_unary,
    "exp": _s_unary,
    "log": _s_unary,
    "sqrt": _s_unary,
    "rsqrt": _s_unary,
    "reciprocal": _s_unary,
    "tanh": _s_unary,
    "sigmoid": _s_unary,
    "relu": _s_unary,
    "silu": _s_unary,
    "sin": _s_unary,
    "cos": _s_unary,
    "gelu": _s_unary,
    "clamp": _s_clamp,
    "softmax": _s_float_only(_s_softmax),
    "log_softmax": _s_float_only(_s_softmax),
    "matmul": _s_mm,
    "mm": _s_mm,
    "bmm": _s_bmm,
    "linear": _s_linear,
    "addmm": _s_addmm,
    "layer_norm": _s_layer_norm,
    "embedding": _s_embedding,
    "convolution": _s_convolution,
    "max_pool2d": _s_max_pool2d,
    "adaptive_avg_pool2d": _s_adaptive,
    "sum": _s_sum,
    "mean": _s_mean,
    "max": _s_unary,
    "min": _s_unary,
    "max_dim": _s_dim,
    "min_dim": _s_dim,
    "cumsum": _s_cumsum,
    "cat": _s_cat,
    "stack": _s_cat,
    "split_with_sizes": _s_split,
    "transpose": _s_transpose,
    "permute": _s_permute,
    "reshape": _s_reshape,
    "masked_fill": _s_masked_fill,
    "where": _s_where,
    "dropout": _s_dropout,
    "cross_entropy": _s_loss,
    "nll_loss": _s_loss,
    "batch_norm": _s_batch_norm,
    "clone": _s_unary,
    "ones_like": _s_unary,
    "npu.rms_norm": _s_rms_norm,
    "npu.fusion_attention": _s_fusion_attention,
    "echo": _s_unary,
}


# ---------------------------------------------------------------- families in other modules

def _load_families():
    """Each probe_torch/ops_<family>.py defines OPS, SAMPLES and BACKWARD for
    a family of ops, with the helpers of this module; they join the tables
    here, in module-name order. An op defined twice is an error."""
    import importlib
    import pkgutil
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    for m in sorted(pkgutil.iter_modules([here]), key=lambda m: m.name):
        if not m.name.startswith("ops_"):
            continue
        mod = importlib.import_module("." + m.name, __package__)
        for name in mod.OPS:
            if name in OPS:
                raise RuntimeError("probe_torch: op %s defined twice (%s)" % (name, m.name))
        OPS.update(mod.OPS)
        SAMPLES.update(mod.SAMPLES)
        BACKWARD.update(mod.BACKWARD)


_load_families()
