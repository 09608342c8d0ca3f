package host

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/run"
	"github.com/probe-dev/probe/internal/dump"
)

// The memory budget's estimate of an API (run.NeedBytes) covers what the
// host and its device and bench plugins really hold at once while they
// check it: the summed proportional set size (PSS, shared-memory segments
// counted once) of the process tree, sampled every 10 ms, stays under the
// estimate of the largest API.
func TestMemoryEstimate(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("PSS is read from /proc/<pid>/smaps_rollup (Linux)")
	}
	if testing.Short() {
		t.Skip("-short: runs two APIs on 2M-element tensors")
	}
	if _, err := os.Stat("/proc/self/smaps_rollup"); err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	desc := func(lo, hi int) string {
		return `{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2048, 1024], "Max": ` + strconv.Itoa(hi) + `, "Min": ` + strconv.Itoa(lo) + `, "requires_grad": true}`
	}
	js := `{"task": "statistics", "data": {
"Functional.relu.0.forward": {"input_args": [` + desc(-1, 1) + `], "input_kwargs": {}, "output": [` + desc(0, 1) + `]},
"Functional.relu.0.backward": {"input": [` + desc(-1, 1) + `], "output": [` + desc(-1, 1) + `]},
"Tensor.add.0.forward": {"input_args": [` + desc(-1, 1) + `, ` + desc(-1, 1) + `], "input_kwargs": {}, "output": [` + desc(-2, 2) + `]}}}`
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.json")
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := dump.Load(path, dump.PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	var estimate int64
	for _, e := range d.Entries {
		estimate = max(estimate, run.NeedBytes(e))
	}

	cmd := probeCmd("run", "--api-info", path, "-o", filepath.Join(dir, "out"), "--quiet", "--workers", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	per := map[int]int64{}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("probe run: %v", err)
			}
			finished = true
		case <-tick.C:
			var sum int64
			for _, pid := range processTree(cmd.Process.Pid) {
				v := pss(pid)
				sum += v
				per[pid] = max(per[pid], v)
			}
			peak = max(peak, sum)
		}
	}
	for pid, v := range per {
		who := "plugin"
		if pid == cmd.Process.Pid {
			who = "host"
		}
		t.Logf("%s %d: peak PSS %.0f MB", who, pid, float64(v)/(1<<20))
	}
	t.Logf("peak PSS of host and plugins %.0f MB, estimate of the largest API %.0f MB", float64(peak)/(1<<20), float64(estimate)/(1<<20))
	if peak == 0 || peak > estimate {
		t.Errorf("peak PSS %d bytes, above the estimate %d", peak, estimate)
	}
}

// processTree is pid and its descendants, from /proc/<pid>/task/*/children.
func processTree(pid int) []int {
	out, todo := []int{}, []int{pid}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		out = append(out, p)
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(p) + "/task/*/children")
		for _, f := range tasks {
			b, _ := os.ReadFile(f)
			for _, c := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(c); err == nil {
					todo = append(todo, n)
				}
			}
		}
	}
	return out
}

// pss is a process's proportional set size in bytes (0 when it is gone).
func pss(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
