package cpu

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// ---- multi_head_attention ----
//
// F.multi_head_attention_forward of PyTorch 1.13 (torch/nn/functional.py)
// composed from the registered kernels in the order its Python code runs
// them, every intermediate a tensor of the query's dtype (rounded by
// opRounder): the three in-projections (linear), bias_k/bias_v appended
// (cat), the heads split (views), static_k/static_v, the zero position of
// add_zero_attn, the merged mask, q / sqrt(head_dim) (div by a Python
// float), baddbmm (or bmm without a mask), softmax, bmm, the out
// projection (linear) and the weights' head average (sum, div). The
// backward is autograd through the same steps. float16 has no CPU addmm,
// bmm or softmax in PyTorch 1.13: it is emulated in float32 (rounded to
// float16 once, at the outputs and the gradients).

// The inputs of multi_head_attention (sdk/ops/schema_mha.go).
const (
	mhaQuery = iota
	mhaKey
	mhaValue
	mhaInW
	mhaInB
	mhaBiasK
	mhaBiasV
	mhaOutW
	mhaOutB
	mhaKPM
	mhaAttnMask
	mhaQW
	mhaKW
	mhaVW
	mhaStaticK
	mhaStaticV
	mhaInputs
)

type mha struct {
	c        *call
	in       [mhaInputs]*array // float16 read as float32
	dt, outT tensor.DType      // compute dtype, query's dtype
	r        func(float64) float64
	batched  bool
	avg      bool
	weights  bool

	L, N, E, H, hd int
	s0             int // key positions (before bias_k)
	query3         *array
	key3, value3   *array
	wq, wk, wv     *array
	bq, bk, bv     *array
	qp, kp, vp     *array // projections (L, N, E), (S0, N, E)
	kc, vc         *array // with bias_k/bias_v appended
	qh, qs         *array // (N·H, L, hd), and scaled
	kh, vh, kT     *array // (N·H, S, hd), kᵀ (N·H, hd, S)
	mask           *array // float mask at dt, broadcast to (N·H, L, S)
	logits, p      *array // (N·H, L, S)
	o              *array // (N·H, L, hd)
	oc             *array // (L·N, E)
	psum           *array // p.view(N, H, L, S).sum(1)
	out, w         *array // the outputs
}

func (m *mha) round(a *array) *array {
	if m.dt == tensor.Float64 {
		return a
	}
	for i, v := range a.data {
		a.data[i] = m.r(v)
	}
	a.dtype = m.dt
	return a
}

// fwd runs a registered kernel's forward and rounds its output.
func (m *mha) fwd(op string, attrs ops.Attrs, in ...*array) (*array, error) {
	outs, err := kernels[op].forward(&call{op: op, attrs: attrs, in: in, requiresGrad: make([]bool, len(in))})
	if err != nil {
		return nil, err
	}
	return m.round(outs[0]), nil
}

// bwd runs a registered kernel's backward (rg: which inputs want a
// gradient) and rounds the gradients.
func (m *mha) bwd(back func(*call, []*array, []*array) ([]*array, error), op string, attrs ops.Attrs, in []*array, rg []bool,
	outs []*array, g *array) ([]*array, error) {
	gs, err := back(&call{op: op, attrs: attrs, in: in, requiresGrad: rg}, outs, []*array{g})
	if err != nil {
		return nil, err
	}
	for i, a := range gs {
		if a != nil && i < len(rg) && rg[i] {
			gs[i] = m.round(a)
		} else {
			gs[i] = nil
		}
	}
	return gs, nil
}

// pyTuple prints ints as a Python tuple.
func pyTuple(v ...int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	if len(v) == 1 {
		return "(" + s[0] + ",)"
	}
	return "(" + strings.Join(s, ", ") + ")"
}

func mhaView(a *array, shape ...int) *array {
	return &array{shape: shape, data: a.data, dtype: a.dtype}
}

// mhaChunk3 is t.chunk(3) (dim 0) unpacked into three tensors.
func mhaChunk3(t *array) ([3]*array, error) {
	var res [3]*array
	n := 0
	if t.rank() > 0 {
		n = t.shape[0]
	}
	c := (n + 2) / 3
	if t.rank() == 0 || c == 0 || (n+c-1)/c < 3 {
		got := 0
		if c > 0 {
			got = (n + c - 1) / c
		}
		if t.rank() == 0 {
			return res, errors.New("chunk expects at least a 1-dimensional tensor")
		}
		return res, fmt.Errorf("not enough values to unpack (expected 3, got %d)", got)
	}
	inner := len(t.data) / n
	for i := 0; i < 3; i++ {
		lo, hi := i*c, min((i+1)*c, n)
		shape := append([]int{hi - lo}, t.shape[1:]...)
		res[i] = &array{shape: shape, data: t.data[lo*inner : hi*inner], dtype: t.dtype}
	}
	return res, nil
}

// mhaHeads is x (T, N, H·hd).contiguous().view(T, N·H, hd).transpose(0, 1)
// made contiguous: (N·H, T, hd).
func mhaHeads(x *array, T, NH, hd int) *array {
	out := &array{shape: []int{NH, T, hd}, data: make([]float64, T*NH*hd), dtype: x.dtype}
	for t := 0; t < T; t++ {
		for b := 0; b < NH; b++ {
			copy(out.data[(b*T+t)*hd:(b*T+t+1)*hd], x.data[(t*NH+b)*hd:(t*NH+b+1)*hd])
		}
	}
	return out
}

// mhaUnheads is the inverse of mhaHeads: (N·H, T, hd) to (T, N·H·hd).
func mhaUnheads(g *array, T, NH, hd int, shape []int) *array {
	out := &array{shape: shape, data: make([]float64, T*NH*hd), dtype: g.dtype}
	for t := 0; t < T; t++ {
		for b := 0; b < NH; b++ {
			copy(out.data[(t*NH+b)*hd:(t*NH+b+1)*hd], g.data[(b*T+t)*hd:(b*T+t+1)*hd])
		}
	}
	return out
}

// mhaAppendZero is torch.cat([x, zeros(B, 1, hd)], dim=1).
func mhaAppendZero(x *array) *array {
	B, T, hd := x.shape[0], x.shape[1], x.shape[2]
	out := &array{shape: []int{B, T + 1, hd}, data: make([]float64, B*(T+1)*hd), dtype: x.dtype}
	for b := 0; b < B; b++ {
		copy(out.data[b*(T+1)*hd:], x.data[b*T*hd:(b+1)*T*hd])
	}
	return out
}

// mhaDropLast is cat's backward for mhaAppendZero: the gradient of x.
func mhaDropLast(g *array) *array {
	B, T, hd := g.shape[0], g.shape[1]-1, g.shape[2]
	out := &array{shape: []int{B, T, hd}, data: make([]float64, B*T*hd), dtype: g.dtype}
	for b := 0; b < B; b++ {
		copy(out.data[b*T*hd:(b+1)*T*hd], g.data[b*(T+1)*hd:])
	}
	return out
}

// mhaPadLast is F.pad(x, (0, 1)): one zero (False) appended to the last
// dimension.
func mhaPadLast(x *array) *array {
	n := x.rank()
	S := x.shape[n-1]
	rows := len(x.data) / max(S, 1)
	if S == 0 {
		rows = tensor.NumElements(x.shape[:n-1])
	}
	shape := append([]int{}, x.shape...)
	shape[n-1] = S + 1
	out := &array{shape: shape, data: make([]float64, rows*(S+1)), dtype: x.dtype}
	for i := 0; i < rows; i++ {
		copy(out.data[i*(S+1):], x.data[i*S:(i+1)*S])
	}
	return out
}

func torchDType(d tensor.DType) string { return "torch." + d.String() }

func newMHA(c *call) (*mha, error) {
	m := &mha{c: c}
	for i := 0; i < mhaInputs; i++ {
		a := nnInput(c, i)
		if a != nil && a.dtype == tensor.Float16 {
			a = &array{shape: a.shape, data: a.data, dtype: tensor.Float32}
		}
		m.in[i] = a
	}
	q, k, v := m.in[mhaQuery], m.in[mhaKey], m.in[mhaValue]
	if q == nil || k == nil || v == nil || m.in[mhaOutW] == nil {
		return nil, errors.New("multi_head_attention_forward: query, key, value and out_proj_weight must be tensors")
	}
	m.outT = c.in[mhaQuery].dtype
	m.dt = q.dtype
	if !m.dt.IsFloat() {
		return nil, fmt.Errorf("multi_head_attention_forward: query of dtype %s: expected a floating point tensor", torchDType(m.dt))
	}
	m.r = opRounder(m.dt)
	a := c.attrs
	H := int(a.Int("num_heads", 0))
	m.H = H
	m.avg = a.Bool("average_attn_weights", true)
	m.weights = a.Bool("need_weights", true)
	kpm, am := m.in[mhaKPM], m.in[mhaAttnMask]
	// _mha_shape_check
	switch q.rank() {
	case 3:
		m.batched = true
		if k.rank() != 3 || v.rank() != 3 {
			return nil, fmt.Errorf("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found %d-D and %d-D tensors respectively", k.rank(), v.rank())
		}
		if kpm != nil && kpm.rank() != 2 {
			return nil, fmt.Errorf("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but found %d-D tensor instead", kpm.rank())
		}
		if am != nil && am.rank() != 2 && am.rank() != 3 {
			return nil, fmt.Errorf("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found %d-D tensor instead", am.rank())
		}
	case 2:
		if k.rank() != 2 || v.rank() != 2 {
			return nil, fmt.Errorf("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found %d-D and %d-D tensors respectively", k.rank(), v.rank())
		}
		if kpm != nil && kpm.rank() != 1 {
			return nil, fmt.Errorf("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but found %d-D tensor instead", kpm.rank())
		}
		if am != nil && am.rank() != 2 && am.rank() != 3 {
			return nil, fmt.Errorf("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found %d-D tensor instead", am.rank())
		}
		if am != nil && am.rank() == 3 && !slices.Equal(am.shape, []int{H, q.shape[0], k.shape[0]}) {
			return nil, fmt.Errorf("Expected `attn_mask` shape to be %s but got %s", pyTuple(H, q.shape[0], k.shape[0]), lossSize(am.shape))
		}
	default:
		return nil, fmt.Errorf("query should be unbatched 2D or batched 3D tensor but received %d-D query tensor", q.rank())
	}
	unsq := func(x *array) *array {
		if x == nil || m.batched {
			return x
		}
		return mhaView(x, x.shape[0], 1, x.shape[1])
	}
	q, k, v = unsq(q), unsq(k), unsq(v)
	if kpm != nil && !m.batched {
		kpm = mhaView(kpm, 1, kpm.shape[0])
	}
	m.query3, m.key3, m.value3 = q, k, v
	m.L, m.N, m.E = q.shape[0], q.shape[1], q.shape[2]
	m.s0 = k.shape[0]
	if kpm != nil && kpm.dtype != tensor.Bool && !kpm.dtype.IsFloat() {
		return nil, errors.New("only bool and floating types of key_padding_mask are supported")
	}
	if e := int(a.Int("embed_dim_to_check", 0)); e != m.E {
		return nil, fmt.Errorf("was expecting embedding dimension of %d, but got %d", e, m.E)
	}
	if H == 0 {
		return nil, errors.New("integer division or modulo by zero")
	}
	m.hd = int(math.Floor(float64(m.E) / float64(H)))
	if m.hd*H != m.E {
		return nil, fmt.Errorf("embed_dim %d not divisible by num_heads %d", m.E, H)
	}
	if H < 0 {
		return nil, fmt.Errorf("multi_head_attention_forward: num_heads %d must be positive", H)
	}
	separate := a.Bool("use_separate_proj_weight", false)
	if separate {
		if !slices.Equal(k.shape[:2], v.shape[:2]) {
			return nil, fmt.Errorf("key's sequence and batch dims %s do not match value's %s", lossSize(k.shape[:2]), lossSize(v.shape[:2]))
		}
	} else if !slices.Equal(k.shape, v.shape) {
		return nil, fmt.Errorf("key shape %s does not match value shape %s", lossSize(k.shape), lossSize(v.shape))
	}
	if p := a.Float("dropout_p", 0); p > 0 && a.Bool("training", true) {
		return nil, fmt.Errorf("multi_head_attention_forward: dropout_p %v with training=True drops attention weights at random: only dropout_p=0 or training=False is checked", p)
	}
	if err := m.sameDType(); err != nil {
		return nil, err
	}
	if err := m.project(separate); err != nil {
		return nil, err
	}
	if err := m.attend(); err != nil {
		return nil, err
	}
	return m, nil
}

// sameDType requires the projection tensors at the query's dtype, as the
// products do.
func (m *mha) sameDType() error {
	for _, i := range []int{mhaKey, mhaValue, mhaInW, mhaInB, mhaBiasK, mhaBiasV, mhaOutW, mhaOutB, mhaQW, mhaKW, mhaVW, mhaStaticK, mhaStaticV} {
		if a := m.in[i]; a != nil && a.dtype != m.dt {
			return fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(m.dt), ops.TypeName(a.dtype))
		}
	}
	return nil
}

// project forms the in-projections and the heads of q, k and v.
func (m *mha) project(separate bool) error {
	E, Eq := m.E, m.E
	var bs [3]*array
	if b := m.in[mhaInB]; b != nil {
		ch, err := mhaChunk3(b)
		if err != nil {
			return err
		}
		bs = ch
	}
	m.bq, m.bk, m.bv = bs[0], bs[1], bs[2]
	if !separate {
		w := m.in[mhaInW]
		if w == nil {
			return errors.New("use_separate_proj_weight is False but in_proj_weight is None")
		}
		ws, err := mhaChunk3(w)
		if err != nil {
			return err
		}
		m.wq, m.wk, m.wv = ws[0], ws[1], ws[2]
	} else {
		for _, x := range []struct {
			i    int
			name string
		}{{mhaQW, "q_proj_weight"}, {mhaKW, "k_proj_weight"}, {mhaVW, "v_proj_weight"}} {
			if m.in[x.i] == nil {
				return fmt.Errorf("use_separate_proj_weight is True but %s is None", x.name)
			}
		}
		m.wq, m.wk, m.wv = m.in[mhaQW], m.in[mhaKW], m.in[mhaVW]
		Ek, Ev := m.key3.shape[2], m.value3.shape[2]
		for _, x := range []struct {
			w    *array
			what string
			in   int
		}{{m.wq, "query", Eq}, {m.wk, "key", Ek}, {m.wv, "value", Ev}} {
			if !slices.Equal(x.w.shape, []int{Eq, x.in}) {
				return fmt.Errorf("expecting %s weights shape of %s, but got %s", x.what, pyTuple(Eq, x.in), lossSize(x.w.shape))
			}
		}
		for _, x := range []struct {
			b    *array
			what string
		}{{m.bq, "query"}, {m.bk, "key"}, {m.bv, "value"}} {
			if x.b != nil && !slices.Equal(x.b.shape, []int{Eq}) {
				return fmt.Errorf("expecting %s bias shape of %s, but got %s", x.what, pyTuple(Eq), lossSize(x.b.shape))
			}
		}
	}
	var err error
	lin := func(x, w, b *array) (*array, error) { return m.fwd("linear", nil, x, w, b) }
	if m.qp, err = lin(m.query3, m.wq, m.bq); err != nil {
		return err
	}
	if m.kp, err = lin(m.key3, m.wk, m.bk); err != nil {
		return err
	}
	if m.vp, err = lin(m.value3, m.wv, m.bv); err != nil {
		return err
	}
	_ = E
	return nil
}

// attnMask is the attention mask after the dtype and shape checks, 3-D,
// bool or float (nil: none).
func (m *mha) attnMask() (*array, error) {
	am := m.in[mhaAttnMask]
	if am == nil {
		return nil, nil
	}
	switch {
	case am.dtype == tensor.Uint8:
		b := &array{shape: am.shape, data: make([]float64, len(am.data)), dtype: tensor.Bool}
		for i, x := range am.data {
			if x != 0 {
				b.data[i] = 1
			}
		}
		am = b
	case am.dtype != tensor.Bool && !am.dtype.IsFloat():
		return nil, fmt.Errorf("Only float, byte, and bool types are supported for attn_mask, not %s", torchDType(am.dtype))
	}
	L, S := m.L, m.s0
	switch am.rank() {
	case 2:
		if !slices.Equal(am.shape, []int{L, S}) {
			return nil, fmt.Errorf("The shape of the 2D attn_mask is %s, but should be %s.", lossSize(am.shape), pyTuple(L, S))
		}
		am = mhaView(am, 1, L, S)
	case 3:
		if !slices.Equal(am.shape, []int{m.N * m.H, L, S}) {
			return nil, fmt.Errorf("The shape of the 3D attn_mask is %s, but should be %s.", lossSize(am.shape), pyTuple(m.N*m.H, L, S))
		}
	default:
		return nil, fmt.Errorf("attn_mask's dimension %d is not supported", am.rank())
	}
	return am, nil
}

// mhaCatBias is torch.cat([x, b.repeat(1, N, 1)]) for x (T, N, E) and b
// (1, 1, E).
func mhaCatBias(x, b *array) (*array, error) {
	T, N, E := x.shape[0], x.shape[1], x.shape[2]
	if b.rank() != 3 || b.shape[0] != 1 || b.shape[1] != 1 || b.shape[2] != E {
		return nil, fmt.Errorf("multi_head_attention_forward: bias_k and bias_v of shape %s: only (1, 1, %d) is supported", lossSize(b.shape), E)
	}
	out := &array{shape: []int{T + 1, N, E}, data: make([]float64, (T+1)*N*E), dtype: x.dtype}
	copy(out.data, x.data)
	for n := 0; n < N; n++ {
		copy(out.data[(T*N+n)*E:], b.data)
	}
	return out, nil
}

func (m *mha) attend() error {
	N, H, L, hd := m.N, m.H, m.L, m.hd
	B := N * H
	am, err := m.attnMask()
	if err != nil {
		return err
	}
	kpm := m.in[mhaKPM]
	if kpm != nil && !m.batched {
		kpm = mhaView(kpm, 1, kpm.shape[0])
	}
	sk, sv := m.in[mhaStaticK], m.in[mhaStaticV]
	bk, bv := m.in[mhaBiasK], m.in[mhaBiasV]
	m.kc, m.vc = m.kp, m.vp
	switch {
	case bk != nil && bv != nil:
		if sk != nil {
			return errors.New("bias cannot be added to static key.")
		}
		if sv != nil {
			return errors.New("bias cannot be added to static value.")
		}
		if m.kc, err = mhaCatBias(m.kp, bk); err != nil {
			return err
		}
		if m.vc, err = mhaCatBias(m.vp, bv); err != nil {
			return err
		}
		if am != nil {
			am = mhaPadLast(am)
		}
		if kpm != nil {
			kpm = mhaPadLast(kpm)
		}
	case bk != nil || bv != nil:
		return errors.New("multi_head_attention_forward: bias_k and bias_v must both be given or both be None (assert bias_k is None)")
	}
	if m.qp.shape[2] != m.E || m.kc.shape[2] != m.E || m.vc.shape[2] != m.E {
		return fmt.Errorf("shape '[%d, %d, %d]' is invalid for input of size %d", m.kc.shape[0], B, hd, len(m.kc.data))
	}
	m.qh = mhaHeads(m.qp, L, B, hd)
	staticHeads := func(s *array, name string) (*array, error) {
		if s.rank() != 3 {
			return nil, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got 2)", -max(s.rank(), 1), max(s.rank(), 1)-1)
		}
		if s.shape[0] != B {
			return nil, fmt.Errorf("expecting %s.size(0) of %d, but got %d", name, B, s.shape[0])
		}
		if s.shape[2] != hd {
			return nil, fmt.Errorf("expecting %s.size(2) of %d, but got %d", name, hd, s.shape[2])
		}
		return s, nil
	}
	if sk == nil {
		m.kh = mhaHeads(m.kc, m.kc.shape[0], B, hd)
	} else if m.kh, err = staticHeads(sk, "static_k"); err != nil {
		return err
	}
	if sv == nil {
		m.vh = mhaHeads(m.vc, m.vc.shape[0], B, hd)
	} else if m.vh, err = staticHeads(sv, "static_v"); err != nil {
		return err
	}
	if m.c.attrs.Bool("add_zero_attn", false) {
		m.kh, m.vh = mhaAppendZero(m.kh), mhaAppendZero(m.vh)
		if am != nil {
			am = mhaPadLast(am)
		}
		if kpm != nil {
			kpm = mhaPadLast(kpm)
		}
	}
	S := m.kh.shape[1]
	if kpm != nil {
		if !slices.Equal(kpm.shape, []int{N, S}) {
			return fmt.Errorf("expecting key_padding_mask shape of %s, but got %s", pyTuple(N, S), lossSize(kpm.shape))
		}
		// view(N, 1, 1, S).expand(-1, H, -1, -1).reshape(N·H, 1, S)
		e := &array{shape: []int{B, 1, S}, data: make([]float64, B*S), dtype: kpm.dtype}
		for b := 0; b < B; b++ {
			copy(e.data[b*S:], kpm.data[(b/H)*S:(b/H+1)*S])
		}
		switch {
		case am == nil:
			am = e
		case am.dtype == tensor.Bool:
			am, err = mhaMaskOr(am, e)
		case e.dtype != tensor.Bool:
			return errors.New("multi_head_attention_forward: a floating key_padding_mask with a floating attn_mask: PyTorch 1.13's masked_fill reads the float mask's bytes as booleans; not emulated")
		default:
			am, err = mhaMaskFill(am, e)
		}
		if err != nil {
			return err
		}
	}
	if am != nil {
		// bool → zeros of q's dtype with −inf; a float mask is copied into
		// baddbmm's result (q's dtype)
		f := &array{shape: am.shape, data: make([]float64, len(am.data)), dtype: m.dt}
		for i, x := range am.data {
			switch {
			case am.dtype == tensor.Bool && x != 0:
				f.data[i] = math.Inf(-1)
			case am.dtype != tensor.Bool:
				f.data[i] = m.r(x)
			}
		}
		m.mask = f
	}
	m.qs, err = m.fwd("div", mhaDivAttrs, m.qh, mhaFloat(math.Sqrt(float64(hd))))
	if err != nil {
		return err
	}
	m.kT = sdpaTranspose(m.kh)
	if m.mask != nil {
		m.logits, err = m.fwd("baddbmm", mhaBaddAttrs, m.mask, m.qs, m.kT)
	} else {
		m.logits, err = m.fwd("bmm", nil, m.qs, m.kT)
	}
	if err != nil {
		return err
	}
	m.p, err = m.fwd("softmax", mhaSoftmaxAttrs, m.logits)
	return err
}

// mhaMaskOr is a.logical_or(b), broadcast.
func mhaMaskOr(a, b *array) (*array, error) {
	shape, err := ops.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	ia, ib := nnBroadcastIndex(a.shape, shape), nnBroadcastIndex(b.shape, shape)
	out := &array{shape: shape, data: make([]float64, tensor.NumElements(shape)), dtype: tensor.Bool}
	for i := range out.data {
		if a.data[ia[i]] != 0 || b.data[ib[i]] != 0 {
			out.data[i] = 1
		}
	}
	return out, nil
}

// mhaMaskFill is a.masked_fill(b, −inf) for a float a and a bool b,
// broadcast.
func mhaMaskFill(a, b *array) (*array, error) {
	shape, err := ops.BroadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, err
	}
	ia, ib := nnBroadcastIndex(a.shape, shape), nnBroadcastIndex(b.shape, shape)
	out := &array{shape: shape, data: make([]float64, tensor.NumElements(shape)), dtype: a.dtype}
	for i := range out.data {
		out.data[i] = a.data[ia[i]]
		if b.data[ib[i]] != 0 {
			out.data[i] = math.Inf(-1)
		}
	}
	return out, nil
}

// finish forms the attention output, the out projection and the
// weights.
func (m *mha) finish() error {
	N, H, L, E, hd := m.N, m.H, m.L, m.E, m.hd
	B := N * H
	var err error
	if m.o, err = m.fwd("bmm", nil, m.p, m.vh); err != nil {
		return err
	}
	// transpose(0, 1).contiguous().view(L·N, E)
	m.oc = mhaUnheads(m.o, L, B, hd, []int{L * N, E})
	out, err := m.fwd("linear", nil, m.oc, m.in[mhaOutW], m.in[mhaOutB])
	if err != nil {
		return err
	}
	eo := out.shape[1]
	out.shape = []int{L, N, eo}
	if !m.batched {
		out.shape = []int{L, eo}
	}
	m.out = out
	S := m.p.shape[2]
	w := &array{shape: []int{0}, data: []float64{}, dtype: m.dt}
	if m.weights {
		w = mhaView(m.p, N, H, L, S)
		if m.avg {
			if m.psum, err = m.fwd("sum", mhaSumAttrs, w); err != nil {
				return err
			}
			if w, err = m.fwd("div", mhaDivAttrs, m.psum, mhaInt(H)); err != nil {
				return err
			}
		} else {
			w = &array{shape: w.shape, data: append([]float64(nil), w.data...), dtype: w.dtype}
		}
		if !m.batched {
			w.shape = w.shape[1:]
		}
	}
	m.w = w
	return nil
}

var (
	mhaSoftmaxAttrs = ops.Attrs{"dim": ops.IntAttr(-1), "dtype": ops.NoneAttr()}
	mhaSumAttrs     = ops.Attrs{"dim": ops.IntsAttr(1), "keepdim": ops.BoolAttr(false), "dtype": ops.NoneAttr()}
	mhaDivAttrs     = ops.Attrs{"rounding_mode": ops.NoneAttr()}
	mhaBaddAttrs    = ops.Attrs{"beta": ops.FloatAttr(1), "alpha": ops.FloatAttr(1)}
)

// mhaInt and mhaFloat are Python numbers (wrapped numbers).
func mhaInt(v int) *array       { return scalarArray(ops.Scalar{Kind: ops.ScalarInt, I: int64(v)}) }
func mhaFloat(v float64) *array { return scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: v}) }

func mhaForward(c *call) ([]*array, error) {
	m, err := newMHA(c)
	if err != nil {
		return nil, err
	}
	if err := m.finish(); err != nil {
		return nil, err
	}
	// the backward of the same call reads the intermediates (not the
	// outputs, which the device rounds in place)
	c.saved = m
	out := &array{shape: m.out.shape, data: m.out.data, dtype: m.outT}
	w := &array{shape: m.w.shape, data: m.w.data, dtype: m.outT}
	return []*array{out, w}, nil
}

// mhaBackward is autograd through the composition, in reverse: the out
// projection, the heads merged, bmm, the weights' average (its gradient
// added to bmm's), softmax, baddbmm/bmm, the scaling, the heads split,
// the appended positions, the in-projections; the packed weight's and
// bias's gradients are their chunks' gradients concatenated (zeros for a
// chunk that took none).
func mhaBackward(c *call, outs, gos []*array) ([]*array, error) {
	m, ok := c.saved.(*mha)
	if !ok {
		var err error
		if m, err = newMHA(c); err != nil {
			return nil, err
		}
		if err := m.finish(); err != nil {
			return nil, err
		}
	}
	N, H, L, E, hd := m.N, m.H, m.L, m.E, m.hd
	B := N * H
	S := m.p.shape[2]
	res := make([]*array, len(c.in))
	want := func(i int) bool { return nnWantsGrad(c, i) }
	g0 := nnGradOut(gos, 0)
	if g0 == nil {
		g0 = &array{shape: outs[0].shape, data: make([]float64, len(outs[0].data)), dtype: m.dt}
	}
	eo := g0.shape[len(g0.shape)-1]
	g0 = &array{shape: []int{L * N, eo}, data: g0.data, dtype: m.dt}
	lo, err := m.bwd(kernels["linear"].backward, "linear", nil, []*array{m.oc, m.in[mhaOutW], m.in[mhaOutB]},
		[]bool{true, want(mhaOutW), want(mhaOutB)}, nil, g0)
	if err != nil {
		return nil, err
	}
	res[mhaOutW], res[mhaOutB] = lo[1], lo[2]
	gO := mhaHeads(&array{shape: []int{L, B * hd}, data: lo[0].data, dtype: m.dt}, L, B, hd)
	needV := want(mhaValue) || want(mhaInW) || want(mhaInB) || want(mhaVW) || want(mhaBiasV) || want(mhaStaticV)
	gpv, err := m.bwd(kernels["bmm"].backward, "bmm", nil, []*array{m.p, m.vh}, []bool{true, needV}, nil, gO)
	if err != nil {
		return nil, err
	}
	gp := gpv[0]
	if g1 := nnGradOut(gos, 1); m.weights && g1 != nil && len(g1.data) > 0 {
		gw := &array{shape: []int{N, H, L, S}, data: g1.data, dtype: m.dt}
		if m.avg {
			gd, err := m.bwd(kernels["div"].backward, "div", mhaDivAttrs, []*array{m.psum, mhaInt(H)}, []bool{true, false},
				[]*array{mhaView(m.w, N, L, S)}, &array{shape: []int{N, L, S}, data: g1.data, dtype: m.dt})
			if err != nil {
				return nil, err
			}
			// sum's backward: the gradient expanded over the heads
			gw = &array{shape: []int{N, H, L, S}, data: make([]float64, B*L*S), dtype: m.dt}
			for n := 0; n < N; n++ {
				for h := 0; h < H; h++ {
					copy(gw.data[(n*H+h)*L*S:(n*H+h+1)*L*S], gd[0].data[n*L*S:(n+1)*L*S])
				}
			}
		}
		sum := &array{shape: gp.shape, data: make([]float64, len(gp.data)), dtype: m.dt}
		for i, x := range gp.data {
			sum.data[i] = m.r(x + gw.data[i])
		}
		gp = sum
	}
	softBack := kernels["softmax"].backward
	if m.dt == tensor.BFloat16 {
		softBack = softmaxBF16Backward
	}
	gl, err := m.bwd(softBack, "softmax", mhaSoftmaxAttrs, []*array{m.logits}, []bool{true}, []*array{m.p}, gp)
	if err != nil {
		return nil, err
	}
	needK := want(mhaKey) || want(mhaInW) || want(mhaInB) || want(mhaKW) || want(mhaBiasK) || want(mhaStaticK)
	var gqk []*array
	if m.mask != nil {
		gqk, err = m.bwd(kernels["baddbmm"].backward, "baddbmm", mhaBaddAttrs, []*array{m.mask, m.qs, m.kT}, []bool{false, true, needK}, nil, gl[0])
		if err == nil {
			gqk = gqk[1:]
		}
	} else {
		gqk, err = m.bwd(kernels["bmm"].backward, "bmm", nil, []*array{m.qs, m.kT}, []bool{true, needK}, nil, gl[0])
	}
	if err != nil {
		return nil, err
	}
	gd, err := m.bwd(kernels["div"].backward, "div", mhaDivAttrs, []*array{m.qh, mhaFloat(math.Sqrt(float64(hd)))}, []bool{true, false},
		[]*array{m.qs}, gqk[0])
	if err != nil {
		return nil, err
	}
	gq := mhaUnheads(gd[0], L, B, hd, []int{L, N, E})
	zero := m.c.attrs.Bool("add_zero_attn", false)
	// gradients of the (N·H, S, hd) k and v: static, or of the projection
	// (with bias_k/bias_v appended)
	heads := func(gh *array, static, bias int, proj *array) (gproj *array, err error) {
		if gh == nil {
			return nil, nil
		}
		if zero {
			gh = mhaDropLast(gh)
		}
		if m.in[static] != nil {
			res[static] = gh
			return nil, nil
		}
		T := gh.shape[1]
		gc := mhaUnheads(gh, T, B, hd, []int{T, N, E})
		if m.in[bias] == nil {
			return gc, nil
		}
		s0 := proj.shape[0]
		gproj = &array{shape: []int{s0, N, E}, data: gc.data[:s0*N*E], dtype: m.dt}
		if want(bias) {
			// repeat's backward: grad.reshape(1, N, 1, E).sum([1])
			gb, err := m.fwd("sum", mhaSumAttrs, &array{shape: []int{1, N, 1, E}, data: gc.data[s0*N*E:], dtype: m.dt})
			if err != nil {
				return nil, err
			}
			gb.shape = []int{1, 1, E}
			res[bias] = gb
		}
		return gproj, nil
	}
	var gkh *array
	if len(gqk) > 1 && gqk[1] != nil {
		gkh = sdpaTranspose(gqk[1])
	}
	gk, err := heads(gkh, mhaStaticK, mhaBiasK, m.kp)
	if err != nil {
		return nil, err
	}
	gv, err := heads(gpv[1], mhaStaticV, mhaBiasV, m.vp)
	if err != nil {
		return nil, err
	}
	separate := m.c.attrs.Bool("use_separate_proj_weight", false)
	wIdx := [3]int{mhaInW, mhaInW, mhaInW}
	if separate {
		wIdx = [3]int{mhaQW, mhaKW, mhaVW}
	}
	var gws, gbs [3]*array
	for j, x := range []struct {
		in, w, b *array
		g        *array
		idx      int
	}{{m.query3, m.wq, m.bq, gq, mhaQuery}, {m.key3, m.wk, m.bk, gk, mhaKey}, {m.value3, m.wv, m.bv, gv, mhaValue}} {
		if x.g == nil {
			continue
		}
		gl, err := m.bwd(kernels["linear"].backward, "linear", nil, []*array{x.in, x.w, x.b},
			[]bool{want(x.idx), want(wIdx[j]), want(mhaInB)}, nil, x.g)
		if err != nil {
			return nil, err
		}
		if gl[0] != nil {
			res[x.idx] = &array{shape: c.in[x.idx].shape, data: gl[0].data, dtype: m.dt}
		}
		gws[j], gbs[j] = gl[1], gl[2]
	}
	cat := func(parts [3]*array, chunks [3]*array, full *array) *array {
		out := &array{shape: full.shape, data: make([]float64, len(full.data)), dtype: m.dt}
		off := 0
		for j, p := range parts {
			n := len(chunks[j].data)
			if p != nil {
				copy(out.data[off:off+n], p.data)
			}
			off += n
		}
		return out
	}
	if separate {
		for j, i := range wIdx {
			if want(i) {
				res[i] = gws[j]
			}
		}
	} else if want(mhaInW) {
		res[mhaInW] = cat(gws, [3]*array{m.wq, m.wk, m.wv}, m.in[mhaInW])
	}
	if want(mhaInB) {
		res[mhaInB] = cat(gbs, [3]*array{m.bq, m.bk, m.bv}, m.in[mhaInB])
	}
	for i, g := range res {
		if g != nil {
			if !want(i) {
				res[i] = nil
				continue
			}
			g.dtype = c.in[i].dtype
			g.shape = c.in[i].shape
		}
	}
	return res, nil
}

func init() {
	register("multi_head_attention", &kernel{forward: mhaForward, backward: mhaBackward})
	supportDTypes("multi_head_attention", tensor.Float64, tensor.Float32, tensor.Float16, tensor.BFloat16)
}
