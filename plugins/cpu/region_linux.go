package cpu

import "golang.org/x/sys/unix"

// reserveRegion maps n bytes of address space, readable and writable but
// without memory until touched (MAP_NORESERVE: no commit charge), or
// returns nil.
func reserveRegion(n int) []byte {
	mem, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return mem
}

// populate makes b's pages resident in one system call
// (MADV_POPULATE_WRITE, Linux 5.14); on older kernels they fault in as
// they are touched.
func populate(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_POPULATE_WRITE)
	}
}
