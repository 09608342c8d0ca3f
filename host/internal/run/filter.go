package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/probe-dev/probe/host/internal/dump"
)

// alwaysBlack are the APIs msprobe never checks; they are appended to the
// configured black list (pytorch-precheck §3.5).
var alwaysBlack = []string{"to", "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "empty_with_format"}

// listed reports whether the short API name api is filtered out by the
// black and white lists (§3.5): the black list, with the fixed list of
// always-unsupported APIs, wins; a non-empty white list keeps only its
// names.
func listed(api string, black, white []string) bool {
	if slices.Contains(black, api) || slices.Contains(alwaysBlack, api) {
		return true
	}
	return len(white) > 0 && !slices.Contains(white, api)
}

// listedMessage is msprobe's SKIP message for a filtered API.
func listedMessage(api string) string {
	return fmt.Sprintf("API %s in black list or not in white list. SKIP.", api)
}

// dedup is -f/--filter_api (§3.6): of the forward entries with the same
// API (full name without the call index) and the same signature, only the
// first is kept. compat selects msprobe's signature (top-level dict
// arguments without Max/Min, kwargs as dumped) instead of probe's (every
// input descriptor, list contents included, without statistics; §12 #15).
// Entries whose forward body could not be parsed are always kept. It
// returns the kept entries and the number dropped.
func dedup(entries []*dump.Entry, compat bool) ([]*dump.Entry, int) {
	seen := map[[2]string]bool{}
	kept := make([]*dump.Entry, 0, len(entries))
	for _, e := range entries {
		if e.Forward == nil {
			kept = append(kept, e)
			continue
		}
		base := e.Name
		if i := strings.LastIndexByte(base, '.'); i >= 0 {
			base = base[:i]
		}
		sig := e.Forward.FilterSig
		if compat {
			sig = e.Forward.FilterSigMsprobe
		}
		k := [2]string{base, sig}
		if seen[k] {
			continue
		}
		seen[k] = true
		kept = append(kept, e)
	}
	return kept, len(entries) - len(kept)
}
