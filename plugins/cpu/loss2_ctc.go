package cpu

// ctc_loss of the loss2 family: PyTorch 1.13's CPU kernel (LossCTC.cpp),
// its alpha recursion forward and its beta recursion backward, whose
// gradient assumes log_probs are log_softmax outputs (exp(lp) − …): not
// the derivative with respect to log_probs themselves, as in PyTorch.

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("ctc_loss", &kernel{forward: loss2CTCForward, backward: loss2CTCBackward})
	supportDTypes("ctc_loss", tensor.Float64, tensor.Float32)
}

type loss2CTC struct {
	lp        *array
	T, N, C   int
	unbatched bool
	tg        []int
	tgOff     []int // offset of target b in tg
	il, tl    []int
	blank     int
	red       string
	zeroInf   bool
	nll       []float64
	alpha     [][]float64 // per batch element: T_b × (2L+1)
}

// loss2Lengths reads lengths from input i (a tensor) or attribute name.
func loss2Lengths(c *call, i int, name string) []int {
	if a := nnInput(c, i); a != nil {
		out := make([]int, len(a.data))
		for k, v := range a.data {
			out[k] = int(v)
		}
		return out
	}
	var out []int
	for _, v := range c.attrs.Ints(name, nil) {
		out = append(out, int(v))
	}
	return out
}

func loss2NewCTC(c *call) (*loss2CTC, error) {
	lp, tg := c.in[0], c.in[1]
	if lp.dtype != tensor.Float64 && lp.dtype != tensor.Float32 {
		return nil, notImplemented("ctc_loss_cpu", lp.dtype)
	}
	if tg.dtype != tensor.Int64 && tg.dtype != tensor.Int32 {
		return nil, fmt.Errorf("Expected tensor for argument #2 'targets' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for ctc_loss_cpu)", loss2TypeName(tg.dtype))
	}
	red, err := loss2Red(c, false)
	if err != nil {
		return nil, err
	}
	l := &loss2CTC{lp: lp, blank: int(c.attrs.Int("blank", 0)), red: red, zeroInf: c.attrs.Bool("zero_infinity", false),
		il: loss2Lengths(c, 2, "input_lengths"), tl: loss2Lengths(c, 3, "target_lengths")}
	switch len(lp.shape) {
	case 3:
		l.T, l.N, l.C = lp.shape[0], lp.shape[1], lp.shape[2]
	case 2:
		l.T, l.N, l.C, l.unbatched = lp.shape[0], 1, lp.shape[1], true
	default:
		return nil, fmt.Errorf("ctc_loss: expected log_probs to be 2-D or 3-D, got %d-D", len(lp.shape))
	}
	if l.blank < 0 || l.blank >= l.C {
		return nil, fmt.Errorf("blank must be in label range")
	}
	if len(l.il) != l.N {
		return nil, fmt.Errorf("input_lengths must be of size batch_size")
	}
	if len(l.tl) != l.N {
		return nil, fmt.Errorf("target_lengths must be of size batch_size")
	}
	l.tg = make([]int, len(tg.data))
	for i, v := range tg.data {
		l.tg[i] = int(v)
	}
	l.tgOff = make([]int, l.N)
	padded := len(tg.shape) == 2 || (l.unbatched && len(tg.shape) == 1)
	if padded {
		S := tg.shape[len(tg.shape)-1]
		for b := 0; b < l.N; b++ {
			l.tgOff[b] = b * S
			if l.tl[b] > S {
				return nil, fmt.Errorf("Expected tensor to have size at least %d at dimension 1, but got size %d for argument #2 'targets' (while checking arguments for ctc_loss_cpu)", l.tl[b], S)
			}
		}
	} else {
		if len(tg.shape) != 1 {
			return nil, fmt.Errorf("ctc_loss: targets must be 1-D (concatenated) or 2-D (padded), got %s", ops.ShapeList(tg.shape))
		}
		pos := 0
		for b := 0; b < l.N; b++ {
			l.tgOff[b] = pos
			pos += l.tl[b]
		}
		if pos > len(l.tg) {
			return nil, fmt.Errorf("Expected tensor to have size at least %d at dimension 0, but got size %d for argument #2 'targets' (while checking arguments for ctc_loss_cpu)", pos, len(l.tg))
		}
	}
	for b := 0; b < l.N; b++ {
		if l.il[b] > l.T {
			return nil, fmt.Errorf("Expected input_lengths to have value at most %d, but got value %d (while checking arguments for ctc_loss_cpu)", l.T, l.il[b])
		}
		if l.il[b] < 0 || l.tl[b] < 0 {
			return nil, fmt.Errorf("ctc_loss: negative lengths")
		}
		for s := 0; s < l.tl[b]; s++ {
			if v := l.tg[l.tgOff[b]+s]; v < 0 || v >= l.C {
				return nil, fmt.Errorf("ctc_loss: target %d out of the label range [0, %d)", v, l.C)
			}
		}
	}
	return l, nil
}

// lp reads log_probs[t][b][c].
func (l *loss2CTC) at(t, b, c int) float64 { return l.lp.data[(t*l.N+b)*l.C+c] }

// prime is the s-th label of batch element b's target with blanks.
func (l *loss2CTC) prime(b, s int) int {
	if s%2 == 0 {
		return l.blank
	}
	return l.tg[l.tgOff[b]+s/2]
}

// loss2LogSum3 is log(e^a + e^b + e^c) as LossCTC.cpp forms it.
func loss2LogSum3(a, b, c float64) float64 {
	m := math.Max(a, math.Max(b, c))
	if math.IsInf(m, -1) {
		m = 0
	}
	return math.Log(math.Exp(a-m)+math.Exp(b-m)+math.Exp(c-m)) + m
}

// forward runs the alpha recursion of every batch element.
func (l *loss2CTC) forward() {
	ninf := math.Inf(-1)
	l.nll = make([]float64, l.N)
	l.alpha = make([][]float64, l.N)
	forChunks(l.N, func(from, to int) error {
		for b := from; b < to; b++ {
			Tb, L := l.il[b], l.tl[b]
			S := 2*L + 1
			al := make([]float64, Tb*S)
			for i := range al {
				al[i] = ninf
			}
			l.alpha[b] = al
			if Tb == 0 {
				if L != 0 {
					l.nll[b] = math.Inf(1)
				}
				continue
			}
			al[0] = l.at(0, b, l.blank)
			if L > 0 {
				al[1] = l.at(0, b, l.prime(b, 1))
			}
			for t := 1; t < Tb; t++ {
				for s := 0; s < S; s++ {
					cur := l.prime(b, s)
					la1, la2, la3 := al[(t-1)*S+s], ninf, ninf
					if s > 0 {
						la2 = al[(t-1)*S+s-1]
					}
					if s > 1 && l.prime(b, s-2) != cur {
						la3 = al[(t-1)*S+s-2]
					}
					al[t*S+s] = loss2LogSum3(la1, la2, la3) + l.at(t, b, cur)
				}
			}
			l1, l2 := al[(Tb-1)*S+2*L], ninf
			if L > 0 {
				l2 = al[(Tb-1)*S+2*L-1]
			}
			l.nll[b] = -loss2LogSum3(l1, l2, ninf)
		}
		return nil
	})
}

func loss2CTCForward(c *call) ([]*array, error) {
	l, err := loss2NewCTC(c)
	if err != nil {
		return nil, err
	}
	l.forward()
	per := append([]float64(nil), l.nll...)
	if l.zeroInf {
		for i, v := range per {
			if math.IsInf(v, 1) {
				per[i] = 0
			}
		}
	}
	dt := l.lp.dtype
	r := loss2Rounder(dt)
	switch l.red {
	case "none":
		shape := []int{l.N}
		if l.unbatched {
			shape = []int{}
		}
		return []*array{{shape: shape, data: per, dtype: dt}}, nil
	case "sum":
		s := 0.0
		for _, v := range per {
			s += r(v)
		}
		return []*array{{shape: []int{}, data: []float64{s}, dtype: dt}}, nil
	}
	s := 0.0
	for b, v := range per {
		s += r(r(v) / float64(max(l.tl[b], 1)))
	}
	return []*array{{shape: []int{}, data: []float64{s / float64(l.N)}, dtype: dt}}, nil
}

func loss2CTCBackward(c *call, outs, gos []*array) ([]*array, error) {
	l, err := loss2NewCTC(c)
	if err != nil {
		return nil, err
	}
	res := make([]*array, len(c.in))
	g := nnGradOut(gos, 0)
	if g == nil || !c.requiresGrad[0] {
		return res, nil
	}
	l.forward()
	gb := make([]float64, l.N)
	for b := range gb {
		switch l.red {
		case "none":
			gb[b] = g.data[b]
		case "sum":
			gb[b] = g.data[0]
		default:
			gb[b] = g.data[0] / float64(l.N) / float64(max(l.tl[b], 1))
		}
	}
	ninf := math.Inf(-1)
	grad := make([]float64, len(l.lp.data))
	forChunks(l.N, func(from, to int) error {
		for b := from; b < to; b++ {
			Tb, L := l.il[b], l.tl[b]
			S := 2*L + 1
			al := l.alpha[b]
			nll := l.nll[b]
			// collected log Σ alpha·beta per (t, c), −inf where none
			lc := make([]float64, Tb*l.C)
			for i := range lc {
				lc[i] = ninf
			}
			be := make([]float64, Tb*S)
			for i := range be {
				be[i] = ninf
			}
			if Tb > 0 {
				t := Tb - 1
				be[t*S+2*L] = l.at(t, b, l.blank)
				lc[t*l.C+l.blank] = al[t*S+2*L] + be[t*S+2*L]
				if L > 0 {
					cur := l.prime(b, 2*L-1)
					be[t*S+2*L-1] = l.at(t, b, cur)
					lc[t*l.C+cur] = al[t*S+2*L-1] + be[t*S+2*L-1]
				}
			}
			for t := Tb - 2; t >= 0; t-- {
				for s := 2 * L; s >= 0; s-- {
					cur := l.prime(b, s)
					lb1, lb2, lb3 := be[(t+1)*S+s], ninf, ninf
					if s < 2*L {
						lb2 = be[(t+1)*S+s+1]
					}
					if s < 2*L-1 && l.prime(b, s+2) != cur {
						lb3 = be[(t+1)*S+s+2]
					}
					be[t*S+s] = loss2LogSum3(lb1, lb2, lb3) + l.at(t, b, cur)
					lab := al[t*S+s] + be[t*S+s]
					p := &lc[t*l.C+cur]
					if math.IsInf(*p, -1) {
						*p = lab
					} else {
						m := math.Max(*p, lab)
						*p = math.Log(math.Exp(*p-m)+math.Exp(lab-m)) + m
					}
				}
			}
			zero := l.zeroInf && math.IsInf(nll, 1)
			for t := 0; t < Tb; t++ {
				for cl := 0; cl < l.C; cl++ {
					k := (t*l.N+b)*l.C + cl
					if zero {
						continue
					}
					lp := l.lp.data[k]
					grad[k] = (math.Exp(lp) - math.Exp(lc[t*l.C+cl]+nll-lp)) * gb[b]
				}
			}
		}
		return nil
	})
	res[0] = &array{shape: append([]int{}, l.lp.shape...), data: grad, dtype: l.lp.dtype}
	return res, nil
}
