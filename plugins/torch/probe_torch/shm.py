"""Shared-memory tensor transport, the plugin side (internal/transport).

The host owns every segment: a memfd (or an unlinked file) it offers for
one call by id and path ("/proc/<host pid>/fd/<n>"). Large request tensors
lie in it and the plugin uses them in place, as views of its mapping that
live no longer than the call; it writes its large response tensors into it
after the inputs, growing the file when needed (never shrinking it), and the
host copies them out. A response tensor that is already a view of the
segment below the outputs (an echo, an in-place op's result) is sent as a
reference to where it lies, without a copy. Small tensors travel inline in the message. A plugin never
creates files, so nothing is left behind when either side dies.
"""

import ctypes
import mmap
import os

ALIGN = 64
GROW_QUANTUM = 1 << 20
INLINE_MAX = 256 << 10  # largest tensor sent inline (DefaultInlineMax)
INLINE_BUDGET = 1 << 20  # inline tensor bytes per message (DefaultInlineBudget)
INLINE_TOTAL = (4 << 20) - (512 << 10)  # without a segment (maxInlineTotal)


def align_up(n, a):
    return (n + a - 1) // a * a


class Segment:
    def __init__(self, seg_id, path):
        self.id = seg_id
        self.path = path
        self.fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
        self.mm = None
        self.size = 0
        self.addr = 0  # address of self.mm
        self._old = []  # (mapping, address, size) replaced by a growth, closed by release()
        self.refresh()

    def refresh(self):
        """Maps the whole file again when the host has grown it."""
        size = os.fstat(self.fd).st_size
        if size != self.size or self.mm is None:
            self._remap(size)

    def _remap(self, size):
        if self.mm is not None:
            self._old.append((self.mm, self.addr, self.size))
        self.mm = mmap.mmap(self.fd, size) if size > 0 else None
        self.addr = _address(self.mm) if self.mm is not None else 0
        self.size = size

    def offset_of(self, addr, n):
        """The segment offset of the n bytes at addr when they lie in one of
        this segment's mappings, else None."""
        for mm, base, size in [(self.mm, self.addr, self.size)] + self._old:
            if mm is not None and base <= addr and addr + n <= base + size:
                return addr - base
        return None

    def reserve(self, n):
        """Grows the file to hold at least n bytes."""
        if n <= self.size:
            return
        want = align_up(n, GROW_QUANTUM)
        os.ftruncate(self.fd, want)
        self._remap(want)

    def check(self, off, n):
        if off < 0 or n < 0 or off + n > self.size:
            self.refresh()
        if off < 0 or n < 0 or off + n > self.size:
            raise ValueError(
                "reference [%d, %d) lies outside segment %x of %d bytes" % (off, off + n, self.id, self.size)
            )

    def release(self):
        old, self._old = self._old, []
        for m, _, _ in old:
            try:
                m.close()
            except BufferError:  # still exported: freed with its last view
                pass

    def close(self):
        self.release()
        if self.mm is not None:
            try:
                self.mm.close()
            except BufferError:
                pass
            self.mm = None
        os.close(self.fd)


def _address(mm):
    """The address of a writable mapping (the ctypes view is dropped at
    once, so that the mapping is not left exported)."""
    c = ctypes.c_char.from_buffer(mm)
    try:
        return ctypes.addressof(c)
    finally:
        del c


class Cache:
    """The plugin's mappings of the host's segments, by id."""

    def __init__(self):
        self._segs = {}

    def acquire(self, seg_id, path):
        seg = self._segs.get(seg_id)
        if seg is None or seg.path != path:
            if seg is not None:
                seg.close()
            seg = Segment(seg_id, path)
            self._segs[seg_id] = seg
        else:
            seg.refresh()
        return seg

    def retire(self, ids):
        for i in ids:
            seg = self._segs.pop(i, None)
            if seg is not None:
                seg.close()


class Packer:
    """Lays out the tensors of one response: inline or into the segment."""

    def __init__(self, seg, base):
        self.seg = seg
        self.base = base
        self.end = align_up(base, ALIGN)
        self.inline_used = 0
        self.pending = []  # (offset, uint8 numpy array)

    def place(self, data):
        """data: a 1-d uint8 numpy array. Returns ("inline", bytes) or ("shm", (off, n))."""
        n = data.nbytes
        if n == 0:
            return "inline", b""
        if n <= INLINE_MAX and self.inline_used + n <= INLINE_BUDGET:
            self.inline_used += n
            return "inline", data.tobytes()
        if self.seg is not None:
            off = self.seg.offset_of(data.ctypes.data, n)
            if off is not None and off + n <= self.base:
                return "shm", (off, n)
        if self.seg is None:
            if self.inline_used + n <= INLINE_TOTAL:
                self.inline_used += n
                return "inline", data.tobytes()
            raise ValueError(
                "tensor of %d bytes cannot travel inline and the host offered no shared memory" % n
            )
        off = align_up(self.end, ALIGN)
        self.end = off + n
        self.pending.append((off, data))
        return "shm", (off, n)

    def commit(self):
        if not self.pending:
            return
        self.seg.reserve(self.end)
        mm = self.seg.mm
        for off, data in self.pending:
            mm[off : off + data.nbytes] = data.data
        self.pending = []
