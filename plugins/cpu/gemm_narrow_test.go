package cpu

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// gemmNarrowGolden is testdata/gemm_narrow.json, written by
// testdata/gen_golden_gemm_narrow.py with real PyTorch 1.13.
type gemmNarrowGolden struct {
	Cases []struct {
		Name       string
		Op         string
		Attrs      map[string]any
		Inputs     []gemmNarrowTensor
		Output     gemmNarrowTensor
		GradOutput gemmNarrowTensor `json:"grad_output"`
		Grads      []gemmNarrowTensor
	}
}

type gemmNarrowTensor struct {
	Shape []int
	Bits  string
}

func (g gemmNarrowTensor) array(t *testing.T) *array {
	raw, err := hex.DecodeString(g.Bits)
	if err != nil {
		t.Fatal(err)
	}
	a := &array{shape: g.Shape, data: make([]float64, len(raw)/2), dtype: tensor.BFloat16}
	for i := range a.data {
		a.data[i] = bf16Value(uint16(raw[2*i])<<8 | uint16(raw[2*i+1]))
	}
	return a
}

// gemmNarrowAttrs converts the generator's attributes: floats for alpha
// and beta, int lists for tensordot's dims, ints otherwise.
func gemmNarrowAttrs(m map[string]any) ops.Attrs {
	at := ops.Attrs{}
	for k, v := range m {
		switch v := v.(type) {
		case []any:
			ints := make([]int64, len(v))
			for i, x := range v {
				ints[i] = int64(x.(float64))
			}
			at[k] = ops.IntsAttr(ints...)
		case float64:
			if k == "alpha" || k == "beta" {
				at[k] = ops.FloatAttr(v)
			} else {
				at[k] = ops.IntAttr(int64(v))
			}
		}
	}
	return at
}

// gemmNarrowDiff counts the elements of got (rounded as the device
// rounds bfloat16 results) whose bits differ from want's.
func gemmNarrowDiff(got, want *array) int {
	v := append([]float64(nil), got.data...)
	roundResult(Emulated, tensor.BFloat16, v)
	bad := 0
	for i, x := range v {
		w := want.data[i]
		if x != w && !(math.IsNaN(x) && math.IsNaN(w)) {
			bad++
		}
	}
	return bad
}

// TestGemmNarrowGolden runs every case of the golden corpus through the
// registered kernels and requires PyTorch's bfloat16 bits exactly, for
// the output and every input's gradient.
func TestGemmNarrowGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/gemm_narrow.json")
	if err != nil {
		t.Fatal(err)
	}
	var gold gemmNarrowGolden
	if err := json.Unmarshal(raw, &gold); err != nil {
		t.Fatal(err)
	}
	for _, cs := range gold.Cases {
		k := kernels[cs.Op]
		in := make([]*array, len(cs.Inputs))
		rg := make([]bool, len(in))
		for i, x := range cs.Inputs {
			in[i], rg[i] = x.array(t), true
		}
		c := &call{op: cs.Op, attrs: gemmNarrowAttrs(cs.Attrs), in: in, requiresGrad: rg}
		outs, err := k.forward(c)
		if err != nil {
			t.Errorf("%s: %v", cs.Name, err)
			continue
		}
		if bad := gemmNarrowDiff(outs[0], cs.Output.array(t)); bad > 0 {
			t.Errorf("%s: forward: %d of %d elements differ from PyTorch", cs.Name, bad, len(outs[0].data))
		}
		grads, err := k.backward(c, outs, []*array{cs.GradOutput.array(t)})
		if err != nil {
			t.Errorf("%s backward: %v", cs.Name, err)
			continue
		}
		for i, want := range cs.Grads {
			if grads[i] == nil {
				t.Errorf("%s: no gradient for input %d", cs.Name, i)
				continue
			}
			if bad := gemmNarrowDiff(grads[i], want.array(t)); bad > 0 {
				t.Errorf("%s: gradient %d: %d of %d elements differ from PyTorch", cs.Name, i, bad, len(grads[i].data))
			}
		}
	}
}

// TestGemmNarrowBF16Round checks bf16Round against the tensor package's
// conversion on random, tie, overflow and special values.
func TestGemmNarrowBF16Round(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := []float32{0, -0, 1, math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x3F808000), math.Float32frombits(0x3F818000), math.Float32frombits(0x00000001)}
	for i := 0; i < 10000; i++ {
		vals = append(vals, math.Float32frombits(r.Uint32()))
	}
	for _, v := range vals {
		got := bf16Round(v)
		want := float32(tensor.BFloat16Value(tensor.BFloat16Bits(float64(v))))
		if math.IsNaN(float64(v)) {
			if got == got {
				t.Fatalf("bf16Round(NaN) = %v", got)
			}
			continue
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("bf16Round(%x) = %x, want %x", math.Float32bits(v), math.Float32bits(got), math.Float32bits(want))
		}
	}
}
