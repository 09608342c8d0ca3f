package cpu

import (
	"testing"
	"unsafe"
)

// The region hands out aligned buffers in order, reuses a buffer given
// back within the call for a request of its size, starts over at the next
// call only when no result holds one of its buffers, and says nil when
// full (the pool then serves).
func TestRegionReuse(t *testing.T) {
	r := &region{mem: make([]byte, 1<<20)}
	addr := func(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
	a := r.take(100)
	b := r.take(1000)
	if len(a) != 128 || cap(b) != 1024 || addr(b) != addr(a)+128 || addr(a)%regionAlign != 0 {
		t.Fatalf("take(100), take(1000): len %d, cap %d, offset %d", len(a), cap(b), addr(b)-addr(a))
	}
	r.giveBack(b)
	if c := r.take(1000); addr(c) != addr(b) {
		t.Fatal("a buffer given back was not reused for a request of its size")
	}
	if c := r.take(1000); addr(c) != addr(b)+1024 {
		t.Fatal("a buffer in use was handed out again")
	}
	if r.take(1<<20) != nil {
		t.Fatal("a request larger than what is left was served")
	}
	r.reset()
	if c := r.take(10); addr(c) != addr(a) {
		t.Fatal("the region did not start over")
	}
	if !r.owns(a) || r.owns(make([]byte, 8)) {
		t.Fatal("owns")
	}
}

// A call's buffers come from the region, and the next call gets the same
// memory back once the results are released; while a result is held, the
// region does not start over.
func TestRegionAcrossCalls(t *testing.T) {
	execMu.Lock()
	defer execMu.Unlock()
	defer func() { cur = nil }()
	a := &arena{}
	startArena(a)
	if reg == nil {
		t.Skip("no region on this system")
	}
	x := bytesFor(arenaMin)
	if !reg.owns(x) {
		t.Fatal("a large buffer did not come from the region")
	}
	a.finish(nil)
	startArena(&arena{})
	if y := bytesFor(arenaMin); &y[0] != &x[0] {
		t.Fatal("the next call did not get the region's memory back")
	}
	// a result still holding a buffer: the region carries on after it
	pool.mu.Lock()
	pool.lent[buffer(x).start()] = []buffer{x}
	pool.mu.Unlock()
	defer func() {
		pool.mu.Lock()
		delete(pool.lent, buffer(x).start())
		pool.mu.Unlock()
	}()
	startArena(&arena{})
	if z := bytesFor(arenaMin); &z[0] == &x[0] {
		t.Fatal("the region started over while a result held its buffer")
	}
}
