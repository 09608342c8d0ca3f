// Package run executes a pre-check: every forward API of a dump becomes one
// unit test, planned by the framework plugin, executed on the device under
// test and on the bench, judged by the precision standard and appended to
// the CSVs in dump order, whatever the number of workers.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/probe-dev/probe/host/internal/errordata"
	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
)

// Handle is a device plugin that can be restarted after a crash or a hang.
type Handle interface {
	Device() device.Device
	Restart(ctx context.Context) error
	Close() error
}

// Opener starts the plugin of one role for one worker.
type Opener func(ctx context.Context, worker int) (Handle, error)

// Options configure one run.
type Options struct {
	Dump      *dump.Dump
	Framework framework.Framework
	// Standard judges each output; Style shapes the rows the way the
	// checker of the dump's framework writes them.
	Standard standard.Standard
	Style    report.Style
	// Device and Bench start the device-under-test and bench plugins;
	// DeviceName and BenchName are their probe.toml names, for messages.
	Device, Bench         Opener
	DeviceName, BenchName string
	// IsCrash tells a plugin crash from an ordinary op error.
	IsCrash    func(error) bool
	Workers    int
	Seed       uint64
	APITimeout time.Duration
	// MaxRestarts bounds plugin restarts per role and worker.
	MaxRestarts int
	Writer      *report.Writer
	// Done lists APIs already written by an interrupted run (resume).
	Done map[string]bool
	// Progress, when not nil, receives one line per API.
	Progress io.Writer
	// ErrorData, when not nil, saves the data of APIs that do not pass
	// (-save_error_data).
	ErrorData *errordata.Saver
	// Compat reproduces msprobe's output where probe fixes a defect
	// (docs/compat.md): it is passed to the framework plugin (msprobe's
	// bench precisions and input generation), and drops the rows of
	// Module entries, the details rows of dropout and uses msprobe's -f
	// signature. Style carries the rest.
	Compat bool
	// WhiteList and BlackList filter APIs by short name (pytorch-precheck
	// §3.5); a filtered API gets a SKIP row.
	WhiteList, BlackList []string
	// MemoryBudget bounds, in bytes, the memory all workers' APIs may
	// take at once; an API over its worker's share is a SKIP naming both
	// sizes. 0: no bound.
	MemoryBudget int64
	// FilterAPI drops repeated identical calls of an API before the run
	// (-f/--filter_api, §3.6); dropped calls get no row.
	FilterAPI bool
	// DeviceDumped takes the device side from the dump (a tensor-mode
	// dump's saved outputs and gradients) instead of a device plugin;
	// Device is not used.
	DeviceDumped bool
}

// Worst is an API that did not pass, for the summary.
type Worst struct {
	Name, Forward, Backward, Reason string
}

// Summary counts the APIs written by this run.
type Summary struct {
	Total, Pass, Warning, Error, Skip, Resumed int
	// Workers is how many workers the run started.
	Workers int
	// Filtered counts the calls dropped as duplicates by FilterAPI.
	Filtered int
	Worst    []Worst
	// Timings is where the run's time went, summed over workers.
	Timings Timings
	// Peak is the largest resident set of each kind of process (bytes;
	// VmHWM, 0 where it cannot be read): the host, and over the workers
	// the device and the bench plugin processes (the last process of each
	// where one was restarted).
	Peak struct{ Host, Device, Bench int64 }
	// Slowest are the APIs whose device calls and judging took longest
	// (SlowestN at most, longest first).
	Slowest []APITime
}

// Timings splits a run's time by phase. Plan is the framework plugin's
// Plan calls; Inputs building the requests (loading or generating the
// tensors); Bench and Device the Execute calls, transport included;
// Metrics judging the outputs; Write the CSV rows and their fsyncs. Every
// phase but Write is summed over the workers, so with several workers
// they add up to more than the wall time.
type Timings struct {
	Plan, Inputs, Bench, Device, Metrics, Write time.Duration
}

type job struct {
	idx   int
	entry *dump.Entry
}

type result struct {
	idx int
	api *report.API
}

// Run checks every forward entry of the dump and writes the rows.
func Run(ctx context.Context, o Options) (*Summary, error) {
	if o.Workers < 1 {
		o.Workers = 1
	}
	var entries []*dump.Entry
	sum := &Summary{}
	all := o.Dump.Entries
	if o.FilterAPI {
		all, sum.Filtered = dedup(o.Dump, all, o.Compat)
	}
	for _, e := range all {
		if !writesRow(e) || (o.Compat && (e.Silent || e.MsprobeSkip != "")) {
			continue
		}
		if o.Done[e.Name] {
			sum.Resumed++
			continue
		}
		entries = append(entries, e)
	}
	// Every worker starts its own plugin processes: no more of them than
	// there are APIs to check.
	o.Workers = max(1, min(o.Workers, len(entries)))
	sum.Workers = o.Workers
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan job)
	results := make(chan result)
	var wg sync.WaitGroup
	startErr := make(chan error, o.Workers)
	deadErr := make(chan error, o.Workers)
	spent := make([]Timings, o.Workers)  // each worker's, written as it ends
	peaks := make([][2]int64, o.Workers) // each worker's plugins' VmHWM, read as it ends
	slow := make([][]APITime, o.Workers) // each worker's slowest APIs
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			wk, err := newWorker(ctx, &o, w)
			if err != nil {
				startErr <- &StartError{err}
				cancel()
				return
			}
			defer wk.close()
			defer func() {
				spent[w], peaks[w], slow[w] = wk.t, [2]int64{peakRSS(wk.device.h), peakRSS(wk.bench.h)}, wk.slowest
			}()
			// The next API is planned and its inputs built while this
			// one runs (prepareAhead); on an early return the preparer
			// ends with the run's context and its work is dropped.
			prepared, freed := wk.prepareAhead(ctx, jobs)
			defer func() {
				for pj := range prepared {
					o.Dump.Release(pj.p.e)
				}
			}()
			for pj := range prepared {
				api := wk.finish(ctx, pj.p)
				freed <- pj.need
				if ctx.Err() != nil {
					// The run was interrupted while this API ran:
					// what it returned may be the interruption
					// itself ("context canceled"), not a verdict.
					// It gets no row, so --resume runs it again.
					return
				}
				select {
				case results <- result{pj.idx, api}:
				case <-ctx.Done():
					return
				}
				if wk.dead != nil {
					// The API above did crash the plugin; the ones
					// after it get no row and --resume runs them.
					deadErr <- wk.dead
					cancel()
					return
				}
			}
		}(w)
	}
	go func() {
		defer close(jobs)
		for i, e := range entries {
			select {
			case jobs <- job{i, e}:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	pending := map[int]*report.API{}
	next := 0
	var writeErr error
	for r := range results {
		pending[r.idx] = r.api
		for pending[next] != nil && writeErr == nil {
			api := pending[next]
			delete(pending, next)
			next++
			t0 := time.Now()
			err := o.Writer.Write(api)
			sum.Timings.Write += time.Since(t0)
			if err != nil {
				writeErr = err
				cancel()
				break
			}
			sum.add(api)
			if o.Progress != nil {
				fmt.Fprintf(o.Progress, "[%d/%d] %s forward=%s backward=%s\n", next, len(entries), api.Name, api.Forward, strings.TrimSpace(api.Backward))
			}
		}
	}
	// results is closed: every worker has ended.
	for _, l := range slow {
		for _, a := range l {
			sum.Slowest = addSlowest(sum.Slowest, a)
		}
	}
	for _, pk := range peaks {
		sum.Peak.Device = max(sum.Peak.Device, pk[0])
		sum.Peak.Bench = max(sum.Peak.Bench, pk[1])
	}
	if kb, ok := procField("/proc/self/status", "VmHWM:"); ok {
		sum.Peak.Host = kb << 10
	}
	for _, t := range spent {
		sum.Timings.Plan += t.Plan
		sum.Timings.Inputs += t.Inputs
		sum.Timings.Bench += t.Bench
		sum.Timings.Device += t.Device
		sum.Timings.Metrics += t.Metrics
	}
	select {
	case err := <-startErr:
		return sum, err
	default:
	}
	if writeErr != nil {
		return sum, writeErr
	}
	select {
	case err := <-deadErr:
		if next < len(entries) {
			return sum, fmt.Errorf("run stopped after %d of %d APIs: %w; fix the plugin or raise plugins.max_restarts, then --resume checks the rest", next, len(entries), err)
		}
	default:
	}
	if err := ctx.Err(); err != nil && next < len(entries) {
		return sum, fmt.Errorf("run interrupted after %d of %d APIs: %w", next, len(entries), err)
	}
	sort.SliceStable(sum.Worst, func(i, j int) bool { return rank(sum.Worst[i]) < rank(sum.Worst[j]) })
	return sum, nil
}

// StartError is a plugin that failed to start: the run checked nothing
// with that worker.
type StartError struct{ Err error }

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// writesRow says whether an entry gets rows: every forward entry does —
// checked, or SKIP with the reason, also Module/Cell/Primitive entries that
// msprobe passes over silently (docs/compat.md) — except names a spreadsheet
// would run as a formula, which are only reported as warnings. Backward-only
// keys get no row.
func writesRow(e *dump.Entry) bool {
	if dump.UnsafeName(e.Name) {
		return false
	}
	if e.HasForward() {
		return true
	}
	segs := strings.Split(e.Key, ".")
	n := len(segs)
	return e.Skip != "" && (segs[n-1] == "forward" || (n >= 2 && segs[n-2] == "forward"))
}

func rank(w Worst) int {
	if w.Forward == standard.Error || w.Backward == standard.Error {
		return 0
	}
	return 1
}

func (s *Summary) add(a *report.API) {
	s.Total++
	st := standard.Aggregate([]string{a.Forward, a.Backward})
	switch {
	case a.Forward == standard.Skip:
		s.Skip++
		return
	case st == standard.Error:
		s.Error++
	case st == standard.Warning:
		s.Warning++
	default:
		s.Pass++
		return
	}
	reason := a.Message
	for _, d := range a.Details {
		if d.Status == standard.Error || d.Status == standard.Warning {
			reason = d.Name + ": " + strings.TrimSpace(d.Message)
			break
		}
	}
	s.Worst = append(s.Worst, Worst{Name: a.Name, Forward: a.Forward, Backward: a.Backward, Reason: reason})
}

// errCrash marks an API whose plugin crashed or hung.
type errCrash struct {
	role string
	err  error
}

func (e *errCrash) Error() string { return e.role + " plugin failed: " + e.err.Error() }
func (e *errCrash) Unwrap() error { return e.err }

func isCrash(err error) bool {
	var c *errCrash
	return errors.As(err, &c)
}
