"""Writes half_golden.json: float16 and bfloat16 conversions computed by real
NumPy (float64 -> float16, correctly rounded) and PyTorch (float32 ->
bfloat16 / float16, round-to-nearest-even). Run with Debian's python3:
    /usr/bin/python3 sdk/tensor/testdata/gen_half.py
"""
import json, os, struct
import numpy as np
import torch

rng = np.random.default_rng(7)
vals = [0.0, -0.0, 1.0, -1.0, 65504.0, 65519.99, 65520.0, 1e6, 6.1035156e-05, 5.96e-08, 2.98e-08, 2.99e-08,
        1e-9, 3.0e38, 3.3895e38, 3.4e38, 1.0009765625, 1.00048828125, 1.000488281250001, 0.1, 1/3]
vals += list(rng.standard_normal(300) * 10.0 ** rng.integers(-9, 6, 300))
vals += list((rng.standard_normal(100) * 1e-6))
f32 = [float(np.float32(v)) for v in vals]

cases = []
for v, v32 in zip(vals, f32):
    h64 = int(np.array([v], dtype=np.float64).astype(np.float16).view(np.uint16)[0])
    h32 = int(torch.tensor([v32], dtype=torch.float32).to(torch.float16).view(torch.int16)[0]) & 0xFFFF
    b32 = int(torch.tensor([v32], dtype=torch.float32).to(torch.bfloat16).view(torch.int16)[0]) & 0xFFFF
    cases.append({"f64": repr(v), "f16_from_f64": h64, "f32": repr(v32), "f16_from_f32": h32, "bf16_from_f32": b32})
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "half_golden.json")
with open(out, "w") as f:
    json.dump(cases, f, indent=0)
print(len(cases), "cases ->", out)
