package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/internal/fixtures"
)

// FuzzResume feeds arbitrary result and details CSVs to Resume, the reader
// of an interrupted run's files, then appends one API and closes, as a
// continued run does. It must never panic; it either refuses with an error
// naming one of the two files (and never refuses two files that parse and
// end with a line break), or returns a Writer whose done set is exactly
// the names of the result rows it kept, having only cut a torn last row
// off the result file, kept the details header and dropped only details
// rows of APIs not done. After the append and Close both files still parse
// with ReadCSV and hold the new API as their last row. The seeds are the
// msprobe run_ut fixture pairs, rows torn by a kill, and a few malformed
// files.
func FuzzResume(f *testing.F) {
	add := func(result, details string) {
		f.Add([]byte(result), []byte(details), false)
		f.Add([]byte(result), []byte(details), true)
	}
	const (
		bomS   = "\xEF\xBB\xBF"
		resHdr = bomS + "API name,Forward Test Success,Backward Test Success,Message\r\n"
		detHdr = bomS + "API Name,Bench Dtype,DEVICE Dtype,Shape,Status,Message\r\n"
	)
	add(resHdr, detHdr)
	add(resHdr+"A.x.0,pass,pass\r\nB.y.0,error,\"two\r\nlines\"\r\n",
		detHdr+"A.x.0.forward.output.0,torch.float64,torch.float32,\"(2,)\",pass,\r\nC.z.0.forward.output.0,a,b,c,pass,\r\n")
	add(resHdr+"A.x.0,pass,pass\r\nB.y.0,pa", detHdr+"A.x.0.forward.output.0,torch.float64,torch.fl")
	add(resHdr+"A.x.0,pass,\"open quote\nstill", detHdr)
	add(resHdr+"A.x.0,\"pass,pass,\r\nB.y.0,pass,pass,\r\n", detHdr)
	add(resHdr+"A,b\"c\r\n", detHdr)
	add("API name,Forward", "")
	add(bomS, bomS)
	add("", "")
	add("h\n\nA\n\n", "\"\"\r\nA.forward.output.0\r\nB.forward.output.0\r\n")
	addResumePair(f, filepath.Join("testdata", "accuracy_checking_result_20261130085759.csv"), filepath.Join("testdata", "accuracy_checking_details_20261130085759.csv"))
	if dir, ok := fixtures.Dir(); ok {
		results, _ := filepath.Glob(filepath.Join(dir, "msprobe-cpu-convnet", "run_ut", "*", "accuracy_checking_result_*.csv"))
		for _, r := range results {
			addResumePair(f, r, filepath.Join(filepath.Dir(r), strings.Replace(filepath.Base(r), "result", "details", 1)))
		}
	}
	f.Fuzz(func(t *testing.T, result, details []byte, mindspore bool) {
		flavor := PyTorch
		if mindspore {
			flavor = MindSpore
		}
		dir := fuzzMemDir(t)
		resultPath := filepath.Join(dir, "accuracy_checking_result_20260102030405.csv")
		detailsPath := filepath.Join(dir, "accuracy_checking_details_20260102030405.csv")
		fuzzWriteFile(t, resultPath, result)
		fuzzWriteFile(t, detailsPath, details)
		detailsBefore, detailsErr := parseCSV(detailsPath, details)

		w, done, err := Resume(resultPath, flavor, 14)
		if err != nil {
			if !strings.Contains(err.Error(), resultPath) && !strings.Contains(err.Error(), detailsPath) {
				t.Fatalf("error does not name the file: %v", err)
			}
			if wellFormedCSV(result) && wellFormedCSV(details) {
				t.Fatalf("refused two well-formed files: %v", err)
			}
			return
		}
		if w.DetailsPath != detailsPath {
			t.Fatalf("details path %s, want %s", w.DetailsPath, detailsPath)
		}
		// The result file lost at most a torn last row.
		kept := readAll(t, resultPath)
		if !bytes.HasPrefix(result, kept) {
			t.Fatalf("result file changed beyond a cut at its end:\n%q\nbecame\n%q", result, kept)
		}
		if (len(kept) < len(result)) != hasRepairNote(w.Repaired, resultPath) {
			t.Fatalf("result file cut from %d to %d bytes, notes %q", len(result), len(kept), w.Repaired)
		}
		rows, err := ReadCSV(resultPath)
		if err != nil {
			t.Fatalf("result file after Resume: %v", err)
		}
		want := map[string]bool{}
		for _, r := range rows[1:] {
			if r[0] != "" {
				want[r[0]] = true
			}
		}
		if len(done) != len(want) {
			t.Fatalf("done %v, but the result rows kept name %v", done, want)
		}
		for name := range done {
			if !want[name] {
				t.Fatalf("done holds %q, which no result row kept names", name)
			}
		}
		// The details kept are rows of done APIs.
		detRows, err := ReadCSV(detailsPath)
		if err != nil {
			t.Fatalf("details file after Resume: %v", err)
		}
		for _, r := range detRows[1:] {
			if !done[apiOfRow(r[0])] {
				t.Fatalf("details row %q kept, but its API is not done", r[0])
			}
		}
		if detailsErr == nil {
			// The header stays, and so does every row of a done API, but
			// for a torn last row that Resume cut.
			if !slices.Equal(detRows[0], detailsBefore[0]) {
				t.Fatalf("details header %q became %q", detailsBefore[0], detRows[0])
			}
			var wantRows []string
			for _, r := range detailsBefore[1:] {
				if done[apiOfRow(r[0])] {
					wantRows = append(wantRows, r[0])
				}
			}
			var got []string
			for _, r := range detRows[1:] {
				got = append(got, r[0])
			}
			if len(got) < len(wantRows) && hasRepairNote(w.Repaired, detailsPath) {
				wantRows = wantRows[:len(got)]
			}
			if !slices.Equal(got, wantRows) {
				t.Fatalf("details rows kept %q, want %q", got, wantRows)
			}
		}

		// A continued run appends an API; both files still parse and end
		// with it.
		row := standard.Row{BenchDType: "torch.float64", DeviceDType: "torch.float32", Shape: "(2,)", Status: standard.Pass}
		const name = "Fuzz.new_api.0"
		if err := w.Write(&API{Name: name, Forward: standard.Pass, Backward: standard.Pass, Details: []Detail{{Name: name + ".forward.output.0", Row: row}}}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		after, err := ReadCSV(resultPath)
		if err != nil {
			t.Fatalf("result file after Resume, Write and Close: %v", err)
		}
		if len(after) != len(rows)+1 || after[len(after)-1][0] != name {
			t.Fatalf("result rows after the append: %q, want %q plus %s", after, rows, name)
		}
		detAfter, err := ReadCSV(detailsPath)
		if err != nil {
			t.Fatalf("details file after Resume, Write and Close: %v", err)
		}
		if len(detAfter) != len(detRows)+1 || detAfter[len(detAfter)-1][0] != name+".forward.output.0" {
			t.Fatalf("details rows after the append: %q, want %q plus one row of %s", detAfter, detRows, name)
		}
	})
}

// wellFormedCSV says whether data is a CSV that parses and whose last row
// ends with a line break: nothing in it is torn or damaged.
func wellFormedCSV(data []byte) bool {
	_, err := parseCSV("", data)
	return err == nil && bytes.HasSuffix(data, []byte("\n"))
}

func addResumePair(f *testing.F, result, details string) {
	r, err1 := os.ReadFile(result)
	d, err2 := os.ReadFile(details)
	if err1 == nil && err2 == nil {
		f.Add(r, d, false)
	}
}

func hasRepairNote(notes []string, path string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, path+":") {
			return true
		}
	}
	return false
}

// fuzzMemDir is a temporary directory in /dev/shm where there is one, so
// that the fsyncs of Close cost nothing, else in the default temporary
// directory.
func fuzzMemDir(t *testing.T) string {
	dir, err := os.MkdirTemp("/dev/shm", "probe-fuzz-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func fuzzWriteFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o640); err != nil {
		t.Fatal(err)
	}
}
