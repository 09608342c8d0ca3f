"""probe's Device service, run with the real torch."""

import json
import os
import platform
import signal
import threading
import traceback

import torch

from probe.v1 import device_pb2, plugin_pb2

from . import runner as opslib
from . import shm, wire
from .wire import ArgumentError, Scalar, Unsupported

PLUGIN_VERSION = "0.1.0"
SDK_VERSION = "0.1.0"
PROTOCOL_MINOR = 2
CAP_SHM = "transport.shm"

ALL_DTYPES = [
    torch.float64, torch.float32, torch.float16, torch.bfloat16,
    torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
]
FLOAT_DTYPES = (torch.float64, torch.float32, torch.float16, torch.bfloat16)


def load_schemas():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")
    with open(path, "r", encoding="utf-8") as f:
        return {s["name"]: s for s in json.load(f)}


SCHEMAS = load_schemas()

_ATTR_OK = {
    # attribute kind -> Python types a value may have (as sdk/ops.Bind:
    # an int where a float goes, a bool where an int goes, an int where an
    # int list goes); bind normalises the value to the attribute's kind.
    "int": (bool, int),
    "float": (bool, int, float),
    "bool": (bool, int),
    "string": (str,),
    "ints": (list, int),
    "floats": (list, int, float),
    "none": (type(None),),
}


def bind(op, attrs, inputs):
    """sdk/ops.Bind: checks the call against the op's schema and returns
    (inputs, attrs) with every attribute set and one input per schema
    entry (trailing optional inputs filled with None)."""
    s = SCHEMAS.get(op)
    if s is None:
        raise ArgumentError("unknown op %r" % op)
    spec = s["inputs"]
    variadic = bool(spec) and spec[-1].get("variadic", False)
    fixed = len(spec) - 1 if variadic else len(spec)
    required = fixed
    while required > 0 and spec[required - 1].get("optional", False):
        required -= 1
    n = len(inputs)
    if variadic:
        if n < fixed + 1:
            raise ArgumentError("%s expects at least %d input(s), got %d" % (op, fixed + 1, n))
    else:
        if n < required or n > fixed:
            want = str(fixed) if required == fixed else "%d to %d" % (required, fixed)
            raise ArgumentError("%s expects %s input(s), got %d" % (op, want, n))
        inputs = list(inputs) + [None] * (fixed - n)
    for i, v in enumerate(inputs):
        sp = spec[min(i, len(spec) - 1)]
        name = sp["name"]
        if v is None and not sp.get("optional", False):
            raise ArgumentError("%s: input %d (%s) must not be None" % (op, i, name))
        if isinstance(v, Scalar) and not sp.get("scalar_ok", False):
            raise ArgumentError("%s: input %d (%s) must be a tensor, got the number %r" % (op, i, name, v.value))
    out = {}
    known = {a["name"]: a for a in s["attrs"]}
    for k, v in attrs.items():
        a = known.get(k)
        if a is None:
            raise ArgumentError("%s: unknown attribute %r" % (op, k))
        if v is not None and not isinstance(v, _ATTR_OK[a["kind"]]):
            raise ArgumentError("%s: attribute %s must be %s, got %r" % (op, k, a["kind"], v))
    for name, a in known.items():
        v = attrs.get(name)
        if v is None and a.get("required", False):
            raise ArgumentError("%s: attribute %s is required" % (op, name))
        if name not in attrs:
            v = a["default"]
        if v is not None:
            if a["kind"] == "int":
                v = int(v)
            elif a["kind"] == "float":
                v = float(v)
            elif a["kind"] == "bool":
                v = bool(v)
            elif a["kind"] == "ints":
                v = [int(x) for x in v] if isinstance(v, list) else [int(v)]
            elif a["kind"] == "floats":
                v = [float(x) for x in v] if isinstance(v, list) else [float(v)]
        out[name] = v
    return inputs, out


def call_dtype(inputs):
    """device.CallDType: at::result_type of the tensor inputs, Python
    numbers left out (dimensioned tensors, then 0-d ones, combined by
    category as ATen's combine_categories)."""
    def promote(ds):
        r = None
        for d in ds:
            r = d if r is None else torch.promote_types(r, d)
        return r

    dim = promote([v.dtype for v in inputs if isinstance(v, torch.Tensor) and v.dim() > 0])
    zero = promote([v.dtype for v in inputs if isinstance(v, torch.Tensor) and v.dim() == 0])
    if dim is None or zero is None:
        return dim if dim is not None else zero
    if dim.is_floating_point:
        return dim
    if dim == torch.bool or zero.is_floating_point:
        return torch.promote_types(dim, zero)
    return dim


_DEVICE_ERRORS = (
    "out of memory", "cuda error", "cudnn_status", "cublas_status", "device-side assert",
    "acl", "npu error", "aicore", "hccl", "driver",
)


def classify(op, dtype, err):
    """Maps an exception of torch to probe's error kinds."""
    if isinstance(err, (ArgumentError, Unsupported)):
        return err
    msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    low = str(err).lower()
    if isinstance(err, NotImplementedError) or "not implemented for" in low or "no kernel" in low \
            or "could not run" in low:
        return Unsupported(op, "torch %s: %s" % (torch.__version__, msg), dtype)
    if isinstance(err, RuntimeError) and any(k in low for k in _DEVICE_ERRORS):
        return err
    if isinstance(err, (RuntimeError, ValueError, TypeError, IndexError)):
        return ArgumentError("torch rejects the call: %s" % msg)
    return err


class Device:
    def __init__(self, log):
        self.log = log
        self.lock = threading.Lock()
        self.cache = shm.Cache()
        self.device = torch.device("cpu")
        self.device_id = 0
        self.options = {}
        self.configured = False
        self.support = None  # {op: ([dtypes], backward)} after probing
        self.flags = {}
        # fault makes one API crash the process, hang or fail, to test how
        # the host copes with a bad device (as the cpu plugin's option).
        self.fault = None

    # ---- Describe ----
    def Describe(self, request, context):
        try:
            with self.lock:
                if self.configured and self.support is None:
                    self.support = opslib.probe_support(self.device, ALL_DTYPES)
                support = self.support
            resp = device_pb2.DeviceDescribeResponse(plugin=self._info())
            for op in sorted(opslib.OPS):
                if support is not None:
                    pairs = support.get(op, [])
                else:
                    # Before Configure the device is not chosen yet: claim
                    # what the op is written for; a run uses the answer
                    # given after Configure.
                    pairs = opslib.declared(op)
                # One entry for the dtypes with a backward, one for those
                # without (the host takes the first entry that holds a
                # call's dtype).
                for bwd in (True, False):
                    dts = [wire.PB_DTYPES[d] for d, b in pairs if b == bwd]
                    if dts:
                        resp.ops.add(op=op, dtypes=dts, backward=bwd)
            return resp
        except Exception as e:  # noqa: BLE001
            self.log("Describe failed: %s" % traceback.format_exc())
            return device_pb2.DeviceDescribeResponse(error=wire.error_pb(e))

    def _info(self):
        return plugin_pb2.PluginInfo(
            name="torch",
            plugin_version=PLUGIN_VERSION,
            sdk_version=SDK_VERSION,
            protocol_major=1,
            protocol_minor=PROTOCOL_MINOR,
            capabilities=[CAP_SHM],
            description=self.description(),
        )

    def description(self):
        dev = self.device
        if dev.type == "cuda":
            name = torch.cuda.get_device_name(dev)
        elif dev.type == "npu":
            try:
                name = torch.npu.get_device_name(dev)
            except Exception:  # noqa: BLE001
                name = "Ascend NPU"
        else:
            name = "%s, %d threads" % (platform.machine() or "cpu", torch.get_num_threads())
        extra = ""
        if dev.type == "npu":
            import torch_npu  # noqa: F401  (imported by Configure)

            extra = ", torch_npu %s" % getattr(torch_npu, "__version__", "?")
        flags = "".join(", %s=%s" % kv for kv in sorted(self.flags.items()))
        return "PyTorch %s%s on %s (%s)%s" % (torch.__version__, extra, dev, name, flags)

    # ---- Configure ----
    def Configure(self, request, context):
        try:
            with self.lock:
                self._configure(int(request.device_id), dict(request.options))
            return device_pb2.ConfigureResponse()
        except Exception as e:  # noqa: BLE001
            return device_pb2.ConfigureResponse(error=wire.error_pb(e))

    def _configure(self, device_id, options):
        known = {"device", "threads", "tf32", "bf16_reduced_precision_reduction",
                 "fp16_reduced_precision_reduction", "deterministic", "onednn", "fault"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError("unknown option(s) %s (known: %s)" % (", ".join(unknown), ", ".join(sorted(known))))
        spec = options.get("device", "cpu").strip() or "cpu"
        kind, _, index = spec.partition(":")
        if kind not in ("cpu", "cuda", "npu"):
            raise ValueError('option device = %r: must be "cpu", "cuda[:N]" or "npu[:N]"' % spec)
        if kind == "cpu":
            dev = torch.device("cpu")
        else:
            if index:
                try:
                    idx = int(index)
                except ValueError:
                    raise ValueError("option device = %r: %r is not a device index" % (spec, index))
            else:
                idx = device_id
            if kind == "npu":
                try:
                    import torch_npu  # noqa: F401
                except ImportError as e:
                    raise ValueError(
                        'option device = %r needs torch_npu, which this Python cannot import (%s): '
                        "install the torch_npu that matches torch %s" % (spec, e, torch.__version__))
                if not torch.npu.is_available():
                    raise ValueError("option device = %r: torch_npu sees no NPU" % spec)
                count = torch.npu.device_count()
                torch.npu.set_device(idx) if idx < count else None
            else:
                if not torch.cuda.is_available():
                    raise ValueError("option device = %r: torch %s sees no CUDA device" % (spec, torch.__version__))
                count = torch.cuda.device_count()
                if idx < count:
                    torch.cuda.set_device(idx)
            if idx >= count:
                raise ValueError("option device = %r: device %d does not exist (%d visible)" % (spec, idx, count))
            dev = torch.device("%s:%d" % (kind, idx))
        fault = None
        if options.get("fault"):
            kind, _, api = options["fault"].partition(":")
            if kind not in ("crash", "hang", "fail") or not api:
                raise ValueError("option fault = %r: want crash:<API>, hang:<API> or fail:<API>" % options["fault"])
            fault = (kind, api)
        flags = {}
        if "threads" in options:
            n = int(options["threads"])
            if n < 1:
                raise ValueError("option threads = %r: must be at least 1" % options["threads"])
            torch.set_num_threads(n)
        for key, setter in (
            ("tf32", _set_tf32),
            ("bf16_reduced_precision_reduction", _set_bf16_rpr),
            ("fp16_reduced_precision_reduction", _set_fp16_rpr),
            ("deterministic", _set_deterministic),
            ("onednn", _set_onednn),
        ):
            if key in options:
                v = _parse_bool(key, options[key])
                setter(v)
                flags[key] = str(v).lower()
        self.device, self.device_id, self.options, self.flags = dev, device_id, options, flags
        self.fault = fault
        self.configured = True
        self.support = None

    # ---- Execute ----
    def Execute(self, request, context):
        with self.lock:
            self.cache.retire(list(request.retired_segments))
            seg = None
            try:
                if request.HasField("segment"):
                    seg = self.cache.acquire(request.segment.id, request.segment.path)
            except Exception as e:  # noqa: BLE001
                return device_pb2.ExecuteResponse(error=wire.error_pb(RuntimeError("attach shared memory: %s" % e)))
            try:
                base, inputs = 0, []
                for i, v in enumerate(request.inputs):
                    inputs.append(wire.value_from_pb(v, seg, "input %d" % i))
                    if v.WhichOneof("kind") == "tensor" and v.tensor.WhichOneof("data") == "shm":
                        base = max(base, v.tensor.shm.offset + v.tensor.shm.length)
                grads = []
                for i, g in enumerate(request.grad_outputs):
                    grads.append(wire.tensor_from_pb(g.tensor, seg, "grad output %d" % i) if g.HasField("tensor") else None)
                    if g.HasField("tensor") and g.tensor.WhichOneof("data") == "shm":
                        base = max(base, g.tensor.shm.offset + g.tensor.shm.length)
                attrs = {k: wire.attr_from_pb(a) for k, a in request.attrs.items()}
                outs, igrads = self._run(request, inputs, attrs, grads)
                pk = shm.Packer(seg, base)
                resp = device_pb2.ExecuteResponse()
                resp.outputs.extend(wire.opt_tensors_to_pb(outs, pk))
                resp.input_grads.extend(wire.opt_tensors_to_pb(igrads, pk))
                pk.commit()
                return resp
            except Exception as e:  # noqa: BLE001
                if not isinstance(e, (ArgumentError, Unsupported)):
                    self.log("Execute %s (%s) failed: %s" % (request.op, request.api, traceback.format_exc()))
                return device_pb2.ExecuteResponse(error=wire.error_pb(e))
            finally:
                if seg is not None:
                    seg.release()

    def _trigger(self, api):
        if self.fault is None or self.fault[1] != api:
            return
        kind = self.fault[0]
        if kind == "crash":
            self.log("fault: crashing on %s" % api)
            os.kill(os.getpid(), signal.SIGKILL)
        if kind == "hang":
            threading.Event().wait()
        raise wire.DeviceFailure("%s: planted device failure" % api)

    def _run(self, request, inputs, attrs, grads):
        self._trigger(request.api)
        op = request.op
        if op not in SCHEMAS:
            raise ArgumentError("unknown op %r" % op)
        inputs, attrs = bind(op, attrs, inputs)
        dt = call_dtype(inputs)
        if op not in opslib.OPS:
            raise Unsupported(op, "the torch plugin has no implementation of it")
        rg = list(request.requires_grad) + [False] * (len(inputs) - len(request.requires_grad))
        call = opslib.Call(op, inputs, attrs, self.device, request.seed, request.precision.hf32, rg)
        try:
            return opslib.run(call, request.backward, grads)
        except Exception as e:  # noqa: BLE001
            raise classify(op, dt, e)


def _parse_bool(key, v):
    s = str(v).strip().lower()
    if s in ("1", "true", "yes", "on"):
        return True
    if s in ("0", "false", "no", "off"):
        return False
    raise ValueError("option %s = %r: must be true or false" % (key, v))


def _set_tf32(v):
    torch.backends.cuda.matmul.allow_tf32 = v
    torch.backends.cudnn.allow_tf32 = v


def _set_bf16_rpr(v):
    m = torch.backends.cuda.matmul
    if not hasattr(m, "allow_bf16_reduced_precision_reduction"):
        raise ValueError("option bf16_reduced_precision_reduction: torch %s does not have it" % torch.__version__)
    m.allow_bf16_reduced_precision_reduction = v


def _set_fp16_rpr(v):
    m = torch.backends.cuda.matmul
    if not hasattr(m, "allow_fp16_reduced_precision_reduction"):
        raise ValueError("option fp16_reduced_precision_reduction: torch %s does not have it" % torch.__version__)
    m.allow_fp16_reduced_precision_reduction = v


def _set_deterministic(v):
    torch.use_deterministic_algorithms(v)


def _set_onednn(v):
    # torch.backends.mkldnn: on a CPU with AVX-512 BF16 PyTorch sends
    # bfloat16 convolutions (and some float32 ones) to oneDNN, whose
    # accumulation differs from the native kernels probe's emulated device
    # reproduces; off, every CPU runs the native kernels.
    torch.backends.mkldnn.enabled = v
