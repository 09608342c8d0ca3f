package report

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/standard"
)

// Issue 9, finding 8: a second probe resuming into the files a first one
// still writes doubled the rows. While a run holds its output directory,
// another run or resume there is refused with the holder's PID; the lock
// goes with the writer.
func TestOutputDirLocked(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, PyTorch, time.Unix(0, 0), 14)
	if err != nil {
		t.Fatal(err)
	}
	holder := fmt.Sprintf("in use by probe (pid %d)", os.Getpid())
	if _, err := Create(dir, PyTorch, time.Unix(0, 0), 14); err == nil || !strings.Contains(err.Error(), holder) {
		t.Errorf("second run: %v, want a refusal naming %q", err, holder)
	}
	if _, _, err := Resume(w.ResultPath, PyTorch, 14); err == nil || !strings.Contains(err.Error(), holder) {
		t.Errorf("resume while running: %v, want a refusal naming %q", err, holder)
	}
	if err := w.Write(&API{Name: "API1", Forward: standard.Pass, Backward: standard.Pass}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w2, done, err := Resume(w.ResultPath, PyTorch, 14)
	if err != nil || !done["API1"] {
		t.Fatalf("resume after the run ended: %v, done %v", err, done)
	}
	w2.Close()
}
