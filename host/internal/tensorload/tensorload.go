// Package tensorload reads the tensor files of tensor-mode dumps: PyTorch's
// .pt files (torch.save zip archives, read with gopickle) and NumPy's .npy
// files (own reader), into probe's dense tensor type.
//
// File names come from the dump and are untrusted: Load keeps every path
// inside the data root, after cleaning and after resolving symbolic links.
// Hostile or corrupt files give errors, never panics or unbounded
// allocations.
package tensorload

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/probe-dev/probe/sdk/tensor"
)

// MaxFileSize is the largest tensor file accepted (msprobe's limit for .pt
// and .npy files: 10 GiB).
const MaxFileSize = 10 << 30

// Load reads the tensor file name (a data_name from the dump) under root.
// The file must stay inside root after cleaning and symbolic-link
// resolution. Files ending in .pt are read as torch.save archives, files
// ending in .npy as NumPy arrays; any other suffix is an error. When want is
// a valid dtype different from the file's, the data is converted to it (the
// JSON dtype wins, e.g. MindSpore's bfloat16 tensors stored as float32);
// pass tensor.Invalid to keep the file's dtype.
func Load(root, name string, want tensor.DType) (*tensor.Tensor, error) {
	path, err := Resolve(root, name)
	if err != nil {
		return nil, err
	}
	var t *tensor.Tensor
	switch strings.ToLower(filepath.Ext(path)) {
	case ".pt":
		t, err = loadFile(path, decodePT)
	case ".npy":
		t, err = loadFile(path, decodeNPY)
	default:
		return nil, fmt.Errorf("The file: %s is not a pt or numpy file.", path)
	}
	if err != nil {
		return nil, err
	}
	if want.Valid() && want != t.DType {
		t = t.Cast(want)
	}
	return t, nil
}

// Resolve returns the real path of name under root, refusing names that
// are empty, absolute, contain a ".." element, or resolve (through
// symbolic links) to a place outside root, and files that are not regular
// files.
func Resolve(root, name string) (string, error) {
	switch {
	case root == "":
		return "", fmt.Errorf("tensor file %q: the dump has no real-data directory (dump_data_dir is empty)", name)
	case name == "":
		return "", fmt.Errorf("tensor file name is empty (data root %s)", root)
	case filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || filepath.VolumeName(name) != "":
		return "", fmt.Errorf("tensor file %q: absolute names are not allowed; data_name must be relative to %s", name, root)
	case strings.ContainsRune(name, 0):
		return "", fmt.Errorf("tensor file %q: the name contains a NUL byte", name)
	}
	for _, el := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		if el == ".." {
			return "", fmt.Errorf("tensor file %q: \"..\" is not allowed in data_name (it must stay inside %s)", name, root)
		}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("tensor data directory %s: %w", root, unwrapPath(err))
	}
	if realRoot, err = filepath.Abs(realRoot); err != nil {
		return "", fmt.Errorf("tensor data directory %s: %w", root, err)
	}
	if st, err := os.Stat(realRoot); err != nil || !st.IsDir() {
		return "", fmt.Errorf("tensor data directory %s is not a directory", root)
	}
	full := filepath.Join(realRoot, filepath.Clean(name))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fmt.Errorf("tensor file %s: %w", full, unwrapPath(err))
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("tensor file %s resolves to %s, outside the data directory %s", full, real, realRoot)
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("tensor file %s: %w", real, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("tensor file %s is not a regular file", real)
	}
	return real, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type decoder func(r io.ReaderAt, size int64) (*tensor.Tensor, error)

func loadFile(path string, dec decoder) (*tensor.Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tensor file %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("tensor file %s: %w", path, err)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("tensor file %s: %d bytes exceeds the 10 GiB limit", path, st.Size())
	}
	t, err := safeDecode(dec, f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("tensor file %s: %w", path, err)
	}
	return t, nil
}

// safeDecode runs a decoder and turns a panic into an error. gopickle
// panics on some malformed pickles (e.g. a DICT opcode over an odd number
// of stack items); such a panic means a corrupt file. A panic anywhere else
// is a bug of this package and says so.
func safeDecode(dec decoder, r io.ReaderAt, size int64) (t *tensor.Tensor, err error) {
	defer func() {
		if p := recover(); p != nil {
			if panickedIn("github.com/nlpodyssey/gopickle/") {
				t, err = nil, fmt.Errorf("corrupt pickle in data.pkl (the unpickler failed: %v)", p)
				return
			}
			t, err = nil, fmt.Errorf("internal error while decoding (please report): %v", p)
		}
	}()
	t, err = dec(r, size)
	if err == nil {
		err = t.Validate()
	}
	return t, err
}

// panickedIn reports whether the innermost non-runtime frame of the
// current panic belongs to a package with the given import-path prefix.
// It must be called from the deferred function that recovered.
func panickedIn(prefix string) bool {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(0, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	sawPanic := false
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "runtime.") {
			if strings.HasPrefix(f.Function, "runtime.gopanic") || strings.HasPrefix(f.Function, "runtime.panic") {
				sawPanic = true
			}
		} else if sawPanic {
			return strings.HasPrefix(f.Function, prefix)
		}
		if !more {
			return false
		}
	}
}

// DecodePT decodes the bytes of a .pt file (a torch.save zip archive
// holding one tensor).
func DecodePT(data []byte) (*tensor.Tensor, error) {
	return safeDecode(decodePT, bytesReaderAt(data), int64(len(data)))
}

// DecodeNPY decodes the bytes of a .npy file.
func DecodeNPY(data []byte) (*tensor.Tensor, error) {
	return safeDecode(decodeNPY, bytesReaderAt(data), int64(len(data)))
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// gather copies a strided view of src (element strides, in elements, and
// an element offset) into a new C-contiguous buffer. The caller has checked
// that every index is inside src.
func gather(src []byte, elem int, shape, strides []int, offset int) []byte {
	n := tensor.NumElements(shape)
	out := make([]byte, n*elem)
	if n == 0 {
		return out
	}
	nd := len(shape)
	if nd == 0 {
		copy(out, src[offset*elem:(offset+1)*elem])
		return out
	}
	idx := make([]int, nd)
	pos := offset
	inner, innerStride := shape[nd-1], strides[nd-1]
	o := 0
	for {
		if innerStride == 1 {
			copy(out[o:o+inner*elem], src[pos*elem:(pos+inner)*elem])
			o += inner * elem
		} else {
			p := pos
			for i := 0; i < inner; i++ {
				copy(out[o:o+elem], src[p*elem:(p+1)*elem])
				o += elem
				p += innerStride
			}
		}
		// Advance the outer dimensions like an odometer.
		d := nd - 2
		for ; d >= 0; d-- {
			idx[d]++
			pos += strides[d]
			if idx[d] < shape[d] {
				break
			}
			pos -= strides[d] * shape[d]
			idx[d] = 0
		}
		if d < 0 {
			return out
		}
	}
}

// viewBounds checks a strided view against a storage of n elements and
// returns an error when an index falls outside it.
func viewBounds(shape, strides []int, offset, n int) error {
	if len(shape) != len(strides) {
		return fmt.Errorf("shape %v and strides %v differ in length", shape, strides)
	}
	if offset < 0 {
		return fmt.Errorf("negative storage offset %d", offset)
	}
	total := 1
	for i, s := range shape {
		if s < 0 {
			return fmt.Errorf("negative dimension %d in shape %v", s, shape)
		}
		if strides[i] < 0 {
			return fmt.Errorf("negative stride %d in %v", strides[i], strides)
		}
		if s != 0 && total > maxElems/s {
			return fmt.Errorf("shape %v is too large", shape)
		}
		total *= s
	}
	if total == 0 {
		return nil
	}
	last := offset
	for i, s := range shape {
		if strides[i] > 0 && s-1 > (maxElems-last)/strides[i] {
			return fmt.Errorf("view of shape %v, strides %v, offset %d overflows", shape, strides, offset)
		}
		last += (s - 1) * strides[i]
	}
	if last >= n {
		return fmt.Errorf("view of shape %v, strides %v, offset %d reaches element %d of a storage of %d elements", shape, strides, offset, last, n)
	}
	return nil
}

// maxElems bounds element counts so that byte sizes never overflow.
const maxElems = 1 << 56

// maxExpand bounds the size of a view larger than its storage (stride-0
// broadcasts), so that a tiny file cannot request an enormous allocation.
const maxExpand = 1 << 28

// normalizeBools maps every non-zero byte of a bool tensor to 1.
func normalizeBools(t *tensor.Tensor) {
	if t.DType != tensor.Bool {
		return
	}
	for i, b := range t.Data {
		if b > 1 {
			t.Data[i] = 1
		}
	}
}

// swapBytes reverses the byte order of every element in place.
func swapBytes(data []byte, elem int) {
	if elem <= 1 {
		return
	}
	for i := 0; i+elem <= len(data); i += elem {
		for a, b := i, i+elem-1; a < b; a, b = a+1, b-1 {
			data[a], data[b] = data[b], data[a]
		}
	}
}
