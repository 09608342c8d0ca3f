// Package pluginhost launches probe's plugins as child processes and keeps
// them in line: go-plugin client set-up (gRPC only, managed, our logger, a
// short socket directory), process-group kill, parent-death signal, per-call
// deadlines, crash detection and restart.
//
// A Plugin hands out one device.Device (or framework.Framework) that stays
// valid across restarts. Errors of its calls fall into three groups:
//
//   - errors of the plugin implementation (unsupported op, bad arguments),
//     returned as the plugin reported them;
//   - IsTimeout: the call's context deadline passed (the plugin may be
//     hung; the caller should Restart it);
//   - IsCrash: the plugin process died during the call or before it
//     (*CrashError says how); the caller writes an error row and Restarts.
package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

const (
	// DefaultStartTimeout bounds the start of a plugin (handshake and
	// Describe) when Spec.StartTimeout is zero.
	DefaultStartTimeout = time.Minute
	// gracefulTimeout bounds a graceful shutdown before the process group
	// is killed.
	gracefulTimeout = 5 * time.Second
	// crashWait bounds the wait for a plugin whose connection broke to be
	// seen dead.
	crashWait = 3 * time.Second
	// maxSocketBase keeps socket paths under the 108-byte limit of
	// sockaddr_un: base + "/probe-plugin-NNNNNNNNNN/pluginNNNNNNNNNN".
	maxSocketBase = 64
	// stderrTail is how much of a plugin's stderr is kept for crash reports.
	stderrTail = 16 << 10
)

var (
	// ErrPluginCrashed is matched (errors.Is) by errors of calls during or
	// before which the plugin process died. See CrashError.
	ErrPluginCrashed = errors.New("plugin crashed")
	// ErrPluginTimeout is matched by errors of calls whose context deadline
	// passed; such errors also match context.DeadlineExceeded.
	ErrPluginTimeout = errors.New("plugin call timed out")
	// ErrClosed is returned by calls on a closed plugin, or on one whose
	// restart failed.
	ErrClosed = errors.New("plugin is not running")
)

// Spec says how to launch a plugin.
type Spec struct {
	// Name is the plugin's name in messages and logs ("cpu").
	Name string
	// Kind is pluginrpc.KindDevice or pluginrpc.KindFramework.
	Kind string
	// Path is the executable; Args its arguments (without argv[0]). The
	// probe binary serving a built-in plugin is
	// Spec{Path: os.Executable(), Args: []string{"plugin", "serve", ...}}.
	Path string
	Args []string
	// Env is added to the host's environment ("KEY=value"; later wins).
	Env []string
	// Dir is the working directory; empty means the host's.
	Dir string
	// StartTimeout bounds start-up (handshake plus Describe);
	// 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// CallTimeout is the deadline of calls whose context has none; 0 means
	// no deadline beyond the caller's.
	CallTimeout time.Duration
	// Logger receives go-plugin's and the plugin's logs; nil means a
	// logger on stderr at LogLevel.
	Logger hclog.Logger
	// LogLevel is the level of the default logger; hclog.NoLevel means
	// Warn. The plugin is asked to log at the logger's level.
	LogLevel hclog.Level
	// SocketDir is where the plugin's Unix socket directory is created;
	// empty means $XDG_RUNTIME_DIR, os.TempDir() or /tmp, whichever is short
	// enough.
	SocketDir string
	// Transport tunes inline versus shared-memory tensor transfer.
	Transport transport.Options
}

// CrashError is the error of a call during (or before) which the plugin
// process died.
type CrashError struct {
	Plugin string // Spec.Name
	Kind   string // Spec.Kind
	Method string // "Execute"
	API    string // the API being checked, when known
	Pid    int
	// Reason is how the process ended: "exit status 3", "killed by signal
	// SIGKILL".
	Reason string
	// Stderr is the end of the plugin's stderr (panics end up there).
	Stderr string
	// Err is the RPC error the call got.
	Err error
}

func (e *CrashError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s plugin %q (pid %d) crashed during %s", e.Kind, e.Plugin, e.Pid, e.Method)
	if e.API != "" {
		fmt.Fprintf(&b, " of %s", e.API)
	}
	fmt.Fprintf(&b, ": %s", e.Reason)
	if p := panicLine(e.Stderr); p != "" {
		fmt.Fprintf(&b, " (%s)", p)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrPluginCrashed) true.
func (e *CrashError) Is(target error) bool { return target == ErrPluginCrashed }

// Unwrap returns the RPC error.
func (e *CrashError) Unwrap() error { return e.Err }

// IsCrash reports whether err comes from a plugin that died.
func IsCrash(err error) bool { return errors.Is(err, ErrPluginCrashed) }

// IsTimeout reports whether err comes from a plugin call whose deadline
// passed.
func IsTimeout(err error) bool { return errors.Is(err, ErrPluginTimeout) }

// Plugin is one launched plugin, restartable. Its methods are safe for
// concurrent use.
type Plugin struct {
	spec   Spec
	logger hclog.Logger

	restartMu sync.Mutex // serialises Restart

	mu       sync.Mutex
	inst     *instance
	closed   bool
	lastCfg  *device.Config
	restarts int

	dev *hostDevice
	fw  *hostFramework
}

// Start launches the plugin described by spec, dispenses it and calls its
// Describe. The plugin is killed again if any step fails.
func Start(ctx context.Context, spec Spec) (*Plugin, error) {
	if spec.Name == "" {
		return nil, errors.New("pluginhost: spec without a name")
	}
	if spec.Kind != pluginrpc.KindDevice && spec.Kind != pluginrpc.KindFramework {
		return nil, fmt.Errorf("pluginhost: plugin %q: unknown kind %q (want %q or %q)", spec.Name, spec.Kind, pluginrpc.KindDevice, pluginrpc.KindFramework)
	}
	if spec.Path == "" {
		return nil, fmt.Errorf("pluginhost: plugin %q: no executable path", spec.Name)
	}
	if spec.StartTimeout <= 0 {
		spec.StartTimeout = DefaultStartTimeout
	}
	base := spec.Logger
	if base == nil {
		level := spec.LogLevel
		if level == hclog.NoLevel {
			level = hclog.Warn
		}
		base = hclog.New(&hclog.LoggerOptions{Name: "probe", Level: level, Output: os.Stderr})
	}
	p := &Plugin{spec: spec, logger: base.Named("plugin." + spec.Kind + "." + spec.Name)}
	p.dev = &hostDevice{p: p}
	p.fw = &hostFramework{p: p}
	in, err := p.launch(ctx)
	if err != nil {
		return nil, err
	}
	p.inst = in
	return p, nil
}

// Name is Spec.Name.
func (p *Plugin) Name() string { return p.spec.Name }

// Kind is Spec.Kind.
func (p *Plugin) Kind() string { return p.spec.Kind }

// Device returns the plugin as a device.Device, or nil for a framework
// plugin. The value stays valid across restarts; Restart replays the last
// successful Configure.
func (p *Plugin) Device() device.Device {
	if p.spec.Kind != pluginrpc.KindDevice {
		return nil
	}
	return p.dev
}

// Framework returns the plugin as a framework.Framework, or nil for a
// device plugin.
func (p *Plugin) Framework() framework.Framework {
	if p.spec.Kind != pluginrpc.KindFramework {
		return nil
	}
	return p.fw
}

// Pid is the process id of the running plugin, 0 when none runs.
func (p *Plugin) Pid() int {
	if in := p.current(); in != nil {
		return in.pid
	}
	return 0
}

// Restarts is the number of successful restarts so far.
func (p *Plugin) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// DeviceInfo is what the running device plugin's Describe returned at
// start, or nil.
func (p *Plugin) DeviceInfo() *device.Info {
	if in := p.current(); in != nil {
		return in.devInfo
	}
	return nil
}

// FrameworkInfo is what the running framework plugin's Describe returned
// at start, or nil.
func (p *Plugin) FrameworkInfo() *framework.Info {
	if in := p.current(); in != nil {
		return in.fwInfo
	}
	return nil
}

// Exited reports whether the current plugin process has died (or none
// runs).
func (p *Plugin) Exited() bool {
	in := p.current()
	if in == nil {
		return true
	}
	dead, _ := in.dead()
	return dead
}

// Stderr returns the end of the current plugin's stderr.
func (p *Plugin) Stderr() string {
	if in := p.current(); in != nil {
		return in.stderr.String()
	}
	return ""
}

// Restart kills the plugin process (and its process group) without
// ceremony, starts a new one and replays the last successful Configure.
// Calls in flight on the old process fail.
func (p *Plugin) Restart(ctx context.Context) error {
	p.restartMu.Lock()
	defer p.restartMu.Unlock()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return fmt.Errorf("restart %s plugin %q: %w", p.spec.Kind, p.spec.Name, ErrClosed)
	}
	old := p.inst
	p.inst = nil
	cfg := p.lastCfg
	p.mu.Unlock()
	if old != nil {
		old.kill(false)
	}
	in, err := p.launch(ctx)
	if err != nil {
		return err
	}
	if cfg != nil && in.dev != nil {
		if err := in.dev.Configure(ctx, *cfg); err != nil {
			in.kill(false)
			return fmt.Errorf("restart %s plugin %q: replay Configure: %w", p.spec.Kind, p.spec.Name, err)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		in.kill(false)
		return fmt.Errorf("restart %s plugin %q: %w", p.spec.Kind, p.spec.Name, ErrClosed)
	}
	p.inst = in
	p.restarts++
	return nil
}

// Close shuts the plugin down: go-plugin's graceful shutdown, bounded, then
// SIGKILL to the whole process group. It is idempotent.
func (p *Plugin) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	in := p.inst
	p.inst = nil
	p.mu.Unlock()
	if in != nil {
		in.kill(true)
	}
	return nil
}

func (p *Plugin) current() *instance {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inst
}

// instance is one plugin process.
type instance struct {
	client  *goplugin.Client
	cmd     *exec.Cmd
	pid     int
	sockDir string
	stderr  *tailBuffer
	stop    chan struct{} // releases the launcher thread
	killed  atomic.Bool
	once    sync.Once

	dev     device.Device
	devInfo *device.Info
	fw      framework.Framework
	fwInfo  *framework.Info
}

// launch starts one plugin process and connects to it.
func (p *Plugin) launch(ctx context.Context) (*instance, error) {
	spec := &p.spec
	fail := func(err error) error {
		return fmt.Errorf("start %s plugin %q (%s): %w", spec.Kind, spec.Name, spec.Path, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fail(err)
	}
	base, err := socketBase(spec.SocketDir)
	if err != nil {
		return nil, fail(err)
	}
	sweepOnce(base)
	sockDir, err := os.MkdirTemp(base, fmt.Sprintf("%s%d-", sockDirPrefix, os.Getpid()))
	if err != nil {
		return nil, fail(fmt.Errorf("socket directory: %w", err))
	}

	startTimeout := spec.StartTimeout
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < startTimeout {
			startTimeout = max(left, time.Millisecond)
		}
	}

	in := &instance{sockDir: sockDir, stderr: newTailBuffer(stderrTail), stop: make(chan struct{})}
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Dir = spec.Dir
	env := append(os.Environ(), spec.Env...)
	env = append(env,
		pluginrpc.EnvLogLevel+"="+levelName(p.logger.GetLevel()),
		goplugin.EnvUnixSocketDir+"="+sockDir,
	)
	cmd.Env = env
	// Own process group, so that Close can kill the plugin's children too;
	// SIGKILL when the thread that forked it dies, i.e. when the host dies.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	in.cmd = cmd
	in.client = goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  pluginrpc.Handshake,
		VersionedPlugins: pluginrpc.HostPluginSets(spec.Transport),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Managed:          true,
		Logger:           &killAwareLogger{Logger: p.logger, killed: &in.killed},
		StartTimeout:     startTimeout,
		Stderr:           in.stderr,
		UnixSocketConfig: &goplugin.UnixSocketConfig{TempDir: sockDir},
	})

	// The process is forked from a locked OS thread that stays alive until
	// the plugin is killed: the parent-death signal fires when the forking
	// thread exits, and Go may otherwise retire that thread at any time.
	type started struct {
		rpc goplugin.ClientProtocol
		err error
	}
	res := make(chan started, 1)
	go func() {
		runtime.LockOSThread()
		rpc, err := in.client.Client()
		res <- started{rpc, err}
		<-in.stop
		runtime.UnlockOSThread()
	}()
	r := <-res
	if cmd.Process != nil {
		in.pid = cmd.Process.Pid
	}
	track(in)
	if r.err != nil {
		in.kill(false)
		return nil, fail(explainStartError(r.err, in.stderr.String()))
	}
	raw, err := r.rpc.Dispense(spec.Kind)
	if err != nil {
		in.kill(false)
		return nil, fail(fmt.Errorf("dispense: %w", err))
	}

	dctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	var protocol int
	switch spec.Kind {
	case pluginrpc.KindDevice:
		if in.dev, err = pluginrpc.AsDevice(raw); err == nil {
			in.devInfo, err = in.dev.Describe(dctx)
		}
		if in.devInfo != nil {
			protocol = in.devInfo.ProtocolVersion
		}
	case pluginrpc.KindFramework:
		if in.fw, err = pluginrpc.AsFramework(raw); err == nil {
			in.fwInfo, err = in.fw.Describe(dctx)
		}
		if in.fwInfo != nil {
			protocol = in.fwInfo.ProtocolVersion
		}
	}
	if err == nil && protocol != pluginrpc.ProtocolVersion {
		err = fmt.Errorf("plugin speaks protocol %d, host speaks %d", protocol, pluginrpc.ProtocolVersion)
	}
	if err != nil {
		in.kill(false)
		if status.Code(err) == codes.Unimplemented {
			err = fmt.Errorf("%w (the plugin does not serve the %s service: is it a %s plugin?)", err, spec.Kind, spec.Kind)
		}
		return nil, fail(fmt.Errorf("describe: %w", err))
	}
	if err := ctx.Err(); err != nil {
		in.kill(false)
		return nil, fail(err)
	}
	p.logger.Debug("plugin started", "pid", in.pid, "path", spec.Path)
	return in, nil
}

// live holds the instances not yet killed, for KillAll.
var live struct {
	sync.Mutex
	m map[*instance]struct{}
}

func track(in *instance) {
	live.Lock()
	defer live.Unlock()
	if live.m == nil {
		live.m = make(map[*instance]struct{})
	}
	live.m[in] = struct{}{}
}

func untrack(in *instance) {
	live.Lock()
	defer live.Unlock()
	delete(live.m, in)
}

// KillAll kills every plugin process started by this package and its
// process group, without a graceful shutdown. Call it from the host's
// signal handler and on exit (it also runs go-plugin's CleanupClients).
// Plugins killed this way answer further calls with errors until
// restarted.
func KillAll() {
	live.Lock()
	all := make([]*instance, 0, len(live.m))
	for in := range live.m {
		all = append(all, in)
	}
	live.Unlock()
	var wg sync.WaitGroup
	for _, in := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in.kill(false)
		}()
	}
	wg.Wait()
	goplugin.CleanupClients()
}

// kill ends the process and everything it spawned. graceful first asks
// go-plugin for an orderly shutdown (bounded); otherwise the process group
// is killed at once.
func (in *instance) kill(graceful bool) {
	in.once.Do(func() {
		defer untrack(in)
		in.killed.Store(true)
		if in.pid <= 0 {
			// Never started: nothing to shut down.
			close(in.stop)
			_ = os.RemoveAll(in.sockDir)
			return
		}
		if !graceful {
			in.killGroup()
		}
		done := make(chan struct{})
		go func() {
			in.client.Kill()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(gracefulTimeout):
			in.killGroup()
			<-done
		}
		in.killGroup() // children left in the group
		if c, ok := in.dev.(io.Closer); ok {
			_ = c.Close()
		}
		close(in.stop)
		_ = os.RemoveAll(in.sockDir)
	})
}

func (in *instance) killGroup() {
	if in.pid > 0 {
		_ = syscall.Kill(-in.pid, syscall.SIGKILL)
	}
}

// dead reports whether the plugin process has ended, and how.
func (in *instance) dead() (bool, string) {
	if in.client.Exited() {
		// go-plugin reaped it: cmd.ProcessState was written before Exited
		// turned true under go-plugin's lock.
		if ps := in.cmd.ProcessState; ps != nil {
			if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
				return true, describeWaitStatus(ws)
			}
			return true, ps.String()
		}
		return true, "exited"
	}
	if in.pid <= 0 {
		return true, "never started"
	}
	return procDead(in.pid)
}

// waitDead polls, for a bounded time, for the process to be seen dead.
func (in *instance) waitDead(bound time.Duration) (bool, string) {
	deadline := time.Now().Add(bound)
	for {
		if dead, reason := in.dead(); dead {
			return true, reason
		}
		if time.Now().After(deadline) {
			return false, ""
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// socketBase picks the directory for socket directories.
func socketBase(explicit string) (string, error) {
	if explicit != "" {
		if len(explicit) > maxSocketBase {
			return "", fmt.Errorf("socket directory %q is longer than %d bytes: Unix socket paths are limited to 108", explicit, maxSocketBase)
		}
		return explicit, nil
	}
	for _, d := range []string{os.Getenv("XDG_RUNTIME_DIR"), os.TempDir(), "/tmp"} {
		if d == "" || len(d) > maxSocketBase {
			continue
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return filepath.Clean(d), nil
		}
	}
	return "", errors.New("no short writable directory for the plugin socket; set the socket directory")
}

// sockDirPrefix starts the names of socket directories:
// probe-plugin-<host pid>-<random>.
const sockDirPrefix = "probe-plugin-"

var swept sync.Map // socket bases already swept by this process

func sweepOnce(base string) {
	if _, done := swept.LoadOrStore(base, true); !done {
		sweepStale(base)
	}
}

// sweepStale removes the socket directories of hosts that died without
// cleaning up (SIGKILL, OOM kill): directories named after a host pid that
// no longer exists and holding nothing but sockets.
func sweepStale(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, sockDirPrefix) {
			continue
		}
		pidStr, _, ok := strings.Cut(strings.TrimPrefix(name, sockDirPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			continue // alive (or not ours to judge)
		}
		dir := filepath.Join(base, name)
		inner, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		onlySockets := true
		for _, f := range inner {
			if f.Type()&os.ModeSocket == 0 {
				onlySockets = false
				break
			}
		}
		if onlySockets {
			_ = os.RemoveAll(dir)
		}
	}
}

// explainStartError adds what the plugin said and a hint to go-plugin's
// start errors.
func explainStartError(err error, stderr string) error {
	msg := err.Error()
	var hint string
	switch {
	case strings.Contains(stderr, "This binary is a plugin"):
		hint = "the plugin refused probe's handshake cookie: it is not a probe plugin, or it was built for another program"
	case strings.Contains(msg, "incompatible API version"):
		hint = fmt.Sprintf("plugin protocol mismatch: this host speaks protocol %d; rebuild the plugin with a compatible probe SDK", pluginrpc.ProtocolVersion)
	case strings.Contains(msg, "Failed to read any lines from plugin's stdout"):
		// go-plugin's own text lists causes of a plugin that printed
		// something; this one printed nothing.
		msg, _, _ = strings.Cut(msg, "Unrecognized remote plugin message")
		msg += "no handshake"
		hint = "the plugin ended or closed its stdout without printing the go-plugin handshake: it is not a probe plugin, or it failed at start-up (its stderr, if any, follows)"
	case strings.Contains(msg, "Unrecognized remote plugin message"):
		hint = "the executable printed something other than the go-plugin handshake on stdout: it is not a probe plugin, or it writes to stdout before serving"
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		hint = "the plugin did not complete the handshake within the start timeout"
	case strings.Contains(msg, "plugin exited before we could connect"):
		hint = "the plugin exited during start-up"
	}
	if hint != "" {
		msg += " (" + hint + ")"
	}
	if tail := lastLines(stderr, 8); tail != "" {
		msg += "\nplugin stderr:\n" + tail
	}
	return errors.New(msg)
}

func levelName(l hclog.Level) string {
	switch l {
	case hclog.Trace:
		return "trace"
	case hclog.Debug:
		return "debug"
	case hclog.Info:
		return "info"
	case hclog.Error:
		return "error"
	case hclog.Off:
		return "off"
	}
	return "warn"
}

// killAwareLogger lowers go-plugin's "plugin process exited" error to debug
// when the host killed the plugin on purpose.
type killAwareLogger struct {
	hclog.Logger
	killed *atomic.Bool
}

func (l *killAwareLogger) Error(msg string, args ...interface{}) {
	if l.killed.Load() && msg == "plugin process exited" {
		l.Logger.Debug(msg, args...)
		return
	}
	l.Logger.Error(msg, args...)
}
