package host

import (
	"path/filepath"
	"testing"
)

// TestMindSporeFusedExample (issue 13): MindSpore's functional
// equivalents of the fused torch_npu operators (rms_norm, swiglu,
// rotary_position_embedding in both modes) in examples/mindspore are
// checked forward and backward and pass on the emulated device; a planted
// 1% defect on each canonical op turns its APIs into errors; with --compat
// msprobe, whose MindSpore checker does not check them, they get no row.
func TestMindSporeFusedExample(t *testing.T) {
	dump := filepath.Join(repo, "examples/mindspore/fused_statistics.json")
	run := func(args ...string) map[string][]string {
		out := t.TempDir()
		probeRun(t, append([]string{"run", "--framework", "mindspore", "--api-info", dump, "-o", out, "--quiet"}, args...)...)
		return resultRows(t, out)
	}
	want := map[string]string{"Functional.rms_norm.0": "npu.rms_norm", "Functional.swiglu.0": "npu.swiglu",
		"Functional.rotary_position_embedding.0": "npu.rotary_mul", "Functional.rotary_position_embedding.1": "npu.rotary_mul"}
	rows := run()
	if len(rows) != len(want) {
		t.Errorf("rows %v", rows)
	}
	for api := range want {
		r := rows[api]
		if len(r) < 3 || r[1] != "pass" || (r[2] != "pass" && api != "Functional.rotary_position_embedding.1") {
			t.Errorf("%s: %v, want pass", api, r)
		}
	}
	for _, op := range []string{"npu.rms_norm", "npu.swiglu", "npu.rotary_mul"} {
		bad := run("--device-option", "defect="+op+":rel=0.01")
		for api, o := range want {
			r := bad[api]
			if o == op && (len(r) < 2 || r[1] != "error") {
				t.Errorf("defect on %s: %s %v, want error", op, api, r)
			}
			if o != op && (len(r) < 2 || r[1] != "pass") {
				t.Errorf("defect on %s: %s %v, want pass", op, api, r)
			}
		}
	}
	if rows := run("--compat", "msprobe"); len(rows) != 0 {
		t.Errorf("--compat msprobe: rows %v, want none", rows)
	}
}
