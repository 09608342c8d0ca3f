package host

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// resultRows maps API name -> its whole result row.
func resultRows(t *testing.T, dir string) map[string][]string {
	t.Helper()
	rp, _ := csvPair(t, dir)
	out := map[string][]string{}
	for _, r := range readRows(t, rp)[1:] {
		out[r[0]] = r
	}
	return out
}

// The three kinds of Execute error reach the CSV as the contract says: a
// device failure (kernel or driver error) is an `error` row naming the
// plugin, an unsupported op or dtype is a SKIP naming plugin, op and dtype,
// and a call the framework would reject is a SKIP with its reason. The
// other APIs keep the rows of a clean run.
func TestDeviceErrorKinds(t *testing.T) {
	dump := filepath.Join(repo, "examples/convnet/tensor/dump.json")
	clean := t.TempDir()
	probeRun(t, "run", "--api-info", dump, "-o", clean, "--quiet")
	cres, cdet, _ := statuses(t, clean)
	for _, c := range []struct {
		fault, status string
		want          []string
	}{
		{"fail", "error", []string{"device plugin cpu-emulated failed", "relu: planted device failure"}},
		{"unsupported", "SKIP", []string{"device plugin cpu-emulated", "op relu at float32 is not supported"}},
	} {
		t.Run(c.fault, func(t *testing.T) {
			out := t.TempDir()
			probeRun(t, "run", "--api-info", dump, "-o", out, "--quiet", "--device-option", "fault="+c.fault+":Functional.relu.0")
			rows := resultRows(t, out)
			relu := rows["Functional.relu.0"]
			if relu == nil || relu[1] != c.status {
				t.Fatalf("Functional.relu.0: %q, want %s", relu, c.status)
			}
			for _, w := range c.want {
				if !strings.Contains(relu[3], w) {
					t.Errorf("message %q lacks %q", relu[3], w)
				}
			}
			res, det, _ := statuses(t, out)
			sameRowsExcept(t, "Functional.relu.0", cres, cdet, res, det)
		})
	}

	// An in-place add of a float into an int64 tensor: PyTorch refuses the
	// cast, so does the device: SKIP with PyTorch's message.
	js := `{"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {
 "Tensor.add_.0.forward": {"input_args": [
   {"type": "torch.Tensor", "dtype": "torch.int64", "shape": [4], "Max": 5, "Min": 0, "requires_grad": false},
   {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": 1, "Min": 0, "requires_grad": false}],
  "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.int64", "shape": [4], "Max": 5, "Min": 0}]}}}`
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.json")
	if err := os.WriteFile(path, []byte(js), 0o600); err != nil {
		t.Fatal(err)
	}
	probeRun(t, "run", "--api-info", path, "-o", dir, "--quiet")
	row := resultRows(t, dir)["Tensor.add_.0"]
	if row == nil || row[1] != "SKIP" || !strings.Contains(row[3], "can't be cast to the desired output type Long") {
		t.Errorf("Tensor.add_.0: %q", row)
	}
}

// probe conformance runs the kit against the built-in device in both modes
// (exit 0, the op × dtype table), and fails naming the op when a defect is
// planted.
func TestConformanceCommand(t *testing.T) {
	for _, name := range []string{"cpu", "cpu-emulated"} {
		out := probeRun(t, "conformance", name)
		if !strings.Contains(out, "OP") || !regexp.MustCompile(`\ngelu +float32 +pass`).MatchString(out) || !strings.Contains(out, " 0 FAIL") {
			t.Errorf("probe conformance %s:\n%s", name, out)
		}
	}
	out, err := probeCmd("conformance", "cpu-emulated", "--device-option", "defect=gelu:ulp=64").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("with a planted defect: exit %v\n%s", err, out)
	}
	last := strings.TrimSpace(string(out))
	last = last[strings.LastIndexByte(last, '\n')+1:]
	if !strings.Contains(last, "fails") || !strings.Contains(last, "gelu/float32") || strings.Contains(strings.ReplaceAll(last, "gelu/", ""), "/") {
		t.Errorf("the failure must name gelu and only gelu: %q", last)
	}
	if !regexp.MustCompile(`\ngelu +bfloat16 +FAIL`).Match(out) {
		t.Errorf("table:\n%s", out)
	}
	// A name that is neither configured nor a file is a usage error.
	if out, err := probeCmd("conformance", "no-such-plugin").CombinedOutput(); err == nil || !strings.Contains(string(out), "neither a device plugin of the configuration") {
		t.Errorf("unknown plugin: %v\n%s", err, out)
	}
}

// probe plugins --ops prints one row per canonical op with the frameworks
// that plan it and what each device declares.
func TestPluginsOpsMatrix(t *testing.T) {
	out := probeRun(t, "plugins", "--ops")
	for _, want := range []string{"OP", "mindspore", "pytorch", "cpu-emulated", "\nconvolution ", "f64,f32,f16,bf16 +bwd"} {
		if !strings.Contains(out, want) {
			t.Errorf("probe plugins --ops lacks %q:\n%s", want, out)
		}
	}
	// echo: no framework plans it (two "-" columns) whatever the widths
	if !regexp.MustCompile(`\necho +- +- +`).MatchString(out) {
		t.Errorf("probe plugins --ops lacks the echo row:\n%s", out)
	}
}
