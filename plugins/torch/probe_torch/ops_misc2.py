"""The misc2 family (sdk/ops/schema_misc2.go): frexp, igamma/igammac,
renorm, diagonal_scatter, slice_scatter, fill_diagonal_, sum_to_size,
_foreach_norm, histograms and resize_, run with the real torch.
Conventions as in ops.py."""

import torch

from .ops import _ints, _num, _t, _x
from .wire import ArgumentError, Scalar

aten = torch.ops.aten

FLOATS = (torch.float64, torch.float32, torch.float16, torch.bfloat16)


def _frexp(c):
    return list(torch.frexp(c.inputs[0]))


def _igamma(name):
    # torch has no derivative for self (the schema's self takes none): it
    # is detached, so that only other is differentiated
    def f(c):
        a, x = c.inputs
        a = a.detach()
        if c.attrs["inplace"]:
            return getattr(a.clone(), name + "_")(x)
        return getattr(torch, name)(a, x)
    return f


def _renorm(c):
    a = c.attrs
    x = c.inputs[0]
    if a["inplace"]:
        return x.renorm_(a["p"], a["dim"], a["maxnorm"])
    return torch.renorm(x, a["p"], a["dim"], a["maxnorm"])


def _diagonal_scatter(c):
    a = c.attrs
    return torch.diagonal_scatter(c.inputs[0], c.inputs[1], a["offset"], a["dim1"], a["dim2"])


def _slice_scatter(c):
    # aten's binding: Debian's torch 1.13 Python binding reads a garbage
    # step when start or end is given without it
    a = c.attrs
    return aten.slice_scatter(c.inputs[0], c.inputs[1], a["dim"], a["start"], a["end"], a["step"])


def _fill_diagonal(c):
    x, v = c.inputs
    if not isinstance(v, Scalar):
        raise ArgumentError("fill_diagonal: fill_value must be a number")
    return x.clone().fill_diagonal_(_num(v), c.attrs["wrap"])


def _sum_to_size(c):
    return c.inputs[0].sum_to_size(_ints(c.attrs["size"]))


def _foreach_norm(c):
    return list(torch._foreach_norm(list(c.inputs), c.attrs["ord"]))


def _range(a):
    r = a["range"]
    return None if r is None else [float(v) for v in r]


def _histogram(c):
    a = c.attrs
    x, w = c.inputs[0], c.inputs[1]
    bins = _ints(a["bins"])
    if a["flat"]:
        r = _range(a)
        out = torch.histogram(x, bins[0], range=None if r is None else tuple(r), weight=w, density=a["density"])
        return [out[0], out[1]]
    out = torch.histogramdd(x, bins, range=_range(a), weight=w, density=a["density"])
    return [out[0]] + list(out[1])


def _histogram_edges(c):
    a = c.attrs
    x, w, bins = c.inputs[0], c.inputs[1], list(c.inputs[2:])
    if a["flat"]:
        if len(bins) != 1:
            raise ArgumentError("histogram_edges: torch.histogram takes one bins tensor, got %d" % len(bins))
        out = torch.histogram(x, bins[0], weight=w, density=a["density"])
        return [out[0], out[1]]
    out = torch.histogramdd(x, bins, weight=w, density=a["density"])
    return [out[0]] + list(out[1])


def _resize(c):
    x = c.inputs[0]
    size = _ints(c.attrs["size"])
    n = 1
    for s in size:
        n *= s
    if n > x.numel():
        raise ArgumentError("resize_ to %s grows the tensor of %d elements: the new elements are uninitialised memory" % (size, x.numel()))
    return x.detach().clone().resize_(size)


def _choose_qparams(c):
    a = c.attrs
    return list(torch.choose_qparams_optimized(c.inputs[0], a["numel"], a["n_bins"], a["ratio"], a["bit_width"]))


def _stft(c):
    a = c.attrs
    return torch.stft(c.inputs[0], a["n_fft"], hop_length=a["hop_length"], win_length=a["win_length"], window=c.inputs[1],
                      center=a["center"], pad_mode=a["pad_mode"], normalized=a["normalized"], onesided=a["onesided"],
                      return_complex=False)


def _istft(c):
    a = c.attrs
    return torch.istft(c.inputs[0], a["n_fft"], hop_length=a["hop_length"], win_length=a["win_length"], window=c.inputs[1],
                       center=a["center"], normalized=a["normalized"], onesided=a["onesided"], length=a["length"],
                       return_complex=False)


OPS = {
    "stft": _stft,
    "istft": _istft,
    "choose_qparams_optimized": _choose_qparams,
    "frexp": _frexp,
    "igamma": _igamma("igamma"),
    "igammac": _igamma("igammac"),
    "renorm": _renorm,
    "diagonal_scatter": _diagonal_scatter,
    "slice_scatter": _slice_scatter,
    "fill_diagonal": _fill_diagonal,
    "sum_to_size": _sum_to_size,
    "foreach_norm": _foreach_norm,
    "histogram": _histogram,
    "histogram_edges": _histogram_edges,
    "resize": _resize,
}

BACKWARD = {"stft", "istft", "frexp", "igamma", "igammac", "renorm", "diagonal_scatter", "slice_scatter", "fill_diagonal", "sum_to_size"}


def _floats_only(make):
    def s(dt):
        if dt not in FLOATS:
            return None
        return make(dt)
    return s


_FFT = (torch.float64, torch.float32)

SAMPLES = {
    "stft": lambda dt: ([_t([0.5, 1.0, -2.0, 0.25, 3.0, 1.5], dt), None],
                        {"n_fft": 4, "hop_length": None, "win_length": None, "center": True, "pad_mode": "reflect",
                         "normalized": False, "onesided": None}) if dt in _FFT else None,
    "istft": lambda dt: ([_t([[[1.0, 0.0], [2.0, 0.0]], [[0.5, 0.5], [0.25, -1.0]], [[1.0, 0.0], [-1.0, 0.0]]], dt), None],
                         {"n_fft": 4, "hop_length": 1, "win_length": None, "center": False, "normalized": False,
                          "onesided": None, "length": None}) if dt in _FFT else None,
    "choose_qparams_optimized": lambda dt: ([_x(dt)], {"numel": 4, "n_bins": 20, "ratio": 0.16, "bit_width": 8}) if dt == torch.float32 else None,
    "frexp": _floats_only(lambda dt: ([_x(dt)], {})),
    "igamma": _floats_only(lambda dt: ([_x(dt), _x(dt)], {"inplace": False})),
    "igammac": _floats_only(lambda dt: ([_x(dt), _x(dt)], {"inplace": False})),
    "renorm": _floats_only(lambda dt: ([_x(dt)], {"p": 2.0, "dim": 0, "maxnorm": 1.0, "inplace": False})),
    "diagonal_scatter": lambda dt: ([_x(dt), _t([1, 0], dt)], {"offset": 0, "dim1": 0, "dim2": 1}),
    "slice_scatter": lambda dt: ([_x(dt), _t([[1, 0]], dt)], {"dim": 0, "start": 1, "end": None, "step": 1}),
    "fill_diagonal": lambda dt: ([_x(dt), Scalar(1)], {"wrap": False}),
    "sum_to_size": lambda dt: ([_x(dt)], {"size": [1, 2]}),
    "foreach_norm": _floats_only(lambda dt: ([_x(dt), _t([1.5, 0.75], dt)], {"ord": 2.0})),
    "histogram": _floats_only(lambda dt: ([_x(dt), None], {"bins": [3], "range": None, "density": False, "flat": True})),
    "histogram_edges": _floats_only(lambda dt: ([_x(dt), None, _t([0, 1, 4], dt)], {"density": False, "flat": True})),
    "resize": lambda dt: ([_x(dt)], {"size": [3]}),
}
