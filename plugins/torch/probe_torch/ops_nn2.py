"""The nn2 family (sdk/ops/schema_nn2.go), each run with the real torch:
transposed and time-batch-channel convolutions, 3-d max pooling, the
native_* normalisations, grid sampling, affine grids, the feature and
alpha dropouts, _softmax_backward_data, embedding_renorm_ and bilinear.
Conventions as in ops.py."""

import torch
import torch.nn.functional as F

from .ops import _dtype, _ints, _row, _t, _x

aten = torch.ops.aten


def _conv_transpose(c):
    x, w, b = c.inputs
    a = c.attrs
    fn = {3: F.conv_transpose1d, 4: F.conv_transpose2d, 5: F.conv_transpose3d}[w.dim()]
    return fn(x, w, b, _ints(a["stride"]), _ints(a["padding"]), _ints(a["output_padding"]), a["groups"], _ints(a["dilation"]))


def _s_conv_transpose(dt):
    if dt not in (torch.float64, torch.float32, torch.int64):
        return None
    x = _t([[[0.5, 1.0, 1.5], [2.0, 0.25, 0.75]]], dt) if dt.is_floating_point else _t([[[1, 2, 3], [2, 0, 1]]], dt)
    w = _t([[[1.0, 0.5]], [[0.25, 1.5]]], dt) if dt.is_floating_point else _t([[[1, 2]], [[3, 1]]], dt)
    return [x, w, None], {"stride": [2], "padding": [0], "output_padding": [1], "dilation": [1], "groups": 1}


def _s_conv_tbc(dt):
    if dt in (torch.float16, torch.bool):
        return None
    x = _t([[[0.5, 1.0]], [[1.5, 2.0]], [[0.25, 0.75]]], dt) if dt.is_floating_point else _t([[[1, 2]], [[3, 2]], [[0, 1]]], dt)
    w = _t([[[1.0], [0.5]], [[0.25], [1.5]]], dt) if dt.is_floating_point else _t([[[1], [2]], [[3], [1]]], dt)
    return [x, w, _t([1], dt)], {"pad": 1}


def _max_pool3d(c):
    a = c.attrs
    args = (c.inputs[0], _ints(a["kernel_size"]), _ints(a["stride"]), _ints(a["padding"]), _ints(a["dilation"]), bool(a["ceil_mode"]))
    if a["return_indices"]:
        out, idx = aten.max_pool3d_with_indices(*args)
        return [out, idx]
    return aten.max_pool3d(*args)


def _s_max_pool3d(dt):
    if dt not in (torch.float64, torch.float32):
        return None
    x = _t([0.5, 1.0, 1.5, 0.0, 2.0, 0.25, 0.75, 3.0], dt).reshape(1, 1, 2, 2, 2)
    return [x], {"kernel_size": [2, 2, 2], "stride": [2, 2, 2], "return_indices": True}


def _native_batch_norm(c):
    x, w, b, rm, rv = c.inputs
    a = c.attrs
    if rm is not None:
        rm = rm.clone()  # the update of the running statistics is not an output
    if rv is not None:
        rv = rv.clone()
    return list(torch.native_batch_norm(x, w, b, rm, rv, bool(a["training"]), a["momentum"], a["eps"]))


def _update_stats(c):
    x, rm, rv = c.inputs
    rm = None if rm is None else rm.clone()
    rv = None if rv is None else rv.clone()
    return list(torch.batch_norm_update_stats(x, rm, rv, c.attrs["momentum"]))


def _norm_x(dt):
    return _t([[[0.5, 1.0], [2.0, 0.25]], [[1.5, 0.75], [1.0, 3.0]]], dt)


def _s_norm(op):
    def s(dt):
        if dt not in (torch.float64, torch.float32, torch.bfloat16):
            return None
        if op == "native_layer_norm":
            return [_norm_x(dt), _row(dt), _row(dt)], {"normalized_shape": [2]}
        if op == "native_group_norm":
            return [_norm_x(dt), _row(dt), _row(dt)], {"N": 2, "C": 2, "HxW": 2, "group": 1}
        if op == "native_batch_norm":
            return [_norm_x(dt), _row(dt), _row(dt), None, None], {"training": True}
        return [_norm_x(dt), None, None], {"momentum": 0.1}
    return s


def _s_grid_sampler(dt):
    if dt not in (torch.float64, torch.float32):
        return None
    return [_norm_x(dt).reshape(1, 2, 2, 2), _t([[[[-0.5, 0.25], [0.75, -1.0]]]], dt)], {"interpolation_mode": 0, "padding_mode": 0, "align_corners": False}


def _s_affine_grid(dt):
    if dt in (torch.float16, torch.bool):
        return None
    return [_t([[[1, 0, 0], [0, 1, 1]]], dt)], {"size": [1, 1, 2, 3], "align_corners": True}


def _feature_dropout(c):
    x = c.inputs[0]
    a = c.attrs
    seed = c.seed & 0x7FFFFFFFFFFFFFFF
    torch.manual_seed(seed)
    if c.device.type == "npu":
        torch.npu.manual_seed(seed)
    name = {(False, True): "feature_dropout", (True, False): "alpha_dropout", (True, True): "feature_alpha_dropout"}.get((bool(a["alpha"]), bool(a["feature"])))
    if name is None:
        name = "dropout"
    unbatched = bool(a["unbatched"])
    if a["inplace"]:
        if unbatched:
            x.unsqueeze_(0)
        out = getattr(torch, name + "_")(x, a["p"], bool(a["train"]))
        return out.squeeze_(0) if unbatched else out
    if unbatched:
        x = x.unsqueeze(0)
    out = getattr(torch, name)(x, a["p"], bool(a["train"]))
    return out.squeeze(0) if unbatched else out


def _s_feature_dropout(dt):
    if dt.is_floating_point:
        return [_norm_x(dt)], {"p": 0.5, "train": True}
    # integer tensors: the identity in evaluation only
    return [_norm_x(dt)], {"p": 0.5, "train": False}


def _embedding_renorm(c):
    w, idx = c.inputs
    return torch.embedding_renorm_(w.detach().clone(), idx, c.attrs["max_norm"], c.attrs["norm_type"])


def _s_softmax_backward_data(dt):
    if dt not in (torch.float64, torch.float32, torch.bfloat16):
        return None
    return [_norm_x(dt), _t([[[0.25, 0.75], [0.5, 0.5]], [[0.125, 0.875], [0.375, 0.625]]], dt)], {"dim": -1, "input_dtype": _DT[dt]}


def _s_embedding_renorm(dt):
    if not dt.is_floating_point:
        return None
    return [_t([[3.0, 4.0], [0.5, 0.25], [6.0, 8.0]], dt), torch.tensor([0, 2])], {"max_norm": 1.0, "norm_type": 2.0}


def _s_bilinear(dt):
    if dt in (torch.float16, torch.bool):
        return None
    return [_x(dt), _x(dt), _x(dt).reshape(1, 2, 2), None], {}


_DT = {torch.float64: "float64", torch.float32: "float32", torch.bfloat16: "bfloat16"}


OPS = {
    "conv_transpose": _conv_transpose,
    "max_pool3d": _max_pool3d,
    "native_layer_norm": lambda c: list(torch.native_layer_norm(c.inputs[0], _ints(c.attrs["normalized_shape"]), c.inputs[1], c.inputs[2], c.attrs["eps"])),
    "native_group_norm": lambda c: list(torch.native_group_norm(c.inputs[0], c.inputs[1], c.inputs[2], c.attrs["N"], c.attrs["C"], c.attrs["HxW"],
                                                                c.attrs["group"], c.attrs["eps"])),
    "native_batch_norm": _native_batch_norm,
    "batch_norm_update_stats": _update_stats,
    "grid_sampler": lambda c: torch.grid_sampler(c.inputs[0], c.inputs[1], c.attrs["interpolation_mode"], c.attrs["padding_mode"], bool(c.attrs["align_corners"])),
    "feature_dropout": _feature_dropout,
    "softmax_backward_data": lambda c: torch._softmax_backward_data(c.inputs[0], c.inputs[1], c.attrs["dim"], _dtype(c.attrs["input_dtype"])),
    "embedding_renorm": _embedding_renorm,
    "bilinear": lambda c: torch.bilinear(*c.inputs),
    "affine_grid": lambda c: torch.affine_grid_generator(c.inputs[0], _ints(c.attrs["size"]), bool(c.attrs["align_corners"])),
    "conv_tbc": lambda c: torch.conv_tbc(c.inputs[0], c.inputs[1], c.inputs[2], c.attrs["pad"]),
}

# PyTorch 1.13 has no derivative for batch_norm_update_stats and embedding_renorm_.
BACKWARD = {"conv_transpose", "conv_tbc", "max_pool3d", "native_layer_norm", "native_group_norm", "native_batch_norm",
            "grid_sampler", "affine_grid", "feature_dropout", "softmax_backward_data", "bilinear"}

SAMPLES = {
    "conv_transpose": _s_conv_transpose,
    "conv_tbc": _s_conv_tbc,
    "max_pool3d": _s_max_pool3d,
    "grid_sampler": _s_grid_sampler,
    "affine_grid": _s_affine_grid,
    "feature_dropout": _s_feature_dropout,
    "softmax_backward_data": _s_softmax_backward_data,
    "embedding_renorm": _s_embedding_renorm,
    "bilinear": _s_bilinear,
}
for _op in ("native_layer_norm", "native_group_norm", "native_batch_norm", "batch_norm_update_stats"):
    SAMPLES[_op] = _s_norm(_op)
