package host

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// npuDumpOps are the fused torch_npu operators scripts/make_npu_dump.py
// calls, by their canonical op's suffix (npu.<op>, NPU.npu_<op>).
var npuDumpOps = []string{"swiglu", "rotary_mul", "fast_gelu", "mish", "scaled_masked_softmax", "confusion_transpose", "linear", "layer_norm_eval"}

// TestNPUOpsDump (issue 13): the msprobe-format tensor dump of
// scripts/make_npu_dump.py, which calls each fused operator once (made here:
// it needs /usr/bin/python3 with torch), has every operator checked forward
// and backward and passing on the emulated device, and a planted 1% defect
// on an operator's canonical op turns that operator's row into an error.
func TestNPUOpsDump(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import torch").Run(); err != nil {
		t.Skipf("skipping: /usr/bin/python3 with torch makes the dump (%v)", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("/usr/bin/python3", filepath.Join(repo, "scripts/make_npu_dump.py"), "--out", dir).CombinedOutput(); err != nil {
		t.Fatalf("make_npu_dump.py: %v\n%s", err, out)
	}
	dump := filepath.Join(dir, "dump.json")
	run := func(args ...string) map[string][]string {
		out := t.TempDir()
		probeRun(t, append([]string{"run", "--framework", "pytorch", "--api-info", dump, "-o", out, "--quiet"}, args...)...)
		return resultRows(t, out)
	}
	rows := run()
	if len(rows) != len(npuDumpOps) {
		t.Errorf("%d result rows, want %d: %v", len(rows), len(npuDumpOps), rows)
	}
	for _, op := range npuDumpOps {
		api := "NPU.npu_" + op + ".0"
		if r := rows[api]; len(r) < 3 || r[1] != "pass" || r[2] != "pass" {
			t.Errorf("%s: %v, want pass forward and backward", api, r)
		}
	}
	for _, op := range npuDumpOps {
		api := "NPU.npu_" + op + ".0"
		bad := run("--device-option", "defect=npu."+op+":rel=0.01")
		if r := bad[api]; len(r) < 3 || r[1] != "error" || r[2] != "error" {
			t.Errorf("%s with a planted 1%% defect on npu.%s: %v, want error forward and backward", api, op, r)
		}
		for other, r := range bad {
			if other != api && (len(r) < 3 || r[1] != "pass" || r[2] != "pass") {
				t.Errorf("defect on npu.%s: %s: %v, want pass", op, other, r)
			}
		}
	}
}
