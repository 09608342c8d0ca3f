package lower

import (
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The misc family: the remaining creation ops (linspace, logspace, the
// triangle indices, the signal windows) and small ops.

func init() {
	// Factory functions: layout, device and pin_memory do not change the
	// values; requires_grad makes a leaf without a backward to check.
	const factoryKw = "*, out=None, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False"
	def(miscSpace("linspace"), "start, end, steps, "+factoryKw, "Torch.linspace")
	def(miscSpace("logspace"), "start, end, steps, base=10.0, "+factoryKw, "Torch.logspace")
	const indicesKw = "*, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False"
	def(miscTriIndices("tril_indices"), "row, col, offset=0, "+indicesKw, "Torch.tril_indices")
	def(miscTriIndices("triu_indices"), "row, col, offset=0, "+indicesKw, "Torch.triu_indices")
	usedOps = append(usedOps, "linspace", "logspace", "tril_indices", "triu_indices")
}

// miscSpace lowers torch.linspace and torch.logspace: start and end are
// Python numbers, the dtype is the default float dtype whatever their kind.
func miscSpace(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		start, _, err := b.number("start")
		if err != nil {
			return nil, err
		}
		end, _, err := b.number("end")
		if err != nil {
			return nil, err
		}
		steps, err := b.integer("steps")
		if err != nil {
			return nil, err
		}
		if steps < 0 {
			return nil, b.argErr("steps", "number of steps must be non-negative")
		}
		attrs := ops.Attrs{"steps": ops.IntAttr(steps)}
		if op == "logspace" {
			base, err := b.float("base")
			if err != nil {
				return nil, err
			}
			attrs["base"] = ops.FloatAttr(base)
		}
		dt, err := b.factoryDType(ops.DefaultFloat)
		if err != nil {
			return nil, err
		}
		attrs["dtype"] = dt
		return newPlan(op, attrs, start, end), nil
	}
}

// miscTriIndices lowers torch.tril_indices and torch.triu_indices(row, col,
// offset=0): int64 coordinates unless dtype says otherwise.
func miscTriIndices(op string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		row, err := b.integer("row")
		if err != nil {
			return nil, err
		}
		col, err := b.integer("col")
		if err != nil {
			return nil, err
		}
		off, err := b.integer("offset")
		if err != nil {
			return nil, err
		}
		if row < 0 {
			return nil, b.argErr("row", "row must be non-negative, got%d", row)
		}
		if col < 0 {
			return nil, b.argErr("col", "col must be non-negative, got%d", col)
		}
		dt, err := b.factoryDType(tensor.Int64)
		if err != nil {
			return nil, err
		}
		if d, _ := tensor.Parse(dt.String); d != tensor.Int64 && d != tensor.Int32 {
			return nil, b.argErr("dtype", "%q not implemented for '%s'", op, ops.TypeName(d))
		}
		return newPlan(op, ops.Attrs{"offset": ops.IntAttr(off), "dtype": dt},
			scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: row}), scalarBinding(ops.Scalar{Kind: ops.ScalarInt, I: col})), nil
	}
}
