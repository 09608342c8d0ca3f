package tensorload

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/sdk/tensor"
)

// The .npy format (numpy/lib/format.py): the magic "\x93NUMPY", a major
// and minor version byte, the header length (2 bytes little-endian in
// version 1.0, 4 bytes in 2.0 and 3.0), an ASCII (UTF-8 in 3.0) Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw data.

const npyMagic = "\x93NUMPY"

// maxNPYHeader bounds the header (numpy itself refuses headers above
// 10000 bytes unless told otherwise).
const maxNPYHeader = 1 << 20

// npyTypes maps a descr without its byte-order character to a dtype.
var npyTypes = map[string]tensor.DType{
	"f8": tensor.Float64, "f4": tensor.Float32, "f2": tensor.Float16,
	"i8": tensor.Int64, "i4": tensor.Int32, "i2": tensor.Int16, "i1": tensor.Int8,
	"u1": tensor.Uint8, "b1": tensor.Bool,
}

func decodeNPY(r io.ReaderAt, size int64) (*tensor.Tensor, error) {
	pre := make([]byte, 12)
	n, _ := r.ReadAt(pre, 0)
	pre = pre[:n]
	if len(pre) < 10 || string(pre[:6]) != npyMagic {
		return nil, errors.New("not a .npy file (missing the \\x93NUMPY magic)")
	}
	major, minor := pre[6], pre[7]
	var hlen, start int64
	switch major {
	case 1:
		hlen, start = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if len(pre) < 12 {
			return nil, errors.New("truncated .npy header")
		}
		hlen, start = int64(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d.%d", major, minor)
	}
	if hlen > maxNPYHeader {
		return nil, fmt.Errorf(".npy header of %d bytes is too large", hlen)
	}
	if start+hlen > size {
		return nil, fmt.Errorf("truncated .npy header: %d bytes announced, file has %d", hlen, size-start)
	}
	hdr := make([]byte, hlen)
	if err := readAt(r, hdr, start); err != nil {
		return nil, fmt.Errorf("reading the .npy header: %w", err)
	}
	h, err := parseNPYHeader(string(hdr))
	if err != nil {
		return nil, fmt.Errorf(".npy header %q: %w", strings.TrimSpace(string(hdr)), err)
	}
	dt, swap, err := npyDType(h.descr)
	if err != nil {
		return nil, err
	}
	numel := 1
	for _, d := range h.shape {
		if d < 0 {
			return nil, fmt.Errorf("negative dimension in shape %v", h.shape)
		}
		if d != 0 && numel > maxElems/d {
			return nil, fmt.Errorf("shape %v is too large", h.shape)
		}
		numel *= d
	}
	elem := dt.Size()
	need := int64(numel) * int64(elem)
	off := start + hlen
	if have := size - off; have != need {
		return nil, fmt.Errorf("%s array of shape %v needs %d data bytes, the file has %d", h.descr, h.shape, need, have)
	}
	data := make([]byte, need)
	if need > 0 {
		if err := readAt(r, data, off); err != nil {
			return nil, fmt.Errorf("reading the .npy data: %w", err)
		}
	}
	if swap {
		swapBytes(data, elem)
	}
	t := &tensor.Tensor{DType: dt, Shape: h.shape, Data: data}
	if h.fortran && len(h.shape) > 1 {
		// Column-major: the first index varies fastest.
		strides := make([]int, len(h.shape))
		s := 1
		for i, d := range h.shape {
			strides[i] = s
			s *= d
		}
		t.Data = gather(data, elem, h.shape, strides, 0)
	}
	normalizeBools(t)
	return t, nil
}

// readAt fills buf from offset off.
func readAt(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// npyDType parses a descr like "<f4" or "|b1".
func npyDType(descr string) (tensor.DType, bool, error) {
	if len(descr) < 2 {
		return tensor.Invalid, false, fmt.Errorf("unsupported .npy dtype %q", descr)
	}
	order, code := descr[0], descr[1:]
	if order != '<' && order != '>' && order != '|' && order != '=' {
		order, code = '=', descr
	}
	dt, ok := npyTypes[code]
	if !ok {
		switch code[0] {
		case 'O':
			return tensor.Invalid, false, fmt.Errorf("unsupported .npy dtype %q: object arrays need pickle, which is refused", descr)
		case 'V':
			return tensor.Invalid, false, fmt.Errorf("unsupported .npy dtype %q: structured arrays are not tensors", descr)
		}
		return tensor.Invalid, false, fmt.Errorf("unsupported .npy dtype %q (supported: <f8 <f4 <f2 <i8 <i4 <i2 |i1 |u1 |b1)", descr)
	}
	return dt, order == '>' && dt.Size() > 1, nil
}

type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
}

// parseNPYHeader reads the Python dict literal of a .npy header.
func parseNPYHeader(s string) (*npyHeader, error) {
	p := &pyLit{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q after the header dict", p.s[p.i:])
	}
	d, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the header is not a dict")
	}
	h := &npyHeader{}
	switch descr := d["descr"].(type) {
	case string:
		h.descr = descr
	case nil:
		return nil, errors.New("no 'descr' key")
	default:
		return nil, errors.New("'descr' is not a simple dtype string (structured arrays are not supported)")
	}
	switch fo := d["fortran_order"].(type) {
	case bool:
		h.fortran = fo
	case nil:
		return nil, errors.New("no 'fortran_order' key")
	default:
		return nil, errors.New("'fortran_order' is not True or False")
	}
	shape, ok := d["shape"].([]any)
	if !ok {
		return nil, errors.New("'shape' is missing or not a tuple")
	}
	h.shape = make([]int, len(shape))
	for i, e := range shape {
		n, ok := e.(int64)
		if !ok || n < 0 || n > maxElems {
			return nil, fmt.Errorf("shape element %v is not a non-negative integer", e)
		}
		h.shape[i] = int(n)
	}
	return h, nil
}

// pyLit parses the subset of Python literals found in .npy headers:
// dicts, tuples, lists, strings, integers, True, False and None.
type pyLit struct {
	s string
	i int
}

func (p *pyLit) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyLit) value(depth int) (any, error) {
	if depth > 32 {
		return nil, errors.New("nesting too deep")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end of header")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		d := map[string]any{}
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return d, nil
			}
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			if !ok {
				return nil, errors.New("dict key is not a string")
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, errors.New("expected ':' in dict")
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			d[ks] = v
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return d, nil
			}
			return nil, errors.New("expected ',' or '}' in dict")
		}
	case c == '(' || c == '[':
		end := byte(')')
		if c == '[' {
			end = ']'
		}
		p.i++
		var items []any
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				if items == nil {
					items = []any{}
				}
				return items, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				return items, nil
			}
			return nil, fmt.Errorf("expected ',' or '%c' in sequence", end)
		}
	case c == '\'' || c == '"':
		j := strings.IndexByte(p.s[p.i+1:], c)
		if j < 0 {
			return nil, errors.New("unterminated string")
		}
		v := p.s[p.i+1 : p.i+1+j]
		p.i += j + 2
		return v, nil
	case c == '-' || (c >= '0' && c <= '9'):
		j := p.i + 1
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad integer %q", p.s[p.i:j])
		}
		p.i = j
		if p.i < len(p.s) && (p.s[p.i] == 'L' || p.s[p.i] == 'l') { // Python 2 longs
			p.i++
		}
		return n, nil
	}
	for _, w := range []struct {
		word string
		val  any
	}{{"True", true}, {"False", false}, {"None", nil}} {
		if strings.HasPrefix(p.s[p.i:], w.word) {
			p.i += len(w.word)
			return w.val, nil
		}
	}
	return nil, fmt.Errorf("unexpected %q in header", p.s[p.i:min(len(p.s), p.i+10)])
}
