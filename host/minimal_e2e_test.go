package host

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// examples/device-minimal is a third-party plugin (its own module, only
// the SDK): built as a binary it passes probe conformance for what it
// declares, shows up in the support matrix, and as the device under test
// of a run it checks what it declares and leaves SKIP rows naming the
// plugin and the op or dtype for the rest.
func TestMinimalDevicePlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a separate module (-short)")
	}
	bin := filepath.Join(t.TempDir(), "minimal")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(repo, "examples", "device-minimal")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build examples/device-minimal: %v\n%s", err, out)
	}

	out := probeRun(t, "conformance", bin)
	rows := map[string]string{} // "op dtype" -> result
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 3 {
			rows[f[0]+" "+f[1]] = f[2]
		}
	}
	for _, op := range []string{"add", "mul", "neg", "relu"} {
		for _, dt := range []string{"float32", "float64"} {
			if rows[op+" "+dt] != "pass" {
				t.Errorf("conformance table: %s %s is %q, want pass:\n%s", op, dt, rows[op+" "+dt], out)
			}
		}
	}
	if !strings.Contains(out, "that the device does not declare (") || !strings.Contains(out, ": abs, ") || !strings.Contains(out, " adaptive_avg_pool2d, ") {
		t.Errorf("conformance table does not list the undeclared ops:\n%s", out)
	}
	if !strings.Contains(out, "8 pass, 0 FAIL") {
		t.Errorf("conformance summary:\n%s", out)
	}
	// Options the plugin does not take stop the check with its message.
	if out, err := probeCmd("conformance", bin, "--device-option", "speed=fast").CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown option(s) [speed]") {
		t.Errorf("conformance with a bad option: %v\n%s", err, out)
	}

	cfg := filepath.Join(t.TempDir(), "probe.toml")
	toml := fmt.Sprintf("version = 1\n[run]\ndevice = \"minimal\"\n[plugins.device.minimal]\ncommand = %q\n", bin)
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	matrix := probeRun(t, "plugins", "--config", cfg, "--ops")
	if !strings.Contains(matrix, "minimal") || !strings.Contains(matrix, "f32,f64 +bwd") {
		t.Errorf("support matrix:\n%s", matrix)
	}

	dir := t.TempDir()
	probeRun(t, "run", "--config", cfg, "--api-info", filepath.Join(repo, "examples/convnet/tensor/dump.json"), "-o", dir, "--quiet")
	results := resultRows(t, dir)
	if len(results) < 30 {
		t.Fatalf("%d result rows", len(results))
	}
	checked, skipped := 0, 0
	for name, r := range results {
		switch {
		case r[1] == "SKIP":
			skipped++
			if !strings.Contains(r[3], "device plugin minimal does not support op ") {
				t.Errorf("%s: SKIP without naming the plugin and op: %q", name, r[3])
			}
		case r[1] == "pass":
			checked++
		default:
			t.Errorf("%s: %q", name, r)
		}
	}
	if row := results["Functional.conv2d.0"]; row == nil || !strings.Contains(row[3], "does not support op convolution (not among the ops it declares)") {
		t.Errorf("conv2d: %q", row)
	}
	if row := results["Functional.relu.0"]; row == nil || row[1] != "pass" {
		t.Errorf("relu: %q", row)
	}
	if checked == 0 || skipped == 0 {
		t.Errorf("%d checked, %d skipped", checked, skipped)
	}
}
