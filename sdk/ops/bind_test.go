package ops

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
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
		got, err := BroadcastShapes(c.in...)
		if (err != nil) != c.err {
			t.Errorf("BroadcastShapes(%v) error = %v", c.in, err)
			continue
		}
		if !c.err && !reflect.DeepEqual(got, c.want) {
			t.Errorf("BroadcastShapes(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if _, err := BroadcastShapes([]int{2, 3}, []int{4}); err == nil || err.Error() != "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1" {
		t.Errorf("message: %v", err)
	}
}

func TestBind(t *testing.T) {
	x := T(tensor.New(tensor.Float32, []int{2, 3}))
	// Defaults filled, given attributes kept, trailing optional input None.
	b, err := Bind("linear", nil, []Value{x, x})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Inputs) != 3 || b.Inputs[2].Kind != KindNone || b.Specs[2].Name != "bias" || !b.Specs[2].Optional {
		t.Errorf("linear: %+v", b)
	}
	b, err = Bind("add", Attrs{"alpha": IntAttr(2)}, []Value{x, F(1.5)})
	if err != nil {
		t.Fatal(err)
	}
	if b.Attrs.Float("alpha", 0) != 2 || b.Attrs.Bool("inplace", true) || b.Inplace() {
		t.Errorf("add attrs %+v", b.Attrs)
	}
	if b, _ := Bind("add", Attrs{"inplace": BoolAttr(true)}, []Value{x, x}); !b.Inplace() {
		t.Error("Inplace")
	}
	// Variadic: one spec per tensor of the list.
	b, err = Bind("cat", nil, []Value{x, x, x})
	if err != nil || len(b.Specs) != 3 || b.Specs[2].Name != "tensors" || b.Attrs.Int("dim", -1) != 0 {
		t.Errorf("cat: %+v %v", b, err)
	}
	for _, c := range []struct {
		op     string
		attrs  Attrs
		inputs []Value
		want   string
	}{
		{"nope", nil, []Value{x}, `unknown canonical op "nope"`},
		{"relu", nil, []Value{x, x}, "op relu takes 1 inputs, got 2"},
		{"mm", nil, []Value{x}, "op mm: missing input mat2"},
		{"cat", nil, nil, "op cat: input tensors needs at least one tensor"},
		{"relu", nil, []Value{F(1)}, "op relu: input self must be a tensor, not a number"},
		{"mm", nil, []Value{x, None}, "op mm: input mat2 must be a tensor, not None"},
		{"relu", nil, []Value{{Kind: KindTensor}}, "op relu: input self is a nil tensor"},
		{"relu", Attrs{"alpha": FloatAttr(1)}, []Value{x}, `op relu has no attribute "alpha"`},
		{"softmax", nil, []Value{x}, "op softmax: missing required attribute dim"},
		{"softmax", Attrs{"dim": StringAttr("x")}, []Value{x}, "op softmax: attribute dim has kind string, want int"},
	} {
		_, err := Bind(c.op, c.attrs, c.inputs)
		var ae *ArgumentError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Bind(%s): %v, want an *ArgumentError with %q", c.op, err, c.want)
		}
	}
}

func TestCheckArity(t *testing.T) {
	add, _ := Lookup("add")
	cat, _ := Lookup("cat")
	if add.CheckArity(2) != nil || add.CheckArity(1) == nil || cat.CheckArity(1) != nil || cat.CheckArity(0) == nil {
		t.Error("CheckArity")
	}
	if cat.Input(5).Name != "tensors" || !cat.Variadic() || add.Variadic() {
		t.Error("Input/Variadic")
	}
}

// PyTorch's in-place rule: same shape (transpose_ excepted) and a cast
// PyTorch allows, with its messages.
func TestCheckInplace(t *testing.T) {
	f32, i64 := tensor.Float32, tensor.Int64
	if err := CheckInplace("add", []int{2, 3}, f32, []int{2, 3}, tensor.Float64); err != nil {
		t.Errorf("float64 into float32: %v", err)
	}
	err := CheckInplace("add", []int{2, 3}, i64, []int{2, 3}, f32)
	if err == nil || err.Error() != "result type Float can't be cast to the desired output type Long" {
		t.Errorf("float into int64: %v", err)
	}
	err = CheckInplace("add", []int{3}, f32, []int{2, 3}, f32)
	if err == nil || err.Error() != "output with shape [3] doesn't match the broadcast shape [2, 3]" {
		t.Errorf("broadcast into self: %v", err)
	}
	if err := CheckInplace("transpose", []int{2, 3}, f32, []int{3, 2}, f32); err != nil {
		t.Errorf("transpose_: %v", err)
	}
	if !reflect.DeepEqual(ShapeList(nil), "[]") {
		t.Error("ShapeList of a 0-d shape")
	}
}

func TestBroadcastIndex(t *testing.T) {
	// (3,1) broadcast to (2,3,2): element [i,j,k] reads in[j].
	if got, want := BroadcastIndex([]int{3, 1}, []int{2, 3, 2}), []int{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("BroadcastIndex = %v, want %v", got, want)
	}
	// A 0-d tensor is read everywhere; (2,1) against (2,3) repeats rows.
	if got := BroadcastIndex(nil, []int{2, 2}); !reflect.DeepEqual(got, []int{0, 0, 0, 0}) {
		t.Errorf("0-d: %v", got)
	}
	if got := BroadcastIndex([]int{2, 1}, []int{2, 3}); !reflect.DeepEqual(got, []int{0, 0, 0, 1, 1, 1}) {
		t.Errorf("column: %v", got)
	}
	if BroadcastIndex([]int{2, 2}, []int{2, 2}) != nil {
		t.Error("identity map should be nil")
	}
	if got := BroadcastIndex([]int{1}, []int{0, 4}); len(got) != 0 {
		t.Errorf("empty output: %v", got)
	}
}

func TestBindInplaceNeedsTensor(t *testing.T) {
	x := T(tensor.New(tensor.Float32, []int{2}))
	if _, err := Bind("add", Attrs{"inplace": BoolAttr(true)}, []Value{F(1), x}); err == nil || !strings.Contains(err.Error(), "in-place call needs a tensor") {
		t.Errorf("in-place add of a number: %v", err)
	}
	if got := (Attrs{"alpha": BoolAttr(true)}).Float("alpha", 7); got != 1 {
		t.Errorf("bool attribute as float: %v", got)
	}
}
