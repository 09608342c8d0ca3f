"""Golden cases of setitem: Tensor.__setitem__ with a basic key (ints,
slices with steps and negative bounds, None, Ellipsis, tuples of them),
which probe lowers to the strided view the key selects. Group "setitem".

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_setitem.py

writes golden/setitem.json.gz (format: golden_lib.py). Each case runs the
real self.clone()[key] = value under autograd; its attrs (offset, sizes,
strides) are those of torch's own view self[key] of a contiguous self.
Values: numbers and tensors broadcast to the view, at float64 (mode
"bench") and float32/float16/bfloat16 (mode "emulated", forward and backward), and
a value of another dtype cast to self's.
"""

import warnings

import torch

from golden_lib import Rand, case, write_group

warnings.filterwarnings("ignore")

f64 = torch.float64
NARROW = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def attrs_of(x, key):
    v = x.contiguous()[key]
    sizes = list(v.size())
    # a size-1 dim (None) takes stride 0, as the lowering gives it
    strides = [0 if n == 1 else s for n, s in zip(sizes, v.stride())]
    return {"offset": v.storage_offset(), "sizes": sizes, "strides": strides}


def setter(key):
    def fn(s, v):
        out = s.clone()
        out[key] = v
        return out
    return fn


KEYS = [
    ("slice_rows", (4, 6), slice(0, 2), (2, 6)),
    ("slice_step", (4, 6), (slice(None), slice(1, None, 2)), (4, 3)),
    ("slice_negative", (4, 6), (slice(-3, -1), slice(-5, None, 3)), (2, 1)),
    ("slice_clamped", (4, 6), slice(-10, 10, 3), (6,)),
    ("slice_empty", (4, 6), slice(3, 1), (6,)),
    ("int", (4, 6), 1, (6,)),
    ("int_negative", (4, 6), (-1, -2), ()),
    ("int_slice", (3, 4, 5), (1, slice(None, None, 2)), (1, 5)),
    ("none", (4, 6), None, (4, 6)),
    ("none_slice", (4, 6), (slice(1, 3), None, slice(None, 4)), (2, 1, 4)),
    ("ellipsis", (3, 4, 5), Ellipsis, (5,)),
    ("ellipsis_int", (3, 4, 5), (Ellipsis, 2), (3, 1)),
    ("int_ellipsis_slice", (3, 4, 5), (-2, Ellipsis, slice(1, 4)), (4, 3)),
    ("ellipsis_none", (2, 3), (None, Ellipsis, None), (2, 3, 1)),
    ("0d_ellipsis", (), Ellipsis, ()),
]


def main():
    torch.manual_seed(0)
    r = Rand("setitem")
    cs = []
    op = "setitem"
    for name, shape, key, vshape in KEYS:
        x = r.randn(shape)
        cs.append(case("setitem/" + name, op, [x, r.randn(vshape)], setter(key), attrs_of(x, key)))
        cs.append(case("setitem/%s_number" % name, op, [x, -1.25], setter(key), attrs_of(x, key)))
        for dn, dt in NARROW.items():
            # torch sums value's broadcast gradient in float32 (its own
            # order), the kernel exactly: float32 cases allow for that sum
            atol = 1e-6 if dt == torch.float32 else None
            cs.append(case("setitem/%s_%s" % (name, dn), op, [x.to(dt), r.randn(vshape).to(dt)], setter(key),
                           attrs_of(x, key), mode="emulated", atol=atol))
    x = r.randn((4, 6))
    key = (slice(1, None), slice(None, None, 4))
    cs.append(case("setitem/value_float64_into_bfloat16", op, [x.to(torch.bfloat16), r.randn((3, 1))], setter(key),
                   attrs_of(x, key), mode="emulated", requires_grad=[True, False]))
    cs.append(case("setitem/number_into_bfloat16", op, [x.to(torch.bfloat16), 0.1], setter(key), attrs_of(x, key), mode="emulated"))
    write_group("setitem", cs)


if __name__ == "__main__":
    main()
