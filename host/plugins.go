package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/hashicorp/go-hclog"

	"github.com/probe-dev/probe/host/internal/config"
	"github.com/probe-dev/probe/host/internal/pluginhost"
	"github.com/probe-dev/probe/host/internal/run"
	"github.com/probe-dev/probe/plugins/cpu"
	"github.com/probe-dev/probe/plugins/mindspore"
	"github.com/probe-dev/probe/plugins/pytorch"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/plugin"
)

const protocolVersion = plugin.ProtocolVersion

// Built-in plugins, served by this binary in plugin mode
// ("probe plugin serve device cpu").
var (
	builtinDevices = map[string]func() device.Device{
		"cpu": cpu.NewConfigurable,
	}
	builtinFrameworks = map[string]func() framework.Framework{
		"pytorch":   pytorch.New,
		"mindspore": mindspore.New,
	}
)

// servePlugin is the plugin mode: "plugin serve <device|framework> <name>".
func servePlugin(args []string) error {
	if len(args) != 3 || args[0] != "serve" {
		return fmt.Errorf("%w: probe plugin serve <device|framework> <name> (started by probe itself)", errUsage)
	}
	switch args[1] {
	case "device":
		mk, ok := builtinDevices[args[2]]
		if !ok {
			return fmt.Errorf("%w: no built-in device plugin %q", errUsage, args[2])
		}
		return plugin.ServeDevice(mk())
	case "framework":
		mk, ok := builtinFrameworks[args[2]]
		if !ok {
			return fmt.Errorf("%w: no built-in framework plugin %q", errUsage, args[2])
		}
		return plugin.ServeFramework(mk())
	}
	return fmt.Errorf("%w: plugin kind %q: must be device or framework", errUsage, args[1])
}

// pluginSet starts the plugins of a run and closes them all at the end.
type pluginSet struct {
	cfg     *config.Config
	stderr  io.Writer
	mu      sync.Mutex
	started []*pluginhost.Plugin
}

func newPluginSet(cfg *config.Config, stderr io.Writer) *pluginSet {
	return &pluginSet{cfg: cfg, stderr: stderr}
}

func (ps *pluginSet) closeAll() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, p := range ps.started {
		p.Close()
	}
	ps.started = nil
}

// spec turns a probe.toml plugin table into a launch spec.
func (ps *pluginSet) spec(kind, name string, p config.Plugin) (pluginhost.Spec, error) {
	s := pluginhost.Spec{Name: kind + "." + name, Kind: kind, StartTimeout: ps.cfg.Plugins.StartTimeout.Duration, LogLevel: hclog.LevelFromString(logLevel(ps.cfg))}
	if p.Builtin != "" {
		exe, err := os.Executable()
		if err != nil {
			return s, fmt.Errorf("plugin %s: cannot find the probe binary to serve built-in %q: %w", s.Name, p.Builtin, err)
		}
		s.Path, s.Args = exe, []string{"plugin", "serve", kind, p.Builtin}
		return s, nil
	}
	path, err := ps.resolve(p.Command)
	if err != nil {
		return s, fmt.Errorf("plugin %s: %w", s.Name, err)
	}
	s.Path, s.Args = path, p.Args
	for k, v := range p.Env {
		s.Env = append(s.Env, k+"="+v)
	}
	sort.Strings(s.Env)
	return s, nil
}

// resolve finds a plugin command: a path as given, else a bare name in
// plugins.dirs, then PATH.
func (ps *pluginSet) resolve(cmd string) (string, error) {
	if strings.ContainsRune(cmd, filepath.Separator) {
		if !fileExists(cmd) {
			return "", fmt.Errorf("command %s does not exist", cmd)
		}
		return filepath.Abs(cmd)
	}
	for _, d := range ps.cfg.Plugins.Dirs {
		if p := filepath.Join(d, cmd); fileExists(p) {
			return filepath.Abs(p)
		}
	}
	p, err := exec.LookPath(cmd)
	if err != nil {
		return "", fmt.Errorf("command %q not found in plugins.dirs %v or PATH", cmd, ps.cfg.Plugins.Dirs)
	}
	return p, nil
}

func logLevel(cfg *config.Config) string {
	if v := os.Getenv("PROBE_LOG"); v != "" {
		return v
	}
	return cfg.Plugins.LogLevel
}

func (ps *pluginSet) start(ctx context.Context, kind, name string, p config.Plugin) (*pluginhost.Plugin, error) {
	s, err := ps.spec(kind, name, p)
	if err != nil {
		return nil, err
	}
	pl, err := pluginhost.Start(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("start plugin %s: %w", s.Name, err)
	}
	ps.mu.Lock()
	ps.started = append(ps.started, pl)
	ps.mu.Unlock()
	return pl, nil
}

func (ps *pluginSet) framework(ctx context.Context, name string) (framework.Framework, error) {
	p, err := ps.cfg.FrameworkPlugin(name)
	if err != nil {
		return nil, err
	}
	pl, err := ps.start(ctx, "framework", name, p)
	if err != nil {
		return nil, err
	}
	return pl.Framework(), nil
}

// deviceOpener starts the device plugin name once per worker, configured
// with its probe.toml options (overridden by extra) and the worker's
// device id.
func (ps *pluginSet) deviceOpener(name string, extra map[string]string) run.Opener {
	return func(ctx context.Context, worker int) (run.Handle, error) {
		p, err := ps.cfg.DevicePlugin(name)
		if err != nil {
			return nil, err
		}
		pl, err := ps.start(ctx, "device", name, p)
		if err != nil {
			return nil, err
		}
		opts := map[string]string{}
		for k, v := range p.Options {
			opts[k] = v
		}
		for k, v := range extra {
			opts[k] = v
		}
		ids := ps.cfg.Run.DeviceIDs
		// The plugin replays this Configure by itself after a restart.
		if err := pl.Device().Configure(ctx, device.Config{DeviceID: ids[worker%len(ids)], Options: opts}); err != nil {
			return nil, fmt.Errorf("configure device plugin %s: %w", name, err)
		}
		return pl, nil
	}
}

func isPluginCrash(err error) bool { return pluginhost.IsCrash(err) }

// pluginsCommand starts every plugin of probe.toml, asks it to describe
// itself and prints the answers.
func pluginsCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfgPath := ""
	if len(args) == 2 && (args[0] == "--config" || args[0] == "-config") {
		cfgPath = args[1]
	} else if len(args) != 0 {
		return fmt.Errorf("%w: probe plugins [--config probe.toml]", errUsage)
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return err
	}
	ps := newPluginSet(cfg, stderr)
	defer ps.closeAll()
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tNAME\tPLUGIN\tVERSION\tSDK\tPROTOCOL\tOPS\tDTYPES\tSOURCE")
	failed := 0
	for _, kind := range []string{"framework", "device"} {
		table := cfg.Plugins.Framework
		if kind == "device" {
			table = cfg.Plugins.Device
		}
		names := make([]string, 0, len(table))
		for n := range table {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			p := table[name]
			src := "builtin " + p.Builtin
			if p.Command != "" {
				src = p.Command
			}
			pl, err := ps.start(ctx, kind, name, p)
			if err != nil {
				fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\t-\t%s (error: %v)\n", kind, name, src, err)
				failed++
				continue
			}
			if kind == "framework" {
				info, err := pl.Framework().Describe(ctx)
				if err != nil {
					fmt.Fprintf(tw, "%s\t%s\terror: %v\n", kind, name, err)
					failed++
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d ops, %d APIs\t-\t%s\n", kind, name, info.Name, info.Version, info.SDKVersion, info.ProtocolVersion, len(info.Ops), len(info.APIs), src)
				continue
			}
			if err := pl.Device().Configure(ctx, device.Config{DeviceID: cfg.Run.DeviceIDs[0], Options: p.Options}); err != nil {
				fmt.Fprintf(tw, "%s\t%s\terror: configure: %v\n", kind, name, err)
				failed++
				continue
			}
			info, err := pl.Device().Describe(ctx)
			if err != nil {
				fmt.Fprintf(tw, "%s\t%s\terror: %v\n", kind, name, err)
				failed++
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", kind, name, info.Name, info.Version, info.SDKVersion, info.ProtocolVersion, len(info.Ops), dtypeSummary(info), src)
		}
	}
	tw.Flush()
	if failed > 0 {
		return fmt.Errorf("%d plugin(s) could not be described", failed)
	}
	return nil
}

// dtypeSummary lists the dtypes supported by at least one op.
func dtypeSummary(info *device.Info) string {
	seen := map[string]bool{}
	var out []string
	for _, op := range info.Ops {
		for _, d := range op.DTypes {
			if !seen[d.String()] {
				seen[d.String()] = true
				out = append(out, d.String())
			}
		}
	}
	return strings.Join(out, ",")
}
