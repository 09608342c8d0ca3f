//go:build unix

package pluginrpc

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// protectStdout keeps the handshake pipe for go-plugin alone: the pipe
// moves to a new descriptor that becomes os.Stdout, and file descriptor 1
// is pointed at stderr, so anything written to fd 1 directly (a C library's
// printf, a banner) ends up in the plugin's log instead of corrupting the
// handshake.
func protectStdout() error {
	stderr() // remember the real stderr before anything swaps it
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return fmt.Errorf("dup stdout: %w", err)
	}
	if err := dupOnto(2, 1); err != nil {
		unix.Close(fd)
		return fmt.Errorf("redirect fd 1 to stderr: %w", err)
	}
	os.Stdout = os.NewFile(uintptr(fd), "/dev/stdout")
	return nil
}
