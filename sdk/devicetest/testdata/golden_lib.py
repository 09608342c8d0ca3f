"""Shared helpers that turn real PyTorch computations into golden cases: the
corpus of sdk/devicetest, the conformance kit every device plugin runs
(plugins/cpu runs it in both of its modes).

Run generators with the system interpreter that has PyTorch 1.13:

    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden.py      # elementwise/reduce/shape
    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_nn.py   # nn kernels
    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_attention.py
    cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_dtypes.py   # every op at fp32/fp16/bf16

FILE FORMAT
-----------
One gzip-compressed JSON file per op group: testdata/golden/<group>.json.gz,
holding {"group": "<group>", "torch": "<version>", "cases": [case, ...]}.
sdk/devicetest embeds every *.json.gz file of testdata/golden (go:embed), so
a new group needs no Go change.

A case is:

  {
    "name":   "add/broadcast",             unique within the file
    "op":     "add",                       canonical op (sdk/ops/schema.go)
    "mode":   "bench" | "emulated",        the CPU plugin mode the case was written
                                           for (default bench): bench = float64
                                           reference, emulated = PyTorch at a
                                           narrow dtype. sdk/devicetest runs
                                           every case on every device.
    "attrs":  {name: {"kind": K, "value": V}},
              K in int|float|bool|string|ints|floats|none (value null for none)
    "inputs": [value, ...]                 flat list; variadic inputs (cat/stack)
                                           contribute one value per tensor
    "requires_grad": [bool, ...]           one per input
    "seed":   int                          optional ExecRequest.Seed
    "grad_outputs": [tensor|null, ...]     present iff the case runs backward;
                                           one per output, null = no gradient
    "outputs": [tensor, ...]               expected outputs (dtype, shape, data)
    "input_grads": [tensor|null, ...]      expected gradients, one per input;
                                           null = no gradient (the device may
                                           return nil or zeros)
    "error":  "message"                    instead of outputs: torch raised this,
                                           the device must return an error
    "rtol", "atol": float                  optional: the case's own tolerance
    "ulp":    float                        (ulp: units in the last place of the
                                           compared tensor's dtype). sdk/devicetest's
                                           default tolerance is at least these;
                                           the CPU plugin, for cases of its own
                                           mode, uses them in place of its tight
                                           1e-12 rel + 1e-12 abs (float64) / 2 ulp
                                           (narrower floats)
  }

A value is one of
  {"kind": "none"}
  {"kind": "scalar", "scalar_kind": "float"|"int"|"bool", "value": number}
  {"kind": "tensor", "dtype": "float64", "shape": [2, 3], "data": [...]}
A tensor (inside outputs/grads, without "kind") is
  {"dtype": "...", "shape": [...], "data": [flat row-major values]}
Float data that is NaN or infinite is written as the strings "nan", "inf",
"-inf"; bool data as 0/1; integer data as JSON integers (exact).

API (keep stable; gen_golden_nn.py imports it)
----------------------------------------------
  R = Rand(seed)                     seeded generator: R.randn(shape, dtype),
                                     R.rand(shape, dtype, lo, hi),
                                     R.randint(lo, hi, shape, dtype),
                                     R.bool(shape, p)
  attr(kind, value)                  explicit attribute (else kinds are inferred:
                                     bool/int/float/str/list of int/list of
                                     float/None)
  case(name, op, inputs, fn, attrs=None, requires_grad=None, backward=True,
       mode="bench", grad_outputs=None, seed=None, rtol=None, atol=None,
       ulp=None)                     runs fn(*inputs) in torch and records
                                     outputs and (if backward) gradients
  error_case(name, op, inputs, fn, attrs=None, mode="bench")
                                     records that torch raises
  write_group(group, cases)          writes testdata/golden/<group>.json.gz
                                     deterministically

Inputs given to case() are Python values: torch.Tensor, int, float, bool
(scalars: wrapped numbers) or None. requires_grad defaults to True for every
floating-point tensor input when backward is True. fn receives the inputs in
the same order (tensors cloned, with requires_grad set) and returns a tensor
or a tuple/list of tensors. Gradient outputs are drawn from N(0,1) with a
seed derived from the case name, for every floating output that has a
grad_fn; torch.autograd.grad gives the input gradients.
"""

import gzip
import io
import json
import math
import os
import zlib

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN_DIR = os.path.join(HERE, "golden")

_DTYPE_NAMES = {
    torch.float64: "float64",
    torch.float32: "float32",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.int8: "int8",
    torch.int16: "int16",
    torch.int32: "int32",
    torch.int64: "int64",
    torch.uint8: "uint8",
    torch.bool: "bool",
}


def dtype_name(dt):
    """Short dtype name as sdk/tensor spells it."""
    return _DTYPE_NAMES[dt]


def name_seed(name):
    """A stable 31-bit seed derived from a string."""
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


class Rand:
    """Seeded source of small random tensors."""

    def __init__(self, seed):
        if isinstance(seed, str):
            seed = name_seed(seed)
        self.g = torch.Generator().manual_seed(seed)

    def randn(self, shape, dtype=torch.float64):
        return torch.randn(tuple(shape), generator=self.g, dtype=torch.float64).to(dtype)

    def rand(self, shape, dtype=torch.float64, lo=0.0, hi=1.0):
        u = torch.rand(tuple(shape), generator=self.g, dtype=torch.float64)
        return (lo + (hi - lo) * u).to(dtype)

    def randint(self, lo, hi, shape, dtype=torch.int64):
        return torch.randint(lo, hi, tuple(shape), generator=self.g, dtype=torch.int64).to(dtype)

    def bool(self, shape, p=0.5):
        return torch.rand(tuple(shape), generator=self.g, dtype=torch.float64) < p


def attr(kind, value):
    """An attribute with an explicit kind (int|float|bool|string|ints|floats|none)."""
    if kind == "none":
        return {"kind": "none", "value": None}
    return {"kind": kind, "value": value}


def _enc_attr(v):
    if isinstance(v, dict) and "kind" in v:
        return v
    if v is None:
        return attr("none", None)
    if isinstance(v, bool):
        return attr("bool", v)
    if isinstance(v, int):
        return attr("int", v)
    if isinstance(v, float):
        return attr("float", _enc_float(v))
    if isinstance(v, str):
        return attr("string", v)
    if isinstance(v, (list, tuple)):
        if all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return attr("ints", list(v))
        return attr("floats", [_enc_float(float(x)) for x in v])
    if isinstance(v, torch.dtype):
        return attr("string", dtype_name(v))
    raise TypeError("cannot encode attribute %r" % (v,))


def _enc_float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def enc_tensor(t):
    """Encode a tensor (without "kind")."""
    t = t.detach().contiguous()
    d = dtype_name(t.dtype)
    if t.dtype == torch.bool:
        data = [int(x) for x in t.reshape(-1).tolist()]
    elif t.dtype.is_floating_point:
        data = [_enc_float(x) for x in t.to(torch.float64).reshape(-1).tolist()]
    else:
        data = t.reshape(-1).tolist()
    return {"dtype": d, "shape": list(t.shape), "data": data}


def enc_value(v):
    """Encode an op input."""
    if v is None:
        return {"kind": "none"}
    if isinstance(v, torch.Tensor):
        out = {"kind": "tensor"}
        out.update(enc_tensor(v))
        return out
    if isinstance(v, bool):
        return {"kind": "scalar", "scalar_kind": "bool", "value": int(v)}
    if isinstance(v, int):
        return {"kind": "scalar", "scalar_kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "scalar", "scalar_kind": "float", "value": _enc_float(v)}
    raise TypeError("cannot encode input %r" % (v,))


def _prepare(inputs, requires_grad):
    prepared = []
    for v, rg in zip(inputs, requires_grad):
        if isinstance(v, torch.Tensor):
            t = v.detach().clone()
            if rg:
                t.requires_grad_(True)
            prepared.append(t)
        else:
            prepared.append(v)
    return prepared


def _as_tuple(out):
    if isinstance(out, torch.Tensor):
        return (out,)
    return tuple(out)


def _base(name, op, inputs, attrs, mode, requires_grad, seed):
    c = {"name": name, "op": op}
    if mode != "bench":
        c["mode"] = mode
    c["attrs"] = {k: _enc_attr(v) for k, v in (attrs or {}).items()}
    c["inputs"] = [enc_value(v) for v in inputs]
    c["requires_grad"] = [bool(x) for x in requires_grad]
    if seed is not None:
        c["seed"] = seed
    return c


def case(name, op, inputs, fn, attrs=None, requires_grad=None, backward=True,
         mode="bench", grad_outputs=None, seed=None, rtol=None, atol=None, ulp=None):
    """Run fn(*inputs) in torch and record a golden case (see module doc)."""
    inputs = list(inputs)
    if requires_grad is None:
        requires_grad = [backward and isinstance(v, torch.Tensor) and v.dtype.is_floating_point
                         for v in inputs]
    requires_grad = list(requires_grad)
    assert len(requires_grad) == len(inputs), name
    prepared = _prepare(inputs, requires_grad)
    with torch.enable_grad():
        outs = _as_tuple(fn(*prepared))
    c = _base(name, op, inputs, attrs, mode, requires_grad, seed)
    c["outputs"] = [enc_tensor(o) for o in outs]
    for k, v in (("rtol", rtol), ("atol", atol), ("ulp", ulp)):
        if v is not None:
            c[k] = v
    if not backward:
        return c
    diff = [i for i, o in enumerate(outs) if o.dtype.is_floating_point and o.grad_fn is not None]
    gin = [i for i, t in enumerate(prepared) if isinstance(t, torch.Tensor) and t.requires_grad]
    if grad_outputs is None:
        r = Rand(name + "#grad")
        grad_outputs = [r.randn(o.shape, o.dtype) if i in diff else None for i, o in enumerate(outs)]
    grad_outputs = list(grad_outputs)
    assert len(grad_outputs) == len(outs), name
    c["grad_outputs"] = [None if g is None else enc_tensor(g) for g in grad_outputs]
    grads = [None] * len(inputs)
    use = [i for i in diff if grad_outputs[i] is not None]
    if use and gin:
        got = torch.autograd.grad([outs[i] for i in use], [prepared[i] for i in gin],
                                  [grad_outputs[i] for i in use], allow_unused=True)
        for i, g in zip(gin, got):
            grads[i] = g
    c["input_grads"] = [None if g is None else enc_tensor(g) for g in grads]
    return c


def error_case(name, op, inputs, fn, attrs=None, mode="bench", requires_grad=None):
    """Record that torch raises for fn(*inputs); the device must return an error."""
    inputs = list(inputs)
    if requires_grad is None:
        requires_grad = [False] * len(inputs)
    prepared = _prepare(inputs, requires_grad)
    try:
        fn(*prepared)
    except Exception as e:  # noqa: BLE001 - any torch error is the expectation
        c = _base(name, op, inputs, attrs, mode, requires_grad, None)
        c["error"] = str(e).split("\n")[0]
        return c
    raise AssertionError("%s: torch did not raise" % name)


def write_group(group, cases):
    """Write testdata/golden/<group>.json.gz (byte-for-byte deterministic)."""
    names = set()
    for c in cases:
        if c["name"] in names:
            raise ValueError("duplicate case name %s in %s" % (c["name"], group))
        names.add(c["name"])
    doc = {"group": group, "torch": torch.__version__, "cases": cases}
    raw = json.dumps(doc, separators=(",", ":"), allow_nan=False).encode()
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    path = os.path.join(GOLDEN_DIR, group + ".json.gz")
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(raw)
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    print("%s: %d cases, %d bytes" % (path, len(cases), len(buf.getvalue())))
    return path

# ---------------------------------------------------------------- tolerance from PyTorch's own deviation
# Shared by the family generators (gen_golden_<family>.py): checked() is
# case() with an ulp field where PyTorch's narrow-dtype result is more than
# one ulp from the correctly rounded float64 result; REPORT collects a line
# per such case for the generator to print.

REPORT = []
_f64 = torch.float64
_DTYPES_BY_NAME = {"float64": torch.float64, "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}

def _ulps(got, exact):
    """max |got - exact rounded to got's dtype| in units in the last place."""
    if got is None or exact is None or got.numel() == 0 or not got.dtype.is_floating_point or got.dtype == _f64:
        return 0.0
    w = exact.to(got.dtype).to(_f64)
    g = got.detach().to(_f64)
    fin = torch.isfinite(w) & torch.isfinite(g)
    if not bool(fin.any()):
        return 0.0
    fi = torch.finfo(got.dtype)
    ulp = torch.exp2(torch.floor(torch.log2(w[fin].abs().clamp(min=fi.tiny)))) * fi.eps
    return ((g[fin] - w[fin]).abs() / ulp).max().item()


def run_torch(fn, inputs, rg, grad_outputs):
    """fn on inputs (tensors require grad where rg says), and the gradients
    of grad_outputs with respect to them (none when grad_outputs is None)."""
    xs = []
    for v, g in zip(inputs, rg):
        if isinstance(v, torch.Tensor):
            v = v.detach().clone().requires_grad_(bool(g))
        xs.append(v)
    with torch.enable_grad():
        out = fn(*xs)
    outs = (out,) if isinstance(out, torch.Tensor) else tuple(out)
    grads = []
    if grad_outputs is not None:
        gin = [x for x in xs if isinstance(x, torch.Tensor) and x.requires_grad]
        use = [(o, g) for o, g in zip(outs, grad_outputs) if g is not None and o.grad_fn is not None]
        if gin and use:
            grads = list(torch.autograd.grad([o for o, _ in use], gin, [g for _, g in use], allow_unused=True))
    return [o.detach() for o in outs], grads


def via_f32(fn, d):
    """fn computed in float32 and rounded to d, for a narrow dtype d whose
    kernel PyTorch 1.13's CPU lacks (its half kernels compute in float32)."""
    def wrapped(*xs):
        args = [x.float() if isinstance(x, torch.Tensor) and x.dtype == d else x for x in xs]
        out = fn(*args)
        return out.to(d) if out.dtype == torch.float32 else out
    return wrapped


def checked(name, op, inputs, fn, promote=False, **kw):
    """case() with an ulp field where PyTorch's narrow result is more than
    one ulp from the float64 result of the same inputs rounded (promote:
    integer inputs become float64 for that reference)."""
    c = case(name, op, inputs, fn, **kw)
    rg = c["requires_grad"]
    go = None
    if c.get("grad_outputs") is not None:
        go = [None if g is None else torch.tensor([float(v) for v in g["data"]], dtype=_f64).reshape(g["shape"]).to(_DTYPES_BY_NAME[g["dtype"]])
              for g in c["grad_outputs"]]
    touts, tgrads = run_torch(fn, inputs, rg, go)

    def up(v):
        if isinstance(v, torch.Tensor) and (v.dtype.is_floating_point or promote):
            return v.to(_f64)
        return v
    eouts, egrads = run_torch(fn, [up(v) for v in inputs], rg, None if go is None else [up(g) for g in go])
    worst = 0.0
    for got, want in list(zip(touts, eouts)) + list(zip(tgrads, egrads)):
        worst = max(worst, _ulps(got, want))
    if worst > 1.0 and "atol" not in kw:
        c["ulp"] = max(c.get("ulp", 0), float(math.ceil(worst) + 1))
        REPORT.append("%-40s PyTorch %.2f ulp from the correctly rounded result: ulp %g" % (name, worst, c["ulp"]))
    return c
