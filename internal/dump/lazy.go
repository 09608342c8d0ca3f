package dump

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// Materialize converts the entry's bodies: it sets Forward (or Err and
// Skip when the forward body is malformed; a reason from the name comes
// first) and Backward. Entries of a dump read by Load or Parse are already
// materialized; those of Open are converted here, on demand, so that a run
// holds only the entries it is checking. Different entries may be
// materialized concurrently. A nil Dump does nothing.
func (d *Dump) Materialize(e *Entry) {
	if d == nil || !d.lazy || e.loaded {
		return
	}
	e.loaded = true
	defer func() {
		// The converter is written not to panic; this guard keeps a bug
		// from crossing the package boundary.
		if r := recover(); r != nil {
			e.Forward, e.Backward = nil, nil
			e.Err = fmt.Errorf("dump %s: entry %q: internal error while reading it: %v", d.Path, e.Key, r)
			e.Skip = e.Err.Error()
		}
	}()
	if e.fwd.at > 0 {
		call, fe := d.forward(e.fwd)
		e.Forward, e.Err = call, nil
		if fe != nil {
			ee := d.entryError(e.fwd.key, fe)
			e.Forward, e.Err = nil, ee
			if e.Skip == "" {
				e.Skip = ee.reason()
			}
		}
	}
	if e.bwd.at > 0 {
		e.Backward = d.backward(e.bwd)
	}
}

// Release drops what Materialize built (Forward and Backward; Skip and Err
// stay) for an entry of a dump read by Open; Materialize builds it again.
func (d *Dump) Release(e *Entry) {
	if d == nil || !d.lazy {
		return
	}
	e.Forward, e.Backward, e.loaded = nil, nil, false
}

func (d *Dump) forward(b body) (*Call, *fieldError) {
	p := &parser{data: d.src, pos: b.at}
	v, err := p.value()
	if err != nil { // the index checked the syntax
		return nil, &fieldError{off: b.at, msg: "cannot be read again: " + err.Error()}
	}
	call, fe := d.conv.forward(v)
	if call != nil {
		call.FilterSig, call.FilterSigMsprobe = signatures(v)
	}
	return call, fe
}

func (d *Dump) backward(b body) *Backward {
	p := &parser{data: d.src, pos: b.at}
	v, err := p.value()
	var bwd *Backward
	var fe *fieldError
	if err != nil {
		bwd, fe = &Backward{}, &fieldError{off: b.at, msg: "cannot be read again: " + err.Error()}
	} else {
		bwd, fe = d.conv.backward(v)
	}
	bwd.Key = b.key
	if fe != nil {
		ee := d.entryError(b.key, fe)
		bwd.Err, bwd.Skip = ee, ee.reason()
	}
	return bwd
}

func (d *Dump) entryError(key string, fe *fieldError) *entryError {
	ee := &entryError{file: d.Path, key: key, field: fe.field, msg: fe.msg}
	if fe.off > 0 {
		ee.line, ee.col = d.position(fe.off)
	}
	return ee
}

// checkpointEvery is the spacing of the line:column checkpoints.
const checkpointEvery = 1 << 16

// checkpoint is the line and column of a byte offset at the start of a
// character.
type checkpoint struct{ off, line, col int }

// lines holds the checkpoints of one dump, built on the first error.
type lines struct {
	once sync.Once
	cps  []checkpoint
}

// position is positionOf for an offset of d.src, from the nearest
// checkpoint, so that a dump with many malformed entries costs no more
// than one pass over the file.
func (d *Dump) position(off int) (line, col int) {
	d.lines.once.Do(func() { d.lines.cps = checkpoints(d.src) })
	cps := d.lines.cps
	i := off / checkpointEvery
	for i >= len(cps) || cps[i].off > off { // a checkpoint moved to a character start
		i--
	}
	return advance(d.src, cps[i], off)
}

// checkpoints finds the position of every checkpointEvery-th byte (moved
// forward to the next character start).
func checkpoints(data []byte) []checkpoint {
	cps := []checkpoint{{0, 1, 1}}
	cur := cps[0]
	for next := checkpointEvery; next < len(data); next += checkpointEvery {
		at := next
		for at < len(data) && !utf8.RuneStart(data[at]) {
			at++
		}
		l, c := advance(data, cur, at)
		cur = checkpoint{at, l, c}
		cps = append(cps, cur)
	}
	return cps
}

// advance moves a position from a checkpoint to off (≥ cp.off).
func advance(data []byte, cp checkpoint, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line, col = cp.line, cp.col
	start := cp.off
	for i := cp.off; i < off; i++ {
		if data[i] == '\n' {
			line++
			col = 1
			start = i + 1
		}
	}
	return line, col + utf8.RuneCount(data[start:off])
}
