"""Golden cases of the index family: scatter (src tensor or number, reduce
add/multiply, in place), scatter_add, index_add, index_copy, index_fill. Group "index".

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


def index_add_cases(C):
    r = R("index_add")
    x = r.randn((4, 3))

    def ia(dim, alpha=None, inplace=False):
        kw = {} if alpha is None else {"alpha": alpha}
        if inplace:
            return lambda s, i, v: s.clone().index_add_(dim, i, v, **kw)
        return lambda s, i, v: torch.index_add(s, dim, i, v, **kw)

    def a(dim, alpha=1.0, inplace=False):
        return {"dim": dim, "alpha": float(alpha), "inplace": inplace}
    C.ok("index_add/dim0_repeat", "index_add", [x, L([3, 0, 3, 3]), r.randn((4, 3))], ia(0), a(0))
    C.ok("index_add/dim1_neg_alpha", "index_add", [x, L([2, 0]), r.randn((4, 2))], ia(-1, 2.5), a(-1, 2.5))
    C.ok("index_add/int32_index", "index_add", [x, L([1, 1]).int(), r.randn((2, 3))], ia(0, -0.5), a(0, -0.5))
    C.ok("index_add/3d", "index_add", [r.randn((2, 3, 4)), L([2, 0, 2]), r.randn((2, 3, 4))], ia(1), a(1))
    C.ok("index_add/inplace", "index_add", [x, L([1, 2]), r.randn((2, 3))], ia(0, 3, True), a(0, 3, True))
    C.ok("index_add/0d", "index_add", [r.randn(()), L(0), r.randn(())], ia(0, 2), a(0, 2))
    C.ok("index_add/0d_index", "index_add", [x, L(2), r.randn((1, 3))], ia(0), a(0))
    C.ok("index_add/1d", "index_add", [r.randn((5,)), L([4, 0, 4]), r.randn((3,))], ia(0, 1.5), a(0, 1.5))
    C.ok("index_add/empty_index", "index_add", [x, torch.zeros((0,), dtype=torch.int64), r.randn((0, 3))], ia(0), a(0))
    C.ok("index_add/special", "index_add", [special(), L([1, 1]), special()], ia(0), a(0))
    C.ok("index_add/int64_alpha", "index_add", [r.randint(-50, 50, (3, 2)), L([0, 0]), r.randint(-50, 50, (2, 2))], ia(0, 3), a(0, 3), backward=False)
    C.ok("index_add/int8_wraps", "index_add", [r.randint(-100, 100, (3, 2), torch.int8), L([1, 1]), r.randint(60, 100, (2, 2), torch.int8)],
         ia(0), a(0), backward=False)
    C.ok("index_add/bool", "index_add", [r.bool((3, 2), 0.2), L([1, 0]), r.bool((2, 2))], ia(0), a(0), backward=False)
    C.err("index_add/out_of_range", "index_add", [x, L([4]), r.randn((1, 3))], ia(0), a(0))
    C.err("index_add/negative", "index_add", [x, L([-1]), r.randn((1, 3))], ia(0), a(0))
    C.err("index_add/float_index", "index_add", [x, torch.tensor([0.0]), r.randn((1, 3))], ia(0), a(0))
    C.err("index_add/matrix_index", "index_add", [x, L([[0]]), r.randn((1, 3))], ia(0), a(0))
    C.err("index_add/source_dtype", "index_add", [x, L([0]), r.randn((1, 3), torch.float32)], ia(0), a(0))
    C.err("index_add/count", "index_add", [x, L([0, 1]), r.randn((1, 3))], ia(0), a(0))
    C.err("index_add/dim", "index_add", [x, L([0]), r.randn((1, 3))], ia(2), a(2))
    for dn, dt in NARROW.items():
        C.ok("index_add/" + dn, "index_add", [x.to(dt) * 100, L([3, 0, 3, 3]), r.randn((4, 3), dt)], ia(0), a(0), mode="emulated")
        C.ok("index_add/1d_" + dn, "index_add", [r.randn((5,), dt) * 100, L([4, 0, 4]), r.randn((3,), dt)], ia(0, 2), a(0, 2), mode="emulated")

    r = R("index_copy")

    def icp(dim, inplace=False):
        if inplace:
            return lambda s, i, v: s.clone().index_copy_(dim, i, v)
        return lambda s, i, v: torch.index_copy(s, dim, i, v)

    def b(dim, inplace=False):
        return {"dim": dim, "inplace": inplace}
    C.ok("index_copy/dim0", "index_copy", [x, L([3, 0]), r.randn((2, 3))], icp(0), b(0))
    C.ok("index_copy/dim1_neg", "index_copy", [x, L([2, 0]), r.randn((4, 2))], icp(-1), b(-1))
    C.ok("index_copy/3d", "index_copy", [r.randn((2, 3, 4)), L([3, 1]), r.randn((2, 3, 2))], icp(2), b(2))
    C.ok("index_copy/inplace", "index_copy", [x, L([1, 2]), r.randn((2, 3))], icp(0, True), b(0, True))
    C.ok("index_copy/0d", "index_copy", [r.randn(()), L(0), r.randn(())], icp(0), b(0))
    C.ok("index_copy/0d_index", "index_copy", [x, L(2), r.randn((1, 3))], icp(0), b(0))
    C.ok("index_copy/empty_index", "index_copy", [x, torch.zeros((0,), dtype=torch.int64), r.randn((0, 3))], icp(0), b(0))
    C.ok("index_copy/special", "index_copy", [special(), L([1, 0]), special()], icp(0), b(0))
    C.ok("index_copy/int64", "index_copy", [r.randint(-50, 50, (3, 2)), L([2, 0]), r.randint(-50, 50, (2, 2))], icp(0), b(0), backward=False)
    C.ok("index_copy/bool", "index_copy", [r.bool((3, 2)), L([1]), r.bool((3, 1))], icp(1), b(1), backward=False)
    C.err("index_copy/out_of_range", "index_copy", [x, L([4]), r.randn((1, 3))], icp(0), b(0))
    C.err("index_copy/negative", "index_copy", [x, L([-1]), r.randn((1, 3))], icp(0), b(0))
    C.err("index_copy/int32_index", "index_copy", [x, L([0]).int(), r.randn((1, 3))], icp(0), b(0))
    C.err("index_copy/matrix_index", "index_copy", [x, L([[0]]), r.randn((1, 3))], icp(0), b(0))
    C.err("index_copy/source_dtype", "index_copy", [x, L([0]), r.randn((1, 3), torch.float32)], icp(0), b(0))
    C.err("index_copy/count", "index_copy", [x, L([0, 1, 2]), r.randn((2, 3))], icp(0), b(0))
    C.err("index_copy/rank", "index_copy", [x, L([0, 1, 2]), r.randn((3,))], icp(0), b(0))
    for dn, dt in NARROW.items():
        C.ok("index_copy/" + dn, "index_copy", [x.to(dt), L([3, 0]), r.randn((2, 3), dt)], icp(0), b(0), mode="emulated")

    r = R("index_fill")

    def ifl(dim, inplace=False):
        if inplace:
            return lambda s, i, v: s.clone().index_fill_(dim, i, v)
        return lambda s, i, v: torch.index_fill(s, dim, i, v)
    C.ok("index_fill/dim0", "index_fill", [x, L([3, 0, 3]), 2.5], ifl(0), b(0))
    C.ok("index_fill/dim1_neg_index", "index_fill", [x, L([-1, 0]), -1], ifl(-1), b(-1))
    C.ok("index_fill/tensor_value", "index_fill", [x, L([1, 1, 2]), r.randn(())], ifl(0), b(0))
    C.ok("index_fill/tensor_value_neg_index", "index_fill", [x, L([-1]), r.randn(())], ifl(0), b(0), requires_grad=[True, False, False])
    C.ok("index_fill/3d", "index_fill", [r.randn((2, 3, 4)), L([2, 0]), r.randn(())], ifl(1), b(1))
    C.ok("index_fill/inplace", "index_fill", [x, L([1, 2]), 0.5], ifl(0, True), b(0, True))
    C.ok("index_fill/0d", "index_fill", [r.randn(()), L(-1), 3.0], ifl(0), b(0))
    C.ok("index_fill/empty_index", "index_fill", [x, torch.zeros((0,), dtype=torch.int64), 1.0], ifl(0), b(0))
    C.ok("index_fill/nan", "index_fill", [special(), L([1]), float("nan")], ifl(1), b(1))
    C.ok("index_fill/int64", "index_fill", [r.randint(-50, 50, (3, 2)), L([2, 0]), 7.9], ifl(0), b(0), backward=False)
    C.ok("index_fill/uint8", "index_fill", [r.randint(0, 200, (3, 2), torch.uint8), L([1]), -2], ifl(0), b(0), backward=False)
    C.ok("index_fill/bool", "index_fill", [r.bool((3, 2)), L([1]), 0.5], ifl(1), b(1), backward=False)
    C.ok("index_fill/int_tensor_value", "index_fill", [x, L([1]), torch.tensor(3)], ifl(0), b(0))
    C.err("index_fill/out_of_range", "index_fill", [x, L([4]), 1.0], ifl(0), b(0))
    C.err("index_fill/negative", "index_fill", [x, L([-5]), 1.0], ifl(0), b(0))
    C.err("index_fill/int32_index", "index_fill", [x, L([0]).int(), 1.0], ifl(0), b(0))
    C.err("index_fill/matrix_index", "index_fill", [x, L([[0]]), 1.0], ifl(0), b(0))
    C.err("index_fill/value_1d", "index_fill", [x, L([0]), r.randn((1,))], ifl(0), b(0))
    C.err("index_fill/overflow", "index_fill", [r.randint(0, 5, (3,), torch.int32), L([1]), 2 ** 40], ifl(0), b(0))
    C.err("index_fill/dim", "index_fill", [x, L([0]), 1.0], ifl(2), b(2))
    for dn, dt in NARROW.items():
        C.ok("index_fill/" + dn, "index_fill", [x.to(dt), L([3, 0]), 0.1], ifl(0), b(0), mode="emulated")


def main():
    torch.manual_seed(0)
    C = Cases()
    scatter_cases(C)
    scatter_add_cases(C)
    index_add_cases(C)
    write_group("index", C.cs)


if __name__ == "__main__":
    main()
