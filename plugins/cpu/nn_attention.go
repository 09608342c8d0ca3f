package cpu

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// npu.fusion_attention: the float64 reference of torch_npu's
// npu_fusion_attention and MindSpore's flash_attention_score, after
// msprobe's bench (fused-ops.md §7, mindspore-precheck.md §5):
//
//	S = (Q·Kᵀ + pse)·scale − 40000·M      per batch b and query head h
//	P = softmax(S) over the key axis       (max-subtracted)
//	O = P·V                                back in the query's layout
//
// Q is [B, N1, S1, D], K and V are [B, N2, S2, D] once converted from the
// layout (BSH, SBH, BSND or BNSD); query head h reads kv head h / (N1/N2).
// The mask M (1 = masked) is the given atten_mask, or one built from
// sparse_mode and the pre/next tokens; its additive −40000 underflows to
// an exact 0 in float64 exp, and a fully masked row shifts uniformly, so
// such a row keeps its unmasked attention as in msprobe's reference,
// unless torch_npu zeroes it (semantics "official" with inner_precise 2,
// or sparse_mode 3 with S1 > S2: attnInvalidRows) or zero_masked_rows
// asks for it. The outputs are attention_out, softmax_max and
// softmax_sum ([B, N1, S1, 8], each row's max and exp-sum repeated 8
// times). Dropout (keep_prob < 1) cannot be reproduced and is refused.
//
// The backward is autograd of this forward for attention_out (msprobe's
// grad_index 0): dq, dk, dv (summed over the query heads sharing a kv
// head) and dpse (summed over its broadcast axes). Gradients given for
// softmax_max/softmax_sum are ignored, as the device's autograd does.

func init() {
	register("npu.fusion_attention", &kernel{forward: attnForward, backward: attnBackward})
	register("npu.fusion_attention_grad", &kernel{forward: attnGradForward})
}

// attnGradForward is npu_fusion_attention_grad: the backward of
// npu.fusion_attention for the gradient dy (input 3) of attention_out, as
// outputs (dq, dk, dv, dpse); dpse is zero-size without a pse.
func attnGradForward(c *call) ([]*array, error) {
	q, err := nnNeed(c, 0, "query")
	if err != nil {
		return nil, err
	}
	dy, err := nnNeed(c, 3, "dy")
	if err != nil {
		return nil, err
	}
	pse := nnInput(c, 4)
	if pse != nil && pse.rank() == 0 {
		pse = nil
	}
	sub := &call{op: "npu.fusion_attention", attrs: c.attrs, seed: c.seed,
		in:           []*array{q, nnInput(c, 1), nnInput(c, 2), pse, nnInput(c, 5)},
		requiresGrad: []bool{true, true, true, pse != nil, false}}
	for i, a := range sub.in[:3] {
		if a == nil {
			return nil, fmt.Errorf("npu_fusion_attention_grad: argument %d must be a tensor, not None", i)
		}
	}
	if !q.dtype.IsFloat() || !dy.dtype.IsFloat() {
		return nil, fmt.Errorf("npu_fusion_attention_grad: query and dy must be floating tensors, got %s and %s", ops.TypeName(q.dtype), ops.TypeName(dy.dtype))
	}
	g, err := attnBackward(sub, nil, []*array{dy})
	if err != nil {
		return nil, err
	}
	out := []*array{g[0], g[1], g[2], g[3]}
	for i := 0; i < 3; i++ {
		if out[i] == nil { // a non-float key or value
			return nil, fmt.Errorf("npu_fusion_attention_grad: key and value must be floating tensors")
		}
		out[i].dtype = q.dtype
	}
	if out[3] == nil {
		out[3] = nnNew([]int{0}, q.dtype)
	}
	out[3].dtype = q.dtype
	return out, nil
}

// attnMaskValue is the reference's additive mask constant.
const attnMaskValue = -40000.0

// attnCompressed is the side of the compressed causal mask of sparse
// modes 2, 3 and 4.
const attnCompressed = 2048

// attnDims are the sizes parse_bsnd_args derives.
type attnDims struct {
	B, S1, S2, N1, N2, D, H1, H2 int
}

// attnParseBSND derives the sizes from the query and key shapes, the head
// count and the layout, with the reference's checks.
func attnParseBSND(q, k []int, headNum int, layout string) (attnDims, error) {
	var d attnDims
	if headNum <= 0 {
		return d, fmt.Errorf("npu_fusion_attention: head_num must be positive, got %d", headNum)
	}
	want := map[string]int{"BSH": 3, "SBH": 3, "BSND": 4, "BNSD": 4}
	r, ok := want[layout]
	switch {
	case layout == "TND":
		return d, errors.New("npu_fusion_attention: input_layout TND is not supported")
	case !ok:
		return d, fmt.Errorf("npu_fusion_attention: input_layout %q is not one of BSH, SBH, BSND, BNSD, TND", layout)
	case len(q) != r || len(k) != r:
		return d, fmt.Errorf("npu_fusion_attention: input_layout %s needs %d-d query and key, got query %s and key %s", layout, r, ops.ShapeList(q), ops.ShapeList(k))
	}
	switch layout {
	case "BSH", "SBH":
		if layout == "BSH" {
			d.B, d.S1, d.H1, d.S2, d.H2 = q[0], q[1], q[2], k[1], k[2]
		} else {
			d.S1, d.B, d.H1, d.S2, d.H2 = q[0], q[1], q[2], k[0], k[2]
		}
		kb := k[0]
		if layout == "SBH" {
			kb = k[1]
		}
		if kb != d.B {
			return d, fmt.Errorf("npu_fusion_attention: query batch %d and key batch %d differ", d.B, kb)
		}
		d.N1 = headNum
		d.D = d.H1 / d.N1
		if d.D == 0 {
			return d, fmt.Errorf("npu_fusion_attention: head dim D = H1 / head_num = %d / %d is 0", d.H1, d.N1)
		}
		d.N2 = d.H2 / d.D
	case "BSND":
		d.B, d.S1, d.N1, d.D = q[0], q[1], q[2], q[3]
		d.S2, d.N2 = k[1], k[2]
		if k[0] != d.B || k[3] != d.D {
			return d, fmt.Errorf("npu_fusion_attention: query %s and key %s disagree on B or D", ops.ShapeList(q), ops.ShapeList(k))
		}
	case "BNSD":
		d.B, d.N1, d.S1, d.D = q[0], q[1], q[2], q[3]
		d.N2, d.S2 = k[1], k[2]
		if k[0] != d.B || k[3] != d.D {
			return d, fmt.Errorf("npu_fusion_attention: query %s and key %s disagree on B or D", ops.ShapeList(q), ops.ShapeList(k))
		}
	}
	if layout == "BSND" || layout == "BNSD" {
		d.H1, d.H2 = d.N1*d.D, d.N2*d.D
		if d.D == 0 {
			return d, errors.New("npu_fusion_attention: head dim D is 0")
		}
	}
	if d.N1 == 0 || d.N2 == 0 || d.N1%d.N2 != 0 || d.N1 < d.N2 {
		return d, fmt.Errorf("npu_fusion_attention: query heads N1 = %d and key heads N2 = %d do not match (N1 must be a multiple of N2)", d.N1, d.N2)
	}
	if d.H1 != d.N1*d.D || d.H2 != d.N2*d.D {
		return d, fmt.Errorf("npu_fusion_attention: hidden sizes H1 = %d, H2 = %d are not multiples of the head dim D = %d", d.H1, d.H2, d.D)
	}
	return d, nil
}

// attnLayoutShape is the shape of a tensor of n heads and s positions in
// the layout.
func attnLayoutShape(layout string, b, n, s, d int) []int {
	switch layout {
	case "BSH":
		return []int{b, s, n * d}
	case "SBH":
		return []int{s, b, n * d}
	case "BSND":
		return []int{b, s, n, d}
	}
	return []int{b, n, s, d}
}

// attnLayoutIndex is the flat index, in the layout, of element (b, n, s, d)
// of the BNSD form (H layouts are head-major: h = n·D + d).
func attnLayoutIndex(layout string, B, N, S, D, b, n, s, d int) int {
	switch layout {
	case "BSH", "BSND":
		return ((b*S+s)*N+n)*D + d
	case "SBH":
		return ((s*B+b)*N+n)*D + d
	}
	return ((b*N+n)*S+s)*D + d
}

// attnToBNSD converts data in the layout to BNSD order.
func attnToBNSD(x []float64, layout string, B, N, S, D int) []float64 {
	return attnRelayout(x, layout, B, N, S, D, true)
}

// attnFromBNSD converts BNSD data to the layout.
func attnFromBNSD(x []float64, layout string, B, N, S, D int) []float64 {
	return attnRelayout(x, layout, B, N, S, D, false)
}

// attnRelayout copies x between the layout and BNSD order, rows of D
// values at a time: into BNSD when toBNSD, out of it otherwise.
func attnRelayout(x []float64, layout string, B, N, S, D int, toBNSD bool) []float64 {
	out := make([]float64, B*N*S*D)
	if layout == "BNSD" {
		copy(out, x)
		return out
	}
	k := 0
	for b := 0; b < B; b++ {
		for n := 0; n < N; n++ {
			for s := 0; s < S; s++ {
				base := attnLayoutIndex(layout, B, N, S, D, b, n, s, 0)
				if toBNSD {
					copy(out[k:k+D], x[base:base+D])
				} else {
					copy(out[base:base+D], x[k:k+D])
				}
				k += D
			}
		}
	}
	return out
}

// attnBroadcastKV repeats each of the numKVHeads heads of a BNSD tensor
// numHeads/numKVHeads times (query head h uses kv head h / G).
func attnBroadcastKV(numHeads, numKVHeads int, kv *array) (*array, error) {
	if kv.rank() != 4 {
		return nil, fmt.Errorf("npu_fusion_attention: kv heads broadcast needs a 4-d BNSD tensor, got shape %s", ops.ShapeList(kv.shape))
	}
	if numKVHeads <= 0 || numHeads <= 0 || numHeads%numKVHeads != 0 || numHeads < numKVHeads {
		return nil, fmt.Errorf("npu_fusion_attention: cannot share %d kv heads among %d query heads", numKVHeads, numHeads)
	}
	if kv.shape[1] != numKVHeads {
		return nil, fmt.Errorf("npu_fusion_attention: kv tensor %s does not have %d heads", ops.ShapeList(kv.shape), numKVHeads)
	}
	B, S, D := kv.shape[0], kv.shape[2], kv.shape[3]
	g := numHeads / numKVHeads
	out := nnNew([]int{B, numHeads, S, D}, kv.dtype)
	blk := S * D
	for b := 0; b < B; b++ {
		for h := 0; h < numHeads; h++ {
			src := (b*numKVHeads + h/g) * blk
			copy(out.data[(b*numHeads+h)*blk:], kv.data[src:src+blk])
		}
	}
	return out, nil
}

// attnIsCompressedCausal reports whether m is the 2048×2048 compressed
// causal mask triu(ones, 1).
func attnIsCompressedCausal(m *array) bool {
	if m.rank() != 2 || m.shape[0] != attnCompressed || m.shape[1] != attnCompressed {
		return false
	}
	for i := 0; i < attnCompressed; i++ {
		row := m.data[i*attnCompressed : (i+1)*attnCompressed]
		for j, v := range row {
			if (v != 0) != (j > i) {
				return false
			}
		}
	}
	return true
}

// attnBand builds an [S1, S2] mask that masks j − i − shift > next and
// j − i − shift < −pre.
func attnBand(s1, s2 int, pre, next int64, shift int) *array {
	m := nnNew([]int{s1, s2}, tensor.Bool)
	for i := 0; i < s1; i++ {
		for j := 0; j < s2; j++ {
			r := int64(j - i - shift)
			if r > next || r < -pre {
				m.data[i*s2+j] = 1
			}
		}
	}
	return m
}

// attnTokens clamps a pre/next token count to the int32 range of the
// device attribute, so that −pre cannot overflow.
func attnTokens(v int64) int64 { return max(min(v, math.MaxInt32), math.MinInt32) }

// attnMask returns the mask applied to the scores (nonzero = masked): the
// given one, or the one the reference builds from sparse_mode; nil means
// nothing is masked. bottomRight anchors the mode-4 band at the
// bottom-right corner (torch_npu's documentation) instead of the top-left
// (msprobe's reference).
func attnMask(given *array, mode, s1, s2 int, pre, next int64, bottomRight bool) (*array, error) {
	if mode < 0 || mode > 8 {
		return nil, fmt.Errorf("npu_fusion_attention: sparse_mode %d is not in 0..8", mode)
	}
	band4 := func() *array {
		shift := 0
		if bottomRight {
			shift = s2 - s1
		}
		return attnBand(s1, s2, pre, next, shift)
	}
	if given != nil {
		if mode >= 2 && mode <= 4 && attnIsCompressedCausal(given) {
			switch mode {
			case 2:
				return attnBand(s1, s2, math.MaxInt64, 0, 0), nil
			case 3:
				return attnBand(s1, s2, math.MaxInt64, 0, s2-s1), nil
			default:
				return band4(), nil
			}
		}
		return given, nil
	}
	switch mode {
	case 0:
		return attnBand(s1, s2, pre, next, 0), nil
	case 1:
		return nnNew([]int{s1, s2}, tensor.Bool), nil
	case 2:
		return attnBand(s1, s2, math.MaxInt64, 0, 0), nil
	case 3:
		return attnBand(s1, s2, math.MaxInt64, 0, s2-s1), nil
	case 4:
		return band4(), nil
	}
	return nil, fmt.Errorf("npu_fusion_attention: sparse_mode %d needs an atten_mask", mode)
}

// attnView reads a tensor broadcast to [B, N1, S1, S2] one (b, h) block at
// a time without materialising the broadcast.
type attnView struct {
	a              *array
	sb, sn, si, sj int // strides in a's data (0 on broadcast axes)
	nonzero        bool
}

// newAttnView checks that a broadcasts to [B, N1, S1, S2].
func newAttnView(a *array, name string, B, N1, S1, S2 int) (*attnView, error) {
	target := []int{B, N1, S1, S2}
	if a.rank() > 4 {
		return nil, fmt.Errorf("npu_fusion_attention: %s of shape %s does not broadcast to %s", name, ops.ShapeList(a.shape), ops.ShapeList(target))
	}
	shape := make([]int, 4)
	for i := range shape {
		shape[i] = 1
	}
	copy(shape[4-a.rank():], a.shape)
	st := contiguousStrides(shape)
	for i := range shape {
		switch {
		case shape[i] == 1:
			st[i] = 0
		case shape[i] != target[i]:
			return nil, fmt.Errorf("npu_fusion_attention: %s of shape %s does not broadcast to %s", name, ops.ShapeList(a.shape), ops.ShapeList(target))
		}
	}
	v := &attnView{a: a, sb: st[0], sn: st[1], si: st[2], sj: st[3]}
	for _, x := range a.data {
		if x != 0 {
			v.nonzero = true
			break
		}
	}
	return v, nil
}

// index is the data index of element (b, h, i, j).
func (v *attnView) index(b, h, i, j int) int { return b*v.sb + h*v.sn + i*v.si + j*v.sj }

// attention is one validated call.
type attention struct {
	dims             attnDims
	layout           string
	q, k, v          []float64 // BNSD; k and v broadcast to the N1 query heads
	pse, mask        *attnView
	scale            float64
	zeroMasked       bool
	outDType, statDT tensor.DType
	qShape           []int
	// pseCompressed: pse was the compressed alibi form, expanded; it takes
	// no gradient
	pseCompressed bool
}

// attnAlibiExpand expands a compressed alibi pse [P, N, 1024, S2] (the last
// 1024 rows of an [P, N, S1, S2] pse constant along each diagonal, torch_npu's
// alibi compression for S1 > 1024) to the full pse: row i ≥ S1 − 1024 is
// compressed row i − (S1 − 1024); a row above reads its diagonal j − i in the
// first compressed row whose span holds it (columns past S2 − 1, which the
// lower-triangle masks exclude, repeat the last column).
func attnAlibiExpand(p *array, s1, s2 int) (*array, error) {
	const rows = 1024
	if p.rank() != 4 || p.shape[2] != rows || p.shape[3] != s2 || s1 <= rows {
		return nil, fmt.Errorf("npu_fusion_attention: a compressed alibi pse must be [B or 1, N, 1024, S2 = %d] with S1 > 1024, got %s for S1 = %d",
			s2, ops.ShapeList(p.shape), s1)
	}
	P, N := p.shape[0], p.shape[1]
	out := nnNew([]int{P, N, s1, s2}, p.dtype)
	r0 := s1 - rows
	for bn := 0; bn < P*N; bn++ {
		src, dst := p.data[bn*rows*s2:][:rows*s2], out.data[bn*s1*s2:][:s1*s2]
		for i := 0; i < s1; i++ {
			for j := 0; j < s2; j++ {
				r, c := i-r0, j
				if r < 0 { // above the compressed rows: the same diagonal j − i
					r = max(0, i-r0-j)
					c = min(s2-1, j-i+r0+r)
				}
				dst[i*s2+j] = src[r*s2+c]
			}
		}
	}
	return out, nil
}

func attnSetup(c *call) (*attention, error) {
	q, err := nnNeed(c, 0, "query")
	if err != nil {
		return nil, err
	}
	k, err := nnNeed(c, 1, "key")
	if err != nil {
		return nil, err
	}
	v, err := nnNeed(c, 2, "value")
	if err != nil {
		return nil, err
	}
	pse, mask := nnInput(c, 3), nnInput(c, 4)
	dt, err := nnFloatOnly("npu_fusion_attention", q, k, v, pse)
	if err != nil {
		return nil, err
	}
	if kp := c.attrs.Float("keep_prob", 1); kp != 1 {
		if kp <= 0 || kp > 1 {
			return nil, fmt.Errorf("npu_fusion_attention: keep_prob must be in (0, 1], got %g", kp)
		}
		return nil, errors.New("keep_prob < 1 is not supported: the device's dropout mask cannot be reproduced")
	}
	layout := c.attrs.Str("input_layout", "")
	dims, err := attnParseBSND(q.shape, k.shape, int(c.attrs.Int("head_num", 0)), layout)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(k.shape, v.shape) {
		return nil, fmt.Errorf("npu_fusion_attention: key %s and value %s must have the same shape", ops.ShapeList(k.shape), ops.ShapeList(v.shape))
	}
	a := &attention{dims: dims, layout: layout, scale: c.attrs.Float("scale", 1), zeroMasked: c.attrs.Bool("zero_masked_rows", false),
		outDType: dt, statDT: tensor.Float32, qShape: q.shape}
	if dt == tensor.Float64 {
		a.statDT = tensor.Float64
	}
	a.q = attnToBNSD(q.data, layout, dims.B, dims.N1, dims.S1, dims.D)
	kvShape := []int{dims.B, dims.N2, dims.S2, dims.D}
	kb, err := attnBroadcastKV(dims.N1, dims.N2, &array{shape: kvShape, data: attnToBNSD(k.data, layout, dims.B, dims.N2, dims.S2, dims.D), dtype: dt})
	if err != nil {
		return nil, err
	}
	vb, err := attnBroadcastKV(dims.N1, dims.N2, &array{shape: kvShape, data: attnToBNSD(v.data, layout, dims.B, dims.N2, dims.S2, dims.D), dtype: dt})
	if err != nil {
		return nil, err
	}
	a.k, a.v = kb.data, vb.data
	if pse != nil && pse.rank() > 0 {
		if c.attrs.Str("pse_layout", "full") == "alibi_compressed" {
			if pse, err = attnAlibiExpand(pse, dims.S1, dims.S2); err != nil {
				return nil, err
			}
			a.pseCompressed = true
		}
		if a.pse, err = newAttnView(pse, "pse", dims.B, dims.N1, dims.S1, dims.S2); err != nil {
			return nil, err
		}
	}
	anchor := c.attrs.Str("band_anchor", "top_left")
	if anchor != "top_left" && anchor != "bottom_right" {
		return nil, fmt.Errorf("npu_fusion_attention: band_anchor must be \"top_left\" or \"bottom_right\", got %q", anchor)
	}
	if mask != nil && mask.rank() == 0 {
		mask = nil // the reference ignores a 0-d mask
	}
	mode := int(c.attrs.Int("sparse_mode", 0))
	pre, next := attnTokens(c.attrs.Int("pre_tockens", math.MaxInt32)), attnTokens(c.attrs.Int("next_tockens", math.MaxInt32))
	var m *array
	switch sem := c.attrs.Str("semantics", "official"); sem {
	case "official":
		m, err = attnOfficialMask(mask, mode, dims.B, dims.S1, dims.S2, pre, next, anchor == "bottom_right", attnInts(c, "prefix"))
		a.zeroMasked = a.zeroMasked || attnInvalidRows(c.attrs.Int("inner_precise", 0), mode, dims.S1, dims.S2)
	case "msprobe":
		m, err = attnMask(mask, mode, dims.S1, dims.S2, pre, next, anchor == "bottom_right")
	default:
		err = fmt.Errorf("npu_fusion_attention: semantics must be \"official\" or \"msprobe\", got %q", sem)
	}
	if err != nil || m == nil {
		return a, err
	}
	if a.mask, err = newAttnView(m, "atten_mask", dims.B, dims.N1, dims.S1, dims.S2); err != nil {
		return nil, err
	}
	if !a.mask.nonzero {
		a.mask = nil
	}
	return a, nil
}

// attnInvalidRows reports whether torch_npu zeroes the fully masked query
// rows of a call ("invalid-row computation"): with inner_precise 2, and
// where the kernel can tell that such rows exist, as sparse_mode 3 with
// S1 > S2 whose first S1 − S2 rows see no key (torch_npu's documentation;
// 0 and 1 are reserved values). A zeroed row has zero probabilities, so
// a zero output and no gradient through it; its softmax_max and
// softmax_sum stay the statistics of its masked scores.
func attnInvalidRows(innerPrecise int64, mode, s1, s2 int) bool {
	return innerPrecise == 2 || (mode == 3 && s1 > s2)
}

// attnInts reads an optional ints attribute (nil when None or absent).
func attnInts(c *call, name string) []int64 {
	if !c.attrs.Has(name) || c.attrs.IsNone(name) {
		return nil
	}
	return c.attrs.Ints(name, nil)
}

// attnOfficialMask is the mask torch_npu documents for sparse_mode (the
// ops-transformer sparse-mode note): mode 0 masks nothing without a mask
// and adds the pre/next band (anchored top-left) to a given one; mode 1
// uses the given mask; modes 2, 3 and 4 build left-up causal, right-down
// causal and the pre/next band (anchored where bottomRight says) whatever
// the given mask, which is their compressed 2048×2048 form; mode 5 uses
// the given mask, or builds the prefix mask; mode 6 builds the prefix mask
// (right-down causal plus the first prefix[b] columns of batch b visible).
// Modes 7 and 8 exist only per batch of a TND call (attnVarlen). nil means
// nothing is masked.
func attnOfficialMask(given *array, mode, B, s1, s2 int, pre, next int64, bottomRight bool, prefix []int64) (*array, error) {
	band := func(pre, next int64, shift int) *array { return attnBand(s1, s2, pre, next, shift) }
	prefixMask := func() (*array, error) {
		if len(prefix) != B {
			return nil, fmt.Errorf("npu_fusion_attention: sparse_mode %d needs one prefix length per batch (%d), got %d", mode, B, len(prefix))
		}
		m := nnNew([]int{B, 1, s1, s2}, tensor.Bool)
		for b := 0; b < B; b++ {
			for i := 0; i < s1; i++ {
				for j := 0; j < s2; j++ {
					if j > i+s2-s1 && int64(j) >= prefix[b] {
						m.data[(b*s1+i)*s2+j] = 1
					}
				}
			}
		}
		return m, nil
	}
	switch mode {
	case 0:
		if given == nil {
			return nil, nil
		}
		return attnUnion(given, band(pre, next, 0), s1, s2)
	case 1:
		return given, nil
	case 2:
		return band(math.MaxInt64, 0, 0), nil
	case 3:
		return band(math.MaxInt64, 0, s2-s1), nil
	case 4:
		shift := 0
		if bottomRight {
			shift = s2 - s1
		}
		return band(pre, next, shift), nil
	case 5:
		if given != nil {
			return given, nil
		}
		return prefixMask()
	case 6:
		return prefixMask()
	case 7, 8:
		return nil, fmt.Errorf("npu_fusion_attention: sparse_mode %d needs input_layout TND", mode)
	}
	return nil, fmt.Errorf("npu_fusion_attention: sparse_mode %d is not in 0..8", mode)
}

// attnUnion is given ∪ band, given broadcast to [.., S1, S2]; given itself
// when the band masks nothing.
func attnUnion(given, band *array, s1, s2 int) (*array, error) {
	empty := true
	for _, v := range band.data {
		if v != 0 {
			empty = false
			break
		}
	}
	if empty {
		return given, nil
	}
	shape, err := ops.BroadcastShapes(given.shape, []int{s1, s2})
	if err != nil {
		return nil, fmt.Errorf("npu_fusion_attention: atten_mask of shape %s does not broadcast to [%d, %d]", ops.ShapeList(given.shape), s1, s2)
	}
	out := nnNew(shape, tensor.Bool)
	at := ops.BroadcastIndex(given.shape, shape)
	for i := range out.data {
		j := i
		if at != nil {
			j = at[i]
		}
		if given.data[j] != 0 || band.data[i%(s1*s2)] != 0 {
			out.data[i] = 1
		}
	}
	return out, nil
}

// headScores computes the masked scores (Q·Kᵀ + pse)·scale − 40000·M of
// batch b and query head h into s ([S1, S2]); masked[i] reports whether row
// i is fully masked.
func (a *attention) headScores(b, h int, s []float64, masked []bool) {
	d := a.dims
	qh := a.q[(b*d.N1+h)*d.S1*d.D:][:d.S1*d.D]
	kk := a.k[(b*d.N1+h)*d.S2*d.D:][:d.S2*d.D]
	nnGemm(false, true, d.S1, d.S2, d.D, qh, kk, s, false)
	for i := 0; i < d.S1; i++ {
		row := s[i*d.S2 : (i+1)*d.S2]
		if a.pse != nil {
			for j := range row {
				row[j] += a.pse.a.data[a.pse.index(b, h, i, j)]
			}
		}
		all := a.mask != nil && d.S2 > 0
		for j := range row {
			row[j] *= a.scale
			if a.mask != nil && a.mask.a.data[a.mask.index(b, h, i, j)] != 0 {
				row[j] += attnMaskValue
			} else {
				all = false
			}
		}
		masked[i] = all
	}
}

// attnSoftmaxRows turns each row of s (rows of n values) into its softmax
// in place and returns each row's max and exp-sum in rowMax and rowSum.
func attnSoftmaxRows(s []float64, n int, rowMax, rowSum []float64) {
	for i := range rowMax {
		row := s[i*n : (i+1)*n]
		m := math.Inf(-1)
		for _, x := range row {
			if x > m || math.IsNaN(x) {
				m = x
			}
		}
		sum := 0.0
		for j, x := range row {
			row[j] = math.Exp(x - m)
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum
		}
		rowMax[i], rowSum[i] = m, sum
	}
}

// headProbs computes the attention probabilities P of batch b and query
// head h into s, with each row's max and exp-sum.
func (a *attention) headProbs(b, h int, s, rowMax, rowSum []float64, masked []bool) {
	a.headScores(b, h, s, masked)
	attnSoftmaxRows(s, a.dims.S2, rowMax, rowSum)
	if !a.zeroMasked {
		return
	}
	for i, m := range masked {
		if m {
			clear(s[i*a.dims.S2 : (i+1)*a.dims.S2])
		}
	}
}

func attnForward(c *call) ([]*array, error) {
	if c.attrs.Str("input_layout", "") == "TND" {
		return attnVarlen(c, nil)
	}
	a, err := attnSetup(c)
	if err != nil {
		return nil, err
	}
	d := a.dims
	o := make([]float64, d.B*d.N1*d.S1*d.D)
	smax := nnNew([]int{d.B, d.N1, d.S1, 8}, a.statDT)
	ssum := nnNew([]int{d.B, d.N1, d.S1, 8}, a.statDT)
	bufs := make([]*attnBuf, attnWorkers(d, true))
	attnEachHead(d, len(bufs), func(w, b, h int) {
		buf := attnBufFor(bufs, w, d, false)
		s, rowMax, rowSum := buf.p, buf.rowMax, buf.rowSum
		a.headProbs(b, h, s, rowMax, rowSum, buf.masked)
		vv := a.v[(b*d.N1+h)*d.S2*d.D:][:d.S2*d.D]
		nnGemm(false, false, d.S1, d.D, d.S2, s, vv, o[(b*d.N1+h)*d.S1*d.D:][:d.S1*d.D], false)
		for i := 0; i < d.S1; i++ {
			base := ((b*d.N1+h)*d.S1 + i) * 8
			for r := 0; r < 8; r++ {
				smax.data[base+r] = rowMax[i]
				ssum.data[base+r] = rowSum[i]
			}
		}
	})
	out := &array{shape: attnLayoutShape(a.layout, d.B, d.N1, d.S1, d.D), data: attnFromBNSD(o, a.layout, d.B, d.N1, d.S1, d.D), dtype: a.outDType}
	return []*array{out, smax, ssum}, nil
}

func attnBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gq, gk, gv, gp := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2), nnGradFor(c, 3)
	res := []*array{gq, gk, gv, gp, nil}
	dy := nnGradOut(gradOuts, 0)
	if dy == nil || (gq == nil && gk == nil && gv == nil && gp == nil) {
		return res, nil
	}
	if c.attrs.Str("input_layout", "") == "TND" {
		return attnVarlen(c, dy)
	}
	a, err := attnSetup(c)
	if err != nil {
		return nil, err
	}
	d := a.dims
	if !slices.Equal(dy.shape, a.qShape) {
		return nil, fmt.Errorf("npu_fusion_attention: gradient of attention_out has shape %s, want %s", ops.ShapeList(dy.shape), ops.ShapeList(a.qShape))
	}
	if gp != nil && (a.pse == nil || a.pseCompressed) {
		res[3], gp = nil, nil // a 0-d pse is ignored by the forward; a compressed one takes no gradient
	}
	dO := attnToBNSD(dy.data, a.layout, d.B, d.N1, d.S1, d.D)
	// Gradients per query head; dk and dv are summed over the query heads
	// that share a kv head at the end.
	dq := make([]float64, len(a.q))
	dk := make([]float64, len(a.k))
	dv := make([]float64, len(a.v))
	// The pse gradient may be shared by several heads (broadcast pse): its
	// heads then run one after the other.
	bufs := make([]*attnBuf, attnWorkers(d, gp == nil))
	attnEachHead(d, len(bufs), func(w, b, h int) {
		buf := attnBufFor(bufs, w, d, true)
		p, dp := buf.p, buf.dp
		{
			a.headProbs(b, h, p, buf.rowMax, buf.rowSum, buf.masked)
			qOff, kOff := (b*d.N1+h)*d.S1*d.D, (b*d.N1+h)*d.S2*d.D
			dOh := dO[qOff:][:d.S1*d.D]
			// dV = Pᵀ·dO; dP = dO·Vᵀ; dS = scale·P ⊙ (dP − Σ_j dP ⊙ P).
			nnGemm(true, false, d.S2, d.D, d.S1, p, dOh, dv[kOff:][:d.S2*d.D], false)
			nnGemm(false, true, d.S1, d.S2, d.D, dOh, a.v[kOff:][:d.S2*d.D], dp, false)
			for i := 0; i < d.S1; i++ {
				pr, dr := p[i*d.S2:(i+1)*d.S2], dp[i*d.S2:(i+1)*d.S2]
				dot := 0.0
				for j := range pr {
					dot += pr[j] * dr[j]
				}
				for j := range pr {
					dr[j] = pr[j] * (dr[j] - dot) * a.scale
				}
				if gp != nil {
					for j := range dr {
						gp.data[a.pse.index(b, h, i, j)] += dr[j]
					}
				}
			}
			// dQ = dS·K; dK = dSᵀ·Q (dS carries the scale).
			nnGemm(false, false, d.S1, d.D, d.S2, dp, a.k[kOff:][:d.S2*d.D], dq[qOff:][:d.S1*d.D], false)
			nnGemm(true, false, d.S2, d.D, d.S1, dp, a.q[qOff:][:d.S1*d.D], dk[kOff:][:d.S2*d.D], false)
		}
	})
	if gq != nil {
		gq.data = attnFromBNSD(dq, a.layout, d.B, d.N1, d.S1, d.D)
	}
	if gk != nil {
		gk.data = attnFromBNSD(attnReduceKV(dk, d), a.layout, d.B, d.N2, d.S2, d.D)
	}
	if gv != nil {
		gv.data = attnFromBNSD(attnReduceKV(dv, d), a.layout, d.B, d.N2, d.S2, d.D)
	}
	return res, nil
}

// attnReduceKV sums a BNSD gradient of the N1 broadcast kv heads back to
// the N2 kv heads: the gradient of attnBroadcastKV.
func attnReduceKV(g []float64, d attnDims) []float64 {
	if d.N1 == d.N2 {
		return g
	}
	grp, blk := d.N1/d.N2, d.S2*d.D
	out := make([]float64, d.B*d.N2*blk)
	for b := 0; b < d.B; b++ {
		for h := 0; h < d.N1; h++ {
			dst := out[(b*d.N2+h/grp)*blk:][:blk]
			for i, x := range g[(b*d.N1+h)*blk:][:blk] {
				dst[i] += x
			}
		}
	}
	return out
}

// attnBuf holds one worker's per-head scratch: the [S1, S2] probabilities
// (and their gradient in backward), each row's max and exp-sum, and which
// rows are fully masked.
type attnBuf struct {
	p, dp          []float64
	rowMax, rowSum []float64
	masked         []bool
}

// attnBufFor returns worker w's scratch, allocating it on first use (dp
// only for backward).
func attnBufFor(bufs []*attnBuf, w int, d attnDims, backward bool) *attnBuf {
	if bufs[w] == nil {
		bufs[w] = &attnBuf{p: make([]float64, d.S1*d.S2),
			rowMax: make([]float64, d.S1), rowSum: make([]float64, d.S1), masked: make([]bool, d.S1)}
		if backward {
			bufs[w].dp = make([]float64, d.S1*d.S2)
		}
	}
	return bufs[w]
}

// attnWorkers is how many heads run at once: one when not parallel, else
// up to GOMAXPROCS, bounded by the head count and by the memory of two
// [S1, S2] scratch matrices per worker (at most ~1 GiB in all).
func attnWorkers(d attnDims, parallel bool) int {
	if !parallel {
		return 1
	}
	per := max(1, 16*d.S1*d.S2) // forward needs half of it
	return max(1, min(runtime.GOMAXPROCS(0), d.B*d.N1, (1<<30)/per))
}

// attnEachHead calls fn(worker, b, h) for every batch b and query head h on
// workers goroutines. Heads write disjoint parts of the results, so the
// results do not depend on the number of workers.
func attnEachHead(d attnDims, workers int, fn func(w, b, h int)) {
	if workers <= 1 {
		for b := 0; b < d.B; b++ {
			for h := 0; h < d.N1; h++ {
				fn(0, b, h)
			}
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for bh := range next {
				fn(w, bh/d.N1, bh%d.N1)
			}
		}(w)
	}
	for bh := 0; bh < d.B*d.N1; bh++ {
		next <- bh
	}
	close(next)
	wg.Wait()
}

// attnVarlen runs a TND call (variable-length batches packed along T):
// batch b is the query rows [cq[b−1], cq[b]) and the key/value rows
// [ck[b−1], ck[b]) of actual_seq_qlen/kvlen (cumulative ends), attended
// independently as a BSND call of one batch. sparse_mode 7 is right-down
// causal (3) except the last non-empty batch, a band of pre/next anchored
// bottom-right; 8 is left-up causal (2) except the first non-empty batch,
// the same band (the ops-transformer sparse-mode note). The given mask is
// the compressed causal form and is not read. With dy nil it returns the
// forward (attention_out [T1, N1, D], softmax_max and softmax_sum
// [T1, N1, 8]); otherwise the gradients of q, k and v for the gradient dy
// of attention_out.
func attnVarlen(c *call, dy *array) ([]*array, error) {
	q, err := nnNeed(c, 0, "query")
	if err != nil {
		return nil, err
	}
	k, err := nnNeed(c, 1, "key")
	if err != nil {
		return nil, err
	}
	v, err := nnNeed(c, 2, "value")
	if err != nil {
		return nil, err
	}
	if q.rank() != 3 || k.rank() != 3 || !slices.Equal(k.shape, v.shape) || k.shape[2] != q.shape[2] {
		return nil, fmt.Errorf("npu_fusion_attention: TND needs query [T1, N1, D] and key, value [T2, N2, D], got %s, %s, %s",
			ops.ShapeList(q.shape), ops.ShapeList(k.shape), ops.ShapeList(v.shape))
	}
	if p := nnInput(c, 3); p != nil && p.rank() > 0 {
		return nil, errors.New("npu_fusion_attention: pse with input_layout TND is not supported")
	}
	cq, ck := attnInts(c, "actual_seq_qlen"), attnInts(c, "actual_seq_kvlen")
	if len(cq) == 0 || len(cq) != len(ck) {
		return nil, fmt.Errorf("npu_fusion_attention: TND needs actual_seq_qlen and actual_seq_kvlen of one length, got %d and %d", len(cq), len(ck))
	}
	for _, e := range []struct {
		name string
		ends []int64
		t    int
	}{{"actual_seq_qlen", cq, q.shape[0]}, {"actual_seq_kvlen", ck, k.shape[0]}} {
		prev := int64(0)
		for _, x := range e.ends {
			if x < prev {
				return nil, fmt.Errorf("npu_fusion_attention: %s %v must be cumulative (non-decreasing) row ends", e.name, e.ends)
			}
			prev = x
		}
		if prev != int64(e.t) {
			return nil, fmt.Errorf("npu_fusion_attention: %s %v must end at T = %d", e.name, e.ends, e.t)
		}
	}
	if dy != nil && !slices.Equal(dy.shape, q.shape) {
		return nil, fmt.Errorf("npu_fusion_attention: gradient of attention_out has shape %s, want %s", ops.ShapeList(dy.shape), ops.ShapeList(q.shape))
	}
	B, n1, n2, d := len(cq), q.shape[1], k.shape[1], q.shape[2]
	mode := int(c.attrs.Int("sparse_mode", 0))
	prefix := attnInts(c, "prefix")
	if mode == 6 && len(prefix) != B {
		return nil, fmt.Errorf("npu_fusion_attention: sparse_mode 6 needs one prefix length per batch (%d), got %d", B, len(prefix))
	}
	// the batch that is a band in modes 7 (last non-empty) and 8 (first)
	bandBatch := -1
	for b := 0; b < B; b++ {
		if cq[b]-attnEnd(cq, b-1) > 0 && (mode == 7 || bandBatch < 0) {
			bandBatch = b
		}
	}
	mask := nnInput(c, 4)
	if mask != nil && mask.rank() > 0 && (mode == 0 || mode == 1) {
		return nil, fmt.Errorf("npu_fusion_attention: an explicit atten_mask with input_layout TND and sparse_mode %d is not supported", mode)
	}
	var outs []*array
	if dy == nil {
		outs = []*array{nnNew(q.shape, q.dtype), nnNew([]int{q.shape[0], n1, 8}, tensor.Float32), nnNew([]int{q.shape[0], n1, 8}, tensor.Float32)}
		if q.dtype == tensor.Float64 {
			outs[1].dtype, outs[2].dtype = tensor.Float64, tensor.Float64
		}
	} else {
		outs = []*array{nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2), nil, nil}
	}
	rows := func(a *array, lo, hi int64, n int) *array {
		return &array{shape: []int{1, int(hi - lo), n, d}, data: a.data[int(lo)*n*d : int(hi)*n*d], dtype: a.dtype}
	}
	for b := 0; b < B; b++ {
		q0, q1, k0, k1 := attnEnd(cq, b-1), cq[b], attnEnd(ck, b-1), ck[b]
		if q1 == q0 {
			continue
		}
		attrs := ops.Attrs{}
		for name, a := range c.attrs {
			attrs[name] = a
		}
		attrs["input_layout"] = ops.StringAttr("BSND")
		delete(attrs, "actual_seq_qlen")
		delete(attrs, "actual_seq_kvlen")
		bm := mode
		switch {
		case (mode == 7 || mode == 8) && b == bandBatch:
			bm = 4
			attrs["band_anchor"] = ops.StringAttr("bottom_right")
		case mode == 7:
			bm = 3
		case mode == 8:
			bm = 2
		}
		attrs["sparse_mode"] = ops.IntAttr(int64(bm))
		if mode == 6 {
			attrs["prefix"] = ops.IntsAttr(prefix[b])
		}
		sub := &call{op: c.op, attrs: attrs, requiresGrad: c.requiresGrad, seed: c.seed,
			in: []*array{rows(q, q0, q1, n1), rows(k, k0, k1, n2), rows(v, k0, k1, n2), nil, nil}}
		if dy == nil {
			o, err := attnForward(sub)
			if err != nil {
				return nil, fmt.Errorf("batch %d: %w", b, err)
			}
			copy(outs[0].data[int(q0)*n1*d:], o[0].data)
			// [1, N1, S1_b, 8] → rows [S1_b, N1, 8]
			s1 := int(q1 - q0)
			for h := 0; h < n1; h++ {
				for i := 0; i < s1; i++ {
					src, dst := (h*s1+i)*8, ((int(q0)+i)*n1+h)*8
					copy(outs[1].data[dst:dst+8], o[1].data[src:src+8])
					copy(outs[2].data[dst:dst+8], o[2].data[src:src+8])
				}
			}
			continue
		}
		g, err := attnBackward(sub, nil, []*array{rows(dy, q0, q1, n1)})
		if err != nil {
			return nil, fmt.Errorf("batch %d: %w", b, err)
		}
		for i, lo := range []int64{q0, k0, k0} {
			n := n1
			if i > 0 {
				n = n2
			}
			if outs[i] != nil && g[i] != nil {
				copy(outs[i].data[int(lo)*n*d:], g[i].data)
			}
		}
	}
	return outs, nil
}

// attnEnd is ends[b], 0 before the first batch.
func attnEnd(ends []int64, b int) int64 {
	if b < 0 {
		return 0
	}
	return ends[b]
}
