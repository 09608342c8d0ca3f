package pluginhost

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The test binary is also the plugin (and the "host" of the host-death
// test): TestMain dispatches on these variables.
const (
	envPlugin = "PROBE_PLUGINHOST_TEST_PLUGIN"
	envRole   = "PROBE_PLUGINHOST_TEST_ROLE"
	envSocket = "PROBE_PLUGINHOST_TEST_SOCKETS" // the host role's socket base
)

func TestMain(m *testing.M) {
	switch mode := os.Getenv(envPlugin); mode {
	case "":
	case "device":
		if err := pluginrpc.ServeDevice(&testDevice{}, false); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "framework":
		if err := pluginrpc.ServeFramework(testFramework{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "wrong-cookie":
		goplugin.Serve(&goplugin.ServeConfig{
			HandshakeConfig: goplugin.HandshakeConfig{ProtocolVersion: 1, MagicCookieKey: "SOME_OTHER_PRODUCT", MagicCookieValue: "x"},
			Plugins:         goplugin.PluginSet{pluginrpc.KindDevice: &pluginrpc.DevicePlugin{Impl: &testDevice{}}},
			GRPCServer:      goplugin.DefaultGRPCServer,
		})
		os.Exit(0)
	case "wrong-version":
		goplugin.Serve(&goplugin.ServeConfig{
			HandshakeConfig:  pluginrpc.Handshake,
			VersionedPlugins: map[int]goplugin.PluginSet{pluginrpc.ProtocolVersion + 1: {pluginrpc.KindDevice: &pluginrpc.DevicePlugin{Impl: &testDevice{}}}},
			GRPCServer:       goplugin.DefaultGRPCServer,
		})
		os.Exit(0)
	case "garbage":
		fmt.Println("hello, I am not a plugin")
		time.Sleep(time.Minute)
		os.Exit(0)
	case "slow", "sleeper":
		time.Sleep(time.Hour)
		os.Exit(0)
	default:
		fmt.Fprintf(os.Stderr, "unknown test plugin mode %q\n", mode)
		os.Exit(2)
	}
	if os.Getenv(envRole) == "host" {
		os.Exit(runHost())
	}
	os.Exit(m.Run())
}

// testDevice misbehaves on request.
type testDevice struct {
	mu       sync.Mutex
	deviceID int
	calls    int
}

func (d *testDevice) Describe(context.Context) (*device.Info, error) {
	return &device.Info{Name: "testdev", Version: "0.0.1"}, nil
}

func (d *testDevice) Configure(_ context.Context, cfg device.Config) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.deviceID = cfg.DeviceID
	return nil
}

func (d *testDevice) Execute(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	d.mu.Lock()
	d.calls++
	calls, id := d.calls, d.deviceID
	d.mu.Unlock()
	switch req.Op {
	case "echo":
		res := &device.ExecResult{}
		for _, v := range req.Inputs {
			res.Outputs = append(res.Outputs, v.Tensor)
		}
		return res, nil
	case "whoami":
		return &device.ExecResult{Outputs: []*tensor.Tensor{
			tensor.FromInt64s(tensor.Int64, []int{3}, []int64{int64(os.Getpid()), int64(id), int64(calls)}),
		}}, nil
	case "exit":
		os.Exit(3)
	case "panic":
		go func() { panic("kaboom in a kernel") }()
		select {}
	case "hang":
		select {} // a wedged kernel: ignores its context
	case "spawn":
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		child := exec.Command(exe)
		child.Env = append(os.Environ(), envPlugin+"=sleeper")
		if err := child.Start(); err != nil {
			return nil, err
		}
		return &device.ExecResult{Outputs: []*tensor.Tensor{
			tensor.FromInt64s(tensor.Int64, []int{1}, []int64{int64(child.Process.Pid)}),
		}}, nil
	}
	return nil, &device.ErrUnsupported{Op: req.Op, Reason: "not a test op"}
}

type testFramework struct{}

func (testFramework) Describe(context.Context) (*framework.Info, error) {
	return &framework.Info{Name: "testfw", Version: "0.0.2", APIs: []string{"Functional.relu"}, Ops: []string{"relu"}}, nil
}

func (testFramework) Plan(_ context.Context, req *framework.PlanRequest) (*framework.PlanResponse, error) {
	if req.API == "crash" {
		os.Exit(4)
	}
	if req.API == "skip" {
		return &framework.PlanResponse{Skip: "not supported"}, nil
	}
	return &framework.PlanResponse{Plan: &framework.Plan{
		Op:     "relu",
		Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: req.Args[0].Path}},
	}}, nil
}

func testSpec(t testing.TB, kind, mode string) Spec {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Name:         mode,
		Kind:         kind,
		Path:         exe,
		Env:          []string{envPlugin + "=" + mode},
		StartTimeout: 30 * time.Second,
		Logger:       hclog.New(&hclog.LoggerOptions{Level: hclog.Error, Output: io.Discard}),
	}
}

func startTest(t *testing.T, kind, mode string) *Plugin {
	t.Helper()
	p, err := Start(context.Background(), testSpec(t, kind, mode))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func whoami(t *testing.T, d device.Device) (pid, deviceID, calls int64) {
	t.Helper()
	res, err := d.Execute(context.Background(), &device.ExecRequest{Op: "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Outputs[0].Int64s()
	return v[0], v[1], v[2]
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// waitGone waits, for a bounded time, for pid to disappear.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) still running", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestDeviceLifecycle(t *testing.T) {
	p := startTest(t, pluginrpc.KindDevice, "device")
	if p.Framework() != nil {
		t.Fatal("a device plugin has no Framework")
	}
	d := p.Device()
	if info := p.DeviceInfo(); info == nil || info.Name != "testdev" || info.SDKVersion != pluginrpc.SDKVersion {
		t.Fatalf("DeviceInfo: %+v", info)
	}
	if err := d.Configure(context.Background(), device.Config{DeviceID: 5}); err != nil {
		t.Fatal(err)
	}
	pid, id, _ := whoami(t, d)
	if int(pid) != p.Pid() || id != 5 {
		t.Fatalf("whoami: pid %d (want %d), device %d", pid, p.Pid(), id)
	}
	x := tensor.FromFloat64s(tensor.Float32, []int{2}, []float64{1, -2})
	res, err := d.Execute(context.Background(), &device.ExecRequest{Op: "echo", Inputs: []ops.Value{ops.T(x)}})
	if err != nil || res.Outputs[0].At(1) != -2 {
		t.Fatalf("echo: %v", err)
	}
	var unsup *device.ErrUnsupported
	if _, err := d.Execute(context.Background(), &device.ExecRequest{Op: "nope"}); !errors.As(err, &unsup) || IsCrash(err) || IsTimeout(err) {
		t.Fatalf("want a plain ErrUnsupported, got %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, int(pid), "closed plugin")
	if _, err := d.Execute(context.Background(), &device.ExecRequest{Op: "whoami"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
	if err := p.Restart(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Restart after Close: %v", err)
	}
}

func TestCrashThenRestart(t *testing.T) {
	p := startTest(t, pluginrpc.KindDevice, "device")
	d := p.Device()
	ctx := context.Background()
	if err := d.Configure(ctx, device.Config{DeviceID: 7}); err != nil {
		t.Fatal(err)
	}
	oldPid := p.Pid()
	_, err := d.Execute(ctx, &device.ExecRequest{API: "Functional.crash.0", Op: "exit"})
	if !IsCrash(err) || IsTimeout(err) {
		t.Fatalf("want a crash, got %v", err)
	}
	var ce *CrashError
	if !errors.As(err, &ce) || ce.Reason != "exit status 3" || ce.Method != "Execute" || ce.API != "Functional.crash.0" || ce.Pid != oldPid {
		t.Fatalf("crash error: %+v", ce)
	}
	if !p.Exited() {
		t.Fatal("Exited false after a crash")
	}
	// Still dead: the next call reports the crash too, quickly.
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "whoami"}); !IsCrash(err) {
		t.Fatalf("call on a dead plugin: %v", err)
	}
	if err := p.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if p.Pid() == oldPid || p.Restarts() != 1 {
		t.Fatalf("pid %d after restart (old %d), restarts %d", p.Pid(), oldPid, p.Restarts())
	}
	pid, id, calls := whoami(t, d)
	if int(pid) != p.Pid() || id != 7 || calls != 1 {
		t.Fatalf("after restart: pid %d device %d calls %d (Configure not replayed?)", pid, id, calls)
	}
}

func TestPanicAndKillAreCrashes(t *testing.T) {
	p := startTest(t, pluginrpc.KindDevice, "device")
	d := p.Device()
	ctx := context.Background()
	_, err := d.Execute(ctx, &device.ExecRequest{Op: "panic"})
	var ce *CrashError
	if !errors.As(err, &ce) || ce.Reason != "exit status 2" || !strings.Contains(err.Error(), "panic: kaboom in a kernel") {
		t.Fatalf("panic: %v", err)
	}
	if err := p.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	// Killed from outside while idle.
	if err := syscall.Kill(p.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_, err = d.Execute(ctx, &device.ExecRequest{Op: "whoami"})
	if !errors.As(err, &ce) || ce.Reason != "killed by signal SIGKILL" {
		t.Fatalf("kill: %v", err)
	}
}

func TestHangTimesOutThenRestart(t *testing.T) {
	p := startTest(t, pluginrpc.KindDevice, "device")
	d := p.Device()
	oldPid := p.Pid()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := d.Execute(ctx, &device.ExecRequest{API: "Functional.hang.0", Op: "hang"})
	if !IsTimeout(err) || !errors.Is(err, context.DeadlineExceeded) || IsCrash(err) {
		t.Fatalf("want a timeout, got %v", err)
	}
	if p.Exited() {
		t.Fatal("a hung plugin is not dead")
	}
	if err := p.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitGone(t, oldPid, "hung plugin after restart")
	if pid, _, _ := whoami(t, d); int(pid) == oldPid {
		t.Fatal("restart kept the hung process")
	}
}

func TestCallTimeoutDefault(t *testing.T) {
	spec := testSpec(t, pluginrpc.KindDevice, "device")
	spec.CallTimeout = 200 * time.Millisecond
	p, err := Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Device().Execute(context.Background(), &device.ExecRequest{Op: "hang"}); !IsTimeout(err) {
		t.Fatalf("want a timeout from Spec.CallTimeout, got %v", err)
	}
}

func TestCloseKillsHungPluginAndItsChildren(t *testing.T) {
	p := startTest(t, pluginrpc.KindDevice, "device")
	d := p.Device()
	pid := p.Pid()
	res, err := d.Execute(context.Background(), &device.ExecRequest{Op: "spawn"})
	if err != nil {
		t.Fatal(err)
	}
	child := int(res.Outputs[0].Int64s()[0])
	if !alive(child) {
		t.Fatalf("child %d not running", child)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := d.Execute(context.Background(), &device.ExecRequest{Op: "hang"})
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the plugin (not needed for correctness)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, "plugin")
	waitGone(t, child, "plugin's child")
	select {
	case err := <-errc:
		if err == nil || IsCrash(err) {
			t.Fatalf("in-flight call after Close: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("in-flight call did not return after Close")
	}
}

func TestFrameworkPlugin(t *testing.T) {
	p := startTest(t, pluginrpc.KindFramework, "framework")
	if p.Device() != nil {
		t.Fatal("a framework plugin has no Device")
	}
	f := p.Framework()
	if info := p.FrameworkInfo(); info == nil || info.Name != "testfw" || len(info.APIs) != 1 {
		t.Fatalf("FrameworkInfo: %+v", info)
	}
	ctx := context.Background()
	res, err := f.Plan(ctx, &framework.PlanRequest{API: "Functional.relu.0", Args: []framework.Arg{{Kind: framework.ArgTensor, Path: "args.0"}}})
	if err != nil || res.Plan == nil || res.Plan.Op != "relu" || res.Plan.Inputs[0].Path != "args.0" {
		t.Fatalf("Plan: %+v %v", res, err)
	}
	if res, err := f.Plan(ctx, &framework.PlanRequest{API: "skip"}); err != nil || res.Skip != "not supported" {
		t.Fatalf("skip: %+v %v", res, err)
	}
	_, err = f.Plan(ctx, &framework.PlanRequest{API: "crash"})
	var ce *CrashError
	if !errors.As(err, &ce) || ce.Kind != pluginrpc.KindFramework || ce.API != "crash" || ce.Reason != "exit status 4" {
		t.Fatalf("crash: %v", err)
	}
	if err := p.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Describe(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestStartFailures(t *testing.T) {
	cases := []struct {
		mode, kind string
		timeout    time.Duration
		want       string
	}{
		{"wrong-cookie", pluginrpc.KindDevice, 0, "handshake cookie"},
		{"wrong-version", pluginrpc.KindDevice, 0, "protocol mismatch"},
		{"garbage", pluginrpc.KindDevice, 0, "Unrecognized remote plugin message"},
		{"slow", pluginrpc.KindDevice, 300 * time.Millisecond, "start timeout"},
		{"device", pluginrpc.KindFramework, 0, "is it a framework plugin?"},
	}
	for _, c := range cases {
		t.Run(c.mode+"-"+c.kind, func(t *testing.T) {
			spec := testSpec(t, c.kind, c.mode)
			if c.timeout > 0 {
				spec.StartTimeout = c.timeout
			}
			p, err := Start(context.Background(), spec)
			if err == nil {
				p.Close()
				t.Fatal("start succeeded")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not mention %q", err, c.want)
			}
		})
	}
	if _, err := Start(context.Background(), Spec{Name: "x", Kind: pluginrpc.KindDevice, Path: "/nonexistent/probe-device-x"}); err == nil {
		t.Fatal("missing executable started")
	}
	if _, err := Start(context.Background(), Spec{Name: "x", Kind: "gpu", Path: "/bin/true"}); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Fatalf("bad kind: %v", err)
	}
	spec := testSpec(t, pluginrpc.KindDevice, "device")
	spec.SocketDir = "/" + strings.Repeat("d", 80)
	if _, err := Start(context.Background(), spec); err == nil || !strings.Contains(err.Error(), "108") {
		t.Fatalf("long socket dir: %v", err)
	}
}

// runHost is the "host" role: start a device plugin, print its pid, wait to
// be killed.
func runHost() int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := Start(context.Background(), Spec{Name: "orphan", Kind: pluginrpc.KindDevice, Path: exe, Env: []string{envPlugin + "=device"}, SocketDir: os.Getenv(envSocket)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(p.Pid())
	time.Sleep(time.Hour)
	return 0
}

func TestKillAll(t *testing.T) {
	a := startTest(t, pluginrpc.KindDevice, "device")
	b := startTest(t, pluginrpc.KindFramework, "framework")
	pa, pb := a.Pid(), b.Pid()
	KillAll()
	waitGone(t, pa, "device plugin")
	waitGone(t, pb, "framework plugin")
	if _, err := a.Device().Execute(context.Background(), &device.ExecRequest{Op: "whoami"}); err == nil {
		t.Fatal("call on a killed plugin succeeded")
	}
	if err := a.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, calls := whoami(t, a.Device()); calls != 1 {
		t.Fatalf("calls %d after restart", calls)
	}
}

func TestPluginDiesWithHost(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sockets, err := os.MkdirTemp("", "pht")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockets)
	host := exec.Command(exe)
	host.Env = append(os.Environ(), envRole+"=host", envSocket+"="+sockets)
	host.Stderr = os.Stderr
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		host.Process.Kill()
		host.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("host did not report its plugin: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || !alive(pid) {
		t.Fatalf("plugin pid %q not running", line)
	}
	if err := host.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, "plugin of a SIGKILLed host")
	host.Wait()

	// The dead host's socket directory is swept by the next host.
	left, _ := os.ReadDir(sockets)
	if len(left) != 1 || !strings.HasPrefix(left[0].Name(), fmt.Sprintf("%s%d-", sockDirPrefix, host.Process.Pid)) {
		t.Fatalf("socket base holds %v, want the dead host's directory", left)
	}
	sweepStale(sockets)
	if left, _ := os.ReadDir(sockets); len(left) != 0 {
		t.Fatalf("stale socket directory not swept: %v", left)
	}
}
