package ops

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// operand parses "T:int32" (dimensioned tensor), "Z:float64" (0-d tensor)
// or "S:int" / "S:float" / "S:bool" (Python number).
func operand(t *testing.T, s string) Operand {
	t.Helper()
	kind, name, _ := strings.Cut(s, ":")
	switch kind {
	case "S":
		return NumberOperand(map[string]ScalarKind{"int": ScalarInt, "float": ScalarFloat, "bool": ScalarBool}[name])
	case "T", "Z":
		dt, err := tensor.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		rank := 1
		if kind == "Z" {
			rank = 0
		}
		return TensorOperand(dt, rank)
	}
	t.Fatalf("bad operand %q", s)
	return Operand{}
}

// TestResultType checks at::result_type facts, each confirmed with
// torch.result_type on PyTorch 1.13.
func TestResultType(t *testing.T) {
	cases := []struct{ in, want string }{
		{"T:int32 S:int", "int32"},
		{"T:int32 S:float", "float32"},
		{"T:float16 S:float", "float16"},
		{"T:float16 S:int", "float16"},
		{"T:bool S:int", "int64"},
		{"T:bool S:float", "float32"},
		{"T:bool S:bool", "bool"},
		{"T:int32 Z:int64", "int32"},
		{"T:int32 Z:float64", "float64"},
		{"T:float16 Z:float64", "float16"},
		{"T:float16 Z:float32", "float16"},
		{"T:uint8 T:int8", "int16"},
		{"T:uint8 T:int16", "int16"},
		{"T:float16 T:bfloat16", "float32"},
		{"T:bfloat16 T:int64", "bfloat16"},
		{"T:int64 T:float16", "float16"},
		{"Z:int32 S:float", "float32"},
		{"Z:float64 S:int", "float64"},
		{"Z:bool S:int", "int64"},
		{"T:bool Z:int8", "int8"},
		{"T:uint8 Z:int64", "uint8"},
		{"T:bool T:bool", "bool"},
		{"T:int8 T:int64", "int64"},
		{"Z:float16 Z:bfloat16", "float32"},
		{"T:float32 T:float64", "float64"},
		{"T:uint8 S:int", "uint8"},
		{"T:int16 S:bool", "int16"},
	}
	for _, c := range cases {
		var args []Operand
		for _, s := range strings.Fields(c.in) {
			args = append(args, operand(t, s))
		}
		if got := ResultType(args...).String(); got != c.want {
			t.Errorf("result_type(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	// Values: None is skipped; a number is a wrapped number.
	x := tensor.New(tensor.Int32, []int{2})
	if got := ResultTypeOf(T(x), None, F(2.5)); got != tensor.Float32 {
		t.Errorf("ResultTypeOf(int32 tensor, None, 2.5) = %v", got)
	}
	if got := ResultType(); got != tensor.Invalid {
		t.Errorf("ResultType() = %v", got)
	}
}

func TestPromoteTypesSymmetric(t *testing.T) {
	for _, a := range tensor.All {
		for _, b := range tensor.All {
			if x, y := PromoteTypes(a, b), PromoteTypes(b, a); x != y {
				t.Errorf("PromoteTypes(%s, %s) = %s but (%s, %s) = %s", a, b, x, b, a, y)
			}
		}
		if PromoteTypes(a, a) != a || PromoteTypes(a, tensor.Invalid) != a {
			t.Errorf("PromoteTypes identity fails for %s", a)
		}
	}
}

func TestCanCast(t *testing.T) {
	cases := []struct {
		from, to tensor.DType
		ok       bool
	}{
		{tensor.Float32, tensor.Int64, false},
		{tensor.Int64, tensor.Int32, true},
		{tensor.Int64, tensor.Bool, false},
		{tensor.Bool, tensor.Int8, true},
		{tensor.Float64, tensor.Float16, true},
		{tensor.Int32, tensor.BFloat16, true},
	}
	for _, c := range cases {
		if CanCast(c.from, c.to) != c.ok {
			t.Errorf("CanCast(%s, %s) = %v", c.from, c.to, !c.ok)
		}
	}
	err := CastError(tensor.Float32, tensor.Int64)
	if got := err.Error(); got != "result type Float can't be cast to the desired output type Long" {
		t.Errorf("CastError = %q", got)
	}
	if _, ok := err.(*ArgumentError); !ok {
		t.Errorf("CastError is %T, want *ArgumentError", err)
	}
	if ToFloat(tensor.Int64) != DefaultFloat || ToFloat(tensor.BFloat16) != tensor.BFloat16 {
		t.Error("ToFloat")
	}
}

// pytorch-precheck §11.12: HF32 rounding of float32 bit patterns.
func TestRoundHF32SpecVectors(t *testing.T) {
	cases := []struct{ in, out uint32 }{
		{0x3f800000, 0x3f800000}, // 1.0
		{0x3f800347, 0x3f800000}, // 1.0001
		{0x3f801000, 0x3f801000}, // 1.00048828125
		{0x3f801800, 0x3f802000}, // 1.000732421875
		{0xbf801800, 0xbf802000}, // -1.000732421875
		{0x40490fdb, 0x40491000}, // 3.14159265
		{0x322bcc77, 0x322bd000}, // 1e-08
		{0x477fe000, 0x477fe000}, // 65504.0
	}
	vals := make([]float64, len(cases))
	for i, c := range cases {
		vals[i] = float64(math.Float32frombits(c.in))
		if got := math.Float32bits(RoundHF32(math.Float32frombits(c.in))); got != c.out {
			t.Errorf("RoundHF32(%#08x) = %#08x, want %#08x", c.in, got, c.out)
		}
	}
	in := tensor.FromFloat64s(tensor.Float32, []int{len(vals)}, vals)
	got := RoundHF32Tensor(in)
	for i, c := range cases {
		if b := math.Float32bits(float32(got.At(i))); b != c.out {
			t.Errorf("RoundHF32Tensor element %d = %#08x, want %#08x", i, b, c.out)
		}
	}
	if v := got.At(6); v != 1.0000803740695119e-08 {
		t.Errorf("HF32(1e-08) = %v", v)
	}
	if math.Float32bits(float32(in.At(1))) != 0x3f800347 {
		t.Error("RoundHF32Tensor changed its input")
	}
	// HF32 keeps 11 mantissa bits: 1 + 2^-12 is a tie and rounds away from
	// zero, 1 + 2^-13 rounds down, 1 + 2^-11 stays.
	for x, want := range map[float32]float32{1 + 0x1p-12: 1 + 0x1p-11, 1 + 0x1p-13: 1, -(1 + 0x1p-12): -(1 + 0x1p-11), 1 + 0x1p-11: 1 + 0x1p-11} {
		if got := RoundHF32(x); got != want {
			t.Errorf("RoundHF32(%v) = %v, want %v", x, got, want)
		}
	}
	f16 := tensor.New(tensor.Float16, []int{2})
	if RoundHF32Tensor(f16) != f16 {
		t.Error("a float16 tensor must come back unchanged")
	}
}

// HF32Float64s gives RoundHF32Tensor's values, widened, whether or not the
// tensor's memory is aligned for float32.
func TestHF32Float64s(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, 8, 9, 100} {
		for _, shift := range []int{0, 1} {
			src := tensor.New(tensor.Float32, []int{n})
			for i := range src.Data {
				src.Data[i] = byte(r.Uint32())
			}
			odd := &tensor.Tensor{DType: tensor.Float32, Shape: []int{n}, Data: append(make([]byte, shift, shift+len(src.Data)), src.Data...)[shift:]}
			got := make([]float64, n)
			HF32Float64s(got, odd)
			want := RoundHF32Tensor(src).Float64s()
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n %d shift %d element %d: got %v, want %v", n, shift, i, got[i], want[i])
				}
			}
		}
	}
}
