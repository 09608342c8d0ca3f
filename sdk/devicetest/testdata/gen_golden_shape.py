"""Golden cases of the shape family's view and rearrangement ops: expand,
repeat, flip, roll, rot90, slice, select, unfold, diagonal, diag_embed,
diagflat, unbind, broadcast_tensors, hstack, vstack, dstack, column_stack, gather,
index_select. Group "shape_view" (the group "shape" is gen_golden.py's
cat/stack/split/transpose/permute/reshape).

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_shape.py

writes golden/shape_view.json.gz (format: golden_lib.py). Per op: float64
cases (negative dims, 0-d, empty, NaN/inf/-0), integer and bool cases
(forward only), error cases with PyTorch's message, backward cases, and
forward plus backward cases at float32, float16 and bfloat16 (mode
"emulated": these ops move values, so every dtype is exact).
"""

import torch

from golden_lib import Rand, attr, case, error_case, write_group

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def R(name):
    return Rand("shape_view/" + name)


def special():
    return torch.tensor([[0.0, -0.0, float("nan")], [float("inf"), float("-inf"), 1.5]], dtype=f64)


class Cases:
    def __init__(self):
        self.cs = []

    def ok(self, name, op, inputs, fn, attrs=None, **kw):
        self.cs.append(case(name, op, inputs, fn, attrs=attrs, **kw))

    def err(self, name, op, inputs, fn, attrs=None):
        self.cs.append(error_case(name, op, inputs, fn, attrs=attrs))

    def narrow(self, op, x, fn, attrs, backward=True):
        """One forward (+backward) case per narrow float dtype; x is the
        input or a list of inputs."""
        xs = x if isinstance(x, list) else [x]
        for dn, dt in NARROW.items():
            name, f = "%s/%s" % (op, dn), fn
            ins = [t.to(dt) for t in xs]
            try:
                fn(*ins)
            except RuntimeError as e:
                if "not implemented for" not in str(e):
                    raise
                # PyTorch 1.13's CPU lacks the kernel at dt: the values
                # move through float32, exactly.
                name, f = name + "_via_f32", (lambda g, d: (lambda *ts: g(*[t.float() for t in ts]).to(d)))(fn, dt)
            self.ok(name, op, ins, f, attrs=attrs, mode="emulated", backward=backward)

    def ints(self, op, fn, attrs, shape):
        """Forward cases at int64, int8 and bool."""
        r = R(op + "/ints")
        self.ok(op + "/int64", op, [r.randint(-50, 50, shape)], fn, attrs=attrs, backward=False)
        self.ok(op + "/int8", op, [r.randint(-100, 100, shape, torch.int8)], fn, attrs=attrs, backward=False)
        self.ok(op + "/bool", op, [r.bool(shape)], fn, attrs=attrs, backward=False)


def expand_cases(C):
    r = R("expand")
    ex = lambda size: (lambda x: x.expand(size))
    a = {"size": [3, 2, 4]}
    x = r.randn((2, 1))
    C.ok("expand/new_and_broadcast", "expand", [x], ex([3, 2, 4]), a)
    C.ok("expand/keep", "expand", [r.randn((2, 3))], ex([2, -1]), {"size": [2, -1]})
    C.ok("expand/leading_keep", "expand", [r.randn((1, 3))], ex([2, 4, -1]), {"size": [2, 4, -1]})
    C.ok("expand/0d", "expand", [r.randn(())], ex([3]), {"size": [3]})
    C.ok("expand/0d_to_0d", "expand", [r.randn(())], ex([]), {"size": attr("ints", [])})
    C.ok("expand/empty", "expand", [r.randn((1, 3))], ex([0, 3]), {"size": [0, 3]})
    C.ok("expand/new_empty", "expand", [r.randn((2,))], ex([0, 2]), {"size": [0, 2]})
    C.ok("expand/special", "expand", [special()], ex([2, 2, 3]), {"size": [2, 2, 3]})
    C.ints("expand", ex([3, 2, 4]), a, (2, 1))
    C.err("expand/mismatch", "expand", [r.randn((2, 3))], ex([3, 3]), {"size": [3, 3]})
    C.err("expand/too_few", "expand", [r.randn((2, 3))], ex([3]), {"size": [3]})
    C.err("expand/leading_minus1", "expand", [r.randn((2, 3))], ex([-1, 2, 3]), {"size": [-1, 2, 3]})
    C.narrow("expand", x, ex([3, 2, 4]), a)


def repeat_cases(C):
    r = R("repeat")
    rp = lambda reps: (lambda x: x.repeat(reps))
    x = r.randn((2, 3))
    C.ok("repeat/2d", "repeat", [x], rp([2, 3]), {"repeats": [2, 3]})
    C.ok("repeat/new_dims", "repeat", [x], rp([2, 1, 2]), {"repeats": [2, 1, 2]})
    C.ok("repeat/ones", "repeat", [x], rp([1, 1]), {"repeats": [1, 1]})
    C.ok("repeat/zero", "repeat", [x], rp([0, 2]), {"repeats": [0, 2]})
    C.ok("repeat/0d", "repeat", [r.randn(())], rp([2, 3]), {"repeats": [2, 3]})
    C.ok("repeat/0d_none", "repeat", [r.randn(())], rp([]), {"repeats": attr("ints", [])})
    C.ok("repeat/empty", "repeat", [r.randn((0, 2))], rp([2, 2]), {"repeats": [2, 2]})
    C.ok("repeat/special", "repeat", [special()], rp([2, 1]), {"repeats": [2, 1]})
    C.ints("repeat", rp([2, 1, 2]), {"repeats": [2, 1, 2]}, (2, 3))
    C.err("repeat/too_few", "repeat", [x], rp([2]), {"repeats": [2]})
    C.err("repeat/negative", "repeat", [x], rp([-1, 2]), {"repeats": [-1, 2]})
    C.narrow("repeat", x, rp([2, 1, 2]), {"repeats": [2, 1, 2]})


def flip_roll_rot_cases(C):
    r = R("flip")
    fl = lambda dims: (lambda x: torch.flip(x, dims))
    y = r.randn((2, 3, 4))
    C.ok("flip/0", "flip", [y], fl([0]), {"dims": [0]})
    C.ok("flip/neg_multi", "flip", [y], fl([-1, 1]), {"dims": [-1, 1]})
    C.ok("flip/all", "flip", [y], fl([0, 1, 2]), {"dims": [0, 1, 2]})
    C.ok("flip/none", "flip", [y], fl([]), {"dims": attr("ints", [])})
    C.ok("flip/0d", "flip", [r.randn(())], fl([0]), {"dims": [0]})
    C.ok("flip/empty", "flip", [r.randn((0, 3))], fl([1]), {"dims": [1]})
    C.ok("flip/special", "flip", [special()], fl([1]), {"dims": [1]})
    C.ints("flip", fl([0, 1]), {"dims": [0, 1]}, (3, 2))
    C.err("flip/range", "flip", [y], fl([3]), {"dims": [3]})
    C.err("flip/repeat", "flip", [y], fl([0, -3]), {"dims": [0, -3]})
    C.narrow("flip", y, fl([0, 2]), {"dims": [0, 2]})

    r = R("roll")
    ro = lambda shifts, dims: (lambda x: torch.roll(x, shifts, dims))
    C.ok("roll/dim1", "roll", [y], ro([1], [1]), {"shifts": [1], "dims": [1]})
    C.ok("roll/neg_shift", "roll", [y], ro([-5], [-1]), {"shifts": [-5], "dims": [-1]})
    C.ok("roll/two", "roll", [y], ro([1, 2], [0, 2]), {"shifts": [1, 2], "dims": [0, 2]})
    C.ok("roll/same_dim_twice", "roll", [y], ro([1, 1], [2, 2]), {"shifts": [1, 1], "dims": [2, 2]})
    C.ok("roll/flat", "roll", [y], ro([5], []), {"shifts": [5], "dims": attr("ints", [])})
    C.ok("roll/flat_default", "roll", [y], lambda x: torch.roll(x, 7), {"shifts": [7]})
    C.ok("roll/big_shift", "roll", [y], ro([23], [2]), {"shifts": [23], "dims": [2]})
    C.ok("roll/0d", "roll", [r.randn(())], ro([3], []), {"shifts": [3], "dims": attr("ints", [])})
    C.ok("roll/empty", "roll", [r.randn((0, 3))], ro([1], [1]), {"shifts": [1], "dims": [1]})
    C.ok("roll/special", "roll", [special()], ro([1], [1]), {"shifts": [1], "dims": [1]})
    C.ints("roll", ro([1, -1], [0, 1]), {"shifts": [1, -1], "dims": [0, 1]}, (3, 4))
    C.err("roll/align", "roll", [y], ro([1, 2], [0]), {"shifts": [1, 2], "dims": [0]})
    C.err("roll/no_shifts", "roll", [y], ro([], []), {"shifts": attr("ints", []), "dims": attr("ints", [])})
    C.err("roll/range", "roll", [y], ro([1], [3]), {"shifts": [1], "dims": [3]})
    C.err("roll/0d_dim", "roll", [r.randn(())], ro([1], [0]), {"shifts": [1], "dims": [0]})
    C.narrow("roll", y, ro([1, -2], [0, 2]), {"shifts": [1, -2], "dims": [0, 2]})

    r = R("rot90")
    rt = lambda k, dims: (lambda x: torch.rot90(x, k, dims))
    m = r.randn((3, 4))
    C.ok("rot90/default", "rot90", [m], lambda x: torch.rot90(x))
    for k in (1, 2, 3, 4, -1, 6):
        C.ok("rot90/k%d" % k, "rot90", [m], rt(k, [0, 1]), {"k": k, "dims": [0, 1]})
    C.ok("rot90/reversed_dims", "rot90", [m], rt(1, [1, 0]), {"k": 1, "dims": [1, 0]})
    C.ok("rot90/3d_neg", "rot90", [y], rt(1, [-1, 0]), {"k": 1, "dims": [-1, 0]})
    C.ok("rot90/3d_k3", "rot90", [y], rt(3, [2, 1]), {"k": 3, "dims": [2, 1]})
    C.ok("rot90/empty", "rot90", [r.randn((0, 2))], rt(1, [0, 1]), {"k": 1, "dims": [0, 1]})
    C.ok("rot90/special", "rot90", [special()], rt(1, [0, 1]), {"k": 1, "dims": [0, 1]})
    C.ints("rot90", rt(1, [0, 1]), {"k": 1, "dims": [0, 1]}, (2, 3))
    C.err("rot90/one_dim", "rot90", [m], rt(1, [0]), {"k": 1, "dims": [0]})
    C.err("rot90/1d", "rot90", [r.randn((3,))], rt(1, [0, 1]), {"k": 1, "dims": [0, 1]})
    C.err("rot90/same", "rot90", [m], rt(1, [0, -2]), {"k": 1, "dims": [0, -2]})
    C.err("rot90/range", "rot90", [m], rt(1, [0, 3]), {"k": 1, "dims": [0, 3]})
    C.err("rot90/range_dim0", "rot90", [y], rt(1, [-4, 1]), {"k": 1, "dims": [-4, 1]})
    C.narrow("rot90", m, rt(1, [0, 1]), {"k": 1, "dims": [0, 1]})


def slice_select_unfold_cases(C):
    aten = torch.ops.aten
    r = R("slice")
    y = r.randn((4, 5, 3))
    sl = lambda dim, start, end, step: (lambda x: aten.slice(x, dim, start, end, step))

    def sa(dim, start, end, step):
        return {"dim": dim, "start": start, "end": end, "step": step}
    C.ok("slice/narrow", "slice", [y], sl(1, 1, 4, 1), sa(1, 1, 4, 1))
    C.ok("slice/step", "slice", [y], sl(1, 0, 5, 2), sa(1, 0, 5, 2))
    C.ok("slice/neg_dim_neg_start", "slice", [y], sl(-1, -2, 3, 1), sa(-1, -2, 3, 1))
    C.ok("slice/clamped", "slice", [y], sl(0, -10, 100, 3), sa(0, -10, 100, 3))
    C.ok("slice/neg_end", "slice", [y], sl(0, 0, -1, 1), sa(0, 0, -1, 1))
    C.ok("slice/empty_result", "slice", [y], sl(2, 2, 1, 1), sa(2, 2, 1, 1))
    C.ok("slice/defaults", "slice", [y], lambda x: aten.slice(x), {})
    C.ok("slice/empty_input", "slice", [r.randn((0, 3))], sl(1, 1, 3, 1), sa(1, 1, 3, 1))
    C.ok("slice/special", "slice", [special()], sl(1, 1, 3, 1), sa(1, 1, 3, 1))
    C.ints("slice", sl(0, 1, 3, 1), sa(0, 1, 3, 1), (4, 2))
    C.err("slice/step0", "slice", [y], sl(0, 0, 2, 0), sa(0, 0, 2, 0))
    C.err("slice/range", "slice", [y], sl(3, 0, 2, 1), sa(3, 0, 2, 1))
    C.err("slice/0d", "slice", [r.randn(())], sl(0, 0, 1, 1), sa(0, 0, 1, 1))
    C.narrow("slice", y, sl(1, 1, 5, 2), sa(1, 1, 5, 2))

    r = R("select")
    se = lambda dim, idx: (lambda x: torch.select(x, dim, idx))
    C.ok("select/0", "select", [y], se(0, 2), {"dim": 0, "index": 2})
    C.ok("select/neg", "select", [y], se(-2, -1), {"dim": -2, "index": -1})
    C.ok("select/last", "select", [y], se(2, 0), {"dim": 2, "index": 0})
    C.ok("select/1d", "select", [r.randn((3,))], se(0, 1), {"dim": 0, "index": 1})
    C.ok("select/empty", "select", [r.randn((2, 0))], se(0, 1), {"dim": 0, "index": 1})
    C.ok("select/special", "select", [special()], se(1, 2), {"dim": 1, "index": 2})
    C.ints("select", se(1, 1), {"dim": 1, "index": 1}, (2, 3))
    C.err("select/index", "select", [y], se(0, 4), {"dim": 0, "index": 4})
    C.err("select/neg_index", "select", [y], se(0, -5), {"dim": 0, "index": -5})
    C.err("select/0d", "select", [r.randn(())], se(0, 0), {"dim": 0, "index": 0})
    C.err("select/dim", "select", [y], se(3, 0), {"dim": 3, "index": 0})
    C.narrow("select", y, se(1, 3), {"dim": 1, "index": 3})

    r = R("unfold")
    uf = lambda d, size, step: (lambda x: x.unfold(d, size, step))

    def ua(d, size, step):
        return {"dimension": d, "size": size, "step": step}
    x = r.randn((3, 7))
    C.ok("unfold/overlap", "unfold", [x], uf(1, 3, 1), ua(1, 3, 1))
    C.ok("unfold/step2", "unfold", [x], uf(1, 3, 2), ua(1, 3, 2))
    C.ok("unfold/gap", "unfold", [x], uf(1, 2, 3), ua(1, 2, 3))
    C.ok("unfold/dim0_neg", "unfold", [x], uf(-2, 2, 1), ua(-2, 2, 1))
    C.ok("unfold/3d", "unfold", [r.randn((2, 5, 2))], uf(1, 2, 2), ua(1, 2, 2))
    C.ok("unfold/size0", "unfold", [x], uf(1, 0, 1), ua(1, 0, 1))
    C.ok("unfold/0d", "unfold", [r.randn(())], uf(0, 1, 1), ua(0, 1, 1))
    C.ok("unfold/empty", "unfold", [r.randn((0, 4))], uf(1, 2, 1), ua(1, 2, 1))
    C.ok("unfold/special", "unfold", [special()], uf(1, 2, 1), ua(1, 2, 1))
    C.ints("unfold", uf(1, 2, 1), ua(1, 2, 1), (2, 4))
    C.err("unfold/too_big", "unfold", [x], uf(1, 8, 1), ua(1, 8, 1))
    C.err("unfold/step0", "unfold", [x], uf(1, 2, 0), ua(1, 2, 0))
    C.err("unfold/dim", "unfold", [x], uf(2, 1, 1), ua(2, 1, 1))
    C.err("unfold/0d_size", "unfold", [r.randn(())], uf(0, 2, 1), ua(0, 2, 1))
    C.narrow("unfold", x, uf(1, 3, 2), ua(1, 3, 2))


def diag_cases(C):
    r = R("diagonal")
    dg = lambda off, d1, d2: (lambda x: torch.diagonal(x, off, d1, d2))

    def da(off, d1, d2):
        return {"offset": off, "dim1": d1, "dim2": d2}
    m, y = r.randn((3, 4)), r.randn((2, 3, 4))
    C.ok("diagonal/main", "diagonal", [m], dg(0, 0, 1), da(0, 0, 1))
    C.ok("diagonal/default", "diagonal", [m], torch.diagonal)
    C.ok("diagonal/upper", "diagonal", [m], dg(2, 0, 1), da(2, 0, 1))
    C.ok("diagonal/lower", "diagonal", [m], dg(-1, 0, 1), da(-1, 0, 1))
    C.ok("diagonal/past", "diagonal", [m], dg(5, 0, 1), da(5, 0, 1))
    C.ok("diagonal/past_lower", "diagonal", [m], dg(-4, 0, 1), da(-4, 0, 1))
    C.ok("diagonal/swapped", "diagonal", [m], dg(1, 1, 0), da(1, 1, 0))
    C.ok("diagonal/3d", "diagonal", [y], dg(1, -1, 0), da(1, -1, 0))
    C.ok("diagonal/3d_batch", "diagonal", [y], dg(-1, 1, 2), da(-1, 1, 2))
    C.ok("diagonal/empty", "diagonal", [r.randn((0, 3))], dg(0, 0, 1), da(0, 0, 1))
    C.ok("diagonal/special", "diagonal", [special()], dg(0, 0, 1), da(0, 0, 1))
    C.ints("diagonal", dg(0, 0, 1), da(0, 0, 1), (3, 3))
    C.err("diagonal/same", "diagonal", [m], dg(0, 0, -2), da(0, 0, -2))
    C.err("diagonal/range", "diagonal", [m], dg(0, 0, 2), da(0, 0, 2))
    C.err("diagonal/1d", "diagonal", [r.randn((3,))], dg(0, 0, 1), da(0, 0, 1))
    C.narrow("diagonal", y, dg(1, 1, 2), da(1, 1, 2))

    r = R("diag_embed")
    de = lambda off, d1, d2: (lambda x: torch.diag_embed(x, off, d1, d2))
    v, b = r.randn((3,)), r.randn((2, 3))
    C.ok("diag_embed/vector", "diag_embed", [v], de(0, -2, -1), da(0, -2, -1))
    C.ok("diag_embed/default", "diag_embed", [b], torch.diag_embed)
    C.ok("diag_embed/upper", "diag_embed", [v], de(2, 0, 1), da(2, 0, 1))
    C.ok("diag_embed/lower_swapped", "diag_embed", [v], de(-1, 1, 0), da(-1, 1, 0))
    C.ok("diag_embed/batch_mid", "diag_embed", [b], de(1, 0, 2), da(1, 0, 2))
    C.ok("diag_embed/batch_neg", "diag_embed", [b], de(-2, -1, 0), da(-2, -1, 0))
    C.ok("diag_embed/empty", "diag_embed", [r.randn((2, 0))], de(1, -2, -1), da(1, -2, -1))
    C.ok("diag_embed/special", "diag_embed", [special()], de(0, -2, -1), da(0, -2, -1))
    C.ints("diag_embed", de(1, 0, 1), da(1, 0, 1), (2, 3))
    C.err("diag_embed/same", "diag_embed", [b], de(0, 0, -3), da(0, 0, -3))
    C.err("diag_embed/range", "diag_embed", [b], de(0, 0, 3), da(0, 0, 3))
    C.err("diag_embed/0d", "diag_embed", [r.randn(())], de(0, -2, -1), da(0, -2, -1))
    C.narrow("diag_embed", b, de(1, -2, -1), da(1, -2, -1))

    r = R("diagflat")
    df = lambda off: (lambda x: torch.diagflat(x, off))
    C.ok("diagflat/vector", "diagflat", [v], df(0), {"offset": 0})
    C.ok("diagflat/default", "diagflat", [v], torch.diagflat)
    C.ok("diagflat/matrix", "diagflat", [b], df(1), {"offset": 1})
    C.ok("diagflat/lower", "diagflat", [b], df(-2), {"offset": -2})
    C.ok("diagflat/0d", "diagflat", [r.randn(())], df(1), {"offset": 1})
    C.ok("diagflat/empty", "diagflat", [r.randn((0,))], df(1), {"offset": 1})
    C.ok("diagflat/special", "diagflat", [special()], df(0), {"offset": 0})
    C.ints("diagflat", df(-1), {"offset": -1}, (2, 2))
    C.narrow("diagflat", b, df(1), {"offset": 1})


def unbind_cases(C):
    r = R("unbind")
    ub = lambda dim: (lambda x: torch.unbind(x, dim))
    y = r.randn((2, 3, 4))
    C.ok("unbind/0", "unbind", [y], ub(0), {"dim": 0})
    C.ok("unbind/default", "unbind", [y], torch.unbind)
    C.ok("unbind/neg", "unbind", [y], ub(-1), {"dim": -1})
    C.ok("unbind/1d", "unbind", [r.randn((3,))], ub(0), {"dim": 0})
    C.ok("unbind/empty_slices", "unbind", [r.randn((2, 0))], ub(0), {"dim": 0})
    C.ok("unbind/special", "unbind", [special()], ub(1), {"dim": 1})
    C.ok("unbind/partial_grad", "unbind", [y], ub(1), {"dim": 1},
         grad_outputs=[r.randn((2, 4)), None, r.randn((2, 4))])
    C.ints("unbind", ub(1), {"dim": 1}, (2, 3))
    C.err("unbind/range", "unbind", [y], ub(3), {"dim": 3})
    C.err("unbind/0d", "unbind", [r.randn(())], ub(0), {"dim": 0})
    C.narrow("unbind", y, ub(2), {"dim": 2})


def broadcast_stack_cases(C):
    r = R("broadcast_tensors")
    bt = lambda *ts: torch.broadcast_tensors(*ts)
    a, b, c = r.randn((2, 1, 3)), r.randn((4, 1)), r.randn(())
    C.ok("broadcast_tensors/three", "broadcast_tensors", [a, b, c], bt)
    C.ok("broadcast_tensors/one", "broadcast_tensors", [b], bt)
    C.ok("broadcast_tensors/same", "broadcast_tensors", [b, r.randn((4, 1))], bt)
    C.ok("broadcast_tensors/empty", "broadcast_tensors", [r.randn((0, 1)), r.randn((3,))], bt)
    C.ok("broadcast_tensors/mixed_dtypes", "broadcast_tensors", [r.randint(0, 5, (3,)), r.randn((2, 1), torch.float32), r.bool((1,))], bt)
    C.ok("broadcast_tensors/special", "broadcast_tensors", [special(), r.randn((2, 2, 1))], bt)
    C.ok("broadcast_tensors/partial_grad", "broadcast_tensors", [a, b], bt, grad_outputs=[None, r.randn((2, 4, 3))])
    C.ok("broadcast_tensors/int", "broadcast_tensors", [r.randint(-9, 9, (2, 1)), r.randint(-9, 9, (3,), torch.int8)], bt, backward=False)
    C.err("broadcast_tensors/mismatch", "broadcast_tensors", [r.randn((2, 3)), r.randn((4, 3))], bt)
    C.narrow("broadcast_tensors", [a, b], bt, None)

    for op, fn in (("hstack", torch.hstack), ("vstack", torch.vstack), ("dstack", torch.dstack),
                   ("column_stack", torch.column_stack)):
        r = R(op)
        f = (lambda g: (lambda *ts: g(ts)))(fn)
        C.ok(op + "/1d", op, [r.randn((3,)), r.randn((3,))], f)
        C.ok(op + "/2d", op, [r.randn((2, 3)), r.randn((2, 3))], f)
        C.ok(op + "/0d", op, [r.randn(()), r.randn(())], f)
        C.ok(op + "/3d", op, [r.randn((2, 3, 2)), r.randn((2, 3, 2))], f)
        C.ok(op + "/single", op, [r.randn((2, 2))], f)
        C.ok(op + "/promote", op, [r.randint(0, 9, (2, 2), torch.int32), r.randn((2, 2), torch.float32)], f)
        C.ok(op + "/special", op, [special(), special()], f)
        C.ok(op + "/int_bool", op, [r.randint(-9, 9, (2, 3)), r.bool((2, 3))], f, backward=False)
        C.narrow(op, [r.randn((2, 3)), r.randn((2, 3))], f, None)
    r = R("stack_family")
    C.ok("hstack/uneven", "hstack", [r.randn((2, 1)), r.randn((2, 3))], lambda *ts: torch.hstack(ts))
    C.ok("hstack/legacy_empty", "hstack", [r.randn((0,)), r.randn((3,))], lambda *ts: torch.hstack(ts))
    C.ok("vstack/rows", "vstack", [r.randn((3,)), r.randn((2, 3))], lambda *ts: torch.vstack(ts))
    C.ok("dstack/1d_2d", "dstack", [r.randn((3,)), r.randn((1, 3))], lambda *ts: torch.dstack(ts))
    C.ok("column_stack/mixed", "column_stack", [r.randn((3,)), r.randn((3, 2)), r.randn((3, 1))], lambda *ts: torch.column_stack(ts))
    C.ok("column_stack/0d_1d", "column_stack", [r.randn(()), r.randn((1,))], lambda *ts: torch.column_stack(ts))
    C.err("hstack/mismatch", "hstack", [r.randn((2, 3)), r.randn((3, 3))], lambda *ts: torch.hstack(ts))
    C.err("vstack/mismatch", "vstack", [r.randn(()), r.randn((2,))], lambda *ts: torch.vstack(ts))
    C.err("dstack/mismatch", "dstack", [r.randn(()), r.randn((2,))], lambda *ts: torch.dstack(ts))
    C.err("column_stack/mismatch", "column_stack", [r.randn((3,)), r.randn((2, 2))], lambda *ts: torch.column_stack(ts))
    C.err("hstack/0d_mixed", "hstack", [r.randn((2, 2)), r.randn(())], lambda *ts: torch.hstack(ts))


def index_cases(C):
    r = R("gather")
    ga = lambda dim: (lambda x, i: torch.gather(x, dim, i))
    L = lambda v: torch.tensor(v, dtype=torch.int64)
    x = r.randn((3, 4))
    C.ok("gather/dim0", "gather", [x, L([[0, 2, 1, 0], [2, 2, 0, 1]])], ga(0), {"dim": 0})
    C.ok("gather/dim1_repeat", "gather", [x, L([[3, 3, 0], [1, 0, 1]])], ga(1), {"dim": 1})
    C.ok("gather/neg_dim_wide", "gather", [x, r.randint(0, 4, (2, 6))], ga(-1), {"dim": -1})
    C.ok("gather/3d", "gather", [r.randn((2, 3, 2)), r.randint(0, 3, (2, 2, 2))], ga(1), {"dim": 1})
    C.ok("gather/0d", "gather", [r.randn(()), L(0)], ga(0), {"dim": 0})
    C.ok("gather/0d_self_1d_index", "gather", [r.randn(()), L([0, 0])], ga(0), {"dim": 0})
    C.ok("gather/empty", "gather", [x, torch.zeros((0, 2), dtype=torch.int64)], ga(0), {"dim": 0})
    C.ok("gather/special", "gather", [special(), L([[2, 1], [0, 0]])], ga(1), {"dim": 1})
    C.ok("gather/int", "gather", [r.randint(-9, 9, (3, 3)), L([[0, 1], [2, 2]])], ga(0), {"dim": 0}, backward=False)
    C.ok("gather/bool", "gather", [r.bool((3, 3)), L([[0, 1], [2, 2]])], ga(1), {"dim": 1}, backward=False)
    C.err("gather/out_of_range", "gather", [x, L([[0, 5]])], ga(0), {"dim": 0})
    C.err("gather/negative_index", "gather", [x, L([[0, -1]])], ga(0), {"dim": 0})
    C.err("gather/int32_index", "gather", [x, torch.tensor([[0, 1]], dtype=torch.int32)], ga(0), {"dim": 0})
    C.err("gather/rank", "gather", [x, L([0, 1])], ga(0), {"dim": 0})
    C.err("gather/size", "gather", [x, torch.zeros((4, 1), dtype=torch.int64)], ga(1), {"dim": 1})
    C.err("gather/dim", "gather", [x, L([[0]])], ga(2), {"dim": 2})
    for dn, dt in NARROW.items():
        C.ok("gather/" + dn, "gather", [x.to(dt), L([[0, 2, 1, 0], [2, 2, 0, 1]])], ga(0), {"dim": 0}, mode="emulated")

    r = R("index_select")
    isel = lambda dim: (lambda x, i: torch.index_select(x, dim, i))
    C.ok("index_select/dim0", "index_select", [x, L([2, 0, 2])], isel(0), {"dim": 0})
    C.ok("index_select/dim1", "index_select", [x, L([3, 1])], isel(1), {"dim": 1})
    C.ok("index_select/int32_index", "index_select", [x, torch.tensor([1, 1, 0], dtype=torch.int32)], isel(-1), {"dim": -1})
    C.ok("index_select/0d_index", "index_select", [x, L(1)], isel(1), {"dim": 1})
    C.ok("index_select/3d", "index_select", [r.randn((2, 3, 2)), L([0, 2, 2, 1])], isel(1), {"dim": 1})
    C.ok("index_select/empty_index", "index_select", [x, torch.zeros((0,), dtype=torch.int64)], isel(0), {"dim": 0})
    C.ok("index_select/0d", "index_select", [r.randn(()), L([0])], isel(0), {"dim": 0})
    C.ok("index_select/special", "index_select", [special(), L([2, 0])], isel(1), {"dim": 1})
    C.ok("index_select/int", "index_select", [r.randint(-9, 9, (3, 3)), L([0, 0])], isel(0), {"dim": 0}, backward=False)
    C.ok("index_select/bool", "index_select", [r.bool((3, 3)), L([2])], isel(1), {"dim": 1}, backward=False)
    C.err("index_select/out_of_range", "index_select", [x, L([3])], isel(0), {"dim": 0})
    C.err("index_select/negative", "index_select", [x, L([-1])], isel(0), {"dim": 0})
    C.err("index_select/matrix_index", "index_select", [x, L([[0]])], isel(0), {"dim": 0})
    C.err("index_select/float_index", "index_select", [x, torch.tensor([0.0])], isel(0), {"dim": 0})
    C.err("index_select/dim", "index_select", [x, L([0])], isel(2), {"dim": 2})
    for dn, dt in NARROW.items():
        C.ok("index_select/" + dn, "index_select", [x.to(dt), L([2, 0, 2])], isel(0), {"dim": 0}, mode="emulated")


def main():
    torch.manual_seed(0)
    C = Cases()
    expand_cases(C)
    repeat_cases(C)
    flip_roll_rot_cases(C)
    slice_select_unfold_cases(C)
    diag_cases(C)
    unbind_cases(C)
    broadcast_stack_cases(C)
    index_cases(C)
    write_group("shape_view", C.cs)


if __name__ == "__main__":
    main()
