//go:build !linux

package transport

import (
	"errors"
	"unsafe"
)

// Elsewhere segments grow by mapping the file again (Segment.remap).

const reserveBytes = 0

func reserveAddress(uintptr) (unsafe.Pointer, error) {
	return nil, errors.New("transport: address reservation is Linux-only")
}

func mapFileAt(int, int64, unsafe.Pointer, uintptr) error {
	return errors.New("transport: address reservation is Linux-only")
}

func unreserve(unsafe.Pointer, uintptr) error { return nil }
