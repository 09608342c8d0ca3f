// Package errordata implements `-save_error_data`: saving the inputs and
// outputs of APIs whose comparison failed (msprobe run_ut §4.11 of the
// PyTorch spec, §7.5 of the MindSpore spec).
//
// The values to save are given as trees of Node, which mirror the Python
// values msprobe walks (tensors, None, scalars, lists/tuples, dicts).
// Files are NumPy .npy files (format 1.0, little-endian, C order), not
// torch.save .pt files as msprobe writes for PyTorch: probe has no pickle
// writer, and .npy is what msprobe's MindSpore dumper writes. bfloat16
// tensors are saved as float32 (exactly, like MindSpore's dumper), since
// NumPy has no bfloat16.
package errordata

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Kind is the kind of a Node, named after the Python value it mirrors.
type Kind int

// Node kinds. The zero value is KindNone (Python None).
const (
	KindNone   Kind = iota // None
	KindBool               // bool
	KindInt                // int
	KindFloat              // float
	KindStr                // str
	KindSlice              // slice
	KindOther              // any other object (torch.dtype, Ellipsis, ...)
	KindTensor             // a tensor (Tensor; nil means "not available")
	KindList               // list or tuple (Elems)
	KindDict               // dict (Keys and Elems, parallel, in insertion order)
)

// Node is one value of a tree to save. Only Tensor nodes produce files;
// the scalar kinds carry no payload because only their position matters.
type Node struct {
	Kind Kind
	// Tensor is the data of a KindTensor node. A nil Tensor is skipped
	// (no file) but still consumes its index.
	Tensor *tensor.Tensor
	// Elems are the elements of a list or the values of a dict.
	Elems []Node
	// Keys are the keys of a dict, parallel to Elems.
	Keys []string
}

// Kwarg is one keyword argument, in call order.
type Kwarg struct {
	Name  string
	Value Node
}

// T returns a tensor node.
func T(t *tensor.Tensor) Node { return Node{Kind: KindTensor, Tensor: t} }

// L returns a list (or tuple) node.
func L(elems ...Node) Node { return Node{Kind: KindList, Elems: elems} }

// D returns a dict node; keys and vals must have the same length.
func D(keys []string, vals []Node) Node {
	if len(keys) != len(vals) {
		panic("errordata.D: keys and values differ in length")
	}
	return Node{Kind: KindDict, Keys: keys, Elems: vals}
}

// S returns a leaf node of the given non-container kind (None, bool, int,
// float, str, slice, other).
func S(k Kind) Node { return Node{Kind: k} }

// Indexed is a tensor of a walked tree with the index msprobe gives it.
type Indexed struct {
	Index  int
	Tensor *tensor.Tensor
}

// Walk assigns msprobe's indices (UtDataProcessor._save_recursive) to the
// tensors of n, starting at start: a depth-first walk over list/tuple
// elements and dict values where every tensor, None, bool, int, float,
// str, slice or unknown object consumes one index and containers consume
// none. It returns the tensors with their indices (nil tensors omitted)
// and the index after the walk.
func Walk(n Node, start int) ([]Indexed, int) {
	var out []Indexed
	next := walk(n, start, &out)
	return out, next
}

func walk(n Node, i int, out *[]Indexed) int {
	switch n.Kind {
	case KindList, KindDict:
		for _, e := range n.Elems {
			i = walk(e, i, out)
		}
		return i
	case KindTensor:
		if n.Tensor != nil {
			*out = append(*out, Indexed{Index: i, Tensor: n.Tensor})
		}
	}
	return i + 1
}

// FromArg converts a dumped argument descriptor to a Node, taking tensors
// from lookup (by Arg.Path; lookup may be nil or return nil, which gives a
// tensor node without data: it consumes its index but writes no file).
// torch.Size becomes a list of ints (it is a tuple subclass in Python);
// dtype, device, Ellipsis and unknown objects become KindOther.
func FromArg(a framework.Arg, lookup func(path string) *tensor.Tensor) Node {
	switch a.Kind {
	case framework.ArgNone:
		return S(KindNone)
	case framework.ArgTensor:
		n := Node{Kind: KindTensor}
		if lookup != nil {
			n.Tensor = lookup(a.Path)
		}
		return n
	case framework.ArgInt:
		return S(KindInt)
	case framework.ArgFloat:
		return S(KindFloat)
	case framework.ArgBool:
		return S(KindBool)
	case framework.ArgString:
		return S(KindStr)
	case framework.ArgSlice:
		return S(KindSlice)
	case framework.ArgList:
		elems := make([]Node, len(a.Elems))
		for i, e := range a.Elems {
			elems[i] = FromArg(e, lookup)
		}
		return L(elems...)
	case framework.ArgSize:
		elems := make([]Node, len(a.Ints))
		for i := range elems {
			elems[i] = S(KindInt)
		}
		return L(elems...)
	}
	return S(KindOther)
}
