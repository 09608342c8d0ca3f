package host

// Golden CSVs: every example dump and every msprobe fixture dump gives the
// same result and details CSVs, byte for byte (the timestamp in the file
// names aside), at 1 and at 2 workers, as the files under
// testdata/golden-csv/<case>/ — the regression check of kernel and
// throughput work: a verdict or a metric that moves fails here, naming the
// API and the column.
//
//	go test ./host -run TestGoldenCSV -update-golden-csv   # rewrite them

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/probe-dev/probe/internal/fixtures"
)

var (
	updateGoldenCSV = flag.Bool("update-golden-csv", false, "TestGoldenCSV: rewrite testdata/golden-csv/ from this build's 1-worker CSVs")
	goldenCSVFull   = flag.Bool("golden-csv-full", false, "TestGoldenCSV: also run the fused-attention dumps in full at 2 workers (minutes)")
)

const goldenCSVDir = "testdata/golden-csv"

// goldenCase is one dump checked as one framework.
type goldenCase struct {
	name   string // directory under testdata/golden-csv
	dump   string
	fw     string
	compat bool // --compat msprobe
	// npy, when set, is copied as 2_3_input.npy into the working directory
	// of the run, beside a copy of the dump (its dump_data_dir is "": the
	// tensors are read from the working directory).
	npy string
	// heavy, when set, is the short name of a fused attention over 12
	// heads of 4096×4096 (40-90 s a run): its 1-worker run is shared with
	// TestUnitTestFixtures (sharedRun); without AVX2/FMA, and at 2
	// workers unless -golden-csv-full, it is black-listed and the other
	// APIs' rows are compared (so too where the memory budget makes it a
	// SKIP); with -short the case is skipped.
	heavy string
}

// goldenCases lists the example dumps and, when the fixture directory
// exists, msprobe's fixture dumps (withFixtures).
func goldenCases(t *testing.T) (cases []goldenCase, withFixtures bool) {
	t.Helper()
	// Every PyTorch dump also with --compat msprobe.
	add := func(name, dump, fw string) {
		c := goldenCase{name: name, dump: dump, fw: fw}
		cases = append(cases, c)
		if fw == "pytorch" {
			c.name += "-compat-msprobe"
			c.compat = true
			cases = append(cases, c)
		}
	}
	ex1, _ := filepath.Glob(filepath.Join(repo, "examples/*/dump.json"))
	ex2, _ := filepath.Glob(filepath.Join(repo, "examples/*/*/dump.json"))
	for _, d := range append(ex1, ex2...) {
		rel, _ := filepath.Rel(filepath.Join(repo, "examples"), filepath.Dir(d))
		fw := "pytorch"
		if strings.HasPrefix(rel, "mindspore") {
			fw = "mindspore"
		}
		add("examples-"+strings.ReplaceAll(filepath.ToSlash(rel), "/", "-"), d, fw)
	}
	ms, _ := filepath.Glob(filepath.Join(repo, "examples/mindspore/*.json"))
	for _, d := range ms {
		if filepath.Base(d) == "dump.json" {
			continue // examples/mindspore/dump.json is above
		}
		add("examples-mindspore-"+strings.TrimSuffix(filepath.Base(d), ".json"), d, "mindspore")
	}
	if len(cases) == 0 {
		t.Fatal("no example dump found")
	}
	dir, ok := fixtures.Dir()
	if !ok {
		return cases, false
	}
	uts, _ := filepath.Glob(filepath.Join(dir, "msprobe-unit-tests", "*.json"))
	for _, d := range uts {
		base := strings.TrimSuffix(filepath.Base(d), ".json")
		// As TestUnitTestFixtures: the framework each dump was written by.
		fw := "pytorch"
		if strings.Contains(base, "mindspore_ut_files") || strings.Contains(base, "mindspore_data_dump") {
			fw = "mindspore"
		}
		c := goldenCase{name: "msprobe-unit-tests-" + base, dump: d, fw: fw}
		switch base {
		case "mindspore_ut_files_api_info_tensor":
			c.npy = filepath.Join(dir, "msprobe-unit-tests", "mindspore_ut_files_2_3_input.npy")
		case "mindspore_ut_compare_dump_file_pytorch_data_dump":
			c.heavy = "npu_fusion_attention"
		case "mindspore_ut_compare_dump_file_mindspore_data_dump":
			c.heavy = "flash_attention_score"
		}
		cases = append(cases, c)
		if fw == "pytorch" && c.heavy == "" {
			c.name += "-compat-msprobe"
			c.compat = true
			cases = append(cases, c)
		}
	}
	cn, _ := filepath.Glob(filepath.Join(dir, "msprobe-cpu-convnet", "dumps", "*", "step0", "rank", "dump.json"))
	for _, d := range cn {
		add("msprobe-cpu-convnet-"+filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(d)))), d, "pytorch")
	}
	if len(uts) == 0 || len(cn) == 0 {
		t.Fatalf("fixture dumps missing under %s: %d unit-test dumps, %d conv-net dumps", dir, len(uts), len(cn))
	}
	return cases, true
}

func TestGoldenCSV(t *testing.T) {
	cases, withFixtures := goldenCases(t)
	if !withFixtures {
		t.Run("msprobe-fixtures", func(t *testing.T) { fixtures.Require(t) })
	} else {
		// A golden directory no case writes is a dump that went away.
		known := map[string]bool{}
		for _, c := range cases {
			known[c.name] = true
		}
		dirs, _ := os.ReadDir(goldenCSVDir)
		for _, e := range dirs {
			if e.IsDir() && !known[e.Name()] {
				t.Errorf("%s/%s: no dump gives this case any more; remove it", goldenCSVDir, e.Name())
			}
		}
	}
	// As TestUnitTestFixtures, whose run the 1-worker check shares.
	fullHeavy := !testing.Short() && cpu.X86.HasAVX2 && cpu.X86.HasFMA
	// max_workers: 2 workers even on a machine with one core.
	cfg := writeConfig(t, "version = 1\n[run]\nmax_workers = 2\n")
	// A fused attention needs about 6.1 GiB, more than a worker's share of
	// the default budget (half the memory available) at 2 workers on most
	// machines: -golden-csv-full gives each of 2 workers 6.5 GiB.
	cfgFull := writeConfig(t, "version = 1\n[run]\nmax_workers = 2\nmemory_budget_gib = 13\n")
	// The fused-attention runs go one at a time, as in
	// TestUnitTestFixtures: each takes both cores and ~6 GiB, and the
	// default memory budget is a share of the memory available.
	var heavyMu sync.Mutex
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.heavy != "" && testing.Short() {
				t.Skip("-short: a fused-attention dump (40-90 s; 3-6 s a run even with the attention black-listed)")
			}
			t.Parallel()
			goldenDir := filepath.Join(goldenCSVDir, c.name)
			args := []string{"run", "--framework", c.fw, "--api-info", c.dump, "--quiet"}
			if c.compat {
				args = append(args, "--compat", "msprobe")
			}
			for _, workers := range []int{1, 2} {
				// The fused attention runs at 1 worker where
				// TestUnitTestFixtures runs it (the run is shared), at 2
				// only with -golden-csv-full; elsewhere it is
				// black-listed and the other APIs' rows are compared.
				skipAPI := ""
				if c.heavy != "" && (!fullHeavy || (workers == 2 && !*goldenCSVFull)) {
					skipAPI = c.heavy
				}
				what := fmt.Sprintf("%d worker(s)", workers)
				out, stdout := func() (string, string) {
					if c.heavy != "" && skipAPI == "" {
						heavyMu.Lock()
						defer heavyMu.Unlock()
					}
					if workers == 1 && c.npy == "" && skipAPI == "" {
						return sharedRun(t, args...)
					}
					a := append([]string(nil), args...)
					if workers == 2 && c.heavy != "" && skipAPI == "" {
						a = append(a, "--config", cfgFull, "--workers", "2")
					} else if workers == 2 {
						a = append(a, "--config", cfg, "--workers", "2")
					}
					if skipAPI != "" {
						a = append(a, "--black-list", skipAPI)
					}
					if c.npy != "" {
						return runInCopy(t, c, a)
					}
					out := t.TempDir()
					return out, probeRun(t, append(a, "-o", out)...)
				}()
				if skipAPI != "" {
					what += ", " + skipAPI + " black-listed"
				}
				rp, _ := csvPair(t, out)
				rows := readRows(t, rp)
				if c.heavy != "" && skipAPI == "" {
					// Where the memory available is short, the budget
					// turns the attention into a SKIP row.
					for _, r := range rows[1:] {
						if apiOf(r[0]) == c.heavy && strings.Contains(r[3], "memory budget") {
							if *updateGoldenCSV {
								t.Fatalf("%s: not rewritten: %s", what, r[3])
							}
							t.Logf("%s: %s not compared: %s", what, c.heavy, r[3])
							skipAPI = c.heavy
						}
					}
				}
				// A run starts no more workers than it has APIs.
				want := max(1, min(workers, len(rows)-1))
				if !strings.Contains(stdout, fmt.Sprintf(" %d worker(s)", want)) {
					t.Errorf("%s: the run did not start %d worker(s):\n%s", what, want, stdout)
				}
				if *updateGoldenCSV && workers == 1 {
					if skipAPI != "" {
						t.Logf("not rewritten: %s is black-listed without AVX2/FMA", skipAPI)
					} else {
						writeGolden(t, goldenDir, out)
					}
				}
				compareGolden(t, what, goldenDir, out, skipAPI)
			}
		})
	}
}

func writeConfig(t *testing.T, toml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "probe.toml")
	if err := os.WriteFile(p, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runInCopy runs probe with args in a fresh directory holding copies of
// c's dump (as dump.json) and .npy, and returns the output directory and
// the run's stdout.
func runInCopy(t *testing.T, c goldenCase, args []string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	for _, cp := range [][2]string{{c.dump, "dump.json"}, {c.npy, "2_3_input.npy"}} {
		data, err := os.ReadFile(cp[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, cp[1]), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	args = append([]string(nil), args...)
	for i := range args {
		if args[i] == c.dump {
			args[i] = "dump.json"
		}
	}
	out := filepath.Join(dir, "out")
	cmd := probeCmd(append(args, "-o", out)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe %v: %v\n%s\n%s", args, err, stdout, stderr.String())
	}
	return out, string(stdout)
}

// sharedRuns holds the output of probe runs that more than one test
// checks, by their arguments; they live until TestMain removes its
// directory.
var sharedRuns struct {
	sync.Mutex
	m map[string]*sharedRunOut
}

type sharedRunOut struct {
	once                sync.Once
	dir, stdout, stderr string
	err                 error
}

// sharedRun runs probe with args plus "-o DIR" once per test binary and
// returns DIR and the run's stdout: TestUnitTestFixtures and TestGoldenCSV
// check the same 40-90 s runs of msprobe's fused-attention dumps.
func sharedRun(t *testing.T, args ...string) (string, string) {
	t.Helper()
	key := strings.Join(args, "\x00")
	sharedRuns.Lock()
	if sharedRuns.m == nil {
		sharedRuns.m = map[string]*sharedRunOut{}
	}
	r := sharedRuns.m[key]
	if r == nil {
		r = &sharedRunOut{}
		sharedRuns.m[key] = r
	}
	sharedRuns.Unlock()
	r.once.Do(func() {
		r.dir, r.err = os.MkdirTemp(filepath.Dir(probeBin), "shared-run-")
		if r.err != nil {
			return
		}
		var stdout, stderr bytes.Buffer
		cmd := probeCmd(append(append([]string(nil), args...), "-o", r.dir)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		r.err = cmd.Run()
		r.stdout, r.stderr = stdout.String(), stderr.String()
	})
	if r.err != nil {
		t.Fatalf("probe %v: %v\n%s\n%s", args, r.err, r.stdout, r.stderr)
	}
	return r.dir, r.stdout
}

func writeGolden(t *testing.T, goldenDir, out string) {
	t.Helper()
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	rp, dp := csvPair(t, out)
	for _, p := range [][2]string{{rp, "result.csv"}, {dp, "details.csv"}} {
		data, err := os.ReadFile(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(goldenDir, p[1]), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// compareGolden requires the CSVs in out to hold the bytes of the golden
// files; skipAPI, when set, is a black-listed API (short name): its rows
// are left out of the comparison and its result row must be a SKIP.
func compareGolden(t *testing.T, what, goldenDir, out, skipAPI string) {
	t.Helper()
	rp, dp := csvPair(t, out)
	for _, p := range [][2]string{{rp, "result.csv"}, {dp, "details.csv"}} {
		gp := filepath.Join(goldenDir, p[1])
		want, err := os.ReadFile(gp)
		if err != nil {
			t.Errorf("%s: %v (write it: go test ./host -run 'TestGoldenCSV' -update-golden-csv)", what, err)
			continue
		}
		got, err := os.ReadFile(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if skipAPI == "" {
			if !bytes.Equal(got, want) {
				t.Errorf("%s: %s differs from %s:\n%s", what, p[1], gp, csvDiff(p[0], got, gp, want))
			}
			continue
		}
		g, w := splitRecords(got), splitRecords(want)
		g, gs := dropAPI(g, skipAPI)
		w, _ = dropAPI(w, skipAPI)
		if p[1] == "result.csv" && (len(gs) != 1 || !bytes.Contains(gs[0], []byte(",SKIP,SKIP,"))) {
			t.Errorf("%s: black-listed %s: result rows %q, want one SKIP row", what, skipAPI, gs)
		}
		if !bytes.Equal(bytes.Join(g, nil), bytes.Join(w, nil)) {
			t.Errorf("%s: %s differs from %s in the other APIs' rows:\n%s", what, p[1], gp,
				csvDiff(p[0], bytes.Join(g, nil), gp, bytes.Join(w, nil)))
		}
	}
}

// splitRecords splits CSV bytes into records, each with its CRLF (a quoted
// field may hold line breaks).
func splitRecords(data []byte) [][]byte {
	var recs [][]byte
	start, quoted := 0, false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			quoted = !quoted
		case '\n':
			if !quoted {
				recs = append(recs, data[start:i+1])
				start = i + 1
			}
		}
	}
	if start < len(data) {
		recs = append(recs, data[start:])
	}
	return recs
}

// dropAPI splits records into those of other APIs and those of api (short
// name).
func dropAPI(recs [][]byte, api string) (others, of [][]byte) {
	for _, r := range recs {
		name, _, _ := bytes.Cut(r, []byte(","))
		if apiOf(string(name)) == api {
			of = append(of, r)
		} else {
			others = append(others, r)
		}
	}
	return others, of
}

// apiOf is the short API name of a result or details row name
// ("NPU.npu_fusion_attention.0[.forward.output.0]": npu_fusion_attention),
// or "".
func apiOf(row string) string {
	parts := strings.Split(row, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[1]
}

// csvDiff describes how got differs from want: row by row, the first
// differing rows with the API (row) name, the column name and both values;
// or, where every field is equal, the first differing bytes.
func csvDiff(gotPath string, got []byte, wantPath string, want []byte) string {
	var b strings.Builder
	for _, p := range []struct {
		name string
		data []byte
	}{{"got", got}, {"golden", want}} {
		if !bytes.HasPrefix(p.data, []byte("\xEF\xBB\xBF")) {
			fmt.Fprintf(&b, "  %s: no UTF-8 BOM\n", p.name)
		}
	}
	g, errG := parseCSV(got)
	w, errW := parseCSV(want)
	if errG != nil || errW != nil {
		fmt.Fprintf(&b, "  unparsable: %s: %v; %s: %v\n", gotPath, errG, wantPath, errW)
		return b.String()
	}
	header := w[0]
	if strings.Join(g[0], ",") != strings.Join(w[0], ",") {
		fmt.Fprintf(&b, "  header: %q\n  golden: %q\n", g[0], w[0])
	}
	// Rows by name (the first column): values that differ, rows on one
	// side only, then the first row out of order.
	gi, wi := map[string]int{}, map[string]int{}
	for i, r := range g[1:] {
		gi[r[0]] = i + 1
	}
	for i, r := range w[1:] {
		wi[r[0]] = i + 1
	}
	const maxRows = 8
	shown := 0
	for i, r := range w[1:] {
		if shown == maxRows {
			break
		}
		j, ok := gi[r[0]]
		if !ok {
			fmt.Fprintf(&b, "  %s: golden row %d missing\n", r[0], i+1)
			shown++
			continue
		}
		gr := g[j]
		var cols []string
		for k := 0; k < max(len(gr), len(r)); k++ {
			gv, wv := "<none>", "<none>"
			if k < len(gr) {
				gv = gr[k]
			}
			if k < len(r) {
				wv = r[k]
			}
			if gv != wv {
				col := fmt.Sprintf("column %d", k+1)
				if k < len(header) {
					col = header[k]
				}
				cols = append(cols, fmt.Sprintf("    %s: %q, golden %q", col, gv, wv))
			}
		}
		if len(cols) > 0 {
			fmt.Fprintf(&b, "  %s:\n%s\n", r[0], strings.Join(cols, "\n"))
			shown++
		}
	}
	for i, r := range g[1:] {
		if shown == maxRows {
			break
		}
		if _, ok := wi[r[0]]; !ok {
			fmt.Fprintf(&b, "  %s: row %d not in the golden file\n", r[0], i+1)
			shown++
		}
	}
	if shown == 0 {
		for i := 1; i < min(len(g), len(w)); i++ {
			if g[i][0] != w[i][0] {
				fmt.Fprintf(&b, "  row %d is %s, golden %s (rows out of order)\n", i, g[i][0], w[i][0])
				break
			}
		}
	}
	if len(g) != len(w) {
		fmt.Fprintf(&b, "  %d rows, golden %d\n", len(g)-1, len(w)-1)
	}
	if b.Len() == 0 {
		n := 0
		for n < len(got) && n < len(want) && got[n] == want[n] {
			n++
		}
		line := bytes.Count(want[:n], []byte("\n")) + 1
		fmt.Fprintf(&b, "  every field is equal, the bytes differ at offset %d (line %d): %q, golden %q (quoting, BOM or line ends)\n",
			n, line, got[n:min(len(got), n+16)], want[n:min(len(want), n+16)])
	}
	return b.String()
}

// parseCSV parses CSV bytes as probe writes them (UTF-8 BOM, CRLF).
func parseCSV(data []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err == nil && len(rows) == 0 {
		err = fmt.Errorf("no header")
	}
	return rows, err
}
