package cpu

import (
	"slices"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The direct path of embedding, forward and backward. A language model's
// token embedding is the largest tensor of its step (GPT-2's vocabulary
// by d_model: 51 M elements), and the general path converts the whole
// weight to float64, zeroes a float64 gradient of the same size and
// converts it back, to read and write a few thousand rows. Here the
// forward copies the rows' bytes and the backward writes the gradient
// straight into the result memory: the rows that no index reads are
// zero, each row read once is grad·scale rounded once, and a row read
// several times sums its contributions in index order exactly as
// embeddingBackward does (in float64, rounded once at float32; rounded at
// every step at bfloat16). fastpath_embedding_test.go compares the bits
// with the general path.

// fastEmbedding runs an embedding call on the direct path when it
// qualifies: weight float32, float64 or bfloat16, int64 or int32 indices
// all in range, no HF32, no defect planted on embedding, and, with a
// backward, one output gradient of the output's dtype and shape. ok is
// false when the general path must run (which also reports PyTorch's
// errors).
func fastEmbedding(opts Options, req *device.ExecRequest) (res *device.ExecResult, ok bool) {
	if req.Op != "embedding" {
		return nil, false
	}
	b := fastBound(opts, req)
	if b == nil || len(b.Inputs) != 2 || b.Inputs[0].Kind != ops.KindTensor || b.Inputs[1].Kind != ops.KindTensor {
		return nil, false
	}
	w, idx := b.Inputs[0].Tensor, b.Inputs[1].Tensor
	dt := w.DType
	if dt != tensor.Float32 && dt != tensor.Float64 && dt != tensor.BFloat16 || len(w.Shape) != 2 ||
		idx.DType != tensor.Int64 && idx.DType != tensor.Int32 ||
		w.Validate() != nil || idx.Validate() != nil || !fastAligned(w) || !fastAligned(idx) {
		return nil, false
	}
	rows, d := w.Shape[0], w.Shape[1]
	index := make([]int, idx.Len())
	for i := range index {
		var v int64
		if idx.DType == tensor.Int64 {
			v = fastView[int64](idx)[i]
		} else {
			v = int64(fastView[int32](idx)[i])
		}
		if v < 0 || v >= int64(rows) {
			return nil, false
		}
		index[i] = int(v)
	}
	outShape := append(append([]int{}, idx.Shape...), d)
	var gradOut *tensor.Tensor
	wantGrad := false
	if req.Backward {
		wantGrad = len(req.RequiresGrad) > 0 && req.RequiresGrad[0]
		if len(req.GradOutputs) > 1 {
			return nil, false
		}
		if len(req.GradOutputs) == 1 && req.GradOutputs[0] != nil {
			gradOut = req.GradOutputs[0]
			if gradOut.DType != dt || !slices.Equal(gradOut.Shape, outShape) || gradOut.Validate() != nil || !fastAligned(gradOut) {
				return nil, false
			}
		}
	}

	sz := dt.Size()
	rowBytes := d * sz
	out := &tensor.Tensor{DType: dt, Shape: outShape, Data: opts.outputBytes(len(index) * rowBytes)}
	forChunks(len(index), func(from, to int) error {
		for i := from; i < to; i++ {
			copy(out.Data[i*rowBytes:(i+1)*rowBytes], w.Data[index[i]*rowBytes:(index[i]+1)*rowBytes])
		}
		return nil
	})
	res = &device.ExecResult{Outputs: []*tensor.Tensor{out}}
	if !req.Backward {
		return res, true
	}
	res.InputGrads = make([]*tensor.Tensor, len(req.Inputs))
	if !wantGrad {
		return res, true
	}
	gw := &tensor.Tensor{DType: dt, Shape: []int{rows, d}, Data: opts.outputBytes(rows * rowBytes)}
	forChunks(len(gw.Data), func(from, to int) error {
		clear(gw.Data[from:to])
		return nil
	})
	res.InputGrads[0] = gw
	if gradOut == nil || d == 0 {
		return res, true // a zero gradient, as the general path's
	}
	// hits[r]: how often row r is read (the padding row's reads left out
	// of the sums, not of scale_grad_by_freq's counts, as in
	// embeddingBackward).
	hits := make([]int32, rows)
	for _, r := range index {
		hits[r]++
	}
	pad := b.Attrs.Int("padding_idx", -1)
	byFreq := b.Attrs.Bool("scale_grad_by_freq", false)
	scaleOf := func(r int) float64 {
		if byFreq {
			return 1 / float64(hits[r])
		}
		return 1
	}
	switch dt {
	case tensor.Float64:
		g, dst := fastView[float64](gradOut), fastView[float64](gw)
		for i, r := range index {
			if int64(r) == pad {
				continue
			}
			s := scaleOf(r)
			row := dst[r*d : (r+1)*d]
			for j, gv := range g[i*d : (i+1)*d] {
				row[j] += gv * s
			}
		}
	case tensor.Float32:
		// Rows read more than once sum in float64 (slots of acc), as the
		// general path does before its one rounding.
		g, dst := fastView[float32](gradOut), fastView[float32](gw)
		slot := map[int]int{}
		for _, r := range index {
			if hits[r] > 1 && int64(r) != pad {
				if _, ok := slot[r]; !ok {
					slot[r] = len(slot)
				}
			}
		}
		acc := make([]float64, len(slot)*d)
		for i, r := range index {
			if int64(r) == pad {
				continue
			}
			s := scaleOf(r)
			gi := g[i*d : (i+1)*d]
			if k, ok := slot[r]; ok {
				a := acc[k*d : (k+1)*d]
				for j, gv := range gi {
					a[j] += float64(gv) * s
				}
				continue
			}
			row := dst[r*d : (r+1)*d]
			for j, gv := range gi {
				row[j] = float32(0 + float64(gv)*s)
			}
		}
		for r, k := range slot {
			row := dst[r*d : (r+1)*d]
			for j, v := range acc[k*d : (k+1)*d] {
				row[j] = float32(v)
			}
		}
	default:
		g, dst := fastView[uint16](gradOut), fastView[uint16](gw)
		for i, r := range index {
			if int64(r) == pad {
				continue
			}
			sc := scalarAt(tensor.BFloat16, scaleOf(r))
			row := dst[r*d : (r+1)*d]
			for j, gv := range g[i*d : (i+1)*d] {
				v := atDT(tensor.BFloat16, bf16Value(row[j])+atDT(tensor.BFloat16, bf16Value(gv)*sc))
				row[j] = tensor.BFloat16Bits(v)
			}
		}
	}
	return res, true
}
