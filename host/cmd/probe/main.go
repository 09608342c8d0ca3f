// Command probe finds which deep-learning framework APIs compute imprecisely
// on an accelerator: see `probe help`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/probe-dev/probe/host"
	"github.com/probe-dev/probe/host/internal/killpoint"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	killpoint.Watch(ctx.Done()) // tests only: see the package
	stopProfile := startProfile(os.Getenv("PROBE_CPUPROFILE"), os.Args[1:])
	code := host.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of this process to dir when dir is
// set (PROBE_CPUPROFILE): the host and every built-in plugin it starts
// inherit the variable, so one run leaves one profile per process, named
// for its role: host-<pid>.pprof, plugin-device-cpu-<pid>.pprof, ... (see
// bench/README.md).
func startProfile(dir string, args []string) (stop func()) {
	if dir == "" {
		return func() {}
	}
	role := "host"
	if len(args) >= 4 && args[0] == "plugin" && args[1] == "serve" {
		role = "plugin-" + strings.Join(args[2:4], "-")
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", role, os.Getpid()))
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "probe: PROBE_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "probe: PROBE_CPUPROFILE: %v\n", err)
		}
	}
}
