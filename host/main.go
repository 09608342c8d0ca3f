// Package host is probe's host program: the command line, plugin start-up,
// and the glue between dump parsing, the plugins, the precision standard and
// the CSV files.
package host

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Version is probe's version.
const Version = "0.1.0"

// errUsage marks a command-line mistake (exit status 2).
var errUsage = errors.New("usage")

const usage = `probe — find the framework APIs that compute imprecisely on a device.

Usage:
  probe run --framework pytorch|mindspore --api-info dump.json [-o OUT] [flags]
  probe compare --npu NPU_details.csv --gpu GPU_details.csv [-o OUT] [--compat msprobe]
  probe plugins [--config probe.toml] [--ops]
  probe ops [--framework pytorch|mindspore] [--json]
  probe conformance NAME|PATH [--device-option k=v ...]
  probe version

msprobe spellings work too:  probe -f pytorch run_ut -api_info dump.json -o OUT
                             probe -f pytorch multi_run_ut -api_info dump.json -n 4 -d 0 1
                             probe -f pytorch api_precision_compare -npu A.csv -gpu B.csv -o OUT

Run 'probe run -h' for the flags of a run.
`

// Main runs the command line and returns the process exit status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, "probe:", strings.TrimSuffix(strings.TrimPrefix(err.Error(), "usage: "), ": usage"))
		return 2
	}
	fmt.Fprintln(stderr, "probe:", err)
	return 1
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// msprobe form: -f|--framework NAME SUBCOMMAND ...
	framework := ""
	if len(args) >= 2 && (args[0] == "-f" || args[0] == "--framework" || args[0] == "-framework") {
		framework, args = args[1], args[2:]
	}
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run", "run_ut", "acc_check":
		return runCommand(ctx, framework, rest, false, stdout, stderr)
	case "multi_run_ut", "multi_acc_check":
		return runCommand(ctx, framework, rest, true, stdout, stderr)
	case "compare", "api_precision_compare":
		return compareCommand(ctx, rest, stdout, stderr)
	case "plugins":
		return pluginsCommand(ctx, rest, stdout, stderr)
	case "ops":
		return opsCommand(ctx, framework, rest, stdout, stderr)
	case "conformance":
		return conformanceCommand(ctx, rest, stdout, stderr)
	case "plugin":
		return servePlugin(rest)
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "probe %s (plugin protocol %d)\n", Version, protocolVersion)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return fmt.Errorf("%w: unknown command %q (try 'probe help')", errUsage, cmd)
}

// fileExists reports whether path names an existing regular file.
func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
