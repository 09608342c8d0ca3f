"""Golden cases for the emulated device's float32 matrix products:
group "f32_nn".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_f32_nn.py

writes golden/f32_nn.json.gz (format: golden_lib.py) from real PyTorch
1.13 on the CPU, one thread. PyTorch sums a float32 product in float32
(BLAS sgemm for mm, bmm above 400 multiply-adds per batch, matmul, addmm
and linear; oneDNN for convolutions of a batch, slow_conv2d's im2col and
sgemm for a single small image); the emulated device must too, not round
the float64 product once.

Every product has m·n·k of at least 32³: smaller ones the emulated device
forms in float64 (nnGemmAt packs only above that size).

  - "first_term_dominates": every sum starts with one large term (the
    first column of A, the weight at input channel 0 and kernel offset 0,
    an integer in [2048, 4096) times a value in [1, 2)) and then adds
    k - 1 terms below half a unit in the last place of that partial sum.
    Summed in float32 in any order that starts with the large term (a
    chain over k, as BLAS and oneDNN sum; every k here is at most 256, one
    block of the emulated device's sgemm), each small term is rounded
    away; the float64 sum keeps them, several units in the last place of
    the result higher. Every product is exact in float32 (few mantissa
    bits), so a fused or unfused multiply-add gives the same sums. The
    cases carry rtol and atol that any correct summation meets (the float64
    sum included: a real device may sum in another order); the CPU
    plugin's emulated mode holds them to 2 ulp (plugins/cpu/golden_test.go).
    Forward only: the gradients' sums have no such order.
  - "random": normal inputs with large k, forward and backward (the
    convolutions' weight gradient sums over the images too). PyTorch's
    summation order (oneDNN's blocking, BLAS's loops) is not the emulated
    device's, and with cancellation two float32 orders differ by many
    units in the last place of a small result; these cases carry rtol and
    atol at the size of float32 accumulation error over k terms, which the
    float64 product meets as well: they check the products' indexing and
    the gradients at float32, not the float32 rounding.
"""

import torch
import torch.nn.functional as F

from golden_lib import Rand, case, write_group

f32 = torch.float32
f64 = torch.float64

CASES = []


def add(name, op, inputs, fn, **kw):
    CASES.append(case(name, op, inputs, fn, mode="emulated", **kw))
    if "first_term_dominates" in name:
        # the claim of the module doc: the float64 product, rounded once,
        # is several ulp from PyTorch's float32 sums
        got = fn(*inputs)
        exact = fn(*[v.to(f64) for v in inputs]).to(f32)
        ulp = (torch.nextafter(exact.abs(), torch.tensor(float("inf"))) - exact.abs()).to(f64)
        far = ((got.to(f64) - exact.to(f64)).abs() / ulp).max().item()
        assert far > 4, "%s: the float64 product is only %g ulp from PyTorch's" % (name, far)
        print("%s: float64 product up to %.0f ulp from PyTorch's" % (name, far))


def mantissa(r, shape, bits):
    """Values in [1, 2) with `bits` bits after the point."""
    return 1 + r.randint(0, 1 << bits, shape).to(f64) / (1 << bits)


def big(r, shape):
    return r.randint(2048, 4096, shape).to(f64)


def small(r, shape):
    """Below 2^-15: times a value in [1, 2), under half an ulp of 2048."""
    return mantissa(r, shape, 8) * 2.0 ** -16


def conv_attrs(n, stride=1, padding=0, dilation=1, groups=1):
    return {"stride": [stride] * n, "padding": [padding] * n, "dilation": [dilation] * n, "groups": groups}


def conv_fn(n, stride=1, padding=0, dilation=1, groups=1):
    def fn(x, w, b):
        return torch.convolution(x, w, b, [stride] * n, [padding] * n, [dilation] * n, False, [0] * n, groups)
    return fn


def first_term_dominates():
    def cv(name, xs, ws):
        nm = "convolution/f32/first_term_dominates/" + name
        r = Rand(nm)
        x = mantissa(r, xs, 7)
        w = small(r, ws)
        w.view(ws[0], -1)[:, 0] = big(r, [ws[0]])
        b = r.randint(-8, 9, [ws[0]]).to(f64)
        n = len(xs) - 2
        add(nm, "convolution", [x.to(f32), w.to(f32), b.to(f32)], conv_fn(n), attrs=conv_attrs(n),
            backward=False, rtol=4e-5, atol=1e-4)

    cv("conv2d_batch2_k144", [2, 16, 8, 8], [16, 16, 3, 3])       # oneDNN
    cv("conv2d_batch1_k144", [1, 16, 8, 8], [16, 16, 3, 3])       # slow_conv2d
    # (no conv1d: PyTorch's oneDNN conv1d does not sum in one chain from
    # input channel 0, kernel offset 0, and keeps part of the small terms)
    cv("conv2d_1x1_batch2_k64", [2, 64, 6, 8], [16, 64, 1, 1])   # the columns are the input

    def mat(name, op, a_shape, b_shape, fn, self_shape=None, trans_b=False):
        nm = op + "/f32/first_term_dominates/" + name
        r = Rand(nm)
        a = small(r, a_shape)
        a[..., 0] = big(r, a_shape[:-1])
        b = mantissa(r, b_shape, 7)
        inputs = [a.to(f32), b.to(f32)]
        if self_shape is not None:
            inputs = [r.randint(-8, 9, self_shape).to(f64).to(f32)] + inputs
        add(nm, op, inputs, fn, backward=False, rtol=4e-5, atol=1e-4)

    mat("k200", "mm", [16, 200], [200, 20], torch.mm)
    mat("k200", "bmm", [2, 12, 200], [2, 200, 16], torch.bmm)
    mat("batched_by_matrix_k200", "matmul", [2, 2, 12, 200], [200, 16], torch.matmul)
    mat("batched_k130", "matmul", [2, 16, 130], [2, 130, 20], torch.matmul)
    mat("k200", "addmm", [16, 200], [200, 20], torch.addmm, self_shape=[20])
    nm = "linear/f32/first_term_dominates/k200_bias"
    r = Rand(nm)
    x = small(r, [16, 200])
    x[:, 0] = big(r, [16])
    w = mantissa(r, [20, 200], 7)
    b = r.randint(-8, 9, [20]).to(f64)
    add(nm, "linear", [x.to(f32), w.to(f32), b.to(f32)], F.linear, backward=False, rtol=4e-5, atol=1e-4)


def random_cases():
    def cv(name, xs, ws, groups=1, stride=1, padding=1, dilation=1):
        nm = "convolution/f32/random/" + name
        r = Rand(nm)
        x = r.randn(xs).to(f32)
        w = r.randn(ws).to(f32)
        b = r.randn(ws[:1]).to(f32)
        n = len(xs) - 2
        add(nm, "convolution", [x, w, b], conv_fn(n, stride, padding, dilation, groups),
            attrs=conv_attrs(n, stride, padding, dilation, groups), rtol=1e-5, atol=1e-4)

    cv("conv2d_batch2_k288", [2, 32, 6, 6], [16, 32, 3, 3])
    cv("conv2d_batch1_k288_groups2", [1, 64, 5, 5], [16, 32, 3, 3], groups=2)
    cv("conv1d_batch3_k320_stride2", [3, 64, 17], [12, 64, 5], stride=2, padding=2)

    def mat(name, op, a_shape, b_shape, fn):
        nm = op + "/f32/random/" + name
        r = Rand(nm)
        add(nm, op, [r.randn(a_shape).to(f32), r.randn(b_shape).to(f32)], fn, rtol=1e-5, atol=1e-4)

    mat("k300", "bmm", [2, 12, 300], [2, 300, 16], torch.bmm)
    mat("k260_broadcast", "matmul", [2, 2, 12, 260], [260, 12], torch.matmul)
    mat("k300", "mm", [20, 300], [300, 16], torch.mm)


def main():
    torch.set_num_threads(1)
    first_term_dominates()
    random_cases()
    write_group("f32_nn", CASES)


if __name__ == "__main__":
    main()
