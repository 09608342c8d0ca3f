package transport

// A Lease is a segment taken from a Pool ahead of a call, so that the host
// can write the call's large inputs straight into shared memory (generate
// them there, cast into it) instead of into its own buffers and then copy
// them in: the inputs' bytes are written once, and the host needs no
// memory of its own for them. The call that uses the lease sends them by
// reference (see Packer.SetBase).
//
// The bytes handed out by Alloc, and the views of the results of the call
// that used the lease, stay valid until Release, which gives the segment
// back to the pool — or retires it when the call failed, since the plugin
// may still write into it. A Lease is used by one goroutine at a time.
type Lease struct {
	pool     *Pool
	seg      *Segment
	end      int64 // bytes handed out so far
	used     bool  // a call took the segment (Use)
	reusable bool  // the segment may go back to the pool
	released bool
}

// Lease takes a segment for one call. It returns nil when the pool is
// closed or the segment cannot be lent safely: only a sealed memfd can,
// since no peer can truncate it under the host's writes.
func (p *Pool) Lease() *Lease {
	seg, err := p.Get()
	if err != nil {
		return nil
	}
	if !seg.Sealed() {
		p.Put(seg, true)
		return nil
	}
	return &Lease{pool: p, seg: seg, reusable: true}
}

// Alloc returns n bytes of the segment, not zeroed, or nil when it cannot
// lend them (the lease was used or released, or the segment cannot grow):
// the caller then allocates elsewhere.
func (l *Lease) Alloc(n int) []byte {
	if l == nil || l.used || l.released || n <= 0 {
		return nil
	}
	off := alignUp(l.end, segmentAlign)
	if err := l.seg.Reserve(off + int64(n)); err != nil {
		return nil
	}
	v, err := l.seg.View(off, int64(n))
	if err != nil {
		return nil
	}
	l.end = off + int64(n)
	return v
}

// Use hands the segment to a call made through pool p: it returns the
// segment and the end of the bytes Alloc handed out (the call's packer
// writes after it), or ok false when l is not p's or was already used or
// released (the call then takes a segment of its own and copies). After a
// successful Use the caller reports the call's outcome with Done and must
// not put the segment back itself.
func (l *Lease) Use(p *Pool) (seg *Segment, end int64, ok bool) {
	if l == nil || l.pool != p || l.used || l.released {
		return nil, 0, false
	}
	l.used = true
	l.reusable = false // until Done says the call ended cleanly
	return l.seg, l.end, true
}

// Done records whether the call that used the segment ended so that it may
// be reused (a response came back); otherwise Release retires it.
func (l *Lease) Done(reusable bool) { l.reusable = reusable }

// Release gives the segment back. Neither the bytes from Alloc nor views of
// the results of the call that used the lease may be used afterwards.
// Releasing more than once, or a nil lease, does nothing.
func (l *Lease) Release() {
	if l == nil || l.released {
		return
	}
	l.released = true
	l.pool.Put(l.seg, l.reusable)
}
