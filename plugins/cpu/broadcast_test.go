package cpu

import (
	"reflect"
	"testing"
)

func TestBroadcastShapes(t *testing.T) {
	cases := []struct {
		in   [][]int
		want []int
		err  bool
	}{
		{[][]int{{2, 3}, {3}}, []int{2, 3}, false},
		{[][]int{{2, 1, 3}, {4, 1}}, []int{2, 4, 3}, false},
		{[][]int{{}, {2, 2}}, []int{2, 2}, false},
		{[][]int{{}, {}}, []int{}, false},
		{[][]int{{0, 3}, {3}}, []int{0, 3}, false},
		{[][]int{{2, 0}, {1, 1}}, []int{2, 0}, false},
		{[][]int{{1}, {0}}, []int{0}, false},
		{[][]int{{2, 3}, {2}}, nil, true},
		{[][]int{{3}, {2, 1}, {1, 3}}, []int{2, 3}, false},
	}
	for _, c := range cases {
		got, err := broadcastShapes(c.in...)
		if (err != nil) != c.err {
			t.Errorf("broadcastShapes(%v) error = %v", c.in, err)
			continue
		}
		if !c.err && !reflect.DeepEqual(got, c.want) {
			t.Errorf("broadcastShapes(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if _, err := broadcastShapes([]int{2, 3}, []int{4}); err == nil || err.Error() != "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1" {
		t.Errorf("message: %v", err)
	}
}

func TestBroadcastMapAndSum(t *testing.T) {
	// (3,1) broadcast to (2,3,2): element [i,j,k] reads in[j].
	m := broadcastMap([]int{3, 1}, []int{2, 3, 2})
	want := []int{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("broadcastMap = %v, want %v", m, want)
	}
	if broadcastMap([]int{2, 2}, []int{2, 2}) != nil {
		t.Error("identity map should be nil")
	}
	g := make([]float64, 12)
	for i := range g {
		g[i] = float64(i)
	}
	got := sumToShape(g, []int{2, 3, 2}, []int{3, 1})
	if !reflect.DeepEqual(got, []float64{0 + 1 + 6 + 7, 2 + 3 + 8 + 9, 4 + 5 + 10 + 11}) {
		t.Errorf("sumToShape = %v", got)
	}
	if got := sumToShape(g, []int{2, 3, 2}, nil); len(got) != 1 || got[0] != 66 {
		t.Errorf("sumToShape to 0-d = %v", got)
	}
	if got := expandTo(&array{shape: []int{2, 1}, data: []float64{5, 7}}, []int{2, 3}); !reflect.DeepEqual(got, []float64{5, 5, 5, 7, 7, 7}) {
		t.Errorf("expandTo = %v", got)
	}
}
