package lower

import (
	"slices"
	"testing"
)

// TestOpsOfEveryAPI: every lowering names its ops for the support table,
// found by OpsOf's made-up calls or declared with declareOps, and they are
// ops the lowerings produce.
func TestOpsOfEveryAPI(t *testing.T) {
	used := Ops()
	for _, ns := range []Namespace{Functional, Torch, TensorMethod, NPU, Aten} {
		for _, name := range Names(ns) {
			got := OpsOf(ns, name)
			if len(got) == 0 {
				t.Errorf("%s.%s: OpsOf finds no op; declare them with declareOps", ns, name)
			}
			for _, op := range got {
				if !slices.Contains(used, op) {
					t.Errorf("%s.%s: op %s is not in usedOps", ns, name, op)
				}
			}
		}
	}
	if OpsOf(TensorMethod, "no_such_api") != nil {
		t.Error("an API without a lowering has ops")
	}
}

func TestOpsOfExamples(t *testing.T) {
	for _, c := range []struct {
		ns   Namespace
		name string
		want []string
	}{
		{TensorMethod, "add_", []string{"add"}},
		{TensorMethod, "__rsub__", []string{"sub"}},
		{Functional, "linear", []string{"linear"}},
		{TensorMethod, "max", []string{"max", "max_dim"}},
		{Torch, "cat", []string{"cat"}},
	} {
		if got := OpsOf(c.ns, c.name); !slices.Equal(got, c.want) {
			t.Errorf("OpsOf(%s.%s) = %v, want %v", c.ns, c.name, got, c.want)
		}
	}
}
