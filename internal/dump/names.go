package dump

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/probe-dev/probe/internal/apilist"
)

// csvInjection is msprobe's guard against names a spreadsheet would run as
// a formula: a leading + - = % @ (or their full-width forms), or one after
// a ';'.
var csvInjection = regexp.MustCompile(`^[＋－＝％＠+\-=%@]|;[＋－＝％＠+\-=%@]`)

// UnsafeName reports whether an API name would be interpreted as a formula
// by a spreadsheet (msprobe's CSV-injection blacklist).
func UnsafeName(name string) bool {
	// Every character the expression looks for is one of these bytes or
	// starts with 0xEF (the full-width forms): most names have none.
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '+', '-', '=', '%', '@', 0xEF:
			return csvInjection.MatchString(name)
		}
	}
	return false
}

// Skip reasons.
const (
	moduleSkip    = "Module entry: modules are not checked (API-level dumps only)"
	cellSkip      = "Cell entry: cells are not checked (API-level dumps only)"
	primitiveSkip = "Primitive entries are not checked"
	jitSkip       = "Jit entries are not checked"
)

// notSupported is msprobe's text for APIs run_ut refuses.
func notSupported(name string) string {
	return fmt.Sprintf("API %s not support for run ut. SKIP.", name)
}

// classify pairs forward and backward keys by API name and decides which
// entries are checked.
func classify(d *Dump, raws []*rawEntry) []*Entry {
	var out []*Entry
	byName := map[string]*Entry{}
	mindtorch := strings.EqualFold(d.FileFramework, "mindtorch")
	for _, r := range raws {
		if r.dir == "" {
			out = append(out, nonAPIEntry(d, r.key))
			continue
		}
		name := r.key[:len(r.key)-len(r.dir)-1]
		e := byName[name]
		if e == nil {
			e = &Entry{Name: name, Key: r.key}
			byName[name] = e
			out = append(out, e)
			segs := strings.Split(name, ".")
			e.Type = segs[0]
			if d.Framework == PyTorch {
				classifyPyTorch(e, segs)
			} else {
				classifyMindSpore(e, segs, mindtorch)
				if mindtorch {
					e.dialect = "mindtorch"
				}
			}
			// Checked whatever else is wrong with the name: such an
			// entry gets no row, so the warning is all the user sees.
			if UnsafeName(name) {
				e.Skip = fmt.Sprintf("API name %q starts (or continues after ';') with a character a spreadsheet would run as a formula (+ - = %% @); it is not checked and not written to the CSVs", name)
				e.Silent = true
				d.Warnings = append(d.Warnings, "skipped entry "+fmt.Sprintf("%q", name)+": "+e.Skip)
			}
		}
		// A repeated key replaces the earlier body (Python's dict).
		if r.dir == "forward" {
			e.Key, e.fwd = r.key, body{key: r.key, at: r.at}
		} else {
			e.bwd = body{key: r.key, at: r.at}
		}
	}
	// An entry whose forward body is rejected (Materialize) gets a Skip (a
	// SKIP row); one that only has a backward key keeps Forward nil and
	// gets no row, like in msprobe, which iterates the forward keys.
	for _, e := range out {
		if !e.HasForward() && e.HasBackward() {
			e.Silent = true
			if e.Skip == "" {
				e.Skip = "backward-only entry: the dump has no forward call to replay"
			}
		}
	}
	return out
}

// nonAPIEntry makes the entry of a key that is not "<api>.forward" or
// "<api>.backward".
func nonAPIEntry(d *Dump, key string) *Entry {
	segs := strings.Split(key, ".")
	e := &Entry{Name: key, Key: key, Type: segs[0], Silent: true}
	switch {
	case segs[0] == "Module":
		e.Skip = moduleSkip
	case segs[0] == "Cell":
		e.Skip = cellSkip
	case segs[len(segs)-1] == "parameters_grad":
		e.Skip = "parameter-gradient entry: not an API call"
	default:
		e.Skip = fmt.Sprintf("entry %q is not an API call: the last segment of its name must be \"forward\" or \"backward\"", key)
		if d.Framework == PyTorch {
			// msprobe aborts the whole run here; probe skips the key and
			// says so in the CSV.
			e.Silent = false
		}
		d.Warnings = append(d.Warnings, e.Skip)
	}
	return e
}

// classifyPyTorch applies run_ut's name rules (§3.3, §3.4) by segment.
func classifyPyTorch(e *Entry, segs []string) {
	switch len(segs) {
	case 3:
		e.API, e.Index = segs[1], segs[2]
	case 4:
		e.API, e.Index = segs[1]+"."+segs[2], segs[3]
	}
	switch {
	case e.Type == "Module" || e.Type == "Cell":
		e.Skip, e.Silent = moduleSkip, true
	case e.Type == "Distributed" || e.Type == "MindSpeed":
		e.Skip = notSupported(e.Name)
	case e.API == "":
		e.Skip = notSupported(e.Name)
	}
}

// classifyMindSpore applies the checkability test of the MindSpore spec
// (§3.2) and the three-segment rule of callable resolution (§4.1).
func classifyMindSpore(e *Entry, segs []string, mindtorch bool) {
	if len(segs) < 3 {
		e.Skip, e.Silent = fmt.Sprintf("entry %q is not an API call: the name needs <type>.<api>.<index>", e.Name), true
		return
	}
	real := strings.Join(segs[1:len(segs)-1], ".")
	e.API, e.Index = real, segs[len(segs)-1]
	switch {
	case e.Type == "Cell" || e.Type == "Module":
		e.Skip, e.Silent = cellSkip, true
		return
	case e.Type == "Primitive":
		e.Skip, e.Silent = primitiveSkip, true
		return
	case e.Type == "Jit":
		e.Skip, e.Silent = jitSkip, true
		return
	case e.Type == "Distributed" || e.Type == "MintDistributed":
		e.Skip, e.Silent = fmt.Sprintf("%s APIs are not checked", e.Type), true
		return
	}
	if mindtorch {
		switch e.Type {
		case "Torch", "Functional", "Tensor":
		default:
			e.Skip, e.Silent = fmt.Sprintf("%s APIs are not checked in MindTorch dumps (only Torch, Functional and Tensor)", e.Type), true
			return
		}
	} else {
		switch e.Type {
		case "Mint", "MintFunctional":
		case "Tensor":
			if !apilist.MindSporeTensorMethods[real] {
				e.Skip, e.Silent = fmt.Sprintf("MindSpore Tensor method %q is not in the checker's supported list", real), true
				return
			}
		case "Functional":
			switch {
			case apilist.MindSporeFusedFunctionals[real]:
				e.MsprobeSkip = fmt.Sprintf("MindSpore Functional API %q is not checked (only flash_attention_score)", real)
			case !apilist.MindSporeFusionAPIs[real]:
				e.Skip, e.Silent = fmt.Sprintf("MindSpore Functional API %q is not checked (only flash_attention_score)", real), true
				return
			}
		default:
			e.Skip, e.Silent = fmt.Sprintf("%s APIs are not checked (MindSpore checks Mint, MintFunctional, the supported Tensor methods and flash_attention_score)", e.Type), true
			return
		}
	}
	// MsAdapter's torch.linalg.* and the like are checked; the plugin
	// SKIPs them with --compat msprobe.
	if len(segs) != 3 && !mindtorch {
		e.Skip = fmt.Sprintf("API name %q must have exactly three segments <type>.<api>.<index> to be resolved", e.Name)
	}
}
