package pluginrpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The test binary doubles as a plugin and as a host: TestMain dispatches on
// these variables before running any test.
const (
	envTestPlugin = "PROBE_SDK_TEST_PLUGIN" // serve the echo device in this mode
	envTestRole   = "PROBE_SDK_TEST_ROLE"   // "host": start a plugin, print its pid, wait
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envTestPlugin); mode != "" {
		if mode == "noisy" {
			beforeHandshake = func() {
				// What a C library printing a banner during init would do.
				syscall.Write(1, []byte("banner written to fd 1 before the handshake\n"))
			}
		}
		if err := ServeDevice(&echoDevice{}, false); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(envTestRole) == "host" {
		os.Exit(runTestHost())
	}
	os.Exit(m.Run())
}

// echoDevice returns its tensor inputs as outputs and its grad outputs as
// input gradients. Op "exit" kills the process, "stdout" writes to fd 1
// first.
type echoDevice struct{}

func (echoDevice) Describe(context.Context) (*device.Info, error) {
	return &device.Info{Name: "echo", Version: "1.2.3", Description: "test device",
		Ops: []device.OpSupport{{Op: "echo", DTypes: []tensor.DType{tensor.Float32, tensor.BFloat16}, Backward: true}}}, nil
}

func (echoDevice) Configure(_ context.Context, cfg device.Config) error {
	if cfg.Options["fail"] != "" {
		return fmt.Errorf("bad option fail=%s", cfg.Options["fail"])
	}
	return nil
}

func (echoDevice) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	switch req.Op {
	case "exit":
		os.Exit(7)
	case "stdout":
		syscall.Write(1, []byte("kernel chatter on fd 1\n"))
	case "unsupported":
		return nil, &device.ErrUnsupported{Op: req.Op, Reason: "no kernel"}
	}
	res := &device.ExecResult{}
	for _, v := range req.Inputs {
		if v.Kind == ops.KindTensor {
			res.Outputs = append(res.Outputs, v.Tensor)
		} else {
			res.Outputs = append(res.Outputs, nil)
		}
	}
	if req.Backward {
		res.InputGrads = req.GradOutputs
	}
	return res, nil
}

// startPlugin launches this test binary as a plugin through go-plugin, the
// way a host does, and returns the dispensed device.
func startPlugin(tb testing.TB, mode string) (device.Device, *goplugin.Client) {
	tb.Helper()
	client := newTestClient(mode, tb.TempDir())
	tb.Cleanup(client.Kill)
	d, err := dispenseDevice(client)
	if err != nil {
		tb.Fatal(err)
	}
	return d, client
}

// newTestClient prepares a go-plugin client for this binary in plugin mode,
// with the plugin's socket in sockets.
func newTestClient(mode, sockets string) *goplugin.Client {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envTestPlugin+"="+mode, EnvLogLevel+"=warn", goplugin.EnvUnixSocketDir+"="+sockets)
	return goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: HostPluginSets(transport.Options{}),
		Cmd:              cmd,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Logger:           hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: os.Stderr}),
		StartTimeout:     30 * time.Second,
	})
}

func dispenseDevice(client *goplugin.Client) (device.Device, error) {
	rpc, err := client.Client()
	if err != nil {
		return nil, fmt.Errorf("start plugin: %w", err)
	}
	raw, err := rpc.Dispense(KindDevice)
	if err != nil {
		return nil, fmt.Errorf("dispense: %w", err)
	}
	return AsDevice(raw)
}

// runTestHost is the "host" role: it starts a plugin without any
// parent-death signal, prints the plugin's pid and waits to be killed.
func runTestHost() int {
	client := newTestClient("echo", os.Getenv(goplugin.EnvUnixSocketDir))
	d, err := dispenseDevice(client)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := d.Describe(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(client.ReattachConfig().Pid)
	time.Sleep(time.Hour)
	return 0
}

func randomTensor(dt tensor.DType, shape []int, seed uint64) *tensor.Tensor {
	t := tensor.New(dt, shape)
	r := rand.New(rand.NewPCG(seed, 2))
	for i := 0; i+8 <= len(t.Data); i += 8 {
		v := r.Uint64()
		for j := 0; j < 8; j++ {
			t.Data[i+j] = byte(v >> (8 * j))
		}
	}
	return t
}

func TestRealProcessLargeRoundTrip(t *testing.T) {
	d, _ := startPlugin(t, "echo")
	ctx := context.Background()
	info, err := d.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.SDKVersion != SDKVersion || info.ProtocolVersion != ProtocolVersion || info.Name != "echo" || info.Version != "1.2.3" {
		t.Fatalf("describe: %+v", info)
	}
	big := randomTensor(tensor.Float32, []int{5, 1024, 1024}, 1) // 20 MiB
	small := randomTensor(tensor.BFloat16, []int{3, 7}, 2)
	grad := randomTensor(tensor.Float32, []int{1536, 1024}, 3) // 6 MiB
	for i := 0; i < 2; i++ {                                   // second pass reuses the segment
		res, err := d.Execute(ctx, &device.ExecRequest{
			Op:          "echo",
			Inputs:      []ops.Value{ops.T(big), ops.F(1.5), ops.T(small)},
			Backward:    true,
			GradOutputs: []*tensor.Tensor{grad, nil},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Outputs) != 3 || res.Outputs[1] != nil {
			t.Fatalf("outputs: %d", len(res.Outputs))
		}
		for j, want := range []*tensor.Tensor{big, nil, small} {
			if want == nil {
				continue
			}
			got := res.Outputs[j]
			if got.DType != want.DType || fmt.Sprint(got.Shape) != fmt.Sprint(want.Shape) || !bytes.Equal(got.Data, want.Data) {
				t.Fatalf("pass %d output %d differs", i, j)
			}
		}
		if len(res.InputGrads) != 2 || res.InputGrads[1] != nil || !bytes.Equal(res.InputGrads[0].Data, grad.Data) {
			t.Fatalf("pass %d: gradients differ", i)
		}
	}
	if err := d.Configure(ctx, device.Config{Options: map[string]string{"fail": "yes"}}); err == nil || !strings.Contains(err.Error(), "bad option fail=yes") {
		t.Fatalf("Configure error not carried: %v", err)
	}
	var unsup *device.ErrUnsupported
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "unsupported"}); !errors.As(err, &unsup) || unsup.Reason != "no kernel" {
		t.Fatalf("want ErrUnsupported, got %v", err)
	}
	// Writes to fd 1 after the handshake are harmless.
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "stdout", Inputs: []ops.Value{ops.T(small)}}); err != nil {
		t.Fatal(err)
	}
}

func TestRealProcessExitIsRPCError(t *testing.T) {
	d, client := startPlugin(t, "echo")
	_, err := d.Execute(context.Background(), &device.ExecRequest{Op: "exit"})
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Method != "Execute" {
		t.Fatalf("want *RPCError from a dying plugin, got %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !client.Exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !client.Exited() {
		t.Fatal("plugin did not exit")
	}
}

func TestStdoutProtectedDuringHandshake(t *testing.T) {
	d, _ := startPlugin(t, "noisy")
	if _, err := d.Describe(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestPluginRunByHand(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envTestPlugin+"=echo")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("want exit status 1, got %v", err)
	}
	if !strings.Contains(string(out), "not meant to be run by hand") {
		t.Fatalf("unexpected output: %s", out)
	}
}

// TestPluginExitsWhenHostKilled: the host sets no parent-death signal, so
// only the plugin's own watchdog can notice.
func TestPluginExitsWhenHostKilled(t *testing.T) {
	host := exec.Command(os.Args[0])
	host.Env = append(os.Environ(), envTestRole+"=host", goplugin.EnvUnixSocketDir+"="+t.TempDir())
	host.Stderr = os.Stderr
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		host.Process.Kill()
		host.Wait()
		t.Fatalf("host did not report its plugin: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || pid <= 0 {
		t.Fatalf("bad pid line %q", line)
	}
	if !processAlive(pid) {
		t.Fatalf("plugin %d not running", pid)
	}
	if err := host.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	host.Wait()
	deadline := time.Now().Add(20 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("plugin %d still running after its host was killed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// BenchmarkRoundTrip256MiB sends a 256 MiB float32 tensor to a real plugin
// process that echoes it back. Throughput counts the tensor once per round
// trip (256 MiB out and 256 MiB back per op). "copy" is Execute (the
// result copied out of shared memory), "views" ExecuteViews as the host's
// workers call it (the result read in place until released).
func BenchmarkRoundTrip256MiB(b *testing.B) {
	b.Run("copy", func(b *testing.B) { benchRoundTrip(b, false) })
	b.Run("views", func(b *testing.B) { benchRoundTrip(b, true) })
}

func benchRoundTrip(b *testing.B, views bool) {
	d, _ := startPlugin(b, "echo")
	ctx := context.Background()
	in := randomTensor(tensor.Float32, []int{64, 1024, 1024}, 7)
	req := &device.ExecRequest{API: "bench", Op: "echo", Inputs: []ops.Value{ops.T(in)}}
	res, err := d.Execute(ctx, req) // warm-up, and a correctness check
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Equal(res.Outputs[0].Data, in.Data) {
		b.Fatal("echo returned different bytes")
	}
	res = nil
	b.SetBytes(int64(len(in.Data)))
	v := d.(interface {
		ExecuteViews(context.Context, *device.ExecRequest) (*device.ExecResult, func(), error)
	})
	for b.Loop() {
		var res *device.ExecResult
		var err error
		release := func() {}
		if views {
			res, release, err = v.ExecuteViews(ctx, req)
		} else {
			res, err = d.Execute(ctx, req)
		}
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Outputs) != 1 || len(res.Outputs[0].Data) != len(in.Data) {
			b.Fatal("bad echo")
		}
		release()
	}
	b.ReportMetric(float64(b.N)*float64(len(in.Data))/(1<<30)/b.Elapsed().Seconds(), "GiB/s")
}
