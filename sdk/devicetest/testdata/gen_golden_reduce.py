"""Golden cases of the reduce family (sdk/ops/schema_reduce.go): prod,
nansum, nanmean, amax/amin, logsumexp, all/any, count_nonzero, cumprod,
logcumsumexp, var/std/var_mean/std_mean, norm (torch.linalg.vector_norm),
aminmax; selection: argmax/argmin, sort, topk, kthvalue, median/nanmedian
(op median without a dim, median_dim with one), mode, cummax/cummin,
quantile/nanquantile (float32 and float64 only in PyTorch 1.13: the
narrow-dtype cases are float32, and errors at float16 and bfloat16),
histc (no float16 kernel in 1.13), bincount, searchsorted (also
bucketize's op), unique (Tensor.unique and unique_consecutive; no float16
kernel in 1.13; no NaN in sorted cases: 1.13's sorted unique mislabels
NaNs, giving counts of 0).

Ties in selection: argmax/argmin take the first extreme (the first NaN),
as PyTorch 1.13's CPU kernels do; sort is the stable order (cases with
ties run torch.sort with stable=True: the default CPU sort is unstable
on long rows); topk and kthvalue cases have no ties (PyTorch leaves the
index among equal values unspecified), nor have median_dim's (CPU
median picks with nth_element); mode's rows are shorter than 16, where
std::sort is an insertion sort and the mode's index is the last one
holding it; cummax/cummin hand the index to an equal value or a NaN.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_reduce.py

writes golden/reduce_family.json.gz from real PyTorch 1.13 (format:
golden_lib.py; gen_golden.py's group "reduce" holds sum, mean, max, min and
cumsum). Bench cases compute in float64 (integer and bool cases at their
own dtype); every op also has emulated cases at float32, float16 and
bfloat16 (named .../<dtype>, with "_via_f32" where PyTorch 1.13's CPU has
no kernel at the dtype: computed in float32 and rounded, as gen_golden_dtypes.py
does). Inputs of backward cases have no ties, zeros only where the case is
about them, and no NaN or infinity.
"""

import torch

from golden_lib import Rand, case, error_case, write_group

torch.manual_seed(0)
f64 = torch.float64
NARROW = (torch.float32, torch.float16, torch.bfloat16)
NAMES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}


def special():
    return torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.5, -2.0], dtype=f64)


def via_f32(fn, d):
    """fn computed in float32, floating outputs rounded to d."""
    def wrapped(*xs):
        args = [x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        out = fn(*args)
        single = isinstance(out, torch.Tensor)
        outs = (out,) if single else tuple(out)
        outs = tuple(o.to(d) if o.dtype == torch.float32 else o for o in outs)
        return outs[0] if single else outs
    return wrapped


def narrow(cs, name, op, inputs, fn, attrs=None, backward=True, ulp=None, positive_grads=False):
    """Emulated cases of fn at float32, float16 and bfloat16 (float inputs
    cast from float64)."""
    for d in NARROW:
        xs = [v.to(d) if isinstance(v, torch.Tensor) and v.dtype.is_floating_point else v for v in inputs]
        n = "%s/%s" % (name, NAMES[d])
        u = ulp.get(d) if isinstance(ulp, dict) else ulp
        go = None
        if positive_grads:
            # PyTorch's narrow backward of these ops cancels mixed-sign
            # gradients in the dtype: well-conditioned ones only
            with torch.no_grad():
                out = fn(*[v.double() if isinstance(v, torch.Tensor) and v.dtype.is_floating_point else v for v in xs])
            go = [Rand(n + "#go").rand(out.shape, f64, 0.5, 1.5).to(d)]
        try:
            c = case(n, op, xs, fn, attrs=attrs, backward=backward, mode="emulated", ulp=u, grad_outputs=go)
        except RuntimeError:
            c = case(n + "_via_f32", op, xs, via_f32(fn, d), attrs=attrs, backward=backward, mode="emulated", ulp=u, grad_outputs=go)
        cs.append(c)


def distinct(r, shape, lo=0.5, hi=1.5):
    """Values without ties or zeros, random signs."""
    n = 1
    for s in shape:
        n *= s
    mag = torch.linspace(lo, hi, max(n, 1), dtype=f64)[:n]
    perm = torch.randperm(n, generator=r.g)
    sign = torch.where(r.bool((n,)), 1.0, -1.0).to(f64)
    return (mag[perm] * sign).reshape(shape)


def reduce_family_cases():
    cs = []
    r = Rand("reduce_family")
    x = r.randn((2, 3, 4))
    xi = r.randint(-4, 5, (3, 4), torch.int32)
    xb = r.bool((3, 4))

    # ---- prod
    def prod(x, dim=None, keepdim=False, dtype=None):
        if dim is None:
            return torch.prod(x, dtype=dtype)
        return torch.prod(x, dim, keepdim=keepdim, dtype=dtype)
    px = distinct(r, (2, 3, 4), 0.6, 1.6)
    cs.append(case("prod/all", "prod", [px], prod))
    cs.append(case("prod/dim1", "prod", [px], lambda x: prod(x, 1), attrs={"dim": [1]}))
    cs.append(case("prod/dim_neg_keepdim", "prod", [px], lambda x: prod(x, -1, True), attrs={"dim": [-1], "keepdim": True}))
    cs.append(case("prod/dim_int_attr", "prod", [px], lambda x: prod(x, 0), attrs={"dim": 0}))
    z = torch.tensor([[2.0, 0.0, 3.0, -1.5], [0.0, 4.0, 0.0, 0.5], [1.5, -2.0, 0.5, 3.0]], dtype=f64)
    cs.append(case("prod/one_zero_dim1", "prod", [z], lambda x: prod(x, 1), attrs={"dim": [1]}))
    cs.append(case("prod/zeros_dim0", "prod", [z], lambda x: prod(x, 0), attrs={"dim": [0]}))
    cs.append(case("prod/zeros_all", "prod", [z[:1]], prod))
    # float32: the float64 gradient check cannot see a product's zero
    # gradient through the cubic term of three factors
    cs.append(case("prod/two_zeros_all_float32", "prod", [z[1:2].float()], prod))
    cs.append(case("prod/0d", "prod", [r.randn(())], prod))
    cs.append(case("prod/0d_dim", "prod", [r.randn(())], lambda x: prod(x, 0, True), attrs={"dim": [0], "keepdim": True}))
    cs.append(case("prod/empty_all", "prod", [r.randn((0, 3))], prod))
    cs.append(case("prod/empty_dim0", "prod", [r.randn((0, 3))], lambda x: prod(x, 0), attrs={"dim": [0]}))
    cs.append(case("prod/special", "prod", [special()], prod, backward=False))
    cs.append(case("prod/special_dim", "prod", [special().reshape(7, 1)], lambda x: prod(x, 1), attrs={"dim": [1]}, backward=False))
    cs.append(case("prod/int32", "prod", [xi], prod, backward=False))
    cs.append(case("prod/int32_dim", "prod", [xi], lambda x: prod(x, 1), attrs={"dim": [1]}, backward=False))
    cs.append(case("prod/bool", "prod", [xb], lambda x: prod(x, 0), attrs={"dim": [0]}, backward=False))
    cs.append(case("prod/uint8", "prod", [r.randint(0, 4, (5,), torch.uint8)], prod, backward=False))
    cs.append(case("prod/int_dtype_float", "prod", [xi], lambda x: prod(x, 1, dtype=f64), attrs={"dim": [1], "dtype": "float64"}, backward=False))
    cs.append(case("prod/dtype_float32", "prod", [px], lambda x: prod(x, 2, dtype=torch.float32), attrs={"dim": [2], "dtype": "float32"}, rtol=1e-6))
    cs.append(error_case("prod/dim_range", "prod", [px], lambda x: prod(x, 3), attrs={"dim": [3]}))
    narrow(cs, "prod/dim1", "prod", [px[0]], lambda x: prod(x, 1), attrs={"dim": [1]}, ulp=4)

    # ---- nansum, nanmean
    nanx = torch.tensor([[1.0, float("nan"), 3.0, -0.5], [float("nan"), float("nan"), float("nan"), float("nan")],
                         [2.0, -1.0, float("nan"), 0.25]], dtype=f64)
    for op, f in (("nansum", torch.nansum), ("nanmean", torch.nanmean)):
        def fn(x, dim=None, keepdim=False, dtype=None, f=f):
            if dim is None:
                return f(x, dtype=dtype)
            return f(x, dim, keepdim=keepdim, dtype=dtype)
        cs.append(case(op + "/all", op, [x], fn))
        cs.append(case(op + "/dims_0_2_keepdim", op, [x], lambda x: fn(x, [0, 2], True), attrs={"dim": [0, 2], "keepdim": True}))
        cs.append(case(op + "/dim_neg", op, [x], lambda x: fn(x, -1), attrs={"dim": [-1]}))
        cs.append(case(op + "/nan_dim1", op, [nanx], lambda x: fn(x, 1), attrs={"dim": [1]}))
        cs.append(case(op + "/nan_dim0", op, [nanx], lambda x: fn(x, 0), attrs={"dim": [0]}))
        cs.append(case(op + "/nan_all", op, [nanx], fn))
        cs.append(case(op + "/special", op, [special()], fn, backward=False))
        cs.append(case(op + "/0d", op, [r.randn(())], fn))
        cs.append(case(op + "/0d_nan", op, [torch.tensor(float("nan"), dtype=f64)], fn))
        cs.append(case(op + "/empty_dim0", op, [r.randn((0, 3))], lambda x: fn(x, 0), attrs={"dim": [0]}))
        cs.append(case(op + "/dtype_float32", op, [nanx], lambda x: fn(x, 1, dtype=torch.float32), attrs={"dim": [1], "dtype": "float32"}, rtol=1e-6))
        cs.append(error_case(op + "/dup_dims", op, [x], lambda x: fn(x, [0, -3]), attrs={"dim": [0, -3]}))
        narrow(cs, op + "/nan_dim1", op, [nanx.abs()], lambda x: fn(x, 1), attrs={"dim": [1]})
    cs.append(case("nansum/int32", "nansum", [xi], torch.nansum, backward=False))
    cs.append(case("nansum/int32_dim", "nansum", [xi], lambda x: torch.nansum(x, 0), attrs={"dim": [0]}, backward=False))
    cs.append(case("nansum/bool", "nansum", [xb], lambda x: torch.nansum(x, 1), attrs={"dim": [1]}, backward=False))
    cs.append(error_case("nanmean/int32", "nanmean", [xi], torch.nanmean))

    # ---- amax, amin
    ties = torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 2.0]], dtype=f64)
    for op, f in (("amax", torch.amax), ("amin", torch.amin)):
        def fn(x, dim=(), keepdim=False, f=f):
            return f(x, dim, keepdim)
        cs.append(case(op + "/all", op, [x], fn))
        cs.append(case(op + "/all_empty_list", op, [x], fn, attrs={"dim": []}))
        cs.append(case(op + "/dim1", op, [x], lambda x: fn(x, 1), attrs={"dim": [1]}))
        cs.append(case(op + "/dims_keepdim", op, [x], lambda x: fn(x, (0, -1), True), attrs={"dim": [0, -1], "keepdim": True}))
        cs.append(case(op + "/ties_dim1", op, [ties], lambda x: fn(x, 1), attrs={"dim": [1]}))
        cs.append(case(op + "/ties_neg_all", op, [-ties], fn))
        cs.append(case(op + "/nan_dim1", op, [nanx], lambda x: fn(x, 1), attrs={"dim": [1]}, backward=False))
        cs.append(case(op + "/inf", op, [torch.tensor([float("inf"), float("-inf"), 0.0], dtype=f64)], fn))
        cs.append(case(op + "/signed_zero", op, [torch.tensor([0.0, -0.0], dtype=f64)], fn, backward=False))
        cs.append(case(op + "/0d", op, [r.randn(())], fn))
        cs.append(case(op + "/0d_dim", op, [r.randn(())], lambda x: fn(x, 0, True), attrs={"dim": [0], "keepdim": True}))
        cs.append(case(op + "/empty_other_dim", op, [r.randn((0, 3))], lambda x: fn(x, 1), attrs={"dim": [1]}))
        cs.append(case(op + "/int32", op, [xi], lambda x: fn(x, 0), attrs={"dim": [0]}, backward=False))
        cs.append(case(op + "/bool", op, [xb], lambda x: fn(x, 1), attrs={"dim": [1]}, backward=False))
        cs.append(error_case(op + "/empty_all", op, [r.randn((0, 3))], fn))
        cs.append(error_case(op + "/empty_dim", op, [r.randn((2, 0))], lambda x: fn(x, (0, 1)), attrs={"dim": [0, 1]}))
        cs.append(error_case(op + "/dim_range", op, [x], lambda x: fn(x, 3), attrs={"dim": [3]}))
        narrow(cs, op + "/dim1", op, [x[0]], lambda x: fn(x, 1), attrs={"dim": [1]})

    # ---- logsumexp
    def lse(x, dim, keepdim=False):
        return torch.logsumexp(x, dim, keepdim)
    cs.append(case("logsumexp/dim1", "logsumexp", [x], lambda x: lse(x, 1), attrs={"dim": [1]}))
    cs.append(case("logsumexp/dims_keepdim", "logsumexp", [x], lambda x: lse(x, (0, 2), True), attrs={"dim": [0, 2], "keepdim": True}))
    cs.append(case("logsumexp/dim_neg", "logsumexp", [x * 30], lambda x: lse(x, -1), attrs={"dim": [-1]}))
    cs.append(case("logsumexp/all_dims", "logsumexp", [x], lambda x: lse(x, (0, 1, 2)), attrs={"dim": [0, 1, 2]}))
    cs.append(case("logsumexp/large", "logsumexp", [torch.tensor([1000.0, 999.0, -1000.0], dtype=f64)], lambda x: lse(x, 0), attrs={"dim": [0]}))
    infs = torch.tensor([[float("inf"), 1.0], [float("-inf"), float("-inf")], [float("nan"), 1.0], [float("-inf"), 2.0]], dtype=f64)
    cs.append(case("logsumexp/special", "logsumexp", [infs], lambda x: lse(x, 1), attrs={"dim": [1]}, backward=False))
    cs.append(case("logsumexp/0d", "logsumexp", [r.randn(())], lambda x: lse(x, 0), attrs={"dim": [0]}))
    cs.append(case("logsumexp/empty", "logsumexp", [r.randn((0, 3))], lambda x: lse(x, 0), attrs={"dim": [0]}))
    cs.append(case("logsumexp/int32", "logsumexp", [xi], lambda x: lse(x, 1), attrs={"dim": [1]}, backward=False))
    cs.append(case("logsumexp/bool", "logsumexp", [xb], lambda x: lse(x, 0), attrs={"dim": [0]}, backward=False))
    cs.append(error_case("logsumexp/dim_range", "logsumexp", [x], lambda x: lse(x, 3), attrs={"dim": [3]}))
    narrow(cs, "logsumexp/dim1", "logsumexp", [x[0]], lambda x: lse(x, 1), attrs={"dim": [1]}, ulp=4)

    # ---- all, any
    mixed = torch.tensor([[1.0, 0.0, float("nan")], [2.0, -0.0, 0.0], [0.5, 1.0, float("inf")]], dtype=f64)
    for op, f in (("all", torch.all), ("any", torch.any)):
        def fn(x, dim=None, keepdim=False, f=f):
            return f(x) if dim is None else f(x, dim, keepdim)
        cs.append(case(op + "/float_all", op, [mixed], fn, backward=False))
        cs.append(case(op + "/float_dim1", op, [mixed], lambda x: fn(x, 1), attrs={"dim": [1]}, backward=False))
        cs.append(case(op + "/float_dim0_keepdim", op, [mixed], lambda x: fn(x, 0, True), attrs={"dim": 0, "keepdim": True}, backward=False))
        cs.append(case(op + "/bool_dim_neg", op, [xb], lambda x: fn(x, -1), attrs={"dim": [-1]}, backward=False))
        cs.append(case(op + "/bool_all", op, [xb], fn, backward=False))
        cs.append(case(op + "/int32_dim0", op, [xi], lambda x: fn(x, 0), attrs={"dim": [0]}, backward=False))
        cs.append(case(op + "/uint8", op, [r.randint(0, 3, (2, 5), torch.uint8)], lambda x: fn(x, 1), attrs={"dim": [1]}, backward=False))
        cs.append(case(op + "/uint8_all", op, [r.randint(0, 3, (2, 5), torch.uint8)], fn, backward=False))
        cs.append(case(op + "/empty", op, [torch.zeros((0, 3), dtype=f64)], fn, backward=False))
        cs.append(case(op + "/empty_dim0", op, [torch.zeros((0, 3), dtype=f64)], lambda x: fn(x, 0), attrs={"dim": [0]}, backward=False))
        cs.append(case(op + "/0d", op, [torch.tensor(0.0, dtype=f64)], fn, backward=False))
        cs.append(error_case(op + "/dim_range", op, [xb], lambda x: fn(x, 2), attrs={"dim": [2]}))
        narrow(cs, op + "/dim1", op, [mixed], lambda x: fn(x, 1), attrs={"dim": [1]}, backward=False)

    # ---- count_nonzero
    cnz = torch.count_nonzero
    cs.append(case("count_nonzero/all", "count_nonzero", [mixed], cnz, backward=False))
    cs.append(case("count_nonzero/dim1", "count_nonzero", [mixed], lambda x: cnz(x, 1), attrs={"dim": [1]}, backward=False))
    cs.append(case("count_nonzero/dims", "count_nonzero", [x.round()], lambda x: cnz(x, (0, -1)), attrs={"dim": [0, -1]}, backward=False))
    cs.append(case("count_nonzero/int32", "count_nonzero", [xi], lambda x: cnz(x, 0), attrs={"dim": [0]}, backward=False))
    cs.append(case("count_nonzero/bool", "count_nonzero", [xb], cnz, backward=False))
    cs.append(case("count_nonzero/empty", "count_nonzero", [torch.zeros((0, 3), dtype=f64)], lambda x: cnz(x, 0), attrs={"dim": [0]}, backward=False))
    cs.append(case("count_nonzero/0d", "count_nonzero", [torch.tensor(2.0, dtype=f64)], cnz, backward=False))
    cs.append(error_case("count_nonzero/dup_dims", "count_nonzero", [x], lambda x: cnz(x, (1, 1)), attrs={"dim": [1, 1]}))
    narrow(cs, "count_nonzero/dim1", "count_nonzero", [mixed], lambda x: cnz(x, 1), attrs={"dim": [1]}, backward=False)

    # ---- cumprod
    def cp(x, dim, dtype=None):
        return torch.cumprod(x, dim, dtype=dtype)
    cs.append(case("cumprod/dim0", "cumprod", [px], lambda x: cp(x, 0), attrs={"dim": 0}))
    cs.append(case("cumprod/dim_neg", "cumprod", [px], lambda x: cp(x, -1), attrs={"dim": -1}))
    cs.append(case("cumprod/zeros", "cumprod", [z], lambda x: cp(x, 1), attrs={"dim": 1}))
    cs.append(case("cumprod/zeros_dim0", "cumprod", [z], lambda x: cp(x, 0), attrs={"dim": 0}))
    cs.append(case("cumprod/0d", "cumprod", [r.randn(())], lambda x: cp(x, 0), attrs={"dim": 0}))
    cs.append(case("cumprod/empty", "cumprod", [r.randn((0, 3))], lambda x: cp(x, 1), attrs={"dim": 1}))
    cs.append(case("cumprod/special", "cumprod", [special()], lambda x: cp(x, 0), attrs={"dim": 0}, backward=False))
    cs.append(case("cumprod/int32", "cumprod", [xi], lambda x: cp(x, 1), attrs={"dim": 1}, backward=False))
    cs.append(case("cumprod/bool", "cumprod", [xb], lambda x: cp(x, 0), attrs={"dim": 0}, backward=False))
    cs.append(case("cumprod/dtype", "cumprod", [xi], lambda x: cp(x, 0, f64), attrs={"dim": 0, "dtype": "float64"}, backward=False))
    cs.append(case("cumprod/inplace", "cumprod", [px], lambda x: x.clone().cumprod_(1), attrs={"dim": 1, "inplace": True}))
    cs.append(case("cumprod/inplace_int32", "cumprod", [xi], lambda x: x.clone().cumprod_(0), attrs={"dim": 0, "inplace": True}, backward=False))
    cs.append(error_case("cumprod/dim_range", "cumprod", [px], lambda x: cp(x, 3), attrs={"dim": 3}))
    narrow(cs, "cumprod/dim1", "cumprod", [px[0].abs()], lambda x: cp(x, 1), attrs={"dim": 1}, ulp=4, positive_grads=True)

    # ---- logcumsumexp
    lc = torch.logcumsumexp
    cs.append(case("logcumsumexp/dim0", "logcumsumexp", [x], lambda x: lc(x, 0), attrs={"dim": 0}))
    cs.append(case("logcumsumexp/dim_neg", "logcumsumexp", [x * 20], lambda x: lc(x, -1), attrs={"dim": -1}))
    cs.append(case("logcumsumexp/0d", "logcumsumexp", [r.randn(())], lambda x: lc(x, 0), attrs={"dim": 0}))
    cs.append(case("logcumsumexp/empty", "logcumsumexp", [r.randn((0, 3))], lambda x: lc(x, 0), attrs={"dim": 0}))
    cs.append(case("logcumsumexp/neg_inf_start", "logcumsumexp",
                   [torch.tensor([float("-inf"), float("-inf"), 0.5, -1.0], dtype=f64)], lambda x: lc(x, 0), attrs={"dim": 0}))
    cs.append(case("logcumsumexp/special", "logcumsumexp", [special()], lambda x: lc(x, 0), attrs={"dim": 0}, backward=False))
    cs.append(error_case("logcumsumexp/int32", "logcumsumexp", [xi], lambda x: lc(x, 0), attrs={"dim": 0}))
    cs.append(error_case("logcumsumexp/dim_range", "logcumsumexp", [x], lambda x: lc(x, 3), attrs={"dim": 3}))
    narrow(cs, "logcumsumexp/dim1", "logcumsumexp", [x[0]], lambda x: lc(x, 1), attrs={"dim": 1}, ulp=4, positive_grads=True)

    # ---- var, std, var_mean, std_mean
    const = torch.tensor([[1.5, 1.5, 1.5], [0.5, -1.0, 2.0]], dtype=f64)
    for op, f in (("var", torch.var), ("std", torch.std), ("var_mean", torch.var_mean), ("std_mean", torch.std_mean)):
        def fn(x, dim=None, correction=1, keepdim=False, f=f):
            return f(x, dim, correction=correction, keepdim=keepdim)
        cs.append(case(op + "/all", op, [x], fn))
        cs.append(case(op + "/dim1", op, [x], lambda x: fn(x, [1]), attrs={"dim": [1]}))
        cs.append(case(op + "/dims_keepdim_biased", op, [x], lambda x: fn(x, [0, -1], 0, True), attrs={"dim": [0, -1], "correction": 0, "keepdim": True}))
        cs.append(case(op + "/correction2", op, [x], lambda x: fn(x, [2], 2), attrs={"dim": [2], "correction": 2}))
        cs.append(case(op + "/constant_row", op, [const], lambda x: fn(x, [1]), attrs={"dim": [1]}))
        cs.append(case(op + "/single", op, [r.randn((3, 1))], lambda x: fn(x, [1]), attrs={"dim": [1]}, backward=False))
        cs.append(case(op + "/single_biased", op, [r.randn((3, 1))], lambda x: fn(x, [1], 0), attrs={"dim": [1], "correction": 0}))
        cs.append(case(op + "/0d", op, [r.randn(())], lambda x: fn(x, None, 0), attrs={"correction": 0}))
        cs.append(case(op + "/empty", op, [r.randn((0, 3))], lambda x: fn(x, [0]), attrs={"dim": [0]}, backward=False))
        cs.append(case(op + "/special", op, [special().reshape(7, 1).expand(7, 2).contiguous()], lambda x: fn(x, [1]), attrs={"dim": [1]}, backward=False))
        cs.append(error_case(op + "/int32", op, [xi], fn))
        cs.append(error_case(op + "/dim_range", op, [x], lambda x: fn(x, [3]), attrs={"dim": [3]}))
        # means and deviations exact in every dtype: PyTorch's narrow
        # backward subtracts the mean rounded to the dtype
        exact = torch.tensor([[1.0, 2.0, 3.0, 6.0], [-2.0, 0.0, 4.0, 2.0], [0.5, 1.5, 2.5, 3.5]], dtype=f64)
        narrow(cs, op + "/dim1", op, [exact], lambda x: fn(x, [1]), attrs={"dim": [1]}, ulp=8 if "mean" in op else 4)

    # ---- norm (as torch.linalg.vector_norm)
    vn = torch.linalg.vector_norm
    nx = distinct(r, (3, 4), 0.3, 2.0)
    for p in (2.0, 1.0, 3.0, 0.5, -1.0, float("inf"), float("-inf"), 0.0):
        tag = {2.0: "p2", 1.0: "p1", 3.0: "p3", 0.5: "p0.5", -1.0: "p-1", float("inf"): "pinf", float("-inf"): "p-inf", 0.0: "p0"}[p]
        cs.append(case("norm/%s_all" % tag, "norm", [nx], lambda x, p=p: vn(x, p), attrs={"p": p}))
        cs.append(case("norm/%s_dim1" % tag, "norm", [nx], lambda x, p=p: vn(x, p, 1), attrs={"p": p, "dim": [1]}))
        cs.append(case("norm/%s_dims_keepdim" % tag, "norm", [x], lambda x, p=p: vn(x, p, (0, -1), True), attrs={"p": p, "dim": [0, -1], "keepdim": True}))
    zr = torch.tensor([[0.0, 0.0, 0.0], [3.0, -4.0, 0.0]], dtype=f64)
    cs.append(case("norm/p2_zero_row", "norm", [zr], lambda x: vn(x, 2, 1), attrs={"p": 2.0, "dim": [1]}))
    cs.append(case("norm/p3_zero_row", "norm", [zr], lambda x: vn(x, 3, 1), attrs={"p": 3.0, "dim": [1]}))
    cs.append(case("norm/p1_zeros", "norm", [zr], lambda x: vn(x, 1, 1), attrs={"p": 1.0, "dim": [1]}))
    tie = torch.tensor([[2.0, -2.0, 1.0], [-0.5, 3.0, -3.0]], dtype=f64)
    cs.append(case("norm/pinf_ties", "norm", [tie], lambda x: vn(x, float("inf"), 1), attrs={"p": float("inf"), "dim": [1]}))
    cs.append(case("norm/p-inf_ties", "norm", [tie], lambda x: vn(x, float("-inf"), 1), attrs={"p": float("-inf"), "dim": [1]}))
    cs.append(case("norm/special", "norm", [special()], lambda x: vn(x, 2), attrs={"p": 2.0}, backward=False))
    cs.append(case("norm/special_pinf", "norm", [special()], lambda x: vn(x, float("inf")), attrs={"p": float("inf")}, backward=False))
    cs.append(case("norm/0d", "norm", [r.randn(())], lambda x: vn(x, 3), attrs={"p": 3.0}))
    cs.append(case("norm/empty_p2", "norm", [r.randn((0, 3))], lambda x: vn(x, 2), attrs={"p": 2.0}))
    cs.append(case("norm/empty_p1_dim0", "norm", [r.randn((0, 3))], lambda x: vn(x, 1, 0), attrs={"p": 1.0, "dim": [0]}))
    cs.append(case("norm/empty_pinf_dim1", "norm", [r.randn((0, 3))], lambda x: vn(x, float("inf"), 1), attrs={"p": float("inf"), "dim": [1]}))
    cs.append(case("norm/dtype_float32", "norm", [nx], lambda x: vn(x.to(torch.float32), 2, 1), attrs={"p": 2.0, "dim": [1], "dtype": "float32"}, rtol=1e-6))
    cs.append(case("norm/float32_dtype_float64", "norm", [nx.float()], lambda x: vn(x, 2, 1, dtype=f64), attrs={"p": 2.0, "dim": [1], "dtype": "float64"}))
    cs.append(error_case("norm/empty_pinf", "norm", [r.randn((0, 3))], lambda x: vn(x, float("inf")), attrs={"p": float("inf")}))
    cs.append(error_case("norm/empty_p-1_dim0", "norm", [r.randn((0, 3))], lambda x: vn(x, -1, 0), attrs={"p": -1.0, "dim": [0]}))
    cs.append(error_case("norm/int32", "norm", [xi], lambda x: vn(x, 2), attrs={"p": 2.0}))
    cs.append(error_case("norm/dim_range", "norm", [x], lambda x: vn(x, 2, 3), attrs={"p": 2.0, "dim": [3]}))
    for p, tag in ((2.0, "p2"), (1.0, "p1"), (3.0, "p3"), (float("inf"), "pinf")):
        narrow(cs, "norm/%s_dim1" % tag, "norm", [nx], lambda x, p=p: vn(x, p, 1), attrs={"p": p, "dim": [1]}, ulp=4)

    # ---- aminmax (no backward in PyTorch 1.13)
    am = torch.aminmax
    cs.append(case("aminmax/all", "aminmax", [x], am, backward=False))
    cs.append(case("aminmax/dim1", "aminmax", [x], lambda x: am(x, dim=1), attrs={"dim": 1}, backward=False))
    cs.append(case("aminmax/dim_neg_keepdim", "aminmax", [x], lambda x: am(x, dim=-1, keepdim=True), attrs={"dim": -1, "keepdim": True}, backward=False))
    cs.append(case("aminmax/nan", "aminmax", [nanx], lambda x: am(x, dim=1), attrs={"dim": 1}, backward=False))
    cs.append(case("aminmax/inf", "aminmax", [special()[3:]], am, backward=False))
    cs.append(case("aminmax/0d", "aminmax", [r.randn(())], am, backward=False))
    cs.append(case("aminmax/0d_dim", "aminmax", [r.randn(())], lambda x: am(x, dim=0), attrs={"dim": 0}, backward=False))
    cs.append(case("aminmax/empty_other_dim", "aminmax", [r.randn((0, 3))], lambda x: am(x, dim=1), attrs={"dim": 1}, backward=False))
    cs.append(case("aminmax/int32", "aminmax", [xi], lambda x: am(x, dim=0), attrs={"dim": 0}, backward=False))
    cs.append(case("aminmax/bool", "aminmax", [xb], am, backward=False))
    cs.append(error_case("aminmax/empty", "aminmax", [r.randn((0, 3))], am))
    cs.append(error_case("aminmax/empty_dim", "aminmax", [r.randn((0, 3))], lambda x: am(x, dim=0), attrs={"dim": 0}))
    cs.append(error_case("aminmax/dim_range", "aminmax", [x], lambda x: am(x, dim=3), attrs={"dim": 3}))
    narrow(cs, "aminmax/dim1", "aminmax", [x[0]], lambda x: am(x, dim=1), attrs={"dim": 1}, backward=False)

    # ---- argmax, argmin
    tiesn = torch.tensor([[1.0, 3.0, 3.0, 0.5], [2.0, float("nan"), 2.0, float("nan")], [-1.0, -1.0, -4.0, -4.0]], dtype=f64)
    for op, f in (("argmax", torch.argmax), ("argmin", torch.argmin)):
        def fn(x, dim=None, keepdim=False, f=f):
            if dim is None:
                out = f(x)
                return out.reshape([1] * x.dim()) if keepdim else out
            return f(x, dim, keepdim)
        cs.append(case(op + "/all", op, [x], fn, backward=False))
        cs.append(case(op + "/all_keepdim", op, [x], lambda x: fn(x, None, True), attrs={"keepdim": True}, backward=False))
        cs.append(case(op + "/dim1", op, [x], lambda x: fn(x, 1), attrs={"dim": 1}, backward=False))
        cs.append(case(op + "/dim_neg_keepdim", op, [x], lambda x: fn(x, -1, True), attrs={"dim": -1, "keepdim": True}, backward=False))
        cs.append(case(op + "/ties_nan_dim1", op, [tiesn], lambda x: fn(x, 1), attrs={"dim": 1}, backward=False))
        cs.append(case(op + "/ties_nan_all", op, [tiesn], fn, backward=False))
        cs.append(case(op + "/ties_dim0", op, [tiesn.t().contiguous()], lambda x: fn(x, 0), attrs={"dim": 0}, backward=False))
        cs.append(case(op + "/inf", op, [special()[3:]], fn, backward=False))
        cs.append(case(op + "/0d", op, [r.randn(())], fn, backward=False))
        cs.append(case(op + "/0d_dim", op, [r.randn(())], lambda x: fn(x, 0, True), attrs={"dim": 0, "keepdim": True}, backward=False))
        cs.append(case(op + "/empty_other_dim", op, [r.randn((0, 3))], lambda x: fn(x, 1), attrs={"dim": 1}, backward=False))
        cs.append(case(op + "/int32", op, [xi], lambda x: fn(x, 0), attrs={"dim": 0}, backward=False))
        cs.append(case(op + "/uint8", op, [r.randint(0, 3, (2, 6), torch.uint8)], lambda x: fn(x, 1), attrs={"dim": 1}, backward=False))
        cs.append(error_case(op + "/empty", op, [r.randn((0, 3))], fn))
        cs.append(error_case(op + "/empty_dim", op, [r.randn((0, 3))], lambda x: fn(x, 0), attrs={"dim": 0}))
        cs.append(error_case(op + "/dim_range", op, [x], lambda x: fn(x, 3), attrs={"dim": 3}))
        narrow(cs, op + "/dim1", op, [distinct(r, (3, 5))], lambda x: fn(x, 1), attrs={"dim": 1}, backward=False)

    # ---- sort
    sx = distinct(r, (3, 5))
    def srt(x, dim=-1, descending=False, stable=False):
        return torch.sort(x, dim=dim, descending=descending, stable=stable)
    cs.append(case("sort/last", "sort", [sx], srt))
    cs.append(case("sort/dim0_desc", "sort", [sx], lambda x: srt(x, 0, True), attrs={"dim": 0, "descending": True}))
    cs.append(case("sort/3d_dim1", "sort", [distinct(r, (2, 4, 3))], lambda x: srt(x, 1), attrs={"dim": 1}))
    st = torch.tensor([3.0, 1.0, 3.0, float("nan"), 1.0, 2.0, float("nan"), 3.0, float("-inf"), float("inf"), -0.0, 0.0], dtype=f64)
    cs.append(case("sort/stable_ties_nan", "sort", [st], lambda x: srt(x, stable=True), attrs={"stable": True}, backward=False))
    cs.append(case("sort/stable_ties_nan_desc", "sort", [st], lambda x: srt(x, descending=True, stable=True), attrs={"descending": True, "stable": True}, backward=False))
    cs.append(case("sort/stable_ties_grad", "sort", [torch.tensor([[2.0, 1.0, 2.0, 0.5, 1.0]], dtype=f64)], lambda x: srt(x, stable=True), attrs={"stable": True}))
    long_ties = torch.tensor([1.0, 0.0] * 40, dtype=f64)
    cs.append(case("sort/stable_long_ties", "sort", [long_ties], lambda x: srt(x, stable=True), attrs={"stable": True}, backward=False))
    cs.append(case("sort/stable_long_ties_desc", "sort", [long_ties], lambda x: srt(x, descending=True, stable=True), attrs={"descending": True, "stable": True}, backward=False))
    cs.append(case("sort/0d", "sort", [r.randn(())], lambda x: srt(x, 0), attrs={"dim": 0}))
    cs.append(case("sort/empty", "sort", [r.randn((0, 3))], lambda x: srt(x, 0), attrs={"dim": 0}))
    cs.append(case("sort/int32_stable", "sort", [xi], lambda x: srt(x, 1, stable=True), attrs={"dim": 1, "stable": True}, backward=False))
    cs.append(case("sort/bool_stable", "sort", [xb], lambda x: srt(x, 0, True, stable=True), attrs={"dim": 0, "descending": True, "stable": True}, backward=False))
    cs.append(error_case("sort/dim_range", "sort", [sx], lambda x: srt(x, 2), attrs={"dim": 2}))
    narrow(cs, "sort/last", "sort", [sx], srt)

    # ---- topk
    def tk(x, k, dim=-1, largest=True):
        return torch.topk(x, k, dim, largest, True)
    cs.append(case("topk/k2", "topk", [sx], lambda x: tk(x, 2), attrs={"k": 2}))
    cs.append(case("topk/k2_smallest_dim0", "topk", [sx], lambda x: tk(x, 2, 0, False), attrs={"k": 2, "dim": 0, "largest": False}))
    cs.append(case("topk/k_all", "topk", [sx], lambda x: tk(x, 5), attrs={"k": 5}))
    cs.append(case("topk/k0", "topk", [sx], lambda x: tk(x, 0), attrs={"k": 0}))
    cs.append(case("topk/nan_inf", "topk", [torch.tensor([1.0, float("nan"), float("inf"), -2.0, float("-inf")], dtype=f64)], lambda x: tk(x, 3), attrs={"k": 3}, backward=False))
    cs.append(case("topk/nan_smallest", "topk", [torch.tensor([1.0, float("nan"), float("inf"), -2.0, float("-inf")], dtype=f64)], lambda x: tk(x, 5, largest=False), attrs={"k": 5, "largest": False}, backward=False))
    cs.append(case("topk/0d", "topk", [r.randn(())], lambda x: tk(x, 1), attrs={"k": 1}))
    cs.append(case("topk/int32", "topk", [torch.tensor([[4, -1, 7, 2], [0, 9, -3, 5]], dtype=torch.int32)], lambda x: tk(x, 2), attrs={"k": 2}, backward=False))
    cs.append(error_case("topk/k_range", "topk", [sx], lambda x: tk(x, 6), attrs={"k": 6}))
    cs.append(error_case("topk/dim_range", "topk", [sx], lambda x: tk(x, 1, 2), attrs={"k": 1, "dim": 2}))
    narrow(cs, "topk/k3", "topk", [sx], lambda x: tk(x, 3), attrs={"k": 3})

    # ---- kthvalue
    def kth(x, k, dim=-1, keepdim=False):
        return torch.kthvalue(x, k, dim, keepdim)
    cs.append(case("kthvalue/k2", "kthvalue", [sx], lambda x: kth(x, 2), attrs={"k": 2}))
    cs.append(case("kthvalue/k3_dim0_keepdim", "kthvalue", [sx], lambda x: kth(x, 3, 0, True), attrs={"k": 3, "dim": 0, "keepdim": True}))
    cs.append(case("kthvalue/k_last", "kthvalue", [sx], lambda x: kth(x, 5), attrs={"k": 5}))
    cs.append(case("kthvalue/nan", "kthvalue", [torch.tensor([1.0, float("nan"), -2.0, 4.0], dtype=f64)], lambda x: kth(x, 4), attrs={"k": 4}, backward=False))
    cs.append(case("kthvalue/0d", "kthvalue", [r.randn(())], lambda x: kth(x, 1), attrs={"k": 1}))
    cs.append(case("kthvalue/int32", "kthvalue", [torch.tensor([[4, -1, 7, 2], [0, 9, -3, 5]], dtype=torch.int32)], lambda x: kth(x, 2), attrs={"k": 2}, backward=False))
    cs.append(error_case("kthvalue/k_range", "kthvalue", [sx], lambda x: kth(x, 6), attrs={"k": 6}))
    cs.append(error_case("kthvalue/k0", "kthvalue", [sx], lambda x: kth(x, 0), attrs={"k": 0}))
    narrow(cs, "kthvalue/k2", "kthvalue", [sx], lambda x: kth(x, 2), attrs={"k": 2})

    # ---- median, nanmedian
    for op_name, f, ign in (("median", torch.median, False), ("nanmedian", torch.nanmedian, True)):
        a = {"ignore_nan": ign}
        cs.append(case(op_name + "/all_odd", "median", [distinct(r, (3, 5))], f, attrs=a))
        cs.append(case(op_name + "/all_even", "median", [distinct(r, (2, 3))], f, attrs=a))
        cs.append(case(op_name + "/ties", "median", [torch.tensor([[1.0, 3.0, 3.0], [2.0, 3.0, 0.5]], dtype=f64)], f, attrs=a))
        cs.append(case(op_name + "/nan", "median", [nanx], f, attrs=a, backward=False))
        cs.append(case(op_name + "/all_nan", "median", [torch.full((3,), float("nan"), dtype=f64)], f, attrs=a, backward=False))
        cs.append(case(op_name + "/inf", "median", [special()[3:]], f, attrs=a, backward=False))
        cs.append(case(op_name + "/0d", "median", [r.randn(())], f, attrs=a))
        cs.append(case(op_name + "/empty", "median", [r.randn((0, 3))], f, attrs=a, backward=False))
        cs.append(case(op_name + "/int32", "median", [xi], f, attrs=a, backward=False))
        narrow(cs, op_name + "/all", "median", [distinct(r, (3, 5))], f, attrs=a)
        d = dict(a)
        def fd(x, dim, keepdim=False, f=f):
            return f(x, dim, keepdim)
        dx = distinct(r, (3, 5))
        cs.append(case(op_name + "_dim/dim1", "median_dim", [dx], lambda x: fd(x, 1), attrs=dict(d, dim=1)))
        cs.append(case(op_name + "_dim/dim0_keepdim", "median_dim", [dx], lambda x: fd(x, 0, True), attrs=dict(d, dim=0, keepdim=True)))
        cs.append(case(op_name + "_dim/dim_neg_even", "median_dim", [distinct(r, (2, 3, 4))], lambda x: fd(x, -1), attrs=dict(d, dim=-1)))
        nanrow = torch.tensor([[1.0, float("nan"), 3.0, -0.5, 2.0], [float("nan")] * 5, [2.0, -1.0, float("nan"), 0.25, float("nan")]], dtype=f64)
        cs.append(case(op_name + "_dim/nan", "median_dim", [nanrow], lambda x: fd(x, 1), attrs=dict(d, dim=1), backward=False))
        cs.append(case(op_name + "_dim/0d", "median_dim", [r.randn(())], lambda x: fd(x, 0), attrs=dict(d, dim=0)))
        cs.append(case(op_name + "_dim/empty_other_dim", "median_dim", [r.randn((0, 3))], lambda x: fd(x, 1), attrs=dict(d, dim=1)))
        cs.append(case(op_name + "_dim/int32", "median_dim", [torch.tensor([[4, -1, 7, 2, 0], [0, 9, -3, 5, 1]], dtype=torch.int32)], lambda x: fd(x, 1), attrs=dict(d, dim=1), backward=False))
        cs.append(error_case(op_name + "_dim/empty_dim", "median_dim", [r.randn((0, 3))], lambda x: fd(x, 0), attrs=dict(d, dim=0)))
        cs.append(error_case(op_name + "_dim/dim_range", "median_dim", [dx], lambda x: fd(x, 2), attrs=dict(d, dim=2)))
        narrow(cs, op_name + "_dim/dim1", "median_dim", [dx], lambda x: fd(x, 1), attrs=dict(d, dim=1))

    # ---- mode
    def md(x, dim=-1, keepdim=False):
        return torch.mode(x, dim, keepdim)
    mx = torch.tensor([[1.0, 3.0, 3.0, 2.0, 1.0], [4.0, 4.0, 1.0, 1.0, 0.0], [-1.0, 2.0, 0.5, 2.0, 2.0]], dtype=f64)
    cs.append(case("mode/last", "mode", [mx], md))
    cs.append(case("mode/dim0_keepdim", "mode", [mx.t().contiguous()], lambda x: md(x, 0, True), attrs={"dim": 0, "keepdim": True}))
    cs.append(case("mode/distinct", "mode", [distinct(r, (2, 4))], md))
    cs.append(case("mode/0d", "mode", [r.randn(())], lambda x: md(x, 0), attrs={"dim": 0}))
    cs.append(case("mode/inf", "mode", [torch.tensor([float("inf"), 1.0, float("inf"), float("-inf")], dtype=f64)], md, backward=False))
    cs.append(case("mode/int32", "mode", [r.randint(0, 3, (3, 6), torch.int32)], md, backward=False))
    cs.append(case("mode/empty_other_dim", "mode", [r.randn((0, 3))], md))
    cs.append(error_case("mode/dim_range", "mode", [mx], lambda x: md(x, 2), attrs={"dim": 2}))
    narrow(cs, "mode/last", "mode", [mx], md)

    # ---- cummax, cummin
    cx = torch.tensor([[1.0, 3.0, 3.0, 2.0, float("nan"), 5.0, float("nan")], [0.5, -1.0, 0.5, -1.0, 2.0, 2.0, -3.0]], dtype=f64)
    for op, f in (("cummax", torch.cummax), ("cummin", torch.cummin)):
        cs.append(case(op + "/dim1", op, [sx], lambda x, f=f: f(x, 1), attrs={"dim": 1}))
        cs.append(case(op + "/dim0", op, [sx], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(case(op + "/ties", op, [cx[1:]], lambda x, f=f: f(x, 1), attrs={"dim": 1}))
        cs.append(case(op + "/nan_ties", op, [cx], lambda x, f=f: f(x, -1), attrs={"dim": -1}, backward=False))
        cs.append(case(op + "/0d", op, [r.randn(())], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(case(op + "/empty", op, [r.randn((0, 3))], lambda x, f=f: f(x, 0), attrs={"dim": 0}))
        cs.append(case(op + "/int32", op, [xi], lambda x, f=f: f(x, 1), attrs={"dim": 1}, backward=False))
        cs.append(error_case(op + "/dim_range", op, [sx], lambda x, f=f: f(x, 2), attrs={"dim": 2}))
        narrow(cs, op + "/dim1", op, [sx], lambda x, f=f: f(x, 1), attrs={"dim": 1})

    # ---- quantile, nanquantile
    qx = distinct(r, (3, 5))
    qnan = torch.tensor([[1.0, float("nan"), 3.0, -0.5, 2.0], [float("nan")] * 5, [2.0, -1.0, float("nan"), 0.25, 4.0]], dtype=f64)
    q2 = torch.tensor([0.1, 0.45, 0.7, 0.95], dtype=f64)  # inside (0, 1): the gradient check moves q
    for name, f, ign in (("quantile", torch.quantile, False), ("nanquantile", torch.nanquantile, True)):
        def fq(x, q, dim=None, keepdim=False, interpolation="linear", f=f):
            return f(x, q, dim, keepdim, interpolation=interpolation)
        def a(**kw):
            kw["ignore_nan"] = ign
            return kw
        cs.append(case(name + "/scalar_all", "quantile", [qx, 0.3], fq, attrs=a()))
        cs.append(case(name + "/scalar_dim1", "quantile", [qx, 0.6], lambda x, q: fq(x, q, 1), attrs=a(dim=1)))
        cs.append(case(name + "/tensor_dim0_keepdim", "quantile", [qx, q2], lambda x, q: fq(x, q, 0, True), attrs=a(dim=0, keepdim=True)))
        cs.append(case(name + "/tensor_all_keepdim", "quantile", [qx, q2], lambda x, q: fq(x, q, None, True), attrs=a(keepdim=True)))
        cs.append(case(name + "/q0d_dim_neg", "quantile", [qx, torch.tensor(0.4, dtype=f64)], lambda x, q: fq(x, q, -1), attrs=a(dim=-1)))
        for interp in ("lower", "higher", "midpoint", "nearest"):
            qn = torch.tensor([0.05, 0.125, 0.375, 0.5, 0.625, 0.875, 0.95], dtype=f64)
            cs.append(case(name + "/" + interp, "quantile", [qx[:, :4].contiguous(), qn], lambda x, q, i=interp: fq(x, q, 1, interpolation=i), attrs=a(dim=1, interpolation=interp)))
        cs.append(case(name + "/q_ends", "quantile", [qx, torch.tensor([0.0, 1.0], dtype=f64)], lambda x, q: fq(x, q, 1), attrs=a(dim=1), backward=False))
        cs.append(case(name + "/nan", "quantile", [qnan, q2], lambda x, q: fq(x, q, 1), attrs=a(dim=1), backward=False))
        cs.append(case(name + "/nan_all", "quantile", [qnan, 0.5], fq, attrs=a(), backward=False))
        cs.append(case(name + "/0d", "quantile", [r.randn(()), 0.5], fq, attrs=a()))
        cs.append(case(name + "/0d_dim", "quantile", [r.randn(()), q2], lambda x, q: fq(x, q, 0), attrs=a(dim=0)))
        cs.append(case(name + "/float32", "quantile", [qx.float(), q2.float()], lambda x, q: fq(x, q, 1), attrs=a(dim=1), mode="emulated", ulp=4))
        cs.append(error_case(name + "/float16", "quantile", [qx.half(), 0.5], fq, attrs=a()))
        cs.append(error_case(name + "/bfloat16", "quantile", [qx.bfloat16(), 0.5], fq, attrs=a()))
        cs.append(error_case(name + "/empty", "quantile", [r.randn((0, 3)), 0.5], lambda x, q: fq(x, q, 0), attrs=a(dim=0)))
        cs.append(error_case(name + "/q_range", "quantile", [qx, 1.5], fq, attrs=a()))
        cs.append(error_case(name + "/q_tensor_range", "quantile", [qx, torch.tensor([0.5, -0.1], dtype=f64)], fq, attrs=a()))
        cs.append(error_case(name + "/q_2d", "quantile", [qx, torch.tensor([[0.5]], dtype=f64)], fq, attrs=a()))
        cs.append(error_case(name + "/q_dtype", "quantile", [qx, torch.tensor([0.5])], fq, attrs=a()))
        cs.append(error_case(name + "/int32", "quantile", [xi, 0.5], fq, attrs=a()))
        cs.append(error_case(name + "/interpolation", "quantile", [qx, 0.5], lambda x, q: fq(x, q, interpolation="cubic"), attrs=a(interpolation="cubic")))

    # ---- histc (no gradient)
    hx = torch.tensor([0.5, 1.0, 2.0, 3.0, -1.0, 4.0, 1.999999, 2.5, float("nan"), 0.0], dtype=f64)
    def hc(x, bins=100, lo=0.0, hi=0.0):
        return torch.histc(x, bins, lo, hi)
    cs.append(case("histc/range", "histc", [hx], lambda x: hc(x, 4, 0.0, 4.0), attrs={"bins": 4, "min": 0.0, "max": 4.0}, backward=False))
    cs.append(case("histc/data_range", "histc", [hx[:8]], lambda x: hc(x, 3), attrs={"bins": 3}, backward=False))
    cs.append(case("histc/default_bins", "histc", [r.randn((50,))], hc, backward=False))
    cs.append(case("histc/flat", "histc", [torch.full((4,), 2.0, dtype=f64)], lambda x: hc(x, 3), attrs={"bins": 3}, backward=False))
    cs.append(case("histc/empty", "histc", [torch.zeros((0,), dtype=f64)], lambda x: hc(x, 3), attrs={"bins": 3}, backward=False))
    cs.append(case("histc/0d", "histc", [torch.tensor(2.0, dtype=f64)], lambda x: hc(x, 3, 0.0, 4.0), attrs={"bins": 3, "min": 0.0, "max": 4.0}, backward=False))
    cs.append(case("histc/2d_outside", "histc", [r.randn((3, 4)) * 3], lambda x: hc(x, 5, -1.0, 1.0), attrs={"bins": 5, "min": -1.0, "max": 1.0}, backward=False))
    cs.append(case("histc/edges", "histc", [torch.tensor([0.0, 0.1, 0.2, 0.3, 0.7, 0.9, 1.0], dtype=f64)], lambda x: hc(x, 10, 0.0, 1.0), attrs={"bins": 10, "min": 0.0, "max": 1.0}, backward=False))
    for d in (torch.float32, torch.bfloat16):
        cs.append(case("histc/edges/" + NAMES[d], "histc", [torch.tensor([0.0, 0.1, 0.2, 0.3, 0.7, 0.9, 1.0, 0.6], dtype=d)], lambda x: hc(x, 10, 0.0, 1.0),
                       attrs={"bins": 10, "min": 0.0, "max": 1.0}, backward=False, mode="emulated"))
        cs.append(case("histc/data_range/" + NAMES[d], "histc", [(r.randn((40,)) * 2).to(d)], lambda x: hc(x, 7), attrs={"bins": 7}, backward=False, mode="emulated"))
    cs.append(error_case("histc/float16", "histc", [hx.half()], lambda x: hc(x, 4, 0.0, 4.0), attrs={"bins": 4, "min": 0.0, "max": 4.0}))
    cs.append(error_case("histc/int32", "histc", [xi], lambda x: hc(x, 4, 0.0, 4.0), attrs={"bins": 4, "min": 0.0, "max": 4.0}))
    cs.append(error_case("histc/bins0", "histc", [hx], lambda x: hc(x, 0, 0.0, 4.0), attrs={"bins": 0, "min": 0.0, "max": 4.0}))
    cs.append(error_case("histc/min_gt_max", "histc", [hx], lambda x: hc(x, 3, 2.0, 1.0), attrs={"bins": 3, "min": 2.0, "max": 1.0}))
    cs.append(error_case("histc/inf_range", "histc", [torch.tensor([float("inf"), 1.0], dtype=f64)], lambda x: hc(x, 3), attrs={"bins": 3}))

    # ---- bincount (no gradient)
    bi = torch.tensor([1, 3, 3, 0, 7, 1, 1], dtype=torch.int64)
    bw = r.randn((7,))
    cs.append(case("bincount/plain", "bincount", [bi, None], lambda x, w: torch.bincount(x), backward=False))
    cs.append(case("bincount/minlength", "bincount", [bi, None], lambda x, w: torch.bincount(x, minlength=10), attrs={"minlength": 10}, backward=False))
    cs.append(case("bincount/weights", "bincount", [bi, bw], lambda x, w: torch.bincount(x, w), backward=False))
    cs.append(case("bincount/weights_int", "bincount", [bi, torch.tensor([1, 2, 3, 4, 5, 6, 7])], lambda x, w: torch.bincount(x, w), backward=False))
    cs.append(case("bincount/uint8", "bincount", [bi.to(torch.uint8), None], lambda x, w: torch.bincount(x), backward=False))
    cs.append(case("bincount/int32_minlength_small", "bincount", [bi.int(), None], lambda x, w: torch.bincount(x, minlength=2), attrs={"minlength": 2}, backward=False))
    cs.append(case("bincount/empty", "bincount", [torch.zeros((0,), dtype=torch.int64), None], lambda x, w: torch.bincount(x, minlength=3), attrs={"minlength": 3}, backward=False))
    for d in NARROW:
        cs.append(case("bincount/weights/" + NAMES[d], "bincount", [bi, bw.to(d)], lambda x, w: torch.bincount(x, w), backward=False, mode="emulated"))
    cs.append(error_case("bincount/negative", "bincount", [torch.tensor([1, -3]), None], lambda x, w: torch.bincount(x)))
    cs.append(error_case("bincount/2d", "bincount", [torch.tensor([[1, 3]]), None], lambda x, w: torch.bincount(x)))
    cs.append(error_case("bincount/float", "bincount", [torch.tensor([1.0, 3.0], dtype=f64), None], lambda x, w: torch.bincount(x)))
    cs.append(error_case("bincount/weights_len", "bincount", [bi, bw[:3]], lambda x, w: torch.bincount(x, w)))
    cs.append(error_case("bincount/minlength_neg", "bincount", [bi, None], lambda x, w: torch.bincount(x, minlength=-1), attrs={"minlength": -1}))

    # ---- searchsorted (bucketize's op)
    bd = torch.tensor([1.0, 3.0, 3.0, 5.0, 7.0], dtype=f64)
    vals = torch.tensor([[0.0, 1.0, 3.0, 4.0], [7.0, 8.0, float("nan"), float("-inf")]], dtype=f64)
    def ss(seq, v, sorter, out_int32=False, right=False):
        return torch.searchsorted(seq, v, out_int32=out_int32, right=right, sorter=sorter)
    cs.append(case("searchsorted/left", "searchsorted", [bd, vals, None], ss, backward=False))
    cs.append(case("searchsorted/right", "searchsorted", [bd, vals, None], lambda s, v, o: ss(s, v, o, right=True), attrs={"right": True}, backward=False))
    cs.append(case("searchsorted/int32", "searchsorted", [bd, vals, None], lambda s, v, o: ss(s, v, o, out_int32=True), attrs={"out_int32": True}, backward=False))
    cs.append(case("searchsorted/scalar", "searchsorted", [bd, 3.0, None], ss, backward=False))
    cs.append(case("searchsorted/scalar_int_right", "searchsorted", [bd, 5, None], lambda s, v, o: ss(s, v, o, right=True), attrs={"right": True}, backward=False))
    cs.append(case("searchsorted/batched", "searchsorted", [torch.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]], dtype=f64), torch.tensor([[3.0, 6.5], [3.0, 0.0]], dtype=f64), None], ss, backward=False))
    cs.append(case("searchsorted/sorter", "searchsorted", [torch.tensor([5.0, 1.0, 3.0, 7.0], dtype=f64), torch.tensor([2.0, 5.0, 9.0], dtype=f64), torch.tensor([1, 2, 0, 3])], ss, backward=False))
    cs.append(case("searchsorted/int_mixed", "searchsorted", [torch.tensor([1, 3, 5]), torch.tensor([2.5, 3.0], dtype=f64), None], ss, backward=False))
    cs.append(case("searchsorted/empty_values", "searchsorted", [bd, torch.zeros((0,), dtype=f64), None], ss, backward=False))
    for d in NARROW:
        cs.append(case("searchsorted/left/" + NAMES[d], "searchsorted", [bd.to(d), vals.to(d), None], ss, backward=False, mode="emulated"))
    cs.append(error_case("searchsorted/batched_mismatch", "searchsorted", [torch.tensor([[1.0, 3.0], [2.0, 4.0]], dtype=f64), torch.tensor([2.0], dtype=f64), None], ss))

    # ---- unique, unique_consecutive (no gradient)
    def uq(x, consecutive=False, inv=False, cnt=False, dim=None):
        if consecutive:
            out = torch.unique_consecutive(x, return_inverse=inv, return_counts=cnt, dim=dim)
        else:
            out = torch.unique(x, sorted=True, return_inverse=inv, return_counts=cnt, dim=dim)
        return out
    ux = torch.tensor([[3.0, 1.0, 2.0, 1.0], [0.0, -0.0, 3.0, 2.5], [1.0, 1.0, 1.0, 7.0]], dtype=f64)
    rows = torch.tensor([[1, 2, 0], [0, 5, 1], [1, 2, 0], [0, 5, 0], [0, 5, 1]], dtype=torch.int64)
    runs = torch.tensor([1.0, 1.0, 2.0, 2.0, 3.0, 1.0, 1.0, 2.0, float("nan"), float("nan")], dtype=f64)
    for cons, pre in ((False, "unique"), (True, "unique_consecutive")):
        a = lambda **kw: dict(kw, consecutive=cons)
        src = runs[:8] if not cons else runs
        cs.append(case(pre + "/values", "unique", [ux], lambda x: uq(x, cons), attrs=a(), backward=False))
        cs.append(case(pre + "/inverse_counts", "unique", [ux], lambda x: uq(x, cons, True, True), attrs=a(return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/runs", "unique", [src], lambda x: uq(x, cons, True, True), attrs=a(return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/counts_only", "unique", [src], lambda x: uq(x, cons, False, True), attrs=a(return_counts=True), backward=False))
        cs.append(case(pre + "/dim0", "unique", [rows], lambda x: uq(x, cons, True, True, 0), attrs=a(dim=0, return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/dim1", "unique", [rows.t().contiguous()], lambda x: uq(x, cons, True, False, 1), attrs=a(dim=1, return_inverse=True), backward=False))
        cs.append(case(pre + "/dim_neg_3d", "unique", [torch.tensor([[[1, 1], [2, 2]], [[1, 1], [0, 3]]], dtype=torch.int32)], lambda x: uq(x, cons, True, True, -1), attrs=a(dim=-1, return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/bool", "unique", [xb], lambda x: uq(x, cons, True, True), attrs=a(return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/0d", "unique", [torch.tensor(2.0, dtype=f64)], lambda x: uq(x, cons, True, True), attrs=a(return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/empty", "unique", [torch.zeros((0,), dtype=f64)], lambda x: uq(x, cons, True, True), attrs=a(return_inverse=True, return_counts=True), backward=False))
        cs.append(case(pre + "/empty_dim", "unique", [torch.zeros((0, 3), dtype=f64)], lambda x: uq(x, cons, True, True, 0), attrs=a(dim=0, return_inverse=True, return_counts=True), backward=False))
        for d in (torch.float32, torch.bfloat16):
            # no -0.0: 1.13 hashes bfloat16 by its bits, so -0.0 and 0.0
            # are two values there
            cs.append(case(pre + "/inverse_counts/" + NAMES[d], "unique", [ux.abs().to(d)], lambda x: uq(x, cons, True, True), attrs=a(return_inverse=True, return_counts=True), backward=False, mode="emulated"))
        cs.append(error_case(pre + "/float16", "unique", [ux.half()], lambda x: uq(x, cons), attrs=a()))
        cs.append(error_case(pre + "/zero_dim_not_selected", "unique", [torch.zeros((2, 0), dtype=f64)], lambda x: uq(x, cons, dim=0), attrs=a(dim=0)))
        cs.append(error_case(pre + "/dim_range", "unique", [ux], lambda x: uq(x, cons, dim=2), attrs=a(dim=2)))
    return cs


# ---------------------------------------------------------------- narrow rounding steps

# At float16 and bfloat16 PyTorch 1.13 stores every intermediate tensor of
# these autograd formulas at the dtype (cummaxmin_backward's scatter_add_,
# cumprod_backward's output * grad and flipped cumsum, logsumexp's and
# logcumsumexp's exp/log chains, var_backward's mean and (2 / dof) * grad,
# norm_backward's powers), and some forward kernels accumulate at the
# dtype (the norm of orders other than 0, 2 and inf) or in float
# (cumprod, logcumsumexp). These cases, 8x8 inputs with random gradients,
# hold the emulated device to PyTorch's bits (ulp 0), at float16 where 1.13
# has the kernels.
def rounded_cases():
    cs = []
    vn = torch.linalg.vector_norm

    def cumprod_zeros(r):
        # rows without a zero, with one (first, middle, last) and with two
        x = r.rand((8, 8), f64, 0.5, 1.5) * torch.where(r.bool((8, 8)), 1.0, -1.0)
        for row, cols in ((1, [0]), (2, [3]), (3, [7]), (4, [2, 5]), (5, [0, 1]), (6, [4, 5, 6])):
            x[row, cols] = 0.0
        return x

    def var_fn(f, dim, corr=1):
        return lambda x: f(x, dim, correction=corr)
    ops = [
        ("cummax/dim1", "cummax", lambda r: r.randn((8, 8)), lambda x: torch.cummax(x, 1), {"dim": 1}),
        ("cummin/dim0", "cummin", lambda r: r.randn((8, 8)), lambda x: torch.cummin(x, 0), {"dim": 0}),
        ("cumprod/dim1", "cumprod", lambda r: r.rand((8, 8), f64, 0.5, 1.5) * torch.where(r.bool((8, 8)), 1.0, -1.0), lambda x: torch.cumprod(x, 1), {"dim": 1}),
        ("cumprod/zeros_dim1", "cumprod", cumprod_zeros, lambda x: torch.cumprod(x, 1), {"dim": 1}),
        ("logsumexp/dim1", "logsumexp", lambda r: 2 * r.randn((8, 8)), lambda x: torch.logsumexp(x, 1), {"dim": [1]}),
        ("logsumexp/dims", "logsumexp", lambda r: 2 * r.randn((4, 4, 4)), lambda x: torch.logsumexp(x, (0, 2)), {"dim": [0, 2]}),
        ("logcumsumexp/dim1", "logcumsumexp", lambda r: 2 * r.randn((8, 8)), lambda x: torch.logcumsumexp(x, 1), {"dim": 1}),
        ("var/dim1", "var", lambda r: 3 * r.randn((8, 7)), var_fn(torch.var, [1]), {"dim": [1]}),
        ("var/all", "var", lambda r: 3 * r.randn((8, 8)), var_fn(torch.var, None), {}),
        ("std/dim0_biased", "std", lambda r: 3 * r.randn((5, 8)), var_fn(torch.std, [0], 0), {"dim": [0], "correction": 0}),
        ("var_mean/dim1", "var_mean", lambda r: 3 * r.randn((8, 6)), var_fn(torch.var_mean, [1]), {"dim": [1]}),
        ("std_mean/dim1", "std_mean", lambda r: 3 * r.randn((8, 7)), var_fn(torch.std_mean, [1]), {"dim": [1]}),
    ]
    for p, tag in ((2.0, "p2"), (1.0, "p1"), (3.0, "p3"), (0.5, "p0.5"), (1.5, "p1.5"), (4.0, "p4"), (float("inf"), "pinf")):
        ops.append(("norm/%s_dim1" % tag, "norm", lambda r: 2 * r.randn((8, 8)), lambda x, p=p: vn(x, p, 1), {"p": p, "dim": [1]}))
    ops.append(("norm/p3_all", "norm", lambda r: 2 * r.randn((8, 8)), lambda x: vn(x, 3.0), {"p": 3.0}))
    ops.append(("norm/p2_all", "norm", lambda r: 2 * r.randn((8, 8)), lambda x: vn(x, 2.0), {"p": 2.0}))
    for d in (torch.bfloat16, torch.float16):
        for name, op, mk, fn, attrs in ops:
            n = "%s/%s_rounded_steps" % (name, NAMES[d])
            try:
                cs.append(case(n, op, [mk(Rand(n)).to(d)], fn, attrs=attrs, mode="emulated", ulp=0))
            except RuntimeError:
                # no float16 kernel in 1.13 (cummax, cumprod, logsumexp's
                # exp, logcumsumexp): the narrow() cases cover it via float32
                assert d == torch.float16, n
    return cs


if __name__ == "__main__":
    write_group("reduce_family", reduce_family_cases() + rounded_cases())
