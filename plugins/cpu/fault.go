package cpu

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

var knownOptions = map[string]bool{"mode": true, "defect": true, "defects": true, "fault": true}

// Fault makes the plugin process fail on one API, to test that the host
// survives a crashing or hanging kernel: "crash:<API full name>" kills the
// process with SIGKILL in the middle of the call, "hang:<API full name>"
// blocks the call forever.
type Fault struct {
	Kind string // "crash" or "hang"
	API  string
}

// ParseFault reads "crash:Functional.relu.0" or "hang:Functional.relu.0".
func ParseFault(s string) (*Fault, error) {
	kind, api, ok := strings.Cut(s, ":")
	if !ok || api == "" || (kind != "crash" && kind != "hang") {
		return nil, fmt.Errorf("cpu: fault %q: want crash:<API> or hang:<API>", s)
	}
	return &Fault{Kind: kind, API: api}, nil
}

// trigger acts on the fault when api matches; it never returns then.
func (f *Fault) trigger(api string) {
	if f == nil || api != f.API {
		return
	}
	if f.Kind == "crash" {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	select {} // hang
}
