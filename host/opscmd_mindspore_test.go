package host

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/probe-dev/probe/plugins/mindspore"
)

// mindsporeCoverage computes the coverage of msprobe's MindSpore lists
// (mint, mint.nn.functional, the checker's Tensor list) in process, with
// the built-in plugins of the default probe.toml.
func mindsporeCoverage(t *testing.T) []coverage {
	cov := listCoverage(t, "mindspore", mindspore.New())
	return append(cov, totalCoverage("all three", cov))
}

// TestMindSporeCoverageInREADME: the README's MindSpore coverage table is
// what `probe ops --framework mindspore` computes today, and at least 90%
// of the names of the three lists are checkable.
func TestMindSporeCoverageInREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- mindspore coverage: begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- mindspore coverage: end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no MindSpore coverage table between <!-- mindspore coverage: begin --> and <!-- mindspore coverage: end -->")
	}
	var b strings.Builder
	b.WriteString("| list | names | checkable | share |\n|---|---|---|---|\n")
	cov := mindsporeCoverage(t)
	for _, c := range cov {
		fmt.Fprintf(&b, "| `%s` | %d | %d | %s |\n", c.list, c.total, c.checkable, c.percent())
	}
	if table != b.String() {
		t.Errorf("README.md's MindSpore coverage table is out of date; it should read:\n%s", b.String())
	}
	if all := cov[len(cov)-1]; all.checkable*10 < all.total*9 {
		t.Errorf("%s: under 90%%", all)
	}
}

// TestOpsJSONMindSpore: `probe ops --framework mindspore --json` lists the
// names of the three lists and the Functional APIs, spelled as MindSpore
// dumps spell them, each checkable or with a reason that is never "not
// supported yet"; names outside the lists are not listed.
func TestOpsJSONMindSpore(t *testing.T) {
	out := probeRun(t, "ops", "--framework", "mindspore", "--json")
	var rows []supportRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not one JSON array: %v\n%.300s", err, out)
	}
	want := map[string]bool{}
	for _, l := range msprobeLists("mindspore") {
		for _, n := range l.names {
			want[l.prefix+"."+n] = true
		}
	}
	seen := map[string]supportRow{}
	for _, r := range rows {
		seen[r.API] = r
		if !want[r.API] && !strings.HasPrefix(r.API, "Functional.") {
			t.Errorf("%s is in none of msprobe's MindSpore lists", r.API)
		}
		if !r.Checkable && (r.Reason == "" || strings.Contains(r.Reason, "not supported")) {
			t.Errorf("%s: not checkable, reason %q", r.API, r.Reason)
		}
	}
	if len(rows) != len(want)+4 {
		t.Errorf("%d rows, want %d names and 4 Functional APIs", len(rows), len(want))
	}
	for api, ops := range map[string]string{"Mint.cos": "cos", "MintFunctional.gelu": "gelu", "Tensor.add": "add", "Functional.flash_attention_score": "npu.fusion_attention",
		"Functional.rms_norm": "npu.rms_norm", "Mint.ones": "full", "Tensor.to": "cast"} {
		if r := seen[api]; !r.Checkable || len(r.Ops) == 0 || r.Ops[0] != ops {
			t.Errorf("%s: %+v, want checkable with op %s", api, r, ops)
		}
	}
	if r := seen["Mint.rand"]; r.Checkable || !strings.Contains(r.Reason, "random") {
		t.Errorf("Mint.rand: %+v", r)
	}
}
