package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

func TestWindows(t *testing.T) { runCases(t, windowsCases(), nil) }

func windowsCases() []lcase {
	w := func(kind string, n int64, periodic bool, dt string) ops.Attrs {
		return ops.Attrs{"kind": sa(kind), "periodic": ops.BoolAttr(periodic), "dtype": sa(dt)}
	}
	with := func(a ops.Attrs, kv ...interface{}) ops.Attrs {
		for i := 0; i < len(kv); i += 2 {
			a[kv[i].(string)] = ops.FloatAttr(kv[i+1].(float64))
		}
		return a
	}
	dev := framework.Arg{Kind: framework.ArgDevice, Str: "cpu"}
	var cs []lcase
	for _, kind := range []string{"hann", "blackman", "bartlett"} {
		name := "Torch." + kind + "_window"
		cs = append(cs,
			lcase{name: name, args: []framework.Arg{iv(8)}, op: "window", attrs: w(kind, 8, true, "float32"), in: []string{"int:8"}},
			lcase{name: name, args: []framework.Arg{iv(5), bv(false)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float64")), kw("device", dev), kw("requires_grad", bv(false))},
				op: "window", attrs: w(kind, 5, false, "float64")},
			lcase{name: name, kwargs: []framework.NamedArg{kw("window_length", iv(0)), kw("periodic", bv(true)), kw("dtype", dtv("torch.bfloat16"))}, op: "window", attrs: w(kind, 0, true, "bfloat16"), in: []string{"int:0"}},
			lcase{name: name, args: []framework.Arg{iv(-1)}, err: `argument "window_length": ` + kind + `_window requires non-negative window_length, got window_length=-1`},
			lcase{name: name, args: []framework.Arg{iv(4)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.int64"))}, err: `argument "dtype": ` + kind + `_window expects floating point dtypes, got: Long`},
			lcase{name: name, args: []framework.Arg{fv(4)}, err: `argument "window_length": expected int, got float`},
			lcase{name: name, args: []framework.Arg{iv(4), iv(1)}, err: `argument "periodic": expected bool, got int`},
			lcase{name: name, args: []framework.Arg{iv(4), bv(true), fv(0.5)}, err: "positional"},
			lcase{name: name, args: []framework.Arg{iv(4)}, kwargs: []framework.NamedArg{kw("out", nv())}, err: `unexpected keyword argument "out"`},
			lcase{name: name, err: `missing required argument "window_length"`},
		)
	}
	cs = append(cs,
		lcase{name: "Torch.hamming_window", args: []framework.Arg{iv(8)}, op: "window", attrs: with(w("hamming", 8, true, "float32"), "alpha", 0.54, "beta", 0.46)},
		lcase{name: "Torch.hamming_window", args: []framework.Arg{iv(8), bv(false), fv(0.3), iv(1)}, op: "window", attrs: with(w("hamming", 8, false, "float32"), "alpha", 0.3, "beta", 1.0)},
		lcase{name: "Torch.hamming_window", args: []framework.Arg{iv(8)}, kwargs: []framework.NamedArg{kw("beta", fv(0.2)), kw("dtype", dtv("torch.float64"))},
			op: "window", attrs: with(w("hamming", 8, true, "float64"), "alpha", 0.54, "beta", 0.2)},
		lcase{name: "Torch.hamming_window", args: []framework.Arg{iv(8), bv(true), sv("a")}, err: `argument "alpha": expected float, got str`},
		lcase{name: "Torch.hamming_window", args: []framework.Arg{iv(-3)}, err: `argument "window_length": hamming_window requires non-negative window_length, got window_length=-3`},
		lcase{name: "Torch.hamming_window", args: []framework.Arg{iv(3)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.bool"))}, err: `argument "dtype": hamming_window expects floating point dtypes, got: Bool`},
		lcase{name: "Torch.kaiser_window", args: []framework.Arg{iv(8)}, op: "window", attrs: with(w("kaiser", 8, true, "float32"), "beta", 12.0)},
		lcase{name: "Torch.kaiser_window", args: []framework.Arg{iv(8), bv(false), fv(5)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.float16"))}, op: "window", attrs: with(w("kaiser", 8, false, "float16"), "beta", 5.0)},
		lcase{name: "Torch.kaiser_window", args: []framework.Arg{iv(8)}, kwargs: []framework.NamedArg{kw("beta", sv("x"))}, err: `argument "beta": expected float, got str`},
		lcase{name: "Torch.kaiser_window", args: []framework.Arg{iv(-2)}, err: `argument "window_length": kaiser_window requires non-negative window_length, got window_length=-2`},
		lcase{name: "Torch.kaiser_window", args: []framework.Arg{iv(2)}, kwargs: []framework.NamedArg{kw("dtype", dtv("torch.complex64"))}, err: `argument "dtype": dtype "torch.complex64" is not supported`},
	)
	return cs
}
