package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMindTorchExample (issue 14): an MsAdapter dump ("framework":
// "mindtorch") in examples/mindspore has its Torch., Functional. and
// Tensor. calls checked with PyTorch's semantics, forward and backward, in
// MindSpore's result format; they pass on the emulated device, and a
// planted 1% defect in matmul turns Torch.matmul into an error.
// Torch.linalg.vector_norm is checked too; with --compat msprobe it SKIPs,
// as msprobe resolves only <type>.<api>.<index>. Its NPU. call is not
// checked (no row with --compat msprobe). The same dump marked
// "framework": "mindspore" keeps msprobe's MindSpore rules: Torch.* and
// Functional.gelu are not checkable, Tensor.add (in the checker's list) is
// checked.
func TestMindTorchExample(t *testing.T) {
	dump := filepath.Join(repo, "examples/mindspore/mindtorch_statistics.json")
	run := func(dump string, args ...string) map[string][]string {
		out := t.TempDir()
		probeRun(t, append([]string{"run", "--framework", "mindspore", "--api-info", dump, "-o", out, "--quiet"}, args...)...)
		return resultRows(t, out)
	}
	checked := map[string]string{"Torch.matmul.0": "pass", "Functional.gelu.0": "pass", "Tensor.add.0": "pass", "Torch.sum.0": ""}
	for _, compat := range []bool{false, true} {
		var args []string
		if compat {
			args = []string{"--compat", "msprobe"}
		}
		rows := run(dump, args...)
		for api, bwd := range checked {
			if r := rows[api]; len(r) < 3 || r[1] != "pass" || r[2] != bwd {
				t.Errorf("compat %v: %s %v, want forward pass, backward %q", compat, api, r, bwd)
			}
		}
		switch r := rows["Torch.linalg.vector_norm.0"]; {
		case compat && (len(r) < 4 || r[1] != "SKIP" || !strings.Contains(r[3], "exactly three segments")):
			t.Errorf("compat: Torch.linalg.vector_norm.0 %v, want SKIP", r)
		case !compat && (len(r) < 3 || r[1] != "pass" || r[2] != "pass"):
			t.Errorf("Torch.linalg.vector_norm.0 %v, want pass", r)
		}
		npu, ok := rows["NPU.npu_rms_norm.0"]
		switch {
		case compat && ok:
			t.Errorf("compat: NPU row %v, want none", npu)
		case !compat && (len(npu) < 4 || npu[1] != "SKIP" || !strings.Contains(npu[3], "not checked in MindTorch dumps")):
			t.Errorf("NPU row %v", npu)
		}
		if len(rows) != len(checked)+map[bool]int{false: 2, true: 1}[compat] {
			t.Errorf("compat %v: rows %v", compat, rows)
		}
	}
	bad := run(dump, "--device-option", "defect=matmul:rel=0.01")
	if r := bad["Torch.matmul.0"]; len(r) < 2 || r[1] != "error" {
		t.Errorf("defect on matmul: Torch.matmul.0 %v, want error", r)
	}

	data, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	ms := strings.Replace(string(data), `"framework": "mindtorch"`, `"framework": "mindspore"`, 1)
	if ms == string(data) {
		t.Fatal("the example has no \"framework\": \"mindtorch\"")
	}
	msDump := filepath.Join(t.TempDir(), "dump.json")
	if err := os.WriteFile(msDump, []byte(ms), 0o600); err != nil {
		t.Fatal(err)
	}
	rows := run(msDump)
	for _, api := range []string{"Torch.matmul.0", "Functional.gelu.0", "Torch.sum.0", "Torch.linalg.vector_norm.0"} {
		if r := rows[api]; len(r) < 4 || r[1] != "SKIP" || !strings.Contains(r[3], "not checked") {
			t.Errorf("framework mindspore: %s %v, want SKIP (not checkable)", api, r)
		}
	}
	if r := rows["Tensor.add.0"]; len(r) < 3 || r[1] != "pass" || r[2] != "pass" {
		t.Errorf("framework mindspore: Tensor.add.0 %v, want pass", r)
	}
	if rows := run(msDump, "--compat", "msprobe"); len(rows) != 1 || rows["Tensor.add.0"] == nil {
		t.Errorf("framework mindspore, --compat msprobe: rows %v, want Tensor.add.0 only", rows)
	}
}
