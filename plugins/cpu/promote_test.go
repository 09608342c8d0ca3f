package cpu

import (
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The kernels' resultType is ops.ResultType over their arrays: Python
// numbers are wrapped numbers, 0-d arrays 0-d tensors (the facts
// themselves are sdk/ops's tests).
func TestResultTypeOfArrays(t *testing.T) {
	i32 := newArray(tensor.Int32, []int{2})
	zf64 := newArray(tensor.Float64, nil)
	cases := []struct {
		args []*array
		want tensor.DType
	}{
		{[]*array{i32, scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: 2.5})}, tensor.Float32},
		{[]*array{i32, scalarArray(ops.Scalar{Kind: ops.ScalarInt, I: 2})}, tensor.Int32},
		{[]*array{i32, zf64}, tensor.Float64},
		{[]*array{newArray(tensor.Float16, []int{2}), zf64, nil}, tensor.Float16},
	}
	for i, c := range cases {
		if got := resultType(c.args...); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
	if operandDType(scalarArray(ops.Scalar{Kind: ops.ScalarBool})) != tensor.Bool {
		t.Error("operandDType of a bool number")
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
