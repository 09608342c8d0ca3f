package cpu

import (
	"fmt"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// F.unfold (im2col) and F.fold (col2im) as PyTorch 1.13's CPU does them
// (Im2Col.cpp, Col2Im.cpp, im2col.h): im2col copies, col2im adds the
// blocks column after column (channel·kh·kw, then block row and column)
// at the tensor's dtype, float32 and the half types rounding every
// addition. Each is the other's backward. Float dtypes only.

func init() {
	register("im2col", &kernel{forward: im2colForward, backward: im2colBackward})
	register("col2im", &kernel{forward: col2imForward, backward: col2imBackward})
}

// imCol is the geometry shared by im2col and col2im: batches of c
// channels of an h×w image, blocks kh×kw, oh×ow blocks.
type imCol struct {
	batch, c, h, w int
	kh, kw         int
	dh, dw         int
	ph, pw         int
	sh, sw         int
	oh, ow         int
	batched        bool
}

// imColPairs reads the two-int attributes, with PyTorch's "It is expected
// ... equals to 2" checks in the given order.
func imColPairs(c *call, names []string) (map[string][2]int, error) {
	out := map[string][2]int{}
	for _, n := range names {
		v := c.attrs.Ints(n, nil)
		if len(v) != 2 {
			return nil, fmt.Errorf("It is expected %s equals to 2, but got size %d", n, len(v))
		}
		out[n] = [2]int{int(v[0]), int(v[1])}
	}
	return out, nil
}

func newIm2col(c *call) (*imCol, *array, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, err
	}
	p, err := imColPairs(c, []string{"kernel_size", "dilation", "padding", "stride"})
	if err != nil {
		return nil, nil, err
	}
	g := &imCol{kh: p["kernel_size"][0], kw: p["kernel_size"][1], dh: p["dilation"][0], dw: p["dilation"][1],
		ph: p["padding"][0], pw: p["padding"][1], sh: p["stride"][0], sw: p["stride"][1]}
	if err := g.paramChecks(false); err != nil {
		return nil, nil, err
	}
	r := x.rank()
	if r < 3 {
		m := max(r, 1)
		return nil, nil, fmt.Errorf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -m, m-1, m)
	}
	sh := x.shape
	valid := sh[1] != 0 && sh[2] != 0
	if !(r == 3 && sh[0] != 0 && valid) && !(r == 4 && valid && sh[3] != 0) {
		return nil, nil, fmt.Errorf("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %s", ops.ShapeList(sh))
	}
	g.batched = r == 4
	g.batch, g.c, g.h, g.w = 1, sh[r-3], sh[r-2], sh[r-1]
	if g.batched {
		g.batch = sh[0]
	}
	g.oh = nnFloorDiv(g.h+2*g.ph-(g.dh*(g.kh-1)+1), g.sh) + 1
	g.ow = nnFloorDiv(g.w+2*g.pw-(g.dw*(g.kw-1)+1), g.sw) + 1
	if g.oh < 1 || g.ow < 1 {
		return nil, nil, fmt.Errorf("Given input with spatial size (%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), calculated shape of the array of sliding blocks as (%d, %d), but its components must be at least one.",
			g.h, g.h, g.kh, g.kw, g.dh, g.dw, g.ph, g.pw, g.oh, g.ow)
	}
	if !x.dtype.IsFloat() {
		return nil, nil, nnNotImpl("im2col_out_cpu", x.dtype)
	}
	return g, x, nil
}

// paramChecks are im2col_shape_check's (col2im: true, col2im_shape_check's
// order) checks of the block parameters.
func (g *imCol) paramChecks(col2im bool) error {
	kernel := func() error {
		if g.kw <= 0 || g.kh <= 0 {
			return fmt.Errorf("kernel size should be greater than zero, but got kernel_height: %d kernel_width: %d", g.kh, g.kw)
		}
		return nil
	}
	dil := func() error {
		if g.dw <= 0 || g.dh <= 0 {
			return fmt.Errorf("dilation should be greater than zero, but got dilation_height: %d dilation_width: %d", g.dh, g.dw)
		}
		return nil
	}
	pad := func() error {
		if g.pw < 0 || g.ph < 0 {
			return fmt.Errorf("padding should be non-negative, but got pad_height: %d pad_width: %d", g.ph, g.pw)
		}
		return nil
	}
	stride := func() error {
		if g.sw <= 0 || g.sh <= 0 {
			return fmt.Errorf("stride should be greater than zero, but got stride_height: %d stride_width: %d", g.sh, g.sw)
		}
		return nil
	}
	order := []func() error{kernel, dil, pad, stride}
	if col2im {
		order = []func() error{kernel, stride, dil, pad}
	}
	for _, f := range order {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func newCol2im(c *call) (*imCol, *array, error) {
	x, err := nnNeed(c, 0, "self")
	if err != nil {
		return nil, nil, err
	}
	p, err := imColPairs(c, []string{"output_size", "kernel_size", "dilation", "padding", "stride"})
	if err != nil {
		return nil, nil, err
	}
	g := &imCol{h: p["output_size"][0], w: p["output_size"][1], kh: p["kernel_size"][0], kw: p["kernel_size"][1], dh: p["dilation"][0], dw: p["dilation"][1],
		ph: p["padding"][0], pw: p["padding"][1], sh: p["stride"][0], sw: p["stride"][1]}
	if err := g.paramChecks(true); err != nil {
		return nil, nil, err
	}
	r := x.rank()
	sh := x.shape
	if !(r == 2 && sh[0] != 0 && sh[1] != 0) && !(r == 3 && sh[1] != 0 && sh[2] != 0) {
		return nil, nil, fmt.Errorf("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: %s", ops.ShapeList(sh))
	}
	planes, length := sh[r-2], sh[r-1]
	if planes%(g.kw*g.kh) != 0 {
		return nil, nil, fmt.Errorf("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=%d and kernel_size=(%d, %d).",
			planes, g.kh, g.kw)
	}
	g.oh = nnFloorDiv(g.h+2*g.ph-g.dh*(g.kh-1)-1, g.sh) + 1
	g.ow = nnFloorDiv(g.w+2*g.pw-g.dw*(g.kw-1)-1, g.sw) + 1
	prefix := fmt.Sprintf("Given output_size=(%d, %d), kernel_size=(%d, %d), dilation=(%d, %d), padding=(%d, %d), stride=(%d, %d), ",
		g.h, g.w, g.kh, g.kw, g.dh, g.dw, g.ph, g.pw, g.sh, g.sw)
	if length != g.oh*g.ow {
		return nil, nil, fmt.Errorf("%sexpected size of input's dimension 2 to match the calculated number of sliding blocks %d * %d = %d, but got input.size(2)=%d.",
			prefix, g.oh, g.ow, g.oh*g.ow, length)
	}
	if g.oh < 1 || g.ow < 1 {
		return nil, nil, fmt.Errorf("%scalculated shape of the array of sliding blocks as (%d, %d), which is too small (non-positive)", prefix, g.oh, g.ow)
	}
	if g.h < 1 || g.w < 1 {
		return nil, nil, fmt.Errorf("Expected output spatial size to be positive, but got: output_size=(%d, %d).", g.h, g.w)
	}
	if !x.dtype.IsFloat() {
		return nil, nil, nnNotImpl("col2im_out_cpu", x.dtype)
	}
	g.batched = r == 3
	g.batch, g.c = 1, planes/(g.kh*g.kw)
	if g.batched {
		g.batch = sh[0]
	}
	return g, x, nil
}

// imShape and colShape are the image's and the columns' shapes.
func (g *imCol) imShape() []int {
	if g.batched {
		return []int{g.batch, g.c, g.h, g.w}
	}
	return []int{g.c, g.h, g.w}
}

func (g *imCol) colShape() []int {
	if g.batched {
		return []int{g.batch, g.c * g.kh * g.kw, g.oh * g.ow}
	}
	return []int{g.c * g.kh * g.kw, g.oh * g.ow}
}

// gather writes the columns of every (batch, channel) image plane of im
// into col (im2col).
func (g *imCol) gather(im, col []float64) {
	plane, kk, l := g.h*g.w, g.kh*g.kw, g.oh*g.ow
	parallelPlanes(g.batch*g.c, func(pc int) {
		src := im[pc*plane : (pc+1)*plane]
		dst := col[pc*kk*l : (pc+1)*kk*l]
		for k := 0; k < kk; k++ {
			hOff, wOff := (k/g.kw)*g.dh-g.ph, (k%g.kw)*g.dw-g.pw
			for hc := 0; hc < g.oh; hc++ {
				hi := hc*g.sh + hOff
				row := dst[(k*g.oh+hc)*g.ow:]
				for wc := 0; wc < g.ow; wc++ {
					wi := wc*g.sw + wOff
					if hi >= 0 && hi < g.h && wi >= 0 && wi < g.w {
						row[wc] = src[hi*g.w+wi]
					} else {
						row[wc] = 0
					}
				}
			}
		}
	})
}

// scatter adds the columns col into the zeroed image im (col2im), in
// PyTorch's order, rounding each addition as arithmetic ar does.
func (g *imCol) scatter(col, im []float64, ar poolArith) {
	plane, kk, l := g.h*g.w, g.kh*g.kw, g.oh*g.ow
	parallelPlanes(g.batch*g.c, func(pc int) {
		dst := im[pc*plane : (pc+1)*plane]
		src := col[pc*kk*l : (pc+1)*kk*l]
		for k := 0; k < kk; k++ {
			hOff, wOff := (k/g.kw)*g.dh-g.ph, (k%g.kw)*g.dw-g.pw
			for hc := 0; hc < g.oh; hc++ {
				hi := hc*g.sh + hOff
				if hi < 0 || hi >= g.h {
					continue
				}
				row := src[(k*g.oh+hc)*g.ow : (k*g.oh+hc+1)*g.ow]
				scatterRow(dst[hi*g.w:(hi+1)*g.w], row, wOff, g.sw, ar)
			}
		}
	})
}

// scatterRow adds row[wc] at out[wc·sw + wOff] (inside out), rounding
// each addition as ar does.
func scatterRow(out, row []float64, wOff, sw int, ar poolArith) {
	w := len(out)
	switch ar {
	case arithF64:
		for wc, v := range row {
			if wi := wc*sw + wOff; wi >= 0 && wi < w {
				out[wi] += v
			}
		}
	case arithF32:
		for wc, v := range row {
			if wi := wc*sw + wOff; wi >= 0 && wi < w {
				out[wi] = float64(float32(out[wi]) + float32(v))
			}
		}
	case arithF16:
		for wc, v := range row {
			if wi := wc*sw + wOff; wi >= 0 && wi < w {
				out[wi] = float64(f16Round(float32(out[wi]) + float32(v)))
			}
		}
	default:
		for wc, v := range row {
			if wi := wc*sw + wOff; wi >= 0 && wi < w {
				out[wi] = float64(bf16Round(float32(out[wi]) + float32(v)))
			}
		}
	}
}

func im2colForward(c *call) ([]*array, error) {
	g, x, err := newIm2col(c)
	if err != nil {
		return nil, err
	}
	out := &array{shape: g.colShape(), data: float64sFor(tensor.NumElements(g.colShape())), dtype: x.dtype}
	g.gather(x.data, out.data)
	return []*array{out}, nil
}

func im2colBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	g, x, err := newIm2col(c)
	if err != nil {
		return nil, err
	}
	gx := zeros(len(x.data))
	g.scatter(gradData(gos[0], tensor.NumElements(g.colShape())), gx, poolArithOf(x.dtype))
	return []*array{gradForOwned(c, 0, gx, x.shape)}, nil
}

func col2imForward(c *call) ([]*array, error) {
	g, x, err := newCol2im(c)
	if err != nil {
		return nil, err
	}
	out := &array{shape: g.imShape(), data: zeros(tensor.NumElements(g.imShape())), dtype: x.dtype}
	g.scatter(x.data, out.data, poolArithOf(x.dtype))
	return []*array{out}, nil
}

func col2imBackward(c *call, outs, gos []*array) ([]*array, error) {
	if !nnWantsGrad(c, 0) {
		return []*array{nil}, nil
	}
	g, x, err := newCol2im(c)
	if err != nil {
		return nil, err
	}
	gx := float64sFor(len(x.data))
	g.gather(gradData(gos[0], tensor.NumElements(g.imShape())), gx)
	return []*array{gradForOwned(c, 0, gx, x.shape)}, nil
}
