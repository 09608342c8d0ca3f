package host

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/probe-dev/probe/host/internal/config"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/devicetest"
)

// conformanceCommand runs the conformance kit (sdk/devicetest) against one
// device plugin — a [plugins.device.NAME] of probe.toml, or a plugin binary
// given by path — and prints the op × dtype table. It fails unless every
// pair the plugin declares passes: what a third party runs before shipping
// a plugin.
func conformanceCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "probe conformance NAME|PATH [--config probe.toml] [--device-option k=v ...] [--device-id N] [--ops a,b] [--timeout 30m]"
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "probe.toml (default: ./probe.toml when it exists, else built-in defaults)")
	var opts listFlag
	fs.Var(&opts, "device-option", "key=value passed to the plugin's Configure (repeatable), e.g. defect=gelu:ulp=64")
	deviceID := fs.Int("device-id", -1, "device id passed to Configure (default: the first of run.device_ids)")
	only := fs.String("ops", "", "comma-separated canonical ops: check only these")
	timeout := fs.Duration("timeout", 30*time.Minute, "time limit of the whole check")
	// The plugin comes first (probe conformance cpu --device-option ...);
	// flags may also precede it.
	var target string
	rest := args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		target, rest = rest[0], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %s: %v", errUsage, use, err)
	}
	if target == "" && fs.NArg() > 0 {
		target = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return fmt.Errorf("%w: %s: %v", errUsage, use, err)
		}
	}
	if target == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: %s", errUsage, use)
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	extra, err := parseOptions(opts)
	if err != nil {
		return fmt.Errorf("%w: --device-option: %v", errUsage, err)
	}

	name, p, err := conformanceTarget(cfg, target)
	if err != nil {
		return err
	}
	options := map[string]string{}
	for k, v := range p.Options {
		options[k] = v
	}
	for k, v := range extra {
		options[k] = v
	}
	id := cfg.Run.DeviceIDs[0]
	if *deviceID >= 0 {
		id = *deviceID
	}

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	ps := newPluginSet(cfg, stderr)
	defer ps.closeAll()
	pl, err := ps.start(ctx, "device", name, p)
	if err != nil {
		return err
	}
	if err := pl.Device().Configure(ctx, device.Config{DeviceID: id, Options: options}); err != nil {
		return fmt.Errorf("configure device plugin %s: %w", name, err)
	}
	var dopts devicetest.Options
	if *only != "" {
		dopts.Ops = splitNames(*only)
	}
	start := time.Now()
	rep, err := devicetest.Check(ctx, pl.Device(), dopts)
	if err != nil {
		return fmt.Errorf("conformance of device plugin %s: %w", name, err)
	}
	fmt.Fprintf(stdout, "probe %s: conformance of device plugin %s (%s), device id %d, %.1fs\n\n", Version, name, rep.Device, id, time.Since(start).Seconds())
	if err := rep.WriteTable(stdout); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("conformance of device plugin %s: stopped after --timeout %v", name, *timeout)
	}
	if failed := rep.Failed(); len(failed) > 0 {
		var names []string
		for _, r := range failed {
			names = append(names, r.Op+"/"+r.DType.String())
		}
		return fmt.Errorf("device plugin %s fails %d of the op × dtype pairs it declares: %s", name, len(failed), strings.Join(names, ", "))
	}
	return nil
}

// conformanceTarget resolves NAME|PATH: a [plugins.device.*] name of the
// configuration, else an executable file.
func conformanceTarget(cfg *config.Config, target string) (string, config.Plugin, error) {
	if p, ok := cfg.Plugins.Device[target]; ok {
		return target, p, nil
	}
	if strings.ContainsRune(target, os.PathSeparator) || fileExists(target) {
		st, err := os.Stat(target)
		if err != nil {
			return "", config.Plugin{}, fmt.Errorf("device plugin %s: %w", target, err)
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return "", config.Plugin{}, fmt.Errorf("device plugin %s is not an executable file", target)
		}
		return target, config.Plugin{Command: target}, nil
	}
	var known []string
	for n := range cfg.Plugins.Device {
		known = append(known, n)
	}
	return "", config.Plugin{}, fmt.Errorf("%w: %q is neither a device plugin of the configuration (%s) nor a plugin binary path", errUsage, target, strings.Join(known, ", "))
}
