package cpu

// embedding_bag of the loss2 family: sums, means or maxima of weight rows
// over bags, as PyTorch 1.13's CPU kernel (EmbeddingBag.cpp) computes
// them: float32 and float16 bags accumulate in float32, row after row.

import (
	"fmt"
	"math"
	"slices"

	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("embedding_bag", &kernel{forward: loss2BagForward, backward: loss2BagBackward})
	supportDTypes("embedding_bag", tensor.Float64, tensor.Float32, tensor.Float16)
}

// loss2Bag is a checked embedding_bag call.
type loss2Bag struct {
	w, psw    *array
	idx       []int
	starts    []int // bag b is idx[starts[b]:ends[b]]
	ends      []int
	rows, dim int
	mode      string
	pad       int
	freq      bool
	acc       func(float64) float64 // rounding of the accumulator
	outShape  []int
}

func loss2NewBag(c *call) (*loss2Bag, error) {
	w, ix := c.in[0], c.in[1]
	off, psw := nnInput(c, 2), nnInput(c, 3)
	if w.dtype != tensor.Float64 && w.dtype != tensor.Float32 && w.dtype != tensor.Float16 {
		return nil, fmt.Errorf("Expected tensor for argument #1 'weight' to have one of the following scalar types: Half, Float, Double; but got CPU%sType instead (while checking arguments for embedding_bag)", loss2TypeName(w.dtype))
	}
	if len(w.shape) != 2 {
		return nil, fmt.Errorf("weight has to be a 2D Tensor, but got Tensor of dimension %d", len(w.shape))
	}
	if ix.dtype != tensor.Int64 && ix.dtype != tensor.Int32 {
		return nil, fmt.Errorf("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_bag)", loss2TypeName(ix.dtype))
	}
	b := &loss2Bag{w: w, psw: psw, rows: w.shape[0], dim: w.shape[1], mode: c.attrs.Str("mode", "mean"),
		pad: int(c.attrs.Int("padding_idx", -1)), freq: c.attrs.Bool("scale_grad_by_freq", false), acc: func(v float64) float64 { return v }}
	if w.dtype != tensor.Float64 {
		b.acc = loss2Rounder(tensor.Float32)
	}
	switch b.mode {
	case "sum", "mean", "max":
	default:
		return nil, fmt.Errorf("mode has to be one of sum, mean or max")
	}
	if psw != nil && b.mode != "sum" {
		return nil, fmt.Errorf("embedding_bag: per_sample_weights only supported with mode='sum'")
	}
	b.idx = make([]int, len(ix.data))
	for i, v := range ix.data {
		b.idx[i] = int(v)
	}
	for _, v := range b.idx {
		if v < 0 || v >= b.rows {
			return nil, fmt.Errorf("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be %d", v)
		}
	}
	n := len(b.idx)
	if off == nil {
		// 2-D indices: one bag a row
		if len(ix.shape) != 2 {
			return nil, fmt.Errorf("offsets has to be a 1D Tensor but got None")
		}
		L := ix.shape[1]
		for r := 0; r < ix.shape[0]; r++ {
			b.starts, b.ends = append(b.starts, r*L), append(b.ends, (r+1)*L)
		}
	} else {
		if len(ix.shape) != 1 {
			return nil, fmt.Errorf("input has to be 1D or 2D Tensor, but got Tensor of dimension %d", len(ix.shape))
		}
		if len(off.shape) != 1 {
			return nil, fmt.Errorf("offsets has to be a 1D Tensor")
		}
		o := make([]int, len(off.data))
		for i, v := range off.data {
			o[i] = int(v)
		}
		if len(o) > 0 && o[0] != 0 {
			return nil, fmt.Errorf("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got %d", o[0])
		}
		if len(o) > 0 && o[len(o)-1] > n {
			return nil, fmt.Errorf("offsets[-1] can not be greater than input's length %d but got offsets[-1] of %d", n, o[len(o)-1])
		}
		bags := len(o)
		last := c.attrs.Bool("include_last_offset", false)
		if last {
			if bags < 1 {
				return nil, fmt.Errorf("include_last_offset: number of offset should be at least 1")
			}
			bags--
		}
		for i := 0; i < bags; i++ {
			end := n
			if i+1 < len(o) {
				end = o[i+1]
			}
			b.starts, b.ends = append(b.starts, o[i]), append(b.ends, max(end, o[i]))
		}
	}
	if psw != nil && len(psw.data) != n {
		return nil, fmt.Errorf("embedding_bag: per_sample_weights has %d elements, indices %d", len(psw.data), n)
	}
	if b.pad < -1 || b.pad >= b.rows {
		return nil, fmt.Errorf("padding_idx must be within the number of embeddings, -%d through %d, but got %d", b.rows, b.rows-1, b.pad)
	}
	b.outShape = []int{len(b.starts), b.dim}
	return b, nil
}

// loss2TypeName is the C++ scalar name PyTorch prints in type errors
// (Half, BFloat16, Long...).
func loss2TypeName(d tensor.DType) string {
	switch d {
	case tensor.BFloat16:
		return "BFloat16"
	case tensor.Float16:
		return "Half"
	case tensor.Float32:
		return "Float"
	case tensor.Float64:
		return "Double"
	case tensor.Int64:
		return "Long"
	case tensor.Int32:
		return "Int"
	case tensor.Int16:
		return "Short"
	case tensor.Int8:
		return "Char"
	case tensor.Uint8:
		return "Byte"
	}
	return "Bool"
}

// count is the number of non-padding rows of bag k.
func (b *loss2Bag) count(k int) int {
	n := 0
	for i := b.starts[k]; i < b.ends[k]; i++ {
		if b.idx[i] != b.pad {
			n++
		}
	}
	return n
}

func loss2BagForward(c *call) ([]*array, error) {
	b, err := loss2NewBag(c)
	if err != nil {
		return nil, err
	}
	out := newArray(b.w.dtype, b.outShape)
	D := b.dim
	if b.mode == "max" {
		for k, r := range loss2BagMax(b) {
			if r >= 0 {
				out.data[k] = b.w.data[r*D+k%D]
			}
		}
		return []*array{out}, nil
	}
	forChunks(len(b.starts), func(from, to int) error {
		for k := from; k < to; k++ {
			row := out.data[k*D : (k+1)*D]
			for i := b.starts[k]; i < b.ends[k]; i++ {
				r := b.idx[i]
				if r == b.pad {
					continue
				}
				wr := b.w.data[r*D : (r+1)*D]
				if b.psw != nil {
					s := b.psw.data[i]
					for j, v := range wr {
						row[j] = b.acc(row[j] + b.acc(v*s))
					}
					continue
				}
				for j, v := range wr {
					row[j] = b.acc(row[j] + v)
				}
			}
			if b.mode == "mean" {
				if n := b.count(k); n > 0 {
					for j := range row {
						row[j] = b.acc(row[j] / float64(n))
					}
				}
			}
		}
		return nil
	})
	return []*array{out}, nil
}

func loss2BagBackward(c *call, outs, gos []*array) ([]*array, error) {
	b, err := loss2NewBag(c)
	if err != nil {
		return nil, err
	}
	res := make([]*array, len(c.in))
	g := nnGradOut(gos, 0)
	if g == nil {
		return res, nil
	}
	D := b.dim
	freq := map[int]int{}
	if b.freq {
		// PyTorch 1.13's _embedding_bag_dense_backward_cpu_sum_mean
		// divides the rows of the g-th distinct index (in sorted order) by
		// counts[sorted[g]], the count of the g-th sorted index rather than
		// the row's own
		counts := map[int]int{}
		for _, r := range b.idx {
			counts[r]++
		}
		sorted := append([]int(nil), b.idx...)
		slices.Sort(sorted)
		for i, g := 0, 0; i < len(sorted); g++ {
			v := sorted[i]
			freq[v] = counts[sorted[g]]
			for i < len(sorted) && sorted[i] == v {
				i++
			}
		}
	}
	gw := nnGradFor(c, 0)
	var gp *array
	if b.psw != nil {
		gp = nnGradFor(c, 3)
	}
	var maxIdx []int
	if b.mode == "max" {
		// recompute the maxima's rows
		maxIdx = loss2BagMax(b)
	}
	for k := range b.starts {
		gr := g.data[k*D : (k+1)*D]
		if b.mode == "max" {
			if gw != nil {
				for j := 0; j < D; j++ {
					if r := maxIdx[k*D+j]; r >= 0 {
						gw.data[r*D+j] += gr[j]
					}
				}
			}
			continue
		}
		n := b.count(k)
		for i := b.starts[k]; i < b.ends[k]; i++ {
			r := b.idx[i]
			if r == b.pad {
				continue
			}
			s := 1.0
			if b.psw != nil {
				s = b.psw.data[i]
			}
			if b.mode == "mean" {
				s /= float64(n)
			}
			if b.freq {
				s /= float64(freq[r])
			}
			if gw != nil {
				for j := 0; j < D; j++ {
					gw.data[r*D+j] += gr[j] * s
				}
			}
			if gp != nil {
				d := 0.0
				for j := 0; j < D; j++ {
					d += gr[j] * b.w.data[r*D+j]
				}
				gp.data[i] = d
			}
		}
	}
	res[0] = gw
	if gp != nil {
		res[3] = gp
	}
	return res, nil
}

// loss2BagMax returns, per bag and column, the row holding the maximum
// (the first one; −1 for an empty bag).
func loss2BagMax(b *loss2Bag) []int {
	D := b.dim
	mi := make([]int, len(b.starts)*D)
	best := make([]float64, D)
	for k := range b.starts {
		m := mi[k*D : (k+1)*D]
		for j := range m {
			m[j] = -1
		}
		for i := b.starts[k]; i < b.ends[k]; i++ {
			r := b.idx[i]
			if r == b.pad {
				continue
			}
			for j := 0; j < D; j++ {
				v := b.w.data[r*D+j]
				if m[j] < 0 || v > best[j] || (math.IsNaN(v) && !math.IsNaN(best[j])) {
					best[j], m[j] = v, r
				}
			}
		}
	}
	return mi
}
