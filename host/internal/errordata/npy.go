package errordata

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/probe-dev/probe/sdk/tensor"
)

// npyDescr is the NumPy dtype string written for each dtype. bfloat16 has
// none: it is written as float32.
var npyDescr = map[tensor.DType]string{
	tensor.Float64: "<f8", tensor.Float32: "<f4", tensor.Float16: "<f2",
	tensor.BFloat16: "<f4",
	tensor.Int64:    "<i8", tensor.Int32: "<i4", tensor.Int16: "<i2", tensor.Int8: "|i1",
	tensor.Uint8: "|u1", tensor.Bool: "|b1",
}

// npyHeader returns the magic, version and header of a version 1.0 .npy
// file, padded like numpy.lib.format (total a multiple of 64 bytes, ending
// in a newline).
func npyHeader(descr string, shape []int) []byte {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tensor.ShapeString(shape))
	// 10 bytes of preamble, the dict, padding spaces, one newline.
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	hlen := len(dict) + pad + 1
	b := make([]byte, 0, 10+hlen)
	b = append(b, "\x93NUMPY\x01\x00"...)
	b = binary.LittleEndian.AppendUint16(b, uint16(hlen))
	b = append(b, dict...)
	for range pad {
		b = append(b, ' ')
	}
	return append(b, '\n')
}

// WriteNPY writes t to w as a NumPy .npy file (format 1.0, little-endian,
// C order). bfloat16 is widened exactly to float32; bool bytes are written
// as stored (0 or 1). The tensor must be valid (tensor.Tensor.Validate).
func WriteNPY(w io.Writer, t *tensor.Tensor) error {
	if err := t.Validate(); err != nil {
		return err
	}
	descr, ok := npyDescr[t.DType]
	if !ok {
		return fmt.Errorf("no .npy dtype for %s", t.DType)
	}
	hdr := npyHeader(descr, t.Shape)
	if len(hdr)-10 > 0xffff {
		return fmt.Errorf("shape %v gives a .npy header too long for format 1.0", t.Shape)
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	if t.DType != tensor.BFloat16 {
		_, err := w.Write(t.Data)
		return err
	}
	// bfloat16 → float32: the bfloat16 bits are the high half of the
	// float32 (exact, NaN payloads included).
	bw := bufio.NewWriterSize(w, 64<<10)
	var f [4]byte
	for i := 0; i+2 <= len(t.Data); i += 2 {
		f[2], f[3] = t.Data[i], t.Data[i+1]
		if _, err := bw.Write(f[:]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// NPYDType is the dtype a tensor of dtype d has once saved as .npy (and
// read back): d itself, except float32 for bfloat16.
func NPYDType(d tensor.DType) tensor.DType {
	if d == tensor.BFloat16 {
		return tensor.Float32
	}
	return d
}
