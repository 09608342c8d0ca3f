package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
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
	register("conv_tbc", &kernel{forward: nn2TBCForward, backward: nn2TBCBackward})
	register("max_pool3d", &kernel{forward: nn2MaxPool3dForward, backward: nn2MaxPool3dBackward})
	supportDTypes("max_pool3d", tensor.Float64, tensor.Float32)
	register("native_layer_norm", &kernel{forward: nn2NativeLayerNormForward, backward: nn2NativeLayerNormBackward})
	register("native_group_norm", &kernel{forward: nn2NativeGroupNormForward, backward: nn2NativeGroupNormBackward})
	register("native_batch_norm", &kernel{forward: nn2NativeBatchNormForward, backward: nn2NativeBatchNormBackward})
	register("batch_norm_update_stats", &kernel{forward: nn2UpdateStatsForward})
	for _, op := range []string{"native_layer_norm", "native_group_norm", "native_batch_norm", "batch_norm_update_stats"} {
		supportDTypes(op, tensor.Float64, tensor.Float32, tensor.BFloat16)
	}
	register("grid_sampler", &kernel{forward: nn2GridForward, backward: nn2GridBackward})
	supportDTypes("grid_sampler", tensor.Float64, tensor.Float32)
	register("affine_grid", &kernel{forward: nn2AffineForward, backward: nn2AffineBackward})
	supportDTypes("affine_grid", tensor.Float64, tensor.Float32, tensor.BFloat16, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8)
	register("feature_dropout", &kernel{forward: nn2DropoutForward, backward: nn2DropoutBackward})
	supportDTypes("feature_dropout", tensor.Float64, tensor.Float32, tensor.BFloat16)
	register("softmax_backward_data", &kernel{forward: nn2SoftmaxBwdForward, backward: nn2SoftmaxBwdBackward})
	supportDTypes("softmax_backward_data", tensor.Float64, tensor.Float32, tensor.BFloat16)
	register("embedding_renorm", &kernel{forward: nn2RenormForward})
	register("bilinear", &kernel{forward: nn2BilinearForward, backward: nn2BilinearBackward})
	supportDTypes("bilinear", tensor.Float64, tensor.Float32, tensor.BFloat16, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8)
	supportDTypes("conv_tbc", tensor.Float64, tensor.Float32, tensor.BFloat16, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8)
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

// ---- conv_tbc ----

type nn2TBC struct {
	x, w, b             *array
	t, batch, cin, cout int
	k, pad, ot          int
}

func nn2TBCSetup(c *call) (*nn2TBC, error) {
	x, w, b := c.in[0], c.in[1], c.in[2]
	switch {
	case x.rank() != 3:
		return nil, fmt.Errorf("Input must have 3 dims: time, batch, in_channel")
	case w.rank() != 3:
		return nil, fmt.Errorf("Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.")
	case b.rank() != 1:
		return nil, fmt.Errorf("Bias must be 1-D")
	case x.shape[2] != w.shape[1]:
		return nil, fmt.Errorf("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
	case b.shape[0] != w.shape[2]:
		return nil, fmt.Errorf("Bias size must equal dim 2 in the weight tensor (output channels).")
	}
	t := &nn2TBC{x: x, w: w, b: b, t: x.shape[0], batch: x.shape[1], cin: x.shape[2], cout: w.shape[2], k: w.shape[0], pad: int(c.attrs.Int("pad", 0))}
	t.ot = t.t + 2*t.pad - t.k + 1
	if t.ot < 0 {
		return nil, fmt.Errorf("Trying to create tensor with negative dimension %d: [%d, %d, %d]", t.ot, t.ot, t.batch, t.cout)
	}
	if x.dtype == tensor.Bool || x.dtype == tensor.Float16 {
		return nil, nnNotImpl("addmm_impl_cpu_", x.dtype)
	}
	if w.dtype != x.dtype {
		return nil, fmt.Errorf("self and mat2 must have the same dtype")
	}
	return t, nil
}

// rows returns, for kernel offset k, the output times [t0, t1) that read
// an input time t + k − pad inside the input.
func (t *nn2TBC) rows(k int) (t0, t1 int) {
	t0 = max(0, t.pad-k)
	t1 = min(t.ot, t.t+t.pad-k)
	return t0, max(t0, t1)
}

// gradBlocks calls fn for each kernel offset k that meets the output:
// rows output rows (times the batch) starting at gk in the output gradient
// g, the matching input rows starting at element xo, and weight slice wk.
func (t *nn2TBC) gradBlocks(g []float64, fn func(k, rows, xo int, gk, wk []float64)) {
	for k := 0; k < t.k; k++ {
		t0, t1 := t.rows(k)
		if t1 == t0 {
			continue
		}
		fn(k, (t1-t0)*t.batch, (t0+k-t.pad)*t.batch*t.cin, g[t0*t.batch*t.cout:], t.w.data[k*t.cin*t.cout:])
	}
}

func nn2TBCForward(c *call) ([]*array, error) {
	t, err := nn2TBCSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew([]int{t.ot, t.batch, t.cout}, t.x.dtype)
	if narrowDT(t.x.dtype) && t.b.dtype == t.x.dtype {
		narrowTBC(t, out.data)
		return []*array{out}, nil
	}
	for i := 0; i < t.ot*t.batch; i++ {
		copy(out.data[i*t.cout:(i+1)*t.cout], t.b.data)
	}
	for k := 0; k < t.k; k++ {
		t0, t1 := t.rows(k)
		if t1 == t0 {
			continue
		}
		a := t.x.data[(t0+k-t.pad)*t.batch*t.cin:]
		nnGemm(false, false, (t1-t0)*t.batch, t.cout, t.cin, a, t.w.data[k*t.cin*t.cout:], out.data[t0*t.batch*t.cout:], true)
	}
	return []*array{out}, nil
}

func nn2TBCBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	t, err := nn2TBCSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gw, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return []*array{gx, gw, gb}, nil
	}
	if narrowDT(t.x.dtype) && t.b.dtype == t.x.dtype {
		narrowTBCGrads(t, g.data, dataOf(gx), dataOf(gw), dataOf(gb))
		return []*array{gx, gw, gb}, nil
	}
	t.gradBlocks(g.data, func(k, rows, xo int, gk, wk []float64) {
		if gx != nil {
			nnGemm(false, true, rows, t.cin, t.cout, gk, wk, gx.data[xo:], true)
		}
		if gw != nil {
			nnGemm(true, false, t.cin, t.cout, rows, t.x.data[xo:], gk, gw.data[k*t.cin*t.cout:], true)
		}
	})
	if gb != nil {
		for i := 0; i < t.ot*t.batch; i++ {
			for j, v := range g.data[i*t.cout : (i+1)*t.cout] {
				gb.data[j] += v
			}
		}
		if gb.dtype != t.x.dtype {
			// PyTorch sums at the output's dtype
			roundSlice(t.x.dtype, gb.data)
		}
	}
	return []*array{gx, gw, gb}, nil
}

// ---- max_pool3d ----

type nn2MaxPool3d struct {
	x                 *array
	planes            int
	in, out           [3]int // (D, H, W) of input and output
	k, s, p, d        [3]int
	retIdx            bool
	outShape          []int
	inPlane, outPlane int
}

// nn2Triple reads an attribute of one or three ints; empty gives def.
func nn2Triple(c *call, name string, def []int64) ([3]int, error) {
	v := c.attrs.Ints(name, def)
	if len(v) == 0 {
		v = def
	}
	switch len(v) {
	case 1:
		return [3]int{int(v[0]), int(v[0]), int(v[0])}, nil
	case 3:
		return [3]int{int(v[0]), int(v[1]), int(v[2])}, nil
	}
	if name == "kernel_size" {
		return [3]int{}, fmt.Errorf("max_pool3d: kernel_size must either be a single int, or a tuple of three ints")
	}
	if name == "stride" {
		return [3]int{}, fmt.Errorf("max_pool3d: stride must either be omitted, a single int, or a tuple of three ints")
	}
	return [3]int{}, fmt.Errorf("max_pool3d: %s must be either be a single int, or a tuple of three ints", name)
}

// nn2MaxPool3dSetup follows max_pool3d_with_indices_out_cpu_template's
// checks in their order.
func nn2MaxPool3dSetup(c *call) (*nn2MaxPool3d, error) {
	x := c.in[0]
	mp := &nn2MaxPool3d{x: x, retIdx: c.attrs.Bool("return_indices", false)}
	var err error
	if mp.k, err = nn2Triple(c, "kernel_size", nil); err != nil {
		return nil, err
	}
	if mp.s, err = nn2Triple(c, "stride", []int64{int64(mp.k[0]), int64(mp.k[1]), int64(mp.k[2])}); err != nil {
		return nil, err
	}
	if mp.p, err = nn2Triple(c, "padding", []int64{0}); err != nil {
		return nil, err
	}
	if mp.d, err = nn2Triple(c, "dilation", []int64{1}); err != nil {
		return nil, err
	}
	r := x.rank()
	if r != 4 && r != 5 {
		return nil, fmt.Errorf("non-empty 4D or 5D (batch mode) tensor expected for input")
	}
	copy(mp.in[:], x.shape[r-3:])
	ceil := c.attrs.Bool("ceil_mode", false)
	for i := 0; i < 3; i++ {
		switch {
		case mp.s[i] == 0:
			return nil, fmt.Errorf("stride should not be zero")
		case mp.p[i] < 0:
			return nil, fmt.Errorf("pad must be non-negative, but got pad: %d", mp.p[i])
		case mp.p[i] > mp.k[i]/2:
			return nil, fmt.Errorf("pad should be at most half of kernel size, but got pad=%d and kernel_size=%d", mp.p[i], mp.k[i])
		}
		mp.out[i] = nnPoolOutSize(mp.in[i], mp.k[i], mp.p[i], mp.s[i], mp.d[i], ceil)
	}
	switch {
	case mp.k[0] <= 0 || mp.k[1] <= 0 || mp.k[2] <= 0:
		return nil, fmt.Errorf("kernel size should be greater than zero, but got kT: %d kH: %d kW: %d", mp.k[0], mp.k[1], mp.k[2])
	case mp.s[0] <= 0 || mp.s[1] <= 0 || mp.s[2] <= 0:
		return nil, fmt.Errorf("stride should be greater than zero, but got dT: %d dH: %d dW: %d", mp.s[0], mp.s[1], mp.s[2])
	case mp.d[0] <= 0 || mp.d[1] <= 0 || mp.d[2] <= 0:
		return nil, fmt.Errorf("dilation should be greater than zero, but got dilationT: %d dilationH: %d dilationW: %d", mp.d[0], mp.d[1], mp.d[2])
	}
	for i, n := range x.shape {
		if n <= 0 && !(r == 5 && i == 0) {
			return nil, fmt.Errorf("max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to have positive length, but input has a shape of %s and non-batch dimension 0 has length zero!", ops.ShapeList(x.shape))
		}
	}
	if mp.out[0] < 1 || mp.out[1] < 1 || mp.out[2] < 1 {
		ch := x.shape[r-4]
		return nil, fmt.Errorf("Given input size: (%dx%dx%dx%d). Calculated output size: (%dx%dx%dx%d). Output size is too small",
			ch, mp.in[0], mp.in[1], mp.in[2], ch, mp.out[0], mp.out[1], mp.out[2])
	}
	if x.dtype != tensor.Float64 && x.dtype != tensor.Float32 {
		return nil, nnNotImpl("max_pool3d_with_indices_cpu", x.dtype)
	}
	mp.inPlane = mp.in[0] * mp.in[1] * mp.in[2]
	mp.outPlane = mp.out[0] * mp.out[1] * mp.out[2]
	mp.planes = x.len() / mp.inPlane
	mp.outShape = append(append([]int{}, x.shape[:r-3]...), mp.out[:]...)
	return mp, nil
}

// nn2Start is the first in-range position of a window starting at o·s − p.
func nn2Start(o, s, p, d int) int {
	v := o*s - p
	for v < 0 {
		v += d
	}
	return v
}

// argmax returns, per output element, the flat D·H·W index of its maximum
// within the plane, and the maximum: PyTorch's CPU kernel keeps the first
// valid position by default and replaces it with a larger value or a NaN.
func (mp *nn2MaxPool3d) argmax() (idx []int, val []float64) {
	n := mp.planes * mp.outPlane
	idx = make([]int, n)
	val = make([]float64, n)
	hw := mp.in[1] * mp.in[2]
	parallelPlanes(mp.planes, func(pl int) {
		src := mp.x.data[pl*mp.inPlane : (pl+1)*mp.inPlane]
		o := pl * mp.outPlane
		for ot := 0; ot < mp.out[0]; ot++ {
			t0 := nn2Start(ot, mp.s[0], mp.p[0], mp.d[0])
			t1 := min(ot*mp.s[0]-mp.p[0]+(mp.k[0]-1)*mp.d[0]+1, mp.in[0])
			for oh := 0; oh < mp.out[1]; oh++ {
				h0 := nn2Start(oh, mp.s[1], mp.p[1], mp.d[1])
				h1 := min(oh*mp.s[1]-mp.p[1]+(mp.k[1]-1)*mp.d[1]+1, mp.in[1])
				for ow := 0; ow < mp.out[2]; ow++ {
					w0 := nn2Start(ow, mp.s[2], mp.p[2], mp.d[2])
					w1 := min(ow*mp.s[2]-mp.p[2]+(mp.k[2]-1)*mp.d[2]+1, mp.in[2])
					best := t0*hw + h0*mp.in[2] + w0
					m := math.Inf(-1)
					for it := t0; it < t1; it += mp.d[0] {
						for ih := h0; ih < h1; ih += mp.d[1] {
							row := it*hw + ih*mp.in[2]
							for iw := w0; iw < w1; iw += mp.d[2] {
								if v := src[row+iw]; v > m || v != v {
									m, best = v, row+iw
								}
							}
						}
					}
					idx[o], val[o] = best, m
					o++
				}
			}
		}
	})
	return idx, val
}

func nn2MaxPool3dForward(c *call) ([]*array, error) {
	mp, err := nn2MaxPool3dSetup(c)
	if err != nil {
		return nil, err
	}
	idx, val := mp.argmax()
	return maxPoolOutputs(mp.outShape, mp.x.dtype, mp.retIdx, idx, val), nil
}

// nn2MaxPool3dBackward routes each output gradient to its argmax (planes
// are independent; each adds its outputs in order).
func nn2MaxPool3dBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	mp, err := nn2MaxPool3dSetup(c)
	if err != nil {
		return nil, err
	}
	idx, _ := mp.argmax()
	parallelPlanes(mp.planes, func(pl int) {
		dst := gx.data[pl*mp.inPlane : (pl+1)*mp.inPlane]
		for o := pl * mp.outPlane; o < (pl+1)*mp.outPlane; o++ {
			dst[idx[o]] += g.data[o]
		}
	})
	return []*array{gx}, nil
}

// ---- native_layer_norm, native_group_norm, native_batch_norm ----

// nn2Half refuses float16 inputs with PyTorch's dispatch error: its CPU
// normalisation kernels lack the dtype.
func nn2Half(kernelName string, arrs ...*array) error {
	for _, a := range arrs {
		if a != nil && a.dtype == tensor.Float16 {
			return nnNotImpl(kernelName, a.dtype)
		}
	}
	return nil
}

func nn2NativeLayerNormForward(c *call) ([]*array, error) {
	ln, err := layerNormSetup(c)
	if err != nil {
		return nil, err
	}
	if err := nn2Half("LayerNormKernelImpl", ln.x); err != nil {
		return nil, err
	}
	if err := nn2SameDType(ln.x, ln.w, ln.b); err != nil {
		return nil, err
	}
	outs, err := layerNormForward(c)
	if err != nil {
		return nil, err
	}
	mean, rstd := ln.stats()
	k := len(c.attrs.Ints("normalized_shape", nil))
	r := ln.x.rank()
	shape := append([]int{}, ln.x.shape[:r-k]...)
	for i := 0; i < k; i++ {
		shape = append(shape, 1)
	}
	return append(outs, &array{shape: shape, data: mean, dtype: ln.x.dtype}, &array{shape: append([]int{}, shape...), data: rstd, dtype: ln.x.dtype}), nil
}

// nn2NativeLayerNormBackward: PyTorch differentiates the output only (mean
// and rstd take no gradient).
func nn2NativeLayerNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	return layerNormBackward(c, outs[:1], gradOuts[:min(1, len(gradOuts))])
}

// nn2GroupNormCall is native_group_norm's call as the group_norm kernel's:
// input viewed as (N, C, HxW), with PyTorch's checks.
func nn2GroupNormCall(c *call) (*call, error) {
	x, w, b := c.in[0], c.in[1], c.in[2]
	n, ch, hw, g := c.attrs.Int("N", 0), c.attrs.Int("C", 0), c.attrs.Int("HxW", 0), c.attrs.Int("group", 0)
	if int64(x.len()) != n*ch*hw {
		return nil, fmt.Errorf("Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)")
	}
	if err := nn2Half("GroupNormKernelImpl", x); err != nil {
		return nil, err
	}
	for _, p := range []*array{w, b} {
		if p != nil && p.len() != int(ch) {
			return nil, fmt.Errorf("Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape %s and input of shape %s",
				ops.ShapeList(p.shape), ops.ShapeList(x.shape))
		}
	}
	xv := &array{shape: []int{int(n), int(ch), int(hw)}, data: x.data, dtype: x.dtype}
	attrs := ops.Attrs{"num_groups": ops.IntAttr(g), "eps": ops.FloatAttr(c.attrs.Float("eps", 1e-5))}
	return &call{op: "group_norm", attrs: attrs, in: []*array{xv, w, b}, requiresGrad: c.requiresGrad, seed: c.seed}, nil
}

func nn2NativeGroupNormForward(c *call) ([]*array, error) {
	c2, err := nn2GroupNormCall(c)
	if err != nil {
		return nil, err
	}
	gn, err := newGroupNorm(c2)
	if err != nil {
		return nil, err
	}
	outs, err := groupNormKernel().forward(c2)
	if err != nil {
		return nil, err
	}
	outs[0].shape = append([]int{}, c.in[0].shape...)
	q := gn.n * gn.g
	mean, rstd := make([]float64, q), make([]float64, q)
	parallelPlanes(q, func(i int) { mean[i], rstd[i] = gn.stats(i) })
	shape := []int{gn.n, gn.g}
	return append(outs, &array{shape: shape, data: mean, dtype: gn.x.dtype}, &array{shape: []int{gn.n, gn.g}, data: rstd, dtype: gn.x.dtype}), nil
}

// nn2NativeGroupNormBackward adds to group_norm's backward the gradients
// of mean and rstd: ∂mean/∂x = 1/m and ∂rstd/∂x = −rstd³·(x − mean)/m over
// each block of m elements. At bfloat16 with a gradient for mean or rstd
// it is PyTorch's composite formula, rounded step by step
// (bf16CompositeBackward); an all-zero gradient counts as none (the device
// fills a missing one with zeros, where PyTorch's would be undefined).
func nn2NativeGroupNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	c2, err := nn2GroupNormCall(c)
	if err != nil {
		return nil, err
	}
	gn, err := newGroupNorm(c2)
	if err != nil {
		return nil, err
	}
	if gm, gr := bf16GradGiven(nnGradOut(gradOuts, 1)), bf16GradGiven(nnGradOut(gradOuts, 2)); gn.bf16() && (gm != nil || gr != nil) {
		var g, dm, dr []float64
		for _, p := range []struct {
			a   *array
			dst *[]float64
		}{{bf16GradGiven(nnGradOut(gradOuts, 0)), &g}, {gm, &dm}, {gr, &dr}} {
			if p.a != nil {
				*p.dst = p.a.data
			}
		}
		gx, dw, db := gn.bf16CompositeBackward(g, dm, dr, c.requiresGrad[0])
		res := []*array{nil, nil, nil}
		if gx != nil {
			res[0] = gradForOwned(c, 0, gx, c.in[0].shape)
		}
		for i, d := range [][]float64{dw, db} {
			if p := c.in[1+i]; p != nil && c.requiresGrad[1+i] {
				if d == nil {
					d = make([]float64, p.len())
				}
				res[1+i] = &array{shape: append([]int{}, p.shape...), data: d, dtype: p.dtype}
			}
		}
		return res, nil
	}
	var g0 *array
	if g := nnGradOut(gradOuts, 0); g != nil {
		g0 = &array{shape: c2.in[0].shape, data: g.data, dtype: g.dtype}
	}
	res, err := groupNormKernel().backward(c2, outs[:1], []*array{g0})
	if err != nil {
		return nil, err
	}
	gm, gr := nnGradOut(gradOuts, 1), nnGradOut(gradOuts, 2)
	if res[0] != nil {
		res[0].shape = append([]int{}, c.in[0].shape...)
		if gm != nil || gr != nil {
			m := gn.block()
			inv := 1 / float64(m)
			parallelPlanes(gn.n*gn.g, func(q int) {
				mean, rstd := gn.stats(q)
				var dm, dr float64
				if gm != nil {
					dm = gm.data[q]
				}
				if gr != nil {
					dr = gr.data[q]
				}
				r3 := rstd * rstd * rstd
				for k := q * m; k < (q+1)*m; k++ {
					res[0].data[k] += dm*inv - dr*r3*(gn.x.data[k]-mean)*inv
				}
			})
		}
	}
	return res, nil
}

// nn2BatchNormCall is native_batch_norm's call (input, weight, bias,
// running_mean, running_var) as the batch_norm kernel's (input,
// running_mean, running_var, weight, bias), and the dtype of the
// statistics outputs: the input's, or float32 for a bfloat16 input with
// float32 parameters (PyTorch's mixed-type rule; any other mix is refused).
// A training call with one value per channel, which batch_norm refuses and
// native_batch_norm normalises to zero, runs as an evaluation with the
// input as mean and a zero variance.
func nn2BatchNormCall(c *call) (*call, tensor.DType, error) {
	if err := nn2Half("batch_norm", c.in...); err != nil {
		return nil, 0, err
	}
	x := c.in[0]
	dt := x.dtype
	for _, p := range c.in[1:] {
		if p == nil || p.dtype == x.dtype || !x.dtype.IsFloat() || !p.dtype.IsFloat() {
			continue
		}
		if x.dtype == tensor.BFloat16 && p.dtype == tensor.Float32 {
			dt = tensor.Float32
			continue
		}
		return nil, 0, fmt.Errorf("mixed dtype (CPU): expect parameter to have scalar type of Float")
	}
	in := []*array{x, c.in[3], c.in[4], c.in[1], c.in[2]}
	rg := []bool{c.requiresGrad[0], c.requiresGrad[3], c.requiresGrad[4], c.requiresGrad[1], c.requiresGrad[2]}
	c2 := &call{op: "batch_norm", attrs: c.attrs, in: in, requiresGrad: rg, seed: c.seed}
	if c.attrs.Bool("training", false) && x.rank() >= 2 && x.len() == x.shape[1] && x.len() > 0 {
		ch := x.shape[1]
		rm := &array{shape: []int{ch}, data: x.data, dtype: x.dtype}
		rv := nnNew([]int{ch}, x.dtype)
		c2.in[1], c2.in[2] = rm, rv
		c2.attrs = ops.Attrs{"training": ops.BoolAttr(false), "eps": ops.FloatAttr(c.attrs.Float("eps", 1e-5))}
		// the mean follows the input: x − mean is zero whatever x is
		c2.requiresGrad = []bool{false, false, false, rg[3], rg[4]}
	}
	return c2, dt, nil
}

func nn2NativeBatchNormForward(c *call) ([]*array, error) {
	c2, dt, err := nn2BatchNormCall(c)
	if err != nil {
		return nil, err
	}
	bn, err := batchNormSetup(c2)
	if err != nil {
		return nil, err
	}
	outs, err := batchNormForward(c2)
	if err != nil {
		return nil, err
	}
	if !c.attrs.Bool("training", false) {
		return append(outs, nnNew([]int{0}, dt), nnNew([]int{0}, dt)), nil
	}
	mean, invstd := bn.stats()
	return append(outs, &array{shape: []int{bn.ch}, data: mean, dtype: dt}, &array{shape: []int{bn.ch}, data: invstd, dtype: dt}), nil
}

// nn2NativeBatchNormBackward: PyTorch differentiates the output only.
func nn2NativeBatchNormBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	c2, _, err := nn2BatchNormCall(c)
	if err != nil {
		return nil, err
	}
	res, err := batchNormBackward(c2, outs[:1], gradOuts[:min(1, len(gradOuts))])
	if err != nil {
		return nil, err
	}
	gx := res[0]
	if gx == nil && nnWantsGrad(c, 0) {
		gx = nnGradFor(c, 0) // one value per channel: the output does not depend on the input
	}
	return []*array{gx, res[3], res[4], nil, nil}, nil
}

// nn2UpdateStatsForward is batch_norm_update_stats: the per-channel mean
// and biased variance.
func nn2UpdateStatsForward(c *call) ([]*array, error) {
	x := c.in[0]
	if err := nn2Half("batch_norm_update_stats_cpu", x); err != nil {
		return nil, err
	}
	if !x.dtype.IsFloat() {
		return nil, nnNotImpl("batch_norm_update_stats_cpu", x.dtype)
	}
	if x.rank() < 2 {
		return nil, fmt.Errorf("Dimension out of range (expected to be in range of [-%d, %d], but got 1)", max(x.rank(), 1), max(x.rank(), 1)-1)
	}
	bn := &nnBatchNorm{x: x, n: x.shape[0], ch: x.shape[1], inner: tensor.NumElements(x.shape[2:])}
	mean, variance := make([]float64, bn.ch), make([]float64, bn.ch)
	cnt := float64(bn.n * bn.inner)
	parallelPlanes(bn.ch, func(ch int) {
		s := 0.0
		bn.each(ch, func(k int) { s += x.data[k] })
		m := s / cnt
		v := 0.0
		bn.each(ch, func(k int) { d := x.data[k] - m; v += d * d })
		mean[ch], variance[ch] = m, v/cnt
	})
	return []*array{{shape: []int{bn.ch}, data: mean, dtype: x.dtype}, {shape: []int{bn.ch}, data: variance, dtype: x.dtype}}, nil
}

// ---- grid_sampler ----

// nn2Grid is one grid_sampler call: input (N, C, [D,] H, W) sampled at the
// grid's (N, [D',] H', W', 2|3) normalised coordinates (x, y[, z]).
type nn2Grid struct {
	x, grid   *array
	n, c      int
	d3        bool
	in, out   [3]int // (D, H, W) of input and output; D = 1 for 4-d
	inP, outP int    // elements of one input and one output channel
	mode, pad int
	align     bool
}

func nn2GridSetup(c *call) (*nn2Grid, error) {
	x, grid := c.in[0], c.in[1]
	r := x.rank()
	if r != 4 && r != 5 || grid.rank() != r {
		if grid.rank() < 1 || grid.shape[grid.rank()-1] != r-2 {
			return nil, fmt.Errorf("grid_sampler(): expected grid to have size %d in last dimension, but got grid with sizes %s", r-2, ops.ShapeList(grid.shape))
		}
		return nil, fmt.Errorf("grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got input with sizes %s and grid with sizes %s",
			ops.ShapeList(x.shape), ops.ShapeList(grid.shape))
	}
	if x.shape[0] != grid.shape[0] {
		return nil, fmt.Errorf("grid_sampler(): expected grid and input to have same batch size, but got input with sizes %s and grid with sizes %s",
			ops.ShapeList(x.shape), ops.ShapeList(grid.shape))
	}
	if grid.shape[r-1] != r-2 {
		return nil, fmt.Errorf("grid_sampler(): expected grid to have size %d in last dimension, but got grid with sizes %s", r-2, ops.ShapeList(grid.shape))
	}
	for i := 2; i < r; i++ {
		if x.shape[i] == 0 {
			return nil, fmt.Errorf("grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes %s with dimension %d being empty", ops.ShapeList(x.shape), i)
		}
	}
	g := &nn2Grid{x: x, grid: grid, n: x.shape[0], c: x.shape[1], d3: r == 5,
		mode: int(c.attrs.Int("interpolation_mode", 0)), pad: int(c.attrs.Int("padding_mode", 0)), align: c.attrs.Bool("align_corners", false)}
	if g.mode == 2 && g.d3 {
		return nil, fmt.Errorf("grid_sampler(): bicubic interpolation only supports 4D input")
	}
	if g.mode < 0 || g.mode > 2 {
		return nil, fmt.Errorf("grid_sampler(): interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic), got %d", g.mode)
	}
	if g.pad < 0 || g.pad > 2 {
		return nil, fmt.Errorf("grid_sampler(): padding_mode must be 0 (zeros), 1 (border) or 2 (reflection), got %d", g.pad)
	}
	if err := nn2SameDType(x, grid); err != nil {
		return nil, err
	}
	if x.dtype != tensor.Float64 && x.dtype != tensor.Float32 {
		if g.d3 {
			return nil, nnNotImpl("grid_sampler3d_cpu", x.dtype)
		}
		return nil, fmt.Errorf("grid_sampler_2d_cpu not implemented for %s", ops.TypeName(x.dtype))
	}
	g.in = [3]int{1, x.shape[r-2], x.shape[r-1]}
	g.out = [3]int{1, grid.shape[r-3], grid.shape[r-2]}
	if g.d3 {
		g.in[0], g.out[0] = x.shape[2], grid.shape[1]
	}
	g.inP = g.in[0] * g.in[1] * g.in[2]
	g.outP = g.out[0] * g.out[1] * g.out[2]
	return g, nil
}

func (g *nn2Grid) outShape() []int {
	if g.d3 {
		return []int{g.n, g.c, g.out[0], g.out[1], g.out[2]}
	}
	return []int{g.n, g.c, g.out[1], g.out[2]}
}

// nn2Clip is clip_coordinates_set_grad: in clamped to [0, size−1], with
// its derivative.
func nn2Clip(in float64, size int) (float64, float64) {
	if in <= 0 {
		return 0, 0
	}
	if m := float64(size - 1); in >= m {
		return m, 0
	}
	return in, 1
}

// nn2Reflect is reflect_coordinates_set_grad.
func nn2Reflect(in float64, twiceLow, twiceHigh int) (float64, float64) {
	if twiceLow == twiceHigh {
		return 0, 0
	}
	lo := float64(twiceLow) / 2
	span := float64(twiceHigh-twiceLow) / 2
	in -= lo
	mult := 1.0
	if in < 0 {
		mult, in = -1, -in
	}
	extra := math.Mod(in, span)
	if flips := math.Floor(in / span); math.Mod(flips, 2) == 0 {
		return extra + lo, mult
	}
	return span - extra + lo, -mult
}

// coords is compute_coordinates: the padding mode applied to an
// unnormalised coordinate, with its derivative.
func (g *nn2Grid) coords(v float64, size int) (float64, float64) {
	d := 1.0
	switch g.pad {
	case 1:
		v, d = nn2Clip(v, size)
	case 2:
		var dr, dc float64
		if g.align {
			v, dr = nn2Reflect(v, 0, 2*(size-1))
		} else {
			v, dr = nn2Reflect(v, -1, 2*size-1)
		}
		v, dc = nn2Clip(v, size)
		d = dr * dc
	}
	if v > math.MaxInt32-1 || v < math.MinInt32 || math.IsNaN(v) || math.IsInf(v, 0) {
		v = -100 // safe_downgrade_to_int_range: out of bounds
	}
	return v, d
}

// unnorm maps a normalised coordinate to a pixel one, with its derivative.
func (g *nn2Grid) unnorm(v float64, size int) (float64, float64) {
	if g.align {
		return (v + 1) / 2 * float64(size-1), float64(size-1) / 2
	}
	return ((v+1)*float64(size) - 1) / 2, float64(size) / 2
}

// source is grid_sampler_compute_source_index_set_grad.
func (g *nn2Grid) source(v float64, size int) (float64, float64) {
	v, d := g.unnorm(v, size)
	v, dc := g.coords(v, size)
	return v, d * dc
}

// nn2Corners are the (up to 8) input positions a point reads and their
// weights; off is −1 for a position outside the input.
type nn2Corners struct {
	off [8]int
	w   [8]float64
	n   int
}

func nn2In(i, size int) bool { return i >= 0 && i < size }

// linear fills the bilinear (trilinear for 3-d) corners of point (x, y, z)
// in pixel coordinates, with the partial derivatives of each weight.
func (g *nn2Grid) linear(x, y, z float64, k *nn2Corners, dx, dy, dz *[8]float64) {
	x0, y0, z0 := math.Floor(x), math.Floor(y), math.Floor(z)
	fx, fy, fz := x-x0, y-y0, z-z0
	ix, iy, iz := int(x0), int(y0), int(z0)
	nz := 1
	if g.d3 {
		nz = 2
	}
	k.n = 0
	for a := 0; a < nz; a++ {
		wz, dwz := 1.0, 0.0
		if g.d3 {
			wz, dwz = 1-fz, -1.0
			if a == 1 {
				wz, dwz = fz, 1
			}
		}
		for b := 0; b < 2; b++ {
			wy, dwy := 1-fy, -1.0
			if b == 1 {
				wy, dwy = fy, 1
			}
			for c := 0; c < 2; c++ {
				wx, dwx := 1-fx, -1.0
				if c == 1 {
					wx, dwx = fx, 1
				}
				px, py, pz := ix+c, iy+b, iz+a
				off := -1
				if nn2In(px, g.in[2]) && nn2In(py, g.in[1]) && (!g.d3 || nn2In(pz, g.in[0])) {
					off = (pz*g.in[1]+py)*g.in[2] + px
					if !g.d3 {
						off = py*g.in[2] + px
					}
				}
				k.off[k.n], k.w[k.n] = off, wx*wy*wz
				if dx != nil {
					dx[k.n], dy[k.n], dz[k.n] = dwx*wy*wz, wx*dwy*wz, wx*wy*dwz
				}
				k.n++
			}
		}
	}
}

// nn2Cubic are the cubic convolution coefficients of offset t (A = −0.75)
// and their derivatives.
func nn2Cubic(t float64) (c, d [4]float64) {
	const a = -0.75
	conv1 := func(x float64) float64 { return ((a+2)*x-(a+3))*x*x + 1 }
	conv2 := func(x float64) float64 { return ((a*x-5*a)*x+8*a)*x - 4*a }
	c = [4]float64{conv2(t + 1), conv1(t), conv1(1 - t), conv2(2 - t)}
	x := -1 - t
	d[0] = (-3*a*x-10*a)*x - 8*a
	x = -t
	d[1] = (-3*(a+2)*x - 2*(a+3)) * x
	x = 1 - t
	d[2] = (3*(a+2)*x - 2*(a+3)) * x
	x = 2 - t
	d[3] = (3*a*x-10*a)*x + 8*a
	return c, d
}

// bounded is the input offset of integer position (px, py) after the
// padding mode (get_value_bounded), −1 outside.
func (g *nn2Grid) bounded(px, py float64) int {
	x, _ := g.coords(px, g.in[2])
	y, _ := g.coords(py, g.in[1])
	ix, iy := int(x), int(y) // truncation, as PyTorch's cast
	if nn2In(ix, g.in[2]) && nn2In(iy, g.in[1]) {
		return iy*g.in[2] + ix
	}
	return -1
}

// point returns the grid coordinates of output point o of sample n.
func (g *nn2Grid) point(n, o int) (x, y, z float64) {
	k := 2
	if g.d3 {
		k = 3
	}
	p := g.grid.data[(n*g.outP+o)*k:]
	x, y = p[0], p[1]
	if g.d3 {
		z = p[2]
	}
	return
}

func nn2GridForward(c *call) ([]*array, error) {
	g, err := nn2GridSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(g.outShape(), g.x.dtype)
	// every output point is computed alone: chunks of points in parallel
	forChunks(g.n*g.outP, func(from, to int) error {
		var k nn2Corners
		for p := from; p < to; p++ {
			n, o := p/g.outP, p%g.outP
			src := g.x.data[n*g.c*g.inP:]
			dst := out.data[n*g.c*g.outP:]
			gx, gy, gz := g.point(n, o)
			switch g.mode {
			case 0:
				x, _ := g.source(gx, g.in[2])
				y, _ := g.source(gy, g.in[1])
				z := 0.0
				if g.d3 {
					z, _ = g.source(gz, g.in[0])
				}
				g.linear(x, y, z, &k, nil, nil, nil)
				for ch := 0; ch < g.c; ch++ {
					s := 0.0
					for i := 0; i < k.n; i++ {
						if k.off[i] >= 0 {
							s += src[ch*g.inP+k.off[i]] * k.w[i]
						}
					}
					dst[ch*g.outP+o] = s
				}
			case 1:
				off := g.nearest(gx, gy, gz)
				if off >= 0 {
					for ch := 0; ch < g.c; ch++ {
						dst[ch*g.outP+o] = src[ch*g.inP+off]
					}
				}
			default:
				x, _ := g.unnorm(gx, g.in[2])
				y, _ := g.unnorm(gy, g.in[1])
				x0, y0 := math.Floor(x), math.Floor(y)
				cx, _ := nn2Cubic(x - x0)
				cy, _ := nn2Cubic(y - y0)
				var offs [4][4]int
				for i := 0; i < 4; i++ {
					for j := 0; j < 4; j++ {
						offs[i][j] = g.bounded(x0-1+float64(j), y0-1+float64(i))
					}
				}
				for ch := 0; ch < g.c; ch++ {
					s := 0.0
					for i := 0; i < 4; i++ {
						r := 0.0
						for j := 0; j < 4; j++ {
							if offs[i][j] >= 0 {
								r += src[ch*g.inP+offs[i][j]] * cx[j]
							}
						}
						s += r * cy[i]
					}
					dst[ch*g.outP+o] = s
				}
			}
		}
		return nil
	})
	return []*array{out}, nil
}

// nearest is the input offset of the nearest pixel (round half to even),
// −1 outside.
func (g *nn2Grid) nearest(gx, gy, gz float64) int {
	x, _ := g.source(gx, g.in[2])
	y, _ := g.source(gy, g.in[1])
	ix, iy := math.RoundToEven(x), math.RoundToEven(y)
	iz := 0.0
	if g.d3 {
		z, _ := g.source(gz, g.in[0])
		iz = math.RoundToEven(z)
	}
	if ix < 0 || ix >= float64(g.in[2]) || iy < 0 || iy >= float64(g.in[1]) || iz < 0 || iz >= float64(g.in[0]) {
		return -1
	}
	return (int(iz)*g.in[1]+int(iy))*g.in[2] + int(ix)
}

// nn2GridBackward scatters the output gradient to the input (samples in
// parallel, each in order) and forms the grid's gradient from the
// derivatives of the interpolation weights.
func nn2GridBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	g, err := nn2GridSetup(c)
	if err != nil {
		return nil, err
	}
	gin, ggrid := nnGradFor(c, 0), nnGradFor(c, 1)
	gout := nnGradOut(gradOuts, 0)
	if gout == nil || gin == nil && ggrid == nil {
		return []*array{gin, ggrid}, nil
	}
	kd := 2
	if g.d3 {
		kd = 3
	}
	parallelPlanes(g.n, func(n int) {
		var k nn2Corners
		var dx, dy, dz [8]float64
		src := g.x.data[n*g.c*g.inP:]
		gsrc := gout.data[n*g.c*g.outP:]
		var gdst []float64
		if gin != nil {
			gdst = gin.data[n*g.c*g.inP:]
		}
		for o := 0; o < g.outP; o++ {
			px, py, pz := g.point(n, o)
			var sx, sy, sz float64 // d loss / d pixel coordinate
			var mx, my, mz float64
			switch g.mode {
			case 0:
				x, dxm := g.source(px, g.in[2])
				y, dym := g.source(py, g.in[1])
				z, dzm := 0.0, 0.0
				if g.d3 {
					z, dzm = g.source(pz, g.in[0])
				}
				mx, my, mz = dxm, dym, dzm
				g.linear(x, y, z, &k, &dx, &dy, &dz)
				for ch := 0; ch < g.c; ch++ {
					gv := gsrc[ch*g.outP+o]
					for i := 0; i < k.n; i++ {
						if k.off[i] < 0 {
							continue
						}
						if gdst != nil {
							gdst[ch*g.inP+k.off[i]] += k.w[i] * gv
						}
						v := src[ch*g.inP+k.off[i]] * gv
						sx += v * dx[i]
						sy += v * dy[i]
						sz += v * dz[i]
					}
				}
			case 1:
				if off := g.nearest(px, py, pz); off >= 0 && gdst != nil {
					for ch := 0; ch < g.c; ch++ {
						gdst[ch*g.inP+off] += gsrc[ch*g.outP+o]
					}
				}
			default:
				x, dxm := g.unnorm(px, g.in[2])
				y, dym := g.unnorm(py, g.in[1])
				mx, my = dxm, dym
				x0, y0 := math.Floor(x), math.Floor(y)
				cx, dcx := nn2Cubic(x - x0)
				cy, dcy := nn2Cubic(y - y0)
				var offs [4][4]int
				for i := 0; i < 4; i++ {
					for j := 0; j < 4; j++ {
						offs[i][j] = g.bounded(x0-1+float64(j), y0-1+float64(i))
					}
				}
				for ch := 0; ch < g.c; ch++ {
					gv := gsrc[ch*g.outP+o]
					for i := 0; i < 4; i++ {
						for j := 0; j < 4; j++ {
							off := offs[i][j]
							if off < 0 {
								continue
							}
							if gdst != nil {
								gdst[ch*g.inP+off] += gv * cx[j] * cy[i]
							}
							v := src[ch*g.inP+off]
							sx -= v * dcx[j] * cy[i] * gv
							sy -= v * dcy[i] * cx[j] * gv
						}
					}
				}
			}
			if ggrid != nil {
				q := ggrid.data[(n*g.outP+o)*kd:]
				q[0], q[1] = mx*sx, my*sy
				if g.d3 {
					q[2] = mz * sz
				}
			}
		}
	})
	return []*array{gin, ggrid}, nil
}

// ---- affine_grid ----

// nn2Linspace is linspace_from_neg_one: torch.linspace(−1, 1, n) at the
// theta's dtype (integers truncated, narrow floats rounded), scaled by
// (n−1)/n without align_corners (range·(n−1), then /n, each at the dtype
// but the division of an integer range, which is true division then
// truncated); 0 for n ≤ 1.
func nn2Linspace(n int, align bool, dt tensor.DType) []float64 {
	v := make([]float64, n)
	if n <= 1 {
		return v
	}
	if dt == tensor.BFloat16 {
		// linspace's kernel at bfloat16: its step and every element
		// rounded (misc.go)
		lc := &call{op: "linspace", attrs: ops.Attrs{"steps": ops.IntAttr(int64(n)), "dtype": ops.StringAttr(dt.String())},
			in: []*array{scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: -1}), scalarArray(ops.Scalar{Kind: ops.ScalarFloat, F: 1})}}
		if out, err := miscLinspaceForward(lc); err == nil {
			copy(v, out[0].data)
			for i := range v {
				if !align {
					v[i] = nn2At(dt, nn2At(dt, v[i]*nn2At(dt, float64(n-1)))/nn2At(dt, float64(n)))
				}
			}
			return v
		}
	}
	step := 2 / float64(n-1)
	half := n / 2
	for i := range v {
		if i < half {
			v[i] = -1 + step*float64(i)
		} else {
			v[i] = 1 - step*float64(n-1-i)
		}
		v[i] = nn2At(dt, v[i])
		if !align {
			v[i] = nn2At(dt, nn2At(dt, v[i]*float64(n-1))/float64(n))
		}
	}
	return v
}

// nn2At is v as a tensor of dtype dt holds it: integers truncate, float32
// and narrower round (float64 keeps it).
func nn2At(dt tensor.DType, v float64) float64 {
	switch {
	case !dt.IsFloat():
		return math.Trunc(v)
	case dt != tensor.Float64:
		return roundTo(dt, v)
	}
	return v
}

// nn2Affine is one affine_grid_generator call: base points (x, y[, z], 1)
// of the output grid and theta (N, k, k+1).
type nn2Affine struct {
	theta     *array
	n, k, pts int
	base      []float64 // pts × (k+1)
	outShape  []int
}

func nn2AffineSetup(c *call) (*nn2Affine, error) {
	th := c.in[0]
	size := c.attrs.Ints("size", nil)
	if len(size) != 4 && len(size) != 5 {
		return nil, fmt.Errorf("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
	}
	sp := make([]int, len(size)-2)
	for i := range sp {
		sp[i] = int(size[2+i])
	}
	a := &nn2Affine{theta: th, n: int(size[0]), k: len(sp), pts: tensor.NumElements(sp)}
	if th.dtype == tensor.Float16 || th.dtype == tensor.Bool {
		return nil, nnNotImpl("bmm", th.dtype)
	}
	if th.rank() != 3 {
		return nil, fmt.Errorf("batch2 must be a 3D tensor")
	}
	if th.shape[0] != a.n || th.shape[2] != a.k+1 {
		return nil, fmt.Errorf("Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", a.n, a.k+1, th.shape[0], th.shape[2])
	}
	if th.shape[1] != a.k {
		want := append(append([]int{a.n}, sp...), a.k)
		return nil, fmt.Errorf("shape '%s' is invalid for input of size %d", ops.ShapeList(want), a.n*a.pts*th.shape[1])
	}
	align := c.attrs.Bool("align_corners", false)
	// base[p] = (x_w, y_h[, z_d], 1), w fastest
	axes := make([][]float64, a.k)
	for i := range axes {
		axes[i] = nn2Linspace(sp[a.k-1-i], align, th.dtype) // x: the last dim
	}
	a.base = make([]float64, a.pts*(a.k+1))
	pos := make([]int, a.k)
	for p := 0; p < a.pts; p++ {
		b := a.base[p*(a.k+1):]
		for i := 0; i < a.k; i++ {
			b[i] = axes[i][pos[a.k-1-i]]
		}
		b[a.k] = 1
		nnIncr(pos, sp)
	}
	a.outShape = append(append([]int{a.n}, sp...), a.k)
	return a, nil
}

func nn2AffineForward(c *call) ([]*array, error) {
	a, err := nn2AffineSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(a.outShape, a.theta.dtype)
	// PyTorch: base_grid.view(N, pts, k+1).bmm(theta.transpose(1, 2)),
	// which rounds as narrowBmm says at bfloat16
	if narrowDT(a.theta.dtype) && narrowBmm(false, true, a.n, a.pts, a.k, a.k+1, a.base, a.theta.data,
		make([]int, a.n), batchOffsets(a.n, a.k*(a.k+1)), out.data, 0, 1) {
		return []*array{out}, nil
	}
	for n := 0; n < a.n; n++ {
		// (pts × k+1) · thetaᵀ
		nnGemm(false, true, a.pts, a.k, a.k+1, a.base, a.theta.data[n*a.k*(a.k+1):], out.data[n*a.pts*a.k:], false)
	}
	return []*array{out}, nil
}

func nn2AffineBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gt := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gt == nil || g == nil {
		return []*array{gt}, nil
	}
	a, err := nn2AffineSetup(c)
	if err != nil {
		return nil, err
	}
	// PyTorch: base_grid.view(N, pts, k+1).transpose(1, 2).bmm(grad), then
	// transposed; at bfloat16 that product rounds as narrowBmm says
	if narrowDT(a.theta.dtype) {
		kk := a.k + 1
		tmp := make([]float64, a.n*kk*a.k)
		if narrowBmm(true, false, a.n, kk, a.k, a.pts, a.base, g.data, make([]int, a.n), batchOffsets(a.n, a.pts*a.k), tmp, 0, 1) {
			for n := 0; n < a.n; n++ {
				narrowTranspose(gt.data[n*a.k*kk:(n+1)*a.k*kk], tmp[n*kk*a.k:(n+1)*kk*a.k], kk, a.k)
			}
			return []*array{gt}, nil
		}
	}
	for n := 0; n < a.n; n++ {
		// gθ = gᵀ (k × pts) · base (pts × k+1)
		nnGemm(true, false, a.k, a.k+1, a.pts, g.data[n*a.pts*a.k:], a.base, gt.data[n*a.k*(a.k+1):], false)
	}
	return []*array{gt}, nil
}

// ---- feature_dropout ----

// nn2DropoutMask returns the multiplier and the offset of every element
// (output = x·mul + add), or nil when the op is the identity (evaluation,
// p = 0, an empty input). PyTorch's _dropout_impl: p = 1 multiplies by
// zero; otherwise one Bernoulli(1 − p) draw per element, or per (N, C)
// plane for feature dropout, from a PCG generator seeded by the call's
// seed (forward and backward of one call see the same mask); kept values
// are scaled by 1/(1 − p), or, for alpha dropout, x·a + α·a·p with dropped
// values α·a·(p − 1), a = 1/sqrt((α²p + 1)(1 − p)).
func nn2DropoutMask(c *call) (mul, add []float64, err error) {
	x := c.in[0]
	p := c.attrs.Float("p", 0.5)
	if p < 0 || p > 1 || p != p {
		return nil, nil, fmt.Errorf("dropout probability has to be between 0 and 1, but got %v", p)
	}
	if p == 0 || !c.attrs.Bool("train", true) || x.len() == 0 {
		return nil, nil, nil
	}
	n := x.len()
	mul = make([]float64, n)
	if p == 1 {
		return mul, nil, nil
	}
	planes, inner := n, 1
	if c.attrs.Bool("feature", true) {
		sh := x.shape
		if c.attrs.Bool("unbatched", false) {
			sh = append([]int{1}, sh...)
		}
		if len(sh) < 2 {
			return nil, nil, fmt.Errorf("Feature dropout requires at least 2 dimensions in the input")
		}
		planes = sh[0] * sh[1]
		inner = n / planes
	}
	if x.dtype == tensor.Float16 {
		return nil, nil, nnNotImpl("bernoulli_scalar_cpu_", x.dtype)
	}
	if !x.dtype.IsFloat() {
		return nil, nil, fmt.Errorf("result type Float can't be cast to the desired output type %s", ops.TypeName(x.dtype))
	}
	keep, scale := 1-p, 1/(1-p)
	var kept, drop float64 // alpha dropout's offsets, b = (noise − 1)·α·a + α·a·p
	if c.attrs.Bool("alpha", false) {
		const alpha = 1.7580993408473766
		a := 1 / math.Sqrt((alpha*alpha*p+1)*(1-p))
		scale = a
		kept, drop = alpha*a*p, -(alpha*a)+alpha*a*p
		add = make([]float64, n)
		for i := range add {
			add[i] = drop
		}
	}
	rng := rand.New(rand.NewPCG(c.seed, 0x6a09e667f3bcc909))
	for q := 0; q < planes; q++ {
		if rng.Float64() >= keep {
			continue
		}
		for i := q * inner; i < (q+1)*inner; i++ {
			mul[i] = scale
			if add != nil {
				add[i] = kept
			}
		}
	}
	return mul, add, nil
}

func nn2DropoutForward(c *call) ([]*array, error) {
	mul, add, err := nn2DropoutMask(c)
	if err != nil {
		return nil, err
	}
	x := c.in[0]
	out := nnNew(x.shape, x.dtype)
	copy(out.data, x.data)
	if mul != nil {
		// x·mul, so NaN and Inf stay NaN where dropped, as in PyTorch
		for i := range out.data {
			out.data[i] *= mul[i]
		}
		if add != nil {
			for i := range out.data {
				out.data[i] += add[i]
			}
		}
	}
	return []*array{out}, nil
}

func nn2DropoutBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gx := nnGradFor(c, 0)
	g := nnGradOut(gradOuts, 0)
	if gx == nil || g == nil {
		return []*array{gx}, nil
	}
	mul, _, err := nn2DropoutMask(c)
	if err != nil {
		return nil, err
	}
	copy(gx.data, g.data)
	if mul != nil {
		for i := range gx.data {
			gx.data[i] *= mul[i]
		}
	}
	return []*array{gx}, nil
}

// ---- softmax_backward_data ----

type nn2SoftmaxBwd struct {
	g, y               *array
	outer, size, inner int
	dt                 tensor.DType
	lastDim            bool // PyTorch's lastdim kernel
}

func nn2SoftmaxBwdSetup(c *call) (*nn2SoftmaxBwd, error) {
	g, y := c.in[0], c.in[1]
	if !slices.Equal(g.shape, y.shape) {
		return nil, fmt.Errorf("Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but %s does not equal %s (while checking arguments for softmax_backward)",
			ops.ShapeList(g.shape), ops.ShapeList(y.shape))
	}
	dim, err := normDim(c.attrs.Int("dim", 0), g.rank())
	if err != nil {
		return nil, err
	}
	in, err := tensor.Parse(c.attrs.Str("input_dtype", ""))
	if err != nil {
		return nil, fmt.Errorf("attribute input_dtype: %v", err)
	}
	name := "softmax_backward_kernel_impl"
	if dim == max(g.rank(), 1)-1 {
		name = "softmax_backward_lastdim_kernel_impl"
	}
	switch {
	case g.dtype == tensor.Float16 || !g.dtype.IsFloat():
		return nil, nnNotImpl(name, g.dtype)
	case g.dtype == tensor.Float32 && in == tensor.Float16:
		// the result would be float16, which the CPU kernel does not write
		return nil, fmt.Errorf("expected scalar type Float but found Half")
	case y.dtype != g.dtype:
		return nil, fmt.Errorf("expected scalar type %s but found %s", ops.TypeName(g.dtype), ops.TypeName(y.dtype))
	}
	s := &nn2SoftmaxBwd{g: g, y: y, dt: g.dtype, lastDim: name == "softmax_backward_lastdim_kernel_impl"}
	s.outer, s.size, s.inner = nnDimSplit(g.shape, dim)
	return s, nil
}

// each calls f with the first flat index and the stride of every line
// along the dim.
func (s *nn2SoftmaxBwd) each(f func(base, st int)) {
	parallelPlanes(s.outer*s.inner, func(q int) {
		f((q/s.inner)*s.size*s.inner+q%s.inner, s.inner)
	})
}

// nn2SoftmaxBwdForward: y·(g − Σ g·y) along the dim.
func nn2SoftmaxBwdForward(c *call) ([]*array, error) {
	s, err := nn2SoftmaxBwdSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(s.g.shape, s.dt)
	if s.dt == tensor.BFloat16 {
		s.each(func(base, st int) { s.bf16Line(out.data, s.g.data, base, st) })
		return []*array{out}, nil
	}
	s.each(func(base, st int) {
		sum := 0.0
		for j := 0; j < s.size; j++ {
			k := base + j*st
			sum += s.g.data[k] * s.y.data[k]
		}
		for j := 0; j < s.size; j++ {
			k := base + j*st
			out.data[k] = s.y.data[k] * (s.g.data[k] - sum)
		}
	})
	return []*array{out}, nil
}

// nn2SoftmaxBwdBackward: with G the gradient of the result, the gradient
// of grad_output is the op itself on (G, output) and that of output
// G·(g − Σ g·y) − g·Σ G·y.
func nn2SoftmaxBwdBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	gg, gy := nnGradFor(c, 0), nnGradFor(c, 1)
	G := nnGradOut(gradOuts, 0)
	if G == nil || gg == nil && gy == nil {
		return []*array{gg, gy}, nil
	}
	s, err := nn2SoftmaxBwdSetup(c)
	if err != nil {
		return nil, err
	}
	if s.dt == tensor.BFloat16 {
		s.each(func(base, st int) { s.bf16BackwardLine(G.data, gg, gy, base, st) })
		return []*array{gg, gy}, nil
	}
	s.each(func(base, st int) {
		var sgy, sGy float64
		for j := 0; j < s.size; j++ {
			k := base + j*st
			sgy += s.g.data[k] * s.y.data[k]
			sGy += G.data[k] * s.y.data[k]
		}
		for j := 0; j < s.size; j++ {
			k := base + j*st
			if gg != nil {
				gg.data[k] = s.y.data[k] * (G.data[k] - sGy)
			}
			if gy != nil {
				gy.data[k] = G.data[k]*(s.g.data[k]-sgy) - s.g.data[k]*sGy
			}
		}
	})
	return []*array{gg, gy}, nil
}

// bf16Line writes one line of the op at bfloat16 for gradient g (the
// op's grad_output, or the gradient G of its result in the backward): the
// CPU kernel forms y·(g − Σ g·y) in float32 and rounds once, the sum
// accumulated in float32 and, in the lastdim kernel, stored at bfloat16
// first (measured against torch 1.13).
func (s *nn2SoftmaxBwd) bf16Line(out, g []float64, base, st int) {
	sum := 0.0
	for j := 0; j < s.size; j++ {
		k := base + j*st
		sum += float64(float32(g[k]) * float32(s.y.data[k]))
	}
	s32 := float32(sum)
	if s.lastDim {
		s32 = bf16Round(s32)
	}
	for j := 0; j < s.size; j++ {
		k := base + j*st
		out[k] = float64(bf16Round(float32(float32(g[k])-s32) * float32(s.y.data[k])))
	}
}

// bf16BackwardLine is the backward at bfloat16: the gradient of
// grad_output is the kernel on (G, output); that of output PyTorch's
// softmax_double_backward, g·G − Σ(y·g)·G − g·Σ(y·G), a chain of bfloat16
// tensor operations (each rounded, the sums accumulated in float32 and
// rounded once).
func (s *nn2SoftmaxBwd) bf16BackwardLine(G []float64, gg, gy *array, base, st int) {
	if gg != nil {
		s.bf16Line(gg.data, G, base, st)
	}
	if gy == nil {
		return
	}
	var syg, syG float64
	for j := 0; j < s.size; j++ {
		k := base + j*st
		y := float32(s.y.data[k])
		syg += float64(bfMul(y, float32(s.g.data[k])))
		syG += float64(bfMul(y, float32(G[k])))
	}
	s1, s2 := bfRound64(syg), bfRound64(syG)
	for j := 0; j < s.size; j++ {
		k := base + j*st
		g, gv := float32(s.g.data[k]), float32(G[k])
		gy.data[k] = float64(bfSub(bfSub(bfMul(g, gv), bfMul(s1, gv)), bfMul(g, s2)))
	}
}

// ---- embedding_renorm ----

// nn2PNorm is the p-norm of v (p = 0 counts non-zeros, ±Inf max/min |v|).
func nn2PNorm(v []float64, p float64) float64 {
	switch {
	case p == 0:
		n := 0.0
		for _, x := range v {
			if x != 0 {
				n++
			}
		}
		return n
	case math.IsInf(p, 1), math.IsInf(p, -1):
		m := math.Inf(-1)
		if p < 0 {
			m = math.Inf(1)
		}
		for _, x := range v {
			a := math.Abs(x)
			if p > 0 && (a > m || a != a) || p < 0 && (a < m || a != a) {
				m = a
			}
		}
		return m
	case p == 1:
		s := 0.0
		for _, x := range v {
			s += math.Abs(x)
		}
		return s
	case p == 2:
		s := 0.0
		for _, x := range v {
			s += x * x
		}
		return math.Sqrt(s)
	}
	s := 0.0
	for _, x := range v {
		s += math.Pow(math.Abs(x), p)
	}
	return math.Pow(s, 1/p)
}

// nn2RenormForward is embedding_renorm_cpu_: the rows of self named in
// indices (sorted, each distinct index once; negative ones count from the
// end) whose norm exceeds max_norm are scaled by max_norm/(norm + 1e-7),
// the scale rounded to float32 below float64 as PyTorch's multiplication
// by a double scalar does.
func nn2RenormForward(c *call) ([]*array, error) {
	w, idx := c.in[0], c.in[1]
	if w.rank() != 2 {
		return nil, fmt.Errorf("Expected 2-dimensional tensor, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for embedding_renorm_)", w.rank())
	}
	if idx.dtype != tensor.Int64 && idx.dtype != tensor.Int32 {
		return nil, fmt.Errorf("Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got torch.%sTensor instead (while checking arguments for embedding_renorm_)", ops.TypeName(idx.dtype))
	}
	rows, cols := w.shape[0], w.shape[1]
	sorted := append([]float64(nil), idx.data...)
	slices.Sort(sorted)
	for _, v := range sorted {
		if v >= float64(rows) || v < -float64(rows) {
			return nil, fmt.Errorf("select(): index %d out of range for tensor of size %s at dimension 0", int64(v), ops.ShapeList(w.shape))
		}
	}
	if !w.dtype.IsFloat() && len(sorted) > 0 {
		return nil, fmt.Errorf("norm(): input dtype should be either floating point or complex. Got %s instead.", ops.TypeName(w.dtype))
	}
	out := w.clone()
	maxNorm, p := c.attrs.Float("max_norm", 0), c.attrs.Float("norm_type", 2)
	for i, v := range sorted {
		if i > 0 && v == sorted[i-1] {
			continue
		}
		r := int(v)
		if r < 0 {
			r += rows
		}
		row := out.data[r*cols : (r+1)*cols]
		norm := nn2PNorm(row, p)
		if w.dtype != tensor.Float64 {
			norm = roundTo(w.dtype, norm) // the norm is a tensor of self's dtype
		}
		if norm > maxNorm {
			scale := maxNorm / (norm + 1e-7)
			if w.dtype != tensor.Float64 {
				scale = float64(float32(scale))
			}
			for j := range row {
				row[j] *= scale
				if w.dtype != tensor.Float64 {
					row[j] = roundTo(w.dtype, float64(float32(row[j])))
				}
			}
		}
	}
	return []*array{out}, nil
}

// ---- bilinear ----

type nn2Bilinear struct {
	x1, x2, w, b   *array
	batch, o, i, j int
	outShape       []int
	dt             tensor.DType
}

func nn2BilinearSetup(c *call) (*nn2Bilinear, error) {
	x1, x2, w, b := c.in[0], c.in[1], c.in[2], c.in[3]
	if x1.rank() != x2.rank() {
		return nil, fmt.Errorf("bilinear(): input dimensions do not match: got %d and %d", x1.rank(), x2.rank())
	}
	if x1.rank() == 0 {
		return nil, fmt.Errorf("Dimension specified as -1 but tensor has no dimensions")
	}
	r := x1.rank()
	for k := 0; k < r-1; k++ {
		if x1.shape[k] != x2.shape[k] {
			return nil, fmt.Errorf("bilinear(): input batch dimensions do not match at dim %d: got %d and %d", k, x1.shape[k], x2.shape[k])
		}
	}
	ws := func(k int) int {
		if k < w.rank() {
			return w.shape[k]
		}
		return -1
	}
	if x1.shape[r-1] != ws(1) {
		return nil, fmt.Errorf("bilinear(): input1 size does not match weight size: got %d but expected %d", x1.shape[r-1], ws(1))
	}
	if x2.shape[r-1] != ws(2) {
		return nil, fmt.Errorf("bilinear(): input2 size does not match weight size: got %d but expected %d", x2.shape[r-1], ws(2))
	}
	if b != nil && (b.rank() == 0 || b.shape[0] != w.shape[0]) {
		got := 0
		if b.rank() > 0 {
			got = b.shape[0]
		}
		return nil, fmt.Errorf("bilinear(): bias size does not match weight size: got %d but expected %d", got, w.shape[0])
	}
	if b != nil && b.rank() != 1 {
		return nil, fmt.Errorf("bilinear: a bias of shape %s broadcasts the output to another shape, which the bilinear op does not support", ops.ShapeList(b.shape))
	}
	if w.rank() != 3 {
		return nil, fmt.Errorf("bilinear(): expected a 3-D weight, got size %s", ops.ShapeList(w.shape))
	}
	if err := nn2SameDType(x1, w, x2); err != nil {
		return nil, err
	}
	if x1.dtype == tensor.Bool || x1.dtype == tensor.Float16 {
		return nil, nnNotImpl("bmm", x1.dtype)
	}
	bl := &nn2Bilinear{x1: x1, x2: x2, w: w, b: b, batch: x1.len() / max(x1.shape[r-1], 1), o: w.shape[0], i: w.shape[1], j: w.shape[2], dt: x1.dtype}
	if x1.shape[r-1] == 0 {
		bl.batch = tensor.NumElements(x1.shape[:r-1])
	}
	bl.outShape = append(append([]int{}, x1.shape[:r-1]...), bl.o)
	if b != nil {
		bl.dt = nnPromote(x1, b)
	}
	return bl, nil
}

// perO calls f(o, u) for every output feature o with u = input1 ·
// weight[o] (batch × J), one product at a time.
func (bl *nn2Bilinear) perO(f func(o int, u []float64)) {
	u := float64sFor(bl.batch * bl.j)
	defer scratchDone(u)
	for o := 0; o < bl.o; o++ {
		nnGemm(false, false, bl.batch, bl.j, bl.i, bl.x1.data, bl.w.data[o*bl.i*bl.j:], u, false)
		f(o, u)
	}
}

func nn2BilinearForward(c *call) ([]*array, error) {
	bl, err := nn2BilinearSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(bl.outShape, bl.dt)
	if narrowDT(bl.x1.dtype) && bl.dt == bl.x1.dtype {
		narrowBilinear(bl, out.data)
		if bl.b != nil {
			for k := range out.data {
				out.data[k] += bl.b.data[k%bl.o]
			}
		}
		return []*array{out}, nil
	}
	bl.perO(func(o int, u []float64) {
		parallelPlanes(bl.batch, func(b int) {
			s := 0.0
			for j, v := range bl.x2.data[b*bl.j : (b+1)*bl.j] {
				s += u[b*bl.j+j] * v
			}
			if bl.b != nil {
				if bl.dt != bl.x1.dtype {
					// PyTorch adds the bias to the product rounded to the inputs' dtype
					s = roundTo(bl.x1.dtype, s)
				}
				s += bl.b.data[o]
			}
			out.data[b*bl.o+o] = s
		})
	})
	return []*array{out}, nil
}

// nn2BilinearBackward: with U_o = input1·weight[o] and V_o = input2·weight[o]ᵀ,
// ginput1 = Σ_o g[:, o]·V_o, ginput2 = Σ_o g[:, o]·U_o, gweight[o] =
// (g[:, o]·input1)ᵀ·input2 and gbias = Σ_b g.
func nn2BilinearBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	g := nnGradOut(gradOuts, 0)
	g1, g2, gw, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2), nnGradFor(c, 3)
	res := []*array{g1, g2, gw, gb}
	if g == nil {
		return res, nil
	}
	bl, err := nn2BilinearSetup(c)
	if err != nil {
		return nil, err
	}
	if narrowDT(bl.x1.dtype) && bl.dt == bl.x1.dtype {
		// bfloat16: _trilinear_backward's loops; the bias below
		narrowBilinearGrads(bl, g.data, dataOf(g1), dataOf(g2), dataOf(gw))
		g1, g2, gw = nil, nil, nil
	}
	// scaled rows: g[:, o]·input (batch × I or batch × J)
	scale := func(dst, src []float64, n, o int) {
		for b := 0; b < bl.batch; b++ {
			gv := g.data[b*bl.o+o]
			for k := 0; k < n; k++ {
				dst[b*n+k] = gv * src[b*n+k]
			}
		}
	}
	if g1 != nil {
		sc := float64sFor(bl.batch * bl.j)
		for o := 0; o < bl.o; o++ {
			scale(sc, bl.x2.data, bl.j, o)
			nnGemm(false, true, bl.batch, bl.i, bl.j, sc, bl.w.data[o*bl.i*bl.j:], g1.data, true)
		}
		scratchDone(sc)
	}
	if g2 != nil {
		sc := float64sFor(bl.batch * bl.i)
		for o := 0; o < bl.o; o++ {
			scale(sc, bl.x1.data, bl.i, o)
			nnGemm(false, false, bl.batch, bl.j, bl.i, sc, bl.w.data[o*bl.i*bl.j:], g2.data, true)
		}
		scratchDone(sc)
	}
	if gw != nil {
		sc := float64sFor(bl.batch * bl.i)
		for o := 0; o < bl.o; o++ {
			scale(sc, bl.x1.data, bl.i, o)
			nnGemm(true, false, bl.i, bl.j, bl.batch, sc, bl.x2.data, gw.data[o*bl.i*bl.j:], false)
		}
		scratchDone(sc)
	}
	if gb != nil {
		for b := 0; b < bl.batch; b++ {
			for o := 0; o < bl.o; o++ {
				gb.data[o] += g.data[b*bl.o+o]
			}
		}
	}
	return res, nil
}
