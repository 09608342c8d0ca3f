package ops

import (
	"reflect"
	"testing"
)

func TestSchemasConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range schemas {
		if seen[s.Name] {
			t.Fatalf("schema %s defined twice", s.Name)
		}
		seen[s.Name] = true
	}
	for _, name := range Names() {
		s, _ := Lookup(name)
		if len(s.Inputs) == 0 {
			t.Errorf("%s: no inputs", s.Name)
		}
		for i, in := range s.Inputs {
			if in.Variadic && i != len(s.Inputs)-1 {
				t.Errorf("%s: variadic input %q is not last", s.Name, in.Name)
			}
		}
		seen := map[string]bool{}
		for _, a := range s.Attrs {
			if seen[a.Name] {
				t.Errorf("%s: attribute %q twice", s.Name, a.Name)
			}
			seen[a.Name] = true
			if !a.Required && a.Default.Kind != a.Kind && a.Default.Kind != AttrNone {
				t.Errorf("%s: attribute %q of kind %d has a default of kind %d", s.Name, a.Name, a.Kind, a.Default.Kind)
			}
		}
		if s.Outputs == 0 || s.Outputs < -1 {
			t.Errorf("%s: outputs = %d", s.Name, s.Outputs)
		}
	}
	if _, ok := Lookup("nonexistent"); ok {
		t.Error("Lookup found a nonexistent op")
	}
}

func TestAttrGetters(t *testing.T) {
	a := Attrs{"i": IntAttr(3), "f": FloatAttr(2.5), "b": BoolAttr(true), "s": StringAttr("tanh"),
		"is": IntsAttr(1, 2), "fs": FloatsAttr(0.5), "n": NoneAttr()}
	if a.Int("i", 0) != 3 || a.Int("missing", 7) != 7 || a.Int("n", 9) != 9 || a.Int("b", 0) != 1 {
		t.Error("Int")
	}
	if a.Float("f", 0) != 2.5 || a.Float("i", 0) != 3 || a.Float("n", 1.5) != 1.5 {
		t.Error("Float")
	}
	if !a.Bool("b", false) || a.Bool("missing", false) || !a.Bool("i", false) {
		t.Error("Bool")
	}
	if a.Str("s", "") != "tanh" || a.Str("i", "x") != "x" {
		t.Error("Str")
	}
	if !reflect.DeepEqual(a.Ints("is", nil), []int64{1, 2}) || !reflect.DeepEqual(a.Ints("i", nil), []int64{3}) || a.Ints("n", nil) != nil {
		t.Error("Ints")
	}
	if !reflect.DeepEqual(a.Floats("is", nil), []float64{1, 2}) || !reflect.DeepEqual(a.Floats("f", nil), []float64{2.5}) {
		t.Error("Floats")
	}
	if !a.IsNone("n") || !a.IsNone("missing") || a.IsNone("i") || !a.Has("n") {
		t.Error("IsNone/Has")
	}
	if !reflect.DeepEqual(a.Names(), []string{"b", "f", "fs", "i", "is", "n", "s"}) {
		t.Errorf("Names = %v", a.Names())
	}
	if I(3).Scalar.Float() != 3 || F(1.5).Scalar.Float() != 1.5 || B(true).Scalar.Float() != 1 || None.Kind != KindNone {
		t.Error("value constructors")
	}
}
