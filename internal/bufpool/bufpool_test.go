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
	p.Put(p.Get(2000)) // would exceed maxIdle: dropped
	if p.Idle() != 2*int64(Class(1000)) {
		t.Fatalf("idle bound not kept: %d", p.Idle())
	}
	p.Put(make([]byte, 1001)) // not a class capacity: ignored
	if p.Idle() != 2*int64(Class(1000)) {
		t.Fatal("a foreign buffer was kept")
	}
}
