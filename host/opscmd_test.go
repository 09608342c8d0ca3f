package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/config"
	"github.com/probe-dev/probe/plugins/cpu"
	"github.com/probe-dev/probe/plugins/pytorch"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestSupportTable(t *testing.T) {
	fw := &framework.Info{
		APIs: []string{"Tensor.add", "Tensor.max", "Tensor.conv"},
		Support: []framework.APISupport{
			{API: "Tensor.add", Ops: []string{"add"}},
			{API: "Tensor.max", Ops: []string{"max", "max_dim"}},
			{API: "Tensor.conv", Ops: []string{"convolution"}},
			{API: "Tensor.bernoulli_", Reason: "Tensor.bernoulli_ is random by nature"},
		},
	}
	dev := &device.Info{Ops: []device.OpSupport{
		{Op: "add", DTypes: []tensor.DType{tensor.Float32, tensor.Int64}, Backward: true},
		{Op: "max", DTypes: []tensor.DType{tensor.Float32, tensor.Float16}, Backward: true},
		{Op: "max_dim", DTypes: []tensor.DType{tensor.Float16}, Backward: false},
		{Op: "convolution", DTypes: []tensor.DType{tensor.Float32}, Backward: true},
	}}
	bench := &device.Info{Ops: []device.OpSupport{{Op: "add"}, {Op: "max"}, {Op: "max_dim"}}}
	lists := []apiList{{name: "tensor", prefix: "Tensor", names: []string{"add", "to", "gone", "zzz"}, missing: map[string]bool{"gone": true}}}
	rows := supportTable("pytorch", fw, dev, bench, "dev", "ref", lists)
	got := map[string]supportRow{}
	var order []string
	for _, r := range rows {
		got[r.API] = r
		order = append(order, r.API)
	}
	want := []string{"Tensor.add", "Tensor.bernoulli_", "Tensor.conv", "Tensor.gone", "Tensor.max", "Tensor.to", "Tensor.zzz"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("rows %v, want %v", order, want)
	}
	check := func(api string, checkable, backward bool, dtypes []string, reason string) {
		t.Helper()
		r := got[api]
		if r.Checkable != checkable || r.Backward != backward || !reflect.DeepEqual(r.DTypes, dtypes) || !strings.Contains(r.Reason, reason) || (reason == "" && r.Reason != "") {
			t.Errorf("%s: %+v", api, r)
		}
	}
	check("Tensor.add", true, true, []string{"float32", "int64"}, "")
	check("Tensor.max", true, false, []string{"float16"}, "") // dtypes both ops run, backward only if both have one
	check("Tensor.conv", false, false, []string{}, "op convolution is not run by the bench plugin ref")
	check("Tensor.bernoulli_", false, false, []string{}, "random by nature")
	check("Tensor.to", false, false, []string{}, "fixed black list")
	check("Tensor.gone", false, false, []string{}, "does not exist in PyTorch 1.13")
	check("Tensor.zzz", false, false, []string{}, "not supported by the pytorch framework plugin yet")
	cov := coverageOf(rows, lists)
	if len(cov) != 1 || cov[0].checkable != 1 || cov[0].total != 3 {
		t.Errorf("coverage %+v, want 1 of 3 (gone does not count)", cov)
	}
}

// pytorchCoverage computes the coverage of msprobe's PyTorch lists in
// process, with the built-in plugins of the default probe.toml.
func pytorchCoverage(t *testing.T) []coverage {
	return listCoverage(t, "pytorch", pytorch.New())
}

// listCoverage computes the coverage of msprobe's lists of the framework
// name by the framework plugin fw in process, with the built-in plugins of
// the default probe.toml.
func listCoverage(t *testing.T, name string, fwp framework.Framework) []coverage {
	t.Helper()
	ctx := context.Background()
	cfg, err := config.Load("")
	if err != nil {
		t.Fatal(err)
	}
	fw, err := fwp.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	describe := func(name string) *device.Info {
		p := cfg.Plugins.Device[name]
		if p.Builtin != "cpu" {
			t.Skipf("device %s of the default probe.toml is not the built-in cpu plugin", name)
		}
		d := cpu.NewConfigurable()
		if err := d.Configure(ctx, device.Config{Options: p.Options}); err != nil {
			t.Fatal(err)
		}
		info, err := d.Describe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	lists := msprobeLists(name)
	return coverageOf(supportTable(name, fw, describe(cfg.Run.Device), describe(cfg.Run.Bench), cfg.Run.Device, cfg.Run.Bench, lists), lists)
}

// TestCoverageInREADME: the README's coverage table is what `probe ops`
// computes today.
func TestCoverageInREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- coverage: begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- coverage: end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no coverage table between <!-- coverage: begin --> and <!-- coverage: end -->")
	}
	var b strings.Builder
	b.WriteString("| list | names | checkable | share |\n|---|---|---|---|\n")
	for _, c := range pytorchCoverage(t) {
		fmt.Fprintf(&b, "| `%s` | %d | %d | %s |\n", c.list, c.total, c.checkable, c.percent())
	}
	if table != b.String() {
		t.Errorf("README.md's coverage table is out of date; it should read:\n%s", b.String())
	}
}

// TestOpsJSON: `probe ops --json` prints one array of objects with the
// field names the support table promises.
func TestOpsJSON(t *testing.T) {
	out := probeRun(t, "ops", "--framework", "pytorch", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not one JSON array: %v\n%.300s", err, out)
	}
	seen := map[string]map[string]any{}
	for _, r := range rows {
		for _, k := range []string{"api", "checkable", "ops", "backward", "dtypes"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("row without %q: %v", k, r)
			}
		}
		if r["checkable"] == false && r["reason"] == "" {
			t.Errorf("%v: not checkable and no reason", r["api"])
		}
		seen[r["api"].(string)] = r
	}
	if r := seen["Tensor.add_"]; r == nil || r["checkable"] != true || !reflect.DeepEqual(r["ops"], []any{"add"}) {
		t.Errorf("Tensor.add_: %v", r)
	}
	if r := seen["Tensor.to"]; r == nil || r["checkable"] != false || !strings.Contains(r["reason"].(string), "black list") {
		t.Errorf("Tensor.to: %v", r)
	}
	if len(rows) < 491+508 {
		t.Errorf("%d rows: msprobe's lists are not all there", len(rows))
	}
}
