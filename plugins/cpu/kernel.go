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
