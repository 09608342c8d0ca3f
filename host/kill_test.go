package host

// The kill/interrupt harness: a real `probe run` is SIGKILLed or SIGINTed at
// named points of the host's run (host/internal/killpoint), then continued
// with --resume into the same output directory; the CSVs must end equal to
// an uninterrupted run's, byte for byte.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/killpoint"
	"github.com/probe-dev/probe/host/internal/report"
)

var (
	killPoints = flag.Int("killpoints", 20, "TestKillPoints: how many kill points to draw (200 for the long run)")
	killSeed   = flag.Uint64("killseed", 1, "TestKillPoints: seed of the draw")
)

// killDump is small (35 APIs, about 0.3 s a run) and in statistics mode, so
// that resume must also regenerate the same inputs.
var killDump = filepath.Join(repo, "examples/convnet/statistics/dump.json")

// workerPoints are reached by a worker while it checks one API: an
// interruption there leaves that API without a row.
var workerPoints = map[string]bool{
	killpoint.PlanBefore: true, killpoint.PlanAfter: true, killpoint.BenchSent: true, killpoint.BenchDone: true,
	killpoint.DeviceSent: true, killpoint.DeviceDone: true, killpoint.Judged: true,
}

// preparePoints are the worker points reached while the worker prepares
// an API ahead, as the one before it still runs.
var preparePoints = map[string]bool{killpoint.PlanBefore: true, killpoint.PlanAfter: true}

// csvFile is the reference run's CSV: its bytes and where each row ends.
type csvFile struct {
	data []byte
	ends []int    // ends[0]: the header's end; ends[i]: row i's
	keys []string // API of each row (keys[0] is "")
}

func loadCSV(t *testing.T, path string) csvFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, path)
	f := csvFile{data: data}
	end := len("\xEF\xBB\xBF")
	for i, r := range rows {
		end += len(report.Record(r))
		f.ends = append(f.ends, end)
		key := ""
		if i > 0 {
			key = r[0]
			for _, dir := range []string{".forward.output.", ".backward.output."} {
				if j := strings.LastIndex(key, dir); j >= 0 {
					key = key[:j]
				}
			}
		}
		f.keys = append(f.keys, key)
	}
	if end != len(data) {
		t.Fatalf("%s: rows re-encoded take %d bytes, the file %d", path, end, len(data))
	}
	return f
}

// prefix checks that got is the start of f's bytes and returns how many
// whole rows it holds and whether a row after them is torn.
func (f csvFile) prefix(got []byte) (rows int, torn bool, ok bool) {
	if !bytes.HasPrefix(f.data, got) {
		return 0, false, false
	}
	for rows+1 < len(f.ends) && f.ends[rows+1] <= len(got) {
		rows++
	}
	if len(got) < f.ends[0] {
		return 0, len(got) > 0, true // the header itself is incomplete
	}
	return rows, len(got) != f.ends[rows], true
}

type killHit struct {
	point string
	n     int
	api   string
}

type killCase struct {
	killHit
	sig     syscall.Signal
	delayMS int
	workers int
}

func (c killCase) spec() killpoint.Spec {
	return killpoint.Spec{Point: c.point, N: int64(c.n), Signal: c.sig, Delay: time.Duration(c.delayMS) * time.Millisecond}
}

// drawKillCases draws k cases from the hits of a run: first one hit of
// every point (in a random order; with k large enough, a second round gives
// every point the other signal), then hits not drawn yet, signals
// alternating KILL and INT. Every fifth case runs 2 workers, and half the
// cases that stop just before a plugin computes fire after 1-3 ms instead,
// while it computes.
func drawKillCases(hits []killHit, k int, seed uint64) []killCase {
	rng := rand.New(rand.NewPCG(seed, 0x6b696c6c))
	byPoint := map[string][]int{}
	for i, h := range hits {
		byPoint[h.point] = append(byPoint[h.point], i)
	}
	type pick struct {
		hit int
		sig syscall.Signal
	}
	sigs := [2]syscall.Signal{syscall.SIGKILL, syscall.SIGINT}
	var picks []pick
	taken := map[int]bool{}
	points := slices.Clone(killpoint.Points)
	rng.Shuffle(len(points), func(i, j int) { points[i], points[j] = points[j], points[i] })
	rounds := 1
	if k >= 2*len(points) {
		rounds = 2
	}
	for r := 0; r < rounds; r++ {
		for j, p := range points {
			if idx := byPoint[p]; len(idx) > 0 {
				i := idx[rng.IntN(len(idx))]
				picks = append(picks, pick{i, sigs[(j+r)%2]})
				taken[i] = true
			}
		}
	}
	for _, i := range rng.Perm(len(hits)) {
		if !taken[i] {
			picks = append(picks, pick{i, sigs[len(picks)%2]})
		}
	}
	var out []killCase
	for i := 0; i < k; i++ {
		p := picks[i%len(picks)]
		c := killCase{killHit: hits[p.hit], sig: p.sig, workers: 1}
		if i%5 == 4 {
			c.workers = 2
		}
		if (c.point == killpoint.DeviceSent || c.point == killpoint.BenchSent) && rng.IntN(2) == 0 {
			c.delayMS = 1 + rng.IntN(3)
		}
		out = append(out, c)
	}
	return out
}

// TestKillPoints SIGKILLs and SIGINTs `probe run` at drawn points of its
// run (-killpoints, -killseed), checks what the interrupted run left, and
// that --resume into the same directory ends with the CSVs of an
// uninterrupted run, with no plugin process left behind.
func TestKillPoints(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	ref := t.TempDir()
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := probeCmd("run", "--api-info", killDump, "-o", ref, "--quiet", "--workers", "1")
	cmd.Env = append(cmd.Env, killpoint.EnvTrace+"="+trace)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	rp, dp := csvPair(t, ref)
	refRes, refDet := loadCSV(t, rp), loadCSV(t, dp)

	raw, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	// The hits of each point in the order of killpoint.Points, so that a
	// seed draws the same cases whatever the interleaving of the worker and
	// the writer. Batch fsyncs also come every 500 ms: only the first two,
	// which every run of more than one API reaches, are drawn.
	byPoint := map[string][]killHit{}
	count := map[string]int{}
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		point, api, _ := strings.Cut(line, "\t")
		count[point]++
		if point != killpoint.Synced || count[point] <= 2 {
			byPoint[point] = append(byPoint[point], killHit{point, count[point], api})
		}
	}
	var hits []killHit
	for _, p := range killpoint.Points {
		hits = append(hits, byPoint[p]...)
	}
	for _, p := range killpoint.Points {
		if count[p] == 0 {
			t.Errorf("the reference run never reached point %s", p)
		}
	}
	if len(refRes.ends) < 10 || count[killpoint.DeviceSent] != len(refRes.ends)-1 {
		t.Fatalf("%d result rows, %d device calls: not the run this test is written for", len(refRes.ends)-1, count[killpoint.DeviceSent])
	}

	cfg := filepath.Join(t.TempDir(), "probe.toml")
	if err := os.WriteFile(cfg, []byte("version = 1\n[run]\nmax_workers = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := drawKillCases(hits, *killPoints, *killSeed)
	tally.reset()
	t.Cleanup(func() {
		t.Logf("delayed signals landed while a plugin computed: %d, in the host: %d, after the run: %d", tally.plugin, tally.host, tally.never)
	})
	t.Logf("%d kill points drawn from %d hits of %d points with -killseed=%d", len(cases), len(hits), len(count), *killSeed)
	for i, c := range cases {
		name := fmt.Sprintf("%03d_%s#%d_%s", i, c.point, c.n, map[syscall.Signal]string{syscall.SIGKILL: "KILL", syscall.SIGINT: "INT"}[c.sig])
		if c.delayMS > 0 {
			name += fmt.Sprintf("_after%dms", c.delayMS)
		}
		if c.workers > 1 {
			name += "_2workers"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkKillCase(t, c, cfg, refRes, refDet)
		})
	}
}

func checkKillCase(t *testing.T, c killCase, cfg string, refRes, refDet csvFile) {
	out := filepath.Join(t.TempDir(), "out")
	marker := fmt.Sprintf("PROBE_KILLTEST=%d.%s", os.Getpid(), out)
	spec := c.spec()
	args := []string{"run", "--config", cfg, "--api-info", killDump, "-o", out, "--quiet", "--workers", strconv.Itoa(c.workers)}

	// The interrupted run.
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := probeCmd(args...)
	cmd.Env = append(cmd.Env, killpoint.EnvSpec+"="+spec.String(), killpoint.EnvTrace+"="+trace, marker)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	waitErr := runBounded(t, cmd)
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	fired := strings.Contains(stderr.String(), "probe: killpoint "+spec.String()+": at ")
	what := fmt.Sprintf("PROBE_KILLPOINT=%s, %d worker(s): %v\nstdout:\n%s\nstderr:\n%s", spec, c.workers, waitErr, stdout.String(), stderr.String())
	noneLeft(t, marker, "the interrupted run")
	if c.delayMS > 0 {
		landed := whereLanded(t, trace)
		t.Logf("the signal landed %s", landed)
		tally.add(landed)
	}

	// What it left: a byte prefix of the reference CSVs, rows whole but for
	// a last one torn by SIGKILL, the details of at most one API without
	// its result row, and only under SIGKILL.
	var gotRes, gotDet []byte
	var resPath string
	if r, _ := filepath.Glob(filepath.Join(out, "accuracy_checking_result_*.csv")); len(r) == 1 {
		resPath = r[0]
		gotRes, _ = os.ReadFile(resPath)
	} else if len(r) > 1 {
		t.Fatalf("%d result CSVs: %v", len(r), r)
	}
	if d, _ := filepath.Glob(filepath.Join(out, "accuracy_checking_details_*.csv")); len(d) == 1 {
		gotDet, _ = os.ReadFile(d[0])
	}
	nres, tornRes, ok1 := refRes.prefix(gotRes)
	ndet, tornDet, ok2 := refDet.prefix(gotDet)
	if !ok1 || !ok2 {
		t.Fatalf("the CSVs left are not the start of the uninterrupted run's (result %v, details %v); %s", ok1, ok2, what)
	}
	total := len(refRes.ends) - 1
	complete := nres == total && len(gotRes) == len(refRes.data) && len(gotDet) == len(refDet.data)
	killed := ws.Signaled() && ws.Signal() == syscall.SIGKILL
	if (tornRes || tornDet) && !killed {
		t.Errorf("a torn row without SIGKILL; %s", what)
	}
	// Details rows of the APIs with a result row, and at most of the next.
	lo, hi := detailsEnd(refRes, refDet, nres), detailsEnd(refRes, refDet, nres+1)
	if ndet < lo || ndet > hi || (!killed && ndet != lo) {
		t.Errorf("%d result rows and %d details rows (want %d..%d); %s", nres, ndet, lo, hi, what)
	}

	// How it ended.
	switch {
	case !fired && (c.delayMS == 0 && c.point != killpoint.Synced):
		t.Errorf("the point was not reached; %s", what)
	case waitErr == nil && !complete:
		t.Errorf("exit status 0 with %d of %d result rows; %s", nres, total, what)
	case c.sig == syscall.SIGKILL && fired && c.delayMS == 0 && !killed:
		t.Errorf("not ended by SIGKILL; %s", what)
	case c.sig == syscall.SIGINT && ws.Signaled() && !complete:
		t.Errorf("ended by a signal, not by the interrupt; %s", what)
	case c.sig == syscall.SIGINT && !complete && (ws.ExitStatus() != 1 || !strings.Contains(stderr.String(), "context canceled")):
		t.Errorf("want exit status 1 naming the interruption; %s", what)
	}

	// Where it stopped: the interrupted API got no row (one worker and a
	// point fired synchronously: the row count is known).
	if fired && c.workers == 1 && c.delayMS == 0 {
		k := slices.Index(refRes.keys, c.api) // 1-based among the rows
		var want []int
		switch {
		case c.point == killpoint.DumpParsed || c.point == killpoint.ResultCreated:
			want = []int{0}
		case preparePoints[c.point] && c.sig == syscall.SIGINT:
			// API k is prepared while k-1 runs: k-1 may be interrupted too.
			want = []int{k - 2, k - 1}
		case preparePoints[c.point]:
			want = []int{k - 3, k - 2, k - 1}
		case workerPoints[c.point] && c.sig == syscall.SIGINT:
			want = []int{k - 1}
		case workerPoints[c.point]:
			want = []int{k - 2, k - 1} // the writer may not have written k-1 yet
		case c.point == killpoint.DetailsWritten && c.sig == syscall.SIGKILL:
			want = []int{k - 1}
			if ndet != detailsEnd(refRes, refDet, k) {
				t.Errorf("killed after the details of %s: %d details rows, want %d", c.api, ndet, detailsEnd(refRes, refDet, k))
			}
		case c.point == killpoint.ResultWritten && c.sig == syscall.SIGKILL:
			want = []int{k}
		case c.point == killpoint.DetailsWritten || c.point == killpoint.ResultWritten:
			// The worker may finish the next API before it sees the
			// interrupt.
			want = []int{k, k + 1}
		}
		if c.api != "" && k < 1 {
			t.Fatalf("API %q of the trace has no row in the reference run", c.api)
		}
		if want != nil && !slices.Contains(want, nres) {
			t.Errorf("interrupted at %s of %q: %d result rows, want %v; %s", c.point, c.api, nres, want, what)
		}
	}
	if t.Failed() {
		return
	}

	// --resume into the same directory (a fresh run where the first one
	// was stopped before it made a result CSV).
	rargs := args
	if resPath != "" {
		rargs = append(slices.Clone(args), "--resume", resPath)
	}
	cmd = probeCmd(rargs...)
	cmd.Env = append(cmd.Env, marker)
	var rout, rerr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &rout, &rerr
	if err := runBounded(t, cmd); err != nil {
		t.Fatalf("resume: %v\n%s\n%s\nthe interrupted run: %s", err, rout.String(), rerr.String(), what)
	}
	noneLeft(t, marker, "the resumed run")
	if nres > 0 && !strings.Contains(rout.String(), fmt.Sprintf("already done before resume: %d)", nres)) {
		t.Errorf("resume summary does not count %d APIs done:\n%s", nres, rout.String())
	}
	if (tornRes || tornDet) && !strings.Contains(rerr.String(), "torn") {
		t.Errorf("resume did not report the torn row:\n%s", rerr.String())
	}
	r, d := csvPair(t, out)
	for _, p := range []struct {
		path string
		want []byte
	}{{r, refRes.data}, {d, refDet.data}} {
		if got, _ := os.ReadFile(p.path); !bytes.Equal(got, p.want) {
			t.Errorf("after --resume %s differs from the uninterrupted run (%d bytes, want %d); the interrupted run: %s", filepath.Base(p.path), len(got), len(p.want), what)
		}
	}
}

// whereLanded says where a delayed signal landed, from the trace of the
// interrupted run: while a plugin computed (after bench.sent or
// device.sent and before the matching .done), elsewhere, or not at all.
func whereLanded(t *testing.T, trace string) string {
	raw, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	for _, line := range strings.Split(string(raw), "\n") {
		point, api, _ := strings.Cut(line, "\t")
		switch {
		case point == killpoint.Signal:
			switch {
			case strings.HasSuffix(last, killpoint.BenchSent):
				return "while the bench plugin computed " + strings.Fields(last)[0]
			case strings.HasSuffix(last, killpoint.DeviceSent):
				return "while the device plugin computed " + strings.Fields(last)[0]
			}
			return "after " + last
		case workerPoints[point]:
			last = api + " " + point
		}
	}
	return "never: the run ended first"
}

// tally counts where delayed signals landed, for the summary.
var tally landings

type landings struct {
	sync.Mutex
	plugin, host, never int
}

func (l *landings) reset() {
	l.Lock()
	defer l.Unlock()
	l.plugin, l.host, l.never = 0, 0, 0
}

func (l *landings) add(where string) {
	l.Lock()
	defer l.Unlock()
	switch {
	case strings.HasPrefix(where, "while"):
		l.plugin++
	case strings.HasPrefix(where, "never"):
		l.never++
	default:
		l.host++
	}
}

// detailsEnd is how many details rows the first n APIs of the reference
// run have (rows are in API order).
func detailsEnd(res, det csvFile, n int) int {
	first := map[string]bool{}
	for _, k := range res.keys[1:min(n+1, len(res.keys))] {
		first[k] = true
	}
	rows := 0
	for _, k := range det.keys[1:] {
		if first[k] {
			rows++
		}
	}
	return rows
}

// runBounded runs cmd, killing it after a minute.
func runBounded(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	if !timer.Stop() {
		t.Fatalf("%v did not end within a minute", cmd.Args)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return err
}

// noneLeft fails unless every process started with marker in its
// environment (the host's plugins, whatever became of the host) is gone
// within 10 s.
func noneLeft(t *testing.T, marker, after string) {
	t.Helper()
	want := []byte(marker + "\x00")
	var left []int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left = left[:0]
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			if err == nil && bytes.Contains(env, want) && alive(pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Errorf("processes %v outlived %s", left, after)
}
