// Package killpoint interrupts the host at a named point of a run, for the
// kill/interrupt tests only (host/kill_test.go): it lets a test SIGKILL or
// SIGINT a real `probe run` at a chosen place rather than at a random
// moment of the wall clock.
//
// It is driven by two environment variables, read once when the process
// starts; nothing else turns it on, and a user never sets them:
//
//	PROBE_KILLPOINT=<point>:<n>:<KILL|INT>[:<delay_ms>]
//
// sends the signal to the host's own process at the n-th (from 1) Hit of
// point — after delay_ms on a timer when given, so that it lands while a
// plugin computes or later — and
//
//	PROBE_KILLPOINT_TRACE=<file>
//
// appends "<point>\t<api>\n" to file at every Hit, so that a test can list
// the points a run reaches, and "signal\t<name>\n" when the signal is sent.
// Unset, Hit is one load and one branch.
//
// The points, in the order a run reaches them: dump.parsed (runcmd.go),
// result.created (the result CSV made, the details CSV not yet),
// plan.before and plan.after (the framework plugin's Plan), bench.sent,
// bench.done, device.sent, device.done (Execute on each plugin), judged,
// details.written, result.written (report.Writer.Write) and synced (a
// batch fsync of both CSVs).
package killpoint

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The points Hit is called with.
const (
	DumpParsed     = "dump.parsed"
	ResultCreated  = "result.created"
	PlanBefore     = "plan.before"
	PlanAfter      = "plan.after"
	BenchSent      = "bench.sent"
	BenchDone      = "bench.done"
	DeviceSent     = "device.sent"
	DeviceDone     = "device.done"
	Judged         = "judged"
	DetailsWritten = "details.written"
	ResultWritten  = "result.written"
	Synced         = "synced"
)

// Signal marks in the trace when the signal was sent.
const Signal = "signal"

// Points lists every point, in the order a run reaches them.
var Points = []string{DumpParsed, ResultCreated, PlanBefore, PlanAfter, BenchSent, BenchDone,
	DeviceSent, DeviceDone, Judged, DetailsWritten, ResultWritten, Synced}

// Environment variables.
const (
	EnvSpec  = "PROBE_KILLPOINT"
	EnvTrace = "PROBE_KILLPOINT_TRACE"
)

// Spec is a parsed PROBE_KILLPOINT.
type Spec struct {
	Point  string
	N      int64
	Signal syscall.Signal // SIGKILL or SIGINT
	Delay  time.Duration
}

func (s Spec) String() string {
	name := "KILL"
	if s.Signal == syscall.SIGINT {
		name = "INT"
	}
	out := fmt.Sprintf("%s:%d:%s", s.Point, s.N, name)
	if s.Delay > 0 {
		out += ":" + strconv.FormatInt(s.Delay.Milliseconds(), 10)
	}
	return out
}

// Parse reads "<point>:<n>:<KILL|INT>[:<delay_ms>]".
func Parse(v string) (Spec, error) {
	f := strings.Split(v, ":")
	if len(f) < 3 || len(f) > 4 {
		return Spec{}, fmt.Errorf("%s=%q: want <point>:<n>:<KILL|INT>[:<delay_ms>]", EnvSpec, v)
	}
	s := Spec{Point: f[0]}
	known := false
	for _, p := range Points {
		known = known || p == s.Point
	}
	if !known {
		return Spec{}, fmt.Errorf("%s=%q: unknown point %q", EnvSpec, v, s.Point)
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || n < 1 {
		return Spec{}, fmt.Errorf("%s=%q: n must be a whole number from 1", EnvSpec, v)
	}
	s.N = n
	switch f[2] {
	case "KILL":
		s.Signal = syscall.SIGKILL
	case "INT":
		s.Signal = syscall.SIGINT
	default:
		return Spec{}, fmt.Errorf("%s=%q: the signal is KILL or INT", EnvSpec, v)
	}
	if len(f) == 4 {
		ms, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil || ms < 0 {
			return Spec{}, fmt.Errorf("%s=%q: delay_ms must be a whole number", EnvSpec, v)
		}
		s.Delay = time.Duration(ms) * time.Millisecond
	}
	return s, nil
}

var (
	// on is set once, before main runs, and only read afterwards.
	on bool

	mu      sync.Mutex
	spec    *Spec
	hits    int64
	trace   *os.File
	watched <-chan struct{}
)

func init() {
	v, t := os.Getenv(EnvSpec), os.Getenv(EnvTrace)
	if v != "" {
		s, err := Parse(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "probe: killpoint:", err)
			os.Exit(2)
		}
		spec = &s
	}
	if t != "" {
		f, err := os.OpenFile(t, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "probe: killpoint:", err)
			os.Exit(2)
		}
		trace = f
	}
	on = spec != nil || trace != nil
}

// Watch gives Hit the channel that closes once the process has taken an
// interrupt in (the Done of signal.NotifyContext's context): a SIGINT sent
// without a delay returns from Hit only then, so that whatever follows the
// point already sees the run interrupted. Call it before the run starts.
func Watch(done <-chan struct{}) {
	if on {
		watched = done
	}
}

// Hit marks that the run reached point, with api the API in hand ("" when
// none). It does nothing unless PROBE_KILLPOINT or PROBE_KILLPOINT_TRACE is
// set.
func Hit(point, api string) {
	if !on {
		return
	}
	hit(point, api)
}

func hit(point, api string) {
	mu.Lock()
	if trace != nil {
		_, _ = trace.WriteString(point + "\t" + api + "\n")
	}
	fire := spec != nil && spec.Point == point
	if fire {
		hits++
		fire = hits == spec.N
	}
	mu.Unlock()
	if !fire {
		return
	}
	s := *spec
	fmt.Fprintf(os.Stderr, "probe: killpoint %s: at %s#%d (%s)\n", s, point, s.N, api)
	if s.Delay > 0 {
		time.AfterFunc(s.Delay, func() { raise(s.Signal, false) })
		return
	}
	raise(s.Signal, true)
}

// raise sends sig to this process. SIGKILL does not return; SIGINT, when
// wait is set, returns once the process has taken it in.
func raise(sig syscall.Signal, wait bool) {
	mu.Lock()
	if trace != nil {
		_, _ = trace.WriteString(Signal + "\t" + sig.String() + "\n")
	}
	mu.Unlock()
	if sig == syscall.SIGKILL {
		_ = syscall.Kill(os.Getpid(), sig)
		for {
			time.Sleep(time.Hour) // the kernel ends the process
		}
	}
	if !wait {
		_ = syscall.Kill(os.Getpid(), sig)
		return
	}
	got := make(chan os.Signal, 1)
	signal.Notify(got, sig)
	defer signal.Stop(got)
	_ = syscall.Kill(os.Getpid(), sig)
	timeout := time.After(10 * time.Second)
	select {
	case <-got:
	case <-timeout:
		return
	}
	if watched != nil {
		select {
		case <-watched:
		case <-timeout:
		}
	}
}
