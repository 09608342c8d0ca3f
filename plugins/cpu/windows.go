package cpu

// The windows family: torch's signal windows (op window), computed as
// PyTorch 1.13's CPU does it step by step at the dtype.

import (
	"fmt"
	"math"

	"github.com/probe-dev/probe/sdk/tensor"
)

func init() {
	register("window", &kernel{forward: winForward})
	// integer dtypes and bool are declared for the error PyTorch raises
	supportDTypes("window", append(append([]tensor.DType(nil), floatDTypes...), intDTypes...)...)
}

// winCTypes are the names TensorOptions prints for the non-float dtypes.
var winCTypes = map[tensor.DType]string{tensor.Int64: "long int", tensor.Int32: "int", tensor.Int16: "short int",
	tensor.Int8: "signed char", tensor.Uint8: "unsigned char", tensor.Bool: "bool"}

// winForward is TensorFactories.cpp's hann/hamming/blackman/bartlett/
// kaiser_window: length 0 gives an empty tensor, length 1 ones; otherwise
// periodic windows compute window_length+1 points and drop the last. Each
// tensor operation rounds to the dtype (float16 and bfloat16 compute in
// float; Python scalars are converted to the dtype first); cos and calc_i0 are the
// float64 functions rounded, where PyTorch's vectorised float versions may
// differ by an ulp.
func winForward(c *call) ([]*array, error) {
	if len(c.in) != 1 || c.in[0] == nil || !c.in[0].scalar {
		return nil, fmt.Errorf("window: want window_length as a number")
	}
	dt, ok, err := dtypeAttr(c, "dtype")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("window: dtype is required")
	}
	kind := c.attrs.Str("kind", "")
	name := kind + "_window"
	if !dt.IsFloat() {
		return nil, fmt.Errorf("%s expects floating point dtypes, got: TensorOptions(dtype=%s, device=cpu, layout=Strided (default), "+
			"requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))", name, winCTypes[dt])
	}
	n64 := int64(c.in[0].data[0])
	if n64 < 0 {
		return nil, fmt.Errorf("%s requires non-negative window_length, got window_length=%d", name, n64)
	}
	if n64 > 1<<40 {
		return nil, fmt.Errorf("%s: window_length %d is too large", name, n64)
	}
	n := int(n64)
	out := newArray(dt, []int{n})
	if n <= 1 {
		if n == 1 {
			out.data[0] = 1
		}
		return []*array{out}, nil
	}
	switch kind {
	case "hann", "hamming", "blackman":
		if dt == tensor.Float16 {
			return nil, notImplemented("cos_vml_cpu", dt)
		}
	case "kaiser":
		if dt == tensor.Float16 {
			return nil, notImplemented("kaiser_window_cpu", dt)
		}
	case "bartlett":
	default:
		return nil, fmt.Errorf("window: unknown kind %q", kind)
	}
	m := n // points computed
	if c.attrs.Bool("periodic", true) {
		m++
	}
	// r rounds an operation's result to the dtype, s a Python scalar to the
	// type the operation computes in
	r := func(v float64) float64 { return v }
	s := r
	switch dt {
	case tensor.Float32:
		r = func(v float64) float64 { return float64(float32(v)) }
		s = r
	case tensor.Float16, tensor.BFloat16:
		r = func(v float64) float64 { return tensor.Round(dt, float64(float32(v))) }
		s = r
	}
	var f func(i int) float64
	switch kind {
	case "hann", "hamming":
		alpha, beta := 0.5, 0.5
		if kind == "hamming" {
			alpha, beta = c.attrs.Float("alpha", 0.54), c.attrs.Float("beta", 0.46)
		}
		k, nb, a := s(math.Pi*2./float64(m-1)), s(-beta), s(alpha)
		f = func(i int) float64 {
			return r(r(r(math.Cos(r(r(float64(i))*k)))*nb) + a)
		}
	case "blackman":
		k, c4, c2, c08, c05, c42 := s(math.Pi/float64(m-1)), s(4), s(2), s(0.08), s(0.5), s(0.42)
		f = func(i int) float64 {
			w := r(r(float64(i)) * k)
			x := r(r(math.Cos(r(w*c4))) * c08)
			y := r(r(math.Cos(r(w*c2))) * c05)
			return r(r(x-y) + c42)
		}
	case "bartlett":
		k := s(2. / float64(m-1))
		first := (m-1)>>1 + 1
		f = func(i int) float64 {
			w := r(r(float64(i)) * k)
			if i >= first {
				w = r(2 - w)
			}
			return w
		}
	case "kaiser":
		alpha, beta := r(float64(m-1)/2.0), r(c.attrs.Float("beta", 12))
		den := r(besselI0(beta))
		f = func(i int) float64 {
			t := r(r(r(float64(i))-alpha) / alpha)
			t = r(math.Sqrt(r(1 - r(t*t))))
			return r(r(besselI0(r(beta*t))) / den)
		}
	}
	forChunks(n, func(from, to int) error {
		for i := from; i < to; i++ {
			out.data[i] = f(i)
		}
		return nil
	})
	return []*array{out}, nil
}
