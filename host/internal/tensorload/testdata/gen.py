#!/usr/bin/python3
"""Regenerates the .pt and .npy test files of package tensorload and
expected.json (dtype, shape and exact element values of each file).

Run from this directory with the Debian PyTorch:  /usr/bin/python3 gen.py
Float values are written with float.hex() so the Go test can compare them
bit-exactly; integers as JSON integers.
"""
import json
import os

import numpy as np
import torch

torch.manual_seed(7)
np.random.seed(7)
out = {}


def record(name, t):
    if isinstance(t, torch.Tensor):
        dtype = str(t.dtype).replace("torch.", "")
        shape = list(t.shape)
        flat = t.detach().contiguous().reshape(-1)
        if t.dtype.is_floating_point:
            vals = [float(v).hex() for v in flat.double().tolist()]
        else:
            vals = [int(v) for v in flat.long().tolist()]
    else:
        dtype = {"bool": "bool"}.get(t.dtype.name, t.dtype.name)
        shape = list(t.shape)
        flat = np.ascontiguousarray(t).reshape(-1)
        if t.dtype.kind == "f":
            vals = [float(v).hex() for v in flat.astype(np.float64).tolist()]
        else:
            vals = [int(v) for v in flat.astype(np.int64).tolist()]
    out[name] = {"dtype": dtype, "shape": shape, "values": vals}


def save_pt(name, t):
    torch.save(t, name)
    record(name, t)


base = torch.randn(3, 4)
save_pt("f32_2d.pt", base)
save_pt("f64_1d.pt", torch.randn(5, dtype=torch.float64))
save_pt("f16.pt", (torch.randn(2, 3) * 100).half())
save_pt("bf16.pt", (torch.randn(2, 3) * 1e3).bfloat16())
save_pt("bf16_special.pt", torch.tensor([float("inf"), float("-inf"), float("nan"), -0.0, 1e-40], dtype=torch.bfloat16))
save_pt("f16_special.pt", torch.tensor([65504, -65504, float("inf"), 6e-8, -0.0], dtype=torch.float16))
save_pt("i64.pt", torch.tensor([[-(2**63), 2**63 - 1], [0, -5]], dtype=torch.int64))
save_pt("i32.pt", torch.tensor([-(2**31), 2**31 - 1, 7], dtype=torch.int32))
save_pt("i16.pt", torch.tensor([-32768, 32767], dtype=torch.int16))
save_pt("i8.pt", torch.tensor([-128, 127, 0], dtype=torch.int8))
save_pt("u8.pt", torch.tensor([0, 255, 17], dtype=torch.uint8))
save_pt("bool.pt", torch.tensor([[True, False, True], [False, False, True]]))
save_pt("scalar_0d.pt", torch.tensor(3.25))
save_pt("scalar_0d_i64.pt", torch.tensor(-9, dtype=torch.int64))
save_pt("empty.pt", torch.zeros(2, 0, 3))
# Views: torch.save keeps the whole storage, the offset and the strides.
save_pt("transposed.pt", base.t())
save_pt("sliced_offset.pt", base[1:, 1:3])
save_pt("stepped.pt", torch.arange(20, dtype=torch.float32)[3::4])
save_pt("permuted_3d.pt", torch.arange(24, dtype=torch.int64).reshape(2, 3, 4).permute(2, 0, 1))
save_pt("expanded.pt", torch.tensor([1.5, -2.5]).unsqueeze(0).expand(3, 2))
save_pt("transposed_bf16.pt", (torch.randn(3, 2) * 10).bfloat16().t())
p = torch.nn.Parameter(torch.randn(2, 2))
torch.save(p, "parameter.pt")
record("parameter.pt", p.detach())

# .npy files.
def save_npy(name, a, version=None):
    with open(name, "wb") as f:
        np.lib.format.write_array(f, a, version=version)
    record(name, a)

save_npy("f8.npy", np.random.randn(2, 3))
save_npy("f4.npy", np.random.randn(4).astype(np.float32))
save_npy("f2.npy", (np.random.randn(3) * 10).astype(np.float16))
save_npy("i8.npy", np.array([[-(2**63), 2**63 - 1], [1, 2]], dtype=np.int64))
save_npy("i4.npy", np.array([-(2**31), 5], dtype=np.int32))
save_npy("i2.npy", np.array([-7, 300], dtype=np.int16))
save_npy("i1.npy", np.array([-128, 127], dtype=np.int8))
save_npy("u1.npy", np.array([0, 200], dtype=np.uint8))
save_npy("b1.npy", np.array([True, False, True]))
save_npy("scalar_0d.npy", np.array(2.5, dtype=np.float32))
save_npy("empty.npy", np.zeros((0, 4), dtype=np.float32))
save_npy("fortran.npy", np.asfortranarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4)))
save_npy("fortran_2d_i4.npy", np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)))
save_npy("v2.npy", np.arange(5, dtype=np.float32), version=(2, 0))
save_npy("v3.npy", np.arange(3, dtype=np.int64), version=(3, 0))
save_npy("big_endian.npy", np.array([1.5, -2.25, 1e300], dtype=">f8"))

with open("expected.json", "w") as f:
    json.dump(out, f, indent=0, sort_keys=True)
    f.write("\n")
