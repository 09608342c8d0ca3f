package cpu

import (
	"sync"
	"unsafe"
)

// The region: one large anonymous mapping, reserved once (address space,
// no memory) and made resident as calls reach into it, from which a call
// takes its large buffers in order (a bump allocator) and which starts
// over at the next call. Every size is served by the same pages, so a
// call finds memory the calls before it already touched, where the pool's
// size classes missed whenever the shapes changed: on the ResNet-50 step
// of bench/ the classes missed 4.6 GiB of requests in 120 APIs, each
// fresh page costing microseconds to fault in on a virtual machine. Where
// no region can be reserved (another OS, a strict overcommit policy) the
// pool serves every buffer.

// regionBytes is the address space the region reserves.
const regionBytes = 64 << 30

// regionStep is how far ahead of the bytes handed out the region makes
// its pages resident, in one system call rather than a fault per page.
const regionStep = 64 << 20

// regionAlign is the alignment of the buffers the region hands out.
const regionAlign = 64

// region is the reservation and this call's use of it. It is used under
// execMu held exclusively, by one call's arena (whose mutex orders the
// kernels' goroutines).
type region struct {
	mem  []byte
	off  int           // bytes handed out in this call
	high int           // bytes made resident
	free map[int][]int // offsets of buffers given back in this call, by length
}

// reg is the process's region, reserved by the first call that has an
// arena (a process that only links the package, as the host does, maps
// nothing); nil before and where none could be reserved.
var (
	reg     *region
	regOnce sync.Once
)

func reserveReg() {
	if mem := reserveRegion(regionBytes); mem != nil {
		reg = &region{mem: mem}
	}
}

// reset starts the region over: every buffer of the calls before is free.
func (r *region) reset() {
	r.off = 0
	clear(r.free)
}

// take returns n bytes (n rounded up to regionAlign in capacity), not
// zeroed, or nil when the region is full.
func (r *region) take(n int) []byte {
	m := (n + regionAlign - 1) &^ (regionAlign - 1)
	if l := r.free[m]; len(l) > 0 {
		off := l[len(l)-1]
		r.free[m] = l[:len(l)-1]
		return r.mem[off : off+m : off+m]
	}
	if m > len(r.mem)-r.off {
		return nil
	}
	off := r.off
	r.off += m
	if r.off > r.high {
		next := min(len(r.mem), (r.off+regionStep-1)/regionStep*regionStep)
		populate(r.mem[r.high:next])
		r.high = next
	}
	return r.mem[off : off+m : off+m]
}

// owns reports whether b is a buffer of the region.
func (r *region) owns(b []byte) bool {
	if r == nil || cap(b) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(r.mem)))
	return p >= lo && p < lo+uintptr(len(r.mem))
}

// giveBack makes a buffer of this call's free for the rest of the call.
func (r *region) giveBack(b []byte) {
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(r.mem)))
	if r.free == nil {
		r.free = map[int][]int{}
	}
	r.free[cap(b)] = append(r.free[cap(b)], int(p-lo))
}
