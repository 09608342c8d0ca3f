package inputgen

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/tensor"
)

func desc(dt tensor.DType, shape []int, min, max float64) *dump.TensorDesc {
	return &dump.TensorDesc{DType: dt, DTypeName: dt.TorchName(), Shape: shape, Min: min, Max: max, HasMin: true, HasMax: true,
		MinRepr: dump.FormatPyFloat(min), MaxRepr: dump.FormatPyFloat(max)}
}

func gen(t *testing.T, d *dump.TensorDesc, seed uint64) *tensor.Tensor {
	t.Helper()
	x, err := Generate(d, seed)
	if err != nil {
		t.Fatalf("Generate(%s %v [%v, %v]): %v", d.DType, d.Shape, d.Min, d.Max, err)
	}
	if err := x.Validate(); err != nil {
		t.Fatal(err)
	}
	if x.DType != d.DType || !reflect.DeepEqual(append([]int{}, x.Shape...), append([]int{}, d.Shape...)) {
		t.Fatalf("got %s %v, want %s %v", x.DType, x.Shape, d.DType, d.Shape)
	}
	return x
}

func minMax(x *tensor.Tensor) (float64, float64) {
	mn, mx := math.Inf(1), math.Inf(-1)
	for _, v := range x.Float64s() {
		if math.IsNaN(v) {
			return math.NaN(), math.NaN()
		}
		mn, mx = math.Min(mn, v), math.Max(mx, v)
	}
	return mn, mx
}

func TestDeterminism(t *testing.T) {
	d := desc(tensor.Float32, []int{64, 33}, -3, 7)
	a, b := gen(t, d, 42), gen(t, d, 42)
	if !bytes.Equal(a.Data, b.Data) {
		t.Error("same seed, different data")
	}
	if c := gen(t, d, 43); bytes.Equal(a.Data, c.Data) {
		t.Error("different seeds, same data")
	}
}

func TestSeed(t *testing.T) {
	s := Seed(1234, "Functional.conv2d.0", "args.0")
	if s != Seed(1234, "Functional.conv2d.0", "args.0") {
		t.Fatal("Seed is not a function")
	}
	others := []uint64{
		Seed(1235, "Functional.conv2d.0", "args.0"),
		Seed(1234, "Functional.conv2d.1", "args.0"),
		Seed(1234, "Functional.conv2d.0", "args.1"),
		Seed(1234, "Functional.conv2d.0args.0", ""),
		Seed(1234, "Functional.conv2d.0a", "rgs.0"),
	}
	seen := map[uint64]bool{s: true}
	for _, o := range others {
		if seen[o] {
			t.Errorf("seed collision %x", o)
		}
		seen[o] = true
	}
	// Golden value: the derivation is part of the reproducibility contract
	// (NPU and GPU runs of different probe builds must see the same inputs).
	// The values were computed independently (Python) from the documented
	// algorithm: SplitMix64(global ^ SplitMix64(FNV-1a(api + "\x00" + path))).
	if got := Seed(0, "", ""); got != 0x206485c5f1c34682 {
		t.Errorf("Seed(0, \"\", \"\") = %#x: the seed derivation changed", got)
	}
	if s != 0x9f033b96cd314cca {
		t.Errorf("Seed(1234, conv2d, args.0) = %#x: the seed derivation changed", s)
	}
}

// TestOrderIndependence: a tensor's data depends on (global seed, API,
// path) only — not on which other tensors were generated before, in which
// order, or on how many goroutines.
func TestOrderIndependence(t *testing.T) {
	type job struct{ api, path string }
	var jobs []job
	for i := 0; i < 12; i++ {
		jobs = append(jobs, job{fmt.Sprintf("Torch.add.%d", i), "args.0"}, job{fmt.Sprintf("Torch.add.%d", i), "args.1"})
	}
	d := desc(tensor.Float16, []int{257}, -2, 2)
	run := func(order []int, workers int) map[job][]byte {
		out := map[job][]byte{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		ch := make(chan job)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range ch {
					x, err := Generate(d, Seed(7, j.api, j.path))
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					out[j] = x.Data
					mu.Unlock()
				}
			}()
		}
		for _, i := range order {
			ch <- jobs[i]
		}
		close(ch)
		wg.Wait()
		return out
	}
	fwd := make([]int, len(jobs))
	rev := make([]int, len(jobs))
	for i := range jobs {
		fwd[i], rev[i] = i, len(jobs)-1-i
	}
	a := run(fwd, 1)
	b := run(rev, 4)
	c := run(fwd[len(jobs)/2:], 2) // a "resumed" run doing half the work
	for j, data := range a {
		if !bytes.Equal(data, b[j]) {
			t.Errorf("%v differs between orders/worker counts", j)
		}
		if cd, ok := c[j]; ok && !bytes.Equal(data, cd) {
			t.Errorf("%v differs in the resumed run", j)
		}
	}
	if bytes.Equal(a[jobs[0]], a[jobs[1]]) {
		t.Error("two arguments of one API got identical data")
	}
}

// TestEveryDType: values lie in [Min, Max], are representable in the
// dtype, and the extremes are forced.
func TestEveryDType(t *testing.T) {
	cases := []struct {
		dt       tensor.DType
		min, max float64
	}{
		{tensor.Float64, -1e300, 1e300},
		{tensor.Float64, -0.1, 0.3},
		{tensor.Float32, -3.4028234663852886e38, 3.4028234663852886e38},
		{tensor.Float32, 0.1, 0.2},
		{tensor.Float16, -60000, 60000}, // msprobe's fp16 overflow quirk: no inf here
		{tensor.Float16, 0.5, 0.5009765625},
		{tensor.BFloat16, -2.640625, 2.6875},
		{tensor.BFloat16, -3e38, 3e38},
		{tensor.Int8, -128, 127},
		{tensor.Int16, -300, 300},
		{tensor.Int32, 0, 3430},
		{tensor.Int64, -9.223372036854776e18, 9.223372036854776e18},
		{tensor.Int64, 1, 4096},
		{tensor.Uint8, 0, 255},
		{tensor.Uint8, 3, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s[%g,%g]", c.dt, c.min, c.max), func(t *testing.T) {
			x := gen(t, desc(c.dt, []int{50, 41}, c.min, c.max), 99)
			vals := x.Float64s()
			lo, hi := tensor.Round(c.dt, c.min), tensor.Round(c.dt, c.max)
			distinct := map[float64]bool{}
			for i, v := range vals {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("element %d = %v", i, v)
				}
				if v < lo || v > hi {
					t.Fatalf("element %d = %v outside [%v, %v]", i, v, lo, hi)
				}
				if tensor.Round(c.dt, v) != v {
					t.Fatalf("element %d = %v not representable in %s", i, v, c.dt)
				}
				distinct[v] = true
			}
			if vals[0] != lo || vals[len(vals)-1] != hi {
				t.Errorf("first %v last %v, want Min %v and Max %v", vals[0], vals[len(vals)-1], lo, hi)
			}
			if c.min != c.max && len(distinct) < 3 {
				t.Errorf("only %d distinct values", len(distinct))
			}
		})
	}
}

func TestUniformity(t *testing.T) {
	x := gen(t, desc(tensor.Float64, []int{100000}, -1, 3), 5)
	sum := 0.0
	for _, v := range x.Float64s() {
		sum += v
	}
	if mean := sum / 100000; math.Abs(mean-1) > 0.02 {
		t.Errorf("mean %v of U[-1, 3)", mean)
	}
	ints := gen(t, desc(tensor.Int32, []int{60000}, -1, 1), 5)
	count := map[int64]int{}
	for _, v := range ints.Int64s() {
		count[v]++
	}
	for v := int64(-1); v <= 1; v++ {
		if count[v] < 19000 || count[v] > 21000 {
			t.Errorf("value %d drawn %d times of 60000 (inclusive bounds)", v, count[v])
		}
	}
}

// TestInvariants are the generation invariants of pytorch-precheck §11.12.
func TestInvariants(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	t.Run("fp32 (2,3) [-1,1]", func(t *testing.T) {
		x := gen(t, desc(tensor.Float32, []int{2, 3}, -1, 1), 1)
		if x.At(0) != -1 || x.At(5) != 1 {
			t.Errorf("[0,0]=%v [1,2]=%v", x.At(0), x.At(5))
		}
	})
	t.Run("0-d", func(t *testing.T) {
		x := gen(t, desc(tensor.Float32, []int{}, -1, 1), 1)
		if x.Len() != 1 || x.At(0) != 1 {
			t.Errorf("%v", x.Float64s())
		}
	})
	t.Run("int32 shape 5", func(t *testing.T) {
		x := gen(t, desc(tensor.Int32, []int{5}, -5, 5), 1)
		if v := x.Int64s(); v[0] != -5 || v[4] != 5 {
			t.Errorf("%v", v)
		}
	})
	t.Run("fp32 (3,2) Min -1 Max inf", func(t *testing.T) {
		x := gen(t, desc(tensor.Float32, []int{3, 2}, -1, inf), 1)
		if want := []float64{inf, inf, inf, inf, -1, -1}; !reflect.DeepEqual(x.Float64s(), want) {
			t.Errorf("%v, want %v", x.Float64s(), want)
		}
	})
	t.Run("fp32 (3,2) Min -inf Max inf", func(t *testing.T) {
		x := gen(t, desc(tensor.Float32, []int{3, 2}, -inf, inf), 1)
		if want := []float64{inf, inf, inf, inf, -inf, -inf}; !reflect.DeepEqual(x.Float64s(), want) {
			t.Errorf("%v, want %v", x.Float64s(), want)
		}
	})
	t.Run("Max NaN", func(t *testing.T) {
		x := gen(t, desc(tensor.Float32, []int{3, 2}, -1, nan), 1)
		for _, v := range x.Float64s() {
			if !math.IsNaN(v) {
				t.Fatalf("%v", x.Float64s())
			}
		}
	})
	t.Run("fp16 shape 4 Min -inf Max 1", func(t *testing.T) {
		x := gen(t, desc(tensor.Float16, []int{4}, -inf, 1), 1)
		v := x.Float64s()
		if v[0] != -inf || v[3] != 1 || v[1] < -65504 || v[1] > 1 || v[2] < -65504 || v[2] > 1 {
			t.Errorf("%v", v)
		}
	})
	for _, c := range []struct {
		max, min bool
		want     byte
	}{{true, true, 1}, {false, false, 0}} {
		t.Run(fmt.Sprintf("bool Max %v Min %v", c.max, c.min), func(t *testing.T) {
			d := boolDesc([]int{7, 5}, c.min, c.max)
			x := gen(t, d, 1)
			for _, b := range x.Data {
				if b != c.want {
					t.Fatalf("%v", x.Data)
				}
			}
		})
	}
	t.Run("complex64", func(t *testing.T) {
		d := &dump.TensorDesc{DType: tensor.Invalid, DTypeName: "torch.complex64", Shape: []int{2}, HasMax: true, HasMin: true, Max: 1}
		if _, err := Generate(d, 1); err == nil || err.Error() != "Dtype is not supported: torch.complex64" {
			t.Errorf("%v", err)
		}
	})
	t.Run("1-d Max inf: last element Min", func(t *testing.T) {
		x := gen(t, desc(tensor.BFloat16, []int{4}, 2, inf), 1)
		if want := []float64{inf, inf, inf, 2}; !reflect.DeepEqual(x.Float64s(), want) {
			t.Errorf("%v", x.Float64s())
		}
	})
	t.Run("0-d Max inf", func(t *testing.T) {
		x := gen(t, desc(tensor.Float32, []int{}, inf, inf), 1)
		if x.At(0) != inf {
			t.Errorf("%v", x.Float64s())
		}
	})
	t.Run("two elements", func(t *testing.T) {
		x := gen(t, desc(tensor.Float64, []int{2}, -3.5, 8.25), 1)
		if want := []float64{-3.5, 8.25}; !reflect.DeepEqual(x.Float64s(), want) {
			t.Errorf("%v", x.Float64s())
		}
	})
}

func boolDesc(shape []int, min, max bool) *dump.TensorDesc {
	f := func(b bool) float64 {
		if b {
			return 1
		}
		return 0
	}
	mn, mx := min, max
	return &dump.TensorDesc{DType: tensor.Bool, DTypeName: "torch.bool", Shape: shape, Min: f(min), Max: f(max), HasMin: true, HasMax: true, MinBool: &mn, MaxBool: &mx}
}

// TestSpecVectors are the generation cases of pytorch-precheck §11.6.
func TestSpecVectors(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	t.Run("fp16 [2048,2,1,256]", func(t *testing.T) {
		d := desc(tensor.Float16, []int{2048, 2, 1, 256}, -1.443359375, 1.3955078125)
		d.RequiresGrad = true
		x := gen(t, d, Seed(0, "Tensor.__mul__.7", "args.0"))
		mn, mx := minMax(x)
		if mx != 1.3955078125 || mn != -1.443359375 || x.At(0) != mn || x.At(x.Len()-1) != mx {
			t.Errorf("min %v max %v first %v last %v", mn, mx, x.At(0), x.At(x.Len()-1))
		}
	})
	t.Run("bool [1,1,160,256] Min 0 Max 1", func(t *testing.T) {
		d := desc(tensor.Bool, []int{1, 1, 160, 256}, 0, 1)
		x := gen(t, d, 3)
		ones := 0
		for _, b := range x.Data {
			if b > 1 {
				t.Fatalf("bool byte %d", b)
			}
			ones += int(b)
		}
		if n := x.Len(); ones < n*45/100 || ones > n*55/100 {
			t.Errorf("%d of %d true, want about half", ones, n)
		}
	})
	t.Run("empty (1,0,256) with null stats", func(t *testing.T) {
		d := &dump.TensorDesc{DType: tensor.Float32, Shape: []int{1, 0, 256}, MinRepr: "None", MaxRepr: "None"}
		x := gen(t, d, 1)
		if x.Len() != 0 || len(x.Data) != 0 {
			t.Errorf("%v", x)
		}
	})
	t.Run("shape (0,0)", func(t *testing.T) {
		if x := gen(t, desc(tensor.Float32, []int{0, 0}, 1, 2), 1); x.Len() != 0 {
			t.Errorf("%v", x)
		}
	})
	except := func(d *dump.TensorDesc, lo, hi float64) *dump.TensorDesc {
		d.MinExceptInfNan, d.MaxExceptInfNan = &lo, &hi
		return d
	}
	t.Run("fp32 low [1,-inf] high [2,inf] 3x3", func(t *testing.T) {
		x := gen(t, except(desc(tensor.Float32, []int{3, 3}, -inf, inf), 1, 2), 1)
		mn, mx := minMax(x)
		if mx != inf || mn != -inf {
			t.Errorf("min %v max %v: %v", mn, mx, x.Float64s())
		}
		for _, v := range x.Float64s()[1:8] {
			if v < 1 || v > 2 {
				t.Errorf("inner value %v outside [1, 2]", v)
			}
		}
	})
	t.Run("all four inf", func(t *testing.T) {
		x := gen(t, except(desc(tensor.Float32, []int{3, 3}, inf, inf), inf, inf), 1)
		if mn, mx := minMax(x); mn != inf || mx != inf {
			t.Errorf("%v", x.Float64s())
		}
	})
	t.Run("high NaN (origin NaN)", func(t *testing.T) {
		x := gen(t, except(desc(tensor.Float32, []int{3, 3}, 1, nan), 1, nan), 1)
		if mn, mx := minMax(x); !math.IsNaN(mn) || !math.IsNaN(mx) {
			t.Errorf("%v", x.Float64s())
		}
	})
	t.Run("(1,2) low [2,nan] high [2,nan]", func(t *testing.T) {
		x := gen(t, except(desc(tensor.Float32, []int{1, 2}, nan, nan), 2, 2), 1)
		v := x.Float64s()
		if !math.IsNaN(v[0]) || v[1] != 2 {
			t.Errorf("%v, want [NaN 2]", v)
		}
	})
	t.Run("three elements, origin Max NaN", func(t *testing.T) {
		x := gen(t, except(desc(tensor.Float64, []int{3}, nan, nan), -1, 1), 1)
		v := x.Float64s()
		if v[0] != -1 || !math.IsNaN(v[1]) || v[2] != 1 {
			t.Errorf("%v, want [-1 NaN 1]", v)
		}
	})
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		d    *dump.TensorDesc
		want string
	}{
		{&dump.TensorDesc{DType: tensor.Float32, Shape: []int{2}, MinRepr: "None", MaxRepr: "None"},
			"Data info Min: None , Max: None, info type must be int or float."},
		{&dump.TensorDesc{DType: tensor.Float32, Shape: []int{2}, HasMax: true, Max: 3, MaxRepr: "3.0", MinRepr: "abc"},
			"Data info Min: abc , Max: 3.0, info type must be int or float."},
		{&dump.TensorDesc{DType: tensor.Int64, Shape: []int{2}, HasMax: true, Max: math.NaN(), HasMin: true},
			"cannot convert float NaN to integer"},
		{&dump.TensorDesc{DType: tensor.Int32, Shape: []int{2}, HasMax: true, Max: math.Inf(1), HasMin: true},
			"cannot convert float infinity to integer"},
		{&dump.TensorDesc{DType: tensor.Uint8, Shape: []int{2}, HasMax: true, Max: -1, HasMin: true, Min: -5, MinRepr: "-5.0", MaxRepr: "-1.0"},
			"Min -5.0 and Max -1.0 lie outside the range of uint8"},
		{&dump.TensorDesc{DType: tensor.Invalid, DTypeName: "torch.float8_e4m3fn", Shape: []int{2}},
			"Dtype is not supported: torch.float8_e4m3fn"},
		{&dump.TensorDesc{DType: tensor.Float32, Shape: []int{-1}},
			"invalid shape"},
		{nil, "no tensor descriptor"},
		{desc(tensor.Float32, []int{1 << 20, 1 << 20, 1 << 10}, 0, 1), "too large to generate"},
		{desc(tensor.Float64, []int{1<<31 + 1}, 0, 1), "too large to generate"},
	} {
		_, err := Generate(c.d, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.d, err, c.want)
		}
	}
	// Empty tensors never need statistics.
	if _, err := Generate(&dump.TensorDesc{DType: tensor.Int8, Shape: []int{3, 0}}, 1); err != nil {
		t.Errorf("empty: %v", err)
	}
}

func TestReversedAndClampedBounds(t *testing.T) {
	x := gen(t, desc(tensor.Int16, []int{100}, 9, -9), 1)
	for _, v := range x.Int64s() {
		if v < -9 || v > 9 {
			t.Fatalf("%d outside [-9, 9]", v)
		}
	}
	y := gen(t, desc(tensor.Float32, []int{100}, 5, -5), 1)
	for _, v := range y.Float64s()[1:99] {
		if v < -5 || v > 5 {
			t.Fatalf("%v outside [-5, 5]", v)
		}
	}
	z := gen(t, desc(tensor.Int8, []int{50}, -1000, 1000), 1)
	if v := z.Int64s(); v[0] != -128 || v[49] != 127 {
		t.Errorf("clamped ends %d %d", v[0], v[49])
	}
}

func TestStepBits16(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float16, tensor.BFloat16} {
		for _, v := range []float64{0, 1, -1, 0.1, -65504, 1e-7, -1e-7} {
			r := tensor.Round(dt, v)
			up, down := step(dt, r, +1), step(dt, r, -1)
			if !(down < r && r < up) {
				t.Errorf("%s: step around %v: %v %v", dt, r, down, up)
			}
			if tensor.Round(dt, up) != up || tensor.Round(dt, down) != down {
				t.Errorf("%s: neighbours of %v not representable", dt, r)
			}
			// No representable value strictly between.
			if mid := (r + up) / 2; tensor.Round(dt, mid) != r && tensor.Round(dt, mid) != up {
				t.Errorf("%s: %v and %v are not neighbours", dt, r, up)
			}
		}
	}
}

func TestFastConversions(t *testing.T) {
	r := newRand(11)
	check := func(f float32) {
		if got, want := float32ToFloat16(f), tensor.Float16Bits(float64(f)); got != want {
			t.Fatalf("float32ToFloat16(%v) = %#x, want %#x", f, got, want)
		}
		if got, want := float32ToBFloat16(f), tensor.BFloat16Bits(float64(f)); got != want {
			t.Fatalf("float32ToBFloat16(%v) = %#x, want %#x", f, got, want)
		}
	}
	for _, f := range []float32{0, -0, 1, 65504, 65519.99, 65520, -65520, 1e-8, 2.98e-8, 5.96e-8, 6.1e-5, 3.0517578e-05, math.MaxFloat32, float32(math.Inf(-1)), 1.0009765625 + 0.00048828125} {
		check(f)
	}
	for i := 0; i < 200000; i++ {
		f := math.Float32frombits(uint32(r.Uint64()))
		if f != f {
			continue
		}
		check(f)
	}
	for h := 0; h < 1<<16; h++ {
		if v, w := float16Value(uint16(h)), tensor.Float16Value(uint16(h)); v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
			t.Fatalf("float16Value(%#x) = %v, want %v", h, v, w)
		}
	}
}

func BenchmarkGenerateFloat16(b *testing.B) {
	d := desc(tensor.Float16, []int{2048, 2, 1, 256}, -1.443359375, 1.3955078125)
	b.SetBytes(int64(tensor.NumElements(d.Shape) * 2))
	for i := 0; i < b.N; i++ {
		if _, err := Generate(d, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// GenerateWidened gives GenerateWith's tensor, and beside it the same
// values as float64 (what Cast gives), for every float dtype and for the
// statistics that force extremes, overflow the lerp or hold no draw.
func TestGenerateWidened(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, dt := range []tensor.DType{tensor.Float32, tensor.BFloat16, tensor.Float16, tensor.Float64} {
		for _, n := range []int{1, 2, 3, 517, 200003, 2<<20 + 3} {
			for _, mm := range [][2]float64{{-3, 5}, {5, -3}, {-1e38, 3e38}, {-2, nan}, {-inf, 4}, {1, inf}, {-inf, inf}, {0.1, 0.1000001}} {
				d := desc(dt, []int{n}, mm[0], mm[1])
				want, err := GenerateWith(d, 99, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, widened, err := GenerateWidened(d, 99, nil, func(n int) []byte { return make([]byte, n) })
				if err != nil {
					t.Fatal(err)
				}
				if string(got.Data) != string(want.Data) {
					t.Fatalf("%v n=%d %v: the tensor differs from GenerateWith's", dt, n, mm)
				}
				if widened == nil {
					if dt != tensor.Float64 && !math.IsNaN(mm[1]) && !math.IsInf(mm[1], 0) {
						t.Errorf("%v n=%d %v: no widened copy", dt, n, mm)
					}
					continue
				}
				if dt == tensor.Float64 {
					t.Fatalf("float64 n=%d %v: a widened copy of a float64 tensor", n, mm)
				}
				if string(widened.Data) != string(want.Cast(tensor.Float64).Data) || !slices.Equal(widened.Shape, want.Shape) {
					t.Fatalf("%v n=%d %v: widened values differ from the cast", dt, n, mm)
				}
			}
		}
	}
}
