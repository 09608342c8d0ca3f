package host

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// npuDumpAPIs are the APIs scripts/make_npu_dump.py calls, by name
// without the call index, with the canonical op a planted defect goes on
// and what their backward column holds: bwdChecked for the NPU operators
// whose single differentiated output run_ut runs a backward for (its
// status follows the forward's), bwdNone for tuple outputs and the aten
// records (whose outputs are gradients), bwdOut for the optimizer steps
// that write out= (run_ut's SKIP: out= arguments have no autograd).
var npuDumpAPIs = []struct {
	api, op string
	bwd     int
}{
	{"NPU.npu_swiglu", "npu.swiglu", bwdChecked},
	{"NPU.npu_rotary_mul", "npu.rotary_mul", bwdChecked},
	{"NPU.npu_fast_gelu", "npu.fast_gelu", bwdChecked},
	{"NPU.npu_mish", "npu.mish", bwdChecked},
	{"NPU.npu_scaled_masked_softmax", "npu.scaled_masked_softmax", bwdChecked},
	{"NPU.npu_confusion_transpose", "npu.confusion_transpose", bwdChecked},
	{"NPU.npu_linear", "npu.linear", bwdChecked},
	{"NPU.npu_layer_norm_eval", "npu.layer_norm_eval", bwdChecked},
	{"NPU.npu_rms_norm", "npu.rms_norm", bwdNone},
	{"NPU.npu_group_norm_silu", "npu.group_norm_silu", bwdNone},
	{"NPU.npu_moe_gating_top_k_softmax", "npu.moe_gating_top_k_softmax", bwdNone},
	{"NPU.npu_apply_adam", "npu.apply_adam", bwdOut},
	{"NPU.npu_apply_adam_w", "npu.apply_adam_w", bwdOut},
	{"NPU.npu_sort_v2", "npu.sort_v2", bwdChecked},
	{"NPU.npu_fusion_attention", "npu.fusion_attention", bwdChecked},
	{"Aten.npu_fusion_attention_grad", "npu.fusion_attention_grad", bwdNone},
	{"Aten.matmul_backward", "matmul_backward", bwdNone},
	{"Aten.npu_fast_gelu_backward", "npu.fast_gelu_backward", bwdNone},
	{"Aten.npu_swiglu_backward", "npu.swiglu_backward", bwdNone},
	{"Aten.npu_rotary_mul_backward", "npu.rotary_mul_backward", bwdNone},
	{"Aten.npu_linear_backward", "npu.linear_backward", bwdNone},
	{"Aten.npu_rms_norm_backward", "npu.rms_norm_backward", bwdNone},
	{"Aten.npu_scaled_masked_softmax_backward", "npu.scaled_masked_softmax_backward", bwdNone},
	// the backward's data movement is the forward op with the inverse permutation
	{"Aten.npu_confusion_transpose_backward", "npu.confusion_transpose", bwdNone},
}

const (
	bwdChecked = iota
	bwdNone
	bwdOut
)

// npuDumpAttentionCalls is the number of npu_fusion_attention calls of
// make_npu_dump.py (layouts × sparse modes × MHA/GQA, float32 and bfloat16).
const npuDumpAttentionCalls = 10

// apiStem is a result row's API name without its call index.
func apiStem(api string) string {
	if i := strings.LastIndexByte(api, '.'); i > 0 {
		return api[:i]
	}
	return api
}

// TestNPUOpsDump (issue 13): the msprobe-format tensor dump of
// scripts/make_npu_dump.py, which calls each fused operator once (and
// npu_fusion_attention in every layout; made here: it needs
// /usr/bin/python3 with torch), has every operator and aten backward record
// checked, forward and backward where run_ut runs one, and passing on the
// emulated device, and a planted 1% defect on an operator's canonical op
// turns that operator's rows into errors and no other row. The defects
// are planted a few ops per run (each run checks its ops' rows error and
// the others pass) to keep the test short. The same dump judged as saved
// (--device dumped) passes, and on the torch device plugin each row passes
// or is a SKIP for an op the plugin runs only through torch_npu.
func TestNPUOpsDump(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: an end-to-end run on a generated dump (about 10 s)")
	}
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
	opOf := map[string]string{}
	bwd := map[string]int{}
	for _, e := range npuDumpAPIs {
		opOf[e.api], bwd[e.api] = e.op, e.bwd
	}
	// want is a row's expected forward and backward status.
	want := func(api, status string) [2]string {
		switch bwd[apiStem(api)] {
		case bwdChecked:
			return [2]string{status, status}
		case bwdOut:
			return [2]string{status, "SKIP"}
		}
		return [2]string{status, " "}
	}
	rows := run()
	if n := len(npuDumpAPIs) - 1 + npuDumpAttentionCalls; len(rows) != n {
		t.Errorf("%d result rows, want %d: %v", len(rows), n, rows)
	}
	seen := map[string]int{}
	for api, r := range rows {
		stem := apiStem(api)
		seen[stem]++
		if _, ok := opOf[stem]; !ok {
			t.Errorf("%s: %v, an API make_npu_dump.py does not call", api, r)
			continue
		}
		if w := want(api, "pass"); len(r) < 3 || r[1] != w[0] || r[2] != w[1] {
			t.Errorf("%s: %v, want forward %q backward %q", api, r, w[0], w[1])
		}
	}
	for _, e := range npuDumpAPIs {
		if seen[e.api] == 0 {
			t.Errorf("%s: no result row", e.api)
		}
	}
	if seen["NPU.npu_fusion_attention"] != npuDumpAttentionCalls {
		t.Errorf("%d NPU.npu_fusion_attention rows, want %d", seen["NPU.npu_fusion_attention"], npuDumpAttentionCalls)
	}

	// What the dump saved, judged as the device's (--device dumped): the
	// formulas' outputs and the backward records' gradients of the API's
	// inputs pass.
	for api, r := range run("--device", "dumped") {
		if w := want(api, "pass"); len(r) < 3 || r[1] != w[0] || r[2] != w[1] {
			t.Errorf("--device dumped: %s: %v, want forward %q backward %q", api, r, w[0], w[1])
		}
	}

	// The torch device plugin, where it starts: without torch_npu it runs
	// the operators it offers through their defining formulas, which must
	// pass; an op it runs only through torch_npu on an Ascend NPU is a SKIP
	// naming the op.
	if _, err := choosePython(context.Background(), "torch", "", pythonBuiltins["torch"]); err == nil {
		offered := 0
		for api, r := range run("--device", "torch") {
			op := opOf[apiStem(api)]
			switch {
			case len(r) >= 4 && r[1] == "SKIP" && strings.Contains(r[3], "does not support op "+op+" "):
			case len(r) >= 3 && r[1] == "pass" && r[2] == want(api, "pass")[1]:
				offered++
			default:
				t.Errorf("--device torch: %s: %v, want pass or a SKIP for op %s not offered", api, r, op)
			}
		}
		t.Logf("--device torch: %d of %d rows run on the torch plugin", offered, len(rows))
	} else {
		t.Logf("the torch device plugin does not start (%v): not checked with --device torch", err)
	}

	var ops []string
	for _, e := range npuDumpAPIs {
		if !slices.Contains(ops, e.op) {
			ops = append(ops, e.op)
		}
	}
	sort.Strings(ops)
	const perRun = 5
	for i := 0; i < len(ops); i += perRun {
		group := ops[i:min(i+perRun, len(ops))]
		var defects []string
		planted := map[string]bool{}
		for _, op := range group {
			defects = append(defects, op+":rel=0.01")
			planted[op] = true
		}
		bad := run("--device-option", "defect="+strings.Join(defects, ";"))
		if len(bad) != len(rows) {
			t.Errorf("defects on %v: %d rows, want %d", group, len(bad), len(rows))
		}
		for api := range rows {
			r, status := bad[api], "pass"
			if planted[opOf[apiStem(api)]] {
				status = "error"
			}
			if w := want(api, status); len(r) < 3 || r[1] != w[0] || r[2] != w[1] {
				t.Errorf("a planted 1%% defect on %v: %s: %v, want forward %q backward %q", group, api, r, w[0], w[1])
			}
		}
	}
}
