package run

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/probe-dev/probe/internal/dump"
)

// NeedBytes estimates the memory one API takes on the host while it is
// checked: every dumped tensor (inputs and outputs) at its dtype and as
// the float64 bench copy, twice over when the API has a backward (the
// gradients are as large). It errs high rather than low: a SKIP with a
// size is better than a run killed for memory.
func NeedBytes(e *dump.Entry) int64 {
	if e.Forward == nil {
		return 0
	}
	var need float64
	for _, d := range e.Forward.Tensors {
		n := 1.0
		for _, s := range d.Shape {
			n *= float64(max(s, 0))
		}
		need += n * float64(d.DType.Size()+8)
	}
	if e.Backward != nil {
		need *= 2
	}
	if need > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(need)
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
	share := w.o.MemoryBudget / int64(max(w.o.Workers, 1))
	if need := NeedBytes(e); need > share {
		what := "its tensors at their dtype and as float64 bench copies"
		if e.Backward != nil {
			what += ", twice for the backward"
		}
		return fmt.Sprintf("needs about %s of memory (%s), more than this worker's share of the memory budget, %s (run.memory_budget_gib; default: half the memory available)", gib(need), what, gib(share))
	}
	return ""
}

func gib(n int64) string { return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30)) }
