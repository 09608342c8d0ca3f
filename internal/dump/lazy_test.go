package dump

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/fixtures"
)

// dumpFiles are every dump file of the examples and the fixtures.
func dumpFiles(t testing.TB) []string {
	var out []string
	add := func(pattern string) {
		files, _ := filepath.Glob(pattern)
		out = append(out, files...)
	}
	add("../../examples/*/*/dump.json")
	add("../../examples/mindspore/*.json")
	if dir, ok := fixtures.Dir(); ok {
		add(filepath.Join(dir, "msprobe-unit-tests", "*.json"))
		add(filepath.Join(dir, "msprobe-cpu-convnet", "dumps", "*", "step0", "rank", "dump.json"))
	}
	if len(out) < 3 {
		t.Fatalf("only %d dump files found", len(out))
	}
	return out
}

// dumpCases are the dump files, each read as either framework.
func dumpCases(t *testing.T) [][2]string {
	var out [][2]string
	for _, f := range dumpFiles(t) {
		out = append(out, [2]string{f, PyTorch}, [2]string{f, MindSpore})
	}
	return out
}

// Open converts bodies on demand: materialized, its entries equal Load's,
// and again after Release; before, only what the name says is set.
func TestOpenMatchesLoad(t *testing.T) {
	compared := 0
	for _, c := range dumpCases(t) {
		path, fw := c[0], c[1]
		want, werr := Load(path, fw)
		got, gerr := Open(path, fw)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%s: Load error %v, Open error %v", path, werr, gerr)
			continue
		}
		if werr != nil {
			continue
		}
		if !reflect.DeepEqual(want.Warnings, got.Warnings) || len(want.Entries) != len(got.Entries) {
			t.Errorf("%s: warnings/entries differ: %q %d vs %q %d", path, want.Warnings, len(want.Entries), got.Warnings, len(got.Entries))
			continue
		}
		for i, g := range got.Entries {
			w := want.Entries[i]
			if g.Forward != nil || g.Backward != nil {
				t.Fatalf("%s: %s converted before Materialize", path, g.Name)
			}
			if g.HasForward() != w.HasForward() || g.HasBackward() != (w.Backward != nil) {
				t.Errorf("%s: %s: HasForward/HasBackward differ", path, g.Name)
			}
			compared++
			for round := 0; round < 2; round++ {
				got.Materialize(g)
				if !reflect.DeepEqual(g, w) {
					t.Errorf("%s: %s differs from Load's after Materialize (round %d)", path, g.Name, round)
				}
				got.Release(g)
				if g.Forward != nil || g.Backward != nil {
					t.Errorf("%s: %s still holds its bodies after Release", path, g.Name)
				}
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d entries compared", compared)
	}
}

// The errors of a malformed file are the same whichever way it is read.
func TestOpenErrorsMatchParse(t *testing.T) {
	for _, doc := range []string{
		`{"data": {"A.b.0.forward": {"input_args": [1, 2,]}}}`,
		`{"data": {"A.b.0.forward": {"x" 1}}}`,
		`{"data": {"A.b.0.forward": {"x": "\q"}}}`,
		`{"data": {"A.b.0.forward": {"x": "\u12"}}}`,
		`{"data": {"A.b.0.forward": {"x": 01}}}`,
		`{"data": {"A.b.0.forward": {"x": 1.e5}}}`,
		`{"data": {"A.b.0.forward": {"x": -Inf}}}`,
		`{"data": {"A.b.0.forward": {"x": "a` + "\x01" + `"}}}`,
		`{"data": {"A.b.0.forward": [` + strings.Repeat("[", 1200) + `}}`,
		`{"data": {"A.b.0.forward": {"input_args": []}}, "x": [1 2]}`,
		`{"data": {"A.b.0.forward": {"input_args": []}}} x`,
		`{"data": {"A.b.0.forward": {"s": "` + "\xff" + `"}, "B.c.0.forward": {}}}`,
	} {
		path := filepath.Join(t.TempDir(), "dump.json")
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		want, werr := Parse([]byte(doc), path, PyTorch)
		got, gerr := Open(path, PyTorch)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%q: Parse: %v, Open: %v", doc, werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(want.Warnings, got.Warnings) {
			t.Errorf("%q: warnings %q vs %q", doc, want.Warnings, got.Warnings)
		}
	}
}

// Positions from the checkpoints equal positionOf's at every offset, with
// multi-byte characters across checkpoint boundaries and long lines.
func TestPositionCheckpoints(t *testing.T) {
	var b bytes.Buffer
	for b.Len() < 5*checkpointEvery {
		b.WriteString(`{"é€😀": "`)
		b.WriteString(strings.Repeat("x", b.Len()%977))
		if b.Len()%3 == 0 {
			b.WriteByte('\n')
		}
	}
	data := b.Bytes()
	d := &Dump{src: data}
	var offs []int
	for off := 0; off <= len(data); off += 101 + off%997 {
		offs = append(offs, off)
	}
	for k := checkpointEvery; k < len(data); k += checkpointEvery {
		for o := k - 4; o <= k+4; o++ {
			offs = append(offs, o)
		}
	}
	for _, off := range offs {
		l1, c1 := positionOf(data, off)
		if l2, c2 := d.position(off); l1 != l2 || c1 != c2 {
			t.Fatalf("offset %d: %d:%d, want %d:%d", off, l2, c2, l1, c1)
		}
	}
}

// syntheticDump writes a statistics dump of n API calls: the forward and
// backward bodies of the conv net's example dump, repeated under new call
// indices (about 1.2 KB per call).
func syntheticDump(t testing.TB, n int) []byte {
	src, err := os.ReadFile("../../examples/convnet/statistics/dump.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := open(src, "dump.json", ".", PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	text := func(at int) []byte {
		p := &parser{data: src, pos: at}
		if _, err := p.skip(); err != nil {
			t.Fatal(err)
		}
		return src[at:p.pos]
	}
	var out bytes.Buffer
	out.WriteString(`{"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {`)
	count := map[string]int{}
	for calls := 0; calls < n; {
		for _, e := range d.Entries {
			if calls == n {
				break
			}
			if !e.HasForward() || e.Skip != "" {
				continue
			}
			base := e.Name[:strings.LastIndexByte(e.Name, '.')]
			name := fmt.Sprintf("%s.%d", base, count[base])
			count[base]++
			if calls > 0 {
				out.WriteString(",")
			}
			fmt.Fprintf(&out, "\n \"%s.forward\": %s", name, text(e.fwd.at))
			if e.HasBackward() {
				fmt.Fprintf(&out, ",\n \"%s.backward\": %s", name, text(e.bwd.at))
			}
			calls++
		}
	}
	out.WriteString("\n}}\n")
	return out.Bytes()
}

// Open keeps the file's bytes and a small index: for 20,000 calls the
// index is about a fifth of the file (Load's converted entries are about
// three and a half times the file).
func TestOpenIndexIsSmall(t *testing.T) {
	data := syntheticDump(t, 20000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d, err := open(data, "dump.json", ".", PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	index := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if len(d.Entries) != 20000 || index > int64(len(data))/4 {
		t.Errorf("%d entries; index %d bytes for a %d-byte file", len(d.Entries), index, len(data))
	}
	runtime.KeepAlive(d)
}

// BenchmarkOpen100k opens a dump of 100,000 API calls (about 120 MB; the
// README's figure): `go test ./internal/dump -run '^$' -bench Open100k
// -benchmem`. heapMB/file is the heap in use after the open (the file's
// bytes and the index) over the file's size.
func BenchmarkOpen100k(b *testing.B) {
	data := syntheticDump(b, 100000)
	path := filepath.Join(b.TempDir(), "dump.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	var ms runtime.MemStats
	for i := 0; i < b.N; i++ {
		d, err := Open(path, PyTorch)
		if err != nil {
			b.Fatal(err)
		}
		if i == b.N-1 {
			b.StopTimer()
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/float64(len(data)), "heap/file")
			b.ReportMetric(float64(len(data))/1e6, "fileMB")
			runtime.KeepAlive(d)
		}
	}
}
