package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockName is the lock file a run holds in its output directory.
const lockName = ".probe.lock"

// lockDir takes an exclusive lock on dir for the life of the returned
// file, so that two probes never append to the same CSVs (a resume while
// the first run still writes would double the rows). The lock is the
// kernel's (flock): a killed probe releases it with its last descriptor.
// The file holds the holder's PID, for the message of the one refused.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: lock: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := "another probe"
			if b, rerr := os.ReadFile(path); rerr == nil {
				if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
					holder = fmt.Sprintf("probe (pid %d)", pid)
				}
			}
			return nil, fmt.Errorf("output directory %s is in use by %s: wait for it to end, or choose another -o", dir, holder)
		}
		return nil, fmt.Errorf("output directory %s: lock %s: %w", dir, path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
