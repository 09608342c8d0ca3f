package lower

import (
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

type nn2Args = []framework.Arg
type nn2Kws = []framework.NamedArg

func TestNN2ConvTranspose(t *testing.T) { runCases(t, nn2ConvTransposeCases(), nil) }

func nn2ConvTransposeCases() []lcase {
	x3, w3 := f32("args.0", 2, 4, 5), f32("args.1", 4, 3, 2)
	x4, w4 := f32("args.0", 1, 4, 5, 5), f32("args.1", 4, 2, 3, 3)
	b := f32("args.2", 6)
	return []lcase{
		{name: "Torch.conv_transpose1d", args: nn2Args{x3, w3}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(1), "padding": la(0), "output_padding": la(0), "dilation": la(1), "groups": ia(1)}, in: []string{"args.0", "args.1", "none"}},
		{name: "Functional.conv_transpose2d", args: nn2Args{x4, w4, b, iv(2), ints(1, 0), iv(1), iv(2), ints(1, 2)}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(2, 2), "padding": la(1, 0), "output_padding": la(1, 1), "dilation": la(1, 2), "groups": ia(2)}, in: []string{"args.0", "args.1", "args.2"}},
		{name: "Torch.conv_transpose2d", args: nn2Args{f32("args.0", 4, 5, 5), w4}, kwargs: nn2Kws{kw("stride", ints(2)), kw("dilation", iv(3))}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(2, 2), "dilation": la(3, 3)}},
		{name: "Functional.conv_transpose3d", args: nn2Args{f32("args.0", 1, 2, 3, 3, 3), f32("args.1", 2, 2, 1, 1, 1)}, op: "conv_transpose", attrs: ops.Attrs{"padding": la(0, 0, 0)}},
		{name: "Torch.conv_transpose1d", args: nn2Args{x4, w3}, err: "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d"},
		{name: "Torch.conv_transpose2d", args: nn2Args{x4, w3}, err: `argument "weight": expected a 4-D weight`},
		{name: "Torch.conv_transpose2d", args: nn2Args{x4, w4}, kwargs: nn2Kws{kw("groups", iv(0))}, err: "non-positive groups"},
		{name: "Torch.conv_transpose2d", args: nn2Args{x4, w4}, kwargs: nn2Kws{kw("stride", ints(1, 2, 3))}, err: "a single int or a list of 2 ints"},
		{name: "Functional.conv_transpose2d", args: nn2Args{x4, w4}, kwargs: nn2Kws{kw("padding", sv("same"))}, err: `argument "padding": expected int or list of ints, got str`},

		{name: "Torch._convolution", args: nn2Args{x3, w3, nv(), ints(2), ints(0), ints(1), bv(true), ints(1), iv(1), bv(false), bv(false), bv(true), bv(true)}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(2), "output_padding": la(1)}},
		{name: "Torch._convolution", args: nn2Args{x4, w4, nv(), ints(1), ints(1), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), bv(true)}, op: "conv_transpose",
			attrs: ops.Attrs{"stride": la(1, 1), "padding": la(1, 1)}},
		{name: "Torch._convolution", args: nn2Args{x4, f32("args.1", 2, 4, 3, 3), nv(), ints(1), ints(0), ints(1), bv(false), ints(0), iv(1), bv(false), bv(false), bv(true), bv(true)}, op: "convolution",
			attrs: ops.Attrs{"stride": la(1, 1)}},
		{name: "Torch._convolution", args: nn2Args{f32("args.0", 4, 5), w3, nv(), ints(1), ints(0), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), bv(true), bv(true)},
			err: "Expected 3-dimensional input for 3-dimensional weight"},
		{name: "Torch._convolution", args: nn2Args{x3, w3, nv(), iv(1), ints(0), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), bv(true), bv(true)},
			err: `argument "stride": expected list of ints, got int`},
		{name: "Torch._convolution", args: nn2Args{x3, w3, nv(), ints(1), ints(0), ints(1), bv(true), ints(0), iv(1), bv(false), bv(false), iv(1), bv(true)},
			err: `argument "cudnn_enabled": expected bool`},
	}
}

// nn2Cases are every lowering case of the nn2 family (TestOpsListed).
func nn2Cases() []lcase {
	return nn2ConvTransposeCases()
}
