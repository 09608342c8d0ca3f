package report

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/standard"
)

// Found by host/kill_test.go (PROBE_KILLPOINT=result.created:1:KILL): a run
// SIGKILLed between the creation of its result CSV and of its details CSV
// left the result header alone, and --resume refused it ("no such file").
// Resume now makes the details CSV as Create would have; a details CSV
// missing beside result rows is still refused.
func TestResumeAfterKillBetweenCreates(t *testing.T) {
	for _, flavor := range []Flavor{PyTorch, MindSpore} {
		w, err := Create(t.TempDir(), flavor, time.Unix(0, 0), 14)
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		want := readAll(t, w.DetailsPath)
		if err := os.Remove(w.DetailsPath); err != nil {
			t.Fatal(err)
		}
		w2, done, err := Resume(w.ResultPath, flavor, 14)
		if err != nil {
			t.Fatalf("flavor %d: %v", flavor, err)
		}
		if len(done) != 0 || len(w2.Repaired) != 1 || !strings.Contains(w2.Repaired[0], "made anew") {
			t.Errorf("flavor %d: done %v, Repaired %q", flavor, done, w2.Repaired)
		}
		if err := w2.Write(&API{Name: "API1", Forward: standard.Pass, Backward: standard.Pass, Details: []Detail{{Name: "API1.forward.output.0", Row: standard.Row{Status: standard.Pass}}}}); err != nil {
			t.Fatal(err)
		}
		w2.Close()
		if got := readAll(t, w.DetailsPath); !strings.HasPrefix(string(got), string(want)) || len(got) == len(want) {
			t.Errorf("flavor %d: details CSV %q, want the header %q and API1's row", flavor, got, want)
		}
	}

	w, err := Create(t.TempDir(), PyTorch, time.Unix(0, 0), 14)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(&API{Name: "API1", Forward: standard.Pass, Backward: standard.Pass})
	w.Close()
	os.Remove(w.DetailsPath)
	if _, _, err := Resume(w.ResultPath, PyTorch, 14); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("result rows without a details CSV: err %v, want a refusal", err)
	}
	if _, err := os.Stat(w.DetailsPath); err == nil {
		t.Error("a details CSV was made beside result rows")
	}
}
