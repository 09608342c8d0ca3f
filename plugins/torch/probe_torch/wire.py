"""Conversion between probe's protocol messages and torch values."""

import torch

from probe.v1 import plugin_pb2, tensor_pb2, value_pb2

from . import shm

# tensor_pb2.DType numbers, which equal sdk/tensor.DType.
DTYPES = {
    tensor_pb2.DTYPE_FLOAT64: torch.float64,
    tensor_pb2.DTYPE_FLOAT32: torch.float32,
    tensor_pb2.DTYPE_FLOAT16: torch.float16,
    tensor_pb2.DTYPE_BFLOAT16: torch.bfloat16,
    tensor_pb2.DTYPE_INT8: torch.int8,
    tensor_pb2.DTYPE_INT16: torch.int16,
    tensor_pb2.DTYPE_INT32: torch.int32,
    tensor_pb2.DTYPE_INT64: torch.int64,
    tensor_pb2.DTYPE_UINT8: torch.uint8,
    tensor_pb2.DTYPE_BOOL: torch.bool,
}
PB_DTYPES = {v: k for k, v in DTYPES.items()}

# Short names, as sdk/tensor.DType.String and the ops' dtype attributes.
NAMES = {
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
BY_NAME = {v: k for k, v in NAMES.items()}


class Scalar:
    """A Python number passed where a tensor could go (sdk/ops.Scalar).

    value is a Python bool, int or float, as the dumped call had it.
    """

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "Scalar(%r)" % (self.value,)


class ArgumentError(Exception):
    """The framework itself rejects the call (ERROR_KIND_INVALID_ARGUMENT)."""


class Unsupported(Exception):
    """The op, or the op at a dtype, cannot run here (ERROR_KIND_UNSUPPORTED)."""

    def __init__(self, op, reason, dtype=None):
        self.op, self.reason, self.dtype = op, reason, dtype
        if dtype is not None:
            msg = "op %s at %s is not supported: %s" % (op, NAMES.get(dtype, dtype), reason)
        else:
            msg = "op %s is not supported: %s" % (op, reason)
        super().__init__(msg)


class DeviceFailure(Exception):
    """A failure of the device itself (ERROR_KIND_FAILURE), never taken for
    an argument error."""


def error_pb(err):
    """An Error message for an exception."""
    if isinstance(err, Unsupported):
        e = plugin_pb2.Error(kind=plugin_pb2.ERROR_KIND_UNSUPPORTED, message=str(err), op=err.op, reason=err.reason)
        if err.dtype is not None:
            e.dtype = PB_DTYPES[err.dtype]
        return e
    if isinstance(err, ArgumentError):
        return plugin_pb2.Error(kind=plugin_pb2.ERROR_KIND_INVALID_ARGUMENT, message=str(err))
    return plugin_pb2.Error(kind=plugin_pb2.ERROR_KIND_FAILURE, message=str(err) or type(err).__name__)


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def tensor_from_pb(t, seg, what):
    """A CPU torch tensor: a view of the segment (valid until the call
    ends; the op may overwrite it) or a copy of the inline bytes."""
    dt = DTYPES.get(t.dtype)
    if dt is None:
        raise ArgumentError("%s: unknown dtype %d" % (what, t.dtype))
    shape = list(t.shape)
    if any(s < 0 for s in shape):
        raise ArgumentError("%s: negative dimension in shape %s" % (what, shape))
    itemsize = torch.empty((), dtype=dt).element_size()
    n = numel(shape) * itemsize
    which = t.WhichOneof("data")
    if which == "shm":
        ref = t.shm
        if seg is None:
            raise ArgumentError("%s: reference to shared-memory segment %x but none is attached" % (what, ref.segment_id))
        if ref.segment_id != seg.id:
            raise ArgumentError("%s: reference to segment %x, expected %x" % (what, ref.segment_id, seg.id))
        if ref.length != n:
            raise ArgumentError("%s: %d bytes for a %s tensor of shape %s (%d bytes)" % (what, ref.length, NAMES[dt], shape, n))
        if n == 0:
            return torch.empty(shape, dtype=dt)
        seg.check(ref.offset, n)
        raw = torch.frombuffer(seg.mm, dtype=torch.uint8, count=n, offset=ref.offset)
    else:
        data = t.inline if which == "inline" else b""
        if len(data) != n:
            raise ArgumentError("%s: %d bytes for a %s tensor of shape %s (%d bytes)" % (what, len(data), NAMES[dt], shape, n))
        if n == 0:
            return torch.empty(shape, dtype=dt)
        raw = torch.frombuffer(bytearray(data), dtype=torch.uint8)
    return raw.view(dt).reshape(shape)


def tensor_to_pb(t, packer):
    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    dt = t.dtype
    if dt not in PB_DTYPES:
        raise TypeError("result dtype %s has no probe dtype" % dt)
    msg = tensor_pb2.Tensor(dtype=PB_DTYPES[dt], shape=list(t.shape))
    flat = t.contiguous().reshape(-1)
    if flat.numel() == 0:
        msg.inline = b""
        return msg
    if flat.stride(0) != 1:
        # a one-element tensor counts as contiguous whatever its stride,
        # and view() to bytes refuses a stride other than 1 (clone() would
        # keep the stride)
        flat = flat.clone(memory_format=torch.contiguous_format)
    raw = flat.view(torch.uint8).numpy()
    where, data = packer.place(raw)
    if where == "inline":
        msg.inline = data
    else:
        off, n = data
        msg.shm.segment_id = packer.seg.id
        msg.shm.path = packer.seg.path
        msg.shm.offset = off
        msg.shm.length = n
    return msg


def opt_tensors_to_pb(ts, packer):
    out = []
    for t in ts:
        o = tensor_pb2.OptionalTensor()
        if t is not None:
            o.tensor.CopyFrom(tensor_to_pb(t, packer))
        out.append(o)
    return out


def value_from_pb(v, seg, what):
    which = v.WhichOneof("kind")
    if which == "tensor":
        return tensor_from_pb(v.tensor, seg, what)
    if which == "scalar":
        s = v.scalar
        if s.kind == value_pb2.SCALAR_KIND_INT:
            return Scalar(int(s.i))
        if s.kind == value_pb2.SCALAR_KIND_BOOL:
            return Scalar(bool(s.i) or bool(s.f))
        return Scalar(float(s.f))
    return None


def attr_from_pb(a):
    k = a.kind
    if k == value_pb2.ATTR_KIND_NONE:
        return None
    if k == value_pb2.ATTR_KIND_INT:
        return int(a.int_value)
    if k == value_pb2.ATTR_KIND_FLOAT:
        return float(a.float_value)
    if k == value_pb2.ATTR_KIND_BOOL:
        return bool(a.bool_value)
    if k == value_pb2.ATTR_KIND_STRING:
        return str(a.string_value)
    if k == value_pb2.ATTR_KIND_INTS:
        return [int(x) for x in a.ints]
    if k == value_pb2.ATTR_KIND_FLOATS:
        return [float(x) for x in a.floats]
    raise ArgumentError("attribute of unknown kind %d" % k)
