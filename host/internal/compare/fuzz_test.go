package compare

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/internal/fixtures"
)

// fuzzSeedPairs returns NPU/GPU details CSV pairs to seed the fuzzers: the
// msprobe fixture pair (from testdata, and from the shared fixtures when
// present), the §10.7 example, and a few malformed files.
func fuzzSeedPairs() [][2][]byte {
	var pairs [][2][]byte
	dirs := []string{fixtureDir}
	if dir, ok := fixtures.Dir(); ok {
		dirs = append(dirs, filepath.Join(dir, "msprobe-cpu-convnet", "api_precision_compare", "ulp_vs_plain"))
	}
	for _, d := range dirs {
		npu, err1 := os.ReadFile(filepath.Join(d, "npu_accuracy_checking_details.csv"))
		gpu, err2 := os.ReadFile(filepath.Join(d, "gpu_accuracy_checking_details.csv"))
		if err1 == nil && err2 == nil {
			pairs = append(pairs, [2][]byte{npu, gpu})
		}
	}
	npu, gpu := example107()
	pairs = append(pairs, [2][]byte{detailsCSV(npu), detailsCSV(gpu)})
	odd := []in{
		{"API Name": "=cmd.x.0.forward.output.0", "DEVICE Dtype": "torch.float16"},
		{"API Name": "", "DEVICE Dtype": "nan"},
		{"API Name": "1.5"},
		{"API Name": "Torch.a.0.sideways.output.0", "DEVICE Dtype": "torch.float16", "Shape": "(4,)", "二进制一致错误率": "1_0"},
		{"API Name": "Torch.dup.0.forward.output.0", "DEVICE Dtype": "torch.float8_e4m3fn", "ULP误差大于阈值占比": "-inf"},
		{"API Name": "Torch.dup.0.forward.output.0", "DEVICE Dtype": "torch.float32", "ULP误差平均值": "NaN"},
	}
	pairs = append(pairs, [2][]byte{detailsCSV(odd), detailsCSV(odd[1:])})
	short := "API Name,DEVICE Dtype\r\nTorch.a.0.forward.output.0\r\n"
	pairs = append(pairs,
		[2][]byte{[]byte(short), []byte(short)},
		[2][]byte{[]byte("\xEF\xBB\xBF"), []byte("a,\"b\r\n")},
		[2][]byte{[]byte("a\r\nb,c\r\n"), []byte("\"\"\r\n\"x\"y\r\n")},
	)
	return pairs
}

// FuzzParseTable feeds arbitrary bytes to the reader of run_ut details
// CSVs: it returns a table or an error naming the side and the file, never
// panics; a table is internally consistent (no row longer than the
// header, a line for every row, the first of duplicate columns indexed),
// every cell reads in both modes, and the table survives Encode.
func FuzzParseTable(f *testing.F) {
	for _, p := range fuzzSeedPairs() {
		f.Add(p[0])
		f.Add(p[1])
	}
	const path = "/fuzz/npu_accuracy_checking_details.csv"
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := ParseTable(path, "NPU", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "NPU details CSV "+path) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkFuzzedTable(t, tb)
		if err := tb.CheckColumns(); (err != nil) != (len(tb.Missing()) > 0) || err != nil && !strings.Contains(err.Error(), path) {
			t.Fatalf("CheckColumns %v, missing %q", err, tb.Missing())
		}
		for i := range tb.Rows {
			for _, h := range tb.Header {
				for _, compat := range []bool{false, true} {
					if v := tb.cell(i, h, compat); v.k == kNone {
						t.Fatalf("row %d: column %q of the header reads as missing", i, h)
					}
				}
			}
			if w := tb.where(i, colAPIName); !strings.HasPrefix(w, filepath.Base(path)+" line ") {
				t.Fatalf("where %q", w)
			}
		}
		// Encode writes what ParseTable reads back (the reader turns a CRLF
		// inside a quoted field into LF, so a cell holding CRLF comes back
		// with LF).
		back, err := ParseTable(path, "NPU", Encode(tb.Header, tb.Rows))
		if err != nil {
			t.Fatalf("encoded table does not parse: %v", err)
		}
		if !slices.Equal(back.Header, crlfToLF(tb.Header)) || len(back.Rows) != len(tb.Rows) {
			t.Fatalf("encoded table reads back as %q with %d rows, want %q with %d", back.Header, len(back.Rows), tb.Header, len(tb.Rows))
		}
		for i := range tb.Rows {
			if !slices.Equal(back.Rows[i], crlfToLF(tb.Rows[i])) {
				t.Fatalf("row %d reads back as %q, want %q", i, back.Rows[i], tb.Rows[i])
			}
		}
	})
}

// compareHeaders are the headers FuzzCompare puts above its fuzzed rows:
// run_ut's, the required columns only (Shape and Message missing), and the
// required columns in reverse order with a duplicate.
var compareHeaders = [][]string{runUTHeader, RequiredColumns, append(reversedColumns(RequiredColumns), colAPIName, colShape)}

// FuzzCompare runs the whole comparison on two fuzzed details CSVs: a
// header with the required columns (one of compareHeaders) above fuzzed
// rows, so that mutations reach the rules rather than the header check. It
// never panics; every details row has the details header's width and every
// result row the result header's, the default mode never stops early, and
// the output encodes to CSVs that parse back with as many rows.
func FuzzCompare(f *testing.F) {
	body := func(b []byte) []byte {
		b = []byte(strings.TrimPrefix(string(b), bomPrefix))
		if i := strings.Index(string(b), "\n"); i >= 0 {
			return b[i+1:]
		}
		return nil
	}
	for _, p := range fuzzSeedPairs() {
		f.Add(body(p[0]), body(p[1]), uint8(0), false)
		f.Add(body(p[0]), body(p[1]), uint8(0), true)
	}
	f.Add([]byte("Torch.a.0.forward.output.0,torch.float16,0\r\n"), []byte("Torch.a.0.forward.output.0,torch.float16,1\r\n"), uint8(1), true)
	f.Add([]byte("0,0,0,0,0,0,0,0,0,0,0,0,torch.float16,Torch.matmul.0.forward.output.0\r\n"), []byte("inf,nan,0,0,0,0,0,0,0,0,0,0,torch.float16,Torch.matmul.0.forward.output.0\r\n"), uint8(2), false)
	f.Fuzz(func(t *testing.T, npuRows, gpuRows []byte, hdr uint8, compat bool) {
		header := report.Record(compareHeaders[int(hdr)%len(compareHeaders)])
		npu, err := ParseTable("/fuzz/npu.csv", "NPU", append(slices.Clip(header), npuRows...))
		if err != nil {
			return
		}
		gpu, err := ParseTable("/fuzz/gpu.csv", "GPU", append(slices.Clip(header), gpuRows...))
		if err != nil {
			return
		}
		checkFuzzedTable(t, npu)
		checkFuzzedTable(t, gpu)
		if err := npu.CheckColumns(); err != nil {
			t.Fatalf("header %d: %v", hdr, err)
		}
		warnings := 0
		out := Compare(npu, gpu, Options{Compat: compat, Warn: func(string) { warnings++ }})
		if !compat && out.Stopped != nil {
			t.Fatalf("default mode stopped: %v", out.Stopped)
		}
		for _, d := range out.Details {
			if len(d) != len(DetailsHeader) {
				t.Fatalf("details row of %d fields: %q", len(d), d)
			}
		}
		for _, r := range out.Results {
			if len(r) != len(ResultHeader) {
				t.Fatalf("result row of %d fields: %q", len(r), r)
			}
		}
		s := Summarize(out)
		if s.Pass+s.Warning+s.Error+s.Skip != s.APIs {
			t.Fatalf("summary %+v does not add up", s)
		}
		for _, c := range []struct {
			header []string
			rows   [][]string
		}{{DetailsHeader, out.Details}, {ResultHeader, out.Results}} {
			back, err := ParseTable("/fuzz/out.csv", "output", Encode(c.header, c.rows))
			if err != nil {
				t.Fatalf("output does not parse: %v", err)
			}
			if len(back.Rows) != len(c.rows) {
				t.Fatalf("output of %d rows reads back with %d", len(c.rows), len(back.Rows))
			}
		}
	})
}

func reversedColumns(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// checkFuzzedTable fails on an inconsistent table.
func checkFuzzedTable(t *testing.T, tb *Table) {
	t.Helper()
	if tb.Header == nil {
		t.Fatal("table without header")
	}
	if len(tb.Lines) != len(tb.Rows) || len(tb.kinds) != len(tb.Header) {
		t.Fatalf("%d rows, %d lines, %d kinds for %d columns", len(tb.Rows), len(tb.Lines), len(tb.kinds), len(tb.Header))
	}
	prev := 1
	for i, r := range tb.Rows {
		if len(r) > len(tb.Header) {
			t.Fatalf("row %d has %d fields, the header %d", i, len(r), len(tb.Header))
		}
		if tb.Lines[i] <= prev {
			t.Fatalf("row %d on line %d, after a row or header on line %d", i, tb.Lines[i], prev)
		}
		prev = tb.Lines[i]
	}
	for h, c := range tb.col {
		if c < 0 || c >= len(tb.Header) || tb.Header[c] != h || slices.Index(tb.Header, h) != c {
			t.Fatalf("column %q indexed at %d in header %q", h, c, tb.Header)
		}
	}
	if len(tb.col) > len(tb.Header) {
		t.Fatalf("%d columns indexed for a header of %d", len(tb.col), len(tb.Header))
	}
}

func crlfToLF(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = strings.ReplaceAll(f, "\r\n", "\n")
	}
	return out
}
