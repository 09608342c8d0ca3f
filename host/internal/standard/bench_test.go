package standard

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/probe-dev/probe/sdk/tensor"
)

// benchN is the element count of the benchmarks: 2 × 64 Mi float32
// elements, 512 MiB of input.
const benchN = 64 << 20

var (
	benchOnce          sync.Once
	benchBench, benchD *tensor.Tensor
)

// benchPair is a float32 bench and a float32 device output that differs
// from it by a few ULPs on most elements, with some small values.
func benchPair() (*tensor.Tensor, *tensor.Tensor) {
	benchOnce.Do(func() {
		benchBench, benchD = tensor.New(tensor.Float32, []int{benchN}), tensor.New(tensor.Float32, []int{benchN})
		r := rand.New(rand.NewPCG(7, 8))
		for i := 0; i < benchN; i++ {
			v := float32(r.NormFloat64())
			if i%97 == 0 {
				v *= 1e-7
			}
			u := math.Float32bits(v)
			binary.LittleEndian.PutUint32(benchBench.Data[4*i:], u)
			binary.LittleEndian.PutUint32(benchD.Data[4*i:], u+uint32(r.IntN(5))-2) // ±2 ULPs
		}
	})
	return benchBench, benchD
}

// BenchmarkCopy copies the bytes of both tensors: the memory-bandwidth
// yardstick for BenchmarkMetrics.
func BenchmarkCopy(b *testing.B) {
	x, y := benchPair()
	dst := make([]byte, len(x.Data)+len(y.Data))
	// Touch dst once first: on a VM the first touch of a fresh page costs
	// microseconds, and a benchmark of one iteration would measure that.
	copy(dst, x.Data)
	copy(dst[len(x.Data):], y.Data)
	b.SetBytes(int64(len(dst)))
	b.ResetTimer()
	for range b.N {
		copy(dst, x.Data)
		copy(dst[len(x.Data):], y.Data)
	}
}

// BenchmarkMetrics measures the one-pass metrics over 2 × 64 Mi float32
// elements: Judge for an API of each standard (the legacy family plus the
// standard's own), the same with the bench in float64 as a run has it, and
// every family at once. Bytes/s count the float32 input bytes.
func BenchmarkMetrics(b *testing.B) {
	x, y := benchPair()
	for _, c := range []struct{ name, api string }{
		{"benchmark", "softmax"}, {"absolute", "add"}, {"ulp", "matmul"}, {"binary", "relu"}, {"thousandth", "conv2d"},
	} {
		b.Run("judge-"+c.name, func(b *testing.B) {
			b.SetBytes(int64(len(x.Data) + len(y.Data)))
			for range b.N {
				PyTorch{}.Judge(Pair{API: c.api, Bench: x, Device: y})
			}
		})
	}
	// What a run judges: a float64 bench (the bench plugin's result)
	// against the float32 device output.
	x64 := x.Cast(tensor.Float64)
	for _, c := range []struct{ name, api string }{{"benchmark", "softmax"}, {"absolute", "add"}, {"ulp", "matmul"}} {
		b.Run("judge-"+c.name+"-f64bench", func(b *testing.B) {
			b.SetBytes(int64(len(x.Data) + len(y.Data)))
			for range b.N {
				PyTorch{}.Judge(Pair{API: c.api, Bench: x64, Device: y})
			}
		})
	}
	b.Run("all", func(b *testing.B) {
		b.SetBytes(int64(len(x.Data) + len(y.Data)))
		for range b.N {
			Measure(x, y, GroupAll, Options{})
		}
	})
}

// BenchmarkJudgeSmall is the per-call overhead of Judge on a typical small
// output (64×32 fp32 device, float64 bench, benchmark standard).
func BenchmarkJudgeSmall(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	v := make([]float64, 64*32)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	bench := tensor.FromFloat64s(tensor.Float64, []int{64, 32}, v)
	dev := bench.Cast(tensor.Float32)
	b.ReportAllocs()
	for range b.N {
		PyTorch{}.Judge(Pair{API: "softmax", Bench: bench, Device: dev})
	}
}
