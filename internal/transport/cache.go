package transport

import (
	"fmt"
	"sync"
)

// Cache keeps a plugin's mappings of the host's segments between calls, so
// that a reused segment is not mapped (and faulted in) again. It is safe for
// concurrent use.
type Cache struct {
	mu      sync.Mutex
	maxIdle int
	tick    uint64
	entries map[uint64]*cacheEntry
	closed  bool
}

type cacheEntry struct {
	seg     *Segment
	refs    int
	lastUse uint64
	retired bool
}

// NewCache returns a cache that keeps at most maxIdle unused mappings
// (0 means 8).
func NewCache(maxIdle int) *Cache {
	if maxIdle <= 0 {
		maxIdle = 8
	}
	return &Cache{maxIdle: maxIdle, entries: make(map[uint64]*cacheEntry)}
}

// Acquire returns the segment with this id, opening it by path on first
// use, and a release function to call when the call is done with it.
func (c *Cache) Acquire(id uint64, path string) (*Segment, func(), error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil, ErrClosed
	}
	if e, ok := c.entries[id]; ok && !e.retired && e.seg.Path() == path {
		e.refs++
		c.tick++
		e.lastUse = c.tick
		c.mu.Unlock()
		return e.seg, c.releaser(id, e), nil
	}
	c.mu.Unlock()

	seg, err := OpenSegment(id, path)
	if err != nil {
		return nil, nil, err
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		seg.Close()
		return nil, nil, ErrClosed
	}
	if old, ok := c.entries[id]; ok {
		// Replaced (a path change for the same id): close the old mapping
		// once nobody uses it.
		old.retired = true
		delete(c.entries, id)
		if old.refs == 0 {
			old.seg.Close()
		}
	}
	c.tick++
	e := &cacheEntry{seg: seg, refs: 1, lastUse: c.tick}
	c.entries[id] = e
	return seg, c.releaser(id, e), nil
}

func (c *Cache) releaser(id uint64, e *cacheEntry) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			e.refs--
			if e.refs > 0 {
				return
			}
			if e.retired || c.closed {
				if cur, ok := c.entries[id]; ok && cur == e {
					delete(c.entries, id)
				}
				e.seg.Close()
				return
			}
			c.evictLocked()
		})
	}
}

// evictLocked closes the least recently used idle mappings beyond maxIdle.
func (c *Cache) evictLocked() {
	for {
		idle := 0
		var oldest *cacheEntry
		var oldestID uint64
		for id, e := range c.entries {
			if e.refs > 0 {
				continue
			}
			idle++
			if oldest == nil || e.lastUse < oldest.lastUse {
				oldest, oldestID = e, id
			}
		}
		if idle <= c.maxIdle {
			return
		}
		delete(c.entries, oldestID)
		oldest.seg.Close()
	}
}

// Retire drops the mappings of segments the host has closed.
func (c *Cache) Retire(ids []uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		e, ok := c.entries[id]
		if !ok {
			continue
		}
		e.retired = true
		if e.refs == 0 {
			delete(c.entries, id)
			e.seg.Close()
		}
	}
}

// Len is the number of mappings held.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Close drops every mapping not in use; those in use are dropped on
// release.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var first error
	for id, e := range c.entries {
		if e.refs == 0 {
			delete(c.entries, id)
			if err := e.seg.Close(); err != nil && first == nil {
				first = fmt.Errorf("transport: close cache: %w", err)
			}
		}
	}
	return first
}
