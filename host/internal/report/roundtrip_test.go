package report

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/fixtures"
)

// msprobeCSVs lists the run_ut and api_precision_compare CSVs written by
// msprobe: the shared fixtures (when present) and the copies in testdata.
func msprobeCSVs(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.csv"))
	if len(files) == 0 {
		t.Fatal("no CSV in testdata")
	}
	sharedFixtures, ok := fixtures.Dir()
	if !ok {
		t.Logf("%s absent: only testdata's CSVs are checked", sharedFixtures)
		return files
	}
	err := filepath.WalkDir(sharedFixtures, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if !d.IsDir() && strings.HasSuffix(name, ".csv") && (strings.Contains(name, "details") || strings.Contains(name, "result")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Reading a CSV msprobe wrote and writing it back with a BOM and Record
// gives the same bytes: ReadCSV loses nothing (quoted messages with line
// feeds, SPACE cells, 3-field result rows) and Record quotes as Python's csv
// module does.
func TestReadWriteRoundTrip(t *testing.T) {
	for _, path := range msprobeCSVs(t) {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(want, bom) {
			t.Errorf("%s: no BOM", path)
			continue
		}
		rows, err := ReadCSV(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		got := append([]byte(nil), bom...)
		for _, r := range rows {
			got = append(got, Record(r)...)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(0, i-60)
			t.Errorf("%s (%d rows): first difference at byte %d:\n got  %q\n want %q", path, len(rows), i,
				got[lo:min(len(got), i+60)], want[lo:min(len(want), i+60)])
		}
	}
}
