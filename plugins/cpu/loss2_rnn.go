package cpu

// The recurrent ops of the loss2 family: lstm_cell, gru_cell and the
// layers torch.lstm and torch.gru run, as PyTorch 1.13's CPU computes them
// (RNN.cpp: LSTMCell, GRUCell, FullLayer with the input projection of the
// whole sequence computed first). Each tensor operation rounds at the
// dtype (loss2Rounder; exact at float64); backward is autograd's chain
// through those operations, in float64.

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("lstm_cell", &kernel{forward: loss2LSTMCellForward, backward: loss2LSTMCellBackward})
	supportDTypes("lstm_cell", loss2NoHalf...)
	register("gru_cell", &kernel{forward: loss2GRUCellForward, backward: loss2GRUCellBackward})
	supportDTypes("gru_cell", loss2NoHalf...)
	register("lstm", &kernel{forward: loss2LSTMForward, backward: loss2LSTMBackward})
	supportDTypes("lstm", loss2NoHalf...)
	register("gru", &kernel{forward: loss2GRUForward, backward: loss2GRUBackward})
	supportDTypes("gru", loss2NoHalf...)
}

// loss2Cell is one direction of one layer: its weights (w_ih G×I, w_hh
// G×P, biases G, w_hr P×H for projections; G = gates·H) and indices of
// the inputs they came from (for gradients; −1: absent).
type loss2Cell struct {
	wih, whh, bih, bhh, whr []float64
	in                      [5]int // input index of w_ih, w_hh, b_ih, b_hh, w_hr
	I, H, P, G              int
}

// loss2Step records one time step for backward.
type loss2Step struct {
	hPrev, cPrev []float64 // N×P, N×H
	act          []float64 // N×G: activated gates (lstm i f g o; gru r z n)
	ghn          []float64 // gru: N×H, h_n part of the hidden projection
	c, tc, oh    []float64 // lstm: cell, tanh(cell), o·tanh(cell) before projection
}

type loss2Net struct {
	gru            bool
	dt             tensor.DType
	r              func(float64) float64
	L, D, T, N     int
	H, P           int
	batchFirst     bool
	cells          [][]*loss2Cell   // [layer][direction]
	steps          [][][]*loss2Step // [layer][direction][t]
	xs             [][]float64      // layer inputs, T·N×I each
	hOut, cOut     [][][]float64    // [layer][direction]: final h (N×P), c (N×H)
	layerOut       []float64        // T·N×D·P
	h0, c0         []float64        // L·D×N×P, L·D×N×H
	hShape, cShape []int
}

// loss2Linear is at::linear of rows×I a with G×I w and bias b (nil: none),
// rounded once (addmm).
func loss2Linear(r func(float64) float64, a []float64, rows int, w, b []float64, I, G int) []float64 {
	out := make([]float64, rows*G)
	nnGemm(false, true, rows, G, I, a, w, out, false)
	forChunks(rows, func(from, to int) error {
		for i := from; i < to; i++ {
			row := out[i*G : (i+1)*G]
			for j := range row {
				if b != nil {
					row[j] += b[j]
				}
				row[j] = r(row[j])
			}
		}
		return nil
	})
	return out
}

// step runs one cell step: xw is the input projection (N×G), h (N×P) and
// c (N×H) the state; it returns the new h and c and the record.
func (n *loss2Net) step(cl *loss2Cell, xw, h, c []float64) ([]float64, []float64, *loss2Step) {
	r, N, H, G := n.r, n.N, cl.H, cl.G
	gh := loss2Linear(r, h, N, cl.whh, cl.bhh, cl.P, G)
	st := &loss2Step{hPrev: h, cPrev: c, act: make([]float64, N*G)}
	if n.gru {
		st.ghn = make([]float64, N*H)
		hn := make([]float64, N*H)
		for i := 0; i < N; i++ {
			a, x, y := st.act[i*G:(i+1)*G], xw[i*G:(i+1)*G], gh[i*G:(i+1)*G]
			for j := 0; j < H; j++ {
				rg := r(sigmoid(r(y[j] + x[j])))
				z := r(sigmoid(r(y[H+j] + x[H+j])))
				nn := r(math.Tanh(r(x[2*H+j] + r(y[2*H+j]*rg))))
				a[j], a[H+j], a[2*H+j] = rg, z, nn
				st.ghn[i*H+j] = y[2*H+j]
				hp := h[i*H+j]
				hn[i*H+j] = r(r(r(hp-nn)*z) + nn)
			}
		}
		return hn, nil, st
	}
	cn, oh := make([]float64, N*H), make([]float64, N*H)
	st.c, st.tc = cn, make([]float64, N*H)
	for i := 0; i < N; i++ {
		a, x, y := st.act[i*G:(i+1)*G], xw[i*G:(i+1)*G], gh[i*G:(i+1)*G]
		for j := 0; j < G; j++ {
			v := r(y[j] + x[j])
			if j >= 2*H && j < 3*H {
				a[j] = r(math.Tanh(v))
			} else {
				a[j] = r(sigmoid(v))
			}
		}
		for j := 0; j < H; j++ {
			ig, fg, gg, og := a[j], a[H+j], a[2*H+j], a[3*H+j]
			cv := r(r(fg*c[i*H+j]) + r(ig*gg))
			cn[i*H+j] = cv
			st.tc[i*H+j] = r(math.Tanh(cv))
			oh[i*H+j] = r(og * st.tc[i*H+j])
		}
	}
	st.oh = oh
	if cl.whr == nil {
		return oh, cn, st
	}
	// the projection: matmul(h, w_hr.t())
	return loss2Linear(r, oh, N, cl.whr, nil, H, cl.P), cn, st
}

// stepBack propagates dh (N×P) and dc (N×H, nil for gru) through a step:
// it accumulates the weight gradients and returns the gradient of the
// input projection (N×G) and of the previous h and c.
func (n *loss2Net) stepBack(cl *loss2Cell, st *loss2Step, dh, dc []float64, gw map[int][]float64) (dxw, dhPrev, dcPrev []float64) {
	N, H, G, P := n.N, cl.H, cl.G, cl.P
	dgi := make([]float64, N*G) // gradient of the input projection
	dgh := make([]float64, N*G) // gradient of the hidden projection
	dhPrev = make([]float64, N*P)
	if n.gru {
		for i := 0; i < N; i++ {
			a := st.act[i*G : (i+1)*G]
			for j := 0; j < H; j++ {
				rg, z, nn := a[j], a[H+j], a[2*H+j]
				d := dh[i*H+j]
				hp := st.hPrev[i*H+j]
				dhPrev[i*H+j] = d * z
				dn := d * (1 - z)
				dz := d * (hp - nn)
				dnp := dn * (1 - nn*nn)
				dr := dnp * st.ghn[i*H+j]
				dzp := dz * z * (1 - z)
				drp := dr * rg * (1 - rg)
				dgi[i*G+j], dgi[i*G+H+j], dgi[i*G+2*H+j] = drp, dzp, dnp
				dgh[i*G+j], dgh[i*G+H+j], dgh[i*G+2*H+j] = drp, dzp, dnp*rg
			}
		}
	} else {
		doh := dh
		if cl.whr != nil {
			// h = oh·w_hrᵀ
			doh = make([]float64, N*H)
			nnGemm(false, false, N, H, P, dh, cl.whr, doh, false)
			loss2AccGemm(gw, cl.in[4], true, false, P, H, N, dh, st.oh)
		}
		dcPrev = make([]float64, N*H)
		for i := 0; i < N; i++ {
			a := st.act[i*G : (i+1)*G]
			for j := 0; j < H; j++ {
				ig, fg, gg, og := a[j], a[H+j], a[2*H+j], a[3*H+j]
				d := doh[i*H+j]
				tc := st.tc[i*H+j]
				dct := d * og * (1 - tc*tc)
				if dc != nil {
					dct += dc[i*H+j]
				}
				do := d * tc
				di, df, dg := dct*gg, dct*st.cPrev[i*H+j], dct*ig
				dcPrev[i*H+j] = dct * fg
				v := [4]float64{di * ig * (1 - ig), df * fg * (1 - fg), dg * (1 - gg*gg), do * og * (1 - og)}
				for q := 0; q < 4; q++ {
					dgi[i*G+q*H+j] = v[q]
					dgh[i*G+q*H+j] = v[q]
				}
			}
		}
	}
	// hidden projection: gh = h·w_hhᵀ + b_hh
	loss2AccGemm(gw, cl.in[1], true, false, G, P, N, dgh, st.hPrev)
	loss2AccBias(gw, cl.in[3], dgh, N, G)
	nnGemm(false, false, N, P, G, dgh, cl.whh, dhPrev, true)
	return dgi, dhPrev, dcPrev
}

// loss2AccGemm adds op(A)·op(B) (m×n, inner k) into gw[idx] (idx < 0: no
// gradient wanted).
func loss2AccGemm(gw map[int][]float64, idx int, transA, transB bool, m, n, k int, a, b []float64) {
	if idx < 0 {
		return
	}
	g, ok := gw[idx]
	if !ok {
		return
	}
	nnGemm(transA, transB, m, n, k, a, b, g, true)
}

// loss2AccBias adds the column sums of rows×G d into gw[idx].
func loss2AccBias(gw map[int][]float64, idx int, d []float64, rows, G int) {
	if idx < 0 {
		return
	}
	g, ok := gw[idx]
	if !ok {
		return
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < G; j++ {
			g[j] += d[i*G+j]
		}
	}
}

// loss2RNNArgs are the attributes of torch.lstm/gru.
type loss2RNNArgs struct {
	hasBias, bidir, batchFirst bool
	layers                     int
}

// loss2NewNet checks the inputs of an lstm/gru call or cell (cell: one
// layer, one direction, one time step over 2-D input) and gathers the
// weights. in: input, h0, c0 (lstm), then the weights.
func loss2NewNet(c *call, gru, cell bool) (*loss2Net, error) {
	n := &loss2Net{gru: gru}
	x, h0 := c.in[0], c.in[1]
	wi := 2
	var c0 *array
	if !gru {
		c0 = c.in[2]
		wi = 3
	}
	gates := 4
	if gru {
		gates = 3
	}
	for _, a := range c.in {
		if a != nil && a.dtype != x.dtype {
			return nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(x.dtype), ops.TypeName(a.dtype))
		}
	}
	if !x.dtype.IsFloat() {
		return nil, notImplemented("addmm_impl_cpu_", x.dtype)
	}
	if x.dtype == tensor.Float16 {
		return nil, notImplemented("addmm_impl_cpu_", x.dtype)
	}
	n.dt, n.r = x.dtype, loss2Rounder(x.dtype)
	args := loss2RNNArgs{hasBias: true, layers: 1}
	if !cell {
		args = loss2RNNArgs{hasBias: c.attrs.Bool("has_biases", true), bidir: c.attrs.Bool("bidirectional", false),
			batchFirst: c.attrs.Bool("batch_first", false), layers: int(c.attrs.Int("num_layers", 1))}
		if c.attrs.Bool("train", false) && c.attrs.Float("dropout", 0) > 0 && args.layers > 1 {
			return nil, fmt.Errorf("dropout between layers in training mode is random")
		}
	}
	n.L, n.D, n.batchFirst = args.layers, 1, args.batchFirst
	if args.bidir {
		n.D = 2
	}
	ws := c.in[wi:]
	if cell {
		if len(x.shape) != 2 {
			return nil, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got 1)", -max(len(x.shape), 1), max(len(x.shape), 1)-1)
		}
		n.T, n.N = 1, x.shape[0]
	} else {
		if len(x.shape) != 3 {
			return nil, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got 2)", -max(len(x.shape), 1), max(len(x.shape), 1)-1)
		}
		n.T, n.N = x.shape[0], x.shape[1]
		if n.batchFirst {
			n.T, n.N = x.shape[1], x.shape[0]
		}
	}
	per := 2
	if args.hasBias {
		per = 4
	}
	proj := false
	if !cell {
		switch {
		case len(ws) == per*n.L*n.D:
		case !gru && len(ws) == (per+1)*n.L*n.D:
			proj = true
			per++
		default:
			return nil, fmt.Errorf("got %d parameters, expected %d for %d layer(s), %d direction(s)", len(ws), per*n.L*n.D, n.L, n.D)
		}
	}
	I := x.shape[len(x.shape)-1]
	n.cells = make([][]*loss2Cell, n.L)
	for l := 0; l < n.L; l++ {
		for d := 0; d < n.D; d++ {
			k := (l*n.D + d) * per
			get := func(j int) *array {
				if cell {
					if j < len(ws) {
						return ws[j]
					}
					return nil
				}
				return ws[k+j]
			}
			cl := &loss2Cell{in: [5]int{-1, -1, -1, -1, -1}}
			wih, whh := get(0), get(1)
			if wih == nil || whh == nil || len(wih.shape) != 2 || len(whh.shape) != 2 {
				return nil, fmt.Errorf("weights must be 2-D")
			}
			cl.G, cl.I, cl.P = wih.shape[0], wih.shape[1], whh.shape[1]
			cl.H = cl.G / gates
			if cl.G%gates != 0 || whh.shape[0] != cl.G {
				return nil, fmt.Errorf("weight_ih and weight_hh must have %d·hidden_size rows", gates)
			}
			cl.wih, cl.whh = wih.data, whh.data
			cl.in[0], cl.in[1] = wi+k, wi+k+1
			if cell {
				cl.in[0], cl.in[1] = wi, wi+1
			}
			if args.hasBias {
				bih, bhh := get(2), get(3)
				if bih != nil {
					cl.bih, cl.in[2] = bih.data, cl.in[0]+2
					if len(bih.data) != cl.G {
						return nil, fmt.Errorf("b_ih has %d elements, expected %d", len(bih.data), cl.G)
					}
				}
				if bhh != nil {
					cl.bhh, cl.in[3] = bhh.data, cl.in[0]+3
					if len(bhh.data) != cl.G {
						return nil, fmt.Errorf("b_hh has %d elements, expected %d", len(bhh.data), cl.G)
					}
				}
			}
			if proj {
				whr := get(per - 1)
				if len(whr.shape) != 2 || whr.shape[0] != cl.P || whr.shape[1] != cl.H {
					return nil, fmt.Errorf("weight_hr has shape %s, expected [%d, %d]", ops.ShapeList(whr.shape), cl.P, cl.H)
				}
				cl.whr, cl.in[4] = whr.data, cl.in[0]+per-1
			} else if cl.P != cl.H && !gru {
				return nil, fmt.Errorf("hidden0 has inconsistent hidden_size: got %d, expected %d", cl.H, cl.P)
			}
			if cl.I != I {
				return nil, fmt.Errorf("input has inconsistent input_size: got %d expected %d", I, cl.I)
			}
			n.cells[l] = append(n.cells[l], cl)
		}
		I = n.D * n.cells[l][0].P
	}
	n.H, n.P = n.cells[0][0].H, n.cells[0][0].P
	if gru && n.P != n.H {
		return nil, fmt.Errorf("hidden0 has inconsistent hidden_size: got %d, expected %d", n.P, n.H)
	}
	// states
	wantH := []int{n.L * n.D, n.N, n.P}
	wantC := []int{n.L * n.D, n.N, n.H}
	if cell {
		wantH, wantC = []int{n.N, n.P}, []int{n.N, n.H}
	}
	if !loss2SameShape(h0.shape, wantH) {
		if cell {
			return nil, fmt.Errorf("hidden0 has inconsistent hidden_size: got %d, expected %d", h0.shape[len(h0.shape)-1], n.P)
		}
		return nil, fmt.Errorf("Expected hidden[0] size %s, got %s", loss2Tuple(wantH), ops.ShapeList(h0.shape))
	}
	if c0 != nil && !loss2SameShape(c0.shape, wantC) {
		if cell {
			return nil, fmt.Errorf("hidden1 has inconsistent hidden_size: got %d, expected %d", c0.shape[len(c0.shape)-1], n.H)
		}
		return nil, fmt.Errorf("Expected hidden[1] size %s, got %s", loss2Tuple(wantC), ops.ShapeList(c0.shape))
	}
	n.h0 = h0.data
	if c0 != nil {
		n.c0 = c0.data
	}
	n.hShape, n.cShape = wantH, wantC
	return n, nil
}

func loss2SameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func loss2Tuple(s []int) string {
	out := "("
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(v)
	}
	return out + ")"
}

// run computes every layer; x is the input in (T, N, I) order.
func (n *loss2Net) run(x []float64) {
	T, N := n.T, n.N
	n.steps = make([][][]*loss2Step, n.L)
	n.xs = make([][]float64, n.L)
	n.hOut, n.cOut = make([][][]float64, n.L), make([][][]float64, n.L)
	in := x
	for l := 0; l < n.L; l++ {
		n.xs[l] = in
		P := n.cells[l][0].P
		out := make([]float64, T*N*n.D*P)
		n.steps[l] = make([][]*loss2Step, n.D)
		n.hOut[l], n.cOut[l] = make([][]float64, n.D), make([][]float64, n.D)
		for d, cl := range n.cells[l] {
			xw := loss2Linear(n.r, in, T*N, cl.wih, cl.bih, cl.I, cl.G)
			k := l*n.D + d
			h := append([]float64(nil), n.h0[k*N*P:(k+1)*N*P]...)
			var c []float64
			if !n.gru {
				c = append([]float64(nil), n.c0[k*N*cl.H:(k+1)*N*cl.H]...)
			}
			n.steps[l][d] = make([]*loss2Step, T)
			for s := 0; s < T; s++ {
				t := s
				if d == 1 {
					t = T - 1 - s
				}
				var st *loss2Step
				h, c, st = n.step(cl, xw[t*N*cl.G:(t+1)*N*cl.G], h, c)
				n.steps[l][d][t] = st
				for i := 0; i < N; i++ {
					copy(out[(t*N+i)*n.D*P+d*P:(t*N+i)*n.D*P+(d+1)*P], h[i*P:(i+1)*P])
				}
			}
			n.hOut[l][d], n.cOut[l][d] = h, c
		}
		in = out
	}
	n.layerOut = in
}

// back propagates the gradients of the output sequence (T·N×D·P, may be
// nil), of h_n and c_n (may be nil) and returns the gradients by input
// index, with the input's own in (T, N, I) order under key 0 and the
// states' under the h0/c0 indices.
func (n *loss2Net) back(c *call, gOut, gH, gC []float64, wIdx []int) map[int][]float64 {
	T, N := n.T, n.N
	gw := map[int][]float64{}
	for _, i := range wIdx {
		if i < len(c.in) && c.in[i] != nil && c.requiresGrad[i] {
			gw[i] = make([]float64, len(c.in[i].data))
		}
	}
	gh0 := make([]float64, len(n.h0))
	var gc0 []float64
	if !n.gru {
		gc0 = make([]float64, len(n.c0))
	}
	gSeq := gOut
	for l := n.L - 1; l >= 0; l-- {
		P := n.cells[l][0].P
		I := n.cells[l][0].I
		gIn := make([]float64, T*N*I)
		for d, cl := range n.cells[l] {
			k := l*n.D + d
			dh := make([]float64, N*P)
			if gH != nil {
				copy(dh, gH[k*N*P:(k+1)*N*P])
			}
			var dc []float64
			if !n.gru {
				dc = make([]float64, N*cl.H)
				if gC != nil {
					copy(dc, gC[k*N*cl.H:(k+1)*N*cl.H])
				}
			}
			dxw := make([]float64, T*N*cl.G)
			for s := T - 1; s >= 0; s-- {
				t := s
				if d == 1 {
					t = T - 1 - s
				}
				if gSeq != nil {
					for i := 0; i < N; i++ {
						row := gSeq[(t*N+i)*n.D*P+d*P : (t*N+i)*n.D*P+(d+1)*P]
						for j, v := range row {
							dh[i*P+j] += v
						}
					}
				}
				g, dhp, dcp := n.stepBack(cl, n.steps[l][d][t], dh, dc, gw)
				copy(dxw[t*N*cl.G:(t+1)*N*cl.G], g)
				dh, dc = dhp, dcp
			}
			copy(gh0[k*N*P:(k+1)*N*P], dh)
			if !n.gru {
				copy(gc0[k*N*cl.H:(k+1)*N*cl.H], dc)
			}
			// input projection xw = x·w_ihᵀ + b_ih
			loss2AccGemm(gw, cl.in[0], true, false, cl.G, I, T*N, dxw, n.xs[l])
			loss2AccBias(gw, cl.in[2], dxw, T*N, cl.G)
			nnGemm(false, false, T*N, I, cl.G, dxw, cl.wih, gIn, true)
		}
		gSeq = gIn
	}
	gw[-1] = gSeq
	gw[-2] = gh0
	gw[-3] = gc0
	return gw
}

// loss2Seq returns the input in (T, N, I) order.
func (n *loss2Net) seq(x *array) []float64 {
	if !n.batchFirst {
		return x.data
	}
	return loss2Swap01(x.data, n.N, n.T, x.shape[2])
}

// loss2Swap01 swaps the first two dims of an a×b×k array.
func loss2Swap01(v []float64, a, b, k int) []float64 {
	out := make([]float64, len(v))
	for i := 0; i < a; i++ {
		for j := 0; j < b; j++ {
			copy(out[(j*a+i)*k:(j*a+i+1)*k], v[(i*b+j)*k:(i*b+j+1)*k])
		}
	}
	return out
}

func (n *loss2Net) stack(parts [][][]float64) []float64 {
	var out []float64
	for l := range parts {
		for d := range parts[l] {
			out = append(out, parts[l][d]...)
		}
	}
	return out
}

func loss2RNNForward(c *call, gru bool) ([]*array, error) {
	n, err := loss2NewNet(c, gru, false)
	if err != nil {
		return nil, err
	}
	n.run(n.seq(c.in[0]))
	P := n.P
	out := n.layerOut
	shape := []int{n.T, n.N, n.D * P}
	if n.batchFirst {
		out = loss2Swap01(out, n.T, n.N, n.D*P)
		shape = []int{n.N, n.T, n.D * P}
	}
	res := []*array{{shape: shape, data: out, dtype: n.dt}, {shape: n.hShape, data: n.stack(n.hOut), dtype: n.dt}}
	if !gru {
		res = append(res, &array{shape: n.cShape, data: n.stack(n.cOut), dtype: n.dt})
	}
	return res, nil
}

func loss2RNNBackward(c *call, gos []*array, gru bool) ([]*array, error) {
	n, err := loss2NewNet(c, gru, false)
	if err != nil {
		return nil, err
	}
	n.run(n.seq(c.in[0]))
	var gOut, gH, gC []float64
	if g := nnGradOut(gos, 0); g != nil {
		gOut = g.data
		if n.batchFirst {
			gOut = loss2Swap01(gOut, n.N, n.T, n.D*n.P)
		}
	}
	if g := nnGradOut(gos, 1); g != nil {
		gH = g.data
	}
	if g := nnGradOut(gos, 2); g != nil && !gru {
		gC = g.data
	}
	first := 3
	if gru {
		first = 2
	}
	var idx []int
	for i := first; i < len(c.in); i++ {
		idx = append(idx, i)
	}
	gw := n.back(c, gOut, gH, gC, idx)
	res := make([]*array, len(c.in))
	if c.requiresGrad[0] {
		gx := gw[-1]
		if n.batchFirst {
			gx = loss2Swap01(gx, n.T, n.N, c.in[0].shape[2])
		}
		res[0] = &array{shape: append([]int{}, c.in[0].shape...), data: gx, dtype: c.in[0].dtype}
	}
	if c.requiresGrad[1] {
		res[1] = &array{shape: append([]int{}, c.in[1].shape...), data: gw[-2], dtype: c.in[1].dtype}
	}
	if !gru && c.requiresGrad[2] {
		res[2] = &array{shape: append([]int{}, c.in[2].shape...), data: gw[-3], dtype: c.in[2].dtype}
	}
	for _, i := range idx {
		if g, ok := gw[i]; ok {
			res[i] = &array{shape: append([]int{}, c.in[i].shape...), data: g, dtype: c.in[i].dtype}
		}
	}
	return res, nil
}

func loss2LSTMForward(c *call) ([]*array, error) { return loss2RNNForward(c, false) }
func loss2GRUForward(c *call) ([]*array, error)  { return loss2RNNForward(c, true) }
func loss2LSTMBackward(c *call, outs, gos []*array) ([]*array, error) {
	return loss2RNNBackward(c, gos, false)
}
func loss2GRUBackward(c *call, outs, gos []*array) ([]*array, error) {
	return loss2RNNBackward(c, gos, true)
}

// ---- the cells: one step of one layer ----

func loss2CellForward(c *call, gru bool) ([]*array, error) {
	n, err := loss2NewNet(c, gru, true)
	if err != nil {
		return nil, err
	}
	n.run(c.in[0].data)
	res := []*array{{shape: []int{n.N, n.P}, data: n.hOut[0][0], dtype: n.dt}}
	if !gru {
		res = append(res, &array{shape: []int{n.N, n.H}, data: n.cOut[0][0], dtype: n.dt})
	}
	return res, nil
}

func loss2CellBackward(c *call, gos []*array, gru bool) ([]*array, error) {
	n, err := loss2NewNet(c, gru, true)
	if err != nil {
		return nil, err
	}
	n.run(c.in[0].data)
	var gH, gC []float64
	if g := nnGradOut(gos, 0); g != nil {
		gH = g.data
	}
	if g := nnGradOut(gos, 1); g != nil && !gru {
		gC = g.data
	}
	first := 3
	if gru {
		first = 2
	}
	var idx []int
	for i := first; i < len(c.in); i++ {
		idx = append(idx, i)
	}
	gw := n.back(c, nil, gH, gC, idx)
	res := make([]*array, len(c.in))
	set := func(i int, g []float64) {
		if c.requiresGrad[i] && c.in[i] != nil {
			res[i] = &array{shape: append([]int{}, c.in[i].shape...), data: g, dtype: c.in[i].dtype}
		}
	}
	set(0, gw[-1])
	set(1, gw[-2])
	if !gru {
		set(2, gw[-3])
	}
	for _, i := range idx {
		if g, ok := gw[i]; ok {
			set(i, g)
		}
	}
	return res, nil
}

func loss2LSTMCellForward(c *call) ([]*array, error) { return loss2CellForward(c, false) }
func loss2GRUCellForward(c *call) ([]*array, error)  { return loss2CellForward(c, true) }
func loss2LSTMCellBackward(c *call, outs, gos []*array) ([]*array, error) {
	return loss2CellBackward(c, gos, false)
}
func loss2GRUCellBackward(c *call, outs, gos []*array) ([]*array, error) {
	return loss2CellBackward(c, gos, true)
}
