package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const fixtureDir = "testdata/ulp_vs_plain"

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff describes where two byte slices first differ, line-wise.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return "identical lines"
}

// runFixture compares the fixture pair in mode compat through Run and
// returns the two files' bytes.
func runFixture(t *testing.T, compat bool) (result, details []byte, s Summary) {
	t.Helper()
	out := t.TempDir()
	var warnings []string
	s, err := Run(filepath.Join(fixtureDir, "npu_accuracy_checking_details.csv"), filepath.Join(fixtureDir, "gpu_accuracy_checking_details.csv"),
		out, time.Date(2026, 11, 30, 9, 12, 19, 0, time.Local), Options{Compat: compat, Warn: func(w string) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("warnings on the fixture: %q", warnings)
	}
	if filepath.Base(s.ResultPath) != "api_precision_compare_result_20261130091219.csv" || filepath.Base(s.DetailsPath) != "api_precision_compare_details_20261130091219.csv" {
		t.Errorf("file names %s %s", s.ResultPath, s.DetailsPath)
	}
	return mustRead(t, s.ResultPath), mustRead(t, s.DetailsPath), s
}

// On msprobe's own input pair, --compat msprobe writes msprobe's two files
// byte for byte.
func TestFixtureCompatIsByteIdentical(t *testing.T) {
	res, det, s := runFixture(t, true)
	wantRes := mustRead(t, filepath.Join(fixtureDir, "api_precision_compare_result_20261130091219.csv"))
	wantDet := mustRead(t, filepath.Join(fixtureDir, "api_precision_compare_details_20261130091219.csv"))
	if !bytes.Equal(res, wantRes) {
		t.Errorf("result CSV differs from msprobe's: %s", firstDiff(res, wantRes))
	}
	if !bytes.Equal(det, wantDet) {
		t.Errorf("details CSV differs from msprobe's: %s", firstDiff(det, wantDet))
	}
	if s.APIs != 35 || s.Error != 3 || s.Pass != 32 || s.Skip != 0 || s.Rows != 62 {
		t.Errorf("summary %+v", s)
	}
}

// The fixture triggers none of the defects probe fixes, so the default mode
// writes the same bytes as --compat msprobe.
func TestFixtureDefaultEqualsCompat(t *testing.T) {
	cr, cd, _ := runFixture(t, true)
	dr, dd, _ := runFixture(t, false)
	if !bytes.Equal(cr, dr) {
		t.Errorf("result CSV: default differs from compat: %s", firstDiff(dr, cr))
	}
	if !bytes.Equal(cd, dd) {
		t.Errorf("details CSV: default differs from compat: %s", firstDiff(dd, cd))
	}
}
