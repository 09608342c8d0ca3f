"""Every-API dump recipes for the torch.nn.functional names probe checked
before the coverage II families (activations, losses, convolutions, pooling,
normalisation, dropout, sampling): see make_every_api_dump.py.

RECIPES maps a torch.nn.functional name to fn(t) -> (args, kwargs), t being
make_every_api_dump.Inputs; the call is F.<name>(*args, **kwargs); for an
in-place name (ending in "_") args[0] is made a non-leaf copy first. A
module may also define NATURAL: names called once at their natural dtype
(int64 / bool) instead of once per float dtype.
"""
import torch


def _seq_logp(t):
    x = torch.log_softmax(torch.randn(8, 2, 5), -1).to(t.dt).detach()
    if t.grad:
        x.requires_grad_(True)
    return x


RECIPES = {
    # activations and elementwise
    "relu": lambda t: ([t.f(4, 8)], {}),
    "relu_": lambda t: ([t.f(4, 8)], {}),
    "selu": lambda t: ([t.f(4, 8)], {}),
    "selu_": lambda t: ([t.f(4, 8)], {}),
    "celu": lambda t: ([t.f(4, 8)], {"alpha": 1.5}),
    "celu_": lambda t: ([t.f(4, 8)], {"alpha": 1.5}),
    "rrelu": lambda t: ([t.f(4, 8)], {"training": False}),
    "rrelu_": lambda t: ([t.f(4, 8)], {"training": False}),
    "threshold": lambda t: ([t.f(4, 8), 0.1, -2.0], {}),
    "threshold_": lambda t: ([t.f(4, 8), 0.1, -2.0], {}),
    "hardshrink": lambda t: ([t.f(4, 8)], {"lambd": 0.5}),
    "gelu": lambda t: ([t.f(4, 8)], {"approximate": "tanh"}),
    "silu": lambda t: ([t.f(4, 8)], {}),
    "sigmoid": lambda t: ([t.f(4, 8)], {}),
    "tanh": lambda t: ([t.f(4, 8)], {}),
    "prelu": lambda t: ([t.f(2, 3, 4), t.f(3)], {}),
    "softmax": lambda t: ([t.f(4, 8)], {"dim": -1}),
    "log_softmax": lambda t: ([t.f(4, 8)], {"dim": 1}),
    # linear, convolution
    "linear": lambda t: ([t.f(4, 8), t.f(6, 8), t.f(6)], {}),
    "bilinear": lambda t: ([t.f(4, 5), t.f(4, 3), t.f(2, 5, 3), t.f(2)], {}),
    "conv1d": lambda t: ([t.f(2, 4, 10), t.f(6, 2, 3), t.f(6)], {"padding": 1, "groups": 2}),
    "conv2d": lambda t: ([t.f(2, 3, 8, 8), t.f(4, 3, 3, 3), t.f(4)], {"stride": 2, "padding": 1}),
    "conv3d": lambda t: ([t.f(1, 2, 5, 5, 5), t.f(3, 2, 2, 2, 2), None], {"dilation": 2}),
    "conv_transpose1d": lambda t: ([t.f(2, 4, 6), t.f(4, 3, 3), t.f(3)], {"stride": 2, "output_padding": 1}),
    "conv_transpose2d": lambda t: ([t.f(1, 4, 5, 5), t.f(4, 2, 3, 3), None], {"stride": 2, "padding": 1, "groups": 2}),
    "conv_transpose3d": lambda t: ([t.f(1, 2, 3, 3, 3), t.f(2, 3, 2, 2, 2), t.f(3)], {}),
    "conv_tbc": lambda t: ([t.f(7, 2, 4), t.f(3, 4, 5), t.f(5)], {"pad": 1}),
    # pooling, sampling, shuffles
    "avg_pool1d": lambda t: ([t.f(2, 3, 10), 3], {"stride": 2, "padding": 1}),
    "max_pool1d": lambda t: ([t.f(2, 3, 10), 3], {"stride": 2}),
    "max_pool1d_with_indices": lambda t: ([t.f(2, 3, 10), 3], {"stride": 2, "return_indices": True}),
    "max_pool2d": lambda t: ([t.f(2, 3, 8, 8), 2], {}),
    "max_pool2d_with_indices": lambda t: ([t.f(2, 3, 8, 8), 3], {"stride": 2, "padding": 1, "return_indices": True}),
    "max_pool3d": lambda t: ([t.f(1, 2, 6, 6, 6), 2], {}),
    "max_pool3d_with_indices": lambda t: ([t.f(1, 2, 6, 6, 6), 2], {"return_indices": True}),
    "adaptive_avg_pool1d": lambda t: ([t.f(2, 3, 10), 4], {}),
    "adaptive_avg_pool2d": lambda t: ([t.f(2, 3, 7, 7), (3, 2)], {}),
    "adaptive_max_pool1d": lambda t: ([t.f(2, 3, 10), 4], {}),
    "adaptive_max_pool1d_with_indices": lambda t: ([t.f(2, 3, 10), 4], {"return_indices": True}),
    "pixel_shuffle": lambda t: ([t.f(1, 8, 3, 3), 2], {}),
    "pixel_unshuffle": lambda t: ([t.f(1, 2, 4, 6), 2], {}),
    "channel_shuffle": lambda t: ([t.f(1, 6, 2, 2), 3], {}),
    "affine_grid": lambda t: ([t.f(2, 2, 3), [2, 1, 4, 5]], {"align_corners": False}),
    "grid_sample": lambda t: ([t.f(1, 2, 5, 5), t.u(1, 3, 4, 2)], {"align_corners": False}),
    # normalisation
    "batch_norm": lambda t: ([t.f(4, 3, 5), torch.zeros(3).to(t.dt), torch.ones(3).to(t.dt), t.f(3), t.f(3)],
                             {"training": True}),
    "instance_norm": lambda t: ([t.f(2, 3, 6)], {}),
    "layer_norm": lambda t: ([t.f(4, 8), [8], t.f(8), t.f(8)], {}),
    "group_norm": lambda t: ([t.f(2, 4, 5), 2, t.f(4), t.f(4)], {}),
    # dropout (seeded, judged like dropout)
    "dropout": lambda t: ([t.f(4, 8)], {"p": 0.3}),
    "dropout1d": lambda t: ([t.f(2, 4, 8)], {"p": 0.3}),
    "dropout2d": lambda t: ([t.f(2, 4, 3, 3)], {"p": 0.3}),
    "dropout3d": lambda t: ([t.f(2, 4, 2, 2, 2)], {"p": 0.3}),
    "alpha_dropout": lambda t: ([t.f(4, 8)], {"p": 0.3, "training": True}),
    "feature_alpha_dropout": lambda t: ([t.f(2, 4, 3, 3)], {"p": 0.3, "training": True}),
    # embeddings, distances
    "embedding": lambda t: ([t.i(4, 5, hi=10), t.f(10, 8)], {}),
    "embedding_bag": lambda t: ([t.i(12, hi=10), t.f(10, 8), torch.tensor([0, 4, 7])], {"mode": "mean"}),
    "cosine_similarity": lambda t: ([t.f(4, 8), t.f(4, 8)], {"dim": 1}),
    "pairwise_distance": lambda t: ([t.f(4, 8), t.f(4, 8)], {}),
    "pdist": lambda t: ([t.f(5, 8)], {"p": 2}),
    # losses
    "cross_entropy": lambda t: ([t.f(4, 6), t.i(4, hi=6)], {"label_smoothing": 0.1}),
    "nll_loss": lambda t: ([t.f(4, 6), t.i(4, hi=6)], {}),
    "ctc_loss": lambda t: ([_seq_logp(t), torch.randint(1, 5, (2, 3)), [8, 8], [3, 3]], {}),
    "kl_div": lambda t: ([t.f(4, 8), t.cz(4, 8)], {"reduction": "batchmean"}),
    "poisson_nll_loss": lambda t: ([t.f(4, 8), t.cp(4, 8)], {}),
    "gaussian_nll_loss": lambda t: ([t.f(4, 8), t.f(4, 8), t.p(4, 8)], {}),
    "binary_cross_entropy_with_logits": lambda t: ([t.f(4, 8), t.cz(4, 8)], {}),
    "margin_ranking_loss": lambda t: ([t.f(8), t.f(8), (t.b(8).to(t.dt) * 2 - 1)], {"margin": 0.1}),
    "hinge_embedding_loss": lambda t: ([t.f(4, 8), (t.b(4, 8).to(t.dt) * 2 - 1)], {}),
    "cosine_embedding_loss": lambda t: ([t.f(4, 8), t.f(4, 8), torch.tensor([1.0, -1.0, 1.0, -1.0]).to(t.dt)], {}),
    "soft_margin_loss": lambda t: ([t.f(4, 8), (t.b(4, 8).to(t.dt) * 2 - 1)], {}),
    "multilabel_margin_loss": lambda t: ([t.f(2, 4), torch.tensor([[1, 3, -1, 0], [0, -1, 2, 2]])], {}),
    "multilabel_soft_margin_loss": lambda t: ([t.f(4, 8), t.b(4, 8).to(t.dt)], {}),
    "multi_margin_loss": lambda t: ([t.f(4, 6), t.i(4, hi=6)], {}),
    "triplet_margin_loss": lambda t: ([t.f(4, 8), t.f(4, 8), t.f(4, 8)], {}),
    "triplet_margin_with_distance_loss": lambda t: ([t.f(4, 8), t.f(4, 8), t.f(4, 8)], {"margin": 0.5}),
}
