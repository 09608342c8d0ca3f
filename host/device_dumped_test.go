package host

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/errordata"
	"github.com/probe-dev/probe/host/internal/tensorload"
	"github.com/probe-dev/probe/sdk/tensor"
)

// alterDumped rewrites the dumped tensor at key/field/index of dump dir
// (dump.json and dump_tensor_data/) as an .npy file whose element 0 is
// scaled by 1.5 (+1 if it is 0), and points the descriptor at it.
func alterDumped(t *testing.T, dir, key, field string, index int) {
	t.Helper()
	path := filepath.Join(dir, "dump.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	desc := doc["data"].(map[string]any)[key].(map[string]any)[field].([]any)[index].(map[string]any)
	name := desc["data_name"].(string)
	data := filepath.Join(dir, "dump_tensor_data")
	x, err := tensorload.Load(data, name, tensor.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	v := x.At(0)
	if v == 0 {
		v = 1
	}
	x.Set(0, v*1.5)
	altered := strings.TrimSuffix(name, filepath.Ext(name)) + ".altered.npy"
	f, err := os.Create(filepath.Join(data, altered))
	if err != nil {
		t.Fatal(err)
	}
	if err := errordata.WriteNPY(f, x); err != nil {
		t.Fatal(err)
	}
	f.Close()
	desc["data_name"] = altered
	out, _ := json.Marshal(doc)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-r", src+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
}

// TestDeviceDumpedPyTorch (issue 14): --device dumped judges the outputs
// and gradients a tensor-mode dump saved against the bench, running
// nothing on a device: the conv net's dump passes; one element altered in
// a forward output, or in a saved gradient, makes exactly that API's
// direction an error; a statistics dump is refused with the reason.
func TestDeviceDumpedPyTorch(t *testing.T) {
	run := func(dir string) map[string][]string {
		out := t.TempDir()
		probeRun(t, "run", "--device", "dumped", "--api-info", filepath.Join(dir, "dump.json"), "-o", out, "--quiet")
		return resultRows(t, out)
	}
	clean := t.TempDir()
	copyDir(t, filepath.Join(repo, "examples/convnet/tensor"), clean)
	rows := run(clean)
	for api, r := range rows {
		if r[1] != "pass" || (r[2] != "pass" && strings.TrimSpace(r[2]) != "") {
			t.Errorf("clean dump: %s %v", api, r)
		}
	}
	if len(rows) < 30 {
		t.Errorf("clean dump: %d rows", len(rows))
	}
	for _, c := range []struct {
		key, field string
		index      int
		api        string
		col        int // 1 forward, 2 backward
	}{
		{"Functional.relu.0.forward", "output", 0, "Functional.relu.0", 1},
		{"Functional.conv2d.0.backward", "output", 1, "Functional.conv2d.0", 2},
	} {
		dir := t.TempDir()
		copyDir(t, clean, dir)
		alterDumped(t, dir, c.key, c.field, c.index)
		got := run(dir)
		for api, r := range got {
			want := rows[api]
			if api == c.api {
				want = append([]string{}, want...)
				want[c.col] = "error"
			}
			if r[1] != want[1] || r[2] != want[2] {
				t.Errorf("%s altered: %s %v, want %v", c.key, api, r, want)
			}
		}
	}
	cmd := probeCmd("run", "--device", "dumped", "--api-info", filepath.Join(repo, "examples/convnet/statistics/dump.json"), "-o", t.TempDir(), "--quiet")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "is a statistics-mode dump") {
		t.Errorf("statistics dump: %v\n%s", err, out)
	}
}

// TestDeviceDumpedMindSpore: the same for a MindSpore tensor-mode dump
// (.npy files), which --compat msprobe judges this way by default as
// msprobe's MindSpore checker does.
func TestDeviceDumpedMindSpore(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "dump_tensor_data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	x := tensor.FromFloat64s(tensor.Float32, []int{2, 3}, []float64{-1.5, 0.25, 2, -0.5, 3, 1})
	y := tensor.FromFloat64s(tensor.Float32, []int{2, 3}, []float64{0, 0.25, 2, 0, 3, 1})
	for name, tt := range map[string]*tensor.Tensor{"x.npy": x, "y.npy": y} {
		f, err := os.Create(filepath.Join(data, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := errordata.WriteNPY(f, tt); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	desc := func(name string) map[string]any {
		return map[string]any{"type": "mindspore.Tensor", "dtype": "Float32", "shape": []int{2, 3}, "Max": 3.0, "Min": -1.5, "data_name": name}
	}
	doc := map[string]any{"task": "tensor", "framework": "mindspore", "dump_data_dir": "dump_tensor_data", "data": map[string]any{
		"MintFunctional.relu.0.forward": map[string]any{"input_args": []any{desc("x.npy")}, "input_kwargs": map[string]any{}, "output": []any{desc("y.npy")}},
	}}
	raw, _ := json.Marshal(doc)
	if err := os.WriteFile(filepath.Join(dir, "dump.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) []string {
		out := t.TempDir()
		probeRun(t, append([]string{"run", "--framework", "mindspore", "--api-info", filepath.Join(dir, "dump.json"), "-o", out, "--quiet"}, args...)...)
		return resultRows(t, out)["MintFunctional.relu.0"]
	}
	if r := run("--device", "dumped"); len(r) < 2 || r[1] != "pass" {
		t.Errorf("clean: %v", r)
	}
	alterDumped(t, dir, "MintFunctional.relu.0.forward", "output", 0)
	if r := run("--device", "dumped"); len(r) < 2 || r[1] != "error" {
		t.Errorf("altered: %v, want error", r)
	}
	// --compat msprobe judges the dumped outputs without being asked; the
	// re-run on the emulated device (the default otherwise) passes
	if r := run("--compat", "msprobe"); len(r) < 2 || r[1] != "error" {
		t.Errorf("altered, --compat msprobe: %v, want error", r)
	}
	if r := run(); len(r) < 2 || r[1] != "pass" {
		t.Errorf("altered, re-run on the emulated device: %v, want pass", r)
	}
}
