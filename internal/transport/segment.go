package transport

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Segment is one shared-memory file mapped into this process. The host
// creates segments with CreateSegment; a plugin opens them with
// OpenSegment. A Segment is not safe for concurrent use: the protocol gives
// each in-flight call its own segment.
type Segment struct {
	id    uint64
	path  string
	f     *os.File
	mem   []byte   // mapping of the first len(mem) bytes of the file
	stale [][]byte // earlier mappings, still referenced by views
	// resv is the address space reserved for mem (Linux): the mapping
	// grows in place inside it, so growth neither moves the bytes already
	// mapped nor throws away their page tables. Without one (nil), growth
	// maps the whole file again elsewhere.
	resv    unsafe.Pointer
	resvLen uintptr
	noResv  bool // reserving failed once: do not try again
	owner   bool
	unlink  string // file to remove on Close (no /proc: the path is real)
	closed  bool
	sealed  bool // a memfd sealed against shrinking
}

// ID is the segment's identifier, unique within its host.
func (s *Segment) ID() uint64 { return s.id }

// Path is what a peer opens to reach the segment.
func (s *Segment) Path() string { return s.path }

// Sealed reports whether the segment is a memfd this process created
// sealed against shrinking: no peer can truncate it, so reading a view of
// it cannot fault (a fallback file can, and is read with ReadRef).
func (s *Segment) Sealed() bool { return s.sealed }

// Size is the number of bytes currently mapped.
func (s *Segment) Size() int64 { return int64(len(s.mem)) }

// CreateSegment creates an empty segment owned by this process: a memfd
// where the kernel has them, otherwise a 0600 file created with O_EXCL in
// /dev/shm (os.TempDir without /dev/shm) and unlinked at once when /proc
// lets the peer reach it through the descriptor.
func CreateSegment() (*Segment, error) {
	id, err := newID()
	if err != nil {
		return nil, err
	}
	if f, err := createMemfd(); err == nil {
		return &Segment{id: id, path: procFDPath(f), f: f, owner: true, sealed: true}, nil
	}
	return createFileSegment(id)
}

func createFileSegment(id uint64) (*Segment, error) {
	dir := "/dev/shm"
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || unix.Access(dir, unix.W_OK) != nil {
		dir = os.TempDir()
	}
	name := filepath.Join(dir, fmt.Sprintf("probe-shm-%d-%016x", os.Getpid(), id))
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transport: create shared-memory file: %w", err)
	}
	s := &Segment{id: id, f: f, owner: true}
	if procAvailable() {
		if err := os.Remove(name); err != nil {
			f.Close()
			return nil, fmt.Errorf("transport: unlink shared-memory file: %w", err)
		}
		s.path = procFDPath(f)
	} else {
		s.path, s.unlink = name, name
	}
	return s, nil
}

// OpenSegment opens and maps a segment created by the peer.
func OpenSegment(id uint64, path string) (*Segment, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("transport: open segment %x: %w", id, err)
	}
	s := &Segment{id: id, path: path, f: f}
	if err := s.Refresh(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// Reserve makes the file and the mapping at least n bytes long. The file
// never shrinks.
func (s *Segment) Reserve(n int64) error {
	if s.closed {
		return ErrClosed
	}
	if n <= int64(len(s.mem)) {
		return nil
	}
	cur, err := s.fileSize()
	if err != nil {
		return err
	}
	if cur < n {
		want := alignUp(n, growQuantum)
		if err := s.f.Truncate(want); err != nil {
			return fmt.Errorf("transport: grow segment %x to %d bytes: %w", s.id, want, err)
		}
		cur = want
	}
	return s.remap(cur)
}

// Refresh maps the whole file again if the peer grew it.
func (s *Segment) Refresh() error {
	if s.closed {
		return ErrClosed
	}
	cur, err := s.fileSize()
	if err != nil {
		return err
	}
	if cur > int64(len(s.mem)) {
		return s.remap(cur)
	}
	return nil
}

func (s *Segment) fileSize() (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(s.f.Fd()), &st); err != nil {
		return 0, fmt.Errorf("transport: stat segment %x: %w", s.id, err)
	}
	return st.Size, nil
}

func (s *Segment) remap(size int64) error {
	if size > int64(maxInt) {
		return fmt.Errorf("transport: segment %x of %d bytes cannot be mapped", s.id, size)
	}
	if size == 0 {
		return nil
	}
	if s.resv == nil && s.mem == nil && !s.noResv && reserveBytes > 0 {
		if p, err := reserveAddress(reserveBytes); err == nil {
			s.resv, s.resvLen = p, reserveBytes
		} else {
			s.noResv = true
		}
	}
	if s.resv != nil && uintptr(size) <= s.resvLen {
		return s.extend(size)
	}
	mem, err := unix.Mmap(int(s.f.Fd()), 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return fmt.Errorf("transport: map segment %x (%d bytes): %w", s.id, size, err)
	}
	if s.mem != nil && !s.inReservation(s.mem) {
		// Views into the old mapping may still be in use by the current
		// call: unmap it only in ReleaseViews. (One inside the reservation
		// stays mapped until Close.)
		s.stale = append(s.stale, s.mem)
	}
	s.mem = mem
	return nil
}

// extend grows the mapping inside the reservation to size bytes: only the
// new pages are mapped (from the page holding the old end, since the file
// may have had a partial last page); the old ones keep their address and
// page tables, so views stay valid and nothing is faulted in twice.
func (s *Segment) extend(size int64) error {
	page := int64(os.Getpagesize())
	from := int64(len(s.mem)) / page * page
	addr := unsafe.Add(s.resv, from)
	if err := mapFileAt(int(s.f.Fd()), from, addr, uintptr(size-from)); err != nil {
		return fmt.Errorf("transport: map segment %x (%d bytes): %w", s.id, size, err)
	}
	s.mem = unsafe.Slice((*byte)(s.resv), size)
	return nil
}

// inReservation reports whether m is the mapping inside the reservation.
func (s *Segment) inReservation(m []byte) bool {
	return s.resv != nil && len(m) > 0 && unsafe.Pointer(unsafe.SliceData(m)) == s.resv
}

// ReleaseViews ends the validity of the views handed out by View: mappings
// replaced by a growth since are unmapped. Call it when the call that took
// the views is over.
func (s *Segment) ReleaseViews() error {
	var errs []error
	for _, m := range s.stale {
		errs = append(errs, unix.Munmap(m))
	}
	s.stale = nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("transport: unmap segment %x: %w", s.id, err)
	}
	return nil
}

// View returns the n bytes at off as a slice of the mapping itself. The
// view is valid until ReleaseViews or Close; whoever holds it must not
// keep it beyond that.
func (s *Segment) View(off, n int64) ([]byte, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if off < 0 || n < 0 || off+n < off {
		return nil, fmt.Errorf("transport: view of %d bytes at %d: bad range", n, off)
	}
	if off+n > int64(len(s.mem)) {
		if err := s.Refresh(); err != nil {
			return nil, err
		}
		if off+n > int64(len(s.mem)) {
			return nil, fmt.Errorf("transport: view of %d bytes at %d beyond segment %x of %d bytes", n, off, s.id, len(s.mem))
		}
	}
	return s.mem[off : off+n : off+n], nil
}

// Offset reports where b lies in the segment, if it lies entirely in the
// current mapping or in one that a growth replaced during this call (b is
// a view of this segment).
func (s *Segment) Offset(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for i := len(s.stale); i >= 0; i-- {
		m := s.mem
		if i < len(s.stale) {
			m = s.stale[i]
		}
		if len(m) == 0 {
			continue
		}
		base := uintptr(unsafe.Pointer(unsafe.SliceData(m)))
		if p >= base && p-base+uintptr(len(b)) <= uintptr(len(m)) {
			return int64(p - base), true
		}
	}
	return 0, false
}

// WriteAt copies p into the segment at off; the segment must already be
// large enough (Reserve).
func (s *Segment) WriteAt(p []byte, off int64) error {
	if s.closed {
		return ErrClosed
	}
	if off < 0 || off+int64(len(p)) > int64(len(s.mem)) {
		return fmt.Errorf("transport: write of %d bytes at %d beyond segment %x of %d bytes", len(p), off, s.id, len(s.mem))
	}
	return safeCopy(s.mem[off:off+int64(len(p))], p)
}

// ReadAt copies len(p) bytes at off out of the segment.
func (s *Segment) ReadAt(p []byte, off int64) error {
	if s.closed {
		return ErrClosed
	}
	if off < 0 || off+int64(len(p)) < off {
		return fmt.Errorf("transport: read of %d bytes at %d: bad range", len(p), off)
	}
	if off+int64(len(p)) > int64(len(s.mem)) {
		if err := s.Refresh(); err != nil {
			return err
		}
		if off+int64(len(p)) > int64(len(s.mem)) {
			return fmt.Errorf("transport: read of %d bytes at %d beyond segment %x of %d bytes", len(p), off, s.id, len(s.mem))
		}
	}
	return safeCopy(p, s.mem[off:off+int64(len(p))])
}

// Close unmaps the segment and closes its descriptor. The memory is freed
// once every process has closed it.
func (s *Segment) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	errs := []error{s.ReleaseViews()}
	if s.mem != nil && !s.inReservation(s.mem) {
		errs = append(errs, unix.Munmap(s.mem))
	}
	if s.resv != nil {
		errs = append(errs, unreserve(s.resv, s.resvLen))
		s.resv = nil
	}
	s.mem = nil
	errs = append(errs, s.f.Close())
	if s.unlink != "" {
		if err := os.Remove(s.unlink); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("transport: close segment %x: %w", s.id, err)
	}
	return nil
}

// safeCopy copies with faults turned into errors, so a peer that truncates
// a file under us cannot kill the process with SIGBUS. Large copies are
// split between up to parallelCopies goroutines: a single core does not
// saturate memory bandwidth, and during a plugin call the other side is
// idle.
func safeCopy(dst, src []byte) error {
	n := min(len(dst), len(src))
	workers := min(runtime.GOMAXPROCS(0), parallelCopies, n/parallelMin)
	if workers < 2 {
		return copySerial(dst[:n], src[:n])
	}
	part := (n/workers + 4095) &^ 4095
	errs := make(chan error, workers)
	for lo := 0; lo < n; lo += part {
		hi := min(lo+part, n)
		go func() { errs <- copySerial(dst[lo:hi], src[lo:hi]) }()
	}
	var first error
	for lo := 0; lo < n; lo += part {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

const (
	// parallelCopies bounds the goroutines of one copy.
	parallelCopies = 4
	// parallelMin is the smallest share of a parallel copy.
	parallelMin = 8 << 20
)

// copySerial copies in chunks on the calling goroutine.
func copySerial(dst, src []byte) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = fmt.Errorf("transport: memory fault while copying shared memory (segment truncated by its peer?): %v", r)
		}
	}()
	for len(src) > 0 && len(dst) > 0 {
		n := copyPart(dst[:min(len(dst), copyChunk)], src)
		dst, src = dst[n:], src[n:]
	}
	return nil
}

// cloneSafe returns a copy of src in new memory, with faults turned into
// errors. Copies large enough to be split between goroutines use make and
// safeCopy; smaller ones use append into a nil slice, which allocates
// without zeroing what it is about to overwrite.
func cloneSafe(src []byte) (out []byte, err error) {
	if len(src) == 0 {
		return []byte{}, nil
	}
	if len(src) >= 2*parallelMin && runtime.GOMAXPROCS(0) > 1 {
		out = make([]byte, len(src))
		if err := safeCopy(out, src); err != nil {
			return nil, err
		}
		return out, nil
	}
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("transport: memory fault while copying shared memory (segment truncated by its peer?): %v", r)
		}
	}()
	return append([]byte(nil), src...), nil
}

// copyChunk is the largest single memmove of copySerial.
const copyChunk = 256 << 10

// copyPart copies one chunk. It is a real call on purpose: a memmove of
// hundreds of MiB cannot be preempted, and a garbage collector that needs to
// stop this goroutine would spin on the other core until it ends; the
// prologue of this function is a preemption point between chunks.
//
//go:noinline
func copyPart(dst, src []byte) int { return copy(dst, src) }

func newID() (uint64, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, fmt.Errorf("transport: segment id: %w", err)
		}
		if id := binary.LittleEndian.Uint64(b[:]); id != 0 {
			return id, nil
		}
	}
}

func procFDPath(f *os.File) string {
	return fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), f.Fd())
}

func procAvailable() bool {
	st, err := os.Stat(fmt.Sprintf("/proc/%d/fd", os.Getpid()))
	return err == nil && st.IsDir()
}
