"""Golden cases for the nn2 family (sdk/ops/schema_nn2.go): transposed and
time-batch-channel convolutions, 3-d max pooling, the native_*
normalisations, grid sampling, affine grids, the feature and alpha
dropouts, _softmax_backward_data, embedding_renorm_ and bilinear.

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_nn2.py

writes golden/nn2.json.gz from real PyTorch 1.13 (format: golden_lib.py).
Bench cases compute in float64 (integer cases keep their dtypes so that
result dtypes are checked); emulated cases compute at float32, bfloat16 and
float16 where PyTorch's CPU kernel has the dtype (checked() records how far
PyTorch itself is from the correctly rounded result).
"""

import torch
import torch.nn.functional as F

from golden_lib import REPORT, Rand, case, checked, error_case, write_group

f64 = torch.float64
f32 = torch.float32
f16 = torch.float16
bf16 = torch.bfloat16
i64 = torch.int64

CASES = []


def add(name, op, inputs, fn, attrs=None, mode="bench", backward=True, **kw):
    if mode == "emulated":
        CASES.append(checked(name, op, inputs, fn, attrs=attrs, backward=backward, mode=mode, **kw))
    else:
        CASES.append(case(name, op, inputs, fn, attrs=attrs, backward=backward, mode=mode, **kw))


def err(name, op, inputs, fn, attrs=None, mode="bench"):
    CASES.append(error_case(name, op, inputs, fn, attrs=attrs, mode=mode))


# --------------------------------------------------------------------------
# conv_transpose

def conv_transpose_cases():
    r = Rand("conv_transpose")
    fns = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}

    def one(name, xs, ws, bias=True, stride=1, padding=0, output_padding=0, groups=1, dilation=1, dt=f64, mode="bench", error=False, backward=True):
        n = len(ws) - 2
        x = r.randn(xs, dt) if dt.is_floating_point else r.randint(-3, 4, xs, dt)
        w = r.randn(ws, dt) if dt.is_floating_point else r.randint(-3, 4, ws, dt)
        b = None
        if bias:
            b = r.randn([ws[1] * groups], dt) if dt.is_floating_point else r.randint(-3, 4, [ws[1] * groups], dt)

        def lst(v):
            return [v] * n if isinstance(v, int) else list(v)
        attrs = {"stride": lst(stride), "padding": lst(padding), "output_padding": lst(output_padding),
                 "dilation": lst(dilation), "groups": groups}

        def f(x, w, b):
            return fns[n](x, w, b, attrs["stride"], attrs["padding"], attrs["output_padding"], groups, attrs["dilation"])
        nm = "conv_transpose/" + name
        if error:
            err(nm, "conv_transpose", [x, w, b], f, attrs=attrs, mode=mode)
        else:
            add(nm, "conv_transpose", [x, w, b], f, attrs=attrs, mode=mode, backward=backward and dt.is_floating_point)

    one("1d", [2, 3, 5], [3, 2, 3])
    one("1d_stride_pad", [2, 4, 6], [4, 3, 3], stride=2, padding=1, output_padding=1)
    one("1d_unbatched", [3, 5], [3, 2, 2], stride=3)
    one("1d_groups_dilation", [1, 4, 5], [4, 1, 3], groups=2, dilation=2, output_padding=1, stride=2)
    one("2d", [2, 3, 4, 5], [3, 2, 3, 2], bias=False)
    one("2d_params", [1, 4, 3, 4], [4, 3, 2, 3], stride=(2, 1), padding=(1, 0), output_padding=(1, 0), dilation=(1, 2), groups=2)
    one("2d_unbatched", [2, 3, 3], [2, 2, 2, 2], stride=2)
    one("2d_empty_batch", [0, 2, 3, 3], [2, 2, 2, 2])
    one("3d", [1, 2, 3, 2, 3], [2, 2, 2, 2, 2], stride=(1, 2, 1), padding=(0, 1, 0), output_padding=(0, 1, 0))
    one("3d_groups", [2, 4, 2, 2, 2], [4, 1, 2, 1, 2], groups=4, dilation=(2, 1, 1))
    one("int64", [1, 2, 4], [2, 3, 2], dt=i64, stride=2)
    one("int64_2d", [1, 2, 3, 3], [2, 1, 2, 2], dt=i64, padding=1, bias=False)
    for d in (f32,):
        one("emu/%s/1d" % d, [2, 3, 7], [3, 4, 3], stride=2, padding=1, dt=d, mode="emulated")
        one("emu/%s/2d" % d, [2, 4, 5, 5], [4, 2, 3, 3], groups=2, dt=d, mode="emulated")
        one("emu/%s/3d" % d, [1, 2, 3, 3, 3], [2, 3, 2, 2, 2], stride=2, dt=d, mode="emulated")
    one("err/bf16", [1, 2, 3], [2, 2, 2], dt=bf16, error=True)
    one("err/f16_3d", [1, 2, 3, 3, 3], [2, 2, 2, 2, 2], dt=f16, error=True)
    one("err/int32", [1, 2, 3], [2, 2, 2], dt=torch.int32, error=True)
    one("err/channels", [1, 3, 3], [2, 2, 2], error=True)
    one("err/stride0", [1, 2, 3], [2, 2, 2], stride=0, error=True)
    one("err/padding_neg", [1, 2, 3], [2, 2, 2], padding=-1, error=True)
    one("err/output_padding_neg", [1, 2, 3], [2, 2, 2], output_padding=-1, error=True)
    one("err/output_padding_big", [1, 2, 3], [2, 2, 2], output_padding=1, error=True)
    one("err/output_padding_big_2d", [1, 2, 3, 3], [2, 2, 2, 2], output_padding=(0, 2), stride=(1, 2), error=True)
    one("err/dilation0", [1, 2, 3, 3], [2, 2, 2, 2], dilation=(1, 0), error=True)
    one("err/too_small", [1, 2, 3], [2, 2, 2], padding=3, error=True)
    one("err/groups", [1, 2, 3], [2, 2, 2], groups=3, error=True)
    one("err/dims", [1, 2, 3, 3, 3], [2, 2, 2, 2], error=True)
    x, w = r.randn([1, 2, 3]), r.randn([2, 2, 2])
    err("conv_transpose/err/bias", "conv_transpose", [x, w, r.randn([3])], lambda x, w, b: F.conv_transpose1d(x, w, b),
        attrs={"stride": [1], "padding": [0], "output_padding": [0], "dilation": [1], "groups": 1})
    err("conv_transpose/err/mixed", "conv_transpose", [x.float(), w, None], lambda x, w, b: F.conv_transpose1d(x, w, b),
        attrs={"stride": [1], "padding": [0], "output_padding": [0], "dilation": [1], "groups": 1})


SECTIONS = [conv_transpose_cases]

if __name__ == "__main__":
    for s in SECTIONS:
        s()
    write_group("nn2", CASES)
    for line in REPORT:
        print(line)
