// Command probe finds which deep-learning framework APIs compute imprecisely
// on an accelerator: see `probe help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/probe-dev/probe/host"
	"github.com/probe-dev/probe/host/internal/killpoint"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	killpoint.Watch(ctx.Done()) // tests only: see the package
	code := host.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
