package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// The emulated device's float32 convolutions and batched products sum in
// float32 (call.gemmDT). The references here form the same float32 sums
// by another route: explicit index loops (no im2col table, no packing),
// each element a fused chain from zero per block of gemmKC products, the
// block added to the float32 sum so far (sgemmAddRef).

// sgemmAddRef adds Σ_l a(i, l)·b(l, j) to c32 (m×n) as sgemmPacked does:
// per k block a float32 chain of fused products from zero, added to c32 in
// float32.
func sgemmAddRef(c32 []float32, m, n, k int, a, b func(i, l int) float64) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for pc := 0; pc < k; pc += gemmKC {
				var acc float32
				for l := pc; l < min(pc+gemmKC, k); l++ {
					acc = float32(math.FMA(a(i, l), b(l, j), float64(acc)))
				}
				c32[i*n+j] += acc
			}
		}
	}
}

// f32Values are n float32 values, normal with a spread of scales.
func f32Values(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(7)-3))))
	}
	return v
}

// sameBits fails unless got holds want's values rounded to float32.
func sameBits(t *testing.T, name string, got *tensor.Tensor, want []float64) {
	t.Helper()
	g := got.Float64s()
	if len(g) != len(want) {
		t.Fatalf("%s: %d values, want %d", name, len(g), len(want))
	}
	bad := 0
	first := -1
	for i := range g {
		if math.Float32bits(float32(g[i])) != math.Float32bits(float32(want[i])) {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values differ from the float32 sums, first [%d] %v, want %v", name, bad, len(g), first, g[first], float32(want[first]))
	}
}

// TestConvFloat32Sums: an emulated float32 convolution, forward and
// backward, gives the bits of the float32 sums of sgemmAddRef: output
// (products in float32, the bias added in float64, rounded once), input
// gradient (Wᵀ·g's columns in float32, their kernel offsets added in
// float64) and weight gradient (every image's product added to a float32
// sum), at one and two goroutines; also with HF32 inputs. The bench's
// products stay float64.
func TestConvFloat32Sums(t *testing.T) {
	if !gemmHasFMA {
		t.Skip("no AVX2/FMA: float32 products are formed in float64")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const (
		batch, cin, cout, groups = 3, 16, 32, 2
		h, w, kh, kw, pad        = 9, 8, 3, 3, 1
	)
	cg, cog := cin/groups, cout/groups
	oh, ow := h+2*pad-kh+1, w+2*pad-kw+1
	oS, rowsK := oh*ow, cg*kh*kw
	if cog*oS*rowsK < gemmMinWork || cog*rowsK*oS < gemmMinWork {
		t.Fatal("the products are too small to be formed in float32")
	}
	r := rand.New(rand.NewPCG(11, 12))
	xv, wv, bv := f32Values(r, batch*cin*h*w), f32Values(r, cout*cg*kh*kw), f32Values(r, cout)
	gv := f32Values(r, batch*cout*oS)
	for _, hf32 := range []bool{false, true} {
		// with HF32 every float32 input is rounded to HF32 first
		xr, wr, br := xv, wv, bv
		if hf32 {
			round := func(v []float64) []float64 {
				out := make([]float64, len(v))
				for i, x := range v {
					out[i] = float64(ops.RoundHF32(float32(x)))
				}
				return out
			}
			xr, wr, br = round(xv), round(wv), round(bv)
		}
		// x(n, c, y, x) with zero padding; the column row l of group gr
		// is (channel, kernel row, kernel column)
		xAt := func(n, c, y, x int) float64 {
			if y < 0 || y >= h || x < 0 || x >= w {
				return 0
			}
			return xr[((n*cin+c)*h+y)*w+x]
		}
		col := func(n, gr, l, o int) float64 {
			ci, ky, kx := l/(kh*kw), l/kw%kh, l%kw
			return xAt(n, gr*cg+ci, o/ow-pad+ky, o%ow-pad+kx)
		}
		wAt := func(gr, co, l int) float64 { return wr[(gr*cog+co)*rowsK+l] }
		gAt := func(n, gr, co, o int) float64 { return gv[(n*cout+gr*cog+co)*oS+o] }
		out := make([]float64, batch*cout*oS)
		gx := make([]float64, batch*cin*h*w)
		gw32 := make([]float32, cout*rowsK)
		for n := 0; n < batch; n++ {
			for gr := 0; gr < groups; gr++ {
				o32 := make([]float32, cog*oS)
				sgemmAddRef(o32, cog, oS, rowsK, func(co, l int) float64 { return wAt(gr, co, l) },
					func(l, o int) float64 { return col(n, gr, l, o) })
				for co := 0; co < cog; co++ {
					for o := 0; o < oS; o++ {
						out[(n*cout+gr*cog+co)*oS+o] = float64(o32[co*oS+o]) + br[gr*cog+co]
					}
				}
				gc32 := make([]float32, rowsK*oS)
				sgemmAddRef(gc32, rowsK, oS, cog, func(l, co int) float64 { return wAt(gr, co, l) },
					func(co, o int) float64 { return gAt(n, gr, co, o) })
				for l := 0; l < rowsK; l++ {
					ci, ky, kx := l/(kh*kw), l/kw%kh, l%kw
					for o := 0; o < oS; o++ {
						y, x := o/ow-pad+ky, o%ow-pad+kx
						if y >= 0 && y < h && x >= 0 && x < w {
							gx[((n*cin+gr*cg+ci)*h+y)*w+x] += float64(gc32[l*oS+o])
						}
					}
				}
				sgemmAddRef(gw32[gr*cog*rowsK:(gr+1)*cog*rowsK], cog, rowsK, oS,
					func(co, o int) float64 { return gAt(n, gr, co, o) }, func(o, l int) float64 { return col(n, gr, l, o) })
			}
		}
		gw := make([]float64, len(gw32))
		for i, v := range gw32 {
			gw[i] = float64(v)
		}
		req := &device.ExecRequest{Op: "convolution",
			Inputs: []ops.Value{ops.T(tensor.FromFloat64s(tensor.Float32, []int{batch, cin, h, w}, xv)),
				ops.T(tensor.FromFloat64s(tensor.Float32, []int{cout, cg, kh, kw}, wv)),
				ops.T(tensor.FromFloat64s(tensor.Float32, []int{cout}, bv))},
			Attrs:    ops.Attrs{"stride": ops.IntsAttr(1, 1), "padding": ops.IntsAttr(pad, pad), "dilation": ops.IntsAttr(1, 1), "groups": ops.IntAttr(groups)},
			Backward: true, RequiresGrad: []bool{true, true, false},
			GradOutputs: []*tensor.Tensor{tensor.FromFloat64s(tensor.Float32, []int{batch, cout, oh, ow}, gv)},
			Precision:   ops.Precision{HF32: hf32}}
		for _, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			name := fmt.Sprintf("hf32=%v procs=%d", hf32, procs)
			res, err := execute(Options{Mode: Emulated}, req)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sameBits(t, name+" output", res.Outputs[0], out)
			sameBits(t, name+" input gradient", res.InputGrads[0], gx)
			sameBits(t, name+" weight gradient", res.InputGrads[1], gw)
		}
		// the bench: float64 products, which differ from the float32 sums
		res, err := execute(Options{Mode: Bench}, req)
		if err != nil {
			t.Fatal(err)
		}
		differs := func(got *tensor.Tensor, f32 []float64) bool {
			for i, v := range got.Float64s() {
				if float32(v) != float32(f32[i]) {
					return true
				}
			}
			return false
		}
		if !differs(res.Outputs[0], out) || !differs(res.InputGrads[0], gx) || !differs(res.InputGrads[1], gw) {
			t.Errorf("hf32=%v: the bench gives the float32 sums; want float64 products", hf32)
		}
	}
}

// TestMatmulFloat32Sums: an emulated float32 matmul of a batch by a matrix
// (the matrix's gradient summed over the batch) and bmm, forward and
// backward, give the bits of sgemmAddRef's float32 sums, the broadcast
// gradient one float32 sum over the batches.
func TestMatmulFloat32Sums(t *testing.T) {
	if !gemmHasFMA {
		t.Skip("no AVX2/FMA: float32 products are formed in float64")
	}
	r := rand.New(rand.NewPCG(13, 14))
	const batch, n, k, p = 3, 40, 300, 36 // two k blocks in the forward
	for _, op := range []string{"matmul", "bmm"} {
		bBatch := 1
		bShape := []int{k, p}
		if op == "bmm" {
			bBatch, bShape = batch, []int{batch, k, p}
		}
		av, bv, gv := f32Values(r, batch*n*k), f32Values(r, bBatch*k*p), f32Values(r, batch*n*p)
		bIdx := func(b int) int { return b % bBatch }
		out := make([]float64, batch*n*p)
		ga32, gb32 := make([]float32, batch*n*k), make([]float32, bBatch*k*p)
		for b := 0; b < batch; b++ {
			o32 := make([]float32, n*p)
			sgemmAddRef(o32, n, p, k, func(i, l int) float64 { return av[(b*n+i)*k+l] },
				func(l, j int) float64 { return bv[(bIdx(b)*k+l)*p+j] })
			for i, v := range o32 {
				out[b*n*p+i] = float64(v)
			}
			sgemmAddRef(ga32[b*n*k:(b+1)*n*k], n, k, p, func(i, j int) float64 { return gv[(b*n+i)*p+j] },
				func(j, l int) float64 { return bv[(bIdx(b)*k+l)*p+j] })
			sgemmAddRef(gb32[bIdx(b)*k*p:(bIdx(b)+1)*k*p], k, p, n, func(l, i int) float64 { return av[(b*n+i)*k+l] },
				func(i, j int) float64 { return gv[(b*n+i)*p+j] })
		}
		wide := func(v []float32) []float64 {
			w := make([]float64, len(v))
			for i, x := range v {
				w[i] = float64(x)
			}
			return w
		}
		req := &device.ExecRequest{Op: op,
			Inputs: []ops.Value{ops.T(tensor.FromFloat64s(tensor.Float32, []int{batch, n, k}, av)),
				ops.T(tensor.FromFloat64s(tensor.Float32, bShape, bv))},
			Backward: true, RequiresGrad: []bool{true, true},
			GradOutputs: []*tensor.Tensor{tensor.FromFloat64s(tensor.Float32, []int{batch, n, p}, gv)}}
		res, err := execute(Options{Mode: Emulated}, req)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		sameBits(t, op+" output", res.Outputs[0], out)
		sameBits(t, op+" gradient of A", res.InputGrads[0], wide(ga32))
		sameBits(t, op+" gradient of B", res.InputGrads[1], wide(gb32))
	}
}
