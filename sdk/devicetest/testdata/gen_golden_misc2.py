"""Golden cases for the misc2 family (sdk/ops/schema_misc2.go): frexp,
igamma/igammac, renorm, diagonal_scatter, slice_scatter, fill_diagonal_,
sum_to_size, _foreach_norm, histogram/histogramdd and resize_.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_misc2.py

writes golden/misc2.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer cases keep their dtypes); emulated
cases at float32, bfloat16 and float16 as PyTorch's CPU kernels do, with
an ulp tolerance where PyTorch itself is more than an ulp from the
correctly rounded result (checked()).

slice_scatter is called with every argument given: Debian's 1.13 build
reads a garbage step when start or end is given without step.
"""

import torch

from golden_lib import REPORT, Rand, attr, case, checked, error_case, write_group

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
NARROW = (f32, bf16, f16)
NAN, INF = float("nan"), float("inf")


def dn(d):
    return str(d).replace("torch.", "")


def fl(v):
    return float(v)  # a float attribute (non-finite values encoded as strings)


# --------------------------------------------------------------------------
# frexp

def frexp_cases():
    r = Rand("frexp")
    cs = []
    x = torch.tensor([1.0, 0.5, 0.0, -0.0, -3.0, 1e-310, 7.5e300, INF, -INF, NAN, 0.1, -1e-5], dtype=f64)
    cs.append(case("frexp/special", "frexp", [x], torch.frexp, backward=False))
    cs.append(case("frexp/randn", "frexp", [r.randn([3, 4]) * 100], torch.frexp))
    cs.append(case("frexp/0d", "frexp", [torch.tensor(-6.25, dtype=f64)], torch.frexp))
    cs.append(case("frexp/empty", "frexp", [torch.zeros(0, 3, dtype=f64)], torch.frexp))
    cs.append(error_case("frexp/int", "frexp", [torch.tensor([1, 2])], torch.frexp))
    cs.append(error_case("frexp/bool", "frexp", [torch.tensor([True])], torch.frexp))
    for d in NARROW:
        v = (r.randn([5, 3]) * 30).to(d)
        cs.append(checked("frexp/emu/%s" % dn(d), "frexp", [v], torch.frexp, mode="emulated"))
        cs.append(checked("frexp/emu/%s_special" % dn(d), "frexp", [torch.tensor([0.0, 1e-7, -2.0, INF, NAN], dtype=d)],
                          torch.frexp, mode="emulated", backward=False))
    return cs


# --------------------------------------------------------------------------
# igamma, igammac

def igamma_cases(op):
    r = Rand(op)
    fn = getattr(torch, op)
    cs = []
    nog = [False, True]

    def add(name, a, x, backward=True, mode="bench", grad=True, **kw):
        cs.append(checked("%s/%s" % (op, name), op, [a, x], fn, attrs={"inplace": False}, backward=backward,
                          requires_grad=[False, grad and backward and x.dtype.is_floating_point], mode=mode, **kw))

    # every branch of calc_igamma: boundaries, series, continued fraction,
    # the asymptotic series (20 < a < 200 and a > 200 with x ~ a)
    a = torch.tensor([0.0, 0.0, 1.0, 1.0, -1.0, 2.0, INF, NAN, 0.5, INF, 1.0, 3.0, 2.0], dtype=f64)
    x = torch.tensor([0.0, 1.0, 0.0, INF, 1.0, -1.0, 3.0, 1.0, 0.0, INF, NAN, INF, 1e-300], dtype=f64)
    add("boundaries", a, x, backward=False)
    av = torch.tensor([0.1, 0.5, 1.0, 2.5, 7.0, 15.0, 25.0, 50.0, 150.0, 250.0, 1000.0, 3.0, 0.3, 1e-3, 40.0], dtype=f64)
    xv = torch.tensor([0.05, 0.3, 0.7, 1.05, 1.2, 3.0, 26.0, 45.0, 160.0, 255.0, 1010.0, 0.4, 0.45, 5.0, 12.0], dtype=f64)
    add("branches", av, xv)
    add("grid", r.rand([6, 1], f64, 0.05, 30.0), r.rand([1, 7], f64, 0.01, 40.0))
    add("small_x", r.rand([10], f64, 0.1, 5.0), r.rand([10], f64, 1e-4, 0.5))
    add("large", r.rand([8], f64, 180.0, 600.0), r.rand([8], f64, 170.0, 650.0))
    add("0d", torch.tensor(2.5, dtype=f64), torch.tensor(1.75, dtype=f64))
    add("0d_broadcast", torch.tensor(4.0, dtype=f64), r.rand([2, 3], f64, 0.1, 9.0))
    add("empty", torch.zeros(0, 2, dtype=f64), torch.ones(1, 2, dtype=f64))
    add("int_float", torch.tensor([1, 2, 5]), r.rand([3], f64, 0.1, 6.0))
    add("float_int", r.rand([3], f64, 0.1, 6.0), torch.tensor([1, 2, 5]), backward=False)
    add("f32_f64", r.rand([4], f32, 0.5, 3.0), r.rand([4], f64, 0.5, 3.0))
    add("0d_f64_f32", torch.tensor(2.0, dtype=f64), r.rand([4], f32, 0.5, 3.0))
    cs.append(error_case("%s/int_int" % op, op, [torch.tensor([1, 2]), torch.tensor([2, 3])], fn, attrs={"inplace": False}))
    cs.append(error_case("%s/bool" % op, op, [torch.tensor([True]), torch.tensor([False])], fn, attrs={"inplace": False}))
    cs.append(error_case("%s/shape" % op, op, [torch.ones(2, dtype=f64), torch.ones(3, dtype=f64)], fn, attrs={"inplace": False}))
    # in place: the result cast to self's dtype
    ip = getattr(torch.Tensor, op + "_")
    cs.append(case("%s/inplace" % op, op, [r.rand([3], f32, 0.5, 4.0), r.rand([3], f64, 0.5, 4.0)],
                   lambda a, x: ip(a.clone(), x), attrs={"inplace": True}, backward=False, ulp=2.0))
    cs.append(error_case("%s/inplace_broadcast" % op, op, [torch.ones(1, dtype=f64), torch.ones(3, dtype=f64)],
                         lambda a, x: ip(a.clone(), x), attrs={"inplace": True}))
    for d in NARROW:
        # float16 has no backward in PyTorch 1.13 (lgamma_vml_cpu lacks
        # Half): its backward case differentiates nothing
        g = d != f16
        add("emu/%s" % dn(d), r.rand([12], f64, 0.05, 30.0).to(d), r.rand([12], f64, 0.01, 35.0).to(d), mode="emulated", grad=g)
        add("emu/%s_asym" % dn(d), r.rand([6], f64, 25.0, 60.0).to(d), r.rand([6], f64, 25.0, 60.0).to(d), mode="emulated", grad=g)
    return cs


# --------------------------------------------------------------------------
# renorm

def renorm_cases():
    r = Rand("renorm")
    cs = []

    def add(name, x, p, dim, maxnorm, mode="bench", backward=True, **kw):
        a = {"p": fl(p), "dim": dim, "maxnorm": fl(maxnorm), "inplace": False}
        cs.append(checked("renorm/" + name, "renorm", [x], lambda t: torch.renorm(t, p, dim, maxnorm), attrs=a,
                          mode=mode, backward=backward, **kw))

    x = r.randn([4, 5]) * 3
    add("p2_dim0", x, 2, 0, 4.0)
    add("p1_dim1", x, 1, 1, 2.5)
    add("p3_negdim", x, 3, -1, 3.0)
    add("pinf", x, INF, 0, 2.0)
    add("p_frac", x.abs() + 0.1, 1.5, 1, 1.0)
    add("none_exceed", x, 2, 0, 1e6)
    add("maxnorm0", x, 2, 1, 0.0)
    add("3d", r.randn([2, 3, 4]) * 2, 2, 1, 2.0)
    add("3d_dim2", r.randn([2, 3, 4]) * 2, 2, 2, 1.5)
    add("empty", torch.zeros(0, 3, dtype=f64), 2, 1, 1.0)
    add("zero_slice", torch.tensor([[0.0, 0.0], [3.0, 4.0]], dtype=f64), 2, 0, 1.0)
    err = {"p": fl(2), "dim": 0, "maxnorm": fl(1.0), "inplace": False}
    cs.append(error_case("renorm/1d", "renorm", [torch.ones(3, dtype=f64)], lambda t: torch.renorm(t, 2, 0, 1.0), attrs=err))
    cs.append(error_case("renorm/p0", "renorm", [x], lambda t: torch.renorm(t, 0, 0, 1.0), attrs=dict(err, p=fl(0))))
    cs.append(error_case("renorm/pneg", "renorm", [x], lambda t: torch.renorm(t, -1, 0, 1.0), attrs=dict(err, p=fl(-1))))
    cs.append(error_case("renorm/maxnorm_neg", "renorm", [x], lambda t: torch.renorm(t, 2, 0, -3.0), attrs=dict(err, maxnorm=fl(-3.0))))
    cs.append(error_case("renorm/dim", "renorm", [x], lambda t: torch.renorm(t, 2, 2, 1.0), attrs=dict(err, dim=2)))
    cs.append(case("renorm/inplace", "renorm", [x.clone()], lambda t: t.clone().renorm_(2, 0, 4.0),
                   attrs=dict(err, maxnorm=fl(4.0), inplace=True), backward=False))
    for d in NARROW:
        add("emu/%s" % dn(d), (r.randn([4, 5]) * 2).to(d), 2, 1, 3.0, mode="emulated")
        add("emu/%s_p1" % dn(d), (r.randn([2, 3, 4]) * 2).to(d), 1, 0, 4.0, mode="emulated")
    # renorm_backward at a narrow dtype: the norm and the sum of
    # self * grad at float, self * grad and norm_backward's powers of self
    # at the dtype (ulp 0: PyTorch's bits)
    for d in (bf16, f16):
        for p, tag in ((2, "p2"), (3, "p3"), (1.5, "p1.5"), (1, "p1"), (INF, "pinf")):
            n = "renorm/%s/%s_rounded_steps" % (tag, dn(d))
            x = (Rand(n).randn([8, 8]) * 2).to(d)
            cs.append(case(n, "renorm", [x], lambda t, p=p: torch.renorm(t, p, 0, 3.0),
                           attrs={"p": fl(p), "dim": 0, "maxnorm": fl(3.0), "inplace": False}, mode="emulated", ulp=0))
    return cs


# --------------------------------------------------------------------------
# diagonal_scatter, slice_scatter

def scatter_cases():
    r = Rand("scatter")
    cs = []

    def diag(name, x, src, offset=0, d1=0, d2=1, mode="bench", backward=True, error=False):
        a = {"offset": offset, "dim1": d1, "dim2": d2}
        f = lambda t, s: torch.diagonal_scatter(t, s, offset, d1, d2)
        if error:
            cs.append(error_case("diagonal_scatter/" + name, "diagonal_scatter", [x, src], f, attrs=a))
        else:
            cs.append(checked("diagonal_scatter/" + name, "diagonal_scatter", [x, src], f, attrs=a, mode=mode, backward=backward))

    diag("main", r.randn([3, 4]), r.randn([3]))
    diag("offset2", r.randn([3, 4]), r.randn([2]), 2)
    diag("offset_neg", r.randn([4, 3]), r.randn([2]), -2)
    diag("3d", r.randn([2, 3, 4]), r.randn([4, 2]), 0, 1, 0)
    diag("3d_negdims", r.randn([2, 3, 4]), r.randn([2, 2]), 1, -1, -2)
    diag("empty_diag", r.randn([2, 3]), torch.zeros(0, dtype=f64), 5)
    diag("int_self", torch.zeros(3, 3, dtype=torch.int32), r.randn([3]) * 5, backward=False)
    diag("float_int_src", r.randn([3, 3]), torch.tensor([1, -2, 3]), backward=True)
    diag("bool", torch.zeros(2, 2, dtype=torch.bool), torch.tensor([True, False]), backward=False)
    diag("size", r.randn([3, 4]), r.randn([4]), error=True)
    diag("same_dims", r.randn([3, 4]), r.randn([3]), 0, 1, 1, error=True)

    def sl(name, x, src, dim=0, start=None, end=None, step=1, mode="bench", backward=True, error=False):
        a = {"dim": dim, "start": start, "end": end, "step": step}
        f = lambda t, s: torch.slice_scatter(t, s, dim, start, end, step)
        if error:
            cs.append(error_case("slice_scatter/" + name, "slice_scatter", [x, src], f, attrs=a))
        else:
            cs.append(checked("slice_scatter/" + name, "slice_scatter", [x, src], f, attrs=a, mode=mode, backward=backward))

    sl("all", r.randn([4, 3]), r.randn([4, 3]))
    sl("range", r.randn([5, 3]), r.randn([2, 3]), 0, 1, 3)
    sl("step", r.randn([3, 6]), r.randn([3, 3]), 1, None, None, 2)
    sl("negdim_start", r.randn([2, 3, 5]), r.randn([2, 3, 2]), -1, -2, None)
    sl("clamped", r.randn([4, 4]), r.randn([4, 4]), 1, -10, 100)
    sl("empty", r.randn([4, 4]), torch.zeros(4, 0, dtype=f64), 1, 3, 1)
    sl("step3", r.randn([7, 2]), r.randn([2, 2]), 0, 1, 6, 3)
    sl("int", torch.arange(12, dtype=torch.int64).reshape(3, 4), torch.ones(3, 2, dtype=torch.int64) * 7, 1, 0, 4, 2, backward=False)
    sl("int_self_float_src", torch.zeros(4, dtype=torch.int16), torch.tensor([2.7, -3.9], dtype=f64), 0, 1, 3, backward=False)
    sl("size", r.randn([4, 4]), r.randn([2, 2]), -1, 1, 4, 2, error=True)
    sl("step0", r.randn([4, 4]), r.randn([4, 2]), -1, 1, 4, 0, error=True)
    sl("0d", torch.tensor(2.0, dtype=f64), torch.tensor(1.0, dtype=f64), 0, None, None, 1, error=True)
    for d in NARROW:
        diag("emu/%s" % dn(d), r.randn([4, 4]).to(d), r.randn([3]).to(d), 1, mode="emulated")
        sl("emu/%s" % dn(d), r.randn([4, 5]).to(d), r.randn([4, 2]).to(d), 1, 1, 5, 2, mode="emulated")
    return cs


# --------------------------------------------------------------------------
# fill_diagonal_

def fill_diagonal_cases():
    r = Rand("fill_diagonal")
    cs = []

    def add(name, x, v, wrap=False, mode="bench", backward=True, error=False):
        a = {"wrap": wrap}

        def f(t, val):
            return (t * 1 if t.requires_grad else t.clone()).fill_diagonal_(val, wrap)
        if error:
            cs.append(error_case("fill_diagonal/" + name, "fill_diagonal", [x, v], f, attrs=a))
        else:
            cs.append(case("fill_diagonal/" + name, "fill_diagonal", [x, v], f, attrs=a, mode=mode, backward=backward))

    add("square", r.randn([3, 3]), 5.0)
    add("wide", r.randn([3, 5]), -1.5)
    add("tall", r.randn([7, 3]), 2.0)
    add("tall_wrap", r.randn([7, 3]), 2.0, wrap=True)
    add("tall_wrap_exact", r.randn([8, 3]), 0.25, wrap=True)
    add("wrap_short", r.randn([4, 3]), 9.0, wrap=True)
    add("cube", r.randn([3, 3, 3]), 1.0)
    add("int_value", r.randn([2, 2]), 3)
    add("int_self", torch.zeros(3, 3, dtype=torch.int64), 2.7, backward=False)
    add("bool_self", torch.zeros(3, 3, dtype=torch.bool), 2.7, backward=False)
    add("uint8_bool_value", torch.ones(2, 4, dtype=torch.uint8), True, backward=False)
    add("nan", r.randn([2, 2]), NAN)
    add("empty", torch.zeros(0, 3, dtype=f64), 1.0)
    add("1d", torch.zeros(3, dtype=f64), 1.0, error=True)
    add("unequal", torch.zeros(3, 3, 2, dtype=f64), 1.0, error=True)
    for d in NARROW:
        add("emu/%s" % dn(d), r.randn([4, 3]).to(d), 0.1, wrap=True, mode="emulated")
    return cs


# --------------------------------------------------------------------------
# sum_to_size

def sum_to_size_cases():
    r = Rand("sum_to_size")
    cs = []

    def add(name, x, size, mode="bench", backward=True, error=False, **kw):
        a = {"size": attr("ints", list(size))}
        f = lambda t: t.sum_to_size(size)
        if error:
            cs.append(error_case("sum_to_size/" + name, "sum_to_size", [x], f, attrs=a))
        else:
            cs.append(checked("sum_to_size/" + name, "sum_to_size", [x], f, attrs=a, mode=mode, backward=backward, **kw))

    x = r.randn([2, 3, 4])
    add("lead", x, (3, 4))
    add("ones", x, (2, 1, 4))
    add("lead_ones", x, (1, 1))
    add("all", x, ())
    add("same", x, (2, 3, 4))
    add("one_keep", r.randn([3, 1]), (1, 1))
    add("int32", torch.arange(6, dtype=torch.int32).reshape(2, 3), (3,), backward=False)
    add("int32_same", torch.arange(6, dtype=torch.int32).reshape(2, 3), (2, 3), backward=False)
    add("bool", torch.tensor([[True, False], [True, True]]), (1, 2), backward=False)
    add("empty", torch.zeros(0, 3, dtype=f64), (3,))
    add("bad", x, (2,), error=True)
    add("too_long", x, (1, 2, 3, 4), error=True)
    for d in NARROW:
        add("emu/%s" % dn(d), r.randn([5, 6]).to(d), (1, 6), mode="emulated")
    return cs


# --------------------------------------------------------------------------
# _foreach_norm

def foreach_norm_cases():
    r = Rand("foreach_norm")
    cs = []

    def add(name, ts, ordv=2.0, mode="bench", **kw):
        cs.append(checked("foreach_norm/" + name, "foreach_norm", ts, lambda *t: torch._foreach_norm(list(t), ordv),
                          attrs={"ord": fl(ordv)}, backward=False, mode=mode, **kw))

    ts = [r.randn([3, 4]), r.randn([5]), torch.tensor(-2.5, dtype=f64)]
    add("p2", ts)
    add("p1", ts, 1.0)
    add("p3", ts, 3.0)
    add("p_half", ts, 0.5)
    add("pinf", ts, INF)
    add("pneginf", ts, -INF)
    add("p0", [torch.tensor([0.0, 1.0, 0.0, -2.0], dtype=f64)], 0.0)
    add("one", [r.randn([2, 2])])
    add("empty_tensor", [torch.zeros(0, dtype=f64), r.randn([2])])
    add("mixed", [r.randn([3]).to(f32), r.randn([3])])
    cs.append(error_case("foreach_norm/int", "foreach_norm", [torch.tensor([1, 2])], lambda *t: torch._foreach_norm(list(t)),
                         attrs={"ord": fl(2.0)}))
    for d in NARROW:
        add("emu/%s" % dn(d), [r.randn([4, 5]).to(d), r.randn([7]).to(d)], mode="emulated")
    return cs


# --------------------------------------------------------------------------
# histogram, histogramdd

def flat_dd(r):
    """histogramdd's (hist, (edges...)) as the op's flat outputs."""
    return [r[0]] + list(r[1])


def histogram_cases():
    r = Rand("histogram")
    cs = []

    def rng(v):
        return None if v is None else attr("floats", [float(e) for e in v])

    def hist(name, x, bins, range=None, weight=None, density=False, mode="bench", error=False):
        a = {"bins": attr("ints", [bins]), "range": rng(range), "density": density, "flat": True}
        f = lambda t, w: torch.histogram(t, bins, range=range, weight=w, density=density)
        n = "histogram/" + name
        if error:
            cs.append(error_case(n, "histogram", [x, weight], f, attrs=a, mode=mode))
        else:
            cs.append(case(n, "histogram", [x, weight], f, attrs=a, backward=False, mode=mode))

    x = torch.tensor([1.0, 2.0, 1.0, 2.5, 4.0, -1.0], dtype=f64)
    hist("basic", x, 4)
    hist("default_bins", r.randn([50]), 100)
    hist("range", x, 3, (0.0, 3.0))
    hist("range_int", x, 3, (0, 3))
    hist("weight_density", x, 3, weight=torch.ones(6, dtype=f64) * 2, density=True)
    hist("weight", r.randn([20]), 5, weight=r.rand([20]))
    hist("density", r.randn([30]), 7, density=True)
    hist("2d_input", r.randn([4, 5]), 6)
    hist("empty", torch.zeros(0, dtype=f64), 3)
    hist("equal", torch.tensor([2.0, 2.0], dtype=f64), 3)
    hist("outside_range", r.randn([25]) * 3, 4, (-1.0, 1.0))
    # NaN passes PyTorch 1.13's range test: bin 1 with linspace edges (bin 0
    # with one bin), the last bin with edge tensors (x86)
    hist("nan_in_range", torch.tensor([NAN, 0.9, NAN, 0.2], dtype=f64), 4, (0.0, 1.0))
    hist("nan_one_bin", torch.tensor([NAN, 0.5], dtype=f64), 1, (0.0, 1.0))
    hist("edges_exact", torch.tensor([0.0, 0.1, 0.2, 0.3, 0.7, 0.9, 1.0], dtype=f64), 10)
    hist("nan", torch.tensor([NAN, 1.0], dtype=f64), 3, error=True)
    hist("inf", torch.tensor([INF, 1.0], dtype=f64), 3, error=True)
    hist("min_gt_max", x, 3, (2.0, 1.0), error=True)
    hist("bins0", x, 0, error=True)
    hist("weight_shape", x, 3, weight=torch.ones(5, dtype=f64), error=True)
    hist("int", torch.tensor([1, 2]), 3, error=True)

    def hedges(name, x, bins, weight=None, density=False, mode="bench", error=False):
        a = {"density": density, "flat": True}
        f = lambda t, w, b: torch.histogram(t, b, weight=w, density=density)
        n = "histogram_edges/" + name
        if error:
            cs.append(error_case(n, "histogram_edges", [x, weight, bins], f, attrs=a, mode=mode))
        else:
            cs.append(case(n, "histogram_edges", [x, weight, bins], f, attrs=a, backward=False, mode=mode))

    hedges("basic", x, torch.tensor([0.0, 1.0, 2.0, 5.0], dtype=f64))
    hedges("weight_density", x, torch.tensor([0.0, 1.0, 2.0, 5.0], dtype=f64), weight=torch.ones(6, dtype=f64) * 2, density=True)
    hedges("unsorted", x, torch.tensor([3.0, 1.0, 2.0, 5.0], dtype=f64))
    hedges("nan", torch.tensor([NAN, 0.15, NAN], dtype=f64), torch.tensor([0.0, 0.1, 0.2, 1.0], dtype=f64))
    hedges("one_edge", x, torch.tensor([1.0], dtype=f64), error=True)
    hedges("dtype", x.to(f32), torch.tensor([0.0, 1.0], dtype=f64), error=True)

    def hdd(name, x, bins, range=None, weight=None, density=False, mode="bench", error=False):
        d = x.shape[-1]
        bl = [bins] * d if isinstance(bins, int) else list(bins)
        a = {"bins": attr("ints", bl), "range": rng(range), "density": density, "flat": False}
        f = lambda t, w: flat_dd(torch.histogramdd(t, bins, range=range, weight=w, density=density))
        n = "histogramdd/" + name
        if error:
            cs.append(error_case(n, "histogram", [x, weight], f, attrs=a, mode=mode))
        else:
            cs.append(case(n, "histogram", [x, weight], f, attrs=a, backward=False, mode=mode))

    y = torch.tensor([[0.0, 0.0], [1.0, 1.0], [2.0, 0.5], [1.0, 3.0]], dtype=f64)
    hdd("basic", y, [2, 2])
    hdd("int_bins", y, 2)
    hdd("range_density", y, [2, 3], [0.0, 2.0, 0.0, 3.0], density=True)
    hdd("weight", y, [2, 2], weight=torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=f64))
    hdd("3d_points", r.randn([2, 10, 3]), [2, 3, 4])
    hdd("1d_points", r.randn([9, 1]), [4])
    hdd("nan", torch.tensor([[NAN, 0.5], [0.2, NAN], [0.1, 0.1]], dtype=f64), [3, 4], [0.0, 1.0, 0.0, 1.0])
    hdd("1d_input", torch.ones(3, dtype=f64), [2], error=True)

    def hddedges(name, x, bins, weight=None, density=False, mode="bench"):
        a = {"density": density, "flat": False}
        f = lambda t, w, *b: flat_dd(torch.histogramdd(t, list(b), weight=w, density=density))
        cs.append(case("histogramdd_edges/" + name, "histogram_edges", [x, weight] + list(bins), f, attrs=a, backward=False, mode=mode))

    hddedges("basic", y, [torch.tensor([0.0, 1.0, 2.0], dtype=f64), torch.tensor([0.0, 1.0, 4.0], dtype=f64)])
    hddedges("density", y, [torch.tensor([0.0, 1.5, 2.0], dtype=f64), torch.tensor([-1.0, 0.7, 1.0, 4.0], dtype=f64)],
             weight=torch.tensor([1.0, 0.5, 3.0, 4.0], dtype=f64), density=True)
    # float32 (the only narrow dtype with a kernel): bin edges and positions
    # computed at float32
    v = r.randn([100]).to(f32)
    hist("emu/float32", v, 13, mode="emulated")
    hist("emu/float32_range_density", v, 10, (-2.0, 2.0), weight=r.rand([100]).to(f32), density=True, mode="emulated")
    hist("emu/float32_edges", torch.tensor([-1.0, 0.0, 0.05, 0.95, 1.0, 0.3], dtype=f32), 20, mode="emulated")
    hedges("emu/float32", v, torch.tensor([-3.0, -0.5, 0.0, 0.1, 2.0], dtype=f32), mode="emulated")
    hdd("emu/float32", r.randn([50, 2]).to(f32), [3, 4], mode="emulated")
    # bin edge tensors also run at bfloat16 (histogram_cpu), not float16
    hedges("emu/bfloat16", v.to(bf16), torch.tensor([-3.0, -0.5, 0.0, 0.1, 2.0], dtype=bf16), mode="emulated")
    hedges("emu/bfloat16_density", v.to(bf16), torch.tensor([-2.0, 0.0, 0.5, 2.0], dtype=bf16), weight=r.rand([100]).to(bf16),
           density=True, mode="emulated")
    hedges("emu/float16", x.to(f16), torch.tensor([0.0, 1.0], dtype=f16), mode="emulated", error=True)
    for d in (bf16, f16):
        hist("emu/%s" % dn(d), x.to(d), 3, mode="emulated", error=True)
    return cs


# --------------------------------------------------------------------------
# resize_

def resize_cases():
    r = Rand("resize")
    cs = []

    def add(name, x, size, mode="bench"):
        cs.append(case("resize/" + name, "resize", [x], lambda t: t.clone().resize_(size), attrs={"size": attr("ints", list(size))},
                       backward=False, mode=mode))

    x = r.randn([3, 4])
    add("shrink", x, (2, 3))
    add("same", x, (4, 3))
    add("flat", x, (12,))
    add("zero", x, (0,))
    add("0d", x, ())
    add("int", torch.arange(10, dtype=torch.int32), (2, 2))
    add("bool", torch.tensor([True, False, True]), (1, 2))
    for d in NARROW:
        add("emu/%s" % dn(d), x.to(d), (5,), mode="emulated")
    return cs


# --------------------------------------------------------------------------
# choose_qparams_optimized (float32 only in PyTorch: the bench cases are
# float32 too, the kernel computes as PyTorch does)

def choose_qparams_cases():
    r = Rand("choose_qparams")
    cs = []

    def add(name, x, numel, n_bins=200, ratio=0.16, bit_width=8, mode="bench", error=False):
        a = {"numel": numel, "n_bins": n_bins, "ratio": fl(ratio), "bit_width": bit_width}
        f = lambda t: torch.choose_qparams_optimized(t, numel, n_bins, ratio, bit_width)
        n = "choose_qparams_optimized/" + name
        if error:
            cs.append(error_case(n, "choose_qparams_optimized", [x], f, attrs=a, mode=mode))
        else:
            cs.append(case(n, "choose_qparams_optimized", [x], f, attrs=a, backward=False, mode=mode, rtol=0.0, atol=0.0, ulp=0.0))

    add("randn", r.randn([100]).to(f32), 100)
    add("partial", r.randn([64]).to(f32) * 3, 40)
    add("4bit", r.randn([10, 10]).to(f32), 100, 100, 0.2, 4)
    add("skewed", (r.rand([80]) ** 3 * 10 - 1).to(f32), 80, 50, 0.5, 2)
    add("outliers", torch.cat([r.randn([60]) * 0.1, torch.tensor([8.0, -9.0])]).to(f32), 62)
    add("const", torch.ones(5, dtype=f32), 5)
    add("single", torch.tensor([2.5], dtype=f32), 1)
    add("numel", r.randn([5]).to(f32), 6, error=True)
    add("emu/float32", r.randn([3, 50]).to(f32), 150, mode="emulated")
    for d in (f16, bf16, torch.int32):
        add("emu/%s" % dn(d), r.randn([8]).to(d), 8, mode="emulated", error=True)
    return cs


# --------------------------------------------------------------------------
# stft, istft (the real form, return_complex=False)

STFT_KEYS = ("hop_length", "win_length", "center", "pad_mode", "normalized", "onesided")


def stft_cases():
    r = Rand("stft")
    cs = []

    def attrs(op, n_fft, kw):
        a = {"n_fft": n_fft, "hop_length": None, "win_length": None, "center": True, "normalized": False, "onesided": None}
        if op == "stft":
            a["pad_mode"] = "reflect"
        else:
            a["length"] = None
        a.update(kw)
        return a

    def add(name, x, n_fft, window=None, mode="bench", tol=None, **kw):
        a = attrs("stft", n_fft, kw)
        f = lambda t, w: torch.stft(t, n_fft, window=w, return_complex=False, **kw)
        if tol is None and mode == "emulated":
            tol = {"atol": 8 * n_fft * torch.finfo(x.dtype).eps * float(x.abs().max()), "rtol": 1e-5}
        cs.append(case("stft/" + name, "stft", [x, window], f, attrs=a, mode=mode, requires_grad=[True, False], **(tol or {})))

    sig = r.randn([16])
    hann = torch.hann_window(8, dtype=f64)
    add("default", sig, 8)
    add("hann", sig, 8, hann)
    add("hop_win", sig, 8, torch.hann_window(5, dtype=f64), hop_length=3, win_length=5)
    add("win_no_window", sig, 8, win_length=5, hop_length=5)
    add("odd_nfft", sig, 7, torch.hamming_window(7, dtype=f64), hop_length=3)
    add("no_center", sig, 8, hann, center=False)
    add("constant", sig[:12], 6, pad_mode="constant", hop_length=2)
    add("replicate", sig[:12], 6, pad_mode="replicate", hop_length=2)
    add("circular", sig[:12], 6, pad_mode="circular", hop_length=2)
    add("normalized", sig, 8, hann, normalized=True)
    add("twosided", sig, 6, onesided=False, hop_length=3)
    add("batch", r.randn([2, 16]), 4, torch.hann_window(4, dtype=f64), hop_length=3)
    add("f32_window_f64", sig.to(f32), 8, hann)

    def iadd(name, spec, n_fft, window=None, mode="bench", tol=None, **kw):
        a = attrs("istft", n_fft, kw)
        f = lambda t, w: torch.istft(t, n_fft, window=w, **kw)
        if tol is None and mode == "emulated":
            tol = {"atol": 8 * n_fft * torch.finfo(spec.dtype).eps * float(spec.abs().max()), "rtol": 1e-5}
        cs.append(case("istft/" + name, "istft", [spec, window], f, attrs=a, mode=mode, requires_grad=[True, False], **(tol or {})))

    def spec(x, n_fft, w=None, **kw):
        return torch.stft(x, n_fft, window=w, return_complex=False, **kw).detach()

    iadd("roundtrip", spec(sig, 8, hann), 8, hann)
    iadd("rect", spec(sig, 8), 8)
    iadd("random", r.randn([5, 7, 2]), 8, hann)
    iadd("length_short", spec(sig, 8, hann), 8, hann, length=12)
    iadd("length_long", spec(sig, 8, hann), 8, hann, length=22)
    iadd("no_center", spec(sig, 8, torch.ones(8, dtype=f64), center=False), 8, torch.ones(8, dtype=f64), center=False)
    iadd("hop_win", spec(sig, 8, torch.hann_window(5, dtype=f64), hop_length=3, win_length=5), 8, torch.hann_window(5, dtype=f64),
         hop_length=3, win_length=5)
    iadd("odd_nfft", r.randn([4, 6, 2]), 7, torch.hann_window(7, dtype=f64), hop_length=3)
    iadd("normalized", spec(sig, 8, hann, normalized=True), 8, hann, normalized=True)
    iadd("twosided", spec(sig, 6, onesided=False, hop_length=3), 6, onesided=False, hop_length=3)
    iadd("batch", spec(r.randn([2, 16]), 4, torch.hann_window(4, dtype=f64), hop_length=2), 4, torch.hann_window(4, dtype=f64), hop_length=2)
    for d in (f32,):
        add("emu/%s" % dn(d), r.randn([32]).to(d), 16, torch.hann_window(16, dtype=d), hop_length=8, mode="emulated")
        add("emu/%s_rect" % dn(d), r.randn([2, 12]).to(d), 6, hop_length=3, mode="emulated")
        iadd("emu/%s" % dn(d), spec(r.randn([32]).to(d), 16, torch.hann_window(16, dtype=d), hop_length=8), 16,
             torch.hann_window(16, dtype=d), hop_length=8, mode="emulated")
    for d in (f16, bf16):
        cs.append(error_case("stft/emu/%s" % dn(d), "stft", [r.randn([20]).to(d), None], lambda t, w: torch.stft(t, 8, center=False, return_complex=False),
                             attrs=attrs("stft", 8, {"center": False}), mode="emulated"))
        x = spec(r.randn([20]), 8).to(d)
        cs.append(error_case("istft/emu/%s" % dn(d), "istft", [x, None], lambda t, w: torch.istft(t, 8), attrs=attrs("istft", 8, {}), mode="emulated"))
    return cs


if __name__ == "__main__":
    cs = frexp_cases() + igamma_cases("igamma") + igamma_cases("igammac") + renorm_cases() + scatter_cases()
    cs += fill_diagonal_cases() + sum_to_size_cases() + foreach_norm_cases() + histogram_cases() + resize_cases()
    cs += choose_qparams_cases() + stft_cases()
    write_group("misc2", cs)
    for line in REPORT:
        print(line)
