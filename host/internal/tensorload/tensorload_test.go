package tensorload

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/internal/fixtures"
	"github.com/probe-dev/probe/sdk/tensor"
)

func fixturesDir(t testing.TB) string { return fixtures.Require(t) }

// expected is testdata/expected.json, written by testdata/gen.py with
// PyTorch 1.13 and NumPy.
type expected struct {
	DType  string            `json:"dtype"`
	Shape  []int             `json:"shape"`
	Values []json.RawMessage `json:"values"`
}

func readExpected(t *testing.T) map[string]expected {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]expected
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGeneratedFiles(t *testing.T) {
	exp := readExpected(t)
	if len(exp) < 30 {
		t.Fatalf("only %d expected files", len(exp))
	}
	for name, e := range exp {
		t.Run(name, func(t *testing.T) {
			got, err := Load("testdata", name, tensor.Invalid)
			if err != nil {
				t.Fatal(err)
			}
			if got.DType.String() != e.DType {
				t.Errorf("dtype %s, want %s", got.DType, e.DType)
			}
			if !reflect.DeepEqual(got.Shape, e.Shape) && !(len(got.Shape) == 0 && len(e.Shape) == 0) {
				t.Errorf("shape %v, want %v", got.Shape, e.Shape)
			}
			if got.Len() != len(e.Values) {
				t.Fatalf("%d elements, want %d", got.Len(), len(e.Values))
			}
			for i, raw := range e.Values {
				var s string
				if json.Unmarshal(raw, &s) == nil { // float, as float.hex()
					want, err := strconv.ParseFloat(s, 64)
					if err != nil {
						t.Fatalf("bad expected value %q", s)
					}
					g := got.At(i)
					if math.Float64bits(g) != math.Float64bits(want) && !(math.IsNaN(g) && math.IsNaN(want)) {
						t.Errorf("element %d = %v (%x), want %v (%x)", i, g, math.Float64bits(g), want, math.Float64bits(want))
					}
					continue
				}
				want, err := strconv.ParseInt(string(raw), 10, 64)
				if err != nil {
					t.Fatalf("bad expected value %s", raw)
				}
				if g := got.Int64(i); g != want {
					t.Errorf("element %d = %d, want %d", i, g, want)
				}
			}
		})
	}
}

// TestConvnetTensorDump loads every .pt of the reference tensor-mode dump
// and checks it against its dump.json descriptor: dtype, shape, and the
// Max/Min statistics msprobe computed on the live tensor.
func TestConvnetTensorDump(t *testing.T) {
	rel := filepath.Join("msprobe-cpu-convnet", "dumps", "convnet_tensor", "step0", "rank")
	d, err := dump.Load(filepath.Join(fixturesDir(t), rel, "dump.json"), dump.PyTorch)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(d.DataDir, "*.pt"))
	if err != nil || len(files) != 128 {
		t.Fatalf("%d .pt files (%v)", len(files), err)
	}
	checked := map[string]bool{}
	check := func(owner string, tensors map[string]*dump.TensorDesc) {
		for path, td := range tensors {
			if td.DataName == "" {
				t.Errorf("%s %s: no data_name", owner, path)
				continue
			}
			got, err := Load(d.DataDir, td.DataName, tensor.Invalid)
			if err != nil {
				t.Errorf("%s %s: %v", owner, path, err)
				continue
			}
			checked[td.DataName] = true
			if got.DType != td.DType || !reflect.DeepEqual(got.Shape, td.Shape) && !(len(got.Shape) == 0 && len(td.Shape) == 0) {
				t.Errorf("%s: %s %v, descriptor says %s %v", td.DataName, got.DType, got.Shape, td.DType, td.Shape)
				continue
			}
			if got.Len() == 0 {
				continue
			}
			mx, mn := math.Inf(-1), math.Inf(1)
			for _, v := range got.Float64s() {
				mx, mn = math.Max(mx, v), math.Min(mn, v)
			}
			// msprobe computes the statistics in float32.
			if float64(float32(mx)) != td.Max || float64(float32(mn)) != td.Min {
				t.Errorf("%s: max %v min %v, descriptor Max %v Min %v", td.DataName, mx, mn, td.Max, td.Min)
			}
		}
	}
	for _, e := range d.Entries {
		check(e.Name+" forward", e.Forward.Tensors)
		if e.Backward != nil {
			check(e.Name+" backward", e.Backward.Tensors)
		}
	}
	for _, f := range files {
		if !checked[filepath.Base(f)] {
			t.Errorf("%s is referenced by no descriptor", filepath.Base(f))
		}
	}
}

func TestMindSporeNPYFixture(t *testing.T) {
	root := filepath.Join(fixturesDir(t), "msprobe-unit-tests")
	got, err := Load(root, "mindspore_ut_files_2_3_input.npy", tensor.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	if got.DType != tensor.Float32 || !reflect.DeepEqual(got.Shape, []int{2, 3}) || !reflect.DeepEqual(got.Float64s(), []float64{1, 2, 3, 1, 2, 3}) {
		t.Errorf("got %s %v %v", got.DType, got.Shape, got.Float64s())
	}
	// The JSON dtype wins (MindSpore stores bf16 tensors as float32).
	bf, err := Load(root, "mindspore_ut_files_2_3_input.npy", tensor.BFloat16)
	if err != nil || bf.DType != tensor.BFloat16 || !reflect.DeepEqual(bf.Float64s(), []float64{1, 2, 3, 1, 2, 3}) {
		t.Errorf("as bf16: %v %v", err, bf)
	}
}

func TestWantConversion(t *testing.T) {
	f32, err := Load("testdata", "f32_2d.pt", tensor.Invalid)
	if err != nil {
		t.Fatal(err)
	}
	bf, err := Load("testdata", "f32_2d.pt", tensor.BFloat16)
	if err != nil {
		t.Fatal(err)
	}
	if bf.DType != tensor.BFloat16 || !reflect.DeepEqual(bf.Shape, f32.Shape) {
		t.Fatalf("bf16 %s %v", bf.DType, bf.Shape)
	}
	for i := 0; i < f32.Len(); i++ {
		if want := tensor.Round(tensor.BFloat16, f32.At(i)); bf.At(i) != want {
			t.Errorf("element %d: %v, want %v", i, bf.At(i), want)
		}
	}
	i64, err := Load("testdata", "i32.pt", tensor.Int64)
	if err != nil || i64.DType != tensor.Int64 || !reflect.DeepEqual(i64.Int64s(), []int64{math.MinInt32, math.MaxInt32, 7}) {
		t.Errorf("int32 → int64: %v %v", err, i64)
	}
	same, err := Load("testdata", "f16.pt", tensor.Float16)
	if err != nil || same.DType != tensor.Float16 {
		t.Errorf("same dtype: %v %v", err, same)
	}
}

func TestPathSafety(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "f4.npy"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(p string) {
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "sub", "ok.npy"))
	write(filepath.Join(tmp, "secret.npy"))
	write(filepath.Join(root, "data.bin"))
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(tmp, "secret.npy"), filepath.Join(root, "escape.npy")))
	must(os.Symlink(filepath.Join(root, "sub", "ok.npy"), filepath.Join(root, "inside.npy")))
	must(os.Symlink(tmp, filepath.Join(root, "up")))
	// A symlinked root is fine: only the resolved file must stay inside it.
	must(os.Symlink(root, filepath.Join(tmp, "rootlink")))

	for _, c := range []struct{ root, name string }{
		{root, "sub/ok.npy"}, {root, "inside.npy"}, {root, "./sub//ok.npy"}, {filepath.Join(tmp, "rootlink"), "sub/ok.npy"},
	} {
		if _, err := Load(c.root, c.name, tensor.Invalid); err != nil {
			t.Errorf("Load(%s, %s): %v", c.root, c.name, err)
		}
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	for _, c := range []struct{ root, name, want string }{
		{root, "../secret.npy", `".." is not allowed`},
		{root, "sub/../../secret.npy", `".." is not allowed`},
		{root, "sub/..", `".." is not allowed`},
		{root, filepath.Join(tmp, "secret.npy"), "absolute names are not allowed"},
		{root, "escape.npy", "outside the data directory " + realRoot},
		{root, "up/secret.npy", "outside the data directory"},
		{root, "missing.npy", "tensor file " + filepath.Join(realRoot, "missing.npy") + ": no such file or directory"},
		{root, "sub", "is not a regular file"},
		{root, "", "tensor file name is empty"},
		{"", "x.pt", "the dump has no real-data directory"},
		{filepath.Join(tmp, "nope"), "x.pt", "tensor data directory " + filepath.Join(tmp, "nope") + ": no such file or directory"},
		{root, "data.bin", "The file: " + filepath.Join(realRoot, "data.bin") + " is not a pt or numpy file."},
		{root, "a\x00b.npy", "NUL"},
	} {
		_, err := Load(c.root, c.name, tensor.Invalid)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%q, %q): %v, want an error containing %q", c.root, c.name, err, c.want)
		}
	}
}

func TestNPYErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "f4.npy"))
	if err != nil {
		t.Fatal(err)
	}
	header := func(h string) []byte {
		b := []byte("\x93NUMPY\x01\x00")
		b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
		return append(b, h...)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "missing the \\x93NUMPY magic"},
		{"bad magic", []byte("PK\x03\x04 not npy at all"), "missing the \\x93NUMPY magic"},
		{"version 4", append([]byte("\x93NUMPY\x04\x00"), 0, 0, 0, 0), "unsupported .npy format version 4.0"},
		{"truncated header", good[:20], "truncated .npy header"},
		{"truncated data", good[:len(good)-1], "needs 16 data bytes, the file has 15"},
		{"trailing data", append(append([]byte{}, good...), 0), "needs 16 data bytes, the file has 17"},
		{"complex", header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n"), `unsupported .npy dtype "<c8"`},
		{"uint16", header("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }\n"), `unsupported .npy dtype "<u2"`},
		{"object", header("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }\n"), "object arrays need pickle"},
		{"structured", header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n"), "structured arrays are not supported"},
		{"no shape", header("{'descr': '<f4', 'fortran_order': False}\n"), "'shape' is missing"},
		{"negative dim", header("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }\n"), "not a non-negative integer"},
		{"huge shape", header("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 1000000000, 1000000000), }\n"), "too large"},
		{"not a dict", header("('<f4', False, (1,))\n"), "the header is not a dict"},
		{"garbage", header("{'descr': '<f4', 'fortran_order': Maybe}\n"), "unexpected \"Maybe}"},
	}
	for _, c := range cases {
		_, err := DecodeNPY(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// Python 2 long integers in the shape are accepted.
	b := header("{'descr': '<i2', 'fortran_order': False, 'shape': (2L,), }\n")
	b = append(b, 1, 0, 0xff, 0xff)
	got, err := DecodeNPY(b)
	if err != nil || !reflect.DeepEqual(got.Int64s(), []int64{1, -1}) {
		t.Errorf("2L shape: %v %v", err, got)
	}
	// Bool bytes other than 0/1 are normalised.
	b = header("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n")
	got, err = DecodeNPY(append(b, 0, 7, 1))
	if err != nil || !bytes.Equal(got.Data, []byte{0, 1, 1}) {
		t.Errorf("bools: %v %v", err, got)
	}
}

// rezip rebuilds a .pt archive, letting edit change or drop records.
func rezip(t *testing.T, src []byte, edit func(name string, data []byte) ([]byte, bool)) []byte {
	return rezipAdd(t, src, edit, nil)
}

// rezipAdd is rezip plus new records named relative to the archive folder.
func rezipAdd(t *testing.T, src []byte, edit func(name string, data []byte) ([]byte, bool), add map[string][]byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(rc); err != nil {
			t.Fatal(err)
		}
		rc.Close()
		data, keep := edit(f.Name, buf.Bytes())
		if !keep {
			continue
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		if strings.HasSuffix(f.Name, "/data.pkl") {
			for n, d := range add {
				w, err := zw.CreateHeader(&zip.FileHeader{Name: strings.TrimSuffix(f.Name, "data.pkl") + n, Method: zip.Store})
				if err != nil {
					t.Fatal(err)
				}
				w.Write(d)
			}
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestPTErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "f32_2d.pt"))
	if err != nil {
		t.Fatal(err)
	}
	// Re-zipping unchanged still loads: the reader does not depend on
	// torch's exact layout.
	same := rezip(t, good, func(_ string, d []byte) ([]byte, bool) { return d, true })
	if _, err := DecodePT(same); err != nil {
		t.Fatalf("re-zipped file: %v", err)
	}
	pklName := func(n string) bool { return strings.HasSuffix(n, "/data.pkl") }
	replacePkl := func(repl func([]byte) []byte) []byte {
		return rezip(t, good, func(n string, d []byte) ([]byte, bool) {
			if pklName(n) {
				return repl(d), true
			}
			return d, true
		})
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"not a zip", []byte("hello"), "not a torch.save zip archive"},
		{"legacy", append(append([]byte{}, legacyMagic...), 1, 2, 3), "legacy (non-zip) torch.save format is not supported"},
		{"no data.pkl", rezip(t, good, func(n string, d []byte) ([]byte, bool) { return d, !pklName(n) }), "has no data.pkl"},
		{"missing storage", rezip(t, good, func(n string, d []byte) ([]byte, bool) { return d, !strings.Contains(n, "/data/") }), "the archive has no data/0 record"},
		{"short storage", rezip(t, good, func(n string, d []byte) ([]byte, bool) {
			if strings.Contains(n, "/data/") {
				return d[:len(d)-4], true
			}
			return d, true
		}), "12 float32 elements need 48 bytes, the record holds 44"},
		{"bad byteorder", rezipAdd(t, good, func(n string, d []byte) ([]byte, bool) { return d, true },
			map[string][]byte{"byteorder": []byte("middle")}), `unknown byteorder "middle"`},
		{"truncated pickle", replacePkl(func(d []byte) []byte { return d[:len(d)/2] }), "data.pkl"},
		{"huge string", replacePkl(func([]byte) []byte {
			return []byte("\x80\x02\x8d\x00\x00\x00\x00\x00\x00\x00\x10abc.")
		}), "announces 1152921504606846976 bytes"},
		{"not a tensor", replacePkl(func([]byte) []byte { return []byte("\x80\x02K\x05.") }), "the file holds a int, not a tensor"},
		{"unknown opcode", replacePkl(func([]byte) []byte { return []byte("\x80\x02\xff.") }), "unknown opcode 0xff"},
		{"complex storage", replacePkl(func(d []byte) []byte {
			return bytes.Replace(d, []byte("FloatStorage"), []byte("ComplxStorage"), 1)
		}), "unsupported storage type torch.ComplxStorage"},
	}
	for _, c := range cases {
		_, err := DecodePT(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A big-endian archive (byteorder "big", written by PyTorch >= 2.1 on
	// big-endian hosts) is byte-swapped.
	be := rezipAdd(t, good, func(n string, d []byte) ([]byte, bool) {
		if strings.Contains(n, "/data/") {
			c := append([]byte{}, d...)
			swapBytes(c, 4)
			return c, true
		}
		return d, true
	}, map[string][]byte{"byteorder": []byte("big")})
	le := rezipAdd(t, good, func(n string, d []byte) ([]byte, bool) { return d, true }, map[string][]byte{"byteorder": []byte("little")})
	a, err1 := DecodePT(le)
	b, err2 := DecodePT(be)
	if err1 != nil || err2 != nil || !bytes.Equal(a.Data, b.Data) || a.Len() != 12 {
		t.Errorf("byte orders: %v %v", err1, err2)
	}
}

func TestViewBounds(t *testing.T) {
	for _, c := range []struct {
		shape, strides []int
		offset, n      int
		ok             bool
	}{
		{[]int{2, 3}, []int{3, 1}, 0, 6, true},
		{[]int{2, 3}, []int{3, 1}, 1, 6, false},
		{[]int{3, 2}, []int{1, 3}, 0, 6, true},
		{[]int{4}, []int{0}, 0, 1, true},
		{[]int{0, 5}, []int{5, 1}, 100, 0, true},
		{[]int{2}, []int{-1}, 1, 2, false},
		{[]int{2}, []int{1, 1}, 0, 2, false},
		{[]int{1 << 40, 1 << 40}, []int{1, 1}, 0, 2, false},
		{[]int{2, 2}, []int{1 << 62, 1}, 0, 4, false},
	} {
		err := viewBounds(c.shape, c.strides, c.offset, c.n)
		if (err == nil) != c.ok {
			t.Errorf("viewBounds(%v, %v, %d, %d) = %v", c.shape, c.strides, c.offset, c.n, err)
		}
	}
}

func TestGatherMatchesNaive(t *testing.T) {
	// A 3-d permuted, offset view of a 2-byte storage.
	src := make([]byte, 200)
	for i := range src {
		src[i] = byte(i)
	}
	shape, strides, off := []int{3, 2, 4}, []int{1, 20, 4}, 5
	got := gather(src, 2, shape, strides, off)
	var want []byte
	for i := 0; i < 3; i++ {
		for j := 0; j < 2; j++ {
			for k := 0; k < 4; k++ {
				p := off + i*strides[0] + j*strides[1] + k*strides[2]
				want = append(want, src[2*p], src[2*p+1])
			}
		}
	}
	if !bytes.Equal(got, want) {
		t.Errorf("gather\n got %v\nwant %v", got, want)
	}
}

func TestPanicAttribution(t *testing.T) {
	_, err := safeDecode(func(io.ReaderAt, int64) (*tensor.Tensor, error) {
		var s []int
		_ = s[3] // a bug of this package
		return nil, nil
	}, nil, 0)
	if err == nil || !strings.HasPrefix(err.Error(), "internal error while decoding") {
		t.Errorf("own panic: %v", err)
	}
	// gopickle panics on a DICT over an odd number of items: a corrupt file.
	pt := rezip(t, mustRead(t, "f32_2d.pt"), func(n string, d []byte) ([]byte, bool) {
		if strings.HasSuffix(n, "/data.pkl") {
			return []byte("(K0d."), true
		}
		return d, true
	})
	if _, err := DecodePT(pt); err == nil || !strings.HasPrefix(err.Error(), "corrupt pickle in data.pkl") {
		t.Errorf("gopickle panic: %v", err)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
