package cpu

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// N-d convolution (cross-correlation, as PyTorch) by im2col + GEMM per
// batch element and group. In Emulated mode at float32 the products are
// summed in float32 (call.gemmDT, nnGemmAt), as PyTorch's oneDNN and
// slow_conv2d do; the bias is added in float64 and the result rounded
// once.

func init() {
	register("convolution", &kernel{forward: convForward, backward: convBackward})
	supportDTypes("convolution", nnNumericDTypes...)
}

type nnConv struct {
	x, w, b     *array
	unbatched   bool
	batch       int
	cin, cout   int
	groups      int
	inSp, kSp   []int // spatial sizes of input and kernel
	outSp       []int
	inS, kS, oS int // their element counts
	dt          tensor.DType
	gemmDT      tensor.DType // the products' dtype (call.gemmDT)
	outShape    []int
	tab         []int // tab[kk*oS+o]: input spatial offset, -1 for padding
	// identity: the table is o ↦ o (one kernel position, stride 1, no
	// padding: a 1×1 convolution), so the columns are the input itself
	identity bool
}

func nnIntsStr(v []int) string {
	parts := make([]string, len(v))
	for i, s := range v {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, " x ")
}

// nnConvParam reads a per-spatial-dim attribute; one value stands for all.
func nnConvParam(c *call, name string, n int) ([]int, error) {
	if !c.attrs.Has(name) || c.attrs.IsNone(name) {
		return nil, fmt.Errorf("convolution() missing required argument '%s'", name)
	}
	v := c.attrs.Ints(name, nil)
	out := make([]int, n)
	switch len(v) {
	case 1:
		for i := range out {
			out[i] = int(v[0])
		}
	case n:
		for i := range out {
			out[i] = int(v[i])
		}
	default:
		return nil, fmt.Errorf("expected %s to be a single integer value or a list of %d values to match the convolution dimensions, but got %s=%v", name, n, name, v)
	}
	return out, nil
}

func convSetup(c *call) (*nnConv, error) {
	x, err := nnNeed(c, 0, "input")
	if err != nil {
		return nil, err
	}
	w, err := nnNeed(c, 1, "weight")
	if err != nil {
		return nil, err
	}
	b := nnInput(c, 2)
	cv := &nnConv{x: x, w: w, b: b}
	if len(w.shape) < 3 {
		return nil, fmt.Errorf("weight should have at least three dimensions")
	}
	nsp := len(w.shape) - 2
	xs := x.shape
	switch len(xs) {
	case nsp + 2:
	case nsp + 1:
		cv.unbatched = true
		xs = append([]int{1}, xs...)
	default:
		return nil, fmt.Errorf("Expected %dD (unbatched) or %dD (batched) input to conv%dd, but got input of size: %s", nsp+1, nsp+2, nsp, ops.ShapeList(x.shape))
	}
	kname := fmt.Sprintf("slow_conv%dd_cpu", nsp)
	if cv.dt, err = nnNumeric(kname, x, w, b); err != nil {
		return nil, err
	}
	cv.gemmDT = c.gemmDT(x, w)
	stride, err := nnConvParam(c, "stride", nsp)
	if err != nil {
		return nil, err
	}
	pad, err := nnConvParam(c, "padding", nsp)
	if err != nil {
		return nil, err
	}
	dil, err := nnConvParam(c, "dilation", nsp)
	if err != nil {
		return nil, err
	}
	for i := 0; i < nsp; i++ {
		if stride[i] <= 0 {
			return nil, fmt.Errorf("non-positive stride is not supported")
		}
		if pad[i] < 0 {
			return nil, fmt.Errorf("negative padding is not supported")
		}
		if dil[i] <= 0 {
			return nil, fmt.Errorf("dilation should be greater than zero, but got %s", ops.ShapeList(dil))
		}
	}
	cv.groups = int(c.attrs.Int("groups", 1))
	if cv.groups <= 0 {
		return nil, fmt.Errorf("non-positive groups is not supported")
	}
	cv.batch, cv.cin = xs[0], xs[1]
	cv.cout = w.shape[0]
	if cv.cout%cv.groups != 0 {
		return nil, fmt.Errorf("Given groups=%d, expected weight to be divisible by %d at dimension 0, but got weight of size [%s] instead", cv.groups, cv.groups, ops.ShapeList(w.shape))
	}
	if cv.cin != w.shape[1]*cv.groups {
		return nil, fmt.Errorf("Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d channels instead", cv.groups, ops.ShapeList(w.shape), ops.ShapeList(xs), w.shape[1]*cv.groups, cv.cin)
	}
	if b != nil && (len(b.shape) != 1 || b.shape[0] != cv.cout) {
		return nil, fmt.Errorf("Given weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead", ops.ShapeList(w.shape), cv.cout, ops.ShapeList(b.shape))
	}
	cv.inSp = xs[2:]
	cv.kSp = w.shape[2:]
	cv.outSp = make([]int, nsp)
	padded := make([]int, nsp)
	eff := make([]int, nsp)
	tooSmall := false
	for i := 0; i < nsp; i++ {
		padded[i] = cv.inSp[i] + 2*pad[i]
		eff[i] = dil[i]*(cv.kSp[i]-1) + 1
		if padded[i] < eff[i] {
			tooSmall = true
		}
		cv.outSp[i] = (padded[i]-eff[i])/stride[i] + 1
	}
	if tooSmall {
		return nil, fmt.Errorf("Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be greater than actual input size", nnIntsStr(padded), nnIntsStr(eff))
	}
	cv.inS, cv.kS, cv.oS = tensor.NumElements(cv.inSp), tensor.NumElements(cv.kSp), tensor.NumElements(cv.outSp)
	if cv.unbatched {
		cv.outShape = append([]int{cv.cout}, cv.outSp...)
	} else {
		cv.outShape = append([]int{cv.batch, cv.cout}, cv.outSp...)
	}
	cv.buildTable(stride, pad, dil)
	return cv, nil
}

// buildTable maps every (kernel offset, output position) pair to the input
// position it reads.
func (cv *nnConv) buildTable(stride, pad, dil []int) {
	n := len(cv.inSp)
	cv.tab = make([]int, cv.kS*cv.oS)
	inSt := contiguousStrides(cv.inSp)
	kPos := make([]int, n)
	for kk := 0; kk < cv.kS; kk++ {
		oPos := make([]int, n)
		for o := 0; o < cv.oS; o++ {
			off := 0
			for d := 0; d < n; d++ {
				p := oPos[d]*stride[d] - pad[d] + kPos[d]*dil[d]
				if p < 0 || p >= cv.inSp[d] {
					off = -1
					break
				}
				off += p * inSt[d]
			}
			cv.tab[kk*cv.oS+o] = off
			nnIncr(oPos, cv.outSp)
		}
		nnIncr(kPos, cv.kSp)
	}
	cv.identity = cv.kS == 1 && cv.oS == cv.inS
	for o := 0; cv.identity && o < cv.oS; o++ {
		cv.identity = cv.tab[o] == o
	}
}

// nnIncr advances a row-major multi-index.
func nnIncr(pos, shape []int) {
	for d := len(pos) - 1; d >= 0; d-- {
		pos[d]++
		if pos[d] < shape[d] {
			return
		}
		pos[d] = 0
	}
}

// convNoDirectColumns makes columns always copy (tests compare both).
var convNoDirectColumns bool

// columns returns the columns ((cg*kS) × oS) of batch element n and group
// g: the input's own values where the table is the identity, else col
// filled by im2col.
func (cv *nnConv) columns(n, g int, col []float64) []float64 {
	if cv.identity && !convNoDirectColumns {
		cg := cv.cin / cv.groups
		return cv.x.data[(n*cv.cin+g*cg)*cv.inS : (n*cv.cin+(g+1)*cg)*cv.inS]
	}
	cv.im2col(n, g, col)
	return col
}

// im2col fills col ((cg*kS) × oS) for batch element n and group g.
func (cv *nnConv) im2col(n, g int, col []float64) {
	cg := cv.cin / cv.groups
	parallelFor(runtime.GOMAXPROCS(0), cg, func(_, ci int) {
		src := cv.x.data[(n*cv.cin+g*cg+ci)*cv.inS:]
		for kk := 0; kk < cv.kS; kk++ {
			dst := col[(ci*cv.kS+kk)*cv.oS : (ci*cv.kS+kk+1)*cv.oS]
			tab := cv.tab[kk*cv.oS : (kk+1)*cv.oS]
			for o, t := range tab {
				if t < 0 {
					dst[o] = 0
				} else {
					dst[o] = src[t]
				}
			}
		}
	})
}

func convForward(c *call) ([]*array, error) {
	cv, err := convSetup(c)
	if err != nil {
		return nil, err
	}
	out := nnNew(cv.outShape, cv.dt)
	cg, cog := cv.cin/cv.groups, cv.cout/cv.groups
	rowsK := cg * cv.kS
	if cv.dt == tensor.BFloat16 {
		cv.forwardBF16(out.data)
		return []*array{out}, nil
	}
	col := float64sFor(rowsK * cv.oS)
	defer scratchDone(col)
	for n := 0; n < cv.batch; n++ {
		for g := 0; g < cv.groups; g++ {
			wg := cv.w.data[g*cog*rowsK:]
			og := out.data[(n*cv.cout+g*cog)*cv.oS:]
			nnGemmAt(cv.gemmDT, false, false, cog, cv.oS, rowsK, wg, cv.columns(n, g, col), og)
		}
	}
	for n := 0; n < cv.batch; n++ {
		if cv.b != nil {
			for co := 0; co < cv.cout; co++ {
				o := out.data[(n*cv.cout+co)*cv.oS : (n*cv.cout+co+1)*cv.oS]
				for i := range o {
					o[i] += cv.b.data[co]
				}
			}
		}
	}
	return []*array{out}, nil
}

// inputGrad adds the input gradient of output gradient g to gx: per
// image and group, the columns Wᵀ·g (at gemmDT), then col2im in float64
// (channels independent, each adding its kernel positions in order).
func (cv *nnConv) inputGrad(g, gx []float64, cog, rowsK int) {
	cg := cv.cin / cv.groups
	gcol := float64sFor(rowsK * cv.oS)
	defer scratchDone(gcol)
	for n := 0; n < cv.batch; n++ {
		for gr := 0; gr < cv.groups; gr++ {
			nnGemmAt(cv.gemmDT, true, false, rowsK, cv.oS, cog, cv.w.data[gr*cog*rowsK:], g[(n*cv.cout+gr*cog)*cv.oS:], gcol)
			parallelFor(runtime.GOMAXPROCS(0), cg, func(_, ci int) {
				dst := gx[(n*cv.cin+gr*cg+ci)*cv.inS:]
				for kk := 0; kk < cv.kS; kk++ {
					src := gcol[(ci*cv.kS+kk)*cv.oS : (ci*cv.kS+kk+1)*cv.oS]
					for o, t := range cv.tab[kk*cv.oS : (kk+1)*cv.oS] {
						if t >= 0 {
							dst[t] += src[o]
						}
					}
				}
			})
		}
	}
}

func convBackward(c *call, outs, gradOuts []*array) ([]*array, error) {
	cv, err := convSetup(c)
	if err != nil {
		return nil, err
	}
	gx, gw, gb := nnGradFor(c, 0), nnGradFor(c, 1), nnGradFor(c, 2)
	g := nnGradOut(gradOuts, 0)
	if g == nil {
		return []*array{gx, gw, gb}, nil
	}
	if cv.dt == tensor.BFloat16 {
		cv.backwardBF16(g.data, dataOf(gx), dataOf(gw), dataOf(gb))
		return []*array{gx, gw, gb}, nil
	}
	cg, cog := cv.cin/cv.groups, cv.cout/cv.groups
	rowsK := cg * cv.kS
	col := float64sFor(rowsK * cv.oS)
	defer scratchDone(col)
	if gx != nil {
		cv.inputGrad(g.data, gx.data, cog, rowsK)
	}
	// The weight gradient sums every image's product into one sum per
	// group. At float32 (gemmDT) PyTorch keeps that sum in float32:
	// slow_conv2d adds each image's product with addmm (beta = 1) into the
	// float32 gradient, and oneDNN reduces over images and positions in
	// float32. gemmSum does the same: each image's product (its k blocks
	// summed in float32) is added to a float32 gradient, rounded once per
	// image, not summed over the batch in float64 and rounded at the end.
	var gws *gemmSum
	if gw != nil {
		gws = newGemmSum(cv.gemmDT, gw.data, cog, rowsK, cv.oS)
	}
	for n := 0; n < cv.batch; n++ {
		for gr := 0; gr < cv.groups; gr++ {
			gog := g.data[(n*cv.cout+gr*cog)*cv.oS:]
			if gws != nil {
				gws.add(false, true, gog, cv.columns(n, gr, col), gr*cog*rowsK)
			}
		}
		if gb != nil {
			for co := 0; co < cv.cout; co++ {
				for _, v := range g.data[(n*cv.cout+co)*cv.oS : (n*cv.cout+co+1)*cv.oS] {
					gb.data[co] += v
				}
			}
		}
	}
	if gws != nil {
		gws.done()
	}
	return []*array{gx, gw, gb}, nil
}

// Convolution at bfloat16 as PyTorch 1.13 computes it on a CPU without
// oneDNN's bfloat16 support (no AVX-512): the slow_conv2d/slow_conv3d
// frames, im2col then cpublas::gemm's naive loops in bfloat16 (measured
// bit for bit, gen_golden_bf16_nn.py). Per group, every output element
// starts from its bias (or 0) and adds the products weight·column one
// column row (input channel, kernel offset) after another, each product
// and each sum rounded to bfloat16.
func (cv *nnConv) forwardBF16(out []float64) {
	cg, cog := cv.cin/cv.groups, cv.cout/cv.groups
	rowsK := cg * cv.kS
	col := float64sFor(rowsK * cv.oS)
	defer scratchDone(col)
	for n := 0; n < cv.batch; n++ {
		for g := 0; g < cv.groups; g++ {
			cv.im2col(n, g, col)
			parallelFor(runtime.GOMAXPROCS(0), cog, func(_, co int) {
				c := g*cog + co
				o := out[(n*cv.cout+c)*cv.oS : (n*cv.cout+c+1)*cv.oS]
				b := 0.0
				if cv.b != nil {
					b = cv.b.data[c]
				}
				for i := range o {
					o[i] = b
				}
				wr := cv.w.data[c*rowsK : (c+1)*rowsK]
				for l, wv := range wr {
					src := col[l*cv.oS : (l+1)*cv.oS]
					for i, xv := range src {
						o[i] = bf16r(o[i] + bf16r(wv*xv))
					}
				}
			})
		}
	}
}

// bf16r rounds v to bfloat16 through float32, as a bfloat16 kernel stores
// a float32 result.
func bf16r(v float64) float64 { return float64(bf16Round(float32(v))) }

// backwardBF16 is the slow_conv2d/slow_conv3d backward at bfloat16 (see
// forwardBF16), per batch element and group: the input gradient's columns
// Wᵀ·g summed over output channels in order, each product and sum rounded,
// then col2im adding them into the input gradient at bfloat16 (channel,
// kernel offset, output position in order); the weight gradient adds each
// element's float32 dot product (cpublas's four partial sums) over the
// output positions to it, rounded once per element; the bias gradient adds
// each element's float sum over positions, rounded, at bfloat16. Nil
// gradients are skipped.
func (cv *nnConv) backwardBF16(g, gx, gw, gb []float64) {
	cg, cog := cv.cin/cv.groups, cv.cout/cv.groups
	rowsK := cg * cv.kS
	col := float64sFor(rowsK * cv.oS)
	defer scratchDone(col)
	var gcol []float64
	if gx != nil {
		gcol = make([]float64, rowsK*cv.oS)
	}
	var g32, c32 []float32
	if gw != nil {
		g32 = make([]float32, cog*cv.oS)
		c32 = make([]float32, rowsK*cv.oS)
	}
	for n := 0; n < cv.batch; n++ {
		for gr := 0; gr < cv.groups; gr++ {
			gog := g[(n*cv.cout+gr*cog)*cv.oS : (n*cv.cout+(gr+1)*cog)*cv.oS]
			if gx != nil {
				parallelFor(runtime.GOMAXPROCS(0), rowsK, func(_, l int) {
					dst := gcol[l*cv.oS : (l+1)*cv.oS]
					clear(dst)
					for co := 0; co < cog; co++ {
						gro := gog[co*cv.oS : (co+1)*cv.oS]
						wv := cv.w.data[(gr*cog+co)*rowsK+l]
						for i, gv := range gro {
							dst[i] = bf16r(dst[i] + bf16r(wv*gv))
						}
					}
				})
				parallelFor(runtime.GOMAXPROCS(0), cg, func(_, ci int) {
					dst := gx[(n*cv.cin+gr*cg+ci)*cv.inS:]
					for kk := 0; kk < cv.kS; kk++ {
						src := gcol[(ci*cv.kS+kk)*cv.oS:]
						for o, t := range cv.tab[kk*cv.oS : (kk+1)*cv.oS] {
							if t >= 0 {
								dst[t] = bf16r(dst[t] + src[o])
							}
						}
					}
				})
			}
			if gw != nil {
				cv.im2col(n, gr, col)
				for i, v := range col[:rowsK*cv.oS] {
					c32[i] = float32(v)
				}
				for i, v := range gog {
					g32[i] = float32(v)
				}
				parallelFor(runtime.GOMAXPROCS(0), cog, func(_, co int) {
					gro := g32[co*cv.oS : (co+1)*cv.oS]
					dst := gw[(gr*cog+co)*rowsK : (gr*cog+co+1)*rowsK]
					for l := range dst {
						d := dot4(gro, c32[l*cv.oS:(l+1)*cv.oS])
						dst[l] = float64(bf16Round(float32(dst[l]) + d))
					}
				})
			}
		}
		if gb != nil {
			for co := 0; co < cv.cout; co++ {
				s := 0.0
				for _, v := range g[(n*cv.cout+co)*cv.oS : (n*cv.cout+co+1)*cv.oS] {
					s += v
				}
				gb[co] = bf16r(gb[co] + bf16r(s))
			}
		}
	}
}
