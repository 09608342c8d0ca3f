"""Entry point of the torch device plugin."""

import os
import sys

# Exit codes the host recognises in the plugin's stderr line.
EXIT_NO_HOST = 1
EXIT_MISSING = 3


def _missing(name, err):
    hints = {
        "torch": "python3-torch (Debian) or `pip install torch`",
        "grpc": "python3-grpcio (Debian) or `pip install grpcio`",
        "google.protobuf": "python3-protobuf (Debian) or `pip install protobuf`",
    }
    sys.stderr.write(
        "probe torch plugin: %s cannot import %s (%s): install %s\n"
        % (sys.executable, name, str(err).splitlines()[0] if str(err) else type(err).__name__, hints[name])
    )
    sys.stderr.flush()
    os._exit(EXIT_MISSING)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "pb"))
    from . import goplugin

    try:
        goplugin.check_cookie()
    except goplugin.NoHost as e:
        sys.stderr.write("probe torch plugin: %s\n" % e)
        return EXIT_NO_HOST
    handshake = goplugin.protect_stdout()
    for name in ("grpc", "google.protobuf", "torch"):
        try:
            __import__(name)
        except Exception as e:  # noqa: BLE001  (a broken install raises more than ImportError)
            _missing(name, e)
    import grpc

    from . import device
    from probe.v1 import device_pb2

    def log(msg):
        sys.stderr.write("probe torch plugin: %s\n" % msg)
        sys.stderr.flush()

    dev = device.Device(log)

    def register(server):
        handlers = {}
        for name, req in (
            ("Describe", device_pb2.DeviceDescribeRequest),
            ("Configure", device_pb2.ConfigureRequest),
            ("Execute", device_pb2.ExecuteRequest),
        ):
            handlers[name] = grpc.unary_unary_rpc_method_handler(
                getattr(dev, name),
                request_deserializer=req.FromString,
                response_serializer=lambda m: m.SerializeToString(),
            )
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("probe.v1.Device", handlers),))

    server = goplugin.Server(grpc, register)
    server.serve(handshake)
    return 0
