package cpu

import (
	"reflect"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
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

// TestBcastIterMatchesIndexMap walks broadcast operands with bcastIter,
// from every start, and compares with ops.BroadcastIndex.
func TestBcastIterMatchesIndexMap(t *testing.T) {
	cases := [][2][]int{
		{{3, 1}, {2, 3, 4}}, {{4}, {2, 3, 4}}, {{1}, {5}}, {{2, 1, 4}, {2, 3, 4}},
		{{1, 3, 1}, {2, 3, 4}}, {{}, {3, 2}}, {{5, 1, 1, 2}, {5, 3, 4, 2}}, {{1, 1}, {1, 7}},
	}
	for _, c := range cases {
		in, out := c[0], c[1]
		m := ops.BroadcastIndex(in, out)
		n := tensor.NumElements(out)
		for from := 0; from < n; from++ {
			it := newBcastIter(in, out)
			it.seek(from)
			for k := from; k < n; k++ {
				want := k
				if m != nil {
					want = m[k]
				}
				if it.pos != want {
					t.Fatalf("%v -> %v from %d: element %d at %d, want %d", in, out, from, k, it.pos, want)
				}
				it.step()
			}
		}
	}
}

// TestOperandsGetMatchesBroadcastIndex checks operands.get, whose inputs
// broadcast along leading dimensions read k mod their size instead of an
// index map, against ops.BroadcastIndex on every pair of small shapes
// that broadcast (ranks 0 to 4, dimensions 1 to 3).
func TestOperandsGetMatchesBroadcastIndex(t *testing.T) {
	var shapes [][]int
	var gen func(prefix []int)
	gen = func(prefix []int) {
		shapes = append(shapes, append([]int(nil), prefix...))
		if len(prefix) == 4 {
			return
		}
		for d := 1; d <= 3; d++ {
			gen(append(prefix, d))
		}
	}
	gen(nil)
	suffixes := 0
	for _, in := range shapes {
		for _, out := range shapes {
			if bs, err := ops.BroadcastShapes(in, out); err != nil || !reflect.DeepEqual(bs, out) {
				continue
			}
			n, m := tensor.NumElements(out), tensor.NumElements(in)
			x := &array{shape: in, data: make([]float64, m), dtype: tensor.Float64}
			for i := range x.data {
				x.data[i] = float64(i + 1)
			}
			y := &array{shape: out, data: make([]float64, n), dtype: tensor.Float64}
			o, err := broadcastOperands(tensor.Float64, x, y)
			if err != nil {
				t.Fatalf("%v to %v: %v", in, out, err)
			}
			if o.mods[0] > 0 {
				suffixes++
			}
			idx := ops.BroadcastIndex(in, out)
			for k := range n {
				want := x.data[0]
				if idx != nil {
					want = x.data[idx[k]]
				} else if m == n {
					want = x.data[k]
				}
				if got := o.get(0, k); got != want {
					t.Fatalf("%v broadcast to %v, position %d: %v, want %v", in, out, k, got, want)
				}
			}
		}
	}
	if suffixes == 0 {
		t.Fatal("no pair took the k mod size path")
	}
}
