package cpu

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestReductionGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []fdCase{
		{"sum_all", "sum", []ops.Value{randT(r, -1, 1, 2, 3, 2)}, nil},
		{"sum_dims_keepdim", "sum", []ops.Value{randT(r, -1, 1, 2, 3, 2)}, ops.Attrs{"dim": ops.IntsAttr(0, -1), "keepdim": ops.BoolAttr(true)}},
		{"mean_dim", "mean", []ops.Value{randT(r, -1, 1, 2, 3, 2)}, ops.Attrs{"dim": ops.IntAttr(1)}},
		{"mean_all", "mean", []ops.Value{randT(r, -1, 1, 4)}, nil},
		{"max", "max", []ops.Value{randT(r, -1, 1, 3, 2)}, nil},
		{"min", "min", []ops.Value{randT(r, -1, 1, 3, 2)}, nil},
		{"max_dim", "max_dim", []ops.Value{randT(r, -1, 1, 3, 4)}, ops.Attrs{"dim": ops.IntAttr(1)}},
		{"min_dim_keepdim", "min_dim", []ops.Value{randT(r, -1, 1, 3, 4, 2)}, ops.Attrs{"dim": ops.IntAttr(-2), "keepdim": ops.BoolAttr(true)}},
		{"cumsum", "cumsum", []ops.Value{randT(r, -1, 1, 3, 4)}, ops.Attrs{"dim": ops.IntAttr(-1)}},
		{"cumsum_dim0", "cumsum", []ops.Value{randT(r, -1, 1, 3, 2, 2)}, ops.Attrs{"dim": ops.IntAttr(0)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runFDCheck(t, r, c) })
	}
}

func TestReducePlan(t *testing.T) {
	p := newReducePlan([]int{2, 3, 2}, []bool{true, false, true}, false)
	if !reflect.DeepEqual(p.outShape, []int{3}) || p.count != 4 {
		t.Fatalf("plan = %+v", p)
	}
	// Element [i,j,k] reduces into output j.
	want := []int{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}
	if !reflect.DeepEqual(p.idx, want) {
		t.Errorf("idx = %v, want %v", p.idx, want)
	}
	p = newReducePlan([]int{2, 3}, []bool{false, true}, true)
	if !reflect.DeepEqual(p.outShape, []int{2, 1}) {
		t.Errorf("keepdim shape = %v", p.outShape)
	}
}

func TestMaxDimTiesAndNaN(t *testing.T) {
	nan := tensor.FromFloat64s(tensor.Float64, []int{6}, []float64{1, 5, 5, 0, 0, 5})
	res := exec(t, New(Options{}), &device.ExecRequest{Op: "max_dim", Inputs: []ops.Value{ops.T(nan)}, Attrs: ops.Attrs{"dim": ops.IntAttr(0)}})
	if res.Outputs[0].At(0) != 5 || res.Outputs[1].Int64(0) != 1 || res.Outputs[1].DType != tensor.Int64 {
		t.Errorf("max_dim ties: %v at %v", res.Outputs[0].At(0), res.Outputs[1].Int64s())
	}
	res = exec(t, New(Options{}), &device.ExecRequest{Op: "min_dim", Inputs: []ops.Value{ops.T(nan)}, Attrs: ops.Attrs{"dim": ops.IntAttr(0)}})
	if res.Outputs[0].At(0) != 0 || res.Outputs[1].Int64(0) != 3 {
		t.Errorf("min_dim ties: %v at %v", res.Outputs[0].At(0), res.Outputs[1].Int64s())
	}
}
