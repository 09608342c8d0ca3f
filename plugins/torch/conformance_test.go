package torch

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// pythonWithTorch returns an interpreter that imports what the plugin
// needs (python3 on PATH, else /usr/bin/python3), or skips the test.
func pythonWithTorch(t *testing.T) string {
	t.Helper()
	var tried []string
	for _, c := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		out, err := exec.Command(path, "-c", "import torch, grpc, google.protobuf").CombinedOutput()
		if err == nil {
			return path
		}
		tried = append(tried, path+": "+strings.TrimSpace(lastLine(string(out))))
	}
	t.Skipf("skipping the torch plugin test: no Python with torch, grpcio and protobuf (%s)", strings.Join(tried, "; "))
	return ""
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// startPlugin starts the embedded plugin with py as the host does (go-plugin
// over gRPC) and configures it for the CPU.
func startPlugin(t *testing.T, py string) device.Device {
	t.Helper()
	script, err := Materialize(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  pluginrpc.Handshake,
		VersionedPlugins: pluginrpc.HostPluginSets(transport.Options{}),
		Cmd:              exec.Command(py, "-u", script),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		StartTimeout:     2 * time.Minute,
		Stderr:           os.Stderr,
	})
	t.Cleanup(client.Kill)
	rpc, err := client.Client()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := rpc.Dispense(pluginrpc.KindDevice)
	if err != nil {
		t.Fatal(err)
	}
	dev := raw.(device.Device)
	if err := dev.Configure(context.Background(), device.Config{Options: map[string]string{"device": "cpu"}}); err != nil {
		t.Fatal(err)
	}
	return dev
}

// The conformance kit's cases of the fused npu.* ops, run through the
// plugin on the CPU (torch_npu absent: the defining formulas; the pairs it
// does not declare there are unsupported, not failures), among them the
// msprobe_* cases of semantics "msprobe": msprobe's references as the bench
// of --compat msprobe computes them (fused-ops.md §17). Those are written
// with the torch ops the plugin runs, so they are held to the case's own
// tolerance without the kit's floor (float64's atol 1e-7 would pass a
// float64 softmax where the reference's float32 exp underflows to 0).
func TestConformanceNPU(t *testing.T) {
	py := pythonWithTorch(t)
	var npu []string
	for _, n := range ops.Names() {
		if strings.HasPrefix(n, "npu.") {
			npu = append(npu, n)
		}
	}
	tol := func(c *devicetest.Case, dt tensor.DType) devicetest.Tolerance {
		if c == nil || c.Request.Attrs.Str("semantics", "official") != "msprobe" {
			return devicetest.DefaultTolerance(c, dt)
		}
		var t devicetest.Tolerance
		for _, f := range []struct {
			to   *float64
			from *float64
		}{{&t.RTol, c.RTol}, {&t.ATol, c.ATol}, {&t.ULP, c.ULP}} {
			if f.from != nil {
				*f.to = *f.from
			}
		}
		return t
	}
	devicetest.Run(t, startPlugin(t, py), devicetest.Options{Ops: npu, Tolerance: tol})
}

// Under semantics "msprobe" npu.layer_norm_eval's weight and bias take no
// gradient at all: nil, which the host reports as msprobe does ("Bench
// output is None"), not zeros, which it would compare (docs/compat.md row
// 37); the official op gives both.
func TestLayerNormEvalMsprobeGrads(t *testing.T) {
	dev := startPlugin(t, pythonWithTorch(t))
	x := tensor.FromFloat64s(tensor.Float64, []int{2, 4}, []float64{1, 2, 3, 4, -1, 0.5, 2, 0})
	w := tensor.FromFloat64s(tensor.Float64, []int{4}, []float64{1, 2, 1, 1})
	b := tensor.FromFloat64s(tensor.Float64, []int{4}, []float64{0, 0, 0, 1})
	for _, sem := range []string{"official", "msprobe"} {
		req := &device.ExecRequest{
			API: "npu_layer_norm_eval." + sem, Op: "npu.layer_norm_eval",
			Inputs:       []ops.Value{ops.T(x), ops.T(w), ops.T(b)},
			RequiresGrad: []bool{true, true, true},
			Attrs:        ops.Attrs{"normalized_shape": ops.IntsAttr(4), "eps": ops.FloatAttr(0.1), "semantics": ops.StringAttr(sem)},
			Backward:     true,
			GradOutputs:  []*tensor.Tensor{tensor.FromFloat64s(tensor.Float64, []int{2, 4}, []float64{1, 0, 0, 0, 0, 1, 0, 2})},
		}
		res, err := dev.Execute(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", sem, err)
		}
		if len(res.InputGrads) != 3 || res.InputGrads[0] == nil {
			t.Fatalf("%s: input gradients %v, want x's and two more", sem, res.InputGrads)
		}
		if got := res.InputGrads[1] == nil && res.InputGrads[2] == nil; got != (sem == "msprobe") {
			t.Errorf("%s: weight's and bias's gradients %v, %v: want nil exactly under msprobe", sem, res.InputGrads[1], res.InputGrads[2])
		}
	}
}
