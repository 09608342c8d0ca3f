package cpu

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The nn2 family (sdk/ops/schema_nn2.go): conv_transpose, conv_tbc,
// max_pool3d, the native_* normalisations, batch_norm_update_stats,
// grid_sampler, affine_grid, feature_dropout, softmax_backward_data,
// embedding_renorm and bilinear. Kernels compute in float64 and the device
// wrapper rounds their results; they reuse the convolution, pooling and
// normalisation machinery of nn_conv.go, nn_pool.go and nn_norm.go.

func init() {
	register("conv_transpose", &kernel{forward: nn2ConvTForward, backward: nn2ConvTBackward})
	supportDTypes("conv_transpose", tensor.Float64, tensor.Float32, tensor.Int64)
}

// nn2SameDType is PyTorch's "expected scalar type" check of the tensors of
// one kernel call: every non-nil array has the first one's dtype.
func nn2SameDType(arrs ...*array) error {
	want := arrs[0].dtype
	for _, a := range arrs[1:] {
		if a != nil && a.dtype != want {
			return fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(want), ops.TypeName(a.dtype))
		}
	}
	return nil
}

// ---- conv_transpose ----

// nn2ConvT is one transposed convolution, described by the convolution it
// transposes: cv maps the transposed output (cv.inSp) to the transposed
// input (cv.outSp), with cv.cout = the input's channels and cv.cin = the
// output's.
type nn2ConvT struct {
	cv        nnConv
	x, w, b   *array
	unbatched bool
	outShape  []int
}

func nn2ConvTSetup(c *call) (*nn2ConvT, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	w, err := nnNeed(c, 1, "weight")
	if err != nil {
		return nil, err
	}
	b := nnInput(c, 2)
	if len(w.shape) < 3 {
		return nil, fmt.Errorf("weight should have at least three dimensions")
	}
	nsp := len(w.shape) - 2
	t := &nn2ConvT{x: x, w: w, b: b}
	xs := x.shape
	switch len(xs) {
	case nsp + 2:
	case nsp + 1:
		t.unbatched = true
		xs = append([]int{1}, xs...)
	default:
		return nil, fmt.Errorf("Expected %dD (unbatched) or %dD (batched) input to conv_transpose%dd, but got input of size: %s", nsp+1, nsp+2, nsp, ops.ShapeList(x.shape))
	}
	var p [4][]int
	for i, name := range []string{"stride", "padding", "output_padding", "dilation"} {
		if p[i], err = nnConvParam(c, name, nsp); err != nil {
			return nil, err
		}
	}
	stride, pad, opad, dil := p[0], p[1], p[2], p[3]
	groups := int(c.attrs.Int("groups", 1))
	for i := 0; i < nsp; i++ {
		switch {
		case stride[i] <= 0:
			return nil, fmt.Errorf("non-positive stride is not supported")
		case pad[i] < 0:
			return nil, fmt.Errorf("negative padding is not supported")
		case opad[i] < 0:
			return nil, fmt.Errorf("negative output_padding is not supported")
		}
	}
	if groups <= 0 {
		return nil, fmt.Errorf("non-positive groups is not supported")
	}
	cin := xs[1]
	if w.shape[0] < groups {
		return nil, fmt.Errorf("Given groups=%d, expected weight to be at least %d at dimension 0, but got weight of size %s instead", groups, groups, ops.ShapeList(w.shape))
	}
	if w.shape[0]%groups != 0 {
		return nil, fmt.Errorf("Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of size %s instead", groups, groups, ops.ShapeList(w.shape))
	}
	if cin != w.shape[0] {
		return nil, fmt.Errorf("Given transposed=1, weight of size %s, expected input%s to have %d channels, but got %d channels instead", ops.ShapeList(w.shape), ops.ShapeList(xs), w.shape[0], cin)
	}
	cout := w.shape[1] * groups
	if b != nil && (len(b.shape) != 1 || b.shape[0] != cout) {
		return nil, fmt.Errorf("Given transposed=1, weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead", ops.ShapeList(w.shape), cout, ops.ShapeList(b.shape))
	}
	if err := nn2SameDType(x, w, b); err != nil {
		return nil, err
	}
	kname := "slow_conv_transpose2d_out_cpu"
	if nsp == 3 {
		kname = "slow_conv_transpose3d_out_cpu"
	}
	if x.dtype != tensor.Float64 && x.dtype != tensor.Float32 && x.dtype != tensor.Int64 {
		return nil, nnNotImpl(kname, x.dtype)
	}
	// PyTorch's shape check (2-d form for conv_transpose1d, whose input
	// it unsqueezes).
	dims := []string{"height", "width"}
	if nsp == 3 {
		dims = []string{"depth", "height", "width"}
	}
	pick := func(v []int, def int) []int {
		if nsp == 1 {
			return []int{def, v[0]}
		}
		return v
	}
	for i := 0; i < nsp; i++ {
		if dil[i] <= 0 {
			var parts []string
			for j, d := range pick(dil, 1) {
				parts = append(parts, fmt.Sprintf("dilation_%s: %d", dims[j], d))
			}
			return nil, fmt.Errorf("dilation should be greater than zero, but got %s", strings.Join(parts, ", "))
		}
	}
	for i := 0; i < nsp; i++ {
		if opad[i] >= stride[i] && opad[i] >= dil[i] {
			var parts []string
			for _, q := range []struct {
				name string
				v    []int
				def  int
			}{{"output_padding", opad, 0}, {"stride", stride, 1}, {"dilation", dil, 1}} {
				for j, d := range pick(q.v, q.def) {
					parts = append(parts, fmt.Sprintf("%s_%s: %d", q.name, dims[j], d))
				}
			}
			return nil, fmt.Errorf("output padding must be smaller than either stride or dilation, but got %s", strings.Join(parts, " "))
		}
	}
	inSp := xs[2:]
	outSp := make([]int, nsp)
	small := false
	for i := range outSp {
		outSp[i] = (inSp[i]-1)*stride[i] - 2*pad[i] + dil[i]*(w.shape[2+i]-1) + opad[i] + 1
		if outSp[i] < 1 {
			small = true
		}
	}
	if small {
		in, out := pick(inSp, 1), pick(outSp, 1)
		return nil, fmt.Errorf("Given input size per channel: (%s). Calculated output size per channel: (%s). Output size is too small", nnIntsStr(in), nnIntsStr(out))
	}
	t.cv = nnConv{batch: xs[0], cin: cout, cout: cin, groups: groups, inSp: outSp, kSp: w.shape[2:], outSp: inSp, dt: x.dtype}
	t.cv.inS, t.cv.kS, t.cv.oS = tensor.NumElements(outSp), tensor.NumElements(t.cv.kSp), tensor.NumElements(inSp)
	t.cv.buildTable(stride, pad, dil)
	if t.unbatched {
		t.outShape = append([]int{cout}, outSp...)
	} else {
		t.outShape = append([]int{xs[0], cout}, outSp...)
	}
	return t, nil
}

// col2im adds col ((cg·kS) × oS, one group's columns) into the channels
// of group g of batch element n of dst (laid out as the convolution's
// input).
func (cv *nnConv) nn2Col2im(n, g int, col, dst []float64) {
	cg := cv.cin / cv.groups
	parallelFor(runtime.GOMAXPROCS(0), cg, func(_, ci int) {
		d := dst[(n*cv.cin+g*cg+ci)*cv.inS:]
		for kk := 0; kk < cv.kS; kk++ {
			src := col[(ci*cv.kS+kk)*cv.oS : (ci*cv.kS+kk+1)*cv.oS]
			for o, t := range cv.tab[kk*cv.oS : (kk+1)*cv.oS] {
				if t >= 0 {
					d[t] += src[o]
				}
			}
		}
	})
}

func nn2ConvTForward(c *call) ([]*array, error) {
	t, err := nn2ConvTSetup(c)
	if err != nil {
		return nil, err
	}
	cv := &t.cv
	out := nnNew(t.outShape, t.x.dtype)
	cg, cog := cv.cin/cv.groups, cv.cout/cv.groups
	rowsK := cg * cv.kS
	col := float64sFor(rowsK * cv.oS)
	defer scratchDone(col)
	for n := 0; n < cv.batch; n++ {
		for g := 0; g < cv.groups; g++ {
			xg := t.x.data[(n*cv.cout+g*cog)*cv.oS:]
			nnGemm(true, false, rowsK, cv.oS, cog, t.w.data[g*cog*rowsK:], xg, col, false)
			cv.nn2Col2im(n, g, col, out.data)
		}
		if t.b != nil {
			for co := 0; co < cv.cin; co++ {
				o := out.data[(n*cv.cin+co)*cv.inS : (n*cv.cin+co+1)*cv.inS]
				for i := range o {
					o[i] += t.b.data[co]
				}
			}
		}
	}
	return []*array{out}, nil
}

// nn2ConvTBackward: the input gradient is the convolution of the output
// gradient with the weight, the weight gradient the convolution's weight
// gradient with the roles of input and output gradient swapped.
func nn2ConvTBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	t, err := nn2ConvTSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gw, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return []*array{gx, gw, gb}, nil
	}
	cv := &t.cv
	cv.x = g
	cg, cog := cv.cin/cv.groups, cv.cout/cv.groups
	rowsK := cg * cv.kS
	col := float64sFor(rowsK * cv.oS)
	defer scratchDone(col)
	for n := 0; n < cv.batch; n++ {
		for gr := 0; gr < cv.groups; gr++ {
			if gx == nil && gw == nil {
				break
			}
			cv.im2col(n, gr, col)
			wg := t.w.data[gr*cog*rowsK:]
			off := (n*cv.cout + gr*cog) * cv.oS
			if gx != nil {
				nnGemm(false, false, cog, cv.oS, rowsK, wg, col, gx.data[off:], false)
			}
			if gw != nil {
				nnGemm(false, true, cog, rowsK, cv.oS, t.x.data[off:], col, gw.data[gr*cog*rowsK:], true)
			}
		}
		if gb != nil {
			for co := 0; co < cv.cin; co++ {
				for _, v := range g.data[(n*cv.cin+co)*cv.inS : (n*cv.cin+co+1)*cv.inS] {
					gb.data[co] += v
				}
			}
		}
	}
	return []*array{gx, gw, gb}, nil
}
