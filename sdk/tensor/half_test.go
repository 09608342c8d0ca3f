package tensor

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

type halfCase struct {
	F64        string `json:"f64"`
	F16FromF64 uint16 `json:"f16_from_f64"`
	F32        string `json:"f32"`
	F16FromF32 uint16 `json:"f16_from_f32"`
	BF16       uint16 `json:"bf16_from_f32"`
}

// TestHalfGolden checks the conversions against values written by real
// NumPy and PyTorch (testdata/gen_half.py).
func TestHalfGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/half_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []halfCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 400 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		v64, _ := strconv.ParseFloat(c.F64, 64)
		v32, _ := strconv.ParseFloat(c.F32, 64)
		if got := Float16Bits(v64); got != c.F16FromF64 {
			t.Errorf("Float16Bits(%s) = %#04x, numpy %#04x", c.F64, got, c.F16FromF64)
		}
		if got := Float16Bits(v32); got != c.F16FromF32 {
			t.Errorf("Float16Bits(%s) = %#04x, torch %#04x", c.F32, got, c.F16FromF32)
		}
		if got := BFloat16Bits(v32); got != c.BF16 {
			t.Errorf("BFloat16Bits(%s) = %#04x, torch %#04x", c.F32, got, c.BF16)
		}
	}
}

// Every 16-bit pattern converts to a value that converts back to itself.
func TestHalfRoundTripAllPatterns(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		for _, conv := range []struct {
			name string
			val  func(uint16) float64
			bits func(float64) uint16
		}{{"float16", Float16Value, Float16Bits}, {"bfloat16", BFloat16Value, BFloat16Bits}} {
			v := conv.val(uint16(h))
			back := conv.bits(v)
			if math.IsNaN(v) {
				if !math.IsNaN(conv.val(back)) {
					t.Fatalf("%s %#04x: NaN did not stay NaN", conv.name, h)
				}
				continue
			}
			if back != uint16(h) {
				t.Fatalf("%s %#04x -> %v -> %#04x", conv.name, h, v, back)
			}
		}
	}
}

func TestRoundAndTensor(t *testing.T) {
	if got := Round(Int32, -2.7); got != -2 {
		t.Errorf("Round(Int32, -2.7) = %v", got)
	}
	if got := Round(Uint8, 300); got != 255 {
		t.Errorf("Round(Uint8, 300) = %v", got)
	}
	x := FromFloat64s(Float16, []int{2, 2}, []float64{1, 2.0009765625, -3, 65519})
	want := []float64{1, 2, -3, 65504}
	for i, v := range x.Float64s() {
		if v != want[i] {
			t.Errorf("fp16 element %d = %v, want %v", i, v, want[i])
		}
	}
	big := FromInt64s(Int64, []int{1}, []int64{1<<62 + 1})
	if big.Int64(0) != 1<<62+1 || big.Cast(Int64).Int64(0) != 1<<62+1 {
		t.Error("int64 not exact")
	}
	if err := (&Tensor{DType: Float32, Shape: []int{2}, Data: make([]byte, 4)}).Validate(); err == nil {
		t.Error("Validate accepted a short buffer")
	}
	if ShapeString(nil) != "()" || ShapeString([]int{5}) != "(5,)" || ShapeString([]int{2, 3}) != "(2, 3)" {
		t.Error("ShapeString")
	}
	for _, s := range []string{"torch.float16", "Float16", "float16", "torch.half"} {
		if d, err := Parse(s); err != nil || d != Float16 {
			t.Errorf("Parse(%q) = %v, %v", s, d, err)
		}
	}
	if _, err := Parse("torch.float8_e4m3fn"); err == nil {
		t.Error("Parse accepted float8")
	}
}

func TestULP(t *testing.T) {
	cases := []struct {
		d    DType
		x    float64
		want float64
	}{
		{Float32, 1, 0x1p-23},
		{Float32, 1.5, 0x1p-23},
		{Float32, -3, 0x1p-22},
		{Float16, 1000, 0.5},
		{BFloat16, 1, 0x1p-7},
		{Float64, 1, 0x1p-52},
		{Float16, 0, 0x1p-24},
		{Float32, 1e-40, 0x1p-149},
		{Float32, math.Inf(1), 0x1p-149},
		{Int64, 5, 0},
	}
	for _, c := range cases {
		if got := ULP(c.d, c.x); got != c.want {
			t.Errorf("ULP(%s, %g) = %g, want %g", c.d, c.x, got, c.want)
		}
	}
}
