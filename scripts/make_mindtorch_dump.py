#!/usr/bin/python3
"""Writes an MsAdapter ("mindtorch") dump (mindspore-precheck.md sections 2
and 4.10) from a PyTorch dump written by scripts/make_every_api_dump.py: the
same Torch.*, Functional.* and Tensor.* calls with the same values, spelled
as MindSpore's dumper records an MsAdapter run. No MindSpore or MsAdapter is
needed: MsAdapter implements PyTorch's API, so PyTorch's values are what it
computes (run it with /usr/bin/python3, which has torch 1.13).

What changes: the top-level "framework" is "mindtorch" and "task" the
--mode; tensor descriptors are "mindspore.Tensor" with MindSpore dtype names
(Float32, BFloat16, Int64, Bool, ...) and no requires_grad; torch.dtype
arguments become "mindspore.dtype" with those names; --mode tensor converts
each .pt file into <name>.npy under OUT/dump_tensor_data (bfloat16 stored as
float32, as the dumper does) and sets dump_data_dir; --mode statistics
drops data_name. The backward entries keep PyTorch's records: "input" is the
gradient of each output (the sens), "output" the gradients autograd gave
(not MindSpore's one per positional argument), so they serve a re-run, not
--device dumped.

    /usr/bin/python3 scripts/make_every_api_dump.py --dtypes float32 --out /tmp/every-api
    /usr/bin/python3 scripts/make_mindtorch_dump.py --from /tmp/every-api/dump.json --mode tensor --out /tmp/mindtorch
"""
import argparse
import json
import os

import numpy as np
import torch

MS_DTYPE = {"torch.bool": "Bool", "torch.int8": "Int8", "torch.uint8": "UInt8", "torch.int16": "Int16",
            "torch.int32": "Int32", "torch.int64": "Int64", "torch.float16": "Float16",
            "torch.bfloat16": "BFloat16", "torch.float32": "Float32", "torch.float64": "Float64",
            "torch.complex64": "Complex64", "torch.complex128": "Complex128"}


class Converter:
    def __init__(self, mode, src_dir, data_dir):
        self.mode = mode
        self.src_dir = src_dir
        self.data_dir = data_dir
        self.saved = 0

    def tensor(self, x):
        y = {k: v for k, v in x.items() if k not in ("data_name", "requires_grad")}
        y["type"] = "mindspore.Tensor"
        y["dtype"] = MS_DTYPE.get(x["dtype"], x["dtype"])
        name = x.get("data_name")
        if self.mode == "tensor" and name:
            t = torch.load(os.path.join(self.src_dir, name))
            if t.dtype == torch.bfloat16:
                t = t.float()
            npy = name[:-len(".pt")] + ".npy" if name.endswith(".pt") else name + ".npy"
            np.save(os.path.join(self.data_dir, npy), t.numpy())
            y["data_name"] = npy
            self.saved += 1
        return y

    def conv(self, x):
        if isinstance(x, list):
            return [self.conv(e) for e in x]
        if isinstance(x, dict):
            if x.get("type") == "torch.Tensor":
                return self.tensor(x)
            if x.get("type") == "torch.dtype":
                return {"type": "mindspore.dtype", "value": MS_DTYPE.get(x.get("value"), x.get("value"))}
            return {k: self.conv(v) for k, v in x.items()}
        return x


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--from", dest="src", required=True, help="dump.json of scripts/make_every_api_dump.py")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--mode", choices=("statistics", "tensor"), default="tensor",
                    help="dump task: statistics (Max/Min/Mean/Norm only) or tensor (+ .npy files)")
    a = ap.parse_args()
    with open(a.src) as f:
        src = json.load(f)
    if src.get("framework") != "pytorch":
        raise SystemExit("%s: \"framework\" is %r, want \"pytorch\"" % (a.src, src.get("framework")))
    src_dir = src.get("dump_data_dir") or os.path.join(os.path.dirname(os.path.abspath(a.src)), "dump_tensor_data")
    os.makedirs(a.out, exist_ok=True)
    data_dir = os.path.abspath(os.path.join(a.out, "dump_tensor_data"))
    if a.mode == "tensor":
        os.makedirs(data_dir, exist_ok=True)
        for f in os.listdir(data_dir):
            if f.endswith(".npy"):
                os.remove(os.path.join(data_dir, f))
    c = Converter(a.mode, src_dir, data_dir)
    data = {}
    for key, body in src["data"].items():
        if key.split(".")[0] in ("Torch", "Functional", "Tensor"):
            data[key] = c.conv(body)
    dump = {"task": a.mode, "level": "L1", "framework": "mindtorch",
            "dump_data_dir": data_dir if a.mode == "tensor" else None, "data": data}
    with open(os.path.join(a.out, "dump.json"), "w") as f:
        json.dump(dump, f, indent=1)
    print("wrote %s: %d entries, %d tensors saved" % (os.path.join(a.out, "dump.json"), len(data), c.saved))


if __name__ == "__main__":
    main()
