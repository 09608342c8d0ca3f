package report

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/probe-dev/probe/host/internal/standard"
)

// Issue 9, finding 5: a last row torn by kill -9 (no final line break, or
// an open quote) was glued to the next row on resume — one API lost,
// another marked done — or made resume refuse. Resume drops the torn row,
// says so, and the API runs again.
func TestResumeDropsTornRow(t *testing.T) {
	row := standard.Row{BenchDType: "torch.float64", DeviceDType: "torch.float32", Shape: "(2,)", Status: standard.Pass}
	for name, torn := range map[string]string{
		"no line break": "API3,pa",
		"open quote":    "API3,pass,pass,\"Cosine similarity\nis less",
	} {
		t.Run(name, func(t *testing.T) {
			w, err := Create(t.TempDir(), PyTorch, time.Unix(0, 0), 14)
			if err != nil {
				t.Fatal(err)
			}
			for _, api := range []string{"API1", "API2"} {
				if err := w.Write(&API{Name: api, Forward: standard.Pass, Backward: standard.Pass, Message: "two\nlines", Details: []Detail{{Name: api + ".forward.output.0", Row: row}}}); err != nil {
					t.Fatal(err)
				}
			}
			w.Close()
			good := readAll(t, w.ResultPath)
			f, err := os.OpenFile(w.ResultPath, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(torn)
			f.Close()

			w2, done, err := Resume(w.ResultPath, PyTorch, 14)
			if err != nil {
				t.Fatal(err)
			}
			if !done["API1"] || !done["API2"] || len(done) != 2 {
				t.Errorf("done %v, want API1 and API2", done)
			}
			if len(w2.Repaired) != 1 || !strings.Contains(w2.Repaired[0], "torn") {
				t.Errorf("Repaired %q, want one note on the torn row", w2.Repaired)
			}
			if err := w2.Write(&API{Name: "API3", Forward: standard.Pass, Backward: standard.Pass}); err != nil {
				t.Fatal(err)
			}
			w2.Close()
			rows, err := ReadCSV(w.ResultPath)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 4 || rows[3][0] != "API3" || rows[3][1] != standard.Pass {
				t.Errorf("rows after resume %q", rows)
			}
			if !strings.HasPrefix(string(readAll(t, w.ResultPath)), string(good)) {
				t.Error("rows written before the torn one changed")
			}
		})
	}
}

// Damage that is not at the end of the file is not cut away: resume
// refuses, naming the file and the byte.
func TestResumeRefusesDamageInside(t *testing.T) {
	w, err := Create(t.TempDir(), PyTorch, time.Unix(0, 0), 14)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(&API{Name: "API1", Forward: standard.Pass, Backward: standard.Pass})
	w.Close()
	f, _ := os.OpenFile(w.ResultPath, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("API2,\"pass,pass,\r\nAPI3,pass,pass,\r\n")
	f.Close()
	before := readAll(t, w.ResultPath)
	if _, _, err := Resume(w.ResultPath, PyTorch, 14); err == nil || !strings.Contains(err.Error(), "not at the end of the file") {
		t.Errorf("err %v, want a refusal naming the damage", err)
	}
	if string(readAll(t, w.ResultPath)) != string(before) {
		t.Error("the file was changed")
	}
}
