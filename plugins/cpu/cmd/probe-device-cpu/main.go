// Command probe-device-cpu is the CPU device plugin as a stand-alone binary:
// the same plugin that probe serves built-in, for probe.toml's
// `command = "/path/to/probe-device-cpu"`, and the example of a device plugin
// built outside probe with nothing but the SDK.
package main

import (
	"fmt"
	"os"

	"github.com/probe-dev/probe/plugins/cpu"
	"github.com/probe-dev/probe/sdk/plugin"
)

func main() {
	if err := plugin.ServeDevice(cpu.NewConfigurable()); err != nil {
		fmt.Fprintln(os.Stderr, "probe-device-cpu:", err)
		os.Exit(1)
	}
}
