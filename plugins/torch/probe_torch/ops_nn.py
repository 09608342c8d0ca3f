"""The nn ops of msprobe's torch list (sdk/ops/schema_nn.go), each run with
the real torch: celu, selu, threshold, prelu, hardshrink, torch._add_relu
(no derivative in PyTorch) and rrelu in evaluation.
Conventions as in ops.py: torch.ops.aten where the op is an ATen op, the
in-place variant on input 0 for attrs["inplace"]."""

import torch

from .ops import _int_if_integral, _ints, _num, _row, _s_binary, _s_unary, _x

aten = torch.ops.aten


def _celu(c):
    x = c.inputs[0]
    a = _int_if_integral(c.attrs["alpha"])
    if c.attrs["inplace"]:
        return torch.celu_(x, a)
    return aten.celu(x, a)


def _selu(c):
    x = c.inputs[0]
    if c.attrs["inplace"]:
        return torch.selu_(x)
    return aten.selu(x)


def _threshold(c):
    x = c.inputs[0]
    th, v = _int_if_integral(c.attrs["threshold"]), _int_if_integral(c.attrs["value"])
    if c.attrs["inplace"]:
        return torch.threshold_(x, th, v)
    return aten.threshold(x, th, v)


def _hardshrink(c):
    return aten.hardshrink(c.inputs[0], c.attrs["lambd"])


def _prelu(c):
    return aten.prelu(c.inputs[0], c.inputs[1])


def _add_relu(c):
    x, y = c.inputs
    alpha = _int_if_integral(c.attrs["alpha"])
    if c.attrs["inplace"]:
        return torch._add_relu_(x, _num(y), alpha=alpha)
    return torch._add_relu(x, _num(y), alpha=alpha)


def _rrelu(c):
    x = c.inputs[0]
    lo, hi = c.attrs["lower"], c.attrs["upper"]
    if c.attrs["inplace"]:
        return torch.rrelu_(x, lo, hi, False)
    return torch.rrelu(x, lo, hi, False)


def _constant_pad_nd(c):
    return aten.constant_pad_nd(c.inputs[0], _ints(c.attrs["pad"]), _int_if_integral(c.attrs["value"]))


def _max_pool1d(c):
    a = c.attrs
    args = (c.inputs[0], _ints(a["kernel_size"]), _ints(a["stride"]), _ints(a["padding"]), _ints(a["dilation"]), bool(a["ceil_mode"]))
    if a["return_indices"]:
        out, idx = aten.max_pool1d_with_indices(*args)
        return [out, idx]
    return aten.max_pool1d(*args)


def _adaptive_max_pool1d(c):
    out, idx = aten.adaptive_max_pool1d(c.inputs[0], _ints(c.attrs["output_size"]))
    if c.attrs["return_indices"]:
        return [out, idx]
    return out


OPS = {
    "celu": _celu,
    "selu": _selu,
    "threshold": _threshold,
    "hardshrink": _hardshrink,
    "prelu": _prelu,
    "add_relu": _add_relu,
    "rrelu": _rrelu,
    "pixel_shuffle": lambda c: aten.pixel_shuffle(c.inputs[0], c.attrs["upscale_factor"]),
    "pixel_unshuffle": lambda c: aten.pixel_unshuffle(c.inputs[0], c.attrs["downscale_factor"]),
    "channel_shuffle": lambda c: aten.channel_shuffle(c.inputs[0], c.attrs["groups"]),
    "constant_pad_nd": _constant_pad_nd,
    "cosine_similarity": lambda c: torch.cosine_similarity(c.inputs[0], c.inputs[1], c.attrs["dim"], c.attrs["eps"]),
    "adaptive_avg_pool1d": lambda c: aten.adaptive_avg_pool1d(c.inputs[0], _ints(c.attrs["output_size"])),
    "max_pool1d": _max_pool1d,
    "group_norm": lambda c: aten.group_norm(c.inputs[0], c.attrs["num_groups"], c.inputs[1], c.inputs[2], c.attrs["eps"]),
    "adaptive_max_pool1d": _adaptive_max_pool1d,
    "avg_pool1d": lambda c: aten.avg_pool1d(c.inputs[0], _ints(c.attrs["kernel_size"]), _ints(c.attrs["stride"]),
                                            _ints(c.attrs["padding"]), bool(c.attrs["ceil_mode"]), bool(c.attrs["count_include_pad"])),
    "pairwise_distance": lambda c: torch.pairwise_distance(c.inputs[0], c.inputs[1], c.attrs["p"], c.attrs["eps"], bool(c.attrs["keepdim"])),
}

# PyTorch 1.13 has no derivative for _add_relu and channel_shuffle.
BACKWARD = set(OPS) - {"add_relu", "channel_shuffle"}


def _s_threshold(dt):
    return [_x(dt)], {"threshold": 1.0, "value": 0.0}


def _s_prelu(dt):
    return [_x(dt), torch.tensor([0.25, 0.5], dtype=torch.float64).to(dt)], {}


SAMPLES = {
    "celu": _s_unary,
    "selu": _s_unary,
    "threshold": _s_threshold,
    "hardshrink": _s_unary,
    "prelu": _s_prelu,
    "add_relu": _s_binary,
    "rrelu": _s_unary,
    "pixel_shuffle": lambda dt: ([_x(dt).reshape(1, 4, 1, 1)], {"upscale_factor": 2}),
    "pixel_unshuffle": lambda dt: ([_x(dt).reshape(1, 1, 2, 2)], {"downscale_factor": 2}),
    "channel_shuffle": lambda dt: ([_x(dt).reshape(1, 4, 1)], {"groups": 2}),
    "constant_pad_nd": lambda dt: ([_x(dt)], {"pad": [1, 0], "value": 1.0}),
    "cosine_similarity": _s_binary,
    "pairwise_distance": _s_binary,
    "adaptive_avg_pool1d": lambda dt: ([_x(dt).reshape(1, 1, 4)], {"output_size": [2]}),
    "avg_pool1d": lambda dt: ([_x(dt).reshape(1, 1, 4)], {"kernel_size": [2], "stride": [2]}),
    "adaptive_max_pool1d": lambda dt: ([_x(dt).reshape(1, 1, 4)], {"output_size": [2], "return_indices": True}),
    "group_norm": lambda dt: ([_x(dt).reshape(1, 2, 2), _row(dt), _row(dt)], {"num_groups": 2}),
    "max_pool1d": lambda dt: ([_x(dt).reshape(1, 1, 4)], {"kernel_size": [2], "stride": [2], "return_indices": True}),
}
