"""Golden cases for the aten backward references that msprobe dumps as
their own records (fused-ops.md §0.1, §16; the fused operators' *_backward
of §4, §6, §8-§11), written to golden/aten.json.gz.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_aten.py

matmul_backward(grad, self, other, mask) -> (grad_self, grad_other) is the
backward of torch.matmul: torch.autograd.grad of torch.matmul(self, other)
for grad, broadcast batch dimensions summed back to the inputs' shapes (what
autograd does; msprobe's reference skips that reduction, fused-ops §16). A
gradient whose mask entry is False is zero-size. Narrow-dtype cases are
torch's own (mode "emulated", well-conditioned inputs; float16 through
float32).
"""

import torch

from golden_lib import Rand, case, write_group


def matmul_backward(mask, via=None):
    """torch's autograd of torch.matmul at the inputs' dtype (computed in
    via and rounded back when given: 1.13's CPU has no float16 matmul)."""
    def fn(grad, a, b):
        dt = a.dtype
        w = via or dt
        x, y = a.detach().to(w).requires_grad_(), b.detach().to(w).requires_grad_()
        gx, gy = torch.autograd.grad(torch.matmul(x, y), [x, y], grad.to(w))
        return (gx.to(dt) if mask[0] else torch.zeros(0, dtype=dt),
                gy.to(dt) if mask[1] else torch.zeros(0, dtype=dt))
    return fn


def _grad_of(f, x, g):
    leaf = x.detach().requires_grad_()
    return torch.autograd.grad(f(leaf), leaf, g)[0]


def gen():
    r = Rand("aten")
    cs = []

    def add(name, sa, sb, mask=(True, True), dtype=torch.float64):
        if dtype == torch.float64:
            a, b = r.randn(sa), r.randn(sb)
            g = r.randn(torch.matmul(a, b).shape)
        else:
            # well conditioned (positive terms, no cancelling sums): torch's
            # narrow GEMM rounds its sums, and only its result dtype and
            # values to the dtype's tolerance are the point here
            a, b = r.rand(sa, torch.float64, 0.5, 1.5).to(dtype), r.rand(sb, torch.float64, 0.5, 1.5).to(dtype)
            g = r.rand(torch.matmul(a.double(), b.double()).shape, torch.float64, 0.5, 1.5).to(dtype)
        mode = "bench" if dtype == torch.float64 else "emulated"
        via = torch.float32 if dtype == torch.float16 else None
        cs.append(case("matmul_backward/" + name, "matmul_backward", [g, a, b], matmul_backward(mask, via),
                       attrs={"output_mask": [int(m) for m in mask]}, backward=False, mode=mode))

    add("1d_1d", (4,), (4,))
    add("2d_1d", (3, 4), (4,))
    add("1d_2d", (4,), (4, 5))
    add("2d_2d", (3, 4), (4, 5))
    add("3d_2d", (2, 3, 4), (4, 5))
    add("3d_1d", (2, 3, 4), (4,))
    add("2d_3d", (3, 4), (2, 4, 5))
    add("1d_3d", (4,), (2, 4, 5))
    add("batched", (2, 3, 4), (2, 4, 5))
    add("broadcast_batch", (1, 3, 4), (2, 4, 5))
    add("broadcast_4d", (2, 1, 3, 4), (3, 4, 5))
    add("mask_self_only", (3, 4), (4, 5), mask=(True, False))
    add("mask_other_only", (2, 3, 4), (4, 5), mask=(False, True))
    add("float32", (2, 3, 4), (4, 5), dtype=torch.float32)
    add("float16", (3, 4), (2, 4, 5), dtype=torch.float16)
    add("bfloat16", (3, 4), (4, 5), dtype=torch.bfloat16)
    # fused-ops.md §16's worked example: self [[1,2],[3,4]], other [1,1],
    # grad [1,2] -> grad_self [[1,1],[2,2]], grad_other [7,10].
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = torch.tensor([1.0, 1.0])
    g = torch.tensor([1.0, 2.0])
    c = case("matmul_backward/spec_example", "matmul_backward", [g.double(), a.double(), b.double()],
             matmul_backward((True, True)), attrs={"output_mask": [1, 1]}, backward=False)
    assert c["outputs"][0]["data"] == [1.0, 1.0, 2.0, 2.0] and c["outputs"][1]["data"] == [7.0, 10.0], c["outputs"]
    cs.append(c)

    # The fused operators' aten backward references: autograd of their
    # float64 defining formulas (fused-ops.md §4, §6, §8-§11); narrow
    # dtypes are that result rounded once (mode "emulated").
    def vjp(name, op, fwd, ins, wrt, attrs=None, dtypes=(torch.float64,)):
        for dt in dtypes:
            xs = [x.to(dt) if isinstance(x, torch.Tensor) and x.dtype.is_floating_point else x for x in ins]

            def fn(g, *xs):
                leaves = [x.detach().double().requires_grad_() if i in wrt else x for i, x in enumerate(xs)]
                y = fwd(*leaves)
                gs = torch.autograd.grad(y, [leaves[i] for i in wrt], g.double())
                return tuple(gr.to(xs[i].dtype) for gr, i in zip(gs, wrt))
            with torch.no_grad():
                shape = fwd(*[x.double() if isinstance(x, torch.Tensor) and x.dtype.is_floating_point else x for x in xs]).shape
            g = r.randn(shape).to(dt)
            tag = name if dt == torch.float64 else name + "/" + str(dt).split(".")[1]
            cs.append(case(op + "/" + tag, op, [g] + xs, fn, attrs=attrs, backward=False,
                           mode="bench" if dt == torch.float64 else "emulated"))

    narrow = (torch.float64, torch.float32, torch.float16, torch.bfloat16)
    fast_gelu = lambda x: x * torch.sigmoid(1.702 * x)  # noqa: E731
    vjp("basic", "npu.fast_gelu_backward", fast_gelu, [r.randn((3, 4)) * 3], [0], dtypes=narrow)

    def swiglu(dim):
        def f(x):
            a, b = x.chunk(2, dim=dim)
            return torch.nn.functional.silu(a) * b
        return f
    vjp("last", "npu.swiglu_backward", swiglu(-1), [r.randn((2, 3, 6))], [0], {"dim": -1}, dtypes=narrow)
    vjp("dim0", "npu.swiglu_backward", swiglu(0), [r.randn((4, 3))], [0], {"dim": 0})

    def rotary(mode):
        def rot(x):
            if mode == "half":
                x1, x2 = x.chunk(2, dim=-1)
                return torch.cat([-x2, x1], dim=-1)
            out = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1)
            return out.reshape(x.shape)
        return lambda x, r1, r2: r1 * x + r2 * rot(x)
    vjp("bsnd_broadcast", "npu.rotary_mul_backward", rotary("half"), [r.randn((2, 3, 2, 4)), r.randn((1, 3, 1, 4)), r.randn((1, 3, 1, 4))],
        [0, 1, 2], {"rotary_mode": "half"}, dtypes=narrow)
    vjp("interleave_full", "npu.rotary_mul_backward", rotary("interleave"), [r.randn((2, 4)), r.randn((2, 4)), r.randn((1, 4))],
        [0, 1, 2], {"rotary_mode": "interleave"})
    vjp("basic", "npu.linear_backward", lambda x, w: x @ w.t(), [r.randn((3, 5)), r.randn((4, 5))], [0, 1], dtypes=narrow)
    vjp("batched", "npu.linear_backward", lambda x, w: x @ w.t(), [r.randn((2, 3, 5)), r.randn((4, 5))], [0, 1])

    def sms(scale, mask):
        def f(x):
            return torch.softmax((x * scale).masked_fill(mask, -10000.0), dim=-1)
        return f
    # npu_scaled_masked_softmax_backward(y_grad, y, mask, scale,
    # fixed_triu_mask) takes the forward's output y
    for dt in narrow:
        x = r.randn((2, 3, 5))
        mask = r.bool((2, 1, 3, 5), 0.3)[:, 0]
        mask[0, 0] = True  # a fully masked row: uniform y, zero gradient
        f = sms(0.7, mask)
        y = f(x)
        g = r.randn(y.shape)

        def fn(g, y, m, x=x, f=f):
            if g.dtype == torch.float64:
                leaf = x.detach().requires_grad_()
                return torch.autograd.grad(f(leaf), leaf, g)[0]
            # the given y is rounded: the formula on it, in float64
            gd, yd = g.double(), y.double()
            return (0.7 * yd * (gd - (gd * yd).sum(-1, keepdim=True))).masked_fill(m, 0.0).to(g.dtype)
        tag = "masked" if dt == torch.float64 else "masked/" + str(dt).split(".")[1]
        cs.append(case("npu.scaled_masked_softmax_backward/" + tag, "npu.scaled_masked_softmax_backward", [g.to(dt), y.to(dt), mask], fn,
                       attrs={"scale": 0.7, "fixed_triu_mask": False}, backward=False, mode="bench" if dt == torch.float64 else "emulated"))
    x = r.randn((2, 4, 4))
    triu = torch.ones(4, 4, dtype=torch.bool).triu(1)
    y = sms(0.5, triu)(x)
    g = r.randn(y.shape)
    cs.append(case("npu.scaled_masked_softmax_backward/triu", "npu.scaled_masked_softmax_backward", [g, y, torch.zeros(1, 1, dtype=torch.bool)],
                   lambda g, y, m, x=x: _grad_of(sms(0.5, triu), x, g),
                   attrs={"scale": 0.5, "fixed_triu_mask": True}, backward=False))

    # npu_rms_norm_backward(dy, self, gamma, rstd) with the forward's rstd
    def rms_case(tag, xs, gs, reduce=True, dt=torch.float64):
        x, gamma = r.randn(xs).to(dt), r.rand(gs, torch.float64, 0.5, 1.5).to(dt)
        k = len(gs)
        dims = tuple(range(x.dim() - k, x.dim()))
        rstd = torch.rsqrt(x.double().pow(2).mean(dim=dims, keepdim=True) + 1e-6)
        dy = r.randn(xs).to(dt)

        def fn(dy, x, gamma, rstd):
            xl, gl = x.detach().double().requires_grad_(), gamma.detach().double().requires_grad_()
            if dt == torch.float64:
                rs = torch.rsqrt(xl.pow(2).mean(dim=dims, keepdim=True) + 1e-6)
                dx, dg = torch.autograd.grad(xl * rs * gl, [xl, gl], dy.double())
            else:
                # the given rstd is rounded: the formula on it, in float64
                rs, d = rstd.double(), dy.double()
                c = (d * xl * gl * rs).mean(dim=dims, keepdim=True)
                dx = (d * gl - xl * rs * c) * rs
                dg = (d * xl * rs).sum(dim=tuple(range(x.dim() - k)))
            if not reduce:
                dg = dy.double() * x.double() * rstd.double()
            return dx.to(dt), dg.to(dt)
        cs.append(case("npu.rms_norm_backward/" + tag, "npu.rms_norm_backward", [dy, x, gamma, rstd.to(dt)],
                       fn, attrs={"reduce_dgamma": reduce}, backward=False, mode="bench" if dt == torch.float64 else "emulated"))
    rms_case("rows", (3, 4), (4,))
    rms_case("two_dims", (2, 3, 4), (3, 4))
    rms_case("unreduced", (3, 4), (4,), reduce=False)
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        rms_case("rows/" + str(dt).split(".")[1], (3, 4), (4,), dt=dt)
    # fused-ops.md §8's worked example: x [1,2,3,4], gamma [1,0.5,2,1], dy 1
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)
    gamma = torch.tensor([1.0, 0.5, 2.0, 1.0], dtype=torch.float64)
    rstd = torch.rsqrt(x.pow(2).mean(keepdim=True, dim=0) + 1e-6)
    c = case("npu.rms_norm_backward/spec_example", "npu.rms_norm_backward", [torch.ones(4, dtype=torch.float64), x, gamma, rstd],
             lambda dy, x, g, rs: ((dy * g - x * rs * (dy * x * g * rs).mean()) * rs, dy * x * rs),
             attrs={"reduce_dgamma": True}, backward=False)
    want_dx = [0.2190890279, -0.1095444652, 0.2921187363, -0.2190889305]
    assert all(abs(a - b) < 1e-9 for a, b in zip(c["outputs"][0]["data"], want_dx)), c["outputs"][0]
    cs.append(c)
    return cs


if __name__ == "__main__":
    write_group("aten", gen())
