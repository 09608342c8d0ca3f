"""Golden cases of the index2 family: masked_select, masked_scatter, take,
take_along_dim, index_put, put (in place and accumulating too), nonzero, repeat_interleave, searchsorted (bucketize). Group
"index2".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_index2.py

writes golden/index2.json.gz (format: golden_lib.py). Per op: float64 cases
(broadcasting, 0-d, empty, NaN/inf/-0), integer and bool cases (forward
only), error cases with PyTorch's message, backward cases, and forward +
backward cases at float32, float16 and bfloat16 (mode "emulated").
"""

import warnings

import torch

from golden_lib import Rand, case, error_case, write_group

warnings.filterwarnings("ignore")

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def R(name):
    return Rand("index2/" + name)


def B(v):
    return torch.tensor(v, dtype=torch.bool)


def special():
    return torch.tensor([[0.0, -0.0, float("nan")], [float("inf"), float("-inf"), 1.5]], dtype=f64)


class Cases:
    def __init__(self):
        self.cs = []

    def ok(self, name, op, inputs, fn, attrs=None, **kw):
        self.cs.append(case(name, op, inputs, fn, attrs=attrs, **kw))

    def err(self, name, op, inputs, fn, attrs=None):
        self.cs.append(error_case(name, op, inputs, fn, attrs=attrs))


def masked_select_cases(C):
    r = R("masked_select")
    x = r.randn((3, 4))
    ms = lambda s, m: torch.masked_select(s, m)
    op = "masked_select"
    C.ok("masked_select/same_shape", op, [x, r.bool((3, 4))], ms)
    C.ok("masked_select/mask_row", op, [x, B([True, False, False, True])], ms)
    C.ok("masked_select/mask_col", op, [x, B([[True], [False], [True]])], ms)
    C.ok("masked_select/self_broadcast", op, [r.randn((4,)), r.bool((2, 3, 4))], ms)
    C.ok("masked_select/both_broadcast", op, [r.randn((3, 1)), r.bool((1, 4))], ms)
    C.ok("masked_select/all_false", op, [x, torch.zeros((3, 4), dtype=torch.bool)], ms)
    C.ok("masked_select/all_true", op, [x, torch.ones((3, 4), dtype=torch.bool)], ms)
    C.ok("masked_select/0d", op, [r.randn(()), B(True)], ms)
    C.ok("masked_select/0d_false", op, [r.randn(()), B(False)], ms)
    C.ok("masked_select/0d_self", op, [r.randn(()), B([True, False, True])], ms)
    C.ok("masked_select/empty", op, [r.randn((0, 3)), B([True, False, True])], ms)
    C.ok("masked_select/uint8_mask", op, [x, r.bool((3, 4)).to(torch.uint8)], ms)
    C.ok("masked_select/special", op, [special(), B([[True, True, True], [True, False, True]])], ms)
    # more than one 32768-element chunk of the CPU plugin's parallel loops
    C.ok("masked_select/large", op, [r.randint(0, 3, (200, 201), torch.int8), r.bool((200, 201))], ms, backward=False)
    C.ok("masked_select/int64", op, [r.randint(-50, 50, (3, 4)), r.bool((3, 4))], ms, backward=False)
    C.ok("masked_select/int8", op, [r.randint(-100, 100, (3, 4), torch.int8), r.bool((4,))], ms, backward=False)
    C.ok("masked_select/uint8", op, [r.randint(0, 255, (3, 4), torch.uint8), r.bool((3, 1))], ms, backward=False)
    C.ok("masked_select/bool", op, [r.bool((3, 4)), r.bool((3, 4))], ms, backward=False)
    C.err("masked_select/int_mask", op, [x, torch.ones((3, 4), dtype=torch.int64)], ms)
    C.err("masked_select/float_mask", op, [x, torch.ones((3, 4), dtype=f64)], ms)
    C.err("masked_select/shape", op, [x, r.bool((3,))], ms)
    for dn, dt in NARROW.items():
        C.ok("masked_select/" + dn, op, [x.to(dt), r.bool((3, 4))], ms, mode="emulated")
        C.ok("masked_select/broadcast_" + dn, op, [r.randn((4,), dt), r.bool((2, 4))], ms, mode="emulated")


def masked_scatter_cases(C):
    r = R("masked_scatter")
    x = r.randn((3, 4))
    op = "masked_scatter"

    def msc(inplace=False):
        if inplace:
            return lambda s, m, v: s.clone().masked_scatter_(m, v)
        return lambda s, m, v: s.masked_scatter(m, v)

    a = {"inplace": False}
    ai = {"inplace": True}
    C.ok("masked_scatter/same_shape", op, [x, r.bool((3, 4)), r.randn((3, 4))], msc(), a)
    C.ok("masked_scatter/source_bigger", op, [x, r.bool((3, 4)), r.randn((5, 5))], msc(), a)
    C.ok("masked_scatter/source_1d", op, [x, B([True, False, False, True]), r.randn((7,))], msc(), a)
    C.ok("masked_scatter/mask_col", op, [x, B([[True], [False], [True]]), r.randn((2, 4))], msc(), a)
    C.ok("masked_scatter/self_broadcast", op, [r.randn((4,)), r.bool((2, 3, 4)), r.randn((24,))], msc(), a)
    C.ok("masked_scatter/both_broadcast", op, [r.randn((3, 1)), r.bool((1, 4)), r.randn((12,))], msc(), a)
    C.ok("masked_scatter/inplace", op, [x, r.bool((3, 4)), r.randn((12,))], msc(True), ai)
    C.ok("masked_scatter/inplace_broadcast_mask", op, [x, B([False, True, True, False]), r.randn((3, 3))], msc(True), ai)
    C.ok("masked_scatter/all_false", op, [x, torch.zeros((3, 4), dtype=torch.bool), r.randn((2,))], msc(), a)
    C.ok("masked_scatter/all_false_empty_source", op, [x, torch.zeros((4,), dtype=torch.bool), r.randn((0,))], msc(), a)
    C.ok("masked_scatter/0d", op, [r.randn(()), B(True), r.randn(())], msc(), a)
    C.ok("masked_scatter/0d_source", op, [r.randn((3,)), B([False, True, False]), r.randn(())], msc(), a)
    C.ok("masked_scatter/empty", op, [r.randn((0, 3)), B([True, False, True]), r.randn((0,))], msc(), a)
    C.ok("masked_scatter/uint8_mask", op, [x, r.bool((3, 4)).to(torch.uint8), r.randn((12,))], msc(), a)
    C.ok("masked_scatter/special", op, [special(), B([[True, False, True], [False, True, True]]), special()], msc(), a)
    C.ok("masked_scatter/large", op, [torch.zeros((200, 201), dtype=torch.int8), r.bool((200, 201)), r.randint(1, 3, (200, 201), torch.int8)],
         msc(), a, backward=False)
    C.ok("masked_scatter/int64", op, [r.randint(-50, 50, (3, 4)), r.bool((3, 4)), r.randint(-50, 50, (12,))], msc(), a, backward=False)
    C.ok("masked_scatter/int16_inplace", op, [r.randint(-50, 50, (3, 4), torch.int16), r.bool((4,)), r.randint(-50, 50, (3, 4), torch.int16)],
         msc(True), ai, backward=False)
    C.ok("masked_scatter/bool", op, [r.bool((3, 4)), r.bool((3, 4)), r.bool((12,))], msc(), a, backward=False)
    C.err("masked_scatter/source_short", op, [x, torch.ones((3, 4), dtype=torch.bool), r.randn((11,))], msc(), a)
    C.err("masked_scatter/source_dtype", op, [x, r.bool((3, 4)), r.randn((12,), torch.float32)], msc(), a)
    C.err("masked_scatter/shape", op, [x, r.bool((3,)), r.randn((12,))], msc(), a)
    C.err("masked_scatter/inplace_mask_bigger", op, [x, r.bool((2, 3, 4)), r.randn((24,))], msc(True), ai)
    C.err("masked_scatter/inplace_mask_size", op, [x, r.bool((2, 4)), r.randn((24,))], msc(True), ai)
    for dn, dt in NARROW.items():
        C.ok("masked_scatter/" + dn, op, [x.to(dt), r.bool((3, 4)), r.randn((12,), dt)], msc(), a, mode="emulated")
        C.ok("masked_scatter/inplace_" + dn, op, [x.to(dt), r.bool((4,)), r.randn((3, 4), dt)], msc(True), ai, mode="emulated")


def L(v):
    return torch.tensor(v, dtype=torch.int64)


def take_cases(C):
    r = R("take")
    x = r.randn((3, 4))
    tk = lambda s, i: torch.take(s, i)
    op = "take"
    C.ok("take/2d_index", op, [x, L([[0, 11, 5], [5, 5, 2]])], tk)
    C.ok("take/negative", op, [x, L([-1, -12, 3, -1])], tk)
    C.ok("take/3d_self", op, [r.randn((2, 3, 2)), L([7, 0, 11, 7])], tk)
    C.ok("take/0d_index", op, [x, L(6)], tk)
    C.ok("take/0d_self", op, [r.randn(()), L([[0], [-1], [0]])], tk)
    C.ok("take/empty_index", op, [x, torch.zeros((0, 2), dtype=torch.int64)], tk)
    C.ok("take/empty_both", op, [r.randn((0, 3)), torch.zeros((0,), dtype=torch.int64)], tk)
    C.ok("take/special", op, [special(), L([2, 3, 4, 1, 0, 2])], tk)
    C.ok("take/int32", op, [r.randint(-50, 50, (3, 4), torch.int32), L([1, -1, 1])], tk, backward=False)
    C.ok("take/uint8", op, [r.randint(0, 255, (5,), torch.uint8), L([[4, 0]])], tk, backward=False)
    C.ok("take/bool", op, [r.bool((2, 3)), L([0, 5, 2, 0])], tk, backward=False)
    C.err("take/out_of_range", op, [x, L([12])], tk)
    C.err("take/negative_out_of_range", op, [x, L([0, -13])], tk)
    C.err("take/int32_index", op, [x, L([1]).int()], tk)
    C.err("take/empty_self", op, [r.randn((0,)), L([0])], tk)
    for dn, dt in NARROW.items():
        C.ok("take/" + dn, op, [x.to(dt), L([[0, 11, 5], [5, 5, -2]])], tk, mode="emulated")

    r = R("take_along_dim")
    op = "take_along_dim"

    def tad(dim=None):
        if dim is None:
            return lambda s, i: torch.take_along_dim(s, i)
        return lambda s, i: torch.take_along_dim(s, i, dim)
    C.ok("take_along_dim/dim1", op, [x, L([[0, 3], [1, 1], [2, 0]])], tad(1), {"dim": 1})
    C.ok("take_along_dim/dim0_neg", op, [x, L([[2, 0, 1, 1]])], tad(-2), {"dim": -2})
    C.ok("take_along_dim/broadcast_indices", op, [x, L([[1], [0], [3]])], tad(1), {"dim": 1})
    C.ok("take_along_dim/broadcast_self", op, [r.randn((3, 1, 4)), r.randint(0, 4, (3, 2, 5))], tad(2), {"dim": 2})
    C.ok("take_along_dim/broadcast_both", op, [r.randn((1, 4)), L([[0, 3], [1, 1], [2, 0]])], tad(1), {"dim": 1})
    C.ok("take_along_dim/self_dim1", op, [r.randn((3, 1)), torch.zeros((3, 4), dtype=torch.int64)], tad(1), {"dim": 1})
    C.ok("take_along_dim/repeat", op, [x, L([[0], [0], [2], [2], [0]])], tad(0), {"dim": 0})
    C.ok("take_along_dim/flat", op, [x, L([[11, 0], [4, 4]])], tad(), {"dim": None})
    C.ok("take_along_dim/flat_0d", op, [r.randn(()), L(0)], tad(), {"dim": None})
    C.ok("take_along_dim/1d", op, [r.randn((5,)), L([4, 0, 4])], tad(0), {"dim": 0})
    C.ok("take_along_dim/empty", op, [r.randn((0, 3)), torch.zeros((1, 3), dtype=torch.int64)], tad(1), {"dim": 1})
    C.ok("take_along_dim/empty_indices", op, [x, torch.zeros((3, 0), dtype=torch.int64)], tad(1), {"dim": 1})
    C.ok("take_along_dim/special", op, [special(), L([[2, 1, 0], [0, 0, 2]])], tad(1), {"dim": 1})
    C.ok("take_along_dim/int16", op, [r.randint(-50, 50, (3, 4), torch.int16), L([[1], [0]])], tad(0), {"dim": 0}, backward=False)
    C.ok("take_along_dim/bool_flat", op, [r.bool((2, 3)), L([0, 5, 2])], tad(), {"dim": None}, backward=False)
    C.err("take_along_dim/negative_index", op, [x, L([[0, -1]])], tad(1), {"dim": 1})
    C.err("take_along_dim/out_of_range", op, [x, L([[0, 4]])], tad(1), {"dim": 1})
    C.err("take_along_dim/flat_out_of_range", op, [x, L([12])], tad(), {"dim": None})
    C.err("take_along_dim/flat_negative", op, [x, L([-1])], tad(), {"dim": None})
    C.err("take_along_dim/flat_int32", op, [x, L([1]).int()], tad(), {"dim": None})
    C.err("take_along_dim/rank", op, [x, L([0, 1])], tad(1), {"dim": 1})
    C.err("take_along_dim/int32", op, [x, L([[0, 1]]).int()], tad(1), {"dim": 1})
    C.err("take_along_dim/dim", op, [x, L([[0, 1]])], tad(2), {"dim": 2})
    C.err("take_along_dim/0d_dim", op, [r.randn(()), L(0)], tad(0), {"dim": 0})
    C.err("take_along_dim/broadcast", op, [x, L([[0, 1], [0, 1]])], tad(1), {"dim": 1})
    for dn, dt in NARROW.items():
        C.ok("take_along_dim/" + dn, op, [x.to(dt), L([[0, 3], [1, 1], [2, 0]])], tad(1), {"dim": 1}, mode="emulated")
        C.ok("take_along_dim/broadcast_" + dn, op, [r.randn((1, 4), dt), L([[0, 3], [1, 1], [0, 0]])], tad(1), {"dim": 1}, mode="emulated")


def index_put_cases(C):
    r = R("index_put")
    x = r.randn((3, 4))
    op = "index_put"

    def ip(acc=False, inplace=False):
        if inplace:
            return lambda s, v, *ix: s.clone().index_put_(tuple(ix), v, acc)
        return lambda s, v, *ix: torch.index_put(s, tuple(ix), v, acc)

    def a(acc=False, inplace=False):
        return {"accumulate": acc, "inplace": inplace}
    C.ok("index_put/rows", op, [x, r.randn((2, 4)), L([2, 0])], ip(), a())
    C.ok("index_put/rows_broadcast_value", op, [x, r.randn((4,)), L([2, -3])], ip(), a())
    C.ok("index_put/scalar_value", op, [x, r.randn(()), L([1])], ip(), a())
    C.ok("index_put/elements", op, [x, r.randn((3,)), L([0, 2, 1]), L([3, -1, 0])], ip(), a())
    C.ok("index_put/broadcast_indices", op, [x, r.randn((2, 2)), L([[0], [2]]), L([1, 3])], ip(), a())
    C.ok("index_put/3d_trailing", op, [r.randn((2, 3, 2)), r.randn((2, 1, 2)), L([1, 0])], ip(), a())
    C.ok("index_put/2d_index", op, [r.randn((5, 2)), r.randn((2, 2, 2)), L([[4, 0], [1, 3]])], ip(), a())
    C.ok("index_put/inplace", op, [x, r.randn((2, 4)), L([1, 2])], ip(inplace=True), a(inplace=True))
    C.ok("index_put/accumulate_repeat", op, [x, r.randn((5, 4)), L([2, 0, 2, 2, 0])], ip(True), a(True))
    C.ok("index_put/accumulate_elements_inplace", op, [x, r.randn((4,)), L([1, 1, 0, 1]), L([2, 2, 0, 2])], ip(True, True), a(True, True))
    C.ok("index_put/accumulate_broadcast_value", op, [x, r.randn(()), L([1, 1, 1])], ip(True), a(True))
    C.ok("index_put/bool_mask", op, [x, r.randn((4,)), B([True, False, True])], ip(), a())
    C.ok("index_put/bool_mask_2d", op, [x, r.randn(()), r.bool((3, 4))], ip(), a())
    C.ok("index_put/bool_mask_then_int", op, [x, r.randn((2,)), B([False, True, True]), L([3, 0])], ip(), a())
    C.ok("index_put/uint8_mask_accumulate", op, [x, r.randn((4,)), B([True, False, True]).to(torch.uint8)], ip(True), a(True))
    C.ok("index_put/0d_index", op, [r.randn((3,)), r.randn(()), L(-1)], ip(), a())
    C.ok("index_put/empty_index", op, [x, r.randn((4,)), torch.zeros((0,), dtype=torch.int64)], ip(), a())
    C.ok("index_put/empty_self", op, [r.randn((0, 3)), r.randn((3,)), torch.zeros((0,), dtype=torch.int64)], ip(), a())
    C.ok("index_put/special", op, [special(), special()[:, 2], L([1, 0]), L([0, 2])], ip(), a())
    C.ok("index_put/special_accumulate", op, [special(), special(), L([1, 1])], ip(True), a(True))
    C.ok("index_put/int64_accumulate", op, [r.randint(-50, 50, (3, 2)), r.randint(-50, 50, (3, 2)), L([0, 0, 2])], ip(True), a(True), backward=False)
    C.ok("index_put/int8_accumulate_wraps", op, [r.randint(60, 100, (3,), torch.int8), r.randint(60, 100, (2,), torch.int8), L([1, 1])], ip(True), a(True), backward=False)
    C.ok("index_put/bool", op, [r.bool((3, 2)), r.bool((2,)), L([2])], ip(), a(), backward=False)
    C.ok("index_put/bool_accumulate", op, [r.bool((4,), 0.2), B([True, True, False]), L([1, 1, 3])], ip(True), a(True), backward=False)
    C.err("index_put/out_of_range", op, [x, r.randn(()), L([3])], ip(), a())
    C.err("index_put/negative_out_of_range", op, [x, r.randn(()), L([0]), L([-5])], ip(), a())
    C.err("index_put/int32_index", op, [x, r.randn(()), L([0]).int()], ip(), a())
    C.err("index_put/float_index", op, [x, r.randn(()), torch.tensor([0.0])], ip(), a())
    C.err("index_put/values_dtype", op, [x, r.randn((), torch.float32), L([0])], ip(), a())
    C.err("index_put/values_shape", op, [x, r.randn((3,)), L([0, 1])], ip(), a())
    C.err("index_put/too_many", op, [x, r.randn(()), L([0]), L([0]), L([0])], ip(), a())
    C.err("index_put/indices_broadcast", op, [x, r.randn(()), L([0, 1]), L([0, 1, 2])], ip(), a())
    C.err("index_put/mask_shape", op, [x, r.randn(()), B([True, False])], ip(), a())
    C.err("index_put/0d_self", op, [r.randn(()), r.randn(()), L(0)], ip(), a())

    def setitem(s, v, *ix):
        t = s.clone()
        t[tuple(ix)] = v
        return t
    C.ok("index_put/setitem_number", op, [x, 2.5, L([2, 0])], setitem, a(inplace=True))
    C.ok("index_put/setitem_int_number", op, [x, -3, L([1, 2]), L([0, -1])], setitem, a(inplace=True))
    C.ok("index_put/setitem_mask_number", op, [x, float("-inf"), r.bool((3, 4))], setitem, a(inplace=True))
    C.ok("index_put/setitem_tensor", op, [x, r.randn((2, 1)), L([[0], [2]]), L([1, 3])], setitem, a(inplace=True))
    C.ok("index_put/setitem_nan", op, [x, float("nan"), L([1])], setitem, a(inplace=True))
    C.ok("index_put/setitem_int64_float_number", op, [r.randint(-50, 50, (3, 2)), 7.9, L([0, 2])], setitem, a(inplace=True), backward=False)
    C.ok("index_put/setitem_uint8_negative", op, [r.randint(0, 200, (4,), torch.uint8), -2, L([1, 3])], setitem, a(inplace=True), backward=False)
    C.ok("index_put/setitem_bool_number", op, [r.bool((3, 2)), 1, B([True, False, True])], setitem, a(inplace=True), backward=False)
    C.err("index_put/setitem_out_of_range", op, [x, 1.0, L([3])], setitem, a(inplace=True))
    for dn, dt in NARROW.items():
        C.ok("index_put/setitem_number_" + dn, op, [x.to(dt), 0.1, L([2, 0])], setitem, a(inplace=True), mode="emulated")
        C.ok("index_put/" + dn, op, [x.to(dt), r.randn((2, 4), dt), L([2, 0])], ip(), a(), mode="emulated")
        C.ok("index_put/accumulate_" + dn, op, [x.to(dt) * 100, r.randn((5, 4), dt), L([2, 0, 2, 2, 0])], ip(True), a(True), mode="emulated")


def put_cases(C):
    r = R("put")
    x = r.randn((3, 4))
    op = "put"

    def pt(acc=False, inplace=False):
        if inplace:
            return lambda s, i, v: s.clone().put_(i, v, acc)
        return lambda s, i, v: s.put(i, v, acc)

    def a(acc=False, inplace=False):
        return {"accumulate": acc, "inplace": inplace}
    C.ok("put/flat", op, [x, L([0, 11, 5]), r.randn((3,))], pt(), a())
    C.ok("put/negative_2d_index", op, [x, L([[-1, -12], [3, 7]]), r.randn((4,))], pt(), a())
    C.ok("put/source_shape", op, [x, L([2, 9, 4, 1]), r.randn((2, 2))], pt(), a())
    C.ok("put/inplace", op, [x, L([1, 10]), r.randn((2,))], pt(inplace=True), a(inplace=True))
    C.ok("put/accumulate_repeat", op, [x, L([3, 3, -9, 0, 3]), r.randn((5,))], pt(True), a(True))
    C.ok("put/accumulate_inplace", op, [x, L([[5, 5], [6, 5]]), r.randn((2, 2))], pt(True, True), a(True, True))
    C.ok("put/0d", op, [r.randn(()), L(0), r.randn(())], pt(), a())
    C.ok("put/0d_accumulate", op, [r.randn(()), L([0, -1]), r.randn((2,))], pt(True), a(True))
    C.ok("put/empty_index", op, [x, torch.zeros((0,), dtype=torch.int64), r.randn((0, 2))], pt(), a())
    C.ok("put/empty_self", op, [r.randn((0, 2)), torch.zeros((0,), dtype=torch.int64), r.randn((0,))], pt(), a())
    C.ok("put/special", op, [special(), L([0, 2, 4]), torch.tensor([float("nan"), float("-inf"), -0.0], dtype=f64)], pt(), a())
    C.ok("put/special_accumulate", op, [special(), L([0, 3, 4, 1]), torch.tensor([float("inf"), float("-inf"), 2.0, -0.0], dtype=f64)], pt(True), a(True))
    C.ok("put/int32_accumulate", op, [r.randint(-50, 50, (3, 2), torch.int32), L([0, 0, 5]), r.randint(-50, 50, (3,), torch.int32)], pt(True), a(True), backward=False)
    C.ok("put/uint8_accumulate_wraps", op, [r.randint(100, 200, (4,), torch.uint8), L([1, 1]), r.randint(100, 200, (2,), torch.uint8)], pt(True), a(True), backward=False)
    C.ok("put/bool", op, [r.bool((2, 2)), L([3, 0]), r.bool((2,))], pt(), a(), backward=False)
    C.err("put/out_of_range", op, [x, L([12]), r.randn((1,))], pt(), a())
    C.err("put/negative_out_of_range", op, [x, L([-13]), r.randn((1,))], pt(), a())
    C.err("put/int32_index", op, [x, L([1]).int(), r.randn((1,))], pt(), a())
    C.err("put/source_dtype", op, [x, L([1]), r.randn((1,), torch.float32)], pt(), a())
    C.err("put/numel", op, [x, L([1, 2]), r.randn((3,))], pt(), a())
    C.err("put/empty_self_error", op, [r.randn((0,)), L([0]), r.randn((1,))], pt(), a())
    for dn, dt in NARROW.items():
        C.ok("put/" + dn, op, [x.to(dt), L([0, 11, 5]), r.randn((3,), dt)], pt(), a(), mode="emulated")
        C.ok("put/accumulate_" + dn, op, [x.to(dt) * 100, L([3, 3, -9, 0, 3]), r.randn((5,), dt)], pt(True), a(True), mode="emulated")


def nonzero_cases(C):
    r = R("nonzero")
    op = "nonzero"
    nz = lambda s: torch.nonzero(s)
    aw = lambda s: torch.argwhere(s)
    sparse = lambda shape: r.randn(shape) * r.bool(shape)
    C.ok("nonzero/2d", op, [sparse((3, 4))], nz, backward=False)
    C.ok("nonzero/argwhere_3d", op, [sparse((2, 3, 2))], aw, backward=False)
    C.ok("nonzero/1d", op, [sparse((7,))], nz, backward=False)
    C.ok("nonzero/0d", op, [r.randn(())], nz, backward=False)
    C.ok("nonzero/0d_zero", op, [torch.tensor(0.0, dtype=f64)], aw, backward=False)
    C.ok("nonzero/empty", op, [r.randn((0, 3))], nz, backward=False)
    C.ok("nonzero/all_zero", op, [torch.zeros((2, 3), dtype=f64)], nz, backward=False)
    C.ok("nonzero/special", op, [special()], nz, backward=False)
    C.ok("nonzero/large", op, [r.bool((200, 201), 0.01).to(torch.int8)], nz, backward=False)
    C.ok("nonzero/int32", op, [r.randint(-1, 2, (3, 4), torch.int32)], nz, backward=False)
    C.ok("nonzero/uint8", op, [r.randint(0, 2, (5,), torch.uint8)], aw, backward=False)
    C.ok("nonzero/bool", op, [r.bool((3, 3))], nz, backward=False)
    for dn, dt in NARROW.items():
        C.ok("nonzero/" + dn, op, [sparse((3, 4)).to(dt)], nz, mode="emulated", backward=False)


def repeat_interleave_cases(C):
    r = R("repeat_interleave")
    x = r.randn((3, 4))
    op = "repeat_interleave"

    def ri(dim=None):
        if dim is None:
            return lambda s, k: torch.repeat_interleave(s, k)
        return lambda s, k: torch.repeat_interleave(s, k, dim)
    C.ok("repeat_interleave/int_flat", op, [x, 2], ri(), {"dim": None})
    C.ok("repeat_interleave/int_dim1", op, [x, 3], ri(1), {"dim": 1})
    C.ok("repeat_interleave/int_zero", op, [x, 0], ri(0), {"dim": 0})
    C.ok("repeat_interleave/tensor_dim0", op, [x, L([2, 0, 3])], ri(0), {"dim": 0})
    C.ok("repeat_interleave/tensor_neg_dim", op, [r.randn((2, 3, 2)), L([1, 4, 2])], ri(-2), {"dim": -2})
    C.ok("repeat_interleave/tensor_int32", op, [x, L([1, 2, 0, 1]).int()], ri(1), {"dim": 1})
    C.ok("repeat_interleave/tensor_one", op, [x, L([2])], ri(1), {"dim": 1})
    C.ok("repeat_interleave/tensor_0d", op, [x, L(3)], ri(0), {"dim": 0})
    C.ok("repeat_interleave/tensor_flat", op, [r.randn((2, 2)), L([1, 0, 2, 3])], ri(), {"dim": None})
    C.ok("repeat_interleave/0d", op, [r.randn(()), 3], ri(), {"dim": None})
    C.ok("repeat_interleave/empty", op, [r.randn((0, 3)), 2], ri(1), {"dim": 1})
    C.ok("repeat_interleave/special", op, [special(), L([2, 1])], ri(0), {"dim": 0})
    C.ok("repeat_interleave/int64", op, [r.randint(-50, 50, (2, 3)), L([1, 3])], ri(0), {"dim": 0}, backward=False)
    C.ok("repeat_interleave/bool", op, [r.bool((2, 3)), 2], ri(1), {"dim": 1}, backward=False)
    C.err("repeat_interleave/negative", op, [x, -1], ri(0), {"dim": 0})
    C.err("repeat_interleave/tensor_negative", op, [x, L([1, -2, 1])], ri(0), {"dim": 0})
    C.err("repeat_interleave/size", op, [x, L([1, 2])], ri(0), {"dim": 0})
    C.err("repeat_interleave/rank", op, [x, L([[1, 2, 3]])], ri(0), {"dim": 0})
    C.err("repeat_interleave/float_repeats", op, [x, torch.tensor([1.0, 2.0, 1.0])], ri(0), {"dim": 0})
    C.err("repeat_interleave/dim", op, [x, 2], ri(2), {"dim": 2})
    C.err("repeat_interleave/0d_dim", op, [r.randn(()), 2], ri(0), {"dim": 0})
    for dn, dt in NARROW.items():
        C.ok("repeat_interleave/" + dn, op, [x.to(dt), L([2, 0, 3])], ri(0), {"dim": 0}, mode="emulated")


def searchsorted_cases(C):
    r = R("searchsorted")
    op = "searchsorted"
    b = torch.tensor([-1.0, 0.0, 0.0, 2.5, 4.0], dtype=f64)
    v = torch.tensor([[-2.0, -1.0, 0.0, 1.0], [2.5, 4.0, 9.0, float("nan")], [float("-inf"), float("inf"), -0.0, 3.0]], dtype=f64)

    def ss(o32=False, right=False, side=None):
        kw = {} if side is None else {"side": side}
        return lambda s, x: torch.searchsorted(s, x, out_int32=o32, right=right, **kw)

    def bk(o32=False, right=False):
        return lambda s, x: torch.bucketize(x, s, out_int32=o32, right=right)

    def a(o32=False, right=False):
        return {"out_int32": o32, "right": right}

    # the op's third input is the optional sorter, None here; the names
    # ("searchsorted/search_...") stay apart from gen_golden_reduce.py's
    def ok(name, op, inputs, fn, attrs, **kw):
        C.ok(name.replace("/", "/search_", 1), op, inputs + [None], lambda s, x, _: fn(s, x), attrs, **kw)

    def err(name, op, inputs, fn, attrs, **kw):
        C.err(name.replace("/", "/search_", 1), op, inputs + [None], lambda s, x, _: fn(s, x), attrs, **kw)

    ok("searchsorted/left", op, [b, v], ss(), a(), backward=False)
    ok("searchsorted/right", op, [b, v], ss(right=True), a(right=True), backward=False)
    ok("searchsorted/side_right_int32", op, [b, v], ss(True, side="right"), a(True, True), backward=False)
    ok("searchsorted/bucketize", op, [b, v], bk(), a(), backward=False)
    ok("searchsorted/bucketize_right_int32", op, [b, v], bk(True, True), a(True, True), backward=False)
    ok("searchsorted/scalar", op, [b, 2.5], ss(), a(), backward=False)
    ok("searchsorted/scalar_int_right", op, [b, 0], ss(right=True), a(right=True), backward=False)
    ok("searchsorted/0d_value", op, [b, torch.tensor(3.0, dtype=f64)], ss(), a(), backward=False)
    ok("searchsorted/nd", op, [torch.sort(r.randn((2, 3, 5)), -1)[0], r.randn((2, 3, 4))], ss(), a(), backward=False)
    ok("searchsorted/nd_right", op, [torch.tensor([[1.0, 1.0, 2.0], [0.0, 5.0, 5.0]], dtype=f64), torch.tensor([[1.0, 2.0], [5.0, -1.0]], dtype=f64)],
         ss(right=True), a(right=True), backward=False)
    ok("searchsorted/unsorted", op, [torch.tensor([3.0, 1.0, 2.0, 0.0], dtype=f64), v], ss(), a(), backward=False)
    ok("searchsorted/empty_sequence", op, [torch.zeros((0,), dtype=f64), v], ss(), a(), backward=False)
    ok("searchsorted/empty_values", op, [b, torch.zeros((0, 2), dtype=f64)], ss(), a(), backward=False)
    ok("searchsorted/mixed_dtypes", op, [b, v.float()], ss(), a(), backward=False)
    ok("searchsorted/int64", op, [L([-3, 0, 0, 7]), r.randint(-5, 9, (3, 4))], ss(), a(), backward=False)
    ok("searchsorted/uint8_int_values", op, [torch.tensor([1, 5, 200], dtype=torch.uint8), L([0, 5, 201, 300])], bk(right=True), a(right=True), backward=False)
    err("searchsorted/nd_mismatch", op, [b.reshape(1, 5), v], ss(), a())
    err("searchsorted/nd_scalar", op, [b.reshape(1, 5), 1.0], ss(), a())
    err("searchsorted/0d_sequence", op, [torch.tensor(1.0, dtype=f64), v], ss(), a())
    err("searchsorted/bool", op, [b.bool(), v.bool()], ss(), a())
    for dn, dt in NARROW.items():
        ok("searchsorted/" + dn, op, [b.to(dt), (v * 1.01).to(dt)], ss(), a(), mode="emulated", backward=False)


def main():
    torch.manual_seed(0)
    C = Cases()
    masked_select_cases(C)
    masked_scatter_cases(C)
    take_cases(C)
    index_put_cases(C)
    put_cases(C)
    nonzero_cases(C)
    repeat_interleave_cases(C)
    searchsorted_cases(C)
    write_group("index2", C.cs)


if __name__ == "__main__":
    main()
