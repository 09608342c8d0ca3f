// Package config loads probe.toml: which plugin serves each role (framework,
// device under test, bench), how runs are scheduled, and the timeouts. Every
// key has a default, so an empty or absent file is a valid configuration;
// command-line flags override the file.
package config

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Default is the documented default configuration (the repository's
// probe.toml is a copy of it).
//
//go:embed default.toml
var Default []byte

// Duration is a time.Duration read from a TOML string such as "90s".
type Duration struct{ time.Duration }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// Plugin is one [plugins.device.NAME] or [plugins.framework.NAME] table.
type Plugin struct {
	// Builtin names a plugin shipped inside probe ("cpu", "pytorch",
	// "mindspore" are served by the probe binary re-executed in plugin
	// mode; "torch" is a Python plugin run by Python), as a separate
	// process.
	Builtin string `toml:"builtin"`
	// Python is the interpreter of the built-in Python plugin (torch);
	// empty means python3 on PATH, then /usr/bin/python3, whichever has
	// the modules the plugin needs.
	Python string `toml:"python"`
	// Command is the path of an external plugin binary (a bare name is
	// looked up in plugins.dirs, then PATH).
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	// Options are passed verbatim to the plugin's Configure call.
	Options map[string]string `toml:"options"`
}

// Config is the whole of probe.toml.
type Config struct {
	Version int `toml:"version"`
	Run     struct {
		Framework  string `toml:"framework"`
		Device     string `toml:"device"`
		Bench      string `toml:"bench"`
		Workers    int    `toml:"workers"`
		MaxWorkers int    `toml:"max_workers"`
		// MemoryBudgetGiB bounds the memory of the APIs checked at once;
		// 0 = half the memory available when the run starts.
		MemoryBudgetGiB float64  `toml:"memory_budget_gib"`
		DeviceIDs       []int    `toml:"device_ids"`
		Seed            uint64   `toml:"seed"`
		APITimeout      Duration `toml:"api_timeout"`
		Precision       int      `toml:"precision"`
		WhiteList       []string `toml:"white_list"`
		BlackList       []string `toml:"black_list"`
	} `toml:"run"`
	Plugins struct {
		Dirs         []string          `toml:"dirs"`
		StartTimeout Duration          `toml:"start_timeout"`
		LogLevel     string            `toml:"log_level"`
		MaxRestarts  int               `toml:"max_restarts"`
		Device       map[string]Plugin `toml:"device"`
		Framework    map[string]Plugin `toml:"framework"`
	} `toml:"plugins"`
	// Path is the file the configuration was read from ("" for defaults).
	Path string `toml:"-"`
}

// Load reads the defaults, then path on top of them when path is not
// empty. Unknown keys are errors, naming the file and the key.
func Load(path string) (*Config, error) {
	c := &Config{}
	if _, err := toml.NewDecoder(bytes.NewReader(Default)).Decode(c); err != nil {
		return nil, fmt.Errorf("built-in default configuration: %w", err)
	}
	if path == "" {
		return c, c.Validate()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(c)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return nil, fmt.Errorf("config %s: unknown key(s): %s", path, strings.Join(keys, ", "))
	}
	c.Path = path
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// MaxWorkers bounds run.workers, as msprobe's multi_run_ut bounds -n:
// every worker starts its own device and bench plugin processes.
const MaxWorkers = 64

// WorkerLimit is the most workers a run starts: run.max_workers, or the
// number of cores (at most MaxWorkers) when it is 0.
func (c *Config) WorkerLimit() int {
	if c.Run.MaxWorkers > 0 {
		return c.Run.MaxWorkers
	}
	return min(runtime.NumCPU(), MaxWorkers)
}

// Validate checks the values and that every role names a defined plugin.
func (c *Config) Validate() error {
	if c.Version != 1 {
		return fmt.Errorf("version = %d: only version 1 is understood", c.Version)
	}
	if c.Run.Workers < 1 {
		return fmt.Errorf("run.workers = %d: must be at least 1", c.Run.Workers)
	}
	if c.Run.MemoryBudgetGiB < 0 || math.IsNaN(c.Run.MemoryBudgetGiB) || math.IsInf(c.Run.MemoryBudgetGiB, 0) {
		return fmt.Errorf("run.memory_budget_gib = %v: must be a size in GiB, or 0 for half the memory available", c.Run.MemoryBudgetGiB)
	}
	if c.Run.MaxWorkers < 0 || c.Run.MaxWorkers > MaxWorkers {
		return fmt.Errorf("run.max_workers = %d: must be from 1 to %d, or 0 for the number of cores (at most %d)", c.Run.MaxWorkers, MaxWorkers, MaxWorkers)
	}
	if len(c.Run.DeviceIDs) == 0 {
		return fmt.Errorf("run.device_ids: at least one device id is needed")
	}
	seen := map[int]bool{}
	for _, id := range c.Run.DeviceIDs {
		if id < 0 || seen[id] {
			return fmt.Errorf("run.device_ids: ids must be unique and >= 0, got %v", c.Run.DeviceIDs)
		}
		seen[id] = true
	}
	if c.Run.Precision < 0 || c.Run.Precision > 20 {
		return fmt.Errorf("run.precision = %d: must be in 0..20", c.Run.Precision)
	}
	if c.Run.APITimeout.Duration <= 0 {
		return fmt.Errorf("run.api_timeout must be positive")
	}
	if _, ok := c.Plugins.Device[DumpedDevice]; ok {
		return fmt.Errorf("plugins.device.%s: the name %q is reserved for the dumped outputs of a tensor-mode dump (--device %s)", DumpedDevice, DumpedDevice, DumpedDevice)
	}
	if c.Run.Bench == DumpedDevice {
		return fmt.Errorf("run.bench: %q is the device under test's dumped outputs, not a bench", DumpedDevice)
	}
	for _, role := range []struct{ key, name string }{{"run.device", c.Run.Device}, {"run.bench", c.Run.Bench}} {
		if role.name == DumpedDevice {
			continue
		}
		if _, err := c.DevicePlugin(role.name); err != nil {
			return fmt.Errorf("%s: %w", role.key, err)
		}
	}
	for kind, m := range map[string]map[string]Plugin{"device": c.Plugins.Device, "framework": c.Plugins.Framework} {
		for name, p := range m {
			if (p.Builtin == "") == (p.Command == "") {
				return fmt.Errorf("plugins.%s.%s: exactly one of builtin or command must be set", kind, name)
			}
			if p.Python != "" && !(kind == "device" && p.Builtin == "torch") {
				return fmt.Errorf("plugins.%s.%s: python is only read by the built-in device torch (builtin = \"torch\")", kind, name)
			}
		}
	}
	return nil
}

// DumpedDevice is the device name that takes the device side from the
// dump itself: the outputs and gradients a tensor-mode dump saved, judged
// against the bench without re-running anything on a device.
const DumpedDevice = "dumped"

// DevicePlugin returns the [plugins.device.NAME] table.
func (c *Config) DevicePlugin(name string) (Plugin, error) {
	p, ok := c.Plugins.Device[name]
	if !ok {
		return Plugin{}, fmt.Errorf("no device plugin %q is defined (known: %s)", name, keys(c.Plugins.Device))
	}
	return p, nil
}

// FrameworkPlugin returns the [plugins.framework.NAME] table.
func (c *Config) FrameworkPlugin(name string) (Plugin, error) {
	p, ok := c.Plugins.Framework[name]
	if !ok {
		return Plugin{}, fmt.Errorf("no framework plugin %q is defined (known: %s)", name, keys(c.Plugins.Framework))
	}
	return p, nil
}

func keys(m map[string]Plugin) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
