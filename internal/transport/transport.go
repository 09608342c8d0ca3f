// Package transport moves tensor bytes between probe's host and its plugins.
//
// Small tensors travel inline in the gRPC message. Large ones travel through
// a shared-memory [Segment]: a memfd (Linux), or failing that an O_EXCL,
// 0600 file in /dev/shm (os.TempDir when /dev/shm is missing) that is
// unlinked as soon as it is open. The message only carries a [Ref]: the
// segment's id and path plus an offset and a length.
//
// Ownership. The host owns every segment. For each call it takes one from
// its [Pool], stores the request's large tensors in it and offers it to the
// plugin; the plugin maps it (keeping the mapping in its [Cache]), reads
// the inputs in place, runs the call and writes its large outputs into the
// same segment after the inputs, growing the file when needed. After
// the call returns the host copies the outputs out and puts the segment back
// into the pool. A call that fails or times out retires its segment instead,
// because the plugin may still be writing into it; retired ids are sent with
// the next request so that the plugin drops its mapping too. The plugin
// never creates files, so a crash on either side leaves nothing behind in
// /dev/shm: the memfd (or unlinked file) dies with the last descriptor.
//
// Data ownership. On the host, every tensor that comes out of this package
// has its Data in ordinary Go memory that the caller owns and may keep:
// ReadRef copies out of the mapping. In a plugin, ViewRef hands out views
// of the mapping itself: they are valid until the call ends (ReleaseViews),
// may be read and overwritten, and when the plugin returns one as an output
// the Packer sends a reference to it instead of copying it. Mappings that a
// growth replaces stay mapped until ReleaseViews. Files only grow (memfds
// are sealed against shrinking), so no view or copy can hit SIGBUS; copies
// also run with [runtime/debug.SetPanicOnFault] and turn a fault into an
// error should an unsealed fallback file be truncated by a rogue peer (a
// plugin that keeps a view past its call is outside this guarantee).
//
// Speed. Reusing segments keeps the pages and both sides' mappings warm:
// fresh tmpfs pages cost far more than copies. A 256 MiB echo through a
// real plugin process costs one copy into the segment and one copy out of
// it, both on the host; copies of 16 MiB and more are split between
// goroutines.
//
// Message size. No message may exceed [MaxMessageSize] (gRPC's default
// receive limit): per message at most Options.InlineBudget bytes of tensor
// data travel inline, the rest goes through the segment.
package transport

import (
	"errors"
	"fmt"
)

// SegmentAlign is the alignment of the tensors the transport places in a
// segment.
const SegmentAlign = 64

const (
	// MaxMessageSize is the largest gRPC message probe ever sends (4 MiB).
	MaxMessageSize = 4 << 20
	// DefaultInlineMax is the largest tensor that travels inline (256 KiB).
	DefaultInlineMax = 256 << 10
	// DefaultInlineBudget bounds the inline tensor bytes of one message.
	DefaultInlineBudget = 1 << 20
	// maxInlineTotal bounds inline tensor bytes when no segment is available,
	// leaving room under MaxMessageSize for the rest of the message.
	maxInlineTotal = MaxMessageSize - 512<<10
	// segmentAlign is the alignment of tensors inside a segment.
	segmentAlign = SegmentAlign
	// growQuantum is the granularity of segment growth.
	growQuantum = 1 << 20
)

// ErrTooLarge reports a tensor that cannot travel inline while no shared
// memory is available.
var ErrTooLarge = errors.New("transport: tensor too large to travel inline and no shared-memory segment is available")

// ErrClosed reports use of a closed segment, pool or cache.
var ErrClosed = errors.New("transport: closed")

// Options choose between inline and shared-memory transfer.
type Options struct {
	// InlineMax is the largest tensor (in bytes) sent inline; 0 means
	// DefaultInlineMax, a negative value sends only empty tensors inline.
	InlineMax int
	// InlineBudget bounds the inline tensor bytes of one message; 0 means
	// DefaultInlineBudget. It is capped below MaxMessageSize.
	InlineBudget int
	// DisableShm sends everything inline (up to the message limit) and
	// fails on larger tensors.
	DisableShm bool
}

// Normalized returns o with defaults filled in and limits applied.
func (o Options) Normalized() Options {
	if o.InlineMax == 0 {
		o.InlineMax = DefaultInlineMax
	}
	if o.InlineMax < 0 {
		o.InlineMax = 0
	}
	if o.InlineBudget <= 0 {
		o.InlineBudget = DefaultInlineBudget
	}
	if o.InlineBudget > maxInlineTotal {
		o.InlineBudget = maxInlineTotal
	}
	if o.InlineMax > o.InlineBudget {
		o.InlineMax = o.InlineBudget
	}
	return o
}

// Ref locates bytes inside a segment.
type Ref struct {
	SegmentID uint64
	Path      string
	Offset    uint64
	Length    uint64
}

type pendingCopy struct {
	data []byte
	off  int64
}

// Packer lays out the tensors of one message: each call to Place decides
// whether a tensor's bytes go inline or into the segment, and Commit copies
// the segment-bound bytes. A Packer is used by one goroutine.
type Packer struct {
	opts       Options
	seg        *Segment
	base       int64
	inlineUsed int
	shmEnd     int64
	pending    []pendingCopy
	committed  bool
}

// NewPacker returns a packer for one message. seg may be nil (no shared
// memory): then tensors travel inline up to the message limit.
func NewPacker(opts Options, seg *Segment) *Packer {
	opts = opts.Normalized()
	if opts.DisableShm {
		seg = nil
	}
	return &Packer{opts: opts, seg: seg}
}

// Place decides where data goes. For inline placement it returns data
// itself (the caller puts it in the message); otherwise it returns a Ref
// and the bytes are copied into the segment by Commit, so data must not
// change before Commit returns.
func (p *Packer) Place(data []byte) (inline []byte, ref *Ref, err error) {
	if p.committed {
		return nil, nil, errors.New("transport: Place after Commit")
	}
	n := len(data)
	if n == 0 {
		return []byte{}, nil, nil
	}
	var aliasOff int64 = -1
	if p.seg != nil {
		if off, ok := p.seg.Offset(data); ok {
			aliasOff = off
		}
	}
	if n <= p.opts.InlineMax && p.inlineUsed+n <= p.opts.InlineBudget {
		p.inlineUsed += n
		if aliasOff >= 0 {
			// A view of the segment must not reach the message: the
			// mapping may move before the message is marshalled.
			return append([]byte(nil), data...), nil, nil
		}
		return data, nil, nil
	}
	if aliasOff >= 0 && aliasOff+int64(n) <= p.base {
		// Already in the segment, below anything this packer writes: send
		// a reference to it as it is.
		return nil, &Ref{SegmentID: p.seg.ID(), Path: p.seg.Path(), Offset: uint64(aliasOff), Length: uint64(n)}, nil
	}
	if p.seg == nil {
		if p.inlineUsed+n <= maxInlineTotal {
			p.inlineUsed += n
			return data, nil, nil
		}
		return nil, nil, fmt.Errorf("%w (%d bytes, %d already inline, limit %d)", ErrTooLarge, n, p.inlineUsed, maxInlineTotal)
	}
	off := alignUp(max(p.shmEnd, p.base), segmentAlign)
	p.shmEnd = off + int64(n)
	p.pending = append(p.pending, pendingCopy{data: data, off: off})
	return nil, &Ref{SegmentID: p.seg.ID(), Path: p.seg.Path(), Offset: uint64(off), Length: uint64(n)}, nil
}

// SetBase makes the packer write at or after off, leaving the segment
// below it alone. Views of the segment below off that are placed are sent
// by reference, without a copy. Call it before Place.
func (p *Packer) SetBase(off int64) { p.base = off }

// SegmentBytes is the number of segment bytes the placed tensors need.
func (p *Packer) SegmentBytes() int64 { return p.shmEnd }

// Commit grows the segment as needed and copies the segment-bound bytes.
func (p *Packer) Commit() error {
	if p.committed {
		return nil
	}
	p.committed = true
	if len(p.pending) == 0 {
		return nil
	}
	if err := p.seg.Reserve(p.shmEnd); err != nil {
		return err
	}
	for _, c := range p.pending {
		if err := p.seg.WriteAt(c.data, c.off); err != nil {
			return err
		}
	}
	p.pending = nil
	return nil
}

// ViewRef returns the bytes ref points at as a view of seg (see
// Segment.View).
func ViewRef(seg *Segment, ref Ref) ([]byte, error) {
	if err := checkRef(seg, ref); err != nil {
		return nil, err
	}
	return seg.View(int64(ref.Offset), int64(ref.Length))
}

func checkRef(seg *Segment, ref Ref) error {
	if seg == nil {
		return fmt.Errorf("transport: reference to segment %x but no segment is attached", ref.SegmentID)
	}
	if ref.SegmentID != seg.ID() {
		return fmt.Errorf("transport: reference to segment %x, expected %x", ref.SegmentID, seg.ID())
	}
	if ref.Length > uint64(maxInt) || ref.Offset > uint64(maxInt) {
		return fmt.Errorf("transport: reference out of range (offset %d, length %d)", ref.Offset, ref.Length)
	}
	return nil
}

// ReadRef copies the bytes ref points at out of seg into a new slice.
// The segment is re-examined first when the ref lies beyond the current
// mapping (the peer grew the file).
func ReadRef(seg *Segment, ref Ref) ([]byte, error) {
	view, err := ViewRef(seg, ref)
	if err != nil {
		return nil, err
	}
	return cloneSafe(view)
}

const maxInt = int(^uint(0) >> 1)

func alignUp(n, a int64) int64 { return (n + a - 1) / a * a }
