package host

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/probe-dev/probe/host/internal/config"
	"github.com/probe-dev/probe/host/internal/errordata"
	"github.com/probe-dev/probe/host/internal/killpoint"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/run"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/internal/dump"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

type runFlags struct {
	framework, apiInfo, out, config, device, bench, resume, deviceIDs string
	workers                                                           int
	workersSet                                                        bool
	seed                                                              uint64
	apiTimeout                                                        time.Duration
	deviceOpts, benchOpts                                             listFlag
	quiet, filterAPI, saveErrorData, jit, timings                     bool
	msprobeConfig, compat                                             string
	whiteList, blackList                                              *string
}

// msprobeArgs rewrites msprobe's multi-value "-d 0 1 2" into "-d 0,1,2",
// and "--device 0 1" (msprobe's device ids) likewise, so that the flag
// package can read them.
func msprobeArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-d" || a == "--device_id" || a == "-device_id" || ((a == "--device" || a == "-device") && i+1 < len(args) && isInt(args[i+1])) {
			var ids []string
			for i+1 < len(args) && isInt(args[i+1]) {
				ids = append(ids, args[i+1])
				i++
			}
			out = append(out, "--device-ids", strings.Join(ids, ","))
			continue
		}
		out = append(out, a)
	}
	return out
}

func isInt(s string) bool { _, err := strconv.Atoi(s); return err == nil }

func runCommand(ctx context.Context, framework string, args []string, multi bool, stdout, stderr io.Writer) error {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.framework, "framework", framework, "framework of the dump: pytorch or mindspore (default: run.framework of probe.toml)")
	for _, n := range []string{"api-info", "api_info", "api_info_file"} {
		fs.StringVar(&f.apiInfo, n, "", "dump.json to check (msprobe: -api_info)")
	}
	for _, n := range []string{"o", "out", "out_path"} {
		fs.StringVar(&f.out, n, "./", "output directory for the CSVs")
	}
	fs.StringVar(&f.config, "config", "", "probe.toml (default: ./probe.toml when it exists, else built-in defaults)")
	fs.StringVar(&f.device, "device", "", "device-under-test plugin, a [plugins.device.*] name (default: run.device)")
	fs.StringVar(&f.bench, "bench", "", "bench plugin, a [plugins.device.*] name (default: run.bench)")
	for _, n := range []string{"workers", "n", "num_splits"} {
		fs.IntVar(&f.workers, n, 0, "parallel workers (default: run.workers)")
	}
	fs.StringVar(&f.deviceIDs, "device-ids", "", "comma-separated device ids handed to workers round-robin (msprobe: -d 0 1)")
	for _, n := range []string{"resume", "csv_path", "result_csv_path"} {
		fs.StringVar(&f.resume, n, "", "continue an interrupted run: its accuracy_checking_result_<ts>.csv")
	}
	fs.Uint64Var(&f.seed, "seed", 0, "global seed of statistics-mode inputs (default: run.seed)")
	fs.DurationVar(&f.apiTimeout, "api-timeout", 0, "time limit of one API on one side (default: run.api_timeout)")
	fs.Var(&f.deviceOpts, "device-option", "key=value passed to the device plugin's Configure (repeatable), e.g. defect=gelu:ulp=64")
	fs.Var(&f.benchOpts, "bench-option", "key=value passed to the bench plugin's Configure (repeatable)")
	fs.BoolVar(&f.quiet, "quiet", false, "no per-API progress lines on stderr")
	fs.BoolVar(&f.timings, "timings", false, "print where the run's time went: parse, plan, inputs, bench, device, metrics, csv")
	fs.StringVar(&f.compat, "compat", "", "\"msprobe\": reproduce msprobe's output where probe fixes its defects (see docs/compat.md)")
	for _, n := range []string{"f", "filter_api"} {
		fs.BoolVar(&f.filterAPI, n, false, "check only the first of identical calls of an API (msprobe's -f; see docs/compat.md)")
	}
	var white, black string
	fs.StringVar(&white, "white-list", "", "comma-separated short API names: check only these (default: run.white_list)")
	fs.StringVar(&black, "black-list", "", "comma-separated short API names not to check (default: run.black_list)")
	for _, n := range []string{"save-error-data", "save_error_data"} {
		fs.BoolVar(&f.saveErrorData, n, false, "save inputs, outputs and gradients of APIs that do not pass as .npy files under OUT/ut_error_data<ts>/ (MindSpore: OUT/error_data/)")
	}
	for _, n := range []string{"j", "jit_compile"} {
		fs.BoolVar(&f.jit, n, false, "msprobe NPU jit compile mode (no effect)")
	}
	fs.StringVar(&f.msprobeConfig, "config_path", "", "msprobe config.json (not supported; use probe.toml)")
	if err := fs.Parse(msprobeArgs(args)); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "white-list":
			f.whiteList = &white
		case "black-list":
			f.blackList = &black
		case "workers", "n", "num_splits":
			f.workersSet = true
		}
	})
	if f.workersSet && f.workers < 1 {
		return fmt.Errorf("%w: --workers %d: must be at least 1", errUsage, f.workers)
	}
	if f.apiInfo == "" {
		return fmt.Errorf("%w: --api-info dump.json is required (Please provide api_info_file for offline run ut.)", errUsage)
	}
	if f.compat != "" && f.compat != "msprobe" {
		return fmt.Errorf("%w: --compat %q: the only compatibility mode is msprobe", errUsage, f.compat)
	}
	if f.msprobeConfig != "" {
		return fmt.Errorf("%w: -config_path %s: msprobe config.json is not supported; put settings in probe.toml", errUsage, f.msprobeConfig)
	}
	for _, w := range []struct {
		on   bool
		text string
	}{{f.jit, "-j/--jit_compile has no effect in probe"}} {
		if w.on {
			fmt.Fprintln(stderr, "probe: warning:", w.text)
		}
	}

	cfg, err := loadConfig(f.config)
	if err != nil {
		return err
	}
	if f.framework != "" {
		cfg.Run.Framework = f.framework
	}
	if cfg.Run.Framework != "pytorch" && cfg.Run.Framework != "mindspore" {
		return fmt.Errorf("%w: --framework %q: must be pytorch or mindspore", errUsage, cfg.Run.Framework)
	}
	if f.device != "" {
		cfg.Run.Device = f.device
	}
	if f.bench != "" {
		cfg.Run.Bench = f.bench
	}
	if f.workers > 0 {
		cfg.Run.Workers = f.workers
	}
	multiDefault := multi && !f.workersSet
	if multiDefault {
		cfg.Run.Workers = 8 // msprobe multi_run_ut's default -n
	}
	if f.deviceIDs != "" {
		ids, err := parseIDs(f.deviceIDs)
		if err != nil {
			return fmt.Errorf("%w: --device-ids: %v", errUsage, err)
		}
		cfg.Run.DeviceIDs = ids
	}
	if f.seed != 0 {
		cfg.Run.Seed = f.seed
	}
	if f.apiTimeout > 0 {
		cfg.Run.APITimeout.Duration = f.apiTimeout
	}
	if f.whiteList != nil {
		cfg.Run.WhiteList = splitNames(*f.whiteList)
	}
	if f.blackList != nil {
		cfg.Run.BlackList = splitNames(*f.blackList)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if limit := cfg.WorkerLimit(); cfg.Run.Workers > limit {
		why := fmt.Sprintf("the number of cores, %d here", limit)
		if cfg.Run.MaxWorkers > 0 {
			why = "run.max_workers"
		} else if limit == config.MaxWorkers {
			why = fmt.Sprintf("at most %d", config.MaxWorkers)
		}
		if !multiDefault {
			fmt.Fprintf(stderr, "probe: %d workers lowered to %d (%s; set run.max_workers to change it)\n", cfg.Run.Workers, limit, why)
		}
		cfg.Run.Workers = limit
	}
	devOpts, err := parseOptions(f.deviceOpts)
	if err != nil {
		return fmt.Errorf("%w: --device-option: %v", errUsage, err)
	}
	benchOpts, err := parseOptions(f.benchOpts)
	if err != nil {
		return fmt.Errorf("%w: --bench-option: %v", errUsage, err)
	}

	parseStart := time.Now()
	d, err := dump.Open(f.apiInfo, cfg.Run.Framework)
	if err != nil {
		return err
	}
	if f.device == "" && f.compat == "msprobe" && cfg.Run.Framework == "mindspore" && d.Task == "tensor" {
		// msprobe's MindSpore tensor mode judges the dumped outputs
		// (docs/compat.md row 8)
		cfg.Run.Device = config.DumpedDevice
	}
	dumped := cfg.Run.Device == config.DumpedDevice
	switch {
	case dumped && d.Task != "tensor":
		return fmt.Errorf("%w: --device %s judges the outputs a tensor-mode dump saved, but %s is a %s-mode dump (task %q): it holds statistics, not the device's outputs",
			errUsage, config.DumpedDevice, f.apiInfo, d.Task, d.Task)
	case dumped && len(devOpts) > 0:
		return fmt.Errorf("%w: --device-option: the device %s runs nothing and takes no options", errUsage, config.DumpedDevice)
	}
	parseTook := time.Since(parseStart)
	killpoint.Hit(killpoint.DumpParsed, "")
	for _, warn := range d.Warnings {
		fmt.Fprintf(stderr, "probe: warning: %s: %s\n", d.Path, warn)
	}
	flavor := report.PyTorch
	if cfg.Run.Framework == "mindspore" {
		flavor = report.MindSpore
	}

	// Every plugin's command is resolved (a built-in Python plugin's
	// interpreter and modules checked) before any file is written.
	ph := newPluginSet(cfg, stderr)
	defer ph.closeAll()
	devices := []string{cfg.Run.Device, cfg.Run.Bench}
	if dumped {
		devices = devices[1:]
	}
	if err := ph.preflight(ctx, cfg.Run.Framework, devices...); err != nil {
		return err
	}

	var w *report.Writer
	var done map[string]bool
	if f.resume != "" {
		if w, done, err = report.Resume(f.resume, flavor, cfg.Run.Precision); err != nil {
			return err
		}
		for _, r := range w.Repaired {
			fmt.Fprintln(stderr, "probe: warning:", r)
		}
	} else if w, err = report.Create(f.out, flavor, time.Now(), cfg.Run.Precision); err != nil {
		return err
	}
	defer w.Close()
	var saver *errordata.Saver
	if f.saveErrorData {
		ts := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(w.ResultPath), "accuracy_checking_result_"), ".csv")
		if saver, err = errordata.New(filepath.Dir(w.ResultPath), ts, cfg.Run.Framework, f.compat == "msprobe"); err != nil {
			return err
		}
	}

	fw, err := ph.framework(ctx, cfg.Run.Framework)
	if err != nil {
		return err
	}
	compat := f.compat == "msprobe"
	var std standard.Standard = standard.PyTorch{Compat: compat}
	if flavor == report.MindSpore {
		std = standard.MindSpore{Compat: compat}
	}
	opts := run.Options{
		Dump: d, Framework: fw,
		Standard:     std,
		Style:        report.Style{Flavor: flavor, Compat: compat},
		Device:       ph.deviceOpener(cfg.Run.Device, devOpts),
		Bench:        ph.deviceOpener(cfg.Run.Bench, benchOpts),
		DeviceName:   cfg.Run.Device,
		BenchName:    cfg.Run.Bench,
		IsCrash:      isPluginCrash,
		MemoryBudget: memoryBudget(cfg),
		Workers:      cfg.Run.Workers,
		Seed:         cfg.Run.Seed,
		APITimeout:   cfg.Run.APITimeout.Duration,
		MaxRestarts:  cfg.Plugins.MaxRestarts,
		Writer:       w,
		Done:         done,
		Compat:       compat,
		ErrorData:    saver,
		WhiteList:    cfg.Run.WhiteList,
		BlackList:    cfg.Run.BlackList,
		FilterAPI:    f.filterAPI,
		DeviceDumped: dumped,
	}
	if dumped {
		opts.Device = nil
	}
	if !f.quiet {
		opts.Progress = stderr
	}
	start := time.Now()
	sum, runErr := run.Run(ctx, opts)
	var startErr *run.StartError
	if errors.As(runErr, &startErr) && sum.Total == 0 {
		// Nothing was checked: no summary, and no header-only CSVs
		// left behind by a new run (a resumed run keeps its files).
		if f.resume == "" {
			if err := w.Discard(); err != nil {
				fmt.Fprintln(stderr, "probe: warning:", err)
			}
		}
		return runErr
	}
	printSummary(stdout, d, cfg, sum, w, time.Since(start))
	if f.timings && sum != nil {
		t := sum.Timings
		fmt.Fprintf(stdout, "Timings: parse %.2fs, plan %.2fs, inputs %.2fs, bench %.2fs, device %.2fs, metrics %.2fs, csv %.2fs (summed over workers)\n",
			parseTook.Seconds(), t.Plan.Seconds(), t.Inputs.Seconds(), t.Bench.Seconds(), t.Device.Seconds(), t.Metrics.Seconds(), t.Write.Seconds())
		gib := func(n int64) string {
			if n <= 0 {
				return "n/a"
			}
			return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
		}
		fmt.Fprintf(stdout, "Peak RSS: host %s, device plugin %s, bench plugin %s (VmHWM; shared memory counts in each process that maps it)\n",
			gib(sum.Peak.Host), gib(sum.Peak.Device), gib(sum.Peak.Bench))
		if len(sum.Slowest) > 0 {
			var parts []string
			for _, a := range sum.Slowest {
				parts = append(parts, fmt.Sprintf("%s %.2fs", a.Name, a.Took.Seconds()))
			}
			fmt.Fprintf(stdout, "Slowest APIs (device calls and judging): %s\n", strings.Join(parts, ", "))
		}
	}
	return runErr
}

func loadConfig(path string) (*config.Config, error) {
	if path == "" && fileExists("probe.toml") {
		path = "probe.toml"
	}
	return config.Load(path)
}

func parseIDs(s string) ([]int, error) {
	var ids []int
	for _, p := range strings.Split(s, ",") {
		id, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("%q is not a device id", p)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// splitNames splits a comma-separated list of API names, dropping blanks.
func splitNames(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseOptions(l listFlag) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range l {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", kv)
		}
		m[k] = v
	}
	return m, nil
}

func printSummary(out io.Writer, d *dump.Dump, cfg *config.Config, s *run.Summary, w *report.Writer, took time.Duration) {
	if s == nil {
		return
	}
	fmt.Fprintf(out, "\nprobe %s: %s (%s, %s mode), device %q vs bench %q, %d worker(s), %.1fs\n",
		Version, d.Path, cfg.Run.Framework, d.Task, cfg.Run.Device, cfg.Run.Bench, s.Workers, took.Seconds())
	fmt.Fprintf(out, "APIs checked: %d   pass: %d   warning: %d   error: %d   skip: %d", s.Total, s.Pass, s.Warning, s.Error, s.Skip)
	if s.Resumed > 0 {
		fmt.Fprintf(out, "   (already done before resume: %d)", s.Resumed)
	}
	if s.Filtered > 0 {
		fmt.Fprintf(out, "   (duplicate calls not checked, -f: %d)", s.Filtered)
	}
	fmt.Fprintln(out)
	if len(s.Worst) > 0 {
		fmt.Fprintln(out, "Worst APIs:")
		for i, x := range s.Worst {
			if i == 10 {
				fmt.Fprintf(out, "  ... and %d more (see the result CSV)\n", len(s.Worst)-10)
				break
			}
			fmt.Fprintf(out, "  %-40s forward=%s backward=%s  %s\n", x.Name, x.Forward, strings.TrimSpace(x.Backward), oneLine(x.Reason))
		}
	}
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	fmt.Fprintf(out, "Result CSV:  %s\nDetails CSV: %s\n", abs(w.ResultPath), abs(w.DetailsPath))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// memoryBudget is run.memory_budget_gib in bytes, or half the memory
// available now when it is 0 (no bound when that cannot be read).
func memoryBudget(cfg *config.Config) int64 {
	if g := cfg.Run.MemoryBudgetGiB; g > 0 {
		return int64(g * (1 << 30))
	}
	return run.AvailableBytes() / 2
}
