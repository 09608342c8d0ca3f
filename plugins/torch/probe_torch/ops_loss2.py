"""The loss2 family (sdk/ops/schema_loss2.go): the remaining losses, the
recurrent cells and layers and embedding_bag, run with the real torch.
Conventions as in ops.py."""

import torch
import torch.nn.functional as F

from .wire import ArgumentError

aten = torch.ops.aten

_RED = {"none": 0, "mean": 1, "sum": 2}


def _red(c):
    r = c.attrs["reduction"]
    if r not in _RED:
        raise ArgumentError("%s is not a valid value for reduction" % r)
    return _RED[r]


def _nograd(t):
    """An input PyTorch does not differentiate (the schema's
    non-differentiable inputs)."""
    return t.detach() if isinstance(t, torch.Tensor) else t


def _bce(c):
    x, t, w, pw = c.inputs
    w, pw = _nograd(w), _nograd(pw)
    return torch.binary_cross_entropy_with_logits(x, t, w, pw, _red(c))


def _kl_div(c):
    x, t = c.inputs
    lt = c.attrs["log_target"]
    if c.attrs["reduction"] == "batchmean":
        out = torch.kl_div(x, t, 2, log_target=lt)
        return out / x.size()[0] if x.dim() != 0 else out
    return torch.kl_div(x, t, _red(c), log_target=lt)


def _margin_ranking(c):
    a, b, t = c.inputs
    return torch.margin_ranking_loss(a, b, t, c.attrs["margin"], _red(c))


def _hinge(c):
    x, t = c.inputs
    return torch.hinge_embedding_loss(x, t, c.attrs["margin"], _red(c))


def _cosine_embedding(c):
    a, b, t = c.inputs
    return torch.cosine_embedding_loss(a, b, t, c.attrs["margin"], _red(c))


def _poisson(c):
    x, t = c.inputs
    a = c.attrs
    return torch.poisson_nll_loss(x, t, a["log_input"], a["full"], a["eps"], _red(c))


def _gaussian(c):
    x, t, v = c.inputs
    try:
        return F.gaussian_nll_loss(x, t, v, full=c.attrs["full"], eps=c.attrs["eps"], reduction=c.attrs["reduction"])
    except ValueError as e:
        raise ArgumentError(str(e))


def _triplet(c):
    a, p, n = c.inputs
    at = c.attrs
    if at["python_order"]:
        def dist(x, y):
            return F.pairwise_distance(x, y, at["p"], at["eps"])
        return F.triplet_margin_with_distance_loss(a, p, n, distance_function=dist, margin=at["margin"],
                                                   swap=at["swap"], reduction=at["reduction"])
    return torch.triplet_margin_loss(a, p, n, at["margin"], at["p"], at["eps"], at["swap"], _red(c))


def _soft_margin(c):
    x, t = c.inputs
    return torch._C._nn.soft_margin_loss(x, _nograd(t), _red(c))


def _multilabel_margin(c):
    x, t = c.inputs
    return torch._C._nn.multilabel_margin_loss(x, t, _red(c))


def _multilabel_soft_margin(c):
    x, t, w = c.inputs
    return F.multilabel_soft_margin_loss(x, t, w, reduction=c.attrs["reduction"])


def _multi_margin(c):
    x, t, w = c.inputs
    return torch._C._nn.multi_margin_loss(x, t, c.attrs["p"], c.attrs["margin"], _nograd(w), _red(c))


def _lstm_cell(c):
    x, h, cx, wih, whh, bih, bhh = c.inputs
    return torch.lstm_cell(x, [h, cx], wih, whh, bih, bhh)


def _gru_cell(c):
    x, h, wih, whh, bih, bhh = c.inputs
    return torch.gru_cell(x, h, wih, whh, bih, bhh)


def _rnn_args(c):
    a = c.attrs
    return a["has_biases"], a["num_layers"], a["dropout"], a["train"], a["bidirectional"], a["batch_first"]


def _lstm(c):
    x, h, cx = c.inputs[:3]
    return torch.lstm(x, [h, cx], list(c.inputs[3:]), *_rnn_args(c))


def _gru(c):
    x, h = c.inputs[:2]
    return torch.gru(x, h, list(c.inputs[2:]), *_rnn_args(c))


def _s_rnn(gates, cell, lstm):
    def s(dt):
        if dt not in (torch.float64, torch.float32, torch.bfloat16):
            return None
        g = torch.Generator().manual_seed(0)

        def r(*shape):
            return (torch.rand(shape, generator=g, dtype=torch.float64) - 0.5).to(dt)
        ws = [r(gates * 3, 2), r(gates * 3, 3), r(gates * 3), r(gates * 3)]
        if cell:
            st = [r(2, 3), r(2, 3)] if lstm else [r(2, 3)]
            return [r(2, 2)] + st + ws, {}
        st = [r(1, 2, 3), r(1, 2, 3)] if lstm else [r(1, 2, 3)]
        return [r(4, 2, 2)] + st + ws, {"has_biases": True, "num_layers": 1, "dropout": 0.0, "train": False,
                                         "bidirectional": False, "batch_first": False}
    return s


_MODES = {"sum": 0, "mean": 1, "max": 2}


def _embedding_bag(c):
    w, ix, off, psw = c.inputs
    a = c.attrs
    pad = a["padding_idx"]
    pad = None if pad == -1 else pad
    if off is None:
        return F.embedding_bag(ix, w, None, scale_grad_by_freq=a["scale_grad_by_freq"], mode=a["mode"], per_sample_weights=psw,
                               include_last_offset=a["include_last_offset"], padding_idx=pad)
    return torch.embedding_bag(w, ix, off, a["scale_grad_by_freq"], _MODES[a["mode"]], False, psw, a["include_last_offset"], pad)[0]


def _s_embedding_bag(dt):
    if dt not in (torch.float64, torch.float32, torch.float16):
        return None
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.5, -0.5]], dtype=torch.float64).to(dt)
    return [w, torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1]), None], {"mode": "mean", "scale_grad_by_freq": False,
                                                                           "include_last_offset": False, "padding_idx": -1}


def _ctc_loss(c):
    lp, tg, il, tl = c.inputs
    a = c.attrs
    il = a["input_lengths"] if il is None else il
    tl = a["target_lengths"] if tl is None else tl
    return torch.ctc_loss(lp, tg, il, tl, a["blank"], _red(c), a["zero_infinity"])


def _s_ctc_loss(dt):
    if dt not in (torch.float64, torch.float32):
        return None
    lp = torch.tensor([[[0.5, 0.25, 0.25]], [[0.25, 0.5, 0.25]], [[0.5, 0.25, 0.25]]], dtype=torch.float64).log().to(dt)
    return [lp, torch.tensor([[1, 2]]), None, None], {"input_lengths": [3], "target_lengths": [2], "blank": 0,
                                                      "reduction": "mean", "zero_infinity": False}


def _f(dt, *rows):
    return torch.tensor(rows, dtype=torch.float64).to(dt)


def _floats_only(make, half=False):
    def s(dt):
        if not dt.is_floating_point or (dt == torch.float16 and not half):
            return None
        return make(dt)
    return s


_X = ([0.5, -1.25], [2.0, -0.5])
_T = ([1.0, 0.0], [0.25, 1.0])
_PM = ([1.0, -1.0], [-1.0, 1.0])

OPS = {
    "binary_cross_entropy_with_logits": _bce,
    "kl_div": _kl_div,
    "margin_ranking_loss": _margin_ranking,
    "hinge_embedding_loss": _hinge,
    "cosine_embedding_loss": _cosine_embedding,
    "poisson_nll_loss": _poisson,
    "gaussian_nll_loss": _gaussian,
    "triplet_margin_loss": _triplet,
    "soft_margin_loss": _soft_margin,
    "multilabel_margin_loss": _multilabel_margin,
    "multilabel_soft_margin_loss": _multilabel_soft_margin,
    "multi_margin_loss": _multi_margin,
    "lstm_cell": _lstm_cell,
    "gru_cell": _gru_cell,
    "lstm": _lstm,
    "gru": _gru,
    "embedding_bag": _embedding_bag,
    "ctc_loss": _ctc_loss,
}

SAMPLES = {
    "binary_cross_entropy_with_logits": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T), None, None], {"reduction": "mean"})),
    "kl_div": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T)], {"reduction": "sum", "log_target": False}), half=True),
    "margin_ranking_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T), _f(dt, *_PM)], {"margin": 0.0, "reduction": "mean"})),
    "hinge_embedding_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_PM)], {"margin": 1.0, "reduction": "mean"})),
    "cosine_embedding_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T), _f(dt, 1.0, -1.0)], {"margin": 0.0, "reduction": "mean"})),
    "poisson_nll_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T)], {"log_input": True, "full": False, "eps": 1e-8, "reduction": "mean"})),
    "gaussian_nll_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T), _f(dt, *_T).abs() + 1], {"full": False, "eps": 1e-6, "reduction": "mean"})),
    "triplet_margin_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T), _f(dt, *_PM)],
                                                    {"margin": 1.0, "p": 2.0, "eps": 1e-6, "swap": False, "python_order": False, "reduction": "mean"})),
    "soft_margin_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_PM)], {"reduction": "mean"})),
    "multilabel_margin_loss": lambda dt: ([_f(dt, *_X), torch.tensor([[1, -1], [0, 1]])], {"reduction": "mean"})
    if dt in (torch.float32, torch.float64) else None,
    "multilabel_soft_margin_loss": _floats_only(lambda dt: ([_f(dt, *_X), _f(dt, *_T), None], {"reduction": "mean"})),
    "multi_margin_loss": lambda dt: ([_f(dt, *_X), torch.tensor([1, 0]), None], {"p": 1, "margin": 1.0, "reduction": "mean"})
    if dt in (torch.float32, torch.float64) else None,
    "lstm_cell": _s_rnn(4, True, True),
    "gru_cell": _s_rnn(3, True, False),
    "lstm": _s_rnn(4, False, True),
    "gru": _s_rnn(3, False, False),
    "embedding_bag": _s_embedding_bag,
    "ctc_loss": _s_ctc_loss,
}

BACKWARD = set(OPS)
