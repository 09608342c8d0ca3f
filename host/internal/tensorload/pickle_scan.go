package tensorload

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// scanPickle walks the opcodes of a pickle stream without executing it and
// checks that every length-prefixed argument fits in the remaining bytes.
// gopickle allocates such arguments before reading them, so an unchecked
// stream could ask for terabytes; after this scan every allocation it makes
// is bounded by the size of the stream.
func scanPickle(p []byte) error {
	i := 0
	need := func(n uint64, what string) error {
		if n > uint64(len(p)-i) {
			return fmt.Errorf("pickle %s at byte %d announces %d bytes, only %d remain", what, i, n, len(p)-i)
		}
		return nil
	}
	line := func() error {
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			return fmt.Errorf("pickle: unterminated text argument at byte %d", i)
		}
		i += j + 1
		return nil
	}
	for i < len(p) {
		op := p[i]
		i++
		switch op {
		case '.': // STOP
			return nil
		case '(', '0', '1', '2', 'N', 'Q', 'R', 'a', 'b', 'd', '}', 'e', 'l', ']', 'o', 's', 't', ')', 'u',
			0x81, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x97, 0x98:
			// no argument
		case 'F', 'I', 'L', 'P', 'S', 'V', 'g', 'p': // one text line
			if err := line(); err != nil {
				return err
			}
		case 'c', 'i': // GLOBAL, INST: two text lines
			if err := line(); err != nil {
				return err
			}
			if err := line(); err != nil {
				return err
			}
		case 'K', 'h', 'q', 0x80, 0x82: // one byte
			if err := need(1, "argument"); err != nil {
				return err
			}
			i++
		case 'M', 0x83: // two bytes
			if err := need(2, "argument"); err != nil {
				return err
			}
			i += 2
		case 'J', 'j', 'r', 0x84: // four bytes
			if err := need(4, "argument"); err != nil {
				return err
			}
			i += 4
		case 'G': // BINFLOAT
			if err := need(8, "argument"); err != nil {
				return err
			}
			i += 8
		case 'U', 'C', 0x8a, 0x8c: // one-byte length
			if err := need(1, "length"); err != nil {
				return err
			}
			n := uint64(p[i])
			i++
			if err := need(n, "string"); err != nil {
				return err
			}
			i += int(n)
		case 'T', 'X', 'B', 0x8b: // four-byte length
			if err := need(4, "length"); err != nil {
				return err
			}
			n := uint64(binary.LittleEndian.Uint32(p[i:]))
			i += 4
			if err := need(n, "string"); err != nil {
				return err
			}
			i += int(n)
		case 0x8d, 0x8e, 0x96: // eight-byte length
			if err := need(8, "length"); err != nil {
				return err
			}
			n := binary.LittleEndian.Uint64(p[i:])
			i += 8
			if err := need(n, "string"); err != nil {
				return err
			}
			i += int(n)
		case 0x95: // FRAME: the frame's opcodes follow inline
			if err := need(8, "frame length"); err != nil {
				return err
			}
			n := binary.LittleEndian.Uint64(p[i:])
			i += 8
			if err := need(n, "frame"); err != nil {
				return err
			}
		default:
			return fmt.Errorf("pickle: unknown opcode 0x%02x at byte %d", op, i-1)
		}
	}
	return fmt.Errorf("pickle: no STOP opcode")
}
