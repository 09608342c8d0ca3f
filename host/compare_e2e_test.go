package host

// End-to-end tests of "probe compare" / "api_precision_compare" through
// the built binary (probeBin, built by TestMain in e2e_test.go).

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const compareFixture = "internal/compare/testdata/ulp_vs_plain"

// comparePair returns the two CSVs probe compare wrote into dir.
func comparePair(t *testing.T, dir string) (string, string) {
	t.Helper()
	r, _ := filepath.Glob(filepath.Join(dir, "api_precision_compare_result_*.csv"))
	d, _ := filepath.Glob(filepath.Join(dir, "api_precision_compare_details_*.csv"))
	if len(r) != 1 || len(d) != 1 {
		t.Fatalf("%s: want one result and one details CSV, got %v %v", dir, r, d)
	}
	if strings.TrimPrefix(filepath.Base(r[0]), "api_precision_compare_result_") != strings.TrimPrefix(filepath.Base(d[0]), "api_precision_compare_details_") {
		t.Errorf("the two files do not share a timestamp: %s %s", r[0], d[0])
	}
	return r[0], d[0]
}

func sameBytes(t *testing.T, got, want string) {
	t.Helper()
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g, w) {
		t.Errorf("%s differs from %s", got, w)
	}
}

// readOnlyCopy copies a fixture input into dir with mode 0444 (msprobe
// demands write permission on its inputs; probe only reads them).
func readOnlyCopy(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(compareFixture, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o444); err != nil {
		t.Fatal(err)
	}
	return p
}

// With --compat msprobe, probe compare writes msprobe's two files byte for
// byte on msprobe's own input pair; msprobe's spelling of the command and
// its flags gives, without --compat, the same bytes (the pair triggers none
// of the defects probe fixes).
func TestCompareFixture(t *testing.T) {
	in := t.TempDir()
	npu := readOnlyCopy(t, in, "npu_accuracy_checking_details.csv")
	gpu := readOnlyCopy(t, in, "gpu_accuracy_checking_details.csv")
	wantR := filepath.Join(compareFixture, "api_precision_compare_result_20261130091219.csv")
	wantD := filepath.Join(compareFixture, "api_precision_compare_details_20261130091219.csv")

	out := t.TempDir()
	stdout := probeRun(t, "compare", "--npu", npu, "--gpu", gpu, "-o", out, "--compat", "msprobe")
	for _, s := range []string{"APIs compared: 35", "pass: 32", "error: 3", "skip: 0", "Result CSV:", "Details CSV:"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("summary lacks %q:\n%s", s, stdout)
		}
	}
	r, d := comparePair(t, out)
	sameBytes(t, r, wantR)
	sameBytes(t, d, wantD)
	if !strings.Contains(stdout, r) || !strings.Contains(stdout, d) {
		t.Errorf("summary does not name the CSVs:\n%s", stdout)
	}
	if st, err := os.Stat(r); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("result CSV mode: %v %v", st.Mode(), err)
	}

	out2 := filepath.Join(t.TempDir(), "new", "dir")
	probeRun(t, "-f", "pytorch", "api_precision_compare", "-npu", npu, "-gpu", gpu, "-o", out2)
	r, d = comparePair(t, out2)
	sameBytes(t, r, wantR)
	sameBytes(t, d, wantD)
}

// A second comparison into the same directory never overwrites the first:
// it takes the next free second.
func TestCompareDoesNotOverwrite(t *testing.T) {
	npu := filepath.Join(compareFixture, "npu_accuracy_checking_details.csv")
	gpu := filepath.Join(compareFixture, "gpu_accuracy_checking_details.csv")
	out := t.TempDir()
	probeRun(t, "compare", "--npu", npu, "--gpu", gpu, "-o", out, "--quiet")
	probeRun(t, "compare", "--npu", npu, "--gpu", gpu, "-o", out, "--quiet")
	r, _ := filepath.Glob(filepath.Join(out, "api_precision_compare_result_*.csv"))
	d, _ := filepath.Glob(filepath.Join(out, "api_precision_compare_details_*.csv"))
	if len(r) != 2 || len(d) != 2 {
		t.Errorf("want two pairs of files, got %v %v", r, d)
	}
}

// compareFails runs probe compare expecting exit status code and returns
// stderr.
func compareFails(t *testing.T, code int, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := probeCmd(args...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != code {
		t.Fatalf("probe %v: %v, want exit status %d\n%s", args, err, code, stderr.String())
	}
	return stderr.String()
}

// User mistakes get exit status 2; unusable inputs exit 1 with a message
// naming the file (and the line or column), and no CSV is written.
func TestCompareErrors(t *testing.T) {
	npu := filepath.Join(compareFixture, "npu_accuracy_checking_details.csv")
	gpu := filepath.Join(compareFixture, "gpu_accuracy_checking_details.csv")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")

	if s := compareFails(t, 2, "compare", "--npu", npu, "-o", out); !strings.Contains(s, "--gpu") {
		t.Errorf("missing --gpu: %s", s)
	}
	if s := compareFails(t, 2, "compare", "--npu", npu, "--gpu", gpu, "--compat", "pandas"); !strings.Contains(s, "msprobe") {
		t.Errorf("bad --compat: %s", s)
	}

	missing := filepath.Join(dir, "nope.csv")
	if s := compareFails(t, 1, "compare", "--npu", missing, "--gpu", gpu, "-o", out); !strings.Contains(s, "NPU details CSV") || !strings.Contains(s, missing) {
		t.Errorf("missing NPU file: %s", s)
	}
	if s := compareFails(t, 1, "compare", "--npu", npu, "--gpu", dir, "-o", out); !strings.Contains(s, "GPU details CSV") || !strings.Contains(s, dir) {
		t.Errorf("directory as GPU file: %s", s)
	}

	// a run_ut *result* CSV instead of a details CSV
	result := filepath.Join("testdata", "msprobe", "convnet_tensor", "accuracy_checking_result_20261130085813.csv")
	if s := compareFails(t, 1, "compare", "--npu", npu, "--gpu", result, "-o", out); !strings.Contains(s, result) || !strings.Contains(s, "missing column(s) API Name, DEVICE Dtype, 小值域错误占比") {
		t.Errorf("result CSV as GPU file: %s", s)
	}

	// a malformed CSV: an unterminated quote
	bad := filepath.Join(dir, "bad.csv")
	data, err := os.ReadFile(npu)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, append(data, []byte("Torch.x.0.forward.output.0,\"unterminated\r\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	line := "line " + strconv.Itoa(bytes.Count(data, []byte("\n"))+1)
	if s := compareFails(t, 1, "compare", "--npu", bad, "--gpu", gpu, "-o", out); !strings.Contains(s, bad) || !strings.Contains(s, line) {
		t.Errorf("malformed CSV: %s", s)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was created although every run failed", out)
	}
}
