package transport

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// reserveBytes is the address space a segment reserves for its mapping
// (see Segment.reserve): far more than any one call moves, and free to
// reserve (PROT_NONE, MAP_NORESERVE: no memory, no commit charge).
const reserveBytes = 256 << 30

// reserveAddress reserves n bytes of address space, inaccessible.
func reserveAddress(n uintptr) (unsafe.Pointer, error) {
	return unix.MmapPtr(-1, 0, nil, n, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
}

// mapFileAt maps n bytes of fd from off at addr, inside a reservation,
// with the page tables filled in at once (MAP_POPULATE): one system call
// instead of a page fault per 4 KiB page, which is most of the cost of a
// fresh mapping on virtual machines.
func mapFileAt(fd int, off int64, addr unsafe.Pointer, n uintptr) error {
	_, err := unix.MmapPtr(fd, off, addr, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED|unix.MAP_POPULATE)
	return err
}

// unreserve unmaps a reservation and every mapping inside it.
func unreserve(addr unsafe.Pointer, n uintptr) error { return unix.MunmapPtr(addr, n) }
