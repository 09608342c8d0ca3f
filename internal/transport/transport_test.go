package transport

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestOptionsNormalized(t *testing.T) {
	got := Options{}.Normalized()
	if got.InlineMax != DefaultInlineMax || got.InlineBudget != DefaultInlineBudget {
		t.Fatalf("defaults: %+v", got)
	}
	got = Options{InlineMax: -1, InlineBudget: 1 << 30}.Normalized()
	if got.InlineMax != 0 || got.InlineBudget != maxInlineTotal {
		t.Fatalf("limits: %+v", got)
	}
	got = Options{InlineMax: 8 << 20, InlineBudget: 1 << 20}.Normalized()
	if got.InlineMax != 1<<20 {
		t.Fatalf("InlineMax not capped by budget: %+v", got)
	}
}

func TestPackerPlacement(t *testing.T) {
	seg, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	p := NewPacker(Options{InlineMax: 100, InlineBudget: 250}, seg)

	small := randomBytes(100, 1)
	in, ref, err := p.Place(small)
	if err != nil || ref != nil || !bytes.Equal(in, small) {
		t.Fatalf("100 bytes should go inline: %v %v", ref, err)
	}
	big := randomBytes(101, 2)
	if in, ref, err = p.Place(big); err != nil || in != nil || ref == nil {
		t.Fatalf("101 bytes should go to shm: %v %v", ref, err)
	}
	bigRef := *ref
	if _, ref, _ = p.Place(randomBytes(100, 3)); ref != nil {
		t.Fatal("second small tensor should still fit the budget")
	}
	third := randomBytes(60, 4) // budget 250 exhausted after 200+60
	if _, ref, _ = p.Place(third); ref == nil {
		t.Fatal("tensor over the inline budget should go to shm")
	}
	thirdRef := *ref
	if in, ref, _ = p.Place(nil); ref != nil || in == nil || len(in) != 0 {
		t.Fatal("empty tensor must be inline and non-nil")
	}
	if thirdRef.Offset%segmentAlign != 0 || thirdRef.Offset < bigRef.Offset+bigRef.Length {
		t.Fatalf("bad layout: %+v then %+v", bigRef, thirdRef)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ref  Ref
		want []byte
	}{{bigRef, big}, {thirdRef, third}} {
		got, err := ReadRef(seg, c.ref)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, c.want) {
			t.Fatalf("ref %+v: data differs", c.ref)
		}
	}
	if _, _, err := p.Place(small); err == nil {
		t.Fatal("Place after Commit must fail")
	}
}

func TestPackerWithoutSegment(t *testing.T) {
	p := NewPacker(Options{}, nil)
	if in, ref, err := p.Place(make([]byte, 2<<20)); err != nil || ref != nil || in == nil {
		t.Fatalf("2 MiB without segment should go inline: %v", err)
	}
	_, _, err := p.Place(make([]byte, 2<<20))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("want ErrTooLarge past the message limit, got %v", err)
	}
	// DisableShm ignores a segment.
	seg, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	p = NewPacker(Options{DisableShm: true}, seg)
	if _, _, err := p.Place(make([]byte, 5<<20)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("DisableShm: want ErrTooLarge, got %v", err)
	}
}

// TestSegmentPeerGrowth plays both sides in one process: the "plugin"
// opens the host's segment by path, grows it and writes; the host sees the
// bytes after Refresh.
func TestSegmentPeerGrowth(t *testing.T) {
	host, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	if !strings.HasPrefix(host.Path(), "/proc/") {
		t.Fatalf("segment path %q should go through /proc", host.Path())
	}
	req := randomBytes(3<<20+5, 7)
	if err := host.Reserve(int64(len(req))); err != nil {
		t.Fatal(err)
	}
	if host.Size() != 4<<20 {
		t.Fatalf("size %d, want growth rounded to 1 MiB", host.Size())
	}
	if err := host.WriteAt(req, 0); err != nil {
		t.Fatal(err)
	}

	peer, err := OpenSegment(host.ID(), host.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	got := make([]byte, len(req))
	if err := peer.ReadAt(got, 0); err != nil || !bytes.Equal(got, req) {
		t.Fatalf("peer read: %v", err)
	}
	resp := randomBytes(9<<20, 8)
	if err := peer.Reserve(int64(len(resp)) + 64); err != nil {
		t.Fatal(err)
	}
	if err := peer.WriteAt(resp, 64); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRef(host, Ref{SegmentID: host.ID(), Offset: 64, Length: uint64(len(resp))})
	if err != nil || !bytes.Equal(back, resp) {
		t.Fatalf("host read after peer growth: %v", err)
	}
	if _, err := ReadRef(host, Ref{SegmentID: host.ID() + 1, Length: 1}); err == nil {
		t.Fatal("wrong segment id must fail")
	}
	if _, err := ReadRef(host, Ref{SegmentID: host.ID(), Offset: uint64(host.Size()), Length: 1}); err == nil {
		t.Fatal("read beyond the file must fail")
	}
	if err := host.WriteAt([]byte{1}, host.Size()); err == nil {
		t.Fatal("write beyond the mapping must fail")
	}
}

func TestViewsAndAliases(t *testing.T) {
	seg, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	in := randomBytes(3<<20, 11)
	p := NewPacker(Options{}, seg)
	_, ref, err := p.Place(in)
	if err != nil || ref == nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	peer, err := OpenSegment(seg.ID(), seg.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	view, err := ViewRef(peer, *ref)
	if err != nil || !bytes.Equal(view, in) {
		t.Fatalf("view: %v", err)
	}
	if off, ok := peer.Offset(view[100:200]); !ok || off != int64(ref.Offset)+100 {
		t.Fatalf("Offset of a view: %d %v", off, ok)
	}
	if _, ok := peer.Offset(in); ok {
		t.Fatal("heap memory reported as part of the segment")
	}

	// The peer answers with the view itself (no copy), a small piece of it
	// (inline, copied) and new data (written after the inputs).
	out := randomBytes(2<<20, 12)
	q := NewPacker(Options{}, peer)
	q.SetBase(int64(ref.Offset + ref.Length))
	_, r1, err := q.Place(view)
	if err != nil || r1 == nil || r1.Offset != ref.Offset {
		t.Fatalf("aliased view should be sent in place: %+v %v", r1, err)
	}
	small, r2, err := q.Place(view[:10])
	if err != nil || r2 != nil {
		t.Fatal("small view should go inline")
	}
	if _, ok := peer.Offset(small); ok {
		t.Fatal("inline bytes still alias the mapping")
	}
	_, r3, err := q.Place(out)
	if err != nil || r3 == nil || r3.Offset < ref.Offset+ref.Length {
		t.Fatalf("new data must be written after the inputs: %+v %v", r3, err)
	}
	if err := q.Commit(); err != nil {
		t.Fatal(err)
	}
	// Growth by the peer moved its mapping; the old view stays readable
	// until ReleaseViews.
	if !bytes.Equal(view, in) {
		t.Fatal("view changed after the peer grew the segment")
	}
	if err := peer.ReleaseViews(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ref  *Ref
		want []byte
	}{{r1, in}, {r3, out}} {
		got, err := ReadRef(seg, *c.ref)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Fatalf("host read of %+v: %v", *c.ref, err)
		}
	}
}

func TestLargeCopies(t *testing.T) {
	seg, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	data := randomBytes(40<<20+123, 13) // split between goroutines, uneven tail
	if err := seg.Reserve(int64(len(data)) + 7); err != nil {
		t.Fatal(err)
	}
	if err := seg.WriteAt(data, 7); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(data))
	if err := seg.ReadAt(got, 7); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("parallel copy: %v", err)
	}
}

func TestMemfdCannotShrink(t *testing.T) {
	f, err := createMemfd()
	if err != nil {
		t.Skipf("no memfd: %v", err)
	}
	defer f.Close()
	if err := f.Truncate(1 << 20); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(0); err == nil {
		t.Fatal("sealed memfd was shrunk")
	}
}

// TestTruncatedFileFault proves that a peer truncating an unsealed file
// under a mapping yields an error, not a SIGBUS crash.
func TestTruncatedFileFault(t *testing.T) {
	seg, err := createFileSegment(42)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	if err := seg.Reserve(32 << 20); err != nil {
		t.Fatal(err)
	}
	if err := seg.f.Truncate(0); err != nil { // what a rogue peer would do
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	if err := seg.ReadAt(buf, 1<<20); err == nil || !strings.Contains(err.Error(), "fault") {
		t.Fatalf("want a fault error, got %v", err)
	}
	if err := seg.WriteAt(buf, 0); err == nil {
		t.Fatal("write into a truncated file must fail")
	}
	if _, err := ReadRef(seg, Ref{SegmentID: seg.ID(), Offset: 4096, Length: 1 << 20}); err == nil || !strings.Contains(err.Error(), "fault") {
		t.Fatalf("ReadRef: want a fault error, got %v", err)
	}
	big := make([]byte, 30<<20) // a parallel copy
	if err := seg.ReadAt(big, 0); err == nil || !strings.Contains(err.Error(), "fault") {
		t.Fatalf("parallel read: want a fault error, got %v", err)
	}
}

func TestFileSegmentIsUnlinked(t *testing.T) {
	seg, err := createFileSegment(0xabc)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	matches, _ := filepath.Glob(filepath.Join("/dev/shm", fmt.Sprintf("probe-shm-%d-*", os.Getpid())))
	more, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("probe-shm-%d-*", os.Getpid())))
	if len(matches)+len(more) != 0 {
		t.Fatalf("shared-memory file left on disk: %v %v", matches, more)
	}
	if err := seg.Reserve(100); err != nil {
		t.Fatal(err)
	}
	peer, err := OpenSegment(seg.ID(), seg.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	if err := seg.WriteAt([]byte("hello"), 10); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 5)
	if err := peer.ReadAt(got, 10); err != nil || string(got) != "hello" {
		t.Fatalf("peer read %q, %v", got, err)
	}
}

func TestPoolReuseAndRetire(t *testing.T) {
	p := NewPool(PoolOptions{MaxIdle: 2, MaxIdleBytes: 3 << 20})
	a, err := p.Get()
	if err != nil {
		t.Fatal(err)
	}
	p.Put(a, true)
	b, _ := p.Get()
	if a != b {
		t.Fatal("idle segment not reused")
	}
	c, _ := p.Get()
	if c == b {
		t.Fatal("segment handed out twice")
	}
	p.Put(c, false) // failed call: retired
	if c.closed != true {
		t.Fatal("unreusable segment not closed")
	}
	if ids := p.TakeRetired(); len(ids) != 1 || ids[0] != c.ID() {
		t.Fatalf("retired %v, want [%x]", ids, c.ID())
	}
	if ids := p.TakeRetired(); len(ids) != 0 {
		t.Fatalf("retired ids returned twice: %v", ids)
	}
	p.ReturnRetired([]uint64{7})
	if ids := p.TakeRetired(); len(ids) != 1 || ids[0] != 7 {
		t.Fatalf("ReturnRetired lost ids: %v", ids)
	}

	// Byte bound: a 4 MiB segment exceeds the 3 MiB idle budget.
	if err := b.Reserve(4 << 20); err != nil {
		t.Fatal(err)
	}
	p.Put(b, true)
	if !b.closed {
		t.Fatal("segment over the idle byte budget kept")
	}
	// Count bound.
	var segs []*Segment
	for i := 0; i < 3; i++ {
		s, _ := p.Get()
		segs = append(segs, s)
	}
	for _, s := range segs {
		p.Put(s, true)
	}
	if !segs[0].closed || segs[1].closed || segs[2].closed {
		t.Fatal("count bound should drop the oldest idle segment")
	}
	p.TakeRetired()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !segs[1].closed || !segs[2].closed {
		t.Fatal("Close left idle segments open")
	}
	if _, err := p.Get(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
}

func TestCache(t *testing.T) {
	var hosts []*Segment
	for i := 0; i < 4; i++ {
		s, err := CreateSegment()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reserve(1); err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		hosts = append(hosts, s)
	}
	c := NewCache(2)
	s0, rel0, err := c.Acquire(hosts[0].ID(), hosts[0].Path())
	if err != nil {
		t.Fatal(err)
	}
	rel0()
	rel0() // idempotent
	again, rel, err := c.Acquire(hosts[0].ID(), hosts[0].Path())
	if err != nil || again != s0 {
		t.Fatalf("mapping not reused: %v", err)
	}
	rel()
	for _, h := range hosts[1:] {
		_, rel, err := c.Acquire(h.ID(), h.Path())
		if err != nil {
			t.Fatal(err)
		}
		rel()
	}
	if c.Len() != 2 {
		t.Fatalf("cache holds %d mappings, want 2 (maxIdle)", c.Len())
	}
	if !s0.closed {
		t.Fatal("least recently used mapping not evicted")
	}

	// Retire while in use: closed on release.
	s3, rel3, _ := c.Acquire(hosts[3].ID(), hosts[3].Path())
	c.Retire([]uint64{hosts[3].ID()})
	if s3.closed {
		t.Fatal("mapping in use closed by Retire")
	}
	rel3()
	if !s3.closed {
		t.Fatal("retired mapping not closed on release")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 0 {
		t.Fatalf("Close left %d mappings", c.Len())
	}
	if _, _, err := c.Acquire(hosts[1].ID(), hosts[1].Path()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Acquire after Close: %v", err)
	}
}

func BenchmarkPackUnpack64MiB(b *testing.B) {
	data := randomBytes(64<<20, 9)
	seg, err := CreateSegment()
	if err != nil {
		b.Fatal(err)
	}
	defer seg.Close()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		p := NewPacker(Options{}, seg)
		_, ref, err := p.Place(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Commit(); err != nil {
			b.Fatal(err)
		}
		if _, err := ReadRef(seg, *ref); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPoolHandsOutTheLargest: a call gets the largest idle segment, and
// the count bound drops the smallest, so a large segment, once faulted
// in, keeps serving the calls after it.
func TestPoolHandsOutTheLargest(t *testing.T) {
	p := NewPool(PoolOptions{MaxIdle: 2, MaxIdleBytes: 64 << 20})
	defer p.Close()
	var segs []*Segment
	for _, size := range []int64{2 << 20, 8 << 20, 1 << 20} {
		s, err := p.Get()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reserve(size); err != nil {
			t.Fatal(err)
		}
		segs = append(segs, s)
	}
	for _, s := range segs {
		p.Put(s, true)
	}
	if !segs[2].closed || segs[0].closed || segs[1].closed {
		t.Fatal("the count bound should drop the smallest idle segment")
	}
	if got := p.IdleMax(); got != segs[1].Size() {
		t.Fatalf("IdleMax = %d, want the largest idle segment's size %d", got, segs[1].Size())
	}
	if s, _ := p.Get(); s != segs[1] {
		t.Fatalf("Get returned a %d-byte segment, want the largest (%d)", s.Size(), segs[1].Size())
	}
	if got := p.IdleMax(); got != segs[0].Size() {
		t.Fatalf("IdleMax with the largest lent out = %d, want %d", got, segs[0].Size())
	}
	if s, _ := p.Get(); s != segs[0] {
		t.Fatal("second Get should return the remaining idle segment")
	}
	if got := p.IdleMax(); got != 0 {
		t.Fatalf("IdleMax with none idle = %d, want 0", got)
	}
}

// TestGrowthInPlace: with an address reservation (Linux) a growth maps
// only the new pages, after the old ones: views taken before it keep their
// address and bytes, and a peer's mapping grows the same way.
func TestGrowthInPlace(t *testing.T) {
	if reserveBytes == 0 {
		t.Skip("no address reservation on this platform")
	}
	seg, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	if err := seg.Reserve(3 << 20); err != nil {
		t.Fatal(err)
	}
	early, err := seg.View(0, 3<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i := range early {
		early[i] = byte(i * 7)
	}
	peer, err := OpenSegment(seg.ID(), seg.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	if err := seg.Reserve(64 << 20); err != nil {
		t.Fatal(err)
	}
	if len(seg.stale) != 0 || seg.resv == nil {
		t.Fatal("the growth replaced the mapping instead of extending it")
	}
	if unsafe.SliceData(seg.mem) != unsafe.SliceData(early) {
		t.Fatal("the growth moved the mapping")
	}
	for i, b := range early {
		if b != byte(i*7) {
			t.Fatalf("byte %d changed across the growth", i)
		}
	}
	seg.mem[64<<20-1] = 42
	got := make([]byte, 1)
	if err := peer.ReadAt(got, 64<<20-1); err != nil || got[0] != 42 {
		t.Fatalf("the peer does not see the grown segment: %v %v", got, err)
	}
	if pv, err := peer.View(1<<20, 1); err != nil || pv[0] != early[1<<20] {
		t.Fatalf("the peer's view of the old pages: %v %v", pv, err)
	}
	if len(peer.stale) != 0 {
		t.Fatal("the peer's growth replaced its mapping")
	}
}

// TestOffsetInReplacedMapping: without a reservation a growth maps the
// file again; a view taken before it still locates (until ReleaseViews),
// so that a result written there before the growth is sent in place.
func TestOffsetInReplacedMapping(t *testing.T) {
	seg, err := CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	seg.noResv = true
	if err := seg.Reserve(2 << 20); err != nil {
		t.Fatal(err)
	}
	early, err := seg.View(1<<20, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := seg.Reserve(8 << 20); err != nil {
		t.Fatal(err)
	}
	if len(seg.stale) == 0 {
		t.Fatal("the growth did not replace the mapping")
	}
	if off, ok := seg.Offset(early[10:20]); !ok || off != 1<<20+10 {
		t.Fatalf("Offset of a view of the replaced mapping: %d %v", off, ok)
	}
	p := NewPacker(Options{}, seg)
	p.SetBase(4 << 20)
	if _, ref, err := p.Place(early); err != nil || ref == nil || ref.Offset != 1<<20 || len(p.pending) != 0 {
		t.Fatalf("a view of the replaced mapping is not sent in place: %+v %v", ref, err)
	}
}
