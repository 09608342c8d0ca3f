package cpu

import (
	"reflect"
	"testing"
)

func TestBroadcastSum(t *testing.T) {
	// (3,1) broadcast to (2,3,2): element [i,j,k] reads in[j]
	// (ops.BroadcastIndex's own test has more).
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
