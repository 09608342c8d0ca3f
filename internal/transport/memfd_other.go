//go:build !linux

package transport

import (
	"errors"
	"os"
)

func createMemfd() (*os.File, error) {
	return nil, errors.New("transport: memfd is Linux-only")
}
