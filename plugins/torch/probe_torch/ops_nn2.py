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


OPS = {
    "conv_transpose": _conv_transpose,
}

BACKWARD = {"conv_transpose"}

SAMPLES = {
    "conv_transpose": _s_conv_transpose,
}
