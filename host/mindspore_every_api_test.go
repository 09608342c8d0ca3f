package host

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// msDumpCalls reads a MindSpore dump.json written by
// scripts/make_mindspore_dump.py: for each call (<Type>.<api>.<n>)
// whether a BFloat16 tensor is among its forward inputs.
func msDumpCalls(t *testing.T, path string) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	calls := map[string]bool{}
	for key, body := range doc.Data {
		name, ok := strings.CutSuffix(key, ".forward")
		if !ok {
			continue
		}
		var fwd struct {
			Args   json.RawMessage `json:"input_args"`
			Kwargs json.RawMessage `json:"input_kwargs"`
		}
		if err := json.Unmarshal(body, &fwd); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		calls[name] = strings.Contains(string(fwd.Args)+string(fwd.Kwargs), `"BFloat16"`)
	}
	return calls
}

// msCheckable lists the APIs `probe ops --framework mindspore --json`
// says are checkable.
func msCheckable(t *testing.T) map[string]bool {
	t.Helper()
	var rows []struct {
		API       string `json:"api"`
		Checkable bool   `json:"checkable"`
	}
	if err := json.Unmarshal([]byte(probeRun(t, "ops", "--framework", "mindspore", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, r := range rows {
		if r.Checkable {
			out[r.API] = true
		}
	}
	return out
}

// msAPIOf strips the call count: Mint.add.1 -> Mint.add.
func msAPIOf(call string) string {
	return call[:strings.LastIndex(call, ".")]
}

// msDumpedKnown are the calls --device dumped does not pass yet, and why.
var msDumpedKnown = map[string]string{}

// msDumpedBF16Known are the bfloat16 calls whose PyTorch gradient probe's
// emulation does not reproduce within MindSpore's 0.001. None since the
// emulation rounds pow's and reciprocal's backward steps as PyTorch 1.13
// does (15a5f67); the map stays for the next such finding.
var msDumpedBF16Known = map[string]string{}

// TestMindSporeEveryAPIDump (issue 14): scripts/make_mindspore_dump.py
// writes a MindSpore dump calling every API of msprobe's MindSpore lists
// (float32 and bfloat16) with PyTorch's values. On both modes' dumps no
// API probe lists as checkable is SKIPped as unsupported and no float32
// call is an error on the emulated device (a bfloat16 call may fail
// MindSpore's absolute 0.001 against the float64 bench; with --compat
// msprobe, whose bench runs at the dumped dtype, none is an error);
// --device dumped judges PyTorch's outputs and gradients in the tensor
// dump to pass. About 11 s (two dumps of ~540 calls, six probe runs).
func TestMindSporeEveryAPIDump(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: an end-to-end run on a generated dump (about 10 s)")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import torch").Run(); err != nil {
		t.Skip("/usr/bin/python3 has no torch: cannot generate the MindSpore every-API dump")
	}
	checkable := msCheckable(t)
	dumps := map[string]string{}
	for _, mode := range []string{"tensor", "statistics"} {
		dir := filepath.Join(t.TempDir(), mode)
		cmd := exec.Command("/usr/bin/python3", filepath.Join(repo, "scripts/make_mindspore_dump.py"), "--mode", mode, "--out", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make_mindspore_dump.py --mode %s: %v\n%s", mode, err, out)
		}
		dumps[mode] = filepath.Join(dir, "dump.json")
	}
	calls := msDumpCalls(t, dumps["tensor"])
	if len(calls) < 500 {
		t.Fatalf("the dump has %d calls, want >= 500", len(calls))
	}
	run := func(dump string, args ...string) map[string][]string {
		out := t.TempDir()
		probeRun(t, append([]string{"run", "--framework", "mindspore", "--api-info", dump, "-o", out, "--quiet"}, args...)...)
		return resultRows(t, out)
	}
	failed := func(r []string) bool { return len(r) < 3 || r[1] != "pass" || (r[2] != "pass" && r[2] != "") }

	for _, mode := range []string{"tensor", "statistics"} {
		rows := run(dumps[mode])
		if len(rows) != len(calls) {
			t.Errorf("%s: %d result rows for %d calls", mode, len(rows), len(calls))
		}
		for call, r := range rows {
			msg := strings.Join(r[3:], ",")
			if checkable[msAPIOf(call)] && strings.Contains(msg, "is not supported by the mindspore framework plugin") {
				t.Errorf("%s: %s is listed as checkable but SKIPs: %v", mode, call, r)
			}
			if (r[1] == "error" || r[2] == "error") && !calls[call] {
				t.Errorf("%s: float32 call %s is an error on the emulated device: %v", mode, call, r)
			}
		}
	}
	for call, r := range run(dumps["tensor"], "--compat", "msprobe", "--device", "cpu-emulated") {
		if r[1] == "error" || r[2] == "error" {
			t.Errorf("--compat msprobe: %s is an error on the emulated device: %v", call, r)
		}
	}

	for _, compat := range []bool{false, true} {
		args := []string{"--device", "dumped"}
		if compat {
			args = append(args, "--compat", "msprobe")
		}
		for call, r := range run(dumps["tensor"], args...) {
			if r[1] == "SKIP" || (calls[call] && !compat) {
				continue // not checkable; bfloat16 against the float64 bench
			}
			api := msAPIOf(call)
			why, known := msDumpedKnown[api]
			if !known && calls[call] {
				why, known = msDumpedBF16Known[api]
			}
			switch {
			case failed(r) && !known:
				t.Errorf("%v: %s does not pass: %v", args, call, r)
			case !failed(r) && known:
				t.Logf("%v: %s passes now (listed as known: %s)", args, call, why)
			}
		}
	}
}
