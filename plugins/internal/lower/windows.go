package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The windows family: torch's signal windows, creation ops without tensor
// inputs lowered onto the op window with a kind attribute.

func init() {
	const kw = "*, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False"
	def(winLower("hann"), "window_length, periodic=True, "+kw, "Torch.hann_window")
	def(winLower("hamming"), "window_length, periodic=True, alpha=0.54, beta=0.46, "+kw, "Torch.hamming_window")
	def(winLower("blackman"), "window_length, periodic=True, "+kw, "Torch.blackman_window")
	def(winLower("bartlett"), "window_length, periodic=True, "+kw, "Torch.bartlett_window")
	def(winLower("kaiser"), "window_length, periodic=True, beta=12.0, "+kw, "Torch.kaiser_window")
	usedOps = append(usedOps, "window")
}

// winLower lowers torch.<kind>_window: window_length and periodic, the
// hamming and kaiser parameters, and a floating dtype (the default float
// dtype when the call has none).
func winLower(kind string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		name := kind + "_window"
		n, err := b.integer("window_length")
		if err != nil {
			return nil, err
		}
		periodic, err := b.boolean("periodic")
		if err != nil {
			return nil, err
		}
		attrs := ops.Attrs{"kind": ops.StringAttr(kind), "periodic": ops.BoolAttr(periodic)}
		switch kind {
		case "hamming":
			alpha, err := b.float("alpha")
			if err != nil {
				return nil, err
			}
			beta, err := b.float("beta")
			if err != nil {
				return nil, err
			}
			attrs["alpha"], attrs["beta"] = ops.FloatAttr(alpha), ops.FloatAttr(beta)
		case "kaiser":
			beta, err := b.float("beta")
			if err != nil {
				return nil, err
			}
			attrs["beta"] = ops.FloatAttr(beta)
		}
		dt, err := b.factoryDType(ops.DefaultFloat)
		if err != nil {
			return nil, err
		}
		if d, _ := tensor.Parse(dt.String); !d.IsFloat() {
			return nil, b.argErr("dtype", "%s expects floating point dtypes, got: %s", name, ops.TypeName(d))
		}
		if n < 0 {
			return nil, b.argErr("window_length", "%s requires non-negative window_length, got window_length=%d", name, n)
		}
		attrs["dtype"] = dt
		return newPlan("window", attrs, scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: n})), nil
	}
}
