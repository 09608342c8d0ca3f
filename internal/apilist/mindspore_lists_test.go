package apilist

import (
	"slices"
	"testing"
)

// TestMindSporeLists: Appendix B's counts, no duplicates, and the ordered
// Tensor list is the checker's allow-list.
func TestMindSporeLists(t *testing.T) {
	for _, l := range []struct {
		name  string
		names []string
		n     int
	}{{"mint", MindSporeMint, 179}, {"mint.nn.functional", MindSporeMintFunctional, 48}, {"tensor", MindSporeTensorList, 59}} {
		s := slices.Clone(l.names)
		slices.Sort(s)
		if len(l.names) != l.n || len(slices.Compact(s)) != l.n {
			t.Errorf("%s: %d names (%d distinct), want %d", l.name, len(l.names), len(s), l.n)
		}
	}
	if len(MindSporeTensorMethods) != len(MindSporeTensorList) {
		t.Fatalf("allow-list %d names, ordered list %d", len(MindSporeTensorMethods), len(MindSporeTensorList))
	}
	for _, n := range MindSporeTensorList {
		if !MindSporeTensorMethods[n] {
			t.Errorf("%s is not in MindSporeTensorMethods", n)
		}
	}
}
