package killpoint

import (
	"syscall"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for v, want := range map[string]Spec{
		"device.sent:3:KILL":    {Point: DeviceSent, N: 3, Signal: syscall.SIGKILL},
		"synced:1:INT:25":       {Point: Synced, N: 1, Signal: syscall.SIGINT, Delay: 25 * time.Millisecond},
		"result.written:35:INT": {Point: ResultWritten, N: 35, Signal: syscall.SIGINT},
	} {
		got, err := Parse(v)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", v, got, err, want)
		}
		if got.String() != v {
			t.Errorf("Parse(%q).String() = %q", v, got.String())
		}
	}
	for _, v := range []string{"", "device.sent", "device.sent:3", "nowhere:1:KILL", "judged:0:KILL", "judged:x:KILL", "judged:1:TERM", "judged:1:INT:-5", "judged:1:INT:5:6"} {
		if _, err := Parse(v); err == nil {
			t.Errorf("Parse(%q): no error", v)
		}
	}
}

// Hit with neither variable set: it is on the hot path of every API.
func BenchmarkHitOff(b *testing.B) {
	if on {
		b.Skip(EnvSpec + " or " + EnvTrace + " is set")
	}
	for b.Loop() {
		Hit(DeviceSent, "Functional.relu.0")
	}
}
