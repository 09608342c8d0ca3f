package host

// End-to-end tests of the torch device plugin (plugins/torch), the real
// PyTorch as the device under test. They need a Python with torch, grpcio
// and protobuf (.ci/run installs Debian's python3-torch, python3-grpcio and
// python3-protobuf) and skip with a message without one.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// needTorch skips the test unless the torch plugin can start, and returns
// the interpreter probe would choose.
func needTorch(t *testing.T) string {
	t.Helper()
	py, err := choosePython(context.Background(), "torch", "", pythonBuiltins["torch"])
	if err != nil {
		t.Skipf("skipping the torch device plugin test: %v", err)
	}
	return py
}

// torchConvnetBiasGrads are the conv net's rows that test the judging of
// values close to zero with real PyTorch: each conv2d feeds a batch_norm,
// which removes the per-channel mean, so the gradient of the conv2d bias is
// exactly zero; float32 sums it to rounding noise (|g| ≈ 1e-8,
// bit-identical to the gradient dumped from the training run itself) and
// the float64 bench to other noise (≈ 1e-9). The cosine of two noise
// vectors is far below 0.99, so msprobe's tree (--compat msprobe) reports
// an error; probe judges values within the small-value threshold by their
// max abs error and passes them (docs/compat.md row 22).
var torchConvnetBiasGrads = []string{"Functional.conv2d.0.backward.output.2", "Functional.conv2d.1.backward.output.2"}

// On the conv net's tensor dump every API runs with the real PyTorch and
// passes; with --compat msprobe the two bias gradients above fail the
// cosine.
func TestTorchConvnet(t *testing.T) {
	needTorch(t)
	dump := filepath.Join(repo, "examples/convnet/tensor/dump.json")
	for _, compat := range []bool{false, true} {
		out := t.TempDir()
		args := []string{"run", "--device", "torch", "--api-info", dump, "-o", out, "--quiet"}
		if compat {
			args = append(args, "--compat", "msprobe")
		}
		stdout := probeRun(t, args...)
		if !strings.Contains(stdout, `device "torch"`) || !strings.Contains(stdout, "APIs checked: 35") {
			t.Errorf("summary (compat %v):\n%s", compat, stdout)
		}
		res, _, _ := statuses(t, out)
		if len(res) != 35 {
			t.Errorf("%d result rows, want 35", len(res))
		}
		for name, st := range res {
			bwd := strings.TrimSpace(st[1])
			if compat && strings.HasPrefix(name, "Functional.conv2d.") {
				if st[0] != "pass" || bwd != "error" {
					t.Errorf("%s (compat): %v, want forward pass, backward error (the bias gradient)", name, st)
				}
				continue
			}
			if st[0] != "pass" || (bwd != "pass" && bwd != "") {
				t.Errorf("%s (compat %v): %v, want pass", name, compat, st)
			}
		}
		_, dp := csvPair(t, out)
		for _, r := range readRows(t, dp)[1:] {
			name, status, msg := r[0], r[len(r)-2], r[len(r)-1]
			switch {
			case slices.Contains(torchConvnetBiasGrads, name) && compat:
				if status != "error" || !strings.Contains(msg, "Cosine similarity is less than 0.99") {
					t.Errorf("%s (compat): %s %q, want the cosine error", name, status, msg)
				}
			case slices.Contains(torchConvnetBiasGrads, name):
				if status != "pass" || !strings.Contains(msg, "rounding noise") {
					t.Errorf("%s: %s %q, want a pass for values close to zero", name, status, msg)
				}
			case status == "SKIP" && strings.Contains(msg, "Bench output is None"):
				// an input that takes no gradient (the image)
			case status != "pass":
				t.Errorf("details row %s (compat %v): %s %q", name, compat, status, msg)
			}
		}
	}
}

// `probe conformance torch` runs the kit over the plugin on the CPU and
// passes; `probe plugins` names torch's version and the device.
func TestTorchConformanceAndDescribe(t *testing.T) {
	py := needTorch(t)
	// native CPU kernels: the golden kit's bfloat16 convolutions are theirs
	out, err := probeCmd("conformance", "torch", "--device-option", "onednn=false").CombinedOutput()
	if err != nil {
		t.Fatalf("probe conformance torch: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), " pass ") {
		t.Errorf("conformance table:\n%s", out)
	}
	ver, err := exec.Command(py, "-c", "import torch; print(torch.__version__)").Output()
	if err != nil {
		t.Fatal(err)
	}
	plugins := probeRun(t, "plugins")
	want := "PyTorch " + strings.TrimSpace(string(ver)) + " on cpu"
	for _, l := range strings.Split(plugins, "\n") {
		if strings.HasPrefix(l, "device ") && strings.Fields(l)[1] == "torch" {
			if !strings.Contains(l, want) {
				t.Errorf("probe plugins: %q lacks %q", l, want)
			}
			return
		}
	}
	t.Errorf("probe plugins lists no device torch:\n%s", plugins)
}

// A crash of the Python process on one API is an `error` row for that API;
// the plugin is restarted and every other API ends as in a clean run.
func TestTorchCrashRestarts(t *testing.T) {
	needTorch(t)
	dump := filepath.Join(repo, "examples/convnet/tensor/dump.json")
	clean := t.TempDir()
	probeRun(t, "run", "--device", "torch", "--api-info", dump, "-o", clean, "--quiet")
	cres, cdet, _ := statuses(t, clean)
	out := t.TempDir()
	stdout := probeRun(t, "run", "--device", "torch", "--api-info", dump, "-o", out, "--quiet",
		"--device-option", "fault=crash:Functional.relu.0")
	res, det, _ := statuses(t, out)
	rows := resultRows(t, out)
	if relu := rows["Functional.relu.0"]; relu == nil || relu[1] != "error" || !strings.Contains(relu[3], "crashed") {
		t.Errorf("Functional.relu.0: %q, want an error row saying the plugin crashed", relu)
	}
	sameRowsExcept(t, "Functional.relu.0", cres, cdet, res, det)
	if !strings.Contains(stdout, "Functional.relu.0") {
		t.Errorf("summary does not name the failed API:\n%s", stdout)
	}
}

// SIGKILL of probe while the torch plugin is in a call leaves no Python
// process behind.
func TestTorchSIGKILLLeavesNoPython(t *testing.T) {
	needTorch(t)
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc")
	}
	cmd := probeCmd("run", "--device", "torch", "--api-info", filepath.Join(repo, "examples/convnet/tensor/dump.json"),
		"-o", t.TempDir(), "--quiet", "--api-timeout", "10m", "--device-option", "fault=hang:Functional.relu.0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var kids []int
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if kids = childrenMatching(cmd.Process.Pid, "probe_device_torch.py"); len(kids) > 0 {
			break
		}
	}
	if len(kids) == 0 {
		t.Fatal("no torch plugin process appeared")
	}
	time.Sleep(3 * time.Second) // let it import torch and reach the hanging API
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if !alive(kids[0]) {
			return
		}
	}
	syscall.Kill(kids[0], syscall.SIGKILL)
	t.Fatalf("torch plugin %d outlived the SIGKILLed host", kids[0])
}

// Without torch (a virtual environment that cannot see Debian's packages)
// `probe run --device torch` fails at once with one line that names the
// interpreter, what it lacks and what to install, and writes nothing; the
// default device still works with the same configuration.
func TestTorchMissingModules(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 to make a virtual environment from")
	}
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command("/usr/bin/python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("cannot make a virtual environment: %v\n%s", err, out)
	}
	py := filepath.Join(venv, "bin", "python3")
	cfg := filepath.Join(t.TempDir(), "probe.toml")
	if err := os.WriteFile(cfg, []byte("version = 1\n[plugins.device.torch]\nbuiltin = \"torch\"\npython = \""+py+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(repo, "examples/convnet/tensor/dump.json")
	out := filepath.Join(t.TempDir(), "out")
	cmd := probeCmd("run", "--config", cfg, "--device", "torch", "--api-info", dump, "-o", out)
	stdout, err := cmd.Output()
	if err == nil {
		t.Fatalf("probe run succeeded without torch:\n%s", stdout)
	}
	stderr := strings.TrimSpace(string(err.(*exec.ExitError).Stderr))
	if strings.Count(stderr, "\n") != 0 {
		t.Errorf("want one line, got:\n%s", stderr)
	}
	for _, want := range []string{py, "lacks torch, grpc, google.protobuf", "apt-get install python3-torch python3-grpcio python3-protobuf", "[plugins.device.torch]"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("message lacks %q: %s", want, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was created", out)
	}
	stdoutOK := probeRun(t, "run", "--config", cfg, "--api-info", dump, "-o", t.TempDir(), "--quiet")
	if !strings.Contains(stdoutOK, "APIs checked: 35") {
		t.Errorf("default device run:\n%s", stdoutOK)
	}
}

// Tensors larger than a gRPC message travel through the host's shared
// memory both ways: the plugin reads its inputs from the segment and
// writes its outputs (and gradients) after them, growing the file.
func TestTorchLargeTensors(t *testing.T) {
	py := needTorch(t)
	dev, _ := startTorch(t, py)
	ctx := context.Background()
	const n = 6 << 20 // 24 MiB of float32 per tensor: six times the message limit
	a := tensor.New(tensor.Float32, []int{n})
	b := tensor.New(tensor.Float32, []int{n})
	for i := 0; i < n; i++ {
		a.Set(i, float64(i%1000)-500.5)
		b.Set(i, float64((i*7)%997)/8)
	}
	g := tensor.New(tensor.Float32, []int{n})
	for i := 0; i < n; i++ {
		g.Set(i, float64(i%3)-1)
	}
	res, err := dev.Execute(ctx, &device.ExecRequest{API: "large", Op: "add", Inputs: []ops.Value{ops.T(a), ops.T(b)},
		Attrs: ops.Attrs{"alpha": ops.FloatAttr(2)}, RequiresGrad: []bool{true, true}, Backward: true, GradOutputs: []*tensor.Tensor{g}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outputs) != 1 || len(res.InputGrads) != 2 {
		t.Fatalf("%d outputs, %d gradients", len(res.Outputs), len(res.InputGrads))
	}
	out, ga, gb := res.Outputs[0], res.InputGrads[0], res.InputGrads[1]
	for i := 0; i < n; i += 4099 {
		// Exact in float32: small integers and eighths.
		if want := a.At(i) + 2*b.At(i); out.At(i) != want {
			t.Fatalf("out[%d] = %v, want %v", i, out.At(i), want)
		}
		if ga.At(i) != g.At(i) || gb.At(i) != 2*g.At(i) {
			t.Fatalf("grads[%d] = %v, %v for g = %v", i, ga.At(i), gb.At(i), g.At(i))
		}
	}

	// Results that are views of the request's segment travel back by
	// reference: an in-place op's input 0, and the pieces of a split (at
	// offsets inside the input). Twice, so that the second call reuses the
	// warm segment and mapping.
	for round := 0; round < 2; round++ {
		res, err := dev.Execute(ctx, &device.ExecRequest{API: "large_", Op: "add", Inputs: []ops.Value{ops.T(a), ops.T(b)},
			Attrs: ops.Attrs{"alpha": ops.FloatAttr(2), "inplace": ops.BoolAttr(true)}})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i += 4099 {
			if want := a.At(i) + 2*b.At(i); res.Outputs[0].At(i) != want {
				t.Fatalf("round %d: in-place out[%d] = %v, want %v", round, i, res.Outputs[0].At(i), want)
			}
		}
		sizes := []int64{n/2 - 1, 3, n/2 - 2}
		res, err = dev.Execute(ctx, &device.ExecRequest{API: "split", Op: "split_with_sizes", Inputs: []ops.Value{ops.T(a)},
			Attrs: ops.Attrs{"split_sizes": ops.IntsAttr(sizes...)}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Outputs) != 3 {
			t.Fatalf("split: %d outputs", len(res.Outputs))
		}
		start := 0
		for k, o := range res.Outputs {
			if o.Shape[0] != int(sizes[k]) {
				t.Fatalf("split piece %d: shape %v, want [%d]", k, o.Shape, sizes[k])
			}
			for i := 0; i < int(sizes[k]); i += 997 {
				if o.At(i) != a.At(start+i) {
					t.Fatalf("round %d: split piece %d [%d] = %v, want %v", round, k, i, o.At(i), a.At(start+i))
				}
			}
			start += int(sizes[k])
		}
	}
}

// BenchmarkTorchEcho256MiB moves a 256 MiB float32 tensor host → torch
// plugin → host (echo: no kernel time), through shared memory.
func BenchmarkTorchEcho256MiB(b *testing.B) {
	py, err := choosePython(context.Background(), "torch", "", pythonBuiltins["torch"])
	if err != nil {
		b.Skipf("needs the torch plugin's Python: %v", err)
	}
	dev, _ := startTorch(b, py)
	x := tensor.New(tensor.Float32, []int{64 << 20})
	for i := range x.Data {
		x.Data[i] = byte(i)
	}
	req := &device.ExecRequest{API: "echo", Op: "echo", Inputs: []ops.Value{ops.T(x)}}
	b.SetBytes(int64(len(x.Data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := dev.Execute(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
