package cpu

import (
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// operand parses "T:int32" (dimensioned tensor), "Z:float64" (0-d tensor)
// or "S:int" / "S:float" / "S:bool" (wrapped Python number).
func operand(t *testing.T, s string) *array {
	t.Helper()
	kind, name, _ := strings.Cut(s, ":")
	switch kind {
	case "S":
		k := map[string]ops.ScalarKind{"int": ops.ScalarInt, "float": ops.ScalarFloat, "bool": ops.ScalarBool}[name]
		return scalarArray(ops.Scalar{Kind: k, I: 2, F: 2.5})
	case "T", "Z":
		dt, err := tensor.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		shape := []int{2}
		if kind == "Z" {
			shape = nil
		}
		return newArray(dt, shape)
	}
	t.Fatalf("bad operand %q", s)
	return nil
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
		var args []*array
		for _, s := range strings.Fields(c.in) {
			args = append(args, operand(t, s))
		}
		if got := resultType(args...).String(); got != c.want {
			t.Errorf("result_type(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestPromoteTypesSymmetric(t *testing.T) {
	for _, a := range tensor.All {
		for _, b := range tensor.All {
			if x, y := promoteTypes(a, b), promoteTypes(b, a); x != y {
				t.Errorf("promoteTypes(%s, %s) = %s but (%s, %s) = %s", a, b, x, b, a, y)
			}
		}
		if promoteTypes(a, a) != a || promoteTypes(a, tensor.Invalid) != a {
			t.Errorf("promoteTypes identity fails for %s", a)
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
		if canCast(c.from, c.to) != c.ok {
			t.Errorf("canCast(%s, %s) = %v", c.from, c.to, !c.ok)
		}
	}
	if got := castError(tensor.Float32, tensor.Int64).Error(); got != "result type Float can't be cast to the desired output type Long" {
		t.Errorf("castError = %q", got)
	}
}

func TestRoundToWrapsIntegers(t *testing.T) {
	cases := []struct {
		d    tensor.DType
		x    float64
		want float64
	}{
		{tensor.Int8, 200, -56},
		{tensor.Uint8, -1, 255},
		{tensor.Int32, 2147483648, -2147483648},
		{tensor.Int16, -2.7, -2},
		{tensor.Int64, 1e15 + 0.5, 1e15},
		{tensor.Bool, -0.5, 1},
		{tensor.Float16, 1 + 0x1p-11, 1},
	}
	for _, c := range cases {
		if got := roundTo(c.d, c.x); got != c.want {
			t.Errorf("roundTo(%s, %v) = %v, want %v", c.d, c.x, got, c.want)
		}
	}
}
