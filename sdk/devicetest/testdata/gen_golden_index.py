"""Golden cases of the index family: scatter (src tensor or number, reduce
add/multiply, in place) and scatter_add. Group "index".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_index.py

writes golden/index.json.gz (format: golden_lib.py). Per op: float64 cases
(negative dims, 0-d, empty, NaN/inf/-0, numbers), integer and bool cases
(forward only), error cases with PyTorch's message, backward cases, and
forward (+ backward where torch has one) cases at float32, float16 and
bfloat16 (mode "emulated"). Cases that overwrite never write one element
twice (which one wins is up to the device); sums and products with
repeated indices do.
"""

import torch

from golden_lib import Rand, case, error_case, write_group

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def R(name):
    return Rand("index/" + name)


def L(v):
    return torch.tensor(v, dtype=torch.int64)


def special():
    return torch.tensor([[0.0, -0.0, float("nan")], [float("inf"), float("-inf"), 1.5]], dtype=f64)


def distinct(r, size, n, cols):
    """An index (n, cols) along dim 0 whose columns hold distinct rows of size."""
    cols = [torch.randperm(size, generator=r.g)[:n] for _ in range(cols)]
    return torch.stack(cols, 1) if cols else torch.zeros((n, 0), dtype=torch.int64)


class Cases:
    def __init__(self):
        self.cs = []

    def ok(self, name, op, inputs, fn, attrs=None, **kw):
        self.cs.append(case(name, op, inputs, fn, attrs=attrs, **kw))

    def err(self, name, op, inputs, fn, attrs=None):
        self.cs.append(error_case(name, op, inputs, fn, attrs=attrs))


def scatter_cases(C):
    r = R("scatter")
    x = r.randn((4, 3))

    def sc(dim, reduce=None, inplace=False):
        kw = {} if reduce is None else {"reduce": reduce}
        if inplace:
            return lambda s, i, v: s.clone().scatter_(dim, i, v, **kw)
        return lambda s, i, v: torch.scatter(s, dim, i, v, **kw)

    def a(dim, reduce=None, inplace=False):
        return {"dim": dim, "reduce": reduce, "inplace": inplace}
    i0 = distinct(r, 4, 2, 3)
    C.ok("scatter/src_dim0", "scatter", [x, i0, r.randn((2, 3))], sc(0), a(0))
    C.ok("scatter/src_dim1_neg", "scatter", [x, L([[2, 0], [1, 2], [0, 1], [1, 0]]), r.randn((4, 2))], sc(-1), a(-1))
    C.ok("scatter/src_bigger", "scatter", [x, i0, r.randn((3, 4))], sc(0), a(0), requires_grad=[True, False, False])
    C.ok("scatter/src_3d", "scatter", [r.randn((2, 3, 4)), torch.stack([distinct(r, 3, 2, 4) for _ in range(2)]), r.randn((2, 2, 4))], sc(1), a(1))
    C.ok("scatter/inplace", "scatter", [x, i0, r.randn((2, 3))], sc(0, inplace=True), a(0, inplace=True))
    C.ok("scatter/value", "scatter", [x, i0, 2.5], sc(0), a(0))
    C.ok("scatter/value_int", "scatter", [x, i0, -3], sc(0), a(0))
    C.ok("scatter/value_inplace", "scatter", [x, i0, 0.75], sc(0, inplace=True), a(0, inplace=True))
    C.ok("scatter/value_nan", "scatter", [x, i0, float("nan")], sc(0), a(0))
    C.ok("scatter/0d", "scatter", [r.randn(()), L(0), r.randn(())], sc(0), a(0))
    C.ok("scatter/0d_value", "scatter", [r.randn(()), L([0]), 4.0], sc(-1), a(-1))
    C.ok("scatter/1d", "scatter", [r.randn((5,)), L([4, 0, 2]), r.randn((3,))], sc(0), a(0))
    C.ok("scatter/empty_index", "scatter", [x, torch.zeros((0,), dtype=torch.int64), r.randn((1,))], sc(0), a(0),
         requires_grad=[True, False, False])
    C.ok("scatter/empty_self", "scatter", [r.randn((0, 3)), torch.zeros((0, 3), dtype=torch.int64), r.randn((0, 3))], sc(0), a(0))
    C.ok("scatter/special", "scatter", [special(), L([[1, 0, 1]]), torch.tensor([[float("-inf"), -0.0, float("nan")]], dtype=f64)], sc(0), a(0))
    C.ok("scatter/add", "scatter", [x, L([[0, 1, 1], [0, 1, 3], [0, 2, 3]]), r.randn((3, 3))], sc(0, "add"), a(0, "add"), backward=False)
    C.ok("scatter/multiply", "scatter", [x, L([[3, 1, 1], [3, 1, 0]]), r.randn((2, 3))], sc(0, "multiply"), a(0, "multiply"), backward=False)
    C.ok("scatter/value_add", "scatter", [x, L([[0, 1], [0, 1], [0, 2]]), 1.5], sc(1, "add"), a(1, "add"), backward=False)
    C.ok("scatter/value_multiply_inplace", "scatter", [x, L([[0, 1, 1], [0, 2, 1]]), -2.0], sc(0, "multiply", True), a(0, "multiply", True), backward=False)
    C.ok("scatter/add_special", "scatter", [special(), L([[0, 0, 1], [1, 1, 0]]), special()], sc(0, "add"), a(0, "add"), backward=False)
    ri = lambda: L([[0, 2], [1, 0]])
    C.ok("scatter/int64", "scatter", [r.randint(-50, 50, (3, 2)), ri(), r.randint(-50, 50, (2, 2))], sc(0), a(0), backward=False)
    C.ok("scatter/int32_value", "scatter", [r.randint(-50, 50, (3, 2), torch.int32), ri(), 2.9], sc(0), a(0), backward=False)
    C.ok("scatter/int8_add_wraps", "scatter", [r.randint(-100, 100, (3, 2), torch.int8), L([[1, 1], [1, 1], [1, 0]]), 100], sc(0, "add"), a(0, "add"), backward=False)
    C.ok("scatter/uint8_negative", "scatter", [r.randint(0, 200, (3, 2), torch.uint8), ri(), -1], sc(0), a(0), backward=False)
    C.ok("scatter/int16_multiply", "scatter", [r.randint(-50, 50, (3, 2), torch.int16), L([[1, 1], [1, 1]]), r.randint(-300, 300, (2, 2), torch.int16)],
         sc(0, "multiply"), a(0, "multiply"), backward=False)
    C.ok("scatter/bool", "scatter", [r.bool((3, 2)), ri(), r.bool((2, 2))], sc(0), a(0), backward=False)
    C.ok("scatter/bool_value", "scatter", [r.bool((3, 2)), ri(), 0.5], sc(0), a(0), backward=False)
    C.ok("scatter/bool_add", "scatter", [r.bool((3, 2), 0.2), L([[1, 1], [1, 0]]), r.bool((2, 2))], sc(0, "add"), a(0, "add"), backward=False)
    C.err("scatter/out_of_range", "scatter", [x, L([[0, 4]]), r.randn((1, 2))], sc(0), a(0))
    C.err("scatter/negative_index", "scatter", [x, L([[0, -1]]), 1.0], sc(0), a(0))
    C.err("scatter/int32_index", "scatter", [x, L([[0, 1]]).int(), 1.0], sc(0), a(0))
    C.err("scatter/src_dtype", "scatter", [x, L([[0, 1]]), r.randn((1, 2), torch.float32)], sc(0), a(0))
    C.err("scatter/rank", "scatter", [x, L([0, 1]), 1.0], sc(0), a(0))
    C.err("scatter/src_rank", "scatter", [x, L([[0]]), r.randn(())], sc(0), a(0))
    C.err("scatter/size_self", "scatter", [x, L([[0, 0, 0, 0]]), 1.0], sc(0), a(0))
    C.err("scatter/size_src", "scatter", [x, L([[0, 0], [1, 1]]), r.randn((1, 2))], sc(0), a(0))
    C.err("scatter/dim", "scatter", [x, L([[0]]), 1.0], sc(2), a(2))
    C.err("scatter/reduce", "scatter", [x, L([[0]]), 1.0], sc(0, "mean"), a(0, "mean"))
    C.err("scatter/value_overflow_int", "scatter", [r.randint(0, 5, (3,), torch.int32), L([1]), 2.0 ** 31], sc(0), a(0))
    C.err("scatter/value_overflow_half", "scatter", [r.randn((3,), torch.float16), L([1]), 65520.0], sc(0), a(0))
    C.err("scatter/value_nan_int", "scatter", [r.randint(0, 5, (3,)), L([1]), float("nan")], sc(0), a(0))
    for dn, dt in NARROW.items():
        C.ok("scatter/" + dn, "scatter", [x.to(dt), i0, r.randn((2, 3), dt)], sc(0), a(0), mode="emulated")
        C.ok("scatter/value_" + dn, "scatter", [x.to(dt), i0, 0.1], sc(0), a(0), mode="emulated")
        C.ok("scatter/add_" + dn, "scatter", [x.to(dt) * 100, L([[0, 1, 1], [0, 1, 3], [0, 2, 3], [0, 1, 3]]), r.randn((4, 3), dt)],
             sc(0, "add"), a(0, "add"), mode="emulated", backward=False)
        C.ok("scatter/multiply_" + dn, "scatter", [x.to(dt), L([[0, 1, 1], [0, 1, 3], [0, 2, 3]]), 1.1],
             sc(0, "multiply"), a(0, "multiply"), mode="emulated", backward=False)


def scatter_add_cases(C):
    r = R("scatter_add")
    x = r.randn((4, 3))

    def sa(dim, inplace=False):
        if inplace:
            return lambda s, i, v: s.clone().scatter_add_(dim, i, v)
        return lambda s, i, v: torch.scatter_add(s, dim, i, v)

    def a(dim, inplace=False):
        return {"dim": dim, "inplace": inplace}
    rep = L([[0, 1, 1], [0, 1, 3], [0, 2, 3]])
    C.ok("scatter_add/dim0_repeat", "scatter_add", [x, rep, r.randn((3, 3))], sa(0), a(0))
    C.ok("scatter_add/dim1_neg", "scatter_add", [x, L([[2, 2], [1, 2], [0, 0], [1, 0]]), r.randn((4, 2))], sa(-1), a(-1))
    C.ok("scatter_add/src_bigger", "scatter_add", [x, rep, r.randn((4, 4))], sa(0), a(0), requires_grad=[True, False, False])
    C.ok("scatter_add/3d", "scatter_add", [r.randn((2, 3, 4)), r.randint(0, 2, (2, 3, 4)), r.randn((2, 3, 4))], sa(2), a(2))
    C.ok("scatter_add/inplace", "scatter_add", [x, rep, r.randn((3, 3))], sa(0, True), a(0, True))
    C.ok("scatter_add/0d", "scatter_add", [r.randn(()), L(0), r.randn(())], sa(0), a(0))
    C.ok("scatter_add/1d", "scatter_add", [r.randn((5,)), L([4, 0, 4, 4]), r.randn((4,))], sa(0), a(0))
    C.ok("scatter_add/empty_index", "scatter_add", [x, torch.zeros((0, 3), dtype=torch.int64), r.randn((0, 3))], sa(0), a(0))
    C.ok("scatter_add/special", "scatter_add", [special(), L([[0, 0, 1], [1, 1, 0]]), special()], sa(0), a(0))
    C.ok("scatter_add/int64", "scatter_add", [r.randint(-50, 50, (3, 2)), L([[0, 0], [1, 0]]), r.randint(-50, 50, (2, 2))], sa(0), a(0), backward=False)
    C.ok("scatter_add/int8_wraps", "scatter_add", [r.randint(-100, 100, (3, 2), torch.int8), L([[1, 1], [1, 1]]), r.randint(60, 100, (2, 2), torch.int8)],
         sa(0), a(0), backward=False)
    C.ok("scatter_add/bool", "scatter_add", [r.bool((3, 2), 0.2), L([[1, 1], [1, 0]]), r.bool((2, 2))], sa(0), a(0), backward=False)
    C.err("scatter_add/out_of_range", "scatter_add", [x, L([[0, 4]]), r.randn((1, 2))], sa(0), a(0))
    C.err("scatter_add/int32_index", "scatter_add", [x, L([[0, 1]]).int(), r.randn((1, 2))], sa(0), a(0))
    C.err("scatter_add/src_dtype", "scatter_add", [x, L([[0, 1]]), r.randn((1, 2), torch.float32)], sa(0), a(0))
    C.err("scatter_add/rank", "scatter_add", [x, L([0, 1]), r.randn((2,))], sa(0), a(0))
    C.err("scatter_add/src_rank", "scatter_add", [x, L([[0]]), r.randn((1,))], sa(0), a(0))
    C.err("scatter_add/size", "scatter_add", [x, L([[0, 0], [1, 1]]), r.randn((1, 2))], sa(0), a(0))
    C.err("scatter_add/dim", "scatter_add", [x, L([[0]]), r.randn((1, 1))], sa(-3), a(-3))
    for dn, dt in NARROW.items():
        C.ok("scatter_add/" + dn, "scatter_add", [x.to(dt) * 100, L([[0, 1, 1], [0, 1, 3], [0, 2, 3], [0, 1, 3]]), r.randn((4, 3), dt)],
             sa(0), a(0), mode="emulated")


def main():
    torch.manual_seed(0)
    C = Cases()
    scatter_cases(C)
    scatter_add_cases(C)
    write_group("index", C.cs)


if __name__ == "__main__":
    main()
