package lower

import "testing"

// TestReasonsDisjoint: an API has either a lowering or a reason, not both,
// and every reason reads as a phrase after the API name.
func TestReasonsDisjoint(t *testing.T) {
	for ns, m := range reasons {
		for name, r := range m {
			if Supported(ns, name) {
				t.Errorf("%s.%s has a lowering and a reason (%q)", ns, name, r)
			}
			if r == "" || r[len(r)-1] == '.' {
				t.Errorf("%s.%s: reason %q is empty or ends with a full stop", ns, name, r)
			}
		}
	}
}
