package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
)

// Benchmarks of the heavy nn kernels (go test -bench NN ./plugins/cpu).

func nnBenchKernel(b *testing.B, c *call, backward bool) {
	k := kernels[c.op]
	for i := range c.in {
		c.requiresGrad[i] = c.in[i] != nil
	}
	outs, err := k.forward(c)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	gys := []*array{nnRandArray(r, outs[0].shape...)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := k.forward(c); err != nil {
			b.Fatal(err)
		}
		if backward {
			if _, err := k.backward(c, outs, gys); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkNNMatmul256(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	c := &call{op: "matmul", attrs: ops.Attrs{}, in: []*array{nnRandArray(r, 4, 256, 256), nnRandArray(r, 256, 256)}, requiresGrad: make([]bool, 2)}
	nnBenchKernel(b, c, true)
}

func BenchmarkNNConv2d(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	c := &call{op: "convolution",
		attrs:        ops.Attrs{"stride": ops.IntsAttr(1, 1), "padding": ops.IntsAttr(1, 1), "dilation": ops.IntsAttr(1, 1), "groups": ops.IntAttr(1)},
		in:           []*array{nnRandArray(r, 4, 16, 32, 32), nnRandArray(r, 32, 16, 3, 3), nnRandArray(r, 32)},
		requiresGrad: make([]bool, 3)}
	nnBenchKernel(b, c, true)
}

func BenchmarkNNLayerNorm(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	c := &call{op: "layer_norm", attrs: ops.Attrs{"normalized_shape": ops.IntsAttr(1024), "eps": ops.FloatAttr(1e-5)},
		in: []*array{nnRandArray(r, 64, 1024), nnRandArray(r, 1024), nnRandArray(r, 1024)}, requiresGrad: make([]bool, 3)}
	nnBenchKernel(b, c, true)
}
