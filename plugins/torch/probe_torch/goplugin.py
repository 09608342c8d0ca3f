"""go-plugin's protocol for plugins not written in Go.

probe's host is a hashicorp/go-plugin client. A plugin in another language
must do what go-plugin's own Serve does (docs/guide-plugin-write-non-go.md of
go-plugin):

* refuse to run unless the host's magic cookie is in the environment;
* listen on a Unix socket (in PLUGIN_UNIX_SOCKET_DIR when the host gives
  one) and print one handshake line on stdout:
  ``CORE|APP|unix|/path/to/socket|grpc`` (core protocol 1, app protocol the
  probe protocol major);
* serve grpc.health.v1.Health answering SERVING for the service "plugin";
* serve plugin.GRPCController/Shutdown, after which it exits;
* serve plugin.GRPCStdio/StreamStdio and plugin.GRPCBroker/StartStream,
  which go-plugin's client opens on every connection (this plugin streams
  nothing over them; its stderr reaches the host directly);
* exit when the host dies.

The three go-plugin services and the health service carry messages of at
most one field, so they are encoded here by hand instead of with generated
code: HealthCheckResponse{status = SERVING} is the two bytes 08 01, and
google.protobuf.Empty is zero bytes.
"""

import os
import signal
import sys
import tempfile
import threading
import time

CORE_PROTOCOL = 1
PROTOCOL_MAJOR = 1
MAGIC_COOKIE_KEY = "PROBE_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "9f1c4e7ab3d2586e0c7f4a1b93e6d5c28a7b1f4e6d3c9a05b8e2f7d4c1a6b390"

# Every message of the protocol is at most 4 MiB (internal/transport); a
# little more is accepted so that the limit is the host's, not ours.
MAX_MESSAGE = 8 << 20

_HEALTH_SERVING = b"\x08\x01"
_HEALTH_SERVICE_UNKNOWN = b"\x08\x03"


class NoHost(Exception):
    """The plugin was started by hand, not by probe."""


def protect_stdout():
    """Points fd 1 at stderr and returns a file for the real stdout.

    go-plugin reads the handshake from the plugin's stdout, and anything
    printed there before it (a library banner) breaks the start. Everything
    the process writes to fd 1 from now on goes to stderr instead; the
    handshake is written to the returned file.
    """
    real = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(real, "w")


def check_cookie():
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        raise NoHost(
            "this is a probe plugin: probe starts it (configure it in probe.toml); "
            "it is not meant to be run by hand"
        )
    versions = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", str(PROTOCOL_MAJOR))
    wanted = [v.strip() for v in versions.split(",") if v.strip()]
    if str(PROTOCOL_MAJOR) not in wanted:
        # go-plugin's Serve answers with its own version anyway, so that the
        # host can print a clear "incompatible API version" message.
        sys.stderr.write(
            "probe plugin: host speaks protocol(s) %s, this plugin speaks %d\n"
            % (versions, PROTOCOL_MAJOR)
        )


def _socket_path():
    base = os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or None
    fd, path = tempfile.mkstemp(prefix="plugin", dir=base)
    os.close(fd)
    os.unlink(path)
    return path


def _generic(grpc, service, handlers):
    return grpc.method_handlers_generic_handler(service, handlers)


def _raw(grpc, fn, stream_response=False, stream_request=False):
    ident = lambda b: b  # noqa: E731  (raw bytes in, raw bytes out)
    if stream_request and stream_response:
        return grpc.stream_stream_rpc_method_handler(fn, request_deserializer=ident, response_serializer=ident)
    if stream_response:
        return grpc.unary_stream_rpc_method_handler(fn, request_deserializer=ident, response_serializer=ident)
    return grpc.unary_unary_rpc_method_handler(fn, request_deserializer=ident, response_serializer=ident)


class Server:
    """A gRPC server speaking go-plugin's protocol around probe services."""

    def __init__(self, grpc, register):
        """register(server) adds the plugin's own services."""
        from concurrent import futures

        self._grpc = grpc
        self._done = threading.Event()
        self._server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=8),
            options=[
                ("grpc.max_receive_message_length", MAX_MESSAGE),
                ("grpc.max_send_message_length", MAX_MESSAGE),
            ],
        )
        register(self._server)
        self._server.add_generic_rpc_handlers(
            (
                _generic(grpc, "grpc.health.v1.Health", {"Check": _raw(grpc, self._health)}),
                _generic(grpc, "plugin.GRPCController", {"Shutdown": _raw(grpc, self._shutdown)}),
                _generic(grpc, "plugin.GRPCStdio", {"StreamStdio": _raw(grpc, self._stdio, stream_response=True)}),
                _generic(
                    grpc,
                    "plugin.GRPCBroker",
                    {"StartStream": _raw(grpc, self._broker, stream_response=True, stream_request=True)},
                ),
            )
        )

    # grpc.health.v1.Health/Check: the request is HealthCheckRequest{string
    # service = 1}; go-plugin asks for "plugin" (and "" means the server).
    def _health(self, request, context):
        service = _decode_string_field1(request)
        if service in ("", "plugin"):
            return _HEALTH_SERVING
        return _HEALTH_SERVICE_UNKNOWN

    def _shutdown(self, request, context):
        # Answer first, then stop: go-plugin waits 2 s for the process to
        # exit before it kills it.
        threading.Thread(target=self.stop, daemon=True).start()
        return b""

    def _stdio(self, request, context):
        # Nothing is streamed: the plugin's stderr reaches the host through
        # the process's real stderr. The stream stays open until shutdown.
        while not self._done.wait(1.0):
            if not context.is_active():
                return
        return
        yield  # pragma: no cover  (makes this a generator)

    def _broker(self, request_iterator, context):
        for _ in request_iterator:  # no brokered connections are offered
            pass
        return
        yield  # pragma: no cover

    def stop(self):
        self._done.set()
        self._server.stop(grace=0.5)

    def serve(self, handshake_out):
        path = _socket_path()
        if self._server.add_insecure_port("unix:" + path) == 0:
            raise OSError("cannot listen on unix socket " + path)
        self._server.start()
        handshake_out.write("%d|%d|unix|%s|grpc\n" % (CORE_PROTOCOL, PROTOCOL_MAJOR, path))
        handshake_out.flush()
        # SIGINT reaches the whole process group on Ctrl-C; the host handles
        # it and shuts its plugins down, as go-plugin's Serve does.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _watch_parent(self.stop)
        try:
            self._done.wait()
            self._server.wait_for_termination(timeout=2)
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass


def _decode_string_field1(buf):
    """Field 1 (string) of a protobuf message, "" when absent."""
    i, n = 0, len(buf)
    while i < n:
        key, i = _varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 2:
            ln, i = _varint(buf, i)
            if field == 1:
                return bytes(buf[i : i + ln]).decode("utf-8", "replace")
            i += ln
        elif wire == 0:
            _, i = _varint(buf, i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        else:
            break
    return ""


def _varint(buf, i):
    shift = result = 0
    while i < len(buf):
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7
    return result, i


def _watch_parent(stop):
    """Exits when the host dies.

    probe starts its plugins with a parent-death signal (SIGKILL), which
    covers a python started directly; this thread covers one started through
    a wrapper (a conda or venv shim), whose parent is then the wrapper's.
    """
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                stop()
                time.sleep(1)
                os._exit(0)

    threading.Thread(target=watch, name="probe-parent-watch", daemon=True).start()
