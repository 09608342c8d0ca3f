package transport

import (
	"errors"
	"slices"
	"sync"
)

// PoolOptions bound the idle segments a Pool keeps.
type PoolOptions struct {
	// MaxIdle is the number of idle segments kept for reuse; 0 means 4.
	MaxIdle int
	// MaxIdleBytes bounds the mapped bytes of idle segments; 0 means 4 GiB.
	MaxIdleBytes int64
}

// maxRetired bounds the retired ids waiting to be announced to the peer.
const maxRetired = 1024

// Pool is the host's set of segments, one per in-flight call. Reusing a
// segment keeps both sides' mappings and pages warm, which is what makes
// large transfers fast. Pool is safe for concurrent use.
type Pool struct {
	mu      sync.Mutex
	opts    PoolOptions
	idle    []*Segment // smallest first
	retired []uint64
	closed  bool
}

// NewPool returns an empty pool.
func NewPool(opts PoolOptions) *Pool {
	if opts.MaxIdle <= 0 {
		opts.MaxIdle = 4
	}
	if opts.MaxIdleBytes <= 0 {
		opts.MaxIdleBytes = 4 << 30
	}
	return &Pool{opts: opts}
}

// Get returns the largest idle segment, or a new empty one. A call on a
// segment too small grows it, faulting in fresh pages (far slower than the
// copies themselves), so the largest serves every call it can.
func (p *Pool) Get() (*Segment, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	p.mu.Unlock()
	return CreateSegment()
}

// IdleMax is the size of the largest idle segment: what the next call can
// be given without growing a segment, which faults in fresh pages.
func (p *Pool) IdleMax() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		return p.idle[n-1].Size()
	}
	return 0
}

// Put gives a segment back after a call. reusable must be false when the
// peer may still touch the segment (the call failed or timed out): the
// segment is then closed and its id announced as retired.
func (p *Pool) Put(s *Segment, reusable bool) {
	if s == nil {
		return
	}
	_ = s.ReleaseViews()
	p.mu.Lock()
	var drop []*Segment
	if !reusable || p.closed {
		drop = append(drop, s)
	} else {
		i := 0
		for i < len(p.idle) && p.idle[i].Size() <= s.Size() {
			i++
		}
		p.idle = slices.Insert(p.idle, i, s)
		drop = p.trimLocked()
	}
	for _, d := range drop {
		p.retireLocked(d.ID())
	}
	p.mu.Unlock()
	for _, d := range drop {
		_ = d.Close()
	}
}

// trimLocked removes idle segments beyond the limits, smallest first.
func (p *Pool) trimLocked() []*Segment {
	var drop []*Segment
	var total int64
	for _, s := range p.idle {
		total += s.Size()
	}
	for len(p.idle) > 0 && (len(p.idle) > p.opts.MaxIdle || total > p.opts.MaxIdleBytes) {
		s := p.idle[0]
		p.idle = p.idle[1:]
		total -= s.Size()
		drop = append(drop, s)
	}
	return drop
}

func (p *Pool) retireLocked(id uint64) {
	if len(p.retired) >= maxRetired {
		p.retired = p.retired[1:]
	}
	p.retired = append(p.retired, id)
}

// TakeRetired returns the ids retired since the last call, for the next
// request to announce.
func (p *Pool) TakeRetired() []uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	ids := p.retired
	p.retired = nil
	return ids
}

// ReturnRetired puts back ids taken by TakeRetired whose request was not
// delivered.
func (p *Pool) ReturnRetired(ids []uint64) {
	if len(ids) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		p.retireLocked(id)
	}
}

// Close closes the idle segments; segments still in use are closed when
// they are put back.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.closed = true
	p.mu.Unlock()
	var errs []error
	for _, s := range idle {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}
