package host

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/probe-dev/probe/internal/apilist"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// supportRow is one API of `probe ops`; the JSON field names are an
// interface (issue 11 fixed them).
type supportRow struct {
	API       string   `json:"api"`
	Checkable bool     `json:"checkable"`
	Ops       []string `json:"ops"`
	Backward  bool     `json:"backward"`
	DTypes    []string `json:"dtypes"`
	Reason    string   `json:"reason,omitempty"`
}

// apiList is one of msprobe's API lists: the dump prefix of its names and
// the names PyTorch 1.13 lacks (they count in no coverage figure).
type apiList struct {
	name, prefix string
	names        []string
	missing      map[string]bool
}

// msprobeLists are the lists of a framework's pre-check; nil when probe has
// none for it.
func msprobeLists(fw string) []apiList {
	if fw == "mindspore" {
		// The dumper's mint lists and the checker's Tensor allow-list
		// (mindspore-precheck.md Appendices A, B); every name exists in
		// MindSpore.
		return []apiList{
			{"mint", "Mint", apilist.MindSporeMint, map[string]bool{}},
			{"mint.nn.functional", "MintFunctional", apilist.MindSporeMintFunctional, map[string]bool{}},
			{"tensor", "Tensor", apilist.MindSporeTensorList, map[string]bool{}},
		}
	}
	if fw != "pytorch" {
		return nil
	}
	missing := func(list string) map[string]bool {
		m := map[string]bool{}
		for _, e := range apilist.MissingInTorch113 {
			if l, n, _ := strings.Cut(e, ":"); l == list {
				m[n] = true
			}
		}
		return m
	}
	return []apiList{
		{"functional", "Functional", apilist.PyTorchFunctional, missing("functional")},
		{"tensor", "Tensor", apilist.PyTorchTensor, missing("tensor")},
		{"torch", "Torch", apilist.PyTorchTorch, missing("torch")},
		{"torch_npu", "NPU", apilist.PyTorchNPU, map[string]bool{}},
	}
}

// supportTable joins what the framework plugin says of each API with what
// the device under test and the bench run: an API is checkable when the
// framework plans it and both devices run every op of its plain call. Rows
// cover every API the framework knows and every name of lists, sorted.
func supportTable(fwName string, fw *framework.Info, dev, bench *device.Info, devName, benchName string, lists []apiList) []supportRow {
	byAPI := map[string]framework.APISupport{}
	for _, s := range fw.Support {
		byAPI[s.API] = s
	}
	for _, a := range fw.APIs { // a plugin without Support entries
		if _, ok := byAPI[a]; !ok {
			byAPI[a] = framework.APISupport{API: a}
		}
	}
	missing := map[string]bool{}
	for _, l := range lists {
		for _, n := range l.names {
			api := l.prefix + "." + n
			if _, ok := byAPI[api]; !ok {
				byAPI[api] = framework.APISupport{API: api}
			}
			if l.missing[n] {
				missing[api] = true
			}
		}
	}
	devOps, benchOps := opIndex(dev), opIndex(bench)
	rows := make([]supportRow, 0, len(byAPI))
	for _, api := range mapsKeys(byAPI) {
		s := byAPI[api]
		r := supportRow{API: api, Ops: append([]string{}, s.Ops...), DTypes: []string{}}
		_, name, _ := strings.Cut(api, ".")
		switch {
		case len(s.Ops) > 0:
			r.Checkable, r.Backward = true, true
			var dts []tensor.DType
			for i, op := range s.Ops {
				d, onDev := devOps[op]
				_, onBench := benchOps[op]
				switch {
				case !onDev:
					r.Reason = fmt.Sprintf("%s: op %s is not run by the device plugin %s", api, op, devName)
				case !onBench:
					r.Reason = fmt.Sprintf("%s: op %s is not run by the bench plugin %s", api, op, benchName)
				}
				if r.Reason != "" {
					r.Checkable, r.Backward, dts = false, false, nil
					break
				}
				r.Backward = r.Backward && d.Backward
				if i == 0 {
					dts = append([]tensor.DType{}, d.DTypes...)
				} else {
					dts = slices.DeleteFunc(dts, func(dt tensor.DType) bool { return !slices.Contains(d.DTypes, dt) })
				}
			}
			for _, dt := range dts {
				r.DTypes = append(r.DTypes, dt.String())
			}
		case s.Reason != "":
			r.Reason = s.Reason
		case fwName == "pytorch" && apilist.AlwaysBlack[name]:
			r.Reason = api + " is on run_ut's fixed black list: msprobe never checks it"
		case missing[api]:
			r.Reason = api + " does not exist in PyTorch 1.13"
		default:
			r.Reason = fmt.Sprintf("API %s is not supported by the %s framework plugin yet", api, fwName)
		}
		rows = append(rows, r)
	}
	return rows
}

func opIndex(info *device.Info) map[string]device.OpSupport {
	m := map[string]device.OpSupport{}
	if info != nil {
		for _, s := range info.Ops {
			m[s.Op] = s
		}
	}
	return m
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// coverage is the share of a list's names (of those PyTorch 1.13 has) that
// are checkable.
type coverage struct {
	list             string
	checkable, total int
}

func (c coverage) String() string {
	return fmt.Sprintf("%s: %d of %d checkable (%s)", c.list, c.checkable, c.total, c.percent())
}

func (c coverage) percent() string {
	return fmt.Sprintf("%.1f%%", 100*float64(c.checkable)/float64(max(c.total, 1)))
}

func coverageOf(rows []supportRow, lists []apiList) []coverage {
	ok := map[string]bool{}
	for _, r := range rows {
		ok[r.API] = r.Checkable
	}
	var out []coverage
	for _, l := range lists {
		c := coverage{list: l.name}
		for _, n := range l.names {
			if l.missing[n] {
				continue
			}
			c.total++
			if ok[l.prefix+"."+n] {
				c.checkable++
			}
		}
		out = append(out, c)
	}
	return out
}

// totalCoverage adds up the coverage of several lists.
func totalCoverage(name string, cov []coverage) coverage {
	t := coverage{list: name}
	for _, c := range cov {
		t.checkable += c.checkable
		t.total += c.total
	}
	return t
}

// opsCommand is `probe ops`: the support table of a framework plugin
// against the configured device under test and bench.
func opsCommand(ctx context.Context, fwFlag string, args []string, stdout, stderr io.Writer) error {
	const usageLine = "probe ops [--framework pytorch|mindspore] [--json] [--config probe.toml] [--device NAME] [--bench NAME]"
	fs := flag.NewFlagSet("ops", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fwName := fs.String("framework", fwFlag, "framework plugin, a [plugins.framework.*] name (default: run.framework)")
	asJSON := fs.Bool("json", false, "print one JSON array, an object per API: api, checkable, ops, backward, dtypes, reason")
	cfgPath := fs.String("config", "", "probe.toml (default: ./probe.toml when it exists, else built-in defaults)")
	devName := fs.String("device", "", "device-under-test plugin (default: run.device)")
	benchName := fs.String("bench", "", "bench plugin (default: run.bench)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %s: %v", errUsage, usageLine, err)
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: %s: unexpected argument %q", errUsage, usageLine, fs.Arg(0))
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	if *fwName == "" {
		*fwName = cfg.Run.Framework
	}
	if *devName == "" {
		*devName = cfg.Run.Device
	}
	if *benchName == "" {
		*benchName = cfg.Run.Bench
	}
	fp, ok := cfg.Plugins.Framework[*fwName]
	if !ok {
		return fmt.Errorf("%w: no framework plugin %q in probe.toml (known: %s)", errUsage, *fwName, strings.Join(mapsKeys(cfg.Plugins.Framework), ", "))
	}
	ps := newPluginSet(cfg, stderr)
	defer ps.closeAll()
	pl, err := ps.start(ctx, "framework", *fwName, fp)
	if err != nil {
		return fmt.Errorf("framework plugin %s: %w", *fwName, err)
	}
	fw, err := pl.Framework().Describe(ctx)
	if err != nil {
		return fmt.Errorf("framework plugin %s: describe: %w", *fwName, err)
	}
	describe := func(name string) (*device.Info, error) {
		p, ok := cfg.Plugins.Device[name]
		if !ok {
			return nil, fmt.Errorf("%w: no device plugin %q in probe.toml (known: %s)", errUsage, name, strings.Join(mapsKeys(cfg.Plugins.Device), ", "))
		}
		pl, err := ps.start(ctx, "device", name, p)
		if err != nil {
			return nil, fmt.Errorf("device plugin %s: %w", name, err)
		}
		if err := pl.Device().Configure(ctx, device.Config{DeviceID: cfg.Run.DeviceIDs[0], Options: p.Options}); err != nil {
			return nil, fmt.Errorf("device plugin %s: configure: %w", name, err)
		}
		info, err := pl.Device().Describe(ctx)
		if err != nil {
			return nil, fmt.Errorf("device plugin %s: describe: %w", name, err)
		}
		return info, nil
	}
	dev, err := describe(*devName)
	if err != nil {
		return err
	}
	bench, err := describe(*benchName)
	if err != nil {
		return err
	}
	lists := msprobeLists(*fwName)
	rows := supportTable(*fwName, fw, dev, bench, *devName, *benchName, lists)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "API\tCHECKABLE\tOPS\tBACKWARD\tDTYPES\tREASON")
	dash := func(s []string) string {
		if len(s) == 0 {
			return "-"
		}
		return strings.Join(s, ",")
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%v\t%s\t%v\t%s\t%s\n", r.API, r.Checkable, dash(r.Ops), r.Backward, dash(r.DTypes), r.Reason)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nframework %s, device %s, bench %s\n", *fwName, *devName, *benchName)
	switch {
	case *fwName == "mindspore":
		fmt.Fprintln(stdout, "coverage of msprobe's MindSpore lists:")
	case len(lists) > 0:
		fmt.Fprintln(stdout, "coverage of msprobe's lists (of the names PyTorch 1.13 has):")
	}
	cov := coverageOf(rows, lists)
	for _, c := range cov {
		fmt.Fprintf(stdout, "  %s\n", c)
	}
	if *fwName == "mindspore" {
		fmt.Fprintf(stdout, "  %s\n", totalCoverage("all three", cov))
	}
	return nil
}
