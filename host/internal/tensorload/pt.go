package tensorload

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"path"
	"strings"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"

	"github.com/probe-dev/probe/sdk/tensor"
)

// A .pt file written by torch.save (PyTorch >= 1.6) is a zip archive:
// <archive>/data.pkl is a pickle whose tensors reference their storages by
// persistent id ("storage", <torch.XStorage class>, key, location, numel);
// the raw little-endian bytes of storage key live in <archive>/data/<key>.
//
// This reader uses gopickle's unpickler with probe's own class table and
// persistent loader, the same scheme as gopickle's pytorch.Load, plus what
// hostile input needs: the pickle is scanned before it runs (scanPickle),
// storage sizes are checked against their zip records before anything is
// allocated, and storages are kept as raw bytes (no float32 widening of
// half and bfloat16 data), so strided views are gathered byte-exactly.

// maxPickle bounds data.pkl; msprobe's pickles are a few hundred bytes.
const maxPickle = 64 << 20

// deflateRatio bounds the expansion of a deflated record (deflate cannot
// exceed about 1032:1).
const deflateRatio = 1100

// storageTypes maps torch's typed storage classes to dtypes.
var storageTypes = map[string]tensor.DType{
	"FloatStorage":    tensor.Float32,
	"DoubleStorage":   tensor.Float64,
	"HalfStorage":     tensor.Float16,
	"BFloat16Storage": tensor.BFloat16,
	"CharStorage":     tensor.Int8,
	"ShortStorage":    tensor.Int16,
	"IntStorage":      tensor.Int32,
	"LongStorage":     tensor.Int64,
	"ByteStorage":     tensor.Uint8,
	"BoolStorage":     tensor.Bool,
}

// storageClass is the pickled class of a storage (torch.FloatStorage).
type storageClass struct {
	name  string
	dtype tensor.DType // Invalid for storages probe does not support
}

// storage is one loaded storage: raw little-endian elements.
type storage struct {
	dtype tensor.DType
	data  []byte
	numel int
}

// ptTensor is what _rebuild_tensor_v2 returns.
type ptTensor struct {
	st      *storage
	offset  int
	size    []int
	stride  []int
	reqGrad bool
}

type rebuildTensor struct{ v2 bool }

func (r rebuildTensor) Call(args ...any) (any, error) {
	// v2: (storage, storage_offset, size, stride, requires_grad,
	// backward_hooks[, metadata]); v1: (storage, storage_offset, size,
	// stride).
	if (r.v2 && len(args) != 6 && len(args) != 7) || (!r.v2 && len(args) != 4) {
		return nil, fmt.Errorf("_rebuild_tensor called with %d arguments", len(args))
	}
	st, ok := args[0].(*storage)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor: first argument is %T, not a storage", args[0])
	}
	off, ok := args[1].(int)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor: storage offset is %T, not an int", args[1])
	}
	size, err := intTuple(args[2], "size")
	if err != nil {
		return nil, err
	}
	stride, err := intTuple(args[3], "stride")
	if err != nil {
		return nil, err
	}
	t := &ptTensor{st: st, offset: off, size: size, stride: stride}
	if r.v2 {
		t.reqGrad, _ = args[4].(bool)
	}
	return t, nil
}

func intTuple(v any, what string) ([]int, error) {
	tup, ok := v.(*types.Tuple)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor: %s is %T, not a tuple", what, v)
	}
	out := make([]int, tup.Len())
	for i := range out {
		n, ok := tup.Get(i).(int)
		if !ok {
			return nil, fmt.Errorf("_rebuild_tensor: %s element %d is %T, not an int", what, i, tup.Get(i))
		}
		out[i] = n
	}
	return out, nil
}

// rebuildParameter unwraps nn.Parameter(data, requires_grad, hooks[, state]).
type rebuildParameter struct{}

func (rebuildParameter) Call(args ...any) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("_rebuild_parameter called without data")
	}
	return args[0], nil
}

// rebuildFromType unwraps tensor subclasses:
// _rebuild_from_type_v2(func, new_type, args, state).
type rebuildFromType struct{}

func (rebuildFromType) Call(args ...any) (any, error) {
	if len(args) < 3 {
		return nil, fmt.Errorf("_rebuild_from_type_v2 called with %d arguments", len(args))
	}
	fn, ok := args[0].(types.Callable)
	if !ok {
		return nil, fmt.Errorf("_rebuild_from_type_v2: %T is not callable", args[0])
	}
	a, ok := args[2].(*types.Tuple)
	if !ok {
		return nil, fmt.Errorf("_rebuild_from_type_v2: arguments are %T, not a tuple", args[2])
	}
	return fn.Call(*a...)
}

func findClass(module, name string) (any, error) {
	switch module + "." + name {
	case "torch._utils._rebuild_tensor_v2":
		return rebuildTensor{v2: true}, nil
	case "torch._utils._rebuild_tensor":
		return rebuildTensor{}, nil
	case "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state":
		return rebuildParameter{}, nil
	case "torch._tensor._rebuild_from_type_v2":
		return rebuildFromType{}, nil
	}
	if module == "torch" && strings.HasSuffix(name, "Storage") {
		return &storageClass{name: "torch." + name, dtype: storageTypes[name]}, nil
	}
	return types.NewGenericClass(module, name), nil
}

// legacyMagic starts the pickled magic number of pre-1.6 torch.save files.
var legacyMagic = []byte{0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19}

func decodePT(r io.ReaderAt, size int64) (*tensor.Tensor, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		head := make([]byte, len(legacyMagic))
		if n, _ := r.ReadAt(head, 0); n == len(head) && bytes.Equal(head, legacyMagic) {
			return nil, errors.New("legacy (non-zip) torch.save format is not supported; re-save the tensor with PyTorch >= 1.6 defaults")
		}
		return nil, fmt.Errorf("not a torch.save zip archive: %w", err)
	}
	records := make(map[string]*zip.File, len(zr.File))
	var pkl *zip.File
	for _, f := range zr.File {
		records[f.Name] = f
		dir, base := path.Split(f.Name)
		if base == "data.pkl" && strings.Count(dir, "/") <= 1 {
			if pkl != nil {
				return nil, errors.New("the archive holds more than one data.pkl")
			}
			pkl = f
		}
	}
	if pkl == nil {
		for name := range records {
			if path.Base(name) == "constants.pkl" {
				return nil, errors.New("TorchScript archives are not tensor files")
			}
		}
		return nil, errors.New("the archive has no data.pkl: not a torch.save file")
	}
	prefix, _ := path.Split(pkl.Name) // "archive/" (or "")

	bigEndian := false
	if bo := records[prefix+"byteorder"]; bo != nil {
		b, err := readRecord(bo, 16)
		if err != nil {
			return nil, fmt.Errorf("reading byteorder: %w", err)
		}
		switch strings.TrimSpace(string(b)) {
		case "little":
		case "big":
			bigEndian = true
		default:
			return nil, fmt.Errorf("unknown byteorder %q", b)
		}
	}

	if pkl.UncompressedSize64 > maxPickle {
		return nil, fmt.Errorf("data.pkl of %d bytes is too large for a tensor file", pkl.UncompressedSize64)
	}
	pdata, err := readRecord(pkl, maxPickle)
	if err != nil {
		return nil, fmt.Errorf("reading data.pkl: %w", err)
	}
	if err := scanPickle(pdata); err != nil {
		return nil, fmt.Errorf("data.pkl: %w", err)
	}

	storages := map[string]*storage{}
	u := pickle.NewUnpickler(bytes.NewReader(pdata))
	u.FindClass = findClass
	u.PersistentLoad = func(pid any) (any, error) {
		tup, ok := pid.(*types.Tuple)
		if !ok || tup.Len() < 5 {
			return nil, fmt.Errorf("unexpected persistent id %v", pid)
		}
		if kind, _ := tup.Get(0).(string); kind != "storage" {
			return nil, fmt.Errorf("unexpected persistent id kind %v", tup.Get(0))
		}
		cls, ok := tup.Get(1).(*storageClass)
		if !ok {
			return nil, fmt.Errorf("persistent id names %T, not a storage class", tup.Get(1))
		}
		if !cls.dtype.Valid() {
			return nil, fmt.Errorf("unsupported storage type %s", cls.name)
		}
		key, ok := tup.Get(2).(string)
		if !ok {
			return nil, fmt.Errorf("storage key is %T, not a string", tup.Get(2))
		}
		numel, ok := tup.Get(4).(int)
		if !ok {
			if _, isBig := tup.Get(4).(*big.Int); isBig {
				return nil, errors.New("storage size does not fit in an int")
			}
			return nil, fmt.Errorf("storage size is %T, not an int", tup.Get(4))
		}
		if st := storages[key]; st != nil {
			if st.dtype != cls.dtype {
				return nil, fmt.Errorf("storage %s is used as %s and as %s", key, st.dtype, cls.dtype)
			}
			return st, nil
		}
		st, err := loadStorage(records[prefix+"data/"+key], key, cls.dtype, numel, size)
		if err != nil {
			return nil, err
		}
		if bigEndian {
			swapBytes(st.data, cls.dtype.Size())
		}
		storages[key] = st
		return st, nil
	}
	obj, err := u.Load()
	if err != nil {
		return nil, fmt.Errorf("data.pkl: %w", err)
	}
	pt, ok := obj.(*ptTensor)
	if !ok {
		return nil, fmt.Errorf("the file holds a %s, not a tensor", describe(obj))
	}
	return pt.materialize()
}

func describe(obj any) string {
	switch o := obj.(type) {
	case nil:
		return "None"
	case *storage:
		return "bare storage"
	case *types.Dict, *types.OrderedDict:
		return "dict"
	case *types.List:
		return "list"
	case *types.Tuple:
		return "tuple"
	case *types.GenericObject:
		if o.Class != nil {
			return o.Class.Module + "." + o.Class.Name
		}
	}
	return fmt.Sprintf("%T", obj)
}

// readRecord reads a whole zip record of at most limit bytes, verifying its
// checksum.
func readRecord(f *zip.File, limit int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("record %s is larger than %d bytes", f.Name, limit)
	}
	return b, nil
}

// loadStorage reads the raw bytes of one storage after checking that the
// zip record can hold them.
func loadStorage(f *zip.File, key string, dt tensor.DType, numel int, fileSize int64) (*storage, error) {
	if f == nil {
		return nil, fmt.Errorf("storage %s: the archive has no data/%s record", key, key)
	}
	elem := dt.Size()
	if numel < 0 || numel > maxElems/elem {
		return nil, fmt.Errorf("storage %s: invalid size %d", key, numel)
	}
	need := uint64(numel) * uint64(elem)
	if f.UncompressedSize64 != need {
		return nil, fmt.Errorf("storage %s: %d %s elements need %d bytes, the record holds %d", key, numel, dt, need, f.UncompressedSize64)
	}
	// Bound the allocation by what the file can really deliver.
	limit := uint64(fileSize)
	if f.Method != zip.Store {
		limit *= deflateRatio
	}
	if f.CompressedSize64 > uint64(fileSize) || need > limit {
		return nil, fmt.Errorf("storage %s: record sizes are inconsistent with a file of %d bytes", key, fileSize)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("storage %s: %w", key, err)
	}
	defer rc.Close()
	data := make([]byte, need)
	if _, err := io.ReadFull(rc, data); err != nil {
		return nil, fmt.Errorf("storage %s: %w", key, err)
	}
	// Reading past the end verifies the record's checksum.
	var one [1]byte
	if n, err := rc.Read(one[:]); n != 0 || (err != nil && err != io.EOF) {
		if err == nil {
			err = errors.New("record longer than announced")
		}
		return nil, fmt.Errorf("storage %s: %w", key, err)
	}
	return &storage{dtype: dt, data: data, numel: numel}, nil
}

// materialize gathers the (possibly strided, offset) view into a dense
// tensor.
func (p *ptTensor) materialize() (*tensor.Tensor, error) {
	if err := viewBounds(p.size, p.stride, p.offset, p.st.numel); err != nil {
		return nil, err
	}
	dt, elem := p.st.dtype, p.st.dtype.Size()
	n := tensor.NumElements(p.size)
	if n > p.st.numel && n*elem > maxExpand {
		return nil, fmt.Errorf("view of shape %v (%d elements) is larger than its storage of %d elements and than %d bytes", p.size, n, p.st.numel, maxExpand)
	}
	shape := append([]int{}, p.size...)
	t := &tensor.Tensor{DType: dt, Shape: shape}
	if contiguous(p.size, p.stride) {
		if p.offset == 0 && n == p.st.numel {
			t.Data = p.st.data
		} else {
			t.Data = append([]byte(nil), p.st.data[p.offset*elem:(p.offset+n)*elem]...)
		}
	} else {
		t.Data = gather(p.st.data, elem, p.size, p.stride, p.offset)
	}
	normalizeBools(t)
	return t, nil
}

// contiguous reports whether strides are C-contiguous for shape (strides of
// size-1 dimensions do not matter).
func contiguous(shape, strides []int) bool {
	want := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] == 0 {
			return true
		}
		if shape[i] != 1 && strides[i] != want {
			return false
		}
		want *= shape[i]
	}
	return true
}
