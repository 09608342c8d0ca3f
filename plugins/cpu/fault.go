package cpu

import (
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/probe-dev/probe/sdk/device"
)

var knownOptions = map[string]bool{"mode": true, "defect": true, "defects": true, "fault": true}

// Fault makes the plugin fail on one API, to test how the host reports a
// bad device: "crash:<API full name>" kills the process with SIGKILL in the
// middle of the call, "hang:<API full name>" blocks the call forever,
// "fail:<API>" returns a device failure (as a kernel or driver error would)
// and "unsupported:<API>" says the op is not supported at the call's dtype
// although Describe declared it.
type Fault struct {
	Kind string // "crash", "hang", "fail" or "unsupported"
	API  string
}

// ParseFault reads "crash:Functional.relu.0", "hang:…", "fail:…" or
// "unsupported:…".
func ParseFault(s string) (*Fault, error) {
	kind, api, ok := strings.Cut(s, ":")
	switch {
	case !ok || api == "":
	case kind == "crash", kind == "hang", kind == "fail", kind == "unsupported":
		return &Fault{Kind: kind, API: api}, nil
	}
	return nil, fmt.Errorf("cpu: fault %q: want crash:<API>, hang:<API>, fail:<API> or unsupported:<API>", s)
}

// trigger acts on the fault when the request is for its API: it never
// returns for crash and hang, and returns the error of fail and
// unsupported.
func (f *Fault) trigger(req *device.ExecRequest) error {
	if f == nil || req.API != f.API {
		return nil
	}
	switch f.Kind {
	case "fail":
		return fmt.Errorf("%s: planted device failure (fault=fail:%s)", req.Op, f.API)
	case "unsupported":
		return &device.ErrUnsupported{Op: req.Op, DType: device.CallDType(req.Inputs), Reason: "planted (fault=unsupported:" + f.API + ")"}
	case "crash":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	select {} // hang
}
