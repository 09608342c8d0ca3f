package plugin

import (
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

// ServeDevice serves d as a device plugin and returns when the host shuts
// the plugin down. Call it from main; run device initialisation (driver
// loading) in Configure, not before, so that the handshake stays fast.
// Input tensors passed to d.Execute may be views of shared memory, valid
// only during the call (see InputRetainer). Run by hand, without a host,
// it prints a notice and exits with status 1.
func ServeDevice(d device.Device) {
	if d == nil {
		Logger().Error("ServeDevice: nil device")
		os.Exit(1)
	}
	serve(goplugin.PluginSet{KindDevice: &DevicePlugin{Impl: d}})
}

// ServeFramework serves f as a framework plugin and returns when the host
// shuts the plugin down.
func ServeFramework(f framework.Framework) {
	if f == nil {
		Logger().Error("ServeFramework: nil framework")
		os.Exit(1)
	}
	serve(goplugin.PluginSet{KindFramework: &FrameworkPlugin{Impl: f}})
}

// beforeHandshake runs just before go-plugin prints the handshake; tests
// use it to write to file descriptor 1 at the worst moment.
var beforeHandshake func()

func serve(set goplugin.PluginSet) {
	log := Logger()
	if os.Getenv(MagicCookieKey) == MagicCookieValue {
		// Launched by a host: guard the handshake pipe and follow the host.
		if err := protectStdout(); err != nil {
			log.Warn("could not protect the handshake from writes to stdout", "error", err)
		}
		watchParent(log, os.Getppid())
	}
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
