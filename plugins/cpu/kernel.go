package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// array is the working form of a tensor inside kernels: float64 values in
// row-major order, with the dtype the result will have once rounded. Integer
// and bool data are exact in float64 up to 2^53.
type array struct {
	shape []int
	data  []float64
	dtype tensor.DType
	// scalar marks a Python number operand (ops.Scalar): it takes part in
	// type promotion as a "wrapped number".
	scalar     bool
	scalarKind ops.ScalarKind
}

func (a *array) len() int { return tensor.NumElements(a.shape) }

// call is one kernel invocation.
type call struct {
	op    string
	attrs ops.Attrs
	// in has one entry per op input; nil for a None input.
	in []*array
	// requiresGrad has one entry per input.
	requiresGrad []bool
	seed         uint64
	// emulated: the device runs in Emulated mode, where matrix products
	// of float32 operands are summed in float32 as PyTorch's CPU does
	// (gemmDT); the bench forms them in float64 whatever the dtypes (a
	// policy may send it float32 operands: msprobe's keeps conv's).
	emulated bool
	// saved is what a forward leaves for the backward of the same call
	// (the kernel's own type; nil when the forward saved nothing).
	saved any
}

// kernel implements one canonical op in float64.
//
// forward returns the outputs with their PyTorch result dtypes set; values
// are exact float64 results (the device wrapper rounds them to the dtype).
//
// backward, when not nil, receives the forward outputs and one gradient per
// output (nil for an output without gradient) and returns one gradient per
// input (nil where the input takes none); gradients have the input's shape.
type kernel struct {
	forward  func(c *call) ([]*array, error)
	backward func(c *call, outs, gradOuts []*array) ([]*array, error)
}

var kernels = map[string]*kernel{}

// register adds the kernel of a canonical op; it panics on a duplicate or an
// op that sdk/ops does not define, so mistakes fail at start-up.
func register(op string, k *kernel) {
	if _, ok := ops.Lookup(op); !ok {
		panic(fmt.Sprintf("cpu: kernel for unknown op %q", op))
	}
	if _, dup := kernels[op]; dup {
		panic(fmt.Sprintf("cpu: kernel %q registered twice", op))
	}
	kernels[op] = k
}

// ---- helpers shared by every kernel file ----

// newArray returns a zero-filled array of the given dtype and shape.
func newArray(dt tensor.DType, shape []int) *array {
	return &array{shape: append([]int{}, shape...), data: zeros(tensor.NumElements(shape)), dtype: dt}
}

// clone returns a deep copy of a (a nil array stays nil).
func (a *array) clone() *array {
	if a == nil {
		return nil
	}
	return &array{shape: append([]int{}, a.shape...), data: append([]float64{}, a.data...), dtype: a.dtype, scalar: a.scalar, scalarKind: a.scalarKind}
}

// rank is the number of dimensions (0 for a 0-d tensor or a scalar).
func (a *array) rank() int { return len(a.shape) }

// contiguousStrides returns the row-major element strides of shape.
func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// normDim maps a possibly negative dim into [0, rank) with PyTorch's error
// message. A 0-d tensor accepts dims 0 and -1 (PyTorch wraps them as rank 1).
func normDim(dim int64, rank int) (int, error) {
	r := int64(rank)
	if r == 0 {
		r = 1
	}
	if dim < -r || dim >= r {
		return 0, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -r, r-1, dim)
	}
	if dim < 0 {
		dim += r
	}
	return int(dim), nil
}

// dtypeAttr reads an optional dtype attribute (short name or torch spelling);
// ok is false when it is absent or None.
func dtypeAttr(c *call, name string) (dt tensor.DType, ok bool, err error) {
	if c.attrs.IsNone(name) {
		return tensor.Invalid, false, nil
	}
	s := c.attrs.Str(name, "")
	dt, err = tensor.Parse(s)
	if err != nil {
		return tensor.Invalid, false, fmt.Errorf("attribute %s: %v", name, err)
	}
	return dt, true, nil
}

// opDTypes holds the dtypes a kernel declares beyond the default float set
// (see supportDTypes); Describe reports them.
var opDTypes = map[string][]tensor.DType{}

// floatDTypes are the dtypes every kernel supports unless it says otherwise.
var floatDTypes = []tensor.DType{tensor.Float64, tensor.Float32, tensor.Float16, tensor.BFloat16}

// intDTypes are the integer dtypes plus bool.
var intDTypes = []tensor.DType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Bool}

// supportDTypes records the input dtypes op accepts, for Describe; ops that
// never call it are described with the four float dtypes.
func supportDTypes(op string, dts ...tensor.DType) {
	opDTypes[op] = append([]tensor.DType(nil), dts...)
}
