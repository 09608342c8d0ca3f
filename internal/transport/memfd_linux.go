package transport

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// createMemfd creates a memfd sealed against shrinking, so that no process
// can truncate it under another's mapping.
func createMemfd() (*os.File, error) {
	fd, err := unix.MemfdCreate("probe-shm", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("transport: memfd_create: %w", err)
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("transport: seal memfd: %w", err)
	}
	return os.NewFile(uintptr(fd), "memfd:probe-shm"), nil
}
