package run

import (
	"slices"
	"strings"

	"github.com/probe-dev/probe/internal/apilist"
	"github.com/probe-dev/probe/internal/dump"
)

// listed reports whether the short API name api is filtered out by the
// user's black and white lists (§3.5): the black list wins; a non-empty
// white list keeps only its names. (run_ut's fixed black list is the
// framework plugins': they skip those APIs with the same message.)
func listed(api string, black, white []string) bool {
	if slices.Contains(black, api) {
		return true
	}
	return len(white) > 0 && !slices.Contains(white, api)
}

// listedMessage is msprobe's SKIP message for a filtered API.
func listedMessage(api string) string { return apilist.BlackListed(api) }

// dedup is -f/--filter_api (§3.6): of the forward entries with the same
// API (full name without the call index) and the same signature, only the
// first is kept. compat selects msprobe's signature (top-level dict
// arguments without Max/Min, kwargs as dumped) instead of probe's (every
// input descriptor, list contents included, without statistics; §12 #15).
// Entries whose forward body could not be parsed are always kept. It
// returns the kept entries and the number dropped. Each entry of d is
// materialized for its signature and released again.
func dedup(d *dump.Dump, entries []*dump.Entry, compat bool) ([]*dump.Entry, int) {
	seen := map[[2]string]bool{}
	kept := make([]*dump.Entry, 0, len(entries))
	for _, e := range entries {
		d.Materialize(e)
		fwd := e.Forward
		d.Release(e)
		if fwd == nil {
			kept = append(kept, e)
			continue
		}
		base := e.Name
		if i := strings.LastIndexByte(base, '.'); i >= 0 {
			base = base[:i]
		}
		sig := fwd.FilterSig
		if compat {
			sig = fwd.FilterSigMsprobe
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
