package pluginrpc

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

// maxServerMessage is the plugin side's gRPC message limit in both
// directions: a safety net, since probe itself never sends more than
// transport.MaxMessageSize.
const maxServerMessage = 64 << 20

// watchdogInterval is how often a served plugin checks that its host is
// still alive.
const watchdogInterval = 500 * time.Millisecond

// ErrNoHost is returned by ServeDevice and ServeFramework when the
// process was not started by a probe host (run by hand).
var ErrNoHost = errors.New("this is a probe plugin: probe starts it (probe.toml, or probe conformance PATH); it is not meant to be run by hand")

// ServeDevice serves d as a device plugin and returns when the host shuts
// the plugin down. retain gives d private copies of its inputs instead of
// views of shared memory.
func ServeDevice(d device.Device, retain bool) error {
	if d == nil {
		return errors.New("plugin: ServeDevice: nil device")
	}
	return serve(goplugin.PluginSet{KindDevice: &DevicePlugin{Impl: d, RetainInputs: retain}})
}

// ServeFramework serves f as a framework plugin and returns when the host
// shuts the plugin down.
func ServeFramework(f framework.Framework) error {
	if f == nil {
		return errors.New("plugin: ServeFramework: nil framework")
	}
	return serve(goplugin.PluginSet{KindFramework: &FrameworkPlugin{Impl: f}})
}

// beforeHandshake runs just before go-plugin prints the handshake; tests
// use it to write to file descriptor 1 at the worst moment.
var beforeHandshake func()

func serve(set goplugin.PluginSet) error {
	if os.Getenv(MagicCookieKey) != MagicCookieValue {
		return ErrNoHost
	}
	log := Logger()
	// Launched by a host: guard the handshake pipe and follow the host.
	if err := protectStdout(); err != nil {
		log.Warn("could not protect the handshake from writes to stdout", "error", err)
	}
	watchParent(log, os.Getppid())
	if beforeHandshake != nil {
		beforeHandshake()
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: map[int]goplugin.PluginSet{ProtocolVersion: set},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(maxServerMessage), grpc.MaxSendMsgSize(maxServerMessage))
			return goplugin.DefaultGRPCServer(opts)
		},
		Logger: log,
	})
	return nil
}

// watchParent exits the process when the parent changes, which is what
// happens when the host dies, however it dies (SIGKILL, OOM kill, crash):
// the plugin is re-parented to init or a subreaper. Hosts started by probe
// also get PR_SET_PDEATHSIG; this poll is the backstop for other hosts.
func watchParent(log hclog.Logger, ppid int) {
	if ppid <= 1 {
		return // orphaned already, or started by init: nothing to follow
	}
	go func() {
		t := time.NewTicker(watchdogInterval)
		defer t.Stop()
		for range t.C {
			if now := os.Getppid(); now != ppid {
				log.Error("host process is gone; plugin exiting", "host_pid", ppid, "new_parent", now)
				os.Exit(3)
			}
		}
	}()
}

var (
	stdioOnce sync.Once
	realErr   io.Writer
)

// stderr is the process's stderr as it was first seen, before go-plugin
// swaps os.Stderr for a pipe.
func stderr() io.Writer {
	stdioOnce.Do(func() { realErr = os.Stderr })
	return realErr
}

// Logger is the plugin-side logger: JSON lines on stderr that the host
// re-logs under the plugin's name, at the level the host asked for
// (EnvLogLevel; info by default). Plugin implementations may use it.
func Logger() hclog.Logger {
	loggerOnce.Do(func() {
		level := hclog.LevelFromString(os.Getenv(EnvLogLevel))
		if level == hclog.NoLevel {
			level = hclog.Info
		}
		logger = hclog.New(&hclog.LoggerOptions{
			Level:      level,
			Output:     stderr(),
			JSONFormat: true,
		})
	})
	return logger
}

var (
	loggerOnce sync.Once
	logger     hclog.Logger
)
