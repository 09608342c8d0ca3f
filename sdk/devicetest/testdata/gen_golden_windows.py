"""Golden cases for the windows family (sdk/ops/schema_windows.go): torch's
signal windows, op window with a kind attribute.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_windows.py

writes golden/windows.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64; emulated cases at float32, bfloat16 (and
float16 for bartlett, the only window with a float16 CPU kernel) as
PyTorch's CPU computes them.
"""

import torch

from golden_lib import case, error_case, write_group

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
KINDS = ("hann", "hamming", "blackman", "bartlett", "kaiser")
# cos and calc_i0: PyTorch's vectorised float versions against the float64
# functions rounded differ by an ulp or so of values near 1 (the window then
# cancels them against alpha): an absolute tolerance of 2 eps at the dtype.
# bartlett has no transcendental and is reproduced bit for bit.
EXACT = {"rtol": 0.0, "atol": 0.0, "ulp": 0.0}


def emu_tol(kind, d):
    if kind == "bartlett":
        return EXACT
    return {"rtol": 0.0, "atol": 2 * torch.finfo(d).eps, "ulp": 0.0}


def window_cases(kind):
    cs = []
    fn = getattr(torch, kind + "_window")

    def add(name, n, periodic=True, dtype=f64, alpha=None, beta=None, mode="bench", error=False, tol=None):
        attrs = {"kind": kind, "periodic": periodic, "dtype": dtype}
        args = [n, periodic]
        if kind == "hamming":
            attrs["alpha"] = 0.54 if alpha is None else float(alpha)
            attrs["beta"] = 0.46 if beta is None else float(beta)
            args += [attrs["alpha"], attrs["beta"]]
        elif kind == "kaiser":
            attrs["beta"] = 12.0 if beta is None else float(beta)
            args += [attrs["beta"]]

        def f(n):
            return fn(n, *args[1:], dtype=dtype)
        nm = "%s/%s" % (kind, name)
        if error:
            cs.append(error_case(nm, "window", [n], f, attrs=attrs, mode=mode))
        else:
            cs.append(case(nm, "window", [n], f, attrs=attrs, backward=False, mode=mode, **(tol or {})))

    for n in (0, 1, 2, 3, 5, 8, 33, 256):
        add("periodic/%d" % n, n)
        add("symmetric/%d" % n, n, periodic=False)
    add("long", 1000)
    if kind == "hamming":
        add("alpha_beta", 17, alpha=0.3, beta=0.2)
        add("neg_beta", 9, periodic=False, alpha=1.0, beta=-0.5)
    if kind == "kaiser":
        add("beta0", 11, beta=0.0)
        add("beta_small", 12, beta=2.5, periodic=False)
        add("beta_large", 40, beta=30.0)
    add("err/negative", -1, error=True)
    for d in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
        add("err/%s" % str(d)[6:], 5, dtype=d, error=True)
    for d in (f32, bf16, f16):
        try:
            fn(4, dtype=d)
        except RuntimeError:
            # no CPU kernel at the dtype (float16 but bartlett): the torch
            # plugin reports PyTorch's "not implemented" as unsupported, so
            # no error case; length 1 is ones before the kernel
            add("emu/%s/len1" % str(d)[6:], 1, dtype=d, mode="emulated")
            continue
        for n, p in ((7, True), (16, False), (100, True), (301, False)):
            add("emu/%s/%d_%s" % (str(d)[6:], n, p), n, periodic=p, dtype=d, mode="emulated", tol=emu_tol(kind, d))
    return cs


if __name__ == "__main__":
    cs = []
    for k in KINDS:
        cs += window_cases(k)
    write_group("windows", cs)
