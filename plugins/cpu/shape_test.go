package cpu

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
)

func TestShapeGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []fdCase{
		{"cat", "cat", []ops.Value{randT(r, -1, 1, 2, 1), randT(r, -1, 1, 2, 3)}, ops.Attrs{"dim": ops.IntAttr(1)}},
		{"stack", "stack", []ops.Value{randT(r, -1, 1, 2, 3), randT(r, -1, 1, 2, 3)}, ops.Attrs{"dim": ops.IntAttr(-1)}},
		{"split", "split_with_sizes", []ops.Value{randT(r, -1, 1, 2, 5)}, ops.Attrs{"split_sizes": ops.IntsAttr(2, 0, 3), "dim": ops.IntAttr(1)}},
		{"transpose", "transpose", []ops.Value{randT(r, -1, 1, 2, 3, 4)}, ops.Attrs{"dim0": ops.IntAttr(0), "dim1": ops.IntAttr(2)}},
		{"permute", "permute", []ops.Value{randT(r, -1, 1, 2, 3, 4)}, ops.Attrs{"dims": ops.IntsAttr(1, 2, 0)}},
		{"reshape", "reshape", []ops.Value{randT(r, -1, 1, 2, 3)}, ops.Attrs{"shape": ops.IntsAttr(3, -1)}},
		{"clone", "clone", []ops.Value{randT(r, -1, 1, 4)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runFDCheck(t, r, c) })
	}
}

func TestPermuteData(t *testing.T) {
	data := []float64{0, 1, 2, 3, 4, 5} // shape (2, 3)
	got, shape := permuteData(data, []int{2, 3}, []int{1, 0})
	if !reflect.DeepEqual(shape, []int{3, 2}) || !reflect.DeepEqual(got, []float64{0, 3, 1, 4, 2, 5}) {
		t.Errorf("transpose = %v %v", got, shape)
	}
	back, _ := permuteData(got, shape, invertPerm([]int{1, 0}))
	if !reflect.DeepEqual(back, data) {
		t.Errorf("inverse = %v", back)
	}
}

func TestInferShape(t *testing.T) {
	cases := []struct {
		want  []int64
		numel int
		out   []int
		err   string
	}{
		{[]int64{4, -1}, 24, []int{4, 6}, ""},
		{[]int64{}, 1, []int{}, ""},
		{[]int64{-1, 3}, 0, []int{0, 3}, ""},
		{[]int64{5, -1}, 24, nil, "shape '[5, -1]' is invalid for input of size 24"},
		{[]int64{-1, -1}, 24, nil, "only one dimension can be inferred"},
		{[]int64{0, -1}, 0, nil, "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified dimension size -1 can be any value and is ambiguous"},
		{[]int64{-2, 12}, 24, nil, "invalid shape dimension -2"},
	}
	for _, c := range cases {
		got, err := inferShape(c.want, c.numel)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("inferShape(%v, %d) error %v, want %q", c.want, c.numel, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.out) {
			t.Errorf("inferShape(%v, %d) = %v, %v", c.want, c.numel, got, err)
		}
	}
}
