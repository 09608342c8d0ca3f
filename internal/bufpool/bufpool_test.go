package bufpool

import (
	"testing"
	"unsafe"
)

func TestClass(t *testing.T) {
	prev := 0
	for n := 1; n < 1<<18; n++ {
		c := Class(n)
		if c < n || c > n+n/8+8 || c < prev || Class(c) != c {
			t.Fatalf("Class(%d) = %d", n, c)
		}
		prev = c
	}
}

func TestReuseAndBounds(t *testing.T) {
	p := New(3000)
	a := p.Get(1000)
	if len(a) != 1000 || cap(a) != Class(1000) {
		t.Fatalf("len %d cap %d", len(a), cap(a))
	}
	p.Put(a)
	b := p.Get(990) // same class
	if unsafe.SliceData(a) != unsafe.SliceData(b) || len(b) != 990 {
		t.Fatal("an idle buffer of the class was not reused")
	}
	c := p.Get(990)
	if unsafe.SliceData(c) == unsafe.SliceData(b) {
		t.Fatal("a buffer handed out twice")
	}
	p.Put(b)
	p.Put(c)
	if p.Idle() != 2*int64(Class(1000)) {
		t.Fatalf("idle %d", p.Idle())
	}
	p.Put(make([]byte, 1001)) // not a class capacity: ignored
	if p.Idle() != 2*int64(Class(1000)) {
		t.Fatal("a foreign buffer was kept")
	}
	// Over the bound, the buffers put back longest ago go first: b, then
	// c, to make room for d.
	d := p.Get(2000)
	p.Put(d)
	if p.Idle() != int64(Class(2000)) {
		t.Fatalf("idle %d after the eviction, want %d", p.Idle(), Class(2000))
	}
	if e := p.Get(2000); unsafe.SliceData(e) != unsafe.SliceData(d) {
		t.Fatal("the newest buffer was evicted")
	}
	if e := p.Get(1000); unsafe.SliceData(e) == unsafe.SliceData(b) || unsafe.SliceData(e) == unsafe.SliceData(c) {
		t.Fatal("an evicted buffer came back")
	}
	p.Put(make([]byte, 0, Class(4000))) // larger than the bound: dropped
	if p.Idle() != 0 {
		t.Fatalf("idle %d", p.Idle())
	}
}

// TestLRUOrderWithinClass: eviction takes the oldest buffer of a class,
// and Get the newest.
func TestLRUOrderWithinClass(t *testing.T) {
	p := New(3 * 1024)
	x, y, z := p.Get(1024), p.Get(1024), p.Get(1024)
	p.Put(x)
	p.Put(y)
	p.Put(z)
	p.Put(p.Get(100)) // a new buffer: x (the oldest) goes
	if got := p.Get(1024); unsafe.SliceData(got) != unsafe.SliceData(z) {
		t.Fatal("Get did not return the newest of the class")
	}
	if got := p.Get(1024); unsafe.SliceData(got) != unsafe.SliceData(y) {
		t.Fatal("the wrong buffer was evicted")
	}
}
