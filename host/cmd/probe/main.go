// Command probe finds which deep-learning framework APIs compute imprecisely
// on an accelerator: see `probe help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/probe-dev/probe/host"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := host.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
