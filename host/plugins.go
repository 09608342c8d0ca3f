package host

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/plugin"
	"github.com/probe-dev/probe/sdk/tensor"
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
func (ps *pluginSet) spec(ctx context.Context, kind, name string, p config.Plugin) (pluginhost.Spec, error) {
	s := pluginhost.Spec{Name: kind + "." + name, Kind: kind, StartTimeout: ps.cfg.Plugins.StartTimeout.Duration, LogLevel: hclog.LevelFromString(logLevel(ps.cfg))}
	if b, ok := pythonBuiltins[p.Builtin]; ok && kind == "device" {
		path, args, err := pythonSpec(ctx, name, p, b)
		if err != nil {
			return s, err
		}
		s.Path, s.Args = path, args
		return s, nil
	}
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
		fi, err := os.Stat(cmd)
		switch {
		case err != nil:
			return "", fmt.Errorf("command %s: %w", cmd, err)
		case fi.IsDir():
			return "", fmt.Errorf("command %s is a directory, not a plugin executable", cmd)
		case fi.Mode().Perm()&0o111 == 0:
			return "", fmt.Errorf("command %s is not executable (mode %v): chmod +x it", cmd, fi.Mode().Perm())
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

// preflight resolves the launch commands of a run's plugins without
// starting them, so that a missing executable or Python module is
// reported before any output is written.
func (ps *pluginSet) preflight(ctx context.Context, framework string, devices ...string) error {
	p, err := ps.cfg.FrameworkPlugin(framework)
	if err != nil {
		return err
	}
	if _, err := ps.spec(ctx, "framework", framework, p); err != nil {
		return err
	}
	for _, name := range devices {
		p, err := ps.cfg.DevicePlugin(name)
		if err != nil {
			return err
		}
		if _, err := ps.spec(ctx, "device", name, p); err != nil {
			return err
		}
	}
	return nil
}

func (ps *pluginSet) start(ctx context.Context, kind, name string, p config.Plugin) (*pluginhost.Plugin, error) {
	s, err := ps.spec(ctx, kind, name, p)
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
// itself and prints the answers; with --ops, the support matrix: for every
// canonical op, which framework plugins plan it and at which dtypes (with
// or without backward) each device plugin runs it.
func pluginsCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plugins", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "probe.toml (default: ./probe.toml when it exists, else built-in defaults)")
	opsTable := fs.Bool("ops", false, "print the support matrix: canonical op × plugin (dtypes, backward)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: probe plugins [--config probe.toml] [--ops]: %v", errUsage, err)
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: probe plugins [--config probe.toml] [--ops]: unexpected argument %q", errUsage, fs.Arg(0))
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	ps := newPluginSet(cfg, stderr)
	defer ps.closeAll()
	var frameworks []namedFramework
	var devices []namedDevice
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if !*opsTable {
		fmt.Fprintln(tw, "KIND\tNAME\tPLUGIN\tVERSION\tSDK\tPROTOCOL\tOPS\tDTYPES\tSOURCE\tDESCRIPTION")
	}
	failed := 0
	for _, kind := range []string{"framework", "device"} {
		table := cfg.Plugins.Framework
		if kind == "device" {
			table = cfg.Plugins.Device
		}
		for _, name := range slices.Sorted(maps.Keys(table)) {
			p := table[name]
			src := "builtin " + p.Builtin
			if p.Command != "" {
				src = p.Command
			}
			fail := func(format string, a ...any) {
				failed++
				msg := fmt.Sprintf(format, a...)
				if *opsTable {
					fmt.Fprintf(stderr, "probe: plugin %s %s: %s\n", kind, name, msg)
					return
				}
				fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\t-\t%s\terror: %s\n", kind, name, src, msg)
			}
			pl, err := ps.start(ctx, kind, name, p)
			if err != nil {
				fail("%v", err)
				continue
			}
			if kind == "framework" {
				info, err := pl.Framework().Describe(ctx)
				if err != nil {
					fail("%v", err)
					continue
				}
				frameworks = append(frameworks, namedFramework{name, info})
				if !*opsTable {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d ops, %d APIs\t-\t%s\t%s\n", kind, name, info.Name, info.Version, info.SDKVersion, info.ProtocolVersion, len(info.Ops), len(info.APIs), src, info.Description)
				}
				continue
			}
			if err := pl.Device().Configure(ctx, device.Config{DeviceID: cfg.Run.DeviceIDs[0], Options: p.Options}); err != nil {
				fail("configure: %v", err)
				continue
			}
			info, err := pl.Device().Describe(ctx)
			if err != nil {
				fail("%v", err)
				continue
			}
			devices = append(devices, namedDevice{name, info})
			if !*opsTable {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", kind, name, info.Name, info.Version, info.SDKVersion, info.ProtocolVersion, opCount(info), dtypeSummary(info), src, info.Description)
			}
		}
	}
	if *opsTable {
		writeSupportMatrix(tw, frameworks, devices)
	}
	tw.Flush()
	if failed > 0 {
		return fmt.Errorf("%d plugin(s) could not be described", failed)
	}
	return nil
}

type namedFramework struct {
	name string
	info *framework.Info
}

type namedDevice struct {
	name string
	info *device.Info
}

// writeSupportMatrix prints one row per canonical op (and per op a plugin
// declares that sdk/ops does not know): a column per framework plugin
// ("plans" when its plans use the op) and per device plugin (the dtypes it
// declares, "+bwd" when it runs the backward too, "-" when it lacks the
// op).
func writeSupportMatrix(tw io.Writer, frameworks []namedFramework, devices []namedDevice) {
	opSet := map[string]bool{}
	for _, n := range ops.Names() {
		opSet[n] = true
	}
	for _, d := range devices {
		for _, s := range d.info.Ops {
			opSet[s.Op] = true
		}
	}
	header := []string{"OP"}
	for _, f := range frameworks {
		header = append(header, f.name)
	}
	for _, d := range devices {
		header = append(header, d.name)
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, op := range slices.Sorted(maps.Keys(opSet)) {
		row := []string{op}
		if _, known := ops.Lookup(op); !known {
			row[0] += " (not a canonical op)"
		}
		for _, f := range frameworks {
			cell := "-"
			if slices.Contains(f.info.Ops, op) {
				cell = "plans"
			}
			row = append(row, cell)
		}
		for _, d := range devices {
			// A device may declare an op in several entries (the dtypes
			// with a backward, those without).
			var parts []string
			for _, s := range d.info.Ops {
				if s.Op != op {
					continue
				}
				var dts []string
				for _, dt := range s.DTypes {
					dts = append(dts, shortDType[dt])
				}
				part := strings.Join(dts, ",")
				if part == "" {
					part = "(no dtype)"
				}
				if s.Backward {
					part += " +bwd"
				}
				parts = append(parts, part)
			}
			cell := "-"
			if len(parts) > 0 {
				cell = strings.Join(parts, "; ")
			}
			row = append(row, cell)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	fmt.Fprintln(tw, "\ndtypes: f64 float64, f32 float32, f16 float16, bf16 bfloat16, i8..i64 int8..int64, u8 uint8, b bool; +bwd: the backward too")
}

// shortDType spells dtypes in the support matrix.
var shortDType = map[tensor.DType]string{tensor.Float64: "f64", tensor.Float32: "f32", tensor.Float16: "f16", tensor.BFloat16: "bf16",
	tensor.Int8: "i8", tensor.Int16: "i16", tensor.Int32: "i32", tensor.Int64: "i64", tensor.Uint8: "u8", tensor.Bool: "b"}

// opCount is the number of distinct ops a device declares.
func opCount(info *device.Info) int {
	seen := map[string]bool{}
	for _, s := range info.Ops {
		seen[s.Op] = true
	}
	return len(seen)
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
