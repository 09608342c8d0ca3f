package host

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSDPAExample: a dump of a PyTorch 2-style model (examples/sdpa,
// hand-made in msprobe's format: PyTorch 1.13 has no
// scaled_dot_product_attention) has every scaled_dot_product_attention
// call checked forward and backward — causal, bool mask, float mask with
// a scale, float32 and bfloat16 — and a planted defect on the op fails
// them.
func TestSDPAExample(t *testing.T) {
	dump := filepath.Join(repo, "examples/sdpa/dump.json")
	run := func(args ...string) map[string][]string {
		dir := t.TempDir()
		probeRun(t, append([]string{"run", "--framework", "pytorch", "--api-info", dump, "-o", dir, "--quiet"}, args...)...)
		return resultRows(t, dir)
	}
	rows := run()
	n := 0
	for api, r := range rows {
		if !strings.HasPrefix(api, "Functional.scaled_dot_product_attention.") {
			continue
		}
		n++
		for i, side := range []string{"forward", "backward"} {
			if s := r[1+i]; s != "pass" && s != "Warning" && s != "error" {
				t.Errorf("%s %s: %q, want a verdict (%v)", api, side, s, r)
			}
		}
	}
	if n != 4 {
		t.Fatalf("%d scaled_dot_product_attention rows, want 4: %v", n, rows)
	}
	bad := run("--device-option", "defect=scaled_dot_product_attention:rel=0.05")
	for api, r := range bad {
		if strings.HasPrefix(api, "Functional.scaled_dot_product_attention.") && r[1] != "error" {
			t.Errorf("%s with a planted 5%% defect: forward %q, want error", api, r[1])
		}
	}
}
