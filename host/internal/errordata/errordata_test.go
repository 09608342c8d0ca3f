package errordata

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/host/internal/tensorload"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

func ft(vals ...float64) *tensor.Tensor {
	return tensor.FromFloat64s(tensor.Float32, []int{len(vals)}, vals)
}

// TestIndexVectors checks the spec's §11.6 vectors.
func TestIndexVectors(t *testing.T) {
	// [None,[True,[42,[3.14,["test",[slice(0,10)]]]]]]
	nested := L(S(KindNone), L(S(KindBool), L(S(KindInt), L(S(KindFloat), L(S(KindStr), L(S(KindSlice)))))))
	if items, next := Walk(nested, 0); next != 6 || len(items) != 0 {
		t.Errorf("scalars: next %d, %d tensors; want 6, 0", next, len(items))
	}
	// 6 nested tensors: [t,[t,[t,[t,[t,[t]]]]]]
	six := L(T(ft(5)))
	for i := 4; i >= 0; i-- {
		six = L(T(ft(float64(i))), six)
	}
	items, next := Walk(six, 0)
	if next != 6 || len(items) != 6 {
		t.Fatalf("6 nested: next %d, %d tensors; want 6, 6", next, len(items))
	}
	for i, it := range items {
		if it.Index != i || it.Tensor.At(0) != float64(i) {
			t.Errorf("6 nested: item %d has index %d value %v", i, it.Index, it.Tensor.At(0))
		}
	}
	// dict of 5 tensors
	keys := []string{"a", "b", "c", "d", "e"}
	vals := make([]Node, 5)
	for i := range vals {
		vals[i] = T(ft(float64(i)))
	}
	if items, next := Walk(D(keys, vals), 0); next != 5 || len(items) != 5 || items[4].Index != 4 {
		t.Errorf("dict of 5: next %d, %d tensors", next, len(items))
	}
	// a single tensor gets index 0
	if items, next := Walk(T(ft(1)), 0); next != 1 || len(items) != 1 || items[0].Index != 0 {
		t.Errorf("single tensor: %v %d", items, next)
	}
	// mixed: [t, None, [3, t], {k: t}, dtype, nil-tensor, t]
	mixed := L(T(ft(0)), S(KindNone), L(S(KindInt), T(ft(3))), D([]string{"k"}, []Node{T(ft(4))}), S(KindOther), T(nil), T(ft(7)))
	items, next = Walk(mixed, 10)
	got := []int{}
	for _, it := range items {
		got = append(got, it.Index)
	}
	if next != 18 || !slices.Equal(got, []int{10, 13, 14, 17}) {
		t.Errorf("mixed: indices %v next %d; want [10 13 14 17] 18", got, next)
	}
	// empty containers consume nothing
	if _, next := Walk(L(L(), D(nil, nil)), 0); next != 0 {
		t.Errorf("empty containers: next %d", next)
	}
}

func TestFromArg(t *testing.T) {
	tens := map[string]*tensor.Tensor{"args.0": ft(1), "args.2.1": ft(2)}
	a := framework.Arg{Kind: framework.ArgList, Elems: []framework.Arg{
		{Kind: framework.ArgTensor, Path: "args.0"},
		{Kind: framework.ArgSize, Ints: []int64{2, 3}},
		{Kind: framework.ArgList, Elems: []framework.Arg{{Kind: framework.ArgDType}, {Kind: framework.ArgTensor, Path: "args.2.1"}}},
		{Kind: framework.ArgTensor, Path: "missing"},
		{Kind: framework.ArgSlice, Elems: []framework.Arg{{Kind: framework.ArgInt}, {Kind: framework.ArgNone}, {Kind: framework.ArgNone}}},
		{Kind: framework.ArgEllipsis},
	}}
	items, next := Walk(FromArg(a, func(p string) *tensor.Tensor { return tens[p] }), 0)
	if next != 8 || len(items) != 2 || items[0].Index != 0 || items[1].Index != 4 {
		t.Errorf("FromArg walk: %+v next %d", items, next)
	}
	if n := FromArg(framework.Arg{Kind: framework.ArgTensor}, nil); n.Kind != KindTensor || n.Tensor != nil {
		t.Errorf("nil lookup: %+v", n)
	}
}

func TestShouldSave(t *testing.T) {
	for _, c := range []struct {
		f, b string
		want bool
	}{
		{standard.Pass, standard.Pass, false},
		{standard.Pass, standard.Space, false},
		{standard.Pass, standard.Warning, true},
		{standard.Pass, standard.Skip, true},
		{standard.Warning, standard.Space, true},
		{standard.Error, standard.Pass, true},
	} {
		if got := ShouldSave(c.f, c.b); got != c.want {
			t.Errorf("ShouldSave(%q, %q) = %v", c.f, c.b, got)
		}
	}
}

// listDir returns the file names of dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// sample is an API with args [t, 5, [None, t]], kwargs {weight: t,
// pair: (t, t), alpha: 1.0}, outputs (t, t), a gradient and gradients.
func sample() API {
	v := func(x float64) Node { return T(ft(x)) }
	return API{
		Args:        []Node{v(1), S(KindInt), L(S(KindNone), v(2))},
		Kwargs:      []Kwarg{{"weight", v(3)}, {"pair", L(v(4), v(5))}, {"alpha", S(KindFloat)}},
		BenchOut:    L(v(6), v(7)),
		DeviceOut:   L(v(8), v(9)),
		Grad:        v(10),
		BenchGrads:  L(v(11), S(KindNone), v(12)),
		DeviceGrads: L(v(13), S(KindNone), v(14)),
	}
}

// values reads every file of dir and returns name (without .npy) → first
// element.
func values(t *testing.T, dir string) map[string]float64 {
	t.Helper()
	m := map[string]float64{}
	for _, n := range listDir(t, dir) {
		x, err := tensorload.Load(dir, n, tensor.Invalid)
		if err != nil {
			t.Fatal(err)
		}
		m[strings.TrimSuffix(n, ".npy")] = x.At(0)
	}
	return m
}

func TestFileNames(t *testing.T) {
	const full = "Functional.conv2d.0"
	cases := []struct {
		name      string
		framework string
		compat    bool
		sub       string
		want      map[string]float64
	}{
		{"pytorch", PyTorch, false, "ut_error_data20250101123456", map[string]float64{
			full + ".forward.input.args.0":        1,
			full + ".forward.input.args.3":        2,
			full + ".forward.input.kwargs.weight": 3,
			full + ".forward.input.kwargs.pair.0": 4,
			full + ".forward.input.kwargs.pair.1": 5,
			full + ".forward.output.bench.0":      6,
			full + ".forward.output.bench.1":      7,
			full + ".forward.output.device.0":     8,
			full + ".forward.output.device.1":     9,
			full + ".backward.input.0":            10,
			full + ".backward.output.bench.0":     11,
			full + ".backward.output.bench.2":     12,
			full + ".backward.output.device.0":    13,
			full + ".backward.output.device.2":    14,
		}},
		// msprobe: args walk gives input.0 (1) and input.3 (2); the
		// kwargs walk restarts at 0: weight → input.0 (overwrites 1),
		// pair → input.1, input.2, alpha consumes 3 without a file, so
		// input.3 keeps the args tensor.
		{"pytorch-compat", PyTorch, true, "ut_error_data20250101123456", map[string]float64{
			full + ".forward.input.0":          3,
			full + ".forward.input.1":          4,
			full + ".forward.input.2":          5,
			full + ".forward.input.3":          2,
			full + ".forward.output.bench.0":   6,
			full + ".forward.output.bench.1":   7,
			full + ".forward.output.device.0":  8,
			full + ".forward.output.device.1":  9,
			full + ".backward.input.0":         10,
			full + ".backward.output.bench.0":  11,
			full + ".backward.output.bench.2":  12,
			full + ".backward.output.device.0": 13,
			full + ".backward.output.device.2": 14,
		}},
		{"mindspore", MindSpore, false, "error_data", map[string]float64{
			full + ".forward.input.0":       1,
			full + ".forward.input.2.1":     2,
			full + ".forward.kwargs.weight": 3,
			full + ".forward.kwargs.pair.0": 4,
			full + ".forward.kwargs.pair.1": 5,
			full + ".forward.output.0":      8,
			full + ".forward.output.1":      9,
			full + ".backward.input.0":      10,
			full + ".backward.output.0":     13,
			full + ".backward.output.2":     14,
		}},
		{"mindspore-compat", MindSpore, true, "error_data", map[string]float64{
			full + ".forward.input.0":       1,
			full + ".forward.input.2.1":     2,
			full + ".forward.kwargs.weight": 3,
			full + ".forward.kwargs.pair.0": 4,
			full + ".forward.kwargs.pair.1": 5,
			full + ".forward.output.0":      8,
			full + ".forward.output.1":      9,
			full + ".backward.output.0":     10,
			full + ".backward.input.0":      13,
			full + ".backward.input.2":      14,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			s, err := New(base, "20250101123456", c.framework, c.compat)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(base, c.sub)
			if s.Dir() != dir {
				t.Fatalf("Dir() = %s, want %s", s.Dir(), dir)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("directory created before the first save: %v", err)
			}
			if err := s.Save(full, sample()); err != nil {
				t.Fatal(err)
			}
			got := values(t, dir)
			if len(got) != len(c.want) {
				t.Errorf("files %v\nwant %v", got, c.want)
			}
			for k, v := range c.want {
				if g, ok := got[k]; !ok || g != v {
					t.Errorf("%s: got %v (present %v), want %v", k, g, ok, v)
				}
			}
			st, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != DirMode {
				t.Errorf("dir mode %v", st.Mode().Perm())
			}
			for _, n := range listDir(t, dir) {
				st, err := os.Stat(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				if st.Mode().Perm() != FileMode {
					t.Errorf("%s: mode %v", n, st.Mode().Perm())
				}
			}
			// a second save of the same API rewrites the same files
			if err := s.Save(full, sample()); err != nil {
				t.Fatal(err)
			}
			if n := len(listDir(t, dir)); n != len(c.want) {
				t.Errorf("after rewrite: %d files", n)
			}
		})
	}
}

func TestConcurrent(t *testing.T) {
	s, err := New(t.TempDir(), "7", PyTorch, false)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.Save("Torch.add."+strconv.Itoa(i), sample())
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(listDir(t, s.Dir())); n != 8*14 {
		t.Errorf("%d files, want %d", n, 8*14)
	}
}

func TestNoTensorsNoDirectory(t *testing.T) {
	base := t.TempDir()
	s, err := New(base, "1", PyTorch, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save("Torch.add.0", API{Args: []Node{S(KindInt)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Errorf("directory exists without any tensor: %v", err)
	}
}

func TestErrors(t *testing.T) {
	if _, err := New(t.TempDir(), "1", "jax", false); err == nil {
		t.Error("unknown framework accepted")
	}
	if _, err := New(t.TempDir(), "1/2", PyTorch, false); err == nil {
		t.Error("timestamp with a slash accepted")
	}
	s, _ := New(t.TempDir(), "1", PyTorch, false)
	if err := s.SaveForwardInput("a/b", []Node{T(ft(1))}, nil); err == nil {
		t.Error("API name with a slash accepted")
	}
	if err := s.SaveForwardInput("a", nil, []Kwarg{{"../x", T(ft(1))}}); err == nil {
		t.Error("kwarg name with a slash accepted")
	}
	bad := &tensor.Tensor{DType: tensor.Float32, Shape: []int{3}, Data: make([]byte, 4)}
	err := s.SaveForwardOutput("Torch.add.0", T(bad), S(KindNone))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(s.Dir(), "Torch.add.0.forward.output.bench.0.npy")) {
		t.Errorf("invalid tensor: %v (want the path in the message)", err)
	}
	if n := len(listDir(t, s.Dir())); n != 0 {
		t.Errorf("%d files left after a failed write", n)
	}
	// directory creation failure: a file where the base directory should be
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s2, _ := New(f, "1", PyTorch, false)
	if err := s2.SaveBackwardInput("x", T(ft(1))); err == nil || !strings.Contains(err.Error(), s2.Dir()) {
		t.Errorf("mkdir under a file: %v", err)
	}
}

// allDTypes returns one tensor per dtype with edge values, built from raw
// bytes so every bit pattern (NaN payloads, -0, subnormals) is covered.
func allDTypes() []*tensor.Tensor {
	var out []*tensor.Tensor
	raw := func(d tensor.DType, shape []int, b []byte) {
		out = append(out, &tensor.Tensor{DType: d, Shape: shape, Data: b})
	}
	le64 := func(v ...uint64) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		return b
	}
	le32 := func(v ...uint32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, x)
		}
		return b
	}
	le16 := func(v ...uint16) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint16(b, x)
		}
		return b
	}
	raw(tensor.Float64, []int{2, 3}, le64(math.Float64bits(1.5), 0x8000000000000000, 0x7ff8000000000001, 1, math.Float64bits(math.Inf(-1)), math.Float64bits(math.MaxFloat64)))
	raw(tensor.Float32, []int{2, 2}, le32(math.Float32bits(-2.25), 0x7fc00123, 1, 0x80000000))
	raw(tensor.Float16, []int{5}, le16(0x3c00, 0x7e01, 0x0001, 0x8000, 0xfc00))
	raw(tensor.BFloat16, []int{1, 5}, le16(0x3f80, 0x7fc1, 0x0001, 0x8000, 0xff80))
	raw(tensor.Int8, []int{3}, []byte{0x80, 0x7f, 0xff})
	raw(tensor.Int16, []int{2}, le16(0x8000, 0x7fff))
	raw(tensor.Int32, []int{2, 1}, le32(0x80000000, 0x7fffffff))
	raw(tensor.Int64, []int{2}, le64(0x8000000000000000, 0x7fffffffffffffff))
	raw(tensor.Uint8, []int{2}, []byte{0, 255})
	raw(tensor.Bool, []int{3}, []byte{1, 0, 1})
	raw(tensor.Float32, []int{}, le32(math.Float32bits(2.5)))
	raw(tensor.Float32, []int{0, 4}, nil)
	raw(tensor.Int64, []int{2, 0, 3}, nil)
	return out
}

// TestRoundTrip writes every dtype through a Saver and reads the files
// back with tensorload bit-exactly (bfloat16 as its exact float32).
func TestRoundTrip(t *testing.T) {
	s, err := New(t.TempDir(), "x", PyTorch, false)
	if err != nil {
		t.Fatal(err)
	}
	ts := allDTypes()
	args := make([]Node, len(ts))
	for i, x := range ts {
		args[i] = T(x)
	}
	if err := s.SaveForwardInput("Torch.f.0", args, nil); err != nil {
		t.Fatal(err)
	}
	for i, x := range ts {
		name := "Torch.f.0.forward.input.args." + strconv.Itoa(i)
		got, err := tensorload.Load(s.Dir(), name+".npy", tensor.Invalid)
		if err != nil {
			t.Fatalf("%s: %v", x.DType, err)
		}
		want := x
		if x.DType == tensor.BFloat16 {
			want = &tensor.Tensor{DType: tensor.Float32, Shape: x.Shape}
			for j := 0; j < len(x.Data); j += 2 {
				want.Data = append(want.Data, 0, 0, x.Data[j], x.Data[j+1])
			}
		}
		if got.DType != NPYDType(x.DType) || got.DType != want.DType || !slices.Equal(got.Shape, want.Shape) || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("%s %v: read back %s %v %x, want %x", x.DType, x.Shape, got.DType, got.Shape, got.Data, want.Data)
		}
		// and with the JSON dtype as the wanted one, bfloat16 comes back
		// exactly (finite values).
		if x.DType == tensor.BFloat16 {
			back, err := tensorload.Load(s.Dir(), name+".npy", tensor.BFloat16)
			if err != nil {
				t.Fatal(err)
			}
			for j := range 5 {
				if j == 1 { // NaN: payload not preserved by Cast
					continue
				}
				if !bytes.Equal(back.Data[2*j:2*j+2], x.Data[2*j:2*j+2]) {
					t.Errorf("bf16 element %d: %x, want %x", j, back.Data[2*j:2*j+2], x.Data[2*j:2*j+2])
				}
			}
		}
	}
}

// TestMatchesNumPy re-encodes the .npy files numpy.save wrote for
// tensorload's tests (little-endian, C order, format 1.0) and compares
// the bytes: the writer's header and padding are NumPy's.
func TestMatchesNumPy(t *testing.T) {
	dir := filepath.Join("..", "tensorload", "testdata")
	for _, n := range []string{"b1", "empty", "f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "scalar_0d"} {
		data, err := os.ReadFile(filepath.Join(dir, n+".npy"))
		if err != nil {
			t.Fatal(err)
		}
		x, err := tensorload.DecodeNPY(data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		var b bytes.Buffer
		if err := WriteNPY(&b, x); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Errorf("%s.npy: encoded\n%q\nnumpy wrote\n%q", n, b.Bytes(), data)
		}
	}
}

func TestHeaderAlignment(t *testing.T) {
	for _, shape := range [][]int{{}, {1}, {123456789, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}} {
		h := npyHeader("<f4", shape)
		if len(h)%64 != 0 || h[len(h)-1] != '\n' || int(binary.LittleEndian.Uint16(h[8:10])) != len(h)-10 {
			t.Errorf("shape %v: header %q", shape, h)
		}
	}
}
