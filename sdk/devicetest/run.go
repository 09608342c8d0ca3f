package devicetest

import (
	"testing"

	"github.com/probe-dev/probe/sdk/device"

	"github.com/probe-dev/probe/sdk/tensor"
)

// maxErrorsPerPair caps the failures Run prints for one pair.
const maxErrorsPerPair = 20

// Run is Check as a Go test: one subtest per op × dtype pair
// (t.Run(op+"/"+dtype)), failures via t.Errorf naming op, case and error
// (at most 20 per pair, then a count), unsupported pairs and pairs without
// cases skipped with the reason. Any device's own test calls it:
//
//	func TestConformance(t *testing.T) {
//		devicetest.Run(t, mydevice.New(), devicetest.Options{})
//	}
func Run(t *testing.T, dev device.Device, opts Options) {
	t.Helper()
	fails := map[pairKey][]string{}
	rep, err := check(t.Context(), dev, opts, func(op string, dt tensor.DType, msg string) {
		k := pairKey{op, dt}
		fails[k] = append(fails[k], msg)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		t.Run(r.Op+"/"+r.DType.String(), func(t *testing.T) {
			switch r.Status {
			case Unsupported:
				t.Skipf("%s at %s: the corpus has cases, the device does not declare the pair", r.Op, r.DType)
			case NoCases:
				t.Skipf("%s at %s: declared, no case in the corpus", r.Op, r.DType)
			case Fail:
				msgs := fails[pairKey{r.Op, r.DType}]
				for i, m := range msgs {
					if i == maxErrorsPerPair {
						t.Errorf("... and %d more failures", len(msgs)-i)
						break
					}
					t.Error(m)
				}
				t.Logf("%d of %d checks failed; worst: %s", r.Failed, r.Cases, r.Worst)
			default:
				t.Logf("%d checks pass, worst %s tolerance", r.Cases, fmtRatio(r.WorstRatio))
			}
		})
	}
}
