package report

import (
	"github.com/probe-dev/probe/host/internal/standard"
)

// NoGradMessage is msprobe's details message for a gradient row the bench
// has no gradient for.
const NoGradMessage = "Bench output is None, skip this test."

// Style is how a checker's CSVs shape the rows of one API: msprobe's
// PyTorch and MindSpore checkers differ in which rows a skipped or failed
// API gets, how directions are aggregated and what the result row's
// Message holds. Compat reproduces msprobe's defects where probe fixes
// them (docs/compat.md).
type Style struct {
	Flavor Flavor
	Compat bool
}

// Skip is an API that could not be run: SKIP, SKIP and the reason (and,
// for PyTorch, one SKIP details row).
func (s Style) Skip(name, reason string) *API {
	a := &API{Name: name, Forward: standard.Skip, Backward: standard.Skip, Message: reason}
	if s.Flavor == PyTorch {
		a.Details = []Detail{{Name: name + ".forward.output.0", Row: standard.Row{Status: standard.Skip, Message: reason}}}
	}
	return a
}

// Error is an API whose run failed (a crashed or hung plugin, a device
// failure); backward says whether its backward would have run.
func (s Style) Error(name string, backward bool, reason string) *API {
	bw := standard.Space
	if backward {
		bw = standard.Error
	}
	if s.Flavor == MindSpore && !backward {
		bw = ""
	}
	return &API{Name: name, Forward: standard.Error, Backward: bw, Message: reason,
		Details: []Detail{{Name: name + ".forward.output.0", Row: standard.Row{Status: standard.Error, Message: reason}}}}
}

// BackwardSkipped is the details rows of a backward skipped with msg: one
// SKIP row for PyTorch, none for MindSpore.
func (s Style) BackwardSkipped(name, msg string) []Detail {
	if s.Flavor != PyTorch {
		return nil
	}
	return []Detail{{Name: name + ".backward.output.0", Row: standard.Row{Status: standard.Skip, Message: msg}}}
}

// MissingGrad is the row of a gradient the bench or the device did not
// return; ok is false when the checker writes no row for it (MindSpore
// trims them, mindspore-precheck §4.9).
func (s Style) MissingGrad(rowName string) (d Detail, ok bool) {
	if s.Flavor == MindSpore {
		return Detail{}, false
	}
	return Detail{Name: rowName, Row: standard.Row{Status: standard.Skip, Message: NoGradMessage}}, true
}

// Aggregate is the API-level status of one direction ("" with no rows).
// PyTorch: any error -> error, else any Warning -> Warning, else pass; a
// direction whose rows are all SKIP is SKIP (msprobe says pass: §12 #2).
// With Compat, msprobe's order-dependent rule (§5.2). MindSpore: pass only
// when every row passes.
func (s Style) Aggregate(rows []Detail) string {
	if len(rows) == 0 {
		return ""
	}
	st := make([]string, len(rows))
	allSkip := true
	for i, r := range rows {
		st[i] = r.Status
		allSkip = allSkip && r.Status == standard.Skip
	}
	if s.Flavor == PyTorch {
		if s.Compat {
			return standard.AggregateCompat(st)
		}
		if allSkip {
			return standard.Skip
		}
		return standard.Aggregate(st)
	}
	for _, x := range st {
		if x != standard.Pass {
			return standard.Error
		}
	}
	return standard.Pass
}

// Finish fills the result row of a judged API from its details:
// directions with no status yet are aggregated, and the Message is set as
// the checker sets it (backwardMessage is why the backward was skipped).
func (s Style) Finish(api *API, fwd, bwd []Detail, backwardMessage string) {
	api.Details = append(append(api.Details, fwd...), bwd...)
	if api.Forward == "" {
		api.Forward = s.Aggregate(fwd)
	}
	if api.Backward == "" {
		api.Backward = s.Aggregate(bwd)
	}
	if s.Flavor == PyTorch {
		if api.Backward == "" {
			api.Backward = standard.Space
		}
		if backwardMessage != "" {
			api.Message = backwardMessage
		} else {
			// msprobe writes no Message cell here; probe writes an empty one
			// so that every row has 4 fields (pytorch-precheck §12 #21).
			api.OmitMessage = s.Compat
		}
		return
	}
	// MindSpore: a message only when something failed.
	if !(api.Forward == standard.Pass && (api.Backward == standard.Pass || api.Backward == "")) {
		for _, d := range api.Details {
			if d.Status == standard.Error {
				api.Message += d.Message
			}
		}
		api.Message += backwardMessage
	}
}
