"""Golden cases for the act family (sdk/ops/schema_act.go): group "act".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_act.py

writes golden/act.json.gz (format: golden_lib.py) from real PyTorch 1.13 on
the CPU. Per op: float64 cases (shapes, 0-d, empty, special values NaN,
±inf, ±0, every parameter, the in-place forms), backward cases, error
cases with PyTorch's message (integer and bool inputs, bad parameters),
and one emulated case per narrow dtype (float32, float16, bfloat16, with a
backward). Where PyTorch 1.13's CPU has no kernel at the dtype (float16 for
most of these, bfloat16 for mish) the narrow case is computed in float32
and rounded, as PyTorch's own half kernels compute in float32; its name
then ends in "_via_f32". Narrow cases carry PyTorch's own deviation from
the correctly rounded result (checked); the script prints every such case.
"""

import torch
import torch.nn.functional as F

from golden_lib import REPORT, Rand, case, checked, error_case, run_torch, via_f32, write_group

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
NAN, INF = float("nan"), float("inf")


def R(name):
    return Rand("act/" + name)


def special(dtype=f64):
    return torch.tensor([0.0, -0.0, NAN, INF, -INF, 1.5, -2.0, 0.5, -0.25, 3.0, -30.0, 25.0], dtype=dtype)


def narrow(op, fn, mk, backward=True, attrs=None, label=None, dtypes=NARROW):
    """One case per narrow dtype (emulated), through float32 where PyTorch
    1.13's CPU lacks the kernel."""
    cs = []
    for dn, d in dtypes.items():
        name = "%s/%s" % (label or op, dn)
        x = mk(R(name), d)
        f = fn
        try:
            rg = [backward and isinstance(v, torch.Tensor) and v.dtype.is_floating_point for v in x]
            outs, _ = run_torch(fn, x, rg, None)
            if backward:
                run_torch(fn, x, rg, [torch.ones_like(o) for o in outs])
        except RuntimeError:
            name, f = name + "_via_f32", via_f32(fn, d)
        cs.append(checked(name, op, x, f, attrs=attrs, backward=backward, mode="emulated"))
    return cs


def away_from(r, shape, points, d=f64, scale=1.5, gap=0.05):
    """Normal values at least gap away from the kinks in points."""
    x = r.randn(shape, f64) * scale
    for p in points:
        near = (x - p).abs() < gap
        x = torch.where(near, x + 2 * gap * torch.sign(x - p + 1e-300), x)
    return x.to(d)


INTS = {"int64": torch.tensor([1, -2, 0, 3]), "bool": torch.tensor([True, False, True])}


def int_errors(op, fn, attrs=None):
    return [error_case("%s/%s" % (op, dn), op, [x], fn, attrs=attrs) for dn, x in INTS.items()]


def common(op, fn, kinks, attrs=None, scale=1.5, label=None):
    """The usual float64 cases of a pointwise activation."""
    r = R(label or op)
    lb = label or op
    return [
        case(lb + "/2x3", op, [away_from(r, (2, 3), kinks, scale=scale)], fn, attrs=attrs),
        case(lb + "/3d", op, [away_from(r, (2, 3, 4), kinks, scale=scale * 2)], fn, attrs=attrs),
        case(lb + "/0d", op, [torch.tensor(-0.75, dtype=f64)], fn, attrs=attrs),
        case(lb + "/empty", op, [r.randn((0, 3))], fn, attrs=attrs),
        case(lb + "/special", op, [special()], fn, attrs=attrs, backward=False),
        case(lb + "/noncontig", op, [away_from(r, (4, 3), kinks, scale=scale).t()], fn, attrs=attrs),
    ]


def elu_cases():
    cs = common("elu", F.elu, [0], attrs={"alpha": 1.0})
    r = R("elu")
    cs.append(case("elu/alpha2", "elu", [away_from(r, (3, 4), [0])], lambda x: F.elu(x, 2.0), attrs={"alpha": 2.0}))
    cs.append(case("elu/alpha_neg", "elu", [away_from(r, (5,), [0])], lambda x: F.elu(x, -1.5), attrs={"alpha": -1.5}))
    cs.append(case("elu/alpha0", "elu", [away_from(r, (5,), [0])], lambda x: F.elu(x, 0.0), attrs={"alpha": 0.0}))
    cs.append(case("elu/tiny", "elu", [torch.tensor([-1e-9, -1e-17, -40.0, -800.0, 1e-300], dtype=f64)], F.elu, backward=False))
    cs.append(case("elu/inplace", "elu", [away_from(r, (2, 3), [0])], lambda x: F.elu(x.clone(), 0.5, inplace=True),
                   attrs={"alpha": 0.5, "inplace": True}))
    cs.append(case("elu/inplace_name", "elu", [away_from(r, (2, 3), [0])], lambda x: F.elu_(x.clone(), 1.5),
                   attrs={"alpha": 1.5, "inplace": True}))
    cs += int_errors("elu", F.elu)
    # PyTorch's bits at bfloat16 in place: the backward reads the result and alpha at float
    r = R("elu/bfloat16_inplace")
    cs.append(case("elu/bfloat16_inplace", "elu", [(r.randn((512,)) * 3).to(torch.bfloat16)], lambda x: F.elu(x.clone(), 1.3, inplace=True),
                   attrs={"alpha": 1.3, "inplace": True}, mode="emulated", ulp=0))
    cs += narrow("elu", lambda x: F.elu(x, 1.3), lambda r, d: [away_from(r, (2, 3), [0], d)], attrs={"alpha": 1.3})
    return cs


def leaky_relu_cases():
    cs = common("leaky_relu", F.leaky_relu, [0], attrs={"negative_slope": 0.01})
    r = R("leaky_relu")
    A = lambda s: {"negative_slope": s}  # noqa: E731
    cs.append(case("leaky_relu/slope", "leaky_relu", [away_from(r, (3, 4), [0])], lambda x: F.leaky_relu(x, 0.2), attrs=A(0.2)))
    cs.append(case("leaky_relu/slope_neg", "leaky_relu", [away_from(r, (5,), [0])], lambda x: F.leaky_relu(x, -0.5), attrs=A(-0.5)))
    cs.append(case("leaky_relu/slope_big", "leaky_relu", [away_from(r, (5,), [0])], lambda x: F.leaky_relu(x, 3.0), attrs=A(3.0)))
    cs.append(case("leaky_relu/inplace", "leaky_relu", [away_from(r, (2, 3), [0])], lambda x: F.leaky_relu(x.clone(), 0.1, inplace=True),
                   attrs={"negative_slope": 0.1, "inplace": True}))
    cs.append(case("leaky_relu/inplace_name", "leaky_relu", [away_from(r, (2, 3), [0])], lambda x: F.leaky_relu_(x.clone()),
                   attrs={"negative_slope": 0.01, "inplace": True}))
    cs += int_errors("leaky_relu", F.leaky_relu)
    cs += narrow("leaky_relu", lambda x: F.leaky_relu(x, 0.1), lambda r, d: [away_from(r, (2, 3), [0], d)], attrs=A(0.1))
    return cs


def hardtanh_cases():
    H = lambda lo, hi: {"min_val": lo, "max_val": hi}  # noqa: E731
    cs = common("hardtanh", F.hardtanh, [-1, 1], attrs=H(-1.0, 1.0))
    r = R("hardtanh")
    cs.append(case("hardtanh/limits", "hardtanh", [away_from(r, (3, 4), [-0.3, 0.7])], lambda x: F.hardtanh(x, -0.3, 0.7), attrs=H(-0.3, 0.7)))
    cs.append(case("hardtanh/edges", "hardtanh", [torch.tensor([-1.0, 1.0, -1.0000001, 0.9999999, 0.0], dtype=f64)], F.hardtanh,
                   attrs=H(-1.0, 1.0)))
    cs.append(case("hardtanh/min_gt_max", "hardtanh", [away_from(r, (6,), [2, 1])], lambda x: F.hardtanh(x, 2.0, 1.0), attrs=H(2.0, 1.0)))
    cs.append(case("hardtanh/inplace", "hardtanh", [away_from(r, (2, 3), [-0.5, 0.5])], lambda x: F.hardtanh(x.clone(), -0.5, 0.5, inplace=True),
                   attrs={"min_val": -0.5, "max_val": 0.5, "inplace": True}))
    cs.append(case("hardtanh/inplace_name", "hardtanh", [away_from(r, (2, 3), [-1, 1])], lambda x: F.hardtanh_(x.clone()),
                   attrs={"min_val": -1.0, "max_val": 1.0, "inplace": True}))
    cs.append(case("hardtanh/relu6", "hardtanh", [away_from(r, (3, 4), [0, 6], scale=4.0)], F.relu6, attrs=H(0.0, 6.0)))
    cs.append(case("hardtanh/relu6_inplace", "hardtanh", [away_from(r, (3, 4), [0, 6], scale=4.0)], lambda x: F.relu6(x.clone(), inplace=True),
                   attrs={"min_val": 0.0, "max_val": 6.0, "inplace": True}))
    cs.append(case("hardtanh/relu6_special", "hardtanh", [special()], F.relu6, attrs=H(0.0, 6.0), backward=False))
    xi = torch.tensor([3, -2, 0, 7, -5, 1])
    for dn, d in (("int64", torch.int64), ("int32", torch.int32), ("int8", torch.int8), ("int16", torch.int16)):
        cs.append(case("hardtanh/" + dn, "hardtanh", [xi.to(d)], lambda x: F.hardtanh(x, -1.5, 2.9), attrs=H(-1.5, 2.9), backward=False))
    cs.append(case("hardtanh/relu6_uint8", "hardtanh", [torch.tensor([1, 254, 3, 9, 0], dtype=torch.uint8)], F.relu6, attrs=H(0.0, 6.0),
                   backward=False))
    cs.append(case("hardtanh/relu6_int64", "hardtanh", [xi], F.relu6, attrs=H(0.0, 6.0), backward=False))
    cs.append(case("hardtanh/inplace_int", "hardtanh", [xi], lambda x: F.hardtanh_(x.clone(), 0, 4), attrs={"min_val": 0.0, "max_val": 4.0,
                                                                                                         "inplace": True}, backward=False))
    cs.append(error_case("hardtanh/uint8_negative", "hardtanh", [torch.tensor([1, 2], dtype=torch.uint8)], F.hardtanh, attrs=H(-1.0, 1.0)))
    cs.append(error_case("hardtanh/bool", "hardtanh", [torch.tensor([True, False])], F.hardtanh, attrs=H(-1.0, 1.0)))
    cs.append(error_case("hardtanh/relu6_bool", "hardtanh", [torch.tensor([True, False])], F.relu6, attrs=H(0.0, 6.0)))
    cs += narrow("hardtanh", lambda x: F.hardtanh(x, -0.3, 0.7), lambda r, d: [away_from(r, (2, 3), [-0.3, 0.7], d)], attrs=H(-0.3, 0.7))
    cs += narrow("hardtanh", F.relu6, lambda r, d: [away_from(r, (2, 3), [0, 6], d, scale=4.0)], attrs=H(0.0, 6.0), label="hardtanh/relu6")
    return cs


def hard_cases(op):
    fn = getattr(F, op)
    cs = common(op, fn, [-3, 3], scale=3.0)
    r = R(op)
    cs.append(case(op + "/edges", op, [torch.tensor([-3.0, 3.0, -2.9999, 2.9999, -3.0001, 3.0001, 0.0], dtype=f64)], fn))
    cs.append(case(op + "/inplace", op, [away_from(r, (2, 3), [-3, 3], scale=3.0)], lambda x: fn(x.clone(), inplace=True), attrs={"inplace": True}))
    cs += int_errors(op, fn)
    cs += narrow(op, fn, lambda r, d: [away_from(r, (3, 4), [-3, 3], d, scale=3.0)])
    # x = ±3 exactly in PyTorch's vectorised loop (the first n - n mod
    # width elements: 8 at float64, 16 at float32, 32 at bfloat16) and in
    # its scalar tail
    for dn, d, n in (("float64", f64, 11), ("float32", torch.float32, 19), ("bfloat16", torch.bfloat16, 35)):
        x = torch.linspace(-4, 4, n, dtype=f64)
        x[1], x[2], x[n - 2], x[n - 1] = 3.0, -3.0, 3.0, -3.0
        cs.append(case("%s/vector_tail_%s" % (op, dn), op, [x.to(d)], fn, mode="bench" if d == f64 else "emulated",
                       **({} if d == f64 else {"ulp": 0 if d == torch.bfloat16 else 1})))
    return cs


def mish_cases():
    cs = common("mish", F.mish, [], scale=3.0)
    r = R("mish")
    cs.append(case("mish/large", "mish", [torch.tensor([-50.0, -20.0, 20.0, 50.0, 800.0], dtype=f64)], F.mish))
    cs.append(case("mish/inplace", "mish", [r.randn((2, 3))], lambda x: F.mish(x.clone(), inplace=True), attrs={"inplace": True}))
    cs += int_errors("mish", F.mish)
    cs += narrow("mish", F.mish, lambda r, d: [(r.randn((3, 4)) * 2).to(d)])
    return cs


def softplus_cases():
    S = lambda b, t: {"beta": b, "threshold": t}  # noqa: E731
    cs = common("softplus", F.softplus, [], attrs=S(1.0, 20.0), scale=3.0)
    r = R("softplus")
    cs.append(case("softplus/beta", "softplus", [r.randn((3, 4)) * 3], lambda x: F.softplus(x, 2.5), attrs=S(2.5, 20.0)))
    cs.append(case("softplus/threshold", "softplus", [away_from(r, (3, 4), [1.0], scale=2.0)], lambda x: F.softplus(x, 1, 1), attrs=S(1.0, 1.0)))
    cs.append(case("softplus/beta_threshold", "softplus", [away_from(r, (3, 4), [0.5])], lambda x: F.softplus(x, 0.5, 0.25), attrs=S(0.5, 0.25)))
    cs.append(case("softplus/beta_neg", "softplus", [r.randn((5,))], lambda x: F.softplus(x, -1.0), attrs=S(-1.0, 20.0)))
    cs.append(case("softplus/large", "softplus", [torch.tensor([-800.0, -40.0, 19.9, 20.0, 20.1, 800.0], dtype=f64)], F.softplus, attrs=S(1.0, 20.0)))
    cs += int_errors("softplus", F.softplus, attrs=S(1.0, 20.0))
    cs += narrow("softplus", lambda x: F.softplus(x, 1.5, 3.0), lambda r, d: [away_from(r, (3, 4), [2.0], d, scale=2.0)], attrs=S(1.5, 3.0))
    return cs


def softshrink_cases():
    L = lambda v: {"lambd": v}  # noqa: E731
    cs = common("softshrink", F.softshrink, [0.5, -0.5], attrs=L(0.5))
    r = R("softshrink")
    cs.append(case("softshrink/lambd", "softshrink", [away_from(r, (3, 4), [1.2, -1.2], scale=2.0)], lambda x: F.softshrink(x, 1.2), attrs=L(1.2)))
    cs.append(case("softshrink/lambd0", "softshrink", [away_from(r, (5,), [0])], lambda x: F.softshrink(x, 0.0), attrs=L(0.0)))
    cs.append(case("softshrink/edges", "softshrink", [torch.tensor([0.5, -0.5, 0.5000001, -0.5000001, 0.0], dtype=f64)], F.softshrink,
                   attrs=L(0.5)))
    cs.append(error_case("softshrink/lambd_neg", "softshrink", [r.randn((3,))], lambda x: F.softshrink(x, -1.0), attrs=L(-1.0)))
    cs.append(error_case("softshrink/lambd_neg_frac", "softshrink", [r.randn((3,))], lambda x: F.softshrink(x, -0.25), attrs=L(-0.25)))
    cs += int_errors("softshrink", F.softshrink, attrs=L(0.5))
    cs += narrow("softshrink", lambda x: F.softshrink(x, 0.3), lambda r, d: [away_from(r, (3, 4), [0.3, -0.3], d)], attrs=L(0.3))
    # bfloat16: the forward reads lambd at float32, the backward at bfloat16
    bx = torch.tensor([0.2998, 0.30078125, 0.3, -0.30078125, 0.5, -0.296875, 0.3046875, 1.0], dtype=torch.bfloat16)
    cs.append(case("softshrink/bfloat16_lambd", "softshrink", [bx], lambda x: F.softshrink(x, 0.3), attrs=L(0.3), mode="emulated", ulp=0))
    return cs


def composite_cases(op, fn):
    cs = common(op, fn, [0], scale=2.0)
    xi = torch.tensor([3, -2, 0, 7, -5, 1])
    for dn, d in (("int64", torch.int64), ("int32", torch.int32), ("uint8", torch.uint8)):
        cs.append(case(op + "/" + dn, op, [xi.to(d)], fn, backward=False))
    cs.append(error_case(op + "/bool", op, [torch.tensor([True, False])], fn))
    cs += narrow(op, fn, lambda r, d: [away_from(r, (3, 4), [0], d, scale=2.0)])
    return cs


def logsigmoid_cases():
    cs = common("log_sigmoid", F.logsigmoid, [], scale=3.0)
    cs.append(case("log_sigmoid/large", "log_sigmoid", [torch.tensor([-800.0, -40.0, -1e-20, 1e-20, 40.0, 800.0], dtype=f64)], F.logsigmoid))
    cs += int_errors("log_sigmoid", F.logsigmoid)
    # PyTorch's bits at bfloat16: the backward reads the forward's buffer
    # exp(-|x|) rounded to bfloat16
    r = R("log_sigmoid/bfloat16_buffer")
    cs.append(case("log_sigmoid/bfloat16_buffer", "log_sigmoid", [(r.randn((512,)) * 3).to(torch.bfloat16)], F.logsigmoid,
                   mode="emulated", ulp=0))
    cs += narrow("log_sigmoid", F.logsigmoid, lambda r, d: [(r.randn((3, 4)) * 3).to(d)])
    return cs


def glu_cases():
    D = lambda d: {"dim": d}  # noqa: E731
    cs = []
    r = R("glu")
    cs.append(case("glu/last", "glu", [r.randn((3, 4)) * 2], F.glu, attrs=D(-1)))
    cs.append(case("glu/dim0", "glu", [r.randn((4, 3)) * 2], lambda x: F.glu(x, 0), attrs=D(0)))
    cs.append(case("glu/middle", "glu", [r.randn((2, 6, 3)) * 2], lambda x: F.glu(x, 1), attrs=D(1)))
    cs.append(case("glu/neg_dim", "glu", [r.randn((2, 2, 5)) * 2], lambda x: F.glu(x, -2), attrs=D(-2)))
    cs.append(case("glu/1d", "glu", [r.randn((8,)) * 2], F.glu, attrs=D(-1)))
    cs.append(case("glu/empty", "glu", [r.randn((0, 4))], F.glu, attrs=D(-1)))
    cs.append(case("glu/noncontig", "glu", [(r.randn((4, 6)) * 2).t()], lambda x: F.glu(x, 0), attrs=D(0)))
    cs.append(case("glu/special", "glu", [special().reshape(2, 6)], lambda x: F.glu(x, 1), attrs=D(1), backward=False))
    cs.append(error_case("glu/odd", "glu", [r.randn((2, 3))], F.glu, attrs=D(-1)))
    cs.append(error_case("glu/dim_range", "glu", [r.randn((2, 4))], lambda x: F.glu(x, 2), attrs=D(2)))
    cs.append(error_case("glu/0d", "glu", [torch.tensor(1.0, dtype=f64)], F.glu, attrs=D(-1)))
    cs += int_errors("glu", F.glu, attrs=D(-1))
    for d in (torch.bfloat16,):
        # PyTorch's bits at bfloat16: sigmoid(b) rounded to the dtype, then
        # the products (float32 is a few ulp off: its exp is vectorised)
        r = R("glu/rounded_steps/" + str(d))
        cs.append(case("glu/rounded_steps_" + str(d)[6:], "glu", [(r.randn((64, 16)) * 2).to(d)], F.glu, attrs=D(-1), mode="emulated", ulp=0))
    cs += narrow("glu", F.glu, lambda r, d: [(r.randn((3, 8)) * 2).to(d)], attrs=D(-1))
    return cs


def softmin_cases():
    D = lambda d, dt=None: {"dim": d, "dtype": dt}  # noqa: E731
    cs = []
    r = R("softmin")
    cs.append(case("softmin/last", "softmin", [r.randn((3, 4)) * 2], lambda x: F.softmin(x, -1), attrs=D(-1)))
    cs.append(case("softmin/dim0", "softmin", [r.randn((4, 3)) * 2], lambda x: F.softmin(x, 0), attrs=D(0)))
    cs.append(case("softmin/middle", "softmin", [r.randn((2, 5, 3)) * 2], lambda x: F.softmin(x, 1), attrs=D(1)))
    cs.append(case("softmin/0d", "softmin", [torch.tensor(0.3, dtype=f64)], lambda x: F.softmin(x, 0), attrs=D(0)))
    cs.append(case("softmin/empty", "softmin", [r.randn((0, 4))], lambda x: F.softmin(x, 1), attrs=D(1)))
    cs.append(case("softmin/special", "softmin", [special().reshape(3, 4)], lambda x: F.softmin(x, 1), attrs=D(1), backward=False))
    cs.append(case("softmin/large", "softmin", [torch.tensor([[-800.0, 0.0, 800.0], [1e3, 1e3, 1e3]], dtype=f64)], lambda x: F.softmin(x, 1),
                   attrs=D(1)))
    cs.append(case("softmin/dtype", "softmin", [r.randn((3, 4)).float()], lambda x: F.softmin(x, 1, dtype=torch.float64), attrs=D(1, "float64"),
                   mode="emulated"))
    cs.append(case("softmin/int_dtype", "softmin", [torch.tensor([[1, 2, 3], [-1, 0, 4]])], lambda x: F.softmin(x, 1, dtype=torch.float64),
                   attrs=D(1, "float64"), backward=False))
    cs.append(error_case("softmin/int64", "softmin", [torch.tensor([1, -2, 0, 3])], lambda x: F.softmin(x, 0), attrs=D(0)))
    cs.append(error_case("softmin/bool", "softmin", [torch.tensor([True, False])], lambda x: F.softmin(x, 0), attrs=D(0)))
    # PyTorch's bits at bfloat16: _softmax_backward_data's bfloat16 kernel
    for lb, shape, dim in (("last", (16, 32), 1),):
        r = R("softmin/bfloat16_" + lb)
        cs.append(case("softmin/bfloat16_" + lb, "softmin", [(r.randn(shape) * 2).to(torch.bfloat16)], lambda x, dim=dim: F.softmin(x, dim),
                       attrs=D(dim), mode="emulated", ulp=0))
    cs += narrow("softmin", lambda x: F.softmin(x, 1), lambda r, d: [(r.randn((3, 8)) * 2).to(d)], attrs=D(1))
    return cs


def param_cases():
    """Parameters that bfloat16 cannot hold, on many values: PyTorch's
    bfloat16 kernels read them at float32."""
    bf = torch.bfloat16
    cs = []
    for op, fn, attrs in (("leaky_relu", lambda x: F.leaky_relu(x, 0.3), {"negative_slope": 0.3}),
                          ("elu", lambda x: F.elu(x, 1.3), {"alpha": 1.3}),
                          ("softplus", lambda x: F.softplus(x, 1.3, 0.7), {"beta": 1.3, "threshold": 0.7}),
                          ("hardtanh", lambda x: F.hardtanh(x, -0.3, 0.7), {"min_val": -0.3, "max_val": 0.7})):
        r = R(op + "/bfloat16_param")
        cs.append(checked(op + "/bfloat16_param", op, [(r.randn((256,)) * 2).to(bf)], fn, attrs=attrs, backward=False, mode="emulated"))
    return cs


def main():
    cs = elu_cases() + leaky_relu_cases() + hardtanh_cases() + hard_cases("hardsigmoid") + hard_cases("hardswish")
    cs += mish_cases() + softplus_cases() + softshrink_cases()
    cs += composite_cases("softsign", F.softsign) + composite_cases("tanhshrink", F.tanhshrink)
    cs += logsigmoid_cases() + glu_cases() + softmin_cases() + param_cases()
    print("\n".join(REPORT))
    write_group("act", cs)


if __name__ == "__main__":
    main()
