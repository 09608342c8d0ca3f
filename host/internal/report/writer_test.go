package report

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/standard"
)

// mindspore-precheck §11.6 (test_data_manager, test_multi_data_manager), in
// terms of probe's writer: the done set of a resumed run, recorded results
// and exception skips, headers written exactly once over repeated saves,
// and a failed details write that keeps the result row out.
func TestDataManagerVectors(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, MindSpore, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 0)
	if err != nil {
		t.Fatal(err)
	}
	row := standard.Row{BenchDType: "Float64", DeviceDType: "Float32", Shape: "(2,)", Status: standard.Pass}
	// record([("API1", "FORWARD", info, result)]): one entry for API1.
	if err := w.Write(&API{Name: "API1", Forward: standard.Pass, Details: []Detail{{Name: "API1.forward.output.0", Row: row}}}); err != nil {
		t.Fatal(err)
	}
	// record_exception_skip("API3", "FORWARD", "custom err msg").
	if err := w.Write(&API{Name: "API3", Forward: standard.Skip, Message: "custom err msg"}); err != nil {
		t.Fatal(err)
	}
	// Repeated saves: the headers are written once.
	for i := 0; i < 5; i++ {
		if err := w.Write(&API{Name: "API4", Forward: standard.Pass, Details: []Detail{{Name: "API4.forward.output.0", Row: row}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	res, det := readAll(t, w.ResultPath), readAll(t, w.DetailsPath)
	if n := bytes.Count(res, []byte("API Name,")); n != 1 {
		t.Errorf("result header written %d times", n)
	}
	if n := bytes.Count(det, []byte("API Name,")); n != 1 {
		t.Errorf("details header written %d times", n)
	}
	rows, err := ReadCSV(w.ResultPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 || rows[1][0] != "API1" || rows[2][0] != "API3" || rows[2][1] != standard.Skip || rows[2][3] != "custom err msg" {
		t.Errorf("result rows %q", rows)
	}

	// The done set: an API with a result row is not run again
	// (is_unique_api: true, then false).
	w2, done, err := Resume(w.ResultPath, MindSpore, 0)
	if err != nil {
		t.Fatal(err)
	}
	for api, want := range map[string]bool{"API1": true, "API3": true, "API4": true, "API5": false} {
		if done[api] != want {
			t.Errorf("done[%s] = %v, want %v", api, done[api], want)
		}
	}

	// A details write that fails keeps the API's result row out, so the
	// API runs again on resume.
	w2.details.Close()
	if err := w2.Write(&API{Name: "API6", Forward: standard.Pass, Details: []Detail{{Name: "API6.forward.output.0", Row: row}}}); err == nil {
		t.Error("writing to a closed details file succeeded")
	}
	w2.result.Close()
	if bytes.Contains(readAll(t, w.ResultPath), []byte("API6")) {
		t.Error("API6 has a result row although its details were not written")
	}
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Issue 9, finding 10: two fsyncs per API bound a run whose APIs are all
// filtered out (35 s for 50,000). The writer syncs every syncRows rows or
// syncInterval, and at Close: 2,000 rows take a handful of fsyncs, and
// every row is on disk after Close.
func TestSyncsBatched(t *testing.T) {
	w, err := Create(t.TempDir(), PyTorch, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 0)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 2000
	start := time.Now()
	for i := 0; i < rows; i++ {
		if err := w.Write(&API{Name: fmt.Sprintf("Torch.x.%d", i), Forward: standard.Skip, Message: "filtered"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// at most one per 100 rows, one per interval elapsed (the first row's
	// among them: nothing was synced before it), one at Close
	allowed := rows/100 + int(time.Since(start)/syncInterval) + 2
	if w.syncs > allowed || w.syncs == 0 {
		t.Errorf("%d fsyncs for %d rows, want at most %d", w.syncs, rows, allowed)
	}
	if got := strings.Count(string(readAll(t, w.ResultPath)), "\r\n"); got != rows+1 {
		t.Errorf("%d lines in the result file, want %d", got, rows+1)
	}
}
