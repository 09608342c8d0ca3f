package cpu

import (
	"sync"
	"unsafe"

	"github.com/probe-dev/probe/internal/bufpool"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Large buffers are reused from call to call instead of being allocated
// fresh: the Go runtime hands large allocations back to the kernel between
// calls, and the kernel zeroes every page again when it is touched, which
// cost a third of the plugin's time on a real training step (about 20 µs a
// 4 KiB page on the machines we measured). The arena of one Execute takes
// its big arrays (kernel outputs, converted inputs, result tensors) from
// the region (region.go), or the pool where there is none; when the call
// ends they go back, except those a result tensor shares, which go back
// when the plugin server releases the result (device.Releaser) — or
// never, for a caller that does not: they are then ordinary garbage (and
// the region does not start over while any is held).

// arenaMin is the smallest buffer worth pooling (bytes); tests lower it.
var arenaMin = 1 << 20

// poisonFreed, set by tests, fills every buffer that goes back to the pool
// with NaN bytes, so that a result still sharing one shows.
var poisonFreed bool

// poolMaxIdle bounds the bytes the pool keeps idle.
const poolMaxIdle = 1 << 30

// buffer is one pooled allocation.
type buffer []byte

func (b buffer) start() uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// bufPool is the process's pool, and the buffers result tensors share.
type bufPool struct {
	*bufpool.Pool
	mu sync.Mutex
	// lent maps the first byte of a result tensor's Data to the buffers
	// it shares, until Release.
	lent map[uintptr][]buffer
}

var pool = &bufPool{Pool: bufpool.New(poolMaxIdle), lent: map[uintptr][]buffer{}}

func (p *bufPool) put(bs []buffer) {
	for _, b := range bs {
		if poisonFreed {
			b = b[:cap(b)]
			for i := range b {
				b[i] = 0xff
			}
		}
		if !reg.owns(b) { // the region's are free once it starts over
			p.Put(b)
		}
	}
}

// arena is the set of pooled buffers one Execute took.
type arena struct {
	mu   sync.Mutex // kernels allocate from several goroutines
	bufs []buffer
}

// cur is the arena of the Execute in progress. A call with an arena holds
// execMu exclusively, and every other call holds it shared, so that no
// kernel ever takes memory from another call's arena.
var (
	execMu sync.RWMutex
	cur    *arena
)

// bytesFor returns n bytes (not zeroed) for the current call.
func bytesFor(n int) []byte { return bytesAbove(n, arenaMin) }

// bytesAbove is bytesFor with the smallest size taken from the arena
// given: scratch space a call takes and gives back many times (scratchFor)
// is worth the arena below arenaMin.
func bytesAbove(n, least int) []byte {
	a := cur
	if a == nil || n < least || n == 0 {
		return make([]byte, n)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var b []byte
	if reg != nil {
		b = reg.take(n)
	}
	if b == nil {
		b = pool.Get(n)
	}
	a.bufs = append(a.bufs, b)
	return b[:n:n]
}

// startArena makes a the current call's arena, the region starting over
// when no result of an earlier call still holds a buffer of it. The
// caller holds execMu exclusively.
func startArena(a *arena) {
	cur = a
	regOnce.Do(reserveReg)
	if reg == nil {
		return
	}
	pool.mu.Lock()
	held := len(pool.lent)
	pool.mu.Unlock()
	if held == 0 {
		reg.reset()
	}
}

// float64sFor returns n float64s (not zeroed) for the current call.
func float64sFor(n int) []float64 { return float64sAbove(n, arenaMin) }

// scratchFor is float64sFor for scratch space the caller gives back with
// scratchDone (gemm's packing buffers): from the arena at any size, so
// that the many products of one call reuse the same pages instead of
// fresh Go memory each.
func scratchFor(n int) []float64 { return float64sAbove(n, 1) }

// float64sAbove is float64sFor with bytesAbove's smallest arena size.
func float64sAbove(n, least int) []float64 {
	if n == 0 {
		return []float64{}
	}
	if cur == nil || n*8 < least {
		return make([]float64, n)
	}
	b := bytesAbove(n*8, least)
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// zeros returns n zeroed float64s for the current call.
func zeros(n int) []float64 {
	if cur == nil || n*8 < arenaMin {
		return make([]float64, n)
	}
	v := float64sFor(n)
	clear(v)
	return v
}

// scratchDone gives a buffer float64sFor or zeros returned back to the pool
// before the call ends: scratch space (packing buffers, im2col columns) a
// call uses many times over. v must not be used afterwards.
func scratchDone(v []float64) {
	a := cur
	if a == nil || len(v) == 0 {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, b := range a.bufs {
		if b.start() == p {
			a.bufs = append(a.bufs[:i], a.bufs[i+1:]...)
			pool.put([]buffer{b})
			if reg.owns(b) {
				reg.giveBack(b)
			}
			return
		}
	}
}

// finish ends the call's arena: buffers shared by a tensor of res move to
// pool.lent until Release, the others go back to the pool.
func (a *arena) finish(res *device.ExecResult) {
	if len(a.bufs) == 0 {
		return
	}
	var keep map[uintptr][]buffer
	if res != nil {
		for _, ts := range [][]tensorRef{refs(res.Outputs), refs(res.InputGrads)} {
			for _, t := range ts {
				for i := 0; i < len(a.bufs); i++ {
					b := a.bufs[i]
					if t.lo < b.start()+uintptr(cap(b)) && b.start() < t.hi {
						if keep == nil {
							keep = map[uintptr][]buffer{}
						}
						keep[t.lo] = append(keep[t.lo], b)
						a.bufs = append(a.bufs[:i], a.bufs[i+1:]...)
						i--
					}
				}
			}
		}
	}
	pool.put(a.bufs)
	a.bufs = nil
	if keep != nil {
		pool.mu.Lock()
		for k, v := range keep {
			pool.lent[k] = append(pool.lent[k], v...)
		}
		pool.mu.Unlock()
	}
}

// tensorRef is the byte range of a result tensor's Data.
type tensorRef struct{ lo, hi uintptr }

func refs(ts []*tensor.Tensor) []tensorRef {
	var out []tensorRef
	for _, t := range ts {
		if t == nil || len(t.Data) == 0 {
			continue
		}
		lo := buffer(t.Data).start()
		out = append(out, tensorRef{lo, lo + uintptr(len(t.Data))})
	}
	return out
}

// release gives back the buffers the tensors of res share.
func (p *bufPool) release(res *device.ExecResult) {
	if res == nil {
		return
	}
	var back []buffer
	p.mu.Lock()
	for _, ts := range [][]*tensor.Tensor{res.Outputs, res.InputGrads} {
		for _, t := range ts {
			if t == nil || len(t.Data) == 0 {
				continue
			}
			k := buffer(t.Data).start()
			back = append(back, p.lent[k]...)
			delete(p.lent, k)
		}
	}
	p.mu.Unlock()
	p.put(back)
}
