package cpu

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Helpers shared by the neural-network kernels (nn_*.go). They are private
// to those files and prefixed nn so that they never clash with the
// elementwise/reduction helpers of the rest of the package.

// nnNotImpl is PyTorch's dispatch error for an unsupported dtype.
func nnNotImpl(kernelName string, d tensor.DType) error {
	return fmt.Errorf("%q not implemented for '%s'", kernelName, ops.TypeName(d))
}

// nnPromote returns the result dtype of the given tensors (nil entries are
// skipped) under PyTorch's promotion of same-category tensors: floats beat
// integers, wider beats narrower, float16 with bfloat16 gives float32,
// int8 with uint8 gives int16.
func nnPromote(arrs ...*array) tensor.DType {
	res := tensor.Invalid
	for _, a := range arrs {
		if a == nil {
			continue
		}
		res = ops.PromoteTypes(res, a.dtype)
	}
	return res
}

// nnFloatOnly checks that every non-nil array is a floating tensor and
// returns their promoted dtype; kernelName is PyTorch's kernel name used in
// its dispatch error.
func nnFloatOnly(kernelName string, arrs ...*array) (tensor.DType, error) {
	for _, a := range arrs {
		if a != nil && !a.dtype.IsFloat() {
			return tensor.Invalid, nnNotImpl(kernelName, a.dtype)
		}
	}
	return nnPromote(arrs...), nil
}

// nnNumeric checks that no array is bool (PyTorch's CPU BLAS and
// convolution kernels accept integer tensors, not bool) and returns the
// promoted dtype.
func nnNumeric(kernelName string, arrs ...*array) (tensor.DType, error) {
	for _, a := range arrs {
		if a != nil && !a.dtype.IsFloat() && !a.dtype.IsInt() {
			return tensor.Invalid, nnNotImpl(kernelName, a.dtype)
		}
	}
	return nnPromote(arrs...), nil
}

// nnBroadcastIndex maps every flat index of shape out to the flat index of
// a tensor of shape in that broadcasts to out (ops.BroadcastIndex, with the
// identity spelled out).
func nnBroadcastIndex(in, out []int) []int {
	if m := ops.BroadcastIndex(in, out); m != nil {
		return m
	}
	idx := make([]int, tensor.NumElements(out))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// nnNew returns a zero-filled array.
func nnNew(shape []int, d tensor.DType) *array {
	return &array{shape: append([]int{}, shape...), data: zeros(tensor.NumElements(shape)), dtype: d}
}

// nnGradFor returns a zero gradient buffer shaped like input i, or nil
// when input i takes no gradient (absent, not float, or not requiring grad).
func nnGradFor(c *call, i int) *array {
	if !nnWantsGrad(c, i) {
		return nil
	}
	return nnNew(c.in[i].shape, c.in[i].dtype)
}

// nnWantsGrad reports whether input i gets a gradient.
func nnWantsGrad(c *call, i int) bool {
	if i >= len(c.in) || c.in[i] == nil || !c.in[i].dtype.IsFloat() {
		return false
	}
	if i < len(c.requiresGrad) {
		return c.requiresGrad[i]
	}
	return true
}

// nnInput returns input i or nil when it is absent.
func nnInput(c *call, i int) *array {
	if i < len(c.in) {
		return c.in[i]
	}
	return nil
}

// nnNeed returns input i, or an error naming it when it is None.
func nnNeed(c *call, i int, name string) (*array, error) {
	a := nnInput(c, i)
	if a == nil {
		return nil, fmt.Errorf("argument '%s' must be a tensor, not None", name)
	}
	return a, nil
}

// nnGradOut returns gradient i of the outputs, or nil.
func nnGradOut(gradOuts []*array, i int) *array {
	if i < len(gradOuts) {
		return gradOuts[i]
	}
	return nil
}

// nnAllFinite reports whether x holds no NaN or infinity.
func nnAllFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// nnGemm computes C = op(A)·op(B) + (acc ? C : 0) for row-major float64
// matrices: op(A) is m×k (A stored k×m when transA), op(B) is k×n (B stored
// n×k when transB).
//
// Large products on CPUs with AVX2 and FMA go through gemmPacked and its
// assembly micro-kernel (~6× gonum's speed here); otherwise finite operands
// go through gonum's blocked, parallel dgemm. That dgemm
// skips zero elements of A, so with an Inf or NaN in B it would drop the
// NaN that 0·Inf gives in PyTorch's BLAS; such operands take a plain loop
// that forms every product.
func nnGemm(transA, transB bool, m, n, k int, a, b, c []float64, acc bool) {
	if m == 0 || n == 0 {
		return
	}
	if !acc {
		for i := range c[:m*n] {
			c[i] = 0
		}
	}
	if k == 0 {
		return
	}
	if gemmHasFMA && m*n*k >= gemmMinWork {
		gemmPacked(transA, transB, m, n, k, a, b, c, gemmKernelFMA)
		return
	}
	if nnAllFinite(a[:m*k]) && nnAllFinite(b[:k*n]) {
		ta, tb := blas.NoTrans, blas.NoTrans
		lda, ldb := k, n
		if transA {
			ta, lda = blas.Trans, m
		}
		if transB {
			tb, ldb = blas.Trans, k
		}
		beta := 0.0
		if acc {
			beta = 1
		}
		blas64.Gemm(ta, tb, 1,
			blas64.General{Rows: nnRows(transA, m, k), Cols: nnCols(transA, m, k), Stride: lda, Data: a},
			blas64.General{Rows: nnRows(transB, k, n), Cols: nnCols(transB, k, n), Stride: ldb, Data: b},
			beta, blas64.General{Rows: m, Cols: n, Stride: n, Data: c})
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*n : (i+1)*n]
		for l := 0; l < k; l++ {
			var av float64
			if transA {
				av = a[l*m+i]
			} else {
				av = a[i*k+l]
			}
			if transB {
				for j := range row {
					row[j] += av * b[j*k+l]
				}
			} else {
				brow := b[l*n : (l+1)*n]
				for j := range row {
					row[j] += av * brow[j]
				}
			}
		}
	}
}

func nnRows(trans bool, r, c int) int {
	if trans {
		return c
	}
	return r
}

func nnCols(trans bool, r, c int) int {
	if trans {
		return r
	}
	return c
}

// nnIntScale reads a scalar multiplier (alpha, beta) the way PyTorch applies
// it to integer tensors: truncated to an integer.
func nnIntScale(v float64, d tensor.DType) float64 {
	if d.IsFloat() {
		return v
	}
	return math.Trunc(v)
}

// nnExpandCheck checks that a tensor of shape in expands to shape target
// (the addmm/linear bias), with PyTorch's expand message.
func nnExpandCheck(in, target []int) error {
	if len(in) > len(target) {
		return fmt.Errorf("expand: the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", len(target), len(in))
	}
	for i := len(in) - 1; i >= 0; i-- {
		j := len(target) - len(in) + i
		if in[i] != 1 && in[i] != target[j] {
			return fmt.Errorf("The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
				target[j], in[i], j, ops.ShapeList(target), ops.ShapeList(in))
		}
	}
	return nil
}
