"""Runs one canonical op forward and backward with torch.

ops.py holds the op table; this module does what every op shares: moving
inputs to the device, the HF32 mode, seeding, autograd, and probing which
op x dtype pairs the installed torch runs on the configured device.
"""

import torch

from . import ops
from .wire import ArgumentError, Scalar, Unsupported

OPS = ops.OPS


class Call:
    """One op call as an op function of ops.py sees it.

    inputs: one entry per schema input (variadic inputs expanded): a torch
    tensor on the device, a wire.Scalar (a Python number, .value) or None.
    attrs: every attribute of the schema, defaults filled in.
    no_grad: indices of inputs the op declares gradient-free for this call
    (the op adds to it): their input gradient is None, not zeros, as where
    the framework's function does not take that input at all (msprobe's
    layer_norm_eval reference and its weight and bias).
    """

    def __init__(self, op, inputs, attrs, device, seed, hf32, requires_grad):
        self.op = op
        self.inputs = inputs
        self.attrs = attrs
        self.device = device
        self.seed = seed
        self.hf32 = hf32
        self.requires_grad = requires_grad
        self.no_grad = set()
        self._gen = None

    @property
    def generator(self):
        """A torch.Generator on the device seeded from the request: the
        same request gives the same dropout mask."""
        if self._gen is None:
            self._gen = torch.Generator(device=self.device)
            self._gen.manual_seed(self.seed & 0x7FFFFFFFFFFFFFFF)
        return self._gen


def round_hf32(t):
    """sdk/ops.RoundHF32 on every element of a float32 tensor: on the bit
    pattern p, (p + 0x800) & 0xFFFFF000."""
    bits = t.contiguous().view(torch.int32).to(torch.int64)
    bits = ((bits & 0xFFFFFFFF) + 0x800) & 0xFFFFF000
    bits = torch.where(bits >= 0x80000000, bits - 0x100000000, bits)
    return bits.to(torch.int32).view(torch.float32).reshape(t.shape)


class _NPUHF32:
    """Turns torch_npu's HF32 modes on for one call."""

    def __enter__(self):
        self.saved = (torch.npu.conv.allow_hf32, torch.npu.matmul.allow_hf32)
        torch.npu.conv.allow_hf32 = True
        torch.npu.matmul.allow_hf32 = True

    def __exit__(self, *exc):
        torch.npu.conv.allow_hf32, torch.npu.matmul.allow_hf32 = self.saved


ONES = object()  # grads for probing: ones for every output


def run(call, backward, grads):
    """Returns (outputs, input_grads); input_grads is empty without backward.

    grads holds the gradient of each output (None or missing: zero), or is
    ONES."""
    fn = OPS[call.op]
    dev = call.device
    npu_hf32 = call.hf32 and dev.type == "npu"
    leaves = {}
    work = []
    for i, v in enumerate(call.inputs):
        if isinstance(v, torch.Tensor):
            if call.hf32 and not npu_hf32 and v.dtype == torch.float32:
                v = round_hf32(v)
            t = v.to(dev)
            if backward and call.requires_grad[i] and t.is_floating_point():
                leaf = t.detach().requires_grad_(True)
                leaves[i] = leaf
                # The op works on a copy, so that in-place ops may write
                # into their input 0 although the leaf requires grad.
                t = leaf.clone()
            work.append(t)
        else:
            work.append(v)
    call.inputs = work
    with torch.set_grad_enabled(bool(leaves)):
        if npu_hf32:
            with _NPUHF32():
                outs = fn(call)
        else:
            outs = fn(call)
    if isinstance(outs, torch.Tensor):
        outs = [outs]
    outs = list(outs)
    if not backward:
        return [o.detach() if o is not None else None for o in outs], []
    diff, gouts = [], []
    for j, o in enumerate(outs):
        if o is None or not o.requires_grad or not o.is_floating_point():
            continue
        if grads is ONES:
            g = torch.ones_like(o)
        else:
            g = grads[j] if j < len(grads) else None
        if g is None:
            continue
        diff.append(o)
        gouts.append(g.to(dev))
    order = sorted(leaves)
    got = [None] * len(order)
    if diff and order:
        got = torch.autograd.grad(diff, [leaves[i] for i in order], gouts, allow_unused=True)
    igrads = [None] * len(call.inputs)
    for i, g in zip(order, got):
        if i in call.no_grad:
            continue
        igrads[i] = g if g is not None else torch.zeros_like(leaves[i])
    return [o.detach() if o is not None else None for o in outs], igrads


def declared(op):
    """[(dtype, backward)]: what an op is written for, before probing."""
    return [(dt, op in ops.BACKWARD and dt.is_floating_point) for dt in ALL if ops.SAMPLES[op](dt) is not None]


ALL = [
    torch.float64, torch.float32, torch.float16, torch.bfloat16,
    torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
]


def probe_support(device, dtypes, log=None):
    """Runs every op's sample at every dtype on device.

    Returns {op: [(dtype, backward)]}: the dtypes the installed torch runs
    the op at on this device, each with whether its backward runs there
    too. A pair torch cannot run (a missing kernel, "not implemented for
    'Half'") is left out instead of failing later; a dtype whose forward
    runs but whose backward does not (pow at float16 on a CPU with torch
    1.13, whose exponent gradient needs a float16 log) is declared without
    backward.
    """
    from .device import bind

    support = {}
    for op in sorted(OPS):
        got = []
        for dt in dtypes:
            sample = ops.SAMPLES[op](dt)
            if sample is None:
                continue
            inputs, attrs = sample
            try:
                inputs, attrs = bind(op, attrs, inputs)
            except ArgumentError as e:
                raise RuntimeError("torch plugin: the sample of %s at %s does not bind: %s" % (op, dt, e))
            want_bwd = op in ops.BACKWARD and dt.is_floating_point
            rg = [isinstance(v, torch.Tensor) and v.is_floating_point() for v in inputs]
            for b in ([True, False] if want_bwd else [False]):
                call = Call(op, list(inputs), attrs, device, 1, False, rg)
                try:
                    run(call, b, ONES)
                except Exception as e:  # noqa: BLE001
                    if log is not None:
                        log("probe: %s at %s%s: %s" % (op, dt, " with backward" if b else "", e))
                    continue
                got.append((dt, b))
                break
        support[op] = got
    return support
