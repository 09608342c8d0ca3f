package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/internal/dump"
)

// pytorch-precheck §11.6 black/white vectors (api, black, white). run_ut's
// fixed list (to, empty, ...) is the framework plugins' (their tests).
func TestListed(t *testing.T) {
	cases := []struct {
		api          string
		black, white []string
		want         bool
	}{
		{"test_api", []string{"test_api"}, nil, true},
		{"test_api", nil, []string{"another_api"}, true},
		{"test_api", []string{"test_api"}, []string{"test_api"}, true},
		{"test_api", nil, []string{"test_api"}, false},
		{"test_api", nil, nil, false},
	}
	for _, c := range cases {
		if got := listed(c.api, c.black, c.white); got != c.want {
			t.Errorf("listed(%s, black %v, white %v) = %v, want %v", c.api, c.black, c.white, got, c.want)
		}
	}
}

// A black-listed API is a SKIP row with msprobe's message, before any
// plugin is asked.
func TestCheckBlackListed(t *testing.T) {
	w := &worker{o: &Options{Style: report.Style{Flavor: report.PyTorch}, BlackList: []string{"gelu"}}}
	e := &dump.Entry{Name: "Functional.gelu.0", API: "gelu", Forward: &dump.Call{}}
	a := w.check(context.Background(), e)
	const msg = "API gelu in black list or not in white list. SKIP."
	if a.Forward != standard.Skip || a.Backward != standard.Skip || a.Message != msg {
		t.Fatalf("got %+v", a)
	}
	if len(a.Details) != 1 || a.Details[0].Name != "Functional.gelu.0.forward.output.0" || a.Details[0].Message != msg {
		t.Errorf("details %+v", a.Details)
	}
	w.o.BlackList, w.o.WhiteList = nil, []string{"relu"}
	if a := w.check(context.Background(), e); a.Message != msg {
		t.Errorf("not in the white list: %+v", a)
	}
}

// openDump opens a dump the way a run does (dump.Open: bodies converted on
// demand).
func openDump(t *testing.T, data string) *dump.Dump {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.json")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := dump.Open(path, dump.PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func names(es []*dump.Entry) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Name)
	}
	return strings.Join(s, " ")
}

// §11.6: filter_api on {torch.add_1: args [{value 1}], torch.add_2: the
// same, torch.sub: args [{value 2}]} keeps 2 entries, under both rules.
func TestDedupVector(t *testing.T) {
	d := openDump(t, `{"task": "statistics", "data": {
		"torch.add_1.forward": {"input_args": [{"type": "int", "value": 1}], "input_kwargs": {}},
		"torch.add_2.forward": {"input_args": [{"type": "int", "value": 1}], "input_kwargs": {}},
		"torch.sub.forward": {"input_args": [{"type": "int", "value": 2}], "input_kwargs": {}}}}`)
	es := d.Entries
	for _, compat := range []bool{false, true} {
		kept, dropped := dedup(d, es, compat)
		if len(kept) != 2 || dropped != 1 || kept[0].Name != es[0].Name || kept[1].Name != es[2].Name {
			t.Errorf("compat=%v: kept %s, dropped %d", compat, names(kept), dropped)
		}
	}
}

// probe's signature (§12 #15 fix) and msprobe's (§3.6) on the cases where
// they differ.
func TestDedupRules(t *testing.T) {
	tensor := func(extra string) string {
		return `{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2], "requires_grad": true` + extra + `}`
	}
	call := func(args, kwargs string) string {
		return `{"input_args": [` + args + `], "input_kwargs": {` + kwargs + `}, "output": []}`
	}
	cases := []struct {
		name        string
		a, b        string
		dup, compat bool // duplicates under probe's rule / msprobe's
	}{
		{"identical", call(tensor(`, "Max": 1, "Min": 0`), ""), call(tensor(`, "Max": 1, "Min": 0`), ""), true, true},
		{"Max/Min differ", call(tensor(`, "Max": 1, "Min": 0`), ""), call(tensor(`, "Max": 2, "Min": -1`), ""), true, true},
		{"Mean/Norm differ", call(tensor(`, "Mean": 0.5, "Norm": 1`), ""), call(tensor(`, "Mean": 0.25, "Norm": 2`), ""), true, false},
		{"md5 and data_name differ", call(tensor(`, "md5": "aa", "data_name": "x.0.pt"`), ""), call(tensor(`, "md5": "bb", "data_name": "x.1.pt"`), ""), true, false},
		{"shape differs", call(tensor(""), ""), call(strings.Replace(tensor(""), "[2]", "[3]", 1), ""), false, false},
		{"dtype differs", call(tensor(""), ""), call(strings.Replace(tensor(""), "float16", "float32", 1), ""), false, false},
		{"list contents differ", call("["+tensor("")+"]", ""), call("["+strings.Replace(tensor(""), "[2]", "[3]", 1)+"]", ""), false, true},
		{"list lengths differ", call("["+tensor("")+"]", ""), call("["+tensor("")+", "+tensor("")+"]", ""), false, true},
		{"kwarg Max differs", call("", `"w": `+tensor(`, "Max": 1`)), call("", `"w": `+tensor(`, "Max": 2`)), true, false},
		{"kwarg value differs", call("", `"dim": {"type": "int", "value": 1}`), call("", `"dim": {"type": "int", "value": 2}`), false, false},
		{"key order, 1 == 1.0", call(`{"type": "float", "value": 1}`, ""), call(`{"value": 1.0, "type": "float"}`, ""), true, true},
		{"null vs list arg", call(`null`, ""), call(`[{"type": "int", "value": 1}]`, ""), false, true},
		{"null vs int arg", call(`null`, ""), call(`{"type": "int", "value": 1}`, ""), false, false},
	}
	for _, c := range cases {
		d := openDump(t, `{"task": "statistics", "data": {"Torch.foo.0.forward": `+c.a+`, "Torch.foo.1.forward": `+c.b+`}}`)
		es := d.Entries
		for _, compat := range []bool{false, true} {
			want := c.dup
			if compat {
				want = c.compat
			}
			kept, _ := dedup(d, es, compat)
			if got := len(kept) == 1; got != want {
				t.Errorf("%s, compat=%v: duplicate = %v, want %v", c.name, compat, got, want)
			}
		}
	}
	// Calls of different APIs, or an unparsed body, are never duplicates.
	d := openDump(t, `{"task": "statistics", "data": {
		"Torch.foo.0.forward": `+call("", "")+`, "Torch.bar.0.forward": `+call("", "")+`,
		"Torch.foo.1.forward": "broken", "Torch.foo.2.forward": "broken", "Module.m.M.forward.0": {}}}`)
	es := d.Entries
	if kept, n := dedup(d, es, false); n != 0 || len(kept) != len(es) {
		t.Errorf("kept %s, dropped %d", names(kept), n)
	}
}
