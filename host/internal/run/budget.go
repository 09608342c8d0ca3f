package run

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/tensor"
)

// NeedBytes estimates the memory one API takes while it is checked, on the
// host and in the device and bench plugin processes together: every dumped
// tensor (inputs and outputs) at its dtype and as float64, twice over and
// Copies times when the API has a backward (the gradients are as large),
// CopiesForward times when it has none. It errs high rather than low: a
// SKIP with a size is better than a run killed for memory.
func NeedBytes(e *dump.Entry) int64 {
	need := dumpedBytes(e, func(d tensor.DType) int { return d.Size() + 8 })
	need *= float64(copiesFor(e))
	if need > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(need)
}

// Copies is how many times the tensor bytes of an API (each tensor at its
// dtype and as float64) may be resident at once across the three processes
// that check it: the host's generated or loaded tensors and results, the
// shared-memory segments that carry them, each plugin's own copies and
// float64 working arrays, the buffers the pools keep for the next API, and
// the garbage the Go runtime has not yet collected. Measured as the summed
// PSS of the host and both plugins of the emulated device and the CPU
// bench: 3.8-4.2 times the tensor bytes in TestMemoryEstimate (relu with
// backward, then add, on 2M float32 elements, sampled every 10 ms; 4.9-6.0
// before results were read in place and buffers reused), 3.2 times for the
// largest API of bench/dumps/gpt-fp32 (the 512×50257 lm-head linear with
// backward: 5.6 GiB, sampled every 0.3 s). 6 keeps a margin of 1.4 over
// the highest.
const Copies = 6

// CopiesForward is Copies for an API without a backward: its summed PSS
// peaked at 1.9 times its tensor bytes (lerp_ over the 51 M-element token
// embedding of bench/dumps/gpt-fp32, the general path: 3.30 GiB) and 1.0
// times (addcmul_ of the same, the direct path: 2.34 GiB), sampled every
// 50 ms with run.memory_budget_gib raised; 3 keeps a margin of 1.5. With
// Copies, these AdamW calls needed an estimated 13.8 GiB and were SKIPped
// on a 24 GiB machine.
const CopiesForward = 3

// copiesFor is the multiple of e's tensor bytes NeedBytes counts: 2 ×
// Copies with a backward, CopiesForward without.
func copiesFor(e *dump.Entry) int {
	if e.Backward != nil {
		return 2 * Copies
	}
	return CopiesForward
}

// warmSlack is how far an API prepared while another runs may grow its
// plugin connection's idle shared memory (see fitsWarm).
const warmSlack = 64 << 20

// warmer is a device connection that says how many bytes it can lend
// without growing shared memory (pluginhost's device).
type warmer interface{ WarmBytes() int64 }

// fitsWarm reports whether e's tensors fit, on each side, in the shared
// memory its plugin connection holds idle (or grow it by at most
// warmSlack). Preparing an API while another runs needs a second segment
// per side; one that has to grow faults in fresh pages, which costs more
// than the overlap saves (3-4 s a GiB on the VM the benchmarks ran on,
// against under 1 s a GiB to generate inputs), and then stays that large
// for the rest of the run. An API that does not fit is prepared once the
// one before it is done, in the segment that one gives back.
func (w *worker) fitsWarm(e *dump.Entry) bool {
	for _, r := range []*role{w.device, w.bench} {
		if r == nil || r.h == nil {
			continue
		}
		wm, ok := r.h.Device().(warmer)
		if !ok {
			continue
		}
		warm := wm.WarmBytes()
		if warm < 0 {
			continue
		}
		if sideBytes(e, r == w.bench) > max(warm, warmSlack) {
			return false
		}
	}
	return true
}

// dumpedBytes sums e's forward tensors (inputs and outputs), each element
// counted size(its dtype) bytes; 0 when e has no forward.
func dumpedBytes(e *dump.Entry, size func(tensor.DType) int) float64 {
	if e.Forward == nil {
		return 0
	}
	var n float64
	for _, d := range e.Forward.Tensors {
		k := 1.0
		for _, s := range d.Shape {
			k *= float64(max(s, 0))
		}
		n += k * float64(size(d.DType))
	}
	return n
}

// sideBytes estimates the shared memory one side's call of e takes: its
// dumped tensors at their dtype (the bench's as float64), twice over when
// the API has a backward (the gradients are as large).
func sideBytes(e *dump.Entry, bench bool) int64 {
	n := dumpedBytes(e, func(d tensor.DType) int {
		if bench {
			return 8
		}
		return d.Size()
	})
	if e.Backward != nil {
		n *= 2
	}
	return int64(min(n, math.MaxInt64/2))
}

// AvailableBytes is the memory a run may count on: the least of the
// kernel's MemAvailable, the cgroup's limit less its usage, and the
// address-space limit (ulimit -v, prlimit --as) less what the process
// already maps. 0 when none can be read.
func AvailableBytes() int64 {
	var avail int64
	take := func(v int64) {
		if v > 0 && (avail == 0 || v < avail) {
			avail = v
		}
	}
	if kb, ok := procField("/proc/meminfo", "MemAvailable:"); ok {
		take(kb << 10)
	}
	if raw, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if lim, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64); err == nil {
			used := int64(0)
			if cur, err := os.ReadFile("/sys/fs/cgroup/memory.current"); err == nil {
				used, _ = strconv.ParseInt(strings.TrimSpace(string(cur)), 10, 64)
			}
			take(max(lim-used, 1))
		}
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur < math.MaxInt64 {
		mapped, _ := procField("/proc/self/status", "VmSize:")
		take(max(int64(rl.Cur)-mapped<<10, 1))
	}
	return avail
}

// procField reads a "Name:  N kB" line of a /proc file.
func procField(path, name string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				v, err := strconv.ParseInt(f[0], 10, 64)
				return v, err == nil
			}
		}
	}
	return 0, false
}

// overBudget says why e is not checked when it needs more than the
// worker's share of the memory budget, or "".
func (w *worker) overBudget(e *dump.Entry) string {
	if w.o.MemoryBudget <= 0 {
		return ""
	}
	share := w.share()
	if need := NeedBytes(e); need > share {
		what := "its tensors at their dtype and as float64"
		copies := CopiesForward
		if e.Backward != nil {
			what += ", twice for the backward"
			copies = Copies
		}
		what += fmt.Sprintf(", %d copies across the host and the device and bench plugins", copies)
		return fmt.Sprintf("needs about %s of memory (%s), more than this worker's share of the memory budget, %s (run.memory_budget_gib; default: half the memory available)", gib(need), what, gib(share))
	}
	return ""
}

// share is the worker's part of the memory budget (MaxInt64 without one).
func (w *worker) share() int64 {
	if w.o.MemoryBudget <= 0 {
		return math.MaxInt64
	}
	return w.o.MemoryBudget / int64(max(w.o.Workers, 1))
}

func gib(n int64) string { return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30)) }

// peakRSS is the VmHWM of a plugin's process (bytes), 0 where the handle
// has no process id or /proc cannot be read.
func peakRSS(h Handle) int64 {
	p, ok := h.(interface{ Pid() int })
	if !ok || p.Pid() <= 0 {
		return 0
	}
	kb, ok := procField(fmt.Sprintf("/proc/%d/status", p.Pid()), "VmHWM:")
	if !ok {
		return 0
	}
	return kb << 10
}
