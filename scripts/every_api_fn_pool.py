"""Every-API dump recipes for the pool family (sdk/ops/schema_pool.go):
2-d/3-d average pooling, adaptive average and max pooling, paddings,
fold/unfold, upsampling, power-average pooling and max unpooling. See
make_every_api_dump.py for the RECIPES convention."""
import torch.nn.functional as F

RECIPES = {
    "avg_pool2d": lambda t: ([t.f(2, 3, 8, 8), 3], {"stride": 2, "padding": 1}),
    "avg_pool3d": lambda t: ([t.f(1, 2, 6, 6, 6), 3], {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
    "adaptive_avg_pool3d": lambda t: ([t.f(1, 2, 5, 6, 7), (2, 3, None)], {}),
    "adaptive_max_pool2d": lambda t: ([t.f(2, 3, 7, 9), (3, 4)], {}),
    "adaptive_max_pool2d_with_indices": lambda t: ([t.f(2, 3, 7, 9), 4], {"return_indices": True}),
    "adaptive_max_pool3d": lambda t: ([t.f(1, 2, 5, 6, 7), (2, 3, 4)], {}),
    "adaptive_max_pool3d_with_indices": lambda t: ([t.f(1, 2, 5, 6, 7), 3], {"return_indices": True}),
    "pad": lambda t: ([t.f(1, 2, 4, 5, 6), (1, 2, 2, 1, 0, 2)], {"mode": "reflect"}),
    "unfold": lambda t: ([t.f(2, 3, 7, 8), (3, 2)], {"dilation": (1, 2), "padding": 1, "stride": (2, 1)}),
    "fold": lambda t: ([t.f(2, 12, 20), (5, 6), 2], {}),
    "interpolate": lambda t: ([t.f(2, 3, 5, 6)], {"scale_factor": 1.7, "mode": "bilinear", "align_corners": False}),
    "upsample": lambda t: ([t.f(2, 3, 9)], {"size": 14, "mode": "linear", "align_corners": True}),
    "upsample_nearest": lambda t: ([t.f(2, 3, 5, 6)], {"scale_factor": 2}),
    "upsample_bilinear": lambda t: ([t.f(2, 3, 5, 6)], {"size": (7, 9)}),
    "max_unpool1d": lambda t: ([t.f(2, 3, 5), F.max_pool1d(t.c(2, 3, 10), 2, return_indices=True)[1], 2], {}),
    "max_unpool2d": lambda t: ([t.f(2, 3, 4, 4), F.max_pool2d(t.c(2, 3, 9, 9), 2, return_indices=True)[1], 2], {"output_size": (9, 9)}),
    "max_unpool3d": lambda t: ([t.f(1, 2, 2, 3, 3), F.max_pool3d(t.c(1, 2, 4, 6, 6), 2, return_indices=True)[1], 2], {}),
    "lp_pool1d": lambda t: ([t.f(2, 3, 10), 2.0, 3], {"stride": 2}),
    "lp_pool2d": lambda t: ([t.p(2, 3, 8, 8), 3, 2], {}),
}
